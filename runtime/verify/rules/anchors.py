"""Anchors: what a free-text claim must find in its supporting window before the model may pass it.

A model's "entails" is a judgement about two texts; it does not check that the evidence is about
the same invoice, party, date or amount. So a claim passes only when every anchor it carries is
found, with the same role, in the window that supports it:

* every number, amount, percentage, date and duration, tied to the same slot (``check.decide_one``:
  same kind, unit, role, label), or computed from two stated values (``derived``);
* every identifier with all its characters ("ORD-7702" is not "ORD-7703");
* every proper name ("Lindqvist", "Harbor Legal");
* the same polarity (hard negators) and the same mode and tense (``negation.same_mode``);
* every quantifier or bound of the claim ("only", "all", "at least", "at most") said about it.

The window is the chunk the model read, plus the record's title or identifier line and the
sentence before the chunk: a claim naming its own document ("invoice INV-88 ...") is not failed
because the chunk left out the header that names it.

    >>> missing_anchors("ORD-7702 shipped on 3 May 2026.", "Order ORD-7703 shipped on 3 May 2026.")
    ["identifier 'ORD-7702' does not occur in the window"]
"""

from __future__ import annotations

import re
from decimal import Decimal
from functools import lru_cache

from warrant.runtime.verify.rules import arithmetic, derived
from warrant.runtime.verify.rules.check import (STATED_TIE, TOTAL_LABEL, context_tie, decide_one, inclusion_flips, inside_window, split_whole,
                                                subject_words)
from warrant.runtime.verify.rules.base import Quantity
from warrant.runtime.verify.rules.comparisons import comparable, relation, same_ref
from warrant.runtime.verify.rules.dates import MONTHS
from warrant.runtime.verify.rules.ranking import is_ordering
from warrant.runtime.verify.rules.identifiers import key, near_miss
from warrant.runtime.verify.rules.money import CURRENCY_CODES
from warrant.runtime.verify.rules.numbers import counted_noun
from warrant.runtime.verify.rules.negation import NEGATORS, best_clause, polarity_profile, same_mode
from warrant.runtime.verify.rules.registry import extract_quantities
from warrant.runtime.verify.text import STOP, content_stems, normalise, sentence_bounds, sentence_spans, stem

_ID_TOKEN = re.compile(r"\b(?=[A-Za-z0-9-/#]*\d)(?=[A-Za-z0-9-/#]*[A-Za-z])[A-Za-z0-9][A-Za-z0-9-/#]*[A-Za-z0-9]\b")
# digit groups joined by hyphens ("30-118-2267", "4471-0093", "708312-4"): account, container and
# phone-like numbers, compared with every digit; not ISO dates or year ranges ("2026-05-21", "2024-25")
_DIGIT_ID = re.compile(r"(?<![\w.,/-])(?!(?:19|20)\d\d-\d\d(?:-\d\d)?\b)(?!(?:19|20)\d\d-(?:19|20)\d\d\b)\d+(?:-\d+)+(?![\w.,/-]*\d)")


def _id_tokens(text: str) -> list[str]:
    return _ID_TOKEN.findall(text) + [t for t in _DIGIT_ID.findall(text) if sum(c.isdigit() for c in t) >= 5]


_NAME_RE = re.compile(r"\b[A-Z][A-Za-z&'’.-]*[A-Za-z]\b|\b[A-Z]\b")
_COMMON_STARTERS = {"The", "A", "An", "This", "That", "These", "Those", "Each", "All", "Any", "No", "It", "Its", "Our", "Their", "Every", "Both", "Either", "Neither", "In", "On", "At", "For", "By", "Under", "If", "When", "As", "There", "I",
                    # a clause or phrase opening the claim ("Before Call No. 7, ...", "Once Call 4 is funded, ...")
                    "Before", "After", "Once", "Including", "Excluding", "Leaving", "Without", "With", "During", "Since", "Until",
                    "While", "Where", "From", "Over", "Between", "Unless", "Upon", "Following", "Across", "Within", "Apart", "Because",
                    "Although", "Then", "Of", "To", "Per", "Counting", "Ignoring", "Setting", "Taking", "Not"}
TITLE_MAX = 200  # a title or identifier line is short


def title_line(text: str) -> str:
    """The record's title or identifier line: its first line when more lines follow, else its
    first sentence; empty when that is long (then it is body text, not a title)."""
    head = text[:TITLE_MAX + 200].lstrip()
    line, _, rest = head.partition("\n")
    if not rest.strip():
        spans = sentence_spans(line)
        line = line[spans[0][0]:spans[0][1]] if len(spans) > 1 else ""
    line = line.strip()
    return line if 0 < len(line) <= TITLE_MAX else ""


def window_context(text: str, start: int) -> str:
    """Title line plus the sentence before character ``start`` (empty where there is none)."""
    prev = ""
    if start > 0:
        a, _ = sentence_bounds(text, max(0, start - 2))
        prev = text[a:start].strip()
    title = title_line(text)
    if title and title in prev:
        title = ""
    return "\n".join(p for p in (title, prev) if p)


@lru_cache(maxsize=1)
def _vocabulary() -> frozenset[str]:
    """Whole English words of the embedded model's WordPiece vocabulary (30k entries): a first
    word it does not know ("Constanta", "Lindqvist") is taken for a name."""
    from warrant.runtime.verify.backends.registry import default_model_dir

    path = default_model_dir() / "vocab.txt"
    if not path.is_file():
        return frozenset()
    return frozenset(w for w in path.read_text(encoding="utf-8").split() if w.isalpha())


def _unknown_word(word: str) -> bool:
    vocab = _vocabulary()
    return bool(vocab) and word.lower() not in vocab


_HONORIFICS = {"Mr", "Mrs", "Ms", "Dr", "Prof", "Mx"}


def names(hypothesis: str) -> list[str]:
    """Proper names of the hypothesis: capitalised words after the first word, and a first word
    that is a single letter, all capitals, possessive or followed by another capitalised word."""
    out = []
    for m in _NAME_RE.finditer(hypothesis):
        w = m.group(0).rstrip(".")
        if w.lower() in MONTHS or w.upper() in CURRENCY_CODES or _ID_TOKEN.fullmatch(w):
            continue
        if w in _HONORIFICS and (hypothesis[m.end():m.end() + 1] == "." or re.match(r"\s+[A-Z]", hypothesis[m.end():])):
            continue  # "Ms. Nwosu", "Ms Hollis": the name is the next word; the window may write "Ms Nwosu" or "Adaeze Nwosu"
        if hypothesis[m.end():m.end() + 1] == "$":  # "US$", "C$": a currency, compared as money
            continue
        if hypothesis[max(0, m.start() - 2):m.start()].strip().endswith("°"):  # "°F": a unit, compared as a measure
            continue
        if re.match(r"[-/#]?\d", hypothesis[m.end():m.end() + 2]):  # "INV" of "INV-88": an identifier
            continue
        before = hypothesis[: m.start()].rstrip()
        initial = not before or (before.endswith((".", "!", "?", ":")) and not re.search(r"\b[A-Z]\.$|\b(?:Dr|Mr|Ms|Mrs|No)\.$", before))
        if initial:
            after = hypothesis[m.end():m.end() + 3]
            nxt = re.match(r"\s+[A-Z]", hypothesis[m.end():])
            if w in _COMMON_STARTERS or not (len(w) == 1 or w.isupper() or after.startswith(("'s", "’s")) or nxt or _unknown_word(w)):
                continue
        elif w in ("I",) or w.lower() in STOP:
            continue
        out.append(w)
    return out


# digits with a word attached are a measure, not an identifier: "30-day", "one-year", "24x7", "3rd", "10am"
_NOT_AN_ID = re.compile(r"\d+(?:[-.,]\d+)?-?[a-z]+|\d+x\d+|[a-z]+-\d+(?:st|nd|rd|th)?|\d+(?:st|nd|rd|th)", re.I)


def identifiers(hypothesis: str) -> list[str]:
    """Tokens mixing letters and digits ("INV-88", "ORD-7703", "GRN-4471", "SOW-3"): each must be
    found with every character."""
    out = []
    for m in _ID_TOKEN.finditer(hypothesis):
        t = m.group(0)
        if _NOT_AN_ID.fullmatch(t) and not re.match(r"[A-Z]", t):
            continue
        out.append(t)
    return out + [t for t in _id_tokens(hypothesis) if t not in out and _DIGIT_ID.fullmatch(t)]


def _found_name(name: str, window: str, window_stems: set[str]) -> bool:
    if re.search(r"(?<![A-Za-z])" + re.escape(name.lower()) + r"(?![A-Za-z])", window.lower()):
        return True
    return " " not in name and stem(name) in window_stems


# Share of the claim's content words the chunk itself must hold, and the support a comparison
# between two unquantified things needs ("Phase 2 starts before Phase 1 ends"): chosen on the
# dev-tune half for a false-pass rate at or under 1% (benchmarks/bench_verifier_quality.py).
CORE_COVER = 0.5
RELATION_MIN_P = 0.9
_RELATION = re.compile(r"\b(?:before|after|earlier|later|sooner|more|less|fewer|greater|higher|lower|longer|shorter|larger|smaller|exceeds?|exceeding|than"
                       r"|most|least|fewest|highest|lowest|largest|smallest|longest|shortest|biggest|greatest|earliest|latest|cheapest)\b", re.I)


