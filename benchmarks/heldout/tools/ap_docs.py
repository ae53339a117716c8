# Documents of the AP three-way-match gold set (text written by hand; ERP JSON built from dicts).
import json

DOCS = {}   # file name -> (media_type, title, content)

def T(name, title, text):
    DOCS[name] = ("text/plain", title, text.strip("\n") + "\n")

def J(name, title, obj):
    DOCS[name] = ("application/json", title, json.dumps(obj, indent=2, ensure_ascii=False) + "\n")

T("contract_C-100.txt", "Supply Agreement C-100 (Brantwood Beverages / Kestrel Packaging Components)", """
SUPPLY AGREEMENT  No. C-100

This Supply Agreement (the "Agreement") is signed on 15 January 2024 and is effective from
1 February 2024 (the "Effective Date").

BETWEEN
  Buyer:     Brantwood Beverages Ltd, 4 Canal Wharf, Leeds LS11 5PZ
  Supplier:  Kestrel Packaging Components Ltd, Unit 9, Riverside Park, Hull HU9 1TT
  Guarantor: Kestrel Packaging Group plc (parent company of the Supplier)

1. TERM. The initial term runs for twenty-four (24) months from the Effective Date and ends on
31 January 2026, unless terminated earlier under clause 9.

2. PRICE SCHEDULE. All prices are in US dollars (USD), exclusive of tax and freight. Where an item
has volume tiers, the tier is determined by the quantity invoiced on a single invoice line.

| Item   | Description                        | Unit   | Tier (quantity on line) | Unit price (USD) |
| ------ | ---------------------------------- | ------ | ----------------------- | ---------------- |
| KP-210 | Crown cap 26 mm, carton of 10,000  | carton | 1 - 99                  | 145.00           |
| KP-210 | Crown cap 26 mm, carton of 10,000  | carton | 100 - 249               | 138.00           |
| KP-210 | Crown cap 26 mm, carton of 10,000  | carton | 250 and above           | 131.50           |
| KP-330 | Shrink film roll, 500 mm           | roll   | 1 - 49                  | 86.00            |
| KP-330 | Shrink film roll, 500 mm           | roll   | 50 - 149                | 82.50            |
| KP-330 | Shrink film roll, 500 mm           | roll   | 150 and above           | 79.00            |
| KP-415 | Corrugated tray, 24 x 330 ml       | each   | 1 - 1,999               | 0.92             |
| KP-415 | Corrugated tray, 24 x 330 ml       | each   | 2,000 - 4,999           | 0.88             |
| KP-415 | Corrugated tray, 24 x 330 ml       | each   | 5,000 and above         | 0.84             |
| KP-520 | Pallet stretch wrap, 1,500 ft roll | roll   | any quantity            | 24.75            |

3. PAYMENT TERMS. The Buyer shall pay each valid invoice within thirty (30) calendar days of the
invoice date (Net 30). No early-payment discount applies.

4. DELIVERY. The Supplier shall deliver each purchase order by the Required Delivery Date stated on
that purchase order, to the delivery address stated on it.

5. LATE-DELIVERY CREDIT. If a delivery is received after the Required Delivery Date, the Supplier
shall credit the Buyer 0.5% of the purchase order value for each calendar day of delay, up to a
maximum of 5% of the purchase order value. "Purchase order value" means the sum of ordered quantity
x purchase order unit price over all lines of that purchase order, excluding tax and freight. No
credit is due for a delivery received on or before the Required Delivery Date.

6. PRICE REVIEW. Prices in clause 2 are fixed for the initial term.

7. LIABILITY. Each party's total aggregate liability under or in connection with this Agreement
shall not exceed USD 250,000 (two hundred and fifty thousand US dollars). This cap does not apply
to liability for death or personal injury caused by negligence, or for fraud.

8. QUALITY. Goods that are damaged on arrival may be refused at the dock and are not counted as
received.

9. TERMINATION. Either party may terminate this Agreement for convenience by giving not less than
ninety (90) days' written notice to the other party. Either party may terminate immediately by
written notice if the other party commits a material breach that is not remedied within 30 days of
being notified of it.

10. GOVERNING LAW. This Agreement is governed by the laws of England and Wales.

Signed for the Buyer:    Helen Marsh, Procurement Director
Signed for the Supplier: Ravi Chandran, Commercial Director
""")

