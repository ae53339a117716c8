"""The irreversibility edge: verified claims AND a journaled, single-use grant for this exact call."""

from __future__ import annotations

import datetime as dt
import threading
from pathlib import Path

import pytest

from warrant.examples.invoice_audit import tools_impl
from warrant.ledger import Journal, Ledger
from warrant.ledger.journal import JournalKind
from warrant.runtime.claimset import claim_set
from warrant.runtime.contract import content_hash
from warrant.runtime.grants import Grant, GrantBook, Policy, PolicyRule
from warrant.runtime.registry import ToolRegistry
from warrant.runtime.toolbus import ToolBus, ToolRefused, ToolResult

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "invoice_audit" / "tools"
RUN = "run_7f3c"
ARGS = {"invoice_id": "INV-4421", "line_id": "14", "reason": "exceeds_cap"}
INTENT = {"tool": "flag_invoice_line", "args": ARGS, "requires_grant": True, "depends_on": ["c_19", "c_20"]}
REGISTRY = ToolRegistry.load(EXAMPLES)


@pytest.fixture
def env(tmp_path):
    ledger, journal = Ledger.open(str(tmp_path)), Journal.open(str(tmp_path))
    tools_impl.reset()
    book = GrantBook(journal)
    yield ToolBus(REGISTRY, ledger, journal, book), journal, book
    tools_impl.reset()
    ledger.close()
    journal.close()


def verdict(journal, claim_id, status="supported", run_id=RUN):
    return journal.record(run_id, JournalKind.VERDICT, claim_id, {"claim_id": claim_id, "status": status})


def verify_all(journal, run_id=RUN):
    for c in INTENT["depends_on"]:
        verdict(journal, c, run_id=run_id)


def cs_hash(journal, run_id=RUN):
    return claim_set(journal, run_id, INTENT["depends_on"]).hash


def approve(book, journal, *, run_id=RUN, args=ARGS, tool="flag_invoice_line", **kw):
    return book.issue_human(run_id, tool, "1", args, cs_hash(journal, run_id), "alice", **kw)


def refused(out, code):
    assert isinstance(out, ToolRefused) and out.status == "refused", out
    assert out.code == code, out
    assert tools_impl.FLAGS == []
    return out


# -- claim sets ----------------------------------------------------------------------------------------


def test_claim_set_uses_the_latest_verdict_in_this_run(env):
    _, journal, _ = env
    verdict(journal, "c_19", "unsupported")
    verdict(journal, "c_20", "supported", run_id="other_run")
    cs = claim_set(journal, RUN, ["c_20", "c_19"])
    assert not cs.verified and cs.unverified == [("c_19", "unsupported"), ("c_20", "no_verdict")]
    first = cs.hash
    e = verdict(journal, "c_19", "supported")
    verdict(journal, "c_20", "supported")
    cs = claim_set(journal, RUN, ["c_19", "c_20", "c_19"])
    assert cs.verified and cs.unverified == [] and cs.hash != first
    assert cs.claim_ids == ["c_19", "c_20"] and cs.verdicts["c_19"]["status"] == "supported"
    assert cs.claims[0].entry_id == e.id
    assert claim_set(journal, RUN, ["c_20", "c_19"]).hash == cs.hash  # order does not matter


def test_an_empty_claim_set_verifies_nothing(env):
    assert not claim_set(env[1], RUN, []).verified


# -- refusals: nothing runs ------------------------------------------------------------------------------


def test_without_verdicts_refused_and_nothing_ran(env):
    bus, journal, book = env
    grant = approve(book, journal)  # even a grant does not help
    out = refused(bus.execute(RUN, INTENT, grant.grant_id), "claims_unverified")
    assert [(u.claim_id, u.status) for u in out.unverified] == [("c_19", "no_verdict"), ("c_20", "no_verdict")]
    assert not book.used(grant.grant_id)  # a refusal on claims does not burn the grant


def test_a_contradicted_claim_is_refused(env):
    bus, journal, _ = env
    verdict(journal, "c_19", "supported")
    verdict(journal, "c_20", "contradicted")
    out = refused(bus.execute(RUN, INTENT), "claims_unverified")
    assert [(u.claim_id, u.status) for u in out.unverified] == [("c_20", "contradicted")]


def test_no_depends_on_is_refused(env):
    bus, journal, book = env
    grant = book.issue_human(RUN, "flag_invoice_line", "1", ARGS, claim_set(journal, RUN, []).hash, "alice")
    refused(bus.execute(RUN, dict(INTENT, depends_on=[]), grant.grant_id), "claims_missing")


def test_verified_but_no_grant_is_refused(env):
    bus, journal, _ = env
    verify_all(journal)
    refused(bus.execute(RUN, INTENT), "grant_missing")


