"""Accounting negatives: an amount written "(150.00)", "($150.00)", "(EUR 3,000.00)", "-$150",
"$-150", "USD -150.00" or "150.00 CR" is a negative amount (a credit, a deduction, an allowance).

The sign is kept apart from the value (``Quantity.sign``; ``value`` stays the magnitude): a claim
that states the magnitude ("a trade-in allowance of AED 3,000") still meets "(3,000.00)" labelled
as an allowance, while sums over a column add it as a negative (``Quantity.signed``). A value
labelled by a word of what reduces a balance (``deduct``) is one whose magnitude a claim may name;
between a negative and a positive value with no such word on either side, ``comparisons.relation``
decides nothing (Unsupported rather than a guess either way).

A bare number is read as money when it is written as an amount (two decimals) and either its
table column header or its line's label names a currency ("Amount (EUR)"), or it is a whole number
under a column header that names one ("Entered value (USD)" over "84,600"), or the record's amounts
are all in one currency ("Total: USD 1,267.50" above "Lodging: 4 nights x 210 = 840.00"), or the
record names one currency as a field ("currency=SEK") and states no amount: a schedule, a register
or an export states its currency once. Not a measure ("12.50 kg") nor a value whose label counts
something else ("Hours", "Qty", "Rate %").
"""

from __future__ import annotations

import re
from dataclasses import replace

from warrant.runtime.verify.rules.arithmetic import column_label, measure
from warrant.runtime.verify.rules.base import Quantity
from warrant.runtime.verify.rules.money import CURRENCY_CODES, CURRENCY_SYMBOL

# words of what reduces a balance: a negative amount they label is a magnitude a claim may state
DEDUCT_RE = re.compile(
    r"\b(?:allowances?|discount(?:s|ed)?|credit(?:s|ed)?|refund(?:s|ed)?|rebates?|deduct(?:ion|ions|ed|ible)?|less|minus"
    r"|trade[- ]?ins?|write[- ]?offs?|written\s+off|returns?|returned|reversals?|reversed|chargebacks?|adjustments?"
    r"|withholding|withheld|retentions?|retainage|markdowns?|concessions?|vouchers?|coupons?|waived|waivers?"
    r"|payments?|paid|overpayments?)\b",
    re.I,
)
_BARE_AMOUNT = re.compile(r"\d{1,3}(?:,\d{3})*\.\d{2}|\d+\.\d{2}|\d{1,3}(?:\.\d{3})*,\d{2}")  # also "1.048,75", "312,00"
_WHOLE = re.compile(r"\d{1,3}(?:,\d{3})+|\d+")
_OPEN = re.compile(r"\(\s*$")
_CLOSE = re.compile(r"\s*\)")
# a parenthesised amount is a negative only where it fills a cell or a field ("Credit: (150.00)",
# "| (150.00) |", a column after two spaces); in prose, "the total fee ($3,400.00)" is an aside
_CELL_BEFORE = re.compile(r"(?:^|[:|=\t]|\s{2})\s*$|\A\s*$", re.M)
_CR = re.compile(r"\s*(?:CR|Cr|cr)\b\.?")
# a minus sign right before an amount, at the start of a cell, line or clause (not "100-150", "ORD-150")
_MINUS_BEFORE = re.compile(r"(?:^|(?<=[\s(|:=]))[-\u2212]$")
# a currency in a label: "Amount (EUR)", "EUR", "$", or a column key "amount_eur", "price_nzd"
_CODE_IN = re.compile(r"(?<![A-Za-z])([A-Z]{3})(?![A-Za-z])|([$€£₹])|(?:^|_)([a-z]{3})(?=_|$)")
# words before a value in its line that say what it is (the label of a row or a key)
_LABEL_CHARS = 60
# a record naming its currency as a field rather than beside each amount
_CURRENCY_FIELD = re.compile(r"\bcurrency\"?\s*[:=]\s*\"?([A-Z]{3})\b", re.I)  # also a JSON key: "currency": "EUR"
# a JSON key that names an amount: its number is money in the record's one currency, however
# many decimals the serialiser kept ("amount_due": 1335.5, "freight": 1250.0). Not a whole number:
# payment APIs send amounts in minor units ("amount": 125000 for EUR 1,250.00)
_JSON_MONEY_KEY = re.compile(r"\"[A-Za-z_ ]*(?:amount|total|price|fee|cost|charge|balance|due|paid|subtotal|tax|vat|freight|payable|net|gross)"
                             r"[A-Za-z_ ]*\"\s*:\s*$", re.I)
# a heading that names the currency of the lines under it: "Fees (GBP, excl. VAT)", "All amounts in EUR"
_CURRENCY_HEADING = re.compile(r"(?m)^[ \t]*[A-Za-z][^\d\n()]{0,60}\(([^()\n\d]{3,40})\)[ \t]*:?[ \t]*$"
                               r"|\b(?:all\s+)?amounts\s+(?:are\s+)?(?:in|expressed\s+in)\s+([A-Z]{3})\b")
