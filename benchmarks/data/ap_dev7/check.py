#!/usr/bin/env python3
"""Self-check for the ap_dev7 evaluation set.

1. A hand-entered fact base: every fact names the document that holds it and either a verbatim
   evidence string (text documents; the value must be printed inside that string) or a JSON path
   (ERP tool outputs; the value at that path must equal the fact).
2. Every non-statement proposition is re-judged from the facts of its CITED documents only
   (a fact held by an uncited document does not count) and must match its hand label.
3. Claim labels must follow the aggregation rule; cites, arg shapes, key order, manifest,
   counts and predicate coverage are checked.
Prints OK on success.
"""
import calendar
import datetime as dt
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DOCS = os.path.join(HERE, "documents")

C = "contract_HFL-TSA-2026.txt"
P1 = "po_4500017321.txt"
P2 = "po_4500017388.txt"
P3 = "po_4500017402.txt"
G1 = "gr_5000081150.txt"
G2 = "gr_5000081297.txt"
G3 = "dn_DN-26-0457.txt"
I1 = "inv_TTS-260318.txt"
I1R = "inv_TTS-260318_resent.txt"
I2 = "inv_TTS-260344.txt"
I3 = "inv_KL-INV-70981.txt"
POL = "policy_AP-POL-07.txt"
E = "email_tordell_2026-04-02.txt"
J1 = "erp_po_search.json"
J2 = "erp_goods_movements.json"
J3 = "erp_ap_invoice_register.json"
ALL_DOCS = [C, P1, P2, P3, G1, G2, G3, I1, I1R, I2, I3, POL, E, J1, J2, J3]

TORDELL = "Tordell Tyre Supply Ltd"
KESTREL = "Kestrel Lubricants Ltd"
HARROW = "Harrowgate Freight Lines Ltd"

# ---------------------------------------------------------------------------------------------
# Fact base.  Each fact: (file, slot, value, evidence, raw)
#   text file: evidence = verbatim string (or list of strings) in the document
#   JSON file: evidence = path such as "result.records[2].items[1].qty.ordered"; raw = the JSON
#              value at that path when it differs in form from the semantic value
# ---------------------------------------------------------------------------------------------
FACTS = []


def F(file, slot, value, ev, raw=None, show=True):
    FACTS.append({"file": file, "slot": tuple(slot), "value": value, "ev": ev, "raw": raw, "show": show})


def po_row(file, po, line, ev, material, qty, price):
    F(file, ("po_mat", po, line), material, ev)
    F(file, ("po_qty", po, line), qty, ev)
    F(file, ("po_price", po, line), price, ev)


def inv_row(file, inv, line, ev, item, qty, price, amount):
    F(file, ("inv_item", inv, line), item, ev)
    F(file, ("inv_qty", inv, line), qty, ev)
    F(file, ("inv_price", inv, line), price, ev)
    F(file, ("inv_amount", inv, line), amount, ev)


# --- contract HFL-TSA-2026 ---
K = "HFL-TSA-2026"
F(C, ("effective", K), "2026-01-01", "Effective Date: 1 January 2026")
F(C, ("party", K, "buyer"), HARROW, "Buyer: Harrowgate Freight Lines Ltd, Unit 4 Calder Park")
F(C, ("party", K, "supplier"), TORDELL, "Supplier: Tordell Tyre Supply Ltd, 19 Foundry Lane")
F(C, ("vendor", K), TORDELL, "Supplier: Tordell Tyre Supply Ltd, 19 Foundry Lane")
F(C, ("term_end", K), "2027-12-31", "the initial term ends on 31 December 2027")
F(C, ("notice", K), 90, "terminate this Agreement for convenience by giving not less than ninety (90) days' written notice")
F(C, ("liability_cap", K), 250000, "each party's total aggregate liability under this Agreement in any contract year is capped at GBP 250,000")
F(C, ("liability_currency", K), "GBP", "is capped at GBP 250,000")
F(C, ("contract_terms", K), "EOM30",
  "6.1 Invoices are payable 30 days end of month: payment falls due thirty (30) calendar days after the last day of the calendar month in which the invoice is dated.",
  show=False)
F(C, ("late_clause", K), {"rate": 0.02, "period_days": 7, "cap": 0.10, "excluded_items": ["SV-FIT"]},
  ["the Supplier shall credit the Buyer two per cent (2%) of the Late Goods Value for each complete week (seven calendar days) by which the delivery is late. No credit accrues for part of a week.",
   "\"Late Goods Value\" means the quantity of Goods delivered late on each purchase order line multiplied by the purchase order unit price for that line, excluding VAT, freight and Services.",
   "\"Services\" means fitting and balancing of the Goods",
   "The credit for any one delivery shall not exceed ten per cent (10%) of the Late Goods Value."], show=False)
F(C, ("tier_header", K), [(1, 19), (20, 49), (50, None)],
  "| Unit price (GBP) 1-19 units | Unit price (GBP) 20-49 units | Unit price (GBP) 50+ units |", show=False)
F(C, ("tier_prices", K, "TY-315"), [412.00, 398.00, 385.00],
  "| TY-315    | Drive tyre 315/80 R22.5 156/150L | each | 412.00                      | 398.00                       | 385.00                     |")
