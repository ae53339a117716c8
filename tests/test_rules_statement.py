"""What a free-text statement must match before the model may pass it: opposite words about the
same thing, a rule's threshold against an instance of it, a spelled-out count before a measure.
Every example here is invented for this file."""

from __future__ import annotations

from decimal import Decimal

from warrant.runtime.verify.rules import check_rules, extract_quantities
from warrant.runtime.verify.rules.anchors import (agent_conflicts, contradicting_words, missing_anchors, opposites, possessor_swaps,
                                                 swapped_identifier, whole_record_vetoes)
from warrant.runtime.verify.rules.check import decide_one
from warrant.runtime.verify.rules.identifiers import near_miss
from warrant.runtime.verify.rules.numbers import counted_noun

from tests.test_rules_arithmetic import verify_statement

STATEMENT = ("Harrow Bank statement, April. A transfer fee of $4.00 was charged on 3 April. "
             "The monthly card fee of $6.00 was waived for April under the Student plan.")


def test_a_claim_using_the_opposite_of_its_sentence_is_not_supported():
    why = opposites("The $6 card fee was charged for April.", STATEMENT)
    assert why and "waiv" in why[0][0]
    assert STATEMENT[why[0][1]:].startswith("The monthly card fee")
    assert any("waiv" in w for w in missing_anchors("The $6 card fee was charged for April.", STATEMENT))


def test_a_change_is_the_opposite_of_no_change_in_the_clause_of_its_value():
    news = ("Tallow Mills said on Monday that third-quarter sales rose 9% to EUR 412 million, "
            "while milled volumes were flat at 61,200 tonnes.")
    why = opposites("Tallow Mills' milled volumes rose to 61,200 tonnes in the third quarter.", news)
    assert why and "'flat'" in why[0][0]
    # the sales clause says "rose" and holds the claim's value: no opposite there
    assert opposites("Tallow Mills' third-quarter sales rose 9%.", news) == []


def test_a_level_met_is_the_opposite_of_one_fallen_short_of():
    minutes = ("Helpdesk reported that 91.5% of urgent calls were answered within the target time, short of the 95% "
               "contractual level. Routine calls were better at 99.1% against a 90% target.")
    why = opposites("Urgent call answering met its contractual level.", minutes)
    assert why and "'short'" in why[0][0]
    assert opposites("Urgent call answering fell short of its contractual level.", minutes) == []
    assert opposites("Routine call answering met its target.", minutes) == []


def test_the_same_word_in_the_sentence_about_it_is_no_opposite():
    # "charged" sits in the transfer-fee sentence, the one the claim is about: nothing to veto,
    # although "waived" is elsewhere in the record
    assert opposites("The transfer fee of $4.00 was charged on 3 April.", STATEMENT) == []
    # a sentence about something else that uses the opposite word does not count
    assert opposites("Prices include delivery to the site.", "Prices include delivery to the site. Returns exclude opened items.") == []
    assert opposites("Freight is excluded from the quoted prices.", "Quoted prices: EUR 40 per unit, freight excluded.") == []
    # the record uses the claim's word about another part of the claim ("a failed assessment"), so
    # the opposite on the line about the test ("passed") is not about the claim's word
    status = ('{"site": "Depot 4",\n "assessments": {"completed": 12, "scheduled": 1, "failed_assessment": 1},\n'
              ' "drug_tests": {"passed": 11, "pending": 2},\n "rule": "No worker may start without a passed drug test."}\n'
              'Note: workers with a failed assessment may resit it next week.')
    assert opposites("The worker who failed the assessment is one of the two with a pending drug test.", status) == []
    assert opposites("The setup fee was charged.", "Late fees are charged at 2%. The setup fee was waived for this order.")


