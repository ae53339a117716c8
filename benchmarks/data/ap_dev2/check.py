"""Recompute every computed value from the documents and check claims.jsonl labels."""
import json, os, re, datetime as dt
from decimal import Decimal as Dm, ROUND_HALF_UP
HERE = os.path.dirname(os.path.abspath(__file__)); D = os.path.join(HERE, "documents")
txt = {n: open(os.path.join(D, n)).read() for n in os.listdir(D)}
js = {n: json.loads(t) for n, t in txt.items() if n.endswith(".json")}
q2 = lambda x: Dm(str(x)).quantize(Dm("0.01"), ROUND_HALF_UP)
day = lambda s: dt.date.fromisoformat(s)

# ---- parse text documents ----
def csv_block(t, header_start):
    lines = t.split("\n"); i = next(k for k, l in enumerate(lines) if l.startswith(header_start))
    hdr = lines[i].split(","); out = []
    for l in lines[i+1:]:
        if not l.strip() or l.startswith("---"): break
        out.append(dict(zip(hdr, l.split(","))))
    return out
num = lambda s: Dm(s.replace(",", ""))
# PO-77310 fixed width
po1 = {}
for l in txt["po_PO-77310.txt"].split("\n"):
    m = re.match(r"\s+(\d)\s+(\S+)\s+.+?\s+([\d,]+)\s+[A-Z]+\s+([\d.]+)\s+([\d,.]+)$", l)
    if m: po1[m[1]] = dict(item=m[2], qty=num(m[3]), price=num(m[4]), ext=num(m[5]))
gr1 = {r["line"]: dict(item=r["item"], ordered=num(r["qty_ordered"]), received=num(r["qty_received"])) for r in csv_block(txt["gr_GRN-55018.txt"], "line,item")}
inv1 = {}
for l in txt["invoice_HG-20931.txt"].split("\n"):
    m = re.match(r"\|\s*(\d)\s*\|\s*(\S+)\s*\|[^|]+\|\s*([\d,]+)\s*\|[^|]+\|\s*([\d.]+)\s*\|\s*([\d,.]+)\s*\|", l)
    if m: inv1[m[1]] = dict(item=m[2], qty=num(m[3]), price=num(m[4]), amt=num(m[5]))
def kv(t, key):
    m = re.search(re.escape(key) + r"\s*([\d,]+\.\d\d)", t); return num(m[1])
inv1_tot = dict(sub=kv(txt["invoice_HG-20931.txt"], "Subtotal:"), frt=kv(txt["invoice_HG-20931.txt"], "Freight (prepaid and added):"),
                tax=kv(txt["invoice_HG-20931.txt"], "on goods:"), total=kv(txt["invoice_HG-20931.txt"], "TOTAL DUE (USD):"))
po3 = {r["line_no"]: dict(item=r["item"], qty=num(r["quantity"]), price=num(r["unit_price"]), ext=num(r["extended"])) for r in csv_block(txt["po_PO-77388.txt"], "line_no,")}
inv3 = {}
for l in txt["invoice_BWL-6604.txt"].split("\n"):
    m = re.match(r"\s*(\d)\s+(\S+)\s+.+?\s+([\d,]+)\s+([\d.]+)\s+([\d,.]+)$", l)
    if m: inv3[m[1]] = dict(item=m[2], qty=num(m[3]), price=num(m[4]), amt=num(m[5]))
t3 = txt["invoice_BWL-6604.txt"]
inv3_tot = dict(sub=kv(t3, "MERCHANDISE TOTAL"), frt=kv(t3, "FREIGHT"), tax=kv(t3, "RC-88120)"), total=kv(t3, "USD"))
t2b = txt["invoice_HG-20958_2026-04-28.txt"]
inv2b = {}
for blk in re.findall(r"Line (\d+)\n((?:  .+\n)+)", t2b):
    f = dict(re.findall(r"  ([A-Za-z ]+): (.+)", blk[1]))
    inv2b[blk[0]] = dict(item=f["Item"], qty=num(f["Quantity"].split()[0]), price=num(f["Unit price"]), amt=num(f["Line amount"]))
inv2b_tot = dict(sub=kv(t2b, "Subtotal:"), frt=kv(t2b, "Freight:"), tax=kv(t2b, "8.5%:"), total=kv(t2b, "Total due USD:"))
# JSON docs
P2 = js["erp_po_PO-77342.json"]["data"]["purchaseOrder"]
po2 = {str(l["line_no"]): dict(item=l["item"]["sku"], qty=Dm(str(l["schedule"][0]["qty"])), price=Dm(str(l["pricing"]["unitPrice"])), ext=q2(l["extended"])) for l in P2["lines"]}
R2 = js["erp_gr_GRN-55061.json"]["payload"]["receipt"]
gr2 = {str(i["poLine"]["line_no"]): dict(item=i["poLine"]["sku"], received=Dm(i["quantities"]["received"]), hu=sum(h["qty"] for h in i["handlingUnits"])) for i in R2["items"]}
I2 = js["erp_invoice_HG-20958.json"]["ap"]["documents"][0]
inv2 = {str(l["line_no"]): dict(item=l["sku"], qty=Dm(l["billed"]["qty"]), price=Dm(str(l["billed"]["unitPrice"])), amt=q2(l["billed"]["lineAmount"])) for l in I2["amounts"]["lines"]}
T = I2["amounts"]["totals"]; inv2_tot = dict(sub=q2(T["net"]), frt=q2(T["freight"]), tax=q2(T["tax"]["amount"]), total=q2(T["gross"]))
R3 = js["erp_gr_GRN-55090.json"]["response"]["body"]["documents"][0]
gr3 = {p["poRef"]["poLine"]: dict(item=p["material"]["sku"], received=Dm(p["qty"]["delivered"])) for p in R3["positions"]}

