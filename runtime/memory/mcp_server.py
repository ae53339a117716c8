"""The memory tools over the Model Context Protocol (the official `mcp` package, extra `[mcp]`):
how the seed's agents reach memory. Same operations, same errors as the library and the CLI.

    warrant memory mcp --store .warrant/ledger --repo .        # stdio; add it to an MCP client

Errors come back as tool errors (isError) whose text, after the SDK's "Error executing tool
NAME: " prefix, is JSON: {"error": code, "message": ...,
"violations": [{"loc": ..., "message": ..., "expected": ..., "got": ...}]}.
"""

from __future__ import annotations

import json
from typing import Any

from warrant.runtime.memory.errors import AlreadyRetracted, MemoryError_, MemoryInputError, NodeNotFound
from warrant.runtime.memory.memory import Memory


def error_payload(exc: Exception) -> dict[str, Any]:
    if isinstance(exc, MemoryInputError):
        return {"error": "bad_input", "message": str(exc), "violations": [v.model_dump(mode="json") for v in exc.violations]}
    if isinstance(exc, NodeNotFound):
        return {"error": "node_unknown", "message": str(exc), "node_id": exc.node_id}
    if isinstance(exc, AlreadyRetracted):
        return {"error": "already_retracted", "message": str(exc), "node_id": exc.node_id, "receipt_id": exc.receipt_id}
    return {"error": "memory_error", "message": str(exc)}


def build_server(memory: Memory):
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError

    server = MCPServer(
        "warrant-memory",
        instructions=(
            "Agent memory with a lifecycle. memory_load returns only ACTIVE and VERIFIED memories, each "
            "checked against the repository's git HEAD; write memories with typed anchors so they can be "
            "verified; retract what the code contradicts."
        ),
    )

    def guarded(fn):  # noqa: ANN001 - wraps the tool bodies below
        def call(*a: Any, **kw: Any) -> Any:
            try:
                return fn(*a, **kw)
            except MemoryError_ as exc:
                raise ToolError(json.dumps(error_payload(exc))) from None

        return call

    @server.tool()
    def memory_add(
        text: str,
        author: str,
        kind: str = "fact",
        anchors: list[dict[str, Any]] | None = None,
        links: dict[str, list[str]] | None = None,
        evidence: list[str] | None = None,
        tags: list[str] | None = None,
    ) -> dict[str, Any]:
        """Write a memory. Anchors are typed claims about the code, e.g.
        {"kind": "symbol", "symbol": "pkg.mod:func", "param": "port", "default": 8080} or
        {"kind": "import", "module": "sqlite3", "scope": "pkg/db.py", "used_in": "connect"}.
        Links: supersedes / contradicts / derived_from (node ids)."""
        body = {"text": text, "author": author, "kind": kind, "anchors": anchors or [], "links": links or {}, "evidence": evidence or [], "tags": tags or []}
        node = guarded(memory.add)(body)
        return {"node_id": node.id, "status": node.status.value, "prose_anchors": len(node.prose_anchors)}

    @server.tool()
    def memory_load(query: str = "", limit: int = 20) -> dict[str, Any]:
        """Load ACTIVE and VERIFIED memories matching every word of `query` ("" = all), newest
        first, each with its anchor results at HEAD. Memories the code refutes are retired on the
        spot (listed under `retired` with their receipts) and never returned."""
        return guarded(memory.load_memory)(query, limit=limit).model_dump(mode="json")

    @server.tool()
    def memory_retract(node_id: str, reason: str, evidence: list[str] | None = None, actor: str = "agent") -> dict[str, Any]:
        """Mark a memory REFUTED (with a reason and ledger evidence ids); everything derived from
        it becomes SUSPECT. Returns the RetractionReceipt."""
        return guarded(memory.retract)(node_id, reason, evidence or [], actor=actor).model_dump(mode="json")

    @server.tool()
    def memory_verify(node_ids: list[str] | None = None) -> dict[str, Any]:
        """Check memories' anchors against HEAD now (default: every ACTIVE and VERIFIED one)."""
        return guarded(memory.verify)(node_ids).model_dump(mode="json")

    @server.tool()
    def memory_show(node_id: str) -> dict[str, Any]:
        """A memory's current state and every event in its history (receipts included)."""
        return guarded(memory.show)(node_id)

    return server


def serve_stdio(memory: Memory) -> None:
    build_server(memory).run("stdio")
