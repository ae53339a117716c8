"""The memory contamination experiment (seed 004), reproduced and taken onto real repositories.

    .venv/bin/python benchmarks/memory_contamination/run.py                       # this repository
    .venv/bin/python benchmarks/memory_contamination/run.py \
        --repo click=/tmp/memrepos/click --repo jinja=/tmp/memrepos/jinja \
        --speed-repo alembic=/tmp/memrepos/alembic

Each --repo is cloned into a temporary folder (its commits are checked out there, never in the
given repository). See README.md beside this file for the procedure and how to get the repositories.
Writes benchmarks/results/memory_contamination.json and prints the seed's table.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))
from _common import ROOT, percentile, write_result  # noqa: E402

from agents import AGENTS, Tally, decide  # noqa: E402
from facts import Fact, Pools, Snapshot, code_tokens, generate, grep, truth  # noqa: E402

from warrant.runtime.memory import Memory, Outcome, Status  # noqa: E402
from warrant.runtime.memory.head import GitHead  # noqa: E402
from warrant.runtime.memory.index import HeadIndex  # noqa: E402
from warrant.runtime.memory.memory import node_outcome  # noqa: E402

CONFIGS = {
    "append_only": "append-only memory (the seed's baseline)",
    "retraction": "+ retraction lifecycle (an honest session retracts what the code contradicts)",
    "prose_verify": "+ verify-on-read with prose anchors (Warrant: prose anchors may only be INCONCLUSIVE)",
    "seed_prose_rule": "+ verify-on-read with prose anchors under the seed's rule (token found -> VERIFIED, missing -> REFUTED)",
    "typed": "+ typed anchors with role and scope",
    # The same three read paths without the honest retraction session: what verify-on-read does alone.
    "prose_verify_only": "verify-on-read with prose anchors alone (no retraction session)",
    "seed_prose_rule_only": "the seed's prose rule alone (no retraction session)",
    "typed_only": "typed anchors with role and scope alone (no retraction session)",
}
# The seed's published figures (false-fact acceptance), where it gives one for a configuration.
SEED = {
    ("append_only", "A_memory_first"): 1.00,
    ("append_only", "A_code_first"): 0.12,
    ("retraction", "A_memory_first"): 0.12,
    ("seed_prose_rule", "A_code_first"): 0.0,
    ("seed_prose_rule", "A_memory_first"): 0.16,
    ("seed_prose_rule", "lazy"): 0.16,
}
TARGETS = {
    "false_fact_acceptance_max": 0.0,
    "true_fact_acceptance_min": 0.97,
    "verify_p99_ms_per_memory_warm": 5.0,
    "load_of_20_p99_ms": 50.0,
    "cold_build_s_50k_lines": 3.0,
    "incremental_10_files_ms": 200.0,
}


def git(repo: Path, *args: str) -> str:
    env = dict(os.environ, GIT_AUTHOR_NAME="bench", GIT_AUTHOR_EMAIL="bench@example.com", GIT_COMMITTER_NAME="bench", GIT_COMMITTER_EMAIL="bench@example.com")
    return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=True, env=env).stdout.strip()


def clone(src: Path, dest: Path) -> Path:
    subprocess.run(["git", "clone", "-q", "--no-hardlinks", str(src), str(dest)], check=True)
    return dest


def python_lines(snap: Snapshot) -> int:
    return sum((snap.text(p) or "").count("\n") for p in snap.blobs if p.endswith(".py"))


def read_label(fact: Fact, snap: Snapshot) -> str:
    if fact.label == "silent":
        return "silent"
    return "confirms" if truth(fact.claim, snap) else "contradicts"


class Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


# -- one configuration --------------------------------------------------------------------------
def run_config(config: str, facts: list[Fact], clone_path: Path, snap: Snapshot, work: Path, collect: list) -> dict[str, Any]:
    verify = config.startswith(("prose_verify", "seed_prose_rule", "typed"))
    typed = config.startswith("typed")
    seed_rule = config.startswith("seed_prose_rule")
    store = Path(tempfile.mkdtemp(dir=work, prefix=config + "-"))
    mem = Memory.open(str(store), repo=clone_path if verify else None)
    nodes = mem.add_many(
        [{"text": f.text, "author": "writer", "anchors": f.anchors if typed else []} for f in facts]
    )
    for f, n in zip(facts, nodes):
        f.node_id = n.id
    labels = {f.fid: read_label(f, snap) for f in facts}
    t0 = time.perf_counter()
    if config in ("retraction", "prose_verify", "seed_prose_rule", "typed"):  # session 1: an honest agent retracts what the code contradicts
        for f in facts:
            if labels[f.fid] == "contradicts":
                mem.retract(f.node_id, "the code says otherwise (read in context by A_code_first)", actor="A_code_first")
    session1_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    res = mem.load_memory("", limit=None, verify=verify)  # session 2: a fresh agent reads memory
    load_s = time.perf_counter() - t0
    loaded = {n.id: n for n in res.nodes}
    if seed_rule:
        loaded = {i: n for i, n in loaded.items() if not any(r.signal is Outcome.REFUTED for r in n.anchor_results)}
    verified = {i for i, n in loaded.items() if n.status is Status.VERIFIED or (seed_rule and n.anchor_results and all(r.signal is Outcome.VERIFIED for r in n.anchor_results))}
    memory_tokens = sum(len(n.text) for n in loaded.values()) // 4
    tallies = {a: Tally() for a in AGENTS}
    for f in facts:
        in_mem = f.node_id in loaded
        present = grep(f, snap) if in_mem else False
        for a in AGENTS:
            accepted, read = decide(a, f, labels[f.fid], in_mem, f.node_id in verified, present)
            t = tallies[a]
            if read:
                t.code_tokens += code_tokens(f, snap)
            if f.false:
                t.false_total += 1
                if accepted:
                    t.false_accepted += 1
                    t.accepted_false.append(f"{f.category}: {f.text}")
            else:
                t.true_total += 1
                t.true_accepted += accepted
    store_nodes = mem.store.nodes
    refuted = [n for n in store_nodes.values() if n.status is Status.REFUTED]
    receipts = mem.receipts()
    by_node = {f.node_id: f for f in facts}
    for r in receipts:
        if r.actor == "verify-on-read":
            collect.append((r, by_node[r.node_id]))
    true_ids = {f.node_id for f in facts if not f.false}
    out = {
        "agents": {a: tallies[a].as_dict(0 if a == "B" else memory_tokens) for a in AGENTS},
        "memory": {
            "contaminated_facts_left": sum(1 for f in facts if f.false and f.node_id in loaded),
            "false_total": sum(f.false for f in facts),
            "true_retained": round(len(true_ids & set(loaded)) / len(true_ids), 4) if true_ids else None,
            "true_wrongly_retired": sorted(by_node[i].text for i in true_ids if store_nodes[i].status in (Status.REFUTED, Status.SUSPECT))[:10],
            "true_wrongly_retired_count": sum(1 for i in true_ids if store_nodes[i].status in (Status.REFUTED, Status.SUSPECT)),
            "refuted": len(refuted),
            "receipts": len(receipts),
            "every_retirement_has_a_receipt": len(receipts) == len(refuted),
            "verified": sum(1 for n in loaded.values() if n.status is Status.VERIFIED),
            "inconclusive": sum(1 for n in loaded.values() if n.mark == "INCONCLUSIVE"),
            "load_s": round(load_s, 3),
            "session1_s": round(session1_s, 3),
            "chain_ok": mem.store.verify().ok,
        },
    }
    mem.close()
    return out


# -- HEAD moves from A to B ---------------------------------------------------------------------
def moved_head(clone_path: Path, head_b: str, back: int, n: int, seed: int, work: Path, collect: list) -> dict[str, Any]:
    count = int(git(clone_path, "rev-list", "--count", "--first-parent", head_b))
    back = min(back, count - 1)
    sha_a = git(clone_path, "rev-parse", f"{head_b}~{back}")
    git(clone_path, "checkout", "-q", "--detach", sha_a)
    snap_a = Snapshot(clone_path, sha_a)
    facts = generate(Pools(snap_a, None), n, seed, only_true=True)
    clock = Clock()
    store = Path(tempfile.mkdtemp(dir=work, prefix="moved-"))
    mem = Memory.open(str(store), repo=clone_path, clock=clock)
    nodes = mem.add_many([{"text": f.text, "author": "writer", "anchors": f.anchors} for f in facts])
    for f, node in zip(facts, nodes):
        f.node_id = node.id
    at_a = mem.load_memory("", limit=None)
    git(clone_path, "checkout", "-q", "--detach", head_b)
    clock.t += 31  # past the HEAD TTL
    snap_b = Snapshot(clone_path, head_b)
    t0 = time.perf_counter()
    at_b = mem.load_memory("", limit=None)
    load_b_s = time.perf_counter() - t0
    idx = mem.index.current()[1].stats
    loaded = {n.id: n for n in at_b.nodes}
    labels = {f.fid: read_label(f, snap_b) for f in facts}
    false_b = {f.node_id for f in facts if labels[f.fid] != "confirms"}
    tallies = {a: Tally() for a in AGENTS}
    for f in facts:
        in_mem = f.node_id in loaded
        present = grep(f, snap_b) if in_mem else False
        for a in AGENTS:
            accepted, read = decide(a, f, labels[f.fid], in_mem, in_mem and loaded[f.node_id].status is Status.VERIFIED, present)
            t = tallies[a]
            if f.node_id in false_b:
                t.false_total += 1
                t.false_accepted += accepted
                if accepted:
                    t.accepted_false.append(f"{f.category}: {f.text}")
            else:
                t.true_total += 1
                t.true_accepted += accepted
    retired = {r.node_id for r in at_b.retired}
    by_node = {f.node_id: f for f in facts}
    for r in at_b.retired:
        collect.append((r, by_node[r.node_id]))
    memory_tokens = sum(len(x.text) for x in loaded.values()) // 4
    out = {
        "commit_a": sha_a,
        "commit_b": head_b,
        "first_parent_commits_between": back,
        "facts_true_at_a": len(facts),
        "verified_at_a": sum(1 for x in at_a.nodes if x.status is Status.VERIFIED),
        "retired_at_a": len(at_a.retired),
        "false_at_b": len(false_b),
        "retired_at_b": len(retired),
        "false_at_b_retired": len(false_b & retired),
        "false_at_b_left_in_memory": len(false_b & set(loaded)),
        "true_at_b_retired": len(retired - false_b),
        "true_at_b_retired_examples": [by_node[i].text for i in sorted(retired - false_b)][:5],
        "index_update": {"mode": idx.mode, "seconds": round(idx.seconds, 3), "files_reparsed": idx.scanned},
        "load_at_b_s": round(load_b_s, 3),
        "agents": {a: tallies[a].as_dict(0 if a == "B" else memory_tokens) for a in AGENTS},
    }
    mem.close()
    return out


# -- speed --------------------------------------------------------------------------------------
def speed(clone_path: Path, facts: list[Fact], work: Path, rng: random.Random, quick: bool) -> dict[str, Any]:
    store = Path(tempfile.mkdtemp(dir=work, prefix="speed-"))
    mem = Memory.open(str(store), repo=clone_path)
    nodes = mem.add_many([{"text": f.text, "author": "writer", "anchors": f.anchors} for f in facts])
    mem.load_memory("", limit=None)  # warm: index built, transitions written
    _, index = mem.index.current()
    # Wall time on a shared machine includes other people's processes; CPU time is this
    # process's own work. Both are reported.
    per, per_cpu = [], []
    for _ in range(3):
        for n in nodes:
            t0, c0 = time.perf_counter(), time.process_time()
            node_outcome(mem._evaluate(n, index))
            per.append((time.perf_counter() - t0) * 1000)
            per_cpu.append((time.process_time() - c0) * 1000)
    per.sort()
    per_cpu.sort()
    words = sorted({w for f in facts if not f.false for w in f.text.replace("`", " ").split() if len(w) > 3 and w.isidentifier()})
    loads, loads_cpu, sizes = [], [], []
    for i in range(50 if quick else 300):
        q = rng.choice(words) if i % 5 else ""
        c0 = time.process_time()
        r = mem.load_memory(q, limit=20)
        loads_cpu.append((time.process_time() - c0) * 1000)
        loads.append(r.elapsed_ms)
        sizes.append(len(r.nodes))
    loads.sort()
    loads_cpu.sort()
    mem.close()
    return {
        "verify_per_memory_ms": {"p50": round(percentile(per, 0.5), 4), "p99": round(percentile(per, 0.99), 4), "cpu_p99": round(percentile(per_cpu, 0.99), 4), "samples": len(per)},
        "load_of_20_ms": {"p50": round(percentile(loads, 0.5), 3), "p99": round(percentile(loads, 0.99), 3), "cpu_p99": round(percentile(loads_cpu, 0.99), 3), "samples": len(loads), "mean_nodes": round(sum(sizes) / len(sizes), 1)},
    }


def index_speed(clone_path: Path, head: str, work: Path, quick: bool) -> dict[str, Any]:
    gh = GitHead(clone_path)
    cold = []
    lines = 0
    for _ in range(1 if quick else 3):
        idx = HeadIndex(gh, None).build(head)
        cold.append(idx.stats.seconds)
        lines = idx.stats.python_lines
    cache = Path(tempfile.mkdtemp(dir=work, prefix="cache-"))
    hi = HeadIndex(gh, cache)
    base = hi.for_commit(head)
    hi.flush()
    t0 = time.perf_counter()
    HeadIndex(gh, cache).for_commit(head)
    restart_s = time.perf_counter() - t0
    py = sorted(p for p in base.files if p.endswith(".py") and base.files[p].readable)
    inc = []
    pick = random.Random(7)
    for rep in range(2 if quick else 5):
        chosen = pick.sample(py, min(10, len(py)))  # a commit touching 10 Python files, drawn at random
        for i, p in enumerate(chosen):
            with open(clone_path / p, "a") as fh:
                fh.write(f"\n\ndef _bench_added_{rep}_{i}():\n    return {i}\n")
        git(clone_path, "add", "-A")
        git(clone_path, "commit", "-q", "-m", f"bench: touch 10 files ({rep})")
        new = git(clone_path, "rev-parse", "HEAD")
        idx = hi.for_commit(new)
        inc.append((idx.stats.seconds * 1000, idx.stats.scanned, idx.stats.python_lines))
    git(clone_path, "reset", "-q", "--hard", head)
    gh.close()
    return {
        "python_lines": lines,
        "cold_build_s": {"min": round(min(cold), 3), "median": round(sorted(cold)[len(cold) // 2], 3), "runs": len(cold)},
        "restart_load_from_arrow_s": round(restart_s, 3),
        "incremental_10_files_ms": {
            "max": round(max(m for m, _, _ in inc), 1),
            "median": round(sorted(m for m, _, _ in inc)[len(inc) // 2], 1),
            "runs_ms": [round(m, 1) for m, _, _ in inc],
            "files_reparsed": [s for _, s, _ in inc],
            "lines_reparsed": [n for _, _, n in inc],
        },
    }


# -- audit --------------------------------------------------------------------------------------
def audit(collected: list, clones: dict[str, Path], rng: random.Random, k: int = 50) -> dict[str, Any]:
    """50 retirements made by verify-on-read, re-checked against the code at the commit each
    receipt names, with the benchmark's own reading (facts.truth): a retirement is wrong if the
    fact holds there."""
    sample = rng.sample(collected, min(k, len(collected)))
    snaps: dict[tuple[str, str], Snapshot] = {}
    rows = []
    for repo, receipt, fact in sample:
        key = (repo, receipt.head)
        if key not in snaps:
            snaps[key] = Snapshot(clones[repo], receipt.head)
        holds = fact.label != "silent" and truth(fact.claim, snaps[key])
        rows.append({"repo": repo, "node": receipt.node_id, "receipt": receipt.receipt_id, "head": receipt.head[:12], "fact": fact.text, "label": fact.label, "reason": receipt.reason, "wrong": holds})
    return {"retirements_available": len(collected), "audited": len(rows), "wrong": sum(r["wrong"] for r in rows), "sample": rows}


# -- main ---------------------------------------------------------------------------------------
def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repo", action="append", default=[], help="NAME=PATH of a local git repository (repeatable; default: this repository)")
    ap.add_argument("--speed-repo", action="append", default=[], help="NAME=PATH of a repository measured for index speed only (e.g. a 50k-line one)")
    ap.add_argument("--n-small", type=int, default=50)
    ap.add_argument("--n-large", type=int, default=500)
    ap.add_argument("--moved-back", type=int, default=150, help="first-parent commits between A and B in the moved-HEAD protocol")
    ap.add_argument("--history-back", type=int, default=600, help="how far back removed classes, files and dependencies are looked for")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--quick", action="store_true", help="smoke run: N=50 only, fewer timing repetitions")
    ap.add_argument("--out", default="memory_contamination")
    args = ap.parse_args()
    repos = [tuple(r.split("=", 1)) for r in args.repo] or [("warrant", str(ROOT))]
    rng = random.Random(args.seed)
    load_start = [round(x, 2) for x in os.getloadavg()]  # the machine is shared: timings are read with this
    work = Path(tempfile.mkdtemp(prefix="memory-contamination-"))
    collected: list = []
    clones: dict[str, Path] = {}
    results: dict[str, Any] = {}
    try:
        for name, src in repos:
            c = clone(Path(src), work / f"clone-{name}")
            clones[name] = c
            head = git(c, "rev-parse", "HEAD")
            origin = git(Path(src), "config", "--get", "remote.origin.url") if _has_origin(Path(src)) else None
            snap = Snapshot(c, head)
            depth = int(git(c, "rev-list", "--count", "--first-parent", head))
            old_sha = git(c, "rev-parse", f"{head}~{min(args.history_back, depth - 1)}")
            pools = Pools(snap, Snapshot(c, old_sha))
            entry: dict[str, Any] = {"source": origin or src, "commit": head, "python_lines": python_lines(snap), "history_commit": old_sha}
            print(f"[{name}] {head[:12]}: {entry['python_lines']} lines of Python", flush=True)
            sizes = [args.n_small] if args.quick else [args.n_small, args.n_large]
            big_facts: list[Fact] = []
            for n in sizes:
                facts = generate(pools, n, args.seed)
                counts: dict[str, int] = {}
                for f in facts:
                    counts[f.category] = counts.get(f.category, 0) + 1
                block: dict[str, Any] = {"n": len(facts), "labels": {lab: sum(f.label == lab for f in facts) for lab in ("true", "contradict", "presence_trap", "silent")}, "categories": counts, "configs": {}}
                for config in CONFIGS:
                    fresh = [Fact(**{k: getattr(f, k) for k in ("fid", "label", "category", "text", "anchors", "claim", "token", "scope")}) for f in facts]
                    sink: list = []
                    block["configs"][config] = run_config(config, fresh, c, snap, work, sink)
                    collected += [(name, r, f) for r, f in sink]
                    print(f"  N={n} {config}: done", flush=True)
                entry[f"n{n}"] = block
                big_facts = facts
            entry["moved_head"] = moved_head(c, head, args.moved_back, args.n_small if args.quick else args.n_large // 2, args.seed, work, collected_moved := [])
            collected += [(name, r, f) for r, f in collected_moved]
            git(c, "checkout", "-q", "--detach", head)
            print("  moved HEAD: done", flush=True)
            entry["speed"] = speed(c, big_facts, work, rng, args.quick)
            entry["index"] = index_speed(c, head, work, args.quick)
            print("  speed: done", flush=True)
            results[name] = entry
        speed_only = {}
        for name, src in (tuple(r.split("=", 1)) for r in args.speed_repo):
            c = clone(Path(src), work / f"speed-{name}")
            head = git(c, "rev-parse", "HEAD")
            origin = git(Path(src), "config", "--get", "remote.origin.url") if _has_origin(Path(src)) else None
            speed_only[name] = {"source": origin or src, "commit": head, **index_speed(c, head, work, args.quick)}
            print(f"[{name}] index speed: done", flush=True)
        audited = audit(collected, clones, rng)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    verdicts = judge(results, speed_only, audited)
    load_end = os.getloadavg()
    path = write_result(args.out, {"load_average_start": load_start, "load_average_end": [round(x, 2) for x in load_end],"configs": CONFIGS, "seed_figures": {f"{c}/{a}": v for (c, a), v in SEED.items()}, "targets": TARGETS, "repos": results, "index_speed_only": speed_only, "audit": audited, "verdicts": verdicts})
    print_table(results, speed_only, audited, verdicts)
    print(f"wrote {path}")


def _has_origin(p: Path) -> bool:
    return subprocess.run(["git", "config", "--get", "remote.origin.url"], cwd=p, capture_output=True).returncode == 0


def judge(results: dict, speed_only: dict, audited: dict) -> dict[str, Any]:
    v: dict[str, Any] = {}
    typed_false, typed_true, retained = [], [], []
    for name, e in results.items():
        for key in [k for k in e if k.startswith("n")]:
            if key == "name":
                continue
            for config in ("typed", "typed_only"):  # the targets are for Warrant's full read path
                c = e[key]["configs"][config]
                for a, t in c["agents"].items():
                    typed_false.append((f"{name}/{key}/{config}/{a}", t["false_fact_acceptance"]))
                    typed_true.append((f"{name}/{key}/{config}/{a}", t["true_fact_acceptance"]))
                retained.append((f"{name}/{key}/{config}", c["memory"]["true_retained"]))
        for a, t in e["moved_head"]["agents"].items():
            typed_false.append((f"{name}/moved_head/{a}", t["false_fact_acceptance"]))
            typed_true.append((f"{name}/moved_head/{a}", t["true_fact_acceptance"]))
    v["false_fact_acceptance_zero_everywhere"] = all((x or 0) <= TARGETS["false_fact_acceptance_max"] for _, x in typed_false)
    v["false_fact_acceptance_misses"] = [k for k, x in typed_false if (x or 0) > 0]
    v["true_fact_acceptance_min"] = min((x for _, x in typed_true if x is not None), default=None)
    v["true_retained_in_memory_min"] = min((x for _, x in retained if x is not None), default=None)
    v["audit_none_wrong"] = audited["wrong"] == 0 and audited["audited"] > 0
    per = [e["speed"]["verify_per_memory_ms"]["p99"] for e in results.values()]
    loads = [e["speed"]["load_of_20_ms"]["p99"] for e in results.values()]
    v["verify_p99_ms_per_memory_worst"] = max(per) if per else None
    v["load_of_20_p99_ms_worst"] = max(loads) if loads else None
    v["verify_cpu_p99_ms_per_memory_worst"] = max(e["speed"]["verify_per_memory_ms"]["cpu_p99"] for e in results.values()) if results else None
    v["load_of_20_cpu_p99_ms_worst"] = max(e["speed"]["load_of_20_ms"]["cpu_p99"] for e in results.values()) if results else None
    idx = {**{k: e["index"] for k, e in results.items()}, **speed_only}
    big = {k: x for k, x in idx.items() if x["python_lines"] >= 50_000}
    v["cold_build_for_50k_lines"] = {k: {"lines": x["python_lines"], "s": x["cold_build_s"]["median"]} for k, x in big.items()}
    v["incremental_10_files_ms_worst"] = max(x["incremental_10_files_ms"]["max"] for x in idx.values()) if idx else None
    return v


def print_table(results: dict, speed_only: dict, audited: dict, verdicts: dict) -> None:
    print()
    head = f"{'repo':<9}{'N':>5} {'configuration':<17}{'agent':<16}{'false acc':>10}{'seed':>7}{'true acc':>10}{'contam.':>9}{'ctx tok':>9}{'code tok':>10}"
    print(head)
    print("-" * len(head))
    for name, e in results.items():
        for key in [k for k in e if k.startswith("n") and k[1:].isdigit()]:
            for config, c in e[key]["configs"].items():
                for a, t in c["agents"].items():
                    seed = SEED.get((config, a))
                    print(f"{name:<9}{e[key]['n']:>5} {config:<17}{a:<16}{_pct(t['false_fact_acceptance']):>10}{_pct(seed):>7}{_pct(t['true_fact_acceptance']):>10}{c['memory']['contaminated_facts_left']:>9}{t['context_tokens']:>9}{t['code_tokens']:>10}")
        m = e["moved_head"]
        for a, t in m["agents"].items():
            print(f"{name:<9}{m['facts_true_at_a']:>5} {'moved_head':<17}{a:<16}{_pct(t['false_fact_acceptance']):>10}{'':>7}{_pct(t['true_fact_acceptance']):>10}{m['false_at_b_left_in_memory']:>9}{t['context_tokens']:>9}{t['code_tokens']:>10}")
    print()
    for name, e in results.items():
        s, i, m = e["speed"], e["index"], e["moved_head"]
        print(f"{name}: {e['python_lines']} lines @ {e['commit'][:12]}; verify/memory p99 {s['verify_per_memory_ms']['p99']} ms; load of 20 p99 {s['load_of_20_ms']['p99']} ms; "
              f"cold build {i['cold_build_s']['median']} s; incremental (10 files) max {i['incremental_10_files_ms']['max']} ms; "
              f"moved HEAD: {m['false_at_b']} facts made false, {m['false_at_b_retired']} retired, {m['true_at_b_retired']} true ones retired")
    for name, i in speed_only.items():
        print(f"{name}: {i['python_lines']} lines @ {i['commit'][:12]}; cold build {i['cold_build_s']['median']} s; incremental (10 files) max {i['incremental_10_files_ms']['max']} ms")
    print(f"audit: {audited['audited']} of {audited['retirements_available']} verify-on-read retirements re-checked against the code, {audited['wrong']} wrong")
    print("verdicts:", json.dumps(verdicts))


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.0f}%"


if __name__ == "__main__":
    main()
