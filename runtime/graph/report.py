"""The run report: what passed each hand-off, what was stopped where and why, what was done.

Everything in it is data copied from the control plane's own decisions (gate violations, verdicts
with their exact evidence spans, tool-bus outcomes, grants), plus where the journal is, so an
auditor can check any line of it against the hash-chained records.
"""

from __future__ import annotations

import datetime as dt
import json
import os
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from warrant.runtime.graph.agent import EvidenceRef, Feedback, Stage
from warrant.runtime.verify.verdict import ClaimVerdict, PropositionVerdict
from warrant.runtime.violations import Violation

RunStatus = Literal["RUNNING", "COMPLETED", "AWAITING_REVIEW", "ABSTAINED", "FAILED"]


class _M(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Handoff(_M):
    round: int
    node: str
    to: list[str]
    outcome: Literal["passed", "stopped", "abstained"]
    stage: Stage | None = None  # where it was stopped
    artifact_hash: str | None = None
    artifact: Any = None  # as the agent sent it (JSON), or a repr when it was not JSON
    violations: list[Violation] = Field(default_factory=list)
    verdicts: list[ClaimVerdict] = Field(default_factory=list)
    open_questions: list[str] = Field(default_factory=list)
    diagnosis: list[str] = Field(default_factory=list)

    @property
    def unsupported(self) -> list[PropositionVerdict]:
        return [p for c in self.verdicts if c.type in ("Assertion", "Quote") for p in c.propositions if p.status != "supported"]

    def feedback(self) -> Feedback:
        return Feedback(
            round=self.round, node=self.node, stage=self.stage or "agent",
            outcome="abstained" if self.outcome == "abstained" else "stopped",
            violations=self.violations, unsupported=self.unsupported,
            open_questions=self.open_questions, diagnosis=self.diagnosis,
        )


class ToolCall(_M):
    """One call through the tool bus, made by an agent (`via="agent"`) or by the runner for an
    action intent of a passed artifact (`via="runner"`)."""

    round: int
    node: str
    via: Literal["agent", "runner"]
    tool: str | None
    version: str | None = None
    args: Any = None
    status: Literal["ok", "rejected", "refused", "failed"]
    code: str | None = None
    message: str = ""
    violations: list[Violation] = Field(default_factory=list)
    call_id: str | None = None
    ledger_id: str | None = None
    grant_id: str | None = None
    grant_issuer: str | None = None
    output: Any = None


class ReviewItem(_M):
    """What a human reviewer sees for one irreversible call that was not auto-approved: the planned
    call, the claim set it depends on (by hash), and ONLY the claims that are not supported."""

    run_id: str
    round: int
    node: str
    tool: str
    version: str | None
    args: dict[str, Any]
    depends_on: list[str]
    claim_set_hash: str | None
    reason: Literal["claims_unverified", "no_policy_grant", "approver_declined"]
    message: str
    unsupported: list[PropositionVerdict] = Field(default_factory=list)
    queue_id: str | None = None  # the item in the durable review queue (runtime/review), when the run has one


class Action(_M):
    """An irreversible action intent and what became of it."""

    round: int
    node: str
    tool: str
    args: dict[str, Any]
    depends_on: list[str]
    status: Literal["executed", "queued_for_review", "refused", "failed"]
    call_id: str | None = None
    grant_id: str | None = None
    grant_issuer: str | None = None  # "policy:<rule>" or "human:<name>"
    ledger_id: str | None = None
    output: Any = None
    code: str | None = None
    message: str = ""
    review: ReviewItem | None = None


class ChainStatus(_M):
    table: str
    entries: int
    ok: bool
    head: str
    first_bad: str | None = None


class RunReport(_M):
    run_id: str
    graph: str
    task: dict[str, Any]
    status: RunStatus = "RUNNING"
    reason: str = ""
    max_rounds: int
    rounds: int = 0
    started_at: dt.datetime
    finished_at: dt.datetime | None = None
    handoffs: list[Handoff] = Field(default_factory=list)
    tool_calls: list[ToolCall] = Field(default_factory=list)
    actions: list[Action] = Field(default_factory=list)
    open_questions: list[str] = Field(default_factory=list)
    evidence: list[EvidenceRef] = Field(default_factory=list)
    ledger_uri: str
    verifier_backend: str = "none"
    chains: list[ChainStatus] = Field(default_factory=list)
    report_path: str | None = None
    error: str | None = None

    @property
    def stopped(self) -> list[Handoff]:
        return [h for h in self.handoffs if h.outcome != "passed"]

    @property
    def review_queue(self) -> list[ReviewItem]:
        return [a.review for a in self.actions if a.review is not None]

    def save(self, path: str | Path) -> Path:
        """Atomic: a crash mid-write leaves the previous complete report, never half of one."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(path.suffix + ".tmp")
        tmp.write_text(self.model_dump_json(indent=1), encoding="utf-8")
        os.replace(tmp, path)
        return path

    @classmethod
    def load(cls, path: str | Path) -> "RunReport":
        return cls.model_validate(json.loads(Path(path).read_text(encoding="utf-8")))


__all__ = ["Action", "ChainStatus", "Handoff", "ReviewItem", "RunReport", "RunStatus", "ToolCall"]