def missing_anchors(hypothesis: str, window: str, core: str | None = None, model_p: float | None = None,
                    derived: frozenset[int] = frozenset()) -> list[str]:
    """Why ``window`` cannot support ``hypothesis``: each anchor not found in it with the same
    role. Empty: every anchor is there. ``core`` is the chunk the model read (the window minus its
    context), where polarity and mode are judged; the whole window by default. ``derived``: start
    offsets of claim values already computed from the window (``derived_support``)."""
    # typographic quotes, dashes and no-break spaces must not hide an anchor ("ORD–7703")
    hypothesis, window = normalise(hypothesis), normalise(window)
    core = window if core is None else normalise(core)
    out: list[str] = []
    wkeys = {key(t) for t in _id_tokens(window)}
    wq = extract_quantities(window)
    reported = set()
    for ident in identifiers(hypothesis):
        if key(ident) not in wkeys:
            reported.add(key(ident))
            out.append(f"identifier {ident!r} does not occur in the window")
    window_stems = {stem(w) for w in re.findall(r"[A-Za-z][A-Za-z'’-]*", window)}
    found = []
    for n in names(hypothesis):
        if not _found_name(n, window, window_stems):
            out.append(f"names {n}, which the window never mentions")
        else:
            found.append(n)
    out.extend(_roles(hypothesis, window, found))
    hq = extract_quantities(hypothesis)
    for h in hq:
        if h.unit == "ref":
            if key(h.text) in reported:
                continue
            if not any(e.unit == "ref" and same_ref(h, e) for e in wq) and key(h.text) not in wkeys and not re.search(rf"(?<![\w.,]){re.escape(h.text)}(?![\w]|[.,]\d)", window):
                out.append(f"reference {h.text!r} does not occur in the window")
            elif (noun := _numbered_noun(hypothesis, h.start)) and h.text.isdigit() and not _numbered_in(window, noun, h.text):
                # "payment application no. 3": the number of that thing, not a 3 found elsewhere ("milestone 3")
                out.append(f"the window never gives {noun} the number {h.text}")
            continue
        if h.start in derived:
            continue
        verdict, _, _ = decide_one(hypothesis, h, hq, window, wq)
        if verdict != "found":
            out.append(f"{h.text!r} is not stated in the window for the same thing")
    out.extend(_polarity_and_mode(hypothesis, core))
    out.extend(_inclusion(hypothesis, window))
    out.extend(why for why, _ in opposites(hypothesis, core))
    out.extend(why for why, _ in agent_conflicts(hypothesis, window))
    out.extend(possessor_swaps(hypothesis, window))
    out.extend(_status(hypothesis, window))
    out.extend(quantifiers(hypothesis, window))
    out.extend(_other_group(hypothesis, window_stems))
    hstems = set(content_stems(hypothesis)) - _DOC_STEMS
    if hstems and len(hstems & set(content_stems(core))) < CORE_COVER * len(hstems):
        out.append("the chunk the model read says little of the claim (its support comes from the context alone)")
    if not [q for q in hq if q.unit != "ref"] and (rel := _RELATION.findall(hypothesis)):
        if model_p is not None and model_p < RELATION_MIN_P:
            out.append(f"a comparison between two things the claim does not quantify needs P(entailment) >= {RELATION_MIN_P}")
        elif is_ordering(hypothesis) and not {stem(w) for w in rel if w.lower() != "than"} & window_stems:
            # the model cannot order values: it may only pass an order the window states in words
            out.append(f"the claim orders two things ({', '.join(dict.fromkeys(w.lower() for w in rel))}) and the window states no such order")
    return out


_NUMBERED_BEFORE = re.compile(r"\b(?P<noun>[A-Za-z]{3,})\s+(?:no\.?|number|nr\.?|#)\s*$", re.I)


def _numbered_noun(text: str, at: int) -> str | None:
    """The noun a bare reference number counts ("application" in "application no. 3")."""
    m = _NUMBERED_BEFORE.search(text, max(0, at - 40), at)
    return m.group("noun").lower() if m else None


def _numbered_in(window: str, noun: str, digits: str) -> bool:
    """The window numbers that noun so; a long number marked as one ("#2304") needs no noun."""
    if len(digits) >= 3 and re.search(rf"(?:#|\bno\.?\s*)0*{int(digits)}(?!\d|[.,]\d)", window, re.I):
        return True
    rx = re.compile(rf"\b(?P<noun>[A-Za-z]{{3,}})\s+(?:(?:no\.?|number|nr\.?|#)\s*)?0*{int(digits)}(?!\d|[.,]\d)", re.I)
    return any(stem(m.group("noun")) == stem(noun) for m in rx.finditer(window))


# "Quantities on different purchase orders are not aggregated": the verb a "not" or "never" negates
_NEGATED_WORD = re.compile(r"\b(?:not|never|n't)\s+(?:be\s+|been\s+|being\s+)?([A-Za-z]{4,})\b", re.I)


def _only_negated(hstems: set[str], window: str) -> str | None:
    """A word of an affirmative claim that the window uses only as the word a "not" negates: the
    clause that matches the claim best may be another one ("The tier is determined by the quantity
    on one line. Quantities on different orders are not aggregated." against "quantities are
    aggregated across orders")."""
    # "shall not subcontract ... without the Client's consent" negates only a case: no veto from it
    negated = {m.start(1): m.group(1) for m in _NEGATED_WORD.finditer(window)
               if stem(m.group(1).lower()) in hstems - _NEGATED_COMPARISON
               and not _CASE_WORDS.search(window[slice(*sentence_bounds(window, m.start(1)))])}
    if not negated:
        return None
    used: dict[str, list[int]] = {}  # every place the window uses each word of the claim
    for m in re.finditer(r"[A-Za-z]{4,}", window):
        if (st := stem(m.group(0).lower())) in hstems:
            used.setdefault(st, []).append(m.start())
    return next((word for word in negated.values() if all(at in negated for at in used.get(stem(word.lower()), ()))), None)


_CASE_WORDS = re.compile(r"\b(?:without|unless|except|other than|save)\b", re.I)
# "not later than", "not more than": a bound, not a negated event
_NEGATED_COMPARISON = {stem(w) for w in ("later", "earlier", "more", "less", "fewer", "greater", "sooner", "exceed", "exceeding", "only", "just")}


def _polarity_and_mode(hypothesis: str, core: str) -> list[str]:
    out = []
    (hstems, _, _), best = best_clause(hypothesis, core)
    if best is not None and hstems and not _same_limit(hypothesis, core):
        _, hneg, _ = polarity_profile(hypothesis, 0, len(hypothesis), extract_quantities(hypothesis), True)
        (cover, _), (a, b), _, ambiguous, _ = best
        _, eneg, _ = polarity_profile(core, a, b, extract_quantities(core), True)
        if cover >= 0.5 and ambiguous is not None and (hneg % 2) != (eneg % 2):
            out.append("the closest evidence clause has the opposite polarity")
        elif hneg % 2 == 0 and (only := _only_negated(hstems, core)):
            out.append(f"{only!r} is stated only negated in the window")
    why = same_mode(hypothesis, core)
    if why:
        out.append(why)
    return out




def _inclusion(hypothesis: str, window: str) -> list[str]:
    """An amount "including VAT" is not one "excluding VAT" or "plus VAT" (and the reverse): the
    same number in another slot."""
    return [f"the claim counts {w!r} the other way round from the window (including / excluding)" for w in sorted(inclusion_flips(hypothesis, window))]


# a decision or state the claim reports, and the words that say it did not happen (yet)
_DONE = {stem(w) for w in ("approved", "approve", "agreed", "accepted", "adopted", "completed", "finished", "cleared",
                           "resolved", "settled", "signed", "granted", "passed", "committed", "awarded", "authorised",
                           "authorized", "concluded", "decided", "confirmed", "provided", "submitted", "received",
                           "delivered", "issued", "returned")}
_NOT_DONE = {stem(w) for w in ("deferred", "postponed", "rejected", "declined", "refused", "tabled", "withdrawn", "pending",
                               "outstanding", "held", "awaiting", "delayed", "suspended", "denied", "scheduled", "planned",
                               "failed", "defeated", "lapsed", "anticipated", "proposed", "projected", "expected", "draft",
                               "review", "investigate", "consider")}
_CONDITION = re.compile(r"\b(?:if|once|when|whenever|unless|until|assuming|provided\s+that)\b", re.I)
_TO_BE_DONE = re.compile(r"\bto\s+be\s+[a-z]+(?:ed|en)\b", re.I)
# a done word that names what is still awaited ("pending approval", "subject to sign-off") is not done
_AWAITED = re.compile(r"\b(?:pending|awaiting|await|subject\s+to|requires?|required|needs?|seeking|for)\s+(?:[A-Za-z]+\s+)?(?P<w>[A-Za-z]+)", re.I)


# words that say the opposite of each other about the same thing: a claim using one is not
# supported by a sentence about the same thing that uses the other and not it
_OPPOSITES = [
    (("include", "includes", "included", "including", "inclusive"), ("exclude", "excludes", "excluded", "excluding", "exclusive")),
    (("charged", "levied", "applied"), ("waived", "waive", "waives", "exempt", "exempted")),
    (("accepted", "approved", "granted", "allowed", "permitted"), ("rejected", "declined", "refused", "denied", "prohibited", "forbidden")),
    (("increase", "increased", "increases", "rise", "rises", "rose", "raised", "higher", "up"), ("decrease", "decreased", "decreases", "fall", "falls", "fell", "reduced", "lowered", "lower", "down")),
    # a change against no change: "volumes rose to 38,500 tonnes" against "were flat at 38,500 tonnes"
    (("rose", "risen", "grew", "grown", "climbed", "fell", "fallen", "declined", "dropped"), ("flat", "unchanged", "steady")),
    (("mandatory", "compulsory", "required", "obligatory"), ("optional", "voluntary")),
    (("refundable",), ("non-refundable", "nonrefundable")),
    (("paid",), ("unpaid",)),
    (("domestic",), ("international", "overseas", "foreign")),
    (("import", "imports", "imported"), ("export", "exports", "exported")),
    (("inbound",), ("outbound",)),
    (("credit", "credited"), ("debit", "debited")),
    (("fixed", "fixed-price", "lump-sum"), ("variable", "time-and-materials")),
    (("confirmed",), ("unconfirmed", "tentative", "provisional", "awaiting")),
    # a level reached or not: "attendance met its contractual level" against "short of the 97% contractual level"
    (("met", "meets", "achieved", "achieves"), ("missed", "misses", "short")),
    (("covered", "insured"), ("excluded", "uncovered", "uninsured")),
    (("passed", "carried", "adopted", "approved"), ("failed", "defeated", "lapsed")),
    (("left",), ("right",)),
    (("upper",), ("lower",)),
    (("north", "northern"), ("south", "southern")),
    (("east", "eastern"), ("west", "western")),
    (("front",), ("rear", "back")),
]
_OPPOSITE_OF: dict[str, set[str]] = {}
for _a, _b in _OPPOSITES:
    for _x, _y in ((_a, _b), (_b, _a)):
        for _w in _x:
            _OPPOSITE_OF.setdefault(stem(_w), set()).update(stem(v) for v in _y)
_OPPOSITE_WORDS = {w for a, b in _OPPOSITES for w in a + b}
_OPPOSITE_COVER = 0.5


_COMPARATIVES = {"higher", "lower"}
_COMPARATIVES_STEMS = {stem(w) for w in _COMPARATIVES}
# a "than" clause about another time ("than last year", "than it was before"): a change over time
_THAN_TIME = re.compile(r"\bthan\b[^.]*\b(?:before|previous(?:ly)?|prior|earlier|last|ago|originally|initially|formerly|used\s+to|was|were|had|19\d\d|20\d\d)\b", re.I)


def _than_other_thing(hypothesis: str, word: str) -> bool:
    """The claim's comparative word is followed by a "than" naming another thing, not another time."""
    m = re.search(rf"\b{re.escape(word)}\b(?:\s+[\w'-]+){{0,4}}?\s+than\b", hypothesis, re.I)
    return bool(m) and not _THAN_TIME.search(hypothesis, m.start())


_HEADING_LINE = re.compile(r"^\s*([A-Za-z][^.:\n]{0,40}):\s*$", re.M)
_NEGATOR = re.compile(r"(?:\b(?:" + "|".join(sorted(NEGATORS)) + r")|n't)\s+(?:(?:be|been|being|ever|always|normally|[a-z]+ly)\s+){0,2}(?P<w>[a-z][a-z-]*)", re.I)


