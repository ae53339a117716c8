"""Which predicates exist. Plug-in families register here, as LanceDB's embedding providers do."""

from __future__ import annotations

from typing import Iterable

from warrant.runtime.verify.predicates.base import Predicate


class UnknownPredicate(KeyError):
    pass


class PredicateRegistry:
    def __init__(self, predicates: Iterable[Predicate] = ()):
        self._by_name: dict[str, Predicate] = {}
        for p in predicates:
            self.register(p)

    def register(self, predicate: Predicate) -> Predicate:
        if predicate.name in self._by_name:
            raise ValueError(f"predicate {predicate.name!r} is registered twice")
        self._by_name[predicate.name] = predicate
        return predicate

    def get(self, name: str) -> Predicate:
        try:
            return self._by_name[name]
        except KeyError:
            raise UnknownPredicate(name) from None

    def names(self) -> list[str]:
        return sorted(self._by_name)

    def __contains__(self, name: str) -> bool:
        return name in self._by_name


def default_registry() -> PredicateRegistry:
    """`statement` plus every typed predicate of the domain packs (built-in and installed)."""
    from warrant.runtime.verify.packs.registry import load_packs
    from warrant.runtime.verify.predicates import text

    return PredicateRegistry([*text.PREDICATES, *(p for pack in load_packs() for p in pack.predicates)])