F(C, ("tier_prices", K, "TY-385"), [365.00, 352.50, 340.00],
  "| TY-385    | Trailer tyre 385/65 R22.5 164K   | each | 365.00                      | 352.50                       | 340.00                     |")
F(C, ("tier_prices", K, "TY-295"), [389.00, 376.00, 361.50],
  "| TY-295    | Steer tyre 295/80 R22.5 154/149M | each | 389.00                      | 376.00                       | 361.50                     |")
F(C, ("tier_prices", K, "SV-FIT"), [18.50, 18.50, 18.50],
  "| SV-FIT    | Fitting and balancing, per tyre  | each | 18.50                       | 18.50                        | 18.50                      |")

# --- purchase orders (text) ---
F(P1, ("vendor", "4500017321"), TORDELL, "Vendor:                 20417 Tordell Tyre Supply Ltd")
F(P1, ("po_required", "4500017321"), "2026-03-06", "Required delivery date: 2026-03-06")
po_row(P1, "4500017321", "10", "10   TY-315    Drive tyre 315/80 R22.5 156/150L        24  EA       398.00     9,552.00", "TY-315", 24, 398.00)
po_row(P1, "4500017321", "20", "20   TY-385    Trailer tyre 385/65 R22.5 164K          16  EA       365.00     5,840.00", "TY-385", 16, 365.00)
po_row(P1, "4500017321", "30", "30   SV-FIT    Fitting and balancing, per tyre         40  EA        18.50       740.00", "SV-FIT", 40, 18.50)

F(P2, ("vendor", "4500017388"), TORDELL, "Vendor:                 20417 Tordell Tyre Supply Ltd")
F(P2, ("po_required", "4500017388"), "2026-03-20", "Required delivery date: 2026-03-20")
po_row(P2, "4500017388", "10", "10   TY-385    Trailer tyre 385/65 R22.5 164K          60  EA       340.00    20,400.00", "TY-385", 60, 340.00)
po_row(P2, "4500017388", "20", "20   TY-315    Drive tyre 315/80 R22.5 156/150L        12  EA      412.00      4,944.00", "TY-315", 12, 412.00)

F(P3, ("vendor", "4500017402"), KESTREL, "Vendor:                 20588 Kestrel Lubricants Ltd")
F(P3, ("po_required", "4500017402"), "2026-03-13", "Required delivery date: 2026-03-13")
po_row(P3, "4500017402", "10", "10   LUB-15W40-208  Engine oil 15W-40 CK-4, 208 L drum     12  DR       642.00     7,704.00", "LUB-15W40-208", 12, 642.00)
po_row(P3, "4500017402", "20", "20   ADB-1000       AdBlue AUS 32, 1,000 L IBC               8  EA       389.00     3,112.00", "ADB-1000", 8, 389.00)
po_row(P3, "4500017402", "30", "30   GRS-EP2-18     Lithium EP2 grease, 18 kg pail          20  EA        54.75     1,095.00", "GRS-EP2-18", 20, 54.75)

# --- goods receipts / delivery note (text) ---
F(G1, ("vendor", "5000081150"), TORDELL, "Vendor: Tordell Tyre Supply Ltd (20417)")
F(G1, ("rcv_date", "5000081150"), "2026-03-05", "Posting date: 2026-03-05")
F(G1, ("rcv_po", "5000081150"), "4500017321", "Purchase order: 4500017321")
F(G1, ("po_qty", "4500017321", "10"), 24, "| 10 | TY-315 | Drive tyre 315/80 R22.5 | 24 | 24 | EA | |")
F(G1, ("rcv_qty", "5000081150", "10"), 24, "| 10 | TY-315 | Drive tyre 315/80 R22.5 | 24 | 24 | EA | |")
F(G1, ("po_qty", "4500017321", "20"), 16, "| 20 | TY-385 | Trailer tyre 385/65 R22.5 | 16 | 14 | EA | 2 back-ordered by supplier |")
F(G1, ("rcv_qty", "5000081150", "20"), 14, "| 20 | TY-385 | Trailer tyre 385/65 R22.5 | 16 | 14 | EA | 2 back-ordered by supplier |")
F(G1, ("po_qty", "4500017321", "30"), 40, "| 30 | SV-FIT | Fitting and balancing | 40 | 38 | EA | fitted to the 38 tyres delivered |")
F(G1, ("rcv_qty", "5000081150", "30"), 38, "| 30 | SV-FIT | Fitting and balancing | 40 | 38 | EA | fitted to the 38 tyres delivered |")

F(G2, ("vendor", "5000081297"), TORDELL, "Vendor: Tordell Tyre Supply Ltd (20417)")
F(G2, ("rcv_date", "5000081297"), "2026-03-31", "Posting date: 2026-03-31")
F(G2, ("rcv_po", "5000081297"), "4500017388", "Purchase order: 4500017388")
F(G2, ("rcv_qty", "5000081297", "10"), 60, "10,TY-385,Trailer tyre 385/65 R22.5,60,EA,unrestricted")
F(G2, ("rcv_qty", "5000081297", "20"), 12, "20,TY-315,Drive tyre 315/80 R22.5,12,EA,unrestricted")

