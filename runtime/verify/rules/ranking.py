"""Claims that order two stated values or pick the extreme of a list, without stating a value:
"Staff files are kept longer than adult health records", "The closing balance was higher than the
opening balance", "Release R-04 is the largest release by tonnage".

The model cannot compare numbers, and the value rules need a value in the claim. Here each side
of the claim is located as a labelled value of the record (a table cell under its column, a
"Key: value" field, a JSON leaf), never guessed from prose, and the values are compared in code:

* a side names a row by words (or codes: "R-04", "CPWX 603377"); every one of its words must be
  among the row's labels and its column's label, and exactly one row may answer it;
* the words the comparison is about ("a higher *taxable value*", the words both sides share,
  "by *tonnage*") must be in the column's label, unless they are generic ("amount", "limit");
* two values of one table must come from one column; values compare only when of one kind (a
  currency with itself, durations in one family, dates with dates);
* a superlative compares the row with every other row of its column, totals left out; where the
  claim counts the rows ("of the four languages") the table must have that many.

Every reading that passes these tests must give the same answer, or there is no answer; the claim
then goes on to the other rules and the model.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from warrant.runtime.verify.parsers import jsonleaves, prose
from warrant.runtime.verify.parsers.tables import find_tables, lines_of
from warrant.runtime.verify.rules.base import TENS_WORDS, UNITS_WORDS, I, Quantity
from warrant.runtime.verify.rules.comparisons import base_value, comparable
from warrant.runtime.verify.rules.identifiers import key
from warrant.runtime.verify.rules.negation import NEGATORS
from warrant.runtime.verify.rules.registry import extract_quantities
from warrant.runtime.verify.text import STOP, stem

_UP = {"higher", "greater", "larger", "bigger", "more", "longer", "later", "costlier", "heavier", "pricier",
       "more expensive", "exceeds", "exceeded", "above"}
_DOWN = {"lower", "smaller", "less", "fewer", "shorter", "earlier", "cheaper", "lighter", "less expensive", "below"}
_SUP_UP = {"highest", "largest", "biggest", "greatest", "most", "longest", "latest", "heaviest", "priciest", "most expensive"}
_SUP_DOWN = {"lowest", "smallest", "least", "fewest", "shortest", "earliest", "cheapest", "lightest", "least expensive"}
# the kind of value a word can only be about
_KIND_OF = {"earlier": "date", "later": "date", "earliest": "date", "latest": "date",
            "cheaper": "money", "costlier": "money", "cheapest": "money", "pricier": "money", "priciest": "money",
            "more expensive": "money", "less expensive": "money", "most expensive": "money", "least expensive": "money"}

# the attribute a word names by itself: "heavier" compares weights
_ATTR_OF = {w: {stem("weight")} for w in ("heavier", "lighter", "heaviest", "lightest")}


def _alternation(words: set[str]) -> str:
    return "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(words, key=len, reverse=True))


_CMP_RE = _alternation((_UP | _DOWN) - {"exceeds", "exceeded", "above", "below"})
_SUP_RE = _alternation(_SUP_UP | _SUP_DOWN)
_AUX = r"(?:is|are|was|were|has|have|had|will\s+be|would\s+be|gets?|got|shows?|showed)"
# a verb between a side and the comparison: regular ones by their ending, common irregular ones by name
_VERB = r"(?:[a-z]+(?:ed|s)|took\s+home|brought\s+in|kept|held|paid|sold|made|got|spent|took|grew|fell|rose|ran|came\s+in)"
_COMPARATIVE = re.compile(
    rf"^(?P<a>.+?)\s+(?:(?P<aux>{_AUX})\s+(?P<verb>[a-z]+\s+)?|(?P<verb2>{_VERB})\s+)?(?:(?:a|an)\s+)?"
    rf"(?P<cmp>{_CMP_RE})"
    r"(?P<mid>(?:\s+[\w'-]+){0,4}?)\s+than\s+(?P<b>.+?)\s*\.?$", I)
_EXCEEDS = re.compile(r"^(?P<a>.+?)\s+(?P<cmp>exceeds|exceeded|is\s+above|was\s+above|is\s+below|was\s+below)\s+(?P<b>.+?)\s*\.?$", I)
_SUPERLATIVE = re.compile(
    rf"^(?P<s>.+?)\s+(?:{_AUX}|{_VERB})\s+the\s+(?:single\s+)?"
    rf"(?P<sup>{_SUP_RE})"
    r"(?P<attr>(?:\s+[\w'-]+){0,4}?)(?:\s+(?P<prep>of|in|on|among|across|by|for)\s+(?P<scope>.+?))?\s*\.?$", I)
_SUPERLATIVE_WITH = re.compile(
    r"^the\s+(?P<noun>[\w\s'-]+?)\s+with\s+the\s+"
    rf"(?P<sup>{_SUP_RE})"
    r"(?P<attr>(?:\s+[\w'-]+){1,4}?)\s+(?:is|was|are|were)\s+(?P<s>.+?)\s*\.?$", I)
_LEAD = re.compile(r"^(?:that|those|the\s+one|the\s+ones)\s+(?:of|for)\s+|^(?:for|in|at|on)\s+", I)
_PREP = re.compile(r"^(?P<p>for|in|at|on)\s+", I)
# words that say nothing about which value: allowed to match no label
GENERIC_WORDS = {stem(w) for w in ("amount", "value", "figure", "number", "count", "level", "sum", "limit", "single",
                              "line", "item", "row", "entry", "one", "ones", "shown", "listed", "stated", "recorded",
                              "reading", "result", "measurement", "figure", "full", "fully", "period",
                              "plan", "option", "category", "group", "type", "kind")}
# head nouns of what is measured: they may go unnamed when a specific word names the column ("gross pay" / "Gross")
_HEADS = {stem(w) for w in ("pay", "cost", "price", "balance", "spend", "spending", "charge", "rate")}
_TOTAL = {stem(w) for w in ("total", "subtotal", "sum", "grand", "overall", "all", "totals")}
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")
_CODE = re.compile(r"[A-Za-z]*[-/#]?\d[\w/-]*")


def label_words(text: str) -> set[str]:
    """Stems of the content words of a label or a side of a claim; codes are read apart."""
    text = _CODE.sub(" ", text).replace("-", " ").replace("_", " ")
    return {stem(w) for w in _WORD.findall(text) if w.lower().strip("'-") not in STOP and len(w) > 1} - {""}


def label_codes(text: str) -> set[str]:
    return {key(m.group(0)) for m in _CODE.finditer(text)}


@dataclass(frozen=True)
class Slot:
    """A labelled value of the record."""

    q: Quantity  # offsets into the record text
    row: frozenset[str]  # stems naming the row (label cells and their headers; a field's key; a JSON object's strings)
    codes: frozenset[str]  # codes of the row ("r04", "603377")
    col: frozenset[str]  # stems naming the column (its header; the key; a JSON leaf's key and its object's key)
    group: str  # the table, key-value block or JSON array the value belongs to
    rowid: str
    colid: str
    label: str  # the label shown in a reason

    @property
    def total(self) -> bool:
        return bool(self.row & _TOTAL)


def _one_value(text: str, base: int) -> Quantity | None:
    qs = [q for q in extract_quantities(text) if q.unit != "ref"]
    if len(qs) != 1 or qs[0].op is not None or (qs[0].kind == "date" and qs[0].unit in ("noyear", "monthyear")):
        return None
    return replace(qs[0], start=qs[0].start + base, end=qs[0].end + base)


def _is_value_cell(cell: str, value: str, kind: str) -> bool:
    """"6 years", "$212.00", "850 m", "12.1": a value; 'Cotton poplin, 58"', "Unit 4B": a label
    with a number in it."""
    rest = cell.replace(value, " ", 1)
    if len(_WORD.findall(rest)) > 2:
        return False
    # the value leads the cell; words before it make it a label ("Spa massage (60 min)")
    return cell.lstrip(" $€£¥₹(+-").startswith(value.lstrip(" $€£¥₹(+-"))


# where a sentence's clauses part: each clause with one value is a slot of its own words
_CLAUSE_CUT = re.compile(r"\s*(?:;|,\s+(?:while|whereas|but|and|compared\s+with)\b|,|\s+(?:while|whereas|but)\b|\s+and\b)\s*", I)


def _prose_slots(text: str, lines: list[tuple[int, int]], taken: set[int]) -> list[Slot]:
    """Clauses of prose that state one value ("Timesheets are kept for three years"): the
    clause's words label it. A clause with no value joins the one before it."""
    out = []
    for n, sent in enumerate(prose.sentences(text, lines, taken)):
        cuts = [sent.start] + [sent.start + m.end() for m in _CLAUSE_CUT.finditer(sent.text)] + [sent.end]
        parts: list[tuple[int, int]] = []
        for a, b in zip(cuts, cuts[1:]):
            if parts and not [q for q in extract_quantities(text[a:b]) if q.unit != "ref"]:
                parts[-1] = (parts[-1][0], b)
            else:
                parts.append((a, b))
        for k, (a, b) in enumerate(parts):
            q = _one_value(text[a:b], a)
            if q is None:
                continue
            w = frozenset(label_words(text[a:q.start] + " " + text[q.end:b]))
            out.append(Slot(q, w, frozenset(label_codes(text[a:q.start] + " " + text[q.end:b])), w, "prose", f"s{n}c{k}", "prose",
                            text[a:b].strip()))
    return out


