"""Verifier speed: propositions/s end to end (ledger read, chunking, rules, model), per backend.

    python benchmarks/bench_verifier.py [--n 300] [--backends onnx,torch]
    python benchmarks/bench_verifier.py --device cuda        # on a GPU machine, < 5 minutes
    python benchmarks/bench_verifier.py --latency-only       # the latency figure alone, ~1 minute

Short evidence: one record of under 64 tokens per proposition. Long: a ~256-token record, cut
into sentence chunks as the verifier does (max support over chunks). Hypotheses carry no
numbers, so every proposition reaches the model (the rules step would otherwise short-cut it).
Targets on a 2-core CPU with the int8 model: >= 150 propositions/s short, >= 40 long.

Latency (``--latency N``, default 200): one artifact with one `statement` proposition citing a
two-sentence record, gate plus verify in one process with the journal on, N times, through the
hand-off pipeline every transport uses (runtime/handoff.py `Handoffs.check`, which writes the
gate decision and the verdicts in one journal commit). Each artifact is new and cites a record of
its own (another invoice number) appended just before it, untimed, as a tool call would: nothing
is answered from a cache of the same claim or of a record read before. p50/p99 of the whole, and
of the verifier alone (with the journal commit). Target: p50 <= 15 ms on 2 cores.
``--latency-only`` measures this alone; ``--baseline`` adds, in the same run and alternating
artifact by artifact on a second ledger, the figures as shipped before the speed work: the gate
and the verifier each committing their own journal entries, the journal's (run, kind) index off,
the checkpoint written by rename, the ledger's record cache off and suggestions searched by Lance's
full-text index; and the ratio, which is what to
compare on a shared, noisy machine. It also runs the code as it is with only the single commit
undone (the gate commits apart: "two_commits") to show what that commit alone saves.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import tempfile
import time

from _common import write_result
from rich.console import Console
from rich.table import Table

from _common import percentile

from warrant.ledger import Journal, Ledger, evidence
from warrant.ledger.checkpoint import WRITE_ENV
from warrant.runtime.contract import Claim, Proposition
from warrant.runtime.gate import Gate
from warrant.runtime.handoff import Handoffs
from warrant.runtime.verify.backends import load_backend
from warrant.runtime.verify.backends.registry import default_model_dir
from warrant.runtime.verify.verifier import Verifier

PARTIES = ["Harbor Legal", "Meridian Logistics", "Northwind Audit", "Calder & Finch", "Ostrava Holdings", "Bellmont Insurance"]
SUBJECTS = ["the supplier", "the client", "the contractor", "the auditor", "the vendor", "the firm"]
DUTIES = [
    "shall keep timesheets for every billable task",
    "must obtain written approval before incurring travel costs",
    "may not subcontract any work without consent",
    "shall send invoices to the accounts payable mailbox",
    "must describe each line item in plain language",
    "shall retain supporting receipts for expenses",
    "may charge for document review performed by partners",
    "must notify the client of any conflict of interest",
]


def sentence(rng: random.Random) -> str:
    return f"Under the agreement with {rng.choice(PARTIES)}, {rng.choice(SUBJECTS)} {rng.choice(DUTIES)}."


def workload(rng: random.Random, n: int, long: bool):
    """(evidence text, hypothesis) pairs; hypotheses restate or twist one evidence sentence."""
    out = []
    for _ in range(n):
        sents = [sentence(rng) for _ in range(9 if long else 1)]
        target = rng.choice(sents)
        hyp = target if rng.random() < 0.5 else target.replace(" shall ", " shall not ").replace(" must ", " need not ")
        out.append((" ".join(sents), hyp.rstrip(".") + "."))
    return out


def run(backend, items, run_id: str) -> dict:
    with tempfile.TemporaryDirectory(prefix="warrant-bench-v-") as tmp:
        led = Ledger.open(tmp)
        ids = led.append_many([led.item(run_id, ev) for ev, _ in items])
        tasks = []
        for i, ((_, hyp), rid) in enumerate(zip(items, ids)):
            c = Claim(id=f"c{i}", type="Assertion", text=hyp, propositions=[Proposition(id=f"p{i}", pred="statement", args={"text": hyp}, ledger_ids=[rid])])
            tasks.append((c, c.propositions[0]))
        ver = Verifier(led, backend)
        ver.check(run_id, tasks[:8])  # warm-up: sessions, caches
        t0 = time.perf_counter()
        verdicts = ver.check(run_id, tasks)
        secs = time.perf_counter() - t0
    reached = sum(v.checker.startswith("nli") for v in verdicts)
    return {"propositions": len(tasks), "seconds": round(secs, 3), "props_per_s": round(len(tasks) / secs, 1), "reached_model": reached}


LAT_RECORD = "Invoice INV-2291 was issued by Meridian Logistics on 3 March 2026. The supplier shall keep timesheets for every billable task."


def _lat_artifact(i: int, rid: str) -> dict:
    return {"run_id": "lat", "from_agent": "analyst", "claims": [{"id": f"c{i}", "type": "Assertion", "text": "timesheets",
            "propositions": [{"id": f"p{i}", "pred": "statement", "args": {"text": "The supplier keeps timesheets for every billable task."}, "ledger_ids": [rid]}]}]}


@contextlib.contextmanager
def _switched_off(journal: Journal, off: bool):
    """The baseline: the journal's (run, kind) index off (every verify scans the run's verdicts),
    the checkpoint replaced by rename with two fsyncs, no record kept in memory by the ledger
    (every read is a LanceDB lookup) and suggestions for an unsupported claim searched by Lance's
    full-text index instead of in memory, as before issue 11's speed work."""
    if not off:
        yield
        return
    old = os.environ.get(WRITE_ENV)
    os.environ[WRITE_ENV] = "replace"
    journal.INDEX_KEYS = 0
    cache_max, evidence.RECORD_CACHE_MAX = evidence.RECORD_CACHE_MAX, -1
    search_max, evidence.SEARCH_INDEX_CHARS = evidence.SEARCH_INDEX_CHARS, -1
    try:
        yield
    finally:
        evidence.RECORD_CACHE_MAX = cache_max
        evidence.SEARCH_INDEX_CHARS = search_max
        del journal.INDEX_KEYS
        if old is None:
            os.environ.pop(WRITE_ENV)
        else:
            os.environ[WRITE_ENV] = old


