"""What each part of the control plane is worth, measured on the frozen gold sets in one run.

    .venv/bin/python benchmarks/bench_eval.py            # writes benchmarks/results/eval.json

Five control planes (runtime/evals/baselines.py), the same gold sets, the same scripted graphs:
(a) schema validation only, (b) "has a citation" only, (c) the NLI model alone, (d) the full
pipeline without the schema gate, (e) the full pipeline. Every configuration is judged the same
way (the full verifier plus the gold labels), so the figures differ only by what each plane let
through. Prints faithfulness, false passes (unfaithful claims delivered) and side-effect hygiene
for each, with bootstrap 95% intervals.

Then calibration: the judge's confidence on the full pipeline's matched propositions of every gold
set (both domains: invoice audit and accounts-payable three-way match) is fitted (temperature or
isotonic, chosen on a validation part) and the ECE before/after is reported on a separate part;
the fitted map is written to evals/invoice_audit/calibration.json, which `warrant eval
--calibration`, `ControlPlane.open(confidence_map=)` and `WARRANT_CONFIDENCE_MAP` apply.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from _common import ROOT, write_result  # noqa: E402  (sets the environment first)

from rich.console import Console
from rich.table import Table

from warrant.runtime.evals.baselines import setups
from warrant.runtime.evals.calibration import calibrate, family
from warrant.runtime.evals.evaluate import evaluate
from warrant.runtime.evals.goldset import load_gold
from warrant.runtime.evals.targets import resolve
from warrant.runtime.verify.backends import load_backend

GOLD_SETS = [
    ("evals/invoice_audit/gold", "warrant.evals.invoice_audit.graphs:honest"),
    ("evals/invoice_audit/gold_adversarial", "warrant.evals.invoice_audit.graphs:adversarial"),
    ("evals/ap_three_way_match/gold", "warrant.evals.ap_three_way_match.graphs:honest"),
    ("evals/ap_three_way_match/gold_adversarial", "warrant.evals.ap_three_way_match.graphs:adversarial"),
]
CALIBRATION_MAP = ROOT / "evals" / "invoice_audit" / "calibration.json"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--resamples", type=int, default=2000)
    ap.add_argument("--no-map", action="store_true", help="do not write the fitted confidence map")
    args = ap.parse_args()
    console = Console(width=170)
    backend = load_backend()
    rows, samples = [], []
    with tempfile.TemporaryDirectory(prefix="bench_eval_") as tmp:
        for gold_dir, graph in GOLD_SETS:
            gold = load_gold(ROOT / gold_dir)
            target, module = resolve(graph)
            for name, setup in setups(backend, module.policy()).items():
                started = time.perf_counter()
                result = evaluate(gold, target, setup, Path(tmp) / gold.name / name, graph=graph, setup_name=name,
                                  resamples=args.resamples)
                seconds = time.perf_counter() - started
                f = result.figures
                rows.append({
                    "gold": gold.name, "gold_hash": gold.hash, "config": name, "seconds": round(seconds, 2),
                    **{k: f[k].model_dump() for k in ("faithfulness", "hygiene", "side_effects_done", "coverage", "abstention_recall",
                                                      "verifier_agreement")},
                    "false_passes": len(result.false_passes),
                    "false_pass_ids": sorted({g for c in result.false_passes for g in c.gold} | {c.claim_id for c in result.false_passes if not c.gold}),
                    "hygiene_failures": result.counts["hygiene_failures"],
                    "hygiene_failure_codes": sorted({s.code for s in result.hygiene_failures if s.code}),
                    "delivered_blocking": result.counts["delivered_blocking"],
                })
                if name == "full":
                    samples += [(d.gold_id, family(d.checker, d.judge), d.confidence, (d.judge == "supported") == (d.expect == "supported"))
                                for d in result.agreement.judged if d.confidence is not None]
                console.print(f"[dim]{gold.name} {name}: {seconds:.1f} s[/]")
    fitted, report = calibrate(samples)
    if not args.no_map:
        fitted.save(CALIBRATION_MAP)
        report["map"] = str(CALIBRATION_MAP.relative_to(ROOT))
    _print(console, rows, report)
    path = write_result("eval", {"gold_sets": [g for g, _ in GOLD_SETS], "rows": rows, "calibration": report,
                                 "note": "one run, one machine: compare configurations within this file"})
    console.print(f"wrote {path}")


def _pct(f: dict) -> str:
    return "n/a" if f["value"] is None else f"{100 * f['value']:.1f}% [{100 * f['low']:.1f}, {100 * f['high']:.1f}]"


def _print(console: Console, rows: list[dict], cal: dict) -> None:
    t = Table(title="what each part of the control plane is worth (same gold sets, same graphs, one run)")
    for col in ("gold set", "plane", "faithfulness [95% CI]", "false passes", "hygiene [95% CI]", "hygiene failures", "side effects done", "s"):
        t.add_column(col)
    for r in rows:
        t.add_row(r["gold"], r["config"], _pct(r["faithfulness"]), str(r["false_passes"]), _pct(r["hygiene"]),
                  f"{r['hygiene_failures']} {', '.join(r['hygiene_failure_codes'])}".strip(), _pct(r["side_effects_done"]),
                  f"{r['seconds']:.1f}")
    console.print(t)
    console.print(f"calibration ({cal['method']}, validation n={cal['validation_n']}, test n={cal['test_n']}): "
                  f"ECE {cal['ece_before']:.3f} -> {cal['ece_after']:.3f} on the test part")


if __name__ == "__main__":
    main()
