#!/usr/bin/env python3
"""Self-check for the ap_dev4 evaluation set (standard library only).

(a) every id, vendor name, quantity, price, amount and date in the hand-entered
    fact base below appears verbatim in its document's text;
(b) every non-statement proposition is re-judged from the fact base of the
    documents it cites, and the result must equal its hand label;
(c) every claim label equals the aggregation of its propositions, every cited
    file exists, keys / arg names / arg types follow the catalogue.
Run:  python3 check.py
"""
import json
import os
import re
import sys
from datetime import date, datetime, timedelta
from decimal import Decimal

HERE = os.path.dirname(os.path.abspath(__file__))
DOCS = os.path.join(HERE, "documents")


def D(printed, fmt="%Y-%m-%d"):
    """A date as printed in the document plus the format used to read it."""
    return {"__date__": printed, "fmt": fmt}


def iso(d):
    return datetime.strptime(d["__date__"], d["fmt"]).date()


def num(s):
    return Decimal(str(s).replace(",", "").replace("%", ""))


# ---------------------------------------------------------------------------
# Fact base: one list of records per document.  All leaf strings are copied
# verbatim from the document text.
# ---------------------------------------------------------------------------
QLS = "Quillmere Lab Supplies Ltd."
FDO = "Fenwick & Dorsey Office Goods Inc."
PSI = "Pellworth Scientific Instruments LLC"
HVU = "Harrowgate Valley University"

