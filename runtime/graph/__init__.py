"""Running an agent graph through the control plane (the in-process runner; actors/ hosts it on Ray).

    from warrant.runtime.graph import ControlPlane, Graph, GraphRunner, ScriptedAgent
    plane = ControlPlane.open(".warrant/ledger", ToolRegistry.load("tools/"), policy=policy, backend=load_backend())
    report = GraphRunner(plane, corpus=Corpus.load("documents/")).run(Graph.chain("audit", agents), {"invoice_id": "INV-4421"})

Modules: agent (the plug-in interface), graph (nodes and edges), corpus (documents -> ledger spans),
runner (gate + verifier on every edge, tool bus, grants, rounds, abstention), approval (the human
step), report (the run report), scripted / llm (the two kinds of agents), console / html (rendering),
langgraph_adapter (gate + verifier on the edges of a LangGraph StateGraph), cli (`warrant run`, `warrant demo`).
"""

from warrant.runtime.graph.agent import Agent, AgentContext, AgentError, AgentOutput, EvidenceRef, Feedback, ToolPort, intent, restate
from warrant.runtime.graph.approval import Approval, ApprovalRequest, Approver, approve_as, approve_nothing
from warrant.runtime.graph.corpus import Corpus, CorpusError, Page
from warrant.runtime.graph.graph import Graph, GraphError
from warrant.runtime.graph.report import Action, ChainStatus, Handoff, ReviewItem, RunReport, RunStatus, ToolCall
from warrant.runtime.graph.runner import DEFAULT_MAX_ROUNDS, ControlPlane, GraphRunner, RunEvent
from warrant.runtime.graph.scripted import ScriptedAgent

__all__ = [
    "Action", "Agent", "AgentContext", "AgentError", "AgentOutput", "Approval", "ApprovalRequest", "Approver", "ChainStatus",
    "ControlPlane", "Corpus", "CorpusError", "DEFAULT_MAX_ROUNDS", "EvidenceRef", "Feedback", "Graph", "GraphError",
    "GraphRunner", "Handoff", "Page", "ReviewItem", "RunEvent", "RunReport", "RunStatus", "ScriptedAgent", "ToolCall",
    "ToolPort", "approve_as", "approve_nothing", "intent", "restate",
]


def __getattr__(name: str):
    # LLMAgent pulls in httpx; import it only when asked for.
    if name == "LLMAgent":
        from warrant.runtime.graph.llm import LLMAgent

        return LLMAgent
    raise AttributeError(name)
