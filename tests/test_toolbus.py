"""The typed tool bus: propose validates without running; execute runs, checks, stores, journals."""

from __future__ import annotations

import math
import threading
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from warrant.examples.invoice_audit import tools_impl
from warrant.ledger import Journal, Ledger, canonical_json
from warrant.ledger.journal import JournalKind
from warrant.runtime.contract import ActionIntent, content_hash
from warrant.runtime.grants import GrantBook
from warrant.runtime.registry import FORMAT_CHECKER, ToolRegistry
from pydantic import ValidationError

from warrant.runtime.toolbus import (TOOL_OUTCOME, ToolBus, ToolCallAccepted, ToolCallRejected, ToolFailed, ToolRefused, ToolResult,
                                      outcome_of)

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "invoice_audit" / "tools"

PROBE_INPUT = {
    "type": "object",
    "additionalProperties": False,
    "required": ["n"],
    "properties": {
        "n": {"type": "integer"},
        "x": {"type": "number"},
        "flag": {"type": "boolean"},
        "kind": {"enum": ["exceeds_cap", "not_in_timesheet", "duplicate"]},
        "email": {"type": "string", "format": "email"},
        "tags": {"type": "array", "items": {"type": "string", "pattern": "^[a-z]+$"}, "maxItems": 3},
        "meta": {"type": "object", "properties": {"k": {"type": "integer"}}, "required": ["k"]},
    },
}
N_OUT = {"type": "object", "required": ["n"], "properties": {"n": {"type": "integer"}}, "additionalProperties": False}
RELEASE = threading.Event()  # lets the sleeping tools finish once their test is done


def _spec(name, *, irreversible=False, timeout_s=2.0, input_schema=None, output_schema=None):
    return {
        "name": name,
        "version": "1",
        "description": f"test tool {name}",
        "irreversible": irreversible,
        "timeout_s": timeout_s,
        "input_schema": input_schema or {"type": "object", "properties": {"n": {"type": "integer"}}},
        "output_schema": output_schema or N_OUT,
    }


def _boom(args):
    raise ValueError(f"cannot handle n={args.get('n')}")


def _raises_timeout_error(args):
    raise TimeoutError("upstream said so")


def _slow(args):
    RELEASE.wait(5)
    return {"n": 1}


def _mutates(args):
    args["n"] = 999
    return {"n": args["n"]}


def _not_json(args):
    return {"n": float("nan")}


SPECS = [
    (_spec("probe", input_schema=PROBE_INPUT), lambda a: {"n": a["n"]}),
    (_spec("echo_v2", output_schema={"type": "object"}), lambda a: {"echo": a, "text": "é ü"}),
    (_spec("boom"), _boom),
    (_spec("raises_timeout_error"), _raises_timeout_error),
    (_spec("slow", timeout_s=0.2), _slow),
    (_spec("slow_write", irreversible=True, timeout_s=0.2), _slow),
    (_spec("bad_output"), lambda a: {"n": "seven", "extra": 1}),
    (_spec("not_json_output"), _not_json),
    (_spec("mutates"), _mutates),
]


def make_registry() -> ToolRegistry:
    examples = ToolRegistry.load(EXAMPLES).specs()
    specs = list(examples) + [s for s, _ in SPECS]
    specs.append(dict(_spec("probe", input_schema=PROBE_INPUT), version="0.9"))
    impls = {(s["name"], s["version"]): fn for s, fn in SPECS}
    impls[("probe", "0.9")] = lambda a: {"n": -1}
    return ToolRegistry.from_specs(specs, implementations=impls)


@pytest.fixture
def store(tmp_path):
    ledger, journal = Ledger.open(str(tmp_path / "w")), Journal.open(str(tmp_path / "w"))
    yield ledger, journal
    ledger.close()
    journal.close()


@pytest.fixture
def bus(store):
    ledger, journal = store
    tools_impl.reset()
    RELEASE.clear()
    yield ToolBus(make_registry(), ledger, journal, GrantBook(journal))
    RELEASE.set()
    tools_impl.reset()


def tool_calls(journal, run_id="r1"):
    return journal.entries(run_id=run_id, kind=JournalKind.TOOL_CALL)


def only(violations, code):
    found = [v for v in violations if v.code == code]
    assert found, violations
    return found[0]


# -- propose -----------------------------------------------------------------------------------------


