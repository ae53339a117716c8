"""The auto-approval policy of the invoice audit, from the client's payment policy AP-3 (clause 3).

A line billed above the rate cap is flagged without a human when every finding is supported and
the overbilled amount, (rate - cap) x hours, is at most TOLERANCE_USD. The amount is computed
only from propositions the verifier marked supported (their arguments were checked against the
ledger bytes), never from what an agent wrote in prose.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, Mapping

from runtime.grants import Policy, PolicyRule

TOLERANCE_USD = Decimal("500")
RULE_NAME = "ap3_overbilling_within_tolerance"


def _supported(verdicts: Mapping[str, Mapping[str, Any]]):
    for v in verdicts.values():
        for p in v.get("propositions", []):
            if p.get("status") == "supported":
                yield p["pred"], p.get("args", {})


def overbilled(args: Mapping[str, Any], verdicts: Mapping[str, Mapping[str, Any]]) -> Decimal | None:
    """(rate - cap) x hours of the flagged line in USD, or None when a needed fact is not supported."""
    inv, line = args.get("invoice_id"), args.get("line_id")
    facts: dict[str, set[Any]] = {"exceeds": set(), "rate": set(), "hours": set(), "cap": set()}
    for pred, a in _supported(verdicts):
        on_line = a.get("invoice_id") == inv and str(a.get("line_id")) == str(line)
        if pred == "exceeds_cap" and on_line:
            facts["exceeds"].add(True)
        elif pred == "line_rate" and on_line and a.get("currency", "USD") == "USD":
            facts["rate"].add(Decimal(str(a["rate"])))
        elif pred == "line_hours" and on_line:
            facts["hours"].add(Decimal(str(a["hours"])))
        elif pred == "hourly_cap" and a.get("currency", "USD") == "USD":
            facts["cap"].add(Decimal(str(a["amount"])))
    # Exactly one value per fact: two supported caps (two clients, two letters) is for a human.
    if any(len(v) != 1 for v in facts.values()):
        return None
    rate, hours, cap = (next(iter(facts[k])) for k in ("rate", "hours", "cap"))
    return (rate - cap) * hours


def within_tolerance(args: Mapping[str, Any], verdicts: Mapping[str, Mapping[str, Any]]) -> bool:
    if args.get("reason") != "exceeds_cap":
        return False
    amount = overbilled(args, verdicts)
    return amount is not None and Decimal(0) < amount <= TOLERANCE_USD


def policy() -> Policy:
    return Policy([
        PolicyRule(
            name=RULE_NAME,
            tool="flag_invoice_line",
            predicate=within_tolerance,
            description=f"all findings supported and overbilled amount (rate - cap) x hours <= USD {TOLERANCE_USD}",
        )
    ])
