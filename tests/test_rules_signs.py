"""Accounting negatives (runtime/verify/rules/signs.py) and sums of three or more operands
(runtime/verify/rules/arithmetic.py). Every example here is invented for this file."""

from __future__ import annotations

from decimal import Decimal

import pytest

from warrant.runtime.verify.rules import check_rules, extract_quantities
from warrant.runtime.verify.rules.anchors import derived_support
from warrant.runtime.verify.rules.arithmetic import MAX_TERMS, readings

BOAT = ("SALES CONTRACT SC-4471 - Harbour Marine\n"
        "Hull price: GBP 64,500.00\n"
        "Trade-in allowance: (3,000.00)\n"
        "Balance payable: GBP 61,500.00")


def amounts(text: str):
    return [(q.text, q.unit, q.sign, q.deduct) for q in extract_quantities(text) if q.kind == "money"]


@pytest.mark.parametrize("text, expected", [
    ("Refund issued: ($150.00)", [("$150.00", "USD", -1, True)]),
    ("Rebate -$150 applied.", [("$150", "USD", -1, True)]),
    ("Adjustment $-150 posted.", [("$-150", "USD", -1, True)]),
    ("Deposit 2 March  150.00 CR\nOpening balance $900.00", [("150.00", "USD", -1, True), ("$900.00", "USD", 1, False)]),
    ("Fees | USD -42.50", [("USD -42.50", "USD", -1, False)]),
    # a bare figure whose minus opens its cell, in a record of one currency
    ("Currency: USD\nPayment #88  03/12/2026    -2,150.00\nKorrektur: -1,234.50",
     [("2,150.00", "USD", -1, False), ("1,234.50", "USD", -1, False)]),
    # a range and an identifier are not negatives
    ("Budget $100-$150 for order ORD-150.", [("$100", "USD", 1, False), ("$150", "USD", 1, False)]),
    ("Currency: USD\nOrder ORD-150 covers items 100-150.", []),
])
def test_negative_amounts_are_read_with_their_sign(text, expected):
    assert amounts(text) == expected


def test_a_bare_amount_in_a_currency_column_is_money():
    table = "| Item | Amount (EUR) |\n|---|---|\n| Survey | 1,250.00 |\n| Credit note | (250.00) |"
    assert amounts(table) == [("1,250.00", "EUR", 1, False), ("250.00", "EUR", -1, True)]
    # no currency anywhere: still a number, but a negative one
    [q] = [q for q in extract_quantities("Net movement: (250.00)") if q.unit != "ref"]
    assert (q.kind, q.sign, q.signed) == ("number", -1, Decimal("-250.00"))


def test_a_whole_number_under_a_currency_column_is_money_and_a_count_column_is_not():
    table = ("Line  Description        Cartons   Declared value (USD)   Rate\n"
             "1     Garden hoses          120               14,200     2.5%\n"
             "2     Hose reels             40                6,350     3.0%")
    got = [(q.text, q.kind, q.unit) for q in extract_quantities(table) if q.kind in ("money", "number") and q.unit != "ref"]
    assert ("14,200", "money", "USD") in got and ("6,350", "money", "USD") in got
    assert ("120", "number", None) in got and ("40", "number", None) in got  # cartons stay counts
    # so a claim adding the column is computed in its currency, and a wrong sum is not
    assert derived_support("The two lines have a combined declared value of $20,550.", table)
    assert derived_support("The two lines have a combined declared value of $20,500.", table) is None
    # a sum the record also writes bare, beside what is left after a deduction, is a stated figure of
    # some slot: whether the claim names that slot is not arithmetic's to say
    settled = table + "\n\nTotal declared: 20,550. Less deposit paid: 5,000. Balance due: 15,550."
    assert derived_support("The buyer still owes $20,550 on these lines.", settled) is None
    # "per unit" in a header names a price's denominator, not a count of units
    rent = "Currency: GBP\n\n| Asset | Qty | Monthly rent per unit |\n|---|---|---|\n| Forklift | 2 | 410.00 |"
    assert [(q.text, q.unit) for q in extract_quantities(rent) if q.kind == "money"] == [("410.00", "GBP")]


