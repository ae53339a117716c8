"""Verifier throughput on Ray, as a ratio to the in-process verifier on the same input, same run.

    python benchmarks/bench_scale.py [--quick] [--device cuda] [--model SPEC]
    python benchmarks/bench_scale.py --admission [--concurrency 1000] [--max-in-flight 64] [--max-queued 64]

Measures propositions/s for: the in-process `Verifier.check` (the baseline), the Serve
VerifierPool with 1 and with 2 replicas (every proposition its own request, batched by
`@serve.batch`), and the Ray Data batch pipeline (`batch_verify`, 2 actors, including its start-up);
and the actor-hop overhead per artifact (one artifact at a time through Runner.submit:
GateActor -> VerifierPool -> ToolBusActor, against Gate + Verifier + ToolBus in one process).

The input is the invoice-audit corpus of tests/ray/corpus.py: half of the propositions are
model-checked statements, half are decided by predicates and rules, cycling over three runs.

CPU mode: on an N-core machine the in-process baseline and 1 replica use all N threads; with 2
replicas each gets N/2 threads (WARRANT_NLI_THREADS), so the ratio shows the cost of hosting, not
extra cores. `--device cuda` uses a torch checkpoint on the GPU (default
models/nli-minilm-l6/checkpoint), 2 replicas share the one GPU (num_gpus 0.5 each), and the
proposition count is sized from a warm-up so each phase takes ~25 s: the whole run finishes in
under 5 minutes on one H200.

`--admission` (issue 10): the HTTP API under a burst, on loopback. `--concurrency` clients each
send one request at the same moment to a `warrant serve` application with API tokens and
admission control (`--max-in-flight` per ingress replica, `--max-queued` more may wait, at most
`--max-artifacts-in-flight` artifacts verified at once, the rest get 503 + Retry-After): first
POST /evidence (a small new item each), then POST /artifacts (gate and verifier pool over the
invoice corpus). For each: how many were admitted (2xx), refused (503)
or lost (a timeout, a 5xx other than 503, a dropped connection), latency percentiles of the
admitted and of the refused, and whether the ledger holds exactly the admitted evidence. Target:
p99 of the admitted at most 5 s, the rest refused fast, none lost. With `--unbounded` the same
bursts also run against the API without admission control, for the ratio. Writes
`scale_admission.json`.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import shutil
import tempfile
import time
from pathlib import Path

from _common import ROOT, write_result

os.environ.setdefault("RAY_SERVE_QUEUE_LENGTH_RESPONSE_DEADLINE_S", "1.0")

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from warrant.ledger import canonical_json  # noqa: E402
from warrant.runtime.contract import Claim, Proposition  # noqa: E402
from tests.ray import corpus  # noqa: E402


def _tasks(ids, n):
    return [(r, Claim.model_validate(c), Proposition.model_validate(p)) for r, c, p in corpus.propositions(corpus.RUNS, ids, n)]


def in_process(uri, backend, tasks, batch=64) -> float:
    from warrant.ledger import Ledger
    from warrant.runtime.verify.verifier import Verifier

    v = Verifier(Ledger.open(uri, writer=False), backend)
    by_run: dict[str, list] = {}
    for r, c, p in tasks:
        by_run.setdefault(r, []).append((c, p))
    t0 = time.perf_counter()
    n = 0
    for r, tp in by_run.items():
        for i in range(0, len(tp), batch):
            n += len(v.check(r, tp[i : i + batch]))
    return n / (time.perf_counter() - t0)


def pool_rate(uri, tasks, cfg, name) -> tuple[float, dict]:
    from ray import serve

    from warrant.actors.verifier_pool import pool_app

    handle = serve.run(pool_app(uri, cfg), name=name, route_prefix=None)
    warm = [handle.check.remote(*t) for t in tasks[: 2 * cfg.max_batch_size]]
    [w.result() for w in warm]  # every replica has loaded its model and seen a batch
    t0 = time.perf_counter()
    out = [handle.check.remote(*t) for t in tasks]
    verdicts = [o.result(timeout_s=600) for o in out]
    rate = len(verdicts) / (time.perf_counter() - t0)
    serve.delete(name)
    return rate, {"replicas": cfg.num_replicas, "max_batch_size": cfg.max_batch_size}


def batch_rate(uri, tasks, model, device, workdir, actors, gpus) -> float:
    from warrant.actors.batch import batch_verify

    src = Path(workdir) / "claims.jsonl"
    src.write_text("".join(json.dumps({"run_id": r, "claim": c.model_dump(mode="json"), "proposition": p.model_dump(mode="json")}) + "\n" for r, c, p in tasks))
    out = Path(workdir) / "verdicts"
    shutil.rmtree(out, ignore_errors=True)
    rep = batch_verify(str(src), out, uri, model=model, device=device, min_actors=actors, max_actors=actors,
                       batch_size=128, num_cpus=1 if device == "cpu" else 1, num_gpus=gpus, progress=False)
    assert rep.written == len(tasks)
    return rep.written / rep.seconds


def hop_overhead(uri, writer, ids, pool_cfg, backend, tools, n_artifacts, workdir) -> dict:
    """Per-artifact latency, one at a time: in-process control plane vs the Ray-hosted one."""
    from ray import serve

    from warrant.actors.runner import Runner, Runtime
    from warrant.actors.verifier_pool import pool_app
    from warrant.ledger import Journal, Ledger
    from warrant.runtime.gate import Gate
    from warrant.runtime.grants import GrantBook
    from warrant.runtime.registry import ToolRegistry
    from warrant.runtime.toolbus import ToolBus
    from warrant.runtime.verify.verifier import Verifier

    runs = [f"hop_{i}" for i in range(n_artifacts)]
    corpus.populate(lambda items: writer.append_evidence.remote(items), runs)
    arts = [corpus.artifacts(r, ids, n=1)[0] for r in runs]
    local_uri = str(Path(workdir) / "local")
    led, jr = Ledger.open(local_uri), Journal.open(local_uri)
    corpus.populate_local(led, runs)
    reg = ToolRegistry.load(tools)
    gate, ver, bus = Gate(led, reg, jr), Verifier(led, backend, journal=jr), ToolBus(reg, led, jr, GrantBook(jr))
    local = []
    for a in arts:
        t0 = time.perf_counter()
        d = gate.check(a, run_id=a["run_id"])
        ver.verify(a)
        [bus.propose(a["run_id"], i) for i in a["action_intents"]]
        local.append(time.perf_counter() - t0)
        assert d.passed
    handle = serve.run(pool_app(uri, pool_cfg), name="hop", route_prefix=None)
    rt = Runtime.start(uri, handle, tools, gates=1, toolbuses=1)
    runner = Runner(rt)

    async def one_by_one():
        lat = []
        await runner.submit(arts[0], run_id=arts[0]["run_id"])  # warm: model, readers, actors
        for a in arts[1:]:
            t0 = time.perf_counter()
            await runner.submit(a, run_id=a["run_id"])
            lat.append(time.perf_counter() - t0)
        return lat

    remote = asyncio.run(one_by_one())
    serve.delete("hop")
    med = lambda xs: sorted(xs)[len(xs) // 2]  # noqa: E731
    return {
        "artifacts": len(arts),
        "in_process_ms": round(med(local[1:]) * 1e3, 2),
        "ray_ms": round(med(remote) * 1e3, 2),
        "overhead_ms": round((med(remote) - med(local[1:])) * 1e3, 2),
    }


def _burst(base: str, token: str, requests: list[tuple[str, dict]], timeout_s: float) -> list[dict]:
    """Send every request at once (one connection each); per request: status, seconds, Retry-After,
    body. aiohttp, not httpx: on a 2-core machine the client shares the CPU with the server, and
    aiohttp spends a fraction of httpx's time per request."""
    import aiohttp

    async def one(session, path, body):
        t0 = time.perf_counter()
        try:
            async with session.post(base + path, json=body) as r:
                payload = await r.json() if r.status == 200 else await r.read()
                return {"status": r.status, "s": time.perf_counter() - t0, "retry_after": r.headers.get("Retry-After"),
                        "json": payload if r.status == 200 else None}
        except (aiohttp.ClientError, asyncio.TimeoutError) as exc:
            return {"status": type(exc).__name__, "s": time.perf_counter() - t0, "retry_after": None, "json": None}

    async def run():
        conn = aiohttp.TCPConnector(limit=0, force_close=True)
        async with aiohttp.ClientSession(connector=conn, headers={"Authorization": f"Bearer {token}"},
                                         timeout=aiohttp.ClientTimeout(total=timeout_s)) as session:
            return await asyncio.gather(*(one(session, path, body) for path, body in requests))

    return asyncio.run(run())


