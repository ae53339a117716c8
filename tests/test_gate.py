import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from warrant.runtime.gate import Gate
from warrant.runtime.registry import ToolRegistry

RUN = "run_1"


def one_tool_registry() -> ToolRegistry:
    """A real registry with one irreversible tool whose only arg is a string line_id."""
    spec = {
        "name": "flag_invoice_line",
        "version": "1",
        "description": "Flag one invoice line for review.",
        "irreversible": True,
        "timeout_s": 5,
        "input_schema": {
            "type": "object",
            "properties": {"line_id": {"type": "string"}},
            "required": ["line_id"],
            "additionalProperties": False,
        },
        "output_schema": {"type": "object"},
    }
    return ToolRegistry.from_specs([spec], implementations={("flag_invoice_line", "1"): lambda args: {}})


@pytest.fixture
def ids(ledger):
    return ledger.append_many(
        [
            ledger.item(RUN, "Engagement letter, clause 4: hourly rates shall not exceed USD 250."),
            ledger.item(RUN, "Invoice INV-4421 line 14: 12.0 hours at USD 300 per hour."),
        ]
    )


@pytest.fixture
def gate(ledger, journal):
    return Gate(ledger, tools=one_tool_registry(), journal=journal)


def good(ids, **over):
    doc = {
        "run_id": RUN,
        "from_agent": "analyst",
        "claims": [
            {
                "id": "c_19",
                "type": "Assertion",
                "text": "Line item 14 exceeds the engagement-letter hourly cap.",
                "propositions": [
                    {"id": "p_19a", "pred": "rate_of_line", "args": {"line_id": "14", "rate": 300}, "ledger_ids": [ids[1]]},
                    {"id": "p_19b", "pred": "hourly_cap", "args": {"amount": 250}, "ledger_ids": [ids[0]]},
                ],
            },
            {"id": "c_20", "type": "Quote", "text": "hourly rates shall not exceed USD 250", "quote_of": {"ledger_id": ids[0]}},
            {"id": "c_21", "type": "Conjecture", "text": "The vendor may have applied last year's rate."},
        ],
        "open_questions": ["Was a rate increase approved in writing?"],
        "action_intents": [{"tool": "flag_invoice_line", "args": {"line_id": "14"}, "requires_grant": True, "depends_on": ["c_19"]}],
    }
    doc.update(over)
    return doc


def codes(decision):
    return [(v.code, v.loc) for v in decision.violations]


def test_honest_artifact_passes_and_is_journaled(gate, ids, journal):
    d = gate.check(good(ids))
    assert d.passed, d.violations
    (entry,) = journal.entries(RUN, kind="gate_decision")
    assert entry.subject == d.artifact_hash and entry.payload["status"] == "pass"


def test_accepts_json_text_and_bytes(gate, ids):
    assert gate.check(json.dumps(good(ids))).passed
    assert gate.check(json.dumps(good(ids)).encode()).passed


def test_forged_and_foreign_ids_are_rejected_at_their_path(gate, ids, ledger):
    foreign = ledger.append("run_other", "a record of another run")
    doc = good(ids)
    doc["claims"][0]["propositions"][1]["ledger_ids"] = [ids[0], "led_" + "f" * 32, foreign]
    d = gate.check(doc)
    assert codes(d) == [
        ("ledger_id_unknown", "$.claims[0].propositions[1].ledger_ids[1]"),
        ("ledger_id_unknown", "$.claims[0].propositions[1].ledger_ids[2]"),
    ]


def test_unlabelled_prose_and_unknown_fields_do_not_pass(gate, ids):
    d = gate.check(good(ids, summary="Everything checks out, pay the invoice."))
    assert codes(d) == [("unknown_field", "$.summary")]
    assert d.violations[0].got == "Everything checks out, pay the invoice."


def test_no_coercion(gate, ids):
    doc = good(ids)
    doc["action_intents"][0]["requires_grant"] = "true"
    assert codes(gate.check(doc)) == [("wrong_type", "$.action_intents[0].requires_grant")]


