"""Score a gold folder of typed claims through the real gate and Verifier.

    .venv/bin/python benchmarks/bench_packs.py --gold benchmarks/data/ap_dev

Gold folder: DIR/documents/* (text or JSON), DIR/manifest.json {"FILE": {"media_type", "title"}},
DIR/claims.jsonl, one claim a line: {"id", "text", "blocking", "expected", "propositions":
[{"pred", "args", "cites": [FILE...], "expected"}], "note"}. Every document is appended to a fresh
ledger; each claim becomes one artifact (one Assertion), gated then verified. A claim passes when
the gate passes it and the verifier supports it.

Prints and writes benchmarks/results/packs_<name>.json: the per-verdict confusion, blocking
contradicted/unsupported claims that passed (by id), the share of supported claims accepted,
per-predicate accuracy, and the same for propositions that cite JSON records.
Targets (issue 11): no blocking contradicted/unsupported claim passes; >= 85% of supported
claims accepted. Exit 0 when both hold, 1 when not, 2 on a malformed gold folder.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

from _common import frozen, write_result

from warrant.ledger import Journal, Ledger
from warrant.runtime.gate import Gate
from warrant.runtime.verify.verifier import Verifier

VERDICTS = ("supported", "contradicted", "unsupported", "unverifiable")


class GoldError(ValueError):
    pass


def load_gold(root: Path) -> tuple[dict, list[dict]]:
    try:
        manifest = json.loads((root / "manifest.json").read_text())
    except (OSError, ValueError) as exc:
        raise GoldError(f"{root}/manifest.json: {exc}") from None
    claims = []
    for n, line in enumerate((root / "claims.jsonl").read_text().splitlines(), 1):
        if not line.strip():
            continue
        try:
            c = json.loads(line)
        except ValueError as exc:
            raise GoldError(f"claims.jsonl line {n}: {exc}") from None
        for key in ("id", "text", "expected", "propositions"):
            if key not in c:
                raise GoldError(f"claims.jsonl line {n}: missing {key!r}")
        if c["expected"] not in ("supported", "contradicted", "unsupported"):
            raise GoldError(f"claims.jsonl line {n}: expected must be supported/contradicted/unsupported, got {c['expected']!r}")
        for p in c["propositions"]:
            for f in p.get("cites", []):
                if f not in manifest or not (root / "documents" / f).is_file():
                    raise GoldError(f"claims.jsonl line {n} ({c['id']}): cites {f!r}, which is not a document in the manifest")
        claims.append(c)
    return manifest, claims


def backend(spec: str):
    if spec == "none":
        return None
    from warrant.runtime.verify.backends import ModelMissingError, load_backend

    try:
        return load_backend(None if spec == "default" else spec)
    except ModelMissingError as exc:
        print(f"no NLI model ({exc}); statements will be unsupported", file=sys.stderr)
        return None


def run(root: Path, model: str) -> dict:
    manifest, claims = load_gold(root)
    with tempfile.TemporaryDirectory() as tmp:
        ledger, journal = Ledger.open(f"{tmp}/ledger"), Journal.open(f"{tmp}/ledger")
        # One run per gold claim: claims are judged independently, so the verifier's rule against
        # resubmitting a rejected proposition must not fire across two unrelated claims.
        docs = []
        for name, meta in sorted(manifest.items()):
            media = meta.get("media_type") or ("application/json" if name.endswith(".json") else "text/plain; charset=utf-8")
            docs.append((name, (root / "documents" / name).read_bytes(), media))
        run_of = {c["id"]: f"gold_{c['id']}" for c in claims}
        ids: dict[str, str] = {}
        for run_id in run_of.values():
            items = [Ledger.item(run_id, data, kind="tool_output" if "json" in media else "span", media_type=media, source={"document": name})
                     for name, data, media in docs]
            ids = dict(zip((d[0] for d in docs), ledger.append_many(items)))  # same bytes, same ids in every run
        gate, verifier = Gate(ledger, journal=journal), Verifier(ledger, backend(model), journal=journal)
        rows = []
        t0 = time.perf_counter()
        for c in claims:
            props = [
                {"id": f"{c['id']}.p{i}", "pred": p["pred"], "args": p.get("args", {}), "ledger_ids": [ids[f] for f in p.get("cites", [])]}
                for i, p in enumerate(c["propositions"])
            ]
            art = {"run_id": run_of[c["id"]], "from_agent": "bench", "claims": [{"id": c["id"], "type": "Assertion", "text": c["text"], "propositions": props}]}
            decision = gate.check(art)
            if decision.passed:
                v = verifier.verify(art)
                cv = v.claims[0]
                status, pv = cv.status, cv.propositions
            else:
                status, pv = "gate_rejected", []
            rows.append({
                "id": c["id"], "blocking": bool(c.get("blocking", True)), "expected": c["expected"], "got": status,
                "passed": status == "supported",
                "props": [
                    {"pred": gp["pred"], "expected": gp.get("expected", c["expected"]), "got": (pv[i].status if pv else "gate_rejected"),
                     "json": any("json" in (manifest[f].get("media_type") or f) for f in gp.get("cites", [])),
                     "reason": pv[i].reason if pv else "; ".join(x.message for x in decision.violations)}
                    for i, gp in enumerate(c["propositions"])
                ],
            })
        elapsed = time.perf_counter() - t0
        ledger.close(), journal.close()
    return summarise(rows, elapsed)


def summarise(rows: list[dict], elapsed: float) -> dict:
    confusion = {e: Counter() for e in ("supported", "contradicted", "unsupported")}
    for r in rows:
        confusion[r["expected"]][r["got"]] += 1
    false_passes = [r["id"] for r in rows if r["blocking"] and r["expected"] != "supported" and r["passed"]]
    sup = [r for r in rows if r["expected"] == "supported"]
    accepted = sum(r["passed"] for r in sup)
    per_pred: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    json_props = [0, 0]
    wrong = []
    for r in rows:
        for p in r["props"]:
            ok = p["got"] == p["expected"]
            per_pred[p["pred"]][0] += ok
            per_pred[p["pred"]][1] += 1
            if p["json"]:
                json_props[0] += ok
                json_props[1] += 1
            if not ok:
                wrong.append({"claim": r["id"], "pred": p["pred"], "expected": p["expected"], "got": p["got"], "reason": p["reason"][:300]})
    n_props = sum(v[1] for v in per_pred.values())
    return {
        "claims": len(rows),
        "propositions": n_props,
        "confusion": {e: dict(c) for e, c in confusion.items()},
        "blocking_false_passes": false_passes,
        "supported_accepted": {"accepted": accepted, "of": len(sup), "share": round(accepted / len(sup), 4) if sup else None},
        "proposition_accuracy": round(sum(v[0] for v in per_pred.values()) / n_props, 4) if n_props else None,
        "per_predicate_accuracy": {k: {"correct": v[0], "of": v[1], "accuracy": round(v[0] / v[1], 4)} for k, v in sorted(per_pred.items())},
        "json_propositions_accuracy": {"correct": json_props[0], "of": json_props[1]},
        "wrong_propositions": wrong,
        "targets": {"no_blocking_false_pass": not false_passes, "supported_accepted_ge_0.85": bool(sup) and accepted / len(sup) >= 0.85},
        "seconds": round(elapsed, 2),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--gold", type=Path, default=Path(__file__).parent / "data" / "ap_dev", help="gold folder (documents/, manifest.json, claims.jsonl)")
    ap.add_argument("--name", default=None, help="result name: results/packs_<name>.json (default: the folder's name)")
    ap.add_argument("--model", default="default", help="NLI backend for `statement` propositions: default, none, or a load_backend spec")
    a = ap.parse_args()
    try:
        res = run(a.gold, a.model)
    except GoldError as exc:
        print(f"bad gold folder: {exc}", file=sys.stderr)
        return 2
    name = a.name or a.gold.resolve().name
    path = write_result(f"packs_{name}", {"gold": str(a.gold), **frozen(a.gold), **res})
    print(f"{'expected':<14}" + "".join(f"{v:>14}" for v in (*VERDICTS, "gate_rejected")))
    for e, c in res["confusion"].items():
        print(f"{e:<14}" + "".join(f"{c.get(v, 0):>14}" for v in (*VERDICTS, "gate_rejected")))
    s = res["supported_accepted"]
    print(f"\nblocking contradicted/unsupported claims that passed: {len(res['blocking_false_passes'])} {res['blocking_false_passes']}")
    print(f"supported claims accepted: {s['accepted']}/{s['of']} ({s['share']})")
    print(f"propositions right: {res['proposition_accuracy']} ; citing JSON: {res['json_propositions_accuracy']['correct']}/{res['json_propositions_accuracy']['of']}")
    for k, v in res["per_predicate_accuracy"].items():
        print(f"  {k:<26} {v['correct']:>3}/{v['of']:<3} {v['accuracy']:.2f}")
    for w in res["wrong_propositions"]:
        print(f"  wrong: {w['claim']} {w['pred']} expected {w['expected']} got {w['got']}: {w['reason'][:160]}")
    print(f"\nwrote {path}")
    return 0 if all(res["targets"].values()) else 1


if __name__ == "__main__":
    sys.exit(main())
