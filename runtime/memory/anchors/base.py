"""What every anchor kind shares: repository paths, the result of a check, the prose clamp.

An anchor is a claim about the code that a machine can check against one commit: it names where
(a file or folder, a scope) and in what role (used inside this function, declared in that extra).
Anchors are captured typed on the write path; `origin="prose"` marks the best-effort ones pulled
from a memory's text, which may only ever produce INCONCLUSIVE.
"""

from __future__ import annotations

from enum import Enum
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, JsonValue

if TYPE_CHECKING:
    from warrant.runtime.memory.index import CodeIndex


class Outcome(str, Enum):
    VERIFIED = "VERIFIED"  # the code at HEAD says what the anchor says
    REFUTED = "REFUTED"  # the code says otherwise, or lacks what must be there
    INCONCLUSIVE = "INCONCLUSIVE"  # the code cannot decide it (unparsable file, dynamic value, prose)


def _repo_path(value: str) -> str:
    """A path inside the repository, relative to its root, POSIX separators; "" is the root."""
    if "\\" in value or "\x00" in value:
        raise ValueError(f"expected a POSIX path relative to the repository root, got {value!r}")
    p = PurePosixPath(value.strip())
    if p.is_absolute() or ".." in p.parts:
        raise ValueError(
            f"expected a path inside the repository, relative to its root (no leading '/', no '..'), got {value!r}"
        )
    parts = [s for s in p.parts if s != "."]
    return "/".join(parts)


def _non_root(value: str) -> str:
    if not value:
        raise ValueError("expected a file or folder inside the repository, got the repository root")
    return value


def _python_file(value: str) -> str:
    if not value.endswith(".py"):
        raise ValueError(f"expected a Python file (*.py), got {value!r}")
    return value


RepoPath = Annotated[str, AfterValidator(_repo_path), AfterValidator(_non_root)]
Scope = Annotated[str, AfterValidator(_repo_path)]  # a file, a folder, or "" for the whole repository
PythonPath = Annotated[str, AfterValidator(_repo_path), AfterValidator(_non_root), AfterValidator(_python_file)]
DOTTED = r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$"
DottedName = Annotated[str, Field(pattern=DOTTED, max_length=512)]
Identifier = Annotated[str, Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$", max_length=256)]


class AnchorResult(BaseModel):
    model_config = ConfigDict(frozen=True)

    kind: str
    anchor: dict[str, Any]
    outcome: Outcome
    detail: str
    where: list[str] = Field(default_factory=list)  # "path:line" of what decided it
    origin: Literal["typed", "prose"] = "typed"
    # What the check alone found, before the prose clamp (equal to `outcome` for typed anchors).
    signal: Outcome


class AnchorBase(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    kind: str
    origin: Literal["typed", "prose"] = "typed"

    def check(self, index: "CodeIndex") -> tuple[Outcome, str, list[str]]:  # pragma: no cover - abstract
        raise NotImplementedError

    def evaluate(self, index: "CodeIndex") -> AnchorResult:
        outcome, detail, where = self.check(index)
        signal = outcome
        if self.origin == "prose":
            # The seed showed prose extraction refuting true facts: a best-effort anchor may hint,
            # never decide.
            outcome = Outcome.INCONCLUSIVE
            detail = f"prose anchor (best effort, cannot decide): {signal.value.lower()}: {detail}"
        return AnchorResult(
            kind=self.kind,
            anchor=self.model_dump(mode="json", exclude_unset=True) | {"kind": self.kind},
            outcome=outcome,
            detail=detail,
            where=where,
            origin=self.origin,
            signal=signal,
        )

    def has(self, field: str) -> bool:
        """Whether an optional value (a default, a value) was given; None is a value too."""
        return field in self.model_fields_set


def same_value(expected: JsonValue, found: Any) -> bool:
    """JSON-ish equality: tuples compare as lists, 1 != True, 1 == 1.0 only between numbers."""
    if isinstance(expected, bool) or isinstance(found, bool):
        return type(expected) is type(found) and expected == found
    if isinstance(found, tuple):
        found = list(found)
    if isinstance(expected, list) and isinstance(found, list):
        return len(expected) == len(found) and all(same_value(a, b) for a, b in zip(expected, found))
    if isinstance(expected, dict) and isinstance(found, dict):
        return expected.keys() == found.keys() and all(same_value(expected[k], found[k]) for k in expected)
    return type(expected) is type(found) and expected == found or (
        isinstance(expected, (int, float)) and isinstance(found, (int, float)) and expected == found
    )
