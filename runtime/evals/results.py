"""What `warrant eval` writes: the scores of one graph on one gold set, as data (results.json).

A later evaluation reads this file as its baseline; the gold set's hash in it is what makes a
changed gold set fail the comparison.
"""

from __future__ import annotations

import datetime as dt
import json
import os
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

FORMAT = "warrant-eval/1"
# The figures, in the order they are shown. Each is a share in [0, 1].
FIGURES = ("faithfulness", "coverage", "abstention_precision", "abstention_recall", "hygiene", "verifier_agreement",
           "side_effects_done")


class _M(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Figure(_M):
    value: float | None  # None: nothing to measure (n == 0)
    low: float | None = None  # bootstrap 95% interval
    high: float | None = None
    n: int = 0

    def pct(self) -> str:
        return "n/a" if self.value is None else f"{100 * self.value:.1f}%"


class GoldRef(_M):
    name: str
    domain: str
    path: str
    hash: str
    variant_of: str | None = None


class ClaimRow(_M):
    """One emitted claim: where it came from, whether it got through, what it really is."""

    task: str
    run_id: str
    claim_id: str
    node: str
    round: int
    type: str
    text: str
    delivered: bool
    judge: str  # the judge's verdict on the claim against its own cited records
    gold: list[str] = Field(default_factory=list)  # gold ids its propositions matched
    truth: str  # gold label where a proposition matched one that is not "supported", else the judge's
    faithful: bool | None = None  # delivered blocking claims only


class GoldClaimRow(_M):
    id: str
    task: str | None
    pred: str
    expect: str
    covered: bool
    emitted_by: list[str] = Field(default_factory=list)  # run_id/claim_id


class Judged(_M):
    """One emitted proposition that matched a gold claim: the gold label and the judge's verdict."""

    gold_id: str
    expect: str
    judge: str
    confidence: float | None = None  # the judge's confidence in its verdict (what calibration fits)
    task: str
    run_id: str
    claim_id: str
    proposition_id: str
    text: str
    checker: str = ""


class Agreement(_M):
    labels: list[str]
    matrix: dict[str, dict[str, int]]  # gold label -> judge status -> count
    judged: list[Judged] = Field(default_factory=list)
    false_passes: list[Judged] = Field(default_factory=list)  # judge supported, gold not
    false_rejects: list[Judged] = Field(default_factory=list)  # gold supported on its own evidence, judge not
    citation_off: int = 0  # gold supported but the claim cited none of the gold evidence: not a false reject


class AbstentionRow(_M):
    id: str
    task: str
    question: str
    recalled: bool
    matched_by: list[str] = Field(default_factory=list)
    tempting_delivered: bool = False  # the wrong answer got through instead


class EmittedAbstention(_M):
    task: str
    run_id: str
    text: str
    matched: str | None = None


class SideEffectRow(_M):
    id: str  # the gold side effect, or "call:<call_id>" for a call no entry covers
    task: str
    run_id: str
    tool: str
    expect: str  # must_happen | must_not_happen | needs_human | (a call check) valid_grant | expected | through_bus
    outcome: Literal["ok", "failure", "missed"]
    code: str | None = None  # no_valid_grant | forbidden | wrong_argument | needs_human | unexpected_call | outside_bus
    message: str = ""
    args: Any = None


class RunRow(_M):
    task: str
    run_id: str
    status: str
    rounds: int
    reason: str = ""
    error: str | None = None


class GateOutcome(_M):
    passed: bool
    exit_code: int
    reasons: list[str] = Field(default_factory=list)  # why it failed, each naming the figure
    baseline: str | None = None
    deltas: dict[str, float | None] = Field(default_factory=dict)  # figure -> change in points against the baseline
    max_faithfulness_drop: float = 2.0


class EvalResult(_M):
    format: Literal["warrant-eval/1"] = FORMAT
    gold: GoldRef
    graph: str
    verifier: str
    setup: str = "full"
    started_at: dt.datetime
    finished_at: dt.datetime
    seed: int
    resamples: int
    figures: dict[str, Figure]
    counts: dict[str, int] = Field(default_factory=dict)
    false_passes: list[ClaimRow] = Field(default_factory=list)  # delivered blocking claims that are not faithful
    agreement: Agreement
    claims: list[ClaimRow] = Field(default_factory=list)
    gold_claims: list[GoldClaimRow] = Field(default_factory=list)
    abstentions: list[AbstentionRow] = Field(default_factory=list)
    emitted_abstentions: list[EmittedAbstention] = Field(default_factory=list)
    side_effects: list[SideEffectRow] = Field(default_factory=list)
    runs: list[RunRow] = Field(default_factory=list)
    calibration: dict[str, Any] | None = None
    gate: GateOutcome | None = None

    @property
    def hygiene_failures(self) -> list[SideEffectRow]:
        return [s for s in self.side_effects if s.outcome == "failure"]

    def save(self, path: str | Path) -> Path:
        return write_atomic(path, self.model_dump_json(indent=1) + "\n")


def write_atomic(path: str | Path, text: str) -> Path:
    """Write a file so that a crash mid-write leaves the previous file, never half of one."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
    return path


class ResultsError(ValueError):
    pass


def load_result(path: str | Path) -> EvalResult:
    path = Path(path)
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ResultsError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise ResultsError(f"{path}: not JSON: {exc}") from None
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        got = raw.get("format") if isinstance(raw, dict) else type(raw).__name__
        raise ResultsError(f"{path}: field 'format': expected {FORMAT!r}, got {got!r} (not a results.json of `warrant eval`)")
    try:
        return EvalResult.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise ResultsError(f"{path}: field {where!r}: {first['msg']} ({len(exc.errors())} problem(s))") from None


__all__ = [
    "AbstentionRow", "Agreement", "ClaimRow", "Judged", "EmittedAbstention", "EvalResult", "FIGURES", "FORMAT", "Figure",
    "GateOutcome", "GoldClaimRow", "GoldRef", "ResultsError", "RunRow", "SideEffectRow", "load_result", "write_atomic",
]
