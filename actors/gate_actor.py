"""`GateActor`: the schema gate (runtime/gate.py) as a stateless Ray actor; run several.

Stateless because everything the gate decides from lives elsewhere: the tool registry is loaded
from the same spec folder by every replica, citations are checked against the ledger tables
(read directly), and decisions are journaled through the LedgerActor. So any replica can answer
any run, and a restarted one needs nothing back. A replayed check (max_task_retries) journals its
decision again: the decision is the same, and a gate decision is a log line, not a state change.
"""

from __future__ import annotations

from typing import Any

import ray

from warrant.actors.store import JournalClient, LedgerClient
from warrant.runtime.gate import Gate, GateDecision
from warrant.runtime.registry import ToolRegistry


@ray.remote(max_restarts=-1, max_task_retries=-1, num_cpus=0)
class GateActor:
    def __init__(self, ledger_uri: str, writer: "ray.actor.ActorHandle", tools_dir: str | None = None):
        tools = ToolRegistry.load(tools_dir) if tools_dir else None
        self._gate = Gate(LedgerClient(ledger_uri, writer), tools=tools, journal=JournalClient(ledger_uri, writer))

    def check(self, artifact: Any, run_id: str | None = None, journal: bool = True) -> GateDecision:
        return self._gate.check(artifact, run_id=run_id, journal=journal)

    def ping(self) -> bool:
        return True


def start_gates(n: int, ledger_uri: str, writer: "ray.actor.ActorHandle", tools_dir: str | None, *, prefix: str | None = None, detached: bool = False) -> list:
    """`n` named GateActors (named so a restarted driver or ingress finds them again)."""
    return [_named(GateActor, f"{prefix}-{i}" if prefix else None, detached).remote(ledger_uri, writer, tools_dir) for i in range(n)]


def _named(cls, name: str | None, detached: bool):
    from warrant.actors.ledger_actor import NAMESPACE

    if name is None:
        return cls
    return cls.options(name=name, namespace=NAMESPACE, get_if_exists=True, lifetime="detached" if detached else None)


__all__ = ["GateActor", "start_gates"]
