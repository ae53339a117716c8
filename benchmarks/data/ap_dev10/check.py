#!/usr/bin/env python3
"""Self-check for the ap_dev10 gold set.

* Verifies every hand-typed fact against the document it was read from
  (text facts: each snippet occurs verbatim and renders the value; JSON facts:
  the JSON path resolves to the value).
* Recomputes the label of every non-statement proposition from the facts held
  by the records it cites (a fact held only by an uncited record does not count).
* Checks claim-level aggregation, argument shapes, citations and the manifest.

Usage:  python3 check.py              -> prints OK or the list of problems
        python3 check.py --mutations  -> also flips every non-statement
                                         proposition label to both other labels
                                         and confirms each flip is caught.
"""
import copy
import json
import os
import re
import sys
from datetime import date, timedelta

HERE = os.path.dirname(os.path.abspath(__file__))
DOCS = os.path.join(HERE, "documents")

CT = "01_contrat_RESA-CT-2025-031.txt"
POL = "02_politique_paiement_POL-FIN-07.txt"
P117 = "03_bc_BC-2026-0117.txt"
P142 = "04_bc_BC-2026-0142.txt"
P151 = "05_po_BC-2026-0151.txt"
P163 = "06_erp_po_BC-2026-0163.json"
R88 = "07_reception_REC-2026-0088.txt"
R101 = "08_receiving_REC-2026-0101.txt"
R231 = "09_erp_receipt_RCV-70231.json"
F417 = "10_facture_FA-30417.txt"
F488 = "11_facture_FA-30488.txt"
F488R = "12_facture_FA-30488_renvoi.txt"
F552 = "13_facture_FA-30552.txt"
K214 = "14_invoice_INV-88214.txt"
MAIL = "15_courriel_borealis_2026-03-26.txt"
MATCH = "16_erp_match_status_2026-04-02.json"

CONTRACT = "RESA-CT-2025-031"
BOREALIS = "Produits chimiques Boréalis inc."
KEYSTONE = "Keystone Flow Fittings, LLC"
REGIE = "Régie de l'eau potable de Saint-Aurèle-sur-Rivière"

VENDOR_ALIASES = {
    BOREALIS: ["Produits chimiques Boréalis inc.", "Boréalis Chemicals Inc.",
               "Produits chimiques Boréalis inc. (Boréalis Chemicals Inc.)"],
    KEYSTONE: ["Keystone Flow Fittings, LLC", "Keystone Flow Fittings LLC"],
    REGIE: [REGIE],
}

# ---------------------------------------------------------------------------
# Fact base.  Each fact: (file, kind, key, value, evidence)
#   evidence = list of verbatim snippets (text files) or a JSON path (JSON files)
# kinds:
#   po_qty (po, line)  po_req (po)  po_date (po)  rcv_qty (receipt, line|item)
#   rcv_date (receipt)  inv_qty/inv_price/inv_amt/inv_item (invoice, line)
#   inv_subtotal/inv_total/inv_date/inv_terms/inv_currency/inv_due (invoice)
#   inv_doc () -> (vendor, invoice number)   vendor (document id) -> vendor
#   ct_tier (contract, item, n) -> (min, max, price)   ct_late_rate/ct_late_cap
#   ct_liab -> (amount, currency)  ct_notice  ct_term_end  ct_effective
#   ct_party (contract, role) -> name   pol_threshold (currency) -> (op, amount)
# ---------------------------------------------------------------------------
FACTS = []


def T(f, kind, key, value, *snips):
    FACTS.append((f, kind, tuple(key), value, list(snips)))


def J(f, kind, key, value, path):
    FACTS.append((f, kind, tuple(key), value, path))


# --- contract ---------------------------------------------------------------
T(CT, "ct_tier", (CONTRACT, "HYPO-12", 1), (1, 9999, 0.62),
  "| HYPO-12  | Hypochlorite de sodium 12 % (vrac)       | kg    | 1 à 9 999 kg                    | 0,62 $        |")
T(CT, "ct_tier", (CONTRACT, "HYPO-12", 2), (10000, 24999, 0.58),
  "| HYPO-12  | Hypochlorite de sodium 12 % (vrac)       | kg    | 10 000 à 24 999 kg              | 0,58 $        |")
T(CT, "ct_tier", (CONTRACT, "HYPO-12", 3), (25000, None, 0.55),
  "| HYPO-12  | Hypochlorite de sodium 12 % (vrac)       | kg    | 25 000 kg et plus               | 0,55 $        |")
T(CT, "ct_tier", (CONTRACT, "ALUN-48", 1), (1, 19, 412.00),
  "| ALUN-48  | Sulfate d'aluminium liquide 48 %         | t.m.  | 1 à 19 t.m.                     | 412,00 $      |")
T(CT, "ct_tier", (CONTRACT, "ALUN-48", 2), (20, 49, 398.50),
  "| ALUN-48  | Sulfate d'aluminium liquide 48 %         | t.m.  | 20 à 49 t.m.                    | 398,50 $      |")
T(CT, "ct_tier", (CONTRACT, "ALUN-48", 3), (50, None, 385.00),
  "| ALUN-48  | Sulfate d'aluminium liquide 48 %         | t.m.  | 50 t.m. et plus                 | 385,00 $      |")
T(CT, "ct_tier", (CONTRACT, "PAX-XL6", 1), (1, 4999, 1.14),
  "| PAX-XL6  | Polychlorure d'aluminium                 | kg    | 1 à 4 999 kg                    | 1,14 $        |")
T(CT, "ct_tier", (CONTRACT, "PAX-XL6", 2), (5000, 14999, 1.09),
  "| PAX-XL6  | Polychlorure d'aluminium                 | kg    | 5 000 à 14 999 kg               | 1,09 $        |")
T(CT, "ct_tier", (CONTRACT, "PAX-XL6", 3), (15000, None, 1.03),
  "| PAX-XL6  | Polychlorure d'aluminium                 | kg    | 15 000 kg et plus               | 1,03 $        |")
