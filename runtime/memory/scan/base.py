"""The facts an index keeps per file, and the scanner interface that extracts them.

A scanner reads one blob's bytes and fills the facts it knows about (Python code, dependency
manifests, config files). Facts are named tuples of plain values: the garbage collector stops tracking such tuples, so a
large index adds nothing to every later collection's pause (a dataclass per fact made a 30k-line
repository's index ~360k tracked objects and put 10-20 ms collection pauses into reads).

A file a scanner cannot read gets a status (binary, not UTF-8, does not
parse, too large) instead of facts: anchors that need its content are then INCONCLUSIVE, never
REFUTED, because "we could not read it" is not "it is not there".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, NamedTuple

OK = "ok"
BINARY = "binary"
NOT_UTF8 = "non_utf8"
SYNTAX_ERROR = "syntax_error"
PARSE_ERROR = "parse_error"
TOO_LARGE = "too_large"
NOT_SCANNED = "not_scanned"  # a file no scanner reads (images, docs): it exists, nothing more is known
LINK = "symlink"  # git stores the target as the blob; never followed, so never out of the repository
SUBMODULE = "submodule"


class ImportFact(NamedTuple):
    module: str  # absolute dotted module ("" never): `from a.b import c` -> "a.b"
    name: str | None  # the imported name of a from-import (`c`), None for `import a.b`
    bound: str  # the local name it binds (`c`, an alias, or `a` for `import a.b`)
    scope: str  # enclosing qualname, "" at module level
    line: int
    used_in: tuple[str, ...]  # qualnames whose bodies reference `bound` ("" = module-level code)


class ParamFact(NamedTuple):
    name: str
    has_default: bool
    default: str | None  # canonical JSON of a literal default; None when absent or not a literal
    default_src: str | None  # the default's source text


class DefFact(NamedTuple):
    qualname: str
    kind: str  # class | function | method | attribute
    line: int
    value: str | None = None  # canonical JSON of an assigned literal
    value_src: str | None = None
    params: tuple[ParamFact, ...] = ()


class EnvFact(NamedTuple):
    var: str  # the variable's name, or the source of the expression when not a literal
    scope: str
    op: str  # read | set
    line: int
    has_default: bool = False
    default: str | None = None
    default_src: str | None = None
    dynamic: bool = False  # the name is computed: undecidable for absence checks


class DepFact(NamedTuple):
    name: str  # canonical project name (packaging.utils.canonicalize_name)
    specifier: str  # "" when unconstrained
    group: str  # "" = the main dependencies; else the extra / group / requirements file stem
    source: str  # pyproject | requirements | lock | pre-commit | setup | pipfile
    version: str | None = None  # an exact pin or a locked version
    raw: str = ""


class ConfigFact(NamedTuple):
    key: str  # dotted
    value: str | None  # canonical JSON of the value; None for a table / section
    is_table: bool = False


@dataclass(slots=True)
class FileFacts:
    path: str
    blob: str
    size: int
    mode: str
    status: str = NOT_SCANNED
    detail: str = ""
    dynamic: bool = False  # module-level __getattr__ or a star import: names may exist unseen
    imports: list[ImportFact] = field(default_factory=list)
    defs: list[DefFact] = field(default_factory=list)
    env: list[EnvFact] = field(default_factory=list)
    deps: list[DepFact] = field(default_factory=list)
    config: list[ConfigFact] = field(default_factory=list)

    @property
    def readable(self) -> bool:
        return self.status == OK


class ScanError(Exception):
    def __init__(self, status: str, detail: str):
        self.status = status
        self.detail = detail
        super().__init__(f"{status}: {detail}")


class Scanner:
    name: ClassVar[str]

    def matches(self, path: str) -> bool:  # pragma: no cover - abstract
        raise NotImplementedError

    def scan(self, path: str, data: bytes, facts: FileFacts) -> None:  # pragma: no cover - abstract
        """Fill `facts`; raise ScanError when the bytes cannot be read as this kind of file."""
        raise NotImplementedError


def decode_text(path: str, data: bytes) -> str:
    """UTF-8 text of a config or manifest, or a ScanError saying why not."""
    if b"\x00" in data[:8192]:
        raise ScanError(BINARY, f"{path} holds NUL bytes: a binary file")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ScanError(NOT_UTF8, f"{path} is not UTF-8 (byte {exc.start})") from None
