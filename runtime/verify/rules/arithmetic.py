"""Derived readings: a claimed value computed from values the evidence states.

"Together, the decals and the cards come to $595" against rows of $340 and $255; "the trip takes
5 days" against a departure on 6 April and an arrival on 11 April; "VAT adds 20%" against a net
of 500 and VAT of 100. ``derived`` covers the two shapes a single stated rate implies (a rate
times a count, a total over a count); this module searches every small computation over the
evidence values the claim's words are tied to:

* sums of two values, and of a whole table column; differences; products of an amount and a
  count; ratios (a per-unit average);
* percentages: a part of a whole, a change between two values, a value plus or minus a stated
  rate, a difference of two rates in percentage points;
* durations between two dates (days, weeks, months, years), sums and differences of durations;
* a date plus a duration.

Each computation is a ``formula.Formula`` over Decimal and dates (never ``eval``). An operand must
be tied to the claim: a content word of the claim in its clause or table row (or its column
label). A claimed value is *derived* only when exactly one set of tied operands gives it, at the
precision the claim is written in (a claim saying "about" or "roughly" allows 5%): two readings
that both give it are two stories, and picking one would be a guess.
"""

from __future__ import annotations

import bisect
import contextlib
import datetime as dt
import itertools
import re
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache

from warrant.runtime.verify.formula import Formula, FormulaError
from warrant.runtime.verify.rules.base import Quantity
from warrant.runtime.verify.rules.comparisons import holds
from warrant.runtime.verify.rules.durations import FAMILY, UNITS as _DURATION_UNITS
from warrant.runtime.verify.rules.numbers import counted_noun
from warrant.runtime.verify.text import STOP, content_tokens, sentence_bounds, spans_between, stem

# the most values one computation looks at (a long document's values are searched in its windows)
MAX_OPERANDS = 40
# the most cells a column sum adds
MAX_COLUMN = 12
APPROX = re.compile(r"\b(?:about|approximately|approx\.?|roughly|around|nearly|almost|some|just\s+(?:over|under)|circa|~)\s*$", re.I)
APPROX_REL = Decimal("0.05")

_F = {name: Formula(src) for name, src in {
    "sum": "a + b", "difference": "a - b", "product": "a * b", "ratio": "a / b",
    "share": "pct(a, b)", "change": "pct(a - b, b)", "plus_rate": "a + a * r / 100", "minus_rate": "a - a * r / 100",
    "part_at_rate": "a * r / 100", "days": "days_between(b, a)", "add_days": "add_days(d, n)",
}.items()}


# a claim that divides says so ("per school", "each", "on average"); one that says "exactly" or
# "every" of a quotient claims each part, which an average does not give
_RATIO_CUE = re.compile(r"\b(?:per|each|average[sd]?|averaging|on\s+average|apiece|works?\s+out|split|equal)\b", re.I)
_AVERAGE = re.compile(r"\b(?:average[sd]?|averaging|on\s+average|mean|works?\s+out)\b", re.I)
_NOT_AVERAGE = re.compile(r"\b(?:exactly|every|all)\b", re.I)
# a claim that adds two values says so ("together", "combined", "in total", "plus", "the X and the
# Y come to"): a value that merely equals the sum of two tied cells ("a 30-unit order is within the limit"
# beside limits of 5 and 25) is no sum
# a value a change or a margin is measured by: "reduce revenue recognised by AUD 152,500", "rose by
# 4%", "exceeded the minimum by 40 minutes"
CHANGE_BY = re.compile(r"\b(?:reduc\w*|increas\w*|rais\w*|lower\w*|cuts?|rose|rises?|risen|fell|falls?|fallen|grew|grows?|grown|drop\w*"
                        r"|decreas\w*|adjust\w*|up|down|exceed\w*|surpass\w*|overr[au]n\w*|beat(?:s|en)?|miss\w*|outperform\w*|underperform\w*)\b[^.;\n]{0,60}\bby\s+(?:about\s+|roughly\s+|some\s+|a\s+further\s+)?(?:[A-Z]{3}\s*|[$€£¥₹]\s*)?$", re.I)
# a value the claim gives as the margin between two others: "EUR 26,500 higher than", "USD 56,500 below what"
MARGIN_AFTER = re.compile(r"\s+(?:[a-z]+\s+){0,3}?(?:higher|lower|more|less|greater|fewer|larger|smaller|bigger|cheaper|dearer|costlier|"
                          r"longer|shorter|later|earlier|sooner|heavier|lighter|above|below|short\s+of)\s+(?:than|what)\b", re.I)
# two states a count is in, either of them: their sum ("taken or booked 23 days", "used or reserved")
EITHER_STATE = re.compile(r"\b[a-z]+(?:ed|en)\s+or\s+[a-z]+(?:ed|en)\b", re.I)
SUM_CUE = re.compile(
    r"\b(?:together|combined|total(?:s|led|ed|ling|ing)?|in\s+all|altogether|sum|plus|and|add(?:s|ed)?\s+up"
    r"|c[oa]me?s?\s+to|aggregate|overall|cumulative(?:ly)?|between\s+them)\b|\+|" + EITHER_STATE.pattern, re.I)
# how many of each calendar period a year holds (weeks and days are not whole fractions of a year)
_PER_YEAR = {"month": Decimal(12), "quarter": Decimal(4), "year": Decimal(1)}
# a value labelled by one of these numbers a thing ("line 10", "car no. 4"); it is never an operand
_ORDINAL_LABELS = {stem(w) for w in ("line", "item", "no", "number", "ref", "id", "page", "version", "revision",
                                     "clause", "section", "step", "phase", "option", "milestone", "row", "code")}
# a rate that takes away ("a 10% discount") is subtracted, any other rate is added
_TAKES_AWAY = {stem(w) for w in ("discount", "rebate", "reduction", "deduction", "retention", "retainage", "withheld", "withholding", "markdown")}
# a rate restricted to part of an amount: "applies to labour only", "on parts only", "only on the freight"
_ONLY_ON = re.compile(r"\b(?:(?:appl(?:y|ies|icable)|payable|charged|levied|calculated|due)\s+(?:to|on)\s+(?:the\s+)?(?P<a>[A-Za-z]+)\s+only"
                      r"|\bon\s+(?:the\s+)?(?P<b>[A-Za-z]+)\s+only|\bonly\s+(?:to|on)\s+(?:the\s+)?(?P<c>[A-Za-z]+))\b", re.I)


def _rate_only_on(ev: str, r: Quantity) -> str | None:
    """The stem of the only part of an amount a rate applies to, as the rate's sentence says."""
    a, b = sentence_bounds(ev, r.start)
    m = _ONLY_ON.search(ev, r.end, b)
    return stem(m["a"] or m["b"] or m["c"]) if m else None


# computations whose result is exact at the operands' precision (a rounded sum is a different sum)
_EXACT = {"sum", "difference", "product", "column", "days", "add_days"}


