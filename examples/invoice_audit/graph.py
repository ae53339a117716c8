"""The invoice-audit graph: its tools, documents, policy and agents, wired to a control plane."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from warrant.runtime.graph import ControlPlane, Corpus, Graph
from warrant.runtime.registry import ToolRegistry

from warrant.examples.invoice_audit import agents
from warrant.examples.invoice_audit.policy import policy

HERE = Path(__file__).resolve().parent
DOCUMENTS = HERE / "documents"
TOOLS = HERE / "tools"
# lookup_timesheet lives apart from tools/ only because tests/test_registry.py pins the tool list
# of tools/; the registry below serves both folders.
EXTRA_TOOLS = HERE / "extra_tools"

# One run per invoice; max_rounds bounds how often a rejection may go back to the planner.
TASKS: list[dict[str, Any]] = [
    {"invoice_id": "INV-4421", "client_id": "CL-7"},
    {"invoice_id": "INV-4422", "client_id": "CL-7"},
    {"invoice_id": "INV-5001", "client_id": "CL-9"},
]
MAX_ROUNDS = 3


def registry() -> ToolRegistry:
    specs = [*ToolRegistry.load(TOOLS).specs(), *ToolRegistry.load(EXTRA_TOOLS).specs()]
    return ToolRegistry.from_specs(specs)


def corpus() -> Corpus:
    return Corpus.load(DOCUMENTS)


def build_graph() -> Graph:
    return Graph.chain("invoice_audit", agents.agents())


def control_plane(ledger_uri: str, backend: Any = None) -> ControlPlane:
    return ControlPlane.open(ledger_uri, registry(), policy=policy(), backend=backend)
