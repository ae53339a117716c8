"""Tying a hypothesis value to an evidence value, and the folded check the verifier calls.

Context words of a value: up to 6 content words before it (weight 1/d) and 3 after it (0.5/d),
inside its sentence or clause, other values masked; words are stems from the shared text module
(Snowball plus a small synonym table: fee/charge/price, agreement/contract, payable/due, ...). Tie
score = sum over shared words of w_h * w_e. Dates also have roles (``dates.ROLE_OF``): an evidence
date in another role never supports, and a date contradicts only a date in the same role.

Decision for one hypothesis value h over the comparable evidence values (neutral ones dropped):

* a supporting value -> found, unless it belongs to another slot: it carries a label of its own
  the hypothesis does not use ("subtotal" for a claimed "total"), or it shares with h only words
  several candidates share while h's subject sits closer to a contradicting value;
* else the best-tied contradicting value in the same slot (tie score >= 0.1 and, for plain
  numbers, the same counted noun) -> conflict, citing it;
* else undecided.

``check_quantities``: a hypothesis reference missing from the evidence -> "absent"; any conflict
-> "conflict"; all values found (and not only references) -> "agree"; else "absent".

``check_rules`` folds in the negation rule: "conflict" when the quantities conflict (downgraded
to "absent" when the hypothesis subject or a name of the hypothesis never occurs in the
evidence: it may be about something else) or the polarity flips; "agree" when the quantities
agree, every content word and name of the hypothesis occurs in the evidence, and the closest
evidence clause has the same polarity; "absent" otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

import re

from warrant.runtime.verify.rules import arithmetic, dates, derived, durations
from warrant.runtime.verify.rules.base import Quantity, QuantityCheck, overlapping, per_before, sentence_end, sentence_start
from warrant.runtime.verify.rules.comparisons import comparable, relation
from warrant.runtime.verify.rules.dates import DATE_WORD, MONTHS, RANGE_ROLE, ROLE_OF
from warrant.runtime.verify.rules.money import CURRENCY_CODES
from warrant.runtime.verify.rules.negation import best_clause, check_negation, polarity_profile
from warrant.runtime.verify.rules.numbers import counted_noun
from warrant.runtime.verify.rules.registry import extract_quantities
from warrant.runtime.verify.text import STOP, content_tokens, stem

def _masked_tokens(text: str, a: int, b: int, qs: list[Quantity]) -> list[tuple[int, str]]:
    spans = [(o.start, o.end) for o in overlapping(qs, a, b)]
    return [(pos, st) for pos, st in content_tokens(text, a, b) if not any(x <= pos < y for x, y in spans)]


def _context(text: str, q: Quantity, qs: list[Quantity]) -> dict[str, float]:
    """Context words of q with weights: 6 content words before (1/d), 3 after (0.5/d), same sentence."""
    s0 = sentence_start(text, q.start)
    s1 = sentence_end(text, q.end)
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
    s0 = sentence_start(text, q.start)
    weak = None
    for _, s in reversed(_masked_tokens(text, s0, q.start, qs)[-3:]):
        if s == DATE_WORD:
            weak = weak or "issue"
        elif s in ROLE_OF:
            return ROLE_OF[s]
    return weak


# a field naming a party: "Insurer: Granite Ridge Mutual", "Carrier: Brightwing Connect" (at a
# line's start, after a run of spaces or a cell bar)
_ROLE_FIELD = re.compile(r"(?:^|[ \t]{2,}|\|)[ \t]*(?P<role>[A-Z][a-z]+(?: [a-z]+)?):[ \t]*(?P<name>[A-Z][\w&.'-]*(?: (?:[A-Z&][\w&.'-]*|of|and|de|la))*)", re.M)


def _with_roles(ch: dict[str, float], hyp: str, ev: str) -> dict[str, float]:
    """A claim that names a party the record labels by role ("Insurer: Granite Ridge Mutual")
    speaks of that role too: the role's words join the claim's context, as near the value as the
    name is ("Granite Ridge Mutual is expected to cover $2,612.18" and "Insurer pays: $2,612.18")."""
    out = dict(ch)
    for m in _ROLE_FIELD.finditer(ev):
        name = m.group("name").strip()
        if len(name) < 4 or name not in hyp:
            continue
        near = max((ch.get(st, 0.0) for _, st in content_tokens(name)), default=0.0)
        for _, st in content_tokens(m.group("role")):
            if near > out.get(st, 0.0):
                out[st] = near
    return out


def _tie(ch: dict[str, float], ce: dict[str, float]) -> float:
    return sum(w * ce[s] for s, w in ch.items() if s in ce)


def context_tie(hyp: str, h: Quantity, hqs: list[Quantity], ev: str, e: Quantity, eqs: list[Quantity]) -> float:
    """How strongly an evidence value is tied to a claimed one by the words around both."""
    return _tie(_context(hyp, h, hqs), _context(ev, e, eqs))


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


_TIE_MIN = 0.1
# A conflict needs the contradicting value to be clearly the better tie when the claimed value sits
# in the same sentence or row: within this ratio the two readings are too close to call a claim false
# (chosen on the dev pairs; see benchmarks/bench_verifier_quality.py)
BESIDE_MARGIN = 0.75
# More values than this in the evidence (a document, not a sentence): a conflict needs a label word
# of the claim right beside the contradicting value (tie >= _TIE_CROWDED), and no computing claim.
# Chosen on the dev-tune halves (short pairs unchanged; long pairs: 19 wrong conflicts -> 1).
CROWDED = 5
_TIE_CROWDED = 1.0
# A contradicting value this well tied to the claimed one (a label word of the claim right beside
# it) states the claimed slot itself: a computation that happens to give the claimed value does
# not overrule it ("a deposit of $1,500" against "Deposit: $1,000" and some 50% elsewhere).
STATED_TIE = 1.0


def _own_label(c: dict[str, float], ch: dict[str, float], others: list[dict[str, float]]) -> str | None:
    """A word close to this value (weight >= 0.3) that the hypothesis does not use and that is
    closer to this value than to any other: "international" in "the per diem for international
    travel is $110", "lunch" in "lunch $20, dinner $45"."""
    for w, x in sorted(c.items(), key=lambda kv: -kv[1]):
        if x >= 0.3 and w not in ch and all(x > o.get(w, 0.0) for o in others):
            return w
    return None