T("po_PO-4410.txt", "Purchase order PO-4410 (Kestrel Packaging Components)", """
BRANTWOOD BEVERAGES LTD - PURCHASE ORDER
PO number: PO-4410
Order date: 2024-03-04
Supplier: Kestrel Packaging Components Ltd (supplier no. V-10422)
Contract reference: C-100
Required Delivery Date: 2024-03-18
Deliver to: Brantwood Beverages Ltd, Bottling Hall 2, Leeds
Currency: USD

| Line | Item   | Description                       | Qty | Unit   | Unit price | Line value |
| ---- | ------ | --------------------------------- | --- | ------ | ---------- | ---------- |
| 1    | KP-210 | Crown cap 26 mm, carton of 10,000 | 120 | carton | 138.00     | 16,560.00  |
| 2    | KP-330 | Shrink film roll, 500 mm          | 40  | roll   | 86.00      | 3,440.00   |
| 3    | KP-520 | Pallet stretch wrap, 1,500 ft     | 60  | roll   | 24.75      | 1,485.00   |

PO value (excl. tax and freight): 21,485.00
Buyer: Tom Reyes
""")

T("po_PO-4415.txt", "Purchase order PO-4415 (Kestrel Packaging Components)", """
BRANTWOOD BEVERAGES LTD                                  PURCHASE ORDER
PO No.  PO-4415          Date 11-Mar-2024           Supplier no. V-10422
Supplier name: Kestrel Packaging Components Ltd
Required Delivery Date: 25-Mar-2024                  Contract: C-100

LN  ITEM     DESCRIPTION                     QTY   UOM     PRICE       VALUE
1   KP-415   Corrugated tray 24 x 330 ml    6000   EA       0.84    5,040.00
2   KP-330   Shrink film roll 500 mm         160   ROLL    79.00   12,640.00
                                                  TOTAL USD        17,680.00
Buyer: Tom Reyes
""")

T("po_PO-4450.txt", "Purchase order PO-4450 (Ostrander Labels, spot purchase)", """
Brantwood Beverages Ltd - Purchase Order PO-4450
Supplier: Ostrander Labels Inc.
Order date: 2024-04-08
Required Delivery Date: 2024-04-22
Currency: USD
No supply contract: spot purchase against quotation Q-OL-0316.

line,item,description,qty,uom,unit_price,line_value
1,LBL-750,Front label 750 ml (roll of 5000),75,roll,212.00,15900.00
2,LBL-760,Back label 750 ml (roll of 5000),75,roll,148.00,11100.00

PO value: USD 27,000.00
""")

T("gr_GR-7781.txt", "Goods receipt GR-7781 against PO-4410", """
GOODS RECEIPT NOTE
GRN: GR-7781
PO: PO-4410
Supplier: Kestrel Packaging Components Ltd
Receipt date: 2024-03-22
Received by: J. Okafor (Stores, Bottling Hall 2)
Supplier delivery note: KDN-30518

| Line | Item   | Qty received | Condition                       |
| ---- | ------ | ------------ | ------------------------------- |
| 1    | KP-210 | 120          | good                            |
| 2    | KP-330 | 38           | good - 2 rolls short on arrival |
| 3    | KP-520 | 60           | good                            |
""")

T("gr_GR-7790.txt", "Goods receipt GR-7790 against PO-4415", """
Goods receipt GR-7790 - Brantwood Beverages Ltd, Leeds
Supplier: Kestrel Packaging Components Ltd; order PO-4415; received 2024-03-25
item,description,qty_received,uom
KP-415,Corrugated tray 24 x 330 ml,6000,EA
KP-330,Shrink film roll 500 mm,160,ROLL
Checked by: S. Patel
""")

