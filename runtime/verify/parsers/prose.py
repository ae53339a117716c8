"""Sentences of a plain-text document with the context a reader uses to resolve them: the
document's title or identifier line, the section heading in force, and the previous sentence."""

from __future__ import annotations

import re
from dataclasses import dataclass

from warrant.runtime.verify.text import outline_numbers, sentence_spans

_PAGE_MARK = re.compile(r"^\s*-{2,}\s*page\s+\d+\s*-{2,}\s*$", re.I)
_NUMBERED = re.compile(r"^(?:#{1,6}\s+|(?:section|article|clause|schedule|part)\s+[\w.]+\b|\d+(?:\.\d+)*\.?\s+[A-Z])", re.I)


@dataclass(frozen=True)
class Sentence:
    start: int  # character offsets
    end: int
    text: str
    heading: str
    prev: str


def is_page_mark(line: str) -> bool:
    return bool(_PAGE_MARK.match(line))


def title_of(text: str, lines: list[tuple[int, int]]) -> tuple[str, int, int]:
    """The first non-empty line that is not a page marker: letterhead, title or identifier line."""
    for a, b in lines:
        line = text[a:b].strip()
        if line and not is_page_mark(line):
            off = text.index(line, a)
            return line, off, off + len(line)
    return "", 0, 0


def is_heading(line: str) -> bool:
    """A short line that names a section: "3. Payment terms", "SCHEDULE A - PRICES", "## Tiers"."""
    s = line.strip()
    if not s or len(s) > 80 or len(s.split()) > 10 or is_page_mark(s):
        return False
    if s.endswith((".", ";", ",")) and not _NUMBERED.match(s):
        return False
    if ":" in s.rstrip(":"):
        return False
    letters = [c for c in s if c.isalpha()]
    if not letters:
        return False
    return bool(_NUMBERED.match(s)) or s.isupper() or s.endswith(":") or s.istitle()


def sentences(text: str, lines: list[tuple[int, int]], skip_lines: set[int] = frozenset()) -> list[Sentence]:
    """Sentences outside the table lines, each with its heading and previous sentence."""
    headings: list[tuple[int, str]] = []
    for i, (a, b) in enumerate(lines):
        if i not in skip_lines and is_heading(text[a:b]):
            headings.append((a, text[a:b].strip().rstrip(":")))
    out: list[Sentence] = []
    prev = ""
    h = 0
    heading = ""
    # a sentence opening with its clause number ("2.2 USD invoices: ...") starts after it
    numbered = dict(outline_numbers(text))
    for a, b in _prose_spans(text, lines, skip_lines):
        if (end := next((e for s_, e in numbered.items() if a <= s_ < b and not text[a:s_].strip()), None)) is not None:
            a = end + len(text[end:b]) - len(text[end:b].lstrip())
        while h < len(headings) and headings[h][0] <= a:
            heading = headings[h][1]
            h += 1
        s = text[a:b]
        if is_page_mark(s):
            continue
        out.append(Sentence(a, b, s, heading, prev))
        prev = s
    return out


def _prose_spans(text: str, lines: list[tuple[int, int]], skip_lines: set[int]):
    """Sentence spans of each run of lines between table lines (a table line's cells are the
    items, not a sentence), cut by the shared splitter, which also joins wrapped lines."""
    run_start = None
    for i, (a, b) in enumerate([*lines, (len(text), len(text))]):
        table = i in skip_lines or i == len(lines)
        if not table and run_start is None:
            run_start = a
        if table and run_start is not None:
            for x, y in sentence_spans(text[run_start:a]):
                yield run_start + x, run_start + y
            run_start = None
