"""`ToolBusActor`: the typed tool bus (runtime/toolbus.py) as a stateless Ray actor; run several.

The registry comes from the spec folder, grants and verdicts from the journal (read directly,
refreshed on every read), tool outputs and tool-call records go to the LedgerActor. A grant is
spent at most once across replicas because the single writer refuses a second GRANT_USED entry
(actors/store.py); the losing replica's `execute` then ends with that refusal instead of a run.

No task retries: `execute` may run a tool with side effects, and replaying it after a crash could
act twice. A caller that sees the actor die looks up the call in the journal instead.
"""

from __future__ import annotations

from typing import Any

import ray

from warrant.actors.gate_actor import _named
from warrant.actors.store import JournalClient, LedgerClient
from warrant.runtime.contract import ActionIntent
from warrant.runtime.grants import GrantBook, Policy
from warrant.runtime.registry import ToolRegistry
from warrant.runtime.toolbus import ExecuteOutcome, ProposeOutcome, ToolBus


@ray.remote(max_restarts=-1, max_task_retries=0, num_cpus=0, max_concurrency=8)
class ToolBusActor:
    def __init__(self, ledger_uri: str, writer: "ray.actor.ActorHandle", tools_dir: str, policy: Policy | None = None):
        journal = JournalClient(ledger_uri, writer)
        self._bus = ToolBus(ToolRegistry.load(tools_dir), LedgerClient(ledger_uri, writer), journal, GrantBook(journal), policy)

    def propose(self, run_id: str, intent: ActionIntent | dict[str, Any]) -> ProposeOutcome:
        return self._bus.propose(run_id, intent)

    def execute(self, run_id: str, intent: ActionIntent | dict[str, Any], grant_id: str | None = None) -> ExecuteOutcome:
        return self._bus.execute(run_id, intent, grant_id)

    def registry_hash(self) -> str:
        return self._bus.registry.hash

    def stuck_calls(self) -> int:
        return self._bus.stuck_calls


def start_toolbuses(
    n: int, ledger_uri: str, writer: "ray.actor.ActorHandle", tools_dir: str, policy: Policy | None = None, *, prefix: str | None = None, detached: bool = False
) -> list:
    return [_named(ToolBusActor, f"{prefix}-{i}" if prefix else None, detached).remote(ledger_uri, writer, tools_dir, policy) for i in range(n)]


__all__ = ["ToolBusActor", "start_toolbuses"]
