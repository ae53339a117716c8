"""`warrant eval`: score a graph on a frozen gold set and gate the release; validate and freeze gold sets.

Registered through the `warrant.commands` entry points. Exit codes: 0 pass, 1 the gate failed (or
`validate` found a disagreement), 2 bad input (gold set, graph spec, baseline, model, options),
3 an internal error.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Optional

import typer
from rich.console import Console
from rich.markup import escape
from typer.core import TyperGroup

out = Console()
err = Console(stderr=True)

EXAMPLE_GOLD = "evals/invoice_audit/gold"
EXAMPLE_GRAPH = "warrant.evals.invoice_audit.graphs:honest"


class _DefaultRun(TyperGroup):
    """`warrant eval GOLD_DIR ...` means `warrant eval run GOLD_DIR ...`."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and args[0] not in ("--help", "-h"):
            args = ["run", *args]
        return super().parse_args(ctx, args)


def _fail(msg: str, code: int = 2) -> None:
    err.print(f"[bold red]error:[/] {escape(msg)}")
    raise typer.Exit(code)


def _guard(fn):
    """An unexpected exception is an internal error (exit 3), never a pass or a verdict."""
    import functools

    @functools.wraps(fn)
    def wrapped(*a: Any, **kw: Any) -> Any:
        try:
            return fn(*a, **kw)
        except (typer.Exit, typer.Abort, SystemExit):
            raise
        except Exception as exc:  # noqa: BLE001
            err.print(f"[bold red]internal error:[/] {escape(type(exc).__name__)}: {escape(str(exc))}")
            raise typer.Exit(3) from None

    return wrapped


def _load_gold(gold_dir: Path, frozen: bool = True):
    from warrant.runtime.evals.goldset import GoldError, load_gold

    try:
        return load_gold(gold_dir, frozen=frozen)
    except GoldError as exc:
        err.print(f"[bold red]error:[/] gold set {escape(str(gold_dir))}: {len(exc.problems)} problem(s)")
        for p in exc.problems[:50]:
            err.print(f"  {escape(p.file)}: {escape(p.loc)}: {escape(p.message)}")
        raise typer.Exit(2) from None


def _factory(spec: str) -> Any:
    from warrant.runtime.evals.targets import TargetError, import_spec

    try:
        _, fn = import_spec(spec, "MODULE:FUNCTION of a factory (ledger, backend, journal) -> verifier")
    except TargetError as exc:
        _fail(f"--verifier: {exc}")
    if not callable(fn):
        _fail(f"--verifier {spec!r} is not callable")
    return fn


