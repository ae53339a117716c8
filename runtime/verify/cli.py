"""`warrant verify`: gate then verify one artifact file against a ledger, print and save verdicts."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from warrant.ledger import Journal, Ledger, LedgerError, LedgerIntegrityError, LedgerUnreadable
from warrant.runtime.exits import ExitCode, fail

_STYLE = {"supported": "green", "contradicted": "bold red", "unsupported": "yellow", "unverifiable": "magenta"}


def register(app: typer.Typer) -> None:
    app.command("verify")(verify)


def verify(
    artifact: Path = typer.Argument(..., help="The hand-off artifact (JSON) to check.", exists=True, dir_okay=False),
    ledger: str = typer.Option(os.environ.get("WARRANT_LEDGER", ".warrant/ledger"), "--ledger", "-l", help="LanceDB directory or URI of the run's ledger."),
    model: Optional[str] = typer.Option(None, "--model", "-m", help="NLI model: a folder (ONNX or Hugging Face), onnx:DIR, torch:DIR, vllm:NAME. Default: the embedded int8 model."),
    device: str = typer.Option("cpu", help="cpu or cuda (torch and vLLM backends)."),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help="Where to write the verdicts as JSON (default: ARTIFACT.verdict.json)."),
    journal: bool = typer.Option(False, "--journal/--no-journal", help="Record the gate decision and verdicts in the run's journal (needs to be the ledger's writer)."),
    registry: Optional[str] = typer.Option(None, "--registry", "-r", envvar="WARRANT_TOOLS", show_envvar=False,
                                           help="Tool registry folder for checking action intents (env WARRANT_TOOLS); without one, any action intent is rejected."),
) -> None:
    """Gate, then verify every claim of ARTIFACT against the exact bytes it cites.

    Prints one row per proposition (status, checker, confidence, the evidence span that decided
    it, or what evidence is missing) and writes the verdicts as JSON. Exit code 0 only if the
    artifact passed the gate and every Assertion and Quote is supported; 1 if the gate rejects it
    or the verifier abstains; 2 for bad input (not strict JSON, unknown ledger, missing model);
    3 for an internal error.

    Example: warrant verify analyst.json --ledger .warrant/ledger
    """
    from warrant.runtime.gate import Gate
    from warrant.runtime.registry import RegistryError, ToolRegistry
    from warrant.runtime.verify.backends import ModelMissingError, load_backend
    from warrant.runtime.verify.verifier import Verifier

    from warrant.runtime import strict_json

    console, err = Console(), Console(stderr=True)
    try:
        doc = strict_json.loads(artifact.read_bytes())
    except strict_json.StrictJSONError as exc:
        fail(f"{artifact}: {exc}")
    try:
        led = Ledger.open(ledger, writer=journal)
        jr = Journal.open(ledger, writer=True) if journal else None
        tools = ToolRegistry.load(registry) if registry else None  # the gate then rejects action intents (no_tool_registry)
    except (LedgerIntegrityError, LedgerUnreadable) as exc:  # the ledger is broken, not the command
        fail(f"{exc} (see `warrant ledger verify`)", ExitCode.ABSTAIN)
    except (LedgerError, RegistryError) as exc:
        fail(str(exc))
    decision = Gate(led, tools=tools, journal=jr).check(doc)
    out = out or artifact.with_suffix(".verdict.json")
    if not decision.passed:
        # Locations and messages quote the artifact: untrusted text, never Rich markup.
        t = Table("code", "where", "message", title=f"[bold red]gate rejected[/] {escape(artifact.name)}")
        for v in decision.violations:
            t.add_row(v.code, escape(v.loc), escape(v.message))
        out.write_text(json.dumps({"gate": decision.model_dump(mode="json")}, indent=2))  # saved before anything is shown
        console.print(t)
        console.print(f"gate decision written to {escape(str(out))}")
        raise typer.Exit(ExitCode.ABSTAIN)
    try:
        backend = load_backend(model, device=device)
    except ModelMissingError as exc:
        fail(str(exc))
    verifier = Verifier(led, backend, journal=jr)
    with Progress(TextColumn("verifying"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=err, transient=True) as bar:
        task = bar.add_task("", total=None)
        verdict = verifier.verify(doc, progress=lambda done, total: bar.update(task, completed=done, total=total))
    t = Table(title=f"{escape(artifact.name)}: [bold]{verdict.status}[/] ({escape(backend.name)})")
    for col in ("claim", "prop", "status", "checker", "conf", "evidence / missing"):
        t.add_column(col, overflow="fold")
    for c in verdict.claims:
        for p in c.propositions:
            if p.evidence:
                detail = f"{p.evidence.ledger_id}[{p.evidence.start}:{p.evidence.end}] {p.evidence.text[:120]!r}"
            elif p.missing_evidence:
                detail = f"needs {p.missing_evidence.needed}" + "".join(f"\n  try {s.ledger_id}" for s in p.missing_evidence.suggestions)
            else:
                detail = p.reason
            st = _STYLE.get(p.status, "")
            t.add_row(c.claim_id, p.proposition_id, f"[{st}]{p.status}[/]", p.checker, f"{p.confidence:.2f}", escape(detail))
    out.write_text(json.dumps({"gate": decision.model_dump(mode="json"), "verdict": verdict.model_dump(mode="json")}, indent=2))
    console.print(t)
    console.print(f"verdicts written to {escape(str(out))}")
    raise typer.Exit(ExitCode.OK if verdict.passed else ExitCode.ABSTAIN)
