"""Comparisons and frames: what a value is (a threshold or an actual value) and how two values
relate.

A comparator before a value ("exceeds $250", "more than 40 hours", "below the cap of 5%",
"before 1 July 2026") or after it ("40 hours or more") sets ``op`` (">", ">=", "<", "<="); the
leftmost comparator whose filler ("the cap of") reaches the value wins, and a negation right before
it flips it ("shall not exceed", "no later than", "not less than", "in no event ... exceed").
"within 30 days" is the period itself (no op). ``frame`` says what the value is:

* "limit": a stated threshold: cap/floor/deadline phrases ("up to", "capped at", "not exceed",
  "at least", "no later than", "by <date>") or a plain value next to a threshold word ("the cap
  is $400", "60 days' notice", "deadline", "the 24-hour cutoff").
* "value": an actual value, or a comparison of an actual value ("exceeds", "more than", "below").
* dates only: "range_start"/"range_end" and "start"/"end" (see ``dates``).

Relations of a hypothesis value H with an evidence value E:

* limit vs limit: the same threshold (equal value, same direction) supports, otherwise contradicts.
* limit vs value: a cap says nothing about what was actually billed (an invoice can break it):
  equal plain values support, anything else is neutral.
* value vs value: plain values support if equal, else contradict; a comparison in H supports when
  E satisfies it, contradicts when E violates it, and is neutral when E is the bound itself
  ("exceeds the cap of $250" against "the cap is $250"); a comparison in E (usually a condition:
  "5% for orders over 500 units") against a plain H, or two different comparisons, is neutral.
* currency or rate-unit (per hour / per day) mismatch contradicts two plain values.
* a negative amount ("(150.00)", "-$150", "150.00 CR") against a positive one: their magnitudes
  compare as above when either is labelled as a deduction ("allowance", "credit", "discount"),
  else neutral.
* range ends: equal supports; a start against a range start (or end against end) that differs
  contradicts; anything else is neutral (a date inside a period is not decided).
"""

from __future__ import annotations

import re

from warrant.runtime.verify.rules import dates, durations
from warrant.runtime.verify.rules.base import Quantity, overlapping, sentence_end, sentence_start
from warrant.runtime.verify.rules.identifiers import key
from warrant.runtime.verify.text import content_tokens, stem

