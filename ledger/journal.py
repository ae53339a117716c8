"""The decision journal: what the control plane decided, in order, hash-chained.

Gate decisions, verdicts, grants, grant uses, tool calls, retractions. Together with the evidence
ledger it lets an auditor walk from any claim to its bytes, its verdict, the grant and the tool
call. Payloads are canonical JSON so the chain hashes exactly what is stored.
"""

from __future__ import annotations

import datetime as dt
import json
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Iterable

from warrant.ledger.audit import TableSpec, register
from warrant.ledger.canonical import canonical_json
from warrant.ledger.chain import VerifyReport
from warrant.ledger.checkpoint import Checkpoints
from warrant.ledger.errors import LedgerError
from warrant.ledger.table import AppendOnlyTable, sql_str

import pyarrow as pa

TABLE = "journal"


class JournalKind(str, Enum):
    GATE_DECISION = "gate_decision"
    VERDICT = "verdict"
    GRANT = "grant"
    GRANT_USED = "grant_used"
    TOOL_CALL = "tool_call"
    RETRACTION = "retraction"
    REGISTRY = "registry"  # which tool registry (by hash) a process served
    REVIEW_ITEM = "review_item"  # an irreversible call queued for a person (runtime/review)
    REVIEW_DECISION = "review_decision"  # what the person decided about it


_SCHEMA = pa.schema(
    [
        ("run_id", pa.string()),
        ("kind", pa.string()),
        ("subject", pa.string()),
        ("payload", pa.string()),
        ("created_us", pa.int64()),
    ]
)


_CHAINED = ("seq", "run_id", "kind", "subject", "payload", "created_us")


def entry_id(row: dict[str, Any]) -> str:
    return "jrn_" + row["entry_hash"][:32]


SPEC = register(TableSpec(TABLE, _CHAINED, entry_id))


@dataclass(frozen=True)
class JournalEntry:
    id: str
    seq: int
    run_id: str
    kind: JournalKind
    subject: str
    payload: dict[str, Any]
    created_at: dt.datetime

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> "JournalEntry":
        return cls(
            id=entry_id(row),
            seq=row["seq"],
            run_id=row["run_id"],
            kind=JournalKind(row["kind"]),
            subject=row["subject"],
            payload=json.loads(row["payload"]),
            created_at=dt.datetime.fromtimestamp(row["created_us"] / 1e6, tz=dt.timezone.utc),
        )


# One stored row of a (run, kind), without its key: (seq, subject, payload, created_us, entry_hash).
_Row = tuple[int, str, str, int, str]
_ROW_COLUMNS = ["seq", "subject", "payload", "created_us", "entry_hash", "run_id", "kind"]


@dataclass
class _Slot:
    """The entries of one (run, kind) with seq <= `upto`, in seq order, and the chain hash of
    entry `upto`. The journal is append-only with dense seq, so what is missing is exactly the
    rows stored after `upto`; the hash tells that the stored history is still the one read."""

    upto: int
    upto_hash: str
    rows: list[_Row] = field(default_factory=list)


