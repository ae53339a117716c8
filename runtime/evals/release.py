"""The release gate: may this change ship, judged against a baseline on the same frozen gold set?

It fails, naming the figure, when
- the gold set's hash differs from the baseline's (a changed gold set cannot pass as the old one:
  re-freezing it on purpose means making a new baseline),
- faithfulness dropped by more than `max_faithfulness_drop` points (percentage points),
- hygiene is not perfect (any side-effect failure, baseline or not).
Every other figure is reported with its change in points and does not gate.
"""

from __future__ import annotations

from warrant.runtime.evals.results import FIGURES, EvalResult, GateOutcome

PASS, FAIL = 0, 1
DEFAULT_MAX_DROP = 2.0


def gate(result: EvalResult, baseline: EvalResult | None = None, *, max_faithfulness_drop: float = DEFAULT_MAX_DROP,
         baseline_path: str | None = None) -> GateOutcome:
    reasons: list[str] = []
    deltas: dict[str, float | None] = {}
    if baseline is not None:
        for name in FIGURES:
            new, old = result.figures.get(name), baseline.figures.get(name)
            deltas[name] = (round(100 * (new.value - old.value), 3)
                            if new is not None and old is not None and new.value is not None and old.value is not None else None)
        if baseline.gold.hash != result.gold.hash:
            reasons.append(
                f"gold set: {result.gold.name} has hash {result.gold.hash[:16]}, the baseline was scored on {baseline.gold.name} "
                f"{baseline.gold.hash[:16]}; a changed gold set is not the old one (make a new baseline on purpose)"
            )
        new, old = result.figures["faithfulness"], baseline.figures["faithfulness"]
        if old.value is not None and new.value is None:
            reasons.append(f"faithfulness: the baseline measured {old.pct()}, this run delivered no blocking claim to measure")
        elif old.value is not None and new.value is not None:
            drop = 100 * (old.value - new.value)
            if drop > max_faithfulness_drop + 1e-9:
                reasons.append(f"faithfulness dropped {drop:.1f} points ({old.pct()} -> {new.pct()}), more than the "
                               f"{max_faithfulness_drop:g} allowed")
    failures = result.hygiene_failures
    if failures:
        first = "; ".join(f"{f.code} at {f.id} ({f.task})" for f in failures[:3])
        more = f" and {len(failures) - 3} more" if len(failures) > 3 else ""
        reasons.append(f"hygiene is {result.figures['hygiene'].pct()}, not 100%: {len(failures)} failure(s): {first}{more}")
    return GateOutcome(passed=not reasons, exit_code=FAIL if reasons else PASS, reasons=reasons, baseline=baseline_path,
                       deltas=deltas, max_faithfulness_drop=max_faithfulness_drop)


__all__ = ["DEFAULT_MAX_DROP", "FAIL", "PASS", "gate"]
