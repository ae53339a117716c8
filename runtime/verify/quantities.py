"""Deterministic quantity and polarity rules, run before any NLI model.

The verifier asks a model whether evidence bytes entail a proposition. Before that, this module
checks the cheap, exact part: numbers, money, percentages, dates and durations in the hypothesis
must agree with the evidence text, and a plain polarity flip ("is payable" / "is not payable") of
an otherwise matching clause is caught. "conflict" lets the verifier answer Contradicted without a
model; "agree" only says that the quantities (and, for ``check_rules``, the wording) check out, the
model still decides entailment; "absent" means the rules cannot decide.

Design rule: never call a true claim contradicted because of a sloppy rule. A "conflict" needs a
strong signal: same kind, comparable unit, a context word tying both values to the same thing, and
no evidence value that supports the claim. Anything weaker is "absent".

Public API: ``Quantity``, ``extract_quantities``, ``QuantityCheck``, ``check_quantities``,
``check_negation`` and ``check_rules`` (the two folded: what the verifier calls).

Normalisation (what counts as the same value)
---------------------------------------------
* Money: "$1,200", "1200 USD", "USD 1,200.00", "US$1,200", "1.2k dollars" are all USD 1200;
  "$1.2 million" / "$2m" scale. "$" alone means USD; "EUR"/"€"/"euros" EUR; "GBP"/"£"/"pounds"
  GBP; "PLN"/"zł"/"zloty" PLN. A rate suffix ("per hour", "/h", "an hour", "monthly") is kept in
  ``per``. European decimal commas ("1.200,00") are not parsed.
* Percent: only a value written as a percent ("15%", "15 percent", "15 per cent", "15 pct",
  "five percent"). "0.15" is a plain number and never equals "15%". "per month"/"per annum" is
  kept in ``per``.
* Dates: ISO "2026-06-30", "30 June 2026", "30th of June, 2026", "June 30, 2026", "Jun 30 2026",
  "2026/06/30", and numeric "30/06/2026", "30.06.2026", "30-06-2026". Day/month rule for numeric
  dates: first field > 12 -> it is the day (30/06/2026); second field > 12 -> it is the day (US
  06/30/2026); both <= 12 (05/06/2026) -> ambiguous: ``value`` is the day-first reading (5 June),
  ``alt`` holds the month-first one (6 May); a check agrees if either reading agrees and conflicts
  only if both do. Dates without a year and month-year dates are not extracted.
* Durations: "12.5 hours" = "12.5 h" = "12.5 hrs" = "750 minutes"; "2 weeks" = "14 days";
  "1 year" = "12 months"; "thirty (30) days" = "30 days"; "30-day"; "Net 30" is 30 days;
  "Hours logged: 38.5" is 38.5 hours. Families hour / day / month / business day are never
  compared with each other (a working day is not 24 hours, 30 days is not 30 business days).
* Numbers: other digits. A labelled identifier ("line 14", "Section 7.2", "Severity 1",
  "INV-4421", "PO-2026-118") has ``unit == "ref"``: refs must be present for "agree", a ref the
  evidence lacks makes the whole check "absent" (another item), and refs alone never "agree".
  Ranges ("100-499 units") and clock times are not extracted.

Comparisons and frames
----------------------
A comparator before a value ("exceeds $250", "more than 40 hours", "below the cap of 5%",
"before 1 July 2026") or after it ("40 hours or more") sets ``op`` (">", ">=", "<", "<="); the
leftmost comparator whose filler ("the cap of") reaches the value wins, and a negation right before
it flips it ("shall not exceed", "no later than", "not less than", "in no event ... exceed").
"within 30 days" is the period itself (no op). ``frame`` says what the value is:
* "limit": a stated threshold: cap/floor/deadline phrases ("up to", "capped at", "not exceed",
  "at least", "no later than", "by <date>") or a plain value next to a threshold word ("the cap
  is $400", "60 days' notice", "deadline").
* "value": an actual value, or a comparison of an actual value ("exceeds", "more than", "below").
* dates only: "range_start"/"range_end" (the ends of "from X to Y", "between X and Y"), and
  "start"/"end" for a date introduced by "from"/"commencing" or "until"/"ended on".
Relations of a hypothesis value H with an evidence value E:
* limit vs limit: the same threshold (equal value, same direction) supports, otherwise contradicts.
* limit vs value: a cap says nothing about what was actually billed (an invoice can break it):
  equal plain values support, anything else is neutral.
* value vs value: plain values support if equal, else contradict; a comparison in H supports when
  E satisfies it, contradicts when E violates it, and is neutral when E is the bound itself
  ("exceeds the cap of $250" against "the cap is $250"); a comparison in E (usually a condition:
  "5% for orders over 500 units") against a plain H, or two different comparisons, is neutral.
* currency or rate-unit (per hour / per day) mismatch contradicts two plain values.
* range ends: equal supports; a start against a range start (or end against end) that differs
  contradicts; anything else is neutral (a date inside a period is not decided).

Tying a hypothesis value to an evidence value
---------------------------------------------
Context words of a value: up to 6 content words before it (weight 1/d) and 3 after it (0.5/d),
inside its sentence or clause (split at ". ; ! ?" and newlines), other values masked. Words are
lower-cased, crudely stemmed and mapped through a small synonym table (fee/charge/price,
agreement/contract, payable/due, paid/payment, cap/limit/maximum, ...). Tie score = sum over shared
words of w_h * w_e. Dates also have roles from the 3 words before them (issued/dated,
due/payable, paid/received, effective/commencing, expires/ends, signed, delivered, sent): an
evidence date in another role never supports, and a date contradicts only a date in the same role.

Decision for one hypothesis value h over the comparable evidence values (neutral ones dropped):
* a supporting value -> found, unless it is disqualified: it shares with h only words that
  several candidates share, and h's first content word (its subject: "domestic", "partner",
  "net", "dinner") sits closer to a contradicting value ("The domestic per diem is $110" against
  "domestic per diem is $75; international per diem is $110" is not found);
* else the best-tied contradicting value, with a tie score >= 0.1 -> conflict, citing it;
* else undecided.
``check_quantities``: a hypothesis ref missing from the evidence -> "absent"; any conflict ->
"conflict"; all values found (and not only refs) -> "agree"; else "absent".

Negation (``check_negation``)
-----------------------------
Hypothesis and each evidence clause (sentences, also split at "but", "whereas", ", while", and at
"and" before "shall/will/may/must") are reduced to content-word stems with quantities removed;
negators are counted (not, no, never, n't, cannot, none, nor, neither, non-, "in no event"), but
not the "no"/"not" of a comparison ("no later than", "not less than"). If every hypothesis word (at
least 2) is in one clause, that clause has at most 3 other words (1 for a 2-word hypothesis), and
both sides use the same exception words (unless, except, only, without, if, provided, until,
subject, when, where, otherwise, ...), then different negation parity -> "conflict", equal ->
"agree". Anything else -> "absent".

``check_rules``
---------------
* "conflict": the quantities conflict, or the negation rule flips. A quantity conflict is
  downgraded to "absent" when the hypothesis subject (its first content word that is not a
  document noun such as "agreement" or "invoice") or a capitalised name of the hypothesis never
  occurs in the evidence: the evidence may be about something else ("Airport parking up to $30"
  against a hotel cap, "Express delivery 5 days" against standard lead time).
* "agree": the quantities agree, every content word and capitalised name of the hypothesis occurs
  in the evidence, and the closest evidence clause has the same polarity (hard negators only).
* "absent": anything else.
``QuantityCheck.span`` holds the evidence offsets of what decided it (the value, or the clause
for a polarity flip).
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

__all__ = [
    "Quantity",
    "QuantityCheck",
    "extract_quantities",
    "check_quantities",
    "check_negation",
    "check_rules",
    "canonical_text",
    "missing_names",
]


@dataclass(frozen=True)
class Quantity:
    """One value found in a text."""

    kind: str  # "money" | "percent" | "date" | "number" | "duration"
    value: Decimal | datetime.date
    unit: str | None  # currency code for money; "hour"/"day"/"week"/"month"/"year"/"business_day"/"minute" for durations; "ref" for identifiers
    start: int
    end: int
    text: str  # the verbatim slice text[start:end]
    op: str | None = None  # comparator governing the value in its sentence: ">", ">=", "<", "<=" or None (the value itself)
    per: str | None = None  # rate denominator for money/percent: "hour", "day", "week", "month", "year", "unit"
    alt: tuple = field(default=(), compare=False)  # other readings of an ambiguous numeric date
    frame: str = "value"  # "limit": a stated threshold (cap, floor, deadline, notice period); "value": an actual value or a comparison with one; dates only: "range_start"/"range_end" (ends of "from X to Y"), "start"/"end" (a date introduced by "from"/"until"...)


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


# --------------------------------------------------------------------------------------------
# Lexicon
# --------------------------------------------------------------------------------------------

_MONTHS = {
    "january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4, "apr": 4,
    "may": 5, "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8,
    "september": 9, "sep": 9, "sept": 9, "october": 10, "oct": 10, "november": 11, "nov": 11,
    "december": 12, "dec": 12,
}
_MONTH_RE = (
    r"(?:January|February|March|April|May|June|July|August|September|October|November|December|"
    r"Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec)"
)
_UNITS_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
    "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
}
_TENS_WORDS = {
    "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
    "eighty": 80, "ninety": 90,
}
_SMALL = "|".join(sorted(_UNITS_WORDS, key=len, reverse=True))
_TENS = "|".join(_TENS_WORDS)
_WORDNUM = rf"(?:(?:{_TENS})(?:[- ](?:{_SMALL}))?|(?:{_SMALL}))(?:\s+hundred)?"
_DIGITS = r"(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)"
# "thirty (30)" counts once, as 30; a bare digit string; or (where a unit follows) a number word
_NUM = rf"(?:(?:{_WORDNUM})\s*\(\s*{_DIGITS}\s*\)|{_DIGITS})"
_NUMW = rf"(?:{_NUM}|\b{_WORDNUM}\b)"
_SCALE = r"(?:(?:k|K|m|M|bn|mn)\b|\s+(?:thousand|million|billion)\b)"

_CURRENCY_SYMBOL = {"us$": "USD", "$": "USD", "€": "EUR", "£": "GBP", "c$": "CAD", "a$": "AUD"}
_CURRENCY_CODES = ("USD", "EUR", "GBP", "PLN", "CHF", "CAD", "AUD", "JPY", "SEK", "NOK", "DKK", "INR")
_CODE_RE = "(?:" + "|".join(_CURRENCY_CODES) + ")"
_CURRENCY_WORD = {
    "dollar": "USD", "dollars": "USD", "euro": "EUR", "euros": "EUR", "pound": "GBP",
    "pounds": "GBP", "zloty": "PLN", "zlotys": "PLN", "zlotych": "PLN", "zł": "PLN",
    "franc": "CHF", "francs": "CHF",
}

_PER_WORDS = {
    "hour": "hour", "hr": "hour", "h": "hour", "hours": "hour", "day": "day", "diem": "day",
    "week": "week", "month": "month", "mo": "month", "year": "year", "yr": "year", "annum": "year",
    "unit": "unit", "item": "unit", "piece": "unit", "hourly": "hour", "daily": "day",
    "weekly": "week", "monthly": "month", "annually": "year", "yearly": "year",
    "quarter": "quarter", "quarterly": "quarter",
}
_PER_RE = re.compile(
    r"\s*(?:(?:per|an|a|each|every|/)\s*(?P<w>hour|hr|h|day|diem|week|month|mo|year|yr|annum|unit|item|piece|quarter)\b"
    r"|(?P<adv>hourly|daily|weekly|monthly|annually|yearly|quarterly)\b|p\.a\.)",
    re.IGNORECASE,
)

_DURATION_UNITS = [
    (r"business\s+days?|working\s+days?|banking\s+days?", "business_day"),
    (r"calendar\s+days?|days?", "day"),
    (r"hours?|hrs?\b|h\b", "hour"),
    (r"minutes?|mins?\b", "minute"),
    (r"weeks?|wks?\b", "week"),
    (r"calendar\s+months?|months?", "month"),
    (r"years?|yrs?\b", "year"),
]
# family, factor to the family's base unit
_DURATION_FAMILY = {
    "minute": ("hour", Decimal(1) / Decimal(60)), "hour": ("hour", Decimal(1)),
    "day": ("day", Decimal(1)), "week": ("day", Decimal(7)),
    "month": ("month", Decimal(1)), "year": ("month", Decimal(12)),
    "business_day": ("business_day", Decimal(1)),
}

_REF_LABEL_RE = re.compile(
    r"(?:\b(?:line\s+item|line|item|section|sections|clause|article|art\.|invoice|po|purchase\s+order|"
    r"order|page|schedule|severity|priority|level|tier|phase|stage|grade|option|lot|batch|week|quarter|q|exhibit|annex|appendix|paragraph|para\.|task|matter|room|step|table|rule|"
    r"version|v|no\.|number|ticket|case|claim|contract|account|ref\.?|reference|employee|id|row)"
    r"\s*(?:no\.?|number|#)?\s*|#\s*|§\s*)$",
    re.IGNORECASE,
)
_CODE_ID_RE = re.compile(r"\b[A-Z][A-Za-z]{0,9}[-/#]?\d[\w/-]*\b")

# comparator phrases before a value; kinds they apply to ("date" or "num" = everything else)
_COMPARATORS: list[tuple[str, str, str]] = [
    ("in excess of", ">", "num"), ("more than", ">", "num"), ("greater than", ">", "num"),
    ("higher than", ">", "num"), ("larger than", ">", "num"), ("longer than", ">", "num"),
    ("exceeding", ">", "num"), ("exceeds", ">", "num"), ("exceeded", ">", "num"),
    ("exceed", ">", "num"), ("above", ">", "num"), ("over", ">", "num"), ("beyond", ">", "num"),
    ("at least", ">=", "any"), ("minimum of", ">=", "num"), ("a minimum of", ">=", "num"),
    ("cap of", "<=", "num"), ("ceiling of", "<=", "num"), ("limit of", "<=", "num"),
    ("less than", "<", "num"), ("fewer than", "<", "num"), ("lower than", "<", "num"),
    ("shorter than", "<", "num"), ("below", "<", "num"), ("under", "<", "num"),
    ("at most", "<=", "any"), ("up to", "<=", "num"), ("maximum of", "<=", "num"),
    ("capped at", "<=", "num"), ("limited to", "<=", "num"), ("not to exceed", "<=", "num"),
    ("on or after", ">=", "date"), ("after", ">", "date"), ("later than", ">", "date"),
    ("on or before", "<=", "date"), ("before", "<", "date"), ("prior to", "<", "date"),
    ("earlier than", "<", "date"), ("by", "<=", "date"),
    ("as late as", "<=", "date"), ("as early as", ">=", "date"),
]
_FLIP = {">": "<=", ">=": "<", "<": ">=", "<=": ">"}
# phrases that state a threshold (frame "limit") rather than compare an actual value (frame "value")
_LIMIT_PHRASES = {
    "at least", "minimum of", "a minimum of", "at most", "up to", "maximum of", "capped at",
    "limited to", "not to exceed", "on or after", "on or before", "by", "cap of", "ceiling of",
    "limit of", "as late as", "as early as",
}
# a plain value next to one of these words states a threshold: "the cap is $400", "60 days' notice"
_THRESHOLD_STEMS = {"cap", "floor", "threshold", "notice", "deadline"}
_DET = r"(?:the|a|an|its|their|this|that|our|your|his|her)"
# "exceeds the approved cap of $250": up to 3 words ending in "of"/"at", none of them a verb, so
# that "under the agreement is capped at $2m" is read as "capped at", not as "under"
_FILLER_WORD = r"(?!(?:is|are|was|were|be|been|shall|will|may|must|capped|limited|set|fixed|not)\b)[a-z][a-z-]*"
_FILLER = rf"(?:{_DET}\s+)?(?:(?:{_FILLER_WORD}\s+){{1,3}}(?:of|at)\s+)?"
_COMP_RE = re.compile(  # the leftmost comparator whose filler reaches the value wins
    r"\b(?P<phrase>"
    + "|".join(re.escape(p) for p, _, _ in sorted(_COMPARATORS, key=lambda c: -len(c[0])))
    + rf")\s+{_FILLER}$"
)
_COMP_LOOKUP = {p: (op, k) for p, op, k in _COMPARATORS}
_NEG_BEFORE_RE = re.compile(
    r"(?:\b(?:not|never|no|cannot)|n't|\bin no event|\bin no case|\bunder no circumstances)\s+"
    r"(?:(?:shall|will|may|must|does|do|did|is|are|was|were|be|to|ever|at\s+any\s+time)\s+)*$"
)
_CLAUSE_NEG_RE = re.compile(r"\bin no event\b|\bin no case\b|\bunder no circumstances\b")
_POSTFIX_RE = re.compile(
    r"\s*,?\s*or\s+(?P<w>more|greater|above|higher|longer|later|less|fewer|below|lower|shorter|earlier)\b",
    re.IGNORECASE,
)
_POSTFIX_OP = {
    "more": ">=", "greater": ">=", "above": ">=", "higher": ">=", "longer": ">=", "later": ">=",
    "less": "<=", "fewer": "<=", "below": "<=", "lower": "<=", "shorter": "<=", "earlier": "<=",
}

_STOP = set(
    """a an the this that these those of to in on at by for from with as is are was were be been being
    has have had do does did shall will would should may might must can could it its their they them
    he she his her we our you your i and or any all each every such which who whom whose per than
    there here into onto upon under over above below after before than then also so same other
    above-mentioned said up down out more less most least not no never nor none cannot n't non
    is be within inclusive including incl plus about approximately approx via pursuant hereunder
    thereof herein hereof one amount's become became becomes remain remains remained
    first second third fourth fifth""".split()
)
_STOP |= set(_MONTHS) | set(_UNITS_WORDS) | set(_TENS_WORDS) | {"hundred", "thousand", "million"}
_STOP |= {"usd", "eur", "gbp", "pln", "chf", "dollar", "dollars", "euro", "euros", "percent", "pct"}

_SYNONYMS = {
    "dated": "dated", "minimum": "floor", "min": "floor", "deadline": "deadline",
    "agreement": "contract", "contract": "contract",
    "charge": "fee", "charg": "fee", "fee": "fee", "fe": "fee", "price": "fee", "pric": "fee",
    "payable": "due", "payabl": "due", "due": "due", "du": "due",
    "invoice": "invoice", "invoic": "invoice",
    "hourly": "hour", "hr": "hour", "hour": "hour",
    "monthly": "month", "annual": "year", "annually": "year", "annum": "year", "yearly": "year",
    "paid": "pay", "payment": "pay", "pay": "pay", "remit": "pay", "remitt": "pay",
    "cap": "cap", "capp": "cap", "ceiling": "cap", "limit": "cap", "maximum": "cap", "max": "cap",
    "reimburse": "reimburs", "reimburs": "reimburs", "reimbursement": "reimburs",
    "terminate": "terminat", "terminat": "terminat", "termination": "terminat",
    "notice": "notice", "notic": "notice",
    "penalty": "fee", "penalti": "fee",
}
_ROLE_GROUPS = {
    "issue": {"issu", "dated", "issue"},
    "send": {"sent", "send", "mail", "email", "submitt", "submit"},
    "due": {"due"},
    "pay": {"pay", "receiv", "settl", "remitt"},
    "effective": {"effectiv", "commenc", "start", "begin", "from", "begins", "commence"},
    "end": {"expir", "end", "terminat", "until", "through", "expire"},
    "sign": {"sign", "execut"},
    "deliver": {"deliver", "ship", "dispatch"},
}
_ROLE_OF = {stem: role for role, stems in _ROLE_GROUPS.items() for stem in stems}

_NEGATORS = {"not", "no", "never", "cannot", "none", "nor", "neither", "non", "nothing", "nobody"}
_EXCEPTION_WORDS = {
    "unless", "except", "only", "without", "if", "provided", "until", "subject", "when", "where",
    "otherwise", "whether", "save", "excluding", "exclusive", "but",
}
_WORD_RE = re.compile(r"[A-Za-z][A-Za-z'’-]*|\d[\d,.]*")


# --------------------------------------------------------------------------------------------
# Parsing helpers
# --------------------------------------------------------------------------------------------


def _words_to_int(words: str) -> int | None:
    total = 0
    parts = re.split(r"[\s-]+", words.lower().strip())
    for part in parts:
        if part in _UNITS_WORDS:
            total += _UNITS_WORDS[part]
        elif part in _TENS_WORDS:
            total += _TENS_WORDS[part]
        elif part == "hundred":
            total = (total or 1) * 100
        elif part:
            return None
    return total


def _parse_num(raw: str) -> Decimal | None:
    raw = raw.strip()
    m = re.search(r"\(\s*([\d,.]+)\s*\)", raw)
    if m:  # "thirty (30)": the digits win
        raw = m.group(1)
    if re.search(r"\d", raw):
        try:
            return Decimal(raw.replace(",", ""))
        except InvalidOperation:
            return None
    n = _words_to_int(raw)
    return Decimal(n) if n is not None else None


def _scale(raw: str | None) -> Decimal:
    if not raw:
        return Decimal(1)
    s = raw.strip().lower()
    return {
        "k": Decimal(1000), "thousand": Decimal(1000), "m": Decimal(10**6), "mn": Decimal(10**6),
        "million": Decimal(10**6), "bn": Decimal(10**9), "billion": Decimal(10**9),
    }.get(s, Decimal(1))


def _mkdate(y: int, m: int, d: int) -> datetime.date | None:
    try:
        return datetime.date(y, m, d)
    except ValueError:
        return None


def _sentence_start(text: str, pos: int) -> int:
    """Start of the clause/sentence containing pos (after '. ', ';', '!', '?', newline)."""
    best = 0
    for m in re.finditer(r"(?:[.!?;](?=\s)|[.!?;]$|\n)", text[:pos]):
        best = m.end()
    return best


def _sentence_end(text: str, pos: int) -> int:
    m = re.compile(r"(?:[.!?;](?=\s|$)|\n)").search(text, pos)
    return m.start() if m else len(text)


# --------------------------------------------------------------------------------------------
# Extraction
# --------------------------------------------------------------------------------------------

_I = re.IGNORECASE
_DATE_PATTERNS = [
    ("iso", re.compile(r"\b(?P<y>\d{4})-(?P<m>\d{1,2})-(?P<d>\d{1,2})\b")),
    ("ymd", re.compile(r"\b(?P<y>\d{4})/(?P<m>\d{1,2})/(?P<d>\d{1,2})\b")),
    ("dmy_w", re.compile(
        rf"\b(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<mon>{_MONTH_RE})\.?,?\s+(?P<y>\d{{4}})\b", _I)),
    ("mdy_w", re.compile(
        rf"\b(?P<mon>{_MONTH_RE})\.?\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<y>\d{{4}})\b", _I)),
    ("num", re.compile(r"(?<![\d/.-])(?P<a>\d{1,2})(?P<sep>[/.-])(?P<b>\d{1,2})(?P=sep)(?P<y>\d{4})\b")),
]

_MONEY_PATTERNS = [
    # $1,200 / US$ 1.2k / €300 / £1.5 million
    re.compile(rf"(?P<sym>US\$|C\$|A\$|\$|€|£)\s?(?P<num>{_NUM})(?P<scale>{_SCALE})?"),
    # USD 1,200.00 / USD $1,200 / EUR1.2m
    re.compile(rf"\b(?P<code>{_CODE_RE})\s?(?:\$|€|£)?\s?(?P<num>{_NUM})(?P<scale>{_SCALE})?"),
    # 1200 USD / 1.2k EUR / 300 zł
    re.compile(rf"(?P<num>{_NUM})(?P<scale>{_SCALE})?\s?(?P<code>{_CODE_RE}\b|zł)"),
    # 1.2k dollars / five hundred euros / 300 (three hundred) dollars
    re.compile(
        rf"(?P<num>{_NUMW})(?P<scale>{_SCALE})?\s+(?:US\s+|U\.S\.\s+)?"
        r"(?P<word>dollars?|euros?|pounds?(?:\s+sterling)?|zloty|zlotys|zlotych|francs?)\b", _I),
]
_PERCENT_RE = re.compile(rf"(?P<num>{_NUMW})\s?(?:%|percent\b|per\s?cent\b|pct\b)", _I)
_DURATION_RE = re.compile(
    rf"(?P<num>{_NUMW})(?:\s*-\s*|\s*)(?P<u>"
    + "|".join(f"(?:{p})" for p, _ in _DURATION_UNITS)
    + r")(?![A-Za-z])",
    _I,
)
_NET_RE = re.compile(r"\bnet\s*-?\s*(?P<num>\d{1,3})\b(?:\s+days\b)?", _I)
_LABELLED_DURATION_RE = re.compile(
    rf"\b(?P<u>hours|hrs|days|business\s+days)(?:\s+(?:logged|worked|billed|recorded|charged|total))?\s*:\s*(?P<num>{_DIGITS})(?![\w%])",
    _I,
)
_RANGE_RE = re.compile(
    rf"(?<![\w.,/-]){_DIGITS}\s*(?:-|–|to)\s*{_DIGITS}(?![\w%/]|[.,]\d)|\bbetween\s+{_DIGITS}\s+and\s+{_DIGITS}\b"
)
_BARE_RE = re.compile(rf"(?<![\w.,/$€£-])(?P<num>{_NUM})(?![\w%$€£]|[.,/]\d)")


def _duration_unit(u: str) -> str:
    u = u.lower()
    for pattern, name in _DURATION_UNITS:
        if re.fullmatch(pattern, u, re.IGNORECASE):
            return name
    return "day"


def _per_after(text: str, end: int) -> tuple[str | None, int]:
    m = _PER_RE.match(text, end)
    if not m:
        return None, end
    w = (m.group("w") or m.group("adv") or "annum").lower()
    return _PER_WORDS.get(w, w), m.end()


def _comparator(text: str, start: int, end: int, kind: str) -> tuple[str | None, str]:
    sent0 = _sentence_start(text, start)
    before = text[max(sent0, start - 120):start].lower()
    before = re.sub(r"\s+", " ", before)
    m = _COMP_RE.search(before)
    op, frame = None, "value"
    if m:
        phrase = m.group("phrase")
        op_, kinds = _COMP_LOOKUP[phrase]
        ok = kinds == "any" or (kinds == "date") == (kind == "date")
        if ok:
            op = op_
            if phrase in _LIMIT_PHRASES:
                frame = "limit"
            if _NEG_BEFORE_RE.search(before[: m.start("phrase")]) or _CLAUSE_NEG_RE.search(
                before[: m.start("phrase")]
            ):
                op = _FLIP[op]
                frame = "limit"  # "no more than", "shall not exceed", "no later than"
    if op is None:
        pm = _POSTFIX_RE.match(text, end)
        if pm:
            op = _POSTFIX_OP[pm.group("w").lower()]
    return op, frame


def extract_quantities(text: str) -> list[Quantity]:
    """Every money amount, percentage, date, duration and number in ``text``, in text order.

    Spans never overlap: dates are taken first, then money, percentages, durations, "Net N"
    payment terms, identifiers, and finally bare numbers.
    """
    taken = [False] * (len(text) + 1)
    found: list[tuple[int, int, str, object, str | None, str | None, tuple]] = []

    def free(a: int, b: int) -> bool:
        return not any(taken[a:b])

    def take(a: int, b: int, kind: str, value, unit, per=None, alt=()):
        for i in range(a, b):
            taken[i] = True
        found.append((a, b, kind, value, unit, per, alt))

    # dates
    for name, rx in _DATE_PATTERNS:
        for m in rx.finditer(text):
            if not free(m.start(), m.end()):
                continue
            alt: tuple = ()
            if name in ("iso", "ymd"):
                d = _mkdate(int(m["y"]), int(m["m"]), int(m["d"]))
            elif name in ("dmy_w", "mdy_w"):
                d = _mkdate(int(m["y"]), _MONTHS[m["mon"].lower().rstrip(".")], int(m["d"]))
            else:
                a, b, y = int(m["a"]), int(m["b"]), int(m["y"])
                if a > 12:
                    d = _mkdate(y, b, a)
                elif b > 12:
                    d = _mkdate(y, a, b)
                else:
                    d = _mkdate(y, b, a)  # day-first by default
                    other = _mkdate(y, a, b)
                    if other is not None and other != d:
                        alt = (other,)
            if d is not None:
                take(m.start(), m.end(), "date", d, None, None, alt)

    # money
    for rx in _MONEY_PATTERNS:
        for m in rx.finditer(text):
            a, b = m.start(), m.end()
            if not free(a, b):
                continue
            num = _parse_num(m["num"])
            if num is None:
                continue
            gd = m.groupdict()
            if gd.get("sym"):
                cur = _CURRENCY_SYMBOL[gd["sym"].lower()]
            elif gd.get("code"):
                cur = "PLN" if gd["code"].lower() == "zł" else gd["code"].upper()
            else:
                cur = _CURRENCY_WORD[gd["word"].split()[0].lower()]
            per, _ = _per_after(text, b)
            take(a, b, "money", num * _scale(gd.get("scale")), cur, per)

    # percentages
    for m in _PERCENT_RE.finditer(text):
        a, b = m.start(), m.end()
        if not free(a, b):
            continue
        num = _parse_num(m["num"])
        if num is None:
            continue
        per, _ = _per_after(text, b)
        take(a, b, "percent", num, None, per)

    # durations
    for m in _DURATION_RE.finditer(text):
        a, b = m.start(), m.end()
        if not free(a, b):
            continue
        num = _parse_num(m["num"])
        if num is None:
            continue
        unit = _duration_unit(m["u"])
        if unit == "hour" and m["u"].lower() == "h" and not re.match(r"\d", m["num"]):
            continue
        take(a, b, "duration", num, unit)

    for m in _NET_RE.finditer(text):
        if free(m.start(), m.end()):
            take(m.start(), m.end(), "duration", Decimal(m["num"]), "day")

    # identifiers with letters attached (INV-4421, PO-2026-118, Q3 are refs)
    for m in _CODE_ID_RE.finditer(text):
        a, b = m.start(), m.end()
        if not free(a, b):
            continue
        digits = re.sub(r"\D", "", m.group(0))
        take(a, b, "number", Decimal(digits), "ref")

    # "Hours logged: 38.5", "Days: 12": a number labelled with a duration unit
    for m in _LABELLED_DURATION_RE.finditer(text):
        a, b = m.start("num"), m.end("num")
        if free(a, b):
            num = _parse_num(m["num"])
            if num is not None:
                take(a, b, "duration", num, _duration_unit(m["u"]))

    # ranges ("100-499 units", "between 10 and 20"): neither end is a value of its own
    for m in _RANGE_RE.finditer(text):
        if free(m.start(), m.end()):
            for i in range(m.start(), m.end()):
                taken[i] = True

    # bare numbers
    for m in _BARE_RE.finditer(text):
        a, b = m.start(), m.end()
        if not free(a, b):
            continue
        num = _parse_num(m["num"])
        if num is None:
            continue
        if re.fullmatch(r"\.\d+", m["num"]):
            continue
        before = text[max(0, a - 30):a]
        unit = "ref" if _REF_LABEL_RE.search(before) else None
        if text[b:b + 2] in (":0", ":1", ":2", ":3", ":4", ":5") or text[max(0, a - 1):a] == ":":
            continue  # clock times
        take(a, b, "number", num, unit)

    found.sort(key=lambda t: t[0])
    out = []
    for a, b, kind, value, unit, per, alt in found:
        op, frame = None, "value"
        if unit != "ref":
            op, frame = _comparator(text, a, b, kind)
        out.append(Quantity(kind, value, unit, a, b, text[a:b], op, per, alt, frame))
    for i, q in enumerate(out):
        if q.op is None and q.unit != "ref" and _near_threshold_word(text, q, out):
            out[i] = Quantity(q.kind, q.value, q.unit, q.start, q.end, q.text, None, q.per, q.alt, "limit")
    # date ranges: "from 01.04.2026 to 30.04.2026", "1-30 April" is not parsed, "between X and Y"
    for i in range(len(out) - 1):
        q1, q2 = out[i], out[i + 1]
        if q1.kind == q2.kind == "date" and q1.frame == q2.frame == "value":
            gap = text[q1.end:q2.start]
            joined = re.fullmatch(r"\s*(?:-|–|to|until|till|through)\s*", gap, _I) or (
                re.fullmatch(r"\s*and\s*", gap, _I) and re.search(r"\bbetween\s*$", text[:q1.start], _I)
            )
            if joined:
                out[i] = Quantity(q1.kind, q1.value, q1.unit, q1.start, q1.end, q1.text, None, q1.per, q1.alt, "range_start")
                out[i + 1] = Quantity(q2.kind, q2.value, q2.unit, q2.start, q2.end, q2.text, None, q2.per, q2.alt, "range_end")
    # a single date introduced as a start or an end: "rendered from 1 March 2026", "ended on ..."
    for i, q in enumerate(out):
        if q.kind == "date" and q.frame == "value" and q.op is None:
            tail = text[max(0, q.start - 30):q.start].lower()
            side = None
            if re.search(r"\b(?:from|starting(?: on)?|commencing(?: on)?|beginning(?: on)?|start(?:s|ed)? on)\s*$", tail):
                side = "start"
            elif re.search(r"\b(?:until|till|through|ending(?: on)?|end(?:s|ed)? on|expir(?:es|ed|ing)? on)\s*$", tail):
                side = "end"
            if side:
                out[i] = Quantity(q.kind, q.value, q.unit, q.start, q.end, q.text, None, q.per, q.alt, side)
    return out


def _near_threshold_word(text: str, q: Quantity, qs: list[Quantity]) -> bool:
    s0, s1 = _sentence_start(text, q.start), _sentence_end(text, q.end)
    lb = max([o.end for o in qs if o.end <= q.start] + [s0])
    rb = min([o.start for o in qs if o.start >= q.end] + [s1])
    punct = re.compile(r"[,;:(]").search(text, q.end, rb)
    if punct:
        rb = punct.start()
    near = _content_tokens(text, lb, q.start)[-3:] + _content_tokens(text, q.end, rb)[:3]
    return any(s in _THRESHOLD_STEMS for _, s in near)


# --------------------------------------------------------------------------------------------
# Context words and tie score
# --------------------------------------------------------------------------------------------


def _stem(word: str) -> str:
    w = word.lower().replace("’", "'")
    if w in _SYNONYMS:
        return _SYNONYMS[w]
    if w.endswith("'s"):
        w = w[:-2]
    w = w.strip("'-")
    if len(w) > 4 and w.endswith("ies"):
        w = w[:-3] + "y"
    elif len(w) > 5 and w.endswith("ing"):
        w = w[:-3]
    elif len(w) > 4 and w.endswith("ed"):
        w = w[:-2]
    elif len(w) > 3 and w.endswith("s") and not w.endswith("ss"):
        w = w[:-1]
    if len(w) > 3 and w.endswith("e"):
        w = w[:-1]
    return _SYNONYMS.get(w, w)


def _content_tokens(text: str, a: int, b: int) -> list[tuple[int, str]]:
    """(position, stem) for content words in text[a:b]."""
    out = []
    for m in _WORD_RE.finditer(text, a, b):
        w = m.group(0)
        if w[0].isdigit():
            continue
        lw = w.lower()
        if lw in _STOP or len(lw) < 2:
            continue
        out.append((m.start(), _stem(w)))
    return out


def _masked_tokens(text: str, a: int, b: int, qs: list[Quantity]) -> list[tuple[int, str]]:
    spans = [(o.start, o.end) for o in qs]
    return [(pos, st) for pos, st in _content_tokens(text, a, b) if not any(x <= pos < y for x, y in spans)]


def _context(text: str, q: Quantity, qs: list[Quantity]) -> dict[str, float]:
    """Context words of q with weights: 6 content words before (1/d), 3 after (0.5/d), same sentence."""
    s0 = _sentence_start(text, q.start)
    s1 = _sentence_end(text, q.end)
    weights: dict[str, float] = {}
    left = _masked_tokens(text, s0, q.start, qs)[-6:]
    for d, (_, s) in enumerate(reversed(left), start=1):
        weights[s] = max(weights.get(s, 0.0), 1.0 / d)
    right = _masked_tokens(text, q.end, s1, qs)[:3]
    for d, (_, s) in enumerate(right, start=1):
        weights[s] = max(weights.get(s, 0.0), 0.5 / d)
    return weights


def _nearest_role(text: str, q: Quantity, qs: list[Quantity]) -> str | None:
    """Role of a date from the 3 content words before it ("due", "paid", "effective", ...).

    A bare "date" ("Invoice Date:") counts as the issue date only when no other role word is there.
    """
    s0 = _sentence_start(text, q.start)
    weak = None
    for _, s in reversed(_masked_tokens(text, s0, q.start, qs)[-3:]):
        if s == "dat":
            weak = weak or "issue"
        elif s in _ROLE_OF:
            return _ROLE_OF[s]
    return weak


def _tie(ch: dict[str, float], ce: dict[str, float]) -> float:
    return sum(w * ce[s] for s, w in ch.items() if s in ce)


# --------------------------------------------------------------------------------------------
# Comparison of two values
# --------------------------------------------------------------------------------------------


def _base(q: Quantity, value=None):
    v = q.value if value is None else value
    if q.kind == "duration":
        return v * _DURATION_FAMILY[q.unit][1]
    return v


def _comparable(h: Quantity, e: Quantity) -> bool:
    if h.kind != e.kind:
        return False
    if h.kind == "duration":
        return _DURATION_FAMILY[h.unit][0] == _DURATION_FAMILY[e.unit][0]
    if h.kind == "number":
        return (h.unit == "ref") == (e.unit == "ref")
    return True


def _holds(x, op: str, v) -> bool:
    return {">": x > v, ">=": x >= v, "<": x < v, "<=": x <= v}[op]


def _relation_values(hv, hop, hf, ev, eop, ef) -> str:
    """'supports', 'contradicts' or 'neutral' for one reading of each value."""
    up = {">", ">="}
    if hf == "limit" and ef == "limit":
        # two stated thresholds of the same thing: they must be the same threshold
        if hv != ev:
            return "contradicts"
        if hop and eop and (hop in up) != (eop in up):
            return "contradicts"
        return "supports"
    if hf == "limit" or ef == "limit":
        # a threshold says nothing about an actual value (an invoice can break the cap), and an
        # actual value says nothing about the threshold: never a conflict. Two plain equal values
        # still agree ("limited to the fees of the 12 months" / "fees paid in the twelve (12) months").
        if hop is None and eop is None and hv == ev:
            return "supports"
        return "neutral"
    if hop is None and eop is None:
        return "supports" if hv == ev else "contradicts"
    if hop is not None and eop is None:
        if _holds(ev, hop, hv):
            return "supports"
        if ev == hv:  # the evidence quotes the threshold itself
            return "neutral"
        return "contradicts"
    if hop is None and eop is not None:
        # a plain value against a comparison in the evidence: evidence comparisons are mostly
        # conditions ("5% for orders over 500 units"), so a value outside them is not a conflict
        return "neutral"
    # two comparisons: the same one agrees; anything else (a looser bound, or the complementary
    # condition: "expenses under $25" / "expenses of $25 or more") is undecided
    return "supports" if (hv == ev and hop == eop) else "neutral"


_RANGE_SIDE = {"range_start": "start", "range_end": "end"}


def _range_relation(h: Quantity, e: Quantity) -> str | None:
    """Relation when either date is an end of a range; None when neither is."""
    if h.frame not in _RANGE_SIDE and e.frame not in _RANGE_SIDE:
        return None
    hs = _RANGE_SIDE.get(h.frame, h.frame)
    es = _RANGE_SIDE.get(e.frame, e.frame)
    equal = any(hv == ev for hv in (h.value, *h.alt) for ev in (e.value, *e.alt))
    if equal:
        return "supports"
    # "from 1 March" against a period starting 1 April is a conflict; a date inside or outside a
    # period in any other role is not decided here
    if hs in ("start", "end") and hs == es:
        return "contradicts"
    return "neutral"


def _relation(h: Quantity, e: Quantity) -> str:
    if h.kind == "date":
        rr = _range_relation(h, e)
        if rr is not None:
            return rr
    exact = h.frame == e.frame and (h.frame == "limit" or (h.op is None and e.op is None))
    if h.kind == "money" and h.unit != e.unit:
        return "contradicts" if exact else "neutral"
    if h.kind in ("money", "percent") and h.per and e.per and h.per != e.per:
        return "contradicts" if exact else "neutral"
    if h.kind == "number" and h.unit == "ref":
        return "supports" if h.value == e.value else "neutral"
    hvals = [h.value, *h.alt]
    evals = [e.value, *e.alt]
    rels = {
        _relation_values(_base(h, hv), h.op, h.frame, _base(e, ev), e.op, e.frame)
        for hv in hvals
        for ev in evals
    }
    if "supports" in rels:
        return "supports"
    if rels == {"contradicts"}:
        return "contradicts"
    return "neutral"


def _fmt(q: Quantity) -> str:
    op = {">": "more than ", ">=": "at least ", "<": "less than ", "<=": "at most "}.get(q.op or "", "")
    if q.kind == "money":
        v = f"{q.unit} {q.value:,.2f}"
    elif q.kind == "percent":
        v = f"{q.value.normalize():f}%"
    elif q.kind == "date":
        v = q.value.isoformat()
        if q.alt:
            v += " (or " + ", ".join(a.isoformat() for a in q.alt) + ")"
    elif q.kind == "duration":
        v = f"{q.value.normalize():f} {q.unit}(s)"
    else:
        v = f"{q.value.normalize():f}" + (" (reference)" if q.unit == "ref" else "")
    per = f" per {q.per}" if q.per else ""
    return f"{op}{v}{per}"


def _fmt_ev(e: Quantity) -> str:
    return f"{_fmt(e)} (chars {e.start}-{e.end})"


# --------------------------------------------------------------------------------------------
# Public checks
# --------------------------------------------------------------------------------------------

_TIE_MIN = 0.1


def _own_label(c: dict[str, float], ch: dict[str, float], others: list[dict[str, float]]) -> str | None:
    """A word close to this value (weight >= 0.3) that the hypothesis does not use and that is
    closer to this value than to any other: "international" in "the per diem for international
    travel is $110", "lunch" in "lunch $20, dinner $45"."""
    for w, x in sorted(c.items(), key=lambda kv: -kv[1]):
        if x >= 0.3 and w not in ch and all(x > o.get(w, 0.0) for o in others):
            return w
    return None


