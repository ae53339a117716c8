"""`warrant serve`: the control plane behind an HTTP API, a Ray Serve ingress (FastAPI).

    POST /evidence          {"run_id", "items": [{"text" | "data_b64", "kind", "media_type", "source"}]} -> {"ids"}   scope evidence
    POST /artifacts         an artifact (JSON) [?execute=true] -> gate decision, verdict, tool-call outcomes  scope submit (approve with execute)
                            (an executed irreversible call without a grant is queued for review: "queued_for_review")
    POST /tool-calls        {"run_id", "intent", "grant_id"?, "execute": false} -> proposal or execution outcome  scope submit (approve with execute)
    GET  /verdicts/{run_id} the run's verdict entries from the journal, in order                          scope read
    GET  /healthz           open (liveness)

Every request but /healthz carries `Authorization: Bearer <token>` (`warrant token create`); bodies
are size-limited and each ingress replica admits a bounded number of requests, answering 503 with
Retry-After past a short queue (actors/guard.py). Run ids follow the contract's pattern.

The ingress holds no state: it starts (or finds, by name) the LedgerActor, the GateActors and
the ToolBusActors, and reaches the VerifierPool through a deployment handle. The names the
Serve config (cluster/serve_config.yaml) refers to are the constants below.
"""

from __future__ import annotations

import base64
import binascii
import os
from importlib.resources import files
from typing import Any, Optional

from fastapi import FastAPI, HTTPException, Path as PathParam, Request
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from ray import serve

from warrant.actors.guard import ApiConfig, Guard
from warrant.actors.ledger_actor import DuplicateEntry
from warrant.actors.verifier_pool import VERIFIER_DEPLOYMENT, PoolConfig, pool_app
from warrant.runtime.apitokens import TokenStore
from warrant.runtime.contract import IDENT_PATTERN

APP_NAME = "warrant"
INGRESS_DEPLOYMENT = "WarrantAPI"
ROUTE_PREFIX = "/"
# The example's tool specs, package data of warrant.examples: found through importlib.resources (a
# real folder in a wheel or an editable install), not by walking up from this file to the repository.
DEFAULT_TOOLS = str(files("warrant.examples") / "invoice_audit" / "tools")
_FALSE = {"0", "false", "f", "no", "n", "off"}

api = FastAPI(title="Warrant", description="Append evidence, gate and verify artifacts, propose and execute tool calls.")


def scope_for(method: str, path: str, query: list[tuple[str, str]]) -> Optional[str]:
    """The token scope a request needs, decided before its body is read. Executing through
    /tool-calls is said in the body; the handler checks `approve` for that."""
    if path == "/evidence":
        return "evidence"
    if path == "/artifacts":
        # Any `execute` value FastAPI could read as true needs approve; unparseable ones get 422 later.
        return "approve" if any(k == "execute" and v.strip().lower() not in _FALSE for k, v in query) else "submit"
    if path == "/tool-calls":
        return "submit"
    if method in ("GET", "HEAD"):
        return "read"
    return "approve"  # a route not named above gets the strongest scope: a new route fails closed


api.add_middleware(Guard, scope_for=scope_for)


