"""A graph of agents: nodes, directed edges, and the planner that rejections are routed back to."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from warrant.runtime.graph.agent import Agent


class GraphError(ValueError):
    pass


@dataclass
class Graph:
    name: str
    nodes: dict[str, Agent]
    edges: list[tuple[str, str]]
    planner: str | None = None  # default: the only node without incoming edges
    order: list[str] = field(init=False)

    def __post_init__(self) -> None:
        for src, dst in self.edges:
            for n in (src, dst):
                if n not in self.nodes:
                    raise GraphError(f"edge {src!r} -> {dst!r} names unknown node {n!r}; nodes: {sorted(self.nodes)}")
        for name, agent in self.nodes.items():
            if not callable(getattr(agent, "act", None)):
                raise GraphError(f"node {name!r}: {type(agent).__name__} has no act(ctx) method")
        roots = [n for n in self.nodes if not self.predecessors(n)]
        if self.planner is None:
            if len(roots) != 1:
                raise GraphError(f"the graph needs exactly one entry node (the planner), found {roots}; pass planner=")
            self.planner = roots[0]
        elif self.planner not in self.nodes:
            raise GraphError(f"planner {self.planner!r} is not a node")
        elif self.predecessors(self.planner):
            raise GraphError(f"planner {self.planner!r} must be the entry node (it has incoming edges)")
        self.order = _topological(self.nodes, self.edges)

    @classmethod
    def chain(cls, name: str, agents: Iterable[Agent]) -> "Graph":
        """planner -> ... -> last, named by each agent's `name`."""
        agents = list(agents)
        nodes = {a.name: a for a in agents}
        if len(nodes) != len(agents):
            raise GraphError("agent names must be unique")
        return cls(name, nodes, [(a.name, b.name) for a, b in zip(agents, agents[1:])])

    def predecessors(self, node: str) -> list[str]:
        return [s for s, d in self.edges if d == node]

    def successors(self, node: str) -> list[str]:
        return [d for s, d in self.edges if s == node]


def _topological(nodes: dict[str, Agent], edges: list[tuple[str, str]]) -> list[str]:
    indeg = {n: 0 for n in nodes}
    for _, d in edges:
        indeg[d] += 1
    ready = [n for n in nodes if indeg[n] == 0]
    out = []
    while ready:
        n = ready.pop(0)
        out.append(n)
        for s, d in edges:
            if s == n:
                indeg[d] -= 1
                if indeg[d] == 0:
                    ready.append(d)
    if len(out) != len(nodes):
        # A cycle would let an artifact loop past its own rejection; rounds are the runner's job.
        raise GraphError(f"the graph has a cycle through {sorted(set(nodes) - set(out))}; route retries with rounds, not edges")
    return out


__all__ = ["Graph", "GraphError"]
