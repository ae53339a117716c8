"""A computation or a single value decides a claim only when it fills the claim's slot: a sum
only where the claim adds, a quotient's conflict only from the amount the claim names, a total
of named parts never contradicted by one part. Every example here is invented."""

from warrant.runtime.verify.rules import check_rules, extract_quantities
from warrant.runtime.verify.rules.anchors import contradicting_words, derived_support

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


def test_an_equal_value_on_a_line_labelled_for_another_slot_is_not_the_claimed_one():
    ev = ("A. Parts (sum of lines 1-4)              $1,240.00\n"
          "B. TOTAL PARTS AND FEES (A + fees)       $1,315.00\n"
          "C. Labour                                  $680.00\n"
          "D. TOTAL REPAIR COSTS (B + C)            $1,995.00\n")
    # 1,240 is what the parts line holds; the repair costs are stated on their own line
    r = check_rules("The total repair costs came to $1,315.00.", ev)
    assert r.status == "conflict" and "1,995.00" in r.reason
    assert check_rules("The total repair costs are $1,995.00.", ev).status == "agree"
    # the claim's own label matches the equal value's line: nothing is relabelled
    assert check_rules("The total parts and fees are $1,315.00.", ev).status == "agree"
    # a word after the value ("before labour") labels nothing: the labour line is not the claimed slot
    assert check_rules("The parts total $1,315.00 before labour.", ev).status != "conflict"
    # a label with only filler words the other line lacks ("total") is no other slot stated
    paid = "Amount payable (after deposit): $800.00\nTotal: $1,000.00\n"
    assert check_rules("The amount payable is $800.00.", paid).status != "conflict"


def test_a_count_that_is_itself_per_something_multiplies_no_rate_alone():
    ev = "Notice pay: three (3) weeks of base pay for each completed year. Base weekly pay: $1,800.00. Years completed: 4."
    # 3 x 1,800 = 5,400 is one year's worth: a claimed total of 4 x 3 x 1,800 is not contradicted by it
    assert check_rules("The notice pay totals $21,600.00.", ev).status != "conflict"


def test_a_price_per_sized_thing_is_a_rate_a_total_is_not_compared_with():
    ev = "Handling is charged at EUR 90 per 20' and EUR 140 per 40' container. Containers: two 20' and one 40'."
    assert check_rules("Handling the three containers will be charged EUR 320 in total.", ev).status != "conflict"


def test_the_claims_own_count_times_a_rate_is_a_derived_amount_not_a_conflict():
    ev = "Penalty: for each late delivery notified in writing, the supplier shall pay twelve thousand euros."
    assert check_rules("Three late deliveries were notified, costing the supplier EUR 36,000 in penalties.", ev).status != "conflict"
    assert check_rules("A late delivery costs the supplier EUR 15,000.", ev).status == "conflict"


def test_a_total_tied_only_by_filler_words_to_a_crowded_tables_total_is_no_conflict():
    ev = ("| Client | Current | >90 | Total |\n|---|---|---|---|\n| Arden | 1,200.00 | 300.00 | 1,500.00 |\n"
          "| Bexley | 800.00 | 900.00 | 1,700.00 |\n| Total | 2,000.00 | 1,200.00 | 3,200.00 |\n"
          "Currency: USD. Provision policy: 50% of balances over 90 days.")
    assert check_rules("Under the provision policy the required provision totals $600.00.", ev).status != "conflict"
    assert check_rules("Under the provision policy the required provision totals $650.00.", ev).status != "conflict"
    assert check_rules("The Total for Bexley is $1,750.00.", ev).status == "conflict"


def test_an_amount_for_a_count_the_claim_states_is_not_compared_with_a_rate():
    ev = ("The tolling fee is EUR 300 per tonne. If released volume falls below the 1,000-tonne annual minimum, "
          "a shortfall fee of 50% of the tolling fee is charged per tonne short.")
    # 200 tonnes short at EUR 150: an amount for a count the claim gives, not the rate per tonne
    assert check_rules("Releasing only 800 tonnes in a year would cost a shortfall fee of EUR 30,000.", ev).status != "conflict"
    # a claimed rate is still compared with the stated one
    assert check_rules("The tolling fee is EUR 350 per tonne.", ev).status == "conflict"


