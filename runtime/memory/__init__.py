"""Agent memory with a lifecycle: statuses, links, retraction receipts with a cascade, and typed
anchors verified against the git HEAD of the codebase on every read."""

from warrant.runtime.memory.anchors import (
    AnchorResult,
    ConfigKeyAnchor,
    DependencyAnchor,
    EnvVarAnchor,
    FileAnchor,
    ImportAnchor,
    Outcome,
    SymbolAnchor,
)
from warrant.runtime.memory.errors import AlreadyRetracted, MemoryError_, MemoryInputError, NodeNotFound, RepositoryError
from warrant.runtime.memory.memory import LoadedNode, LoadResult, Memory, NodeCheck, VerifyResult
from warrant.runtime.memory.node import INCONCLUSIVE, Links, MemoryNode, NewMemory, RetractionReceipt, Status

__all__ = [
    "INCONCLUSIVE",
    "AlreadyRetracted",
    "AnchorResult",
    "ConfigKeyAnchor",
    "DependencyAnchor",
    "EnvVarAnchor",
    "FileAnchor",
    "ImportAnchor",
    "Links",
    "LoadResult",
    "LoadedNode",
    "Memory",
    "MemoryError_",
    "MemoryInputError",
    "MemoryNode",
    "NewMemory",
    "NodeCheck",
    "NodeNotFound",
    "Outcome",
    "RepositoryError",
    "RetractionReceipt",
    "Status",
    "SymbolAnchor",
    "VerifyResult",
]