_RULE_AFTER = re.compile(r"\b(?:must|shall|need\s+to|needs\s+to|(?:is|are)\s+required|requires?)\b", re.I)


# words a field label may carry beside the claim's own label without naming another slot
_FILLER = {stem(w) for w in ("due", "amount", "payable", "value", "sum", "grand", "final", "total", "now", "the")}
_PERIODS = {stem(w) for w in ("quarterly", "quarter", "monthly", "month", "weekly", "week", "annual", "year", "daily", "day", "each", "hourly", "hour")}
_FIELD_LABEL = re.compile(r"(?:^|\|)\s*(?P<label>[A-Za-z][A-Za-z ()'&-]{0,40}?)\s*[:|]\s*$")


def _field_of(ch: dict[str, float], ev: str, e: Quantity) -> bool:
    """The evidence value fills a labelled field ("Total due: $869.79", "| Deposit | $500 |") whose
    label is the claim's label for its value: every word of it the claim uses beside its value or
    a filler ("due", "amount"), and every word the claim puts beside its value (identifiers and
    document nouns aside) in the label. Then it is the claimed slot, stated, however many other
    values the document holds."""
    line_a = ev.rfind("\n", 0, e.start) + 1
    m = _FIELD_LABEL.search(ev[line_a:e.start])
    if not m:
        return False
    label = {st for _, st in content_tokens(m.group("label"))}
    if not label or not (label & set(ch)):
        return False
    near = {w for w, x in ch.items() if x >= 0.5 and not any(c.isdigit() for c in w) and w not in _DOC_NOUNS}
    return not _other_period(ch, ev, e) and (label - _FILLER) <= set(ch) and near <= label | _FILLER


# a value that is the first thing after its line's label: "D. TOTAL LOAN COSTS (A + B + C)   $5,110.50",
# "Net GST payable (1A - 1B): 9,830" (an item letter, a formula in parentheses and a currency aside)
_LINE_LABEL = re.compile(r"^\s*(?:[A-Z0-9]{1,2}[.)]\s+)?(?P<label>[A-Za-z][A-Za-z '&/-]*?)\s*(?:\([^()\n]*\)\s*)?[:|]?\s*(?:[A-Z]{3}\s*|[$€£¥₹]\s*)?$")


def _line_label(ev: str, e: Quantity) -> set[str]:
    """The content words of the label a value fills at the start of its line, or none."""
    m = _LINE_LABEL.match(ev[ev.rfind("\n", 0, e.start) + 1:e.start])
    return {st for _, st in content_tokens(m.group("label"))} if m else set()


def _stated_elsewhere(claim: set[str], ev: str, e: Quantity, others: list[Quantity]) -> list[Quantity]:
    """Where the claimed value ``e`` fills a line whose label names a slot the claim does not
    ("TOTAL LOAN COSTS" for "total closing costs"), the ``others`` filling a line labelled with
    the claim's own words, one of which the first label lacks ("TOTAL CLOSING COSTS"): the claimed
    slot is stated there, and the equal value is another slot's."""
    lx = _line_label(ev, e)
    if not lx or (lx - _FILLER) <= claim:
        return []
    return [y for y in others if (ly := _line_label(ev, y)) and ly <= claim | _FILLER and (ly - _FILLER) - lx]


def _other_period(ch: dict[str, float], ev: str, e: Quantity) -> bool:
    """The claim counts its value per another period than the evidence value ("each quarterly
    payment" against "EUR 97,500 per annum"): a value to divide, not the same slot."""
    line_a = ev.rfind("\n", 0, e.start) + 1
    line_b = ev.find("\n", e.end)
    line = {st for _, st in content_tokens(ev, line_a, len(ev) if line_b < 0 else line_b)}
    eper = e.per or derived.shape(ev, e).per
    return bool((set(ch) & _PERIODS) - line) or bool(eper and eper != "unit" and stem(eper) not in ch)


# a value added to a named base ("Inside FERC index + USD 0.065/MMBtu", "SOFR plus 2.25%"): a
# margin; the words before "+" are not an amount (a year may end them: "index for May 2026 + ...")
_MARGIN_BEFORE = re.compile(r"(?:[A-Za-z)]|\b(?:19|20)\d\d)\s*(?:\+|\bplus)\s*(?:[A-Z]{3}\s*|[$€£¥₹]\s*)?$")


# a value labelled as a change: "Rent increase: 3% per year", "price reduction of EUR 40"
_CHANGE_LABEL = re.compile(r"\b(?:increases?|reductions?|decreases?|rises?|escalations?|adjustments?|changes?|uplifts?|cuts?|growth|discounts?)\b[^\n.;]{0,30}$", re.I)
# a whole whose parts the record goes on to name: "USD 1.38 million, of which 61% comes from ..."
_SPLIT_AFTER = re.compile(r"\s*\)?\s*,?\s*(?:of\s+which|out\s+of\s+which)\b", re.I)


def split_whole(hyp: str, h: Quantity, ev: str, e: Quantity) -> bool:
    """The evidence value is a whole the record goes on to split, and the claim is about a part
    it names there ("..., of which 61% comes from the Ozmivent exclusion"), for less than the
    whole: the whole does not contradict it."""
    m = _SPLIT_AFTER.match(ev, e.end)
    if m is None or h.kind != e.kind or h.value >= e.value:
        return False
    part = {st for _, st in content_tokens(ev, m.end(), sentence_end(ev, m.end()))}
    whole = {st for _, st in content_tokens(ev, sentence_start(ev, e.start), e.start)}
    return bool((part - whole) & {st for _, st in content_tokens(hyp)})