# "awaiting confirmation", "pending approval": the thing has not happened yet
_PENDING = re.compile(r"\b(?:awaiting|pending)\s+(?:(?:the|your|their|its|our|final|written)\s+)*(?P<w>[a-z][a-z-]*)", re.I)


def _negated_stems(sent: str) -> set[str]:
    """Stems of the words a negation governs ("may never be accepted": accept)."""
    return {stem(m.group("w").lower()) for rx in (_NEGATOR, _PENDING) for m in rx.finditer(sent)}


# clauses of one sentence about two things: "revenue rose 14%, while volumes were flat at 38,500 tonnes"
_CLAUSE_BREAK = re.compile(r",\s+(?:while|whereas|but|although|though)\b|;\s+", re.I)


def _value_clause(sent: str, values: set) -> str:
    """The clause of ``sent`` that states one of the claim's values, or the whole sentence."""
    if not values or not _CLAUSE_BREAK.search(sent):
        return sent
    cuts = [0] + [m.start() for m in _CLAUSE_BREAK.finditer(sent)] + [len(sent)]
    hits = [sent[a:b] for a, b in zip(cuts, cuts[1:]) if values & {q.value for q in extract_quantities(sent[a:b])}]
    return hits[0] if len(hits) == 1 else sent


def _side_words(text: str) -> set[str]:
    """Stems of the words of ``text`` that take a side, less those it negates."""
    return {stem(w) for w in re.findall(r"[A-Za-z][A-Za-z-]*", text.lower())} - _negated_stems(text)


_COUNTED_IN = {stem(w) for w in ("include", "including", "included", "exclude", "excluding", "excluded")}


def _other_side(hnum: set, evidence: str, at: int, out: bool) -> bool:
    """A value of the claim is the evidence sentence's whole less (``out``: the claim counts a
    part out that the evidence counts in) or plus a part it names: what is left, or what it comes
    to, when the part is counted the other way."""
    # every figure written, "from 420 to 465" included (a change the quantity readers leave aside)
    vals = {Decimal(m.replace(",", "")) for m in re.findall(r"(?<![\w.])\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\w.])|(?<![\w.])\d+(?:\.\d+)?(?![\w])",
                                                         evidence[at:sentence_bounds(evidence, at)[1]])}
    return any((a - b if out else a + b) in hnum for a in vals for b in vals if a > b)


def opposites(hypothesis: str, evidence: str) -> list[tuple[str, int]]:
    """A word of the claim whose opposite the evidence sentence about the same thing uses ("the
    fee was charged" against "the fee was waived"; "prices include duties" against "prices
    exclude duties"). The sentence about the same thing is the one sharing most of the claim's
    words and numbers (every one of them, when several tie), it shares at least half of the
    claim's other words, uses the opposite and not the claim's word."""
    # a listed word, or an inflection of one; not a noun of the doer that shares its stem ("insurer" is not "insured")
    words = [w for w in re.findall(r"[A-Za-z][A-Za-z-]*", hypothesis.lower())
             if w in _OPPOSITE_WORDS or (stem(w) in _OPPOSITE_OF and not re.search(r"(?:er|or)s?$", w))]
    if not words:
        return []
    evidence = evidence.replace("_", "-")  # JSON values: "time_and_materials"
    hst = set(content_stems(hypothesis)) - _DOC_STEMS
    # which sentence is about the claim is judged without the words that take sides
    about = hst - set(_OPPOSITE_OF)
    hnum = {q.value for q in extract_quantities(hypothesis) if q.unit != "ref"}
    sents = []
    for a, b in sentence_spans(evidence):
        sent = evidence[a:b]
        cs = set(content_stems(sent))
        # a word the sentence negates ("may never be accepted") says what its opposite says
        sw = _side_words(_value_clause(sent, hnum))
        sents.append((len(about & cs) + len(hnum & {q.value for q in extract_quantities(sent)}), cs, sw, a))
    if not sents:
        return []
    top = max(x for x, _, _, _ in sents)
    best = [(cs, sw) for x, cs, sw, _ in sents if x == top]
    headings = [{stem(w) for w in re.findall(r"[A-Za-z][A-Za-z-]*", m.group(1).lower())} for m in _HEADING_LINE.finditer(evidence)]
    at = next(a for x, _, _, a in sents if x == top)
    out = []
    for w in words:
        mine, opp = stem(w), _OPPOSITE_OF[stem(w)]
        if w in _COMPARATIVES and _than_other_thing(hypothesis, w):
            # "higher at the outlet than at the reservoir" orders two things: "fell to" says how
            # one changed, not how they compare; only an opposite comparative ("lower") disagrees
            opp = opp & _COMPARATIVES_STEMS
        rest = hst - {mine}
        if not rest or any(mine in sw or not (sw & opp) for _, sw in best):
            continue
        if any(mine in hw and rest & hw for hw in headings):
            continue  # a heading says it in the claim's words ("Rejected items:" below "Total approved")
        if any(mine in sw and (rest & cs) - set().union(*(c for c, _ in best)) for _, cs, sw, _ in sents):
            # another sentence uses the claim's word about a part of the claim the best one does not
            # name ("failed_assessment" on the induction line, "passed" on the fit-for-work line)
            continue
        if mine in _COUNTED_IN and hnum and _other_side(hnum, evidence, at, out=mine == stem("exclude")):
            continue  # "465, including 45 vans" and "excluding vans, 420": the claim counts the rest
        if all(len(rest & cs) >= max(1, _OPPOSITE_COVER * len(rest)) for cs, _ in best):
            out.append((f"the claim says {w!r} where the evidence sentence about it says {', '.join(sorted(best[0][1] & opp))!r}", at))
    return list(dict.fromkeys(out))


_NOUN_OF_AGENT = re.compile(r"\b(?P<noun>[A-Za-z]+(?:al|ion|ment))\s+(?:of|by|from)\s+(?:the\s+)?(?P<agent>[A-Za-z][\w&'.-]*)")  # "approval of the Board"
# "filed by July 15", "paid by Friday", "done by the end of March": a time, never a doer
_BY_TIME = "|".join([*sorted((m for m in MONTHS if m.isascii()), key=len, reverse=True),
                     r"(?:mon|tues|wednes|thurs|fri|satur|sun)day", "end", "close", "noon", "midnight", "today", "tomorrow", "then"])
_BY_AGENT = re.compile(rf"\b(?P<verb>[A-Za-z]+(?:ed|en|ied))\s+by\s+(?!(?i:(?:the\s+)?(?:{_BY_TIME}))\b)"
                       r"(?:the\s+|an?\s+|his\s+|her\s+|its\s+|their\s+)?(?P<agent>[A-Za-z][\w&'.-]*)")


def _agentless(hypothesis: str, verb_stem: str) -> bool:
    """Every use of the verb in the claim is passive with no agent ("before the ticket was
    closed"): the claim names no one who did it."""
    uses = [m for m in re.finditer(r"[A-Za-z]+", hypothesis) if stem(m.group(0)) == verb_stem]
    # passive ("was closed") or a participle qualifying a noun ("every approved requisition")
    return bool(uses) and all(re.search(r"\b(?:is|are|was|were|be|been|being|get|got|every|each|all|any|the|an?|no|its|their)\s+(?:\w+ly\s+)?$",
                                        hypothesis[:m.start()], re.I)
                              and not re.match(r"\s+by\b", hypothesis[m.end():]) for m in uses)


def _agent(m: re.Match) -> str:
    return stem(m.group("agent").rstrip(".,;:'’"))


def _named_agent(m: re.Match) -> str | None:
    """The name after a role word in a "by" phrase ("by his colleague Dev Patel": Dev), or none."""
    after = re.match(r"\s+([A-Z][\w&'.-]*)", m.string[m.end("agent"):]) if m.group("agent")[:1].islower() else None
    return after.group(1).rstrip(".,;:'’") if after else None


def _doer(hypothesis: str, verb_stem: str) -> set[str]:
    """The stems of the name right before the claim's active use of a verb ("Nathan Pryce
    operated the truck": nathan, pryce), or none."""
    for m in re.finditer(r"[A-Za-z]+", hypothesis):
        if stem(m.group(0)) == verb_stem:
            before = re.search(r"((?:[A-Z][\w&'.-]*\s+){1,3})$", hypothesis[:m.start()])
            if before and not re.search(r"\b(?:was|were|is|are|been|be)\s+$", hypothesis[:m.start()]):
                return {stem(w) for w in before.group(1).split()}
    return set()


def _role(window: str, m: re.Match) -> bool:
    """The agent of a "by" phrase is a role, not a name: "by the Tenant", "by carrier"; never "by
    Fiona Gairn" or "by vendor Korrin Networks" (a role word followed by the name)."""
    word = m.group("agent").rstrip(".,;:'’")
    named = word[:1].isupper() and not re.search(r"\bthe\s+$", window[max(0, m.start("agent") - 5):m.start("agent")], re.I)
    return not named and not re.match(r"\s+[A-Z][a-z]", window[m.start("agent") + len(word):])


def agent_conflicts(hypothesis: str, window: str, *, known_roles_only: bool = False) -> list[tuple[str, int]]:
    """A claim naming who does something ("X will supply the frame") against a window that says
    the same thing is done by someone else ("the frame (supplied by the Owner)"): the agent of a
    passive verb of the claim's must be someone the claim names. ``known_roles_only`` (to call the
    claim false, not only unsupported): an agent that is a role ("countersigned by the Tenant")
    counts only where the window says who holds that role, or names the claim's party where it
    acts; otherwise it may be the claim's party ("countersigned by the Tenant" in a letter to it)."""
    found = names(hypothesis)
    if not found:
        return []
    hst = set(content_stems(hypothesis))
    mine = {stem(p) for n in found for p in re.findall(r"[A-Za-z]+", n)}
    # a party the window defines by a role ('Pennard Engineering Limited ("the Borrower")') is that role
    # or by a field ("Recipient: Vaidya Pharmaceuticals Ltd, GSTIN ...")
    aliases = {stem(w) for rx in (_DEFINED_PARTY, _PARTY_FIELD) for d in rx.finditer(window)
               if {stem(x) for x in re.findall(r"[A-Za-z]+", d["value"])} & mine for w in re.findall(r"[A-Za-z]+", d["label"])}
    # the claim's own party does the verb elsewhere in the window ("require prior approval of the Board")
    defined = {stem(w) for rx in (_DEFINED_PARTY, _PARTY_FIELD) for d in rx.finditer(window) for w in re.findall(r"[A-Za-z]+", d["label"])}
    # the window names the claim's party where it acts ("fitted by Carrow Heating"): a role it
    # gives to another doer ("supplied by the customer") is someone else
    acts_by_name = any(_agent(m) in mine for m in _BY_AGENT.finditer(window))
    claimed_elsewhere = {stem(m.group("verb")) for m in _BY_AGENT.finditer(window) if _agent(m) in hst | aliases}
    claimed_elsewhere |= {stem(m.group("noun")) for m in _NOUN_OF_AGENT.finditer(window) if _agent(m) in hst | aliases}
    out = []
    for m in _BY_AGENT.finditer(window):
        verb, agent = stem(m.group("verb")), _agent(m)
        if verb not in hst or verb in mine or agent in STOP or _agentless(hypothesis, verb) or _noun_use(hypothesis, verb):
            continue
        # the claim names another of its names as the doer ("Nathan Pryce operated the truck"
        # against "operated by his colleague Dev Patel", Dev Patel being the one the claim has struck)
        doer = _doer(hypothesis, verb) & mine
        named = _named_agent(m)
        who = stem(named) if named else agent
        swapped = bool(doer) and who in mine and who not in doer
        if not swapped and (agent in hst | aliases or who in hst | aliases or verb in claimed_elsewhere):
            continue
        if not (set(content_stems(window[slice(*sentence_bounds(window, m.start()))])) & hst) - {verb}:
            continue  # the sentence of "signed by the Chair" is about something else than the claim
        if known_roles_only and _role(window, m) and agent not in defined and not acts_by_name:
            continue
        by = m.group("agent") + (f" {named}" if named else "")
        out.append((f"the window says {m.group('verb')} by {by}, not by whom the claim names", m.start()))
    return out


