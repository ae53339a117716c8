"""`VerifierPool`: the claim verifier's batch core as an autoscaled Ray Serve deployment.

Each replica loads the entailment backend once and opens the ledger read-only. Requests are one
proposition each; `@serve.batch` gathers the propositions that arrive within a few milliseconds,
from any artifact of any run, and hands them to `Verifier.check` in one call per run, so the model
sees one large batch instead of many small ones. What a verdict is stays in runtime/verify: this
module only decides where and in what batches the check runs.

`PoolChecker` is the client side: given to a `Verifier` as its checker
(`Verifier(ledger, journal=journal, checker=PoolChecker(pool))`), so `verify` (assembly, quotes,
journaling) stays the runtime's and only the batch core goes to the pool. Delivery is
at-least-once: checks only read immutable evidence and are idempotent, so a check lost with a
killed replica is simply sent again, and each proposition ends with one verdict (the first answer
that comes back for it).

Sizing (STACK.md): Serve's default max_ongoing_requests=5 collapses under a burst on this
machine, so the pool admits many requests per replica and lets the batcher queue them. A replica
busy with a batch answers the router's queue-length probes late; with Serve's 0.1 s probe deadline
the router backs off and a burst of 1,000 took 17-50 s here, against 4-5 s with a 1 s deadline
and max_ongoing_requests=1024. `SERVE_ENV` below carries that setting; it must be in the
environment of the Ray processes (`warrant serve` sets it for a local Ray; cluster/ sets it in
the node environment).
"""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path
from typing import Any, Callable, Sequence


from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator
from ray import serve

from warrant.actors.store import LedgerClient
from warrant.runtime.contract import Claim, Proposition
from warrant.runtime.verify.verdict import PropositionVerdict
from warrant.runtime.verify.verifier import Verifier

VERIFIER_DEPLOYMENT = "VerifierPool"
NO_MODEL = "none"
SERVE_ENV = {"RAY_SERVE_QUEUE_LENGTH_RESPONSE_DEADLINE_S": "1.0"}

Rejected = dict[tuple[str, frozenset[str]], list[dict[str, Any]]]


