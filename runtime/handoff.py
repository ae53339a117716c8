"""One hand-off, whatever carries it: gate -> sender -> abstention -> verifier -> annotate, then act.

Every transport runs its artifacts through this module and only moves them: the in-process
`GraphRunner` (runtime/graph/runner.py), the LangGraph edges (runtime/graph/langgraph_adapter.py)
and the Ray `Runner` (actors/runner.py), which hands its actors in through the ports below, the way
a Ray Serve deployment is a thin class around library code. So a rule added here holds on every
transport, and a transport cannot skip one.

`Handoffs.check` decides whether an artifact reaches the next agent:
1. the schema gate (structure, citations in this run's ledger, checkable assertions, real tools);
2. the sender: an agent may only send artifacts in its own name (`sender`, the node the transport
   took the artifact from; over HTTP, the agent a token is bound to; None only where the transport
   cannot tell, e.g. an HTTP submission with an operator's token bound to no agent);
3. abstention: open questions stop the hand-off as `abstained`, before any verification;
4. the verifier: every Assertion and Quote supported, or the hand-off stops;
5. the artifact passes on annotated with the verdicts (only the verifier writes `entailment`).

`Handoffs.act` carries out the action intents of a passed artifact, reversible ones first. It
decides first, for every intent, whether a person must approve (an irreversible call whose claims
are all supported and that no policy rule accepts), asking the injected approver, and only then
makes the calls, each through the tool bus, which remains the authority (it re-validates, checks
the claim set, issues the policy grant, spends the grant). Asking before any call is what lets
LangGraph's `interrupt()` be an approver: its node re-runs on resume and must repeat no call. A
call the bus refuses for want of a grant or of supported claims is queued for review.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Literal, Mapping, Protocol, Sequence

from warrant.ledger import canonical_json, record_id
from warrant.runtime.claimset import claim_set
from warrant.runtime.contract import ActionIntent, Artifact
from warrant.runtime.gate import GateDecision
from warrant.runtime.graph.agent import Stage
from warrant.runtime.graph.approval import Approval, ApprovalRequest, Approver, approve_nothing
from warrant.runtime.graph.report import Action, Handoff, ReviewItem
from warrant.runtime.grants import Grant, Policy
from warrant.runtime.review.ports import JournalPort
from warrant.runtime.review.queue import QUEUED_REFUSALS
from warrant.runtime.toolbus import ExecuteOutcome, ProposeOutcome, ToolCallAccepted, ToolCallRejected, ToolRefused, ToolResult
from warrant.runtime.verify.verdict import ArtifactVerdict, ClaimVerdict
from warrant.runtime.verify.verifier import annotate
from warrant.runtime.violations import Violation


# -- ports: what the pipeline needs from the parts (in process: Gate, Verifier, ToolBus, GrantBook,
# ReviewQueue; on Ray: clients in front of the actors, actors/runner.py) ----------------------------
class GatePort(Protocol):
    """`journal=False`: the decision is returned, not journaled; the pipeline journals
    `decision.journal_entry()` itself (see `Handoffs.check`)."""

    def check(self, artifact: Any, *, run_id: str | None = None, journal: bool = True) -> GateDecision: ...


class VerifierPort(Protocol):
    """`journal_first`: entries journaled in the verdicts' commit, before them, and alone if
    verification raises. Only asked of a verifier whose `journals` attribute is true; one without
    that attribute is called with the artifact alone and the gate journals its own decision."""

    def verify(self, artifact: Artifact, **kw: Any) -> ArtifactVerdict: ...


class BusPort(Protocol):
    def propose(self, run_id: str, intent: Any) -> ProposeOutcome: ...

    def execute(self, run_id: str, intent: Any, grant_id: str | None = None) -> ExecuteOutcome: ...


class GrantPort(Protocol):
    def issue_human(self, run_id: str, tool: str, version: str, args: dict[str, Any], claim_set_hash: str,
                    approver: str) -> Grant: ...

    def lookup(self, grant_id: str) -> Grant | None: ...


class ReviewPort(Protocol):
    """runtime.review.ReviewQueue: a durable item a person can act on (idempotent per call)."""

    def enqueue(self, **item: Any) -> Any: ...


# -- what a check and an action come to ------------------------------------------------------------
Outcome = Literal["passed", "stopped", "abstained"]


@dataclass(frozen=True)
class Checked:
    """One hand-off decided. `artifact`: the annotated artifact when it passed, else None.
    `ids`: the ledger-style ids of the artifact as sent and as annotated: citing one of them is
    citing an agent, not evidence (a transport keeps them to explain such a rejection later)."""

    decision: GateDecision
    outcome: Outcome
    stage: Stage | None = None
    violations: list[Violation] = field(default_factory=list)
    verdict: ArtifactVerdict | None = None
    open_questions: list[str] = field(default_factory=list)
    diagnosis: list[str] = field(default_factory=list)
    artifact: Artifact | None = None
    received: Artifact | None = None  # the artifact as sent, once the gate passed it
    ids: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return self.outcome == "passed"

    def handoff(self, *, round: int, node: str, to: list[str], artifact: Any = None) -> Handoff:
        """The report's record of this hand-off (`artifact`: the JSON as the agent sent it)."""
        return Handoff(round=round, node=node, to=to, outcome=self.outcome, stage=self.stage,
                       artifact_hash=self.decision.artifact_hash, artifact=artifact, violations=self.violations,
                       verdicts=self.verdict.claims if self.verdict else [], open_questions=self.open_questions,
                       diagnosis=self.diagnosis)