_DETERMINER = {"a", "an", "the", "this", "that", "his", "her", "its", "their", "our", "any", "no", "each"}


def _noun_use(hypothesis: str, verb: str) -> bool:
    """The claim's word of that stem is a noun: "because of a medical issue" says nothing of who
    issued anything. A determiner one or two words before it, and no past participle ending."""
    words = re.findall(r"[A-Za-z][A-Za-z'’-]*", hypothesis)
    uses = [i for i, w in enumerate(words) if stem(w) == verb]
    return bool(uses) and all(not words[i].lower().endswith(("ed", "en")) and (
        (i >= 1 and words[i - 1].lower() in _DETERMINER)
        or (i >= 2 and words[i - 2].lower() in _DETERMINER and words[i - 1].islower())) for i in uses)


STOP_STEMS = {stem(w) for w in STOP}
_POSSESSIVE = re.compile(r"\b(?P<who>[A-Za-z][\w-]*)['’]s?\s+(?P<what>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2})")


def possessor_swaps(hypothesis: str, window: str) -> list[str]:
    """"The landlord's break option is removed" against a window whose sentence about the removal
    says "The Tenant's break option ... is removed": the thing belongs to another party there. The
    sentence about the claim is the one sharing most of its other words; it must not also give the
    thing to the claim's party."""
    hypothesis, window = normalise(hypothesis), normalise(window)
    out = []
    for m in _POSSESSIVE.finditer(hypothesis):
        who, what = stem(m["who"]), set(content_stems(m["what"]))
        if not what or m["who"].lower() in STOP:
            continue
        rest = set(content_stems(hypothesis)) - {who} - _DOC_STEMS
        scored = [(len(rest & set(content_stems(window[a:b]))), window[a:b]) for a, b in sentence_spans(window)]
        top = max((x for x, _ in scored), default=0)
        best = [sent for x, sent in scored if x == top and x >= 2]
        if len(best) != 1:
            continue
        owners = {stem(o["who"]) for o in _POSSESSIVE.finditer(best[0]) if set(content_stems(o["what"])) & what}
        if owners and who not in owners and not owners & STOP_STEMS:
            thing = " ".join(w for w in m["what"].split() if w.lower() not in STOP)
            out.append(f"the sentence about it gives the {thing} to {', '.join(sorted(owners))}, not to {m['who']}")
    return out


def _status(hypothesis: str, window: str) -> list[str]:
    """"The board approved a branch in X" is not supported by a window whose sentence about the
    branch in X says it was deferred: the sentence that holds the claim's object (two or more of
    its other words) must not report the opposite state."""
    hstems = set(content_stems(hypothesis))
    done = hstems & _DONE
    if not done:
        return []
    obj = hstems - _DONE - _DOC_STEMS
    # the claim says it happened ("has provided", "was received"), not that it will
    # ("if the offer is accepted" says neither)
    past = any(stem(m.group(0)) in done and m.group(0).lower().endswith(("ed", "en"))
               and not _CONDITION.search(hypothesis[hypothesis.rfind(",", 0, m.start()) + 1:m.start()])
               for m in re.finditer(r"[A-Za-z]+", hypothesis))
    # a field line of a form ("Status: pending approval") is about the document its title names
    head = title_line(window)
    title_end = window.find(head) + len(head) if head and "\n" in window else len(window)
    title = set(content_stems(head)) if head else set()
    before: set[str] = set()
    for a, b in sentence_spans(window):
        sent = window[a:b]
        ss = set(content_stems(sent))
        # the title itself, or a window of one line: no title to lean on
        around = ss if a < title_end else ss | title
        # a clause after a semicolon goes on about what the clause before it names
        if window[:a].rstrip().endswith(";"):
            around = around | before
        before = ss
        awaited = {stem(m.group("w")) for m in _AWAITED.finditer(sent)}
        # "guarantee ... to be received before the first order": still required, not yet done
        pending = (ss & _NOT_DONE) or ({m.group(0).lower() for m in _TO_BE_DONE.finditer(sent)} if past else set())
        if len(obj & around) >= min(2, len(obj)) and pending and not (ss & done - awaited):
            return [f"the window says {', '.join(sorted(pending))} where the claim says {', '.join(sorted(done))}"]
    return []


def _same_limit(hypothesis: str, core: str) -> bool:
    """Both sides state the same cap or floor, one with a negation ("shall not exceed $2m", "in
    no event ... exceed") and one without ("is capped at $2 million"): the negation is part of
    the threshold, not a flip of polarity."""
    hl = {(q.kind, q.value, q.op in (">", ">=")) for q in extract_quantities(hypothesis) if q.frame == "limit" and q.op}
    el = {(q.kind, q.value, q.op in (">", ">=")) for q in extract_quantities(core) if q.frame == "limit" and q.op}
    return bool(hl) and hl <= el


_OTHER_ROLE = " appears in the window only in another role"
# a letter's or message's subject header: "Subject: Follow-up visit — The Copper Pot, Naas"
# a first line that is a field ("From: Dana Whitlock, Licensing Officer") is no title
_FIELD_LINE = re.compile(r"[A-Za-z][A-Za-z .]{0,24}:")
# a field naming whom the record is about: "Customer: Van Dijk B.V.", "account_holder": "Outback Grocers"
_SUBJECT_FIELD = re.compile(r"^[ \t{\[]*\"?[A-Za-z ]{0,20}?(?:\b|_)(?:name|holder|customer|client|employee|member|patient|tenant|"
                            r"policyholder|insured|company|entity|fund|licensee|applicant|borrower)\"?[ \t]*[:=|][ \t]*\"?([^\"\n|]+)", re.M | re.I)
_SUBJECT_LINE = re.compile(r"^[ \t]*(?:Subject|Re|RE|Regarding)[ \t]*:[ \t]*(.+)$", re.M)


def _roles(hypothesis: str, window: str, found_names: list[str]) -> list[str]:
    """Each name must stand where the claim puts it: some sentence of the window that mentions it
    shares a word of the claim other than names ("approved by L. Brandt" is not "Submitted by: L.
    Brandt"), and two names around a verb must not be swapped ("the Customer indemnifies the
    Supplier" is not "the Supplier shall indemnify the Customer")."""
    out = []
    name_stems = {stem(p) for n in found_names for p in re.findall(r"[A-Za-z]+", n)}
    hstems = set(content_stems(hypothesis)) - name_stems - _DOC_STEMS
    sents = [window[a:b] for a, b in sentence_spans(window)]
    title = title_line(window)
    topic = " ".join([title * (not _FIELD_LINE.match(title)), *_SUBJECT_LINE.findall(window), *_SUBJECT_FIELD.findall(window)])
    for n in found_names:
        if stem(n) in _DOC_STEMS or (n.isupper() and len(n) > 1):
            continue  # a document noun or an acronym ("VAT", "LLP") labels, it plays no role
        if re.search(r"(?<![A-Za-z])" + re.escape(n) + r"(?![A-Za-z])", topic):
            continue  # named by the title or subject line: what the whole record is about ("you may reopen")
        at = re.compile(r"(?<![A-Za-z])" + re.escape(n) + r"(?![A-Za-z])", re.I)
        holding = [s for s in sents if at.search(s)]
        if holding and hstems and not any(hstems & set(content_stems(s)) for s in holding):
            out.append(f"{n}{_OTHER_ROLE}")
    low = hypothesis.lower()
    for i, n1 in enumerate(found_names):
        for n2 in found_names[i + 1:]:
            a, b = low.find(n1.lower()), low.find(n2.lower())
            if a < 0 or b < 0 or a >= b:
                continue
            verbs = set(content_stems(hypothesis[a + len(n1):b])) - name_stems
            for s in sents:
                sl = s.lower()
                x, y = sl.find(n1.lower()), sl.find(n2.lower())
                if x >= 0 and y >= 0 and y < x and verbs & set(content_stems(s[y + len(n2):x])):
                    out.append(f"{n1} and {n2} swap roles in the window")
    out.extend(_swapped_bindings(hypothesis, sents, found_names, name_stems))
    return out


_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")


def _bound_word(text: str, name: str, name_stems: set[str]) -> str | None:
    """The content word the claim puts right beside a name: the next word, else the one before
    ("Ruiz proposed", "chaired by Ruiz")."""
    words = [(m.start(), m.group().lower(), stem(m.group())) for m in _WORD.finditer(text)]
    at = text.lower().find(name.lower())
    if at < 0:
        return None
    after = [(raw, w) for p, raw, w in words if p > at + len(name) - 1 and w not in name_stems]
    before = [(raw, w) for p, raw, w in words if p < at and w not in name_stems]
    for raw, w in (after[:1] + before[-1:]):
        if raw not in _FUNCTION_WORDS:
            return w
    return None


# words that bind nothing to a name ("Ruiz and", "by the"); a stop list would drop "seconded"
_FUNCTION_WORDS = {"the", "a", "an", "and", "or", "but", "to", "of", "in", "on", "at", "by", "for", "with", "from", "as",
                   "is", "are", "was", "were", "be", "been", "has", "have", "had", "will", "would", "shall", "should",
                   "may", "might", "can", "could", "must", "it", "its", "that", "this", "who", "which", "also", "then", "s"}


def _segment_words(sent: str, name: str) -> set[str] | None:
    """Stems of the comma-, semicolon- or bracket-delimited part of ``sent`` that holds ``name``."""
    for part in re.split(r"[,;()\[\]]", sent):
        if re.search(r"(?<![A-Za-z])" + re.escape(name) + r"(?![A-Za-z])", part, re.I):
            return {stem(m.group()) for m in _WORD.finditer(part)}
    return None


