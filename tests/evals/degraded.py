"""Verifiers degraded on purpose, by configuration and injection (no code of the verifier edited),
for `warrant eval --verifier tests.evals.degraded:NAME`: the release gate must catch each."""

from __future__ import annotations

import dataclasses

from runtime.verify.predicates import PredicateRegistry, default_registry
from runtime.verify.verifier import Verifier, VerifierConfig

LOW_THRESHOLD = 0.02


def lax_threshold(ledger, backend, journal):
    """The NLI model's entailment threshold lowered from 0.5 to 0.02."""
    return Verifier(ledger, backend, journal=journal, config=VerifierConfig(entail_threshold=LOW_THRESHOLD))


def _line_rules_off() -> PredicateRegistry:
    reg = default_registry()
    return PredicateRegistry([dataclasses.replace(reg.get(n), evaluate=None) if n.startswith("line_") else reg.get(n) for n in reg.names()])


def line_rules_off(ledger, backend, journal):
    """The deterministic evaluators of the invoice-line predicates switched off (the model decides)."""
    return Verifier(ledger, backend, journal=journal, predicates=_line_rules_off())


def lax_and_rules_off(ledger, backend, journal):
    """Both at once: the configuration a careless change to the verifier could ship."""
    return Verifier(ledger, backend, journal=journal, config=VerifierConfig(entail_threshold=LOW_THRESHOLD),
                    predicates=_line_rules_off())