def test_good_call_is_accepted_and_nothing_runs(bus, store):
    ledger, journal = store
    intent = {
        "tool": "flag_invoice_line",
        "args": {"invoice_id": "INV-4421", "line_id": "14", "reason": "exceeds_cap"},
        "requires_grant": True,
        "depends_on": ["c_19"],
    }
    out = bus.propose("r1", intent)
    assert isinstance(out, ToolCallAccepted) and out.status == "accepted"
    assert (out.tool, out.version, out.irreversible) == ("flag_invoice_line", "1", True)
    assert out.args_hash == content_hash(intent["args"])
    assert tools_impl.FLAGS == [] and journal.count() == 0 and ledger.count() == 0


def test_unknown_tool(bus):
    out = bus.propose("r1", {"tool": "wire_money", "args": {}})
    assert isinstance(out, ToolCallRejected) and out.status == "rejected"
    v = only(out.violations, "unknown_tool")
    assert v.loc == "$.tool" and v.got == "wire_money" and "lookup_invoice" in v.expected


def test_unknown_version(bus):
    out = bus.propose("r1", {"tool": "lookup_invoice", "version": "2", "args": {"invoice_id": "INV-1"}})
    v = only(out.violations, "unknown_version")
    assert v.loc == "$.version" and v.expected == ["1"] and v.got == "2"


def test_no_version_means_highest(bus):
    out = bus.propose("r1", ActionIntent(tool="probe", args={"n": 1}))
    assert out.status == "accepted" and out.version == "1"
    assert bus.propose("r1", ActionIntent(tool="probe", version="0.9", args={"n": 1})).version == "0.9"


def test_missing_field_is_located_at_the_field(bus):
    out = bus.propose("r1", {"tool": "lookup_invoice", "args": {}})
    v = only(out.violations, "missing_field")
    assert v.loc == "$.args.invoice_id" and v.expected == ["invoice_id"]


def test_extra_field_is_located_at_the_field(bus):
    out = bus.propose("r1", {"tool": "lookup_invoice", "args": {"invoice_id": "INV-1", "priority": "high"}})
    assert [(v.code, v.loc, v.got) for v in out.violations] == [("unknown_field", "$.args.priority", "priority")]


@pytest.mark.parametrize(
    "args, loc, expected",
    [
        ({"n": "14"}, "$.args.n", "integer"),  # a numeric string is not a number
        ({"n": 2.5}, "$.args.n", "integer"),  # a float is not an integer
        ({"n": 3.0}, "$.args.n", "integer"),  # not even an integral one (documented choice)
        ({"n": True}, "$.args.n", "integer"),
        ({"n": 1, "x": "14"}, "$.args.x", "number"),
        ({"n": 1, "flag": 1}, "$.args.flag", "boolean"),  # 1 is not True
        ({"n": 1, "flag": "true"}, "$.args.flag", "boolean"),
        ({"n": 1, "meta": {"k": "1"}}, "$.args.meta.k", "integer"),
    ],
)
def test_wrong_types_are_not_coerced(bus, args, loc, expected):
    out = bus.propose("r1", {"tool": "probe", "args": args})
    assert out.status == "rejected"
    v = only(out.violations, "wrong_type")
    assert (v.loc, v.expected) == (loc, expected)


def test_enum_is_exact(bus):
    out = bus.propose("r1", {"tool": "probe", "args": {"n": 1, "kind": "exceed_cap"}})
    v = only(out.violations, "bad_value")
    assert v.loc == "$.args.kind" and v.got == "exceed_cap" and "exceeds_cap" in v.expected
    assert bus.propose("r1", {"tool": "probe", "args": {"n": 1, "kind": "Exceeds_Cap"}}).status == "rejected"


def test_format_and_pattern_are_enforced(bus):
    out = bus.propose("r1", {"tool": "probe", "args": {"n": 1, "email": "nobody", "tags": ["ok", "Not-OK"]}})
    assert {(v.code, v.loc) for v in out.violations} == {("bad_format", "$.args.email"), ("bad_format", "$.args.tags[1]")}
    out = bus.propose("r1", {"tool": "lookup_invoice", "args": {"invoice_id": "4421"}})
    assert only(out.violations, "bad_format").loc == "$.args.invoice_id"


def test_all_violations_are_reported_at_once(bus):
    out = bus.propose("r1", {"tool": "flag_invoice_line", "args": {"line_id": 14, "reason": "exceed_cap"}})
    assert {v.code for v in out.violations} == {"grant_required", "missing_field", "wrong_type", "bad_value"}


def test_agent_cannot_waive_the_grant_of_an_irreversible_tool(bus):
    args = {"invoice_id": "INV-4421", "line_id": "14", "reason": "exceeds_cap"}
    out = bus.propose("r1", {"tool": "flag_invoice_line", "args": args, "requires_grant": False, "depends_on": ["c"]})
    v = only(out.violations, "grant_required")
    assert v.loc == "$.requires_grant" and v.expected is True and v.got is False


