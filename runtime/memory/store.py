"""The memory table: append-only, hash-chained events in LanceDB; the current state is their fold.

One mechanism with the evidence ledger and the decision journal (`ledger.table.AppendOnlyTable`:
single writer, batched appends, the same hash chain), so `warrant ledger verify` checks this table
the same way and names the first event edited, removed or inserted behind the store's back.

Events: `add` (the node as written), `status` (ACTIVE/VERIFIED/REFUTED/SUSPECT transitions, a
REFUTED one carrying its RetractionReceipt), `mark` (INCONCLUSIVE set or cleared). Nothing is
ever updated or deleted.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any, Iterable

import pyarrow as pa

from warrant.ledger.canonical import canonical_json
from warrant.ledger.audit import TableSpec, register
from warrant.ledger.chain import VerifyReport
from warrant.ledger.errors import LedgerError
from warrant.ledger.table import AppendOnlyTable, digest_field, sql_str
from warrant.runtime.memory.errors import NodeNotFound
from warrant.runtime.memory.node import MemoryNode, Status

TABLE = "memory"
ADD, STATUS, MARK = "add", "status", "mark"

_SCHEMA = pa.schema(
    [
        digest_field("node_id"),
        ("kind", pa.string()),
        ("actor", pa.string()),
        ("payload", pa.string()),
        ("created_us", pa.int64()),
    ]
)
_CHAINED = ("seq", "node_id", "kind", "actor", "payload", "created_us")


def entry_id(row: dict[str, Any]) -> str:
    return "mev_" + row["entry_hash"][:32]


# How the ledger's audit names this table's entries (the audit child process, which does not
# import this module, falls back to the chained columns recorded in the table's schema).
SPEC = register(TableSpec(TABLE, _CHAINED, entry_id))


def _time(us: int) -> dt.datetime:
    return dt.datetime.fromtimestamp(us / 1e6, tz=dt.timezone.utc)


def now_us() -> int:
    return int(dt.datetime.now(dt.timezone.utc).timestamp() * 1e6)


class MemoryStore:
    def __init__(self, table: AppendOnlyTable):
        self._t = table
        self.nodes: dict[str, MemoryNode] = {}
        self._seq = -1
        self._fold(self._t.scan())

    @classmethod
    def open(cls, uri: str, *, writer: bool = True) -> "MemoryStore":
        return cls(AppendOnlyTable(uri, TABLE, _SCHEMA, _CHAINED, writer=writer))

    @property
    def uri(self) -> str:
        return self._t.uri

    @property
    def writer(self) -> bool:
        return self._t.writer

    def close(self) -> None:
        self._t.close()

    # -- reading ---------------------------------------------------------------------------------
    def refresh(self) -> None:
        """Fold in events another process appended since this handle last looked. The writer
        holds the table's lock, so nothing it has not folded can exist: it skips the round trip."""
        if self._t.writer:
            return
        self._t.refresh()
        self._fold(self._t.scan(where=f"seq > {self._seq}"))

    def get(self, node_id: str, field: str = "node_id") -> MemoryNode:
        try:
            return self.nodes[node_id]
        except KeyError:
            raise NodeNotFound(node_id, field) from None

    def events(self, node_id: str) -> list[dict[str, Any]]:
        t = self._t.scan(where=f"node_id = {sql_str(node_id)}").sort_by("seq")
        return [
            {
                "id": entry_id(r),
                "seq": r["seq"],
                "kind": r["kind"],
                "actor": r["actor"],
                "at": _time(r["created_us"]).isoformat(),
                "payload": json.loads(r["payload"]),
                "entry_hash": r["entry_hash"],
            }
            for r in t.to_pylist()
        ]

    def scan(self) -> pa.Table:
        return self._t.scan().sort_by("seq")

    def count(self) -> int:
        return self._t.count()

    def verify(self) -> VerifyReport:
        return self._t.verify(SPEC)

    # -- writing ---------------------------------------------------------------------------------
    def append(self, events: Iterable[tuple[str, str, str, dict[str, Any]]]) -> list[dict[str, Any]]:
        """(node_id, kind, actor, payload) events as one LanceDB version, then folded in."""
        created = now_us()
        rows = [
            {"node_id": n, "kind": k, "actor": a, "payload": canonical_json(p).decode(), "created_us": created}
            for n, k, a, p in events
        ]
        if not rows:
            return []
        written = self._t.append(rows)
        self._fold_rows(written)
        return written

    # -- the fold --------------------------------------------------------------------------------
    def _fold(self, table: pa.Table) -> None:
        if table.num_rows:
            self._fold_rows(table.sort_by("seq").to_pylist())

    def _fold_rows(self, rows: list[dict[str, Any]]) -> None:
        for r in rows:
            if r["seq"] <= self._seq:
                continue
            self._apply(r)
            self._seq = r["seq"]

    def _apply(self, r: dict[str, Any]) -> None:
        p = json.loads(r["payload"])
        nid, kind, at = r["node_id"], r["kind"], _time(r["created_us"])
        if kind == ADD:
            node = MemoryNode(
                id=nid,
                text=p["text"],
                author=p["author"],
                kind=p["kind"],
                evidence=p["evidence"],
                anchors=p["anchors"],
                prose_anchors=p.get("prose_anchors", []),
                links=p["links"],
                tags=p["tags"],
                created_at=at,
            )
            self.nodes[nid] = node
            for field, back in (("derived_from", "derived_by"), ("supersedes", "superseded_by"), ("contradicts", "contradicted_by")):
                for target in p["links"].get(field, []):
                    if target in self.nodes:
                        getattr(self.nodes[target], back).append(nid)
        else:
            node = self.nodes.get(nid)
            if node is None:
                raise LedgerError(f"memory table: event seq {r['seq']} names node {nid} that was never added")
            if kind == STATUS:
                node.status = Status(p["to"])
                node.status_reason = p.get("reason")
                node.status_at = at
                node.receipt_id = p.get("receipt", {}).get("receipt_id") or p.get("receipt_id") or node.receipt_id
                if node.status is Status.VERIFIED:
                    node.verified_at = p.get("head")
                    node.mark = node.mark_detail = None
            elif kind == MARK:
                node.mark = p.get("mark")
                node.mark_detail = p.get("detail")
        node.events += 1
        node.last_event_hash = r["entry_hash"]


