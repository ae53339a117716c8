# Independent evaluator: judges a proposition ONLY against the cited records' hand-entered facts.
from decimal import Decimal as D, ROUND_HALF_UP
from datetime import date, timedelta
from ap_facts import FACTS

def d(s): return date.fromisoformat(s)
def money(x): return D(str(x)).quantize(D("0.01"), rounding=ROUND_HALF_UP)
def num(x): return D(str(x))

def find(cites, kind, id_):
    return [FACTS[c] for c in cites if FACTS[c]["kind"] == kind and FACTS[c].get("id") == id_]

def tier_price(contract, item, qty):
    tiers = contract["prices"].get(item)
    if tiers is None: return None
    for lo, hi, p in tiers:
        if qty >= lo and (hi is None or qty <= hi): return p
    return None

def cmp(ok): return "supported" if ok else "contradicted"

def one(docs):
    # all cited copies must agree; return the first (copies here are identical in content)
    return docs[0]

def evaluate(pred, a, cites):
    if pred == "ordered_quantity":
        docs = find(cites, "po", a["po_id"])
        if not docs or a["line"] not in one(docs)["lines"]: return "unsupported"
        return cmp(one(docs)["lines"][a["line"]][1] == a["quantity"])
    if pred == "received_quantity":
        docs = find(cites, "gr", a["receipt_id"])
        if not docs or a["line"] not in one(docs)["lines"]: return "unsupported"
        return cmp(one(docs)["lines"][a["line"]] == a["quantity"])
    if pred in ("billed_quantity", "billed_unit_price", "billed_line_amount", "computed_line_amount"):
        docs = find(cites, "inv", a["invoice_id"])
        if not docs or a["line"] not in one(docs)["lines"]: return "unsupported"
        item, q, p, amt = one(docs)["lines"][a["line"]]
        if pred == "billed_quantity": return cmp(q == a["quantity"])
        if pred == "billed_unit_price": return cmp(p == num(a["unit_price"]))
        if pred == "billed_line_amount": return cmp(amt == money(a["amount"]))
        return cmp(money(q * p) == money(a["amount"]))
    if pred in ("invoice_subtotal", "invoice_total"):
        docs = find(cites, "inv", a["invoice_id"])
        key = "subtotal" if pred == "invoice_subtotal" else "total"
        vals = [x[key] for x in docs if x[key] is not None]
        if not vals: return "unsupported"
        return cmp(vals[0] == money(a["amount"]))
    if pred == "contract_unit_price":
        docs = find(cites, "contract", a["contract_id"])
        if not docs: return "unsupported"
        c = one(docs)
        if a["item"] not in c["prices"]: return "unsupported"
        if a.get("quantity") is None:
            tiers = c["prices"][a["item"]]
            assert len(tiers) == 1, "use quantity with tiered items"
            return cmp(tiers[0][2] == num(a["unit_price"]))
        return cmp(tier_price(c, a["item"], a["quantity"]) == num(a["unit_price"]))
    if pred == "unit_price_variance":
        inv = find(cites, "inv", a["invoice_id"]); con = find(cites, "contract", a["contract_id"])
        if not inv or not con or a["line"] not in one(inv)["lines"]: return "unsupported"
        item, q, p, amt = one(inv)["lines"][a["line"]]
        if item != a["item"]: return "unsupported"
        cp = tier_price(one(con), item, q)
        if cp is None: return "unsupported"
        return cmp(p - cp == num(a["amount"]))
    if pred == "quantity_variance":
        inv = find(cites, "inv", a["invoice_id"]); gr = find(cites, "gr", a["receipt_id"])
        if not inv or not gr: return "unsupported"
        if a["line"] not in one(inv)["lines"] or a["line"] not in one(gr)["lines"]: return "unsupported"
        return cmp(one(inv)["lines"][a["line"]][1] - one(gr)["lines"][a["line"]] == a["quantity"])
    if pred == "payment_due_date":
        inv = find(cites, "inv", a["invoice_id"])
        if not inv: return "unsupported"
        i = one(inv); days = i.get("terms_days")
        if days is None and i.get("terms_contract"):
            con = find(cites, "contract", i["terms_contract"])
            if con: days = one(con)["terms_days"]
        if days is None: return "unsupported"
        return cmp(d(i["date"]) + timedelta(days=days) == d(a["date"]))
    if pred == "days_late":
        po = find(cites, "po", a["po_id"]); gr = find(cites, "gr", a["receipt_id"])
        if not po or not gr or one(gr)["po"] != a["po_id"]: return "unsupported"
        late = max(0, (d(one(gr)["date"]) - d(one(po)["required"])).days)
        return cmp(late == a["days"])
    if pred == "late_delivery_credit":
        po = find(cites, "po", a["po_id"]); gr = find(cites, "gr", a["receipt_id"]); con = find(cites, "contract", a["contract_id"])
        if not po or not gr or not con or one(gr)["po"] != a["po_id"]: return "unsupported"
        if one(po)["vendor"] != one(con)["supplier"]: return "unsupported"
        late = max(0, (d(one(gr)["date"]) - d(one(po)["required"])).days)
        value = sum(q * p for _, q, p in one(po)["lines"].values())
        rate = min(one(con)["late_rate"] * late, one(con)["late_cap"])
        return cmp(money(value * rate) == money(a["amount"]))
    if pred == "requires_approval":
        inv = find(cites, "inv", a["invoice_id"]); pol = [FACTS[c] for c in cites if FACTS[c]["kind"] == "policy"]
        if not inv or not pol: return "unsupported"
        return cmp((one(inv)["total"] >= pol[0]["threshold"]) == a["value"])
    if pred == "duplicate_invoice_number":
        mine = [c for c in cites if FACTS[c]["kind"] == "inv" and FACTS[c]["id"] == a["invoice_id"]]
        others = [c for c in cites if FACTS[c]["kind"] == "inv" and c not in mine[:1]]
        if not mine or not others: return "unsupported"
        me = FACTS[mine[0]]
        dup = any(FACTS[c]["id"] == me["id"] and FACTS[c]["vendor"] == me["vendor"] for c in others)
        return cmp(dup == a["value"])
    if pred == "vendor_name":
        docs = [FACTS[c] for c in cites if FACTS[c].get("id") == a["document_id"] and "vendor" in FACTS[c]]
        if not docs: return "unsupported"
        return cmp(one(docs)["vendor"] == a["vendor"])
    if pred in ("liability_cap", "notice_period_days", "term_end_date", "effective_date", "contract_party"):
        con = find(cites, "contract", a["contract_id"])
        if not con: return "unsupported"
        c = one(con)
        if pred == "liability_cap":
            amt, cur = c["liability_cap"]
            return cmp(amt == num(a["amount"]) and (a.get("currency") in (None, cur)))
        if pred == "notice_period_days": return cmp(c["notice_days"] == a["days"])
        if pred == "term_end_date": return cmp(c["term_end"] == a["date"])
        if pred == "effective_date": return cmp(c["effective"] == a["date"])
        role = {"buyer": "buyer", "customer": "buyer", "supplier": "supplier", "vendor": "supplier"}[a["role"]]
        return cmp(c[role] == a["name"])
    if pred == "statement":
        return None   # judged by hand
    raise ValueError(pred)
