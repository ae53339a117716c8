"""Review policies as data: the schema (errors name the field), formulas, amount bands and
tolerances, and that the tool bus's auto-approvals name the rule and the policy version."""

from __future__ import annotations

import hashlib

import pytest
import yaml
from typer.testing import CliRunner

from warrant.examples.invoice_audit.policy import POLICY_FILE, RULE_NAME
from warrant.runtime.claimset import claim_set
from warrant.runtime.cli import app as cli
from warrant.runtime.graph import ControlPlane, GraphRunner, intent
from warrant.runtime.review.policy import PolicyError, ReviewPolicy
from tests.review.conftest import DEPS14, audit_graph
from tests.test_graph import FLAG14, INV
from warrant.examples.invoice_audit import graph as example

BASE = yaml.safe_load(POLICY_FILE.read_text())


def doc(**rule_changes):
    d = yaml.safe_load(POLICY_FILE.read_text())
    d["rules"][0].update(rule_changes)
    return d


def verdicts(rate=320.0, hours=4.0, caps=(250,), line="14", status="supported"):
    """Verdict payloads as the verifier journals them (claim id -> payload with propositions)."""
    a = {"invoice_id": "INV-4421", "line_id": line}
    props = [("exceeds_cap", a), ("line_rate", {**a, "rate": rate, "currency": "USD"}), ("line_hours", {**a, "hours": hours})]
    props += [("hourly_cap", {"client_id": "CL-7", "amount": c}) for c in caps]  # no currency: counts as USD (defaults)
    return {f"c{i}": {"status": status, "propositions": [{"id": f"p{i}", "pred": p, "args": args, "status": status}]}
            for i, (p, args) in enumerate(props)}


def test_the_example_policy_is_versioned_and_names_its_rules():
    pol = ReviewPolicy.load(POLICY_FILE)
    assert (pol.name, pol.version) == ("invoice_audit", 1)
    assert pol.sha256 == hashlib.sha256(POLICY_FILE.read_bytes()).hexdigest()
    assert [r.name for r in pol.rules] == [f"{RULE_NAME}@invoice_audit.v1"]
    bumped = ReviewPolicy.from_dict({**BASE, "version": 2})
    assert [r.name for r in bumped.rules] == [f"{RULE_NAME}@invoice_audit.v2"]


@pytest.mark.parametrize("data, loc, code", [
    ({k: v for k, v in BASE.items() if k != "version"}, "$.version", "missing_field"),
    ({**BASE, "version": "one"}, "$.version", "int_parsing"),
    ({**BASE, "version": 0}, "$.version", "bad_value"),
    ({**BASE, "owner": "finance"}, "$.owner", "unknown_field"),
    (doc(tool="Send-Email"), "$.rules[0].tool", "bad_format"),
    (doc(bands=[{"tolerance": -5}]), "$.rules[0].bands[0].tolerance", "bad_value"),
    (doc(bands=[{"toleranse": 5}]), "$.rules[0].bands[0].toleranse", "unknown_field"),
    (doc(bands=[]), "$.rules[0].bands", "too_short"),
    (doc(deviation="(rate - capp) * hours"), "$.rules[0].deviation", "bad_formula"),
    (doc(deviation="__import__('os').system('true')"), "$.rules[0].deviation", "bad_formula"),
    (doc(require=["deviation"]), "$.rules[0].require[0]", "bad_formula"),
    (doc(bands=[{"up_to": 5000, "tolerance": 500}, {"up_to": 1000, "tolerance": 100}]), "$.rules[0].bands[1].up_to", "bad_value"),
    (doc(bands=[{"tolerance": 500}, {"up_to": 1000, "tolerance": 100}]), "$.rules[0].bands[0].up_to", "bad_value"),
    (doc(amount=None, bands=[{"up_to": 100, "tolerance": 5}]), "$.rules[0].amount", "missing_field"),
    ({**BASE, "rules": [BASE["rules"][0], BASE["rules"][0]]}, "$.rules[1].name", "duplicate"),
    (doc(facts={"rate": {"pred": "line_rate", "arg": "rate", "match": {"line_id": "args.line id"}}}),
     "$.rules[0].facts.rate.match.line_id", "bad_value"),
    ([BASE], "$", "wrong_type"),
])
def test_schema_errors_name_the_field(data, loc, code):
    with pytest.raises(PolicyError) as exc:
        ReviewPolicy.from_dict(data)
    assert (loc, code) in {(v.loc, v.code) for v in exc.value.violations}, exc.value.violations
    assert loc in str(exc.value)


def test_a_file_that_is_not_yaml_says_where():
    with pytest.raises(PolicyError) as exc:
        ReviewPolicy.from_yaml("policy: invoice_audit\nversion: [1\n")
    [v] = exc.value.violations
    assert v.code == "invalid_yaml" and "line 3" in v.message


