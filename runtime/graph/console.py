"""The terminal view of a run: live progress while it runs, then a readable report.

Per hand-off: what passed and what was stopped, where and why (the structured errors); the
verdicts with their exact evidence spans; the tool calls the bus refused; the actions taken and
the grants they ran under; what waits for review (only the unsupported claims); where the audit
trail is.
"""

from __future__ import annotations

from typing import Iterable

from rich.console import Console, Group
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from warrant.runtime.graph.report import Handoff, RunReport
from warrant.runtime.graph.runner import RunEvent
from warrant.runtime.verify.verdict import PropositionVerdict

_STATUS_STYLE = {"COMPLETED": "bold green", "AWAITING_REVIEW": "bold yellow", "ABSTAINED": "bold magenta", "FAILED": "bold red",
                 "RUNNING": "bold"}
_OUTCOME = {"passed": "[green]passed[/]", "stopped": "[red]stopped[/]", "abstained": "[magenta]abstained[/]"}


class Progress:
    """An `on_event` callback printing one line per decision, as it happens."""

    def __init__(self, console: Console, label: str = ""):
        self.console = console
        self.label = label

    def __call__(self, e: RunEvent) -> None:
        tag = f"[dim]{escape(self.label or e.run_id)}[/]"
        if e.kind == "run_started":
            self.console.print(f"{tag} [bold]start[/] {escape(e.text)}")
        elif e.kind == "round_started":
            self.console.print(f"{tag}   [cyan]{escape(e.text)}[/]")
        elif e.kind == "handoff":
            self.console.print(f"{tag}     {escape(e.node):<12} {_OUTCOME.get(e.status, e.status)} {escape(e.text)}")
        elif e.kind == "tool_call" and e.status != "ok":
            self.console.print(f"{tag}     {escape(e.node):<12} [red]tool bus {e.status}[/] {escape(e.text)}")
        elif e.kind == "action":
            style = "green" if e.status == "executed" else "yellow"
            self.console.print(f"{tag}     {escape(e.node):<12} [{style}]action {e.status}[/] {escape(e.text)}")
        elif e.kind == "run_finished":
            self.console.print(f"{tag} [{_STATUS_STYLE.get(e.status, 'bold')}]{e.status}[/] {escape(e.text)}")


def _span(p: PropositionVerdict, width: int = 110) -> str:
    if p.evidence is None:
        return ""
    text = " ".join(p.evidence.text.split())
    if len(text) > width:
        text = text[: width - 1] + "…"
    return f"{p.evidence.ledger_id}[{p.evidence.start}:{p.evidence.end}] “{text}”"


def _why(h: Handoff) -> str:
    if h.violations:
        return "; ".join(f"{v.code} at {v.loc}" for v in h.violations)
    if h.open_questions:
        return "open questions: " + "; ".join(h.open_questions)
    return "; ".join(f"{p.proposition_id}: {p.status} ({p.checker})" for p in h.unsupported)


