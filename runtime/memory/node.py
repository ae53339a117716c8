"""Memory nodes, their statuses and links, and the receipts retirements leave.

A node is written once (an `add` event) and never edited: every later change of status is a new
event, and the node's current state is a fold over its events (see store.py).
"""

from __future__ import annotations

import datetime as dt
from enum import Enum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from warrant.ledger.canonical import canonical_json, sha256_hex
from warrant.runtime.contract import LEDGER_ID_PATTERN
from warrant.runtime.memory.anchors import Anchor, AnchorResult

NODE_ID_PATTERN = r"^mem_[0-9a-f]{32}$"
NodeId = Annotated[str, Field(pattern=NODE_ID_PATTERN)]
LedgerId = Annotated[str, Field(pattern=LEDGER_ID_PATTERN)]
Actor = Annotated[str, Field(pattern=r"^[A-Za-z0-9_.:@/-]{1,128}$")]


class Status(str, Enum):
    ACTIVE = "ACTIVE"
    VERIFIED = "VERIFIED"  # its typed anchors held at `verified_at` (a commit)
    REFUTED = "REFUTED"  # retracted, with a receipt; never loaded again
    SUSPECT = "SUSPECT"  # derived (transitively) from a REFUTED node; never loaded


LOADABLE = (Status.ACTIVE, Status.VERIFIED)
INCONCLUSIVE = "INCONCLUSIVE"  # a mark on an ACTIVE node, not a status: it still loads


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class Links(_Strict):
    supersedes: list[NodeId] = Field(default_factory=list, max_length=64)
    contradicts: list[NodeId] = Field(default_factory=list, max_length=64)
    derived_from: list[NodeId] = Field(default_factory=list, max_length=64)


class NewMemory(_Strict):
    """What a writer submits. Strict: unknown fields and coerced types are rejected."""

    text: str = Field(min_length=1, max_length=20_000)
    author: Actor
    kind: Literal["fact", "decision", "adr", "incident", "note"] = "fact"
    evidence: list[LedgerId] = Field(default_factory=list, max_length=256)
    anchors: list[Anchor] = Field(default_factory=list, max_length=64)
    links: Links = Field(default_factory=Links)
    tags: list[Annotated[str, Field(pattern=r"^[A-Za-z0-9_.:-]{1,64}$")]] = Field(default_factory=list, max_length=32)

    def stored(self) -> dict[str, Any]:
        """The form kept in the store. Anchors keep only the fields that were given: an anchor's
        `default=None` (a claim) must stay distinguishable from no default (no claim)."""
        body = self.model_dump(mode="json", exclude={"anchors"})
        body["anchors"] = [dump_anchor(a) for a in self.anchors]
        return body

    def node_id(self) -> str:
        """Content-addressed: the same memory written twice is one node."""
        return "mem_" + sha256_hex(canonical_json(self.stored()))[:32]


def dump_anchor(anchor: Any) -> dict[str, Any]:
    return anchor.model_dump(mode="json", exclude_unset=True) | {"kind": anchor.kind}


class MemoryNode(BaseModel):
    """The current state of a node: the fold of its events."""

    model_config = ConfigDict(frozen=False)

    id: str
    text: str
    author: str
    kind: str
    evidence: list[str]
    anchors: list[dict[str, Any]]  # typed anchors as written
    prose_anchors: list[dict[str, Any]]  # best-effort anchors pulled from the text (origin=prose)
    links: dict[str, list[str]]
    tags: list[str]
    created_at: dt.datetime
    status: Status = Status.ACTIVE
    status_reason: str | None = None
    status_at: dt.datetime | None = None
    receipt_id: str | None = None  # the receipt that refuted it (or the cascade that made it SUSPECT)
    verified_at: str | None = None  # the commit its anchors last held at
    mark: str | None = None  # INCONCLUSIVE, or None
    mark_detail: str | None = None
    derived_by: list[str] = Field(default_factory=list)  # nodes that name this one in derived_from
    superseded_by: list[str] = Field(default_factory=list)
    contradicted_by: list[str] = Field(default_factory=list)
    events: int = 0
    last_event_hash: str = ""

    @property
    def loadable(self) -> bool:
        return self.status in LOADABLE

    def state_hash(self) -> str:
        """The hash of this state, as a receipt records it ("the node as it was")."""
        return sha256_hex(canonical_json(self.model_dump(mode="json")))


class CascadeEntry(BaseModel):
    model_config = ConfigDict(frozen=True)

    node_id: str
    prior_status: Status
    via: str  # the node it derives from


class RetractionReceipt(BaseModel):
    """Why a node was retired, on what evidence, by whom, and what else it took with it."""

    model_config = ConfigDict(frozen=True)

    receipt_id: str
    node_id: str
    reason: str
    evidence: list[str]
    anchor_results: list[AnchorResult]
    actor: str
    at: dt.datetime
    prior_status: Status
    prior_state_hash: str  # hash of the node's folded state before this retraction
    prior_event_hash: str  # entry_hash of the node's last event in the memory table's chain
    head: str | None  # the commit the anchors were checked against, when they were
    cascade: list[CascadeEntry]
    journal_entry: str | None = None  # the decision journal's entry id, once journaled


def receipt_id(body: dict[str, Any]) -> str:
    return "rcp_" + sha256_hex(canonical_json(body))[:32]
