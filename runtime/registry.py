"""The tool registry: which tools exist, in which versions, with which input and output schemas.

Loaded once from spec files the operator controls, then frozen: there is no method to add, remove
or edit a tool, so nothing an agent sends can change what a call is checked against. The registry
hash (over every spec) goes into each tool-call journal entry, so an auditor knows exactly which
schemas a call was validated against.

Validation is JSON Schema Draft 2020-12 with two deliberate tightenings:
- No coercion and no integral floats: "14" is not a number, True is not 1, and 1.0 is NOT an
  integer here, although the draft says it is. Python tools would receive a float where they
  declared an integer, and canonical JSON hashes 1.0 and 1 differently, so a grant for one would
  not bind the other.
- Formats are asserted (the draft only annotates them by default). A schema that uses a format
  this process cannot check is rejected at load time instead of being silently waved through.
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass
from pathlib import Path
from pkgutil import resolve_name
from types import MappingProxyType
from typing import Any, Callable, Iterable, Iterator, Mapping

import jsonschema
from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError
from packaging.version import Version
from pydantic import BaseModel, ConfigDict

from warrant.ledger.canonical import canonical_json, sha256_hex
from warrant.runtime import strict_json
from warrant.runtime.contract import ActionIntent
from warrant.runtime.strict_json import StrictJSONError
from warrant.runtime.violations import Violation, json_path, schema_violations

TOOL_NAME_PATTERN = r"^[a-z][a-z0-9_]{0,63}$"  # the same as ActionIntent.tool
VERSION_PATTERN = r"^\d+(\.\d+){0,2}$"  # the same as ActionIntent.version
ENTRYPOINT_PATTERN = r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*:[A-Za-z_][A-Za-z0-9_]*$"


def _is_strict_integer(_checker: Any, instance: Any) -> bool:
    return isinstance(instance, int) and not isinstance(instance, bool)


StrictValidator = jsonschema.validators.extend(
    Draft202012Validator,
    type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_strict_integer),
)
FORMAT_CHECKER = Draft202012Validator.FORMAT_CHECKER


def make_validator(schema: Mapping[str, Any]) -> Any:
    """The validator the bus uses for tool inputs and outputs (strict types, formats asserted)."""
    return StrictValidator(schema, format_checker=FORMAT_CHECKER)


SPEC_META_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Warrant tool spec",
    "type": "object",
    "additionalProperties": False,
    "required": [
        "name",
        "version",
        "description",
        "irreversible",
        "timeout_s",
        "entrypoint",
        "input_schema",
        "output_schema",
    ],
    "properties": {
        "name": {"type": "string", "pattern": TOOL_NAME_PATTERN},
        "version": {"type": "string", "pattern": VERSION_PATTERN},
        "description": {"type": "string", "minLength": 1, "maxLength": 2000},
        "irreversible": {"type": "boolean"},
        "timeout_s": {"type": "number", "exclusiveMinimum": 0, "maximum": 3600},
        "entrypoint": {"type": "string", "pattern": ENTRYPOINT_PATTERN},
        # Arguments arrive as a JSON object, so the input schema must describe one.
        "input_schema": {"type": "object", "required": ["type"], "properties": {"type": {"const": "object"}}},
        "output_schema": {"type": "object"},
    },
}
_META = make_validator(SPEC_META_SCHEMA)


class RegistryError(ValueError):
    """A spec that cannot be served. Names the file (or spec index) and the field."""

    def __init__(self, origin: str, field: str | None, problem: str):
        self.origin = origin
        self.field = field
        self.problem = problem
        where = f"{origin}: field {field!r}" if field else origin
        super().__init__(f"{where}: {problem}")


class ToolLookupError(KeyError):
    def __str__(self) -> str:  # KeyError would repr() the message
        return self.args[0]


class UnknownTool(ToolLookupError):
    def __init__(self, name: str, known: list[str]):
        self.name, self.known = name, known
        super().__init__(f"no tool {name!r} in the registry (known: {', '.join(known) or 'none'})")


class UnknownVersion(ToolLookupError):
    def __init__(self, name: str, version: str, known: list[str]):
        self.name, self.version, self.known = name, version, known
        super().__init__(f"tool {name!r} has no version {version!r} (known: {', '.join(known)})")


class ToolSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    version: str
    description: str
    irreversible: bool
    timeout_s: float
    # None only for specs built in-process with an explicit implementation (tests, embedding).
    entrypoint: str | None = None
    input_schema: dict[str, Any]
    output_schema: dict[str, Any]

    def as_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json")


@dataclass(frozen=True)
class RegisteredTool:
    spec: ToolSpec
    fn: Callable[[dict[str, Any]], Any]
    input_validator: Any
    output_validator: Any

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def version(self) -> str:
        return self.spec.version

    @property
    def irreversible(self) -> bool:
        return self.spec.irreversible

    @property
    def timeout_s(self) -> float:
        return self.spec.timeout_s


def _field_of(err: jsonschema.ValidationError) -> str:
    path = [str(p) for p in err.absolute_path]
    if err.validator == "required" and isinstance(err.instance, dict):
        missing = [k for k in err.validator_value if k not in err.instance]
        path.append(missing[0] if missing else "?")
    elif err.validator == "additionalProperties" and isinstance(err.instance, dict):
        allowed = set(err.schema.get("properties", {}))
        extra = sorted(k for k in err.instance if k not in allowed)
        path.append(extra[0] if extra else "?")
    return ".".join(path) or "<root>"


def _unchecked_formats(schema: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[str, str]]:
    # A walk over every dict is broader than the schema grammar (it also looks inside `const` or
    # `default`), which can only over-report; a missed format would silently skip a check.
    if isinstance(schema, dict):
        fmt = schema.get("format")
        if isinstance(fmt, str) and fmt not in FORMAT_CHECKER.checkers:
            yield ".".join(path + ("format",)), fmt
        for k, v in schema.items():
            yield from _unchecked_formats(v, path + (str(k),))
    elif isinstance(schema, list):
        for i, v in enumerate(schema):
            yield from _unchecked_formats(v, path + (str(i),))


def _resolve_entrypoint(origin: str, entrypoint: str) -> Callable[..., Any]:
    try:
        fn = resolve_name(entrypoint)
    except AttributeError as exc:
        raise RegistryError(origin, "entrypoint", f"{entrypoint!r}: {exc}") from None
    except Exception as exc:  # an import error inside the module is as fatal as a missing one
        raise RegistryError(origin, "entrypoint", f"cannot import {entrypoint!r}: {type(exc).__name__}: {exc}") from None
    if not callable(fn):
        raise RegistryError(origin, "entrypoint", f"{entrypoint!r} is not callable")
    return fn


def _check_spec(origin: str, raw: Any, *, need_entrypoint: bool) -> ToolSpec:
    meta = SPEC_META_SCHEMA
    if not need_entrypoint:
        meta = dict(meta, required=[r for r in meta["required"] if r != "entrypoint"])
        validator = make_validator(meta)
    else:
        validator = _META
    errors = sorted(validator.iter_errors(raw), key=lambda e: (list(map(str, e.absolute_path)), e.validator))
    if errors:
        e = errors[0]
        raise RegistryError(origin, _field_of(e), e.message)
    for field in ("input_schema", "output_schema"):
        try:
            StrictValidator.check_schema(raw[field], format_checker=FORMAT_CHECKER)
        except SchemaError as exc:
            inner = ".".join(str(p) for p in exc.absolute_path)
            raise RegistryError(origin, f"{field}.{inner}" if inner else field, f"not a valid JSON Schema: {exc.message}") from None
        for where, fmt in _unchecked_formats(raw[field]):
            raise RegistryError(
                origin,
                f"{field}.{where}",
                f"format {fmt!r} cannot be checked in this process (checkable: {', '.join(sorted(FORMAT_CHECKER.checkers))})",
            )
    return ToolSpec.model_validate(raw)


class ToolRegistry:
    """Read-only after construction. Build with `load(directory)` or `from_specs(...)`."""

    __slots__ = ("_tools", "_by_name", "_hash", "_sealed")

    def __init__(self, tools: Iterable[tuple[str, RegisteredTool]]):
        by_key: dict[tuple[str, str], RegisteredTool] = {}
        origins: dict[tuple[str, Version], tuple[str, str]] = {}  # Version("1") == Version("1.0.0")
        for origin, tool in tools:
            nkey = (tool.name, Version(tool.version))
            if nkey in origins:
                first_origin, first_version = origins[nkey]
                raise RegistryError(
                    origin,
                    "version",
                    f"duplicate tool {tool.name!r} version {tool.version!r} (already defined as version "
                    f"{first_version!r} in {first_origin})",
                )
            origins[nkey] = (origin, tool.version)
            by_key[(tool.name, tool.version)] = tool
        by_name: dict[str, tuple[RegisteredTool, ...]] = {}
        for tool in sorted(by_key.values(), key=lambda t: (t.name, Version(t.version))):
            by_name[tool.name] = by_name.get(tool.name, ()) + (tool,)
        object.__setattr__(self, "_tools", MappingProxyType(by_key))
        object.__setattr__(self, "_by_name", MappingProxyType(by_name))
        specs = [t.spec.as_json() for ts in by_name.values() for t in ts]
        object.__setattr__(self, "_hash", sha256_hex(canonical_json(specs)))
        object.__setattr__(self, "_sealed", True)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("the tool registry is frozen; load a new one to change tools")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("the tool registry is frozen; load a new one to change tools")

    # -- construction ----------------------------------------------------------------------------
    @classmethod
    def load(cls, directory: str | Path) -> "ToolRegistry":
        """Every `*.json` below `directory` is one tool version; any layout, e.g. name/version.json."""
        root = Path(directory)
        if not root.is_dir():
            raise RegistryError(str(root), None, "tool registry directory does not exist")
        files = sorted(p for p in root.rglob("*.json") if p.is_file())
        if not files:
            raise RegistryError(str(root), None, "no tool spec files (*.json) found")
        tools = []
        for path in files:
            origin = str(path)
            try:
                raw = strict_json.loads(path.read_bytes())
            except StrictJSONError as exc:
                raise RegistryError(origin, None, f"not valid JSON: {exc}") from None
            spec = _check_spec(origin, raw, need_entrypoint=True)
            assert spec.entrypoint is not None
            tools.append((origin, _build(spec, _resolve_entrypoint(origin, spec.entrypoint))))
        return cls(tools)

    @classmethod
    def from_specs(
        cls,
        specs: Iterable[Mapping[str, Any] | ToolSpec],
        implementations: Mapping[tuple[str, str], Callable[..., Any]] | None = None,
    ) -> "ToolRegistry":
        """Programmatic registry. An implementation keyed (name, version) replaces the entrypoint."""
        impls = dict(implementations or {})
        tools = []
        used: set[tuple[str, str]] = set()
        for i, s in enumerate(specs):
            raw = s.as_json() if isinstance(s, ToolSpec) else copy.deepcopy(dict(s))
            origin = f"spec[{i}]" + (f" ({raw.get('name')} {raw.get('version')})" if "name" in raw else "")
            key = (raw.get("name"), raw.get("version"))
            fn = impls.get(key)  # type: ignore[arg-type]
            spec = _check_spec(origin, raw, need_entrypoint=fn is None)
            if fn is None:
                assert spec.entrypoint is not None
                fn = _resolve_entrypoint(origin, spec.entrypoint)
            elif not callable(fn):
                raise RegistryError(origin, "entrypoint", f"implementation for {key} is not callable")
            used.add(key)  # type: ignore[arg-type]
            tools.append((origin, _build(spec, fn)))
        unused = sorted(set(impls) - used)
        if unused:
            raise RegistryError("implementations", None, f"no spec for {unused}")
        return cls(tools)

    # -- reading ---------------------------------------------------------------------------------
    @property
    def hash(self) -> str:
        """sha256 of the canonical JSON of every spec, ordered by (name, version)."""
        return self._hash

    @property
    def tools(self) -> Mapping[tuple[str, str], RegisteredTool]:
        return self._tools

    def names(self) -> list[str]:
        return list(self._by_name)

    def versions(self, name: str) -> list[str]:
        return [t.version for t in self._by_name.get(name, ())]

    def get(self, name: str, version: str | None = None) -> RegisteredTool:
        """Exact version, or the highest one when `version` is None. Raises UnknownTool/UnknownVersion."""
        found = self._by_name.get(name)
        if not found:
            raise UnknownTool(name, self.names())
        if version is None:
            return found[-1]
        tool = self._tools.get((name, version))
        if tool is None:
            raise UnknownVersion(name, version, [t.version for t in found])
        return tool

    def check_intent(self, intent: "ActionIntent") -> tuple[RegisteredTool | None, list[Violation]]:
        """Deterministic check of one intended call against the registry: the tool and version
        exist, an irreversible tool is asked for with a grant, the args are plain JSON and valid
        against the input schema (no coercion). Paths are relative to the intent ("$.args.x").
        The gate and the tool bus both decide with this, so they can never disagree."""
        try:
            tool = self.get(intent.tool, intent.version)
        except UnknownTool as exc:
            return None, [Violation(code="unknown_tool", loc="$.tool", message=str(exc), expected=exc.known, got=intent.tool)]
        except UnknownVersion as exc:
            return None, [Violation(code="unknown_version", loc="$.version", message=str(exc), expected=exc.known, got=intent.version)]
        violations: list[Violation] = []
        if tool.irreversible and not intent.requires_grant:
            violations.append(
                Violation(
                    code="grant_required",
                    loc="$.requires_grant",
                    message=f"{tool.name} {tool.version} is irreversible: the registry, not the agent, decides that it needs a grant",
                    expected=True,
                    got=intent.requires_grant,
                )
            )
        violations.extend(document_violations(tool.input_validator, intent.args, "args"))
        return tool, violations

    def specs(self) -> list[ToolSpec]:
        """Every spec, ordered by (name, version); copies, so a caller's edits change nothing here."""
        return [ToolSpec.model_validate(copy.deepcopy(t.spec.as_json())) for ts in self._by_name.values() for t in ts]

    def __len__(self) -> int:
        return len(self._tools)

    def __contains__(self, key: object) -> bool:
        if isinstance(key, str):
            return key in self._by_name
        return key in self._tools

    def __repr__(self) -> str:
        return f"ToolRegistry({len(self)} tools, hash={self._hash[:12]})"


