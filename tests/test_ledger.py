import glob
import os
import signal
import subprocess
import sys
import textwrap

import lancedb
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from warrant.ledger import Journal, Ledger, LedgerError, LedgerLockedError, RecordNotFound, SourceError, record_id
from warrant.ledger import evidence
from warrant.ledger.search import tokens
from warrant.ledger.chain import GENESIS, chain_links, link_hash, verify_rows


def test_ids_are_content_hashes_and_appends_are_idempotent_per_run(ledger):
    a = ledger.append("run_1", b"Hourly cap: USD 250.", source={"document": "letter.txt", "page": 2})
    assert a == record_id(b"Hourly cap: USD 250.")
    assert ledger.append("run_1", b"Hourly cap: USD 250.") == a
    assert ledger.count() == 1
    # the same bytes in another run are a separate record of that run
    assert ledger.append("run_2", b"Hourly cap: USD 250.") == a
    assert ledger.count() == 2
    rec = ledger.get("run_1", a)
    assert rec.data == b"Hourly cap: USD 250." and rec.source.page == 2 and rec.seq == 0


def test_existence_is_scoped_to_the_run(ledger):
    a = ledger.append("run_1", "only in run 1")
    assert ledger.exists("run_1", [a]) == []
    assert ledger.exists("run_2", [a]) == [a]
    forged = "led_" + "0" * 32
    assert ledger.exists("run_1", [a, forged]) == [forged]
    with pytest.raises(RecordNotFound, match="run_2"):
        ledger.get("run_2", a)


def test_batch_buffers_and_flushes_everything(ledger):
    with ledger.batch(size=100) as b:
        ids = [b.add("run_b", f"line {i}") for i in range(250)]
        assert ledger.count() == 200  # two full batches written, 50 still buffered
    assert ledger.count() == 250
    assert ledger.exists("run_b", ids) == []
    assert ledger.spans("run_b").num_rows == 250


@pytest.mark.parametrize(
    "kw, match",
    [
        ({"source": {"documnet": "typo.pdf"}}, "source.documnet"),
        ({"source": {"page": "2"}}, "source.page"),
        ({"source": {"page": -1}}, "source.page"),
        ({"kind": "rumour"}, "kind: expected one of span, tool_output, human_fact"),
    ],
)
def test_bad_metadata_is_refused_with_the_field_and_nothing_is_written(ledger, kw, match):
    ledger.append("run_1", "kept")
    with pytest.raises(SourceError, match=match):
        ledger.append("run_1", "never written", **kw)
    assert ledger.count() == 1
    assert ledger.verify().ok


def test_data_must_be_bytes_or_text(ledger):
    with pytest.raises(SourceError, match="data: expected bytes or str, got int"):
        ledger.append("run_1", 42)


def test_one_writer_many_readers(ledger_uri, ledger):
    ledger.append("run_1", "first")
    with pytest.raises(LedgerLockedError, match="another process is the writer"):
        Ledger.open(ledger_uri)
    reader = Ledger.open(ledger_uri, writer=False)
    assert reader.count() == 1
    with pytest.raises(LedgerError, match="read-only"):
        reader._t.append([{}])
    b = ledger.append("run_1", "second")
    assert reader.exists("run_1", [b]) == [b]  # a reader sees a snapshot ...
    reader.refresh()
    assert reader.exists("run_1", [b]) == []  # ... until it refreshes
    assert reader.get("run_1", b).data == b"second"


def test_reopen_rebuilds_the_index_and_continues_the_chain(ledger_uri):
    led = Ledger.open(ledger_uri)
    first = led.append_many([led.item("r", f"x{i}") for i in range(5)])
    led.close()
    led = Ledger.open(ledger_uri)
    assert led.exists("r", first) == []
    led.append("r", "after reopen")
    rep = led.verify()
    assert rep.ok and rep.entries == 6


