"""`warrant demo`, registered through the `warrant.commands` entry point (pyproject.toml), so that
runtime/ never imports the examples: a `warrant` without them still runs every other command."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from warrant.runtime.exits import ExitCode, fail


def register(app: typer.Typer) -> None:
    @app.command("demo")
    def demo(
        out_dir: Path = typer.Option(Path(".warrant/demo"), "--dir", help="Folder for the ledger, run reports and the HTML report."),
        model: Optional[str] = typer.Option(None, "--model", "-m", help="NLI backend spec; default: the embedded CPU model; 'none' for no model."),
    ) -> None:
        """Run the bundled invoice audit: three invoices, every failure mode, stopped where it belongs.

        Exit code 0: every invoice completed, abstained or waits for review (the demo's expected
        outcomes); 2: bad input (an unreadable ledger folder, a missing model); 3: a run failed.

        Example: warrant demo --dir /tmp/warrant-demo
        """
        from warrant.examples.invoice_audit.demo import run_demo
        from warrant.ledger import LedgerError
        from warrant.runtime.verify.backends import ModelMissingError

        try:
            reports = run_demo(out_dir, model=model)
        except ModelMissingError as exc:
            fail(f"{exc} (or pass --model none to run without entailment: free statements then stay unsupported)")
        except LedgerError as exc:
            fail(str(exc))
        raise typer.Exit(ExitCode.INTERNAL if any(r.status == "FAILED" for r in reports) else ExitCode.OK)
