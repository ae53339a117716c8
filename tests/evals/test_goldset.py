"""The gold-set folder: schema errors that name the file and field, the content hash that makes a
changed gold set fail to load, and the shipped gold sets' size. No model, no runs."""

from __future__ import annotations

import json

import pytest

from warrant.runtime.evals.goldset import MANIFEST, GoldError, load_gold, write_manifest

from tests.evals.conftest import ADVERSARIAL, GOLD, ROOT, edit_yaml


def problems(root, **kw):
    with pytest.raises(GoldError) as exc:
        load_gold(root, **kw)
    return exc.value.problems


def test_shipped_gold_sets_are_frozen_and_big_enough():
    for root in (GOLD, ADVERSARIAL):
        g = load_gold(root)
        assert g.manifest_hash == g.hash == json.loads((root / MANIFEST).read_text())["hash"]
        assert len(g.claims) >= 60 and len(g.abstentions) >= 10
        assert {"flag_invoice_line", "send_email"} <= g.irreversible_tools()
    base, adv = load_gold(GOLD), load_gold(ADVERSARIAL)
    assert adv.header.variant_of == base.name and adv.documents == base.documents  # the same documents, attacked
    assert base.hash != adv.hash


@pytest.mark.parametrize("change, code, file", [
    (lambda r: (r / "documents" / "invoice_INV-4421.txt").write_bytes(
        (r / "documents" / "invoice_INV-4421.txt").read_bytes().replace(b"320.00", b"250.00")), "file_changed", "documents/invoice_INV-4421.txt"),
    (lambda r: (r / "documents" / "extra.txt").write_text("a new page"), "file_added", "documents/extra.txt"),
    (lambda r: (r / "abstentions.yaml").unlink(), "file_removed", "abstentions.yaml"),
])
def test_a_changed_gold_set_does_not_load_as_the_frozen_one(gold_copy, change, code, file):
    change(gold_copy)
    found = problems(gold_copy)
    assert any(p.code == code and p.file == file for p in found), found
    assert any(p.code == "changed" and "re-freeze" in p.message for p in found)


def test_a_hand_edited_manifest_is_caught(gold_copy):
    doc = json.loads((gold_copy / MANIFEST).read_text())
    doc["files"]["claims.yaml"] = "0" * 64
    (gold_copy / MANIFEST).write_text(json.dumps(doc))
    assert any(p.code == "manifest_edited" for p in problems(gold_copy))


def test_refreezing_gives_a_new_hash(gold_copy):
    before = load_gold(gold_copy).hash
    edit_yaml(gold_copy / "gold.yaml", lambda d: d.update(description="edited"))
    assert problems(gold_copy)
    after = write_manifest(gold_copy)
    assert after != before and load_gold(gold_copy).hash == after


def test_missing_manifest_says_how_to_freeze(gold_copy):
    (gold_copy / MANIFEST).unlink()
    [p] = [p for p in problems(gold_copy) if p.file == MANIFEST]
    assert p.code == "not_frozen" and "warrant eval freeze" in p.message
    assert load_gold(gold_copy, frozen=False).manifest_hash is None


def test_schema_errors_name_the_file_the_item_and_the_field(gold_copy):
    def break_claims(doc):
        doc[0]["expect"] = "maybe"
        del doc[1]["pred"]
        doc[2]["colour"] = "red"
        doc[3]["args"]["amount"] = [1, 2]
    edit_yaml(gold_copy / "claims.yaml", break_claims)
    edit_yaml(gold_copy / "side_effects.yaml", lambda d: d[0].update(expect="sometimes"))
    found = {(p.file, p.loc) for p in problems(gold_copy, frozen=False)}
    assert ("claims.yaml", "$[0] (id cap_cl7).expect") in found
    assert ("claims.yaml", "$[1] (id terms_cl7).pred") in found
    assert ("claims.yaml", "$[2] (id cap_cl9).colour") in found
    assert any(f == "claims.yaml" and loc.startswith("$[3] (id terms_cl9).args.amount") for f, loc in found)
    assert ("side_effects.yaml", "$[0] (id flag_4421_14).expect") in found


def test_unknown_references_and_duplicate_ids_are_named(gold_copy):
    def bad(doc):
        doc[0]["task"] = "no_such_task"
        doc[1]["evidence"] = [{"document": "missing.txt"}]
        doc[2]["id"] = doc[3]["id"]
    edit_yaml(gold_copy / "claims.yaml", bad)
    found = problems(gold_copy, frozen=False)
    codes = {(p.code, p.loc.split(".")[-1] if "." in p.loc else p.loc) for p in found}
    assert ("duplicate_id", "id") in codes
    msgs = " ".join(p.message for p in found)
    assert "no task 'no_such_task'" in msgs and "no document 'missing.txt'" in msgs


def test_bad_yaml_names_line_and_column(gold_copy):
    (gold_copy / "tasks.yaml").write_text("- id: a\n  input: {kind: [unclosed\n")
    [p] = [p for p in problems(gold_copy, frozen=False) if p.file == "tasks.yaml"]
    assert p.code == "bad_yaml" and p.loc.startswith("line ")


def test_supported_claims_must_name_evidence_and_quotes_their_document(gold_copy):
    def bad(doc):
        doc[0]["evidence"] = []
        q = next(c for c in doc if c["pred"] == "quote")
        del q["args"]["document"]
    edit_yaml(gold_copy / "claims.yaml", bad)
    msgs = [p.message for p in problems(gold_copy, frozen=False)]
    assert any("names the evidence" in m for m in msgs) and any("names the document it copies" in m for m in msgs)


def test_iso_dates_in_yaml_stay_strings():
    g = load_gold(GOLD)
    task = g.task("q_consent_t1103")
    assert "2026-11-10" in task.input["terms"]  # YAML 1.1 would have made it a date object
    assert isinstance(g.output("inv_4421").output["issued"], str)


def test_not_a_folder():
    assert problems(ROOT / "no-such-gold")[0].code == "not_found"