def test_exists_many_answers_across_runs_in_one_batch(ledger_uri, ledger):
    a = ledger.append("run_1", "in run 1")
    b = ledger.append("run_2", "in run 2")
    forged = "led_" + "0" * 32
    cold = Ledger.open(ledger_uri, writer=False)  # nothing in memory: every answer is a lookup
    try:
        assert cold.exists_many([("run_1", a), ("run_2", a), ("run_2", b), ("run_1", forged)]) == {("run_1", a), ("run_2", b)}
        assert cold.exists("run_2", [a, b, a]) == [a, a]  # order and repeats kept, as the gate reports them
        assert cold.ids("run_1") == {a} and cold.run_ids() == ["run_1", "run_2"]
    finally:
        cold.close()


def test_lookups_go_through_a_btree_index_on_id_that_is_rebuilt_as_the_table_grows(ledger_uri, ledger):
    from warrant.ledger.table import BTREE_REBUILD_MIN

    def id_index():
        stats = ledger._t._table.index_stats("id_idx")
        return stats and (stats.index_type, stats.num_indexed_rows)

    first = ledger.append_many([ledger.item("r", f"row {i}") for i in range(BTREE_REBUILD_MIN)])
    assert id_index() == ("BTREE", BTREE_REBUILD_MIN)
    ledger.append_many([ledger.item("r", f"more {i}") for i in range(BTREE_REBUILD_MIN - 1)])
    assert id_index() == ("BTREE", BTREE_REBUILD_MIN)  # a tail smaller than what is indexed is scanned
    ledger.append("r", "the one that doubles it")
    assert id_index() == ("BTREE", 2 * BTREE_REBUILD_MIN)
    # Index builds are index-only Lance versions: the chain, the checkpoint and a new writer are fine.
    assert ledger.verify().ok
    ledger._t.check_head()
    reader = Ledger.open(ledger_uri, writer=False)
    try:
        assert reader.exists("r", first[:3] + ["led_" + "0" * 32]) == ["led_" + "0" * 32]
    finally:
        reader.close()
    ledger.close()
    again = Ledger.open(ledger_uri)
    assert again.append("r", "row 0") == first[0] and again.count() == 2 * BTREE_REBUILD_MIN  # still idempotent
    again.close()


def test_reading_a_missing_ledger_read_only_is_a_clear_error(tmp_path):
    with pytest.raises(LedgerError, match="nothing was ever written there"):
        Ledger.open(str(tmp_path / "nope"), writer=False)


# -- tampering behind the ledger's back ---------------------------------------------------------


def _fill(ledger, n=10):
    return ledger.append_many([ledger.item("run_1", f"record {i} UNIQUE-PAYLOAD-{i:03d} end") for i in range(n)])


def test_verify_names_the_entry_whose_bytes_were_edited_in_the_file(ledger_uri, ledger):
    ids = _fill(ledger)
    ledger.close()
    (path,) = glob.glob(f"{ledger_uri}/evidence.lance/data/*.lance")
    raw = open(path, "rb").read()
    at = raw.index(b"UNIQUE-PAYLOAD-007")
    with open(path, "wb") as f:
        f.write(raw[:at] + b"UNIQUE-PAYLOAD-999" + raw[at + 18 :])
    rep = Ledger.open(ledger_uri, writer=False).verify()
    assert not rep.ok
    assert rep.first_bad.seq == 7 and rep.first_bad.entry_id == ids[7]
    assert "data was edited" in rep.first_bad.reason


def test_hash_columns_are_stored_plain_and_an_edited_link_in_the_file_is_found(ledger_uri, ledger):
    _fill(ledger)
    stored = lancedb.connect(ledger_uri).open_table("evidence").schema
    for name in ("id", "sha256", "prev_hash", "entry_hash"):
        assert stored.field(name).metadata == {b"lance-encoding:compression": b"none"}, name
    ledger.close()
    # Uncompressed, a link's hex digest sits in the data file as written: flip one character.
    rows = Ledger.open(ledger_uri, writer=False)._t.scan().sort_by("seq").to_pylist()
    target = rows[5]["entry_hash"].encode()
    (path,) = glob.glob(f"{ledger_uri}/evidence.lance/data/*.lance")
    raw = open(path, "rb").read()
    assert raw.count(target) == 2  # entry 5's entry_hash and entry 6's prev_hash
    at = raw.index(target)
    forged = target[:10] + (b"0" if target[10:11] != b"0" else b"1") + target[11:]
    with open(path, "wb") as f:
        f.write(raw[:at] + forged + raw[at + 64 :])
    rep = Ledger.open(ledger_uri, writer=False).verify()
    assert rep.first_bad.seq in (5, 6) and not rep.ok


