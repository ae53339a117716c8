"""A small LangGraph StateGraph run with Warrant on its edges: gate + verifier between nodes, the
rejection routed back to the planner, and LangGraph's interrupt/resume as the human approval at
an irreversible tool. Real ledger, gate, verifier, bus and grants; langgraph's own checkpointer."""

from __future__ import annotations

import pytest

langgraph = pytest.importorskip("langgraph", reason="the [langgraph] extra is not installed")

from langgraph.checkpoint.memory import InMemorySaver  # noqa: E402
from langgraph.graph import END, START, StateGraph  # noqa: E402
from langgraph.types import Command  # noqa: E402

from warrant.examples.invoice_audit import graph as example  # noqa: E402
from warrant.examples.invoice_audit import tools_impl  # noqa: E402
from warrant.examples.invoice_audit.policy import policy  # noqa: E402
from warrant.runtime.contract import AnnotatedProposition  # noqa: E402
from warrant.runtime.graph import ControlPlane  # noqa: E402
from warrant.runtime.graph.langgraph_adapter import WarrantEdges, WarrantState, initial_state  # noqa: E402

EMAIL = {"to": "billing@harlowfinch.example", "subject": "Disputed line 14 on INV-4421", "body": "We dispute USD 280 of line 14."}


class State(WarrantState, total=False):
    task: dict
    ids: dict


@pytest.fixture
def plane(tmp_path):
    tools_impl.reset()
    p = ControlPlane.open(str(tmp_path / "ledger"), example.registry(), policy=policy(), backend=None)
    yield p
    p.close()
    tools_impl.reset()


def build(plane):
    edges = WarrantEdges(plane, planner="planner", max_rounds=3)
    attempts = {"analyst": 0}

    def planner(state):
        port = edges.tools(state)
        inv = port.call("lookup_invoice", {"invoice_id": "INV-4421"})
        terms = port.call("lookup_engagement_terms", {"client_id": "CL-7"})
        run_id = state["warrant"]["run_id"]
        return {"ids": {"invoice": inv.ledger_id, "terms": terms.ledger_id},
                "artifact": {"run_id": run_id, "from_agent": "planner"}}

    def analyst(state):
        attempts["analyst"] += 1
        ids, run_id = state["ids"], state["warrant"]["run_id"]
        cite_inv = ids["invoice"] if attempts["analyst"] > 1 else "led_" + "ab" * 16  # first try: an id never written
        line = {"invoice_id": "INV-4421", "line_id": "14"}

        def claim(cid, pred, args, *refs):
            return {"id": cid, "type": "Assertion", "text": cid,
                    "propositions": [{"id": cid + "_p", "pred": pred, "args": args, "ledger_ids": list(refs)}]}

        return {"artifact": {"run_id": run_id, "from_agent": "analyst", "claims": [
            claim("f_exceeds", "exceeds_cap", line, cite_inv, ids["terms"]),
            claim("f_rate", "line_rate", {**line, "rate": 320.0, "currency": "USD"}, cite_inv),
            claim("f_hours", "line_hours", {**line, "hours": 4.0}, cite_inv),
            claim("f_cap", "hourly_cap", {"client_id": "CL-7", "amount": 250, "currency": "USD"}, ids["terms"]),
        ]}}

    def tool_caller(state):
        claims = []
        for c in state["artifact"]["claims"]:
            claims.append({**c, "propositions": [AnnotatedProposition.model_validate(p).unannotated().model_dump(mode="json") for p in c["propositions"]]})
        deps = ["f_exceeds", "f_rate", "f_hours", "f_cap"]
        return {"artifact": {"run_id": state["warrant"]["run_id"], "from_agent": "tool_caller", "claims": claims, "action_intents": [
            {"tool": "flag_invoice_line", "args": {"invoice_id": "INV-4421", "line_id": "14", "reason": "exceeds_cap"},
             "requires_grant": True, "depends_on": deps},
            {"tool": "send_email", "args": EMAIL, "requires_grant": True, "depends_on": ["f_rate"]},
        ]}}

    builder = StateGraph(State)
    builder.add_node("planner", planner)
    builder.add_node("analyst", analyst)
    builder.add_node("tool_caller", tool_caller)
    builder.add_edge(START, "planner")
    builder.add_edge("planner", "analyst")
    builder.add_edge("analyst", "tool_caller")
    builder.add_edge("tool_caller", END)
    return edges.wrap(builder).compile(checkpointer=InMemorySaver()), attempts


