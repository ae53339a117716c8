# Hand-written held-out pairs, part 1: invoice, purchase_order, bank_statement, shipping_notice, insurance_declaration.
# Each entry: (genre, premise, [(category, hypothesis, label)]) with label S/C/U.

P = []

def add(genre, premise, items):
    P.append((genre, premise.strip("\n"), items))

# ---------------------------------------------------------------- invoice
add("invoice", """
INVOICE INV-5520
Vendor: Harlow Industrial Supply Ltd.
Bill to: Carrow Foods plc
Invoice date: 2024-03-14
PO reference: PO-88172
Terms: Net 45

| Line | Item | Qty | Unit price | Amount |
| 1 | Nitrile gloves (box of 100) | 40 | GBP 6.50 | GBP 260.00 |
| 2 | Hairnets (pack of 500) | 12 | GBP 18.75 | GBP 225.00 |
| 3 | Blue detectable plasters | 25 | GBP 4.20 | GBP 105.00 |

Subtotal: GBP 590.00
VAT (20%): GBP 118.00
Total due: GBP 708.00
""", [
    ("subtotal_vs_total", "The total amount due on invoice INV-5520 is GBP 590.00.", "C"),
    ("subtotal_vs_total", "Before VAT, invoice INV-5520 comes to GBP 590.00.", "S"),
    ("arithmetic", "The three lines of invoice INV-5520 cover 77 units in total.", "S"),
    ("identifier", "Invoice INV-5520 references purchase order PO-88127.", "C"),
    ("date", "Payment of INV-5520 falls due on 28 April 2024.", "S"),
    ("entity", "Carrow Foods plc issued invoice INV-5520 to Harlow Industrial Supply Ltd.", "C"),
    ("paraphrase", "Harlow Industrial Supply Ltd. billed Carrow Foods plc for gloves, hairnets and plasters.", "S"),
])

add("invoice", """
{"invoice": {"number": "INV-20931", "vendor": "Brightline Logistics GmbH", "customer": "Okafor Retail Group", "issue_date": "2023-11-02", "currency": "EUR", "lines": [{"sku": "FRT-STD", "desc": "Standard freight Hamburg-Lagos", "qty": 3, "unit_price": 1450.00}, {"sku": "INS-CARGO", "desc": "Cargo insurance", "qty": 3, "unit_price": 87.50}], "net": 4612.50, "tax": 0.00, "gross": 4612.50, "status": "open"}}
""", [
    ("arithmetic", "Freight charges on INV-20931 come to EUR 4,350.00 before insurance.", "S"),
    ("money", "Cargo insurance on INV-20931 is priced at EUR 87.50 per unit.", "S"),
    ("modality_tense", "Invoice INV-20931 has been paid in full.", "C"),
    ("unrelated", "Brightline Logistics GmbH holds ISO 9001 certification.", "U"),
    ("number", "INV-20931 bills for four freight shipments.", "C"),
])

add("invoice", """
TAX INVOICE  No. 7731-A            Date: 05/06/2024 (DD/MM/YYYY)
Supplier: Pinecrest Print Co., 14 Mill Lane, Leeds
Customer: Aldgate Legal LLP

CODE      DESCRIPTION                 QTY    RATE      AMOUNT
BC-250    Business cards, 250 pack     8     32.00     256.00
LH-A4     Letterhead A4, ream         15     21.40     321.00
EN-DL     DL envelopes, box           10     12.90     129.00

Goods total                                           706.00
Delivery                                               15.00
VAT @ 20%                                             144.20
TOTAL GBP                                             865.20
""", [
    ("date", "Invoice 7731-A is dated 5 June 2024.", "S"),
    ("date", "Invoice 7731-A was issued on May 6, 2024.", "C"),
    ("comparison", "The letterhead line on invoice 7731-A costs more than the business cards and envelopes combined.", "C"),
    ("subtotal_vs_total", "The amount payable on invoice 7731-A is GBP 706.00.", "C"),
    ("subtotal_vs_total", "Invoice 7731-A totals GBP 865.20 including delivery and VAT.", "S"),
    ("spelled_out_numbers", "Invoice 7731-A bills fifteen reams of A4 letterhead.", "S"),
])

