"""Self-check for ap_dev5 (python3, stdlib only).
Hand-entered fact base per document; every text fact is asserted verbatim in its document,
every JSON fact is read from its path; every non-statement proposition is re-evaluated."""
import json, os, sys
from datetime import datetime, timedelta
from decimal import Decimal, ROUND_HALF_UP

HERE = os.path.dirname(os.path.abspath(__file__))
DOCS = os.path.join(HERE, "documents")
D = lambda x: Decimal(str(x))
N = lambda s: Decimal(s.replace(",", ""))            # printed amount / qty -> Decimal
R2 = lambda x: x.quantize(Decimal("0.01"), ROUND_HALF_UP)

class Doc:
    def __init__(self, name):
        self.name = name
        self.text = open(os.path.join(DOCS, name), encoding="utf-8").read()
        self.json = json.loads(self.text) if name.endswith(".json") else None
    def t(self, s):
        assert s in self.text, (self.name, s)
        return s
    def n(self, s):
        return N(self.t(s))
    def date(self, s, fmt):
        return datetime.strptime(self.t(s), fmt).date()
    def row(self, *pieces):
        for ln in self.text.splitlines():
            pos, ok = 0, True
            for pc in pieces:
                i = ln.find(pc, pos)
                if i < 0: ok = False; break
                pos = i + len(pc)
            if ok: return pieces
        raise AssertionError((self.name, "row", pieces))
    def j(self, *path):
        v = self.json
        for k in path: v = v[k]
        return v
    def jd(self, *path):
        return datetime.strptime(self.j(*path), "%Y-%m-%d").date()

KB = {}
OM, BC, BUY = "Ostmark Millworks AG", "Brindle Coast Seafood Ltd", "Larkspur Kitchen Group GmbH"

# ---- contract
d = Doc("contract_CT-2026-014.txt")
d.t("SUPPLY AGREEMENT CT-2026-014"); d.t("(the \"Buyer\")"); d.t("(the \"Supplier\")")
d.t("Larkspur Kitchen Group GmbH, Hafenstrasse 12"); d.t("Ostmark Millworks AG, Muehlenweg 3")
d.t("EUR 0.92 per kg for orders of up to 999 kg"); d.t("EUR 0.86 per kg for orders from 1,000 kg up to 2,499 kg")
d.t("EUR 0.81 per kg for orders of 2,500 kg or more"); d.t("EUR 1.40 per kg for orders of up to 499 kg")
d.t("EUR 1.32 per kg for orders from 500 kg"); d.t("EUR 1.05 per kg regardless of quantity")
d.t("two percent (2%) of the purchase order value"); d.t("for each full calendar day of delay")
d.t("shall not exceed ten percent (10%) of that purchase order value")
d.t("within forty-five (45) calendar days of the invoice date (Net 45)")
d.t("liability under this Agreement is capped at EUR 250,000.00"); d.t("ninety (90) days' written notice")
KB[d.name] = [dict(kind="contract", id=d.t("CT-2026-014"), buyer=d.t(BUY), supplier=d.t(OM),
    effective=d.date("15 January 2026", "%d %B %Y"), end=d.date("14 January 2027", "%d %B %Y"),
    notice=90, cap=d.n("250,000.00"), currency=d.t("EUR"), net_days=45,
    late_pct=Decimal("0.02"), late_cap=Decimal("0.10"),
    tiers={"FL-550": [(0, 999, d.n("0.92")), (1000, 2499, d.n("0.86")), (2500, 10**9, d.n("0.81"))],
           "SM-200": [(0, 499, d.n("1.40")), (500, 10**9, d.n("1.32"))],
           "RY-997": [(0, 10**9, d.n("1.05"))]})]

# ---- purchase orders
def po_lines(d, rows):  # rows: line -> (row pieces, qty printed, price printed)
    out = {}
    for line, (pieces, q, p) in rows.items():
        d.row(*pieces); out[line] = (N(q), N(p))
    return out
d = Doc("po_PO-7731.txt")
KB[d.name] = [dict(kind="po", id=d.t("PO-7731"), vendor=d.t(OM), buyer=d.t(BUY),
    required=d.date("2026-02-10", "%Y-%m-%d"),
    lines=po_lines(d, {"1": (("| 1 ", "FL-550", "2,600", "0.81", "2,106.00"), "2,600", "0.81"),
                       "2": (("| 2 ", "SM-200", "400", "1.40", "560.00"), "400", "1.40")}))]
