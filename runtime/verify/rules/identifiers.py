"""Identifiers: "INV-4421", "PO-2026-118", "ORD-7703", "line 14", "Section 7.2", "Severity 1".

An identifier is a reference, not a quantity: ``unit == "ref"``. It is never compared by size and
never with a year or an amount. It matches only with every character the same ("ORD-7702" is not
"ORD-7703", "INV-88" is not "INV-880"); case and the separator style ("INV 88", "INV-88",
"INV#88") do not matter.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Iterable

from warrant.runtime.verify.rules.base import Claims, Found

# a label that makes the number after it an identifier ("line 14", "account 4471", "No. 7")
REF_LABEL_RE = re.compile(
    r"(?:\b(?:line\s+item|line|item|section|sections|clause|article|art\.|invoice|po|purchase\s+order|"
    r"order|page|schedule|severity|priority|level|tier|phase|stage|grade|option|lot|batch|week|quarter|q|exhibit|annex|appendix|paragraph|para\.|task|matter|room|step|table|rule|"
    r"version|v|no\.|nr\.?|number|ticket|case|claim|contract|account|acct\.?|iban|sort\s+code|policy|certificate|"
    r"shipment|tracking|container|vessel|voyage|flight|unit|serial|model|part|sku|lot|receipt|ref\.?|reference|employee|id|row)"
    r"\s*(?:no\.?|nr\.?|number|#)?\s*:?\s*|#\s*|§\s*)$",
    re.IGNORECASE,
)
CODE_ID_RE = re.compile(r"\b[A-Z][A-Za-z]{0,9}[-/#]?\d[\w/-]*\b")


def find_codes(text: str, claims: Claims) -> Iterable[Found]:
    """Identifiers with letters attached (INV-4421, PO-2026-118, Q3)."""
    for m in CODE_ID_RE.finditer(text):
        a, b = m.start(), m.end()
        if not claims.free(a, b):
            continue
        claims.take(a, b)
        yield (a, b, "number", Decimal(re.sub(r"\D", "", m.group(0)) or 0), "ref", None, ())


def labelled_ref(text: str, start: int) -> bool:
    """Whether the number at ``start`` follows an identifier label ("line 14", "account 4471")."""
    return bool(REF_LABEL_RE.search(text[max(0, start - 30):start]))


def key(token: str) -> str:
    """The comparison form of an identifier: upper case, separators dropped, every character kept
    ("inv 88" -> "INV88", "ORD-7703" -> "ORD7703")."""
    return re.sub(r"[\s\-_/#.:]", "", token).upper()


def ref_key(q) -> str:
    """The comparison form of a reference quantity: its verbatim text for a code ("INV-88"), the
    digits for a labelled number ("line 14" -> "14")."""
    return key(q.text)


def near_miss(a: str, b: str) -> bool:
    """Two identifiers that differ as a mistyped copy does: the same length and the same letters
    in the same places, and either two adjacent characters swapped or one character changed
    ("ORD-7702" / "ORD-7703", "V-20913" / "V-20931", "062-941" / "062-914"). Equal keys are not
    a near miss; neither are identifiers of other shapes ("INV-88" / "INV-880")."""
    ka, kb = key(a), key(b)
    if ka == kb or len(ka) != len(kb) or len(ka) < 4:
        return False
    if [c.isdigit() for c in ka] != [c.isdigit() for c in kb]:
        return False
    diff = [i for i, (x, y) in enumerate(zip(ka, kb)) if x != y]
    if any(not ka[i].isdigit() for i in diff):
        return False  # another series or prefix ("INV" / "INX"), not a digit slip
    if len(diff) == 1:
        return True
    return len(diff) == 2 and diff[1] == diff[0] + 1 and ka[diff[0]] == kb[diff[1]] and ka[diff[1]] == kb[diff[0]]