class _Timed:
    """The verifier port with each `verify` call timed (the 'verifier alone' figure)."""

    def __init__(self, inner: Verifier, journals: bool):
        self._inner, self.journals, self.seconds = inner, journals, 0.0

    def verify(self, artifact, **kw):
        t = time.perf_counter()
        try:
            return self._inner.verify(artifact, **kw)
        finally:
            self.seconds = time.perf_counter() - t


def _summary(n: int, total: list[float], verify_only: list[float]) -> dict:
    total, verify_only = sorted(total), sorted(verify_only)
    return {"artifacts": n, "p50_ms": round(percentile(total, 0.5), 2), "p99_ms": round(percentile(total, 0.99), 2),
            "verify_p50_ms": round(percentile(verify_only, 0.5), 2), "verify_p99_ms": round(percentile(verify_only, 0.99), 2), "target_p50_ms": 15}


def latency(backend, n: int, *, baseline: bool = False) -> dict:
    """p50/p99 ms of gate + verify for one one-proposition artifact on a two-sentence record,
    through `Handoffs.check`, the claim decided by the model's reading (not by a rule). `baseline`: also run the same artifacts, alternating one by one on
    further ledgers, (a) as now but with the gate committing its decision apart from the verdicts
    ("two_commits": what the single commit saves), and (b) as before the speed work (that, plus
    `_switched_off`); adds "two_commits", "baseline" and the ratios of now to each."""
    # (name, the verifier journals the gate's decision, the speed-ups switched off)
    modes = [("now", True, False)] + ([("two_commits", False, False), ("baseline", False, True)] if baseline else [])
    with contextlib.ExitStack() as stack:
        pipes = []
        for _name, one_commit, _off in modes:
            tmp = stack.enter_context(tempfile.TemporaryDirectory(prefix="warrant-bench-lat-"))
            led, journal = Ledger.open(tmp), Journal.open(tmp)
            stack.callback(led.close)
            stack.callback(journal.close)
            timed = _Timed(Verifier(led, backend, journal=journal), journals=one_commit)
            # check() uses neither the tool bus nor the grants
            handoffs = Handoffs(gate=Gate(led, journal=journal), verifier=timed, bus=None, grants=None, journal=journal)
            pipes.append((journal, handoffs, timed, led))
        times = [([], []) for _ in modes]
        commits: list[set[int]] = [set() for _ in modes]
        for i in range(n + 10):
            for (_name, _one, off), (journal, handoffs, timed, led), (total, verify_only), seen in zip(modes, pipes, times, commits):
                with _switched_off(journal, off):
                    art = _lat_artifact(i, led.append("lat", LAT_RECORD.replace("INV-2291", f"INV-{2291 + i}")))
                    before = journal.version
                    t0 = time.perf_counter()
                    checked = handoffs.check(art, run_id="lat", sender="analyst")
                    t1 = time.perf_counter()
                    seen.add(journal.version - before)
                # the model reads the claim and leans supported; the embedded model passes nothing
                # alone, so the hand-off stops at the verifier with an Unsupported verdict and its
                # suggestions: the same rules, model call and journal entries, plus that search
                (p,) = checked.verdict.claims[0].propositions if checked.verdict else (None,)
                assert p is not None and p.checker.startswith("nli:") and p.confidence is not None, checked
                if i >= 10:  # warm-up: sessions, caches
                    total.append((t1 - t0) * 1000)
                    verify_only.append(timed.seconds * 1000)
    out = _summary(n, *times[0])
    for (name, _one, _off), t in list(zip(modes, times))[1:]:
        out[name] = _summary(n, *t)
    if baseline:
        keys = ("p50_ms", "p99_ms", "verify_p50_ms", "verify_p99_ms")
        out["ratio"] = {k: round(out[k] / out["baseline"][k], 3) for k in keys}
        out["ratio_to_two_commits"] = {k: round(out[k] / out["two_commits"][k], 3) for k in keys}
    # as counted (Lance versions of the journal table per hand-off), not as designed
    out["journal_commits_per_handoff"] = {name: sorted(c) for (name, _one, _off), c in zip(modes, commits)}
    return out


