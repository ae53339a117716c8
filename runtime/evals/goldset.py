"""A gold set: one folder, schema-checked, content-hashed, built from source documents.

    GOLD_DIR/
      gold.yaml            header: format, name, domain, variant_of, max_rounds
      documents/*.txt      the source documents (retrieval stores their pages in a run's ledger)
      tools/**/*.json      the tool specs a run may call (the registry; outputs are replayed)
      tool_outputs.yaml    what each tool call returns (or the error it raises), each naming the
                           document it mirrors
      tasks.yaml           the task inputs given to the graph, one run each
      claims.yaml          expected claims: propositions with expected verdicts and derivations
      abstentions.yaml     questions the documents do not answer, each with the tempting wrong answer
      side_effects.yaml    tool calls that must happen, must not happen, or need a human
      MANIFEST.json        sha256 of every other file, and one hash over that list

A changed file no longer matches MANIFEST.json and the folder does not load until it is frozen
again (`warrant eval freeze`), which changes its hash: a changed gold set cannot pass as the old
one, because the release gate compares that hash with the baseline's. Nothing in a gold set is
domain code: a second domain is another folder in the same format.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from warrant.ledger import canonical_json, sha256_hex
from warrant.runtime.contract import IDENT_PATTERN
from warrant.runtime.evals.results import write_atomic
from warrant.runtime.violations import from_pydantic

FORMAT = "warrant-gold/1"
MANIFEST = "MANIFEST.json"
MANIFEST_FORMAT = "warrant-gold-manifest/1"
FILES = ("gold.yaml", "tasks.yaml", "tool_outputs.yaml", "claims.yaml", "abstentions.yaml", "side_effects.yaml")

Verdict = Literal["supported", "contradicted", "unsupported"]
Scalar = str | int | float | bool
# Predicates that are not typed: free text matched by its figures and words, and verbatim quotes.
STATEMENT, QUOTE = "statement", "quote"


class GoldProblem(BaseModel):
    """One thing wrong with a gold set: which file, where in it, what."""

    model_config = ConfigDict(frozen=True)

    file: str
    loc: str  # a JSON path into the file, e.g. "$[12].args.rate" (with the item's id when it has one)
    message: str
    code: str = "invalid"

    def __str__(self) -> str:
        return f"{self.file}: {self.loc}: {self.message}"


class GoldError(ValueError):
    """The gold set cannot be used; `problems` names each file and field."""

    def __init__(self, root: Path | str, problems: list[GoldProblem]):
        self.root = str(root)
        self.problems = problems
        lines = "\n".join(f"  {p}" for p in problems[:50])
        more = f"\n  ... and {len(problems) - 50} more" if len(problems) > 50 else ""
        super().__init__(f"gold set {root}: {len(problems)} problem(s)\n{lines}{more}")


class _M(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Header(_M):
    format: Literal["warrant-gold/1"]
    name: str = Field(pattern=IDENT_PATTERN)
    domain: str = Field(pattern=IDENT_PATTERN)
    description: str = ""
    variant_of: str | None = Field(default=None, pattern=IDENT_PATTERN)  # the gold set this one varies
    max_rounds: int = Field(default=3, ge=1, le=20)


class Task(_M):
    id: str = Field(pattern=IDENT_PATTERN)
    input: dict[str, Any]
    max_rounds: int | None = Field(default=None, ge=1, le=20)
    description: str = ""


class ToolOutput(_M):
    """One call a run may make, and its answer. `any_args` entries answer every call of a tool
    (sinks such as irreversible tools); a string value "{name}" in their output echoes args[name]."""

    id: str = Field(pattern=IDENT_PATTERN)
    tool: str = Field(pattern=r"^[a-z][a-z0-9_]{0,63}$")
    args: dict[str, Any] | None = None
    any_args: bool = False
    source: str | None = None  # the document (file name under documents/) this record mirrors
    unchecked: list[str] = Field(default_factory=list)  # fields the source document does not state
    output: Any = None
    error: str | None = None  # the call fails with this message instead

    @model_validator(mode="after")
    def _one_answer(self) -> "ToolOutput":
        if (self.output is None) == (self.error is None):
            raise ValueError("give exactly one of `output` (what the tool returns) and `error` (the failure it raises)")
        if self.any_args == (self.args is not None):
            raise ValueError("give exactly one of `args` (the exact call) and `any_args: true` (every call of the tool)")
        return self


class Evidence(_M):
    """Where the gold set says a fact is stated: a document, or a tool output (by its id)."""

    document: str | None = None
    tool_output: str | None = None

    @model_validator(mode="after")
    def _one(self) -> "Evidence":
        if (self.document is None) == (self.tool_output is None):
            raise ValueError("name exactly one of `document` and `tool_output`")
        return self


class ExpectedClaim(_M):
    """A proposition and the verdict a correct verifier gives it on the gold evidence.

    `pred` is a predicate of the verifier ("line_rate", "statement") or "quote" (args.text is
    a verbatim copy of args.document). `figures` are the values a statement's text states;
    `derive` re-computes args or figures from the tool outputs (see derive.py), and a derivation
    named `holds` is the claim's truth condition."""

    id: str = Field(pattern=IDENT_PATTERN)
    task: str | None = Field(default=None, pattern=IDENT_PATTERN)  # None: any run may emit it
    type: Literal["Assertion", "Conjecture", "Quote"] = "Assertion"
    pred: str = Field(pattern=r"^[a-z][a-z0-9_]{0,63}$")
    args: dict[str, Scalar]
    expect: Verdict
    evidence: list[Evidence] = Field(default_factory=list)
    figures: dict[str, Scalar] = Field(default_factory=dict)
    derive: dict[str, str] = Field(default_factory=dict)
    note: str = ""

    @model_validator(mode="after")
    def _shape(self) -> "ExpectedClaim":
        if self.expect == "supported" and not self.evidence:
            raise ValueError("a supported claim names the evidence that states it (`evidence`)")
        if self.pred in (STATEMENT, QUOTE) and not isinstance(self.args.get("text"), str):
            raise ValueError(f"a {self.pred} claim has its text in args.text")
        if self.pred == QUOTE and not isinstance(self.args.get("document"), str):
            raise ValueError("a quote names the document it copies in args.document")
        for name in self.derive:
            if name != "holds" and name not in self.args and name not in self.figures:
                raise ValueError(f"derive.{name}: not an argument or figure of this claim (nor `holds`)")
        return self


