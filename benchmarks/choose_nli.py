"""Choose the NLI model and the verifier's entailment threshold on the validation pairs.

    python benchmarks/choose_nli.py --candidate docs=DIR --candidate control=DIR [--thresholds 0.7,0.8,0.9]

Each candidate is a model folder (``model.int8.onnx`` + tokenizer + ``config.json``): for example
the variants ``gpu_train.py`` brought back, joined from their parts. For each one the temperature
is fitted on the SNLI validation split (``calibrate_nli.fit_temperature``), then every
``statement`` pair of ``_common.VALIDATION_PAIRS`` goes through the full verifier (rules, anchors,
model) at each threshold. The rule, declared before any run: fewest false passes (non-entailed
pairs called supported), then most true claims supported, then fewest true claims called
contradicted, then the lowest threshold. Nothing here reads the dev pairs (they trained the
model) or the held-out set. Writes ``benchmarks/results/nli_choice.json``.
"""
from __future__ import annotations

import argparse
import hashlib
import tempfile
from pathlib import Path

from _common import VALIDATION_PAIRS, write_result
from bench_verifier_quality import read_pairs, score_pairs, summarise
from calibrate_nli import fit_temperature
from nli_data import fetch_sources, load_snli, snli_val_split
from rich.console import Console
from rich.table import Table

from warrant.ledger import Ledger
from warrant.runtime.verify.backends.onnx_nli import OnnxNLI
from warrant.runtime.verify.verifier import Verifier, VerifierConfig


def candidate(text: str) -> tuple[str, Path]:
    name, sep, path = text.partition("=")
    if not sep or not name or not (Path(path) / "model.int8.onnx").is_file():
        raise argparse.ArgumentTypeError(f"expected NAME=DIR with DIR/model.int8.onnx, got {text!r}")
    return name, Path(path)


def floats(text: str) -> list[float]:
    try:
        values = [float(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated numbers, got {text!r}") from None
    if not values or not all(0 < v < 1 for v in values):
        raise argparse.ArgumentTypeError(f"thresholds must lie in (0, 1), got {text!r}")
    return values


def rank(row: dict) -> tuple:
    return (row["false_passes"], -row["true_supported"], row["true_called_contradicted"], row["threshold"])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--candidate", type=candidate, action="append", required=True, help="NAME=DIR (repeat)")
    ap.add_argument("--thresholds", type=floats, default=floats("0.7,0.8,0.9"))
    ap.add_argument("--val", type=int, default=5000, help="SNLI validation pairs for the temperature")
    args = ap.parse_args()
    snli_dir, _ = fetch_sources()
    val = snli_val_split(load_snli(snli_dir / "snli_1.0_train_subset.jsonl", "snli"), args.val)
    pairs = read_pairs([VALIDATION_PAIRS])
    rows = []
    for name, path in args.candidate:
        backend = OnnxNLI(path)
        backend.temperature, _, _ = fit_temperature(backend, val)
        for th in args.thresholds:
            with tempfile.TemporaryDirectory(prefix="warrant-choose-") as tmp:
                ledger = Ledger.open(tmp)
                s = summarise(score_pairs(Verifier(ledger, backend, config=VerifierConfig(entail_threshold=th)), ledger, pairs, "validation"))
            rows.append({"candidate": name, "sha256": hashlib.sha256((path / "model.int8.onnx").read_bytes()).hexdigest(),
                         "temperature": round(backend.temperature, 4), "threshold": th, "pairs": s["pairs"],
                         "accuracy": s["accuracy"], "false_passes": s["false_passes"], "non_entailed": s["non_entailed"],
                         "true_supported": s["by_label"]["supported"]["supported"], "entailed": s["entailed"],
                         "true_called_contradicted": s["true_called_contradicted"]})
            print(rows[-1], flush=True)
    best = min(rows, key=rank)
    t = Table(title=f"NLI model and threshold on {VALIDATION_PAIRS.name} ({len(pairs)} pairs)")
    for col in ("candidate", "T", "threshold", "accuracy", "false passes", "true supported", "true called contradicted"):
        t.add_column(col)
    for r in rows:
        t.add_row(("* " if r is best else "") + r["candidate"], f"{r['temperature']}", f"{r['threshold']}", f"{r['accuracy']:.3f}",
                  f"{r['false_passes']}/{r['non_entailed']}", f"{r['true_supported']}/{r['entailed']}", f"{r['true_called_contradicted']}")
    Console().print(t)
    print("wrote", write_result("nli_choice", {
        "validation": str(VALIDATION_PAIRS.name), "rule": "fewest false passes, then most true supported, then fewest "
        "true called contradicted, then the lowest threshold", "rows": rows, "chosen": best}))


if __name__ == "__main__":
    main()
