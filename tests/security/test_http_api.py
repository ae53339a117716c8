"""Issue 10, item 4 (and the HTTP part of item 8): the API authenticates, scopes, limits bodies,
checks run ids and refuses overload with 503 instead of queueing without bound.

Against the real `warrant serve` of tests/security/conftest.py (in flight 2, queue 1, 1 artifact
verified at once, evidence bodies up to 64 KiB, other bodies up to 16 KiB)."""

from __future__ import annotations

import asyncio
import base64
import json
import stat
import subprocess
from urllib.parse import quote

import httpx
import pytest

from warrant.actors.guard import ApiConfig, MiB
from warrant.ledger import Ledger
from warrant.runtime.apitokens import TokenStore, TokenStoreError
from tests.security.conftest import LIMITS, WARRANT


def stored_ids(served, run_id: str) -> frozenset[str]:
    led = Ledger.open(str(served.ledger), writer=False)
    try:
        return led.ids(run_id)
    finally:
        led.close()


def evidence(run_id: str, *texts: str) -> dict:
    return {"run_id": run_id, "items": [{"text": t} for t in texts]}


# -- authentication and scopes -------------------------------------------------------------------

def test_requests_without_a_valid_token_are_401_and_write_nothing(served):
    with served.client(role=None) as anon:
        assert anon.get("/healthz").json() == {"ok": True}  # open for probes, and says nothing about the ledger
        r = anon.post("/evidence", json=evidence("sec_anon", "written by nobody"))
        assert r.status_code == 401 and r.headers["www-authenticate"] == "Bearer"
        assert "warrant token create" in r.json()["detail"]
        for header in ("Basic " + base64.b64encode(b"a:b").decode(), "Bearer nonsense",
                       "Bearer " + served.tokens["all"][:-4] + "AAAA",  # the right id, a wrong secret
                       "Bearer " + served.tokens["all"] + "x"):
            r = anon.post("/evidence", json=evidence("sec_anon", "x"), headers={"Authorization": header})
            assert r.status_code == 401, (header, r.text)
            assert r.json() == {"detail": "invalid or revoked token"} or "missing bearer token" in r.json()["detail"]
        assert anon.get("/verdicts/sec_anon").status_code == 401
        assert anon.get("/openapi.json").status_code == 401
    assert stored_ids(served, "sec_anon") == frozenset()


def test_a_token_without_the_routes_scope_is_403(served):
    intent = {"tool": "lookup_invoice", "args": {"invoice_id": "INV-4421"}}
    with served.client("read") as read, served.client("evidence") as ev, served.client("submit") as sub:
        r = read.post("/evidence", json=evidence("sec_scope", "a"))
        assert r.status_code == 403 and r.json()["required_scope"] == "evidence"
        assert ev.get("/verdicts/sec_scope").status_code == 403
        assert ev.post("/evidence", json=evidence("sec_scope", "a")).status_code == 200
        assert read.get("/verdicts/sec_scope").status_code == 200
        # submit may propose, not execute: executing needs approve, whether asked in the query or the body.
        assert sub.post("/tool-calls", json={"run_id": "sec_scope", "intent": intent}).json()["status"] == "accepted"
        r = sub.post("/tool-calls", json={"run_id": "sec_scope", "intent": intent, "execute": True})
        assert r.status_code == 403 and "approve" in r.json()["detail"]
        for q in ("execute=true", "execute=1", "execute=yes", "execute=false&execute=on"):
            r = sub.post(f"/artifacts?{q}", json={})
            assert r.status_code == 403 and r.json()["required_scope"] == "approve", q
        assert sub.post("/artifacts?execute=false", json={}).status_code == 200  # a gate reject, as data
    with served.client("all") as admin:
        assert admin.post("/tool-calls", json={"run_id": "sec_scope", "intent": intent, "execute": True}).json()["status"] == "ok"