def _decide_one(hyp: str, h: Quantity, hqs: list[Quantity], ev: str, eqs: list[Quantity]):
    """('found'|'conflict'|'undecided'|'nokind', evidence quantity or None, note)."""
    cands = [e for e in eqs if _comparable(h, e)]
    if not cands:
        return "nokind", None, ""
    ch = _context(hyp, h, hqs)
    hrole = _nearest_role(hyp, h, hqs) if h.kind == "date" else None
    pool = []
    for e in cands:
        rel = _relation(h, e)
        if rel == "neutral":
            continue
        score = _tie(ch, _context(ev, e, eqs))
        if hrole is not None:
            erole = {"range_start": "effective", "range_end": "end"}.get(e.frame) or _nearest_role(ev, e, eqs)
            if erole is not None and erole != hrole and rel == "supports":
                continue  # the same date in another role ("dated 1 March" is not "due 1 March")
            if erole != hrole and rel == "contradicts":
                continue  # a date contradicts only a date in the same role
        pool.append((score, rel, e))
    if not pool:
        return "undecided", None, ""
    # A supporting value loses to a contradicting one when it is tied to the hypothesis only by
    # words several candidates share, carries a label of its own that the hypothesis does not use,
    # and the hypothesis subject (its first content word) sits closer to the contradicting value: "The domestic per diem is $110" against "the domestic per
    # diem is $75; the international per diem is $110", or "The dinner allowance is $20" against
    # "breakfast $15, lunch $20, dinner $45", is a conflict, not an agreement.
    ctxs = [_context(ev, e, eqs) for _, _, e in pool]
    counts: dict[str, int] = {}
    for c in ctxs:
        for w in c:
            counts[w] = counts.get(w, 0) + 1
    disc = {w: x for w, x in ch.items() if counts.get(w, 0) < 2} if len(ctxs) > 1 else dict(ch)
    first = _content_tokens(hyp, 0, len(hyp))[:1]
    subj = first[0][1] if first else None

    def clause_words(e: Quantity) -> set[str]:
        return {st for _, st in _content_tokens(ev, _sentence_start(ev, e.start), _sentence_end(ev, e.end))}

    con = [(s_, e, c) for (s_, r, e), c in zip(pool, ctxs) if r == "contradicts"]
    sup = []
    for (s_, r, e), c in zip(pool, ctxs):
        if r != "supports":
            continue
        if subj and con and _tie(disc, c) == 0 and _own_label(c, ch, [cc for _, _, cc in con]):
            own = c.get(subj, 0.0)
            # (a) the subject is in a contradicting value's clause and not in this value's clause;
            # (b) the subject is right next to a contradicting value and farther from this one
            a_ = subj not in clause_words(e) and any(subj in clause_words(x) for _, x, _ in con)
            b_ = any(cc.get(subj, 0.0) >= 0.5 and cc.get(subj, 0.0) > own for _, _, cc in con)
            if a_ or b_:
                continue  # disqualified: it belongs to another subject
        sup.append((s_, e))
    if sup:
        sup.sort(key=lambda t: t[0], reverse=True)
        return "found", sup[0][1], ""
    con.sort(key=lambda t: t[0], reverse=True)
    if con and con[0][0] >= _TIE_MIN:
        return "conflict", con[0][1], ""
    return "undecided", None, ""