T(CT, "ct_tier", (CONTRACT, "SOUDE-50", 1), (None, None, 0.77),
  "| SOUDE-50 | Hydroxyde de sodium 50 %                 | kg    | prix unique, toutes quantités   | 0,77 $        |")
T(CT, "ct_late_rate", (CONTRACT,), 175.00, "175,00 $ par jour civil de retard")
T(CT, "ct_late_cap", (CONTRACT,), 1400.00, "Le crédit est plafonné à 1 400,00 $ par livraison.")
T(CT, "ct_liab", (CONTRACT,), (250000.00, "CAD"), "de chacune des parties en vertu du présent contrat est limitée à",
  "250 000,00 $ CAD.")
T(CT, "ct_notice", (CONTRACT,), 90, "résilier le présent contrat sans motif moyennant un",
  "préavis écrit de quatre-vingt-dix (90) jours.")
T(CT, "ct_term_end", (CONTRACT,), "2027-12-31", "La durée initiale du contrat se termine le 31 décembre 2027.")
T(CT, "ct_effective", (CONTRACT,), "2026-01-01", "Le présent contrat entre en vigueur le 1er janvier 2026 (la « Date")
T(CT, "ct_party", (CONTRACT, "buyer"), REGIE,
  "Régie de l'eau potable de Saint-Aurèle-sur-Rivière, organisme municipal",
  "ci-après appelée « l'Acheteur » (the \"Buyer\");")
T(CT, "ct_party", (CONTRACT, "supplier"), BOREALIS,
  "Produits chimiques Boréalis inc. (Boréalis Chemicals Inc.), société par",
  "ci-après appelée « le Fournisseur » (the \"Supplier\").")
T(CT, "vendor", (CONTRACT,), BOREALIS, "Produits chimiques Boréalis inc. (Boréalis Chemicals Inc.), société par")

# --- payment policy ---------------------------------------------------------
T(POL, "pol_threshold", ("CAD",), ("ge", 25000.00), "Toute facture libellée en dollars canadiens dont le total à payer, taxes",
  "et frais de transport inclus, est égal ou supérieur à 25 000,00 $ doit")
T(POL, "pol_threshold", ("USD",), ("gt", 30000.00), "Invoices denominated in US dollars require approval",
  "included) is more than US$30,000.00.")

# --- purchase orders --------------------------------------------------------
T(P117, "po_qty", ("BC-2026-0117", "1"), 24000,
  "| 1     | HYPO-12 | Hypochlorite de sodium 12 %  | 24 000 | kg    | 0,58 $        | 13 920,00 $ |")
T(P117, "po_qty", ("BC-2026-0117", "2"), 6000,
  "| 2     | PAX-XL6 | Polychlorure d'aluminium     | 6 000  | kg    | 1,09 $        | 6 540,00 $  |")
T(P117, "po_date", ("BC-2026-0117",), "2026-02-02", "Date de commande : 02/02/2026", "Format des dates : JJ/MM/AAAA")
T(P117, "po_req", ("BC-2026-0117",), "2026-02-16", "Date de livraison requise : 16/02/2026", "Format des dates : JJ/MM/AAAA")
T(P117, "vendor", ("BC-2026-0117",), BOREALIS, "Fournisseur : Produits chimiques Boréalis inc.")

T(P142, "po_qty", ("BC-2026-0142", "1"), 30,
  "  1  ALUN-48   Sulfate d'aluminium liquide 48 %        30  t.m.    398,50 $   11 955,00 $")
T(P142, "po_qty", ("BC-2026-0142", "2"), 9000,
  "  2  SOUDE-50  Hydroxyde de sodium 50 %             9 000  kg        0,77 $    6 930,00 $")
T(P142, "po_qty", ("BC-2026-0142", "3"), 8000,
  "  3  HYPO-12   Hypochlorite de sodium 12 %          8 000  kg        0,62 $    4 960,00 $")
T(P142, "po_date", ("BC-2026-0142",), "2026-02-20", "Date du bon de commande ....... 20/02/2026")
T(P142, "po_req", ("BC-2026-0142",), "2026-03-06", "Date de livraison requise ..... 06/03/2026",
  "(toutes les dates : JJ/MM/AAAA)")
T(P142, "vendor", ("BC-2026-0142",), BOREALIS, "Fournisseur ................... Produits chimiques Boréalis inc.")

T(P151, "po_qty", ("BC-2026-0151", "1"), 24, '1,DI-ELB-08-90,"8 in. ductile iron 90-degree elbow, MJ",24,EA,186.40,4473.60')
T(P151, "po_qty", ("BC-2026-0151", "2"), 40, '2,MJ-CPL-12,"12 in. restrained coupling",40,EA,312.75,12510.00')
T(P151, "po_qty", ("BC-2026-0151", "3"), 60, '3,FLG-ADP-06,"6 in. flange coupling adapter",60,EA,94.20,5652.00')
T(P151, "po_qty", ("BC-2026-0151", "4"), 1200, '4,SS-BOLT-KIT,"Stainless steel T-bolt kit",1200,EA,2.15,2580.00')
T(P151, "po_date", ("BC-2026-0151",), "2026-03-04", "PO Date: March 4, 2026")
T(P151, "po_req", ("BC-2026-0151",), "2026-03-20", "Required Delivery Date: March 20, 2026")
T(P151, "vendor", ("BC-2026-0151",), KEYSTONE, "Supplier: Keystone Flow Fittings, LLC")

J(P163, "po_qty", ("BC-2026-0163", "1"), 30000, "items[0].lines[0].Quantity")
J(P163, "po_qty", ("BC-2026-0163", "2"), 16000, "items[0].lines[1].Quantity")
J(P163, "po_date", ("BC-2026-0163",), "2026-03-13", "items[0].CreationDate")
J(P163, "po_req", ("BC-2026-0163",), "2026-03-27", "items[0].lines[0].schedules[0].RequestedDeliveryDate")
J(P163, "vendor", ("BC-2026-0163",), BOREALIS, "items[0].supplier.SupplierName")

