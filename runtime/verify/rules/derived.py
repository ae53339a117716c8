"""Values computed from two stated values: per-unit rates and averages (a ratio) and totals (a
product). "averages 12 boxes per crate" against "Crates: 5 | Boxes: 60" is 60 / 5 = 12, not a
conflict between 12 and 60; "a total of $10,000" against "40 hours at $250 per hour" is 40 x 250.

A claimed value that is a rate or a total is compared only with values of the same shape or with
the computation; each operand must be the one value of its noun (or currency) in the evidence,
so the computation never picks between candidates. Arithmetic is Decimal, never ``eval``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

from warrant.runtime.verify.rules.base import I, Quantity, sentence_end
from warrant.runtime.verify.rules.arithmetic import operand_words
from warrant.runtime.verify.rules.numbers import counted_noun
from warrant.runtime.verify.text import STOP, content_tokens, stem

_PER_AFTER = re.compile(r"\s*(?:(?P<noun>[A-Za-z][A-Za-z-]+)\s+)??(?:per|each|for\s+each|for\s+every|every|a|an)\s+(?P<per>[A-Za-z][A-Za-z-]+)\b", I)
# "SGD 185 per 20' and SGD 260 per 40' container": a price per thing of a size
_PER_SIZE = re.compile(r"\s*(?:per|each|a|an|for\s+each)\s+\d+(?:['’]|-?(?:ft|foot|feet)\b)\s*(?P<per>[A-Za-z][A-Za-z-]+)?", I)
_EACH_AFTER = re.compile(r"\s*(?:(?P<noun>[A-Za-z][A-Za-z-]+)\s+)?each\b", I)
_AVERAGE_BEFORE = re.compile(r"\b(?:average[sd]?|averaging|mean|on\s+average)\b[\w\s,]{0,30}$", I)
_TOTAL_NEAR = re.compile(r"\btotal(?:s|ed|led|ing|ling)?\b|\bin\s+all\b|\baltogether\b|\bcombined\b", I)
# "Each pallet holds 30 cartons", "Each instalment is $32,000": a rate per the noun after "each",
# when the value's own clause starts with it (nothing but words between them; "Ms." is a word)
_EACH_BEFORE = re.compile(r"\beach\s+(?P<per>[A-Za-z][A-Za-z-]+)\b(?:[^.;:\d$€£]|(?<=[A-Za-z]-)\d|(?<=\d)\d|(?<=\bM[rs])\.|(?<=\bMrs)\.|(?<=\bDr)\.){0,60}$", I)
# "three equal instalments": the noun after an adjective of how the parts are cut
_PARTS = re.compile(r"\s+(?:equal|separate|consecutive|identical|monthly|quarterly|annual|weekly)\s+(?P<noun>[A-Za-z][A-Za-z-]+)", I)
_DURATION_NOUN = {"hour": "hour", "day": "day", "week": "week", "month": "month", "year": "year", "minute": "minute", "business_day": "day"}


@dataclass(frozen=True)
class Shape:
    """What a value measures: ``what`` (a counted noun's stem, a currency, a duration unit) and,
    for a rate, ``per`` (the stem of the noun it is divided by)."""

    what: str | None
    per: str | None = None


def _each_before(text: str, q: Quantity) -> str | None:
    m = _EACH_BEFORE.search(text, max(0, q.start - 80), q.start)
    return stem(m.group("per")) if m and m.group("per").lower() not in STOP else None


def shape(text: str, q: Quantity) -> Shape:
    if q.kind == "money":
        per = q.per if q.per and q.per != "unit" else None
        m = _PER_AFTER.match(text, q.end) if per is None else None
        if m and not m.group("noun"):
            per = stem(m.group("per"))
        elif per is None and _EACH_AFTER.match(text, q.end):
            per = "unit"
        elif per is None and (size := _PER_SIZE.match(text, q.end)):
            per = stem(size.group("per")) if size.group("per") and size.group("per").lower() not in STOP else "unit"
        elif per is None:
            per = _each_before(text, q)
        return Shape(q.unit, per)
    if q.kind == "duration":
        m = _PER_AFTER.match(text, q.end)
        return Shape(_DURATION_NOUN.get(q.unit, q.unit), stem(m.group("per")) if m and not m.group("noun") else None)
    if q.kind != "number" or q.unit == "ref":
        return Shape(None)
    m = _PER_AFTER.match(text, q.end)
    if m and m.group("noun") and m.group("noun").lower() not in STOP:
        return Shape(stem(m.group("noun")), stem(m.group("per")))
    if m and _AVERAGE_BEFORE.search(text[max(0, q.start - 40):q.start]):
        return Shape(counted_noun(text, q), stem(m.group("per")))
    parts = _PARTS.match(text, q.end)
    noun = stem(parts.group("noun")) if parts else counted_noun(text, q)
    each = _each_before(text, q)
    return Shape(noun, each if each and each != noun else None)


def is_total(text: str, q: Quantity) -> bool:
    return bool(_TOTAL_NEAR.search(text[max(0, q.start - 40):min(len(text), q.end + 40)]))


def _unique(cands: list[Quantity]) -> Quantity | None:
    vals = {c.value for c in cands}
    return cands[0] if len(vals) == 1 else None


def _close(claimed: Decimal, computed: Decimal) -> bool:
    """Equal at the precision the claim is written in ("12" for 12.0, "$83.33" for 250/3)."""
    exp = claimed.as_tuple().exponent
    quantum = Decimal(1).scaleb(exp if isinstance(exp, int) else 0)
    return abs(computed - claimed) <= quantum / 2


_PERIOD_STEMS = {stem(w) for w in ("hourly", "hour", "daily", "day", "weekly", "week", "monthly", "month",
                                    "quarterly", "quarter", "annual", "annually", "year", "yearly", "per", "each")}


def _labelled_as_claimed(hyp: str, ev: str, e: Quantity) -> bool:
    """The words labelling evidence value ``e`` (its table row and column, or the words before it
    in its clause) name what the claim names, beyond a period: "a monthly stipend of EUR 1,050"
    is not the operand of a claimed meal allowance per month."""
    words = operand_words(ev, e, after=0)  # the words after a value name the next one
    claim = {st for _, st in content_tokens(hyp)}
    return bool((words - _PERIOD_STEMS) & claim)


# a count that is itself counted per something ("two (2) weeks of base pay for each full year")
_SCALED_AFTER = re.compile(r"\bfor\s+(?:each|every)\b", I)


def derive(hyp: str, h: Quantity, ev: str, eqs: list[Quantity]) -> tuple[str, Quantity | None, str] | None:
    """("found" | "conflict", an operand, how it was computed) when ``h`` is a rate or a total
    the evidence states the operands of; None when no computation applies."""
    hs = shape(hyp, h)
    shaped = [(e, shape(ev, e)) for e in eqs if e.unit != "ref" and e.kind in ("number", "money", "duration")]
    if hs.per:  # a rate: numerator / denominator
        if any(s.what == hs.what and s.per == hs.per for _, s in shaped):
            return None  # the evidence states the rate itself: compared directly
        num = _unique([e for e, s in shaped if s.what == hs.what and s.per is None and e.kind == h.kind])
        den = _unique([e for e, s in shaped if s.what == hs.per and s.per is None])
        if num is None or den is None or den.value == 0:
            return None
        value = Decimal(num.value) / Decimal(den.value)
        how = f"{num.text} / {den.text} = {value.normalize():f}"
        if _close(Decimal(h.value), value):
            return "found", num, how
        # the one amount of its currency is not therefore the one the claim divides: a quotient
        # contradicts only when the numerator is labelled as the claim labels its value
        return ("conflict", num, how) if _labelled_as_claimed(hyp, ev, num) else None
    if is_total(hyp, h) and h.kind in ("money", "number"):
        for rate, rs in shaped:
            if not rs.per or rs.what != hs.what or rate.kind != h.kind:
                continue
            counts = [e for e, s in shaped if e is not rate and s.per is None and (s.what == rs.per or (rs.per == "unit" and e.kind == "number"))]
            count = _unique(counts)
            if count is None or _SCALED_AFTER.search(ev, count.end, sentence_end(ev, count.end)):
                continue  # "two weeks of pay for each year of service": the count is itself a rate
            value = Decimal(rate.value) * Decimal(count.value)
            how = f"{count.text} x {rate.text} = {value.normalize():f}"
            if _close(Decimal(h.value), value):
                return "found", rate, how
            others = [e for e, es in shaped if e is not rate and e is not count and e.kind == h.kind and es.per is None
                      and (h.kind != "money" or e.unit == h.unit)]
            if others:
                return None  # "labour and parts came to ...": the total may add other amounts stated beside it
            return "conflict", rate, how
    return None