_BASE_AFTER = re.compile(r"\s*(?:of|on)\s+(?:the\s+|its\s+|their\s+|each\s+)?((?:[A-Za-z][\w-]*\s*){1,4})")


def _base_of(text: str, q: Quantity) -> set[str]:
    """The content words of what a percentage is taken of ("of the at-risk amount"), or none."""
    m = _BASE_AFTER.match(text, q.end)
    return {st for _, st in content_tokens(m.group(1))} if m else set()


def decide_one(hyp: str, h: Quantity, hqs: list[Quantity], ev: str, eqs: list[Quantity]):
    """('found'|'conflict'|'undecided'|'nokind', evidence quantity or None, note)."""
    hshape = derived.shape(hyp, h)
    # an amount the claim states beside a count or measure of its own ("3,000 tonnes ... a fee of
    # EUR 49,500") is the amount for that many, never an elliptical rate ("EUR 412.50 per tonne")
    total = derived.is_total(hyp, h) or (h.kind == "money" and _counts_for(hyp, h, hqs))
    if hshape.per or total:
        d = derived.derive(hyp, h, ev, eqs)
        if d is not None:
            return d
    cands = [e for e in eqs if comparable(h, e) and _same_shape(h, hshape, derived.shape(ev, e), total)]
    if not cands:
        return "nokind", None, ""
    if h.kind == "duration" and any(_hours_as_days(h, e) for e in eqs):
        # "within two days" beside "within 48 hours": the same span in another family; whatever
        # else the record counts in days is not what the claim states
        return "undecided", None, ""
    ch = _context(hyp, h, hqs)
    hrole = _nearest_role(hyp, h, hqs) if h.kind == "date" else None
    # "items worth more than $500 must be listed": the comparison is the condition of a rule, a
    # threshold; an item of $800 is an instance of it, not the threshold
    condition = h.op is not None and _RULE_AFTER.search(hyp, h.end) is not None
    pool = []
    fielded: set[int] = set()  # values filling a field labelled as the claim labels its value
    for e in cands:
        rel = relation(h, e)
        if rel == "neutral" or (condition and e.op is None and rel == "supports"):
            continue
        if rel == "contradicts" and h.unit == "monthyear":
            continue  # "finishes at the start of December": a month is met by a date, never refuted by one
        if rel == "contradicts" and _MARGIN_BEFORE.search(ev, 0, e.start) and not _MARGIN_BEFORE.search(hyp, 0, h.start):
            continue  # "index + USD 0.065": a margin over a level the record does not state, not the level
        if rel == "contradicts" and arithmetic.CHANGE_BY.search(hyp, 0, h.start) and not (arithmetic.CHANGE_BY.search(ev, 0, e.start) or _CHANGE_LABEL.search(ev, 0, e.start)):
            continue  # "reduce revenue by AUD 152,500": a change, which a stated level does not contradict
        if rel == "contradicts" and (split_whole(hyp, h, ev, e) or inside_window(hyp, h, ev, e)):
            continue  # a part of a whole the record splits; a span inside a window the record gives
        if rel == "contradicts" and h.kind == "percent" and (hb := _base_of(hyp, h)) and (eb := _base_of(ev, e)) and not hb & eb:
            continue  # "70% of the at-risk amount" and "10% of the monthly invoice value": shares of two things
        score = _tie(ch, _context(ev, e, eqs))
        if hrole is not None:
            erole = RANGE_ROLE.get(e.frame) or _nearest_role(ev, e, eqs)
            if erole is not None and erole != hrole and rel == "supports":
                continue  # the same date in another role ("dated 1 March" is not "due 1 March")
            if erole != hrole and rel == "contradicts":
                continue  # a date contradicts only a date in the same role
        if rel == "contradicts" and _field_of(ch, ev, e):
            score = max(score, STATED_TIE)
            fielded.add(id(e))
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
    # (a party the claim names and the record labels by role speaks for its role here: it keeps an
    # exact value in the role's field from losing to one tied by a chance word; it ties no conflict)
    roles = _with_roles(ch, hyp, ev)
    disc = {w: x for w, x in roles.items() if counts.get(w, 0) < 2} if len(ctxs) > 1 else roles
    first = content_tokens(hyp, 0, len(hyp))[:1]
    subj = first[0][1] if first else None

    def clause_words(e: Quantity) -> set[str]:
        return {st for _, st in content_tokens(ev, sentence_start(ev, e.start), sentence_end(ev, e.end))}

    # only a value in the same slot can contradict, or disqualify a supporting value: a plain
    # number counting the same thing ("12 boxes" never meets "5 crates"; a year is not a count),
    # an amount without another qualifier ("subtotal" for a claimed "total")
    parts = _sum_of_parts(hyp, h)
    # a gap between two values ("EUR 1,350 higher than the invoice value") or a value in the claim's
    # condition ("If an audit finds 4% under-licensing, ...") is a case, not a level the record states
    no_level = arithmetic.MARGIN_AFTER.match(hyp, h.end) is not None or _in_scenario(hyp, h, hqs)
    # "before the corrections, the folio totalled 845" is not refuted by the "corrected folio total"
    undone = {stem(m.group("w")) for m in _BEFORE_CHANGE.finditer(hyp)}
    said = _ClaimWords(_periods(hyp), {stem(w) for w in re.findall(r"[A-Za-z]+", hyp)} & _QUALIFIERS if h.kind == "duration" else set())
    party = _party_before(hyp, h)  # read once, not per candidate value
    con = [(s_, e, c) for (s_, r, e), c in zip(pool, ctxs) if r == "contradicts" and not no_level
           and _same_count(hyp, h, ev, e) and not (h.kind in _SLOTTED and _other_slot(ch, c, _left_labels(ev, e, eqs), hyp, h.kind))
           and not (parts and not TOTAL_LABEL & set(_left_labels(ev, e, eqs)))
           and not _other_numbered(hyp, h, ev, e) and not _rate_and_span(hyp, h, ev, e) and not _changed(undone, ev, e)
           and not _other_slot_words(hyp, said, ev, e) and not _held_by_another(party, ev, e)]
    sup = []
    other_subject = []  # supporting values that belong to another subject
    # the words that label the claimed value: before it in its sentence ("own fees on the invoice
    # total EUR 240 before disbursements" labels nothing with "disbursements")
    claim_words = {st for _, st in content_tokens(hyp, sentence_start(hyp, h.start), h.start)}
    for (s_, r, e), c in zip(pool, ctxs):
        if r != "supports":
            continue
        if subj and con and _tie(disc, c) == 0 and _own_label(c, roles, [cc for _, _, cc in con]):
            own = c.get(subj, 0.0)
            # (a) the subject is in a contradicting value's clause and not in this value's clause;
            # (b) the subject is right next to a contradicting value and farther from this one
            a_ = subj not in clause_words(e) and any(subj in clause_words(x) for _, x, _ in con)
            b_ = any(cc.get(subj, 0.0) >= 0.5 and cc.get(subj, 0.0) > own for _, _, cc in con)
            if a_ or b_:
                other_subject.append(e)
                continue  # disqualified: it belongs to another subject
        if h.kind == "money" and _other_slot(ch, c, _left_labels(ev, e, eqs)):
            continue  # "subtotal" for a claimed "total", "net" for a claimed amount
        if h.kind == "money" and (stated := _stated_elsewhere(claim_words, ev, e, [x for _, x, _ in con])):
            fielded.update(map(id, stated))
            continue  # "TOTAL LOAN COSTS $5,110.50" for a claimed total closing cost stated as "TOTAL CLOSING COSTS"
        if (items := _list_labels(ev, e, eqs)) and items[id(e)] not in ch and any(w in ch for w in items.values()):
            continue  # "10 days demurrage, 7 days detention": 7 days is detention's, whatever precedes it
        if h.kind == "number" and h.unit != "ref" and (hn := counted_noun(hyp, h)) and (en := counted_noun(ev, e)) and hn != en:
            continue  # "60 boxes" is not "60 crates"
        if (hm := arithmetic.measure(hyp, h)) and (em := arithmetic.measure(ev, e)) and hm[1] != em[1]:
            continue  # "25 miles" is not "25 °C" (a measure in another unit is converted, in ``arithmetic``)
        sup.append((s_, e))
    if sup:
        sup.sort(key=lambda t: t[0], reverse=True)
        return "found", sup[0][1], ""
    # a conflict needs the same slot: tied by a label word, and a plain number counting the same
    # thing ("12 boxes" never contradicts "5 crates"; "account 4471" is a reference, not a count)
    # among many values of the kind (a long document, a table), words shared at a distance tie
    # anything to anything: a contradicting value then needs a label word of the claim right
    # beside it
    crowded = sum(e.unit != "ref" for e in eqs) > CROWDED
    need = _TIE_CROWDED if crowded else _TIE_MIN
    con = [(max(t[0], STATED_TIE) if id(t[1]) in fielded else t[0], *t[1:]) for t in con]
    # in a crowded record, "total" or "amount" beside both amounts ties a claimed reserve to a
    # column's total: the tie must come from a word naming the slot, or the value fill a field so labelled
    named = {w: x for w, x in ch.items() if w not in _FILLER}
    con = [t for t in con if t[0] >= need and (not crowded or h.kind != "money" or id(t[1]) in fielded or _tie(named, t[2]) >= need)]
    con.sort(key=lambda t: t[0], reverse=True)
    if con:
        best, e = con[0][0], con[0][1]
        # the claimed value itself sits in the same sentence or table row as the value it would
        # contradict, tied to the claim at least as well ("due on 15 July and final delivery on 30
        # September"): which slot the claim means is a reading, not a fact, and calling a true
        # claim false is the worse error, so it is left undecided
        if any(x not in other_subject and _tie(ch, _context(ev, x, eqs)) >= BESIDE_MARGIN * best for x in _stated_beside(h, e, ev, eqs)):
            return "undecided", None, ""
        adds = _ADDS_IN.search(hyp) is not None
        # (also a claimed remainder the record states for another subject and computes from this
        # value: "400" bags requested, "320" issued, "balance of 80 bags" for the claimed 80 still owed;
        # never a level: "the dwelling coverage is $210,000" is no difference of $420,000 and $210,000)
        remainder = bool(other_subject) and _REMAINDER.search(hyp) is not None
        if (best < STATED_TIE or adds or remainder) and (reading := arithmetic.derive_unique(hyp, h, ev, eqs)) is not None and (
                best < STATED_TIE or any(o is e for o in reading.operands)):
            # the claimed value is computed from values the claim is tied to ("costs $500 more
            # than", "together come to"), or adds to the very value it differs from ("with the
            # delivery charge, she has paid £1,308.99 in total"): it is not that stated value
            return "found", reading.operands[0], f"computed: {reading.how}"
        stated = id(e) in fielded or (best >= STATED_TIE and not _other_period(ch, ev, e))
        if crowded and _COMPUTES.search(hyp) and not stated:
            # in a document of many values, a claim that computes its value (a total, a rate, a
            # value after an adjustment) is not contradicted by one stated operand ("the food
            # charge, before wine, comes to £2,976" against "wine package: £18.50")
            return "undecided", None, ""
        return "conflict", e, ""
    return "undecided", None, ""


