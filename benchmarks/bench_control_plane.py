"""Control-plane speed: schema gate latency, batched ledger appends, existence checks.

    python benchmarks/bench_control_plane.py [--quick]

Targets (issue 2): gate p99 < 1 ms for a 20-claim artifact on one core; >= 50,000 appended rows/s
batched; >= 1,000,000 id checks/s.

Existence checks (issue 13): ids seen before (found or not) are answered from memory; the rest by
one `id IN (...)` lookup on the BTREE id index. Measured: the warm rate (the target), a cold
lookup on a fresh read-only handle, and what a reader pays to see a new record (refresh + the
lookup of the missed id) against the full scan that used to rebuild an in-memory set of every id
on each refresh (`scan_rebuild`, the same table in the same run). The gate is timed without journaling (one journal write per
decision is a LanceDB commit, reported separately), pinned to one core where the OS allows;
appends run unpinned, since LanceDB writes with background threads.

Appends are timed twice in the same run, interleaved: as shipped (the head checkpoint is written
and fsynced after every commit, issue 10) and with the checkpoint switched off, to show its cost.
"""

from __future__ import annotations

import argparse
import gc
import os
import shutil
import tempfile
import time

from _common import percentile, write_result
from rich.console import Console
from rich.table import Table

from warrant.ledger import Journal, Ledger
from warrant.ledger.checkpoint import Checkpoints, Head
from warrant.ledger.evidence import _CHAINED, _SCHEMA, TABLE
from warrant.ledger.table import AppendOnlyTable
from warrant.runtime.gate import Gate

RUN = "bench_run"


class _NoCheckpoints:
    """The baseline only: a ledger that records no head checkpoint (what shipped before issue 10)."""

    def read(self) -> list:
        return []

    def record(self, table: str, head: object) -> None:
        pass