# --- goods receipts ---------------------------------------------------------
# REC-2026-0088 has no line numbers: lines are keyed by item code.
T(R88, "rcv_qty", ("REC-2026-0088", "HYPO-12"), 24000,
  "HYPO-12        Hypochlorite de sodium 12 %          24 000   kg      Conforme")
T(R88, "rcv_qty", ("REC-2026-0088", "PAX-XL6"), 6000,
  "PAX-XL6        Polychlorure d'aluminium              6 000   kg      Conforme")
T(R88, "rcv_date", ("REC-2026-0088",), "2026-02-27", "Date de réception : 27 février 2026")
T(R88, "vendor", ("REC-2026-0088",), BOREALIS, "Fournisseur : Produits chimiques Boréalis inc.")

T(R101, "rcv_qty", ("REC-2026-0101", "1"), 24, "1    | DI-ELB-08-90 | 8 in. ductile iron 90-degree elbow   | 24       | 0")
T(R101, "rcv_qty", ("REC-2026-0101", "2"), 32, "2    | MJ-CPL-12    | 12 in. restrained coupling           | 32       | 8")
T(R101, "rcv_qty", ("REC-2026-0101", "3"), 60, "3    | FLG-ADP-06   | 6 in. flange coupling adapter        | 60       | 0")
T(R101, "rcv_qty", ("REC-2026-0101", "4"), 1200, "4    | SS-BOLT-KIT  | Stainless steel T-bolt kit           | 1,200    | 0")
T(R101, "rcv_date", ("REC-2026-0101",), "2026-03-18", "Date received: March 18, 2026")
T(R101, "vendor", ("REC-2026-0101",), KEYSTONE, "Supplier: Keystone Flow Fittings, LLC")

# RCV-70231: the receipt sits under the PO lines of BC-2026-0142 (PO line numbers).
J(R231, "po_qty", ("BC-2026-0142", "1"), 30, "items[0].lines[0].OrderedQuantity")
J(R231, "po_qty", ("BC-2026-0142", "2"), 9000, "items[0].lines[1].OrderedQuantity")
J(R231, "po_qty", ("BC-2026-0142", "3"), 8000, "items[0].lines[2].OrderedQuantity")
J(R231, "po_req", ("BC-2026-0142",), "2026-03-06", "items[0].lines[0].schedules[0].NeedByDate")
J(R231, "rcv_qty", ("RCV-70231", "1"), 30, "items[0].lines[0].schedules[0].receipts[0].QuantityReceived")
J(R231, "rcv_qty", ("RCV-70231", "2"), 9000, "items[0].lines[1].schedules[0].receipts[0].QuantityReceived")
J(R231, "rcv_qty", ("RCV-70231", "3"), 8000, "items[0].lines[2].schedules[0].receipts[0].QuantityReceived")
J(R231, "rcv_date", ("RCV-70231",), "2026-03-09", "items[0].lines[0].schedules[0].receipts[0].TransactionDate")
J(R231, "vendor", ("BC-2026-0142",), BOREALIS, "items[0].supplier.SupplierName")

# --- invoices ---------------------------------------------------------------
T(F417, "inv_doc", (), (BOREALIS, "FA-30417"), "PRODUITS CHIMIQUES BORÉALIS INC. / BORÉALIS CHEMICALS INC.",
  "N° de facture : FA-30417")
T(F417, "vendor", ("FA-30417",), BOREALIS, "PRODUITS CHIMIQUES BORÉALIS INC. / BORÉALIS CHEMICALS INC.",
  "N° de facture : FA-30417")
_l1 = "| 1     | HYPO-12 | Hypochlorite de sodium 12 % (kg)   | 24 000 | 0,58 $        | 13 920,00 $ |"
_l2 = "| 2     | PAX-XL6 | Polychlorure d'aluminium (kg)      | 6 000  | 1,09 $        | 6 540,00 $  |"
T(F417, "inv_item", ("FA-30417", "1"), "HYPO-12", _l1)
T(F417, "inv_qty", ("FA-30417", "1"), 24000, _l1)
T(F417, "inv_price", ("FA-30417", "1"), 0.58, _l1)
T(F417, "inv_amt", ("FA-30417", "1"), 13920.00, _l1)
T(F417, "inv_item", ("FA-30417", "2"), "PAX-XL6", _l2)
T(F417, "inv_qty", ("FA-30417", "2"), 6000, _l2)
T(F417, "inv_price", ("FA-30417", "2"), 1.09, _l2)
T(F417, "inv_amt", ("FA-30417", "2"), 6540.00, _l2)
T(F417, "inv_subtotal", ("FA-30417",), 20460.00, "Sous-total : 20 460,00 $")
T(F417, "inv_total", ("FA-30417",), 23496.06, "Total à payer : 23 496,06 $")
T(F417, "inv_date", ("FA-30417",), "2026-03-03", "Date de facture : 03/03/2026          (format des dates : JJ/MM/AAAA)")
T(F417, "inv_terms", ("FA-30417",), 30, "Modalités de paiement : net 30 jours")
T(F417, "inv_currency", ("FA-30417",), "CAD", "Devise : CAD")