class EvidenceItem(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: Optional[str] = None
    data_b64: Optional[str] = None
    kind: str = "span"
    media_type: Optional[str] = None
    source: dict[str, Any] = Field(default_factory=dict)

    @field_validator("data_b64")
    @classmethod
    def _is_base64(cls, v: Optional[str]) -> Optional[str]:
        if v is not None:
            try:
                base64.b64decode(v, validate=True)
            except (binascii.Error, ValueError) as exc:
                raise ValueError(f"expected standard base64 (A-Z, a-z, 0-9, +, /, = padding): {exc}") from None
        return v

    @model_validator(mode="after")
    def _one_payload(self) -> "EvidenceItem":
        if (self.text is None) == (self.data_b64 is None):
            raise ValueError("each evidence item needs exactly one of text or data_b64")
        return self

    def data(self) -> bytes:
        return self.text.encode("utf-8") if self.text is not None else base64.b64decode(self.data_b64, validate=True)


class EvidenceIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    run_id: str = Field(pattern=IDENT_PATTERN)
    items: list[EvidenceItem]


class ToolCallIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    run_id: str = Field(pattern=IDENT_PATTERN)
    intent: dict[str, Any]
    grant_id: Optional[str] = None
    execute: bool = False


# Helpers the ingress calls are defined above it on purpose: Serve captures the class when it is
# decorated, and a module-level name defined after that point is missing in the replica.
def _evidence_items(body: EvidenceIn) -> list:
    from warrant.ledger import Ledger, LedgerError

    try:
        return [Ledger.item(body.run_id, it.data(), kind=it.kind, media_type=it.media_type, source=it.source) for it in body.items]
    except LedgerError as exc:
        raise HTTPException(422, str(exc)) from None


def _require(request: Request, scope: str) -> None:
    have = request.state.scopes
    if scope not in have:
        raise HTTPException(403, f"token {request.state.token_id} lacks scope {scope!r} (has: {', '.join(sorted(have))})")


@serve.deployment(name=INGRESS_DEPLOYMENT, num_replicas=1, ray_actor_options={"num_cpus": 0})
@serve.ingress(api)
class WarrantAPI:
    def __init__(self, pool, ledger_uri: str, tools_dir: str | None = DEFAULT_TOOLS, gates: int = 2, toolbuses: int = 2, api_config: dict[str, Any] | None = None):
        from warrant.actors import guard
        from warrant.actors.runner import Runner, Runtime

        guard.configure(ApiConfig.from_dict(api_config))
        # Named and detached: a restarted ingress replica finds the same actors, and the ledger's
        # single writer outlives any one replica.
        self._rt = Runtime.start(ledger_uri, pool, tools_dir, gates=gates, toolbuses=toolbuses, detached=True, prefix="warrant")
        # An executed irreversible call that no grant covers waits in the review queue, in this
        # ledger's journal, for `warrant review serve --address auto` (actors/review.py).
        from warrant.actors.review import review_queue

        self._runner = Runner(self._rt, review=review_queue(self._rt) if self._rt.toolbuses else None)
        self._ledger = self._rt.ledger()
        self._journal = self._rt.journal()

    @api.get("/healthz")
    async def healthz(self) -> dict[str, Any]:
        await self._rt.writer.ping.remote()  # the ledger's writer answers; what it says stays private
        return {"ok": True}

    @api.post("/evidence")
    async def evidence(self, body: EvidenceIn) -> dict[str, Any]:
        return {"ids": await self._rt.writer.append_evidence.remote(_evidence_items(body))}

    @api.post("/artifacts")
    async def artifacts(self, artifact: dict[str, Any], request: Request, execute: bool = False) -> dict[str, Any]:
        # A token bound to an agent (`warrant token create --agent NAME`) is the sender: the
        # pipeline refuses an artifact in another agent's name (from_agent_mismatch).
        step = await self._runner.submit(artifact, execute=execute, sender=getattr(request.state, "agent", None))
        return step.to_json()

    @api.post("/tool-calls")
    async def tool_calls(self, body: ToolCallIn, request: Request) -> dict[str, Any]:
        bus = self._runner._bus()
        if body.execute:
            _require(request, "approve")
        if not body.execute:
            return (await bus.propose.remote(body.run_id, body.intent)).model_dump(mode="json")
        try:
            out = await bus.execute.remote(body.run_id, body.intent, body.grant_id)
        except DuplicateEntry as exc:  # another replica spent this grant a moment earlier
            raise HTTPException(409, f"grant_replayed: {exc}") from None
        return out.model_dump(mode="json")

    @api.get("/verdicts/{run_id}")
    async def verdicts(self, run_id: str = PathParam(pattern=IDENT_PATTERN)) -> dict[str, Any]:
        import asyncio

        entries = await asyncio.to_thread(self._journal.entries, run_id, "verdict")
        return {
            "run_id": run_id,
            "verdicts": [{"seq": e.seq, "id": e.id, "claim_id": e.subject, **e.payload} for e in entries],
        }


def api_config(ledger_uri: str, settings: dict[str, Any] | ApiConfig | None = None) -> ApiConfig:
    """The API settings, with the token file defaulting to the one next to a local ledger."""
    if isinstance(settings, ApiConfig):
        return settings
    d = dict(settings or {})
    if d.get("auth", True) and not d.get("api_tokens"):
        d["api_tokens"] = str(TokenStore.for_ledger(ledger_uri).path)
    return ApiConfig.from_dict(d)


def build_app(ledger_uri: str, tools_dir: str | None = DEFAULT_TOOLS, pool: PoolConfig | None = None, *, gates: int = 2, toolbuses: int = 2,
              api: ApiConfig | dict[str, Any] | None = None):
    """The whole application: the ingress (with its admission limits) bound to the verifier pool."""
    cfg = api_config(ledger_uri, api)
    ingress = WarrantAPI.options(**cfg.deployment_options())
    return ingress.bind(pool_app(ledger_uri, pool), ledger_uri, tools_dir, gates, toolbuses, cfg.to_dict())


def app_builder(args: dict[str, Any]):
    """For a Serve config's `import_path: warrant.actors.serve_app:app_builder` (see cluster/serve_config.yaml).
    `args`: ledger_uri (else $WARRANT_LEDGER), tools_dir, gates, toolbuses, pool (PoolConfig fields),
    api (ApiConfig fields: api_tokens, max_in_flight, ...)."""
    args = dict(args or {})
    uri = args.pop("ledger_uri", None) or os.environ.get("WARRANT_LEDGER", ".warrant/ledger")
    pool = PoolConfig.from_dict(args.pop("pool", None))
    tools = args.pop("tools_dir", DEFAULT_TOOLS)
    gates, toolbuses = int(args.pop("gates", 2)), int(args.pop("toolbuses", 2))
    api = api_config(uri, args.pop("api", None))
    if args:
        raise ValueError(f"unknown application arg(s) {sorted(args)}; known: ledger_uri, tools_dir, gates, toolbuses, pool, api")
    return build_app(uri, tools, pool, gates=gates, toolbuses=toolbuses, api=api)


def serve_options(host: str = "127.0.0.1", port: int = 8000) -> dict[str, Any]:
    """`serve.start` keyword arguments: loopback by default, access logs off (one line per
    request is the cost that dominates a burst)."""
    return {
        "http_options": {"host": host, "port": port},
        "logging_config": {"enable_access_log": False, "log_level": "WARNING"},
    }


def run(ledger_uri: str, *, tools_dir: str | None = DEFAULT_TOOLS, pool: PoolConfig | None = None, host: str = "127.0.0.1", port: int = 8000,
        blocking: bool = False, api: ApiConfig | dict[str, Any] | None = None):
    """Deploy on the Ray cluster this process is connected to; returns the ingress handle."""
    serve.start(**serve_options(host, port))
    return serve.run(build_app(ledger_uri, tools_dir, pool, api=api), name=APP_NAME, route_prefix=ROUTE_PREFIX, blocking=blocking)


__all__ = ["APP_NAME", "INGRESS_DEPLOYMENT", "ROUTE_PREFIX", "VERIFIER_DEPLOYMENT", "ApiConfig", "WarrantAPI", "api", "api_config", "app_builder",
           "build_app", "run", "scope_for", "serve_options"]