def _text_slots(text: str) -> list[Slot]:
    lines = lines_of(text)
    found = find_tables(text, lines)
    taken = set().union(*(t.taken for t in found)) if found else set()
    out = _prose_slots(text, lines, taken)
    for g, t in enumerate(found):
        if t.kind == "kv":
            for r, (lab, val) in enumerate(t.rows):
                q = _one_value(val.text, val.start)
                if q is not None:
                    w = frozenset(label_words(lab.text))
                    out.append(Slot(q, w, frozenset(label_codes(lab.text)), w, f"t{g}", f"t{g}r{r}", f"t{g}", lab.text))
            continue
        head = [c.text for c in t.header]
        for r, row in enumerate(t.rows):
            values, names, codes, shown = [], set(), set(), []
            for c, cell in enumerate(row):
                q = _one_value(cell.text, cell.start) if cell.text else None
                if q is not None and _is_value_cell(cell.text, q.text, q.kind):
                    values.append((c, q))  # a value, with its unit if any ("6 years", "$212.00", "850 m")
                elif cell.text:
                    names |= label_words(cell.text) | (label_words(head[c]) if c < len(head) else set())
                    codes |= label_codes(cell.text)
                    shown.append(cell.text)
            for c, q in values:
                col = frozenset(label_words(head[c])) if c < len(head) else frozenset()
                out.append(Slot(q, frozenset(names), frozenset(codes), col, f"t{g}", f"t{g}r{r}", f"t{g}c{c}",
                                f"{' '.join(shown)} / {head[c] if c < len(head) else 'column ' + str(c + 1)}"))
    return out


