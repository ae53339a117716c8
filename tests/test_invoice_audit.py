"""The invoice-audit demo end to end: each failure mode stopped at the right part with the right
structured error, honest claims passing, policy grants and the review queue, the audit trail.

Runs the real demo once (real ledger, gate, verifier with the embedded NLI model, tool bus,
grants) and checks its reports, its journal and its HTML file.
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from typer.testing import CliRunner

from warrant.examples.invoice_audit import agents, tools_impl
from warrant.examples.invoice_audit.demo import run_demo
from warrant.examples.invoice_audit.policy import TOLERANCE_USD, overbilled
from warrant.ledger import Journal, Ledger
from warrant.ledger.journal import JournalKind
from warrant.runtime.claimset import claim_set
from warrant.runtime.verify.backends import ModelMissingError, load_backend


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    try:
        backend = load_backend()
    except ModelMissingError as exc:
        pytest.skip(f"the embedded NLI model is not built yet: {exc}")
    out = tmp_path_factory.mktemp("demo")
    reports = run_demo(out, backend=backend, quiet=True)
    flags, outbox = list(tools_impl.FLAGS), list(tools_impl.OUTBOX)
    tools_impl.reset()
    return {"dir": out, "reports": {r.task["invoice_id"]: r for r in reports}, "flags": flags, "outbox": outbox}


def handoff(rep, rnd, node):
    [h] = [h for h in rep.handoffs if (h.round, h.node) == (rnd, node)]
    return h


def codes(h):
    return {(v.code, v.loc) for v in h.violations}


def calls(rep, node, status=None):
    return [c for c in rep.tool_calls if c.node == node and c.via == "agent" and (status is None or c.status == status)]


# -- INV-4421 -------------------------------------------------------------------------------------


def test_bad_tool_calls_are_stopped_by_the_tool_bus(demo):
    rep = demo["reports"]["INV-4421"]
    rejected = calls(rep, "planner", "rejected")
    assert [(c.tool, c.code, c.violations[0].loc) for c in rejected] == [
        ("lookup_vendor_rating", "unknown_tool", "$.tool"),
        ("lookup_invoice", "wrong_type", "$.args.invoice_id"),
    ]
    assert rejected[1].violations[0].expected == "string" and rejected[1].violations[0].got == 4421


def test_unwritten_ledger_id_and_misquote_are_stopped_by_the_gate(demo):
    h = handoff(demo["reports"]["INV-4421"], 1, "researcher")
    assert (h.outcome, h.stage) == ("stopped", "gate")
    assert codes(h) == {("ledger_id_unknown", "$.claims[0].propositions[0].ledger_ids[0]"), ("quote_mismatch", "$.claims[1].text")}
    assert h.violations[0].got == agents.REMEMBERED_ID


def test_citation_laundering_is_stopped_by_the_gate_and_named(demo):
    h = handoff(demo["reports"]["INV-4421"], 2, "analyst")
    assert (h.outcome, h.stage) == ("stopped", "gate")
    assert {c for c, _ in codes(h)} == {"ledger_id_unknown"}
    [why] = h.diagnosis
    assert "citation laundering" in why and "researcher (round 2)" in why


def test_irreversible_call_without_grant_is_refused_by_the_bus(demo):
    rep = demo["reports"]["INV-4421"]
    [c] = calls(rep, "tool_caller")
    assert (c.tool, c.status, c.code) == ("send_email", "refused", "grant_missing")
    rep2 = demo["reports"]["INV-4422"]
    [c2] = calls(rep2, "tool_caller")
    assert (c2.tool, c2.status, c2.code) == ("flag_invoice_line", "refused", "claims_missing")
    assert demo["outbox"] == []


def test_honest_claims_pass_with_exact_evidence_spans(demo):
    rep = demo["reports"]["INV-4421"]
    assert all(h.outcome == "passed" for h in rep.handoffs if h.round == 3)
    props = {p.proposition_id: p for h in rep.handoffs if h.round == 3 for c in h.verdicts for p in c.propositions}
    expected = {
        "r_cap_letter": "predicate:hourly_cap", "r_cap_terms": "predicate:hourly_cap", "r_cap_quote": "quote",
        "r_terms_days": "predicate:payment_terms", "a_14_exceeds_p": "predicate:exceeds_cap", "a_14_rate_p": "predicate:line_rate",
        "a_14_hours_p": "predicate:line_hours", "a_cap_p": "predicate:hourly_cap",
    }
    for pid, checker in expected.items():
        assert (props[pid].status, props[pid].checker) == ("supported", checker), pid
    for pid in ("r_monthly_s", "r_ts_14_s"):  # free statements copied whole from a sentence of the record
        assert props[pid].status == "supported" and props[pid].checker == "rules:copied", (pid, props[pid].reason)
    assert props["r_cap_quote"].evidence.text == agents.CAP_SENTENCE
    led = Ledger.open(str(demo["dir"] / "ledger"), writer=False)
    for p in props.values():
        rec = led.get(rep.run_id, p.evidence.ledger_id)
        assert rec.data[p.evidence.start:p.evidence.end].decode() == p.evidence.text


def test_over_cap_line_within_tolerance_is_flagged_by_policy(demo):
    rep = demo["reports"]["INV-4421"]
    flag = next(a for a in rep.actions if a.tool == "flag_invoice_line")
    assert flag.status == "executed" and flag.grant_issuer == "policy:ap3_overbilling_within_tolerance@invoice_audit.v1"
    assert flag.output["flag_id"].startswith("FLG-")
    assert demo["flags"] == [{"flag_id": "FLG-0001", "invoice_id": "INV-4421", "line_id": "14", "reason": "exceeds_cap"}]
    email = next(a for a in rep.actions if a.tool == "send_email")
    assert email.status == "queued_for_review" and email.review.reason == "no_policy_grant" and email.review.unsupported == []
    assert rep.status == "AWAITING_REVIEW"


# -- INV-4422 -------------------------------------------------------------------------------------


def test_wrong_number_and_vague_claim_are_stopped_by_the_verifier(demo):
    h = handoff(demo["reports"]["INV-4422"], 1, "analyst")
    assert (h.outcome, h.stage) == ("stopped", "verifier")
    by_id = {p.proposition_id: p for p in h.unsupported}
    assert (by_id["a_3_amount_p"].status, by_id["a_3_amount_p"].checker) == ("contradicted", "predicate:line_amount")
    assert "4200" in by_id["a_3_amount_p"].reason
    assert (by_id["a_vague_p"].status, by_id["a_vague_p"].checker) == ("unverifiable", "schema")


def test_summary_without_ledger_ids_is_stopped_by_the_gate(demo):
    h = handoff(demo["reports"]["INV-4422"], 2, "writer")
    assert (h.outcome, h.stage) == ("stopped", "gate")
    [(code, loc)] = codes(h)
    assert code == "assertion_without_propositions" and loc.endswith(".propositions")


def test_calls_not_auto_approved_wait_for_review_with_only_unsupported_claims(demo):
    rep = demo["reports"]["INV-4422"]
    assert rep.status == "AWAITING_REVIEW"
    line3 = next(a for a in rep.actions if a.args["line_id"] == "3")
    assert line3.status == "queued_for_review" and line3.review.reason == "no_policy_grant"
    assert line3.review.unsupported == []  # everything is supported: it is the deviation that is too large
    journal = Journal.open(str(demo["dir"] / "ledger"), writer=False)
    cs = claim_set(journal, rep.run_id, line3.depends_on)
    assert cs.verified and overbilled(line3.args, cs.verdicts) == Decimal("1200") > TOLERANCE_USD
    line2 = next(a for a in rep.actions if a.args["line_id"] == "2")
    assert line2.status == "queued_for_review" and line2.review.reason == "claims_unverified"
    assert [p.claim_id for p in line2.review.unsupported] == ["a_2_unworked"]
    assert all(f["invoice_id"] != "INV-4422" for f in demo["flags"])


# -- INV-5001 -------------------------------------------------------------------------------------


def test_missing_evidence_ends_the_run_abstained(demo):
    rep = demo["reports"]["INV-5001"]
    assert rep.status == "ABSTAINED" and rep.rounds == rep.max_rounds == 3
    first = handoff(rep, 1, "analyst")
    assert first.stage == "verifier" and [p.proposition_id for p in first.unsupported] == ["a_5001_ts_p"]
    failed = [c for c in rep.tool_calls if c.status == "failed"]
    assert [(c.round, c.tool, c.code) for c in failed] == [(2, "lookup_timesheet", "tool_error")]
    second = handoff(rep, 2, "analyst")
    assert [p.checker for p in second.unsupported] == ["resubmission"]
    third = handoff(rep, 3, "analyst")
    assert third.outcome == "abstained" and third.open_questions
    assert any("timesheet" in q for q in rep.open_questions)
    assert rep.actions == []


# -- the audit trail and the HTML report ----------------------------------------------------------


def test_every_hand_off_is_journaled_and_the_chains_verify(demo):
    led = Ledger.open(str(demo["dir"] / "ledger"), writer=False)
    journal = Journal.open(str(demo["dir"] / "ledger"), writer=False)
    assert led.verify().ok and journal.verify().ok
    for rep in demo["reports"].values():
        assert all(c.ok for c in rep.chains)
        gate = journal.entries(rep.run_id, kind=JournalKind.GATE_DECISION)
        assert len(gate) == len(rep.handoffs)
        assert [e.payload["status"] for e in gate] == ["reject" if h.stage == "gate" else "pass" for h in rep.handoffs]


def test_html_report_highlights_the_spans(demo):
    html = (demo["dir"] / "invoice_audit_report.html").read_text()
    assert "<script" not in html and "http://" not in html and "https://" not in html
    assert "<mark class='supported'" in html
    assert agents.CAP_SENTENCE in html
    for code in ("quote_mismatch", "ledger_id_unknown", "assertion_without_propositions", "unknown_tool", "citation laundering"):
        assert code in html, code


def test_warrant_run_cli_writes_a_report(tmp_path):
    from warrant.runtime.cli import app

    tools_impl.reset()
    res = CliRunner().invoke(app, ["run", "warrant.examples.invoice_audit.graph:build_graph", "-t", '{"invoice_id": "INV-5001", "client_id": "CL-9"}',
                                   "--ledger", str(tmp_path / "ledger"), "--out", str(tmp_path / "r.html"), "--model", "none"])
    assert res.exit_code == 1, res.output  # the run abstains: exit code 1 (runtime/exits.py)
    assert "ABSTAINED" in res.output and (tmp_path / "r.html").is_file()
