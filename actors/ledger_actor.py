"""`LedgerActor`: the one writer of a ledger's evidence and journal tables, hosted on Ray.

Why one actor: LanceDB lets two processes append at once, but two writers would fork the hash
chains and can lose a batch to commit conflicts (see ledger/table.py). So every append of the
cluster goes to this actor, and every reader opens the tables itself with `writer=False`.

Why it is safe to restart (max_restarts=-1, max_task_retries=-1): an append is durable when the
ledger call returns, and the actor answers only after that. If the process dies first, Ray replays
the same call, with the same arguments, on the restarted actor:
- evidence is content-addressed and idempotent per run, so a replay writes nothing new;
- journal entries are not (two identical decisions are two entries), so each journal call carries
  a request id, and before writing the actor appends a delivery receipt (request id, first seq,
  count, content hash) to a side table. A replay whose receipt names entries that are in the
  journal with the same content is answered with those entries instead of written again; a
  receipt whose write never happened does not match and the call is written then.
The flock that marks the writer is per process: a killed process releases it, and the restarted
actor waits for that (bounded) before it opens the tables.

Appends are group-committed: calls that arrive while a write is in flight are written together
as one LanceDB version (per-row versions explode file counts, STACK.md).
"""

from __future__ import annotations

import asyncio
import os
import time
from dataclasses import dataclass
from typing import Any, Callable, Generic, Sequence, TypeVar

import pyarrow as pa
import ray

from warrant.ledger import Journal, JournalEntry, Ledger, LedgerLockedError, canonical_json, sha256_hex
from warrant.ledger.evidence import NewEvidence
from warrant.ledger.journal import JournalKind
from warrant.ledger.table import AppendOnlyTable

NAMESPACE = "warrant"
DELIVERIES = "journal_deliveries"
_DELIVERY_SCHEMA = pa.schema(
    [("request_id", pa.string()), ("first_seq", pa.int64()), ("count", pa.int64()), ("content", pa.string()), ("created_us", pa.int64())]
)

JournalRow = tuple[str, str, str, dict[str, Any]]  # run_id, kind, subject, payload


class DuplicateEntry(Exception):
    """A unique journal entry (e.g. a grant's use) already exists: the caller lost a race."""

    def __init__(self, kind: str, subject: str):
        super().__init__(f"a {kind} entry for {subject} is already in the journal")
        self.kind, self.subject = kind, subject

    def __reduce__(self):  # keep the fields across Ray's pickling
        return (DuplicateEntry, (self.kind, self.subject))


def ledger_actor_name(uri: str) -> str:
    return "warrant-ledger-" + sha256_hex(uri.encode())[:12]


def content_digest(rows: Sequence[JournalRow]) -> str:
    return sha256_hex(canonical_json([[r, str(JournalKind(k).value), s, p] for r, k, s, p in rows]))


T = TypeVar("T")
R = TypeVar("R")


class _GroupCommit(Generic[T, R]):
    """Queue requests; one writer thread drains everything queued so far in one call."""

    def __init__(self, write: Callable[[list[T]], list[R | BaseException]], max_batch: int):
        self._write, self._max = write, max_batch
        self._queue: list[tuple[T, asyncio.Future]] = []
        self._busy = False
        self._drainer: asyncio.Future | None = None
        self.flushes = 0
        self.largest = 0

    async def submit(self, request: T) -> R:
        fut = asyncio.get_running_loop().create_future()
        self._queue.append((request, fut))
        if not self._busy:
            self._busy = True
            # Held until done: the event loop keeps only a weak reference to a task.
            self._drainer = asyncio.ensure_future(self._drain())
        return await fut

    async def _drain(self) -> None:
        try:
            while self._queue:
                batch, self._queue = self._queue[: self._max], self._queue[self._max :]
                self.flushes += 1
                self.largest = max(self.largest, len(batch))
                try:
                    results = await asyncio.to_thread(self._write, [r for r, _ in batch])
                except BaseException as exc:  # noqa: BLE001 - every waiter must hear about it
                    results = [exc] * len(batch)
                for (_, fut), res in zip(batch, results):
                    if fut.done():
                        continue
                    if isinstance(res, BaseException):
                        fut.set_exception(res)
                    else:
                        fut.set_result(res)
        finally:
            self._busy = False


