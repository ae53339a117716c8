# Hand-labelled claims of the AP gold set. Each proposition: (pred, args, cites, expected S/C/U).
CL = []
def C(text, blocking, expected, props, note):
    CL.append({"text": text, "blocking": blocking, "expected": expected, "props": props, "note": note})

CON = "contract_C-100.txt"; P10 = "po_PO-4410.txt"; P15 = "po_PO-4415.txt"; P50 = "po_PO-4450.txt"; P32 = "erp_po_PO-4432.json"
G81 = "gr_GR-7781.txt"; G90 = "gr_GR-7790.txt"; G10 = "gr_GR-7810.txt"; G02 = "erp_gr_GR-7802.json"
I11 = "inv_K-2024-0311.txt"; I27 = "inv_K-2024-0327.txt"; I27R = "inv_K-2024-0327_resubmitted.txt"; IOL = "inv_OL-55821.txt"; I72 = "erp_invoice_K-2024-0372.json"
POL = "policy_AP-7.txt"; EM = "email_kestrel_2024-04-30.txt"

# ---- ordered_quantity
C("PO-4410 orders 120 cartons of KP-210 crown caps on line 1.", True, "S",
  [("ordered_quantity", {"po_id": "PO-4410", "line": "1", "quantity": 120}, [P10], "S")], "PO-4410 line 1 qty 120.")
C("PO-4410 line 2 orders 38 rolls of shrink film.", True, "C",
  [("ordered_quantity", {"po_id": "PO-4410", "line": "2", "quantity": 38}, [P10], "C")], "PO orders 40; 38 is the received quantity on GR-7781.")
C("PO-4410 line 2 orders 40 rolls of shrink film (per goods receipt GR-7781).", True, "U",
  [("ordered_quantity", {"po_id": "PO-4410", "line": "2", "quantity": 40}, [G81], "U")], "Wrong record: the receipt states received quantities, not the ordered quantity.")
C("The ERP shows PO-4432 ordering 1,500 KP-415 trays on line 2.", True, "S",
  [("ordered_quantity", {"po_id": "PO-4432", "line": "2", "quantity": 1500}, [P32], "S")], "erp.po.lines[1].schedule.qty.ordered = 1500.")
C("PO-4432 orders 260 cartons of crown caps on line 1.", True, "C",
  [("ordered_quantity", {"po_id": "PO-4432", "line": "1", "quantity": 260}, [P32], "C")], "ERP PO line 1 ordered 250.")
C("PO-4415 orders 6,000 corrugated trays on line 1.", True, "S",
  [("ordered_quantity", {"po_id": "PO-4415", "line": "1", "quantity": 6000}, [P15], "S")], "Fixed-width PO line 1 qty 6000.")
C("PO-4401 orders 120 cartons on line 1.", True, "U",
  [("ordered_quantity", {"po_id": "PO-4401", "line": "1", "quantity": 120}, [P10], "U")], "Near-miss id: the cited record is PO-4410; nothing is stated about PO-4401.")

# ---- received_quantity
C("GR-7781 records 38 rolls of KP-330 received on line 2.", True, "S",
  [("received_quantity", {"receipt_id": "GR-7781", "line": "2", "quantity": 38}, [G81], "S")], "GR-7781 line 2 = 38.")
C("GR-7802 records 1,500 trays received on line 2.", True, "C",
  [("received_quantity", {"receipt_id": "GR-7802", "line": "2", "quantity": 1500}, [G02], "C")], "Deep JSON: received 1440; 1500 is the delivery-note quantity.")
C("GR-7802 records 1,440 trays received on line 2.", True, "S",
  [("received_quantity", {"receipt_id": "GR-7802", "line": "2", "quantity": 1440}, [G02], "S")], "erp.response.data.document.items[1].quantities.received = 1440.")
C("GR-7790 records 160 rolls of KP-330 received.", True, "S",
  [("received_quantity", {"receipt_id": "GR-7790", "line": "KP-330", "quantity": 160}, [G90], "S")], "CSV receipt without line numbers; line given as item code.")
C("GR-7810 records 70 back-label rolls received on line 2 (per PO-4450).", True, "U",
  [("received_quantity", {"receipt_id": "GR-7810", "line": "2", "quantity": 70}, [P50], "U")], "Wrong record: the PO does not state receipts; the fact is only in GR-7810.")
C("GR-7810 records 75 back-label rolls received on line 2.", True, "C",
  [("received_quantity", {"receipt_id": "GR-7810", "line": "2", "quantity": 75}, [G10], "C")], "GR-7810 line 2 = 70 (75 is ordered/billed).")
C("GR-7781 records 60 rolls of stretch wrap received on line 3.", True, "S",
  [("received_quantity", {"receipt_id": "GR-7781", "line": "3", "quantity": 60}, [G81], "S")], "GR-7781 line 3 = 60.")

# ---- billed_quantity
C("Invoice K-2024-0311 bills 40 rolls of shrink film on line 2.", True, "S",
  [("billed_quantity", {"invoice_id": "K-2024-0311", "line": "2", "quantity": 40}, [I11], "S")], "Fixed-width invoice line 2 qty 40.")