def test_a_magnitude_claim_meets_a_labelled_negative():
    # the bare "(3,000.00)" among amounts in GBP is a negative amount in GBP
    assert check_rules("The trade-in allowance is GBP 3,000.", BOAT).status == "agree"
    assert check_rules("The trade-in allowance is GBP 3,500.", BOAT).status == "conflict"
    # AED is no currency code here: both sides are plain numbers, the allowance a negative one
    plain = BOAT.replace("GBP", "AED")
    assert check_rules("The trade-in allowance is AED 3,000.", plain).status == "agree"


def test_an_unlabelled_negative_never_decides_a_positive_claim():
    # "(420.00)" on a line that says nothing of a credit: the sign may matter, so neither way
    ev = "ACCOUNT SUMMARY\nClosing position: (GBP 420.00)"
    assert check_rules("The closing position is GBP 420.", ev).status == "absent"
    assert check_rules("The closing position is GBP 510.", ev).status == "absent"
    assert check_rules("The trade-in allowance is GBP 420.", "Trade-in allowance: (GBP 420.00)").status == "agree"


def test_a_total_that_subtracts_a_credit_is_computed_with_its_sign():
    ev = "| Line | Amount |\n|---|---|\n| Desk | $420.00 |\n| Chair | $180.00 |\n| Return credit | ($150.00) |"
    used = derived_support("The amounts on the invoice total $450.", ev)
    assert used and used[0].value == Decimal("450.00")
    # the magnitudes added (a credit counted as a charge) is a false total, never supported
    assert derived_support("The amounts on the invoice total $750.", ev) is None


def test_a_credit_is_never_a_difference_of_magnitudes():
    ev = "Order subtotal: $500.00\nVoucher: ($50.00)"
    h = "The order subtotal and voucher come to $550."
    hq = [q for q in extract_quantities(h) if q.kind == "money"][0]
    assert readings(h, hq, ev, extract_quantities(ev)) == []
    assert derived_support("The order subtotal and voucher come to $450.", ev)


def test_a_rate_times_its_count_plus_an_amount():
    ev = "Repair order RO-88. Labour: 6 hours at $85 per hour. Parts: $240."
    used = derived_support("Labour of 6 hours at $85 per hour plus parts of $240 comes to $750.", ev)
    assert used and "6 hours x $85" in used[0].how
    assert derived_support("Labour of 6 hours at $85 per hour plus parts of $240 comes to $760.", ev) is None


def test_three_named_parts_add_up():
    ev = "Monthly costs: rent $1,200, utilities $180 and insurance $95."
    assert derived_support("Rent, utilities and insurance together come to $1,475.", ev)
    assert derived_support("Rent, utilities and insurance together come to $1,485.", ev) is None


def test_a_counted_list_adds_up_only_at_its_count():
    ev = "Quote Q-12\nLine items:\nShelving: $640\nDesks: $910\nLamps: $85"
    used = derived_support("The three line items total $1,635.", ev)
    assert used and len(used[0].operands) == 3
    assert derived_support("The two line items total $1,635.", ev) is None
    assert derived_support("The three line items total $1,645.", ev) is None


def test_two_sets_of_operands_giving_the_total_are_no_reading():
    # $300 + $200 + $100 and $400 + $200 both give $600: two stories, so no support
    ev = "Fees: setup fee $300, hosting fee $200, support fee $100, training fee $400."
    assert derived_support("The setup fee, hosting fee and support fee come to $600.", ev) is None


def test_a_long_table_does_not_search_every_subset():
    rows = "\n".join(f"| Part {i} | fee | ${100 + i}.00 |" for i in range(30))
    ev = "| Part | Kind | Amount |\n|---|---|---|\n" + rows
    h = "The fees for the parts come to $12,345.00 in total."
    hq = [q for q in extract_quantities(h) if q.kind == "money"][0]
    assert len(extract_quantities(ev)) > MAX_TERMS
    assert readings(h, hq, ev, extract_quantities(ev)) == []