def test_a_token_bound_to_an_agent_cannot_send_in_another_agents_name(served):
    # Tokens are read live, so one made now is honoured by the running server.
    token, rec = TokenStore.for_ledger(str(served.ledger)).create(["submit"], name="analyst-bot", agent="analyst")
    assert rec.agent == "analyst"
    with served.client("all") as admin:
        [rid] = admin.post("/evidence", json=evidence("sec_agent", "Travel time is not billable.")).json()["ids"]

    def artifact(sender: str) -> dict:
        return {"run_id": "sec_agent", "from_agent": sender, "claims": [{"id": "c1", "type": "Assertion", "text": "Travel time is not billable.",
                "propositions": [{"id": "p1", "pred": "statement", "args": {"text": "Travel time is not billable."}, "ledger_ids": [rid]}]}]}

    with httpx.Client(base_url=served.base, headers={"Authorization": f"Bearer {token}"}, timeout=120) as bot:
        forged, own = bot.post("/artifacts", json=artifact("writer")), bot.post("/artifacts", json=artifact("analyst"))
    assert forged.status_code == own.status_code == 200
    forged, own = forged.json(), own.json()
    assert [v["code"] for v in forged["violations"]] == ["from_agent_mismatch"] and forged["verdict"] is None
    assert forged["violations"][0]["expected"] == "analyst" and forged["violations"][0]["got"] == "writer"
    assert own["gate"]["status"] == "pass" and own["verdict"] is not None and own["violations"] == []
    # an operator's token (no agent) sends in any name, as before
    with served.client("submit") as sub:
        assert sub.post("/artifacts", json=artifact("writer")).json()["violations"] == []


def test_an_agent_binding_must_be_a_plain_name(tmp_path):
    store = TokenStore(tmp_path / "tokens.json")
    with pytest.raises(TokenStoreError, match="agent"):
        store.create(["submit"], agent="analyst; DROP")
    assert store.list() == []


def test_a_route_without_a_declared_scope_needs_the_strongest_one():
    from warrant.actors.guard import _route_path
    from warrant.actors.serve_app import scope_for

    assert scope_for("POST", "/some-new-route", []) == "approve"  # fails closed
    assert scope_for("GET", "/verdicts/r1", []) == "read"
    # Mounted under a prefix (a Serve route_prefix), a route keeps its scope and its limit.
    assert _route_path({"path": "/warrant/evidence", "root_path": "/warrant"}) == "/evidence"
    assert _route_path({"path": "/warrantx/evidence", "root_path": "/warrant"}) == "/warrantx/evidence"


def test_a_revoked_token_is_refused_by_the_running_server(served):
    with served.client("revocable") as c:
        assert c.get("/verdicts/sec_rev").status_code == 200
        r = subprocess.run([WARRANT, "token", "revoke", served.ids["revocable"], "--ledger", str(served.ledger)],
                           capture_output=True, text=True, timeout=60)
        assert r.returncode == 0, r.stderr
        assert c.get("/verdicts/sec_rev").status_code == 401


# -- body limits ---------------------------------------------------------------------------------

def test_oversized_bodies_are_413_and_nothing_is_written(served):
    limit = LIMITS["max_evidence_bytes"]
    big = evidence("sec_big", "x" * (limit + 1))
    with served.client() as c:
        r = c.post("/evidence", json=big)  # Content-Length declared: refused before the body is read
        assert r.status_code == 413 and str(limit) in r.json()["detail"]
        body = json.dumps(big).encode()
        chunked = c.post("/evidence", content=(body[i : i + 8192] for i in range(0, len(body), 8192)),
                         headers={"content-type": "application/json"})  # no length: counted as it arrives
        assert "content-length" not in chunked.request.headers
        assert chunked.status_code == 413, chunked.text
        other = c.post("/tool-calls", json={"run_id": "sec_big", "intent": {"tool": "x", "args": {"pad": "y" * LIMITS["max_body_bytes"]}}})
        assert other.status_code == 413  # other routes have the smaller limit
        assert stored_ids(served, "sec_big") == frozenset()
        ok = c.post("/evidence", json=evidence("sec_big", "y" * (limit - 1024)))  # under the limit: stored
        assert ok.status_code == 200
    assert stored_ids(served, "sec_big") == frozenset(ok.json()["ids"])


