#!/usr/bin/env python3
"""Self-check for the ap_dev3 evaluation set (standard library only).

(a) every raw value in the hand-entered fact base below must occur verbatim in its document
    (table rows are also checked to hold their tokens on one line; JSON facts are also checked
    by path);
(b) every computed value the labels depend on is recomputed from the fact base, and every
    non-statement proposition's label is re-derived and compared with claims.jsonl;
(c) claim labels equal the aggregation of their propositions; cited files exist; the manifest
    and the claim schema follow the brief.
Run: python3 check.py   (exit status 0 = all checks pass)
"""
import datetime as dt
import json
import os
import re
import sys
from collections import Counter
from decimal import Decimal, ROUND_HALF_UP

HERE = os.path.dirname(os.path.abspath(__file__))
DOCDIR = os.path.join(HERE, "documents")
ERRORS = []


def err(msg):
    ERRORS.append(msg)


# ---------------------------------------------------------------- parsing helpers
def num(raw, fmt):
    raw = raw.strip()
    if fmt == "eu":
        return Decimal(raw.replace(".", "").replace(",", "."))
    return Decimal(raw.replace(",", ""))


def first_num(raw, fmt="us"):
    m = re.search(r"\d[\d,.]*\d|\d", raw)
    return num(m.group(0), fmt)


def date(raw):
    raw = raw.strip()
    for f in ("%Y-%m-%d", "%d.%m.%Y", "%d %B %Y", "%d %b %Y"):
        try:
            return dt.datetime.strptime(raw, f).date()
        except ValueError:
            pass
    raise ValueError("unparsed date " + raw)


def cents(x):
    return Decimal(x).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


# ---------------------------------------------------------------- fact base (raw strings)
Q = "Quillmark Packaging Co."
H = "Halvorsen Ridge Provisions Ltd."
B = "Brevik Tool & Fastener GmbH"
O = "Oaklet Chemical Supply LLC"

