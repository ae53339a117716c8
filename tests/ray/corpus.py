"""The invoice-audit evidence and artifacts the Ray tests (and bench_scale) verify."""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass
from typing import Any, Callable, Iterator

from warrant.ledger import Ledger, canonical_json
from tests.corpus import INVOICE, LETTER, TERMS  # noqa: F401  (re-exported for the Ray tests)

RUNS = ["run_a", "run_b", "run_c"]

TIMESHEET = "Timesheet CL-7, March: 4.0 hours regulatory filing by a partner, Dana Reyes, on 12 March 2026."


def items(run_id: str) -> list[tuple[str, Any]]:
    """(name, NewEvidence) for one run: the same bytes in every run, so the same ids."""
    return [
        ("letter", Ledger.item(run_id, LETTER, source={"document": "engagement_letter.txt"})),
        ("invoice", Ledger.item(run_id, canonical_json(INVOICE), kind="tool_output", source={"tool": "lookup_invoice", "tool_version": "1"})),
        ("terms", Ledger.item(run_id, canonical_json(TERMS), kind="tool_output", source={"tool": "lookup_engagement_terms", "tool_version": "1"})),
        ("timesheet", Ledger.item(run_id, TIMESHEET, source={"document": "timesheet.txt"})),
    ]


def populate(write: Callable[[list], Any], runs: list[str]) -> dict[str, str]:
    """Write every run's evidence with `write(items) -> ObjectRef of ids`; returns name -> id."""
    import ray

    named = [nv for r in runs for nv in items(r)]
    ids = ray.get(write([it for _, it in named]))
    return dict(zip((n for n, _ in named), ids))


def populate_local(ledger: Ledger, runs: list[str]) -> dict[str, str]:
    named = [nv for r in runs for nv in items(r)]
    return dict(zip((n for n, _ in named), ledger.append_many([it for _, it in named])))


@dataclass
class Shared:
    uri: str
    writer: Any
    ids: dict[str, str]


def prop(pid: str, pred: str, args: dict[str, Any], cites: list[str]) -> dict[str, Any]:
    return {"id": pid, "pred": pred, "args": args, "ledger_ids": cites}


def assertion(cid: str, *props: dict[str, Any]) -> dict[str, Any]:
    return {"id": cid, "type": "Assertion", "text": f"claim {cid}", "propositions": list(props)}


def templates(ids: dict[str, str]) -> list[tuple[str, dict[str, Any], list[str]]]:
    """(pred, args, cites): deterministic ones (predicates over JSON, rules) and model-checked
    statements, supported and not."""
    L, I, T, S = ids["letter"], ids["invoice"], ids["terms"], ids["timesheet"]
    return [
        ("line_rate", {"invoice_id": "INV-4421", "line_id": "14", "rate": 320}, [I]),
        ("line_rate", {"invoice_id": "INV-4421", "line_id": "14", "rate": 300}, [I]),
        ("exceeds_cap", {"invoice_id": "INV-4421", "line_id": "14"}, [I, T]),
        ("payment_terms", {"days": 30}, [T]),
        ("statement", {"text": "Invoices to Client CL-7 are payable within 45 days of receipt."}, [L]),
        ("statement", {"text": "Hourly rates for Client CL-7 may not exceed USD 250."}, [L]),
        ("statement", {"text": "Travel time is billable under the CL-7 engagement letter."}, [L]),
        ("statement", {"text": "Dana Reyes spent 4 hours on the regulatory filing in March."}, [S]),
        ("statement", {"text": "The engagement letter with CL-7 is governed by the laws of Delaware."}, [L, S]),
        ("vague", {"text": "x"}, [L]),
    ]


def propositions(runs: list[str], ids: dict[str, str], n: int, *, deterministic_only: bool = False) -> Iterator[tuple[str, dict, dict]]:
    """`n` (run_id, claim, proposition) triples with unique keys, cycling through the templates."""
    tpl = [t for t in templates(ids) if not deterministic_only or t[0] not in ("statement",)]
    for k, ((pred, args, cites), run) in enumerate(zip(itertools.cycle(tpl), itertools.cycle(runs))):
        if k >= n:
            return
        p = prop(f"p{k}", pred, args, cites)
        yield run, {"id": f"c{k}", "type": "Assertion", "text": f"claim c{k}"}, p


def artifacts(run_id: str, ids: dict[str, str], n: int = 3) -> list[dict[str, Any]]:
    """A run's hand-offs: each artifact has a few claims over the templates, a Quote, and one
    intent to a reversible lookup tool that depends on the first claim."""
    tpl = templates(ids)
    out = []
    for a in range(n):
        claims = []
        for c in range(3):
            pred, args, cites = tpl[(a * 3 + c) % len(tpl)]
            claims.append(assertion(f"a{a}c{c}", prop(f"a{a}c{c}p0", pred, args, cites)))
        claims.append({"id": f"a{a}q", "type": "Quote", "text": "Clause 6: Invoices are payable within 30 days", "quote_of": {"ledger_id": ids["letter"]}})
        out.append(
            {
                "run_id": run_id,
                "from_agent": "analyst",
                "claims": claims,
                "action_intents": [{"tool": "lookup_invoice", "args": {"invoice_id": "INV-4421"}, "depends_on": ["a%dc0" % a]}],
            }
        )
    return out


def model_spec() -> str:
    from warrant.runtime.verify.backends.registry import default_model_dir

    return "default" if any(default_model_dir().glob("*.onnx")) else "none"


def jsonl(rows: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(r) + "\n" for r in rows)


def evidence_key(checker: str, evidence: dict[str, Any] | None) -> Any:
    """What must be identical about a verdict's evidence across modes. Deterministic checkers:
    the exact span. The int8 NLI model quantises activations per batch, so its scores move by
    ~1% with what a pair is batched with; where two chunks of a record nearly tie, the chosen one
    can differ between batchings. Across modes the model's evidence must be the same record."""
    if evidence is None:
        return None
    return evidence["ledger_id"] if checker.startswith("nli:") else evidence
