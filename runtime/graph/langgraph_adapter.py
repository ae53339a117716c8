"""Warrant on the edges of an existing LangGraph StateGraph (optional extra `[langgraph]`).

`WarrantEdges(plane).wrap(builder)` rewrites every static edge `a -> b` between nodes into
`a -> warrant_check[a] -> b`: the check node runs the gate and the verifier on the artifact `a`
left in the state (key `artifact`), passes the annotated artifact on, or routes the structured
rejection back to the planner (bounded rounds; then END with status ABSTAINED). When a passed
artifact carries action intents, a `warrant_act[a]` node runs them through the tool bus; an
irreversible call that no policy rule approves pauses the graph with LangGraph's `interrupt()`
(the reviewer sees the planned call and the claim verdicts) and continues on
`Command(resume={"approved": bool, "approver": name})`. The check and act nodes are transport
only: runtime/handoff.py decides, as it does for the in-process and the Ray runners. It asks every
approval before any call runs, so the act node's re-execution on resume repeats only pure checks,
never a call.

Conditional edges the graph already has are left as they are (their targets are the graph's own
routing); put gate-worthy hand-offs on static edges. langgraph is imported lazily.
"""

from __future__ import annotations

import copy
from typing import Any, TypedDict

from warrant.runtime.contract import ActionIntent
from warrant.runtime.graph.agent import EvidenceRef
from warrant.runtime.graph.approval import Approval, ApprovalRequest
from warrant.runtime.graph.runner import ControlPlane
from warrant.runtime.handoff import Handoffs
from warrant.runtime.verify.verdict import ClaimVerdict


class WarrantState(TypedDict, total=False):
    """Keys the wrapped graph's state must have (inherit from this in your state TypedDict)."""

    artifact: dict | None  # the hand-off a node just produced; replaced by its annotated form once checked
    warrant: dict  # run_id, round, status, handoffs, feedback, actions, artifact_ids (the adapter's record)


def initial_state(run_id: str, **state: Any) -> dict[str, Any]:
    return {**state, "artifact": None, "warrant": {"run_id": run_id, "round": 1, "status": "RUNNING", "handoffs": [],
                                                   "feedback": [], "actions": [], "artifact_ids": {}}}


def _lg():
    try:
        import langgraph.errors as errors
        import langgraph.graph as graph
        import langgraph.types as types
    except ImportError as exc:  # pragma: no cover - depends on the extra
        raise ImportError("the LangGraph adapter needs the optional extra: pip install 'warrant-runtime[langgraph]'") from exc
    return graph, types, errors


class _Port:
    """Tool access for a LangGraph node: every call through the bus, evidence readable by id."""

    def __init__(self, plane: ControlPlane, run_id: str):
        self._plane, self.run_id = plane, run_id

    def call(self, tool: str, args: Any, **kw: Any) -> Any:
        return Handoffs.of(self._plane).call(self.run_id, {"tool": tool, "args": args, **kw})

    def evidence(self, ledger_id: str) -> EvidenceRef:
        rec = self._plane.ledger.get(self.run_id, ledger_id)
        return EvidenceRef(ledger_id=rec.id, kind=rec.kind.value, source=rec.source.to_dict(),
                           text=rec.data.decode("utf-8", errors="replace"))