def _swapped_bindings(hypothesis: str, sents: list[str], found_names: list[str], name_stems: set[str]) -> list[str]:
    """Two names the claim pairs each with its own word ("Ruiz proposed ... and Okoro seconded")
    that a sentence of the window pairs the other way round ("proposed Okoro, seconded Ruiz"):
    the part of the sentence (between commas or brackets) that holds each name holds the other's
    word and not its own. The claim's first word counts as a
    name when the window writes it capitalised after another word."""
    first = re.match(r"\s*([A-Z][a-z]+)\b", hypothesis)
    if first and first.group(1) not in found_names and first.group(1) not in _COMMON_STARTERS \
            and any(re.search(r"[A-Za-z,(]\s+" + first.group(1) + r"\b", s) for s in sents):
        found_names = [first.group(1), *found_names]
        name_stems = name_stems | {stem(first.group(1))}
    bound = {n: _bound_word(hypothesis, n, name_stems) for n in found_names}
    out = []
    for i, n1 in enumerate(found_names):
        for n2 in found_names[i + 1:]:
            w1, w2 = bound[n1], bound[n2]
            if not w1 or not w2 or w1 == w2:
                continue
            for s in sents:
                g1, g2 = _segment_words(s, n1), _segment_words(s, n2)
                if g1 is None or g2 is None or g1 == g2:
                    continue
                if w2 in g1 and w1 not in g1 and w1 in g2 and w2 not in g2:
                    out.append(f"the window pairs {n1} with {w2!r} and {n2} with {w1!r}, the other way round from the claim")
                    break
    return out


_DOC_STEMS = {stem(w) for w in ("invoice", "agreement", "contract", "document", "letter", "policy", "order", "statement", "report", "line", "clause", "section")}


def about_same_thing(hypothesis: str, window: str) -> list[str]:
    """What the claim is about that the window does not mention: identifiers, references ("line
    item 10"), names and the claim's subject ("Express delivery", "Taxi fares"). A model's
    "contradicts" counts only where this is empty: otherwise the window is about something else."""
    hypothesis, window = normalise(hypothesis), normalise(window)
    wkeys = {key(t) for t in _id_tokens(window)}
    window_stems = {stem(w) for w in re.findall(r"[A-Za-z][A-Za-z'’-]*", window)}
    out = [f"identifier {i!r}" for i in identifiers(hypothesis) if key(i) not in wkeys]
    out += [f"name {n}" for n in names(hypothesis) if not _found_name(n, window, window_stems)]
    wq = [e for e in extract_quantities(window) if e.unit == "ref"]
    out += [f"reference {h.text!r}" for h in extract_quantities(hypothesis)
            if h.unit == "ref" and key(h.text) not in wkeys and not any(same_ref(h, e) for e in wq)]
    out += [f"subject {w!r}" for w in subject_words(hypothesis) if w not in window_stems]
    return out


# Share of the claim's content words a derived value's evidence must hold (the rest are the words
# of the computation: "together", "works out", "in total"). Chosen on the dev-tune half.
DERIVED_COVER = 0.5
# How well another value of the claimed value's kind may be tied to the claim for a computation
# over untied operands to stand (half of ``STATED_TIE``). Chosen on the dev pairs.
UNTIED_GUARD_TIE = 0.5


def _same_slot_kind(hypothesis: str, h, hm, evidence: str, e, cells: bool = False) -> bool:
    """Whether an evidence value could fill the claimed value's slot at all: a measure only
    another measure of the same unit (one in another unit is converted, never compared bare), a
    count only a count of the same noun ("5 ponds" is no temperature)."""
    em = arithmetic.measure(evidence, e)
    if hm or em:
        return bool(hm and em and em[1] == hm[1])
    if h.kind == "number" and h.unit != "ref":
        hn, en = counted_noun(hypothesis, h), counted_noun(evidence, e)
        # (``cells``: a cell of a labelled column with no noun of its own may count what the claim counts)
        return hn is not None and (hn == en or (cells and en is None and bool(arithmetic.column_label(evidence, e))))
    return True


def _rival_slot(hypothesis: str, h, hm, evidence: str, eq, reading: arithmetic.Reading) -> bool:
    """The record states the claimed slot itself, otherwise than computed. (a) A value of the
    slot's kind whose every label word, beyond "total", is a word of the claim, labelled by more
    of the claim's words than any operand ("a completed subject is worth $5,850" computed as
    6 x $975 under "Treatment visits", beside "Total per completed subject: $11,420"). (b) A
    claimed total computed from one amount of a sentence that adds another ("75% of the fee of
    Rs 2,40,000, plus a grant of Rs 15,000" is not worth Rs 1,80,000 in total)."""
    claim = set(content_stems(_SET_ASIDE.sub(" ", hypothesis)))  # "before sales tax" does not name the slot

    def words(o) -> set[str]:  # a table cell is labelled by its row and by its column's header
        return arithmetic.operand_words(evidence, o) | set(content_stems(arithmetic.column_label(evidence, o)))

    mine = [o for o in reading.operands if o.kind == h.kind]
    best = max((len(words(o) & claim) for o in mine), default=0)
    for e in eq:
        if e in reading.operands or not comparable(h, e) or relation(h, e) != "contradicts" or not _same_slot_kind(hypothesis, h, hm, evidence, e, cells=True):
            continue
        label = words(e) - _TOTAL_STEMS
        if label and label <= claim and len(label) >= 2 and len(label) > best:
            return True
    if h.kind == "money" and (derived.is_total(hypothesis, h) or _WORTH.search(hypothesis)) and len(mine) == 1:
        a, b = sentence_bounds(evidence, mine[0].start)
        for m in _ADDS.finditer(evidence, a, b):
            if any(e.kind == "money" and e.unit == h.unit and e not in reading.operands and m.end() <= e.start < m.end() + 40 for e in eq):
                return True
    return False


# a label word saying the value is a total or an amount says nothing of which one
_TOTAL_STEMS = TOTAL_LABEL | {stem(w) for w in ("amount", "value", "sum")}
_SET_ASIDE = re.compile(r"\b(?:before|excluding|exclusive\s+of|excl\.|without|net\s+of|leaving\s+out|apart\s+from|other\s+than|except(?:\s+for)?)"
                        r"\s+(?:the\s+)?[A-Za-z-]+(?:\s+[A-Za-z-]+)?", re.I)
_WORTH = re.compile(r"\bworth\b", re.I)
# a sentence that adds an amount to another: "..., plus a one-time grant of Rs 15,000"
_ADDS = re.compile(r"\b(?:plus|in\s+addition(?:\s+to)?|additionally|as\s+well\s+as|together\s+with|on\s+top\s+of)\b", re.I)


# a claim that says what something was computed from: the base is its claim, not the computed value
_BASIS = re.compile(r"\b(?:calculated|computed|based|charged|levied|applied|assessed|worked\s+out)\s+(?:on|upon|from|against)\b", re.I)




def derived_support(hypothesis: str, evidence: str) -> list[arithmetic.Reading] | None:
    """The readings that support a claim whose values are computed from the evidence, or None.

    Every value of the claim is stated in its slot (``decide_one``) or computed by exactly one
    reading of the tied evidence values (``arithmetic.derive_unique``), at least one is computed,
    and every other anchor (identifiers, names in their roles, polarity, mode and tense) is in the
    evidence. A computed value must not be stated anywhere in the evidence (then it fills another
    slot: a net amount claimed as the amount due), nor its slot be stated with another value."""
    hypothesis, evidence = normalise(hypothesis), normalise(evidence)
    hq = extract_quantities(hypothesis)
    values = [q for q in hq if q.unit != "ref"]
    if not values:
        return None
    if polarity_profile(hypothesis, 0, len(hypothesis), hq, True)[1]:
        return None  # a negated computation ("did not take 7 days") is the model's to read, never passed here
    if any(h.kind == "money" and _BASIS.search(hypothesis, 0, h.start) for h in values):
        return None  # "the credit was calculated on the fees of USD 16,000": what a charge is taken of, which a sum does not show
    eq = extract_quantities(evidence)
    out: list[arithmetic.Reading] = []
    operand_counts: list[Quantity] = []
    # "the three line items total ...": the count of what the claim adds is checked by its sum
    counted = next(([q for q in values if q.start < h.start and q.kind == "number" and q.value == n][:1]
                    for h in values if (n := arithmetic.stated_count(hypothesis, h)) is not None), [])
    for h in values:
        if h in counted:
            continue
        verdict, e, how = decide_one(hypothesis, h, hq, evidence, eq)
        if verdict == "found":
            if how:  # computed there (a rate times a count, a unique reading): a derived value
                out.append((h, arithmetic.derive_unique(hypothesis, h, evidence, eq) or arithmetic.Reading(h.value, (e,), how)))
            continue
        hm = arithmetic.measure(hypothesis, h)
        rels = [(e, relation(h, e)) for e in eq if comparable(h, e)]
        if any(r == "supports" and not (hm and arithmetic.measure(evidence, e) not in (None, hm)) for e, r in rels):
            if h.kind == "number" and hm is None:
                operand_counts.append(h)  # "all 24,000 options" beside "Number of shares: 24,000": checked as an operand below
                continue
            return None  # stated in another slot (a net amount claimed as the amount due), never a computation
        if h.kind == "money" and any(e.kind == "number" and e.unit != "ref" and e.value == h.value for e in eq):
            return None  # the same figure written bare ("Total accepted: 82,650" under a GBP table): stated, not computed
        # a value that could fill the slot, tied to the claim by its label, states it otherwise;
        # not so the two values a margin is taken between ("fees EUR 26,500 higher than the
        # Claimant's": both fees are labelled as the claim words them)
        cued = arithmetic.MARGIN_AFTER.match(hypothesis, h.end)
        margin = arithmetic.derive_unique(hypothesis, h, evidence, eq) if cued else None
        between = margin.operands if margin is not None and " - " in margin.how else ()
        rels = [(e, r) for e, r in rels if not (r == "contradicts" and (split_whole(hypothesis, h, evidence, e) or inside_window(hypothesis, h, evidence, e)))]
        if any(r == "contradicts" and _same_slot_kind(hypothesis, h, hm, evidence, e) and e not in between
               and context_tie(hypothesis, h, hq, evidence, e, eq) >= STATED_TIE for e, r in rels):
            return None
        reading = margin if cued else arithmetic.derive_unique(hypothesis, h, evidence, eq)  # computed once
        if reading is None and not any(r == "contradicts" and _same_slot_kind(hypothesis, h, hm, evidence, e)
                                       and context_tie(hypothesis, h, hq, evidence, e, eq) >= UNTIED_GUARD_TIE for e, r in rels):
            # no operand tied by a word: the slot must not be stated even half as well as a
            # stated value ("the amount due is $2,709.60" beside "Amount due: $2,754.60" and a
            # $45.00 charge; "the two billings come to X" beside one billing's amount is no slot)
            reading = arithmetic.derive_unique(hypothesis, h, evidence, eq, untied=True)
        if reading is None or _rival_slot(hypothesis, h, hm, evidence, eq, reading):
            return None
        out.append((h, reading))
    if not out:
        return None
    # a count the claim states that no slot holds as such must be what a computation multiplies
    if any(not any(o.kind == "number" and o.value == c.value for _, r in out for o in r.operands) for c in operand_counts):
        return None
    if counted and not any(len(r.operands) == counted[0].value for _, r in out):
        return None  # the claim counts what it adds, and no sum here adds that many
    # the unit words of a measure converted from another unit are not words the record must use
    for h, r in out:
        if (u := arithmetic.unit_span(hypothesis, h)) and any(arithmetic.measure(evidence, o) for o in r.operands):
            hypothesis = hypothesis[:u[0]] + " " * (u[1] - u[0]) + hypothesis[u[1]:]
    # the words that say a claim adds ("total", "came to", "combined") describe the sum done here,
    # not words the record must use
    if any(" + " in r.how for _, r in out):
        hypothesis = arithmetic.SUM_CUE.sub(lambda m: " " * len(m.group(0)), hypothesis)
    # a name whose sentence holds an operand plays its role in the computation ("Option A costs
    # $5 more than Option B" against the sentences stating each option's price)
    operand_sents = [evidence[slice(*sentence_bounds(evidence, o.start))].lower() for _, r in out for o in r.operands]
    for why in missing_anchors(hypothesis, evidence, derived=frozenset([h.start for h, _ in out] + [q.start for q in [*counted, *operand_counts]])):
        name = why.removesuffix(_OTHER_ROLE)
        if name == why or not any(re.search(r"(?<![a-z])" + re.escape(name.lower()) + r"(?![a-z])", s) for s in operand_sents):
            return None
    hstems = set(content_stems(hypothesis)) - _DOC_STEMS
    if hstems and len(hstems & set(content_stems(evidence))) < DERIVED_COVER * len(hstems):
        return None
    return [r for _, r in out]