@pytest.mark.parametrize(
    "intent, loc",
    [
        ({"tool": "probe", "args": {"n": 1}, "depends_on": "c_19"}, "$.depends_on"),
        ({"tool": "probe", "args": {"n": 1}, "depends_on": [19]}, "$.depends_on[0]"),
        ({"tool": "probe", "args": {"n": 1}, "summary": "trust me"}, "$.summary"),
        ({"tool": "probe", "args": {"n": 1}, "requires_grant": "yes"}, "$.requires_grant"),
        ({"tool": "probe", "args": "n=1"}, "$.args"),
    ],
)
def test_malformed_intents_are_rejected_as_data(bus, intent, loc):
    out = bus.propose("r1", intent)
    assert out.status == "rejected" and loc in [v.loc for v in out.violations]
    out.model_dump_json()  # every result serialises


def test_non_json_args_are_rejected_not_raised(bus):
    out = bus.propose("r1", {"tool": "echo_v2", "args": {"n": 1, "x": float("nan"), "t": (1, 2), "b": b"x"}})
    assert {(v.code, v.loc) for v in out.violations} == {
        ("not_json", "$.args.x"),
        ("not_json", "$.args.t"),
        ("not_json", "$.args.b"),
    }
    out.model_dump_json()
    assert bus.propose("r1", "flag everything").status == "rejected"  # type: ignore[arg-type]


# -- execute -----------------------------------------------------------------------------------------


def test_good_output_goes_to_the_ledger_as_canonical_json(bus, store):
    ledger, journal = store
    out = bus.execute("r1", {"tool": "lookup_invoice", "args": {"invoice_id": "INV-4421"}})
    assert isinstance(out, ToolResult) and out.status == "ok"
    assert out.output == tools_impl.INVOICES["INV-4421"]
    rec = ledger.get("r1", out.ledger_id)
    assert rec.data == canonical_json(out.output)
    assert rec.kind.value == "tool_output" and rec.media_type == "application/json"
    assert (rec.source.tool, rec.source.tool_version, rec.source.call_id) == ("lookup_invoice", "1", out.call_id)
    [entry] = tool_calls(journal)
    assert entry.subject == out.call_id and out.call_id.startswith("call_") and len(out.call_id) == 21
    p = entry.payload
    assert (p["status"], p["ledger_id"], p["error"], p["tool"], p["version"]) == ("ok", out.ledger_id, None, "lookup_invoice", "1")
    assert p["args"] == {"invoice_id": "INV-4421"} and p["args_hash"] == content_hash(p["args"])
    assert p["registry_hash"] == bus.registry.hash


def test_non_ascii_output_bytes_are_exact(bus, store):
    ledger, _ = store
    out = bus.execute("r1", {"tool": "echo_v2", "args": {"n": 3}})
    assert ledger.get("r1", out.ledger_id).data == canonical_json({"echo": {"n": 3}, "text": "é ü"})


def test_bad_output_is_not_stored(bus, store):
    ledger, journal = store
    out = bus.execute("r1", {"tool": "bad_output", "args": {"n": 1}})
    assert isinstance(out, ToolFailed) and out.code == "bad_output"
    assert {(v.code, v.loc) for v in out.violations} == {("wrong_type", "$.output.n"), ("unknown_field", "$.output.extra")}
    assert ledger.count() == 0
    [entry] = tool_calls(journal)
    assert entry.payload["status"] == "failed" and entry.payload["error"] == "bad_output" and entry.payload["ledger_id"] is None


def test_non_json_output_is_bad_output(bus, store):
    out = bus.execute("r1", {"tool": "not_json_output", "args": {"n": 1}})
    assert out.code == "bad_output" and out.violations[0].loc == "$.output.n"
    assert store[0].count() == 0


def test_tool_error_is_data_and_the_bus_keeps_working(bus):
    out = bus.execute("r1", {"tool": "boom", "args": {"n": 7}})
    assert isinstance(out, ToolFailed) and out.code == "tool_error"
    assert "ValueError" in out.message and "cannot handle n=7" in out.message
    assert bus.execute("r1", {"tool": "probe", "args": {"n": 1}}).status == "ok"


def test_a_tool_raising_timeout_error_is_an_error_not_a_timeout(bus):
    out = bus.execute("r1", {"tool": "raises_timeout_error", "args": {}})
    assert out.code == "tool_error" and "upstream said so" in out.message


