"""Invoice-audit predicates: line rates, hours, amounts, rate caps, payment terms.

Their evaluators read structured tool outputs (JSON records) and compare numbers in plain code,
which is exact where an NLI model is not. Each cites the verbatim bytes it compared: the JSON
object of the line, or the sentence of the letter that states the cap.
"""

from __future__ import annotations

import json
import re
from decimal import Decimal
from typing import Any, Iterator

from ledger import EvidenceRecord, canonical_json
from runtime.verify.predicates.base import Decision, Predicate
from runtime.verify.rules import extract_quantities
from runtime.verify.text import sentence_spans

_ID = {"type": "string", "minLength": 1, "maxLength": 64}
_NUM = {"type": "number"}
_CCY = {"type": "string", "pattern": "^[A-Z]{3}$"}


def _objects(doc: Any) -> Iterator[dict[str, Any]]:
    if isinstance(doc, dict):
        yield doc
        for v in doc.values():
            yield from _objects(v)
    elif isinstance(doc, list):
        for v in doc:
            yield from _objects(v)


def _json(record: EvidenceRecord) -> Any:
    if "json" not in record.media_type:
        return None
    try:
        return json.loads(record.data)
    except ValueError:
        return None


def _span(record: EvidenceRecord, obj: Any) -> tuple[int, int]:
    piece = canonical_json(obj)
    at = record.data.find(piece)
    return (at, at + len(piece)) if at >= 0 else (0, len(record.data))


def find_line(records: list[EvidenceRecord], invoice_id: str, line_id: str):
    """(record, line object) for this invoice's line, from a cited invoice record, or None."""
    for rec in records:
        doc = _json(rec)
        for inv in _objects(doc):
            if inv.get("invoice_id") != invoice_id:
                continue
            for line in _objects(inv):
                if str(line.get("line_id")) == str(line_id) and line is not inv:
                    return rec, line
    return None


_CAP_WORDS = re.compile(r"\b(cap|capped|exceed|maximum|not more than|no more than|ceiling)\b", re.I)


def find_cap(records: list[EvidenceRecord]):
    """(record, start, end, amount, currency, where) of the hourly rate cap the cited records state."""
    for rec in records:
        for obj in _objects(_json(rec)):
            if "hourly_cap" in obj and isinstance(obj["hourly_cap"], (int, float)):
                a, b = _span(rec, obj)
                return rec, a, b, Decimal(str(obj["hourly_cap"])), obj.get("currency"), "hourly_cap"
    for rec in records:
        if "json" in rec.media_type:
            continue
        text = rec.data.decode("utf-8", errors="replace")
        for a, b in sentence_spans(text):
            sent = text[a:b]
            if not (_CAP_WORDS.search(sent) and re.search(r"\bhour|\bhourly|/h\b", sent, re.I)):
                continue
            money = [q for q in extract_quantities(sent) if q.kind == "money"]
            if money:
                start = len(text[:a].encode())
                return rec, start, start + len(sent.encode()), Decimal(money[0].value), money[0].unit, "letter"
    return None


def _line_field(field: str, label: str):
    def evaluate(args: dict[str, Any], records: list[EvidenceRecord]) -> Decision | None:
        found = find_line(records, args["invoice_id"], args["line_id"])
        if found is None or field not in found[1]:
            return None
        rec, line = found
        a, b = _span(rec, line)
        actual, claimed = Decimal(str(line[field])), Decimal(str(args[field]))
        same = actual == claimed
        ccy = args.get("currency")
        if same and ccy and line.get("currency") and ccy != line["currency"]:
            return Decision("contradicted", rec.id, a, b, f"{label}: the line is in {line['currency']}, not {ccy}")
        verb = "matches" if same else f"is {actual}, not {claimed}"
        return Decision("supported" if same else "contradicted", rec.id, a, b, f"{label} of line {args['line_id']} {verb}")

    return evaluate


def _exceeds_cap(args: dict[str, Any], records: list[EvidenceRecord]) -> Decision | None:
    found, cap = find_line(records, args["invoice_id"], args["line_id"]), find_cap(records)
    if found is None or cap is None or "rate" not in found[1]:
        return None
    rec, line = found
    cap_rec, _, _, cap_value, cap_ccy, _ = cap
    if cap_ccy and line.get("currency") and cap_ccy != line["currency"]:
        return None  # different currencies: no exchange rate in evidence, so no decision
    rate = Decimal(str(line["rate"]))
    a, b = _span(rec, line)
    over = rate > cap_value
    return Decision(
        "supported" if over else "contradicted",
        rec.id,
        a,
        b,
        f"line {args['line_id']} rate {rate} {'exceeds' if over else 'does not exceed'} the cap {cap_value} stated in {cap_rec.id}",
    )


