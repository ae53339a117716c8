"""JSON tool outputs as (path, value) leaves, each with the character span of its value.

`json.loads` throws the positions away, so this walks the text with the standard library's own
pieces (`json.decoder.scanstring`, `json.scanner.NUMBER_RE`) and an explicit stack instead of
recursion: a 100k-deep document is refused with a clear error instead of a RecursionError, and a
60-field object keeps its last field. Strict like the ledger: NaN/Infinity and duplicate keys in
one object are errors.
"""

from __future__ import annotations

import json.decoder
import json.scanner
import re
from dataclasses import dataclass
from decimal import Decimal

_WS = re.compile(r"[ \t\n\r]*")
_LITERALS = (("true", True), ("false", False), ("null", None))
MAX_DEPTH = 512


class JSONViewError(ValueError):
    """The bytes are not JSON this view can read; the message says where."""


@dataclass(frozen=True)
class Leaf:
    path: str  # "$.invoice.lines[2].unit_price"
    key: str  # the last object key on the path ("" for a top-level scalar); for an array element, its array's key
    value: object  # str | Decimal | bool | None, as parsed
    raw: str  # the verbatim JSON literal (strings with their quotes)
    start: int  # character offsets of the literal
    end: int
    key_start: int  # character offsets of the key's string (-1 when none)
    key_end: int
    parent: str  # path of the enclosing object or array


def leaves(text: str, max_depth: int = MAX_DEPTH) -> list[Leaf]:
    """Every scalar of the document in text order. Raises JSONViewError on malformed input."""
    out: list[Leaf] = []
    # stack entries: [kind ('{' or '['), path, key-of-container, index or seen-keys, expecting]
    stack: list[list] = []
    i = _skip(text, 0)
    pending_key: tuple[str, int, int] | None = None
    path, key = "$", ""
    expect_value = True
    root_done = False
    n = len(text)
    while True:
        i = _skip(text, i)
        if expect_value:
            if root_done:
                break
            if i >= n:
                raise JSONViewError(f"unexpected end of JSON at character {i}")
            if stack:
                top = stack[-1]
                if top[0] == "{":
                    k, ks, ke = pending_key  # type: ignore[misc]
                    path, key = f"{top[1]}.{_key_path(k)}", k
                else:
                    path, key = f"{top[1]}[{top[3]}]", top[2]
                    ks = ke = -1
            else:
                path, key, ks, ke = "$", "", -1, -1
            c = text[i]
            if c in "{[":
                if len(stack) >= max_depth:
                    raise JSONViewError(f"JSON nested deeper than {max_depth} levels at character {i}")
                stack.append([c, path, key, 0 if c == "[" else set(), None])
                i = _skip(text, i + 1)
                closing = "}" if c == "{" else "]"
                if i < n and text[i] == closing:
                    stack.pop()
                    i += 1
                    expect_value = False
                    root_done = not stack
                    continue
                if c == "{":
                    i, pending_key = _read_key(text, i, stack[-1][3])
                continue
            start = i
            value, i = _scalar(text, i)
            out.append(Leaf(path, key, value, text[start:i], start, i, ks, ke, stack[-1][1] if stack else ""))
            expect_value = False
            root_done = not stack
            continue
        # after a value: a comma, a closing bracket, or the end
        if not stack:
            if i < n:
                raise JSONViewError(f"extra data after the JSON document at character {i}")
            break
        top = stack[-1]
        if i >= n:
            raise JSONViewError(f"unexpected end of JSON at character {i}: {'object' if top[0] == '{' else 'array'} at {top[1]} not closed")
        c = text[i]
        if c == ",":
            i = _skip(text, i + 1)
            if top[0] == "[":
                top[3] += 1
            else:
                i, pending_key = _read_key(text, i, top[3])
            expect_value = True
        elif (c == "}" and top[0] == "{") or (c == "]" and top[0] == "["):
            stack.pop()
            i += 1
            root_done = not stack
        else:
            raise JSONViewError(f"expected ',' or {'}' if top[0] == '{' else ']'} at character {i}, got {c!r}")
    return out


_BODY_START = re.compile(r"^[ \t]*[{\[]", re.M)


@dataclass(frozen=True)
class Body:
    """A JSON document inside a text: at its top, or under a request or title line."""

    offset: int  # character offset where the document starts; leaf offsets are from here
    header: bool  # text comes before it ("GET /v2/orders -> 200 OK")
    objects: dict[str, list[Leaf]] | None  # leaves by the path of their object or array; None: it does not parse


def body(text: str) -> Body | None:
    """The JSON document a text holds from its first line that opens one, its leaves grouped by
    their object; None where no line opens one."""
    m = _BODY_START.search(text)
    if m is None:
        return None
    header = bool(text[: m.start()].strip())
    try:
        found = leaves(text[m.start():])
    except JSONViewError:
        return Body(m.start(), header, None)
    objects: dict[str, list[Leaf]] = {}
    for lf in found:
        objects.setdefault(lf.parent, []).append(lf)
    return Body(m.start(), header, objects)


def _skip(text: str, i: int) -> int:
    return _WS.match(text, i).end()


def _read_key(text: str, i: int, seen: set) -> tuple[int, tuple[str, int, int]]:
    if i >= len(text) or text[i] != '"':
        raise JSONViewError(f"expected an object key (a string) at character {i}")
    try:
        k, end = json.decoder.scanstring(text, i + 1, True)
    except json.decoder.JSONDecodeError as exc:
        raise JSONViewError(f"bad object key at character {i}: {exc.msg}") from None
    if k in seen:
        raise JSONViewError(f"duplicate key {k!r} at character {i}")
    seen.add(k)
    j = _skip(text, end)
    if j >= len(text) or text[j] != ":":
        raise JSONViewError(f"expected ':' after key {k!r} at character {j}")
    return _skip(text, j + 1), (k, i, end)


def _scalar(text: str, i: int) -> tuple[object, int]:
    c = text[i]
    if c == '"':
        try:
            return json.decoder.scanstring(text, i + 1, True)
        except json.decoder.JSONDecodeError as exc:
            raise JSONViewError(f"bad string at character {i}: {exc.msg}") from None
    for word, value in _LITERALS:
        if text.startswith(word, i):
            return value, i + len(word)
    m = json.scanner.NUMBER_RE.match(text, i)
    if m is None:
        raise JSONViewError(f"expected a JSON value at character {i}, got {text[i:i + 12]!r}")
    # Decimal, not float: the view compares amounts exactly, and a 5,000-digit integer is a value
    # like any other, not an error of int()'s digit limit.
    return Decimal(m.group(0)), m.end()


_SIMPLE_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def _key_path(k: str) -> str:
    return k if _SIMPLE_KEY.match(k) else json.dumps(k)
