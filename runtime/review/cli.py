"""`warrant review ...`: the review queue from the command line (a `warrant.commands` plug-in).

    warrant review add-reviewer dana --agent tool_caller     # asks for a password (scrypt-hashed)
    warrant review serve --ledger .warrant/demo/ledger       # http://127.0.0.1:8765/
    warrant review list --ledger .warrant/demo/ledger
    warrant review policy examples/invoice_audit/policy.yaml

Exit codes: 0 ok; 1 a policy or queue check found something wrong; 2 bad input or usage; 3 internal error.
"""

from __future__ import annotations

import importlib
import ipaddress
import os
import sys
from pathlib import Path
from typing import Any, List, Optional

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from warrant.runtime.review import DEFAULT_HOST, DEFAULT_PORT

out = Console()
err = Console(stderr=True)

DEFAULT_APP = "warrant.examples.invoice_audit.graph"
DEFAULT_REVIEWERS = os.environ.get("WARRANT_REVIEWERS", ".warrant/reviewers.json")
LedgerOpt = typer.Option(os.environ.get("WARRANT_LEDGER", ".warrant/ledger"), "--ledger", "-l",
                         help="LanceDB folder of the ledger and journal (env WARRANT_LEDGER).")
ReviewersOpt = typer.Option(DEFAULT_REVIEWERS, "--reviewers", help="Reviewer accounts file (env WARRANT_REVIEWERS).")


def _fail(msg: str, code: int = 2) -> None:
    err.print(f"[bold red]error:[/] {escape(msg)}")
    raise typer.Exit(code)


