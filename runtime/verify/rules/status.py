"""Claims that a thing reached a state ("Release R-03 has been delivered", "Invoice INV-9 has
been paid in full", "CO-04 has been approved") against the state its record gives it in a field
made for it: a table's Status column in the thing's row, a "Status: ..." line of the document the
thing names, a JSON "status" value (or a flag: "paid": false) of the thing's object.

A state belongs to a lifecycle (delivery, payment, approval, completion, receipt, shipping,
activity); within one, the record's state either is the claimed one (supported, when the claim
adds nothing more) or excludes it (contradicted: "In transit" is not "delivered", "partially paid"
is not "paid in full"). A state of another lifecycle, or a row the claim's words do not single
out, gives no answer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from warrant.runtime.verify.parsers import jsonleaves
from warrant.runtime.verify.parsers.tables import find_tables, lines_of
from warrant.runtime.verify.rules.base import UNITS_WORDS, I
from warrant.runtime.verify.rules.ranking import GENERIC_WORDS, label_codes, label_words
from warrant.runtime.verify.rules.registry import extract_quantities
from warrant.runtime.verify.text import stem

# lifecycle -> (the words of its done state, the record states that exclude it)
_LIFECYCLES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "delivery": (("delivered",), ("in transit", "out for delivery", "on hold", "pending", "planned", "scheduled",
                                  "awaiting", "back-ordered", "backordered", "exception", "returned", "cancelled",
                                  "canceled", "not delivered", "undelivered", "damaged", "held", "not shipped",
                                  "dispatched", "shipped", "picked up", "failed", "partial", "partially delivered")),
    "payment": (("paid", "settled", "paid in full"), ("unpaid", "overdue", "outstanding", "open", "due", "not paid",
                                                      "pending", "awaiting payment", "on hold", "disputed", "partially paid",
                                                      "part paid", "part-paid", "partial")),
    "approval": (("approved",), ("pending", "rejected", "declined", "returned", "on hold", "awaiting approval",
                                 "under review", "in review", "submitted", "draft", "exception", "not approved",
                                 "awaiting", "held", "queried", "refused", "denied")),
    "completion": (("completed", "complete", "done", "finished"), ("open", "in progress", "pending", "not started",
                                                                   "scheduled", "planned", "ongoing", "on hold",
                                                                   "overdue", "cancelled", "canceled", "blocked")),
    "receipt": (("received",), ("pending", "back-ordered", "backordered", "in transit", "not received", "awaiting",
                                "outstanding", "open", "on order", "cancelled", "canceled", "partial", "partially received",
                                "part received")),
    "shipping": (("shipped", "dispatched"), ("pending", "not shipped", "back-ordered", "backordered", "awaiting",
                                            "planned", "on hold", "cancelled", "canceled", "held", "unshipped",
                                            "awaiting stock", "allocated", "picking", "partial", "partially shipped",
                                            "part shipped")),
    "activity": (("active", "current", "in force", "live"), ("inactive", "not active", "suspended", "pending", "closed", "blocked", "terminated",
                               "deactivated", "on hold")),
}
# a flag named by the state: "paid": false
_FLAG_OF = {stem(w): life for life, (done, _) in _LIFECYCLES.items() for w in done if " " not in w}
_STATE_LABEL = {"status", "state", "stage"}

_CLAIM = re.compile(
    r"^(?P<q>(?:all(?:\s+of)?(?:\s+the)?|every|each|(?P<both>both)(?:\s+of)?(?:\s+the)?)\s+(?:(?P<n>two|three|four|five|six|seven|eight|nine|ten|\d{1,2})\s+)?)?"
    r"(?P<s>.+?)\s+(?:(?:has|have|had)\s+(?:(?:now|already|all)\s+)*been\s+|(?:is|are|was|were)\s+(?:(?:now|already|all)\s+)*"
    r"|(?:(?:has|have)\s+(?:(?:now|already)\s+)*)?(?=(?:shipped|dispatched)\b))"
    r"(?P<full>fully\s+)?(?P<st>delivered|paid|settled|approved|completed|complete|finished|received|shipped|dispatched|active)"
    r"(?P<in_full>\s+in\s+full|\s+complete)?(?P<rest>.*?)\s*\.?$", I)
_DOC_PHRASE = re.compile(r"\s+(?:on|of|in|under|for|from)\s+(?:the\s+)?(?:[A-Za-z-]+\s+){0,2}(?P<code>[A-Za-z]*[-#]?\d[\w-]*)", I)
# what a quantifier's noun may be when it means every row of the one table of states: "every line", "all three pieces"
_ROW_NOUNS = {stem(w) for w in ("line", "lines", "item", "items", "piece", "pieces", "parcel", "package", "order", "purchase",
                                "product", "position", "row", "entry", "sku", "carton", "pallet", "box", "shipment",
                                "consignment", "release", "call-off", "instalment", "invoice", "milestone")}


@dataclass(frozen=True)
class StateItem:
    text: str  # the record's state, verbatim (or "140 of 150 received" read from two quantities)
    start: int
    end: int
    row: frozenset[str]
    codes: frozenset[str]
    label: str
    group: str = ""  # the table or JSON array whose rows the item is one of ("" for a document's own state)
    fixed: tuple[str, str] | None = None  # (lifecycle, "done" | "not") read from quantities


def _norm(state: str) -> str:
    return re.sub(r"[\s_]+", " ", state.strip().lower().replace("-", " ")).strip(" .")


def _lifecycle_state(it: StateItem, life: str) -> str | None:
    """'done', 'not' or None: what the record's state says in this lifecycle."""
    if it.fixed is not None:
        return it.fixed[1] if it.fixed[0] == life else None
    s = _norm(it.text)
    done, nots = _LIFECYCLES[life]
    if s in {_norm(d) for d in done}:
        return "done"
    if s in {_norm(n) for n in nots} or any(s.startswith(_norm(n) + " ") for n in nots if len(n) > 4):
        return "not"
    return None