# FA-30488: the original and the re-sent copy (envoi n° 2) print identical content.
for _f in (F488, F488R):
    T(_f, "inv_doc", (), (BOREALIS, "FA-30488"), "PRODUITS CHIMIQUES BORÉALIS INC. / BORÉALIS CHEMICALS INC.",
      "N° de facture : FA-30488")
    T(_f, "vendor", ("FA-30488",), BOREALIS, "PRODUITS CHIMIQUES BORÉALIS INC. / BORÉALIS CHEMICALS INC.")
    _a = "1      ALUN-48   Sulfate d'aluminium liquide 48 %      30  t.m.        398,50 $   11 955,00 $"
    _b = "2      SOUDE-50  Hydroxyde de sodium 50 %           9 000  kg            0,77 $    6 930,00 $"
    _c = "3      HYPO-12   Hypochlorite de sodium 12 %        8 000  kg            0,62 $    4 960,00 $"
    for _ln, _s, _item, _q, _p, _m in (("1", _a, "ALUN-48", 30, 398.50, 11955.00),
                                       ("2", _b, "SOUDE-50", 9000, 0.77, 6930.00),
                                       ("3", _c, "HYPO-12", 8000, 0.62, 4960.00)):
        T(_f, "inv_item", ("FA-30488", _ln), _item, _s)
        T(_f, "inv_qty", ("FA-30488", _ln), _q, _s)
        T(_f, "inv_price", ("FA-30488", _ln), _p, _s)
        T(_f, "inv_amt", ("FA-30488", _ln), _m, _s)
    T(_f, "inv_subtotal", ("FA-30488",), 23845.00, "Sous-total : 23 845,00 $")
    T(_f, "inv_total", ("FA-30488",), 27415.79, "Total à payer : 27 415,79 $")
    T(_f, "inv_date", ("FA-30488",), "2026-03-12", "Date de facture : 12 mars 2026")
    T(_f, "inv_terms", ("FA-30488",), 30, "Modalités de paiement : net 30 jours")
    T(_f, "inv_currency", ("FA-30488",), "CAD", "Devise : CAD")

T(F552, "inv_doc", (), (BOREALIS, "FA-30552"), "PRODUITS CHIMIQUES BORÉALIS INC. / BORÉALIS CHEMICALS INC.",
  "N° de facture : FA-30552")
T(F552, "vendor", ("FA-30552",), BOREALIS, "PRODUITS CHIMIQUES BORÉALIS INC. / BORÉALIS CHEMICALS INC.")
_l1 = "| 1     | HYPO-12 | Hypochlorite de sodium 12 % (kg)   | 30 000 | 0,58 $        | 17 400,00 $ |"
_l2 = "| 2     | PAX-XL6 | Polychlorure d'aluminium (kg)      | 16 000 | 1,03 $        | 16 840,00 $ |"
T(F552, "inv_item", ("FA-30552", "1"), "HYPO-12", _l1)
T(F552, "inv_qty", ("FA-30552", "1"), 30000, _l1)
T(F552, "inv_price", ("FA-30552", "1"), 0.58, _l1)
T(F552, "inv_amt", ("FA-30552", "1"), 17400.00, _l1)
T(F552, "inv_item", ("FA-30552", "2"), "PAX-XL6", _l2)
T(F552, "inv_qty", ("FA-30552", "2"), 16000, _l2)
T(F552, "inv_price", ("FA-30552", "2"), 1.03, _l2)
T(F552, "inv_amt", ("FA-30552", "2"), 16840.00, _l2)       # printed; 16 000 x 1,03 = 16 480,00
T(F552, "inv_subtotal", ("FA-30552",), 34240.00, "Sous-total : 34 240,00 $")
T(F552, "inv_total", ("FA-30552",), 39367.44, "Total à payer : 39 367,44 $")
T(F552, "inv_date", ("FA-30552",), "2026-04-01", "Date de facture : 01/04/2026          (JJ/MM/AAAA)")
T(F552, "inv_terms", ("FA-30552",), 30, "Modalités de paiement : net 30 jours")
T(F552, "inv_currency", ("FA-30552",), "CAD", "Devise : CAD")

T(K214, "inv_doc", (), (KEYSTONE, "INV-88214"), "KEYSTONE FLOW FITTINGS, LLC", "Invoice No.:   INV-88214")
T(K214, "vendor", ("INV-88214",), KEYSTONE, "KEYSTONE FLOW FITTINGS, LLC")
for _ln, _s, _item, _q, _p, _m in (
        ("1", '1     DI-ELB-08-90   8" ductile iron 90-deg elbow, MJ      24       $186.40    $4,473.60',
         "DI-ELB-08-90", 24, 186.40, 4473.60),
        ("2", '2     MJ-CPL-12      12" restrained coupling               40       $312.75   $12,510.00',
         "MJ-CPL-12", 40, 312.75, 12510.00),
        ("3", '3     FLG-ADP-06     6" flange coupling adapter            60        $94.20    $5,652.00',
         "FLG-ADP-06", 60, 94.20, 5652.00),
        ("4", '4     SS-BOLT-KIT    Stainless steel T-bolt kit         1,200         $2.15    $2,580.00',
         "SS-BOLT-KIT", 1200, 2.15, 2580.00)):
    T(K214, "inv_item", ("INV-88214", _ln), _item, _s)
    T(K214, "inv_qty", ("INV-88214", _ln), _q, _s)
    T(K214, "inv_price", ("INV-88214", _ln), _p, _s)
    T(K214, "inv_amt", ("INV-88214", _ln), _m, _s)
T(K214, "inv_subtotal", ("INV-88214",), 25215.60, "Subtotal:   $25,215.60")
T(K214, "inv_total", ("INV-88214",), 25633.60, "Total Due:  $25,633.60")
T(K214, "inv_date", ("INV-88214",), "2026-03-20", "Invoice Date:  March 20, 2026")
T(K214, "inv_terms", ("INV-88214",), 45, "Terms:         Net 45")
T(K214, "inv_currency", ("INV-88214",), "USD", "Currency:      USD")

