"""A domain pack: a named set of typed predicates, loaded from one YAML file (spec.py's schema).

Third-party packs are installed packages that name a `Pack` (or a function returning one) in the
`warrant.predicates` entry-point group:

    [project.entry-points."warrant.predicates"]
    freight = "my_pkg.freight:PACK"
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from warrant.runtime.verify.spec import PackSpec, load_pack_spec
from warrant.runtime.verify.typed import TypedPredicate


@dataclass(frozen=True)
class Pack:
    name: str
    description: str
    spec: PackSpec
    predicates: tuple[TypedPredicate, ...]
    source: str  # the YAML file it came from

    @classmethod
    def from_file(cls, path: str | Path) -> "Pack":
        spec = load_pack_spec(path)
        return cls.from_spec(spec, str(path))

    @classmethod
    def from_spec(cls, spec: PackSpec, source: str = "<memory>") -> "Pack":
        preds = tuple(TypedPredicate.compile(p, spec.scopes, spec.pack) for p in spec.predicates)
        return cls(spec.pack, spec.description, spec, preds, source)


def pack_file(module_file: str) -> Path:
    """The predicates.yaml beside a pack's module."""
    return Path(module_file).with_name("predicates.yaml")
