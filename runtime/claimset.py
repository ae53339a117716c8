"""The claim set an action depends on, as the journal records it right now.

A claim's standing is its LATEST verdict entry in the run: a later verdict (a re-check, a
reversal) replaces an earlier one. The hash names the exact verdict entries, so a grant issued
against one claim set does not cover the same claims after any of them was re-judged, even if the
new verdict says the same thing: the approver saw the old evidence, not the new.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Iterable, Mapping

from warrant.ledger import Journal
from warrant.ledger.journal import JournalKind
from warrant.runtime.contract import content_hash

SUPPORTED = "supported"
NO_VERDICT = "no_verdict"


@dataclass(frozen=True)
class ClaimVerdict:
    claim_id: str
    entry_id: str | None  # the journal entry of the latest verdict; None: never judged
    status: str  # the verdict's status, or "no_verdict"
    payload: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True)
class ClaimSet:
    run_id: str
    claims: tuple[ClaimVerdict, ...]  # sorted by claim_id, one per distinct id

    @property
    def claim_ids(self) -> list[str]:
        return [c.claim_id for c in self.claims]

    @property
    def verified(self) -> bool:
        """Every claim has a latest verdict of "supported". An empty set verifies nothing."""
        return bool(self.claims) and all(c.status == SUPPORTED for c in self.claims)

    @property
    def unverified(self) -> list[tuple[str, str]]:
        return [(c.claim_id, c.status) for c in self.claims if c.status != SUPPORTED]

    @property
    def verdicts(self) -> Mapping[str, Mapping[str, Any]]:
        """claim_id -> the latest verdict payload (claims never judged are absent)."""
        return MappingProxyType({c.claim_id: c.payload for c in self.claims if c.entry_id is not None})

    @property
    def hash(self) -> str:
        return content_hash(sorted([c.claim_id, c.entry_id] for c in self.claims))


def claim_set(journal: Journal, run_id: str, claim_ids: Iterable[str]) -> ClaimSet:
    wanted = set(claim_ids)
    latest: dict[str, Any] = {}
    if wanted:
        # One scan of the run's verdicts instead of one query per claim; entries come in seq order,
        # so the last one seen per claim is the latest.
        for e in journal.entries(run_id=run_id, kind=JournalKind.VERDICT):
            if e.subject in wanted:
                latest[e.subject] = e
    claims = []
    for cid in sorted(wanted):
        e = latest.get(cid)
        if e is None:
            claims.append(ClaimVerdict(cid, None, NO_VERDICT))
        else:
            status = e.payload.get("status")
            claims.append(
                ClaimVerdict(
                    cid,
                    e.id,
                    status if isinstance(status, str) else "malformed_verdict",
                    MappingProxyType(dict(e.payload)),
                )
            )
    return ClaimSet(run_id, tuple(claims))


__all__ = ["ClaimSet", "ClaimVerdict", "NO_VERDICT", "SUPPORTED", "claim_set"]
