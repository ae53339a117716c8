"""A small safe evaluator for derived slots: arithmetic over Decimal and dates, never `eval`.

Grammar (a subset of Python expressions, checked node by node when a predicate file is loaded):
numbers, names of slots and arguments, ``+ - * /``, unary minus, comparisons, ``and``/``or``/``not``,
``a if cond else b`` and calls of the functions in ``FUNCTIONS``. Numbers are Decimal (``0.1`` is
exactly one tenth); dates are ``datetime.date``. A name whose value was not found is ``None``:
arithmetic on it raises ``Missing`` (the value cannot be computed from the cited records), while
``min``/``max``/``coalesce`` skip it (an optional cap that is not stated does not cap).
"""

from __future__ import annotations

import ast
import calendar
import datetime as dt
import operator
from decimal import ROUND_HALF_UP, Decimal, DivisionByZero, InvalidOperation
from typing import Any, Callable

import numpy as np


class FormulaError(ValueError):
    """The formula is not in the grammar, or cannot be evaluated on these values."""


class Missing(FormulaError):
    def __init__(self, name: str):
        super().__init__(f"{name} was not found in the cited records")
        self.name = name


class Unsettled(FormulaError):
    """A value the cited records give two different ways: no formula may use it, not even to skip it
    (coalesce/opt/min fall back past a value that is absent, never past one that is ambiguous)."""

    def __init__(self, name: str):
        super().__init__(f"{name} is stated more than one way in the cited records")
        self.name = name


UNSETTLED = object()  # the environment's value of an ambiguous slot


def _num(x: Any, what: str = "value") -> Decimal:
    if x is None:
        raise Missing(what)
    if isinstance(x, bool) or not isinstance(x, (Decimal, int)):
        raise FormulaError(f"{what}: expected a number, got {type(x).__name__}")
    return Decimal(x)


def _date(x: Any, what: str = "value") -> dt.date:
    if x is None:
        raise Missing(what)
    if not isinstance(x, dt.date):
        raise FormulaError(f"{what}: expected a date, got {type(x).__name__}")
    return x


def _present(xs):
    flat = []
    for x in xs:
        flat.extend(x if isinstance(x, list) else [x])
    return [x for x in flat if x is not None]


def _min(*xs):
    vals = _present(xs)
    if not vals:
        raise Missing("min()")
    return min(vals)


def _max(*xs):
    vals = _present(xs)
    if not vals:
        raise Missing("max()")
    return max(vals)


def _sum(*xs):
    vals = [x for x in (xs[0] if len(xs) == 1 and isinstance(xs[0], list) else xs)]
    return sum((_num(v, "sum()") for v in vals), Decimal(0))


def _round(x, places=Decimal(2)):
    return _num(x, "round()").quantize(Decimal(1).scaleb(-int(places)), rounding=ROUND_HALF_UP)


def _days_between(a, b):
    """Calendar days from a to b (negative when b is earlier)."""
    return Decimal((_date(b, "days_between()") - _date(a, "days_between()")).days)


def _business_days(a, b):
    """Monday-Friday days from a (counted) to b (not counted); no holiday calendar."""
    return Decimal(int(np.busday_count(_date(a, "business_days()"), _date(b, "business_days()"))))


def _add_days(d, n):
    n = _num(n, "add_days()")
    if n != n.to_integral_value():
        raise FormulaError(f"add_days(): {n} is not a whole number of days")
    return _date(d, "add_days()") + dt.timedelta(days=int(n))


def _add_business_days(d, n):
    n = _num(n, "add_business_days()")
    return np.busday_offset(_date(d, "add_business_days()"), int(n), roll="forward").astype(dt.date)


def _month_end(d):
    """The last day of d's month ("30 days end of month" counts from it)."""
    d = _date(d, "month_end()")
    return dt.date(d.year, d.month, calendar.monthrange(d.year, d.month)[1])


def _pct(part, whole):
    return _div(_num(part, "pct()") * 100, _num(whole, "pct()"))


def _coalesce(*xs):
    for x in xs:
        if x is not None:
            return x
    raise Missing("coalesce()")


def _count_same(xs):
    """How many of the values are the same as the most common one (names compared normalised)."""
    vals = [x for x in (xs or []) if x is not None]
    if not vals:
        raise Missing("count_same()")
    keys = [x.key() if hasattr(x, "key") else x for x in vals]
    return Decimal(max(keys.count(k) for k in keys))


class Bound(Decimal):
    """A stated threshold: a number with the direction its text gives it ("above" is ">", "or more" is ">=")."""

    op: str | None = None

    @classmethod
    def of(cls, value: Decimal, op: str | None) -> "Bound":
        b = cls(value)
        b.op = op
        return b


def _exceeds(x, bound):
    """Whether x is past a stated threshold, in the threshold's own direction."""
    x, op = _num(x, "exceeds()"), getattr(bound, "op", None)
    b = _num(bound, "exceeds()")
    if op in (">", None):
        if op is None and x == b:
            # "Threshold CHF: 10'000.00": past it or short of it either way, except at the threshold itself
            raise FormulaError("exceeds(): the threshold's text does not say whether it is 'above' or 'at or above'")
        return x > b
    if op == ">=":
        return x >= b
    raise FormulaError(f"exceeds(): the threshold is an upper bound ({op}), not a trigger")


def _len(xs):
    if xs is None:
        raise Missing("len()")
    return Decimal(len(xs))


def _div(a, b):
    try:
        return _num(a) / _num(b)
    except (DivisionByZero, InvalidOperation):
        raise FormulaError("division by zero") from None