# Measures in another unit of the same dimension: factor to the dimension's base unit. A
# temperature is affine (°F = °C x 9/5 + 32) and handled apart.
_UNITS = {
    "mass": {"kg": Decimal(1), "kilogram": Decimal(1), "t": Decimal(1000), "tonne": Decimal(1000), "ton": Decimal(1000),
             "lb": Decimal("0.45359237"), "pound": Decimal("0.45359237"), "g": Decimal("0.001"), "gram": Decimal("0.001")},
    "length": {"m": Decimal(1), "metre": Decimal(1), "meter": Decimal(1), "km": Decimal(1000), "kilometre": Decimal(1000),
               "kilometer": Decimal(1000), "mile": Decimal("1609.344"), "ft": Decimal("0.3048"), "foot": Decimal("0.3048"),
               "feet": Decimal("0.3048"), "cm": Decimal("0.01"), "mm": Decimal("0.001"), "inch": Decimal("0.0254"), "in": Decimal("0.0254")},
    "area": {"m2": Decimal(1), "sqm": Decimal(1), "square metre": Decimal(1), "square meter": Decimal(1),
             "sq ft": Decimal("0.09290304"), "square foot": Decimal("0.09290304"), "square feet": Decimal("0.09290304"),
             "ha": Decimal(10000), "hectare": Decimal(10000), "acre": Decimal("4046.8564224")},
    "volume": {"l": Decimal(1), "litre": Decimal(1), "liter": Decimal(1), "ml": Decimal("0.001"), "megalitre": Decimal(1000000),
               "megaliter": Decimal(1000000), "m3": Decimal(1000), "cubic metre": Decimal(1000), "gallon": Decimal("3.785411784")},
    "temperature": {"c": None, "f": None},
}
_UNIT_OF = {u: (dim, f) for dim, us in _UNITS.items() for u, f in us.items()}
# one name per unit: "t", "tonne" and "ton" are one unit, so "343.0 t" states "343.0 tonnes"
# rather than converting to it (the first name listed; a temperature scale is its own unit)
_FIRST_NAME: dict[tuple[str, Decimal], str] = {}
_CANONICAL = {u: u if f is None else _FIRST_NAME.setdefault((dim, f), u) for dim, us in _UNITS.items() for u, f in us.items()}
_UNIT_RE = re.compile(  # on the value's own line: "40\nM-2" is no 40 metres
    r"[ \t]*(?P<u>sq\.?\s*ft|square\s+(?:metres?|meters?|feet|foot)|cubic\s+metres?|m²|m2|m³|m3|°\s*[CF]\b|degrees?\s+[CF]\b|"
    r"(?:kilo(?:gram|metre|meter)|megalit(?:re|er)|lit(?:re|er)|gallon|hectare|acre|mile|metre|meter|tonne|ton|pound|gram|inch)s?\b|"
    r"feet|foot|kg|km|lbs?|ft|ha|cm|mm|ml|sqm|t|m|g|l)(?![A-Za-z])", re.I)


def measure(text: str, q: Quantity) -> tuple[str, str] | None:
    """(dimension, unit) of a plain number followed by a unit of measure ("4,200 sq ft", "11 °C",
    "1.84 megalitres"), or None."""
    if q.kind != "number" or q.unit == "ref":
        return None
    m = _UNIT_RE.match(text, q.end)
    if not m:
        return None
    u = _unit_name(m.group("u"))
    return (_UNIT_OF[u][0], _CANONICAL[u]) if u else None


def _unit_name(written: str) -> str | None:
    """The unit table's name for a unit as written ("Tonnes", "m²", "lbs", "sq.ft"), or None."""
    u = re.sub(r"\s+", " ", written.lower()).replace("²", "2").replace("³", "3").replace(".", "")
    u = re.sub(r"^(?:°\s*|degrees? )", "", u)
    if u not in _UNIT_OF:
        u = u[:-1] if u.endswith("s") and u[:-1] in _UNIT_OF else ("lb" if u == "lbs" else u)
    if u == "sqft":
        u = "sq ft"
    return u if u in _UNIT_OF else None


def unit_span(text: str, q: Quantity) -> tuple[int, int] | None:
    """Where the unit of a measure is written ("square metres" of "390 square metres")."""
    m = _UNIT_RE.match(text, q.end) if measure(text, q) else None
    return (m.start("u"), m.end("u")) if m else None


def convert(value: Decimal, src: str, dst: str) -> Decimal | None:
    """``value`` in unit ``src`` expressed in unit ``dst`` (same dimension), or None."""
    (dim_s, fs), (dim_d, fd) = _UNIT_OF[src], _UNIT_OF[dst]
    if dim_s != dim_d or src == dst:
        return None
    if dim_s == "temperature":
        return value * 9 / 5 + 32 if src == "c" else (value - 32) * 5 / 9
    return value * fs / fd


@dataclass(frozen=True)
class Reading:
    """One computation over evidence values that gives the claimed value."""

    value: Decimal | dt.date
    operands: tuple[Quantity, ...]
    how: str
    # computed exactly (a sum, difference, product, span of days) and met to the last digit
    exact: bool = False


def _close(claimed: Decimal, computed: Decimal, approx: bool, exact: bool = False) -> bool:
    """Equal at the precision the claim is written in ("12" for 12.0, "$83.33" for 250/3), or
    within 5% when the claim says "about". A sum, difference or product of stated values is
    exact: 4.3 is not "4"."""
    if approx:
        return claimed != 0 and abs(computed - claimed) <= abs(claimed) * APPROX_REL
    if exact:
        return computed == claimed
    exp = claimed.as_tuple().exponent
    quantum = Decimal(1).scaleb(exp if isinstance(exp, int) else 0)
    return abs(computed - claimed) <= quantum / 2


def approximate(text: str, q: Quantity) -> bool:
    return bool(APPROX.search(text[max(0, q.start - 20):q.start]))


def operand_words(text: str, q: Quantity, after: int = 3) -> set[str]:
    """The content stems a value is labelled by: its table row and column label, or the words of
    its clause within six words before and ``after`` words after."""
    line_a = text.rfind("\n", 0, q.start) + 1
    line_b = text.find("\n", q.end)
    line_b = len(text) if line_b < 0 else line_b
    line = text[line_a:line_b]
    if _cells(line):
        words = {s for _, s in content_tokens(text, line_a, line_b)}
        header = _column_label(text, q, line_a)
        return words | {s for _, s in content_tokens(header)}
    a, b = sentence_bounds(text, q.start)
    left = [s for p, s in content_tokens(text, max(a, line_a), q.start)][-6:]
    right = [s for p, s in content_tokens(text, q.end, min(b, line_b))][:after]
    return set(left) | set(right)


_CELL_SPLIT = re.compile(r"\s*\|\s*|\s{2,}|\t")


def _cells(line: str) -> list[tuple[int, int]]:
    """(start, end) of each cell of a table row (pipes, tabs or runs of spaces); [] for prose."""
    if "|" not in line and "\t" not in line and not re.search(r"\S\s{2,}\S", line):
        return []
    out = spans_between(_CELL_SPLIT, line)
    return out if len(out) >= 2 else []


def _column_of(text: str, pos: int) -> tuple[int, int] | None:
    """(line start, cell index) of the table cell holding ``pos``, or None outside tables."""
    a = text.rfind("\n", 0, pos) + 1
    b = text.find("\n", pos)
    line = text[a:len(text) if b < 0 else b]
    for i, (x, y) in enumerate(_cells(line)):
        if x <= pos - a < y or (pos - a < x and i == 0):
            return a, i
    return None