def test_the_model_reads_a_minus_inside_an_amount():
    from warrant.runtime.verify.rules import canonical_text

    assert canonical_text("Adjustment $-150 posted.") == "Adjustment USD -150.00 posted."
    assert canonical_text("Refund ($150.00)") == "Refund (USD 150.00)"


def test_a_parenthesised_amount_in_prose_is_an_aside_not_a_negative():
    ev = "Late cancellation: 40% of the room block ($2,150.00) is charged."
    [q] = [q for q in extract_quantities(ev) if q.kind == "money"]
    assert q.sign == 1
    assert check_rules("Late cancellation of the room block is charged $2,150.", ev).status == "agree"


def test_a_numbered_thing_is_no_count_of_addends():
    from warrant.runtime.verify.rules.arithmetic import stated_count

    h = "Phase 2 and phase 3 together cost $9,000."
    assert stated_count(h, extract_quantities(h)[-1]) is None


@pytest.mark.parametrize("text, expected", [
    # a record whose amounts are all in one currency: its two-decimal figures are amounts too
    ("Rate (USD/day): 180\nLodging: 3 nights x 180 = 540.00\nTotal due: USD 540.00", [("540.00", "money", "USD")]),
    # a register that names its currency once, as a field, and states no amount with it
    ("# export currency=SEK run=R-12\nname  gross\nAnna Berg  31,250.00", [("31,250.00", "money", "SEK")]),
    # a measure, a count of hours, and a record with two currencies stay numbers
    ("Net weight: 12.50 kg\nFreight: EUR 95.00", [("12.50", "number", None)]),
    ("Qty: 37.50\nSalary: GBP 2,400.00 a month", [("37.50", "number", None)]),
    ("Paid: USD 100.00 and GBP 80.00\nFee: 12.00", [("12.00", "number", None)]),
])
def test_a_bare_amount_in_a_record_of_one_currency_is_money_in_it(text, expected):
    bare = [q for q in extract_quantities(text) if q.text in {t for t, _, _ in expected}]
    assert [(q.text, q.kind, q.unit) for q in bare] == expected


def test_a_heading_naming_one_currency_makes_the_amounts_under_it_money():
    ev = ("VENUE HIRE - No. VH-88\nFees (GBP, excl. VAT)\nGreat Hall hire            6,800.00\n"
          "AV package                   975.00\nTotal fees                 7,775.00\n")
    got = [(q.kind, q.unit, q.value) for q in extract_quantities(ev) if q.unit != "ref"]
    assert ("money", "GBP", Decimal("975.00")) in got and ("money", "GBP", Decimal("7775.00")) in got
    # a fixed-width amount with a thousands comma is one number, not two CSV fields
    assert ("money", "GBP", Decimal("6800.00")) in got
    # "(excl. VAT)" alone names no currency
    got = [(q.kind, q.unit) for q in extract_quantities("Fees (excl. VAT)\nAV package                   975.00\n")]
    assert ("money", "GBP") not in got and all(k == "number" for k, _ in got)


def test_a_json_amount_is_money_in_the_currency_the_record_names_once():
    ev = '{"invoice": "INV-7", "currency": "EUR", "amount_due": 1335.5, "freight": 1250.0, "lines": 3, "weight_kg": 1200.5}'
    got = {q.text: (q.kind, q.unit) for q in extract_quantities(ev)}
    # the serialiser dropped the trailing zero; the key says it is an amount, the record its currency
    assert got["1335.5"] == ("money", "EUR") and got["1250.0"] == ("money", "EUR")
    assert got["3"] == ("number", None) and got["1200.5"] == ("number", None)  # a count and a measure stay numbers
    assert check_rules("Invoice INV-7 has EUR 1,335.50 due.", ev).status == "agree"
    assert check_rules("Invoice INV-7 has EUR 1,435.50 due.", ev).status == "conflict"


def test_a_whole_json_amount_may_be_in_minor_units_and_is_left_a_number():
    ev = '{"amount": 125000, "amount_unit": "minor", "currency": "EUR", "amount_refunded": 37500}'
    assert [(q.kind, q.unit) for q in extract_quantities(ev)] == [("number", None), ("number", None)]
    assert check_rules("After the refund, EUR 875 of the payment was retained.", ev).status != "conflict"
