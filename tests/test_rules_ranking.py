"""Claims that order two stated values or name the extreme of a column ("rules:compare"): each
side located as a labelled value, the values compared in code, no answer where any reading
disagrees. The documents here are invented for these tests."""

import pytest

from warrant.runtime.verify.rules.ranking import compare_stated, slots
from warrant.runtime.verify.verifier import Verifier
from tests.corpus import statement

RUN = "run_rank"

DECLARATIONS = """HOMEOWNERS POLICY DECLARATIONS
Policy no.: HO-7 118204-02
Coverage A - Dwelling:           $385,000
Coverage B - Other structures:   $38,500
Coverage E - Personal liability: $500,000
Annual premium: $1,912
"""

RETENTION = """RETENTION SCHEDULE (Policy RM-4)

Record type                      Retention period        Trigger
Supplier contracts               10 years                after expiry
Timesheets                       3 years                 after submission
Visitor logs                     90 days                 -
"""

LINES = """| SKU | Description | Qty | Unit price | Net |
|---|---|---|---|---|
| 4410 | Oak panel, 18 mm | 40 | 31.50 | 1,260.00 |
| 4422 | Birch plywood | 25 | 42.00 | 1,050.00 |
| 4490 | Line total | | | 2,310.00 |
"""

LOADS = """Load    Shipped       Pallets   Status
L-11    2026-02-03       18     Delivered
L-12    2026-02-10       26     Delivered
L-13    2026-02-17       21     In transit
"""

JSON_STATEMENT = ('{"account": "CHK-2201", "entries": [{"date": "2026-01-04", "memo": "rent", "amount": 1450.00},'
                  ' {"date": "2026-01-09", "memo": "utilities", "amount": 212.40}],'
                  ' "opening_balance": 5120.00, "closing_balance": 4380.55}')


@pytest.mark.parametrize(
    "record,claim,status",
    [
        (DECLARATIONS, "The personal liability limit is higher than the dwelling limit.", "supported"),
        (DECLARATIONS, "The dwelling limit is higher than the personal liability limit.", "contradicted"),
        (RETENTION, "Supplier contracts are kept longer than timesheets.", "supported"),
        (RETENTION, "Timesheets are retained longer than supplier contracts.", "contradicted"),
        # years against days: ordered where no reading of a year or a month overlaps
        (RETENTION, "Timesheets are kept longer than visitor logs.", "supported"),
        (RETENTION, "Visitor logs have the shortest retention period on the schedule.", "supported"),
        (LINES, "The birch plywood line has a higher unit price than the oak panel line.", "supported"),
        (LINES, "The birch plywood line has a higher net amount than the oak panel line.", "contradicted"),
        (JSON_STATEMENT, "The closing balance was higher than the opening balance.", "contradicted"),
        (JSON_STATEMENT, "The rent entry was larger than the utilities entry.", "supported"),
        (LOADS, "Load L-12 is the largest load by pallets.", "supported"),
        (LOADS, "L-13 was the largest load by pallets.", "contradicted"),
        (LOADS, "L-13 was the latest load.", "supported"),
        (LOADS, "The load with the most pallets is L-11.", "contradicted"),
    ],
)
def test_two_labelled_values_are_compared_in_code(record, claim, status):
    r = compare_stated(claim, record)
    assert r is not None and r.status == status, (claim, r)
    for q in r.used:  # every value it used is a verbatim span of the record
        assert record[q.start:q.end] == q.text


