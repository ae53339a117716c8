"""The verifier's one place for plain-text handling: the sentence splitter, the stop list, the
stemmer and normalisation. Everything that cuts or compares words imports it from here, so a
sentence or a "content word" means the same thing to the chunker, the rules and the verifier.

    >>> sentence_spans("Invoice No. 7. Total due: $1,200.00.")
    [(0, 14), (15, 36)]
    >>> content_stems("The invoices were paid")
    ['invoic', 'pay']
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from functools import lru_cache

import snowballstemmer

__all__ = [
    "STOP",
    "WORD_RE",
    "normalise",
    "sentence_spans",
    "sentence_bounds",
    "stem",
    "content_stems",
    "content_tokens",
]

# A sentence ends at . ! ? ; followed by white space, or at a line break; not after an
# abbreviation common in business documents ("No.", "Inc.", "St. Brannoc's", "excl. VAT", "i.e.",
# "e.g.") or an initial ("R. Lind"), nor at the
# end of a dot leader ("3 days @ USD 175.00/day ..... USD 525.00"). A dot inside a number ("12.5")
# is never followed by white space, so numbers stay whole.
NOT_AN_END = r"(?<!\bNo)(?<!\bno)(?<!\bInc)(?<!\binc)(?<!\bSt)(?<!\bMt)(?<!\bLtd)(?<!\bCo)(?<!\bvs)(?<!\bNr)(?<!\bnr)(?<!\bDr)(?<!\bexcl)(?<!\bExcl)(?<!\bincl)(?<!\bIncl)(?<!\bapprox)(?<!\bexkl)(?<!\binkl)(?<!\bbzw)(?<!\b[A-Z])(?<!\b[a-z]\.[a-z])(?<!\.\.)"
_BOUNDARY = re.compile(NOT_AN_END + r"[.!?;](?=\s)|\n+")

# A single line break inside a sentence wrapped over two lines is no boundary: the line does not
# end a sentence and the next goes on in lower case, or the line ends with a comma or a word that
# cannot end one ("and", "of", "the"). Table rows, list items, "Key: value" lines and JSON or code
# lines stay apart.
_ITEM_START = re.compile(r"^\s*(?:\d+(?:\.\d+)*[.)]?\s|[-*•]\s|\(?[a-z]\)\s|\(?[ivx]+\)\s)")
_KEY_VALUE = re.compile(r"^\s*[A-Za-z#][\w #&/().'%-]{0,60}?\s*:\s+\S")
_TABLE_ROW = re.compile(r"[|\t]|\S {2,}\S|^[^ ,]*(?:,[^ ,]*){2,}$")
_CODE_LINE = re.compile(r'^["\'{}\[\]<]|"\s*:|[{}\[\]>]$')  # JSON, code or markup: one item a line
_CONTINUES = frozenset(
    """and or but nor of to the a an for with by in on at from per than as that which who whose
    including plus into under over between within upon
    à a de du des la le les et ou au aux en par pour sur dans avec un une que qui""".split()  # French, wrapped the same way
)


def _wrapped(text: str, m: "re.Match[str]") -> bool:
    """True when the line break ``m`` (one newline) only wraps a sentence."""
    if m.group(0) != "\n":
        return False
    a = text.rfind("\n", 0, m.start()) + 1
    d = text.find("\n", m.end())
    raw_next = text[m.end(): len(text) if d < 0 else d]
    cur, nxt = text[a:m.start()].strip(), raw_next.strip()
    if not cur or not nxt or cur.endswith((".", "!", "?", ";", ":")) or cur.isupper():
        return False
    last = cur.rsplit(None, 1)[-1].lower()
    # "... est limitée à" over "250 000,00 $ CAD.": a line ending in a word that cannot end a sentence
    # goes on, even where the next line opens with a number like a list item
    if (_ITEM_START.match(raw_next) and last not in _CONTINUES) or _KEY_VALUE.match(cur) or _KEY_VALUE.match(nxt):
        return False
    if _TABLE_ROW.search(cur) or _TABLE_ROW.search(nxt) or _CODE_LINE.search(cur) or _CODE_LINE.search(nxt):
        return False
    # "..., Val-Croissant" over "(Québec) J2X 0Z4,": an aside in brackets goes on with its sentence
    return nxt[0].islower() or nxt[0] == "(" or cur.endswith(",") or last in _CONTINUES


def _boundaries(text: str, lo: int = 0, hi: int | None = None):
    for m in _BOUNDARY.finditer(text, lo, len(text) if hi is None else hi):
        if not (m.group(0)[0] == "\n" and _wrapped(text, m)):
            yield m


def spans_between(separator: "re.Pattern[str]", text: str) -> list[tuple[int, int]]:
    """(start, end) of the non-empty stretches of `text` between matches of `separator`."""
    out, at = [], 0
    for m in separator.finditer(text):
        if m.start() > at:
            out.append((at, m.start()))
        at = m.end()
    if at < len(text):
        out.append((at, len(text)))
    return out


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """Character spans of sentences (clauses ending in ";" count as sentences), whitespace-trimmed,
    empty ones dropped. A sentence wrapped over several lines is one span (its line breaks inside)."""
    spans, start = [], 0
    for m in _boundaries(text):
        spans.append((start, m.end()))
        start = m.end()
    spans.append((start, len(text)))
    out = []
    for a, b in spans:
        while a < b and text[a].isspace():
            a += 1
        while b > a and text[b - 1].isspace():
            b -= 1
        if b > a:
            out.append((a, b))
    return out


def sentence_bounds(text: str, pos: int) -> tuple[int, int]:
    """(start, end) of the sentence holding character ``pos``, its final punctuation excluded.

    Looks only at the text around ``pos`` (4,000 characters either side at most), through an index
    of the boundaries built once per block of the record: the rules ask this for every value, and a
    CSV export has a boundary on every line, so scanning the window again per value took seconds
    on a few hundred rows."""
    index = _boundary_index(text)
    lo, hi = max(0, pos - _REACH), min(len(text), pos + _REACH)
    start = index.last_end(lo, pos)
    end = index.first_start(pos, hi)
    return (lo if start is None else start), (hi if end is None else end)


_REACH = 4000
_BLOCK = 1 << 13


class _BoundaryIndex:
    """The boundaries of one text, found block by block on first use (a 50 MB record asked about
    one value costs one block, not a pass over the whole record)."""

    def __init__(self, text: str):
        self.text = text
        self.blocks: dict[int, tuple[list[int], list[int]]] = {}

    def _block(self, k: int) -> tuple[list[int], list[int]]:
        got = self.blocks.get(k)
        if got is None:
            text, lo = self.text, k * _BLOCK
            hi = min(len(text), lo + _BLOCK)
            stop = hi
            while stop < len(text) and text[stop] == "\n":  # a run of line breaks ends in its block
                stop += 1
            starts, ends = [], []
            for m in _boundaries(text, lo, min(len(text), stop + 1)):  # +1: the look-ahead for white space
                if m.start() >= hi or (m.start() == lo and lo and text[lo - 1] == "\n" and m.group(0)[0] == "\n"):
                    continue  # the next block's, or the tail of the previous block's run
                starts.append(m.start())
                ends.append(m.end())
            got = self.blocks[k] = (starts, ends)
        return got

    def last_end(self, lo: int, pos: int) -> int | None:
        """End of the last boundary ending by ``pos``, if it reaches ``lo``."""
        for k in range(pos // _BLOCK, max(-1, lo // _BLOCK - 2), -1):  # one block more: a run of line breaks
            starts, ends = self._block(k)
            i = bisect.bisect_right(ends, pos) - 1
            if i >= 0:
                return ends[i] if ends[i] >= lo else None
        return None

    def first_start(self, pos: int, hi: int) -> int | None:
        """Start of the first boundary starting from ``pos``, if by ``hi``."""
        for k in range(pos // _BLOCK, hi // _BLOCK + 1):
            starts, ends = self._block(k)
            i = bisect.bisect_left(starts, pos)
            if i < len(starts):
                return starts[i] if starts[i] <= hi else None
        return None


@lru_cache(maxsize=8)
def _boundary_index(text: str) -> _BoundaryIndex:
    return _BoundaryIndex(text)


# One stop list. Negators and modal verbs are in it: they are compared as polarity and modality,
# not as content words.
STOP = frozenset(
    """a an the this that these those of to in on at by for from with as is are was were be been being
    has have had do does did shall will would should may might must can could it its their they them
    he she his her we our you your i and or any all each every such which who whom whose per than
    there here into onto upon under over above below after before then also so same other
    above-mentioned said up down out more less most least not no never nor none cannot n't non
    within inclusive including incl plus about approximately approx via pursuant hereunder
    thereof herein hereof one amount's become became becomes remain remains remained
    first second third fourth fifth""".split()
    # values are compared as values, not as words: months, number words, currencies, percent
    + """january jan february feb march mar april apr june jun july jul august aug september sep sept
    october oct november nov december dec zero two three four five six seven eight nine ten eleven
    twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty
    sixty seventy eighty ninety hundred thousand million usd eur gbp pln chf dollar dollars euro
    euros percent pct""".split()
)

WORD_RE = re.compile(r"[A-Za-z][A-Za-z'’-]*|\d[\d,.]*")
_QUOTES = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "–": "-", "—": "-", "\u00a0": " ", "\u202f": " "})


# "2.2 USD invoices: ...": the number of a clause in a numbered list ("2.1", "2.2", "2.3" opening
# lines one after another) labels its line; it is no value of it
_OUTLINE = re.compile(r"^[ \t]*(?P<n>\d{1,2}(?:\.\d{1,2})+)\.?[ \t]+(?=[A-Za-z(])", re.M)


def outline_numbers(text: str) -> list[tuple[int, int]]:
    """Spans of the clause numbers of ``text``: a line-opening "2.2" counts only where another
    line opens with a sibling ("2.1", "2.3"), so a line opening with "2.5 hours" stays a value."""
    found = [(m.start("n"), m.end("n"), m["n"].rsplit(".", 1)[0]) for m in _OUTLINE.finditer(text)]
    parents = [p for _, _, p in found]
    return [(a, b) for a, b, p in found if parents.count(p) > 1]


def normalise(text: str) -> str:
    """NFKC, typographic quotes and dashes made plain, no-break spaces made spaces. Keeps the
    length of plain ASCII text, so offsets found in ASCII evidence stay valid."""
    return unicodedata.normalize("NFKC", text).translate(_QUOTES)


_stemmer = snowballstemmer.stemmer("english")

# Words the verifier treats as one: stems of these map to the stem of the key word on the left.
_SYNONYM_GROUPS = {
    "fee": ("fee", "fees", "charge", "charges", "price", "prices", "penalty", "penalties"),
    "contract": ("agreement", "contract"),
    "due": ("payable", "due"),
    "hour": ("hourly", "hr", "hrs", "hour", "hours"),
    "month": ("monthly", "month"),
    "year": ("annual", "annually", "annum", "yearly", "year"),
    "pay": ("paid", "payment", "pay", "remit", "remitted", "remittance"),
    "cap": ("cap", "capped", "ceiling", "limit", "maximum", "max"),
    "floor": ("minimum", "min", "floor"),
    "terminat": ("terminate", "termination", "terminated"),
    "reimburs": ("reimburse", "reimbursement", "reimbursed"),
    "carrier": ("carrier", "carriers", "airline", "airlines"),
}
_SYNONYMS = {w: key for key, words in _SYNONYM_GROUPS.items() for w in words}


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """Snowball (Porter 2) stem of a word, lower-cased, folded through the synonym groups."""
    w = word.lower().replace("’", "'")
    if w.endswith("'s"):
        w = w[:-2]
    w = w.strip("'-")
    if w in _SYNONYMS:
        return _SYNONYMS[w]
    return _stemmer.stemWord(w)


def content_tokens(text: str, a: int = 0, b: int | None = None) -> list[tuple[int, str]]:
    """(position, stem) of each content word in text[a:b]: not a number, not a stop word."""
    out = []
    for m in WORD_RE.finditer(text, a, len(text) if b is None else b):
        w = m.group(0)
        if w[0].isdigit():
            continue
        lw = w.lower()
        if lw in STOP or len(lw) < 2:
            continue
        out.append((m.start(), stem(w)))
    return out


def content_stems(text: str) -> list[str]:
    return [s for _, s in content_tokens(text)]
