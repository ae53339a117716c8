"""The typed tool bus: the only way an agent's action intent becomes a tool call.

`propose` is pure validation (nothing runs, nothing is written). `execute` validates again (the
registry, not the caller's earlier `propose`, is the authority), enforces the irreversibility
edge (verified claim set + a journaled, single-use grant for this exact call), runs the tool under
its timeout, validates the output, stores it in the ledger and journals one `tool_call` entry
whatever happened. Every outcome is a pydantic model with a `status` literal: callers and
planners dispatch on data, never on prose.
"""

from __future__ import annotations

import copy
import threading
import time
import uuid
from concurrent.futures import Future, wait
from typing import Any, Callable, Iterable, Literal, Protocol, Union

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from warrant.ledger import Journal, Ledger, canonical_json
from warrant.ledger.journal import JournalKind
from warrant.runtime.claimset import ClaimSet, claim_set
from warrant.runtime.contract import ActionIntent, content_hash
from warrant.runtime.grants import GrantBook, GrantRefusal, Policy, RefusalCode
from warrant.runtime.registry import RegisteredTool, ToolRegistry, document_violations, json_problems, jsonable
from warrant.runtime.violations import Violation, from_pydantic


class _Result(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ToolCallAccepted(_Result):
    status: Literal["accepted"] = "accepted"
    tool: str
    version: str  # resolved: the exact version that would run
    args_hash: str
    irreversible: bool
    depends_on: list[str] = Field(default_factory=list)


class ToolCallRejected(_Result):
    status: Literal["rejected"] = "rejected"
    tool: str | None
    version: str | None
    violations: list[Violation]
    call_id: str | None = None  # set when the rejection came from execute (and was journaled)


class UnverifiedClaim(_Result):
    claim_id: str
    status: str  # the latest verdict's status, or "no_verdict"


# The bus refuses for missing/unverified claims, or for any reason the grant book refuses a grant.
RefusedCode = Union[Literal["claims_missing", "claims_unverified", "memory_retracted"], RefusalCode]


class ToolRefused(_Result):
    status: Literal["refused"] = "refused"
    call_id: str
    tool: str
    version: str
    code: RefusedCode
    message: str
    unverified: list[UnverifiedClaim] = Field(default_factory=list)
    grant_id: str | None = None
    grant_refusal: GrantRefusal | None = None


FailedCode = Literal["tool_timeout", "tool_error", "bad_output", "ledger_error"]


class ToolFailed(_Result):
    status: Literal["failed"] = "failed"
    call_id: str
    tool: str
    version: str
    code: FailedCode
    message: str
    violations: list[Violation] = Field(default_factory=list)
    # What the failed call may have done to the world: "reversible" (a reversible tool ran),
    # "unknown" (an irreversible tool started and did not finish cleanly: it may have acted),
    # "applied" (an irreversible tool finished but its output could not be stored).
    effect: Literal["reversible", "unknown", "applied"]


class ToolResult(_Result):
    status: Literal["ok"] = "ok"
    call_id: str
    tool: str
    version: str
    ledger_id: str
    output: Any


class MemoryGuard(Protocol):
    """What the bus asks memory (runtime.memory.Memory): which of these ids are retracted
    (REFUTED), derived from a retracted node (SUSPECT), or unknown memory nodes."""

    def blocked(self, ids: Iterable[str]) -> dict[str, str]: ...


ProposeOutcome = Union[ToolCallAccepted, ToolCallRejected]
ExecuteOutcome = Union[ToolResult, ToolCallRejected, ToolRefused, ToolFailed]


def new_call_id() -> str:
    return "call_" + uuid.uuid4().hex[:16]


def _clean(v: Violation) -> Violation:
    # Violations carry the offending value; anything not JSON becomes its repr so every result
    # (and the journal entry that copies it) stays serialisable.
    return v.model_copy(update={"expected": jsonable(v.expected), "got": jsonable(v.got)})


class ToolBus:
    def __init__(
        self,
        registry: ToolRegistry,
        ledger: Ledger,
        journal: Journal,
        grants: GrantBook,
        policy: Policy | None = None,
        memory: MemoryGuard | None = None,
    ):
        self.registry = registry
        self._memory = memory
        self._ledger = ledger
        self._journal = journal
        self._grants = grants
        self._policy = policy
        self._stuck = 0
        self._stuck_lock = threading.Lock()

    @property
    def stuck_calls(self) -> int:
        """Timed-out tool threads still running. Python cannot kill a thread; this makes leaks visible."""
        return self._stuck

    # -- validation ------------------------------------------------------------------------------
    def propose(self, run_id: str, intent: ActionIntent | dict[str, Any]) -> ProposeOutcome:
        """Accept or reject a call without running anything."""
        return self._validate(intent)[0]

    def _validate(self, intent: Any) -> tuple[ProposeOutcome, ActionIntent | None, RegisteredTool | None]:
        raw_tool = raw_version = None
        if isinstance(intent, dict):
            raw_tool = intent.get("tool") if isinstance(intent.get("tool"), str) else None
            raw_version = intent.get("version") if isinstance(intent.get("version"), str) else None
            try:
                intent = ActionIntent.model_validate(intent)
            except ValidationError as exc:
                return self._rejected(raw_tool, raw_version, from_pydantic(exc.errors())), None, None
        elif not isinstance(intent, ActionIntent):
            v = Violation(
                code="wrong_type", loc="$", message="an action intent is a JSON object", expected="object", got=type(intent).__name__
            )
            return self._rejected(None, None, [v]), None, None

        tool, violations = self.registry.check_intent(intent)
        if tool is None:
            return self._rejected(intent.tool, intent.version, violations), intent, None
        if violations:
            return self._rejected(tool.name, tool.version, violations), intent, tool
        accepted = ToolCallAccepted(
            tool=tool.name,
            version=tool.version,
            args_hash=content_hash(intent.args),
            irreversible=tool.irreversible,
            depends_on=list(intent.depends_on),
        )
        return accepted, intent.model_copy(update={"version": tool.version}), tool

    @staticmethod
    def _rejected(tool: str | None, version: str | None, violations: list[Violation]) -> ToolCallRejected:
        return ToolCallRejected(tool=tool, version=version, violations=[_clean(v) for v in violations])

    # -- execution -------------------------------------------------------------------------------
    def execute(self, run_id: str, intent: ActionIntent | dict[str, Any], grant_id: str | None = None) -> ExecuteOutcome:
        if not isinstance(run_id, str) or not run_id:
            raise ValueError(f"run_id: expected a non-empty string, got {run_id!r}")
        call_id = new_call_id()
        started = time.monotonic()
        outcome, resolved, tool = self._validate(intent)
        record: dict[str, Any] = {
            "call_id": call_id,
            "tool": outcome.tool,
            "version": outcome.version,
            "args": None,
            "args_hash": None,
            "depends_on": list(resolved.depends_on) if resolved else [],
            "grant_id": grant_id,
            "claim_set_hash": None,
            "registry_hash": self.registry.hash,
        }
        if resolved is not None and not json_problems(resolved.args):
            record["args"] = resolved.args
            record["args_hash"] = content_hash(resolved.args)

        def finish(result: ExecuteOutcome, *, ledger_id: str | None = None, error: str | None = None, effect: str) -> ExecuteOutcome:
            self._journal.record(
                run_id,
                JournalKind.TOOL_CALL,
                call_id,
                dict(
                    record,
                    status=result.status,
                    ledger_id=ledger_id,
                    error=error,
                    effect=effect,
                    duration_ms=round((time.monotonic() - started) * 1000, 3),
                ),
            )
            return result

        if isinstance(outcome, ToolCallRejected):
            rejected = outcome.model_copy(update={"call_id": call_id})
            return finish(rejected, error=outcome.violations[0].code, effect="none")
        assert resolved is not None and tool is not None

        if self._memory is not None and resolved.depends_on:
            blocked = self._memory.blocked(resolved.depends_on)
            if blocked:
                listed = ", ".join(f"{k} ({v})" for k, v in sorted(blocked.items()))
                refused = ToolRefused(
                    call_id=call_id, tool=tool.name, version=tool.version, code="memory_retracted",
                    message=f"the intent depends on memory that was retracted or derives from a retraction: {listed}",
                )
                return finish(refused, error="memory_retracted", effect="none")

        if tool.irreversible:
            refused = self._authorise(run_id, call_id, resolved, tool, grant_id, record)
            if refused is not None:
                return finish(refused, error=refused.code, effect="none")

        # The tool gets its own copy: the args it sees are the args that were hashed and granted.
        done, value, exc = self._run(tool, copy.deepcopy(resolved.args))
        ran_effect = "applied" if tool.irreversible else "reversible"
        failed_effect = "unknown" if tool.irreversible else "reversible"
        def fail(code: str, message: str, violations: list[Violation] = ()) -> ExecuteOutcome:
            failed = ToolFailed(
                call_id=call_id,
                tool=tool.name,
                version=tool.version,
                code=code,
                message=message,
                violations=[_clean(v) for v in violations],
                effect=failed_effect,
            )
            return finish(failed, error=code, effect=failed_effect)

        if not done:
            return fail("tool_timeout", f"{tool.name} {tool.version} did not finish within {tool.timeout_s:g} s")
        if exc is not None:
            return fail("tool_error", f"{type(exc).__name__}: {exc}")
        violations = document_violations(tool.output_validator, value, "output")
        if violations:
            return fail("bad_output", f"{tool.name} {tool.version} returned output that violates its output schema", violations)

        try:
            ledger_id = self._ledger.append(
                run_id,
                canonical_json(value),
                kind="tool_output",
                media_type="application/json",
                source={"tool": tool.name, "tool_version": tool.version, "call_id": call_id},
            )
        except Exception as exc:  # the output exists but cannot be cited: the caller must not use it
            failed = ToolFailed(
                call_id=call_id,
                tool=tool.name,
                version=tool.version,
                code="ledger_error",
                message=f"the output could not be stored: {type(exc).__name__}: {exc}",
                effect=ran_effect,
            )
            return finish(failed, error="ledger_error", effect=ran_effect)
        result = ToolResult(call_id=call_id, tool=tool.name, version=tool.version, ledger_id=ledger_id, output=value)
        return finish(result, ledger_id=ledger_id, effect=ran_effect)

    def _authorise(
        self,
        run_id: str,
        call_id: str,
        intent: ActionIntent,
        tool: RegisteredTool,
        grant_id: str | None,
        record: dict[str, Any],
    ) -> ToolRefused | None:
        def refuse(code: str, message: str, **kw: Any) -> ToolRefused:
            return ToolRefused(call_id=call_id, tool=tool.name, version=tool.version, code=code, message=message, **kw)

        if not intent.depends_on:
            return refuse(
                "claims_missing",
                f"{tool.name} is irreversible: the intent must depend on the verified claims that justify it",
            )
        cs: ClaimSet = claim_set(self._journal, run_id, intent.depends_on)
        record["claim_set_hash"] = cs.hash
        if not cs.verified:
            return refuse(
                "claims_unverified",
                "every claim an irreversible call depends on must have a latest verdict of 'supported'",
                unverified=[UnverifiedClaim(claim_id=c, status=s) for c, s in cs.unverified],
            )
        if grant_id is None and self._policy is not None:
            granted = self._policy.try_grant(run_id, intent, cs, self._grants)
            if granted is not None:
                grant_id = granted.grant_id
                record["grant_id"] = grant_id
        if grant_id is None:
            return refuse(
                "grant_missing",
                f"{tool.name} is irreversible: it needs a human approval or a policy grant for this exact call",
            )
        refusal: GrantRefusal | None = self._grants.consume(
            grant_id,
            run_id=run_id,
            tool=tool.name,
            version=tool.version,
            args=intent.args,
            claim_set_hash=cs.hash,
            call_id=call_id,
        )
        if refusal is not None:
            return refuse(refusal.code, refusal.message, grant_id=grant_id, grant_refusal=refusal)
        return None

    def _run(self, tool: RegisteredTool, args: dict[str, Any]) -> tuple[bool, Any, BaseException | None]:
        """(finished, value, exception). A daemon thread, not a pool: a tool that never returns
        must neither hold a pool slot forever nor block interpreter exit."""
        fut: Future[Any] = Future()

        def target(fn: Callable[[dict[str, Any]], Any] = tool.fn) -> None:
            if not fut.set_running_or_notify_cancel():
                return
            try:
                fut.set_result(fn(args))
            except BaseException as exc:  # noqa: BLE001 - whatever the tool raises is its failure
                fut.set_exception(exc)

        threading.Thread(target=target, name=f"warrant-tool-{tool.name}", daemon=True).start()
        # wait(), not result(timeout): a tool that itself raises TimeoutError is an error, not a timeout.
        finished, _ = wait([fut], timeout=tool.timeout_s)
        if not finished:
            with self._stuck_lock:
                self._stuck += 1
            fut.add_done_callback(self._unstick)
            return False, None, None
        exc = fut.exception()
        return True, (fut.result() if exc is None else None), exc

    def _unstick(self, _fut: Future[Any]) -> None:
        with self._stuck_lock:
            self._stuck -= 1


__all__ = [
    "ExecuteOutcome",
    "ProposeOutcome",
    "ToolBus",
    "ToolCallAccepted",
    "ToolCallRejected",
    "ToolFailed",
    "ToolRefused",
    "ToolResult",
    "UnverifiedClaim",
    "new_call_id",
]
