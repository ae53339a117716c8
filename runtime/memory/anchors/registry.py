"""The anchor kinds, and the one discriminated union that parses them (by `kind`)."""

from __future__ import annotations

from typing import Annotated, Union

from pydantic import Field, TypeAdapter

from warrant.runtime.memory.anchors.base import AnchorBase
from warrant.runtime.memory.anchors.config_key import ConfigKeyAnchor
from warrant.runtime.memory.anchors.dependency import DependencyAnchor
from warrant.runtime.memory.anchors.env_var import EnvVarAnchor
from warrant.runtime.memory.anchors.file import FileAnchor
from warrant.runtime.memory.anchors.imports import ImportAnchor
from warrant.runtime.memory.anchors.symbol import SymbolAnchor

ANCHOR_TYPES: tuple[type[AnchorBase], ...] = (
    FileAnchor,
    ImportAnchor,
    SymbolAnchor,
    EnvVarAnchor,
    DependencyAnchor,
    ConfigKeyAnchor,
)

Anchor = Annotated[
    Union[FileAnchor, ImportAnchor, SymbolAnchor, EnvVarAnchor, DependencyAnchor, ConfigKeyAnchor],
    Field(discriminator="kind"),
]
ANCHOR_ADAPTER: TypeAdapter[Anchor] = TypeAdapter(Anchor)
KINDS = tuple(t.model_fields["kind"].default for t in ANCHOR_TYPES)


def parse_anchor(value: dict) -> AnchorBase:
    return ANCHOR_ADAPTER.validate_python(value)
