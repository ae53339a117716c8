"""Verifying a ledger as stored: every table's chain, its Lance history and its checkpoints.

What `warrant ledger verify` runs. Per table, in this order:
1. the Lance history: every version from 1 to the latest has its manifest (nothing deleted),
   the row count never shrinks and no version deletes rows (no delete, no restore);
2. the hash chain, streamed fragment by fragment in bounded batches (memory does not grow with
   the ledger), naming the first edited, removed or inserted entry and the file it is in;
3. the checkpoints: the chain holds every head a checkpoint copy recorded, on a Lance version
   at least as new, and a table a checkpoint knows has not disappeared.
A file Lance cannot read is reported with its table, version and path, never raised.

Opens only the Lance files: no LanceDB connection, no writer lock, no in-memory index.
`verify_store_isolated` runs it in a child process, because some damaged files make Lance abort
the process that reads them (see storage.py): the parent then reports the file the child was
reading and verifies the other tables without it.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

from warrant.ledger.chain import GENESIS, ChainBreak, VerifyReport, verify_rows
from warrant.ledger.checkpoint import Checkpoints, DiskHead, Witness, problems
from warrant.ledger.errors import LedgerError, LedgerUnreadable
from warrant.ledger.storage import (
    Fragment,
    batches,
    first_line,
    fragments,
    is_storage_failure,
    manifest_name,
    manifest_versions,
    open_dataset,
    reading,
    table_path,
)

CHAINED_KEY = "warrant.chained"  # schema metadata: the chained columns, in order (a JSON list)


class NotALedger(LedgerError):
    """The location holds no ledger table and no checkpoint: a wrong path, not a broken ledger."""


@dataclass(frozen=True)
class TableSpec:
    """How to check one table's entries beyond the chain columns."""

    name: str
    chained: tuple[str, ...]
    entry_id: Callable[[dict[str, Any]], str]
    check: Callable[[dict[str, Any]], str | None] | None = None


_SPECS: dict[str, TableSpec] = {}


def register(spec: TableSpec) -> TableSpec:
    _SPECS[spec.name] = spec
    return spec


def _spec_from_metadata(name: str, metadata: dict[bytes, bytes] | None) -> TableSpec | None:
    raw = (metadata or {}).get(CHAINED_KEY.encode())
    if raw is None:
        return None
    chained = tuple(json.loads(raw))
    return TableSpec(name, chained, lambda r: f"{name}#{r['seq']}")


@dataclass
class StoreReport:
    uri: str
    tables: list[VerifyReport] = field(default_factory=list)
    breaks: list[ChainBreak] = field(default_factory=list)  # about the ledger, not one table
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.breaks and all(t.ok for t in self.tables)


def verify_table(uri: str, name: str, checkpoints: Checkpoints | None, spec: TableSpec | None = None) -> VerifyReport:
    return _verify(uri, name, checkpoints.read() if checkpoints else [], spec, unreadable=True)


def _verify(uri: str, name: str, witnesses: list[Witness], spec: TableSpec | None, *, unreadable: bool) -> VerifyReport:
    """`unreadable`: whether to report checkpoint copies that cannot be read (per table)."""
    path = table_path(uri, name)
    if not _exists(path):
        found = problems(name, witnesses, DiskHead(exists=False), lambda _seq: None, unreadable=unreadable)
        return VerifyReport(name, 0, GENESIS, [ChainBreak(-1, "", p) for p in found])
    try:
        ds = open_dataset(path, name)
        version = ds.version
        metadata = ds.schema.metadata
    except LedgerUnreadable as u:
        return VerifyReport(name, 0, GENESIS, [_unreadable(u)])
    spec = spec or _SPECS.get(name) or _spec_from_metadata(name, metadata)
    report = VerifyReport(name, 0, GENESIS, version=version)
    try:
        history = _history(ds, path, name)
        if spec is None:
            report.breaks += history
            report.notes.append(f"{name}: chain not checked (no chain columns recorded for this table)")
            return report
        wanted = {w.heads[name].seq for w in witnesses if w.heads and name in w.heads}
        rows = _Rows(ds, name, version, wanted)
        chained = spec.chained
        chain = verify_rows(name, rows, lambda r: [r[k] for k in chained], spec.entry_id, spec.check)
    except LedgerUnreadable as u:
        report.breaks.append(_unreadable(u))
        return report
    report.entries, report.head_hash = chain.entries, chain.head_hash
    # The first entry break first: `first_bad` is what a reader looks at.
    report.breaks += [ChainBreak(b.seq, b.entry_id, b.reason, version, rows.file) for b in chain.breaks] + history
    disk = DiskHead(True, version, rows.last_seq, rows.last_hash, (metadata or {}).get(CHAINED_KEY.encode()) is not None)
    if not chain.ok:  # past a break the chain's head means nothing; a lost version still does
        disk = DiskHead(True, version, None, "", disk.marked)
    found = problems(name, witnesses, disk, rows.hashes.get, unreadable=unreadable)
    report.breaks += [ChainBreak(-1, "", p, version) for p in found]
    return report