add("invoice", """
Invoice No. SRV-0456 from Quintero Consulting S.L. to Marisol Hotels, dated 12 February 2024. Services: facilitation of two strategy workshops on 6 and 7 February at EUR 2,200 per day, plus travel expenses of EUR 385.40. A 2% early-payment discount applies if paid within 10 days; otherwise the full amount is due within 30 days of the invoice date.
""", [
    ("arithmetic", "The total before any discount on invoice SRV-0456 is EUR 4,785.40.", "S"),
    ("percent", "Paying SRV-0456 within ten days earns a 3% discount.", "C"),
    ("temporal_order", "The workshops billed on SRV-0456 took place after the invoice was issued.", "C"),
    ("date", "Without the early-payment discount, SRV-0456 must be paid by 13 March 2024.", "S"),
    ("modality_tense", "Marisol Hotels is required to pay SRV-0456 within 10 days.", "C"),
])

add("invoice", """
INVOICE
Invoice number: 40017833
Account number: 1192-884-05
Billing period: 1 Jan 2024 - 31 Mar 2024
Plan: Fleet Telematics Pro, 42 vehicles
Monthly fee per vehicle: USD 19.00
Quarterly charge: USD 2,394.00
Previous balance: USD 0.00
Amount due: USD 2,394.00
Due date: 2024-04-15
""", [
    ("identifier", "The account number on invoice 40017833 is 1192-848-05.", "C"),
    ("arithmetic", "The plan on invoice 40017833 costs USD 798.00 per month across all vehicles.", "S"),
    ("duration", "Invoice 40017833 covers a billing period of three months.", "S"),
    ("unrelated", "The customer on invoice 40017833 added 4 vehicles during the quarter.", "U"),
    ("spelled_out_numbers", "Invoice 40017833 covers twenty-four vehicles.", "C"),
])

add("invoice", """
INVOICE #A-1187 | Kettering Timber Merchants
Date: 2024-08-19 | Customer: R. Osei Builders
Oak sleepers 200x100x2400mm        x 30  @ £27.80 = £834.00
Treated battens 25x50mm (2.4 m)    x 120 @ £1.95  = £234.00
Delivery charge (outside 10-mile zone)             = £45.00
Total inc. VAT                                     = £1,113.00
Note: goods remain the property of Kettering Timber Merchants until paid in full.
""", [
    ("units", "The treated battens on invoice A-1187 are 2.4 metres long.", "S"),
    ("units", "The oak sleepers on invoice A-1187 are 240 cm long.", "S"),
    ("spelled_out_numbers", "Invoice A-1187 bills one hundred and twenty battens.", "S"),
    ("negation", "The delivery on invoice A-1187 was free of charge.", "C"),
    ("subtotal_vs_total", "The timber goods on invoice A-1187 come to £1,068.00 before the delivery charge.", "S"),
    ("subtotal_vs_total", "Invoice A-1187 totals £1,068.00.", "C"),
    ("unrelated", "R. Osei Builders has a credit limit of £5,000 with Kettering Timber Merchants.", "U"),
])

add("invoice", """
{"ap_invoice": {"invoice_no": "88-40215", "supplier": "Coastal Marine Electronics", "po": "PO-2207", "currency": "USD", "amounts": {"lines_total": 12840.00, "discount": -642.00, "freight": 310.00, "sales_tax": 875.56, "amount_due": 13383.56}, "due": "2024-07-31"}}
""", [
    ("subtotal_vs_total", "The amount due on invoice 88-40215 is USD 12,840.00.", "C"),
    ("subtotal_vs_total", "Invoice 88-40215 has an amount due of USD 13,383.56.", "S"),
    ("percent", "The discount on invoice 88-40215 is 5% of the lines total.", "S"),
    ("identifier", "Invoice 88-40215 references purchase order PO-2270.", "C"),
    ("modality_tense", "Invoice 88-40215 was paid on 2024-07-25.", "U"),
])