def check_quantities(hypothesis: str, evidence: str) -> QuantityCheck:
    """Compare every quantity of ``hypothesis`` with the quantities of ``evidence``.

    "agree": every hypothesis quantity (references included) is found in the evidence, tied to
    the same thing or the only candidate. "conflict": some hypothesis quantity is not found and
    the best context-tied evidence quantity of the same kind contradicts it (value, currency,
    rate unit, or a comparison the evidence value violates). "absent": no hypothesis quantities,
    or some cannot be decided (no evidence quantity of that kind, or none tied to it).
    """
    hqs = extract_quantities(hypothesis)
    if not hqs:
        return QuantityCheck("absent", "hypothesis has no quantities", None, None)
    eqs = extract_quantities(evidence)
    missing: list[tuple[Quantity, str]] = []
    first_found: tuple[Quantity, Quantity] | None = None
    pairs_found: list[tuple[Quantity, Quantity]] = []
    for h in hqs:
        if h.unit == "ref" and not any(_comparable(h, e) and e.value == h.value for e in eqs):
            return QuantityCheck(
                "absent",
                f"the evidence does not mention {h.text!r}; the hypothesis may be about another item",
                h,
                None,
            )
    for h in hqs:
        verdict, e, _ = _decide_one(hypothesis, h, hqs, evidence, eqs)
        if verdict == "conflict":
            return QuantityCheck(
                "conflict", f"hypothesis says {_fmt(h)}; evidence says {_fmt_ev(e)}", h, e
            )
        if verdict == "found":
            first_found = first_found or (h, e)
            pairs_found.append((h, e))
        elif verdict == "nokind":
            missing.append((h, f"evidence has no {h.kind} comparable with {_fmt(h)}"))
        else:
            missing.append((h, f"no evidence value tied to {_fmt(h)}"))
    if missing:
        h, why = missing[0]
        return QuantityCheck("absent", why, h, None)
    if all(h.unit == "ref" for h in hqs):
        return QuantityCheck(
            "absent", "the hypothesis quantities are only identifiers; nothing to compare", hqs[0], None
        )
    # several values of one hypothesis must be found together: in one sentence/clause of the
    # evidence ("the discount for orders over 500 units is 2%" finds "over 500 units" and "2%" in
    # two different clauses of a discount schedule: that is not an agreement)
    where = {_sentence_start(evidence, e.start) for h, e in pairs_found if h.unit != "ref"}
    if len(where) > 1:
        return QuantityCheck(
            "absent", "the hypothesis values are found in different sentences of the evidence", hqs[0], None
        )
    h, e = first_found
    n = len(hqs)
    return QuantityCheck(
        "agree",
        f"all {n} hypothesis quantit{'y' if n == 1 else 'ies'} found; e.g. {_fmt(h)} = {_fmt_ev(e)}",
        h,
        e,
    )