@lru_cache(maxsize=64)
def _table_cells(text: str) -> tuple[tuple[int, int, int, int, str], ...]:
    """(start, end, table, column, header) of every cell of the CSV, pipe and fixed-width tables
    of ``text`` as the table reader reads them: a blank cell keeps its column ("Debit" and
    "Credit" apart in a bank statement), which a split at runs of spaces would close up."""
    return tuple((c.start, c.end, g, j, t.header[j].text if j < len(t.header) else "")
                 for g, t in enumerate(_row_tables(text)) for row in t.rows for j, c in enumerate(row))


@lru_cache(maxsize=64)
def _cell_starts(text: str) -> tuple[tuple[int, ...], tuple[tuple[int, int, int, int, str], ...]]:
    cells = tuple(sorted(_table_cells(text)))
    return tuple(c[0] for c in cells), cells


def _table_cell(text: str, pos: int) -> tuple[int, int, int, int, str] | None:
    """The table cell holding ``pos`` (a binary search: a long export has thousands of cells)."""
    starts, cells = _cell_starts(text)
    i = bisect.bisect_right(starts, pos) - 1
    return cells[i] if i >= 0 and cells[i][0] <= pos < cells[i][1] else None


def column_label(text: str, q: Quantity) -> str:
    """The header cell above a table value ("Amount (EUR)", "amount_eur"), or "" outside tables."""
    if (c := _table_cell(text, q.start)) is not None:
        return c[4]
    return _column_label(text, q, text.rfind("\n", 0, q.start) + 1)


def _column_label(text: str, q: Quantity, line_a: int) -> str:
    """The header cell above a value: the first line of its table block, same cell index."""
    col = _column_of(text, q.start)
    if col is None:
        return ""
    a = line_a
    while a > 0:
        prev_a = text.rfind("\n", 0, a - 1) + 1
        prev = text[prev_a:a - 1]
        if not _cells(prev):
            break
        a = prev_a
    header = text[a:text.find("\n", a) if text.find("\n", a) >= 0 else len(text)]
    cells = _cells(header)
    return header[cells[col[1]][0]:cells[col[1]][1]] if col[1] < len(cells) else ""


def _columns(text: str, qs: list[Quantity]) -> list[list[Quantity]]:
    """Values in one column of one table block, three or more of them."""
    blocks: dict[tuple[int, int], list[Quantity]] = {}
    for q in qs:
        if (c := _table_cell(text, q.start)) is not None:
            blocks.setdefault((-1 - c[2], c[3]), []).append(q)  # a parsed table's column
            continue
        col = _column_of(text, q.start)
        if col is None:
            continue
        # the block starts at the first line of consecutive table rows
        a = col[0]
        while a > 0:
            prev_a = text.rfind("\n", 0, a - 1) + 1
            if not _cells(text[prev_a:a - 1]):
                break
            a = prev_a
        blocks.setdefault((a, col[1]), []).append(q)
    return [v for v in blocks.values() if 3 <= len(v) <= MAX_COLUMN and len({(q.kind, q.unit) for q in v}) == 1]


def _num(q: Quantity) -> Decimal:
    """The value as arithmetic adds it: an accounting negative ("(150.00)") is negative."""
    return q.signed


def _same_money(a: Quantity, b: Quantity) -> bool:
    return a.kind == b.kind == "money" and a.unit == b.unit


def _eval(name: str, **kw):
    try:
        return _F[name].evaluate(kw)
    except (FormulaError, ArithmeticError):
        return None


def _same_day(value: dt.date, h: Quantity) -> bool:
    """A computed date meets the claimed one: on the day, or in the month of a claim that names
    only a month ("ends in July 2026"), or on the day and month of one without a year."""
    if h.unit == "monthyear":
        return (value.year, value.month) == (h.value.year, h.value.month)
    if h.unit == "noyear":
        return (value.month, value.day) == (h.value.month, h.value.day)
    return value == h.value


def _in_year_of(q: Quantity, other: Quantity) -> dt.date:
    """A day and month without a year ("the mouse activity identified on 20 November"), counted
    from or to a full date, is read in the year that puts it nearest that date (a letter of
    3 January refers to the December just gone)."""
    if q.unit != "noyear" or other.unit == "noyear":
        return q.value
    near = []
    for y in (other.value.year - 1, other.value.year, other.value.year + 1):
        with contextlib.suppress(ValueError):  # 29 February in a year without one
            near.append(q.value.replace(year=y))
    return min(near, key=lambda d: abs((d - other.value).days), default=q.value)


def _in_unit(days: int, unit: str | None, a: dt.date, b: dt.date) -> Decimal | None:
    """A span between two dates in the claim's unit: days exactly, weeks as days / 7, months and
    years only when the day of the month lines up (1 March to 1 June is 3 months)."""
    if unit in ("day", None):
        return Decimal(days)
    if unit == "week":
        return Decimal(days) / 7
    if unit in ("month", "year") and a.day == b.day:
        months = Decimal((b.year - a.year) * 12 + b.month - a.month)
        return months if unit == "month" else months / 12
    return None


def _add(d: dt.date, dur: Quantity) -> dt.date | None:
    n = Decimal(dur.value)
    if dur.unit in ("day", "week"):
        days = n * (7 if dur.unit == "week" else 1)
        return _eval("add_days", d=d, n=days) if days == days.to_integral_value() else None
    if dur.unit in ("month", "year") and n == n.to_integral_value():
        months = int(n) * (12 if dur.unit == "year" else 1)
        y, m = divmod(d.month - 1 + months, 12)
        try:
            return d.replace(year=d.year + y, month=m + 1)
        except ValueError:
            return None
    return None


# a margin between two bare numbers is computed only where it is not a small figure any two
# values of a record differ by
MARGIN_MIN = 100


# a claimed percentage named as a change: "the planned rise in the fee amounts to 15%"
_CHANGE_NOUN = re.compile(r"\b(?:rise|increase|growth|uplift|hike|fall|drop|decrease|decline|reduction|cut)s?\b", re.I)
_MORE = re.compile(r"higher|more|greater|larger|bigger|dearer|costlier|longer|later|heavier|above|exceed|surpass|overr[au]n|beat|outperform", re.I)
_LESS = re.compile(r"lower|less|fewer|smaller|cheaper|shorter|earlier|sooner|lighter|below|short|miss|underperform", re.I)
_UP = re.compile(r"increas|rais|rose|rise|risen|grew|grow|up\b", re.I)
_DOWN = re.compile(r"reduc|lower|cut|fell|fall|drop|decreas|down\b", re.I)


# words that label every rate, so name none
_RATE_WORDS = {stem(w) for w in ("rate", "rates", "price", "fee", "cost", "charge", "per", "unit", "at")}


def _rate_words(ev: str, q: Quantity) -> set[str]:
    """The words that name a rate, in its clause before it: "internal" of "rates: internal GBP
    38.00/h, external GBP 95.00/h"; "requested, hotel" of "Requested: hotel at USD 489/night"."""
    a = max(ev.rfind("\n", 0, q.start), ev.rfind(",", 0, q.start), ev.rfind(";", 0, q.start)) + 1
    return {s for _, s in content_tokens(ev, a, q.start)} - _RATE_WORDS