def _hourly_cap(args: dict[str, Any], records: list[EvidenceRecord]) -> Decision | None:
    cap = find_cap(records)
    if cap is None:
        return None
    rec, a, b, value, ccy, _ = cap
    claimed = Decimal(str(args["amount"]))
    if claimed != value:
        return Decision("contradicted", rec.id, a, b, f"the cap is {value}, not {claimed}")
    if args.get("currency") and ccy and args["currency"] != ccy:
        return Decision("contradicted", rec.id, a, b, f"the cap is in {ccy}, not {args['currency']}")
    return Decision("supported", rec.id, a, b, f"the cap is {value} {ccy or ''}".strip())


def _payment_terms(args: dict[str, Any], records: list[EvidenceRecord]) -> Decision | None:
    for rec in records:
        for obj in _objects(_json(rec)):
            if "payment_terms_days" in obj:
                a, b = _span(rec, obj)
                same = obj["payment_terms_days"] == args["days"]
                return Decision("supported" if same else "contradicted", rec.id, a, b, f"payment terms are {obj['payment_terms_days']} days")
    return None  # text records go to rules + NLI through the template


def _line(extra: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {"invoice_id": _ID, "line_id": _ID, "currency": _CCY, **extra},
        "required": ["invoice_id", "line_id", *required],
        "additionalProperties": False,
    }


def _line_predicate(name: str, field: str, label: str, description: str, template: str) -> Predicate:
    """A fact about one field of one invoice line, decided from the line's JSON object."""
    return Predicate(
        name,
        description,
        _line({field: _NUM}, [field]),
        template,
        _line_field(field, label),
        needed="the invoice's line items (a lookup_invoice output or the invoice page)",
    )


LINE_RATE = _line_predicate(
    "line_rate", "rate", "hourly rate", "Line L of invoice I is billed at R per hour.",
    "Line {line_id} of invoice {invoice_id} is billed at {rate} {currency} per hour.",
)
LINE_HOURS = _line_predicate(
    "line_hours", "hours", "hours", "Line L of invoice I bills H hours.",
    "Line {line_id} of invoice {invoice_id} bills {hours} hours.",
)
LINE_AMOUNT = _line_predicate(
    "line_amount", "amount", "amount", "Line L of invoice I amounts to A.",
    "Line {line_id} of invoice {invoice_id} amounts to {amount} {currency}.",
)
EXCEEDS_CAP = Predicate(
    "exceeds_cap",
    "Line L of invoice I is billed above the hourly rate cap of the engagement terms.",
    {
        "type": "object",
        "properties": {"invoice_id": _ID, "line_id": _ID, "cap_source": _ID},
        "required": ["invoice_id", "line_id"],
        "additionalProperties": False,
    },
    "The hourly rate of line {line_id} on invoice {invoice_id} exceeds the hourly rate cap.",
    _exceeds_cap,
    model_checkable=False,
    needed="both the invoice's line items and the engagement terms or letter that state the hourly cap",
)
HOURLY_CAP = Predicate(
    "hourly_cap",
    "The engagement terms cap hourly rates at A.",
    {
        "type": "object",
        "properties": {"client_id": _ID, "amount": _NUM, "currency": _CCY},
        "required": ["amount"],
        "additionalProperties": False,
    },
    "Hourly rates are capped at {amount} {currency}.",
    _hourly_cap,
    needed="the engagement letter clause or engagement terms that state the hourly cap",
)
PAYMENT_TERMS = Predicate(
    "payment_terms",
    "Invoices are payable within D days.",
    {
        "type": "object",
        "properties": {"client_id": _ID, "days": {"type": "integer", "minimum": 0}},
        "required": ["days"],
        "additionalProperties": False,
    },
    "Invoices are payable within {days} days.",
    _payment_terms,
    needed="the payment terms clause or engagement terms",
)

PREDICATES = [LINE_RATE, LINE_HOURS, LINE_AMOUNT, EXCEEDS_CAP, HOURLY_CAP, PAYMENT_TERMS]
