"""What `warrant eval --graph MODULE:FUNCTION` runs: one interface for every kind of graph.

A target runs one task of a gold set on a given control plane and returns the run report:

- a `runtime.graph.Graph` (scripted agents, `LLMAgent`s against an OpenAI-compatible endpoint,
  any mix) runs on the in-process `GraphRunner`;
- a `LangGraphTarget` wraps a LangGraph `StateGraph` builder with Warrant on its edges (the
  adapter) and turns the final state into the same `RunReport`;
- anything else with `run(plane, corpus, task, run_id=, max_rounds=, approver=)` is used as is.

The module named by the spec may also define `policy()` (the auto-approval policy of the
control plane under test), as for `warrant run`.
"""

from __future__ import annotations

import datetime as dt
import importlib
import os
import sys
from typing import Any, Callable, Protocol, runtime_checkable

from warrant.runtime.graph import Approver, ControlPlane, Corpus, Graph, GraphRunner, RunReport


class TargetError(ValueError):
    pass


@runtime_checkable
class Target(Protocol):
    name: str

    def run(self, plane: ControlPlane, corpus: Corpus, task: dict[str, Any], *, run_id: str, max_rounds: int,
            approver: Approver) -> RunReport: ...


class GraphTarget:
    def __init__(self, graph: Graph):
        self.graph = graph
        self.name = graph.name

    def run(self, plane: ControlPlane, corpus: Corpus, task: dict[str, Any], *, run_id: str, max_rounds: int,
            approver: Approver) -> RunReport:
        return GraphRunner(plane, corpus=corpus, approver=approver, max_rounds=max_rounds).run(self.graph, task, run_id=run_id)


class LangGraphTarget:
    """`build(edges, corpus, task)` returns an uncompiled `StateGraph` whose nodes leave their
    artifact in state["artifact"] (see runtime/graph/langgraph_adapter.py); Warrant is put on its
    edges here. Approvals are answered like the runner's approver: the interrupt gets the
    approver's decision, so the same gold set scores both runners the same way."""

    def __init__(self, name: str, build: Callable[..., Any], *, planner: str):
        self.name = name
        self._build = build
        self.planner = planner

    def run(self, plane: ControlPlane, corpus: Corpus, task: dict[str, Any], *, run_id: str, max_rounds: int,
            approver: Approver) -> RunReport:
        from langgraph.checkpoint.memory import InMemorySaver
        from langgraph.types import Command

        from warrant.runtime.evals.recording import RecordingGate
        from warrant.runtime.graph.approval import ApprovalRequest
        from warrant.runtime.graph.langgraph_adapter import WarrantEdges, initial_state
        from warrant.runtime.graph.report import Action, Handoff

        gate = RecordingGate(plane.gate)
        recorded = ControlPlane(ledger=plane.ledger, journal=plane.journal, gate=gate, verifier=plane.verifier, bus=plane.bus,
                                grants=plane.grants, policy=plane.policy, registry=plane.registry)
        edges = WarrantEdges(recorded, planner=self.planner, max_rounds=max_rounds)
        app = edges.wrap(self._build(edges, corpus, task)).compile(checkpointer=InMemorySaver())
        started = dt.datetime.now(dt.timezone.utc)
        config = {"configurable": {"thread_id": run_id}, "recursion_limit": 200}
        state: Any = initial_state(run_id, task=dict(task))
        while True:
            result = app.invoke(state, config)
            pending = result.get("__interrupt__") if isinstance(result, dict) else None
            if not pending:
                break
            ask = pending[0].value
            req = ApprovalRequest(run_id=run_id, tool=ask["tool"], version=ask["version"], args=ask["args"],
                                  depends_on=ask["depends_on"], claim_set_hash=ask["claim_set_hash"], reason=ask["reason"])
            approval = approver(req)
            state = Command(resume={"approved": approval is not None, "approver": approval.approver if approval else ""})
        w = result["warrant"]
        handoffs = []
        for h in w["handoffs"]:
            h = Handoff.model_validate(h)
            handoffs.append(h.model_copy(update={"artifact": gate.artifacts.get(h.artifact_hash)}))
        actions = [Action.model_validate(a) for a in w["actions"]]  # the adapter records runtime/handoff.py's Actions
        status = w["status"] if w["status"] != "RUNNING" else "COMPLETED"
        if status == "COMPLETED" and any(a.status == "queued_for_review" for a in actions):
            status = "AWAITING_REVIEW"
        return RunReport(run_id=run_id, graph=self.name, task=dict(task), status=status, max_rounds=max_rounds,
                         rounds=w["round"], started_at=started, finished_at=dt.datetime.now(dt.timezone.utc),
                         handoffs=handoffs, actions=actions, ledger_uri=plane.ledger.uri,
                         verifier_backend=getattr(plane.verifier, "backend_name", type(plane.verifier).__name__),
                         open_questions=[q for f in w["feedback"] for q in f.get("open_questions", [])])


def import_spec(spec: str, what: str = "MODULE:FUNCTION") -> tuple[Any, Any]:
    """(module, attribute) named by "MODULE:NAME". The working directory is importable, as with
    `python -m`, so a project's own graph modules need no install."""
    module_name, _, attr = spec.partition(":")
    if not module_name or not attr:
        raise TargetError(f"{spec!r}: expected {what}")
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.append(os.getcwd())
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:  # an import error inside the module is as fatal as a missing module
        raise TargetError(f"cannot import {module_name!r}: {type(exc).__name__}: {exc}") from None
    found = getattr(module, attr, None)
    if found is None:
        raise TargetError(f"module {module_name!r} has no {attr!r}")
    return module, found


def resolve(spec: str) -> tuple[Target, Any]:
    """(target, the module it came from) for "MODULE:FUNCTION"; FUNCTION() returns a Graph or a Target."""
    module, factory = import_spec(spec, "MODULE:FUNCTION, e.g. evals.invoice_audit.graphs:honest")
    made = factory() if callable(factory) and not isinstance(factory, (Graph, Target)) else factory
    if isinstance(made, Graph):
        return GraphTarget(made), module
    if isinstance(made, Target):
        return made, module
    raise TargetError(f"{spec} returned {type(made).__name__}: expected a runtime.graph.Graph or an object with "
                      "run(plane, corpus, task, run_id=, max_rounds=, approver=)")


__all__ = ["GraphTarget", "LangGraphTarget", "Target", "TargetError", "import_spec", "resolve"]