# a quantity column named by a state ("Received", "qtyShipped") beside the ordered quantity
_QTY_LIFE = {stem("received"): "receipt", "recd": "receipt", stem("shipped"): "shipping", "shpd": "shipping",
             stem("delivered"): "delivery", "dlvd": "delivery"}
_ORDERED = {stem("ordered"), "ord"}


def _split_camel(key: str) -> str:
    return re.sub(r"(?<=[a-z])(?=[A-Z])", " ", key).replace("_", " ")


def _first_number(text: str):
    qs = [q for q in extract_quantities(text) if q.unit != "ref" and q.kind == "number"]
    return qs[0].value if qs else None


def _qty_item(ordered_text: str, done_label: str, done_text: str, a: int, b: int, names, codes, label, group) -> StateItem | None:
    life = next((_QTY_LIFE[w] for w in label_words(done_label) if w in _QTY_LIFE), None)
    o, d = _first_number(ordered_text), _first_number(done_text)
    if life is None or o is None or d is None or o <= 0:
        return None
    return StateItem(f"{done_text.strip()} of {ordered_text.strip()} {done_label.strip().lower()}", a, b, frozenset(names), frozenset(codes),
                     label, group, (life, "done" if d >= o else "not"))


def _items(text: str) -> list[StateItem]:
    doc = jsonleaves.body(text)
    if doc is not None and doc.objects is not None:
        return _json_items(doc.objects, doc.offset)
    if doc is not None and not doc.header:
        return []  # malformed JSON is not prose either
    return _text_items(text)