def test_a_part_of_a_whole_the_record_splits_is_not_contradicted_by_the_whole():
    ev = "Estimated annual savings: EUR 2.4 million, of which 35% comes from the fleet renewal."
    used = derived_support("The fleet renewal is expected to save about EUR 840,000 a year.", ev)
    assert used and used[0].how == "35% of EUR 2.4 million"
    # the whole itself, claimed otherwise, is still contradicted
    assert check_rules("The estimated annual savings are EUR 2.1 million.", ev).status == "conflict"


def test_a_period_the_claims_prose_names_before_are_is_its_values_period():
    # "annual savings are" names the period as "annual savings:" and "the annual fee is" do
    assert check_rules("Annual savings are EUR 2.1 million.", "Annual savings: EUR 2.4 million.").status == "conflict"


def test_a_span_between_two_events_inside_a_stated_window_is_computed_not_contradicted():
    ev = ("The appeal period is 28 days from the decision. Decision issued: 2 February 2026. "
          "The appeal was lodged on 20 February 2026, within the 28-day period.")
    used = derived_support("The appeal was lodged 18 days after the decision was issued.", ev)
    assert used and used[0].how == "2 February 2026 to 20 February 2026"
    # longer than the window: the window still contradicts it
    assert check_rules("The appeal was lodged 35 days after the decision was issued.", ev).status == "conflict"


def test_a_party_named_for_its_role_ties_the_claim_to_the_roles_field():
    ev = ("REPAIR ESTIMATE — Dockside Body Works\nEstimate #: DBW-118   Date: 03/02/2026\n"
          "Customer: Dana Ortiz   Vehicle: 2020 Mazda CX-5   Insurer: Harbour Point Mutual, claim HPM-4471, deductible $250\n\n"
          "Line | Operation                  | Parts/Sublet (USD) | Labour hrs | Labour (USD)\n"
          "1    | Replace rear bumper cover  |   512.30           | 2.0        |   260.00\n"
          "2    | Refinish RF door           |   140.00           | 3.0        |   390.00\n"
          "3    | Wheel alignment (sublet)   |   120.00           |            |\n"
          "Subtotals                       |   772.30           | 5.0        |   650.00\n\n"
          "Labour rate: $130.00/hr.\nEstimate total: $1,422.30\nInsurer pays: $1,172.30   Customer pays: $250.00 (deductible)\n")
    # "cover" ties the claim to the bumper cover's price by chance; the insurer's field holds the claim's figure
    assert check_rules("Harbour Point Mutual will cover $1,172.30 of the estimate.", ev).status == "agree"
    assert check_rules("Harbour Point Mutual will cover $1,272.30 of the estimate.", ev).status == "conflict"


def test_a_cutoff_is_a_threshold_not_a_finishing_time():
    ev = "Of 300 starters, 241, among them Tom Bell, finished before the 30-hour cutoff."
    assert check_rules("Tom Bell finished in 29 h 40 min.", ev).status != "conflict"


def test_a_value_given_to_someone_named_before_it_is_not_the_claimed_partys():
    ev = ("The women's winner, Maria Oduya, finished in 7 h 42 min, 9 minutes ahead of the defending champion, "
          "Lena Brandt, who placed second.")
    # 7 h 42 min is Oduya's; Brandt's time (7 h 51 min) is computed, never contradicted by it
    assert check_rules("Lena Brandt finished in 7 h 51 min.", ev).status != "conflict"
    assert check_rules("Maria Oduya finished in 7 h 51 min.", ev).status == "conflict"


def test_a_span_written_as_a_clock_reading_is_hours_and_minutes():
    ev = ("Planned duty: 10:00 hrs. Actual duty: 11:45 hrs, extended by 1:45 hrs. Because the extension exceeded 1:00 hr, "
          "rest of 13:00 hrs applies instead of the standard 11:00 hrs. Report at 14:00 hrs.")
    got = [(q.text, q.value, q.unit) for q in extract_quantities(ev) if q.kind == "duration"]
    assert ("1:00 hr", 60, "minute") in got and ("11:45 hrs", 705, "minute") in got
    assert not [g for g in got if g[0] == "00 hrs"]  # a time of day is no span of zero hours
    assert check_rules("Because the extension exceeded one hour, the rest was two hours longer than standard.", ev).status != "conflict"
    assert check_rules("The actual duty lasted 12:45 hrs.", ev).status == "conflict"