class PoolConfig(BaseModel):
    """The pool's knobs as data: from a dict, a YAML file, or a Serve config's deployment entry.
    A Pydantic model with `extra="forbid"`: an unknown or mistyped setting is an error naming the
    field (`num_replica`, `max_batch_size: "big"`), never a silently ignored key.

    model: a `load_backend` spec ("default", "onnx:DIR", "torch:DIR", ...) or "none" (the rules
    and predicates still decide; model-checked propositions come back unsupported).
    num_replicas: a fixed count (benchmarks); None means autoscale between min and max.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    model: str = "default"
    device: str = "cpu"
    num_replicas: int | None = Field(default=None, ge=1)
    min_replicas: int = Field(default=0, ge=0)
    max_replicas: int = Field(default=4, ge=1)
    initial_replicas: int | None = Field(default=1, ge=0)
    target_ongoing_requests: float = Field(default=32.0, gt=0)
    upscale_delay_s: float = Field(default=5.0, ge=0)
    downscale_delay_s: float = Field(default=60.0, ge=0)
    look_back_period_s: float = Field(default=30.0, gt=0)
    metrics_interval_s: float | None = Field(default=None, gt=0)  # deprecated in Serve (env vars replace it); tests shorten it
    max_ongoing_requests: int = Field(default=1024, ge=1)
    max_batch_size: int = Field(default=64, ge=1)
    batch_wait_timeout_s: float = Field(default=0.01, ge=0)
    num_cpus: float = Field(default=1.0, ge=0)
    num_gpus: float | None = Field(default=None, ge=0)  # None: 1 when device is cuda, else 0
    env_vars: dict[str, str] | None = None  # e.g. {"WARRANT_NLI_THREADS": "1"} for several CPU replicas per node

    @model_validator(mode="after")
    def _replica_bounds(self) -> "PoolConfig":
        if self.min_replicas > self.max_replicas:
            raise ValueError(f"min_replicas ({self.min_replicas}) is above max_replicas ({self.max_replicas})")
        return self

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> "PoolConfig":
        """pydantic.ValidationError (a ValueError) naming each bad field."""
        return cls.model_validate(dict(d or {}))

    @classmethod
    def from_yaml(cls, path: str | Path) -> "PoolConfig":
        import yaml

        doc = yaml.safe_load(Path(path).read_text()) or {}
        section = doc.get("verifier_pool", doc) if isinstance(doc, dict) else doc
        try:
            return cls.model_validate(section)
        except ValidationError as exc:
            where = "verifier_pool." if isinstance(doc, dict) and "verifier_pool" in doc else ""
            errors = "; ".join(f"{where}{'.'.join(map(str, e['loc'])) or '(top level)'}: {e['msg']}" for e in exc.errors())
            raise ValueError(f"{path}: {errors}") from None

    def to_dict(self) -> dict[str, Any]:
        return self.model_dump()

    @property
    def gpus(self) -> float:
        return self.num_gpus if self.num_gpus is not None else (1.0 if self.device.startswith("cuda") else 0.0)

    def autoscaling_config(self) -> dict[str, Any]:
        cfg = {
            "min_replicas": self.min_replicas,
            "max_replicas": self.max_replicas,
            "target_ongoing_requests": self.target_ongoing_requests,
            "upscale_delay_s": self.upscale_delay_s,
            "downscale_delay_s": self.downscale_delay_s,
        }
        cfg["look_back_period_s"] = self.look_back_period_s
        if self.initial_replicas is not None:
            cfg["initial_replicas"] = self.initial_replicas
        if self.metrics_interval_s is not None:
            cfg["metrics_interval_s"] = self.metrics_interval_s
        return cfg

    def deployment_options(self) -> dict[str, Any]:
        opts: dict[str, Any] = {
            "name": VERIFIER_DEPLOYMENT,
            "max_ongoing_requests": self.max_ongoing_requests,
            "ray_actor_options": {"num_cpus": self.num_cpus, "num_gpus": self.gpus},
        }
        if self.env_vars:
            opts["ray_actor_options"]["runtime_env"] = {"env_vars": dict(self.env_vars)}
        if self.num_replicas is not None:
            opts["num_replicas"] = self.num_replicas
        else:
            opts["autoscaling_config"] = self.autoscaling_config()
        return opts


@serve.deployment(name=VERIFIER_DEPLOYMENT, max_ongoing_requests=1024)
class VerifierPool:
    def __init__(self, ledger_uri: str, model: str = "default", device: str = "cpu", max_batch_size: int = 64, batch_wait_timeout_s: float = 0.01):
        # The model loads now, once per replica; the ledger opens on the first batch, because a
        # pool can start before anything created the ledger (the LedgerActor does that).
        self._backend = None if model in (None, "", NO_MODEL) else _load_backend(model, device)
        self._uri = ledger_uri
        self._verifier: Verifier | None = None
        self._check_batch.set_max_batch_size(max_batch_size)
        self._check_batch.set_batch_wait_timeout_s(batch_wait_timeout_s)
        self._batches = 0
        self._checked = 0

    async def check(self, run_id: str, claim: Claim, proposition: Proposition, rejected: Rejected | None = None) -> PropositionVerdict:
        return await self._check_batch((run_id, claim, proposition, rejected or {}))

    @serve.batch(max_batch_size=64, batch_wait_timeout_s=0.01)
    async def _check_batch(self, requests: list[tuple[str, Claim, Proposition, Rejected]]) -> list[PropositionVerdict]:
        # The model call blocks; off the event loop it lets the next batch queue up meanwhile.
        return await asyncio.to_thread(self._decide, requests)

    def _decide(self, requests: list[tuple[str, Claim, Proposition, Rejected]]) -> list[PropositionVerdict]:
        if self._verifier is None:
            self._verifier = Verifier(LedgerClient(self._uri), self._backend)
        self._batches += 1
        self._checked += len(requests)
        return decide_grouped(self._verifier, requests)

    def info(self) -> dict[str, Any]:
        return {"pid": os.getpid(), "backend": self._backend.name if self._backend else "none", "batches": self._batches, "checked": self._checked}


def decide_grouped(verifier: Verifier, requests: Sequence[tuple[str, Claim, Proposition, Rejected]]) -> list[PropositionVerdict]:
    """One `Verifier.check` per run in the batch (check is per run: citations are run-scoped)."""
    by_run: dict[str, list[int]] = {}
    for i, (run_id, *_rest) in enumerate(requests):
        by_run.setdefault(run_id, []).append(i)
    out: list[PropositionVerdict | None] = [None] * len(requests)
    for run_id, idx in by_run.items():
        rejected: Rejected = {}
        for i in idx:
            for k, v in requests[i][3].items():
                rejected.setdefault(k, []).extend(v)
        for i, v in zip(idx, verifier.check(run_id, [(requests[i][1], requests[i][2]) for i in idx], rejected)):
            out[i] = v
    return out  # type: ignore[return-value]


def _load_backend(model: str, device: str):
    from warrant.runtime.verify.backends.registry import load_backend

    return load_backend(model, device=device)


def pool_app(ledger_uri: str, config: PoolConfig | None = None):
    """The pool as a Serve application (bind it alone, or pass it to the ingress)."""
    c = config or PoolConfig()
    return VerifierPool.options(**c.deployment_options()).bind(ledger_uri, c.model, c.device, c.max_batch_size, c.batch_wait_timeout_s)


class PoolChecker:
    """The verifier's batch core on the pool: a `runtime.ports.PropositionChecker`."""

    def __init__(self, pool, *, retries: int = 5, retry_wait_s: float = 0.5):
        self._pool = pool
        self._retries = retries
        self._retry_wait_s = retry_wait_s
        self.resent = 0  # checks sent again after their replica died (visible to tests, benchmarks)

    def check(self, run_id: str, tasks, rejected_before=None, *, progress: Callable[[int, int], None] | None = None) -> list[PropositionVerdict]:
        rejected_before = rejected_before or {}

        def send(claim: Claim, prop: Proposition):
            key = (prop.pred, frozenset(prop.ledger_ids))
            subset = {key: rejected_before[key]} if key in rejected_before else {}
            return self._pool.check.remote(run_id, claim, prop, subset)

        results = resend_until_answered([lambda c=c, p=p: send(c, p) for c, p in tasks], self._retries, self._retry_wait_s, self._count_resent)
        if progress:
            progress(len(tasks), len(tasks))
        return results

    def _count_resent(self, n: int) -> None:
        self.resent += n


