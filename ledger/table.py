"""One append-only, hash-chained LanceDB table with a single writer.

The evidence ledger and the decision journal are both this mechanism with different columns.
Why a single writer: LanceDB lets two processes append at once, but under contention an append
can fail with a commit conflict, and two writers would fork the hash chain. Locally the writer
holds an exclusive file lock; on object storage (no lock files) the writer retries on commit
conflict after re-reading the chain's tail. Readers never need the lock.

After every commit the writer records the new head in the ledger's checkpoint (checkpoint.py),
and when it opens it refuses a table that is behind any checkpoint copy: continuing a rolled-back
chain would fork it and overwrite the proof. Whatever Lance raises on a damaged file (a panic
included) comes out as LedgerUnreadable naming the table, version and file.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import threading
import time
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping, Sequence

import pyarrow as pa

from warrant.ledger.audit import CHAINED_KEY, TableSpec, verify_table
from warrant.ledger.chain import GENESIS, VerifyReport, chain_links
from warrant.ledger.checkpoint import Checkpoints, DiskHead, Head, problems
from warrant.ledger.errors import LedgerError, LedgerIntegrityError, LedgerLockedError
from warrant.ledger.storage import diagnose, is_storage_failure

# Hex digests are random by construction, so Lance's string compression (FSST, dictionaries)
# can only lose: measured on 1,000-row appends, trying it on four hash columns doubled the commit
# time (32 ms against 15 ms). Lance keeps field metadata in the table schema, so this applies to
# every later append of a table created with it; older tables keep working, just slower.
_NO_COMPRESSION = {"lance-encoding:compression": "none"}
BTREE_REBUILD_MIN = 4096  # below this many unindexed rows a flat scan is as quick as the index
LOOKUP_CHUNK = 1024  # ids per `IN (...)` list


def digest_field(name: str) -> pa.Field:
    """A string column of hashes or hash-derived ids."""
    return pa.field(name, pa.string(), metadata=_NO_COMPRESSION)


CHAIN_COLUMNS = [pa.field("seq", pa.int64()), digest_field("prev_hash"), digest_field("entry_hash")]
_CONFLICT_RETRIES = 20


def is_local(uri: str) -> bool:
    return "://" not in uri or uri.startswith("file://")


def local_path(uri: str) -> Path:
    return Path(uri[len("file://"):] if uri.startswith("file://") else uri)


def connect(uri: str, *, create: bool) -> Any:
    """A LanceDB connection. Imported here, not at module level: the audit (audit.py) reads Lance
    files without LanceDB, and its child process should not pay LanceDB's import (seconds)."""
    import lancedb

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
        chained: Sequence[str],
        *,
        writer: bool,
        checkpoints: Checkpoints | None = None,
    ):
        """`chained`: the columns each link commits to, in a fixed order (`seq` among them).
        `checkpoints`: where heads are recorded (default: beside the tables, plus the mirror
        named by WARRANT_CHECKPOINT_MIRROR)."""
        uri = os.fspath(uri)  # a pathlib.Path is as good as a string
        self.uri = uri
        self.name = name
        self.schema = pa.schema(list(schema) + CHAIN_COLUMNS)
        unknown = [c for c in chained if c not in self.schema.names]
        if unknown:
            raise ValueError(f"chained columns {unknown} are not columns of {name!r}")
        self.chained = tuple(chained)
        chain = {f.name for f in CHAIN_COLUMNS}
        self._data_columns = [n for n in self.schema.names if n not in chain]
        self.checkpoints = checkpoints if checkpoints is not None else Checkpoints.for_ledger(uri)
        self._broken: list[str] = []  # a writer that saw its table rolled back appends no more
        self._btree_rows: dict[str, int] = {}  # column -> rows its scalar index covered when last looked at
        self._db = connect(uri, create=writer)
        self._lock_fd: int | None = None
        self._mutex = threading.Lock()
        self.writer = writer
        if writer:
            self._acquire_writer_lock()
        try:
            with self._reading():
                exists = name in self._table_names()
                if writer and not exists:
                    # A table the checkpoint knows must not quietly come back empty.
                    self._refuse(problems(name, self.checkpoints.read(), DiskHead(exists=False), lambda _s: None))
                if exists:
                    self._table = self._db.open_table(name)
                elif writer:
                    # The chained columns travel in the schema, so an audit can check any table.
                    marked = self.schema.with_metadata({CHAINED_KEY: json.dumps(list(self.chained))})
                    self._table = self._db.create_table(name, schema=marked, exist_ok=True)
                else:
                    raise LedgerError(f"no table {name!r} at {uri!r}: nothing was ever written there")
                self._tail_seq, self._tail_hash = self._read_tail()
            if writer:
                disk = self._disk_head(self._table, self._tail_seq, self._tail_hash)
                self._refuse(problems(name, self.checkpoints.read(), disk, self._hash_at))
                self._record_head()
        except BaseException:
            self.close()
            raise

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

    @contextlib.contextmanager
    def _reading(self) -> Iterator[None]:
        try:
            yield
        except LedgerError:
            raise
        except BaseException as exc:  # a Rust panic is a BaseException: see storage.py
            if not is_storage_failure(exc):
                raise
            raise diagnose(self.uri, self.name, exc) from exc

    def refresh(self) -> None:
        """See appends made by the writer since this handle was opened."""
        with self._reading():
            self._table.checkout_latest()
            self._tail_seq, self._tail_hash = self._read_tail()

    @property
    def version(self) -> int:
        return self._table.version

    def count(self) -> int:
        with self._reading():
            return self._table.count_rows()

    def scan(self, columns: list[str] | None = None, where: str | None = None, *, table: Any = None) -> pa.Table:
        # `is None`, not `or`: a LanceDB table's truth value is its row count.
        q = (self._table if table is None else table).search()
        if where:
            q = q.where(where)
        if columns:
            q = q.select(columns)
        with self._reading():
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

    def ensure_btree_index(self, column: str) -> None:
        """A BTREE scalar index on `column`, (re)built when the rows appended since it was built
        outnumber those it covers (and at least `BTREE_REBUILD_MIN` of them): Lance scans the
        unindexed tail, so this keeps `column IN (...)` lookups on the index at the cost of
        O(log n) rebuilds over a table's life. Each build is one index-only Lance version (no
        rows change; not `optimize()`, which deletes old versions)."""
        name, rows = f"{column}_idx", self._tail_seq + 1
        covered = self._btree_rows.get(column)
        if covered is not None and rows - covered < max(BTREE_REBUILD_MIN, covered):
            return  # settled from memory: no manifest read on the append path
        with self._reading():
            stats = self._table.index_stats(name) if self.has_index(column) else None
            covered = stats.num_indexed_rows if stats else 0
            if rows - covered >= max(BTREE_REBUILD_MIN, covered):
                from lancedb.index import BTree

                self._table.create_index(column, config=BTree(), replace=True, name=name)
                covered = rows
        self._btree_rows[column] = covered

    def lookup(self, column: str, values: Iterable[str], columns: list[str], where: str | None = None) -> pa.Table:
        """The rows whose `column` is one of `values` (an `IN (...)` list, in chunks; uses the
        column's scalar index where there is one), with `columns`; `where` narrows further."""
        values = list(dict.fromkeys(values))
        parts = []
        for i in range(0, len(values), LOOKUP_CHUNK):
            cond = f"{column} IN ({', '.join(map(sql_str, values[i : i + LOOKUP_CHUNK]))})"
            parts.append(self.scan(columns, where=f"{where} AND {cond}" if where else cond))
        return pa.concat_tables(parts) if len(parts) > 1 else parts[0] if parts else pa.table({c: [] for c in columns})

    def fts(self, query: str, where: str | None, columns: list[str], limit: int) -> list[dict[str, Any]]:
        if not query.strip() or not self.has_index("text"):
            return []
        q = self._table.search(query, query_type="fts")
        if where:
            q = q.where(where)
        # `_score` (BM25) named among the columns: Lance warns on every search that selects columns without it
        return q.select([*columns, "_score"]).limit(limit).to_arrow().to_pylist()

    def _read_tail(self, table: Any = None) -> tuple[int, str]:
        """The last entry (seq, hash), reading only the `seq` column: in an intact chain the last
        of n entries has seq n - 1. A tampered chain falls back to the highest seq, streamed."""
        table = self._table if table is None else table
        with self._reading():
            n = table.count_rows()
        if n == 0:
            return -1, GENESIS
        t = self.scan(["seq", "entry_hash"], where=f"seq >= {n - 1}", table=table)
        if t.num_rows == 1 and t["seq"][0].as_py() == n - 1:
            return n - 1, t["entry_hash"][0].as_py()
        best = (-1, GENESIS)
        with self._reading():
            for batch in table.search().select(["seq", "entry_hash"]).limit(None).to_batches():
                if batch.num_rows:
                    i = int(batch["seq"].to_numpy().argmax())
                    if batch["seq"][i].as_py() > best[0]:
                        best = (batch["seq"][i].as_py(), batch["entry_hash"][i].as_py())
        return best

    @property
    def tail(self) -> tuple[int, str]:
        """(seq, entry_hash) of the last entry this handle knows: its own appends, and others'
        up to its last `refresh()`. (-1, GENESIS) when empty."""
        with self._mutex:
            return self._tail_seq, self._tail_hash

    def rows_between(self, first: int, last: int, columns: list[str]) -> pa.Table:
        """The entries with seq first..last, in seq order, reading only those rows: in an intact
        chain entry seq n is stored row n, so this is an offset read (a filter on seq would read
        the seq column of every fragment, and there is one per commit). A chain where that does
        not hold is read with the filter instead."""
        if last < first:
            return self.schema.empty_table().select(columns)
        cols = list(dict.fromkeys(["seq", *columns]))
        with self._reading():
            t = self._table.search().select(cols).offset(first).limit(last - first + 1).to_arrow()
        if t["seq"].to_pylist() != list(range(first, last + 1)):
            t = self.scan(cols, where=f"seq >= {int(first)} AND seq <= {int(last)}").sort_by("seq")
        return t.select(columns)

    def _hash_at(self, seq: int, table: Any = None) -> str | None:
        t = self.scan(["entry_hash"], where=f"seq = {int(seq)}", table=table)
        return t["entry_hash"][0].as_py() if t.num_rows else None

    # -- checkpoint ----------------------------------------------------------------------------
    @staticmethod
    def _disk_head(table: Any, seq: int, head: str) -> DiskHead:
        marked = CHAINED_KEY.encode() in (table.schema.metadata or {})
        return DiskHead(True, table.version, seq, head, marked)

    def _refuse(self, found: list[str]) -> None:
        if found:
            raise LedgerIntegrityError(found + ["run `warrant ledger verify` to see what is missing"])

    def _record_head(self, version: int | None = None) -> None:
        """`version`: the Lance version the commit created, when known (asking the table is one
        more round trip through LanceDB's event loop, ~1 ms under load)."""
        version = self._table.version if version is None else version
        try:
            self.checkpoints.record(self.name, Head(seq=self._tail_seq, hash=self._tail_hash, version=version))
        except (LedgerIntegrityError, OSError) as exc:
            self._broken = [f"{self.name}: entries up to seq {self._tail_seq} are committed, but the checkpoint "
                            f"could not be updated: {exc}"]
            raise LedgerIntegrityError(self._broken) from exc

    def check_head(self) -> None:
        """Raise LedgerIntegrityError when the table as stored now is behind, or off, what the
        checkpoint recorded (manifests deleted, the table removed, an old version restored).
        Reads through a fresh handle, as a new process would: an open handle keeps serving the
        manifests it has cached after they are deleted. A writer that finds this appends no more."""
        with self._mutex:
            if self._broken:
                raise LedgerIntegrityError(self._broken)
            with self._reading():
                if self.name not in self._table_names():
                    disk, stored = DiskHead(exists=False), None
                else:
                    stored = self._db.open_table(self.name)
                    disk = self._disk_head(stored, *self._read_tail(stored))
                found = problems(self.name, self.checkpoints.read(), disk, lambda s: self._hash_at(s, stored))
            if found:
                if self.writer:
                    self._broken = found
                raise LedgerIntegrityError(found)

    # -- writing -------------------------------------------------------------------------------
    def append(self, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Row-shaped convenience over `append_columns`; returns the rows with their chain fields."""
        self._check_writer()
        if not rows:
            return []
        columns = {name: [r[name] for r in rows] for name in self._data_columns}
        seqs, prevs, hashes = self.append_columns(columns)
        return [dict(r, seq=s, prev_hash=p, entry_hash=h) for r, s, p, h in zip(rows, seqs, prevs, hashes)]

    def append_columns(self, columns: Mapping[str, list[Any]]) -> tuple[list[int], list[str], list[str]]:
        """Chain and write one batch given as columns (every non-chain column, equal lengths) as
        one LanceDB version. Durable when this returns. Returns (seq, prev_hash, entry_hash)
        per row. Column-shaped because building a dict per row cost more than LanceDB's commit."""
        self._check_writer()
        n = _batch_length(self.name, columns, self._data_columns)
        if n == 0:
            return [], [], []
        with self._mutex:
            for attempt in range(_CONFLICT_RETRIES):
                seqs, prevs, hashes = self._chain(columns, n)
                full = dict(columns, seq=seqs, prev_hash=prevs, entry_hash=hashes)
                try:
                    added = self._table.add(pa.table(full, schema=self.schema))
                except Exception as exc:  # LanceDB raises a generic error type on conflicts
                    if "conflict" not in str(exc).lower() or attempt == _CONFLICT_RETRIES - 1:
                        raise
                    time.sleep(0.01 * (attempt + 1))
                    self.refresh()  # someone else moved the tail: re-chain on top of it
                    continue
                self._tail_seq, self._tail_hash = seqs[-1], hashes[-1]
                self._record_head(getattr(added, "version", None))  # per commit, not per row
                return seqs, prevs, hashes
        raise AssertionError("unreachable")

    def _check_writer(self) -> None:
        if not self.writer:
            raise LedgerError(f"{self.name!r} was opened read-only; appends go through its writer")
        if self._broken:
            raise LedgerIntegrityError(self._broken)

    def _chain(self, columns: Mapping[str, list[Any]], n: int) -> tuple[list[int], list[str], list[str]]:
        first = self._tail_seq + 1
        seqs = list(range(first, first + n))
        prevs, hashes = chain_links(self._tail_hash, [seqs if c == "seq" else columns[c] for c in self.chained])
        return seqs, prevs, hashes

    def verify(self, spec: TableSpec | None = None) -> VerifyReport:
        """The audit of this table as stored now (ledger/audit.py): Lance history, the chain in
        bounded batches, the checkpoints. `spec`: entry ids and extra checks (default: the
        chained columns recorded in the table's schema)."""
        return verify_table(self.uri, self.name, self.checkpoints, spec)


def _batch_length(table: str, columns: Mapping[str, list[Any]], expected: list[str]) -> int:
    missing = [c for c in expected if c not in columns]
    extra = [c for c in columns if c not in expected]
    if missing or extra:
        raise LedgerError(f"append to {table!r}: missing columns {missing}, unexpected columns {extra}")
    lengths = {c: len(columns[c]) for c in expected}
    if len(set(lengths.values())) > 1:
        raise LedgerError(f"append to {table!r}: columns of different lengths {lengths}")
    return next(iter(lengths.values()), 0)