def test_the_default_limits_are_8_mib_for_evidence_and_1_mib_otherwise():
    cfg = ApiConfig(api_tokens="t.json")
    assert (cfg.body_limit("/evidence"), cfg.body_limit("/artifacts"), cfg.body_limit("/tool-calls")) == (8 * MiB, MiB, MiB)
    with pytest.raises(ValueError, match="api_tokens"):
        ApiConfig()  # authentication is the default: a token file is required
    with pytest.raises(ValueError, match="max_in_flight"):
        ApiConfig(auth=False, max_in_flight=0)
    with pytest.raises(ValueError, match="unknown api setting"):
        ApiConfig.from_dict({"auth": False, "max_inflight": 3})


# -- input checks --------------------------------------------------------------------------------

@pytest.mark.parametrize("run_id", ["", "../etc", "run 1", "r" * 129, "run\n1", "[/x]"])
def test_bad_run_ids_are_422_naming_the_field_on_every_route(served, run_id):
    with served.client() as c:
        for method, path, body, loc in (
            ("POST", "/evidence", evidence(run_id, "a"), ["body", "run_id"]),
            ("POST", "/tool-calls", {"run_id": run_id, "intent": {"tool": "lookup_invoice", "args": {"invoice_id": "INV-1"}}}, ["body", "run_id"]),
        ):
            r = c.request(method, path, json=body)
            assert r.status_code == 422, (path, r.text)
            assert r.json()["detail"][0]["loc"] == loc
        if run_id and "/" not in run_id:
            r = c.get(f"/verdicts/{quote(run_id, safe='')}")
            assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["path", "run_id"]
    assert stored_ids(served, run_id) == frozenset()


def test_bad_base64_is_422_naming_the_item_and_nothing_of_the_request_is_written(served):
    with served.client() as c:
        r = c.post("/evidence", json={"run_id": "sec_b64", "items": [{"text": "fine"}, {"data_b64": "not base64!!"}]})
        assert r.status_code == 422
        err = r.json()["detail"][0]
        assert err["loc"] == ["body", "items", 1, "data_b64"] and "base64" in err["msg"]
        both = c.post("/evidence", json={"run_id": "sec_b64", "items": [{"text": "a", "data_b64": "YQ=="}]})
        assert both.status_code == 422 and "exactly one of text or data_b64" in both.json()["detail"][0]["msg"]
    assert stored_ids(served, "sec_b64") == frozenset()


# -- admission control ---------------------------------------------------------------------------

def test_overload_is_refused_with_503_and_retry_after_and_nothing_is_lost(served):
    n = 60

    async def burst():
        async with httpx.AsyncClient(base_url=served.base, headers={"Authorization": f"Bearer {served.tokens['all']}"},
                                     timeout=120, limits=httpx.Limits(max_connections=n)) as c:
            return await asyncio.gather(*(c.post("/evidence", json=evidence("sec_load", f"burst item {i}")) for i in range(n)))

    responses = asyncio.run(burst())
    codes = [r.status_code for r in responses]
    assert set(codes) <= {200, 503}, codes  # every request answered: admitted, or refused
    refused = [r for r in responses if r.status_code == 503]
    assert refused and len(refused) < n, codes
    assert all(r.headers.get("retry-after") == "1" for r in refused)
    admitted = {i for r in responses if r.status_code == 200 for i in r.json()["ids"]}
    # Every admitted write is in the ledger; nothing refused was half-written.
    assert stored_ids(served, "sec_load") == admitted


