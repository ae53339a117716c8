"""The review queue over the real journal: items, decisions, the single-use grant, resuming the run
exactly once, restarts, and sending a run back to its planner."""

from __future__ import annotations

import pytest

from warrant.examples.invoice_audit import tools_impl
from warrant.ledger import Journal
from warrant.ledger.journal import JournalKind
from warrant.runtime.claimset import claim_set
from warrant.runtime.contract import Claim
from warrant.runtime.graph import ControlPlane, RunReport
from warrant.runtime.review.queue import ReviewError, ReviewQueue
from tests.review.conftest import DEPS14, EMAIL, queue_call
from tests.test_graph import line14_findings, lookups, prop
from warrant.examples.invoice_audit import graph as example
from warrant.examples.invoice_audit.policy import policy


def _approve(plane, st, reviewer="dana", **kw):
    return plane.review.approve(st.item.item_id, reviewer, args_hash=kw.pop("args_hash", st.item.args_hash),
                                claim_set_hash=kw.pop("claim_set_hash", st.item.claim_set_hash), **kw)


def _count(journal, kind, run_id=None):
    return len(journal.entries(run_id, kind=kind))


def with_guess(ctx):
    """Line 14's findings plus a conjecture nobody can support (no NLI model here): unsupported."""
    inv = ctx.first(via="tool:lookup_invoice").ledger_id
    guess = Claim(id="g_dup", type="Conjecture", text="Line 13 duplicates line 12.",
                  propositions=[prop("g_dup_p", "statement", {"text": "Line 13 of INV-4421 duplicates line 12."}, inv)])
    return [*line14_findings(ctx), guess]


def test_a_queued_item_holds_the_call_its_claims_with_verdicts_and_the_exact_spans(plane, tmp_path):
    st = queue_call(plane, tmp_path)
    item = st.item
    assert st.status == "pending" and item.agent == "tool_caller"
    assert (item.tool, item.version, item.args) == ("send_email", "1", EMAIL)
    cs = claim_set(plane.journal, item.run_id, DEPS14)
    assert item.claim_set_hash == cs.hash and [c.entry_id for c in item.claims] == [c.entry_id for c in cs.claims]
    assert all(c.status == "supported" and c.verdict["propositions"] for c in item.claims) and item.approvable
    assert {s.proposition_id for s in item.spans} == {"f_exceeds_p", "f_rate_p", "f_hours_p", "f_cap_p"}
    for s in item.spans:  # the exact bytes behind each verdict
        assert plane.ledger.get(item.run_id, s.ledger_id).data[s.start:s.end].decode() == s.text
    assert item.policy.outcome == "queue" and item.policy.reason == "no rule of invoice_audit v1 covers send_email 1"
    [entry] = plane.journal.entries(item.run_id, kind=JournalKind.REVIEW_ITEM)
    assert entry.subject == item.item_id and plane.journal.verify().ok
    report = RunReport.load(tmp_path / "runs" / f"{item.run_id}.json")
    assert report.actions[0].review.queue_id == item.item_id


def test_queueing_the_same_call_twice_is_one_item(plane, tmp_path):
    st = queue_call(plane, tmp_path)
    it = st.item
    again = plane.review.enqueue(run_id=it.run_id, agent=it.agent, tool=it.tool, version=it.version, args=dict(it.args),
                                 depends_on=list(it.depends_on), reason=it.reason)
    assert again == it and _count(plane.journal, JournalKind.REVIEW_ITEM) == 1