def test_a_rules_threshold_is_not_supported_by_an_instance_of_it():
    ev = "Items worth over $1,000 must be declared. The laptop declared is worth $1,850."
    claim = "Items worth more than $1,500 must be declared."
    hq = extract_quantities(claim)
    assert decide_one(claim, hq[0], hq, ev, extract_quantities(ev))[0] != "found"
    # a plain statement about one item still compares with its value
    claim = "The laptop is worth more than $1,500."
    hq = extract_quantities(claim)
    assert decide_one(claim, hq[0], hq, ev, extract_quantities(ev))[0] == "found"


def test_a_spelled_out_count_before_a_measure_counts_the_noun_after_it():
    claim = "The pack holds six 30-minute lessons."
    (six, thirty) = [q for q in extract_quantities(claim)]
    assert six.value == Decimal(6) and counted_noun(claim, six) == "lesson"
    ev = "Pack contents: 8 lessons (30 min each)."
    assert counted_noun(ev, extract_quantities(ev)[0]) == "lesson"


def test_a_mistyped_identifier_is_a_near_miss_and_another_shape_is_not():
    assert near_miss("ACC-5120-0387", "ACC-5120-0378")  # two digits swapped
    assert near_miss("T-40917", "T-40817")  # one digit changed
    assert not near_miss("T-40917", "T-40917")
    assert not near_miss("T-40917", "T-409170")  # another length
    assert not near_miss("T-40917", "U-40917")  # another series
    assert not near_miss("T-40917", "T-49071")  # more than a slip


CARD = "Member card record. Member: Ilse Varga. Card number: 5120-0378. Status: active since 2 May 2024."


def test_a_claim_stating_a_mistyped_identifier_is_contradicted_and_one_about_another_item_is_not():
    assert swapped_identifier("Ilse Varga's card number is 5120-0387.", CARD) == ("5120-0387", "5120-0378", CARD.index("5120-0378"))
    # the identifier is what the claim is about (its subject): another card, so not contradicted here
    assert swapped_identifier("Card 5120-0387 is active.", CARD) is None
    # the right identifier is no conflict
    assert swapped_identifier("Ilse Varga's card number is 5120-0378.", CARD) is None


WORKS = ("Works order WO-31 for Tamsin Reed. The boiler is fitted by Carrow Heating; "
         "the flue liner is supplied by the customer.")


def test_a_passive_agent_other_than_the_claims_party_is_a_role_conflict():
    assert agent_conflicts("Carrow Heating will supply the flue liner.", WORKS)
    assert contradicting_words("Carrow Heating will supply the flue liner.", WORKS)
    assert agent_conflicts("Carrow Heating fitted the boiler.", WORKS) == []
    # a party the record never names: unsupported, not contradicted
    assert contradicting_words("Dunmore Flues will supply the flue liner.", WORKS) == []


def test_the_statement_path_contradicts_in_code_and_cites_what_says_so(ledger):
    v = verify_statement(ledger, "Ilse Varga's card number is 5120-0387.", CARD)
    assert v.status == "contradicted" and v.checker == "rules:identifier" and v.evidence.text == "5120-0378"
    v = verify_statement(ledger, "The $6 card fee was charged for April.", STATEMENT)
    assert v.status == "contradicted" and v.checker == "rules:words" and "waived" in v.evidence.text
    # the claim's identifier is in another cited record: no conflict from the near miss
    v = verify_statement(ledger, "Ilse Varga's card number is 5120-0387.", CARD, "Card number: 5120-0387. Member: Ilse Varga.")
    assert v.status != "contradicted"


BILL = """Kestrel Print Works - invoice KP-2207
Client: Ambry Books
| Item | Qty | Amount |
| Posters | 40 | $320.00 |
| Flyers | 500 | $95.00 |
| Banners | 2 | $140.00 |
| Stickers | 300 | $60.00 |
Subtotal: $615.00
Sales tax (8%): $49.20
Total due: $664.20
Annual service plan: $1,200.00 per year"""


