"""Frozen-gold evaluation with a release gate (see README.md).

goldset (the folder format, hashing), derive + validate (re-deriving figures), replay (tools from
the gold set), targets (what a graph spec runs), harness (runs on a control plane), emitted
(what a run said), score (the figures), release (the gate), results (results.json), render
(terminal and HTML), calibration (confidence map and its hook), baselines (weaker pipelines for
benchmarks), cli (`warrant eval`).
"""

from runtime.evals.calibration import CalibratedVerifier, ConfidenceMap, calibrate, ece
from runtime.evals.evaluate import evaluate
from runtime.evals.goldset import GoldError, GoldSet, load_gold, write_manifest
from runtime.evals.harness import Setup, TaskRun, run_gold
from runtime.evals.release import gate
from runtime.evals.results import EvalResult, load_result
from runtime.evals.score import score
from runtime.evals.targets import GraphTarget, LangGraphTarget, Target, resolve
from runtime.evals.validate import validate

__all__ = [
    "CalibratedVerifier", "ConfidenceMap", "EvalResult", "GoldError", "GoldSet", "GraphTarget", "LangGraphTarget", "Setup", "Target",
    "TaskRun", "calibrate", "ece", "evaluate", "gate", "load_gold", "load_result", "resolve", "run_gold", "score", "validate",
    "write_manifest",
]
