"""benchmarks/choose_nli.py applies the rule it declares, and refuses arguments it cannot use."""
from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def load():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    spec = importlib.util.spec_from_file_location("choose_nli", ROOT / "benchmarks" / "choose_nli.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def row(name, th, fp, tp, tc):
    return {"candidate": name, "threshold": th, "false_passes": fp, "true_supported": tp, "true_called_contradicted": tc}


def test_fewest_false_passes_then_most_true_passes_then_lowest_threshold():
    choose = load()
    rows = [row("a", 0.7, 5, 15, 2), row("a", 0.8, 3, 14, 2), row("a", 0.9, 3, 13, 2),
            row("b", 0.8, 3, 14, 3), row("b", 0.85, 3, 14, 2), row("c", 0.7, 8, 30, 0)]
    assert min(rows, key=choose.rank) == rows[1]  # a@0.8 beats a@0.9 (more true), b@0.8 (fewer contradicted), b@0.85 (lower)
    assert min(rows[2:], key=choose.rank) == rows[4]


def test_bad_arguments_say_what_was_expected(tmp_path):
    choose = load()
    with pytest.raises(argparse.ArgumentTypeError, match="NAME=DIR with DIR/model.int8.onnx"):
        choose.candidate(f"x={tmp_path}")  # no model there
    with pytest.raises(argparse.ArgumentTypeError, match="NAME=DIR"):
        choose.candidate(str(ROOT / "models" / "nli-minilm-l6"))  # no name
    assert choose.candidate(f"shipped={ROOT / 'models' / 'nli-minilm-l6'}")[0] == "shipped"
    with pytest.raises(argparse.ArgumentTypeError, match=r"thresholds must lie in \(0, 1\)"):
        choose.floats("0.8,1.2")
    with pytest.raises(argparse.ArgumentTypeError, match="comma-separated numbers"):
        choose.floats("high")
