"""Evidence shared by the verifier tests and the Ray tests: one letter, one invoice, one terms record."""

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
