"""The review queue: irreversible calls that wait for a person, and what the person decided.

Durable and append-only: an item and each decision are entries of the decision journal
(`review_item`, `review_decision`), on its hash chain (`warrant ledger verify` checks them with
everything else) and in the same LanceDB table, so nothing is lost when a server restarts: the
queue's state is recomputed from the journal on every read, never kept only in memory.

An item holds the planned call (tool, version, args), the claim set it depends on (by hash, and
every proposition's verdict as journaled) and the exact ledger spans behind those verdicts.
An approval is the tool bus's ordinary grant (`GrantBook.issue_human`), bound to that exact call
and claim-set hash; the queue then resumes the run by making the call through the bus. The grant
is single use and the decision names it, so the call runs once, however often anyone clicks.
"""

from __future__ import annotations

import copy
import datetime as dt
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Literal

from pydantic import BaseModel, ConfigDict, Field

from warrant.ledger.journal import JournalKind
from warrant.runtime.claimset import claim_set
from warrant.runtime.contract import content_hash
from warrant.runtime.grants import DEFAULT_TTL_S
from warrant.runtime.review.policy import PolicyDecision
from warrant.runtime.review.ports import CallMaker, GrantIssuer, JournalPort

ITEM_PREFIX = "rvw_"
# Worst first: a reviewer should see what is wrong before what is fine.
STATUS_RANK = {"contradicted": 0, "unsupported": 1, "unverifiable": 2, "no_verdict": 3, "malformed_verdict": 3, "supported": 9}

Status = Literal["pending", "approved", "executed", "refused", "failed", "rejected", "evidence_requested"]
DecisionKind = Literal["approve", "reject", "request_evidence"]