@pytest.mark.parametrize(
    "record,claim",
    [
        # the compared attribute names no column or field of the record
        (DECLARATIONS, "The personal liability deductible is higher than the dwelling deductible."),
        (LINES, "The birch plywood line has a higher discount than the oak panel line."),
        # a side the record does not hold
        (RETENTION, "Supplier contracts are kept longer than payroll files."),
        # several columns of the row, and they disagree: "larger" in what?
        (LINES, "The oak panel line is larger than the birch plywood line."),
        # a month may be 28 to 31 days: one month against 30 days has no order
        ("| Record | Kept for |\n|---|---|\n| Badge logs | 1 month |\n| Door logs | 30 days |\n", "Badge logs are kept longer than door logs."),
        # a multiple or a fraction is arithmetic, not an order
        (DECLARATIONS, "The dwelling limit is more than half the personal liability limit."),
        # a value of the claim's own, and a negation: other rules' business
        (DECLARATIONS, "The dwelling limit is higher than $300,000."),
        (DECLARATIONS, "The dwelling limit is not higher than the personal liability limit."),
        # "the largest" of dates means nothing; "by value" names no column of the loads
        (LOADS, "L-13 is the largest load."),
        (LOADS, "L-12 is the largest load by value."),
        # a count of rows the table does not have
        (LOADS, "L-12 is the largest of the four loads by pallets."),
        # a comparison with something outside the record
        (RETENTION, "Timesheets are kept longer than they were under the old policy."),
    ],
)
def test_no_answer_where_a_reading_is_missing_or_ambiguous(record, claim):
    assert compare_stated(claim, record) is None


PROSE = ("Retention. Personnel files are retained for six years after an employee leaves. Timesheets are "
         "kept for three years, while visitor logs are deleted after 60 days.")


def test_a_clause_of_prose_with_one_value_is_a_slot():
    assert compare_stated("Timesheets are kept longer than visitor logs.", PROSE).status == "supported"
    assert compare_stated("Visitor logs are kept longer than personnel files.", PROSE).status == "contradicted"
    # two clauses answer "timesheets": no answer
    two = PROSE + " Contractor timesheets are kept for ten years."
    assert compare_stated("Timesheets are kept longer than personnel files.", two) is None


MANIFEST = "| Consignment | Gross weight | Freight |\n|---|---|---|\n| B/L KT-1 | 1,200 kg | $900 |\n| B/L KT-2 | 2,400 kg | $1,300 |\n| B/L KT-3 | 800 kg | $700 |\n"


def test_a_word_that_names_its_attribute_picks_the_column():
    assert compare_stated("B/L KT-2 is the heaviest consignment on the manifest.", MANIFEST).status == "supported"
    assert compare_stated("KT-1 is lighter than KT-3.", MANIFEST).status == "contradicted"  # weights, not freight
    assert compare_stated("KT-1 is more expensive than KT-2.", MANIFEST).status == "contradicted"  # money only
    assert compare_stated("KT-3 is the cheapest consignment.", MANIFEST).status == "supported"


SLA = """| Service | Uptime target | Uptime achieved | Response target | Response time |
|---|---|---|---|---|
| Payroll portal | 99.80% | 99.86% | 4 h | 5 h |
| Ledger API | 99.90% | 99.90% | 4 h | 2 h |
"""


@pytest.mark.parametrize(
    "claim,status",
    [
        ("The payroll portal met its uptime target.", "supported"),
        ("The Ledger API beat its uptime target.", "contradicted"),  # at the target is not beating it
        ("The Ledger API met its uptime target.", "supported"),
        ("The payroll portal missed its response target.", "supported"),  # a time: lower is better
        ("The Ledger API missed its response target.", "contradicted"),
    ],
)
def test_a_value_against_its_own_target_in_the_row(claim, status):
    r = compare_stated(claim, SLA)
    assert r is not None and r.status == status, (claim, r)


def test_a_target_field_that_does_not_repeat_the_measure():
    report = ('{"services": [{"name": "search-api", "availability_pct": 99.93, "target_pct": 99.95},'
              ' {"name": "auth-api", "availability_pct": 99.99, "target_pct": 99.95}]}')
    assert compare_stated("The search API met its availability target.", report).status == "contradicted"
    assert compare_stated("The auth API met its availability target.", report).status == "supported"


def test_no_answer_where_the_labels_do_not_say_which_way_is_better():
    table = "| Team | Target | Actual |\n|---|---|---|\n| North | 40 | 44 |\n"
    assert compare_stated("North met its target.", table) is None
    assert compare_stated("The payroll portal met its uptime target in the first week.", SLA) is None  # says more