T("gr_GR-7810.txt", "Goods receipt GR-7810 against PO-4450", """
GOODS RECEIPT  GR-7810                 Received: 19 Apr 2024
Vendor: Ostrander Labels Inc.           PO: PO-4450
LINE  ITEM       QTY RCVD   UOM
1     LBL-750          75   ROLL
2     LBL-760          70   ROLL
Remark: 5 rolls of LBL-760 outstanding (vendor to ship separately).
""")

T("inv_K-2024-0311.txt", "Kestrel invoice K-2024-0311 (PO-4410), with freight and tax", """
KESTREL PACKAGING COMPONENTS LTD                                     INVOICE
Unit 9, Riverside Park, Hull HU9 1TT                  Tax ID GB 318 4471 22

Invoice no.: K-2024-0311            Invoice date: 2024-03-25
Customer: Brantwood Beverages Ltd   Customer PO: PO-4410
Terms: as per Supply Agreement C-100

LINE  ITEM     DESCRIPTION                          QTY   UNIT PRICE      AMOUNT
1     KP-210   Crown cap 26 mm, carton of 10,000    120       138.00   16,560.00
2     KP-330   Shrink film roll, 500 mm              40        86.00    3,440.00
3     KP-520   Pallet stretch wrap, 1,500 ft         60        24.75    1,485.00

                                          Subtotal               21,485.00
                                          Freight                   350.00
                                          Sales tax 5% on goods   1,074.25
                                          TOTAL DUE (USD)        22,909.25
""")

T("inv_K-2024-0327.txt", "Kestrel invoice K-2024-0327 (PO-4415)", """
INVOICE K-2024-0327
From: Kestrel Packaging Components Ltd
To: Brantwood Beverages Ltd, Accounts Payable
Invoice date: 28 March 2024
Your order: PO-4415
Payment terms: Net 30

| Line | Item   | Description                  | Quantity | Unit price (USD) | Amount (USD) |
| ---- | ------ | ---------------------------- | -------- | ---------------- | ------------ |
| 1    | KP-415 | Corrugated tray, 24 x 330 ml | 6,000    | 0.84             | 5,040.00     |
| 2    | KP-330 | Shrink film roll, 500 mm     | 160      | 80.50            | 12,880.00    |

Subtotal: 17,920.00
Tax: 0.00 (exempt: packaging for resale)
Total due: USD 17,920.00
""")

T("inv_K-2024-0327_resubmitted.txt", "Kestrel invoice K-2024-0327, copy resubmitted 30 April 2024", """
*** COPY - RESUBMITTED 30 April 2024 ***
Supplier: Kestrel Packaging Components Ltd
Invoice number: K-2024-0327
Original invoice date: 2024-03-28
Customer PO: PO-4415
Payment terms: Net 30
line,item,qty,unit_price,amount
1,KP-415,6000,0.84,5040.00
2,KP-330,160,80.50,12880.00
Total due (USD): 17,920.00
""")

T("inv_OL-55821.txt", "Ostrander Labels invoice OL-55821 (PO-4450)", """
OSTRANDER LABELS INC. - INVOICE
Invoice #: OL-55821
Date: April 24, 2024
Bill to: Brantwood Beverages Ltd
PO #: PO-4450
Terms: Net 45

| Line | Item    | Description                      | Qty | Price  | Amount    |
| ---- | ------- | -------------------------------- | --- | ------ | --------- |
| 1    | LBL-750 | Front label 750 ml, roll of 5000 | 75  | 212.00 | 15,900.00 |
| 2    | LBL-760 | Back label 750 ml, roll of 5000  | 75  | 148.00 | 11,150.00 |

Subtotal: 27,050.00
Total: 27,050.00
""")