class Tempting(_M):
    """The wrong answer a run is tempted to give; giving it is a failure to abstain."""

    pred: str = Field(default=STATEMENT, pattern=r"^[a-z][a-z0-9_]{0,63}$")
    args: dict[str, Scalar]
    expect: Literal["contradicted", "unsupported"] = "unsupported"


class ExpectedAbstention(_M):
    id: str = Field(pattern=IDENT_PATTERN)
    task: str = Field(pattern=IDENT_PATTERN)
    question: str = Field(min_length=5)
    match: list[str] = Field(min_length=1)  # an open question containing all of these is this abstention
    absent: list[str] = Field(min_length=1)  # no sentence of any record contains all of these
    tempting: Tempting
    missing: str = Field(min_length=3)  # what evidence would settle it


class ExpectedSideEffect(_M):
    """`key` picks the calls this is about (by argument values); `args` are the values they must
    have. must_happen: executed with a valid grant; must_not_happen: never executed;
    needs_human: executed only on a human's grant (queued for review is correct)."""

    id: str = Field(pattern=IDENT_PATTERN)
    task: str | None = Field(default=None, pattern=IDENT_PATTERN)  # None: every run
    tool: str = Field(pattern=r"^[a-z][a-z0-9_]{0,63}$")
    key: dict[str, Any] = Field(default_factory=dict)
    args: dict[str, Any] = Field(default_factory=dict)
    expect: Literal["must_happen", "must_not_happen", "needs_human"]
    because: str | None = None  # an expression (derive.py) that must hold for this expectation
    note: str = ""


