"""What the review queue and page need from the runtime around them: four small protocols.

The queue reads and appends journal entries, issues a grant, and makes a call; the page reads
evidence records. In one process these are `ledger.Journal`, `runtime.grants.GrantBook`,
`runtime.toolbus.ToolBus` and `ledger.Ledger`. Beside `warrant serve` they are the Ray clients of
actors/ (`JournalClient` and `LedgerClient`, which write through the ledger's single writer, a
`GrantBook` over that journal client, and `ToolBusClient` in front of the ToolBusActors), so the
queue never opens the ledger as a writer of its own. Both sets satisfy these protocols
structurally; neither subclasses them, and this module imports neither Ray nor actors/.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Protocol, runtime_checkable

from warrant.ledger import JournalEntry


@runtime_checkable
class JournalPort(Protocol):
    """Append an entry to the decision journal (hash-chained) and read entries back, fresh."""

    def record(self, run_id: str, kind: Any, subject: str, payload: dict[str, Any]) -> JournalEntry: ...

    def entries(self, run_id: str | None = None, kind: Any = None, subject: str | None = None) -> list[JournalEntry]: ...


@runtime_checkable
class GrantIssuer(Protocol):
    """Issue the single-use grant a person's approval becomes (journaled before it is returned)."""

    def issue_human(self, run_id: str, tool: str, version: str, args: dict[str, Any], claim_set_hash: str, approver: str,
                    ttl_s: float = ...) -> Any: ...


@runtime_checkable
class CallMaker(Protocol):
    """Make a tool call through the typed tool bus, with a grant; returns the bus's outcome."""

    def execute(self, run_id: str, intent: Any, grant_id: str | None = None) -> Any: ...


@runtime_checkable
class EvidenceReader(Protocol):
    """The page shows each cited span inside its record: the run's records as an Arrow table."""

    def spans(self, run_id: str | None = None) -> Any: ...


class ReviewRuntimeError(Exception):
    """The runtime to review through cannot be reached (no cluster, no token, no runtime for that
    ledger); the message says what to do. `warrant review serve` exits 2 on it."""


@dataclass
class ReviewRuntime:
    """A review queue wired to a runtime, as `warrant review serve` uses it: the queue, the
    evidence it shows, and how to let go of both. `rerun` sends a run back to its planner (None:
    the request waits for the run's next pass)."""

    queue: Any  # a ReviewQueue
    ledger: EvidenceReader
    close: Callable[[], None]
    rerun: Callable[[str], Any] | None = None
    where: str = ""  # said on the console: which runtime the queue works through


__all__ = ["CallMaker", "EvidenceReader", "GrantIssuer", "JournalPort", "ReviewRuntime", "ReviewRuntimeError"]