def _build(spec: ToolSpec, fn: Callable[..., Any]) -> RegisteredTool:
    # Validators get private copies of the schemas: editing the spec object a caller holds
    # must not change what calls are checked against.
    return RegisteredTool(
        spec=spec,
        fn=fn,
        input_validator=make_validator(copy.deepcopy(spec.input_schema)),
        output_validator=make_validator(copy.deepcopy(spec.output_schema)),
    )


def document_violations(validator: Any, value: Any, root: str) -> list[Violation]:
    """Violations of a tool's args or output: not plain JSON, else its JSON Schema's errors."""
    not_json = json_problems(value)
    if not_json:
        return [
            Violation(code="not_json", loc=json_path((root, *path)), message="not a JSON value", expected="JSON", got=what)
            for path, what in not_json
        ]
    return schema_violations(validator, value, root)


def jsonable(value: Any) -> Any:
    """`value` itself if it is plain JSON, else its repr: keeps results, reports and journal
    entries that quote an agent's bad input serialisable."""
    return value if not json_problems(value) else repr(value)


def json_problems(value: Any) -> list[tuple[tuple[str | int, ...], str]]:
    """Where `value` is not plain JSON (dict with str keys, list, str, finite number, bool, None).

    Returns (path, what was found) pairs; empty means it is JSON. Tuples, sets, bytes, NaN and
    objects are refused before schema validation: jsonschema would let some of them through
    where a schema leaves a field open, and canonical JSON cannot hash them.
    """
    bad: list[tuple[tuple[str | int, ...], str]] = []
    stack: list[tuple[tuple[str | int, ...], Any, int]] = [((), value, 0)]
    while stack:
        path, v, depth = stack.pop()
        if depth > 64:
            bad.append((path, "nesting deeper than 64"))
        elif v is None or isinstance(v, (str, bool, int)):
            continue
        elif isinstance(v, float):
            if not math.isfinite(v):
                bad.append((path, repr(v)))
        elif isinstance(v, list):
            stack.extend((path + (i,), x, depth + 1) for i, x in enumerate(v))
        elif isinstance(v, dict):
            for k, x in v.items():
                if not isinstance(k, str):
                    bad.append((path, f"non-string key {k!r}"))
                else:
                    stack.append((path + (k,), x, depth + 1))
        else:
            bad.append((path, type(v).__name__))
    return bad


__all__ = [
    "FORMAT_CHECKER",
    "RegisteredTool",
    "RegistryError",
    "SPEC_META_SCHEMA",
    "StrictValidator",
    "ToolLookupError",
    "ToolRegistry",
    "ToolSpec",
    "UnknownTool",
    "UnknownVersion",
    "json_problems",
    "make_validator",
]
