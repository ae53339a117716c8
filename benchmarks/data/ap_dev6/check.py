#!/usr/bin/env python3
"""Self-check for the ap_dev6 evaluation set.

A hand-entered fact base (every fact is asserted to appear verbatim in its text
document, or to sit at the given path of its JSON tool output) is used to
recompute the label of every non-statement proposition, judging each one only
against the records it cites.  Also checks claim aggregation, cites, argument
shapes, key order, predicate coverage, counts and the manifest.
"""
import datetime as dt
import hashlib
import json
import math
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DOCS = os.path.join(HERE, "documents")

C = "contract_CTR-KLD-2026-01.txt"
P1 = "po_4500012841.txt"
P2 = "po_4500012903.txt"
P3 = "po_4500012915.txt"
G1 = "gr_5000031207.txt"
G2 = "gr_5000031355.txt"
G3 = "gr_5000031318.txt"
I1 = "inv_kessler_RE-2026-00418.txt"
I1R = "inv_kessler_RE-2026-00418_resent.txt"
I2 = "inv_kessler_RE-2026-00537.txt"
I3 = "inv_marrowfield_MMS-INV-88213.txt"
POL = "ap_payment_policy_AP-POL-07.txt"
EM = "email_kessler_2026-03-18.txt"
JG = "erp_goods_receipts.json"
JR = "erp_invoice_register.json"
JP = "erp_po_history.json"

CID = "CTR-KLD-2026-01"
KES = "Kessler Labordiagnostik GmbH"
MMS = "Marrowfield Medical Supplies Ltd"
HOSP = "St. Brannoc's Regional Hospital"