# also "VAT included" / "VAT excluded" after the word, and "20% + VAT"
_INCLUDES = re.compile(r"\b(?:includ(?:es|ed|ing)|inclusive\s+of|incl\.?|with)\s+(?P<what>[A-Za-z]+)|\b(?P<what2>[A-Za-z]+)[-\s]inclusive\b"
                       r"|\b(?P<what3>[A-Z]{2,5})\s+included\b", re.I)
_EXCLUDES = re.compile(r"\b(?:exclud(?:es|ed|ing)|exclusive\s+of|excl\.?|plus|without|before|net\s+of|on\s+top\s+of)\s+(?P<what>[A-Za-z]+)|\b(?P<what2>[A-Za-z]+)[-\s]exclusive\b"
                       r"|(?<=[\d%])\s*\+\s*(?P<what3>[A-Z]{2,5})\b|\b(?P<what4>[A-Z]{2,5})\s+excluded\b", re.I)


def inclusion_flips(hypothesis: str, text: str) -> set[str]:
    """What the claim counts in ("including GST") that ``text`` counts out ("plus GST"), or the
    reverse: the same kind of amount in another slot."""
    def whats(rx, t):
        return {stem(next(g for g in m.groups() if g)) for m in rx.finditer(t)}
    hin, hout = whats(_INCLUDES, hypothesis), whats(_EXCLUDES, hypothesis)
    win, wout = whats(_INCLUDES, text), whats(_EXCLUDES, text)
    return {w for w in (hin & wout) - win | (hout & win) - wout if w not in STOP}


