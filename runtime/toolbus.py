"""The typed tool bus: the only way an agent's action intent becomes a tool call.

`propose` is pure validation (nothing runs, nothing is written). `execute` validates again (the
registry, not the caller's earlier `propose`, is the authority), enforces the irreversibility
edge (verified claim set + a journaled, single-use grant for this exact call), runs the tool under
its timeout, validates the output, stores it in the ledger and journals one `tool_call` entry
whatever happened.

`execute` is a sequence of small steps (`_checked`, `_memory_refusal`, `_authorised`, `_ran`);
each either ends the call with an outcome or lets the next step run, and `_journaled` records
whichever outcome ended it. Every outcome is one variant of `ToolOutcome`, a Pydantic union
discriminated by `status`; the journal entry IS the outcome (`outcome.model_dump(mode="json")`),
so `outcome_of(entry.payload)` gives the object back. Callers and planners dispatch on data,
never on prose.
"""

from __future__ import annotations

import copy
import threading
import time
import uuid
from concurrent.futures import Future, wait
from dataclasses import dataclass
from typing import Annotated, Any, Callable, Iterable, Literal, Mapping, Protocol, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from warrant.ledger import Journal, Ledger, canonical_json
from warrant.ledger.journal import JournalKind
from warrant.runtime.claimset import claim_set
from warrant.runtime.contract import ActionIntent, content_hash
from warrant.runtime.grants import GrantBook, GrantRefusal, Policy, RefusalCode
from warrant.runtime.registry import RegisteredTool, ToolRegistry, document_violations, json_problems, jsonable
from warrant.runtime.violations import Violation, from_pydantic


