"""Memory of `warrant ledger verify` against ledger size: it must stay flat (issue 10, item 5).

    python benchmarks/bench_ledger_verify.py [--quick] [--sizes-mb 20 200]

Builds ledgers of the given sizes on disk (evidence records of ~2 KB, a few journal entries),
then measures, each in its own process, peak resident memory (the kernel's maxrss, read with
wait4, children included) of:
- `warrant ledger verify` end to end (the command and its audit child);
- the audit child alone (`python -m warrant.ledger._audit_main`), and a process that only imports what it
  imports (the fixed cost);
- loading the whole table as the previous verify did (`scan().sort_by("seq").to_pylist()`), for
  comparison in the same run.
Prints a table and writes benchmarks/results/ledger_verify.json.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

from _common import ROOT, write_result
from rich.console import Console
from rich.table import Table

from warrant.ledger import Journal, Ledger
from warrant.ledger.journal import JournalKind

RECORD_BYTES = 2000
BATCH = 2000


def du_mb(path: str) -> float:
    total = 0
    for root, _, files in os.walk(path):
        total += sum(os.path.getsize(os.path.join(root, f)) for f in files)
    return total / 2**20


def build(path: str, target_mb: float) -> int:
    led, jr = Ledger.open(path), Journal.open(path)
    filler = ("Line item bills 12.0 hours at USD 300.00 per hour against the engagement letter cap. " * 40)[:RECORD_BYTES]
    rows, b = 0, 0
    while du_mb(path) < target_mb:
        led.append_many([led.item("run_bench", f"{b:06d}-{i:05d} {filler}") for i in range(BATCH)])
        jr.record("run_bench", JournalKind.VERDICT, f"c_{b}", {"claim_id": f"c_{b}", "status": "supported"})
        rows += BATCH
        b += 1
    led.close()
    jr.close()
    return rows


def peak(cmd: list[str]) -> dict:
    """Run `cmd`; its exit status, wall seconds and peak RSS in MiB (children included)."""
    with tempfile.TemporaryFile() as err:  # a file, not a pipe: nothing to drain while waiting
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
        seconds = time.perf_counter() - t0
        err.seek(0)
        tail = err.read().decode(errors="replace")[-300:]
    return {"exit": proc.returncode, "seconds": seconds, "peak_rss_mib": usage.ru_maxrss / 1024, "stderr": tail}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="smaller ledgers (5 and 50 MB)")
    ap.add_argument("--sizes-mb", type=float, nargs=2, default=None)
    ap.add_argument("--no-whole-load", action="store_true", help="skip the previous verify's whole-table load")
    args = ap.parse_args()
    sizes = args.sizes_mb or ([5.0, 50.0] if args.quick else [20.0, 200.0])
    py = sys.executable
    tmp = tempfile.mkdtemp(prefix="warrant-bench-verify-")
    rows = []
    try:
        fixed = peak([py, "-c", "import lance, warrant.ledger.audit"])
        for mb in sizes:
            path = os.path.join(tmp, f"ledger_{int(mb)}mb")
            t0 = time.perf_counter()
            n = build(path, mb)
            built_s = time.perf_counter() - t0
            size = du_mb(path)
            cli = peak([py, "-m", "warrant.runtime.cli", "ledger", "verify", "--ledger", path])
            child = peak([py, "-m", "warrant.ledger._audit_main", path])
            assert cli["exit"] == 0 and child["exit"] == 0, (cli, child)
            row = {"target_mb": mb, "size_mib": size, "records": n, "build_seconds": built_s, "verify_cli": cli, "audit_child": child}
            if not args.no_whole_load:
                load = "from warrant.ledger import Ledger; Ledger.open(%r, writer=False)._t.scan().sort_by('seq').to_pylist()" % path
                row["whole_table_load"] = peak([py, "-c", load])
            rows.append(row)
            shutil.rmtree(path, ignore_errors=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    small, large = rows[0], rows[-1]
    ratios = {
        "size": large["size_mib"] / small["size_mib"],
        "verify_cli_rss": large["verify_cli"]["peak_rss_mib"] / small["verify_cli"]["peak_rss_mib"],
        "audit_child_rss": large["audit_child"]["peak_rss_mib"] / small["audit_child"]["peak_rss_mib"],
    }
    if "whole_table_load" in small:
        ratios["whole_table_load_rss"] = large["whole_table_load"]["peak_rss_mib"] / small["whole_table_load"]["peak_rss_mib"]
    table = Table(title="warrant ledger verify: peak memory against ledger size")
    table.add_column("ledger")
    table.add_column("records", justify="right")
    table.add_column("verify peak MiB", justify="right")
    table.add_column("verify s", justify="right")
    table.add_column("audit child peak MiB", justify="right")
    table.add_column("whole load (old) peak MiB", justify="right")
    for r in rows:
        table.add_row(
            f"{r['size_mib']:.0f} MiB",
            f"{r['records']:,}",
            f"{r['verify_cli']['peak_rss_mib']:.0f}",
            f"{r['verify_cli']['seconds']:.1f}",
            f"{r['audit_child']['peak_rss_mib']:.0f}",
            f"{r['whole_table_load']['peak_rss_mib']:.0f}" if "whole_table_load" in r else "-",
        )
    table.add_row("large / small", f"{ratios['size']:.1f}x size", f"{ratios['verify_cli_rss']:.2f}x", "",
                  f"{ratios['audit_child_rss']:.2f}x", f"{ratios.get('whole_table_load_rss', float('nan')):.2f}x")
    Console().print(table)
    print(f"fixed cost (a process importing lance and the audit): {fixed['peak_rss_mib']:.0f} MiB")
    print("wrote", write_result("ledger_verify", {"sizes": rows, "ratios": ratios, "import_only": fixed}))


if __name__ == "__main__":
    main()
