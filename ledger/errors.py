"""Errors the ledger raises. Each says what was wrong and what was expected."""


class LedgerError(Exception):
    """Base class for ledger errors."""


class LedgerLockedError(LedgerError):
    """Another process holds the single-writer lock of this table."""


class RecordNotFound(LedgerError, KeyError):
    def __init__(self, run_id: str, record_id: str):
        self.run_id = run_id
        self.record_id = record_id
        super().__init__(f"no ledger record {record_id!r} in run {run_id!r}")

    def __str__(self) -> str:  # KeyError would repr() the message
        return self.args[0]


class SourceError(LedgerError, ValueError):
    """Bad metadata on an append: which field, what was expected."""