def test_a_ledger_created_without_the_encoding_hints_still_appends_and_verifies(tmp_path):
    from warrant.ledger.evidence import _SCHEMA
    from warrant.ledger.table import CHAIN_COLUMNS

    uri = str(tmp_path / "old")
    plain = pa.schema([pa.field(f.name, f.type) for f in list(_SCHEMA) + CHAIN_COLUMNS])
    lancedb.connect(uri).create_table("evidence", schema=plain)
    led = Ledger.open(uri)
    ids = led.append_many([led.item("r", f"old-format record {i}") for i in range(20)])
    assert led.count() == 20 and led.exists("r", ids) == [] and led.verify().ok


@pytest.mark.parametrize(
    "change, match",
    [
        (lambda c: c.pop("source"), r"missing columns \['source'\]"),
        (lambda c: c.update(summary=["x"] * 2), r"unexpected columns \['summary'\]"),
        (lambda c: c["kind"].pop(), "columns of different lengths"),
        (lambda c: c.update(seq=[0, 1]), r"unexpected columns \['seq'\]"),
    ],
)
def test_bad_column_batches_are_refused_and_nothing_is_written(ledger, change, match):
    ledger.append("r", "already there")
    cols = {
        "id": ["led_a", "led_b"], "run_id": ["r", "r"], "kind": ["span", "span"], "media_type": ["text/plain"] * 2,
        "sha256": ["0" * 64] * 2, "size": [1, 1], "data": [b"a", b"b"], "text": ["a", "b"],
        "source": ["{}", "{}"], "created_us": [1, 1],
    }
    change(cols)
    with pytest.raises(LedgerError, match=match):
        ledger._t.append_columns(cols)
    assert ledger.count() == 1 and ledger.verify().ok


def test_verify_catches_a_metadata_edit_through_lancedb(ledger_uri, ledger):
    _fill(ledger)
    ledger.close()
    lancedb.connect(ledger_uri).open_table("evidence").update(where="seq = 4", values={"source": '{"document":"forged.pdf"}'})
    rep = Ledger.open(ledger_uri, writer=False).verify()
    assert rep.first_bad.seq == 4 and "entry was edited" in rep.first_bad.reason


def test_verify_catches_a_deleted_entry(ledger_uri, ledger):
    _fill(ledger)
    ledger.close()
    lancedb.connect(ledger_uri).open_table("evidence").delete("seq = 3")
    rep = Ledger.open(ledger_uri, writer=False).verify()
    assert rep.first_bad.seq == 4 and "sequence gap" in rep.first_bad.reason


def test_verify_catches_a_rewritten_record_with_a_consistent_hash(ledger_uri, ledger):
    """A forger who swaps bytes AND fixes sha256/id still breaks the chain link."""
    _fill(ledger)
    ledger.close()
    t = lancedb.connect(ledger_uri).open_table("evidence")
    row = t.search().where("seq = 2").limit(None).to_arrow().to_pylist()[0]
    forged = b"record 2 says something else"
    from warrant.ledger import sha256_hex

    row.update(data=forged, text=forged.decode(), sha256=sha256_hex(forged), id=record_id(forged), size=len(forged))
    t.delete("seq = 2")
    t.add(pa.Table.from_pylist([row], schema=t.schema))
    rep = Ledger.open(ledger_uri, writer=False).verify()
    assert rep.first_bad.seq == 2 and "entry was edited" in rep.first_bad.reason


