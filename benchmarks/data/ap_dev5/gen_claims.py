"""Builds claims.jsonl from the hand-written table below (python3, stdlib only)."""
import json

C = "contract_CT-2026-014.txt"
P31, P45, P60 = "po_PO-7731.txt", "po_PO-7745.txt", "po_PO-7760.txt"
G12, G58, G71 = "gr_GR-40112.txt", "gr_GR-40158.txt", "gr_GR-40171.txt"
I188, I188R = "invoice_OM-26-0188.txt", "invoice_OM-26-0188_resubmission.txt"
I231, I5520 = "invoice_OM-26-0231.txt", "invoice_BCS-INV-5520.txt"
POL, EM = "policy_POL-AP-03.txt", "email_ostmark_2026-03-23.txt"
J1, J2, J3 = "erp_po_PO-7745.json", "erp_open_items_ostmark.json", "erp_gr_postings.json"
CT = "CT-2026-014"
OM, BC = "Ostmark Millworks AG", "Brindle Coast Seafood Ltd"
S, X, U = "supported", "contradicted", "unsupported"

def p(pred, cites, exp, **args):
    return {"pred": pred, "args": args, "cites": cites, "expected": exp}

NONBLOCK = {"vendor_name", "contract_unit_price", "liability_cap", "notice_period_days",
            "term_end_date", "effective_date", "contract_party", "statement"}