T("policy_AP-7.txt", "Accounts payable payment policy AP-7", """
BRANTWOOD BEVERAGES LTD - ACCOUNTS PAYABLE PAYMENT POLICY AP-7
Version: 3
Effective: 1 January 2024
Owner: Group Finance

Approval threshold: USD 22,500.00
Threshold basis: total amount due on the invoice, including tax and freight
Approver above threshold: Finance Controller
Approval rule: any vendor invoice whose total amount due is equal to or greater than the approval
threshold requires Finance Controller approval before payment. Invoices below the threshold may be
paid without further approval once the three-way match has passed.
Price tolerance: a billed unit price may exceed the contract price by at most USD 0.50 per unit or
1% of the contract price, whichever is lower.
Quantity tolerance: zero. The billed quantity must not exceed the received quantity.
Duplicates: an invoice carrying the same invoice number as another invoice from the same vendor
must be placed on hold and must not be paid until AP has confirmed it is not a duplicate.
Late-delivery credits due under a supply contract are deducted from the next payment to that supplier.
Payment runs: every Thursday.
""")

T("email_kestrel_2024-04-30.txt", "E-mail from Kestrel credit control, 30 April 2024", """
From: Dana Whitfield <accounts@kestrel-packaging.example>
To: ap@brantwood-beverages.example
Cc: Tom Reyes <t.reyes@brantwood-beverages.example>
Date: 30 April 2024 16:05
Subject: K-2024-0327 copy + PO-4432 update

Hello Accounts Payable team,

Our ledger shows invoice K-2024-0327 (dated 28 March) as still unpaid, so I have attached a copy
marked "resubmitted". If you have already paid it, please ignore the copy.

On PO-4432: we are sorry for the delay. We will dispatch the 250 cartons of KP-210 crown caps and
the 1,500 KP-415 trays from Hull on 1 May. As a goodwill gesture for the late delivery, we will
invoice the trays at USD 0.88 each rather than the agreement price.

Please also note that from 1 June 2024 our remittance address changes to PO Box 4410,
Hull HU1 9ZZ. Bank details are unchanged.

Kind regards,
Dana Whitfield
Credit Controller, Kestrel Packaging Components Ltd
""")

J("erp_po_PO-4432.json", "ERP tool output: purchase order PO-4432", {"erp": {
    "source": "S4-mirror", "retrieved_at": "2024-05-07T08:14:22Z",
    "po": {
        "header": {
            "id": "PO-4432", "company_code": "BB01", "purchasing_org": "P100",
            "vendor": {"id": "V-10422", "name": "Kestrel Packaging Components Ltd", "contract_ref": "C-100"},
            "dates": {"created": "2024-04-02", "required_delivery": "2024-04-19"},
            "currency": "USD", "buyer": "Tom Reyes"},
        "lines": [
            {"line": "1", "item": "KP-210", "description": "Crown cap 26 mm, carton of 10,000",
             "schedule": {"qty": {"ordered": 250, "uom": "CTN"}, "price": {"unit": 131.50, "per": 1}},
             "status": {"delivery_complete": True}},
            {"line": "2", "item": "KP-415", "description": "Corrugated tray, 24 x 330 ml",
             "schedule": {"qty": {"ordered": 1500, "uom": "EA"}, "price": {"unit": 0.92, "per": 1}},
             "status": {"delivery_complete": False}}],
        "totals": {"net_value": 34255.00}}}})