C("Invoice K-2024-0372 bills 1,440 trays on line 2.", True, "C",
  [("billed_quantity", {"invoice_id": "K-2024-0372", "line": "2", "quantity": 1440}, [I72], "C")], "ERP invoice bills 1500; 1440 is the received quantity.")
C("Invoice OL-55821 bills 75 rolls of back labels on line 2.", True, "S",
  [("billed_quantity", {"invoice_id": "OL-55821", "line": "2", "quantity": 75}, [IOL], "S")], "OL-55821 line 2 qty 75.")
C("The resubmitted copy of K-2024-0327 bills 6,000 trays on line 1.", True, "S",
  [("billed_quantity", {"invoice_id": "K-2024-0327", "line": "1", "quantity": 6000}, [I27R], "S")], "CSV block of the resubmitted copy.")

# ---- billed_unit_price
C("Invoice K-2024-0327 bills KP-330 shrink film at USD 80.50 per roll.", True, "S",
  [("billed_unit_price", {"invoice_id": "K-2024-0327", "line": "2", "unit_price": 80.50}, [I27], "S")], "Pipe table line 2.")
C("Invoice K-2024-0327 bills KP-330 shrink film at USD 79.00 per roll.", True, "C",
  [("billed_unit_price", {"invoice_id": "K-2024-0327", "line": "2", "unit_price": 79.00}, [I27], "C")], "79.00 is the PO/contract price; invoice bills 80.50.")
C("Invoice K-2024-0372 bills the KP-415 trays at USD 0.88 each.", True, "S",
  [("billed_unit_price", {"invoice_id": "K-2024-0372", "line": "2", "unit_price": 0.88}, [I72], "S")], "Long ERP invoice: lines[1].unit_price = 0.88.")
C("Invoice K-2024-0372 bills the KP-415 trays at USD 0.88 each (per Kestrel's e-mail).", True, "U",
  [("billed_unit_price", {"invoice_id": "K-2024-0372", "line": "2", "unit_price": 0.88}, [EM], "U")], "Wrong record: the e-mail states an intention, it is not the invoice.")
C("Invoice OL-55821 bills front labels at USD 212.00 per roll (per PO-4450).", True, "U",
  [("billed_unit_price", {"invoice_id": "OL-55821", "line": "1", "unit_price": 212.00}, [P50], "U")], "Wrong record: the PO gives the ordered price, not the billed price.")

# ---- billed_line_amount / computed_line_amount
C("Invoice OL-55821 prints a line amount of USD 11,150.00 on line 2.", True, "S",
  [("billed_line_amount", {"invoice_id": "OL-55821", "line": "2", "amount": 11150.00}, [IOL], "S")], "Printed amount is 11,150.00 (it is wrong, but it is what is printed).")
C("Invoice OL-55821 prints a line amount of USD 11,100.00 on line 2.", True, "C",
  [("billed_line_amount", {"invoice_id": "OL-55821", "line": "2", "amount": 11100.00}, [IOL], "C")], "Printed 11,150.00; 11,100.00 is only the computed amount.")
C("Invoice K-2024-0311 prints USD 16,560.00 on line 1.", True, "S",
  [("billed_line_amount", {"invoice_id": "K-2024-0311", "line": "1", "amount": 16560.00}, [I11], "S")], "Printed line 1 amount.")
C("On OL-55821 line 2, quantity times unit price is USD 11,100.00.", True, "S",
  [("computed_line_amount", {"invoice_id": "OL-55821", "line": "2", "amount": 11100.00}, [IOL], "S")], "75 x 148.00 = 11,100.00.")
C("On OL-55821 line 2, quantity times unit price is USD 11,150.00.", True, "C",
  [("computed_line_amount", {"invoice_id": "OL-55821", "line": "2", "amount": 11150.00}, [IOL], "C")], "75 x 148.00 = 11,100.00, not the printed 11,150.00.")
C("On K-2024-0372 line 2, quantity times unit price is USD 1,320.00.", True, "S",
  [("computed_line_amount", {"invoice_id": "K-2024-0372", "line": "2", "amount": 1320.00}, [I72], "S")], "1500 x 0.88 = 1,320.00.")
C("On K-2024-0327 line 2, quantity times unit price is USD 12,640.00.", True, "C",
  [("computed_line_amount", {"invoice_id": "K-2024-0327", "line": "2", "amount": 12640.00}, [I27], "C")], "160 x 80.50 = 12,880.00; 12,640.00 would be at 79.00.")
C("On K-2024-0311 line 3, quantity times unit price is USD 1,485.00.", True, "S",
  [("computed_line_amount", {"invoice_id": "K-2024-0311", "line": "3", "amount": 1485.00}, [I11], "S")], "60 x 24.75 = 1,485.00.")

# ---- invoice_subtotal / invoice_total
C("The subtotal of invoice K-2024-0311 is USD 21,485.00.", True, "S",
  [("invoice_subtotal", {"invoice_id": "K-2024-0311", "amount": 21485.00}, [I11], "S")], "Subtotal before freight and tax.")
C("The subtotal of invoice K-2024-0311 is USD 22,909.25.", True, "C",
  [("invoice_subtotal", {"invoice_id": "K-2024-0311", "amount": 22909.25}, [I11], "C")], "22,909.25 is the total due; subtotal 21,485.00.")
