"""Domain packs of typed predicates: base.py (Pack), one folder per pack (its predicates.yaml and
README), registry.py (built-in packs plus the `warrant.predicates` entry points)."""

from warrant.runtime.verify.packs.base import Pack
from warrant.runtime.verify.packs.registry import PackLoadError, load_packs

__all__ = ["Pack", "PackLoadError", "load_packs"]
