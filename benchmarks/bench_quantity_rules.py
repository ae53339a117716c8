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

Also (unless --no-long): seconds for one claim against a generated CSV export of 300, 1,000 and
3,000 rows, and the ratio of the longest to the shortest per row (near 1: the cost per row stays
flat as the record grows). Every value of a long table asks for its sentence and for the values
beside it; measured before the boundary index and the binary search over values, this took 65 ms
a row at 300 rows and 73 ms a row at 1,000 (20 s and 73 s), a fresh scan of the 8,000 characters
around every value and each value's words masked against every value of the record.

Run: .venv/bin/python benchmarks/bench_quantity_rules.py [--verbose] [--no-cross] [--no-long]
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


def csv_export(rows: int) -> str:
    """A stock export of ``rows`` lines with a header, an identifier per row and five values a row."""
    lines = ["sku,description,qty,unit_price,amount,currency"]
    for i in range(rows):
        qty, price = 1 + (i * 37) % 90, (100 + (i * 7919) % 9900) / 100
        lines.append(f"SKU-{i:05d},Widget model {i},{qty},{price:.2f},{qty * price:.2f},USD")
    return "Stock export EX-9 generated 3 March 2026\n" + "\n".join(lines) + f"\nTotal lines: {rows}\n"


def long_tables(sizes=(300, 1000, 3000)) -> dict:
    claim = "SKU-00007 has a quantity of 12 at USD 14.50 each."
    out = []
    for rows in sizes:
        text = csv_export(rows)
        t0 = time.perf_counter()
        status = check_rules(claim, text).status
        secs = time.perf_counter() - t0
        out.append({"rows": rows, "chars": len(text), "seconds": round(secs, 3),
                    "ms_per_row": round(1000 * secs / rows, 3), "status": status})
    ratio = out[-1]["ms_per_row"] / out[0]["ms_per_row"] if out[0]["ms_per_row"] else None
    return {"claim": claim, "sizes": out, "per_row_ratio_longest_to_shortest": round(ratio, 2) if ratio else None}


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
    ap.add_argument("--no-long", action="store_true", help="skip the long-table timing")
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
    if not args.no_long:
        results["long_tables"] = long_tables()
        for r in results["long_tables"]["sizes"]:
            print(f"long table: {r['rows']:>5} rows ({r['chars']:,} chars) {r['seconds']:.2f} s, {r['ms_per_row']:.3f} ms a row")
        print(f"  cost per row, longest / shortest: {results['long_tables']['per_row_ratio_longest_to_shortest']}")
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
