"""The human step at the irreversibility edge: an injectable approver.

The runner asks it only about a call whose claims are all supported but that no policy rule
approved (a human cannot approve past an unsupported claim: the tool bus would refuse the call
anyway). What it gets is the planned call and the claim set, not a chat log. Returning None means
"not now": the call is queued for review and the run reports it as such.
"""

from __future__ import annotations

from typing import Any, Callable

from pydantic import BaseModel, ConfigDict, Field

from warrant.runtime.verify.verdict import ClaimVerdict


class ApprovalRequest(BaseModel):
    model_config = ConfigDict(frozen=True)

    run_id: str
    tool: str
    version: str
    args: dict[str, Any]
    depends_on: list[str]
    claim_set_hash: str
    claims: list[ClaimVerdict] = Field(default_factory=list)  # the verdicts the approver relies on
    reason: str


class Approval(BaseModel):
    model_config = ConfigDict(frozen=True)

    approver: str  # a person's name; the grant is issued as "human:<approver>"
    note: str = ""


Approver = Callable[[ApprovalRequest], "Approval | None"]


def approve_nothing(request: ApprovalRequest) -> Approval | None:
    """The demo's approver: nobody is at the desk, so everything not auto-approved is queued."""
    return None


def approve_as(name: str) -> Approver:
    """Approves every request as `name` (tests; a console reviewer would prompt instead)."""
    return lambda request: Approval(approver=name)


__all__ = ["Approval", "ApprovalRequest", "Approver", "approve_as", "approve_nothing"]
