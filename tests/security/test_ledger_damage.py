"""Damaged storage is reported, never a traceback or a dead process.

The attacks of issue 10 item 5, on real LanceDB files: a flipped byte in a data file (in the
payload, in the file's footer, in the footer's buffer count that makes Lance abort), a deleted
fragment, a truncated manifest. `warrant ledger verify` runs as a real process so its stderr and
exit status are what a user sees.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from warrant.ledger import Journal, Ledger, LedgerUnreadable
from warrant.ledger.journal import JournalKind

ROOT = Path(__file__).resolve().parents[2]


def verify(uri):
    env = dict(os.environ, LANCEDB_LOG="error", COLUMNS="400")
    cmd = [sys.executable, "-m", "warrant.runtime.cli", "ledger", "verify", "--ledger", str(uri)]
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, env=env, timeout=300)
    return p.returncode, p.stdout, p.stderr


@pytest.fixture
def store(tmp_path):
    """Three evidence appends (three fragments, one data file each) and a few journal entries."""
    uri = tmp_path / "led"
    led, jr = Ledger.open(str(uri)), Journal.open(str(uri))
    for b in range(3):
        led.append_many([led.item("run_1", f"batch {b} record {i}: PAYLOAD-{b}-{i:03d} end") for i in range(40)])
        jr.record("run_1", JournalKind.VERDICT, f"c_{b}", {"status": "supported"})
    version = led._t.version
    led.close()
    jr.close()
    data = sorted((uri / "evidence.lance" / "data").glob("*.lance"), key=lambda p: p.stat().st_mtime_ns)
    assert len(data) == 3
    return uri, version, data


def rel(uri, path):
    return str(Path(path).relative_to(uri))


def flip(path, at):
    raw = bytearray(path.read_bytes())
    raw[at] ^= 0xFF
    path.write_bytes(bytes(raw))


def assert_clean(stderr):
    assert "Traceback" not in stderr and "panicked" not in stderr and "backtrace" not in stderr, stderr


def assert_unreadable(uri, table, version, file, opener):
    """verify exits 1 naming table, version and file, stderr clean; opening raises the same."""
    code, out, err = verify(uri)
    assert code == 1, out + err
    assert f"BROKEN {table} (version {version}, file {file}): unreadable:" in out
    assert_clean(err)
    with pytest.raises(LedgerUnreadable) as e:
        opener(str(uri), writer=False)
    assert (e.value.table, e.value.version, e.value.file) == (table, version, file)
    assert f"table '{table}' version {version} unreadable: file {file}" in str(e.value)
    return out


def test_a_flipped_payload_byte_names_the_entry_version_and_file(store):
    uri, version, data = store
    raw = data[1].read_bytes()
    at = raw.index(b"PAYLOAD-1-007")
    flip(data[1], at + 3)
    code, out, err = verify(uri)
    assert code == 1, out + err
    assert f"BROKEN evidence (version {version}, file {rel(uri, data[1])}): first bad entry seq=47" in out
    assert "stored bytes do not hash to the recorded sha256" in out
    assert "ok journal" in out  # the other table is still audited
    assert_clean(err)
    # Lance reads the flipped byte without complaint: open works, the audit finds it.
    led = Ledger.open(str(uri), writer=False)
    assert led.verify().first_bad.seq == 47


def test_a_flipped_footer_byte_is_reported_by_file_and_open_raises_ledger_unreadable(store):
    uri, version, data = store
    flip(data[2], -20)  # the column-metadata offset: Lance refuses the file
    assert_unreadable(uri, "evidence", version, rel(uri, data[2]), Ledger.open)


def test_a_footer_byte_that_makes_lance_abort_is_reported_and_the_rest_still_audited(store):
    """The footer's global-buffer count, made huge: Lance tries to allocate ~68 GB and aborts the
    process (SIGABRT). The audit's child process dies; the command does not."""
    uri, version, data = store
    flip(data[0], -13)
    code, out, err = verify(uri)
    assert code == 1, out + err
    assert f"BROKEN evidence (version {version}, file {rel(uri, data[0])}): unreadable: Lance ended the process (SIGABRT)" in out
    assert "ok journal: 3 entries" in out
    assert_clean(err)


def test_a_deleted_fragment_is_named(store):
    uri, version, data = store
    data[1].unlink()
    assert_unreadable(uri, "evidence", version, rel(uri, data[1]), Ledger.open)


def test_a_truncated_manifest_is_named(store):
    uri, version, data = store
    manifest = uri / "journal.lance" / "_versions" / f"{2**64 - 1 - 4:020d}.manifest"  # the journal's newest
    assert manifest.exists()
    manifest.write_bytes(manifest.read_bytes()[:40])
    out = assert_unreadable(uri, "journal", 4, rel(uri, manifest), Journal.open)
    assert "ok evidence: 120 entries" in out


def test_a_bug_in_the_audit_is_an_internal_error_not_a_verdict(store, monkeypatch):
    """Exit 3 is for the tool failing, never for the ledger: the audit's child is pointed at a
    Python that cannot run it."""
    uri, _, _ = store
    from typer.testing import CliRunner

    from warrant.runtime.cli import app

    monkeypatch.setattr(sys, "executable", str(uri / "no-such-python"))
    r = CliRunner().invoke(app, ["ledger", "verify", "--ledger", str(uri)])
    assert r.exit_code == 3 and "internal error while verifying" in r.output
