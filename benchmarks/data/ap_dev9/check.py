#!/usr/bin/env python3
"""Self-check for the ap_dev9 evaluation set.

A hand-entered fact base (each fact typed from the documents, with the exact text snippet or
JSON path it comes from) is used to recompute the expected label of every non-statement
proposition; the script also checks claim-level aggregation, argument shapes, citations and
that every fact really occurs in its document. Prints OK when everything agrees.
"""
import datetime as dt
import json
import os
import re
import sys
from decimal import Decimal

HERE = os.path.dirname(os.path.abspath(__file__))
DOCS = os.path.join(HERE, "documents")

C = "rv-2026-014_rahmenvertrag.txt"
P1 = "po_4500012871.txt"
P2 = "po_4500012904.txt"
P3 = "po_4500012933.txt"
P4 = "erp_po_4500012958.json"
G1 = "gr_5000034410.txt"
G2 = "gr_5000034462.txt"
G3 = "erp_gr_5000034488.json"
I1 = "inv_RE-2026-0317.txt"
I1D = "inv_RE-2026-0317_resent.txt"
I2 = "inv_RE-2026-0342.txt"
I3 = "inv_SPI-INV-26-0088.txt"
I4 = "inv_SPI-INV-26-0091.txt"
POL = "payment_policy_FIN-RL-07.txt"
EM = "email_sakuragawa_2026-03-10.txt"
MR = "erp_match_SPI-INV-26-0088.json"
RV = "RV-2026-014"

GLB = "Glattal Laborbedarf AG"
SPI = "Sakuragawa Precision Instruments Co., Ltd."
LIBF = "Limmat-Institut für Biomedizinische Forschung"

FACTS = []  # (file, slot tuple, value, evidence: str snippet or ("json", path list))


def F(file, slot, value, evidence):
    FACTS.append((file, tuple(slot), value, evidence))


def D(s):
    return dt.date.fromisoformat(s)


def J(*path):
    return ("json", list(path))


# ---------------------------------------------------------------- contract RV-2026-014
F(C, ("effective_date", RV), D("2026-01-01"), "Dieser Vertrag tritt am 01.01.2026 in Kraft (Effective Date).")
F(C, ("term_end_date", RV), D("2027-12-31"), "Die feste Grundlaufzeit endet am 31.12.2027.")
F(C, ("notice_period_days", RV), 90, "Kündigungsfrist von neunzig (90) Tagen")
F(C, ("liability_cap", RV), Decimal("250000.00"), "insgesamt auf CHF 250'000.00 begrenzt.")
F(C, ("liability_cap_currency", RV), "CHF", "insgesamt auf CHF 250'000.00 begrenzt.")
F(C, ("contract_party", RV, "buyer"), LIBF, 'Limmat-Institut für Biomedizinische Forschung\nLaborweg 41, 8008 Zürich, Schweiz\n(nachfolgend "Auftraggeber" / the "Buyer")')
F(C, ("contract_party", RV, "supplier"), GLB, 'Glattal Laborbedarf AG\nIndustriestrasse 27, 8600 Dübendorf, Schweiz\nUID: CHE-412.907.335 MWST\n(nachfolgend "Lieferant" / the "Supplier")')
F(C, ("vendor", RV), GLB, 'Glattal Laborbedarf AG\nIndustriestrasse 27, 8600 Dübendorf, Schweiz\nUID: CHE-412.907.335 MWST\n(nachfolgend "Lieferant" / the "Supplier")')
F(C, ("contract_terms_days", RV), 30, "5.2 Zahlungsbedingungen: 30 Tage netto ab Rechnungsdatum (Net 30 from invoice date).")
F(C, ("late_rate_pct", RV), Decimal("0.5"), "schreibt der Lieferant dem Auftraggeber 0.5 % des Bestellwerts (Nettobestellwert der")
F(C, ("late_cap_pct", RV), Decimal("5"), "höchstens jedoch insgesamt 5 % des")
# price schedule: (item, min, max) -> price ; max None = open-ended
TIERS = [
    ("GLB-PT-1000", 1, 49, "14.80", "| 1 – 49             | 14.80           |"),
    ("GLB-PT-1000", 50, 199, "13.90", "| 50 – 199           | 13.90           |"),
    ("GLB-PT-1000", 200, None, "12.95", "| ab 200             | 12.95           |"),
    ("GLB-ZR-50", 1, 99, "18.40", "| 1 – 99             | 18.40           |"),
    ("GLB-ZR-50", 100, 299, "17.20", "| 100 – 299          | 17.20           |"),
    ("GLB-ZR-50", 300, None, "16.10", "| ab 300             | 16.10           |"),
    ("GLB-NT-0200", 1, 49, "11.60", "| 1 – 49             | 11.60           |"),
    ("GLB-NT-0200", 50, None, "10.90", "| ab 50              | 10.90           |"),
    ("GLB-KF-T75", 1, 19, "212.00", "| 1 – 19             | 212.00          |"),
    ("GLB-KF-T75", 20, None, "198.50", "| ab 20              | 198.50          |"),
    ("GLB-FBS-500", 1, None, "389.00", "| jede Menge         | 389.00          |"),
]
for item, lo, hi, price, ev in TIERS:
    F(C, ("contract_tier", RV, item, lo, hi), Decimal(price), ("row", item, ev))

