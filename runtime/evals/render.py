"""Showing an evaluation: a rich table in the terminal and one self-contained HTML file.

Everything that came from a gold set or a run (names, claim texts, open questions, arguments) is
untrusted text: escaped with `rich.markup.escape` in the terminal and by Jinja2's autoescaping in
the HTML. The HTML has no scripts and loads nothing: an auditor can open it offline.
"""

from __future__ import annotations

from pathlib import Path

from jinja2 import Environment
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from warrant.runtime.evals.results import FIGURES, EvalResult, Figure, write_atomic

LABELS = {
    "faithfulness": "faithfulness",
    "coverage": "coverage",
    "abstention_precision": "abstention precision",
    "abstention_recall": "abstention recall",
    "hygiene": "side-effect hygiene",
    "verifier_agreement": "verifier agreement",
    "side_effects_done": "side effects done",
}


def _ci(f: Figure) -> str:
    return "" if f.low is None else f"[{100 * f.low:.1f}, {100 * f.high:.1f}]"


def _delta(d: float | None) -> str:
    return "" if d is None else f"{d:+.1f}"


def table(result: EvalResult) -> Table:
    t = Table(title=escape(f"{result.gold.name} ({result.gold.hash[:12]}) x {result.graph} [{result.setup}]"), title_justify="left")
    for col, just in (("figure", "left"), ("value", "right"), ("95% CI", "right"), ("n", "right"), ("vs baseline (points)", "right")):
        t.add_column(col, justify=just)
    deltas = result.gate.deltas if result.gate else {}
    for name in FIGURES:
        f = result.figures[name]
        style = "bold red" if (name == "hygiene" and f.value is not None and f.value < 1) else ""
        t.add_row(escape(LABELS[name]), f"[{style}]{f.pct()}[/]" if style else f.pct(), _ci(f), str(f.n), _delta(deltas.get(name)))
    return t


def render(result: EvalResult, console: Console, *, html_path: str | None = None) -> None:
    console.print(table(result))
    a = result.agreement
    console.print("confusion (gold label -> judge verdict): " + escape("; ".join(
        f"{g}: " + ", ".join(f"{j} {n}" for j, n in row.items() if n) for g, row in a.matrix.items() if any(row.values()))))
    if a.false_passes:
        console.print(f"[bold red]verifier false passes ({len(a.false_passes)}):[/] "
                      + escape(", ".join(f"{d.gold_id} ({d.claim_id} in {d.task})" for d in a.false_passes)))
    if result.false_passes:
        console.print(f"[bold red]unfaithful claims delivered ({len(result.false_passes)}):[/]")
        for c in result.false_passes[:20]:
            console.print(f"  {escape(c.task)} {escape(c.claim_id)} [{escape(c.truth)}] {escape(c.text[:120])}")
    for s in result.hygiene_failures:
        console.print(f"[bold red]hygiene failure[/] {escape(s.code or '')} at {escape(s.id)} ({escape(s.task)}): {escape(s.message)}")
    missed = [a for a in result.abstentions if not a.recalled]
    if missed:
        console.print("[yellow]abstentions missed:[/] " + escape(", ".join(a.id for a in missed)))
    if result.calibration:
        console.print(escape(f"calibration: {result.calibration}"))
    if result.gate is not None:
        if result.gate.passed:
            console.print("[bold green]release gate: PASS[/]" + (f" against {escape(result.gate.baseline)}" if result.gate.baseline else ""))
        else:
            console.print("[bold red]release gate: FAIL[/]")
            for r in result.gate.reasons:
                console.print(f"  [red]-[/] {escape(r)}")
    if html_path:
        console.print(f"[bold]HTML report:[/] {escape(html_path)}")