class _M(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ClaimEntry(_M):
    """One claim the call depends on: its latest verdict, exactly as the journal holds it."""

    claim_id: str
    entry_id: str | None  # the verdict's journal entry (what the claim-set hash names); None: never judged
    status: str
    text: str = ""  # the claim as the agent worded it (untrusted prose; the propositions are what was checked)
    verdict: dict[str, Any] = Field(default_factory=dict)

    def propositions_worst_first(self) -> list[dict[str, Any]]:
        props = [p for p in self.verdict.get("propositions", []) or [] if isinstance(p, dict)]
        return sorted(props, key=lambda p: STATUS_RANK.get(str(p.get("status")), 3))


class SpanRef(_M):
    """The exact bytes behind one proposition's verdict: ledger record + byte offsets + the text."""

    claim_id: str
    proposition_id: str
    status: str
    ledger_id: str
    start: int
    end: int
    text: str


class QueuedCall(_M):
    """One queued irreversible call (the payload of a `review_item` journal entry)."""

    item_id: str
    run_id: str
    agent: str  # the agent identity that planned the call; its own people may not approve it
    round: int = 0
    graph: str = ""
    task: dict[str, Any] = Field(default_factory=dict)
    tool: str
    version: str
    args: dict[str, Any]
    args_hash: str
    depends_on: list[str]
    claim_set_hash: str
    claims: list[ClaimEntry]
    spans: list[SpanRef]
    cited: list[str]  # every ledger id the claims' propositions cite
    reason: str  # why it was queued: claims_unverified | no_policy_grant | approver_declined
    message: str = ""
    policy: PolicyDecision | None = None
    report_path: str | None = None
    queued_at: dt.datetime

    @property
    def worst(self) -> str:
        return min((c.status for c in self.claims), key=lambda s: STATUS_RANK.get(s, 3), default="no_verdict")

    @property
    def approvable(self) -> bool:
        """A person can approve only a call whose every claim is supported: past an unsupported
        claim the tool bus would refuse the call whatever the grant."""
        return bool(self.claims) and all(c.status == "supported" for c in self.claims)

    def claims_worst_first(self) -> list[ClaimEntry]:
        return sorted(self.claims, key=lambda c: (STATUS_RANK.get(c.status, 3), c.claim_id))


class ReviewDecision(_M):
    """What a person decided (the payload of a `review_decision` journal entry)."""

    item_id: str
    decision: DecisionKind
    reviewer: str
    decided_at: dt.datetime
    args_hash: str  # the call the reviewer saw
    claim_set_hash: str
    reason: str = ""  # why it was rejected
    request: str = ""  # what evidence is asked for
    grant_id: str | None = None  # the grant an approval became


@dataclass(frozen=True)
class ReviewState:
    item: QueuedCall
    status: Status
    decision: ReviewDecision | None = None
    call: dict[str, Any] | None = None  # the tool_call journal entry of the resumed call

    @property
    def open(self) -> bool:
        return self.status == "pending"


ErrorCode = Literal[
    "item_unknown", "already_decided", "call_mismatch", "own_agent", "claims_changed", "claims_unsupported", "text_required",
    "not_configured",
]


class ReviewError(Exception):
    """A decision the queue refuses; nothing was journaled. `code` is stable data."""

    def __init__(self, code: ErrorCode, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


def item_id_for(run_id: str, tool: str, version: str, args_hash: str, claim_set_hash: str) -> str:
    # The same call on the same claims is one item, however often a run re-queues it.
    return ITEM_PREFIX + content_hash([run_id, tool, version, args_hash, claim_set_hash])[:32]


def _spans(claims: Iterable[ClaimEntry]) -> tuple[list[SpanRef], list[str]]:
    spans, cited = [], []
    for c in claims:
        for p in c.verdict.get("propositions", []) or []:
            cited.extend(x for x in p.get("ledger_ids", []) or [] if isinstance(x, str))
            # A typed verdict names every value it used; a model or quote verdict one span.
            used = [x for x in [p.get("evidence"), *(p.get("spans") or [])] if isinstance(x, dict) and {"ledger_id", "start", "end", "text"} <= set(x)]
            for ev in {(x["ledger_id"], x["start"], x["end"]): x for x in used}.values():
                spans.append(SpanRef(claim_id=c.claim_id, proposition_id=str(p.get("id")), status=str(p.get("status")),
                                     ledger_id=ev["ledger_id"], start=ev["start"], end=ev["end"], text=ev["text"]))
    return spans, list(dict.fromkeys(cited))


# A refusal of the tool bus that a person can settle: no grant (no policy rule approved the call),
# or claims not all supported (a person may find the evidence). Anything else is the call's own fault.
QUEUED_REFUSALS = {"grant_missing": "no_policy_grant", "claims_unverified": "claims_unverified"}


class ReviewQueue:
    """Queue, decide, resume. `bus` and `grants` are needed only to approve (a read-only queue
    over a journal opened with writer=False can still list and show items).

    The collaborators are protocols (runtime/review/ports.py): the in-process Journal, GrantBook
    and ToolBus, or the Ray clients of a running `warrant serve` (actors/review.py)."""

    def __init__(self, journal: JournalPort, *, grants: GrantIssuer | None = None, bus: CallMaker | None = None,
                 policy: Any = None, grant_ttl_s: float = DEFAULT_TTL_S):
        self.journal = journal
        self.grants = grants
        self.bus = bus
        self.policy = policy
        self.grant_ttl_s = grant_ttl_s
        # Check-then-record must be atomic per item: two clicks must not both approve. In one
        # process this lock does it (as in GrantBook); across processes (several review pages
        # beside `warrant serve`) the ledger's single writer refuses a second decision per item.
        self._lock = threading.RLock()
        # Journal entries never change once written, so what was found once is kept: an item, its
        # first decision, the call that spent its grant. Only absences are read again each time
        # (another process may have written since). Each journal scan costs a LanceDB query.
        self._known_items: dict[str, QueuedCall] = {}
        self._known_decisions: dict[str, ReviewDecision] = {}
        self._known_calls: dict[str, dict[str, Any]] = {}

    # -- queueing ------------------------------------------------------------------------------
    def enqueue(self, *, run_id: str, agent: str, tool: str, version: str, args: dict[str, Any], depends_on: list[str],
                reason: str, message: str = "", round: int = 0, graph: str = "", task: dict[str, Any] | None = None,
                report_path: str | None = None, claim_texts: dict[str, str] | None = None) -> QueuedCall:
        """Queue a call (idempotent: the same call on the same claim set is the same item)."""
        cs = claim_set(self.journal, run_id, depends_on)
        args_hash = content_hash(args)
        iid = item_id_for(run_id, tool, version, args_hash, cs.hash)
        with self._lock:
            existing = self._item(iid)
            if existing is not None:
                return existing
            texts = claim_texts or {}
            claims = [ClaimEntry(claim_id=c.claim_id, entry_id=c.entry_id, status=c.status, text=texts.get(c.claim_id, ""),
                                 verdict=dict(c.payload)) for c in cs.claims]
            spans, cited = _spans(claims)
            explain = getattr(self.policy, "explain", None)
            decision = explain(tool, version, args, cs) if callable(explain) else None
            item = QueuedCall(
                item_id=iid, run_id=run_id, agent=agent, round=round, graph=graph, task=dict(task or {}), tool=tool, version=version,
                args=copy.deepcopy(args), args_hash=args_hash, depends_on=list(depends_on), claim_set_hash=cs.hash, claims=claims,
                spans=spans, cited=cited, reason=reason, message=message, policy=decision, report_path=report_path,
                queued_at=_now(),
            )
            self.journal.record(run_id, JournalKind.REVIEW_ITEM, iid, item.model_dump(mode="json"))
            self._known_items[iid] = item
            return item

    # -- reading -------------------------------------------------------------------------------
    def _item(self, item_id: str) -> QueuedCall | None:
        if item_id in self._known_items:
            return self._known_items[item_id]
        for e in self.journal.entries(kind=JournalKind.REVIEW_ITEM, subject=item_id):
            return self._known_items.setdefault(item_id, QueuedCall.model_validate(e.payload))
        return None

    def _decisions(self, item_id: str | None = None) -> dict[str, ReviewDecision]:
        """The first decision per item: later ones cannot exist (decide() refuses them), and if a
        forged one were appended behind the queue's back the first still stands."""
        if item_id is not None and item_id in self._known_decisions:
            return {item_id: self._known_decisions[item_id]}
        out: dict[str, ReviewDecision] = {}
        for e in self.journal.entries(kind=JournalKind.REVIEW_DECISION, subject=item_id):
            d = ReviewDecision.model_validate(e.payload)
            out.setdefault(d.item_id, d)
        self._known_decisions.update(out)
        return out

    def _calls(self, run_id: str) -> dict[str, list[dict[str, Any]]]:
        by_grant: dict[str, list[dict[str, Any]]] = {}
        for e in self.journal.entries(run_id, kind=JournalKind.TOOL_CALL):
            gid = e.payload.get("grant_id")
            if gid:
                by_grant.setdefault(gid, []).append(e.payload)
        return by_grant

    def _state(self, item: QueuedCall, decision: ReviewDecision | None, calls: dict[str, list[dict[str, Any]]] | None) -> ReviewState:
        if decision is None:
            return ReviewState(item, "pending")
        if decision.decision == "reject":
            return ReviewState(item, "rejected", decision)
        if decision.decision == "request_evidence":
            return ReviewState(item, "evidence_requested", decision)
        gid = decision.grant_id or ""
        first = self._known_calls.get(gid)
        if first is None:
            if calls is None:
                calls = self._calls(item.run_id)
            made = calls.get(gid, [])
            if not made:
                return ReviewState(item, "approved", decision)
            # The call that spent the grant; a later replay attempt with the same grant is refused and changes nothing.
            first = next((c for c in made if c.get("status") in ("ok", "failed")), made[0])
            if first.get("status") in ("ok", "failed"):  # final: the grant is spent
                self._known_calls[gid] = first
        status: Status = {"ok": "executed", "failed": "failed"}.get(first.get("status"), "refused")  # type: ignore[assignment]
        return ReviewState(item, status, decision, first)

    def get(self, item_id: str) -> ReviewState:
        item = self._item(item_id) if isinstance(item_id, str) else None
        if item is None:
            raise ReviewError("item_unknown", f"no queued call {item_id!r}")
        return self._state(item, self._decisions(item_id).get(item_id), None)

    def items(self, status: Status | None = None) -> list[ReviewState]:
        """Open items first, the worst claim status first among them; then decided ones, newest first."""
        items = [self._known_items.get(e.subject) or self._known_items.setdefault(e.subject, QueuedCall.model_validate(e.payload))
                 for e in self.journal.entries(kind=JournalKind.REVIEW_ITEM)]
        decisions = self._decisions()
        runs = {i.run_id for i in items if (d := decisions.get(i.item_id)) is not None and d.decision == "approve"
                and d.grant_id not in self._known_calls}
        calls: dict[str, list[dict[str, Any]]] = {}
        for r in runs:
            calls.update(self._calls(r))
        states = [self._state(i, decisions.get(i.item_id), calls) for i in items]
        if status is not None:
            states = [s for s in states if s.status == status]
        pending = sorted((s for s in states if s.open), key=lambda s: (STATUS_RANK.get(s.item.worst, 3), s.item.queued_at))
        done = sorted((s for s in states if not s.open), key=lambda s: s.decision.decided_at if s.decision else s.item.queued_at,
                      reverse=True)
        return pending + done

    def evidence_requests(self, run_id: str) -> list[tuple[QueuedCall, ReviewDecision]]:
        """What reviewers asked for in this run: the run's planner gets it as feedback."""
        out = []
        for e in self.journal.entries(run_id, kind=JournalKind.REVIEW_DECISION):
            d = ReviewDecision.model_validate(e.payload)
            if d.decision == "request_evidence":
                item = self._item(d.item_id)
                if item is not None:
                    out.append((item, d))
        return out

    # -- deciding ------------------------------------------------------------------------------
    def approve(self, item_id: str, reviewer: str, *, args_hash: str, claim_set_hash: str,
                reviewer_agents: Iterable[str] = ()) -> ReviewState:
        """Approve exactly the call the reviewer saw (its args hash and claim-set hash), issue the
        single-use grant for it and make the call through the bus."""
        if self.bus is None or self.grants is None:
            raise ReviewError("not_configured", "this queue has no tool bus and grant book: it can list items, not approve them")
        with self._lock:
            st = self._open(item_id, args_hash, claim_set_hash)
            item = st.item
            if item.agent == reviewer or item.agent in set(reviewer_agents):
                raise ReviewError("own_agent", f"{reviewer} acts as agent {item.agent!r}, which planned this call: another person must approve it")
            cs = claim_set(self.journal, item.run_id, item.depends_on)
            if cs.hash != item.claim_set_hash:
                raise ReviewError("claims_changed", "the claims this call depends on were judged again since it was queued: "
                                                    "the approval would cover evidence nobody reviewed")
            if not cs.verified:
                bad = ", ".join(f"{c} ({s})" for c, s in cs.unverified)
                raise ReviewError("claims_unsupported", f"claims not supported: {bad}; reject the call or request evidence")
            grant = self.grants.issue_human(item.run_id, item.tool, item.version, copy.deepcopy(item.args), cs.hash, reviewer,
                                            self.grant_ttl_s)
            decision = ReviewDecision(item_id=item.item_id, decision="approve", reviewer=reviewer, decided_at=_now(),
                                      args_hash=item.args_hash, claim_set_hash=item.claim_set_hash, grant_id=grant.grant_id)
            self._record(decision, item.run_id)
            self._resume(item, decision)
            return self.get(item_id)

    def reject(self, item_id: str, reviewer: str, reason: str, *, args_hash: str, claim_set_hash: str) -> ReviewState:
        return self._close(item_id, reviewer, "reject", reason, args_hash, claim_set_hash)

    def request_evidence(self, item_id: str, reviewer: str, request: str, *, args_hash: str, claim_set_hash: str) -> ReviewState:
        """Close the item and send the run back to its planner with what is asked
        (`evidence_requests`; the graph runner hands it to the planner on the run's next pass)."""
        return self._close(item_id, reviewer, "request_evidence", request, args_hash, claim_set_hash)

    def _close(self, item_id: str, reviewer: str, kind: DecisionKind, text: str, args_hash: str, claim_set_hash: str) -> ReviewState:
        text = text.strip() if isinstance(text, str) else ""
        if not text:
            what = "a reason for the rejection" if kind == "reject" else "what evidence is needed"
            raise ReviewError("text_required", f"say {what}: the run's planner and the audit trail read it")
        with self._lock:
            st = self._open(item_id, args_hash, claim_set_hash)
            decision = ReviewDecision(item_id=st.item.item_id, decision=kind, reviewer=reviewer, decided_at=_now(),
                                      args_hash=st.item.args_hash, claim_set_hash=st.item.claim_set_hash,
                                      **({"reason": text} if kind == "reject" else {"request": text}))
            self._record(decision, st.item.run_id)
            _update_report(st.item, decision, None)
            return self._state(st.item, decision, None)

    def _record(self, decision: ReviewDecision, run_id: str) -> None:
        try:
            self.journal.record(run_id, JournalKind.REVIEW_DECISION, decision.item_id, decision.model_dump(mode="json"))
        except Exception:
            # A writer shared by several processes refuses a second decision for an item: another
            # reviewer's page won the race. Say so as the queue does; anything else is re-raised.
            other = self._decisions(decision.item_id).get(decision.item_id)
            if other is not None:
                raise ReviewError("already_decided", f"{decision.item_id} was just decided elsewhere ({other.decision} by "
                                                     f"{other.reviewer}); a decision is made once") from None
            raise
        self._known_decisions[decision.item_id] = decision

    def _open(self, item_id: str, args_hash: str, claim_set_hash: str) -> ReviewState:
        st = self.get(item_id)
        if st.decision is not None:
            raise ReviewError("already_decided", f"{item_id} was already decided ({st.decision.decision} by {st.decision.reviewer}); "
                                                 "a decision is made once")
        if (args_hash, claim_set_hash) != (st.item.args_hash, st.item.claim_set_hash):
            raise ReviewError("call_mismatch", "this decision was made for another call (its arguments or claims differ from the "
                                               "queued call's): reload the item and decide on what it now says")
        return st

    # -- resuming ------------------------------------------------------------------------------
    def _resume(self, item: QueuedCall, decision: ReviewDecision) -> Any:
        intent = {"tool": item.tool, "version": item.version, "args": copy.deepcopy(item.args), "depends_on": list(item.depends_on),
                  "requires_grant": True}
        out = self.bus.execute(item.run_id, intent, grant_id=decision.grant_id)
        if out.status in ("ok", "failed"):  # what the bus journaled for this call, known without reading it back
            self._known_calls[decision.grant_id] = {"call_id": out.call_id, "status": out.status, "grant_id": decision.grant_id,
                                                    "ledger_id": getattr(out, "ledger_id", None), "error": getattr(out, "code", None)}
        _update_report(item, decision, out)
        return out

    def resume_approved(self) -> list[ReviewState]:
        """Make the calls approved before a crash but never made (at server start). Each uses its
        own decision's grant, which the bus spends once: a call that did run is not run again."""
        resumed = []
        with self._lock:
            for st in self.items(status="approved"):
                self._resume(st.item, st.decision)
                resumed.append(self.get(st.item.item_id))
        return resumed


def _now() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc)


def _update_report(item: QueuedCall, decision: ReviewDecision, out: Any) -> None:
    """Reflect the decision in the run's saved report (when the run saved one): the journal is the
    record; the report is what people read."""
    if not item.report_path or not Path(item.report_path).is_file():
        return
    from warrant.runtime.graph.report import RunReport  # runtime.graph hands items to this module: import late

    try:
        rep = RunReport.load(item.report_path)
    except (OSError, ValueError):
        return  # a report we cannot read is not ours to overwrite
    for a in rep.actions:
        if a.review is None or a.review.queue_id != item.item_id or a.status != "queued_for_review":
            continue
        if decision.decision == "approve" and out is not None:
            status = getattr(out, "status", None)
            a.status = {"ok": "executed", "failed": "failed"}.get(status, "refused")
            a.call_id, a.grant_id, a.grant_issuer = getattr(out, "call_id", None), decision.grant_id, f"human:{decision.reviewer}"
            a.ledger_id, a.output = getattr(out, "ledger_id", None), getattr(out, "output", None)
            a.code, a.message = getattr(out, "code", None), getattr(out, "message", "") or f"approved by {decision.reviewer}"
        elif decision.decision == "reject":
            a.status, a.code, a.message = "refused", "review_rejected", f"rejected by {decision.reviewer}: {decision.reason}"
        elif decision.decision == "request_evidence":
            a.status, a.code, a.message = "refused", "evidence_requested", f"{decision.reviewer} asks for evidence: {decision.request}"
    if rep.status == "AWAITING_REVIEW" and not any(a.status == "queued_for_review" for a in rep.actions):
        sent_back = any(a.code == "evidence_requested" for a in rep.actions)
        rep.status = "ABSTAINED" if sent_back else "COMPLETED"
        if sent_back:
            rep.open_questions.append(f"{decision.reviewer} asks, before {item.tool}: {decision.request}")
        rep.reason = ("a reviewer asked for evidence: the run goes back to its planner" if sent_back
                      else "every hand-off passed; every queued call was decided by a reviewer")
    rep.save(item.report_path)


__all__ = [
    "ClaimEntry", "QueuedCall", "ReviewDecision", "ReviewError", "ReviewQueue", "ReviewState", "SpanRef", "STATUS_RANK",
    "item_id_for",
]