def test_timeout_returns_quickly_and_the_bus_keeps_working(bus, store):
    _, journal = store
    t0 = time.monotonic()
    out = bus.execute("r1", {"tool": "slow", "args": {}})
    assert time.monotonic() - t0 < 2.0
    assert isinstance(out, ToolFailed) and out.code == "tool_timeout" and out.effect == "reversible"
    assert bus.stuck_calls == 1
    assert bus.execute("r1", {"tool": "probe", "args": {"n": 2}}).output == {"n": 2}
    RELEASE.set()
    deadline = time.monotonic() + 2
    while bus.stuck_calls and time.monotonic() < deadline:
        time.sleep(0.01)
    assert bus.stuck_calls == 0
    assert [e.payload["status"] for e in tool_calls(journal)] == ["failed", "ok"]


def test_tool_gets_a_copy_of_the_args(bus, store):
    out = bus.execute("r1", {"tool": "mutates", "args": {"n": 1}})
    assert out.output == {"n": 999}
    assert tool_calls(store[1])[0].payload["args"] == {"n": 1}


def test_rejected_execute_runs_nothing_and_is_journaled(bus, store):
    ledger, journal = store
    out = bus.execute("r1", {"tool": "flag_invoice_line", "args": {"invoice_id": "INV-4421", "line_id": "14", "reason": "x"}})
    assert isinstance(out, ToolCallRejected) and out.call_id is not None
    assert tools_impl.FLAGS == [] and ledger.count() == 0
    [entry] = tool_calls(journal)
    assert entry.subject == out.call_id and entry.payload["status"] == "rejected" and entry.payload["effect"] == "none"


def test_every_execute_journals_exactly_one_tool_call(bus, store):
    _, journal = store
    intents = [
        {"tool": "probe", "args": {"n": 1}},
        {"tool": "probe", "args": {"n": "1"}},
        {"tool": "nope", "args": {}},
        {"tool": "boom", "args": {}},
        {"tool": "bad_output", "args": {}},
        {"tool": "send_email", "args": {"to": "a@b.co", "subject": "s", "body": "b"}, "requires_grant": True},
        {"tool": "probe", "args": {"n": 1}},  # the same call again: its own entry
    ]
    outs = [bus.execute("r1", i) for i in intents]
    entries = tool_calls(journal)
    assert [e.subject for e in entries] == [o.call_id for o in outs]
    assert len({o.call_id for o in outs}) == len(outs)
    assert [e.payload["status"] for e in entries] == ["ok", "rejected", "rejected", "failed", "failed", "refused", "ok"]
    assert tools_impl.OUTBOX == []


# Keys the tool_call entry had before outcomes were journaled whole: readers of older ledgers
# (grants, review queue, evals harness) still find every one of them.
JOURNAL_KEYS = {"call_id", "tool", "version", "args", "args_hash", "depends_on", "grant_id", "claim_set_hash", "registry_hash",
                "status", "ledger_id", "error", "effect", "duration_ms"}


def test_every_outcome_round_trips_through_the_journal(bus, store):
    _, journal = store
    email = {"tool": "send_email", "args": {"to": "a@b.co", "subject": "s", "body": "b"}, "requires_grant": True}
    journal.record("r1", JournalKind.VERDICT, "c_ok", {"status": "supported"})
    outs = [
        bus.execute("r1", {"tool": "echo_v2", "args": {"n": 1}}),  # ok, output with non-ASCII text
        bus.execute("r1", {"tool": "probe", "args": {"n": "1"}}),  # rejected by the schema
        bus.execute("r1", {"tool": "nope", "args": {}}),  # rejected: no such tool
        bus.execute("r1", {"tool": "boom", "args": {"n": 2}}),  # failed: tool_error
        bus.execute("r1", {"tool": "bad_output", "args": {}}),  # failed: bad_output, with violations
        bus.execute("r1", {"tool": "slow", "args": {}}),  # failed: tool_timeout
        bus.execute("r1", dict(email, depends_on=[])),  # refused: claims_missing
        bus.execute("r1", dict(email, depends_on=["c_none"])),  # refused: claims_unverified, with the unverified list
        bus.execute("r1", dict(email, depends_on=["c_ok"])),  # refused: grant_missing
        bus.execute("r1", dict(email, depends_on=["c_ok"]), grant_id="grt_forged"),  # refused: grant_unknown, nested refusal
    ]
    RELEASE.set()
    assert [type(o) for o in outs] == [ToolResult] + [ToolCallRejected] * 2 + [ToolFailed] * 3 + [ToolRefused] * 4
    assert [getattr(o, "code", None) for o in outs[3:]] == ["tool_error", "bad_output", "tool_timeout", "claims_missing",
                                                            "claims_unverified", "grant_missing", "grant_unknown"]
    entries = tool_calls(journal)
    assert [e.subject for e in entries] == [o.call_id for o in outs]
    for out, entry in zip(outs, entries):
        assert JOURNAL_KEYS <= set(entry.payload), sorted(JOURNAL_KEYS - set(entry.payload))
        back = outcome_of(entry.payload)
        assert type(back) is type(out) and back == out, f"{out.status}: {back!r} != {out!r}"
        assert TOOL_OUTCOME.validate_json(canonical_json(entry.payload)) == out
    assert outs[-1].grant_refusal.code == "grant_unknown" and outs[-1].grant_id == "grt_forged"
    assert outs[7].unverified[0].claim_id == "c_none" and outs[4].violations


