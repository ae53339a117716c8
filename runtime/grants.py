"""Grants: permission for one exact irreversible call, given by a human or a named policy rule.

A grant binds run, tool, version, the hash of the exact arguments and the hash of the claim set
(the exact verdict entries) the approver saw. It is single use. Only grants recorded in the
journal count: `consume` takes a grant id and reads the grant back from the journal, so a Grant
object or id an agent made up authorises nothing.

"Spent" is read from the journal, so a journal rolled back on storage (newest manifests deleted,
an old version restored) would make a spent grant look unspent. Before deciding, `consume` checks
the journal's stored head against its checkpoint and refuses (`ledger_rolled_back`) when it is
behind.
"""

from __future__ import annotations

import copy
import datetime as dt
import re
import threading
import uuid
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Literal, Mapping

from pydantic import BaseModel, ConfigDict, ValidationError

from warrant.ledger import Journal, LedgerError
from warrant.ledger.journal import JournalKind
from warrant.runtime.claimset import ClaimSet, claim_set
from warrant.runtime.contract import ActionIntent, content_hash

DEFAULT_TTL_S = 900.0
_NAME = re.compile(r"^[A-Za-z0-9_.@-][A-Za-z0-9_.@ -]{0,127}$")

RefusalCode = Literal[
    "grant_unknown",
    "grant_wrong_run",
    "grant_wrong_call",
    "grant_args_mismatch",
    "grant_claims_mismatch",
    "grant_expired",
    "grant_replayed",
    "grant_missing",
    "ledger_rolled_back",
]


def _utcnow() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc)


def _aware(now: dt.datetime | None) -> dt.datetime:
    if now is None:
        return _utcnow()
    if now.tzinfo is None:
        # A naive time could be local or UTC; guessing would shift every expiry by the offset.
        raise ValueError(f"now: expected a timezone-aware datetime, got {now!r}")
    return now