# --- ERP match status (JSON) -------------------------------------------------
J(MATCH, "inv_total", ("FA-30552",), 39367.44, "items[0].InvoiceAmount")
J(MATCH, "inv_date", ("FA-30552",), "2026-04-01", "items[0].InvoiceDate")
J(MATCH, "inv_currency", ("FA-30552",), "CAD", "items[0].InvoiceCurrency")
J(MATCH, "inv_due", ("FA-30552",), "2026-05-01", "items[0].installments[0].DueDate")
J(MATCH, "vendor", ("FA-30552",), BOREALIS, "items[0].supplier.SupplierName")
J(MATCH, "inv_item", ("FA-30552", "1"), "HYPO-12", "items[0].invoiceLines[0].Item")
J(MATCH, "inv_qty", ("FA-30552", "1"), 30000, "items[0].invoiceLines[0].Quantity")
J(MATCH, "inv_price", ("FA-30552", "1"), 0.58, "items[0].invoiceLines[0].UnitPrice")
J(MATCH, "inv_amt", ("FA-30552", "1"), 17400.00, "items[0].invoiceLines[0].Amount")
J(MATCH, "inv_item", ("FA-30552", "2"), "PAX-XL6", "items[0].invoiceLines[1].Item")
J(MATCH, "inv_qty", ("FA-30552", "2"), 16000, "items[0].invoiceLines[1].Quantity")
J(MATCH, "inv_price", ("FA-30552", "2"), 1.03, "items[0].invoiceLines[1].UnitPrice")
J(MATCH, "inv_amt", ("FA-30552", "2"), 16840.00, "items[0].invoiceLines[1].Amount")
J(MATCH, "inv_total", ("INV-88214",), 25633.60, "items[1].InvoiceAmount")
J(MATCH, "inv_date", ("INV-88214",), "2026-03-20", "items[1].InvoiceDate")
J(MATCH, "inv_currency", ("INV-88214",), "USD", "items[1].InvoiceCurrency")
J(MATCH, "inv_due", ("INV-88214",), "2026-05-04", "items[1].installments[0].DueDate")
J(MATCH, "vendor", ("INV-88214",), KEYSTONE, "items[1].supplier.SupplierName")
for _i, (_item, _q, _p, _m, _r) in enumerate((("DI-ELB-08-90", 24, 186.40, 4473.60, 24),
                                               ("MJ-CPL-12", 40, 312.75, 12510.00, 32),
                                               ("FLG-ADP-06", 60, 94.20, 5652.00, 60),
                                               ("SS-BOLT-KIT", 1200, 2.15, 2580.00, 1200))):
    _ln = str(_i + 1)
    _base = "items[1].invoiceLines[%d]" % _i
    J(MATCH, "inv_item", ("INV-88214", _ln), _item, _base + ".Item")
    J(MATCH, "inv_qty", ("INV-88214", _ln), _q, _base + ".Quantity")
    J(MATCH, "inv_price", ("INV-88214", _ln), _p, _base + ".UnitPrice")
    J(MATCH, "inv_amt", ("INV-88214", _ln), _m, _base + ".Amount")
    # the receipt sits under the matched PO line (PO line number == invoice line number, checked below)
    J(MATCH, "rcv_qty", ("REC-2026-0101", _ln), _r, _base + ".matchedTo.receipts[0].QuantityReceived")
    J(MATCH, "rcv_date", ("REC-2026-0101",), "2026-03-18", _base + ".matchedTo.receipts[0].ReceiptDate")
# structural guards for the JSON facts above (evidence only, not used by the evaluator)
J(MATCH, "_guard", ("rcpt-1",), "REC-2026-0101", "items[1].invoiceLines[1].matchedTo.receipts[0].ReceiptNumber")
J(MATCH, "_guard", ("poline-2",), 2, "items[1].invoiceLines[1].matchedTo.POLineNumber")
J(MATCH, "_guard", ("inv-0",), "FA-30552", "items[0].InvoiceNumber")
J(MATCH, "_guard", ("inv-1",), "INV-88214", "items[1].InvoiceNumber")
J(R231, "_guard", ("rcpt",), "RCV-70231", "items[0].lines[2].schedules[0].receipts[0].ReceiptNumber")
J(R231, "_guard", ("po",), "BC-2026-0142", "items[0].OrderNumber")
J(P163, "_guard", ("po",), "BC-2026-0163", "items[0].OrderNumber")

# ---------------------------------------------------------------------------
FR_MONTHS = ["janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août",
             "septembre", "octobre", "novembre", "décembre"]
EN_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
             "September", "October", "November", "December"]
ISO = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def num_renders(v):
    out = set()
    v = float(v)
    s2 = "%.2f" % v
    ip, dp = s2.split(".")
    ip_i = int(ip)
    fr_int = "{:,}".format(ip_i).replace(",", " ")
    en_int = "{:,}".format(ip_i)
    out |= {fr_int + "," + dp, en_int + "." + dp, ip + "." + dp}
    if v == int(v):
        out |= {fr_int, en_int, str(ip_i)}
    else:
        out.add(repr(v))
    return out


def date_renders(iso):
    d = date.fromisoformat(iso)
    day = "1er" if d.day == 1 else str(d.day)
    return {iso, d.strftime("%d/%m/%Y"), "%s %s %d" % (day, FR_MONTHS[d.month - 1], d.year),
            "%s %d, %d" % (EN_MONTHS[d.month - 1], d.day, d.year)}


def renders_in(value, text):
    """True when `value` visibly occurs in `text` in one of the accepted renderings."""
    if value is None or isinstance(value, bool):
        return True
    if isinstance(value, tuple):
        return all(renders_in(x, text) for x in value
                   if not (isinstance(x, str) and x in ("ge", "gt")))
    if isinstance(value, (int, float)):
        return any(r in text for r in num_renders(value))
    if isinstance(value, str) and ISO.match(value):
        return any(r in text for r in date_renders(value))
    return value.casefold() in text.casefold()


def json_path(obj, path):
    for part in re.findall(r"[^.\[\]]+|\[\d+\]", path):
        if part.startswith("["):
            obj = obj[int(part[1:-1])]
        else:
            obj = obj[part]
    return obj


def same(a, b):
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return abs(a - b) < 0.005
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


