"""May the model pass a statement alone, and from what P(entailment)? Measured where it never trained.

    python benchmarks/nli_passing.py [--model DIR] [--jobs 2] [--write]

Every ``statement`` pair the model did not train on (the validation pairs and the dev pairs after
``_common.SHIPPED_DOC_PAIRS``) goes through the full verifier with the model allowed to pass from
P(entailment) 0.5; each model pass is kept with its P, so the passes at any higher threshold are
read off the same run (the verifier tries chunks best first, so a pass at P survives every
threshold up to P). Next to it, the model's passes when the later dev sets were measured blind,
before anyone opened them (``results/verifier_pairs_dev*_blind.json``, at the threshold of the
day): the anchor rules were tuned on those pairs afterwards, so the first table is optimistic.

The rule, declared with the figures in front of us (dev data only; the held-out pairs are not
read): a pass threshold is the lowest one at which the model's passes on these pairs are right at
least 19 times in 20, with at least 20 passes, and false passes at most 1% of the non-entailed
pairs. Where none qualifies the model passes nothing alone. ``--write`` stores the result as
``warrant_pass_threshold`` in the model's config.json (null where none qualifies). Writes
``benchmarks/results/nli_passing.json``.
"""
from __future__ import annotations

import argparse
import json
import tempfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from _common import DEV_PAIRS, RESULTS, SHIPPED_DOC_PAIRS, VALIDATION_PAIRS, write_result
from bench_verifier_quality import read_pairs, score_pairs
from rich.console import Console
from rich.table import Table

from warrant.ledger import Ledger
from warrant.runtime.verify.backends import load_backend
from warrant.runtime.verify.verifier import Verifier, VerifierConfig

THRESHOLDS = (0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95, 0.97, 0.98, 0.99)
MIN_PRECISION, MIN_PASSES, MAX_FALSE_PASS_RATE = 0.95, 20, 0.01


def _score(job: tuple[str | None, list[dict]]) -> list[dict]:
    model, rows = job
    with tempfile.TemporaryDirectory(prefix="warrant-passing-") as tmp:
        ledger = Ledger.open(tmp)
        verifier = Verifier(ledger, load_backend(model), config=VerifierConfig(entail_threshold=THRESHOLDS[0]))
        return score_pairs(verifier, ledger, rows, "passing")


def _passes(scored: list[dict], threshold: float) -> tuple[int, int]:
    hits = [s for s in scored if s["checker"].startswith("nli") and s["got"] == "supported" and s["confidence"] >= threshold]
    return sum(s["gold"] == "supported" for s in hits), sum(s["gold"] != "supported" for s in hits)


def blind_first() -> dict:
    """The model's passes in the blind measurements of the later dev sets."""
    out = {"files": [], "true_passes": 0, "false_passes": 0, "entailed": 0, "non_entailed": 0}
    for path in sorted(RESULTS.glob("verifier_pairs_dev*_blind.json")):
        d = json.loads(path.read_text())
        if "model_pass_threshold" in d and d["model_pass_threshold"] is None:
            continue  # measured after the model stopped passing alone: nothing of it to count
        model = [s for s in d.get("scored", []) if s["checker"].startswith("nli") and s["got"] == "supported"]
        out["files"].append(path.name)
        out["true_passes"] += sum(s["gold"] == "supported" for s in model)
        out["false_passes"] += sum(s["gold"] != "supported" for s in model)
        out["entailed"] += d["entailed"]
        out["non_entailed"] += d["non_entailed"]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", type=Path, default=None, help="model folder (default: the embedded model)")
    ap.add_argument("--jobs", type=int, default=2, help="processes (each loads the model)")
    ap.add_argument("--write", action="store_true", help="store the chosen threshold in the model's config.json")
    args = ap.parse_args()
    files = [VALIDATION_PAIRS, *[p for p in DEV_PAIRS if p not in SHIPPED_DOC_PAIRS]]
    rows = read_pairs(files)
    jobs = max(1, args.jobs)
    model = str(args.model) if args.model else None
    with ProcessPoolExecutor(jobs) as pool:
        scored = [s for part in pool.map(_score, [(model, rows[i::jobs]) for i in range(jobs)]) for s in part]
    entailed = sum(s["gold"] == "supported" for s in scored)
    non_entailed = len(scored) - entailed
    table = []
    for th in THRESHOLDS:
        right, wrong = _passes(scored, th)
        table.append({"threshold": th, "true_passes": right, "false_passes": wrong,
                      "precision": round(right / (right + wrong), 4) if right + wrong else None,
                      "false_pass_rate": round(wrong / non_entailed, 4)})
    ok = [r for r in table if r["precision"] is not None and r["precision"] >= MIN_PRECISION
          and r["true_passes"] + r["false_passes"] >= MIN_PASSES and r["false_pass_rate"] <= MAX_FALSE_PASS_RATE]
    chosen = ok[0]["threshold"] if ok else None
    blind = blind_first()

    t = Table(title=f"The model's passes on {len(scored)} pairs it never trained on ({entailed} entailed, {non_entailed} not)")
    for col in ("from P", "true passes", "false passes", "right", "false-pass rate"):
        t.add_column(col, justify="right")
    for r in table:
        t.add_row(f"{r['threshold']}", str(r["true_passes"]), str(r["false_passes"]),
                  "-" if r["precision"] is None else f"{r['precision']:.2f}", f"{r['false_pass_rate']:.4f}")
    Console().print(t)
    print(f"measured blind, before the pairs were opened: {blind['true_passes']} true and {blind['false_passes']} false passes "
          f"({blind['entailed']} entailed, {blind['non_entailed']} not)")
    print(f"pass threshold: {chosen if chosen is not None else 'none (the model passes nothing alone)'}")
    model_dir = args.model or load_backend(None).model_dir
    if args.write:
        cfg_path = Path(model_dir) / "config.json"
        cfg = json.loads(cfg_path.read_text())
        cfg["warrant_pass_threshold"] = chosen
        cfg_path.write_text(json.dumps(cfg, indent=2) + "\n")
        print("wrote warrant_pass_threshold =", chosen, "to", cfg_path)
    print("wrote", write_result("nli_passing", {
        "model": str(model_dir), "files": [p.name for p in files], "pairs": len(scored), "entailed": entailed,
        "non_entailed": non_entailed, "rows": table, "blind_first": blind,
        "rule": f"the lowest threshold whose passes are right at least {MIN_PRECISION:.0%} of the time, with at least "
                f"{MIN_PASSES} passes and false passes at most {MAX_FALSE_PASS_RATE:.0%} of the non-entailed pairs; none if no threshold qualifies",
        "chosen": chosen}))


if __name__ == "__main__":
    main()
