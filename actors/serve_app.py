"""`warrant serve`: the control plane behind an HTTP API, a Ray Serve ingress (FastAPI).

    POST /evidence          {"run_id", "items": [{"text" | "data_b64", "kind", "media_type", "source"}]} -> {"ids"}
    POST /artifacts         an artifact (JSON) [?execute=true] -> gate decision, verdict, tool-call outcomes
    POST /tool-calls        {"run_id", "intent", "grant_id"?, "execute": false} -> proposal or execution outcome
    GET  /verdicts/{run_id} the run's verdict entries from the journal, in order

The ingress holds no state: it starts (or finds, by name) the LedgerActor, the GateActors and
the ToolBusActors, and reaches the VerifierPool through a deployment handle. The names the
Serve config (cluster/serve_config.yaml) refers to are the constants below.
"""

from __future__ import annotations

import base64
import os
from pathlib import Path
from typing import Any, Optional

from fastapi import FastAPI, HTTPException
from pydantic import BaseModel, ConfigDict, Field
from ray import serve

from actors.ledger_actor import DuplicateEntry
from actors.verifier_pool import VERIFIER_DEPLOYMENT, PoolConfig, pool_app

APP_NAME = "warrant"
INGRESS_DEPLOYMENT = "WarrantAPI"
ROUTE_PREFIX = "/"
DEFAULT_TOOLS = str(Path(__file__).resolve().parent.parent / "examples" / "invoice_audit" / "tools")

api = FastAPI(title="Warrant", description="Append evidence, gate and verify artifacts, propose and execute tool calls.")


class EvidenceItem(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: Optional[str] = None
    data_b64: Optional[str] = None
    kind: str = "span"
    media_type: Optional[str] = None
    source: dict[str, Any] = Field(default_factory=dict)


class EvidenceIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    run_id: str
    items: list[EvidenceItem]


class ToolCallIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    run_id: str
    intent: dict[str, Any]
    grant_id: Optional[str] = None
    execute: bool = False


# Helpers the ingress calls are defined above it on purpose: Serve captures the class when it is
# decorated, and a module-level name defined after that point is missing in the replica.
def _evidence_items(body: EvidenceIn) -> list:
    from ledger import Ledger, LedgerError

    try:
        return [Ledger.item(body.run_id, _bytes(it), kind=it.kind, media_type=it.media_type, source=it.source) for it in body.items]
    except LedgerError as exc:
        raise HTTPException(422, str(exc)) from None


def _bytes(it: EvidenceItem) -> bytes:
    if (it.text is None) == (it.data_b64 is None):
        raise HTTPException(422, "each evidence item needs exactly one of text or data_b64")
    return it.text.encode("utf-8") if it.text is not None else base64.b64decode(it.data_b64, validate=True)


@serve.deployment(name=INGRESS_DEPLOYMENT, max_ongoing_requests=256, num_replicas=1, ray_actor_options={"num_cpus": 0})
@serve.ingress(api)
class WarrantAPI:
    def __init__(self, pool, ledger_uri: str, tools_dir: str | None = DEFAULT_TOOLS, gates: int = 2, toolbuses: int = 2):
        from actors.runner import Runner, Runtime

        # Named and detached: a restarted ingress replica finds the same actors, and the ledger's
        # single writer outlives any one replica.
        self._rt = Runtime.start(ledger_uri, pool, tools_dir, gates=gates, toolbuses=toolbuses, detached=True, prefix="warrant")
        self._runner = Runner(self._rt)
        self._ledger = self._rt.ledger()
        self._journal = self._rt.journal()

    @api.get("/healthz")
    async def healthz(self) -> dict[str, Any]:
        return {"ok": True, "ledger": self._rt.ledger_uri, "writer": await self._rt.writer.ping.remote()}

    @api.post("/evidence")
    async def evidence(self, body: EvidenceIn) -> dict[str, Any]:
        return {"ids": await self._rt.writer.append_evidence.remote(_evidence_items(body))}

    @api.post("/artifacts")
    async def artifacts(self, artifact: dict[str, Any], execute: bool = False) -> dict[str, Any]:
        step = await self._runner.submit(artifact, execute=execute)
        return step.to_json()

    @api.post("/tool-calls")
    async def tool_calls(self, body: ToolCallIn) -> dict[str, Any]:
        bus = self._runner._bus()
        if not body.execute:
            return (await bus.propose.remote(body.run_id, body.intent)).model_dump(mode="json")
        try:
            out = await bus.execute.remote(body.run_id, body.intent, body.grant_id)
        except DuplicateEntry as exc:  # another replica spent this grant a moment earlier
            raise HTTPException(409, f"grant_replayed: {exc}") from None
        return out.model_dump(mode="json")

    @api.get("/verdicts/{run_id}")
    async def verdicts(self, run_id: str) -> dict[str, Any]:
        import asyncio

        entries = await asyncio.to_thread(self._journal.entries, run_id, "verdict")
        return {
            "run_id": run_id,
            "verdicts": [{"seq": e.seq, "id": e.id, "claim_id": e.subject, **e.payload} for e in entries],
        }


def build_app(ledger_uri: str, tools_dir: str | None = DEFAULT_TOOLS, pool: PoolConfig | None = None, *, gates: int = 2, toolbuses: int = 2):
    """The whole application: the ingress bound to the verifier pool."""
    return WarrantAPI.bind(pool_app(ledger_uri, pool), ledger_uri, tools_dir, gates, toolbuses)


def app_builder(args: dict[str, Any]):
    """For a Serve config's `import_path: actors.serve_app:app_builder` (see cluster/serve_config.yaml).
    `args`: ledger_uri (else $WARRANT_LEDGER), tools_dir, gates, toolbuses, pool (PoolConfig fields)."""
    args = dict(args or {})
    uri = args.pop("ledger_uri", None) or os.environ.get("WARRANT_LEDGER", ".warrant/ledger")
    pool = PoolConfig.from_dict(args.pop("pool", None))
    tools = args.pop("tools_dir", DEFAULT_TOOLS)
    gates, toolbuses = int(args.pop("gates", 2)), int(args.pop("toolbuses", 2))
    if args:
        raise ValueError(f"unknown application arg(s) {sorted(args)}; known: ledger_uri, tools_dir, gates, toolbuses, pool")
    return build_app(uri, tools, pool, gates=gates, toolbuses=toolbuses)


def serve_options(host: str = "127.0.0.1", port: int = 8000) -> dict[str, Any]:
    """`serve.start` keyword arguments: loopback by default, access logs off (one line per
    request is the cost that dominates a burst)."""
    return {
        "http_options": {"host": host, "port": port},
        "logging_config": {"enable_access_log": False, "log_level": "WARNING"},
    }


def run(ledger_uri: str, *, tools_dir: str | None = DEFAULT_TOOLS, pool: PoolConfig | None = None, host: str = "127.0.0.1", port: int = 8000, blocking: bool = False):
    """Deploy on the Ray cluster this process is connected to; returns the ingress handle."""
    serve.start(**serve_options(host, port))
    return serve.run(build_app(ledger_uri, tools_dir, pool), name=APP_NAME, route_prefix=ROUTE_PREFIX, blocking=blocking)


__all__ = ["APP_NAME", "INGRESS_DEPLOYMENT", "ROUTE_PREFIX", "VERIFIER_DEPLOYMENT", "WarrantAPI", "api", "app_builder", "build_app", "run", "serve_options"]