# a column or label of what is not money: a two-decimal value there is a count, a measure or a rate
_NOT_MONEY = re.compile(r"\b(?:qty|quantity|quantities|hours?|hrs?|(?<!per\s)units?(?!\s*(?:price|cost|rate|fee|amount))|pcs|pieces|weight|kg|km|miles?|days?|"
                        r"rate\s*%|percent|pct|ratio|fx|exchange)\b|%", re.I)


def _in_currency_column(text: str, q: Quantity) -> bool:
    """A whole number ("84,600") under a column whose header names its currency ("Entered value
    (USD)") is an amount: the header says so once for every cell."""
    if not _WHOLE.fullmatch(q.text):
        return False
    col = column_label(text, q)
    return bool(col) and not _NOT_MONEY.search(col) and _currency_named(col) is not None


def _line(text: str, q: Quantity) -> tuple[int, int]:
    a = text.rfind("\n", 0, q.start) + 1
    b = text.find("\n", q.end)
    return a, len(text) if b < 0 else b


def _label(text: str, q: Quantity, prev_end: int) -> str:
    """The words before a value on its line, after the value before it (a row label, a key, the
    clause that names it)."""
    a, _ = _line(text, q)
    return text[max(a, prev_end, q.start - _LABEL_CHARS):q.start]


def _sign(text: str, q: Quantity) -> tuple[int, bool]:
    """(sign, written with a credit marker "CR")."""
    if q.kind == "money" and re.search(r"[-\u2212]\d", q.text):
        return -1, False  # "$-150", "USD -150.00": the minus sits inside the amount's span
    before = text[max(0, q.start - 3):q.start]
    if _OPEN.search(before) and _CLOSE.match(text, q.end) and _CELL_BEFORE.search(text, 0, text.rfind("(", 0, q.start)):
        return -1, False
    if _MINUS_BEFORE.search(text, max(0, q.start - 2), q.start):
        return -1, False
    if _CR.match(text, q.end):
        return -1, True
    return 1, False


def _currency_named(label: str) -> str | None:
    found = set()
    for m in _CODE_IN.finditer(label):
        if m.group(1) and m.group(1) in CURRENCY_CODES:
            found.add(m.group(1))
        elif m.group(2):
            found.add(CURRENCY_SYMBOL[m.group(2)])
        elif m.group(3) and m.group(3).upper() in CURRENCY_CODES:
            found.add(m.group(3).upper())
    return found.pop() if len(found) == 1 else None


def _record_amount(text: str, q: Quantity, label: str) -> bool:
    """Whether a two-decimal number stands where an amount would: not a measure, and neither its
    column header nor its label names a count, a measure or a rate."""
    return measure(text, q) is None and not _NOT_MONEY.search(column_label(text, q)) and not _NOT_MONEY.search(label[-25:])


def apply_signs(text: str, qs: list[Quantity]) -> list[Quantity]:
    """The quantities of ``text`` with their sign, deduction label and, for an amount in a money
    column, its currency."""
    currencies = {q.unit for q in qs if q.kind == "money"}
    # amounts under a currency column ("amount_gbp") count too: the batch total below the table is one of them
    currencies |= {c for q in qs if q.kind == "number" and q.unit != "ref" and _BARE_AMOUNT.fullmatch(q.text)
                   and (c := _currency_named(column_label(text, q)))}
    only = next(iter(currencies)) if len(currencies) == 1 else None
    if not currencies:
        named = {c.upper() for rx in (_CURRENCY_FIELD, _CURRENCY_HEADING) for m in rx.finditer(text)
                 for c in re.findall(r"\b[A-Z]{3}\b", next(g for g in m.groups() if g))} & set(CURRENCY_CODES)
        only = named.pop() if len(named) == 1 else None
    out = []
    prev_end = 0
    for q in qs:
        prev_end, at = q.end, prev_end
        if q.kind not in ("money", "number") or q.unit == "ref" or q.per is not None:
            out.append(q)
            continue
        amount = (q.kind == "money" or bool(_BARE_AMOUNT.fullmatch(q.text)) or _in_currency_column(text, q)
                  or (only is not None and "." in q.text and _JSON_MONEY_KEY.search(text, max(0, q.start - _LABEL_CHARS), q.start) is not None))
        if not amount:
            out.append(q)
            continue
        sign, cr = _sign(text, q)
        label = _label(text, q, at)
        deduct = cr or bool(DEDUCT_RE.search(label)) and (sign < 0 or q.kind == "money")
        if q.kind == "number":
            cur = _currency_named(column_label(text, q)) or _currency_named(label)
            if cur is None and only is not None and (sign < 0 or _record_amount(text, q, label)):
                cur = only  # an amount among amounts of one currency is one of them
            if cur is not None:
                q = replace(q, kind="money", unit=cur)
        out.append(replace(q, sign=sign, deduct=deduct) if (sign, deduct) != (1, False) else q)
    return out