def test_gate_on_the_edges_routes_back_and_interrupts_for_approval(plane):
    g, attempts = build(plane)
    cfg = {"configurable": {"thread_id": "t1"}}
    out = g.invoke(initial_state("run_lg1", task={"invoice_id": "INV-4421"}), cfg)

    # The analyst's first artifact cited an id never written: stopped at the gate, back to the planner.
    handoffs = out["warrant"]["handoffs"]
    stopped = [h for h in handoffs if h["outcome"] != "passed"]
    assert [(h["node"], h["stage"]) for h in stopped] == [("analyst", "gate")]
    assert {v["code"] for v in stopped[0]["violations"]} == {"ledger_id_unknown"}
    assert attempts["analyst"] == 2 and out["warrant"]["round"] == 2

    # The email has no policy rule: the graph is paused at the irreversibility edge, nothing sent.
    [intr] = out["__interrupt__"]
    assert intr.value["tool"] == "send_email" and intr.value["args"] == EMAIL
    assert [c["claim_id"] for c in intr.value["claims"]] == ["f_rate"]
    assert tools_impl.OUTBOX == [] and tools_impl.FLAGS == []

    out = g.invoke(Command(resume={"approved": True, "approver": "dana.okafor"}), cfg)
    acts = {a["tool"]: a for a in out["warrant"]["actions"]}
    assert acts["flag_invoice_line"]["status"] == "executed"
    assert acts["flag_invoice_line"]["grant_issuer"] == "policy:ap3_overbilling_within_tolerance@invoice_audit.v1"
    assert acts["send_email"]["status"] == "executed" and acts["send_email"]["grant_issuer"] == "human:dana.okafor"
    assert len(tools_impl.FLAGS) == 1 and len(tools_impl.OUTBOX) == 1
    assert out["warrant"]["status"] == "COMPLETED"
    assert plane.journal.verify().ok and plane.ledger.verify().ok


def test_a_declined_approval_queues_the_call(plane):
    g, _ = build(plane)
    cfg = {"configurable": {"thread_id": "t2"}}
    g.invoke(initial_state("run_lg2"), cfg)
    out = g.invoke(Command(resume={"approved": False}), cfg)
    acts = {a["tool"]: a for a in out["warrant"]["actions"]}
    assert acts["send_email"]["status"] == "queued_for_review" and tools_impl.OUTBOX == []
    assert acts["flag_invoice_line"]["status"] == "executed"
    assert out["warrant"]["status"] == "AWAITING_REVIEW"
    assert out["warrant"]["status"] == "AWAITING_REVIEW"


def test_rounds_are_bounded_in_langgraph_too(plane):
    edges = WarrantEdges(plane, planner="planner", max_rounds=2)

    def planner(state):
        return {"artifact": {"run_id": state["warrant"]["run_id"], "from_agent": "planner"}}

    def analyst(state):
        return {"artifact": {"run_id": state["warrant"]["run_id"], "from_agent": "analyst", "summary": "overpriced"}}

    b = StateGraph(State)
    b.add_node("planner", planner)
    b.add_node("analyst", analyst)
    b.add_edge(START, "planner")
    b.add_edge("planner", "analyst")
    b.add_edge("analyst", END)
    out = edges.wrap(b).compile().invoke(initial_state("run_lg3"))
    assert out["warrant"]["status"] == "ABSTAINED"
    assert [h["violations"][0]["code"] for h in out["warrant"]["handoffs"] if h["outcome"] == "stopped"] == ["unknown_field"] * 2
