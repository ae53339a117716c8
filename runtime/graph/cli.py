"""`warrant run` (registered through the `warrant.commands` entry point). `warrant demo` lives with
the example it runs (examples/cli.py): runtime/ never imports examples/."""

from __future__ import annotations

import importlib
import os
import time
from pathlib import Path
from typing import Any, List, Optional

import typer
from rich.console import Console
from rich.markup import escape

from warrant.runtime.exits import ExitCode, fail

out = Console()
err = Console(stderr=True)

# Only shown in help and errors: runtime/ never imports examples/ (the target is always named).
EXAMPLE = "warrant.examples.invoice_audit.graph:build_graph"


def _resolve(target: str) -> tuple[Any, Any]:
    module_name, _, attr = target.partition(":")
    if not attr:
        fail(f"{target!r}: expected MODULE:FUNCTION, e.g. {EXAMPLE}")
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:
        fail(f"cannot import {module_name!r}: {type(exc).__name__}: {exc}")
    fn = getattr(module, attr, None)
    if fn is None:
        fail(f"module {module_name!r} has no {attr!r}")
    return module, fn


def _backend(model: Optional[str]):
    if model == "none":
        return None
    from warrant.runtime.verify.backends import ModelMissingError, load_backend

    try:
        with err.status("loading the NLI model"):
            return load_backend(model)
    except ModelMissingError as exc:
        fail(f"{exc} (or pass --model none to run without entailment: free statements then stay unsupported)")


def register(app: typer.Typer) -> None:
    @app.command("run")
    def run(
        target: str = typer.Argument(..., help=f"MODULE:FUNCTION returning a warrant.runtime.graph.Graph, e.g. {EXAMPLE}."),
        task: Optional[List[str]] = typer.Option(None, "--task", "-t", help="A task as JSON (repeatable); default: the module's TASKS."),
        ledger: str = typer.Option(os.environ.get("WARRANT_LEDGER", ".warrant/ledger"), "--ledger", "-l", help="LanceDB folder of the ledger and journal."),
        out_html: Path = typer.Option(Path(".warrant/report.html"), "--out", "-o", help="Where to write the HTML report."),
        registry: Optional[Path] = typer.Option(None, "--registry", "-r", help="Tool spec folder; default: the module's registry()."),
        documents: Optional[Path] = typer.Option(None, "--documents", "-d", help="Source documents folder; default: the module's corpus()."),
        model: Optional[str] = typer.Option(None, "--model", "-m", help="NLI backend spec (see `warrant verify --help`); 'none' for no model."),
        max_rounds: int = typer.Option(3, "--max-rounds", min=1, help="Rejections routed back to the planner at most this many rounds."),
    ) -> None:
        """Run an agent graph through the control plane; print the report and write it as HTML.

        Exit code 0: every run completed or waits for review; 1: some run abstained; 2: bad input;
        3: a run failed (the runner's own error; every decision up to it is in the journal).

        Example: warrant run warrant.examples.invoice_audit.graph:build_graph -t '{"invoice_id": "INV-4421", "client_id": "CL-7"}'
        """
        from warrant.runtime import strict_json
        from warrant.runtime.graph import Corpus, GraphRunner
        from warrant.runtime.graph.console import Progress, render, summary_table
        from warrant.runtime.graph.html import write_html
        from warrant.runtime.graph.runner import ControlPlane, ConfidenceMapError
        from warrant.runtime.registry import RegistryError, ToolRegistry

        module, factory = _resolve(target)
        graph = factory() if callable(factory) else factory
        try:
            tasks = [strict_json.loads(t) for t in task] if task else list(getattr(module, "TASKS", [{}]))
        except strict_json.StrictJSONError as exc:
            fail(f"--task must be a JSON object: {exc}")
        if not all(isinstance(t, dict) for t in tasks):
            fail("--task must be a JSON object, e.g. '{\"invoice_id\": \"INV-4421\"}'")
        try:
            reg = ToolRegistry.load(registry) if registry else module.registry()
        except (RegistryError, AttributeError) as exc:
            fail(f"no tool registry: {exc} (pass --registry DIR)")
        corpus = Corpus.load(documents) if documents else (module.corpus() if hasattr(module, "corpus") else None)
        policy = module.policy() if callable(getattr(module, "policy", None)) else None
        from warrant.ledger import LedgerError

        try:
            plane = ControlPlane.open(ledger, reg, policy=policy, backend=_backend(model))
        except (LedgerError, ConfidenceMapError) as exc:
            fail(str(exc))
        started = time.monotonic()
        reports = []
        try:
            for t in tasks:
                runner = GraphRunner(plane, corpus=corpus, max_rounds=max_rounds, on_event=Progress(out, " ".join(map(str, t.values()))),
                                     report_dir=Path(ledger).parent / "runs")
                reports.append(runner.run(graph, t))
        finally:
            plane.close()
        path = write_html(reports, out_html, title=f"Warrant — {graph.name}")
        for r in reports:
            render(r, out, html_path=str(path))
        out.print(summary_table(reports))
        out.print(f"[bold]HTML report:[/] {escape(str(path.resolve()))}   [dim]{time.monotonic() - started:.1f} s[/]")
        statuses = {r.status for r in reports}
        raise typer.Exit(ExitCode.INTERNAL if "FAILED" in statuses else ExitCode.ABSTAIN if "ABSTAINED" in statuses else ExitCode.OK)
