"""The evidence view of a ledger record: what a typed check can locate, each item with its byte span.

Built once from the record's exact bytes and kept as an Arrow IPC file beside the ledger
(`<ledger>/evidence_view/<record id>.arrow`). It is a derived cache: never edited, checked against
the record's SHA-256 and the view format on every read, and rebuilt when missing, stale or
unreadable. Nothing is truncated: every sentence, every table cell, every JSON leaf is an item.

Items:
* ``sentence``: a sentence of prose, with the document's title, the section heading in force and
  the previous sentence;
* ``cell``: a table cell (pipe, CSV/TSV, fixed-width) with its column label, table and row;
* ``field``: the value of a "Key: value" line (or "Label    value" footer line), labelled by its key;
* ``leaf``: a scalar of a JSON document with its path ("$.po.lines[2].qty") and key;
* ``header``: one of the first non-empty lines of a text document (title, letterhead, identifier line).
"""

from __future__ import annotations

import bisect
import os
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.ipc as ipc

from warrant.ledger import EvidenceRecord
from warrant.ledger.table import is_local, local_path
from warrant.runtime.verify.parsers import jsonleaves, prose, tables

VIEW_FORMAT = "7"  # 7: fields side by side ("A: x | B: y") are fields, a row caption on the fields' own line ("Line 2: X; Qty: 12"), a dot leader's value runs to the line's end, fixed-width rows with a comma are no CSV; 6: wrapped lines joined by the shared splitter (text.sentence_spans); 2: "Key: value" block captions; 3: indented "Key: value" lines; 4: wrapped sentences joined; 5: JSON column tables and name/value pairs labelled
DIRNAME = "evidence_view"
MAX_VIEW_BYTES = 16 * 1024 * 1024  # larger records get a clear "too large" problem, never a truncated view
HEADER_LINES = 8

SCHEMA = pa.schema(
    [
        ("kind", pa.string()),
        ("start", pa.int64()),
        ("end", pa.int64()),
        ("text", pa.large_string()),
        ("label", pa.string()),
        ("label_start", pa.int64()),
        ("label_end", pa.int64()),
        ("path", pa.string()),
        ("group", pa.int32()),
        ("row", pa.int32()),
        ("col", pa.int32()),
        ("heading", pa.string()),
        ("title", pa.string()),
        ("prev", pa.large_string()),
    ]
)
_FIELDS = [f.name for f in SCHEMA]


@dataclass(frozen=True)
class Item:
    kind: str
    start: int  # byte offsets of the value in the record
    end: int
    text: str  # the verbatim value (a cell, a field value, a JSON literal, a sentence)
    label: str = ""  # column label, key, JSON key
    label_start: int = -1
    label_end: int = -1
    path: str = ""  # JSON path of a leaf
    group: int = -1  # table / key-value block number
    row: int = -1  # row within the table
    col: int = -1
    heading: str = ""
    title: str = ""
    prev: str = ""


@dataclass
class EvidenceView:
    record_id: str
    media_type: str
    items: list[Item]
    problem: str | None = None  # why the record has no (or a partial) view: binary, malformed JSON, too large
    is_json: bool = False

    @property
    def title(self) -> str:
        for it in self.items:
            if it.title:
                return it.title
        return ""

    def of_kind(self, *kinds: str) -> list[Item]:
        return [it for it in self.items if it.kind in kinds]

    def table_rows(self) -> dict[tuple[int, int], list[Item]]:
        """Cells grouped by (table, row)."""
        rows: dict[tuple[int, int], list[Item]] = {}
        for it in self.items:
            if it.kind == "cell":
                rows.setdefault((it.group, it.row), []).append(it)
        return rows

    def to_arrow(self) -> pa.Table:
        cols = {name: [getattr(it, name) for it in self.items] for name in _FIELDS}
        return pa.Table.from_pydict(cols, schema=SCHEMA)

    @classmethod
    def from_arrow(cls, record: EvidenceRecord, table: pa.Table) -> "EvidenceView":
        meta = table.schema.metadata or {}
        cols = [table.column(n).to_pylist() for n in _FIELDS]
        items = [Item(*row) for row in zip(*cols)]
        problem = meta.get(b"problem", b"").decode() or None
        return cls(record.id, record.media_type, items, problem, meta.get(b"is_json") == b"1")