def _loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def register(app: typer.Typer) -> None:
    review = typer.Typer(help="Human review at the irreversibility edge: the queue, reviewers, policies, the review page.",
                         no_args_is_help=True)
    app.add_typer(review, name="review")

    @review.command("serve")
    def serve(
        ledger: str = LedgerOpt,
        reviewers: Path = ReviewersOpt,
        app_module: str = typer.Option(DEFAULT_APP, "--app", help="Module with registry() and policy() (and build_graph(), corpus() "
                                                                 "to send runs back to their planner)."),
        host: str = typer.Option(DEFAULT_HOST, "--host", help="Interface to listen on; anything but loopback is refused without --expose."),
        port: int = typer.Option(DEFAULT_PORT, "--port", min=1, max=65535),
        expose: bool = typer.Option(False, "--expose", help="Allow a non-loopback --host (put TLS in front of it, or use --ssl-*)."),
        allowed_host: Optional[List[str]] = typer.Option(None, "--allowed-host", help="A host name reviewers use to reach the page "
                                                                                       "(repeatable); other Host headers are refused."),
        ssl_keyfile: Optional[Path] = typer.Option(None, "--ssl-keyfile", help="TLS key: cookies are then Secure."),
        ssl_certfile: Optional[Path] = typer.Option(None, "--ssl-certfile", help="TLS certificate."),
        model: Optional[str] = typer.Option(None, "--model", "-m", help="NLI backend for runs sent back to their planner "
                                                                       "(default: the embedded model, loaded on first use)."),
        address: Optional[str] = typer.Option(None, "--address", help="Work through the runtime `warrant serve` runs for --ledger: "
                                                                     "join its Ray cluster (auto | HOST:PORT) with the cluster's Ray "
                                                                     "token instead of opening the ledger."),
    ) -> None:
        """Serve the review page for the runtime of one ledger.

        Without --address the server is the in-process runtime and the ledger's writer while it
        runs: it journals decisions, issues the grants and makes approved calls through the tool
        bus. With --address it runs beside `warrant serve`: it joins that Ray cluster and reads
        and appends through the runtime's actors (the LedgerActor writes; an approved call runs
        once on a ToolBusActor). Approved calls a crash left unmade are made at start.

        Example:
          warrant review serve --ledger .warrant/demo/ledger --port 8765
          warrant serve --ledger .warrant/ledger & warrant review serve --ledger .warrant/ledger --address auto
        """
        if not _loopback(host) and not expose:
            _fail(f"--host {host} is not a loopback address: pass --expose to listen there on purpose")
        if bool(ssl_keyfile) != bool(ssl_certfile):
            _fail("--ssl-keyfile and --ssl-certfile go together")
        import uvicorn

        from warrant.runtime.review.auth import AuthError, ReviewerBook
        from warrant.runtime.review.server import create_app

        try:
            book = ReviewerBook.load(reviewers)
        except AuthError as exc:
            _fail(str(exc))
        if not len(book):
            _fail(f"{reviewers} has no reviewers: warrant review add-reviewer NAME --reviewers {reviewers}")
        module = _module(app_module)
        rt = _attach(ledger, address, module) if address else _in_process(ledger, module, model)
        try:
            resumed = rt.queue.resume_approved()
            for st in resumed:
                out.print(f"resumed approved call {escape(st.item.item_id)}: {escape(st.status)}")
            web = create_app(rt.queue, book, rt.ledger, rerun=rt.rerun, allowed_hosts=sorted({host, "127.0.0.1", "localhost", *(allowed_host or [])}))
            scheme = "https" if ssl_certfile else "http"
            out.print(f"[bold]review page:[/] {scheme}://{escape(host)}:{port}/   "
                      f"({len(rt.queue.items(status='pending'))} call(s) waiting; through {escape(rt.where)}; Ctrl-C stops)")
            uvicorn.run(web, host=host, port=port, log_level="warning", ssl_keyfile=str(ssl_keyfile) if ssl_keyfile else None,
                        ssl_certfile=str(ssl_certfile) if ssl_certfile else None)
        finally:
            rt.close()

    @review.command("add-reviewer")
    def add_reviewer(
        name: str = typer.Argument(..., help="Reviewer name (letters, digits, _.@-); grants are issued as human:NAME."),
        agent: Optional[List[str]] = typer.Option(None, "--agent", "-a", help="An agent identity this person operates "
                                                                             "(repeatable): they may not approve its calls."),
        reviewers: Path = ReviewersOpt,
        password_stdin: bool = typer.Option(False, "--password-stdin", help="Read the password from the first line of stdin."),
    ) -> None:
        """Add (or replace) a reviewer account; the password is stored only as a scrypt hash (file mode 0600).

        Example: warrant review add-reviewer dana --agent tool_caller
        """
        from warrant.runtime.review.auth import AuthError, ReviewerBook

        password = sys.stdin.readline().rstrip("\n") if password_stdin else typer.prompt("password", hide_input=True,
                                                                                         confirmation_prompt=True)
        try:
            book = ReviewerBook.load(reviewers, missing_ok=True)
            book.add(name, password, list(agent or []))
        except AuthError as exc:
            _fail(str(exc))
        path = book.save()
        out.print(f"reviewer {escape(name)} saved in {escape(str(path))}")

    @review.command("list")
    def list_items(
        ledger: str = LedgerOpt,
        status: Optional[str] = typer.Option(None, "--status", help="pending | approved | executed | refused | failed | rejected | "
                                                                    "evidence_requested"),
    ) -> None:
        """List the queue: open items first (worst claim first), then decided ones.

        Example: warrant review list --ledger .warrant/demo/ledger --status pending
        """
        from warrant.ledger import Journal, LedgerError
        from warrant.runtime.review.queue import ReviewQueue

        allowed = ("pending", "approved", "executed", "refused", "failed", "rejected", "evidence_requested")
        if status is not None and status not in allowed:
            _fail(f"--status: expected one of {', '.join(allowed)}, got {status!r}")
        try:
            journal = Journal.open(ledger, writer=False)
        except LedgerError as exc:
            _fail(str(exc))
        states = ReviewQueue(journal).items(status=status)  # type: ignore[arg-type]
        table = Table("item", "status", "worst claim", "call", "run", "agent", "why", title=f"review queue {escape(ledger)}")
        for st in states:
            it = st.item
            args = ", ".join(f"{k}={v}" for k, v in sorted(it.args.items()))
            table.add_row(escape(it.item_id), escape(st.status), escape(it.worst), escape(f"{it.tool} {it.version}({args})"),
                          escape(it.run_id), escape(it.agent), escape(it.policy.reason if it.policy else it.message))
        out.print(table)

    @review.command("policy")
    def check_policy(file: Path = typer.Argument(..., help="A review policy (YAML).")) -> None:
        """Validate a review policy and print its rules. Exit code 2 names each bad field.

        Example: warrant review policy examples/invoice_audit/policy.yaml
        """
        from warrant.runtime.review.policy import PolicyError, ReviewPolicy

        try:
            pol = ReviewPolicy.load(file)
        except PolicyError as exc:
            for v in exc.violations:
                err.print(f"[bold red]{escape(v.code)}[/] at [bold]{escape(v.loc)}[/]: {escape(v.message)}"
                          + (f" (got {escape(repr(v.got))})" if v.got is not None else ""))
            raise typer.Exit(2)
        out.print(f"[green]ok[/] policy {escape(pol.name)} v{pol.version} sha256 {pol.sha256[:16]}…, {len(pol.rules)} rule(s)")
        for r in pol.doc.rules:
            bands = "; ".join(f"up to {b.up_to if b.up_to is not None else '∞'}: ±{b.tolerance}"
                              + (f" and ±{b.tolerance_pct}%" if b.tolerance_pct is not None else "") for b in r.bands)
            out.print(f"  {escape(pol.grant_name(r.name))}: {escape(r.tool)} {escape(r.version or 'any version')}, "
                      f"deviation {escape(r.deviation)}, bands {escape(bands)}")


