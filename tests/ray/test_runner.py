"""Gate -> VerifierPool -> ToolBus on Ray: same verdicts as in-process; runs isolated from each other."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

import pytest
import ray
from ray import serve

from warrant.actors.runner import Runner, Runtime
from warrant.actors.verifier_pool import PoolConfig, pool_app
from warrant.ledger import Journal, Ledger
from warrant.runtime.gate import Gate
from warrant.runtime.grants import GrantBook
from warrant.runtime.registry import ToolRegistry
from warrant.runtime.toolbus import ToolBus
from warrant.runtime.verify.backends.registry import load_backend
from warrant.runtime.verify.verifier import Verifier
from tests.ray import corpus

EXAMPLE_TOOLS = str(Path(__file__).resolve().parents[2] / "examples" / "invoice_audit" / "tools")
TEST_TOOLS = str(Path(__file__).resolve().parent / "tools")


@pytest.fixture(scope="module")
def pool(shared, serve_port, model_spec):
    handle = serve.run(pool_app(shared.uri, PoolConfig(model=model_spec, num_replicas=1, num_cpus=0.5)), name="runner-pool", route_prefix=None)
    yield handle
    serve.delete("runner-pool")


def _summary(step):
    """What must agree between the modes: decisions, statuses, checkers, the evidence (exact
    bytes for deterministic checkers; the record for the model, see corpus.evidence_key)."""
    props = []
    if step["verdict"] is not None:
        for c in step["verdict"]["claims"]:
            for p in c["propositions"]:
                props.append((c["claim_id"], c["status"], p["proposition_id"], p["status"], p["checker"],
                              corpus.evidence_key(p["checker"], p["evidence"]), p["missing_args"]))
    return (
        step["gate"]["status"],
        [(v["code"], v["loc"]) for v in step["gate"]["violations"]],
        step["verdict"]["status"] if step["verdict"] else None,
        props,
        [(t["status"], t.get("tool"), t.get("args_hash")) for t in step["tool_calls"]],
    )


def test_in_process_and_ray_modes_give_identical_verdicts(shared, pool, model_spec, tmp_path):
    runs = ["eq_1", "eq_2"]
    corpus.populate(lambda items: shared.writer.append_evidence.remote(items), runs)
    work = {r: corpus.artifacts(r, shared.ids, n=4) for r in runs}
    # Resubmitting the first artifact makes the verifier consult the journal (rewording check).
    for r in runs:
        work[r].append(work[r][0])

    # In-process: one process, its own ledger directory with the same bytes (so the same ids).
    led, jr = Ledger.open(str(tmp_path / "local")), Journal.open(str(tmp_path / "local"))
    corpus.populate_local(led, runs)
    gate = Gate(led, tools=ToolRegistry.load(EXAMPLE_TOOLS), journal=jr)
    verifier = Verifier(led, None if model_spec == "none" else load_backend(model_spec), journal=jr)
    bus = ToolBus(ToolRegistry.load(EXAMPLE_TOOLS), led, jr, GrantBook(jr))
    local = {}
    for r in runs:
        steps = []
        for art in work[r]:
            d = gate.check(art, run_id=r)
            v = verifier.verify(art) if d.passed else None
            calls = [bus.propose(r, i) for i in art["action_intents"]] if d.passed else []
            steps.append({"gate": d.model_dump(mode="json"), "verdict": v.model_dump(mode="json") if v else None,
                          "tool_calls": [c.model_dump(mode="json") for c in calls]})
        local[r] = [_summary(s) for s in steps]

    rt = Runtime.start(shared.uri, pool, EXAMPLE_TOOLS, gates=2, toolbuses=1)
    runner = Runner(rt)
    results = asyncio.run(runner.run_many(work))
    remote = {r: [_summary(s.to_json()) for s in results[r].steps] for r in runs}
    assert all(results[r].ok for r in runs)
    for r in runs:
        for k, (got, want) in enumerate(zip(remote[r], local[r])):
            assert got == want, f"{r} step {k}:\nray:        {got}\nin-process: {want}"
    statuses = {p[3] for r in runs for s in local[r] for p in s[3]}
    assert {"supported", "contradicted", "unverifiable"} <= statuses  # the comparison covers them
    assert any(p[4] == "resubmission" for r in runs for p in local[r][-1][3])
    if model_spec != "none":
        assert any(p[4].startswith("nli:") for r in runs for s in local[r] for p in s[3])
    # The Ray mode journaled through the single writer: one verdict entry per claim per step.
    verdicts = rt.journal().entries("eq_1", kind="verdict")
    assert len(verdicts) == sum(len(a["claims"]) for a in work["eq_1"])


def _artifact(run_id, ids, tool, args):
    return {
        "run_id": run_id,
        "from_agent": "analyst",
        "claims": [corpus.assertion("c0", corpus.prop("p0", "line_rate", {"invoice_id": "INV-4421", "line_id": "14", "rate": 320}, [ids["invoice"]]))],
        "action_intents": [{"tool": tool, "args": args, "depends_on": ["c0"]}],
    }


def test_one_slow_and_one_failing_run_do_not_stall_the_others(shared, pool):
    runs = [f"iso_{i}" for i in range(10)] + ["iso_slow", "iso_broken"]
    corpus.populate(lambda items: shared.writer.append_evidence.remote(items), runs)
    rt = Runtime.start(shared.uri, pool, TEST_TOOLS, gates=2, toolbuses=2)
    runner = Runner(rt, step_timeout_s=120.0)
    work = {r: [_artifact(r, shared.ids, "lookup_invoice", {"invoice_id": "INV-4421"})] for r in runs[:10]}
    work["iso_slow"] = [_artifact("iso_slow", shared.ids, "slow_lookup", {"seconds": 8})]
    # Not serialisable: fails on the way to the gate, inside that run only.
    work["iso_broken"] = [dict(_artifact("iso_broken", shared.ids, "lookup_invoice", {"invoice_id": "INV-4421"}), lock=threading.Lock())]
    finished: dict[str, float] = {}

    async def timed(rid, arts):
        res = await runner.run(rid, arts, execute=True)
        finished[rid] = time.monotonic()
        return res

    async def main():
        return await asyncio.gather(*(timed(r, a) for r, a in work.items()))

    results = {r.run_id: r for r in asyncio.run(main())}
    for r in runs[:10]:
        assert results[r].ok, results[r].error
        (call,) = results[r].steps[0].tool_calls
        assert call.status == "ok" and call.output["invoice_id"] == "INV-4421"
    assert results["iso_slow"].ok and results["iso_slow"].steps[0].tool_calls[0].output == {"slept": 8}
    assert results["iso_broken"].error.startswith("step 0:") and not results["iso_broken"].steps
    # The healthy runs did not wait for the slow tool to finish.
    assert max(finished[r] for r in runs[:10]) < finished["iso_slow"]
    ray.get([b.stuck_calls.remote() for b in rt.toolbuses])  # the actors are alive and answering
