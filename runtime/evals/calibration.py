"""Calibrating the verifier's `confidence` on gold data, and the hook that applies the fitted map.

A verdict's confidence should be the probability that the verdict is right. The data are the
propositions of gold runs that matched a gold claim: (the judge's confidence, whether its
verdict agreed with the gold label on pass / no pass). They are split by a hash of the gold id,
so one gold claim never sits on both sides: a validation part chooses and fits the map, a
separate test part reports the expected calibration error (ECE, 10 equal-width bins) before and
after. Two maps are tried: temperature scaling of the confidence's log-odds (one parameter) and
isotonic regression (monotone, scikit-learn); the one with the lower ECE under 2-fold
cross-validation inside the validation part is refitted on all of it.

The hook (`CalibratedVerifier`) wraps any verifier and maps every verdict's confidence; nothing
else of the verdict changes, and the verifier's own journal entries keep the raw value.
"""

from __future__ import annotations

import hashlib
import json
import os
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


class ConfidenceMap(BaseModel):
    """A monotone map from raw to calibrated confidence, stored as JSON."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    method: Literal["identity", "temperature", "isotonic"]
    temperature: float | None = None
    x: list[float] = Field(default_factory=list)  # isotonic knots
    y: list[float] = Field(default_factory=list)
    fitted_on: dict[str, Any] = Field(default_factory=dict)

    def __call__(self, confidence: float) -> float:
        return float(self.apply(np.asarray([confidence], dtype=float))[0])

    def apply(self, c: np.ndarray) -> np.ndarray:
        c = np.clip(np.asarray(c, dtype=float), 0.0, 1.0)
        if self.method == "temperature":
            p = np.clip(c, _EPS, 1 - _EPS)
            return 1.0 / (1.0 + np.exp(-np.log(p / (1 - p)) / float(self.temperature or 1.0)))
        if self.method == "isotonic":
            return np.interp(c, self.x, self.y)
        return c

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(path.suffix + ".tmp")
        tmp.write_text(self.model_dump_json(indent=1) + "\n", encoding="utf-8")
        os.replace(tmp, path)
        return path

    @classmethod
    def load(cls, path: str | Path) -> "ConfidenceMap":
        return cls.model_validate(json.loads(Path(path).read_text(encoding="utf-8")))


def fit_temperature(confidence: Sequence[float], correct: Sequence[float]) -> ConfidenceMap:
    from scipy.optimize import minimize_scalar

    c = np.clip(np.asarray(confidence, dtype=float), _EPS, 1 - _EPS)
    y = np.asarray(correct, dtype=float)
    z = np.log(c / (1 - c))

    def nll(t: float) -> float:
        p = np.clip(1.0 / (1.0 + np.exp(-z / t)), _EPS, 1 - _EPS)
        return float(-(y * np.log(p) + (1 - y) * np.log(1 - p)).mean())

    t = minimize_scalar(nll, bounds=(0.05, 50.0), method="bounded").x
    return ConfidenceMap(method="temperature", temperature=round(float(t), 6))


def fit_isotonic(confidence: Sequence[float], correct: Sequence[float]) -> ConfidenceMap:
    from sklearn.isotonic import IsotonicRegression

    iso = IsotonicRegression(y_min=0.0, y_max=1.0, increasing=True, out_of_bounds="clip")
    iso.fit(np.asarray(confidence, dtype=float), np.asarray(correct, dtype=float))
    return ConfidenceMap(method="isotonic", x=[float(v) for v in iso.X_thresholds_], y=[float(v) for v in iso.y_thresholds_])


FITTERS: dict[str, Callable[[Sequence[float], Sequence[float]], ConfidenceMap]] = {
    "temperature": fit_temperature, "isotonic": fit_isotonic,
}


def _fold(key: str, n: int, salt: str = "") -> int:
    return int(hashlib.sha256((salt + key).encode()).hexdigest(), 16) % n


def calibrate(samples: Iterable[tuple[str, float, bool]], *, folds: int = 2) -> tuple[ConfidenceMap, dict[str, Any]]:
    """Fit on the validation part, report on the test part. `samples`: (gold id, confidence, correct)."""
    rows = [(k, float(c), float(ok)) for k, c, ok in samples]
    val = [r for r in rows if _fold(r[0], 2) == 0]
    test = [r for r in rows if _fold(r[0], 2) == 1]
    cv: dict[str, float | None] = {}
    for name, fit in FITTERS.items():
        errs = []
        for f in range(folds):
            train = [r for r in val if _fold(r[0], folds, "cv") != f]
            held = [r for r in val if _fold(r[0], folds, "cv") == f]
            if len({r[2] for r in train}) < 1 or not held:
                continue
            m = fit([r[1] for r in train], [r[2] for r in train])
            errs.append(ece(m.apply(np.array([r[1] for r in held])), [r[2] for r in held]))
        cv[name] = float(np.mean(errs)) if errs else None
    ranked = sorted((e, n) for n, e in cv.items() if e is not None)
    chosen = ranked[0][1] if ranked and val else "identity"
    fitted = FITTERS[chosen]([r[1] for r in val], [r[2] for r in val]) if chosen != "identity" else ConfidenceMap(method="identity")
    fitted = fitted.model_copy(update={"fitted_on": {"validation": len(val), "test": len(test), "cv_ece": cv}})
    tc, ty = np.array([r[1] for r in test]), [r[2] for r in test]
    report = {
        "method": chosen,
        "validation_n": len(val),
        "test_n": len(test),
        "cv_ece": cv,
        "ece_before": ece(tc, ty),
        "ece_after": ece(fitted.apply(tc), ty) if len(tc) else None,
        "test_accuracy": float(np.mean(ty)) if ty else None,
        "test_mean_confidence_before": float(tc.mean()) if len(tc) else None,
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
        return p.model_copy(update={"confidence": self.map(p.confidence)})


__all__ = ["BINS", "CalibratedVerifier", "ConfidenceMap", "FITTERS", "calibrate", "ece", "fit_isotonic", "fit_temperature"]
