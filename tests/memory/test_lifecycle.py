"""The store and the lifecycle: append-only events, statuses as a fold, retraction receipts with
a transitive cascade, load never returning what was retired, tamper evidence, the tool bus guard."""

from __future__ import annotations

import lancedb
import pytest
from typer.testing import CliRunner

from warrant.ledger import Journal, Ledger
from warrant.ledger.journal import JournalKind
from warrant.runtime.grants import GrantBook
from warrant.runtime.memory import AlreadyRetracted, Memory, MemoryInputError, NodeNotFound, Status
from warrant.runtime.toolbus import ToolBus, ToolRefused, ToolResult
from tests.memory.conftest import fact

PORT = {"kind": "symbol", "symbol": "app.server:serve", "param": "port", "default": 8080}


@pytest.fixture
def mem(store_uri):
    m = Memory.open(store_uri)  # no repository: the lifecycle alone
    yield m
    m.close()


def _chain(mem):
    a = mem.add(fact("A: the service listens on port 8080", PORT))
    b = mem.add(fact("B: the load balancer forwards to 8080", links={"derived_from": [a.id]}))
    c = mem.add(fact("C: the firewall opens 8080 for the balancer", links={"derived_from": [b.id]}))
    d = mem.add(fact("D: the runbook checks port 8080 first", links={"derived_from": [c.id]}))
    side = mem.add(fact("E: unrelated, derived from nothing"))
    return a, b, c, d, side


def test_three_level_cascade_marks_every_descendant_suspect_and_lists_it_on_the_receipt(mem, store_uri):
    a, b, c, d, side = _chain(mem)
    receipt = mem.retract(a.id, "port moved to 9090", ["led_" + "1" * 32], actor="ana")
    assert receipt.node_id == a.id and receipt.prior_status is Status.ACTIVE
    assert [(e.node_id, e.via) for e in receipt.cascade] == [(b.id, a.id), (c.id, b.id), (d.id, c.id)]
    assert receipt.evidence == ["led_" + "1" * 32] and receipt.actor == "ana"
    assert receipt.prior_event_hash and len(receipt.prior_state_hash) == 64
    assert mem.store.get(a.id).status is Status.REFUTED
    assert [mem.store.get(x.id).status for x in (b, c, d)] == [Status.SUSPECT] * 3
    assert mem.store.get(side.id).status is Status.ACTIVE
    # Journaled: the decision journal holds the same receipt.
    journal = Journal.open(store_uri, writer=False)
    (entry,) = journal.entries(kind=JournalKind.RETRACTION)
    assert entry.subject == a.id and entry.payload["receipt_id"] == receipt.receipt_id
    assert receipt.journal_entry == entry.id
    # The fold survives a restart: reopen and read the same statuses from the events.
    mem.close()
    again = Memory.open(store_uri)
    assert again.store.get(d.id).status is Status.SUSPECT and again.store.get(a.id).receipt_id == receipt.receipt_id
    assert again.receipts(a.id)[0].receipt_id == receipt.receipt_id
    again.close()


def test_a_refuted_or_suspect_node_is_never_returned_by_load_whatever_the_query(mem):
    a, b, c, d, side = _chain(mem)
    mem.retract(a.id, "port moved")
    for query in ("", "8080", "port", a.text, b.text, "A: the service", "runbook"):
        ids = {n.id for n in mem.load_memory(query, limit=None).nodes}
        assert not ids & {a.id, b.id, c.id, d.id}, query
    assert [n.id for n in mem.load_memory("unrelated").nodes] == [side.id]


def test_status_changes_are_new_events_never_edits(mem, store_uri):
    a, *_ = _chain(mem)
    before = mem.store.scan().to_pylist()
    mem.retract(a.id, "wrong")
    after = mem.store.scan().to_pylist()
    assert after[: len(before)] == before  # every earlier event is byte-for-byte where it was
    assert [e["kind"] for e in mem.show(a.id)["events"]] == ["add", "status"]
    assert mem.store.verify().ok


def test_retract_refuses_bad_input_and_writes_nothing(mem):
    a, *_ = _chain(mem)
    n = mem.store.count()
    with pytest.raises(NodeNotFound, match="node_id: no memory node 'mem_nope'"):
        mem.retract("mem_nope", "x")
    with pytest.raises(MemoryInputError) as e:
        mem.retract(a.id, "  ", ["not-a-ledger-id"])
    assert [v.loc for v in e.value.violations] == ["$.reason", "$.evidence[0]"]
    mem.retract(a.id, "wrong")
    n = mem.store.count()
    with pytest.raises(AlreadyRetracted, match="already REFUTED"):
        mem.retract(a.id, "again")
    assert mem.store.count() == n


