"""Tests for runtime.verify.rules: extraction, normalisation, comparison and negation rules."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest

from warrant.runtime.verify.rules import (
    Quantity,
    QuantityCheck,
    check_negation,
    check_quantities,
    check_rules,
    extract_quantities,
)

D = Decimal


def one(text: str, kind: str | None = None) -> Quantity:
    qs = [q for q in extract_quantities(text) if kind is None or q.kind == kind]
    assert len(qs) == 1, qs
    return qs[0]


# --------------------------------------------------------------------------------------------
# extraction and normalisation
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, value, currency",
    [
        ("Total: $1,200", D(1200), "USD"),
        ("Total: $1,200.00", D(1200), "USD"),
        ("Total: 1200 USD", D(1200), "USD"),
        ("Total: USD 1,200.00", D(1200), "USD"),
        ("Total: US$1,200", D(1200), "USD"),
        ("Total: USD $1,200", D(1200), "USD"),
        ("about 1.2k dollars", D(1200), "USD"),
        ("a budget of $1.2 million", D(1200000), "USD"),
        ("a cap of $2m", D(2000000), "USD"),
        ("€45.00", D(45), "EUR"),
        ("EUR 2,250.00", D(2250), "EUR"),
        ("45 euros", D(45), "EUR"),
        ("£180 per night", D(180), "GBP"),
        ("GBP 2,500", D(2500), "GBP"),
        ("12,300 zł", D(12300), "PLN"),
        ("PLN 12,300.00", D(12300), "PLN"),
        ("five hundred dollars", D(500), "USD"),
    ],
)
def test_money_normalisation(text, value, currency):
    q = one(text, "money")
    assert q.value == value
    assert q.unit == currency
    assert text[q.start:q.end] == q.text


def test_money_rate_suffix_is_kept():
    assert one("billed at $250 per hour", "money").per == "hour"
    assert one("EUR 180.00/h", "money").per == "hour"
    assert one("a fee of $300 an hour", "money").per == "hour"
    assert one("a fee of $2,500 monthly", "money").per == "month"
    assert one("a fee of $2,500", "money").per is None


@pytest.mark.parametrize(
    "text",
    [
        "30 June 2026",
        "2026-06-30",
        "June 30, 2026",
        "June 30 2026",
        "Jun 30, 2026",
        "30/06/2026",
        "30.06.2026",
        "30th of June, 2026",
        "30th June 2026",
        "06/30/2026",  # month-first is the only valid reading
        "2026/06/30",
    ],
)
def test_date_formats(text):
    q = one(text, "date")
    assert q.value == datetime.date(2026, 6, 30)
    assert q.alt == ()


def test_ambiguous_numeric_date_keeps_both_readings():
    q = one("Order date: 05/06/2026", "date")
    assert q.value == datetime.date(2026, 6, 5)  # day-first by default
    assert q.alt == (datetime.date(2026, 5, 6),)
    # either reading agrees, and a date matching neither conflicts
    assert check_quantities("The order is dated 5 June 2026.", "Order date: 05/06/2026.").status == "agree"
    assert check_quantities("The order is dated 6 May 2026.", "Order date: 05/06/2026.").status == "agree"
    assert check_quantities("The order is dated 7 May 2026.", "Order date: 05/06/2026.").status == "conflict"


def test_invalid_dates_are_not_dates():
    assert [q for q in extract_quantities("Ref 31/02/2026") if q.kind == "date"] == []


@pytest.mark.parametrize(
    "text, value",
    [("15%", D(15)), ("15 %", D(15)), ("15 percent", D(15)), ("15 per cent", D(15)), ("7.5 pct", D("7.5")),
     ("five percent", D(5))],
)
def test_percent_forms(text, value):
    q = one(text, "percent")
    assert q.value == value


def test_fraction_is_not_a_percent():
    q = one("a discount of 0.15 of list price")
    assert q.kind == "number" and q.value == D("0.15")
    assert check_quantities("The discount is 15%.", "The discount is 0.15 of list price.").status == "absent"


@pytest.mark.parametrize(
    "text, value, unit",
    [
        ("12.5 hours", D("12.5"), "hour"),
        ("12.5 h", D("12.5"), "hour"),
        ("12.5h", D("12.5"), "hour"),
        ("12.5 hrs", D("12.5"), "hour"),
        ("thirty (30) days", D(30), "day"),
        ("a 30-day notice period", D(30), "day"),
        ("Net 30", D(30), "day"),
        ("net 45 days", D(45), "day"),
        ("10 business days", D(10), "business_day"),
        ("3 weeks", D(3), "week"),
        ("24 months", D(24), "month"),
        ("two years", D(2), "year"),
        ("six minutes", D(6), "minute"),
        ("Hours logged: 38.5", D("38.5"), "hour"),
    ],
)
def test_durations(text, value, unit):
    q = one(text, "duration")
    assert (q.value, q.unit) == (value, unit)


def test_duration_conversions_agree():
    assert check_quantities("The work took 12.5 h.", "The work took 12.5 hours.").status == "agree"
    assert check_quantities("Lead time is 21 days.", "Lead time is 3 weeks.").status == "agree"
    assert check_quantities("The warranty lasts 2 years.", "The warranty lasts 24 months.").status == "agree"
    assert check_quantities("Increments of 6 minutes.", "Increments of 0.1 hour.").status == "agree"


def test_incomparable_duration_families_are_never_a_conflict():
    # a working day is not 24 hours, and 30 days is not 30 business days: undecided, not conflict
    assert check_quantities("Response takes 1 day.", "Response takes 24 hours.").status == "absent"
    assert check_quantities("Notice of 30 days.", "Notice of 30 business days.").status == "absent"


def test_identifiers_are_refs_not_amounts():
    qs = extract_quantities("Line item 14 on invoice INV-4421, Section 7.2 of PO-2026-118, Severity 1.")
    assert [q.unit for q in qs] == ["ref"] * 5
    assert all(q.op is None for q in qs)


def test_clock_times_and_number_words_alone_are_ignored():
    assert extract_quantities("Calls at 5:00 pm; one of the parties.") == []


def test_offsets_are_exact():
    text = "The rate is $250 per hour and the cap is 5% from 1 July 2026."
    for q in extract_quantities(text):
        assert text[q.start:q.end] == q.text


# --------------------------------------------------------------------------------------------
# comparators
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, op, frame",
    [
        ("exceeds $250", ">", "value"),
        ("more than 40 hours", ">", "value"),
        ("in excess of 40 hours", ">", "value"),
        ("below the cap of 5%", "<", "value"),
        ("before 1 July 2026", "<", "value"),
        ("after 1 July 2026", ">", "value"),
        ("no later than 30 June 2026", "<=", "limit"),
        ("on or before 30 June 2026", "<=", "limit"),
        ("by 30 June 2026", "<=", "limit"),
        ("shall not exceed $10,000", "<=", "limit"),
        ("not to exceed $10,000", "<=", "limit"),
        ("no more than 40 hours", "<=", "limit"),
        ("not less than sixty (60) days", ">=", "limit"),
        ("at least 30 days", ">=", "limit"),
        ("up to $250 per night", "<=", "limit"),
        ("capped at €320", "<=", "limit"),
        ("In no event shall aggregate liability exceed USD 2,000,000", "<=", "limit"),
        ("40 hours or more", ">=", "value"),
        ("within 30 days", None, "value"),
        ("the hourly rate is $400", None, "value"),
        ("the cap is $400", None, "limit"),
        ("sixty (60) days' written notice", None, "limit"),
    ],
)
def test_comparator_detection(text, op, frame):
    q = [q for q in extract_quantities(text) if q.unit != "ref"][0]
    assert (q.op, q.frame) == (op, frame)


def test_nearest_comparator_wins():
    q = one("Aggregate liability under the agreement is capped at $2 million.", "money")
    assert (q.op, q.frame) == ("<=", "limit")


@pytest.mark.parametrize(
    "hyp, ev, status",
    [
        ("Smith worked more than 40 hours in week 12.", "Week 12 timesheet: Smith worked 42.5 hours.", "agree"),
        ("Smith worked more than 40 hours in week 12.", "Week 12 timesheet: Smith worked 38 hours.", "conflict"),
        ("The late fee is below 5%.", "The late fee is 1.5% per month.", "agree"),
        ("The late fee is below 5%.", "The late fee is 6% per month.", "conflict"),
        ("The goods were delivered before 1 July 2026.", "The goods were delivered on 18 June 2026.", "agree"),
        ("The goods were delivered before 1 July 2026.", "The goods were delivered on 3 July 2026.", "conflict"),
        ("The rate billed exceeds $250.", "The rate billed is $300 per hour.", "agree"),
        ("The rate billed exceeds $250.", "The rate billed is $200 per hour.", "conflict"),
        # the evidence quotes the threshold itself: neutral, never a conflict
        ("The rate billed exceeds the cap of $250.", "The cap is $250 per hour.", "absent"),
        ("The rate billed exceeds $250.", "The rate billed is $250 per hour.", "absent"),
        # two stated thresholds must be the same threshold
        ("Fees are capped at $10,000.", "Fees shall not exceed $10,000.", "agree"),
        ("Fees are capped at $12,000.", "Fees shall not exceed $10,000.", "conflict"),
        ("Notice must be given by 1 November 2026.", "Notice must be given no later than 1 October 2026.", "conflict"),
        # a cap says nothing about the actual value billed (an invoice can break it)
        ("The rate billed is $425 per hour.", "The engagement letter caps the rate at $400 per hour.", "absent"),
        ("The rate billed is $350 per hour.", "The engagement letter caps the rate at $400 per hour.", "absent"),
    ],
)
def test_comparisons(hyp, ev, status):
    assert check_quantities(hyp, ev).status == status


def test_exceed_versus_not_exceed_is_left_to_the_negation_rule():
    # "may exceed" (a comparison) against "shall not exceed" (a cap): the quantity rule does not
    # decide it (the same shape is an invoice breaking its cap), the polarity rule does
    hyp, ev = "Fees may exceed $10,000.", "Fees may not exceed $10,000."
    assert check_quantities(hyp, ev).status == "absent"
    assert check_rules(hyp, ev).status == "conflict"
    hyp2, ev2 = "Line 14 bills a rate above the $400 cap.", "The hourly rate is capped at $400."
    assert check_rules(hyp2, ev2).status != "conflict"


# --------------------------------------------------------------------------------------------
# check_quantities: agree / conflict / absent
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "hyp, ev",
    [
        ("The invoice total is 1200 USD.", "Invoice total: $1,200.00 (including VAT)."),
        ("The invoice total is USD 1,200.00.", "Invoice total: 1200 USD."),
        ("The invoice total is 1.2k dollars.", "Invoice total: $1,200."),
        ("The Effective Date is 2026-06-30.", "This Agreement is effective from 30 June 2026."),
        ("The Effective Date is June 30, 2026.", "Effective Date: 30/06/2026."),
        ("The late fee is 15 percent.", "A late fee of 15% applies."),
        ("Payment is due within 30 days.", "Payment terms: Net 30."),
        ("Termination requires 60 days' notice.", "Either party may terminate on sixty (60) days' notice."),
        ("The retainer is $15k.", "The Retainer of USD 15,000 is payable on signature."),
    ],
)
def test_reformatted_values_agree(hyp, ev):
    r = check_quantities(hyp, ev)
    assert r.status == "agree", r.reason
    assert isinstance(r, QuantityCheck) and r.hypothesis is not None and r.evidence is not None
    assert ev[r.evidence.start:r.evidence.end] == r.evidence.text


def test_conflict_reason_and_offsets():
    ev = "Time entries: J. Smith, 6.0 hours at $250.00 per hour, total $1,500.00."
    r = check_quantities("J. Smith billed USD 300 per hour.", ev)
    assert r.status == "conflict"
    assert r.hypothesis.value == D(300) and r.evidence.value == D(250)
    assert ev[r.evidence.start:r.evidence.end] == "$250.00"
    assert "USD 300.00 per hour" in r.reason and "USD 250.00" in r.reason and "chars" in r.reason


@pytest.mark.parametrize(
    "hyp, ev",
    [
        ("The invoice total is 1300 USD.", "Invoice total: $1,200.00."),
        ("The invoice total is $12,000.", "Invoice total: $1,200.00."),  # thousands separator slip
        ("The monthly fee is USD 2,500.", "The monthly fee is £2,500 plus VAT."),  # currency swap
        ("The late payment charge is 1.5% per annum.", "A late payment charge of 1.5% per month applies."),
        ("The rate is $250 per day.", "The rate is $250 per hour."),
        ("Payment is due within 45 days.", "Payment terms: Net 30."),
        ("The effective date is 1 June 2026.", "Effective date: 2026-07-01."),
        ("The effective date is 1 July 2025.", "Effective date: 2026-07-01."),  # year slip
        ("The warranty lasts 12 months.", "The warranty lasts two years."),
        ("VAT is charged at 8 percent.", "VAT (23%): PLN 2,300.00."),
    ],
)
def test_mismatches_conflict(hyp, ev):
    r = check_quantities(hyp, ev)
    assert r.status == "conflict", r.reason


def test_multiple_quantities_one_mismatch():
    ev = "Line 7: Document review, 12.5 h @ EUR 180.00/h = EUR 2,250.00"
    assert check_quantities("Line 7 bills 12.5 hours at EUR 180 per hour.", ev).status == "agree"
    r = check_quantities("Line 7 bills 12.5 hours at EUR 190 per hour.", ev)
    assert r.status == "conflict" and r.hypothesis.value == D(190)
    r = check_quantities("Line 7 bills 14 hours at EUR 180 per hour.", ev)
    assert r.status == "conflict" and r.hypothesis.value == D(14)


def test_every_quantity_must_be_found_for_agree():
    ev = "The monthly fee is $2,500."
    # the fee agrees but the date is not in the evidence at all: absent, not agree
    assert check_quantities("The monthly fee is $2,500 from 1 July 2026.", ev).status == "absent"


def test_date_in_another_role_is_not_agreement():
    ev = "Invoice dated 1 March 2026, due 31 March 2026."
    r = check_quantities("The invoice is due on 1 March 2026.", ev)
    assert r.status == "conflict" and r.evidence.value == datetime.date(2026, 3, 31)
    assert check_quantities("The invoice is due on 31/03/2026.", ev).status == "agree"
    assert check_quantities("The invoice is dated 1 March 2026.", ev).status == "agree"


def test_date_in_unrelated_role_is_not_a_conflict():
    ev = "This Agreement is effective from 1 January 2026 and expires on 31 December 2026."
    assert check_quantities("The agreement was signed on 2 January 2026.", ev).status == "absent"
    ev2 = "Invoice Date: 2026-03-15\nDue Date: 2026-04-14"
    assert check_quantities("The invoice was sent to the client on 20 March 2026.", ev2).status == "absent"


def test_same_value_for_a_different_thing_is_not_agreement():
    ev = "Per diem for domestic travel is $75; the per diem for international travel is $110."
    assert check_quantities("The international travel per diem is $110.", ev).status == "agree"
    assert check_quantities("The domestic travel per diem is $110.", ev).status == "conflict"
    ev2 = "Net amount: PLN 10,000.00. VAT (23%): PLN 2,300.00. Gross amount: PLN 12,300.00."
    assert check_quantities("The gross amount is 12,300 zł.", ev2).status == "agree"
    assert check_quantities("The net amount is PLN 12,300.00.", ev2).status == "conflict"


@pytest.mark.parametrize(
    "hyp, ev",
    [
        # no quantities in the hypothesis
        ("The invoice was issued by Northwind Traders Ltd.", "Vendor: Northwind Traders Ltd. Total: $300."),
        # the evidence has no quantity of that kind
        ("Invoice INV-2291 was paid on 3 May 2026.", "Invoice INV-2291. Total due: $1,200.00."),
        # a value of the same kind but nothing ties it to the same thing
        ("The engagement requires a retainer of $5,000.", "Partner time is billed at $450 per hour."),
        # percent vs plain number: different kinds
        ("The discount is 15%.", "Discount factor: 0.15."),
        # a different line item
        ("Line item 10 records 4 hours of travel.", "Line item 9: 16.0 hours, contract review."),
    ],
)
def test_absent_when_rules_cannot_decide(hyp, ev):
    assert check_quantities(hyp, ev).status == "absent"


def test_identifiers_alone_never_agree():
    ev = "Expense report ER-3381. Submitted by: L. Brandt. Approved by: M. Okafor."
    assert check_quantities("Expense report ER-3381 was approved by L. Brandt.", ev).status == "absent"


# --------------------------------------------------------------------------------------------
# negation
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "hyp, ev",
    [
        ("The retainer is not refundable.", "The retainer is refundable."),
        ("The retainer is refundable.", "The retainer is non-refundable."),
        ("The fee is payable.", "The fee is not payable."),
        ("The fee is not payable.", "The fee is payable."),
        ("Fees shall exceed the budget.", "Fees shall not exceed the budget."),
        ("A mark-up may be applied to disbursements.", "No mark-up may be applied to disbursements."),
        ("Travel time is charged to the client.", "Travel time isn't charged to the client."),
        ("The Supplier is liable for consequential losses.", "The Supplier shall never be liable for consequential losses."),
        ("Travel time is not billable.", "Travel time is billable, but meals are not reimbursable."),
        # same condition on both sides: the flip is real
        ("A cancellation fee applies if the booking is cancelled late.",
         "No cancellation fee applies if the booking is cancelled late."),
    ],
)
def test_negation_flip_conflicts(hyp, ev):
    assert check_negation(hyp, ev).status == "conflict"
    assert check_rules(hyp, ev).status == "conflict"


@pytest.mark.parametrize(
    "hyp, ev",
    [
        # same polarity
        ("The retainer is not refundable.", "The retainer is not refundable under any circumstances."),
        # the hypothesis drops the exception: not a flip the rule can judge
        ("Late fees are charged when payment is late.", "Late fees are not charged unless payment is late."),
        ("Weekend work is not billable.", "Weekend work is billable when pre-approved by the Client."),
        # comparator wording is not polarity
        ("The services must be completed by 30 September 2026.",
         "The services shall be completed no later than 30 September 2026."),
        # too different to be the same clause
        ("Taxi fares are reimbursable.", "Alcoholic beverages are not reimbursable."),
        # a 'non-' word elsewhere in the clause
        ("The initial term ends on 31 December 2027.",
         "The initial term ends on December 31, 2027, and renews unless either party gives notice of non-renewal."),
        # a field's label: its value (zero, none) says whether there are any, not a negator
        ("There were no rejected pallets.", "Pallets received: 40\nRejected pallets: none"),
        ("There were no rejected pallets.", '{"pallets_received": 40, "rejected pallets": 0}'),
    ],
)
def test_negation_no_false_conflicts(hyp, ev):
    assert check_negation(hyp, ev).status != "conflict"
    assert check_rules(hyp, ev).status != "conflict"


def test_negation_agree_on_same_polarity():
    assert check_negation("The retainer is not refundable.", "The retainer is not refundable.").status == "agree"


# --------------------------------------------------------------------------------------------
# check_rules: the folded answer
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "hyp, ev",
    [
        # true claims that must never be called contradicted
        ("The total due on invoice INV-2291 is 1200 USD.", "Invoice INV-2291. Total due: $1,200.00 (USD)."),
        ("Associate time is billed at 275 USD per hour.",
         "Partner time is billed at $450 per hour; associate time is billed at $275 per hour."),
        ("After the 10% discount the total is $8,820.", "Subtotal: $9,800.00\nDiscount (10%): -$980.00\nTotal: $8,820.00"),
        ("20 units are back-ordered under GRN-4471.",
         "GRN-4471: 180 of 200 units received in good condition; 20 units back-ordered."),
        ("Aggregate liability is capped at $2 million.",
         "In no event shall either party's aggregate liability exceed USD 2,000,000."),
        ("The goods were delivered before the 31 May 2026 deadline.",
         "Goods were delivered on 18 May 2026; the contractual delivery deadline was 31 May 2026."),
        ("Line 14 bills an hourly rate above $400.",
         "The engagement letter caps the hourly rate at $400. Line 14 bills 3.0 hours at $425 per hour."),
        ("The Services commence before 1 April 2026.",
         "The Services will commence on 2 March 2026 and shall be completed no later than 30 September 2026."),
        ("Overtime applies to hours worked beyond 40 hours per week.",
         "Overtime is payable for hours worked in excess of 40 hours per week."),
        ("Expenses above $500 need Finance Director approval.",
         "Any single expense over $500 requires the approval of a Finance Director."),
        ("Either party may terminate on 60 days' written notice.",
         "Either party may terminate by giving sixty (60) days' prior written notice."),
        ("The service was performed on 30 June 2026.", "Date of service: 06/30/2026."),
        ("The Phase 2 budget is $85k.", "Approved budget for Phase 2: $85,000."),
    ],
)
def test_true_claims_are_never_conflict(hyp, ev):
    r = check_rules(hyp, ev)
    assert r.status != "conflict", r.reason


@pytest.mark.parametrize(
    "hyp, ev",
    [
        # the evidence is about something else: the hypothesis subject never appears in it
        ("Airport parking is reimbursed up to $30 per day.", "Hotel accommodation is reimbursed up to $250 per night."),
        ("Express delivery takes 5 days from receipt of the order.",
         "Standard delivery lead time is 3 weeks from receipt of the purchase order."),
        # a name the evidence never mentions
        ("Globex's hourly rate is $300.", "Acme's hourly rate is $250."),
    ],
)
def test_rules_stay_absent_for_other_subjects(hyp, ev):
    assert check_rules(hyp, ev).status == "absent"


def test_rules_agree_needs_words_and_names():
    ev = "The Client shall pay a fixed monthly fee of £2,500 plus VAT."
    assert check_rules("The Client shall pay a fixed monthly fee of GBP 2,500 plus VAT.", ev).status == "agree"
    # same amount but a word the evidence never uses ("includes"): not agree
    assert check_rules("The fixed monthly fee of £2,500 includes VAT.", ev).status == "absent"
    ev2 = "Timesheet 3 June 2026: 6.5 hours by associate D. Moreau."
    assert check_rules("On 3 June 2026 associate P. Lindqvist recorded 6.5 hours.", ev2).status == "absent"


def test_rules_conflicts_on_quantity_and_on_negation():
    assert check_rules("The total due is $1,300.", "Total due: $1,200.00.").status == "conflict"
    r = check_rules("The $500 deposit is refundable.", "The $500 deposit is non-refundable.")
    assert r.status == "conflict" and "opposite" in r.reason


def test_empty_and_plain_text():
    assert check_quantities("", "").status == "absent"
    assert check_rules("Nothing here.", "Nothing there.").status == "absent"
    assert extract_quantities("") == []


# --------------------------------------------------------------------------------------------
# held-out pairs (written after the rules were tuned on tests/data/verifier_pairs.jsonl)
# --------------------------------------------------------------------------------------------

HELD_OUT_TRUE = [
 ("The invoice total of $4,200 includes $700 of VAT.", "Invoice INV-88. Net: $3,500.00. VAT (20%): $700.00. Total: $4,200.00."),
 ("VAT on invoice INV-88 is 20%.", "Invoice INV-88. Net: $3,500.00. VAT (20%): $700.00. Total: $4,200.00."),
 ("The net amount on INV-88 is $3,500.", "Invoice INV-88. Net: $3,500.00. VAT (20%): $700.00. Total: $4,200.00."),
 ("The hourly cap is $400.", "Rates: partners $450/h; associates $300/h. The engagement letter caps all rates at $400 per hour."),
 ("Associates are billed at $300 per hour.", "Rates: partners $450/h; associates $300/h. The engagement letter caps all rates at $400 per hour."),
 ("Partner rates exceed the $400 cap.", "Rates: partners $450/h; associates $300/h. The engagement letter caps all rates at $400 per hour."),
 ("The contract runs for 36 months from 1 January 2026.", "Term: thirty-six (36) months commencing 1 January 2026."),
 ("The term commences on 2026-01-01.", "Term: thirty-six (36) months commencing 1 January 2026."),
 ("The late fee is charged after 15 days.", "If payment is not received within 15 days of the due date, a late fee of 2% of the overdue amount is charged."),
 ("The late fee equals 2% of the overdue amount.", "If payment is not received within 15 days of the due date, a late fee of 2% of the overdue amount is charged."),
 ("Smith billed 9.5 hours on 4 March 2026.", "04/03/2026 - J. Smith - 9.5h - review of disclosure bundle"),
 ("The review on 4 March 2026 took 9.5 hours.", "04/03/2026 - J. Smith - 9.5h - review of disclosure bundle"),
 ("The deposit of 30% is due within 7 days of signing.", "A deposit of 30% of the order value is payable within seven (7) days of signing; the balance is due on delivery."),
 ("Orders over 500 units get a 5% discount.", "Discount schedule: 2% for orders of 100-499 units; 5% for orders over 500 units."),
 ("Orders of 100-499 units get a 2% discount.", "Discount schedule: 2% for orders of 100-499 units; 5% for orders over 500 units."),
 ("The policy allows up to $50 per day for meals.", "Meals: up to $50 per day; lodging: up to $200 per night."),
 ("Lodging is reimbursed up to $200 per night.", "Meals: up to $50 per day; lodging: up to $200 per night."),
 ("The notice period for termination is 90 days.", "The Client may terminate this Agreement on ninety (90) days' written notice to the Firm."),
 ("Payment is due 30 days after the invoice date.", "All invoices are payable within thirty days of the invoice date."),
 ("The invoice dated 2 February 2026 is for $2,000.", "Invoice 2291, dated 02/02/2026, amount: USD 2,000."),
 ("The rate rose from $250 to $275 on 1 January 2026.", "With effect from 1 January 2026 the hourly rate increases from $250 to $275."),
 ("The retainer is refundable if the engagement ends before 30 June 2026.", "The retainer is refundable only if the engagement is terminated before 30 June 2026."),
 ("The consultant worked 160 hours in April 2026, above the 150-hour threshold.", "April 2026 timesheet total: 160 hours. Monthly threshold for overtime: 150 hours."),
 ("The maximum late fee is 10% of the invoice amount.", "Late fees accrue at 1% per week, up to a maximum of 10% of the invoice amount."),
 ("Late fees accrue at 1% per week.", "Late fees accrue at 1% per week, up to a maximum of 10% of the invoice amount."),
 ("Expenses under $25 do not need a receipt.", "Receipts are required for all expenses of $25 or more."),
 ("The first instalment of $10,000 was paid on 15 January 2026.", "Instalment 1: $10,000 paid 15/01/2026. Instalment 2: $10,000 due 15/04/2026."),
 ("The second instalment is due on 15 April 2026.", "Instalment 1: $10,000 paid 15/01/2026. Instalment 2: $10,000 due 15/04/2026."),
 ("The SLA credit is 5% of the monthly fee for each hour of downtime.", "Service credits: 5% of the monthly fee per hour of downtime beyond the 99.5% availability commitment."),
 ("Total liability is capped at twice the annual fees.", "Total liability shall not exceed 200% of the annual fees."),
]

HELD_OUT_FALSE = [
 ("The net amount on INV-88 is $3,800.", "Invoice INV-88. Net: $3,500.00. VAT (20%): $700.00. Total: $4,200.00."),
 ("VAT on invoice INV-88 is 23%.", "Invoice INV-88. Net: $3,500.00. VAT (20%): $700.00. Total: $4,200.00."),
 ("The invoice total is $4,900.", "Invoice INV-88. Net: $3,500.00. VAT (20%): $700.00. Total: $4,200.00."),
 ("Associates are billed at $350 per hour.", "Rates: partners $450/h; associates $300/h. The engagement letter caps all rates at $400 per hour."),
 ("The engagement letter caps all rates at $500 per hour.", "Rates: partners $450/h; associates $300/h. The engagement letter caps all rates at $400 per hour."),
 ("The term commences on 2026-02-01.", "Term: thirty-six (36) months commencing 1 January 2026."),
 ("The term is 24 months.", "Term: thirty-six (36) months commencing 1 January 2026."),
 ("The late fee equals 3% of the overdue amount.", "If payment is not received within 15 days of the due date, a late fee of 2% of the overdue amount is charged."),
 ("Smith billed 7.5 hours on 4 March 2026.", "04/03/2026 - J. Smith - 9.5h - review of disclosure bundle"),
 ("The deposit of 40% is due within 7 days of signing.", "A deposit of 30% of the order value is payable within seven (7) days of signing; the balance is due on delivery."),
 ("The deposit is payable within 14 days of signing.", "A deposit of 30% of the order value is payable within seven (7) days of signing; the balance is due on delivery."),
 ("Lodging is reimbursed up to $250 per night.", "Meals: up to $50 per day; lodging: up to $200 per night."),
 ("The Client may terminate on sixty days' written notice.", "The Client may terminate this Agreement on ninety (90) days' written notice to the Firm."),
 ("The invoice dated 2 February 2026 is for $2,200.", "Invoice 2291, dated 02/02/2026, amount: USD 2,000."),
 ("From 1 January 2026 the hourly rate is $285.", "With effect from 1 January 2026 the hourly rate increases from $250 to $275."),
 ("The hourly rate increase takes effect on 1 February 2026.", "With effect from 1 January 2026 the hourly rate increases from $250 to $275."),
 ("The April 2026 timesheet total is 150 hours.", "April 2026 timesheet total: 160 hours. Monthly threshold for overtime: 150 hours."),
 ("Late fees accrue at 2% per week.", "Late fees accrue at 1% per week, up to a maximum of 10% of the invoice amount."),
 ("The second instalment is due on 15 May 2026.", "Instalment 1: $10,000 paid 15/01/2026. Instalment 2: $10,000 due 15/04/2026."),
 ("The second instalment is $12,000.", "Instalment 1: $10,000 paid 15/01/2026. Instalment 2: $10,000 due 15/04/2026."),
 ("Receipts are not required for expenses of $25 or more.", "Receipts are required for all expenses of $25 or more."),
 ("The retainer is not refundable if the engagement is terminated before 30 June 2026.", "The retainer is refundable if the engagement is terminated before 30 June 2026."),
]


@pytest.mark.parametrize("hyp, ev", HELD_OUT_TRUE)
def test_held_out_true_claims_never_conflict(hyp, ev):
    r = check_rules(hyp, ev)
    assert r.status != "conflict", r.reason


@pytest.mark.parametrize("hyp, ev", HELD_OUT_FALSE)
def test_held_out_false_claims_conflict(hyp, ev):
    r = check_rules(hyp, ev)
    assert r.status == "conflict", r.reason


# --------------------------------------------------------------------------------------------
# regressions found by pairing every hypothesis with every other premise
# --------------------------------------------------------------------------------------------


def test_date_inside_a_period_is_not_a_conflict():
    ev = "Services rendered from 01.04.2026 to 30.04.2026 as per Statement of Work SOW-3."
    assert check_quantities("The service was performed on 15 April 2026.", ev).status != "conflict"
    assert check_quantities("The service period ended on 30 April 2026.", ev).status == "agree"
    assert check_quantities("The services were rendered from 1 March 2026.", ev).status == "conflict"
    assert check_quantities("The services were rendered until 31 May 2026.", ev).status == "conflict"
    q1, q2 = [q for q in extract_quantities(ev) if q.kind == "date"]
    assert (q1.frame, q2.frame) == ("range_start", "range_end")


def test_a_true_deadline_next_to_another_deadline_is_not_a_conflict():
    ev = "Early payment discount: 2% if paid within 10 days, otherwise the full amount is due within 30 days."
    assert check_rules("Invoices must be paid within 30 days of the invoice date.", ev).status != "conflict"


def test_short_hypothesis_needs_a_near_identical_clause_for_a_polarity_flip():
    ev = "Invoices submitted more than 90 days after the work was performed will not be paid."
    assert check_negation("Invoice INV-2291 was paid on 3 May 2026.", ev).status == "absent"
    assert check_negation("The fee is payable.", "The fee is not payable in full.").status == "conflict"


def test_bill_is_a_verb_not_an_invoice():
    ev = "Partner time is billed at $450 per hour. Invoice INV-2291. Total due: $1,200.00."
    r = check_quantities("The total due on invoice INV-2291 is $1,300.", ev)
    assert r.status == "conflict" and r.evidence.value == D(1200)


def test_span_points_at_the_deciding_evidence():
    ev = "Clause 4: Hourly rates shall not exceed USD 250.00. Clause 9: Travel time is not billable."
    r = check_rules("Hourly rates shall not exceed USD 300.", ev)
    assert r.status == "conflict" and ev[r.span[0]:r.span[1]] == "USD 250.00"
    r = check_rules("Travel time is billable.", ev)
    assert r.status == "conflict" and ev[r.span[0]:r.span[1]] == "Travel time is not billable"
    assert check_rules("Nothing here.", ev).span is None


def test_values_of_one_claim_must_be_found_together():
    ev = "Discount schedule: 2% for orders of 100-499 units; 5% for orders over 500 units."
    assert check_rules("The discount for orders over 500 units is 5%.", ev).status == "agree"
    assert check_rules("The discount for orders over 500 units is 2%.", ev).status != "agree"
    assert check_rules("Orders over 500 units get a 5% discount.", ev).status != "conflict"


# --------------------------------------------------------------------------------------------
# properties: a text never contradicts itself, and reformatting a value never makes a conflict
# --------------------------------------------------------------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_SUBJECTS = ["The hourly rate", "The late fee", "Total fees", "The retainer", "The notice period",
             "The invoice total", "Partner time", "The deposit", "Line 14", "The discount"]
_VERBS = ["is", "shall not exceed", "is capped at", "exceeds", "is due on", "amounts to", "was paid on",
          "applies after", "is at least", "is billed at"]


def _money(v: int, style: int) -> str:
    return [f"${v:,}", f"{v} USD", f"USD {v:,}.00", f"US${v}", f"{v:,} dollars"][style]


def _date(d: datetime.date, style: int) -> str:
    return [d.isoformat(), f"{d.day} {d:%B} {d.year}", f"{d:%B} {d.day}, {d.year}", f"{d:%d}/{d:%m}/{d.year}"][style]


_value = st.one_of(
    st.builds(lambda v, a, b: (_money(v, a), _money(v, b)), st.integers(1, 99999), st.integers(0, 4), st.integers(0, 4)),
    st.builds(lambda d, a, b: (_date(d, a), _date(d, b)), st.dates(datetime.date(2020, 1, 1), datetime.date(2030, 12, 31)),
              st.integers(0, 3), st.integers(0, 3)),
    st.builds(lambda v, a, b: ([f"{v}%", f"{v} percent", f"{v} per cent"][a], [f"{v}%", f"{v} percent", f"{v} per cent"][b]),
              st.integers(1, 99), st.integers(0, 2), st.integers(0, 2)),
    st.builds(lambda v, a, b: ([f"{v} days", f"{v}-day", f"{v} calendar days"][a], [f"{v} days", f"{v}-day", f"{v} calendar days"][b]),
              st.integers(1, 120), st.integers(0, 2), st.integers(0, 2)),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(_SUBJECTS), st.sampled_from(_VERBS), _value), min_size=1, max_size=4))
def test_property_reformatting_never_conflicts(clauses):
    evidence = " ".join(f"{s} {v} {x[0]}." for s, v, x in clauses)
    for s, v, x in clauses:
        hyp = f"{s} {v} {x[1]}."
        assert check_rules(hyp, evidence).status != "conflict", (hyp, evidence)
    assert check_rules(evidence, evidence).status != "conflict"
    qs = extract_quantities(evidence)
    for a, b in zip(qs, qs[1:]):
        assert a.end <= b.start
    for q in qs:
        assert evidence[q.start:q.end] == q.text


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=200), st.text(max_size=200))
def test_property_arbitrary_text_never_crashes(a, b):
    for q in extract_quantities(a):
        assert a[q.start:q.end] == q.text
    r = check_rules(a, b)
    assert r.status in ("agree", "conflict", "absent")
    check_rules(a, a)


def test_polarity_with_several_equally_matching_clauses_is_undecided_not_a_crash():
    ev = "The fee is payable. The fee is not payable. The fee is payable."
    assert check_negation("The fee is payable.", ev).status == "absent"