def print_latency(lat: dict) -> None:
    commits = lat.get("journal_commits_per_handoff", {})
    print(f"gate + verify, one proposition on a two-sentence record, journal on: p50 {lat['p50_ms']} ms, p99 {lat['p99_ms']} ms "
          f"(verifier alone p50 {lat['verify_p50_ms']} ms, p99 {lat['verify_p99_ms']} ms); target p50 <= {lat['target_p50_ms']} ms; "
          f"journal commits per hand-off {commits.get('now')}")
    for name, what, ratio in (("two_commits", "the gate commits its decision apart", "ratio_to_two_commits"),
                              ("baseline", "that, and journal index off, checkpoint by rename, no record cache", "ratio")):
        if name in lat:
            b = lat[name]
            print(f"  {name}, same run ({what}; {commits.get(name)} commits): p50 {b['p50_ms']} ms, p99 {b['p99_ms']} ms "
                  f"(verifier alone p50 {b['verify_p50_ms']} ms, p99 {b['verify_p99_ms']} ms); now / {name} {lat[ratio]}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=300, help="propositions per workload")
    ap.add_argument("--device", default="cpu", help="cpu or cuda")
    ap.add_argument("--latency", type=int, default=200, help="artifacts for the gate+verify latency (0 = skip)")
    ap.add_argument("--backends", default=None, help="comma list of backend specs (default: onnx int8 + torch fp32 checkpoint if built)")
    ap.add_argument("--latency-only", action="store_true",
                    help="measure only the gate+verify latency (--latency N artifacts) and write verifier_latency_<device>.json")
    ap.add_argument("--baseline", action="store_true",
                    help="latency also with the gate committing apart (two_commits), and with that plus the journal index off, the "
                         "checkpoint written by rename and no record cache (baseline), alternating artifact by artifact")
    args = ap.parse_args()
    if args.latency_only:
        lat = latency(load_backend(None, device=args.device), args.latency or 200, baseline=args.baseline)
        print_latency(lat)
        print("wrote", write_result(f"verifier_latency_{args.device}", {"device": args.device, "latency": lat}))
        return
    rng = random.Random(7)
    ckpt = default_model_dir() / "checkpoint"
    if args.backends:
        specs = args.backends.split(",")
    elif args.device == "cuda":
        specs = [f"torch:{ckpt}"] if ckpt.is_dir() else []
        args.n = max(args.n, 5000)  # a GPU needs a real queue; still well under 5 minutes on one H200
    else:
        specs = ["default"] + ([f"torch:{ckpt}"] if (ckpt / "config.json").is_file() else [])
    work = {"short (<64 tokens)": workload(rng, args.n, long=False), "long (~256 tokens)": workload(rng, max(50, args.n // 3), long=True)}
    results = {}
    for spec in specs:
        backend = load_backend(None if spec == "default" else spec, device=args.device)
        results[backend.name] = {name: run(backend, items, "bench") for name, items in work.items()}
    lat = latency(load_backend(None, device=args.device), args.latency, baseline=args.baseline) if args.latency else None
    t = Table(title=f"Verifier throughput, propositions/s end to end ({args.device})")
    t.add_column("backend")
    for name in work:
        t.add_column(name, justify="right")
    for b, row in results.items():
        t.add_row(b, *(f"{row[name]['props_per_s']:.1f}" for name in work))
    t.add_row("target (int8, 2-core CPU)", ">= 150", ">= 40")
    Console().print(t)
    names = list(results)
    ratio = None
    if len(names) == 2:
        ratio = {w: round(results[names[0]][w]["props_per_s"] / results[names[1]][w]["props_per_s"], 2) for w in work}
        print(f"{names[0]} / {names[1]} speed ratio (same run): {ratio}")
    if lat:
        print_latency(lat)
    print("wrote", write_result(f"verifier_speed_{args.device}", {"device": args.device, "results": results, "ratio_first_over_second": ratio, "latency": lat}))


if __name__ == "__main__":
    main()