# ---------------------------------------------------------------- purchase_order
add("purchase_order", """
PURCHASE ORDER PO-4471
Buyer: Lindqvist Medical AB
Supplier: Orbis Surgical Supplies Inc.
Order date: 2024-01-08
Required delivery: within 21 days of order date
Ship to: Lindqvist Medical AB, Central Warehouse, Malmö

Line | Item code | Description | Qty | Unit | Unit price (USD)
1 | SUT-30 | Absorbable suture 3-0 | 600 | each | 2.35
2 | SCL-11 | Scalpel blade No. 11 | 1,200 | each | 0.48
3 | GLV-75 | Surgical gloves size 7.5 | 2,000 | pair | 0.92
""", [
    ("temporal_order", "Delivery of PO-4471 on 2024-01-31 would meet the required delivery window.", "C"),
    ("arithmetic", "The order value of PO-4471 is USD 3,826.00.", "S"),
    ("entity", "Orbis Surgical Supplies Inc. is the buyer on PO-4471.", "C"),
    ("spelled_out_numbers", "PO-4471 orders two thousand pairs of surgical gloves.", "S"),
    ("comparison", "PO-4471 orders more pairs of gloves than sutures and scalpel blades combined.", "S"),
    ("unrelated", "Lindqvist Medical AB has ordered from Orbis Surgical Supplies before.", "U"),
])

add("purchase_order", """
{"erp": {"purchase_order": {"id": "PO-7305", "status": "approved", "vendor": {"id": "V-00218", "name": "Tamsin & Reyes Packaging Pty Ltd"}, "currency": "AUD", "created": "2024-05-20", "approved_by": "D. Nakamura", "lines": [{"line": 1, "sku": "BOX-S", "qty": 5000, "uom": "EA", "price": 0.62}, {"line": 2, "sku": "BOX-L", "qty": 1800, "uom": "EA", "price": 1.14}, {"line": 3, "sku": "TAPE-48", "qty": 240, "uom": "RL", "price": 3.05}], "header_total": 5884.00}}}
""", [
    ("identifier", "The vendor on PO-7305 has vendor id V-00281.", "C"),
    ("arithmetic", "Line 2 of PO-7305 is worth AUD 2,052.00.", "S"),
    ("modality_tense", "All goods on PO-7305 have been delivered.", "U"),
    ("entity", "PO-7305 was approved by D. Nakamura.", "S"),
    ("money", "PO-7305 is for AUD 5,884.00 in total.", "S"),
])

add("purchase_order", """
Blanket purchase order BPO-2024-019 authorises Westbrook County Schools to call off up to 18,000 litres of heating oil from Fenwick Fuels Ltd between 1 October 2024 and 31 March 2025 at a fixed price of GBP 0.71 per litre. Each call-off must be at least 1,500 litres. No more than 4,000 litres may be delivered in any calendar month.
""", [
    ("arithmetic", "The maximum value of BPO-2024-019 is GBP 12,780.", "S"),
    ("comparison", "A single call-off of 1,200 litres is permitted under BPO-2024-019.", "C"),
    ("duration", "BPO-2024-019 covers a period of six months.", "S"),
    ("modality_tense", "Fenwick Fuels Ltd may deliver 4,000 litres in a single calendar month under BPO-2024-019.", "S"),
    ("units", "The fixed price under BPO-2024-019 is 71 pence per litre.", "S"),
    ("comparison", "BPO-2024-019 allows deliveries of 5,000 litres in one calendar month.", "C"),
])

add("purchase_order", """
ACME-NORTH PROCUREMENT - PURCHASE ORDER
PO No.: 55-20871     Revision: 2     Date: 03 Jul 2024
Vendor: Delacroix Fasteners SARL (vendor no. 30417)
Delivery: DAP Lyon plant, no later than 26 Jul 2024
Currency: EUR

LN  PART         DESCRIPTION            QTY(kg)  EUR/kg
10  M8-HEX-ZN    M8 hex bolt, zinc        450     4.10
20  M8-NUT-ZN    M8 nut, zinc             180     3.60
30  W8-FLAT      M8 flat washer            95     5.25
Revision 2 increased line 20 from 150 kg to 180 kg.
""", [
    ("units", "PO 55-20871 orders 450 lb of M8 hex bolts.", "C"),
    ("number", "Line 20 of PO 55-20871 is for 150 kg of nuts.", "C"),
    ("arithmetic", "The total weight ordered on PO 55-20871 is 725 kg.", "S"),
    ("identifier", "Delacroix Fasteners SARL appears as vendor no. 30417 on PO 55-20871.", "S"),
    ("duration", "PO 55-20871 allows 23 days from the order date to the delivery deadline.", "S"),
    ("unrelated", "The Lyon plant operates two shifts a day.", "U"),
    ("money", "The M8 flat washers on PO 55-20871 cost EUR 5.25 per kilogram.", "S"),
])

