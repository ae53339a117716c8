"""One hand-off, three transports: the same artifacts through the in-process GraphRunner, the
LangGraph edges and the Ray runner come to the same outcome, the same actions and the same tool
calls in the journal, because all three call runtime/handoff.py. Real ledgers, gate, verifier
(the rules and predicates: no model, in process and in the pool alike), tool bus, grants and
policy; on Ray, the actors and a Serve verifier pool, in the tests/ray session's one Ray start."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from ray import serve

langgraph = pytest.importorskip("langgraph", reason="the [langgraph] extra is not installed")

from langgraph.checkpoint.memory import InMemorySaver  # noqa: E402
from langgraph.graph import END, START, StateGraph  # noqa: E402
from langgraph.types import Command  # noqa: E402

from warrant.actors.ledger_actor import ensure_ledger_actor  # noqa: E402
from warrant.actors.runner import Runner, Runtime  # noqa: E402
from warrant.actors.verifier_pool import PoolConfig, pool_app  # noqa: E402
from warrant.examples.invoice_audit import tools_impl  # noqa: E402
from warrant.examples.invoice_audit.policy import RULE_NAME, policy  # noqa: E402
from warrant.ledger import Ledger, canonical_json  # noqa: E402
from warrant.ledger.journal import JournalKind  # noqa: E402
from warrant.runtime.graph import ControlPlane, Graph, GraphRunner, ScriptedAgent  # noqa: E402
from warrant.runtime.graph.langgraph_adapter import WarrantEdges, WarrantState, initial_state  # noqa: E402
from warrant.runtime.registry import ToolRegistry  # noqa: E402

TOOLS = str(Path(__file__).resolve().parents[2] / "examples" / "invoice_audit" / "tools")
REGISTRY = ToolRegistry.load(TOOLS)
SENDER = "analyst"
FORGED = "led_" + "ab" * 16  # an id no record has
POLICY_GRANT = f"policy:{RULE_NAME}@invoice_audit.v1"
INVOICE = tools_impl.lookup_invoice({"invoice_id": "INV-4421"})
TERMS = tools_impl.lookup_engagement_terms({"client_id": "CL-7"})
EMAIL = {"to": "billing@harlowfinch.example", "subject": "Disputed line 14 on INV-4421", "body": "We dispute USD 280 of line 14."}
LINE = {"invoice_id": "INV-4421", "line_id": "14"}


def evidence(run_id: str) -> list:
    """The tool outputs the claims cite: the same bytes in every ledger, so the same ids."""
    return [Ledger.item(run_id, canonical_json(doc), kind="tool_output", media_type="application/json",
                        source={"tool": tool, "tool_version": "1"}) for tool, doc in (("lookup_invoice", INVOICE),
                                                                                        ("lookup_engagement_terms", TERMS))]


def _claim(cid, pred, args, *cites):
    return {"id": cid, "type": "Assertion", "text": cid, "propositions": [{"id": cid + "_p", "pred": pred, "args": args,
                                                                          "ledger_ids": list(cites)}]}


def artifact(case: str, run_id: str, inv: str, terms: str) -> dict:
    """The hand-off the analyst sends in each case."""
    rate = _claim("f_rate", "line_rate", {**LINE, "rate": 320.0, "currency": "USD"}, FORGED if case == "forged_ledger_id" else inv)
    art = {"run_id": run_id, "from_agent": "writer" if case == "wrong_from_agent" else SENDER, "claims": [rate],
           "action_intents": [{"tool": "lookup_invoice", "args": {"invoice_id": "INV-4421"}, "depends_on": ["f_rate"]}]}
    if case == "open_questions":
        art["open_questions"] = ["Was line 14 pre-approved above the cap by the client?"]
    if case == "unsupported":
        art["claims"] = [_claim("f_rate", "line_rate", {**LINE, "rate": 300.0, "currency": "USD"}, inv)]
    if case == "needs_grant":  # no policy rule covers an email: a person must approve, and nobody does
        art["action_intents"] = [{"tool": "send_email", "args": EMAIL, "requires_grant": True, "depends_on": ["f_rate"]}]
    if case == "policy_grant":  # AP-3: over the cap by at most USD 500, every finding supported
        art["claims"] = [
            _claim("f_exceeds", "exceeds_cap", LINE, inv, terms), rate,
            _claim("f_hours", "line_hours", {**LINE, "hours": 4.0}, inv),
            _claim("f_cap", "hourly_cap", {"client_id": "CL-7", "amount": 250, "currency": "USD"}, terms),
        ]
        art["action_intents"] = [{"tool": "flag_invoice_line", "args": {**LINE, "reason": "exceeds_cap"}, "requires_grant": True,
                                  "depends_on": ["f_exceeds", "f_rate", "f_hours", "f_cap"]}]
    return art


# case -> (outcome, stage, violation codes, irreversible actions (tool, status, code, grant issuer), the journal's tool calls)
EXPECTED = {
    "good": ("passed", None, [], [], [("lookup_invoice", "ok", None)]),
    "wrong_from_agent": ("stopped", "runner", ["from_agent_mismatch"], [], []),
    "open_questions": ("abstained", "agent", [], [], []),
    "forged_ledger_id": ("stopped", "gate", ["ledger_id_unknown"], [], []),
    "unsupported": ("stopped", "verifier", [], [], []),
    "needs_grant": ("passed", None, [], [("send_email", "queued_for_review", "grant_missing", None)],
                    [("send_email", "refused", "grant_missing")]),
    "policy_grant": ("passed", None, [], [("flag_invoice_line", "executed", None, POLICY_GRANT)],
                     [("flag_invoice_line", "ok", None)]),
}


def _actions(actions) -> list:
    return [(a["tool"], a["status"], a["code"], a["grant_issuer"]) for a in actions if REGISTRY.get(a["tool"]).irreversible]


def _calls(journal, run_id: str) -> list:
    return [(e.payload["tool"], e.payload["status"], e.payload["error"]) for e in journal.entries(run_id, kind=JournalKind.TOOL_CALL)]


# -- the three transports --------------------------------------------------------------------------
def in_process(plane: ControlPlane, case: str) -> tuple:
    run_id = f"gr_{case}"
    inv, terms = plane.ledger.append_many(evidence(run_id))
    graph = Graph.chain("parity", [ScriptedAgent(SENDER, lambda ctx: artifact(case, run_id, inv, terms))])
    report = GraphRunner(plane, max_rounds=1).run(graph, {}, run_id=run_id)
    assert report.error is None, report.error
    [h] = report.handoffs
    return (h.outcome, h.stage, sorted(v.code for v in h.violations), _actions(a.model_dump() for a in report.actions),
            _calls(plane.journal, run_id))


def on_langgraph(plane: ControlPlane, case: str) -> tuple:
    run_id = f"lg_{case}"
    inv, terms = plane.ledger.append_many(evidence(run_id))

    class State(WarrantState, total=False):
        pass

    b = StateGraph(State)
    b.add_node(SENDER, lambda state: {"artifact": artifact(case, run_id, inv, terms)})
    b.add_edge(START, SENDER)
    b.add_edge(SENDER, END)
    g = WarrantEdges(plane, planner=SENDER, max_rounds=1).wrap(b).compile(checkpointer=InMemorySaver())
    cfg = {"configurable": {"thread_id": run_id}}
    out = g.invoke(initial_state(run_id), cfg)
    if out.get("__interrupt__"):  # the approval a person is asked for: nobody approves (as approve_nothing)
        out = g.invoke(Command(resume={"approved": False}), cfg)
    [h] = out["warrant"]["handoffs"]
    return (h["outcome"], h["stage"], sorted(v["code"] for v in h["violations"]), _actions(out["warrant"]["actions"]),
            _calls(plane.journal, run_id))


def on_ray(rt: Runtime, case: str) -> tuple:
    import ray

    run_id = f"ray_{case}"
    inv, terms = ray.get(rt.writer.append_evidence.remote(evidence(run_id)))
    runner = Runner(rt)
    try:
        step = asyncio.run(runner.submit(artifact(case, run_id, inv, terms), run_id=run_id, sender=SENDER, execute=True))
    finally:
        runner.close()
    return (step.outcome, step.stage, sorted(v.code for v in step.violations), _actions(a.model_dump() for a in step.actions),
            _calls(rt.journal(), run_id))


@pytest.fixture(scope="module")
def planes(tmp_path_factory):
    root = tmp_path_factory.mktemp("parity")
    made = [ControlPlane.open(str(root / name), REGISTRY, policy=policy(), backend=None) for name in ("graph", "langgraph")]
    yield made
    for p in made:
        p.close()


@pytest.fixture(scope="module")
def ray_runtime(ray_session, serve_port, tmp_path_factory):
    uri = str(tmp_path_factory.mktemp("parity_ray") / "ledger")
    ensure_ledger_actor(uri)
    pool = serve.run(pool_app(uri, PoolConfig(model="none", num_replicas=1, num_cpus=0.5)), name="parity-pool", route_prefix=None)
    yield Runtime.start(uri, pool, TOOLS, gates=1, toolbuses=1, policy=policy())
    serve.delete("parity-pool")


@pytest.mark.parametrize("case", list(EXPECTED))
def test_every_transport_comes_to_the_same_handoff(case, planes, ray_runtime):
    graph_plane, lg_plane = planes
    got = {"in-process": in_process(graph_plane, case), "langgraph": on_langgraph(lg_plane, case), "ray": on_ray(ray_runtime, case)}
    for transport, summary in got.items():
        assert summary == EXPECTED[case], f"{transport}: {summary}\nexpected: {EXPECTED[case]}"