# ---- negation ----------------------------------------------------------------------------

_CLAUSE_SPLIT_RE = re.compile(
    r"(?:[.!?;:](?=\s|$)|\n|,?\s+\bbut\b|,?\s+\bwhereas\b|,\s+\bwhile\b|,\s+\band\b\s+(?=\w+\s+(?:is|are|shall|will|may|must)\b)|\s+\band\s+(?=(?:shall|will|may|must)\b))",
    re.IGNORECASE,
)


def _clauses(text: str) -> list[tuple[int, int]]:
    spans, pos = [], 0
    for m in _CLAUSE_SPLIT_RE.finditer(text):
        if m.start() > pos:
            spans.append((pos, m.start()))
        pos = m.end()
    if pos < len(text):
        spans.append((pos, len(text)))
    return [(a, b) for a, b in spans if text[a:b].strip()]


# "no later than", "not less than", "no more than": comparisons (handled as quantities), not polarity
_COMPARATOR_NEG = r"\b(?:no|not)\s+(?=(?:later|earlier|more|less|fewer|greater|sooner)\s+than\b)"


def _polarity_profile(text: str, a: int, b: int, qs: list[Quantity], hard_only: bool = False):
    """(content stems, negator count, has exception word) of text[a:b], quantities removed."""
    masked = list(text)
    for q in qs:
        for i in range(max(q.start, a), min(q.end, b)):
            masked[i] = " "
    seg = "".join(masked[a:b])
    seg = re.sub(_COMPARATOR_NEG, " ", seg, flags=re.I)
    seg = re.sub(r"\bin no (?:event|case)\b|\bunder no circumstances\b", " not ", seg, flags=re.I)
    seg = re.sub(r"\bnon-(?=[a-z])", "non ", seg, flags=re.I)
    seg = re.sub(r"(\w)n[’']t\b", r"\1 not", seg, flags=re.I)
    seg = re.sub(r"\bcannot\b", "can not", seg, flags=re.I)
    negs, exc, stems = 0, set(), set()
    hard = len(re.findall(r"\b(?:not|no|never|none|nor|neither)\b", seg, flags=re.I))
    for m in _WORD_RE.finditer(seg):
        w = m.group(0).lower().strip("'’")
        if w[:1].isdigit():
            continue
        if w in _NEGATORS:
            negs += 1
            continue
        if w in _EXCEPTION_WORDS:
            exc.add(w)
            continue
        if w in _STOP or len(w) < 2:
            continue
        stems.add(_stem(w))
    if hard_only:
        return stems, hard, exc
    return stems, negs, exc


