import json, os
HERE = os.path.dirname(os.path.abspath(__file__))
C = "contract_SC-2093.txt"; P1 = "po_PO-77310.txt"; R1 = "gr_GRN-55018.txt"; I1 = "invoice_HG-20931.txt"
P2 = "erp_po_PO-77342.json"; R2 = "erp_gr_GRN-55061.json"; I2 = "erp_invoice_HG-20958.json"
I2B = "invoice_HG-20958_2026-04-28.txt"; H = "erp_ap_ledger_V-10442.json"; POL = "policy_FIN-07.txt"
E = "email_halvorsen_ar.txt"; P3 = "po_PO-77388.txt"; R3 = "erp_gr_GRN-55090.json"; I3 = "invoice_BWL-6604.txt"
S, X, U = "supported", "contradicted", "unsupported"

def p(pred, cites, exp, **args):
    return {"pred": pred, "args": args, "cites": cites, "expected": exp}

claims = []
def c(text, props, note="", blocking=True):
    if isinstance(props, dict): props = [props]
    exps = [q["expected"] for q in props]
    overall = X if X in exps else (U if U in exps else S)
    claims.append({"id": "e%02d" % (len(claims) + 1), "text": text, "blocking": blocking,
                   "expected": overall, "propositions": props, "note": note})

