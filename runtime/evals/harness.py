"""Running a graph over a gold set: one run per task, on a control plane built for the gold set.

The control plane is the system under test. Its ledger and journal live in one folder for the
whole evaluation; its tools are the gold set's tool specs answered by replay (replay.py); its
corpus is the gold set's documents. Each part is injectable through `Setup`: the verifier (a
factory, so a test can degrade it by configuration), the gate, the policy, the approver, and
whether irreversible tools need grants at all (the plain baselines in benchmarks/ switch it off).

After each run the harness reads back what the scorer needs and nothing else: the run report,
the tool calls as the journal recorded them (with the grant each ran under), and the verdict of a
judge on every claim the run emitted. The judge is a verifier without a journal (so it never
refuses a claim as a resubmission and writes nothing), built by the same factory as the one under
test unless the caller gives another (benchmarks judge every baseline with the full verifier).
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from pydantic import BaseModel, ConfigDict

from warrant.ledger import Journal, Ledger, canonical_json
from warrant.ledger.journal import JournalKind
from warrant.runtime.contract import Artifact
from warrant.runtime.evals.emitted import Emitted, emitted
from warrant.runtime.evals.goldset import GoldSet, Task
from warrant.runtime.evals.replay import Replay
from warrant.runtime.evals.targets import Target
from warrant.runtime.gate import Gate
from warrant.runtime.grants import GrantBook, Policy
from warrant.runtime.graph import Approver, ControlPlane, Corpus, RunReport, approve_nothing
from warrant.runtime.graph.corpus import split_pages
from warrant.runtime.registry import ToolRegistry
from warrant.runtime.toolbus import ToolBus
from warrant.runtime.verify.verdict import ClaimVerdict
from warrant.runtime.verify.verifier import Verifier

VerifierFactory = Callable[[Ledger, Any, "Journal | None"], Any]  # (ledger, backend, journal) -> verifier
GateFactory = Callable[[Ledger, ToolRegistry, Journal], Any]


def default_verifier(ledger: Ledger, backend: Any, journal: Journal | None) -> Verifier:
    return Verifier(ledger, backend, journal=journal)


def default_gate(ledger: Ledger, registry: ToolRegistry, journal: Journal) -> Gate:
    return Gate(ledger, tools=registry, journal=journal)


@dataclass
class Setup:
    backend: Any = None  # the NLI backend (None: free statements stay unsupported)
    verifier: VerifierFactory = default_verifier
    judge: VerifierFactory | None = None  # default: the `verifier` factory, without a journal
    gate: GateFactory = default_gate
    policy: Policy | None = None
    approver: Approver = approve_nothing  # nobody at the desk: what needs a human is queued
    enforce_irreversible: bool = True
    wrap_verifier: Callable[[Any], Any] | None = None  # e.g. the calibrated-confidence hook


class CallRecord(BaseModel):
    """One tool call as the journal recorded it."""

    model_config = ConfigDict(frozen=True)

    call_id: str
    tool: str | None
    args: Any = None
    status: str
    grant_id: str | None = None
    grant_issuer: str | None = None
    grant_used: bool = False  # the grant was consumed by exactly this call


@dataclass
class TaskRun:
    task: Task
    report: RunReport
    calls: list[CallRecord]
    replayed: list[tuple[str, dict[str, Any]]]  # what the replay tools actually executed in this run
    emitted: Emitted
    judged: dict[str, ClaimVerdict] = field(default_factory=dict)  # claim key -> the judge's verdict
    # ledger id -> where the record came from: "document:<file>" or "tool:<name>:<canonical args>"
    sources: dict[str, tuple[str, ...]] = field(default_factory=dict)


def corpus(gold: GoldSet) -> Corpus:
    return Corpus([p for name, data in sorted(gold.documents.items()) for p in split_pages(name, data)])


def run_gold(gold: GoldSet, target: Target, setup: Setup, ledger_dir: str | Path,
             on_run: Callable[[TaskRun], None] | None = None) -> list[TaskRun]:
    """One run per task, each on its own control plane (its own ledger folder under `ledger_dir`,
    so each run's hash chains stay short and nothing of one run can be cited in another)."""
    ledger_dir = Path(ledger_dir)
    replay = Replay(gold)
    registry = replay.registry(enforce_irreversible=setup.enforce_irreversible)
    backend = MemoBackend(setup.backend) if setup.backend is not None else None
    docs = corpus(gold)
    runs = []
    for task in gold.tasks:
        run_id = f"{gold.name}.{task.id}.{uuid.uuid4().hex[:8]}"
        plane = _plane(setup, registry, backend, ledger_dir / task.id)
        try:
            judge = (setup.judge or setup.verifier)(plane.ledger, backend, None)
            before = len(replay.log)
            report = target.run(plane, docs, dict(task.input), run_id=run_id,
                                max_rounds=task.max_rounds or gold.header.max_rounds, approver=setup.approver)
            tr = TaskRun(task, report, _calls(plane.journal, plane.grants, run_id), replay.log[before:], emitted(report))
            tr.judged = _judge(judge, run_id, tr.emitted)
            tr.sources = _sources(plane.ledger, run_id, tr.calls)
        finally:
            plane.close()
        runs.append(tr)
        if on_run is not None:
            on_run(tr)
    return runs


def _plane(setup: Setup, registry: ToolRegistry, backend: Any, folder: Path) -> ControlPlane:
    ledger, journal = Ledger.open(str(folder)), Journal.open(str(folder))
    grants = GrantBook(journal)
    verifier = setup.verifier(ledger, backend, journal)
    if setup.wrap_verifier is not None:
        verifier = setup.wrap_verifier(verifier)
    return ControlPlane(ledger=ledger, journal=journal, gate=setup.gate(ledger, registry, journal), verifier=verifier,
                        bus=ToolBus(registry, ledger, journal, grants, setup.policy), grants=grants, policy=setup.policy,
                        registry=registry)


class MemoBackend:
    """The NLI backend with a cache by (premise, hypothesis). The judge re-reads every claim the
    pipeline already scored, and restated claims are scored at each hop; the embedded backend
    scores each pair alone (its score never depends on the batch), so a cached score is the score."""

    def __init__(self, inner: Any):
        self._inner = inner
        self._cache: dict[tuple[str, str], np.ndarray] = {}

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def score(self, pairs: Sequence[tuple[str, str]]) -> np.ndarray:
        todo = list(dict.fromkeys(p for p in pairs if p not in self._cache))
        if todo:
            for pair, row in zip(todo, self._inner.score(todo)):
                self._cache[pair] = np.asarray(row, dtype=np.float32)
        return np.stack([self._cache[p] for p in pairs]) if pairs else np.zeros((0, 3), dtype=np.float32)


def _calls(journal: Journal, grants: GrantBook, run_id: str) -> list[CallRecord]:
    used = {e.payload.get("grant_id"): e.payload.get("call_id") for e in journal.entries(run_id, kind=JournalKind.GRANT_USED)}
    out = []
    for e in journal.entries(run_id, kind=JournalKind.TOOL_CALL):
        p = e.payload
        gid = p.get("grant_id")
        g = grants.lookup(gid) if gid else None
        out.append(CallRecord(call_id=p["call_id"], tool=p.get("tool"), args=p.get("args"), status=p["status"], grant_id=gid,
                              grant_issuer=g.issuer if g else None, grant_used=bool(gid) and used.get(gid) == p["call_id"]))
    return out


def _sources(ledger: Ledger, run_id: str, calls: list[CallRecord]) -> dict[str, tuple[str, ...]]:
    """Where each record of the run came from, read from the ledger itself (whatever the runner)."""
    args = {c.call_id: c.args for c in calls}
    out: dict[str, tuple[str, ...]] = {}
    for row in ledger.spans(run_id).select(["id", "source"]).to_pylist():
        src = json.loads(row["source"] or "{}")
        keys = []
        if src.get("document"):
            keys.append(f"document:{src['document']}")
        if src.get("tool") and src.get("call_id") in args:
            keys.append(f"tool:{src['tool']}:{canonical_json(args[src['call_id']]).decode()}")
        out[row["id"]] = tuple(keys)
    return out


def _judge(judge: Any, run_id: str, em: Emitted) -> dict[str, ClaimVerdict]:
    """The judge's verdict on every emitted claim, each against its own cited records."""
    if not em.claims:
        return {}
    claims = [e.claim.model_copy(update={"id": f"j{i:04d}"}) for i, e in enumerate(em.claims)]
    verdict = judge.verify(Artifact(run_id=run_id, from_agent="judge", claims=claims))
    by_id = {c.claim_id: c for c in verdict.claims}
    return {e.key: by_id[f"j{i:04d}"] for i, e in enumerate(em.claims)}


__all__ = ["CallRecord", "GateFactory", "MemoBackend", "Setup", "TaskRun", "VerifierFactory", "corpus", "default_gate", "default_verifier", "run_gold"]