# ---------------------------------------------------------------- PO 4500012871 (pipe table)
F(P1, ("vendor", "4500012871"), GLB, "Lieferant: Glattal Laborbedarf AG, Industriestrasse 27, 8600 Dübendorf")
F(P1, ("po_date", "4500012871"), D("2026-02-02"), "Bestelldatum: 02.02.2026")
F(P1, ("required_date", "4500012871"), D("2026-02-20"), "Liefertermin (Required delivery date): 20.02.2026")
F(P1, ("po_net_value", "4500012871"), Decimal("9716.00"), "Bestellwert netto (exkl. MWST): CHF 9'716.00")
for line, item, qty, ev in [
    ("1", "GLB-PT-1000", 240, "| 1   | GLB-PT-1000 | Pipettenspitzen 1000 µl, steril     | 240   | Rack à 96   | 12.95           | 3'108.00   |"),
    ("2", "GLB-ZR-50", 120, "| 2   | GLB-ZR-50   | Zentrifugenröhrchen 50 ml, PP       | 120   | Beutel à 25 | 17.20           | 2'064.00   |"),
    ("3", "GLB-NT-0200", 60, "| 3   | GLB-NT-0200 | Nitril-Handschuhe Grösse M          | 60    | Box à 200   | 10.90           | 654.00     |"),
    ("4", "GLB-FBS-500", 10, "| 4   | GLB-FBS-500 | Fötales Kälberserum (FBS), 500 ml   | 10    | Flasche     | 389.00          | 3'890.00   |"),
]:
    F(P1, ("ordered_quantity", "4500012871", line), qty, ev)
    F(P1, ("po_item", "4500012871", line), item, ev)

# ---------------------------------------------------------------- PO 4500012904 (fixed width)
F(P2, ("vendor", "4500012904"), GLB, "Lieferant ............ Glattal Laborbedarf AG (Lief.-Nr. 100311)")
F(P2, ("po_date", "4500012904"), D("2026-02-23"), "Bestelldatum ......... 23.02.2026")
F(P2, ("required_date", "4500012904"), D("2026-03-11"), "Liefertermin ......... 11.03.2026")
F(P2, ("po_net_value", "4500012904"), Decimal("10706.00"), "Bestellwert netto (exkl. MWST)   CHF     10'706.00")
for line, item, qty, ev in [
    ("1", "GLB-KF-T75", 24, "  1  GLB-KF-T75    Zellkulturflaschen T75, TC-behandelt      24  Karton à 100        198.50      4'764.00"),
    ("2", "GLB-ZR-50", 300, "  2  GLB-ZR-50     Zentrifugenröhrchen 50 ml, PP            300  Beutel à 25          16.10      4'830.00"),
    ("3", "GLB-PT-1000", 80, "  3  GLB-PT-1000   Pipettenspitzen 1000 µl, steril           80  Rack à 96            13.90      1'112.00"),
]:
    F(P2, ("ordered_quantity", "4500012904", line), qty, ev)
    F(P2, ("po_item", "4500012904", line), item, ev)

# ---------------------------------------------------------------- PO 4500012933 (Sakuragawa)
F(P3, ("vendor", "4500012933"), SPI, "Supplier:                Sakuragawa Precision Instruments Co., Ltd.")
F(P3, ("po_date", "4500012933"), D("2026-02-09"), "PO date:                 09.02.2026")
F(P3, ("required_date", "4500012933"), D("2026-03-16"), "Required delivery date:  16.03.2026")
F(P3, ("po_net_value", "4500012933"), Decimal("3332800"), "PO net value: JPY 3,332,800")
for line, item, qty, ev in [
    ("1", "SPI-MS-400", 2, "1    | SPI-MS-400 | Stereo microscope MS-400, 8x-80x zoom     | 2   | EA   | 1,284,000      | 2,568,000"),
    ("2", "SPI-LED-RL2", 4, "2    | SPI-LED-RL2| LED ring light RL-2 for MS series         | 4   | EA   | 46,500         | 186,000"),
    ("3", "SPI-CAM-12", 2, "3    | SPI-CAM-12 | Microscope camera MC-12, 12 MP, USB 3.0   | 2   | EA   | 218,000        | 436,000"),
    ("4", "SPI-OBJ-05", 6, "4    | SPI-OBJ-05 | Auxiliary objective 0.5x, MS series       | 6   | EA   | 23,800         | 142,800"),
]:
    F(P3, ("ordered_quantity", "4500012933", line), qty, ev)
    F(P3, ("po_item", "4500012933", line), item, ev)

# ---------------------------------------------------------------- ERP PO 4500012958 (JSON)
PO4 = ["data", "purchase_order"]
F(P4, ("vendor", "4500012958"), SPI, J(*PO4, "header", "supplier", "name"))
F(P4, ("po_date", "4500012958"), D("2026-03-02"), J(*PO4, "header", "document_date"))
F(P4, ("required_date", "4500012958"), D("2026-04-15"), J(*PO4, "header", "schedule", "required_delivery_date"))
F(P4, ("po_net_value", "4500012958"), Decimal("1356300"), J(*PO4, "totals", "net_value"))
for idx, (line, item, qty) in enumerate([("1", "SPI-LMP-H20", 10), ("2", "SPI-FLT-GRN", 3), ("3", "SPI-MS-400", 1)]):
    F(P4, ("po_line_label", "4500012958", idx), line, J(*PO4, "items", idx, "line"))
    F(P4, ("ordered_quantity", "4500012958", line), qty, J(*PO4, "items", idx, "quantity", "ordered"))
    F(P4, ("po_item", "4500012958", line), item, J(*PO4, "items", idx, "material", "code"))