# (document, kind, key, value, evidence)  evidence = verbatim substring for
# .txt documents, a path such as "data.documents[1].lines[0].qty.received"
# for .json documents (the value found there must equal `value`).
FACTS = [
    # ---------------- contract ----------------
    (C, "effective_date", (CID,), "2026-01-01", "Effective date: 1 January 2026"),
    (C, "term_end", (CID,), "2027-12-31", "continues for an initial term ending on 31 December 2027"),
    (C, "notice_days", (CID,), 90, "by giving not less than ninety (90) days' written notice"),
    (C, "liability_cap", (CID,), (250000, "EUR"), "is capped at EUR 250,000 (two hundred and fifty thousand euro)"),
    (C, "party", (CID, "buyer"), HOSP, "Buyer: St. Brannoc's Regional Hospital"),
    (C, "party", (CID, "supplier"), KES, "Supplier: Kessler Labordiagnostik GmbH"),
    (C, "vendor", (CID,), KES, "Supplier: Kessler Labordiagnostik GmbH"),
    (C, "tier", (CID, "KL-4410"), (1, 49, 186.00), "| KL-4410 | Haematology reagent pack, 5 L | pack | 1 - 49 | 186.00 |"),
    (C, "tier", (CID, "KL-4410"), (50, 99, 176.70), "| KL-4410 | Haematology reagent pack, 5 L | pack | 50 - 99 | 176.70 |"),
    (C, "tier", (CID, "KL-4410"), (100, None, 167.40), "| KL-4410 | Haematology reagent pack, 5 L | pack | 100 and above | 167.40 |"),
    (C, "tier", (CID, "KL-2025"), (1, 19, 142.50), "| KL-2025 | Glucose assay kit, 500 tests | kit | 1 - 19 | 142.50 |"),
    (C, "tier", (CID, "KL-2025"), (20, 59, 135.00), "| KL-2025 | Glucose assay kit, 500 tests | kit | 20 - 59 | 135.00 |"),
    (C, "tier", (CID, "KL-2025"), (60, None, 128.00), "| KL-2025 | Glucose assay kit, 500 tests | kit | 60 and above | 128.00 |"),
    (C, "tier", (CID, "KL-7731"), (1, 99, 38.40), "| KL-7731 | Sample cups 2 mL, box of 1,000 | box | 1 - 99 | 38.40 |"),
    (C, "tier", (CID, "KL-7731"), (100, None, 34.90), "| KL-7731 | Sample cups 2 mL, box of 1,000 | box | 100 and above | 34.90 |"),
    (C, "tier", (CID, "KL-5108"), (1, None, 96.00), "| KL-5108 | Control serum level 2, 10 x 5 mL | pack | any quantity | 96.00 |"),
    (C, "tier", (CID, "KL-3302"), (1, None, 212.00), "| KL-3302 | Coagulation reagent PT, 10 x 4 mL | pack | any quantity | 212.00 |"),
    (C, "tier_basis", (CID,), "single invoice line", "The applicable volume tier is determined by the quantity billed on a single invoice line."),
    (C, "contract_terms", (CID,), ("net", 45), "Payment terms: net 45 days from the invoice date."),
    (C, "late_rate", (CID,), (1.5, 7), "a credit equal to 1.5% of the Net Value of the purchase order lines delivered late, valued at purchase order prices, for each full week (7 calendar days) of delay."),
    (C, "late_partweeks", (CID,), "disregarded", "Part weeks are disregarded."),
    (C, "late_cap", (CID,), 6, "shall not exceed 6% of the Net Value"),

    # ---------------- purchase orders ----------------
    (P1, "vendor", ("4500012841",), KES, "Vendor: Kessler Labordiagnostik GmbH"),
    (P1, "required_date", ("4500012841",), "2026-02-20", "Required delivery date: 2026-02-20"),
    (P1, "ordered_qty", ("4500012841", "10"), 60, "| 10 | KL-4410 | Haematology reagent pack, 5 L | 60 | PK | 176.70 | 10,602.00 |"),
    (P1, "ordered_qty", ("4500012841", "20"), 120, "| 20 | KL-7731 | Sample cups 2 mL, box of 1,000 | 120 | BX | 34.90 | 4,188.00 |"),
    (P1, "ordered_qty", ("4500012841", "30"), 12, "| 30 | KL-5108 | Control serum level 2, 10 x 5 mL | 12 | PK | 96.00 | 1,152.00 |"),
    (P1, "po_net_value", ("4500012841",), 15942.00, "Net value: 15,942.00 EUR"),

    (P2, "vendor", ("4500012903",), KES, "Vendor:                  Kessler Labordiagnostik GmbH (vendor no. 100482)"),
    (P2, "required_date", ("4500012903",), "2026-03-06", "Required delivery date:  2026-03-06"),
    (P2, "ordered_qty", ("4500012903", "10"), 24, "10    KL-2025   Glucose assay kit, 500 tests     24     KIT    135.00     3,240.00"),
    (P2, "ordered_qty", ("4500012903", "20"), 40, "20    KL-4410   Haematology reagent pack, 5 L    40    PK     186.00      7,440.00"),
    (P2, "po_net_value", ("4500012903",), 10680.00, "Net value (EUR, excl. VAT):                                 10,680.00"),

    (P3, "vendor", ("4500012915",), MMS, "Vendor: Marrowfield Medical Supplies Ltd"),
    (P3, "required_date", ("4500012915",), "2026-03-04", "Required delivery date: 2026-03-04"),
    (P3, "ordered_qty", ("4500012915", "10"), 200, '10,MMS-NG-0750,"Nitrile exam gloves, medium, box of 100",200,BX,6.85,1370.00'),
    (P3, "ordered_qty", ("4500012915", "20"), 80, '20,MMS-SY-1030,"Syringe 10 mL luer lock, box of 100",80,BX,14.20,1136.00'),
    (P3, "ordered_qty", ("4500012915", "30"), 48, '30,MMS-SW-2210,"Alcohol prep swabs, box of 200",48,BX,3.95,189.60'),
    (P3, "po_net_value", ("4500012915",), 2695.60, "Net value: 2,695.60 EUR"),

    # ---------------- goods receipts ----------------
    (G1, "vendor", ("5000031207",), KES, "Vendor: Kessler Labordiagnostik GmbH (100482)"),
    (G1, "receipt_date", ("5000031207",), "2026-02-19", "Posting date: 2026-02-19"),
    (G1, "gr_po", ("5000031207",), "4500012841", "Purchase order: 4500012841"),
    (G1, "received_qty", ("5000031207", "10"), 60, "10       KL-4410    Haematology reagent pack 5 L            60        PK"),
    (G1, "received_qty", ("5000031207", "20"), 100, "20       KL-7731    Sample cups 2 mL, box of 1,000         100       BX"),
    (G1, "received_qty", ("5000031207", "30"), 12, "30       KL-5108    Control serum L2 10x5 mL                12        PK"),

    (G2, "vendor", ("5000031355",), KES, "Vendor: Kessler Labordiagnostik GmbH (100482)"),
    (G2, "receipt_date", ("5000031355",), "2026-03-16", "Posting date: 2026-03-16"),
    (G2, "gr_po", ("5000031355",), "4500012903", "Purchase order: 4500012903"),
    (G2, "received_qty", ("5000031355", "10"), 24, "| 10 | KL-2025 | Glucose assay kit, 500 tests | 24 | KIT |"),
    (G2, "received_qty", ("5000031355", "20"), 40, "| 20 | KL-4410 | Haematology reagent pack, 5 L | 40 | PK |"),

    (G3, "vendor", ("5000031318",), MMS, "Vendor: Marrowfield Medical Supplies Ltd (100517)"),
    (G3, "receipt_date", ("5000031318",), "2026-03-03", "Posting date: 2026-03-03"),
    (G3, "gr_po", ("5000031318",), "4500012915", "Purchase order: 4500012915"),
    # the receipt prints both the PO item number and the item code
    (G3, "received_qty", ("5000031318", "10"), 220, "10       MMS-NG-0750   Nitrile exam gloves, medium             220"),
    (G3, "received_qty", ("5000031318", "MMS-NG-0750"), 220, "10       MMS-NG-0750   Nitrile exam gloves, medium             220"),
    (G3, "received_qty", ("5000031318", "20"), 80, "20       MMS-SY-1030   Syringe 10 mL luer lock                  80"),
    (G3, "received_qty", ("5000031318", "MMS-SY-1030"), 80, "20       MMS-SY-1030   Syringe 10 mL luer lock                  80"),
    (G3, "received_qty", ("5000031318", "30"), 48, "30       MMS-SW-2210   Alcohol prep swabs                        48"),
    (G3, "received_qty", ("5000031318", "MMS-SW-2210"), 48, "30       MMS-SW-2210   Alcohol prep swabs                        48"),

    # ---------------- invoices ----------------
    (I1, "invoice_number", (), "RE-2026-00418", "Invoice no.: RE-2026-00418"),
    (I1, "vendor", ("RE-2026-00418",), KES, "Kessler Labordiagnostik GmbH - Lindenweg 14"),
    (I1, "invoice_date", ("RE-2026-00418",), "2026-02-23", "Invoice date: 23.02.2026"),
    (I1, "terms", ("RE-2026-00418",), ("net", 45), "Terms of payment: net 45 days from invoice date"),
    (I1, "billed_qty", ("RE-2026-00418", "10"), 60, "| 10 | KL-4410 | Haematology reagent pack, 5 L | 60 | PK | 176.70 | 10,602.00 |"),
    (I1, "billed_price", ("RE-2026-00418", "10"), 176.70, "| 10 | KL-4410 | Haematology reagent pack, 5 L | 60 | PK | 176.70 | 10,602.00 |"),
    (I1, "billed_amount", ("RE-2026-00418", "10"), 10602.00, "| 10 | KL-4410 | Haematology reagent pack, 5 L | 60 | PK | 176.70 | 10,602.00 |"),
    (I1, "billed_qty", ("RE-2026-00418", "20"), 120, "| 20 | KL-7731 | Sample cups 2 mL, box of 1,000 | 120 | BX | 34.90 | 4,188.00 |"),
    (I1, "billed_price", ("RE-2026-00418", "20"), 34.90, "| 20 | KL-7731 | Sample cups 2 mL, box of 1,000 | 120 | BX | 34.90 | 4,188.00 |"),
    (I1, "billed_amount", ("RE-2026-00418", "20"), 4188.00, "| 20 | KL-7731 | Sample cups 2 mL, box of 1,000 | 120 | BX | 34.90 | 4,188.00 |"),
    (I1, "billed_qty", ("RE-2026-00418", "30"), 12, "| 30 | KL-5108 | Control serum level 2, 10 x 5 mL | 12 | PK | 96.00 | 1,152.00 |"),
    (I1, "billed_price", ("RE-2026-00418", "30"), 96.00, "| 30 | KL-5108 | Control serum level 2, 10 x 5 mL | 12 | PK | 96.00 | 1,152.00 |"),
    (I1, "billed_amount", ("RE-2026-00418", "30"), 1152.00, "| 30 | KL-5108 | Control serum level 2, 10 x 5 mL | 12 | PK | 96.00 | 1,152.00 |"),
    (I1, "subtotal", ("RE-2026-00418",), 15942.00, "Net value: 15,942.00 EUR"),
    (I1, "total", ("RE-2026-00418",), 19608.66, "Invoice total: 19,608.66 EUR"),

    (I1R, "invoice_number", (), "RE-2026-00418", "Invoice no.: RE-2026-00418"),
    (I1R, "vendor", ("RE-2026-00418",), KES, "Kessler Labordiagnostik GmbH - Lindenweg 14"),
    (I1R, "invoice_date", ("RE-2026-00418",), "2026-02-23", "Invoice date: 23.02.2026"),
    (I1R, "terms", ("RE-2026-00418",), ("net", 45), "Terms of payment: net 45 days from invoice date"),
    (I1R, "billed_qty", ("RE-2026-00418", "10"), 60, "| 10 | KL-4410 | Haematology reagent pack, 5 L | 60 | PK | 176.70 | 10,602.00 |"),
    (I1R, "billed_price", ("RE-2026-00418", "10"), 176.70, "| 10 | KL-4410 | Haematology reagent pack, 5 L | 60 | PK | 176.70 | 10,602.00 |"),
    (I1R, "billed_amount", ("RE-2026-00418", "10"), 10602.00, "| 10 | KL-4410 | Haematology reagent pack, 5 L | 60 | PK | 176.70 | 10,602.00 |"),
    (I1R, "billed_qty", ("RE-2026-00418", "20"), 120, "| 20 | KL-7731 | Sample cups 2 mL, box of 1,000 | 120 | BX | 34.90 | 4,188.00 |"),
    (I1R, "billed_price", ("RE-2026-00418", "20"), 34.90, "| 20 | KL-7731 | Sample cups 2 mL, box of 1,000 | 120 | BX | 34.90 | 4,188.00 |"),
    (I1R, "billed_amount", ("RE-2026-00418", "20"), 4188.00, "| 20 | KL-7731 | Sample cups 2 mL, box of 1,000 | 120 | BX | 34.90 | 4,188.00 |"),
    (I1R, "billed_qty", ("RE-2026-00418", "30"), 12, "| 30 | KL-5108 | Control serum level 2, 10 x 5 mL | 12 | PK | 96.00 | 1,152.00 |"),
    (I1R, "billed_price", ("RE-2026-00418", "30"), 96.00, "| 30 | KL-5108 | Control serum level 2, 10 x 5 mL | 12 | PK | 96.00 | 1,152.00 |"),
    (I1R, "billed_amount", ("RE-2026-00418", "30"), 1152.00, "| 30 | KL-5108 | Control serum level 2, 10 x 5 mL | 12 | PK | 96.00 | 1,152.00 |"),
    (I1R, "subtotal", ("RE-2026-00418",), 15942.00, "Net value: 15,942.00 EUR"),
    (I1R, "total", ("RE-2026-00418",), 19608.66, "Invoice total: 19,608.66 EUR"),

    (I2, "invoice_number", (), "RE-2026-00537", "Invoice no.:      RE-2026-00537"),
    (I2, "vendor", ("RE-2026-00537",), KES, "Kessler Labordiagnostik GmbH, Lindenweg 14"),
    (I2, "invoice_date", ("RE-2026-00537",), "2026-03-17", "Invoice date:     17.03.2026"),
    # terms only refer to the contract
    (I2, "terms", ("RE-2026-00537",), ("contract", CID), "Payment terms:    in accordance with Supply Agreement CTR-KLD-2026-01"),
    (I2, "billed_qty", ("RE-2026-00537", "10"), 24, " 10  KL-2025    Glucose assay kit, 500 tests        24   KIT        142.50          3,420.00"),
    (I2, "billed_price", ("RE-2026-00537", "10"), 142.50, " 10  KL-2025    Glucose assay kit, 500 tests        24   KIT        142.50          3,420.00"),
    (I2, "billed_amount", ("RE-2026-00537", "10"), 3420.00, " 10  KL-2025    Glucose assay kit, 500 tests        24   KIT        142.50          3,420.00"),
    (I2, "billed_qty", ("RE-2026-00537", "20"), 40, " 20  KL-4410    Haematology reagent pack, 5 L       40   PK         186.00          7,440.00"),
    (I2, "billed_price", ("RE-2026-00537", "20"), 186.00, " 20  KL-4410    Haematology reagent pack, 5 L       40   PK         186.00          7,440.00"),
    (I2, "billed_amount", ("RE-2026-00537", "20"), 7440.00, " 20  KL-4410    Haematology reagent pack, 5 L       40   PK         186.00          7,440.00"),
    (I2, "subtotal", ("RE-2026-00537",), 10860.00, "Subtotal                               10,860.00"),
    (I2, "total", ("RE-2026-00537",), 13357.80, "Balance due EUR                        13,357.80"),

    (I3, "invoice_number", (), "MMS-INV-88213", "Invoice number: MMS-INV-88213"),
    (I3, "vendor", ("MMS-INV-88213",), MMS, "Marrowfield Medical Supplies Ltd"),
    (I3, "invoice_date", ("MMS-INV-88213",), "2026-03-05", "Invoice date: 5 March 2026"),
    # "2% 10 days, net 30": due date = invoice date + 30 calendar days
    (I3, "terms", ("MMS-INV-88213",), ("net", 30), "Terms: 2% 10 days, net 30"),
    (I3, "billed_qty", ("MMS-INV-88213", "MMS-NG-0750"), 220, 'MMS-NG-0750,"Nitrile exam gloves, medium, box of 100",220,6.85,"1,507.00"'),
    (I3, "billed_price", ("MMS-INV-88213", "MMS-NG-0750"), 6.85, 'MMS-NG-0750,"Nitrile exam gloves, medium, box of 100",220,6.85,"1,507.00"'),
    (I3, "billed_amount", ("MMS-INV-88213", "MMS-NG-0750"), 1507.00, 'MMS-NG-0750,"Nitrile exam gloves, medium, box of 100",220,6.85,"1,507.00"'),
    (I3, "billed_qty", ("MMS-INV-88213", "MMS-SY-1030"), 80, 'MMS-SY-1030,"Syringe 10 mL luer lock, box of 100",80,14.20,"1,136.00"'),
    (I3, "billed_price", ("MMS-INV-88213", "MMS-SY-1030"), 14.20, 'MMS-SY-1030,"Syringe 10 mL luer lock, box of 100",80,14.20,"1,136.00"'),
    (I3, "billed_amount", ("MMS-INV-88213", "MMS-SY-1030"), 1136.00, 'MMS-SY-1030,"Syringe 10 mL luer lock, box of 100",80,14.20,"1,136.00"'),
    (I3, "billed_qty", ("MMS-INV-88213", "MMS-SW-2210"), 48, 'MMS-SW-2210,"Alcohol prep swabs, box of 200",48,3.95,198.60'),
    (I3, "billed_price", ("MMS-INV-88213", "MMS-SW-2210"), 3.95, 'MMS-SW-2210,"Alcohol prep swabs, box of 200",48,3.95,198.60'),
    # printed line amount disagrees with 48 x 3.95 = 189.60
    (I3, "billed_amount", ("MMS-INV-88213", "MMS-SW-2210"), 198.60, 'MMS-SW-2210,"Alcohol prep swabs, box of 200",48,3.95,198.60'),
    (I3, "subtotal", ("MMS-INV-88213",), 2841.60, "Goods total: 2,841.60"),
    (I3, "total", ("MMS-INV-88213",), 3445.66, "Amount payable: EUR 3,445.66"),

    # ---------------- payment policy ----------------
    (POL, "approval_threshold", (), 12000.00, "the subtotal of the invoice lines before VAT, freight and any discount - is EUR 12,000.00 or more"),

    # ---------------- ERP JSON tool outputs ----------------
    (JG, "vendor", ("5000031207",), KES, "data.documents[0].vendor.name"),
    (JG, "receipt_date", ("5000031207",), "2026-02-19", "data.documents[0].posting_date"),
    (JG, "gr_po", ("5000031207",), "4500012841", "data.documents[0].po_number"),
    (JG, "ordered_qty", ("4500012841", "10"), 60, "data.documents[0].lines[0].qty.ordered"),
    (JG, "ordered_qty", ("4500012841", "20"), 120, "data.documents[0].lines[1].qty.ordered"),
    (JG, "ordered_qty", ("4500012841", "30"), 12, "data.documents[0].lines[2].qty.ordered"),
    (JG, "received_qty", ("5000031207", "10"), 60, "data.documents[0].lines[0].qty.received"),
    (JG, "received_qty", ("5000031207", "20"), 100, "data.documents[0].lines[1].qty.received"),
    (JG, "received_qty", ("5000031207", "30"), 12, "data.documents[0].lines[2].qty.received"),
    (JG, "vendor", ("5000031355",), KES, "data.documents[1].vendor.name"),
    (JG, "receipt_date", ("5000031355",), "2026-03-16", "data.documents[1].posting_date"),
    (JG, "gr_po", ("5000031355",), "4500012903", "data.documents[1].po_number"),
    (JG, "ordered_qty", ("4500012903", "10"), 24, "data.documents[1].lines[0].qty.ordered"),
    (JG, "ordered_qty", ("4500012903", "20"), 40, "data.documents[1].lines[1].qty.ordered"),
    (JG, "received_qty", ("5000031355", "10"), 24, "data.documents[1].lines[0].qty.received"),
    (JG, "received_qty", ("5000031355", "20"), 40, "data.documents[1].lines[1].qty.received"),

    (JR, "vendor", ("RE-2026-00418",), KES, "result.vendor.name"),
    (JR, "vendor", ("RE-2026-00537",), KES, "result.vendor.name"),
    (JR, "invoice_date", ("RE-2026-00418",), "2026-02-23", "result.entries[0].invoice_date"),
    (JR, "subtotal", ("RE-2026-00418",), 15942.00, "result.entries[0].amounts.net"),
    (JR, "total", ("RE-2026-00418",), 19608.66, "result.entries[0].amounts.gross"),
    (JR, "due_date", ("RE-2026-00418",), "2026-04-09", "result.entries[0].payment.due_date"),
    (JR, "invoice_date", ("RE-2026-00418",), "2026-02-23", "result.entries[1].invoice_date"),
    (JR, "subtotal", ("RE-2026-00418",), 15942.00, "result.entries[1].amounts.net"),
    (JR, "total", ("RE-2026-00418",), 19608.66, "result.entries[1].amounts.gross"),
    (JR, "invoice_date", ("RE-2026-00537",), "2026-03-17", "result.entries[2].invoice_date"),
    (JR, "subtotal", ("RE-2026-00537",), 10860.00, "result.entries[2].amounts.net"),
    (JR, "total", ("RE-2026-00537",), 13357.80, "result.entries[2].amounts.gross"),
    (JR, "due_date", ("RE-2026-00537",), "2026-05-01", "result.entries[2].payment.due_date"),

    (JP, "vendor", ("4500012903",), KES, "response.purchase_orders[0].header.vendor.name"),
    (JP, "po_net_value", ("4500012903",), 10680.00, "response.purchase_orders[0].header.net_value"),
    (JP, "required_date", ("4500012903",), "2026-03-06", "response.purchase_orders[0].items[0].schedule_lines[0].delivery_date"),
    (JP, "required_date", ("4500012903",), "2026-03-06", "response.purchase_orders[0].items[1].schedule_lines[0].delivery_date"),
    (JP, "ordered_qty", ("4500012903", "10"), 24, "response.purchase_orders[0].items[0].order_qty"),
    (JP, "ordered_qty", ("4500012903", "20"), 40, "response.purchase_orders[0].items[1].order_qty"),
    (JP, "gr_po", ("5000031355",), "4500012903", "response.purchase_orders[0].header.po_number"),
    (JP, "receipt_date", ("5000031355",), "2026-03-16", "response.purchase_orders[0].items[0].history[0].posting_date"),
    (JP, "received_qty", ("5000031355", "10"), 24, "response.purchase_orders[0].items[0].history[0].qty"),
    (JP, "received_qty", ("5000031355", "20"), 40, "response.purchase_orders[0].items[1].history[0].qty"),
    (JP, "vendor", ("4500012915",), MMS, "response.purchase_orders[1].header.vendor.name"),
    (JP, "po_net_value", ("4500012915",), 2695.60, "response.purchase_orders[1].header.net_value"),
    (JP, "required_date", ("4500012915",), "2026-03-04", "response.purchase_orders[1].items[0].schedule_lines[0].delivery_date"),
    (JP, "ordered_qty", ("4500012915", "10"), 200, "response.purchase_orders[1].items[0].order_qty"),
    (JP, "ordered_qty", ("4500012915", "20"), 80, "response.purchase_orders[1].items[1].order_qty"),
    (JP, "ordered_qty", ("4500012915", "30"), 48, "response.purchase_orders[1].items[2].order_qty"),
    (JP, "gr_po", ("5000031318",), "4500012915", "response.purchase_orders[1].header.po_number"),
    (JP, "receipt_date", ("5000031318",), "2026-03-03", "response.purchase_orders[1].items[0].history[0].posting_date"),
    (JP, "received_qty", ("5000031318", "10"), 220, "response.purchase_orders[1].items[0].history[0].qty"),
    (JP, "received_qty", ("5000031318", "20"), 80, "response.purchase_orders[1].items[1].history[0].qty"),
    (JP, "received_qty", ("5000031318", "30"), 48, "response.purchase_orders[1].items[2].history[0].qty"),
]

