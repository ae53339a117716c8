"""runtime/handoff.py on its own: what every transport relies on. Approvals are all asked before
any call runs (LangGraph's interrupt re-runs the node), a broken approver approves nothing, a
person's approval becomes a journaled human grant, and citing an earlier hand-off is named as
citation laundering. Real ledger, gate, verifier (rules and predicates), bus and grants."""

from __future__ import annotations

import pytest

from warrant.examples.invoice_audit import graph as example
from warrant.ledger.journal import JournalKind
from warrant.runtime.graph import ControlPlane
from warrant.runtime.graph.approval import Approval
from warrant.runtime.handoff import Handoffs, artifact_id
from warrant.runtime.toolbus import outcome_of
from warrant.runtime.verify.verifier import Verifier

RUN = "run_h1"
EMAIL = {"to": "billing@harlowfinch.example", "subject": "Line 14", "body": "Line 14 exceeds the cap."}


@pytest.fixture
def plane(tmp_path):
    p = ControlPlane.open(str(tmp_path / "ledger"), example.registry(), backend=None)  # no policy: every email needs a person
    yield p
    p.close()


def passed(plane: ControlPlane, pipe: Handoffs):
    inv = pipe.call(RUN, {"tool": "lookup_invoice", "args": {"invoice_id": "INV-4421"}}).ledger_id
    art = {"run_id": RUN, "from_agent": "analyst",
           "claims": [{"id": "c1", "type": "Assertion", "text": "Line 14 bills 320/h.", "propositions": [
               {"id": "p1", "pred": "line_rate", "args": {"invoice_id": "INV-4421", "line_id": "14", "rate": 320.0}, "ledger_ids": [inv]}]}],
           "action_intents": [{"tool": "send_email", "args": EMAIL, "requires_grant": True, "depends_on": ["c1"]},
                              {"tool": "lookup_invoice", "args": {"invoice_id": "INV-4422"}, "depends_on": ["c1"]}]}
    checked = pipe.check(art, run_id=RUN, sender="analyst")
    assert checked.passed, checked
    return checked


def calls(plane: ControlPlane) -> list:
    return [outcome_of(e.payload) for e in plane.journal.entries(RUN, kind=JournalKind.TOOL_CALL)]


class Paused(Exception):
    """Stands for LangGraph's GraphInterrupt: the approver stops the node on purpose."""


def test_every_approval_is_asked_before_any_call(plane):
    pipe = Handoffs.of(plane)
    checked = passed(plane, pipe)
    before = len(calls(plane))
    asked = []

    def pause(req):
        asked.append((req.tool, [c.claim_id for c in req.claims], req.reason))
        raise Paused

    with pytest.raises(Paused):
        pipe.act(RUN, "analyst", checked.artifact.action_intents, checked.verdict.claims, approver=pause, bubble=(Paused,))
    assert asked == [("send_email", ["c1"], "no policy rule covers send_email")]
    # The reversible lookup comes first in acting order, yet nothing ran: the question came first.
    assert len(calls(plane)) == before


def test_a_broken_approver_approves_nothing(plane):
    pipe = Handoffs.of(plane)
    checked = passed(plane, pipe)

    def broken(req):
        raise RuntimeError("the desk is on fire")

    acted = pipe.act(RUN, "analyst", checked.artifact.action_intents, checked.verdict.claims, approver=broken)
    assert [(a.index, a.action.tool, a.action.status) for a in acted] == [
        (1, "lookup_invoice", "executed"), (0, "send_email", "queued_for_review")]
    email = acted[1]
    assert email.action.code == "grant_missing" and "the approver failed: RuntimeError: the desk is on fire" in email.action.message
    assert email.action.review.reason == "no_policy_grant" and email.action.review.queue_id == email.queued is not None
    assert calls(plane)[-1] == email.call and email.call.status == "refused"


def test_an_approval_becomes_a_human_grant_spent_by_the_call(plane):
    pipe = Handoffs.of(plane)
    checked = passed(plane, pipe)
    acted = pipe.act(RUN, "analyst", checked.artifact.action_intents, checked.verdict.claims, approver=lambda req: Approval(approver="dana"))
    email = next(a for a in acted if a.irreversible)
    assert email.action.status == "executed" and email.action.grant_issuer == "human:dana"
    assert email.call.grant_id == email.action.grant_id and plane.grants.used(email.call.grant_id)