# ---------------------------------------------------------------- GR 5000034410 (fixed width)
F(G1, ("vendor", "5000034410"), GLB, "Lieferant:                     Glattal Laborbedarf AG")
F(G1, ("receipt_date", "5000034410"), D("2026-02-19"), "Buchungsdatum / Lieferdatum:   19.02.2026")
F(G1, ("receipt_po", "5000034410"), "4500012871", "Bestellnummer:                 4500012871")
for line, qty, ev in [
    ("1", 240, "  1  GLB-PT-1000   Pipettenspitzen 1000 µl, steril           240        240  Rack à 96"),
    ("2", 120, "  2  GLB-ZR-50     Zentrifugenröhrchen 50 ml, PP             120        120  Beutel à 25"),
    ("3", 60, "  3  GLB-NT-0200   Nitril-Handschuhe Grösse M                 60         60  Box à 200"),
    ("4", 10, "  4  GLB-FBS-500   Fötales Kälberserum (FBS), 500 ml           10         10  Flasche"),
]:
    F(G1, ("received_quantity", "5000034410", line), qty, ev)

# ---------------------------------------------------------------- GR 5000034462 (key: value)
F(G2, ("vendor", "5000034462"), GLB, "Lieferant: Glattal Laborbedarf AG")
F(G2, ("receipt_date", "5000034462"), D("2026-03-23"), "Lieferdatum: 23.03.2026")
F(G2, ("receipt_po", "5000034462"), "4500012904", "Bestellnummer: 4500012904")
for line, qty, ev in [
    ("1", 24, "Position 1\n  Artikel: GLB-KF-T75\n  Bezeichnung: Zellkulturflaschen T75, TC-behandelt\n  Menge geliefert: 24 Karton à 100"),
    ("2", 300, "Position 2\n  Artikel: GLB-ZR-50\n  Bezeichnung: Zentrifugenröhrchen 50 ml, PP\n  Menge geliefert: 300 Beutel à 25"),
    ("3", 80, "Position 3\n  Artikel: GLB-PT-1000\n  Bezeichnung: Pipettenspitzen 1000 µl, steril\n  Menge geliefert: 80 Rack à 96"),
]:
    F(G2, ("received_quantity", "5000034462", line), qty, ev)

# ---------------------------------------------------------------- GR 5000034488 (ERP JSON, partial)
MD = ["data", "material_document"]
F(G3, ("vendor", "5000034488"), SPI, J(*MD, "header", "supplier", "name"))
F(G3, ("receipt_date", "5000034488"), D("2026-03-13"), J(*MD, "header", "posting_date"))
F(G3, ("receipt_po", "5000034488"), "4500012933", J(*MD, "header", "references", "purchase_order"))
for idx, (line, qty) in enumerate([("1", 2), ("2", 4), ("3", 1), ("4", 6)]):
    F(G3, ("gr_line_label", "5000034488", idx), line, J(*MD, "items", idx, "po_ref", "po_line"))
    F(G3, ("gr_line_po", "5000034488", idx), "4500012933", J(*MD, "items", idx, "po_ref", "po_number"))
    F(G3, ("received_quantity", "5000034488", line), qty, J(*MD, "items", idx, "receipt", "quantity", "value"))

# ---------------------------------------------------------------- invoice RE-2026-0317 (+ re-sent copy)
for f in (I1, I1D):
    inv = "RE-2026-0317"
    F(f, ("invoice_number", f), inv, "Rechnungsnummer: RE-2026-0317")
    F(f, ("vendor", inv), GLB, "Glattal Laborbedarf AG\nIndustriestrasse 27 · 8600 Dübendorf")
    F(f, ("invoice_vendor_of_file", f), GLB, "Glattal Laborbedarf AG\nIndustriestrasse 27 · 8600 Dübendorf")
    F(f, ("invoice_date", inv), D("2026-02-20"), "Rechnungsdatum: 20.02.2026")
    F(f, ("invoice_currency", inv), "CHF", "RECHNUNGSTOTAL (Total amount due):            CHF 10'518.87")
    F(f, ("invoice_terms_days", inv), 30, "Zahlungsbedingungen: 30 Tage netto (Net 30 days from invoice date)")
    F(f, ("invoice_subtotal", inv), Decimal("9944.00"), "Zwischensumme (Subtotal):                     CHF  9'944.00")
    F(f, ("invoice_total", inv), Decimal("10518.87"), "RECHNUNGSTOTAL (Total amount due):            CHF 10'518.87")
    for line, item, qty, price, amt, ev in [
        ("1", "GLB-PT-1000", 240, "13.90", "3336.00", "| 1   | GLB-PT-1000 | Pipettenspitzen 1000 µl, steril     | 240   | 13.90           | 3'336.00   |"),
        ("2", "GLB-ZR-50", 120, "17.20", "2064.00", "| 2   | GLB-ZR-50   | Zentrifugenröhrchen 50 ml, PP       | 120   | 17.20           | 2'064.00   |"),
        ("3", "GLB-NT-0200", 60, "10.90", "654.00", "| 3   | GLB-NT-0200 | Nitril-Handschuhe Grösse M          | 60    | 10.90           | 654.00     |"),
        ("4", "GLB-FBS-500", 10, "389.00", "3890.00", "| 4   | GLB-FBS-500 | Fötales Kälberserum (FBS), 500 ml   | 10    | 389.00          | 3'890.00   |"),
    ]:
        F(f, ("invoice_item", inv, line), item, ev)
        F(f, ("billed_quantity", inv, line), qty, ev)
        F(f, ("billed_unit_price", inv, line), Decimal(price), ev)
        F(f, ("billed_line_amount", inv, line), Decimal(amt), ev)