def _json_slots(objects: dict[str, list], off: int) -> list[Slot]:
    out = []
    for parent, kids in objects.items():
        in_array = parent.endswith("]")
        strings = [lf for lf in kids if isinstance(lf.value, str)]
        names = set().union(*(label_words(lf.value) for lf in strings)) if in_array else set()
        codes = set().union(*(label_codes(lf.value) for lf in strings)) if in_array else set()
        pkey = re.sub(r"\[\d+\]$", "", parent).rsplit(".", 1)[-1].strip("$")
        for lf in kids:
            if isinstance(lf.value, bool) or lf.value is None:
                continue
            q = _one_value(lf.raw.strip('"'), off + lf.start + (1 if lf.raw.startswith('"') else 0))
            if q is None or (isinstance(lf.value, str) and q.kind == "number"):
                continue
            kw = frozenset(label_words(lf.key.replace("_", " ")))
            if in_array:  # one object of a list: its strings name the row, the key the column
                group = re.sub(r"\[\d+\]", "[]", parent)
                out.append(Slot(q, frozenset(names), frozenset(codes), kw, group, parent, f"{group}.{lf.key}",
                                f"{' '.join(str(s.value) for s in strings)} / {lf.key}"))
            else:  # an object of named values: the key names the row, the object's key the column
                col = frozenset(kw | label_words(pkey.replace("_", " ")))
                out.append(Slot(q, kw, frozenset(label_codes(lf.key)), col, parent, lf.path, parent, lf.path))
    return out


