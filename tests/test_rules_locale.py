"""Number and date conventions the rules read as their writers meant them: Indian digit grouping
and lakh/crore, group patterns that are no number, and numeric dates whose order the document
states or settles. Every example here is invented."""

import datetime
from decimal import Decimal

import pytest

from warrant.runtime.verify.rules import check_rules, extract_quantities
from warrant.runtime.verify.rules.anchors import missing_anchors
from warrant.runtime.verify.rules.dates import format_hints, numeric_order, stated_format
from warrant.runtime.verify.verifier import Verifier, VerifierConfig


def values(text):
    return [(q.kind, q.value, q.unit) for q in extract_quantities(text)]


@pytest.mark.parametrize(
    "text, value, unit",
    [
        ("Sanctioned limit: INR 40,00,000", Decimal(4_000_000), "INR"),
        ("Grant of Rs. 7,50,000 released", Decimal(750_000), "INR"),
        ("Rs 1,25,000.50 received", Decimal("125000.50"), "INR"),
        ("Budget ₹3,00,00,000 for the year", Decimal(30_000_000), "INR"),
        ("a fee of 12 lakh rupees", Decimal(1_200_000), "INR"),
        ("INR 2 crore", Decimal(20_000_000), "INR"),
        ("₹1.5 crore", Decimal(15_000_000), "INR"),
        ("Rs. 4.25 lakhs", Decimal(425_000), "INR"),
        ("USD 1,234,567.89", Decimal("1234567.89"), "USD"),  # standard grouping unchanged
    ],
)
def test_indian_grouping_and_scale_words_read_as_written(text, value, unit):
    (q,) = extract_quantities(text)
    assert (q.kind, q.value, q.unit) == ("money", value, unit)


@pytest.mark.parametrize(
    "text, value",
    [
        ("The depot holds 3,50,000 cartons", Decimal(350_000)),
        ("a town of 18 lakh people", Decimal(1_800_000)),
        ("about 1.2 crore visitors", Decimal(12_000_000)),
        ("2 million boxes", Decimal(2_000_000)),
        ("4,500 boxes", Decimal(4500)),
    ],
)
def test_plain_numbers_take_grouping_and_scale_words(text, value):
    assert values(text) == [("number", value, None)]


@pytest.mark.parametrize("text", ["Paid $1,2345 on delivery", "Balance USD 3,456,7890", "Stock 12,3,456 units"])
def test_a_group_pattern_neither_standard_nor_indian_is_no_number(text):
    # read as nothing, never as its first digits ("$1", "USD 3,456", "12")
    assert all(q.value not in (1, 3456, 12) for q in extract_quantities(text)), values(text)
    assert not [q for q in extract_quantities(text) if q.kind == "money"]


def test_indian_amounts_do_not_add_up_to_their_lakh_counts():
    # two instalments of 6 and 14 lakh are 20 lakh, never "6 + 14 = 20" rupees
    ev = "Instalments: INR 6,00,000 (May) + INR 14,00,000 (June)."
    assert [q.value for q in extract_quantities(ev)] == [Decimal(600_000), Decimal(1_400_000)]
    assert check_rules("The two instalments came to INR 20.", ev).status != "agree"
    assert check_rules("The first instalment was INR 6,00,000.", ev).status == "agree"
    assert check_rules("The first instalment was INR 6,000.", ev).status == "conflict"
    # the same amount written in lakh agrees with its grouped form
    assert check_rules("The first instalment was 6 lakh rupees.", ev).status == "agree"


# -- numeric dates ------------------------------------------------------------------------------