FACTS = {
    "contract_CTR-2025-017.txt": dict(
        kind="contract", fmt="us", id="CTR-2025-017", buyer=H, supplier=Q, supplier_id="VND-2207",
        effective="1 March 2025", signed="24 February 2025", term_end="31 August 2026",
        terms='Payment is due net forty-five (45) days from the invoice date ("Net 45")',
        terms_days="45",
        as_per_contract='Invoices that state "as per contract" are payable on these terms.',
        late_rate="credit Buyer 0.5% of the PO Value for each calendar day of delay",
        late_cap="capped at 5% of the PO Value for that purchase order",
        late_basis="ERP posting dates are disregarded",
        liability="total aggregate liability under this Agreement is capped at USD 250,000.00",
        liability_amount="250,000.00", liability_currency="USD",
        insurance="USD 2,000,000.00", notice="not less than 60 days' prior written notice",
        cure="not cured within 30 days",
        rows=[("QP-110", "1-999", "2.85"), ("QP-110", "1,000-4,999", "2.60"), ("QP-110", "5,000 and above", "2.35"),
              ("QP-220", "1-199", "18.40"), ("QP-220", "200-499", "17.25"), ("QP-220", "500 and above", "16.10"),
              ("QP-305", "1-99", "13.20"), ("QP-305", "100 and above", "12.75")],
    ),
    "po_PO-4410.txt": dict(
        kind="po", fmt="us", id="PO-4410", vendor=Q, vendor_id="VND-2207", contract="CTR-2025-017",
        date="2025-09-02", required="2025-09-19", currency="USD", total="18,660.00", row_check=True,
        lines={"1": dict(item="QP-110", qty="4,800", price="2.60", amount="12,480.00"),
               "2": dict(item="QP-220", qty="240", price="17.25", amount="4,140.00"),
               "3": dict(item="QP-305", qty="160", price="12.75", amount="2,040.00")},
    ),
    "po_PO-4418.txt": dict(
        kind="po", fmt="us", id="PO-4418", vendor=Q, vendor_id="VND-2207", contract="CTR-2025-017",
        date="06 Oct 2025", required="24 Oct 2025", currency="USD", total="22,472.00", row_check=True,
        lines={"1": dict(item="QP-110", qty="6,000", price="2.35", amount="14,100.00"),
               "2": dict(item="QP-220", qty="520", price="16.10", amount="8,372.00")},
    ),
    "po_PO-5102.txt": dict(
        kind="po", fmt="eu", id="PO-5102", vendor=B, vendor_id="VND-3115",
        date="03.11.2025", required="21.11.2025", currency="EUR", total="10.005,00", row_check=True,
        lines={"BT-M8-50": dict(item="BT-M8-50", qty="300", price="14,20", amount="4.260,00"),
               "BT-W12": dict(item="BT-W12", qty="1.200", price="0,85", amount="1.020,00"),
               "BT-TQ-40": dict(item="BT-TQ-40", qty="25", price="189,00", amount="4.725,00")},
    ),
    "po_PO-6020.txt": dict(
        kind="po", fmt="us", id="PO-6020", vendor=O, vendor_id="VND-4480",
        date="2026-01-12", required="2026-01-30", currency="USD", total="6,328.00", row_check=True,
        lines={"1": dict(item="OC-DEG-20", qty="40", price="86.50", amount="3,460.00"),
               "2": dict(item="OC-SAN-5", qty="120", price="23.90", amount="2,868.00")},
    ),
    "gr_GR-7731.txt": dict(
        kind="gr", fmt="us", id="GR-7731", po="PO-4410", vendor=Q,
        receipt_date="2025-09-24", posting_date="2025-09-26", row_check=False,
        lines={"1": dict(item="QP-110", qty="4,800", ctx="Line 1 quantity received: 4,800"),
               "2": dict(item="QP-220", qty="236", ctx="Line 2 quantity received: 236"),
               "3": dict(item="QP-305", qty="160", ctx="Line 3 quantity received: 160")},
    ),
    "gr_GR-7758.txt": dict(
        kind="gr", fmt="us", id="GR-7758", po="PO-4418", vendor=Q,
        receipt_date="07 Nov 2025", posting_date="10 Nov 2025", row_check=False,
        lines={"1": dict(item="QP-110", qty="5950", ctx="1;QP-110;EA;6000;5950;50;"),
               "2": dict(item="QP-220", qty="520", ctx="2;QP-220;ROL;520;520;0;")},
    ),
    "gr_GR-8840.txt": dict(
        kind="gr", fmt="eu", id="GR-8840", po="PO-5102", vendor=None, vendor_id="VND-3115",
        receipt_date="20.11.2025", posting_date="24.11.2025", row_check=False,
        lines={"BT-M8-50": dict(item="BT-M8-50", qty="300", ctx="BOX          300          300"),
               "BT-W12": dict(item="BT-W12", qty="1.150", ctx="BAG        1.200        1.150"),
               "BT-TQ-40": dict(item="BT-TQ-40", qty="25", ctx="EA            25           25")},
    ),
    "erp_gr_GR-9012.json": dict(
        kind="gr", fmt="json", id="GR-9012", po="PO-6020", vendor=O, vendor_id="VND-4480",
        receipt_date="2026-02-02", posting_date="2026-02-04", row_check=False,
        lines={"1": dict(item="OC-DEG-20", qty="40"), "2": dict(item="OC-SAN-5", qty="110")},
        paths={"id": "response.data.document.grNumber",
               "po": "response.data.document.references.purchase_order",
               "vendor": "response.data.document.references.vendor.name",
               "vendor_id": "response.data.document.references.vendor.id",
               "receipt_date": "response.data.document.dock.events.1.receipt_date",
               "posting_date": "response.data.document.dates.posting_date",
               "lines.1.qty": "response.data.document.items.0.quantities.received",
               "lines.2.qty": "response.data.document.items.1.quantities.received",
               "lines.1.item": "response.data.document.items.0.material.sku",
               "lines.2.item": "response.data.document.items.1.material.sku"},
    ),
    "inv_QPK-25-0912.txt": dict(
        kind="invoice", fmt="us", id="QPK-25-0912", vendor=Q, vendor_id="VND-2207", po="PO-4410",
        date="2025-09-25", terms="Terms: as per contract", terms_days=None, currency="USD", row_check=True,
        lines={"1": dict(item="QP-110", qty="4,800", price="2.60", amount="12,480.00"),
               "2": dict(item="QP-220", qty="240", price="17.25", amount="4,140.00"),
               "3": dict(item="QP-305", qty="160", price="12.95", amount="2,072.00")},
        subtotal="18,692.00", discount=None, freight="285.00", tax="1,121.52", total="20,098.52",
        bank="0031-775512",
    ),
    "inv_QPK-25-0912_resubmitted.txt": dict(
        kind="invoice", fmt="us", id="QPK-25-0912", vendor=Q, vendor_id="VND-2207", po="PO-4410",
        date="2025-09-25", resubmitted="2025-10-20", terms="Net 45 days from invoice date", terms_days="45",
        currency="USD", row_check=True,
        lines={"1": dict(item="QP-110", qty="4,800", price="2.60", amount="12,480.00"),
               "2": dict(item="QP-220", qty="240", price="17.25", amount="4,140.00"),
               "3": dict(item="QP-305", qty="160", price="12.95", amount="2,072.00")},
        subtotal="18,692.00", discount=None, freight="285.00", tax="1,121.52", total="20,098.52",
        bank="0048-221907",
    ),
    "inv_QPK-25-1107.txt": dict(
        kind="invoice", fmt="us", id="QPK-25-1107", vendor=Q, vendor_id="VND-2207", po="PO-4418",
        date="2025-11-08", terms="Net 45 (CTR-2025-017)", terms_days="45", currency="USD", row_check=True,
        lines={"1": dict(item="QP-110", qty="6,000", price="2.40", amount="14,400.00"),
               "2": dict(item="QP-220", qty="520", price="16.10", amount="8,372.00")},
        subtotal="22,772.00", discount="227.72", freight="240.00", tax="1,352.66", total="24,136.94",
    ),
    "inv_BRV-2025-4471.txt": dict(
        kind="invoice", fmt="eu", id="BRV-2025/4471", vendor=B, vendor_id="VND-3115", po="PO-5102",
        date="24.11.2025", terms="30 days net", terms_days="30", currency="EUR", row_check=True,
        lines={"BT-M8-50": dict(item="BT-M8-50", qty="300", price="14,20", amount="4.260,00"),
               "BT-W12": dict(item="BT-W12", qty="1.200", price="0,85", amount="1.020,00"),
               "BT-TQ-40": dict(item="BT-TQ-40", qty="25", price="189,00", amount="4.725,00")},
        subtotal="10.005,00", discount=None, freight=None, tax="1.900,95", total="11.905,95",
    ),
    "inv_OCS-60331.txt": dict(
        kind="invoice", fmt="us", id="OCS-60331", vendor=O, vendor_id=None, po="PO-6020",
        date="2026-02-03", terms="Terms: Net 60", terms_days="60", currency="USD", row_check=True,
        lines={"1": dict(item="OC-DEG-20", qty="40", price="86.50", amount="3,460.00"),
               "2": dict(item="OC-SAN-5", qty="120", price="23.90", amount="2,886.00")},
        subtotal="6,346.00", discount=None, freight="95.00", tax="0.00", total="6,441.00",
        misprinted_lines=["2"],
    ),
    "erp_invoice_register_QPK-25-1107.json": dict(
        kind="invoice_record", fmt="json", id="QPK-25-1107", vendor=Q, vendor_id="VND-2207", currency="USD",
        subtotal="22772.00", discount="227.72", freight="240.00", tax="1352.66", total="24136.94",
        paths={"id": "record.invoice_id", "vendor": "record.vendor_name", "vendor_id": "record.vendor_id",
               "currency": "record.currency", "subtotal": "record.subtotal_amount",
               "discount": "record.discount_amount", "freight": "record.freight_amount",
               "tax": "record.tax_amount", "total": "record.gross_amount"},
    ),
    "policy_AP-PAY-04.txt": dict(
        kind="policy", fmt="us", id="AP-PAY-04",
        basis="the invoice total amount due, including tax and freight, in the invoice currency",
        thresholds={"USD": "USD 20,000.00 or more", "EUR": "EUR 18,000.00 or more"},
        callback="accepted only after call-back verification",
    ),
    "erp_vendor_master.json": dict(
        kind="vendor_master", fmt="json",
        vendors={"VND-2207": Q, "VND-3115": B, "VND-4480": O},
        banks={"VND-2207": "0031-775512"},
        paths={"vendors.VND-2207": "results.0.names.legal", "vendors.VND-3115": "results.1.names.legal",
               "vendors.VND-4480": "results.2.names.legal", "banks.VND-2207": "results.0.payment.bankAccounts.0.account"},
        ids={"vendors.VND-2207": "results.0.vendorId", "vendors.VND-3115": "results.1.vendorId",
             "vendors.VND-4480": "results.2.vendorId", "banks.VND-2207": "results.0.vendorId"},
    ),
    "email_quillmark_2025-10-20.txt": dict(
        kind="email", fmt="us", date="2025-10-20", vendor=Q, invoice="QPK-25-0912", amount="20,098.52",
        bank="0048-221907", claimed_delivery="22 September", new_price="13.40", insurance="USD 3,000,000.00",
    ),
}