CATALOGUE = {
    "ordered_quantity": {"po_id": "id", "line": "line", "quantity": "num"},
    "received_quantity": {"receipt_id": "id", "line": "line", "quantity": "num"},
    "billed_quantity": {"invoice_id": "id", "line": "line", "quantity": "num"},
    "billed_unit_price": {"invoice_id": "id", "line": "line", "unit_price": "num"},
    "billed_line_amount": {"invoice_id": "id", "line": "line", "amount": "num"},
    "computed_line_amount": {"invoice_id": "id", "line": "line", "amount": "num"},
    "invoice_subtotal": {"invoice_id": "id", "amount": "num"},
    "invoice_total": {"invoice_id": "id", "amount": "num"},
    "contract_unit_price": {"contract_id": "id", "item": "id", "unit_price": "num", "quantity": "num?"},
    "unit_price_variance": {"invoice_id": "id", "line": "line", "contract_id": "id", "item": "id", "amount": "num"},
    "quantity_variance": {"invoice_id": "id", "receipt_id": "id", "line": "line", "quantity": "num"},
    "payment_due_date": {"invoice_id": "id", "date": "date"},
    "days_late": {"po_id": "id", "receipt_id": "id", "days": "int"},
    "late_delivery_credit": {"po_id": "id", "receipt_id": "id", "contract_id": "id", "amount": "num"},
    "requires_approval": {"invoice_id": "id", "value": "bool"},
    "duplicate_invoice_number": {"invoice_id": "id", "value": "bool"},
    "vendor_name": {"document_id": "id", "vendor": "str"},
    "statement": {"text": "str"},
    "liability_cap": {"contract_id": "id", "amount": "num", "currency": "cur?"},
    "notice_period_days": {"contract_id": "id", "days": "int"},
    "term_end_date": {"contract_id": "id", "date": "date"},
    "effective_date": {"contract_id": "id", "date": "date"},
    "contract_party": {"contract_id": "id", "role": "role", "name": "str"},
}