def test_stated_format_fixes_ambiguous_numeric_dates():
    us = "Dispatch note DN-31. Dispatched: 06/05/2024 (MM/DD/YYYY)."
    (q,) = [q for q in extract_quantities(us) if q.kind == "date"]
    assert q.value == datetime.date(2024, 6, 5) and q.alt == ()
    eu = "Date format: DD.MM.YYYY\nDispatched: 06.05.2024"
    (q,) = [q for q in extract_quantities(eu) if q.kind == "date"]
    assert q.value == datetime.date(2024, 5, 6) and q.alt == ()
    # lower case, two-digit years: read only because the format is stated
    yy = "All dates mm/dd/yy. Dispatched 06/05/24."
    assert [q.value for q in extract_quantities(yy) if q.kind == "date"] == [datetime.date(2024, 6, 5)]
    assert not [q for q in extract_quantities("Dispatched 06/05/24.") if q.kind == "date"]


def test_an_unambiguous_date_with_the_same_separator_settles_the_order():
    assert values("Ordered 06/05/2024, invoiced 06/21/2024")[0][1] == datetime.date(2024, 6, 5)
    assert values("Ordered 06/05/2024, invoiced 21/06/2024")[0][1] == datetime.date(2024, 5, 6)
    # another separator settles nothing: still ambiguous, both readings kept
    q = extract_quantities("Ordered 06/05/2024, invoiced 06.21.2024")[0]
    assert q.value == datetime.date(2024, 5, 6) and q.alt == (datetime.date(2024, 6, 5),)
    assert numeric_order(["06/21/2024"], "/") == "mdy" and numeric_order(["06/21/2024"], ".") is None
    # no hint, nothing unambiguous: ambiguous as before
    q = extract_quantities("Ordered 06/05/2024")[0]
    assert q.alt == (datetime.date(2024, 6, 5),)


def test_format_hints_by_separator_and_clashes():
    assert format_hints(["(MM/DD/YYYY)"]) == {"/": ("mdy", False)}
    assert format_hints(["dd-mm-yy"]) == {"-": ("dmy", True)}
    assert format_hints(["MM/DD/YYYY or DD/MM/YYYY"]) == {}  # both stated: nothing settled
    assert stated_format("Ship Date: 01/02/2024 (MM/DD/YYYY)") == "MM/DD/YYYY"
    assert stated_format("no format here, 01/02/2024") is None
    # a stated format wins over an unambiguous date that contradicts it for the same separator
    assert numeric_order(["MM/DD/YYYY", "13/01/2024"], "/") == "mdy"


def test_rules_and_anchors_use_the_settled_reading():
    ev = "Receiving log RL-8.\nGoods received: 09/03/2025 (MM/DD/YYYY)\nDock: 4."
    wrong = "The goods were received on 9 March 2025."
    right = "The goods were received on 3 September 2025."
    assert check_rules(wrong, ev).status == "conflict"
    assert check_rules(right, ev).status == "agree"
    assert missing_anchors(wrong, ev) and not missing_anchors(right, ev)
    # without the hint the date is ambiguous and the same claim is not contradicted
    plain = ev.replace(" (MM/DD/YYYY)", "")
    assert check_rules(wrong, plain).status != "conflict"


def test_a_long_records_window_carries_its_stated_format(ledger):
    # the format is stated once, neither in the title line nor near the date, which sits many
    # sentences later in another chunk
    filler = " ".join(f"Pallet {i} was scanned at the north gate without remark." for i in range(30))
    doc = (f"Receiving log RL-9.\n{filler} Dates in this log are MM/DD/YYYY. {filler}\n"
           "The final pallet was received on 09/03/2025.")
    rid = ledger.append("run_fmt", doc, source={"document": "log.txt"})
    claim = {"id": "c", "type": "Assertion", "text": "c", "propositions": [
        {"id": "p", "pred": "statement", "args": {"text": "The final pallet was received on 9 March 2025."}, "ledger_ids": [rid]}]}
    # rules_max_chars below the record's length: the rules read only the picked windows
    v = Verifier(ledger, None, config=VerifierConfig(rules_max_chars=1000)).verify({"run_id": "run_fmt", "from_agent": "a", "claims": [claim]})
    p = v.claims[0].propositions[0]
    assert p.status != "supported"
    assert p.status == "contradicted" and "2025-09-03" in p.reason, p