def test_a_payload_that_is_no_outcome_says_where(store):
    with pytest.raises(ValidationError) as exc:
        outcome_of({"status": "ok", "call_id": "call_1", "tool": "t", "version": "1", "ledger_id": "led_1", "effect": "reversible"})
    assert [e["loc"] for e in exc.value.errors()] == [("ok", "output")]
    with pytest.raises(ValidationError) as exc:
        outcome_of({"status": "maybe"})
    assert exc.value.errors()[0]["type"] == "union_tag_invalid"


# -- the property: propose agrees with a stock Draft 2020-12 validator (no coercion) -------------------

_scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**40), 2**40)
    # Integral floats are left out: there the bus is deliberately stricter than the stock validator.
    | st.floats(allow_nan=False, allow_infinity=False).filter(lambda f: not f.is_integer())
    | st.text(max_size=6)
    | st.sampled_from(["14", "true", "exceeds_cap", "exceed_cap", "ap@example.com", "abc", "ABC"])
)
_json = st.recursive(
    _scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(["k", "j"]), inner, max_size=2),
    max_leaves=8,
)
_VALID = {
    "n": st.integers(-(2**40), 2**40),
    "x": st.integers(-5, 5) | st.floats(allow_nan=False, allow_infinity=False).filter(lambda f: not f.is_integer()),
    "flag": st.booleans(),
    "kind": st.sampled_from(["exceeds_cap", "not_in_timesheet", "duplicate"]),
    "email": st.sampled_from(["ap@example.com", "x@y.z"]),
    "tags": st.lists(st.from_regex(r"^[a-z]+$", fullmatch=True), max_size=4),
    "meta": st.fixed_dictionaries({"k": st.integers()}) | st.fixed_dictionaries({}),
}


@st.composite
def probe_args(draw):
    # Mostly well-typed values, so that both outcomes are common; any value may be junk instead.
    keys = draw(st.sets(st.sampled_from(sorted(_VALID)), max_size=4))
    if draw(st.integers(0, 9)):
        keys.add("n")
    args = {k: draw(_VALID[k] if draw(st.integers(0, 3)) else _json) for k in sorted(keys)}
    if not draw(st.integers(0, 6)):
        args["other"] = draw(_json)
    return args


@pytest.fixture(scope="module")
def shared_bus(tmp_path_factory):
    d = str(tmp_path_factory.mktemp("prop"))
    ledger, journal = Ledger.open(d), Journal.open(d)
    yield ToolBus(make_registry(), ledger, journal, GrantBook(journal))
    ledger.close()
    journal.close()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(args=probe_args())
def test_propose_accepts_iff_the_schema_does(shared_bus, args):
    out = shared_bus.propose("r1", {"tool": "probe", "args": args})
    stock = Draft202012Validator(PROBE_INPUT, format_checker=FORMAT_CHECKER)
    assert out.status == ("accepted" if stock.is_valid(args) else "rejected")
    if out.status == "rejected":
        assert out.violations and all(v.loc.startswith("$.args") for v in out.violations)


_junk = st.recursive(
    _scalars | st.just(float("nan")) | st.just(math.inf) | st.binary(max_size=3) | st.floats(),
    lambda inner: st.lists(inner, max_size=3)
    | st.tuples(inner, inner)
    | st.dictionaries(st.text(max_size=3) | st.integers(), inner, max_size=3)
    | st.frozensets(st.integers(), max_size=2),
    max_leaves=8,
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(intent=st.dictionaries(st.sampled_from(["tool", "version", "args", "depends_on", "requires_grant", "x"]), _junk) | _junk)
def test_propose_never_raises(shared_bus, intent):
    out = shared_bus.propose("r1", intent)
    assert out.status in ("accepted", "rejected")
    out.model_dump_json()