# ---------------------------------------------------------------- invoice RE-2026-0342 (CSV)
inv = "RE-2026-0342"
F(I2, ("invoice_number", I2), inv, "RECHNUNG RE-2026-0342")
F(I2, ("vendor", inv), GLB, "Glattal Laborbedarf AG\nIndustriestrasse 27, 8600 Dübendorf")
F(I2, ("invoice_vendor_of_file", I2), GLB, "Glattal Laborbedarf AG\nIndustriestrasse 27, 8600 Dübendorf")
F(I2, ("invoice_date", inv), D("2026-03-24"), "Rechnungsdatum: 24.03.2026")
F(I2, ("invoice_currency", inv), "CHF", "Rechnungsbetrag: CHF 11'573.19")
F(I2, ("invoice_terms_contract", inv), RV, "Zahlungsbedingungen: gemäss Rahmenvertrag RV-2026-014")
F(I2, ("invoice_subtotal", inv), Decimal("10706.00"), "Zwischensumme: CHF 10'706.00")
F(I2, ("invoice_total", inv), Decimal("11573.19"), "Rechnungsbetrag: CHF 11'573.19")
for line, item, qty, price, amt, ev in [
    ("1", "GLB-KF-T75", 24, "198.50", "4764.00", "1,GLB-KF-T75,\"Zellkulturflaschen T75, TC-behandelt\",24,Karton à 100,198.50,4'764.00"),
    ("2", "GLB-ZR-50", 300, "16.10", "4830.00", "2,GLB-ZR-50,\"Zentrifugenröhrchen 50 ml, PP\",300,Beutel à 25,16.10,4'830.00"),
    ("3", "GLB-PT-1000", 80, "13.90", "1112.00", "3,GLB-PT-1000,\"Pipettenspitzen 1000 µl, steril\",80,Rack à 96,13.90,1'112.00"),
]:
    F(I2, ("invoice_item", inv, line), item, ev)
    F(I2, ("billed_quantity", inv, line), qty, ev)
    F(I2, ("billed_unit_price", inv, line), Decimal(price), ev)
    F(I2, ("billed_line_amount", inv, line), Decimal(amt), ev)

# ---------------------------------------------------------------- invoice SPI-INV-26-0088 (two pages)
inv = "SPI-INV-26-0088"
F(I3, ("invoice_number", I3), inv, "Invoice No.   : SPI-INV-26-0088")
F(I3, ("vendor", inv), SPI, "SAKURAGAWA PRECISION INSTRUMENTS CO., LTD.")
F(I3, ("invoice_vendor_of_file", I3), SPI, "SAKURAGAWA PRECISION INSTRUMENTS CO., LTD.")
F(I3, ("invoice_date", inv), D("2026-03-11"), "Invoice Date  : 2026/03/11")
F(I3, ("invoice_currency", inv), "JPY", "TOTAL AMOUNT DUE         JPY 3,417,300")
F(I3, ("invoice_terms_days", inv), 60, "Payment terms : Net 60 days from invoice date")
F(I3, ("invoice_subtotal", inv), Decimal("3332800"), "Subtotal                     3,332,800")
F(I3, ("invoice_total", inv), Decimal("3417300"), "TOTAL AMOUNT DUE         JPY 3,417,300")
for line, item, qty, price, amt, ev in [
    ("1", "SPI-MS-400", 2, "1284000", "2568000", "1     SPI-MS-400    Stereo microscope MS-400, 8x-80x zoom          2    1,284,000     2,568,000"),
    ("2", "SPI-LED-RL2", 4, "46500", "186000", "2     SPI-LED-RL2   LED ring light RL-2 for MS series              4       46,500       186,000"),
    ("3", "SPI-CAM-12", 2, "218000", "436000", "3     SPI-CAM-12    Microscope camera MC-12, 12 MP, USB 3.0        2      218,000       436,000"),
    ("4", "SPI-OBJ-05", 6, "23800", "142800", "4     SPI-OBJ-05    Auxiliary objective 0.5x, MS series            6       23,800       142,800"),
]:
    F(I3, ("invoice_item", inv, line), item, ev)
    F(I3, ("billed_quantity", inv, line), qty, ev)
    F(I3, ("billed_unit_price", inv, line), Decimal(price), ev)
    F(I3, ("billed_line_amount", inv, line), Decimal(amt), ev)

# ---------------------------------------------------------------- invoice SPI-INV-26-0091 (key: value)
inv = "SPI-INV-26-0091"
F(I4, ("invoice_number", I4), inv, "Invoice No.: SPI-INV-26-0091")
F(I4, ("vendor", inv), SPI, "SAKURAGAWA PRECISION INSTRUMENTS CO., LTD.")
F(I4, ("invoice_vendor_of_file", I4), SPI, "SAKURAGAWA PRECISION INSTRUMENTS CO., LTD.")
F(I4, ("invoice_date", inv), D("2026-03-27"), "Invoice Date: 2026/03/27")
F(I4, ("invoice_currency", inv), "JPY", "Currency: JPY")
F(I4, ("invoice_terms_days", inv), 60, "Payment Terms: Net 60 days from invoice date")
F(I4, ("invoice_subtotal", inv), Decimal("1357470"), "Subtotal: JPY 1,357,470")
F(I4, ("invoice_total", inv), Decimal("1399470"), "Total Amount Due: JPY 1,399,470")
for line, item, qty, price, amt in [
    ("1", "SPI-LMP-H20", 10, "3450", "34500"),
    ("2", "SPI-FLT-GRN", 3, "12900", "38970"),   # printed amount is wrong (3 x 12,900 = 38,700)
    ("3", "SPI-MS-400", 1, "1284000", "1284000"),
]:
    ev = "Line: %s\nItem Code: %s\n" % (line, item)
    F(I4, ("invoice_item", inv, line), item, ev)
    F(I4, ("billed_quantity", inv, line), qty, ("after", ev, "Quantity: %d\n" % qty))
    F(I4, ("billed_unit_price", inv, line), Decimal(price), ("after", ev, "Unit Price: JPY %s\n" % format(int(price), ",")))
    F(I4, ("billed_line_amount", inv, line), Decimal(amt), ("after", ev, "Amount: JPY %s\n" % format(int(amt), ",")))

