"""The in-process graph runner: every edge through the gate and the verifier, every call through the bus.

One round runs the graph's nodes in topological order. A node's output goes to its successors
only if the gate passes it, the verifier supports every Assertion and Quote in it, and it does not
abstain (open questions). Otherwise the hand-off is stopped, its structured reasons become
feedback, and the next round starts again at the planner, which must find evidence, not reword.
After `max_rounds` rounds without getting through, the run ends ABSTAINED: a valid outcome,
reported with what evidence is missing, instead of letting unchecked text through.

The hand-off itself (gate, sender, abstention, verifier, annotation) and the carrying out of a
passed artifact's action intents (reversible first; irreversible ones only with a grant, from a
policy rule inside the bus or from the injected approver; what neither approves is queued for
review) are runtime/handoff.py's, shared with the LangGraph edges and the Ray runner. This module
is the in-process transport: rounds, routing back to the planner, the run report, progress.
"""

from __future__ import annotations

import datetime as dt
import json
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from warrant.ledger import Journal, Ledger
from warrant.runtime import handoff as _handoff  # a module: runtime.handoff imports this package's report types
from warrant.runtime.contract import Artifact
from warrant.runtime.gate import Gate
from warrant.runtime.grants import GrantBook, Policy
from warrant.runtime.graph.agent import AgentContext, AgentError, EvidenceRef, Feedback
from warrant.runtime.graph.approval import Approver, approve_nothing
from warrant.runtime.graph.corpus import Corpus, CorpusError
from warrant.runtime.graph.graph import Graph
from warrant.runtime.graph.report import ChainStatus, Handoff, RunReport, ToolCall
from warrant.runtime.registry import ToolRegistry, jsonable
from warrant.runtime.review.queue import ReviewQueue
from warrant.runtime.toolbus import ToolBus, ToolCallRejected, ToolFailed, ToolRefused, ToolResult
from warrant.runtime.verify.verifier import Verifier
from warrant.runtime.violations import Violation

DEFAULT_MAX_ROUNDS = 3


@dataclass
class ControlPlane:
    """The parts every hand-off and call goes through, injectable one by one: any object with the
    same methods will do (e.g. the Ray actor clients of actors/, or a pooled verifier)."""

    ledger: Ledger
    journal: Journal
    gate: Gate
    verifier: Verifier
    bus: ToolBus
    grants: GrantBook
    policy: Policy | None = None
    registry: ToolRegistry | None = None  # default: the bus's registry
    review: ReviewQueue | None = None  # where calls waiting for a person are queued durably (runtime/review)

    def __post_init__(self) -> None:
        if self.registry is None:
            self.registry = self.bus.registry

    @classmethod
    def open(cls, ledger_uri: str, registry: ToolRegistry, *, policy: Policy | None = None, backend: Any = None,
             confidence_map: Any = None) -> "ControlPlane":
        """The embedded default: ledger and journal in one LanceDB folder, everything in-process.

        `confidence_map`: a fitted `runtime.evals.ConfidenceMap` or the path of one (default: the
        file named by `WARRANT_CONFIDENCE_MAP`, if set; `False`: none even then). With one, every
        verdict's `confidence` (what `annotate` writes into the artifact) is the calibrated value;
        the verifier's journal keeps the raw one. A map that does not load raises
        `ConfidenceMapError` before anything is opened."""
        cmap = load_confidence_map(confidence_map)
        ledger = Ledger.open(ledger_uri)
        journal = Journal.open(ledger_uri)
        grants = GrantBook(journal)
        bus = ToolBus(registry, ledger, journal, grants, policy)
        return cls(
            ledger=ledger,
            journal=journal,
            gate=Gate(ledger, tools=registry, journal=journal),
            verifier=calibrated(Verifier(ledger, backend, journal=journal), cmap),
            bus=bus,
            grants=grants,
            policy=policy,
            registry=registry,
            review=ReviewQueue(journal, grants=grants, bus=bus, policy=policy),
        )

    def close(self) -> None:
        self.journal.close()
        self.ledger.close()


