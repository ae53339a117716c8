"""The decision journal: what the control plane decided, in order, hash-chained.

Gate decisions, verdicts, grants, grant uses, tool calls, retractions. Together with the evidence
ledger it lets an auditor walk from any claim to its bytes, its verdict, the grant and the tool
call. Payloads are canonical JSON so the chain hashes exactly what is stored.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
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


class Journal:
    def __init__(self, table: AppendOnlyTable):
        self._t = table

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
        return [JournalEntry.from_row(r) for r in self._t.append(rows)]

    def entries(
        self, run_id: str | None = None, kind: JournalKind | str | None = None, subject: str | None = None
    ) -> list[JournalEntry]:
        conds = []
        if run_id is not None:
            conds.append(f"run_id = {sql_str(run_id)}")
        if kind is not None:
            conds.append(f"kind = {sql_str(JournalKind(kind).value)}")
        if subject is not None:
            conds.append(f"subject = {sql_str(subject)}")
        t = self._t.scan(where=" AND ".join(conds) or None).sort_by("seq")
        return [JournalEntry.from_row(r) for r in t.to_pylist()]

    def count(self) -> int:
        return self._t.count()

    def verify(self) -> VerifyReport:
        return self._t.verify(SPEC)
