"""`make demo` / `warrant demo` / `python -m warrant.examples.invoice_audit`: the invoice audit end to end.

Embedded default: LanceDB in a local folder, everything in this process, the CPU NLI model.
Prints progress while it runs, a report per invoice, and writes one self-contained HTML report.
"""

from __future__ import annotations

import time
from pathlib import Path

from rich.console import Console

from warrant.runtime.graph import GraphRunner, RunReport, approve_nothing
from warrant.runtime.graph.console import Progress, render, summary_table
from warrant.runtime.graph.html import write_html

from warrant.examples.invoice_audit import graph, tools_impl

DEFAULT_DIR = Path(".warrant") / "demo"


def load_model(spec: str | None, console: Console):
    """The entailment backend, or None with `spec == "none"` (free statements then stay unsupported)."""
    if spec == "none":
        return None
    from warrant.runtime.verify.backends import load_backend

    with console.status("loading the NLI model"):
        return load_backend(spec)


def run_demo(out_dir: str | Path = DEFAULT_DIR, *, ledger: str | None = None, html: str | None = None, model: str | None = None,
             console: Console | None = None, backend=None, quiet: bool = False) -> list[RunReport]:
    console = console or Console()
    started = time.monotonic()
    out_dir = Path(out_dir)
    ledger_uri = ledger or str(out_dir / "ledger")
    html_path = Path(html) if html else out_dir / "invoice_audit_report.html"
    if backend is None:
        backend = load_model(model, console)
    tools_impl.reset()  # the stand-in billing system and outbox start empty
    plane = graph.control_plane(ledger_uri, backend)
    reports = []
    try:
        for task in graph.TASKS:
            runner = GraphRunner(plane, corpus=graph.corpus(), approver=approve_nothing, max_rounds=graph.MAX_ROUNDS,
                                 on_event=None if quiet else Progress(console, task["invoice_id"]), report_dir=out_dir / "runs")
            reports.append(runner.run(graph.build_graph(), task))
    finally:
        plane.close()
    path = write_html(reports, html_path, title="Warrant — invoice audit")
    if not quiet:
        console.rule("report")
        for r in reports:
            render(r, console, html_path=str(path))
        console.print(summary_table(reports))
        console.print(f"flags raised in the billing system: {tools_impl.FLAGS}")
        console.print(f"messages sent: {len(tools_impl.OUTBOX)}")
        console.print(f"[bold]HTML report:[/] {path.resolve()}")
        console.print(f"[bold]audit trail:[/] {Path(ledger_uri).resolve()}  (warrant ledger verify --ledger {ledger_uri})")
        print_review_queue(reports, ledger_uri, console)
        console.print(f"[dim]wall time {time.monotonic() - started:.1f} s[/]")
    return reports


def print_review_queue(reports: list[RunReport], ledger_uri: str, console: Console) -> None:
    """Where a person acts on the calls that wait for review: the review page's address per call."""
    from rich.markup import escape

    from warrant.runtime.review import DEFAULT_HOST, DEFAULT_PORT

    queued = [a.review for r in reports for a in r.actions if a.review is not None and a.review.queue_id]
    if not queued:
        return
    base = f"http://{DEFAULT_HOST}:{DEFAULT_PORT}"
    console.print(f"[bold]review page:[/] {base}/  ({len(queued)} irreversible call(s) wait for a person)")
    console.print(f"  start it: warrant review add-reviewer NAME   (once), then   warrant review serve --ledger {ledger_uri}")
    for rv in queued:
        args = ", ".join(f"{k}={v}" for k, v in sorted(rv.args.items()) if k != "body")
        console.print(f"  {base}/items/{rv.queue_id}  {escape(rv.tool)}({escape(args)})")
