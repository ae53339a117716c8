"""Calibration: ECE, the fitted maps, the stratified validation/test split, and the hook that maps
the verifier's confidence (a real Verifier over a real ledger; typed predicates, no model)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from runtime.contract import Artifact
from runtime.evals.calibration import CalibratedVerifier, ConfidenceMap, Curve, calibrate, ece, family, fit_isotonic, fit_temperature, split
from runtime.verify.verifier import Verifier
from tests.corpus import INVOICE


def test_ece_is_the_gap_between_confidence_and_accuracy():
    assert ece([0.9] * 10, [1] * 9 + [0]) == pytest.approx(0.0)
    assert ece([1.0] * 4, [1, 0, 1, 0]) == pytest.approx(0.5)
    assert ece([], []) is None


def overconfident(n=400, seed=0):
    rng = np.random.default_rng(seed)
    c = rng.uniform(0.6, 1.0, n)
    y = (rng.uniform(0, 1, n) < (c - 0.25)).astype(float)  # right 25 points less often than it claims
    return c, y


@pytest.mark.parametrize("fit", [fit_temperature, fit_isotonic])
def test_each_map_repairs_an_overconfident_checker(fit):
    c, y = overconfident()
    curve = fit(c[:200], y[:200])
    assert ece(curve.apply(c[200:]), y[200:]) < ece(c[200:], y[200:]) / 2
    assert np.all(np.diff(curve.apply(np.linspace(0, 1, 50))) >= -1e-12)  # monotone


def test_calibrate_chooses_on_validation_and_reports_on_a_separate_part():
    c, y = overconfident(600, seed=1)
    samples = [(f"g{i % 150}", "nli/supported" if i % 3 else "rules/contradicted", float(c[i]), bool(y[i])) for i in range(600)]
    fitted, rep = calibrate(samples)
    assert rep["validation_n"] + rep["test_n"] == 600 and rep["method"] != "identity"
    assert rep["ece_after"] < rep["ece_before"]
    side = split(samples)
    assert {side[k] for k in side} == {0, 1} and len(side) == 150  # by gold id: no claim on both sides
    assert set(fitted.fitted_on["cv_ece"]) == {"identity", "temperature", "isotonic", "temperature_per_family", "isotonic_per_family"}


def test_a_map_round_trips_and_falls_back_for_unknown_families(tmp_path):
    m = ConfidenceMap(method="temperature", families={"nli/supported": Curve(method="temperature", temperature=2.0)},
                      default=Curve(method="identity"))
    path = m.save(tmp_path / "map.json")
    back = ConfidenceMap.load(path)
    assert back == m and json.loads(path.read_text())["method"] == "temperature"
    assert back(0.9, "nli:onnx:model", "supported") == pytest.approx(0.75, abs=1e-6)  # logit(0.9) / 2
    assert back(0.9, "predicate:line_rate", "supported") == pytest.approx(0.9)
    assert family("nli:onnx:x", "contradicted") == "nli/contradicted"


def test_the_hook_maps_confidence_and_changes_nothing_else(ledger):
    inv = ledger.append("r1", json.dumps(INVOICE).encode(), kind="tool_output", media_type="application/json")
    art = Artifact.model_validate({"run_id": "r1", "from_agent": "analyst", "claims": [{
        "id": "c1", "type": "Assertion", "text": "Line 14 rate",
        "propositions": [{"id": "p1", "pred": "line_rate", "args": {"invoice_id": "INV-4421", "line_id": "14", "rate": 320.0},
                          "ledger_ids": [inv]}]}]})
    raw = Verifier(ledger, None).verify(art)
    cmap = ConfidenceMap(method="isotonic", families={"predicate/supported": Curve(method="isotonic", x=[0.0, 1.0], y=[0.0, 0.97])})
    hooked = CalibratedVerifier(Verifier(ledger, None), cmap)
    got = hooked.verify(art)
    [p_raw], [p] = raw.claims[0].propositions, got.claims[0].propositions
    assert p_raw.confidence == 1.0 and p.confidence == pytest.approx(0.97)
    assert p.model_copy(update={"confidence": 1.0}) == p_raw and got.status == raw.status == "pass"
    assert hooked.backend_name == "none"