def test_a_field_labelled_as_the_claim_labels_its_value_is_the_same_slot():
    from warrant.runtime.verify.rules import check_rules

    # the claim's "total" is the "Total due" field, not the subtotal it copies
    r = check_rules("Invoice KP-2207 totals $615.00.", BILL)
    assert r.status == "conflict" and "664.20" in r.reason
    # the subtotal claimed as the subtotal agrees
    assert check_rules("The subtotal of invoice KP-2207 is $615.00.", BILL).status != "conflict"
    # a per-quarter figure is not the yearly field's slot: never a conflict
    assert check_rules("Each quarterly payment of the annual service plan is $300.00.", BILL).status != "conflict"


def test_a_list_labelling_each_value_after_it_gives_each_value_its_own_slot():
    from warrant.runtime.verify.rules import check_rules

    ev = "Storage at Kestrel Quay: 14 days free, 9 days discounted. Rates per container."
    # 9 days is the discounted period, not the free one, although "free" stands right before it
    assert check_rules("Storage at Kestrel Quay is free for 9 days.", ev).status != "agree"
    assert any("9 days" in w for w in missing_anchors("Storage at Kestrel Quay is free for 9 days.", ev))
    assert check_rules("Storage at Kestrel Quay is discounted for 9 days.", ev).status == "agree"


def test_a_whole_record_says_what_a_window_may_leave_out():
    from warrant.runtime.verify.rules.anchors import whole_record_vetoes

    tool = '{"parcel": "PX-5", "events": [{"code": "AR", "desc": "Arrived"}, {"code": "CX", "desc": "Customs check - held, awaiting documents"}]}'
    assert whole_record_vetoes("Parcel PX-5 has cleared the customs check.", tool)
    rule = "Deposits are refunded within 14 days unless the booking was cancelled late."
    assert whole_record_vetoes("Deposits for bookings cancelled late are refunded within 14 days.", rule)
    # the rule itself, or its exception stated as one, is no veto
    assert whole_record_vetoes("Deposits are refunded within 14 days.", rule) == []
    assert whole_record_vetoes("Deposits are refunded within 14 days unless the booking was cancelled late.", rule) == []


def test_a_party_named_in_a_role_the_record_gives_to_another_party_is_a_conflict():
    from warrant.runtime.verify.rules.anchors import role_field_conflict

    po = "PURCHASE ORDER PO-8841\nBuyer: Lantern Bikes Ltd\nSupplier: Orrin Alloy Works\nDelivery: 12 May 2025"
    assert role_field_conflict("Orrin Alloy Works is the buyer on PO-8841.", po)
    assert role_field_conflict("The supplier on PO-8841 is Lantern Bikes.", po)
    assert role_field_conflict("Lantern Bikes is the buyer on PO-8841.", po) is None
    # a party the record never names: unsupported, not contradicted
    assert role_field_conflict("Quayside Metals is the supplier on PO-8841.", po) is None
    sow = 'This SOW is made between Pellam Foods plc ("Client") and Brisk Data Ltd ("Vendor").'
    assert role_field_conflict("Brisk Data is the Client under this SOW.", sow)


def test_a_value_in_the_claims_condition_is_a_case_not_a_level():
    ev = ("11.3 If a review finds errors above three percent (3%), the Vendor shall pay for the review. "
          "Where errors are 3% or less, each party bears its own costs.")
    # one value: the digits in brackets repeat the words
    assert [q.text for q in extract_quantities(ev) if q.kind == "percent"] == ["three percent (3%)", "3%"]
    assert check_rules("If a review finds errors of 2 percent, each party bears its own costs.", ev).status != "conflict"
    assert check_rules("Errors of 2 percent make the Vendor pay for the review.", ev).status != "agree"


def test_a_passive_verb_without_an_agent_names_no_one():
    ev = "Hi, the printer works again, thanks. Status: Ticket resolved (closed by agent 3 May 2026 14:10)"
    assert agent_conflicts("Ottilie confirmed the printer worked before the ticket was closed.", ev) == []
    assert agent_conflicts("The ticket was closed by Ottilie.", ev)
    # a participle qualifying a noun names no one either ("every approved order")
    ev = "PO-71,Kestrel Foods,4820.00,Approved\nNote: orders over USD 10,000.00 must be approved by regional finance."
    assert agent_conflicts("Every approved order from Kestrel Foods was under USD 10,000.", ev) == []
    assert agent_conflicts("Kestrel Foods approved every order.", "All orders were approved by regional finance.")


