"""What every rule module shares: the ``Quantity`` a rule extracts, the ``QuantityCheck`` a
comparison answers, the ``Extractor`` plug-in interface, and the number grammar (digits, number
words, scale words) the extractors build on.

An extractor finds one kind of value in a text and claims its characters; the registry runs the
extractors in a fixed order (dates before money before bare numbers), so a span is read once, by
the most specific reader.
"""

from __future__ import annotations

import bisect
import datetime
import re
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Callable, Iterable, Iterator, Protocol

from text_to_num import text2num

from warrant.runtime.verify.text import sentence_bounds


@dataclass(frozen=True)
class Quantity:
    """One value found in a text."""

    kind: str  # "money" | "percent" | "date" | "number" | "duration"
    value: Decimal | datetime.date
    # currency code for money; "hour"/"day"/"week"/"month"/"year"/"business_day"/"minute" for
    # durations; "ref" for identifiers; "noyear" for a date written without its year, "monthyear" for one without its day; "points" for percentage points; for a bare
    # number, the stem of the noun it counts ("60 boxes" -> "box"), when one follows it
    unit: str | None
    start: int
    end: int
    text: str  # the verbatim slice text[start:end]
    op: str | None = None  # comparator governing the value in its sentence: ">", ">=", "<", "<=" or None (the value itself)
    per: str | None = None  # rate denominator for money/percent: "hour", "day", "week", "month", "year", "unit" (any counted thing)
    alt: tuple = field(default=(), compare=False)  # other readings of an ambiguous numeric date
    # "limit": a stated threshold (cap, floor, deadline, notice period); "value": an actual value
    # or a comparison with one; dates only: "range_start"/"range_end" (ends of "from X to Y"),
    # "start"/"end" (a date introduced by "from"/"until"...)
    frame: str = "value"
    # -1 for an amount written as negative ("(150.00)", "-$150", "$-150", "150.00 CR"); ``value``
    # stays the magnitude, so a claim stating it still meets it, and ``signed`` is what arithmetic adds
    sign: int = 1
    # a word of something that reduces a balance labels the value ("allowance", "discount",
    # "credit", "refund", "CR"): its magnitude is what a claim naming it states
    deduct: bool = False

    @property
    def signed(self) -> Decimal:
        """The value with its sign, for sums and differences (numbers only)."""
        return Decimal(self.value) * self.sign


@dataclass(frozen=True)
class QuantityCheck:
    status: str  # "agree" | "conflict" | "absent"
    reason: str
    hypothesis: Quantity | None
    evidence: Quantity | None  # the evidence value that decided it (offsets into the evidence text)
    span: tuple[int, int] | None = None  # evidence offsets of what decided it: the value, or for a polarity flip the clause

    def __post_init__(self):
        if self.span is None and self.evidence is not None:
            object.__setattr__(self, "span", (self.evidence.start, self.evidence.end))


# (start, end, kind, value, unit, per, alt): what an extractor reports for one value
Found = tuple[int, int, str, object, "str | None", "str | None", tuple]


class Claims(Protocol):
    """The registry's record of which characters are already read, whether the text writes
    decimals with a comma, and which dollar a bare "$" is (``money.record_dollar``)."""

    decimal_comma: bool
    dollar: str

    def free(self, a: int, b: int) -> bool: ...
    def take(self, a: int, b: int) -> None: ...


@dataclass(frozen=True)
class Extractor:
    """One kind of value. ``find`` yields the values it reads in a text, skipping characters an
    earlier extractor already took (``claims.free``); the registry takes what it yields."""

    name: str
    find: Callable[[str, Claims], Iterable[Found]]


# --------------------------------------------------------------------------------------------
# The number grammar
# --------------------------------------------------------------------------------------------