class _Rows:
    """The table's rows in seq order, one bounded batch at a time; remembers which file the
    current row came from and the hashes at the seqs the checkpoints name.

    Appends lay rows down in seq order, so the stored order is the chain's order. An edit made
    through Lance (update, delete then add) moves a row to a later fragment: when the next stored
    row skips a seq, the missing one is fetched by a point query and checked in its place, so
    the report names the edited entry rather than the gap it left."""

    def __init__(self, ds: Any, table: str, version: int, wanted: set[int]):
        self._ds, self._table, self._version, self._wanted = ds, table, version, wanted
        self.file: str | None = None
        self.hashes: dict[int, str] = {}
        self.last_seq, self.last_hash = -1, GENESIS
        self._files: dict[int, str] = {}

    def __iter__(self) -> Iterator[dict[str, Any]]:
        frags: list[Fragment] = fragments(self._ds, self._table, self._version)
        self._files = {f.id: f.file for f in frags}
        expected, moved = 0, set()
        for frag in frags:
            for batch in batches(frag, self._table, self._version):
                for row in batch.to_pylist():
                    self.file = frag.file
                    seq = row["seq"]
                    if seq in moved:
                        continue  # already checked in its place
                    while seq > expected and (found := self._lookup(expected)) is not None:
                        moved.add(expected)
                        expected += 1
                        yield self._seen(found)
                        self.file = frag.file
                    expected = max(expected, seq + 1)
                    yield self._seen(row)

    def _seen(self, row: dict[str, Any]) -> dict[str, Any]:
        seq = row["seq"]
        if seq in self._wanted:
            self.hashes[seq] = row["entry_hash"]
        self.last_seq, self.last_hash = seq, row["entry_hash"]
        return row

    def _lookup(self, seq: int) -> dict[str, Any] | None:
        with reading(self._table, self._version, None):
            t = self._ds.scanner(filter=f"seq = {int(seq)}", with_row_address=True).to_table()
        if not t.num_rows:
            return None
        row = t.to_pylist()[0]
        self.file = self._files.get(row.pop("_rowaddr") >> 32)
        return row


def _history(ds: Any, path: str, table: str) -> list[ChainBreak]:
    """Lance's versions of an append-only table only ever add rows."""
    try:
        versions = ds.versions()
    except BaseException as exc:
        if not is_storage_failure(exc):
            raise
        raise _bad_manifest(path, table, exc) from exc
    out: list[ChainBreak] = []
    present = {v["version"] for v in versions}
    latest = ds.version
    missing = [v for v in range(1, latest + 1) if v not in present]
    if missing:
        out.append(
            ChainBreak(-1, "", f"Lance versions {_ranges(missing)} are missing from the history of {latest} "
                       "versions (manifests deleted)", missing[0], f"{table}.lance/{manifest_name(missing[0])}")
        )
    prev_rows, prev_v = 0, 0
    for v in sorted(versions, key=lambda v: v["version"]):
        meta = v.get("metadata") or {}
        rows = int(meta.get("total_rows", prev_rows))
        if rows < prev_rows:
            out.append(ChainBreak(-1, "", f"Lance version {v['version']} has {rows} rows, fewer than version {prev_v} "
                                  f"({prev_rows}): rows were deleted or an older version was restored", v["version"]))
        if int(meta.get("total_deletion_file_rows", 0)) > 0:
            out.append(ChainBreak(-1, "", f"Lance version {v['version']} deletes rows", v["version"]))
        prev_rows, prev_v = rows, v["version"]
    return out


def _bad_manifest(path: str, table: str, exc: BaseException) -> LedgerUnreadable:
    """ds.versions() reads every manifest; find the one that fails."""
    for v in manifest_versions(path):
        try:
            open_dataset(path, table, v)
        except LedgerUnreadable as u:
            return u
    return LedgerUnreadable(table, None, None, first_line(exc))


def _unreadable(u: LedgerUnreadable) -> ChainBreak:
    return ChainBreak(-1, "", f"unreadable: {u.detail}", u.version, u.file)


def _ranges(nums: list[int]) -> str:
    parts, start = [], None
    for i, n in enumerate(nums):
        if start is None:
            start = n
        if i + 1 == len(nums) or nums[i + 1] != n + 1:
            parts.append(str(start) if start == n else f"{start}..{n}")
            start = None
    return ", ".join(parts)


def _exists(path: str) -> bool:
    if "://" not in path:
        return Path(path).is_dir()
    import pyarrow.fs as pafs

    fs, p = pafs.FileSystem.from_uri(path)
    return fs.get_file_info(p).type != pafs.FileType.NotFound


