"""`warrant memory add|load|retract|verify|show|export|mcp`. Registered through the
`warrant.commands` entry point. Exit codes: 0 ok, 1 not verified, 2 bad input, 3 internal error."""

from __future__ import annotations

import functools
import json
import os
import sys
from pathlib import Path
from typing import Any, Callable, List, Optional

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from warrant.ledger.errors import LedgerError, LedgerLockedError

out = Console()
err = Console(stderr=True)

memory_app = typer.Typer(
    help="Agent memory with a lifecycle: typed anchors verified against git HEAD on every read, "
    "retraction receipts, a SUSPECT cascade.\n\n"
    "Example: warrant memory add \"serve() defaults to port 8080\" --author ana "
    "--anchor '{\"kind\":\"symbol\",\"symbol\":\"app.server:serve\",\"param\":\"port\",\"default\":8080}'",
    no_args_is_help=True,
)

StoreOpt = typer.Option(os.environ.get("WARRANT_LEDGER", ".warrant/ledger"), "--store", "-s", help="LanceDB directory of the memory table (the ledger's; env WARRANT_LEDGER).")
RepoOpt = typer.Option(os.environ.get("WARRANT_REPO", "."), "--repo", "-r", help="Git repository anchors are verified against (env WARRANT_REPO).")
JsonOpt = typer.Option(False, "--json", help="Print JSON instead of a table.")


def _fail(msg: str, code: int = 2) -> None:
    err.print(f"[bold red]error:[/] {escape(msg)}")
    raise typer.Exit(code)


