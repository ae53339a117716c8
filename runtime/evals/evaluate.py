"""One evaluation: run a graph over a gold set on a control plane, then score it (library entry point).

    from warrant.runtime.evals import Setup, evaluate, load_gold, resolve
    gold = load_gold("evals/invoice_audit/gold")
    target, module = resolve("warrant.evals.invoice_audit.graphs:honest")
    result = evaluate(gold, target, Setup(backend=load_backend(), policy=module.policy()), ".warrant/eval/invoice_audit")
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Callable

from warrant.runtime.evals.goldset import GoldSet
from warrant.runtime.evals.harness import Setup, TaskRun, run_gold
from warrant.runtime.evals.results import EvalResult
from warrant.runtime.evals.score import DEFAULT_RESAMPLES, DEFAULT_SEED, score
from warrant.runtime.evals.targets import Target


def evaluate(gold: GoldSet, target: Target, setup: Setup, out_dir: str | Path, *, graph: str | None = None, setup_name: str = "full",
             seed: int = DEFAULT_SEED, resamples: int = DEFAULT_RESAMPLES, on_run: Callable[[TaskRun], None] | None = None) -> EvalResult:
    started = dt.datetime.now(dt.timezone.utc)
    runs = run_gold(gold, target, setup, Path(out_dir) / "ledger", on_run)
    backend = getattr(setup.backend, "name", None) or "none"
    return score(gold, runs, graph=graph or target.name, verifier=backend, started_at=started, setup=setup_name, seed=seed,
                 resamples=resamples)


__all__ = ["evaluate"]
