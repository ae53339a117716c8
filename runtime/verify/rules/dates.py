"""Dates: where they are (patterns), what they are (python-dateutil reads the matched span), and
what role they play (issued, due, paid, effective, ended, signed, delivered).

Formats: ISO "2026-06-30", "2026/06/30", "2026.06.30", "30-Jun-2026", "30 June 2026", "30th of June, 2026", "June 30, 2026",
"Jun 30 2026", the first day of a range naming its month once ("28 to 29 October 2024"), numeric "30/06/2026", "30.06.2026", "30-06-2026", a day and month without a
year ("3 May", "May 3rd": ``unit == "noyear"``, compared on day and month only), and a month and
year without a day ("July 2026", "ends in December 2029", ISO "2024-09": ``unit == "monthyear"``, ``value`` the
first of the month, compared on month and year only, so any date in July 2026 meets it). Day/month rule
for numeric dates: first field > 12 -> it is the day; second field > 12 -> it is the day (US
06/30/2026); both <= 12 (05/06/2026) -> ambiguous: ``value`` is the day-first reading, ``alt``
the month-first one; a check agrees if either reading agrees and conflicts only if both do, unless
the text settles the order (``numeric_order``): a stated format ("(MM/DD/YYYY)", "Date format:
DD.MM.YYYY") or, failing one, an unambiguous numeric date with the same separator ("25/03/2025"
makes "04/02/2025" 4 February). Two-digit years ("04/02/25") are read only where the text states a
"YY" format. A lone number is never a date: every pattern needs a month name or three fields.
"""

from __future__ import annotations

import dataclasses
import datetime
import re
from typing import Iterable

from dateutil import parser as dateparser

from warrant.runtime.verify.rules.base import Claims, Found, I, Quantity
from warrant.runtime.verify.text import stem

MONTHS = {
    "january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4, "apr": 4,
    "may": 5, "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8,
    "september": 9, "sep": 9, "sept": 9, "october": 10, "oct": 10, "november": 11, "nov": 11,
    "december": 12, "dec": 12,
    # French ("15 mars 2026", "1er janvier 2026"): a Quebec or French vendor's documents
    "janvier": 1, "février": 2, "fevrier": 2, "mars": 3, "avril": 4, "mai": 5, "juin": 6, "juillet": 7,
    "août": 8, "aout": 8, "septembre": 9, "octobre": 10, "novembre": 11, "décembre": 12, "decembre": 12,
}
# French month names, read only with a day and a year (lowercase, as French writes them)
_MONTH_FR = r"(?:janvier|f[ée]vrier|mars|avril|mai|juin|juillet|ao[ûu]t|septembre|octobre|novembre|d[ée]cembre)"
MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
_MONTH_RE = (
    r"(?:January|February|March|April|May|June|July|August|September|October|November|December|"
    r"Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec)"
)
_MONTH_CAP = _MONTH_RE  # a year-less date needs a capitalised month ("may" is a verb)