UNITS_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
    "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
}
TENS_WORDS = {
    "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
    "eighty": 80, "ninety": 90,
}
_SMALL = "|".join(sorted(UNITS_WORDS, key=len, reverse=True))
_TENS = "|".join(TENS_WORDS)
_WORD_PART = rf"(?:(?:{_TENS})(?:[- ](?:{_SMALL}))?|(?:{_SMALL}))"
# "four hundred", "one thousand two hundred and fifty", "twelve thousand": read by text2num
WORDNUM = (
    rf"(?:{_WORD_PART}(?:\s+hundred)?(?:\s+thousand)?(?:(?:\s+and)?\s+{_WORD_PART}(?:\s+hundred)?)?"
    rf"(?:(?:\s+and)?\s+{_WORD_PART})?)"
)
# European grouping with a decimal comma ("1.234,50", "1 234,50" with a normal, thin or no-break
# space): unambiguous, read as 1234.50 anywhere. Dot groups alone ("1.234.567") are a number only
# in a record that uses decimal commas (``parse_num``); "1.234" alone stays 1.234 there unless so.
GROUP_SPACE = "[ \u00a0\u2009\u202f]"
# thousands grouped by a space, no decimals ("24 000"): one number where the record writes decimal
# commas or where it fills a cell alone
SPACE_GROUPED = rf"\d{{1,3}}(?:{GROUP_SPACE}\d{{3}})+"
EURO_DIGITS = rf"(?:\d{{1,3}}(?:\.\d{{3}})+,\d{{1,2}}|{SPACE_GROUPED},\d{{1,2}})(?!\d)"
_DOT_GROUPS = r"\d{1,3}(?:\.\d{3}){2,}(?![\d.])"
# A group pattern that is neither standard nor Indian ("1,2345", "12,3,456") is no number: the
# guard stops a reader from taking its first digits and reading a smaller number.
_GROUPS_END = r"(?!,?\d)"
# Indian grouping ("5,00,000" = 500000, "2,00,00,000" = 20000000): two-digit groups above the
# last three digits. It needs at least one two-digit group, so "1,000" stays standard.
INDIAN_DIGITS = rf"\d{{1,2}}(?:,\d{{2}})+,\d{{3}}(?:\.\d+)?{_GROUPS_END}"
# Swiss grouping with an apostrophe ("CHF 12'480.50", "250’000"): unambiguous wherever it appears
SWISS_DIGITS = r"\d{1,3}(?:['\u2019]\d{3})+(?:\.\d+)?(?![\d'\u2019])"
DIGITS = (
    rf"(?:{EURO_DIGITS}|{_DOT_GROUPS}|{INDIAN_DIGITS}|{SWISS_DIGITS}|\d{{1,3}}(?:,\d{{3}})+(?:\.\d+)?{_GROUPS_END}"
    rf"|\d+(?:\.\d+)?|\.\d+)"
)
# "thirty (30)" counts once, as 30; a bare digit string; or (where a unit follows) a number word
NUM = rf"(?:(?:{WORDNUM})\s*\(\s*{DIGITS}\s*\)|{DIGITS})"
NUMW = rf"(?:{NUM}|\b{WORDNUM}\b)"
# an amount next to a currency may also be written "12,50" (two decimals after a comma: no
# thousands group has two digits)
MONEY_NUM = rf"(?:\d+,\d{{2}}(?![\d.,])|{NUM}(?!,\d))"
MONEY_NUMW = rf"(?:{MONEY_NUM}|\b{WORDNUM}\b)"
_EURO_RE = re.compile(EURO_DIGITS)
_SHORT_COMMA_RE = re.compile(r"\d+,\d{2}")
_CURRENCY_COMMA_RE = re.compile(r"(?:[€£$]|\b[A-Z]{3})\s?\d+,\d{2}(?![\d.,])|(?<![\d.,])\d+,\d{2}\s?(?:[€£$]|zł|[A-Z]{3}\b)"
                                r"|(?<![\d.,])\d{1,3},\d{1,3}\s%")  # "9,975 %": a space before % is French typography


# a record that says how it writes numbers: "Quantities in European number format (1.234 = ...)"
_SAYS_DECIMAL_COMMA = re.compile(r"\b(?:european|continental|german)\s+(?:number|numeric|decimal)\s+format|\bdecimal\s+comma|\bvirgule\s+d[ée]cimale|"
                                 r"\bcomma\s+(?:is\s+|as\s+)?(?:the\s+)?decimal\s+(?:separator|mark|point)", re.I)


# "38,2" or "7,45": one or two digits after a comma (a thousands group has three), and "12.5": a decimal point
# (a comma between CSV cells is neither: "BUS-04,14/07/2025", "6.5,820.00", "07:00,06:48")
_COMMA_DECIMAL = re.compile(r"(?<![\w.,/:-])\d{1,4},\d{1,2}(?![\d.,/:])")
_POINT_DECIMAL = re.compile(r"(?<![\d.])\d+\.\d{1,2}(?![\d.])")


