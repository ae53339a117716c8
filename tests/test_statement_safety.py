"""Free-text statements stay safe: anchors, slots, derivations, mode and tense, the window, vague
claims, and bad records. The documents here are invented for these tests."""

import pytest

from warrant.runtime.contract import Artifact
from warrant.runtime.verify.predicates.text import specificity_problem
from warrant.runtime.verify.rules import check_quantities, check_rules, extract_quantities
from warrant.runtime.verify.rules.anchors import about_same_thing, missing_anchors, names, title_line
from warrant.runtime.verify.rules.negation import same_mode
from warrant.runtime.verify.text import STOP, content_stems, sentence_spans
from warrant.runtime.verify.backends import load_backend
from warrant.runtime.verify.verifier import Verifier
from tests.corpus import statement

RUN = "run_s"


@pytest.fixture(scope="module")
def nli():
    return load_backend()


# -- the shared text module ------------------------------------------------------------------


def test_one_splitter_and_one_stop_list():
    text = "Invoice No. 7 is due. Total due: $1,200.00; payable by wire.\nThanks"
    assert [text[a:b] for a, b in sentence_spans(text)] == ["Invoice No. 7 is due.", "Total due: $1,200.00;", "payable by wire.", "Thanks"]
    assert {"the", "not", "shall", "march", "dollars"} <= STOP
    assert content_stems("The invoices were paid") == ["invoic", "pay"]


# -- anchors --------------------------------------------------------------------------------


def test_an_identifier_must_match_with_every_character():
    window = "Order ORD-7703 will ship by 3 May from the Tilbury depot."
    assert missing_anchors("Order ORD-7703 will ship by 3 May.", window) == []
    why = missing_anchors("Order ORD-7702 will ship by 3 May.", window)
    assert why and "ORD-7702" in why[0]
    assert missing_anchors("Invoice INV-880 is due.", "Invoice INV-88 is due.")


def test_a_number_made_of_digit_groups_is_an_identifier_matched_with_every_digit():
    window = "Remittance advice. Customer account number: 40-227-3318. Sort code 20-45-77."
    assert missing_anchors("The customer account number is 40-227-3318.", window) == []
    assert any("40-227-3381" in w for w in missing_anchors("The customer account number is 40-227-3381.", window))
    assert any("551204-9" in w for w in missing_anchors("The container is TGHU 551204-9.", "Container: TGHU 551204-6 (sealed)."))
    # dates and year ranges are not identifiers
    assert missing_anchors("The budget for 2026-27 was approved.", "The budget for 2026-27 was approved in March.") == []


def test_an_amount_including_a_charge_is_not_one_excluding_it():
    window = "The hire of the marquee costs £1,900 plus VAT, payable on booking."
    assert any("vat" in w for w in missing_anchors("The marquee costs £1,900 including VAT.", window))
    assert any("vat" in w for w in missing_anchors("The marquee costs £1,900 excluding VAT.", "Total for the marquee: £1,900 incl. VAT."))
    assert missing_anchors("The marquee costs £1,900 excluding VAT.", "The marquee costs £1,900 excluding VAT.") == []


def test_a_decision_reported_as_deferred_does_not_support_it_as_approved():
    window = ("Item 2: the committee approved the annual grants budget. "
              "Item 3: the request to resurface the Fenwick courts was postponed to the spring meeting.")
    assert any("postpon" in w for w in missing_anchors("The committee approved resurfacing the Fenwick courts.", window))
    assert missing_anchors("The committee approved the annual grants budget.", window) == []


def test_a_name_absent_from_the_window_stops_a_pass_even_as_the_first_word():
    window = "Three ports lie on its coast: Varna, Burgas and Balchik."
    assert "Constanta" in names("Constanta lies on the coast.") or missing_anchors("Constanta lies on the coast.", window)
    assert any("Constanta" in w for w in missing_anchors("Constanta lies on the coast.", window))
    assert missing_anchors("Burgas lies on the coast.", window) == []