def test_a_party_defined_by_a_field_is_that_role():
    ev = ("TAX INVOICE\nSupplier: Larkfield Analytics Ltd\nRecipient: Corrib Biotech Ltd, VAT IE6388047V\n"
          "Withholding tax, where applicable, is deducted by recipient.")
    assert agent_conflicts("Corrib Biotech will deduct the withholding tax.", ev) == []
    assert agent_conflicts("Larkfield Analytics will deduct the withholding tax.", ev)


def test_a_claim_counting_part_of_a_group_is_no_flip_of_polarity():
    ev = "1. Approval of the 2026 audit plan: approved. The plan covers 9 audits, 2 of which are IT audits."
    assert check_rules("Seven of the audits in the 2026 audit plan are not IT audits.", ev).status != "conflict"


def test_a_value_before_a_change_is_not_the_value_after_it():
    ev = "We removed the duplicated minibar charge. Your corrected bill total is EUR 410.00."
    assert check_rules("Before the corrections, the bill totalled EUR 455.00.", ev).status != "conflict"
    assert check_rules("The bill totalled EUR 455.00.", ev).status == "conflict"


def test_how_many_times_is_a_number_the_window_must_state():
    ev = "The Customer may inspect the site no more than once in any calendar year."
    assert any("twice" in w for w in missing_anchors("The Customer may inspect the site twice a year.", ev))
    assert not any("twice" in w for w in missing_anchors("The Customer may inspect the site twice a year.", "The Customer may inspect the site twice a year."))
    # "twice the value" is a multiple, not how often
    assert not any("twice" in w for w in missing_anchors("The piano is insured for twice the value of the ring.", "Piano: £9,000. Ring: £4,500."))


def test_the_party_who_chooses_is_a_role_of_the_claim():
    ev = "8.2 Buyer's sole remedy is, at Seller's option, repair, replacement or a credit."
    why = contradicting_words("The Buyer decides whether a defect is repaired, replaced or credited.", ev)
    assert why and "Seller" in why[0][0]
    assert contradicting_words("The Seller decides whether a defect is repaired, replaced or credited.", ev) == []


def test_a_doer_noun_is_not_the_opposite_word_it_shares_a_stem_with():
    ev = "Your claim for the cellar pump has been declined, because the damage came from rust, which is excluded under Section 5."
    assert opposites("The insurer turned down the cellar pump part of the claim because the damage came from rust.", ev) == []
    assert opposites("The damage to the cellar pump from rust is insured under Section 5.", ev)


def test_an_agent_is_matched_through_a_defined_role_and_only_in_a_sentence_about_the_claim():
    letter = ('Harlow Bank ("the Bank") offers Tenby Tools Limited ("the Borrower") a loan. '
              "This offer lapses unless accepted by the Borrower by 9 March 2026.")
    assert agent_conflicts("Tenby Tools will pay a fee when it accepts the offer.", letter) == []
    assert agent_conflicts("The offer must be accepted by Harlow Bank.", letter)
    minutes = ("1. The accounts be approved and signed by the Chair. "
               "2. Any two directors be authorised to sign the Orsk supply contract.")
    assert agent_conflicts("A single director cannot sign the Orsk supply contract.", minutes) == []
    limits = "Projects up to MXN 1,000,000 may be approved by the Chief Executive Officer. Larger projects require approval of the Board."
    assert agent_conflicts("A MXN 3 million project needs the Board's approval.", limits) == []