def test_a_total_row_is_not_a_rival_in_a_superlative():
    assert compare_stated("The oak panel line has the highest net amount.", LINES).status == "supported"


def test_a_tie_for_the_extreme_names_no_row():
    tied = "| Site | Incidents |\n|---|---|\n| North | 4 |\n| South | 4 |\n| West | 1 |\n"
    assert compare_stated("North had the most incidents.", tied) is None
    assert compare_stated("West had the most incidents.", tied).status == "contradicted"


def test_a_label_with_a_number_in_it_is_a_label_not_a_value():
    cells = {s.q.text for s in slots(LINES)}
    assert "18" not in cells and "1,260.00" in cells


def test_a_malformed_json_record_has_no_slots():
    assert slots('{"a": [1, 2') == []
    assert compare_stated("The closing balance was higher than the opening balance.", '{"closing_balance": 1') is None



@pytest.mark.parametrize("media", ["text/plain; charset=utf-8", "application/json"])
def test_the_verifier_answers_with_the_spans_it_compared(ledger, media):
    data = (JSON_STATEMENT if "json" in media else RETENTION).encode()
    claim = ("The closing balance was higher than the opening balance." if "json" in media
             else "Timesheets are retained longer than supplier contracts.")
    rid = ledger.append(RUN, data, media_type=media)
    (p,) = Verifier(ledger, None).verify(statement(RUN, rid, claim)).claims[0].propositions
    assert (p.status, p.checker) == ("contradicted", "rules:compare")
    assert len(p.spans) == 2
    for s in p.spans:  # byte spans of the exact record bytes
        assert data[s.start:s.end].decode() == s.text


# -- the model path: an order the window does not state in words is not the model's to pass ------

WINDOW = ("Visitor logs are deleted after 60 days. Timesheets are kept for three years from the end of "
          "the pay period, and contracts for ten years after expiry.")


def test_the_model_may_not_pass_an_order_its_window_does_not_state():
    from warrant.runtime.verify.rules.anchors import missing_anchors
    from warrant.runtime.verify.rules.ranking import is_ordering

    claim = "Visitor logs are kept longer than timesheets."
    assert is_ordering(claim)
    assert any("orders two things" in w for w in missing_anchors(claim, WINDOW, model_p=0.97))
    stated = WINDOW + " Contracts are kept longer than timesheets."
    assert not any("orders two things" in w for w in missing_anchors("Contracts are kept longer than timesheets.", stated, model_p=0.97))
    # a value, a multiple or a unit of its own makes it another rule's claim
    assert not is_ordering("Timesheets are kept for more than two years.")
    assert not is_ordering("Contracts are kept more than three times as long as timesheets.")
    assert not is_ordering("Visitor logs are kept for less than a year.")


def test_a_change_over_time_does_not_contradict_an_order_of_two_things():
    from warrant.runtime.verify.rules.anchors import opposites

    ev = "Free chlorine was 0.58 mg/L at the plant outlet and fell to 0.19 mg/L at the Ridgeway tank."
    assert opposites("Free chlorine was higher at the plant outlet than at the Ridgeway tank.", ev) == []
    # against another time of the same thing, a change is what the claim is about
    ev2 = "The standard excess for contents claims increased from GBP 250 to GBP 400 at renewal."
    assert opposites("The standard excess for contents claims is lower than it was before renewal.", ev2)


def test_the_json_body_of_a_tool_output_is_found_under_its_request_line():
    from warrant.runtime.verify.parsers import jsonleaves

    text = 'GET /v2/loads -> 200 OK\n{"loads": [{"id": "L-1", "pallets": 18}]}'
    doc = jsonleaves.body(text)
    assert doc.header and text[doc.offset] == "{"
    (leaf,) = [lf for kids in doc.objects.values() for lf in kids if lf.key == "pallets"]
    assert text[doc.offset + leaf.start:doc.offset + leaf.end] == "18"
    bad = jsonleaves.body('{"loads": [1, 2')
    assert bad.objects is None and not bad.header  # malformed: no leaves, and no prose either
    assert jsonleaves.body("Loads: 18 pallets") is None
