"""Derived readings (runtime/verify/rules/arithmetic.py, anchors.derived_support) and the statement
path that passes a claim computed from its cited record without the model. Every example here is
invented for this file."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest

from warrant.runtime.contract import Claim, Proposition
from warrant.runtime.verify.rules import check_rules, extract_quantities
from warrant.runtime.verify.rules.anchors import derived_support
from warrant.runtime.verify.rules.arithmetic import derive_unique, readings
from warrant.runtime.verify.verifier import Verifier

TABLE = """PACKING LIST PL-3318 - Ostrava Valve Works
| Line | Part | Cartons | Weight (kg) |
|---|---|---|---|
| 1 | Gate valves | 14 | 212.5 |
| 2 | Check valves | 9 | 88.0 |
| 3 | Flanges | 22 | 301.5 |
Shipped 2 June 2025; delivered 9 June 2025."""

PROSE = ("Quote Q-5120 from Lintel Roofing. Option North re-roofs the north wing for $48,200; "
         "Option Full re-roofs every wing for $131,750. A 5% discount applies to orders signed by 30 April 2025.")


def value(text: str):
    return [q for q in extract_quantities(text) if q.unit != "ref"][0]


@pytest.mark.parametrize(
    "claim, evidence, how",
    [
        # a column sum
        ("The packing list weighs 602.0 kg in total.", TABLE, "212.5 + 88.0 + 301.5"),
        # a sum of two rows
        ("Gate valves and check valves together take 23 cartons.", TABLE, "14 + 9"),
        # days between two dates
        ("The parts were delivered 7 days after they shipped.", TABLE, "2 June 2025 to 9 June 2025"),
        # a difference of two amounts
        ("Option Full costs $83,550 more than Option North.", PROSE, "$131,750 - $48,200"),
    ],
)
def test_one_reading_of_tied_values_gives_the_claimed_value(claim, evidence, how):
    r = derive_unique(claim, value(claim), evidence, extract_quantities(evidence))
    assert r is not None and r.how == how


def test_a_date_plus_days_and_a_percentage_of_two_values():
    ev = "Invoice 77 was issued on 3 March 2025. Payment is due within 45 days of the invoice date."
    r = derive_unique("Invoice 77 is due on 17 April 2025.", value("due on 17 April 2025"), ev, extract_quantities(ev))
    assert r is not None and r.value == datetime.date(2025, 4, 17)
    ev = "The net price is EUR 2,400.00 and the VAT charged is EUR 480.00."
    claim = "The VAT charged is 20% of the net price."
    r = derive_unique(claim, value(claim), ev, extract_quantities(ev))
    assert r is not None and r.value == Decimal(20)


def test_a_rounded_sum_is_not_the_sum_and_a_count_is_not_a_difference_of_weights():
    # 14 + 9 = 23 exactly: 22.6 or "24" is no reading; a count of valves never comes from kg
    claim = "Gate valves and check valves together take 24 cartons."
    assert readings(claim, value(claim), TABLE, extract_quantities(TABLE)) == []
    claim = "Three kinds of part are listed."
    assert readings(claim, value(claim), TABLE, extract_quantities(TABLE)) == []


def test_two_readings_that_give_the_value_are_no_reading():
    ev = "Vendor A was paid $30 and vendor B was paid $40; vendor C was paid $20 and vendor D was paid $50."
    claim = "$70 was paid to two vendors together."
    assert len(readings(claim, value(claim), ev, extract_quantities(ev))) == 2
    assert derive_unique(claim, value(claim), ev, extract_quantities(ev)) is None


def test_derived_support_needs_every_anchor_and_an_unstated_slot():
    assert derived_support("Option Full costs $83,550 more than Option North.", PROSE)
    # the computed value is fine, but the quote named is another one: never passed
    assert derived_support("Quote Q-5121 shows Option Full costing $83,550 more than Option North.", PROSE) is None
    # negation flips the claim
    assert derived_support("The parts were not delivered 7 days after they shipped.", TABLE) is None
    # a computed value that the evidence states in another slot is that slot's value, not a derivation
    ev = "Net amount: $1,000.00. Tax: $80.00. Amount due: $1,080.00. Deposit paid: $80.00."
    assert derived_support("The amount due is $1,000.00 after the deposit.", ev) is None
    # a threshold is stated, never computed ("above" 3 is not 14 - 11)
    assert derived_support("Line 1 ships above 3 cartons.", TABLE) is None


PROFORMA = """PROFORMA INVOICE PF-7781
Seller: Ostrava Valve Works s.r.o.
Total: EUR 48,240.00
Payment: 25% deposit by wire transfer, balance on delivery."""


def test_a_reading_with_one_operand_tied_by_the_claim_stands_when_it_is_the_only_one():
    # "deposit" ties the 25%; the total it is taken of is labelled by no claim word
    (r,) = derived_support("The buyer owes a deposit of EUR 12,060 by wire transfer.", PROFORMA)
    assert r.how == "25% of EUR 48,240.00"
    assert derived_support("The buyer owes a deposit of EUR 12,600 by wire transfer.", PROFORMA) is None
    # two significant digits are too few to rule out a coincidence
    ev = "Total: EUR 48,000.00\nPayment: 25% deposit by wire transfer."
    assert derived_support("The buyer owes a deposit of EUR 12,000 by wire transfer.", ev) is None
    # two readings, each with one tied operand: no choosing between them
    ev = "Deposits: 25% or 50%.\nTotal: EUR 48,240.00\nFreight: EUR 24,120.00"
    assert derived_support("The deposit is EUR 12,060.", ev) is None


def test_a_rate_that_applies_to_part_of_an_amount_is_not_taken_of_the_whole():
    ev = "Quote Q-12: CAD 4,280.00 (parts 2,480.00, labour 1,800.00). A 5% discount applies to labour only."
    assert derived_support("With the 5% discount, the quote would cost CAD 4,066.00.", ev) is None
    ev = "Quote Q-12: labour CAD 1,800.00 and parts CAD 2,480.00. A 5% discount applies to labour only."
    assert derived_support("With the 5% discount, labour would cost CAD 1,710.00.", ev)
    ev = "Quote Q-12: CAD 4,280.00 (parts 2,480.00, labour 1,800.00). A 5% discount applies to the whole quote."
    assert derived_support("With the 5% discount, the quote would cost CAD 4,066.00.", ev)


def test_a_value_stated_for_another_subject_and_computed_from_the_one_it_differs_from_is_no_conflict():
    ev = ("| Material | Unit | Qty requested | Qty issued |\n| Portland cement | bag | 400 | 320 |\n| Sand | t | 12 | 12 |\n"
          "| Gravel | t | 30 | 30 |\n| Rebar | t | 6 | 6 |\n"
          "Remarks: cement short-issued; balance of 80 bags to follow on receipt of PO-5517.")
    assert check_rules("The 80 bags of cement still owed will follow once PO-5517 is received.", ev).status != "conflict"
    assert check_rules("The 90 bags of cement still owed will follow once PO-5517 is received.", ev).status != "agree"


BUDGET = """STUDY BUDGET - Protocol KR-118 | Site 22 | Currency: USD | Target enrolment: 30 participants