def _best_clause(hypothesis: str, evidence: str):
    hstems, hneg, hexc = _polarity_profile(hypothesis, 0, len(hypothesis), extract_quantities(hypothesis))
    eqs = extract_quantities(evidence)
    best = None
    for a, b in _clauses(evidence):
        stems, neg, exc = _polarity_profile(evidence, a, b, eqs)
        cover = len(hstems & stems) / len(hstems) if hstems else 0.0
        extra = len(stems - hstems)
        key = (cover, -extra)
        if best is None or key > best[0]:
            best = (key, (a, b), stems, neg, exc)
    return (hstems, hneg, hexc), best


def check_negation(hypothesis: str, evidence: str) -> QuantityCheck:
    """Polarity flip of an otherwise matching clause.

    "conflict" when every content word of the hypothesis (at least 2, quantities ignored) occurs
    in one evidence clause with at most 3 other content words (1 for a 2-word hypothesis), no exception word (unless, except,
    only, without, if, ...) on either side, and the negator counts differ in parity ("is payable"
    vs "is not payable", "shall exceed" vs "shall not exceed", "No late fee" vs "A late fee").
    "agree" under the same match with equal parity; "absent" otherwise.
    """
    if len(_clauses(hypothesis)) > 1:
        return QuantityCheck("absent", "hypothesis is more than one clause; polarity is checked per clause", None, None)
    (hstems, hneg, hexc), best = _best_clause(hypothesis, evidence)
    if best is None or len(hstems) < 2:
        return QuantityCheck("absent", "hypothesis too short for a polarity check", None, None)
    (cover, negextra), (a, b), stems, eneg, eexc = best
    if cover < 1.0:
        return QuantityCheck("absent", "no evidence clause contains all the hypothesis words", None, None)
    # the clause must be the hypothesis plus at most 3 words (at most 1 for a 2-word hypothesis)
    if -negextra > (1 if len(hstems) == 2 else 3):
        return QuantityCheck("absent", "closest evidence clause says more than the hypothesis", None, None)
    if hexc != eexc:
        return QuantityCheck(
            "absent", "exception wording (unless/except/only/if...) differs between the two", None, None
        )
    a += len(evidence[a:b]) - len(evidence[a:b].lstrip())
    b -= len(evidence[a:b]) - len(evidence[a:b].rstrip())
    clause = evidence[a:b]
    if (hneg % 2) != (eneg % 2):
        which = "negates" if hneg % 2 else "affirms"
        return QuantityCheck(
            "conflict",
            f"hypothesis {which} what evidence clause (chars {a}-{b}) says the opposite of: {clause!r}",
            None,
            None,
            (a, b),
        )
    return QuantityCheck("agree", f"same polarity as evidence clause (chars {a}-{b}): {clause!r}", None, None, (a, b))