def verify_facts(errors):
    cache = {}
    for f, kind, key, value, ev in FACTS:
        p = os.path.join(DOCS, f)
        if not os.path.exists(p):
            errors.append("fact file missing: %s" % f)
            continue
        if f not in cache:
            raw = open(p, encoding="utf-8").read()
            cache[f] = json.loads(raw) if f.endswith(".json") else raw
        doc = cache[f]
        if isinstance(ev, str):  # JSON path
            try:
                got = json_path(doc, ev)
            except (KeyError, IndexError, TypeError):
                errors.append("fact %s %s: JSON path %s does not resolve in %s" % (kind, key, ev, f))
                continue
            if not same(got, value):
                errors.append("fact %s %s: %s in %s is %r, fact says %r" % (kind, key, ev, f, got, value))
        else:
            for s in ev:
                if s not in doc:
                    errors.append("fact %s %s: snippet not in %s: %r" % (kind, key, f, s))
            if not renders_in(value, "\n".join(ev)):
                errors.append("fact %s %s: value %r not visible in its snippets" % (kind, key, value))


# ---------------------------------------------------------------------------
class Missing(Exception):
    pass


class Ctx:
    def __init__(self, cites):
        self.cites = set(cites)

    def all(self, kind, key):
        vals = []
        for f, k, kk, v, _ in FACTS:
            if k == kind and kk == tuple(key) and f in self.cites:
                if not any(same(v, x) for x in vals):
                    vals.append(v)
        return vals

    def get(self, kind, *key):
        vals = self.all(kind, key)
        if not vals:
            raise Missing("%s%s" % (kind, key))
        if len(vals) > 1:
            raise AssertionError("inconsistent facts for %s %s: %r" % (kind, key, vals))
        return vals[0]

    def has(self, kind, *key):
        return bool(self.all(kind, key))

    def tiers(self, contract, item):
        rows = [(kk[2], v) for f, k, kk, v, _ in FACTS
                if k == "ct_tier" and kk[:2] == (contract, item) and f in self.cites]
        if not rows:
            raise Missing("ct_tier %s %s" % (contract, item))
        return [v for _, v in sorted(rows)]


def tier_price(tiers, qty):
    for lo, hi, price in tiers:
        if (lo is None or qty >= lo) and (hi is None or qty <= hi):
            return price
    raise Missing("no tier for quantity %s" % qty)


def canon_vendor(name):
    n = " ".join(name.split()).casefold()
    for canon, aliases in VENDOR_ALIASES.items():
        if n in {" ".join(a.split()).casefold() for a in aliases}:
            return canon
    return name


ROLE = {"buyer": "buyer", "customer": "buyer", "acheteur": "buyer",
        "supplier": "supplier", "vendor": "supplier", "fournisseur": "supplier"}


def verdict(ok):
    return "supported" if ok else "contradicted"


def rcv_qty_for(ctx, inv, rid, line):
    if ctx.has("rcv_qty", rid, line):
        return ctx.get("rcv_qty", rid, line)
    item = ctx.get("inv_item", inv, line)  # receipt keyed by item code (no line numbers printed)
    return ctx.get("rcv_qty", rid, item)


def days_late(ctx, po, rid):
    req = date.fromisoformat(ctx.get("po_req", po))
    got = date.fromisoformat(ctx.get("rcv_date", rid))
    return max(0, (got - req).days)


def evaluate(pred, a, cites):
    ctx = Ctx(cites)
    try:
        if pred == "ordered_quantity":
            return verdict(same(ctx.get("po_qty", a["po_id"], a["line"]), a["quantity"]))
        if pred == "received_quantity":
            return verdict(same(ctx.get("rcv_qty", a["receipt_id"], a["line"]), a["quantity"]))
        if pred == "billed_quantity":
            return verdict(same(ctx.get("inv_qty", a["invoice_id"], a["line"]), a["quantity"]))
        if pred == "billed_unit_price":
            return verdict(same(ctx.get("inv_price", a["invoice_id"], a["line"]), a["unit_price"]))
        if pred == "billed_line_amount":
            return verdict(same(ctx.get("inv_amt", a["invoice_id"], a["line"]), a["amount"]))
        if pred == "computed_line_amount":
            q = ctx.get("inv_qty", a["invoice_id"], a["line"])
            p = ctx.get("inv_price", a["invoice_id"], a["line"])
            return verdict(same(round(q * p, 2), a["amount"]))
        if pred == "invoice_subtotal":
            return verdict(same(ctx.get("inv_subtotal", a["invoice_id"]), a["amount"]))
        if pred == "invoice_total":
            return verdict(same(ctx.get("inv_total", a["invoice_id"]), a["amount"]))
        if pred == "contract_unit_price":
            tiers = ctx.tiers(a["contract_id"], a["item"])
            if a.get("quantity") is not None:
                return verdict(same(tier_price(tiers, a["quantity"]), a["unit_price"]))
            if len(tiers) != 1:
                raise AssertionError("tiered item without quantity is ambiguous: %s" % a["item"])
            return verdict(same(tiers[0][2], a["unit_price"]))
        if pred == "unit_price_variance":
            inv, ln = a["invoice_id"], a["line"]
            tiers = ctx.tiers(a["contract_id"], a["item"])
            billed = ctx.get("inv_price", inv, ln)
            qty = ctx.get("inv_qty", inv, ln)
            if ctx.has("inv_item", inv, ln) and ctx.get("inv_item", inv, ln) != a["item"]:
                return "contradicted"
            return verdict(same(round(billed - tier_price(tiers, qty), 4), a["amount"]))
        if pred == "quantity_variance":
            inv, ln = a["invoice_id"], a["line"]
            billed = ctx.get("inv_qty", inv, ln)
            rec = rcv_qty_for(ctx, inv, a["receipt_id"], ln)
            return verdict(same(billed - rec, a["quantity"]))
        if pred == "payment_due_date":
            inv = a["invoice_id"]
            if ctx.has("inv_due", inv):
                due = ctx.get("inv_due", inv)
            else:
                d = date.fromisoformat(ctx.get("inv_date", inv))
                due = (d + timedelta(days=ctx.get("inv_terms", inv))).isoformat()
            return verdict(due == a["date"])
        if pred == "days_late":
            return verdict(days_late(ctx, a["po_id"], a["receipt_id"]) == a["days"])
        if pred == "late_delivery_credit":
            rate = ctx.get("ct_late_rate", a["contract_id"])
            cap = ctx.get("ct_late_cap", a["contract_id"])
            n = days_late(ctx, a["po_id"], a["receipt_id"])
            return verdict(same(min(n * rate, cap), a["amount"]))
        if pred == "requires_approval":
            inv = a["invoice_id"]
            total = ctx.get("inv_total", inv)
            op, thr = ctx.get("pol_threshold", ctx.get("inv_currency", inv))
            need = total >= thr if op == "ge" else total > thr
            return verdict(need == a["value"])
        if pred == "duplicate_invoice_number":
            docs = [(f, v) for f, k, kk, v, _ in FACTS if k == "inv_doc" and f in ctx.cites]
            mine = [(f, v) for f, v in docs if v[1] == a["invoice_id"]]
            if not mine:
                raise Missing("invoice %s not among cited invoices" % a["invoice_id"])
            vendor = mine[0][1][0]
            same_vendor = [(f, v) for f, v in docs if v[0] == vendor]
            if len(same_vendor) < 2:
                raise Missing("no other cited invoice from the same vendor")
            return verdict((len(mine) >= 2) == a["value"])
        if pred == "vendor_name":
            return verdict(canon_vendor(a["vendor"]) == ctx.get("vendor", a["document_id"]))
        if pred == "liability_cap":
            amt, cur = ctx.get("ct_liab", a["contract_id"])
            ok = same(amt, a["amount"]) and (a.get("currency") in (None, cur))
            return verdict(ok)
        if pred == "notice_period_days":
            return verdict(ctx.get("ct_notice", a["contract_id"]) == a["days"])
        if pred == "term_end_date":
            return verdict(ctx.get("ct_term_end", a["contract_id"]) == a["date"])
        if pred == "effective_date":
            return verdict(ctx.get("ct_effective", a["contract_id"]) == a["date"])
        if pred == "contract_party":
            name = ctx.get("ct_party", a["contract_id"], ROLE[a["role"].lower()])
            return verdict(canon_vendor(a["name"]) == name)
    except Missing:
        return "unsupported"
    raise AssertionError("no evaluator for %s" % pred)


