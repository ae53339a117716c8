import json, os, re, collections, sys
sys.path.insert(0, os.path.dirname(__file__))
from decimal import Decimal as D
from datetime import date
from ap_docs import DOCS, N_INV_FIELDS
from ap_facts import FACTS
from ap_eval import evaluate
from ap_claims import CL

LAB = {"S": "supported", "C": "contradicted", "U": "unsupported"}
OUT = os.path.join(os.path.dirname(__file__), "..", "ap_gold")
CATALOGUE = ["ordered_quantity", "received_quantity", "billed_quantity", "billed_unit_price", "billed_line_amount",
             "computed_line_amount", "invoice_subtotal", "invoice_total", "contract_unit_price", "unit_price_variance",
             "quantity_variance", "payment_due_date", "days_late", "late_delivery_credit", "requires_approval",
             "duplicate_invoice_number", "vendor_name", "statement", "liability_cap", "notice_period_days",
             "term_end_date", "effective_date", "contract_party"]

# 1. cross-check the fact base against the document text (each stated number / date must be printed there)
def renders(v):
    if isinstance(v, D) or isinstance(v, float):
        v = D(str(v)); out = {f"{v:,.2f}", f"{v:.2f}", json.dumps(float(v))}
        if v == v.to_integral(): out |= {f"{int(v):,}", str(int(v))}
        return out
    if isinstance(v, int): return {f"{v:,}", str(v)}
    if isinstance(v, str) and re.fullmatch(r"\d{4}-\d\d-\d\d", v):
        x = date.fromisoformat(v)
        return {v, f"{x.day} {x:%B %Y}", f"{x:%B} {x.day}, {x.year}", f"{x.day} {x:%b %Y}", f"{x:%d-%b-%Y}"}
    return {str(v)}
def must(name, v):
    text = DOCS[name][2]
    if not any(r.lower() in text.lower() for r in renders(v)):
        raise SystemExit(f"fact {v!r} not found in {name}")
for name, f in FACTS.items():
    assert name in DOCS, name
    for k in ("id", "vendor", "required", "date", "subtotal", "total", "po", "effective", "term_end", "notice_days", "threshold"):
        if f.get(k) is not None: must(name, f[k])
    for ln, val in f.get("lines", {}).items():
        for x in (val if isinstance(val, tuple) else (val,)): must(name, x)
    for item, tiers in f.get("prices", {}).items():
        for lo, hi, p in tiers: must(name, p)
print("fact base matches document text")

# 2. judge every proposition and compare with the hand label
claims, n_bad = [], 0
for i, c in enumerate(CL, 1):
    props = []
    for pred, args, cites, exp in c["props"]:
        assert pred in CATALOGUE, pred
        for x in cites: assert x in DOCS, x
        got = evaluate(pred, args, cites)
        if got is not None and got != LAB[exp]:
            n_bad += 1; print("MISMATCH", i, pred, args, cites, "hand", exp, "eval", got)
        props.append({"pred": pred, "args": args, "cites": cites, "expected": LAB[exp]})
    ps = [p["expected"] for p in props]
    agg = "supported" if all(p == "supported" for p in ps) else ("contradicted" if "contradicted" in ps else "unsupported")
    if agg != LAB[c["expected"]]:
        n_bad += 1; print("AGG MISMATCH", i, c["text"])
    claims.append({"id": "g%03d" % i, "text": c["text"], "blocking": c["blocking"], "expected": agg,
                   "propositions": props, "note": c["note"]})
assert n_bad == 0, n_bad

# 3. write
os.makedirs(os.path.join(OUT, "documents"), exist_ok=True)
for name, (mt, title, content) in DOCS.items():
    with open(os.path.join(OUT, "documents", name), "w") as f: f.write(content)
with open(os.path.join(OUT, "manifest.json"), "w") as f:
    json.dump({n: {"media_type": mt, "title": t} for n, (mt, t, _) in DOCS.items()}, f, indent=2, ensure_ascii=False); f.write("\n")
with open(os.path.join(OUT, "claims.jsonl"), "w") as f:
    for c in claims: f.write(json.dumps(c, ensure_ascii=False) + "\n")

# 4. stats
pc = collections.Counter(p["pred"] for c in claims for p in c["propositions"])
pv = collections.Counter((p["pred"], p["expected"]) for c in claims for p in c["propositions"])
cv = collections.Counter(c["expected"] for c in claims)
pvv = collections.Counter(p["expected"] for c in claims for p in c["propositions"])
nb = sum(c["blocking"] for c in claims)
print("claims", len(claims), dict(cv), {k: round(v / len(claims) * 100, 1) for k, v in cv.items()}, "blocking", nb)
print("propositions", sum(pc.values()), dict(pvv))
for p in CATALOGUE:
    print("%-26s %3d  S%2d C%2d U%2d" % (p, pc[p], pv[(p, "supported")], pv[(p, "contradicted")], pv[(p, "unsupported")]))
    assert pc[p] >= 2, p
print("long ERP invoice object fields:", N_INV_FIELDS)
json.dump({"claims": len(claims), "claim_verdicts": dict(cv), "blocking": nb, "propositions": sum(pc.values()),
           "prop_verdicts": dict(pvv),
           "per_pred": {p: [pc[p], pv[(p, "supported")], pv[(p, "contradicted")], pv[(p, "unsupported")]] for p in CATALOGUE},
           "inv_fields": N_INV_FIELDS}, open("/dev/stdout", "w") if False else open(os.path.join(os.path.dirname(__file__), "ap_stats.json"), "w"), indent=1)
