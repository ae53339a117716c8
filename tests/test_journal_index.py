"""The journal's (run, kind) index: `entries(run_id, kind)` answers as a full scan would, while
reading only rows stored since its last call, whoever wrote them (this handle, another handle on
the same directory, another process), and after a rollback it scans afresh."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import lancedb
import pyarrow as pa
import pytest

from warrant.ledger import Journal, Ledger
from warrant.ledger.journal import JournalKind
from warrant.runtime.verify.verifier import Verifier

ROOT = Path(__file__).resolve().parents[1]


def scanned(uri, run_id, kind, subject=None):
    """The reference: a fresh read-only handle, filtered by a scan of the whole table."""
    j = Journal.open(uri, writer=False)
    try:
        return [e for e in j.entries(run_id=run_id) if e.kind.value == kind and (subject is None or e.subject == subject)]
    finally:
        j.close()


def refusal(pid, status="contradicted", pred="statement", ids=("led_a",), text="The fee is waived."):
    return {"propositions": [{"id": pid, "pred": pred, "status": status, "ledger_ids": list(ids), "args": {},
                              "quantities": [], "hypothesis": text}]}


def count_calls(monkeypatch, obj, name):
    calls = []
    real = getattr(obj, name)

    def counted(*a, **kw):
        calls.append(a)
        return real(*a, **kw)

    monkeypatch.setattr(obj, name, counted)
    return calls


def test_index_answers_as_a_scan_and_follows_own_appends(ledger_uri, journal):
    journal.record_many([("r1", "verdict", "c0", refusal("p0")), ("r2", "verdict", "c0", refusal("p0")), ("r1", "gate_decision", "h", {})])
    assert [e.subject for e in journal.entries("r1", kind="verdict")] == ["c0"]
    for i in range(1, 6):
        journal.record_many([("r1", "verdict", f"c{i}", refusal(f"p{i}")), ("r1", "gate_decision", f"h{i}", {"i": i})])
    got = journal.entries("r1", kind=JournalKind.VERDICT)
    assert got == scanned(ledger_uri, "r1", "verdict")
    assert [e.subject for e in got] == [f"c{i}" for i in range(6)]
    assert journal.entries("r1", kind="gate_decision", subject="h3") == scanned(ledger_uri, "r1", "gate_decision", "h3")
    assert journal.entries("r2", kind="verdict") == scanned(ledger_uri, "r2", "verdict")
    assert journal.entries("nobody", kind="verdict") == []


def test_after_returns_only_newer_entries(journal):
    first = journal.record_many([("r1", "verdict", f"c{i}", refusal(f"p{i}")) for i in range(4)])
    assert journal.entries("r1", kind="verdict", after=first[1].seq) == first[2:]
    assert journal.entries("r1", kind="verdict", after=first[-1].seq) == []
    assert journal.entries("r1", kind="verdict", after=-1) == first
    # The same `after` on the scan path (no kind given) means the same.
    assert journal.entries(run_id="r1", after=first[1].seq) == first[2:]


def test_own_appends_are_folded_in_without_reading_storage(journal, monkeypatch):
    journal.record("r1", "verdict", "c0", refusal("p0"))
    journal.entries("r1", kind="verdict")
    scans = count_calls(monkeypatch, journal._t, "scan")
    reads = count_calls(monkeypatch, journal._t, "rows_between")
    for i in range(1, 4):
        journal.record("r1", "verdict", f"c{i}", refusal(f"p{i}"))
        journal.record("r1", "gate_decision", f"h{i}", {})
        assert len(journal.entries("r1", kind="verdict")) == i + 1
    assert scans == [] and reads == []


def test_a_second_handle_sees_the_writers_entries_after_refresh_reading_only_new_rows(ledger_uri, journal, monkeypatch):
    journal.record_many([("r1", "verdict", f"c{i}", refusal(f"p{i}")) for i in range(3)])
    reader = Journal.open(ledger_uri, writer=False)
    try:
        assert len(reader.entries("r1", kind="verdict")) == 3
        journal.record_many([("r1", "verdict", "c3", refusal("p3")), ("r1", "tool_call", "t", {})])
        assert len(reader.entries("r1", kind="verdict")) == 3  # as before: a handle sees its last refresh
        reader.refresh()
        scans = count_calls(monkeypatch, reader._t, "scan")
        reads = count_calls(monkeypatch, reader._t, "rows_between")
        assert reader.entries("r1", kind="verdict") == scanned(ledger_uri, "r1", "verdict")
        assert [e.subject for e in reader.entries("r1", kind="verdict")] == ["c0", "c1", "c2", "c3"]
        assert scans == []
        # One read, of the rows stored since the index's last row (and that row, to check it).
        assert [(a[0], a[1]) for a in reads] == [(2, 4)]
    finally:
        reader.close()


WRITER = textwrap.dedent(
    """
    import sys
    from warrant.ledger import Journal
    uri, first, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    j = Journal.open(uri)
    for i in range(first, first + n):
        j.record("r1", "verdict", f"c{i}", {"propositions": [{"id": f"p{i}", "pred": "statement",
                 "status": "contradicted", "ledger_ids": ["led_a"], "args": {}, "quantities": [],
                 "hypothesis": f"claim {i}"}]})
        j.record("r1", "gate_decision", f"h{i}", {})
    j.close()
    """
)


def write_in_another_process(uri, first, n):
    subprocess.run([sys.executable, "-c", WRITER, str(uri), str(first), str(n)], check=True, cwd=ROOT, timeout=120)


def test_the_verifiers_refusals_include_another_processes_verdicts(ledger_uri):
    Ledger.open(ledger_uri).close()
    write_in_another_process(ledger_uri, 0, 2)
    reader = Journal.open(ledger_uri, writer=False)
    try:
        ver = Verifier(Ledger.open(ledger_uri, writer=False), None, journal=reader)
        seen = ver._rejected_before("r1")
        assert [p["id"] for p in seen[("statement", frozenset({"led_a"}))]] == ["p0", "p1"]
        write_in_another_process(ledger_uri, 2, 3)
        reader.refresh()
        seen = ver._rejected_before("r1")
        assert [p["id"] for p in seen[("statement", frozenset({"led_a"}))]] == ["p0", "p1", "p2", "p3", "p4"]
        assert ver._rejected_before("r1") == seen  # nothing new: nothing added twice
        assert ver._rejected_before("r2") == {}
    finally:
        reader.close()


def test_refusals_survive_a_restart_of_the_writer(ledger_uri):
    Ledger.open(ledger_uri).close()
    j = Journal.open(ledger_uri)
    j.record("r1", "verdict", "c0", refusal("p0"))
    j.record("r1", "verdict", "c1", refusal("p1", status="supported"))
    j.close()
    j = Journal.open(ledger_uri)
    try:
        ver = Verifier(Ledger.open(ledger_uri, writer=False), None, journal=j)
        assert [p["id"] for v in ver._rejected_before("r1").values() for p in v] == ["p0"]
        j.record("r1", "verdict", "c2", refusal("p2", status="unsupported"))
        assert [p["id"] for v in ver._rejected_before("r1").values() for p in v] == ["p0", "p2"]
    finally:
        j.close()


def restored(uri, version):
    """What an attacker with write access to the storage does: restore an old version (a new
    version whose content is the old one)."""
    t = lancedb.connect(uri).open_table("journal")
    t.restore(version)
    return t


def same_handle_scan(j, run_id, kind):
    return [e for e in j.entries(run_id=run_id) if e.kind.value == kind]


@pytest.mark.parametrize("fork", [False, True])
def test_after_a_rollback_the_index_answers_as_a_scan(ledger_uri, fork):
    j = Journal.open(ledger_uri)
    j.record("r1", "verdict", "c0", refusal("p0"))
    version = j._t.version
    j.record_many([("r1", "verdict", f"c{i}", refusal(f"p{i}")) for i in (1, 2)])
    j.close()
    reader = Journal.open(ledger_uri, writer=False)
    try:
        assert len(reader.entries("r1", kind="verdict")) == 3
        t = restored(ledger_uri, version)
        if fork:  # and then writes two other entries: a chain as long as the one indexed
            rows = reader._t.scan().to_pylist()[:1]
            for seq in (1, 2):
                rows.append(dict(rows[0], seq=seq, subject=f"forged{seq}", entry_hash=f"{seq:064x}"))
            t.add(pa.Table.from_pylist(rows[1:], schema=reader._t.schema))
        reader.refresh()
        got = [e.subject for e in reader.entries("r1", kind="verdict")]
        assert got == [e.subject for e in same_handle_scan(reader, "r1", "verdict")]
        assert got == (["c0", "forged1", "forged2"] if fork else ["c0"])
    finally:
        reader.close()


def test_an_evicted_key_is_read_again_in_full(journal, monkeypatch):
    monkeypatch.setattr(Journal, "INDEX_KEYS", 2)
    journal.record_many([(f"r{i}", "verdict", "c", refusal("p")) for i in range(3)])
    for i in range(3):
        assert len(journal.entries(f"r{i}", kind="verdict")) == 1
    assert list(journal._index) == [("r1", "verdict"), ("r2", "verdict")]
    journal.record("r0", "verdict", "c2", refusal("p2"))
    assert [e.subject for e in journal.entries("r0", kind="verdict")] == ["c", "c2"]


def test_with_the_index_off_every_call_scans_and_answers_the_same(ledger_uri, journal, monkeypatch):
    monkeypatch.setattr(Journal, "INDEX_KEYS", 0)
    journal.record_many([("r1", "verdict", f"c{i}", refusal(f"p{i}")) for i in range(3)])
    scans = count_calls(monkeypatch, journal._t, "scan")
    assert journal.entries("r1", kind="verdict") == scanned(ledger_uri, "r1", "verdict")
    assert journal.entries("r1", kind="verdict", after=0) == scanned(ledger_uri, "r1", "verdict")[1:]
    assert len(scans) == 2 and journal._index == {}


@pytest.mark.parametrize("bad", ["nope", ""])
def test_an_unknown_kind_is_refused_on_the_index_path(journal, bad):
    with pytest.raises(ValueError):
        journal.entries("r1", kind=bad)
