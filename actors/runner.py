"""The agent-graph runner: many runs at once, each artifact through gate -> verifier pool -> tool bus.

Within a run, artifacts go in order (a later hand-off may cite what an earlier tool call stored).
Across runs nothing is shared but the actors, so runs proceed in parallel: each step of each run
is its own task on a runner thread, a slow tool holds one ToolBusActor thread and one runner slot,
and a run whose step fails (an actor error, a timeout) ends with that error in its result while
the other runs go on.

The hand-off itself is runtime/handoff.py's, the same as in process and on LangGraph's edges: this
module only hands it the actors through its ports (`GateActors` for the gate actors,
`ToolBuses` for the tool-bus actors, `PoolChecker` for the verifier pool, the LedgerActor's
`JournalClient` for the journal and grants).
"""

from __future__ import annotations

import asyncio
import itertools
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

import ray

from warrant.actors.gate_actor import start_gates
from warrant.actors.ledger_actor import NAMESPACE, ensure_ledger_actor, ledger_actor_name
from warrant.actors.store import JournalClient, LedgerClient
from warrant.actors.toolbus_actor import start_toolbuses
from warrant.actors.verifier_pool import PoolChecker
from warrant.runtime.contract import Artifact
from warrant.runtime.graph.approval import Approver, approve_nothing
from warrant.runtime.graph.report import Action
from warrant.runtime.handoff import Handoffs, claim_texts
from warrant.runtime.toolbus import ExecuteOutcome, ProposeOutcome
from warrant.runtime.violations import Violation
from warrant.runtime.gate import GateDecision
from warrant.runtime.grants import GrantBook, Policy
from warrant.runtime.verify.verdict import ArtifactVerdict
from warrant.runtime.verify.verifier import Verifier


@dataclass
class Step:
    """What happened to one artifact (runtime/handoff.py `Checked`, as data). `outcome`: passed,
    stopped (at `stage`: gate, runner, verifier) or abstained (open questions). `verdict` is None
    when it stopped before the verifier. `tool_calls` holds one outcome per action intent, in the
    artifact's order: proposed, or executed when asked and the hand-off passed; `actions` what
    became of each executed one."""

    gate: GateDecision
    verdict: ArtifactVerdict | None = None
    tool_calls: list[Any] = field(default_factory=list)
    queued: list[str] = field(default_factory=list)  # review items of the calls that wait for a person
    outcome: str = "stopped"
    stage: str | None = None
    violations: list[Violation] = field(default_factory=list)  # why it stopped (the gate's, or the sender check's)
    open_questions: list[str] = field(default_factory=list)
    actions: list[Action] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "outcome": self.outcome,
            "stage": self.stage,
            "violations": [v.model_dump(mode="json") for v in self.violations],
            "open_questions": list(self.open_questions),
            "gate": self.gate.model_dump(mode="json"),
            "verdict": self.verdict.model_dump(mode="json") if self.verdict else None,
            "tool_calls": [t.model_dump(mode="json") for t in self.tool_calls],
            "actions": [a.model_dump(mode="json") for a in self.actions],
            "queued_for_review": list(self.queued),
        }


@dataclass
class RunResult:
    run_id: str
    steps: list[Step] = field(default_factory=list)
    error: str | None = None  # the step that failed and why; the steps before it stand

    @property
    def ok(self) -> bool:
        return self.error is None


