"""Each cited span shown inside its document, the exact bytes marked.

A queued item names spans as (ledger id, byte offsets, text). Here they are placed back into the
ledger records they came from: a document's pages stored in the run (in page order), or a tool's
output. A record is cut into segments at every span boundary, each segment carrying the spans
that cover it, so a template can mark them without ever building HTML from document text (the
text is untrusted; templates escape it). A span whose bytes do not match the record is reported,
never marked.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from warrant.ledger import Ledger
from warrant.runtime.review.queue import STATUS_RANK, QueuedCall, SpanRef


@dataclass(frozen=True)
class Segment:
    text: str
    spans: tuple[SpanRef, ...] = ()
    start: int = 0  # byte offset in the record

    @property
    def status(self) -> str | None:
        if not self.spans:
            return None
        return min((s.status for s in self.spans), key=lambda s: STATUS_RANK.get(s, 3))

    @property
    def anchors(self) -> list[str]:
        """Propositions whose span starts here: the claims table links to them."""
        return [s.proposition_id for s in self.spans if s.start == self.start]

    @property
    def title(self) -> str:
        return ", ".join(f"{s.claim_id}/{s.proposition_id}: {s.status}" for s in self.spans)


@dataclass
class RecordView:
    ledger_id: str
    label: str
    kind: str
    segments: list[Segment]
    cited: bool  # a claim cites it, or a verdict found a span in it
    problems: list[str] = field(default_factory=list)


@dataclass
class DocumentView:
    name: str
    records: list[RecordView]

    @property
    def marked(self) -> int:
        return sum(1 for r in self.records for s in r.segments if s.spans)


def segments(data: bytes, spans: list[SpanRef]) -> tuple[list[Segment], list[str]]:
    """Cut `data` at every span boundary. Spans that do not match the bytes are left out, with a note."""
    good, problems = [], []
    for s in spans:
        if not (0 <= s.start <= s.end <= len(data)):
            problems.append(f"{s.proposition_id}: bytes {s.start}-{s.end} lie outside the record ({len(data)} bytes)")
        elif data[s.start:s.end].decode("utf-8", errors="replace") != s.text:
            problems.append(f"{s.proposition_id}: the record's bytes {s.start}-{s.end} differ from the verdict's span text")
        else:
            good.append(s)
    cuts = sorted({0, len(data), *(s.start for s in good), *(s.end for s in good)})
    out = []
    for a, b in zip(cuts, cuts[1:]):
        covering = tuple(s for s in good if s.start <= a and b <= s.end and s.start < s.end)
        out.append(Segment(data[a:b].decode("utf-8", errors="replace"), covering, a))
    return out, problems


def _label(source: dict[str, Any], kind: str) -> tuple[str, str]:
    """(document name, record label)."""
    if source.get("document"):
        page = f"page {source['page']}" if source.get("page") is not None else "whole document"
        return source["document"], page
    if source.get("tool"):
        return f"output of {source['tool']} {source.get('tool_version', '')}".strip(), source.get("call_id", "")
    if source.get("human"):
        return f"stated by {source['human']}", ""
    return kind, ""


def document_views(ledger: Ledger, item: QueuedCall) -> list[DocumentView]:
    """The records behind an item, grouped by document, pages in order; cited records first."""
    by_record: dict[str, list[SpanRef]] = {}
    for s in item.spans:
        by_record.setdefault(s.ledger_id, []).append(s)
    wanted = set(item.cited) | set(by_record)
    table = ledger.spans(item.run_id).select(["id", "kind", "source", "data"]).to_pylist()
    rows = {r["id"]: r for r in table}
    docs: dict[str, list[tuple[int, RecordView]]] = {}
    cited_docs: set[str] = set()
    for lid in wanted - set(rows):
        docs.setdefault("not in this run's ledger", []).append(
            (0, RecordView(lid, "", "missing", [], True, [f"{lid} is cited but is not a record of run {item.run_id}"])))
        cited_docs.add("not in this run's ledger")
    for lid, r in rows.items():
        source = json.loads(r["source"]) if r["source"] else {}
        name, label = _label(source, r["kind"])
        if lid in wanted:
            cited_docs.add(name)
        docs.setdefault(name, []).append((int(source.get("page") or 0), _view(lid, r, label, by_record.get(lid, []), lid in wanted)))
    out = [DocumentView(name, [v for _, v in sorted(recs, key=lambda x: (x[0], x[1].ledger_id))])
           for name, recs in docs.items() if name in cited_docs]
    out.sort(key=lambda d: (-d.marked, d.name))
    return out


def _view(lid: str, row: dict[str, Any], label: str, spans: list[SpanRef], cited: bool) -> RecordView:
    segs, problems = segments(row["data"], spans)
    return RecordView(lid, label, row["kind"], segs, cited, problems)


__all__ = ["DocumentView", "RecordView", "Segment", "document_views", "segments"]