def test_an_approval_is_the_bus_grant_for_that_exact_call_and_the_call_runs_once(plane, tmp_path):
    st = queue_call(plane, tmp_path)
    done = _approve(plane, st)
    assert done.status == "executed" and done.call["status"] == "ok"
    assert [m["body"] for m in tools_impl.OUTBOX] == [EMAIL["body"]]
    grant = plane.grants.lookup(done.decision.grant_id)
    assert grant.issuer == "human:dana" and grant.run_id == st.item.run_id
    assert (grant.tool, grant.version, grant.args_hash, grant.claim_set_hash) == (
        "send_email", "1", st.item.args_hash, st.item.claim_set_hash)
    assert plane.grants.used(grant.grant_id)
    [d] = plane.journal.entries(st.item.run_id, kind=JournalKind.REVIEW_DECISION)
    assert d.payload["reviewer"] == "dana" and d.payload["decision"] == "approve" and d.payload["decided_at"]
    # the waiting run resumed: its report shows the call made on the reviewer's grant
    rep = RunReport.load(st.item.report_path)
    assert rep.status == "COMPLETED" and rep.actions[0].status == "executed" and rep.actions[0].grant_issuer == "human:dana"

    with pytest.raises(ReviewError) as again:  # a second approval of the same item
        _approve(plane, st)
    assert again.value.code == "already_decided"
    replay = plane.bus.execute(st.item.run_id, {"tool": "send_email", "args": dict(EMAIL), "depends_on": DEPS14, "requires_grant": True},
                               grant_id=grant.grant_id)
    assert (replay.status, replay.code) == ("refused", "grant_replayed")
    changed = plane.bus.execute(st.item.run_id, {"tool": "send_email", "args": {**EMAIL, "to": "ceo@harlowfinch.example"},
                                                 "depends_on": DEPS14, "requires_grant": True}, grant_id=grant.grant_id)
    assert (changed.status, changed.code) == ("refused", "grant_args_mismatch")
    assert len(tools_impl.OUTBOX) == 1
    assert plane.review.get(st.item.item_id).status == "executed"  # the refused replays change nothing


def test_an_approval_for_other_arguments_or_claims_is_refused_and_grants_nothing(plane, tmp_path):
    st = queue_call(plane, tmp_path)
    from warrant.runtime.contract import content_hash

    other = content_hash({**EMAIL, "to": "ceo@harlowfinch.example"})
    for kw in ({"args_hash": other}, {"claim_set_hash": "0" * 64}):
        with pytest.raises(ReviewError) as exc:
            _approve(plane, st, **kw)
        assert exc.value.code == "call_mismatch"
    assert _count(plane.journal, JournalKind.GRANT) == 0 and _count(plane.journal, JournalKind.REVIEW_DECISION) == 0
    assert plane.review.get(st.item.item_id).status == "pending" and tools_impl.OUTBOX == []


def test_no_reviewer_approves_a_call_their_own_agent_planned(plane, tmp_path):
    st = queue_call(plane, tmp_path)
    for who, agents in (("ops", ["tool_caller"]), ("tool_caller", [])):
        with pytest.raises(ReviewError) as exc:
            _approve(plane, st, reviewer=who, reviewer_agents=agents)
        assert exc.value.code == "own_agent"
    assert _count(plane.journal, JournalKind.GRANT) == 0 and tools_impl.OUTBOX == []
    assert _approve(plane, st, reviewer="dana", reviewer_agents=["analyst"]).status == "executed"


def test_unsupported_claims_come_first_and_cannot_be_approved(plane, tmp_path):
    fine = queue_call(plane, tmp_path)
    it = {"invoice_id": "INV-4421", "line_id": "13", "reason": "duplicate"}
    bad = queue_call(plane, tmp_path, it, tool="flag_invoice_line", deps=["f_rate", "g_dup"], claims=with_guess)
    assert bad.item.reason == "claims_unverified" and bad.item.worst == "unsupported" and not bad.item.approvable
    assert [c.claim_id for c in bad.item.claims_worst_first()] == ["g_dup", "f_rate"]
    assert [s.item.item_id for s in plane.review.items()] == [bad.item.item_id, fine.item.item_id]
    with pytest.raises(ReviewError) as exc:
        _approve(plane, bad)
    assert exc.value.code == "claims_unsupported" and "g_dup (unsupported)" in exc.value.message
    with pytest.raises(ReviewError) as exc:
        plane.review.reject(bad.item.item_id, "dana", "  ", args_hash=bad.item.args_hash, claim_set_hash=bad.item.claim_set_hash)
    assert exc.value.code == "text_required"
    done = plane.review.reject(bad.item.item_id, "dana", "line 13 is a different task", args_hash=bad.item.args_hash,
                               claim_set_hash=bad.item.claim_set_hash)
    assert done.status == "rejected" and done.decision.reason == "line 13 is a different task"
    action = RunReport.load(bad.item.report_path).actions[0]
    assert (action.status, action.code) == ("refused", "review_rejected") and tools_impl.FLAGS == []


