"""Errors memory raises. Each names the field or the thing that was wrong and what was expected;
none of them is raised after anything was written."""

from __future__ import annotations

from warrant.runtime.violations import Violation


class MemoryError_(Exception):
    """Base class. (Trailing underscore: `MemoryError` is a builtin with another meaning.)"""


class MemoryInputError(MemoryError_, ValueError):
    """Bad input to add/retract/load: carries violations with JSON paths."""

    def __init__(self, violations: list[Violation]):
        self.violations = violations
        first = violations[0]
        more = f" (and {len(violations) - 1} more)" if len(violations) > 1 else ""
        super().__init__(f"{first.loc}: {first.message}{more}")


class NodeNotFound(MemoryError_, KeyError):
    def __init__(self, node_id: str, field: str = "node_id"):
        self.node_id = node_id
        super().__init__(f"{field}: no memory node {node_id!r}")

    def __str__(self) -> str:  # KeyError would repr() the message
        return self.args[0]


class AlreadyRetracted(MemoryError_):
    def __init__(self, node_id: str, receipt_id: str | None):
        self.node_id = node_id
        self.receipt_id = receipt_id
        super().__init__(f"node_id: {node_id} is already REFUTED (receipt {receipt_id}); nothing was written")


class RepositoryError(MemoryError_):
    """The repository memory is verified against cannot be used at all (missing, not git)."""
