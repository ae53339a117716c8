"""Evidence shared by the verifier tests and the Ray tests: one letter, one invoice, one terms record;
and `verify_folder`, which the pack tests use to judge (pred, args, cites, expected) cases on a folder of documents."""

LETTER = (
    "Engagement letter between Harbor Legal LLP and Client CL-7, effective 1 January 2026. "
    "Clause 4: Hourly rates shall not exceed USD 250.00. "
    "Clause 6: Invoices are payable within 30 days of receipt. "
    "Clause 9: Travel time is not billable."
)
INVOICE = {
    "invoice_id": "INV-4421",
    "client_id": "CL-7",
    "currency": "USD",
    "lines": [
        {"line_id": "12", "description": "Contract review", "hours": 6.0, "rate": 250.0, "amount": 1500.0, "currency": "USD"},
        {"line_id": "14", "description": "Regulatory filing", "hours": 4.0, "rate": 320.0, "amount": 1280.0, "currency": "USD"},
    ],
}
TERMS = {"client_id": "CL-7", "hourly_cap": 250.0, "currency": "USD", "payment_terms_days": 30}


def verify_folder(ledger_path, data_dir, run_id: str, cases: list[tuple]):
    """Append every file of data_dir to a fresh ledger, verify each case as one claim citing the named
    files (no NLI model), and return (ledger, {file: record id}, {claim id "c<i>": proposition verdict})."""
    from warrant.ledger import Ledger
    from warrant.runtime.verify.verifier import Verifier

    led = Ledger.open(str(ledger_path))
    ids = {}
    for f in sorted(data_dir.iterdir()):
        media = "application/json" if f.suffix == ".json" else "text/plain; charset=utf-8"
        ids[f.name] = led.append(run_id, f.read_bytes(), media_type=media, source={"document": f.name})
    claims = [
        {"id": f"c{i}", "type": "Assertion", "text": f"{pred} {args}",
         "propositions": [{"id": f"p{i}", "pred": pred, "args": args, "ledger_ids": [ids[c] for c in cites]}]}
        for i, (pred, args, cites, _) in enumerate(cases)
    ]
    v = Verifier(led, None).verify({"run_id": run_id, "from_agent": "analyst", "claims": claims})
    return led, ids, {c.claim_id: c.propositions[0] for c in v.claims}


def judged(verdicts, cases: list[tuple], i: int, run_id: str):
    """Case i's proposition verdict, after checking that every span it used is the cited records' exact bytes."""
    led, ids, out = verdicts
    p = out[f"c{i}"]
    for s in p.spans:
        assert s.ledger_id in {ids[c] for c in cases[i][2]}
        assert led.get(run_id, s.ledger_id).data[s.start:s.end].decode() == s.text
    return p


def statement(run_id: str, rid: str, text: str) -> dict:
    """An artifact of one Assertion with one free-text `statement` proposition citing record rid."""
    return {"run_id": run_id, "from_agent": "analyst", "claims": [{"id": "c1", "type": "Assertion", "text": "x", "propositions": [
        {"id": "p1", "pred": "statement", "args": {"text": text}, "ledger_ids": [rid]}]}]}