@dataclass(frozen=True)
class _JournalRequest:
    request_id: str
    rows: list[JournalRow]
    unique_kinds: frozenset[str]


@ray.remote(max_restarts=-1, max_task_retries=-1, num_cpus=0)
class LedgerActor:
    def __init__(self, uri: str, *, lock_wait_s: float = 30.0, max_batch: int = 256):
        self._uri = uri
        self._ledger, self._journal, self._deliveries = _open_writers(uri, lock_wait_s)
        self._receipts = self._load_receipts()
        self._evidence = _GroupCommit(self._write_evidence, max_batch)
        self._entries = _GroupCommit(self._write_journal, max_batch)
        self._started = time.time()

    # -- the API ---------------------------------------------------------------------------------
    async def append_evidence(self, items: list[NewEvidence]) -> list[str]:
        """Ids of the items, in order; durable when this returns."""
        return await self._evidence.submit(list(items))

    async def record(self, request_id: str, rows: list[JournalRow], unique_kinds: Sequence[str] = ()) -> list[JournalEntry]:
        """Journal entries for `rows`, written once per `request_id` however often it is sent.
        An entry whose kind is in `unique_kinds` fails with DuplicateEntry if one with that kind
        and subject exists: the cross-process form of GrantBook's in-process lock."""
        for _, kind, _, _ in rows:
            JournalKind(kind)  # a bad kind fails this call only, not the group it would join
        return await self._entries.submit(_JournalRequest(request_id, list(rows), frozenset(JournalKind(k).value for k in unique_kinds)))

    def ping(self) -> dict[str, Any]:
        return {
            "uri": self._uri,
            "pid": os.getpid(),
            "evidence": self._ledger.count(),
            "journal": self._journal.count(),
            "flushes": self._evidence.flushes + self._entries.flushes,
            "largest_batch": max(self._evidence.largest, self._entries.largest),
            "up_s": round(time.time() - self._started, 3),
        }

    # -- the writes (on the writer thread) -------------------------------------------------------
    def _write_evidence(self, requests: list[list[NewEvidence]]) -> list[list[str] | BaseException]:
        try:
            ids = self._ledger.append_many([it for req in requests for it in req])
        except Exception:
            if len(requests) == 1:
                raise
            # One bad request must not fail the others that share its flush.
            return [_attempt(lambda r=r: self._ledger.append_many(r)) for r in requests]
        out, i = [], 0
        for req in requests:
            out.append(ids[i : i + len(req)])
            i += len(req)
        return out

    def _write_journal(self, requests: list[_JournalRequest]) -> list[list[JournalEntry] | BaseException]:
        results: list[list[JournalEntry] | BaseException | None] = [None] * len(requests)
        fresh: list[int] = []
        claimed: set[tuple[str, str]] = set()
        for i, req in enumerate(requests):
            replay = self._replayed(req)
            if replay is not None:
                results[i] = replay
                continue
            clash = self._unique_clash(req, claimed)
            if clash is not None:
                results[i] = clash
                continue
            fresh.append(i)
        if fresh:
            try:
                written = self._append_journal([requests[i] for i in fresh])
            except Exception:
                if len(fresh) == 1:
                    raise
                written = [_attempt(lambda r=requests[i]: self._append_journal([r])[0]) for i in fresh]
            for i, entries in zip(fresh, written):
                results[i] = entries
        return results  # type: ignore[return-value]

    def _append_journal(self, requests: list[_JournalRequest]) -> list[list[JournalEntry]]:
        # The receipt goes first: a crash between it and the entries leaves a receipt that
        # matches nothing, so the replay writes the entries; the other order could duplicate.
        seq = self._journal.count()
        now_us = int(time.time() * 1e6)
        receipts = []
        for req in requests:
            receipts.append(
                {"request_id": req.request_id, "first_seq": seq, "count": len(req.rows), "content": content_digest(req.rows), "created_us": now_us}
            )
            seq += len(req.rows)
        self._deliveries.append(receipts)
        entries = self._journal.record_many([row for req in requests for row in req.rows])
        out, i = [], 0
        for req, rec in zip(requests, receipts):
            out.append(entries[i : i + len(req.rows)])
            i += len(req.rows)
            self._receipts[req.request_id] = (rec["first_seq"], rec["count"], rec["content"])
        return out

    def _replayed(self, req: _JournalRequest) -> list[JournalEntry] | None:
        receipt = self._receipts.get(req.request_id)
        if receipt is None:
            return None
        first, count, content = receipt
        if content != content_digest(req.rows):
            return None
        runs = {r[0] for r in req.rows}
        entries = _entries_at(self._journal, first, count, next(iter(runs)) if len(runs) == 1 else None)
        if len(entries) != count or content_digest([(e.run_id, e.kind.value, e.subject, e.payload) for e in entries]) != content:
            return None  # the receipt was written, the entries were not
        return entries

    def _unique_clash(self, req: _JournalRequest, claimed: set[tuple[str, str]]) -> DuplicateEntry | None:
        for _, kind, subject, _ in req.rows:
            kind = JournalKind(kind).value
            if kind not in req.unique_kinds:
                continue
            if (kind, subject) in claimed or self._journal.entries(kind=kind, subject=subject):
                return DuplicateEntry(kind, subject)
            claimed.add((kind, subject))
        return None

    def _load_receipts(self) -> dict[str, tuple[int, int, str]]:
        t = self._deliveries.scan(["seq", "request_id", "first_seq", "count", "content"]).sort_by("seq")
        # Later receipts win: a replay that found its first receipt unmatched wrote a new one.
        return {r["request_id"]: (r["first_seq"], r["count"], r["content"]) for r in t.to_pylist()}


