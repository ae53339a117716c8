"""The review page beside the Ray runtime: a call queued by the running runtime is approved on the
page, which works through the runtime's actors (no ledger writer of its own), and runs once."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from ray import serve
from typer.testing import CliRunner

from warrant.actors.ledger_actor import DuplicateEntry
from warrant.actors.review import attach, review_queue
from warrant.actors.runner import Runner, Runtime
from warrant.actors.store import JournalClient, LedgerClient
from warrant.actors.verifier_pool import PoolConfig, pool_app
from warrant.ledger.journal import JournalKind
from warrant.runtime.cli import app as cli
from warrant.runtime.review.auth import ReviewerBook
from warrant.runtime.review.ports import CallMaker, EvidenceReader, GrantIssuer, JournalPort, ReviewRuntimeError
from warrant.runtime.review.server import create_app
from tests.ray import corpus
from tests.review.conftest import PASSWORD, decision_form, login

EXAMPLE_TOOLS = str(Path(__file__).resolve().parents[2] / "examples" / "invoice_audit" / "tools")
RUN = "rv_ray_1"
FLAG = {"invoice_id": "INV-4421", "line_id": "14", "reason": "exceeds_cap"}


@pytest.fixture(scope="module")
def running(ray_session, serve_port, tmp_path_factory):
    """What `warrant serve` starts for a ledger: its named actors (prefix "warrant") and a pool;
    the Runner queues calls as its HTTP ingress does."""
    uri = str(tmp_path_factory.mktemp("review_ray") / "ledger")
    pool = serve.run(pool_app(uri, PoolConfig(model="none", num_replicas=1, num_cpus=0.25)), name="review-pool", route_prefix=None)
    rt = Runtime.start(uri, pool, EXAMPLE_TOOLS, gates=1, toolbuses=2, prefix="warrant")
    ids = corpus.populate(lambda items: rt.writer.append_evidence.remote(items), [RUN])
    yield rt, ids
    serve.delete("review-pool")


def _queue_flag(rt: Runtime, ids: dict[str, str]) -> str:
    art = {"run_id": RUN, "from_agent": "analyst",
           "claims": [corpus.assertion("c14", corpus.prop("p14", "exceeds_cap", {"invoice_id": "INV-4421", "line_id": "14"},
                                                          [ids["invoice"], ids["terms"]]))],
           "action_intents": [{"tool": "flag_invoice_line", "args": FLAG, "depends_on": ["c14"], "requires_grant": True}]}
    runner = Runner(rt, review=review_queue(rt))
    try:
        step = asyncio.run(runner.submit(art, run_id=RUN, execute=True))
    finally:
        runner.close()
    assert step.verdict is not None and step.verdict.passed, step.to_json()
    [out] = step.tool_calls
    assert (out.status, out.code) == ("refused", "grant_missing")  # no policy grants it: a person must see it
    [item_id] = step.queued
    assert step.to_json()["queued_for_review"] == [item_id]
    return item_id


def test_an_approval_on_the_page_beside_the_runtime_runs_the_call_once_through_its_actors(running):
    rt, ids = running
    item_id = _queue_flag(rt, ids)

    review = attach(rt.ledger_uri)  # as `warrant review serve --address auto` does (Ray already joined here)
    q = review.queue
    # Everything goes through the runtime's actors: journal and evidence clients, a ToolBusActor client.
    assert isinstance(q.journal, JournalClient) and isinstance(review.ledger, LedgerClient)
    assert isinstance(q.journal, JournalPort) and isinstance(q.grants, GrantIssuer) and isinstance(q.bus, CallMaker)
    assert isinstance(review.ledger, EvidenceReader)
    st = q.get(item_id)
    assert st.status == "pending" and st.item.agent == "analyst" and st.item.args == FLAG and st.item.reason == "no_policy_grant"
    assert st.item.spans, "the page shows the cited spans"

    book = ReviewerBook()
    book.add("dana", PASSWORD)
    app = create_app(q, book, review.ledger)
    try:
        with TestClient(app, base_url="http://127.0.0.1") as client:
            csrf = login(client)
            page = client.get(f"/items/{item_id}")
            assert page.status_code == 200 and 'id="approve"' in page.text and "<mark" in page.text
            r = client.post(f"/items/{item_id}/approve", data=decision_form(st, csrf), follow_redirects=False)
            assert r.status_code == 303, r.text
            replay = client.post(f"/items/{item_id}/approve", data=decision_form(st, csrf))
            assert replay.status_code == 409 and "already_decided" in replay.text
            assert 'id="call-outcome"><b>ok</b>' in client.get(f"/items/{item_id}").text
    finally:
        review.close()

    journal = rt.journal()
    [decision] = journal.entries(RUN, kind=JournalKind.REVIEW_DECISION, subject=item_id)
    gid = decision.payload["grant_id"]
    calls = [e.payload for e in journal.entries(RUN, kind=JournalKind.TOOL_CALL) if e.payload.get("tool") == "flag_invoice_line"]
    assert [c["status"] for c in calls if c.get("grant_id") == gid] == ["ok"]  # the approved call ran exactly once
    assert sum(c["status"] == "ok" for c in calls) == 1
    assert len(journal.entries(kind=JournalKind.GRANT_USED, subject=gid)) == 1
    assert journal.verify().ok  # the chain holds the item, the decision, the grant, the call

    # A second review page (another process) cannot decide the item again: the single writer
    # refuses a second decision per item, whatever that page's own reads said.
    with pytest.raises(DuplicateEntry):
        journal.record(RUN, JournalKind.REVIEW_DECISION, item_id, {**decision.payload, "reviewer": "eve"})
    assert len(journal.entries(RUN, kind=JournalKind.REVIEW_DECISION, subject=item_id)) == 1
    assert journal.verify().ok


def test_attaching_to_a_ledger_without_a_running_runtime_is_refused_with_what_to_do(running, tmp_path):
    missing = str(tmp_path / "nobody_serves_this")
    with pytest.raises(ReviewRuntimeError, match="warrant serve --ledger"):
        attach(missing)
    reviewers = tmp_path / "reviewers.json"
    book = ReviewerBook(path=reviewers)
    book.add("dana", PASSWORD)
    book.save()
    res = CliRunner().invoke(cli, ["review", "serve", "--address", "auto", "--ledger", missing, "--reviewers", str(reviewers)])
    assert res.exit_code == 2 and "no ledger writer" in res.output, res.output
    assert not Path(missing).exists()  # nothing was opened or created for it


def test_warrant_review_serve_joins_the_running_cluster_at_its_address(running, tmp_path):
    """The command itself, in its own process, joins the cluster at a loopback HOST:PORT with the
    cluster's token (no loopback setting inherited: it must set Ray's loopback mode itself) and
    shows the runtime's queue; only loopback listeners."""
    import os
    import subprocess
    import sys
    import time

    import httpx
    import ray

    from tests.ray.conftest import free_port

    rt, _ = running
    reviewers = tmp_path / "reviewers.json"
    book = ReviewerBook(path=reviewers)
    book.add("dana", PASSWORD)
    book.save()
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"}
    warrant = str(Path(sys.executable).parent / "warrant")
    proc = subprocess.Popen([warrant, "review", "serve", "--address", ray.get_runtime_context().gcs_address, "--ledger", rt.ledger_uri,
                             "--port", str(port), "--reviewers", str(reviewers)], env=env, cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline, page = time.monotonic() + 90, None
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                page = httpx.get(f"http://127.0.0.1:{port}/login", timeout=2)
                break
            except httpx.TransportError:
                time.sleep(0.5)
        assert page is not None and page.status_code == 200, proc.stdout.read() if proc.poll() is not None else "no answer"
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
            csrf = login(client)
            assert csrf and client.get("/").status_code == 200
        listening = subprocess.run(["ss", "-ltnpH"], capture_output=True, text=True).stdout
        ours = [line.split()[3] for line in listening.splitlines() if f"pid={proc.pid}," in line]
        assert ours and all(a.startswith(("127.0.0.1:", "[::ffff:127.0.0.1]:", "[::1]:")) for a in ours), ours
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    assert "through the runtime of" in " ".join(proc.stdout.read().split())  # Rich wraps lines