def test_claims_judged_again_after_queueing_void_the_approval(plane, tmp_path):
    st = queue_call(plane, tmp_path)
    [latest] = [c for c in st.item.claims if c.claim_id == "f_rate"]
    plane.journal.record(st.item.run_id, JournalKind.VERDICT, "f_rate", dict(latest.verdict))  # a re-check, same outcome
    with pytest.raises(ReviewError) as exc:
        _approve(plane, st)
    assert exc.value.code == "claims_changed" and _count(plane.journal, JournalKind.GRANT) == 0


def test_nothing_is_lost_across_a_restart(tmp_path):
    uri = str(tmp_path / "ledger")
    plane = ControlPlane.open(uri, example.registry(), policy=policy())
    first = queue_call(plane, tmp_path)
    second = queue_call(plane, tmp_path, {**EMAIL, "subject": "Line 14, again"})
    plane.review.reject(second.item.item_id, "dana", "one e-mail is enough", args_hash=second.item.args_hash,
                        claim_set_hash=second.item.claim_set_hash)
    plane.close()

    plane = ControlPlane.open(uri, example.registry(), policy=policy())  # the server restarted
    try:
        states = {s.item.item_id: s for s in plane.review.items()}
        assert states[first.item.item_id].item == first.item and states[first.item.item_id].status == "pending"
        assert states[second.item.item_id].status == "rejected" and states[second.item.item_id].decision.reviewer == "dana"
        assert _approve(plane, first).status == "executed" and len(tools_impl.OUTBOX) == 1
        assert plane.journal.verify().ok
    finally:
        plane.close()


def test_an_approved_call_a_crash_left_unmade_is_made_once_at_restart(tmp_path, monkeypatch):
    uri = str(tmp_path / "ledger")
    plane = ControlPlane.open(uri, example.registry(), policy=policy())
    st = queue_call(plane, tmp_path)
    monkeypatch.setattr(plane.review, "_resume", lambda item, decision: None)  # the process dies before the call
    assert _approve(plane, st).status == "approved" and tools_impl.OUTBOX == []
    plane.close()

    plane = ControlPlane.open(uri, example.registry(), policy=policy())
    try:
        [resumed] = plane.review.resume_approved()
        assert resumed.status == "executed" and len(tools_impl.OUTBOX) == 1
        assert plane.review.resume_approved() == [] and len(tools_impl.OUTBOX) == 1
    finally:
        plane.close()


def test_requesting_evidence_sends_the_run_back_to_its_planner(plane, tmp_path):
    seen = []

    def planner(ctx):
        seen.append(list(ctx.feedback))
        return lookups(ctx)

    st = queue_call(plane, tmp_path, planner=planner)
    ask = "Attach the timesheet entry for line 14 before anything is sent."
    done = plane.review.request_evidence(st.item.item_id, "dana", ask, args_hash=st.item.args_hash,
                                         claim_set_hash=st.item.claim_set_hash)
    assert done.status == "evidence_requested" and done.decision.request == ask
    rep = RunReport.load(st.item.report_path)
    assert rep.status == "ABSTAINED" and rep.actions[0].code == "evidence_requested" and any(ask in q for q in rep.open_questions)

    queue_call(plane, tmp_path, {**EMAIL, "subject": "Line 14 (with timesheet)"}, planner=planner, run_id=st.item.run_id)
    [fb] = seen[-1]
    assert (fb.stage, fb.node) == ("review", "tool_caller") and ask in fb.open_questions[0] and "dana" in fb.open_questions[0]
    assert seen[0] == []  # the first pass had no request to start from


def test_a_read_only_queue_lists_but_cannot_approve(plane, tmp_path):
    st = queue_call(plane, tmp_path)
    ro = ReviewQueue(Journal.open(plane.journal._t.uri, writer=False))
    assert [s.item.item_id for s in ro.items(status="pending")] == [st.item.item_id]
    with pytest.raises(ReviewError) as exc:
        ro.approve(st.item.item_id, "dana", args_hash=st.item.args_hash, claim_set_hash=st.item.claim_set_hash)
    assert exc.value.code == "not_configured"
    with pytest.raises(ReviewError) as exc:
        ro.get("rvw_" + "0" * 32)
    assert exc.value.code == "item_unknown"