def test_grant_runs_once_and_replay_is_refused(env):
    bus, journal, book = env
    verify_all(journal)
    grant = approve(book, journal)
    assert grant.issuer == "human:alice" and grant.args_hash == content_hash(ARGS)
    out = bus.execute(RUN, INTENT, grant.grant_id)
    assert isinstance(out, ToolResult) and out.output["line_id"] == "14"
    assert len(tools_impl.FLAGS) == 1
    [used] = journal.entries(kind=JournalKind.GRANT_USED, subject=grant.grant_id)
    assert used.payload["call_id"] == out.call_id
    again = bus.execute(RUN, INTENT, grant.grant_id)
    assert isinstance(again, ToolRefused) and again.code == "grant_replayed"
    assert again.grant_refusal is not None and again.grant_refusal.code == "grant_replayed"
    assert len(tools_impl.FLAGS) == 1
    calls = journal.entries(run_id=RUN, kind=JournalKind.TOOL_CALL)
    assert [(c.payload["status"], c.payload["grant_id"]) for c in calls] == [
        ("ok", grant.grant_id),
        ("refused", grant.grant_id),
    ]
    assert calls[0].payload["effect"] == "applied" and calls[0].payload["claim_set_hash"] == grant.claim_set_hash


def test_grant_for_other_args_is_refused(env):
    bus, journal, book = env
    verify_all(journal)
    grant = approve(book, journal, args=dict(ARGS, line_id="13"))
    out = refused(bus.execute(RUN, INTENT, grant.grant_id), "grant_args_mismatch")
    assert out.grant_refusal.expected == grant.args_hash and out.grant_refusal.got == content_hash(ARGS)


def test_grant_for_another_run_is_refused(env):
    bus, journal, book = env
    verify_all(journal)
    verify_all(journal, run_id="run_other")
    grant = approve(book, journal, run_id="run_other")
    out = refused(bus.execute(RUN, INTENT, grant.grant_id), "grant_wrong_run")
    assert out.grant_refusal.expected == "run_other" and out.grant_refusal.got == RUN


def test_grant_for_another_tool_is_refused(env):
    bus, journal, book = env
    verify_all(journal)
    grant = approve(book, journal, tool="send_email")
    refused(bus.execute(RUN, INTENT, grant.grant_id), "grant_wrong_call")


def test_expired_grant_is_refused(env):
    bus, journal, book = env
    verify_all(journal)
    long_ago = dt.datetime.now(dt.timezone.utc) - dt.timedelta(hours=2)
    grant = approve(book, journal, now=long_ago, ttl_s=900)
    refused(bus.execute(RUN, INTENT, grant.grant_id), "grant_expired")


def test_forged_grant_is_refused(env):
    bus, journal, _ = env
    verify_all(journal)
    now = dt.datetime.now(dt.timezone.utc)
    forged = Grant(
        grant_id="grt_" + "0" * 32,
        run_id=RUN,
        tool="flag_invoice_line",
        version="1",
        args_hash=content_hash(ARGS),
        claim_set_hash=cs_hash(journal),
        issuer="human:alice",
        issued_at=now,
        expires_at=now + dt.timedelta(hours=1),
    )
    refused(bus.execute(RUN, INTENT, forged.grant_id), "grant_unknown")
    refused(bus.execute(RUN, INTENT, "grt_made_up"), "grant_unknown")


def test_claim_set_changed_after_the_grant_is_refused(env):
    bus, journal, book = env
    verify_all(journal)
    grant = approve(book, journal)
    verdict(journal, "c_19", "supported")  # re-judged: the approver did not see this verdict
    out = refused(bus.execute(RUN, INTENT, grant.grant_id), "grant_claims_mismatch")
    assert out.grant_refusal.expected == grant.claim_set_hash


def test_claims_refuted_after_the_grant_are_refused(env):
    bus, journal, book = env
    verify_all(journal)
    grant = approve(book, journal)
    verdict(journal, "c_20", "contradicted")
    refused(bus.execute(RUN, INTENT, grant.grant_id), "claims_unverified")


def test_mismatches_do_not_spend_the_grant(env):
    bus, journal, book = env
    verify_all(journal)
    grant = approve(book, journal)
    refused(bus.execute(RUN, dict(INTENT, args=dict(ARGS, reason="duplicate")), grant.grant_id), "grant_args_mismatch")
    assert bus.execute(RUN, INTENT, grant.grant_id).status == "ok"


def test_timeout_of_an_irreversible_tool_marks_the_outcome_unknown(tmp_path):
    release = threading.Event()
    spec = REGISTRY.get("send_email").spec.as_json()
    spec.update(timeout_s=0.2)
    del spec["entrypoint"]
    reg = ToolRegistry.from_specs([spec], implementations={("send_email", "1"): lambda a: release.wait(5) and {"message_id": "msg_1"}})
    ledger, journal = Ledger.open(str(tmp_path)), Journal.open(str(tmp_path))
    book = GrantBook(journal)
    bus = ToolBus(reg, ledger, journal, book)
    intent = {"tool": "send_email", "args": {"to": "ap@example.com", "subject": "s", "body": "b"}, "requires_grant": True, "depends_on": ["c"]}
    verdict(journal, "c")
    grant = book.issue_human(RUN, "send_email", "1", intent["args"], claim_set(journal, RUN, ["c"]).hash, "alice")
    try:
        out = bus.execute(RUN, intent, grant.grant_id)
        assert out.status == "failed" and out.code == "tool_timeout" and out.effect == "unknown"
        [entry] = journal.entries(kind=JournalKind.TOOL_CALL)
        assert entry.payload["effect"] == "unknown" and entry.payload["error"] == "tool_timeout"
        assert book.used(grant.grant_id)  # it may have sent: no second try on the same grant
    finally:
        release.set()
        ledger.close()
        journal.close()