d.t("Required delivery date: 2026-02-10"); d.t("Order total (EUR, excl. VAT): 2,666.00")
d = Doc("po_PO-7745.txt")
d.t("Deliver no later than: 12 March 2026")
KB[d.name] = [dict(kind="po", id=d.t("PO-7745"), vendor=d.t(OM), buyer=d.t(BUY),
    required=d.date("12 March 2026", "%d %B %Y"),
    lines=po_lines(d, {"1": (("1 ", "FL-550", "1,200", "0.86", "1,032.00"), "1,200", "0.86"),
                       "2": (("2 ", "RY-997", "300", "1.05", "315.00"), "300", "1.05"),
                       "3": (("3 ", "SM-200", "600", "1.32", "792.00"), "600", "1.32")}))]
d.t("TOTAL EUR     2,139.00")
d = Doc("po_PO-7760.txt")
d.t("Required delivery (DD/MM/YYYY),13/03/2026")
KB[d.name] = [dict(kind="po", id=d.t("PO-7760"), vendor=d.t(BC), buyer=d.t(BUY),
    required=d.date("13/03/2026", "%d/%m/%Y"),
    lines=po_lines(d, {"BCS-COD-10": (("BCS-COD-10,", ",150,14.80,", "2,220.00"), "150", "14.80"),
                       "BCS-MUS-05": (("BCS-MUS-05,", ",200,6.25,", "1,250.00"), "200", "6.25")}))]

# ---- goods receipts
d = Doc("gr_GR-40112.txt")
d.row("Line 1: FL-550", "received 2,600 kg"); d.row("Line 2: SM-200", "received 400 kg"); d.t("Vendor: Ostmark Millworks AG")
KB[d.name] = [dict(kind="gr", id=d.t("GR-40112"), po=d.t("PO-7731"), vendor=d.t(OM),
    date=d.date("13.02.2026", "%d.%m.%Y"), lines={"1": N("2,600"), "2": N("400")})]
d.t("Received on: 13.02.2026")
d = Doc("gr_GR-40158.txt")
d.row("| 1 ", "FL-550", "1,200", "1,200"); d.row("| 2 ", "RY-997", "300", "260", "short"); d.row("| 3 ", "SM-200", "600", "600")
d.t("GR-40158 - Goods receipt - Ostmark Millworks AG"); d.t("Carrier: Ostmark Logistics GmbH")
KB[d.name] = [dict(kind="gr", id=d.t("GR-40158"), po=d.t("PO-7745"), vendor=OM,
    date=d.date("19 March 2026", "%d %B %Y"), lines={"1": N("1,200"), "2": N("260"), "3": N("600")})]
d = Doc("gr_GR-40171.txt")
d.t("Item BCS-COD-10 (Atlantic cod fillet) was received in full, 150 kg"); d.t("Item BCS-MUS-05 (live blue mussels) was received in full, 200 kg")
d.t("Receiving note GR-40171 (Brindle Coast Seafood Ltd)")
KB[d.name] = [dict(kind="gr", id=d.t("GR-40171"), po=d.t("PO-7760"), vendor=d.t(BC),
    date=d.date("12-Mar-2026", "%d-%b-%Y"), lines={"BCS-COD-10": N("150"), "BCS-MUS-05": N("200")})]

# ---- invoices
def inv_lines(d, rows):  # line -> (row pieces, qty, price, amount)
    out = {}
    for line, (pieces, q, p, a) in rows.items():
        d.row(*pieces); out[line] = (N(q), N(p), N(a))
    return out
for name in ("invoice_OM-26-0188.txt", "invoice_OM-26-0188_resubmission.txt"):
    d = Doc(name)
    d.t("Payment terms: as per supply agreement CT-2026-014"); d.t("Invoice date: 14 Feb 2026")
    d.t("Subtotal: EUR 2,744.00"); d.t("VAT 7%: EUR 192.08"); d.t("Total due: EUR 2,936.08")
    KB[name] = [dict(kind="inv", id=d.t("OM-26-0188"), vendor=d.t(OM), date=d.date("14 Feb 2026", "%d %b %Y"),
        terms=("contract", "CT-2026-014"), subtotal=d.n("2,744.00"), total=d.n("2,936.08"),
        lines=inv_lines(d, {"1": (("1 ", "FL-550", "2,600", "0.84", "2,184.00"), "2,600", "0.84", "2,184.00"),
                            "2": (("2 ", "SM-200", "400", "1.40", "560.00"), "400", "1.40", "560.00")}))]