FACTS = {
    "contract_HVU-SC-2026-07.txt": [{
        "kind": "contract", "id": "HVU-SC-2026-07", "buyer": HVU, "supplier": QLS,
        "vendor": QLS,
        "effective": D("1 February 2026", "%d %B %Y"),
        "term_end": D("31 January 2028", "%d %B %Y"),
        "signed": D("28 January 2026", "%d %B %Y"),
        "liability_cap": "250,000.00", "currency": "USD",
        "insurance": "2,000,000.00",
        "notice_days": "(60) days", "po_cancel_days": "(10) days",
        "terms": "Net 45",
        "late_pct_per_day": "(1%)", "late_cap_pct": "(8%)",
        "tiers": {
            "QLS-NG100": [["1 - 199", "8.40"], ["200 - 499", "7.95"], ["500 and above", "7.50"]],
            "QLS-PT200": [["1 - 99", "12.60"], ["100 - 299", "11.90"], ["300 and above", "11.20"]],
            "QLS-CT50": [["1 - 19", "96.00"], ["20 - 49", "89.50"], ["50 and above", "84.00"]],
        },
    }],
    "po_4500012.txt": [{
        "kind": "po", "id": "4500012", "vendor": QLS, "vendor_id": "V-10233",
        "date": D("2026-02-16"), "need_by": D("2026-03-06"),
        "lines": {
            "1": {"item": "QLS-NG100", "qty": "300", "price": "7.95", "amount": "2,385.00"},
            "2": {"item": "QLS-PT200", "qty": "120", "price": "11.90", "amount": "1,428.00"},
            "3": {"item": "QLS-CT50", "qty": "24", "price": "89.50", "amount": "2,148.00"},
        },
        "total": "5,961.00",
    }],
    "po_4500019.txt": [{
        "kind": "po", "id": "4500019", "vendor": QLS, "vendor_id": "V-10233",
        "date": D("March 3, 2026", "%B %d, %Y"), "need_by": D("March 20, 2026", "%B %d, %Y"),
        "lines": {
            "1": {"item": "QLS-NG100", "qty": "600", "price": "7.50", "amount": "4,500.00"},
            "2": {"item": "QLS-CT50", "qty": "10", "price": "96.00", "amount": "960.00"},
        },
        "total": "5,460.00",
    }],
    "po_4500023.txt": [{
        "kind": "po", "id": "4500023", "vendor": FDO, "vendor_id": "V-10417",
        "date": D("10/03/2026", "%d/%m/%Y"), "need_by": D("24/03/2026", "%d/%m/%Y"),
        "lines": {
            "1": {"item": "FD-A4-80", "qty": "40", "price": "31.25", "amount": "1250.00"},
            "2": {"item": "FD-TNR-05", "qty": "12", "price": "84.90", "amount": "1018.80"},
        },
        "total": "2268.80",
    }],
    "gr_GR-26-0311.txt": [{
        "kind": "gr", "id": "GR-26-0311", "po": "4500012", "vendor": QLS,
        "date": D("9 March 2026", "%d %B %Y"), "posted": D("2026-03-11"),
        "lines": {
            "1": {"received": "300", "accepted": "300"},
            "2": {"received": "120", "accepted": "112", "rejected": "8"},
            "3": {"received": "24", "accepted": "24"},
        },
    }],
    "gr_GR-26-0342.txt": [{
        "kind": "gr", "id": "GR-26-0342", "po": "4500019", "vendor": QLS,
        "date": D("04/01/2026", "%m/%d/%Y"),
        "lines": {
            "QLS-NG100": {"ordered": "600", "received": "450", "backordered": "150"},
            "QLS-CT50": {"ordered": "10", "received": "10"},
        },
    }],
    "gr_GR-26-0357.txt": [{
        "kind": "gr", "id": "GR-26-0357", "po": "4500023", "vendor": FDO,
        "date": D("2026-03-23"),
        "lines": {"1": {"received": "40"}, "2": {"received": "12"}},
    }],
    "inv_quillmere_24817.txt": [{
        "kind": "invoice", "id": "24817", "vendor": QLS, "po": "4500012",
        "date": D("2026-03-10"), "terms": "Net 45",
        "lines": {
            "1": {"item": "QLS-NG100", "qty": "300", "price": "7.95", "amount": "2,385.00"},
            "2": {"item": "QLS-PT200", "qty": "120", "price": "11.90", "amount": "1,428.00"},
            "3": {"item": "QLS-CT50", "qty": "24", "price": "92.50", "amount": "2,220.00"},
        },
        "subtotal": "6,033.00", "discount": "-120.66", "freight": "145.00", "tax": "0.00",
        "total": "6,057.34",
    }],
    "inv_quillmere_24902.txt": [{
        "kind": "invoice", "id": "24902", "vendor": QLS, "po": "4500019",
        "date": D("April 2, 2026", "%B %d, %Y"), "terms": "Net 45",
        "lines": {
            "QLS-NG100": {"item": "QLS-NG100", "qty": "450", "price": "7.50", "amount": "3,375.00"},
            "QLS-CT50": {"item": "QLS-CT50", "qty": "10", "price": "96.00", "amount": "960.00"},
        },
        "subtotal": "4,335.00", "discount": "0.00", "freight": "0.00", "tax": "0.00",
        "total": "4,335.00",
    }],
    "cn_quillmere_CN-0031.txt": [{
        "kind": "invoice", "id": "CN-0031", "vendor": QLS, "po": "4500012",
        "date": D("16 March 2026", "%d %B %Y"), "credit_note": True,
        "lines": {
            "1": {"item": "QLS-PT200", "qty": "8", "price": "11.90", "amount": "-95.20", "sign": "-1"},
            "2": {"item": "LATE-CR", "qty": "1", "price": "-178.83", "amount": "-178.83"},
        },
        "total": "-274.03",
    }],
    "inv_fenwick_FD-11592.txt": [{
        "kind": "invoice", "id": "FD-11592", "vendor": FDO, "po": "4500023",
        "date": D("03/25/2026", "%m/%d/%Y"), "terms": "Net 30",
        "lines": {
            "1": {"item": "FD-A4-80", "qty": "40", "price": "31.25", "amount": "1,250.00"},
            "2": {"item": "FD-TNR-05", "qty": "12", "price": "84.90", "amount": "1,018.80"},
        },
        "subtotal": "2,268.80", "discount": "0.00*", "freight": "0.00*", "tax": "113.44",
        "total": "2,382.24",
    }],
    "inv_pellworth_24817.txt": [{
        "kind": "invoice", "id": "24817", "vendor": PSI, "po": "4500027",
        "date": D("31 March 2026", "%d %B %Y"), "terms": "Net 30",
        "lines": {
            "10": {"item": "PSI-THERM-02", "qty": "15", "price": "48.00", "amount": "720.00"},
            "20": {"item": "PSI-CAL-KIT", "qty": "4", "price": "212.50", "amount": "805.00"},
        },
        "subtotal": "1,525.00", "discount": "0.00*", "freight": "35.00", "tax": "0.00",
        "total": "1,560.00",
    }],
    "policy_AP-POL-04.txt": [{
        "kind": "policy", "id": "AP-POL-04", "threshold": "5,000.00",
        "rule": "equal to or greater than", "basis": "total amount due",
        "credit_rule": "Credit notes are applied against the next payment to the same vendor and need no approval",
        "effective": D("1 January 2026", "%d %B %Y"),
    }],
    "email_quillmere_2026-03-18.txt": [{
        "kind": "email", "id": "d.murrow@quillmere-labs.example", "vendor": QLS,
        "sent": D("18 March 2026", "%d %B %Y"),
        "promised_price": "7.20", "promised_item": "QLS-NG100",
        "expected_delivery": D("March 27, 2026", "%B %d, %Y"),
        "new_remit": "Lockbox 4471, 90 Caxton Street, Port Averin",
        "remit_from": D("1 April 2026", "%d %B %Y"),
    }],
    "erp_po_4500012.json": [
        {"kind": "po", "id": "4500012", "vendor": QLS, "vendor_id": "V-10233",
         "date": D("2026-02-16"), "need_by": D("2026-03-06"),
         "lines": {
             "1": {"item": "QLS-NG100", "qty": "300", "price": "7.95", "amount": "2385.00"},
             "2": {"item": "QLS-PT200", "qty": "120", "price": "11.90", "amount": "1428.00"},
             "3": {"item": "QLS-CT50", "qty": "24", "price": "89.50", "amount": "2148.00"},
         },
         "total": "5961.00"},
        {"kind": "gr", "id": "GR-26-0311", "po": "4500012", "posted": D("2026-03-11")},
        {"kind": "invoice", "id": "24817", "vendor": QLS, "vendor_id": "V-10233",
         "total": "6057.34", "status": "BLOCKED_PRICE"},
        {"kind": "invoice", "id": "CN-0031", "vendor": QLS, "vendor_id": "V-10233",
         "total": "-274.03", "credit_note": True},
    ],
    "erp_po_4500027.json": [
        {"kind": "po", "id": "4500027", "vendor": PSI, "vendor_id": "V-10588",
         "date": D("2026-03-12"), "need_by": D("2026-03-27"),
         "lines": {
             "10": {"item": "PSI-THERM-02", "qty": "15", "price": "48.00"},
             "20": {"item": "PSI-CAL-KIT", "qty": "4", "price": "212.50"},
         },
         "total": "1570.00"},
        {"kind": "gr", "id": "GR-26-0366", "po": "4500027", "vendor": PSI,
         "date": D("2026-03-30"), "posted": D("2026-03-31"),
         "lines": {"10": {"received": "15"}, "20": {"received": "3"}}},
    ],
    "erp_invoice_24902.json": [{
        "kind": "invoice", "id": "24902", "vendor": QLS, "vendor_id": "V-10233", "po": "4500019",
        "date": D("2026-04-02"), "posted": D("2026-04-06"), "terms_days": "45",
        "lines": {
            "QLS-NG100": {"item": "QLS-NG100", "qty": "450", "price": "7.50", "amount": "3375.00"},
            "QLS-CT50": {"item": "QLS-CT50", "qty": "10", "price": "96.00", "amount": "960.00"},
        },
        "subtotal": "4335.00", "discount": "0.00", "freight": "0.00", "tax": "0.00",
        "total": "4335.00", "due": D("2026-05-17"),
    }],
    "erp_vendor_master.json": [
        {"kind": "vendor", "id": "V-10233", "vendor": QLS, "terms": "N45", "remit": "PO Box 8812"},
        {"kind": "vendor", "id": "V-10417", "vendor": FDO, "terms": "N30", "remit": "220 Wexcombe Road"},
        {"kind": "vendor", "id": "V-10588", "vendor": PSI, "terms": "N30", "remit": "5 Calder Works"},
    ],
}