C("The subtotal of invoice OL-55821 is USD 27,050.00.", True, "S",
  [("invoice_subtotal", {"invoice_id": "OL-55821", "amount": 27050.00}, [IOL], "S")], "Printed subtotal (includes the mis-extended line).")
C("The ERP net amount (subtotal) of K-2024-0372 is USD 34,195.00.", True, "S",
  [("invoice_subtotal", {"invoice_id": "K-2024-0372", "amount": 34195.00}, [I72], "S")], "net_amount near the end of a 74-field object; no tax or freight.")
C("Invoice K-2024-0311 totals USD 21,485.00.", True, "C",
  [("invoice_total", {"invoice_id": "K-2024-0311", "amount": 21485.00}, [I11], "C")], "Subtotal offered as total; total due is 22,909.25.")
C("Invoice K-2024-0311 totals USD 22,909.25.", True, "S",
  [("invoice_total", {"invoice_id": "K-2024-0311", "amount": 22909.25}, [I11], "S")], "21,485.00 + 350.00 + 1,074.25.")
C("Invoice OL-55821 totals USD 27,000.00.", True, "C",
  [("invoice_total", {"invoice_id": "OL-55821", "amount": 27000.00}, [IOL], "C")], "27,000.00 is the PO value; invoice total is 27,050.00.")
C("Invoice K-2024-0327 totals USD 17,920.00 (per PO-4415).", True, "U",
  [("invoice_total", {"invoice_id": "K-2024-0327", "amount": 17920.00}, [P15], "U")], "Wrong record: the PO (total 17,680.00) says nothing about the invoice.")
C("Invoice K-2024-0372 totals USD 34,195.00 (citing invoice K-2024-0327).", True, "U",
  [("invoice_total", {"invoice_id": "K-2024-0372", "amount": 34195.00}, [I27], "U")], "Near-miss id: the cited record is K-2024-0327, which says nothing about K-2024-0372.")

# ---- contract_unit_price
C("Under C-100, KP-210 crown caps cost USD 131.50 per carton at 250 cartons.", True, "S",
  [("contract_unit_price", {"contract_id": "C-100", "item": "KP-210", "unit_price": 131.50, "quantity": 250}, [CON], "S")], "250 falls in the '250 and above' tier.")
C("Under C-100, KP-210 crown caps cost USD 138.00 per carton at 250 cartons.", True, "C",
  [("contract_unit_price", {"contract_id": "C-100", "item": "KP-210", "unit_price": 138.00, "quantity": 250}, [CON], "C")], "Tier boundary: 250 is in the 131.50 tier.")
C("Under C-100, KP-210 costs USD 145.00 per carton at 100 cartons.", True, "C",
  [("contract_unit_price", {"contract_id": "C-100", "item": "KP-210", "unit_price": 145.00, "quantity": 100}, [CON], "C")], "Tier boundary: 100 is in the 100-249 tier (138.00).")
C("Under C-100, stretch wrap KP-520 costs USD 24.75 per roll.", True, "S",
  [("contract_unit_price", {"contract_id": "C-100", "item": "KP-520", "unit_price": 24.75, "quantity": None}, [CON], "S")], "Single price for any quantity.")
C("Under C-100, KP-330 shrink film costs USD 82.50 per roll at 50 rolls.", True, "S",
  [("contract_unit_price", {"contract_id": "C-100", "item": "KP-330", "unit_price": 82.50, "quantity": 50}, [CON], "S")], "50 is in the 50-149 tier.")
C("The contract price for 1,500 KP-415 trays is USD 0.88 each.", True, "C",
  [("contract_unit_price", {"contract_id": "C-100", "item": "KP-415", "unit_price": 0.88, "quantity": 1500}, [CON, EM], "C")], "Contract tier 1-1,999 is 0.92; 0.88 is Kestrel's goodwill price in the e-mail.")
C("The contract price for 1,500 KP-415 trays is USD 0.88 each (per Kestrel's e-mail).", True, "U",
  [("contract_unit_price", {"contract_id": "C-100", "item": "KP-415", "unit_price": 0.88, "quantity": 1500}, [EM], "U")], "Wrong record: the e-mail is not the contract's price schedule.")
C("The contract price for 160 rolls of KP-330 is USD 79.00 (per PO-4415).", True, "U",
  [("contract_unit_price", {"contract_id": "C-100", "item": "KP-330", "unit_price": 79.00, "quantity": 160}, [P15], "U")], "Wrong record: the PO states its own price, not the contract schedule.")

# ---- unit_price_variance
C("K-2024-0327 line 2 is billed USD 1.50 per roll above the contract price.", True, "S",
  [("unit_price_variance", {"invoice_id": "K-2024-0327", "line": "2", "contract_id": "C-100", "item": "KP-330", "amount": 1.50}, [I27, CON], "S")], "80.50 - 79.00 (150+ tier at 160 rolls) = +1.50.")
C("K-2024-0327 line 2 is billed USD 1.50 per roll below the contract price.", True, "C",
  [("unit_price_variance", {"invoice_id": "K-2024-0327", "line": "2", "contract_id": "C-100", "item": "KP-330", "amount": -1.50}, [I27, CON], "C")], "Sign: variance is +1.50.")