# ---------------------------------------------------------------- payment policy
F(POL, ("approval_threshold", "CHF"), Decimal("10000.00"), "Schwellenwert CHF: 10'000.00")
F(POL, ("approval_threshold", "JPY"), Decimal("1700000"), "Schwellenwert JPY: 1,700,000")

# ---------------------------------------------------------------- ERP match record (JSON)
MRP = ["data", "match_record"]
F(MR, ("invoice_number", MR), "SPI-INV-26-0088", J(*MRP, "invoice", "number"))
F(MR, ("invoice_total", "SPI-INV-26-0088"), Decimal("3417300"), J(*MRP, "invoice", "amounts", "gross"))
F(MR, ("invoice_subtotal", "SPI-INV-26-0088"), Decimal("3332800"), J(*MRP, "invoice", "amounts", "subtotal"))
F(MR, ("stated_due_date", "SPI-INV-26-0088"), D("2026-05-10"), J(*MRP, "payment", "due_date"))
F(MR, ("mr_receipt", "SPI-INV-26-0088"), "5000034488", J(*MRP, "references", "goods_receipts", 0))
for idx, (line, inv_q, rec_q) in enumerate([("1", 2, 2), ("2", 4, 4), ("3", 2, 1), ("4", 6, 6)]):
    F(MR, ("mr_line_label", idx), line, J(*MRP, "result", "lines", idx, "po_line"))
    F(MR, ("billed_quantity", "SPI-INV-26-0088", line), inv_q, J(*MRP, "result", "lines", idx, "checks", "quantity", "invoiced"))
    # the record lists a single goods receipt (5000034488), so its "received" figures are that receipt's
    F(MR, ("received_quantity", "5000034488", line), rec_q, J(*MRP, "result", "lines", idx, "checks", "quantity", "received"))
    F(MR, ("mr_variance", line), inv_q - rec_q, J(*MRP, "result", "lines", idx, "checks", "quantity", "variance"))

# documents that are invoices (for duplicate detection)
INVOICE_FILES = {I1, I1D, I2, I3, I4}

ERRORS = []


def err(msg):
    ERRORS.append(msg)


# ================================================================ fact verification
def renderings(v):
    out = set()
    if isinstance(v, dt.date):
        out |= {v.strftime("%d.%m.%Y"), v.strftime("%Y/%m/%d"), v.isoformat()}
    elif isinstance(v, bool):
        out.add(str(v))
    elif isinstance(v, (int, Decimal)):
        d = Decimal(v)
        if d == d.to_integral_value():
            i = int(d)
            out |= {str(i), format(i, ","), format(i, ",").replace(",", "'")}
        s2 = format(d, ",.2f")
        out |= {s2, s2.replace(",", "'"), format(d, ".2f"), format(d.normalize(), "f")}
        if d != d.to_integral_value():
            out.add(format(d.normalize(), "f"))
    else:
        out |= {str(v), str(v).upper()}
    return out


def json_get(obj, path):
    for k in path:
        obj = obj[k]
    return obj


TEXT = {}
JSONDOC = {}
for fn in os.listdir(DOCS):
    p = os.path.join(DOCS, fn)
    with open(p, encoding="utf-8") as fh:
        TEXT[fn] = fh.read()
    if fn.endswith(".json"):
        JSONDOC[fn] = json.loads(TEXT[fn])

for file, slot, value, ev in FACTS:
    if file not in TEXT:
        err("fact file missing: %s" % file)
        continue
    txt = TEXT[file]
    if isinstance(ev, tuple) and ev[0] == "json":
        try:
            got = json_get(JSONDOC[file], ev[1])
        except (KeyError, IndexError, TypeError) as e:
            err("json path %s not in %s: %r" % (ev[1], file, e))
            continue
        if isinstance(value, dt.date):
            ok = got == value.isoformat()
        elif isinstance(value, Decimal):
            ok = isinstance(got, (int, float)) and not isinstance(got, bool) and Decimal(str(got)) == value
        else:
            ok = got == value
        if not ok:
            err("json fact %s: %s at %s is %r, expected %r" % (file, slot, ev[1], got, value))
        continue
    if isinstance(ev, tuple) and ev[0] == "row":
        _, item, snippet = ev
        lines = [l for l in txt.splitlines() if item in l and snippet in l]
        if len(lines) != 1:
            err("row fact %s %s: snippet found %d times" % (file, slot, len(lines)))
        if not any(r in snippet for r in renderings(value)):
            err("row fact %s %s: value %r not in snippet" % (file, slot, value))
        continue
    if isinstance(ev, tuple) and ev[0] == "after":
        _, anchor, snippet = ev
        i = txt.find(anchor)
        if i < 0:
            err("anchor missing %s %r" % (file, anchor))
            continue
        nxt = txt.find("\nLine: ", i + len(anchor))
        block = txt[i: nxt if nxt > 0 else len(txt)]
        if snippet not in block:
            err("fact %s %s: %r not in block after %r" % (file, slot, snippet, anchor))
        if not any(r in snippet for r in renderings(value)):
            err("fact %s %s: value %r not in snippet" % (file, slot, value))
        continue
    if ev not in txt:
        err("evidence not found in %s for %s: %r" % (file, slot, ev))
        continue
    if not any(r in ev for r in renderings(value)):
        err("value %r of %s not rendered in its evidence %r" % (value, slot, ev))