TEXT = {}


def load_docs():
    for f in sorted(os.listdir(DOCDIR)):
        with open(os.path.join(DOCDIR, f), encoding="utf-8") as fh:
            TEXT[f] = fh.read()
    for f in FACTS:
        if f not in TEXT:
            err("fact base names a missing document: " + f)
    for f in TEXT:
        if f not in FACTS:
            err("document without a fact-base entry: " + f)


def leaves(obj, prefix=""):
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k in ("kind", "fmt", "row_check", "paths", "ids", "misprinted_lines"):
                continue
            yield from leaves(v, prefix + "." + str(k) if prefix else str(k))
    elif isinstance(obj, (list, tuple)):
        for i, v in enumerate(obj):
            yield from leaves(v, prefix + "." + str(i))
    elif isinstance(obj, str):
        yield prefix, obj


def json_get(data, path):
    cur = data
    for part in path.split("."):
        cur = cur[int(part)] if isinstance(cur, list) else cur[part]
    return cur


def fact_get(facts, dotted):
    cur = facts
    for part in dotted.split("."):
        cur = cur[part]
    return cur


def check_verbatim():
    for f, facts in FACTS.items():
        text = TEXT.get(f, "")
        for path, raw in leaves(facts):
            if raw not in text:
                err("%s: fact %s = %r not found verbatim" % (f, path, raw))
        # table rows: tokens of one line must sit on one text line
        if facts.get("row_check"):
            for ln, row in facts["lines"].items():
                toks = [row["item"], row["qty"], row["price"], row["amount"]]
                if not any(all(t in tl for t in toks) for tl in text.splitlines()):
                    err("%s: line %s tokens %r not on one text line" % (f, ln, toks))
        for ln, row in facts.get("lines", {}).items() if facts["kind"] == "gr" else []:
            ctx = row.get("ctx")
            if ctx and row["qty"] not in ctx:
                err("%s: receipt context for line %s lacks qty" % (f, ln))
        if facts["kind"] == "contract":
            for item, tier, price in facts["rows"]:
                if not any(("| %s |" % item) in tl and tier in tl and price in tl for tl in text.splitlines()):
                    err("%s: schedule row %s %s %s not found" % (f, item, tier, price))
        if facts["fmt"] == "json":
            data = json.loads(text, parse_float=Decimal)
            for key, path in facts.get("paths", {}).items():
                want = fact_get(facts, key)
                got = json_get(data, path)
                ok = (Decimal(str(got)) == Decimal(want)) if isinstance(got, (int, Decimal)) else got == want
                if not ok:
                    err("%s: JSON path %s = %r, fact base %r" % (f, path, got, want))
            for key, path in facts.get("ids", {}).items():
                if json_get(data, path) != key.split(".")[1]:
                    err("%s: vendor id at %s mismatch" % (f, path))