def test_amount_bands_pick_the_tolerance():
    two_bands = doc(bands=[{"up_to": 10000, "tolerance": 500}, {"up_to": 100000, "tolerance": 500, "tolerance_pct": 1}])
    rule = ReviewPolicy.from_dict(two_bands).rule(RULE_NAME)
    args = {"invoice_id": "INV-4421", "line_id": "14", "reason": "exceeds_cap"}
    small = rule.evaluate(args, verdicts())  # 4 h at 320: amount 1280, overbilled 280
    assert small.approved and (small.band, small.deviation, small.tolerance) == (0, "280.00", "500")
    big = rule.evaluate(args, verdicts(hours=62.5))  # amount 20000 (band 2: 1% = 200), overbilled 4375
    assert not big.approved and big.band == 1 and big.tolerance == "200.00" and "exceeds the tolerance USD 200.00" in big.reason
    pct = rule.evaluate(args, verdicts(rate=252.0, hours=62.5 * 320 / 252))  # amount 20000, overbilled 2 x 79.36.. = 158.7
    assert pct.approved and pct.band == 1
    huge = rule.evaluate(args, verdicts(hours=1000.0))  # amount 320000: above the last band
    assert not huge.approved and "above the last band" in huge.reason


@pytest.mark.parametrize("change, why", [
    (dict(rate=240.0), "requirement deviation > 0 does not hold"),
    (dict(caps=(250, 200)), "cap: 2 different supported values"),
    (dict(status="unsupported"), "no supported exceeds_cap proposition gives exceeds"),
    (dict(line="13"), "no supported exceeds_cap proposition gives exceeds"),
])
def test_a_rule_approves_only_on_one_supported_value_per_fact(change, why):
    rule = ReviewPolicy.load(POLICY_FILE).rule(RULE_NAME)
    res = rule.evaluate({"invoice_id": "INV-4421", "line_id": "14", "reason": "exceeds_cap"}, verdicts(**change))
    assert not res.approved and why in res.reason
    other = rule.evaluate({"invoice_id": "INV-4421", "line_id": "14", "reason": "duplicate"}, verdicts())
    assert not other.approved and "reason = 'exceeds_cap'" in other.reason


def test_the_bus_auto_approves_by_the_yaml_rule_and_the_grant_names_rule_and_version(plane, tmp_path):
    it = intent("flag_invoice_line", FLAG14, requires_grant=True, depends_on=DEPS14)
    rep = GraphRunner(plane, corpus=example.corpus()).run(audit_graph([it]), INV)
    [a] = rep.actions
    assert a.status == "executed" and a.grant_issuer == f"policy:{RULE_NAME}@invoice_audit.v1"
    assert plane.review.items() == []  # auto-approved: nothing for a person
    why = plane.policy.explain("flag_invoice_line", "1", FLAG14, claim_set(plane.journal, rep.run_id, DEPS14))
    assert (why.outcome, why.rule, why.version, why.sha256) == ("auto_approve", f"{RULE_NAME}@invoice_audit.v1", 1, plane.policy.sha256)
    assert why.reason == "deviation USD 280.00 within USD 500 of band 1"


def test_a_tighter_policy_version_queues_the_same_call_saying_why(tmp_path):
    strict = ReviewPolicy.from_dict({**doc(bands=[{"tolerance": 100}]), "version": 2})
    plane = ControlPlane.open(str(tmp_path / "ledger"), example.registry(), policy=strict)
    try:
        it = intent("flag_invoice_line", FLAG14, requires_grant=True, depends_on=DEPS14)
        rep = GraphRunner(plane, corpus=example.corpus()).run(audit_graph([it]), INV)
        assert rep.actions[0].status == "queued_for_review"
        [st] = plane.review.items()
        p = st.item.policy
        assert (p.outcome, p.policy, p.version, p.rule) == ("queue", "invoice_audit", 2, f"{RULE_NAME}@invoice_audit.v2")
        assert p.reason == "deviation USD 280.00 exceeds the tolerance USD 100 of band 1"
    finally:
        plane.close()


def test_warrant_review_policy_checks_a_file(tmp_path):
    ok = CliRunner().invoke(cli, ["review", "policy", str(POLICY_FILE)])
    assert ok.exit_code == 0 and f"{RULE_NAME}@invoice_audit.v1" in ok.output
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump(doc(deviation="rate -", bands=[{"tolerance": -1}])))
    res = CliRunner().invoke(cli, ["review", "policy", str(bad)])
    assert res.exit_code == 2
    assert "$.rules[0].bands[0].tolerance" in res.output
    missing = CliRunner().invoke(cli, ["review", "policy", str(tmp_path / "nope.yaml")])
    assert missing.exit_code == 2 and "cannot read" in missing.output