# ---- internal consistency of each document ----
TAX = Dm("0.085")
for name, lines, tot, taxed in [("HG-20931", inv1, inv1_tot, True), ("HG-20958 erp", inv2, inv2_tot, True),
                                ("HG-20958 copy", inv2b, inv2b_tot, True), ("BWL-6604", inv3, inv3_tot, False)]:
    for k, l in lines.items():
        prod = q2(l["qty"] * l["price"])
        if prod != l["amt"]: print(f"NOTE {name} line {k}: printed {l['amt']} != computed {prod}")
    s = sum(l["amt"] for l in lines.values())
    assert s == tot["sub"], (name, s, tot)
    if taxed: assert q2(tot["sub"] * TAX) == tot["tax"], (name, q2(tot["sub"] * TAX), tot)
    assert tot["sub"] + tot["frt"] + tot["tax"] == tot["total"], (name, tot)
    print(name, {k: str(v) for k, v in tot.items()})
for name, lines in [("PO-77310", po1), ("PO-77342", po2), ("PO-77388", po3)]:
    for k, l in lines.items(): assert q2(l["qty"] * l["price"]) == l["ext"], (name, k)
    print(name, "PO total", sum(l["ext"] for l in lines.values()))
assert sum(l["ext"] for l in po1.values()) == num("14,270.00"); assert sum(l["ext"] for l in po3.values()) == num("14,490.00")
assert sum(l["ext"] for l in po2.values()) == q2(P2["totals"]["net"])
for k, g in gr2.items(): assert g["hu"] == g["received"], k
L = js["erp_ap_ledger_V-10442.json"]["result"]["ledger"]["periods"]
for per in L:
    for e in per["entries"]:
        a = e["document"]["amounts"]; frt = Dm("385.00") if e["document"]["refs"]["vendor_invoice_no"] == "HG-20931" else 0
        assert q2(Dm(str(a["net"])) * (1 + TAX)) + frt == q2(a["gross"]), e

# ---- contract tiers ----
tiers = {}
for l in txt["contract_SC-2093.txt"].split("\n"):
    m = re.match(r"\| ([A-Z]+-\d+)\s*\|[^|]+\|[^|]+\|(.+)\|\s*$", l)
    if m:
        cells = [c.strip() for c in m[2].split("|")]; tl = []
        for j in range(0, len(cells), 2):
            if cells[j] == "-": continue
            r = cells[j].replace(",", ""); lo = int(re.match(r"(\d+)", r)[1])
            hi = int(r.split("-")[1]) if "-" in r else 10**12
            tl.append((lo, hi, Dm(cells[j+1])))
        tiers[m[1]] = tl
def tier(item, q):
    return next(p for lo, hi, p in tiers[item] if lo <= q <= hi)
print("tiers", tiers)

INV = {("HG-20931", I1 := "invoice_HG-20931.txt"): (inv1, inv1_tot), ("HG-20958", "erp_invoice_HG-20958.json"): (inv2, inv2_tot),
       ("HG-20958", "invoice_HG-20958_2026-04-28.txt"): (inv2b, inv2b_tot), ("BWL-6604", "invoice_BWL-6604.txt"): (inv3, inv3_tot)}
INVDATE = {"invoice_HG-20931.txt": "2026-03-25", "erp_invoice_HG-20958.json": I2["vendorInvoice"]["date"],
           "invoice_HG-20958_2026-04-28.txt": "2026-04-28", "invoice_BWL-6604.txt": "2026-04-27"}
NETDAYS = {"invoice_HG-20931.txt": 45, "erp_invoice_HG-20958.json": I2["vendorInvoice"]["paymentTerms"]["netDays"],
           "invoice_HG-20958_2026-04-28.txt": 45, "invoice_BWL-6604.txt": 30}
POS = {("PO-77310", "po_PO-77310.txt"): (po1, "2026-03-16"), ("PO-77342", "erp_po_PO-77342.json"): (po2, P2["header"]["dates"]["requiredDelivery"]),
       ("PO-77388", "po_PO-77388.txt"): (po3, "2026-04-24")}
