"""The typed-check machinery: the evidence view and its Arrow cache, the formula evaluator, pack
files validated with located errors, the entry-point family, the record cap per proposition and
bad records (binary, malformed JSON, 50 MB) that give a verdict, never a crash, and change nothing."""

from __future__ import annotations

import datetime as dt
import json
import sys
import textwrap
from decimal import Decimal

import pytest

from warrant.runtime.verify.formula import Bound, Formula, FormulaError, Missing
from warrant.runtime.verify.packs.registry import PackLoadError, load_packs
from warrant.runtime.verify.spec import PackSpecError, load_pack_spec
from warrant.runtime.verify.verifier import Verifier, VerifierConfig
from warrant.runtime.verify.view import DIRNAME, ViewStore, build_view

RUN = "run_t"


def verify(ledger, *props, config=None):
    claims = [{"id": f"c{i}", "type": "Assertion", "text": "t", "propositions": [{"id": f"p{i}", **p}]} for i, p in enumerate(props)]
    v = Verifier(ledger, None, config=config).verify({"run_id": RUN, "from_agent": "a", "claims": claims})
    return [c.propositions[0] for c in v.claims]


# -- the evidence view -----------------------------------------------------------------------------


def test_a_long_json_object_keeps_its_last_field_with_exact_bytes(ledger):
    obj = {f"field_{i:02d}": i for i in range(70)}
    obj["invoice_number"] = "INV-9"
    obj["grand_total"] = "1,234.50"
    data = json.dumps({"result": {"invoice": obj}}, indent=3).encode()
    rid = ledger.append(RUN, data, media_type="application/json")
    view = build_view(ledger.get(RUN, rid))
    last = [it for it in view.items if it.label == "grand_total"]
    assert len(view.items) == 72 and last and data[last[0].start:last[0].end] == b'"1,234.50"'
    (p,) = verify(ledger, {"pred": "invoice_total", "args": {"invoice_id": "INV-9", "amount": 1234.5}, "ledger_ids": [rid]})
    assert p.status == "supported" and p.spans[0].text == "1,234.50"


def test_text_view_items_carry_context_and_byte_spans(ledger):
    text = "ÉTOILE SUPPLY — INVOICE INV-5\n\n1. Totals\nThe subtotal is € 90.00. The total due is € 99.00.\n\n| Line | Qty |\n|---|---|\n| 1 | 4 |\n"
    rid = ledger.append(RUN, text)
    rec = ledger.get(RUN, rid)
    view = build_view(rec)
    for it in view.items:
        assert rec.data[it.start:it.end].decode() == it.text
    sent = [it for it in view.items if it.kind == "sentence" and "total due" in it.text][0]
    assert sent.title.startswith("ÉTOILE") and sent.heading == "1. Totals" and "subtotal" in sent.prev
    cell = [it for it in view.items if it.kind == "cell" and it.label == "Qty"][0]
    assert cell.text == "4" and cell.row == 0


def test_views_are_cached_as_arrow_beside_the_ledger_and_rebuilt_when_damaged(ledger, ledger_uri):
    rid = ledger.append(RUN, "INVOICE INV-1\nTotal due: USD 10.00\n")
    rec = ledger.get(RUN, rid)
    store = ViewStore(ledger_uri)
    first = store.get(rec)
    path = store.path(rid)
    assert path.parent.name == DIRNAME and path.is_file()
    assert ViewStore(ledger_uri).get(rec).items == first.items  # read back from the file
    path.write_bytes(b"garbage" * 10)  # damaged: rebuilt from the record's bytes, never trusted
    assert ViewStore(ledger_uri).get(rec).items == first.items
    assert path.read_bytes()[:6] == b"ARROW1"


