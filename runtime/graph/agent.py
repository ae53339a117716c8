"""The one interface an agent plugs into, and what it is shown.

Agents are untrusted: whatever `act` returns (an Artifact, a dict, JSON text, or an exception) is
data the runner checks, never something it believes. An agent sees the task, the annotated
artifacts that passed to it, the evidence of its run (read-only: it cannot write the ledger), the
structured feedback of earlier rejections, and a `ToolPort` that routes every call through the
tool bus. It holds no handle to a tool, the ledger writer, the gate or the verifier.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

from warrant.runtime.contract import ActionIntent, AnnotatedArtifact, AnnotatedClaim, Artifact, Claim
from warrant.runtime.verify.verdict import PropositionVerdict
from warrant.runtime.violations import Violation

AgentOutput = Artifact | dict[str, Any] | str | bytes


class AgentError(Exception):
    """An agent could not produce an output (its endpoint failed, its answer was not an artifact).
    Carries violations so the rejection is data like any other."""

    def __init__(self, code: str, message: str, violations: list[Violation] | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.violations = violations or [Violation(code=code, loc="$", message=message)]


class EvidenceRef(BaseModel):
    """One ledger record of the run, as agents see it: its id (what they cite) and its bytes."""

    model_config = ConfigDict(frozen=True)

    ledger_id: str
    kind: str  # span | tool_output | human_fact
    source: dict[str, Any] = Field(default_factory=dict)
    text: str
    via: str = ""  # "retrieval" or "tool:<name>"
    args: dict[str, Any] = Field(default_factory=dict)  # the call's arguments, for tool outputs


Stage = Literal["agent", "runner", "gate", "verifier", "review"]  # review: a person asked for evidence


class Feedback(BaseModel):
    """Why a hand-off did not pass, as data the planner can act on (never prose alone)."""

    model_config = ConfigDict(frozen=True)

    round: int
    node: str
    stage: Stage
    outcome: Literal["stopped", "abstained"]
    violations: list[Violation] = Field(default_factory=list)
    unsupported: list[PropositionVerdict] = Field(default_factory=list)  # each with missing_evidence
    open_questions: list[str] = Field(default_factory=list)
    diagnosis: list[str] = Field(default_factory=list)


class ToolPort(Protocol):
    """The agent's only way to act: every call goes through the tool bus (validated, journaled)."""

    def call(self, tool: str, args: Any, *, version: str | None = None, depends_on: list[str] | None = None,
             requires_grant: bool | None = None) -> Any: ...

    def retrieve(self, query: str | None = None, *, document: str | None = None, k: int = 3) -> list[EvidenceRef]: ...


@dataclass
class AgentContext:
    run_id: str
    node: str
    round: int
    max_rounds: int
    task: dict[str, Any]
    inbox: list[AnnotatedArtifact]
    evidence: list[EvidenceRef]
    feedback: list[Feedback]
    tools: ToolPort
    successors: list[str] = field(default_factory=list)

    def find(self, *, via: str | None = None, document: str | None = None, **args: Any) -> list[EvidenceRef]:
        """Evidence of this run by origin ("tool:lookup_invoice", "retrieval"), document or call args."""
        out = []
        for e in self.evidence:
            if via is not None and e.via != via:
                continue
            if document is not None and e.source.get("document") != document:
                continue
            if any(e.args.get(k) != v for k, v in args.items()):
                continue
            out.append(e)
        return out

    def first(self, **kw: Any) -> EvidenceRef:
        found = self.find(**kw)
        if not found:
            raise LookupError(f"no evidence matching {kw} in run {self.run_id}")
        return found[-1]

    def feedback_for(self, node: str) -> list[Feedback]:
        return [f for f in self.feedback if f.node == node]

    def artifact(self, **kw: Any) -> Artifact:
        """A new artifact from this node (run_id and from_agent filled in)."""
        return Artifact(run_id=self.run_id, from_agent=self.node, **kw)


@runtime_checkable
class Agent(Protocol):
    name: str

    def act(self, ctx: AgentContext) -> AgentOutput: ...


def restate(claim: Claim | AnnotatedClaim) -> Claim:
    """A claim received from upstream, fit to be sent again: without the verifier's `entailment`
    and `confidence`, which the agents' contract has no field for."""
    return claim.unannotated() if isinstance(claim, AnnotatedClaim) else claim


def intent(tool: str, args: dict[str, Any], *, depends_on: list[str] | None = None, requires_grant: bool = False,
           version: str | None = None) -> ActionIntent:
    return ActionIntent(tool=tool, args=args, depends_on=list(depends_on or []), requires_grant=requires_grant, version=version)


__all__ = ["Agent", "AgentContext", "AgentError", "AgentOutput", "EvidenceRef", "Feedback", "Stage", "ToolPort", "intent", "restate"]