# ---------------------------------------------------------------- derived views
def d_lines(facts):
    fmt = facts["fmt"]
    out = {}
    for ln, r in facts.get("lines", {}).items():
        out[ln] = dict(item=r["item"], qty=num(r["qty"], fmt))
        if "price" in r:
            out[ln]["price"] = num(r["price"], fmt)
            out[ln]["amount"] = num(r["amount"], fmt)
    return out


def contract_tiers(facts):
    tiers = {}
    for item, tier, price in facts["rows"]:
        t = tier.replace(",", "")
        if "and above" in t:
            lo, hi = int(t.split()[0]), None
        else:
            lo, hi = (int(x) for x in t.split("-"))
        tiers.setdefault(item, []).append((lo, hi, num(price, "us")))
    return tiers


def tier_price(cfacts, item, qty):
    for lo, hi, price in contract_tiers(cfacts).get(item, []):
        if qty >= lo and (hi is None or qty <= hi):
            return price
    return None


def invoice_amounts(facts):
    fmt = facts["fmt"]
    g = lambda k: num(facts[k], fmt) if facts.get(k) else Decimal("0")
    return dict(subtotal=g("subtotal"), discount=g("discount"), freight=g("freight"), tax=g("tax"), total=g("total"))


def vendor_of(facts):
    if facts["kind"] == "contract":
        return facts["supplier"]
    return facts.get("vendor")


# recompute and assert internal consistency of every document's arithmetic
def check_arithmetic():
    for f, facts in FACTS.items():
        k = facts["kind"]
        if k in ("po", "invoice"):
            lines = d_lines(facts)
            for ln, r in lines.items():
                comp = cents(r["qty"] * r["price"])
                if comp != r["amount"] and ln not in facts.get("misprinted_lines", []):
                    err("%s line %s: %s x %s = %s but printed %s" % (f, ln, r["qty"], r["price"], comp, r["amount"]))
                if comp == r["amount"] and ln in facts.get("misprinted_lines", []):
                    err("%s line %s marked misprinted but is correct" % (f, ln))
            printed_sum = sum(r["amount"] for r in lines.values())
            if k == "po":
                if printed_sum != num(facts["total"], facts["fmt"]):
                    err("%s: PO total mismatch %s" % (f, printed_sum))
            else:
                a = invoice_amounts(facts)
                if printed_sum != a["subtotal"]:
                    err("%s: subtotal %s != sum of printed lines %s" % (f, a["subtotal"], printed_sum))
                if a["subtotal"] - a["discount"] + a["freight"] + a["tax"] != a["total"]:
                    err("%s: total does not add up" % f)
        if k == "invoice_record":
            a = invoice_amounts(facts)
            if a["subtotal"] - a["discount"] + a["freight"] + a["tax"] != a["total"]:
                err("%s: register total does not add up" % f)
    # cross-document consistency that the set relies on
    reg = invoice_amounts(FACTS["erp_invoice_register_QPK-25-1107.json"])
    inv = invoice_amounts(FACTS["inv_QPK-25-1107.txt"])
    if reg != inv:
        err("ERP register amounts differ from invoice QPK-25-1107")
    a, b = FACTS["inv_QPK-25-0912.txt"], FACTS["inv_QPK-25-0912_resubmitted.txt"]
    if invoice_amounts(a) != invoice_amounts(b) or d_lines(a) != d_lines(b):
        err("the duplicate copies of QPK-25-0912 differ")
    # tax rates as printed
    if cents(Decimal("18692.00") * Decimal("0.06")) != Decimal("1121.52"):
        err("tax QPK-25-0912")
    if cents((Decimal("22772.00") - Decimal("227.72")) * Decimal("0.06")) != Decimal("1352.66"):
        err("tax QPK-25-1107")
    if cents(Decimal("22772.00") * Decimal("0.01")) != Decimal("227.72"):
        err("discount QPK-25-1107")
    if cents(Decimal("10005.00") * Decimal("0.19")) != Decimal("1900.95"):
        err("VAT BRV")


