"""The evidence ledger: the exact bytes every claim must cite.

A record's id is derived from the SHA-256 of its bytes, so an id cannot name bytes other than the
ones it was computed from. Appending the same bytes in the same run returns the same id and writes
nothing. Records are keyed by (run_id, id): an id that exists only in another run is not evidence
for this one.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
import threading
from collections import OrderedDict
from contextlib import contextmanager
from dataclasses import dataclass
from enum import Enum
from typing import Any, Iterable, Iterator, NamedTuple

import pyarrow as pa

from warrant.ledger.audit import TableSpec, register
from warrant.ledger.canonical import canonical_json, sha256_hex
from warrant.ledger.chain import VerifyReport
from warrant.ledger.checkpoint import Checkpoints
from warrant.ledger.errors import RecordNotFound, SourceError
from warrant.ledger.search import RunIndex, tokens
from warrant.ledger.table import AppendOnlyTable, digest_field, sql_str

TABLE = "evidence"
ID_PREFIX = "led_"



# The one pattern for run ids (the contract's artifacts use it too): ids end up in file names,
# console tables and URLs, so only characters that need no quoting anywhere.
RUN_ID_PATTERN = r"^[A-Za-z0-9_.:-]{1,128}$"
_RUN_ID = re.compile(RUN_ID_PATTERN)

class EvidenceKind(str, Enum):
    SPAN = "span"  # text retrieved from a document
    TOOL_OUTPUT = "tool_output"  # the validated output of a tool call
    HUMAN_FACT = "human_fact"  # something a named person stated


_TEXT_FIELDS = ("document", "tool", "tool_version", "call_id", "human", "uri")
_OFFSET_FIELDS = ("page", "start", "end")


class Source(NamedTuple):
    """Where the bytes came from. Strict: an unknown key is a typo or a smuggled field, and
    "2" is not a page number. (A named tuple with explicit checks rather than a Pydantic model or
    a frozen dataclass: it is built once per appended row, where those cost 14 us and 2 us.)"""

    document: str | None = None
    page: int | None = None
    start: int | None = None
    end: int | None = None
    tool: str | None = None
    tool_version: str | None = None
    call_id: str | None = None
    human: str | None = None
    uri: str | None = None

    @classmethod
    def parse(cls, value: "Source | dict[str, Any] | None") -> "Source":
        if isinstance(value, Source):
            return value
        if value is None:
            return _NO_SOURCE
        if not isinstance(value, dict):
            raise SourceError(f"source: expected an object, got {type(value).__name__}")
        for key, v in value.items():
            if v is None:
                continue
            if key in _TEXT_FIELDS:
                if not isinstance(v, str):
                    raise SourceError(f"source.{key}: expected a string, got {v!r}")
            elif key in _OFFSET_FIELDS:
                if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                    raise SourceError(f"source.{key}: expected a non-negative integer, got {v!r}")
            else:
                allowed = ", ".join(_TEXT_FIELDS + _OFFSET_FIELDS)
                raise SourceError(f"source.{key}: unknown field (expected one of {allowed})")
        return cls(**value)

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in zip(self._fields, self) if v is not None}


_NO_SOURCE = Source()
_KIND_VALUE = {k: k.value for k in EvidenceKind}


_SCHEMA = pa.schema(
    [
        digest_field("id"),
        ("run_id", pa.string()),
        ("kind", pa.string()),
        ("media_type", pa.string()),
        digest_field("sha256"),
        ("size", pa.int64()),
        ("data", pa.large_binary()),
        # The bytes decoded, for full-text search. Derived, so not chained: verify() checks it
        # against `data` instead.
        ("text", pa.large_string()),
        ("source", pa.string()),
        ("created_us", pa.int64()),
    ]
)


def _is_textual(media_type: str) -> bool:
    return media_type.startswith("text/") or "json" in media_type


def _searchable_text(data: bytes, media_type: str) -> str | None:
    if not _is_textual(media_type):
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _searchable_texts(data: pa.Array, datas: list[bytes], media: list[str]) -> pa.Array | list[str | None]:
    """The `text` column of a batch. When every record is textual, Arrow's cast decodes (and
    validates) all the bytes at once, without a Python call per row."""
    if all(map(_is_textual, set(media))):
        try:
            return data.cast(pa.large_string())
        except pa.ArrowInvalid:  # some record is not UTF-8: it gets no searchable text
            pass
    return list(map(_searchable_text, datas, media))


def record_id(data: bytes) -> str:
    return id_from_sha(sha256_hex(data))


def id_from_sha(sha: str) -> str:
    return ID_PREFIX + sha[:32]


# `data` is committed through its sha256, which verify() recomputes from the stored bytes.
_CHAINED = ("seq", "id", "run_id", "kind", "media_type", "sha256", "size", "source", "created_us")


def _bytes_match(row: dict[str, Any]) -> str | None:
    if sha256_hex(row["data"]) != row["sha256"]:
        return "stored bytes do not hash to the recorded sha256 (the data was edited)"
    if record_id(row["data"]) != row["id"]:
        return "record id does not match the stored bytes"
    if row["text"] is not None and row["text"].encode("utf-8") != row["data"]:
        return "searchable text does not match the stored bytes"
    return None


SPEC = register(TableSpec(TABLE, _CHAINED, lambda r: r["id"], _bytes_match))


@dataclass(frozen=True)
class EvidenceRecord:
    id: str
    run_id: str
    kind: EvidenceKind
    media_type: str
    data: bytes
    source: Source
    created_at: dt.datetime
    seq: int
    sha256: str

    @property
    def text(self) -> str:
        return self.data.decode("utf-8")

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> "EvidenceRecord":
        return cls(
            id=row["id"],
            run_id=row["run_id"],
            kind=EvidenceKind(row["kind"]),
            media_type=row["media_type"],
            data=row["data"],
            source=Source(**json.loads(row["source"])),
            created_at=dt.datetime.fromtimestamp(row["created_us"] / 1e6, tz=dt.timezone.utc),
            seq=row["seq"],
            sha256=row["sha256"],
        )


class NewEvidence(NamedTuple):
    """One append request. Build with `Ledger.item(...)`, which checks it, or directly."""

    run_id: str
    data: bytes
    kind: EvidenceKind = EvidenceKind.SPAN
    media_type: str = "text/plain; charset=utf-8"
    source: Source = _NO_SOURCE


# The record cache of one ledger handle: its data bytes in all, and the largest record it keeps.
RECORD_CACHE_BYTES = 32 * 2**20
RECORD_CACHE_MAX = 2**20
# The in-memory search indexes of one handle, in characters of text indexed, all runs together
# (least recently searched run dropped first). A run larger than this alone is searched by
# Lance's full-text index instead, more slowly but without holding it in memory.
SEARCH_INDEX_CHARS = 64 * 2**20
# Of each record, the first this many characters are indexed: enough to tell whether a record is
# about a claim, and a 50 MB record tokenised whole cost ~5 s on the first search of its run.
SEARCH_RECORD_CHARS = 2**20


class Ledger:
    """Append-only evidence store on LanceDB.

    >>> led = Ledger.open("/tmp/warrant-doc")            # doctest: +SKIP
    >>> rid = led.append("run_1", b"Rate cap: $250/hour", source={"document": "letter.pdf", "page": 2})
    >>> led.exists("run_1", [rid])                        # doctest: +SKIP
    """

    def __init__(self, table: AppendOnlyTable):
        self._t = table
        # What is known so far, without scanning the table: ids seen to exist per run (records
        # are immutable and append-only, so this never goes stale) and ids looked up and not
        # found, valid for the table version this handle reads (dropped on refresh and append).
        self._known: dict[str, set[str]] = {}
        self._absent: dict[str, set[str]] = {}
        self._index_lock = threading.Lock()
        # Records read before, most recently used last: a record never changes once stored, and a
        # verifier reads the same few records for proposition after proposition (one LanceDB
        # lookup is ~3 ms, as much as the model's pass over a short pair).
        self._records: OrderedDict[tuple[str, str], EvidenceRecord] = OrderedDict()
        self._records_bytes = 0
        self._search: OrderedDict[str, RunIndex] = OrderedDict()
        self._search_too_big: set[str] = set()
        # The single writer is the one handle that never goes stale (nobody else appends), and it
        # must dedupe every batch it appends: it reads every id once, at open, and then answers
        # from memory alone. (Looking each batch up on the index instead cost 5x in append rate,
        # benchmarks/results/control_plane.json.) Readers, many and refreshed often, look up.
        self._complete = table.writer
        try:
            if self._complete:
                t = self._t.scan(["run_id", "id"])
                for run_id, rid in zip(t["run_id"].to_pylist(), t["id"].to_pylist()):
                    self._known.setdefault(run_id, set()).add(rid)
            self._fts_ready = self._t.has_index("text")
        except BaseException:
            table.close()
            raise

    @classmethod
    def open(cls, uri: str, *, writer: bool = True, checkpoint_mirror: str | None = None) -> "Ledger":
        """LedgerUnreadable when a file is damaged; LedgerIntegrityError when a writer finds the
        table behind its checkpoint. `checkpoint_mirror`: a second checkpoint copy (a folder or
        URI; default: the env var WARRANT_CHECKPOINT_MIRROR)."""
        cps = Checkpoints.for_ledger(uri, checkpoint_mirror)
        return cls(AppendOnlyTable(uri, TABLE, _SCHEMA, _CHAINED, writer=writer, checkpoints=cps))

    @property
    def uri(self) -> str:
        return self._t.uri

    def close(self) -> None:
        self._t.close()

    def __enter__(self) -> "Ledger":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- existence -----------------------------------------------------------------------------
    def refresh(self) -> None:
        """For read-only handles: pick up what the writer appended since open. Cheap: no scan;
        only the ids looked up and not found are forgotten (they may exist now)."""
        self._t.refresh()
        with self._index_lock:
            self._absent = {}

    def exists(self, run_id: str, ids: Iterable[str]) -> list[str]:
        """The ids of `ids` that are NOT records of `run_id` (empty: all exist), in order. The
        writer answers from memory; a reader answers ids seen before from memory and looks the
        rest up in one `id IN (...)` query on the id index."""
        ids = list(ids)
        known = self._known.get(run_id, ())
        unknown = [i for i in ids if i not in known]
        if not unknown:
            return []
        absent = self._absent.get(run_id, ())
        if not self._complete and any(i not in absent for i in unknown):
            found = {rid for _, rid in self.exists_many((run_id, i) for i in unknown)}
            return [i for i in unknown if i not in found]
        return unknown

    def exists_many(self, keys: Iterable[tuple[str, str]]) -> set[tuple[str, str]]:
        """The (run_id, id) pairs of `keys` that are records: memory first, then one batch of
        `id IN (...)` lookups on the id index for the rest. Remembers both answers."""
        keys = set(keys)
        hits = {k for k in keys if k[1] in self._known.get(k[0], ())}
        todo = {k for k in keys - hits if k[1] not in self._absent.get(k[0], ())}
        if todo and not self._complete:
            rows = self._t.lookup("id", {rid for _, rid in todo}, ["run_id", "id"])
            found = set(zip(rows["run_id"].to_pylist(), rows["id"].to_pylist())) & todo
            with self._index_lock:
                for run_id, rid in found:
                    self._known.setdefault(run_id, set()).add(rid)
                for run_id, rid in todo - found:
                    self._absent.setdefault(run_id, set()).add(rid)
            hits |= found
        return hits

    def run_ids(self) -> list[str]:
        if self._complete:
            return sorted(self._known)
        return sorted(set(self._t.scan(["run_id"])["run_id"].to_pylist()))

    def ids(self, run_id: str) -> frozenset[str]:
        """Every record id of one run (a reader: one filtered scan of the id column)."""
        if self._complete:
            return frozenset(self._known.get(run_id, ()))
        got = frozenset(self._t.scan(["id"], where=f"run_id = {sql_str(run_id)}")["id"].to_pylist())
        with self._index_lock:
            self._known.setdefault(run_id, set()).update(got)
        return got

    # -- writing -------------------------------------------------------------------------------
    @staticmethod
    def item(
        run_id: str,
        data: bytes | str,
        *,
        kind: EvidenceKind | str = EvidenceKind.SPAN,
        media_type: str | None = None,
        source: Source | dict[str, Any] | None = None,
    ) -> NewEvidence:
        if isinstance(data, str):
            data = data.encode("utf-8")
        if not isinstance(data, (bytes, bytearray)):
            raise SourceError(f"data: expected bytes or str, got {type(data).__name__}")
        if not isinstance(run_id, str) or not _RUN_ID.fullmatch(run_id):
            raise SourceError(f"run_id: expected 1-128 characters of A-Z a-z 0-9 _ . : -, got {run_id[:80] if isinstance(run_id, str) else run_id!r}")
        try:
            kind = EvidenceKind(kind)
        except ValueError:
            allowed = ", ".join(k.value for k in EvidenceKind)
            raise SourceError(f"kind: expected one of {allowed}, got {kind!r}") from None
        source = Source.parse(source)
        if media_type is None:
            media_type = "application/json" if kind is EvidenceKind.TOOL_OUTPUT else "text/plain; charset=utf-8"
        return NewEvidence(run_id, bytes(data), kind, media_type, source)

    def append(self, run_id: str, data: bytes | str, **kw: Any) -> str:
        """Append one record (one LanceDB version: prefer `append_many` or `batch()` for bulk)."""
        return self.append_many([self.item(run_id, data, **kw)])[0]

    def append_many(self, items: Iterable[NewEvidence]) -> list[str]:
        """Append records as one durable batch; returns their ids in order. Idempotent per run."""
        items = list(items)
        if not items:
            return []
        # Column-wise from the start: the per-row work is in C (zip, map, hashlib) wherever it can
        # be, because at tens of thousands of rows a second each Python step per row shows.
        run_ids, datas, kinds, media, sources = (list(c) for c in zip(*items))
        shas = [h.hexdigest() for h in map(hashlib.sha256, datas)]
        ids = list(map(id_from_sha, shas))
        keep = self._fresh(run_ids, ids)
        if keep is not None:
            if not keep:
                return ids
            run_ids, datas, kinds, media, sources, shas, new_ids = (
                [col[i] for i in keep] for col in (run_ids, datas, kinds, media, sources, shas, ids))
        else:
            new_ids = ids
        try:
            kind_values = list(map(_KIND_VALUE.__getitem__, kinds))
        except (KeyError, TypeError):
            bad = next(k for k in kinds if k not in _KIND_VALUE)
            raise SourceError(f"kind: expected an EvidenceKind, got {bad!r} (build items with Ledger.item)") from None
        if not set(map(type, sources)) <= {Source}:  # items built directly, not through item()
            sources = [Source.parse(src) for src in sources]
        source_json = {src: canonical_json(src.to_dict()).decode() for src in set(sources)}
        now_us = int(dt.datetime.now(dt.timezone.utc).timestamp() * 1e6)
        data = pa.array(datas, pa.large_binary())
        seqs, _, _ = self._t.append_columns(
            {
                "id": new_ids,
                "run_id": run_ids,
                "kind": kind_values,
                "media_type": media,
                "sha256": shas,
                "size": list(map(len, datas)),
                "data": data,
                "text": _searchable_texts(data, datas, media),
                "source": list(map(source_json.__getitem__, sources)),
                "created_us": [now_us] * len(new_ids),
            }
        )
        with self._index_lock:
            for run_id, rid in zip(run_ids, new_ids):
                self._known.setdefault(run_id, set()).add(rid)
                self._absent.get(run_id, set()).discard(rid)
        # what was just written is what the next claim citing it will read
        created = dt.datetime.fromtimestamp(now_us / 1e6, tz=dt.timezone.utc)
        self._remember(
            EvidenceRecord(rid, run_id, EvidenceKind(kind), mt, raw, src, created, seq, sha)
            for rid, run_id, kind, mt, raw, src, seq, sha in zip(new_ids, run_ids, kind_values, media, datas, sources, seqs, shas)
            if len(raw) <= RECORD_CACHE_MAX
        )
        self._t.ensure_btree_index("id")
        if not self._fts_ready:
            self._fts_ready = self._t.ensure_fts_index("text")
        return ids

    def _fresh(self, run_ids: list[str], ids: list[str]) -> list[int] | None:
        """Positions of the items not yet in the ledger nor earlier in the batch; None when that
        is all of them (the common case, settled with set operations instead of a loop)."""
        keys = list(zip(run_ids, ids))
        stored = self.exists_many(keys)
        if not stored and len(set(keys)) == len(keys):
            return None
        keep, seen = [], set(stored)
        for i, key in enumerate(keys):
            if key not in seen:
                seen.add(key)
                keep.append(i)
        return keep

    @contextmanager
    def batch(self, size: int = 1000) -> Iterator["_Batch"]:
        """Buffer appends and write them `size` at a time. Ids are known at once (they are
        hashes); the records are durable when the block exits or a flush happens."""
        b = _Batch(self, size)
        try:
            yield b
        finally:
            b.flush()

    # -- reading -------------------------------------------------------------------------------
    def get(self, run_id: str, rid: str) -> EvidenceRecord:
        found = self.get_many(run_id, [rid])
        if rid not in found:
            raise RecordNotFound(run_id, rid)
        return found[rid]

    def get_many(self, run_id: str, ids: Iterable[str]) -> dict[str, EvidenceRecord]:
        if self._complete:
            wanted = [i for i in dict.fromkeys(ids) if i in self._known.get(run_id, ())]
        else:
            wanted = [i for i in dict.fromkeys(ids) if i not in self._absent.get(run_id, ())]
        if not wanted:
            return {}
        out: dict[str, EvidenceRecord] = {}
        with self._index_lock:
            for i in wanted:
                if (rec := self._records.get((run_id, i))) is not None:
                    self._records.move_to_end((run_id, i))
                    out[i] = rec
        todo = [i for i in wanted if i not in out]
        if todo:
            rows = self._t.lookup("id", todo, [], where=f"run_id = {sql_str(run_id)}").to_pylist()
            read = {r["id"]: EvidenceRecord.from_row(r) for r in rows}
            self._remember(read.values())
            out.update(read)
        return {i: out[i] for i in wanted if i in out}

    def _remember(self, records: Iterable[EvidenceRecord]) -> None:
        """Keep records read for the next `get_many`, up to `RECORD_CACHE_BYTES` of data in all
        (least recently used dropped first); one over `RECORD_CACHE_MAX` is read each time."""
        with self._index_lock:
            for rec in records:
                size = len(rec.data)
                if size > RECORD_CACHE_MAX or (rec.run_id, rec.id) in self._records:
                    continue
                self._records[(rec.run_id, rec.id)] = rec
                self._records_bytes += size
            while self._records_bytes > RECORD_CACHE_BYTES and self._records:
                _, old = self._records.popitem(last=False)
                self._records_bytes -= len(old.data)

    def search(self, run_id: str, query: str, k: int = 5, exclude: Iterable[str] = ()) -> list[tuple[str, float]]:
        """Records of `run_id` whose text best matches `query` (BM25): (id, score), best first.
        Used to tell an agent which records might settle an unsupported claim. In memory
        (ledger/search.py) for runs up to `SEARCH_INDEX_CHARS` of text; Lance's index past it."""
        words = tokens(query)
        if not words or k <= 0:
            return []
        if run_id not in self._search_too_big:
            ix = self._search_index(run_id)
            if ix is not None:
                with self._index_lock:
                    return ix.top(words, k, exclude)
        exclude = set(exclude)
        hits = self._t.fts(query, where=f"run_id = {sql_str(run_id)}", columns=["id"], limit=k + len(exclude))
        return [(h["id"], h["_score"]) for h in hits if h["id"] not in exclude][:k]

    def _search_index(self, run_id: str) -> RunIndex | None:
        """The run's index with every record of the run added (each read once, ever: records
        never change); None when the run holds more text than the memory bound."""
        ids = self.ids(run_id)
        with self._index_lock:
            ix = self._search.get(run_id)
            todo = sorted(ids - ix.ids if ix is not None else ids)
        texts: dict[str, str | None] = {}
        with self._index_lock:
            for i in todo:  # just appended or just read: no LanceDB read
                if (rec := self._records.get((run_id, i))) is not None:
                    texts[i] = _searchable_text(rec.data, rec.media_type)
        rest = [i for i in todo if i not in texts]
        if rest:
            where = f"run_id = {sql_str(run_id)}"
            rows = self._t.scan(["id", "text"], where=where) if len(rest) > 256 else self._t.lookup("id", rest, ["id", "text"], where=where)
            texts.update(zip(rows["id"].to_pylist(), rows["text"].to_pylist()))
        with self._index_lock:
            ix = self._search.setdefault(run_id, RunIndex())
            self._search.move_to_end(run_id)
            for i in todo:
                t = texts.get(i)
                ix.add(i, t[:SEARCH_RECORD_CHARS] if t else t)
            if ix.chars > SEARCH_INDEX_CHARS:
                del self._search[run_id]
                self._search_too_big.add(run_id)
                return None
            while sum(x.chars for x in self._search.values()) > SEARCH_INDEX_CHARS:
                self._search.popitem(last=False)
            return ix

    def spans(self, run_id: str | None = None) -> pa.Table:
        """The records as an Arrow table (for batch verification, export, search)."""
        where = f"run_id = {sql_str(run_id)}" if run_id else None
        return self._t.scan(where=where).sort_by("seq")

    def count(self) -> int:
        return self._t.count()

    # -- audit ---------------------------------------------------------------------------------
    def verify(self) -> VerifyReport:
        """Audit the stored table: history, chain (bytes rehashed), checkpoints (ledger/audit.py)."""
        return self._t.verify(SPEC)


class _Batch:
    def __init__(self, ledger: Ledger, size: int):
        self._ledger, self._size, self._items = ledger, size, []

    def add(self, run_id: str, data: bytes | str, **kw: Any) -> str:
        item = Ledger.item(run_id, data, **kw)
        self._items.append(item)
        if len(self._items) >= self._size:
            self.flush()
        return record_id(item.data)

    def flush(self) -> None:
        items, self._items = self._items, []
        self._ledger.append_many(items)