add("purchase_order", """
Purchase order PO-1093 (Greenhalgh Dairy Co-op to Sørensen Stainless A/S), 14 March 2024. One pasteuriser heat exchanger, model SHX-40, at DKK 412,000, with installation at DKK 38,500. 30% of the order value is payable on order, and the balance on commissioning. Commissioning is planned for week 27.
""", [
    ("arithmetic", "The deposit payable on order for PO-1093 is DKK 135,150.", "S"),
    ("modality_tense", "The heat exchanger under PO-1093 was commissioned in week 27.", "C"),
    ("percent", "70% of the PO-1093 order value is payable on commissioning.", "S"),
    ("entity", "Sørensen Stainless A/S placed PO-1093 with Greenhalgh Dairy Co-op.", "C"),
    ("money", "Installation on PO-1093 is priced at DKK 385,000.", "C"),
])

add("purchase_order", """
PO# 90-3312 | Issued by: Kaveh Architecture Studio | To: Brightwater Office Interiors
Qty  Item                          Unit cost
6    Height-adjustable desk        $689.00
6    Task chair, mesh              $312.50
2    Four-drawer filing cabinet    $240.00
Freight: to be quoted separately. Please confirm lead time before shipping.
""", [
    ("arithmetic", "The goods on PO# 90-3312 total $6,489.00 before freight.", "S"),
    ("money", "Freight on PO# 90-3312 is $150.", "U"),
    ("spelled_out_numbers", "PO# 90-3312 orders six mesh task chairs.", "S"),
    ("identifier", "The purchase order from Kaveh Architecture Studio to Brightwater Office Interiors is numbered 90-3321.", "C"),
    ("subtotal_vs_total", "The full cost of PO# 90-3312 including freight is $6,489.00.", "U"),
])

# ---------------------------------------------------------------- bank_statement
add("bank_statement", """
NORTHFIELD BANK - ACCOUNT STATEMENT
Account holder: Meridian Bakeries Ltd   Account no.: 40-18-77 / 61523094
Statement period: 01/09/2024 - 30/09/2024

Date        Description                    Debit      Credit     Balance
01/09/2024  Opening balance                                      12,480.55
03/09/2024  BACS  Flourmill Partners        3,200.00              9,280.55
09/09/2024  Card takings                              5,615.20   14,895.75
16/09/2024  DD    Thames Water                418.36             14,477.39
23/09/2024  FPS   Payroll September         8,940.00              5,537.39
30/09/2024  Closing balance                                       5,537.39
""", [
    ("arithmetic", "Total debits on the September statement come to 12,558.36.", "S"),
    ("identifier", "The statement is for account number 61523904.", "C"),
    ("number", "The Thames Water direct debit was 8,940.00.", "C"),
    ("comparison", "The closing balance is lower than the opening balance.", "S"),
    ("date", "The payroll payment left the account on 23 September 2024.", "S"),
    ("unrelated", "Meridian Bakeries Ltd has an overdraft facility with Northfield Bank.", "U"),
])