assert R2(D("2744.00") * D("0.07")) == D("192.08") and D("2744.00") + D("192.08") == D("2936.08")
d = Doc("invoice_OM-26-0231.txt")
d.t("Date: 20.03.2026"); d.t("Terms: Net 45 days from invoice date"); d.t("Subtotal goods: 2,127.00")
d.t("Loyalty discount 2%: -42.54"); d.t("Freight: 85.00"); d.t("Net amount: 2,169.46"); d.t("VAT 7%: 151.86"); d.t("Total payable EUR: 2,321.32")
KB[d.name] = [dict(kind="inv", id=d.t("OM-26-0231"), vendor=d.t(OM), date=d.date("20.03.2026", "%d.%m.%Y"),
    terms=("net", 45), subtotal=d.n("2,127.00"), total=d.n("2,321.32"),
    lines=inv_lines(d, {"1": (("| 1 ", "FL-550", "1,200", "0.86", "1,032.00"), "1,200", "0.86", "1,032.00"),
                        "2": (("| 2 ", "RY-997", "300", "1.05", "315.00"), "300", "1.05", "315.00"),
                        "3": (("| 3 ", "SM-200", "600", "1.30", "780.00"), "600", "1.30", "780.00")}))]
sub = D("2127.00"); disc = R2(sub * D("-0.02")); net = sub + disc + D("85.00"); vat = R2(net * D("0.07"))
assert (disc, net, vat, net + vat) == (D("-42.54"), D("2169.46"), D("151.86"), D("2321.32"))
d = Doc("invoice_BCS-INV-5520.txt")
d.t("Invoice date: 14/03/2026"); d.t("Terms: Net 14"); d.t("Subtotal EUR 3,500.00"); d.t("VAT 7% EUR 245.00"); d.t("TOTAL EUR 3,745.00")
KB[d.name] = [dict(kind="inv", id=d.t("BCS-INV-5520"), vendor=d.t(BC), date=d.date("14/03/2026", "%d/%m/%Y"),
    terms=("net", 14), subtotal=d.n("3,500.00"), total=d.n("3,745.00"),
    lines=inv_lines(d, {"BCS-COD-10": (("BCS-COD-10;", ";150;14.80;2,200.00"), "150", "14.80", "2,200.00"),
                        "BCS-MUS-05": (("BCS-MUS-05;", ";208;6.25;1,300.00"), "208", "6.25", "1,300.00")}))]

# ---- policy, e-mail
d = Doc("policy_POL-AP-03.txt")
d.t("gross total (the total payable including VAT and freight, after discounts) is EUR 2,800.00 or more requires written approval")
KB[d.name] = [dict(kind="policy", threshold=d.n("2,800.00"), basis="total")]
d = Doc("email_ostmark_2026-03-23.txt")
d.t("flat credit of EUR 120.00"); d.t("Net 60"); d.t("EUR 0.89 per kg")
KB[d.name] = []

# ---- ERP JSON
d = Doc("erp_po_PO-7745.json")
items = d.j("result", "body", "items")
KB[d.name] = [dict(kind="po", id=d.j("result", "header", "ids", "po_number"), vendor=d.j("result", "header", "partner", "name"),
    required=d.jd("result", "header", "dates", "schedule", "need_by"),
    lines={it["pos"]: (D(it["qty"]["ordered"]), D(it["price"]["net"])) for it in items}),
    dict(kind="gr", id=d.j("result", "history", "goods_movements", 0, "gr"), po="PO-7745", vendor=None, date=None,
         posting=d.jd("result", "history", "goods_movements", 0, "posting_date"),
         lines={k: D(v) for k, v in d.j("result", "history", "goods_movements", 0, "qty_by_pos").items()})]
d = Doc("erp_open_items_ostmark.json")
KB[d.name] = [dict(kind="inv", id=x["ref"]["vendor_invoice_no"], vendor=d.j("vendor", "display"),
    date=datetime.strptime(x["dates"]["invoice"], "%Y-%m-%d").date(), terms=None,
    subtotal=D(x["amounts"]["goods_value"]), total=D(x["amounts"]["gross"]), lines=None)
    for x in d.j("open_items", "documents")]
d = Doc("erp_gr_postings.json")
KB[d.name] = [dict(kind="gr", id=r["doc"]["gr_no"], po=r["doc"]["po"], vendor=r["vendor"]["name"], date=None,
    posting=datetime.strptime(r["posting"]["posted_on"], "%Y-%m-%d").date(),
    lines={(l.get("po_line") or l.get("sku")): D(l["received"]["value"]) for l in r["lines"]})
    for r in d.j("data", "rows")]

# ---- evaluator
S, X, U = "supported", "contradicted", "unsupported"
cmp = lambda a, b: S if a == b else X