| Visit / Item | Per participant | Notes |
| Intake visit (V1) | 1,200.00 | paid for screen failures too |
| Follow-up visits V2-V5 | 4 x 310.00 | |
| Closing visit (V6) | 800.00 | |
| Total per completed participant | 3,240.00 | |
Start-up fee (one-time): 9,000.00"""


def test_a_computation_does_not_stand_where_the_record_states_the_claimed_slot():
    # "Total per completed participant" is labelled by the claim's own words: 4 x 310 is a part
    assert derived_support("A participant who completes the study is worth USD 1,240 to the site.", BUDGET) is None
    assert derived_support("The follow-up visits are worth USD 1,240 per participant in total.", BUDGET)
    # words the claim sets aside ("before sales tax") do not name the slot
    lease = ("LEASE SCHEDULE No. 2 to Master Lease ML-88\nCommencement: 1 March 2025   Term: 36 months\n\n"
             "Payment no.   Due date       Payment      Sales tax   Total\n"
             "1             1 Mar 2025     $1,487.75    $119.02     $1,606.77\n"
             "...           ...            ...          ...         ...\n"
             "36            1 Feb 2028     $1,487.75    $119.02     $1,606.77\n")
    assert derived_support("The 36 base payments, before sales tax, total $53,559.", lease)


def test_a_claimed_total_must_count_what_the_record_adds():
    award = "The grant covers 60% of the annual course fee of GBP 9,000, plus a one-time travel allowance of GBP 800."
    assert derived_support("The grant is worth GBP 5,400 in total for the year.", award) is None
    assert derived_support("The grant covers GBP 5,400 of the course fee.", award)


def test_an_equal_split_named_after_a_title_is_a_quotient():
    letter = "Dear Mr. Okafor, your bursary is EUR 3,000 for the year, paid in two equal instalments in October and February."
    assert derived_support("Each instalment of Mr. Okafor's bursary is EUR 1,500.", letter)
    assert derived_support("Each instalment of Mr. Okafor's bursary is EUR 1,000.", letter) is None


def test_a_gap_between_two_values_is_not_a_level():
    ev = "Invoice value: USD 10,800.00. Exchange rate: 1 EUR = 1.0800 USD. Customs value: EUR 10,400.00."
    r = check_rules("The customs value is EUR 400 higher than the invoice value converted at that rate.", ev)
    assert r.status != "conflict", r
    assert check_rules("The customs value is EUR 400.", ev).status == "conflict"


def test_days_stated_as_hours_are_not_contradicted_by_another_span_in_days():
    ev = ("Clause 7 - Incidents\n7.1 The Processor shall act only on written instructions.\n"
          "7.2 The Processor shall notify the Controller of any incident without undue delay and in any event "
          "within 72 hours of becoming aware of it.\n"
          "7.3 On termination, the Processor shall delete all records within 60 days, unless the law requires otherwise.")
    claim = "An incident has to be reported to the Controller within {} days of the Processor learning of it."
    assert check_rules(claim.format("three"), ev).status == "absent"  # 72 hours, not the 60 days of 7.3
    assert check_rules(claim.format("four"), ev).status == "conflict"


def verify_statement(ledger, claim: str, *texts: str, run: str = "run_ar"):
    """One `statement` proposition citing a record of each text, decided without a model."""
    rids = [ledger.append(run, t) for t in texts]
    c = Claim(id="c", type="Assertion", text=claim, propositions=[Proposition(id="p", pred="statement", args={"text": claim}, ledger_ids=rids)])
    (v,) = Verifier(ledger, None).check(run, [(c, c.propositions[0])])
    return v


def test_the_statement_path_passes_a_derived_claim_without_a_model_and_cites_every_operand(ledger):
    v = verify_statement(ledger, "The packing list weighs 602.0 kg in total.", TABLE)
    assert v.status == "supported" and v.checker == "rules:derived"
    assert [s.text for s in v.spans] == ["212.5", "88.0", "301.5"]
    assert "= 602" in v.reason


def test_the_statement_path_does_not_pass_a_wrong_computation(ledger):
    # no model: a value no reading gives is left to the model, which is absent, so unsupported
    v = verify_statement(ledger, "The packing list weighs 610.0 kg in total.", TABLE)
    assert v.status != "supported"


SITE = "Site survey S-12 for Brackley Fields. The paddock measures 2,700 sq ft and lies 40 km from the depot. Peak soil temperature was 25 °C."


@pytest.mark.parametrize(
    "claim",
    [
        "The paddock measures about 251 square metres.",  # 2,700 sq ft = 250.8 m2
        "The paddock lies roughly 25 miles from the depot.",  # 40 km = 24.85 miles
        "Peak soil temperature was 77 °F.",  # 25 °C = 77 °F exactly
    ],
)
def test_a_measure_in_another_unit_is_converted_not_called_another_number(claim):
    assert derived_support(claim, SITE)


def test_a_converted_measure_must_agree_at_the_claims_precision_and_bound():
    assert derived_support("Peak soil temperature was 78 °F.", SITE) is None
    assert derived_support("The paddock measures about 300 square metres.", SITE) is None  # 20% off
    # "just under 40 miles": 24.85 is under 40 but nowhere near it
    assert derived_support("The paddock lies just under 40 miles from the depot.", SITE) is None


def test_the_same_number_in_another_unit_is_not_the_claimed_measure():
    from warrant.runtime.verify.rules.check import decide_one

    # 25 °C is no distance: "25 miles" is read from 40 km (24.85 miles, 25 at the claim's precision)
    claim = "The paddock lies 25 miles from the depot."
    hq = extract_quantities(claim)
    assert decide_one(claim, hq[0], hq, SITE, extract_quantities(SITE))[0] != "found"
    (r,) = derived_support(claim, SITE)
    assert [o.text for o in r.operands] == ["40"]
    assert derived_support("The paddock lies 26 miles from the depot.", SITE) is None


def test_an_approximate_change_and_a_just_over_bound_need_one_close_reading():
    ev = "Visitor survey V-4. This spring 1,722 visitors were counted at the gate, against 2,050 in 2024."
    claim = "Gate visitors fell by about 16% from 2024."  # (2,050 - 1,722) / 2,050 = 16.0%
    r = derive_unique(claim, value(claim), ev, extract_quantities(ev))
    assert r is not None and r.how == "(2,050 - 1,722) / 2,050"
    prices = "Plan prices: Basic EUR 44.10 (was EUR 40); Pro EUR 60 (was EUR 40)."
    claim = "The Basic price increase is just over 10%."  # 10.25%: near 10 and over it; Pro's 50% is over but not near
    r = derive_unique(claim, value(claim), prices, extract_quantities(prices))
    assert r is not None and r.how == "(EUR 44.10 - EUR 40) / EUR 40"
    assert derive_unique("The Basic price increase is just over 30%.", value("just over 30%"), prices, extract_quantities(prices)) is None


def test_two_exact_readings_of_a_precise_value_are_one_fact_stated_twice():
    # the record states the parts and the totals: the increase is both the sum of the amendments
    # and the revised fee less the base fee
    ev = ("Base fee: $310,000.00\nEarlier amendments: $7,420.00\nThis amendment: $15,135.00\n"
          "Revised fee: $332,555.00")
    claim = "Amendments so far have raised the fee by $22,555 in total."
    found = readings(claim, value(claim), ev, extract_quantities(ev))
    assert len({frozenset(o.start for o in r.operands) for r in found}) == 2 and all(r.exact for r in found)
    assert derive_unique(claim, value(claim), ev, extract_quantities(ev)) is not None
    # a loose value met twice stays two stories, and so does any approximate one
    ev2 = "Vendor A was paid $1,000 and vendor B was paid $1,400; vendor C was paid $3,000 and vendor D was paid $600."
    claim2 = "$2,400 was paid to two vendors together."
    assert derive_unique(claim2, value(claim2), ev2, extract_quantities(ev2)) is None
    claim3 = "Amendments so far have raised the fee by about $22,600 in total."
    assert derive_unique(claim3, value(claim3), ev, extract_quantities(ev)) is None


def test_a_month_without_a_day_is_a_date_met_by_any_day_of_it():
    [q] = extract_quantities("The lease ends in March 2027.")
    assert (q.kind, q.unit, q.value) == ("date", "monthyear", datetime.date(2027, 3, 1))
    assert [q.kind for q in extract_quantities("you may 2026 not")] == ["number"]  # "may" is a verb
    ev = "The fixed-term contract starts on 14/04/2026 and runs for eleven months."
    assert derived_support("The fixed-term contract ends in March 2027.", ev)
    assert derived_support("The fixed-term contract ends in April 2027.", ev) is None
    # stated, not computed: a date in that month supports it; a date in another month does not
    # refute it ("finishes at the start of December" beside a start date in June)
    assert check_rules("Delivery is due in May 2026.", "Delivery due: 18 May 2026.").status == "agree"
    assert check_rules("The placement is due to finish at the start of December 2026.",
                       "The six-month placement starts on 1 June 2026.").status != "conflict"


def test_a_deadline_and_the_last_day_of_a_term_are_computed_dates():
    ev = "Invoice 5521 was issued on 12 August 2026. Terms: payment within 21 days."
    assert derived_support("Invoice 5521 must be paid by 2 September 2026.", ev)
    assert derived_support("Invoice 5521 must be paid by 9 September 2026.", ev) is None
    ev = "Subscription term: 12 months from 1 October 2026."
    assert derived_support("The subscription term runs through 30 September 2027.", ev)
    assert derived_support("The subscription term runs through 30 October 2027.", ev) is None
    # one day short is the last day of a term only where the claim names an end
    assert derived_support("The subscription term starts again on 30 September 2027.", ev) is None


def test_sums_and_differences_over_the_columns_of_csv_exports():
    # a currency named by a column key ("amount_eur"), decimal commas in semicolon rows
    notes = ("credit_no;date;customer;reason;amount_eur;status\n"
             "CN-201;03.02.2026;Oberlin Druck;short delivery;214,00;open\n"
             "CN-202;09.02.2026;Vasel Textil;price correction;1.102,40;settled\n"
             "CN-203;17.02.2026;Oberlin Druck;damaged goods;87,50;open\n")
    assert derived_support("The credit notes to Oberlin Druck come to EUR 301.50 together.", notes)
    assert derived_support("The credit notes to Oberlin Druck come to EUR 310.50 together.", notes) is None
    # "add up to" is a sum, not a bound ("up to")
    assert derived_support("The open credit notes for Oberlin Druck add up to EUR 301.50.", notes)
    quotes = ("quote_id,service,origin,destination,price_nzd\nQ-118,Express,Nelson,Napier,88.20\n"
              "Q-118,Standard,Nelson,Napier,51.70\nQ-118,Standard+Signature,Nelson,Napier,55.90\n")
    assert derived_support("Choosing express instead of standard costs NZD 36.50 more.", quotes)
    # an amount below the table in the table's currency is a stated slot, not a sum to compute
    batch = ("payee,account,amount_gbp,result\nAlder Mill Ltd,11223344,1500.00,PAID\nBrook Farm,55667788,640.25,REJECTED\n"
             "Cobb & Sons,99001122,310.00,PAID\n\nBatch total submitted: 2,450.25   Total paid: 1,810.00")
    assert derived_support("The batch paid out GBP 2,450.25 to suppliers.", batch) is None


def test_a_dot_leader_does_not_end_the_sentence_of_its_value():
    note = ("1. Detention, trailer TR-88, 2 days @ USD 212.50/day ....... USD 425.00\n"
            "2. Yard storage, 2 days @ USD 36.25/day ..................... USD 72.50\n")
    assert derived_support("Detention and yard storage together come to USD 497.50.", note)


def test_an_amount_over_another_period_or_with_tax_counted_otherwise_is_another_slot():
    ev = "The monthly fee is SGD 6,250 plus GST, payable within 30 days of invoice."
    assert check_rules("The annual fee before GST is SGD 75,000.", ev).status != "conflict"
    assert check_rules("Including GST, the monthly fee is SGD 6,812.", ev).status != "conflict"
    assert check_rules("The monthly fee before GST is SGD 6,520.", ev).status == "conflict"


def test_a_level_stated_for_another_subject_is_no_remainder():
    ev = ("Coverage A - Dwelling: $420,000\nCoverage B - Other structures: $42,000\nCoverage C - Personal property: $210,000\n"
          "Deductible (all perils): $2,500\nAnnual premium: $1,848\nLiability: $300,000")
    assert check_rules("The dwelling coverage is $210,000.", ev).status == "conflict"


LEDGER = """HOLLOWAY MUTUAL - Business Account Statement
Period: 01 May 2026 - 31 May 2026
Date     Description                      Debit      Credit     Balance
05/02    Opening balance                                        8,410.00
05/04    CARD PAYMENT ORBIS FREIGHT        612.40                7,797.60
05/09    TRANSFER IN CLIENT TANAKA                    2,150.00   9,947.60
05/14    CARD PAYMENT ORBIS FREIGHT        388.15                9,559.45
05/21    DIRECT DEBIT CITY WATER            96.70                9,462.75
05/28    TRANSFER IN CLIENT TANAKA                    1,075.50  10,538.25
"""


def test_a_blank_cell_keeps_its_column_and_a_named_column_sums():
    # Debit and Credit stay apart although each row leaves one blank: the debits sum alone
    assert derived_support("Total debits for May 2026 came to 1,097.25.", LEDGER)
    assert derived_support("Total debits for May 2026 came to 1,097.52.", LEDGER) is None
    # the credits are another column: their sum is not the debits'
    assert derived_support("Total debits for May 2026 came to 3,225.50.", LEDGER) is None


def test_a_claim_word_picks_the_rows_it_adds():
    assert derived_support("Card payments to Orbis Freight came to $1,000.55 in total.", LEDGER)
    assert derived_support("Transfers in from Tanaka added up to $3,225.50.", LEDGER)
    # a sum of other rows, or of every row, is not the sum of the rows the claim names
    assert derived_support("Card payments to Orbis Freight came to $1,097.25 in total.", LEDGER) is None
    assert derived_support("Card payments to Orbis Freight came to $1,000.50 in total.", LEDGER) is None


def test_a_sum_does_not_show_what_a_charge_was_taken_of():
    mail = ("Your monthly fee for the API service is USD 9,400. Your separate reporting add-on (USD 1,600 per month) was not "
            "affected. Credit approved: USD 940.00.")
    assert derived_support("The API and reporting fees come to USD 11,000 a month combined.", mail)
    assert derived_support("The credit was calculated on the combined API and reporting fees of USD 11,000.", mail) is None


def test_a_period_counts_from_the_date_its_sentence_names():
    ev = ("ROYALTY STATEMENT - PERIOD 6 (4 weeks ending 21 June 2026)\nStatement date: 25 June 2026\n"
          "Amount due: GBP 3,120.00\nPayment due: 7 days after the statement date, by direct debit.")
    # 21 June (the period's end) + 7 days is no due date here: the term runs from the statement date
    assert derived_support("Payment for Period 6 is due on 28 June 2026.", ev) is None
    assert arithmetic_readings_from("Payment for Period 6 is due on 2 July 2026.", ev) == ["25 June 2026 + 7 days"]


def arithmetic_readings_from(claim: str, ev: str) -> list[str]:
    h = [q for q in extract_quantities(claim) if q.kind == "date"][-1]
    return [r.how for r in readings(claim, h, ev, extract_quantities(ev), tie=False)]


def test_a_change_is_not_contradicted_by_a_level():
    ev = ("- Support fees: your schedule recognises AUD 30,000 for the quarter; we calculate AUD 15,000.\n"
          "- Build fee AUD 90,000 should move to the next quarter.")
    assert check_rules("The proposed adjustments reduce revenue recognised this quarter by AUD 105,000 in total.", ev).status != "conflict"
    assert check_rules("Your schedule recognises AUD 35,000 for the quarter.", ev).status == "conflict"
    # a change the record labels as one ("Rent increase: 3% per year") does
    assert check_rules("The rent increases by 5% per year.", "Base rent: $2,000 per month\nRent increase: 3% per year").status == "conflict"


RECON = """Currency: EUR
Balance per statement                         18,402.10
Add: lodgements in transit
    LDG-2211  lodged 29-Apr                      2,310.00
    LDG-2212  lodged 30-Apr                        845.55
