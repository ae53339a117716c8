"""Warrant's evidence ledger and decision journal: append-only, content-addressed, hash-chained.

Plain Python + pyarrow + LanceDB. Never imports Ray or anything from `runtime/`.
"""

from warrant.ledger.canonical import canonical_json, sha256_hex
from warrant.ledger.chain import ChainBreak, VerifyReport
from warrant.ledger.errors import (
    LedgerError,
    LedgerIntegrityError,
    LedgerLockedError,
    LedgerUnreadable,
    RecordNotFound,
    SourceError,
)
from warrant.ledger.evidence import EvidenceKind, EvidenceRecord, Ledger, Source, record_id
from warrant.ledger.journal import Journal, JournalEntry

__all__ = [
    "ChainBreak",
    "EvidenceKind",
    "EvidenceRecord",
    "Journal",
    "JournalEntry",
    "Ledger",
    "LedgerError",
    "LedgerIntegrityError",
    "LedgerLockedError",
    "LedgerUnreadable",
    "RecordNotFound",
    "Source",
    "SourceError",
    "VerifyReport",
    "canonical_json",
    "record_id",
    "sha256_hex",
]
