"""API tokens of `warrant serve`: scoped bearer secrets, stored hashed, in a file only its owner reads.

A token reads `wrt_<id>_<secret>`: `id` (8 hex characters) names it in lists and logs and is not
secret; `secret` is 32 random bytes. The file keeps, per id, the SHA-256 of the whole token and
its scopes, never the token itself: whoever reads the file cannot call the API with it. A presented
token is found by its id and its digest compared in constant time.

Scopes (what a token may do over HTTP):
  read      GET /verdicts/{run_id}
  evidence  POST /evidence (write evidence to the ledger)
  submit    POST /artifacts, and POST /tool-calls that only propose
  approve   executing tool calls: POST /artifacts?execute=true, POST /tool-calls with "execute": true

The default file sits next to a local ledger: `.warrant/ledger` -> `.warrant/ledger.tokens.json`.
Example:
    store = TokenStore.for_ledger(".warrant/ledger")
    token, record = store.create(["read", "submit"], name="analyst-agent")   # shown once
    store.verify(token).scopes   # ['read', 'submit']
"""

from __future__ import annotations

import fcntl
import hashlib
import hmac
import os
import re
import secrets
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterable, Iterator, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from warrant.ledger.evidence import RUN_ID_PATTERN

Scope = Literal["read", "evidence", "submit", "approve"]
SCOPES: tuple[str, ...] = ("read", "evidence", "submit", "approve")
PREFIX = "wrt"
_TOKEN = re.compile(rf"^{PREFIX}_([0-9a-f]{{8}})_([A-Za-z0-9_-]{{43}})$")


class TokenStoreError(ValueError):
    """Bad input to the store (unknown scope, unusable path) or an unreadable token file."""


class TokenRecord(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str = Field(pattern=r"^[0-9a-f]{8}$")
    name: str = ""
    scopes: list[Scope]
    # The agent this token speaks for: artifacts posted with it must say `from_agent` = agent, so
    # one agent's token cannot send hand-offs in another's name. None: any agent (an operator's).
    agent: Optional[str] = Field(default=None, pattern=RUN_ID_PATTERN)
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    created: str


class TokenFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    version: Literal[1] = 1
    tokens: list[TokenRecord] = Field(default_factory=list)


def parse_scopes(text: str | Iterable[str]) -> list[str]:
    """"read,submit" or ["read", "submit"] -> the scopes, checked against SCOPES, in SCOPES order."""
    items = [s.strip() for s in (text.split(",") if isinstance(text, str) else text) if s.strip()]
    unknown = sorted(set(items) - set(SCOPES))
    if unknown or not items:
        raise TokenStoreError(f"scopes must be a comma-separated subset of {', '.join(SCOPES)}; got {text!r}")
    return [s for s in SCOPES if s in items]


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class TokenStore:
    """The token file: create, list, revoke (CLI) and verify (the HTTP API, which rereads the file
    when it changes, so a new or revoked token takes effect without a restart)."""

    def __init__(self, path: str | os.PathLike[str]):
        self.path = Path(path).expanduser()
        self._cache: tuple[tuple[int, int, int], dict[str, TokenRecord]] | None = None

    @classmethod
    def for_ledger(cls, ledger_uri: str) -> "TokenStore":
        """The file next to a ledger on local disk. An object-store ledger (s3://...) has no
        "next to": give the file's path explicitly (e.g. a mounted Kubernetes Secret)."""
        if "://" in ledger_uri and not ledger_uri.startswith("file://"):
            raise TokenStoreError(f"ledger {ledger_uri!r} is not on local disk: give the token file's path (--api-tokens PATH)")
        p = Path(ledger_uri.removeprefix("file://")).expanduser()
        return cls(p.with_name(p.name + ".tokens.json"))

    # -- reading -----------------------------------------------------------------------------
    def _load(self) -> TokenFile:
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return TokenFile()
        except OSError as exc:
            raise TokenStoreError(f"token file {self.path} unreadable: {exc}") from None
        try:
            return TokenFile.model_validate_json(raw)
        except ValidationError as exc:
            raise TokenStoreError(f"token file {self.path} is damaged: {exc.errors()[0]['loc']}: {exc.errors()[0]['msg']}") from None

    def list(self) -> list[TokenRecord]:
        return list(self._load().tokens)

    def exists(self) -> bool:
        return bool(self.list())

    def _records(self) -> dict[str, TokenRecord]:
        try:
            st = self.path.stat()
        except FileNotFoundError:
            self._cache = None
            return {}
        key = (st.st_mtime_ns, st.st_size, st.st_ino)
        if self._cache is None or self._cache[0] != key:
            self._cache = (key, {r.id: r for r in self._load().tokens})
        return self._cache[1]

    def verify(self, token: str) -> Optional[TokenRecord]:
        """The record of a valid token, None for anything else (malformed, unknown, revoked)."""
        m = _TOKEN.match(token or "")
        if not m:
            return None
        rec = self._records().get(m.group(1))
        if rec is None or not hmac.compare_digest(rec.sha256, _digest(token)):
            return None
        return rec

    # -- writing -----------------------------------------------------------------------------
    @contextmanager
    def _locked(self) -> Iterator[TokenFile]:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path.with_name(self.path.name + ".lock"), os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            doc = self._load()
            yield doc
            self._write(doc)
        finally:
            os.close(fd)

    def _write(self, doc: TokenFile) -> None:
        # Atomic and private: a reader sees the old file or the new one, never half of one, and
        # the file is 0600 from its first byte (not chmod-ed after being written).
        tmp = self.path.with_name(f".{self.path.name}.{secrets.token_hex(4)}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with os.fdopen(fd, "w") as f:
                f.write(doc.model_dump_json(indent=2) + "\n")
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self.path)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
        dfd = os.open(self.path.parent, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)

    def create(self, scopes: str | Iterable[str], name: str = "", agent: str | None = None) -> tuple[str, TokenRecord]:
        """A new token: returns (the token, shown once; its record, stored). `agent`: bind it to
        one agent name (POST /artifacts then checks `from_agent` against it)."""
        chosen = parse_scopes(scopes)
        if agent is not None and not re.fullmatch(RUN_ID_PATTERN, agent):
            raise TokenStoreError(f"agent: expected a name matching {RUN_ID_PATTERN}; got {agent!r}")
        with self._locked() as doc:
            taken = {r.id for r in doc.tokens}
            tid = secrets.token_hex(4)
            while tid in taken:
                tid = secrets.token_hex(4)
            token = f"{PREFIX}_{tid}_{secrets.token_urlsafe(32)}"
            rec = TokenRecord(id=tid, name=name, scopes=chosen, agent=agent, sha256=_digest(token),
                              created=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
            doc.tokens.append(rec)
        return token, rec

    def revoke(self, token_id: str) -> bool:
        """Remove a token by id; False when there was none with that id."""
        with self._locked() as doc:
            before = len(doc.tokens)
            doc.tokens = [r for r in doc.tokens if r.id != token_id]
            return len(doc.tokens) < before


__all__ = ["PREFIX", "SCOPES", "Scope", "TokenFile", "TokenRecord", "TokenStore", "TokenStoreError", "parse_scopes"]
