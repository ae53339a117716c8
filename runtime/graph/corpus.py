"""Source documents and retrieval: what an agent reads becomes ledger bytes at the moment it reads it.

A document is a text file, cut into pages at lines `--- page N ---`. Retrieval picks pages by
document name or by word overlap with a query and appends each page's exact bytes to the run's
ledger as a `span` record (source: document, page, byte offsets in the file). Only then can an
agent cite it. Retrieval is not a tool on the tool bus: it has no effect outside the ledger, and
the bus stores structured tool outputs as JSON, while quotes, the numeric rules and the NLI model
read text spans.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from warrant.ledger import Ledger

_PAGE = re.compile(rb"^--- page (\d+) ---\n", re.M)
_WORD = re.compile(r"[a-z0-9]+(?:[-.][a-z0-9]+)*")


@dataclass(frozen=True)
class Page:
    document: str
    page: int
    start: int  # byte offsets of the page text in the document file
    end: int
    data: bytes

    @property
    def text(self) -> str:
        return self.data.decode("utf-8")


class CorpusError(ValueError):
    pass


class Corpus:
    def __init__(self, pages: list[Page]):
        self.pages = pages
        self._tokens = [Counter(_WORD.findall(p.text.lower())) for p in pages]
        df = Counter(w for t in self._tokens for w in t)
        n = max(1, len(pages))
        self._idf = {w: math.log(1 + n / c) for w, c in df.items()}

    @classmethod
    def load(cls, directory: str | Path) -> "Corpus":
        root = Path(directory)
        if not root.is_dir():
            raise CorpusError(f"{root}: no such document folder")
        pages: list[Page] = []
        for path in sorted(root.glob("*.txt")):
            pages.extend(split_pages(path.name, path.read_bytes()))
        if not pages:
            raise CorpusError(f"{root}: no documents (*.txt)")
        return cls(pages)

    def documents(self) -> list[str]:
        return sorted({p.document for p in self.pages})

    def select(self, query: str | None = None, *, document: str | None = None, k: int = 3) -> list[Page]:
        pool = [(i, p) for i, p in enumerate(self.pages) if document is None or p.document == document]
        if document is not None and not pool:
            raise CorpusError(f"no document {document!r}; known: {', '.join(self.documents())}")
        if not query:
            return [p for _, p in pool][:k] if document is None else [p for _, p in pool]
        words = _WORD.findall(query.lower())
        scored = [(sum(self._idf.get(w, 0.0) for w in words if self._tokens[i][w]), i, p) for i, p in pool]
        scored = [s for s in scored if s[0] > 0]
        scored.sort(key=lambda s: (-s[0], s[1]))
        return [p for _, _, p in scored[:k]]

    def retrieve(self, ledger: Ledger, run_id: str, query: str | None = None, *, document: str | None = None,
                 k: int = 3) -> list[tuple[str, Page]]:
        """Store the selected pages in the run's ledger (one durable batch); (ledger id, page) pairs."""
        pages = self.select(query, document=document, k=k)
        items = [
            Ledger.item(run_id, p.data, kind="span",
                        source={"document": p.document, "page": p.page, "start": p.start, "end": p.end})
            for p in pages
        ]
        return list(zip(ledger.append_many(items), pages))


def split_pages(name: str, data: bytes) -> list[Page]:
    marks = list(_PAGE.finditer(data))
    if not marks:
        return [Page(name, 1, 0, len(data), data)] if data.strip() else []
    out = []
    for m, nxt in zip(marks, marks[1:] + [None]):
        start, end = m.end(), (nxt.start() if nxt else len(data))
        # Trailing blank lines belong to the layout, not to the page's words.
        while end > start and data[end - 1:end] in (b"\n", b" "):
            end -= 1
        if end > start:
            out.append(Page(name, int(m.group(1)), start, end, data[start:end]))
    return out


__all__ = ["Corpus", "CorpusError", "Page", "split_pages"]