def _summary(results: list[dict]) -> dict:
    from _common import percentile

    ok = sorted(r["s"] for r in results if r["status"] == 200)
    refused = sorted(r["s"] for r in results if r["status"] == 503)
    lost = [r["status"] for r in results if r["status"] not in (200, 503)]
    q = lambda xs, p: round(percentile(xs, p), 3) if xs else None  # noqa: E731
    return {
        "requests": len(results), "admitted": len(ok), "refused_503": len(refused), "lost": len(lost),
        "lost_kinds": sorted({str(k) for k in lost}),
        "refused_with_retry_after": sum(1 for r in results if r["status"] == 503 and r["retry_after"]),
        "admitted_p50_s": q(ok, 0.5), "admitted_p99_s": q(ok, 0.99), "admitted_max_s": q(ok, 1.0),
        "refused_p50_s": q(refused, 0.5), "refused_p99_s": q(refused, 0.99),
        "wall_s": round(max((r["s"] for r in results), default=0.0), 3),
    }


def admission(args) -> None:
    """The HTTP API under a burst of `args.concurrency` simultaneous requests (see the docstring)."""
    from ray import serve

    from warrant.actors.guard import ApiConfig
    from warrant.actors.ray_env import init
    from warrant.actors.serve_app import APP_NAME, ROUTE_PREFIX, build_app, serve_options
    from warrant.actors.verifier_pool import PoolConfig
    from warrant.ledger import Ledger
    from warrant.runtime.apitokens import SCOPES, TokenStore

    init(num_cpus=os.cpu_count() or 2, log_to_driver=False)
    port = 18000 + os.getpid() % 1000
    serve.start(**serve_options("127.0.0.1", port))
    work = tempfile.mkdtemp(prefix="warrant-bench-admission-")
    uri = str(Path(work) / "data" / "ledger")
    token, _ = TokenStore.for_ledger(uri).create(SCOPES, name="bench")
    model = args.model or "default"
    pool = PoolConfig(model=model, num_replicas=1, num_cpus=1, max_batch_size=64, batch_wait_timeout_s=0.02)
    base = f"http://127.0.0.1:{port}"
    n = args.concurrency
    bounded = {"max_in_flight": args.max_in_flight, "max_queued": args.max_queued, "max_artifacts_in_flight": args.max_artifacts_in_flight}
    # "Unbounded": what the API did before admission control (256 in flight, no queue limit).
    modes = [("bounded", bounded)] + ([("unbounded", {"max_in_flight": 256, "max_queued": 1_000_000, "max_artifacts_in_flight": 256})]
                                      if args.unbounded else [])
    out: dict = {"concurrency": n, "model": model, "settings": bounded, "phases": {}}
    for mode, limits in modes:
        cfg = ApiConfig(api_tokens=str(TokenStore.for_ledger(uri).path), **limits)
        serve.run(build_app(uri, pool=pool, gates=2, toolbuses=1, api=cfg), name=APP_NAME, route_prefix=ROUTE_PREFIX)
        import httpx

        with httpx.Client(base_url=base, headers={"Authorization": f"Bearer {token}"}, timeout=120) as c:
            runs = [f"adm_{mode}_{i}" for i in range(3)]
            ids = {}
            for r in runs:  # the evidence the artifacts cite, and a warm-up of every actor on the path
                got = c.post("/evidence", json={"run_id": r, "items": [{"text": corpus.LETTER}, {"data_b64": base64.b64encode(canonical_json(corpus.INVOICE)).decode(), "kind": "tool_output"},
                                                                     {"data_b64": base64.b64encode(canonical_json(corpus.TERMS)).decode(), "kind": "tool_output"}, {"text": corpus.TIMESHEET}]})
                got.raise_for_status()
                ids[r] = dict(zip(["letter", "invoice", "terms", "timesheet"], got.json()["ids"]))
                c.post("/artifacts", json=corpus.artifacts(r, ids[r], n=1)[0]).raise_for_status()
        ev_run = f"adm_{mode}_burst"
        phases = {
            "evidence": [("/evidence", {"run_id": ev_run, "items": [{"text": f"burst evidence item {i}"}]}) for i in range(n)],
            "artifacts": [("/artifacts", corpus.artifacts(runs[i % 3], ids[runs[i % 3]], n=1)[0]) for i in range(n)],
        }
        for phase, reqs in phases.items():
            res = _burst(base, token, reqs, args.timeout)
            summ = _summary(res)
            if phase == "evidence":
                led = Ledger.open(uri, writer=False)
                admitted_ids = {i for r in res if r["status"] == 200 for i in r["json"]["ids"]}
                stored = led.ids(ev_run)
                summ["ledger_holds_exactly_the_admitted"] = stored == admitted_ids
                summ["ledger_records"] = len(stored)
                led.close()
            out["phases"][f"{mode}/{phase}"] = summ
            time.sleep(2)  # let the refused requests' log lines and the queues drain
        serve.delete(APP_NAME)

    t = Table(title=f"HTTP API under {n} simultaneous requests (loopback): in flight {args.max_in_flight}, queue {args.max_queued}, "
                    f"artifacts in flight {args.max_artifacts_in_flight}")
    for col in ("phase", "admitted", "503", "lost", "admitted p50 s", "admitted p99 s", "refused p99 s", "wall s"):
        t.add_column(col, justify="left" if col == "phase" else "right", no_wrap=True)
    for name, sm in out["phases"].items():
        t.add_row(name, str(sm["admitted"]), str(sm["refused_503"]), str(sm["lost"]), str(sm["admitted_p50_s"]), str(sm["admitted_p99_s"]),
                  str(sm["refused_p99_s"]), str(sm["wall_s"]))
    con = Console(width=150)
    con.print(t)
    b = [v for k, v in out["phases"].items() if k.startswith("bounded/")]
    out["target"] = {"admitted_p99_s_max": 5.0, "met": all(v["lost"] == 0 and (v["admitted_p99_s"] or 0) <= 5.0 for v in b)}
    out["note"] = "2 shared cores: client, proxy, ingress, actors and pool share them; compare phases within one run"
    con.print(f"target (bounded: p99 of admitted <= 5 s, none lost): {'met' if out['target']['met'] else 'NOT met'}")
    con.print(f"wrote {write_result('scale_admission', out)}")
    serve.shutdown()
    shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="a smoke run: few propositions")
    ap.add_argument("--admission", action="store_true", help="the HTTP API under a burst (issue 10) instead of throughput")
    ap.add_argument("--concurrency", type=int, default=1000, help="--admission: simultaneous requests per phase")
    ap.add_argument("--max-in-flight", type=int, default=64, help="--admission: requests the ingress works on at once")
    ap.add_argument("--max-queued", type=int, default=64, help="--admission: requests that may wait before 503")
    ap.add_argument("--max-artifacts-in-flight", type=int, default=8, help="--admission: artifacts verified at once")
    ap.add_argument("--unbounded", action="store_true", help="--admission: also run without admission control, for the ratio")
    ap.add_argument("--timeout", type=float, default=120.0, help="--admission: client timeout per request (a timeout counts as lost)")
    ap.add_argument("--device", default="cpu", choices=["cpu", "cuda"])
    ap.add_argument("--model", default=None, help="backend spec (default: the embedded ONNX model on CPU, the torch checkpoint on CUDA)")
    ap.add_argument("-n", type=int, default=None, help="propositions per phase (default: sized from a warm-up)")
    args = ap.parse_args()
    if args.admission:
        return admission(args)

    import ray
    from ray import serve

    from warrant.actors.ledger_actor import ensure_ledger_actor
    from warrant.actors.serve_app import serve_options
    from warrant.actors.verifier_pool import PoolConfig, _load_backend

    cuda = args.device == "cuda"
    model = args.model or (f"torch:{ROOT / 'models' / 'nli-minilm-l6' / 'checkpoint'}" if cuda else "default")
    cpus = os.cpu_count() or 2
    from warrant.actors.ray_env import init

    init(num_cpus=cpus, num_gpus=1 if cuda else 0, log_to_driver=False)
    serve.start(**serve_options("127.0.0.1", 18000 + os.getpid() % 1000))
    work = tempfile.mkdtemp(prefix="warrant-bench-scale-")
    uri = str(Path(work) / "ledger")
    writer = ensure_ledger_actor(uri)
    ids = corpus.populate(lambda items: writer.append_evidence.remote(items), corpus.RUNS)
    backend = None if model == "none" else _load_backend(model, args.device)  # "none": a plumbing check only

    warm = _tasks(ids, 64)
    base_warm = in_process(uri, backend, warm)
    target_s = 5 if args.quick else 25
    n = args.n or max(64, min(200_000, int(base_warm * target_s)))
    if args.quick:
        n = min(n, 200)
    tasks = _tasks(ids, n)
    base = in_process(uri, backend, tasks)

    half = str(max(1, cpus // 2))
    one = PoolConfig(model=model, device=args.device, num_replicas=1, num_cpus=1, num_gpus=1.0 if cuda else 0.0,
                     max_batch_size=256 if cuda else 64, batch_wait_timeout_s=0.02)
    two = PoolConfig(**{**one.to_dict(), "num_replicas": 2, "num_gpus": 0.5 if cuda else 0.0,
                        "env_vars": None if cuda else {"WARRANT_NLI_THREADS": half}})
    r1, _ = pool_rate(uri, tasks, one, "scale1")
    r2, _ = pool_rate(uri, tasks, two, "scale2")
    rb = batch_rate(uri, tasks, model, args.device, work, 2, 0.5 if cuda else 0.0)
    hop = hop_overhead(uri, writer, ids, one, backend, str(ROOT / "examples" / "invoice_audit" / "tools"), 6 if args.quick else 21, work)

    rows = [
        ("in-process Verifier.check", base, 1.0),
        ("Serve pool, 1 replica", r1, r1 / base),
        ("Serve pool, 2 replicas", r2, r2 / base),
        ("Ray Data batch, 2 actors (incl. start-up)", rb, rb / base),
    ]
    t = Table(title=f"verifier throughput, {n} propositions, {args.device}, model {Path(model).name}")
    t.add_column("mode")
    t.add_column("propositions/s", justify="right")
    t.add_column("x in-process", justify="right")
    for name, rate, ratio in rows:
        t.add_row(name, f"{rate:,.1f}", f"{ratio:.2f}")
    con = Console()
    con.print(t)
    con.print(f"actor hop per artifact (median of {hop['artifacts'] - 1}): in-process {hop['in_process_ms']} ms, "
              f"Ray {hop['ray_ms']} ms, overhead {hop['overhead_ms']} ms")
    path = write_result(
        "scale" if args.device == "cpu" else "scale_cuda",
        {
            "device": args.device,
            "model": backend.name if backend else "none",
            "propositions": n,
            "quick": args.quick,
            "throughput": {name: {"per_s": round(rate, 2), "ratio": round(ratio, 3)} for name, rate, ratio in rows},
            "hop": hop,
            "note": "the machine is shared; compare figures within one run",
        },
    )
    con.print(f"wrote {path}")
    serve.shutdown()
    ray.shutdown()
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