def test_assertion_needs_checkable_propositions_with_evidence(gate, ids):
    doc = good(ids)
    doc["claims"][0]["propositions"] = []
    assert ("assertion_without_propositions", "$.claims[0].propositions") in codes(gate.check(doc))
    doc = good(ids)
    doc["claims"][0]["propositions"][0]["ledger_ids"] = []
    assert codes(gate.check(doc)) == [("proposition_without_evidence", "$.claims[0].propositions[0].ledger_ids")]


def test_agents_may_not_fill_entailment_or_confidence(gate, ids):
    doc = good(ids)
    doc["claims"][0]["propositions"][0]["entailment"] = "supported"
    doc["claims"][0]["propositions"][1]["confidence"] = 0.99
    assert codes(gate.check(doc)) == [
        ("entailment_set_by_agent", "$.claims[0].propositions[0].entailment"),
        ("confidence_set_by_agent", "$.claims[0].propositions[1].confidence"),
    ]


def test_misquote_is_rejected(gate, ids):
    doc = good(ids)
    doc["claims"][1]["text"] = "hourly rates shall not exceed USD 300"
    assert codes(gate.check(doc)) == [("quote_mismatch", "$.claims[1].text")]
    doc["claims"][1]["quote_of"]["ledger_id"] = "led_" + "1" * 32
    assert codes(gate.check(doc)) == [("ledger_id_unknown", "$.claims[1].quote_of.ledger_id")]


def test_depends_on_must_name_a_claim_of_the_artifact(gate, ids):
    doc = good(ids)
    doc["action_intents"][0]["depends_on"] = ["c_19", "c_researcher_7"]
    d = gate.check(doc)
    assert codes(d) == [("depends_on_unknown_claim", "$.action_intents[0].depends_on[1]")]
    assert d.violations[0].expected == ["c_19", "c_20", "c_21"]


def test_intents_are_checked_against_the_registry(gate, ids, ledger):
    doc = good(ids)
    doc["action_intents"].append({"tool": "wire_money", "args": {}, "depends_on": []})
    doc["action_intents"][0]["args"]["line_id"] = 14
    assert codes(gate.check(doc)) == [
        ("wrong_type", "$.action_intents[0].args.line_id"),
        ("unknown_tool", "$.action_intents[1].tool"),
    ]
    assert codes(Gate(ledger).check(good(ids))) == [("no_tool_registry", "$.action_intents")]


def test_duplicate_ids_and_wrong_run(gate, ids):
    doc = good(ids)
    doc["claims"][2]["id"] = "c_19"
    assert ("duplicate_id", "$.claims[2].id") in codes(gate.check(doc))
    assert codes(gate.check(good(ids), run_id="run_2")) == [("run_mismatch", "$.run_id")]


@pytest.mark.parametrize("raw, code", [(b"{not json", "invalid_json"), ("[1, 2]", "wrong_type"), (b"\xff\xfe", "invalid_json")])
def test_garbage_is_rejected_not_raised(gate, raw, code):
    d = gate.check(raw)
    assert d.status == "reject" and d.violations[0].code == code


# -- properties ------------------------------------------------------------------------------------

json_leaf = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8)
json_value = st.recursive(json_leaf, lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=6), c, max_size=3), max_leaves=12)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(doc=json_value)
def test_the_gate_never_raises_on_any_json(gate, doc):
    assert gate.check(doc).status in ("pass", "reject")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_rejected_exactly_when_some_citation_is_unknown(gate, ids, data):
    """Build random citation lists from known and forged ids: the gate passes iff every id is
    known, and reports exactly the forged positions."""
    forged_pool = ["led_" + c * 32 for c in "0123456789"]
    props, expected = [], []
    for pi in range(data.draw(st.integers(1, 4))):
        cites = data.draw(st.lists(st.sampled_from(ids + forged_pool), min_size=1, max_size=4))
        props.append({"id": f"p{pi}", "pred": "fact", "args": {}, "ledger_ids": cites})
        expected += [f"$.claims[0].propositions[{pi}].ledger_ids[{li}]" for li, c in enumerate(cites) if c in forged_pool]
    doc = {"run_id": RUN, "from_agent": "a", "claims": [{"id": "c", "type": "Assertion", "text": "t", "propositions": props}]}
    d = gate.check(doc)
    assert d.passed == (not expected)
    assert [v.loc for v in d.violations] == expected
