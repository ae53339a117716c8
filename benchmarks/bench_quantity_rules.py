"""How the deterministic rules (quantities + negation) do on the hand-written verifier pairs.

For every pair in tests/data/verifier_pairs.jsonl the rules answer "conflict", "agree" or "absent".
Scoring, per gold label:
  supported:    agree = correct, conflict = wrong (the one error that must never happen), absent = absent
  contradicted: conflict = correct, agree = wrong, absent = absent
  unsupported:  absent = correct, conflict or agree = wrong
Also reported: recall of conflict on contradicted pairs whose category is number/money/date/
percent/negation (target >= 95%), for check_rules (quantities + negation folded, what the
verifier calls) and for check_quantities alone.

Also (unless --no-cross): every hypothesis against every OTHER premise of the set, a stress test of
the "tie to the same thing" rule on evidence the claim does not cite. Conflicts there are not
necessarily errors (many documents share a domain: another agreement's effective date does
contradict), but the rate shows how eagerly the rules fire on mismatched evidence.

Run: .venv/bin/python benchmarks/bench_quantity_rules.py [--verbose] [--no-cross]
Writes benchmarks/results/quantity_rules.json.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from warrant.runtime.verify.rules import check_quantities, check_rules  # noqa: E402

DATA = ROOT / "tests" / "data" / "verifier_pairs.jsonl"
OUT = ROOT / "benchmarks" / "results" / "quantity_rules.json"
RULE_CATEGORIES = {"number", "money", "date", "percent", "negation"}
CORRECT = {"supported": "agree", "contradicted": "conflict", "unsupported": "absent"}


def outcome(label: str, status: str) -> str:
    if status == CORRECT[label]:
        return "correct"
    if status == "absent":
        return "absent"
    return "wrong"


def score(pairs: list[dict], fn) -> dict:
    per_label: dict[str, Counter] = {k: Counter() for k in CORRECT}
    statuses: dict[str, Counter] = {k: Counter() for k in CORRECT}
    rows = []
    t0 = time.perf_counter()
    for p in pairs:
        r = fn(p["hypothesis"], p["premise"])
        o = outcome(p["label"], r.status)
        per_label[p["label"]][o] += 1
        statuses[p["label"]][r.status] += 1
        rows.append({"id": p["id"], "label": p["label"], "category": p["category"],
                     "status": r.status, "outcome": o, "reason": r.reason})
    elapsed = time.perf_counter() - t0
    rule_contra = [r for r in rows if r["label"] == "contradicted" and r["category"] in RULE_CATEGORIES]
    caught = sum(r["status"] == "conflict" for r in rule_contra)
    return {
        "per_label": {k: {"correct": v["correct"], "wrong": v["wrong"], "absent": v["absent"],
                          "n": sum(v.values())} for k, v in per_label.items()},
        "status_by_label": {k: dict(v) for k, v in statuses.items()},
        "conflict_on_supported": statuses["supported"]["conflict"],
        "agree_on_contradicted": statuses["contradicted"]["agree"],
        "rule_category_contradictions": len(rule_contra),
        "rule_category_caught": caught,
        "rule_category_recall": round(caught / len(rule_contra), 4) if rule_contra else None,
        "all_contradictions_caught": sum(r["status"] == "conflict" for r in rows if r["label"] == "contradicted"),
        "pairs_per_second": round(len(pairs) / elapsed, 1) if elapsed else None,
        "rows": rows,
    }


def print_table(name: str, res: dict) -> None:
    try:
        from rich.console import Console
        from rich.table import Table

        t = Table(title=name)
        for col in ("label", "n", "correct", "wrong", "absent"):
            t.add_column(col, justify="right" if col != "label" else "left")
        for lab, v in res["per_label"].items():
            t.add_row(lab, str(v["n"]), str(v["correct"]), str(v["wrong"]), str(v["absent"]))
        Console().print(t)
    except ImportError:  # plain fallback
        print(name)
        print(f"{'label':14}{'n':>5}{'correct':>9}{'wrong':>7}{'absent':>8}")
        for lab, v in res["per_label"].items():
            print(f"{lab:14}{v['n']:>5}{v['correct']:>9}{v['wrong']:>7}{v['absent']:>8}")
    print(
        f"  conflict on supported: {res['conflict_on_supported']}   agree on contradicted: "
        f"{res['agree_on_contradicted']}   number/money/date/percent/negation contradictions caught: "
        f"{res['rule_category_caught']}/{res['rule_category_contradictions']} "
        f"({100 * (res['rule_category_recall'] or 0):.1f}%)   {res['pairs_per_second']} pairs/s"
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--verbose", "-v", action="store_true", help="list every pair not decided correctly")
    ap.add_argument("--no-cross", action="store_true", help="skip the mismatched-evidence stress test")
    args = ap.parse_args()
    pairs = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line.strip()]
    results = {"dataset": str(DATA.relative_to(ROOT)), "n_pairs": len(pairs),
               "label_counts": dict(Counter(p["label"] for p in pairs))}
    for name, fn in (("check_rules (quantities + negation)", check_rules),
                     ("check_quantities alone", check_quantities)):
        res = score(pairs, fn)
        print_table(name, res)
        if args.verbose:
            for r in res["rows"]:
                if r["outcome"] != "correct":
                    print(f"    {r['id']:5} {r['label']:12} {r['category']:10} -> {r['status']:8} {r['reason']}")
        results["check_rules" if fn is check_rules else "check_quantities"] = res
    if not args.no_cross:
        premises = sorted({p["premise"] for p in pairs})
        n = fired = 0
        by_label: Counter = Counter()
        t0 = time.perf_counter()
        for p in pairs:
            for prem in premises:
                if prem == p["premise"]:
                    continue
                n += 1
                if check_rules(p["hypothesis"], prem).status == "conflict":
                    fired += 1
                    by_label[p["label"]] += 1
        elapsed = time.perf_counter() - t0
        results["cross"] = {"pairs": n, "conflicts": fired, "rate": round(fired / n, 5) if n else None,
                            "conflicts_by_hypothesis_label": dict(by_label),
                            "pairs_per_second": round(n / elapsed, 1) if elapsed else None}
        print(f"mismatched evidence (each hypothesis vs every other premise): {fired} conflicts in {n} pairs "
              f"({100 * fired / max(n, 1):.2f}%), by hypothesis label {dict(by_label)}")
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