def test_an_honorific_is_not_a_name_with_or_without_its_full_stop():
    assert names("Ms Hollis's notice pay is GBP 9,840.") == ["Hollis's"]
    assert names("Dr. Marchetti pays the levy.") == names("Dr Marchetti pays the levy.") == ["Marchetti"]


def test_a_clause_opening_the_claim_is_no_name():
    assert names("Before Call No. 7, the Foundation had paid in USD 6.75 million.") == ["Call", "Foundation"]
    assert names("Once Call 4 is funded, the trust will have paid USD 900,000.") == ["Call"]
    assert names("Acme Ltd pays the fee.") == ["Acme", "Ltd"]  # a name opening the claim stays one


def test_a_name_must_stand_in_the_role_the_claim_gives_it():
    window = "Expense report ER-51. Submitted by: K. Osei. Approved by: R. Lind (Controller)."
    assert any("role" in w for w in missing_anchors("Expense report ER-51 was approved by K. Osei.", window))
    assert missing_anchors("Expense report ER-51 was approved by R. Lind.", window) == []
    swapped = "The Vendor shall indemnify the Buyer against third-party claims."
    assert any("swap" in w for w in missing_anchors("The Buyer indemnifies the Vendor against third-party claims.", swapped))


def test_a_perfect_tense_fact_is_not_supported_by_a_permission():
    ev = "The Tenant may renew the lease once for up to 2 years with 60 days' written notice."
    assert same_mode("The Tenant has given notice to renew the lease for 2 years.", ev)
    assert same_mode("The Tenant has renewed the lease for 2 years.", ev)
    assert same_mode("The Tenant may renew the lease for up to 2 years.", ev) is None


def test_mode_and_tense_must_match():
    assert same_mode("Order ORD-7703 shipped by 3 May.", "Order ORD-7703 will ship by 3 May.")
    assert same_mode("The parts will ship on 3 May.", "The parts shipped on 3 May.")
    assert same_mode("The Contractor must engage a subcontractor.", "The Contractor may engage one subcontractor.")
    assert same_mode("Order ORD-7703 will ship by 3 May.", "Order ORD-7703 will ship by 3 May.") is None
    assert same_mode("Expenses are reimbursed at cost.", "The Client shall reimburse expenses at cost.") is None
    assert same_mode("Invoices must be paid within 45 days.", "Payment terms: net 45 days.") is None


def test_a_claim_naming_its_own_document_finds_it_in_the_title_line():
    record = "Invoice INV-88\nIssued by Tern Studio to Gable Foods.\nAmount due: $2,400.00."
    assert title_line(record) == "Invoice INV-88"
    chunk = "Amount due: $2,400.00."
    assert missing_anchors("Invoice INV-88 has an amount due of $2,400.", chunk)
    assert missing_anchors("Invoice INV-88 has an amount due of $2,400.", title_line(record) + "\n" + chunk, chunk) == []


def test_a_contradiction_needs_the_window_to_be_about_the_same_thing():
    assert about_same_thing("Express delivery takes 5 days.", "Standard delivery lead time is 3 weeks.")
    assert about_same_thing("Line item 10 records 4 hours.", "Line item 9: 16.0 hours.")
    assert about_same_thing("Standard delivery takes 5 days.", "Standard delivery lead time is 3 weeks.") == []


# -- slots and derivations ------------------------------------------------------------------


def test_a_number_contradicts_only_a_value_in_the_same_slot():
    assert check_quantities("The total is $1,000.", "Subtotal: $1,000.00. Freight: $80.00. Total: $1,080.00.").status == "conflict"
    assert check_quantities("The total is $1,080.", "Subtotal: $1,000.00. Freight: $80.00. Total: $1,080.00.").status == "agree"
    # a subtotal alone is not a total
    assert check_quantities("The total is $1,000.", "Subtotal: $1,000.00. Freight: $80.00.").status != "agree"
    # an account number is not a year, a count of crates is not a count of boxes
    assert check_quantities("The museum opened in 1994.", "Account 1994 was opened by the museum.").status != "conflict"
    assert check_quantities("The consignment has 60 crates.", "Crates: 5 | Boxes: 60").status != "agree"
    assert check_quantities("The hotel opened 12 rooms.", "Room 12 of the hotel overlooks the harbour.").status != "conflict"