class Grant(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    grant_id: str
    run_id: str
    tool: str
    version: str
    args_hash: str
    claim_set_hash: str
    issuer: str  # "human:<name>" or "policy:<rule name>"
    issued_at: dt.datetime
    expires_at: dt.datetime


class GrantRefusal(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    code: RefusalCode
    message: str
    grant_id: str | None = None
    expected: Any = None
    got: Any = None


class GrantBook:
    """Issues grants into the journal and consumes them from it."""

    def __init__(self, journal: Journal):
        self._journal = journal
        # The journal has one writer per store, so an in-process lock is enough to make
        # check-then-record atomic: two threads cannot both spend one grant.
        self._lock = threading.Lock()

    def issue_human(
        self,
        run_id: str,
        tool: str,
        version: str,
        args: dict[str, Any],
        claim_set_hash: str,
        approver: str,
        ttl_s: float = DEFAULT_TTL_S,
        *,
        now: dt.datetime | None = None,
    ) -> Grant:
        return self._issue(run_id, tool, version, args, claim_set_hash, f"human:{_name(approver, 'approver')}", ttl_s, now)

    def issue_policy(
        self,
        run_id: str,
        tool: str,
        version: str,
        args: dict[str, Any],
        claim_set_hash: str,
        rule: str,
        ttl_s: float = DEFAULT_TTL_S,
        *,
        now: dt.datetime | None = None,
    ) -> Grant:
        return self._issue(run_id, tool, version, args, claim_set_hash, f"policy:{_name(rule, 'rule')}", ttl_s, now)

    def _issue(
        self,
        run_id: str,
        tool: str,
        version: str,
        args: dict[str, Any],
        claim_set_hash: str,
        issuer: str,
        ttl_s: float,
        now: dt.datetime | None,
    ) -> Grant:
        if not isinstance(version, str) or not version:
            # A grant for "whatever version is newest" would silently cover a tool upgrade.
            raise ValueError(f"version: expected an exact tool version, got {version!r}")
        if not isinstance(ttl_s, (int, float)) or isinstance(ttl_s, bool) or not ttl_s > 0:
            raise ValueError(f"ttl_s: expected a positive number of seconds, got {ttl_s!r}")
        issued = _aware(now)
        grant = Grant(
            grant_id="grt_" + uuid.uuid4().hex,
            run_id=run_id,
            tool=tool,
            version=version,
            args_hash=content_hash(args),
            claim_set_hash=claim_set_hash,
            issuer=issuer,
            issued_at=issued,
            expires_at=issued + dt.timedelta(seconds=float(ttl_s)),
        )
        self._journal.record(run_id, JournalKind.GRANT, grant.grant_id, grant.model_dump(mode="json"))
        return grant

    def lookup(self, grant_id: str) -> Grant | None:
        """The journaled grant with this id, or None."""
        for e in self._journal.entries(kind=JournalKind.GRANT, subject=grant_id):
            try:
                return Grant.model_validate(
                    {
                        **e.payload,
                        "issued_at": dt.datetime.fromisoformat(e.payload["issued_at"]),
                        "expires_at": dt.datetime.fromisoformat(e.payload["expires_at"]),
                    }
                )
            except (KeyError, TypeError, ValueError, ValidationError):
                return None
        return None

    def used(self, grant_id: str) -> bool:
        return bool(self._journal.entries(kind=JournalKind.GRANT_USED, subject=grant_id))

    def consume(
        self,
        grant_id: str,
        *,
        run_id: str,
        tool: str,
        version: str,
        args: dict[str, Any],
        claim_set_hash: str,
        now: dt.datetime | None = None,
        call_id: str | None = None,
    ) -> GrantRefusal | None:
        """None when the grant covers exactly this call and is now spent; otherwise why not."""
        if not isinstance(grant_id, str) or not grant_id:
            return GrantRefusal(code="grant_missing", message="an irreversible call needs a grant id", got=grant_id)
        with self._lock:
            try:
                self._journal.check_head()
            except LedgerError as exc:
                return GrantRefusal(
                    code="ledger_rolled_back",
                    message="the journal as stored is behind its checkpoint, so a spent grant could "
                    f"look unspent; nothing runs until it is restored: {exc}",
                    grant_id=grant_id,
                )
            g = self.lookup(grant_id)
            if g is None:
                return GrantRefusal(
                    code="grant_unknown",
                    message="no grant with this id was ever issued (only journaled grants count)",
                    grant_id=grant_id,
                    got=grant_id,
                )
            refusal = _mismatch(g, run_id, tool, version, content_hash(args), claim_set_hash)
            if refusal is not None:
                return refusal
            if self.used(grant_id):
                return GrantRefusal(
                    code="grant_replayed",
                    message="this grant was already used; a grant authorises one call",
                    grant_id=grant_id,
                )
            at = _aware(now)
            if at >= g.expires_at:
                return GrantRefusal(
                    code="grant_expired",
                    message="the grant expired before it was used",
                    grant_id=grant_id,
                    expected=f"before {g.expires_at.isoformat()}",
                    got=at.isoformat(),
                )
            self._journal.record(
                run_id,
                JournalKind.GRANT_USED,
                grant_id,
                {"grant_id": grant_id, "call_id": call_id, "used_at": at.isoformat(), "issuer": g.issuer},
            )
            return None


def _mismatch(g: Grant, run_id: str, tool: str, version: str, args_hash: str, claim_set_hash: str) -> GrantRefusal | None:
    if g.run_id != run_id:
        return GrantRefusal(
            code="grant_wrong_run", message="the grant was issued for another run", grant_id=g.grant_id, expected=g.run_id, got=run_id
        )
    if (g.tool, g.version) != (tool, version):
        return GrantRefusal(
            code="grant_wrong_call",
            message="the grant was issued for another tool or version",
            grant_id=g.grant_id,
            expected=f"{g.tool}@{g.version}",
            got=f"{tool}@{version}",
        )
    if g.args_hash != args_hash:
        return GrantRefusal(
            code="grant_args_mismatch",
            message="the grant was issued for other arguments",
            grant_id=g.grant_id,
            expected=g.args_hash,
            got=args_hash,
        )
    if g.claim_set_hash != claim_set_hash:
        return GrantRefusal(
            code="grant_claims_mismatch",
            message="the claims this call depends on changed (or are others) since the grant was issued",
            grant_id=g.grant_id,
            expected=g.claim_set_hash,
            got=claim_set_hash,
        )
    return None


def _name(value: str, what: str) -> str:
    if not isinstance(value, str) or not _NAME.match(value):
        raise ValueError(f"{what}: expected a name of letters, digits, space and _.@- (1-128 chars), got {value!r}")
    return value


# -- policy grants -------------------------------------------------------------------------------


@dataclass(frozen=True)
class PolicyRule:
    """Auto-approves calls of one tool whose arguments and verdicts satisfy `predicate`.

    `predicate(args, verdicts)` gets the call's arguments and, per depended claim, the latest
    verdict payload. It is only asked once every depended claim is verified, so a rule cannot
    approve past an unsupported claim; it can only be stricter.
    """

    name: str
    tool: str
    predicate: Callable[[Mapping[str, Any], Mapping[str, Mapping[str, Any]]], bool]
    description: str = ""
    version: str | None = None  # None: any version of the tool
    ttl_s: float = 60.0  # a policy grant is issued and spent in the same execute

    def __post_init__(self) -> None:
        _name(self.name, "rule name")


class Policy:
    def __init__(self, rules: Iterable[PolicyRule]):
        self.rules: tuple[PolicyRule, ...] = tuple(rules)
        names = [r.name for r in self.rules]
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            raise ValueError(f"policy rule names must be unique; repeated: {dupes}")

    def matching(self, tool: str, version: str) -> list[PolicyRule]:
        return [r for r in self.rules if r.tool == tool and r.version in (None, version)]

    def approving_rule(self, intent: ActionIntent, claim_set: ClaimSet) -> PolicyRule | None:
        """The first rule that accepts exactly this call, without issuing anything (a transport
        that must decide before any side effect, e.g. LangGraph's interrupt, asks this).

        `intent.version` must be the resolved version: grants bind exact versions.
        """
        if intent.version is None:
            raise ValueError("intent.version: resolve the tool version before asking the policy")
        if not claim_set.verified:
            return None
        verdicts = claim_set.verdicts
        for rule in self.matching(intent.tool, intent.version):
            try:
                # A copy: a rule must not be able to change the arguments it approves.
                if rule.predicate(copy.deepcopy(intent.args), verdicts) is True:
                    return rule
            except Exception:
                # A rule that cannot decide does not approve; the call waits for a human.
                continue
        return None

    def try_grant(self, run_id: str, intent: ActionIntent, claim_set: ClaimSet, grants: GrantBook) -> Grant | None:
        """A journaled policy grant for exactly this call if a rule accepts it, else None."""
        rule = self.approving_rule(intent, claim_set)
        if rule is None:
            return None
        return grants.issue_policy(run_id, intent.tool, intent.version, intent.args, claim_set.hash, rule.name, rule.ttl_s)


__all__ = [
    "DEFAULT_TTL_S",
    "ClaimSet",
    "Grant",
    "GrantBook",
    "GrantRefusal",
    "Policy",
    "PolicyRule",
    "RefusalCode",
    "claim_set",
]