add("bank_statement", """
{"account": {"iban": "DE44 5001 0517 5407 3249 31", "owner": "Rheinfeld Solar GmbH", "currency": "EUR"}, "transactions": [{"booking_date": "2024-04-02", "amount": -12500.00, "counterparty": "Voltaik Module AG", "reference": "RE 2024-118"}, {"booking_date": "2024-04-05", "amount": 48200.00, "counterparty": "Stadtwerke Kassel", "reference": "Abschlag April"}, {"booking_date": "2024-04-11", "amount": -1375.90, "counterparty": "Allianz Versicherung", "reference": "Police 77-301"}], "balance_end": 81644.35}
""", [
    ("entity", "Rheinfeld Solar GmbH received EUR 12,500.00 from Voltaik Module AG.", "C"),
    ("arithmetic", "The net movement across the three transactions is EUR 34,324.10.", "S"),
    ("money", "The credit from Stadtwerke Kassel was EUR 48,200.00.", "S"),
    ("temporal_order", "The payment to Allianz Versicherung was booked before the payment to Voltaik Module AG.", "C"),
    ("unrelated", "The payment to Allianz Versicherung was for vehicle insurance.", "U"),
])

add("bank_statement", """
Your credit card statement for the period ending 18 June 2024 shows a new balance of $2,846.12. The minimum payment of $85.00 is due by 13 July 2024. Your purchase APR is 24.99% and your cash advance APR is 29.99%. Paying only the minimum will mean it takes longer to pay off your balance.
""", [
    ("percent", "The purchase APR on the statement is 29.99%.", "C"),
    ("date", "The minimum payment is due by 07/13/2024.", "S"),
    ("duration", "The minimum payment is due 25 days after the statement period ends.", "S"),
    ("unrelated", "The card carries an annual fee of $95.", "U"),
    ("comparison", "The minimum payment is less than 3% of the new balance.", "S"),
    ("spelled_out_numbers", "The minimum payment is eighty-five dollars.", "S"),
])

add("bank_statement", """
Wire transfer confirmation
Value date: 2024-10-07
Ordering customer: Castellan Wine Imports LLC
Beneficiary: Bodega Ruiz Hermanos S.A.
Beneficiary account: ES91 2100 0418 4502 0005 1332
Amount: USD 27,450.00
Converted amount: EUR 24,979.50
Exchange rate applied: 1 USD = 0.9100 EUR
Charges: OUR (all fees paid by ordering customer)
Fee: USD 35.00
""", [
    ("entity", "Bodega Ruiz Hermanos S.A. sent the wire to Castellan Wine Imports LLC.", "C"),
    ("arithmetic", "The transfer amount plus the fee comes to USD 27,485.00.", "S"),
    ("negation", "The beneficiary bears the transfer charges.", "C"),
    ("money", "The converted amount of the wire is EUR 24,979.50.", "S"),
    ("identifier", "The beneficiary account ends in 1332.", "S"),
    ("arithmetic", "At the applied rate, USD 27,450.00 converts to EUR 24,997.50.", "C"),
])

add("bank_statement", """
SAVINGS ACCOUNT 7781-002 - INTEREST SUMMARY 2023
Opening balance 1 Jan 2023 ............ CAD 40,000.00
Interest rate ......................... 3.25% p.a., paid annually
Interest credited 31 Dec 2023 ......... CAD 1,300.00
Withdrawals ........................... none
Closing balance 31 Dec 2023 ........... CAD 41,300.00
""", [
    ("percent", "The interest credited equals 3.25% of the opening balance.", "S"),
    ("negation", "No money was withdrawn from account 7781-002 in 2023.", "S"),
    ("modality_tense", "Interest on account 7781-002 is paid monthly.", "C"),
    ("spelled_out_numbers", "The closing balance was forty-one thousand three hundred Canadian dollars.", "S"),
    ("unrelated", "The interest rate on account 7781-002 will rise in 2024.", "U"),
])

add("bank_statement", """
Statement excerpt, account ending 0457 (Pham & Daughters Nail Supply): 14 Nov - POS purchase, Costco Wholesale #482, $614.27; 15 Nov - Mobile deposit, check #1043, $2,150.00; 18 Nov - ACH debit, IRS USATAXPYMT, $3,008.00; 20 Nov - Returned item fee, $35.00.
""", [
    ("arithmetic", "Debits listed in the excerpt total $3,657.27.", "S"),
    ("identifier", "The mobile deposit was check #1034.", "C"),
    ("negation", "No fees were charged on the account in the period shown.", "C"),
    ("unrelated", "The IRS payment was for third-quarter estimated tax.", "U"),
])