# keys whose values are structural, not printed text
NON_TEXT_KEYS = {"kind", "fmt", "credit_note", "sign"}

failures = []


def fail(msg):
    failures.append(msg)


def read_text(fn):
    with open(os.path.join(DOCS, fn), encoding="utf-8") as f:
        return f.read()


# ---------------------------------------------------------------------------
# (a) verbatim check
# ---------------------------------------------------------------------------
def walk_leaves(obj, path=""):
    if isinstance(obj, dict):
        if "__date__" in obj:
            yield path, obj["__date__"]
            return
        for k, v in obj.items():
            if k in NON_TEXT_KEYS:
                continue
            # dict keys that are line ids / item codes are printed too
            if path.endswith("lines") or path.endswith("tiers"):
                yield path + "[key]", k
            yield from walk_leaves(v, path + "." + k)
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from walk_leaves(v, path + "[%d]" % i)
    elif isinstance(obj, str):
        yield path, obj


def verbatim_check():
    for fn, recs in FACTS.items():
        if not os.path.exists(os.path.join(DOCS, fn)):
            fail("fact base names missing document %s" % fn)
            continue
        text = read_text(fn)
        for r in recs:
            for path, s in walk_leaves(r):
                if s.endswith("*"):  # value implied (absent line = 0), not printed
                    continue
                if s not in text:
                    fail("%s: %s=%r not found verbatim" % (fn, path, s))
        if fn.endswith(".json"):
            body = text
            first = text.split("\n", 1)[0]
            if not first.lstrip().startswith("{"):
                body = text.split("\n", 1)[1]
            try:
                json.loads(body)
            except Exception as e:  # noqa
                fail("%s: JSON body does not parse: %s" % (fn, e))