# ordered_quantity
c("PO-77310 orders 48,000 units on line 1.", p("ordered_quantity", [P1], S, po_id="PO-77310", line="1", quantity=48000), "fixed-width PO table")
c("PO-77310 orders 12,000 units on line 4.", p("ordered_quantity", [P1], S, po_id="PO-77310", line="4", quantity=12000))
c("PO-77310 orders 60 units on line 2.", p("ordered_quantity", [P1], X, po_id="PO-77310", line="2", quantity=60), "60 is line 3's quantity")
c("PO-77342 orders 50,000 bottles on line 10.", p("ordered_quantity", [P2], S, po_id="PO-77342", line="10", quantity=50000), "JSON, line_no not first field, qty inside schedule array")
c("PO-77342 orders 45,000 bottles on line 10.", p("ordered_quantity", [P2], X, po_id="PO-77342", line="10", quantity=45000), "45,000 is the superseded revision-0 value in changeLog")
c("PO-77388 orders 30,000 labels on line 3.", p("ordered_quantity", [P3], S, po_id="PO-77388", line="3", quantity=30000), "CSV block")
c("PO-77310 orders 48,000 units on line 1.", p("ordered_quantity", [I1], U, po_id="PO-77310", line="1", quantity=48000), "value right, but cited the invoice (billed qty), not the PO")
c("PO-77324 orders 50,000 bottles on line 10.", p("ordered_quantity", [P2], U, po_id="PO-77324", line="10", quantity=50000), "PO id with two digits swapped; cited record is PO-77342")
# received_quantity
c("GRN-55018 records 46,800 units received on line 1.", p("received_quantity", [R1], S, receipt_id="GRN-55018", line="1", quantity=46800), "CSV in receipt")
c("GRN-55018 records 48,000 units received on line 1.", p("received_quantity", [R1], X, receipt_id="GRN-55018", line="1", quantity=48000), "ordered column, not received")
c("GRN-55018 records 11,520 bottles received on line 4.", p("received_quantity", [R1], S, receipt_id="GRN-55018", line="4", quantity=11520))
c("GRN-55061 records 4,950 cartons received on line 20.", p("received_quantity", [R2], S, receipt_id="GRN-55061", line="20", quantity=4950), "nested JSON, poLine.line_no")
c("GRN-55061 records 5,000 CTN-24 cartons received.", p("received_quantity", [R2], X, receipt_id="GRN-55061", line="CTN-24", quantity=5000), "5,000 is the ASN quantity")
c("GRN-55090 records 118,000 LBL-IPA-NK labels received.", p("received_quantity", [R3], S, receipt_id="GRN-55090", line="LBL-IPA-NK", quantity=118000), "deep JSON, sku in material")
c("GRN-55090 records 118,000 LBL-IPA-NK labels received.", p("received_quantity", [I3], U, receipt_id="GRN-55090", line="LBL-IPA-NK", quantity=118000), "cited the invoice")
c("GRN-55018 records 11,520 bottles received on line 4.", p("received_quantity", [I1], U, receipt_id="GRN-55018", line="4", quantity=11520), "invoice bills 11,520 on line 4 but is not the receipt")
# billed_quantity
c("HG-20931 bills 48,000 bottles on line 1.", p("billed_quantity", [I1], S, invoice_id="HG-20931", line="1", quantity=48000), "pipe table")
c("HG-20931 bills 46,800 bottles on line 1.", p("billed_quantity", [I1], X, invoice_id="HG-20931", line="1", quantity=46800), "received qty, not billed")
c("HG-20958 bills 5,000 cartons on line 20.", p("billed_quantity", [I2], S, invoice_id="HG-20958", line="20", quantity=5000), "JSON billed.qty")
c("BWL-6604 bills 120,000 labels on line 2.", p("billed_quantity", [I3], S, invoice_id="BWL-6604", line="2", quantity=120000), "fixed-width")
c("BWL-6604 bills 120,000 labels on line 3.", p("billed_quantity", [I3], X, invoice_id="BWL-6604", line="3", quantity=120000), "right for lines 1-2, line 3 is 30,000")
c("HG-20958 bills 49,200 bottles on line 10.", p("billed_quantity", [R2], U, invoice_id="HG-20958", line="10", quantity=49200), "value right, cited the receipt")
# billed_unit_price
c("HG-20931 bills line 4 at 0.240 per bottle.", p("billed_unit_price", [I1], S, invoice_id="HG-20931", line="4", unit_price=0.24))
c("HG-20958 bills CTN-24 on line 20 at 0.82.", p("billed_unit_price", [I2], S, invoice_id="HG-20958", line="20", unit_price=0.82))
c("HG-20958 bills line 20 at 0.74.", p("billed_unit_price", [I2], X, invoice_id="HG-20958", line="20", unit_price=0.74), "0.74 is reference.poUnitPrice in the JSON")
c("The 2026-04-28 copy of HG-20958 bills line 20 at 0.74.", p("billed_unit_price", [I2B], S, invoice_id="HG-20958", line="20", unit_price=0.74), "Key: value line blocks")
c("BWL-6604 bills line 1 at 0.068 per label.", p("billed_unit_price", [I3], S, invoice_id="BWL-6604", line="1", unit_price=0.068), "printed 0.0680")
c("HG-20931 bills line 1 at 0.185.", p("billed_unit_price", [C], U, invoice_id="HG-20931", line="1", unit_price=0.185), "0.185 is a contract tier price; contract is not the invoice")
# billed_line_amount
c("Line 3 of BWL-6604 amounts to 2,106.00.", p("billed_line_amount", [I3], S, invoice_id="BWL-6604", line="3", amount=2106.0), "printed amount (misprinted vs qty x price)")
c("Line 3 of BWL-6604 amounts to 2,160.00.", p("billed_line_amount", [I3], X, invoice_id="BWL-6604", line="3", amount=2160.0), "computed, not printed")
c("Line 10 of HG-20958 amounts to 9,102.00.", p("billed_line_amount", [I2], S, invoice_id="HG-20958", line="10", amount=9102.0))
c("Line 4 of HG-20931 amounts to 2,880.00.", p("billed_line_amount", [I1], X, invoice_id="HG-20931", line="4", amount=2880.0), "PO extended amount for the ordered qty")
# computed_line_amount
c("BWL-6604 line 3: 30,000 x 0.072 = 2,160.00.", p("computed_line_amount", [I3], S, invoice_id="BWL-6604", line="3", amount=2160.0))
c("BWL-6604 line 3: quantity times price is 2,106.00.", p("computed_line_amount", [I3], X, invoice_id="BWL-6604", line="3", amount=2106.0), "printed figure is not the product")
c("HG-20931 line 4: 11,520 x 0.240 = 2,764.80.", p("computed_line_amount", [I1], S, invoice_id="HG-20931", line="4", amount=2764.8))
c("HG-20958 line 20: quantity times price is 3,700.00.", p("computed_line_amount", [I2], X, invoice_id="HG-20958", line="20", amount=3700.0), "uses the PO price; billed is 0.82 -> 4,100.00")
c("HG-20931 line 2: 2,000 x 0.82 = 1,640.00.", p("computed_line_amount", [P1], U, invoice_id="HG-20931", line="2", amount=1640.0), "cited the PO")
# invoice_subtotal
c("The subtotal of HG-20931 is 14,154.80.", p("invoice_subtotal", [I1], S, invoice_id="HG-20931", amount=14154.8))
c("The subtotal of HG-20931 is 15,742.96.", p("invoice_subtotal", [I1], X, invoice_id="HG-20931", amount=15742.96), "total for subtotal")
c("BWL-6604's merchandise total is 14,436.00.", p("invoice_subtotal", [I3], S, invoice_id="BWL-6604", amount=14436.0), "labelled MERCHANDISE TOTAL")
c("The subtotal of HG-20958 is 13,782.00.", p("invoice_subtotal", [I2], S, invoice_id="HG-20958", amount=13782.0), "totals.net")
c("The subtotal of HG-20958 is 13,382.00.", p("invoice_subtotal", [I2], X, invoice_id="HG-20958", amount=13382.0), "that is the corrected copy's subtotal, not this record's")
c("The subtotal of HG-20931 is 14,270.00.", p("invoice_subtotal", [P1], U, invoice_id="HG-20931", amount=14270.0), "PO total; PO does not hold the invoice subtotal")
c("The subtotal of HG-20958 is 13,382.00.", p("invoice_subtotal", [E], U, invoice_id="HG-20958", amount=13382.0), "an e-mail is not the invoice")
# invoice_total
c("HG-20931 totals 15,742.96.", p("invoice_total", [I1], S, invoice_id="HG-20931", amount=15742.96))
c("HG-20931 totals 14,154.80.", p("invoice_total", [I1], X, invoice_id="HG-20931", amount=14154.8), "subtotal for total")
c("BWL-6604 totals 15,000.00.", p("invoice_total", [I3], S, invoice_id="BWL-6604", amount=15000.0), "AMOUNT DUE")
c("BWL-6604 totals 14,436.00.", p("invoice_total", [I3], X, invoice_id="BWL-6604", amount=14436.0))
c("HG-20958 totals 14,953.47.", p("invoice_total", [I2], S, invoice_id="HG-20958", amount=14953.47), "totals.gross")
c("HG-20958 totals 14,519.47.", p("invoice_total", [I2B], S, invoice_id="HG-20958", amount=14519.47), "corrected copy")
c("HG-20931 totals 15,742.96.", p("invoice_total", [R1], U, invoice_id="HG-20931", amount=15742.96), "cited the receipt")
# contract_unit_price
c("SC-2093 prices AMB-330 at 0.185 for 48,000 bottles.", p("contract_unit_price", [C], S, contract_id="SC-2093", item="AMB-330", unit_price=0.185, quantity=48000))
c("SC-2093 prices AMB-330 at 0.162 for 49,200 bottles.", p("contract_unit_price", [C], X, contract_id="SC-2093", item="AMB-330", unit_price=0.162, quantity=49200), "49,200 is in tier 2 (0.185)")
c("SC-2093 prices AMB-330 at 0.162 for 50,000 bottles.", p("contract_unit_price", [C], S, contract_id="SC-2093", item="AMB-330", unit_price=0.162, quantity=50000), "tier boundary, inclusive")
c("SC-2093 prices CTN-24 at 0.74 for 5,000 cartons.", p("contract_unit_price", [C], S, contract_id="SC-2093", item="CTN-24", unit_price=0.74, quantity=5000), "tier boundary")
c("SC-2093 prices CTN-24 at 0.74 for 4,999 cartons.", p("contract_unit_price", [C], X, contract_id="SC-2093", item="CTN-24", unit_price=0.74, quantity=4999), "one below boundary: 0.82")
c("SC-2093 prices CRN-26 at 13.20 a box for 199 boxes.", p("contract_unit_price", [C], X, contract_id="SC-2093", item="CRN-26", unit_price=13.2, quantity=199), "199 is tier 1 (14.50)")
c("SC-2093 prices AMB-500 at 0.221 for 40,000 bottles.", p("contract_unit_price", [C], S, contract_id="SC-2093", item="AMB-500", unit_price=0.221, quantity=40000))
c("SC-2093 lists CRN-26 at 14.50 per box.", p("contract_unit_price", [C], S, contract_id="SC-2093", item="CRN-26", unit_price=14.5, quantity=None), "no quantity; 14.50 is a listed schedule price")
c("SC-2093 prices LBL-IPA-12 at 0.068.", p("contract_unit_price", [P3], U, contract_id="SC-2093", item="LBL-IPA-12", unit_price=0.068, quantity=120000), "price is in the cited PO, which is not a contract")
# unit_price_variance
c("HG-20958 line 20 is billed 0.08 above SC-2093.", p("unit_price_variance", [I2, C], S, invoice_id="HG-20958", line="20", contract_id="SC-2093", item="CTN-24", amount=0.08), "0.82 - 0.74 at 5,000")
c("The 2026-04-28 copy of HG-20958 bills line 20 at the SC-2093 price.", p("unit_price_variance", [I2B, C], S, invoice_id="HG-20958", line="20", contract_id="SC-2093", item="CTN-24", amount=0.0))
c("HG-20958 line 10 is billed 0.023 above SC-2093.", p("unit_price_variance", [I2, C], X, invoice_id="HG-20958", line="10", contract_id="SC-2093", item="AMB-330", amount=0.023), "tier by billed qty 49,200 -> 0.185, variance 0")
c("HG-20958 line 10 matches the SC-2093 price.", p("unit_price_variance", [I2, C], S, invoice_id="HG-20958", line="10", contract_id="SC-2093", item="AMB-330", amount=0.0))
c("HG-20931 line 1 matches the SC-2093 price.", p("unit_price_variance", [I1, C], S, invoice_id="HG-20931", line="1", contract_id="SC-2093", item="AMB-330", amount=0.0))
c("HG-20958 line 20 is billed 0.08 above SC-2093.", p("unit_price_variance", [I2, P2], U, invoice_id="HG-20958", line="20", contract_id="SC-2093", item="CTN-24", amount=0.08), "PO cited instead of the contract")
# quantity_variance
c("HG-20931 bills 1,200 more bottles on line 1 than GRN-55018 received.", p("quantity_variance", [I1, R1], S, invoice_id="HG-20931", receipt_id="GRN-55018", line="1", quantity=1200))
c("HG-20931 line 4 bills exactly what GRN-55018 received.", p("quantity_variance", [I1, R1], S, invoice_id="HG-20931", receipt_id="GRN-55018", line="4", quantity=0))
c("HG-20931 line 1 bills 1,200 fewer than GRN-55018 received.", p("quantity_variance", [I1, R1], X, invoice_id="HG-20931", receipt_id="GRN-55018", line="1", quantity=-1200), "sign")
c("HG-20958 bills 50 more cartons on line 20 than GRN-55061 received.", p("quantity_variance", [I2, R2], S, invoice_id="HG-20958", receipt_id="GRN-55061", line="20", quantity=50))
c("HG-20958 bills 800 more bottles on line 10 than GRN-55061 received.", p("quantity_variance", [I2, R2], X, invoice_id="HG-20958", receipt_id="GRN-55061", line="10", quantity=800), "800 is ordered minus received; billed = received")
c("BWL-6604 bills 2,000 more labels on line 2 than GRN-55090 received.", p("quantity_variance", [I3, R3], S, invoice_id="BWL-6604", receipt_id="GRN-55090", line="2", quantity=2000), "receipt line via poRef.poLine")
c("BWL-6604 bills 2,000 more labels on line 2 than GRN-55090 received.", p("quantity_variance", [I3, P3], U, invoice_id="BWL-6604", receipt_id="GRN-55090", line="2", quantity=2000), "PO cited, not the receipt")
# payment_due_date
c("HG-20931 is due on 2026-05-09.", p("payment_due_date", [I1], S, invoice_id="HG-20931", date="2026-05-09"), "2026-03-25 + 45")
c("HG-20931 is due on 2026-05-10.", p("payment_due_date", [I1], X, invoice_id="HG-20931", date="2026-05-10"), "off by one")
c("HG-20958 is due on 2026-06-05.", p("payment_due_date", [I2], S, invoice_id="HG-20958", date="2026-06-05"), "2026-04-21 + 45 across month ends")
c("The 2026-04-28 copy of HG-20958 is due on 2026-06-12.", p("payment_due_date", [I2B], S, invoice_id="HG-20958", date="2026-06-12"))
c("BWL-6604 is due on 2026-05-27.", p("payment_due_date", [I3], S, invoice_id="BWL-6604", date="2026-05-27"), "2% 10 Net 30: net date")
c("BWL-6604 is due on 2026-05-07.", p("payment_due_date", [I3], X, invoice_id="BWL-6604", date="2026-05-07"), "discount date, not the due date")
c("HG-20958 is due on 2026-06-05.", p("payment_due_date", [P2, C], U, invoice_id="HG-20958", date="2026-06-05"), "terms cited but no invoice date in the cited records")
# days_late
c("GRN-55018 came 8 days after PO-77310's required delivery date.", p("days_late", [P1, R1], S, po_id="PO-77310", receipt_id="GRN-55018", days=8))
c("GRN-55018 came 12 days late.", p("days_late", [P1, R1], X, po_id="PO-77310", receipt_id="GRN-55018", days=12), "counted from requested ship date")
c("GRN-55061 was on time for PO-77342.", p("days_late", [P2, R2], S, po_id="PO-77342", receipt_id="GRN-55061", days=0), "3 days early -> 0")
c("GRN-55061 was -3 days late for PO-77342.", p("days_late", [P2, R2], X, po_id="PO-77342", receipt_id="GRN-55061", days=-3), "early counts as 0")
c("GRN-55090 was on time for PO-77388.", p("days_late", [P3, R3], S, po_id="PO-77388", receipt_id="GRN-55090", days=0), "received on the required date")
c("GRN-55018 came 8 days after PO-77310's required date.", p("days_late", [R1, E], U, po_id="PO-77310", receipt_id="GRN-55018", days=8), "PO not cited; required date absent")
# late_delivery_credit
c("The late delivery of PO-77310 earns a 600.00 credit.", p("late_delivery_credit", [P1, R1, C], S, po_id="PO-77310", receipt_id="GRN-55018", contract_id="SC-2093", amount=600.0), "(8-3) x 120")
c("The late delivery of PO-77310 earns a 960.00 credit.", p("late_delivery_credit", [P1, R1, C], X, po_id="PO-77310", receipt_id="GRN-55018", contract_id="SC-2093", amount=960.0), "grace period ignored")
c("The late delivery of PO-77310 earns the 1,500.00 maximum credit.", p("late_delivery_credit", [P1, R1, C], X, po_id="PO-77310", receipt_id="GRN-55018", contract_id="SC-2093", amount=1500.0), "cap not reached")
c("PO-77342's delivery earns no late credit.", p("late_delivery_credit", [P2, R2, C], S, po_id="PO-77342", receipt_id="GRN-55061", contract_id="SC-2093", amount=0.0))
c("The late delivery of PO-77310 earns a 600.00 credit.", p("late_delivery_credit", [P1, R1], U, po_id="PO-77310", receipt_id="GRN-55018", contract_id="SC-2093", amount=600.0), "contract not cited")
# requires_approval
c("HG-20931 needs Controller approval before payment.", p("requires_approval", [I1, POL], S, invoice_id="HG-20931", value=True), "total 15,742.96 >= 15,000 though subtotal is below")
c("HG-20931 needs no approval.", p("requires_approval", [I1, POL], X, invoice_id="HG-20931", value=False), "subtotal 14,154.80 tested instead of total")
c("BWL-6604 needs approval before payment.", p("requires_approval", [I3, POL], S, invoice_id="BWL-6604", value=True), "exactly 15,000.00, boundary included")
c("BWL-6604 needs no approval.", p("requires_approval", [I3, POL], X, invoice_id="BWL-6604", value=False))
c("HG-20958 needs no approval.", p("requires_approval", [I2, POL], S, invoice_id="HG-20958", value=False), "14,953.47 just below")
c("HG-20958 needs approval.", p("requires_approval", [I2], U, invoice_id="HG-20958", value=True), "policy not cited")
# duplicate_invoice_number
c("HG-20958 was invoiced twice.", p("duplicate_invoice_number", [H], S, invoice_id="HG-20958", value=True), "two ledger entries, nested periods")
c("Invoice number HG-20958 appears on two invoices.", p("duplicate_invoice_number", [I2, I2B], S, invoice_id="HG-20958", value=True), "two invoice records, same vendor and number")
c("HG-20931 is not a duplicate.", p("duplicate_invoice_number", [H], S, invoice_id="HG-20931", value=False))
c("HG-20985 was invoiced twice.", p("duplicate_invoice_number", [H], X, invoice_id="HG-20985", value=True), "swapped digits of HG-20958; appears once")
c("HG-20931 shares its number with another cited invoice.", p("duplicate_invoice_number", [I1, I2], X, invoice_id="HG-20931", value=True), "the cited invoices have different numbers")
# vendor_name
c("PO-77310 is placed with Halvorsen Glass & Closure Co.", p("vendor_name", [P1], S, document_id="PO-77310", vendor="Halvorsen Glass & Closure Co."))
c("GRN-55090 is from Brightwater Label Co.", p("vendor_name", [R3], S, document_id="GRN-55090", vendor="Brightwater Label Co."), "header.partner.display")
c("BWL-6604 is from Halvorsen Glass & Closure Co.", p("vendor_name", [I3], X, document_id="BWL-6604", vendor="Halvorsen Glass & Closure Co."))
c("HG-20958 is from Halvorsen Glass.", p("vendor_name", [I2], S, document_id="HG-20958", vendor="Halvorsen Glass"), "parties.supplier.name, short form")
c("GRN-55018 records goods from Halvorsen Glass & Closure Co.", p("vendor_name", [R1], S, document_id="GRN-55018", vendor="Halvorsen Glass & Closure Co."), blocking=False)
# liability_cap
c("SC-2093 caps liability at USD 400,000.", p("liability_cap", [C], S, contract_id="SC-2093", amount=400000, currency="USD"))
c("SC-2093 caps liability at USD 2,000,000.", p("liability_cap", [C], X, contract_id="SC-2093", amount=2000000, currency="USD"), "insurance minimum, not the cap")
c("SC-2093 caps liability at 400,000.", p("liability_cap", [E], U, contract_id="SC-2093", amount=400000, currency=None), "e-mail cited")
# notice_period_days
c("SC-2093 needs 120 days' notice to terminate.", p("notice_period_days", [C], S, contract_id="SC-2093", days=120), "number in words and digits")
c("SC-2093 needs 60 days' notice to terminate.", p("notice_period_days", [C], X, contract_id="SC-2093", days=60), "price-increase notice")
c("SC-2093 needs 30 days' notice to terminate.", p("notice_period_days", [C], X, contract_id="SC-2093", days=30), "cure period")
# term_end_date
c("SC-2093's initial term ends on 2028-01-31.", p("term_end_date", [C], S, contract_id="SC-2093", date="2028-01-31"))
c("SC-2093's initial term ends on 2027-01-31.", p("term_end_date", [C], X, contract_id="SC-2093", date="2027-01-31"), "price-fix date")
# effective_date
c("SC-2093 is effective from 2026-02-01.", p("effective_date", [C], S, contract_id="SC-2093", date="2026-02-01"))
c("SC-2093 is effective from 2026-01-20.", p("effective_date", [C], X, contract_id="SC-2093", date="2026-01-20"), "signature date")
c("SC-2093 is effective from 2026-02-01.", p("effective_date", [P1], U, contract_id="SC-2093", date="2026-02-01"), "PO cited")
# contract_party
c("The supplier under SC-2093 is Halvorsen Glass & Closure Co.", p("contract_party", [C], S, contract_id="SC-2093", role="supplier", name="Halvorsen Glass & Closure Co."))
c("The buyer under SC-2093 is Corvane Brewing Company.", p("contract_party", [C], S, contract_id="SC-2093", role="buyer", name="Corvane Brewing Company"))
c("The buyer under SC-2093 is Halvorsen Glass & Closure Co.", p("contract_party", [C], X, contract_id="SC-2093", role="buyer", name="Halvorsen Glass & Closure Co."), "roles swapped")
c("The vendor under SC-2093 is Brightwater Label Co.", p("contract_party", [C], X, contract_id="SC-2093", role="vendor", name="Brightwater Label Co."))
# statement
c("SC-2093 is governed by the laws of the State of Washington.", p("statement", [C], S, text="SC-2093 is governed by the laws of the State of Washington."), blocking=False)
c("SC-2093 renews automatically for successive two-year terms.", p("statement", [C], X, text="SC-2093 renews automatically for successive two-year terms."), "one-year renewals")
c("Halvorsen will not back-order the 800-bottle AMB-330 balance of PO-77342.", p("statement", [E], S, text="Halvorsen will not back-order the 800-bottle AMB-330 balance of PO-77342."))
c("The PO-77388 label proofs were approved by the head brewer.", p("statement", [P3], U, text="The PO-77388 label proofs were approved by the head brewer."), "PO gives the date, not who", blocking=False)
# extra unsupported (value present elsewhere, cited record does not hold it)
c("Line 1 of HG-20931 amounts to 8,880.00.", p("billed_line_amount", [P1], U, invoice_id="HG-20931", line="1", amount=8880.0), "PO extended amount; PO cited, not the invoice")
c("BWL-6604 totals 15,000.00.", p("invoice_total", [P3], U, invoice_id="BWL-6604", amount=15000.0), "PO cited")
c("BWL-6604 bills line 2 at 0.031 per label.", p("billed_unit_price", [P3], U, invoice_id="BWL-6604", line="2", unit_price=0.031), "PO price; PO cited")
c("GRN-55061 records goods from Halvorsen Glass & Closure Co.", p("vendor_name", [H], U, document_id="GRN-55061", vendor="Halvorsen Glass & Closure Co."), "ledger cited; it does not mention the receipt")
c("SC-2093 prices AMB-500 at 0.240 for 11,520 bottles.", p("contract_unit_price", [I1], U, contract_id="SC-2093", item="AMB-500", unit_price=0.24, quantity=11520), "invoice cited, not the contract")
c("HG-20931 bills 1,200 more bottles on line 1 than GRN-55018 received.", p("quantity_variance", [I1, P1], U, invoice_id="HG-20931", receipt_id="GRN-55018", line="1", quantity=1200), "PO cited instead of the receipt")
c("HG-20931 line 1 matches the SC-2093 price.", p("unit_price_variance", [I1], U, invoice_id="HG-20931", line="1", contract_id="SC-2093", item="AMB-330", amount=0.0), "contract not cited")
c("GRN-55061 was on time for PO-77342.", p("days_late", [P2], U, po_id="PO-77342", receipt_id="GRN-55061", days=0), "receipt not cited")
c("PO-77342's delivery earns no late credit.", p("late_delivery_credit", [R2, C], U, po_id="PO-77342", receipt_id="GRN-55061", contract_id="SC-2093", amount=0.0), "PO (required date) not cited")
c("BWL-6604 needs approval before payment.", p("requires_approval", [POL], U, invoice_id="BWL-6604", value=True), "invoice not cited")
c("BWL-6604 is not a duplicate invoice number.", p("duplicate_invoice_number", [H], U, invoice_id="BWL-6604", value=False), "ledger covers Halvorsen only")
c("SC-2093's initial term ends on 2028-01-31.", p("term_end_date", [E], U, contract_id="SC-2093", date="2028-01-31"), "e-mail cited")
c("SC-2093 needs 120 days' notice to terminate.", p("notice_period_days", [P1], U, contract_id="SC-2093", days=120), "PO cited")
c("GRN-55061 records 49,200 bottles received on line 10.", p("received_quantity", [E], U, receipt_id="GRN-55061", line="10", quantity=49200), "e-mail says shipped 49,200; not the receipt")
c("BWL-6604 is due on 2026-05-27.", p("payment_due_date", [P3], U, invoice_id="BWL-6604", date="2026-05-27"), "PO has the terms but no invoice date")
c("The subtotal of BWL-6604 is 14,490.00.", p("invoice_subtotal", [P3], U, invoice_id="BWL-6604", amount=14490.0), "PO order value; PO cited")
# multi-proposition
c("HG-20931 totals 15,742.96 and therefore needs approval.", [
    p("invoice_total", [I1], S, invoice_id="HG-20931", amount=15742.96),
    p("requires_approval", [I1, POL], S, invoice_id="HG-20931", value=True)], "two propositions")