def slots(text: str) -> list[Slot]:
    """Every labelled value of a record's text: its JSON leaves when it is JSON (or a JSON body
    under a request or title line), else its table cells and fields."""
    doc = jsonleaves.body(text)
    if doc is None:
        return _text_slots(text)
    found = _json_slots(doc.objects, doc.offset) if doc.objects is not None else []
    if not found:  # malformed or valueless JSON is not prose either
        return _text_slots(text) if doc.header else []
    return found


@dataclass(frozen=True)
class Side:
    words: frozenset[str]
    codes: frozenset[str]
    text: str


def _side(text: str) -> Side:
    return Side(frozenset(label_words(text)), frozenset(label_codes(text)), text.strip())


def _names(slot: Slot, side: Side, attr: set[str], subject: set[str] = frozenset()) -> bool:
    """The slot answers the side: every word of the side (less the compared attribute and the
    words of the record's own subject, "the account's closing balance" on an account statement)
    labels its row or column, at least one labels the row, and every code of the side is the row's."""
    own = side.words - attr - GENERIC_WORDS
    if not side.codes <= slot.codes or not (own or side.codes):
        return False
    return own - subject <= slot.row | slot.col and (bool(own & slot.row) or bool(side.codes))


def _about(labels: frozenset[str] | set[str], attr: set[str]) -> bool:
    """The attribute words are the labels': every specific word, and the head nouns ("pay",
    "cost") too unless a specific word names the value; generic words ("amount") never count."""
    want = attr - GENERIC_WORDS
    specific, heads = want - _HEADS, want & _HEADS
    ok = lambda w: any(_close(w, c) for c in labels)  # noqa: E731
    if not all(ok(w) for w in specific):
        return False
    return bool(specific) or all(ok(w) for w in heads)


# the fewest and the most days a unit can hold
_DAYS = {"day": (1, 1), "week": (7, 7), "month": (28, 31), "year": (365, 366)}


def _best(found: list[Slot], attr: set[str]) -> list[Slot]:
    """The slots whose column is named by the most of the attribute words ("hourly rate" is the
    "hourly_rate" column, not "hours")."""
    want = attr - GENERIC_WORDS
    score = lambda s: sum(any(_close(w, c) for c in s.col) for w in want)  # noqa: E731
    top = max((score(s) for s in found), default=0)
    return [s for s in found if score(s) == top]


def _ordered(x: Slot, y: Slot) -> int | None:
    """-1, 0 or 1 as x's value is below, equal to or above y's; None when they do not compare."""
    a, b = x.q, y.q
    if a.kind == b.kind == "duration" and a.unit in _DAYS and b.unit in _DAYS and not comparable(a, b):
        # months or years against days or weeks: ordered where the day ranges do not overlap
        (la, ha), (lb, hb) = (tuple(a.value * d for d in _DAYS[a.unit]), tuple(b.value * d for d in _DAYS[b.unit]))
        return 1 if la > hb else -1 if ha < lb else None
    if not comparable(a, b) or (a.kind == "money" and a.unit != b.unit) or a.per != b.per or a.sign != b.sign:
        return None
    if a.kind == "number" and a.unit and b.unit and a.unit != b.unit:
        return None
    va, vb = base_value(a), base_value(b)
    if va is None or vb is None:
        return None
    return (va > vb) - (va < vb)


@dataclass(frozen=True)
class Ranked:
    status: str  # "supported" | "contradicted"
    reason: str
    used: tuple[Quantity, ...]  # the values compared, offsets into the record text


def _kind_ok(slot: Slot, kind: str | None) -> bool:
    """"later" is about dates only, and "larger" never is."""
    return slot.q.kind == kind if kind else slot.q.kind != "date"


def _plain(claim: str) -> bool:
    """No negation and no value of the claim's own: those are other rules' business."""
    low = claim.lower()
    if any(re.search(rf"\b{re.escape(n)}\b", low) for n in NEGATORS) or "n't" in low:
        return False
    return True


