"""`warrant`: the command line. Every subcommand's help says what it does and gives an example."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from warrant.ledger import EvidenceKind, Ledger, LedgerError, LedgerIntegrityError, LedgerUnreadable
from warrant.runtime.contract import json_schema
from warrant.runtime.exits import ExitCode, fail, run_cli

app = typer.Typer(
    help="Warrant: a verification runtime for multi-agent LLM systems.\n\n"
    "Evidence goes into an append-only ledger; every hand-off between agents passes a schema gate; "
    "every tool call passes a typed tool bus.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
ledger_app = typer.Typer(help="The append-only evidence ledger: add, show, verify, export.", no_args_is_help=True)
tools_app = typer.Typer(help="The tool registry agents may call through the tool bus.", no_args_is_help=True)
app.add_typer(ledger_app, name="ledger")
app.add_typer(tools_app, name="tools")

out = Console()
err = Console(stderr=True)

DEFAULT_LEDGER = os.environ.get("WARRANT_LEDGER", ".warrant/ledger")
LedgerOpt = typer.Option(DEFAULT_LEDGER, "--ledger", "-l", help="LanceDB directory or URI of the ledger (env WARRANT_LEDGER).")


def _open_ledger(uri: str, writer: bool) -> Ledger:
    try:
        return Ledger.open(uri, writer=writer)
    except (LedgerIntegrityError, LedgerUnreadable) as exc:
        fail(f"{exc} (see `warrant ledger verify`)", ExitCode.ABSTAIN)  # the ledger is broken, not the command
    except LedgerError as exc:
        fail(str(exc))


@app.command()
def schema() -> None:
    """Print the JSON Schema (Draft 2020-12) of the hand-off artifact.

    Example: warrant schema > artifact.schema.json
    """
    out.print_json(json.dumps(json_schema()))


@ledger_app.command("add")
def ledger_add(
    run_id: str = typer.Argument(..., help="The run this evidence belongs to."),
    file: Path = typer.Argument(..., help="File whose exact bytes to store ('-' for stdin).", allow_dash=True),
    kind: EvidenceKind = typer.Option(EvidenceKind.SPAN, help="span | tool_output | human_fact."),
    document: Optional[str] = typer.Option(None, help="Source document name (default: the file name)."),
    page: Optional[int] = typer.Option(None, help="Page of the source document."),
    human: Optional[str] = typer.Option(None, help="Who stated it (for human_fact)."),
    ledger: str = LedgerOpt,
) -> None:
    """Append a file's exact bytes; prints the record id. Same bytes, same run: same id, nothing new written.

    Example: warrant ledger add run_1 engagement_letter.txt --page 2
    """
    data = sys.stdin.buffer.read() if str(file) == "-" else _read(file)
    source = {"document": document or (None if str(file) == "-" else file.name), "page": page, "human": human}
    led = _open_ledger(ledger, writer=True)
    try:
        rid = led.append(run_id, data, kind=kind, source={k: v for k, v in source.items() if v is not None})
    except LedgerError as exc:
        fail(str(exc))
    out.print(rid)


def _read(file: Path) -> bytes:
    try:
        return file.read_bytes()
    except OSError as exc:
        fail(f"cannot read {file}: {exc.strerror}")
        raise


@ledger_app.command("show")
def ledger_show(
    run_id: Optional[str] = typer.Argument(None, help="Only this run."),
    record: Optional[str] = typer.Option(None, "--id", help="Print one record's exact bytes to stdout."),
    ledger: str = LedgerOpt,
) -> None:
    """List records (seq, id, kind, size, source), or print one record's bytes with --id.

    Example: warrant ledger show run_1 --id led_2cf24dba5fb0a30e26e83b2ac5b9e29e
    """
    led = _open_ledger(ledger, writer=False)
    if record:
        if not run_id:
            fail("--id needs the run id too: warrant ledger show RUN_ID --id LED_ID")
        try:
            sys.stdout.buffer.write(led.get(run_id, record).data)
        except LedgerError as exc:
            fail(str(exc), ExitCode.ABSTAIN)
        return
    t = led.spans(run_id)
    # Run ids and sources come from whoever appended the evidence: shown as text, never as markup.
    table = Table("seq", "run", "id", "kind", "bytes", "source", title=f"ledger {escape(ledger)}")
    for r in t.select(["seq", "run_id", "id", "kind", "size", "source"]).to_pylist():
        table.add_row(str(r["seq"]), escape(r["run_id"]), r["id"], escape(r["kind"]), str(r["size"]), escape(r["source"]))
    out.print(table)


@ledger_app.command("verify")
def ledger_verify(
    ledger: str = LedgerOpt,
    checkpoint_mirror: Optional[str] = typer.Option(
        None, "--checkpoint-mirror", help="Folder or URI holding a second checkpoint copy (env WARRANT_CHECKPOINT_MIRROR)."
    ),
) -> None:
    """Audit the stored ledger: every table's hash chain, its Lance version history and its
    head checkpoint; name what is edited, missing or unreadable (table, version, file, entry).

    Exit code 0: intact. 1: integrity broken (an edit, a rollback, a missing table, version or
    file, a damaged file). 2: the path is not a ledger. 3: internal error.

    Example: warrant ledger verify --ledger .warrant/ledger --checkpoint-mirror /mnt/audit/warrant
    """
    from warrant.ledger.audit import NotALedger, verify_store_isolated

    try:
        # In a child process: some damaged files make Lance abort the process reading them.
        report = verify_store_isolated(ledger, checkpoint_mirror)
    except NotALedger as exc:
        fail(str(exc), ExitCode.BAD_INPUT)
        raise
    except Exception as exc:  # noqa: BLE001 - a bug here must not read as "integrity broken"
        fail(f"internal error while verifying {ledger}: {type(exc).__name__}: {exc}", ExitCode.INTERNAL)
        raise
    for b in report.breaks:
        out.print(f"[bold red]BROKEN[/] ledger: {escape(b.reason)}", soft_wrap=True)
    for rep in report.tables:
        if rep.ok:
            out.print(f"[green]ok[/] {escape(rep.table)}: {rep.entries} entries, head {rep.head_hash}, Lance version {rep.version}", soft_wrap=True)
            continue
        for b in rep.breaks:
            at = [f"version {b.version}" if b.version is not None else "", f"file {b.file}" if b.file else ""]
            at_s = ", ".join(a for a in at if a)
            entry = f"first bad entry seq={b.seq} id={b.entry_id}: " if b.seq >= 0 else ""
            # soft_wrap: a path or hash broken across lines is useless to grep and to a reader
            out.print(f"[bold red]BROKEN[/] {escape(rep.table)}{escape(f' ({at_s})' if at_s else '')}: {escape(entry + b.reason)}", soft_wrap=True)
    for note in report.notes + [n for rep in report.tables for n in rep.notes]:
        out.print(f"[dim]note: {escape(note)}[/]", soft_wrap=True)
    raise typer.Exit(ExitCode.OK if report.ok else ExitCode.ABSTAIN)


@ledger_app.command("export")
def ledger_export(
    dest: Path = typer.Argument(..., help="Output file: .parquet, .arrow or .jsonl (bytes base64-encoded)."),
    run_id: Optional[str] = typer.Option(None, "--run", help="Only this run."),
    ledger: str = LedgerOpt,
) -> None:
    """Export records with their exact bytes, for an auditor or another system.

    Example: warrant ledger export audit.parquet --run run_1
    """
    import base64

    import pyarrow.feather as feather
    import pyarrow.parquet as pq

    t = _open_ledger(ledger, writer=False).spans(run_id)
    suffix = dest.suffix.lower()
    if suffix == ".parquet":
        pq.write_table(t, dest)
    elif suffix in (".arrow", ".feather"):
        feather.write_feather(t, dest)
    elif suffix == ".jsonl":
        with dest.open("w") as f:
            for r in t.to_pylist():
                r["data"] = base64.b64encode(r["data"]).decode()
                f.write(json.dumps(r) + "\n")
    else:
        fail(f"unknown export format {suffix!r}: use .parquet, .arrow or .jsonl")
    out.print(f"wrote {t.num_rows} records to {escape(str(dest))}")


# No default folder: the only registry in the distribution is the example's, and runtime/ never
# reaches into examples/ (it may not be installed, and a wrong default registry is worse than none).
ToolsOpt = typer.Option(None, "--registry", "-r", envvar="WARRANT_TOOLS", show_envvar=False,
                        help="Folder of tool spec files (env WARRANT_TOOLS).")


@tools_app.command("list")
def tools_list(registry: Optional[str] = ToolsOpt, schemas: bool = typer.Option(False, "--schemas", help="Also print each input/output schema.")) -> None:
    """List registered tools: name, version, irreversible or not, timeout, entry point.

    Example: warrant tools list --registry examples/invoice_audit/tools
    """
    from warrant.runtime.registry import RegistryError, ToolRegistry

    if not registry:
        fail("no tool registry: pass --registry DIR (a folder of <tool>/<version>.json specs) or set WARRANT_TOOLS, "
             "e.g. warrant tools list --registry examples/invoice_audit/tools")
    try:
        reg = ToolRegistry.load(registry)
    except RegistryError as exc:
        fail(str(exc))
        raise
    table = Table(title=f"registry {reg.hash[:16]} ({escape(registry)})")
    table.add_column("tool", no_wrap=True)
    table.add_column("ver")
    table.add_column("irreversible")
    table.add_column("timeout")
    table.add_column("description")
    for spec in reg.specs():
        first = spec.description.split(". ")[0].rstrip(".")
        table.add_row(spec.name, spec.version, "[bold red]yes[/]" if spec.irreversible else "no", f"{spec.timeout_s:g} s", escape(first))
    out.print(table)
    if schemas:
        for spec in reg.specs():
            out.print(f"[bold]{spec.name} {spec.version}[/] ({escape(str(spec.entrypoint))}) input / output")
            out.print_json(json.dumps({"input": spec.input_schema, "output": spec.output_schema}))


def _load_plugins() -> None:
    """Commands that live outside runtime/ (e.g. `serve` and `batch-verify` in actors/, which
    imports Ray) register through the `warrant.commands` entry-point group, so this module never
    imports them. Each entry point names a function `register(app)`."""
    from importlib.metadata import entry_points

    for ep in entry_points(group="warrant.commands"):
        try:
            register = ep.load()
        except ModuleNotFoundError as exc:
            if os.environ.get("WARRANT_DEBUG"):
                err.print(f"[yellow]plugin {escape(ep.name)} not loaded:[/] {escape(str(exc))}")
            continue
        register(app)


_load_plugins()


def main() -> None:
    """The `warrant` console script: exit codes as in runtime/exits.py."""
    run_cli(app)


if __name__ == "__main__":
    main()
