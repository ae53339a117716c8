"""How throughput, wall time and cost grow with GPU replicas for a 10M-proposition document set.

    python benchmarks/scale_simulation.py [--per-replica P] [--gpu-usd-h 4.0] [--propositions 10e6]

A model, not a measurement. It starts from figures measured by bench_scale.py
(benchmarks/results/scale_cuda.json if present, else scale.json from CPU, marked as such) and
extrapolates with these stated assumptions:

1. Per-replica throughput P (propositions/s) is the measured 1-replica Serve figure. (The batch
   pipeline's measured figure includes its start-up, which a 10M-proposition job amortises.)
2. Replica efficiency: each doubling of replicas keeps a fraction e of the ideal gain
   (default 0.95: replicas share nothing but the object store and the router). It is NOT taken
   from the 2-replica CPU measurement, where two replicas share the same cores; that ratio is
   printed for reference. Throughput(n) = n * P * e^log2(n).
3. Shared services do not bound throughput below `--ceiling` propositions/s: the ledger is read
   directly from object storage by every replica (no actor hop), and verdicts are written as
   Parquet files per batch. Above it (default 200k/s: roughly what one S3 prefix serves in
   small GETs with caching of immutable spans) throughput stays flat.
4. Each GPU node needs `--cold-start-s` (default 180 s: node start, image pull, model load) once;
   cost is billed per GPU-second for the whole wall time, cold start included.
5. GPU price `--gpu-usd-h` (default 4.00 USD per GPU-hour; pass your provider's figure).

Prints a table per replica count and writes benchmarks/results/scale_simulation.json.
"""

from __future__ import annotations

import argparse
import json
import math

from _common import RESULTS, write_result
from rich.console import Console
from rich.table import Table


def measured() -> tuple[dict, str]:
    for name in ("scale_cuda", "scale"):
        path = RESULTS / f"{name}.json"
        if path.exists():
            return json.loads(path.read_text()), name
    return {}, "none"


def project(per_replica: float, efficiency: float, replicas: int, props: float, ceiling: float, cold_s: float, usd_h: float) -> dict:
    rate = min(ceiling, replicas * per_replica * efficiency ** math.log2(replicas)) if replicas > 1 else min(ceiling, per_replica)
    wall = cold_s + props / rate
    gpu_h = replicas * wall / 3600
    return {
        "replicas": replicas,
        "props_per_s": round(rate, 1),
        "wall_h": round(wall / 3600, 3),
        "gpu_hours": round(gpu_h, 2),
        "cost_usd": round(gpu_h * usd_h, 2),
        "usd_per_million": round(gpu_h * usd_h / (props / 1e6), 3),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--propositions", type=float, default=10e6)
    ap.add_argument("--per-replica", type=float, default=None, help="propositions/s of one GPU replica (default: measured)")
    ap.add_argument("--efficiency", type=float, default=None, help="throughput kept per doubling of replicas (default: measured, clamped)")
    ap.add_argument("--gpu-usd-h", type=float, default=4.0)
    ap.add_argument("--cold-start-s", type=float, default=180.0)
    ap.add_argument("--ceiling", type=float, default=200_000.0)
    ap.add_argument("--replicas", default="1,2,4,8,16,32,64")
    args = ap.parse_args()

    data, source = measured()
    tp = data.get("throughput", {})
    one = tp.get("Serve pool, 1 replica", {}).get("per_s")
    two = tp.get("Serve pool, 2 replicas", {}).get("per_s")
    batch = tp.get("Ray Data batch, 2 actors (incl. start-up)", {}).get("per_s")
    per = args.per_replica or one or 100.0
    eff = args.efficiency or 0.95
    measured_ratio = round(two / (2 * one), 3) if one and two else None
    rows = [project(per, eff, int(n), args.propositions, args.ceiling, args.cold_start_s, args.gpu_usd_h) for n in args.replicas.split(",")]

    t = Table(title=f"{args.propositions:,.0f} propositions; {per:,.1f}/s per replica ({source}); efficiency {eff:.2f}/doubling; ${args.gpu_usd_h}/GPU-h")
    for col in ("replicas", "props/s", "wall (h)", "GPU-hours", "cost (USD)", "USD per 1M"):
        t.add_column(col, justify="right")
    for r in rows:
        t.add_row(str(r["replicas"]), f"{r['props_per_s']:,.0f}", f"{r['wall_h']:.2f}", f"{r['gpu_hours']:.1f}", f"{r['cost_usd']:,.2f}", f"{r['usd_per_million']:.3f}")
    con = Console()
    con.print(t)
    con.print(f"measured 2-replica efficiency on {source}: {measured_ratio} (replicas sharing one machine's cores); batch pipeline incl. start-up: {batch} /s")
    if source != "scale_cuda":
        con.print("[yellow]per-replica figure is from CPU (no scale_cuda.json yet): run `bench_scale.py --device cuda` on a GPU, or pass --per-replica[/]")
    path = write_result(
        "scale_simulation",
        {"source": source, "per_replica_per_s": per, "efficiency": eff, "measured_two_replica_ratio": measured_ratio, "assumptions": {k: v for k, v in vars(args).items()}, "rows": rows},
    )
    con.print(f"wrote {path}")


if __name__ == "__main__":
    main()