def test_journal_chain_detects_an_edited_decision(ledger_uri, journal):
    for i in range(5):
        journal.record("run_1", "verdict", f"c_{i}", {"claim_id": f"c_{i}", "status": "unsupported"})
    journal.close()
    lancedb.connect(ledger_uri).open_table("journal").update(
        where="seq = 2", values={"payload": '{"claim_id":"c_2","status":"supported"}'}
    )
    rep = Journal.open(ledger_uri, writer=False).verify()
    assert rep.first_bad.seq == 2


def test_unknown_journal_kind_is_refused(journal):
    with pytest.raises(LedgerError, match="journal kind: expected one of"):
        journal.record("run_1", "gossip", "x", {})
    assert journal.count() == 0


# -- crash safety ----------------------------------------------------------------------------------


def test_a_killed_writer_loses_nothing_it_acknowledged(ledger_uri):
    """The writer prints each id after append_many returns (its acknowledgement); we SIGKILL it
    mid-stream. Every acknowledged id must be readable, the chain intact, and the lock free."""
    script = textwrap.dedent(
        f"""
        import sys
        from warrant.ledger import Ledger
        led = Ledger.open({ledger_uri!r})
        i = 0
        while True:
            ids = led.append_many([led.item("run_k", f"batch {{i}} row {{j}}") for j in range(50)])
            print(ids[-1], i, flush=True)
            i += 1
        """
    )
    env = dict(os.environ, PYTHONPATH=os.getcwd())
    p = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True, env=env)
    acked = []
    for line in p.stdout:
        acked.append(line.split()[0])
        if len(acked) == 8:
            break
    p.send_signal(signal.SIGKILL)
    p.wait()
    led = Ledger.open(ledger_uri)  # the dead writer's lock is gone
    assert led.exists("run_k", acked) == []
    assert led.count() % 50 == 0 and led.count() >= 8 * 50  # whole batches only: no torn append
    assert led.verify().ok
    led.append("run_k", "life goes on")
    assert led.verify().ok


# -- property tests of the chain -------------------------------------------------------------------

FIELDS = lambda r: [r["seq"], r["v"]]  # noqa: E731


def _chain(values):
    rows, prev = [], GENESIS
    for i, v in enumerate(values):
        r = {"seq": i, "v": v, "prev_hash": prev}
        r["entry_hash"] = prev = link_hash(prev, FIELDS(r))
        rows.append(r)
    return rows


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(max_size=20), min_size=1, max_size=30), st.data())
def test_any_single_edit_is_found_at_the_edited_entry(values, data):
    rows = _chain(values)
    assert verify_rows("t", rows, FIELDS, lambda r: str(r["seq"])).ok
    i = data.draw(st.integers(0, len(rows) - 1))
    new = data.draw(st.text(max_size=20).filter(lambda s: s != rows[i]["v"]))
    rows[i] = dict(rows[i], v=new)
    rep = verify_rows("t", rows, FIELDS, lambda r: str(r["seq"]))
    assert rep.first_bad.seq == i


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text(max_size=10), min_size=2, max_size=20), st.data())
def test_any_removal_or_reorder_is_found(values, data):
    rows = _chain(values)
    i = data.draw(st.integers(0, len(rows) - 2))
    if data.draw(st.booleans()):
        del rows[i]
    else:
        rows[i], rows[i + 1] = rows[i + 1], rows[i]
    assert not verify_rows("t", rows, FIELDS, lambda r: str(r["seq"])).ok


def test_full_text_search_suggests_records_of_the_same_run_only(ledger):
    cap = ledger.append("run_1", "Engagement letter, clause 4: hourly rates are capped at USD 250.")
    ledger.append("run_1", "Timesheet, March: 12 hours of document review.")
    other = ledger.append("run_2", "Another client's hourly rate cap of USD 400.")
    blob = ledger.append("run_1", b"\x00\x01\x02", media_type="application/octet-stream")
    hits = [rid for rid, _ in ledger.search("run_1", "hourly rate cap")]
    assert hits[0] == cap and other not in hits and blob not in hits
    assert cap not in [rid for rid, _ in ledger.search("run_1", "hourly rate cap", exclude=[cap])]
    assert ledger.search("run_1", "   ") == []


