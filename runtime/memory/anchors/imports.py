"""`import`: module M is imported in scope S; optionally used inside symbol X (X's body references
the name the import binds), optionally at module level.

`used_in` is what closes the seed's presence trap: "serve() streams files through L" is not
verified by an `import L` elsewhere in the file that serve() never touches.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import Field, model_validator

from warrant.runtime.memory.anchors.base import DOTTED, AnchorBase, DottedName, Outcome, Scope

if TYPE_CHECKING:
    from warrant.runtime.memory.index import CodeIndex
    from warrant.runtime.memory.scan.base import ImportFact

Qualname = Annotated[str, Field(pattern=DOTTED, max_length=512)]


def imports_module(imp: "ImportFact", module: str) -> bool:
    full = f"{imp.module}.{imp.name}" if imp.name and imp.name != "*" else imp.module
    return any(m == module or m.startswith(module + ".") for m in (imp.module, full))


class ImportAnchor(AnchorBase):
    kind: Literal["import"] = "import"
    module: DottedName
    scope: Scope  # a .py file, a folder, or "" for the whole repository
    used_in: Qualname | None = None
    module_level: bool | None = None

    @model_validator(mode="after")
    def _used_in_needs_a_file(self) -> "ImportAnchor":
        if self.used_in is not None and not self.scope.endswith(".py"):
            raise ValueError(f"used_in names a symbol of one file: scope must be a .py file, got {self.scope!r}")
        return self

    def check(self, index: "CodeIndex") -> tuple[Outcome, str, list[str]]:
        where_scope = self.scope or "the repository"
        if self.scope and not index.exists(self.scope):
            return Outcome.REFUTED, f"scope {self.scope} does not exist at HEAD", []
        files = [f for f in index.files_in(self.scope) if f.path.endswith(".py")]
        unread = [f for f in files if not f.readable]
        hits = [(f, i) for f in files if f.readable for i in f.imports if imports_module(i, self.module)]
        if self.module_level is not None:
            hits = [(f, i) for f, i in hits if (i.scope == "") == self.module_level]
        if self.used_in is not None:
            (f,) = files or [None]
            if f is None:
                return Outcome.REFUTED, f"{self.scope} is not a Python file at HEAD", []
            if not f.readable:
                return Outcome.INCONCLUSIVE, f.detail, [f.path]
            if not any(d.qualname == self.used_in for d in f.defs):
                return Outcome.REFUTED, f"{self.used_in} is not defined in {self.scope}", []
            used = [(f, i) for f, i in hits if self.used_in in i.used_in or i.scope == self.used_in]
            if used:
                return Outcome.VERIFIED, f"{self.module} is imported and used in {self.used_in}", _at(used)
            if hits:
                return (
                    Outcome.REFUTED,
                    f"{self.module} is imported in {self.scope}, but {self.used_in} never references it "
                    "(present in the file is not used by the symbol)",
                    _at(hits),
                )
            return Outcome.REFUTED, f"{self.scope} does not import {self.module}", []
        if hits:
            level = " at module level" if self.module_level else (" inside a function" if self.module_level is False else "")
            return Outcome.VERIFIED, f"{self.module} is imported{level} in {where_scope}", _at(hits)
        if unread:
            return Outcome.INCONCLUSIVE, f"{self.module} not found, but {len(unread)} file(s) could not be read: {unread[0].detail}", []
        if self.module_level is not None:
            return Outcome.REFUTED, f"{where_scope} does not import {self.module}{' at module level' if self.module_level else ' inside a function'}", []
        return Outcome.REFUTED, f"{where_scope} does not import {self.module}", []


def _at(hits: list) -> list[str]:
    return [f"{f.path}:{i.line}" for f, i in hits[:5]]
