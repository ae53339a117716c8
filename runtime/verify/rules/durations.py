"""Durations: "12.5 hours" = "12.5 h" = "12.5 hrs" = "750 minutes"; "2 weeks" = "14 days";
"1 year" = "12 months"; "thirty (30) days" = "30 days"; "30-day"; "Net 30" is 30 days; "9 h 11 min" is
551 minutes and "1 year 6 months" 18 months;
"Hours logged: 38.5" is 38.5 hours. The families hour / day / month / business day are never
compared with each other (a working day is not 24 hours, 30 days is not 30 business days).
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Iterable

from warrant.runtime.verify.rules.base import DIGITS, NUMW, Claims, Found, I, free_numbers, parse_num

# French units too ("(90) jours", "jours ouvrables", "douze (12) mois"): Quebec and French documents
UNITS = [
    (r"business\s+days?|working\s+days?|banking\s+days?|jours?\s+ouvrables?", "business_day"),
    (r"calendar\s+days?|days?|jours?(?:\s+civils?)?", "day"),
    (r"hours?|hrs?\b|h\b|heures?", "hour"),
    (r"minutes?|mins?\b", "minute"),
    (r"weeks?|wks?\b|semaines?", "week"),
    (r"calendar\s+months?|months?|mois\b", "month"),
    (r"years?|yrs?\b|ann[ée]es?|ans\b", "year"),
]
# family, factor to the family's base unit
FAMILY = {
    "minute": ("hour", Decimal(1) / Decimal(60)), "hour": ("hour", Decimal(1)),
    "day": ("day", Decimal(1)), "week": ("day", Decimal(7)),
    "month": ("month", Decimal(1)), "year": ("month", Decimal(12)),
    "business_day": ("business_day", Decimal(1)),
}

_DURATION_RE = re.compile(
    rf"(?P<num>{NUMW})(?:\s*-\s*|\s*)(?P<u>" + "|".join(f"(?:{p})" for p, _ in UNITS) + r")(?![A-Za-z])", I
)
# "9 h 11 min", "2 hours and 30 minutes", "1 year 6 months", "3 weeks 2 days": one duration, in
# the smaller unit; read apart, "9 h 11 min" was an 11-minute claim
_COMPOUND = [
    (r"hours?|hrs?|h", r"minutes?|mins?|m", 60, "minute"),
    (r"years?|yrs?", r"months?", 12, "month"),
    (r"weeks?|wks?", r"days?", 7, "day"),
]
_COMPOUND_RE = [
    (re.compile(rf"(?<![\w.,])(?P<big>\d+)\s*(?:{big})\s*,?\s*(?:and\s+)?(?P<small>\d+(?:\.\d+)?)\s*(?:{small})(?![A-Za-z])", I), f, unit)
    for big, small, f, unit in _COMPOUND
]
# a span written as a clock reading: "13:20 hrs", "1:00 hr" (duty and flight times); not a time of
# day ("at 14:00 hrs", "from 07:30 to 09:30 hrs")
_CLOCK_RE = re.compile(r"(?<![\w.:,])(?<!\bat )(?<!\bfrom )(?<!\bto )(?<!\buntil )(?<!\bby )(?<!\bbefore )(?<!\bafter )(?<!\bsince )"
                       r"(?P<big>\d{1,3}):(?P<small>[0-5]\d)\s*(?:hours?|hrs?|h)(?![A-Za-z])", I)
_NET_RE = re.compile(r"\bnet\s*-?\s*(?P<num>\d{1,3})\b(?:\s+days\b)?", I)
_LABELLED_RE = re.compile(
    rf"\b(?P<u>hours|hrs|days|business\s+days)(?:\s+(?:logged|worked|billed|recorded|charged|total))?\s*:\s*(?P<num>{DIGITS})(?![\w%])",
    I,
)


def unit_name(u: str) -> str:
    u = u.lower()
    for pattern, name in UNITS:
        if re.fullmatch(pattern, u, re.IGNORECASE):
            return name
    return "day"

# "quatre-vingt-dix (90) jours": the digits in brackets after a number written in another language
_PAREN_RE = re.compile(r"\((?P<num>\d{1,4})\)\s*(?P<u>" + "|".join(f"(?:{p})" for p, _ in UNITS) + r")(?![A-Za-z])", I)


def find_durations(text: str, claims: Claims) -> Iterable[Found]:
    for rx, factor, unit in [*_COMPOUND_RE, (_CLOCK_RE, 60, "minute")]:
        for m in rx.finditer(text):
            if claims.free(m.start(), m.end()):
                claims.take(m.start(), m.end())
                yield (m.start(), m.end(), "duration", Decimal(m["big"]) * factor + Decimal(m["small"]), unit, None, ())
    for rx in (_DURATION_RE, _PAREN_RE):
        for m, num in free_numbers(rx, text, claims):
            a, b = m.start(), m.end()
            unit = unit_name(m["u"])
            if unit == "hour" and m["u"].lower() == "h" and not re.match(r"\d", m["num"]):
                continue
            if re.search(r"\d:$", text[max(0, a - 2):a]):
                continue  # the minutes of a clock reading ("at 14:00 hrs"), not a span of hours
            claims.take(a, b)
            yield (a, b, "duration", num, unit, None, ())
    for m in _NET_RE.finditer(text):
        if claims.free(m.start(), m.end()):
            claims.take(m.start(), m.end())
            yield (m.start(), m.end(), "duration", Decimal(m["num"]), "day", None, ())


def find_labelled_durations(text: str, claims: Claims) -> Iterable[Found]:
    """"Hours logged: 38.5", "Days: 12": a number labelled with a duration unit."""
    for m in _LABELLED_RE.finditer(text):
        a, b = m.start("num"), m.end("num")
        if claims.free(a, b):
            num = parse_num(m["num"], claims.decimal_comma)
            if num is not None:
                claims.take(a, b)
                yield (a, b, "duration", num, unit_name(m["u"]), None, ())


def in_base_unit(q, value=None):
    v = q.value if value is None else value
    return v * FAMILY[q.unit][1]


def canonical(q) -> str:
    if q.unit == "week":  # exact, unlike months: "3 weeks" and "21 days" must read alike
        return f"{(q.value * 7).normalize():f} days"
    return f"{q.value.normalize():f} {q.unit}s"