F(G3, ("vendor", "DN-26-0457"), KESTREL, "Supplier:           Kestrel Lubricants Ltd, Unit 9 Templefields")
F(G3, ("rcv_date", "DN-26-0457"), "2026-03-16", "Delivery date:      16/03/2026")
F(G3, ("rcv_po", "DN-26-0457"), "4500017402", "Your order:         4500017402 (order date 04/03/2026)")
F(G3, ("rcv_qty", "DN-26-0457", "LUB-15W40-208"), 12, "LUB-15W40-208    Engine oil 15W-40 CK-4 208L drum              12          DR")
F(G3, ("rcv_qty", "DN-26-0457", "ADB-1000"), 8, "ADB-1000         AdBlue AUS 32 1000L IBC                        8         IBC")
F(G3, ("rcv_qty", "DN-26-0457", "GRS-EP2-18"), 22, "GRS-EP2-18       Lithium EP2 grease 18kg pail                 22         PAIL")

# --- invoices (text) ---
for f in (I1, I1R):
    F(f, ("vendor", "TTS-260318"), TORDELL, "Tordell Tyre Supply Ltd, 19 Foundry Lane, Rotherham S60 1BX")
    F(f, ("inv_doc", "TTS-260318"), TORDELL, "Invoice no: TTS-260318", show=False)
    F(f, ("inv_date", "TTS-260318"), "2026-03-09", "Invoice date: 2026-03-09")
    F(f, ("inv_terms", "TTS-260318"), "CONTRACT:HFL-TSA-2026", "Payment terms: as per Framework Supply Agreement HFL-TSA-2026, clause 6", show=False)
    inv_row(f, "TTS-260318", "10", "| 10 | TY-315 | Drive tyre 315/80 R22.5 | 24 | 398.00 | 9,552.00 |", "TY-315", 24, 398.00, 9552.00)
    inv_row(f, "TTS-260318", "20", "| 20 | TY-385 | Trailer tyre 385/65 R22.5 | 16 | 365.00 | 5,840.00 |", "TY-385", 16, 365.00, 5840.00)
    inv_row(f, "TTS-260318", "30", "| 30 | SV-FIT | Fitting and balancing | 38 | 18.50 | 703.00 |", "SV-FIT", 38, 18.50, 703.00)
    F(f, ("inv_subtotal", "TTS-260318"), 16095.00, "Goods total: 16,095.00")
    F(f, ("inv_net_ex_vat", "TTS-260318"), 16095.00, "Goods total: 16,095.00")
    F(f, ("inv_total", "TTS-260318"), 19314.00, "Invoice total: 19,314.00")

F(I2, ("vendor", "TTS-260344"), TORDELL, "Tordell Tyre Supply Ltd, 19 Foundry Lane, Rotherham S60 1BX")
F(I2, ("inv_doc", "TTS-260344"), TORDELL, "Invoice no: TTS-260344", show=False)
F(I2, ("inv_date", "TTS-260344"), "2026-04-01", "Invoice date: 2026-04-01")
F(I2, ("inv_terms", "TTS-260344"), "EOM30", "Payment terms: 30 days end of month", show=False)
inv_row(I2, "TTS-260344", "10", "| 10 | TY-385 | Trailer tyre 385/65 R22.5 | 60 | 352.50 | 21,150.00 |", "TY-385", 60, 352.50, 21150.00)
inv_row(I2, "TTS-260344", "20", "| 20 | TY-315 | Drive tyre 315/80 R22.5 | 12 | 412.00 | 4,944.00 |", "TY-315", 12, 412.00, 4944.00)
F(I2, ("inv_subtotal", "TTS-260344"), 26094.00, "Net value: 26,094.00")
F(I2, ("inv_net_ex_vat", "TTS-260344"), 26094.00, "Net value: 26,094.00")
F(I2, ("inv_total", "TTS-260344"), 31312.80, "Amount payable: 31,312.80")

F(I3, ("vendor", "KL-INV-70981"), KESTREL, "Kestrel Lubricants Ltd, Unit 9 Templefields, Harlow CM20 2BN")
F(I3, ("inv_doc", "KL-INV-70981"), KESTREL, "Invoice number    KL-INV-70981", show=False)
F(I3, ("inv_date", "KL-INV-70981"), "2026-03-18", "Invoice date      18/03/2026")
F(I3, ("inv_terms", "KL-INV-70981"), "NET14", "Terms             Net 14", show=False)
inv_row(I3, "KL-INV-70981", "LUB-15W40-208", "LUB-15W40-208   Engine oil 15W-40 CK-4 208L drum      12     642.00    7,704.00", "LUB-15W40-208", 12, 642.00, 7704.00)
inv_row(I3, "KL-INV-70981", "ADB-1000", "ADB-1000        AdBlue AUS 32 1000L IBC                8     389.00    3,112.00", "ADB-1000", 8, 389.00, 3112.00)
inv_row(I3, "KL-INV-70981", "GRS-EP2-18", "GRS-EP2-18      Lithium EP2 grease 18kg pail          22      54.75    1,204.50", "GRS-EP2-18", 22, 54.75, 1204.50)
F(I3, ("inv_subtotal", "KL-INV-70981"), 12020.50, "Goods total      12,020.50")
F(I3, ("inv_net_ex_vat", "KL-INV-70981"), 11864.99, "Net amount (excl. VAT)      11,864.99")
F(I3, ("inv_total", "KL-INV-70981"), 14237.99, "Balance due      14,237.99")

