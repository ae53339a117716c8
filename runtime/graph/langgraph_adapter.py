"""Warrant on the edges of an existing LangGraph StateGraph (optional extra `[langgraph]`).

`WarrantEdges(plane).wrap(builder)` rewrites every static edge `a -> b` between nodes into
`a -> warrant_check[a] -> b`: the check node runs the gate and the verifier on the artifact `a`
left in the state (key `artifact`), passes the annotated artifact on, or routes the structured
rejection back to the planner (bounded rounds; then END with status ABSTAINED). When a passed
artifact carries action intents, a `warrant_act[a]` node runs them through the tool bus; an
irreversible call that no policy rule approves pauses the graph with LangGraph's `interrupt()`
(the reviewer sees the planned call and the claim verdicts) and continues on
`Command(resume={"approved": bool, "approver": name})`. All interrupts of the act node happen
before any call runs, so the node's re-execution on resume repeats only pure checks, never a call.

Conditional edges the graph already has are left as they are (their targets are the graph's own
routing); put gate-worthy hand-offs on static edges. langgraph is imported lazily.
"""

from __future__ import annotations

import copy
from typing import Any, TypedDict


from warrant.runtime.claimset import claim_set
from warrant.runtime.contract import AnnotatedArtifact, Artifact
from warrant.runtime.graph.agent import EvidenceRef
from warrant.runtime.graph.report import Handoff
from warrant.runtime.graph.runner import ControlPlane
from warrant.runtime.toolbus import ToolResult
from warrant.runtime.verify.verifier import annotate
from warrant.runtime.violations import Violation


class WarrantState(TypedDict, total=False):
    """Keys the wrapped graph's state must have (inherit from this in your state TypedDict)."""

    artifact: dict | None  # the hand-off a node just produced; replaced by its annotated form once checked
    warrant: dict  # run_id, round, status, handoffs, feedback, actions (the adapter's record)


def initial_state(run_id: str, **state: Any) -> dict[str, Any]:
    return {**state, "artifact": None, "warrant": {"run_id": run_id, "round": 1, "status": "RUNNING", "handoffs": [],
                                                   "feedback": [], "actions": []}}


def _lg():
    try:
        import langgraph.graph as graph
        import langgraph.types as types
    except ImportError as exc:  # pragma: no cover - depends on the extra
        raise ImportError("the LangGraph adapter needs the optional extra: pip install 'warrant-runtime[langgraph]'") from exc
    return graph, types


class _Port:
    """Tool access for a LangGraph node: every call through the bus, evidence readable by id."""

    def __init__(self, plane: ControlPlane, run_id: str):
        self._plane, self.run_id = plane, run_id

    def call(self, tool: str, args: Any, **kw: Any) -> Any:
        return self._plane.bus.execute(self.run_id, {"tool": tool, "args": args, **kw})

    def evidence(self, ledger_id: str) -> EvidenceRef:
        rec = self._plane.ledger.get(self.run_id, ledger_id)
        return EvidenceRef(ledger_id=rec.id, kind=rec.kind.value, source=rec.source.to_dict(),
                           text=rec.data.decode("utf-8", errors="replace"))