def _attempt(fn: Callable[[], R]) -> R | BaseException:
    try:
        return fn()
    except Exception as exc:  # noqa: BLE001 - returned to the one caller it belongs to
        return exc


def _entries_at(journal: Journal, first: int, count: int, run_id: str | None) -> list[JournalEntry]:
    # A scan of the run: replays are rare, so the public API is worth more than a seq filter.
    return [e for e in journal.entries(run_id=run_id) if first <= e.seq < first + count]


def _open_writers(uri: str, lock_wait_s: float) -> tuple[Ledger, Journal, AppendOnlyTable]:
    deadline = time.monotonic() + lock_wait_s
    while True:
        opened: list[Any] = []
        try:
            opened.append(Ledger.open(uri, writer=True))
            opened.append(Journal.open(uri, writer=True))
            opened.append(AppendOnlyTable(uri, DELIVERIES, _DELIVERY_SCHEMA, _RECEIPT_CHAINED, writer=True))
            return opened[0], opened[1], opened[2]
        except LedgerLockedError:
            for o in opened:
                o.close()
            # The previous incarnation's process may still be exiting; its flock goes with it.
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


_RECEIPT_CHAINED = ("seq", "request_id", "first_seq", "count", "content", "created_us")


def ensure_ledger_actor(uri: str, *, detached: bool = False, name: str | None = None) -> "ray.actor.ActorHandle":
    """The LedgerActor of `uri`, created if it does not exist yet (named, so any process of the
    cluster finds the same one). Returns once its tables exist, so readers can open them."""
    opts: dict[str, Any] = {"name": name or ledger_actor_name(uri), "namespace": NAMESPACE, "get_if_exists": True}
    if detached:
        opts["lifetime"] = "detached"
    handle = LedgerActor.options(**opts).remote(uri)
    ray.get(handle.ping.remote())
    return handle


__all__ = ["DuplicateEntry", "LedgerActor", "NAMESPACE", "content_digest", "ensure_ledger_actor", "ledger_actor_name"]