def _rival_rate(ev: str, a: Quantity, c: Quantity, kin: list[Quantity], claim: set[str]) -> bool:
    """The record states other rates per the same unit ("internal GBP 38.00/h, external GBP
    95.00/h"), and neither the count's row nor the claim names this one: which rate applies is
    not shown, or another is."""
    if not a.per or not any(b is not a and b.per == a.per and _num(b) != _num(a) for b in kin):
        return False
    return not (_rate_words(ev, a) & (operand_words(ev, c) | claim))


def _named_margins(hyp: str, h: Quantity, ev: str, tied: list[Quantity]) -> list[Reading]:
    """The difference of two counts the claim ties by its words, for a bare number the claim gives
    as a margin, the right way round: "the closing balance is 620 lower than the opening balance"
    (the value tied to the words before the margin is the smaller), "units fell by 2,100" (the
    value the record gives later is the smaller)."""
    if h.op or abs(Decimal(h.value)) < MARGIN_MIN:
        return []
    if (after := MARGIN_AFTER.match(hyp, h.end)) is not None:
        cue, subject, reference = after.group(0), (0, h.start), (h.end, len(hyp))
    elif (by := CHANGE_BY.search(hyp, 0, h.start)) is not None:
        verb = re.match(r"\w+", hyp[by.start():]).group(0)
        cue, subject, reference = verb, (0, by.start()), (by.start() + len(verb), h.start)
    else:
        return []
    order = "text" if _UP.match(cue) or _DOWN.match(cue) else "words"
    if order == "text":
        more_later = bool(_UP.match(cue))
    elif _MORE.search(cue) or _LESS.search(cue):
        subject_more = bool(_MORE.search(cue)) and not _LESS.search(cue)
    else:
        return []  # "adjusted by": no direction to check
    words = [{s for _, s in content_tokens(hyp, *subject)}, {s for _, s in content_tokens(hyp, *reference)}]
    out = []
    for a, b in itertools.combinations([e for e in tied if e.kind == "number" and e.unit is None], 2):
        hi, lo = (a, b) if _num(a) >= _num(b) else (b, a)
        if _num(hi) - _num(lo) != Decimal(h.value):
            continue
        if order == "text":
            ok = (hi.start > lo.start) == more_later
        else:
            # which value the words before the margin name, which the words after it
            ties = [[len(operand_words(ev, o) & w) for w in words] for o in (hi, lo)]
            hi_subject, lo_subject = ties[0][0] > ties[0][1], ties[1][0] > ties[1][1]
            hi_reference, lo_reference = ties[0][1] > ties[0][0], ties[1][1] > ties[1][0]
            ok = (hi_subject and lo_reference) if subject_more else (lo_subject and hi_reference)
        if ok:
            out.append(Reading(_num(hi) - _num(lo), (hi, lo), f"{hi.text} - {lo.text}", True))
    return out


