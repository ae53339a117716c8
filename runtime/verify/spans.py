"""Cutting a ledger record into evidence chunks the model can read, each a verbatim byte slice.

MiniCheck's recipe: score the claim against each chunk and take the best support, because a
long document exceeds the model's window and most of it is about something else. Every chunk
keeps its byte offsets so a verdict can cite exactly the bytes that decided it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from warrant.ledger import EvidenceRecord, canonical_json
from warrant.runtime.verify.text import sentence_spans

@dataclass(frozen=True)
class Chunk:
    ledger_id: str
    start: int  # byte offsets into the record
    end: int
    text: str


def windows(text: str, max_words: int = 60, stride_sentences: int = 1) -> list[tuple[int, int]]:
    """Single sentences, plus each pair of neighbouring sentences (a fact can straddle two),
    with any sentence longer than `max_words` cut into overlapping word windows."""
    sents: list[tuple[int, int]] = []
    for a, b in sentence_spans(text):
        words = [m.span() for m in re.finditer(r"\S+", text[a:b])]
        if len(words) <= max_words:
            sents.append((a, b))
            continue
        step = max_words // 2
        for i in range(0, len(words) - step, step):
            w = words[i : i + max_words]
            sents.append((a + w[0][0], a + w[-1][1]))
    out = list(sents)
    for (a, _), (_, d) in zip(sents, sents[1:]):
        if len(text[a:d].split()) <= max_words:
            out.append((a, d))
    return list(dict.fromkeys(out))


def chunks(record: EvidenceRecord, max_words: int = 60, *, text: str | None = None) -> list[Chunk]:
    """The record's chunks; ``text`` is its decoded text when the caller has it already."""
    if "json" in record.media_type:
        return json_chunks(record)
    if text is None:
        try:
            text = record.data.decode("utf-8")
        except UnicodeDecodeError:
            return []
    spans = windows(text, max_words)
    to_byte = _byte_offsets(text, {p for ab in spans for p in ab})
    return [Chunk(record.id, to_byte[a], to_byte[b], text[a:b]) for a, b in spans]


def _byte_offsets(text: str, positions: set[int]) -> dict[int, int]:
    """UTF-8 byte offset of each character position, in one pass (a long record has many chunks)."""
    if text.isascii():
        return {p: p for p in positions}
    out, byte, prev = {}, 0, 0
    for p in sorted(positions):
        byte += len(text[prev:p].encode("utf-8"))
        out[p], prev = byte, p
    return out


def json_chunks(record: EvidenceRecord) -> list[Chunk]:
    """Each innermost JSON object of a tool output, located verbatim in the canonical bytes."""
    try:
        doc = json.loads(record.data)
    except ValueError:
        return []
    out: list[Chunk] = []
    for obj in _leaf_objects(doc):
        piece = canonical_json(obj)
        at = record.data.find(piece)
        if at >= 0:
            out.append(Chunk(record.id, at, at + len(piece), piece.decode("utf-8")))
    if not out:
        out.append(Chunk(record.id, 0, len(record.data), record.data.decode("utf-8")))
    return out


def _leaf_objects(doc):
    if isinstance(doc, dict):
        children = [v for v in doc.values() if isinstance(v, (dict, list))]
        if any(not isinstance(v, (dict, list)) for v in doc.values()):
            yield doc
        for c in children:
            yield from _leaf_objects(c)
    elif isinstance(doc, list):
        for c in doc:
            yield from _leaf_objects(c)
