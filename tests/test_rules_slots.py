"""A computation or a single value decides a claim only when it fills the claim's slot: a sum
only where the claim adds, a quotient's conflict only from the amount the claim names, a total
of named parts never contradicted by one part. Every example here is invented."""

from warrant.runtime.verify.rules import check_rules
from warrant.runtime.verify.rules.anchors import derived_support

LIMITS = "Role             Limit\nBranch lead      USD 15,000\nRegional lead    USD 30,000"


def test_a_value_equal_to_a_sum_of_two_cells_is_no_sum_unless_the_claim_adds():
    # 15,000 + 30,000 = 45,000, but this claim states an order amount, not a sum
    assert derived_support("A USD 45,000 order is within the regional lead limit.", LIMITS) is None
    used = derived_support("Combined, the branch lead and regional lead limits are USD 45,000.", LIMITS)
    assert used and [o.text for o in used[0].operands] == ["USD 15,000", "USD 30,000"]


def test_a_quotient_contradicts_only_from_the_amount_the_claim_names():
    ev = "You will earn a monthly salary of GBP 2,400 and a gym membership. The contract runs for a twelve-month term."
    # the one GBP amount is the salary: dividing it says nothing of the gym membership
    assert check_rules("The gym membership is worth GBP 40 a month.", ev).status != "conflict"
    yearly = "You will earn a yearly salary of GBP 2,400. The contract runs for a twelve-month term."
    r = check_rules("The salary is GBP 300 a month.", yearly)
    assert r.status == "conflict" and "2,400" in r.reason
    assert check_rules("The salary is GBP 200 a month.", yearly).status != "conflict"


def test_a_total_of_named_parts_is_not_contradicted_by_one_part():
    ev = "Cleaning: 3 h @ $80/h    Supplies: $140.00"
    # 3 x 80 + 140 = 380: the supplies line is one part of it, and the hourly product another
    assert check_rules("Cleaning and supplies came to $380.00 combined.", ev).status != "conflict"
    assert check_rules("Cleaning and supplies came to $390.00 combined.", ev).status != "conflict"
    # a value labelled a total does contradict it
    totalled = "Cleaning: $240.00    Supplies: $140.00    Total: $380.00"
    r = check_rules("Cleaning and supplies came to $390.00 in total.", totalled)
    assert r.status == "conflict" and "380" in r.reason
    # a rate times a count with nothing else beside it still decides a claimed total
    assert check_rules("The cleaning came to a total of $300.00.", "Cleaning: 3 h @ $80/h").status == "conflict"


def test_a_value_of_another_numbered_period_is_another_slot():
    ev = "Licence fee, Phase 1: $40.00 per seat per month. Phase 2 begins after 12 months, with a 5% increase."
    # Phase 2's fee is not stated: Phase 1's $40.00 does not contradict it
    assert check_rules("The licence fee in Phase 2 will be $42.00 per seat per month.", ev).status != "conflict"
    r = check_rules("The licence fee in Phase 1 is $42.00 per seat per month.", ev)
    assert r.status == "conflict" and "40.00" in r.reason


def test_an_amount_per_month_supports_its_yearly_and_quarterly_equivalent():
    ev = "Your revised package: base salary GBP 64,000 a year; the phone allowance stays at GBP 45/month; bonus up to 10%."
    (used,) = derived_support("The phone allowance is worth GBP 540 a year.", ev)
    assert used.value == 540 and [o.text for o in used.operands] == ["GBP 45"]
    assert derived_support("The phone allowance comes to GBP 135 per quarter.", ev)[0].value == 135
    assert derived_support("The phone allowance is worth GBP 600 a year.", ev) is None
    assert check_rules("The phone allowance is worth GBP 600 a year.", ev).status == "conflict"
    # a week is no whole fraction of a year: never converted
    assert derived_support("The phone allowance is worth GBP 2,340 a year.", "The phone allowance is GBP 45 per week.") is None


def test_a_whole_columns_sum_needs_no_cue():
    ev = ("Cost line     North site   South site\nLabour        $300.00      $410.00\n"
          "Materials     $120.00      $95.00\nTravel        $40.00       $60.00")
    (used,) = derived_support("Spending at the South site was $565.00.", ev)
    assert [o.text for o in used.operands] == ["$410.00", "$95.00", "$60.00"]