def readings(hyp: str, h: Quantity, ev: str, eqs: list[Quantity], *, tie: bool = True) -> list[Reading]:
    """Every computation over tied evidence values that gives the claimed value ``h`` (``tie``
    False: over every value of the record, for ``derive_unique``'s last resort)."""
    claim = {s for _, s in content_tokens(hyp)}
    pool = [e for e in eqs if e.unit != "ref" and not _numbers_a_thing(ev, e)][:MAX_OPERANDS]
    tied = [e for e in pool if operand_words(ev, e) & claim] if tie else pool
    approx = approximate(hyp, h)
    noun = counted_noun(hyp, h) if h.kind == "number" else None
    hmeasure = measure(hyp, h)
    conv = _converted(hyp, h, hmeasure, ev, pool, claim) if hmeasure is not None else []
    # what adds to a measure is a value in its unit, or a bare figure under a label naming that
    # unit ("Weight (kg)", "Tonnes"): "head: 212" counts animals, never millilitres of a dose.
    # (Bare counts still divide and multiply: 3,936 kg over 3,200 cones.)
    adds_to = (lambda e: e.kind != "number" or measure(ev, e) == hmeasure or (measure(ev, e) is None and _label_unit(ev, e) == hmeasure)
               ) if hmeasure is not None else (lambda e: True)
    apool = [e for e in pool if adds_to(e)]
    atied = [e for e in tied if adds_to(e)]
    if h.kind == "number" and (noun is None or re.match(r"-[A-Za-z]", hyp[h.end:h.end + 2])):
        # a bare number, or a measure word ("20-foot"): nothing says what it counts, unless it is
        # the sum of a column the claim names ("total debits came to 2,492.37" under "Debit"),
        # or the margin between two values the claim names ("the closing balance is 620 lower
        # than the opening balance")
        bare = conv + _named_column_sums(hyp, h, ev, apool, claim) + _named_margins(hyp, h, ev, atied) + [
            Reading(total, ops, how, True) for ops, total, how in _row_filtered_sums(ev, h, apool, claim)
            if precise(h.value) and SUM_CUE.search(hyp) and _close(Decimal(h.value), total, False, True)]
        if hmeasure is None:
            return bare
        conv = bare  # a measure also adds and subtracts values in its own unit, below
    if noun is not None and hmeasure is None:  # a count adds and subtracts counts of the same thing only
        tied = [e for e in tied if e.kind != "number" or noun in operand_words(ev, e) | {counted_noun(ev, e)}]
    if h.op and h.kind != "duration" and not approx and not (h.kind == "date" and h.op == "<="):
        # a threshold ("above 500 units", "limited to $10,000") is stated, not computed; a
        # deadline ("due by 3 October") is a date plus a period like any other date
        return conv
    out: list[Reading] = list(conv)

    def hit(value, ops, how, op="ratio"):
        if value is None or isinstance(value, dt.date) != (h.kind == "date"):
            return
        if h.kind == "date":
            ok = _same_day(value, h)
        elif h.op:  # "more than two years"; "just over 10%" is also near 10
            ok = holds(Decimal(value), h.op, Decimal(h.value)) and (not approx or _close(Decimal(h.value), Decimal(value), approx))
        else:
            ok = _close(Decimal(h.value), Decimal(value), approx, op in _EXACT)
        if ok:
            out.append(Reading(value, tuple(ops), how, op in _EXACT and not approx and not h.op))

    def hit_signed(value, ops, how, op="sum"):
        """A result that is negative (a net credit) meets a claim that states its magnitude only
        where the claim calls it a credit or deduction, or every operand of its kind is one."""
        if isinstance(value, Decimal) and value < 0 and h.sign > 0 and (
                h.deduct or all(o.sign < 0 for o in ops if o.kind == h.kind)):
            value = -value
        hit(value, ops, how, op)

    if h.kind in ("money", "number"):
        # (a measure adds and subtracts values in its own unit, or bare under a header, never in another unit)
        same = [e for e in tied if e.kind == h.kind and (h.kind != "money" or e.unit == h.unit) and adds_to(e)]
        counts = [e for e in tied if e.kind == "number"]
        rates = [e for e in tied if e.kind == "percent"]
        adds = bool(SUM_CUE.search(hyp))
        for a, b in itertools.combinations(same, 2):
            if _num(a) == _num(b):
                continue  # one value stated twice, not two operands
            if adds:
                hit_signed(_eval("sum", a=_num(a), b=_num(b)), (a, b), f"{a.text} + {b.text}")
            if a.sign == b.sign:  # a credit taken from an amount is their sum, never a difference of magnitudes
                hi, lo = (a, b) if _num(a) >= _num(b) else (b, a)
                hit(_eval("difference", a=_num(hi), b=_num(lo)), (hi, lo), f"{hi.text} - {lo.text}", "difference")
        kin = [e for e in pool if e.kind == h.kind and (h.kind != "money" or e.unit == h.unit) and adds_to(e)]
        n_stated = stated_count(hyp, h)
        for col in _columns(ev, kin) + _listed(ev, kin, n_stated):
            if _qualified_otherwise(column_label(ev, col[0]), claim):
                continue  # a "Net (t)" column is no "combined gross weight"
            # a whole column's sum is the column's total, claimed as such or not ("the premium for
            # vehicle 2 is ..."): unlike two cells picked from it, no coincidence
            if any(operand_words(ev, e) & claim for e in col) or (
                    adds and len(col) == n_stated and _heading_words(ev, col[0]) & claim):
                hit_signed(sum(_num(e) for e in col), tuple(col), " + ".join(e.text for e in col), "column")
        if adds and precise(h.value):
            for run in _headed(ev, kin, claim):
                hit_signed(sum(_num(e) for e in run), tuple(run), " + ".join(e.text for e in run), "column")
            # every charge of the record, each rate times its one count ("Labour: 2.5 h @ $118.00/h
            # Materials: $64.50; $22.00  Trip charge: $45.00" for "the total charges come to
            # $426.50"): one reading over all of them, so no choice of a subset
            every = _terms(ev, kin, pool)
            if 2 <= len(every) <= MAX_TERMS and sum(len(ops) for ops, _, _ in every) == len({id(o) for ops, _, _ in every for o in ops}):
                hit_signed(sum(t for _, t, _ in every), tuple(o for ops, _, _ in every for o in ops), " + ".join(how for _, _, how in every), "column")
        if adds:
            for ops, total, how in _sums_of_terms(ev, same, tied, claim, n_stated):
                hit_signed(total, ops, how)
            known = {frozenset((o.start, o.end) for o in r.operands) for r in out}
            for ops, total, how in _row_filtered_sums(ev, h, apool, claim):
                if frozenset((o.start, o.end) for o in ops) not in known:
                    hit_signed(total, ops, how, "column")
        if h.kind == "money" and h.per in _PER_YEAR:
            for a in same:  # "EUR 750/month" is EUR 9,000 a year: calendar periods convert exactly
                if a.per in _PER_YEAR and a.per != h.per:
                    f = _PER_YEAR[a.per] / _PER_YEAR[h.per]
                    hit(_num(a) * f, (a,), f"{a.text} x {f.normalize():f}", "product")
        # (a measure shared out says it is an average: "each of the three packages weighs 4.9 kg"
        # is no average of 14.6 kg)
        divides = bool((_AVERAGE if hmeasure else _RATIO_CUE).search(hyp)) and not _NOT_AVERAGE.search(hyp)
        if h.kind == "money" and h.per and divides:
            # an amount for a period, per unit of that period ("GBP 9,840 for her 12-week notice"
            # works out at GBP 820 per week)
            for a in same:
                for d in tied:
                    if not a.per and d.kind == "duration" and d.unit == h.per and _num(d) not in (0, 1):
                        hit(_eval("ratio", a=_num(a), b=_num(d)), (a, d), f"{a.text} / {d.text}")
        for a in same:
            for c in counts:
                if c is a or _num(c) in (0, 1):
                    continue
                if h.kind == "money" and not _rival_rate(ev, a, c, kin, claim):
                    # a unit price times a quantity; counts times counts are ``derived``'s
                    hit(_eval("product", a=_num(a), b=_num(c)), (a, c), f"{a.text} x {c.text}", "product")
                if divides:
                    hit(_eval("ratio", a=_num(a), b=_num(c)), (a, c), f"{a.text} / {c.text}")
            for r in rates:
                if (only := _rate_only_on(ev, r)) and only not in operand_words(ev, a, after=0):
                    continue  # "a 5% discount applies to labour only": not to the whole of CAD 4,280.00
                if operand_words(ev, r) & _TAKES_AWAY:
                    hit(_eval("minus_rate", a=_num(a), r=_num(r)), (a, r), f"{a.text} - {r.text}")
                else:
                    hit(_eval("plus_rate", a=_num(a), r=_num(r)), (a, r), f"{a.text} + {r.text}")
                hit(_eval("part_at_rate", a=_num(a), r=_num(r)), (a, r), f"{r.text} of {a.text}")
    elif h.kind == "percent":
        changes = bool(_CHANGE_NOUN.search(hyp)) or bool(CHANGE_BY.search(hyp, 0, h.start))
        for kind in ("money", "number"):
            vals = [e for e in tied if e.kind == kind]
            for a, b in itertools.permutations(vals, 2):
                if (kind == "money" and a.unit != b.unit) or _num(b) == 0:
                    continue
                na, nb = counted_noun(ev, a), counted_noun(ev, b)
                if kind == "number" and (na == nb is None or (na and nb and na != nb)):
                    continue  # a share of counts of one thing, not of 1.5 (a multiple) and 45 (days)
                if not changes:  # "a rise of 15%" is no share of two counts
                    hit(_eval("share", a=_num(a), b=_num(b)), (a, b), f"{a.text} / {b.text}")
                if _num(a) > _num(b):
                    hit(_eval("change", a=_num(a), b=_num(b)), (a, b), f"({a.text} - {b.text}) / {b.text}")
                elif _num(a) < _num(b):
                    hit(_eval("change", a=_num(b), b=_num(a)), (b, a), f"({b.text} - {a.text}) / {a.text}")
                    hit(_eval("share", a=_num(b) - _num(a), b=_num(b)), (b, a), f"({b.text} - {a.text}) / {b.text}")
        pct = [e for e in tied if e.kind == "percent"]
        for a, b in itertools.combinations(pct, 2):
            hi, lo = (a, b) if _num(a) >= _num(b) else (b, a)
            hit(_num(hi) - _num(lo), (hi, lo), f"{hi.text} - {lo.text}", "difference")
    elif h.kind == "duration":
        fam = FAMILY.get(h.unit, (h.unit, 1))[0]
        days = [e for e in tied if e.kind == "date" and e.unit != "monthyear"]  # a month has no day to count from
        if fam in ("day", "month"):
            for a, b in itertools.combinations(days, 2):
                lo, hi = sorted((_in_year_of(a, b), _in_year_of(b, a)))
                if lo == hi:
                    continue
                n = _eval("days", a=hi, b=lo)
                v = _in_unit(int(n), h.unit, lo, hi) if n is not None else None
                if v is not None:
                    hit(v, (a, b), f"{a.text} to {b.text}", "days")
        if SUM_CUE.search(hyp):
            # a column of bare figures whose label names the unit ("Hours out of service",
            # "duration_min"), named by the claim's words or counted by it ("the four cases")
            n_stated = stated_count(hyp, h)
            fh = FAMILY.get(h.unit, (h.unit, Decimal(1)))[1]
            for (label, unit), cells in _unit_columns(ev, pool).items():
                if FAMILY[unit][0] == fam and len(cells) >= 2 and (
                        {s for _, s in content_tokens(label)} & claim or len(cells) == n_stated):
                    # (1/60 of an hour is inexact: rounded back, 840 minutes is 14 hours exactly)
                    v = (sum(_num(c) for c in cells) * FAMILY[unit][1] / fh).quantize(Decimal("1e-9")).normalize()
                    hit(v, tuple(cells), " + ".join(c.text for c in cells), "column")
        durs = [e for e in tied if e.kind == "duration" and FAMILY.get(e.unit, (e.unit, 1))[0] == fam]
        for a, b in itertools.combinations(durs, 2):
            fa, fb, fh = (FAMILY.get(x.unit, (x.unit, Decimal(1)))[1] for x in (a, b, h))
            va, vb = _num(a) * fa / fh, _num(b) * fb / fh
            hit(va + vb, (a, b), f"{a.text} + {b.text}", "sum")
            hi, lo = (a, b) if va >= vb else (b, a)
            hit(abs(va - vb), (hi, lo), f"{hi.text} - {lo.text}", "difference")
    elif h.kind == "date":
        # a month without a day adds whole months only; a day without a year adds nothing
        for d in (e for e in tied if e.kind == "date" and e.unit is None or (e.unit == "monthyear" and h.unit == "monthyear")):
            for n in (e for e in tied if e.kind == "duration"):
                if (after := _counted_from(ev, n)) and len(after & operand_words(ev, d)) < max(
                        (len(after & operand_words(ev, o)) for o in pool if o.kind == "date"), default=0):
                    continue  # "7 days after the statement date": from the date so labelled, not the period's end
                v = _add(d.value, n)
                if v is not None:
                    hit(v, (d, n), f"{d.text} + {n.text}", "add_days")
                    if h.frame == "end" and h.unit is None and n.unit in ("month", "year"):
                        # a term of 12 months from 1 July 2025 runs through 30 June 2026
                        hit(v - dt.timedelta(days=1), (d, n), f"{d.text} + {n.text} - 1 day", "add_days")
    return out


