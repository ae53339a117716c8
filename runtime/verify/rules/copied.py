"""A statement that is whole sentences of the record, copied: support by copying, not by reading.

The strongest grounding a free-text claim can have is its own words in the cited bytes. The copy
must be whole sentences that stand alone: it starts where a sentence or a line starts (after an
optional clause number, label, bullet or JSON key) and ends where a sentence ends, at most a few
sentences on. A clause after ";" or ":" does not count (its condition or subject sits before the
mark), nor does an item under a line that ends in ":" ("Excluded:", "The supplier proposed:").
Case, whitespace, typographic quotes and the final full stop may differ; nothing else.
"""

from __future__ import annotations

import re

from warrant.runtime.verify.text import normalise, sentence_spans

# A clause number, label or bullet that opens a sentence: "18.2 ", "(b) ", "iv. ", "- ", "Clause 9: "
_ENUMERATOR = re.compile(r"^(?:\(?(?:\d{1,3}(?:\.\d{1,3})*|[a-z]|[ivx]{1,5})[.)]\s+|\d{1,3}(?:\.\d{1,3})+\s+|[-*\u2022]\s+"
                         r"|(?:clause|section|article|paragraph|item)\s+\d{1,3}(?:\.\d{1,3})*[a-z]?\s*[:.\u2013-]\s+"
                         r"|[{\[]?\s*\"[\w .-]{1,40}\":\s*\")", re.I)  # and a JSON key opening a string: '"notes": "'
# A claim may copy a few sentences in a row ("...declared; the claim is under review.")
_MAX_RUN = 4
_FINAL = re.compile(r"[\s.!]+$")
_SPACE = re.compile(r"\s+")
_LOOK_BACK = 400
# A claim must say something: a few words, not a heading or a lone value.
_MIN_WORDS = 4


def _key(text: str) -> str:
    return _FINAL.sub("", _SPACE.sub(" ", normalise(text)).strip()).casefold()


def copied_sentence(hypothesis: str, text: str) -> tuple[int, int] | None:
    """(start, end) of the sentence, or the few sentences in a row, of ``text`` that the claim
    copies whole, or None."""
    want = _key(hypothesis)
    if len(want.split()) < _MIN_WORDS or want not in _key(text):
        return None  # cheap: most claims are no copy, and this scan is one substring search
    spans = sentence_spans(text)
    for i, (a, _) in enumerate(spans):
        before = text[max(0, a - _LOOK_BACK):a].rstrip(" \t")  # the mark or line just before it, not the whole record
        if before and before[-1] in ";:,":
            continue  # the clause leans on what precedes it
        if before.endswith("\n") and before.rstrip().endswith(":"):
            continue  # an item of a list with a lead-in
        for _, b in spans[i:i + _MAX_RUN]:
            body = text[a:b]
            key = _key(body)
            if key == want:
                return a, b
            if (m := _ENUMERATOR.match(body)) and _key(body[m.end():]) == want:
                return a + m.end(), b  # the words copied, without the clause number or key before them
            if len(key) > len(want) + 40:
                break
    return None