def register(app: typer.Typer) -> None:
    eval_app = typer.Typer(
        cls=_DefaultRun, no_args_is_help=True,
        help="Score an agent graph on a frozen gold set and gate the release.\n\n"
             f"Example: warrant eval {EXAMPLE_GOLD} --graph {EXAMPLE_GRAPH} --baseline evals/invoice_audit/baselines/gold.json\n\n"
             "Exit codes: 0 pass, 1 gate failed, 2 bad input, 3 internal error.",
    )
    app.add_typer(eval_app, name="eval")

    @eval_app.command("run")
    @_guard
    def run(
        gold_dir: Path = typer.Argument(..., help="The gold set folder (frozen: it has a MANIFEST.json)."),
        graph: str = typer.Option(..., "--graph", "-g", help="MODULE:FUNCTION returning a runtime.graph.Graph or an eval target."),
        baseline: Optional[Path] = typer.Option(None, "--baseline", "-b", help="results.json of an earlier run on the same gold set."),
        max_drop: float = typer.Option(2.0, "--max-faithfulness-drop", min=0.0, help="Points faithfulness may drop against the baseline."),
        out_dir: Optional[Path] = typer.Option(None, "--out", "-o", help="Folder for results.json, report.html and the runs' ledgers "
                                               "(default .warrant/eval/GOLD_NAME)."),
        model: Optional[str] = typer.Option(None, "--model", "-m", help="NLI backend spec (see `warrant verify --help`); 'none' for no model."),
        verifier: Optional[str] = typer.Option(None, "--verifier", help="MODULE:FUNCTION, a factory (ledger, backend, journal) -> "
                                               "verifier, to evaluate another verifier configuration."),
        calibration: Optional[Path] = typer.Option(
            Path(os.environ["WARRANT_CONFIDENCE_MAP"]) if os.environ.get("WARRANT_CONFIDENCE_MAP") else None, "--calibration",
            help="A fitted confidence map (JSON) applied to every verdict's confidence (env WARRANT_CONFIDENCE_MAP)."),
        seed: int = typer.Option(20261130, "--seed", help="Seed of the bootstrap intervals."),
        resamples: int = typer.Option(2000, "--resamples", min=100, help="Bootstrap resamples."),
    ) -> None:
        """Run GRAPH on every task of GOLD_DIR, score it, print the table, write results.json and report.html.

        Fails (exit 1) when faithfulness drops by more than --max-faithfulness-drop points against the
        baseline, when side-effect hygiene is not perfect, or when the gold set's hash differs from the baseline's.

        Example: warrant eval evals/invoice_audit/gold --graph warrant.evals.invoice_audit.graphs:honest --baseline evals/invoice_audit/baselines/gold.json
        """
        from warrant.runtime.evals.calibration import CalibratedVerifier, ConfidenceMap
        from warrant.runtime.evals.evaluate import evaluate
        from warrant.runtime.evals.harness import Setup, default_verifier
        from warrant.runtime.evals.release import gate
        from warrant.runtime.evals.render import render, write_html
        from warrant.runtime.evals.results import ResultsError, load_result
        from warrant.runtime.evals.targets import TargetError, resolve

        gold = _load_gold(gold_dir)
        try:
            target, module = resolve(graph)
        except TargetError as exc:
            _fail(f"--graph: {exc}")
        base = None
        out_dir = out_dir or Path(".warrant") / "eval" / gold.name
        results_path = out_dir / "results.json"
        if baseline is not None:
            try:
                base = load_result(baseline)
            except ResultsError as exc:
                _fail(f"--baseline: {exc}")
            if baseline.resolve() == results_path.resolve():
                _fail(f"--baseline {baseline} is where this run writes its results; pass another --out")
        cmap = None
        if calibration is not None:
            try:
                cmap = ConfidenceMap.load(calibration)
            except (OSError, ValueError) as exc:
                _fail(f"--calibration {calibration}: {exc}")
        setup = Setup(
            backend=_backend(model), verifier=_factory(verifier) if verifier else default_verifier,
            policy=module.policy() if callable(getattr(module, "policy", None)) else None,
            wrap_verifier=(lambda v: CalibratedVerifier(v, cmap)) if cmap else None,
        )

        def progress(tr: Any) -> None:
            err.print(f"[dim]{escape(gold.name)}[/] {escape(tr.task.id):<22} {escape(tr.report.status)}"
                      f" [dim]({tr.report.rounds} round(s), {len(tr.emitted.claims)} claim(s))[/]")

        result = evaluate(gold, target, setup, out_dir, graph=graph, setup_name=verifier or "full", seed=seed, resamples=resamples,
                          on_run=progress)
        result.gate = gate(result, base, max_faithfulness_drop=max_drop, baseline_path=str(baseline) if baseline else None)
        result.save(results_path)
        html = write_html(result, out_dir / "report.html")
        render(result, out, html_path=str(html))
        out.print(f"[bold]results:[/] {escape(str(results_path))}")
        raise typer.Exit(result.gate.exit_code)

    @eval_app.command("validate")
    @_guard
    def validate_cmd(gold_dir: Path = typer.Argument(..., help="The gold set folder.")) -> None:
        """Check a gold set: schemas, its manifest, and every figure re-derived from its records.

        Exit code 0: consistent; 1: a figure, quote or abstention disagrees with the records; 2: it does not load.

        Example: warrant eval validate evals/invoice_audit/gold
        """
        from warrant.runtime.evals.validate import validate

        rep = validate(_load_gold(gold_dir))
        counts = ", ".join(f"{rep.count(w)} {w}" for w in ("derived", "stated", "source", "quote", "figures", "absent", "because", "schema"))
        for c in rep.failures:
            out.print(f"[bold red]DISAGREES[/] {escape(str(c))}")
        status = "[bold green]ok[/]" if rep.ok else f"[bold red]{len(rep.failures)} disagreement(s)[/]"
        out.print(f"{status} {escape(rep.gold)} {rep.hash[:16]}: {len(rep.checks)} checks ({counts})")
        raise typer.Exit(0 if rep.ok else 1)

    @eval_app.command("freeze")
    @_guard
    def freeze(gold_dir: Path = typer.Argument(..., help="The gold set folder.")) -> None:
        """Validate a gold set, then write its MANIFEST.json (sha256 of every file) and print its new hash.

        A re-frozen gold set has a new hash: results scored on the old one no longer pass as its baseline.

        Example: warrant eval freeze evals/invoice_audit/gold
        """
        from warrant.runtime.evals.goldset import write_manifest
        from warrant.runtime.evals.validate import validate

        rep = validate(_load_gold(gold_dir, frozen=False))
        if not rep.ok:
            for c in rep.failures:
                err.print(f"[bold red]DISAGREES[/] {escape(str(c))}")
            _fail(f"not frozen: {len(rep.failures)} disagreement(s) (see `warrant eval validate`)", 1)
        out.print(write_manifest(gold_dir))


def _backend(model: Optional[str]) -> Any:
    if model == "none":
        return None
    from warrant.runtime.verify.backends import ModelMissingError, load_backend

    try:
        return load_backend(model)
    except ModelMissingError as exc:
        _fail(f"{exc} (or pass --model none: free statements then stay unsupported)")


__all__ = ["register"]
