"""Which domain packs exist: the built-in ones, then those installed packages add through the
`warrant.predicates` entry-point group (as `warrant.commands` adds CLI commands)."""

from __future__ import annotations

from functools import lru_cache
from importlib import import_module
from importlib.metadata import entry_points

from warrant.runtime.verify.packs.base import Pack

BUILTIN = ("warrant.runtime.verify.packs.invoice", "warrant.runtime.verify.packs.ap", "warrant.runtime.verify.packs.contracts")
GROUP = "warrant.predicates"


class PackLoadError(RuntimeError):
    """An installed pack that cannot be loaded: the message names its entry point."""


def _as_pack(obj: object, where: str) -> Pack:
    if callable(obj) and not isinstance(obj, Pack):
        obj = obj()
    if not isinstance(obj, Pack):
        raise PackLoadError(f"{where}: expected a Pack (or a function returning one), got {type(obj).__name__}")
    return obj


def load_packs(include_entry_points: bool = True) -> list[Pack]:
    packs = [_as_pack(import_module(m).PACK, m) for m in BUILTIN]
    if include_entry_points:
        names = {p.name for p in packs}
        for ep in sorted(entry_points(group=GROUP), key=lambda e: e.name):
            if ep.value.split(":")[0] in BUILTIN:
                continue
            try:
                pack = _as_pack(ep.load(), f"entry point {ep.name} = {ep.value}")
            except PackLoadError:
                raise
            except Exception as exc:  # a broken plug-in is named, not a traceback from deep inside it
                raise PackLoadError(f"entry point {ep.name} = {ep.value}: {type(exc).__name__}: {exc}") from exc
            if pack.name in names:
                raise PackLoadError(f"entry point {ep.name} = {ep.value}: a pack named {pack.name!r} is already loaded")
            names.add(pack.name)
            packs.append(pack)
    return packs


@lru_cache(maxsize=1)
def builtin_packs() -> tuple[Pack, ...]:
    return tuple(_as_pack(import_module(m).PACK, m) for m in BUILTIN)