J("erp_gr_GR-7802.json", "ERP tool output: goods receipt GR-7802 (PO-4432)", {"erp": {
    "request": {"tool": "get_goods_receipt", "args": {"id": "GR-7802"}},
    "response": {"status": 200, "data": {"document": {
        "type": "goods_receipt", "id": "GR-7802",
        "refs": {"purchase_order": {"id": "PO-4432",
                                    "vendor": {"id": "V-10422", "name": "Kestrel Packaging Components Ltd"}},
                 "delivery_note": "KDN-31177"},
        "dates": {"receipt_date": "2024-05-03", "posting_date": "2024-05-06"},
        "site": {"plant": "LDS1", "storage_location": {"code": "BH2", "name": "Bottling Hall 2"}},
        "items": [
            {"line": "1", "material": {"code": "KP-210", "text": "Crown cap 26 mm, carton of 10,000"},
             "quantities": {"delivery_note_qty": 250, "received": 250, "uom": "CTN"},
             "inspection": {"result": "accepted"}},
            {"line": "2", "material": {"code": "KP-415", "text": "Corrugated tray, 24 x 330 ml"},
             "quantities": {"delivery_note_qty": 1500, "received": 1440, "uom": "EA"},
             "inspection": {"result": "partial", "remarks": "60 trays crushed in transit, refused at dock"}}]}}}}})

_inv = {
    "doc_id": "5105600931", "company_code": "BB01", "fiscal_year": 2024, "document_type": "RE",
    "posting_period": 5, "entry_date": "2024-05-08", "entered_by": "AP.BATCH", "source_channel": "EDI-810",
    "edi_interchange_id": "000048213", "edi_sender": "KESTRELPKG", "edi_receiver": "BRANTWOODBEV",
    "vendor_id": "V-10422", "vendor_name": "Kestrel Packaging Components Ltd", "vendor_country": "GB",
    "vendor_tax_id": "GB318447122", "vendor_bank_key": "BK-2", "remit_to": "Unit 9, Riverside Park, Hull HU9 1TT",
    "invoice_number": "K-2024-0372", "reference_po": "PO-4432", "reference_gr": "GR-7802",
    "invoice_date": "2024-05-06", "received_date": "2024-05-07", "currency": "USD", "exchange_rate": 1.0,
    "tax_code": "E0", "tax_jurisdiction": "GB-EXEMPT", "tax_amount": 0.00, "freight_amount": 0.00,
    "discount_amount": 0.00, "withholding_tax": 0.00, "payment_method": "ACH", "payment_block": "",
    "house_bank": "HB01", "gl_account": "501200", "cost_center": "CC-BTL2", "profit_center": "PC-LEEDS",
    "business_area": "BEV", "plant": "LDS1", "purchasing_group": "P07", "buyer": "Tom Reyes",
    "approval_workflow_id": "WF-88231", "approval_status": "pending", "matching_status": "exception",
    "ocr_confidence": None, "duplicate_check": "passed", "duplicate_check_basis": "vendor+invoice_number+amount",
    "attachment_count": 1, "attachment_name": "K-2024-0372.pdf", "notes": "", "created_by_system": "ERP",
    "last_changed": "2024-05-08T10:02:11Z", "archive_id": "AR-2024-0552187", "clearing_doc": None,
    "clearing_date": None, "dunning_level": 0, "dunning_block": "", "special_gl_indicator": "",
    "reversal_indicator": False, "reversal_reason": None, "intercompany": False, "trading_partner": None,
    "release_strategy": "R3", "workflow_step": 2, "workflow_agent": "FIN.CONTROLLER",
    "po_currency_match": True, "gr_based_iv": True, "baseline_date": "2024-05-06",
    "payment_terms_code": "N30", "payment_terms_text": "Net 30 days from invoice date", "payment_terms_days": 30,
    "line_count": 2,
    "lines": [
        {"line": "1", "item": "KP-210", "qty": 250, "unit_price": 131.50, "amount": 32875.00},
        {"line": "2", "item": "KP-415", "qty": 1500, "unit_price": 0.88, "amount": 1320.00}],
    "net_amount": 34195.00, "gross_amount": 34195.00,
}
J("erp_invoice_K-2024-0372.json", "ERP tool output: vendor invoice K-2024-0372 (long record)",
  {"erp": {"tool": "get_vendor_invoice", "vendor_invoice": _inv}})
N_INV_FIELDS = len(_inv)