@dataclass
class Runtime:
    """Handles to the Ray-hosted control plane of one ledger."""

    ledger_uri: str
    writer: Any
    gates: list
    toolbuses: list
    pool: Any  # a DeploymentHandle to the VerifierPool
    policy: Policy | None = None  # the tool buses' policy: the runner asks a person only where no rule approves

    @classmethod
    def start(
        cls,
        ledger_uri: str,
        pool: Any,
        tools_dir: str | None = None,
        *,
        gates: int = 2,
        toolbuses: int = 2,
        policy: Policy | None = None,
        detached: bool = False,
        prefix: str | None = None,
    ) -> "Runtime":
        """Start (or, with a `prefix`, find) the actors. Named actors with a prefix survive the
        process that created them when `detached`; `warrant serve` uses that."""
        writer = ensure_ledger_actor(ledger_uri, detached=detached)
        if prefix:
            prefix = _ledger_prefix(prefix, ledger_uri)
        g = start_gates(gates, ledger_uri, writer, tools_dir, prefix=f"{prefix}-gate" if prefix else None, detached=detached)
        t = start_toolbuses(toolbuses, ledger_uri, writer, tools_dir, policy, prefix=f"{prefix}-toolbus" if prefix else None, detached=detached) if tools_dir else []
        ray.get([a.ping.remote() for a in g])
        return cls(ledger_uri, writer, g, t, pool, policy)

    @classmethod
    def attach(cls, ledger_uri: str, *, prefix: str = "warrant", pool: Any = None, policy: Policy | None = None) -> "Runtime":
        """Find the actors a running `warrant serve` (or `start(..., prefix=...)`) started for
        this ledger, by name, without starting any: a second process works through the same
        single writer and tool buses. Raises RuntimeNotFound naming what is missing."""
        try:
            writer = ray.get_actor(ledger_actor_name(ledger_uri), namespace=NAMESPACE)
        except ValueError:
            raise RuntimeNotFound(f"no ledger writer for {ledger_uri!r} on this Ray cluster: start the runtime first "
                                  f"(warrant serve --ledger {ledger_uri}), and pass the same --ledger") from None
        named = _ledger_prefix(prefix, ledger_uri)
        found: dict[str, list] = {"gate": [], "toolbus": []}
        for kind, actors in found.items():
            while True:
                try:
                    actors.append(ray.get_actor(f"{named}-{kind}-{len(actors)}", namespace=NAMESPACE))
                except ValueError:
                    break
        if not found["toolbus"]:
            raise RuntimeNotFound(f"the runtime of {ledger_uri!r} has no tool bus named {named}-toolbus-0: "
                                  f"was it started with a tools folder and the prefix {prefix!r}?")
        ray.get(writer.ping.remote())
        return cls(ledger_uri, writer, found["gate"], found["toolbus"], pool, policy)

    def ledger(self) -> LedgerClient:
        return LedgerClient(self.ledger_uri, self.writer)

    def journal(self) -> JournalClient:
        return JournalClient(self.ledger_uri, self.writer)


class RuntimeNotFound(LookupError):
    """The actors of a ledger's runtime are not on this Ray cluster (see `Runtime.attach`)."""


def _ledger_prefix(prefix: str, ledger_uri: str) -> str:
    # Per ledger: actors found by name must serve the ledger they were started for.
    return f"{prefix}-{ledger_actor_name(ledger_uri).rsplit('-', 1)[-1]}"


class _RoundRobin:
    """Ray actor handles taken in turn (Ray queues a call on a busy actor; nothing waits here)."""

    what = "actor"
    hint = ""

    def __init__(self, actors: Sequence[Any]):
        self._actors = list(actors)
        self._next = itertools.cycle(range(max(1, len(self._actors))))

    def actor(self) -> Any:
        if not self._actors:
            raise RuntimeError(f"this runtime has no {self.what}{self.hint}")
        return self._actors[next(self._next)]


class GateActors(_RoundRobin):
    """The gate port (runtime/handoff.py `GatePort`) in front of GateActors."""

    what = "gate"

    def check(self, artifact: Any, *, run_id: str | None = None, journal: bool = True) -> GateDecision:
        return ray.get(self.actor().check.remote(artifact, run_id, journal))


class ToolBuses(_RoundRobin):
    """The bus port (runtime/handoff.py `BusPort`) in front of ToolBusActors: the runner keeps many
    calls in flight, and each actor serves several at once (its max_concurrency)."""

    what = "tool bus"
    hint = " (start it with a tools folder)"

    def propose(self, run_id: str, intent: Any) -> ProposeOutcome:
        return ray.get(self.actor().propose.remote(run_id, intent))

    def execute(self, run_id: str, intent: Any, grant_id: str | None = None) -> ExecuteOutcome:
        return ray.get(self.actor().execute.remote(run_id, intent, grant_id))


