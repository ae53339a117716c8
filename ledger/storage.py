"""Reading a table's Lance files directly: history, fragments, bounded batches, and naming the
file that is damaged when Lance cannot read one.

LanceDB (used for appends and queries) says little about *where* a read failed, and loads what a
query returns whole. The `lance` package underneath exposes the manifest's versions and each
fragment's data files, and streams a fragment in batches bounded in rows and bytes, so an audit's
memory does not grow with the ledger. Reading only: nothing here writes, deletes or restores.

Damaged files fail in three ways: a Python exception, a Rust panic converted by pyo3
(`PanicException` derives from BaseException, not Exception), or an abort of the whole process
(a corrupted length can make Lance allocate tens of GB, and a failed allocation aborts). The first
two become `LedgerUnreadable` in `reading()`; the third cannot be caught in the process it kills,
so the audit runs in a child process and `reading_at` tells the parent where it was.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

import pyarrow as pa

from warrant.ledger.errors import LedgerError, LedgerUnreadable

# A batch holds at most this many rows and about this many bytes: evidence records can be large.
BATCH_ROWS = 1024
BATCH_BYTES = 8 << 20
_READAHEAD = 2  # batches Lance decodes ahead of the consumer

_U64_MAX = 2**64 - 1

# Called with (table, version, file) before each manifest or data file is read: a process that
# dies inside Lance leaves this as the last word on what it was reading.
reading_at: Callable[[str, int | None, str | None], None] | None = None


def _at(table: str, version: int | None, file: str | None) -> None:
    if reading_at is not None:
        reading_at(table, version, file)


def is_storage_failure(exc: BaseException) -> bool:
    """Anything Lance raises on bad bytes, including a Rust panic; never Ctrl-C or exit."""
    if isinstance(exc, (KeyboardInterrupt, SystemExit, GeneratorExit)):
        return False
    return isinstance(exc, Exception) or type(exc).__name__ == "PanicException"


def first_line(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    line = text.splitlines()[0]
    # Lance appends the Rust source location of the error; it says nothing about the ledger.
    for marker in (", /root/.cargo/", ", /home/runner/", ", /rustc/"):
        line = line.split(marker)[0]
    return f"{type(exc).__name__}: {line}"


def table_path(uri: str, table: str) -> str:
    base = uri[len("file://"):] if uri.startswith("file://") else uri
    return base.rstrip("/") + f"/{table}.lance"


def _is_local(path: str) -> bool:
    return "://" not in path


def manifest_name(version: int, v2: bool = True) -> str:
    """Lance's file name of a version's manifest (V2 naming sorts newest first)."""
    return f"_versions/{_U64_MAX - version:020d}.manifest" if v2 else f"_versions/{version}.manifest"


def manifest_versions(path: str) -> list[int]:
    """The versions whose manifest files exist (local tables only; [] otherwise)."""
    vdir = Path(path) / "_versions"
    if not _is_local(path) or not vdir.is_dir():
        return []
    out = []
    for f in vdir.glob("*.manifest"):
        try:
            n = int(f.stem)
        except ValueError:
            continue
        out.append(_U64_MAX - n if n > _U64_MAX // 2 else n)
    return sorted(out)


def _manifest_file(path: str, version: int | None) -> str | None:
    if version is None:
        return None
    vdir = Path(path) / "_versions"
    for v2 in (True, False):
        name = manifest_name(version, v2)
        if (vdir.parent / name).exists():
            return f"{Path(path).name}/{name}"
    return f"{Path(path).name}/{manifest_name(version)}"


def open_dataset(path: str, table: str, version: int | None = None) -> Any:
    """The Lance dataset of one table at `version` (latest: None). LedgerUnreadable names the
    manifest that could not be read."""
    import lance

    if version is None:
        present = manifest_versions(path)
        _at(table, present[-1] if present else None, _manifest_file(path, present[-1] if present else None))
    else:
        _at(table, version, _manifest_file(path, version))
    try:
        return lance.dataset(path, version=version)
    except BaseException as exc:
        if not is_storage_failure(exc):
            raise
        if version is None:
            present = manifest_versions(path)
            version = present[-1] if present else None
        raise LedgerUnreadable(table, version, _manifest_file(path, version), first_line(exc)) from exc


@dataclass(frozen=True)
class Fragment:
    id: int
    files: tuple[str, ...]  # relative to the ledger: "<table>.lance/data/<name>"
    handle: Any

    @property
    def file(self) -> str:
        return ", ".join(self.files)


def fragments(ds: Any, table: str, version: int | None = None) -> list[Fragment]:
    with reading(table, version, None):
        return [
            Fragment(f.fragment_id, tuple(f"{table}.lance/{_data_path(df.path)}" for df in f.data_files()), f)
            for f in ds.get_fragments()
        ]


def _data_path(path: str) -> str:
    return path if "/" in path else f"data/{path}"


def batches(frag: Fragment, table: str, version: int | None, columns: Sequence[str] | None = None) -> Iterator[pa.RecordBatch]:
    """One fragment in bounded batches, in stored order. Failures name the fragment's file."""
    _at(table, version, frag.file)
    it = frag.handle.to_batches(
        columns=list(columns) if columns else None,
        batch_size=BATCH_ROWS,
        batch_size_bytes=BATCH_BYTES,
        batch_readahead=_READAHEAD,
    )
    while True:
        with reading(table, version, frag.file):
            batch = next(it, None)
        if batch is None:
            return
        yield batch


@contextlib.contextmanager
def reading(table: str, version: int | None, file: str | None) -> Iterator[None]:
    """Turn whatever Lance raises while reading into LedgerUnreadable(table, version, file)."""
    try:
        yield
    except LedgerError:
        raise
    except BaseException as exc:
        if not is_storage_failure(exc):
            raise
        raise LedgerUnreadable(table, version, file, first_line(exc)) from exc


def diagnose(uri: str, table: str, exc: BaseException) -> LedgerUnreadable:
    """After LanceDB failed on `table` with `exc`: find which manifest or data file is damaged
    by reading them one at a time (slow, and only ever on this failure path)."""
    if isinstance(exc, LedgerUnreadable):
        return exc
    path = table_path(uri, table)
    try:
        ds = open_dataset(path, table)
        version = ds.version
        for frag in fragments(ds, table, version):
            for _ in batches(frag, table, version):
                pass
    except LedgerUnreadable as found:
        return found
    except BaseException as other:
        if not is_storage_failure(other):
            raise
        return LedgerUnreadable(table, None, None, first_line(exc))
    return LedgerUnreadable(table, version, None, first_line(exc))
