import json, os
st = json.load(open(os.path.join(os.path.dirname(__file__), "ap_stats.json")))
rows = "\n".join(f"| `{p}` | {v[0]} | {v[1]} | {v[2]} | {v[3]} |" for p, v in st["per_pred"].items())
cv, pv = st["claim_verdicts"], st["prop_verdicts"]
n = st["claims"]
txt = f"""# AP three-way-match gold set (held out)

Hand-written evaluation data for the accounts-payable three-way-match checker. It was written from
the predicate catalogue `/work/specs/ap_three_way_match.md` and the task brief only; no project code
or project test data was read while making it.

## Contents

- `documents/` - 16 records of one fictitious buying company (Brantwood Beverages Ltd) and two vendors:
  - `contract_C-100.txt` - supply agreement with Kestrel Packaging Components Ltd: price schedule with
    volume tiers (pipe table), Net 30 terms, late-delivery credit clause (0.5% of PO value per day late,
    capped at 5%), liability cap, 90-day termination notice (and a 30-day cure period as a distractor),
    effective date vs signing date, term end, a guarantor who is not the supplier.
  - purchase orders `po_PO-4410.txt` (pipe table), `po_PO-4415.txt` (fixed-width), `po_PO-4450.txt`
    (CSV block, other vendor, no contract), and `erp_po_PO-4432.json` (nested ERP output).
  - goods receipts `gr_GR-7781.txt` (Key: value + pipe table, 2 rolls short), `gr_GR-7790.txt` (CSV, no
    line numbers, so `line` is the item code), `gr_GR-7810.txt` (fixed-width, 5 rolls short) and
    `erp_gr_GR-7802.json` (deeply nested; received 1,440 vs delivery-note 1,500; receipt date vs posting date).
  - vendor invoices `inv_K-2024-0311.txt` (subtotal 21,485.00 + freight + tax = total 22,909.25; terms only
    "as per C-100"), `inv_K-2024-0327.txt` and its resubmitted copy `inv_K-2024-0327_resubmitted.txt`
    (duplicate invoice number, same vendor), `inv_OL-55821.txt` (Net 45; printed line amount 11,150.00 while
    75 x 148.00 = 11,100.00) and `erp_invoice_K-2024-0372.json` (one object of {st['inv_fields']} fields, amounts and terms at the end;
    its number is a one-swap near miss of K-2024-0327).
  - `policy_AP-7.txt` - approval threshold USD 22,500.00 on the total incl. tax and freight, tolerances,
    duplicate hold rule, payment-run day.
  - `email_kestrel_2024-04-30.txt` - vendor e-mail: resubmission, dispatch plan, a goodwill price that is
    not the contract price, a remittance-address change (bank details unchanged).
- `manifest.json` - file name -> media type and title.
- `claims.jsonl` - {n} claims, each with propositions, cited files, expected verdicts and a one-line note.

## Conventions

- `cites` lists the file names a proposition may be judged against (the spec calls this `ledger_ids`).
  A fact present in another file of the set but not in a cited one is `unsupported`.
- A near-miss id used as the subject of a proposition (e.g. `PO-4401` citing the PO-4410 file) is
  `unsupported`: the cited record says nothing about that id.
- `duplicate_invoice_number` is only asserted with at least two cited invoices.
- `unit_price_variance` = billed unit price - contract tier price for the billed quantity on that line.
- `days_late` uses the receipt date (not the ERP posting date); `late_delivery_credit` follows clause 5 of
  C-100 on the PO value (sum of ordered qty x PO unit price).
- A claim is `supported` only if all its propositions are; `contradicted` if any is; else `unsupported`.
- `blocking` is true for claims that would move money or hold a payment (quantities, prices, variances,
  totals, due dates, credits, approvals, duplicates, vendor identity on invoices / POs / receipts, bank
  details, tolerance rules); false for contract-pack facts and statements that do not bear on a payment.

## How it was made and checked

Documents were written by hand. A separate hand-entered fact base (one entry per file) was checked
automatically against the document text (every stated quantity, price, amount, date, id and vendor name
must appear in the file), and an independent evaluator written from the catalogue semantics re-judged
every non-`statement` proposition from the cited files' facts only; all {st['propositions']} propositions
agree with the hand labels, and every claim verdict equals the aggregation of its propositions.
`statement` propositions were checked by hand. Key computed values: PO-4410 4 days late, credit
USD 429.70 (2% of 21,485.00); PO-4432 14 days late, credit USD 1,712.75 (capped 5% of 34,255.00);
PO-4415 and PO-4450 on time; due dates K-2024-0311 2024-04-24, K-2024-0327 2024-04-27,
K-2024-0372 2024-06-05, OL-55821 2024-06-08; price variances K-2024-0327 line 2 +1.50,
K-2024-0372 line 2 -0.04; quantity variances K-2024-0311 line 2 +2, K-2024-0372 line 2 +60,
OL-55821 line 2 +5; approval needed for K-2024-0311, K-2024-0372 and OL-55821, not for K-2024-0327.

The generator and checkers are in `../tools/` (`ap_docs.py`, `ap_facts.py`, `ap_eval.py`,
`ap_claims.py`, `build_ap.py`).

## Counts

Claims: {n} - supported {cv.get('supported',0)} ({cv.get('supported',0)/n:.0%}), contradicted
{cv.get('contradicted',0)} ({cv.get('contradicted',0)/n:.0%}), unsupported {cv.get('unsupported',0)}
({cv.get('unsupported',0)/n:.0%}); blocking {st['blocking']}, non-blocking {n - st['blocking']}.

Propositions: {st['propositions']} - supported {pv.get('supported',0)}, contradicted {pv.get('contradicted',0)},
unsupported {pv.get('unsupported',0)}.

| predicate | propositions | supported | contradicted | unsupported |
| --- | --- | --- | --- | --- |
{rows}
"""
open(os.path.join(os.path.dirname(__file__), "..", "ap_gold", "README.md"), "w").write(txt)