# arithmetic sanity of documents (line amounts, totals) using the fact base
def fget_file(file, slot):
    vals = [v for f, s, v, _ in FACTS if f == file and s == tuple(slot)]
    return vals[0] if vals else None

for f, inv, lines, extra in [
    (I1, "RE-2026-0317", ["1", "2", "3", "4"], None),
    (I2, "RE-2026-0342", ["1", "2", "3"], None),
    (I3, "SPI-INV-26-0088", ["1", "2", "3", "4"], None),
]:
    s = Decimal(0)
    for ln in lines:
        q = fget_file(f, ("billed_quantity", inv, ln))
        pr = fget_file(f, ("billed_unit_price", inv, ln))
        a = fget_file(f, ("billed_line_amount", inv, ln))
        if q * pr != a:
            err("line arithmetic %s %s" % (inv, ln))
        s += a
    if s != fget_file(f, ("invoice_subtotal", inv)):
        err("subtotal arithmetic %s" % inv)
# RE-2026-0317: 9944.00 - 3% discount + 85.00 freight, + 8.1% VAT
sub = Decimal("9944.00")
disc = (sub * Decimal("0.03")).quantize(Decimal("0.01"))
net = sub - disc + Decimal("85.00")
vat = (net * Decimal("0.081")).quantize(Decimal("0.01"))
assert (disc, net, vat, net + vat) == (Decimal("298.32"), Decimal("9730.68"), Decimal("788.19"), Decimal("10518.87"))
vat2 = (Decimal("10706.00") * Decimal("0.081")).quantize(Decimal("0.01"))
assert vat2 == Decimal("867.19") and Decimal("10706.00") + vat2 == Decimal("11573.19")
assert Decimal("3332800") + Decimal("84500") == Decimal("3417300")
assert Decimal("34500") + Decimal("38970") + Decimal("1284000") == Decimal("1357470")
assert Decimal("1357470") + Decimal("42000") == Decimal("1399470")
for snippet in ["MWST 8.1 % auf CHF 9'730.68:                  CHF    788.19", "Projektrabatt 3 % (Discount):                 CHF   -298.32",
                "Fracht und Verpackung (Freight):              CHF     85.00", "Total exkl. MWST:                             CHF  9'730.68"]:
    for f in (I1, I1D):
        if snippet not in TEXT[f]:
            err("missing %r in %s" % (snippet, f))
for f, snip in [(I2, "MWST 8.1 %: CHF 867.19"), (I3, "Freight & insurance (CIP)       84,500"), (I4, "Freight & Insurance: JPY 42,000"),
                (P2, "Bestellwert netto (exkl. MWST)   CHF     10'706.00")]:
    if snip not in TEXT[f]:
        err("missing %r in %s" % (snip, f))
# the GR texts must not state required delivery dates (days_late citing a GR alone is unsupported)
for f in (G1, G2):
    if "Liefertermin" in TEXT[f] or "11.03.2026" in TEXT[f] or "20.02.2026" in TEXT[f]:
        err("GR %s unexpectedly mentions the required date" % f)
# the PO 4500012904 must not state the credit rate/cap
if "0.5 %" in TEXT[P2] or "5 %" in TEXT[P2]:
    err("PO 4500012904 states the credit rate")


# ================================================================ evaluation
class Unsup(Exception):
    pass


def get(slot, cites):
    vals = {v for f, s, v, _ in FACTS if s == tuple(slot) and f in cites}
    if not vals:
        raise Unsup(slot)
    if len(vals) > 1:
        err("conflicting values for %s in %s: %s" % (slot, cites, vals))
    return next(iter(vals))


def eq(a, b):
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, (int, Decimal, float)) and isinstance(b, (int, Decimal, float)):
        return Decimal(str(a)) == Decimal(str(b))
    return a == b


def tier_price(cid, item, qty, cites):
    tiers = [(s, v) for f, s, v, _ in FACTS if f in cites and s[:3] == ("contract_tier", cid, item)]
    if not tiers:
        raise Unsup(("contract_tier", cid, item))
    if qty is None:
        if len(tiers) != 1:
            err("contract_unit_price without quantity on multi-tier item %s" % item)
        return tiers[0][1]
    hits = [v for s, v in tiers if s[3] <= qty and (s[4] is None or qty <= s[4])]
    if len(hits) != 1:
        err("tier lookup %s %s" % (item, qty))
    return hits[0]


def days_late(po, rc, cites):
    req = get(("required_date", po), cites)
    rd = get(("receipt_date", rc), cites)
    if get(("receipt_po", rc), cites) != po:
        err("receipt %s is not for PO %s" % (rc, po))
    return max(0, (rd - req).days)