# -- GrantBook directly ------------------------------------------------------------------------------


def test_concurrent_consumers_spend_a_grant_once(env):
    _, journal, book = env
    verify_all(journal)
    grant = approve(book, journal)
    results = []

    def spend():
        results.append(
            book.consume(grant.grant_id, run_id=RUN, tool="flag_invoice_line", version="1", args=ARGS, claim_set_hash=grant.claim_set_hash)
        )

    threads = [threading.Thread(target=spend) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(r.code if r else "ok" for r in results) == ["grant_replayed"] * 3 + ["ok"]


def test_grant_is_journaled_as_issued(env):
    _, journal, book = env
    grant = approve(book, journal)
    [entry] = journal.entries(kind=JournalKind.GRANT)
    assert entry.subject == grant.grant_id and entry.run_id == RUN
    assert book.lookup(grant.grant_id) == grant
    assert book.lookup("grt_nope") is None


@pytest.mark.parametrize("kw", [{"ttl_s": 0}, {"ttl_s": -5}, {"approver": ""}, {"approver": "alice\nbob"}])
def test_issue_rejects_bad_input(env, kw):
    _, journal, book = env
    args = dict(run_id=RUN, tool="flag_invoice_line", version="1", args=ARGS, claim_set_hash="h", approver="alice")
    args.update(kw)
    with pytest.raises(ValueError):
        book.issue_human(**args)


def test_consume_without_an_id(env):
    _, _, book = env
    r = book.consume("", run_id=RUN, tool="flag_invoice_line", version="1", args=ARGS, claim_set_hash="h")
    assert r is not None and r.code == "grant_missing"


# -- policy grants -----------------------------------------------------------------------------------


def policy_bus(env, *rules):
    bus, journal, book = env
    return ToolBus(REGISTRY, bus._ledger, journal, book, policy=Policy(rules))


def test_policy_rule_grants_and_is_journaled(env):
    _, journal, _ = env
    rule = PolicyRule(
        name="exceeds_cap_auto",
        tool="flag_invoice_line",
        predicate=lambda args, verdicts: args["reason"] == "exceeds_cap" and all(v["status"] == "supported" for v in verdicts.values()),
        description="flag a line for exceeding the cap when every claim is supported",
    )
    bus = policy_bus(env, rule)
    verify_all(journal)
    out = bus.execute(RUN, INTENT)
    assert out.status == "ok" and len(tools_impl.FLAGS) == 1
    [g] = journal.entries(kind=JournalKind.GRANT)
    assert g.payload["issuer"] == "policy:exceeds_cap_auto"
    [call] = journal.entries(kind=JournalKind.TOOL_CALL)
    assert call.payload["grant_id"] == g.subject
    # The policy grant is single use too: the same call again gets a fresh grant, never a reused one.
    assert bus.execute(RUN, INTENT).status == "ok"
    assert len({e.subject for e in journal.entries(kind=JournalKind.GRANT)}) == 2


def test_policy_rule_that_declines_or_raises_leaves_the_call_to_a_human(env):
    _, journal, _ = env

    def broken(args, verdicts):
        raise KeyError("deviation")

    bus = policy_bus(
        env,
        PolicyRule(name="never", tool="flag_invoice_line", predicate=lambda a, v: False),
        PolicyRule(name="broken", tool="flag_invoice_line", predicate=broken),
        PolicyRule(name="truthy_is_not_true", tool="flag_invoice_line", predicate=lambda a, v: "yes"),
        PolicyRule(name="other_tool", tool="send_email", predicate=lambda a, v: True),
    )
    verify_all(journal)
    refused(bus.execute(RUN, INTENT), "grant_missing")
    assert journal.entries(kind=JournalKind.GRANT) == []


def test_policy_is_not_asked_past_unverified_claims(env):
    _, journal, _ = env
    bus = policy_bus(env, PolicyRule(name="always", tool="flag_invoice_line", predicate=lambda a, v: True))
    verdict(journal, "c_19")
    refused(bus.execute(RUN, INTENT), "claims_unverified")
    assert journal.entries(kind=JournalKind.GRANT) == []


def test_policy_rule_cannot_change_the_args_it_approves(env):
    _, journal, _ = env

    def sneaky(args, verdicts):
        args["line_id"] = "12"
        return True

    bus = policy_bus(env, PolicyRule(name="sneaky", tool="flag_invoice_line", predicate=sneaky))
    verify_all(journal)
    assert bus.execute(RUN, INTENT).status == "ok"
    assert tools_impl.FLAGS[0]["line_id"] == "14"


def test_policy_rule_names_are_unique():
    with pytest.raises(ValueError):
        Policy([PolicyRule(name="a", tool="t", predicate=lambda a, v: True)] * 2)
