"""A statement that is one whole sentence of the record, copied: support by copying, not by reading.

The strongest grounding a free-text claim can have is its own words in the cited bytes. The copy
must be a whole sentence that stands alone: it starts where a sentence or a line starts (after an
optional clause number or bullet) and ends where that sentence ends. A clause after ";" or ":"
does not count (its condition or subject sits before the mark), nor does an item under a line
that ends in ":" ("Excluded:", "The supplier proposed:"), nor a sentence of more than one line's
lead-in. Case, whitespace, typographic quotes and the final full stop may differ; nothing else.
"""

from __future__ import annotations

import re

from warrant.runtime.verify.text import normalise, sentence_spans

# A clause number, label or bullet that opens a sentence: "18.2 ", "(b) ", "iv. ", "- ", "Clause 9: "
_ENUMERATOR = re.compile(r"^(?:\(?(?:\d{1,3}(?:\.\d{1,3})*|[a-z]|[ivx]{1,5})[.)]\s+|\d{1,3}(?:\.\d{1,3})+\s+|[-*\u2022]\s+"
                         r"|(?:clause|section|article|paragraph|item)\s+\d{1,3}(?:\.\d{1,3})*[a-z]?\s*[:.\u2013-]\s+)", re.I)
_FINAL = re.compile(r"[\s.!]+$")
_SPACE = re.compile(r"\s+")
# A claim must say something: a few words, not a heading or a lone value.
_MIN_WORDS = 4


def _key(text: str) -> str:
    return _FINAL.sub("", _SPACE.sub(" ", normalise(text)).strip()).casefold()


def copied_sentence(hypothesis: str, text: str) -> tuple[int, int] | None:
    """(start, end) of a sentence of ``text`` that the claim copies whole, or None."""
    want = _key(hypothesis)
    if len(want.split()) < _MIN_WORDS or want.lower() not in _key(text):
        return None  # cheap: most claims are no copy, and this scan is one substring search
    for a, b in sentence_spans(text):
        before = text[:a].rstrip(" \t")
        if before and before[-1] in ";:,":
            continue  # the clause leans on what precedes it
        if before.endswith("\n") and before.rstrip().endswith(":"):
            continue  # an item of a list with a lead-in
        body = text[a:b]
        m = _ENUMERATOR.match(body)
        if _key(body) == want or (m and _key(body[m.end():]) == want):
            return a, b
    return None
