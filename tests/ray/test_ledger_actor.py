"""The LedgerActor: the single writer; killed between and during appends, nothing acknowledged is
lost and nothing is written twice."""

from __future__ import annotations

import threading
import time

import pytest
import ray

from warrant.actors.ledger_actor import DuplicateEntry, LedgerActor, ensure_ledger_actor
from warrant.actors.store import JournalClient, LedgerClient
from warrant.ledger import Journal, Ledger, LedgerLockedError


@pytest.fixture
def writer(ray_session, tmp_path):
    uri = str(tmp_path / "ledger")
    w = ensure_ledger_actor(uri)
    yield uri, w
    ray.kill(w, no_restart=True)


def _pid(w) -> int:
    return ray.get(w.ping.remote())["pid"]


def kill_and_wait(w) -> int:
    """SIGKILL the actor's process; return the pid of its restarted incarnation."""
    old = _pid(w)
    ray.kill(w, no_restart=False)
    while (new := _pid(w)) == old:  # the kill is asynchronous: a call may still reach the old one
        time.sleep(0.05)
    return new


def test_the_actor_holds_the_writer_lock_and_readers_open_the_tables_directly(writer):
    uri, w = writer
    with pytest.raises(LedgerLockedError):
        Ledger.open(uri, writer=True)
    led = LedgerClient(uri, w)
    rid = led.append("r1", "Clause 4: Hourly rates shall not exceed USD 250.00.")
    # A reader opened before the append sees it on a miss (refresh), without asking the actor.
    reader = LedgerClient(uri)
    assert reader.exists("r1", [rid]) == []
    assert reader.get("r1", rid).text.startswith("Clause 4")
    with pytest.raises(Exception, match="read-only"):
        reader.append("r1", "nope")


def test_killed_between_appends_loses_nothing_acknowledged_and_duplicates_nothing(writer):
    uri, w = writer
    led, jr = LedgerClient(uri, w), JournalClient(uri, w)
    acked_ids, acked_entries, pids = [], [], {_pid(w)}
    for k in range(3):
        acked_ids += led.append_many([led.item("r1", f"record {k}.{i}") for i in range(5)])
        acked_entries += [e.id for e in jr.record_many([("r1", "gate_decision", f"art{k}", {"k": k})])]
        pids.add(kill_and_wait(w))
        # Resending acknowledged bytes must not add rows either.
        assert led.append_many([led.item("r1", f"record {k}.0")]) == [acked_ids[-5]]
    assert len(pids) == 4  # really a new process each time
    reader, journal = Ledger.open(uri, writer=False), Journal.open(uri, writer=False)
    assert reader.exists("r1", acked_ids) == []
    assert reader.count() == len(set(acked_ids)) == 15
    assert [e.id for e in journal.entries("r1")] == acked_entries
    assert reader.verify().ok and journal.verify().ok


def test_killed_with_appends_in_flight_every_call_lands_exactly_once(writer):
    uri, w = writer
    ev = [w.append_evidence.remote([Ledger.item("r2", f"in flight {i}")]) for i in range(120)]
    jr = [w.record.remote(f"req_{i}", [("r2", "verdict", f"c{i}", {"i": i})]) for i in range(120)]
    time.sleep(0.05)
    ray.kill(w, no_restart=False)
    ids = ray.get(ev)  # replayed on the restarted actor where the first try was lost
    entries = ray.get(jr)
    reader, journal = Ledger.open(uri, writer=False), Journal.open(uri, writer=False)
    assert reader.count() == 120 and reader.exists("r2", [i[0] for i in ids]) == []
    subjects = [e.subject for e in journal.entries("r2")]
    assert sorted(subjects) == sorted(f"c{i}" for i in range(120))  # none twice, none missing
    assert sorted(e[0].subject for e in entries) == sorted(subjects)
    assert journal.verify().ok


def test_a_replayed_journal_request_is_answered_from_its_receipt(writer):
    uri, w = writer
    rows = [("r3", "tool_call", "call_1", {"status": "ok"})]
    first = ray.get(w.record.remote("req_same", rows))
    kill_and_wait(w)
    again = ray.get(w.record.remote("req_same", rows))  # what Ray's retry of a lost reply sends
    assert [e.id for e in again] == [e.id for e in first]
    assert len(Journal.open(uri, writer=False).entries("r3")) == 1
    # The same id with other content is not a replay: it is written.
    other = ray.get(w.record.remote("req_same", [("r3", "tool_call", "call_2", {"status": "ok"})]))
    assert other[0].subject == "call_2"


def test_a_grant_is_spent_once_across_writers_clients(writer):
    uri, w = writer
    clients = [JournalClient(uri, w) for _ in range(4)]
    outcomes: list[object] = []

    def spend(c):
        try:
            outcomes.append(c.record("r4", "grant_used", "grt_1", {"by": id(c)}))
        except DuplicateEntry as exc:
            outcomes.append(exc)

    threads = [threading.Thread(target=spend, args=(c,)) for c in clients]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(isinstance(o, DuplicateEntry) for o in outcomes) == 3
    assert len(JournalClient(uri).entries(kind="grant_used", subject="grt_1")) == 1


def test_concurrent_appends_are_group_committed(writer):
    uri, w = writer
    ray.get([w.append_evidence.remote([Ledger.item("r5", f"g {i}")]) for i in range(300)])
    stats = ray.get(w.ping.remote())
    assert stats["evidence"] == 300
    assert stats["flushes"] < 300  # many calls per LanceDB version


def test_a_second_actor_on_the_same_ledger_cannot_become_a_writer(writer):
    uri, _ = writer
    rogue = LedgerActor.options(max_restarts=0).remote(uri, lock_wait_s=0.5)
    with pytest.raises(ray.exceptions.RayActorError, match="another process is the writer"):
        ray.get(rogue.ping.remote())
