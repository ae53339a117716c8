"""BM25 over one run's records, in memory: which records might settle an unsupported claim.

Lance's full-text search cost grew with the records appended one by one (measured: ~5 ms over
10, ~14 ms over 100, ~35 ms over 300), most of an unsupported verdict's time
(benchmarks/results/verifier_latency_cpu.json). A run's records are few, immutable and
addressed by their hash, so each is tokenised once, when a search first meets it, and a search
after that costs only the postings of the query's words.

    >>> ix = RunIndex()
    >>> ix.add("r1", "Hourly rates are capped at USD 250.")
    >>> ix.add("r2", "Timesheet, March: 12 hours of review.")
    >>> [rid for rid, _ in ix.top(tokens("hourly rate cap"), 3)]
    ['r1']
"""

from __future__ import annotations

import heapq
import math
import re
from collections import Counter
from collections.abc import Iterable

__all__ = ["RunIndex", "tokens"]

# Lower-cased runs of letters and digits, with a crude plural fold ("rates" finds "rate"): what
# a suggestion needs, not a linguist's stemmer (the ledger sits below the verifier's text module).
_WORD = re.compile(r"[^\W_]+")
# Longer tokens are hashes, base64 or binary noise decoded as text: never what a claim says.
MAX_TOKEN = 40
# BM25's usual constants (Robertson and Zaragoza): term-frequency saturation and length normalisation.
K1, B = 1.2, 0.75


def tokens(text: str) -> list[str]:
    out = []
    for m in _WORD.finditer(text.lower()):
        w = m.group()
        if len(w) > MAX_TOKEN:
            continue
        if len(w) > 3 and w.endswith("s") and not w.endswith("ss"):
            w = w[:-1]
        out.append(w)
    return out


class RunIndex:
    """Postings of one run's textual records. Not thread-safe: the ledger holds a lock around it."""

    def __init__(self) -> None:
        self.ids: set[str] = set()  # every record met, textual or not (binary ones add no postings)
        self._postings: dict[str, dict[str, int]] = {}  # word -> {record id: count}
        self._lengths: dict[str, int] = {}
        self._total = 0
        self.chars = 0  # text held, for the ledger's memory bound

    def add(self, rid: str, text: str | None) -> None:
        if rid in self.ids:
            return
        self.ids.add(rid)
        if not text:
            return
        words = tokens(text)
        self._lengths[rid] = len(words)
        self._total += len(words)
        self.chars += len(text)
        for w, n in Counter(words).items():
            self._postings.setdefault(w, {})[rid] = n

    def top(self, query: Iterable[str], k: int, exclude: Iterable[str] = ()) -> list[tuple[str, float]]:
        """(id, BM25 score) of the `k` best records holding any of the query's words, best
        first; ties by id, so the same ledger always suggests the same records."""
        n = len(self._lengths)
        if not n or k <= 0:
            return []
        avg = self._total / n or 1.0
        scores: dict[str, float] = {}
        for w in set(query):
            post = self._postings.get(w)
            if not post:
                continue
            idf = math.log(1 + (n - len(post) + 0.5) / (len(post) + 0.5))
            for rid, tf in post.items():
                norm = tf * (K1 + 1) / (tf + K1 * (1 - B + B * self._lengths[rid] / avg))
                scores[rid] = scores.get(rid, 0.0) + idf * norm
        skip = set(exclude)
        ranked = heapq.nsmallest(k, ((-s, rid) for rid, s in scores.items() if rid not in skip))
        return [(rid, -s) for s, rid in ranked]
