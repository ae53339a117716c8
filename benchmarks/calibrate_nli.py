"""Fit the temperature that makes the NLI model's probabilities calibrated, and store it.

    python benchmarks/calibrate_nli.py [--model-dir models/nli-minilm-l6] [--val 5000] [--write]

T is chosen on a validation split carved from the SNLI *training* data (``nli_data.snli_val_split``:
a seeded sample of the training subset that ``nli_data.py`` now keeps out of ``train.jsonl``), by
minimising the negative log-likelihood over a grid. The SNLI test split is scored once, after the
choice, for the report only (accuracy, ECE with 15 bins and NLL before and after): it chooses
nothing. With --write, stores T as `warrant_temperature` in the model's config.json; every backend
applies it (runtime/verify/backends/base.py: calibrate). Accuracy is unchanged: temperature
scaling never changes which label is most probable.

The shipped weights were trained before the validation split was carved out, so they have seen
its pairs: T fitted there is fitted on pairs the model knows (MODEL_CARD.md says so).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
from _common import ROOT, write_result

from nli_data import fetch_sources, load_snli, snli_val_split

from warrant.runtime.verify.backends.base import calibrate
from warrant.runtime.verify.backends.onnx_nli import OnnxNLI

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


def fit_temperature(backend, val: list[dict]) -> tuple[float, np.ndarray, np.ndarray]:
    """T minimising NLL over a grid on ``val`` (the backend's raw probabilities), with those
    probabilities and the gold labels. Leaves ``backend.temperature`` at 1.0."""
    backend.temperature = 1.0
    probs = backend.score([(r["premise"], r["hypothesis"]) for r in val])
    gold = np.array([LABEL_INDEX[r["label"]] for r in val])
    grid = np.exp(np.linspace(np.log(0.25), np.log(4.0), 200))
    return float(min(grid, key=lambda t: nll(calibrate(probs, t), gold))), probs, gold


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model-dir", type=Path, default=ROOT / "models" / "nli-minilm-l6")
    ap.add_argument("--val", type=int, default=5000, help="validation pairs carved from the SNLI training subset")
    ap.add_argument("--write", action="store_true", help="store the fitted temperature in config.json")
    args = ap.parse_args()
    snli_dir, _ = fetch_sources()
    val = snli_val_split(load_snli(snli_dir / "snli_1.0_train_subset.jsonl", "snli"), args.val)
    test = load_snli(snli_dir / "snli_1.0_test.jsonl", "snli_test")
    backend = OnnxNLI(args.model_dir)
    t_best, probs, gold = fit_temperature(backend, val)
    # the test split, once, for the report
    tprobs = backend.score([(r["premise"], r["hypothesis"]) for r in test])
    tgold = np.array([LABEL_INDEX[r["label"]] for r in test])
    res = {
        "chosen_on": f"validation split carved from the SNLI training subset ({len(val)} pairs, seeded; kept out of train.jsonl, but the weights these continued from saw it)",
        "val_pairs": len(val),
        "temperature": round(t_best, 4),
        "val": {"ece_before": round(ece(probs, gold), 4), "ece_after": round(ece(calibrate(probs, t_best), gold), 4),
                "nll_before": round(nll(probs, gold), 4), "nll_after": round(nll(calibrate(probs, t_best), gold), 4),
                "accuracy": round(float((probs.argmax(1) == gold).mean()), 4)},
        "snli_test_reported_once": {"pairs": len(test), "accuracy": round(float((tprobs.argmax(1) == tgold).mean()), 4),
                                    "ece_before": round(ece(tprobs, tgold), 4), "ece_after": round(ece(calibrate(tprobs, t_best), tgold), 4),
                                    "nll_before": round(nll(tprobs, tgold), 4), "nll_after": round(nll(calibrate(tprobs, t_best), tgold), 4)},
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