class WarrantEdges:
    def __init__(self, plane: ControlPlane, *, planner: str, max_rounds: int = 3):
        self.plane = plane
        self.planner = planner
        self.max_rounds = max_rounds

    def tools(self, state: dict[str, Any]) -> _Port:
        """The tool port for a node of this run (nodes never hold a tool or the ledger writer)."""
        return _Port(self.plane, state["warrant"]["run_id"])

    def wrap(self, builder: Any) -> Any:
        graph, _ = _lg()
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

    # -- nodes ---------------------------------------------------------------------------------------
    def _check_node(self, src: str, dst: str, last: bool):
        plane, planner = self.plane, self.planner

        def check(state: dict[str, Any]) -> dict[str, Any]:
            w = copy.deepcopy(state["warrant"])
            raw = state.get("artifact")
            decision = plane.gate.check(raw if raw is not None else {}, run_id=w["run_id"])
            h = dict(round=w["round"], node=src, to=[dst], artifact_hash=decision.artifact_hash)
            art = None
            if not decision.passed:
                handoff = Handoff(**h, outcome="stopped", stage="gate", violations=decision.violations)
            else:
                art = Artifact.model_validate(raw)
                if art.from_agent != src:
                    handoff = Handoff(**h, outcome="stopped", stage="runner", violations=[Violation(
                        code="from_agent_mismatch", loc="$.from_agent", message="an agent may only send artifacts in its own name",
                        expected=src, got=art.from_agent)])
                elif art.open_questions:
                    handoff = Handoff(**h, outcome="abstained", stage="agent", open_questions=list(art.open_questions))
                else:
                    verdict = plane.verifier.verify(art)
                    if verdict.passed:
                        handoff = Handoff(**h, outcome="passed", verdicts=verdict.claims)
                        art = annotate(art, verdict)
                    else:
                        handoff = Handoff(**h, outcome="stopped", stage="verifier", verdicts=verdict.claims)
            w["handoffs"].append(handoff.model_dump(mode="json"))
            if handoff.outcome != "passed":
                w["feedback"].append(handoff.feedback().model_dump(mode="json"))
                if src == planner or w["round"] >= self.max_rounds:
                    w["status"] = "ABSTAINED"
                else:
                    w["round"] += 1
                return {"warrant": w, "artifact": None}
            if last:
                w["status"] = "COMPLETED"
            return {"warrant": w, "artifact": art.model_dump(mode="json")}

        return check

    def _route(self, dst: str, act: str):
        graph, _ = _lg()
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
        plane = self.plane
        _, types = _lg()

        def act(state: dict[str, Any]) -> dict[str, Any]:
            w = copy.deepcopy(state["warrant"])
            run_id = w["run_id"]
            art = AnnotatedArtifact.model_validate(state["artifact"])
            verdicts = {c["claim_id"]: c for h in w["handoffs"] for c in h.get("verdicts", [])}
            # Phase A: decide, without side effects, which calls need a human; ask for each.
            plans: list[tuple[str, Any, Any]] = []
            for it in art.action_intents:
                tool = plane.registry.get(it.tool, it.version)
                if not tool.irreversible:
                    plans.append(("run", it, None))
                    continue
                cs = claim_set(plane.journal, run_id, it.depends_on)
                resolved = it.model_copy(update={"version": tool.version})
                if not cs.verified or _policy_approves(plane, resolved, cs):
                    plans.append(("run", resolved, None))  # the bus refuses, or grants by policy, itself
                    continue
                answer = types.interrupt({
                    "kind": "approval", "run_id": run_id, "node": src, "tool": tool.name, "version": tool.version,
                    "args": dict(it.args), "depends_on": list(it.depends_on), "claim_set_hash": cs.hash,
                    "claims": [verdicts[c] for c in it.depends_on if c in verdicts],
                    "reason": f"no policy rule approved this call of {tool.name}",
                })
                if isinstance(answer, dict) and answer.get("approved") is True and isinstance(answer.get("approver"), str):
                    plans.append(("human", resolved, (answer["approver"], cs.hash)))
                else:
                    plans.append(("declined", resolved, answer))
            # Phase B: the calls, each through the bus.
            for kind, it, extra in plans:
                entry: dict[str, Any] = {"round": w["round"], "node": src, "tool": it.tool, "args": dict(it.args)}
                if kind == "declined":
                    entry.update(status="queued_for_review", code="approver_declined")
                    w["actions"].append(entry)
                    continue
                grant_id = None
                if kind == "human":
                    approver, cs_hash = extra
                    grant_id = plane.grants.issue_human(run_id, it.tool, it.version, dict(it.args), cs_hash, approver).grant_id
                out = plane.bus.execute(run_id, it, grant_id=grant_id)
                if isinstance(out, ToolResult):
                    entry.update(status="executed", call_id=out.call_id, ledger_id=out.ledger_id, output=out.output,
                                 grant=_issuer(plane, run_id, out.call_id))
                elif out.status == "refused" and out.code == "claims_unverified":
                    entry.update(status="queued_for_review", code=out.code,
                                 unsupported=[p for u in out.unverified for p in _unsupported(verdicts.get(u.claim_id))])
                else:
                    entry.update(status=out.status, code=getattr(out, "code", None) or out.violations[0].code)
                w["actions"].append(entry)
            if last and any(a["status"] == "queued_for_review" for a in w["actions"]):
                w["status"] = "AWAITING_REVIEW"
            return {"warrant": w}

        return act


def _policy_approves(plane: ControlPlane, intent: Any, cs: Any) -> bool:
    if plane.policy is None:
        return False
    for rule in plane.policy.matching(intent.tool, intent.version):
        try:
            if rule.predicate(copy.deepcopy(intent.args), cs.verdicts) is True:
                return True
        except Exception:
            continue
    return False


def _issuer(plane: ControlPlane, run_id: str, call_id: str) -> str | None:
    for e in plane.journal.entries(run_id, kind="tool_call", subject=call_id):
        if e.payload.get("grant_id"):
            g = plane.grants.lookup(e.payload["grant_id"])
            return g.issuer if g else None
    return None


def _unsupported(claim: dict[str, Any] | None) -> list[dict[str, Any]]:
    return [p for p in (claim or {}).get("propositions", []) if p.get("status") != "supported"]


__all__ = ["WarrantEdges", "WarrantState", "initial_state"]
