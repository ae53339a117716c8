"""The agent-graph runner: many runs at once, each artifact through gate -> verifier pool -> tool bus.

Within a run, artifacts go in order (a later hand-off may cite what an earlier tool call stored).
Across runs nothing is shared but the actors, so runs proceed in parallel: each step of each run
is its own coroutine, a slow tool holds one ToolBusActor thread and one runner slot, and a run
whose step fails (an actor error, a timeout) ends with that error in its result while the other
runs go on. The decisions themselves (pass/reject, verdicts, refusals) are the runtime objects'.
"""

from __future__ import annotations

import asyncio
import itertools
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

import ray

from warrant.actors.gate_actor import start_gates
from warrant.actors.ledger_actor import NAMESPACE, ensure_ledger_actor, ledger_actor_name
from warrant.actors.store import JournalClient, LedgerClient
from warrant.actors.toolbus_actor import start_toolbuses
from warrant.actors.verifier_pool import PoolChecker
from warrant.runtime.contract import Artifact
from warrant.runtime.gate import GateDecision
from warrant.runtime.grants import Policy
from warrant.runtime.verify.verdict import ArtifactVerdict
from warrant.runtime.verify.verifier import Verifier


@dataclass
class Step:
    """What happened to one artifact. `verdict` is None when the gate rejected it; `tool_calls`
    holds one outcome per action intent (proposed, or executed when asked and verified)."""

    gate: GateDecision
    verdict: ArtifactVerdict | None = None
    tool_calls: list[Any] = field(default_factory=list)
    queued: list[str] = field(default_factory=list)  # review items of the calls that wait for a person

    def to_json(self) -> dict[str, Any]:
        return {
            "gate": self.gate.model_dump(mode="json"),
            "verdict": self.verdict.model_dump(mode="json") if self.verdict else None,
            "tool_calls": [t.model_dump(mode="json") for t in self.tool_calls],
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
        return cls(ledger_uri, writer, g, t, pool)

    @classmethod
    def attach(cls, ledger_uri: str, *, prefix: str = "warrant", pool: Any = None) -> "Runtime":
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
        return cls(ledger_uri, writer, found["gate"], found["toolbus"], pool)

    def ledger(self) -> LedgerClient:
        return LedgerClient(self.ledger_uri, self.writer)

    def journal(self) -> JournalClient:
        return JournalClient(self.ledger_uri, self.writer)


class RuntimeNotFound(LookupError):
    """The actors of a ledger's runtime are not on this Ray cluster (see `Runtime.attach`)."""


def _ledger_prefix(prefix: str, ledger_uri: str) -> str:
    # Per ledger: actors found by name must serve the ledger they were started for.
    return f"{prefix}-{ledger_actor_name(ledger_uri).rsplit('-', 1)[-1]}"


class Runner:
    """`review`: a ReviewQueue over this runtime (actors/review.py `review_queue`); an executed
    irreversible call the bus refuses for want of a grant or of supported claims is queued there
    for a person (`Step.queued`), as the in-process graph runner does. None: it is only refused."""

    def __init__(self, runtime: Runtime, *, max_parallel: int = 64, step_timeout_s: float | None = 300.0, review: Any = None):
        self.rt = runtime
        self.review = review
        self._verifier = Verifier(runtime.ledger(), journal=runtime.journal(), checker=PoolChecker(runtime.pool))
        # Verifier.verify is synchronous (it waits on the pool); each runs on its own thread.
        self._threads = ThreadPoolExecutor(max_workers=max_parallel, thread_name_prefix="warrant-verify")
        self._slots = asyncio.Semaphore(max_parallel)
        self._gate_rr = itertools.cycle(range(len(runtime.gates)))
        self._bus_rr = itertools.cycle(range(max(1, len(runtime.toolbuses))))
        self._timeout = step_timeout_s

    def _gate(self):
        return self.rt.gates[next(self._gate_rr)]

    def _bus(self):
        if not self.rt.toolbuses:
            raise RuntimeError("this runtime has no tool bus (start it with a tools folder)")
        return self.rt.toolbuses[next(self._bus_rr)]

    async def submit(self, artifact: Artifact | Mapping[str, Any] | str | bytes, *, run_id: str | None = None,
                     execute: bool = False, grant_ids: Mapping[int, str] | None = None) -> Step:
        """One artifact: gate; if it passes, verify; then each action intent is proposed, or with
        `execute=True` executed when the verdict passed (`grant_ids`: intent index -> grant id)."""
        async with self._slots:
            return await asyncio.wait_for(self._submit(artifact, run_id, execute, grant_ids or {}), self._timeout)

    async def _submit(self, artifact: Any, run_id: str | None, execute: bool, grant_ids: Mapping[int, str]) -> Step:
        decision: GateDecision = await self._gate().check.remote(artifact, run_id)
        step = Step(gate=decision)
        if not decision.passed:
            return step
        art = artifact if isinstance(artifact, Artifact) else Artifact.model_validate_json(artifact) if isinstance(artifact, (str, bytes)) else Artifact.model_validate(artifact)
        loop = asyncio.get_running_loop()
        step.verdict = await loop.run_in_executor(self._threads, self._verifier.verify, art)
        for i, intent in enumerate(art.action_intents):
            bus = self._bus()
            if execute and step.verdict.passed:
                out = await bus.execute.remote(art.run_id, intent, grant_ids.get(i))
                step.tool_calls.append(out)
                if self.review is not None:
                    texts = {c.id: c.text for c in art.claims}
                    # The queue journals through the LedgerActor with blocking calls: off the event loop.
                    item = await loop.run_in_executor(self._threads, lambda: self.review.enqueue_refused(
                        art.run_id, art.from_agent, intent, out, claim_texts=texts))
                    if item is not None:
                        step.queued.append(item.item_id)
            else:
                step.tool_calls.append(await bus.propose.remote(art.run_id, intent))
        return step

    async def run(self, run_id: str, artifacts: Iterable[Any], *, execute: bool = False) -> RunResult:
        """The artifacts of one run, in order. A rejected or abstained step does not stop the run
        (the next agent may supply evidence); an exception does, and is reported, not raised."""
        result = RunResult(run_id)
        for k, art in enumerate(artifacts):
            try:
                result.steps.append(await self.submit(art, run_id=run_id, execute=execute))
            except Exception as exc:  # noqa: BLE001 - one run's failure is that run's result
                result.error = f"step {k}: {type(exc).__name__}: {exc}"
                break
        return result

    async def run_many(self, runs: Mapping[str, Iterable[Any]], *, execute: bool = False) -> dict[str, RunResult]:
        results = await asyncio.gather(*(self.run(rid, arts, execute=execute) for rid, arts in runs.items()))
        return {r.run_id: r for r in results}

    def close(self) -> None:
        self._threads.shutdown(wait=False)


__all__ = ["RunResult", "Runner", "Runtime", "RuntimeNotFound", "Step"]
