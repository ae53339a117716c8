"""`env_var`: variable N is read (or set) in scope S, optionally with a default."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import Field, JsonValue

from warrant.runtime.memory.anchors.base import AnchorBase, Outcome, Scope, same_value

if TYPE_CHECKING:
    from warrant.runtime.memory.index import CodeIndex

EnvName = Annotated[str, Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$", max_length=256)]


class EnvVarAnchor(AnchorBase):
    kind: Literal["env_var"] = "env_var"
    name: EnvName
    scope: Scope  # a .py file, a folder, or "" for the whole repository
    op: Literal["read", "set"] = "read"
    default: JsonValue = None  # only checked when given

    def check(self, index: "CodeIndex") -> tuple[Outcome, str, list[str]]:
        where_scope = self.scope or "the repository"
        if self.scope and not index.exists(self.scope):
            return Outcome.REFUTED, f"scope {self.scope} does not exist at HEAD", []
        files = [f for f in index.files_in(self.scope) if f.path.endswith(".py")]
        hits = [(f, e) for f in files if f.readable for e in f.env if e.var == self.name and e.op == self.op and not e.dynamic]
        verb = "read" if self.op == "read" else "set"
        if not hits:
            dynamic = [(f, e) for f in files if f.readable for e in f.env if e.dynamic and e.op == self.op]
            unread = [f for f in files if not f.readable]
            if dynamic:
                f, e = dynamic[0]
                return Outcome.INCONCLUSIVE, f"{self.name} is not {verb} by name in {where_scope}, but {f.path}:{e.line} {verb}s a computed name ({e.var})", []
            if unread:
                return Outcome.INCONCLUSIVE, f"{self.name} not found, but {len(unread)} file(s) could not be read: {unread[0].detail}", []
            return Outcome.REFUTED, f"{self.name} is never {verb} in {where_scope}", []
        at = [f"{f.path}:{e.line}" for f, e in hits[:5]]
        if not self.has("default"):
            return Outcome.VERIFIED, f"{self.name} is {verb} in {where_scope}", at
        with_default = [(f, e) for f, e in hits if e.has_default]
        for f, e in with_default:
            if e.default is not None and same_value(self.default, json.loads(e.default)):
                return Outcome.VERIFIED, f"{self.name} is {verb} with default {e.default}", [f"{f.path}:{e.line}"]
        expressions = [(f, e) for f, e in with_default if e.default is None]
        if expressions:
            f, e = expressions[0]
            return Outcome.INCONCLUSIVE, f"{self.name}'s default is an expression ({e.default_src})", [f"{f.path}:{e.line}"]
        if with_default:
            found = ", ".join(sorted({e.default for _, e in with_default}))
            return Outcome.REFUTED, f"{self.name} is {verb} with default {found}, not {json.dumps(self.default)}", at
        return Outcome.REFUTED, f"{self.name} is {verb} without a default in {where_scope}", at