C("K-2024-0327 line 2 carries a unit price variance of USD 1.50 (invoice only).", True, "U",
  [("unit_price_variance", {"invoice_id": "K-2024-0327", "line": "2", "contract_id": "C-100", "item": "KP-330", "amount": 1.50}, [I27], "U")], "Contract not cited, so the contract price is not available.")
C("K-2024-0372 line 2 is billed USD 0.04 per tray below the contract price.", True, "S",
  [("unit_price_variance", {"invoice_id": "K-2024-0372", "line": "2", "contract_id": "C-100", "item": "KP-415", "amount": -0.04}, [I72, CON], "S")], "0.88 - 0.92 (1-1,999 tier at 1,500) = -0.04.")
C("K-2024-0372 line 2 has no unit price variance against the contract.", True, "C",
  [("unit_price_variance", {"invoice_id": "K-2024-0372", "line": "2", "contract_id": "C-100", "item": "KP-415", "amount": 0.00}, [I72, CON], "C")], "Would be 0 only at the 2,000-4,999 tier; 1,500 trays price at 0.92.")
C("K-2024-0311 line 1 matches the contract price exactly.", True, "S",
  [("unit_price_variance", {"invoice_id": "K-2024-0311", "line": "1", "contract_id": "C-100", "item": "KP-210", "amount": 0.00}, [I11, CON], "S")], "138.00 at 120 cartons (100-249 tier).")
C("K-2024-0311 line 2 is billed USD 3.50 per roll above the contract price.", True, "C",
  [("unit_price_variance", {"invoice_id": "K-2024-0311", "line": "2", "contract_id": "C-100", "item": "KP-330", "amount": 3.50}, [I11, CON], "C")], "40 rolls price at 86.00 (1-49 tier), variance 0; 3.50 assumes the 50-149 tier.")

# ---- quantity_variance
C("K-2024-0311 bills 2 more rolls of KP-330 than GR-7781 received.", True, "S",
  [("quantity_variance", {"invoice_id": "K-2024-0311", "receipt_id": "GR-7781", "line": "2", "quantity": 2}, [I11, G81], "S")], "40 - 38 = 2.")
C("K-2024-0372 bills 60 more trays than GR-7802 received.", True, "S",
  [("quantity_variance", {"invoice_id": "K-2024-0372", "receipt_id": "GR-7802", "line": "2", "quantity": 60}, [I72, G02], "S")], "1500 - 1440 = 60.")
C("K-2024-0372 line 2 has no quantity variance against GR-7802.", True, "C",
  [("quantity_variance", {"invoice_id": "K-2024-0372", "receipt_id": "GR-7802", "line": "2", "quantity": 0}, [I72, G02], "C")], "Uses the delivery-note 1500 instead of received 1440.")
C("OL-55821 bills 4 more back-label rolls than GR-7810 received.", True, "C",
  [("quantity_variance", {"invoice_id": "OL-55821", "receipt_id": "GR-7810", "line": "2", "quantity": 4}, [IOL, G10], "C")], "75 - 70 = 5, off by one.")
C("OL-55821 bills 5 more back-label rolls than were received (citing the invoice and PO).", True, "U",
  [("quantity_variance", {"invoice_id": "OL-55821", "receipt_id": "GR-7810", "line": "2", "quantity": 5}, [IOL, P50], "U")], "Receipt not cited; received quantity unknown.")

# ---- payment_due_date
C("Invoice K-2024-0311 is due for payment on 2024-04-24.", True, "S",
  [("payment_due_date", {"invoice_id": "K-2024-0311", "date": "2024-04-24"}, [I11, CON], "S")], "Terms 'as per C-100' = Net 30; 2024-03-25 + 30 days.")
C("Invoice K-2024-0311 is due on 2024-04-24 (invoice only).", True, "U",
  [("payment_due_date", {"invoice_id": "K-2024-0311", "date": "2024-04-24"}, [I11], "U")], "Invoice refers to C-100 for terms; contract not cited.")
C("Invoice K-2024-0327 is due for payment on 2024-04-27.", True, "S",
  [("payment_due_date", {"invoice_id": "K-2024-0327", "date": "2024-04-27"}, [I27], "S")], "28 March 2024 + Net 30.")
C("Invoice OL-55821 is due for payment on 2024-05-24.", True, "C",
  [("payment_due_date", {"invoice_id": "OL-55821", "date": "2024-05-24"}, [IOL], "C")], "Net 45 applies: 2024-06-08; 05-24 is Net 30.")
C("Invoice K-2024-0372 is due for payment on 2024-06-06.", True, "C",
  [("payment_due_date", {"invoice_id": "K-2024-0372", "date": "2024-06-06"}, [I72], "C")], "2024-05-06 + 30 = 2024-06-05; off by one day.")

# ---- days_late
C("Goods receipt GR-7781 arrived 4 days after PO-4410's required delivery date.", True, "S",
  [("days_late", {"po_id": "PO-4410", "receipt_id": "GR-7781", "days": 4}, [P10, G81], "S")], "2024-03-22 - 2024-03-18.")
C("PO-4432 was delivered 17 days late.", True, "C",
  [("days_late", {"po_id": "PO-4432", "receipt_id": "GR-7802", "days": 17}, [P32, G02], "C")], "Receipt 2024-05-03 vs required 2024-04-19 = 14; 17 uses the posting date.")