def recs(cites, kind, id_=None):
    out = []
    for f in cites:
        for i, r in enumerate(KB[f]):
            if r["kind"] == kind and (id_ is None or r.get("id") == id_):
                out.append((f, i, r))
    return [r for _, _, r in out] if kind != "inv_fi" else out

def first(rs, key, sub=None):
    for r in rs:
        v = r.get(key)
        if v is None: continue
        if sub is None: return v
        if sub in v: return v[sub]
    return None

def tier(c, item, qty):
    for lo, hi, p in c["tiers"].get(item, []):
        if lo <= qty <= hi: return p
    return None

def evaluate(pred, a, cites):
    if pred == "ordered_quantity":
        v = first(recs(cites, "po", a["po_id"]), "lines", a["line"])
        return U if v is None else cmp(v[0], D(a["quantity"]))
    if pred == "received_quantity":
        v = first(recs(cites, "gr", a["receipt_id"]), "lines", a["line"])
        return U if v is None else cmp(v, D(a["quantity"]))
    if pred in ("billed_quantity", "billed_unit_price", "billed_line_amount", "computed_line_amount"):
        v = first(recs(cites, "inv", a["invoice_id"]), "lines", a["line"])
        if v is None: return U
        if pred == "billed_quantity": return cmp(v[0], D(a["quantity"]))
        if pred == "billed_unit_price": return cmp(v[1], D(a["unit_price"]))
        if pred == "billed_line_amount": return cmp(v[2], D(a["amount"]))
        return cmp(R2(v[0] * v[1]), D(a["amount"]))
    if pred in ("invoice_subtotal", "invoice_total"):
        v = first(recs(cites, "inv", a["invoice_id"]), "subtotal" if pred == "invoice_subtotal" else "total")
        return U if v is None else cmp(v, D(a["amount"]))
    cs = recs(cites, "contract", a.get("contract_id"))
    c = cs[0] if cs else None
    if pred == "contract_unit_price":
        if c is None or a["item"] not in c["tiers"]: return U
        if a.get("quantity") is None:
            return S if D(a["unit_price"]) in [t[2] for t in c["tiers"][a["item"]]] else X
        return cmp(tier(c, a["item"], D(a["quantity"])), D(a["unit_price"]))
    if pred == "unit_price_variance":
        v = first(recs(cites, "inv", a["invoice_id"]), "lines", a["line"])
        if v is None or c is None: return U
        return cmp(v[1] - tier(c, a["item"], v[0]), D(a["amount"]))
    if pred == "quantity_variance":
        b = first(recs(cites, "inv", a["invoice_id"]), "lines", a["line"])
        r = first(recs(cites, "gr", a["receipt_id"]), "lines", a["line"])
        if b is None or r is None: return U
        return cmp(b[0] - r, D(a["quantity"]))
    if pred == "payment_due_date":
        rs = recs(cites, "inv", a["invoice_id"])
        dt, terms = first(rs, "date"), first(rs, "terms")
        if dt is None or terms is None: return U
        if terms[0] == "net": days = terms[1]
        else:
            cc = recs(cites, "contract", terms[1])
            if not cc: return U
            days = cc[0]["net_days"]
        return cmp((dt + timedelta(days=days)).isoformat(), a["date"])
    def late_days():
        req = first(recs(cites, "po", a["po_id"]), "required")
        got = first(recs(cites, "gr", a["receipt_id"]), "date")
        return None if req is None or got is None else max(0, (got - req).days)
    if pred == "days_late":
        n = late_days()
        return U if n is None else cmp(n, a["days"])
    if pred == "late_delivery_credit":
        n = late_days(); lines = first(recs(cites, "po", a["po_id"]), "lines")
        if n is None or c is None or lines is None: return U
        value = sum(q * p for q, p in lines.values())
        return cmp(R2(min(c["late_pct"] * n, c["late_cap"]) * value), D(a["amount"]))
    if pred == "requires_approval":
        tot = first(recs(cites, "inv", a["invoice_id"]), "total"); pol = recs(cites, "policy")
        if tot is None or not pol: return U
        return cmp(tot >= pol[0]["threshold"], a["value"])
    if pred == "duplicate_invoice_number":
        allinv = [(f, i, r) for f in cites for i, r in enumerate(KB[f]) if r["kind"] == "inv"]
        assert len(allinv) >= 2, "duplicate_invoice_number needs two cited invoices"
        tgt = [(f, i, r) for f, i, r in allinv if r["id"] == a["invoice_id"]]
        if not tgt: return U
        f0, i0, r0 = tgt[0]
        dup = any(r["id"] == r0["id"] and r["vendor"] == r0["vendor"] and (f, i) != (f0, i0) for f, i, r in allinv)
        return cmp(dup, a["value"])
    if pred == "vendor_name":
        for f in cites:
            for r in KB[f]:
                if r.get("id") == a["document_id"] and r.get("vendor"):
                    return cmp(r["vendor"], a["vendor"])
        return U
    if c is None: return U
    if pred == "liability_cap":
        if a.get("currency") not in (None, c["currency"]): return X
        return cmp(c["cap"], D(a["amount"]))
    if pred == "notice_period_days": return cmp(c["notice"], a["days"])
    if pred == "term_end_date": return cmp(c["end"].isoformat(), a["date"])
    if pred == "effective_date": return cmp(c["effective"].isoformat(), a["date"])
    if pred == "contract_party":
        role = {"customer": "buyer", "vendor": "supplier"}.get(a["role"], a["role"])
        return cmp(c[role], a["name"])
    raise AssertionError("unknown predicate " + pred)