def test_add_validates_links_and_anchors_naming_the_field_and_writes_nothing(mem):
    a, *_ = _chain(mem)
    mem.retract(a.id, "wrong")
    n = mem.store.count()
    cases = [
        (fact("x", links={"derived_from": ["mem_" + "0" * 32]}), "$[0].links.derived_from[0]", "node_unknown"),
        (fact("x", links={"derived_from": [a.id]}), "$[0].links.derived_from[0]", "node_retired"),
        (fact("x", {"kind": "file", "path": "../etc/passwd"}), "$[0].anchors[0].file.path", "bad_value"),
        (fact("x", {"kind": "file", "path": "/etc/passwd"}), "$[0].anchors[0].file.path", "bad_value"),
        (fact("x", {"kind": "symbol", "symbol": "app.server:serve", "default": 1}), "$[0].anchors[0].symbol", "bad_value"),
        (fact("x", {"kind": "dependency", "name": "requests", "specifier": ">=two"}), "$[0].anchors[0].dependency.specifier", "bad_value"),
        (fact("x", {"kind": "import", "module": "os", "scope": "app", "used_in": "serve"}), "$[0].anchors[0].import", "bad_value"),
        (fact("x", {"kind": "telepathy"}), "$[0].anchors[0]", "union_tag_invalid"),
        ({"text": "x", "author": "ana", "summary": "prose"}, "$[0].summary", "unknown_field"),
    ]
    for body, loc, code in cases:
        with pytest.raises(MemoryInputError) as e:
            mem.add(body)
        assert (e.value.violations[0].loc, e.value.violations[0].code) == (loc, code), body
    # One bad item in a batch: nothing of the batch is written.
    with pytest.raises(MemoryInputError):
        mem.add_many([fact("fine"), fact("bad", {"kind": "file", "path": "../x"})])
    assert mem.store.count() == n


def test_the_same_memory_written_twice_is_one_node(mem):
    x = mem.add(fact("one fact", PORT))
    n = mem.store.count()
    assert mem.add(fact("one fact", PORT)).id == x.id and mem.store.count() == n


def test_superseding_a_node_retires_it_with_a_receipt_and_flags_its_dependants(mem):
    a, b, c, d, _ = _chain(mem)
    new = mem.add(fact("the service listens on port 9090", links={"supersedes": [a.id]}))
    assert mem.store.get(a.id).status is Status.REFUTED
    (receipt,) = mem.receipts(a.id)
    assert receipt.reason == f"superseded by {new.id}" and [e.node_id for e in receipt.cascade] == [b.id, c.id, d.id]
    assert {n.id for n in mem.load_memory(limit=None).nodes} >= {new.id}
    assert a.id in mem.store.get(new.id).links["supersedes"] and new.id in mem.store.get(a.id).superseded_by


def test_tampering_with_the_memory_table_is_caught_by_ledger_verify(mem, store_uri):
    from warrant.runtime.cli import app

    Ledger.open(store_uri).close()  # `warrant ledger verify` starts from the evidence ledger
    a, *_ = _chain(mem)
    mem.retract(a.id, "wrong")
    mem.close()
    runner = CliRunner()
    ok = runner.invoke(app, ["ledger", "verify", "--ledger", store_uri])
    assert ok.exit_code == 0 and "memory: 9 entries" in ok.output, ok.output
    # Someone rewrites the retraction as if it never happened, straight through LanceDB.
    t = lancedb.connect(store_uri).open_table("memory")
    t.update(where="seq = 5", values={"payload": '{"from":"ACTIVE","to":"ACTIVE","reason":"nothing"}'})
    bad = runner.invoke(app, ["ledger", "verify", "--ledger", store_uri])
    assert bad.exit_code == 1
    broken = [line for line in bad.output.splitlines() if line.startswith("BROKEN memory")]
    assert any("first bad entry seq=5" in line and "edited" in line for line in broken), bad.output


def test_the_tool_bus_refuses_intents_that_depend_on_a_retracted_node(tmp_path, mem):
    from tests.test_toolbus import make_registry

    a, b, *_ = _chain(mem)
    ok_node = mem.add(fact("the probe tool takes n"))
    led, jr = Ledger.open(str(tmp_path / "w")), Journal.open(str(tmp_path / "w"))
    bus = ToolBus(make_registry(), led, jr, GrantBook(jr), memory=mem)
    intent = {"tool": "probe", "args": {"n": 1, "meta": {"k": 1}}, "depends_on": [ok_node.id]}
    assert isinstance(bus.execute("r1", intent), ToolResult)
    mem.retract(a.id, "wrong")
    for dep, status in ((a.id, "REFUTED"), (b.id, "SUSPECT"), ("mem_" + "f" * 32, "unknown")):
        out = bus.execute("r1", dict(intent, depends_on=[ok_node.id, dep]))
        assert isinstance(out, ToolRefused) and out.code == "memory_retracted", out
        assert f"{dep} ({status})" in out.message
    calls = jr.entries(kind="tool_call")
    assert [c.payload["error"] for c in calls] == [None, "memory_retracted", "memory_retracted", "memory_retracted"]