_JSON_KEY = re.compile(r'"([A-Za-z][\w -]*)"\s*:\s*$')
_LABEL_UNITS = [(re.compile(rf"(?:{rx})", re.I), unit) for rx, unit in _DURATION_UNITS if unit in FAMILY]


def _label_unit(ev: str, e: Quantity) -> tuple[str, str] | None:
    """(dimension, unit) a bare figure's column header or JSON key names: "Weight (kg)",
    "Gross (t)", "volume_ml"; a header naming a dimension alone ("Weight") takes its one unit
    when the record writes just one unit of it."""
    label = column_label(ev, e) or ((m := _JSON_KEY.search(ev, max(0, e.start - 60), e.start)) and m.group(1)) or ""
    for w in re.split(r"[^A-Za-z²³0-9]+", label):
        if w and not w.isdigit() and (u := _unit_name(w)):
            return (_UNIT_OF[u][0], _CANONICAL[u])
    return _record_unit(ev) if label else None


_RECORD_UNIT = re.compile(r"\b(?:Units?|UoM|Unit\s+of\s+measure|All\s+(?:figures|quantities|volumes|weights)\s+(?:are\s+)?in)\s*[:=]?\s*"
                          r"(?P<u>[A-Za-z][A-Za-z ]*?)\s*(?:\((?P<abbr>[A-Za-z²³0-9 ]+)\))?\s*(?:$|[.;,|])", re.I | re.M)


@lru_cache(maxsize=256)
def _record_unit(ev: str) -> tuple[str, str] | None:
    """The one unit a record says its table figures are in: "Units: cubic metres (m3)"."""
    found = {_CANONICAL[u] for m in _RECORD_UNIT.finditer(ev) for w in (m["u"], m["abbr"]) if w and (u := _unit_name(w.strip()))}
    if len(found) != 1:
        return None  # none, or two ("Units: kg" and "Units: litres"): which is whose is not shown
    u = found.pop()
    return (_UNIT_OF[u][0], u)


def _unit_columns(ev: str, pool: list[Quantity]) -> dict[tuple[str, str], list[Quantity]]:
    """Bare figures grouped by a label that names a unit of time: a table column's header or a
    JSON key ("Hours out of service", "duration_min", "Downtime (min)"). {(label, unit): cells}"""
    out: dict[tuple[str, str], list[Quantity]] = {}
    for e in pool:
        if e.kind != "number" or e.unit is not None or e.op:
            continue
        label = column_label(ev, e) or ((m := _JSON_KEY.search(ev, max(0, e.start - 60), e.start)) and m.group(1)) or ""
        for word in re.split(r"[^A-Za-z]+", label):
            unit = next((u for rx, u in _LABEL_UNITS if word and rx.fullmatch(word)), None)
            if unit:
                out.setdefault((label, unit), []).append(e)
                break
    return out


# qualifiers that make a value another slot than the one claimed ("subtotal", "net amount")
QUALIFIERS = {stem(w) for w in (
    "subtotal", "sub-total", "net", "gross", "partial", "deposit", "tax", "vat", "discount", "balance",
    "interim", "estimated", "previous", "prior", "original", "revised", "outstanding", "remaining",
    "shipping", "freight", "handling", "surcharge", "advance", "tare",
)}


def _qualified_otherwise(label: str, claim: set[str]) -> bool:
    """A label carrying a qualifier the claim does not ("Net (t)" for a claimed gross weight)."""
    return any(s in QUALIFIERS and s not in claim for _, s in content_tokens(label))


def _named_column_sums(hyp: str, h: Quantity, ev: str, pool: list[Quantity], claim: set[str]) -> list[Reading]:
    """A bare figure claimed as the sum of a table column whose label a claim word names, the
    figure precise (``PRECISE_DIGITS``) and the claim saying it adds: an unlabelled amount column
    ("Debit", "Credit") holds no currency for the figure to carry."""
    if not (precise(h.value) and SUM_CUE.search(hyp)):
        return []
    out = []
    for col in _columns(ev, [e for e in pool if e.kind == "number" and e.unit is None]):
        label = {s for _, s in content_tokens(column_label(ev, col[0]))}
        total = sum(_num(e) for e in col)
        if label & claim and not _qualified_otherwise(column_label(ev, col[0]), claim) and _close(Decimal(h.value), total, False, True):
            out.append(Reading(total, tuple(col), " + ".join(e.text for e in col), True))
    return out


@lru_cache(maxsize=64)
def _row_tables(text: str):
    """The parsed CSV, pipe and fixed-width tables of ``text`` (the table reader's, cached)."""
    from warrant.runtime.verify.parsers.tables import find_tables

    return tuple(t for t in find_tables(text) if t.kind != "kv")