def date_parse_check():
    def rec(o, where):
        if isinstance(o, dict):
            if "__date__" in o:
                try:
                    iso(o)
                except Exception as e:  # noqa
                    fail("%s: bad date %r: %s" % (where, o, e))
                return
            for v in o.values():
                rec(v, where)
        elif isinstance(o, list):
            for v in o:
                rec(v, where)
    for fn, recs in FACTS.items():
        rec(recs, fn)


def arithmetic_check():
    """Internal consistency of the documents (deliberate errors whitelisted)."""
    deliberate = {("inv_pellworth_24817.txt", "20")}  # printed 805.00, 4 x 212.50 = 850.00
    for fn, recs in FACTS.items():
        for r in recs:
            if r["kind"] not in ("po", "invoice") or "lines" not in r:
                continue
            tot = Decimal(0)
            for ln, l in r["lines"].items():
                if "amount" in l:
                    calc = num(l["qty"]) * num(l["price"])
                    if r.get("credit_note") and l.get("sign") == "-1":
                        calc = -calc
                    if calc != num(l["amount"]) and (fn, ln) not in deliberate:
                        fail("%s line %s: %s x %s != %s" % (fn, ln, l["qty"], l["price"], l["amount"]))
                    tot += num(l["amount"])
            if r["kind"] == "po" and all("amount" in l for l in r["lines"].values()):
                if tot != num(r["total"]):
                    fail("%s: PO lines sum %s != total %s" % (fn, tot, r["total"]))
            if r["kind"] == "invoice" and "subtotal" in r:
                if tot != num(r["subtotal"].rstrip("*")):
                    fail("%s: lines sum %s != subtotal" % (fn, tot))
                t = (num(r["subtotal"]) + num(r["discount"].rstrip("*")) + num(r["freight"].rstrip("*"))
                     + num(r["tax"]))
                if t != num(r["total"]):
                    fail("%s: totals block does not add up (%s)" % (fn, t))
            if r["kind"] == "invoice" and r.get("credit_note") and "lines" in r:
                if tot != num(r["total"]):
                    fail("%s: credit lines sum %s != total" % (fn, tot))
    # the ERP net_due_date agrees with baseline + net days
    r = FACTS["erp_invoice_24902.json"][0]
    if iso(r["date"]) + timedelta(days=int(r["terms_days"])) != iso(r["due"]):
        fail("erp_invoice_24902.json: due date inconsistent")


# ---------------------------------------------------------------------------
# (b) re-judging propositions
# ---------------------------------------------------------------------------
class Ambiguous(Exception):
    pass


def records(cites, kind, rid):
    out = []
    for fn in cites:
        for r in FACTS.get(fn, []):
            if r["kind"] == kind and r.get("id") == rid:
                out.append((fn, r))
    return out