def test_artifacts_past_the_verification_limit_are_refused_at_once(served):
    from tests.ray import corpus

    with served.client() as c:
        r = c.post("/evidence", json={"run_id": "sec_art", "items": [{"text": corpus.LETTER}, {"text": corpus.TIMESHEET}]})
        letter, timesheet = r.json()["ids"]
    art = corpus.artifacts("sec_art", {"letter": letter, "timesheet": timesheet, "invoice": letter, "terms": letter}, n=1)[0]

    async def burst():
        async with httpx.AsyncClient(base_url=served.base, headers={"Authorization": f"Bearer {served.tokens['all']}"}, timeout=120) as c:
            return await asyncio.gather(*(c.post("/artifacts", json=art) for _ in range(12)))

    responses = asyncio.run(burst())
    assert {r.status_code for r in responses} <= {200, 503}
    assert any(r.status_code == 200 and r.json()["verdict"] for r in responses)
    # Serve's own 503 (its queue is full) is plain text; the artifact limit's is JSON saying busy.
    # Which of the two refuses depends on how the burst overlaps on a busy machine, so here every
    # refusal must carry Retry-After; the artifact limit itself is pinned down deterministically
    # by the in-process test below.
    refused = [r for r in responses if r.status_code == 503]
    assert refused and all(r.headers.get("retry-after") == "1" for r in refused)


def test_the_artifact_limit_refuses_the_next_artifact_while_one_is_verified():
    """The guard in one process, in front of an app that holds each artifact until released: the
    second artifact arriving while the first is verified gets 503 + Retry-After at once."""
    from fastapi import FastAPI

    from warrant.actors import guard

    release = asyncio.Event()
    app = FastAPI()

    @app.post("/artifacts")
    async def artifacts() -> dict:
        await release.wait()
        return {"verdict": "done"}

    app.add_middleware(guard.Guard, scope_for=lambda method, path, query: None)
    before = guard._active, guard._store
    guard.configure(guard.ApiConfig(auth=False, max_artifacts_in_flight=1))
    try:
        async def run():
            async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://127.0.0.1") as c:
                first = asyncio.create_task(c.post("/artifacts", json={}))
                while _running(app) < 1:
                    await asyncio.sleep(0.01)
                second = await c.post("/artifacts", json={})
                release.set()
                return await first, second

        first, second = asyncio.run(asyncio.wait_for(run(), 30))
    finally:
        guard._active, guard._store = before
    assert first.status_code == 200 and first.json() == {"verdict": "done"}
    assert second.status_code == 503 and second.headers["retry-after"] == "1"
    assert second.json()["detail"].startswith("busy: 1 artifacts being verified")


def _running(app) -> int:
    """Artifacts the app's Guard is verifying now (the middleware stack is built on first use)."""
    layer = app.middleware_stack
    while layer is not None and not hasattr(layer, "artifacts_running"):
        layer = getattr(layer, "app", None)
    return layer.artifacts_running if layer is not None else 0


# -- the token file ------------------------------------------------------------------------------

def test_tokens_are_stored_hashed_in_a_0600_file_and_printed_once(tmp_path):
    ledger = tmp_path / "ledger"
    r = subprocess.run([WARRANT, "token", "create", "--scope", "read,submit", "--name", "ci", "--ledger", str(ledger)],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    token = r.stdout.strip()
    path = tmp_path / "ledger.tokens.json"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    secret = token.split("_", 2)[2]  # wrt_<id>_<secret>: the secret itself may hold "_"
    assert secret not in path.read_text() and token not in path.read_text()
    listed = subprocess.run([WARRANT, "token", "list", "--ledger", str(ledger)], capture_output=True, text=True, timeout=60)
    assert "read,submit" in listed.stdout and secret not in listed.stdout
    store = TokenStore.for_ledger(str(ledger))
    assert store.verify(token).scopes == ["read", "submit"]
    assert store.verify(token[:-1] + ("A" if token[-1] != "A" else "B")) is None
    bad = subprocess.run([WARRANT, "token", "create", "--scope", "read,root", "--ledger", str(ledger)], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "read, evidence, submit, approve" in bad.stderr
    with pytest.raises(TokenStoreError, match="not on local disk"):
        TokenStore.for_ledger("s3://bucket/ledger")
    gone = subprocess.run([WARRANT, "token", "revoke", "00000000", "--ledger", str(ledger)], capture_output=True, text=True, timeout=60)
    assert gone.returncode == 2 and "no token with id" in gone.stderr