# ---------------------------------------------------------------- shipping_notice
add("shipping_notice", """
ADVANCE SHIPPING NOTICE ASN-66120
Shipper: Kobayashi Precision Parts Co., Ltd. (Nagoya)
Consignee: Vermont Robotics Inc.
Ship date: 2024-02-26   ETA port of Long Beach: 2024-03-15
Vessel: ONE HARMONY  Voyage 041E
Container: TGHU 8842135 (40' HC)
Packages: 18 pallets, 216 cartons
Gross weight: 7,940 kg   Net weight: 7,210 kg
PO reference: VR-PO-3318
""", [
    ("arithmetic", "The ASN-66120 shipment averages 12 cartons per pallet.", "S"),
    ("units", "The gross weight of the ASN-66120 shipment is 7,940 lb.", "C"),
    ("arithmetic", "Gross weight exceeds net weight by 730 kg on ASN-66120.", "S"),
    ("identifier", "The ASN-66120 container number is TGHU 8842153.", "C"),
    ("paraphrase", "The ASN-66120 shipment is expected at Long Beach on 15 March 2024.", "S"),
    ("duration", "The scheduled transit from ship date to ETA is 18 days.", "S"),
    ("entity", "Vermont Robotics Inc. is the shipper on ASN-66120.", "C"),
])

add("shipping_notice", """
Dispatch notice from Hallberg Garden Wholesale: your order SO-40982 left our Växjö warehouse on Tuesday 9 April 2024 by DSV road freight. It consists of 3 pallets (total 1,120 kg). The remaining item, 40 terracotta planters (item TP-60), is back-ordered and will ship separately once stock arrives, expected in week 17. Tracking: DSV 558-3310-7.
""", [
    ("modality_tense", "The terracotta planters from order SO-40982 have already shipped.", "C"),
    ("date", "Order SO-40982 was dispatched on 2024-04-09.", "S"),
    ("spelled_out_numbers", "Forty terracotta planters are on back order.", "S"),
    ("identifier", "The DSV tracking number for SO-40982 is 558-3310-7.", "S"),
    ("unrelated", "Hallberg Garden Wholesale offers free returns within 30 days.", "U"),
    ("number", "The dispatched part of order SO-40982 consists of four pallets.", "C"),
])

add("shipping_notice", """
Delivery note DN-22871 (Carver & Lowe Chemicals -> Ostrava Coatings s.r.o.)
| Item | Description | Ordered | Shipped | Backorder |
| CL-301 | Titanium dioxide, 25 kg bag | 80 | 80 | 0 |
| CL-415 | Iron oxide red, 25 kg bag | 60 | 44 | 16 |
| CL-522 | Dispersant DP-7, 200 L drum | 6 | 6 | 0 |
Shipped on 2024-07-02 by Carver & Lowe own fleet.
""", [
    ("arithmetic", "DN-22871 shipped 3,100 kg of titanium dioxide and iron oxide combined.", "S"),
    ("number", "144 bags of item CL-415 were shipped on DN-22871.", "C"),
    ("number", "60 bags of item CL-415 were shipped on DN-22871.", "C"),
    ("comparison", "Every line on DN-22871 was shipped in full.", "C"),
    ("units", "The dispersant on DN-22871 shipped as 1,200 litres in total.", "S"),
    ("negation", "Nothing is on backorder for item CL-522.", "S"),
])

add("shipping_notice", """
{"shipment": {"tracking": "1Z 9X4 87E 03 4471 2286", "carrier": "UPS", "service": "2nd Day Air", "status": "In transit", "origin": "Louisville, KY", "destination": "Boise, ID", "ship_date": "2024-12-16", "scheduled_delivery": "2024-12-18", "packages": [{"weight_lb": 22.4}, {"weight_lb": 18.1}, {"weight_lb": 9.5}], "declared_value_usd": 1200}}
""", [
    ("arithmetic", "The three packages weigh 50.0 lb together.", "S"),
    ("modality_tense", "The shipment was delivered to Boise on 18 December 2024.", "C"),
    ("units", "The heaviest package weighs 22.4 kg.", "C"),
    ("unrelated", "The shipment requires a signature on delivery.", "U"),
    ("comparison", "The declared value of the shipment is at least USD 1,000.", "S"),
])