_PATTERNS = [
    # the first day of a range that names its month once: "from 28 to 29 October 2024", "3-5 May"
    # (only the first day is taken here; the second is a date of its own below)
    ("d_range", re.compile(rf"\b(?P<d>\d{{1,2}})(?:st|nd|rd|th)?(?=\s*(?:-|–|to|and|until|through|till)\s*\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?"
                           rf"(?P<mon>{_MONTH_CAP})\b\.?(?:,?\s+(?P<y>\d{{4}})\b)?)")),
    ("iso", re.compile(r"\b(?P<y>\d{4})-(?P<m>\d{1,2})-(?P<d>\d{1,2})\b")),
    ("ymd", re.compile(r"\b(?P<y>\d{4})(?P<sep>[/.])(?P<m>\d{1,2})(?P=sep)(?P<d>\d{1,2})\b(?![.,]?\d)")),
    # "17-Apr-2026", "17/Apr/2026", "17.Apr.2026" (ERP and banking exports)
    ("dmy_sep", re.compile(rf"\b(?P<d>\d{{1,2}})(?P<sep>[-/.])(?P<mon>{_MONTH_RE})\.?(?P=sep)(?P<y>\d{{4}})\b", I)),
    ("dmy_w", re.compile(rf"\b(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<mon>{_MONTH_RE})\.?,?\s+(?P<y>\d{{4}})\b", I)),
    ("dmy_fr", re.compile(rf"\b(?P<d>\d{{1,2}})(?:er)?\s+(?P<mon>{_MONTH_FR})\s+(?P<y>\d{{4}})\b", I)),
    ("mdy_w", re.compile(rf"\b(?P<mon>{_MONTH_RE})\.?\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<y>\d{{4}})\b", I)),
    ("num", re.compile(r"(?<![\d/.-])(?P<a>\d{1,2})(?P<sep>[/.-])(?P<b>\d{1,2})(?P=sep)(?P<y>\d{4})\b")),
    # no year: "3 May", "3rd of May", "May 3" (not "May 2026", not "3 May 2026", taken above)
    ("dm_w", re.compile(rf"\b(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<mon>{_MONTH_CAP})\b\.?(?!\s*,?\s*\d)")),
    ("md_w", re.compile(rf"\b(?P<mon>{_MONTH_CAP})\.?\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\b(?!\s*,?\s*\d|[:.,]\d)")),
    # no day: "2024-09" (an ISO month: a report period, an API's "month" field)
    ("ym", re.compile(r"(?<![\w/.-])(?P<y>(?:19|20)\d\d)-(?P<m>0[1-9]|1[0-2])(?![\w/-]|\.\w|\s*[-–]\s*\d)")),
    # no day: "July 2026", "Dec. 2029" (capitalised: "may 2026" is no date)
    ("my_w", re.compile(rf"\b(?P<mon>{_MONTH_CAP})\.?,?\s+(?P<y>\d{{4}})\b(?![.,/-]?\d)")),
]
NOYEAR = 2000  # a leap year, so 29 February without a year is a date


def _mkdate(y: int, m: int, d: int) -> datetime.date | None:
    try:
        return datetime.date(y, m, d)
    except ValueError:
        return None


def _parse_words(span: str, year: bool) -> datetime.date | None:
    """A date written with a month name, read by python-dateutil."""
    try:
        dt = dateparser.parse(span.replace(" of ", " "), default=datetime.datetime(NOYEAR, 1, 1), dayfirst=True)
    except (ValueError, OverflowError):
        return None
    return dt.date() if (year or dt.year == NOYEAR) else None


_UNSET = object()
_NUMERIC_DATE = re.compile(r"(?<![\d/.-])(\d{1,2})([/.-])(\d{1,2})\2(\d{4})\b")
# a stated format: "(MM/DD/YYYY)", "Date format: DD.MM.YYYY", "mm/dd/yy"
# French writes it "JJ/MM/AAAA" (jour/mois/annee)
_FORMAT_HINT = re.compile(r"(?<![A-Za-z])(MM|DD|JJ)([/.-])(DD|MM|JJ)\2(YYYY|YY|AAAA|AA)(?![A-Za-z])", I)
# two-digit years are read only where the text states a format with "YY"
_NUMERIC_YY = re.compile(r"(?<![\d/.-])(?P<a>\d{1,2})(?P<sep>[/.-])(?P<b>\d{1,2})(?P=sep)(?P<y>\d{2})\b(?![/.-]\d)")


def format_hints(texts: Iterable[str]) -> dict[str, tuple[str, bool]]:
    """The numeric date formats these texts state, by separator: "/" -> ("mdy", True) for
    "MM/DD/YYYY" (True: "YY" two-digit years are in use). A separator stated both ways is left out."""
    out: dict[str, tuple[str, bool]] = {}
    clash: set[str] = set()
    for t in texts:
        for m in _FORMAT_HINT.finditer(t):
            if m[1].upper() == m[3].upper() or "MM" not in (m[1].upper(), m[3].upper()):
                continue
            order = "mdy" if m[1].upper() == "MM" else "dmy"
            sep, yy = m[2], len(m[4]) == 2
            if sep in out and out[sep][0] != order:
                clash.add(sep)
            out[sep] = (order, yy or out.get(sep, ("", False))[1])
    return {k: v for k, v in out.items() if k not in clash}


