"""Typed predicates: base.py + one module per family + registry.py."""

from runtime.verify.predicates.base import Decision, Predicate
from runtime.verify.predicates.registry import PredicateRegistry, UnknownPredicate, default_registry

__all__ = ["Decision", "Predicate", "PredicateRegistry", "UnknownPredicate", "default_registry"]