def test_search_sees_records_appended_after_it_first_ran(ledger, ledger_uri):
    first = ledger.append("run_1", "Purchase order PO-77: 40 pallets of cement.")
    assert [rid for rid, _ in ledger.search("run_1", "goods receipt pallets")] == [first]
    receipt = ledger.append("run_1", "Goods receipt GR-9 for PO-77: 38 pallets received.")
    assert [rid for rid, _ in ledger.search("run_1", "goods receipt pallets")] == [receipt, first]
    # a reader handle: what the writer appends after it opened is found once it refreshes
    reader = Ledger.open(ledger_uri, writer=False)
    try:
        assert {rid for rid, _ in reader.search("run_1", "pallets")} == {first, receipt}
        late = ledger.append("run_1", "Invoice INV-5 bills 38 pallets.")
        reader.refresh()
        assert late in {rid for rid, _ in reader.search("run_1", "pallets")}
    finally:
        reader.close()


def test_a_run_past_the_memory_bound_is_searched_by_lances_index(ledger, monkeypatch):
    cap = ledger.append("run_1", "Engagement letter, clause 4: hourly rates are capped at USD 250.")
    ledger.append("run_1", "Timesheet, March: 12 hours of document review.")
    small = ledger.append("run_2", "Hourly rate cap: USD 400.")
    monkeypatch.setattr(evidence, "SEARCH_INDEX_CHARS", 40)  # run_2 fits, run_1 does not
    assert ledger.search("run_1", "hourly rate cap")[0][0] == cap
    assert ledger._search_too_big == {"run_1"} and "run_1" not in ledger._search
    assert [rid for rid, _ in ledger.search("run_2", "hourly rate cap")] == [small]
    assert list(ledger._search) == ["run_2"]


def test_search_indexes_are_dropped_least_recently_used_first(ledger, monkeypatch):
    a = ledger.append("run_a", "Clause 9: notice period of thirty days.")
    b = ledger.append("run_b", "Clause 9: notice period of sixty days.")
    monkeypatch.setattr(evidence, "SEARCH_INDEX_CHARS", 60)  # room for one run's text, not both
    assert ledger.search("run_a", "notice period")[0][0] == a
    assert ledger.search("run_b", "notice period")[0][0] == b
    assert list(ledger._search) == ["run_b"]
    assert ledger.search("run_a", "notice period")[0][0] == a  # rebuilt, not lost
    assert list(ledger._search) == ["run_a"]


def test_search_reads_only_the_head_of_a_long_record(ledger, monkeypatch):
    monkeypatch.setattr(evidence, "SEARCH_RECORD_CHARS", 40)
    head = ledger.append("run_1", "Demurrage claim DC-4 for the vessel.  " + "filler words here " * 50 + "storage tariff")
    tail = ledger.append("run_1", "Storage tariff schedule, 2026.")
    assert [rid for rid, _ in ledger.search("run_1", "demurrage claim")] == [head]
    assert [rid for rid, _ in ledger.search("run_1", "storage tariff")] == [tail]  # past the head: not indexed


def test_search_tokens_fold_plurals_and_drop_noise():
    assert tokens("Rates, CAPS & boxes; class") == ["rate", "cap", "boxe", "class"]
    assert tokens("x" * 41 + " fee") == ["fee"]
    assert tokens("   ") == []


