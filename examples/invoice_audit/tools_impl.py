"""In-process implementations of the invoice-audit tools, over a small fixed data set.

The irreversible tools write to module-level lists (`FLAGS`, `OUTBOX`) instead of a real system
of record, so a test or the demo can tell whether a call actually ran. Each tool takes the
validated argument object as one dict and returns a JSON object; the tool bus has already
checked the input against the tool's schema and checks the output after.

INV-4421 line 14 bills 320/hour against a 250/hour cap in the engagement letter of CL-7; that
is the line the running example flags. INV-4422 line 3 is over the cap by more than the payment
policy's tolerance, and its line 2 has no timesheet entry. CL-9 has no timesheet on file. The
same facts are written out as pages in documents/ (what retrieval stores as spans).
"""

from __future__ import annotations

import copy
import threading
from typing import Any

INVOICES: dict[str, dict[str, Any]] = {
    "INV-4421": {
        "invoice_id": "INV-4421",
        "client_id": "CL-7",
        "issued": "2026-10-31",
        "currency": "USD",
        "lines": [
            {"line_id": "12", "description": "Contract review", "hours": 6.0, "rate": 250.0, "amount": 1500.0, "currency": "USD"},
            {"line_id": "13", "description": "Board memo drafting", "hours": 3.5, "rate": 250.0, "amount": 875.0, "currency": "USD"},
            {"line_id": "14", "description": "Regulatory filing (partner)", "hours": 4.0, "rate": 320.0, "amount": 1280.0, "currency": "USD"},
        ],
        "total": 3655.0,
    },
    "INV-4422": {
        "invoice_id": "INV-4422",
        "client_id": "CL-7",
        "issued": "2026-11-15",
        "currency": "USD",
        "lines": [
            {"line_id": "1", "description": "Due diligence calls", "hours": 2.0, "rate": 240.0, "amount": 480.0, "currency": "USD"},
            {"line_id": "2", "description": "Due diligence calls", "hours": 2.0, "rate": 240.0, "amount": 480.0, "currency": "USD"},
            {"line_id": "3", "description": "Trial preparation (partner)", "hours": 12.0, "rate": 350.0, "amount": 4200.0, "currency": "USD"},
        ],
        "total": 5160.0,
    },
    "INV-5001": {
        "invoice_id": "INV-5001",
        "client_id": "CL-9",
        "issued": "2026-11-20",
        "currency": "EUR",
        "lines": [
            {"line_id": "1", "description": "Tax opinion", "hours": 5.0, "rate": 180.0, "amount": 900.0, "currency": "EUR"},
        ],
        "total": 900.0,
    },
}

ENGAGEMENT_TERMS: dict[str, dict[str, Any]] = {
    "CL-7": {
        "client_id": "CL-7",
        "hourly_cap": 250.0,
        "currency": "USD",
        "payment_terms_days": 30,
        "engagement_letter": "engagement_letter_CL-7.pdf",
        "effective_from": "2026-01-01",
    },
    "CL-9": {
        "client_id": "CL-9",
        "hourly_cap": 200.0,
        "currency": "EUR",
        "payment_terms_days": 45,
        "engagement_letter": "engagement_letter_CL-9.pdf",
        "effective_from": "2026-06-01",
    },
}

# What the firm recorded; an invoice line without an entry here was never worked.
TIMESHEETS: dict[str, list[dict[str, Any]]] = {
    "CL-7": [
        {"entry_id": "T-1012", "date": "2026-10-06", "timekeeper": "Ravi Patel", "task": "Contract review", "hours": 6.0, "invoice_id": "INV-4421", "line_id": "12"},
        {"entry_id": "T-1013", "date": "2026-10-09", "timekeeper": "Ravi Patel", "task": "Board memo drafting", "hours": 3.5, "invoice_id": "INV-4421", "line_id": "13"},
        {"entry_id": "T-1014", "date": "2026-10-14", "timekeeper": "Amelia Finch", "task": "Regulatory filing", "hours": 4.0, "invoice_id": "INV-4421", "line_id": "14"},
        {"entry_id": "T-1101", "date": "2026-11-03", "timekeeper": "Ravi Patel", "task": "Due diligence calls", "hours": 2.0, "invoice_id": "INV-4422", "line_id": "1"},
        {"entry_id": "T-1103", "date": "2026-11-10", "timekeeper": "Amelia Finch", "task": "Trial preparation", "hours": 12.0, "invoice_id": "INV-4422", "line_id": "3"},
    ],
}

FLAGS: list[dict[str, Any]] = []
OUTBOX: list[dict[str, Any]] = []
_lock = threading.Lock()  # the bus runs each call in its own thread


def reset() -> None:
    """Forget every flag and sent message (tests, demo reruns)."""
    with _lock:
        FLAGS.clear()
        OUTBOX.clear()


def lookup_invoice(args: dict[str, Any]) -> dict[str, Any]:
    invoice = INVOICES.get(args["invoice_id"])
    if invoice is None:
        raise LookupError(f"no invoice {args['invoice_id']!r}")
    return copy.deepcopy(invoice)


def lookup_engagement_terms(args: dict[str, Any]) -> dict[str, Any]:
    terms = ENGAGEMENT_TERMS.get(args["client_id"])
    if terms is None:
        raise LookupError(f"no engagement terms for client {args['client_id']!r}")
    return copy.deepcopy(terms)


def lookup_timesheet(args: dict[str, Any]) -> dict[str, Any]:
    entries = TIMESHEETS.get(args["client_id"])
    if entries is None:
        raise LookupError(f"no timesheet on file for client {args['client_id']!r}")
    if "invoice_id" in args:
        entries = [e for e in entries if e["invoice_id"] == args["invoice_id"]]
    return {"client_id": args["client_id"], "entries": copy.deepcopy(entries)}


def flag_invoice_line(args: dict[str, Any]) -> dict[str, Any]:
    invoice = INVOICES.get(args["invoice_id"])
    if invoice is None:
        raise LookupError(f"no invoice {args['invoice_id']!r}")
    if not any(line["line_id"] == args["line_id"] for line in invoice["lines"]):
        raise LookupError(f"invoice {args['invoice_id']!r} has no line {args['line_id']!r}")
    with _lock:
        flag = {
            "flag_id": f"FLG-{len(FLAGS) + 1:04d}",
            "invoice_id": args["invoice_id"],
            "line_id": args["line_id"],
            "reason": args["reason"],
        }
        FLAGS.append(flag)
    return {"flag_id": flag["flag_id"], "invoice_id": flag["invoice_id"], "line_id": flag["line_id"]}


def send_email(args: dict[str, Any]) -> dict[str, Any]:
    with _lock:
        message_id = f"msg_{len(OUTBOX) + 1:04d}"
        OUTBOX.append({"message_id": message_id, "to": args["to"], "subject": args["subject"], "body": args["body"]})
    return {"message_id": message_id}
