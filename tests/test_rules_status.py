"""Claims that a thing reached a state, against the state its record gives it in a field made for
it ("rules:state"). The documents here are invented for these tests."""

import pytest

from warrant.runtime.verify.rules.status import check_state
from warrant.runtime.verify.verifier import Verifier
from tests.corpus import statement

RUN = "run_state"

ORDERS = """CALL-OFF SCHEDULE - Harrowgate Timber
Call-off   Date         Cubic m   Status
CO-101     2026-01-12      40     Delivered
CO-102     2026-02-09      35     In transit
CO-103     2026-03-16      50     Planned
"""

INVOICE_JSON = ('{"invoice": {"invoice_id": "INV-4410", "customer": "Pellow Marine", "status": "partially_paid",'
                ' "total": 9120.00, "paid": 4000.00}}')

FLAGS_JSON = '{"claim": {"claim_id": "EXP-220", "employee": "R. Adeyemi", "approved": false, "amount": 412.60}}'

FORM = """CHANGE REQUEST CR-88 - Loading bay lighting
Requested by: Facilities
Status: Pending approval
"""


@pytest.mark.parametrize(
    "record,claim,status",
    [
        (ORDERS, "Call-off CO-101 has been delivered.", "supported"),
        (ORDERS, "Call-off CO-102 has been delivered.", "contradicted"),
        (ORDERS, "CO-103 was delivered to the Leeds yard.", "contradicted"),  # not delivered at all: anywhere
        (INVOICE_JSON, "Invoice INV-4410 has been paid in full.", "contradicted"),
        (FLAGS_JSON, "Claim EXP-220 has been approved.", "contradicted"),
        (FORM, "Change request CR-88 has been approved.", "contradicted"),
    ],
)
def test_the_state_field_of_the_named_thing_decides(record, claim, status):
    r = check_state(claim, record)
    assert r is not None and r.status == status, (claim, r)


@pytest.mark.parametrize(
    "record,claim",
    [
        (ORDERS, "Call-off CO-101 has been approved."),  # another lifecycle: "Delivered" says nothing of approval
        (ORDERS, "Call-off CO-101 was delivered to the Leeds yard."),  # delivered, but where is not this rule's to say
        (ORDERS, "Call-off CO-104 has been delivered."),  # a row the record does not have
        (ORDERS, "The call-off has been delivered."),  # three call-offs: which?
        (ORDERS, "Call-off CO-102 has not been delivered."),  # a negation: other rules' business
        (ORDERS, "CO-102 was loaded before CO-101 was delivered."),  # a clause, not a thing, before the verb
        ('{"invoice": {"status": "paid"', "Invoice INV-1 has been paid."),  # malformed JSON
    ],
)
def test_no_answer_where_the_record_does_not_say(record, claim):
    assert check_state(claim, record) is None



def test_the_verifier_cites_the_state_it_read(ledger):
    rid = ledger.append(RUN, INVOICE_JSON.encode(), media_type="application/json")
    (p,) = Verifier(ledger, None).verify(statement(RUN, rid, "Invoice INV-4410 has been paid in full.")).claims[0].propositions
    assert (p.status, p.checker) == ("contradicted", "rules:state")
    assert INVOICE_JSON.encode()[p.evidence.start:p.evidence.end] == b"partially_paid"


RECEIPT = """GOODS RECEIPT GRN-7731
| PO line | Item            | Ordered | Received |
|---|---|---|---|
| 10      | Hinge, steel    | 200     | 200      |
| 20      | Drawer runner   | 120     | 96       |
"""

PARCELS = """| Parcel | Weight | Status |
|---|---|---|
| 1 of 3 | 2.1 kg | Delivered |
| 2 of 3 | 3.4 kg | Delivered |
| 3 of 3 | 1.2 kg | Out for delivery |
"""


@pytest.mark.parametrize(
    "record,claim,status",
    [
        # a state read from two quantities of the row: all that was ordered
        (RECEIPT, "The steel hinges have been received.", "supported"),
        (RECEIPT, "The drawer runners have been received.", "contradicted"),
        (RECEIPT, "Every line of the purchase order has been received.", "contradicted"),
        # every row of the one table of states
        (PARCELS, "All three parcels have been delivered.", "contradicted"),
        (PARCELS.replace("Out for delivery", "Delivered"), "All three parcels have been delivered.", "supported"),
    ],
)
def test_every_row_and_quantities(record, claim, status):
    r = check_state(claim, record)
    assert r is not None and r.status == status, (claim, r)


def test_both_counts_two_rows_and_a_document_code_names_the_document():
    two = PARCELS.replace("| 3 of 3 | 1.2 kg | Out for delivery |\n", "").replace(" of 3", " of 2")
    assert check_state("Both parcels have been delivered.", two).status == "supported"
    assert check_state("Both parcels on waybill 5520193847 have been delivered.", "Waybill: 5520193847\n" + two).status == "supported"
    assert check_state("Both parcels have been delivered.", PARCELS) is None  # three rows, not two
    late = two.replace("| 2 of 2 | 3.4 kg | Delivered |", "| 2 of 2 | 3.4 kg | In transit |")
    assert check_state("Both parcels on waybill 5520193847 have been delivered.", "Waybill: 5520193847\n" + late).status == "contradicted"


def test_a_count_the_table_does_not_have_gives_no_answer():
    assert check_state("All four parcels have been delivered.", PARCELS) is None
    assert check_state("Only some parcels have been delivered.", PARCELS) is None