C("PO-4450 was delivered on time.", True, "S",
  [("days_late", {"po_id": "PO-4450", "receipt_id": "GR-7810", "days": 0}, [P50, G10], "S")], "Received 2024-04-19, 3 days before 2024-04-22.")
C("PO-4415 was delivered 1 day late.", True, "C",
  [("days_late", {"po_id": "PO-4415", "receipt_id": "GR-7790", "days": 1}, [P15, G90], "C")], "Received on the required date 2024-03-25: 0 days.")
C("GR-7781 was 4 days late against PO-4410 (receipt only).", True, "U",
  [("days_late", {"po_id": "PO-4410", "receipt_id": "GR-7781", "days": 4}, [G81], "U")], "Required delivery date is only on the PO, which is not cited.")
C("PO-4432 was received 14 days late (per Kestrel's e-mail and GR-7802).", True, "U",
  [("days_late", {"po_id": "PO-4432", "receipt_id": "GR-7802", "days": 14}, [EM, G02], "U")], "Wrong record: the e-mail does not give PO-4432's required delivery date.")

# ---- late_delivery_credit
C("Kestrel owes a late-delivery credit of USD 429.70 for PO-4410.", True, "S",
  [("late_delivery_credit", {"po_id": "PO-4410", "receipt_id": "GR-7781", "contract_id": "C-100", "amount": 429.70}, [P10, G81, CON], "S")], "4 days x 0.5% = 2% of 21,485.00.")
C("Kestrel owes a late-delivery credit of USD 429.07 for PO-4410.", True, "C",
  [("late_delivery_credit", {"po_id": "PO-4410", "receipt_id": "GR-7781", "contract_id": "C-100", "amount": 429.07}, [P10, G81, CON], "C")], "Correct value 429.70; transposed digits.")
C("Kestrel owes a late-delivery credit of USD 1,712.75 for PO-4432.", True, "S",
  [("late_delivery_credit", {"po_id": "PO-4432", "receipt_id": "GR-7802", "contract_id": "C-100", "amount": 1712.75}, [P32, G02, CON], "S")], "14 days -> 7%, capped at 5% of 34,255.00.")
C("No late-delivery credit is due on PO-4415.", True, "S",
  [("late_delivery_credit", {"po_id": "PO-4415", "receipt_id": "GR-7790", "contract_id": "C-100", "amount": 0.00}, [P15, G90, CON], "S")], "Received on the required date.")
C("Kestrel owes a late-delivery credit of USD 429.70 for PO-4410 (PO and receipt only).", True, "U",
  [("late_delivery_credit", {"po_id": "PO-4410", "receipt_id": "GR-7781", "contract_id": "C-100", "amount": 429.70}, [P10, G81], "U")], "Credit clause is in C-100, not cited.")

# ---- requires_approval
C("Invoice K-2024-0311 needs Finance Controller approval before payment.", True, "S",
  [("requires_approval", {"invoice_id": "K-2024-0311", "value": True}, [I11, POL], "S")], "Total 22,909.25 >= 22,500.00 (subtotal 21,485.00 would be below).")
C("Invoice K-2024-0311 can be paid without approval.", True, "C",
  [("requires_approval", {"invoice_id": "K-2024-0311", "value": False}, [I11, POL], "C")], "Threshold basis is the total incl. tax and freight.")
C("Invoice K-2024-0327 needs no approval under AP-7.", True, "S",
  [("requires_approval", {"invoice_id": "K-2024-0327", "value": False}, [I27, POL], "S")], "17,920.00 < 22,500.00.")
C("Invoice K-2024-0327 needs no approval (invoice only).", True, "U",
  [("requires_approval", {"invoice_id": "K-2024-0327", "value": False}, [I27], "U")], "Policy not cited; threshold unknown.")
C("Invoice OL-55821 can be paid without approval.", True, "C",
  [("requires_approval", {"invoice_id": "OL-55821", "value": False}, [IOL, POL], "C")], "27,050.00 >= 22,500.00.")

# ---- duplicate_invoice_number
C("The resubmitted K-2024-0327 duplicates an earlier Kestrel invoice number.", True, "S",
  [("duplicate_invoice_number", {"invoice_id": "K-2024-0327", "value": True}, [I27, I27R], "S")], "Same vendor, same invoice number in both cited records.")
C("K-2024-0372 duplicates the invoice number of K-2024-0327.", True, "C",
  [("duplicate_invoice_number", {"invoice_id": "K-2024-0372", "value": True}, [I72, I27], "C")], "Near-miss number: 0372 vs 0327 are different.")
C("K-2024-0311 does not share its number with K-2024-0327.", True, "S",
  [("duplicate_invoice_number", {"invoice_id": "K-2024-0311", "value": False}, [I11, I27], "S")], "Different numbers.")
C("K-2024-0327 has no duplicate among the Kestrel invoices received.", True, "C",
  [("duplicate_invoice_number", {"invoice_id": "K-2024-0327", "value": False}, [I27, I27R], "C")], "The resubmitted copy carries the same number.")