def test_a_batch_mixing_text_binary_and_invalid_utf8_indexes_only_the_text(ledger):
    """The text column is decoded for a whole batch at once; one record that claims to be text
    but is not UTF-8 must not take the others' searchable text away, nor be written wrong."""
    items = [
        ledger.item("run_1", "Clause 7: invoices are payable within 30 days."),
        ledger.item("run_1", b"caf\xe9 not utf-8", media_type="text/plain; charset=latin-1"),
        ledger.item("run_1", b"\x89PNG\r\n", media_type="image/png"),
        ledger.item("run_1", '{"invoice": "INV-7", "payable_days": 30}', kind="tool_output"),
    ]
    clause, latin, png, tool = ledger.append_many(items)
    texts = {r["id"]: r["text"] for r in ledger.spans("run_1").to_pylist()}
    assert texts[clause].startswith("Clause 7") and texts[tool].startswith('{"invoice"')
    assert texts[latin] is None and texts[png] is None
    assert ledger.get("run_1", latin).data == b"caf\xe9 not utf-8"
    assert ledger.verify().ok
    only_text = ledger.append_many([ledger.item("run_1", f"payable within {d} days") for d in (10, 20)])
    texts = {r["id"]: r["text"] for r in ledger.spans("run_1").to_pylist()}
    assert [texts[i] for i in only_text] == ["payable within 10 days", "payable within 20 days"]


_scalar = st.one_of(st.text(), st.integers(min_value=-(2**70), max_value=2**70))


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 4), st.data())
def test_batched_links_equal_one_link_at_a_time(width, data):
    """The append path's column-wise encoding must give the bytes link_hash gives, for any text
    (escapes, non-ASCII, control characters) and any int, and fall back for other types."""
    n = data.draw(st.integers(1, 8))
    kinds = data.draw(st.lists(st.sampled_from(["str", "int", "mixed"]), min_size=width, max_size=width))
    pick = {"str": st.text(), "int": st.integers(), "mixed": st.one_of(_scalar, st.none(), st.booleans(), st.floats(allow_nan=False))}
    columns = [data.draw(st.lists(pick[k], min_size=n, max_size=n)) for k in kinds]
    prevs, hashes = chain_links(GENESIS, columns)
    prev = GENESIS
    for i, fields in enumerate(zip(*columns)):
        assert prevs[i] == prev
        prev = link_hash(prev, list(fields))
        assert hashes[i] == prev


def test_records_read_once_are_served_from_memory_and_stay_scoped_to_their_run(ledger, monkeypatch):
    a = ledger.append("run_1", "Rate cap: $250/hour")
    first = ledger.get("run_1", a)
    # a second read must not reach LanceDB: the record cannot have changed
    monkeypatch.setattr(ledger._t, "lookup", lambda *a, **k: pytest.fail("read the table again"))
    again = ledger.get("run_1", a)
    assert again == first and again.data == b"Rate cap: $250/hour"
    assert ledger.get_many("run_1", [a, a]) == {a: first}
    with pytest.raises(RecordNotFound):
        ledger.get("run_2", a)  # the same bytes in another run are another record


def test_the_record_cache_keeps_the_most_recently_read_within_its_budget(ledger, monkeypatch):
    from warrant.ledger import evidence

    monkeypatch.setattr(evidence, "RECORD_CACHE_BYTES", 250)
    monkeypatch.setattr(evidence, "RECORD_CACHE_MAX", 150)
    ids = [ledger.append("r", f"{i}" * 100) for i in range(4)]
    big = ledger.append("r", "B" * 200)
    for rid in [*ids, big]:
        assert ledger.get("r", rid).data in ({f"{i}".encode() * 100 for i in range(4)} | {b"B" * 200})
    assert ledger._records_bytes <= 250
    assert list(ledger._records) == [("r", ids[2]), ("r", ids[3])]  # the last two that fit; the big one is never kept
    assert ledger.get("r", ids[0]).data == b"0" * 100  # dropped from memory, read from the table again


def test_a_record_just_appended_is_read_back_from_memory_as_the_table_would_give_it(ledger_uri, ledger, monkeypatch):
    rid = ledger.append("run_1", "Invoice INV-7 is due on 3 March 2026.", source={"document": "inv7.pdf", "page": 1})
    reader = Ledger.open(ledger_uri, writer=False)
    try:
        from_table = reader.get("run_1", rid)
    finally:
        reader.close()
    monkeypatch.setattr(ledger._t, "lookup", lambda *a, **k: pytest.fail("read the table"))
    assert ledger.get("run_1", rid) == from_table  # same bytes, seq, source and time
