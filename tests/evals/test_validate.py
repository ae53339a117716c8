"""`warrant eval validate`: every figure re-derived from the records; any disagreement fails.
And the derivation language: exact decimals and dates, nothing but its eight kinds of syntax."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from typer.testing import CliRunner

from warrant.runtime.cli import app
from warrant.runtime.evals.derive import DeriveError, evaluate
from warrant.runtime.evals.goldset import load_gold
from warrant.runtime.evals.validate import validate

from tests.evals.conftest import ADVERSARIAL, GOLD, edit_yaml


def failures(root):
    return {(c.file, c.item, c.what): c.message for c in validate(load_gold(root, frozen=False)).failures}


def test_shipped_gold_sets_are_consistent_with_their_records():
    for root in (GOLD, ADVERSARIAL):
        rep = validate(load_gold(root))
        assert rep.ok, [str(c) for c in rep.failures]
        assert rep.count("derived") >= 55 and rep.count("source") >= 6 and rep.count("absent") >= 10


def test_a_mis_stated_sum_is_a_disagreement(gold_copy):
    def bad(doc):
        c = next(c for c in doc if c["id"] == "4421_total")
        c["args"]["text"] = c["args"]["text"].replace("3,655.00", "3,665.00")
        c["figures"]["total"] = 3665
    edit_yaml(gold_copy / "claims.yaml", bad)
    got = failures(gold_copy)
    assert "derive.total gives 3655.0, the claim says 3665" in got[("claims.yaml", "4421_total", "derived")]


def test_a_trap_that_the_records_confirm_is_a_disagreement(gold_copy):
    edit_yaml(gold_copy / "claims.yaml", lambda doc: next(c for c in doc if c["id"] == "cap_cl7_275")["args"].update(amount=250))
    assert "expected contradicted" in failures(gold_copy)[("claims.yaml", "cap_cl7_275", "derived")]


def test_a_wrong_date_and_a_broken_derivation_are_named(gold_copy):
    def bad(doc):
        due = next(c for c in doc if c["id"] == "4421_due")
        due["figures"]["due"] = "2026-12-01"
        due["args"]["text"] = "Invoice INV-4421 is payable by 1 December 2026."
        next(c for c in doc if c["id"] == "4421_14_rate")["derive"]["rate"] = "find(out('inv_4421').lines, line_id='99').rate"
    edit_yaml(gold_copy / "claims.yaml", bad)
    got = failures(gold_copy)
    assert "2026-11-30" in got[("claims.yaml", "4421_due", "derived")]
    assert "0 items match, expected exactly 1" in got[("claims.yaml", "4421_14_rate", "derived")]


def test_a_tool_output_must_say_what_its_document_says(gold_copy):
    edit_yaml(gold_copy / "tool_outputs.yaml", lambda doc: doc[0]["output"]["lines"][2].update(rate=330.0))
    msg = failures(gold_copy)[("tool_outputs.yaml", "inv_4421", "source")]
    assert "$.lines[2].rate=330.0" in msg and "invoice_INV-4421.txt" in msg


def test_quotes_abstentions_and_side_effects_are_checked_against_the_records(gold_copy):
    def claims(doc):
        next(c for c in doc if c["id"] == "q_cap")["args"]["text"] = "Hourly rates are capped at USD 250 per hour."
    edit_yaml(gold_copy / "claims.yaml", claims)
    edit_yaml(gold_copy / "abstentions.yaml", lambda doc: doc[2].update(absent=["consent", "single day"]))
    edit_yaml(gold_copy / "side_effects.yaml", lambda doc: doc[0].update(because=doc[0]["because"].replace("<= 500", "<= 200")))
    got = failures(gold_copy)
    assert "not a verbatim copy" in got[("claims.yaml", "q_cap", "quote")]
    assert "answered by engagement_letter_CL-7.txt" in got[("abstentions.yaml", "ab_consent_t1103", "absent")]
    assert got[("side_effects.yaml", "flag_4421_14", "because")].startswith("does not hold")


def test_cli_validate_exit_codes(gold_copy, tmp_path):
    runner = CliRunner()
    ok = runner.invoke(app, ["eval", "validate", str(GOLD)])
    assert ok.exit_code == 0, ok.output
    assert "ok invoice_audit" in ok.output
    edit_yaml(gold_copy / "tool_outputs.yaml", lambda doc: doc[0]["output"].update(total=9999.0))
    assert runner.invoke(app, ["eval", "freeze", str(gold_copy)]).exit_code == 1  # never freeze an inconsistent set
    (gold_copy / "MANIFEST.json").unlink()
    assert runner.invoke(app, ["eval", "validate", str(gold_copy)]).exit_code == 2  # not frozen: bad input
    assert runner.invoke(app, ["eval", "validate", str(tmp_path / "nothing")]).exit_code == 2


# -- the derivation language ------------------------------------------------------------------------

OUT = {"inv": {"issued": "2026-10-31", "lines": [{"line_id": "14", "hours": 4.0, "rate": 320.0}, {"line_id": "12", "hours": 0.1, "rate": 0.2}]}}


def test_derivations_are_exact_and_know_dates():
    assert evaluate("find(out('inv').lines, line_id='14').hours * find(out('inv').lines, line_id='14').rate", OUT) == Decimal("1280.00")
    assert evaluate("sum(pluck(out('inv').lines, 'hours'))", OUT) == Decimal("4.1")  # not 4.1000000000000005
    assert evaluate("date(out('inv').issued) + days(30)", OUT) == dt.date(2026, 11, 30)
    assert evaluate("len(where(out('inv').lines, line_id=x)) == 1 and not (1 > 2)", OUT, {"x": "12"}) is True


@pytest.mark.parametrize("expr, why", [
    ("__import__('os').system('true')", "not a derivation function"),
    ("out('inv').__class__", "no such field"),
    ("(lambda: 1)()", "not a derivation function"),
    ("[x for x in out('inv').lines]", "not allowed"),
    ("out('nope')", "no tool output"),
    ("find(out('inv').lines, line_id='99')", "0 items match"),
    ("unknown_name + 1", "unknown name"),
    ("1 +", "not an expression"),
])
def test_derivations_refuse_everything_else(expr, why):
    with pytest.raises(DeriveError, match=why):
        evaluate(expr, OUT)
