"""Errors the ledger raises. Each says what was wrong and what was expected."""

from __future__ import annotations


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


class LedgerIntegrityError(LedgerError):
    """The stored tables disagree with what the ledger committed to: a rollback (manifests or a
    whole table removed, an older version restored), a checkpoint that does not match the chain,
    or a chain that cannot be continued. Each problem names the table, what was expected and
    what was found. A writer refuses to append past one: appending would fork the chain and
    overwrite the checkpoint that proves the loss."""

    def __init__(self, problems: list[str]):
        self.problems = list(problems)
        super().__init__("; ".join(self.problems))


class LedgerUnreadable(LedgerError):
    """Lance could not read a table: a damaged, truncated or missing file. Names the table, the
    Lance version being read and the file, when it could be found."""

    def __init__(self, table: str, version: int | None, file: str | None, detail: str):
        self.table, self.version, self.file, self.detail = table, version, file, detail
        where = f"table {table!r}" + (f" version {version}" if version is not None else "")
        super().__init__(f"{where} unreadable" + (f": file {file}" if file else "") + f": {detail}")