# ---------------------------------------------------------------- evaluators
S, X, U = "supported", "contradicted", "unsupported"


def docs(cites, kinds, id_=None):
    out = []
    for c in cites:
        fc = FACTS.get(c)
        if fc and fc["kind"] in kinds and (id_ is None or fc.get("id") == id_):
            out.append((c, fc))
    return out


def cmp(a, b):
    return S if a == b else X


def D(x):
    return Decimal(str(x))


def one(cites, kinds, id_):
    d = docs(cites, kinds, id_)
    return d[0][1] if d else None


def ev_line_fact(kind, idkey, field):
    def ev(a, cites):
        fc = one(cites, (kind,), a[idkey])
        if not fc:
            return U
        lines = d_lines(fc)
        if a["line"] not in lines or field not in lines[a["line"]]:
            return U
        val = a["quantity"] if "quantity" in a else (a["unit_price"] if field == "price" else a["amount"])
        return cmp(lines[a["line"]][field], D(val))
    return ev


def ev_computed(a, cites):
    fc = one(cites, ("invoice",), a["invoice_id"])
    if not fc:
        return U
    r = d_lines(fc).get(a["line"])
    if not r:
        return U
    return cmp(cents(r["qty"] * r["price"]), D(a["amount"]))


def ev_invamt(field):
    def ev(a, cites):
        fc = one(cites, ("invoice", "invoice_record"), a["invoice_id"])
        if not fc:
            return U
        return cmp(invoice_amounts(fc)[field], D(a["amount"]))
    return ev


def ev_cup(a, cites):
    c = one(cites, ("contract",), a["contract_id"])
    if not c or a["item"] not in contract_tiers(c):
        return U
    if a.get("quantity") is None:
        prices = [p for _, _, p in contract_tiers(c)[a["item"]]]
        return S if D(a["unit_price"]) in prices else X
    return cmp(tier_price(c, a["item"], D(a["quantity"])), D(a["unit_price"]))


def ev_upv(a, cites):
    inv = one(cites, ("invoice",), a["invoice_id"])
    c = one(cites, ("contract",), a["contract_id"])
    if not inv or not c:
        return U
    r = d_lines(inv).get(a["line"])
    if not r or r["item"] != a["item"] or a["item"] not in contract_tiers(c):
        return U
    return cmp(r["price"] - tier_price(c, a["item"], r["qty"]), D(a["amount"]))


def ev_qv(a, cites):
    inv = one(cites, ("invoice",), a["invoice_id"])
    gr = one(cites, ("gr",), a["receipt_id"])
    if not inv or not gr:
        return U
    li, lg = d_lines(inv).get(a["line"]), d_lines(gr).get(a["line"])
    if not li or not lg:
        return U
    return cmp(li["qty"] - lg["qty"], D(a["quantity"]))


def terms_days(inv, cites):
    if inv.get("terms_days"):
        return int(inv["terms_days"])
    if "as per contract" in inv["terms"]:
        for _, c in docs(cites, ("contract",)):
            if c["supplier"] == inv["vendor"] and c.get("as_per_contract"):
                return int(first_num(c["terms_days"]))
    return None


def ev_due(a, cites):
    inv = one(cites, ("invoice",), a["invoice_id"])
    if not inv:
        return U
    n = terms_days(inv, cites)
    if n is None:
        return U
    return cmp((date(inv["date"]) + dt.timedelta(days=n)).isoformat(), a["date"])


def days_late_of(po, gr):
    return max(0, (date(gr["receipt_date"]) - date(po["required"])).days)


def ev_dl(a, cites):
    po = one(cites, ("po",), a["po_id"])
    gr = one(cites, ("gr",), a["receipt_id"])
    if not po or not gr or gr["po"] != po["id"]:
        return U
    return cmp(days_late_of(po, gr), a["days"])


def credit_of(po, gr, c):
    days = days_late_of(po, gr)
    value = sum(r["qty"] * r["price"] for r in d_lines(po).values())
    rate = first_num(c["late_rate"]) / 100
    capp = first_num(c["late_cap"]) / 100
    return cents(value * min(rate * days, capp))


def ev_ldc(a, cites):
    po = one(cites, ("po",), a["po_id"])
    gr = one(cites, ("gr",), a["receipt_id"])
    c = one(cites, ("contract",), a["contract_id"])
    if not po or not gr or not c or gr["po"] != po["id"] or c["supplier"] != po["vendor"]:
        return U
    return cmp(credit_of(po, gr, c), D(a["amount"]))


def ev_ra(a, cites):
    inv = one(cites, ("invoice", "invoice_record"), a["invoice_id"])
    pol = docs(cites, ("policy",))
    if not inv or not pol:
        return U
    thr = pol[0][1]["thresholds"].get(inv["currency"])
    if thr is None:
        return U
    need = invoice_amounts(inv)["total"] >= first_num(thr)
    return cmp(need, a["value"])


