"""One strict JSON reader for everything that arrives from outside (artifacts, tool specs, tasks).

`json.loads` accepts things no other system will read back the same way: NaN and Infinity,
1e400 (becomes inf), duplicate keys (the last one silently wins), lone UTF-16 surrogates (a
string that cannot be written as UTF-8), and nesting deep enough to blow the stack. Each is
refused here with a message that says what was found, as a `StrictJSONError` (a ValueError).
"""

from __future__ import annotations

import json
import math
from typing import Any

MAX_DEPTH = 64
# Past this, an integer is an attack or an accident: no amount, count or id needs more digits, and
# converting a very long digit string costs quadratic time.
MAX_INT_DIGITS = 64


class StrictJSONError(ValueError):
    """The input is not JSON this project accepts; `str()` says why."""


def loads(data: bytes | bytearray | str, *, max_depth: int = MAX_DEPTH) -> Any:
    if isinstance(data, (bytes, bytearray)):
        try:
            data = bytes(data).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise StrictJSONError(f"not UTF-8: byte {exc.start} is {bytes(data)[exc.start:exc.start + 1]!r}") from None
    try:
        value = json.loads(data, parse_constant=_no_constant, parse_float=_finite_float, parse_int=_short_int, object_pairs_hook=_no_duplicate_keys)
    except RecursionError:
        raise StrictJSONError(f"nested too deeply (more than {max_depth} levels)") from None
    except json.JSONDecodeError as exc:
        raise StrictJSONError(f"not JSON: {exc}") from None
    except StrictJSONError:
        raise
    _check(value, max_depth)
    return value


def _no_constant(name: str) -> Any:
    raise StrictJSONError(f"{name} is not a JSON number")


def _short_int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_INT_DIGITS:
        raise StrictJSONError(f"integer with {digits} digits is too long (at most {MAX_INT_DIGITS})")
    return int(text)


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise StrictJSONError(f"number {text[:40]} is out of range (not a finite double)")
    return value


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise StrictJSONError(f"duplicate key {k[:80]!r}: which value applies would be ambiguous")
        out[k] = v
    return out


def _check(value: Any, max_depth: int) -> None:
    """Depth and lone surrogates, walked without recursion (the value may be deep)."""
    stack: list[tuple[Any, int, str]] = [(value, 1, "$")]
    while stack:
        v, depth, path = stack.pop()
        if isinstance(v, str):
            _utf8(v, path)
        elif isinstance(v, (dict, list)):
            if depth > max_depth:
                raise StrictJSONError(f"nested too deeply at {path[:120]} (more than {max_depth} levels)")
            items = v.items() if isinstance(v, dict) else enumerate(v)
            for k, child in items:
                if isinstance(k, str):
                    _utf8(k, path)
                stack.append((child, depth + 1, f"{path}.{k}" if isinstance(k, str) else f"{path}[{k}]"))


def _utf8(s: str, path: str) -> None:
    try:
        s.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise StrictJSONError(f"string at {path[:120]} holds a lone surrogate (\\u{ord(s[exc.start]):04x}): not valid Unicode") from None