MONTHS = ["January", "February", "March", "April", "May", "June", "July",
          "August", "September", "October", "November", "December"]

S, X, U = "supported", "contradicted", "unsupported"


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


# ---------------------------------------------------------------- documents
def load_docs():
    docs = {}
    for name in sorted(os.listdir(DOCS)):
        path = os.path.join(DOCS, name)
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        docs[name] = json.loads(text) if name.endswith(".json") else text
    return docs


def resolve(obj, path):
    for part in re.findall(r"[^.\[\]]+|\[\d+\]", path):
        if part.startswith("["):
            obj = obj[int(part[1:-1])]
        else:
            obj = obj[part]
    return obj


def renderings(v):
    out = set()
    if isinstance(v, bool):
        return out
    if isinstance(v, (int, float)):
        out.add(f"{v:.2f}")
        out.add(f"{v:,.2f}")
        out.add(f"{v:g}")
        if float(v).is_integer():
            out.add(str(int(v)))
            out.add(f"{int(v):,}")
        return out
    if isinstance(v, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", v):
        d = dt.date.fromisoformat(v)
        out.add(v)
        out.add(d.strftime("%d.%m.%Y"))
        out.add(f"{d.day} {MONTHS[d.month - 1]} {d.year}")
        return out
    if isinstance(v, str):
        out.add(v)
    return out


def check_facts(docs):
    for doc, kind, key, value, at in FACTS:
        if doc not in docs:
            fail(f"fact cites missing document {doc}")
        if doc.endswith(".json"):
            try:
                got = resolve(docs[doc], at)
            except (KeyError, IndexError, TypeError):
                fail(f"{doc}: path {at} not found")
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                ok = isinstance(got, (int, float)) and abs(got - value) < 1e-9
            else:
                ok = got == value
            if not ok:
                fail(f"{doc}: {at} holds {got!r}, fact says {value!r}")
        else:
            text = docs[doc]
            if at not in text:
                fail(f"{doc}: evidence not verbatim: {at!r}")
            parts = value if isinstance(value, tuple) else (value,)
            for p in parts:
                if p is None:
                    continue
                if isinstance(p, str) and isinstance(value, tuple) and not re.search(r"\d", p):
                    continue  # a tag such as "net" / "contract"
                r = renderings(p)
                if r and not any(x.lower() in at.lower() for x in r):
                    fail(f"{doc}: value {p!r} not visible in evidence {at!r}")


# ---------------------------------------------------------------- evaluation
class Inconsistent(Exception):
    pass


def values(kind, key, cites):
    return [v for d, k, kk, v, _ in FACTS if k == kind and kk == key and d in cites]


def one(kind, key, cites):
    vals = values(kind, key, cites)
    if not vals:
        return None
    first = vals[0]
    for v in vals[1:]:
        if v != first:
            raise Inconsistent(f"{kind} {key}: {vals}")
    return first


def eqnum(a, b):
    return abs(float(a) - float(b)) < 0.005


def verdict(known, claimed, num=True):
    if known is None:
        return U
    if num:
        return S if eqnum(known, claimed) else X
    return S if known == claimed else X


def contract_price(cid, item, qty, cites):
    tiers = values("tier", (cid, item), cites)
    if not tiers:
        return None
    if qty is None:
        if len(tiers) != 1:
            raise Inconsistent(f"tiered item {item} asked without quantity")
        return tiers[0][2]
    for lo, hi, price in tiers:
        if qty >= lo and (hi is None or qty <= hi):
            return price
    return None


def days_late(po, gr, cites):
    req = one("required_date", (po,), cites)
    rec = one("receipt_date", (gr,), cites)
    link = one("gr_po", (gr,), cites)
    if req is None or rec is None:
        return None
    if link is not None and link != po:
        raise Inconsistent(f"receipt {gr} is not for {po}")
    d = (dt.date.fromisoformat(rec) - dt.date.fromisoformat(req)).days
    return max(0, d)


def due_date(inv, cites):
    stated = one("due_date", (inv,), cites)
    computed = None
    idate = one("invoice_date", (inv,), cites)
    terms = one("terms", (inv,), cites)
    if terms is not None and terms[0] == "contract":
        terms = one("contract_terms", (terms[1],), cites)
    if idate is not None and terms is not None:
        assert terms[0] == "net"
        computed = (dt.date.fromisoformat(idate) + dt.timedelta(days=terms[1])).isoformat()
    if stated is not None and computed is not None and stated != computed:
        raise Inconsistent(f"due date of {inv}: stated {stated}, computed {computed}")
    return stated if stated is not None else computed


def evaluate(pred, a, cites):
    if pred == "ordered_quantity":
        return verdict(one("ordered_qty", (a["po_id"], a["line"]), cites), a["quantity"])
    if pred == "received_quantity":
        return verdict(one("received_qty", (a["receipt_id"], a["line"]), cites), a["quantity"])
    if pred == "billed_quantity":
        return verdict(one("billed_qty", (a["invoice_id"], a["line"]), cites), a["quantity"])
    if pred == "billed_unit_price":
        return verdict(one("billed_price", (a["invoice_id"], a["line"]), cites), a["unit_price"])
    if pred == "billed_line_amount":
        return verdict(one("billed_amount", (a["invoice_id"], a["line"]), cites), a["amount"])
    if pred == "computed_line_amount":
        q = one("billed_qty", (a["invoice_id"], a["line"]), cites)
        p = one("billed_price", (a["invoice_id"], a["line"]), cites)
        return verdict(None if q is None or p is None else round(q * p, 2), a["amount"])
    if pred == "invoice_subtotal":
        return verdict(one("subtotal", (a["invoice_id"],), cites), a["amount"])
    if pred == "invoice_total":
        return verdict(one("total", (a["invoice_id"],), cites), a["amount"])
    if pred == "contract_unit_price":
        return verdict(contract_price(a["contract_id"], a["item"], a.get("quantity"), cites), a["unit_price"])
    if pred == "unit_price_variance":
        bp = one("billed_price", (a["invoice_id"], a["line"]), cites)
        bq = one("billed_qty", (a["invoice_id"], a["line"]), cites)
        cp = None if bq is None else contract_price(a["contract_id"], a["item"], bq, cites)
        return verdict(None if bp is None or cp is None else round(bp - cp, 2), a["amount"])
    if pred == "quantity_variance":
        bq = one("billed_qty", (a["invoice_id"], a["line"]), cites)
        rq = one("received_qty", (a["receipt_id"], a["line"]), cites)
        return verdict(None if bq is None or rq is None else bq - rq, a["quantity"])
    if pred == "payment_due_date":
        return verdict(due_date(a["invoice_id"], cites), a["date"], num=False)
    if pred == "days_late":
        return verdict(days_late(a["po_id"], a["receipt_id"], cites), a["days"])
    if pred == "late_delivery_credit":
        cid = a["contract_id"]
        dl = days_late(a["po_id"], a["receipt_id"], cites)
        link = one("gr_po", (a["receipt_id"],), cites)
        rate = one("late_rate", (cid,), cites)
        cap = one("late_cap", (cid,), cites)
        part = one("late_partweeks", (cid,), cites)
        base = one("po_net_value", (a["po_id"],), cites)
        if dl is None or link is None or rate is None or cap is None or part is None:
            return U
        weeks = dl // rate[1]
        if weeks == 0:
            return verdict(0.0, a["amount"])
        if base is None:
            return U
        credit = min(weeks * rate[0], cap) * base / 100.0
        return verdict(round(credit + 1e-9, 2), a["amount"])
    if pred == "requires_approval":
        sub = one("subtotal", (a["invoice_id"],), cites)
        thr = one("approval_threshold", (), cites)
        return verdict(None if sub is None or thr is None else sub >= thr, a["value"], num=False)
    if pred == "duplicate_invoice_number":
        inv = a["invoice_id"]
        holders = [d for d in cites if one("invoice_number", (), [d]) == inv]
        if not holders:
            return U
        vendors = [one("vendor", (inv,), [d]) for d in holders]
        dup = len(holders) >= 2 and len(set(vendors)) == 1
        return verdict(dup, a["value"], num=False)
    if pred == "vendor_name":
        return verdict(one("vendor", (a["document_id"],), cites), a["vendor"], num=False)
    if pred == "liability_cap":
        cap = one("liability_cap", (a["contract_id"],), cites)
        if cap is None:
            return U
        if a.get("currency") not in (None, cap[1]):
            return X
        return verdict(cap[0], a["amount"])
    if pred == "notice_period_days":
        return verdict(one("notice_days", (a["contract_id"],), cites), a["days"])
    if pred == "term_end_date":
        return verdict(one("term_end", (a["contract_id"],), cites), a["date"], num=False)
    if pred == "effective_date":
        return verdict(one("effective_date", (a["contract_id"],), cites), a["date"], num=False)
    if pred == "contract_party":
        role = {"buyer": "buyer", "customer": "buyer", "supplier": "supplier", "vendor": "supplier"}[a["role"]]
        return verdict(one("party", (a["contract_id"], role), cites), a["name"], num=False)
    raise ValueError(pred)


# ---------------------------------------------------------------- shapes
def check_args(cid, pred, args):
    spec = CATALOGUE[pred]
    for k in args:
        if k not in spec:
            fail(f"{cid}: {pred} has unknown arg {k}")
    for k, t in spec.items():
        opt = t.endswith("?")
        t = t.rstrip("?")
        if k not in args:
            if opt:
                continue
            fail(f"{cid}: {pred} misses arg {k}")
        v = args[k]
        if v is None and opt:
            continue
        if t in ("id", "str", "line"):
            ok = isinstance(v, str) and v.strip() != ""
        elif t == "num":
            ok = isinstance(v, (int, float)) and not isinstance(v, bool)
        elif t == "int":
            ok = isinstance(v, int) and not isinstance(v, bool)
        elif t == "bool":
            ok = isinstance(v, bool)
        elif t == "date":
            ok = isinstance(v, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", v) is not None
            if ok:
                dt.date.fromisoformat(v)
        elif t == "cur":
            ok = isinstance(v, str) and re.fullmatch(r"[A-Z]{3}", v) is not None
        elif t == "role":
            ok = v in ("buyer", "supplier", "customer", "vendor")
        else:
            ok = False
        if not ok:
            fail(f"{cid}: {pred}.{k} has bad value {v!r}")


def aggregate(labels):
    if all(l == S for l in labels):
        return S
    if any(l == X for l in labels):
        return X
    return U


def main():
    docs = load_docs()
    check_facts(docs)

    # manifest
    with open(os.path.join(HERE, "manifest.json"), encoding="utf-8") as fh:
        manifest = json.load(fh)
    if set(manifest) != set(docs):
        fail(f"manifest/documents mismatch: {set(manifest) ^ set(docs)}")
    for name, entry in manifest.items():
        if list(entry) != ["media_type", "title"]:
            fail(f"manifest entry keys for {name}")
        if name.endswith(".json"):
            if entry["media_type"] != "application/json":
                fail(f"media type of {name}")
        else:
            if entry["media_type"] != "text/plain; charset=utf-8":
                fail(f"media type of {name}")
            if entry["title"] != docs[name].split("\n", 1)[0]:
                fail(f"title of {name} is not its first line")
        if not entry["title"].strip():
            fail(f"empty title for {name}")
    if not 14 <= len(docs) <= 18:
        fail(f"{len(docs)} documents")

    # claims
    claims = []
    with open(os.path.join(HERE, "claims.jsonl"), encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if line.strip():
                claims.append(json.loads(line))
    pred_count = {p: 0 for p in CATALOGUE}
    n_props = n_supported = n_block_bad = 0
    for i, c in enumerate(claims, 1):
        cid = c.get("id")
        if list(c) != ["id", "text", "blocking", "expected", "propositions", "note"]:
            fail(f"{cid}: claim keys/order {list(c)}")
        if cid != f"k{i:03d}":
            fail(f"claim id {cid} out of sequence (expected k{i:03d})")
        if not isinstance(c["text"], str) or not c["text"].strip():
            fail(f"{cid}: text")
        if not isinstance(c["blocking"], bool):
            fail(f"{cid}: blocking")
        if not isinstance(c["note"], str) or not c["note"].strip():
            fail(f"{cid}: note")
        if not c["propositions"]:
            fail(f"{cid}: no propositions")
        labels = []
        for p in c["propositions"]:
            if list(p) != ["pred", "args", "cites", "expected"]:
                fail(f"{cid}: proposition keys/order {list(p)}")
            pred = p["pred"]
            if pred not in CATALOGUE:
                fail(f"{cid}: unknown predicate {pred}")
            check_args(cid, pred, p["args"])
            if not p["cites"] or not all(isinstance(x, str) and x in docs for x in p["cites"]):
                fail(f"{cid}: bad cites {p['cites']}")
            if len(set(p["cites"])) != len(p["cites"]):
                fail(f"{cid}: repeated cite")
            if p["expected"] not in (S, X, U):
                fail(f"{cid}: bad proposition label")
            if pred != "statement":
                try:
                    got = evaluate(pred, p["args"], p["cites"])
                except Inconsistent as e:
                    fail(f"{cid}: inconsistent fact base: {e}")
                if got != p["expected"]:
                    fail(f"{cid}: {pred} {p['args']} on {p['cites']}: recomputed {got}, labelled {p['expected']}")
            labels.append(p["expected"])
            pred_count[pred] += 1
            n_props += 1
        if aggregate(labels) != c["expected"]:
            fail(f"{cid}: claim label {c['expected']} does not aggregate {labels}")
        if c["expected"] == S:
            n_supported += 1
        elif c["blocking"]:
            n_block_bad += 1

    if not 85 <= len(claims) <= 100:
        fail(f"{len(claims)} claims")
    for pred, n in pred_count.items():
        if pred != "statement" and n < 2:
            fail(f"predicate {pred} used {n} times")
    if not 5 <= pred_count["statement"] <= 8:
        fail(f"{pred_count['statement']} statement propositions")
    if n_supported < 45:
        fail(f"only {n_supported} supported claims")
    if n_block_bad < 15:
        fail(f"only {n_block_bad} blocking contradicted/unsupported claims")

    sha = hashlib.sha256(open(os.path.join(HERE, "claims.jsonl"), "rb").read()).hexdigest()
    print(f"documents={len(docs)} claims={len(claims)} propositions={n_props} "
          f"supported={n_supported} blocking_bad={n_block_bad} sha256={sha}")
    print("OK")


if __name__ == "__main__":
    main()
