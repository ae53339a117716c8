"""Arithmetic over a policy's facts: `(rate - cap) * hours`, `deviation > 0`.

A policy is data an operator edits, so its formulas are parsed, never `eval`ed: only numbers,
fact names, + - * /, unary minus and comparisons are allowed, and every value is a Decimal (a
tolerance of USD 500.00 must not become 499.99999 in binary floating point).
"""

from __future__ import annotations

import ast
import operator
from decimal import Decimal, InvalidOperation
from typing import Any, Callable, Iterable, Mapping

_BINARY: dict[type, Callable[[Decimal, Decimal], Decimal]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
}
_COMPARE: dict[type, Callable[[Decimal, Decimal], bool]] = {
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
}


class ExpressionError(ValueError):
    pass


class Expression:
    """A parsed formula. `boolean`: a comparison (a requirement), else a number."""

    def __init__(self, source: str, names: Iterable[str], *, boolean: bool = False):
        if not isinstance(source, str) or not source.strip():
            raise ExpressionError("expected a formula, e.g. (rate - cap) * hours")
        try:
            tree = ast.parse(source.strip(), mode="eval").body
        except SyntaxError as exc:
            raise ExpressionError(f"not a formula: {exc.msg} at column {exc.offset}") from None
        allowed = set(names)
        self.names = sorted(self._check(tree, allowed))
        if boolean != isinstance(tree, ast.Compare):
            raise ExpressionError("expected a comparison, e.g. deviation > 0" if boolean else "expected a number, not a comparison")
        self.source = source.strip()
        self._tree = tree

    def _check(self, node: ast.AST, allowed: set[str]) -> set[str]:
        if isinstance(node, ast.Constant):
            if isinstance(node.value, bool) or not isinstance(node.value, (int, float)):
                raise ExpressionError(f"only numbers may appear as constants, got {node.value!r}")
            return set()
        if isinstance(node, ast.Name):
            if node.id not in allowed:
                raise ExpressionError(f"unknown name {node.id!r}; known: {', '.join(sorted(allowed)) or 'none'}")
            return {node.id}
        if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
            return self._check(node.left, allowed) | self._check(node.right, allowed)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            return self._check(node.operand, allowed)
        if isinstance(node, ast.Compare) and all(type(op) in _COMPARE for op in node.ops):
            used = self._check(node.left, allowed)
            for c in node.comparators:
                if isinstance(c, ast.Compare):
                    raise ExpressionError("nested comparisons are not allowed")
                used |= self._check(c, allowed)
            return used
        raise ExpressionError(f"{type(node).__name__} is not allowed: use numbers, names, + - * / and comparisons")

    def __call__(self, values: Mapping[str, Decimal]) -> Any:
        try:
            return self._eval(self._tree, values)
        except (ZeroDivisionError, InvalidOperation) as exc:
            raise ExpressionError(f"{self.source}: {type(exc).__name__}") from None

    def _eval(self, node: ast.AST, values: Mapping[str, Decimal]) -> Any:
        if isinstance(node, ast.Constant):
            return Decimal(str(node.value))
        if isinstance(node, ast.Name):
            return values[node.id]
        if isinstance(node, ast.BinOp):
            return _BINARY[type(node.op)](self._eval(node.left, values), self._eval(node.right, values))
        if isinstance(node, ast.UnaryOp):
            v = self._eval(node.operand, values)
            return -v if isinstance(node.op, ast.USub) else v
        assert isinstance(node, ast.Compare)
        left = self._eval(node.left, values)
        for op, c in zip(node.ops, node.comparators):
            right = self._eval(c, values)
            if not _COMPARE[type(op)](left, right):
                return False
            left = right
        return True

    def __repr__(self) -> str:
        return f"Expression({self.source!r})"


__all__ = ["Expression", "ExpressionError"]
