"""Polarity, modality and tense of a clause.

Negation (``check_negation``): the hypothesis and each evidence clause (sentences, also split at
"but", "whereas", ", while", and at "and" before "shall/will/may/must") are reduced to content-word
stems with quantities removed; negators are counted (not, no, never, n't, cannot, none, nor,
neither, non-, "in no event"), but not the "no"/"not" of a comparison ("no later than", "not less
than"). If every hypothesis word (at least 2) is in one clause, that clause has at most 3 other
words (1 for a 2-word hypothesis), and both sides use the same exception words (unless, except,
only, without, if, provided, until, subject, when, where, otherwise, ...), then different negation
parity -> "conflict", equal -> "agree". Anything else -> "absent".

Modality and tense (``modality``): "will ship" is a promise, "shipped" a fact, "may terminate" a
permission, "must terminate" a duty. A claim passes only where its evidence speaks in the same
mode (see ``same_mode``).
"""

from __future__ import annotations

import re

from warrant.runtime.verify.rules.base import WORDNUM, Quantity, QuantityCheck, overlapping
from warrant.runtime.verify.rules.registry import extract_quantities
from warrant.runtime.verify.text import STOP, WORD_RE, spans_between, stem

NEGATORS = {"not", "no", "never", "cannot", "none", "nor", "neither", "non", "nothing", "nobody"}
_EXCEPTION_WORDS = {
    "unless", "except", "only", "without", "if", "provided", "until", "subject", "when", "where",
    "otherwise", "whether", "save", "excluding", "exclusive", "but",
}

_CLAUSE_SPLIT_RE = re.compile(
    r"(?:[.!?;:](?=\s|$)|\n|,?\s+\bbut\b|,?\s+\bwhereas\b|,\s+\bwhile\b|,\s+\band\b\s+(?=\w+\s+(?:is|are|shall|will|may|must)\b)|\s+\band\s+(?=(?:shall|will|may|must)\b))",
    re.IGNORECASE,
)


def clauses(text: str) -> list[tuple[int, int]]:
    return [(a, b) for a, b in spans_between(_CLAUSE_SPLIT_RE, text) if text[a:b].strip()]


# "no later than", "not less than", "no more than": comparisons (handled as quantities), not polarity
_COMPARATOR_NEG = r"\b(?:no|not)\s+(?=(?:later|earlier|more|less|fewer|greater|sooner)\s+than\b)"


def polarity_profile(text: str, a: int, b: int, qs: list[Quantity], hard_only: bool = False):
    """(content stems, negator count, has exception word) of text[a:b], quantities removed."""
    masked = list(text[a:b])
    for q in overlapping(qs, a, b):
        for i in range(max(q.start, a), min(q.end, b)):
            masked[i - a] = " "
    seg = "".join(masked)
    seg = re.sub(_COMPARATOR_NEG, " ", seg, flags=re.I)
    seg = re.sub(r"\bin no (?:event|case)\b|\bunder no circumstances\b", " not ", seg, flags=re.I)
    seg = re.sub(r"\bnon-(?=[a-z])", "non ", seg, flags=re.I)
    seg = re.sub(r"(\w)n[’']t\b", r"\1 not", seg, flags=re.I)
    seg = re.sub(r"\bcannot\b", "can not", seg, flags=re.I)
    negs, exc, stems = 0, set(), set()
    hard = len(re.findall(r"\b(?:not|no|never|none|nor|neither)\b", seg, flags=re.I))
    for m in WORD_RE.finditer(seg):
        w = m.group(0).lower().strip("'’")
        if w[:1].isdigit():
            continue
        if w in NEGATORS:
            negs += 1
            continue
        if w in _EXCEPTION_WORDS:
            exc.add(w)
            continue
        if w in STOP or len(w) < 2:
            continue
        stems.add(stem(w))
    if hard_only:
        return stems, hard, exc
    return stems, negs, exc