def ev_dup(a, cites):
    invs = docs(cites, ("invoice",))
    if len(invs) < 2:
        return U
    targets = [(f, d) for f, d in invs if d["id"] == a["invoice_id"]]
    if not targets:
        return U
    f0, t = targets[0]
    found = any(f != f0 and d["id"] == t["id"] and d["vendor"] == t["vendor"] for f, d in invs)
    return cmp(found, a["value"])


def ev_vn(a, cites):
    cand = [(f, d) for f, d in ((c, FACTS.get(c)) for c in cites) if d and d.get("id") == a["document_id"]]
    if not cand:
        return U
    d = cand[0][1]
    name = vendor_of(d)
    if not name and d.get("vendor_id"):
        for _, vm in docs(cites, ("vendor_master",)):
            name = vm["vendors"].get(d["vendor_id"])
    if not name:
        return U
    return cmp(name, a["vendor"])


def ev_contract(field):
    def ev(a, cites):
        c = one(cites, ("contract",), a["contract_id"])
        if not c:
            return U
        if field == "liability_cap":
            ok = num(c["liability_amount"], "us") == D(a["amount"])
            if a.get("currency"):
                ok = ok and a["currency"] == c["liability_currency"]
            return S if ok else X
        if field == "notice":
            return cmp(int(first_num(c["notice"])), a["days"])
        if field == "term_end":
            return cmp(date(c["term_end"]).isoformat(), a["date"])
        if field == "effective":
            return cmp(date(c["effective"]).isoformat(), a["date"])
        if field == "party":
            role = {"buyer": "buyer", "customer": "buyer", "supplier": "supplier", "vendor": "supplier"}[a["role"]]
            return cmp(c[role], a["name"])
    return ev


EVAL = {
    "ordered_quantity": ev_line_fact("po", "po_id", "qty"),
    "received_quantity": ev_line_fact("gr", "receipt_id", "qty"),
    "billed_quantity": ev_line_fact("invoice", "invoice_id", "qty"),
    "billed_unit_price": ev_line_fact("invoice", "invoice_id", "price"),
    "billed_line_amount": ev_line_fact("invoice", "invoice_id", "amount"),
    "computed_line_amount": ev_computed,
    "invoice_subtotal": ev_invamt("subtotal"),
    "invoice_total": ev_invamt("total"),
    "contract_unit_price": ev_cup,
    "unit_price_variance": ev_upv,
    "quantity_variance": ev_qv,
    "payment_due_date": ev_due,
    "days_late": ev_dl,
    "late_delivery_credit": ev_ldc,
    "requires_approval": ev_ra,
    "duplicate_invoice_number": ev_dup,
    "vendor_name": ev_vn,
    "liability_cap": ev_contract("liability_cap"),
    "notice_period_days": ev_contract("notice"),
    "term_end_date": ev_contract("term_end"),
    "effective_date": ev_contract("effective"),
    "contract_party": ev_contract("party"),
}

ARGS = {
    "ordered_quantity": ({"po_id", "line", "quantity"}, set()),
    "received_quantity": ({"receipt_id", "line", "quantity"}, set()),
    "billed_quantity": ({"invoice_id", "line", "quantity"}, set()),
    "billed_unit_price": ({"invoice_id", "line", "unit_price"}, set()),
    "billed_line_amount": ({"invoice_id", "line", "amount"}, set()),
    "computed_line_amount": ({"invoice_id", "line", "amount"}, set()),
    "invoice_subtotal": ({"invoice_id", "amount"}, set()),
    "invoice_total": ({"invoice_id", "amount"}, set()),
    "contract_unit_price": ({"contract_id", "item", "unit_price"}, {"quantity"}),
    "unit_price_variance": ({"invoice_id", "line", "contract_id", "item", "amount"}, set()),
    "quantity_variance": ({"invoice_id", "receipt_id", "line", "quantity"}, set()),
    "payment_due_date": ({"invoice_id", "date"}, set()),
    "days_late": ({"po_id", "receipt_id", "days"}, set()),
    "late_delivery_credit": ({"po_id", "receipt_id", "contract_id", "amount"}, set()),
    "requires_approval": ({"invoice_id", "value"}, set()),
    "duplicate_invoice_number": ({"invoice_id", "value"}, set()),
    "vendor_name": ({"document_id", "vendor"}, set()),
    "liability_cap": ({"contract_id", "amount"}, {"currency"}),
    "notice_period_days": ({"contract_id", "days"}, set()),
    "term_end_date": ({"contract_id", "date"}, set()),
    "effective_date": ({"contract_id", "date"}, set()),
    "contract_party": ({"contract_id", "role", "name"}, set()),
    "statement": ({"text"}, set()),
}
NUMERIC = {"quantity", "unit_price", "amount", "days"}
STRINGS = {"po_id", "receipt_id", "invoice_id", "contract_id", "document_id", "line", "item", "vendor", "role",
           "name", "text", "currency"}