@dataclass
class GoldSet:
    root: Path
    header: Header
    tasks: list[Task]
    tool_outputs: list[ToolOutput]
    claims: list[ExpectedClaim]
    abstentions: list[ExpectedAbstention]
    side_effects: list[ExpectedSideEffect]
    documents: dict[str, bytes]  # file name -> exact bytes
    tool_specs: list[dict[str, Any]]
    files: dict[str, str]  # relative path -> sha256 of the bytes as loaded
    manifest_hash: str | None = None  # None only when loaded unfrozen (to freeze it)

    @property
    def name(self) -> str:
        return self.header.name

    @property
    def hash(self) -> str:
        """The gold set's identity: the hash over every file's sha256 (what MANIFEST.json holds)."""
        return manifest_hash(self.files)

    def task(self, task_id: str) -> Task:
        return next(t for t in self.tasks if t.id == task_id)

    def output(self, output_id: str) -> ToolOutput:
        return next(o for o in self.tool_outputs if o.id == output_id)

    def irreversible_tools(self) -> set[str]:
        return {s["name"] for s in self.tool_specs if s.get("irreversible") is True}


# -- hashing ---------------------------------------------------------------------------------------


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def manifest_hash(files: dict[str, str]) -> str:
    return sha256_hex(canonical_json(dict(sorted(files.items()))))


def gold_files(root: Path) -> Iterator[Path]:
    """Every file of the gold set except the manifest, hidden files and caches."""
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d != "__pycache__")
        for name in sorted(filenames):
            if name.startswith(".") or (Path(dirpath) == root and name == MANIFEST):
                continue
            yield Path(dirpath) / name


def hash_files(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): _sha(p.read_bytes()) for p in gold_files(root)}


def write_manifest(root: str | Path) -> str:
    """Freeze the folder as it is now; returns the new hash. Atomic: a crash leaves the old one."""
    root = Path(root)
    files = hash_files(root)
    doc = {"format": MANIFEST_FORMAT, "hash": manifest_hash(files), "files": files}
    write_atomic(root / MANIFEST, json.dumps(doc, indent=1, sort_keys=True) + "\n")
    return doc["hash"]


def check_manifest(root: Path, files: dict[str, str]) -> tuple[str | None, list[GoldProblem]]:
    path = root / MANIFEST
    if not path.is_file():
        return None, [GoldProblem(file=MANIFEST, loc="$", code="not_frozen",
                                  message="missing: freeze the gold set with `warrant eval freeze GOLD_DIR`")]
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
        listed, stated = dict(doc["files"]), str(doc["hash"])
        if doc.get("format") != MANIFEST_FORMAT:
            raise ValueError(f"format {doc.get('format')!r}, expected {MANIFEST_FORMAT!r}")
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return None, [GoldProblem(file=MANIFEST, loc="$", code="bad_manifest", message=f"unreadable: {exc}")]
    problems = []
    if manifest_hash(listed) != stated:
        problems.append(GoldProblem(file=MANIFEST, loc="$.hash", code="manifest_edited",
                                    message="the hash does not match the file list: the manifest was edited by hand"))
    for rel in sorted(set(listed) | set(files)):
        if rel not in files:
            problems.append(GoldProblem(file=rel, loc="$", code="file_removed", message="listed in MANIFEST.json but missing"))
        elif rel not in listed:
            problems.append(GoldProblem(file=rel, loc="$", code="file_added", message="not listed in MANIFEST.json (added after freezing)"))
        elif listed[rel] != files[rel]:
            problems.append(GoldProblem(file=rel, loc="$", code="file_changed",
                                        message=f"changed since the gold set was frozen (sha256 {files[rel][:12]}, manifest {listed[rel][:12]})"))
    if problems and not any(p.code == "manifest_edited" for p in problems):
        problems.append(GoldProblem(file=MANIFEST, loc="$", code="changed",
                                    message="the gold set differs from its frozen manifest; re-freeze it on purpose "
                                            "(`warrant eval freeze`), which gives it a new hash and needs a new baseline"))
    return stated, problems


