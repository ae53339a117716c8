"""Verifier quality, measured the way users run it (the project's backend and Verifier).

    python benchmarks/bench_verifier_quality.py [--model SPEC] [--snli N] [--summ-docs N]
    python benchmarks/bench_verifier_quality.py --pairs-only                 # dev pairs only, ~1 min
    python benchmarks/bench_verifier_quality.py --heldout PATH               # dev and held-out side by side

1. SNLI test accuracy of the backend alone (3-way argmax). Target >= 0.85.
2. HaluEval summarization (held out from training): each summary sentence becomes a `statement`
   proposition citing the document; a summary is "supported" when all its sentences are.
   Balanced accuracy, reported.
3. The dev pairs (tests/data/verifier_pairs.jsonl, 174 hand-written invoice / contract / policy
   pairs, plus tests/data/verifier_pairs_extra.jsonl, invented documents of more genres, and
   verifier_pairs_long.jsonl / verifier_pairs_dev2.jsonl, 3-10 sentence documents with headers,
   tables and JSON, the second written by someone who did not write the rules), each
   hypothesis one `statement` citing its premise, through the full pipeline (rules + model):
   accuracy, false passes (non-entailed pairs called supported, over the non-entailed pairs),
   true claims called contradicted (over the entailed pairs), per category and per genre, with the
   failing ids. The dev set is also split in two halves by a hash of the id (dev-tune, dev-check):
   thresholds are chosen on dev-tune and checked on dev-check.
4. With --heldout PATH: the same figures for a held-out JSONL in the same format (id, genre,
   category, premise, hypothesis, label), reported beside the dev set, never used to tune.
   Targets on held-out: false passes <= 1% of non-entailed pairs, true claims called contradicted
   <= 3%, accuracy >= 0.80.

Data for 1 and 2 comes from `benchmarks/nli_data.py` (built from PyPI packages, see MODELS.md).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import asdict
from pathlib import Path

import numpy as np
from _common import DEV_PAIRS, ROOT, SNLI_TARGET, VALIDATION_PAIRS, frozen, write_result
from rich.console import Console
from rich.table import Table

from warrant.ledger import Ledger
from warrant.runtime.contract import Claim, Proposition
from warrant.runtime.verify.backends import load_backend
from warrant.runtime.verify.text import sentence_spans
from warrant.runtime.verify.verifier import Verifier

DATA = ROOT / "data" / "nli"
HARD = {"number", "money", "date", "percent", "negation"}
# the held-out file may use NLI labels
LABELS = {"supported": "supported", "entailment": "supported", "entailed": "supported",
          "contradicted": "contradicted", "contradiction": "contradicted",
          "unsupported": "unsupported", "neutral": "unsupported", "not_enough_info": "unsupported"}
TARGETS = {"false_pass_rate": 0.01, "true_called_contradicted_rate": 0.03, "accuracy": 0.80}
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


def dev_half(pair_id: str) -> str:
    """dev-tune or dev-check, by a hash of the id: deterministic, and blind to the content."""
    return "dev_tune" if hashlib.sha256(pair_id.encode()).digest()[0] % 2 == 0 else "dev_check"


def read_pairs(paths) -> list[dict]:
    rows = []
    for path in paths:
        if path.is_file():
            for r in read_jsonl(path):
                r.setdefault("genre", "legal_finance" if path.name == "verifier_pairs.jsonl" else "other")
                r["file"] = path.stem
                rows.append(r)
    return rows


def score_pairs(verifier: Verifier, ledger: Ledger, rows: list[dict], tag: str) -> list[dict]:
    """One verdict per pair: (id, genre, category, gold, got, checker, reason)."""
    out = []
    for r in rows:
        gold = LABELS.get(str(r["label"]).lower())
        if gold is None:
            print(f"{tag}: pair {r.get('id')!r} has label {r['label']!r}; expected one of {sorted(LABELS)}", file=sys.stderr)
            raise SystemExit(2)
        (v,) = verify_statements(verifier, ledger, f"{tag}_{r['id']}", r["premise"], [r["hypothesis"]])
        got = "unsupported" if v.status == "unverifiable" else v.status
        out.append({"id": r["id"], "file": r.get("file", tag), "genre": r.get("genre", "unknown"), "category": r.get("category", "unknown"),
                    "gold": gold, "got": got, "status": v.status, "checker": v.checker, "confidence": round(float(v.confidence), 4),
                    "reason": (v.reason or "")[:200]})
    return out


def summarise(scored: list[dict]) -> dict:
    """Accuracy, false-pass rate, true-called-contradicted rate, per category and genre, failing ids."""
    def rates(rs):
        n = len(rs)
        neg = [r for r in rs if r["gold"] != "supported"]
        pos = [r for r in rs if r["gold"] == "supported"]
        fp = [r for r in neg if r["got"] == "supported"]
        tc = [r for r in pos if r["got"] == "contradicted"]
        return {
            "pairs": n,
            "accuracy": round(sum(r["gold"] == r["got"] for r in rs) / n, 4) if n else None,
            "false_pass_rate": round(len(fp) / len(neg), 4) if neg else None,
            "false_passes": len(fp),
            "non_entailed": len(neg),
            "true_called_contradicted_rate": round(len(tc) / len(pos), 4) if pos else None,
            "true_called_contradicted": len(tc),
            "entailed": len(pos),
        }

    confusion = Counter((r["gold"], r["got"]) for r in scored)
    hard = [r for r in scored if r["gold"] == "contradicted" and r["category"] in HARD]
    res = rates(scored)
    res.update({
        "hard_contradictions": {"correct": sum(r["got"] == "contradicted" for r in hard), "total": len(hard),
                                "accuracy": round(sum(r["got"] == "contradicted" for r in hard) / max(1, len(hard)), 4)},
        "by_label": {lab: {got: confusion[(lab, got)] for got in ("supported", "contradicted", "unsupported")} for lab in ("supported", "contradicted", "unsupported")},
        "by_category": {c: rates([r for r in scored if r["category"] == c]) for c in sorted({r["category"] for r in scored})},
        "by_genre": {g: rates([r for r in scored if r["genre"] == g]) for g in sorted({r["genre"] for r in scored})},
        "decided_by": dict(Counter(r["checker"].split(":")[0] for r in scored)),
        "false_pass_ids": [r["id"] for r in scored if r["gold"] != "supported" and r["got"] == "supported"],
        "true_called_contradicted_ids": [r["id"] for r in scored if r["gold"] == "supported" and r["got"] == "contradicted"],
        "failing": [{k: r[k] for k in ("id", "genre", "category", "gold", "status", "checker", "reason")} for r in scored if r["gold"] != r["got"]],
    })
    return res


def pairs(verifier: Verifier, ledger: Ledger, heldout=None) -> dict:
    dev = score_pairs(verifier, ledger, read_pairs(DEV_PAIRS), "dev")
    out = {"dev": summarise(dev), "targets": TARGETS}
    if VALIDATION_PAIRS.is_file():
        out["validation"] = summarise(score_pairs(verifier, ledger, read_pairs([VALIDATION_PAIRS]), "validation"))
        out["validation"]["file"] = str(VALIDATION_PAIRS.relative_to(ROOT))
    for half in ("dev_tune", "dev_check"):
        out[half] = {k: v for k, v in summarise([r for r in dev if dev_half(r["id"]) == half]).items() if k not in ("failing", "by_category", "by_genre")}
    # each dev file apart, and its halves: a change that helps the short pairs may hurt the long ones
    out["dev_by_file"] = {
        f"{f}/{half}": {k: v for k, v in summarise(rs).items() if k in ("pairs", "accuracy", "false_passes", "non_entailed", "false_pass_rate", "true_called_contradicted", "entailed", "true_called_contradicted_rate")}
        for f in dict.fromkeys(r["file"] for r in dev) for half in ("all", "dev_tune", "dev_check")
        if (rs := [r for r in dev if r["file"] == f and half in ("all", dev_half(r["id"]))])
    }
    if heldout is not None:
        rows = read_jsonl(heldout)
        out["heldout"] = summarise(score_pairs(verifier, ledger, rows, "heldout"))
        out["heldout"]["file"] = str(heldout)
        out["heldout"]["sha256"] = hashlib.sha256(heldout.read_bytes()).hexdigest()
        out["heldout"].update(frozen(heldout))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", default=None, help="backend spec (default: the embedded int8 model)")
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--snli", type=int, default=0, help="first N SNLI test pairs (0 = all 9.8k)")
    ap.add_argument("--summ-docs", type=int, default=100, help="HaluEval summarization documents")
    ap.add_argument("--heldout", type=Path, default=None, help="held-out pairs JSONL (id, genre, category, premise, hypothesis, label)")
    ap.add_argument("--pairs-only", action="store_true", help="skip SNLI and HaluEval; write verifier_quality_pairs.json")
    args = ap.parse_args()
    if args.heldout is not None and not args.heldout.is_file():
        ap.error(f"--heldout: no such file {args.heldout}")  # exit 2: bad usage
    if not args.pairs_only:
        ensure_data()
    backend = load_backend(args.model, device=args.device)
    with tempfile.TemporaryDirectory(prefix="warrant-quality-") as tmp:
        ledger = Ledger.open(tmp)
        verifier = Verifier(ledger, backend)
        res = {"backend": backend.name, "config": asdict(verifier.config)}
        res["verifier_pairs"] = pairs(verifier, ledger, args.heldout)
        if not args.pairs_only:
            res["snli"] = snli(backend, args.snli)
            res["halueval_summarization"] = halueval(verifier, ledger, args.summ_docs)
    t = Table(title=f"Verifier quality ({backend.name})")
    t.add_column("measure")
    sets = [k for k in ("dev", "dev_tune", "dev_check", "validation", "heldout") if k in res["verifier_pairs"]]
    for k in sets:
        t.add_column(k, justify="right")
    t.add_column("target (held-out)", justify="right")
    vp = res["verifier_pairs"]
    t.add_row("pairs", *(str(vp[k]["pairs"]) for k in sets), "")
    t.add_row("accuracy", *(f"{vp[k]['accuracy']:.3f}" for k in sets), ">= 0.80")
    t.add_row("false passes / non-entailed", *(f"{vp[k]['false_passes']}/{vp[k]['non_entailed']} ({vp[k]['false_pass_rate']:.3f})" for k in sets), "<= 0.01")
    t.add_row("true called contradicted / entailed", *(f"{vp[k]['true_called_contradicted']}/{vp[k]['entailed']} ({vp[k]['true_called_contradicted_rate']:.3f})" for k in sets), "<= 0.03")
    t.add_row("contradictions with numbers/dates/negation", *(f"{vp[k]['hard_contradictions']['accuracy']:.3f}" for k in sets), "")
    if "snli" in res:
        t.add_row(f"SNLI test accuracy ({res['snli']['pairs']} pairs, backend alone)", f"{res['snli']['accuracy']:.3f}", *([""] * (len(sets) - 1)), f">= {SNLI_TARGET}")
        h = res["halueval_summarization"]
        t.add_row(f"HaluEval summarization balanced acc ({h['summaries']})", f"{h['balanced_accuracy']:.3f}", *([""] * (len(sets) - 1)), "report")
    Console().print(t)
    for k in sets:
        print(f"{k} false passes: {vp[k]['false_pass_ids'] if 'false_pass_ids' in vp[k] else ''}")
    print("wrote", write_result("verifier_quality_pairs" if args.pairs_only else "verifier_quality", res))


if __name__ == "__main__":
    main()
