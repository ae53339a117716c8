"""Calibration: ECE, the fitted maps, the stratified validation/test split, and the hook that maps
the verifier's confidence (a real Verifier over a real ledger; typed predicates, no model)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from warrant.runtime.contract import Artifact
from warrant.runtime.evals.calibration import CalibratedVerifier, ConfidenceMap, Curve, calibrate, ece, family, fit_isotonic, fit_temperature, split
from warrant.runtime.verify.verifier import Verifier
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


# -- calibration in use: ControlPlane.open applies the configured map --------------------------------

_CONSTANT = ConfidenceMap(method="isotonic", families={"predicate/supported": Curve(method="isotonic", x=[0.0, 1.0], y=[0.0, 0.61])})


def _rate_run(plane, tmp_path):
    """A two-node run whose analyst asserts line 14's rate (a typed predicate: no model needed)."""
    from warrant.examples.invoice_audit import graph as example
    from warrant.runtime.contract import Claim, Proposition
    from warrant.runtime.graph import Graph, GraphRunner, ScriptedAgent

    def planner(ctx):
        if not ctx.find(via="tool:lookup_invoice"):
            ctx.tools.call("lookup_invoice", {"invoice_id": "INV-4421"})
        return ctx.artifact()

    def analyst(ctx):
        inv = ctx.first(via="tool:lookup_invoice").ledger_id
        p = Proposition(id="p", pred="line_rate", args={"invoice_id": "INV-4421", "line_id": "14", "rate": 320.0, "currency": "USD"},
                        ledger_ids=[inv])
        return ctx.artifact(claims=[Claim(id="c", type="Assertion", text="Line 14 is billed at 320 USD", propositions=[p])])

    g = Graph.chain("g", [ScriptedAgent("planner", planner), ScriptedAgent("analyst", analyst)])
    rep = GraphRunner(plane, corpus=example.corpus(), report_dir=tmp_path / "runs", max_rounds=1).run(g, {"invoice_id": "INV-4421"})
    [h] = [h for h in rep.handoffs if h.node == "analyst"]
    assert rep.status == "COMPLETED" and h.outcome == "passed"
    return [p.confidence for c in h.verdicts for p in c.propositions]


@pytest.fixture
def example_registry():
    from warrant.examples.invoice_audit import graph as example
    from warrant.examples.invoice_audit import tools_impl

    tools_impl.reset()
    yield example.registry()
    tools_impl.reset()


@pytest.mark.parametrize("how", ["argument", "path", "env"])
def test_control_plane_open_applies_a_configured_map(tmp_path, monkeypatch, example_registry, how):
    from warrant.runtime.graph.runner import ControlPlane

    monkeypatch.delenv("WARRANT_CONFIDENCE_MAP", raising=False)
    plain = ControlPlane.open(str(tmp_path / "plain"), example_registry, backend=None)
    try:
        assert _rate_run(plain, tmp_path / "p") == [1.0]
    finally:
        plain.close()
    path = _CONSTANT.save(tmp_path / "map.json")
    kw = {"argument": {"confidence_map": _CONSTANT}, "path": {"confidence_map": str(path)}, "env": {}}[how]
    if how == "env":
        monkeypatch.setenv("WARRANT_CONFIDENCE_MAP", str(path))
    plane = ControlPlane.open(str(tmp_path / "cal"), example_registry, backend=None, **kw)
    try:
        assert isinstance(plane.verifier, CalibratedVerifier) and plane.verifier.map == _CONSTANT
        assert _rate_run(plane, tmp_path / "c") == [pytest.approx(0.61)]  # the verdict the run reports is the calibrated one
    finally:
        plane.close()


def test_control_plane_open_without_a_map_or_with_false_keeps_the_raw_verifier(tmp_path, monkeypatch, example_registry):
    from warrant.runtime.graph.runner import ControlPlane

    monkeypatch.setenv("WARRANT_CONFIDENCE_MAP", str(_CONSTANT.save(tmp_path / "map.json")))
    plane = ControlPlane.open(str(tmp_path / "l"), example_registry, backend=None, confidence_map=False)
    try:
        assert isinstance(plane.verifier, Verifier)
    finally:
        plane.close()


@pytest.mark.parametrize("content, message", [
    (None, "WARRANT_CONFIDENCE_MAP=.*no such file"),
    ("{not json", "WARRANT_CONFIDENCE_MAP=.*not a confidence map"),
    ('{"method": "cubic"}', "not a confidence map: method: Input should be"),
])
def test_a_bad_configured_map_fails_before_anything_is_opened(tmp_path, monkeypatch, example_registry, content, message):
    from warrant.runtime.graph.runner import ConfidenceMapError, ControlPlane

    path = tmp_path / "map.json"
    if content is not None:
        path.write_text(content)
    monkeypatch.setenv("WARRANT_CONFIDENCE_MAP", str(path))
    with pytest.raises(ConfidenceMapError, match=message):
        ControlPlane.open(str(tmp_path / "ledger"), example_registry, backend=None)
    assert not (tmp_path / "ledger").exists()
    with pytest.raises(ConfidenceMapError, match="confidence_map: expected a ConfidenceMap"):
        ControlPlane.open(str(tmp_path / "ledger"), example_registry, backend=None, confidence_map=0.5)


def test_warrant_run_reports_a_bad_map_as_bad_input(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from warrant.runtime.cli import app

    monkeypatch.setenv("WARRANT_CONFIDENCE_MAP", str(tmp_path / "missing.json"))
    res = CliRunner().invoke(app, ["run", "warrant.examples.invoice_audit.graph:build_graph", "--ledger", str(tmp_path / "l"),
                                   "--out", str(tmp_path / "r.html"), "--model", "none"])
    assert res.exit_code == 2 and "no such file" in res.output