# a period an amount is counted over: "the monthly fee" is not "the annual fee"
_PERIOD_ADJ = {"annual": "year", "annually": "year", "yearly": "year", "monthly": "month", "weekly": "week",
               "quarterly": "quarter", "daily": "day", "hourly": "hour"}
_PERIOD_RE = re.compile(r"\b(?:" + "|".join(_PERIOD_ADJ) + r")\b", re.I)


def _periods(text: str) -> set[str]:
    return {_PERIOD_ADJ[m.group(0).lower()] for m in _PERIOD_RE.finditer(text)}


@dataclass(frozen=True)
class _ClaimWords:
    """What a claim says of its value's slot, read once per value: the periods it counts over and,
    for a span, the qualifiers it gives it ("discount")."""

    periods: set[str]
    qualifiers: set[str]


def _other_slot_words(hyp: str, said: _ClaimWords, ev: str, e: Quantity) -> bool:
    """The evidence value's clause counts it over another period ("monthly fee" for a claimed
    "annual fee") or with a charge the claim counts the other way ("plus GST" / "including GST");
    or a claimed span is qualified as the evidence span is not ("a discount for payment within 15
    days" is not "Payment: 30 days")."""
    clause = ev[sentence_start(ev, e.start):e.end + 20]
    if said.qualifiers - {stem(w) for w in re.findall(r"[A-Za-z]+", clause)}:
        return True
    ep = _periods(clause)
    return bool(said.periods and ep and not said.periods & ep) or bool(inclusion_flips(hyp, clause))


_BEFORE_CHANGE = re.compile(r"\b(?:before|prior\s+to|ahead\s+of)\s+(?:the\s+|any\s+|its\s+|their\s+|this\s+|that\s+)?(?P<w>[A-Za-z]{4,})", re.I)


def _changed(undone: set[str], ev: str, e: Quantity) -> bool:
    """The evidence value is the one after a change the claim counts back from: its clause says
    "corrected", "revised", "adjusted" of the claim's "before the corrections", or "after the
    transfer" of its "before this transfer"."""
    if not undone:
        return False
    clause = ev[sentence_start(ev, e.start):sentence_end(ev, e.end)]
    # ... or says the value is the one after it: "remaining allocation after this transfer"
    return any(stem(w) in undone for w in re.findall(r"\b[A-Za-z]+ed\b", clause)) or any(
        stem(m.group(1)) in undone for m in _AFTER_CHANGE.finditer(clause))


_AFTER_CHANGE = re.compile(r"\b(?:after|following)\s+(?:the\s+|this\s+|that\s+|its\s+|any\s+)?([A-Za-z]{4,})", re.I)


_ADDS_IN = re.compile(r"\b(?:in\s+total|altogether|combined|together|plus|with\s+the|including|on\s+top\s+of)\b", re.I)
# "Excluding the kiln fire, the loss ratio would be under 9%": what is left when something the
# record counts in is taken out, a case the record's own level does not state
_TAKEN_OUT_WORDS = r"excluding|without|ignoring|disregarding|leaving\s+aside|setting\s+aside|apart\s+from|except\s+for|but\s+for"
_TAKEN_OUT = re.compile(_TAKEN_OUT_WORDS, re.I)
_CONDITION = re.compile(rf"\s*(?P<w>if|when|whenever|where|should|in\s+case|unless|provided\s+that|with|for|at|{_TAKEN_OUT_WORDS})\b[^,;]*[,;]", re.I)
_SCENARIO_WORDS = {"with", "for", "at"}


def _in_scenario(hyp: str, h: Quantity, hqs: list[Quantity]) -> bool:
    """The claim's value is a case, not a level the record states: it sits in the claim's
    condition ("If an audit finds 4% under-licensing, ..."), or follows a condition that sets a
    quantity of its own ("With 200 kg chargeable, the cost would be EUR 740": computed for that case)."""
    m = _CONDITION.match(hyp)
    if m is None:
        return False
    scenario = any(q.end <= m.end() and q.kind in ("number", "money", "percent", "duration") and q.unit != "ref"
                   and not (q.kind == "number" and re.fullmatch(r"(?:19|20)\d\d", q.text)) for q in hqs)  # a year sets no case
    if m.group("w").lower() in _SCENARIO_WORDS:
        return scenario  # "For the 2026 renewal, the fee is ..." states a level; "With 200 kg, ..." sets a case
    return h.start < m.end() or scenario or _TAKEN_OUT.fullmatch(m.group("w")) is not None