CONFIDENCE_MAP_ENV = "WARRANT_CONFIDENCE_MAP"


class ConfidenceMapError(ValueError):
    """A configured confidence map that does not load: names the file and where it came from."""


def load_confidence_map(spec: Any = None) -> Any:
    """The map `ControlPlane.open` applies: `spec` itself if it is a map, loaded if it is a path,
    the `WARRANT_CONFIDENCE_MAP` file if `spec` is None and the variable is set, else None."""
    import os

    if spec is False:
        return None
    origin = "confidence_map"
    if spec is None:
        spec = os.environ.get(CONFIDENCE_MAP_ENV) or None
        origin = CONFIDENCE_MAP_ENV
        if spec is None:
            return None
    # Imported here: runtime.evals runs graphs through this module, and most planes have no map.
    from pydantic import ValidationError

    from warrant.runtime.evals.calibration import ConfidenceMap

    if isinstance(spec, ConfidenceMap):
        return spec
    if not isinstance(spec, (str, Path)):
        raise ConfidenceMapError(f"{origin}: expected a ConfidenceMap or the path of its JSON file, got {type(spec).__name__}")
    try:
        return ConfidenceMap.load(spec)
    except FileNotFoundError:
        raise ConfidenceMapError(f"{origin}={spec}: no such file (a map fitted by benchmarks/bench_eval.py, e.g. "
                                 "evals/invoice_audit/calibration.json)") from None
    except ValidationError as exc:
        where = "; ".join(f"{'.'.join(map(str, e['loc'])) or '$'}: {e['msg']}" for e in exc.errors())
        raise ConfidenceMapError(f"{origin}={spec}: not a confidence map: {where}") from None
    except (OSError, ValueError) as exc:  # JSONDecodeError is a ValueError
        raise ConfidenceMapError(f"{origin}={spec}: not a confidence map: {exc}") from None


def calibrated(verifier: Any, cmap: Any) -> Any:
    """`verifier` with its confidences passed through `cmap` (unchanged when there is none)."""
    if cmap is None:
        return verifier
    from warrant.runtime.evals.calibration import CalibratedVerifier

    return CalibratedVerifier(verifier, cmap)


@dataclass(frozen=True)
class RunEvent:
    """Progress, for a console or a log: what just happened, in one line."""

    kind: str  # run_started | round_started | node_started | handoff | tool_call | action | run_finished
    run_id: str
    round: int = 0
    node: str = ""
    status: str = ""
    text: str = ""


@dataclass
class _Run:
    report: RunReport
    graph: Graph
    evidence: dict[str, EvidenceRef] = field(default_factory=dict)
    feedback: list[Feedback] = field(default_factory=list)
    # Ledger-style ids computed from hand-off artifacts: citing one is citing an agent, not evidence.
    artifact_ids: dict[str, str] = field(default_factory=dict)

    @property
    def run_id(self) -> str:
        return self.report.run_id