ARGS = {"ordered_quantity": {"po_id", "line", "quantity"}, "received_quantity": {"receipt_id", "line", "quantity"},
    "billed_quantity": {"invoice_id", "line", "quantity"}, "billed_unit_price": {"invoice_id", "line", "unit_price"},
    "billed_line_amount": {"invoice_id", "line", "amount"}, "computed_line_amount": {"invoice_id", "line", "amount"},
    "invoice_subtotal": {"invoice_id", "amount"}, "invoice_total": {"invoice_id", "amount"},
    "contract_unit_price": {"contract_id", "item", "unit_price", "quantity?"},
    "unit_price_variance": {"invoice_id", "line", "contract_id", "item", "amount"},
    "quantity_variance": {"invoice_id", "receipt_id", "line", "quantity"}, "payment_due_date": {"invoice_id", "date"},
    "days_late": {"po_id", "receipt_id", "days"}, "late_delivery_credit": {"po_id", "receipt_id", "contract_id", "amount"},
    "requires_approval": {"invoice_id", "value"}, "duplicate_invoice_number": {"invoice_id", "value"},
    "vendor_name": {"document_id", "vendor"}, "statement": {"text"},
    "liability_cap": {"contract_id", "amount", "currency?"}, "notice_period_days": {"contract_id", "days"},
    "term_end_date": {"contract_id", "date"}, "effective_date": {"contract_id", "date"},
    "contract_party": {"contract_id", "role", "name"}}

def main():
    files = sorted(os.listdir(DOCS))
    assert 14 <= len(files) <= 16 and set(files) == set(KB), files
    man = json.load(open(os.path.join(HERE, "manifest.json"), encoding="utf-8"))
    assert set(man) == set(files)
    for f, m in man.items():
        assert set(m) == {"media_type", "title"}
        if f.endswith(".json"): assert m["media_type"] == "application/json"
        else:
            assert m["media_type"] == "text/plain; charset=utf-8"
            assert m["title"] == open(os.path.join(DOCS, f), encoding="utf-8").read().splitlines()[0]
    claims = [json.loads(l) for l in open(os.path.join(HERE, "claims.jsonl"), encoding="utf-8")]
    assert 80 <= len(claims) <= 100
    used = {}
    for i, c in enumerate(claims, 1):
        assert list(c) == ["id", "text", "blocking", "expected", "propositions", "note"], c["id"]
        assert c["id"] == "k%03d" % i and isinstance(c["blocking"], bool)
        labs = []
        for p in c["propositions"]:
            assert list(p) == ["pred", "args", "cites", "expected"], c["id"]
            want = ARGS[p["pred"]]
            req = {k for k in want if not k.endswith("?")}; opt = {k[:-1] for k in want if k.endswith("?")}
            assert req <= set(p["args"]) <= req | opt, (c["id"], p["args"])
            if "line" in p["args"]: assert isinstance(p["args"]["line"], str)
            if "value" in p["args"]: assert isinstance(p["args"]["value"], bool)
            for f in p["cites"]: assert f in KB, (c["id"], f)
            used[p["pred"]] = used.get(p["pred"], 0) + 1
            if p["pred"] != "statement":
                got = evaluate(p["pred"], p["args"], p["cites"])
                assert got == p["expected"], (c["id"], p["pred"], got, p["expected"])
            labs.append(p["expected"])
        agg = S if all(l == S for l in labs) else X if X in labs else U
        assert agg == c["expected"], c["id"]
    missing = [k for k in ARGS if used.get(k, 0) < 2]
    assert not missing, missing
    assert 5 <= used["statement"] <= 8
    print("check.py: OK", len(files), "documents,", len(claims), "claims,", sum(used.values()), "propositions")

if __name__ == "__main__":
    main()