_QUALIFIERS = arithmetic.QUALIFIERS


_AFTER_LABEL = re.compile(r"\s+(?P<w>[A-Za-z][A-Za-z-]+)\s*(?=[,;.)]|\s+and\b|\s*$)")


def _list_labels(ev: str, e: Quantity, eqs: list[Quantity]) -> dict[int, str] | None:
    """In a list whose items put their label after the value ("10 days demurrage, 7 days
    detention"), each value's label: {id(value): stem}. None when the clause of ``e`` is not
    such a list (two or more values of its kind, each followed by one word and a separator)."""
    where = sentence_start(ev, e.start)
    out = {}
    for x in eqs:
        if x.kind != e.kind or sentence_start(ev, x.start) != where:
            continue
        m = _AFTER_LABEL.match(ev, x.end)
        if not m or m.group("w").lower() in STOP:
            return None
        out[id(x)] = stem(m.group("w"))
    return out if len(out) >= 2 and id(e) in out else None


def _left_labels(text: str, q: Quantity, qs: list[Quantity]) -> list[str]:
    """The two content words right before a value, in its sentence: its label ("Net amount:")."""
    return [st for _, st in _masked_tokens(text, sentence_start(text, q.start), q.start, qs)[-2:]]


# kinds whose values a qualifier puts in another slot (a date's "revised" is its ``_changed``)
_SLOTTED = ("money", "duration", "number")
_LEFT = re.compile(r"\b(?:left|unused|unspent|still)\b", re.I)
_REMAINDER_STEMS = {stem(w) for w in ("balance", "outstanding", "remaining")}
# of a span or a count, the qualifiers that say which state of it ("net 45 days" is payment terms)
_STATE_QUALIFIERS = _REMAINDER_STEMS | {stem(w) for w in ("interim", "estimated", "previous", "prior", "original", "revised", "partial")}


def _other_slot(ch: dict[str, float], ce: dict[str, float], left: list[str], hyp: str = "", kind: str = "money") -> bool:
    """The evidence value's label carries a qualifier the claim's value does not ("Subtotal:",
    "Net amount:", "Deposit", "Remaining to book"), or its nearest label contains the claim's
    ("subtotal" / "total"): it fills another slot. A claim that says "left" or "still owed" names
    the remainder in other words."""
    said = ch.keys() | (_REMAINDER_STEMS if _REMAINDER.search(hyp) or _LEFT.search(hyp) else set())
    if any(w in (_QUALIFIERS if kind == "money" else _STATE_QUALIFIERS) and w not in said for w in left):
        return True
    near_h = [w for w, x in ch.items() if x >= 1.0]
    near_e = [w for w, x in ce.items() if x >= 1.0]
    return any(he != ee and ee.endswith(he) and len(ee) > len(he) for he in near_h for ee in near_e)


_PARTS_BEFORE = re.compile(r"\b(?:and|plus)\b|[+&]", re.I)
# ("sum insured" is an insurance limit, not a total)
TOTAL_LABEL = {stem(w) for w in ("total", "combined", "overall", "aggregate", "grand")}


_NUMBERED = re.compile(r"\b([A-Za-z]{3,})\s+(?:no\.?\s*|#\s*)?(\d{1,3})\b(?![-/.,:]\d|\s*%)")


def _numbered_labels(text: str, q: Quantity) -> dict[str, str]:
    """"Year 2", "Phase 1", "Lot no. 3" in a value's clause before it: the numbered thing it belongs to."""
    a = max(sentence_start(text, q.start), text.rfind("\n", 0, q.start) + 1)
    return {stem(m[1]): m[2] for m in _NUMBERED.finditer(text, a, q.start) if m[1].lower() not in STOP}


def _other_numbered(hyp: str, h: Quantity, ev: str, e: Quantity) -> bool:
    """The claim's value belongs to "Year 2" and the evidence value to "Year 1": another slot."""
    hl = _numbered_labels(hyp, h)
    el = _numbered_labels(ev, e) if hl else {}
    return any(w in el and el[w] != n for w, n in hl.items())


# a duration that separates two events ("four days after the failed one") against one that
# lasts ("held for 7 days")
_INTERVAL_AFTER = re.compile(r"\s+(?:after|before|later|earlier|prior|from|since)\b", re.I)
_LENGTH_BEFORE = re.compile(r"\bfor\s+(?:another\s+|a\s+further\s+|up\s+to\s+|at\s+least\s+)?$", re.I)


def _rate_and_span(hyp: str, h: Quantity, ev: str, e: Quantity) -> bool:
    """Two slots that share a unit: an amount the claim does not label by a period against one
    the evidence labels as a rate of one ("over the two years, the stipend comes to X" against "a
    monthly stipend of Y"); a gap between two events against a length ("four days after" against
    "held for 7 days")."""
    if h.kind == "money" and h.per is None:
        return per_before(ev, e.start, prose=True) is not None and per_before(hyp, h.start, prose=True) is None
    if h.kind == "duration":
        return bool(_INTERVAL_AFTER.match(hyp, h.end)) and bool(_LENGTH_BEFORE.search(ev, max(0, e.start - 30), e.start))
    return False


def _sum_of_parts(hyp: str, h: Quantity) -> bool:
    """The claimed value totals things the claim names ("labour and parts came to $380 combined",
    "used or reserved 27 hours"): one part's amount in the evidence is another slot; only a value labelled a total contradicts."""
    a = sentence_start(hyp, h.start)
    return (derived.is_total(hyp, h) and bool(_PARTS_BEFORE.search(hyp, a, h.start))) or bool(arithmetic.EITHER_STATE.search(hyp, a, h.start))