CLAIMS = [
# ordered_quantity
("Purchase order PO-7731 orders 2,600 kg on line 1.", [p("ordered_quantity", [P31], S, po_id="PO-7731", line="1", quantity=2600)], "PO table line 1"),
("Purchase order PO-7760 orders 208 kg of mussels (BCS-MUS-05).", [p("ordered_quantity", [P60], X, po_id="PO-7760", line="BCS-MUS-05", quantity=208)], "PO orders 200; 208 is the billed qty"),
("The ERP record of PO-7745 shows 600 kg ordered on position 3.", [p("ordered_quantity", [J1], S, po_id="PO-7745", line="3", quantity=600)], "nested items[pos=3].qty.ordered"),
("PO-7760 ordered 150 kg of cod fillet (BCS-COD-10), per the vendor invoice.", [p("ordered_quantity", [I5520], U, po_id="PO-7760", line="BCS-COD-10", quantity=150)], "invoice states billed, not ordered qty"),
# received_quantity
("Goods receipt GR-40158 records 260 kg received on line 2.", [p("received_quantity", [G58], S, receipt_id="GR-40158", line="2", quantity=260)], "short delivery row"),
("Goods receipt GR-40158 records the full 300 kg received on line 2.", [p("received_quantity", [G58], X, receipt_id="GR-40158", line="2", quantity=300)], "300 is the ordered column"),
("The ERP posting of GR-40171 shows 200 kg of mussels received.", [p("received_quantity", [J3], S, receipt_id="GR-40171", line="BCS-MUS-05", quantity=200)], "rows[1].lines sku BCS-MUS-05"),
("GR-40112 recorded 2,600 kg of flour on line 1.", [p("received_quantity", [P31], U, receipt_id="GR-40112", line="1", quantity=2600)], "PO cited, not the receipt"),
# billed_quantity
("Invoice OM-26-0231 bills 300 kg on line 2.", [p("billed_quantity", [I231], S, invoice_id="OM-26-0231", line="2", quantity=300)], "invoice line 2"),
("Invoice BCS-INV-5520 bills 200 kg of mussels.", [p("billed_quantity", [I5520], X, invoice_id="BCS-INV-5520", line="BCS-MUS-05", quantity=200)], "billed 208"),
# billed_unit_price
("Invoice OM-26-0188 charges EUR 0.84 per kg on line 1.", [p("billed_unit_price", [I188], S, invoice_id="OM-26-0188", line="1", unit_price=0.84)], "invoice line 1"),
("Invoice OM-26-0231 charges EUR 1.32 per kg for semolina on line 3.", [p("billed_unit_price", [I231], X, invoice_id="OM-26-0231", line="3", unit_price=1.32)], "billed 1.30; 1.32 is the PO price"),
("Invoice BCS-INV-5520 charges EUR 14.80 per kg for cod fillet.", [p("billed_unit_price", [P60], U, invoice_id="BCS-INV-5520", line="BCS-COD-10", unit_price=14.80)], "only the PO is cited"),
# billed_line_amount
("Invoice BCS-INV-5520 prints EUR 2,200.00 for the cod fillet line.", [p("billed_line_amount", [I5520], S, invoice_id="BCS-INV-5520", line="BCS-COD-10", amount=2200.00)], "printed amount"),
("Invoice BCS-INV-5520 prints EUR 2,220.00 for the cod fillet line.", [p("billed_line_amount", [I5520], X, invoice_id="BCS-INV-5520", line="BCS-COD-10", amount=2220.00)], "printed 2,200.00"),
# computed_line_amount
("On invoice BCS-INV-5520 the cod line's quantity times unit price comes to EUR 2,220.00.", [p("computed_line_amount", [I5520], S, invoice_id="BCS-INV-5520", line="BCS-COD-10", amount=2220.00)], "150 x 14.80"),
("On invoice BCS-INV-5520 the cod line's quantity times unit price comes to EUR 2,200.00.", [p("computed_line_amount", [I5520], X, invoice_id="BCS-INV-5520", line="BCS-COD-10", amount=2200.00)], "printed amount is mis-extended"),
# invoice_subtotal
("The subtotal of invoice OM-26-0231 is EUR 2,127.00.", [p("invoice_subtotal", [I231], S, invoice_id="OM-26-0231", amount=2127.00)], "goods subtotal before discount/freight"),
("The subtotal of invoice OM-26-0231 is EUR 2,169.46.", [p("invoice_subtotal", [I231], X, invoice_id="OM-26-0231", amount=2169.46)], "2,169.46 is after discount and freight"),
# invoice_total
("The amount due on invoice OM-26-0188 is EUR 2,744.00.", [p("invoice_total", [I188], X, invoice_id="OM-26-0188", amount=2744.00)], "that is the subtotal; total 2,936.08"),
("The ERP open-items list shows OM-26-0188 with a gross amount of EUR 2,936.08.", [p("invoice_total", [J2], S, invoice_id="OM-26-0188", amount=2936.08)], "documents[].amounts.gross"),
("Invoice BCS-INV-5520 totals EUR 3,745.00 according to the Ostmark open-items list.", [p("invoice_total", [J2], U, invoice_id="BCS-INV-5520", amount=3745.00)], "list holds Ostmark invoices only"),
# contract_unit_price
("Under CT-2026-014, FL-550 costs EUR 0.81 per kg at 2,600 kg.", [p("contract_unit_price", [C], S, contract_id=CT, item="FL-550", unit_price=0.81, quantity=2600)], "tier from 2,500 kg"),
("Under CT-2026-014, FL-550 costs EUR 0.86 per kg at 2,600 kg.", [p("contract_unit_price", [C], X, contract_id=CT, item="FL-550", unit_price=0.86, quantity=2600)], "0.86 is the middle tier"),
("Under CT-2026-014, semolina SM-200 costs EUR 1.40 per kg for a 400 kg order.", [p("contract_unit_price", [C], S, contract_id=CT, item="SM-200", unit_price=1.40, quantity=400)], "up to 499 kg tier"),
("Under CT-2026-014, FL-550 costs EUR 0.89 per kg for an 800 kg order.", [p("contract_unit_price", [C], X, contract_id=CT, item="FL-550", unit_price=0.89, quantity=800)], "contract says 0.92; 0.89 is the e-mail's future list"),
("The contract price of SM-200 at 600 kg is EUR 1.32 per kg, per the payment policy.", [p("contract_unit_price", [POL], U, contract_id=CT, item="SM-200", unit_price=1.32, quantity=600)], "policy has no prices"),
# unit_price_variance
("Invoice OM-26-0188 line 1 is billed EUR 0.03 per kg above the contract tier price.", [p("unit_price_variance", [I188, C], S, invoice_id="OM-26-0188", line="1", contract_id=CT, item="FL-550", amount=0.03)], "0.84 - 0.81"),
("Invoice OM-26-0188 line 1 is billed EUR 0.08 per kg below the contract price.", [p("unit_price_variance", [I188, C], X, invoice_id="OM-26-0188", line="1", contract_id=CT, item="FL-550", amount=-0.08)], "uses base tier 0.92 instead of 0.81"),
("Semolina on invoice OM-26-0231 is billed EUR 0.02 per kg below the contract price.", [p("unit_price_variance", [I231, C], S, invoice_id="OM-26-0231", line="3", contract_id=CT, item="SM-200", amount=-0.02)], "1.30 - 1.32"),
("Invoice OM-26-0231 line 1 matches the contract price exactly.", [p("unit_price_variance", [I231, C], S, invoice_id="OM-26-0231", line="1", contract_id=CT, item="FL-550", amount=0.0)], "0.86 at 1,200 kg tier"),
# quantity_variance
("Invoice OM-26-0231 bills 40 kg more rye flour than GR-40158 received.", [p("quantity_variance", [I231, G58], S, invoice_id="OM-26-0231", receipt_id="GR-40158", line="2", quantity=40)], "300 - 260"),
("Invoice BCS-INV-5520 bills 8 kg more mussels than GR-40171 received.", [p("quantity_variance", [I5520, G71], S, invoice_id="BCS-INV-5520", receipt_id="GR-40171", line="BCS-MUS-05", quantity=8)], "208 - 200"),
("The mussels billed on BCS-INV-5520 match the quantity received on GR-40171.", [p("quantity_variance", [I5520, G71], X, invoice_id="BCS-INV-5520", receipt_id="GR-40171", line="BCS-MUS-05", quantity=0)], "variance is 8"),
("Rye flour on OM-26-0231 is over-billed by 40 kg versus GR-40158.", [p("quantity_variance", [I231], U, invoice_id="OM-26-0231", receipt_id="GR-40158", line="2", quantity=40)], "receipt not cited"),
("Flour billed on OM-26-0188 line 1 equals the quantity posted for GR-40112.", [p("quantity_variance", [I188, J3], S, invoice_id="OM-26-0188", receipt_id="GR-40112", line="1", quantity=0)], "2600 - 2600 via ERP posting"),
# payment_due_date
("Invoice OM-26-0188 falls due on 31 March 2026.", [p("payment_due_date", [I188, C], S, invoice_id="OM-26-0188", date="2026-03-31")], "terms refer to contract Net 45"),
("Invoice OM-26-0188 falls due on 16 March 2026.", [p("payment_due_date", [I188, C], X, invoice_id="OM-26-0188", date="2026-03-16")], "Net 30 assumed; contract gives Net 45"),
("Invoice OM-26-0188 is payable by 31 March 2026, judged from the invoice alone.", [p("payment_due_date", [I188], U, invoice_id="OM-26-0188", date="2026-03-31")], "invoice terms only refer to the contract"),
("Per the ERP open-items list, invoice OM-26-0231 is due on 4 May 2026.", [p("payment_due_date", [J2], U, invoice_id="OM-26-0231", date="2026-05-04")], "ERP list gives the invoice date but no terms"),
("Invoice BCS-INV-5520 is due on 13 April 2026.", [p("payment_due_date", [I5520], X, invoice_id="BCS-INV-5520", date="2026-04-13")], "Net 30 assumed; terms Net 14"),
# days_late
("The PO-7745 delivery on GR-40158 arrived 7 days late.", [p("days_late", [P45, G58], S, po_id="PO-7745", receipt_id="GR-40158", days=7)], "19.03 vs 12.03"),
("The PO-7745 delivery on GR-40158 arrived 8 days late.", [p("days_late", [P45, G58, J1], X, po_id="PO-7745", receipt_id="GR-40158", days=8)], "8 uses ERP posting date"),
("The seafood delivery GR-40171 for PO-7760 was on time.", [p("days_late", [P60, G71], S, po_id="PO-7760", receipt_id="GR-40171", days=0)], "received a day early"),
("PO-7731 was delivered 3 days late, according to the purchase order.", [p("days_late", [P31], U, po_id="PO-7731", receipt_id="GR-40112", days=3)], "receipt date not in PO"),
# late_delivery_credit
("Ostmark owes a late-delivery credit of EUR 213.90 for PO-7745.", [p("late_delivery_credit", [P45, G58, C], S, po_id="PO-7745", receipt_id="GR-40158", contract_id=CT, amount=213.90)], "14% capped at 10% of 2,139.00"),
("The late-delivery credit for PO-7745 is EUR 299.46.", [p("late_delivery_credit", [P45, G58, C], X, po_id="PO-7745", receipt_id="GR-40158", contract_id=CT, amount=299.46)], "ignores the 10% cap"),
("The late-delivery credit for PO-7745 is the EUR 120.00 offered by the vendor.", [p("late_delivery_credit", [P45, G58, C, EM], X, po_id="PO-7745", receipt_id="GR-40158", contract_id=CT, amount=120.00)], "contract clause gives 213.90"),
("A late-delivery credit of EUR 159.96 applies to PO-7731.", [p("late_delivery_credit", [P31, G12], U, po_id="PO-7731", receipt_id="GR-40112", contract_id=CT, amount=159.96)], "contract clause not cited"),
# requires_approval
("Invoice OM-26-0188 needs Head of Finance approval before payment.", [p("requires_approval", [I188, POL], S, invoice_id="OM-26-0188", value=True)], "gross 2,936.08 >= 2,800"),
("Judging by the invoice alone, OM-26-0231 can be paid without extra approval.", [p("requires_approval", [I231], U, invoice_id="OM-26-0231", value=False)], "policy not cited"),
("Invoice BCS-INV-5520 can be paid without extra approval.", [p("requires_approval", [I5520, POL], X, invoice_id="BCS-INV-5520", value=False)], "gross 3,745.00 >= 2,800"),
("Invoice BCS-INV-5520 requires approval before payment.", [p("requires_approval", [I5520], U, invoice_id="BCS-INV-5520", value=True)], "policy not cited"),
# duplicate_invoice_number
("The resubmitted invoice repeats invoice number OM-26-0188.", [p("duplicate_invoice_number", [I188, I188R], S, invoice_id="OM-26-0188", value=True)], "same vendor, same number"),
("Invoice number OM-26-0231 is not a duplicate of another Ostmark invoice.", [p("duplicate_invoice_number", [I231, I188], S, invoice_id="OM-26-0231", value=False)], "numbers differ"),
("Invoice number OM-26-0231 duplicates an earlier Ostmark invoice.", [p("duplicate_invoice_number", [I231, I188, I188R], X, invoice_id="OM-26-0231", value=True)], "only OM-26-0188 repeats"),
("OM-26-0188 is a unique invoice number with no duplicate.", [p("duplicate_invoice_number", [I188, I188R, J2], X, invoice_id="OM-26-0188", value=False)], "resubmission carries same number"),
# vendor_name
("Goods receipt GR-40158 is from Ostmark Millworks AG.", [p("vendor_name", [G58], S, document_id="GR-40158", vendor=OM)], "heading"),
("Goods receipt GR-40158 names Ostmark Logistics GmbH as the vendor.", [p("vendor_name", [G58], X, document_id="GR-40158", vendor="Ostmark Logistics GmbH")], "that is the carrier"),
("Invoice BCS-INV-5520 was issued by Brindle Coast Seafood Ltd.", [p("vendor_name", [I5520], S, document_id="BCS-INV-5520", vendor=BC)], "heading"),
("PO-7760 was placed with Brindle Coast Seafood Ltd, per the Ostmark e-mail.", [p("vendor_name", [EM], U, document_id="PO-7760", vendor=BC)], "e-mail does not mention PO-7760"),
# contract clauses
("CT-2026-014 caps liability at EUR 250,000.", [p("liability_cap", [C], S, contract_id=CT, amount=250000.00, currency="EUR")], "clause 7"),
("CT-2026-014 caps liability at EUR 2,000,000.", [p("liability_cap", [C], X, contract_id=CT, amount=2000000.00, currency="EUR")], "2m is insurance cover"),
("The Ostmark contract caps liability at EUR 250,000, per the vendor e-mail.", [p("liability_cap", [EM], U, contract_id=CT, amount=250000.00)], "e-mail silent on liability"),
("CT-2026-014 can be terminated on 90 days' notice.", [p("notice_period_days", [C], S, contract_id=CT, days=90)], "clause 9"),
("CT-2026-014 can be terminated on 30 days' notice.", [p("notice_period_days", [C], X, contract_id=CT, days=30)], "30 is the cure period"),
("The initial term of CT-2026-014 ends on 14 January 2027.", [p("term_end_date", [C], S, contract_id=CT, date="2027-01-14")], "clause 1"),
("The initial term of CT-2026-014 ends on 14 January 2028.", [p("term_end_date", [C], X, contract_id=CT, date="2028-01-14")], "renewal, not initial term"),
("CT-2026-014 took effect on 13 January 2026.", [p("effective_date", [C], X, contract_id=CT, date="2026-01-13")], "13 Jan is a signing date"),
("Larkspur Kitchen Group GmbH is the buyer under CT-2026-014.", [p("contract_party", [C], S, contract_id=CT, role="buyer", name="Larkspur Kitchen Group GmbH")], "preamble"),
("Brindle Coast Seafood Ltd is the supplier under CT-2026-014.", [p("contract_party", [C], X, contract_id=CT, role="supplier", name=BC)], "supplier is Ostmark"),
# statements
("The Ostmark e-mail proposes moving to Net 60 payment terms at the next renewal.", [p("statement", [EM], S, text="The vendor e-mail proposes Net 60 payment terms at the next renewal.")], "e-mail paragraph 3"),
("The vendor e-mail says the PO-7745 truck left the Magdeburg mill on 16 March 2026.", [p("statement", [EM], S, text="The PO-7745 truck left the Magdeburg mill on 16 March 2026.")], "e-mail paragraph 1"),
("The payment policy requires approval by two directors above the threshold.", [p("statement", [POL], X, text="Invoices above the threshold need approval by two directors.")], "policy names the Head of Finance only"),
("The vendor e-mail announces a new Ostmark mill in Leipzig.", [p("statement", [EM], U, text="Ostmark announces a new mill in Leipzig.")], "not mentioned"),
("CT-2026-014 renews automatically for 12-month periods.", [p("statement", [C], S, text="The agreement renews automatically for successive 12-month periods.")], "clause 1"),
# multi-proposition claims
("GR-40158 received 260 kg of rye flour while OM-26-0231 bills 300 kg for it.", [
    p("received_quantity", [G58], S, receipt_id="GR-40158", line="2", quantity=260),
    p("billed_quantity", [I231], S, invoice_id="OM-26-0231", line="2", quantity=300)], "both stated"),
("OM-26-0188 bills FL-550 at EUR 0.84, EUR 0.03 above the contract's EUR 0.81 tier for 2,600 kg.", [
    p("billed_unit_price", [I188], S, invoice_id="OM-26-0188", line="1", unit_price=0.84),
    p("contract_unit_price", [C], S, contract_id=CT, item="FL-550", unit_price=0.81, quantity=2600),
    p("unit_price_variance", [I188, C], S, invoice_id="OM-26-0188", line="1", contract_id=CT, item="FL-550", amount=0.03)], "all three hold"),
("PO-7745 arrived 7 days late, earning a credit of EUR 299.46.", [
    p("days_late", [P45, G58], S, po_id="PO-7745", receipt_id="GR-40158", days=7),
    p("late_delivery_credit", [P45, G58, C], X, po_id="PO-7745", receipt_id="GR-40158", contract_id=CT, amount=299.46)], "credit is capped at 213.90"),
("BCS-INV-5520 totals EUR 3,745.00 and therefore needs Head of Finance approval.", [
    p("invoice_total", [I5520], S, invoice_id="BCS-INV-5520", amount=3745.00),
    p("requires_approval", [I5520, POL], S, invoice_id="BCS-INV-5520", value=True)], "3,745 >= 2,800"),
("The resubmission reuses number OM-26-0188 and again asks for EUR 2,936.08.", [
    p("duplicate_invoice_number", [I188, I188R], S, invoice_id="OM-26-0188", value=True),
    p("invoice_total", [I188R], S, invoice_id="OM-26-0188", amount=2936.08)], "same number and total"),
("CT-2026-014 took effect on 15 January 2026 and its initial term runs until 31 December 2026.", [
    p("effective_date", [C], S, contract_id=CT, date="2026-01-15"),
    p("term_end_date", [C], X, contract_id=CT, date="2026-12-31")], "term ends 2027-01-14"),
("PO-7760 ordered 200 kg of mussels, GR-40171 received 200 kg and BCS-INV-5520 billed 208 kg.", [
    p("ordered_quantity", [P60], S, po_id="PO-7760", line="BCS-MUS-05", quantity=200),
    p("received_quantity", [G71], S, receipt_id="GR-40171", line="BCS-MUS-05", quantity=200),
    p("billed_quantity", [I5520], S, invoice_id="BCS-INV-5520", line="BCS-MUS-05", quantity=208)], "all stated"),
("OM-26-0231 is due on 4 May 2026 and needs no extra approval.", [
    p("payment_due_date", [I231], S, invoice_id="OM-26-0231", date="2026-05-04"),
    p("requires_approval", [I231, POL], S, invoice_id="OM-26-0231", value=False)], "both hold"),
("CT-2026-014 caps liability at EUR 250,000 and needs 90 days' notice to terminate.", [
    p("liability_cap", [C], S, contract_id=CT, amount=250000.00),
    p("notice_period_days", [C], S, contract_id=CT, days=90)], "clauses 7 and 9"),
("Ostmark Millworks AG is the supplier under CT-2026-014 and the vendor on PO-7731.", [
    p("contract_party", [C], S, contract_id=CT, role="supplier", name=OM),
    p("vendor_name", [P31], S, document_id="PO-7731", vendor=OM)], "both stated"),
("PO-7731 arrived 3 days late and the late-delivery credit is EUR 159.96.", [
    p("days_late", [P31, G12], S, po_id="PO-7731", receipt_id="GR-40112", days=3),
    p("late_delivery_credit", [P31, G12, C], S, po_id="PO-7731", receipt_id="GR-40112", contract_id=CT, amount=159.96)], "both hold"),
("OM-26-0231 over-bills rye by 40 kg and a late credit of EUR 213.90 applies to PO-7745.", [
    p("quantity_variance", [I231, G58], S, invoice_id="OM-26-0231", receipt_id="GR-40158", line="2", quantity=40),
    p("late_delivery_credit", [P45, G58], U, po_id="PO-7745", receipt_id="GR-40158", contract_id=CT, amount=213.90)], "credit proposition lacks the contract"),
("OM-26-0231 bills semolina at EUR 1.30, EUR 0.02 below the contract price.", [
    p("billed_unit_price", [I231], S, invoice_id="OM-26-0231", line="3", unit_price=1.30),
    p("unit_price_variance", [I231], U, invoice_id="OM-26-0231", line="3", contract_id=CT, item="SM-200", amount=-0.02)], "contract not cited for the variance"),
("GR-40112 posted 400 kg of semolina and OM-26-0188 bills 400 kg of it.", [
    p("received_quantity", [J3], S, receipt_id="GR-40112", line="2", quantity=400),
    p("billed_quantity", [J2], U, invoice_id="OM-26-0188", line="2", quantity=400)], "open-items list has no line detail"),
("The cod line on BCS-INV-5520 extends to EUR 2,220.00 and is printed as EUR 2,220.00.", [
    p("computed_line_amount", [I5520], S, invoice_id="BCS-INV-5520", line="BCS-COD-10", amount=2220.00),
    p("billed_line_amount", [I5520], X, invoice_id="BCS-INV-5520", line="BCS-COD-10", amount=2220.00)], "printed 2,200.00"),
("OM-26-0188 has a subtotal of EUR 2,744.00 and is due on 31 March 2026.", [
    p("invoice_subtotal", [I188], S, invoice_id="OM-26-0188", amount=2744.00),
    p("payment_due_date", [I188, C], S, invoice_id="OM-26-0188", date="2026-03-31")], "both hold"),
("The ERP shows PO-7745 ordering 1,200 kg of FL-550 and the vendor is Ostmark Millworks AG.", [
    p("ordered_quantity", [J1], S, po_id="PO-7745", line="1", quantity=1200),
    p("vendor_name", [J1], S, document_id="PO-7745", vendor=OM)], "header.partner.name"),
("BCS-INV-5520 has a subtotal of EUR 3,520.00 and bills 8 kg more mussels than received.", [
    p("invoice_subtotal", [I5520], X, invoice_id="BCS-INV-5520", amount=3520.00),
    p("quantity_variance", [I5520, G71], S, invoice_id="BCS-INV-5520", receipt_id="GR-40171", line="BCS-MUS-05", quantity=8)], "printed subtotal 3,500.00"),
]

def agg(labels):
    if all(l == S for l in labels): return S
    if any(l == X for l in labels): return X
    return U

out = []
for i, (text, props, note) in enumerate(CLAIMS, 1):
    out.append({"id": "k%03d" % i, "text": text,
                "blocking": any(pr["pred"] not in NONBLOCK for pr in props),
                "expected": agg([pr["expected"] for pr in props]),
                "propositions": props, "note": note})
with open("claims.jsonl", "w", encoding="utf-8") as f:
    for o in out:
        f.write(json.dumps(o, ensure_ascii=False) + "\n")
from collections import Counter
print(len(out), sum(len(o["propositions"]) for o in out), Counter(o["expected"] for o in out),
      Counter(pr["expected"] for o in out for pr in o["propositions"]),
      Counter(pr["pred"] for o in out for pr in o["propositions"]))