def test_citing_an_earlier_handoff_is_named_as_laundering(plane):
    pipe = Handoffs.of(plane)
    first = passed(plane, pipe)
    known = {aid: "analyst (round 1)" for aid in first.ids}
    assert artifact_id(first.artifact) in known
    art = {"run_id": RUN, "from_agent": "writer", "claims": [{"id": "w1", "type": "Assertion", "text": "Line 14 bills 320/h.",
           "propositions": [{"id": "wp", "pred": "line_rate", "args": {"invoice_id": "INV-4421", "line_id": "14", "rate": 320.0},
                             "ledger_ids": [artifact_id(first.artifact)]}]}]}
    checked = pipe.check(art, run_id=RUN, sender="writer", known=known)
    assert (checked.outcome, checked.stage) == ("stopped", "gate")
    [why] = checked.diagnosis
    assert why.startswith("citation laundering at $.claims[0].propositions[0].ledger_ids[0]") and "analyst (round 1)" in why


# -- the journal: one commit per hand-off, and no gate decision lost on any path ----------------------
def _trail(plane: ControlPlane, since: int) -> list[tuple[str, str]]:
    return [(e.kind.value, e.payload.get("status", "")) for e in plane.journal.entries(RUN) if e.seq > since]


def _artifact(inv: str, **extra) -> dict:
    return {"run_id": RUN, "from_agent": "analyst", **extra,
            "claims": [{"id": "c1", "type": "Assertion", "text": "Line 14 bills 320/h.", "propositions": [
                {"id": "p1", "pred": "line_rate", "args": {"invoice_id": "INV-4421", "line_id": "14", "rate": 320.0}, "ledger_ids": [inv]}]}]}


def _lookup(pipe: Handoffs) -> tuple[str, int]:
    inv = pipe.call(RUN, {"tool": "lookup_invoice", "args": {"invoice_id": "INV-4421"}}).ledger_id
    return inv, pipe.journal.entries(RUN)[-1].seq


def test_a_verified_handoff_is_one_journal_commit_gate_decision_first(plane):
    pipe = Handoffs.of(plane)
    inv, seq = _lookup(pipe)
    version = plane.journal.version
    checked = pipe.check(_artifact(inv), run_id=RUN, sender="analyst")
    assert checked.passed
    assert plane.journal.version == version + 1
    assert _trail(plane, seq) == [("gate_decision", "pass"), ("verdict", "supported")]
    gate = plane.journal.entries(RUN, kind=JournalKind.GATE_DECISION)[-1]
    assert gate.subject == checked.decision.artifact_hash and gate.payload == checked.decision.model_dump(mode="json")


@pytest.mark.parametrize("case, outcome", [("unknown citation", ("stopped", "gate", "reject")),
                                           ("another sender", ("stopped", "runner", "pass")),
                                           ("open question", ("abstained", "agent", "pass"))])
def test_a_handoff_stopped_before_the_verifier_still_journals_its_gate_decision(plane, case, outcome):
    pipe = Handoffs.of(plane)
    inv, seq = _lookup(pipe)
    art, sender = _artifact(inv), "analyst"
    if case == "unknown citation":
        art = _artifact("rec_" + "0" * 32)
    elif case == "another sender":
        sender = "writer"
    else:
        art = _artifact(inv, open_questions=["Is line 14 a partner's time?"])
    checked = pipe.check(art, run_id=RUN, sender=sender)
    assert (checked.outcome, checked.stage) == outcome[:2]
    assert _trail(plane, seq) == [("gate_decision", outcome[2])]


class _PoolDown:
    """The verifier's checker port when the Serve pool cannot be reached (actors/verifier_pool.py)."""

    def check(self, *args, **kw):
        raise RuntimeError("verifier pool unreachable")


def test_a_verifier_that_fails_still_journals_the_gate_decision_it_was_handed(plane):
    plane.verifier = Verifier(plane.ledger, None, journal=plane.journal, checker=_PoolDown())
    pipe = Handoffs.of(plane)
    inv, seq = _lookup(pipe)
    with pytest.raises(RuntimeError, match="pool unreachable"):
        pipe.check(_artifact(inv), run_id=RUN, sender="analyst")
    assert _trail(plane, seq) == [("gate_decision", "pass")]


def test_a_verifier_port_that_does_not_journal_leaves_the_gate_to_commit_its_own(plane):
    class Silent:  # no `journals` attribute: e.g. a stand-in verifier of the eval baselines
        def verify(self, artifact):
            raise RuntimeError("no verdicts here")

    plane.verifier = Silent()
    pipe = Handoffs.of(plane)
    inv, seq = _lookup(pipe)
    with pytest.raises(RuntimeError, match="no verdicts"):
        pipe.check(_artifact(inv), run_id=RUN, sender="analyst")
    assert _trail(plane, seq) == [("gate_decision", "pass")]