# an identifier the claim states as a value ("the account number is X", "ordered under part
# number X", "the account ending X"): a copula or a preposition stands before it
_VALUE_SLOT = re.compile(r"\b(?:is|are|was|were|be|been|ending|under|to|from|as|number|no\.?)\s+(?:[A-Za-z]+\s+){0,2}$", re.I)
_YEAR = re.compile(r"(?:19|20)\d\d")


def _claim_ids(hypothesis: str) -> list[str]:
    out = identifiers(hypothesis)
    for q in extract_quantities(hypothesis):
        digits = re.sub(r"\D", "", q.text)
        if q.text not in out and q.kind == "number" and len(digits) >= 4 and not _YEAR.fullmatch(q.text) and "." not in q.text:
            out.append(q.text)
    return out


def swapped_identifier(hypothesis: str, evidence: str) -> tuple[str, str, int] | None:
    """(claimed, stated, character offset) when the claim states as a value an identifier the
    evidence never holds, and the evidence holds, in a sentence about the same thing, one that
    differs from it as a mistyped copy does (``identifiers.near_miss``): "the account number is
    4471-0039" against "Account no. 4471-0093". An identifier in the subject ("Order X will
    ship") is what the claim is about, not a value it states: there the answer stays Unsupported;
    so does one beside the record's, which the claim also names (a renewal, a replacement)."""
    hypothesis, evidence = normalise(hypothesis), normalise(evidence)
    ev_key = key(evidence)
    hst = set(content_stems(hypothesis)) - _DOC_STEMS
    cands = [(m.group(0), m.start()) for m in _ID_TOKEN.finditer(evidence)]
    cands += [(m.group(0), m.start()) for m in re.finditer(r"(?<![\w.,])\d[\d -]{2,}\d(?![\w.,]\d)", evidence)]
    for ident in _claim_ids(hypothesis):
        at = hypothesis.find(ident)
        if key(ident) in ev_key or at < 0 or not _VALUE_SLOT.search(hypothesis[:at]):
            continue
        for tok, pos in cands:
            if not near_miss(ident, tok) or key(tok) in key(hypothesis):
                continue  # the claim names that one too ("policy X was renewed as policy Y"): a second identifier, no typo
            a, b = sentence_bounds(evidence, pos)
            line_a = evidence.rfind("\n", 0, pos) + 1
            if hst & set(content_stems(evidence[min(a, line_a):b])):
                return ident, tok, pos
    return None


def contradicting_words(hypothesis: str, evidence: str) -> list[tuple[str, int]]:
    """Why the evidence says the opposite of the claim in words rather than values: the sentence
    about the claim uses the opposite word (``opposites``), or the evidence, naming every party of
    the claim, says someone else does what the claim says a named party does (``agent_conflicts``).
    Each reason comes with the character offset of what says so. Empty when neither: the claim
    may still be unsupported, but it is not contradicted here."""
    hypothesis, evidence = normalise(hypothesis), normalise(evidence)
    out = opposites(hypothesis, evidence)
    ws = {stem(w) for w in re.findall(r"[A-Za-z][A-Za-z'’-]*", evidence)}
    if all(_found_name(n, evidence, ws) for n in names(hypothesis)):
        out += agent_conflicts(hypothesis, evidence, known_roles_only=True)
    if (r := role_field_conflict(hypothesis, evidence)) is not None:
        out.append(r)
    if (r := direction_swap(hypothesis, evidence)) is not None:
        out.append(r)
    if (r := decider_swap(hypothesis, evidence)) is not None:
        out.append(r)
    return out


# who chooses, and who pays: "at Licensor's option", "the Company will, at its option, repair ...",
# "at the consignee's expense"; the claim's "the Licensee decides", "it is the customer who chooses",
# "the carrier will pay for"
_ROLE_WORD = r"(?P<who>[A-Za-z][\w-]+)"
_DUTIES = {
    "choice": (
        [re.compile(rf"\b(?:at|in)\s+(?:the\s+)?{_ROLE_WORD}(?:['’]s|['’])\s+(?:sole\s+|own\s+|absolute\s+|reasonable\s+)?"
                    r"(?:option|discretion|election|choice)\b", re.I),
         re.compile(rf"\b(?:the\s+)?{_ROLE_WORD}\s+(?:will|shall|may|can)\s*,?\s+at\s+its\s+(?:sole\s+|own\s+|absolute\s+)?"
                    r"(?:option|discretion|election|choice)\b", re.I)],
        [re.compile(rf"\b(?:the\s+)?{_ROLE_WORD}\s+(?:alone\s+)?(?:who\s+)?(?:decides|chooses|determines|elects|selects|picks|"
                    r"(?:may|can|gets\s+to|is\s+entitled\s+to)\s+(?:choose|decide|determine|elect|select|pick))\b", re.I)]),
    "cost": (
        [re.compile(rf"\bat\s+(?:the\s+)?{_ROLE_WORD}(?:['’]s|['’])\s+(?:own\s+|sole\s+)?(?:expense|cost)\b", re.I),
         re.compile(rf"\b(?:the\s+)?{_ROLE_WORD}\s+(?:shall|will|must)\s+(?:bear|pay)\s+(?:the|all|any)\s+(?:costs?|expenses?)\b", re.I)],
        [re.compile(rf"\b(?:the\s+)?{_ROLE_WORD}\s+(?:will|shall|must|has\s+to|is\s+to)?\s*(?:pays?|bears?|covers?)\s+"
                    r"(?:for|the\s+cost|the\s+costs|the\s+expense)\b", re.I)]),
}
_NO_PARTY_WORDS = set(STOP) | {"it", "who", "that", "which", "this", "each", "any", "either", "party"}


def decider_swap(hypothesis: str, evidence: str) -> tuple[str, int] | None:
    """The claim says one party chooses or pays ("The Licensee decides whether ...", "the carrier
    will pay for moving it") where the evidence, naming that party too, leaves the choice or the
    cost to another ("at Licensor's option", "at the consignee's expense")."""
    hwords = {stem(w) for w in re.findall(r"[A-Za-z]+", hypothesis)}
    ewords = {stem(w) for w in re.findall(r"[A-Za-z]+", evidence)}
    for what, (said, claimed_rx) in _DUTIES.items():
        named = {stem(m.group("who")): m.group("who") for rx in [*claimed_rx, said[0]] for m in rx.finditer(hypothesis)
                 if m.group("who").lower() not in _NO_PARTY_WORDS}
        if len(named) != 1 or not set(named) <= ewords:
            continue  # no one, two parties, or one the evidence does not name
        who = next(iter(named))
        found = [m for rx in said for m in rx.finditer(evidence) if m.group("who").lower() not in _NO_PARTY_WORDS]
        if any(stem(m.group("who")) == who for m in found):
            continue  # the record gives the claim's party a choice or a cost too: which one is a reading
        about = set(content_stems(hypothesis)) - set(named) - _DUTY_WORDS
        for m in found:
            other = stem(m.group("who"))
            sent = set(content_stems(evidence[slice(*sentence_bounds(evidence, m.start()))]))
            if other != who and other not in hwords and about & sent:
                return f"the evidence leaves the {what} to {m.group('who')}, not {named[who]}", m.start()
    return None


# words of choosing and paying themselves: a sentence must share something else with the claim
_DUTY_WORDS = {stem(w) for w in ("option", "discretion", "election", "choice", "choose", "chooses", "decide", "decides",
                                 "expense", "cost", "costs", "pay", "pays", "bear", "bears", "cover", "covers", "will", "shall")}


# "X is the Supplier", "The carrier of SN-1 is X": a party named in a role
_CLAIM_ROLE = [
    re.compile(r"^(?P<name>[A-Z][^,;]*?)\s+(?:is|was)\s+the\s+(?P<role>[A-Za-z]+(?:\s+[A-Za-z]+)?)(?:\s+(?:on|under|of|for|in|to)\b[^.]*)?\.?$"),
    re.compile(r"^The\s+(?P<role>[A-Za-z]+)(?:\s+(?:on|under|of|for|in|to)\s+\S+(?:\s+\S+)?)?\s+(?:is|was)\s+(?P<name>[A-Z][^.;]*?)\.?$"),
]
# "Supplier: Y" fields, and defined parties: 'Y Ltd ("Supplier")'
# fields of a form may share a line, set apart by two or more spaces ("Buyer: X   Seller: Y")
_ROLE_FIELD = re.compile(r"(?:^|\n|[;|]\s*|[ \t]{2,})(?P<label>[A-Za-z][A-Za-z /&-]{1,30}?)\s*:[ \t]*(?P<value>(?:[^\n;|\s]|[ \t](?![ \t]))+)")
_DEFINED_PARTY = re.compile(r"(?P<value>[A-Z][\w&.,' -]{2,60}?)\s*\(\s*(?:the\s+)?[\"“](?P<label>[A-Za-z ]+)[\"”]\s*\)")
_PARTY_FIELD = re.compile(r"(?m)(?:^|\|)\s*(?P<label>[A-Z][A-Za-z]{2,20}(?: [A-Za-z]{2,20})?)\s*:\s*(?P<value>[A-Z][\w&.' -]{2,60})")
_LEGAL_FORMS = {"the", "ltd", "inc", "llp", "llc", "plc", "gmbh", "ab", "co", "and", "bv", "sa", "ag", "pty"}