def _module(target: str) -> Any:
    try:
        module = importlib.import_module(target)
    except Exception as exc:
        _fail(f"--app {target!r}: cannot import it: {type(exc).__name__}: {exc}")
    for need in ("registry", "policy"):
        if not callable(getattr(module, need, None)):
            _fail(f"--app {target!r}: the module has no {need}() (see {DEFAULT_APP})")
    return module


def _in_process(ledger: str, module: Any, model: str | None) -> Any:
    """The embedded runtime: this process opens the ledger as its writer."""
    from warrant.ledger import LedgerError
    from warrant.runtime.graph.runner import ControlPlane
    from warrant.runtime.review.policy import PolicyError
    from warrant.runtime.review.ports import ReviewRuntime

    try:
        plane = ControlPlane.open(ledger, module.registry(), policy=module.policy(), backend=None)
    except (LedgerError, PolicyError) as exc:
        _fail(str(exc))
    rerun = _rerunner(plane, module, ledger, model) if hasattr(module, "build_graph") else None
    return ReviewRuntime(queue=plane.review, ledger=plane.ledger, close=plane.close, rerun=rerun, where=f"the in-process runtime of {ledger}")


def _attach(ledger: str, address: str, module: Any) -> Any:
    """The runtime `warrant serve` runs: found through the `warrant.review_runtimes` entry point
    (actors/review.py), so this module never imports Ray."""
    from importlib.metadata import entry_points

    from warrant.runtime.review.policy import PolicyError
    from warrant.runtime.review.ports import ReviewRuntimeError

    found = {ep.name: ep for ep in entry_points(group="warrant.review_runtimes")}
    if "ray" not in found:
        _fail("--address needs the Ray runtime (actors/), which is not installed here: pip install -e . in the repository")
    try:
        return found["ray"].load()(ledger, address=address, policy=module.policy())
    except (ReviewRuntimeError, PolicyError) as exc:
        _fail(str(exc))


def _rerunner(plane: Any, module: Any, ledger: str, model: str | None) -> Any:
    """A run sent back for evidence goes through its graph again, its planner starting from the
    reviewer's request (GraphRunner reads it from the queue). The NLI model loads on first use."""
    from warrant.runtime.graph import GraphRunner
    from warrant.runtime.verify.verifier import Verifier

    state: dict[str, Any] = {}

    def rerun(run_id: str) -> Any:
        if "verifier" not in state:
            from warrant.runtime.verify.backends import load_backend

            state["verifier"] = Verifier(plane.ledger, None if model == "none" else load_backend(model), journal=plane.journal)
            plane.verifier = state["verifier"]
        asks = plane.review.evidence_requests(run_id)
        task = asks[-1][0].task if asks else {}
        corpus = module.corpus() if callable(getattr(module, "corpus", None)) else None
        runner = GraphRunner(plane, corpus=corpus, max_rounds=getattr(module, "MAX_ROUNDS", 3), report_dir=Path(ledger).parent / "runs")
        return runner.run(module.build_graph(), task, run_id=run_id)

    return rerun


__all__ = ["register"]
