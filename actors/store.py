"""Ledger- and Journal-shaped handles for code hosted on Ray: reads local, writes to the LedgerActor.

The runtime objects (Gate, ToolBus, GrantBook, Verifier) take a Ledger and a Journal. Inside an
actor or replica they get these instead: reads go straight to the LanceDB tables through a
read-only handle (no round trip through one actor), writes go to the single writer.

Freshness: a read-only handle sees the tables as of its last refresh. Evidence is immutable and
content-addressed, so a cached record is never stale; only an id that is *not yet* known can be
new, and a miss triggers a refresh (cheap: the ledger keeps no scanned index to rebuild; the missed
ids are looked up again on the id index). Journal reads decide grants and claim sets, so every journal
read refreshes first (read-your-writes across replicas).
"""

from __future__ import annotations

import uuid
from typing import Any, Iterable

import ray

from warrant.ledger import Journal, JournalEntry, Ledger, LedgerError
from warrant.ledger.evidence import NewEvidence
from warrant.ledger.journal import JournalKind

# GrantBook makes "is this grant used? then record its use" atomic with an in-process lock, which
# holds while one process writes the journal. Replicas are many processes, so the single writer
# enforces it instead: at most one GRANT_USED entry per grant id, and at most one REVIEW_DECISION
# per review item (review pages beside `warrant serve` may be several processes too).
UNIQUE_KINDS = (JournalKind.GRANT_USED.value, JournalKind.REVIEW_DECISION.value)


class LedgerClient:
    item = staticmethod(Ledger.item)

    def __init__(self, uri: str, writer: "ray.actor.ActorHandle | None" = None):
        self._reader = Ledger.open(uri, writer=False)
        self._writer = writer

    @property
    def uri(self) -> str:
        return self._reader.uri

    def refresh(self) -> None:
        self._reader.refresh()

    def _known(self, run_id: str, ids: list[str]) -> None:
        if self._reader.exists(run_id, ids):
            self._reader.refresh()

    # -- reads -----------------------------------------------------------------------------------
    def exists(self, run_id: str, ids: Iterable[str]) -> list[str]:
        ids = list(ids)
        self._known(run_id, ids)
        return self._reader.exists(run_id, ids)

    def exists_many(self, keys: Iterable[tuple[str, str]]) -> set[tuple[str, str]]:
        keys = set(keys)
        found = self._reader.exists_many(keys)
        if found != keys:  # a miss may be a record appended since the last refresh
            self._reader.refresh()
            found = self._reader.exists_many(keys)
        return found

    def get_many(self, run_id: str, ids: Iterable[str]):
        ids = list(dict.fromkeys(ids))
        self._known(run_id, ids)
        return self._reader.get_many(run_id, ids)

    def get(self, run_id: str, rid: str):
        self._known(run_id, [rid])
        return self._reader.get(run_id, rid)

    def search(self, run_id: str, query: str, k: int = 5, exclude: Iterable[str] = ()):
        return self._reader.search(run_id, query, k=k, exclude=exclude)

    def spans(self, run_id: str | None = None):
        self._reader.refresh()
        return self._reader.spans(run_id)

    def ids(self, run_id: str) -> frozenset[str]:
        self._reader.refresh()
        return self._reader.ids(run_id)

    def run_ids(self) -> list[str]:
        self._reader.refresh()
        return self._reader.run_ids()

    def count(self) -> int:
        self._reader.refresh()
        return self._reader.count()

    # -- writes ----------------------------------------------------------------------------------
    def append(self, run_id: str, data: bytes | str, **kw: Any) -> str:
        return self.append_many([Ledger.item(run_id, data, **kw)])[0]

    def append_many(self, items: Iterable[NewEvidence]) -> list[str]:
        if self._writer is None:
            raise LedgerError(f"this handle on {self.uri!r} is read-only: appends go through the LedgerActor")
        return ray.get(self._writer.append_evidence.remote(list(items)))

    def close(self) -> None:
        self._reader.close()


class JournalClient:
    def __init__(self, uri: str, writer: "ray.actor.ActorHandle | None" = None):
        self._reader = Journal.open(uri, writer=False)
        self._writer = writer

    def refresh(self) -> None:
        self._reader.refresh()

    def record(self, run_id: str, kind: JournalKind | str, subject: str, payload: dict[str, Any]) -> JournalEntry:
        return self.record_many([(run_id, kind, subject, payload)])[0]

    def record_many(self, entries: Iterable[tuple[str, Any, str, dict[str, Any]]]) -> list[JournalEntry]:
        if self._writer is None:
            raise LedgerError("this journal handle is read-only: entries go through the LedgerActor")
        rows = [(r, JournalKind(k).value, s, p) for r, k, s, p in entries]
        if not rows:
            return []
        # One id per logical call: Ray replays the call with the same id after a writer restart.
        return ray.get(self._writer.record.remote("req_" + uuid.uuid4().hex, rows, UNIQUE_KINDS))

    def entries(
        self, run_id: str | None = None, kind: JournalKind | str | None = None, subject: str | None = None, *, after: int | None = None
    ) -> list[JournalEntry]:
        self._reader.refresh()
        return self._reader.entries(run_id=run_id, kind=kind, subject=subject, after=after)

    def count(self) -> int:
        self._reader.refresh()
        return self._reader.count()

    def check_head(self) -> None:
        """The journal's stored head against its checkpoint (the GrantBook asks before a grant)."""
        self._reader.check_head()

    def verify(self):
        return self._reader.verify()

    def close(self) -> None:
        self._reader.close()


__all__ = ["JournalClient", "LedgerClient", "UNIQUE_KINDS"]
