"""The AP and contract packs on documents laid out unlike the first pack's (tests/data/ap_formats/,
written for these tests): SAP-style line numbers (10/20/30) and numeric PO ids, "Key: value"
blocks captioned by their line ("Item 20 - SY-10"), tier columns in a price schedule, one ERP
record holding a PO, a goods receipt and an invoice (identified by docNumber + docType, rows by
lineNumber after a lineId), values wrapped as {"amount": ...}, payment terms in business days or
counted from month end, inclusive threshold wording, weekly (not daily) delay credits. Each
mechanism has cases where it must not pass."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from pathlib import Path

import pytest

from warrant.runtime.verify.formula import UNSETTLED, Formula, Unsettled
from warrant.runtime.verify.locate import _MONTH_END, _parse, tokens
from warrant.runtime.verify.parsers import prose
from warrant.runtime.verify.spec import PackSpecError, parse_pack_spec
from tests.corpus import judged, verify_folder

DATA = Path(__file__).parent / "data" / "ap_formats"
RUN = "run_formats"
S, X, U = "supported", "contradicted", "unsupported"
INV, PO, GRN, C, POL, J, H = "invoice_OMS-3307.txt", "po_4500012345.txt", "grn_GRN-88120.txt", "contract_MSA-ORN-7.txt", "policy_FIN-9.txt", "erp_docs.json", "erp_invoice_history.json"
C8, P7, P8, P9 = "contract_MSA-ORN-8.txt", "policy_AP-7.txt", "policy_AP-8.txt", "policy_AP-9.txt"
P, G, I, K = "4500012345", "GRN-88120", "OMS-3307", "MSA-ORN-7"

KC, KP, KI, KO, KJ, KE = "contract_KPG-44.txt", "policy_FP-3.txt", "invoice_KPG-INV-5512.txt", "po_PO-8812.txt", "erp_kestrel.json", "erp_echo.json"
KID = "KPG-INV-5512"

CASES = [
 ("ordered_quantity", {"po_id": P, "line": "10", "quantity": 250}, [PO], S),
 ("ordered_quantity", {"po_id": P, "line": "GL-200", "quantity": 250}, [PO], S),
 ("ordered_quantity", {"po_id": P, "line": "10", "quantity": 260}, [PO], X),
 ("ordered_quantity", {"po_id": P, "line": "10", "quantity": 250}, [J], S),
 ("ordered_quantity", {"po_id": P, "line": "SY-10", "quantity": 1500}, [J], S),
 ("ordered_quantity", {"po_id": P, "line": "10", "quantity": 250}, [INV], U),
 ("received_quantity", {"receipt_id": G, "line": "10", "quantity": 240}, [GRN], S),
 ("received_quantity", {"receipt_id": G, "line": "20", "quantity": 1450}, [GRN], S),
 ("received_quantity", {"receipt_id": G, "line": "20", "quantity": 1500}, [GRN], X),
 ("received_quantity", {"receipt_id": G, "line": "SY-10", "quantity": 1450}, [GRN], S),
 ("received_quantity", {"receipt_id": "5000098765", "line": "10", "quantity": 240}, [J], S),
 ("received_quantity", {"receipt_id": "5000098765", "line": "10", "quantity": 250}, [J], X),
 ("received_quantity", {"receipt_id": G, "line": "10", "quantity": 240}, [PO], U),
 ("billed_quantity", {"invoice_id": I, "line": "2", "quantity": 1500}, [INV], S),
 ("billed_quantity", {"invoice_id": I, "line": "SY-10", "quantity": 1500}, [INV], S),
 ("billed_quantity", {"invoice_id": I, "line": "1", "quantity": 250}, [INV], X),
 ("billed_quantity", {"invoice_id": I, "line": "1", "quantity": 240}, [J], S),
 ("billed_unit_price", {"invoice_id": I, "line": "1", "unit_price": 8.75}, [INV], S),
 ("billed_unit_price", {"invoice_id": I, "line": "1", "unit_price": 8.50}, [INV], X),
 ("billed_unit_price", {"invoice_id": I, "line": "2", "unit_price": 0.42}, [J], S),
 ("billed_line_amount", {"invoice_id": I, "line": "1", "amount": 2100}, [INV], S),
 ("billed_line_amount", {"invoice_id": I, "line": "3", "amount": 152}, [INV], S),
 ("billed_line_amount", {"invoice_id": I, "line": "3", "amount": 125}, [INV], X),
 ("billed_line_amount", {"invoice_id": I, "line": "1", "amount": 2100}, [J], S),
 ("computed_line_amount", {"invoice_id": I, "line": "2", "amount": 630}, [INV], S),
 ("computed_line_amount", {"invoice_id": I, "line": "2", "amount": 600}, [INV], X),
 ("invoice_subtotal", {"invoice_id": I, "amount": 2882}, [INV], S),
 ("invoice_subtotal", {"invoice_id": I, "amount": 3171.97}, [INV], X),
 ("invoice_subtotal", {"invoice_id": I, "amount": 2882}, [J], S),
 ("invoice_total", {"invoice_id": I, "amount": 3171.97}, [INV], S),
 ("invoice_total", {"invoice_id": I, "amount": 2882}, [INV], X),
 ("invoice_total", {"invoice_id": I, "amount": 3171.97}, [J], S),
 ("invoice_total", {"invoice_id": I, "amount": 3171.97}, [H], S),
 ("invoice_total", {"invoice_id": I, "amount": 3171.97}, [PO], U),
 ("contract_unit_price", {"contract_id": K, "item": "GL-200", "unit_price": 8.75, "quantity": 240}, [C], S),
 ("contract_unit_price", {"contract_id": K, "item": "GL-200", "unit_price": 8.50, "quantity": 240}, [C], X),
 ("contract_unit_price", {"contract_id": K, "item": "GL-200", "unit_price": 8.50, "quantity": 600}, [C], S),
 ("contract_unit_price", {"contract_id": K, "item": "GL-200", "unit_price": 8.10, "quantity": 2000}, [C], S),
 ("contract_unit_price", {"contract_id": K, "item": "SY-10", "unit_price": 0.42, "quantity": 1500}, [C], S),
 ("contract_unit_price", {"contract_id": K, "item": "SY-10", "unit_price": 0.45, "quantity": None}, [C], S),
 ("unit_price_variance", {"invoice_id": I, "line": "1", "contract_id": K, "item": "GL-200", "amount": 0}, [INV, C], S),
 ("unit_price_variance", {"invoice_id": I, "line": "1", "contract_id": K, "item": "GL-200", "amount": 0.25}, [INV, C], X),
 ("unit_price_variance", {"invoice_id": I, "line": "2", "contract_id": K, "item": "SY-10", "amount": 0}, [INV, C], S),
 ("quantity_variance", {"invoice_id": I, "receipt_id": G, "line": "SY-10", "quantity": 50}, [INV, GRN], S),
 ("quantity_variance", {"invoice_id": I, "receipt_id": G, "line": "SY-10", "quantity": 0}, [INV, GRN], X),
 ("payment_due_date", {"invoice_id": I, "date": "2026-05-29"}, [INV], S),
 ("payment_due_date", {"invoice_id": I, "date": "2026-05-14"}, [INV, C], S),
 ("payment_due_date", {"invoice_id": I, "date": "2026-05-29"}, [INV, C], X),
 ("days_late", {"po_id": P, "receipt_id": G, "days": 5}, [PO, GRN], S),
 ("days_late", {"po_id": P, "receipt_id": G, "days": 4}, [PO, GRN], X),
 ("days_late", {"po_id": P, "receipt_id": "5000098765", "days": 5}, [J], S),
 ("late_delivery_credit", {"po_id": P, "receipt_id": G, "contract_id": K, "amount": 145.35}, [PO, GRN, C], S),
 ("late_delivery_credit", {"po_id": P, "receipt_id": G, "contract_id": K, "amount": 290.70}, [PO, GRN, C], X),
 ("requires_approval", {"invoice_id": I, "value": True}, [INV, POL], S),
 ("requires_approval", {"invoice_id": I, "value": False}, [INV, POL], X),
 ("duplicate_invoice_number", {"invoice_id": I, "value": True}, [H], S),
 ("duplicate_invoice_number", {"invoice_id": "OMS-3310", "value": False}, [H], S),
 ("duplicate_invoice_number", {"invoice_id": "OMS-3310", "value": True}, [H], X),
 ("vendor_name", {"document_id": I, "vendor": "Orion Medical Supply Inc."}, [INV], S),
 ("vendor_name", {"document_id": P, "vendor": "Orion Medical Supply Inc."}, [PO], S),
 ("vendor_name", {"document_id": P, "vendor": "Orion Medical Supply"}, [J], S),
 ("vendor_name", {"document_id": P, "vendor": "Pacific Linen Co."}, [PO], X),
 ("liability_cap", {"contract_id": K, "amount": 1000000, "currency": "USD"}, [C], S),
 ("notice_period_days", {"contract_id": K, "days": 45}, [C], S),
 ("notice_period_days", {"contract_id": K, "days": 30}, [C], X),
 ("term_end_date", {"contract_id": K, "date": "2028-01-14"}, [C], S),
 ("effective_date", {"contract_id": K, "date": "2026-01-15"}, [C], S),
 ("contract_party", {"contract_id": K, "role": "buyer", "name": "Lakeside Clinics Ltd"}, [C], S),
 ("contract_party", {"contract_id": K, "role": "supplier", "name": "Orion Medical Supply Inc."}, [C], S),
 ("contract_party", {"contract_id": K, "role": "vendor", "name": "Lakeside Clinics Ltd"}, [C], X),
 ("payment_due_date", {"invoice_id": I, "date": "2026-06-16"}, [INV, P8], S),   # Net 45 in business days
 ("payment_due_date", {"invoice_id": I, "date": "2026-05-29"}, [INV, P8], X),   # calendar days do not apply
 ("payment_due_date", {"invoice_id": I, "date": "2026-05-29"}, [INV, P7], U),   # the rule is stated with a qualification
 ("payment_due_date", {"invoice_id": I, "date": "2026-06-16"}, [INV, P7], U),
 ("payment_due_date", {"invoice_id": "OMS-3390", "date": "2026-04-28"}, ["invoice_OMS-3390.txt"], S),
 ("payment_due_date", {"invoice_id": "OMS-3390", "date": "2026-04-24"}, ["invoice_OMS-3390.txt"], X),
 ("payment_due_date", {"invoice_id": "OMS-3391", "date": "2026-05-14"}, ["invoice_OMS-3391.txt"], X),  # Net 30 EOM: from 30 April
 ("payment_due_date", {"invoice_id": "OMS-3391", "date": "2026-05-30"}, ["invoice_OMS-3391.txt"], S),
 ("requires_approval", {"invoice_id": I, "value": True}, [INV, P7], S),
 ("requires_approval", {"invoice_id": I, "value": False}, [INV, P7], X),
 ("requires_approval", {"invoice_id": I, "value": False}, [INV, P8], S),
 ("requires_approval", {"invoice_id": I, "value": True}, [INV, P8], X),
 ("requires_approval", {"invoice_id": I, "value": True}, [INV, P9], S),
 ("requires_approval", {"invoice_id": I, "value": False}, [INV, P9], X),
 ("late_delivery_credit", {"po_id": "4500012345", "receipt_id": "GRN-88120", "contract_id": "MSA-ORN-8", "amount": 145.35}, [PO, GRN, C8], U),
 ("late_delivery_credit", {"po_id": "4500012345", "receipt_id": "GRN-88120", "contract_id": "MSA-ORN-8", "amount": 29.07}, [PO, GRN, C8], U),
 ("duplicate_invoice_number", {"invoice_id": I, "value": True}, [INV, "invoice_OMS-3307_copy.txt"], S),
 ("duplicate_invoice_number", {"invoice_id": I, "value": False}, [INV, "invoice_OMS-3307_copy.txt"], X),  # an invoice's letterhead is its vendor
 ("duplicate_invoice_number", {"invoice_id": I, "value": True}, [INV], U),
 ("duplicate_invoice_number", {"invoice_id": "OMS-3391", "value": False}, ["invoice_OMS-3391.txt", "invoice_PL-3307.txt"], S),
 ("duplicate_invoice_number", {"invoice_id": "OMS-3391", "value": True}, ["invoice_OMS-3391.txt", "invoice_PL-3307.txt"], X),
 # a PO's letterhead is the buyer: never read as the vendor
 ("vendor_name", {"document_id": "PO-8813", "vendor": "Fernhill Bakeries Ltd"}, ["po_PO-8813.txt"], X),
 ("vendor_name", {"document_id": "PO-9001", "vendor": "Fernhill Bakeries Ltd"}, ["po_PO-9001.txt"], U),
 ("vendor_name", {"document_id": "KPG-INV-5513", "vendor": "Fernhill Bakeries Ltd"}, ["invoice_KPG-INV-5513.txt"], X),
 # indented "Key: value" party lines; a one-word short form neither supports nor contradicts
 ("contract_party", {"contract_id": "KPG-44", "role": "buyer", "name": "Fernhill Bakeries Ltd"}, [KC], S),
 ("contract_party", {"contract_id": "KPG-44", "role": "supplier", "name": "Kestrel Packaging Group Inc."}, [KC], S),
 ("contract_party", {"contract_id": "KPG-44", "role": "supplier", "name": "Kestrel Packaging"}, [KC], S),
 ("contract_party", {"contract_id": "KPG-44", "role": "supplier", "name": "Kestrel"}, [KC], U),
 ("contract_party", {"contract_id": "KPG-44", "role": "vendor", "name": "Fernhill Bakeries Ltd"}, [KC], X),
 # a sentence wrapped over lines; "until" right before the date outweighs "Effective Date" earlier on
 ("term_end_date", {"contract_id": "KPG-44", "date": "2027-06-30"}, [KC], S),
 ("term_end_date", {"contract_id": "KPG-44", "date": "2026-07-01"}, [KC], X),
 ("effective_date", {"contract_id": "KPG-44", "date": "2026-07-01"}, [KC], S),
 # the cap far from the word "liability" (its section); the insurance minimum is not it
 ("liability_cap", {"contract_id": "KPG-44", "amount": 750000, "currency": "USD"}, [KC], S),
 ("liability_cap", {"contract_id": "KPG-44", "amount": 5000000}, [KC], X),
 # the cure period after a breach notice is not the termination notice
 ("notice_period_days", {"contract_id": "KPG-44", "days": 90}, [KC], S),
 ("notice_period_days", {"contract_id": "KPG-44", "days": 15}, [KC], X),
 # "Band A qty | Band A price | Band B qty | Band B price": each price with its own band
 ("contract_unit_price", {"contract_id": "KPG-44", "item": "BX-9", "unit_price": 2.10, "quantity": 1200}, [KC], S),
 ("contract_unit_price", {"contract_id": "KPG-44", "item": "BX-9", "unit_price": 2.40, "quantity": 1200}, [KC], X),
 ("contract_unit_price", {"contract_id": "KPG-44", "item": "BX-9", "unit_price": 2.40, "quantity": 500}, [KC], S),
 ("contract_unit_price", {"contract_id": "KPG-44", "item": "TR-3", "unit_price": 0.48, "quantity": 5000}, [KC], S),
 ("unit_price_variance", {"invoice_id": KID, "line": "1", "contract_id": "KPG-44", "item": "BX-9", "amount": 0}, [KI, KC], S),
 ("unit_price_variance", {"invoice_id": KID, "line": "1", "contract_id": "KPG-44", "item": "BX-9", "amount": -0.30}, [KI, KC], X),
 # "1.5% 15 days, Net 60 days": the net days are the terms, the discount period is not
 ("payment_due_date", {"invoice_id": KID, "date": "2026-11-09"}, [KI], S),
 ("payment_due_date", {"invoice_id": KID, "date": "2026-09-25"}, [KI], X),
 ("payment_due_date", {"invoice_id": KID, "date": "2026-11-09"}, [KI, KC], S),
 # the total in a "Key: value" footer whose first line holds commas (no CSV table)
 ("invoice_total", {"invoice_id": KID, "amount": 2798.90}, [KI], S),
 ("invoice_total", {"invoice_id": KID, "amount": 798.90}, [KI], X),
 # a policy titled "FINANCE POLICY FP-3: ..."; the "needs no approval" tier is not the trigger
 ("requires_approval", {"invoice_id": KID, "value": True}, [KI, KP], S),
 ("requires_approval", {"invoice_id": KID, "value": False}, [KI, KP], X),
 # a remittance address is not the vendor; the letterhead supports
 ("vendor_name", {"document_id": KID, "vendor": "Kestrel Packaging Group Inc."}, [KI], S),
 # ERP: the request echo is no document; the record typed INVOICE holds its lines; "net" is no term
 ("billed_quantity", {"invoice_id": KID, "line": "BX-9", "quantity": 1200}, [KJ], S),
 ("billed_quantity", {"invoice_id": KID, "line": "1", "quantity": 1200}, [KJ], U),  # "seq" is no printed line number
 ("billed_unit_price", {"invoice_id": KID, "line": "BX-9", "unit_price": 2.10}, [KJ], S),
 ("invoice_total", {"invoice_id": KID, "amount": 2798.90}, [KJ], S),
 ("invoice_subtotal", {"invoice_id": KID, "amount": 2600.00}, [KJ], S),
 ("payment_due_date", {"invoice_id": KID, "date": "2026-11-09"}, [KJ], S),
 ("vendor_name", {"document_id": KID, "vendor": "Kestrel Packaging Group Inc."}, [KJ], S),
 ("invoice_total", {"invoice_id": "KPG-INV-9999", "amount": 100.00}, [KE], U),
 # ERP goods receipt: ids in an "ids" object, the line key in a sub-object of the row
 ("received_quantity", {"receipt_id": "GR-301", "line": "1", "quantity": 1150}, [KJ], S),
 ("received_quantity", {"receipt_id": "GR-301", "line": "BX-9", "quantity": 1200}, [KJ], X),
 ("quantity_variance", {"invoice_id": KID, "receipt_id": "GR-301", "line": "BX-9", "quantity": 50}, [KI, KJ], S),
 # per calendar day credit after a grace period, capped; no PO value needed
 ("days_late", {"po_id": "PO-8812", "receipt_id": "GR-301", "days": 8}, [KO, KJ], S),
 ("late_delivery_credit", {"po_id": "PO-8812", "receipt_id": "GR-301", "contract_id": "KPG-44", "amount": 300}, [KO, KJ, KC], S),
 ("late_delivery_credit", {"po_id": "PO-8812", "receipt_id": "GR-301", "contract_id": "KPG-44", "amount": 400}, [KO, KJ, KC], X),
 ("late_delivery_credit", {"po_id": "PO-8812", "receipt_id": "GR-301", "contract_id": "KPG-44", "amount": 300}, [KO, KJ], U),
]


@pytest.mark.parametrize("text, op", [
    ("Invoices equal to or greater than $5,000 require approval.", ">="),
    ("Invoices greater than or equal to $5,000 require approval.", ">="),
    ("Invoices at or above USD 5,000 require approval.", ">="),
    ("Invoices of $5,000 and above require approval.", ">="),
    ("Invoices of $5,000 or more require approval.", ">="),
    ("Invoices above $5,000 require approval.", ">"),  # must NOT become inclusive
    ("Invoices exceeding $5,000 require approval.", ">"),
])
def test_threshold_boundary_wording(text, op):
    from warrant.runtime.verify.rules import extract_quantities

    q = [q for q in extract_quantities(text) if q.kind == "money"][0]
    assert q.op == op  # read by the rules' one comparator, for statements and packs alike


@pytest.mark.parametrize("text, op, frame", [
    ("schreibt 1 % des Bestellwerts gut, höchstens jedoch insgesamt 4 % des Bestellwerts.", "<=", "limit"),
    ("Rabatt mindestens 2 % auf den Nettobetrag.", ">=", "limit"),
    ("schreibt 1 % des Bestellwerts gut.", None, "value"),
])
def test_a_german_bound_is_a_limit(text, op, frame):
    from warrant.runtime.verify.rules import extract_quantities

    q = [q for q in extract_quantities(text) if q.kind == "percent"][-1]
    assert (q.op, q.frame) == (op, frame)


@pytest.mark.parametrize("tail, month_end", [(" EOM", True), (" days EOM", True), (" days from the end of the month", True),
                                              (" days end of month", True), (" days after the last day of the calendar month", True),
                                              (" prox.", True), (" days from the invoice date", False), ("", False)])
def test_terms_counted_from_month_end_are_not_days(tail, month_end):
    assert bool(_MONTH_END.match(tail)) is month_end


def test_an_ambiguous_value_is_never_skipped_by_a_fallback():
    f = Formula("coalesce(a, b)")
    assert f.evaluate({"a": None, "b": Decimal(3)}) == 3  # absent: fall back
    with pytest.raises(Unsettled):
        f.evaluate({"a": UNSETTLED, "b": Decimal(3)})  # stated two ways: no fallback
    with pytest.raises(Unsettled):
        Formula("min(x, opt(cap))").evaluate({"x": Decimal(5), "cap": UNSETTLED})
    assert Formula("add_business_days(d, 1)").evaluate({"d": dt.date(2026, 4, 17)}) == dt.date(2026, 4, 20)  # Friday + 1
    assert Formula("add_days(month_end(d), 30)").evaluate({"d": dt.date(2028, 2, 3)}) == dt.date(2028, 3, 30)  # a leap February


def test_a_flag_slot_needs_its_wording():
    bad = {"pack": "t", "description": "d", "predicates": [{
        "name": "p", "description": "d", "template": "t", "needed": "n", "args": {"v": {"type": "bool"}},
        "slots": {"f": {"kind": "flag", "labels": ["x"]}}, "claim": [{"arg": "v", "equals": "f", "compare": "bool"}]}]}
    with pytest.raises(PackSpecError, match=r"predicates\[0\]\.slots\.f.*flag slot needs `context`"):
        parse_pack_spec(bad)
    bad["predicates"][0]["slots"]["f"] = {"kind": "name", "letterhead": True, "letterhead_of": ["invoic"]}
    with pytest.raises(PackSpecError, match=r"predicates\[0\]\.slots\.f\.letterhead_of\[0\]: unknown scope 'invoic'"):
        parse_pack_spec(bad)
    bad["predicates"][0]["slots"]["f"] = {"kind": "name", "labels": ["vendor"]}
    bad["scopes"] = {"invoice": {"type_words": ["invoice"], "cites": ["purchase_order"]}}
    with pytest.raises(PackSpecError, match=r"scopes\.invoice\.cites\[0\]: unknown scope 'purchase_order'"):
        parse_pack_spec(bad)
    bad["scopes"] = {"invoice": {"type_words": ["invoice"]}}
    bad["predicates"][0]["slots"]["f"] = {"kind": "number", "scope": "invoice", "id_arg": "v", "labels": ["qty"],
                                          "quoted_in": {"scopes": ["receipt"], "labels": ["qty ordered"]}}
    with pytest.raises(PackSpecError, match=r"slots\.f\.quoted_in\.scopes\[0\]: unknown scope 'receipt'"):
        parse_pack_spec(bad)
    bad["predicates"][0]["slots"]["f"] = {"kind": "number", "labels": ["qty"], "quoted_in": {"scopes": ["invoice"], "labels": ["qty ordered"]}}
    with pytest.raises(PackSpecError, match=r"slots\.f\.quoted_in: needs the slot's scope and id_arg"):
        parse_pack_spec(bad)


def test_wrapped_lines_join_into_one_sentence_but_list_items_and_fields_do_not():
    text = ("1.1 Either party may end this Agreement on ninety (90) days' written notice to the other\n"
            "    party, delivered by courier.\n"
            "1.2 Nothing here limits the cure period.\n"
            "Notice Period: 90 days\n"
            "Governing law: Utah\n")
    spans = [text[a:b] for a, b in prose.sentence_spans(text)]  # the shared splitter joins wrapped lines itself
    assert any(s.startswith("1.1") and s.endswith("courier.") for s in spans)  # one sentence over two lines
    assert "1.2 Nothing here limits the cure period." in spans  # a numbered item starts a new sentence
    assert "Notice Period: 90 days" in spans and "Governing law: Utah" in spans  # fields stay apart


@pytest.mark.parametrize("text, name", [("Kestrel Packaging Group Inc., a Utah corporation", "Kestrel Packaging Group Inc."),
                                        ("P.O. Box 7730, Ogden, UT", None), ("400 Canyon Drive, Ogden", None),
                                        ("2026-03-01", None), ("P.O.", None), ("SUP-19", None), ("3M Company", "3M Company")])
def test_a_name_is_not_an_address_or_a_date(text, name):
    got = _parse("name", text, "vendor", False)
    assert (str(got[0].value) if got else None) == name


# Terms, thresholds and dates that must not be read as what they resemble.
PO6, RR6, INV6, AG6, POL6, J6 = "po_TCR-PO-118.txt", "rr_RR-2231.txt", "inv_MBF-90412.txt", "agreement_MBF-2026.txt", "policy_AP-3.txt", "erp_po_TCR-PO-118.json"
P6, R6, I6, K6 = "TCR-PO-118", "RR-2231", "MBF-90412", "MBF-2026"
MORE_CASES = [
    # a dispute window in business days is no payment term: the contract's net 30 applies
    ("payment_due_date", {"invoice_id": "KPG-INV-5513", "date": "2026-10-10"}, ["invoice_KPG-INV-5513.txt", "contract_KPG-45.txt"], S),
    ("payment_due_date", {"invoice_id": "KPG-INV-5513", "date": "2026-09-17"}, ["invoice_KPG-INV-5513.txt", "contract_KPG-45.txt"], X),
    # terms counted from the receipt of the goods: the invoice date does not settle the due date
    ("payment_due_date", {"invoice_id": "KPG-INV-5513", "date": "2026-10-10"}, ["invoice_KPG-INV-5513.txt", "contract_KPG-46.txt"], U),
    ("payment_due_date", {"invoice_id": "KPG-INV-5513", "date": "2026-11-09"}, ["invoice_KPG-INV-5513.txt", "contract_KPG-46.txt"], U),
    # the purchase order's terms over the invoice's own
    ("payment_due_date", {"invoice_id": "KPG-INV-5513", "date": "2026-09-30"}, ["invoice_KPG-INV-5513.txt", "po_PO-8813.txt"], S),
    ("payment_due_date", {"invoice_id": "KPG-INV-5513", "date": "2026-11-09"}, ["invoice_KPG-INV-5513.txt", "po_PO-8813.txt"], X),
    ("payment_due_date", {"invoice_id": "KPG-INV-5513", "date": "2026-11-09"}, ["invoice_KPG-INV-5513.txt"], S),
    # a threshold on the pre-tax amount is not one on the total
    ("requires_approval", {"invoice_id": "KPG-INV-5513", "value": True}, ["invoice_KPG-INV-5513.txt", "policy_FP-4.txt"], U),
    ("requires_approval", {"invoice_id": "KPG-INV-5513", "value": False}, ["invoice_KPG-INV-5513.txt", "policy_FP-4.txt"], U),
    # "not less than" is an inclusive trigger, not a negation; "do not require approval" is no trigger
    ("requires_approval", {"invoice_id": "KPG-INV-5513", "value": True}, ["invoice_KPG-INV-5513.txt", "policy_FP-5.txt"], S),
    ("requires_approval", {"invoice_id": "KPG-INV-5513", "value": False}, ["invoice_KPG-INV-5513.txt", "policy_FP-5.txt"], X),
    # JSON column tables ({"columns": [...], "rows": [[...]]}) and name/value pairs are read by their names
    ("billed_quantity", {"invoice_id": "KPG-INV-7001", "line": "2", "quantity": 6000}, ["erp_invoice_columns.json"], S),
    ("billed_quantity", {"invoice_id": "KPG-INV-7001", "line": "2", "quantity": 1500}, ["erp_invoice_columns.json"], X),
    ("billed_unit_price", {"invoice_id": "KPG-INV-7001", "line": "BX-9", "unit_price": 2.10}, ["erp_invoice_columns.json"], S),
    ("billed_line_amount", {"invoice_id": "KPG-INV-7001", "line": "1", "amount": 3150.00}, ["erp_invoice_columns.json"], S),
    ("invoice_total", {"invoice_id": "KPG-INV-7001", "amount": 6491.30}, ["erp_invoice_columns.json"], S),
    ("invoice_total", {"invoice_id": "KPG-INV-7001", "amount": 6030.00}, ["erp_invoice_columns.json"], X),
    ("invoice_total", {"invoice_id": "KPG-INV-7002", "amount": 1250.00}, ["erp_invoice_pairs.json"], S),
    ("invoice_total", {"invoice_id": "KPG-INV-7002", "amount": 1150.00}, ["erp_invoice_pairs.json"], X),
    ("invoice_subtotal", {"invoice_id": "KPG-INV-7002", "amount": 1150.00}, ["erp_invoice_pairs.json"], S),
    ("invoice_total", {"invoice_id": "KPG-INV-7001", "amount": 1250.00}, ["erp_invoice_pairs.json"], U),
    # an ERP timestamp's date
    ("days_late", {"po_id": "PO-8812", "receipt_id": "GR-302", "days": 3}, ["po_PO-8812.txt", "erp_gr_GR-302.json"], S),
    ("days_late", {"po_id": "PO-8812", "receipt_id": "GR-302", "days": 2}, ["po_PO-8812.txt", "erp_gr_GR-302.json"], X),
    # a deeply nested vendor bill: values wrapped as {"value": ...}, the line key in a "meta" sub-object, a supplier
    # reference code that is no name
    ("invoice_total", {"invoice_id": "VB-2201", "amount": 972.00}, ["erp_vendor_bill_deep.json"], S),
    ("invoice_total", {"invoice_id": "VB-2201", "amount": 900.00}, ["erp_vendor_bill_deep.json"], X),
    ("billed_quantity", {"invoice_id": "VB-2201", "line": "1", "quantity": 3}, ["erp_vendor_bill_deep.json"], S),
    ("billed_unit_price", {"invoice_id": "VB-2201", "line": "FRT-3", "unit_price": 300}, ["erp_vendor_bill_deep.json"], S),
    ("payment_due_date", {"invoice_id": "VB-2201", "date": "2026-07-31"}, ["erp_vendor_bill_deep.json"], X),
    ("vendor_name", {"document_id": "VB-2201", "vendor": "SUP-19"}, ["erp_vendor_bill_deep.json"], X),
    ("vendor_name", {"document_id": "VB-2201", "vendor": "Juniper Freight Partners LLC"}, ["erp_vendor_bill_deep.json"], S),
    # one text record holding a PO and a goods receipt: each heading starts its own document; a field line
    # ("INVOICE NUMBER   KPG-INV-5512") starts none
    ("ordered_quantity", {"po_id": "PO-4471", "line": "1", "quantity": 200}, ["portal_export_4471.txt"], S),
    ("ordered_quantity", {"po_id": "PO-4471", "line": "1", "quantity": 180}, ["portal_export_4471.txt"], X),
    ("received_quantity", {"receipt_id": "GR-9120", "line": "1", "quantity": 180}, ["portal_export_4471.txt"], S),
    ("received_quantity", {"receipt_id": "GR-9120", "line": "PAP-A4", "quantity": 200}, ["portal_export_4471.txt"], X),
    ("received_quantity", {"receipt_id": "GR-9999", "line": "1", "quantity": 180}, ["portal_export_4471.txt"], U),
    ("days_late", {"po_id": "PO-4471", "receipt_id": "GR-9120", "days": 3}, ["portal_export_4471.txt"], S),
    ("vendor_name", {"document_id": "GR-9120", "vendor": "Granite Office Supply"}, ["portal_export_4471.txt"], U),
    # rows holding several kinds' ids: the row that quotes a PO number is the invoice (or receipt), never the PO
    ("invoice_total", {"invoice_id": "SIL-300", "amount": 880.00}, ["erp_ap_rows.json"], S),
    ("received_quantity", {"receipt_id": "GR-7700", "line": "PO-7100", "quantity": 38}, ["erp_ap_rows.json"], S),
    ("ordered_quantity", {"po_id": "PO-7100", "line": "PO-7100", "quantity": 40}, ["erp_ap_rows.json"], U),
    # an e-mail that names an invoice and its total is not the invoice
    ("invoice_total", {"invoice_id": "GOS-5521", "amount": 4800.00}, ["email_granite.txt"], U),
    ("ordered_quantity", {"po_id": "PO-4471", "line": "1", "quantity": 180}, ["email_granite.txt"], U),
    # prose price tiers per bag, PascalCase ERP keys ("PONumber", "NeedByDate"), "authorized" for approved;
    # a credit per business day, a cap stated as fees paid and a term stated as a duration abstain
 ("ordered_quantity", {"po_id": P6, "line": "1", "quantity": 12000}, [PO6], S),
 ("ordered_quantity", {"po_id": P6, "line": "VB-1K", "quantity": 3000}, [PO6], S),
 ("ordered_quantity", {"po_id": P6, "line": "1", "quantity": 11500}, [PO6], X),
 ("ordered_quantity", {"po_id": P6, "line": "1", "quantity": 12000}, [J6], S),
 ("ordered_quantity", {"po_id": P6, "line": "VB-1K", "quantity": 3000}, [J6], S),
 ("received_quantity", {"receipt_id": R6, "line": "1", "quantity": 11500}, [RR6], S),
 ("received_quantity", {"receipt_id": R6, "line": "1", "quantity": 12000}, [RR6], X),
 ("received_quantity", {"receipt_id": R6, "line": "VB-1K", "quantity": 3000}, [RR6], S),
 ("billed_quantity", {"invoice_id": I6, "line": "1", "quantity": 11500}, [INV6], S),
 ("billed_unit_price", {"invoice_id": I6, "line": "2", "unit_price": 0.52}, [INV6], S),
 ("billed_line_amount", {"invoice_id": I6, "line": "1", "amount": 3220.00}, [INV6], S),
 ("computed_line_amount", {"invoice_id": I6, "line": "1", "amount": 3220.00}, [INV6], S),
 ("invoice_subtotal", {"invoice_id": I6, "amount": 4780.00}, [INV6], S),
 ("invoice_total", {"invoice_id": I6, "amount": 4900.00}, [INV6], S),
 ("invoice_total", {"invoice_id": I6, "amount": 4780.00}, [INV6], X),
 ("contract_unit_price", {"contract_id": K6, "item": "VB-250", "unit_price": 0.28, "quantity": 11500}, [AG6], S),
 ("contract_unit_price", {"contract_id": K6, "item": "VB-250", "unit_price": 0.31, "quantity": 11500}, [AG6], X),
 ("contract_unit_price", {"contract_id": K6, "item": "VB-250", "unit_price": 0.25, "quantity": 25000}, [AG6], S),
 ("contract_unit_price", {"contract_id": K6, "item": "VB-1K", "unit_price": 0.52, "quantity": 3000}, [AG6], S),
 ("unit_price_variance", {"invoice_id": I6, "line": "1", "contract_id": K6, "item": "VB-250", "amount": 0}, [INV6, AG6], S),
 ("quantity_variance", {"invoice_id": I6, "receipt_id": R6, "line": "1", "quantity": 0}, [INV6, RR6], S),
 ("quantity_variance", {"invoice_id": I6, "receipt_id": R6, "line": "1", "quantity": 500}, [INV6, RR6], X),
 ("payment_due_date", {"invoice_id": I6, "date": "2026-06-11"}, [INV6, AG6], S),
 ("payment_due_date", {"invoice_id": I6, "date": "2026-06-11"}, [INV6, PO6, AG6], S),
 ("payment_due_date", {"invoice_id": I6, "date": "2026-06-11"}, [INV6], U),
 ("days_late", {"po_id": P6, "receipt_id": R6, "days": 4}, [PO6, RR6], S),
 ("days_late", {"po_id": P6, "receipt_id": R6, "days": 4}, [J6, RR6], S),
 ("days_late", {"po_id": P6, "receipt_id": R6, "days": 3}, [PO6, RR6], X),
 ("late_delivery_credit", {"po_id": P6, "receipt_id": R6, "contract_id": K6, "amount": 393.60}, [PO6, RR6, AG6], U),
 ("late_delivery_credit", {"po_id": P6, "receipt_id": R6, "contract_id": K6, "amount": 295.20}, [PO6, RR6, AG6], U),
 ("requires_approval", {"invoice_id": I6, "value": True}, [INV6, POL6], S),
 ("requires_approval", {"invoice_id": I6, "value": False}, [INV6, POL6], X),
 ("vendor_name", {"document_id": I6, "vendor": "Meridian Bag & Film Ltd"}, [INV6], S),
 ("vendor_name", {"document_id": P6, "vendor": "Meridian Bag & Film"}, [PO6], S),
 ("vendor_name", {"document_id": P6, "vendor": "Meridian Bag & Film Ltd"}, [J6], S),
 ("vendor_name", {"document_id": R6, "vendor": "Meridian Bag & Film Ltd"}, [RR6], U),
 ("liability_cap", {"contract_id": K6, "amount": 4920}, [AG6], U),
 ("notice_period_days", {"contract_id": K6, "days": 60}, [AG6], S),
 ("term_end_date", {"contract_id": K6, "date": "2028-02-29"}, [AG6], U),
 ("effective_date", {"contract_id": K6, "date": "2026-03-01"}, [AG6], S),
 ("contract_party", {"contract_id": K6, "role": "buyer", "name": "Tallgrass Coffee Roasters, Inc."}, [AG6], S),
 ("contract_party", {"contract_id": K6, "role": "supplier", "name": "Meridian Bag & Film Ltd"}, [AG6], S),
 ("contract_party", {"contract_id": K6, "role": "supplier", "name": "Tallgrass Coffee Roasters"}, [AG6], X),
    # European number format: said in so many words ("Quantities in European number format") or
    # shown ("1.234,56"); "12,40" alone is a number there; a totals block of "Label: 8.680,00 EUR" lines is
    # fields, not a comma-separated table
    ("billed_unit_price", {"invoice_id": "NRD-2207", "line": "ND-A4", "unit_price": 12.40}, ["invoice_NRD-2207.txt"], S),
    ("billed_quantity", {"invoice_id": "NRD-2207", "line": "ND-C1", "quantity": 3000}, ["invoice_NRD-2207.txt"], S),
    ("invoice_subtotal", {"invoice_id": "NRD-2207", "amount": 8680.00}, ["invoice_NRD-2207.txt"], S),
    ("invoice_total", {"invoice_id": "NRD-2207", "amount": 10329.20}, ["invoice_NRD-2207.txt"], S),
    ("invoice_total", {"invoice_id": "NRD-2207", "amount": 8680.00}, ["invoice_NRD-2207.txt"], X),
    ("received_quantity", {"receipt_id": "WE-5510", "line": "LT-40", "quantity": 1450}, ["grn_WE-5510.txt"], S),
    ("received_quantity", {"receipt_id": "WE-5510", "line": "LT-40", "quantity": 1.45}, ["grn_WE-5510.txt"], X),
    # a numbered clause ("2.2 USD invoices: ...") is no amount of USD 2.2
    ("requires_approval", {"invoice_id": "NRD-2207", "value": False}, ["invoice_NRD-2207.txt", "policy_AP-12.txt"], S),
    ("requires_approval", {"invoice_id": "NRD-2207", "value": True}, ["invoice_NRD-2207.txt", "policy_AP-12.txt"], X),
    # dot leaders ("Deliver by ....... 10 Mar 2026") separate a label from its value and the cells of a row
    ("ordered_quantity", {"po_id": "PO-7731", "line": "1", "quantity": 1500}, ["po_PO-7731.txt"], S),
    ("ordered_quantity", {"po_id": "PO-7731", "line": "1", "quantity": 300}, ["po_PO-7731.txt"], X),
    ("vendor_name", {"document_id": "PO-7731", "vendor": "Larkmoor Tooling Ltd."}, ["po_PO-7731.txt"], S),
    ("days_late", {"po_id": "PO-7731", "receipt_id": "WE-5510", "days": 4}, ["po_PO-7731.txt", "grn_WE-5510.txt"], S),
    ("days_late", {"po_id": "PO-7731", "receipt_id": "WE-5510", "days": 7}, ["po_PO-7731.txt", "grn_WE-5510.txt"], X),
    # a credit "for each calendar day of delay" on the "PO value, excl. tax and freight": 4 x 1% x 9,450.00
    ("late_delivery_credit", {"po_id": "PO-7731", "receipt_id": "WE-5510", "contract_id": "LMT-SA-2026", "amount": 378.00},
     ["po_PO-7731.txt", "grn_WE-5510.txt", "contract_LMT-SA-2026.txt"], S),
    ("late_delivery_credit", {"po_id": "PO-7731", "receipt_id": "WE-5510", "contract_id": "LMT-SA-2026", "amount": 567.00},
     ["po_PO-7731.txt", "grn_WE-5510.txt", "contract_LMT-SA-2026.txt"], X),
    # the issuer under an "INVOICE X" heading, or after a dash in it; a bank to remit to is no vendor
    ("vendor_name", {"document_id": "LMT-0415", "vendor": "Larkmoor Tooling Ltd."}, ["invoice_LMT-0415.txt"], S),
    ("vendor_name", {"document_id": "LMT-0415", "vendor": "Eastholt Commercial Bank"}, ["invoice_LMT-0415.txt"], X),
    ("vendor_name", {"document_id": "LMT-0470", "vendor": "Larkmoor Tooling Ltd."}, ["invoice_LMT-0470.txt"], S),
    # a resent copy that opens with its heading, then From:/To: lines, is an invoice, not an e-mail about one
    ("invoice_total", {"invoice_id": "LMT-0415", "amount": 9245.00}, ["invoice_LMT-0415_resent.txt"], S),
    ("duplicate_invoice_number", {"invoice_id": "LMT-0415", "value": True}, ["invoice_LMT-0415.txt", "invoice_LMT-0415_resent.txt"], S),
    ("duplicate_invoice_number", {"invoice_id": "LMT-0415", "value": False}, ["invoice_LMT-0415.txt", "invoice_LMT-0415_resent.txt"], X),
    ("duplicate_invoice_number", {"invoice_id": "LMT-0470", "value": False}, ["invoice_LMT-0470.txt", "invoice_LMT-0415.txt"], S),
    # a JSON tool output under its request line ("GET /api/v1/invoices/X -> 200"); its date is the document
    # date, not the ERP posting date
    ("invoice_total", {"invoice_id": "ASH-5502", "amount": 2450.00}, ["erp_invoice_ASH-5502.json"], S),
    ("invoice_total", {"invoice_id": "ASH-5502", "amount": 2100.00}, ["erp_invoice_ASH-5502.json"], X),
    ("payment_due_date", {"invoice_id": "ASH-5502", "date": "2026-06-09"}, ["erp_invoice_ASH-5502.json"], S),
    ("payment_due_date", {"invoice_id": "ASH-5502", "date": "2026-06-13"}, ["erp_invoice_ASH-5502.json"], X),
    # a policy titled "... POLICY AP-POL-9: Invoice Approval and Release" is the policy
    ("requires_approval", {"invoice_id": "LMT-0470", "value": False}, ["invoice_LMT-0470.txt", "policy_AP-POL-9.txt"], S),
    ("requires_approval", {"invoice_id": "LMT-0470", "value": True}, ["invoice_LMT-0470.txt", "policy_AP-POL-9.txt"], X),
    # the issuer before the dash of "Ashgrove Supplies Ltd. - INVOICE"; a credit note is read as an invoice
    ("vendor_name", {"document_id": "ASH-5501", "vendor": "Ashgrove Supplies Ltd."}, ["invoice_ASH-5501.txt"], S),
    ("vendor_name", {"document_id": "ASH-5501", "vendor": "Ashgrove Supply Co."}, ["invoice_ASH-5501.txt"], X),
    ("billed_quantity", {"invoice_id": "ASH-CN-4", "line": "1", "quantity": 5}, ["credit_note_ASH-CN-4.txt"], S),
    ("billed_quantity", {"invoice_id": "ASH-CN-4", "line": "1", "quantity": 50}, ["credit_note_ASH-CN-4.txt"], X),
    # a credit of "2% of the PO Value for each calendar day of delay" on "PO total (excl. freight and tax)": 3 x 2% x 3,000
    ("late_delivery_credit", {"po_id": "PO-8850", "receipt_id": "GR-8850", "contract_id": "ASH-SC-1", "amount": 180.00},
     ["po_PO-8850.txt", "grn_GR-8850.txt", "contract_ASH-SC-1.txt"], S),
    ("late_delivery_credit", {"po_id": "PO-8850", "receipt_id": "GR-8850", "contract_id": "ASH-SC-1", "amount": 420.00},
     ["po_PO-8850.txt", "grn_GR-8850.txt", "contract_ASH-SC-1.txt"], X),
    # a long letterhead title names the document in its last part: the invoice, never the PO it quotes
    ("billed_quantity", {"invoice_id": "BRN-7702", "line": "BR-HAD-2", "quantity": 120}, ["invoice_BRN-7702.txt"], S),
    ("ordered_quantity", {"po_id": "PO-8850", "line": "BR-HAD-2", "quantity": 120}, ["invoice_BRN-7702.txt"], U),
    # the issuer is the part of a heading that is a company ("RESUBMISSION - Invoice No. X - Oakmere Mills AG")
    ("vendor_name", {"document_id": "OMW-0415", "vendor": "Oakmere Mills AG"}, ["invoice_OMW-0415.txt"], S),
    # "Subtotal goods" and a "Net amount" after the discount and freight: the subtotal comes before them
    ("invoice_subtotal", {"invoice_id": "OMW-0415", "amount": 1157.60}, ["invoice_OMW-0415.txt"], X),
    ("invoice_subtotal", {"invoice_id": "OMW-0415", "amount": 1120.00}, ["invoice_OMW-0415.txt"], S),
    ("invoice_subtotal", {"invoice_id": "TRV-5120", "amount": 5295.00}, ["invoice_TRV-5120.txt"], S),
    ("invoice_subtotal", {"invoice_id": "TRV-5120", "amount": 5362.05}, ["invoice_TRV-5120.txt"], X),
    ("invoice_total", {"invoice_id": "TRV-5120", "amount": 5630.15}, ["invoice_TRV-5120.txt"], S),
    # a column "Unit USD" holds unit prices
    ("billed_unit_price", {"invoice_id": "TRV-5120", "line": "1", "unit_price": 3.90}, ["invoice_TRV-5120.txt"], S),
    ("billed_unit_price", {"invoice_id": "TRV-5120", "line": "1", "unit_price": 1200}, ["invoice_TRV-5120.txt"], X),
    ("billed_quantity", {"invoice_id": "TRV-5120", "line": "2", "quantity": 300}, ["invoice_TRV-5120.txt"], S),
    ("unit_price_variance", {"invoice_id": "TRV-5120", "line": "1", "contract_id": "TRV-9", "item": "CU-16", "amount": 0.05},
     ["invoice_TRV-5120.txt", "contract_TRV-9.txt"], S),
    ("unit_price_variance", {"invoice_id": "TRV-5120", "line": "2", "contract_id": "TRV-9", "item": "PV-20", "amount": 0},
     ["invoice_TRV-5120.txt", "contract_TRV-9.txt"], S),
    # price tiers stated in prose: "from 1,000 kg up to 2,499 kg" is one tier; "and at USD 2.05 ... from 300 m"
    # belongs to its own price, not to the "up to 299 m" before it
    ("contract_unit_price", {"contract_id": "TRV-9", "item": "CU-16", "unit_price": 3.85, "quantity": 1200}, ["contract_TRV-9.txt"], S),
    ("contract_unit_price", {"contract_id": "TRV-9", "item": "CU-16", "unit_price": 3.60, "quantity": 1200}, ["contract_TRV-9.txt"], X),
    ("contract_unit_price", {"contract_id": "TRV-9", "item": "CU-16", "unit_price": 3.60, "quantity": 2000}, ["contract_TRV-9.txt"], S),
    ("contract_unit_price", {"contract_id": "TRV-9", "item": "CU-16", "unit_price": 4.10, "quantity": 499}, ["contract_TRV-9.txt"], S),
    ("contract_unit_price", {"contract_id": "TRV-9", "item": "PV-20", "unit_price": 2.05, "quantity": 300}, ["contract_TRV-9.txt"], S),
    ("contract_unit_price", {"contract_id": "TRV-9", "item": "PV-20", "unit_price": 2.20, "quantity": 250}, ["contract_TRV-9.txt"], S),
    ("contract_unit_price", {"contract_id": "TRV-9", "item": "PV-20", "unit_price": 2.20, "quantity": 300}, ["contract_TRV-9.txt"], X),
    ("contract_unit_price", {"contract_id": "TRV-9", "item": "CT-4", "unit_price": 0.30, "quantity": 500}, ["contract_TRV-9.txt"], S),
    ("contract_unit_price", {"contract_id": "TRV-9", "item": "CT-4", "unit_price": 0.30, "quantity": 50}, ["contract_TRV-9.txt"], U),
    # the PO's number sits in a header inside the header ({"result": {"header": {"keys": {...}}, "body": ...}}),
    # a receipt's in a "doc" sub-object of its row: each names the object that holds its lines
    ("ordered_quantity", {"po_id": "PO-3310", "line": "2", "quantity": 4}, ["erp_tidewater.json"], S),
    ("ordered_quantity", {"po_id": "PO-3310", "line": "1", "quantity": 10}, ["erp_tidewater.json"], X),
    ("received_quantity", {"receipt_id": "GR-5521", "line": "1", "quantity": 10}, ["erp_tidewater.json"], S),
    ("received_quantity", {"receipt_id": "GR-5522", "line": "1", "quantity": 2}, ["erp_tidewater.json"], S),
    ("received_quantity", {"receipt_id": "GR-5522", "line": "1", "quantity": 10}, ["erp_tidewater.json"], X),
    ("received_quantity", {"receipt_id": "GR-5521", "line": "2", "quantity": 4}, ["erp_tidewater.json"], U),
    # a stamp on a copy ("*** DUPLICATE - REPRINTED ... ***") is no letterhead: the line under it names the vendor
    ("duplicate_invoice_number", {"invoice_id": "HRV-301", "value": True}, ["invoice_HRV-301.txt", "invoice_HRV-301_copy.txt"], S),
    ("duplicate_invoice_number", {"invoice_id": "HRV-301", "value": False}, ["invoice_HRV-301.txt", "invoice_HRV-301_copy.txt"], X),
    ("vendor_name", {"document_id": "HRV-301", "vendor": "Harrowby Valve Co. Ltd"}, ["invoice_HRV-301_copy.txt"], S),
    # a threshold the policy puts on the subtotal is compared with the subtotal: HRV-344's total (8,400)
    # is above GBP 8,000, its subtotal (7,000) is not
    ("requires_approval", {"invoice_id": "HRV-301", "value": True}, ["invoice_HRV-301.txt", "policy_FIN-22.txt"], S),
    ("requires_approval", {"invoice_id": "HRV-344", "value": False}, ["invoice_HRV-344.txt", "policy_FIN-22.txt"], S),
    ("requires_approval", {"invoice_id": "HRV-344", "value": True}, ["invoice_HRV-344.txt", "policy_FIN-22.txt"], X),
    # "St." is no full stop: the field's value is the whole name
    ("contract_party", {"contract_id": "SBV-3", "role": "buyer", "name": "St. Aldhelm's College"}, ["contract_SBV-3.txt"], S),
    ("contract_party", {"contract_id": "SBV-3", "role": "buyer", "name": "Harrowby Valve Co. Ltd"}, ["contract_SBV-3.txt"], X),
    # a delivery before the required date earns no credit, even under a weekly clause the pack does not read;
    # a late one under that clause stays unsettled
    ("late_delivery_credit", {"po_id": "4500012345", "receipt_id": "GRN-88121", "contract_id": "MSA-ORN-8", "amount": 0},
     ["po_4500012345.txt", "grn_GRN-88121.txt", C8], S),
    ("late_delivery_credit", {"po_id": "4500012345", "receipt_id": "GRN-88121", "contract_id": "MSA-ORN-8", "amount": 25},
     ["po_4500012345.txt", "grn_GRN-88121.txt", C8], X),
    ("late_delivery_credit", {"po_id": "4500012345", "receipt_id": "GRN-88120", "contract_id": "MSA-ORN-8", "amount": 0},
     ["po_4500012345.txt", "grn_GRN-88120.txt", C8], U),
    # SAP posts a goods receipt as a material document
    ("received_quantity", {"receipt_id": "5000077002", "line": "20", "quantity": 1450}, ["erp_mat_docs.json"], S),
    ("received_quantity", {"receipt_id": "5000077001", "line": "10", "quantity": 250}, ["erp_mat_docs.json"], X),
    ("received_quantity", {"receipt_id": "5000077001", "line": "20", "quantity": 1450}, ["erp_mat_docs.json"], U),
    # two columns of fields with a bar between ("Supplier: X      | Open amount: EUR 3,600.00") are two fields:
    # the vendor is X, not X with the next column's text (which made the copy look like another vendor's)
    ("duplicate_invoice_number", {"invoice_id": "MRL-12", "value": True}, ["invoice_MRL-12.txt", "invoice_MRL-12_copy.txt"], S),
    ("duplicate_invoice_number", {"invoice_id": "MRL-12", "value": False}, ["invoice_MRL-12.txt", "invoice_MRL-12_copy.txt"], X),
    ("vendor_name", {"document_id": "MRL-12", "vendor": "Merrill Valves BV"}, ["invoice_MRL-12_copy.txt"], S),
    # a PO history entry typed "GR" is the receipt its "doc" key names
    ("days_late", {"po_id": "4500031001", "receipt_id": "5000090001", "days": 6}, ["erp_po_history_lc.json"], S),
    ("days_late", {"po_id": "4500031001", "receipt_id": "5000090001", "days": 8}, ["erp_po_history_lc.json"], X),
    ("days_late", {"po_id": "4500031001", "receipt_id": "5105900001", "days": 8}, ["erp_po_history_lc.json"], U),
    # a PO record's "schedule": {"required_delivery": ...}
    ("days_late", {"po_id": "PO-3310", "receipt_id": "GR-5522", "days": 3}, ["erp_tidewater.json"], S),
    ("days_late", {"po_id": "PO-3310", "receipt_id": "GR-5522", "days": 0}, ["erp_tidewater.json"], X),
    # terms counted from the end of the invoice's month: 1 April + "30 days end of month" = 30 May, not 1 May;
    # the contract's "45 days end of month" over the invoice's own terms: 30 April + 45 = 14 June
    ("payment_due_date", {"invoice_id": "TYR-4410", "date": "2026-05-30"}, ["invoice_TYR-4410.txt"], S),
    ("payment_due_date", {"invoice_id": "TYR-4410", "date": "2026-05-01"}, ["invoice_TYR-4410.txt"], X),
    ("payment_due_date", {"invoice_id": "TYR-4410", "date": "2026-06-14"}, ["invoice_TYR-4410.txt", "contract_BTS-2.txt"], S),
    ("payment_due_date", {"invoice_id": "TYR-4410", "date": "2026-05-30"}, ["invoice_TYR-4410.txt", "contract_BTS-2.txt"], X),
    # SAP's list output: a rule of dashes marks the columns of a header whose words stand one space apart
    ("ordered_quantity", {"po_id": "4500020111", "line": "10", "quantity": 30}, ["po_4500020111.txt"], S),
    ("ordered_quantity", {"po_id": "4500020111", "line": "20", "quantity": 30}, ["po_4500020111.txt"], X),
    ("ordered_quantity", {"po_id": "4500020111", "line": "CH-F08", "quantity": 12}, ["po_4500020111.txt"], S),
    # the vendor's number before its name is no part of the name
    ("vendor_name", {"document_id": "4500020111", "vendor": "Calder Hydraulics Ltd"}, ["po_4500020111.txt"], S),
    ("vendor_name", {"document_id": "4500020111", "vendor": "Calder Hose Ltd"}, ["po_4500020111.txt"], X),
    # a signed delivery note stands as the receipt of what it lists
    ("received_quantity", {"receipt_id": "DN-5581", "line": "CH-H12", "quantity": 28}, ["dn_DN-5581.txt"], S),
    ("received_quantity", {"receipt_id": "DN-5581", "line": "CH-H12", "quantity": 30}, ["dn_DN-5581.txt"], X),
    ("days_late", {"po_id": "4500020111", "receipt_id": "DN-5581", "days": 0}, ["po_4500020111.txt", "dn_DN-5581.txt"], S),
    ("vendor_name", {"document_id": "DN-5581", "vendor": "Calder Hydraulics Ltd"}, ["dn_DN-5581.txt"], S),
    # a threshold on the amount excluding VAT is the total less the VAT ("VAT @ 19%: 931.00"): 4,900 is under EUR 5,000,
    # the total (5,831) is not; ap_dev3-style policies that test the total keep comparing the total
    ("requires_approval", {"invoice_id": "WST-77", "value": False}, ["invoice_WST-77.txt", "policy_FIN-31.txt"], S),
    ("requires_approval", {"invoice_id": "WST-77", "value": True}, ["invoice_WST-77.txt", "policy_FIN-31.txt"], X),
    # an invoice register row named by its path ("invoices[0]") is identified by the vendor's own reference
    ("invoice_total", {"invoice_id": "WST-77", "amount": 5831.00}, ["erp_register_wst.json"], S),
    ("billed_quantity", {"invoice_id": "WST-77", "line": "10", "quantity": 5}, ["erp_register_wst.json"], X),
    ("invoice_total", {"invoice_id": "5105700001", "amount": 5831.00}, ["erp_register_wst.json"], S),
    # a copy that names no vendor: nothing says the two vendors differ, so "no duplicate" is not shown
    ("duplicate_invoice_number", {"invoice_id": "LMT-0415", "value": False}, ["invoice_LMT-0415.txt", "invoice_LMT-0415_fax.txt"], U),
    # German column labels (Menge, Einzelpreis, Gesamt) of a German vendor's invoice, with decimal commas
    ("billed_quantity", {"invoice_id": "RE-7731", "line": "20", "quantity": 25}, ["invoice_RE-7731.txt"], S),
    ("billed_quantity", {"invoice_id": "RE-7731", "line": "20", "quantity": 24}, ["invoice_RE-7731.txt"], X),
    ("billed_unit_price", {"invoice_id": "RE-7731", "line": "10", "unit_price": 2310.00}, ["invoice_RE-7731.txt"], S),
    ("billed_unit_price", {"invoice_id": "RE-7731", "line": "10", "unit_price": 9240.00}, ["invoice_RE-7731.txt"], X),
    ("billed_line_amount", {"invoice_id": "RE-7731", "line": "20", "amount": 310.00}, ["invoice_RE-7731.txt"], S),
    ("billed_line_amount", {"invoice_id": "RE-7731", "line": "20", "amount": 12.40}, ["invoice_RE-7731.txt"], X),
    # a fixed-width tier table whose descriptions hold commas is no CSV block
    ("contract_unit_price", {"contract_id": "BPG-12", "item": "PU-C40", "unit_price": 865.00, "quantity": 8}, ["contract_BPG-12.txt"], S),
    ("contract_unit_price", {"contract_id": "BPG-12", "item": "PU-C40", "unit_price": 910.00, "quantity": 8}, ["contract_BPG-12.txt"], X),
    ("contract_unit_price", {"contract_id": "BPG-12", "item": "PU-C55", "unit_price": 882.00, "quantity": 20}, ["contract_BPG-12.txt"], S),
    # one sentence pricing two items: each price is its own item's
    ("contract_unit_price", {"contract_id": "BPG-12", "item": "SK-STD", "unit_price": 12.40}, ["contract_BPG-12.txt"], S),
    ("contract_unit_price", {"contract_id": "BPG-12", "item": "CP-40", "unit_price": 55.00}, ["contract_BPG-12.txt"], S),
    ("contract_unit_price", {"contract_id": "BPG-12", "item": "CP-40", "unit_price": 12.40}, ["contract_BPG-12.txt"], X),
    # "Supplier: X | PO: ... | Supplier delivery note: ...": fields side by side, not a table with a header;
    # "Qty rec'd" is the received quantity
    ("vendor_name", {"document_id": "WE-7740", "vendor": "Brenner Pumpen GmbH"}, ["grn_WE-7740.txt"], S),
    ("vendor_name", {"document_id": "WE-7740", "vendor": "Halden Water Board"}, ["grn_WE-7740.txt"], X),
    ("received_quantity", {"receipt_id": "WE-7740", "line": "20", "quantity": 24}, ["grn_WE-7740.txt"], S),
    ("received_quantity", {"receipt_id": "WE-7740", "line": "20", "quantity": 25}, ["grn_WE-7740.txt"], X),
    # after a dot leader the rest of the line is the field's value, a vendor number in brackets included
    ("vendor_name", {"document_id": "4500044120", "vendor": "Brenner Pumpen GmbH"}, ["po_4500044120.txt"], S),
    ("vendor_name", {"document_id": "4500044120", "vendor": "Brenner Armaturen GmbH"}, ["po_4500044120.txt"], X),
    # the rows of a list whose tool is an invoice register are invoices, each named by its own reference;
    # the same row under a purchase-order tool is no invoice
    ("invoice_total", {"invoice_id": "RE-7731", "amount": 9550.00}, ["erp_register_entries.json"], S),
    ("invoice_total", {"invoice_id": "RE-7731", "amount": 4120.00}, ["erp_register_entries.json"], X),
    ("invoice_total", {"invoice_id": "RE-7731", "amount": 9550.00}, ["erp_po_list_entries.json"], U),
    # "Line 2: SK-STD; UoM: EA; Qty received: 24": the line's first field names the row of the others
    ("received_quantity", {"receipt_id": "GR-5120", "line": "2", "quantity": 24}, ["grn_GR-5120.txt"], S),
    ("received_quantity", {"receipt_id": "GR-5120", "line": "SK-STD", "quantity": 24}, ["grn_GR-5120.txt"], S),
    ("received_quantity", {"receipt_id": "GR-5120", "line": "1", "quantity": 24}, ["grn_GR-5120.txt"], X),
    ("received_quantity", {"receipt_id": "GR-5120", "line": "3", "quantity": 24}, ["grn_GR-5120.txt"], U),
    # a goods receipt that names its purchase order quotes the PO's ordered quantity under "Qty ordered";
    # it quotes no other order, and a receipt's own "Quantity" column is what it took in, not what was ordered
    ("ordered_quantity", {"po_id": "4500066100", "line": "20", "quantity": 64}, ["gr_5000066100.txt"], S),
    ("ordered_quantity", {"po_id": "4500066100", "line": "20", "quantity": 60}, ["gr_5000066100.txt"], X),
    ("ordered_quantity", {"po_id": "4500066199", "line": "20", "quantity": 64}, ["gr_5000066100.txt"], U),
    ("ordered_quantity", {"po_id": "4500066100", "line": "10", "quantity": 12}, ["gr_5000066101.txt"], U),
    ("received_quantity", {"receipt_id": "5000066100", "line": "20", "quantity": 60}, ["gr_5000066100.txt"], S),
    # a receipt that states delivered and accepted quantities took in what it accepted; a remark
    # with commas, quoted, is one CSV cell
    ("received_quantity", {"receipt_id": "GR-6620", "line": "2", "quantity": 27}, ["grn_GR-6620.txt"], S),
    ("received_quantity", {"receipt_id": "GR-6620", "line": "2", "quantity": 30}, ["grn_GR-6620.txt"], X),
    ("received_quantity", {"receipt_id": "GR-6620", "line": "3", "quantity": 12}, ["grn_GR-6620.txt"], S),
    # "On 13-Mar-2026 the main stores received ...": the date opening the sentence is the receipt's; one
    # whose clause first says the order was confirmed is not (the PO asks for 10 Mar 2026)
    ("days_late", {"po_id": "PO-7731", "receipt_id": "RN-7710", "days": 3}, ["po_PO-7731.txt", "rn_RN-7710.txt"], S),
    ("days_late", {"po_id": "PO-7731", "receipt_id": "RN-7710", "days": 0}, ["po_PO-7731.txt", "rn_RN-7710.txt"], X),
    ("days_late", {"po_id": "PO-7731", "receipt_id": "RN-7711", "days": 0}, ["po_PO-7731.txt", "rn_RN-7711.txt"], U),
    # a Swiss invoice: "RECHNUNG" is its title, the stamp above the letterhead names no vendor, amounts
    # are grouped with apostrophes, "Total exkl. MWST" is neither the tax nor the subtotal
    ("vendor_name", {"document_id": "AL-2026-118", "vendor": "Aarberg Labortechnik AG"}, ["rechnung_AL-2026-118.txt"], S),
    ("vendor_name", {"document_id": "AL-2026-118", "vendor": "Seeland Analytik AG"}, ["rechnung_AL-2026-118.txt"], X),
    ("invoice_subtotal", {"invoice_id": "AL-2026-118", "amount": 2720.00}, ["rechnung_AL-2026-118.txt"], S),
    ("invoice_subtotal", {"invoice_id": "AL-2026-118", "amount": 2780.00}, ["rechnung_AL-2026-118.txt"], X),
    ("invoice_total", {"invoice_id": "AL-2026-118", "amount": 3005.18}, ["rechnung_AL-2026-118.txt"], S),
    ("billed_line_amount", {"invoice_id": "AL-2026-118", "line": "2", "amount": 1860.00}, ["rechnung_AL-2026-118.txt"], S),
    ("billed_unit_price", {"invoice_id": "AL-2026-118", "line": "AL-KR-05", "unit_price": 12.40}, ["rechnung_AL-2026-118.txt"], S),
    # a policy with one threshold per currency: the invoice's own currency decides (CHF 3'005.18 reaches
    # CHF 3'000.00; JPY 420,000 stays under JPY 500,000, though over the number 3,000)
    ("requires_approval", {"invoice_id": "AL-2026-118", "value": True}, ["rechnung_AL-2026-118.txt", "richtlinie_FR-12.txt"], S),
    ("requires_approval", {"invoice_id": "AL-2026-118", "value": False}, ["rechnung_AL-2026-118.txt", "richtlinie_FR-12.txt"], X),
    ("requires_approval", {"invoice_id": "KT-26-0415", "value": False}, ["inv_KT-26-0415.txt", "richtlinie_FR-12.txt"], S),
    ("requires_approval", {"invoice_id": "KT-26-0415", "value": True}, ["inv_KT-26-0415.txt", "richtlinie_FR-12.txt"], X),
    # "Line: 2" opens a block of fields that are that line's, named by its number and its item code;
    # the sums under the last line are not its fields
    ("billed_quantity", {"invoice_id": "KT-26-0415", "line": "2", "quantity": 5}, ["inv_KT-26-0415.txt"], S),
    ("billed_quantity", {"invoice_id": "KT-26-0415", "line": "KT-TP-M4", "quantity": 5}, ["inv_KT-26-0415.txt"], S),
    ("billed_quantity", {"invoice_id": "KT-26-0415", "line": "2", "quantity": 12}, ["inv_KT-26-0415.txt"], X),
    ("billed_quantity", {"invoice_id": "KT-26-0415", "line": "4", "quantity": 5}, ["inv_KT-26-0415.txt"], U),
    ("billed_line_amount", {"invoice_id": "KT-26-0415", "line": "3", "amount": 236000}, ["inv_KT-26-0415.txt"], S),
    ("billed_line_amount", {"invoice_id": "KT-26-0415", "line": "3", "amount": 420000}, ["inv_KT-26-0415.txt"], X),
    # a bilingual framework agreement: the parties of its cover page, the term's end in German, tiers
    # "ab 50" (from 50) and "jede Menge" (any quantity), a daily credit "höchstens jedoch" (at most) 4 %
    ("contract_party", {"contract_id": "RV-2026-090", "role": "buyer", "name": "Seeland Analytik AG"}, ["vertrag_RV-2026-090.txt"], S),
    ("contract_party", {"contract_id": "RV-2026-090", "role": "supplier", "name": "Aarberg Labortechnik AG"}, ["vertrag_RV-2026-090.txt"], S),
    ("contract_party", {"contract_id": "RV-2026-090", "role": "supplier", "name": "Seeland Analytik AG"}, ["vertrag_RV-2026-090.txt"], X),
    ("term_end_date", {"contract_id": "RV-2026-090", "date": "2028-03-31"}, ["vertrag_RV-2026-090.txt"], S),
    ("term_end_date", {"contract_id": "RV-2026-090", "date": "2026-04-01"}, ["vertrag_RV-2026-090.txt"], X),
    ("contract_unit_price", {"contract_id": "RV-2026-090", "item": "AL-PK-10", "quantity": 60, "unit_price": 19.80}, ["vertrag_RV-2026-090.txt"], S),
    ("contract_unit_price", {"contract_id": "RV-2026-090", "item": "AL-PK-10", "quantity": 60, "unit_price": 21.50}, ["vertrag_RV-2026-090.txt"], X),
    ("contract_unit_price", {"contract_id": "RV-2026-090", "item": "AL-PK-10", "quantity": 40, "unit_price": 21.50}, ["vertrag_RV-2026-090.txt"], S),
    ("contract_unit_price", {"contract_id": "RV-2026-090", "item": "AL-KR-05", "quantity": 150, "unit_price": 12.40}, ["vertrag_RV-2026-090.txt"], S),
    # 7 days late at 1 % a day is capped at 4 % of CHF 2'720.00
    ("late_delivery_credit", {"po_id": "4500077101", "receipt_id": "5000077101", "contract_id": "RV-2026-090", "amount": 108.80},
     ["po_4500077101.txt", "we_5000077101.txt", "vertrag_RV-2026-090.txt"], S),
    ("late_delivery_credit", {"po_id": "4500077101", "receipt_id": "5000077101", "contract_id": "RV-2026-090", "amount": 190.40},
     ["po_4500077101.txt", "we_5000077101.txt", "vertrag_RV-2026-090.txt"], X),
    # an SAP material document read from the ERP is a goods receipt
    ("received_quantity", {"receipt_id": "5000077150", "line": "2", "quantity": 4}, ["erp_matdoc_5000077150.json"], S),
    ("received_quantity", {"receipt_id": "5000077150", "line": "2", "quantity": 5}, ["erp_matdoc_5000077150.json"], X),
    ("vendor_name", {"document_id": "5000077150", "vendor": "Kitayama Tooling Co., Ltd."}, ["erp_matdoc_5000077150.json"], S),
    # a Quebec supplier's French records: "9 830,36 $" is CAD 9830.36, "Qté" / "Prix unitaire" / "Sous-total" /
    # "Total à payer" are the English labels, "N° de facture" is a field
    ("invoice_total", {"invoice_id": "FL-2291", "amount": 9830.36}, ["facture_FL-2291.txt"], S),
    ("invoice_total", {"invoice_id": "FL-2291", "amount": 8550.00}, ["facture_FL-2291.txt"], X),
    ("invoice_subtotal", {"invoice_id": "FL-2291", "amount": 8550.00}, ["facture_FL-2291.txt"], S),
    ("billed_quantity", {"invoice_id": "FL-2291", "line": "2", "quantity": 1200}, ["facture_FL-2291.txt"], S),
    ("billed_unit_price", {"invoice_id": "FL-2291", "line": "1", "unit_price": 79.50}, ["facture_FL-2291.txt"], S),
    ("billed_unit_price", {"invoice_id": "FL-2291", "line": "1", "unit_price": 84.00}, ["facture_FL-2291.txt"], X),
    ("payment_due_date", {"invoice_id": "FL-2291", "date": "2026-05-14"}, ["facture_FL-2291.txt"], S),
    ("ordered_quantity", {"po_id": "BC-QC-0415", "line": "2", "quantity": 1200}, ["bc_BC-QC-0415.txt"], S),
    ("ordered_quantity", {"po_id": "BC-QC-0415", "line": "1", "quantity": 1200}, ["bc_BC-QC-0415.txt"], X),
    # a receipt nested under the PO's lines takes its line number from the line it sits under, never
    # from its delivery schedule's number
    ("received_quantity", {"receipt_id": "RC-5120", "line": "1", "quantity": 58}, ["erp_po_receipts_BC-QC-0415.json"], S),
    ("received_quantity", {"receipt_id": "RC-5120", "line": "1", "quantity": 1200}, ["erp_po_receipts_BC-QC-0415.json"], X),
    ("received_quantity", {"receipt_id": "RC-5120", "line": "2", "quantity": 1200}, ["erp_po_receipts_BC-QC-0415.json"], S),
    ("days_late", {"po_id": "BC-QC-0415", "receipt_id": "RC-5120", "days": 3}, ["erp_po_receipts_BC-QC-0415.json"], S),
    # the French contract: parties defined "ci-après appelée « l'Acheteur »", tiers "1 à 49" / "50 ... et plus" /
    # "toutes quantités", a credit "plafonné à", a cap "limitée à" (the insurance minimum is no cap), 60 days'
    # notice (the 15-day cure period is not it), "1er avril 2026"
    ("contract_party", {"contract_id": "CT-QC-2026-07", "role": "buyer", "name": "Ville de Pointe-aux-Saules"}, ["contrat_CT-QC-2026-07.txt"], S),
    ("contract_party", {"contract_id": "CT-QC-2026-07", "role": "supplier", "name": "Fournitures Laurentides ltée"}, ["contrat_CT-QC-2026-07.txt"], S),
    ("contract_party", {"contract_id": "CT-QC-2026-07", "role": "supplier", "name": "Ville de Pointe-aux-Saules"}, ["contrat_CT-QC-2026-07.txt"], X),
    ("effective_date", {"contract_id": "CT-QC-2026-07", "date": "2026-04-01"}, ["contrat_CT-QC-2026-07.txt"], S),
    ("term_end_date", {"contract_id": "CT-QC-2026-07", "date": "2028-03-31"}, ["contrat_CT-QC-2026-07.txt"], S),
    ("liability_cap", {"contract_id": "CT-QC-2026-07", "amount": 150000}, ["contrat_CT-QC-2026-07.txt"], S),
    ("liability_cap", {"contract_id": "CT-QC-2026-07", "amount": 1000000}, ["contrat_CT-QC-2026-07.txt"], X),
    ("notice_period_days", {"contract_id": "CT-QC-2026-07", "days": 60}, ["contrat_CT-QC-2026-07.txt"], S),
    ("contract_unit_price", {"contract_id": "CT-QC-2026-07", "item": "CL-20", "quantity": 60, "unit_price": 79.50}, ["contrat_CT-QC-2026-07.txt"], S),
    ("contract_unit_price", {"contract_id": "CT-QC-2026-07", "item": "CL-20", "quantity": 40, "unit_price": 79.50}, ["contrat_CT-QC-2026-07.txt"], X),
    ("contract_unit_price", {"contract_id": "CT-QC-2026-07", "item": "FL-05", "quantity": 5000, "unit_price": 3.15}, ["contrat_CT-QC-2026-07.txt"], S),
    # 3 days late at 90,00 $ a day is 270,00 $, under the 540,00 $ cap
    ("late_delivery_credit", {"po_id": "BC-QC-0415", "receipt_id": "RC-5120", "contract_id": "CT-QC-2026-07", "amount": 270.00},
     ["bc_BC-QC-0415.txt", "erp_po_receipts_BC-QC-0415.json", "contrat_CT-QC-2026-07.txt"], S),
    ("late_delivery_credit", {"po_id": "BC-QC-0415", "receipt_id": "RC-5120", "contract_id": "CT-QC-2026-07", "amount": 540.00},
     ["bc_BC-QC-0415.txt", "erp_po_receipts_BC-QC-0415.json", "contrat_CT-QC-2026-07.txt"], X),
]


@pytest.fixture(scope="module")
def verdicts(tmp_path_factory):
    led, ids, out = verify_folder(tmp_path_factory.mktemp("fmt") / "ledger", DATA, RUN, CASES + MORE_CASES)
    yield led, ids, out
    led.close()


@pytest.mark.parametrize("i", range(len(CASES) + len(MORE_CASES)), ids=[f"{c[0]}-{c[3]}-{n}" for n, c in enumerate(CASES + MORE_CASES)])
def test_formats(verdicts, i):
    cases = CASES + MORE_CASES
    p = judged(verdicts, cases, i, RUN)  # every span is the cited record's exact bytes
    assert p.status == cases[i][3], p.reason


@pytest.mark.parametrize("text, days", [
    ("The Buyer pays each invoice within forty-five (45) calendar days of the invoice date (Net 45).", 45),  # one term said twice
    ("Terms: 2% 10 days, Net 30 days.", 30),  # the discount period is not the term
    ("Payment within 30 days; disputed amounts within 60 days.", None),  # two terms nothing tells apart
])
def test_one_payment_term_stated_twice_is_one_term(text, days):
    got = _parse("days", text, "", False)
    assert [v.value for v in got] == ([Decimal(days)] if days else [])


@pytest.mark.parametrize("label, toks", [
    ("Qty rec'd", ("quantity", "received")),  # an apostrophe abbreviates a word, it does not split it
    ("Menge/Qty", ("quantity", "quantity")),
    ("Einzelpreis EUR", ("unit", "price", "eur")),
    ("Preis/Stk", ("price", "each")),
    ("Gesamt EUR", ("total", "eur")),
    ("Rechnungsbetrag", ("invoice", "amount")),
    ("RECHNUNG", ("invoice",)),
    ("Total exkl. MWST", ("total", "excluding", "vat")),
    # French labels in English word order; words English writes too stay English in an English label
    ("Prix unitaire", ("unit", "price")),
    ("Total à payer", ("total", "due")),
    ("N° de facture", ("invoice", "number")),
    ("Date de réception", ("receipt", "date")),
    ("Sous-total", ("subtotal",)),
    ("Payer", ("payer",)),
    ("Transport charges", ("transport", "charge")),
    ("Reception date", ("reception", "date")),
])
def test_label_words(label, toks):
    assert tokens(label) == toks
