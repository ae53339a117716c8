"""Verifier quality, measured the way users run it (the project's backend and Verifier).

    python benchmarks/bench_verifier_quality.py [--model SPEC] [--snli N] [--summ-docs N]

1. SNLI test accuracy of the backend alone (3-way argmax). Target >= 0.85.
2. HaluEval summarization (held out from training): each summary sentence becomes a `statement`
   proposition citing the document; a summary is "supported" when all its sentences are.
   Balanced accuracy, reported.
3. tests/data/verifier_pairs.jsonl (hand-written invoice / contract / policy pairs): the full
   pipeline (rules + model). Target: >= 0.95 accuracy on contradictions involving numbers, money,
   dates, percentages and negation.

Data for 1 and 2 comes from `benchmarks/nli_data.py` (built from PyPI packages, see MODELS.md).
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from collections import Counter, defaultdict

import numpy as np
from _common import ROOT, SNLI_TARGET, write_result
from rich.console import Console
from rich.table import Table

from ledger import Ledger
from runtime.contract import Claim, Proposition
from runtime.verify.backends import load_backend
from runtime.verify.spans import sentence_spans
from runtime.verify.verifier import Verifier

DATA = ROOT / "data" / "nli"
PAIRS = ROOT / "tests" / "data" / "verifier_pairs.jsonl"
HARD = {"number", "money", "date", "percent", "negation"}
LABEL_INDEX = {"entailment": 0, "neutral": 1, "contradiction": 2}


def read_jsonl(path, limit=0):
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return rows[:limit] if limit else rows


def ensure_data() -> None:
    if not (DATA / "snli_test.jsonl").is_file():
        import subprocess
        import sys

        subprocess.run([sys.executable, str(ROOT / "benchmarks" / "nli_data.py")], check=True)


def snli(backend, limit: int) -> dict:
    rows = read_jsonl(DATA / "snli_test.jsonl", limit)
    t0 = time.perf_counter()
    probs = backend.score([(r["premise"], r["hypothesis"]) for r in rows])
    secs = time.perf_counter() - t0
    gold = np.array([LABEL_INDEX[r["label"]] for r in rows])
    acc = float((probs.argmax(axis=1) == gold).mean())
    return {"pairs": len(rows), "accuracy": round(acc, 4), "pairs_per_s": round(len(rows) / secs, 1), "target": SNLI_TARGET}


def verify_statements(verifier: Verifier, ledger: Ledger, run: str, premise: str, hypotheses: list[str]):
    rid = ledger.append(run, premise)
    tasks = []
    for i, h in enumerate(hypotheses):
        claim = Claim(id=f"c{i}", type="Assertion", text=h, propositions=[Proposition(id=f"p{i}", pred="statement", args={"text": h}, ledger_ids=[rid])])
        tasks.append((claim, claim.propositions[0]))
    return verifier.check(run, tasks)


def halueval(verifier: Verifier, ledger: Ledger, docs: int) -> dict:
    rows = read_jsonl(DATA / "halueval_summ_test.jsonl")
    by_doc = defaultdict(list)
    for r in rows:
        by_doc[r.get("doc_id", r["premise"][:64])].append(r)
    picked = list(by_doc.values())[:docs]
    y, pred = [], []
    t0 = time.perf_counter()
    for di, group in enumerate(picked):
        for r in group:
            sents = [r["hypothesis"][a:b] for a, b in sentence_spans(r["hypothesis"])] or [r["hypothesis"]]
            verdicts = verify_statements(verifier, ledger, f"halu_{di}", r["premise"], sents)
            y.append(1 if r["label"] == "entailment" else 0)
            pred.append(int(all(v.status == "supported" for v in verdicts)))
    y, pred = np.array(y), np.array(pred)
    bal = float(((pred[y == 1] == 1).mean() + (pred[y == 0] == 0).mean()) / 2) if len(set(y)) == 2 else float("nan")
    return {"summaries": len(y), "documents": len(picked), "balanced_accuracy": round(bal, 4),
            "predicted_supported_rate": round(float(pred.mean()), 4), "seconds": round(time.perf_counter() - t0, 1)}


def pairs(verifier: Verifier, ledger: Ledger) -> dict:
    rows = read_jsonl(PAIRS)
    confusion = Counter()
    per_cat = defaultdict(lambda: [0, 0])
    hard = [0, 0]
    checkers = Counter()
    mistakes = []
    for r in rows:
        (v,) = verify_statements(verifier, ledger, f"pair_{r['id']}", r["premise"], [r["hypothesis"]])
        got = "unsupported" if v.status == "unverifiable" else v.status
        confusion[(r["label"], got)] += 1
        ok = got == r["label"]
        per_cat[r["category"]][0] += ok
        per_cat[r["category"]][1] += 1
        checkers[v.checker.split(":")[0]] += 1
        if r["label"] == "contradicted" and r["category"] in HARD:
            hard[0] += ok
            hard[1] += 1
        if not ok:
            mistakes.append({"id": r["id"], "label": r["label"], "got": v.status, "checker": v.checker, "reason": v.reason[:160]})
    total = sum(confusion.values())
    return {
        "pairs": total,
        "accuracy": round(sum(n for (g, p), n in confusion.items() if g == p) / total, 4),
        "hard_contradictions": {"correct": hard[0], "total": hard[1], "accuracy": round(hard[0] / max(1, hard[1]), 4), "target": 0.95},
        "supported_called_contradicted": confusion[("supported", "contradicted")],
        "by_label": {lab: {got: confusion[(lab, got)] for got in ("supported", "contradicted", "unsupported")} for lab in ("supported", "contradicted", "unsupported")},
        "by_category": {c: round(a / n, 4) for c, (a, n) in sorted(per_cat.items())},
        "decided_by": dict(checkers),
        "mistakes": mistakes,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", default=None, help="backend spec (default: the embedded int8 model)")
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--snli", type=int, default=0, help="first N SNLI test pairs (0 = all 9.8k)")
    ap.add_argument("--summ-docs", type=int, default=100, help="HaluEval summarization documents")
    args = ap.parse_args()
    ensure_data()
    backend = load_backend(args.model, device=args.device)
    with tempfile.TemporaryDirectory(prefix="warrant-quality-") as tmp:
        ledger = Ledger.open(tmp)
        verifier = Verifier(ledger, backend)
        res = {"backend": backend.name, "snli": snli(backend, args.snli), "verifier_pairs": pairs(verifier, ledger)}
        res["halueval_summarization"] = halueval(verifier, ledger, args.summ_docs)
    t = Table(title=f"Verifier quality ({backend.name})")
    t.add_column("measure")
    t.add_column("value", justify="right")
    t.add_column("target", justify="right")
    t.add_row(f"SNLI test accuracy ({res['snli']['pairs']} pairs)", f"{res['snli']['accuracy']:.3f}", f">= {SNLI_TARGET}")
    h = res["halueval_summarization"]
    t.add_row(f"HaluEval summarization balanced acc ({h['summaries']} summaries, held out)", f"{h['balanced_accuracy']:.3f}", "report")
    vp = res["verifier_pairs"]
    t.add_row(f"invoice/contract pairs, all ({vp['pairs']})", f"{vp['accuracy']:.3f}", "")
    hc = vp["hard_contradictions"]
    t.add_row(f"  contradictions with numbers/dates/negation ({hc['total']})", f"{hc['accuracy']:.3f}", ">= 0.95")
    t.add_row("  supported pairs called contradicted", str(vp["supported_called_contradicted"]), "0")
    for lab, row in vp["by_label"].items():
        t.add_row(f"  gold {lab}: -> sup / con / uns", " / ".join(str(row[k]) for k in ("supported", "contradicted", "unsupported")), "")
    Console().print(t)
    print("wrote", write_result("verifier_quality", res))


if __name__ == "__main__":
    main()
