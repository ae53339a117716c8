"""The hash chain that makes edits behind the ledger's back visible.

Each entry commits to the previous entry's hash, so changing, inserting or removing any entry
breaks every link after it. `verify` walks a table in sequence order and names the first entry
whose stored hash does not match what its fields and its predecessor say it must be.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from ledger.canonical import canonical_json, sha256_hex

GENESIS = "0" * 64


def link_hash(prev_hash: str, fields: list[Any]) -> str:
    """`fields`: the entry's chained values in a fixed order (a JSON list is unambiguous and,
    unlike a dict, needs no key sorting on the append hot path)."""
    return sha256_hex(prev_hash.encode("ascii") + b"\n" + canonical_json(fields))


@dataclass(frozen=True)
class ChainBreak:
    seq: int
    entry_id: str
    reason: str


@dataclass
class VerifyReport:
    table: str
    entries: int
    head_hash: str
    breaks: list[ChainBreak] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.breaks

    @property
    def first_bad(self) -> ChainBreak | None:
        return self.breaks[0] if self.breaks else None


def verify_rows(
    table: str,
    rows: Iterable[dict[str, Any]],
    chained_fields: Callable[[dict[str, Any]], list[Any]],
    entry_id: Callable[[dict[str, Any]], str],
    extra_check: Callable[[dict[str, Any]], str | None] | None = None,
) -> VerifyReport:
    """Recompute the chain over rows sorted by seq. Stops at the first break: after it, every
    later link is suspect and listing them all would only bury the cause."""
    prev = GENESIS
    count = 0
    expected_seq = 0
    for row in rows:
        count += 1
        rid = entry_id(row)
        problem = None
        if row["seq"] != expected_seq:
            problem = f"sequence gap: expected seq {expected_seq}, found {row['seq']} (an entry was removed or inserted)"
        elif row["prev_hash"] != prev:
            problem = "prev_hash does not match the previous entry's hash (an entry before it was changed, removed or inserted)"
        elif extra_check is not None and (problem := extra_check(row)):
            pass
        elif link_hash(prev, chained_fields(row)) != row["entry_hash"]:
            problem = "entry_hash does not match the entry's fields (the entry was edited)"
        if problem:
            return VerifyReport(table, count, prev, [ChainBreak(row["seq"], rid, problem)])
        prev = row["entry_hash"]
        expected_seq += 1
    return VerifyReport(table, count, prev)