def test_a_qualified_span_and_a_sum_with_the_stated_value_are_other_slots():
    ev = "Delivery: within 10 days of this confirmation. Payment: 30 days from the invoice date."
    assert check_rules("The seller gives a 2% discount for payment within 15 days.", ev).status != "conflict"
    assert check_rules("Payment is due 15 days from the invoice date.", ev).status == "conflict"
    paid = "I have already paid £1,150 for the order, and separately the £18.50 express-delivery charge."
    assert check_rules("With the express-delivery charge, she has paid £1,168.50 in total.", paid).status != "conflict"


def test_a_case_the_claim_sets_itself_is_not_a_stated_level():
    rates = "Rates per kg: +100 kg 2.40; +300 kg 2.10. A fuel surcharge of EUR 0.60/kg applies."
    assert check_rules("With 150 kg chargeable, the cost including the surcharge would be EUR 450.", rates).status != "conflict"
    fees = "The renewal fee for 2026 is EUR 1,200."
    assert check_rules("For the 2026 renewal, the fee is EUR 1,500.", fees).status == "conflict"


def test_who_chooses_and_who_pays_are_roles_of_the_claim():
    terms = ("3. Returns need an RA number issued to the customer. "
             "4. Defective items are reported within 6 months; the Company will, at its option, repair or replace them.")
    assert contradicting_words("It is the customer who chooses whether a defective item is repaired or replaced.", terms)
    notice = "The carrier's handling charge is USD 180. Cargo not collected within 5 days is moved off-dock at the consignee's expense."
    why = contradicting_words("The carrier will pay for moving uncollected cargo off-dock.", notice)
    assert why and "consignee" in why[0][0]
    assert contradicting_words("The consignee will pay for moving uncollected cargo off-dock.", notice) == []


def test_two_parties_named_in_roles_are_each_checked_against_the_fields():
    notice = "Consignee: Marlow Home Ltd\nNotify party: Dunmore Forwarding\nVessel: MV Tern"
    why = contradicting_words("Dunmore Forwarding is the consignee and Marlow Home is the notify party.", notice)
    assert why and "Marlow Home Ltd" in why[0][0]
    assert contradicting_words("Marlow Home is the consignee and Dunmore Forwarding is the notify party.", notice) == []


def test_a_power_or_duty_the_record_gives_to_the_other_party_vetoes_the_model():
    lease = ("5.1 The Tenant may terminate this Lease on 31 March 2028 by giving the Landlord six months' notice. "
             "5.2 The Landlord shall keep the roof and structure in repair. 5.3 The Tenant shall keep the interior in repair.")
    assert whole_record_vetoes("The Landlord can bring the Lease to an end on 31 March 2028 on six months' notice.", lease)
    assert whole_record_vetoes("Keeping the roof in repair is the Tenant's obligation.", lease)
    assert whole_record_vetoes("Keeping the interior in repair is the Tenant's obligation.", lease) == []
    assert whole_record_vetoes("The Tenant may terminate this Lease on 31 March 2028.", lease) == []


def test_a_record_that_gives_costs_to_both_parties_leaves_the_reading_open():
    terms = "Shipping is at the Seller's expense. Returns are at the Buyer's expense."
    assert contradicting_words("The buyer pays for returns.", terms) == []
    assert contradicting_words("The seller pays for returns.", "Returns are at the Buyer's expense. The seller ships the goods.")


def test_a_name_tied_to_a_row_it_does_not_stand_in_is_vetoed():
    from warrant.runtime.verify.rules.anchors import whole_record_vetoes
    ev = ("req_id,site,amount_usd,status,approver\nRQ-101,Harbor Inn,1875.25,Pending,\n"
          "RQ-102,Seaport Hotel,968.40,Approved,R. Feld\nRQ-103,Seaport Hotel,4820.00,Approved,K. Omondi\n")
    assert any("Feld" in v for v in whole_record_vetoes("RQ-101 will be approved by R. Feld.", ev))
    assert not any("Feld" in v for v in whole_record_vetoes("RQ-102 was approved by R. Feld.", ev))
    # a name the record states outside the table's rows (its letterhead, a note) is no row's
    ev2 = ev + "Note: R. Feld approves requisitions for all sites.\n"
    assert not any("Feld" in v for v in whole_record_vetoes("RQ-101 will be approved by R. Feld.", ev2))