# -- building -------------------------------------------------------------------------------------


class _Offsets:
    """Character offset -> byte offset of the UTF-8 text (identity when the text is ASCII)."""

    def __init__(self, data: bytes, text: str):
        self._table = None
        if len(data) != len(text):
            starts = np.flatnonzero((np.frombuffer(data, dtype=np.uint8) & 0xC0) != 0x80)
            self._table = np.append(starts, len(data))

    def __call__(self, i: int) -> int:
        return i if self._table is None else int(self._table[i])


def build_view(record: EvidenceRecord, max_bytes: int = MAX_VIEW_BYTES) -> EvidenceView:
    """The view of one record. Never raises for bad bytes: the problem is recorded instead."""
    data = record.data
    is_json = "json" in record.media_type
    if len(data) > max_bytes:
        return EvidenceView(record.id, record.media_type, [], f"record is {len(data):,} bytes, over the evidence view's limit of {max_bytes:,}", is_json)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return EvidenceView(record.id, record.media_type, [], f"not UTF-8 text (binary?): undecodable byte at {exc.start}", is_json)
    if "\x00" in text:
        return EvidenceView(record.id, record.media_type, [], "not text: contains NUL bytes (binary?)", is_json)
    off = _Offsets(data, text)
    if is_json:
        try:
            leaves = jsonleaves.leaves(text)
        except jsonleaves.JSONViewError as exc:
            # a tool output under its request line ("GET /api/v1/orders/12 -> 200"): the body is the JSON
            b = jsonleaves.body(text)
            if b is None or not b.header or b.objects is None:
                return EvidenceView(record.id, record.media_type, [], f"malformed JSON: {exc}", True)
            leaves = [replace(lf, start=lf.start + b.offset, end=lf.end + b.offset,
                              key_start=lf.key_start + b.offset if lf.key_start >= 0 else -1,
                              key_end=lf.key_end + b.offset if lf.key_end >= 0 else -1)
                      for lf in jsonleaves.leaves(text[b.offset:])]
        named = _json_labels(leaves)
        items = []
        for lf in leaves:
            label, ls, le = named.get(lf.path, (lf.key, lf.key_start, lf.key_end))
            items.append(Item("leaf", off(lf.start), off(lf.end), lf.raw, label, off(ls) if ls >= 0 else -1, off(le) if le >= 0 else -1, lf.path))
        return EvidenceView(record.id, record.media_type, items, None, True)
    return EvidenceView(record.id, record.media_type, _text_items(text, off), None, False)


_COLUMN_KEYS = {"column", "columns", "col", "cols", "header", "headers", "heading", "headings", "field", "fields", "names", "labels", "keys"}
_NAME_KEYS = {"name", "key", "field", "label", "attribute", "property", "fieldname", "field_name", "fieldName"}
_VALUE_KEYS = {"value", "val", "amount", "fieldvalue", "field_value", "fieldValue"}