# ---------------------------------------------------------------------------
NUM, STR, DATE, BOOL, INT, LINE, CUR = "num", "str", "date", "bool", "int", "line", "cur"
SHAPES = {
    "ordered_quantity": ({"po_id": STR, "line": LINE, "quantity": NUM}, {}),
    "received_quantity": ({"receipt_id": STR, "line": LINE, "quantity": NUM}, {}),
    "billed_quantity": ({"invoice_id": STR, "line": LINE, "quantity": NUM}, {}),
    "billed_unit_price": ({"invoice_id": STR, "line": LINE, "unit_price": NUM}, {}),
    "billed_line_amount": ({"invoice_id": STR, "line": LINE, "amount": NUM}, {}),
    "computed_line_amount": ({"invoice_id": STR, "line": LINE, "amount": NUM}, {}),
    "invoice_subtotal": ({"invoice_id": STR, "amount": NUM}, {}),
    "invoice_total": ({"invoice_id": STR, "amount": NUM}, {}),
    "contract_unit_price": ({"contract_id": STR, "item": STR, "unit_price": NUM}, {"quantity": NUM}),
    "unit_price_variance": ({"invoice_id": STR, "line": LINE, "contract_id": STR, "item": STR, "amount": NUM}, {}),
    "quantity_variance": ({"invoice_id": STR, "receipt_id": STR, "line": LINE, "quantity": NUM}, {}),
    "payment_due_date": ({"invoice_id": STR, "date": DATE}, {}),
    "days_late": ({"po_id": STR, "receipt_id": STR, "days": INT}, {}),
    "late_delivery_credit": ({"po_id": STR, "receipt_id": STR, "contract_id": STR, "amount": NUM}, {}),
    "requires_approval": ({"invoice_id": STR, "value": BOOL}, {}),
    "duplicate_invoice_number": ({"invoice_id": STR, "value": BOOL}, {}),
    "vendor_name": ({"document_id": STR, "vendor": STR}, {}),
    "statement": ({"text": STR}, {}),
    "liability_cap": ({"contract_id": STR, "amount": NUM}, {"currency": CUR}),
    "notice_period_days": ({"contract_id": STR, "days": INT}, {}),
    "term_end_date": ({"contract_id": STR, "date": DATE}, {}),
    "effective_date": ({"contract_id": STR, "date": DATE}, {}),
    "contract_party": ({"contract_id": STR, "role": STR, "name": STR}, {}),
}
LABELS = ("supported", "contradicted", "unsupported")


def type_ok(t, v):
    if t == NUM:
        return isinstance(v, (int, float)) and not isinstance(v, bool)
    if t == INT:
        return isinstance(v, int) and not isinstance(v, bool)
    if t == BOOL:
        return isinstance(v, bool)
    if t == DATE:
        if not (isinstance(v, str) and ISO.match(v)):
            return False
        try:
            date.fromisoformat(v)
            return True
        except ValueError:
            return False
    if t == LINE:
        return isinstance(v, str) and v.strip() != ""
    if t == CUR:
        return isinstance(v, str) and re.fullmatch(r"[A-Z]{3}", v) is not None
    return isinstance(v, str) and v.strip() != ""


def aggregate(labels):
    if "contradicted" in labels:
        return "contradicted"
    if "unsupported" in labels:
        return "unsupported"
    return "supported"


