"""Verifiers degraded on purpose, by configuration and injection (no code of the verifier edited),
for `warrant eval --verifier tests.evals.degraded:NAME`: the release gate must catch each."""

from __future__ import annotations

from warrant.runtime.verify.predicates import PredicateRegistry, default_registry
from warrant.runtime.verify.predicates.base import Predicate
from warrant.runtime.verify.verifier import Verifier, VerifierConfig

LOW_THRESHOLD = 0.02


def lax_threshold(ledger, backend, journal):
    """The NLI model's entailment threshold lowered from 0.5 to 0.02."""
    return Verifier(ledger, backend, journal=journal, config=VerifierConfig(entail_threshold=LOW_THRESHOLD))


def _model_only(p: Predicate) -> Predicate:
    """The same predicate (name, arguments, sentence) without its typed check: the model reads the sentence."""
    return Predicate(name=p.name, description=p.description, args_schema=p.args_schema, template=p.template, needed=p.needed)


def _line_rules_off() -> PredicateRegistry:
    reg = default_registry()
    return PredicateRegistry([_model_only(reg.get(n)) if n.startswith("line_") else reg.get(n) for n in reg.names()])


def line_rules_off(ledger, backend, journal):
    """The typed checks of the invoice-line predicates switched off (the model decides)."""
    return Verifier(ledger, backend, journal=journal, predicates=_line_rules_off())


def lax_and_rules_off(ledger, backend, journal):
    """All at once, the configuration a careless change to the verifier could ship: the lower
    threshold, the invoice-line checks off, and statements no longer required to find their
    anchors (names, ids, values) in the window the model read."""
    return Verifier(ledger, backend, journal=journal, config=VerifierConfig(entail_threshold=LOW_THRESHOLD, require_anchors=False),
                    predicates=_line_rules_off())
