"""A gate that keeps what it was shown: the exact hand-offs of a run, by artifact hash.

The graph runner keeps each hand-off's artifact in its report; the LangGraph adapter keeps only
its hash. Wrapping the control plane's gate (an injectable part) recovers the artifact for any
runner without changing it.
"""

from __future__ import annotations

from typing import Any

from warrant.runtime.gate import GateDecision
from warrant.runtime.graph.runner import _as_json


class RecordingGate:
    def __init__(self, inner: Any):
        self.inner = inner
        self.artifacts: dict[str, Any] = {}

    def check(self, artifact: Any, *, run_id: str | None = None, journal: bool = True) -> GateDecision:
        decision = self.inner.check(artifact, run_id=run_id, journal=journal)
        self.artifacts.setdefault(decision.artifact_hash, _as_json(artifact))
        return decision


__all__ = ["RecordingGate"]
