"""What a run emitted: every claim of every hand-off, once, with whether it got through.

A claim restated downstream (the writer forwarding the analyst's findings) is the same claim: its
identity is its content (type, text, quoted record, propositions with predicate, arguments and
cited ids), never its id or the verifier's annotations. It counts as delivered when any hand-off
that carried it passed; abstentions are the open questions agents sent.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from warrant.ledger import canonical_json, sha256_hex
from warrant.runtime.contract import Artifact, Claim
from warrant.runtime.graph.report import RunReport
from warrant.runtime.verify.verdict import ClaimVerdict

BLOCKING = ("Assertion", "Quote")


def claim_key(claim: Claim) -> str:
    body = {
        "type": claim.type,
        "text": claim.text,
        "quote_of": claim.quote_of.ledger_id if claim.quote_of else None,
        "props": [[p.pred, p.args, sorted(p.ledger_ids)] for p in claim.propositions],
    }
    return sha256_hex(canonical_json(body))[:24]


@dataclass
class EmittedClaim:
    key: str
    claim: Claim
    node: str
    round: int
    delivered: bool = False
    verdict: ClaimVerdict | None = None  # what the run's own verifier said, when it got that far

    @property
    def blocking(self) -> bool:
        return self.claim.type in BLOCKING


@dataclass
class Emitted:
    claims: list[EmittedClaim] = field(default_factory=list)
    abstentions: list[str] = field(default_factory=list)
    unparsed: int = 0  # hand-offs that were not artifacts at all (nothing to score in them)


def emitted(report: RunReport) -> Emitted:
    out = Emitted()
    by_key: dict[str, EmittedClaim] = {}
    for h in report.handoffs:
        art = _artifact(h.artifact)
        if art is None:
            out.unparsed += h.artifact is not None
            continue
        verdicts = {v.claim_id: v for v in h.verdicts}
        for c in art.claims:
            k = claim_key(c)
            e = by_key.get(k)
            if e is None:
                e = by_key[k] = EmittedClaim(k, c, h.node, h.round)
                out.claims.append(e)
            if c.id in verdicts and (e.verdict is None or h.outcome == "passed"):
                e.verdict = verdicts[c.id]
            e.delivered = e.delivered or h.outcome == "passed"
        if h.outcome == "abstained":
            out.abstentions.extend(q for q in h.open_questions if q not in out.abstentions)
    return out


def _artifact(doc: Any) -> Artifact | None:
    if not isinstance(doc, dict):
        return None
    try:
        return Artifact.model_validate(doc)
    except ValidationError:
        return None


__all__ = ["BLOCKING", "Emitted", "EmittedClaim", "claim_key", "emitted"]