class _Result(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ToolCallAccepted(_Result):
    """`propose`'s yes: nothing ran and nothing was written."""

    status: Literal["accepted"] = "accepted"
    tool: str
    version: str  # resolved: the exact version that would run
    args_hash: str
    irreversible: bool
    depends_on: list[str] = Field(default_factory=list)


class _Journaled(_Result):
    """What the `tool_call` journal entry of an executed call says, whatever became of it. The
    bus fills these when it journals; a `propose` rejection leaves them at their defaults."""

    call_id: str | None = None
    args: Any = None  # None when the args were not JSON (and so were not hashed either)
    args_hash: str | None = None
    depends_on: list[str] = Field(default_factory=list)
    grant_id: str | None = None  # the grant presented, or the one a policy rule issued for this call
    claim_set_hash: str | None = None  # the verdict entries an irreversible call was checked against
    registry_hash: str | None = None
    ledger_id: str | None = None
    error: str | None = None  # the code of a rejection, refusal or failure
    duration_ms: float | None = None


class ToolCallRejected(_Journaled):
    status: Literal["rejected"] = "rejected"
    tool: str | None
    version: str | None
    violations: list[Violation]
    effect: Literal["none"] = "none"


class UnverifiedClaim(_Result):
    claim_id: str
    status: str  # the latest verdict's status, or "no_verdict"


# The bus refuses for missing/unverified claims, or for any reason the grant book refuses a grant.
RefusedCode = Union[Literal["claims_missing", "claims_unverified", "memory_retracted"], RefusalCode]


class ToolRefused(_Journaled):
    status: Literal["refused"] = "refused"
    call_id: str
    tool: str
    version: str
    code: RefusedCode
    message: str
    unverified: list[UnverifiedClaim] = Field(default_factory=list)
    grant_refusal: GrantRefusal | None = None
    effect: Literal["none"] = "none"


FailedCode = Literal["tool_timeout", "tool_error", "bad_output", "ledger_error"]


class ToolFailed(_Journaled):
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


class ToolResult(_Journaled):
    status: Literal["ok"] = "ok"
    call_id: str
    tool: str
    version: str
    ledger_id: str
    output: Any
    effect: Literal["reversible", "applied"]


class MemoryGuard(Protocol):
    """What the bus asks memory (runtime.memory.Memory): which of these ids are retracted
    (REFUTED), derived from a retracted node (SUSPECT), or unknown memory nodes."""

    def blocked(self, ids: Iterable[str]) -> dict[str, str]: ...


ToolOutcome = Annotated[Union[ToolResult, ToolCallRejected, ToolRefused, ToolFailed], Field(discriminator="status")]
ExecuteOutcome = ToolOutcome  # what `execute` returns (the name callers used before the union was one type)
ProposeOutcome = Annotated[Union[ToolCallAccepted, ToolCallRejected], Field(discriminator="status")]
TOOL_OUTCOME: TypeAdapter[Any] = TypeAdapter(ToolOutcome)


def outcome_of(payload: Mapping[str, Any]) -> Any:
    """The outcome a `tool_call` journal entry records (`entry.payload`). Raises pydantic's
    ValidationError, with the field's location, for a payload that is not one (entries written
    before outcomes were journaled whole lack `message`/`output`)."""
    return TOOL_OUTCOME.validate_python(dict(payload))


def new_call_id() -> str:
    return "call_" + uuid.uuid4().hex[:16]


def _clean(v: Violation) -> Violation:
    # Violations carry the offending value; anything not JSON becomes its repr so every result
    # (and the journal entry that copies it) stays serialisable.
    return v.model_copy(update={"expected": jsonable(v.expected), "got": jsonable(v.got)})


@dataclass
class _Call:
    """One `execute` in progress: what its steps learned so far."""

    run_id: str
    call_id: str
    started: float
    grant_id: str | None
    intent: ActionIntent | None = None  # resolved to the exact version, once it validated
    tool: RegisteredTool | None = None
    claim_set_hash: str | None = None


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

    def _validate(self, intent: Any) -> tuple[Any, ActionIntent | None, RegisteredTool | None]:
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

    # -- execution: one step each, the first outcome ends the call --------------------------------
    def execute(self, run_id: str, intent: ActionIntent | dict[str, Any], grant_id: str | None = None) -> ExecuteOutcome:
        if not isinstance(run_id, str) or not run_id:
            raise ValueError(f"run_id: expected a non-empty string, got {run_id!r}")
        call = _Call(run_id, new_call_id(), time.monotonic(), grant_id)
        outcome = self._checked(call, intent) or self._memory_refusal(call) or self._authorised(call) or self._ran(call)
        return self._journaled(call, outcome)

    def _checked(self, call: _Call, intent: Any) -> ToolCallRejected | None:
        outcome, call.intent, call.tool = self._validate(intent)
        return outcome if isinstance(outcome, ToolCallRejected) else None

    def _memory_refusal(self, call: _Call) -> ToolRefused | None:
        if self._memory is None or not call.intent.depends_on:
            return None
        blocked = self._memory.blocked(call.intent.depends_on)
        if not blocked:
            return None
        listed = ", ".join(f"{k} ({v})" for k, v in sorted(blocked.items()))
        return self._refused(call, "memory_retracted",
                             f"the intent depends on memory that was retracted or derives from a retraction: {listed}")

    def _authorised(self, call: _Call) -> ToolRefused | None:
        """None when the call may run: reversible, or irreversible with a verified claim set and a
        grant for exactly this call (presented, or issued now by a policy rule), now spent."""
        tool, intent = call.tool, call.intent
        if not tool.irreversible:
            return None
        if not intent.depends_on:
            return self._refused(call, "claims_missing",
                                 f"{tool.name} is irreversible: the intent must depend on the verified claims that justify it")
        cs = claim_set(self._journal, call.run_id, intent.depends_on)
        call.claim_set_hash = cs.hash
        if not cs.verified:
            return self._refused(call, "claims_unverified",
                                 "every claim an irreversible call depends on must have a latest verdict of 'supported'",
                                 unverified=[UnverifiedClaim(claim_id=c, status=s) for c, s in cs.unverified])
        if call.grant_id is None and self._policy is not None:
            granted = self._policy.try_grant(call.run_id, intent, cs, self._grants)
            call.grant_id = granted.grant_id if granted is not None else None
        if call.grant_id is None:
            return self._refused(call, "grant_missing",
                                 f"{tool.name} is irreversible: it needs a human approval or a policy grant for this exact call")
        refusal: GrantRefusal | None = self._grants.consume(
            call.grant_id, run_id=call.run_id, tool=tool.name, version=tool.version, args=intent.args,
            claim_set_hash=cs.hash, call_id=call.call_id,
        )
        return self._refused(call, refusal.code, refusal.message, grant_refusal=refusal) if refusal is not None else None

    def _ran(self, call: _Call) -> ToolResult | ToolFailed:
        tool = call.tool
        # The tool gets its own copy: the args it sees are the args that were hashed and granted.
        done, value, exc = self._run(tool, copy.deepcopy(call.intent.args))
        if not done:
            return self._failed(call, "tool_timeout", f"{tool.name} {tool.version} did not finish within {tool.timeout_s:g} s")
        if exc is not None:
            return self._failed(call, "tool_error", f"{type(exc).__name__}: {exc}")
        violations = document_violations(tool.output_validator, value, "output")
        if violations:
            return self._failed(call, "bad_output", f"{tool.name} {tool.version} returned output that violates its output schema",
                                violations)
        return self._stored(call, value)

    def _stored(self, call: _Call, value: Any) -> ToolResult | ToolFailed:
        tool = call.tool
        effect = "applied" if tool.irreversible else "reversible"
        try:
            ledger_id = self._ledger.append(
                call.run_id, canonical_json(value), kind="tool_output", media_type="application/json",
                source={"tool": tool.name, "tool_version": tool.version, "call_id": call.call_id},
            )
        except Exception as exc:  # the output exists but cannot be cited: the caller must not use it
            return ToolFailed(call_id=call.call_id, tool=tool.name, version=tool.version, code="ledger_error",
                              message=f"the output could not be stored: {type(exc).__name__}: {exc}", effect=effect)
        return ToolResult(call_id=call.call_id, tool=tool.name, version=tool.version, ledger_id=ledger_id, output=value, effect=effect)

    def _journaled(self, call: _Call, outcome: Any) -> ExecuteOutcome:
        """The outcome with what the journal keeps of every call, recorded as one `tool_call` entry."""
        intent = call.intent
        args_ok = intent is not None and not json_problems(intent.args)
        error = outcome.violations[0].code if isinstance(outcome, ToolCallRejected) else getattr(outcome, "code", None)
        outcome = outcome.model_copy(update=dict(
            call_id=call.call_id,
            args=intent.args if args_ok else None,
            args_hash=content_hash(intent.args) if args_ok else None,
            depends_on=list(intent.depends_on) if intent is not None else [],
            grant_id=call.grant_id,
            claim_set_hash=call.claim_set_hash,
            registry_hash=self.registry.hash,
            error=error,
            duration_ms=round((time.monotonic() - call.started) * 1000, 3),
        ))
        self._journal.record(call.run_id, JournalKind.TOOL_CALL, call.call_id, outcome.model_dump(mode="json"))
        return outcome

    @staticmethod
    def _refused(call: _Call, code: str, message: str, **kw: Any) -> ToolRefused:
        return ToolRefused(call_id=call.call_id, tool=call.tool.name, version=call.tool.version, code=code, message=message, **kw)

    @staticmethod
    def _failed(call: _Call, code: str, message: str, violations: Iterable[Violation] = ()) -> ToolFailed:
        return ToolFailed(call_id=call.call_id, tool=call.tool.name, version=call.tool.version, code=code, message=message,
                          violations=[_clean(v) for v in violations], effect="unknown" if call.tool.irreversible else "reversible")

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
    "TOOL_OUTCOME",
    "ToolBus",
    "ToolCallAccepted",
    "ToolCallRejected",
    "ToolFailed",
    "ToolOutcome",
    "ToolRefused",
    "ToolResult",
    "UnverifiedClaim",
    "new_call_id",
    "outcome_of",
]