def uses_decimal_comma(texts: Iterable[str] | str) -> bool:
    """True when a text (or every text of one record) writes decimals with a comma somewhere
    unambiguous: "1.234,50", "1 234,50", an amount beside a currency ("EUR 12,50", "12,50 €"), or
    says so ("in European number format"), or writes three or more figures like "38,2" and "7,4"
    and no decimal point anywhere (a measurement log: "pH 7,4", "NH4-N 38,2 mg/l"; "clauses 4,5
    and 7,8" may be lists)."""
    for t in [texts] if isinstance(texts, str) else texts:
        if _EURO_RE.search(t) or _CURRENCY_COMMA_RE.search(t) or _SAYS_DECIMAL_COMMA.search(t):
            return True
        if len(_COMMA_DECIMAL.findall(t)) >= 3 and not _POINT_DECIMAL.search(t):
            return True
    return False
# scale words after a number; "lakh" (100,000) and "crore" (10,000,000) as written in India
SCALE_WORDS = r"(?:thousand|million|billion|lakhs?|lacs?|crores?)"
SCALE = rf"(?:(?:k|K|m|M|bn|mn)\b|\s+{SCALE_WORDS}\b)"
I = re.IGNORECASE


def words_to_number(words: str) -> int | None:
    """"four hundred" -> 400, "twenty-one" -> 21 (text2num); None when it is not a number."""
    w = re.sub(r"\s+", " ", words.lower().replace("-", " ")).strip()
    if not w:
        return None
    try:
        return int(text2num(w, "en"))
    except ValueError:
        return None


def parse_num(raw: str, decimal_comma: bool = False) -> Decimal | None:
    """A number as written; ``decimal_comma``: the record writes decimals with a comma, so "1.234"
    is 1234."""
    raw = raw.strip()
    m = re.search(r"\(\s*([\d,.]+)\s*\)", raw)
    if m:  # "thirty (30)": the digits win
        raw = m.group(1)
    if re.search(r"\d", raw):
        if _EURO_RE.fullmatch(raw) or _SHORT_COMMA_RE.fullmatch(raw):
            raw = re.sub(rf"[.]|{GROUP_SPACE}", "", raw).replace(",", ".")
        elif decimal_comma and re.fullmatch(r"\d+,\d+", raw):
            raw = raw.replace(",", ".")  # "9,975 %" where decimals are written with a comma
        elif decimal_comma and re.fullmatch(SPACE_GROUPED, raw):
            raw = re.sub(GROUP_SPACE, "", raw)  # "24 000" (kg): thousands grouped by spaces
        elif re.fullmatch(_DOT_GROUPS, raw) or (decimal_comma and re.fullmatch(r"\d{1,3}\.\d{3}", raw)):
            if not decimal_comma:
                return None  # "1.234.567" in a record with decimal points: a version or an id
            raw = raw.replace(".", "")
        try:
            return Decimal(re.sub(r"[,'\u2019]", "", raw))
        except InvalidOperation:
            return None
    n = words_to_number(raw)
    return Decimal(n) if n is not None else None


def free_numbers(rx: "re.Pattern[str]", text: str, claims: Claims) -> Iterator[tuple["re.Match[str]", Decimal]]:
    """Matches of `rx` over text no earlier extractor took, with their `num` group parsed (a match
    whose number does not parse is skipped). Lazy: a span the caller takes is no longer free for
    the next match."""
    for m in rx.finditer(text):
        if claims.free(m.start(), m.end()):
            num = parse_num(m["num"], claims.decimal_comma)
            if num is not None:
                yield m, num


def scale(raw: str | None) -> Decimal:
    if not raw:
        return Decimal(1)
    return {
        "k": Decimal(1000), "thousand": Decimal(1000), "m": Decimal(10**6), "mn": Decimal(10**6),
        "million": Decimal(10**6), "bn": Decimal(10**9), "billion": Decimal(10**9),
        "lakh": Decimal(10**5), "lac": Decimal(10**5), "crore": Decimal(10**7),
    }.get(re.sub(r"s$", "", raw.strip().lower()), Decimal(1))


