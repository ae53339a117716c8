"""What the runtime's parts need from each other, as structural protocols (runtime side).

The ledger's own ports (`LedgerReader`, `LedgerWriter`, `JournalWriter`) live in `ledger/ports.py`,
since ledger/ imports nothing of the runtime. Here: `PropositionChecker`, the verifier's batch core
as a value. `Verifier` checks with itself by default; on Ray, `actors.verifier_pool.PoolChecker`
sends the same calls to the Serve pool, so the pool's client is a `Verifier` given another checker,
not a subclass with its model taken out.
"""

from __future__ import annotations

from typing import Callable, Protocol, Sequence, runtime_checkable

from warrant.runtime.contract import Claim, Proposition
from warrant.runtime.verify.verdict import PropositionVerdict

# (predicate, cited ids) -> the hypotheses rejected before for them in this run
RejectedBefore = dict[tuple[str, frozenset[str]], str]


@runtime_checkable
class PropositionChecker(Protocol):
    def check(
        self,
        run_id: str,
        tasks: Sequence[tuple[Claim, Proposition]],
        rejected_before: RejectedBefore | None = None,
        *,
        progress: Callable[[int, int], None] | None = None,
    ) -> list[PropositionVerdict]:
        """One verdict per (claim, proposition) of one run, in order."""
        ...


__all__ = ["PropositionChecker", "RejectedBefore"]