@pytest.mark.parametrize(
    "data, media, problem",
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\xff\xfe", "application/octet-stream", "not UTF-8"),
        (b'{"invoice_number": "INV-1", "total": 12.0', "application/json", "malformed JSON"),
        (b'{"a": 1, "a": 2}', "application/json", "duplicate key"),
        (b"[" * 100_000 + b"]" * 100_000, "application/json", "nested deeper"),
    ],
)
def test_bad_records_give_a_verdict_naming_the_problem_and_change_nothing(ledger, data, media, problem):
    rid = ledger.append(RUN, data, media_type=media)
    before = (ledger.count(), ledger.verify().ok)
    (p,) = verify(ledger, {"pred": "invoice_total", "args": {"invoice_id": "INV-1", "amount": 12}, "ledger_ids": [rid]})
    assert p.status == "unsupported" and problem in p.reason
    assert (ledger.count(), ledger.verify().ok) == before and ledger.get(RUN, rid).data == data


def test_a_50_mb_text_gets_a_clear_verdict_not_a_truncated_view(ledger):
    body = ("Line of filler text about nothing in particular, number 7. " * 900_000).encode()[: 50 * 1024 * 1024]
    rid = ledger.append(RUN, b"INVOICE INV-50\nTotal due: USD 77.00\n" + body)
    before = ledger.count()
    (p,) = verify(ledger, {"pred": "invoice_total", "args": {"invoice_id": "INV-50", "amount": 77}, "ledger_ids": [rid]})
    assert p.status == "unsupported" and "over the evidence view's limit" in p.reason
    assert ledger.count() == before


# -- the record cap (issue 10 item 3) ------------------------------------------------------------------


def test_a_thousand_cited_filler_records_are_refused_not_scored(ledger):
    with ledger.batch() as b:
        filler = [b.add(RUN, f"record {n}: the sky is blue on day {n}") for n in range(1000)]
    props = verify(
        ledger,
        {"pred": "statement", "args": {"text": "The invoice total is USD 512."}, "ledger_ids": filler},
        {"pred": "hourly_cap", "args": {"amount": 250, "currency": "USD"}, "ledger_ids": filler[:8]},
        {"pred": "hourly_cap", "args": {"amount": 250, "currency": "USD"}, "ledger_ids": [filler[250]]},
    )
    assert props[0].status == "unverifiable" and "at most 8" in props[0].reason and "1000 records" in props[0].reason
    # within the cap, a typed slot is matched by its label, never by any number that happens to be equal
    assert [p.status for p in props[1:]] == ["unsupported", "unsupported"]
    assert "hourly cap" in props[2].reason
    wider = verify(ledger, {"pred": "statement", "args": {"text": "The invoice total is USD 512."}, "ledger_ids": filler[:20]},
                   config=VerifierConfig(max_records_per_proposition=20))
    assert wider[0].status != "unverifiable"


def test_an_amount_must_match_the_same_slot_not_any_number(ledger):
    rid = ledger.append(RUN, "Engagement terms. Minimum fee: USD 250 per matter. Hourly rates are capped at USD 300 per hour.")
    (p,) = verify(ledger, {"pred": "hourly_cap", "args": {"amount": 250}, "ledger_ids": [rid]})
    assert p.status == "contradicted" and p.spans[0].text == "USD 300"


def test_null_args_are_accepted_for_optional_arguments_only(ledger):
    rid = ledger.append(RUN, "Clause 4: Hourly rates shall not exceed USD 250.00.")
    ok, bad = verify(
        ledger,
        {"pred": "hourly_cap", "args": {"amount": 250, "currency": None, "client_id": None}, "ledger_ids": [rid]},
        {"pred": "hourly_cap", "args": {"amount": None}, "ledger_ids": [rid]},
    )
    assert ok.status == "supported" and "None" not in (ok.hypothesis or "")
    assert bad.status == "unverifiable" and "amount" in bad.reason


# -- formulas ------------------------------------------------------------------------------------


