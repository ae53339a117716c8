"""The release gate in CI: `warrant eval` on the shipped gold sets with the scripted graphs against
the committed baselines (real ledger, gate, verifier with the embedded NLI model, tool bus, grants),
and a verifier degraded on purpose by configuration failing it with the figure named. Plus every
bad input answered with exit code 2 before anything runs."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from warrant.runtime.cli import app
from warrant.runtime.evals.release import gate
from warrant.runtime.evals.results import load_result
from warrant.runtime.verify.backends import ModelMissingError, load_backend

ROOT = Path(__file__).resolve().parents[2]
EVALS = ROOT / "evals" / "invoice_audit"
SETS = {
    "gold": ("warrant.evals.invoice_audit.graphs:honest", EVALS / "baselines" / "gold.json"),
    "gold_adversarial": ("warrant.evals.invoice_audit.graphs:adversarial", EVALS / "baselines" / "gold_adversarial.json"),
}


def invoke(*args: str):
    return CliRunner().invoke(app, ["eval", *map(str, args)], env={"COLUMNS": "200"})


@pytest.fixture(scope="module")
def model():
    try:
        load_backend()
    except ModelMissingError as exc:
        pytest.skip(f"the embedded NLI model is not built yet: {exc}")


@pytest.fixture(scope="module")
def shipped(model, tmp_path_factory):
    out = {}
    for name, (graph, baseline) in SETS.items():
        folder = tmp_path_factory.mktemp(name)
        r = invoke(EVALS / name, "--graph", graph, "--baseline", baseline, "--out", folder)
        out[name] = (r, folder)
    return out


@pytest.mark.parametrize("name", list(SETS))
def test_shipped_gold_sets_pass_the_gate_against_the_committed_baselines(shipped, name):
    r, folder = shipped[name]
    assert r.exit_code == 0, r.output
    assert "release gate: PASS" in r.output and "faithfulness" in r.output
    res = load_result(folder / "results.json")
    base = load_result(SETS[name][1])
    assert res.gold.hash == base.gold.hash and res.gate.passed
    assert res.figures["faithfulness"].value == base.figures["faithfulness"].value
    assert res.figures["hygiene"].value == 1.0 and res.figures["faithfulness"].low is not None
    html = (folder / "report.html").read_text()
    assert "Release gate" in html and "<script" not in html and "http://" not in html and "https://" not in html
    assert "&lt;" not in res.gold.name  # nothing to escape in the name; escaping is checked below


def test_the_adversarial_set_is_caught_where_it_should_be(shipped):
    res = load_result(shipped["gold_adversarial"][1] / "results.json")
    codes = {s.code for s in res.side_effects if s.outcome != "ok"}
    assert not res.hygiene_failures and codes <= {None, "missed"}  # every wrong call was queued, none ran
    planted = {c.claim_id for c in res.claims if c.claim_id.startswith("x_") and c.delivered}
    # Since statements pass only with every anchor (names, ids, values) in their window, the swapped
    # names and line ids in free text that the model alone let through are stopped too.
    assert planted == set()
    assert res.figures["faithfulness"].value == 1.0 and not res.agreement.false_passes


def test_a_baseline_of_another_gold_set_fails_the_gate(shipped):
    res = load_result(shipped["gold"][1] / "results.json")
    g = gate(res, load_result(SETS["gold_adversarial"][1]))
    assert not g.passed and g.reasons[0].startswith("gold set: invoice_audit has hash")


def test_a_degraded_verifier_fails_the_gate_naming_the_figure(model, tmp_path):
    """The NLI threshold lowered to 0.02 and the invoice-line evaluators switched off, by injection."""
    graph, baseline = SETS["gold_adversarial"]
    r = invoke(EVALS / "gold_adversarial", "--graph", graph, "--baseline", baseline, "--out", tmp_path,
               "--verifier", "tests.evals.degraded:lax_and_rules_off")
    assert r.exit_code == 1, r.output
    assert "release gate: FAIL" in r.output
    res = load_result(tmp_path / "results.json")
    [why] = res.gate.reasons
    assert why.startswith("faithfulness dropped ") and "more than the 2 allowed" in why
    assert res.gate.deltas["faithfulness"] < -2.0 and res.setup == "tests.evals.degraded:lax_and_rules_off"


# -- bad input: exit 2, nothing run ----------------------------------------------------------------


def test_bad_inputs_exit_2_with_the_reason(tmp_path):
    graph, baseline = SETS["gold"]
    gold = EVALS / "gold"
    assert invoke(tmp_path / "nope", "--graph", graph).exit_code == 2
    r = invoke(gold, "--graph", "no_such_module:honest", "--out", tmp_path)
    assert r.exit_code == 2 and "cannot import 'no_such_module'" in r.output
    assert invoke(gold, "--graph", "warrant.evals.invoice_audit.graphs", "--out", tmp_path).exit_code == 2
    (tmp_path / "notes.json").write_text(json.dumps({"format": "something-else"}))
    r = invoke(gold, "--graph", graph, "--baseline", tmp_path / "notes.json", "--out", tmp_path)
    assert r.exit_code == 2 and "field 'format'" in r.output
    (tmp_path / "out").mkdir()
    shutil.copy(baseline, tmp_path / "out" / "results.json")
    r = invoke(gold, "--graph", graph, "--baseline", tmp_path / "out" / "results.json", "--out", tmp_path / "out")
    assert r.exit_code == 2 and "where this run writes its results" in r.output
    assert json.loads((tmp_path / "out" / "results.json").read_text()) == json.loads(baseline.read_text())  # untouched
    r = invoke(gold, "--graph", graph, "--verifier", "tests.evals.degraded:nothing_here", "--out", tmp_path)
    assert r.exit_code == 2 and "has no 'nothing_here'" in r.output
    assert invoke(gold, "--graph", graph, "--model", str(tmp_path), "--out", tmp_path).exit_code == 2
    changed = tmp_path / "changed"
    shutil.copytree(gold, changed)
    (changed / "tasks.yaml").write_text((changed / "tasks.yaml").read_text() + "\n# edited\n")
    r = invoke(changed, "--graph", graph, "--out", tmp_path)
    assert r.exit_code == 2 and "tasks.yaml" in r.output and "changed since the gold set was frozen" in r.output


def test_untrusted_text_is_escaped_in_html(tmp_path):
    from warrant.runtime.evals.render import write_html

    res = load_result(SETS["gold"][1])
    res.claims[0] = res.claims[0].model_copy(update={"text": "<script>alert(1)</script> [bold]x[/]"})
    html = write_html(res, tmp_path / "r.html").read_text()
    assert "<script>alert" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