class GraphRunner:
    def __init__(
        self,
        plane: ControlPlane,
        *,
        corpus: Corpus | None = None,
        approver: Approver = approve_nothing,
        max_rounds: int = DEFAULT_MAX_ROUNDS,
        on_event: Callable[[RunEvent], None] | None = None,
        report_dir: str | Path | None = None,
    ):
        if max_rounds < 1:
            raise ValueError(f"max_rounds: expected at least 1, got {max_rounds}")
        self.plane = plane
        self.corpus = corpus
        self.approver = approver
        self.max_rounds = max_rounds
        self._on_event = on_event
        self.report_dir = Path(report_dir) if report_dir else None

    # -- the run -----------------------------------------------------------------------------------
    def run(self, graph: Graph, task: dict[str, Any] | None = None, *, run_id: str | None = None,
            max_rounds: int | None = None) -> RunReport:
        run_id = run_id or "run_" + uuid.uuid4().hex[:12]
        rounds = max_rounds or self.max_rounds
        report = RunReport(
            run_id=run_id, graph=graph.name, task=dict(task or {}), max_rounds=rounds,
            started_at=dt.datetime.now(dt.timezone.utc), ledger_uri=self.plane.ledger.uri,
            verifier_backend=getattr(self.plane.verifier, "backend_name", type(self.plane.verifier).__name__),
        )
        if self.report_dir is not None:
            report.report_path = str(self.report_dir / f"{run_id}.json")
        st = _Run(report, graph)
        self._emit(RunEvent("run_started", run_id, text=f"{graph.name} {report.task}"))
        try:
            st.feedback.extend(self._review_requests(run_id))
            self._rounds(st, rounds)
        except Exception as exc:  # the runner's own failure: report it, keep what was recorded
            report.status = "FAILED"
            report.error = f"{type(exc).__name__}: {exc}"
            report.reason = f"the runner failed ({report.error}); every decision up to here is in the journal"
        report.finished_at = dt.datetime.now(dt.timezone.utc)
        report.evidence = list(st.evidence.values())
        report.chains = self._chains()
        self._save(st)
        self._emit(RunEvent("run_finished", run_id, report.rounds, status=report.status, text=report.reason))
        return report

    def _rounds(self, st: _Run, rounds: int) -> None:
        graph, report = st.graph, st.report
        for rnd in range(1, rounds + 1):
            report.rounds = rnd
            self._emit(RunEvent("round_started", st.run_id, rnd, text=f"round {rnd}/{rounds}"))
            passed: dict[str, Artifact] = {}
            stop: Handoff | None = None
            for node in graph.order:
                preds = graph.predecessors(node)
                if preds and not any(p in passed for p in preds):
                    continue
                stop = self._node(st, rnd, node, [passed[p] for p in preds if p in passed], passed)
                if stop is not None:
                    break
            if stop is None:
                queued = [a for a in report.actions if a.round == rnd and a.status == "queued_for_review"]
                report.status = "AWAITING_REVIEW" if queued else "COMPLETED"
                report.reason = (
                    f"every hand-off passed; {len(queued)} irreversible call(s) wait for review" if queued else "every hand-off passed"
                )
                return
            st.feedback.append(stop.feedback())
            if stop.node == graph.planner and stop.outcome == "abstained":
                break  # the planner itself says the evidence is not there: nobody to route back to
        report.status = "ABSTAINED"
        last = st.feedback[-1] if st.feedback else None
        report.reason = (
            f"no complete pass in {report.rounds} round(s); last stopped at {last.node} ({last.stage})" if last else "no rounds ran"
        )
        report.open_questions = _open_questions(st.feedback)

    def _node(self, st: _Run, rnd: int, node: str, inbox: list[Artifact], passed: dict[str, Artifact]) -> Handoff | None:
        graph = st.graph
        self._emit(RunEvent("node_started", st.run_id, rnd, node))
        ctx = AgentContext(
            run_id=st.run_id, node=node, round=rnd, max_rounds=st.report.max_rounds, task=dict(st.report.task),
            inbox=inbox, evidence=list(st.evidence.values()), feedback=list(st.feedback),
            tools=_Port(self, st, rnd, node), successors=graph.successors(node),
        )
        try:
            out = graph.nodes[node].act(ctx)
        except AgentError as exc:
            h = Handoff(round=rnd, node=node, to=graph.successors(node), outcome="stopped", stage="agent", violations=exc.violations)
            return self._record(st, h)
        except Exception as exc:  # an untrusted plug-in failing is its rejection, not the run's crash
            v = Violation(code="agent_error", loc="$", message=f"{type(exc).__name__}: {exc}")
            h = Handoff(round=rnd, node=node, to=graph.successors(node), outcome="stopped", stage="agent", violations=[v])
            return self._record(st, h)
        h, art = self._check(st, rnd, node, out)
        self._record(st, h)
        if art is None:
            return h
        passed[node] = art
        self._carry_out(st, rnd, node, art, h)
        return None

    # -- one hand-off: runtime/handoff.py decides -------------------------------------------------
    @property
    def handoffs(self) -> "_handoff.Handoffs":
        return _handoff.Handoffs.of(self.plane)

    def _check(self, st: _Run, rnd: int, node: str, out: Any) -> tuple[Handoff, Artifact | None]:
        checked = self.handoffs.check(out, run_id=st.run_id, sender=node, known=st.artifact_ids)
        for aid in checked.ids:
            st.artifact_ids.setdefault(aid, f"{node} (round {rnd})")
        h = checked.handoff(round=rnd, node=node, to=st.graph.successors(node), artifact=_as_json(out))
        return h, checked.artifact

    def _record(self, st: _Run, h: Handoff) -> Handoff:
        st.report.handoffs.append(h)
        self._save(st)
        why = ", ".join(sorted({v.code for v in h.violations})) or ", ".join(
            sorted({f"{p.status}:{p.checker}" for p in h.unsupported})
        ) or ("; ".join(h.open_questions)[:80] if h.open_questions else "")
        self._emit(RunEvent("handoff", st.run_id, h.round, h.node, h.outcome, f"{h.stage or ''} {why}".strip()))
        return h

    # -- actions -----------------------------------------------------------------------------------
    def _carry_out(self, st: _Run, rnd: int, node: str, art: Artifact, h: Handoff) -> None:
        context = {"graph": st.graph.name, "task": st.report.task, "report_path": st.report.report_path}
        acted = self.handoffs.act(st.run_id, node, art.action_intents, h.verdicts, claim_texts=_handoff.claim_texts(art), round=rnd,
                                  approver=self.approver, review_context=context,
                                  on_call=lambda intent, out: self._record_call(st, rnd, node, "runner", intent, out))
        for a in acted:
            if not a.irreversible:
                continue  # a reversible call is reported as its tool call only
            st.report.actions.append(a.action)
            self._save(st)
            act = a.action
            self._emit(RunEvent("action", st.run_id, rnd, node, act.status, f"{act.tool} {act.grant_issuer or act.code or ''}".strip()))

    def _call(self, st: _Run, rnd: int, node: str, via: str, intent: Any) -> Any:
        return self._record_call(st, rnd, node, via, intent, self.handoffs.call(st.run_id, intent))

    def _record_call(self, st: _Run, rnd: int, node: str, via: str, intent: Any, out: Any) -> Any:
        args = intent.get("args") if isinstance(intent, dict) else intent.args
        rec = ToolCall(round=rnd, node=node, via=via, tool=out.tool, version=out.version, args=jsonable(args), status=out.status,
                       call_id=out.call_id)
        if isinstance(out, ToolResult):
            rec.ledger_id, rec.output = out.ledger_id, out.output
            rec.grant_id, rec.grant_issuer = out.grant_id, self.handoffs.grant_issuer(out)
            data = self.plane.ledger.get(st.run_id, out.ledger_id)
            st.evidence[out.ledger_id] = EvidenceRef(
                ledger_id=out.ledger_id, kind=data.kind.value, source=data.source.to_dict(),
                text=data.data.decode("utf-8", errors="replace"), via=f"tool:{out.tool}", args=args if isinstance(args, dict) else {},
            )
        elif isinstance(out, ToolCallRejected):
            rec.code, rec.violations = out.error, out.violations
            rec.message = out.violations[0].message if out.violations else ""
        elif isinstance(out, (ToolRefused, ToolFailed)):
            rec.code, rec.message = out.code, out.message
            rec.violations = list(getattr(out, "violations", []) or [])
            if isinstance(out, ToolRefused):
                rec.grant_id = out.grant_id
        st.report.tool_calls.append(rec)
        self._save(st)
        if via == "agent" or out.status != "refused":  # a refused intent is reported as its action
            self._emit(RunEvent("tool_call", st.run_id, rnd, node, out.status, f"{out.tool} {rec.code or ''}".strip()))
        return out

    # -- the human review queue ------------------------------------------------------------------
    def _review_requests(self, run_id: str) -> list[Feedback]:
        """Evidence reviewers asked for in this run: the planner starts from it, like any rejection."""
        if self.plane.review is None:
            return []
        return [
            Feedback(round=0, node=item.agent, stage="review", outcome="stopped",
                     open_questions=[f"{d.reviewer} asks, before {item.tool} {json.dumps(item.args, sort_keys=True)}: {d.request}"],
                     diagnosis=[f"review item {item.item_id} was sent back for evidence on {d.decided_at.isoformat()}"])
            for item, d in self.plane.review.evidence_requests(run_id)
        ]

    # -- plumbing ----------------------------------------------------------------------------------
    def _chains(self) -> list[ChainStatus]:
        out = []
        parts = [p for p in (self.plane.ledger, self.plane.journal) if callable(getattr(p, "verify", None))]
        for rep in (p.verify() for p in parts):
            bad = rep.first_bad
            out.append(ChainStatus(table=rep.table, entries=rep.entries, ok=rep.ok, head=rep.head_hash,
                                   first_bad=f"seq {bad.seq}: {bad.reason}" if bad else None))
        return out

    def _save(self, st: _Run) -> None:
        # After every decision, so a crash loses nothing the journal has not also got.
        if st.report.report_path:
            st.report.evidence = list(st.evidence.values())
            st.report.save(st.report.report_path)

    def _emit(self, event: RunEvent) -> None:
        if self._on_event is not None:
            try:
                self._on_event(event)
            except Exception:
                pass  # a broken progress display must not change a run's outcome