def field(cites, kind, rid, getter):
    """Values of one slot across the cited records for (kind, id).
    None -> unsupported (no cited record states it).  Raises if the cited
    records disagree or if two different vendors share the id."""
    recs = records(cites, kind, rid)
    vendors = {r.get("vendor") for _, r in recs if r.get("vendor")}
    if len(vendors) > 1:
        raise Ambiguous("%s %s names records of %d vendors" % (kind, rid, len(vendors)))
    vals = set()
    for _, r in recs:
        try:
            v = getter(r)
        except (KeyError, TypeError):
            v = None
        if v is not None:
            vals.add(v)
    if not vals:
        return None
    if len(vals) > 1:
        raise Ambiguous("%s %s: cited records disagree: %s" % (kind, rid, vals))
    return vals.pop()


def cmp(actual, claimed):
    if actual is None:
        return "unsupported"
    return "supported" if actual == claimed else "contradicted"


def line_get(ln, key):
    return lambda r: num(r["lines"][ln][key])


def received_get(ln):
    def g(r):
        l = r["lines"][ln]
        if "accepted" in l and l["accepted"] != l["received"]:
            raise Ambiguous("received vs accepted differ on %s line %s" % (r["id"], ln))
        return num(l["received"])
    return g


def accepted_get(ln):
    def g(r):
        l = r["lines"][ln]
        return num(l.get("accepted", l["received"]))
    return g


def tier_price(contract, item, qty):
    for band, price in contract["tiers"][item]:
        m = re.match(r"(\d+) - (\d+)$", band)
        if m:
            lo, hi = int(m.group(1)), int(m.group(2))
        else:
            lo, hi = int(re.match(r"(\d+) and above$", band).group(1)), 10 ** 9
        if lo <= qty <= hi:
            return num(price)
    raise Ambiguous("no tier for %s at %s" % (item, qty))


def contract_rec(cites, cid):
    recs = records(cites, "contract", cid)
    return recs[0][1] if recs else None


def terms_days(r):
    if "terms_days" in r:
        return int(r["terms_days"])
    m = re.match(r"Net (\d+)", r["terms"])
    return int(m.group(1))