class Runner:
    """`review`: a ReviewQueue over this runtime (actors/review.py `review_queue`); an executed
    irreversible call the bus refuses for want of a grant or of supported claims is queued there
    for a person (`Step.queued`), as the in-process graph runner does. None: it is only refused.
    `approver`: asked, as in process, about an irreversible call no policy rule approves."""

    def __init__(self, runtime: Runtime, *, max_parallel: int = 64, step_timeout_s: float | None = 300.0, review: Any = None,
                 approver: Approver = approve_nothing):
        self.rt = runtime
        self.review = review
        self._verifier = Verifier(runtime.ledger(), journal=runtime.journal(), checker=PoolChecker(runtime.pool))
        # Verifier.verify is synchronous (it waits on the pool); each runs on its own thread.
        self._threads = ThreadPoolExecutor(max_workers=max_parallel, thread_name_prefix="warrant-verify")
        # The pipeline blocks on actor calls and on the pool too: each step runs on one of these threads.
        self.approver = approver
        self._buses = ToolBuses(runtime.toolbuses)
        journal = runtime.journal()
        self.handoffs = Handoffs(gate=GateActors(runtime.gates), verifier=self._verifier, bus=self._buses, grants=GrantBook(journal),
                                 journal=journal, policy=runtime.policy, review=review)
        self._slots = asyncio.Semaphore(max_parallel)
        self._timeout = step_timeout_s

    def _bus(self):
        """One ToolBusActor, round robin (the HTTP ingress's direct /tool-calls)."""
        return self._buses.actor()

    async def submit(self, artifact: Artifact | Mapping[str, Any] | str | bytes, *, run_id: str | None = None,
                     sender: str | None = None, execute: bool = False, grant_ids: Mapping[int, str] | None = None) -> Step:
        """One artifact through runtime/handoff.py: gate, sender (`sender`: the agent it came from;
        None where the caller cannot tell, and then `from_agent` is taken as sent), open questions,
        verifier; then each action intent is proposed, or with `execute=True` carried out when the
        hand-off passed (`grant_ids`: intent index -> grant id)."""
        loop = asyncio.get_running_loop()
        async with self._slots:
            work = loop.run_in_executor(self._threads, self._step, artifact, run_id, sender, execute, dict(grant_ids or {}))
            return await asyncio.wait_for(work, self._timeout)

    def _step(self, artifact: Any, run_id: str | None, sender: str | None, execute: bool, grant_ids: Mapping[int, str]) -> Step:
        checked = self.handoffs.check(artifact, run_id=run_id, sender=sender)
        step = Step(gate=checked.decision, verdict=checked.verdict, outcome=checked.outcome, stage=checked.stage,
                    violations=list(checked.violations), open_questions=list(checked.open_questions))
        art = checked.received
        if art is None:  # the gate rejected it
            return step
        if not (execute and checked.passed):
            step.tool_calls = self.handoffs.propose(art.run_id, art)
            return step
        acted = sorted(self.handoffs.act(art.run_id, art.from_agent, art.action_intents, checked.verdict.claims,
                                         claim_texts=claim_texts(art), approver=self.approver, grant_ids=grant_ids),
                       key=lambda a: a.index)
        step.tool_calls = [a.call for a in acted]
        step.actions = [a.action for a in acted]
        step.queued = [a.queued for a in acted if a.queued]
        return step

    async def run(self, run_id: str, artifacts: Iterable[Any], *, execute: bool = False,
                  senders: Sequence[str] | None = None) -> RunResult:
        """The artifacts of one run, in order (`senders`: the agent each came from, as `submit`'s
        `sender`). A rejected or abstained step does not stop the run (the next agent may supply
        evidence); an exception does, and is reported, not raised."""
        result = RunResult(run_id)
        for k, art in enumerate(artifacts):
            try:
                sender = senders[k] if senders is not None else None
                result.steps.append(await self.submit(art, run_id=run_id, sender=sender, execute=execute))
            except Exception as exc:  # noqa: BLE001 - one run's failure is that run's result
                result.error = f"step {k}: {type(exc).__name__}: {exc}"
                break
        return result

    async def run_many(self, runs: Mapping[str, Iterable[Any]], *, execute: bool = False) -> dict[str, RunResult]:
        results = await asyncio.gather(*(self.run(rid, arts, execute=execute) for rid, arts in runs.items()))
        return {r.run_id: r for r in results}

    def close(self) -> None:
        self._threads.shutdown(wait=False)


__all__ = ["GateActors", "RunResult", "Runner", "Runtime", "RuntimeNotFound", "Step", "ToolBuses"]