def load_manifest(errors):
    mp = os.path.join(HERE, "manifest.json")
    man = json.load(open(mp, encoding="utf-8"))
    on_disk = set(os.listdir(DOCS))
    if set(man) != on_disk:
        errors.append("manifest/documents mismatch: only in manifest %s, only on disk %s"
                      % (sorted(set(man) - on_disk), sorted(on_disk - set(man))))
    for f, meta in man.items():
        if set(meta) != {"media_type", "title"} or not meta["title"].strip():
            errors.append("manifest entry malformed: %s" % f)
        want = "application/json" if f.endswith(".json") else "text/plain; charset=utf-8"
        if meta.get("media_type") != want:
            errors.append("manifest media_type wrong for %s" % f)
        p = os.path.join(DOCS, f)
        if os.path.exists(p):
            raw = open(p, "rb").read()
            try:
                txt = raw.decode("utf-8")
            except UnicodeDecodeError:
                errors.append("not UTF-8: %s" % f)
                continue
            if f.endswith(".json"):
                try:
                    json.loads(txt)
                except ValueError as e:
                    errors.append("bad JSON %s: %s" % (f, e))
    if not (14 <= len(man) <= 18):
        errors.append("document count %d outside 14-18" % len(man))
    return man


def check_claims(claims, man, errors):
    ids = set()
    for c in claims:
        cid = c.get("id")
        if set(c) != {"id", "text", "blocking", "expected", "propositions", "note"}:
            errors.append("%s: claim keys %s" % (cid, sorted(c)))
            continue
        if not (isinstance(cid, str) and re.fullmatch(r"q\d{3}", cid)) or cid in ids:
            errors.append("bad or duplicate id %r" % cid)
        ids.add(cid)
        if not isinstance(c["blocking"], bool):
            errors.append("%s: blocking not bool" % cid)
        if c["expected"] not in LABELS:
            errors.append("%s: bad expected" % cid)
        if not c["text"].strip() or not c["note"].strip():
            errors.append("%s: empty text or note" % cid)
        props = c["propositions"]
        if not props:
            errors.append("%s: no propositions" % cid)
        labels = []
        for i, p in enumerate(props):
            tag = "%s.p%d" % (cid, i)
            if set(p) != {"pred", "args", "cites", "expected"}:
                errors.append("%s: proposition keys %s" % (tag, sorted(p)))
                continue
            pred, args, cites, exp = p["pred"], p["args"], p["cites"], p["expected"]
            if pred not in SHAPES:
                errors.append("%s: unknown pred %s" % (tag, pred))
                continue
            req, opt = SHAPES[pred]
            if not set(req) <= set(args) or not set(args) <= set(req) | set(opt):
                errors.append("%s: args %s do not match %s" % (tag, sorted(args), pred))
                continue
            for k, v in args.items():
                t = req.get(k) or opt.get(k)
                if k in opt and v is None:
                    continue
                if not type_ok(t, v):
                    errors.append("%s: arg %s=%r is not %s" % (tag, k, v, t))
            if pred == "contract_party" and args["role"].lower() not in ROLE:
                errors.append("%s: bad role" % tag)
            if not (isinstance(cites, list) and cites):
                errors.append("%s: cites empty" % tag)
            for f in cites:
                if f not in man or not os.path.exists(os.path.join(DOCS, f)):
                    errors.append("%s: cited file missing: %s" % (tag, f))
            if exp not in LABELS:
                errors.append("%s: bad expected %r" % (tag, exp))
            labels.append(exp)
            if pred != "statement":
                got = evaluate(pred, args, cites)
                if got != exp:
                    errors.append("%s: %s expected %s but facts give %s" % (tag, pred, exp, got))
        if labels and aggregate(labels) != c["expected"]:
            errors.append("%s: claim label %s but propositions aggregate to %s"
                          % (cid, c["expected"], aggregate(labels)))


def load_claims():
    out = []
    with open(os.path.join(HERE, "claims.jsonl"), encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if line.strip():
                out.append(json.loads(line))
    return out


def stats(claims):
    from collections import Counter
    cl = Counter(c["expected"] for c in claims)
    pr = Counter(p["pred"] for c in claims for p in c["propositions"])
    pl = Counter(p["expected"] for c in claims for p in c["propositions"])
    blk = sum(c["blocking"] for c in claims)
    return cl, pr, pl, blk


def run(claims):
    errors = []
    verify_facts(errors)
    man = load_manifest(errors)
    check_claims(claims, man, errors)
    missing = set(SHAPES) - {p["pred"] for c in claims for p in c["propositions"]}
    if missing:
        errors.append("predicates never used: %s" % sorted(missing))
    return errors


def mutations(claims):
    caught = total = 0
    escaped = []
    for ci, c in enumerate(claims):
        for pi, p in enumerate(c["propositions"]):
            if p["pred"] == "statement":
                continue
            for lab in LABELS:
                if lab == p["expected"]:
                    continue
                total += 1
                m = copy.deepcopy(claims)
                m[ci]["propositions"][pi]["expected"] = lab
                errs = []
                man = json.load(open(os.path.join(HERE, "manifest.json"), encoding="utf-8"))
                check_claims(m, man, errs)
                if errs:
                    caught += 1
                else:
                    escaped.append((c["id"], pi, lab))
    return caught, total, escaped


def main():
    claims = load_claims()
    errors = run(claims)
    if errors:
        for e in errors:
            print("ERROR", e)
        sys.exit(1)
    cl, pr, pl, blk = stats(claims)
    print("claims %d  %s  blocking %d" % (len(claims), dict(cl), blk))
    print("propositions %d  %s" % (sum(pr.values()), dict(pl)))
    print("predicates %s" % dict(sorted(pr.items())))
    print("facts %d verified" % len(FACTS))
    if "--mutations" in sys.argv:
        caught, total, escaped = mutations(claims)
        print("mutations caught %d / %d" % (caught, total))
        if escaped:
            print("ESCAPED", escaped)
            sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