class Journal:
    # (run, kind) pairs whose entries are kept in memory; the least recently asked is dropped
    # first and is scanned again if asked again.
    INDEX_KEYS = 256

    def __init__(self, table: AppendOnlyTable):
        self._t = table
        # The in-memory index behind `entries(run_id, kind)`: without it every call scans and
        # parses the whole table (LanceDB has one fragment per commit), which grows with the
        # journal; with it a call reads only the rows stored since the last one.
        self._index: OrderedDict[tuple[str, str], _Slot] = OrderedDict()
        self._index_lock = threading.Lock()

    @classmethod
    def open(cls, uri: str, *, writer: bool = True, checkpoint_mirror: str | None = None) -> "Journal":
        """As `Ledger.open`: LedgerUnreadable on a damaged file, LedgerIntegrityError when a
        writer finds the journal behind its checkpoint."""
        cps = Checkpoints.for_ledger(uri, checkpoint_mirror)
        return cls(AppendOnlyTable(uri, TABLE, _SCHEMA, _CHAINED, writer=writer, checkpoints=cps))

    def check_head(self) -> None:
        """LedgerIntegrityError when the journal as stored now is behind its checkpoint: a
        rollback would make spent grants look unspent."""
        self._t.check_head()

    def close(self) -> None:
        self._t.close()

    def refresh(self) -> None:
        self._t.refresh()

    def record(self, run_id: str, kind: JournalKind | str, subject: str, payload: dict[str, Any]) -> JournalEntry:
        return self.record_many([(run_id, kind, subject, payload)])[0]

    def record_many(self, entries: Iterable[tuple[str, JournalKind | str, str, dict[str, Any]]]) -> list[JournalEntry]:
        now_us = int(dt.datetime.now(dt.timezone.utc).timestamp() * 1e6)
        rows = []
        for run_id, kind, subject, payload in entries:
            try:
                kind = JournalKind(kind)
            except ValueError:
                allowed = ", ".join(k.value for k in JournalKind)
                raise LedgerError(f"journal kind: expected one of {allowed}, got {kind!r}") from None
            rows.append(
                {
                    "run_id": run_id,
                    "kind": kind.value,
                    "subject": subject,
                    "payload": canonical_json(payload).decode(),
                    "created_us": now_us,
                }
            )
        written = self._t.append(rows)
        self._note_appended(written)
        return [JournalEntry.from_row(r) for r in written]

    def entries(
        self,
        run_id: str | None = None,
        kind: JournalKind | str | None = None,
        subject: str | None = None,
        *,
        after: int | None = None,
    ) -> list[JournalEntry]:
        """The entries matching every given field, in seq order, as this handle sees the journal
        (its own appends, and others' up to its last `refresh()`). `after`: only those with a
        larger seq, for a caller that keeps what it read before. With `run_id` and `kind` the
        answer comes from an in-memory index that reads only rows stored since its last call."""
        kind = JournalKind(kind).value if kind is not None else None
        if run_id is not None and kind is not None:
            rows = self._indexed(run_id, kind)
            first = _first_after(rows, after)
            return [
                _entry(run_id, kind, r)
                for r in rows[first:]
                if subject is None or r[1] == subject
            ]
        conds = []
        if run_id is not None:
            conds.append(f"run_id = {sql_str(run_id)}")
        if kind is not None:
            conds.append(f"kind = {sql_str(kind)}")
        if subject is not None:
            conds.append(f"subject = {sql_str(subject)}")
        if after is not None:
            conds.append(f"seq > {int(after)}")
        t = self._t.scan(where=" AND ".join(conds) or None).sort_by("seq")
        return [JournalEntry.from_row(r) for r in t.to_pylist()]

    # -- the (run, kind) index -----------------------------------------------------------------
    def _indexed(self, run_id: str, kind: str) -> list[_Row]:
        """The stored rows of (run_id, kind) up to this handle's tail. Returns the slot's list
        itself: callers slice it, and appends only ever extend it."""
        key = (run_id, kind)
        with self._index_lock:
            tail, tail_hash = self._t.tail
            slot = self._index.get(key)
            if slot is not None and (tail, tail_hash) != (slot.upto, slot.upto_hash):
                slot = self._catch_up(key, slot, tail)
            if slot is None:
                # One filtered scan, bounded by the tail read before it: an append that lands
                # after that read is folded in by `_note_appended` or the next catch-up, never lost.
                where = f"run_id = {sql_str(run_id)} AND kind = {sql_str(kind)} AND seq <= {tail}"
                t = self._t.scan(_ROW_COLUMNS, where=where).sort_by("seq")
                slot = _Slot(tail, tail_hash, [r[:5] for r in _rows(t)])
            self._index[key] = slot
            self._index.move_to_end(key)
            while len(self._index) > self.INDEX_KEYS:
                self._index.popitem(last=False)
            return slot.rows

    def _catch_up(self, key: tuple[str, str], slot: _Slot, tail: int) -> _Slot | None:
        """Extend `slot` with the rows stored after it (another writer's, seen after `refresh()`),
        reading those rows only. None when the history it was built on is gone (the table is
        shorter, or entry `upto` is no longer the one read): the caller scans afresh."""
        if tail < slot.upto:
            return None
        first = max(slot.upto, 0)
        got = _rows(self._t.rows_between(first, tail, _ROW_COLUMNS))
        if slot.upto >= 0 and (not got or got[0][0] != slot.upto or got[0][4] != slot.upto_hash):
            return None
        new = [r for r in got if r[0] > slot.upto]
        if not new or [r[0] for r in new] != list(range(slot.upto + 1, tail + 1)):
            return None
        slot.rows.extend(r[:5] for r in new if (r[5], r[6]) == key)
        slot.upto, slot.upto_hash = tail, new[-1][4]
        return slot

    def _note_appended(self, written: list[dict[str, Any]]) -> None:
        """Fold this handle's own append into every slot that had read up to just before it; a
        slot further behind catches up from storage when next asked."""
        if not written:
            return
        with self._index_lock:
            for key, slot in self._index.items():
                if slot.upto == written[0]["seq"] - 1 and slot.upto_hash == written[0]["prev_hash"]:
                    slot.rows.extend(
                        (r["seq"], r["subject"], r["payload"], r["created_us"], r["entry_hash"])
                        for r in written
                        if (r["run_id"], r["kind"]) == key
                    )
                    slot.upto, slot.upto_hash = written[-1]["seq"], written[-1]["entry_hash"]

    def count(self) -> int:
        return self._t.count()

    @property
    def version(self) -> int:
        """The table's Lance version: one more per commit (`record_many` is one commit)."""
        return self._t.version

    def verify(self) -> VerifyReport:
        return self._t.verify(SPEC)


def _rows(t: pa.Table) -> list[tuple]:
    """Rows of a table with the `_ROW_COLUMNS`, as tuples in that order."""
    return list(zip(*(t[c].to_pylist() for c in _ROW_COLUMNS)))


def _first_after(rows: list[_Row], after: int | None) -> int:
    """Index of the first row with seq > after (rows are in seq order)."""
    if after is None:
        return 0
    i = len(rows)
    while i > 0 and rows[i - 1][0] > after:  # callers ask for the newest few: walk from the end
        i -= 1
    return i


def _entry(run_id: str, kind: str, r: _Row) -> JournalEntry:
    return JournalEntry.from_row(
        {"seq": r[0], "run_id": run_id, "kind": kind, "subject": r[1], "payload": r[2], "created_us": r[3], "entry_hash": r[4]}
    )
