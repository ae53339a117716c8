"""Human review at the irreversibility edge: how fast the policy decides, how fast the durable
queue takes items and decisions, and how many irreversible calls a person must see.

    python benchmarks/bench_review.py [--quick]

1. Review by exception: the invoice-audit demo (three invoices, the embedded NLI model) under its
   default policy (examples/invoice_audit/policy.yaml). Of the irreversible calls the agents'
   verified artifacts planned, the share the policy auto-approved and the share queued for a
   person (calls an agent made directly, without claims or a grant, are refused by the bus and
   counted apart: no person sees those either). The same share on the shipped gold sets
   (evals/*/gold*, each through its scripted graph with runtime/evals' harness, the full control
   plane and the graph module's default policy; nobody at the desk, so what needs a person is
   queued), per set and over both.
2. Auto-approval decisions per second: `ReviewPolicy.explain` over those calls' claim sets
   (pure evaluation, one core), and `Policy.try_grant` on the approvable call, which also
   journals the grant (one LanceDB commit per decision).
3. Queue throughput on the demo's ledger: enqueue N calls (each reads its claim set and appends
   one journal entry), list the queue, then approve N/2 (grant + decision + the tool call through
   the bus) and reject N/2.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from _common import ROOT, write_result
from bench_eval import GOLD_SETS
from rich.console import Console
from rich.table import Table

from warrant.examples.invoice_audit import tools_impl
from warrant.examples.invoice_audit import graph as example
from warrant.examples.invoice_audit.demo import run_demo
from warrant.runtime.claimset import claim_set
from warrant.runtime.contract import ActionIntent
from warrant.runtime.evals.goldset import load_gold
from warrant.runtime.evals.harness import Setup, run_gold
from warrant.runtime.evals.targets import resolve
from warrant.runtime.verify.backends import load_backend


def review_share(reports) -> dict:
    planned = [a for r in reports for a in r.actions]
    auto = [a for a in planned if a.status == "executed" and (a.grant_issuer or "").startswith("policy:")]
    queued = [a for a in planned if a.status == "queued_for_review"]
    direct = [c for r in reports for c in r.tool_calls if c.via == "agent" and c.status == "refused"]
    why: dict[str, int] = {}
    for a in queued:
        key = "claims not supported" if a.review.reason == "claims_unverified" else "supported, but no rule approves it"
        why[key] = why.get(key, 0) + 1
    n = len(auto) + len(queued)
    return {
        "irreversible_calls_planned": n,
        "auto_approved": len(auto),
        "queued_for_a_person": len(queued),
        "share_a_person_must_see": round(len(queued) / n, 4) if n else None,
        "queued_because": why,
        "refused_direct_agent_calls": len(direct),
        "calls": [{"invoice": r.task.get("invoice_id"), "tool": a.tool, "args": {k: v for k, v in a.args.items() if k != "body"},
                   "outcome": "auto-approved" if a in auto else a.status, "why": a.grant_issuer or (a.review.message if a.review else "")}
                  for r in reports for a in r.actions],
    }


def gold_share(backend, folder: Path) -> dict:
    """The share a person must see on each shipped gold set, run as bench_eval's "full" plane."""
    sets, reports = {}, []
    for gold_dir, graph in GOLD_SETS:
        gold = load_gold(ROOT / gold_dir)
        target, module = resolve(graph)
        policy = module.policy()
        t0 = time.perf_counter()
        runs = run_gold(gold, target, Setup(backend=backend, policy=policy), folder / gold.name)
        share = review_share([tr.report for tr in runs])
        sets[gold.name] = {"gold_hash": gold.hash, "graph": graph, "policy": f"{policy.name}.v{policy.version}", "tasks": len(runs),
                           "seconds": round(time.perf_counter() - t0, 1), **share}
        reports += [tr.report for tr in runs]
    total = review_share(reports)
    total.pop("calls")
    return {"sets": sets, "all": total}


