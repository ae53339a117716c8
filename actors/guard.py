"""The HTTP API's front door, an ASGI middleware: who may call which route, and how large a body
may be. It answers before the request body is read, so an unauthenticated or oversized upload
costs the API nothing and never reaches the ledger.

- Authentication: `Authorization: Bearer wrt_...`, checked against the token file
  (runtime/apitokens.py). No or bad token -> 401; a token without the route's scope -> 403.
  `/healthz` is open (liveness probes). With `auth=False` (`warrant serve --insecure-no-auth`)
  every request has every scope.
- Body size: a declared `Content-Length` over the route's limit -> 413 at once; a body without
  one is counted as it arrives and cut off at the limit with a 413.
- Admission, per ingress replica: at most `max_in_flight` requests at once and `max_queued` more
  waiting (Serve's own limits, set on the deployment by `ApiConfig.deployment_options()`), the
  rest refused at once with 503 + Retry-After. Verifying an artifact costs far more than storing
  evidence, and a CPU verifier pool works through only a few per second, so a count that suits
  evidence would let artifacts wait a minute: at most `max_artifacts_in_flight` POST /artifacts
  run at once, and one past that is refused here with 503, not queued. Size it as the pool's
  artifacts/s times the latency you accept (benchmarks/bench_scale.py --admission measures both).

The replica's settings come from `configure()`, called in the ingress's constructor; until then
every request gets 503. `scope_for(method, path, query)` (given by the app) names the scope a
route needs.
"""

from __future__ import annotations

import json
import logging
import math
from dataclasses import asdict, dataclass, fields
from typing import Any, Callable, Optional
from urllib.parse import parse_qsl

from starlette.exceptions import HTTPException

from warrant.runtime.apitokens import SCOPES, TokenStore

log = logging.getLogger("warrant.api")

MiB = 1024 * 1024
OPEN_PATHS = frozenset({"/healthz"})
ARTIFACTS = "/artifacts"
ScopeFor = Callable[[str, str, list[tuple[str, str]]], Optional[str]]


@dataclass(frozen=True)
class ApiConfig:
    """The HTTP API's limits and credentials, as data (from CLI flags or a Serve config's `api`).

    api_tokens: the token file (None with auth=False). auth: False only for --insecure-no-auth.
    max_evidence_bytes / max_body_bytes: request body limits for POST /evidence / other routes.
    max_in_flight: requests one ingress replica works on at once; max_queued: how many more may
    wait for a slot (per proxy) before the rest get 503 with `Retry-After: retry_after_s`.
    max_artifacts_in_flight: POST /artifacts (gate + verification) one replica runs at once; past
    it, 503 at once.
    """

    api_tokens: Optional[str] = None
    auth: bool = True
    max_evidence_bytes: int = 8 * MiB
    max_body_bytes: int = 1 * MiB
    max_in_flight: int = 64
    max_queued: int = 64
    max_artifacts_in_flight: int = 8
    retry_after_s: float = 1.0

    def __post_init__(self) -> None:
        if self.auth and not self.api_tokens:
            raise ValueError("api.api_tokens: a token file is required unless auth is off")
        for name in ("max_evidence_bytes", "max_body_bytes", "max_in_flight", "max_queued", "max_artifacts_in_flight"):
            if not isinstance(getattr(self, name), int) or getattr(self, name) < 1:
                raise ValueError(f"api.{name}: expected a positive integer, got {getattr(self, name)!r}")
        if not (0 <= self.retry_after_s <= 3600):
            raise ValueError(f"api.retry_after_s: expected 0..3600 seconds, got {self.retry_after_s!r}")

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> "ApiConfig":
        d = dict(d or {})
        unknown = sorted(set(d) - {f.name for f in fields(cls)})
        if unknown:
            raise ValueError(f"unknown api setting(s) {unknown}; known: {sorted(f.name for f in fields(cls))}")
        return cls(**d)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def body_limit(self, path: str) -> int:
        return self.max_evidence_bytes if path == "/evidence" else self.max_body_bytes

    def deployment_options(self) -> dict[str, Any]:
        """Serve options of the ingress deployment: its admission control."""
        return {
            "max_ongoing_requests": self.max_in_flight,
            "max_queued_requests": self.max_queued,
            "backpressure_config": {"status_code": 503, "retry_after_s": self.retry_after_s},
        }


_active: Optional[ApiConfig] = None
_store: Optional[TokenStore] = None


def configure(cfg: ApiConfig) -> None:
    """Set this process's API settings (the ingress replica calls it once, in its constructor)."""
    global _active, _store
    _active, _store = cfg, TokenStore(cfg.api_tokens) if cfg.api_tokens else None
    if not cfg.auth:
        log.warning("HTTP API AUTHENTICATION IS OFF (--insecure-no-auth): anyone who can reach the port may write evidence and execute tools")


