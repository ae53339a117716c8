"""Calibrating the verifier's `confidence` on gold data, and the hook that applies the fitted map.

A verdict's confidence should be the probability that the verdict is right. The data are the
propositions of gold runs that matched a gold claim: (which checker decided and what it said,
the judge's confidence, whether its verdict agreed with the gold label on pass / no pass). The
rows are split by gold id, so one gold claim never sits on both sides, stratified by family and
by right or wrong: a validation part chooses and fits the map, a separate test part reports the
expected calibration error (ECE, 10 equal-width bins) before and after. The candidates: no map, temperature scaling of the confidence's log-odds, isotonic
regression (monotone, scikit-learn), each pooled or per family; the one with the lowest ECE
under 2-fold cross-validation inside the validation part is refitted on all of it.

The hook (`CalibratedVerifier`) wraps any verifier and maps every verdict's confidence; nothing
else of the verdict changes, and the verifier's own journal entries keep the raw value.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, Callable, Iterable, Literal, Sequence

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

BINS = 10
_EPS = 1e-6


def ece(confidence: Sequence[float], correct: Sequence[float], bins: int = BINS) -> float | None:
    c, y = np.asarray(confidence, dtype=float), np.asarray(correct, dtype=float)
    if c.size == 0:
        return None
    idx = np.minimum((c * bins).astype(int), bins - 1)
    total = 0.0
    for b in range(bins):
        m = idx == b
        if m.any():
            total += m.sum() / c.size * abs(c[m].mean() - y[m].mean())
    return float(total)


class Curve(BaseModel):
    """One monotone map from raw to calibrated confidence."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    method: Literal["identity", "temperature", "isotonic"]
    temperature: float | None = None
    x: list[float] = Field(default_factory=list)  # isotonic knots
    y: list[float] = Field(default_factory=list)

    def apply(self, c: np.ndarray) -> np.ndarray:
        c = np.clip(np.asarray(c, dtype=float), 0.0, 1.0)
        if self.method == "temperature":
            p = np.clip(c, _EPS, 1 - _EPS)
            return 1.0 / (1.0 + np.exp(-np.log(p / (1 - p)) / float(self.temperature or 1.0)))
        if self.method == "isotonic":
            return np.interp(c, self.x, self.y)
        return c


IDENTITY = Curve(method="identity")


def family(checker: str, status: str = "") -> str:
    """Which checker decided ("nli", "predicate", "rules", "quote", ...) and what it said: their
    confidences mean different things (a rule's 1.0 is not the model's 0.9, and the model's
    confidence in "supported" is P(entailment) where in "unsupported" it is 1 - P(entailment)),
    so each gets its own curve. Given as "checker/status"."""
    return f"{(checker or '').split(':', 1)[0] or 'unknown'}/{status or 'any'}"