# ---- vendor_name
C("PO-4450 is placed with Ostrander Labels Inc.", True, "S",
  [("vendor_name", {"document_id": "PO-4450", "vendor": "Ostrander Labels Inc."}, [P50], "S")], "Supplier line of the PO.")
C("Goods receipt GR-7802 is for goods from Ostrander Labels Inc.", True, "C",
  [("vendor_name", {"document_id": "GR-7802", "vendor": "Ostrander Labels Inc."}, [G02], "C")], "refs.purchase_order.vendor.name = Kestrel Packaging Components Ltd.")
C("The supplier named in contract C-100 is Kestrel Packaging Group plc.", False, "C",
  [("vendor_name", {"document_id": "C-100", "vendor": "Kestrel Packaging Group plc"}, [CON], "C")], "Kestrel Packaging Group plc is the guarantor; the supplier is Kestrel Packaging Components Ltd.")
C("Invoice K-2024-0372 is from Kestrel Packaging Components Ltd (per the ERP PO record).", True, "U",
  [("vendor_name", {"document_id": "K-2024-0372", "vendor": "Kestrel Packaging Components Ltd"}, [P32], "U")], "Wrong record: the PO record does not describe the invoice.")
C("Invoice OL-55821 was issued by Ostrander Labels Inc.", True, "S",
  [("vendor_name", {"document_id": "OL-55821", "vendor": "Ostrander Labels Inc."}, [IOL], "S")], "Invoice header.")

# ---- contract clause predicates
C("C-100 caps each party's liability at USD 250,000.", False, "S",
  [("liability_cap", {"contract_id": "C-100", "amount": 250000, "currency": "USD"}, [CON], "S")], "Clause 7.")
C("C-100 caps liability at USD 25,000.", False, "C",
  [("liability_cap", {"contract_id": "C-100", "amount": 25000, "currency": "USD"}, [CON], "C")], "Cap is 250,000.")
C("C-100 caps liability at GBP 250,000.", False, "C",
  [("liability_cap", {"contract_id": "C-100", "amount": 250000, "currency": "GBP"}, [CON], "C")], "Currency is USD.")
C("Either party can end C-100 for convenience on 90 days' notice.", False, "S",
  [("notice_period_days", {"contract_id": "C-100", "days": 90}, [CON], "S")], "Clause 9.")
C("C-100 can be terminated on 30 days' notice.", False, "C",
  [("notice_period_days", {"contract_id": "C-100", "days": 30}, [CON], "C")], "30 days is the breach-cure period; termination notice is 90 days.")
C("C-100 requires 90 days' notice to terminate (per Kestrel's e-mail).", False, "U",
  [("notice_period_days", {"contract_id": "C-100", "days": 90}, [EM], "U")], "Wrong record.")
C("The initial term of C-100 ends on 31 January 2026.", False, "S",
  [("term_end_date", {"contract_id": "C-100", "date": "2026-01-31"}, [CON], "S")], "Clause 1.")
C("The initial term of C-100 ends on 1 February 2026.", False, "C",
  [("term_end_date", {"contract_id": "C-100", "date": "2026-02-01"}, [CON], "C")], "Off by one day.")
C("The initial term of C-100 ends on 31 January 2026 (per the ERP PO record).", False, "U",
  [("term_end_date", {"contract_id": "C-100", "date": "2026-01-31"}, [P32], "U")], "Wrong record: the PO only references C-100.")
C("C-100 took effect on 1 February 2024.", False, "S",
  [("effective_date", {"contract_id": "C-100", "date": "2024-02-01"}, [CON], "S")], "Effective Date.")
C("C-100 took effect on 15 January 2024.", False, "C",
  [("effective_date", {"contract_id": "C-100", "date": "2024-01-15"}, [CON], "C")], "15 January is the signing date.")
C("C-100 took effect on 1 February 2024 (per PO-4410).", False, "U",
  [("effective_date", {"contract_id": "C-100", "date": "2024-02-01"}, [P10], "U")], "Wrong record.")
C("Brantwood Beverages Ltd is the buyer under C-100.", False, "S",
  [("contract_party", {"contract_id": "C-100", "role": "buyer", "name": "Brantwood Beverages Ltd"}, [CON], "S")], "Parties block.")
C("Kestrel Packaging Components Ltd is the buyer under C-100.", False, "C",
  [("contract_party", {"contract_id": "C-100", "role": "buyer", "name": "Kestrel Packaging Components Ltd"}, [CON], "C")], "Swapped roles.")
C("Kestrel Packaging Components Ltd is the supplier under C-100 (per Kestrel's e-mail).", False, "U",
  [("contract_party", {"contract_id": "C-100", "role": "supplier", "name": "Kestrel Packaging Components Ltd"}, [EM], "U")], "Wrong record: the e-mail mentions 'the agreement price' but not C-100 or its parties.")
C("The vendor under C-100 is Kestrel Packaging Components Ltd.", False, "S",
  [("contract_party", {"contract_id": "C-100", "role": "vendor", "name": "Kestrel Packaging Components Ltd"}, [CON], "S")], "role 'vendor' = supplier.")

# ---- statements
C("C-100 is governed by the laws of England and Wales.", False, "S",
  [("statement", {"text": "Contract C-100 is governed by the laws of England and Wales."}, [CON], "S")], "Clause 10.")
