"""A claim's quantifiers and bounds ("only", "all", "at least", "at most") are anchors: a window
that does not say them about the claim supports only a weaker claim. Invented documents."""

import pytest

from warrant.runtime.verify.rules.anchors import missing_anchors, quantifiers


@pytest.mark.parametrize(
    "claim, window",
    [
        ("Only residents may use the rooftop garden.", "Residents and their guests may use the rooftop garden."),
        ("All volunteers receive a travel allowance.", "Volunteers on overnight shifts receive a travel allowance."),
        ("The ferry always leaves from Pier 4.", "The ferry leaves from Pier 4 on weekdays."),
        ("Entrants must be at least 16 years old.", "Entrants must be 16 years old on the day of the race."),
        ("The deposit is at most 200 francs.", "The deposit is 200 francs per booking."),
    ],
)
def test_a_quantifier_the_window_does_not_state_keeps_the_claim_from_passing(claim, window):
    assert quantifiers(claim, window)
    assert any("the claim says" in w for w in missing_anchors(claim, window))


@pytest.mark.parametrize(
    "claim, window",
    [
        ("Only residents may use the rooftop garden.", "The rooftop garden is for residents only."),
        ("Only residents may use the rooftop garden.", "The rooftop garden may be used solely by residents."),
        ("Every volunteer receives a travel allowance.", "Each volunteer receives a travel allowance."),
        ("All volunteers receive a travel allowance.", "A travel allowance is paid to every volunteer."),
        ("Entrants must be at least 16 years old.", "Entrants must be a minimum of 16 years old."),
        ("The deposit is at most 200 francs.", "The deposit shall not exceed 200 francs."),
        ("The deposit is no more than 200 francs.", "The deposit is capped at 200 francs."),
    ],
)
def test_the_same_quantifier_in_other_words_is_found(claim, window):
    assert quantifiers(claim, window) == []
    assert missing_anchors(claim, window) == []  # nor is the quantifier taken for the subject


def test_only_the_claim_side_triggers_and_idioms_are_not_quantifiers():
    # the evidence may be stronger than the claim
    assert quantifiers("Residents may use the rooftop garden.", "Only residents may use the rooftop garden.") == []
    # "in all" is a total, "at all" an intensifier, "not only" no restriction
    assert quantifiers("The tour costs 90 francs in all.", "The tour costs 90 francs.") == []
    assert quantifiers("Not only residents may use the garden.", "Residents may use the garden.") == []


def test_the_quantifier_must_be_said_about_the_claim_not_elsewhere_in_the_window():
    window = "All rooms have a kettle. Residents may use the rooftop garden."
    assert quantifiers("Only residents may use the rooftop garden.", window)
    assert quantifiers("All residents may use the rooftop garden.", "Only staff may park. Residents may use the rooftop garden on Sundays.")