# --- policy, e-mail ---
F(POL, ("policy_threshold",), {"threshold": 18000.00, "basis": "inv_net_ex_vat", "inclusive": True},
  "Any invoice whose amount excluding VAT (after trade discounts and including freight or carriage) is GBP 18,000.00 or more requires written approval by the Finance Director before payment.",
  show=False)
F(E, ("inv_total", "TTS-260344"), 31312.80, "Our invoice TTS-260344 for £31,312.80")

# --- ERP: purchase orders (J1) ---
for idx, po, vendor, req, items in [
    (0, "4500017402", KESTREL, "2026-03-13", [("10", "LUB-15W40-208", 12, 642.00), ("20", "ADB-1000", 8, 389.00), ("30", "GRS-EP2-18", 20, 54.75)]),
    (1, "4500017321", TORDELL, "2026-03-06", [("10", "TY-315", 24, 398.00), ("20", "TY-385", 16, 365.00), ("30", "SV-FIT", 40, 18.50)]),
    (2, "4500017388", TORDELL, "2026-03-20", [("10", "TY-385", 60, 340.00), ("20", "TY-315", 12, 412.00)]),
]:
    base = f"result.records[{idx}]"
    F(J1, ("po_number_at", po), po, f"{base}.po_number")
    F(J1, ("vendor", po), vendor, f"{base}.header.vendor.name")
    F(J1, ("po_required", po), req, f"{base}.schedule.required_delivery")
    for j, (line, mat, qty, price) in enumerate(items):
        F(J1, ("po_line_id", po, line), line, f"{base}.items[{j}].item")
        F(J1, ("po_mat", po, line), mat, f"{base}.items[{j}].material")
        F(J1, ("po_qty", po, line), qty, f"{base}.items[{j}].qty.ordered")
        F(J1, ("po_price", po, line), price, f"{base}.items[{j}].price.unit")

# --- ERP: goods movements (J2) ---
for base, rid, date, po, vendor, lines in [
    ("result.plants[0].documents[0]", "5000081150", "2026-03-05", "4500017321", TORDELL, [("10", 24), ("20", 14), ("30", 38)]),
    ("result.plants[0].documents[1]", "5000081212", "2026-03-16", "4500017402", KESTREL, [("10", 12), ("20", 8), ("30", 22)]),
    ("result.plants[1].documents[0]", "5000081297", "2026-03-31", "4500017388", TORDELL, [("10", 60), ("20", 12)]),
]:
    F(J2, ("mat_doc_at", rid), rid, f"{base}.mat_doc")
    F(J2, ("rcv_date", rid), date, f"{base}.posting_date")
    F(J2, ("rcv_po", rid), po, f"{base}.reference.po")
    F(J2, ("vendor", rid), vendor, f"{base}.vendor.name")
    for j, (line, qty) in enumerate(lines):
        F(J2, ("rcv_line_id", rid, line), line, f"{base}.lines[{j}].po_item")
        F(J2, ("rcv_qty", rid, line), qty, f"{base}.lines[{j}].movement.qty")

# --- ERP: AP invoice register (J3) ---
for base, inv, vendor, date, due, terms_raw, terms, sub_path, sub, net, gross, lines in [
    ("result.vendor_groups[0].invoices[0]", "TTS-260318", TORDELL, "2026-03-09", "2026-04-30", "30 days end of month", "EOM30",
     "amounts.net", 16095.00, 16095.00, 19314.00,
     [("10", "TY-315", 24, 398.00, 9552.00), ("20", "TY-385", 16, 365.00, 5840.00), ("30", "SV-FIT", 38, 18.50, 703.00)]),
    ("result.vendor_groups[0].invoices[2]", "TTS-260344", TORDELL, "2026-04-01", "2026-05-30", "30 days end of month", "EOM30",
     "amounts.net", 26094.00, 26094.00, 31312.80,
     [("10", "TY-385", 60, 352.50, 21150.00), ("20", "TY-315", 12, 412.00, 4944.00)]),
    ("result.vendor_groups[1].invoices[0]", "KL-INV-70981", KESTREL, "2026-03-18", "2026-04-01", "Net 14", "NET14",
     "amounts.goods", 12020.50, 11864.99, 14237.99,
     [("10", "LUB-15W40-208", 12, 642.00, 7704.00), ("20", "ADB-1000", 8, 389.00, 3112.00), ("30", "GRS-EP2-18", 22, 54.75, 1204.50)]),
]:
    vg = base.split(".invoices")[0]
    F(J3, ("supplier_ref_at", inv), inv, f"{base}.supplier_ref")
    F(J3, ("vendor", inv), vendor, f"{vg}.vendor.name")
    F(J3, ("inv_date", inv), date, f"{base}.dates.document")
    F(J3, ("inv_due", inv), due, f"{base}.dates.baseline_due")
    F(J3, ("inv_terms", inv), terms, f"{base}.terms.text", raw=terms_raw)
    F(J3, ("inv_subtotal", inv), sub, f"{base}.{sub_path}")
    F(J3, ("inv_net_ex_vat", inv), net, f"{base}.amounts.net")
    F(J3, ("inv_total", inv), gross, f"{base}.amounts.gross")
    for j, (line, item, qty, price, amount) in enumerate(lines):
        F(J3, ("inv_line_id", inv, line), line, f"{base}.lines[{j}].po_item")
        F(J3, ("inv_item", inv, line), item, f"{base}.lines[{j}].material")
        F(J3, ("inv_qty", inv, line), qty, f"{base}.lines[{j}].qty")
        F(J3, ("inv_price", inv, line), price, f"{base}.lines[{j}].price.unit")
        F(J3, ("inv_amount", inv, line), amount, f"{base}.lines[{j}].amount")

