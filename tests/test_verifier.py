import json

import numpy as np
import pytest

from warrant.ledger import canonical_json
from warrant.runtime.contract import Artifact
from warrant.runtime.verify.backends import ModelMissingError, load_backend
from warrant.runtime.verify.backends.base import label_permutation, to_fixed_order
from warrant.runtime.verify.backends.registry import default_model_dir
from warrant.runtime.verify.verifier import Verifier, VerifierConfig, annotate

from tests.corpus import INVOICE, LETTER, TERMS

RUN = "run_v"


@pytest.fixture
def ids(ledger):
    letter = ledger.append(RUN, LETTER, source={"document": "engagement_letter.txt"})
    inv = ledger.append(RUN, canonical_json(INVOICE), kind="tool_output", source={"tool": "lookup_invoice", "tool_version": "1"})
    terms = ledger.append(RUN, canonical_json(TERMS), kind="tool_output", source={"tool": "lookup_engagement_terms", "tool_version": "1"})
    ledger.append(RUN, "Timesheet CL-7, March: 4.0 hours regulatory filing by a partner.", source={"document": "timesheet.txt"})
    return {"letter": letter, "invoice": inv, "terms": terms}


def prop(pid, pred, args, cites):
    return {"id": pid, "pred": pred, "args": args, "ledger_ids": cites}


def artifact(*claims):
    return {"run_id": RUN, "from_agent": "analyst", "claims": list(claims)}


def assertion(cid, *props):
    return {"id": cid, "type": "Assertion", "text": f"claim {cid}", "propositions": list(props)}


def by_prop(verdict):
    return {p.proposition_id: p for c in verdict.claims for p in c.propositions}


# -- deterministic checks: no model involved ----------------------------------------------------


def test_predicates_decide_from_structured_records_and_cite_exact_bytes(ledger, journal, ids):
    v = Verifier(ledger, None, journal=journal).verify(
        artifact(
            assertion("c1", prop("p1", "exceeds_cap", {"invoice_id": "INV-4421", "line_id": "14"}, [ids["invoice"], ids["terms"]])),
            assertion("c2", prop("p2", "exceeds_cap", {"invoice_id": "INV-4421", "line_id": "12"}, [ids["invoice"], ids["letter"]])),
            assertion("c3", prop("p3", "line_rate", {"invoice_id": "INV-4421", "line_id": "14", "rate": 300}, [ids["invoice"]])),
        )
    )
    p = by_prop(v)
    assert p["p1"].status == "supported" and p["p1"].checker == "predicate:exceeds_cap"
    assert p["p2"].status == "contradicted"  # 250 does not exceed a cap of 250 (taken from the letter's text)
    assert p["p3"].status == "contradicted" and "320" in p["p3"].reason
    # every value the verdict used, as exact bytes: line 14's rate in the invoice, the cap in the terms
    for span in p["p1"].spans:
        rec = ledger.get(RUN, span.ledger_id)
        assert rec.data[span.start : span.end].decode() == span.text
    assert [(s.ledger_id, s.text) for s in p["p1"].spans] == [(ids["invoice"], "320.0"), (ids["terms"], "250.0")]
    line = json.loads(ledger.get(RUN, ids["invoice"]).data)["lines"][1]
    assert line["line_id"] == "14" and p["p1"].evidence == p["p1"].spans[0]
    assert v.status == "abstain"


def test_numbers_dates_and_negation_are_contradicted_by_rules_without_a_model(ledger, ids):
    v = Verifier(ledger, None).verify(
        artifact(
            assertion("c1", prop("p1", "statement", {"text": "Hourly rates shall not exceed USD 300."}, [ids["letter"]])),
            assertion("c2", prop("p2", "statement", {"text": "Invoices are payable within 45 days of receipt."}, [ids["letter"]])),
            assertion("c3", prop("p3", "statement", {"text": "The engagement letter is effective 1 February 2026."}, [ids["letter"]])),
            assertion("c4", prop("p4", "statement", {"text": "Travel time is billable."}, [ids["letter"]])),
        )
    )
    p = by_prop(v)
    for pid in ("p1", "p2", "p3", "p4"):
        assert p[pid].status == "contradicted", (pid, p[pid])
        assert p[pid].checker == "rules"
        assert p[pid].evidence.text in LETTER
    assert "250" in p["p1"].evidence.text and "30 days" in p["p2"].evidence.text
    assert "2026" in p["p3"].evidence.text and "not billable" in p["p4"].evidence.text


def test_quotes_must_be_verbatim(ledger, ids):
    v = Verifier(ledger, None).verify(
        artifact(
            {"id": "q1", "type": "Quote", "text": "Hourly rates shall not exceed USD 250.00", "quote_of": {"ledger_id": ids["letter"]}},
            {"id": "q2", "type": "Quote", "text": "Hourly rates shall not exceed USD 350.00", "quote_of": {"ledger_id": ids["letter"]}},
        )
    )
    q1, q2 = v.claims[0].propositions[0], v.claims[1].propositions[0]
    assert q1.status == "supported" and LETTER.encode()[q1.evidence.start : q1.evidence.end] == q1.hypothesis.encode()
    assert q2.status == "contradicted" and "'2'" in q2.reason and "'3'" in q2.reason
    assert "250.00" in q2.evidence.text