GRS = {("GRN-55018", "gr_GRN-55018.txt"): (gr1, "2026-03-24"), ("GRN-55061", "erp_gr_GRN-55061.json"): (gr2, R2["timing"]["receiptDate"]),
       ("GRN-55090", "erp_gr_GRN-55090.json"): (gr3, R3["header"]["postingDate"])}
for s in ["2026-03-25", "2026-04-28", "2026-04-27", "2026-03-16", "2026-04-24", "2026-03-24"]:
    pass
assert "Invoice Date:  2026-03-25" in txt[I1] and "INVOICE DATE     2026-04-27" in txt["invoice_BWL-6604.txt"]
assert "Required Delivery Date: 2026-03-16" in txt["po_PO-77310.txt"] and "Required delivery date: 2026-04-24" in txt["po_PO-77388.txt"]
assert "Receipt Date: 2026-03-24" in txt["gr_GRN-55018.txt"] and "Invoice Date: 2026-04-28" in t2b

def lookup(table, key_id, line):
    for (i, f), v in table.items():
        if i == key_id and f in cites: return f, v
    return None, None
def line_of(lines, line):
    if line in lines: return lines[line]
    return next((l for l in lines.values() if l["item"] == line), None)

bad = 0
for raw in open(os.path.join(HERE, "claims.jsonl")):
    cl = json.loads(raw)
    for pr in cl["propositions"]:
        a = pr["args"]; cites = pr["cites"]; pred = pr["pred"]; got = None; val = None
        try:
            if pred == "ordered_quantity":
                f, v = lookup(POS, a["po_id"], a["line"]); got = f and line_of(v[0], a["line"])["qty"]; val = a["quantity"]
            elif pred == "received_quantity":
                f, v = lookup(GRS, a["receipt_id"], a["line"]); got = f and line_of(v[0], a["line"])["received"]; val = a["quantity"]
            elif pred in ("billed_quantity", "billed_unit_price", "billed_line_amount", "computed_line_amount"):
                f, v = lookup(INV, a["invoice_id"], a["line"])
                if f:
                    l = line_of(v[0], a["line"])
                    got = {"billed_quantity": l["qty"], "billed_unit_price": l["price"], "billed_line_amount": l["amt"],
                           "computed_line_amount": q2(l["qty"] * l["price"])}[pred]
                val = a.get("quantity", a.get("unit_price", a.get("amount")))
            elif pred in ("invoice_subtotal", "invoice_total"):
                f, v = lookup(INV, a["invoice_id"], None); got = f and v[1]["sub" if pred == "invoice_subtotal" else "total"]; val = a["amount"]
            elif pred == "contract_unit_price":
                if "contract_SC-2093.txt" in cites:
                    got = tier(a["item"], a["quantity"]) if a["quantity"] is not None else (Dm(str(a["unit_price"])) if any(p == Dm(str(a["unit_price"])) for _, _, p in tiers[a["item"]]) else "not listed")
                val = a["unit_price"]
            elif pred == "unit_price_variance":
                f, v = lookup(INV, a["invoice_id"], a["line"])
                if f and "contract_SC-2093.txt" in cites:
                    l = line_of(v[0], a["line"]); got = l["price"] - tier(a["item"], l["qty"])
                val = a["amount"]
            elif pred == "quantity_variance":
                f, v = lookup(INV, a["invoice_id"], a["line"]); g, w = lookup(GRS, a["receipt_id"], a["line"])
                if f and g: got = line_of(v[0], a["line"])["qty"] - line_of(w[0], a["line"])["received"]
                val = a["quantity"]
            elif pred == "payment_due_date":
                f, v = lookup(INV, a["invoice_id"], None)
                if f: got = str(day(INVDATE[f]) + dt.timedelta(NETDAYS[f]))
                val = a["date"]
            elif pred in ("days_late", "late_delivery_credit"):
                f, v = lookup(POS, a["po_id"], None); g, w = lookup(GRS, a["receipt_id"], None)
                if f and g:
                    dl = max(0, (day(w[1]) - day(v[1])).days)
                    if pred == "days_late": got = dl
                    elif "contract_SC-2093.txt" in cites: got = min(Dm(1500), Dm(120) * max(0, dl - 3))
                val = a.get("days", a.get("amount"))
            elif pred == "requires_approval":
                f, v = lookup(INV, a["invoice_id"], None)
                if f and "policy_FIN-07.txt" in cites: got = v[1]["total"] >= Dm("15000.00")
                val = a["value"]
            else:
                continue
        except Exception as ex:
            print("ERR", cl["id"], pred, ex); bad += 1; continue
        if got is None:
            want = "unsupported"
        else:
            eq = (got == val) if isinstance(val, (bool, str)) or got == "not listed" else (Dm(str(got)) == Dm(str(val)))
            want = "supported" if eq else "contradicted"
        if want != pr["expected"]:
            bad += 1; print("MISMATCH", cl["id"], pred, a, cites, "computed", got, "->", want, "labelled", pr["expected"])
print("mismatches:", bad)