def _same_shape(h: Quantity, hs: "derived.Shape", es: "derived.Shape", total: bool) -> bool:
    """A rate compares with a rate of the same denominator. A claimed amount without a rate unit
    may be an elliptical rate ("exceeds $250" of a rate "$300 per hour"), but a claimed count or
    total is never compared with a rate ("12 boxes" with "12 boxes per crate")."""
    if hs.per and es.per:
        # two amounts per different periods compare (and conflict); counts per different nouns do not
        return hs.per == es.per or "unit" in (hs.per, es.per) or h.kind == "money"
    if hs.per:
        return False
    if es.per:
        return h.kind in ("money", "percent") and not total
    return True


def _hours_as_days(h: Quantity, e: Quantity) -> bool:
    """A span in days and one in hours (or minutes) that are the same length: 2 days, 48 hours."""
    if e.kind != "duration" or {durations.FAMILY[h.unit][0], durations.FAMILY[e.unit][0]} != {"day", "hour"}:
        return False
    d, t = (h, e) if durations.FAMILY[h.unit][0] == "day" else (e, h)
    return durations.FAMILY[d.unit][1] * Decimal(d.value) * 24 == durations.FAMILY[t.unit][1] * Decimal(t.value)


# a span the record gives as a window ("within the 30-day opposition period", "a 14-day window")
_WINDOW_BEFORE = re.compile(r"\bwithin\s+(?:the\s+|a\s+|an\s+|its\s+|their\s+|that\s+)?$", re.I)
_WINDOW_AFTER = re.compile(r"\s+(?:[A-Za-z-]+\s+){0,2}?(?:period|window)\b", re.I)


def inside_window(hyp: str, h: Quantity, ev: str, e: Quantity) -> bool:
    """The claim measures a span between two events, and the record gives a window of at least
    that length: the window bounds the span, it does not state it (29 days after publication,
    "within the 30-day opposition period")."""
    if h.kind != "duration" or e.kind != "duration" or durations.FAMILY[h.unit][0] != durations.FAMILY[e.unit][0]:
        return False
    window = _WINDOW_BEFORE.search(ev, max(0, e.start - 20), e.start) is not None or (
        "-" in e.text and _WINDOW_AFTER.match(ev, e.end) is not None)
    return window and _INTERVAL_AFTER.match(hyp, h.end) is not None and durations.in_base_unit(h) <= durations.in_base_unit(e)


def _party_before(hyp: str, h: Quantity) -> set[str]:
    """The names the claim gives its value to: those in its sentence before the value."""
    from warrant.runtime.verify.rules.anchors import names  # anchors builds on this module

    return set(names(hyp[sentence_start(hyp, h.start):h.start]))


def _held_by_another(claimed: set[str], ev: str, e: Quantity) -> bool:
    """The claim gives its value to a party it names before it (``claimed``); the evidence
    value's sentence gives it to someone else named before it, and names the claim's party only
    after it ("Ibarra finished in 8 h 57 min, 14 minutes ahead of Brennan"): the value is the
    other party's, whatever the claim says of its own."""
    from warrant.runtime.verify.rules.anchors import names

    if not claimed:
        return False
    before = set(names(ev[sentence_start(ev, e.start):e.start]))
    return bool(before) and not before & claimed and any(n in ev[e.end:sentence_end(ev, e.end)] for n in claimed)


def _counts_for(hyp: str, h: Quantity, hqs: list[Quantity]) -> bool:
    """The claim counts or measures something besides the amount ``h`` ("3,000 tonnes", "40 hours")."""
    return any(q is not h and q.kind == "number" and q.unit != "ref" and (counted_noun(hyp, q) or arithmetic.measure(hyp, q))
               and not re.fullmatch(r"(?:19|20)\d\d", q.text) for q in hqs)


def _same_count(hyp: str, h: Quantity, ev: str, e: Quantity) -> bool:
    if h.kind != "number" or h.unit == "ref":
        return True
    hn, en = counted_noun(hyp, h), counted_noun(ev, e)
    return hn is not None and hn == en


# words of a claim whose value is computed from stated ones rather than copied (a total, a rate,
# a share, a difference, a value after or before an adjustment)
_REMAINDER = re.compile(r"\b(?:remaining|remainder|balance|outstanding|owed|owing|left\s+(?:over|to)|short(?:fall)?|still\s+(?:due|to|owed|owing))\b", re.I)
_COMPUTES = re.compile(
    r"\b(?:totals?|totall?ed|in\s+all|combined|altogether|comes?\s+to|works?\s+out|each|per|average[sd]?|"
    r"after|before|net|effective|difference|exceed(?:s|ed)?|more|less|fewer|higher|lower|up|down|increase[sd]?|"
    r"decrease[sd]?|sum|share|worth|valued|equals?|equivalent|of\s+the)\b|%\s+of\b", re.I)


def _stated_beside(h: Quantity, e: Quantity, evidence: str, eqs: list[Quantity]) -> list[Quantity]:
    """Values of the evidence equal to the claimed one in the sentence or line of ``e``."""
    where = sentence_start(evidence, e.start)
    line = evidence.rfind("\n", 0, e.start)
    return [x for x in eqs if x is not e and comparable(h, x) and (relation(h, x) == "supports" or (x.value == h.value and x.unit == h.unit))
            and (sentence_start(evidence, x.start) == where or evidence.rfind("\n", 0, x.start) == line)]


# the largest count a per-unit value is multiplied by when checking whether a claim is computable
_MAX_FACTOR = 1000


