import json, collections, sys
sys.path.insert(0, '.')
import pairs_part1, pairs_part2, pairs_part3
from pairs_part1 import P
LAB = {"S": "supported", "C": "contradicted", "U": "unsupported"}
CATS = "money date number percent negation entity identifier arithmetic units temporal_order comparison duration modality_tense paraphrase unrelated subtotal_vs_total spelled_out_numbers".split()
GEN = "invoice purchase_order bank_statement shipping_notice insurance_declaration statement_of_work policy lease_or_contract meeting_minutes_or_email general_prose".split()
rows = []
seen = set()
for g, prem, items in P:
    assert g in GEN, g
    for cat, hyp, lab in items:
        assert cat in CATS, cat
        assert (prem, hyp) not in seen
        seen.add((prem, hyp))
        rows.append({"id": "h%03d" % (len(rows) + 1), "genre": g, "category": cat, "premise": prem, "hypothesis": hyp, "label": LAB[lab]})
with open('../verifier_pairs_heldout.jsonl', 'w') as f:
    for r in rows:
        f.write(json.dumps(r, ensure_ascii=False) + "\n")
n = len(rows)
print("pairs", n, "premises", len(P))
for key in ("genre", "category", "label"):
    c = collections.Counter(r[key] for r in rows)
    print(key, {k: c[k] for k in sorted(c)})
lab = collections.Counter(r["label"] for r in rows)
print({k: round(v / n * 100, 1) for k, v in lab.items()})
cg = collections.Counter((r["category"], r["label"]) for r in rows)
for c in CATS:
    print("%-20s" % c, [cg[(c, l)] for l in ("supported", "contradicted", "unsupported")])
tab = sum(1 for _, p, _ in P if ('|' in p or '  ' in p or '\n' in p and ':' in p) and not p.startswith('{'))
js = sum(1 for _, p, _ in P if p.startswith('{'))
print("premises with table-ish", tab, "json", js)
