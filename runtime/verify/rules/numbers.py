"""Percentages and plain numbers.

Percent: only a value written as a percent ("15%", "15 percent", "15 per cent", "15 pct", "five
percent"). "0.15" is a plain number and never equals "15%". "per month"/"per annum" is kept in
``per``. Plain numbers: other digits, and number words where a unit follows ("four hundred
boxes"). A number after an identifier label ("line 14", "account 4471") is a reference
(``unit == "ref"``), never a count. Ranges ("100-499 units", "between 10 and 20") and clock
times are not values of their own.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Iterable

from warrant.runtime.verify.rules.base import (
    GROUP_SPACE, DIGITS, NUM, NUMW, SCALE_WORDS, SPACE_GROUPED, WORDNUM, Claims, Found, I, free_numbers, parse_num, per_after, scale,
)
from warrant.runtime.verify.rules.identifiers import labelled_ref
from warrant.runtime.verify.text import outline_numbers, stem

# "2.7 percentage points" is a difference of two percentages, compared like one
# "five percent (5%)" is one value: the digits in brackets repeat the words
_PERCENT_RE = re.compile(rf"(?P<num>{NUMW})\s?(?:%|percent(?:age\s+points?)?\b|per\s?cent\b|pct\b|(?:pp|ppts?)\b)"
                         r"(?:\s*\(\s*\d+(?:\.\d+)?\s*(?:%|percent\b|per\s?cent\b)?\s*\))?", I)
_RANGE_RE = re.compile(
    rf"(?<![\w.,/-]){DIGITS}\s*(?:-|–|to)\s*{DIGITS}(?![\w%/]|[.,]\d)|\bbetween\s+{DIGITS}\s+and\s+{DIGITS}\b"
)
# a minus that opens a cell, a field or a clause ("    -2,150.00", "Adjustment: -40"): the value is
# a negative figure (signs.py reads the sign), unlike "ORD-150" or "100-150"
_CELL_MINUS = r"(?<=[\s(|:=]-)"
# "30 lakh", "1.5 crore", "3 million": the scale word is part of the number
_BARE_RE = re.compile(rf"(?:(?<![\w.,/$€£-])|{_CELL_MINUS})(?P<num>{NUM})(?P<scale>\s+{SCALE_WORDS}\b)?(?![\w%$€£]|[.,/]\d)", I)
# a spelled-out count of something: "four hundred boxes", "twelve crates" (a word number alone,
# "one of the parties", is not a value)
# "five 15-second cut-downs": a count before a measure that modifies the counted noun
_WORD_COUNT_RE = re.compile(rf"\b(?P<num>{WORDNUM})\s+(?=[a-z]{{3,}}\b|\d+(?:\.\d+)?-[a-z]{{2,}}\s+[a-z])", I)
_NOT_COUNTED = {"of", "and", "or", "to", "the", "a", "an", "in", "on", "at", "by", "for", "is", "are", "was", "were", "per", "percent", "hundred", "thousand", "million",
                "from", "than", "between", "with", "over", "under", "into"}


def find_percent(text: str, claims: Claims) -> Iterable[Found]:
    for m, num in free_numbers(_PERCENT_RE, text, claims):
        a, b = m.start(), m.end()
        per, _ = per_after(text, b)
        claims.take(a, b)
        # a difference in points is another slot than a level: 1.2 points is no misread of 96.8%
        unit = "points" if re.search(r"point|pp", m.group(0), re.I) else None
        yield (a, b, "percent", num, unit, per, ())


def mask_outline_numbers(text: str, claims: Claims) -> Iterable[Found]:
    """Clause numbers ("2.1", "2.2" opening lines of a numbered list): neither is a value."""
    for a, b in outline_numbers(text):
        if claims.free(a, b):
            claims.take(a, b)
    return ()


def mask_ranges(text: str, claims: Claims) -> Iterable[Found]:
    """Ranges ("100-499 units", "between 10 and 20"): neither end is a value of its own."""
    for m in _RANGE_RE.finditer(text):
        if claims.free(m.start(), m.end()):
            claims.take(m.start(), m.end())
    return ()


_CSV_HINT = re.compile(r"[,;\t]\d")
_PLAIN = re.compile(r"-?\d+(?:\.\d+)?")
_PLAIN_COMMA = re.compile(r"-?\d{1,3}(?:\.\d{3})*(?:,\d+)?")  # "1.840", "38,2" where decimals take a comma


def find_csv_numbers(text: str, claims: Claims) -> Iterable[Found]:
    """The plain numbers of CSV, TSV or semicolon rows ("S-301,Elin Sandberg,168,38640"), which the
    number pattern leaves alone because a digit after a comma reads as a thousands group. Rows
    only where the table parser finds a block whose fields line up under a header."""
    if not _CSV_HINT.search(text):
        return
    # imported here: the parsers package reads quantities with this family
    from warrant.runtime.verify.parsers.tables import find_tables

    for t in find_tables(text):
        if t.kind != "csv":
            continue
        for row in t.rows:
            for cell in row:
                plain = (_PLAIN_COMMA if claims.decimal_comma else _PLAIN).fullmatch(cell.text)
                if plain and claims.free(cell.start, cell.end) and (v := parse_num(cell.text.lstrip("-"), claims.decimal_comma)) is not None:
                    claims.take(cell.start, cell.end)
                    yield (cell.start, cell.end, "number", v, None, None, ())


# "189,00" in a record that writes decimals with a comma: a number without a thousands group;
# "24 000" there groups thousands with a space (French and Quebec documents)
_COMMA_DECIMAL_RE = re.compile(rf"(?:(?<![\w.,/$€£-])|{_CELL_MINUS})(?P<num>\d+,\d{{2}}|{SPACE_GROUPED})(?![\w%$€£]|[.,/]?\d|{GROUP_SPACE}\d)")


# how often: "twice a year", "twice in any month". "Once" is also a conjunction ("once the goods
# arrive") and "twice the value" a multiple: neither is read
_TIMES = {"twice": Decimal(2), "thrice": Decimal(3)}
_TIMES_RE = re.compile(r"\b(?:twice|thrice)(?=\s+(?:a|an|per|each|every|in|within|during|weekly|monthly|daily|yearly|annually|over)\b)", re.I)


def find_numbers(text: str, claims: Claims) -> Iterable[Found]:
    if claims.decimal_comma:
        for m, num in free_numbers(_COMMA_DECIMAL_RE, text, claims):
            claims.take(m.start(), m.end())
            yield (m.start(), m.end(), "number", num, None, None, ())
    for m, num in free_numbers(_BARE_RE, text, claims):
        a, b = m.start(), m.end()
        if re.fullmatch(r"\.\d+", m["num"]):
            continue
        if text[b:b + 2] in (":0", ":1", ":2", ":3", ":4", ":5") or text[max(0, a - 1):a] == ":" and re.match(r"\d:\d", text[max(0, a - 2):a + 1]):
            continue  # clock times
        claims.take(a, b)
        yield (a, b, "number", num * scale(m["scale"]), "ref" if labelled_ref(text, a) else None, None, ())
    for m in _TIMES_RE.finditer(text):
        if claims.free(m.start(), m.end()):
            claims.take(m.start(), m.end())
            yield (m.start(), m.end(), "number", _TIMES[m.group(0).lower()], None, None, ())
    for m in _WORD_COUNT_RE.finditer(text):
        a, b = m.start("num"), m.end("num")
        nxt = text[m.end():m.end() + 20].split(None, 1)
        if not nxt or nxt[0].lower() in _NOT_COUNTED or not claims.free(a, b):
            continue
        num = parse_num(m["num"])
        if num is None or (num <= 1 and nxt[0].lower() in ("of",)):
            continue
        claims.take(a, b)
        yield (a, b, "number", num, None, None, ())


# (a comparative between a margin and its noun is no noun: "31 more pallets", "620 lower than")
_NOUN_RE = re.compile(r"\s*(?:\d+(?:\.\d+)?-[A-Za-z]+\s+)?(?:[-(]\s*)?(?:(?:more|fewer|less|lower|higher|greater|larger|smaller|above|below)\s+)?([A-Za-z][A-Za-z-]{1,})")


def counted_noun(text: str, q) -> str | None:
    """The stem of the noun a plain number counts: "60 boxes" -> "box", "Boxes: 60" -> "box",
    "Crates | 5" -> "crate". None when neither side names one."""
    m = _NOUN_RE.match(text, q.end, min(len(text), q.end + 40))
    if m and m.group(1).lower() not in _NOT_COUNTED:
        return stem(m.group(1))
    before = text[max(0, q.start - 40):q.start]
    lm = re.search(r"([A-Za-z][A-Za-z-]+)\s*[:=|]\s*$", before)
    if lm:
        return stem(lm.group(1))
    return None