@dataclass(frozen=True)
class Acted:
    """One action intent carried out: the bus's outcome and what became of the action.
    `index`: the intent's place in the artifact (acting goes reversible-first)."""

    index: int
    irreversible: bool
    call: ExecuteOutcome
    action: Action
    queued: str | None = None  # the review queue's item id, when the call waits for a person


@dataclass(frozen=True)
class _Plan:
    index: int
    intent: Any  # resolved to the exact version when the bus accepted it; else as sent
    irreversible: bool
    grant_id: str | None = None  # given by the caller
    approval: Approval | None = None
    claim_set_hash: str | None = None
    reason: str = ""  # why a person was asked (and, if they did not approve, why it waits)


def artifact_id(art: Artifact) -> str:
    """The id a ledger record of this artifact's bytes would have."""
    return record_id(canonical_json(art.model_dump(mode="json")))


def parse_artifact(raw: Any) -> Artifact:
    """The artifact the gate passed, as the model (the gate parsed the same text strictly)."""
    if isinstance(raw, Artifact):
        return raw
    if isinstance(raw, (bytes, bytearray, str)):
        raw = json.loads(raw)
    return Artifact.model_validate(raw)


class Handoffs:
    """The hand-off pipeline over one control plane's parts (see the module docstring)."""

    def __init__(self, *, gate: GatePort, verifier: VerifierPort, bus: BusPort, grants: GrantPort, journal: JournalPort,
                 policy: Policy | None = None, review: ReviewPort | None = None):
        self.gate, self.verifier, self.bus, self.grants, self.journal = gate, verifier, bus, grants, journal
        self.policy, self.review = policy, review

    @classmethod
    def of(cls, plane: Any) -> "Handoffs":
        """Over a `ControlPlane` (runtime/graph/runner.py), or anything with the same parts."""
        return cls(gate=plane.gate, verifier=plane.verifier, bus=plane.bus, grants=plane.grants, journal=plane.journal,
                   policy=plane.policy, review=plane.review)

    # -- the hand-off ----------------------------------------------------------------------------
    def check(self, artifact: Any, *, run_id: str | None, sender: str | None,
              known: Mapping[str, str] | None = None) -> Checked:
        """Gate, sender, abstention, verifier, annotation. `known`: artifact ids of earlier
        hand-offs -> who sent them, to name citation laundering when the gate finds such an id."""
        # One journal commit per hand-off where the verifier journals: the gate's decision is
        # written with the verdicts (a commit is most of the latency of a short hand-off). A
        # hand-off that stops before verification journals the decision on its own.
        defer = bool(getattr(self.verifier, "journals", False))
        decision = self.gate.check(artifact, run_id=run_id, journal=not defer)
        pending = decision.journal_entry(run_id) if defer else None
        try:
            if not decision.passed:
                return Checked(decision, "stopped", "gate", list(decision.violations),
                               diagnosis=laundering(decision.violations, known or {}))
            art = parse_artifact(artifact)
            ids = [artifact_id(art)]
            if sender is not None and art.from_agent != sender:
                v = Violation(code="from_agent_mismatch", loc="$.from_agent", message="an agent may only send artifacts in its own name",
                              expected=sender, got=art.from_agent)
                return Checked(decision, "stopped", "runner", [v], received=art, ids=ids)
            if art.open_questions:
                return Checked(decision, "abstained", "agent", open_questions=list(art.open_questions), received=art, ids=ids)
            if pending is None:
                verdict = self.verifier.verify(art)
            else:
                first, pending = [pending], None  # from here the verifier journals it, whatever happens
                verdict = self.verifier.verify(art, journal_first=first)
        finally:
            if pending is not None:
                self.journal.record(*pending)
        if not verdict.passed:
            return Checked(decision, "stopped", "verifier", verdict=verdict, received=art, ids=ids)
        annotated = annotate(art, verdict)
        return Checked(decision, "passed", verdict=verdict, artifact=annotated, received=art, ids=ids + [artifact_id(annotated)])

    def propose(self, run_id: str, artifact: Artifact) -> list[ProposeOutcome]:
        """Every intent validated, none run (a transport asked only to check)."""
        return [self.bus.propose(run_id, it) for it in artifact.action_intents]

    # -- acting on a passed artifact ---------------------------------------------------------------
    def act(self, run_id: str, sender: str, intents: Sequence[ActionIntent], verdicts: Sequence[ClaimVerdict], *,
            claim_texts: Mapping[str, str] | None = None, round: int = 0, approver: Approver = approve_nothing,
            grant_ids: Mapping[int, str] | None = None, on_call: Callable[[Any, ExecuteOutcome], None] | None = None,
            bubble: tuple[type[BaseException], ...] = (), review_context: Mapping[str, Any] | None = None) -> list[Acted]:
        """Carry out the action intents of a passed artifact (see the module docstring).

        `verdicts`: the hand-off's claim verdicts; `claim_texts`: claim id -> text, shown with a
        queued call (`claim_texts(artifact)`). `grant_ids`: intent index -> a grant the caller
        already holds (no one is asked then).
        `on_call(intent, outcome)`: after every bus call, e.g. to save a report. `bubble`:
        exception types the approver raises on purpose (LangGraph's interrupt), passed through;
        any other exception from the approver approves nothing. `review_context`: more fields
        for a queued item (graph, task, report_path)."""
        plans = self._plans(run_id, intents, verdicts, approver, grant_ids or {}, bubble)
        texts = dict(claim_texts or {})
        return [self._carry_out(run_id, sender, round, p, verdicts, texts, on_call, review_context or {}) for p in plans]

    def call(self, run_id: str, intent: Any, grant_id: str | None = None) -> ExecuteOutcome:
        return self.bus.execute(run_id, intent, grant_id)

    def grant_issuer(self, out: Any) -> str | None:
        """Who authorised a call: "human:<name>" or "policy:<rule>" (None: no grant was involved)."""
        gid = getattr(out, "grant_id", None)
        g = self.grants.lookup(gid) if gid else None
        return g.issuer if g else None

    def _plans(self, run_id: str, intents: Sequence[ActionIntent], verdicts: Sequence[ClaimVerdict], approver: Approver,
               grant_ids: Mapping[int, str], bubble: tuple[type[BaseException], ...]) -> list[_Plan]:
        # No side effects here but the approver's questions: a transport may run this twice.
        proposed = [(i, it, self.bus.propose(run_id, it)) for i, it in enumerate(intents)]
        proposed.sort(key=lambda t: isinstance(t[2], ToolCallAccepted) and t[2].irreversible)
        plans = []
        for i, it, p in proposed:
            if not isinstance(p, ToolCallAccepted):
                plans.append(_Plan(i, it, False))  # the bus rejects it again, journaled
                continue
            resolved = it.model_copy(update={"version": p.version})
            if not p.irreversible or i in grant_ids:
                plans.append(_Plan(i, resolved, p.irreversible, grant_ids.get(i)))
                continue
            plans.append(self._ask(run_id, i, resolved, verdicts, approver, bubble))
        return plans

    def _ask(self, run_id: str, index: int, intent: ActionIntent, verdicts: Sequence[ClaimVerdict], approver: Approver,
             bubble: tuple[type[BaseException], ...]) -> _Plan:
        cs = claim_set(self.journal, run_id, intent.depends_on)
        if not cs.verified or (self.policy is not None and self.policy.approving_rule(intent, cs) is not None):
            # A person cannot approve past an unsupported claim, and a policy rule needs nobody:
            # the bus refuses the one and issues the other's grant itself.
            return _Plan(index, intent, True)
        rules = self.policy.matching(intent.tool, intent.version) if self.policy else []
        reason = ("no policy rule approved it: " + "; ".join(f"{r.name} ({r.description})" if r.description else r.name for r in rules)
                  if rules else f"no policy rule covers {intent.tool}")
        wanted = set(intent.depends_on)
        req = ApprovalRequest(run_id=run_id, tool=intent.tool, version=intent.version, args=dict(intent.args),
                              depends_on=list(intent.depends_on), claim_set_hash=cs.hash,
                              claims=[c for c in verdicts if c.claim_id in wanted], reason=reason)
        try:
            approval = approver(req)
        except bubble:
            raise
        except Exception as exc:  # a broken approver approves nothing
            approval, reason = None, f"{reason}; the approver failed: {type(exc).__name__}: {exc}"
        return _Plan(index, intent, True, approval=approval if isinstance(approval, Approval) else None,
                     claim_set_hash=cs.hash, reason=reason)

    def _carry_out(self, run_id: str, sender: str, rnd: int, plan: _Plan, verdicts: Sequence[ClaimVerdict],
                   texts: Mapping[str, str], on_call: Callable[[Any, ExecuteOutcome], None] | None,
                   review_context: Mapping[str, Any]) -> Acted:
        intent: ActionIntent = plan.intent
        grant_id = plan.grant_id
        if plan.approval is not None:
            grant_id = self.grants.issue_human(run_id, intent.tool, intent.version, dict(intent.args), plan.claim_set_hash,
                                               plan.approval.approver).grant_id
        out = self.call(run_id, intent, grant_id)
        if on_call is not None:
            on_call(intent, out)
        action = Action(round=rnd, node=sender, tool=intent.tool, args=dict(intent.args), depends_on=list(intent.depends_on),
                        status="refused", call_id=out.call_id, code=out.error)
        if isinstance(out, ToolResult):
            action = action.model_copy(update=dict(status="executed", grant_id=out.grant_id, grant_issuer=self.grant_issuer(out),
                                                   ledger_id=out.ledger_id, output=out.output))
        elif isinstance(out, ToolCallRejected):
            action = action.model_copy(update=dict(message=out.violations[0].message if out.violations else ""))
        elif isinstance(out, ToolRefused) and out.code in QUEUED_REFUSALS:
            action = action.model_copy(update=self._waits(run_id, sender, rnd, action, out, plan.reason, verdicts))
        else:
            action = action.model_copy(update=dict(status="failed" if out.status == "failed" else "refused", message=out.message,
                                                   grant_id=out.grant_id))
        queued = None
        if action.review is not None and self.review is not None:
            r = action.review
            queued = self.review.enqueue(run_id=run_id, agent=sender, round=rnd, tool=r.tool, version=r.version, args=r.args,
                                         depends_on=r.depends_on, reason=r.reason, message=r.message, claim_texts=dict(texts),
                                         **review_context).item_id
            action = action.model_copy(update={"review": r.model_copy(update={"queue_id": queued})})
        return Acted(plan.index, plan.irreversible, out, action, queued)

    @staticmethod
    def _waits(run_id: str, sender: str, rnd: int, action: Action, out: ToolRefused, asked: str,
               verdicts: Sequence[ClaimVerdict]) -> dict[str, Any]:
        """A call that waits for a person: for its claims to be settled with evidence (only the
        unsupported ones are shown), or for an approval nobody gave (`asked`: why one was needed)."""
        if out.code == "claims_unverified":
            wanted = {u.claim_id for u in out.unverified}
            unsupported = [p for c in verdicts if c.claim_id in wanted for p in c.propositions if p.status != "supported"]
            said, shown = out.message, "depends on claims that are not supported: a reviewer must settle them with evidence first"
        else:
            unsupported = []
            said = shown = asked or out.message
        item = ReviewItem(run_id=run_id, round=rnd, node=sender, tool=out.tool, version=out.version, args=dict(action.args),
                          depends_on=list(action.depends_on), claim_set_hash=out.claim_set_hash, reason=QUEUED_REFUSALS[out.code], message=said,
                          unsupported=unsupported)
        return dict(status="queued_for_review", message=shown, review=item)


def claim_texts(artifact: Any) -> dict[str, str]:
    """Claim id -> text, what a person sees beside a queued call."""
    return {c.id: c.text for c in artifact.claims}


def laundering(violations: Iterable[Violation], known: Mapping[str, str]) -> list[str]:
    """Unknown ledger ids that are the hash of an earlier hand-off: an agent cited an agent."""
    out = []
    for v in violations:
        if v.code == "ledger_id_unknown" and isinstance(v.got, str) and v.got in known:
            out.append(
                f"citation laundering at {v.loc}: {v.got} is the hash of the hand-off artifact of {known[v.got]}, "
                "not a ledger record; cite the document or tool output that agent cited"
            )
    return out


__all__ = ["Acted", "BusPort", "Checked", "GatePort", "GrantPort", "Handoffs", "ReviewPort", "VerifierPort", "artifact_id",
           "claim_texts", "laundering", "parse_artifact"]
