"""The extractors in the order they read a text, and ``extract_quantities``, which runs them.

Order matters: a span is read once, by the first extractor that claims it. The numbers of a
numbered list of clauses ("2.1", "2.2") are masked first: they are no values. Dates come next (so
"2026-06-30" is not three numbers), then money, the plain numbers of CSV rows, percentages, durations, identifiers, labelled
durations, ranges (masked: neither end is a value) and last plain numbers.
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import replace
from functools import lru_cache

from warrant.runtime.verify.rules import dates, durations, identifiers, money, numbers, signs
from warrant.runtime.verify.rules.base import Extractor, Found, Quantity, uses_decimal_comma
from warrant.runtime.verify.rules.comparisons import comparator, near_threshold_word

EXTRACTORS: list[Extractor] = [
    Extractor("outline_numbers", numbers.mask_outline_numbers),
    Extractor("dates", dates.find_dates),
    Extractor("money", money.find_money),
    Extractor("csv_numbers", numbers.find_csv_numbers),
    Extractor("percent", numbers.find_percent),
    Extractor("durations", durations.find_durations),
    Extractor("identifiers", identifiers.find_codes),
    Extractor("labelled_durations", durations.find_labelled_durations),
    Extractor("ranges", numbers.mask_ranges),
    Extractor("numbers", numbers.find_numbers),
]


class _Taken:
    """Which characters an extractor already read: one byte per character, searched in C."""

    def __init__(self, n: int, decimal_comma: bool, dollar: str = "USD") -> None:
        self._mask = bytearray(n + 1)
        self.decimal_comma = decimal_comma
        self.dollar = dollar

    def free(self, a: int, b: int) -> bool:
        return self._mask.find(1, a, b) < 0

    def take(self, a: int, b: int) -> None:
        self._mask[a:b] = b"\x01" * (b - a)


# The record a claim is being checked against, while ``reading_record`` is open: (its text, whether
# it writes decimals with a comma, the dollar its bare "$" is).
_RECORD: ContextVar[tuple[str, bool, str | None] | None] = ContextVar("warrant_rules_record", default=None)
# "1,523" or "1.523": a thousands group or three decimals, depending on who wrote it
_AMBIGUOUS = re.compile(r"(?<![\d.,])\d{1,3}[.,]\d{3}(?![\d]|[.,]\d)")


@contextmanager
def reading_record(record: str):
    """Within it, a text without a decimal convention of its own (a claim, a window of the record)
    whose ambiguous figures ("1,523 €/l") all occur as written in ``record`` is read the way the
    record writes decimals: a figure copied from a record means what it means there. A claim that
    writes a figure its own way ("1,523" against the record's "1.523,00") keeps its own reading.
    Its bare "$" is the record's dollar (``money.record_dollar``) unless it names US dollars."""
    token = _RECORD.set((record, uses_decimal_comma(record), money.record_dollar(record)))
    try:
        yield
    finally:
        _RECORD.reset(token)


def _record_convention(text: str) -> bool:
    rec = _RECORD.get()
    if rec is None or not rec[1]:
        return False
    figures = _AMBIGUOUS.findall(text)
    return bool(figures) and all(f in rec[0] for f in figures)


def extract_quantities(text: str, decimal_comma: bool | None = None) -> list[Quantity]:
    """Every money amount, percentage, date, duration, identifier and number in ``text``, in text
    order; spans never overlap. ``decimal_comma``: whether the record ``text`` comes from writes
    decimals with a comma ("1.234" is then 1234); None: judged from ``text`` itself, or from the
    record ``reading_record`` names."""
    if decimal_comma is None:
        decimal_comma = uses_decimal_comma(text) or _record_convention(text)
    if len(text) <= _CACHED_MAX:
        return list(_extract_cached(text, decimal_comma, _record_dollar()))
    return _extract(text, decimal_comma, _record_dollar())


def _record_dollar() -> str | None:
    rec = _RECORD.get()
    return rec[2] if rec is not None else None


# A claim and its window are read by several rules in one check: short texts are read once.
_CACHED_MAX = 4096


@lru_cache(maxsize=8192)
def _extract_cached(text: str, decimal_comma: bool, record_dollar: str | None) -> tuple[Quantity, ...]:
    return tuple(_extract(text, decimal_comma, record_dollar))


def _extract(text: str, decimal_comma: bool, record_dollar: str | None = None) -> list[Quantity]:
    # a text's own dollar, else (a claim, a window) its record's: "$" in a claim about an
    # Australian record is the record's dollar
    dollar = money.record_dollar(text) or (None if money.names_us_dollars(text) else record_dollar) or "USD"
    taken = _Taken(len(text), decimal_comma, dollar)
    found: list[Found] = []
    for ex in EXTRACTORS:
        found.extend(ex.find(text, taken))
    found.sort(key=lambda t: t[0])
    out = []
    for a, b, kind, value, unit, per, alt in found:
        op, frame = None, "value"
        if unit != "ref":
            op, frame = comparator(text, a, b, kind)
        out.append(Quantity(kind, value, unit, a, b, text[a:b], op, per, alt, frame))
    for i, q in enumerate(out):
        if q.op is None and q.unit != "ref" and near_threshold_word(text, q, out):
            out[i] = replace(q, op=None, frame="limit")
    return signs.apply_signs(text, dates.frame_dates(text, out))
