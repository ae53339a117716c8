"""Best-effort anchors pulled from a memory's text, for memories written without typed anchors.

Every anchor made here carries `origin="prose"`, and a prose anchor may only ever produce
INCONCLUSIVE (anchors/base.py): the seed showed extraction from prose refuting true facts ("we use
fastmcp" while the import is `from mcp.server.fastmcp import ...`) and verifying false ones (an
unrelated `import sqlite3`). What the check found is kept as the result's `signal`, for a reader.
"""

from __future__ import annotations

import re

from pydantic import ValidationError

from warrant.runtime.memory.anchors import AnchorBase, DependencyAnchor, EnvVarAnchor, FileAnchor, ImportAnchor, SymbolAnchor

_PATH = re.compile(r"(?<![\w/.-])((?:[\w.-]+/)*[\w.-]+\.(?:py|toml|cfg|ini|ya?ml|txt|lock|json|md))(?![\w/])")
_FOLDER = re.compile(r"(?<![\w/.-])((?:[\w.-]+/)+)(?=[\s,.;:)]|$)")
_IMPORT = re.compile(r"\b(?:from\s+([A-Za-z_][\w.]*)\s+import|import\s+([A-Za-z_][\w.]*))")
_SYMBOL = re.compile(r"`([A-Za-z_][\w.]*:[A-Za-z_][\w.]*)`")
_ENV = re.compile(r"\b([A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9])\b")
_USES = re.compile(r"\b(?:use|uses|using|used|via|through|depends on|depend on|backed by|built on|with)\s+`?([A-Za-z][\w.-]*)`?")
_STOP = {
    "the", "a", "an", "its", "it", "this", "that", "our", "their", "his", "her", "them", "no", "any", "one", "two",
    "default", "defaults", "care", "each", "every", "all", "some", "python", "code", "which", "what", "when", "and",
    "or", "not", "to", "of", "in", "on", "for", "as", "by", "be", "is", "are",
}
_MAX = 12


def extract(text: str) -> list[AnchorBase]:
    out: list[AnchorBase] = []
    seen: set[tuple] = set()

    def add(cls: type[AnchorBase], **fields: object) -> None:
        key = (cls.__name__, tuple(sorted(fields.items())))
        if key in seen or len(out) >= _MAX:
            return
        seen.add(key)
        try:
            out.append(cls(origin="prose", **fields))
        except ValidationError:
            pass  # prose that does not make a well-formed anchor makes none

    for m in _SYMBOL.finditer(text):
        add(SymbolAnchor, symbol=m.group(1))
    for m in _PATH.finditer(text):
        add(FileAnchor, path=m.group(1))
    for m in _FOLDER.finditer(text):
        add(FileAnchor, path=m.group(1).rstrip("/"))
    for m in _IMPORT.finditer(text):
        add(ImportAnchor, module=(m.group(1) or m.group(2)).rstrip("."), scope="")
    for m in _ENV.finditer(text):
        add(EnvVarAnchor, name=m.group(1), scope="")
    for m in _USES.finditer(text):
        word = m.group(1).rstrip(".-")
        if word.lower() in _STOP or len(word) < 2 or word.isupper():
            continue
        add(ImportAnchor, module=word.lower() if word.isidentifier() else word.replace("-", "_").lower(), scope="")
        add(DependencyAnchor, name=word)
    return out
