"""Tables inside plain-text documents: pipe tables, CSV/TSV blocks, fixed-width columns, and
"Key: value" lines. Each cell keeps its character span, its column label and its row.

Deliberately conservative: a block becomes a table only when its rows line up (same number of
fields, or fields under the header's columns); prose with commas stays prose.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from warrant.runtime.verify.text import NOT_AN_END


@dataclass
class Cell:
    text: str
    start: int  # character offsets of the cell text (trimmed)
    end: int


@dataclass
class Table:
    kind: str  # "pipe" | "csv" | "fixed" | "kv"
    header: list[Cell]  # column labels (for "kv": empty)
    rows: list[list[Cell]]  # for "kv": [[label, value], ...]
    first_line: int  # index of the first line of the block
    last_line: int
    taken: set[int] = field(default_factory=set)  # line indexes the block uses


_PIPE_SEP = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")
# a label may hold a parenthesised aside with commas: "Order total (EUR, excl. VAT): 2,666.00"
# and a "N°" ("N° de facture : FA-30488")
_KV = re.compile(r"^\s*(?P<label>[A-Za-z#](?:[\w #&/().'%@°º-]|\([^()\n:]{0,40}\)){0,60}?)\s*:\s+(?P<value>\S.*?)\s*$")
_GAP = re.compile(r"\S+(?: \S+)*")  # fields separated by two or more spaces
_LEADER = re.compile(r" ?\.{4,} ?")  # three dots are an elided row ("...  ...  ..."), four or more a leader
_COLUMN_GAP = re.compile(r"\S {3,}\S")  # fixed-width columns inside what a comma split made one cell
_NUMERIC = re.compile(r"^[\s$€£(+-]*(?=[\d.,'’]*\d)[\d.,'’]+\s*%?\)?$")  # also Swiss "9'944.00"
# the shared splitter's ends: "Buyer: J. Lindqvist" and "Buyer: St. Brannoc's Hospital" are one field each
_SENTENCE_PIECE = NOT_AN_END + r"[.;]\s+(?=[A-Z])"
# "Supplier: Kessler GmbH      | Open amount: EUR 49.791,00": two columns of fields, one bar between
_PIECE_END = re.compile(_SENTENCE_PIECE + r"|\s+\|\s+(?=[^|]*:\s)")


def lines_of(text: str) -> list[tuple[int, int]]:
    """(start, end) character spans of the lines, without their line breaks."""
    out, pos = [], 0
    for line in text.splitlines(keepends=True):
        body = line.rstrip("\r\n")
        out.append((pos, pos + len(body)))
        pos += len(line)
    return out


def _trimmed(text: str, a: int, b: int) -> Cell:
    while a < b and text[a].isspace():
        a += 1
    while b > a and text[b - 1].isspace():
        b -= 1
    return Cell(text[a:b], a, b)


def _pipe_cells(text: str, a: int, b: int) -> list[Cell]:
    line = text[a:b]
    bars = [i for i, ch in enumerate(line) if ch == "|"]
    edges = bars[:]
    if not line.lstrip().startswith("|"):
        edges = [-1] + edges
    if not line.rstrip().endswith("|"):
        edges = edges + [len(line)]
    return [_trimmed(text, a + x + 1, a + y) for x, y in zip(edges, edges[1:])]


def _csv_cells(text: str, a: int, b: int, sep: str) -> list[Cell] | None:
    cells, i = [], a
    while i <= b:
        if i < b and text[i] == '"':
            j = i + 1
            while True:
                j = text.find('"', j, b)
                if j < 0:
                    return None
                if j + 1 < b and text[j + 1] == '"':
                    j += 2
                    continue
                break
            cells.append(Cell(text[i + 1:j].replace('""', '"'), i + 1, j))
            k = j + 1
            while k < b and text[k] == " ":
                k += 1
            if k < b and text[k] != sep:
                return None
            i = k + 1
        else:
            j = text.find(sep, i, b)
            j = b if j < 0 else j
            cells.append(_trimmed(text, i, j))
            i = j + 1
    return cells


def _is_header(cells: list[Cell]) -> bool:
    return any(c.text for c in cells) and all(not c.text or (not _NUMERIC.match(c.text) and len(c.text.split()) <= 6) for c in cells)


def find_tables(text: str, lines: list[tuple[int, int]] | None = None) -> list[Table]:
    lines = lines if lines is not None else lines_of(text)
    tables: list[Table] = []
    used: set[int] = set()
    for finder in (_pipe_tables, _csv_tables, _fixed_tables, _kv_blocks):
        for t in finder(text, lines, used):
            tables.append(t)
            used |= t.taken
    tables.sort(key=lambda t: t.first_line)
    return tables


def _blocks(lines, used, ok):
    """Runs of consecutive line indexes for which ok(i) holds."""
    run: list[int] = []
    for i in range(len(lines) + 1):
        if i < len(lines) and i not in used and ok(i):
            run.append(i)
            continue
        if run:
            yield run
        run = []


def _pipe_tables(text, lines, used):
    def ok(i):
        a, b = lines[i]
        return text.count("|", a, b) >= 2 or bool(_PIPE_SEP.match(text[a:b]) and "|" in text[a:b])

    for run in _blocks(lines, used, ok):
        rows = [(i, _pipe_cells(text, *lines[i])) for i in run if not _PIPE_SEP.match(text[lines[i][0]:lines[i][1]])]
        if len(rows) < 2:
            continue
        if all(_KV.match(c.text) for _, cells in rows for c in cells if c.text):
            continue  # "Supplier: X | PO: 4500018262 | Date: ...": fields side by side, no table (read as "Key: value")
        header = rows[0][1]
        body = [cells for _, cells in rows[1:]]
        if not _is_header(header):  # a label/value table without a header row: every row is data
            header, body = [], [cells for _, cells in rows]
        yield Table("pipe", header, body, run[0], run[-1], set(run))


def _csv_tables(text, lines, used):
    for sep in (",", "\t", ";"):
        def ok(i, sep=sep):
            a, b = lines[i]
            # a semicolon row's decimal commas ("DN-0412;Helmbrecht;312,00") are no separators
            return sep in text[a:b] and not (sep == "," and text.count(";", a, b) >= 2)

        for run in _blocks(lines, used, ok):
            parsed = [(i, _csv_cells(text, *lines[i], sep)) for i in run]
            start = 0
            while start < len(parsed) - 1:
                i0, head = parsed[start]
                if not head or len(head) < 2 or not _is_header(head) or any(
                        re.search(r"\S:\s", c.text) or c.text[:1].isdigit() or _COLUMN_GAP.search(c.text) for c in head):
                    # "Freight: 0.00 (included, full truckload)" is a "Key: value" line, "resin  18,500  18,420"
                    # a row of thousands groups, and "GV-DN100    Gate valve DN100 PN16, resilient seated      412.00"
                    # a fixed-width row whose description holds a comma: none is a CSV header
                    start += 1
                    continue
                end = start + 1
                while end < len(parsed) and parsed[end][1] is not None and len(parsed[end][1]) == len(head):
                    end += 1
                body = [cells for _, cells in parsed[start + 1:end]]
                # a long free-text cell is prose unless quoted, as CSV quotes a remark that holds commas
                # and a cell with a column gap ("Great Hall hire (full day)      6" + "800.00") is a fixed-width
                # row whose amount holds a thousands comma
                if body and all((len(c.text.split()) <= 8 or text[c.start - 1:c.start] == '"') and not _COLUMN_GAP.search(c.text)
                                for row in body for c in row):
                    taken = {i for i, _ in parsed[start:end]}
                    used |= taken
                    yield Table("csv", head, body, parsed[start][0], parsed[end - 1][0], taken)
                    start = end
                else:
                    start += 1


def _fields(text: str, a: int, b: int) -> list[Cell]:
    """Fields separated by two or more spaces or by a dot leader ("Deliver by ....... 24 Oct 2025")."""
    out = []
    for m in _GAP.finditer(text, a, b):
        pos = m.start()
        for d in _LEADER.finditer(text, m.start(), m.end()):
            if d.start() > pos:
                out.append(Cell(text[pos:d.start()], pos, d.start()))
            pos = d.end()
        if m.end() > pos:
            out.append(Cell(text[pos:m.end()], pos, m.end()))
    return out


# "---- --------- -------": a rule of dash runs under a header marks its columns (SAP's list output),
# where a header's words may stand one space apart ("Item Material")
_DASH_RULE = re.compile(r"^\s*-{2,}(?:[ +]+-{2,}){2,}\s*$")
_DASH_RUN = re.compile(r"-{2,}")


def _fixed_tables(text, lines, used):
    def rule(i):
        return bool(_DASH_RULE.match(text[lines[i][0]:lines[i][1]]))

    def ok(i):
        a, b = lines[i]
        return len(_fields(text, a, b)) >= 3 or (len(_fields(text, a, b)) >= 2 and "  " in text[a:b].strip()) or rule(i)

    for run in _blocks(lines, used, ok):
        k = 0
        while k < len(run) - 1:
            hi = run[k]
            ha = lines[hi][0]
            header = _fields(text, *lines[hi])
            cols = [(c.start - ha, c.end - ha) for c in header]
            body, taken = [], {hi}
            j = k + 1
            if rule(run[k + 1]) and not rule(hi):
                ra, rb = lines[run[k + 1]]
                spans = [(m.start() - ra, m.end() - ra) for m in _DASH_RUN.finditer(text, ra, rb)]
                ruled = [_trimmed(text, ha + x, min(ha + y, lines[hi][1])) for x, y in spans]
                if all(c.text for c in ruled):  # every dash run has its header words above it
                    header, cols = ruled, spans
                    taken.add(run[k + 1])
                    j = k + 2
            if len(header) < 3 or not _is_header(header):
                k += 1
                continue
            while j < len(run):
                li = run[j]
                la = lines[li][0]
                cells = _fields(text, *lines[li])
                placed: list[Cell | None] = [None] * len(cols)
                fits = True
                for c in cells:
                    col = _column_of(c.start - la, c.end - la, cols)
                    if col is None or placed[col] is not None:
                        fits = False
                        break
                    placed[col] = c
                if not fits or sum(p is not None for p in placed) < 2:
                    break
                body.append([p if p is not None else Cell("", la, la) for p in placed])
                taken.add(li)
                j += 1
            if body:
                yield Table("fixed", header, body, hi, run[j - 1], taken)
                k = j
            else:
                k += 1


def _column_of(a: int, b: int, cols: list[tuple[int, int]]) -> int | None:
    """The header column a field sits under: the one it overlaps most, else the nearest whose
    span it does not cross into a neighbour's (right-aligned numbers end under their header)."""
    best, best_overlap = None, 0
    for j, (ca, cb) in enumerate(cols):
        overlap = min(b, cb) - max(a, ca)
        if overlap > best_overlap:
            best, best_overlap = j, overlap
    if best is not None:
        return best
    gaps = [(min(abs(a - cb), abs(b - ca)), j) for j, (ca, cb) in enumerate(cols)]
    d, j = min(gaps)
    return j if d <= 4 else None


