"""Scope, state, roles and derived values of free-text claims: each mechanism on invented
documents, with a claim that must not pass and one that must still pass."""

from warrant.runtime.verify.rules import check_quantities
from warrant.runtime.verify.rules.anchors import missing_anchors, role_field_conflict, whole_record_vetoes
from warrant.runtime.verify.rules.check import computable
from warrant.runtime.verify.rules.registry import extract_quantities


def test_opposite_sides_and_coverage_words_are_not_the_same_fact():
    window = "Inspection note: a hairline crack in the left rear axle housing. Flood damage: excluded"
    assert missing_anchors("The crack is in the right rear axle housing.", window)
    assert missing_anchors("The crack is in the left rear axle housing.", window) == []
    assert missing_anchors("Flood damage is covered.", window)
    assert missing_anchors("The crack is in the left front axle housing.", window)


def test_a_motion_that_failed_is_not_approved():
    record = "Allotment Society - AGM\nProposal to build a second tool shed: motion failed, 11 for / 19 against.\nTreasurer re-elected."
    assert whole_record_vetoes("The second tool shed was approved.", record)
    assert missing_anchors("The second tool shed was approved.", record)


def test_a_state_still_awaited_does_not_support_it_as_done():
    form = "TIMESHEET TS-4410   Worker: Ada Brunner\nHours: 37.5\nApprover: M. Okafor   Status: Pending approval"
    assert whole_record_vetoes("M. Okafor approved timesheet TS-4410.", form)
    done = "TIMESHEET TS-4410   Worker: Ada Brunner\nHours: 37.5\nApprover: M. Okafor   Status: Approved 3 March"
    assert whole_record_vetoes("M. Okafor approved timesheet TS-4410.", done) == []
    plan = "Year 2 (anticipated, subject to review): equipment budget $9,000"
    assert whole_record_vetoes("The funder has committed $9,000 for the Year 2 equipment budget.", plan)


def test_a_role_of_two_words_in_fields_that_share_a_line():
    record = "LOAN NOTE\nLead lender: Carrow Savings Bank   Participant: Fenby Credit Union\nPrincipal: $400,000"
    assert role_field_conflict("Fenby Credit Union is the lead lender of the loan.", record)
    assert role_field_conflict("Carrow Savings Bank is the lead lender of the loan.", record) is None
    # a record that never names the party: the claim may be about another record
    assert role_field_conflict("Mossley Bank is the lead lender of the loan.", record) is None


def test_a_claim_of_no_limit_needs_a_window_that_says_so():
    window = "Refills of the water bottle are free, up to three per visit."
    assert missing_anchors("Visitors may refill the water bottle as many times as they like.", window)
    assert missing_anchors("Visitors may refill the water bottle an unlimited number of times.", window)
    assert missing_anchors("Visitors may refill the water bottle an unlimited number of times.",
                           "Visitors may refill the water bottle an unlimited number of times, free of charge.") == []


def test_a_value_computed_from_the_evidence_is_not_contradicted_by_an_operand():
    lease = "Hire of the marquee: 12 weekends at $850 per weekend."
    assert check_quantities("The 12 weekends of hire cost $10,200 in all.", lease).status != "conflict"
    grant = "Prize fund: $9,000. First prize: $6,000; the rest is shared by the runners-up."
    assert check_quantities("The runners-up share $3,000.", grant).status != "conflict"
    # a value stated in another slot still contradicts, and so does a total counting a part twice
    invoice = "Net: $500.00. Delivery: $40.00. Total: $540.00."
    assert check_quantities("The total is $500.", invoice).status == "conflict"
    assert check_quantities("The total is $580.", invoice).status == "conflict"
    q = extract_quantities("The runners-up share $3,000.")[0]
    assert computable(q, extract_quantities(grant))
    assert not computable(q, extract_quantities("Prize fund: $9,000. First prize: $5,000."))


def test_two_names_paired_with_each_others_words_do_not_pass():
    minutes = "Club committee - minutes\n3. New kit order approved (proposed Okafor, seconded Lindgren).\n4. AOB."
    assert any("other way round" in w for w in missing_anchors("Lindgren proposed the new kit order and Okafor seconded it.", minutes))
    assert missing_anchors("Okafor proposed the new kit order and Lindgren seconded it.", minutes) == []
    assert missing_anchors("The new kit order was proposed by Okafor and seconded by Lindgren.", minutes) == []
    # each name beside both words: nothing to say who did which
    assert missing_anchors("Lindgren proposed the order and Okafor seconded it.", "Okafor and Lindgren proposed and seconded the order.") == []


def test_a_claim_about_another_group_with_the_same_qualifier_does_not_pass():
    window = "Eligibility: members with at least 2 years of membership may borrow the trailer."
    assert any("Visitors" in w for w in missing_anchors("Visitors with at least 2 years of membership may borrow the trailer.", window))
    assert missing_anchors("Members with at least 2 years of membership may borrow the trailer.", window) == []


def test_a_question_still_under_review_does_not_support_a_conclusion():
    record = "The council said it will review whether the footbridge could have stayed open during the flood."
    assert whole_record_vetoes("The council concluded that the footbridge could have stayed open during the flood.", record)
    assert whole_record_vetoes("The council concluded that the footbridge could have stayed open during the flood.",
                               "The council reviewed the closure and concluded that the footbridge could have stayed open during the flood.") == []