def _guard(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Bad input exits 2 with the field named; anything unexpected exits 3, never a traceback."""

    @functools.wraps(fn)
    def run(*a: Any, **kw: Any) -> Any:
        from warrant.runtime.memory.errors import MemoryError_, MemoryInputError

        try:
            return fn(*a, **kw)
        except typer.Exit:
            raise
        except MemoryInputError as exc:
            for v in exc.violations:
                err.print(f"[bold red]error:[/] {escape(v.loc)}: {escape(v.message)}" + (f" (expected {escape(str(v.expected))})" if v.expected is not None else ""))
            raise typer.Exit(2) from None
        except (MemoryError_, LedgerError) as exc:
            _fail(str(exc))
        except Exception as exc:  # noqa: BLE001 - the promised exit code for internal errors
            err.print(f"[bold red]internal error:[/] {escape(type(exc).__name__)}: {escape(str(exc))}")
            raise typer.Exit(3) from None

    return run


def _open(store: str, repo: Optional[str], *, writer: bool = True, fallback: bool = False):
    from warrant.runtime.memory.memory import Memory

    try:
        return Memory.open(store, repo=repo, writer=writer)
    except LedgerLockedError:
        if not fallback:
            raise
        err.print("[yellow]note:[/] another process is the memory's writer: read-only, status changes are not written")
        return Memory.open(store, repo=repo, writer=False)


def _print_json(value: Any) -> None:
    sys.stdout.write(json.dumps(value, indent=2, default=str) + "\n")


@memory_app.command("add")
@_guard
def add(
    text: Optional[str] = typer.Argument(None, help="The memory's text (omit with --json)."),
    author: Optional[str] = typer.Option(None, "--author", "-a", help="Who writes it."),
    kind: str = typer.Option("fact", help="fact | decision | adr | incident | note."),
    anchor: List[str] = typer.Option([], "--anchor", help="A typed anchor as JSON (repeatable)."),
    derived_from: List[str] = typer.Option([], "--derived-from", help="A node this one derives from (repeatable)."),
    supersedes: List[str] = typer.Option([], "--supersedes", help="A node this one replaces: it is retired, with a receipt."),
    contradicts: List[str] = typer.Option([], "--contradicts", help="A node this one contradicts."),
    evidence: List[str] = typer.Option([], "--evidence", help="A ledger id backing it (repeatable)."),
    tag: List[str] = typer.Option([], "--tag", help="A tag (repeatable)."),
    from_json: Optional[Path] = typer.Option(None, "--json", help="A file with one memory object or a list of them ('-' for stdin).", allow_dash=True),
    store: str = StoreOpt,
) -> None:
    """Write a memory (or several with --json); prints each node id and status.

    Example: warrant memory add "serve() uses sqlite3" --author ana
    --anchor '{"kind":"import","module":"sqlite3","scope":"app/server.py","used_in":"serve"}'
    """
    if from_json is not None:
        raw = sys.stdin.read() if str(from_json) == "-" else _read(from_json)
        try:
            doc = json.loads(raw)
        except json.JSONDecodeError as exc:
            _fail(f"--json: not JSON: {exc}")
        items = doc if isinstance(doc, list) else [doc]
    else:
        if not text or not author:
            _fail("give TEXT and --author (or --json FILE)")
        anchors = []
        for i, a in enumerate(anchor):
            try:
                anchors.append(json.loads(a))
            except json.JSONDecodeError as exc:
                _fail(f"--anchor #{i + 1}: not JSON: {exc}")
        items = [{
            "text": text, "author": author, "kind": kind, "anchors": anchors, "evidence": list(evidence), "tags": list(tag),
            "links": {"derived_from": list(derived_from), "supersedes": list(supersedes), "contradicts": list(contradicts)},
        }]
    with _open(store, None) as m:
        nodes = m.add_many(items)
    for node in nodes:
        out.print(f"{node.id} {node.status.value}")


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except (OSError, UnicodeDecodeError) as exc:
        _fail(f"cannot read {path}: {exc}")
        raise


@memory_app.command("load")
@_guard
def load(
    query: str = typer.Argument("", help="Words every returned memory contains ('' = all)."),
    limit: int = typer.Option(20, help="At most this many memories."),
    verify: bool = typer.Option(True, "--verify/--no-verify", help="Check anchors against HEAD (default) or not."),
    as_json: bool = JsonOpt,
    store: str = StoreOpt,
    repo: str = RepoOpt,
) -> None:
    """Load ACTIVE and VERIFIED memories, each checked against HEAD; refuted ones are retired with a receipt.

    Example: warrant memory load "port" --repo . --limit 5
    """
    with _open(store, repo if verify else None, fallback=True) as m:
        res = m.load_memory(query, limit=limit, verify=verify)
    if as_json:
        _print_json(res.model_dump(mode="json"))
        return
    table = Table(title=f"memory at {res.head[:12] if res.head else '-'}")
    table.add_column("id", no_wrap=True, min_width=36)
    table.add_column("status", no_wrap=True)
    table.add_column("text", overflow="fold", ratio=2)
    table.add_column("anchors", overflow="fold", ratio=3)
    for n in res.nodes:
        status = n.status.value + (f" ({n.mark})" if n.mark else "")
        anchors = "; ".join(f"{r.outcome.value}: {r.detail}" for r in n.anchor_results[:3])
        table.add_row(n.id, status, escape(n.text), escape(anchors))
    out.print(table)
    if res.problem:
        out.print(f"[yellow]note:[/] {escape(res.problem)}")
    for r in res.retired:
        out.print(f"[bold red]retired[/] {r.node_id}: {escape(r.reason)} (receipt {r.receipt_id})")


@memory_app.command("retract")
@_guard
def retract(
    node_id: str = typer.Argument(..., help="The node to mark REFUTED."),
    reason: str = typer.Option(..., "--reason", help="Why it is wrong."),
    evidence: List[str] = typer.Option([], "--evidence", help="A ledger id showing it (repeatable)."),
    actor: str = typer.Option("human", "--actor", help="Who retracts it."),
    store: str = StoreOpt,
    repo: Optional[str] = typer.Option(None, "--repo", "-r", help="Record the anchors' results at this repository's HEAD on the receipt."),
) -> None:
    """Mark a node REFUTED; what derives from it becomes SUSPECT; prints the journaled receipt.

    Example: warrant memory retract mem_0123... --reason "the port is 9090 since v2" --evidence led_ab12...
    """
    with _open(store, repo) as m:
        receipt = m.retract(node_id, reason, evidence, actor=actor)
    _print_json(receipt.model_dump(mode="json"))


@memory_app.command("verify")
@_guard
def verify(
    node_ids: List[str] = typer.Argument(None, help="Nodes to check (default: every ACTIVE and VERIFIED one)."),
    as_json: bool = JsonOpt,
    store: str = StoreOpt,
    repo: str = RepoOpt,
) -> None:
    """Check anchors against HEAD now. Exit 0: every node VERIFIED; 1: any REFUTED or INCONCLUSIVE.

    Example: warrant memory verify --repo . mem_0123...
    """
    with _open(store, repo, fallback=True) as m:
        res = m.verify(node_ids or None)
    if as_json:
        _print_json(res.model_dump(mode="json"))
    else:
        table = Table(title=f"verify at {res.head[:12] if res.head else '-'}")
        table.add_column("id", no_wrap=True, min_width=36)
        for col in ("outcome", "status", "why"):
            table.add_column(col)
        for c in res.checks:
            why = next((r.detail for r in c.anchor_results if r.outcome.value == c.outcome.value), "")
            table.add_row(c.node_id, c.outcome.value, c.status.value, escape(why))
        out.print(table)
        if res.problem:
            out.print(f"[yellow]note:[/] {escape(res.problem)}")
    raise typer.Exit(0 if res.checks and all(c.outcome.value == "VERIFIED" for c in res.checks) else 1)


@memory_app.command("show")
@_guard
def show(node_id: str = typer.Argument(..., help="The node."), store: str = StoreOpt) -> None:
    """Print a node's state and its full event history (receipts included) as JSON.

    Example: warrant memory show mem_0123...
    """
    with _open(store, None, writer=False) as m:
        shown = m.show(node_id)
    _print_json(shown)


@memory_app.command("export")
@_guard
def export(
    dest: Path = typer.Argument(..., help="Output file: .jsonl, .parquet or .arrow."),
    events: bool = typer.Option(False, "--events", help="Export the raw chained events instead of current nodes."),
    store: str = StoreOpt,
) -> None:
    """Export current nodes (or every event, chain fields included) for an auditor.

    Example: warrant memory export memory.jsonl --events
    """
    import pyarrow as pa
    import pyarrow.feather as feather
    import pyarrow.parquet as pq

    with _open(store, None, writer=False) as m:
        table = m.store.scan() if events else None
        rows = [n.model_dump(mode="json") for n in m.store.nodes.values()]
    if table is None:
        table = pa.Table.from_pylist([{k: json.dumps(v) if isinstance(v, (list, dict)) else v for k, v in r.items()} for r in rows])
    suffix = dest.suffix.lower()
    if suffix == ".jsonl":
        with dest.open("w") as f:
            for r in table.to_pylist():
                f.write(json.dumps(r, default=str) + "\n")
    elif suffix == ".parquet":
        pq.write_table(table, dest)
    elif suffix in (".arrow", ".feather"):
        feather.write_feather(table, dest)
    else:
        _fail(f"unknown export format {suffix!r}: use .jsonl, .parquet or .arrow")
    out.print(f"wrote {table.num_rows} {'events' if events else 'nodes'} to {escape(str(dest))}")


@memory_app.command("mcp")
@_guard
def mcp(store: str = StoreOpt, repo: str = RepoOpt) -> None:
    """Serve the memory tools over MCP on stdio (needs the mcp extra: pip install warrant-runtime[mcp]).

    Example: warrant memory mcp --store .warrant/ledger --repo .
    """
    import importlib.util

    from warrant.runtime.memory.mcp_server import serve_stdio

    if importlib.util.find_spec("mcp") is None:
        _fail("the MCP server needs the mcp package: pip install 'warrant-runtime[mcp]'")
    with _open(store, repo) as m:
        serve_stdio(m)


def register(app: typer.Typer) -> None:
    app.add_typer(memory_app, name="memory")