add("shipping_notice", """
BILL OF LADING No.: MSCU-BL-7720914
Port of loading: Santos, Brazil
Port of discharge: Rotterdam, Netherlands
Shipper: Cooperativa Cafeeira Vale Verde
Notify party: Dutch Roast Traders B.V.
Cargo: 320 bags green coffee, 60 kg each
Freight: prepaid
Shipped on board: 2024-05-03
""", [
    ("units", "The coffee cargo under MSCU-BL-7720914 totals 19.2 tonnes.", "S"),
    ("entity", "Dutch Roast Traders B.V. is the shipper on MSCU-BL-7720914.", "C"),
    ("negation", "Freight on MSCU-BL-7720914 is payable at destination.", "C"),
    ("unrelated", "The coffee under MSCU-BL-7720914 is certified organic.", "U"),
])

add("shipping_notice", """
Courier manifest - Swift Pedal Couriers, route 14, 22 Jan 2024
Stop  Time   Recipient               Parcels
1     08:40  Dunmore Pharmacy         2
2     09:15  Abernathy & Cole LLP     1
3     10:05  St Brigid's Clinic       5
4     11:30  Dunmore Pharmacy         3
""", [
    ("arithmetic", "Dunmore Pharmacy received five parcels on route 14.", "S"),
    ("temporal_order", "St Brigid's Clinic was visited before Abernathy & Cole LLP.", "C"),
    ("duration", "The stops on route 14 spanned 2 hours 50 minutes from first to last.", "S"),
    ("number", "Route 14 delivered 11 parcels in all.", "S"),
    ("unrelated", "Swift Pedal Couriers made the route 14 deliveries by cargo bike.", "U"),
])

# ---------------------------------------------------------------- insurance_declaration
add("insurance_declaration", """
COMMERCIAL PROPERTY DECLARATIONS
Policy number: CPP-4418205
Named insured: Whitcombe Brewing Company LLC
Policy period: 12:01 a.m. 07/01/2024 to 12:01 a.m. 07/01/2025
Insurer: Granite Ridge Mutual Insurance Co.

Coverage                      Limit          Deductible
Building                      $2,400,000     $10,000
Business personal property    $850,000       $5,000
Business income               $600,000       72 hours
Equipment breakdown           Included       $2,500

Premium before taxes and fees: $17,960
State surcharge and policy fee: $782
Total annual premium: $18,742
""", [
    ("entity", "Granite Ridge Mutual Insurance Co. is the named insured on policy CPP-4418205.", "C"),
    ("money", "The building deductible on CPP-4418205 is $5,000.", "C"),
    ("units", "The business income waiting period on CPP-4418205 is three days.", "S"),
    ("duration", "Policy CPP-4418205 runs for one year.", "S"),
    ("arithmetic", "The building and business personal property limits together total $3,250,000.", "S"),
    ("unrelated", "Policy CPP-4418205 covers flood damage to the building.", "U"),
    ("identifier", "The commercial property policy for Whitcombe Brewing is numbered CPP-4418250.", "C"),
    ("subtotal_vs_total", "The total annual premium for CPP-4418205 is $17,960.", "C"),
])

add("insurance_declaration", """
{"policy": {"number": "AUT-55-908134", "holder": "Priya Venkataraman", "term": {"start": "2024-09-15", "end": "2025-03-15"}, "vehicles": [{"vin": "1HGCV1F34LA028817", "year": 2020, "make": "Honda", "model": "Accord", "coverages": {"liability": "100/300/100", "collision_deductible": 500, "comprehensive_deductible": 250}}], "premium": {"term_total": 742.80, "installments": 6}}}
""", [
    ("duration", "The term of auto policy AUT-55-908134 is six months.", "S"),
    ("arithmetic", "The term premium of AUT-55-908134 averages $123.80 per installment.", "S"),
    ("money", "The collision deductible on AUT-55-908134 is $250.", "C"),
    ("entity", "The vehicle insured under AUT-55-908134 is a 2020 Honda Civic.", "C"),
    ("unrelated", "Priya Venkataraman has had no at-fault accidents in the last five years.", "U"),
])