def bench_policy(plane, reports, seconds: float) -> dict:
    cases = []
    for r in reports:
        for a in r.actions:
            tool = plane.registry.get(a.tool, None)
            cases.append((a.tool, tool.version, a.args, claim_set(plane.journal, r.run_id, a.depends_on), r.run_id, a.depends_on))
    pol = plane.policy
    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for tool, version, args, cs, _, _ in cases:
            pol.explain(tool, version, args, cs)
        n += len(cases)
    pure = n / (time.perf_counter() - t0)
    approvable = [c for c in cases if pol.explain(c[0], c[1], c[2], c[3]).outcome == "auto_approve"]
    lat = []
    for tool, version, args, cs, run_id, deps in approvable * max(1, int(50 // max(1, len(approvable)))):
        intent = ActionIntent(tool=tool, version=version, args=args, requires_grant=True, depends_on=deps)
        t = time.perf_counter()
        grant = pol.try_grant(run_id, intent, cs, plane.grants)
        lat.append(time.perf_counter() - t)
        assert grant is not None
    return {"cases": len(cases), "auto_approvable_cases": len(approvable), "explain_decisions_per_s": round(pure, 1),
            "try_grant_with_journaled_grant_per_s": round(len(lat) / sum(lat), 1) if lat else None,
            "try_grant_p50_ms": round(statistics.median(lat) * 1e3, 2) if lat else None}


def bench_queue(plane, reports, n: int) -> dict:
    [r] = [r for r in reports if r.task.get("invoice_id") == "INV-4421"]
    [email] = [a for a in r.actions if a.tool == "send_email"]
    version = plane.registry.get("send_email", None).version
    t0 = time.perf_counter()
    items = [plane.review.enqueue(run_id=r.run_id, agent="tool_caller", tool="send_email", version=version,
                                  args={**email.args, "subject": f"{email.args['subject']} #{i}"}, depends_on=email.depends_on,
                                  reason="no_policy_grant") for i in range(n)]
    enqueue_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    listed = plane.review.items()
    list_s = time.perf_counter() - t0
    half = n // 2
    t0 = time.perf_counter()
    for it in items[:half]:
        st = plane.review.approve(it.item_id, "bench.reviewer", args_hash=it.args_hash, claim_set_hash=it.claim_set_hash)
        assert st.status == "executed", st
    approve_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    for it in items[half:]:
        plane.review.reject(it.item_id, "bench.reviewer", "benchmark", args_hash=it.args_hash, claim_set_hash=it.claim_set_hash)
    reject_s = time.perf_counter() - t0
    sent = len(tools_impl.OUTBOX)
    assert sent == half, (sent, half)  # each approval made its call once
    return {"items": n, "enqueue_per_s": round(n / enqueue_s, 1), "list_queue_ms": round(list_s * 1e3, 1), "listed": len(listed),
            "approve_and_call_per_s": round(half / approve_s, 1), "reject_per_s": round((n - half) / reject_s, 1),
            "calls_made": sent, "journal_chain_ok": plane.journal.verify().ok}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="a smoke run: fewer items, shorter timings")
    args = ap.parse_args()
    console = Console()
    tmp = Path(tempfile.mkdtemp(prefix="bench_review_"))
    try:
        backend = load_backend()
        reports = run_demo(tmp / "demo", backend=backend, quiet=True)
        tools_impl.reset()
        share = review_share(reports)
        gold = gold_share(backend, tmp / "gold")
        plane = example.control_plane(str(tmp / "demo" / "ledger"), backend)
        try:
            policy = bench_policy(plane, reports, 0.5 if args.quick else 3.0)
            queue = bench_queue(plane, reports, 20 if args.quick else 200)
        finally:
            plane.close()
            tools_impl.reset()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    t = Table(title="review at the irreversibility edge (invoice-audit demo, default policy)")
    t.add_column("measure")
    t.add_column("value", justify="right")
    t.add_row("irreversible calls planned (verified artifacts)", str(share["irreversible_calls_planned"]))
    t.add_row("  auto-approved by policy", str(share["auto_approved"]))
    t.add_row("  queued for a person", str(share["queued_for_a_person"]))
    t.add_row("[bold]share a person must see[/]", f"{share['share_a_person_must_see']:.0%}")
    t.add_row("agent calls refused outright (no claims / no grant)", str(share["refused_direct_agent_calls"]))
    for name, g in [*gold["sets"].items(), ("both gold sets", gold["all"])]:
        must = g["share_a_person_must_see"]
        t.add_row(f"[bold]{name}: share a person must see[/]",
                  f"{must:.0%} ({g['queued_for_a_person']} of {g['irreversible_calls_planned']})" if must is not None else "no calls")
    t.add_row("policy decisions/s (explain, pure)", f"{policy['explain_decisions_per_s']:,.0f}")
    t.add_row("auto-approvals/s (try_grant, grant journaled)", f"{policy['try_grant_with_journaled_grant_per_s']:,.1f}")
    t.add_row(f"enqueue items/s ({queue['items']} items)", f"{queue['enqueue_per_s']:,.1f}")
    t.add_row("list the queue (ms)", f"{queue['list_queue_ms']:,.1f}")
    t.add_row("approve + make the call /s", f"{queue['approve_and_call_per_s']:,.1f}")
    t.add_row("reject /s", f"{queue['reject_per_s']:,.1f}")
    console.print(t)
    path = write_result("review", {"quick": args.quick, "review_by_exception": share, "gold_sets": gold, "policy": policy,
                                   "queue": queue})
    console.print(f"wrote {path}")


if __name__ == "__main__":
    main()
