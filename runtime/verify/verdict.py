"""What the verifier says about propositions, claims and artifacts. Data, never prose."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

Status = Literal["supported", "contradicted", "unsupported", "unverifiable"]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


class EvidenceSpan(_Frozen):
    """A verbatim slice of one ledger record: `text` == record bytes[start:end] decoded."""

    ledger_id: str
    start: int  # byte offsets into the record
    end: int
    text: str


class Suggestion(_Frozen):
    ledger_id: str
    score: float
    preview: str


class MissingEvidence(_Frozen):
    needed: str  # what kind of record would settle it
    suggestions: list[Suggestion] = []  # records of this run that look relevant, not yet cited


class PropositionVerdict(_Frozen):
    claim_id: str
    proposition_id: str
    pred: str
    status: Status
    checker: str  # "quote" | "rules" | "predicate:<name>" | "nli:<model>" | "resubmission" | "schema"
    confidence: float
    hypothesis: str | None = None
    evidence: EvidenceSpan | None = None
    # typed checks: the span of every value the verdict used (evidence is the first of them)
    spans: list[EvidenceSpan] = []
    reason: str = ""
    missing_args: list[str] = []
    missing_evidence: MissingEvidence | None = None


class ClaimVerdict(_Frozen):
    claim_id: str
    type: str
    status: Status
    propositions: list[PropositionVerdict]


class ArtifactVerdict(_Frozen):
    run_id: str
    from_agent: str
    artifact_hash: str
    status: Literal["pass", "abstain"]  # abstain: some Assertion is not supported; nothing passes on
    claims: list[ClaimVerdict]

    @property
    def passed(self) -> bool:
        return self.status == "pass"

    def unsupported(self) -> list[PropositionVerdict]:
        """What goes back to the sender: every proposition of an Assertion that is not supported."""
        return [p for c in self.claims if c.type in ("Assertion", "Quote") for p in c.propositions if p.status != "supported"]