def test_per_unit_rates_averages_and_totals_are_computed_from_two_stated_values():
    assert check_quantities("The consignment averages 12 boxes per crate.", "Crates: 5 | Boxes: 60").status == "agree"
    r = check_quantities("The consignment averages 15 boxes per crate.", "Crates: 5 | Boxes: 60")
    assert r.status == "conflict" and "60 / 5 = 12" in r.reason
    ev = "40 hours of calibration at $125 per hour."
    assert check_quantities("The order amounts to a total of $5,000.", ev).status == "agree"
    assert check_quantities("The order amounts to a total of $4,000.", ev).status == "conflict"
    # two candidate operands: nothing is computed, nothing is contradicted
    assert check_quantities("The load averages 12 boxes per crate.", "Crates: 5 or 6 | Boxes: 60").status != "conflict"


def test_a_value_stated_beside_the_claimed_one_does_not_contradict_it():
    # the claimed value sits in the same sentence or table row, tied to the claim about as well:
    # which slot the claim means is a reading, so it is never called false
    ev = "Phase one ends on 12 March 2027 and the final handover on 28 May 2027."
    assert check_quantities("The final handover is on 28 May 2027.", ev).status != "conflict"
    assert check_quantities("Phase one ends on 28 May 2027.", ev).status == "conflict"
    ev = "Parking is refunded up to $40 a day at airports and $18 a day elsewhere."
    assert check_quantities("Parking away from airports is refunded up to $18 a day.", ev).status != "conflict"
    row = "Line  Item             Qty   Unit\n2     Paint rollers     60   each\n"
    assert check_quantities("The order has 60 paint rollers.", row).status != "conflict"
    # the subject right beside the other value still decides
    assert check_quantities("Senior time is billed at $210 per hour.", "Senior time is billed at $390 per hour; junior time at $210 per hour.").status == "conflict"


def test_each_noun_makes_a_rate_and_its_total_is_computed():
    ev = "The delivery has 6 crates. Each crate holds 24 jars of honey."
    assert check_quantities("The delivery holds 144 jars in total.", ev).status == "agree"
    assert check_quantities("The delivery holds 150 jars in total.", ev).status == "conflict"
    ev = "The fee of $20,000 is paid in four equal instalments."
    assert check_quantities("Each instalment of the fee is $5,000.", ev).status == "agree"
    assert check_quantities("Each instalment of the fee is $4,000.", ev).status == "conflict"
    ev = "The lorry carries 5 pallets with a combined weight of 2,100 kg."
    assert check_quantities("Each pallet weighs 420 kg on average.", ev).status == "agree"


_CATERING = ("QUOTE Q-2210 - Bellbird Catering\nEvent date: 14 June 2027\nGuests: 40\nMenu per guest: £55.00\n"
             "Drinks package per guest: £21.00\nService: 10% of food and drinks\nDeposit paid: £500.00\n")


def test_in_a_document_of_many_values_a_conflict_needs_a_label_beside_it_and_a_copied_value():
    # a computed claim is not contradicted by one operand of its computation
    assert check_quantities("The food for the event, before drinks and service, comes to £2,200.", _CATERING).status != "conflict"
    # a value copied from the document, with its label beside it, still contradicts
    assert check_quantities("The deposit paid is £600.00.", _CATERING).status == "conflict"
    assert check_quantities("The deposit paid is £500.00.", _CATERING).status == "agree"


