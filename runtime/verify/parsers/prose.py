"""Sentences of a plain-text document with the context a reader uses to resolve them: the
document's title or identifier line, the section heading in force, and the previous sentence."""

from __future__ import annotations

import re
from dataclasses import dataclass

from warrant.runtime.verify.text import sentence_spans

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


_ITEM_START = re.compile(r"^\s*(?:\d+(?:\.\d+)*[.)]?\s|[-*•]\s|\(?[a-z]\)\s|\(?[ivx]+\)\s)")
_KEY_VALUE = re.compile(r"^\s*[A-Za-z#][\w #&/().'%-]{0,60}?\s*:\s+\S")


def _unwrapped(text: str, lines: list[tuple[int, int]], skip_lines: set[int]) -> str:
    """The text with the line breaks inside a wrapped sentence turned into spaces (same length, so
    offsets stay those of the record): a line that does not end a sentence, followed by one that
    continues it (lower case, or after a long line) and is no list item, table row or "Key: value" line."""
    chars = None
    for i in range(len(lines) - 1):
        (a, b), (c, d) = lines[i], lines[i + 1]
        cur, nxt = text[a:b].strip(), text[c:d].strip()
        if not cur or not nxt or i in skip_lines or i + 1 in skip_lines or b >= c:
            continue
        if cur.endswith((".", "!", "?", ";", ":")) or is_heading(cur) or _ITEM_START.match(text[c:d]):
            continue
        if _KEY_VALUE.match(cur) or _KEY_VALUE.match(nxt):
            continue
        if not (nxt[0].islower() or len(cur) >= 50):
            continue
        if chars is None:
            chars = list(text)
        for k in range(b, c):
            chars[k] = " "
    return text if chars is None else "".join(chars)


def sentences(text: str, lines: list[tuple[int, int]], skip_lines: set[int] = frozenset()) -> list[Sentence]:
    """Sentences outside the table lines, each with its heading and previous sentence."""
    headings: list[tuple[int, str]] = []
    for i, (a, b) in enumerate(lines):
        if i not in skip_lines and is_heading(text[a:b]):
            headings.append((a, text[a:b].strip().rstrip(":")))
    skipped = sorted((lines[i][0], lines[i][1]) for i in skip_lines)
    out: list[Sentence] = []
    prev = ""
    h = 0
    heading = ""
    sk = 0
    for a, b in sentence_spans(_unwrapped(text, lines, skip_lines)):
        while sk < len(skipped) and skipped[sk][1] < a:
            sk += 1
        if sk < len(skipped) and skipped[sk][0] <= a and b <= skipped[sk][1]:
            continue  # a table line: its cells are the items, not a sentence
        while h < len(headings) and headings[h][0] <= a:
            heading = headings[h][1]
            h += 1
        s = text[a:b]
        if is_page_mark(s):
            continue
        out.append(Sentence(a, b, s, heading, prev))
        prev = s
    return out