# comparator phrases before a value; kinds they apply to ("date" or "num" = everything else)
_COMPARATORS: list[tuple[str, str, str]] = [
    ("in excess of", ">", "num"), ("more than", ">", "num"), ("greater than", ">", "num"),
    ("higher than", ">", "num"), ("larger than", ">", "num"), ("longer than", ">", "num"),
    ("exceeding", ">", "num"), ("exceeds", ">", "num"), ("exceeded", ">", "num"),
    ("exceed", ">", "num"), ("above", ">", "num"), ("over", ">", "num"), ("beyond", ">", "num"),
    ("at least", ">=", "any"), ("minimum of", ">=", "num"), ("a minimum of", ">=", "num"),
    # inclusive wordings: the boundary itself is where "above" and "at or above" disagree
    ("equal to or greater than", ">=", "num"), ("equal to or more than", ">=", "num"),
    ("equal to or higher than", ">=", "num"), ("equal to or larger than", ">=", "num"),
    ("greater than or equal to", ">=", "num"), ("more than or equal to", ">=", "num"),
    ("at or above", ">=", "num"), ("at or over", ">=", "num"), (">=", ">=", "num"), ("≥", ">=", "num"),
    (">", ">", "num"), ("<", "<", "num"),
    ("equal to or less than", "<=", "num"), ("equal to or lower than", "<=", "num"),
    ("equal to or fewer than", "<=", "num"), ("less than or equal to", "<=", "num"),
    ("at or below", "<=", "num"), ("at or under", "<=", "num"), ("<=", "<=", "num"), ("≤", "<=", "num"),
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
_THRESHOLD_STEMS = {stem(w) for w in ("cap", "floor", "threshold", "notice", "deadline", "cutoff", "cut-off")}
_DET = r"(?:the|a|an|its|their|this|that|our|your|his|her)"
# "exceeds the approved cap of $250": up to 3 words ending in "of"/"at", none of them a verb, so
# that "under the agreement is capped at $2m" is read as "capped at", not as "under"
_FILLER_WORD = r"(?!(?:is|are|was|were|be|been|shall|will|may|must|capped|limited|set|fixed|not)\b)[a-z][a-z-]*"
_FILLER = rf"(?:{_DET}\s+)?(?:(?:{_FILLER_WORD}\s+){{1,3}}(?:of|at)\s+)?"
_COMP_RE = re.compile(  # the leftmost comparator whose filler reaches the value wins
    r"(?:\b|(?=[<>≤≥]))(?P<phrase>"
    + "|".join(re.escape(p) for p, _, _ in sorted(_COMPARATORS, key=lambda c: -len(c[0])))
    + rf")\s*{_FILLER}$"
)
_COMP_LOOKUP = {p: (op, k) for p, op, k in _COMPARATORS}
_NEG_BEFORE_RE = re.compile(
    r"(?:\b(?:not|never|no|cannot)|n't|\bin no event|\bin no case|\bunder no circumstances)\s+"
    r"(?:(?:shall|will|may|must|does|do|did|is|are|was|were|be|to|ever|at\s+any\s+time)\s+)*$"
)
_CLAUSE_NEG_RE = re.compile(r"\bin no event\b|\bin no case\b|\bunder no circumstances\b")
# after the value, always inclusive: "40 hours or more", "500 units or more", "$5,000 and above",
# "$5,000+", "5,000 + |" (one counted noun may sit between the value and the phrase; "5,000 + 200"
# and "$500 + VAT" are sums)
# "10 years or more", "18+": a "+" only on the value's own line ("Total vouchers 212.50" over "Cash + vouchers" is no "212.50+")
_POSTFIX_RE = re.compile(
    r"(?:\s+(?!(?:or|and)\b)[a-z][a-z-]*\b)?\s*,?\s*(?:or|and)\s+(?P<w>more|greater|above|over|up|upwards|higher|longer|later"
    r"|less|fewer|below|under|lower|shorter|earlier)\b"
    r"|(?:[ \t]+(?!(?:or|and)\b)[a-z][a-z-]*\b)?[ \t]*,?[ \t]*(?P<plus>\+)(?=\s*(?:$|[|\n]|[a-z]))(?!\s*(?:tax|vat|gst|hst|shipping|freight|fees?|interest|expenses|costs?)\b)"
    r"(?![ \t]*(?:[A-Za-z]+[ \t]+){0,2}(?:[A-Z]{3}[ \t]?|[$€£¥₹][ \t]?)?\d)",  # "$100.60 + shortfall $5.00" adds, no bound
    re.IGNORECASE,
)
# a bilingual contract's German bound: up to two words (adverbs) may stand before the value
_GERMAN_LIMIT = re.compile(r"\b(?P<phrase>höchstens|maximal|bis zu|mindestens)\s+(?:[a-zäöüß]+\s+){0,2}$")
_GERMAN_LIMIT_OP = {"höchstens": "<=", "maximal": "<=", "bis zu": "<=", "mindestens": ">="}
# and a French one: "plafonné à 1 400,00 $", "limitée à", "au plus", "jusqu'à concurrence de", "d'au moins"
_FRENCH_LIMIT = re.compile(r"(?:\b(?P<cap>plafonn[ée]e?s?\s+à|limit[ée]e?s?\s+à|au\s+plus|au\s+maximum|jusqu'à\s+concurrence\s+de)"
                           r"|(?P<floor>\bau\s+moins|\bminimum\s+de))\s+$", re.I)
_POSTFIX_OP = {
    "more": ">=", "greater": ">=", "above": ">=", "over": ">=", "up": ">=", "upwards": ">=",
    "higher": ">=", "longer": ">=", "later": ">=",
    "less": "<=", "fewer": "<=", "below": "<=", "under": "<=", "lower": "<=", "shorter": "<=", "earlier": "<=",
}



def comparator(text: str, start: int, end: int, kind: str) -> tuple[str | None, str]:
    sent0 = sentence_start(text, start)
    before = text[max(sent0, start - 120):start].lower()
    before = re.sub(r"\s+", " ", before)
    m = _COMP_RE.search(before)
    op, frame = None, "value"
    if m and m.group("phrase") == "up to" and re.search(r"\b(?:add|adds|added|adding|sum|sums|summed|total|totals|totalled|totaled)\s*$", before[:m.start("phrase")]):
        m = None  # "the two notes add up to EUR 301.50": a sum, no bound
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
    if op is None and (g := _GERMAN_LIMIT.search(before)):
        op, frame = _GERMAN_LIMIT_OP[g["phrase"]], "limit"  # "höchstens jedoch insgesamt 5 %": at most 5 %, a cap
    if op is None and (g := _FRENCH_LIMIT.search(before)):
        op, frame = ("<=" if g["cap"] else ">="), "limit"
    if op is None:
        pm = _POSTFIX_RE.match(text, end)
        if pm:
            op = ">=" if pm.group("plus") else _POSTFIX_OP[pm.group("w").lower()]
    return op, frame


def near_threshold_word(text: str, q: Quantity, qs: list[Quantity]) -> bool:
    s0, s1 = sentence_start(text, q.start), sentence_end(text, q.end)
    lb = max([o.end for o in overlapping(qs, s0, q.start) if o.end <= q.start] + [s0])
    rb = min([o.start for o in overlapping(qs, q.end, s1) if o.start >= q.end] + [s1])
    punct = re.compile(r"[,;:(]").search(text, q.end, rb)
    if punct:
        rb = punct.start()
    near = content_tokens(text, lb, q.start)[-3:] + content_tokens(text, q.end, rb)[:3]
    return any(s in _THRESHOLD_STEMS for _, s in near)


def holds(x, op: str, v) -> bool:
    return {">": x > v, ">=": x >= v, "<": x < v, "<=": x <= v}[op]


def relation_values(hv, hop, hf, ev, eop, ef) -> str:
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
        if holds(ev, hop, hv):
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


def relation(h: Quantity, e: Quantity) -> str:
    if h.kind == "date":
        rr = dates.range_relation(h, e)
        if rr is not None:
            return rr
    if h.sign != e.sign and not (h.deduct or e.deduct):
        # "(150.00)" against a claimed $150 with nothing saying it is a credit or a deduction:
        # the same magnitude may be the opposite amount, and a sign alone never contradicts
        return "neutral"
    exact = h.frame == e.frame and (h.frame == "limit" or (h.op is None and e.op is None))
    if h.kind == "money" and h.unit != e.unit:
        return "contradicts" if exact else "neutral"
    if h.kind in ("money", "percent") and h.per and e.per and h.per != e.per:
        return "contradicts" if exact else "neutral"
    if h.kind == "number" and h.unit == "ref":
        return "supports" if same_ref(h, e) else "neutral"
    hvals = dates.readings(h, e) if h.kind == "date" else [h.value, *h.alt]
    evals = dates.readings(e, h) if h.kind == "date" else [e.value, *e.alt]
    rels = {
        relation_values(base_value(h, hv), h.op, h.frame, base_value(e, ev), e.op, e.frame)
        for hv in hvals
        for ev in evals
    }
    if "supports" in rels:
        return "supports"
    if rels == {"contradicts"}:
        return "contradicts"
    return "neutral"




def base_value(q: Quantity, value=None):
    v = q.value if value is None else value
    if q.kind == "duration":
        return durations.in_base_unit(q, v)
    return v


def comparable(h: Quantity, e: Quantity) -> bool:
    if h.kind != e.kind:
        return False
    if h.kind == "duration":
        return durations.FAMILY[h.unit][0] == durations.FAMILY[e.unit][0]
    if h.kind == "number":
        return (h.unit == "ref") == (e.unit == "ref")
    if h.kind == "percent":
        return h.unit == e.unit  # percentage points against points, a percentage against a percentage
    return True


def same_ref(h: Quantity, e: Quantity) -> bool:
    """Two references name the same thing: every character equal ("ORD-7703" = "ord 7703"), or,
    when one side is a labelled bare number ("invoice 4421"), the same digits."""
    kh, ke = key(h.text), key(e.text)
    if kh == ke:
        return True
    if kh.isdigit() or ke.isdigit():
        return re.sub(r"\D", "", kh) == re.sub(r"\D", "", ke)
    return False
