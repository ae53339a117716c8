"""The one byte encoding every hash in Warrant is computed over."""

from __future__ import annotations

import hashlib
import json
from typing import Any


# One encoder for the process: json.dumps with non-default options builds a new one per call,
# which dominated the ledger's append path.
_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def canonical_json(value: Any) -> bytes:
    """Sorted keys, no whitespace, UTF-8: equal values give equal bytes, so equal hashes."""
    return _ENCODER.encode(value).encode("utf-8")


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