class WarrantEdges:
    def __init__(self, plane: ControlPlane, *, planner: str, max_rounds: int = 3):
        self.plane = plane
        self.planner = planner
        self.max_rounds = max_rounds

    @property
    def handoffs(self) -> Handoffs:
        return Handoffs.of(self.plane)

    def tools(self, state: dict[str, Any]) -> _Port:
        """The tool port for a node of this run (nodes never hold a tool or the ledger writer)."""
        return _Port(self.plane, state["warrant"]["run_id"])

    def wrap(self, builder: Any) -> Any:
        graph, _, _ = _lg()
        if self.planner not in builder.nodes:
            raise ValueError(f"planner {self.planner!r} is not a node of this graph; nodes: {sorted(builder.nodes)}")
        for src, dst in sorted(builder.edges):
            if src == graph.START or src not in builder.nodes:
                continue
            check, act = f"warrant_check[{src}]", f"warrant_act[{src}]"
            builder.edges.discard((src, dst))
            builder.add_node(check, self._check_node(src, dst, dst == graph.END))
            builder.add_node(act, self._act_node(src, dst == graph.END))
            builder.add_edge(src, check)
            builder.add_conditional_edges(check, self._route(dst, act), [dst, act, self.planner, graph.END])
            builder.add_edge(act, dst)
        return builder

    # -- nodes: transport only; runtime/handoff.py decides -----------------------------------------
    def _check_node(self, src: str, dst: str, last: bool):
        planner = self.planner

        def check(state: dict[str, Any]) -> dict[str, Any]:
            w = copy.deepcopy(state["warrant"])
            raw = state.get("artifact")
            known = w.setdefault("artifact_ids", {})
            checked = self.handoffs.check(raw if raw is not None else {}, run_id=w["run_id"], sender=src, known=known)
            for aid in checked.ids:
                known.setdefault(aid, f"{src} (round {w['round']})")
            handoff = checked.handoff(round=w["round"], node=src, to=[dst])
            w["handoffs"].append(handoff.model_dump(mode="json"))
            if not checked.passed:
                w["feedback"].append(handoff.feedback().model_dump(mode="json"))
                if src == planner or w["round"] >= self.max_rounds:
                    w["status"] = "ABSTAINED"
                else:
                    w["round"] += 1
                return {"warrant": w, "artifact": None}
            if last:
                w["status"] = "COMPLETED"
            return {"warrant": w, "artifact": checked.artifact.model_dump(mode="json")}

        return check

    def _route(self, dst: str, act: str):
        graph, _, _ = _lg()
        planner = self.planner

        def route(state: dict[str, Any]) -> str:
            w = state["warrant"]
            if w["status"] == "ABSTAINED":
                return graph.END
            last = w["handoffs"][-1]
            if last["outcome"] != "passed":
                return planner
            if state.get("artifact") and state["artifact"].get("action_intents"):
                return act
            return dst

        return route

    def _act_node(self, src: str, last: bool):
        _, types, errors = _lg()

        def ask(request: ApprovalRequest) -> Approval | None:
            # The graph pauses here; the node runs again on resume, and this returns the answer.
            answer = types.interrupt({"kind": "approval", "node": src, **request.model_dump(mode="json")})
            if isinstance(answer, dict) and answer.get("approved") is True and isinstance(answer.get("approver"), str):
                return Approval(approver=answer["approver"], note=str(answer.get("note", "")))
            return None

        def act(state: dict[str, Any]) -> dict[str, Any]:
            w = copy.deepcopy(state["warrant"])
            # The annotated artifact the check node passed on: its intents and claim texts are all act needs.
            doc = state["artifact"]
            intents = [ActionIntent.model_validate(i) for i in doc.get("action_intents", [])]
            verdicts = {c["claim_id"]: c for h in w["handoffs"] for c in h.get("verdicts", [])}  # the latest per claim
            acted = self.handoffs.act(w["run_id"], src, intents, [ClaimVerdict.model_validate(c) for c in verdicts.values()],
                                      claim_texts={c["id"]: c["text"] for c in doc.get("claims", [])}, round=w["round"],
                                      approver=ask, bubble=(errors.GraphBubbleUp,))
            w["actions"].extend(a.action.model_dump(mode="json") for a in acted)
            if last and any(a["status"] == "queued_for_review" for a in w["actions"]):
                w["status"] = "AWAITING_REVIEW"
            return {"warrant": w}

        return act


__all__ = ["WarrantEdges", "WarrantState", "initial_state"]