C("AP-7 payment runs happen every Friday.", False, "C",
  [("statement", {"text": "Under policy AP-7, payment runs take place every Friday."}, [POL], "C")], "Payment runs are every Thursday.")
C("Kestrel's bank details change from 1 June 2024.", True, "C",
  [("statement", {"text": "Kestrel Packaging Components Ltd's bank details change from 1 June 2024."}, [EM], "C")], "E-mail: the remittance address changes; bank details are unchanged.")
C("The KP-415 trays on PO-4432 were damaged because Kestrel packed them badly.", False, "U",
  [("statement", {"text": "The 60 refused KP-415 trays were damaged because of poor packing by Kestrel."}, [G02], "U")], "Receipt says crushed in transit; cause not stated.")
C("A USD 1.50 overcharge on KP-330 is outside the AP-7 price tolerance.", True, "S",
  [("statement", {"text": "Under policy AP-7, a billed unit price USD 1.50 above a contract price of USD 79.00 exceeds the price tolerance."}, [POL], "S")], "Tolerance is min(0.50, 1% of 79.00 = 0.79) = 0.50 < 1.50.")
C("AP-7 allows billing up to 5% more units than were received.", True, "C",
  [("statement", {"text": "Policy AP-7 allows a billed quantity up to 5% above the received quantity."}, [POL], "C")], "Quantity tolerance is zero.")
C("Kestrel will deliver PO-4432 on 1 May 2024.", False, "U",
  [("statement", {"text": "Kestrel will deliver the PO-4432 goods to Brantwood on 1 May 2024."}, [EM], "U")], "E-mail gives the dispatch date from Hull, not a delivery date.")

# ---- compound claims
C("K-2024-0311 bills 40 rolls of KP-330 though GR-7781 received only 38, a variance of 2 rolls.", True, "S", [
  ("billed_quantity", {"invoice_id": "K-2024-0311", "line": "2", "quantity": 40}, [I11], "S"),
  ("received_quantity", {"receipt_id": "GR-7781", "line": "2", "quantity": 38}, [G81], "S"),
  ("quantity_variance", {"invoice_id": "K-2024-0311", "receipt_id": "GR-7781", "line": "2", "quantity": 2}, [I11, G81], "S")], "All three parts hold.")
C("K-2024-0327 bills KP-330 at USD 80.50, USD 1.50 above the USD 79.00 contract tier for 160 rolls.", True, "S", [
  ("billed_unit_price", {"invoice_id": "K-2024-0327", "line": "2", "unit_price": 80.50}, [I27], "S"),
  ("contract_unit_price", {"contract_id": "C-100", "item": "KP-330", "unit_price": 79.00, "quantity": 160}, [CON], "S"),
  ("unit_price_variance", {"invoice_id": "K-2024-0327", "line": "2", "contract_id": "C-100", "item": "KP-330", "amount": 1.50}, [I27, CON], "S")], "Tier 150+ = 79.00.")
C("K-2024-0372 totals USD 34,195.00 and therefore needs Finance Controller approval.", True, "S", [
  ("invoice_total", {"invoice_id": "K-2024-0372", "amount": 34195.00}, [I72], "S"),
  ("requires_approval", {"invoice_id": "K-2024-0372", "value": True}, [I72, POL], "S")], "34,195.00 >= 22,500.00; gross_amount is the last field.")
C("PO-4432 arrived 14 days late, so Kestrel owes a credit of USD 2,397.85.", True, "C", [
  ("days_late", {"po_id": "PO-4432", "receipt_id": "GR-7802", "days": 14}, [P32, G02], "S"),
  ("late_delivery_credit", {"po_id": "PO-4432", "receipt_id": "GR-7802", "contract_id": "C-100", "amount": 2397.85}, [P32, G02, CON], "C")], "7% uncapped; clause caps at 5% = 1,712.75.")
C("Ostrander's invoice OL-55821 for USD 27,050.00 is due on 2024-06-08.", True, "S", [
  ("invoice_total", {"invoice_id": "OL-55821", "amount": 27050.00}, [IOL], "S"),
  ("payment_due_date", {"invoice_id": "OL-55821", "date": "2024-06-08"}, [IOL], "S")], "2024-04-24 + 45 days.")
C("OL-55821 is due on 2024-06-08 and its 75 billed back-label rolls were all received.", True, "C", [
  ("payment_due_date", {"invoice_id": "OL-55821", "date": "2024-06-08"}, [IOL], "S"),
  ("billed_quantity", {"invoice_id": "OL-55821", "line": "2", "quantity": 75}, [IOL], "S"),
  ("received_quantity", {"receipt_id": "GR-7810", "line": "2", "quantity": 75}, [G10], "C")], "Only 70 received.")
C("K-2024-0311 totals USD 22,909.25 including USD 350.00 freight and falls due on 2024-04-24.", True, "S", [
  ("invoice_total", {"invoice_id": "K-2024-0311", "amount": 22909.25}, [I11], "S"),
  ("statement", {"text": "Invoice K-2024-0311 includes a freight charge of USD 350.00."}, [I11], "S"),
  ("payment_due_date", {"invoice_id": "K-2024-0311", "date": "2024-04-24"}, [I11, CON], "S")], "Net 30 from C-100.")