@pytest.mark.parametrize(
    "pred, args, missing",
    [
        ("overpriced", {"invoice_id": "INV-4421"}, None),
        ("line_rate", {"invoice_id": "INV-4421"}, ["line_id", "rate"]),
        ("exceeds_cap", {"line_id": "14"}, ["invoice_id"]),
        ("statement", {"text": "the invoice is overpriced"}, None),
        ("line_rate", {"invoice_id": "INV-4421", "line_id": "14", "rate": "320"}, None),
    ],
)
def test_uncheckable_propositions_are_unverifiable_never_guessed(ledger, ids, pred, args, missing):
    (p,) = by_prop(Verifier(ledger, None).verify(artifact(assertion("c", prop("p", pred, args, [ids["invoice"]]))))).values()
    assert p.status == "unverifiable" and p.checker == "schema"
    if missing:
        assert p.missing_args == missing
    assert p.reason


def test_unsupported_says_what_is_missing_and_suggests_records_of_this_run(ledger, ids):
    ledger.append("other_run", "Timesheet CL-7, March: regulatory filing by a partner.")
    (p,) = by_prop(
        Verifier(ledger, None).verify(
            artifact(assertion("c", prop("p", "exceeds_cap", {"invoice_id": "INV-4421", "line_id": "14"}, [ids["invoice"]])))
        )
    ).values()
    assert p.status == "unsupported"
    assert "engagement terms" in p.missing_evidence.needed
    sugg = [s.ledger_id for s in p.missing_evidence.suggestions]
    assert ids["invoice"] not in sugg  # already cited
    assert all(ledger.exists(RUN, [s]) == [] for s in sugg)  # only this run's records


def test_rewording_a_refused_proposition_without_new_evidence_is_refused(ledger, journal, ids):
    ver = Verifier(ledger, None, journal=journal)
    first = ver.verify(artifact(assertion("c1", prop("p1", "statement", {"text": "Hourly rates shall not exceed USD 300."}, [ids["letter"]]))))
    assert by_prop(first)["p1"].status == "contradicted"
    reworded = ver.verify(artifact(assertion("c1b", prop("p1b", "statement", {"text": "Hourly fees may not go above USD 300."}, [ids["letter"]]))))
    p = by_prop(reworded)["p1b"]
    assert p.status == "unsupported" and p.checker == "resubmission" and "p1" in p.reason
    # A different fact on the same document is not a reword; a corrected value is re-checked.
    other = ver.verify(artifact(assertion("c2", prop("p2", "statement", {"text": "Invoices are payable within 45 days."}, [ids["letter"]]))))
    assert by_prop(other)["p2"].checker == "rules"
    fixed = ver.verify(artifact(assertion("c3", prop("p3", "hourly_cap", {"amount": 250, "currency": "USD"}, [ids["letter"]]))))
    assert by_prop(fixed)["p3"].status == "supported"


def test_verdicts_are_journaled_per_claim_and_feed_claim_sets(ledger, journal, ids):
    from warrant.runtime.claimset import claim_set

    Verifier(ledger, None, journal=journal).verify(
        artifact(assertion("c1", prop("p1", "exceeds_cap", {"invoice_id": "INV-4421", "line_id": "14"}, [ids["invoice"], ids["terms"]])))
    )
    (e,) = journal.entries(RUN, kind="verdict")
    assert e.subject == "c1" and e.payload["status"] == "supported"
    assert e.payload["propositions"][0]["evidence"]["ledger_id"] == ids["invoice"]
    assert claim_set(journal, RUN, ["c1"]).verified


def test_only_the_verifier_fills_entailment(ledger, ids):
    art = Artifact.model_validate(
        artifact(assertion("c1", prop("p1", "line_hours", {"invoice_id": "INV-4421", "line_id": "14", "hours": 4}, [ids["invoice"]])))
    )
    v = Verifier(ledger, None).verify(art)
    filled = annotate(art, v)
    assert "entailment" not in art.claims[0].propositions[0].model_dump()  # the agents' type has no such field
    assert filled.claims[0].propositions[0].entailment == "supported"
    assert filled.claims[0].propositions[0].confidence == 1.0


def test_no_model_means_unsupported_not_supported(ledger, ids):
    (p,) = by_prop(
        Verifier(ledger, None).verify(artifact(assertion("c", prop("p", "statement", {"text": "Clause 9 concerns Harbor Legal LLP travel."}, [ids["letter"]]))))
    ).values()
    assert p.status == "unsupported" and "no entailment model" in p.reason


# -- backends: loading and label order -----------------------------------------------------------