# ---- combined ----------------------------------------------------------------------------

_NAME_RE = re.compile(r"\b[A-Z][A-Za-z&.-]*[A-Za-z]\b")
_SENT_START_WORDS = {"The", "A", "An", "This", "That", "Each", "All", "Any", "No", "Payment", "It"}


_MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]


def _canonical(q: Quantity) -> str:
    if q.kind == "money":
        return f"{q.unit} {q.value:.2f}" if q.unit else f"{q.value:.2f}"
    if q.kind == "percent":
        return f"{q.value.normalize():f}%"
    if q.kind == "date":
        return f"{q.value.day} {_MONTH_NAMES[q.value.month - 1]} {q.value.year}"
    if q.kind == "duration":
        if q.unit == "week":  # exact, unlike months: "3 weeks" and "21 days" must read alike
            return f"{(q.value * 7).normalize():f} days"
        return f"{q.value.normalize():f} {q.unit}s"
    return f"{q.value.normalize():f}"


def canonical_text(text: str) -> str:
    """The text with every quantity written one way ("$1,200.00" and "1200 USD" both become
    "USD 1200.00"; "17/02/2026" becomes "17 February 2026"), identifiers untouched. What the NLI
    model reads: a small model treats a reformatted number as a changed one, so formats are
    settled here in code before it is asked."""
    out, at = [], 0
    for q in sorted(extract_quantities(text), key=lambda q: q.start):
        if q.unit == "ref" or q.start < at:
            continue
        out.append(text[at:q.start])
        out.append(_canonical(q))
        at = q.end
    out.append(text[at:])
    return "".join(out)