def judge(p):
    a, c, pred = p["args"], p["cites"], p["pred"]
    if pred == "ordered_quantity":
        return cmp(field(c, "po", a["po_id"], line_get(a["line"], "qty")), Decimal(str(a["quantity"])))
    if pred == "received_quantity":
        return cmp(field(c, "gr", a["receipt_id"], received_get(a["line"])), Decimal(str(a["quantity"])))
    if pred == "billed_quantity":
        return cmp(field(c, "invoice", a["invoice_id"], line_get(a["line"], "qty")), Decimal(str(a["quantity"])))
    if pred == "billed_unit_price":
        return cmp(field(c, "invoice", a["invoice_id"], line_get(a["line"], "price")), Decimal(str(a["unit_price"])))
    if pred == "billed_line_amount":
        return cmp(field(c, "invoice", a["invoice_id"], line_get(a["line"], "amount")), Decimal(str(a["amount"])))
    if pred == "computed_line_amount":
        q = field(c, "invoice", a["invoice_id"], line_get(a["line"], "qty"))
        pr = field(c, "invoice", a["invoice_id"], line_get(a["line"], "price"))
        return cmp(None if q is None or pr is None else q * pr, Decimal(str(a["amount"])))
    if pred == "invoice_subtotal":
        return cmp(field(c, "invoice", a["invoice_id"], lambda r: num(r["subtotal"])), Decimal(str(a["amount"])))
    if pred == "invoice_total":
        return cmp(field(c, "invoice", a["invoice_id"], lambda r: num(r["total"])), Decimal(str(a["amount"])))
    if pred == "contract_unit_price":
        k = contract_rec(c, a["contract_id"])
        if k is None or a["item"] not in k["tiers"]:
            return "unsupported"
        if a.get("quantity") is None:
            raise Ambiguous("tiered item priced without quantity")
        return cmp(tier_price(k, a["item"], int(a["quantity"])), Decimal(str(a["unit_price"])))
    if pred == "unit_price_variance":
        k = contract_rec(c, a["contract_id"])
        q = field(c, "invoice", a["invoice_id"], line_get(a["line"], "qty"))
        pr = field(c, "invoice", a["invoice_id"], line_get(a["line"], "price"))
        it = field(c, "invoice", a["invoice_id"], lambda r: r["lines"][a["line"]]["item"])
        if k is None or q is None or pr is None or a["item"] not in k["tiers"]:
            return "unsupported"
        if it != a["item"]:
            raise Ambiguous("invoice line item %s != arg item %s" % (it, a["item"]))
        return cmp(pr - tier_price(k, a["item"], int(q)), Decimal(str(a["amount"])))
    if pred == "quantity_variance":
        q = field(c, "invoice", a["invoice_id"], line_get(a["line"], "qty"))
        rcv = field(c, "gr", a["receipt_id"], accepted_get(a["line"]))
        return cmp(None if q is None or rcv is None else q - rcv, Decimal(str(a["quantity"])))
    if pred == "payment_due_date":
        d = field(c, "invoice", a["invoice_id"], lambda r: iso(r["date"]))
        n = field(c, "invoice", a["invoice_id"], terms_days)
        return cmp(None if d is None or n is None else (d + timedelta(days=n)).isoformat(), a["date"])
    if pred in ("days_late", "late_delivery_credit"):
        need = field(c, "po", a["po_id"], lambda r: iso(r["need_by"]))
        got = field(c, "gr", a["receipt_id"], lambda r: iso(r["date"]))
        grpo = field(c, "gr", a["receipt_id"], lambda r: r["po"])
        if grpo is not None and grpo != a["po_id"]:
            raise Ambiguous("receipt %s is for PO %s" % (a["receipt_id"], grpo))
        late = None if need is None or got is None else max(0, (got - need).days)
        if pred == "days_late":
            return cmp(late, int(a["days"]))
        k = contract_rec(c, a["contract_id"])
        povendor = field(c, "po", a["po_id"], lambda r: r["vendor"])
        if k is None or late is None:
            return "unsupported"
        if povendor != k["supplier"]:
            raise Ambiguous("contract does not cover this PO's vendor")
        recs = records(c, "po", a["po_id"])
        value = sum(num(l["qty"]) * num(l["price"]) for l in recs[0][1]["lines"].values())
        pct = min(late * num(k["late_pct_per_day"].strip("()")), num(k["late_cap_pct"].strip("()")))
        credit = (value * pct / 100).quantize(Decimal("0.01"))
        return cmp(credit, Decimal(str(a["amount"])))
    if pred == "requires_approval":
        pol = [r for fn in c for r in FACTS[fn] if r["kind"] == "policy"]
        tot = field(c, "invoice", a["invoice_id"], lambda r: num(r["total"]))
        if not pol or tot is None:
            return "unsupported"
        is_cn = field(c, "invoice", a["invoice_id"], lambda r: bool(r.get("credit_note")))
        if is_cn:
            need = False  # policy clause 3
        else:
            assert pol[0]["rule"] == "equal to or greater than"
            need = tot >= num(pol[0]["threshold"])
        return cmp(need, bool(a["value"]))
    if pred == "duplicate_invoice_number":
        inv_docs = [fn for fn in c if any(r["kind"] == "invoice" for r in FACTS[fn])]
        if len(inv_docs) < 2:
            raise Ambiguous("duplicate_invoice_number needs two cited invoices")
        recs = records(c, "invoice", a["invoice_id"])
        if not recs:
            return "unsupported"
        dup = any(r1["vendor"] == r2["vendor"] and f1 != f2
                  for f1, r1 in recs for f2, r2 in recs)
        return cmp(dup, bool(a["value"]))
    if pred == "vendor_name":
        vals = set()
        for fn in c:
            for r in FACTS[fn]:
                if r.get("id") == a["document_id"] and r["kind"] in ("po", "gr", "invoice", "contract"):
                    vals.add(r.get("supplier") or r.get("vendor"))
        vals.discard(None)
        if len(vals) > 1:
            raise Ambiguous("vendor_name subject names %d vendors" % len(vals))
        return cmp(vals.pop() if vals else None, a["vendor"])
    if pred in ("liability_cap", "notice_period_days", "term_end_date", "effective_date", "contract_party"):
        k = contract_rec(c, a["contract_id"])
        if k is None:
            return "unsupported"
        if pred == "liability_cap":
            r = cmp(num(k["liability_cap"]), Decimal(str(a["amount"])))
            if r == "supported" and a.get("currency") not in (None, k["currency"]):
                r = "contradicted"
            return r
        if pred == "notice_period_days":
            return cmp(int(re.search(r"\d+", k["notice_days"]).group()), int(a["days"]))
        if pred == "term_end_date":
            return cmp(iso(k["term_end"]).isoformat(), a["date"])
        if pred == "effective_date":
            return cmp(iso(k["effective"]).isoformat(), a["date"])
        role = {"buyer": "buyer", "customer": "buyer", "supplier": "supplier", "vendor": "supplier"}[a["role"]]
        return cmp(k[role], a["name"])
    raise Ambiguous("unknown predicate %s" % pred)