def test_the_model_calls_no_statement_contradicted_on_a_long_document(ledger, nli):
    doc = ("STATION REPORT - Kelpie Ridge\nThe gauge at the weir was serviced in April. Readings resumed on the next day. "
           "The flood at the weir peaked in May. Water was released through the east sluice.")
    rid = ledger.append(RUN, doc)
    claim = "The flood at the weir peaked in winter."
    (p,) = Verifier(ledger, nli).verify(statement(RUN, rid, claim)).claims[0].propositions
    assert p.status == "unsupported" and p.checker.startswith("nli"), p.reason
    # the same sentence alone is short enough for the model to call it
    rid = ledger.append(RUN, "The flood at the weir peaked in May.")
    (p,) = Verifier(ledger, nli).verify(statement(RUN, rid, claim)).claims[0].propositions
    assert p.status == "contradicted" and p.checker.startswith("nli"), p.reason


def test_the_model_alone_never_calls_a_claim_with_an_undecided_value_contradicted(ledger, nli):
    # "open for 7 days" is arithmetic over two dates: the small model says "contradiction", but only
    # a rule tying the value to its slot may call a number false
    rid = ledger.append(RUN, '{"ticket": "T-77", "opened": "2027-03-02", "closed": "2027-03-09", "priority": "low", "owner": "Ines Duarte"}',
                        media_type="application/json")
    for text in ("Ticket T-77 was open for 7 days.", "Ticket T-77 was closed 168 hours after it was opened."):
        (p,) = Verifier(ledger, nli).verify(statement(RUN, rid, text)).claims[0].propositions
        assert p.status != "contradicted", (text, p.reason)


def test_spelled_out_numbers_and_year_less_dates_are_parsed():
    (q,) = extract_quantities("four hundred dollars")
    assert q.kind == "money" and q.value == 400 and q.unit == "USD"
    assert [q.value for q in extract_quantities("one thousand two hundred and fifty euros")] == [1250]
    assert check_rules("The quote is $400.", "Quote: four hundred dollars for the desk.").status == "agree"
    (d,) = [q for q in extract_quantities("will ship by 3 May") if q.kind == "date"]
    assert (d.value.month, d.value.day, d.unit) == (5, 3, "noyear")
    assert [q.kind for q in extract_quantities("The supplier may ship goods.")] == []


# -- vague claims and empty Conjectures (item 7) --------------------------------------------


@pytest.mark.parametrize("text", ["INV-88 seems overpriced.", "The rate on line 14 is reasonable.", "Invoice INV-4421 looks fine to me."])
def test_evaluative_judgements_are_unverifiable_whatever_identifiers_they_name(text):
    assert specificity_problem(text)


@pytest.mark.parametrize("text", ["A fine of $500 applies to late delivery.", "Units are sold at fair market value of $20.", "The priority of ticket T-9 is high."])
def test_facts_that_share_words_with_judgements_stay_checkable(text):
    assert specificity_problem(text) is None


def test_a_conjecture_without_propositions_is_unverifiable(ledger):
    art = {"run_id": RUN, "from_agent": "analyst", "claims": [{"id": "k1", "type": "Conjecture", "text": "The vendor may be double-billing."}]}
    v = Verifier(ledger, None).verify(Artifact.model_validate(art))
    assert v.claims[0].status == "unverifiable"


def test_an_evaluative_statement_naming_an_identifier_is_not_sent_to_the_model(ledger, nli):
    rid = ledger.append(RUN, "Invoice INV-88. Amount due: $2,400.00.")
    art = {"run_id": RUN, "from_agent": "analyst", "claims": [{"id": "c1", "type": "Assertion", "text": "x", "propositions": [
        {"id": "p1", "pred": "statement", "args": {"text": "INV-88 seems overpriced."}, "ledger_ids": [rid]}]}]}
    (p,) = Verifier(ledger, nli).verify(art).claims[0].propositions
    assert p.status == "unverifiable" and p.checker == "schema"


# -- bad records: a verdict or a clear error, never a crash; the ledger unchanged -------------