@pytest.mark.parametrize(
    "text, value, unit",
    [
        ("finished in 7 h 52 min", Decimal(472), "minute"),
        ("took 2 hours and 30 minutes", Decimal(150), "minute"),
        ("a term of 1 year 6 months", Decimal(18), "month"),
        ("cure period of 3 weeks 2 days", Decimal(23), "day"),
    ],
)
def test_a_compound_duration_is_one_value(text, value, unit):
    # read apart, "7 h 52 min" was a claim of 52 minutes
    assert values(text) == [("duration", value, unit)]


def test_compound_durations_compare_across_units():
    ev = "Average handling time: 2 hours 15 minutes per ticket."
    assert check_rules("Average handling time was 135 minutes per ticket.", ev).status == "agree"
    assert check_rules("Average handling time was 2 hours 45 minutes per ticket.", ev).status == "conflict"


# -- French and Quebec documents ---------------------------------------------------------------

@pytest.mark.parametrize(
    "text, expected",
    [
        ("Total à payer : 12 480,50 $", [("money", Decimal("12480.50"), "CAD")]),
        ("prix unitaire 0,62 $", [("money", Decimal("0.62"), "CAD")]),
        ("limitée à 250 000,00 $ CAD.", [("money", Decimal("250000.00"), "CAD")]),
        ("facturé 1 200,00 $ US", [("money", Decimal("1200.00"), "USD")]),
        ("Total: $12,480.50", [("money", Decimal("12480.50"), "USD")]),  # a sign before the amount is unchanged
        ("TVQ 9,975 % : 2 038,47 $", [("percent", Decimal("9.975"), None), ("money", Decimal("2038.47"), "CAD")]),
        ("| HYPO-12 | 24 000 | 0,58 $ |", [("number", Decimal(24000), None), ("money", Decimal("0.58"), "CAD")]),
        ("entre en vigueur le 1er janvier 2026", [("date", datetime.date(2026, 1, 1), None)]),
        ("se termine le 31 décembre 2027", [("date", datetime.date(2027, 12, 31), None)]),
        ("un préavis écrit de quatre-vingt-dix (90) jours", [("duration", Decimal(90), "day")]),
        ("dans les 10 jours ouvrables", [("duration", Decimal(10), "business_day")]),
        ("deux (2) périodes de douze (12) mois", [("number", Decimal(2), None), ("duration", Decimal(12), "month")]),
    ],
)
def test_french_amounts_dates_and_periods_read_as_written(text, expected):
    assert [v for v in values(text) if v[2] != "ref"] == expected


def test_a_french_rate_cap_and_floor():
    (q,) = extract_quantities("un crédit de 175,00 $ par jour civil de retard")
    assert (q.value, q.unit, q.per) == (Decimal("175.00"), "CAD", "day")
    (q,) = extract_quantities("Le crédit est plafonné à 1 400,00 $ par livraison.")
    assert (q.op, q.frame) == ("<=", "limit")
    (q,) = extract_quantities("une assurance d'au moins 2 000 000,00 $ par sinistre")
    assert (q.op, q.frame) == (">=", "limit")


def test_a_french_date_format_settles_numeric_dates():
    assert format_hints(["(format des dates : JJ/MM/AAAA)"]) == {"/": ("dmy", False)}
    assert values("Date : 03/04/2026 (format des dates : JJ/MM/AAAA)")[0] == ("date", datetime.date(2026, 4, 3), None)


def test_a_sentence_wrapped_after_a_french_preposition_stays_one():
    from warrant.runtime.verify.text import sentence_spans
    text = "7.1 La responsabilité totale est limitée à\n    250 000,00 $ CAD.\n7.2 Autre clause."
    spans = [text[a:b] for a, b in sentence_spans(text)]
    assert any("limitée à" in s and "250 000,00 $" in s for s in spans)