# ---------------------------------------------------------------------------
# (c) schema and aggregation
# ---------------------------------------------------------------------------
ARGS = {
    "ordered_quantity": ["po_id", "line", "quantity"],
    "received_quantity": ["receipt_id", "line", "quantity"],
    "billed_quantity": ["invoice_id", "line", "quantity"],
    "billed_unit_price": ["invoice_id", "line", "unit_price"],
    "billed_line_amount": ["invoice_id", "line", "amount"],
    "computed_line_amount": ["invoice_id", "line", "amount"],
    "invoice_subtotal": ["invoice_id", "amount"],
    "invoice_total": ["invoice_id", "amount"],
    "contract_unit_price": ["contract_id", "item", "unit_price", "quantity?"],
    "unit_price_variance": ["invoice_id", "line", "contract_id", "item", "amount"],
    "quantity_variance": ["invoice_id", "receipt_id", "line", "quantity"],
    "payment_due_date": ["invoice_id", "date"],
    "days_late": ["po_id", "receipt_id", "days"],
    "late_delivery_credit": ["po_id", "receipt_id", "contract_id", "amount"],
    "requires_approval": ["invoice_id", "value"],
    "duplicate_invoice_number": ["invoice_id", "value"],
    "vendor_name": ["document_id", "vendor"],
    "statement": ["text"],
    "liability_cap": ["contract_id", "amount", "currency?"],
    "notice_period_days": ["contract_id", "days"],
    "term_end_date": ["contract_id", "date"],
    "effective_date": ["contract_id", "date"],
    "contract_party": ["contract_id", "role", "name"],
}
NUMERIC = {"quantity", "unit_price", "amount", "days"}
STRING = {"po_id", "receipt_id", "invoice_id", "line", "contract_id", "item", "document_id",
          "vendor", "text", "role", "name", "currency"}
LABELS = ("supported", "contradicted", "unsupported")


def aggregate(labels):
    if all(x == "supported" for x in labels):
        return "supported"
    if any(x == "contradicted" for x in labels):
        return "contradicted"
    return "unsupported"


def schema_check(p, cid):
    pred = p.get("pred")
    if set(p) != {"pred", "args", "cites", "expected"}:
        fail("%s: proposition keys %s" % (cid, sorted(p)))
    if pred not in ARGS:
        fail("%s: unknown pred %s" % (cid, pred))
        return
    need = [x for x in ARGS[pred] if not x.endswith("?")]
    opt = [x[:-1] for x in ARGS[pred] if x.endswith("?")]
    keys = set(p["args"])
    if not set(need) <= keys or not keys <= set(need) | set(opt):
        fail("%s: %s args %s" % (cid, pred, sorted(keys)))
    for k, v in p["args"].items():
        if k in NUMERIC and not (v is None and k in opt) and (isinstance(v, bool) or not isinstance(v, (int, float))):
            fail("%s: %s.%s must be a number" % (cid, pred, k))
        if k in STRING and not (v is None and k in opt) and not isinstance(v, str):
            fail("%s: %s.%s must be a string" % (cid, pred, k))
        if k == "value" and not isinstance(v, bool):
            fail("%s: value must be boolean" % cid)
        if k == "date":
            try:
                date.fromisoformat(v)
            except Exception:  # noqa
                fail("%s: date %r not ISO" % (cid, v))
    if p.get("expected") not in LABELS:
        fail("%s: bad proposition label" % cid)
    if not isinstance(p.get("cites"), list) or not p["cites"]:
        fail("%s: cites must be a non-empty list" % cid)
    for fn in p.get("cites", []):
        if not os.path.exists(os.path.join(DOCS, fn)):
            fail("%s: cited file %s does not exist" % (cid, fn))