def _party_words(text: str) -> set[str]:
    return {w.lower() for w in re.findall(r"[A-Za-z]+", text) if len(w) > 1} - _LEGAL_FORMS


def role_field_conflict(hypothesis: str, evidence: str) -> tuple[str, int] | None:
    """The claim names a party in a role ("X is the buyer") that the record fills with another
    party in a field or a defined term ("Buyer: Y", 'Y Ltd ("Buyer")'), and the record names X
    elsewhere: (reason, offset of the field's value). None when the record has no such field,
    the field names X, or the record never names X (then the claim may be about another record)."""
    hypothesis = hypothesis.strip()
    # "X is the consignee and Y is the notify party": each clause names a party in a role
    parts = re.split(r",?\s+and\s+(?=[A-Z][^.]*?\s(?:is|was)\s+the\s)", hypothesis) if len(re.findall(r"\s(?:is|was)\s+the\s", hypothesis)) > 1 else [hypothesis]
    if len(parts) > 1:
        return next((r for p in parts if (r := role_field_conflict(p.strip().rstrip(".") + ".", evidence))), None)
    m = next((m for rx in _CLAIM_ROLE if (m := rx.search(hypothesis))), None)
    if m is None:
        return None
    roles, party = {stem(w) for w in m.group("role").split()}, _party_words(m.group("name"))
    if not party or not party & _party_words(evidence):
        return None
    fields = [*_ROLE_FIELD.finditer(evidence), *_DEFINED_PARTY.finditer(evidence)]
    mine = [f for f in fields if roles <= {stem(w) for w in re.findall(r"[A-Za-z]+", f.group("label"))}]
    if not mine or any(party & _party_words(f.group("value")) for f in mine):
        return None
    f = mine[0]
    return f"the record's {f.group('label').strip()} is {f.group('value').strip()!r}, not {m.group('name')!r}", f.start("value")


# fields that say which way a thing went, whatever the verb: the source and the target
_SOURCE_LABELS = {"from", "sender", "shipper", "consignor", "payer", "remitter", "ordering customer", "originator",
                  "exporter", "issued by", "sent by", "paid by", "bill from", "transferor", "shipped by"}
_TARGET_LABELS = {"to", "recipient", "consignee", "payee", "beneficiary", "receiver", "importer", "issued to", "sent to",
                  "paid to", "bill to", "ship to", "deliver to", "transferee", "shipped to"}
_NAME = r"[A-Z][\w&.'-]*(?:\s+(?:[A-Z][\w&.'-]*|&|of|and|de|van|von|da))*"
_FLOW_CLAIM = re.compile(
    rf"^(?P<a>{_NAME})\s+(?:has\s+|had\s+)?(?:sent|shipped|paid|transferred|remitted|issued|dispatched|wired|exported|mailed|forwarded)\b"
    rf"[^.]*?\bto\s+(?:the\s+)?(?P<b>{_NAME})")


def direction_swap(hypothesis: str, evidence: str) -> tuple[str, int] | None:
    """The claim says A sent (shipped, paid, issued) something to B; the record's fields say the
    exact opposite: B in a source field (Shipper, Sender, Ordering customer, Issued by) and A in
    a target field (Consignee, Recipient, Beneficiary, Issued to), neither also on the other side."""
    m = _FLOW_CLAIM.match(hypothesis.strip())
    if m is None:
        return None
    a, b = _party_words(m.group("a")), _party_words(m.group("b"))
    if not a or not b or a & b:
        return None
    src, tgt = [], []
    for f in _ROLE_FIELD.finditer(evidence):
        label = re.sub(r"\s+", " ", f.group("label").strip().lower())
        words = _party_words(f.group("value"))
        if label in _SOURCE_LABELS:
            src.append((words, f.start("value")))
        elif label in _TARGET_LABELS:
            tgt.append((words, f.start("value")))
    b_src = [at for w, at in src if b <= w]
    if b_src and any(a <= w for w, _ in tgt) and not any(a <= w for w, _ in src) and not any(b <= w for w, _ in tgt):
        return f"the record has {m.group('b').rstrip('.')!r} as the source and {m.group('a')!r} as the target, the other way round", b_src[0]
    return None


def whole_record_vetoes(hypothesis: str, evidence: str) -> list[str]:
    """What a whole record says against a claim that a window of it may leave out: a decision or
    state reported as not done (``_status``), or the claim asserting the consequence of a rule in
    the very case the rule excepts (``_exception``). Checked over the record, not only the window
    the model read, because a tool output's later fields or a policy's last sentence may hold it."""
    hypothesis, evidence = normalise(hypothesis), normalise(evidence)
    return (_status(hypothesis, evidence) + _exception(hypothesis, evidence) + _excepted_item(hypothesis, evidence)
            + other_row_or_column(hypothesis, evidence) + _name_in_other_rows(hypothesis, evidence) + modal_subject_swap(hypothesis, evidence)
            + _negated_in_record(hypothesis, evidence))


_ROW_LIKE = re.compile(r"\||\t|\S {2,}\S.*\S {2,}\S|^[^,\n]*(?:,[^,\n]*){3,}$")


def _name_in_other_rows(hypothesis: str, evidence: str) -> list[str]:
    """A claim tying a name to the table row its identifier names ("RQ-7790 will be approved by
    R. Feld") where the name stands only in other rows of that table (R. Feld approved RQ-7793)."""
    ids = identifiers(hypothesis)
    if not ids:
        return []
    lines = evidence.splitlines()
    out = []
    for ident in ids:
        rows = [ln for ln in lines if key(ident) in key(ln)]
        if len(rows) != 1 or not _ROW_LIKE.search(rows[0]):
            continue
        for n in names(hypothesis):
            word = re.compile(r"(?<![A-Za-z])" + re.escape(n) + r"(?![A-Za-z])")
            if len(n) < 3 or word.search(rows[0]) or key(n) in key(ident):
                continue
            others = [ln for ln in lines if word.search(ln)]
            if others and all(_ROW_LIKE.search(ln) and _ID_TOKEN.search(ln) for ln in others):
                out.append(f"{n!r} stands in other rows of the table than {ident!r}'s")
                break
    return out


def _negated_in_record(hypothesis: str, evidence: str) -> list[str]:
    """A word of an affirmative claim that the record uses only as the word a "not" negates, though
    the window the model read may hold only the clause beside it."""
    if polarity_profile(hypothesis, 0, len(hypothesis), extract_quantities(hypothesis), True)[1] % 2:
        return []
    only = _only_negated(set(content_stems(hypothesis)), evidence)
    return [f"{only!r} is stated only negated in the record"] if only else []


_UNLESS = re.compile(r"\b(?:unless|except(?:\s+(?:where|when|if|for))?|other\s+than|save\s+(?:where|for))\s+(?P<case>[^.;:]{3,80})", re.I)


def _sentences_matching(evidence: str, rx: "re.Pattern[str]"):
    """(sentence, match) for each sentence of the evidence where ``rx`` matches."""
    for a, b in sentence_spans(evidence):
        if m := rx.search(sent := evidence[a:b]):
            yield sent, m


def _exception(hypothesis: str, evidence: str) -> list[str]:
    """"Records must be destroyed at the end of the period unless subject to a legal hold" does not
    support "records under a legal hold must be destroyed": the claim states the rule's
    consequence (half or more of the words before "unless") in the excepted case (every content
    word of it, but a filler) without an exception or a negation of its own."""
    if _UNLESS.search(hypothesis) or polarity_profile(hypothesis, 0, len(hypothesis), extract_quantities(hypothesis), True)[1]:
        return []
    hst = set(content_stems(hypothesis))
    out = []
    for sent, m in _sentences_matching(evidence, _UNLESS):
        case = set(content_stems(m.group("case"))) - _CASE_FILLER
        rule = set(content_stems(sent[:m.start()]))
        if case and case <= hst and rule and len(rule & hst) >= 0.5 * len(rule):
            out.append(f"the claim states the rule in the case it excepts ({m.group(0).strip()!r})")
    return out


_CASE_FILLER = {stem(w) for w in ("subject", "otherwise", "agreed", "stated", "specified", "case", "where")}

# "applies to all employees in Canada, except staff in Retail and Warehouse roles": the excepted
# items of a scope, and the generic nouns that name no item of their own
# ("excluding VAT" qualifies an amount: ``_inclusion`` reads it)
_EXCEPT_LIST = re.compile(r"\b(?:except(?:\s+for)?|other\s+than|but\s+not|save\s+for)\s+(?P<items>[^.;:\n]{3,120})", re.I)
_ITEM_SPLIT = re.compile(r",|\band\b|\bor\b|/", re.I)
_GENERIC = {stem(w) for w in ("staff", "role", "roles", "employee", "employees", "people", "person", "team", "teams", "member",
                              "members", "personnel", "worker", "workers", "those", "in", "the", "all", "any", "who", "work")}
# a claim that itself excepts, excludes or denies is not one stating the rule for the excepted case
_OWN_EXCEPTION = re.compile(r"\b(?:except|unless|exclud\w*|other\s+than|not|no|never|cannot|outside|exempt\w*)\b|n't\b", re.I)


def _excepted_item(hypothesis: str, evidence: str) -> list[str]:
    """The claim places in a rule's scope an item the rule's own sentence excepts ("the policy
    covers warehouse staff in Canada" against "applies to all employees in Canada ... except staff
    in Retail and Warehouse roles"): one excepted item's own words are all in the claim, and the
    claim shares a word with the scope before the exception."""
    if _OWN_EXCEPTION.search(hypothesis):
        return []
    hst = set(content_stems(hypothesis))
    out = []
    for sent, m in _sentences_matching(evidence, _EXCEPT_LIST):
        scope = set(content_stems(sent[:m.start()])) - _GENERIC - _DOC_STEMS
        for item in _ITEM_SPLIT.split(m.group("items")):
            own = set(content_stems(item)) - _GENERIC
            if own and own <= hst and (scope & hst) - own:
                out.append(f"the claim places {item.strip()!r} within a scope the record excepts it from ({m.group(0).strip()!r})")
                break
    return out