def _text_items(text: str) -> list[StateItem]:
    lines = lines_of(text)
    doc = set()
    doc_codes = set()
    for a, b in lines[:3]:  # the document a "Status:" line belongs to is named at its top
        doc |= label_words(text[a:b])
        doc_codes |= label_codes(text[a:b])
    out = []
    for g, t in enumerate(find_tables(text, lines)):
        if t.kind == "kv":
            for lab, val in t.rows:
                if label_words(lab.text) & _STATE_LABEL:
                    out.append(StateItem(val.text, val.start, val.end, frozenset(doc), frozenset(doc_codes), lab.text))
            continue
        heads = [c.text for c in t.header]
        cols = [i for i, h in enumerate(heads) if label_words(h) & _STATE_LABEL]
        ordered = [i for i, h in enumerate(heads) if label_words(h) & _ORDERED]
        done_cols = [i for i, h in enumerate(heads) if label_words(h) & set(_QTY_LIFE) and not label_words(h) & _ORDERED]
        for r, row in enumerate(t.rows):
            skip = set(cols) | set(ordered) | set(done_cols)
            names, codes = set(), set()
            for c, cell in enumerate(row):
                if c in skip or not (label_words(cell.text) or _first_number(cell.text) is None):
                    continue  # a state or a quantity is not the row's name
                names |= label_words(cell.text) | (label_words(heads[c]) if c < len(heads) else set())
                codes |= label_codes(cell.text)
            label = " ".join(x.text for x in row)
            if len(cols) == 1 and cols[0] < len(row) and row[cols[0]].text:
                cell = row[cols[0]]
                out.append(StateItem(cell.text, cell.start, cell.end, frozenset(names), frozenset(codes), label, f"t{g}"))
            if len(ordered) == 1 and ordered[0] < len(row):
                for c in done_cols:
                    if c < len(row) and (it := _qty_item(row[ordered[0]].text, heads[c], row[c].text, row[c].start, row[c].end,
                                                         names, codes, label, f"t{g}")):
                        out.append(it)
    return out


def _json_items(objects: dict[str, list], off: int) -> list[StateItem]:
    out = []
    for parent, kids in objects.items():
        strings = [lf for lf in kids if isinstance(lf.value, str)]
        # an object is named by its strings, their keys ("invoice_id") and its own key
        names = set().union(*(label_words(lf.value) | label_words(_split_camel(lf.key)) for lf in strings),
                            label_words(_split_camel(re.sub(r"\[\d+\]", "", parent).rsplit(".", 1)[-1])))
        codes = set().union(*(label_codes(lf.value) for lf in strings)) if strings else set()
        group = re.sub(r"\[\d+\]$", "[]", parent) if parent.endswith("]") else ""
        ordered = [lf for lf in kids if label_words(_split_camel(lf.key)) & _ORDERED and not isinstance(lf.value, (str, bool))]
        for lf in kids:
            kw = label_words(_split_camel(lf.key))
            if isinstance(lf.value, str) and kw & _STATE_LABEL:
                out.append(StateItem(lf.value, lf.start + off + 1, lf.end + off - 1, frozenset(names), frozenset(codes), lf.path, group))
            elif isinstance(lf.value, bool) and len(kw) == 1 and next(iter(kw)) in _FLAG_OF:
                # "paid": false is the state "not paid"; true, "paid"
                word = lf.key.replace("_", " ")
                out.append(StateItem(word if lf.value else f"not {word}", lf.start + off, lf.end + off, frozenset(names),
                                     frozenset(codes), lf.path, group))
            elif len(ordered) == 1 and lf is not ordered[0] and kw & set(_QTY_LIFE) and not isinstance(lf.value, (str, bool)):
                if it := _qty_item(ordered[0].raw, _split_camel(lf.key), lf.raw, lf.start + off, lf.end + off, names, codes, lf.path, group):
                    out.append(it)
    return out


@dataclass(frozen=True)
class StateCheck:
    status: str  # "supported" | "contradicted"
    reason: str
    start: int
    end: int