def compute(pred, a, cites):
    """returns the value the cited records give for the proposition's slot"""
    if pred in ("ordered_quantity",):
        return get(("ordered_quantity", a["po_id"], a["line"]), cites), a["quantity"]
    if pred == "received_quantity":
        return get(("received_quantity", a["receipt_id"], a["line"]), cites), a["quantity"]
    if pred == "billed_quantity":
        return get(("billed_quantity", a["invoice_id"], a["line"]), cites), a["quantity"]
    if pred == "billed_unit_price":
        return get(("billed_unit_price", a["invoice_id"], a["line"]), cites), a["unit_price"]
    if pred == "billed_line_amount":
        return get(("billed_line_amount", a["invoice_id"], a["line"]), cites), a["amount"]
    if pred == "computed_line_amount":
        q = get(("billed_quantity", a["invoice_id"], a["line"]), cites)
        p = get(("billed_unit_price", a["invoice_id"], a["line"]), cites)
        return Decimal(q) * p, a["amount"]
    if pred == "invoice_subtotal":
        return get(("invoice_subtotal", a["invoice_id"]), cites), a["amount"]
    if pred == "invoice_total":
        return get(("invoice_total", a["invoice_id"]), cites), a["amount"]
    if pred == "contract_unit_price":
        return tier_price(a["contract_id"], a["item"], a.get("quantity"), cites), a["unit_price"]
    if pred == "unit_price_variance":
        inv, ln = a["invoice_id"], a["line"]
        item = get(("invoice_item", inv, ln), cites)
        if item != a["item"]:
            err("unit_price_variance item mismatch %s %s" % (inv, ln))
        bp = get(("billed_unit_price", inv, ln), cites)
        bq = get(("billed_quantity", inv, ln), cites)
        return bp - tier_price(a["contract_id"], item, bq, cites), a["amount"]
    if pred == "quantity_variance":
        bq = get(("billed_quantity", a["invoice_id"], a["line"]), cites)
        rq = get(("received_quantity", a["receipt_id"], a["line"]), cites)
        return bq - rq, a["quantity"]
    if pred == "payment_due_date":
        inv = a["invoice_id"]
        want = D(a["date"])
        try:
            return get(("stated_due_date", inv), cites), want
        except Unsup:
            pass
        idate = get(("invoice_date", inv), cites)
        try:
            days = get(("invoice_terms_days", inv), cites)
        except Unsup:
            cid = get(("invoice_terms_contract", inv), cites)
            days = get(("contract_terms_days", cid), cites)
        return idate + dt.timedelta(days=days), want
    if pred == "days_late":
        return days_late(a["po_id"], a["receipt_id"], cites), a["days"]
    if pred == "late_delivery_credit":
        n = days_late(a["po_id"], a["receipt_id"], cites)
        val = get(("po_net_value", a["po_id"]), cites)
        rate = get(("late_rate_pct", a["contract_id"]), cites)
        cap = get(("late_cap_pct", a["contract_id"]), cites)
        pct = min(rate * n, cap)
        return (val * pct / 100).quantize(Decimal("0.01")), a["amount"]
    if pred == "requires_approval":
        tot = get(("invoice_total", a["invoice_id"]), cites)
        cur = get(("invoice_currency", a["invoice_id"]), cites)
        thr = get(("approval_threshold", cur), cites)
        return tot >= thr, a["value"]
    if pred == "duplicate_invoice_number":
        inv = a["invoice_id"]
        cited_inv = [f for f in cites if f in INVOICE_FILES]
        mine = [f for f in cited_inv if fget_file(f, ("invoice_number", f)) == inv]
        if not mine:
            raise Unsup(("invoice", inv))
        vend = fget_file(mine[0], ("invoice_vendor_of_file", mine[0]))
        others = [f for f in cited_inv if f != mine[0] and fget_file(f, ("invoice_vendor_of_file", f)) == vend]
        if not others:
            raise Unsup(("other invoice", inv))
        return any(fget_file(f, ("invoice_number", f)) == inv for f in others), a["value"]
    if pred == "vendor_name":
        return get(("vendor", a["document_id"]), cites), a["vendor"]
    if pred == "liability_cap":
        v = get(("liability_cap", a["contract_id"]), cites)
        if a.get("currency") is not None and get(("liability_cap_currency", a["contract_id"]), cites) != a["currency"]:
            return None, "currency-mismatch"
        return v, a["amount"]
    if pred == "notice_period_days":
        return get(("notice_period_days", a["contract_id"]), cites), a["days"]
    if pred == "term_end_date":
        return get(("term_end_date", a["contract_id"]), cites), D(a["date"])
    if pred == "effective_date":
        return get(("effective_date", a["contract_id"]), cites), D(a["date"])
    if pred == "contract_party":
        role = {"customer": "buyer", "vendor": "supplier"}.get(a["role"], a["role"])
        return get(("contract_party", a["contract_id"], role), cites), a["name"]
    raise ValueError(pred)


def label(pred, a, cites):
    try:
        got, want = compute(pred, a, cites)
    except Unsup:
        return "unsupported"
    return "supported" if eq(got, want) else "contradicted"


# ================================================================ argument shapes
NUM = "num"
STR = "str"
DATE = "date"
BOOL = "bool"
SHAPES = {
    "ordered_quantity": {"po_id": STR, "line": STR, "quantity": NUM},
    "received_quantity": {"receipt_id": STR, "line": STR, "quantity": NUM},
    "billed_quantity": {"invoice_id": STR, "line": STR, "quantity": NUM},
    "billed_unit_price": {"invoice_id": STR, "line": STR, "unit_price": NUM},
    "billed_line_amount": {"invoice_id": STR, "line": STR, "amount": NUM},
    "computed_line_amount": {"invoice_id": STR, "line": STR, "amount": NUM},
    "invoice_subtotal": {"invoice_id": STR, "amount": NUM},
    "invoice_total": {"invoice_id": STR, "amount": NUM},
    "contract_unit_price": {"contract_id": STR, "item": STR, "unit_price": NUM, "quantity?": NUM},
    "unit_price_variance": {"invoice_id": STR, "line": STR, "contract_id": STR, "item": STR, "amount": NUM},
    "quantity_variance": {"invoice_id": STR, "receipt_id": STR, "line": STR, "quantity": NUM},
    "payment_due_date": {"invoice_id": STR, "date": DATE},
    "days_late": {"po_id": STR, "receipt_id": STR, "days": NUM},
    "late_delivery_credit": {"po_id": STR, "receipt_id": STR, "contract_id": STR, "amount": NUM},
    "requires_approval": {"invoice_id": STR, "value": BOOL},
    "duplicate_invoice_number": {"invoice_id": STR, "value": BOOL},
    "vendor_name": {"document_id": STR, "vendor": STR},
    "statement": {"text": STR},
    "liability_cap": {"contract_id": STR, "amount": NUM, "currency?": "cur"},
    "notice_period_days": {"contract_id": STR, "days": NUM},
    "term_end_date": {"contract_id": STR, "date": DATE},
    "effective_date": {"contract_id": STR, "date": DATE},
    "contract_party": {"contract_id": STR, "role": "role", "name": STR},
}


