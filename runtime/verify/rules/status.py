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
from warrant.runtime.verify.rules.base import I
from warrant.runtime.verify.rules.ranking import _GENERIC, _codes, _words
from warrant.runtime.verify.text import stem

# lifecycle -> (the words of its done state, the record states that exclude it)
_LIFECYCLES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "delivery": (("delivered",), ("in transit", "out for delivery", "on hold", "pending", "planned", "scheduled",
                                  "awaiting", "back-ordered", "backordered", "exception", "returned", "cancelled",
                                  "canceled", "not delivered", "undelivered", "damaged", "held", "not shipped",
                                  "dispatched", "shipped", "picked up", "failed")),
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
                                "outstanding", "open", "on order", "cancelled", "canceled")),
    "shipping": (("shipped", "dispatched"), ("pending", "not shipped", "back-ordered", "backordered", "awaiting",
                                            "planned", "on hold", "cancelled", "canceled", "held", "unshipped",
                                            "awaiting stock", "allocated", "picking")),
    "activity": (("active",), ("inactive", "not active", "suspended", "pending", "closed", "blocked", "terminated",
                               "deactivated", "on hold")),
}
# a flag named by the state: "paid": false
_FLAG_OF = {stem(w): life for life, (done, _) in _LIFECYCLES.items() for w in done if " " not in w}
_STATE_LABEL = {"status", "state", "stage"}

_CLAIM = re.compile(
    r"^(?P<s>.+?)\s+(?:(?:has|have|had)\s+(?:now\s+|already\s+|all\s+)*been|(?:is|are|was|were)(?:\s+(?:now|already|all))*)"
    r"\s+(?P<full>fully\s+)?(?P<st>delivered|paid|settled|approved|completed|complete|finished|received|shipped|dispatched|active)"
    r"(?P<in_full>\s+in\s+full)?(?P<rest>[^.]*?)\s*\.?$", I)


@dataclass(frozen=True)
class StateItem:
    text: str  # the record's state, verbatim
    start: int
    end: int
    row: frozenset[str]
    codes: frozenset[str]
    label: str


def _norm(state: str) -> str:
    return re.sub(r"[\s_]+", " ", state.strip().lower().replace("-", " ")).strip(" .")


def _lifecycle_state(state: str, life: str) -> str | None:
    """'done', 'not' or None: what the record's state says in this lifecycle."""
    s = _norm(state)
    done, nots = _LIFECYCLES[life]
    if s in {_norm(d) for d in done}:
        return "done"
    if s in {_norm(n) for n in nots} or any(s.startswith(_norm(n) + " ") for n in nots if len(n) > 4):
        return "not"
    return None


def _items(text: str) -> list[StateItem]:
    m = re.search(r"^[ \t]*[{\[]", text, re.M)
    if m is not None:
        try:
            return _json_items(text[m.start():], m.start())
        except jsonleaves.JSONViewError:
            if not text[: m.start()].strip():
                return []
    return _text_items(text)


def _text_items(text: str) -> list[StateItem]:
    lines = lines_of(text)
    doc = set()
    doc_codes = set()
    for a, b in lines[:3]:  # the document a "Status:" line belongs to is named at its top
        doc |= _words(text[a:b])
        doc_codes |= _codes(text[a:b])
    out = []
    for t in find_tables(text, lines):
        if t.kind == "kv":
            for lab, val in t.rows:
                if _words(lab.text) & _STATE_LABEL:
                    out.append(StateItem(val.text, val.start, val.end, frozenset(doc), frozenset(doc_codes), lab.text))
            continue
        heads = [c.text for c in t.header]
        cols = [i for i, h in enumerate(heads) if _words(h) & _STATE_LABEL]
        if len(cols) != 1:
            continue
        for row in t.rows:
            if cols[0] >= len(row) or not row[cols[0]].text:
                continue
            names, codes = set(), set()
            for c, cell in enumerate(row):
                if c != cols[0]:
                    names |= _words(cell.text) | (_words(heads[c]) if c < len(heads) else set())
                    codes |= _codes(cell.text)
            cell = row[cols[0]]
            out.append(StateItem(cell.text, cell.start, cell.end, frozenset(names), frozenset(codes), " ".join(x.text for x in row)))
    return out


def _json_items(body: str, off: int) -> list[StateItem]:
    leaves = jsonleaves.leaves(body)
    by_parent: dict[str, list] = {}
    for lf in leaves:
        by_parent.setdefault(lf.parent, []).append(lf)
    out = []
    for parent, kids in by_parent.items():
        strings = [lf for lf in kids if isinstance(lf.value, str)]
        # an object is named by its strings, their keys ("invoice_id") and its own key
        names = set().union(*(_words(lf.value) | _words(lf.key) for lf in strings), _words(re.sub(r"\[\d+\]", "", parent).rsplit(".", 1)[-1]))
        codes = set().union(*(_codes(lf.value) for lf in strings)) if strings else set()
        for lf in kids:
            kw = _words(lf.key.replace("_", " "))
            if isinstance(lf.value, str) and kw & _STATE_LABEL:
                out.append(StateItem(lf.value, lf.start + off + 1, lf.end + off - 1, frozenset(names), frozenset(codes), lf.path))
            elif isinstance(lf.value, bool) and len(kw) == 1 and next(iter(kw)) in _FLAG_OF:
                # "paid": false is the state "not paid"; true, "paid"
                word = lf.key.replace("_", " ")
                out.append(StateItem(word if lf.value else f"not {word}", lf.start + off, lf.end + off, frozenset(names),
                                     frozenset(codes), lf.path))
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
    if m is None or re.search(r"\b(?:not|never|no|yet|and|or|if|unless|until)\b", claim, I):
        return None
    word = m.group("st").lower()
    lives = [life for life, (done, _) in _LIFECYCLES.items() if word in done]
    if not lives:
        return None
    life = lives[0]
    subject = m.group("s")
    if re.search(r"\b(?:is|are|was|were|has|have|had|be|been|before|after|when|while|that|which|who)\b", subject, I):
        return None  # a clause, not a thing: "piece 2 was scanned before piece 1 was delivered"
    own, codes = _words(subject) - _GENERIC, _codes(subject)
    if not own and not codes:
        return None
    mine = [it for it in _items(text) if codes <= it.codes and own <= it.row]
    if not mine:
        return None
    states = {_lifecycle_state(it.text, life) for it in mine}
    if len(states) != 1 or None in states:
        return None
    it = mine[0]
    state = states.pop()
    if state == "not":
        return StateCheck("contradicted", f"the record's state for it is {it.text!r}, not {word}", it.start, it.end)
    full = bool(m.group("full") or m.group("in_full"))
    if _words(m.group("rest") or "") or (full and life == "payment" and _norm(it.text) not in ("paid", "paid in full", "settled")):
        return None  # the claim says more than the state: left to the other rules and the model
    return StateCheck("supported", f"the record's state for it is {it.text!r}", it.start, it.end)


__all__ = ["StateCheck", "check_state"]