def test_vat_included_after_the_word_and_a_rate_plus_vat_count_it_the_other_way():
    from warrant.runtime.verify.rules.check import inclusion_flips
    ev = "Agency commission at 20% + VAT: £1,256.40."
    assert inclusion_flips("The agency's commission, VAT included, came to 20% of gross bookings.", ev) == {"vat"}
    assert inclusion_flips("The agency's commission came to 20% plus VAT.", ev) == set()
    assert inclusion_flips("The fee is EUR 500, VAT excluded.", "Fee: EUR 500 including VAT") == {"vat"}


# -- found on a blind dev set (pairs _dev11), each fixed in general form ------------------------

def test_a_figure_copied_from_a_decimal_comma_record_reads_as_it_does_there(ledger):
    invoice = ("RECHNUNG Nr. 2026-118\nDieselfloater: Basispreis 1,35 €/l netto.\n"
               "Referenzpreis April 2026: 1,482 €/l\nFracht gesamt 4.210,00 €")
    # "1,482 €/l" is the record's 1.482 per litre, stated for April: nothing says what May's was
    v = verify_statement(ledger, "The reference diesel price for May 2026 was 1,482 €/l.", invoice, run="run_dc")
    assert v.status == "unsupported"
    assert extract_quantities("Referenzpreis April 2026: 1,482 €/l", True)[1].value == Decimal("1.482")


def test_a_margin_over_an_index_is_not_the_index_level():
    ev = "Contract price: Platts Gulf Coast index for May 2026 + USD 0.045/MMBtu. Quantity 10,000 MMBtu per day."
    assert check_rules("The Platts index for May 2026 settled at USD 2.80/MMBtu.", ev).status != "conflict"
    assert check_rules("The contract price is the Platts index plus USD 0.055/MMBtu.", ev).status == "conflict"
    assert check_rules("Interest is charged at SOFR plus 2.50%.", "Interest: SOFR plus 2.25% per annum.").status == "conflict"


def test_shares_of_two_different_bases_do_not_contradict():
    ev = "At-risk amount: 12% of the monthly fee = EUR 6,000. Credit for the month: EUR 4,800."
    assert check_rules("The credit equals 80% of the at-risk amount.", ev).status != "conflict"
    assert check_rules("The at-risk amount is 15% of the monthly fee.", ev).status == "conflict"


def test_a_role_the_record_leaves_undefined_may_be_the_claims_party():
    letter = ("Dear Sirs, we confirm the rent reduction set out below. This letter will not be binding until "
              "countersigned by the Tenant.")
    claim = "The letter only becomes binding once Harlow Optics countersigns it."
    assert contradicting_words(claim, letter) == []  # who the Tenant is, the letter does not say
    assert agent_conflicts(claim, letter)  # so it cannot pass either
    defined = ('Lease between Harlow Optics Ltd ("the Landlord") and Quill Books Ltd ("the Tenant"). '
               "This letter will not be binding until countersigned by the Tenant.")
    assert contradicting_words(claim, defined)
    # a name, or a role word followed by the name, is someone: "by Mara Quist", "by vendor Tallis Networks"
    assert contradicting_words("Jon Bell led the 2011 buyout of Orrin Mills.", "Orrin Mills returned to local ownership in 2011 through a buyout led by Mara Quist. Jon Bell joined in 2015.")
    assert contradicting_words("P. Lowe installed the new router.", "| 09:10 | Service desk (P. Lowe) raises a ticket |\n| 15:20 | New router installed by vendor Tallis Networks |")


def test_an_identifier_the_claim_also_names_is_no_mistyped_copy():
    ev = "Subject: Renewal notice - Policy GL 4-118203 (2025-2026)\nYour policy GL 4-118203 expires on 1 June 2026."
    assert swapped_identifier("Policy GL 4-118203 was renewed as policy GL 4-118204.", ev) is None
    assert swapped_identifier("The policy number is GL 4-118204.", ev) == ("4-118204", "4-118203", 36)