add("insurance_declaration", """
Certificate of insurance: This certifies that Harbourside Events Ltd holds public liability insurance with Castlegate Underwriting under policy PL/2291/0447, with a limit of indemnity of £5,000,000 any one occurrence, valid from 1 March 2024 to 28 February 2025. Employers' liability is not included under this policy. The certificate is issued for information only and confers no rights upon the certificate holder, Riverside Council.
""", [
    ("negation", "Policy PL/2291/0447 includes employers' liability cover.", "C"),
    ("spelled_out_numbers", "The public liability limit is five million pounds per occurrence.", "S"),
    ("entity", "Riverside Council is the insured under policy PL/2291/0447.", "C"),
    ("date", "The cover under PL/2291/0447 is still valid on 15 March 2025.", "C"),
    ("negation", "The certificate gives Riverside Council rights under the policy.", "C"),
    ("money", "Harbourside Events Ltd paid a premium of £3,200 for policy PL/2291/0447.", "U"),
])

add("insurance_declaration", """
HOMEOWNERS POLICY DECLARATIONS - Policy HO3-7720-1943
Insured location: 48 Larkspur Way, Asheville, NC
Coverage A - Dwelling: $420,000
Coverage B - Other structures: 10% of Coverage A
Coverage C - Personal property: 50% of Coverage A
Coverage D - Loss of use: $84,000
All-peril deductible: 1% of Coverage A
Wind/hail deductible: 2% of Coverage A
""", [
    ("percent", "Coverage C under HO3-7720-1943 provides $210,000 for personal property.", "S"),
    ("percent", "The wind/hail deductible under HO3-7720-1943 is $8,400.", "S"),
    ("comparison", "The all-peril deductible under HO3-7720-1943 exceeds $5,000.", "C"),
    ("percent", "Loss of use coverage equals 25% of Coverage A.", "C"),
    ("percent", "Other structures are covered up to $42,000.", "S"),
    ("unrelated", "The dwelling at 48 Larkspur Way was built in 1998.", "U"),
])

add("insurance_declaration", """
MARINE CARGO INSURANCE CERTIFICATE  No. MC-2024-03371
Assured:        Ferreira Textiles Lda
Conveyance:     MV Atlantic Crest, Leixões to Newark
Sailing on/abt: 18 Oct 2024
Insured value:  CIF invoice value + 10%
Invoice value:  EUR 186,400.00 (CIF)
Sum insured:    EUR 205,040.00
Conditions:     Institute Cargo Clauses (A)
Excess:         EUR 1,000 each claim
""", [
    ("percent", "The sum insured under MC-2024-03371 is 110% of the CIF invoice value.", "S"),
    ("spelled_out_numbers", "The excess under MC-2024-03371 is ten thousand euros per claim.", "C"),
    ("unrelated", "The cargo insured under MC-2024-03371 consists of cotton bed linen.", "U"),
    ("paraphrase", "Certificate MC-2024-03371 covers goods carried on the MV Atlantic Crest from Leixões to Newark.", "S"),
])

add("insurance_declaration", """
Travel insurance schedule - Policy TRV-880412
Traveller: Jonas Eklund (age 34)
Trip: Stockholm - Tokyo - Stockholm, 2 to 23 November 2024
Medical expenses limit: SEK 5,000,000
Trip cancellation limit: SEK 40,000
Baggage limit: SEK 25,000 (single item max SEK 6,000)
Excess: SEK 1,500 per claim
Premium paid: SEK 1,245
""", [
    ("duration", "The insured trip lasts 22 days counting both travel days.", "S"),
    ("comparison", "A single camera worth SEK 8,000 would be covered in full under the baggage section.", "C"),
    ("modality_tense", "The premium for policy TRV-880412 has been paid.", "S"),
    ("unrelated", "Policy TRV-880412 covers winter sports.", "U"),
    ("spelled_out_numbers", "The excess under TRV-880412 is fifteen hundred kronor per claim.", "S"),
])