C("The resubmitted K-2024-0327 (USD 17,920.00) is a duplicate and must be held under AP-7.", True, "S", [
  ("duplicate_invoice_number", {"invoice_id": "K-2024-0327", "value": True}, [I27, I27R], "S"),
  ("invoice_total", {"invoice_id": "K-2024-0327", "amount": 17920.00}, [I27R], "S"),
  ("statement", {"text": "Under policy AP-7, an invoice with the same number as another invoice from the same vendor must be placed on hold."}, [POL], "S")], "All hold.")
C("PO-4410 line 1 was ordered, received and billed at 120 cartons.", True, "S", [
  ("ordered_quantity", {"po_id": "PO-4410", "line": "1", "quantity": 120}, [P10], "S"),
  ("received_quantity", {"receipt_id": "GR-7781", "line": "1", "quantity": 120}, [G81], "S"),
  ("billed_quantity", {"invoice_id": "K-2024-0311", "line": "1", "quantity": 120}, [I11], "S")], "Clean line.")
C("PO-4415 arrived on time, no late credit is due, and GR-7790 received the full 6,000 trays.", True, "S", [
  ("days_late", {"po_id": "PO-4415", "receipt_id": "GR-7790", "days": 0}, [P15, G90], "S"),
  ("late_delivery_credit", {"po_id": "PO-4415", "receipt_id": "GR-7790", "contract_id": "C-100", "amount": 0.00}, [P15, G90, CON], "S"),
  ("received_quantity", {"receipt_id": "GR-7790", "line": "KP-415", "quantity": 6000}, [G90], "S")], "All hold.")
C("K-2024-0372 bills the trays at USD 0.88, the price Kestrel promised in its e-mail.", True, "S", [
  ("billed_unit_price", {"invoice_id": "K-2024-0372", "line": "2", "unit_price": 0.88}, [I72], "S"),
  ("statement", {"text": "Kestrel said it would invoice the KP-415 trays on PO-4432 at USD 0.88 each."}, [EM], "S")], "Both hold.")
C("K-2024-0311's subtotal of USD 21,485.00 is below the threshold, so it needs no approval.", True, "C", [
  ("invoice_subtotal", {"invoice_id": "K-2024-0311", "amount": 21485.00}, [I11], "S"),
  ("requires_approval", {"invoice_id": "K-2024-0311", "value": False}, [I11, POL], "C")], "AP-7 threshold applies to the total (22,909.25).")
C("GR-7802, a Kestrel receipt, was posted on 2024-05-06.", False, "S", [
  ("vendor_name", {"document_id": "GR-7802", "vendor": "Kestrel Packaging Components Ltd"}, [G02], "S"),
  ("statement", {"text": "Goods receipt GR-7802 was posted on 2024-05-06."}, [G02], "S")], "posting_date 2024-05-06 (receipt_date 2024-05-03).")
C("PO-4432 line 1 orders 250 cartons at USD 131.50, the contract price for that quantity.", True, "S", [
  ("ordered_quantity", {"po_id": "PO-4432", "line": "1", "quantity": 250}, [P32], "S"),
  ("contract_unit_price", {"contract_id": "C-100", "item": "KP-210", "unit_price": 131.50, "quantity": 250}, [CON], "S")], "Both hold.")
C("K-2024-0372 line 1 bills 250 cartons at USD 131.50 and was fully received on GR-7802.", True, "S", [
  ("billed_quantity", {"invoice_id": "K-2024-0372", "line": "1", "quantity": 250}, [I72], "S"),
  ("billed_unit_price", {"invoice_id": "K-2024-0372", "line": "1", "unit_price": 131.50}, [I72], "S"),
  ("quantity_variance", {"invoice_id": "K-2024-0372", "receipt_id": "GR-7802", "line": "1", "quantity": 0}, [I72, G02], "S")], "All hold.")
C("PO-4410 was 4 days late and the credit is USD 429.70; Kestrel's liability cap is USD 2,500,000.", True, "C", [
  ("days_late", {"po_id": "PO-4410", "receipt_id": "GR-7781", "days": 4}, [P10, G81], "S"),
  ("late_delivery_credit", {"po_id": "PO-4410", "receipt_id": "GR-7781", "contract_id": "C-100", "amount": 429.70}, [P10, G81, CON], "S"),
  ("liability_cap", {"contract_id": "C-100", "amount": 2500000, "currency": "USD"}, [CON], "C")], "Cap is 250,000.")
C("Invoice OL-55821 needs approval and is due on 2024-06-08 (invoice and PO only).", True, "U", [
  ("requires_approval", {"invoice_id": "OL-55821", "value": True}, [IOL, P50], "U"),
  ("payment_due_date", {"invoice_id": "OL-55821", "date": "2024-06-08"}, [IOL], "S")], "Policy not cited for the approval part.")
C("K-2024-0327 is due on 2024-04-27 and carries a USD 1.50 price variance (invoice copy only).", True, "U", [
  ("payment_due_date", {"invoice_id": "K-2024-0327", "date": "2024-04-27"}, [I27R], "S"),
  ("unit_price_variance", {"invoice_id": "K-2024-0327", "line": "2", "contract_id": "C-100", "item": "KP-330", "amount": 1.50}, [I27R], "U")], "Contract not cited for the variance.")