# statements: evidence that must be present (supported / contradicted) or absent (unsupported)
STATEMENT_EVIDENCE = {
    "The Quillmark e-mail of 2025-10-20 asks Halvorsen Ridge to pay invoices into a new bank account at Fenwick Mutual Bank.":
        [("email_quillmark_2025-10-20.txt", "Our bank details have changed", True),
         ("email_quillmark_2025-10-20.txt", "Fenwick Mutual Bank", True)],
    "Policy AP-PAY-04 accepts vendor bank detail changes only after call-back verification; an e-mail instruction alone is never sufficient.":
        [("policy_AP-PAY-04.txt", "accepted only after call-back verification", True),
         ("policy_AP-PAY-04.txt", "Instructions received by e-mail or printed on an invoice are never sufficient", True)],
    "The resubmitted copy of invoice QPK-25-0912 shows a different total amount due from the original invoice.":
        [("inv_QPK-25-0912.txt", "Total due (USD):       20,098.52", True),
         ("inv_QPK-25-0912_resubmitted.txt", "TOTAL DUE ....................................... 20,098.52", True)],
    "Invoice BRV-2025/4471 states its amounts in EUR.":
        [("inv_BRV-2025-4471.txt", "Currency: EUR", True)],
    "Invoice OCS-60331 charges a non-zero sales tax.":
        [("inv_OCS-60331.txt", 'Sales tax (exempt, resale certificate on file),"0.00"', True)],
    "The Quillmark e-mail says the vendor's product liability insurance has been raised.":
        [("email_quillmark_2025-10-20.txt", "Our product liability insurance has been raised", True)],
    "Policy AP-PAY-04 requires two signatures on any payment above USD 100,000.":
        [("policy_AP-PAY-04.txt", "signature", False), ("policy_AP-PAY-04.txt", "100,000", False)],
    "Contract CTR-2025-017 says a change to prices is valid only by a written amendment signed by both parties.":
        [("contract_CTR-2025-017.txt", "No change to prices, payment terms or remittance bank details is valid unless made by a written amendment signed by both parties", True)],
    "The Quillmark e-mail says a contract amendment for the QP-305 price increase has already been sent.":
        [("email_quillmark_2025-10-20.txt", "We have not sent a contract amendment for this yet", True)],
    "Contract CTR-2025-017 names the court with jurisdiction over disputes.":
        [("contract_CTR-2025-017.txt", "court", False), ("contract_CTR-2025-017.txt", "jurisdiction", False),
         ("contract_CTR-2025-017.txt", "governed", False)],
}


def aggregate(labels):
    if any(l == X for l in labels):
        return X
    if all(l == S for l in labels):
        return S
    return U


def check_claims():
    path = os.path.join(HERE, "claims.jsonl")
    claims = []
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                err("blank line %d in claims.jsonl" % n)
                continue
            claims.append(json.loads(line))
    ids = Counter(c.get("id") for c in claims)
    for k, v in ids.items():
        if v > 1:
            err("duplicate claim id " + str(k))
    pred_count, multi, stmts = Counter(), 0, 0
    for c in claims:
        cid = c.get("id")
        if set(c) != {"id", "text", "blocking", "expected", "propositions", "note"}:
            err("%s: keys %s" % (cid, sorted(c)))
            continue
        if not re.fullmatch(r"g\d{3}", cid):
            err("%s: bad id" % cid)
        if not isinstance(c["blocking"], bool):
            err("%s: blocking not bool" % cid)
        if not c["text"].strip() or not c["note"].strip():
            err("%s: empty text/note" % cid)
        props = c["propositions"]
        if len(props) > 1:
            multi += 1
        if not 1 <= len(props) <= 3:
            err("%s: %d propositions" % (cid, len(props)))
        labels = []
        for i, p in enumerate(props):
            tag = "%s[%d]" % (cid, i)
            if set(p) != {"pred", "args", "cites", "expected"}:
                err("%s: proposition keys %s" % (tag, sorted(p)))
                continue
            pred, args, cites, exp = p["pred"], p["args"], p["cites"], p["expected"]
            pred_count[pred] += 1
            if exp not in (S, X, U):
                err("%s: bad label %r" % (tag, exp))
            labels.append(exp)
            if pred not in ARGS:
                err("%s: unknown predicate %s" % (tag, pred))
                continue
            req, opt = ARGS[pred]
            if not req <= set(args) or not set(args) <= req | opt:
                err("%s: args %s do not follow catalogue for %s" % (tag, sorted(args), pred))
            for k, v in args.items():
                if k in NUMERIC and (isinstance(v, bool) or not isinstance(v, (int, float))):
                    if not (k == "quantity" and pred == "contract_unit_price" and v is None):
                        err("%s: %s must be a number" % (tag, k))
                if k in STRINGS and not isinstance(v, str):
                    err("%s: %s must be a string" % (tag, k))
                if k == "value" and not isinstance(v, bool):
                    err("%s: value must be boolean" % tag)
                if k == "date" and not re.fullmatch(r"\d{4}-\d{2}-\d{2}", v):
                    err("%s: date not ISO" % tag)
            if pred == "days_late" and not isinstance(args.get("days"), int):
                err("%s: days must be an integer" % tag)
            if not cites or not isinstance(cites, list):
                err("%s: no cites" % tag)
            for f in cites:
                if not os.path.isfile(os.path.join(DOCDIR, f)):
                    err("%s: cited file missing: %s" % (tag, f))
            if pred == "duplicate_invoice_number" and len(docs(cites, ("invoice",))) < 2:
                err("%s: duplicate_invoice_number needs two cited invoices" % tag)
            if pred == "statement":
                stmts += 1
                ev = STATEMENT_EVIDENCE.get(args["text"])
                if ev is None:
                    err("%s: statement without evidence entry" % tag)
                    continue
                for f, snippet, present in ev:
                    if f not in cites:
                        err("%s: evidence file %s not cited" % (tag, f))
                    if (snippet.lower() in TEXT[f].lower()) != present:
                        err("%s: evidence %r presence should be %s in %s" % (tag, snippet, present, f))
                continue
            got = EVAL[pred](args, cites)
            if got != exp:
                err("%s: %s %s -> recomputed %s, labelled %s" % (tag, pred, json.dumps(args), got, exp))
        if labels and aggregate(labels) != c["expected"]:
            err("%s: claim label %s != aggregation %s" % (cid, c["expected"], aggregate(labels)))
    return claims, pred_count, multi, stmts