@pytest.mark.parametrize(
    "data,media",
    [
        (bytes(range(256)) * 64, "application/octet-stream"),  # binary
        (b"\xff\xfe\x00I\x00n\x00v\x00o\x00i\x00c\x00e", "text/plain; charset=utf-8"),  # binary claiming to be text
        (b'{"invoice_id": "INV-88", "total": 2400', "application/json"),  # malformed JSON
    ],
    ids=["binary", "binary-as-text", "malformed-json"],
)
def test_bad_records_give_a_verdict_and_change_nothing(ledger, journal, nli, data, media):
    rid = ledger.append(RUN, data, media_type=media)
    before = (ledger.count(), ledger.verify().head_hash)
    v = Verifier(ledger, nli, journal=journal).verify(statement(RUN, rid, "Invoice INV-88 has a total of $2,400."))
    (p,) = v.claims[0].propositions
    assert p.status in ("unsupported", "supported", "contradicted") and p.reason
    assert p.status != "supported" or media == "application/json"
    assert (ledger.count(), ledger.verify().head_hash) == before
    assert ledger.get(RUN, rid).data == data


def test_a_50_mb_record_gets_a_verdict(ledger, nli):
    filler = "The depot logged routine pallet movements for the quarter without incident. " * 660_000
    text = "Warehouse log WL-7\n" + filler + "Pallet count on 30 June 2026: 412 pallets."
    assert len(text.encode()) > 50_000_000
    rid = ledger.append(RUN, text)
    (p,) = Verifier(ledger, nli).verify(statement(RUN, rid, "The pallet count on 30 June 2026 was 512 pallets.")).claims[0].propositions
    assert p.status in ("contradicted", "unsupported")
    assert ledger.get(RUN, rid).data.endswith(b"412 pallets.")


def test_typographic_dashes_and_quotes_do_not_hide_an_anchor():
    assert missing_anchors("Order ORD\u20137703 will ship by 3 May.", "Order ORD-7703 will ship by 3 May.") == []


def test_what_was_announced_with_would_is_not_what_happened():
    ev = "Halden Dairy said on Monday it would close its bottling line in Tarrow by the end of June."
    assert same_mode("Halden Dairy closed its bottling line in Tarrow at the end of June.", ev)
    assert same_mode("Halden Dairy plans to close its bottling line in Tarrow.", "Halden Dairy will close its bottling line in Tarrow.") is None


def test_a_difference_or_a_value_the_claim_states_itself_is_no_conflict():
    # "about $33.3m higher" is the difference of the two profits, not a misread of either
    ev = "Net profit for the quarter was $84.6 million, up from $51.3 million a year earlier."
    assert check_rules("Quarterly net profit was about $33 million higher than a year earlier.", ev).status != "conflict"
    # one stated value fills one slot: the claim names the list price itself
    ev = "The licence fee is EUR 1.200,00 per seat. Renewed maintenance costs 20% of the list price per year."
    assert check_rules("At a list price of EUR 1,200, a year of maintenance costs EUR 240 per seat.", ev).status != "conflict"
    # while a claim whose one value differs from the stated one still conflicts
    assert check_rules("The licence fee is EUR 1,250 per seat.", ev).status == "conflict"


def test_a_negated_opposite_agrees_and_an_excepted_item_is_out_of_scope():
    from warrant.runtime.verify.rules.anchors import opposites, whole_record_vetoes

    ev = "Vouchers of any kind, including store cards, may never be accepted from suppliers."
    assert opposites("A store card from a supplier has to be refused.", ev) == []
    assert opposites("A store card from a supplier may be accepted.", "Store cards from suppliers must be refused.")
    policy = ("Travel Policy TP-4\nApplies to: all staff in Norway and Denmark, except contractors and interns.\n"
              "Economy class is booked for flights under six hours.")
    assert whole_record_vetoes("The travel policy applies to interns in Norway.", policy)
    assert whole_record_vetoes("The travel policy applies to engineers in Norway.", policy) == []
    assert whole_record_vetoes("The travel policy does not apply to interns in Norway.", policy) == []
    # "excluding VAT" qualifies an amount, it excepts no one
    assert whole_record_vetoes("The order is worth SEK 9,000 including VAT.", "Order value: SEK 7,200 excluding VAT, for all sites.") == []


