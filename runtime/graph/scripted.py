"""Scripted agents: deterministic behaviour for tests, demos and the evaluation harness.

A script is a function of the context (task, inbox, evidence, feedback, round); it may call tools
through `ctx.tools` like any agent. `by_round` picks a different script per round, which is how
an example shows an agent correcting itself after a rejection.
"""

from __future__ import annotations

from typing import Callable, Mapping

from warrant.runtime.graph.agent import AgentContext, AgentOutput

Script = Callable[[AgentContext], AgentOutput]


class ScriptedAgent:
    def __init__(self, name: str, script: Script):
        self.name = name
        self._script = script

    @classmethod
    def by_round(cls, name: str, scripts: Mapping[int, Script], default: Script | None = None) -> "ScriptedAgent":
        """Round r runs scripts[r], else the script of the highest round below r, else `default`."""
        table = dict(scripts)

        def pick(ctx: AgentContext) -> AgentOutput:
            earlier = [r for r in table if r <= ctx.round]
            fn = table[max(earlier)] if earlier else default
            if fn is None:
                raise LookupError(f"{name}: no script for round {ctx.round}")
            return fn(ctx)

        return cls(name, pick)

    def act(self, ctx: AgentContext) -> AgentOutput:
        return self._script(ctx)

    def __repr__(self) -> str:
        return f"ScriptedAgent({self.name!r})"


__all__ = ["ScriptedAgent", "Script"]