def stated_format(text: str) -> str | None:
    """The numeric date format a text states ("MM/DD/YYYY"), verbatim; None when none. A window
    cut from a long record carries it, so its dates read as the record says."""
    m = _FORMAT_HINT.search(text)
    return m[0] if m and format_hints([text]) else None


def numeric_order(texts: Iterable[str], sep: str | None = None) -> str | None:
    """How the ambiguous numeric dates of these texts (one record) read: "dmy" (day first) or
    "mdy" (month first), or None when nothing settles it. A stated format ("(MM/DD/YYYY)") wins;
    else the unambiguous numeric dates ("17.04.2026" is day-first, "04/17/2026" month-first), of
    the separator ``sep`` when given, settle it when they agree. A format stated for another
    separator still applies when the text states only one order."""
    texts = list(texts)
    hints = format_hints(texts)
    if sep in hints:
        return hints[sep][0]
    seen: dict[str, set[str]] = {}
    for t in texts:
        for m in _NUMERIC_DATE.finditer(t):
            a, b = int(m[1]), int(m[3])
            if a > 12 >= b:
                seen.setdefault(m[2], set()).add("dmy")
            elif b > 12 >= a:
                seen.setdefault(m[2], set()).add("mdy")
    orders = seen.get(sep, set()) if sep is not None else set().union(*seen.values())
    if len(orders) == 1:
        return next(iter(orders))
    stated = {o for o, _ in hints.values()}
    return next(iter(stated)) if len(stated) == 1 and not orders else None


def find_dates(text: str, claims: Claims) -> Iterable[Found]:
    orders: dict[str, str | None] = {}
    patterns = _PATTERNS
    if any(yy for _, yy in format_hints([text]).values()):
        patterns = [*_PATTERNS, ("num", _NUMERIC_YY)]
    for name, rx in patterns:
        for m in rx.finditer(text):
            if not claims.free(m.start(), m.end()):
                continue
            alt: tuple = ()
            unit = None
            if name in ("iso", "ymd"):
                d = _mkdate(int(m["y"]), int(m["m"]), int(m["d"]))
            elif name in ("dmy_w", "mdy_w"):
                d = _parse_words(m.group(0), year=True)
            elif name == "dmy_fr":
                d = _mkdate(int(m["y"]), MONTHS[m["mon"].lower()], int(m["d"]))
            elif name == "dmy_sep":
                d = _parse_words(f"{m['d']} {m['mon']} {m['y']}", year=True)
            elif name in ("dm_w", "md_w"):
                d, unit = _parse_words(m.group(0), year=False), "noyear"
            elif name == "d_range":
                mon = MONTHS[m["mon"].lower().rstrip(".")]
                d, unit = (_mkdate(int(m["y"]), mon, int(m["d"])), None) if m["y"] else (_mkdate(NOYEAR, mon, int(m["d"])), "noyear")
            elif name == "ym":
                d, unit = _mkdate(int(m["y"]), int(m["m"]), 1), "monthyear"
            elif name == "my_w":
                d, unit = _mkdate(int(m["y"]), MONTHS[m["mon"].lower().rstrip(".")], 1), "monthyear"
            else:
                a, b, y = int(m["a"]), int(m["b"]), int(m["y"])
                if len(m["y"]) == 2:
                    y += 2000 if y < 70 else 1900
                if m["sep"] not in orders:
                    orders[m["sep"]] = numeric_order([text], m["sep"])
                order = orders[m["sep"]]
                if order == "mdy":
                    a, b = b, a  # now a is the day, b the month
                if a > 12 or b > 12:
                    # "25/03/2025" is read day-first whatever was stated; "03/25/2025" month-first
                    d = _mkdate(y, b, a) if b <= 12 else _mkdate(y, a, b)
                else:
                    d = _mkdate(y, b, a)  # day-first by default, and where the text is day-first
                    other = _mkdate(y, a, b)
                    if order is None and other is not None and other != d:
                        alt = (other,)
            if d is not None:
                claims.take(m.start(), m.end())
                yield (m.start(), m.end(), "date", d, unit, None, alt)