# ---------------------------------------------------------------------------------------------
# Verify the fact base against the documents
# ---------------------------------------------------------------------------------------------
ERRORS = []


def err(msg):
    ERRORS.append(msg)


def read_text(name):
    with open(os.path.join(DOCS, name), encoding="utf-8") as fh:
        return fh.read()


def resolve(obj, path):
    for part in re.findall(r"[^.\[\]]+|\[\d+\]", path):
        if part.startswith("["):
            obj = obj[int(part[1:-1])]
        else:
            obj = obj[part]
    return obj


MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December"]


def ordinal(n):
    return str(n) + ("th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th"))


def renderings(v):
    if isinstance(v, bool):
        return []
    if isinstance(v, (int, float)):
        out = {f"{v:,.2f}", f"{v:.2f}"}
        if float(v).is_integer():
            out |= {f"{int(v):,}", str(int(v))}
        return sorted(out)
    if isinstance(v, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", v):
        d = dt.date.fromisoformat(v)
        return [v, d.strftime("%d/%m/%Y"), d.strftime("%d.%m.%Y"), f"{d.day} {MONTHS[d.month - 1]} {d.year}",
                f"{ordinal(d.day)} {MONTHS[d.month - 1]} {d.year}"]
    if isinstance(v, str):
        return [v]
    return []


def shown_in(v, ev):
    if isinstance(v, list):
        return all(shown_in(x, ev) for x in v)
    if "|" not in ev and ev.count(",") >= 3 and " " not in ev.split(",")[0]:
        # a CSV row: compare whole fields
        return any(field.strip() in renderings(v) for field in ev.split(","))
    for r in renderings(v):
        if re.search(r"(?<![\d,.])" + re.escape(r) + r"(?![\d]|[.,]\d)", ev):
            return True
    return False


def verify_facts():
    texts, jsons = {}, {}
    for name in ALL_DOCS:
        if name.endswith(".json"):
            with open(os.path.join(DOCS, name), encoding="utf-8") as fh:
                jsons[name] = json.load(fh)
        else:
            texts[name] = read_text(name)
    for f in FACTS:
        name = f["file"]
        if name in texts:
            evs = f["ev"] if isinstance(f["ev"], list) else [f["ev"]]
            for ev in evs:
                if ev not in texts[name]:
                    err(f"fact {f['slot']} evidence not verbatim in {name}: {ev!r}")
            if f["show"] and not shown_in(f["value"], " ".join(evs)):
                err(f"fact {f['slot']} value {f['value']!r} not printed in its evidence in {name}")
        elif name in jsons:
            try:
                got = resolve(jsons[name], f["ev"])
            except (KeyError, IndexError, TypeError):
                err(f"fact {f['slot']}: path {f['ev']} missing in {name}")
                continue
            want = f["raw"] if f["raw"] is not None else f["value"]
            if isinstance(want, (int, float)) and not isinstance(want, bool):
                ok = isinstance(got, (int, float)) and abs(got - want) < 1e-9
            else:
                ok = got == want
            if not ok:
                err(f"fact {f['slot']}: {name}:{f['ev']} = {got!r}, fact says {want!r}")
        else:
            err(f"fact names unknown file {name}")
    # a tier row must have as many prices as the header has tiers
    for f in FACTS:
        if f["slot"][0] == "tier_prices" and len(f["value"]) != 3:
            err(f"tier row {f['slot']} has wrong length")


# ---------------------------------------------------------------------------------------------
# Evaluator: judge a proposition from the facts of its cited documents only
# ---------------------------------------------------------------------------------------------
S, X, U = "supported", "contradicted", "unsupported"


class Missing(Exception):
    pass


def lookup(slot, cites, required=True):
    vals = []
    for f in FACTS:
        if f["slot"] == tuple(slot) and f["file"] in cites:
            if not any(same(f["value"], v) for v in vals):
                vals.append(f["value"])
    if len(vals) > 1:
        err(f"inconsistent fact base for {slot}: {vals}")
    if not vals:
        if required:
            raise Missing(slot)
        return None
    return vals[0]


def same(a, b):
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return abs(a - b) < 0.005
    if isinstance(a, str) and isinstance(b, str):
        return a.strip().lower() == b.strip().lower()
    return a == b


def verdict(computed, claimed):
    return S if same(computed, claimed) else X


def tier_price(contract, item, qty, cites):
    bounds = lookup(("tier_header", contract), cites)
    prices = lookup(("tier_prices", contract, item), cites)
    for (lo, hi), price in zip(bounds, prices):
        if qty >= lo and (hi is None or qty <= hi):
            return price
    raise Missing(("tier", contract, item, qty))


def due_date(inv, cites):
    date = dt.date.fromisoformat(lookup(("inv_date", inv), cites))
    terms = lookup(("inv_terms", inv), cites)
    if terms.startswith("CONTRACT:"):
        terms = lookup(("contract_terms", terms.split(":", 1)[1]), cites)
    if terms == "EOM30":
        eom = dt.date(date.year, date.month, calendar.monthrange(date.year, date.month)[1])
        return (eom + dt.timedelta(days=30)).isoformat()
    m = re.fullmatch(r"NET(\d+)", terms)
    if m:
        return (date + dt.timedelta(days=int(m.group(1)))).isoformat()
    raise Missing(("terms", terms))


def days_late(po, rid, cites):
    if not same(lookup(("rcv_po", rid), cites), po):
        raise Missing(("receipt not for po", rid, po))
    req = dt.date.fromisoformat(lookup(("po_required", po), cites))
    got = dt.date.fromisoformat(lookup(("rcv_date", rid), cites))
    return max(0, (got - req).days)


def invoice_vendor(inv, cites):
    """vendors of the cited invoice documents carrying number `inv`, one per file"""
    return [f["value"] for f in FACTS if f["slot"] == ("inv_doc", inv) and f["file"] in cites]


def judge(pred, a, cites):
    try:
        if pred == "ordered_quantity":
            return verdict(lookup(("po_qty", a["po_id"], a["line"]), cites), a["quantity"])
        if pred == "received_quantity":
            return verdict(lookup(("rcv_qty", a["receipt_id"], a["line"]), cites), a["quantity"])
        if pred == "billed_quantity":
            return verdict(lookup(("inv_qty", a["invoice_id"], a["line"]), cites), a["quantity"])
        if pred == "billed_unit_price":
            return verdict(lookup(("inv_price", a["invoice_id"], a["line"]), cites), a["unit_price"])
        if pred == "billed_line_amount":
            return verdict(lookup(("inv_amount", a["invoice_id"], a["line"]), cites), a["amount"])
        if pred == "computed_line_amount":
            q = lookup(("inv_qty", a["invoice_id"], a["line"]), cites)
            p = lookup(("inv_price", a["invoice_id"], a["line"]), cites)
            return verdict(round(q * p, 2), a["amount"])
        if pred == "invoice_subtotal":
            return verdict(lookup(("inv_subtotal", a["invoice_id"]), cites), a["amount"])
        if pred == "invoice_total":
            return verdict(lookup(("inv_total", a["invoice_id"]), cites), a["amount"])
        if pred == "contract_unit_price":
            if a.get("quantity") is not None:
                price = tier_price(a["contract_id"], a["item"], a["quantity"], cites)
            else:
                prices = set(lookup(("tier_prices", a["contract_id"], a["item"]), cites))
                if len(prices) != 1:
                    raise Missing(("tiered item without quantity", a["item"]))
                price = prices.pop()
            return verdict(price, a["unit_price"])
        if pred == "unit_price_variance":
            item = lookup(("inv_item", a["invoice_id"], a["line"]), cites)
            if not same(item, a["item"]):
                err(f"unit_price_variance item {a['item']} is not the item on {a['invoice_id']} line {a['line']}")
            p = lookup(("inv_price", a["invoice_id"], a["line"]), cites)
            q = lookup(("inv_qty", a["invoice_id"], a["line"]), cites)
            return verdict(round(p - tier_price(a["contract_id"], a["item"], q, cites), 2), a["amount"])
        if pred == "quantity_variance":
            qb = lookup(("inv_qty", a["invoice_id"], a["line"]), cites)
            qr = lookup(("rcv_qty", a["receipt_id"], a["line"]), cites)
            return verdict(qb - qr, a["quantity"])
        if pred == "payment_due_date":
            stated = lookup(("inv_due", a["invoice_id"]), cites, required=False)
            try:
                computed = due_date(a["invoice_id"], cites)
            except Missing:
                computed = None
            if stated and computed and not same(stated, computed):
                err(f"stated and computed due dates differ for {a['invoice_id']}")
            value = computed or stated
            if value is None:
                raise Missing(("due", a["invoice_id"]))
            return verdict(value, a["date"])
        if pred == "days_late":
            return verdict(days_late(a["po_id"], a["receipt_id"], cites), a["days"])
        if pred == "late_delivery_credit":
            po, rid, k = a["po_id"], a["receipt_id"], a["contract_id"]
            clause = lookup(("late_clause", k), cites)
            if not same(lookup(("vendor", po), cites), lookup(("party", k, "supplier"), cites)):
                raise Missing(("contract does not cover vendor", po, k))
            late = days_late(po, rid, cites)
            lines = sorted({f["slot"][2] for f in FACTS
                            if f["slot"][0] == "rcv_qty" and f["slot"][1] == rid and f["file"] in cites})
            if not lines:
                raise Missing(("receipt lines", rid))
            value = 0.0
            for line in lines:
                if lookup(("po_mat", po, line), cites) in clause["excluded_items"]:
                    continue
                value += lookup(("rcv_qty", rid, line), cites) * lookup(("po_price", po, line), cites)
            weeks = late // clause["period_days"]
            rate = min(clause["rate"] * weeks, clause["cap"])
            return verdict(round(value * rate, 2), a["amount"])
        if pred == "requires_approval":
            rule = lookup(("policy_threshold",), cites)
            amt = lookup((rule["basis"], a["invoice_id"]), cites)
            need = amt >= rule["threshold"] if rule["inclusive"] else amt > rule["threshold"]
            return verdict(need, a["value"])
        if pred == "duplicate_invoice_number":
            inv = a["invoice_id"]
            mine = invoice_vendor(inv, cites)
            if not mine:
                raise Missing(("invoice not cited", inv))
            vendor = mine[0]
            if sum(1 for v in mine if same(v, vendor)) >= 2:
                return verdict(True, a["value"])
            others = [f for f in FACTS if f["slot"][0] == "inv_doc" and f["slot"][1] != inv
                      and f["file"] in cites and same(f["value"], vendor)]
            if others:
                return verdict(False, a["value"])
            raise Missing(("no other cited invoice from vendor", inv))
        if pred == "vendor_name":
            return verdict(lookup(("vendor", a["document_id"]), cites), a["vendor"])
        if pred == "liability_cap":
            r = verdict(lookup(("liability_cap", a["contract_id"]), cites), a["amount"])
            if a.get("currency") is not None and r == S:
                r = verdict(lookup(("liability_currency", a["contract_id"]), cites), a["currency"])
            return r
        if pred == "notice_period_days":
            return verdict(lookup(("notice", a["contract_id"]), cites), a["days"])
        if pred == "term_end_date":
            return verdict(lookup(("term_end", a["contract_id"]), cites), a["date"])
        if pred == "effective_date":
            return verdict(lookup(("effective", a["contract_id"]), cites), a["date"])
        if pred == "contract_party":
            role = {"buyer": "buyer", "customer": "buyer", "supplier": "supplier", "vendor": "supplier"}[a["role"]]
            return verdict(lookup(("party", a["contract_id"], role), cites), a["name"])
    except Missing:
        return U
    raise ValueError(pred)


# ---------------------------------------------------------------------------------------------
# Shapes
# ---------------------------------------------------------------------------------------------
NUM, INT, STR, DATE, BOOL = "num", "int", "str", "date", "bool"
SHAPES = {
    "ordered_quantity": ({"po_id": STR, "line": STR, "quantity": NUM}, {}),
    "received_quantity": ({"receipt_id": STR, "line": STR, "quantity": NUM}, {}),
    "billed_quantity": ({"invoice_id": STR, "line": STR, "quantity": NUM}, {}),
    "billed_unit_price": ({"invoice_id": STR, "line": STR, "unit_price": NUM}, {}),
    "billed_line_amount": ({"invoice_id": STR, "line": STR, "amount": NUM}, {}),
    "computed_line_amount": ({"invoice_id": STR, "line": STR, "amount": NUM}, {}),
    "invoice_subtotal": ({"invoice_id": STR, "amount": NUM}, {}),
    "invoice_total": ({"invoice_id": STR, "amount": NUM}, {}),
    "contract_unit_price": ({"contract_id": STR, "item": STR, "unit_price": NUM}, {"quantity": NUM}),
    "unit_price_variance": ({"invoice_id": STR, "line": STR, "contract_id": STR, "item": STR, "amount": NUM}, {}),
    "quantity_variance": ({"invoice_id": STR, "receipt_id": STR, "line": STR, "quantity": NUM}, {}),
    "payment_due_date": ({"invoice_id": STR, "date": DATE}, {}),
    "days_late": ({"po_id": STR, "receipt_id": STR, "days": INT}, {}),
    "late_delivery_credit": ({"po_id": STR, "receipt_id": STR, "contract_id": STR, "amount": NUM}, {}),
    "requires_approval": ({"invoice_id": STR, "value": BOOL}, {}),
    "duplicate_invoice_number": ({"invoice_id": STR, "value": BOOL}, {}),
    "vendor_name": ({"document_id": STR, "vendor": STR}, {}),
    "statement": ({"text": STR}, {}),
    "liability_cap": ({"contract_id": STR, "amount": NUM}, {"currency": STR}),
    "notice_period_days": ({"contract_id": STR, "days": INT}, {}),
    "term_end_date": ({"contract_id": STR, "date": DATE}, {}),
    "effective_date": ({"contract_id": STR, "date": DATE}, {}),
    "contract_party": ({"contract_id": STR, "role": STR, "name": STR}, {}),
}


def type_ok(v, t):
    if t == NUM:
        return isinstance(v, (int, float)) and not isinstance(v, bool)
    if t == INT:
        return isinstance(v, int) and not isinstance(v, bool)
    if t == BOOL:
        return isinstance(v, bool)
    if t == DATE:
        if not (isinstance(v, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", v)):
            return False
        dt.date.fromisoformat(v)
        return True
    return isinstance(v, str) and v.strip() != ""


def check_shape(cid, pred, args):
    if pred not in SHAPES:
        err(f"{cid}: unknown predicate {pred}")
        return
    req, opt = SHAPES[pred]
    for k, t in req.items():
        if k not in args:
            err(f"{cid}: {pred} lacks arg {k}")
        elif not type_ok(args[k], t):
            err(f"{cid}: {pred} arg {k}={args[k]!r} is not {t}")
    for k, v in args.items():
        if k not in req and k not in opt:
            err(f"{cid}: {pred} has unexpected arg {k}")
        if k in opt and v is not None and not type_ok(v, opt[k]):
            err(f"{cid}: {pred} optional arg {k}={v!r} is not {opt[k]}")
    if pred == "contract_party" and args.get("role") not in ("buyer", "supplier", "customer", "vendor"):
        err(f"{cid}: bad role {args.get('role')}")


# ---------------------------------------------------------------------------------------------
def main():
    verify_facts()

    # manifest
    with open(os.path.join(HERE, "manifest.json"), encoding="utf-8") as fh:
        manifest = json.load(fh)
    on_disk = sorted(os.listdir(DOCS))
    if sorted(manifest) != on_disk or sorted(ALL_DOCS) != on_disk:
        err(f"manifest / documents / ALL_DOCS disagree: {sorted(manifest)} vs {on_disk}")
    for name, meta in manifest.items():
        if list(meta) != ["media_type", "title"]:
            err(f"manifest {name}: keys {list(meta)}")
        if name.endswith(".json"):
            if meta["media_type"] != "application/json":
                err(f"manifest {name}: media type")
        else:
            if meta["media_type"] != "text/plain; charset=utf-8":
                err(f"manifest {name}: media type")
            first = read_text(name).split("\n", 1)[0].strip()
            if meta["title"] != first:
                err(f"manifest {name}: title {meta['title']!r} != first line {first!r}")
        if not meta["title"]:
            err(f"manifest {name}: empty title")

    # claims
    claims = []
    with open(os.path.join(HERE, "claims.jsonl"), encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if line.strip():
                claims.append(json.loads(line))
    pred_count = {}
    n_props = n_stmt = n_sup = n_block_bad = 0
    for i, c in enumerate(claims, 1):
        cid = c.get("id")
        if list(c) != ["id", "text", "blocking", "expected", "propositions", "note"]:
            err(f"{cid}: key order {list(c)}")
        if cid != f"k{i:03d}":
            err(f"claim {i}: id {cid}")
        if not isinstance(c["blocking"], bool) or not c["text"] or not c["note"]:
            err(f"{cid}: bad blocking/text/note")
        if not c["propositions"]:
            err(f"{cid}: no propositions")
        labels = []
        for p in c["propositions"]:
            n_props += 1
            if list(p) != ["pred", "args", "cites", "expected"]:
                err(f"{cid}: proposition keys {list(p)}")
            pred = p["pred"]
            pred_count[pred] = pred_count.get(pred, 0) + 1
            check_shape(cid, pred, p["args"])
            if not p["cites"] or any(x not in manifest for x in p["cites"]) or len(set(p["cites"])) != len(p["cites"]):
                err(f"{cid}: bad cites {p['cites']}")
            if p["expected"] not in (S, X, U):
                err(f"{cid}: bad proposition label")
            if pred == "statement":
                n_stmt += 1
            else:
                got = judge(pred, p["args"], p["cites"])
                if got != p["expected"]:
                    err(f"{cid}: {pred} {p['args']} cites {p['cites']}: recomputed {got}, labelled {p['expected']}")
            labels.append(p["expected"])
        agg = X if X in labels else (S if all(l == S for l in labels) else U)
        if c["expected"] != agg:
            err(f"{cid}: claim label {c['expected']} but aggregation gives {agg}")
        if c["expected"] == S:
            n_sup += 1
        elif c["blocking"]:
            n_block_bad += 1

    for pred in SHAPES:
        if pred != "statement" and pred_count.get(pred, 0) < 2:
            err(f"predicate {pred} used {pred_count.get(pred, 0)} times (< 2)")
    if not 5 <= n_stmt <= 8:
        err(f"{n_stmt} statement propositions (want 5-8)")
    if not 85 <= len(claims) <= 100:
        err(f"{len(claims)} claims (want 85-100)")
    if n_sup < 45:
        err(f"{n_sup} supported claims (want >= 45)")
    if n_block_bad < 15:
        err(f"{n_block_bad} blocking contradicted/unsupported claims (want >= 15)")
    if not 14 <= len(on_disk) <= 18:
        err(f"{len(on_disk)} documents (want 14-18)")

    if ERRORS:
        for e in ERRORS:
            print("FAIL:", e)
        sys.exit(1)
    print(f"documents={len(on_disk)} claims={len(claims)} propositions={n_props} supported={n_sup} "
          f"blocking_bad={n_block_bad} statements={n_stmt}", file=sys.stderr)
    print("OK")


if __name__ == "__main__":
    main()
