"""Weaker control planes, to measure what each part of Warrant's is worth (benchmarks/bench_eval.py).

Each is built from injectable parts of the harness's `Setup`, never by editing the runtime:

    schema_only   hand-offs pass when they parse as the contract (what most agent frameworks check);
                  tools run when an agent asks, irreversible ones included
    has_citation  ... and every proposition cites at least one ledger id (not checked to exist)
    nli_only      ... and the NLI model, alone, finds the claim in the cited records' text (no
                  predicate evaluators, no number/date/negation rules, no quote check, no gate)
    no_gate       the full verifier, tool bus and grants, without the schema gate's rules
    full          Warrant as shipped

Every configuration is judged the same way: faithfulness by the full verifier and the gold labels.
"""

from __future__ import annotations

import json
from typing import Any, Callable

import numpy as np
from pydantic import ValidationError

from warrant.ledger import Journal, Ledger
from warrant.runtime.contract import ASSERTION, QUOTE, Artifact, Claim, Proposition, content_hash
from warrant.runtime.evals.harness import Setup, default_gate, default_verifier
from warrant.runtime.gate import GateDecision
from warrant.runtime.registry import ToolRegistry
from warrant.runtime.verify.backends.base import ENTAIL
from warrant.runtime.verify.predicates import UnknownPredicate, default_registry
from warrant.runtime.verify.spans import chunks
from warrant.runtime.verify.verdict import ArtifactVerdict, ClaimVerdict, PropositionVerdict
from warrant.runtime.violations import Violation, from_pydantic

BLOCKING = (ASSERTION, QUOTE)


class SchemaGate:
    """Only the contract's schema: no ledger-id, quote, proposition or tool-argument rules."""

    def __init__(self, ledger: Ledger, registry: ToolRegistry, journal: Journal):
        pass

    def check(self, artifact: Any, *, run_id: str | None = None, journal: bool = True) -> GateDecision:
        # journals nothing either way (no journal of its own)
        doc = artifact.model_dump(mode="json") if isinstance(artifact, Artifact) else artifact
        try:
            if isinstance(doc, (bytes, str)):
                doc = json.loads(doc)
            Artifact.model_validate(doc)
            violations: list[Violation] = []
        except ValueError as exc:  # json and pydantic errors alike
            violations = from_pydantic(exc.errors()) if isinstance(exc, ValidationError) else [
                Violation(code="invalid_json", loc="$", message=str(exc))]
        digest = content_hash(doc if isinstance(doc, dict) else repr(doc))
        ok = not violations
        return GateDecision(status="pass" if ok else "reject", run_id=run_id, from_agent=doc.get("from_agent") if ok else None,
                            artifact_hash=digest, violations=violations)


class _Judgeless:
    """A stand-in verifier: decides each proposition with `_decide`, nothing else."""

    name = "baseline"

    def __init__(self, ledger: Ledger, backend: Any = None, journal: Journal | None = None):
        self._ledger, self._backend = ledger, backend

    @property
    def backend_name(self) -> str:
        return self.name

    def verify(self, artifact: Artifact | dict[str, Any], **_: Any) -> ArtifactVerdict:
        art = artifact if isinstance(artifact, Artifact) else Artifact.model_validate(artifact)
        claims = []
        for c in art.claims:
            props = [self._decide(art.run_id, c, None)] if c.type == QUOTE else [self._decide(art.run_id, c, p) for p in c.propositions]
            if not props:
                status = "supported" if self._empty_ok(c) else "unsupported"
            else:
                status = "supported" if all(p.status == "supported" for p in props) else "unsupported"
            claims.append(ClaimVerdict(claim_id=c.id, type=c.type, status=status, propositions=props))
        ok = all(c.status == "supported" for c in claims if c.type in BLOCKING)
        return ArtifactVerdict(run_id=art.run_id, from_agent=art.from_agent, artifact_hash=art.content_hash(),
                               status="pass" if ok else "abstain", claims=claims)

    def _empty_ok(self, claim: Claim) -> bool:
        return False

    def _verdict(self, claim: Claim, prop: Proposition | None, ok: bool, confidence: float, reason: str) -> PropositionVerdict:
        return PropositionVerdict(claim_id=claim.id, proposition_id=prop.id if prop else claim.id, pred=prop.pred if prop else "quote",
                                  status="supported" if ok else "unsupported", checker=self.name, confidence=confidence, reason=reason)

    def _decide(self, run_id: str, claim: Claim, prop: Proposition | None) -> PropositionVerdict:
        raise NotImplementedError


class PassAll(_Judgeless):
    name = "schema_only"

    def _empty_ok(self, claim: Claim) -> bool:
        return True

    def _decide(self, run_id: str, claim: Claim, prop: Proposition | None) -> PropositionVerdict:
        return self._verdict(claim, prop, True, 1.0, "schema-valid")


class HasCitation(_Judgeless):
    name = "has_citation"

    def _decide(self, run_id: str, claim: Claim, prop: Proposition | None) -> PropositionVerdict:
        cited = bool(prop.ledger_ids) if prop else claim.quote_of is not None
        return self._verdict(claim, prop, cited, 1.0, "cites a ledger id" if cited else "cites nothing")


class NLIOnly(_Judgeless):
    """The model alone: max P(entailment) over the raw text chunks of the cited records >= 0.5."""

    name = "nli_only"
    threshold = 0.5

    def __init__(self, ledger: Ledger, backend: Any = None, journal: Journal | None = None):
        super().__init__(ledger, backend, journal)
        self._predicates = default_registry()

    def _decide(self, run_id: str, claim: Claim, prop: Proposition | None) -> PropositionVerdict:
        if prop is None:
            ids, hypothesis = [claim.quote_of.ledger_id] if claim.quote_of else [], claim.text
        else:
            ids = prop.ledger_ids
            try:
                hypothesis = self._predicates.get(prop.pred).hypothesis(dict(prop.args))
            except UnknownPredicate:
                hypothesis = claim.text
        pieces = [ch.text for rec in self._ledger.get_many(run_id, ids).values() for ch in chunks(rec)]
        if not pieces or self._backend is None:
            return self._verdict(claim, prop, False, 0.0, "nothing to read" if self._backend else "no model")
        best = float(np.max(self._backend.score([(p, hypothesis) for p in pieces])[:, ENTAIL]))
        return self._verdict(claim, prop, best >= self.threshold, best, f"max P(entailment)={best:.2f}")


def _factory(cls: type) -> Callable[[Ledger, Any, Journal | None], Any]:
    return lambda ledger, backend, journal: cls(ledger, backend, journal)


def setups(backend: Any, policy: Any) -> dict[str, Setup]:
    """The five control planes of the benchmark, in order from weakest to Warrant as shipped."""
    plain = dict(backend=backend, policy=policy, gate=SchemaGate, judge=default_verifier, enforce_irreversible=False)
    return {
        "schema_only": Setup(verifier=_factory(PassAll), **plain),
        "has_citation": Setup(verifier=_factory(HasCitation), **plain),
        "nli_only": Setup(verifier=_factory(NLIOnly), **plain),
        "no_gate": Setup(backend=backend, policy=policy, gate=SchemaGate, verifier=default_verifier),
        "full": Setup(backend=backend, policy=policy, gate=default_gate, verifier=default_verifier),
    }


__all__ = ["HasCitation", "NLIOnly", "PassAll", "SchemaGate", "setups"]