def _json_labels(leaves: list) -> dict[str, tuple[str, int, int]]:
    """Labels a JSON value carries somewhere other than its own key, by leaf path:
    * a column table, {"columns": ["line", "qty"], "rows": [[1, 600], ...]}: each cell is labelled by
      its column's name;
    * a name/value pair, {"name": "TotalDue", "value": 9500}: the value is labelled by the name.
    The label's span is that of the string that names it."""
    out: dict[str, tuple[str, int, int]] = {}
    by_parent: dict[str, list] = {}
    for lf in leaves:
        by_parent.setdefault(lf.parent, []).append(lf)
    arrays = {p: ls for p, ls in by_parent.items() if p.endswith("]") is False and ls and all(l.path == f"{p}[{i}]" for i, l in enumerate(ls))}
    rows = {p: ls for p, ls in by_parent.items() if p.endswith("]") and ls and all(l.path == f"{p}[{i}]" for i, l in enumerate(ls))}
    # rows of a table ("rows": [[...], ...]) and a one-row table ("values": [...]) beside its column names
    single = {p: ls for p, ls in arrays.items() if p[p.rfind(".") + 1:] not in _COLUMN_KEYS}
    for p, cells in [*rows.items(), *((f"{p}[0]", ls) for p, ls in single.items())]:
        container = p[: p.rindex("[")]
        owner = container[: max(container.rfind("."), 0)] or "$"
        for cp, names in arrays.items():
            key = cp[cp.rfind(".") + 1:]
            if cp == container or not cp.startswith(owner + ".") or "." in cp[len(owner) + 1:] or key not in _COLUMN_KEYS:
                continue
            if len(names) == len(cells) and all(isinstance(n.value, str) for n in names):
                for c, n in zip(cells, names):
                    out[c.path] = (n.value, n.start, n.end)
                break
    for p, fields in by_parent.items():
        if p.endswith("]") and all(f.path.startswith(p + "[") for f in fields):
            continue
        name = [f for f in fields if f.key in _NAME_KEYS and isinstance(f.value, str)]
        value = [f for f in fields if f.key in _VALUE_KEYS]
        if len(name) == 1 and len(value) == 1 and len(fields) <= 4:
            out[value[0].path] = (name[0].value, name[0].start, name[0].end)
    return out


def _text_items(text: str, off: _Offsets) -> list[Item]:
    lines = tables.lines_of(text)
    title, _, _ = prose.title_of(text, lines)
    items: list[Item] = []
    shown = 0
    for a, b in lines:
        line = text[a:b].strip()
        if not line or prose.is_page_mark(line):
            continue
        s = a + text[a:b].index(line)
        items.append(Item("header", off(s), off(s + len(line)), line, title=title))
        shown += 1
        if shown >= HEADER_LINES:
            break
    found = tables.find_tables(text, lines)
    grid_lines: set[int] = set()
    heading_at = _headings(text, lines)
    starts = [a for a, _ in lines]
    for g, t in enumerate(found):
        heading = _heading_before(heading_at, lines[t.first_line][0])
        if t.kind == "kv":
            # "Item 20 - SY-10" over "Quantity received: 1,450": the caption names the row the fields belong to
            heading = _caption(text, lines, t.first_line, found) or heading
            row_of_line: dict[int, str] = {}
            block, last = "", -1  # the row a "Line: 2" field opens, until a blank line or the next one
            for r, (label, value) in enumerate(t.rows):
                line = bisect.bisect_right(starts, label.start)
                if line not in row_of_line:
                    if (last >= 0 and any(not text[a:b].strip() for a, b in lines[last:line - 1])) or _SUM_KEY.match(label.text):
                        block = ""  # a blank line (line is 1-based) or the invoice's sums end the line's block
                    last = line
                    # "Line 2: FD-TNR-05; UoM: EA; Qty received: 12": the line's first field names the row of the rest
                    row_of_line[line] = f"{label.text} {value.text}" if _ROW_LABEL.match(label.text) else ""
                    field_heading = block or heading
                    if _ROW_KEY.match(label.text) and value.text.isdigit():
                        # "Line: 2" over "Item Code: SPI-FLT-GRN" / "Quantity: 3": the block's lines are that row's,
                        # named by its number and its item code
                        block, field_heading = f"{label.text} {value.text}", heading
                    elif block and _CODE_KEY.search(label.text):
                        block += f" {value.text}"
                else:
                    field_heading = row_of_line[line] or heading
                items.append(Item("field", off(value.start), off(value.end), value.text, label.text, off(label.start), off(label.end),
                                  "", g, r, 1, field_heading, title))
            continue
        grid_lines |= t.taken
        for r, row in enumerate(t.rows):
            for c, cell in enumerate(row):
                head = t.header[c] if c < len(t.header) else None
                items.append(Item("cell", off(cell.start), off(cell.end), cell.text, head.text if head else "",
                                  off(head.start) if head else -1, off(head.end) if head else -1, "", g, r, c, heading, title))
    for s in prose.sentences(text, lines, grid_lines):
        items.append(Item("sentence", off(s.start), off(s.end), s.text, heading=s.heading, title=title, prev=s.prev))
    return items