def _kv_blocks(text, lines, used):
    """"Key: value" lines (also several on one line, "Issued: 31 October 2026. Currency: USD."),
    and "Label    value" lines of two fields (invoice footers: "Subtotal      1,200.00")."""
    block: Table | None = None
    for i, (a, b) in enumerate(lines):
        pairs = [] if i in used else _kv_pairs(text, a, b)
        if pairs:
            if block is None:
                block = Table("kv", [], [], i, i, set())
            block.rows.extend(pairs)
            block.last_line = i
            block.taken.add(i)
        elif block is not None and (i in used or text[a:b].strip()):
            yield block
            block = None
    if block is not None:
        yield block


def _kv_pairs(text: str, a: int, b: int) -> list[list[Cell]]:
    line = text[a:b]
    out = []
    pos = 0
    pieces = []
    for m in _PIECE_END.finditer(line):
        pieces.append((pos, m.start() + (1 if m.group(0)[0] in ".;" else 0)))  # a sentence's piece keeps its full stop
        pos = m.end()
    pieces.append((pos, len(line)))
    for pa, pb in pieces:
        piece = line[pa:pb]
        m = _KV.match(piece)
        if m and len(m["label"].split()) <= 6:
            # the full stop of a sentence is not part of the value; an abbreviation's is ("Co.")
            value = m["value"]
            if value.endswith(".") and not re.search(r"\b(?:[A-Z][a-z]?|Co|Inc|Ltd|No|Corp)\.$", value):
                value = value[:-1]
            la = a + pa + m.start("label")
            va = a + pa + m.start("value")
            out.append([Cell(m["label"], la, la + len(m["label"])), Cell(value, va, va + len(value))])
    if out:
        return out
    fields = _fields(text, a, b)
    # a value without digits is a field only where a dot leader ties it to its label ("Supplier ..... Acme Co.")
    led = len(fields) >= 2 and _LEADER.search(text, fields[0].end, fields[1].start) is not None
    if led and len(fields) > 2:
        # "Supplier ........ Kessler Armaturen GmbH, Falkenried DE   (V-10388)": after a dot leader the
        # rest of the line is the value
        fields = [fields[0], _trimmed(text, fields[1].start, fields[-1].end)]
    if len(fields) == 2 and not _NUMERIC.match(fields[0].text) and (led or re.search(r"\d", fields[1].text)) and len(fields[0].text.split()) <= (8 if led else 5):
        label = fields[0]
        stripped = label.text.rstrip(" .:")
        return [[Cell(stripped, label.start, label.start + len(stripped)), fields[1]]]
    return []
