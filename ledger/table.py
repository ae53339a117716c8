"""One append-only, hash-chained LanceDB table with a single writer.

The evidence ledger and the decision journal are both this mechanism with different columns.
Why a single writer: LanceDB lets two processes append at once, but under contention an append
can fail with a commit conflict, and two writers would fork the hash chain. Locally the writer
holds an exclusive file lock; on object storage (no lock files) the writer retries on commit
conflict after re-reading the chain's tail. Readers never need the lock.
"""

from __future__ import annotations

import fcntl
import os
import threading
import time
from pathlib import Path
from typing import Any, Callable

import lancedb
import pyarrow as pa

from ledger.chain import GENESIS, ChainBreak, VerifyReport, link_hash, verify_rows
from ledger.errors import LedgerError, LedgerLockedError

CHAIN_COLUMNS = [("seq", pa.int64()), ("prev_hash", pa.string()), ("entry_hash", pa.string())]
_CONFLICT_RETRIES = 20


def is_local(uri: str) -> bool:
    return "://" not in uri or uri.startswith("file://")


def local_path(uri: str) -> Path:
    return Path(uri[len("file://"):] if uri.startswith("file://") else uri)


def connect(uri: str, *, create: bool) -> lancedb.DBConnection:
    if is_local(uri):
        if create:
            local_path(uri).mkdir(parents=True, exist_ok=True)
        elif not local_path(uri).is_dir():
            raise LedgerError(f"no ledger at {uri!r}: nothing was ever written there")
    return lancedb.connect(uri)


def sql_str(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


class AppendOnlyTable:
    """Append and scan; nothing else. There is deliberately no update, delete or cleanup here:
    old LanceDB versions are history the ledger promises to keep."""

    def __init__(
        self,
        uri: str,
        name: str,
        schema: pa.Schema,
        chained_fields: Callable[[dict[str, Any]], list[Any]],
        *,
        writer: bool,
    ):
        self.uri = uri
        self.name = name
        self.schema = pa.schema(list(schema) + [pa.field(n, t) for n, t in CHAIN_COLUMNS])
        self._chained_fields = chained_fields
        self._db = connect(uri, create=writer)
        self._lock_fd: int | None = None
        self._mutex = threading.Lock()
        if writer:
            self._acquire_writer_lock()
        if name in self._table_names():
            self._table = self._db.open_table(name)
        elif writer:
            self._table = self._db.create_table(name, schema=self.schema, exist_ok=True)
        else:
            raise LedgerError(f"no table {name!r} at {uri!r}: nothing was ever written there")
        self.writer = writer
        self._tail_seq, self._tail_hash = self._read_tail()

    # -- writer lock ---------------------------------------------------------------------------
    def _acquire_writer_lock(self) -> None:
        if not is_local(self.uri):
            return
        path = local_path(self.uri) / f".{self.name}.writer.lock"
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise LedgerLockedError(
                f"another process is the writer of {self.name!r} at {self.uri!r}; "
                "open it read-only (writer=False) or send appends to that process"
            ) from None
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._lock_fd = fd

    def close(self) -> None:
        if self._lock_fd is not None:
            fcntl.flock(self._lock_fd, fcntl.LOCK_UN)
            os.close(self._lock_fd)
            self._lock_fd = None

    def __del__(self) -> None:  # a crashed process releases flock anyway; this is for tidiness
        try:
            self.close()
        except Exception:
            pass

    # -- reading -------------------------------------------------------------------------------
    def _table_names(self) -> list[str]:
        listed = self._db.list_tables()
        return list(getattr(listed, "tables", listed))

    def refresh(self) -> None:
        """See appends made by the writer since this handle was opened."""
        self._table.checkout_latest()
        self._tail_seq, self._tail_hash = self._read_tail()

    @property
    def version(self) -> int:
        return self._table.version

    def count(self) -> int:
        return self._table.count_rows()

    def scan(self, columns: list[str] | None = None, where: str | None = None) -> pa.Table:
        q = self._table.search()
        if where:
            q = q.where(where)
        if columns:
            q = q.select(columns)
        return q.limit(None).to_arrow()

    def has_index(self, column: str) -> bool:
        return any(column in ix.columns for ix in self._table.list_indices())

    def ensure_fts_index(self, column: str) -> bool:
        """Build the full-text index once. Rows appended later are searched unindexed by Lance,
        so no rebuild is needed for correctness. (Not `optimize()`: it deletes old versions.)"""
        from lancedb.index import FTS

        if not self.has_index(column):
            try:
                self._table.create_index(column, config=FTS())
            except Exception:
                return False  # e.g. no text rows yet: try again on the next append
        return True

    def fts(self, query: str, where: str | None, columns: list[str], limit: int) -> list[dict[str, Any]]:
        if not query.strip() or not self.has_index("text"):
            return []
        q = self._table.search(query, query_type="fts")
        if where:
            q = q.where(where)
        return q.select(columns).limit(limit).to_arrow().to_pylist()

    def _read_tail(self) -> tuple[int, str]:
        if self.count() == 0:
            return -1, GENESIS
        t = self.scan(["seq", "entry_hash"])
        i = int(t["seq"].to_numpy().argmax())
        return t["seq"][i].as_py(), t["entry_hash"][i].as_py()

    def rows_in_order(self) -> list[dict[str, Any]]:
        t = self.scan()
        t = t.sort_by("seq")
        return t.to_pylist()

    # -- writing -------------------------------------------------------------------------------
    def append(self, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Chain and write rows as one LanceDB version. Durable when this returns."""
        if not self.writer:
            raise LedgerError(f"{self.name!r} was opened read-only; appends go through its writer")
        if not rows:
            return []
        with self._mutex:
            for attempt in range(_CONFLICT_RETRIES):
                chained = self._chain(rows)
                columns = {f.name: [r[f.name] for r in chained] for f in self.schema}
                try:
                    self._table.add(pa.table(columns, schema=self.schema))
                except Exception as exc:  # LanceDB raises a generic error type on conflicts
                    if "conflict" not in str(exc).lower() or attempt == _CONFLICT_RETRIES - 1:
                        raise
                    time.sleep(0.01 * (attempt + 1))
                    self.refresh()  # someone else moved the tail: re-chain on top of it
                    continue
                self._tail_seq = chained[-1]["seq"]
                self._tail_hash = chained[-1]["entry_hash"]
                return chained
        raise AssertionError("unreachable")

    def _chain(self, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        seq, prev = self._tail_seq, self._tail_hash
        out = []
        for row in rows:
            seq += 1
            full = dict(row, seq=seq, prev_hash=prev)
            full["entry_hash"] = link_hash(prev, self._chained_fields(full))
            prev = full["entry_hash"]
            out.append(full)
        return out

    def verify(
        self,
        entry_id: Callable[[dict[str, Any]], str],
        extra_check: Callable[[dict[str, Any]], str | None] | None = None,
    ) -> VerifyReport:
        try:
            self._table.checkout_latest()
            rows = self.rows_in_order()
        except Exception as exc:  # a file damaged past Lance's ability to read it
            return VerifyReport(self.name, 0, GENESIS, [ChainBreak(-1, "", f"table unreadable: {type(exc).__name__}: {exc}")])
        return verify_rows(self.name, rows, self._chained_fields, entry_id, extra_check)