def bench_appends(ledgers: dict[str, Ledger], rows: int, batch: int) -> dict[str, dict]:
    """Append `rows` to each ledger in batches, alternating batch by batch between them so that
    load from the rest of a shared machine falls on both alike."""
    payloads = [f"Invoice INV-{i:06d} batch {batch} line {i % 40}: {i % 13 + 1}.0 hours at USD {200 + i % 150}/h." for i in range(rows)]
    commits: dict[str, list[float]] = {name: [] for name in ledgers}
    for s in range(0, rows, batch):
        turn = list(ledgers.items())
        for name, led in turn if (s // batch) % 2 == 0 else turn[::-1]:  # neither always goes first
            t0 = time.perf_counter()  # building the items counts, as it always has here
            led.append_many([led.item(RUN, f"{name} {p}", source={"document": "invoices.txt", "start": s}) for p in payloads[s : s + batch]])
            commits[name].append(time.perf_counter() - t0)
    out = {}
    for name, lat in commits.items():
        total = sum(lat)
        lat.sort()
        # The median commit as well as the total: a neighbour's burst lands on one batch or two.
        out[name] = {"rows": rows, "batch": batch, "seconds": total, "rows_per_s": rows / total, "p50_commit_ms": percentile(lat, 0.5) * 1e3}
    return out


def bench_checkpoint_writes(path: str, n: int) -> dict:
    """The head checkpoint write alone (lock, read, write, fsync, rename, fsync dir), per commit."""
    cps = Checkpoints(path)
    lat = []
    for i in range(n):
        t0 = time.perf_counter()
        cps.record("bench", Head(seq=i, hash=f"{i:064x}", version=i + 1))
        lat.append(time.perf_counter() - t0)
    lat.sort()
    return {"writes": n, "p50_ms": percentile(lat, 0.5) * 1e3, "p99_ms": percentile(lat, 0.99) * 1e3}


def bench_cold_exists(uri: str, ids: list[str], n: int) -> dict:
    """1,000 ids (half present) on a read-only handle that has never seen them: all index lookups."""
    lat, warm_s, warm_reps = [], 0.0, 200
    for k in range(n):
        r = Ledger.open(uri, writer=False)
        probe = ids[k * 500 : k * 500 + 500] + ["led_" + f"{k:08x}{i:024x}" for i in range(500)]
        t0 = time.perf_counter()
        missing = r.exists(RUN, probe)
        lat.append(time.perf_counter() - t0)
        t0 = time.perf_counter()  # the same ids again: what a replica's gate pays once it has seen them
        for _ in range(warm_reps):
            r.exists(RUN, probe)
        warm_s += time.perf_counter() - t0
        r.close()
        assert len(missing) == 500
    ms = percentile(sorted(lat), 0.5) * 1e3
    return {"batch": 1000, "handles": n, "ms": ms, "ids_per_s": 1000 / (ms / 1e3),
            "reader_warm_ids_per_s": n * warm_reps * 1000 / warm_s}


def bench_reader_miss(led: Ledger, uri: str, n: int) -> dict:
    """A reader (what a Ray replica holds) is asked about a record the writer appended after its
    last refresh: it misses, refreshes and looks again (actors.store.LedgerClient). Against it, in
    the same run, the full scan of (run_id, id) into per-run sets that each refresh used to do."""
    r = Ledger.open(uri, writer=False)
    new_ms, scan_ms = [], []
    for k in range(n):
        rid = led.append(RUN, f"reader probe {k}")
        t0 = time.perf_counter()
        if r.exists(RUN, [rid]):
            r.refresh()
            assert not r.exists(RUN, [rid])
        new_ms.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        index: dict[str, set[str]] = {}
        t = r._t.scan(["run_id", "id"])
        for run_id, i in zip(t["run_id"].to_pylist(), t["id"].to_pylist()):
            index.setdefault(run_id, set()).add(i)
        scan_ms.append(time.perf_counter() - t0)
    rows = r.count()
    r.close()
    return {"rows": rows, "n": n, "refresh_and_lookup_ms": percentile(sorted(new_ms), 0.5) * 1e3,
            "scan_rebuild_ms": percentile(sorted(scan_ms), 0.5) * 1e3}


def artifact(n_claims: int, ids: list[str]) -> dict:
    claims = []
    for i in range(n_claims):
        claims.append(
            {
                "id": f"c_{i}",
                "type": "Assertion",
                "text": f"Line {i} bills 12 hours at USD 300 per hour.",
                "propositions": [
                    {"id": f"p_{i}a", "pred": "line_rate", "args": {"line_id": str(i), "rate": 300}, "ledger_ids": [ids[i % len(ids)]]},
                    {"id": f"p_{i}b", "pred": "line_hours", "args": {"line_id": str(i), "hours": 12.0}, "ledger_ids": [ids[(i + 1) % len(ids)]]},
                ],
            }
        )
    return {"run_id": RUN, "from_agent": "analyst", "claims": claims, "open_questions": [], "action_intents": []}


def bench_gate(gate: Gate, doc: dict, seconds: float) -> dict:
    for _ in range(50):
        gate.check(doc)
    lat = []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        t0 = time.perf_counter()
        d = gate.check(doc)
        lat.append(time.perf_counter() - t0)
    assert d.passed, d.violations
    lat.sort()
    return {
        "decisions_per_s": len(lat) / sum(lat),
        "p50_ms": percentile(lat, 0.50) * 1e3,
        "p99_ms": percentile(lat, 0.99) * 1e3,
        "n": len(lat),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="shorter runs (smoke test)")
    args = ap.parse_args()
    secs = 0.5 if args.quick else 3.0
    rows = 20_000 if args.quick else 100_000
    pinned = False
    tmp = tempfile.mkdtemp(prefix="warrant-bench-")
    try:
        led = Ledger.open(tmp)
        bare = Ledger(AppendOnlyTable(os.path.join(tmp, "bare"), TABLE, _SCHEMA, _CHAINED, writer=True, checkpoints=_NoCheckpoints()))
        # -- appends, with and without the checkpoint, in the same run -------------------------
        appends, bare_appends = {}, {}
        for batch in (1000, 5000):
            got = bench_appends({"checkpointed": led, "bare": bare}, rows, batch)
            appends[str(batch)], bare_appends[str(batch)] = got["checkpointed"], got["bare"]
        bare.close()
        del bare  # its in-memory index would make every later GC pause (the gate's p99) longer
        gc.collect()
        checkpoint_writes = bench_checkpoint_writes(os.path.join(tmp, "cp"), 200)
        ids = sorted(led.ids(RUN))

        # -- existence checks ------------------------------------------------------------------
        probe = ids[:500] + ["led_" + f"{i:032x}" for i in range(500)]
        reps = 2000 if not args.quick else 300
        t0 = time.perf_counter()
        for _ in range(reps):
            missing = led.exists(RUN, probe)
        check_s = time.perf_counter() - t0
        assert len(missing) == 500
        cold = bench_cold_exists(tmp, ids, 5 if args.quick else 20)
        reader = bench_reader_miss(led, tmp, 5 if args.quick else 20)

        # -- gate: the target is per core, so pin to one (appends above use Lance's writer threads)
        try:
            os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
            pinned = True
        except (AttributeError, OSError):
            pass
        gate = Gate(led)
        gate_rows = {n: bench_gate(gate, artifact(n, ids), secs) for n in (1, 20, 200)}
        j = Journal.open(tmp)
        gj = Gate(led, journal=j)
        t0 = time.perf_counter()
        for _ in range(20):
            gj.check(artifact(20, ids))
        journaled_ms = (time.perf_counter() - t0) / 20 * 1e3
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    result = {
        "pinned_to_one_core": pinned,
        "ledger_append": appends,
        "ledger_append_without_checkpoint": bare_appends,
        "checkpoint_write": checkpoint_writes,
        "exists": {"batch": len(probe), "batches": reps, "ids_per_s": reps * len(probe) / check_s, "cold": cold, "reader_miss": reader},
        "gate": {str(k): v for k, v in gate_rows.items()},
        "gate_with_journal_20_claims_ms": journaled_ms,
        "targets": {"gate_p99_ms_20_claims": 1.0, "append_rows_per_s": 50_000, "ids_per_s": 1_000_000},
    }
    table = Table(title="Warrant control plane" + (" (gate pinned to one core)" if pinned else ""))
    table.add_column("measure")
    table.add_column("value", justify="right")
    table.add_column("target", justify="right")
    for batch, a in appends.items():
        table.add_row(f"ledger append, batches of {int(batch):,}: rows/s (p50 commit ms)", f"{a['rows_per_s']:,.0f} ({a['p50_commit_ms']:.1f})", ">= 50,000")
        b = bare_appends[batch]
        table.add_row("  same without the head checkpoint", f"{b['rows_per_s']:,.0f} ({b['p50_commit_ms']:.1f})", "")
    table.add_row("head checkpoint write per commit: p50 / p99 (ms)", f"{checkpoint_writes['p50_ms']:.2f} / {checkpoint_writes['p99_ms']:.2f}", "")
    table.add_row("existence checks, batches of 1,000 (ids/s)", f"{result['exists']['ids_per_s']:,.0f}", ">= 1,000,000")
    table.add_row(f"  cold, fresh read-only handle, {cold['batch']:,} ids on the index (ms / ids/s)", f"{cold['ms']:.1f} / {cold['ids_per_s']:,.0f}", "")
    table.add_row("  the same reader, the same ids again (ids/s)", f"{cold['reader_warm_ids_per_s']:,.0f}", ">= 1,000,000")
    table.add_row(f"  a reader sees a new record ({reader['rows']:,} rows): refresh + lookup (ms)", f"{reader['refresh_and_lookup_ms']:.1f}", "")
    table.add_row("  the same by full-scan rebuild (before issue 13) (ms)", f"{reader['scan_rebuild_ms']:.1f}", "")
    for n, g in gate_rows.items():
        tgt = "< 1 ms" if n == 20 else ""
        table.add_row(f"gate, {n} claims: decisions/s", f"{g['decisions_per_s']:,.0f}", "")
        table.add_row(f"gate, {n} claims: p50 / p99 (ms)", f"{g['p50_ms']:.3f} / {g['p99_ms']:.3f}", tgt)
    table.add_row("gate + journal write, 20 claims (ms, mean)", f"{journaled_ms:.2f}", "")
    Console().print(table)
    print("wrote", write_result("control_plane", result))


if __name__ == "__main__":
    main()
