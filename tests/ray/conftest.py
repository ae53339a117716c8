"""One local Ray for the whole tests/ray session (2-6 s to start), Serve on loopback, and a
shared evidence corpus written through the LedgerActor."""

from __future__ import annotations

import os
import socket
from pathlib import Path

# Serve's autoscaler reads these when its controller starts; the defaults (10 s pushes) would make
# a 1 -> 2 -> 1 replica test take minutes. The local cluster's processes inherit this environment.
os.environ.setdefault("RAY_SERVE_HANDLE_AUTOSCALING_METRIC_PUSH_INTERVAL_S", "0.5")
os.environ.setdefault("RAY_SERVE_REPLICA_AUTOSCALING_METRIC_PUSH_INTERVAL_S", "0.5")
# Replicas, not handles, report the requests they are running. With handle-side reports (Ray's
# default) the autoscaling test failed inside the full suite: the controller saw 0.0 ongoing
# requests while ~72 were in flight from this process's handle. Queued requests still come from
# the handle.
os.environ.setdefault("RAY_SERVE_COLLECT_AUTOSCALING_METRICS_ON_HANDLE", "0")
# What `warrant serve` sets too: a replica busy with a batch answers queue-length probes late.
os.environ.setdefault("RAY_SERVE_QUEUE_LENGTH_RESPONSE_DEADLINE_S", "1.0")

import pytest  # noqa: E402

from tests.ray import corpus  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def ray_session():
    import ray

    from warrant.actors.ray_env import init

    # As `warrant serve` starts it: token authentication, loopback only. PYTHONPATH: workers
    # import test-only tool implementations (tests.ray.tools_slow).
    init(num_cpus=2, runtime_env={"env_vars": {"PYTHONPATH": str(ROOT)}})
    yield ray
    try:
        from ray import serve

        serve.shutdown()
    finally:
        ray.shutdown()


@pytest.fixture(scope="session")
def serve_port(ray_session):
    from ray import serve

    from warrant.actors.serve_app import serve_options

    port = free_port()
    serve.start(**serve_options("127.0.0.1", port))
    return port


@pytest.fixture(scope="session")
def model_spec() -> str:
    """The real embedded model when it is there; "none" otherwise (rules and predicates still
    decide; tests that need the model skip with a reason)."""
    return corpus.model_spec()


@pytest.fixture(scope="session")
def shared(ray_session, tmp_path_factory):
    """A ledger written through its LedgerActor, with the corpus's evidence for a few runs."""
    from warrant.actors.ledger_actor import ensure_ledger_actor

    uri = str(tmp_path_factory.mktemp("shared") / "ledger")
    writer = ensure_ledger_actor(uri)
    ids = corpus.populate(lambda items: writer.append_evidence.remote(items), corpus.RUNS)
    return corpus.Shared(uri, writer, ids)


def pytest_configure(config):
    # Ray Serve's own pydantic models warn at import; they are not ours to fix.
    config.addinivalue_line("filterwarnings", "ignore::DeprecationWarning:ray.*")
    config.addinivalue_line("filterwarnings", "ignore:Using extra keyword arguments on `Field`:DeprecationWarning")