def check_manifest():
    with open(os.path.join(HERE, "manifest.json"), encoding="utf-8") as fh:
        man = json.load(fh)
    if set(man) != set(TEXT):
        err("manifest keys differ from documents/: %s" % sorted(set(man) ^ set(TEXT)))
    for f, m in man.items():
        if set(m) != {"media_type", "title"}:
            err("manifest %s keys %s" % (f, sorted(m)))
        if f.endswith(".json"):
            if m["media_type"] != "application/json":
                err("manifest %s media type" % f)
            try:
                data = json.loads(TEXT[f])
            except Exception as e:  # noqa
                err("%s: invalid JSON %s" % (f, e))
                continue
            if m["title"] != "ERP tool output: " + data["tool"]:
                err("manifest %s title" % f)
        else:
            if not f.endswith(".txt") or m["media_type"] != "text/plain; charset=utf-8":
                err("manifest %s media type / extension" % f)
            if m["title"] != TEXT[f].splitlines()[0]:
                err("manifest %s title is not the first line" % f)


def longest_json_object(obj):
    best = 0
    if isinstance(obj, dict):
        best = len(obj)
        for v in obj.values():
            best = max(best, longest_json_object(v))
    elif isinstance(obj, list):
        for v in obj:
            best = max(best, longest_json_object(v))
    return best


def main():
    load_docs()
    check_verbatim()
    check_arithmetic()
    check_manifest()
    claims, pred_count, multi, stmts = check_claims()

    # shape requirements of the brief
    n = len(claims)
    lab = Counter(c["expected"] for c in claims)
    if not 15 <= len(TEXT) <= 18:
        err("document count %d" % len(TEXT))
    if not 100 <= n <= 120:
        err("claim count %d" % n)
    if not 15 <= multi <= 25:
        err("multi-proposition claims %d" % multi)
    if not 8 <= stmts <= 12:
        err("statement propositions %d" % stmts)
    for pred in ARGS:
        if pred != "statement" and pred_count[pred] < 3:
            err("predicate %s used %d times" % (pred, pred_count[pred]))
    jsons = [f for f in TEXT if f.endswith(".json")]
    if not 3 <= len(jsons) <= 5:
        err("JSON tool outputs %d" % len(jsons))
    if max(longest_json_object(json.loads(TEXT[f])) for f in jsons) < 60:
        err("no JSON object with 60+ fields")

    # headline computed values (printed for the record)
    F = FACTS
    print("days late PO-4410/GR-7731:", days_late_of(F["po_PO-4410.txt"], F["gr_GR-7731.txt"]))
    print("days late PO-4418/GR-7758:", days_late_of(F["po_PO-4418.txt"], F["gr_GR-7758.txt"]))
    print("credit PO-4410:", credit_of(F["po_PO-4410.txt"], F["gr_GR-7731.txt"], F["contract_CTR-2025-017.txt"]))
    print("credit PO-4418:", credit_of(F["po_PO-4418.txt"], F["gr_GR-7758.txt"], F["contract_CTR-2025-017.txt"]))
    print("documents:", len(TEXT), "claims:", n, "propositions:", sum(pred_count.values()),
          "multi-proposition claims:", multi)
    print("claims by label:", dict(lab), {k: "%.1f%%" % (100.0 * v / n) for k, v in lab.items()})
    print("propositions by predicate:", dict(sorted(pred_count.items())))
    if ERRORS:
        print("\n%d ERROR(S):" % len(ERRORS))
        for e in ERRORS:
            print("  -", e)
        sys.exit(1)
    print("OK: all checks passed")


if __name__ == "__main__":
    main()