def missing_names(hypothesis: str, evidence: str) -> list[str]:
    """Capitalised names and identifiers of the hypothesis that the evidence never mentions: a
    claim about someone the evidence does not name cannot be supported by it."""
    return _missing_names(hypothesis, evidence)


def _missing_names(hypothesis: str, evidence: str) -> list[str]:
    """Capitalised names and identifiers of the hypothesis that the evidence never mentions."""
    ev = evidence.lower()
    out = []
    for m in _NAME_RE.finditer(hypothesis):
        w = m.group(0)
        initial = _sentence_start(hypothesis, m.start()) == 0 and not hypothesis[: m.start()].strip()
        if initial and not hypothesis[m.end():m.end() + 2] in ("'s", "’s"):
            continue
        if w in _SENT_START_WORDS or w.lower() in _MONTHS or w.upper() in _CURRENCY_CODES:
            continue
        if w.lower() not in ev:
            out.append(w)
    return out


def _subject_words(hypothesis: str) -> list[str]:
    """The first content word of the hypothesis that is not a document noun ("agreement",
    "invoice", ...): roughly the head of its subject ("Express delivery", "Airport parking")."""
    words = [st for _, st in _content_tokens(hypothesis, 0, len(hypothesis)) if st not in _DOC_NOUNS]
    return words[:1]