# -- loading ---------------------------------------------------------------------------------------


def load_gold(root: str | Path, *, frozen: bool = True) -> GoldSet:
    """Load and check a gold set. `frozen=False` skips the manifest (to freeze a new one)."""
    root = Path(root)
    if not root.is_dir():
        raise GoldError(root, [GoldProblem(file=".", loc="$", code="not_found", message="no such folder")])
    problems: list[GoldProblem] = []
    files = hash_files(root)
    stated = None
    if frozen:
        stated, problems = check_manifest(root, files)
    raw = {name: _read_yaml(root, name, problems) for name in FILES}
    header = _one(Header, raw["gold.yaml"], "gold.yaml", problems)
    tasks = _many(Task, raw["tasks.yaml"], "tasks.yaml", problems)
    outputs = _many(ToolOutput, raw["tool_outputs.yaml"], "tool_outputs.yaml", problems)
    claims = _many(ExpectedClaim, raw["claims.yaml"], "claims.yaml", problems)
    abstentions = _many(ExpectedAbstention, raw["abstentions.yaml"], "abstentions.yaml", problems)
    effects = _many(ExpectedSideEffect, raw["side_effects.yaml"], "side_effects.yaml", problems)
    documents = {p.name: p.read_bytes() for p in sorted((root / "documents").glob("*.txt"))} if (root / "documents").is_dir() else {}
    if not documents:
        problems.append(GoldProblem(file="documents/", loc="$", code="missing", message="no documents (*.txt)"))
    specs = _tool_specs(root, problems)
    gold = GoldSet(root, header, tasks, outputs, claims, abstentions, effects, documents, specs, files, stated)
    _cross_references(gold, problems)  # over the items that parsed, so one pass reports everything
    if problems or header is None:
        raise GoldError(root, problems)
    return gold


class _Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """YAML without implicit timestamps: `2026-11-10` stays the string a JSON tool or task would
    carry (YAML 1.1 would make it a date object that no JSON document can hold)."""


_Loader.yaml_implicit_resolvers = {
    ch: [(tag, rx) for tag, rx in rs if tag != "tag:yaml.org,2002:timestamp"]
    for ch, rs in _Loader.yaml_implicit_resolvers.items()
}


def _read_yaml(root: Path, name: str, problems: list[GoldProblem]) -> Any:
    path = root / name
    if not path.is_file():
        problems.append(GoldProblem(file=name, loc="$", code="missing", message="file missing"))
        return None
    try:
        return yaml.load(path.read_text(encoding="utf-8"), Loader=_Loader)  # noqa: S506 - a SafeLoader
    except UnicodeDecodeError as exc:
        problems.append(GoldProblem(file=name, loc="$", code="not_utf8", message=f"not UTF-8: {exc}"))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else "$"
        problems.append(GoldProblem(file=name, loc=where, code="bad_yaml", message=str(getattr(exc, "problem", exc))))
    return None


def _one(model: type[BaseModel], raw: Any, file: str, problems: list[GoldProblem]) -> Any:
    if raw is None:
        return None
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        problems.extend(GoldProblem(file=file, loc=v.loc, code=v.code, message=_msg(v)) for v in from_pydantic(exc.errors()))
        return None


def _many(model: type[BaseModel], raw: Any, file: str, problems: list[GoldProblem]) -> list[Any]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        problems.append(GoldProblem(file=file, loc="$", code="wrong_type", message=f"expected a list of items, got {type(raw).__name__}"))
        return []
    out, seen = [], set()
    for i, item in enumerate(raw):
        ident = item.get("id") if isinstance(item, dict) else None
        where = f"$[{i}]" + (f" (id {ident})" if ident else "")
        try:
            obj = model.model_validate(item)
        except ValidationError as exc:
            for v in from_pydantic(exc.errors()):
                problems.append(GoldProblem(file=file, loc=where + v.loc.removeprefix("$"), code=v.code, message=_msg(v)))
            continue
        if obj.id in seen:
            problems.append(GoldProblem(file=file, loc=where + ".id", code="duplicate_id", message=f"id {obj.id!r} used twice"))
        seen.add(obj.id)
        out.append(obj)
    return out