_ROW_LABEL = re.compile(r"^(?:line|item|pos(?:ition)?|row)\s*(?:no\.?\s*|#\s*)?\d+$", re.I)
_ROW_KEY = re.compile(r"^(?:line|item|pos(?:ition)?|row)\s*(?:no\.?|number|#)?$", re.I)
_SUM_KEY = re.compile(r"^(?:sub-?\s*total|total|grand total|sum|net total|freight|shipping|tax|vat)\b", re.I)
_CODE_KEY = re.compile(r"\b(?:code|sku|part|article|material|item\s*(?:no|number|#))\b", re.I)


def _caption(text, lines, first: int, found) -> str:
    """The short line right above a block (one blank line allowed), when no table holds it."""
    for i in (first - 1, first - 2):
        if i < 0:
            return ""
        line = text[lines[i][0]:lines[i][1]].strip()
        if not line:
            continue
        if any(i in t.taken or t.first_line <= i <= t.last_line for t in found):
            return ""
        if len(line.split()) > 10 or ":" in line.rstrip(":") or line.endswith((".", ";", ",")):
            return ""
        return line.rstrip(":")
    return ""


def _headings(text, lines):
    return [(a, text[a:b].strip().rstrip(":")) for a, b in lines if prose.is_heading(text[a:b])]


def _heading_before(headings, pos):
    h = ""
    for a, t in headings:
        if a > pos:
            break
        h = t
    return h


# -- the cache beside the ledger ------------------------------------------------------------------


class ViewStore:
    """Views by record id: in memory (LRU), then the Arrow file beside the ledger, then built.

    A file that is missing, unreadable, of another format or of other bytes is rebuilt; a cache
    directory that cannot be written (read-only storage, an object store) only costs a rebuild."""

    def __init__(self, ledger_uri: str | None, *, memory: int = 256, max_bytes: int = MAX_VIEW_BYTES):
        self._dir = local_path(ledger_uri) / DIRNAME if ledger_uri and is_local(ledger_uri) else None
        self._memory: OrderedDict[str, EvidenceView] = OrderedDict()
        self._size = memory
        self._max_bytes = max_bytes
        self._lock = threading.Lock()

    def path(self, record_id: str) -> Path | None:
        return self._dir / f"{record_id}.arrow" if self._dir else None

    def get(self, record: EvidenceRecord) -> EvidenceView:
        with self._lock:
            if record.id in self._memory:
                self._memory.move_to_end(record.id)
                return self._memory[record.id]
        view = self._read(record) or self._build_and_store(record)
        with self._lock:
            self._memory[record.id] = view
            while len(self._memory) > self._size:
                self._memory.popitem(last=False)
        return view

    def _read(self, record: EvidenceRecord) -> EvidenceView | None:
        p = self.path(record.id)
        if p is None or not p.is_file():
            return None
        try:
            with pa.memory_map(str(p)) as src:
                table = ipc.open_file(src).read_all()
            meta = table.schema.metadata or {}
            if meta.get(b"sha256") != record.sha256.encode() or meta.get(b"format") != VIEW_FORMAT.encode():
                return None
            return EvidenceView.from_arrow(record, table)
        except (OSError, pa.ArrowException, ValueError, TypeError, KeyError):
            return None  # corrupt or foreign: rebuilt from the record's bytes

    def _build_and_store(self, record: EvidenceRecord) -> EvidenceView:
        view = build_view(record, self._max_bytes)
        p = self.path(record.id)
        if p is None:
            return view
        table = view.to_arrow().replace_schema_metadata(
            {"sha256": record.sha256, "format": VIEW_FORMAT, "problem": view.problem or "", "is_json": "1" if view.is_json else "0"}
        )
        tmp = p.with_suffix(f".{os.getpid()}.{threading.get_ident()}.tmp")
        try:
            p.parent.mkdir(parents=True, exist_ok=True)
            with pa.OSFile(str(tmp), "wb") as sink, ipc.new_file(sink, table.schema) as w:
                w.write_table(table)
            os.replace(tmp, p)
        except OSError:
            tmp.unlink(missing_ok=True)
        return view
