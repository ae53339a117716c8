"""The VerifierPool on Serve: a burst of 1,000, a replica killed mid-batch, autoscaling 1 -> 2 -> 1."""

from __future__ import annotations

import threading
import time

import pytest
import ray
from ray import serve

from warrant.actors.verifier_pool import VERIFIER_DEPLOYMENT, PoolChecker, PoolConfig, pool_app
from warrant.ledger import Ledger
from warrant.runtime.contract import Claim, Proposition
from warrant.runtime.verify.backends.registry import load_backend
from warrant.runtime.verify.verifier import Verifier
from tests.ray import corpus


def _tasks(shared, n, **kw):
    return [(run, Claim.model_validate(c), Proposition.model_validate(p)) for run, c, p in corpus.propositions(corpus.RUNS, shared.ids, n, **kw)]


def _in_process(shared, tasks, model):
    """The same tasks through the in-process Verifier, in the input order."""
    v = Verifier(Ledger.open(shared.uri, writer=False), None if model == "none" else load_backend(model))
    by_run: dict[str, list[int]] = {}
    for i, (run, _, _) in enumerate(tasks):
        by_run.setdefault(run, []).append(i)
    out = [None] * len(tasks)
    for run, idx in by_run.items():
        for i, verdict in zip(idx, v.check(run, [tasks[i][1:] for i in idx])):
            out[i] = verdict
    return out


def _replicas(app: str) -> list[str]:
    st = serve.status().applications[app].deployments[VERIFIER_DEPLOYMENT]
    return [s for s, n in st.replica_states.items() for _ in range(n) if s == "RUNNING"]


def _replica_actors() -> list[str]:
    return [a["name"] for a in ray.util.list_named_actors(all_namespaces=True) if VERIFIER_DEPLOYMENT in a["name"] and "SERVE_REPLICA" in a["name"]]


def _wait(cond, timeout_s: float, what: str, explain=None) -> None:
    deadline = time.monotonic() + timeout_s
    while not cond():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout_s:g} s waiting for {what}" + (f"; {explain()}" if explain else ""))
        time.sleep(0.25)


def _autoscaler_view(app: str) -> str:
    """What Serve's controller believes about the load, for a failed autoscaling wait: the
    aggregated ongoing requests it scales on. A private testing hook of Ray 2.60, so best effort."""
    try:
        from ray.serve._private.common import DeploymentID

        controller = serve.context._global_client._controller
        dep = DeploymentID(name=VERIFIER_DEPLOYMENT, app_name=app)
        total = ray.get(controller._get_total_num_requests_for_deployment_for_testing.remote(dep), timeout=10)
        return f"the controller saw {total:.1f} ongoing requests, replica states {serve.status().applications[app].deployments[VERIFIER_DEPLOYMENT].replica_states}"
    except Exception as e:  # noqa: BLE001 - diagnostics must not hide the real failure
        return f"(no autoscaler view: {e!r})"


def test_a_burst_of_1000_concurrent_checks_is_answered_in_full(shared, serve_port):
    # Tiny payloads, decided by predicates: the burst tests admission and batching, not the model.
    cfg = PoolConfig(model="none", num_replicas=1, num_cpus=0.5, max_batch_size=128)
    handle = serve.run(pool_app(shared.uri, cfg), name="burst", route_prefix=None)
    tasks = _tasks(shared, 1000, deterministic_only=True)
    t0 = time.monotonic()
    responses = [handle.check.remote(run, c, p) for run, c, p in tasks]
    verdicts = [r.result(timeout_s=120) for r in responses]
    assert len(verdicts) == 1000
    print(f"burst answered in {time.monotonic() - t0:.1f} s")
    assert [(v.claim_id, v.proposition_id) for v in verdicts] == [(c.id, p.id) for _, c, p in tasks]
    assert [v.status for v in verdicts] == [v.status for v in _in_process(shared, tasks, "none")]
    info = handle.info.remote().result()
    assert info["checked"] == 1000 and info["batches"] < 1000  # batched, not one by one
    serve.delete("burst")


def test_a_replica_killed_mid_batch_loses_no_verdict_and_duplicates_none(shared, serve_port, model_spec):
    cfg = PoolConfig(model=model_spec, num_replicas=2, num_cpus=0.5, max_batch_size=8, batch_wait_timeout_s=0.05)
    handle = serve.run(pool_app(shared.uri, cfg), name="killpool", route_prefix=None)
    _wait(lambda: len(_replica_actors()) >= 2, 60, "two replicas")
    tasks = _tasks(shared, 160)
    pooled = PoolChecker(handle, retry_wait_s=0.2)
    out: dict[str, list] = {}

    def verify_all():
        by_run: dict[str, list] = {}
        for run, c, p in tasks:
            by_run.setdefault(run, []).append((c, p))
        out.update({run: pooled.check(run, tp) for run, tp in by_run.items()})

    t = threading.Thread(target=verify_all)
    t.start()
    time.sleep(1.0)
    victim = _replica_actors()[0]
    ray.kill(ray.get_actor(victim, namespace="serve"), no_restart=True)
    t.join(timeout=240)
    assert not t.is_alive()
    print(f"resent after the kill: {pooled.resent}")
    got = [(v.claim_id, v.proposition_id, v.status) for run in out for v in out[run]]
    assert len(got) == len(set(got)) == 160
    expected = {(c.id, p.id, v.status) for (run, c, p), v in zip(tasks, _in_process(shared, tasks, model_spec))}
    assert set(got) == expected
    serve.delete("killpool")


def test_the_pool_scales_from_one_to_two_replicas_under_load_and_back(shared, serve_port, model_spec):
    if model_spec == "none":
        pytest.skip("needs the embedded NLI model (models/nli-minilm-l6/*.onnx) to make requests slow enough to queue")
    cfg = PoolConfig(
        model=model_spec, min_replicas=1, max_replicas=2, initial_replicas=1, target_ongoing_requests=2,
        upscale_delay_s=0.5, downscale_delay_s=2.0, look_back_period_s=1.0, metrics_interval_s=0.5,
        num_cpus=0.5, max_batch_size=4, batch_wait_timeout_s=0.01,
    )
    handle = serve.run(pool_app(shared.uri, cfg), name="autoscale", route_prefix=None)
    assert len(_replicas("autoscale")) == 1
    stop = threading.Event()
    run, c, p = _tasks(shared, 6)[5]  # a model-checked statement: each check costs a model call

    def load():
        while not stop.is_set():
            for r in [handle.check.remote(run, c, p) for _ in range(24)]:
                r.result(timeout_s=120)

    threads = [threading.Thread(target=load) for _ in range(3)]
    for th in threads:
        th.start()
    try:
        # Generous: once, in a clean-clone run on 2 busy cores, no upscale came within 90 s.
        _wait(lambda: len(_replicas("autoscale")) == 2, 180, "the pool to scale up to 2 replicas", lambda: _autoscaler_view("autoscale"))
    finally:
        stop.set()
        for th in threads:
            th.join(timeout=120)
    _wait(lambda: len(_replicas("autoscale")) == 1, 90, "the pool to scale back down to 1 replica", lambda: _autoscaler_view("autoscale"))
    serve.delete("autoscale")