def test_an_unconditional_claim_needs_an_unconditional_window():
    w = ("Prepayment privileges: in each calendar year the borrower may prepay up to 10% of the principal without charge. "
         "Prepayments above this are subject to a charge of three months interest.")
    assert any("regardless" in x for x in missing_anchors("Any prepayment, whatever its size, is subject to a charge of three months interest.", w))
    assert not any("regardless" in x for x in missing_anchors("Prepayments above 10% of the principal are subject to a charge of three months interest.", w))
    lapse = "Licence L-77 lapses on 2027-03-01 if trading has not begun."
    assert any("regardless" in x for x in missing_anchors("Licence L-77 lapses on 2027-03-01 whether or not trading has begun.", lapse))
    assert not any("regardless" in x for x in missing_anchors("Licence L-77 lapses on 2027-03-01 whether or not trading has begun.",
                                                              "Licence L-77 lapses on 2027-03-01 whether or not trading has begun."))


def test_awaiting_confirmation_is_not_confirmed():
    note = "The $12.00 refund was handed to the courier, and we are awaiting confirmation of receipt."
    assert contradicting_words("The courier has confirmed receiving the $12.00 refund.", note)
    # in another clause than the value's, it still keeps the claim from passing
    note = "A $12.00 refund was handed to the courier on 3 May; the courier has been contacted and we are awaiting confirmation."
    assert any("await" in w for w in missing_anchors("The courier has confirmed receiving the $12.00 refund.", note))


def test_a_thing_the_window_gives_to_another_party():
    w = ("We confirm these variations. (a) The rent is reduced. (b) The Tenant's break option at 30 June 2027 is removed. "
         "The Landlord's break option in clause 8 is unaffected.")
    assert possessor_swaps("The variation removes the landlord's break option at 30 June 2027.", w)
    assert possessor_swaps("The variation removes the tenant's break option at 30 June 2027.", w) == []
    assert possessor_swaps("The landlord's break option in clause 8 is unaffected.", w) == []


def test_a_thing_still_to_be_received_has_not_been_provided():
    w = ("Decision: approved limit AUD 90,000. Conditions: Personal guarantee from director L. Okafor to be received "
         "before the first order is released.")
    assert any("to be received" in x for x in missing_anchors("Director L. Okafor has provided the required personal guarantee.", w))
    assert not any("to be received" in x for x in missing_anchors("Director L. Okafor will provide a personal guarantee.", w))
    # a condition says nothing happened: "if the offer is accepted"
    tender = ("L1 bidder: Norvale Works. The committee recommends acceptance of the L1 offer. Performance security: 5% of "
              "the contract value, to be furnished within 21 days of the letter of award.")
    assert not any("to be" in x for x in missing_anchors("If Norvale's offer is accepted, its performance security is 5% of the contract value.", tender))


YARD = ("Yard log Y-118, 4 June. While Ona Brandt was loading the trailer from a forklift operated by her "
        "colleague Piet Maas, a pallet slipped and struck Ona's forearm. Dock permits must be renewed by July 1.")


def test_two_of_the_claims_names_swapped_between_the_doer_and_another_role_is_a_conflict():
    # the record has Piet Maas operate the forklift; the claim gives that to Ona Brandt, also in it
    assert agent_conflicts("Piet Maas was struck by the pallet while Ona Brandt operated the forklift.", YARD)
    # the doer the claim names is the one the record names after the role word
    assert agent_conflicts("Piet Maas operated the forklift when Ona Brandt was struck.", YARD) == []
    assert agent_conflicts("Ona Brandt was struck while her colleague operated the forklift.", YARD) == []


def test_a_deadline_after_by_is_no_doer():
    assert agent_conflicts("Ona Brandt renewed the dock permits.", YARD) == []