def computable(h: Quantity, eqs: list[Quantity], approx: bool = False, claimed: list[Quantity] = ()) -> bool:
    """Whether the claimed amount or count equals the difference of two evidence values or one
    times a count: "the 48 payments total $155,520" beside "48 months, $3,240 a month", or "the
    second instalment is $30,000" beside "$75,000, of which $45,000 first". (Not a sum: a total
    that adds a component twice is a common wrong claim, and a sum is rarely left unstated.) Such a value is
    derived, so a rule must not call it contradicted by one of its operands. A value the evidence
    states as it is (a subtotal claimed as the total) is another slot's value, not a computed one."""
    if h.kind not in ("money", "number") or h.unit == "ref" or not isinstance(h.value, Decimal) or h.value <= 0:
        return False
    same = [e.value for e in eqs if e.kind == h.kind and e.unit == h.unit and e.unit != "ref" and isinstance(e.value, Decimal)]
    if h.value in same:
        return False
    # the claim's own count multiplies a rate as well ("two disclosures, triggering $100,000"
    # beside "$50,000 for each disclosure")
    counts = [e.value for e in [*eqs, *claimed] if e.kind in ("number", "duration") and e.unit != "ref" and isinstance(e.value, Decimal)
              and e.value == e.value.to_integral_value() and 1 < e.value <= _MAX_FACTOR]
    for i, a in enumerate(same):
        for b in same[i + 1:]:
            if h.value == abs(a - b) or (approx and abs(abs(a - b) - h.value) <= h.value * arithmetic.APPROX_REL):
                return True
        if any(h.value == a * c for c in counts if c != a):
            return True
    return False


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
        if h.unit == "ref" and not any(comparable(h, e) and e.value == h.value for e in eqs):
            return QuantityCheck(
                "absent",
                f"the evidence does not mention {h.text!r}; the hypothesis may be about another item",
                h,
                None,
            )
    for h in hqs:
        verdict, e, note = decide_one(hypothesis, h, hqs, evidence, eqs)
        if verdict == "conflict" and (own := next((o for o in hqs if o is not h and comparable(o, e)
                                                    and (relation(o, e) == "supports" or (o.op is not None and o.value == e.value))), None)):
            # the claim states that value itself, as another of its values ("at a list price of
            # EUR 2,950, maintenance costs EUR 590 per seat", "above the 2,500 mg/l limit"): one
            # stated value fills one slot
            missing.append((h, f"{_fmt_ev(e)} is the claim's own {_fmt(own)}, not the slot of {_fmt(h)}"))
            continue
        if verdict == "conflict" and computable(h, eqs, arithmetic.approximate(hypothesis, h), [q for q in hqs if q is not h and q.kind == "number"]):
            # a total, a remainder or a per-unit product is another slot than the stated value it
            # differs from: whether it is right is arithmetic, not a contradiction of that value
            missing.append((h, f"{_fmt(h)} can be computed from the evidence values; it is not the stated {_fmt_ev(e)}"))
            continue
        if verdict == "conflict":
            how = f" ({note})" if note else ""
            return QuantityCheck(
                "conflict", f"hypothesis says {_fmt(h)}; evidence says {_fmt_ev(e)}{how}", h, e
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
    where = {sentence_start(evidence, e.start) for h, e in pairs_found if h.unit != "ref"}
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


_NAME_RE = re.compile(r"\b[A-Z][A-Za-z&.-]*[A-Za-z]\b")
_SENT_START_WORDS = {"The", "A", "An", "This", "That", "Each", "All", "Any", "No", "Payment", "It"}


def _canonical(q: Quantity) -> str:
    if q.kind == "money":
        # a minus inside the amount ("$-150") is kept; parentheses and "CR" stay in the text around it
        minus = "-" if q.sign < 0 and ("-" in q.text or "\u2212" in q.text) else ""
        v = f"{minus}{q.value:.2f}"
        return f"{q.unit} {v}" if q.unit else v
    if q.kind == "percent":
        return f"{q.value.normalize():f}%"
    if q.kind == "date":
        return dates.canonical(q)
    if q.kind == "duration":
        return durations.canonical(q)
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
        initial = sentence_start(hypothesis, m.start()) == 0 and not hypothesis[: m.start()].strip()
        if initial and not hypothesis[m.end():m.end() + 2] in ("'s", "’s"):
            continue
        if w in _SENT_START_WORDS or w.lower() in MONTHS or w.upper() in CURRENCY_CODES:
            continue
        if w.lower() not in ev:
            out.append(w)
    return out


def subject_words(hypothesis: str) -> list[str]:
    """The first content word of the hypothesis that is not a document noun ("agreement",
    "invoice", ...): roughly the head of its subject ("Express delivery", "Airport parking")."""
    words = [st for _, st in content_tokens(hypothesis, 0, len(hypothesis)) if st not in _DOC_NOUNS and st not in _NOT_HEADS]
    return words[:1]


_DOC_NOUNS = {stem(w) for w in ("contract", "invoice", "document", "policy", "letter", "engagement", "order", "purchase", "statement")}
# quantifiers and focus adverbs before a subject ("Only members ...") are not its head
_NOT_HEADS = {stem(w) for w in ("only", "solely", "exclusively", "just", "also", "even", "every", "all", "each", "both")}


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
        subject = subject_words(hypothesis)
        ev_all = {st for _, st in content_tokens(evidence, 0, len(evidence))}
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
    (hstems, _, _), best = best_clause(hypothesis, evidence)
    _, hneg, _ = polarity_profile(hypothesis, 0, len(hypothesis), extract_quantities(hypothesis), True)
    ev_stems, _, _ = polarity_profile(evidence, 0, len(evidence), extract_quantities(evidence))
    unseen = sorted(hstems - ev_stems)
    if unseen:
        return QuantityCheck(
            "absent",
            f"quantities agree but the evidence never uses the hypothesis words {', '.join(unseen)}",
            q.hypothesis,
            None,
        )
    if best is not None and hstems:
        (cover, _), (ca, cb), _, ambiguous, _ = best
        _, eneg, _ = polarity_profile(evidence, ca, cb, extract_quantities(evidence), True)
        if cover >= 0.5 and ambiguous is not None and (hneg % 2) != (eneg % 2):
            return QuantityCheck(
                "absent", "quantities agree but the closest evidence clause has the opposite polarity",
                q.hypothesis, None,
            )
    return q