def _no_values(claim: str, record_codes: set[str]) -> bool:
    """The claim states no value of its own: every number in it is part of a code the record's rows carry."""
    for q in extract_quantities(claim):
        if q.unit == "ref":
            continue
        if not {key(t) for t in re.findall(r"\d[\w/-]*", q.text)} <= record_codes:
            return False
    return True


# a number word, or a fraction or multiple of the other side ("more than a third of the total"):
# arithmetic the derived rules do, not an order of two stated values
_MULTIPLE = re.compile(r"\b(?:" + "|".join(w for w in (*UNITS_WORDS, *TENS_WORDS) if w != "one")
                       + r"|half(?=\s+(?:of|the|a|an|as)\b)|halves|quarters?|thirds?\s+of|fifths?|twice|double|triple|times|percent|per\s*cent"
                       + r"|an?\s+(?:minute|hour|day|week|fortnight|month|quarter|year|decade)s?)\b|%", I)


def is_ordering(claim: str) -> bool:
    """The claim orders two things or names an extreme and states no value, multiple or
    negation of its own: what ``compare_stated`` decides, and what the model may pass only
    where its window states the order in words."""
    claim = claim.strip()
    if not _plain(claim) or _MULTIPLE.search(claim):
        return False
    if not (_COMPARATIVE.match(claim) or _EXCEEDS.match(claim) or _SUPERLATIVE_WITH.match(claim) or _SUPERLATIVE.match(claim)):
        return False
    # a number after a code's letters ("CPWX 603377") is part of a name, not a value
    return all(q.unit == "ref" or re.search(r"\b[A-Z]{2,}[ -]$", claim[: q.start]) for q in extract_quantities(claim))


def _subject(text: str) -> set[str]:
    """Words of the record's first line (its title: "Account Statement"), which a claim may use
    of the record itself."""
    first = next((ln for ln in text.lstrip().splitlines() if ln.strip()), "")
    return label_words(first) if not first.lstrip().startswith(("{", "[")) else set()


# the time a claim is about, when the record is about that time alone ("this week", "in May")
_WHEN = re.compile(r"\s+(?:(?:this|that|last|the)\s+(?:week|month|quarter|year|period|half|day|run|cycle)"
                   r"|(?:in|during|for)\s+(?:Q[1-4]|H[12]|January|February|March|April|May|June|July|August|September"
                   r"|October|November|December|the\s+(?:week|month|quarter|year|period|half))(?:\s+\d{4})?)\s*(?=\.?$)", I)


def compare_stated(claim: str, text: str) -> Ranked | None:
    """The claim orders two labelled values of ``text`` or names the extreme of a column: the
    answer when every reading of it gives the same one, else None."""
    claim = _WHEN.sub("", claim.strip())
    if not _plain(claim):
        return None
    tm = _TARGET_CLAIM.match(claim)
    m = None if tm else (_COMPARATIVE.match(claim) or _EXCEEDS.match(claim))
    sup = None if (m or tm) else (_SUPERLATIVE_WITH.match(claim) or _SUPERLATIVE.match(claim))
    if not m and not sup and not tm:
        return None
    found = slots(text)
    if not found:
        return None
    codes = set().union(*(s.codes for s in found))
    if tm:
        return _against_target(tm, found, _subject(text)) if _no_values(claim, codes) else None
    if m:
        if not _no_values(claim, codes) or _MULTIPLE.search(m.group("b")):
            return None
        return _comparative(m, found, _subject(text))
    scope = sup.groupdict().get("scope") or ""
    if not _no_values(claim[: sup.start("scope")] if scope else claim, codes):
        return None
    return _superlative(sup, found, _subject(text))


