"""The schema agents are given holds the gate's structural rules: whatever the exported JSON
Schema rejects the gate rejects too, at the same field, and the schema accepts what the gate
passes. An LLM constrained by `json_schema()` therefore cannot produce an artifact the gate
turns back for its shape."""

import jsonschema
import pytest

from warrant.runtime.contract import AnnotatedArtifact, Artifact, json_schema
from warrant.runtime.gate import Gate
from warrant.runtime.verify.verifier import Verifier, annotate
from warrant.runtime.violations import json_path

RUN = "run_1"
VALIDATOR = jsonschema.Draft202012Validator(json_schema())


@pytest.fixture
def ids(ledger):
    return ledger.append_many([
        ledger.item(RUN, "Invoice INV-4421 line 14: 4.0 hours at USD 320 per hour."),
        ledger.item(RUN, "Engagement letter: hourly rates shall not exceed USD 250."),
    ])


def honest(ids):
    return {
        "run_id": RUN,
        "from_agent": "analyst",
        "claims": [
            {"id": "c1", "type": "Assertion", "text": "Line 14 bills 4 hours.",
             "propositions": [{"id": "p1", "pred": "line_hours", "args": {"invoice_id": "INV-4421", "line_id": "14", "hours": 4},
                               "ledger_ids": [ids[0]]}]},
            {"id": "c2", "type": "Quote", "text": "hourly rates shall not exceed USD 250", "quote_of": {"ledger_id": ids[1]}},
        ],
    }


def _prop(d):
    return d["claims"][0]["propositions"][0]


# (what the agent did wrong, the change, the field both must name, the gate's code)
MALFORMED = [
    ("fills entailment", lambda d: _prop(d).update(entailment="supported"), "$.claims[0].propositions[0].entailment", "entailment_set_by_agent"),
    ("sends entailment null", lambda d: _prop(d).update(entailment=None), "$.claims[0].propositions[0].entailment", "entailment_set_by_agent"),
    ("fills confidence", lambda d: _prop(d).update(confidence=0.99), "$.claims[0].propositions[0].confidence", "confidence_set_by_agent"),
    ("cites nothing", lambda d: _prop(d).update(ledger_ids=[]), "$.claims[0].propositions[0].ledger_ids", "proposition_without_evidence"),
    ("omits ledger_ids", lambda d: _prop(d).pop("ledger_ids"), "$.claims[0].propositions[0]", "proposition_without_evidence"),
    ("cites a made-up id", lambda d: _prop(d).update(ledger_ids=["INV-4421.pdf"]), "$.claims[0].propositions[0].ledger_ids[0]", "bad_format"),
    ("adds prose", lambda d: d.update(summary="pay it"), "$", "unknown_field"),
    ("an Assertion without propositions", lambda d: d["claims"][0].update(propositions=[]), "$.claims[0].propositions", "assertion_without_propositions"),
    ("a Quote without a source", lambda d: d["claims"][1].pop("quote_of"), "$.claims[1]", "bad_value"),
    ("a source on an Assertion", lambda d: d["claims"][0].update(quote_of=d["claims"][1]["quote_of"]), "$.claims[0].quote_of", "bad_value"),
]


def test_the_schema_accepts_what_the_gate_passes(ledger, ids):
    assert not list(VALIDATOR.iter_errors(honest(ids)))
    assert Gate(ledger).check(honest(ids)).passed


@pytest.mark.parametrize("why, mutate, loc, code", MALFORMED, ids=[m[0] for m in MALFORMED])
def test_schema_and_gate_reject_the_same_artifact_at_the_same_field(ledger, ids, why, mutate, loc, code):
    doc = honest(ids)
    mutate(doc)
    schema_locs = [json_path(e.absolute_path) for e in VALIDATOR.iter_errors(doc)]
    decision = Gate(ledger).check(doc)
    assert schema_locs, f"the schema lets through an artifact that {why}"
    assert not decision.passed
    assert code in {v.code for v in decision.violations}, decision.violations
    # Each names the field, or (for a missing or forbidden key, a rule across fields) the object holding it.
    assert any(_on_path(s, loc) for s in schema_locs), schema_locs
    assert any(_on_path(v.loc, loc) for v in decision.violations if v.code == code), decision.violations


def _on_path(a: str, b: str) -> bool:
    return a.startswith(b) or b.startswith(a)


def test_a_forwarded_annotated_artifact_is_rejected_and_unannotated_passes(ledger, ids):
    art = Artifact.model_validate(honest(ids))
    annotated = annotate(art, Verifier(ledger, None).verify(art))
    assert isinstance(annotated, AnnotatedArtifact)
    assert annotated.claims[0].propositions[0].entailment is not None
    d = Gate(ledger).check(annotated)
    assert [(v.code, v.loc) for v in d.violations] == [
        ("entailment_set_by_agent", "$.claims[0].propositions[0].entailment"),
        ("confidence_set_by_agent", "$.claims[0].propositions[0].confidence"),
    ]
    resent = art.model_copy(update={"claims": [c.unannotated() for c in annotated.claims]})
    assert resent == art and Gate(ledger).check(resent).passed


def test_the_annotated_type_is_not_the_agents_type():
    with pytest.raises(ValueError, match="entailment"):
        Artifact.model_validate({"run_id": RUN, "from_agent": "a", "claims": [
            {"id": "c", "type": "Assertion", "text": "x", "propositions": [
                {"id": "p", "pred": "statement", "args": {"text": "x"}, "ledger_ids": ["led_" + "a" * 32], "entailment": None}]}]})
    props = json_schema()["$defs"]["Proposition"]
    assert not {"entailment", "confidence"} & set(props["properties"]) and props["additionalProperties"] is False
    assert "ledger_ids" in props["required"] and props["properties"]["ledger_ids"]["minItems"] == 1
