"""The shared value readers (runtime/verify/rules, runtime/verify/text.py) on invented examples:
inclusive and strict comparisons, European number formats, date formats, per-unit prices and
wrapped lines. Each reading has a case that must NOT be read the new way."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest

from warrant.runtime.verify.parsers import prose, tables
from warrant.runtime.verify.rules import check_rules, extract_quantities
from warrant.runtime.verify.rules.base import parse_num, uses_decimal_comma
from warrant.runtime.verify.rules.dates import numeric_order
from warrant.runtime.verify.text import sentence_bounds, sentence_spans
from warrant.runtime.verify.rules.registry import reading_record

D = Decimal


def first(text: str, kind: str):
    qs = [q for q in extract_quantities(text) if q.kind == kind]
    assert qs, (text, extract_quantities(text))
    return qs[0]


# -- 1. comparisons: direction and inclusiveness ---------------------------------------------


@pytest.mark.parametrize("text, op", [
    # inclusive lower bounds
    ("Crates weighing equal to or greater than 40 kg go by freight.", ">="),
    ("Refunds greater than or equal to €900 need a second signature.", ">="),
    ("Rebates apply to orders not less than 250 units.", ">="),
    ("Rebates apply to orders of no less than 250 units.", ">="),
    ("The courier needs at least 3 days.", ">="),
    ("Orders of 250 units or more ship free.", ">="),
    ("Orders of 2,000 m or more ship free.", ">="),  # a one-letter unit ("m", "t") between the value and the phrase
    ("Orders of £7,500 and above ship free.", ">="),
    ("Orders of £7,500 or higher ship free.", ">="),
    ("Orders at or above £7,500 ship free.", ">="),
    ("Orders of £7,500+ ship free.", ">="),
    # strict lower bounds: must NOT become inclusive
    ("Orders above £7,500 ship free.", ">"),
    ("Orders of more than 250 units ship free.", ">"),
    ("Any refund that exceeds €900 is escalated.", ">"),
    ("Parcels over 40 kg go by freight.", ">"),
    # inclusive upper bounds
    ("Tips of not more than $35 may be expensed.", "<="),
    ("Tips of up to $35 may be expensed.", "<="),
    ("Tips of at most $35 may be expensed.", "<="),
    ("Tips of $35 or less may be expensed.", "<="),
    ("Tips equal to or less than $35 may be expensed.", "<="),
    ("Tips at or below $35 may be expensed.", "<="),
    # strict upper bounds: must NOT become inclusive
    ("Tips below $35 may be expensed.", "<"),
    ("Tips under $35 may be expensed.", "<"),
    ("Tips of less than $35 may be expensed.", "<"),
])
def test_comparison_direction_and_inclusiveness(text, op):
    q = [q for q in extract_quantities(text) if q.kind in ("money", "number", "duration")][0]
    assert q.op == op


def test_a_word_ending_in_or_is_no_comparator():
    # "80% for up to 4 weeks": the "or" of "for" does not make "80%" a lower bound
    qs = extract_quantities("Staff may work a reduced schedule of 80% for up to 4 weeks at full pay.")
    assert [(q.text, q.op) for q in qs] == [("80%", None), ("4 weeks", "<=")]


def test_a_plain_value_has_no_comparator():
    assert first("The crate weighs 40 kg and costs £7,500 in total.", "money").op is None
    # "or" and "and" that join two values are no postfix comparator
    assert first("Bring $5 and 6 spare pens.", "money").op is None
    # "minimum" naming what is measured is no bound ("minimum of" / "a minimum of" are)
    assert first("Calls are billed in minimum increments of 0.2 hour.", "duration").op is None


def test_inclusive_bound_supports_the_boundary_but_strict_does_not():
    ev = "Refunds equal to or greater than €900 need a second signature."
    assert check_rules("Refunds of €900 or more need a second signature.", ev).status == "agree"
    assert check_rules("Refunds above €900 need a second signature.", ev).status != "agree"


# -- 2. European number formats ---------------------------------------------------------------


@pytest.mark.parametrize("text, value, cur", [
    ("Betrag: 2.345,60 EUR", D("2345.60"), "EUR"),
    ("Betrag: EUR 2.345,60", D("2345.60"), "EUR"),
    ("Betrag: 2 345,60 EUR", D("2345.60"), "EUR"),
    ("Betrag: 2\u2009345,60 EUR", D("2345.60"), "EUR"),  # thin space
    ("Betrag: 2\u202f345,60 EUR", D("2345.60"), "EUR"),  # narrow no-break space
    ("Montant : 18,90 €", D("18.90"), "EUR"),
    ("Total 3.100.250,00 CHF", D("3100250.00"), "CHF"),
    # the US form is unchanged
    ("Amount: 2,345.60 USD", D("2345.60"), "USD"),
    ("Amount: $2,345", D("2345"), "USD"),
])
def test_european_amounts(text, value, cur):
    q = first(text, "money")
    assert (q.value, q.unit) == (value, cur)


def test_version_numbers_and_ids_are_not_european_numbers():
    assert extract_quantities("Firmware 4.210.337 is installed.") == []
    assert extract_quantities("Release 2.3.1 shipped.") == []
    assert parse_num("4.210.337") is None


def test_ambiguous_dot_group_keeps_its_reading_unless_the_record_uses_decimal_commas():
    # alone: 7.250 is seven and a quarter (must NOT become 7250)
    assert first("Weight: 7.250 kg", "number").value == D("7.250")
    assert first("Price EUR 7.250", "money").value == D("7.250")
    # a decimal comma elsewhere in the same record settles it
    assert first("Price EUR 7.250; freight EUR 35,00", "money").value == D("7250")
    assert first("Weight: 7.250 kg", "number").value == D("7.250")
    assert extract_quantities("Weight: 7.250 kg", decimal_comma=True)[0].value == D("7250")
    assert uses_decimal_comma(["Header", "Summe 1.004,10 EUR"])
    assert not uses_decimal_comma(["Total $1,004.10", "pages 10,11"])


def test_a_log_of_short_comma_decimals_writes_decimals_with_a_comma():
    log = "datum;pH;NH4N_mg_l;CSB_mg_l\n03.03.2026;7,4;38,2;1.840\n17.03.2026;6,9;44,6;2.980\nLimit CSB 2.500 mg/l"
    assert uses_decimal_comma(log)
    assert first(log.splitlines()[-1], "number").value == D("2.500")  # alone, the reading stays
    assert {q.value for q in extract_quantities(log, decimal_comma=True) if q.kind == "number"} >= {D(2500), D(2980), D("38.2")}
    assert not uses_decimal_comma("See clauses 4,5 and 7,8.")  # two may be lists
    csv = "id,date,hours,cost\nBUS-04,14/07/2025,6.5,820.00\nBUS-07,21/07/2025,2.0,310.00\nBUS-11,02/08/2025,1.5,95.00"
    assert not uses_decimal_comma(csv)  # commas between cells, decimal points in them
    assert not uses_decimal_comma("appt,in,out\nA-1,07:00,06:48\nA-2,08:00,08:35\nA-3,09:30,09:10")  # clock times in cells
    assert not uses_decimal_comma("pH 7,4; 6,9; 7,1 at a dose of 2.5 ml")  # a decimal point elsewhere: not settled
    # a claim's limit is its own value: it contradicts none of the record's values equal to it
    with reading_record(log):
        assert check_rules("The 17 March sample had a COD of 2,980 mg/l, above the 2,500 mg/l limit.", log).status != "conflict"


def test_a_comma_list_is_not_a_decimal():
    # "10,11" without a currency is no amount (two-digit groups read as decimals only beside money)
    assert [q.value for q in extract_quantities("See pages 10,11 and 14.") if q.kind == "number"] == [D(14)]


# -- 3. dates ---------------------------------------------------------------------------------


@pytest.mark.parametrize("text", [
    "Shipped 9-Mar-2027.", "Shipped 9/Mar/2027.", "Shipped 9 Mar. 2027.", "Shipped Mar 9th, 2027.",
    "Shipped 2027/03/09.", "Shipped 2027.03.09.", "Shipped 09.03.2027 (and 23.03.2027).",
])
def test_date_formats(text):
    assert first(text, "date").value == datetime.date(2027, 3, 9)


def test_day_first_when_the_record_is_day_first():
    # alone, 04.05.2027 is ambiguous: both readings kept
    q = first("Delivered 04.05.2027.", "date")
    assert (q.value, q.alt) == (datetime.date(2027, 5, 4), (datetime.date(2027, 4, 5),))
    # a day-first date elsewhere settles it
    q = [q for q in extract_quantities("Ordered 28.04.2027, delivered 04.05.2027.") if q.kind == "date"][1]
    assert (q.value, q.alt) == (datetime.date(2027, 5, 4), ())
    # a month-first record reads it month-first (must NOT be read day-first)
    q = [q for q in extract_quantities("Ordered 04/28/2027, delivered 04/05/2027.") if q.kind == "date"][1]
    assert (q.value, q.alt) == (datetime.date(2027, 4, 5), ())
    assert numeric_order(["no dates here", "due 13/01/2027"]) == "dmy"
    assert numeric_order(["due 01/13/2027", "paid 13/01/2027"]) is None


def test_the_first_day_of_a_range_naming_its_month_once_is_a_date():
    dates = lambda t: [(q.text, q.value, q.unit) for q in extract_quantities(t) if q.kind == "date"]
    assert dates("Units fell from 8 to 9 March 2027.") == [("8", datetime.date(2027, 3, 8), None),
                                                         ("9 March 2027", datetime.date(2027, 3, 9), None)]
    assert dates("Closed 8-9 March.")[0][1:] == (datetime.date(2000, 3, 8), "noyear")
    # a count before a duration is no day ("5 to 10 days"), nor one before a lowercase "may"
    assert dates("It takes 5 to 10 days.") == [] and dates("Between 5 and 9 may apply.") == []


def test_an_iso_year_and_month_is_a_month():
    q = first('{"month": "2027-03", "opening_balance": 3150}', "date")
    assert (q.value, q.unit) == (datetime.date(2027, 3, 1), "monthyear")
    assert first("Report period 2027-03.", "date").unit == "monthyear"


@pytest.mark.parametrize("text", ["Batch 17 of 2027", "Lot 20270309", "Ref 9-2027", "Firmware 2027.3.9.1",
                                  "Invoice INV-2027-03", "Build v2027-03.2", "Season 2026-27", "Years 2026-2027"])
def test_a_lone_number_is_never_a_date(text):
    assert not [q for q in extract_quantities(text) if q.kind == "date"]


# -- 4. per-unit prices -----------------------------------------------------------------------


@pytest.mark.parametrize("text, per", [
    ("Kraft sacks cost $0.41 per sack.", "unit"),
    ("Pallet wrap: USD 2.35/roll.", "unit"),
    ("Hinges are €3 each.", "unit"),
    ("Hinges are £1.10 ea. in boxes of 50.", "unit"),
    ("Support is 45 EUR per hour.", "hour"),
    # NOT a per-unit price
    ("The fee is $400 per the signed quote.", None),
    ("A fine of $50 per Section 9 applies.", None),
    ("A credit of $90 per business day of delay.", None),
    ("The invoice total is $0.41.", None),
    ("Each party pays $2,000 each of the years.", None),
])
def test_per_unit_denominator(text, per):
    assert first(text, "money").per == per


def test_a_per_unit_price_matches_a_per_unit_claim_not_a_total():
    ev = "Kraft sacks are priced at $0.41 per sack."
    assert check_rules("Kraft sacks are priced at $0.41 per sack.", ev).status == "agree"
    assert check_rules("The order total for kraft sacks is $0.41.", ev).status != "agree"


def test_a_percentage_is_not_read_per_unit():
    assert first("A rebate of 3% each quarter.", "percent").per == "quarter"
    assert first("A rebate of 3% each to the buyers.", "percent").per is None


# -- 5. one sentence splitter, wrapped lines joined -------------------------------------------


def test_wrapped_sentence_is_one_sentence():
    text = "The carrier must collect the crates within five days of\nthe pickup request. Fees apply."
    assert [text[a:b] for a, b in sentence_spans(text)] == [
        "The carrier must collect the crates within five days of\nthe pickup request.", "Fees apply."]
    text = "Storage is billed monthly,\nas listed in Annex B."
    assert len(sentence_spans(text)) == 1
    text = "Goods are delivered to the\nConsignee named in the waybill."
    assert len(sentence_spans(text)) == 1
    # sentence_bounds agrees with sentence_spans
    assert sentence_bounds(text + " Next.", text.index("Consignee")) == (0, len(text) - 1)


def test_sentence_bounds_agree_with_the_splitter_across_a_long_record():
    # sentence_bounds reads an index built block by block (8,192 characters): sentences, table rows
    # and runs of blank lines that straddle a block's edge are found as the whole-text splitter finds them
    parts = []
    for i in range(900):
        parts.append(f"Line {i} of the export: crate C-{i} holds {i % 40} units." if i % 3 else f"C-{i},{i % 40},{i * 1.5:.2f}")
        parts.append("\n" * (1 + i % 4) if i % 5 else " ")
    text = "".join(parts)
    assert len(text) > 4 * 8192
    for a, b in sentence_spans(text):
        for pos in (a, (a + b) // 2):
            s0, s1 = sentence_bounds(text, pos)
            assert text[s0:s1].strip() == text[a:b].rstrip(".!?;"), (pos, text[a:b])
    # a sentence longer than the 4,000 characters looked at either side is cut there, not read whole
    long = "Intro. " + "word " * 3000 + "end. Next."
    assert sentence_bounds(long, 9000) == (9000 - 4000, 9000 + 4000)


def test_overlapping_finds_the_values_touching_a_stretch():
    from warrant.runtime.verify.rules.base import overlapping

    text = "Qty 4, price USD 12.50, ninety-one thousand three hundred and sixty rupees, total 50."
    qs = extract_quantities(text)
    for a, b in [(0, 5), (5, 20), (20, 60), (40, 41), (60, len(text)), (0, len(text))]:
        assert overlapping(qs, a, b) == [q for q in qs if q.start < b and q.end > a]


@pytest.mark.parametrize("text, n", [
    ("Depot: Leeds\nwarehouse: 4", 2),             # Key: value lines stay apart
    ("Items:\n- crates\n- sacks", 3),              # list items
    ("| sku | qty |\n| bx-1 | 10 |", 2),           # pipe table rows
    ("sku,qty,price\nbx-1,10,2.40", 2),            # CSV rows
    ("SKU   QTY\nbx-1  10", 2),                    # fixed-width rows
    ("The crates shipped\nThe sacks did not", 2),  # next line starts a new capitalised sentence
    ("Crates shipped.\nsacks did not.", 2),        # the line ends a sentence
    ('{\n  "sku": "bx-1",\n  "qty": 10\n}', 4),      # JSON lines ending in a comma
])
def test_lines_that_are_not_wrapped_stay_apart(text, n):
    assert len(sentence_spans(text)) == n


def test_the_document_view_uses_the_shared_splitter():
    text = ("Returns are accepted within thirty days of\n"
            "delivery, at the buyer's cost.\n"
            "| sku | qty |\n"
            "| bx-1 | 10 |\n"
            "Storage is billed monthly,\n"
            "as listed in Annex B.\n")
    lines = tables.lines_of(text)
    got = [s.text for s in prose.sentences(text, lines, {2, 3})]
    assert got == ["Returns are accepted within thirty days of\ndelivery, at the buyer's cost.",
                   "Storage is billed monthly,\nas listed in Annex B."]


def test_the_numbers_of_csv_rows_are_read_and_prose_commas_are_not_fields():
    from warrant.runtime.verify.rules import extract_quantities
    from warrant.runtime.verify.rules.anchors import derived_support

    csv = ("# hours export  team=Depot\nemp_id,name,shift,hours,overtime\n"
           "E-11,Ola Lind,early,38,4\nE-12,Kai Moe,late,41,0\nE-19,Liv Dahl,early,36,2")
    got = [(q.text, q.kind) for q in extract_quantities(csv) if q.unit != "ref"]
    assert got == [("38", "number"), ("4", "number"), ("41", "number"), ("0", "number"),
                   ("36", "number"), ("2", "number")]
    # a grouped amount in prose is one number, not three fields
    assert [q.text for q in extract_quantities("We paid 1,234,567 to A, B and C.")] == ["1,234,567"]
    # and a register's amounts add up like any table's
    wires = ("value_date,beneficiary,currency,amount\n2026-02-03,Brandt GmbH,USD,41250.00\n"
             "2026-02-03,Osei Ltd,USD,9875.50\n2026-02-03,Lund AB,SEK,18000.00")
    assert derived_support("The wires to Brandt and Osei total USD 51,125.50.", wires)
    assert derived_support("The wires to Brandt and Osei total USD 51,125.00.", wires) is None


def test_a_label_may_hold_an_aside_with_commas_and_excl_ends_no_sentence():
    text = "Order total (EUR, excl. VAT): 2,480.00\nApproved by: M. Ferrante"
    [kv] = [t for t in tables.find_tables(text) if t.kind == "kv"]
    assert [(r[0].text, r[1].text) for r in kv.rows] == [("Order total (EUR, excl. VAT)", "2,480.00"), ("Approved by", "M. Ferrante")]
    assert len(sentence_spans("Prices are quoted excl. VAT and incl. freight. Payment is due in 30 days.")) == 2


def test_i_e_and_e_g_end_no_sentence():
    # the figure after "i.e." belongs to the sentence that names it, not a sentence of its own
    text = "Minimum payment: 5% of the balance, i.e. 88,40 EUR, due 14/05/2026. Fees apply, e.g. for cash. Paid in U.S. dollars."
    assert [text[a:b] for a, b in sentence_spans(text)] == [
        "Minimum payment: 5% of the balance, i.e. 88,40 EUR, due 14/05/2026.", "Fees apply, e.g. for cash.", "Paid in U.S. dollars."]


def test_a_csv_remark_with_commas_is_one_quoted_cell():
    text = ('line,item,delivered_qty,accepted_qty,remarks\n'
            '1,HX-10,50,50,\n'
            '2,HX-20,30,27,"3 units dented in transit, returned with the driver on the same day"\n')
    [t] = tables.find_tables(text)
    assert t.kind == "csv" and [c.text for c in t.rows[1]][:4] == ["2", "HX-20", "30", "27"]
    # unquoted prose with commas is still no table
    assert not [t for t in tables.find_tables("a,b,c\nWe met, talked for a very long while about the cold weather, and left\n") if t.kind == "csv"]


def test_pounds_of_weight_are_a_measure_and_percentage_points_are_their_own_slot():
    from warrant.runtime.verify.rules.arithmetic import measure

    text = "The crate weighs 41 pounds."
    [q] = extract_quantities(text)
    assert (q.kind, q.unit, measure(text, q)) == ("number", None, ("mass", "lb"))  # one name per unit
    assert [(q.kind, q.unit) for q in extract_quantities("She paid 400 pounds for the tickets.")] == [("money", "GBP")]
    [p] = extract_quantities("On-time delivery missed its target by 1.2 percentage points.")
    assert (p.kind, p.value, p.unit) == ("percent", Decimal("1.2"), "points")
    # a gap in points is not a misread level: never a conflict with the 96.8% it is computed from
    ev = "On-time delivery: 96.8% against a target of 98%."
    assert check_rules("On-time delivery came in 1.2 percentage points under target.", ev).status != "conflict"
    assert check_rules("On-time delivery came in at 97.5%.", ev).status == "conflict"


def test_an_amount_labelled_by_its_period_is_a_rate_of_that_period():
    from warrant.runtime.verify.rules.anchors import derived_support

    assert [(q.text, q.per) for q in extract_quantities("Monthly fee: $3,200 (May-September only)")] == [("$3,200", "month")]
    assert [q.per for q in extract_quantities("Annual premium = £540.12")] == ["year"]
    assert [q.per for q in extract_quantities("The annual premium is £540.12.")] == [None]  # prose keeps its own
    # a season's total is not contradicted by the monthly rate it multiplies
    ev = "Scope: weekly mowing, May through September.\nMonthly fee: $3,200 (May-September only)"
    assert check_rules("The monthly fees for the season total $16,000.", ev).status != "conflict"
    assert derived_support("Rent for the 12-month term totals $21,000.", "Monthly rent: $1,750\nTerm: 12 months from 1 May 2026")


def test_a_plus_on_the_next_line_is_no_open_bound():
    # "Cash + vouchers" under "Total vouchers 212.50" does not make 212.50 "212.50 or more"
    assert [(q.text, q.op) for q in extract_quantities("Total vouchers   212.50\n\nCash + vouchers  499.60")] == [("212.50", None), ("499.60", None)]
    assert [(q.text, q.op) for q in extract_quantities("Drivers aged 25+ only")] == [("25", ">=")]


def test_a_bare_dollar_is_the_one_dollar_its_record_names():
    from warrant.runtime.verify.rules.registry import reading_record

    sheet = "PETTY CASH - Brighton clinic   Float: A$400.00\nShortfall $5.00, about 3 dollars in coins"
    assert [(q.text, q.unit) for q in extract_quantities(sheet)] == [("A$400.00", "AUD"), ("$5.00", "AUD"), ("3 dollars", "AUD")]
    # a claim about that record reads its "$" the same way; alone, "$" is the US dollar
    with reading_record(sheet):
        assert first("The shortfall was $5.00.", "money").unit == "AUD"
    assert first("The shortfall was $5.00.", "money").unit == "USD"
    # a record that also names US dollars keeps "$" as written
    assert [q.unit for q in extract_quantities("Paid A$40 and US$50; fee $6")] == ["AUD", "USD", "USD"]


def test_a_plus_between_two_amounts_adds_them():
    assert [(q.text, q.op) for q in extract_quantities("Top-up: $105.60 (receipts $100.60 + shortfall $5.00)")] == [
        ("$105.60", None), ("$100.60", None), ("$5.00", None)]