def test_formulas_compute_over_decimal_and_dates():
    d = dt.date
    env = {"q": Decimal("3"), "p": Decimal("0.1"), "a": d(2026, 3, 6), "b": d(2026, 3, 16), "none": None}
    assert Formula("q * p").evaluate(env) == Decimal("0.3")  # exact, not 0.30000000000000004
    assert Formula("pct(p, q)").evaluate(env).quantize(Decimal("0.01")) == Decimal("3.33")
    assert Formula("days_between(a, b)").evaluate(env) == 10
    assert Formula("business_days(a, b)").evaluate(env) == 6  # Fri 6 .. Mon 16, Mon-Fri only
    assert Formula("add_days(a, 30)").evaluate(env) == d(2026, 4, 5)
    assert Formula("add_business_days(a, 1)").evaluate(env) == d(2026, 3, 9)
    assert Formula("sum(q, p, 1)").evaluate(env) == Decimal("4.1")
    assert Formula("min(q, none)").evaluate(env) == 3 and Formula("opt(none * 2)").evaluate(env) is None
    with pytest.raises(Missing):
        Formula("none + 1").evaluate(env)
    with pytest.raises(FormulaError, match="division by zero"):
        Formula("q / (p - p)").evaluate(env)


def test_a_threshold_without_a_direction_decides_everywhere_but_at_itself():
    # "Threshold CHF: 10'000.00": above it or below it is settled; at it, "above" and "at or above" differ
    t = {"t": Bound.of(Decimal("10000"), None), "over": Decimal("10518.87"), "under": Decimal("9944"), "at": Decimal("10000")}
    assert Formula("exceeds(over, t)").evaluate(t) is True
    assert Formula("exceeds(under, t)").evaluate(t) is False
    with pytest.raises(FormulaError, match="does not say"):
        Formula("exceeds(at, t)").evaluate(t)
    assert Formula("exceeds(at, u)").evaluate({**t, "u": Bound.of(Decimal("10000"), ">=")}) is True


@pytest.mark.parametrize("src", ["__import__('os').system('true')", "q.real", "q ** 2", "'a'", "[q]", "lambda: 1", "open('x')", "q(1)"])
def test_formulas_outside_the_grammar_are_refused(src):
    with pytest.raises(FormulaError):
        Formula(src)


# -- pack files and plug-ins ---------------------------------------------------------------------------


def test_pack_errors_name_the_file_and_field(tmp_path):
    bad = tmp_path / "p.yaml"
    bad.write_text(textwrap.dedent("""
        pack: demo
        description: d
        scopes: {}
        predicates:
          - name: total_is
            description: d
            template: t
            needed: n
            args: {amount: {type: amount}}
            slots: {total: {kind: money, labels: [total]}}
            claim: [{arg: amount, equals: total}]
    """))
    with pytest.raises(PackSpecError, match=r"p\.yaml: predicates\[0\]\.slots\.total\.kind"):
        load_pack_spec(bad)
    bad.write_text(bad.read_text().replace("money", "amount").replace("equals: total", "equals: total * rate"))
    with pytest.raises(PackSpecError, match=r"claim\[0\]\.equals\[0\]: unknown name\(s\) rate"):
        load_pack_spec(bad)


def test_third_party_packs_load_through_the_entry_point_group(tmp_path, monkeypatch):
    pkg = tmp_path / "freightpack"
    pkg.mkdir()
    (pkg / "predicates.yaml").write_text(textwrap.dedent("""
        pack: freight
        description: Freight charges.
        scopes: {}
        predicates:
          - name: freight_charge
            description: The freight charge on a record.
            template: "Freight is {amount}."
            needed: a record stating the freight charge
            args: {amount: {type: amount}}
            slots: {freight: {kind: amount, labels: [freight, shipping]}}
            claim: [{arg: amount, equals: freight}]
    """))
    (pkg / "__init__.py").write_text("from warrant.runtime.verify.packs.base import Pack, pack_file\nPACK = Pack.from_file(pack_file(__file__))\n")
    dist = tmp_path / "freightpack-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: freightpack\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[warrant.predicates]\nfreight = freightpack:PACK\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    names = [p.name for p in load_packs()]
    assert names[:3] == ["invoice", "ap", "contracts"] and "freight" in names
    (dist / "entry_points.txt").write_text("[warrant.predicates]\nfreight = freightpack:NOPE\n")
    sys.modules.pop("freightpack", None)
    with pytest.raises(PackLoadError, match="entry point freight = freightpack:NOPE"):
        load_packs()