def check_shape(cid, pred, args):
    spec = SHAPES.get(pred)
    if spec is None:
        err("%s: unknown predicate %s" % (cid, pred))
        return
    allowed = {k.rstrip("?") for k in spec}
    for k in args:
        if k not in allowed:
            err("%s: unexpected arg %s for %s" % (cid, k, pred))
    for k, t in spec.items():
        opt = k.endswith("?")
        k = k.rstrip("?")
        if k not in args or args[k] is None:
            if not opt:
                err("%s: missing arg %s for %s" % (cid, k, pred))
            continue
        v = args[k]
        if t == NUM:
            ok = isinstance(v, (int, float)) and not isinstance(v, bool)
            if ok and isinstance(v, float) and Decimal(str(v)).as_tuple().exponent < -2:
                ok = False
        elif t == STR:
            ok = isinstance(v, str) and v.strip() != ""
        elif t == DATE:
            ok = isinstance(v, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", v) is not None
            if ok:
                D(v)
        elif t == BOOL:
            ok = isinstance(v, bool)
        elif t == "cur":
            ok = isinstance(v, str) and re.fullmatch(r"[A-Z]{3}", v) is not None
        elif t == "role":
            ok = v in ("buyer", "supplier", "customer", "vendor")
        else:
            ok = False
        if not ok:
            err("%s: bad %s=%r for %s" % (cid, k, v, pred))
        if k == "line" and not re.fullmatch(r"\d+", v or ""):
            err("%s: line %r is not as printed" % (cid, v))


# ================================================================ claims
with open(os.path.join(HERE, "manifest.json"), encoding="utf-8") as fh:
    manifest = json.load(fh)
if set(manifest) != set(TEXT):
    err("manifest and documents differ: %s" % (set(manifest) ^ set(TEXT)))
for fn, meta in manifest.items():
    want = "application/json" if fn.endswith(".json") else "text/plain; charset=utf-8"
    if meta.get("media_type") != want or not meta.get("title"):
        err("manifest entry %s" % fn)

claims = []
with open(os.path.join(HERE, "claims.jsonl"), encoding="utf-8") as fh:
    for n, line in enumerate(fh, 1):
        if line.strip():
            claims.append(json.loads(line))

ORDER = {"contradicted": 0, "unsupported": 1, "supported": 2}
used = set()
cited_files = set()
for i, c in enumerate(claims, 1):
    cid = c.get("id")
    if cid != "m%03d" % i:
        err("claim id %r out of sequence (expected m%03d)" % (cid, i))
    if set(c) != {"id", "text", "blocking", "expected", "propositions", "note"}:
        err("%s: keys %s" % (cid, sorted(c)))
    if not isinstance(c.get("blocking"), bool) or not c.get("text") or not c.get("note"):
        err("%s: blocking/text/note" % cid)
    props = c.get("propositions") or []
    if not props:
        err("%s: no propositions" % cid)
    for q in props:
        if set(q) != {"pred", "args", "cites", "expected"}:
            err("%s: proposition keys %s" % (cid, sorted(q)))
        pred, args, cites, exp = q["pred"], q["args"], q["cites"], q["expected"]
        used.add(pred)
        check_shape(cid, pred, args)
        if not cites or not isinstance(cites, list):
            err("%s: no cites" % cid)
        for f in cites:
            cited_files.add(f)
            if f not in TEXT or f not in manifest:
                err("%s: cited file %s does not exist" % (cid, f))
        if exp not in ORDER:
            err("%s: bad expected %r" % (cid, exp))
        if pred != "statement":
            got = label(pred, args, set(cites))
            if got != exp:
                err("%s: %s expected %s but facts give %s" % (cid, pred, exp, got))
    agg = min((q["expected"] for q in props), key=lambda e: ORDER[e]) if props else None
    if c.get("expected") != agg:
        err("%s: claim expected %s but aggregation gives %s" % (cid, c.get("expected"), agg))

missing = set(SHAPES) - used
if missing:
    err("predicates never used: %s" % sorted(missing))
if not 50 <= len(claims) <= 60:
    err("claim count %d" % len(claims))
if not 14 <= len(TEXT) <= 18:
    err("document count %d" % len(TEXT))
uncited = set(TEXT) - cited_files
if uncited:
    err("documents never cited: %s" % sorted(uncited))

if ERRORS:
    for e in ERRORS:
        print("ERROR:", e)
    sys.exit(1)
from collections import Counter
cnt = Counter(c["expected"] for c in claims)
print("claims=%d supported=%d contradicted=%d unsupported=%d facts=%d docs=%d" % (
    len(claims), cnt["supported"], cnt["contradicted"], cnt["unsupported"], len(FACTS), len(TEXT)))
print("OK")