_DOC_NOUNS = {"contract", "invoice", "document", "policy", "letter", "engagement", "order", "purchas", "statement"}


def check_rules(hypothesis: str, evidence: str) -> QuantityCheck:
    """check_quantities and check_negation folded into one answer (what the verifier calls).

    conflict: the quantities conflict (unless the hypothesis names an entity the evidence never
    mentions: then it may be about something else, and the answer is absent), or the negation
    rule finds a polarity flip. agree: the quantities agree, every content word and capitalised
    name of the hypothesis occurs in the evidence, and the closest evidence clause has the same
    polarity. absent: anything else. "agree" is a statement about quantities and wording only;
    the entailment model still decides.
    """
    q = check_quantities(hypothesis, evidence)
    missing = _missing_names(hypothesis, evidence)
    if q.status == "conflict":
        subject = _subject_words(hypothesis)
        ev_all = {st for _, st in _content_tokens(evidence, 0, len(evidence))}
        if subject and not (set(subject) & ev_all):
            return QuantityCheck(
                "absent",
                f"{q.reason}; but the evidence never mentions the hypothesis subject "
                f"({' '.join(subject)}), so it may be about something else",
                q.hypothesis,
                None,
            )
        if missing:
            return QuantityCheck(
                "absent",
                f"{q.reason}; but the evidence never names {', '.join(missing)}, so it may be about something else",
                q.hypothesis,
                None,
            )
        return q
    n = check_negation(hypothesis, evidence)
    if n.status == "conflict":
        return n
    if q.status != "agree":
        return q
    if missing:
        return QuantityCheck(
            "absent", f"quantities agree but the evidence never names {', '.join(missing)}", q.hypothesis, None
        )
    (hstems, _, _), best = _best_clause(hypothesis, evidence)
    _, hneg, _ = _polarity_profile(hypothesis, 0, len(hypothesis), extract_quantities(hypothesis), True)
    ev_stems, _, _ = _polarity_profile(evidence, 0, len(evidence), extract_quantities(evidence))
    unseen = sorted(hstems - ev_stems)
    if unseen:
        return QuantityCheck(
            "absent",
            f"quantities agree but the evidence never uses the hypothesis words {', '.join(unseen)}",
            q.hypothesis,
            None,
        )
    if best is not None and hstems:
        (cover, _), (ca, cb), _, _, _ = best
        _, eneg, _ = _polarity_profile(evidence, ca, cb, extract_quantities(evidence), True)
        if cover >= 0.5 and (hneg % 2) != (eneg % 2):
            return QuantityCheck(
                "absent", "quantities agree but the closest evidence clause has the opposite polarity",
                q.hypothesis, None,
            )
    return q