class BodyTooLarge(HTTPException):
    """Raised from `receive` once a body passes its limit. An HTTPException because FastAPI turns
    any other exception raised while it reads a body into a 400."""

    def __init__(self, path: str, limit: int):
        super().__init__(413, _too_large(path, limit)["detail"])


async def _answer(send: Any, status: int, body: dict[str, Any], headers: list[tuple[bytes, bytes]] = ()) -> None:
    data = json.dumps(body).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode()), *headers]})
    await send({"type": "http.response.body", "body": data})


def _route_path(scope: dict[str, Any]) -> str:
    """The path as the app's routes see it: without the mount point (Serve's route_prefix), so a
    prefixed deployment gets the same scopes and limits."""
    path, root = scope["path"], scope.get("root_path", "")
    if root and path.startswith(root) and path[len(root) : len(root) + 1] in ("", "/"):
        return path[len(root) :] or "/"
    return path


def _bearer(headers: list[tuple[bytes, bytes]]) -> Optional[str]:
    for k, v in headers:
        if k.lower() == b"authorization":
            scheme, _, token = v.decode("latin-1").partition(" ")
            return token.strip() if scheme.lower() == "bearer" else None
    return None


class Guard:
    """ASGI middleware (`app.add_middleware(Guard, scope_for=...)`)."""

    def __init__(self, app: Any, scope_for: ScopeFor):
        self.app = app
        self.scope_for = scope_for
        self.artifacts_running = 0

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        cfg, path = _active, _route_path(scope)
        if cfg is None:
            return await _answer(send, 503, {"detail": "the API is starting"}, [(b"retry-after", b"1")])
        if path not in OPEN_PATHS:
            denied = self._authorize(cfg, scope)
            if denied:
                return await _answer(send, *denied)
        limit = cfg.body_limit(path)
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > limit):
            return await _answer(send, 413, _too_large(path, limit))
        if path != ARTIFACTS:
            return await self._limited(scope, receive, send, path, limit)
        if self.artifacts_running >= cfg.max_artifacts_in_flight:
            retry = str(max(0, math.ceil(cfg.retry_after_s))).encode()
            return await _answer(send, 503, {"detail": f"busy: {self.artifacts_running} artifacts being verified; retry later"},
                                 [(b"retry-after", retry)])
        self.artifacts_running += 1  # one event loop per replica: nothing runs between the check and this
        try:
            return await self._limited(scope, receive, send, path, limit)
        finally:
            self.artifacts_running -= 1

    def _authorize(self, cfg: ApiConfig, scope: dict[str, Any]) -> Optional[tuple]:
        need = self.scope_for(scope["method"], _route_path(scope), parse_qsl(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True))
        if not cfg.auth:
            scope.setdefault("state", {})["scopes"] = frozenset(SCOPES)
            scope["state"]["agent"] = None
            return None
        token = _bearer(scope["headers"])
        challenge = [(b"www-authenticate", b"Bearer")]
        if not token:
            return 401, {"detail": "missing bearer token: send 'Authorization: Bearer <token>' (create one with `warrant token create`)"}, challenge
        try:
            rec = _store.verify(token) if _store else None
        except ValueError as exc:  # the token file is unreadable: refuse everyone, say why in the log
            log.error("API token check failed: %s", exc)
            rec = None
        if rec is None:
            return 401, {"detail": "invalid or revoked token"}, challenge
        scope.setdefault("state", {})["scopes"] = frozenset(rec.scopes)
        scope["state"]["token_id"] = rec.id
        scope["state"]["agent"] = rec.agent
        if need and need not in rec.scopes:
            return 403, {"detail": f"token {rec.id} lacks scope {need!r} (has: {', '.join(rec.scopes)})", "required_scope": need}
        return None

    async def _limited(self, scope: dict[str, Any], receive: Any, send: Any, path: str, limit: int) -> None:
        seen = 0
        started = False

        async def counted() -> dict[str, Any]:
            nonlocal seen
            msg = await receive()
            if msg["type"] == "http.request":
                seen += len(msg.get("body", b""))
                if seen > limit:
                    raise BodyTooLarge(path, limit)
            return msg

        async def tracked(msg: dict[str, Any]) -> None:
            nonlocal started
            started = started or msg["type"] == "http.response.start"
            await send(msg)

        try:
            await self.app(scope, counted, tracked)
        except BodyTooLarge:
            if not started:
                await _answer(send, 413, _too_large(path, limit))


def _too_large(path: str, limit: int) -> dict[str, Any]:
    return {"detail": f"request body over the limit of {limit} bytes for {path}"}


__all__ = ["ApiConfig", "Guard", "MiB", "OPEN_PATHS", "configure"]