_TEMPLATE = """<!doctype html><html><head><meta charset="utf-8"><title>Warrant eval: {{ r.gold.name }}</title><style>
body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:1150px;color:#222}h2{border-bottom:2px solid #ddd;margin-top:2em}
table{border-collapse:collapse;width:100%;margin:.5em 0}td,th{border:1px solid #ddd;padding:3px 6px;text-align:left;vertical-align:top}
th{background:#f4f4f4}.pass{color:#15803d}.fail{color:#b91c1c;font-weight:bold}.dim{color:#666}td.n{text-align:right}
.supported{color:#15803d}.contradicted{color:#b91c1c}.unsupported{color:#b45309}.unverifiable{color:#6b7280}
</style></head><body>
<h1>Warrant evaluation: {{ r.gold.name }}</h1>
<p class="dim">gold set {{ r.gold.path }} (domain {{ r.gold.domain }}{% if r.gold.variant_of %}, variant of {{ r.gold.variant_of }}{% endif %}),
hash <code>{{ r.gold.hash }}</code><br>graph {{ r.graph }} · verifier {{ r.verifier }} · setup {{ r.setup }} ·
bootstrap {{ r.resamples }} resamples, seed {{ r.seed }} · {{ r.started_at }}</p>
{% if r.gate %}<h2>Release gate: <span class="{{ 'pass' if r.gate.passed else 'fail' }}">{{ 'PASS' if r.gate.passed else 'FAIL' }}</span></h2>
{% if r.gate.baseline %}<p>against {{ r.gate.baseline }} (faithfulness may drop at most {{ r.gate.max_faithfulness_drop }} points)</p>{% endif %}
<ul>{% for x in r.gate.reasons %}<li class="fail">{{ x }}</li>{% endfor %}</ul>{% endif %}
<h2>Figures</h2><table><tr><th>figure</th><th>value</th><th>95% CI</th><th>n</th><th>vs baseline (points)</th></tr>
{% for name in figures %}{% set f = r.figures[name] %}<tr><td>{{ labels[name] }}</td><td class="n">{{ f.pct() }}</td><td class="n">{{ ci(f) }}</td>
<td class="n">{{ f.n }}</td><td class="n">{{ delta(r.gate.deltas.get(name) if r.gate else None) }}</td></tr>{% endfor %}</table>
<p class="dim">{% for k, v in r.counts.items() %}{{ k }} {{ v }}{% if not loop.last %} · {% endif %}{% endfor %}</p>
<h2>Verifier agreement with the gold labels</h2><table><tr><th>gold \\ judge</th>{% for j in r.agreement.labels %}<th>{{ j }}</th>{% endfor %}</tr>
{% for g, row in r.agreement.matrix.items() %}<tr><th>{{ g }}</th>{% for j in r.agreement.labels %}<td class="n">{{ row.get(j, 0) }}</td>{% endfor %}</tr>{% endfor %}</table>
<p>{{ r.agreement.citation_off }} true proposition(s) cited none of their gold evidence (not counted as false rejects).</p>
{% for title, rows in [("False passes (the judge supported what the gold set says is not)", r.agreement.false_passes), ("False rejects", r.agreement.false_rejects)] %}
<h3>{{ title }}: {{ rows|length }}</h3>{% if rows %}<table><tr><th>gold id</th><th>expected</th><th>judge</th><th>checker</th><th>task / claim</th><th>text</th></tr>
{% for d in rows %}<tr><td><code>{{ d.gold_id }}</code></td><td class="{{ d.expect }}">{{ d.expect }}</td><td class="{{ d.judge }}">{{ d.judge }}</td>
<td>{{ d.checker }}</td><td>{{ d.task }} / {{ d.claim_id }}</td><td>{{ d.text }}</td></tr>{% endfor %}</table>{% endif %}{% endfor %}
<h2>Delivered claims that are not faithful: {{ r.false_passes|length }}</h2>{% if r.false_passes %}<table><tr><th>task</th><th>claim</th><th>truth</th><th>gold</th><th>text</th></tr>
{% for c in r.false_passes %}<tr><td>{{ c.task }}</td><td>{{ c.claim_id }}</td><td class="{{ c.truth }}">{{ c.truth }}</td><td>{{ c.gold|join(", ") }}</td><td>{{ c.text }}</td></tr>{% endfor %}</table>{% endif %}
<h2>Side effects</h2><table><tr><th>id</th><th>task</th><th>tool</th><th>expected</th><th>outcome</th><th>why</th></tr>
{% for s in r.side_effects %}<tr><td><code>{{ s.id }}</code></td><td>{{ s.task }}</td><td>{{ s.tool }}</td><td>{{ s.expect }}</td>
<td class="{{ 'fail' if s.outcome == 'failure' else 'pass' if s.outcome == 'ok' else 'dim' }}">{{ s.outcome }}{% if s.code %} ({{ s.code }}){% endif %}</td><td>{{ s.message }}</td></tr>{% endfor %}</table>
<h2>Abstentions</h2><table><tr><th>id</th><th>task</th><th>question</th><th>recalled</th><th>asked as</th></tr>
{% for a in r.abstentions %}<tr><td><code>{{ a.id }}</code></td><td>{{ a.task }}</td><td>{{ a.question }}</td>
<td class="{{ 'pass' if a.recalled else 'fail' }}">{{ 'yes' if a.recalled else ('no: tempting answer delivered' if a.tempting_delivered else 'no') }}</td>
<td>{{ a.matched_by|join(" | ") }}</td></tr>{% endfor %}</table>
{% set stray = r.emitted_abstentions|rejectattr("matched")|list %}<p>{{ stray|length }} open question(s) matched no expected abstention{% if stray %}:{% endif %}</p>
{% if stray %}<ul>{% for a in stray %}<li>{{ a.task }}: {{ a.text }}</li>{% endfor %}</ul>{% endif %}
<h2>Expected claims not emitted</h2><p>{% for g in r.gold_claims if g.expect == "supported" and not g.covered %}<code>{{ g.id }}</code> {% else %}none{% endfor %}</p>
<h2>Runs</h2><table><tr><th>task</th><th>run</th><th>status</th><th>rounds</th><th>reason</th></tr>
{% for x in r.runs %}<tr><td>{{ x.task }}</td><td><code>{{ x.run_id }}</code></td><td>{{ x.status }}</td><td class="n">{{ x.rounds }}</td><td>{{ x.reason }}{% if x.error %} ({{ x.error }}){% endif %}</td></tr>{% endfor %}</table>
<h2>Emitted claims ({{ r.claims|length }})</h2><table><tr><th>task</th><th>node / round</th><th>type</th><th>delivered</th><th>judge</th><th>truth</th><th>gold</th><th>text</th></tr>
{% for c in r.claims %}<tr><td>{{ c.task }}</td><td>{{ c.node }} / {{ c.round }}</td><td>{{ c.type }}</td><td>{{ 'yes' if c.delivered else 'no' }}</td>
<td class="{{ c.judge }}">{{ c.judge }}</td><td class="{{ c.truth }}">{{ c.truth }}</td><td>{{ c.gold|join(", ") }}</td><td>{{ c.text }}</td></tr>{% endfor %}</table>
{% if r.calibration %}<h2>Calibration</h2><pre>{{ r.calibration }}</pre>{% endif %}
</body></html>"""

_ENV = Environment(autoescape=True, trim_blocks=True, lstrip_blocks=True)


def write_html(result: EvalResult, path: str | Path) -> Path:
    return write_atomic(path, _ENV.from_string(_TEMPLATE).render(r=result, figures=FIGURES, labels=LABELS, ci=_ci, delta=_delta))


__all__ = ["LABELS", "render", "table", "write_html"]
