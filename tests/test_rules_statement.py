"""What a free-text statement must match before the model may pass it: opposite words about the
same thing, a rule's threshold against an instance of it, a spelled-out count before a measure.
Every example here is invented for this file."""

from __future__ import annotations

from decimal import Decimal

from warrant.runtime.verify.rules import extract_quantities
from warrant.runtime.verify.rules.anchors import missing_anchors, opposites
from warrant.runtime.verify.rules.check import decide_one
from warrant.runtime.verify.rules.numbers import counted_noun

STATEMENT = ("Harrow Bank statement, April. A transfer fee of $4.00 was charged on 3 April. "
             "The monthly card fee of $6.00 was waived for April under the Student plan.")


def test_a_claim_using_the_opposite_of_its_sentence_is_not_supported():
    why = opposites("The $6 card fee was charged for April.", STATEMENT)
    assert why and "waiv" in why[0]
    assert any("waiv" in w for w in missing_anchors("The $6 card fee was charged for April.", STATEMENT))


def test_the_same_word_in_the_sentence_about_it_is_no_opposite():
    # "charged" sits in the transfer-fee sentence, the one the claim is about: nothing to veto,
    # although "waived" is elsewhere in the record
    assert opposites("The transfer fee of $4.00 was charged on 3 April.", STATEMENT) == []
    # a sentence about something else that uses the opposite word does not count
    assert opposites("Prices include delivery to the site.", "Prices include delivery to the site. Returns exclude opened items.") == []
    assert opposites("Freight is excluded from the quoted prices.", "Quoted prices: EUR 40 per unit, freight excluded.") == []


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