def check_state(claim: str, text: str) -> StateCheck | None:
    """The record's state of the thing the claim names, against the state the claim says it reached."""
    m = _CLAIM.match(claim.strip())
    if m is None or re.search(r"\b(?:not|never|no|none|yet|and|or|if|unless|until|only|part|some|most)\b", claim, I):
        return None
    word = m.group("st").lower()
    lives = [life for life, (done, _) in _LIFECYCLES.items() if word in done]
    if not lives:
        return None
    life = lives[0]
    subject = m.group("s")
    if re.search(r"\b(?:is|are|was|were|has|have|had|be|been|before|after|when|while|that|which|who)\b", subject, I):
        return None  # a clause, not a thing: "piece 2 was scanned before piece 1 was delivered"
    items = _items(text)
    if m.group("q"):
        # "Both pieces on waybill 4471932058": a code no row holds names the document the rows are of
        row_codes = {k for it in items if it.group for k in it.codes}
        subject = _DOC_PHRASE.sub(lambda d: "" if label_codes(d.group("code")) - row_codes else d.group(0), subject)
    own, codes = label_words(subject) - GENERIC_WORDS, label_codes(subject)
    if m.group("q"):
        return _every(m, word, life, own, codes, items, text)
    if not own and not codes:
        return None
    mine = [it for it in items if codes <= it.codes and own <= it.row]
    if not mine:
        return None
    states = {_lifecycle_state(it, life) for it in mine}
    if len(states) != 1 or None in states:
        return None
    it = mine[0]
    if states.pop() == "not":
        return StateCheck("contradicted", f"the record's state for it is {it.text!r}, not {word}", it.start, it.end)
    if not _only_state(m, it, life):
        return None  # the claim says more than the state: left to the other rules and the model
    return StateCheck("supported", f"the record's state for it is {it.text!r}", it.start, it.end)


def _only_state(m: re.Match, it: StateItem, life: str) -> bool:
    """The claim says nothing beyond the state ("paid in full" only where the state is "paid")."""
    full = bool(m.group("full") or m.group("in_full"))
    return not label_words(m.group("rest") or "") and not (full and life == "payment" and it.fixed is None
                                                     and _norm(it.text) not in ("paid", "paid in full", "settled"))


def _every(m: re.Match, word: str, life: str, own: set[str], codes: set[str], items: list[StateItem], text: str) -> StateCheck | None:
    """"Every line has shipped", "All three pieces have been delivered": the rows the claim's words
    name, or where its noun only says "row" (line, item, piece), every row of the one table of states."""
    if codes and not all(c in {k for it in items for k in it.codes} or c in label_codes(text) for c in codes):
        return None
    items = [it for it in items if it.group]  # rows of a table or a JSON list, not the document's own state
    row_codes = {c for c in codes if any(c in it.codes for it in items)}  # "500mm" names rows; "PO-48213" the document
    named = [it for it in items if (own - _ROW_NOUNS or row_codes) and (own - _ROW_NOUNS) <= it.row and row_codes <= it.codes]
    if not named:
        if own - _ROW_NOUNS or row_codes:
            return None
        groups = {it.group for it in items if it.group and _lifecycle_state(it, life)}
        if len(groups) != 1:
            return None
        named = [it for it in items if it.group in groups]
    rows = list(dict.fromkeys(it.label for it in named))
    n = "2" if m.group("both") else m.group("n")
    if n and (int(n) if n.isdigit() else UNITS_WORDS.get(n.lower())) != len(rows):
        return None
    states = [_lifecycle_state(it, life) for it in named]
    bad = [it for it, st in zip(named, states) if st == "not"]
    if bad:
        return StateCheck("contradicted", f"the record's state for {bad[0].label!r} is {bad[0].text!r}, not {word}", bad[0].start, bad[0].end)
    if all(st == "done" for st in states) and all(_only_state(m, it, life) for it in named):
        return StateCheck("supported", f"the record gives every one of {len(rows)} rows the state {word}", named[0].start, named[0].end)
    return None


__all__ = ["StateCheck", "check_state"]