def _comparative(m: re.Match, found: list[Slot], subject: set[str]) -> Ranked | None:
    word = re.sub(r"\s+", " ", m.group("cmp").lower())
    word = word.split()[-1] if word.startswith(("is ", "was ")) else word  # "is above"
    up = word in _UP
    a_text, b_text = m.group("a"), m.group("b")
    mid = m.groupdict().get("mid") or ""
    b_text = re.sub(r"'s?$|’s?$", "", b_text.strip())
    pm, pb = _PREP.match(mid.strip()), _PREP.match(b_text)
    attr: set[str] = set()
    if pm and pb and pm.group("p").lower() == pb.group("p").lower():
        # "Collision costs more for the Ford than for the Subaru": the sides follow the prepositions
        attr = label_words(a_text)
        a_text, mid = mid.strip()[pm.end():], ""
    b_text = _LEAD.sub("", b_text)
    a, b = _side(re.sub(r"'s?$|’s?$", "", a_text.strip())), _side(b_text)
    attr |= label_words(mid) | (a.words & b.words) | _ATTR_OF.get(word, set())
    kind = _KIND_OF.get(word)
    verb = m.groupdict().get("verb") or m.groupdict().get("verb2")
    if kind is None and verb and stem(verb.split()[0]) in {stem("cost"), stem("pay"), "fee"}:
        kind = "money"
    ca = _best([s for s in found if _names(s, a, attr, subject) and _about(s.col | s.row, attr) and _kind_ok(s, kind)], attr)
    cb = _best([s for s in found if _names(s, b, attr, subject) and _about(s.col | s.row, attr) and _kind_ok(s, kind)], attr)
    if not ca or not cb or len({s.rowid for s in ca}) != 1 or len({s.rowid for s in cb}) != 1:
        return None
    outcomes = set()
    pairs = []
    for x in ca:
        for y in cb:
            if x.rowid == y.rowid or (x.group == y.group and x.colid != y.colid):
                continue
            o = _ordered(x, y)
            if o is None:
                continue
            outcomes.add(o == (1 if up else -1))
            pairs.append((x, y))
    if len(outcomes) != 1 or not pairs:
        return None
    x, y = pairs[0]
    ok = outcomes.pop()
    rel = {1: "above", 0: "equal to", -1: "below"}[_ordered(x, y)]
    return Ranked("supported" if ok else "contradicted",
                  f"the record gives {x.q.text!r} for {x.label!r} and {y.q.text!r} for {y.label!r}: the first is {rel} the second",
                  (x.q, y.q))


# "The CRM platform beat its uptime target": the row's value against the row's own target
_TARGET_CLAIM = re.compile(
    r"^(?P<a>.+?)\s+(?:has\s+|have\s+)?(?P<v>met|meets|beat|beats|exceeded|exceeds|achieved|hit|missed|misses|fell\s+short\s+of|failed\s+to\s+meet)"
    r"\s+(?:its|their|the)\s+(?P<attr>(?:[\w'-]+\s+){0,3}?)(?:target|goal|sla|objective|threshold)s?\b(?P<rest>.*?)\s*\.?$", I)
_TARGET_WORDS = {stem(w) for w in ("target", "goal", "sla", "objective", "threshold", "commitment", "committed")}
# which way is better for a measure, by the words that name it
_HIGHER_BETTER = {stem(w) for w in ("uptime", "availability", "available", "attendance", "compliance", "on-time", "ontime",
                                    "score", "satisfaction", "csat", "nps", "accuracy", "fill", "yield", "coverage",
                                    "completion")}
_LOWER_BETTER = {stem(w) for w in ("time", "latency", "response", "restore", "mttr", "cost", "spend", "defect", "defects",
                                   "error", "errors", "incident", "incidents", "downtime", "backlog", "delay", "days", "ms")}


def _against_target(m: re.Match, found: list[Slot], subject: set[str]) -> Ranked | None:
    """The named row's value against its own target in the same row (or object): met, beat or
    missed, where the labels say which way is better."""
    if label_words(m.group("rest") or ""):
        return None
    side = _side(m.group("a"))
    attr = label_words(m.group("attr") or "")
    mine = [s for s in found if _names(s, side, set(), subject) and s.group != "prose"]
    if len({s.rowid for s in mine}) != 1:
        return None
    targets = [s for s in mine if s.col & _TARGET_WORDS]
    named = [s for s in targets if attr and _about(s.col, attr)]  # "Response target" for "its response target"
    targets = named or targets
    if len(targets) != 1:
        return None
    t = targets[0]
    base = (t.col - _TARGET_WORDS) | attr
    actual = [s for s in mine if s is not t and not s.col & _TARGET_WORDS and _ordered(s, t) is not None
              and (not attr or _about(s.col, attr)) and (s.col & base)]
    if len(actual) != 1:
        return None
    a = actual[0]
    words = a.col | t.col | attr
    hi, lo = bool(words & _HIGHER_BETTER), bool(words & _LOWER_BETTER)
    if hi == lo:
        return None  # the labels do not say which way is better
    o = _ordered(a, t) * (1 if hi else -1)  # 1: better than the target, 0: at it, -1: worse
    v = re.sub(r"\s+", " ", m.group("v").lower())
    strict = v in ("beat", "beats", "exceeded", "exceeds")
    met = o > 0 if strict else o >= 0
    ok = (not met) if v in ("missed", "misses", "fell short of", "failed to meet") else met
    return Ranked("supported" if ok else "contradicted",
                  f"the record gives {a.q.text!r} for {a.label!r} against a target of {t.q.text!r} ({t.label!r})", (a.q, t.q))


