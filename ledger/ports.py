"""What the runtime needs from the ledger and the journal, as structural protocols.

The runtime's consumers (the gate, the verifier, the tool bus, the grant book, the review queue)
take these instead of the concrete classes. In one process they get `Ledger` and `Journal`; inside
a Ray actor or Serve replica they get `actors.store.LedgerClient` / `JournalClient` (local reads,
writes through the single writer). Neither subclasses anything here: both satisfy the protocols
structurally, and `tests/test_ports.py` checks that with real objects, signature by signature.

Runnable:

    from warrant.ledger import Ledger
    from warrant.ledger.ports import LedgerReader
    isinstance(Ledger.open("/tmp/warrant-ports"), LedgerReader)   # True
"""

from __future__ import annotations

from typing import Any, Iterable, Protocol, runtime_checkable

from warrant.ledger.evidence import EvidenceKind, EvidenceRecord, NewEvidence, Source
from warrant.ledger.journal import JournalEntry, JournalKind


@runtime_checkable
class LedgerReader(Protocol):
    """Read one run's evidence: which cited ids are missing, the records, a text search."""

    @property
    def uri(self) -> str: ...

    def exists(self, run_id: str, ids: Iterable[str]) -> list[str]:
        """The ids of `ids` with no record in this run (empty: all exist)."""
        ...

    def exists_many(self, keys: Iterable[tuple[str, str]]) -> set[tuple[str, str]]:
        """The (run_id, id) pairs of `keys` that are records, across runs, in one batch."""
        ...

    def get(self, run_id: str, rid: str) -> EvidenceRecord: ...

    def get_many(self, run_id: str, ids: Iterable[str]) -> dict[str, EvidenceRecord]: ...

    def search(self, run_id: str, query: str, k: int = 5, exclude: Iterable[str] = ()) -> list[tuple[str, float]]: ...

    def ids(self, run_id: str) -> frozenset[str]: ...


@runtime_checkable
class LedgerWriter(LedgerReader, Protocol):
    """A reader that can also append evidence (the tool bus stores tool outputs)."""

    def item(self, run_id: str, data: bytes | str, *, kind: EvidenceKind | str = ..., media_type: str | None = None,
             source: Source | dict[str, Any] | None = None) -> NewEvidence: ...

    def append(self, run_id: str, data: bytes | str, **kw: Any) -> str: ...

    def append_many(self, items: Iterable[NewEvidence]) -> list[str]: ...


@runtime_checkable
class JournalWriter(Protocol):
    """Append decisions to the hash-chained journal and read them back, fresh (read-your-writes:
    grants and claim sets are decided from what was just recorded)."""

    def record(self, run_id: str, kind: JournalKind | str, subject: str, payload: dict[str, Any]) -> JournalEntry: ...

    def record_many(self, entries: Iterable[tuple[str, JournalKind | str, str, dict[str, Any]]]) -> list[JournalEntry]: ...

    def entries(self, run_id: str | None = None, kind: JournalKind | str | None = None, subject: str | None = None) -> list[JournalEntry]: ...


__all__ = ["JournalWriter", "LedgerReader", "LedgerWriter"]
