"""The review queue beside `warrant serve`: the same ReviewQueue, working through the runtime's actors.

`warrant serve` owns the ledger: its LedgerActor is the one writer. A review page in another
process therefore never opens the ledger as a writer; it joins the Ray cluster (with its token,
actors/ray_env.py), finds the runtime's actors by name (`Runtime.attach`) and gives the queue
their clients, which satisfy the queue's protocols (runtime/review/ports.py):

| the queue needs | in one process | beside `warrant serve` |
| --- | --- | --- |
| a journal (read, append) | `ledger.Journal` | `JournalClient`: reads the tables, appends through the LedgerActor |
| a grant issuer | `GrantBook(journal)` | `GrantBook(JournalClient)`: the grant is a journal entry, so the ToolBusActors see it |
| a tool bus | `ToolBus` | `ToolBusClient`: `execute` on a ToolBusActor |
| evidence to show | `ledger.Ledger` | `LedgerClient` (read-only use) |

An approval issues the single-use grant and makes the call once through a ToolBusActor, which
spends the grant; the LedgerActor refuses a second GRANT_USED per grant and a second decision per
item (actors/store.py UNIQUE_KINDS), so two review pages cannot both approve one call.
"""

from __future__ import annotations

import itertools
from typing import Any, Sequence

import ray

from warrant.actors.runner import Runtime, RuntimeNotFound
from warrant.runtime.grants import GrantBook
from warrant.runtime.review.ports import ReviewRuntime, ReviewRuntimeError
from warrant.runtime.review.queue import ReviewQueue
from warrant.runtime.toolbus import ExecuteOutcome


class ToolBusClient:
    """The tool bus's `execute` in front of ToolBusActors (round robin), blocking like `ToolBus`."""

    def __init__(self, toolbuses: Sequence[Any]):
        if not toolbuses:
            raise ValueError("toolbuses: expected at least one ToolBusActor handle")
        self._buses = list(toolbuses)
        self._next = itertools.cycle(range(len(self._buses)))

    def execute(self, run_id: str, intent: Any, grant_id: str | None = None) -> ExecuteOutcome:
        return ray.get(self._buses[next(self._next)].execute.remote(run_id, intent, grant_id))


def review_queue(rt: Runtime, *, policy: Any = None) -> ReviewQueue:
    """A ReviewQueue whose reads and appends go through `rt`'s actors (`policy`: only to explain,
    on each queued item, why no rule approved it)."""
    journal = rt.journal()
    return ReviewQueue(journal, grants=GrantBook(journal), bus=ToolBusClient(rt.toolbuses), policy=policy)


def attach(ledger_uri: str, *, address: str | None = None, policy: Any = None, prefix: str = "warrant") -> ReviewRuntime:
    """Join the Ray cluster at `address` (auto | HOST:PORT | ray://HOST:10001; token auth, see
    actors/ray_env.py) unless this process is connected already, find the runtime `warrant serve`
    started for `ledger_uri`, and return its review queue (`warrant review serve --address`).

    Raises ReviewRuntimeError saying what is missing: the cluster's token, the cluster, or a
    runtime for that ledger on it."""
    from warrant.actors.ray_env import RayAuthError, init

    try:
        if not ray.is_initialized():
            init(address or "auto", log_to_driver=False)
        rt = Runtime.attach(ledger_uri, prefix=prefix)
    except RayAuthError as exc:
        raise ReviewRuntimeError(str(exc)) from None
    except ConnectionError as exc:
        raise ReviewRuntimeError(f"no Ray cluster at --address {address or 'auto'}: start the runtime with `warrant serve` "
                                 f"(it starts one), or name the head node's HOST:PORT ({exc})") from None
    except RuntimeNotFound as exc:
        raise ReviewRuntimeError(str(exc)) from None
    queue = review_queue(rt, policy=policy)
    ledger = rt.ledger()

    def close() -> None:
        queue.journal.close()
        ledger.close()

    return ReviewRuntime(queue=queue, ledger=ledger, close=close,
                         where=f"the runtime of {ledger_uri} on Ray ({len(rt.toolbuses)} tool bus actor(s))")


__all__ = ["ToolBusClient", "attach", "review_queue"]