def frame_dates(text: str, out: list[Quantity]) -> list[Quantity]:
    """Date ranges ("from 01.04.2026 to 30.04.2026", "between X and Y") and single dates
    introduced as a start ("rendered from 1 March 2026") or an end ("ended on ...")."""
    for i in range(len(out) - 1):
        q1, q2 = out[i], out[i + 1]
        if q1.kind == q2.kind == "date" and q1.frame == q2.frame == "value":
            gap = text[q1.end:q2.start]
            joined = re.fullmatch(r"\s*(?:-|–|to|until|till|through)\s*", gap, I) or (
                re.fullmatch(r"\s*and\s*", gap, I) and re.search(r"\bbetween\s*$", text[max(0, q1.start - 20):q1.start], I)
            )
            if joined:
                out[i] = _reframe(q1, "range_start")
                out[i + 1] = _reframe(q2, "range_end")
    for i, q in enumerate(out):
        if q.kind == "date" and q.frame == "value" and q.op is None:
            tail = text[max(0, q.start - 30):q.start].lower()
            side = None
            if re.search(r"\b(?:from|starting(?: on)?|commencing(?: on)?|beginning(?: on)?|start(?:s|ed)? on)\s*$", tail):
                side = "start"
            elif re.search(r"\b(?:until|till|through|ending(?: on)?|end(?:s|ed)? on|expir(?:es|ed|ing)? on)\s*$", tail):
                side = "end"
            if side:
                out[i] = _reframe(q, side)
    return out


def _reframe(q: Quantity, frame: str) -> Quantity:
    return dataclasses.replace(q, op=None, frame=frame)


def readings(q: Quantity, other: Quantity) -> list:
    """The values of date ``q`` to compare with date ``other``: a date without a year is
    compared on day and month only, a month without a day on month and year only."""
    vals = [q.value, *q.alt]
    if "monthyear" in (q.unit, other.unit):
        # a month against a day without a year: nothing to compare
        return [] if "noyear" in (q.unit, other.unit) else [v.replace(day=1) for v in vals]
    if q.unit == "noyear" or other.unit == "noyear":
        return [v.replace(year=NOYEAR) if not (v.month == 2 and v.day == 29) else datetime.date(NOYEAR, 2, 29) for v in vals]
    return vals


# Roles, from the words before a date. Written as words; compared as stems.
_ROLE_WORDS = {
    "issue": ("issued", "dated", "issue"),
    "send": ("sent", "send", "mailed", "emailed", "submitted", "submit"),
    "due": ("due", "payable"),
    "pay": ("paid", "payment", "pay", "received", "settled", "remitted"),
    "effective": ("effective", "commencing", "commence", "start", "begin", "begins", "from"),
    "end": ("expires", "expiry", "end", "ends", "terminates", "termination", "until", "through"),
    "sign": ("signed", "sign", "executed"),
    "deliver": ("delivered", "delivery", "shipped", "ship", "ships", "shipment", "dispatched", "dispatch"),
}
ROLE_OF = {stem(w): role for role, words in _ROLE_WORDS.items() for w in words}
DATE_WORD = stem("date")
RANGE_ROLE = {"range_start": "effective", "range_end": "end"}
RANGE_SIDE = {"range_start": "start", "range_end": "end"}


def range_relation(h: Quantity, e: Quantity) -> str | None:
    """Relation when either date is an end of a range; None when neither is."""
    if h.frame not in RANGE_SIDE and e.frame not in RANGE_SIDE:
        return None
    hs = RANGE_SIDE.get(h.frame, h.frame)
    es = RANGE_SIDE.get(e.frame, e.frame)
    if any(hv == ev for hv in readings(h, e) for ev in readings(e, h)):
        return "supports"
    # "from 1 March" against a period starting 1 April is a conflict; a date inside or outside a
    # period in any other role is not decided here
    if hs in ("start", "end") and hs == es:
        return "contradicts"
    return "neutral"


def canonical(q: Quantity) -> str:
    if q.unit == "noyear":
        return f"{q.value.day} {MONTH_NAMES[q.value.month - 1]}"
    if q.unit == "monthyear":
        return f"{MONTH_NAMES[q.value.month - 1]} {q.value.year}"
    return f"{q.value.day} {MONTH_NAMES[q.value.month - 1]} {q.value.year}"
