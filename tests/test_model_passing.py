"""Who may pass a free-text statement: a sentence of the record copied whole, the rules, and a model
only at a pass threshold chosen for it. The documents here are invented for these tests."""

from __future__ import annotations

import json
import shutil

import pytest

from warrant.runtime.verify.backends import load_backend
from warrant.runtime.verify.backends.base import ModelMissingError
from warrant.runtime.verify.backends.onnx_nli import OnnxNLI
from warrant.runtime.verify.rules.copied import copied_sentence
from warrant.runtime.verify.verifier import Verifier, VerifierConfig
from tests.corpus import statement

RUN = "run_pass"
RECORD = "Invoice INV-2291 was issued by Meridian Logistics on 3 March 2026. The supplier keeps timesheets for every task."
PARAPHRASE = "Meridian Logistics issued INV-2291."


@pytest.fixture(scope="module")
def nli():
    return load_backend(None)


def _one(ledger, backend, text, record=RECORD, **config):
    rid = ledger.append(RUN, record)
    (p,) = Verifier(ledger, backend, config=VerifierConfig(**config)).verify(statement(RUN, rid, text)).claims[0].propositions
    return p


def test_the_shipped_model_passes_nothing_alone(ledger, nli):
    assert nli.pass_threshold is None
    p = _one(ledger, nli, PARAPHRASE)
    assert p.status == "unsupported" and p.checker.startswith("nli:")
    assert "leans supported" in p.reason and "warrant_pass_threshold" in p.reason


def test_a_threshold_set_for_the_model_lets_it_pass(ledger, nli):
    p = _one(ledger, nli, PARAPHRASE, entail_threshold=0.5)
    assert p.status == "supported" and p.checker.startswith("nli:") and p.confidence >= 0.5


def test_a_model_carries_its_pass_threshold_in_its_config(tmp_path, ledger):
    shipped = load_backend(None).model_dir
    folder = tmp_path / "model"
    shutil.copytree(shipped, folder)
    cfg = json.loads((folder / "config.json").read_text())
    (folder / "config.json").write_text(json.dumps({**cfg, "warrant_pass_threshold": 0.5}))
    own = OnnxNLI(folder)
    assert own.pass_threshold == 0.5
    assert _one(ledger, own, PARAPHRASE).status == "supported"
    for bad in ("high", 1.5, 0, True):
        (folder / "config.json").write_text(json.dumps({**cfg, "warrant_pass_threshold": bad}))
        with pytest.raises(ModelMissingError, match="warrant_pass_threshold"):
            OnnxNLI(folder)


def test_a_sentence_copied_whole_is_supported_by_its_span(ledger):
    record = "Terms of engagement\n\n4.1 The Firm will invoice the Client monthly in arrears.\n4.2 Invoices are payable in USD."
    p = _one(ledger, None, "the firm will  invoice the client monthly in arrears", record=record)
    assert p.status == "supported" and p.checker == "rules:copied"
    assert p.evidence.text == "The Firm will invoice the Client monthly in arrears."


def test_a_clause_label_is_not_part_of_the_sentence():
    record = "Engagement letter. Clause 4: Hourly rates shall not exceed USD 250.00. Clause 9: Travel time is not billable."
    a, b = copied_sentence("Travel time is not billable.", record)
    assert record[a:b] == "Travel time is not billable."


def test_a_few_sentences_in_a_row_and_a_json_string_copy_too():
    record = ('Adjudication will take place once a dividend is declared; the claim is under review.\n'
              '{"notes": "Recon charges cover detailing and windshield repair. Unit K7 sold as is."}')
    a, b = copied_sentence("Adjudication will take place once a dividend is declared; the claim is under review.", record)
    assert record[a:b].startswith("Adjudication") and record[a:b].endswith("review.")
    a, b = copied_sentence("Recon charges cover detailing and windshield repair.", record)
    assert record[a:b] == "Recon charges cover detailing and windshield repair."
    assert copied_sentence("The claim is under review.", record) is None  # after ";": leans on the clause before


@pytest.mark.parametrize("claim", [
    "The Supplier may terminate the Agreement.",  # a clause after ";": its condition sits before it
    "The landlord pays for water damage.",  # an item under a lead-in that ends in ":"
    "The Firm will invoice the Client weekly in arrears.",  # one word changed
    "Invoices are payable.",  # a part of a sentence
    "Payable in USD.",  # too short to say anything
])
def test_what_is_not_a_whole_sentence_copied_is_not(claim):
    record = ("If the Client fails to pay: the Supplier may suspend the services; the Supplier may terminate the Agreement.\n"
              "Rejected proposals:\n- The landlord pays for water damage.\n"
              "The Firm will invoice the Client monthly in arrears. Invoices are payable in USD within 30 days.\nPayable in USD.")
    assert copied_sentence(claim, record) is None

