"""The tools of a gold run: every call answered from the gold set's tool outputs, every run recorded.

A run can fetch only what the gold set holds: a call whose exact arguments the gold set does not
list fails inside the tool (the bus records `tool_error` and the run goes on), as a call to a
system that has no such record would. Irreversible tools are sinks (`any_args` entries): they
answer every call and change nothing, and the log shows what actually ran, which the scorer
holds against the journal (a call that ran without a journal entry went around the tool bus).
"""

from __future__ import annotations

import copy
import re
import threading
from typing import Any, Callable

from warrant.ledger import canonical_json
from warrant.runtime.evals.goldset import GoldSet, ToolOutput
from warrant.runtime.registry import ToolRegistry

_ECHO = re.compile(r"^\{([A-Za-z_][A-Za-z0-9_]*)\}$")


class GoldRecordMissing(LookupError):
    pass


class Replay:
    def __init__(self, gold: GoldSet):
        self.gold = gold
        self.log: list[tuple[str, dict[str, Any]]] = []  # (tool, args) of every call that ran
        self._lock = threading.Lock()
        self._exact: dict[tuple[str, bytes], ToolOutput] = {}
        self._any: dict[str, ToolOutput] = {}
        for o in gold.tool_outputs:
            if o.any_args:
                self._any[o.tool] = o
            else:
                self._exact[(o.tool, canonical_json(o.args))] = o

    def answer(self, tool: str, args: dict[str, Any]) -> Any:
        with self._lock:
            self.log.append((tool, copy.deepcopy(args)))
        entry = self._exact.get((tool, canonical_json(args))) or self._any.get(tool)
        if entry is None:
            raise GoldRecordMissing(f"the gold set {self.gold.name} holds no output of {tool} for {args}")
        if entry.error is not None:
            raise LookupError(entry.error)
        return _echo(copy.deepcopy(entry.output), args) if entry.any_args else copy.deepcopy(entry.output)

    def tool(self, name: str) -> Callable[[dict[str, Any]], Any]:
        return lambda args: self.answer(name, args)

    def registry(self, *, enforce_irreversible: bool = True) -> ToolRegistry:
        """The gold set's tool specs served by replay. `enforce_irreversible=False` serves every
        tool as reversible: the plain baselines (benchmarks) run side effects without grants, as
        frameworks without an irreversibility edge do; hygiene is still judged by the gold specs."""
        specs = [dict(s) if enforce_irreversible else dict(s, irreversible=False) for s in self.gold.tool_specs]
        return ToolRegistry.from_specs(specs, {(s["name"], s["version"]): self.tool(s["name"]) for s in specs})


def _echo(value: Any, args: dict[str, Any]) -> Any:
    if isinstance(value, str) and (m := _ECHO.match(value)) and m.group(1) in args:
        return args[m.group(1)]
    if isinstance(value, dict):
        return {k: _echo(v, args) for k, v in value.items()}
    if isinstance(value, list):
        return [_echo(v, args) for v in value]
    return value


__all__ = ["GoldRecordMissing", "Replay"]