# Quantifier and bound words the claim commits to, and what a window must say for each: "only A"
# is not supported by "A and B", "all staff" not by "staff on permanent contracts", "at least 5"
# not by "5" (nor "up to 5"). Only the claim side triggers: evidence saying "only" or "all"
# still entails the weaker claim without it.
_QUANTIFIERS = [
    ("only",
     re.compile(r"(?<!\bnot\s)\b(?:only|solely|exclusively)\b", re.I),
     re.compile(r"\b(?:only|solely|exclusively|sole|no\s+other|none\s+other|just)\b", re.I)),
    ("no limit",
     re.compile(r"\b(?:unlimited|any\s+number\s+of|as\s+many\s+\w+(?:\s+\w+)?\s+as|no\s+(?:limit|cap|maximum)|without\s+(?:limit|a\s+cap))\b", re.I),
     re.compile(r"\b(?:unlimited|any\s+number|as\s+many|no\s+(?:limit|cap|maximum)|without\s+(?:limit|a\s+cap))\b", re.I)),
    ("all",
     re.compile(r"(?<!\bat\s)(?<!\bin\s)\b(?:all(?![-\s]in\b)|every|everyone|everybody|everything|always)\b", re.I),
     re.compile(r"\b(?:all|every|each|any|everyone|everybody|everything|always|whole|entire|without\s+exception|regardless)\b", re.I)),
    # "any prepayment, whatever its size", "expires whether or not work has started": unconditional,
    # which a window with a threshold or a condition is not
    ("regardless",
     re.compile(r"\b(?:whatever|whichever|regardless\s+of|irrespective\s+of|no\s+matter|whether\s+or\s+not)\b", re.I),
     re.compile(r"\b(?:whatever|whichever|regardless|irrespective|no\s+matter|whether\s+or\s+not|in\s+all\s+cases|without\s+exception|unconditional(?:ly)?)\b", re.I)),
    ("at least",
     re.compile(r"\b(?:at\s+least|a\s+minimum\s+of|no\s+(?:less|fewer)\s+than|not\s+(?:less|fewer)\s+than|or\s+more)\b", re.I),
     re.compile(r"\b(?:at\s+least|minimum|min\.?|no\s+(?:less|fewer)\s+than|not\s+(?:less|fewer)\s+than|or\s+(?:more|longer|above|over)|"
                r"and\s+(?:above|over|up)|upwards\s+of|not\s+(?:earlier|sooner)\s+than|no\s+(?:earlier|sooner)\s+than|floor)\b", re.I)),
    ("at most",
     re.compile(r"\b(?:at\s+most|a\s+maximum\s+of|no\s+more\s+than|not\s+more\s+than|(?<!\badd\s)(?<!\badds\s)(?<!\badded\s)up\s+to|"
                r"or\s+(?:less|fewer)|not\s+(?:to\s+)?exceed)\b", re.I),  # "add up to" is a sum
     re.compile(r"\b(?:at\s+most|maximum|max\.?|no\s+more\s+than|not\s+more\s+than|up\s+to|or\s+(?:less|fewer|shorter|below|under)|"
                r"(?:not|never)\s+(?:to\s+)?exceed|(?:shall|must|may|will|does|do)\s+not\s+exceed|exceeding|capped|cap|limit(?:ed)?|ceiling|within|"
                r"no\s+later\s+than|not\s+later\s+than)\b", re.I)),
]


# a claim about a group picked out by a qualifier: "Contractors with ...", "Tenants who ..."
_GROUP = re.compile(r"\s*(?:(?:All|Only|Any|Every)\s+)?(?P<head>[A-Za-z]+s)\s+(?:with|who|whose|on|in|under|that|from|holding|having)\b")


def _other_group(hypothesis: str, window_stems: set[str]) -> list[str]:
    """A claim that says something of a group ("Contractors with two years' service are
    eligible") is not supported by a window that says it of another group with the same qualifier
    ("employees with two years' service"): the group's head noun must be in the window."""
    m = _GROUP.match(hypothesis)
    if m and stem(m.group("head")) not in window_stems and m.group("head").lower() not in STOP:
        return [f"the claim says it of {m.group('head')!r}, which the window never mentions"]
    return []


def quantifiers(hypothesis: str, window: str) -> list[str]:
    """Each quantifier or bound of the claim ("only", "all", "at least", "at most", with their
    synonyms) that no sentence of the window about the claim (one sharing a content word with it)
    states: without it the window supports a weaker claim than the one made."""
    hypothesis, window = normalise(hypothesis), normalise(window)
    wanted = [(name, ok) for name, claim_rx, ok in _QUANTIFIERS if claim_rx.search(hypothesis)]
    if not wanted:
        return []
    hst = set(content_stems(hypothesis)) - _DOC_STEMS
    about = [window[a:b] for a, b in sentence_spans(window) if not hst or hst & set(content_stems(window[a:b]))]
    return [f"the claim says {name!r}, which the window does not say about it" for name, ok in wanted
            if not any(ok.search(s) for s in about)]


# words of a row or column label that name no slot of their own; ordinals do ("second payment")
_LABEL_GENERIC = {stem(w) for w in ("no", "number", "item", "line", "description", "text",
                                    "details", "name", "type", "note", "notes")}
_ORDINALS = {"first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "final", "last"}
# a line's row label: its text up to the first value, colon or column gap
_ROW_LABEL = re.compile(r"^\s*(?P<label>[A-Za-z][^:\n]*?)(?=\s*:|\s{2,}|\s*\||\s*$)")


def _slot_words(text: str) -> set[str]:
    """Stems of the words that name a slot: content words, ordinals included."""
    return {stem(w) for w in re.findall(r"[A-Za-z][A-Za-z'-]+", text) if w.lower() in _ORDINALS or w.lower() not in STOP}


def _label_words(text: str) -> set[str]:
    return _slot_words(text) - _LABEL_GENERIC


def other_row_or_column(hypothesis: str, evidence: str) -> list[str]:
    """A claimed value found only in rows (or table columns) whose label the claim does not use,
    while the row (or column) the claim names by every word of its label holds another value of
    that kind: "comprehensive claims carry a $1,000 deductible" against the Collision line's
    $1,000 and the Comprehensive line's $250; "a value date of 10 June" against a CSV row's
    booking date of 10 June and value date of 11 June. A row is a line, labelled by its text up
    to the first value, colon or column gap; columns are those ``parsers.tables`` lines up under a
    header (pipe, CSV)."""
    from warrant.runtime.verify.parsers.tables import find_tables, lines_of

    hq = [q for q in extract_quantities(hypothesis) if q.unit != "ref"]
    if not hq:
        return []
    hst = _slot_words(hypothesis)
    rows = []
    for a, b in lines_of(evidence):
        line = evidence[a:b]
        m = _ROW_LABEL.match(line)
        qs = [q for q in extract_quantities(line) if q.unit != "ref"]
        if m and qs:
            label = m.group("label")
            cut = min([q.start for q in qs if q.start >= len(label) - 40] + [len(label)])
            rows.append((_label_words(label[:cut]), label[:cut].strip(), qs))
    out = []
    for h in hq:
        found = [r for r, (_, _, qs) in enumerate(rows) if any(comparable(h, e) and relation(h, e) == "supports" for e in qs)]
        named = [r for r, (lab, _, _) in enumerate(rows) if lab and lab <= hst]
        if found and named and not set(found) & set(named):
            for r in named:
                if any(comparable(h, e) and relation(h, e) == "contradicts" for e in rows[r][2]):
                    out.append(f"{h.text!r} is stated in another row than the claim's {rows[r][1]!r}, which states otherwise")
                    break
    for t in find_tables(evidence):
        if t.kind not in ("pipe", "csv") or not t.header:
            continue
        labels = [_label_words(c.text) for c in t.header]
        for row in t.rows:
            cellq = [extract_quantities(evidence[c.start:c.end]) for c in row]
            for h in hq:
                for j, cq in enumerate(cellq):
                    if j >= len(labels) or not any(comparable(h, e) and relation(h, e) == "supports" for e in cq) or labels[j] <= hst:
                        continue
                    for k, lab in enumerate(labels):
                        if k != j and k < len(cellq) and lab and lab <= hst and lab - labels[j] \
                                and any(comparable(h, e) and relation(h, e) == "contradicts" for e in cellq[k]):
                            out.append(f"{h.text!r} is under {t.header[j].text!r}; the claim's {t.header[k].text!r} says otherwise")
                            break
    return list(dict.fromkeys(out))


# "<Name> may withhold ...": a named party, a modal and the verb it governs
_MODAL_SUBJECT = re.compile(
    r"(?P<subj>(?:[A-Z][\w&.'-]*)(?:\s+(?:[A-Z][\w&.'-]*|of|and|&))*)\s+(?:may|shall|will|must|can|cannot)\s+(?:not\s+)?"
    r"(?:(?:be\s+)?[a-z]+ly\s+)?(?P<verb>[a-z]{3,})\b")
_NOT_A_PARTY = {"either", "each", "any", "the", "a", "an", "no", "neither", "this", "such", "all", "both", "it", "they", "we", "you"}


def _party(text: str) -> set[str]:
    """A named party's words, as ``_party_words`` reads the record's; none for "Either party"."""
    text = re.sub(r"^\s*the\s+(?=[A-Z])", "", text, flags=re.I)  # "The Landlord": a party by its defined role
    first = re.match(r"\s*([A-Za-z]+)", text)
    return set() if not first or first.group(1).lower() in _NOT_A_PARTY else _party_words(text) - {"of"}


def modal_subject_swap(hypothesis: str, evidence: str) -> list[str]:
    """The claim names a party who may (shall, must) do something; the record gives that very
    power or duty, in every sentence stating it, to another named party, and names the claim's
    party too: "Ardent Cartons may withhold payment" against "Quillon Foods may withhold payment
    of any amount disputed"."""
    claim = _END_PHRASE.sub("terminate", hypothesis.strip())
    m = _MODAL_SUBJECT.match(claim) or _DUTY_OF.match(claim)
    mine = _party(m.group("subj")) if m else set()
    if not mine or not mine & _party_words(evidence):
        return []
    verb = stem(m.group("verb"))
    # the sentences giving that power or duty; where several do, those about the claim's object ("the roof")
    others = [e for e in _MODAL_SUBJECT.finditer(evidence) if stem(e.group("verb")) == verb]
    about = set(content_stems(claim)) - mine - {verb} - _DOC_STEMS
    overlap = [len(about & set(content_stems(evidence[slice(*sentence_bounds(evidence, e.start()))]))) for e in others]
    if others and max(overlap) > 0:
        others = [e for e, n in zip(others, overlap) if n == max(overlap)]
    if not others or any(_party(e.group("subj")) & mine or not _party(e.group("subj")) for e in others):
        return []
    return [f"the record gives {m.group('verb')!r} to {others[0].group('subj').strip()!r}, not {m.group('subj').strip()!r}"]


# "can bring the Lease to an end" says "terminate"; "Keeping the roof in repair is the Tenant's obligation"
# gives the duty "keep" to the Tenant
_END_PHRASE = re.compile(r"\b(?:bring|brings)\s+(?:the|this|its)\s+(?:[A-Za-z]+\s+){0,2}to\s+an\s+end\b")
_DUTY_OF = re.compile(r"^(?P<verb>[A-Z][a-z]+)ing\b.*?\bis\s+(?:the\s+)?(?P<subj>[A-Z][\w&.'-]*)['’]s\s+(?:obligation|responsibility|duty|job)\b")