def best_clause(hypothesis: str, evidence: str):
    hstems, hneg, hexc = polarity_profile(hypothesis, 0, len(hypothesis), extract_quantities(hypothesis))
    eqs = extract_quantities(evidence)
    best = None
    for a, b in clauses(evidence):
        stems, neg, exc = polarity_profile(evidence, a, b, eqs)
        cover = len(hstems & stems) / len(hstems) if hstems else 0.0
        extra = len(stems - hstems)
        key = (cover, -extra)
        if best is None or key > best[0]:
            best = (key, (a, b), stems, neg, exc)
        elif key == best[0] and best[3] is not None and neg % 2 != best[3] % 2:
            # two clauses match equally well and disagree on polarity: the evidence states both
            # (a rule and its exception); polarity cannot decide
            best = (key, best[1], best[2], None, best[4])
    return (hstems, hneg, hexc), best


_PART_OF = re.compile(rf"\b(?:\d[\d,]*|{WORDNUM}|most|some|several|many|few|both)\s+of\s+(?:the|these|those|its|their|our)\b", re.I)


# the clause ends where a field's value begins: a label, a colon (or "=") and a count or a yes/no
# value after it (not a list: "liable for the following: indirect loss" is a sentence)
_LABEL_END = re.compile(r"""\s*[:=][ \t]*["']?(?:[-+]?\d|(?:none|nil|n/?a|yes|no|true|false|null)\b)""", re.I)


def check_negation(hypothesis: str, evidence: str) -> QuantityCheck:
    """Polarity flip of an otherwise matching clause.

    "conflict" when every content word of the hypothesis (at least 2, quantities ignored) occurs
    in one evidence clause with at most 3 other content words (1 for a 2-word hypothesis), no exception word (unless, except,
    only, without, if, ...) on either side, and the negator counts differ in parity ("is payable"
    vs "is not payable", "shall exceed" vs "shall not exceed", "No late fee" vs "A late fee").
    "agree" under the same match with equal parity; "absent" otherwise.
    """
    if len(clauses(hypothesis)) > 1:
        return QuantityCheck("absent", "hypothesis is more than one clause; polarity is checked per clause", None, None)
    if _PART_OF.search(hypothesis):
        # "Seven of the audits are not IT audits": the negation sorts members; it is no flip of a clause
        return QuantityCheck("absent", "the claim counts part of a group; polarity does not decide it", None, None)
    (hstems, hneg, hexc), best = best_clause(hypothesis, evidence)
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
    if eneg is None:
        return QuantityCheck("absent", "evidence clauses of both polarities match the hypothesis", None, None)
    a += len(evidence[a:b]) - len(evidence[a:b].lstrip())
    b -= len(evidence[a:b]) - len(evidence[a:b].rstrip())
    clause = evidence[a:b]
    if _LABEL_END.match(evidence, b):
        # '"cancelled_justified": 0', "Late fees: none": a field whose value, not a negator, says
        # whether there are any
        return QuantityCheck("absent", f"the closest evidence (chars {a}-{b}) is a field's label; its value decides", None, None)
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




# ---- modality and tense ------------------------------------------------------------------

# Each modal word and the modes it can express ("shall" and "will" also state duties in contracts).
_MODES = {
    "will": {"future", "duty"}, "shall": {"future", "duty"}, "'ll": {"future"},
    "must": {"duty"}, "required": {"duty"}, "obliged": {"duty"}, "obligated": {"duty"},
    "may": {"permission", "possibility"}, "can": {"permission"}, "permitted": {"permission"},
    "allowed": {"permission"}, "entitled": {"permission"},
    "might": {"possibility"}, "could": {"possibility"}, "likely": {"possibility"}, "expected": {"future", "possibility"},
    "should": {"advice"}, "ought": {"advice"},
    # "said it would close the plant": what was announced, not what happened
    "would": {"future", "possibility"},
}
_MODAL_RE = re.compile(r"\b(" + "|".join(sorted((m for m in _MODES if m != "'ll"), key=len, reverse=True)) + r")\b|'ll\b|\b(?:is|are)\s+to\b|\b(?:has|have)\s+to\b|\bgoing\s+to\b|\bscheduled\s+to\b", re.I)
_MONTH_MAY = re.compile(r"\b\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?May\b|\bMay\s+\d|\bMay\s+(?:of\s+)?\d{4}")
# "was paid", "has been sent", and the perfect "has given notice", "have already received"
_PAST_AUX_RE = re.compile(r"\b(?:was|were|had|did)\b|\b(?:has|have)\s+(?:already\s+)?(?:been|[a-z]{2,}(?:ed|en|wn))\b", re.I)
# a modal (optionally negated, optionally "be") and the verb it governs: "will ship", "shall not be paid"
_MODAL_VERB_RE = re.compile(
    r"\b(?:will|would|shall|must|may|can|might|could|should)\s+(?:not\s+)?(?:be\s+)?(?P<v>[a-z]{3,})\b", re.I
)


