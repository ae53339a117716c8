"""Fit the temperature that makes the NLI model's probabilities calibrated, and store it.

    python benchmarks/calibrate_nli.py [--model-dir models/nli-minilm-l6] [--write]

Fits T on the first half of the SNLI test set (never used for training) by minimising the
negative log-likelihood, and reports expected calibration error (ECE, 15 bins) before and after
on the second half. With --write, stores T as `warrant_temperature` in the model's config.json;
every backend applies it (runtime/verify/backends/base.py: calibrate). Accuracy is unchanged:
temperature scaling never changes which label is most probable.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
from _common import ROOT, write_result

from runtime.verify.backends.base import calibrate
from runtime.verify.backends.onnx_nli import OnnxNLI

LABEL_INDEX = {"entailment": 0, "neutral": 1, "contradiction": 2}


def ece(probs: np.ndarray, gold: np.ndarray, bins: int = 15) -> float:
    conf, pred = probs.max(axis=1), probs.argmax(axis=1)
    edges = np.linspace(0, 1, bins + 1)
    total = 0.0
    for lo, hi in zip(edges[:-1], edges[1:]):
        m = (conf > lo) & (conf <= hi)
        if m.any():
            total += m.mean() * abs((pred[m] == gold[m]).mean() - conf[m].mean())
    return float(total)


def nll(probs: np.ndarray, gold: np.ndarray) -> float:
    return float(-np.log(np.clip(probs[np.arange(len(gold)), gold], 1e-12, 1)).mean())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model-dir", type=Path, default=ROOT / "models" / "nli-minilm-l6")
    ap.add_argument("--write", action="store_true", help="store the fitted temperature in config.json")
    args = ap.parse_args()
    rows = [json.loads(line) for line in (ROOT / "data" / "nli" / "snli_test.jsonl").read_text().splitlines() if line.strip()]
    backend = OnnxNLI(args.model_dir)
    backend.temperature = 1.0  # fit from the raw probabilities
    probs = backend.score([(r["premise"], r["hypothesis"]) for r in rows])
    gold = np.array([LABEL_INDEX[r["label"]] for r in rows])
    half = len(rows) // 2
    grid = np.exp(np.linspace(np.log(0.25), np.log(4.0), 200))
    t_best = float(min(grid, key=lambda t: nll(calibrate(probs[:half], t), gold[:half])))
    held, held_gold = probs[half:], gold[half:]
    res = {
        "fit_pairs": half,
        "eval_pairs": len(rows) - half,
        "temperature": round(t_best, 4),
        "ece_before": round(ece(held, held_gold), 4),
        "ece_after": round(ece(calibrate(held, t_best), held_gold), 4),
        "nll_before": round(nll(held, held_gold), 4),
        "nll_after": round(nll(calibrate(held, t_best), held_gold), 4),
    }
    print(json.dumps(res, indent=2))
    if args.write:
        cfg_path = args.model_dir / "config.json"
        cfg = json.loads(cfg_path.read_text())
        cfg["warrant_temperature"] = res["temperature"]
        cfg_path.write_text(json.dumps(cfg, indent=2) + "\n")
        print(f"wrote warrant_temperature={res['temperature']} to {cfg_path}")
    write_result("nli_calibration", res)


if __name__ == "__main__":
    main()
