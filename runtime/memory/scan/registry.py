"""Which scanners read which files. A file may be read by several (pyproject.toml is both a
dependency manifest and a config file); each adds its own facts."""

from __future__ import annotations

from warrant.runtime.memory.scan.base import (
    BINARY,
    LINK,
    NOT_SCANNED,
    OK,
    SUBMODULE,
    TOO_LARGE,
    FileFacts,
    ScanError,
    Scanner,
)
from warrant.runtime.memory.scan.config import ConfigScanner
from warrant.runtime.memory.scan.dependencies import DependencyScanner
from warrant.runtime.memory.scan.python import PythonScanner

SCANNERS: list[Scanner] = [PythonScanner(), DependencyScanner(), ConfigScanner()]
MAX_BYTES = 2 * 1024 * 1024  # larger files are listed (they exist) but not read


def wanted(path: str, mode: str) -> bool:
    return mode not in ("120000", "160000") and any(s.matches(path) for s in SCANNERS)


def scan_file(path: str, blob: str, size: int, mode: str, data: bytes | None) -> FileFacts:
    """Facts of one file. `data` is None when the file is not read (not wanted, too large)."""
    facts = FileFacts(path, blob, size, mode)
    if mode == "120000":
        facts.status, facts.detail = LINK, f"{path} is a symbolic link (not followed)"
        return facts
    if mode == "160000":
        facts.status, facts.detail = SUBMODULE, f"{path} is a git submodule (its contents are not indexed)"
        return facts
    scanners = [s for s in SCANNERS if s.matches(path)]
    if not scanners:
        return facts  # NOT_SCANNED: it exists, and that is all an anchor may ask of it
    if size > MAX_BYTES or data is None:
        facts.status, facts.detail = TOO_LARGE, f"{path} is {size} bytes, over the {MAX_BYTES}-byte scan limit"
        return facts
    if b"\x00" in data[:8192]:
        facts.status, facts.detail = BINARY, f"{path} holds NUL bytes: a binary file"
        return facts
    facts.status = OK
    for s in scanners:
        try:
            s.scan(path, data, facts)
        except ScanError as exc:
            facts.status, facts.detail = exc.status, exc.detail
            # What other scanners found is dropped with it: a half-read file must not answer.
            facts.imports.clear(), facts.defs.clear(), facts.env.clear(), facts.deps.clear(), facts.config.clear()
            break
    return facts


__all__ = ["MAX_BYTES", "NOT_SCANNED", "OK", "SCANNERS", "scan_file", "wanted"]