def _row_filtered_sums(ev: str, h: Quantity, pool: list[Quantity], claim: set[str]):
    """Sums of one column over the rows a claim word picks out ("deposits from Square came to
    ..." over the rows whose description says SQUARE): two or more rows, the word in a text cell of
    each picked row and of no other row of the table. The column holds the claim's kind of value
    (bare figures count as an amount where the record names no currency)."""
    at = {q.start: q for q in pool}
    currencies = {q.unit for q in pool if q.kind == "money"}
    fits = (lambda q: q.kind == h.kind and q.unit == h.unit) if h.kind != "money" else (
        lambda q: (q.kind == "money" and q.unit == h.unit) or (q.kind == "number" and q.unit is None and currencies <= {h.unit}))
    for t in _row_tables(ev):
        rows = [r for r in t.rows if r and not re.match(r"(?i)\s*(?:sub)?totals?\b", r[0].text)]
        words = [{s for c in r if not _NUMERIC_CELL.match(c.text) for _, s in content_tokens(c.text)} for r in rows]
        for j in range(max((len(r) for r in rows), default=0)):
            vals = [next((q for q in (at.get(c.start) for c in r[j:j + 1]) if q is not None and fits(q)), None) for r in rows]
            have = [i for i, v in enumerate(vals) if v is not None]
            seen = set()
            for w in sorted(claim):
                pick = tuple(i for i in have if w in words[i])
                if (len(pick) >= 2 and pick not in seen and not all(w in ws for ws in words)
                        and not any(w in words[i] for i in range(len(rows)) if i not in pick)):
                    seen.add(pick)
                    ops = tuple(vals[i] for i in pick)
                    yield ops, sum(_num(o) for o in ops), " + ".join(o.text for o in ops) + f" (the rows that say {w!r})"


_NUMERIC_CELL = re.compile(r"^[\s$€£¥₹(+-]*[\d.,' ’]+\s*%?\)?\s*[A-Z]{0,3}$")


# the most terms (amounts, or a rate times its count) one sum looks at, and the most it adds: a
# claim adding three or four named parts is common, a search over every subset of a long table is
# not (a whole column's sum is read apart, ``_columns``)
MAX_TERMS = 10
MAX_ADDENDS = 4
_TIMES = {"hour", "day", "week", "month", "year"}


_AFTER_WHAT = re.compile(r"\s*(?:after|from|following|of)\s+(?:the\s+|its\s+)?(?P<what>(?:[A-Za-z-]+\s+){0,2}[A-Za-z-]+)", re.I)


def _counted_from(ev: str, n: Quantity) -> set[str]:
    """The content words of what a period counts from, as its sentence says ("7 days after the
    statement date": statement, date), or none."""
    m = _AFTER_WHAT.match(ev, n.end)
    return {s for _, s in content_tokens(m["what"])} if m else set()


def stated_count(hyp: str, h: Quantity) -> int | None:
    """How many things the claim says it adds ("the three line items total ...", "all 4 invoices
    come to ..."): a whole count before the claimed value, 2 to ``MAX_COLUMN``."""
    # the registry reads signs with this module's column labels: imported here, not at the top
    from warrant.runtime.verify.rules.registry import extract_quantities

    if h.kind not in ("money", "number", "duration") or not SUM_CUE.search(hyp):
        return None
    for q in extract_quantities(hyp):
        if (q.kind == "number" and q.unit != "ref" and q.start < h.start and q.op is None
                and q.value == int(q.value) and 2 <= q.value <= MAX_COLUMN and _COUNTS_PLURAL.match(hyp, q.end)):
            return int(q.value)
    return None


# the count is of a plural noun, up to two words on ("three line items", "all 4 invoices"), not
# the number of a thing ("revision 3 took effect")
_COUNTS_PLURAL = re.compile(r"\s+(?:[A-Za-z-]+\s+){0,2}?[A-Za-z-]+s\b(?!\s+(?:of|is|was)\b)")


def _heading_words(text: str, q: Quantity) -> set[str]:
    """Content stems of the line right above a list or table block ("Line items:")."""
    a = text.rfind("\n", 0, q.start)
    if a <= 0:
        return set()
    b = text.rfind("\n", 0, a) + 1
    return {s for _, s in content_tokens(text, b, a)}


def _listed(text: str, qs: list[Quantity], n: int | None) -> list[list[Quantity]]:
    """A run of exactly ``n`` consecutive lines holding one value each ("Chairs: $600" over three
    lines), when the claim says it adds ``n`` things: a list's column."""
    return [run for run in _runs(text, qs) if n and len(run) == n]


# words that say how a block counts, not what it holds ("Less: outstanding cheques")
_BLOCK_SIGNS = {stem(w) for w in ("less", "add", "plus", "minus", "deduct", "deductions", "additions")}


def _headed(text: str, qs: list[Quantity], claim: set[str]) -> list[list[Quantity]]:
    """Runs of two or more consecutive lines holding one value each, right under a heading line
    whose every content word (a sign word aside) the claim uses, two at least: "Less: outstanding
    cheques" over three cheque lines, for "outstanding cheques added up to ...". The claim names
    the block, so its sum is the block's total whether or not the claim counts its lines."""
    out = []
    for run in _runs(text, qs):
        # the block ends where the indentation does (the total line under it is not an item)
        first = _indent(text, run[0])
        run = list(itertools.takewhile(lambda q: _indent(text, q) == first, run))
        head = _heading_words(text, run[0]) - _BLOCK_SIGNS
        if len(run) >= 2 and len(head) >= 2 and head <= claim:
            out.append(run)
    return out


def _indent(text: str, q: Quantity) -> int:
    a = text.rfind("\n", 0, q.start) + 1
    return len(text[a:q.start]) - len(text[a:q.start].lstrip(" \t"))


def _runs(text: str, qs: list[Quantity]) -> list[list[Quantity]]:
    """Maximal runs of consecutive lines holding one of ``qs`` each (a list's column)."""
    lines: dict[int, list[Quantity]] = {}
    for q in qs:
        lines.setdefault(text.rfind("\n", 0, q.start) + 1, []).append(q)
    out, run, last_end = [], [], None
    for a in sorted(lines):
        if len(lines[a]) != 1:
            if run:
                out.append(run)
            run, last_end = [], None
            continue
        if last_end is not None and text.find("\n", last_end) + 1 != a:
            out.append(run)
            run = []
        run.append(lines[a][0])
        last_end = lines[a][0].end
    if run:
        out.append(run)
    return out


def _terms(ev: str, same: list[Quantity], tied: list[Quantity]) -> list[tuple[tuple[Quantity, ...], Decimal, str]]:
    """What a claimed total may add: each tied amount that is not a rate, and each rate times the
    one tied count of its period or thing ("6 hours at $85 per hour")."""
    out = [((e,), _num(e), e.text) for e in same if e.per is None]
    for r in same:
        if r.per is None:
            continue
        if r.per in _TIMES:
            counts = [c for c in tied if c.kind == "duration" and FAMILY.get(c.unit, (c.unit, 1))[0] == r.per]
        elif r.per == "unit":
            counts = [c for c in tied if c.kind == "number" and c.sign > 0]
        else:
            counts = []
        beside = [c for c in counts if _line_of(ev, c) == _line_of(ev, r)]
        if len({c.value for c in beside}) == 1:
            counts = beside  # "2.5 h @ $118.00/h": the count on the rate's own line, whatever else the record counts in hours
        if len({c.value for c in counts}) == 1:  # one count of its period: never a pick among several
            c = counts[0]
            product = _num(r) * Decimal(c.value)
            if any(_line_of(ev, e) == _line_of(ev, r) and _num(e) == product for e in same if e.per is None):
                continue  # "3 days @ USD 175.00/day ..... USD 525.00": the line states its amount, added as it is
            out.append(((r, c), product, f"{c.text} x {r.text}"))
    return out