# rate denominators: "per hour", "/h", "an hour", "monthly", "p.a."
PER_WORDS = {
    "hour": "hour", "hr": "hour", "h": "hour", "hours": "hour", "day": "day", "diem": "day",
    "week": "week", "month": "month", "mo": "month", "year": "year", "yr": "year", "annum": "year",
    "unit": "unit", "item": "unit", "piece": "unit", "hourly": "hour", "daily": "day",
    "weekly": "week", "monthly": "month", "annually": "year", "yearly": "year",
    "quarter": "quarter", "quarterly": "quarter", "annual": "year",
    # French: "175,00 $ par jour", "par mois", "par an"
    "jour": "day", "mois": "month", "an": "year", "année": "year", "annee": "year", "heure": "hour", "semaine": "week",
}
_PER_RE = re.compile(
    r"\s*(?:(?:per|an|a|each|every|/)\s*(?P<w>hour|hr|h|day|diem|week|month|mo|year|yr|annum|unit|item|piece|quarter)\b"
    r"|par\s+(?P<fr>jour|mois|an|ann[ée]e|heure|semaine)\b"
    r"|(?P<adv>hourly|daily|weekly|monthly|annually|yearly|quarterly)\b|p\.a\.)",
    re.IGNORECASE,
)


# a price per counted thing ("$0.28 per bag", "USD 1.10/unit", "€4 each", "$2 ea."): the
# denominator is "unit", whatever is counted; not "per the contract", "per Section 4", "per cent",
# nor a period ("per business day" is a rate per day, read above or not at all)
_PER_COUNT_RE = re.compile(
    r"\s*(?:(?:per|/)\s*(?!(?:the|a|an|our|your|its|their|this|that|these|those|cent|centum|annum|calendar|business"
    r"|working|banking|section|clause|article|schedule|contract|agreement|invoice|order|terms?|policy|quote|quotation)\b)"
    r"(?P<noun>[a-z][a-z-]*)\b|(?P<each>each|ea\b\.?|apiece)(?!\s+(?:of|and|other|party|month|week|year|day|quarter)\b))",
)


# "Monthly fee: $4,150", "Annual premium = £612": the period a field's label names; with prose,
# also "a monthly stipend of", "the annual fee is"
_PER_LABEL = re.compile(
    r"\b(?P<p>monthly|weekly|annual|annually|yearly|daily|hourly|quarterly)(?:\s+[A-Za-z-]+){0,3}\s*[:=]\s*$", re.I)
_PER_LABEL_PROSE = re.compile(
    r"\b(?P<p>monthly|weekly|annual|annually|yearly|daily|hourly|quarterly)(?:\s+[A-Za-z-]+){0,3}"
    r"\s*(?:[:=]|of|is|are|was|were|at|amounts?\s+to)\s*$", re.I)


def per_before(text: str, start: int, prose: bool = False) -> str | None:
    """The period named by the label right before an amount on its line, or None. A quantity's
    ``per`` takes only a field's label (a claim's prose, "the hourly rate is $285", keeps the
    period it writes after the value); ``prose`` also reads a sentence's ("a monthly stipend of")."""
    line_a = text.rfind("\n", 0, start) + 1
    m = (_PER_LABEL_PROSE if prose else _PER_LABEL).search(text, max(line_a, start - 60), start)
    return PER_WORDS[m.group("p").lower()] if m else None


def per_after(text: str, end: int, counts: bool = False) -> tuple[str | None, int]:
    """The rate denominator right after a value; with ``counts`` (prices), also a counted thing."""
    m = _PER_RE.match(text, end)
    if not m:
        c = _PER_COUNT_RE.match(text, end) if counts else None
        return ("unit", c.end()) if c else (None, end)
    w = (m.group("w") or m.group("fr") or m.group("adv") or "annum").lower()
    return PER_WORDS.get(w, w), m.end()


# No quantity spans more characters than this ("ninety-one thousand three hundred and sixty rupees"
# is 50): the quantities overlapping a stretch are found by a binary search from this far back.
_WIDEST = 200


def overlapping(qs: list[Quantity], a: int, b: int) -> list[Quantity]:
    """The quantities of ``qs`` (in text order, as every extraction returns them) that overlap
    text[a:b]. A long CSV export holds thousands of values, and the rules ask this of each one."""
    lo = bisect.bisect_left(qs, a - _WIDEST, key=_start)
    hi = bisect.bisect_left(qs, b, key=_start)
    return [o for o in qs[lo:hi] if o.end > a]


def _start(q: Quantity) -> int:
    return q.start


def sentence_start(text: str, pos: int) -> int:
    """Start of the sentence or clause holding ``pos`` (the shared splitter's boundaries)."""
    return sentence_bounds(text, pos)[0]


def sentence_end(text: str, pos: int) -> int:
    return sentence_bounds(text, pos)[1]
