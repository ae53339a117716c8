"""Derivations: how a gold figure is re-computed from the records the gold set holds.

A derivation is one expression over the tool outputs of the gold set, e.g.

    find(out('inv_4421').lines, line_id='14').hours * find(out('inv_4421').lines, line_id='14').rate
    sum(pluck(out('inv_4421').lines, 'amount'))
    date(out('inv_4421').issued) + days(out('terms_cl7').payment_terms_days)

Numbers are exact decimals (a float 0.1 is read as Decimal("0.1")), dates are dates. The grammar
is Python's, cut down to literals, names, `.field`, `[index]`, arithmetic, comparisons, `and` /
`or` / `not` and calls of the functions below: a gold file is data, so the evaluator accepts
eight kinds of syntax node and nothing that could loop, import or touch the file system (which is
why this is not `eval` and not a general expression library). Domain-free: a second domain's gold
set derives its figures with the same functions over its own tool outputs.
"""

from __future__ import annotations

import ast
import datetime as dt
import operator
from decimal import Decimal, InvalidOperation
from typing import Any, Callable, Mapping


class DeriveError(ValueError):
    pass


def as_value(x: Any) -> Any:
    """JSON and YAML values as the evaluator sees them: numbers as Decimal, recursively."""
    if isinstance(x, bool) or x is None or isinstance(x, (Decimal, dt.date)):
        return x
    if isinstance(x, (int, float)):
        return Decimal(str(x))
    if isinstance(x, dict):
        return {k: as_value(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [as_value(v) for v in x]
    return x


def same(derived: Any, stated: Any) -> bool:
    """Equal as figures: 320 == 320.0 == Decimal("320.00"); a date equals its ISO string."""
    a, b = as_value(derived), as_value(stated)
    if isinstance(a, dt.date) and isinstance(b, str):
        b = _date(b)
    if isinstance(b, dt.date) and isinstance(a, str):
        a = _date(a)
    return a == b


def _date(s: Any) -> dt.date:
    if isinstance(s, dt.date):
        return s
    try:
        return dt.date.fromisoformat(str(s))
    except ValueError:
        raise DeriveError(f"date(): {s!r} is not an ISO date (YYYY-MM-DD)") from None


def _days(n: Any) -> dt.timedelta:
    try:
        return dt.timedelta(days=int(Decimal(str(n))))
    except (InvalidOperation, ValueError):
        raise DeriveError(f"days(): {n!r} is not a whole number of days") from None


def _where(items: Any, **eq: Any) -> list[Any]:
    if not isinstance(items, list):
        raise DeriveError(f"where()/find(): expected a list, got {type(items).__name__}")
    return [x for x in items if isinstance(x, dict) and all(k in x and same(x[k], v) for k, v in eq.items())]


def _find(items: Any, **eq: Any) -> Any:
    found = _where(items, **eq)
    if len(found) != 1:
        raise DeriveError(f"find({', '.join(f'{k}={v!r}' for k, v in eq.items())}): {len(found)} items match, expected exactly 1")
    return found[0]


def _pluck(items: Any, name: str) -> list[Any]:
    if not isinstance(items, list):
        raise DeriveError(f"pluck(): expected a list, got {type(items).__name__}")
    try:
        return [x[name] for x in items]
    except (KeyError, TypeError):
        raise DeriveError(f"pluck(): an item has no field {name!r}") from None


def _sum(items: Any) -> Decimal:
    if not isinstance(items, list):
        raise DeriveError(f"sum(): expected a list, got {type(items).__name__}")
    return sum((Decimal(str(x)) for x in items), Decimal(0))


FUNCTIONS: dict[str, Callable[..., Any]] = {
    "where": _where,
    "find": _find,
    "pluck": _pluck,
    "sum": _sum,
    "len": len,
    "min": min,
    "max": max,
    "abs": abs,
    "round": lambda x, n=0: round(Decimal(str(x)), int(n)),
    "date": _date,
    "days": _days,
}
_BIN = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv}
_CMP = {ast.Eq: same, ast.NotEq: lambda a, b: not same(a, b), ast.Lt: operator.lt, ast.LtE: operator.le,
        ast.Gt: operator.gt, ast.GtE: operator.ge}


def evaluate(expr: str, outputs: Mapping[str, Any], names: Mapping[str, Any] | None = None) -> Any:
    """The value of `expr`; `outputs` maps tool-output ids to their JSON, `names` are the claim's
    own args and figures (so an expression may say `line_id`)."""
    try:
        tree = ast.parse(expr.strip(), mode="eval")
    except SyntaxError as exc:
        raise DeriveError(f"not an expression: {exc.msg} at column {exc.offset}") from None
    env = {k: as_value(v) for k, v in (names or {}).items()}

    def out(output_id: str) -> Any:
        if output_id not in outputs:
            raise DeriveError(f"out({output_id!r}): no tool output with that id (known: {', '.join(sorted(outputs))})")
        return as_value(outputs[output_id])

    fns = {**FUNCTIONS, "out": out}

    def ev(node: ast.AST) -> Any:
        if isinstance(node, ast.Expression):
            return ev(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float, str, bool)):
            return as_value(node.value)
        if isinstance(node, ast.Name):
            if node.id in env:
                return env[node.id]
            raise DeriveError(f"unknown name {node.id!r} (the claim's args and figures: {', '.join(sorted(env)) or 'none'})")
        if isinstance(node, ast.Attribute):
            base = ev(node.value)
            if not isinstance(base, dict) or node.attr not in base:
                raise DeriveError(f".{node.attr}: no such field (have: {', '.join(sorted(base)) if isinstance(base, dict) else type(base).__name__})")
            return base[node.attr]
        if isinstance(node, ast.Subscript):
            base, key = ev(node.value), ev(node.slice)
            try:
                return base[int(key)] if isinstance(base, list) else base[key]
            except (KeyError, IndexError, TypeError, ValueError):
                raise DeriveError(f"[{key!r}]: no such item") from None
        if isinstance(node, ast.BinOp) and type(node.op) in _BIN:
            a, b = ev(node.left), ev(node.right)
            try:
                return _BIN[type(node.op)](a, b)
            except (TypeError, ArithmeticError) as exc:
                raise DeriveError(f"cannot compute {a!r} {type(node.op).__name__} {b!r}: {exc}") from None
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.Not)):
            v = ev(node.operand)
            return -v if isinstance(node.op, ast.USub) else not v
        if isinstance(node, ast.BoolOp):
            vals = [ev(v) for v in node.values]
            return all(vals) if isinstance(node.op, ast.And) else any(vals)
        if isinstance(node, ast.Compare) and all(type(op) in _CMP for op in node.ops):
            left = ev(node.left)
            for op, right_node in zip(node.ops, node.comparators):
                right = ev(right_node)
                try:
                    if not _CMP[type(op)](left, right):
                        return False
                except TypeError as exc:
                    raise DeriveError(f"cannot compare {left!r} and {right!r}: {exc}") from None
                left = right
            return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in fns:
            args = [ev(a) for a in node.args]
            kwargs = {k.arg: ev(k.value) for k in node.keywords if k.arg is not None}
            try:
                return fns[node.func.id](*args, **kwargs)
            except DeriveError:
                raise
            except (TypeError, ValueError, ArithmeticError) as exc:
                raise DeriveError(f"{node.func.id}(): {exc}") from None
        if isinstance(node, ast.Call):
            name = getattr(node.func, "id", None) or type(node.func).__name__
            raise DeriveError(f"{name}(): not a derivation function (known: {', '.join(sorted(fns))})")
        raise DeriveError(f"{type(node).__name__} is not allowed in a derivation")

    return ev(tree)


__all__ = ["DeriveError", "FUNCTIONS", "as_value", "evaluate", "same"]