def resend_until_answered(
    senders: Sequence[Callable[[], Any]], retries: int = 5, wait_s: float = 0.5, on_resend: Callable[[int], None] | None = None
) -> list[Any]:
    """Send every request, collect every answer; resend those lost to a dead replica.

    At-least-once: a request whose replica died after it was checked is checked again, which is
    safe only because checks are idempotent (they read immutable evidence and write nothing); the
    answer kept is the one that came back. An error raised by the verifier's own code
    (RayTaskError) is not retried: it would fail again.
    """
    from ray.exceptions import RayError, RayTaskError
    from ray.serve.exceptions import BackPressureError, DeploymentUnavailableError, ReplicaUnavailableError

    lost = (RayError, BackPressureError, DeploymentUnavailableError, ReplicaUnavailableError)

    out: list[Any] = [None] * len(senders)
    todo = list(range(len(senders)))
    for attempt in range(retries + 1):
        inflight = [(i, senders[i]()) for i in todo]
        todo = []
        last: BaseException | None = None
        for i, resp in inflight:
            try:
                out[i] = resp.result()
            except RayTaskError:
                raise
            except lost as exc:
                last = exc
                todo.append(i)
        if not todo:
            return out
        if attempt == retries:
            raise RuntimeError(f"{len(todo)} proposition check(s) still failing after {retries} retries") from last
        if on_resend:
            on_resend(len(todo))
        time.sleep(wait_s)
    return out


__all__ = [
    "NO_MODEL",
    "PoolConfig",
    "PoolChecker",
    "VERIFIER_DEPLOYMENT",
    "VerifierPool",
    "decide_grouped",
    "pool_app",
    "resend_until_answered",
]