def _line_of(text: str, q: Quantity) -> int:
    return text.rfind("\n", 0, q.start)


def _own_words(text: str, q: Quantity, qs: list[Quantity]) -> set[str]:
    """The words that label this value and no other: its table row, or in prose the words between
    the value before it and it ("rent $1,200, utilities $180": "utilities" for $180)."""
    a = text.rfind("\n", 0, q.start) + 1
    b = text.find("\n", q.end)
    if _cells(text[a:len(text) if b < 0 else b]):
        return operand_words(text, q)
    a = max([a, sentence_bounds(text, q.start)[0]] + [o.end for o in qs if o.end <= q.start])
    return {s for _, s in content_tokens(text, a, q.start)}


def _sums_of_terms(ev: str, same: list[Quantity], tied: list[Quantity], claim: set[str], n: int | None):
    """Sums of two to ``MAX_ADDENDS`` terms with distinct operands, at least one a product or
    three or more in all (two plain amounts are read above). Three or more terms need each to be
    named by a claim word no other term of the sum has, or the claim to count them."""
    terms = _terms(ev, same, tied)
    if len(terms) > MAX_TERMS:
        return
    words = [set().union(*(_own_words(ev, o, same) for o in ops)) & claim for ops, _, _ in terms]
    for k in range(2, min(MAX_ADDENDS, len(terms)) + 1):
        for pick in itertools.combinations(range(len(terms)), k):
            ops = [o for i in pick for o in terms[i][0]]
            if len({(o.start, o.end) for o in ops}) != len(ops) or (k == 2 and all(len(terms[i][0]) == 1 for i in pick)):
                continue
            if k >= 3 and n != k and not all(words[i] - set().union(*(words[j] for j in pick if j != i)) for i in pick):
                continue
            yield tuple(ops), sum(terms[i][1] for i in pick), " + ".join(terms[i][2] for i in pick)


def _converted(hyp: str, h: Quantity, hm: tuple[str, str], ev: str, pool: list[Quantity], claim: set[str]) -> list[Reading]:
    """A measure the evidence states in another unit of the same dimension ("about 390 square
    metres" against "4,200 sq ft"): equal at the claim's precision, or within 5% when it says
    "about". The evidence value must be tied to the claim by a word, like any operand."""
    out = []
    approx = approximate(hyp, h)
    for e in pool:
        em = measure(ev, e)
        if em is None or em[0] != hm[0] or em[1] == hm[1] or not (operand_words(ev, e) & claim):
            continue
        v = convert(Decimal(e.value), em[1], hm[1])
        if v is not None and _close(Decimal(h.value), v, approx) and (not h.op or holds(v, h.op, Decimal(h.value))):
            out.append(Reading(v, (e,), f"{e.text} {em[1]} = {v:.4g} {hm[1]}"))
    return out


def _numbers_a_thing(text: str, q: Quantity) -> bool:
    """"line 10", "Car no. 4", "Option 2": the value names an item, it is not an amount."""
    before = [s for _, s in content_tokens(text, max(0, q.start - 30), q.start)][-1:]
    return bool(before) and before[0] in _ORDINAL_LABELS and q.kind == "number"


# significant digits a claimed amount or count must have for two exact readings of it to count as
# one fact stated twice (a change order's total both as the sum of the changes and as the new sum
# less the original): "22,530" or "811.18", never "2,400" or "30"
PRECISE_DIGITS = 4


# significant digits a claimed value must have to be computed from values no claim word ties:
# an exact sum or product that lands on "11,275.50" among a record's figures is no coincidence,
# while one landing on "2,400" may well be
UNTIED_DIGITS = 5
# significant digits for a reading half tied: one operand labelled by a claim word, the other any
# value of the record ("a deposit of EUR 12,060" is the 25% "deposit" of the "Total: EUR 48,240.00").
# Chosen on the dev pairs: 8 more true claims computed there, none false
HALF_TIED_DIGITS = 3


def precise(value, digits: int = PRECISE_DIGITS) -> bool:
    return isinstance(value, Decimal) and value != 0 and len(abs(value).normalize().as_tuple().digits) >= digits


def derive_unique(hyp: str, h: Quantity, ev: str, eqs: list[Quantity], *, untied: bool = False) -> Reading | None:
    """The one reading that gives ``h``, or None when none or several do (two sets of operands).
    Several readings are one only when each is exact and the claimed value is precise: a record
    that states a total and its parts gives the same figure by two computations, while a loose
    value ("about 30", "2,400") met twice is two stories. ``untied``: when no reading ties its
    operands to the claim's words, an exact one over any values of the record, for a value of
    ``UNTIED_DIGITS`` significant digits (the caller has made sure the claim's slot is not stated), or
    the one reading with an operand tied, for a value of ``HALF_TIED_DIGITS``."""
    found = readings(hyp, h, ev, eqs)
    if not found and untied and precise(h.value, HALF_TIED_DIGITS):
        claim = {s for _, s in content_tokens(hyp)}
        every = readings(hyp, h, ev, eqs, tie=False)
        # one operand tied by a claim word: the computation is about the claim's thing; it must
        # be the only such reading (no choosing between two)
        found = [r for r in every if any(operand_words(ev, o) & claim for o in r.operands)]
        if len({frozenset((o.start, o.end) for o in r.operands) for r in found}) != 1:
            # no claim word ties an operand: only an exact computation landing on a precise figure
            found = [r for r in every if r.exact] if precise(h.value, UNTIED_DIGITS) else []
    distinct = {frozenset((o.start, o.end) for o in r.operands): r for r in found}
    # the same computation over a precise figure the record states twice (a table and its
    # summary), or over figures of three digits or more ("3,200 cones" invoiced and counted), is
    # one; over "1" or "30", stated in many places, it is a coincidence
    if len(distinct) == 1 or (len({r.how for r in distinct.values()}) == 1 and (
            precise(h.value) or all(abs(_num(o)) >= MARGIN_MIN for r in distinct.values() for o in r.operands if o.kind != "date"))):
        return next(iter(distinct.values()), None)
    if all(o.kind == "date" for r in distinct.values() for o in r.operands) and len(
            {tuple(sorted(_in_year_of(o, r.operands[-1]) for o in r.operands)) for r in distinct.values()}) == 1:
        return next(iter(distinct.values()))  # one span between two dates, one of them named twice ("identified on 20 November")
    if distinct and all(r.exact for r in distinct.values()) and precise(h.value):
        return min(distinct.values(), key=lambda r: len(r.operands))
    return None