def claims_check():
    path = os.path.join(HERE, "claims.jsonl")
    claims = []
    with open(path, encoding="utf-8") as f:
        for i, line in enumerate(f, 1):
            if not line.strip():
                fail("claims.jsonl line %d empty" % i)
                continue
            claims.append(json.loads(line))
    ids = set()
    pred_count = {k: 0 for k in ARGS}
    label_count = {k: 0 for k in LABELS}
    multi = 0
    nprops = 0
    for cl in claims:
        cid = cl.get("id")
        if list(cl) != ["id", "text", "blocking", "expected", "propositions", "note"]:
            fail("%s: claim keys %s" % (cid, list(cl)))
        if cid in ids or not re.fullmatch(r"h\d{3}", cid or ""):
            fail("bad or duplicate id %r" % cid)
        ids.add(cid)
        if not isinstance(cl.get("blocking"), bool):
            fail("%s: blocking must be boolean" % cid)
        if not isinstance(cl.get("text"), str) or not cl["text"].strip():
            fail("%s: empty text" % cid)
        props = cl.get("propositions", [])
        if not props:
            fail("%s: no propositions" % cid)
        multi += len(props) > 1
        nprops += len(props)
        for p in props:
            schema_check(p, cid)
            pred_count[p.get("pred")] = pred_count.get(p.get("pred"), 0) + 1
            if p.get("pred") == "statement" or p.get("pred") not in ARGS:
                continue
            try:
                got = judge(p)
            except Ambiguous as e:
                fail("%s: %s is ambiguous: %s" % (cid, p["pred"], e))
                continue
            if got != p["expected"]:
                fail("%s: %s %s labelled %s but recomputes to %s"
                     % (cid, p["pred"], json.dumps(p["args"]), p["expected"], got))
        agg = aggregate([p.get("expected") for p in props])
        if cl.get("expected") != agg:
            fail("%s: claim label %s != aggregation %s" % (cid, cl.get("expected"), agg))
        label_count[cl.get("expected")] = label_count.get(cl.get("expected"), 0) + 1
    n = len(claims)
    if not 100 <= n <= 120:
        fail("claim count %d outside 100-120" % n)
    if not 15 <= multi <= 25:
        fail("multi-proposition claims %d outside 15-25" % multi)
    for k, v in pred_count.items():
        if k == "statement":
            if not 8 <= v <= 12:
                fail("statement count %d outside 8-12" % v)
        elif v < 3:
            fail("predicate %s used %d times (<3)" % (k, v))
    return n, nprops, multi, label_count, pred_count


def manifest_check():
    with open(os.path.join(HERE, "manifest.json"), encoding="utf-8") as f:
        man = json.load(f)
    files = sorted(os.listdir(DOCS))
    if sorted(man) != files:
        fail("manifest does not list exactly the documents")
    for fn, m in man.items():
        if set(m) != {"media_type", "title"}:
            fail("manifest %s keys" % fn)
        want = "application/json" if fn.endswith(".json") else "text/plain; charset=utf-8"
        if m.get("media_type") != want:
            fail("manifest %s media_type" % fn)
        if fn.endswith(".txt") and os.path.exists(os.path.join(DOCS, fn)):
            if read_text(fn).split("\n", 1)[0] != m.get("title"):
                fail("manifest %s title is not the first line" % fn)
    if not 15 <= len(files) <= 18:
        fail("document count %d outside 15-18" % len(files))
    if set(FACTS) != set(files):
        fail("fact base does not cover exactly the documents")
    return len(files)


def main():
    verbatim_check()
    date_parse_check()
    arithmetic_check()
    ndocs = manifest_check()
    n, nprops, multi, labels, preds = claims_check()
    print("documents:", ndocs)
    print("claims:", n, "propositions:", nprops, "multi-proposition claims:", multi)
    print("claim labels:", labels)
    print("predicates:", dict(sorted(preds.items())))
    if failures:
        print("\nFAIL (%d):" % len(failures))
        for m in failures:
            print("  -", m)
        sys.exit(1)
    print("\nOK: all checks passed")


if __name__ == "__main__":
    main()
