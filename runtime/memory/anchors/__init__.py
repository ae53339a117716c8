"""Typed anchors: claims about the code a machine can check against one commit. A plug-in family:
`base.py`, one module per kind, `registry.py`."""

from warrant.runtime.memory.anchors.base import AnchorBase, AnchorResult, Outcome
from warrant.runtime.memory.anchors.config_key import ConfigKeyAnchor
from warrant.runtime.memory.anchors.dependency import DependencyAnchor
from warrant.runtime.memory.anchors.env_var import EnvVarAnchor
from warrant.runtime.memory.anchors.file import FileAnchor
from warrant.runtime.memory.anchors.imports import ImportAnchor
from warrant.runtime.memory.anchors.registry import ANCHOR_ADAPTER, ANCHOR_TYPES, KINDS, Anchor, parse_anchor
from warrant.runtime.memory.anchors.symbol import SymbolAnchor

__all__ = [
    "ANCHOR_ADAPTER",
    "ANCHOR_TYPES",
    "KINDS",
    "Anchor",
    "AnchorBase",
    "AnchorResult",
    "ConfigKeyAnchor",
    "DependencyAnchor",
    "EnvVarAnchor",
    "FileAnchor",
    "ImportAnchor",
    "Outcome",
    "SymbolAnchor",
    "parse_anchor",
]