class _Port:
    """The ToolPort one agent gets for one turn: bus calls and retrieval, recorded in the report."""

    def __init__(self, runner: GraphRunner, st: _Run, rnd: int, node: str):
        self._runner, self._st, self._round, self._node = runner, st, rnd, node

    def call(self, tool: str, args: Any, *, version: str | None = None, depends_on: list[str] | None = None,
             requires_grant: bool | None = None) -> Any:
        intent: dict[str, Any] = {"tool": tool, "args": args, "depends_on": list(depends_on or []),
                                  "requires_grant": bool(requires_grant)}
        if version is not None:
            intent["version"] = version
        return self._runner._call(self._st, self._round, self._node, "agent", intent)

    def retrieve(self, query: str | None = None, *, document: str | None = None, k: int = 3) -> list[EvidenceRef]:
        if self._runner.corpus is None:
            raise CorpusError("this runner was given no document corpus to retrieve from")
        refs = []
        for lid, page in self._runner.corpus.retrieve(self._runner.plane.ledger, self._st.run_id, query, document=document, k=k):
            ref = EvidenceRef(ledger_id=lid, kind="span", source={"document": page.document, "page": page.page, "start": page.start,
                                                                   "end": page.end}, text=page.text, via="retrieval")
            self._st.evidence.setdefault(lid, ref)
            refs.append(ref)
        return refs


def _as_json(out: Any) -> Any:
    if isinstance(out, Artifact):
        return out.model_dump(mode="json")
    if isinstance(out, (bytes, bytearray)):
        out = out.decode("utf-8", errors="replace")
    if isinstance(out, str):
        try:
            return json.loads(out)
        except ValueError:
            return out[:2000]
    return jsonable(out)


def _open_questions(feedback: list[Feedback]) -> list[str]:
    qs: list[str] = []
    for f in feedback:
        qs.extend(f.open_questions)
        for p in f.unsupported:
            need = p.missing_evidence.needed if p.missing_evidence else p.reason
            qs.append(f"Unsupported: {p.hypothesis or p.proposition_id} (needs {need})")
    return list(dict.fromkeys(qs))


__all__ = ["CONFIDENCE_MAP_ENV", "ConfidenceMapError", "ControlPlane", "DEFAULT_MAX_ROUNDS", "GraphRunner", "RunEvent", "calibrated",
           "load_confidence_map"]