_COUNT = re.compile(r"\b(?:the\s+|all\s+)?(?P<n>two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\d{1,2})\b", I)


def _superlative(m: re.Match, found: list[Slot], subject: set[str]) -> Ranked | None:
    word = re.sub(r"\s+", " ", m.group("sup").lower())
    up = word in _SUP_UP
    who = _side(m.group("s"))
    attr = label_words(m.group("attr") or "") | _ATTR_OF.get(word, set())
    scope = m.groupdict().get("scope") or ""
    if m.groupdict().get("prep") == "by":
        attr |= label_words(scope)  # "the largest release by tonnage"
        scope = ""
    if m.groupdict().get("noun"):
        attr |= label_words(m.group("noun"))  # "the car with the highest moisture reading is ..."
    kind = _KIND_OF.get(word)
    mine = _best([s for s in found if _names(s, who, attr, subject) and _kind_ok(s, kind) and not s.total], attr)
    if len({s.rowid for s in mine}) != 1:
        return None
    outcomes, decided = set(), []
    for s in mine:
        peers = [p for p in found if p.colid == s.colid and p.group == s.group and p.rowid != s.rowid and not p.total]
        col_attr = attr - s.row  # the noun the rows are ("release") may be the rows' own label
        if not peers or (s.group.startswith("t") and s.colid == s.group) or not _column_named(s, col_attr, kind, found):
            continue  # (a key-value block is not a column of like values)
        orders = [_ordered(s, p) for p in peers]
        if any(o is None for o in orders):
            continue
        n = _COUNT.search(scope)
        if n and _count(n.group("n")) != len(peers) + 1:
            return None
        sign = 1 if up else -1
        if all(o == sign for o in orders):
            outcomes.add(True)
            decided.append((s, s))
        elif any(o == -sign for o in orders):
            outcomes.add(False)
            decided.append((s, next(p for p, o in zip(peers, orders) if o == -sign)))
        else:
            return None  # a tie for the extreme: the record does not single one out
    if len(outcomes) != 1:
        return None
    s, other = decided[0]
    if outcomes.pop():
        return Ranked("supported", f"{s.q.text!r} for {s.label!r} is the {word} of its column", (s.q,))
    return Ranked("contradicted", f"{s.q.text!r} for {s.label!r} is not the {word}: {other.q.text!r} for {other.label!r}", (s.q, other.q))


def _column_named(s: Slot, attr: set[str], kind: str | None, found: list[Slot]) -> bool:
    """The claim's attribute words name the slot's column ("gross pay" / "Gross"; "tonnage" /
    "Tonnes" by a shared stem of four letters or more); or it names none, the superlative itself
    says the kind ("the earliest" of dates) and the table has one column of that kind."""
    if not attr - GENERIC_WORDS:
        return kind is not None and len({o.colid for o in found if o.group == s.group and o.q.kind == kind}) == 1
    return _about(s.col, attr)


def _close(a: str, b: str) -> bool:
    short, long_ = sorted((a, b), key=len)
    return a == b or (len(short) >= 4 and long_.startswith(short))


def _count(word: str) -> int:
    w = word.lower()
    return int(w) if w.isdigit() else int(UNITS_WORDS.get(w, 0))


__all__ = ["GENERIC_WORDS", "Ranked", "Slot", "compare_stated", "is_ordering", "label_codes", "label_words", "slots"]