def test_a_value_in_another_row_or_column_than_the_one_the_claim_names_is_vetoed():
    from warrant.runtime.verify.rules.anchors import other_row_or_column, whole_record_vetoes

    cover = ("Coverage        Limit                               Premium\n"
             "Collision       Cash value less $500 deductible     $310.00\n"
             "Glass           Cash value less $100 deductible     $42.00")
    assert other_row_or_column("Glass claims carry a $500 deductible.", cover)
    assert other_row_or_column("Glass claims carry a $100 deductible.", cover) == []
    assert whole_record_vetoes("Collision claims carry a $500 deductible.", cover) == []
    bank = ("Booking date;Value date;Text;Amount EUR\n03.02.2026;04.02.2026;Transfer to Kessler GmbH;-820,00\n"
            "05.02.2026;05.02.2026;Card settlement;+1.204,10")
    assert other_row_or_column("The transfer to Kessler GmbH had a value date of 3 February 2026.", bank)
    assert other_row_or_column("The transfer to Kessler GmbH was booked on 3 February 2026.", bank) == []
    tax = ("First instalment for 2026: £1,200.00    due 31 March 2026\n"
           "Second instalment for 2026: £1,200.00    due 30 September 2026")
    assert other_row_or_column("The second instalment is due on 31 March 2026.", tax)
    assert other_row_or_column("The first instalment is due on 31 March 2026.", tax) == []
    # the row the value sits in is the one the claim names: nothing to veto
    assert other_row_or_column("After the 10% discount the total is $4,410.", "Subtotal: $4,900.00\nDiscount (10%): -$490.00\nTotal: $4,410.00") == []


def test_a_rate_a_length_and_an_insured_sum_are_other_slots_than_a_total_or_a_gap():
    from warrant.runtime.verify.rules.anchors import opposites

    # a monthly rate does not refute the total over a span
    ev = "The fellowship runs for two years and carries a monthly stipend of INR 36,000."
    assert check_rules("Over the two years, the stipend alone comes to INR 8,64,000.", ev).status != "conflict"
    assert check_rules("The monthly stipend is INR 38,000.", ev).status == "conflict"
    # a gap between two events is not a holding period
    ev = "We will try again on Monday 9 March. After a second failed attempt the parcel is held for 7 days."
    assert check_rules("The second attempt comes four days after the first one.", ev).status != "conflict"
    # "sum insured" of one cover is no total of the named parts
    ev = "Sums insured: buildings EUR 2,000,000; stock EUR 500,000\nBusiness interruption: sum insured EUR 900,000"
    assert check_rules("Buildings and stock are insured for EUR 2.6 million combined.", ev).status != "conflict"
    # the record says it in the claim's own words elsewhere: no opposite
    ev = "Items: 9   Total approved: GBP 410.00\nRejected items:\n  - Taxi, no receipt: GBP 30.00"
    assert opposites("One item of GBP 30.00 was rejected.", ev) == []


def test_a_power_the_record_gives_to_another_named_party_is_vetoed():
    from warrant.runtime.verify.rules.anchors import modal_subject_swap

    clause = ("9.2 Halvard Mills may suspend deliveries if any invoice is more than 60 days overdue. "
              "9.3 Brenna Foods shall pay each invoice within 30 days.")
    assert modal_subject_swap("Brenna Foods may suspend deliveries when an invoice is overdue.", clause)
    assert modal_subject_swap("Halvard Mills may suspend deliveries when an invoice is overdue.", clause) == []
    # "either party" gives the power to both: no swap
    assert modal_subject_swap("Brenna Foods may terminate on notice.", "Either party may terminate on notice. Brenna Foods shall pay.") == []
    # a party the record never names may be another record's: not decided here
    assert modal_subject_swap("Osric Ltd may suspend deliveries.", clause) == []


