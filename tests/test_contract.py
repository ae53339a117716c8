import json

import jsonschema
import pytest
from pydantic import ValidationError

from warrant.runtime.contract import Artifact, json_schema

LID = "led_" + "ab" * 16


def artifact(**over):
    doc = {
        "run_id": "run_7f3c",
        "from_agent": "analyst",
        "claims": [
            {
                "id": "c_19",
                "type": "Assertion",
                "text": "Line item 14 exceeds the engagement-letter hourly cap.",
                "propositions": [
                    {
                        "id": "p_19a",
                        "pred": "exceeds_cap",
                        "args": {"line_id": "14", "cap_source": "engagement_letter"},
                        "ledger_ids": [LID],
                    }
                ],
            }
        ],
        "open_questions": [],
        "action_intents": [
            {"tool": "flag_invoice_line", "args": {"invoice_id": "INV-4421", "line_id": "14"}, "requires_grant": True, "depends_on": ["c_19"]}
        ],
    }
    doc.update(over)
    return doc


def test_mission_example_parses():
    a = Artifact.model_validate(artifact())
    assert a.claims[0].propositions[0].pred == "exceeds_cap"
    assert a.action_intents[0].depends_on == ["c_19"]


@pytest.mark.parametrize(
    "mutate, loc",
    [
        (lambda d: d.update(summary="all good"), ("summary",)),
        (lambda d: d["claims"][0].update(notes="prose"), ("claims", 0, "notes")),
        (lambda d: d["claims"][0].update(type="Fact"), ("claims", 0, "type")),
        (lambda d: d["claims"][0].update(type="assertion"), ("claims", 0, "type")),
        (lambda d: d["action_intents"][0].update(requires_grant="true"), ("action_intents", 0, "requires_grant")),
        (lambda d: d["claims"][0]["propositions"][0].update(ledger_ids="led_x"), ("claims", 0, "propositions", 0, "ledger_ids")),
        (lambda d: d["claims"][0]["propositions"][0].update(confidence="0.9"), ("claims", 0, "propositions", 0, "confidence")),
        (lambda d: d["claims"][0]["propositions"][0].update(entailment="entails"), ("claims", 0, "propositions", 0, "entailment")),
        (lambda d: d.update(run_id=7), ("run_id",)),
        (lambda d: d.pop("from_agent"), ("from_agent",)),
    ],
)
def test_strict_rejects(mutate, loc):
    d = artifact()
    mutate(d)
    with pytest.raises(ValidationError) as e:
        Artifact.model_validate(d)
    assert any(err["loc"][: len(loc)] == loc for err in e.value.errors()), e.value.errors()


def test_quote_needs_source_and_only_quotes_have_one():
    q = {"id": "c1", "type": "Quote", "text": "x"}
    with pytest.raises(ValidationError, match="quote_of"):
        Artifact.model_validate(artifact(claims=[q]))
    a = {"id": "c1", "type": "Assertion", "text": "x", "quote_of": {"ledger_id": LID}}
    with pytest.raises(ValidationError, match="only allowed on claims of type Quote"):
        Artifact.model_validate(artifact(claims=[a], action_intents=[]))
    ok = Artifact.model_validate(artifact(claims=[dict(q, quote_of={"ledger_id": LID})], action_intents=[]))
    assert ok.claims[0].quote_of.ledger_id == LID


def test_json_schema_is_valid_2020_12_and_agrees_with_the_models():
    schema = json_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    v = jsonschema.Draft202012Validator(schema)
    assert not list(v.iter_errors(artifact()))
    assert list(v.iter_errors(artifact(summary="prose")))  # unknown fields rejected there too
    json.dumps(schema)


def test_content_hash_ignores_key_order():
    a = Artifact.model_validate(artifact())
    b = Artifact.model_validate(json.loads(json.dumps(artifact(), sort_keys=True)))
    assert a.content_hash() == b.content_hash()
