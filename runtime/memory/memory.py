"""`Memory`: add, load (verify-on-read), retract, verify, show, export.

Load returns only ACTIVE and VERIFIED nodes, each with the results of its anchors against the
repository's HEAD. A typed anchor the code contradicts (or lacks where it must be present)
retires its node on the spot, with a receipt, exactly as a human retraction would; all anchors
holding makes it VERIFIED; anything undecidable leaves it ACTIVE with an INCONCLUSIVE mark.
Status changes are written only when they change, so a steady-state load writes nothing.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
import re
import threading
import time
from collections import deque
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from warrant.ledger import Journal
from warrant.ledger.journal import JournalKind
from warrant.ledger.table import is_local, local_path
from warrant.runtime.contract import LEDGER_ID_PATTERN
from warrant.runtime.memory.anchors import AnchorBase, AnchorResult, Outcome, parse_anchor
from warrant.runtime.memory.errors import AlreadyRetracted, MemoryInputError
from warrant.runtime.memory.head import GitHead, HeadState
from warrant.runtime.memory.index import CodeIndex, HeadIndex
from warrant.runtime.memory.node import (
    INCONCLUSIVE,
    LOADABLE,
    CascadeEntry,
    MemoryNode,
    NewMemory,
    RetractionReceipt,
    Status,
    dump_anchor,
    receipt_id,
)
from warrant.runtime.memory.prose import extract
from warrant.runtime.memory.store import ADD, MARK, STATUS, MemoryStore
from warrant.runtime.violations import Violation, from_pydantic

JOURNAL_RUN = "memory"
VERIFY_ACTOR = "verify-on-read"
_LEDGER_ID = re.compile(LEDGER_ID_PATTERN)
_WORD = re.compile(r"[A-Za-z0-9_]+")


class LoadedNode(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    text: str
    kind: str
    author: str
    status: Status
    mark: str | None
    created_at: dt.datetime
    links: dict[str, list[str]]
    evidence: list[str]
    anchor_results: list[AnchorResult]


class LoadResult(BaseModel):
    model_config = ConfigDict(frozen=True)

    head: str | None
    problem: str | None  # why anchors could not be checked (no repository, no commits)
    nodes: list[LoadedNode]
    retired: list[RetractionReceipt] = Field(default_factory=list)  # retired by this very load
    persisted: bool = True  # False when opened read-only: transitions were computed, not written
    elapsed_ms: float = 0.0


class NodeCheck(BaseModel):
    model_config = ConfigDict(frozen=True)

    node_id: str
    outcome: Outcome  # of the node as a whole
    status: Status  # after this check
    anchor_results: list[AnchorResult]
    receipt: RetractionReceipt | None = None


class VerifyResult(BaseModel):
    model_config = ConfigDict(frozen=True)

    head: str | None
    problem: str | None
    checks: list[NodeCheck]
    persisted: bool = True


def node_outcome(results: Sequence[AnchorResult]) -> Outcome:
    """Typed anchors decide; prose anchors never do."""
    typed = [r for r in results if r.origin == "typed"]
    if any(r.outcome is Outcome.REFUTED for r in typed):
        return Outcome.REFUTED
    if typed and all(r.outcome is Outcome.VERIFIED for r in typed):
        return Outcome.VERIFIED
    return Outcome.INCONCLUSIVE


def _locked(fn: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(fn)
    def call(self: "Memory", *a: Any, **kw: Any) -> Any:
        with self._lock:
            return fn(self, *a, **kw)

    return call


class Memory:
    def __init__(
        self,
        store: MemoryStore,
        *,
        repo: GitHead | None = None,
        index_dir: str | Path | None = None,
        journal: Journal | None = None,
    ):
        self.store = store
        self.repo = repo
        self.index = HeadIndex(repo, index_dir) if repo is not None else None
        self._journal = journal
        self._own_journal = False
        self._anchors: dict[str, list[AnchorBase]] = {}
        # One writer process, possibly many threads (an MCP server runs tools in worker threads):
        # the fold and the append must not interleave.
        self._lock = threading.RLock()

    @classmethod
    def open(
        cls,
        uri: str = ".warrant/ledger",
        *,
        repo: str | Path | None = None,
        writer: bool = True,
        ttl_s: float = 30.0,
        clock: Callable[[], float] = time.monotonic,
        index_dir: str | Path | None = None,
        journal: Journal | None = None,
    ) -> "Memory":
        """Open the memory table in the LanceDB directory `uri` (the ledger's, by default), verified
        against the git repository at `repo`. The HEAD index is cached under `uri/head_index`."""
        head = GitHead(repo, ttl_s=ttl_s, clock=clock) if repo is not None else None
        store = MemoryStore.open(uri, writer=writer)
        if index_dir is None and head is not None and is_local(uri):
            index_dir = local_path(uri) / "head_index"
        return cls(store, repo=head, index_dir=index_dir, journal=journal)

    def close(self) -> None:
        if self.index is not None:
            self.index.flush()
        self.store.close()
        if self._own_journal and self._journal is not None:
            self._journal.close()
        if self.repo is not None:
            self.repo.close()

    def __enter__(self) -> "Memory":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- add -------------------------------------------------------------------------------------
    def add(self, memory: NewMemory | dict[str, Any]) -> MemoryNode:
        return self.add_many([memory])[0]

    @_locked
    def add_many(self, memories: Iterable[NewMemory | dict[str, Any]]) -> list[MemoryNode]:
        """Validate everything first, then write once: a bad item writes nothing at all.
        The same memory written again is the same node (content-addressed) and writes nothing."""
        parsed: list[NewMemory] = []
        violations: list[Violation] = []
        for i, m in enumerate(memories):
            try:
                parsed.append(m if isinstance(m, NewMemory) else NewMemory.model_validate(m))
            except ValidationError as exc:
                violations += [_prefix(v, i) for v in from_pydantic(exc.errors())]
        if violations:
            raise MemoryInputError(violations)
        batch_ids = {m.node_id() for m in parsed}
        for i, m in enumerate(parsed):
            violations += self._link_problems(m, i, batch_ids)
        if violations:
            raise MemoryInputError(violations)
        self._require_writer()
        events: list[tuple[str, str, str, dict[str, Any]]] = []
        new: dict[str, NewMemory] = {}
        for m in parsed:
            nid = m.node_id()
            if nid in self.store.nodes or nid in new:
                continue
            body = m.stored()
            if not m.anchors:
                body["prose_anchors"] = [dump_anchor(a) for a in extract(m.text)]
            new[nid] = m
            events.append((nid, ADD, m.author, body))
        retire = [
            (old, f"superseded by {nid}", [], [], None, m.author)
            for nid, m in new.items()
            for old in m.links.supersedes
            if self.store.nodes.get(old) is None or self.store.nodes[old].loadable
        ]
        if retire:
            self._retire(retire, prelude=events)
        elif events:
            self.store.append(events)
        return [self.store.nodes[m.node_id()] for m in parsed]

    def _link_problems(self, m: NewMemory, i: int, batch: set[str]) -> list[Violation]:
        out = []
        for field in ("supersedes", "contradicts", "derived_from"):
            for j, target in enumerate(getattr(m.links, field)):
                loc = f"$[{i}].links.{field}[{j}]"
                node = self.store.nodes.get(target)
                if node is None and target not in batch:
                    out.append(Violation(code="node_unknown", loc=loc, message=f"no memory node {target}", expected="an existing node id", got=target))
                elif node is not None and field in ("derived_from", "supersedes") and not node.loadable:
                    out.append(
                        Violation(
                            code="node_retired",
                            loc=loc,
                            message=f"{target} is {node.status.value}: nothing may {'derive from' if field == 'derived_from' else 'supersede'} a retired node",
                            expected="an ACTIVE or VERIFIED node",
                            got=node.status.value,
                        )
                    )
        return out

    # -- retract ---------------------------------------------------------------------------------
    @_locked
    def retract(self, node_id: str, reason: str, evidence: Sequence[str] = (), *, actor: str = "human") -> RetractionReceipt:
        """Mark `node_id` REFUTED, everything derived from it (transitively) SUSPECT; journal the
        receipt. Checked before anything is written: the node exists and is not already REFUTED,
        a reason is given, evidence ids are ledger ids."""
        violations = []
        if not isinstance(reason, str) or not reason.strip():
            violations.append(Violation(code="missing_field", loc="$.reason", message="a retraction needs a reason", expected="a non-empty string", got=reason))
        elif len(reason) > 4000:
            violations.append(Violation(code="bad_value", loc="$.reason", message="reason is over 4000 characters", expected="<= 4000 characters", got=len(reason)))
        for j, e in enumerate(evidence):
            if not isinstance(e, str) or not _LEDGER_ID.match(e):
                violations.append(Violation(code="bad_format", loc=f"$.evidence[{j}]", message="evidence must be ledger ids", expected=LEDGER_ID_PATTERN, got=e))
        if not isinstance(actor, str) or not re.fullmatch(r"[A-Za-z0-9_.:@/-]{1,128}", actor):
            violations.append(Violation(code="bad_format", loc="$.actor", message="actor must be a short name", expected=r"[A-Za-z0-9_.:@/-]{1,128}", got=actor))
        if violations:
            raise MemoryInputError(violations)
        node = self.store.get(node_id)
        if node.status is Status.REFUTED:
            raise AlreadyRetracted(node_id, node.receipt_id)
        self._require_writer()
        head, results = None, []
        if self.index is not None:
            state, index, _ = self._current()
            if index is not None:
                head, results = state.sha, self._evaluate(node, index)
        return self._retire([(node_id, reason.strip(), list(evidence), results, head, actor)])[0]

    def _retire(
        self,
        items: list[tuple[str, str, list[str], list[AnchorResult], str | None, str]],
        prelude: list[tuple[str, str, str, dict[str, Any]]] = (),  # type: ignore[assignment]
    ) -> list[RetractionReceipt]:
        """REFUTED + cascade for each (node, reason, evidence, results, head, actor), as one
        append (after `prelude` events), then one journal write."""
        journal = self._journal_writer()  # before writing: a locked journal must fail clean
        events = list(prelude)
        receipts: list[RetractionReceipt] = []
        touched: dict[str, Status] = {}
        at = dt.datetime.now(dt.timezone.utc)
        for nid, reason, evidence, results, head, actor in items:
            node = self.store.nodes[nid] if nid in self.store.nodes else None
            if node is None or node.status is Status.REFUTED or touched.get(nid) is Status.REFUTED:
                continue
            prior = touched.get(nid, node.status)
            cascade = self._cascade(nid, touched)
            body = {
                "node_id": nid,
                "reason": reason,
                "evidence": evidence,
                "anchor_results": [r.model_dump(mode="json") for r in results],
                "actor": actor,
                "at": at.isoformat(),
                "prior_status": prior.value,
                "prior_state_hash": node.state_hash(),
                "prior_event_hash": node.last_event_hash,
                "head": head,
                "cascade": [c.model_dump(mode="json") for c in cascade],
            }
            receipt = RetractionReceipt(receipt_id=receipt_id(body), **body)
            receipts.append(receipt)
            touched[nid] = Status.REFUTED
            events.append((nid, STATUS, actor, {"from": prior.value, "to": Status.REFUTED.value, "reason": reason, "receipt": receipt.model_dump(mode="json")}))
            for c in cascade:
                touched[c.node_id] = Status.SUSPECT
                events.append(
                    (c.node_id, STATUS, actor, {"from": c.prior_status.value, "to": Status.SUSPECT.value, "reason": f"derived from {c.via}, which {nid} retraction made unreliable", "receipt_id": receipt.receipt_id, "cause": nid})
                )
        self.store.append(events)
        if receipts and journal is not None:
            written = journal.record_many([(JOURNAL_RUN, JournalKind.RETRACTION, r.node_id, r.model_dump(mode="json")) for r in receipts])
            receipts = [r.model_copy(update={"journal_entry": w.id}) for r, w in zip(receipts, written)]
        return receipts

    def _cascade(self, root: str, touched: dict[str, Status]) -> list[CascadeEntry]:
        out: list[CascadeEntry] = []
        seen = {root}
        queue = deque([root])
        while queue:
            parent = queue.popleft()
            for child in self.store.nodes[parent].derived_by:
                if child in seen:
                    continue
                seen.add(child)
                queue.append(child)
                status = touched.get(child, self.store.nodes[child].status)
                if status in LOADABLE:
                    out.append(CascadeEntry(node_id=child, prior_status=status, via=parent))
        return out

    # -- verify-on-read --------------------------------------------------------------------------
    def _current(self) -> tuple[HeadState | None, CodeIndex | None, str | None]:
        if self.index is None:
            return None, None, "no repository configured: anchors were not checked"
        state, index = self.index.current()
        return state, index, state.problem

    def _parsed(self, node: MemoryNode) -> list[AnchorBase]:
        cached = self._anchors.get(node.id)
        if cached is None:
            cached = [parse_anchor(a) for a in node.anchors] + [parse_anchor(a) for a in node.prose_anchors]
            self._anchors[node.id] = cached
        return cached

    def _evaluate(self, node: MemoryNode, index: CodeIndex) -> list[AnchorResult]:
        return [a.evaluate(index) for a in self._parsed(node)]

    def _undecided(self, node: MemoryNode, problem: str) -> list[AnchorResult]:
        return [
            AnchorResult(kind=a.kind, anchor=dump_anchor(a), outcome=Outcome.INCONCLUSIVE, detail=problem, origin=a.origin, signal=Outcome.INCONCLUSIVE)
            for a in self._parsed(node)
        ]

    def check(self, nodes: Sequence[MemoryNode]) -> tuple[HeadState | None, str | None, list[NodeCheck]]:
        """Verify-on-read for `nodes`, applying the transitions it implies (when writable)."""
        state, index, problem = self._current()
        if index is None:
            checks = [
                NodeCheck(node_id=n.id, outcome=Outcome.INCONCLUSIVE, status=n.status, anchor_results=self._undecided(n, problem or "unchecked"))
                for n in nodes
            ]
            return state, problem, checks  # nothing decided, so nothing in the store changes
        sha = index.sha
        nodes = [self.store.nodes[n.id] for n in nodes]  # as they are now, not as the caller saw them
        live = [n for n in nodes if n.loadable]
        results = {n.id: self._evaluate(n, index) for n in live}
        outcomes = {nid: node_outcome(rs) for nid, rs in results.items()}
        retire = []
        for n in live:
            if outcomes[n.id] is Outcome.REFUTED:
                bad = next(r for r in results[n.id] if r.outcome is Outcome.REFUTED and r.origin == "typed")
                retire.append((n.id, f"anchor refuted at {sha[:12]}: {bad.kind}: {bad.detail}", [], results[n.id], sha, VERIFY_ACTOR))
        doomed = {item[0] for item in retire}
        for item in retire:
            doomed |= {c.node_id for c in self._cascade(item[0], {})}
        events: list[tuple[str, str, str, dict[str, Any]]] = []
        for n in live:
            o = outcomes[n.id]
            if n.id in doomed:
                continue
            if o is Outcome.VERIFIED:
                if n.status is not Status.VERIFIED:
                    events.append((n.id, STATUS, VERIFY_ACTOR, {"from": n.status.value, "to": Status.VERIFIED.value, "reason": f"all typed anchors hold at {sha[:12]}", "head": sha}))
            else:
                detail = next((r.detail for r in results[n.id] if r.outcome is Outcome.INCONCLUSIVE), "no anchors to check")
                if n.status is Status.VERIFIED:
                    events.append((n.id, STATUS, VERIFY_ACTOR, {"from": n.status.value, "to": Status.ACTIVE.value, "reason": f"anchors no longer decidable at {sha[:12]}", "head": sha}))
                if n.mark != INCONCLUSIVE or n.status is Status.VERIFIED:
                    events.append((n.id, MARK, VERIFY_ACTOR, {"mark": INCONCLUSIVE, "detail": detail, "head": sha}))
        receipts: dict[str, RetractionReceipt] = {}
        if self.store.writer:
            if retire:
                receipts = {r.node_id: r for r in self._retire(retire, prelude=events)}
            elif events:
                self.store.append(events)
        checks = []
        for n in nodes:
            if n.id not in results:  # already retired before this check
                checks.append(NodeCheck(node_id=n.id, outcome=Outcome.REFUTED, status=n.status, anchor_results=[]))
                continue
            o = outcomes[n.id]
            if self.store.writer:
                status = self.store.nodes[n.id].status
            elif n.id in doomed:
                status = Status.REFUTED if o is Outcome.REFUTED else Status.SUSPECT
            else:
                status = {Outcome.VERIFIED: Status.VERIFIED}.get(o, Status.ACTIVE)
            checks.append(NodeCheck(node_id=n.id, outcome=o, status=status, anchor_results=results[n.id], receipt=receipts.get(n.id)))
        return state, None, checks

    @_locked
    def load_memory(self, query: str = "", *, limit: int | None = 20, kinds: Sequence[str] | None = None, verify: bool = True) -> LoadResult:
        """ACTIVE and VERIFIED nodes matching `query` (every query word in the text or tags; ""
        matches all), newest first, each with its anchor results. REFUTED and SUSPECT nodes never
        come back; a node whose anchors are refuted now is retired and left out."""
        t0 = time.perf_counter()
        if limit is not None and (not isinstance(limit, int) or isinstance(limit, bool) or limit < 1):
            raise MemoryInputError([Violation(code="bad_value", loc="$.limit", message="limit must be a positive integer", expected=">= 1", got=limit)])
        self.store.refresh()
        words = [w.lower() for w in _WORD.findall(query or "")]
        candidates = [
            n
            for n in self.store.nodes.values()
            if n.loadable and (not kinds or n.kind in kinds) and _matches(n, words)
        ]
        candidates.sort(key=lambda n: n.created_at, reverse=True)
        out: list[LoadedNode] = []
        retired: list[RetractionReceipt] = []
        head = problem = None
        pos = 0
        while pos < len(candidates) and (limit is None or len(out) < limit):
            want = len(candidates) - pos if limit is None else limit - len(out)
            chunk = candidates[pos : pos + want]
            pos += len(chunk)
            if verify and self.index is not None:
                state, problem, checks = self.check(chunk)
                head = state.sha if state is not None else None
            else:
                problem = problem or ("verification skipped" if not verify else "no repository configured: anchors were not checked")
                checks = [NodeCheck(node_id=n.id, outcome=Outcome.INCONCLUSIVE, status=n.status, anchor_results=[]) for n in chunk]
            for n, c in zip(chunk, checks):
                if c.receipt is not None:
                    retired.append(c.receipt)
                if c.status not in LOADABLE:
                    continue
                mark = INCONCLUSIVE if c.status is Status.ACTIVE and c.outcome is Outcome.INCONCLUSIVE else None
                out.append(
                    LoadedNode(
                        id=n.id, text=n.text, kind=n.kind, author=n.author, status=c.status, mark=mark,
                        created_at=n.created_at, links=n.links, evidence=n.evidence, anchor_results=c.anchor_results,
                    )
                )
        return LoadResult(head=head, problem=problem, nodes=out, retired=retired, persisted=self.store.writer, elapsed_ms=(time.perf_counter() - t0) * 1000)

    @_locked
    def verify(self, node_ids: Sequence[str] | None = None) -> VerifyResult:
        """Verify-on-read for the given nodes (default: every ACTIVE and VERIFIED node)."""
        self.store.refresh()
        if node_ids is None:
            nodes = [n for n in self.store.nodes.values() if n.loadable]
        else:
            nodes = [self.store.get(nid, f"node_ids[{i}]") for i, nid in enumerate(node_ids)]
            retired = [n for n in nodes if not n.loadable]
            if retired:
                n = retired[0]
                raise MemoryInputError([Violation(code="node_retired", loc=f"$.node_ids[{nodes.index(n)}]", message=f"{n.id} is {n.status.value}: retired nodes are not verified again", expected="an ACTIVE or VERIFIED node", got=n.status.value)])
        if self.index is None:
            return VerifyResult(head=None, problem="no repository configured: anchors were not checked", checks=[NodeCheck(node_id=n.id, outcome=Outcome.INCONCLUSIVE, status=n.status, anchor_results=[]) for n in nodes], persisted=self.store.writer)
        state, problem, checks = self.check(nodes)
        return VerifyResult(head=state.sha if state else None, problem=problem, checks=checks, persisted=self.store.writer)

    # -- show / export / guard -------------------------------------------------------------------
    @_locked
    def show(self, node_id: str) -> dict[str, Any]:
        self.store.refresh()
        node = self.store.get(node_id)
        return {"node": node.model_dump(mode="json"), "events": self.store.events(node_id)}

    @_locked
    def receipts(self, node_id: str | None = None) -> list[RetractionReceipt]:
        self.store.refresh()
        out = []
        for r in self.store.scan().to_pylist():
            if r["kind"] == STATUS and (node_id is None or r["node_id"] == node_id):
                p = json.loads(r["payload"])
                if "receipt" in p:
                    out.append(RetractionReceipt.model_validate(p["receipt"]))
        return out

    @_locked
    def blocked(self, ids: Iterable[str]) -> dict[str, str]:
        """Of `ids`, the memory nodes an action must not depend on: REFUTED, SUSPECT, or unknown.
        (The tool bus asks this before running an intent.)"""
        mem = [i for i in ids if isinstance(i, str) and i.startswith("mem_")]
        if not mem:
            return {}
        self.store.refresh()
        out = {}
        for i in mem:
            n = self.store.nodes.get(i)
            if n is None:
                out[i] = "unknown"
            elif not n.loadable:
                out[i] = n.status.value
        return out

    # -- plumbing --------------------------------------------------------------------------------
    def _require_writer(self) -> None:
        if not self.store.writer:
            raise MemoryInputError([Violation(code="read_only", loc="$", message="memory was opened read-only (another process is its writer)", expected="a writer", got="read-only")])

    def _journal_writer(self) -> Journal | None:
        if self._journal is None and is_local(self.store.uri):
            self._journal = Journal.open(self.store.uri)
            self._own_journal = True
        return self._journal


def _matches(node: MemoryNode, words: list[str]) -> bool:
    if not words:
        return True
    hay = (node.text + " " + " ".join(node.tags)).lower()
    return all(w in hay for w in words)


def _prefix(v: Violation, i: int) -> Violation:
    return v.model_copy(update={"loc": "$[" + str(i) + "]" + v.loc[1:]})
