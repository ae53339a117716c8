"""`config_key`: a dotted key is set in a TOML / INI / YAML file, optionally to a value."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import AfterValidator, Field, JsonValue

from warrant.runtime.memory.anchors.base import AnchorBase, Outcome, RepoPath, same_value

if TYPE_CHECKING:
    from warrant.runtime.memory.index import CodeIndex

_SUFFIXES = (".toml", ".ini", ".cfg", ".yaml", ".yml")


def _config_file(value: str) -> str:
    if not value.endswith(_SUFFIXES):
        raise ValueError(f"expected a TOML, INI or YAML file ({', '.join(_SUFFIXES)}), got {value!r}")
    return value


class ConfigKeyAnchor(AnchorBase):
    kind: Literal["config_key"] = "config_key"
    path: Annotated[RepoPath, AfterValidator(_config_file)]
    key: Annotated[str, Field(pattern=r"^[^.\s]+(\.[^.\s]+)*$", max_length=512)]
    value: JsonValue = None  # only checked when given

    def check(self, index: "CodeIndex") -> tuple[Outcome, str, list[str]]:
        f = index.file(self.path)
        if f is None:
            return Outcome.REFUTED, f"{self.path} does not exist at HEAD", []
        if not f.readable:
            return Outcome.INCONCLUSIVE, f.detail or f"{self.path} was not read", [self.path]
        hit = next((c for c in f.config if c.key == self.key), None)
        if hit is None:
            return Outcome.REFUTED, f"{self.key} is not set in {self.path}", [self.path]
        if not self.has("value"):
            return Outcome.VERIFIED, f"{self.key} is set in {self.path}", [self.path]
        if hit.is_table:
            return Outcome.REFUTED, f"{self.key} is a table / section in {self.path}, not a value", [self.path]
        found = json.loads(hit.value) if hit.value is not None else None
        if same_value(self.value, found) or (
            # INI has only strings: compare the claimed value's spelling
            self.path.endswith((".ini", ".cfg")) and isinstance(found, str) and _ini_text(self.value) == found.strip().lower()
        ):
            return Outcome.VERIFIED, f"{self.key} = {hit.value} in {self.path}", [self.path]
        return Outcome.REFUTED, f"{self.key} is {hit.value} in {self.path}, not {json.dumps(self.value)}", [self.path]


def _ini_text(value: JsonValue) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value).strip().lower()
