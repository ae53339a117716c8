"""Errors as data: which rule, where (a JSON path), what was expected, what was found.

The gate and the tool bus both answer bad input with a list of these, never with prose, so the
sending agent (or the planner) can act on them mechanically.
"""

from __future__ import annotations

import re
from typing import Any, Iterable, Sequence

from pydantic import BaseModel, ConfigDict


class Violation(BaseModel):
    model_config = ConfigDict(frozen=True)

    code: str  # stable machine-readable rule name, e.g. "ledger_id_unknown"
    loc: str  # JSON path into the offending document, e.g. "$.claims[0].propositions[1].ledger_ids[0]"
    message: str
    expected: Any = None
    got: Any = None


def json_path(parts: Iterable[str | int]) -> str:
    out = "$"
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else f".{p}"
    return out


# Pydantic's error types mapped to our stable codes; anything unlisted keeps pydantic's own name.
_PYDANTIC_CODES = {
    "extra_forbidden": "unknown_field",
    "missing": "missing_field",
    "string_type": "wrong_type",
    "int_type": "wrong_type",
    "float_type": "wrong_type",
    "bool_type": "wrong_type",
    "list_type": "wrong_type",
    "dict_type": "wrong_type",
    "model_type": "wrong_type",
    "enum": "bad_value",
    "literal_error": "bad_value",
    "string_pattern_mismatch": "bad_format",
    "string_too_short": "bad_value",
    "string_too_long": "bad_value",
    "value_error": "bad_value",
    "greater_than_equal": "bad_value",
    "less_than_equal": "bad_value",
    "json_invalid": "invalid_json",
}


def _clean_loc(loc: Sequence[Any]) -> list[str | int]:
    # Pydantic adds union-member and validator names to locations (e.g. "str", "function-after[...]");
    # they say nothing to the sender about where the bad value sits.
    skip = ("str", "int", "float", "bool", "function-after", "function-before", "union")
    return [p for p in loc if not (isinstance(p, str) and (p in skip or p.startswith(skip)))]


def from_pydantic(errors: list[dict[str, Any]]) -> list[Violation]:
    out = []
    for e in errors:
        code = _PYDANTIC_CODES.get(e["type"], e["type"])
        ctx = e.get("ctx") or {}
        expected = ctx.get("expected") or ctx.get("pattern")
        if expected is None and code == "wrong_type":
            expected = e["type"].removesuffix("_type")
        got = e.get("input") if code != "missing_field" else None
        if isinstance(got, (dict, list)) and code != "wrong_type":
            got = None  # a whole sub-document is noise in an error; the path points at it
        elif isinstance(got, (dict, list)):
            got = type(got).__name__
        out.append(Violation(code=code, loc=json_path(_clean_loc(e["loc"])), message=e["msg"], expected=expected, got=got))
    return out


def from_jsonschema(errors: Iterable[Any], root: Sequence[str | int] = ()) -> list[Violation]:
    """jsonschema ValidationErrors -> Violations, paths relative to `root` (e.g. ("args",))."""
    out = []
    for e in sorted(errors, key=lambda e: list(map(str, e.absolute_path))):
        expected: Any = e.schema.get(e.validator) if isinstance(e.schema, dict) else None
        code = {
            "type": "wrong_type",
            "required": "missing_field",
            "additionalProperties": "unknown_field",
            "enum": "bad_value",
            "const": "bad_value",
            "pattern": "bad_format",
            "format": "bad_format",
        }.get(e.validator, f"schema_{e.validator}")
        got = e.instance if not isinstance(e.instance, (dict, list)) else type(e.instance).__name__
        out.append(
            Violation(
                code=code,
                loc=json_path([*root, *e.absolute_path]),
                message=e.message,
                expected=expected,
                got=got,
            )
        )
    return out


def schema_violations(validator: Any, instance: Any, root: str) -> list[Violation]:
    """JSON Schema errors as Violations, with missing and unknown fields located AT the field.

    jsonschema reports both at the enclosing object ("$.args"); a planner fixing the call needs
    the field's own path ("$.args.invoice_id"), one violation per field.
    """
    errors = list(validator.iter_errors(instance))
    out: list[Violation] = []
    rest = []
    for e in errors:
        if e.validator == "required" and isinstance(e.instance, dict):
            for key in e.validator_value:
                if key not in e.instance:
                    out.append(
                        Violation(
                            code="missing_field",
                            loc=json_path((root, *e.absolute_path, key)),
                            message=f"{key!r} is a required property",
                            expected=list(e.validator_value),
                            got=None,
                        )
                    )
        elif e.validator == "additionalProperties" and e.validator_value is False and isinstance(e.instance, dict):
            props = e.schema.get("properties", {})
            patterns = list(e.schema.get("patternProperties", {}))
            for key in e.instance:
                if key not in props and not any(re.search(p, key) for p in patterns):
                    out.append(
                        Violation(
                            code="unknown_field",
                            loc=json_path((root, *e.absolute_path, key)),
                            message=f"{key!r} is not an allowed property",
                            expected=sorted(props),
                            got=key,
                        )
                    )
        else:
            rest.append(e)
    out.extend(from_jsonschema(rest, root=(root,)))
    return sorted(out, key=lambda v: v.loc)
