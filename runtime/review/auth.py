"""Who may review: reviewer accounts (scrypt password hashes), sessions and CSRF tokens.

Accounts live in a JSON file the operator manages (`warrant review add-reviewer`), written with
mode 0600. Each account names the agent identities its person operates: that person may not
approve a call one of those agents planned (an agent's owner approving its own action is no
second pair of eyes). Sessions are server-side and random; the cookie holds only the token.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import secrets
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from warrant.runtime.violations import Violation, from_pydantic

# A reviewer's name becomes the grant issuer "human:<name>": the same alphabet as runtime.grants.
REVIEWER_NAME = r"^[A-Za-z0-9_.@-]{1,64}$"
# scrypt at n=2**14, r=8: 16 MiB and tens of milliseconds per guess (the stdlib's own, no extra
# package); the parameters are stored with each hash so they can be raised later.
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**14, 8, 1
MIN_PASSWORD = 10


class AuthError(ValueError):
    def __init__(self, violations: list[Violation], source: str = "reviewers"):
        self.violations = violations
        super().__init__(f"{source}: " + "; ".join(f"{v.loc}: {v.message}" for v in violations))


def _b64(b: bytes) -> str:
    return base64.b64encode(b).decode("ascii")


def hash_password(password: str, *, n: int = SCRYPT_N, r: int = SCRYPT_R, p: int = SCRYPT_P) -> str:
    salt = secrets.token_bytes(16)
    dk = hashlib.scrypt(password.encode("utf-8"), salt=salt, n=n, r=r, p=p, dklen=32, maxmem=256 * n * r + 1024 * 1024)
    return f"scrypt${n}${r}${p}${_b64(salt)}${_b64(dk)}"


def check_password(password: str, stored: str) -> bool:
    try:
        scheme, n, r, p, salt, dk = stored.split("$")
        if scheme != "scrypt":
            return False
        n_, r_, p_ = int(n), int(r), int(p)
        want = base64.b64decode(dk)
        got = hashlib.scrypt(password.encode("utf-8"), salt=base64.b64decode(salt), n=n_, r=r_, p=p_, dklen=len(want),
                             maxmem=256 * n_ * r_ + 1024 * 1024)
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(got, want)


class Reviewer(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(pattern=REVIEWER_NAME)
    password_hash: str = Field(pattern=r"^scrypt\$\d+\$\d+\$\d+\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$")
    agents: list[str] = Field(default_factory=list)  # agent identities this person operates


class _File(BaseModel):
    model_config = ConfigDict(extra="forbid")

    reviewers: list[Reviewer] = Field(default_factory=list)


class ReviewerBook:
    def __init__(self, reviewers: list[Reviewer] | None = None, path: str | Path | None = None):
        self.path = Path(path) if path else None
        self._by_name: dict[str, Reviewer] = {}
        for r in reviewers or []:
            self._by_name[r.name] = r
        # Unknown names still cost one scrypt, so response time does not tell which names exist.
        self._dummy = hash_password(secrets.token_hex(8))

    @classmethod
    def load(cls, path: str | Path, *, missing_ok: bool = False) -> "ReviewerBook":
        p = Path(path)
        if not p.exists():
            if missing_ok:
                return cls([], p)
            raise AuthError([Violation(code="missing_file", loc="$", message=f"no reviewer file at {p}; "
                                       "create one with: warrant review add-reviewer NAME")], str(p))
        try:
            data: Any = json.loads(p.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise AuthError([Violation(code="invalid_json", loc="$", message=f"cannot read {p}: {exc}")], str(p)) from None
        try:
            parsed = _File.model_validate(data)
        except ValidationError as exc:
            raise AuthError(from_pydantic(exc.errors()), str(p)) from None
        names = [r.name for r in parsed.reviewers]
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            i = names.index(dupes[0], names.index(dupes[0]) + 1)
            raise AuthError([Violation(code="duplicate", loc=f"$.reviewers[{i}].name", message="reviewer names must be unique",
                                       got=dupes[0])], str(p))
        return cls(parsed.reviewers, p)

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    def __len__(self) -> int:
        return len(self._by_name)

    def get(self, name: str) -> Reviewer | None:
        return self._by_name.get(name)

    def add(self, name: str, password: str, agents: list[str] | None = None) -> Reviewer:
        """Add or replace an account (validated: name alphabet, password length)."""
        if not isinstance(password, str) or len(password) < MIN_PASSWORD:
            raise AuthError([Violation(code="bad_value", loc="$.password", message=f"a password has at least {MIN_PASSWORD} characters")])
        try:
            r = Reviewer(name=name, password_hash=hash_password(password), agents=list(agents or []))
        except ValidationError as exc:
            raise AuthError(from_pydantic(exc.errors())) from None
        self._by_name[name] = r
        return r

    def save(self, path: str | Path | None = None) -> Path:
        p = Path(path or self.path or "reviewers.json")
        p.parent.mkdir(parents=True, exist_ok=True)
        tmp = p.with_suffix(p.suffix + ".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(_File(reviewers=list(self._by_name.values())).model_dump(mode="json"), f, indent=1)
        os.replace(tmp, p)
        self.path = p
        return p

    def authenticate(self, name: str, password: str) -> Reviewer | None:
        r = self._by_name.get(name) if isinstance(name, str) else None
        ok = check_password(password if isinstance(password, str) else "", r.password_hash if r else self._dummy)
        return r if (ok and r is not None) else None


@dataclass
class Session:
    token: str
    reviewer: str
    agents: tuple[str, ...]
    csrf: str = field(default_factory=lambda: secrets.token_urlsafe(32))
    created: float = field(default_factory=time.monotonic)
    last_seen: float = field(default_factory=time.monotonic)


class Sessions:
    """In memory on purpose: a restart logs reviewers out (the queue itself lives in the journal)."""

    def __init__(self, *, max_age_s: float = 8 * 3600, idle_s: float = 30 * 60):
        self.max_age_s, self.idle_s = max_age_s, idle_s
        self._by_token: dict[str, Session] = {}
        self._lock = threading.Lock()

    def create(self, reviewer: Reviewer) -> Session:
        s = Session(token=secrets.token_urlsafe(32), reviewer=reviewer.name, agents=tuple(reviewer.agents))
        with self._lock:
            self._by_token[s.token] = s
        return s

    def get(self, token: str | None) -> Session | None:
        if not token:
            return None
        now = time.monotonic()
        with self._lock:
            s = self._by_token.get(token)
            if s is None:
                return None
            if now - s.created > self.max_age_s or now - s.last_seen > self.idle_s:
                del self._by_token[token]
                return None
            s.last_seen = now
            return s

    def drop(self, token: str | None) -> None:
        with self._lock:
            self._by_token.pop(token or "", None)


def same_token(a: str | None, b: str | None) -> bool:
    """CSRF comparison: both present and equal, in constant time."""
    return bool(a) and bool(b) and hmac.compare_digest(str(a).encode(), str(b).encode())


__all__ = ["AuthError", "Reviewer", "ReviewerBook", "Session", "Sessions", "check_password", "hash_password", "same_token"]
