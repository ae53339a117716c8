"""The domain packs end to end through the real Verifier: every AP three-way-match and contract
predicate supported, contradicted (one digit or one cent off, a subtotal for a total, the wrong
tier) and unsupported (cited to a record that does not hold it, even though another record of
the run does). Documents: tests/data/ap_pack/, written for these tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.corpus import judged, verify_folder

DATA = Path(__file__).parent / "data" / "ap_pack"
RUN = "run_ap"

C, PO, GRN, INV, POL, MAIL = "contract_MSA-2026-01.txt", "po_PO-4410.txt", "grn_GRN-3001.txt", "invoice_INV-7001.txt", "payment_policy.txt", "email_vendor.txt"
EPO, EGR, EINV = "erp_po_PO-5520.json", "erp_gr_GR-9001.json", "erp_invoices_acme.json"

S, X, U = "supported", "contradicted", "unsupported"
CASES = [
    # pred, args, cites, expected
    ("ordered_quantity", {"po_id": "PO-4410", "line": "1", "quantity": 600}, [PO], S),
    ("ordered_quantity", {"po_id": "PO-4410", "line": "1", "quantity": 601}, [PO], X),
    ("ordered_quantity", {"po_id": "PO-4410", "line": "1", "quantity": 600}, [INV], U),
    ("ordered_quantity", {"po_id": "PO-5520", "line": "2", "quantity": 20}, [EPO], S),
    ("ordered_quantity", {"po_id": "PO-5520", "line": "AX-100", "quantity": 1000}, [EPO], S),
    ("received_quantity", {"receipt_id": "GRN-3001", "line": "2", "quantity": 1150}, [GRN], S),
    ("received_quantity", {"receipt_id": "GRN-3001", "line": "2", "quantity": 1200}, [GRN], X),
    ("received_quantity", {"receipt_id": "GRN-3001", "line": "2", "quantity": 1150}, [PO], U),
    ("received_quantity", {"receipt_id": "GR-9001", "line": "1", "quantity": 990}, [EGR], S),
    ("billed_quantity", {"invoice_id": "INV-7001", "line": "2", "quantity": 1200}, [INV], S),
    ("billed_quantity", {"invoice_id": "INV-7001", "line": "2", "quantity": 1210}, [INV], X),
    ("billed_quantity", {"invoice_id": "INV-7001", "line": "2", "quantity": 1200}, [PO], U),
    ("billed_unit_price", {"invoice_id": "INV-7001", "line": "1", "unit_price": 2.45}, [INV], S),
    ("billed_unit_price", {"invoice_id": "INV-7001", "line": "1", "unit_price": 2.40}, [INV], X),
    ("billed_unit_price", {"invoice_id": "INV-7001", "line": "1", "unit_price": 2.45}, [EINV], S),
    ("billed_unit_price", {"invoice_id": "INV-7001", "line": "1", "unit_price": 2.40}, [PO], U),
    ("billed_line_amount", {"invoice_id": "INV-7001", "line": "1", "amount": 1470.00}, [INV], S),
    ("billed_line_amount", {"invoice_id": "INV-7001", "line": "1", "amount": 1470.01}, [INV], X),
    ("billed_line_amount", {"invoice_id": "INV-7001", "line": "1", "amount": 1470.00}, [GRN], U),
    ("computed_line_amount", {"invoice_id": "INV-7001", "line": "1", "amount": 1470.00}, [INV], S),
    ("computed_line_amount", {"invoice_id": "INV-7001", "line": "1", "amount": 1440.00}, [INV], X),
    ("computed_line_amount", {"invoice_id": "INV-7001", "line": "1", "amount": 1440.00}, [PO], U),
    ("invoice_subtotal", {"invoice_id": "INV-7001", "amount": 2346.00}, [INV], S),
    ("invoice_subtotal", {"invoice_id": "INV-7001", "amount": 2587.68}, [INV], X),
    ("invoice_subtotal", {"invoice_id": "INV-7001", "amount": 2346.00}, [EINV], S),
    ("invoice_subtotal", {"invoice_id": "INV-7001", "amount": 2346.00}, [MAIL], U),
    ("invoice_total", {"invoice_id": "INV-7001", "amount": 2587.68}, [INV], S),
    ("invoice_total", {"invoice_id": "INV-7001", "amount": 2346.00}, [INV], X),  # the subtotal for the total
    ("invoice_total", {"invoice_id": "INV-7002", "amount": 129.60}, [EINV], S),
    ("invoice_total", {"invoice_id": "INV-7001", "amount": 2587.68}, [MAIL], U),  # the e-mail is not the invoice
    ("contract_unit_price", {"contract_id": "MSA-2026-01", "item": "AX-100", "unit_price": 2.40, "quantity": 600}, [C], S),
    ("contract_unit_price", {"contract_id": "MSA-2026-01", "item": "AX-100", "unit_price": 2.50, "quantity": 600}, [C], X),  # wrong tier
    ("contract_unit_price", {"contract_id": "MSA-2026-01", "item": "AX-100", "unit_price": 2.50, "quantity": None}, [C], S),
    ("contract_unit_price", {"contract_id": "MSA-2026-01", "item": "AX-200", "unit_price": 0.33, "quantity": 1200}, [C], S),
    ("contract_unit_price", {"contract_id": "MSA-2026-01", "item": "AX-100", "unit_price": 2.40, "quantity": 600}, [PO], U),
    ("unit_price_variance", {"invoice_id": "INV-7001", "line": "1", "contract_id": "MSA-2026-01", "item": "AX-100", "amount": 0.05}, [INV, C], S),
    ("unit_price_variance", {"invoice_id": "INV-7001", "line": "1", "contract_id": "MSA-2026-01", "item": "AX-100", "amount": 0.20}, [INV, C], X),
    ("unit_price_variance", {"invoice_id": "INV-7001", "line": "1", "contract_id": "MSA-2026-01", "item": "AX-100", "amount": 0.05}, [INV], U),
    ("quantity_variance", {"invoice_id": "INV-7001", "receipt_id": "GRN-3001", "line": "2", "quantity": 50}, [INV, GRN], S),
    ("quantity_variance", {"invoice_id": "INV-7001", "receipt_id": "GRN-3001", "line": "3", "quantity": 2}, [INV, GRN], S),
    ("quantity_variance", {"invoice_id": "INV-7001", "receipt_id": "GRN-3001", "line": "2", "quantity": 0}, [INV, GRN], X),
    ("quantity_variance", {"invoice_id": "INV-7001", "receipt_id": "GRN-3001", "line": "2", "quantity": 50}, [INV, PO], U),
    ("payment_due_date", {"invoice_id": "INV-7001", "date": "2026-04-11"}, [INV], S),
    ("payment_due_date", {"invoice_id": "INV-7001", "date": "2026-04-12"}, [INV], X),
    ("payment_due_date", {"invoice_id": "INV-7001", "date": "2026-04-26"}, [INV, C], S),  # the contract's Net 45 applies
    ("payment_due_date", {"invoice_id": "INV-7001", "date": "2026-04-11"}, [PO], U),
    ("days_late", {"po_id": "PO-4410", "receipt_id": "GRN-3001", "days": 7}, [PO, GRN], S),
    ("days_late", {"po_id": "PO-4410", "receipt_id": "GRN-3001", "days": 6}, [PO, GRN], X),
    ("days_late", {"po_id": "PO-5520", "receipt_id": "GR-9001", "days": 5}, [EPO, EGR], S),  # the 63rd field of the PO
    ("days_late", {"po_id": "PO-4410", "receipt_id": "GRN-3001", "days": 7}, [PO], U),
    ("late_delivery_credit", {"po_id": "PO-4410", "receipt_id": "GRN-3001", "contract_id": "MSA-2026-01", "amount": 81.06}, [PO, GRN, C], S),
    ("late_delivery_credit", {"po_id": "PO-4410", "receipt_id": "GRN-3001", "contract_id": "MSA-2026-01", "amount": 81.07}, [PO, GRN, C], X),
    ("late_delivery_credit", {"po_id": "PO-4410", "receipt_id": "GRN-3001", "contract_id": "MSA-2026-01", "amount": 81.06}, [PO, GRN], U),
    ("requires_approval", {"invoice_id": "INV-7001", "value": True}, [INV, POL], S),
    ("requires_approval", {"invoice_id": "INV-7001", "value": False}, [INV, POL], X),
    ("requires_approval", {"invoice_id": "INV-7001", "value": True}, [INV], U),
    ("duplicate_invoice_number", {"invoice_id": "INV-7001", "value": True}, [EINV], S),
    ("duplicate_invoice_number", {"invoice_id": "INV-7002", "value": True}, [EINV], X),
    ("duplicate_invoice_number", {"invoice_id": "INV-7001", "value": True}, [INV], U),
    ("vendor_name", {"document_id": "PO-4410", "vendor": "Acme Industrial Supply Co."}, [PO], S),
    ("vendor_name", {"document_id": "PO-4410", "vendor": "Apex Industrial Supply Co."}, [PO], X),
    ("vendor_name", {"document_id": "INV-7001", "vendor": "Acme Industrial Supply"}, [INV], S),
    ("vendor_name", {"document_id": "PO-5520", "vendor": "Brightline Fasteners Ltd"}, [EPO], S),
    ("vendor_name", {"document_id": "PO-4410", "vendor": "Acme Industrial Supply Co."}, [GRN], U),
    ("liability_cap", {"contract_id": "MSA-2026-01", "amount": 500000, "currency": "USD"}, [C], S),
    ("liability_cap", {"contract_id": "MSA-2026-01", "amount": 2000000}, [C], X),  # the insurance minimum is not the cap
    ("liability_cap", {"contract_id": "MSA-2026-01", "amount": 500000, "currency": "EUR"}, [C], X),
    ("liability_cap", {"contract_id": "MSA-2026-01", "amount": 500000}, [PO], U),
    ("notice_period_days", {"contract_id": "MSA-2026-01", "days": 60}, [C], S),
    ("notice_period_days", {"contract_id": "MSA-2026-01", "days": 30}, [C], X),
    ("notice_period_days", {"contract_id": "MSA-2026-01", "days": 60}, [PO], U),
    ("term_end_date", {"contract_id": "MSA-2026-01", "date": "2028-01-31"}, [C], S),
    ("term_end_date", {"contract_id": "MSA-2026-01", "date": "2028-02-01"}, [C], X),
    ("term_end_date", {"contract_id": "MSA-2026-01", "date": "2028-01-31"}, [PO], U),
    ("effective_date", {"contract_id": "MSA-2026-01", "date": "2026-02-01"}, [C], S),
    ("effective_date", {"contract_id": "MSA-2026-01", "date": "2026-02-10"}, [C], X),
    ("effective_date", {"contract_id": "MSA-2026-01", "date": "2026-02-01"}, [INV], U),
    ("contract_party", {"contract_id": "MSA-2026-01", "role": "buyer", "name": "Northwind Logistics Ltd"}, [C], S),
    ("contract_party", {"contract_id": "MSA-2026-01", "role": "supplier", "name": "Acme Industrial Supply Co."}, [C], S),
    ("contract_party", {"contract_id": "MSA-2026-01", "role": "supplier", "name": "Northwind Logistics Ltd"}, [C], X),
    ("contract_party", {"contract_id": "MSA-2026-01", "role": "buyer", "name": "Northwind Logistics Ltd"}, [PO], U),
]


@pytest.fixture(scope="module")
def verdicts(tmp_path_factory):
    led, ids, out = verify_folder(tmp_path_factory.mktemp("ap") / "ledger", DATA, RUN, CASES)
    yield led, ids, out
    led.close()


@pytest.mark.parametrize("i", range(len(CASES)), ids=[f"{c[0]}-{c[3]}-{n}" for n, c in enumerate(CASES)])
def test_each_predicate_supported_contradicted_unsupported(verdicts, i):
    pred, args, cites, expected = CASES[i]
    p = judged(verdicts, CASES, i, RUN)  # every span is the cited record's exact bytes
    assert (p.status, p.checker) == (expected, f"predicate:{pred}"), p.reason
    if expected in (S, X):
        assert p.spans, "a decided typed verdict lists the spans of the values it used"
    else:
        assert "do not hold" in p.reason or "only one invoice" in p.reason or "cite" in p.reason, p.reason
        assert p.missing_evidence is not None