def test_a_flow_the_record_gives_the_other_way_round_is_contradicted():
    from warrant.runtime.verify.rules.anchors import contradicting_words, direction_swap

    note = ("DELIVERY NOTE DN-5521\nShipper: Kettleby Glassworks Ltd, Stoke\nConsignee: Marram Interiors, Bristol\n"
            "Pieces: 4 crates\n")
    why = direction_swap("Marram Interiors shipped the crates to Kettleby Glassworks.", note)
    assert why and "Kettleby Glassworks" in why[0]
    assert contradicting_words("Marram Interiors shipped the crates to Kettleby Glassworks.", note)
    # the direction the record gives, a party it does not place, or a "same as" field: no conflict
    assert direction_swap("Kettleby Glassworks shipped the crates to Marram Interiors.", note) is None
    assert direction_swap("Marram Interiors shipped the crates to Ostler Freight.", note) is None
    both = note + "Notify party: Kettleby Glassworks Ltd\nTo: Kettleby Glassworks Ltd\n"
    assert direction_swap("Marram Interiors shipped the crates to Kettleby Glassworks.", both) is None


def test_a_numbered_thing_must_carry_its_number_in_the_window():
    window = ("Milestone 3 (bearing replacement) was certified in June. Payment application no. 4 was submitted "
              "on 15 July and is with the county for review.")
    why = missing_anchors("Payment application no. 3 has been paid.", window)
    assert any("application" in w and "3" in w for w in why)
    assert not any("number" in w for w in missing_anchors("Payment application no. 4 was submitted on 15 July.", window))
    assert not any("number" in w for w in missing_anchors("Milestone no. 3 was certified in June.", window))
    # a long number marked as one needs no noun beside it in the window
    assert not any("number" in w for w in missing_anchors("Issue #4471 fixed the export crash.", "Fixed\n- #4471: export crash on large files."))


def test_a_word_the_window_only_negates_does_not_support_an_affirmative_claim():
    # the clause that shares most words with the claim is the first, which has no "not"
    ev = ("The rebate band for the year is set by the volume of the item on one order. Volumes of separate orders are not combined. "
          "Rebates are paid quarterly.")
    claim = "The rebate band for the year is set by combining the volumes of the item on separate orders."
    assert missing_anchors(claim, ev) == ["'combined' is stated only negated in the window"]
    # the negated claim, a claim on another clause, and a word the window also affirms are untouched
    assert not [m for m in missing_anchors("Volumes of separate orders are not combined.", ev) if "negated" in m]
    assert not [m for m in missing_anchors("Rebates are paid quarterly.", ev) if "negated" in m]
    both = ev + " Credits from two orders are combined on one statement."
    assert not [m for m in missing_anchors(claim, both) if "only negated" in m]
    # "not later than" is a comparison, not a negated event
    assert not [m for m in missing_anchors("The goods arrive later than the ship date.", "Goods arrive not later than the ship date.") if "only negated" in m]


def test_a_word_the_record_only_negates_vetoes_support_read_from_another_clause():
    from warrant.runtime.verify.rules.anchors import whole_record_vetoes

    record = ("Framework FW-9\n4.1 Prices are in EUR.\n4.2 The rebate band for the year is set by the volume of the item on one order.\n"
              "4.3 Volumes of separate orders are not combined.")
    claim = "The rebate band for the year is set by combining the volumes of separate orders."
    assert whole_record_vetoes(claim, record) == ["'combined' is stated only negated in the record"]
    assert whole_record_vetoes("Volumes of separate orders are not combined.", record) == []
    # a negation that only excepts a case ("not ... without consent") is no veto
    assert whole_record_vetoes("The supplier needs consent to subcontract the works.",
                               "The supplier shall not subcontract the works without the buyer's written consent.") == []