def _msg(v: Any) -> str:
    extra = f" (expected {v.expected!r}, got {v.got!r})" if v.expected is not None else ""
    return v.message + extra


def _tool_specs(root: Path, problems: list[GoldProblem]) -> list[dict[str, Any]]:
    folder = root / "tools"
    specs = []
    for path in sorted(folder.rglob("*.json")) if folder.is_dir() else []:
        rel = path.relative_to(root).as_posix()
        try:
            specs.append(json.loads(path.read_text(encoding="utf-8")))
        except (ValueError, UnicodeDecodeError) as exc:
            problems.append(GoldProblem(file=rel, loc="$", code="bad_json", message=f"not JSON: {exc}"))
    if not specs and not problems:
        problems.append(GoldProblem(file="tools/", loc="$", code="missing", message="no tool specs (tools/**/*.json)"))
    return specs


def _cross_references(g: GoldSet, problems: list[GoldProblem]) -> None:
    """Every name a file uses exists: tasks, documents, tool outputs, tools."""
    tasks = {t.id for t in g.tasks}
    tools = {s.get("name") for s in g.tool_specs}
    outputs = {o.id for o in g.tool_outputs}

    def need(ok: bool, file: str, loc: str, msg: str) -> None:
        if not ok:
            problems.append(GoldProblem(file=file, loc=loc, code="unknown_reference", message=msg))

    if not g.tasks and not any(p.file == "tasks.yaml" for p in problems):
        problems.append(GoldProblem(file="tasks.yaml", loc="$", code="missing", message="no tasks: a gold set gives the graph at least one"))
    for i, o in enumerate(g.tool_outputs):
        where = f"$[{i}] (id {o.id})"
        need(o.tool in tools, "tool_outputs.yaml", where + ".tool", f"no tool spec for {o.tool!r} under tools/ (known: {sorted(tools)})")
        need(o.source is None or o.source in g.documents, "tool_outputs.yaml", where + ".source",
             f"no document {o.source!r} under documents/")
    for i, c in enumerate(g.claims):
        where = f"$[{i}] (id {c.id})"
        need(c.task is None or c.task in tasks, "claims.yaml", where + ".task", f"no task {c.task!r} in tasks.yaml")
        for j, ev in enumerate(c.evidence):
            need(ev.document is None or ev.document in g.documents, "claims.yaml", f"{where}.evidence[{j}].document",
                 f"no document {ev.document!r} under documents/")
            need(ev.tool_output is None or ev.tool_output in outputs, "claims.yaml", f"{where}.evidence[{j}].tool_output",
                 f"no tool output {ev.tool_output!r} in tool_outputs.yaml")
        if c.pred == QUOTE:
            need(c.args["document"] in g.documents, "claims.yaml", where + ".args.document", f"no document {c.args['document']!r}")
    for i, a in enumerate(g.abstentions):
        need(a.task in tasks, "abstentions.yaml", f"$[{i}] (id {a.id}).task", f"no task {a.task!r} in tasks.yaml")
    for i, s in enumerate(g.side_effects):
        where = f"$[{i}] (id {s.id})"
        need(s.task is None or s.task in tasks, "side_effects.yaml", where + ".task", f"no task {s.task!r} in tasks.yaml")
        need(s.tool in tools, "side_effects.yaml", where + ".tool", f"no tool spec for {s.tool!r} under tools/")


__all__ = [
    "Evidence", "ExpectedAbstention", "ExpectedClaim", "ExpectedSideEffect", "FORMAT", "GoldError", "GoldProblem", "GoldSet",
    "Header", "MANIFEST", "QUOTE", "STATEMENT", "Task", "Tempting", "ToolOutput", "Verdict", "check_manifest", "hash_files",
    "load_gold", "manifest_hash", "write_manifest",
]
