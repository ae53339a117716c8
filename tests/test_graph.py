"""The graph runner: every edge through the gate and the verifier, rounds, abstention, grants, agents.

Real parts throughout: LanceDB ledger and journal in tmp_path, the real gate, verifier, tool bus
and grant book over the invoice-audit tools. The invoice predicates are decided from structured
tool outputs, so these tests need no NLI model. The LLM agent talks HTTP to a stub server on
127.0.0.1 started here.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from warrant.examples.invoice_audit import graph as example
from warrant.examples.invoice_audit import tools_impl
from warrant.examples.invoice_audit.policy import policy
from warrant.runtime.contract import Artifact, Claim, Proposition
from warrant.runtime.graph import (
    AgentContext,
    ControlPlane,
    Graph,
    GraphError,
    GraphRunner,
    RunReport,
    ScriptedAgent,
    approve_as,
    intent,
    restate,
)
from warrant.runtime.graph.llm import LLMAgent
from warrant.runtime.registry import ToolRegistry

INV = {"invoice_id": "INV-4421", "client_id": "CL-7"}


@pytest.fixture(autouse=True)
def _clean_tools():
    tools_impl.reset()
    yield
    tools_impl.reset()


@pytest.fixture
def plane(tmp_path):
    p = ControlPlane.open(str(tmp_path / "ledger"), example.registry(), policy=policy(), backend=None)
    yield p
    p.close()


def runner(plane, tmp_path, **kw) -> GraphRunner:
    kw.setdefault("max_rounds", 3)
    return GraphRunner(plane, corpus=example.corpus(), report_dir=tmp_path / "runs", **kw)


def prop(pid, pred, args, *ids):
    return Proposition(id=pid, pred=pred, args=args, ledger_ids=list(ids))


def assertion(cid, *props, text="a finding"):
    return Claim(id=cid, type="Assertion", text=text, propositions=list(props))


def lookups(ctx: AgentContext) -> Artifact:
    if not ctx.find(via="tool:lookup_invoice"):
        ctx.tools.call("lookup_invoice", {"invoice_id": "INV-4421"})
        ctx.tools.call("lookup_engagement_terms", {"client_id": "CL-7"})
    return ctx.artifact()


def line14_findings(ctx: AgentContext) -> list[Claim]:
    inv = ctx.first(via="tool:lookup_invoice").ledger_id
    terms = ctx.first(via="tool:lookup_engagement_terms").ledger_id
    a = {"invoice_id": "INV-4421", "line_id": "14"}
    return [
        assertion("f_exceeds", prop("f_exceeds_p", "exceeds_cap", a, inv, terms)),
        assertion("f_rate", prop("f_rate_p", "line_rate", {**a, "rate": 320.0, "currency": "USD"}, inv)),
        assertion("f_hours", prop("f_hours_p", "line_hours", {**a, "hours": 4.0}, inv)),
        assertion("f_cap", prop("f_cap_p", "hourly_cap", {"client_id": "CL-7", "amount": 250, "currency": "USD"}, terms)),
    ]


FLAG14 = {"invoice_id": "INV-4421", "line_id": "14", "reason": "exceeds_cap"}
DEPS14 = ["f_exceeds", "f_rate", "f_hours", "f_cap"]


# -- graph structure -------------------------------------------------------------------------------


def test_graph_rejects_unknown_nodes_and_cycles():
    a, b = ScriptedAgent("a", lookups), ScriptedAgent("b", lookups)
    with pytest.raises(GraphError, match="unknown node 'c'"):
        Graph("g", {"a": a, "b": b}, [("a", "c")])
    with pytest.raises(GraphError, match="entry node"):
        Graph("g", {"a": a, "b": b}, [("a", "b"), ("b", "a")])
    g = Graph.chain("g", [a, b])
    assert g.order == ["a", "b"] and g.planner == "a"


# -- routing back, bounded rounds, abstention -------------------------------------------------------


def test_unsupported_claim_routes_back_to_planner_with_missing_evidence(plane, tmp_path):
    seen_by_planner = []

    def planner(ctx):
        seen_by_planner.append(list(ctx.feedback))
        return lookups(ctx)

    def analyst(ctx):
        inv = ctx.first(via="tool:lookup_invoice").ledger_id
        if ctx.round == 1:  # a cap claim citing only the invoice: it does not hold the cap
            return ctx.artifact(claims=[assertion("f_cap", prop("f_cap_p", "exceeds_cap", {"invoice_id": "INV-4421", "line_id": "14"}, inv))])
        return ctx.artifact(claims=line14_findings(ctx))

    rep = runner(plane, tmp_path).run(Graph.chain("g", [ScriptedAgent("planner", planner), ScriptedAgent("analyst", analyst)]), INV)
    assert rep.status == "COMPLETED" and rep.rounds == 2
    stop = rep.handoffs[1]
    assert (stop.node, stop.outcome, stop.stage) == ("analyst", "stopped", "verifier")
    [u] = stop.unsupported
    assert u.status == "unsupported" and u.missing_evidence is not None
    assert "engagement terms" in u.missing_evidence.needed
    # The planner's second turn got the rejection as data, with what evidence is missing.
    [fb] = seen_by_planner[1]
    assert fb.node == "analyst" and fb.stage == "verifier" and fb.unsupported[0].missing_evidence.needed == u.missing_evidence.needed


def test_rounds_are_bounded_and_the_run_ends_abstained(plane, tmp_path):
    calls = {"writer": 0}

    def analyst(ctx):
        return ctx.artifact(claims=[assertion("f", prop("f_p", "line_rate", {"invoice_id": "INV-4421", "line_id": "14", "rate": 320.0},
                                                      "led_" + "0" * 32))])

    def writer(ctx):
        calls["writer"] += 1
        return ctx.artifact()

    g = Graph.chain("g", [ScriptedAgent("planner", lookups), ScriptedAgent("analyst", analyst), ScriptedAgent("writer", writer)])
    rep = runner(plane, tmp_path, max_rounds=2).run(g, INV)
    assert rep.status == "ABSTAINED" and rep.rounds == 2
    assert calls["writer"] == 0  # nothing the gate stopped ever reached the next agent
    assert [(h.node, h.stage) for h in rep.stopped] == [("analyst", "gate")] * 2
    assert {v.code for h in rep.stopped for v in h.violations} == {"ledger_id_unknown"}


def test_an_agent_abstains_with_open_questions(plane, tmp_path):
    def analyst(ctx):
        return ctx.artifact(open_questions=["No timesheet for CL-7 line 14: which entry backs it?"])

    rep = runner(plane, tmp_path, max_rounds=2).run(Graph.chain("g", [ScriptedAgent("planner", lookups), ScriptedAgent("analyst", analyst)]), INV)
    assert rep.status == "ABSTAINED"
    assert all(h.outcome == "abstained" for h in rep.stopped)
    assert rep.open_questions == ["No timesheet for CL-7 line 14: which entry backs it?"]


def test_a_planner_that_abstains_ends_the_run_at_once(plane, tmp_path):
    g = Graph.chain("g", [ScriptedAgent("planner", lambda ctx: ctx.artifact(open_questions=["nothing to audit"])),
                          ScriptedAgent("analyst", lookups)])
    rep = runner(plane, tmp_path, max_rounds=3).run(g, INV)
    assert rep.status == "ABSTAINED" and rep.rounds == 1


def test_an_agent_may_not_send_in_another_agents_name(plane, tmp_path):
    def analyst(ctx):
        return Artifact(run_id=ctx.run_id, from_agent="planner")

    rep = runner(plane, tmp_path, max_rounds=1).run(Graph.chain("g", [ScriptedAgent("planner", lookups), ScriptedAgent("analyst", analyst)]), INV)
    [stop] = rep.stopped
    assert stop.stage == "runner" and stop.violations[0].code == "from_agent_mismatch"


def test_annotated_claims_cannot_be_forwarded_without_restating(plane, tmp_path):
    def analyst(ctx):
        return ctx.artifact(claims=line14_findings(ctx))

    def careless_writer(ctx):
        return ctx.artifact(claims=list(ctx.inbox[0].claims))  # still carries the verifier's entailment

    def writer(ctx):
        return ctx.artifact(claims=[restate(c) for c in ctx.inbox[0].claims])

    for w, status in ((careless_writer, "ABSTAINED"), (writer, "COMPLETED")):
        g = Graph.chain("g", [ScriptedAgent("planner", lookups), ScriptedAgent("analyst", analyst), ScriptedAgent("writer", w)])
        rep = runner(plane, tmp_path, max_rounds=1).run(g, INV)
        assert rep.status == status
    assert rep.handoffs[1].verdicts[0].propositions[0].status == "supported"


# -- tools, failures, grants -----------------------------------------------------------------------


def test_bad_tool_calls_are_refused_by_the_bus_as_data(plane, tmp_path):
    outcomes = []

    def planner(ctx):
        outcomes.append(ctx.tools.call("lookup_vendor_rating", {"vendor": "x"}))
        outcomes.append(ctx.tools.call("lookup_invoice", {"invoice_id": 4421}))
        outcomes.append(ctx.tools.call("send_email", {"to": "a@b.example", "subject": "s", "body": "b"}, requires_grant=True))
        return ctx.artifact()

    rep = runner(plane, tmp_path, max_rounds=1).run(Graph.chain("g", [ScriptedAgent("planner", planner)]), INV)
    assert rep.status == "COMPLETED"
    assert [(o.status, getattr(o, "code", None) or o.violations[0].code) for o in outcomes] == [
        ("rejected", "unknown_tool"), ("rejected", "wrong_type"), ("refused", "claims_missing")]
    assert [c.code for c in rep.tool_calls] == ["unknown_tool", "wrong_type", "claims_missing"]
    assert rep.tool_calls[1].violations[0].loc == "$.args.invoice_id"
    assert tools_impl.OUTBOX == []


def test_a_tool_failing_mid_run_does_not_corrupt_the_run(plane, tmp_path):
    def planner(ctx):
        ctx.tools.call("lookup_timesheet", {"client_id": "CL-9"})  # raises inside the tool
        return lookups(ctx)

    def analyst(ctx):
        if ctx.round == 1:
            raise RuntimeError("the agent process crashed")
        return ctx.artifact(claims=line14_findings(ctx))

    rep = runner(plane, tmp_path).run(Graph.chain("g", [ScriptedAgent("planner", planner), ScriptedAgent("analyst", analyst)]), INV)
    assert rep.status == "COMPLETED" and rep.rounds == 2
    failed = [c for c in rep.tool_calls if c.status == "failed"]
    assert failed and failed[0].code == "tool_error" and "CL-9" in failed[0].message
    assert rep.handoffs[1].stage == "agent" and rep.handoffs[1].violations[0].code == "agent_error"
    assert all(c.ok for c in rep.chains)
    saved = RunReport.load(rep.report_path)
    assert saved.status == "COMPLETED" and len(saved.handoffs) == len(rep.handoffs)


def test_a_runner_fault_is_reported_failed_with_what_was_recorded(plane, tmp_path):
    class BrokenVerifier:
        backend_name = "broken"

        def verify(self, artifact):
            raise RuntimeError("verifier pool unreachable")

    plane.verifier = BrokenVerifier()

    def analyst(ctx):
        return ctx.artifact(claims=line14_findings(ctx))

    rep = runner(plane, tmp_path).run(Graph.chain("g", [ScriptedAgent("planner", lookups), ScriptedAgent("analyst", analyst)]), INV)
    assert rep.status == "FAILED" and "verifier pool unreachable" in rep.error
    assert RunReport.load(rep.report_path).status == "FAILED"
    assert len([c for c in rep.tool_calls if c.status == "ok"]) == 2


def _tool_caller(intents):
    def act(ctx):
        return ctx.artifact(claims=[restate(c) for c in ctx.inbox[0].claims], action_intents=intents)

    return ScriptedAgent("tool_caller", act)


def _audit_graph(intents, analyst_claims=line14_findings):
    return Graph.chain("g", [ScriptedAgent("planner", lookups),
                             ScriptedAgent("analyst", lambda ctx: ctx.artifact(claims=analyst_claims(ctx))),
                             _tool_caller(intents)])


def test_policy_grant_runs_an_over_cap_flag(plane, tmp_path):
    rep = runner(plane, tmp_path).run(_audit_graph([intent("flag_invoice_line", FLAG14, requires_grant=True, depends_on=DEPS14)]), INV)
    assert rep.status == "COMPLETED"
    [a] = rep.actions
    assert a.status == "executed" and a.grant_issuer == "policy:ap3_overbilling_within_tolerance@invoice_audit.v1"
    assert tools_impl.FLAGS == [{"flag_id": "FLG-0001", **FLAG14}]


def test_without_policy_the_approver_decides(plane, tmp_path):
    email = {"to": "billing@harlowfinch.example", "subject": "line 14", "body": "We dispute line 14."}
    it = intent("send_email", email, requires_grant=True, depends_on=["f_rate"])
    rep = runner(plane, tmp_path).run(_audit_graph([it]), INV)
    assert rep.status == "AWAITING_REVIEW"
    [a] = rep.actions
    assert a.status == "queued_for_review" and a.review.reason == "no_policy_grant" and a.review.unsupported == []
    assert tools_impl.OUTBOX == []

    rep = runner(plane, tmp_path, approver=approve_as("dana.okafor")).run(_audit_graph([it]), INV)
    [a] = rep.actions
    assert a.status == "executed" and a.grant_issuer == "human:dana.okafor"
    assert len(tools_impl.OUTBOX) == 1


def test_unsupported_claims_queue_the_call_showing_only_them(plane, tmp_path):
    def claims(ctx):
        inv = ctx.first(via="tool:lookup_invoice").ledger_id
        guess = Claim(id="g_dup", type="Conjecture", text="Line 13 duplicates line 12.",
                      propositions=[prop("g_dup_p", "statement", {"text": "Line 13 of INV-4421 duplicates line 12."}, inv)])
        return [*line14_findings(ctx), guess]

    it = intent("flag_invoice_line", {"invoice_id": "INV-4421", "line_id": "13", "reason": "duplicate"},
                requires_grant=True, depends_on=["f_rate", "g_dup"])
    rep = runner(plane, tmp_path, approver=approve_as("dana.okafor")).run(_audit_graph([it], claims), INV)
    [a] = rep.actions
    assert a.status == "queued_for_review" and a.code == "claims_unverified"
    assert [p.claim_id for p in a.review.unsupported] == ["g_dup"]
    assert tools_impl.FLAGS == []


# -- the LLM agent over HTTP -----------------------------------------------------------------------


class _Stub:
    """A chat-completions endpoint on 127.0.0.1: `answer(request_json) -> (status, body)`."""

    def __init__(self, answer):
        self.requests = []
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                stub.requests.append((self.path, body))
                status, payload = answer(body)
                data = payload.encode() if isinstance(payload, str) else json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *a):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def completion(content):
    return 200, {"id": "c1", "object": "chat.completion", "choices": [{"index": 0, "message": {"role": "assistant", "content": content}}]}


def honest_llm(body):
    user = json.loads(body["messages"][1]["content"])
    run_id = body["messages"][0]["content"].split('run_id to "')[1].split('"')[0]
    inv = next(e["ledger_id"] for e in user["evidence"] if '"lines"' in e["text"])
    art = {"run_id": run_id, "from_agent": "analyst", "claims": [{
        "id": "l_rate", "type": "Assertion", "text": "Line 14 of INV-4421 is billed at USD 320 per hour.",
        "propositions": [{"id": "l_rate_p", "pred": "line_rate", "ledger_ids": [inv],
                          "args": {"invoice_id": "INV-4421", "line_id": "14", "rate": 320.0, "currency": "USD"}}]}]}
    return completion(json.dumps(art))


@pytest.mark.parametrize("answer, stage, code", [
    (honest_llm, None, None),
    (lambda body: completion("Sure! Here is the artifact you asked for: {\"claims\": []"), "gate", "invalid_json"),
    (lambda body: completion(json.dumps({"run_id": "x", "from_agent": "analyst", "summary": "line 14 is overbilled"})), "gate", "unknown_field"),
    (lambda body: (500, {"error": "model overloaded"}), "agent", "agent_http_status"),
    (lambda body: (200, {"choices": []}), "agent", "agent_bad_response"),
    (lambda body: (200, "<html>gateway</html>"), "agent", "agent_bad_response"),
])
def test_llm_agent_against_a_local_endpoint(plane, tmp_path, answer, stage, code):
    stub = _Stub(answer)
    agent = LLMAgent("analyst", stub.url, "tiny-test-model", timeout_s=10)
    try:
        g = Graph.chain("g", [ScriptedAgent("planner", lookups), agent])
        rep = runner(plane, tmp_path, max_rounds=1).run(g, INV)
    finally:
        agent.close()
        stub.close()
    path, body = stub.requests[0]
    assert path == "/v1/chat/completions"
    assert body["response_format"]["type"] == "json_schema"
    assert body["response_format"]["json_schema"]["schema"]["title"] == "Warrant hand-off artifact"
    h = rep.handoffs[-1]
    if stage is None:
        assert rep.status == "COMPLETED" and h.outcome == "passed"
        assert h.verdicts[0].propositions[0].checker == "predicate:line_rate"
    else:
        assert rep.status == "ABSTAINED" and (h.outcome, h.stage) == ("stopped", stage)
        assert code in {v.code for v in h.violations}


def test_llm_agent_unreachable_endpoint_is_a_structured_rejection(plane, tmp_path):
    agent = LLMAgent("analyst", "http://127.0.0.1:9/v1", "m", timeout_s=2)
    rep = runner(plane, tmp_path, max_rounds=1).run(Graph.chain("g", [ScriptedAgent("planner", lookups), agent]), INV)
    assert rep.handoffs[-1].violations[0].code == "agent_http_error"


def test_registry_of_the_example_serves_both_tool_folders():
    reg = example.registry()
    assert "lookup_timesheet" in reg and "flag_invoice_line" in reg
    assert isinstance(reg, ToolRegistry)


def test_retrieval_stores_exact_document_bytes_as_spans(plane, tmp_path):
    got = {}

    def planner(ctx):
        got["refs"] = ctx.tools.retrieve(document="engagement_letter_CL-7.txt")
        got["hits"] = ctx.tools.retrieve("hourly rates capped", k=1)
        return ctx.artifact()

    rep = runner(plane, tmp_path, max_rounds=1).run(Graph.chain("g", [ScriptedAgent("planner", planner)]), INV)
    raw = (example.DOCUMENTS / "engagement_letter_CL-7.txt").read_bytes()
    assert [r.source["page"] for r in got["refs"]] == [1, 2]
    for ref in got["refs"]:
        rec = plane.ledger.get(rep.run_id, ref.ledger_id)
        assert rec.kind.value == "span" and rec.data == raw[ref.source["start"]:ref.source["end"]]
    assert got["hits"][0].ledger_id == got["refs"][1].ledger_id  # the page with the fees clause