Less: unpresented payments
    Pmt 7781  Ferrand Joinery                   (1,120.40)
    Pmt 7785  Quayside Printing                    (96.35)
Adjusted balance                                 20,340.90"""


def test_a_block_the_claim_names_by_its_heading_adds_up_without_a_count():
    used = derived_support("Unpresented payments added up to EUR 1,216.75 at the end of April.", RECON)
    assert used and [o.text for o in used[0].operands] == ["1,120.40", "96.35"]
    # the block ends where its indentation does: the adjusted balance below is no item of it
    assert derived_support("Unpresented payments added up to EUR 21,457.30 at the end of April.", RECON) is None
    # a heading the claim does not name gives no block ("lodgements" is not "payments")
    assert derived_support("Unpresented lodgements added up to EUR 3,155.55 at the end of April.", RECON) is None
    assert derived_support("Lodgements in transit added up to EUR 3,155.55.", RECON)


def test_rows_picked_by_a_claim_word_add_up_with_a_minus_opening_their_cells():
    ev = ("Currency: USD\n"
          "ITEM                          DATE          AMOUNT\n"
          "Ending balance per bank       03/31/2026    50,000.00\n"
          "  - Unpresented cheque #11    03/12/2026    -1,200.00\n"
          "  - Unpresented cheque #14    03/27/2026      -300.50\n"
          "  + Deposit in transit        03/31/2026       410.00\n"
          "Adjusted balance                            48,909.50\n")
    used = derived_support("Unpresented cheques totalling $1,500.50 were deducted from the bank balance.", ev)
    assert used and [o.text for o in used[0].operands] == ["1,200.00", "300.50"]
    assert derived_support("Unpresented cheques totalling $1,910.50 were deducted from the bank balance.", ev) is None


def test_a_count_the_claim_states_may_be_what_its_computation_multiplies():
    # "the 250 tablets" is stated in the record ("250 units"): it is the product's operand there,
    # not another slot holding the claimed value
    ev = ("Tender T-19 - Tablet refresh (250 units) - evaluation\n"
          "Bidder          Unit price     Score\n"
          "Norvik AS       640,00 EUR     91,5\n")
    used = derived_support("At its unit price, Norvik AS's bid for the 250 tablets is worth 160.000,00 EUR.", ev)
    assert used and sorted(o.text for o in used[0].operands) == ["250", "640,00 EUR"]
    assert derived_support("At its unit price, Norvik AS's bid for the 250 tablets is worth 165.000,00 EUR.", ev) is None
    # the count must be what the computation multiplies, not merely a value the record states
    assert derived_support("Norvik AS's bid for the 250 tablets adds 640,00 EUR of set-up, 1.280,00 EUR in all.", ev) is None


JOB = ("Job sheet JS-881 - boiler service. Priority: respond within 8 hours.\n"
       "Labour: 1.5 h @ $96.00/h    Parts: gasket $18.40; valve $52.10    Call-out fee: $40.00\n"
       "Status: completed")


def test_every_charge_of_a_record_adds_up_to_a_claimed_total():
    # 1.5 x 96.00 + 18.40 + 52.10 + 40.00 = 254.50: the rate's count is the one on its own line,
    # not the response time elsewhere in hours
    used = derived_support("The total charges on this job sheet come to $254.50.", JOB)
    assert used and "1.5 h x $96.00" in used[0].how
    assert derived_support("The total charges on this job sheet come to $262.50.", JOB) is None
    # no claim that adds, no sum
    assert derived_support("The call-out fee on this job sheet is $254.50.", JOB) is None


def test_a_line_that_states_its_own_amount_is_added_as_stated_not_recomputed():
    ev = ("Debit note DN-7\n"
          "1. Detention, 4 days @ EUR 90.00/day ..... EUR 360.00\n"
          "2. Storage, 4 days @ EUR 25.00/day ....... EUR 100.00\n"
          "3. Admin fee ............................. EUR 35.00\n"
          "Payment due within 30 days.")
    # 360 + 100 and 4 x 90 + 100 are one sum: the product repeats the line's stated amount
    used = derived_support("Detention and storage together make up EUR 460.00 of the debit note.", ev)
    assert used and used[0].how == "EUR 360.00 + EUR 100.00"


def test_a_margin_between_two_labelled_values_is_computed_not_contradicted_by_them():
    # both operands carry the claim's labels ("budget", "spend"): they are what the margin is
    # taken between, not rival statements of the claimed slot
    ev = "Facilities budget\nActual spend 2026: USD 468,500\nBudget request 2027: USD 412,000\nApproved by the board on 3 March."
    assert derived_support("The 2027 budget request is USD 56,500 below what was actually spent in 2026.", ev)
    assert not derived_support("The 2027 budget request is USD 58,500 below what was actually spent in 2026.", ev)
    assert not derived_support("The 2027 budget request is USD 56,500.", ev)


def test_an_amount_for_a_period_is_divided_by_it_for_a_rate_per_that_unit():
    ev = ("Ms Joanne Hollis has accepted the following:\n"
          "- Payment in lieu of her 12-week notice period of GBP 9,840, paid through payroll.\n"
          "- Termination payment of GBP 28,500.")
    assert derived_support("Ms Hollis's payment in lieu of notice works out at GBP 820 per week.", ev)
    assert not derived_support("Ms Hollis's payment in lieu of notice works out at GBP 840 per week.", ev)
    assert not derived_support("Ms Hollis's payment in lieu of notice works out at GBP 820 per month.", ev)


def test_a_measure_written_with_another_name_of_its_unit_is_stated_not_computed():
    ev = ("From: Ana Pereira <a.pereira@brightmould.co.uk>\nDate: 06/06/2026\nSubject: May 2026 tolling invoice TI-2605\n\nHi Sam,\n\n"
          "Before we approve it I have reconciled it against our own batch records for May:\n\n"
          "Batch  | Quantity (t) | Status\nB-21   | 40.0         | released\nB-22   | 35.5         | on hold – re-test\n"
          "B-23   | 24.5         | released\nB-24   | 30.0         | released\n\n"
          "Your invoice charges for 130.0 t at EUR 300.00, i.e. EUR 39,000.00. Our view is that B-22 cannot be charged until it "
          "passes release testing, so the chargeable quantity for May is 94.5 t (EUR 28,350.00).\n\nRegards,\nAna Pereira\nBrightmould Ltd\n")
    # "130.0 t" is stated (the invoice's quantity, all four batches): the column's sum equal to it
    # is no computation of what was released
    assert derived_support("Brightmould's records show 130.0 tonnes of product released in May 2026.", ev) is None
    note = "Remarks: Tanker 4 delivered a partial load (9,400 l) due to a valve fault."
    # "9,400 l" is "9,400 litres" copied, not converted: no computation passes the words around it
    assert derived_support("Tanker 4 delivered a partial load of 9,400 litres because of a valve fault on the ship's crane.", note) is None


def test_a_date_named_twice_is_one_operand_of_a_span():
    ev = ("Penalty Charge Notice KT-55012\nContravention date and time: 03/06/2024 at 09:15\n\n"
          "Decision on your challenge dated 10/06/2024\n\nThe contravention recorded on 03/06/2024 is cancelled.")
    used = derived_support("The challenge was dated one week after the contravention.", ev)
    assert used and used[0].how == "03/06/2024 to 10/06/2024"


def test_a_day_and_month_without_a_year_is_read_in_the_year_nearest_the_date_it_is_counted_from():
    from warrant.runtime.verify.rules.arithmetic import _in_year_of

    [ny, full] = extract_quantities("Identified on 20 December; the letter is dated 3 January 2025.")
    # a letter of 3 January refers to the December just gone, not the one eleven months on
    assert _in_year_of(ny, full).isoformat() == "2024-12-20"
    assert _in_year_of(full, ny) == full.value


def test_a_name_in_the_subject_line_is_what_the_whole_letter_is_about():
    ev = ("From: Dana Whitlock, Licensing Officer\nTo: bookings@theblueheron.example\nDate: 11 March 2025\n"
          "Subject: Re-inspection — The Blue Heron, 2 Quay Road\n\nDear Mr Amos,\n\n"
          "The drainage fault found on 4 March has been repaired. You may reopen from tomorrow, 12 March 2025.")
    # "The Blue Heron" is named only by the subject line; the letter's "you" is the business
    used = derived_support("The Blue Heron may reopen eight days after the drainage fault was found.", ev)
    assert used and used[0].value == 8
    assert derived_support("The Blue Heron may reopen nine days after the drainage fault was found.", ev) is None
    # named only in the From line (a person's field), the name still plays no role in the letter
    assert derived_support("Dana Whitlock may reopen eight days after the drainage fault was found.", ev) is None


def test_a_margin_between_two_counts_the_claim_names_is_computed():
    ev = ('{\n  "account_holder": "Ridgeway Foods Pty Ltd",\n  "month": "2025-04",\n  "opening_balance": 4210,\n'
          '  "movements": [{"type": "transfer_in", "qty": 515}, {"type": "transfer_out", "qty": 1290}],\n'
          '  "closing_balance": 3435\n}')
    # named by the record's holder field, over an ISO month; 4210 - 3435
    used = derived_support("Ridgeway Foods' closing pallet balance for April 2025 is 775 lower than its opening balance.", ev)
    assert used and used[0].how == "4210 - 3435"
    assert derived_support("Ridgeway Foods' closing pallet balance for April 2025 is 765 lower than its opening balance.", ev) is None
    # the right size the wrong way round
    assert derived_support("Ridgeway Foods' closing pallet balance for April 2025 is 775 higher than its opening balance.", ev) is None
    assert derived_support("Ridgeway Foods' opening pallet balance for April 2025 exceeded its closing balance by 775.", ev)
    assert derived_support("Ridgeway Foods' closing pallet balance for April 2025 exceeded its opening balance by 775.", ev) is None
    history = ('{"fund_name": "Tern Bond Fund", "nav_history": [\n {"date": "2025-03-03", "units_outstanding": 4413200},\n'
               ' {"date": "2025-03-04", "units_outstanding": 4409900}\n]}')
    assert derived_support("Units outstanding in the Tern Bond Fund fell by 3,300 from 3 to 4 March 2025.", history)
    assert derived_support("Units outstanding in the Tern Bond Fund rose by 3,300 from 3 to 4 March 2025.", history) is None
    # a margin of a small figure is what any two values may differ by: not computed
    small = "Opening stock: 12\nClosing stock: 9\nReturns: 4"
    assert derived_support("Closing stock was 3 lower than opening stock.", small) is None
    # a bare number not given as a margin is no difference
    assert derived_support("Ridgeway Foods moved 775 pallets in April 2025.", ev) is None


def test_a_comparative_between_a_margin_and_its_noun_is_no_noun():
    from warrant.runtime.verify.rules.numbers import counted_noun

    claim = "Line 2 filled 6,400 fewer bottles than its target."
    [_, q] = extract_quantities(claim)
    assert counted_noun(claim, q) == "bottl"
    table = "Line 2 shift handover\n| Metric | Actual | Target |\n|---|---|---|\n| Bottles filled | 118,400 | 124,800 |\n| Rejects | 1,420 | 1,250 |"
    used = derived_support(claim, table)
    assert used and used[0].how == "124,800 - 118,400"
    [q] = [x for x in extract_quantities("Units were 2,100 lower than before.") if x.kind == "number"]
    assert counted_noun("Units were 2,100 lower than before.", q) is None


def test_measures_in_one_unit_add_up():
    ev = ("Land register of Altdorf, Sheet 804\n\nInventory of land\n  No. 1: Parcel 12/1, yard and buildings, 655 m²\n  No. 2: Parcel 12/2, meadow, 1.210 m²\n"
          "  Charge: EUR 90.000,00, registered 04.03.2015")
    # (the record writes thousands with a point, as its euro amount does)
    used = derived_support("The two parcels on Sheet 804 of the Altdorf land register cover 1,865 m² in total.", ev)
    assert used and used[0].how == "655 + 1.210"
    assert derived_support("The two parcels on Sheet 804 of the Altdorf land register cover 1,875 m² in total.", ev) is None
    # a measure in another unit is converted, never added bare: 655 m² + 1.210 ha is no sum
    mixed = ev.replace("1.210 m²", "1.210 ha")
    assert derived_support("The two parcels on Sheet 804 of the Altdorf land register cover 1,865 m² in total.", mixed) is None


def test_a_column_whose_label_names_a_unit_of_time_adds_up_in_that_unit():
    table = ("Lift maintenance summary, contract LM-220, May 2025\n\n| Device | Visits | Hours out of service |\n|---|---|---|\n"
             "| L-1 | 2 | 4.5 |\n| L-2 | 1 | 0.0 |\n| L-3 | 3 | 9.5 |\n")
    used = derived_support("The three devices under contract LM-220 were out of service for 14 hours in total in May 2025.", table)
    assert used and used[0].how == "4.5 + 0.0 + 9.5"
    assert derived_support("The three devices under contract LM-220 were out of service for 15 hours in total in May 2025.", table) is None
    # the same figures in minutes: 14 hours is 840 minutes
    assert derived_support("The three devices under contract LM-220 were out of service for 840 minutes in total in May 2025.", table)
    # "Visits" names no unit: 6 visits are no 6 days
    assert derived_support("The three devices under contract LM-220 were out of service for 6 days in total in May 2025.", table) is None
    runs = ('{"line": "Press 4", "month": "2025-05", "stoppages": [\n {"cause": "die change", "stoppage_min": 35},\n'
            ' {"cause": "jam", "stoppage_min": 50}\n]}')
    used = derived_support("Press 4's two stoppages in May 2025 lasted 85 minutes in total.", runs)
    assert used and used[0].how == "35 + 50"


def test_a_rate_times_a_count_uses_the_rate_the_row_or_the_claim_names():
    ev = ("# Press brake booking export\n# rates: standard GBP 40.00/h, priority GBP 90.00/h\n"
          "booking,user,hours,rate_type\nB-1,Ana Ruiz,5.0,priority\nB-2,Tom Eke,3.0,standard\n")
    # Ana Ruiz's row says priority: her 5 hours at the standard rate are no cost the record shows
    assert derived_support("Ana Ruiz's booking cost GBP 200.00 at the rates listed.", ev) is None
    assert derived_support("Ana Ruiz's booking cost GBP 450.00 at the rates listed.", ev)
    # the claim may name the rate itself
    assert derived_support("At the standard rate, Tom Eke's booking cost GBP 120.00.", ev)


def test_a_percentage_named_as_a_change_is_never_a_share():
    ev = "3. Storage. Locker fee to rise from GBP 60 to GBP 75 a year; 9 of the 60 lockers are vacant."
    assert derived_support("The planned rise in the locker fee amounts to 15%.", ev) is None  # 9 / 60
    assert derived_support("The planned rise in the locker fee amounts to 25%.", ev)  # (75 - 60) / 60


def test_a_column_the_claim_does_not_qualify_so_is_another_slot():
    ev = ("Wagon   Tare (t)   Gross (t)   Net (t)\nW-1      25.0      100.0      75.0\nW-2      25.0       99.0      74.0\n"
          "W-3      25.0      101.0      76.0\n")
    assert derived_support("The three wagons had a combined gross weight of 225.0 tonnes.", ev) is None  # the net column
    assert derived_support("The three wagons had a combined net weight of 225.0 tonnes.", ev)
    assert derived_support("The three wagons had a combined gross weight of 300.0 tonnes.", ev)


def test_only_a_figure_labelled_with_the_unit_adds_to_a_measure():
    ev = ("date,group,head,product,dose_per_head_ml\n2025-03-02,ewes,300,Clostri-8,2\n"
          "2025-03-09,hoggets,150,Clostri-8,2\n2025-03-09,hoggets,150,FootGuard,1\n")
    # "head" counts animals: 150 + 150 is no volume of product
    assert derived_support("The hoggets' FootGuard treatment used 300 ml of product in total.", ev) is None
    sheet = ("Route R-7 meter sheet   Units: cubic metres (m3)\n\nMeter    Prev   Curr   Consump\n"
             "M-1       100    140       40\nM-2       200    215       15\nM-3       300    330       30\n")
    used = derived_support("The three meters on route R-7 recorded a combined 85 cubic metres.", sheet)
    assert used and used[0].how == "40 + 15 + 30"