def test_missing_models_are_clear_errors(tmp_path, monkeypatch):
    with pytest.raises(ModelMissingError, match="neither an .onnx model nor"):
        load_backend(str(tmp_path))
    monkeypatch.setenv("WARRANT_NLI_MODEL", str(tmp_path))
    with pytest.raises(ModelMissingError, match="embedded NLI model is missing"):
        load_backend()
    with pytest.raises(ModelMissingError, match="model hub is off"):
        load_backend("torch:someone/some-nli-model")
    with pytest.raises(ModelMissingError, match="no model at"):
        load_backend("./no/such/dir")


def test_label_order_is_read_from_the_config():
    perm = label_permutation({"0": "CONTRADICTION", "1": "NEUTRAL", "2": "ENTAILMENT"})
    fixed = to_fixed_order(np.array([[0.7, 0.2, 0.1]], dtype=np.float32), perm)
    np.testing.assert_allclose(fixed, [[0.1, 0.2, 0.7]], rtol=1e-6)
    with pytest.raises(ModelMissingError, match="cannot tell what label"):
        label_permutation({"0": "LABEL_0", "1": "LABEL_1"})


# -- the embedded model ---------------------------------------------------------------------------

needs_model = pytest.mark.skipif(not any(default_model_dir().glob("*.onnx")), reason="embedded NLI model not built yet")


@pytest.fixture(scope="module")
def nli():
    return load_backend()


@needs_model
def test_embedded_model_scores_pairs_in_label_order(nli):
    probs = nli.score(
        [
            ("The invoice was paid on 3 March by bank transfer.", "The invoice was paid."),
            ("The invoice was paid on 3 March by bank transfer.", "The invoice was never paid."),
        ]
    )
    assert probs.shape == (2, 3) and np.allclose(probs.sum(axis=1), 1.0, atol=1e-4)
    assert probs[0].argmax() == 0 and probs[1].argmax() == 2


@needs_model
def test_a_pairs_score_does_not_depend_on_its_batch_mates(nli):
    """Same pair, same score, whatever else is scored with it: otherwise the in-process and the
    Ray Data paths (different batches) can reach different verdicts on the same evidence."""
    assert nli.per_pair  # the embedded model is dynamically quantised
    pairs = [
        ("The invoice was paid on 3 March by bank transfer.", "The invoice was paid."),
        ("Clause 4: hourly rates are capped at USD 250. " * 6, "Rates are capped."),
        ("A man plays a guitar on stage.", "Nobody is playing music."),
        ("Timesheet, March: 12 hours of document review by A. Ortiz at USD 240/h.", "Ortiz billed 12 hours."),
        ("x", "y"),
    ]
    together = nli.score(pairs)
    for i, pair in enumerate(pairs):
        np.testing.assert_array_equal(nli.score([pair]), together[i : i + 1])
    np.testing.assert_array_equal(nli.score(pairs[::-1])[::-1], together)


@needs_model
def test_per_pair_scoring_can_be_forced_either_way(monkeypatch):
    monkeypatch.setenv("WARRANT_NLI_PER_PAIR", "0")
    assert load_backend().per_pair is False
    monkeypatch.setenv("WARRANT_NLI_PER_PAIR", "1")
    assert load_backend().per_pair is True


def test_dynamic_quantisation_is_detected_across_read_chunks(tmp_path):
    from warrant.runtime.verify.backends.onnx_nli import _dynamically_quantized

    plain = tmp_path / "float.onnx"
    plain.write_bytes(b"\0" * (1 << 22) + b"MatMul" * 100)
    assert not _dynamically_quantized(plain)
    split = tmp_path / "split.onnx"  # the op name straddles the 4 MiB read boundary
    split.write_bytes(b"\0" * ((1 << 22) - 7) + b"DynamicQuantizeLinear" + b"\0" * 100)
    assert _dynamically_quantized(split)


@needs_model
def test_model_supports_with_the_minimal_verbatim_chunk(ledger, ids, nli):
    # A statement the embedded model does support from one clause of the four-clause letter: the
    # evidence shown must be that clause, verbatim, not the whole record nor a neighbouring clause.
    (p,) = by_prop(  # at a pass threshold set for the test: the embedded model has none of its own
        Verifier(ledger, nli, config=VerifierConfig(entail_threshold=0.8)).verify(
            artifact(assertion("c", prop("p", "statement", {"text": "Travel time cannot be billed."}, [ids["letter"]]))))
    ).values()
    assert p.status == "supported", p
    assert p.checker.startswith("nli:")
    assert p.evidence.text in LETTER and len(p.evidence.text) < len(LETTER)
    assert "Travel time is not billable" in p.evidence.text
    assert not any(other in p.evidence.text for other in ("Clause 4", "Clause 6", "Engagement letter"))


def test_temperature_scaling_keeps_the_decision_and_softens_confidence():
    from warrant.runtime.verify.backends.base import calibrate

    p = np.array([[0.7, 0.2, 0.1], [0.05, 0.15, 0.8]], dtype=np.float32)
    assert calibrate(p, 1.0) is p
    soft = calibrate(p, 2.0)
    np.testing.assert_allclose(soft.sum(axis=1), 1.0, rtol=1e-6)
    assert (soft.argmax(axis=1) == p.argmax(axis=1)).all()
    assert (soft.max(axis=1) < p.max(axis=1)).all()
