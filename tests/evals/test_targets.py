"""The same evaluation through the other kinds of graph: an LLMAgent against an OpenAI-compatible
endpoint on loopback, and a LangGraph StateGraph with Warrant on its edges. One audit task of
the shipped gold set each, typed claims only (no model needed)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from warrant.evals.invoice_audit import graphs
from warrant.runtime.contract import AnnotatedProposition
from warrant.runtime.evals import Setup, evaluate, load_gold
from warrant.runtime.evals.targets import GraphTarget, LangGraphTarget, TargetError, resolve
from warrant.runtime.graph import Graph, ScriptedAgent
from warrant.runtime.graph.llm import LLMAgent
from tests.test_graph import _Stub, completion

ROOT = Path(__file__).resolve().parents[2]
GOLD = load_gold(ROOT / "evals" / "invoice_audit" / "gold")
ONE_AUDIT = dataclasses.replace(GOLD, tasks=[GOLD.task("audit_INV-4421")])


def line_claims(run_id: str, node: str, invoice: dict, inv_id: str, terms: dict, terms_id: str) -> dict:
    """What an analyst reading the two tool outputs asserts: every line's rate, and the line over the cap."""
    claims = []
    for line in invoice["lines"]:
        n = line["line_id"]
        claims.append({"id": f"rate_{n}", "type": "Assertion", "text": f"Line {n} rate",
                       "propositions": [{"id": f"rate_{n}_p", "pred": "line_rate", "ledger_ids": [inv_id],
                                         "args": {"invoice_id": invoice["invoice_id"], "line_id": n, "rate": line["rate"]}}]})
        if line["rate"] > terms["hourly_cap"]:
            claims.append({"id": f"over_{n}", "type": "Assertion", "text": f"Line {n} is over the cap",
                           "propositions": [{"id": f"over_{n}_p", "pred": "exceeds_cap", "ledger_ids": [inv_id, terms_id],
                                             "args": {"invoice_id": invoice["invoice_id"], "line_id": n}}]})
    return {"run_id": run_id, "from_agent": node, "claims": claims}


def test_resolve_refuses_what_is_not_a_graph():
    with pytest.raises(TargetError, match="expected MODULE:FUNCTION"):
        resolve("warrant.evals.invoice_audit.graphs")
    with pytest.raises(TargetError, match="returned dict"):
        resolve("warrant.evals.invoice_audit.graphs:OTHER_CLIENT")
    assert isinstance(resolve("warrant.evals.invoice_audit.graphs:honest")[0], GraphTarget)


def test_an_llm_agent_graph_is_scored_through_the_same_interface(tmp_path):
    def answer(body):
        user = json.loads(body["messages"][1]["content"])
        run_id = body["messages"][0]["content"].split('run_id to "')[1].split('"')[0]
        inv = next(e for e in user["evidence"] if '"lines"' in e["text"])
        terms = next(e for e in user["evidence"] if '"hourly_cap"' in e["text"])
        return completion(json.dumps(line_claims(run_id, "analyst", json.loads(inv["text"]), inv["ledger_id"],
                                                 json.loads(terms["text"]), terms["ledger_id"])))

    stub = _Stub(answer)
    agent = LLMAgent("analyst", stub.url, "tiny-test-model", timeout_s=10)
    try:
        target = GraphTarget(Graph.chain("llm_audit", [ScriptedAgent("planner", graphs.planner), agent]))
        res = evaluate(ONE_AUDIT, target, Setup(policy=graphs.policy()), tmp_path)
    finally:
        agent.close()
        stub.close()
    assert [r.status for r in res.runs] == ["COMPLETED"]
    covered = {g.id for g in res.gold_claims if g.covered}
    assert {"4421_12_rate", "4421_13_rate", "4421_14_rate", "4421_14_exceeds"} <= covered
    assert res.figures["faithfulness"].value == 1.0 and res.figures["faithfulness"].n == 4
    assert res.figures["hygiene"].value == 1.0


def test_a_langgraph_graph_is_scored_through_the_same_interface(tmp_path):
    pytest.importorskip("langgraph", reason="the [langgraph] extra is not installed")
    from langgraph.graph import END, START, StateGraph

    from warrant.runtime.graph.langgraph_adapter import WarrantState

    class State(WarrantState, total=False):
        task: dict
        ids: dict

    def build(edges, corpus, task):
        def planner(state):
            port = edges.tools(state)
            inv = port.call("lookup_invoice", {"invoice_id": task["invoice_id"]})
            terms = port.call("lookup_engagement_terms", {"client_id": task["client_id"]})
            return {"ids": {"inv": inv.ledger_id, "terms": terms.ledger_id},
                    "artifact": {"run_id": state["warrant"]["run_id"], "from_agent": "planner"}}

        def analyst(state):
            port, ids = edges.tools(state), state["ids"]
            inv, terms = (json.loads(port.evidence(ids[k]).text) for k in ("inv", "terms"))
            return {"artifact": line_claims(state["warrant"]["run_id"], "analyst", inv, ids["inv"], terms, ids["terms"])}

        def tool_caller(state):
            claims = [{**c, "propositions": [AnnotatedProposition.model_validate(p).unannotated().model_dump(mode="json") for p in c["propositions"]]}
                      for c in state["artifact"]["claims"]]
            over = [c["id"] for c in claims if c["id"].startswith("over_")]
            intents = [{"tool": "flag_invoice_line", "requires_grant": True, "depends_on": [cid, "rate_" + cid[5:]],
                        "args": {"invoice_id": task["invoice_id"], "line_id": cid[5:], "reason": "exceeds_cap"}} for cid in over]
            return {"artifact": {"run_id": state["warrant"]["run_id"], "from_agent": "tool_caller", "claims": claims,
                                 "action_intents": intents}}

        b = StateGraph(State)
        for name, fn in (("planner", planner), ("analyst", analyst), ("tool_caller", tool_caller)):
            b.add_node(name, fn)
        b.add_edge(START, "planner")
        b.add_edge("planner", "analyst")
        b.add_edge("analyst", "tool_caller")
        b.add_edge("tool_caller", END)
        return b

    res = evaluate(ONE_AUDIT, LangGraphTarget("lg_audit", build, planner="planner"), Setup(policy=graphs.policy()), tmp_path)
    [run] = res.runs
    assert run.status in ("COMPLETED", "AWAITING_REVIEW")
    assert {"4421_14_rate", "4421_14_exceeds"} <= {g.id for g in res.gold_claims if g.covered}
    assert res.figures["faithfulness"].value == 1.0
    # The policy rule needs the cap and hours too: with only rate and finding the flag waits for a human.
    flag = next(s for s in res.side_effects if s.id == "flag_4421_14")
    assert flag.outcome == "missed" and res.figures["hygiene"].value == 1.0