def _tables_on_disk(uri: str) -> list[str]:
    base = uri[len("file://"):] if uri.startswith("file://") else uri
    if "://" not in base:
        return sorted(p.name[: -len(".lance")] for p in Path(base).glob("*.lance") if p.is_dir())
    import pyarrow.fs as pafs

    fs, p = pafs.FileSystem.from_uri(base)
    infos = fs.get_file_info(pafs.FileSelector(p, allow_not_found=True))
    return sorted(i.base_name[: -len(".lance")] for i in infos if i.type == pafs.FileType.Directory and i.base_name.endswith(".lance"))


def verify_store(uri: str, mirror: str | None = None, skip: Sequence[str] = ()) -> StoreReport:
    """Verify every table of the ledger at `uri` (see the module docstring) but those in `skip`.
    NotALedger when nothing there is a ledger's. `mirror`: a checkpoint mirror (default: the env
    var WARRANT_CHECKPOINT_MIRROR)."""
    base = uri[len("file://"):] if uri.startswith("file://") else uri
    if "://" not in base and not Path(base).is_dir():
        raise NotALedger(f"no ledger at {uri!r}: nothing was ever written there")
    checkpoints = Checkpoints.for_ledger(uri, mirror)
    witnesses = checkpoints.read()
    report = StoreReport(uri)
    for w in witnesses:
        if w.error:
            report.breaks.append(ChainBreak(-1, "", f"checkpoint {w.where} {w.error}", file=w.where))
    good = [w for w in witnesses if not w.error]
    on_disk = _tables_on_disk(uri)
    checkpointed = sorted({t for w in good for t in (w.heads or {})})
    if not on_disk and not checkpointed and not report.breaks:
        raise NotALedger(f"no ledger at {uri!r}: no ledger tables and no checkpoint there")
    names = [t for t in _SPECS if t in on_disk or t in checkpointed]
    names += [t for t in on_disk + checkpointed if t not in names]
    for name in dict.fromkeys(n for n in names if n not in skip):
        report.tables.append(_verify(uri, name, witnesses, None, unreadable=False))
    if all(w.heads is None and not w.error for w in witnesses):
        report.notes.append("no checkpoint yet: a rollback before the next write cannot be told apart from a fresh ledger")
    for w in good[1:]:
        if w.heads is None:
            report.notes.append(f"mirror {w.where} holds no checkpoint of this ledger yet (the next write puts one there)")
    return report


# -- in a child process ------------------------------------------------------------------------


def verify_store_isolated(uri: str, mirror: str | None = None) -> StoreReport:
    """`verify_store` in a child process (`python -m warrant.ledger._audit_main`). When the child dies inside
    Lance, the table it was reading is reported unreadable (version, file, and Lance's last words
    from its stderr) and the audit runs again without that table. RuntimeError when the child
    fails any other way: that is a bug, not a verdict on the ledger."""
    crashed: list[VerifyReport] = []
    while True:
        cmd = [sys.executable, "-m", "warrant.ledger._audit_main", uri, *(["--checkpoint-mirror", mirror] if mirror else [])]
        cmd += [a for r in crashed for a in ("--skip", r.table)]
        env = dict(os.environ, LANCEDB_LOG="error", RUST_BACKTRACE="0")
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
        at, result = None, None
        for line in proc.stdout.splitlines():
            tag, _, body = line.partition(" ")
            if tag == "AT":
                at = json.loads(body)
            elif tag in ("REPORT", "NOTALEDGER"):
                result = (tag, json.loads(body))
        if result and result[0] == "NOTALEDGER":
            raise NotALedger(result[1])
        if result:
            report = _report_from_json(result[1])
            report.tables = crashed + report.tables
            return report
        if proc.returncode >= 0 or at is None or at[0] in {r.table for r in crashed}:
            last = (proc.stderr.strip().splitlines() or [f"exit status {proc.returncode}"])[-1]
            raise RuntimeError(f"the audit process failed: {last}")
        table, version, file = at
        how = signal.Signals(-proc.returncode).name if -proc.returncode in signal.valid_signals() else f"signal {-proc.returncode}"
        said = [ln.strip() for ln in proc.stderr.splitlines() if "panicked at" in ln or "allocation" in ln or "error" in ln.lower()]
        detail = f"Lance ended the process ({how}) while reading it" + (f": {said[-1]}" if said else "")
        crashed.append(VerifyReport(table, 0, GENESIS, [ChainBreak(-1, "", f"unreadable: {detail}", version, file)], version=version))


def _report_from_json(d: dict[str, Any]) -> StoreReport:
    def table(t: dict[str, Any]) -> VerifyReport:
        return VerifyReport(**{**t, "breaks": [ChainBreak(**b) for b in t["breaks"]]})

    return StoreReport(d["uri"], [table(t) for t in d["tables"]], [ChainBreak(**b) for b in d["breaks"]], d["notes"])


__all__ = ["NotALedger", "StoreReport", "TableSpec", "register", "verify_store", "verify_store_isolated", "verify_table"]
