"""Typed predicates: base.py + one module per family + registry.py."""

from warrant.runtime.verify.predicates.base import Decision, Predicate
from warrant.runtime.verify.predicates.registry import PredicateRegistry, UnknownPredicate, default_registry

__all__ = ["Decision", "Predicate", "PredicateRegistry", "UnknownPredicate", "default_registry"]