def test_a_margin_by_which_a_level_is_exceeded_is_not_the_level():
    ev = "The layover in Lima lasted 26 hours 15 minutes. The layover met the company minimum of 24 hours."
    assert check_rules("The Lima layover exceeded the company minimum by 2 hours 15 minutes.", ev).status != "conflict"
    assert check_rules("The company minimum layover is 20 hours.", ev).status == "conflict"


def test_a_value_with_something_the_record_counts_in_taken_out_is_a_case():
    ev = ("Over five years you paid premiums of NZD 500,000 and incurred claims of NZD 150,000, a loss ratio of 30%. "
          "The largest loss was the warehouse flood (NZD 110,000). Excluding that event, incurred claims were NZD 40,000.")
    assert check_rules("Excluding the warehouse flood, the five-year loss ratio would be under 9%.", ev).status != "conflict"
    assert check_rules("Over five years the loss ratio was 35%.", ev).status == "conflict"


def test_counting_a_part_out_of_a_whole_that_counts_it_in_is_no_opposite():
    ev = "The number of buses in scope is corrected from 300 to 338, including 38 school buses."
    assert not contradicting_words("Excluding school buses, 300 buses are in scope.", ev)
    assert contradicting_words("The 338 buses in scope exclude school buses.", ev)


def test_a_remainder_row_is_another_slot_than_what_was_used():
    ev = ("VEHICLE ALLOWANCE STATEMENT\nDriver: Ilse Kroon\nStatement date: 30 June 2025\n\n"
          "Allowance (contract)        40.0 hours\nUsed (Jan–Jun)              21.0 hours\n"
          "Reserved (Jul–Dec)           6.0 hours\nRemaining to reserve        13.0 hours\n")
    # "used or reserved" is 27 hours; "Remaining to reserve" is what is left, not that figure
    assert check_rules("Ilse Kroon had used or reserved 27 hours of her allowance.", ev).status != "conflict"
    # a claim about what is left names the remainder in other words: still contradicted
    assert check_rules("Ilse Kroon has 11.0 hours remaining to reserve.", ev).status == "conflict"
    assert check_rules("Ilse Kroon has 11.0 hours left to reserve.", ev).status == "conflict"
    assert check_rules("Ilse Kroon has used 24.0 hours.", ev).status == "conflict"


def test_a_column_header_labels_a_cell_as_the_claimed_slot():
    from warrant.runtime.verify.rules.anchors import derived_support

    ev = ("item,sent_to_laundry,returned,rejected_stained,lost_in_process\nbath towel,2455,2419,30,6\n"
          "bath mat,1190,1178,9,3\n")
    # sent minus returned is 36, but the record states the towels lost in process: 6
    assert derived_support("The laundry lost 36 bath towels in process.", ev) is None


def test_a_value_after_a_change_is_not_the_one_before_it():
    ev = ("QUOTA TRANSFER QT-19\nSpecies | Quantity (kg) | Price (EUR/kg)\nSole | 4,500 | 2.80\nPlaice | 12,000 | 0.35\n\n"
          "Transferor's remaining 2025 allocation after this transfer: sole 9,300 kg; plaice 41,500 kg.")
    before = check_rules("Before this transfer, the transferor's 2025 sole allocation was 13,800 kg.", ev)
    assert not (before.status == "conflict" and before.evidence.text == "9,300")
    assert check_rules("After this transfer, the transferor's 2025 sole allocation is 9,800 kg.", ev).status == "conflict"


def test_a_margin_per_day_is_no_level():
    ev = "The board approved combining Route R-1 (27.2 miles per day) and Route R-2 (33.8 miles per day). The combined route will run 52.4 miles per day."
    assert check_rules("The combined route will be 8.6 miles per day shorter than the two routes put together.", ev).status != "conflict"
    assert check_rules("The combined route will run 54.0 miles per day.", ev).status == "conflict"


def test_a_noun_is_no_verb_whose_doer_the_record_names():
    from warrant.runtime.verify.rules.anchors import contradicting_words

    ev = "AB Dizon signed off early on medical grounds; his fit-to-travel certificate was issued by Dr Lieke Vermaat."
    assert not contradicting_words("Jomar Dizon left the ship early because of a medical issue.", ev)
    ev2 = "ALDERMOOR HOTEL laundry notes. Stained items are rewashed by CleanStream free of charge."
    assert contradicting_words("The Aldermoor rewashes stained items for CleanStream free of charge.", ev2)
