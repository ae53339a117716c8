"""Frozen-gold evaluation with a release gate (see README.md).

goldset (the folder format, hashing), derive + validate (re-deriving figures), replay (tools from
the gold set), targets (what a graph spec runs), harness (runs on a control plane), emitted
(what a run said), score (the figures), release (the gate), results (results.json), render
(terminal and HTML), calibration (confidence map and its hook), baselines (weaker pipelines for
benchmarks), cli (`warrant eval`).
"""

from warrant.runtime.evals.calibration import CalibratedVerifier, ConfidenceMap, calibrate, ece
from warrant.runtime.evals.evaluate import evaluate
from warrant.runtime.evals.goldset import GoldError, GoldSet, load_gold, write_manifest
from warrant.runtime.evals.harness import Setup, TaskRun, run_gold
from warrant.runtime.evals.release import gate
from warrant.runtime.evals.results import EvalResult, load_result
from warrant.runtime.evals.score import score
from warrant.runtime.evals.targets import GraphTarget, LangGraphTarget, Target, resolve
from warrant.runtime.evals.validate import validate

__all__ = [
    "CalibratedVerifier", "ConfidenceMap", "EvalResult", "GoldError", "GoldSet", "GraphTarget", "LangGraphTarget", "Setup", "Target",
    "TaskRun", "calibrate", "ece", "evaluate", "gate", "load_gold", "load_result", "resolve", "run_gold", "score", "validate",
    "write_manifest",
]