def modality(text: str) -> set[str]:
    """The modes a text speaks in: {"future", "duty", "permission", "possibility", "advice"}."""
    modes: set[str] = set()
    text = _MONTH_MAY.sub(" ", text)  # "3 May", "May 3": the month, not the modal
    for m in _MODAL_RE.finditer(text):
        w = m.group(0).lower()
        if w.startswith(("is ", "are ", "has ", "have ")):
            modes.add("duty")
        elif w.startswith(("going", "scheduled")) or w == "'ll":
            modes.add("future")
        else:
            modes |= _MODES[w]
    return modes


_PASSIVE_BEFORE = {"is", "are", "be", "being", "been", "get", "gets", "remain", "remains"}
_IRREGULAR_PAST = set(
    "paid sent made took gave held sold bought brought built kept left lost met put ran said saw spent told "
    "won wrote began came did got went shipped paid signed issued received delivered "
    "given taken written shown chosen done gone seen known drawn".split()
)


def _past_verbs(text: str) -> set[str]:
    """Words used as a past tense: "-ed"/irregular forms after a past auxiliary or as a main verb
    ("shipped", "was paid"), not the present passive ("are reimbursed")."""
    words = re.findall(r"[A-Za-z]+", text)
    out = set()
    for i, w in enumerate(words):
        lw = w.lower()
        if not (lw.endswith("ed") and len(lw) > 4) and lw not in _IRREGULAR_PAST:
            continue
        prev = words[i - 1].lower() if i else ""
        if prev in _PASSIVE_BEFORE or prev in _MODES:
            continue
        out.add(lw)
    return out


def same_mode(hypothesis: str, evidence: str) -> str | None:
    """Why the hypothesis speaks in another mode than the evidence, or None when it does not.

    Two modal statements must share a mode ("may terminate" is not "must terminate"). A promise
    is not a fact: "will ship by 3 May" is not supported by "shipped on 3 May", and "shipped" or
    "was shipped" is not supported by "will ship". A plain statement of terms ("Payment terms: net
    45 days") may support a duty ("must be paid within 45 days")."""
    hm, em = modality(hypothesis), modality(evidence)
    if hm and em and not (hm & em):
        return f"the claim speaks of what {'/'.join(sorted(hm))} applies; the evidence of what {'/'.join(sorted(em))} applies"
    if hm and not em:
        past_h = _past_verbs(evidence)
        for m in _MODAL_VERB_RE.finditer(hypothesis):
            v = m.group("v").lower()
            if any(w != v and stem(w) == stem(v) for w in past_h) or (_PAST_AUX_RE.search(evidence) and "future" in hm):
                return f"the claim says it {m.group(0).lower()!r}; the evidence says it already happened"
    if em and not hm:
        past = _past_verbs(hypothesis)
        if _PAST_AUX_RE.search(hypothesis) and not _PAST_AUX_RE.search(evidence) and past:
            return "the claim states a past fact; the evidence only states what is to happen"
        for m in _MODAL_VERB_RE.finditer(evidence):
            v = m.group("v").lower()
            for w in past:
                if w != v and stem(w) == stem(v):
                    return f"the claim says {w!r} happened; the evidence says it {m.group(0).lower()!r}"
    return None
