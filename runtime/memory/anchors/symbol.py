"""`symbol`: `module:Qualified.name` is defined in file S as a class, function, method or
attribute; optionally a parameter's default or the literal value assigned."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import Field, JsonValue, model_validator

from warrant.runtime.memory.anchors.base import AnchorBase, Identifier, Outcome, PythonPath, same_value

if TYPE_CHECKING:
    from warrant.runtime.memory.index import CodeIndex
    from warrant.runtime.memory.scan.base import DefFact, FileFacts

SymbolRef = Annotated[
    str, Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*:[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$", max_length=512)
]


class SymbolAnchor(AnchorBase):
    kind: Literal["symbol"] = "symbol"
    symbol: SymbolRef  # module:Qualified.name
    path: PythonPath | None = None  # the defining file; derived from the module when omitted
    defined_as: Literal["class", "function", "method", "attribute"] | None = None
    param: Identifier | None = None
    default: JsonValue = None  # only checked when given (None is a value: `param=None`)
    value: JsonValue = None  # only checked when given

    @model_validator(mode="after")
    def _consistent(self) -> "SymbolAnchor":
        if self.has("default") and self.param is None:
            raise ValueError("default: a default belongs to a parameter; give `param` too")
        if self.has("value") and self.param is not None:
            raise ValueError("value: a value is assigned to an attribute, a default to a parameter; give one of them")
        if self.has("value") and self.defined_as not in (None, "attribute"):
            raise ValueError(f"value: only an attribute has an assigned value, not a {self.defined_as}")
        if self.param is not None and self.defined_as not in (None, "function", "method", "class"):
            raise ValueError(f"param: an {self.defined_as} has no parameters")
        return self

    @property
    def module(self) -> str:
        return self.symbol.split(":", 1)[0]

    @property
    def qualname(self) -> str:
        return self.symbol.split(":", 1)[1]

    def check(self, index: "CodeIndex") -> tuple[Outcome, str, list[str]]:
        if self.path is not None:
            f = index.file(self.path)
            if f is None:
                return Outcome.REFUTED, f"{self.path} does not exist at HEAD", []
            files = [f]
        else:
            files = index.module_files(self.module)
            if not files:
                if index.has_package(self.module.split(".")[0]):
                    return Outcome.REFUTED, f"module {self.module} has no file at HEAD", []
                return Outcome.INCONCLUSIVE, f"module {self.module} is not part of this repository", []
        results = [self._in_file(f) for f in files]
        for outcome in (Outcome.VERIFIED, Outcome.INCONCLUSIVE):
            picked = [r for r in results if r[0] is outcome]
            if picked:
                return picked[0]
        return results[0]

    def _in_file(self, f: "FileFacts") -> tuple[Outcome, str, list[str]]:
        if not f.readable:
            return Outcome.INCONCLUSIVE, f.detail or f"{f.path} was not read", [f.path]
        q = self.qualname
        defs = [d for d in f.defs if d.qualname == q]
        if not defs:
            bound = [i for i in f.imports if i.scope == "" and i.bound == q]
            if bound:
                i = bound[0]
                msg = f"{q} is bound in {f.path} by an import from {i.module}"
                plain = self.defined_as is None and self.param is None and not self.has("value")
                return (Outcome.VERIFIED if plain else Outcome.INCONCLUSIVE), msg, [f"{f.path}:{i.line}"]
            plain = self.defined_as is None and self.param is None and not self.has("value")
            if f.dynamic and plain:
                # A module __getattr__ or a star import may supply the name at run time; only a
                # claim about a definition (a class, a default, a value) is decided by its absence.
                return Outcome.INCONCLUSIVE, f"{q} is not defined in {f.path}, which may provide names dynamically (__getattr__ or a star import)", []
            parent = q.rpartition(".")[0]
            if parent and not any(d.qualname == parent for d in f.defs):
                return Outcome.REFUTED, f"{parent} is not defined in {f.path}", []
            return Outcome.REFUTED, f"{q} is not defined in {f.path}", []
        outcomes = [self._one(f, d) for d in defs]
        kinds = {o[0] for o in outcomes}
        if kinds == {Outcome.VERIFIED}:
            return outcomes[0]
        if kinds == {Outcome.REFUTED}:
            return outcomes[0]
        if Outcome.VERIFIED in kinds:
            return Outcome.INCONCLUSIVE, f"{q} is defined {len(defs)} times in {f.path} and the definitions disagree", [o[2][0] for o in outcomes if o[2]]
        return next(o for o in outcomes if o[0] is Outcome.INCONCLUSIVE)

    def _one(self, f: "FileFacts", d: "DefFact") -> tuple[Outcome, str, list[str]]:
        at = [f"{f.path}:{d.line}"]
        q = self.qualname
        if self.defined_as is not None and not (d.kind == self.defined_as or (self.defined_as == "function" and d.kind == "method")):
            return Outcome.REFUTED, f"{q} is a {d.kind} in {f.path}, not a {self.defined_as}", at
        if self.param is not None:
            if d.kind not in ("function", "method"):
                if d.kind == "class":
                    init = next((x for x in f.defs if x.qualname == f"{q}.__init__"), None)
                    if init is None:
                        return Outcome.INCONCLUSIVE, f"{q} is a class without an __init__ of its own in {f.path}", at
                    d = init
                else:
                    return Outcome.REFUTED, f"{q} is a {d.kind}, it has no parameter {self.param}", at
            p = next((p for p in d.params if p.name == self.param), None)
            if p is None:
                names = ", ".join(x.name for x in d.params) or "none"
                return Outcome.REFUTED, f"{q} has no parameter {self.param} (parameters: {names})", at
            if not self.has("default"):
                return Outcome.VERIFIED, f"{q} takes {self.param}", at
            if not p.has_default:
                return Outcome.REFUTED, f"{q}'s parameter {self.param} has no default", at
            return _compare(f"{q}({self.param}=...)", self.default, p.default, p.default_src, at)
        if self.has("value"):
            if d.kind != "attribute":
                return Outcome.REFUTED, f"{q} is a {d.kind}, not an assigned attribute", at
            return _compare(q, self.value, d.value, d.value_src, at)
        return Outcome.VERIFIED, f"{q} is defined as a {d.kind} in {f.path}", at


def _compare(what: str, expected: JsonValue, found_json: str | None, found_src: str | None, at: list[str]) -> tuple[Outcome, str, list[str]]:
    if found_json is None:
        return Outcome.INCONCLUSIVE, f"{what} is an expression ({found_src}), not a literal to compare", at
    found = json.loads(found_json)
    if same_value(expected, found):
        return Outcome.VERIFIED, f"{what} is {found_json}", at
    return Outcome.REFUTED, f"{what} is {found_json}, not {json.dumps(expected)}", at