FUNCTIONS: dict[str, Callable[..., Any]] = {
    "sum": _sum, "min": _min, "max": _max, "abs": lambda x: abs(_num(x, "abs()")), "round": _round,
    "days_between": _days_between, "business_days": _business_days, "add_days": _add_days,
    "add_business_days": _add_business_days, "month_end": _month_end, "pct": _pct, "coalesce": _coalesce,
    "count_same": _count_same, "len": _len, "exceeds": _exceeds, "opt": None,
}
_BIN = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul}
_CMP = {ast.Gt: operator.gt, ast.GtE: operator.ge, ast.Lt: operator.lt, ast.LtE: operator.le, ast.Eq: operator.eq, ast.NotEq: operator.ne}


class Formula:
    """A parsed, checked expression. ``Formula("qty * price").evaluate({"qty": ..., "price": ...})``."""

    def __init__(self, source: str, names: set[str] | None = None):
        self.source = source
        try:
            self._tree = ast.parse(source, mode="eval").body
        except SyntaxError as exc:
            raise FormulaError(f"not an expression: {exc.msg} at column {exc.offset}") from None
        self.names: set[str] = set()
        self._check(self._tree)
        if names is not None and (unknown := self.names - names):
            raise FormulaError(f"unknown name(s) {', '.join(sorted(unknown))}; known: {', '.join(sorted(names))}")

    def _check(self, node: ast.AST) -> None:
        if isinstance(node, ast.Constant):
            if isinstance(node.value, bool) or not isinstance(node.value, (int, float)):
                raise FormulaError(f"only numbers may be written as constants, got {node.value!r}")
        elif isinstance(node, ast.Name):
            if node.id in FUNCTIONS:
                raise FormulaError(f"{node.id} is a function: call it")
            if node.id not in ("true", "false"):
                self.names.add(node.id)
        elif isinstance(node, ast.BinOp) and (type(node.op) in _BIN or isinstance(node.op, ast.Div)):
            self._check(node.left), self._check(node.right)
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd, ast.Not)):
            self._check(node.operand)
        elif isinstance(node, ast.Compare) and all(type(op) in _CMP for op in node.ops):
            for n in (node.left, *node.comparators):
                self._check(n)
        elif isinstance(node, ast.BoolOp):
            for n in node.values:
                self._check(n)
        elif isinstance(node, ast.IfExp):
            self._check(node.test), self._check(node.body), self._check(node.orelse)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in FUNCTIONS and not node.keywords:
            if node.func.id == "opt" and len(node.args) != 1:
                raise FormulaError("opt() takes one expression")
            for n in node.args:
                self._check(n)
        else:
            raise FormulaError(f"{ast.unparse(node)!r} is not allowed (numbers, names, + - * /, comparisons, and/or/not, if-else, {', '.join(sorted(FUNCTIONS))})")

    def evaluate(self, env: dict[str, Any]) -> Any:
        return self._eval(self._tree, env)

    def _eval(self, node: ast.AST, env: dict[str, Any]) -> Any:
        if isinstance(node, ast.Constant):
            return Decimal(str(node.value))
        if isinstance(node, ast.Name):
            if node.id in ("true", "false"):
                return node.id == "true"
            if node.id not in env:
                raise Missing(node.id)
            if env[node.id] is UNSETTLED:
                raise Unsettled(node.id)
            return env[node.id]
        if isinstance(node, ast.BinOp):
            a, b = self._eval(node.left, env), self._eval(node.right, env)
            what = ast.unparse(node)
            if isinstance(node.op, ast.Div):
                return _div(_num(a, what), _num(b, what))
            return _BIN[type(node.op)](_num(a, what), _num(b, what))
        if isinstance(node, ast.UnaryOp):
            v = self._eval(node.operand, env)
            if isinstance(node.op, ast.Not):
                return not _truth(v)
            return -_num(v) if isinstance(node.op, ast.USub) else _num(v)
        if isinstance(node, ast.Compare):
            left = self._eval(node.left, env)
            for op, right_node in zip(node.ops, node.comparators):
                right = self._eval(right_node, env)
                if left is None or right is None:
                    raise Missing(ast.unparse(node))
                try:
                    if not _CMP[type(op)](left, right):
                        return False
                except TypeError:
                    raise FormulaError(f"cannot compare {type(left).__name__} with {type(right).__name__} in {ast.unparse(node)}") from None
                left = right
            return True
        if isinstance(node, ast.BoolOp):
            vals = [_truth(self._eval(n, env)) for n in node.values]
            return all(vals) if isinstance(node.op, ast.And) else any(vals)
        if isinstance(node, ast.IfExp):
            return self._eval(node.body if _truth(self._eval(node.test, env)) else node.orelse, env)
        if isinstance(node, ast.Call):
            if node.func.id == "opt":  # opt(x): x, or null when x needs a value that was not found
                try:
                    return self._eval(node.args[0], env)
                except Missing:
                    return None
            args = [self._eval(n, env) for n in node.args]
            try:
                return FUNCTIONS[node.func.id](*args)
            except TypeError as exc:
                raise FormulaError(f"{node.func.id}(): {exc}") from None
        raise FormulaError(f"cannot evaluate {ast.unparse(node)!r}")  # unreachable: _check refused it


def _truth(v: Any) -> bool:
    if v is None:
        raise Missing("condition")
    if not isinstance(v, bool):
        raise FormulaError(f"expected true/false, got {v!r}")
    return v
