"""Rolling the ledger back behind its back: every way is found, and no spent grant is spent again.

The attacks of issue 10 item 2, on real LanceDB files: delete the newest manifests of a table,
delete a whole table, restore an older version, edit the checkpoint. Each leaves an intact but
shorter hash chain, which the chain alone cannot tell from a younger ledger.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import lancedb
import pyarrow as pa
import pytest
from typer.testing import CliRunner

from warrant.examples.invoice_audit import tools_impl
from warrant.ledger import Journal, Ledger, LedgerIntegrityError
from warrant.ledger.checkpoint import FILE, Checkpoints, mirror_file
from warrant.ledger.evidence import _CHAINED as EVIDENCE_CHAINED
from warrant.ledger.evidence import _SCHEMA as EVIDENCE_SCHEMA
from warrant.ledger.journal import JournalKind
from warrant.ledger.table import CHAIN_COLUMNS, AppendOnlyTable
from warrant.runtime.claimset import claim_set
from warrant.runtime.cli import app
from warrant.runtime.grants import GrantBook
from warrant.runtime.registry import ToolRegistry
from warrant.runtime.toolbus import ToolBus, ToolResult

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "invoice_audit" / "tools"
RUN = "run_rollback"
EMAIL = {"to": "client@example.com", "subject": "Invoice INV-4421", "body": "Line 14 exceeds the cap."}
INTENT = {"tool": "send_email", "args": EMAIL, "requires_grant": True, "depends_on": ["c_1"]}


def verify(uri, *extra):
    r = CliRunner().invoke(app, ["ledger", "verify", "--ledger", str(uri), *map(str, extra)])
    return r.exit_code, " ".join(r.output.split())  # rich wraps long lines


def manifests(uri, table) -> dict[int, Path]:
    """Lance version -> manifest file (V2 names count down from 2**64 - 1, newest first)."""
    out = {}
    for p in (Path(uri) / f"{table}.lance" / "_versions").glob("*.manifest"):
        n = int(p.stem)
        out[2**64 - 1 - n if n > 2**63 else n] = p
    return out


def delete_versions_after(uri, table, version) -> list[int]:
    gone = sorted(v for v in manifests(uri, table) if v > version)
    for v in gone:
        manifests(uri, table)[v].unlink()
    return gone


def fill(uri, batches=4):
    led, jr = Ledger.open(uri), Journal.open(uri)
    for b in range(batches):
        led.append_many([led.item("r", f"batch {b} record {i}") for i in range(5)])
        jr.record("r", JournalKind.VERDICT, f"c_{b}", {"claim_id": f"c_{b}", "status": "supported"})
    heads = {"evidence": (led._t._tail_seq, led._t._tail_hash), "journal": (jr._t._tail_seq, jr._t._tail_hash)}
    led.close()
    jr.close()
    return heads


@pytest.mark.parametrize("table", ["evidence", "journal"])
def test_deleting_the_newest_manifests_of_a_table_is_found(tmp_path, table):
    uri = tmp_path / "led"
    heads = fill(uri)
    assert verify(uri)[0] == 0
    latest = max(manifests(uri, table))
    assert delete_versions_after(uri, table, latest - 2) == [latest - 1, latest]
    code, out = verify(uri)
    assert code == 1, out
    seq, head = heads[table]
    assert f"BROKEN {table}" in out
    assert f"expected seq {seq} hash {head}" in out  # what the checkpoint holds
    assert f"found seq {seq - 10 if table == 'evidence' else seq - 2}" in out  # two appends are gone
    assert f"versions {latest - 1}..{latest} were removed" in out
    # A writer refuses to continue the shorter chain (it would overwrite the proof).
    opener = Ledger.open if table == "evidence" else Journal.open
    with pytest.raises(LedgerIntegrityError, match=f"{table}: chain head is behind checkpoint"):
        opener(str(uri))
    assert verify(uri)[0] == 1


def test_deleting_a_version_in_the_middle_is_found_even_after_more_appends(tmp_path):
    uri = tmp_path / "led"
    fill(uri)
    manifests(uri, "journal")[3].unlink()
    code, out = verify(uri)
    assert code == 1 and "BROKEN journal" in out
    assert "Lance versions 3 are missing" in out and "journal.lance/_versions/" in out


def test_deleting_the_whole_journal_table_is_found_and_not_recreated(tmp_path):
    uri = tmp_path / "led"
    heads = fill(uri)
    shutil.rmtree(uri / "journal.lance")
    code, out = verify(uri)
    assert code == 1, out
    seq, head = heads["journal"]
    assert f"BROKEN journal: journal: the table is gone, but checkpoint {uri / FILE} records seq {seq} hash {head}" in out
    with pytest.raises(LedgerIntegrityError, match="journal: the table is gone"):
        Journal.open(str(uri))
    assert not (uri / "journal.lance").exists()  # the writer did not quietly start a new, empty one


def test_restoring_an_older_version_is_found(tmp_path):
    uri = tmp_path / "led"
    heads = fill(uri)
    t = lancedb.connect(str(uri)).open_table("journal")
    latest = t.version
    t.restore(latest - 2)  # a new version whose content is the old one
    code, out = verify(uri)
    assert code == 1, out
    assert f"Lance version {latest + 1} has" in out and "an older version was restored" in out
    assert f"expected seq {heads['journal'][0]} hash {heads['journal'][1]}" in out


def test_an_edited_checkpoint_is_found(tmp_path):
    uri = tmp_path / "led"
    heads = fill(uri)
    cp = uri / FILE
    doc = json.loads(cp.read_text())
    doc["tables"]["journal"]["hash"] = "f" * 64
    cp.write_text(json.dumps(doc))
    code, out = verify(uri)
    assert code == 1, out
    assert f"journal: entry seq {heads['journal'][0]} does not match checkpoint {cp}: expected hash {'f' * 64}, found {heads['journal'][1]}" in out
    # A checkpoint claiming a longer chain than exists is the same finding as a lost tail.
    doc["tables"]["journal"] = {"seq": 99, "hash": heads["journal"][1], "version": 2}
    cp.write_text(json.dumps(doc))
    assert "expected seq 99" in verify(uri)[1]


@pytest.mark.parametrize("content", [b"", b"{not json", b'{"format": "warrant.checkpoint/1"}'])
def test_a_damaged_checkpoint_is_reported_and_not_overwritten(tmp_path, content):
    uri = tmp_path / "led"
    fill(uri)
    (uri / FILE).write_bytes(content)
    code, out = verify(uri)
    assert code == 1 and f"BROKEN ledger: checkpoint {uri / FILE} not a checkpoint" in out, out
    with pytest.raises(LedgerIntegrityError, match="not a checkpoint"):
        Journal.open(str(uri))
    assert (uri / FILE).read_bytes() == content


def test_a_deleted_checkpoint_is_found(tmp_path):
    uri = tmp_path / "led"
    fill(uri)
    (uri / FILE).unlink()
    code, out = verify(uri)
    assert code == 1, out
    assert "journal: no checkpoint records this table" in out and "the checkpoint was removed or replaced" in out


@pytest.mark.parametrize("as_uri", [False, True], ids=["folder", "file-uri"])
def test_the_mirror_catches_a_rollback_whose_checkpoint_was_rolled_back_too(tmp_path, as_uri):
    """The mirror as a folder (fsync + rename) and as a URI (pyarrow.fs, how s3:// is written)."""
    uri = tmp_path / "led"
    mirror = f"file://{tmp_path / 'mirror'}" if as_uri else tmp_path / "mirror"
    led, jr = Ledger.open(str(uri), checkpoint_mirror=str(mirror)), Journal.open(str(uri), checkpoint_mirror=str(mirror))
    jr.record("r", JournalKind.VERDICT, "c_0", {"status": "supported"})
    before = (jr._t._tail_seq, jr._t._tail_hash, jr._t.version)
    jr.record("r", JournalKind.GRANT_USED, "grt_1", {"grant_id": "grt_1"})
    final = (jr._t._tail_seq, jr._t._tail_hash)
    led.close()
    jr.close()
    mirrored = Path(mirror_file(str(mirror), str(uri)).removeprefix("file://"))
    assert mirrored.parent == tmp_path / "mirror"
    assert json.loads(mirrored.read_text())["tables"]["journal"]["seq"] == final[0]
    # The attacker owns the ledger's disk: cut the journal back AND make the local checkpoint agree.
    delete_versions_after(uri, "journal", before[2])
    doc = json.loads((uri / FILE).read_text())
    doc["tables"]["journal"] = {"seq": before[0], "hash": before[1], "version": before[2]}
    (uri / FILE).write_text(json.dumps(doc))
    code, out = verify(uri, "--checkpoint-mirror", mirror)
    assert code == 1, out
    assert f"chain head is behind checkpoint {mirror_file(str(mirror), str(uri))}: expected seq {final[0]} hash {final[1]}" in out
    with pytest.raises(LedgerIntegrityError, match="behind checkpoint"):
        Journal.open(str(uri), checkpoint_mirror=str(mirror))


def test_a_spent_grant_is_not_spent_again_after_a_rollback(tmp_path):
    uri = str(tmp_path / "led")
    tools_impl.reset()
    ledger, journal = Ledger.open(uri), Journal.open(uri)
    book = GrantBook(journal)
    bus = ToolBus(ToolRegistry.load(EXAMPLES), ledger, journal, book)
    journal.record(RUN, JournalKind.VERDICT, "c_1", {"claim_id": "c_1", "status": "supported"})
    grant = book.issue_human(RUN, "send_email", "1", EMAIL, claim_set(journal, RUN, ["c_1"]).hash, "alice")
    issued_at = journal._t.version
    assert isinstance(bus.execute(RUN, INTENT, grant.grant_id), ToolResult)
    assert len(tools_impl.OUTBOX) == 1
    # Roll the journal back to just after the grant was issued: its use is gone from storage.
    assert delete_versions_after(uri, "journal", issued_at)
    # The running process: the grant book sees the stored head behind the checkpoint...
    refusal = book.consume(
        grant.grant_id, run_id=RUN, tool="send_email", version="1", args=EMAIL, claim_set_hash=grant.claim_set_hash
    )
    assert refusal is not None and refusal.code == "ledger_rolled_back", refusal
    assert f"journal: chain head is behind checkpoint {Path(uri) / FILE}" in refusal.message
    # ...and the tool bus cannot even journal the attempt: the journal's writer stopped.
    with pytest.raises(LedgerIntegrityError, match="journal: chain head is behind checkpoint"):
        bus.execute(RUN, INTENT, grant.grant_id)
    # A new process: the journal's writer does not open on the shorter chain.
    ledger.close()
    journal.close()
    with pytest.raises(LedgerIntegrityError, match="journal: chain head is behind checkpoint"):
        Journal.open(uri)
    assert len(tools_impl.OUTBOX) == 1  # the e-mail went out once
    tools_impl.reset()


def test_a_fresh_ledger_verifies(tmp_path):
    uri = tmp_path / "led"
    Ledger.open(str(uri)).close()
    Journal.open(str(uri)).close()
    code, out = verify(uri)
    assert code == 0 and "ok evidence: 0 entries" in out and "ok journal: 0 entries" in out, out


def test_a_ledger_from_before_checkpoints_verifies_then_gets_one(tmp_path):
    """Tables written by a release without checkpoints (no schema marker, no checkpoint file)."""
    uri = tmp_path / "old"
    plain = pa.schema([pa.field(f.name, f.type) for f in list(EVIDENCE_SCHEMA) + CHAIN_COLUMNS])
    lancedb.connect(str(uri)).create_table("evidence", schema=plain)
    elsewhere = Checkpoints(str(tmp_path / "not-the-ledger"))
    old = Ledger(AppendOnlyTable(str(uri), "evidence", EVIDENCE_SCHEMA, EVIDENCE_CHAINED, writer=True, checkpoints=elsewhere))
    old.append_many([old.item("r", f"old record {i}") for i in range(5)])
    old.close()
    assert not (uri / FILE).exists()
    code, out = verify(uri)
    assert code == 0 and "ok evidence: 5 entries" in out and "no checkpoint yet" in out, out
    # The first writer of this release adopts the head it finds; from then on a rollback shows.
    led = Ledger.open(str(uri))
    led.append("r", "new record")
    led.close()
    assert json.loads((uri / FILE).read_text())["tables"]["evidence"]["seq"] == 5
    delete_versions_after(uri, "evidence", max(manifests(uri, "evidence")) - 1)
    assert verify(uri)[0] == 1


def test_a_path_that_is_not_a_ledger_is_bad_usage(tmp_path):
    (tmp_path / "empty").mkdir()
    code, out = verify(tmp_path / "empty")
    assert code == 2 and "no ledger at" in out
    assert verify(tmp_path / "missing")[0] == 2


def test_warrant_verify_on_a_rolled_back_ledger_is_a_verdict_not_bad_input(tmp_path):
    """`warrant verify --journal` opens the ledger as its writer, which refuses a rolled-back
    table: exit 1 (integrity broken, per runtime/exits.py), not 2 (the command was called right)."""
    uri = tmp_path / "led"
    fill(uri)
    rid = Ledger.open(uri, writer=False).ids("r")
    delete_versions_after(uri, "journal", 2)
    art = tmp_path / "a.json"
    art.write_text(json.dumps({"run_id": "r", "from_agent": "a", "claims": [
        {"id": "c1", "type": "Quote", "text": "batch 0 record 0", "quote_of": {"ledger_id": sorted(rid)[0]}}]}))
    r = CliRunner().invoke(app, ["verify", str(art), "--ledger", str(uri), "--journal"])
    assert r.exit_code == 1, r.output
    assert "warrant ledger verify" in " ".join(r.output.split())
    assert not (tmp_path / "a.verdict.json").exists()
