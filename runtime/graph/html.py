"""The run report as one self-contained HTML file: claims, verdicts, and their evidence spans
highlighted in the ledger records (document pages and tool outputs) they were found in.

No scripts, no external assets: an auditor can open it offline or attach it to a ticket.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Iterable

from warrant.runtime.graph.report import RunReport
from warrant.runtime.verify.verdict import PropositionVerdict

_CSS = """
body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:1100px;color:#222}
h1{font-size:1.5em}h2{border-bottom:2px solid #ddd;padding-bottom:.2em;margin-top:2em}h3{margin-top:1.4em}
table{border-collapse:collapse;width:100%;margin:.5em 0}td,th{border:1px solid #ddd;padding:3px 6px;vertical-align:top;text-align:left}
th{background:#f4f4f4}.COMPLETED{color:#15803d}.AWAITING_REVIEW{color:#b45309}.ABSTAINED{color:#7e22ce}.FAILED{color:#b91c1c}
.passed{color:#15803d}.stopped{color:#b91c1c}.abstained{color:#7e22ce}
.badge{padding:0 .4em;border-radius:3px;font-size:.85em;color:#fff}
.b-supported{background:#15803d}.b-contradicted{background:#b91c1c}.b-unsupported{background:#b45309}.b-unverifiable{background:#6b7280}
pre.doc{white-space:pre-wrap;background:#fafafa;border:1px solid #e5e5e5;padding:.7em;font:13px/1.5 ui-monospace,monospace}
mark{padding:0 1px;border-radius:2px}mark.supported{background:#bbf7d0}mark.contradicted{background:#fecaca}
mark.unsupported{background:#fde68a}mark.unverifiable{background:#e5e7eb}
code{font-size:.9em}.dim{color:#666}.q{background:#fffbeb;border:1px solid #fcd34d;padding:.5em;margin:.5em 0}
"""
_RANK = {"contradicted": 3, "unverifiable": 2, "unsupported": 1, "supported": 0}


def e(s: object) -> str:
    return html.escape(str(s), quote=True)


def write_html(reports: Iterable[RunReport], path: str | Path, title: str = "Warrant run report") -> Path:
    reports = list(reports)
    body = [f"<h1>{e(title)}</h1>"]
    body.append("<table><tr><th>run</th><th>task</th><th>outcome</th><th>rounds</th><th>actions</th></tr>")
    for r in reports:
        acts = ", ".join(f"{a.tool} {a.args.get('line_id', '')}: {a.status}" for a in r.actions) or "-"
        body.append(f"<tr><td><a href='#{e(r.run_id)}'>{e(r.run_id)}</a></td><td>{e(r.task)}</td>"
                    f"<td class='{e(r.status)}'>{e(r.status)}</td><td>{r.rounds}/{r.max_rounds}</td><td>{e(acts)}</td></tr>")
    body.append("</table>")
    for r in reports:
        body.append(_run(r))
    doc = (f"<!doctype html><html><head><meta charset='utf-8'><title>{e(title)}</title><style>{_CSS}</style></head>"
           f"<body>{''.join(body)}</body></html>")
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(doc, encoding="utf-8")
    tmp.replace(path)
    return path


def _verdicts(r: RunReport) -> list[tuple[int, str, PropositionVerdict]]:
    out, seen = [], set()
    for h in r.handoffs:
        for c in h.verdicts:
            for p in c.propositions:
                key = (p.claim_id, p.proposition_id, p.status, p.evidence.ledger_id if p.evidence else None)
                if key not in seen:
                    seen.add(key)
                    out.append((h.round, h.node, p))
    return out


def _run(r: RunReport) -> str:
    out = [f"<h2 id='{e(r.run_id)}'>{e(' '.join(map(str, r.task.values())))} — <span class='{e(r.status)}'>{e(r.status)}</span></h2>",
           f"<p>{e(r.reason)}. <span class='dim'>run {e(r.run_id)}, graph {e(r.graph)}, verifier {e(r.verifier_backend)}, "
           f"ledger {e(r.ledger_uri)}</span></p>"]
    out.append("<h3>Hand-offs</h3><table><tr><th>round</th><th>from → to</th><th>outcome</th><th>stopped by</th><th>why</th></tr>")
    for h in r.handoffs:
        why = [f"<code>{e(v.code)}</code> at <code>{e(v.loc)}</code>: {e(v.message)}"
               + (f" (got <code>{e(v.got)}</code>)" if v.got is not None else "") for v in h.violations]
        why += [f"<em>{e(d)}</em>" for d in h.diagnosis]
        why += [f"<code>{e(p.proposition_id)}</code> {_badge(p.status)} {e(p.checker)}: {e(p.reason)}"
                + (f" — needs {e(p.missing_evidence.needed)}" if p.missing_evidence else "") for p in h.unsupported]
        why += [f"open question: {e(q)}" for q in h.open_questions]
        out.append(f"<tr><td>{h.round}</td><td>{e(h.node)} → {e(', '.join(h.to) or 'tools')}</td>"
                   f"<td class='{h.outcome}'>{h.outcome}</td><td>{e(h.stage or '')}</td><td>{'<br>'.join(why)}</td></tr>")
    out.append("</table>")

    bad = [c for c in r.tool_calls if c.status != "ok"]
    if bad:
        out.append("<h3>Tool calls stopped by the tool bus</h3><table><tr><th>round</th><th>agent</th><th>tool</th><th>outcome</th><th>detail</th></tr>")
        for c in bad:
            det = "; ".join(f"<code>{e(v.code)}</code> {e(v.loc)}: expected {e(v.expected)}, got {e(v.got)}" for v in c.violations) or e(c.message)
            out.append(f"<tr><td>{c.round}</td><td>{e(c.node)}</td><td>{e(c.tool)}</td><td>{e(c.status)} <code>{e(c.code)}</code></td><td>{det}</td></tr>")
        out.append("</table>")

    verdicts = _verdicts(r)
    if verdicts:
        out.append("<h3>Claims and verdicts</h3><table><tr><th>round</th><th>agent</th><th>claim / proposition</th><th>verdict</th><th>evidence</th></tr>")
        for rnd, node, p in verdicts:
            ev = ""
            if p.evidence:
                ev = (f"<a href='#{_anchor(r.run_id, p.evidence.ledger_id)}'>{e(p.evidence.ledger_id)}</a>"
                      f"[{p.evidence.start}:{p.evidence.end}] “{e(p.evidence.text[:160])}”")
            out.append(f"<tr><td>{rnd}</td><td>{e(node)}</td><td><code>{e(p.claim_id)}/{e(p.proposition_id)}</code> {e(p.hypothesis or '')}</td>"
                       f"<td>{_badge(p.status)} {e(p.checker)}<br><span class='dim'>{e(p.reason)}</span></td><td>{ev}</td></tr>")
        out.append("</table>")

    if r.actions:
        out.append("<h3>Irreversible actions</h3><table><tr><th>tool</th><th>args</th><th>outcome</th><th>grant</th></tr>")
        for a in r.actions:
            grant = f"{e(a.grant_issuer)} <code>{e(a.grant_id)}</code>" if a.grant_id else e(a.message)
            out.append(f"<tr><td>{e(a.tool)}</td><td><code>{e(a.args)}</code></td><td>{e(a.status)}</td><td>{grant}</td></tr>")
        out.append("</table>")
        for item in r.review_queue:
            lines = [f"<b>Queued for review:</b> {e(item.tool)} <code>{e(item.args)}</code><br>{e(item.reason)}: {e(item.message)}"]
            if item.unsupported:
                lines.append("Unsupported claims (only these): " + "; ".join(
                    f"<code>{e(p.claim_id)}</code> {_badge(p.status)} {e(p.hypothesis or '')}" for p in item.unsupported))
            out.append(f"<div class='q'>{'<br>'.join(lines)}</div>")
    if r.open_questions:
        out.append("<h3>Open questions</h3><ul>" + "".join(f"<li>{e(q)}</li>" for q in r.open_questions) + "</ul>")

    out.append("<h3>Evidence, with the spans the verdicts rest on highlighted</h3>")
    spans: dict[str, list[PropositionVerdict]] = {}
    for _, _, p in verdicts:
        if p.evidence:
            spans.setdefault(p.evidence.ledger_id, []).append(p)
    for ref in r.evidence:
        marks = spans.get(ref.ledger_id, [])
        if not marks:
            continue
        where = ref.source.get("document") or ref.via
        page = f", page {ref.source['page']}" if "page" in ref.source else ""
        out.append(f"<h4 id='{_anchor(r.run_id, ref.ledger_id)}'>{e(where)}{e(page)} <span class='dim'>{e(ref.ledger_id)} ({e(ref.kind)})</span></h4>")
        out.append(f"<pre class='doc'>{_highlight(ref.text.encode('utf-8'), marks)}</pre>")
    chains = "; ".join(f"{c.table}: {c.entries} entries, chain {'ok' if c.ok else 'BROKEN'}" for c in r.chains)
    out.append(f"<p class='dim'>Audit trail: {e(r.ledger_uri)} — {e(chains)}. Report JSON: {e(r.report_path or '-')}</p>")
    return "".join(out)


def _anchor(run_id: str, ledger_id: str) -> str:
    return f"ev-{run_id}-{ledger_id}"


def _badge(status: str) -> str:
    return f"<span class='badge b-{e(status)}'>{e(status)}</span>"


def _highlight(data: bytes, props: list[PropositionVerdict]) -> str:
    """The record's text with every cited byte range in a <mark>; overlapping ranges are cut
    into segments, each marked with its worst status and every claim that rests on it."""
    cuts = {0, len(data)}
    for p in props:
        cuts.update((max(0, p.evidence.start), min(len(data), p.evidence.end)))
    cuts = sorted(cuts)
    out = []
    for a, b in zip(cuts, cuts[1:]):
        piece = e(data[a:b].decode("utf-8", errors="replace"))
        cover = [p for p in props if p.evidence.start <= a and b <= p.evidence.end]
        if not cover:
            out.append(piece)
            continue
        worst = max(cover, key=lambda p: _RANK.get(p.status, 0)).status
        title = "; ".join(f"{p.claim_id}/{p.proposition_id}: {p.status} ({p.checker})" for p in cover)
        out.append(f"<mark class='{e(worst)}' title='{e(title)}'>{piece}</mark>")
    return "".join(out)


__all__ = ["write_html"]