c("HG-20958 bills CTN-24 at 0.82, which is the SC-2093 price for 5,000 cartons.", [
    p("billed_unit_price", [I2], S, invoice_id="HG-20958", line="20", unit_price=0.82),
    p("contract_unit_price", [C], X, contract_id="SC-2093", item="CTN-24", unit_price=0.82, quantity=5000)], "one false part")
c("GRN-55018 received 46,800 bottles on line 1, 8 days late.", [
    p("received_quantity", [R1], S, receipt_id="GRN-55018", line="1", quantity=46800),
    p("days_late", [R1], U, po_id="PO-77310", receipt_id="GRN-55018", days=8)], "second part lacks the PO")

with open(os.path.join(HERE, "claims.jsonl"), "w") as f:
    for cl in claims:
        f.write(json.dumps(cl) + "\n")

# manifest
D = os.path.join(HERE, "documents")
man = {}
for name in sorted(os.listdir(D)):
    first = open(os.path.join(D, name), encoding="utf-8").read().split("\n", 1)[0]
    man[name] = {"media_type": "application/json" if name.endswith(".json") else "text/plain; charset=utf-8",
                 "title": first[:80]}
json.dump(man, open(os.path.join(HERE, "manifest.json"), "w"), indent=1)

from collections import Counter
print(len(claims), Counter(cl["expected"] for cl in claims))
print(Counter(q["pred"] for cl in claims for q in cl["propositions"]))
print(Counter(q["expected"] for cl in claims for q in cl["propositions"]))
