"""The `warrant serve` HTTP API on 127.0.0.1: evidence, artifacts, tool calls, verdicts."""

from __future__ import annotations

import base64

import httpx
import pytest
from ray import serve

from warrant.actors.serve_app import APP_NAME, ROUTE_PREFIX, build_app
from warrant.actors.verifier_pool import PoolConfig
from warrant.ledger import canonical_json
from warrant.runtime.apitokens import SCOPES, TokenStore
from tests.ray import corpus


@pytest.fixture(scope="module")
def api(ray_session, serve_port, tmp_path_factory, model_spec):
    uri = str(tmp_path_factory.mktemp("http") / "ledger")
    token, _ = TokenStore.for_ledger(uri).create(SCOPES, name="test_http")  # the token file next to the ledger: the default
    app = build_app(uri, pool=PoolConfig(model=model_spec, num_replicas=1, num_cpus=0.25), gates=1, toolbuses=1)
    serve.run(app, name=APP_NAME, route_prefix=ROUTE_PREFIX)
    with httpx.Client(base_url=f"http://127.0.0.1:{serve_port}", timeout=120, headers={"Authorization": f"Bearer {token}"}) as client:
        yield client
    serve.delete(APP_NAME)


def test_evidence_artifacts_tool_calls_and_verdicts_over_http(api):
    assert api.get("/healthz").json()["ok"] is True
    r = api.post("/evidence", json={"run_id": "h1", "items": [
        {"text": corpus.LETTER, "source": {"document": "engagement_letter.txt"}},
        {"data_b64": base64.b64encode(canonical_json(corpus.INVOICE)).decode(), "kind": "tool_output",
         "source": {"tool": "lookup_invoice", "tool_version": "1"}},
        {"text": corpus.TIMESHEET},
        {"data_b64": base64.b64encode(canonical_json(corpus.TERMS)).decode(), "kind": "tool_output"},
    ]})
    assert r.status_code == 200, r.text
    letter, invoice, timesheet, terms = r.json()["ids"]
    ids = {"letter": letter, "invoice": invoice, "timesheet": timesheet, "terms": terms}

    art = corpus.artifacts("h1", ids, n=1)[0]
    step = api.post("/artifacts", json=art).json()
    assert step["gate"]["status"] == "pass"
    statuses = {c["claim_id"]: c["status"] for c in step["verdict"]["claims"]}
    assert statuses == {"a0c0": "supported", "a0c1": "contradicted", "a0c2": "supported", "a0q": "supported"}
    assert step["tool_calls"][0]["status"] == "accepted"  # proposed, not run

    # A citation of bytes that are not in this run: rejected by the gate, as data.
    bad = dict(art, claims=[corpus.assertion("x", corpus.prop("px", "payment_terms", {"days": 30}, ["led_" + "0" * 32]))], action_intents=[])
    rej = api.post("/artifacts", json=bad).json()
    assert rej["gate"]["status"] == "reject" and rej["verdict"] is None
    assert rej["gate"]["violations"][0]["code"] == "ledger_id_unknown"

    call = {"tool": "lookup_invoice", "args": {"invoice_id": "INV-4421"}}
    assert api.post("/tool-calls", json={"run_id": "h1", "intent": call}).json()["status"] == "accepted"
    out = api.post("/tool-calls", json={"run_id": "h1", "intent": call, "execute": True}).json()
    assert out["status"] == "ok" and out["output"]["invoice_id"] == "INV-4421"
    wrong = api.post("/tool-calls", json={"run_id": "h1", "intent": {"tool": "lookup_invoice", "args": {"invoice_id": 4421}}}).json()
    assert wrong["status"] == "rejected" and wrong["violations"][0]["loc"] == "$.args.invoice_id"
    # Irreversible without verified claims and a grant: refused, and the refusal is journaled.
    flag = {"tool": "flag_invoice_line", "args": {"invoice_id": "INV-4421", "line_id": "14", "reason": "exceeds_cap"}, "requires_grant": True, "depends_on": ["a0c1"]}
    refused = api.post("/tool-calls", json={"run_id": "h1", "intent": flag, "execute": True}).json()
    assert refused["status"] == "refused" and refused["code"] == "claims_unverified", refused

    v = api.get("/verdicts/h1").json()["verdicts"]
    assert [e["claim_id"] for e in v] == ["a0c0", "a0c1", "a0c2", "a0q"]
    assert api.get("/verdicts/nobody").json()["verdicts"] == []
    assert api.post("/evidence", json={"run_id": "h1", "items": [{"text": "a", "data_b64": "YQ=="}]}).status_code == 422