def render(report: RunReport, console: Console, *, html_path: str | None = None) -> None:
    parts: list = []
    t = Table(title="hand-offs (every edge: gate, then verifier)", title_justify="left", expand=True)
    for col in ("rnd", "from", "to", "outcome", "stopped by", "why"):
        t.add_column(col, overflow="fold")
    for h in report.handoffs:
        t.add_row(str(h.round), escape(h.node), escape(",".join(h.to)) or "(tools)", _OUTCOME[h.outcome], h.stage or "", escape(_why(h)))
    parts.append(t)

    stops = [h for h in report.handoffs if h.outcome != "passed"]
    if stops:
        s = Table(title="what was stopped, exactly", title_justify="left", expand=True, show_lines=False)
        for col in ("rnd", "agent", "part", "code", "where", "detail"):
            s.add_column(col, overflow="fold")
        for h in stops:
            for v in h.violations:
                s.add_row(str(h.round), escape(h.node), h.stage or "", v.code, escape(v.loc), escape(_detail(v.message, v.expected, v.got)))
            for d in h.diagnosis:
                s.add_row(str(h.round), escape(h.node), "runner", "diagnosis", "", escape(d))
            for p in h.unsupported:
                need = f" needs: {p.missing_evidence.needed}" if p.missing_evidence else ""
                sug = f" try: {', '.join(x.ledger_id for x in p.missing_evidence.suggestions)}" if p.missing_evidence and p.missing_evidence.suggestions else ""
                ev = f" evidence: {_span(p, 80)}" if p.evidence else ""
                s.add_row(str(h.round), escape(h.node), "verifier", f"{p.status}:{p.checker}", escape(p.proposition_id), escape(f"{p.reason}{ev}{need}{sug}"))
            for q in h.open_questions:
                s.add_row(str(h.round), escape(h.node), "agent", "abstained", "", escape(q))
        parts.append(s)

    # Refusals of a passed artifact's irreversible intents are shown with the actions below.
    bad_calls = [c for c in report.tool_calls if c.status != "ok" and not (c.via == "runner" and c.status == "refused")]
    if bad_calls:
        b = Table(title="tool calls the bus did not run as asked", title_justify="left", expand=True)
        for col in ("rnd", "agent", "by", "tool", "outcome", "code", "detail"):
            b.add_column(col, overflow="fold")
        for c in bad_calls:
            detail = "; ".join(f"{v.loc}: expected {v.expected!r}, got {v.got!r}" for v in c.violations) or c.message
            by = "agent, directly" if c.via == "agent" else "runner, for an intent"
            b.add_row(str(c.round), escape(c.node), by, escape(c.tool or "?"), c.status, escape(c.code or ""), escape(detail))
        parts.append(b)

    supported = _final_verdicts(report)
    if supported:
        v = Table(title="verdicts of the last passing hand-offs, with their evidence bytes", title_justify="left", expand=True)
        for col in ("claim/prop", "status", "checker", "evidence span"):
            v.add_column(col, overflow="fold")
        for p in supported:
            v.add_row(escape(f"{p.claim_id}/{p.proposition_id}"), p.status, p.checker, escape(_span(p)))
        parts.append(v)

    if report.actions:
        a = Table(title="irreversible actions", title_justify="left", expand=True)
        for col in ("tool", "args", "outcome", "grant", "detail"):
            a.add_column(col, overflow="fold")
        for act in report.actions:
            args = ", ".join(f"{k}={val}" for k, val in act.args.items() if k != "body")
            grant = f"{act.grant_issuer} {act.grant_id}" if act.grant_id else ""
            style = "green" if act.status == "executed" else "yellow" if act.status == "queued_for_review" else "red"
            out = f"output {act.output} in {act.ledger_id}" if act.status == "executed" else act.message
            a.add_row(escape(act.tool), escape(args), f"[{style}]{act.status}[/]", escape(grant), escape(out))
        parts.append(a)

    for item in report.review_queue:
        lines = [f"planned call: {item.tool} {item.version} {item.args if item.tool != 'send_email' else {k: v for k, v in item.args.items() if k != 'body'}}",
                 f"why it waits: {item.reason}: {item.message}", f"claim set {item.claim_set_hash}"]
        if item.unsupported:
            lines.append("unsupported claims (only these):")
            lines += [f"  {p.claim_id}/{p.proposition_id}: {p.status} ({p.checker}) {p.hypothesis or ''} — {p.reason}" for p in item.unsupported]
        else:
            lines.append("every claim it depends on is supported; it needs a human decision")
        parts.append(Panel(escape("\n".join(lines)), title="[yellow]queued for review", title_align="left"))

    if report.open_questions:
        parts.append(Panel(escape("\n".join(report.open_questions)), title="[magenta]open questions (what evidence is missing)", title_align="left"))

    trail = [f"ledger + journal: {report.ledger_uri}  (run {report.run_id})"]
    trail += [f"{c.table}: {c.entries} entries, chain {'ok' if c.ok else 'BROKEN: ' + (c.first_bad or '')}, head {c.head[:16]}" for c in report.chains]
    if report.report_path:
        trail.append(f"run report (JSON): {report.report_path}")
    if html_path:
        trail.append(f"HTML report: {html_path}")
    trail.append(f"check it: warrant ledger verify --ledger {report.ledger_uri}")
    parts.append(Text("\n".join(trail), style="dim"))

    title = (f"[{_STATUS_STYLE.get(report.status, 'bold')}]{report.status}[/] {escape(str(report.task))} "
             f"[dim]{report.run_id}, {report.rounds}/{report.max_rounds} round(s), verifier {report.verifier_backend}[/]")
    console.print(Panel(Group(Text(report.reason), *parts), title=title, title_align="left"))


def _detail(message: str, expected, got) -> str:
    out = message
    if expected is not None:
        out += f" (expected {expected!r}"
        out += f", got {got!r})" if got is not None else ")"
    elif got is not None:
        out += f" (got {got!r})"
    return out


def _final_verdicts(report: RunReport) -> list[PropositionVerdict]:
    """Distinct propositions from the last passing hand-off of each agent (repeats dropped)."""
    last: dict[str, Handoff] = {}
    for h in report.handoffs:
        if h.outcome == "passed" and h.verdicts:
            last[h.node] = h
    seen, out = set(), []
    for h in last.values():
        for c in h.verdicts:
            for p in c.propositions:
                key = (p.claim_id, p.proposition_id)
                if key not in seen:
                    seen.add(key)
                    out.append(p)
    return out


def summary_table(reports: Iterable[RunReport]) -> Table:
    t = Table(title="invoice audit: outcome per run", title_justify="left")
    for col in ("task", "outcome", "rounds", "stopped (round: agent@part)", "irreversible actions"):
        t.add_column(col, overflow="fold")
    for r in reports:
        stopped = "\n".join(f"{h.round}: {h.node}@{h.stage}" for h in r.stopped) or "-"
        acts = "\n".join(
            f"{a.tool}({a.args.get('line_id', a.args.get('to', ''))}): {a.status}" + (f" [{a.grant_issuer}]" if a.grant_issuer else "")
            for a in r.actions
        ) or "-"
        t.add_row(escape(" ".join(str(v) for v in r.task.values())), f"[{_STATUS_STYLE.get(r.status, 'bold')}]{r.status}[/]",
                  f"{r.rounds}/{r.max_rounds}", escape(stopped), escape(acts))
    return t


__all__ = ["Progress", "render", "summary_table"]