class ConfidenceMap(BaseModel):
    """A curve per checker family, and one for families the fit never saw. Stored as JSON."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    method: Literal["identity", "temperature", "isotonic"]
    families: dict[str, Curve] = Field(default_factory=dict)
    default: Curve = IDENTITY
    fitted_on: dict[str, Any] = Field(default_factory=dict)

    def __call__(self, confidence: float, checker: str = "", status: str = "") -> float:
        return float(self.apply([confidence], [family(checker, status)])[0])

    def apply(self, confidence: Sequence[float], families: Sequence[str]) -> np.ndarray:
        """`families` as `family()` gives them, one per confidence."""
        c = np.asarray(confidence, dtype=float)
        out = np.empty_like(c)
        fams = np.asarray(list(families), dtype=object)
        for f in set(fams.tolist()):
            m = fams == f
            out[m] = self.families.get(f, self.default).apply(c[m])
        return out

    def save(self, path: str | Path) -> Path:
        from warrant.runtime.evals.results import write_atomic

        return write_atomic(path, self.model_dump_json(indent=1) + "\n")

    @classmethod
    def load(cls, path: str | Path) -> "ConfidenceMap":
        return cls.model_validate(json.loads(Path(path).read_text(encoding="utf-8")))


def fit_temperature(confidence: Sequence[float], correct: Sequence[float]) -> Curve:
    from scipy.optimize import minimize_scalar

    c = np.clip(np.asarray(confidence, dtype=float), _EPS, 1 - _EPS)
    y = np.asarray(correct, dtype=float)
    z = np.log(c / (1 - c))

    def nll(t: float) -> float:
        p = np.clip(1.0 / (1.0 + np.exp(-z / t)), _EPS, 1 - _EPS)
        return float(-(y * np.log(p) + (1 - y) * np.log(1 - p)).mean())

    t = minimize_scalar(nll, bounds=(0.05, 50.0), method="bounded").x
    return Curve(method="temperature", temperature=round(float(t), 6))


def fit_isotonic(confidence: Sequence[float], correct: Sequence[float]) -> Curve:
    from sklearn.isotonic import IsotonicRegression

    iso = IsotonicRegression(y_min=0.0, y_max=1.0, increasing=True, out_of_bounds="clip")
    iso.fit(np.asarray(confidence, dtype=float), np.asarray(correct, dtype=float))
    return Curve(method="isotonic", x=[float(v) for v in iso.X_thresholds_], y=[float(v) for v in iso.y_thresholds_])


FITTERS: dict[str, Callable[[Sequence[float], Sequence[float]], Curve]] = {
    "temperature": fit_temperature, "isotonic": fit_isotonic,
}

Sample = tuple[str, str, float, bool]  # (gold id, family(checker, status), confidence, verdict agreed with the gold label)


def fit_map(method: str, rows: Sequence[Sample], *, per_family: bool = True) -> ConfidenceMap:
    """One curve per family (or one pooled curve for every family) by `method`."""
    if method == "identity" or not rows:
        return ConfidenceMap(method="identity")
    fit = FITTERS[method]
    pooled = fit([r[2] for r in rows], [float(r[3]) for r in rows])
    by_family: dict[str, list[Sample]] = {}
    for r in rows:
        by_family.setdefault(r[1], []).append(r)
    curves = {f: fit([r[2] for r in rs], [float(r[3]) for r in rs]) for f, rs in by_family.items()} if per_family else {}
    return ConfidenceMap(method=method, families=curves, default=pooled)  # type: ignore[arg-type]


# The candidates a validation part chooses among; "identity" (no map) wins when fitting does not help.
CANDIDATES = {
    "identity": ("identity", False),
    "temperature": ("temperature", False), "isotonic": ("isotonic", False),
    "temperature_per_family": ("temperature", True), "isotonic_per_family": ("isotonic", True),
}


def split(rows: Sequence[Sample]) -> dict[str, int]:
    """Gold id -> 0 (validation) or 1 (test). Stratified: within each (family, right or wrong)
    stratum the ids alternate in hash order, so both parts see every kind of verdict and error;
    a purely random split of a few hundred rows can put all of one kind of error on one side."""
    stratum: dict[str, tuple[str, bool]] = {}
    for k, fam, _, ok in rows:
        stratum.setdefault(k, (fam, ok))
    side: dict[str, int] = {}
    for s in sorted(set(stratum.values())):
        ids = sorted((k for k, v in stratum.items() if v == s), key=lambda k: _fold(k, 1 << 30))
        for i, k in enumerate(ids):
            side[k] = i % 2
    return side


def _fold(key: str, n: int, salt: str = "") -> int:
    return int(hashlib.sha256((salt + key).encode()).hexdigest(), 16) % n


def _ece_of(m: ConfidenceMap | None, rows: Sequence[Sample]) -> float | None:
    c = [r[2] for r in rows]
    return ece(m.apply(c, [r[1] for r in rows]) if m else c, [float(r[3]) for r in rows])


def calibrate(samples: Iterable[Sample], *, folds: int = 2) -> tuple[ConfidenceMap, dict[str, Any]]:
    """Choose and fit on the validation part, report on the test part (split by gold id)."""
    rows = [(k, ch, float(c), bool(ok)) for k, ch, c, ok in samples]
    side = split(rows)
    val = [r for r in rows if side[r[0]] == 0]
    test = [r for r in rows if side[r[0]] == 1]
    cv: dict[str, float | None] = {}
    for name, (method, per_family) in CANDIDATES.items():
        errs = [_ece_of(fit_map(method, [r for r in val if _fold(r[0], folds, "cv") != f], per_family=per_family), held)
                for f in range(folds) if (held := [r for r in val if _fold(r[0], folds, "cv") == f])]
        cv[name] = float(np.mean(errs)) if errs else None
    ranked = sorted((e, n) for n, e in cv.items() if e is not None)
    chosen = ranked[0][1] if ranked else "identity"
    method, per_family = CANDIDATES[chosen]
    fitted = fit_map(method, val, per_family=per_family)
    fitted = fitted.model_copy(update={"fitted_on": {"choice": chosen, "validation": len(val), "test": len(test), "cv_ece": cv}})
    families = {}
    for f in sorted({r[1] for r in test}):
        part = [r for r in test if r[1] == f]
        families[f] = {"n": len(part), "accuracy": float(np.mean([r[3] for r in part])),
                         "ece_before": _ece_of(None, part), "ece_after": _ece_of(fitted, part)}
    report = {
        "method": chosen, "validation_n": len(val), "test_n": len(test), "cv_ece": cv,
        "ece_before": _ece_of(None, test), "ece_after": _ece_of(fitted, test) if test else None,
        "test_accuracy": float(np.mean([r[3] for r in test])) if test else None,
        "test_mean_confidence_before": float(np.mean([r[2] for r in test])) if test else None,
        "per_family": families,
    }
    return fitted, report


class CalibratedVerifier:
    """The hook: any verifier, with each verdict's `confidence` passed through the fitted map."""

    def __init__(self, inner: Any, confidence_map: ConfidenceMap):
        self._inner = inner
        self.map = confidence_map

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def verify(self, artifact: Any, **kw: Any) -> Any:
        v = self._inner.verify(artifact, **kw)
        claims = [c.model_copy(update={"propositions": [self._map(p) for p in c.propositions]}) for c in v.claims]
        return v.model_copy(update={"claims": claims})

    def check(self, *args: Any, **kw: Any) -> Any:
        return [self._map(p) for p in self._inner.check(*args, **kw)]

    def _map(self, p: Any) -> Any:
        return p.model_copy(update={"confidence": self.map(p.confidence, p.checker, p.status)})


__all__ = ["BINS", "CalibratedVerifier", "ConfidenceMap", "Curve", "FITTERS", "Sample", "calibrate", "ece", "family", "fit_isotonic",
           "fit_map", "fit_temperature", "CANDIDATES", "split"]
