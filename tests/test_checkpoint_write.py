"""How the head checkpoint is rewritten: in place (one O_DSYNC write of a fixed-size file) by
default, by temporary file and rename where in place would not be one write of a plain file, and
what a reader does with a file it catches half-written."""

from __future__ import annotations

import fcntl
import json
import os
import threading
import time

import pytest

from warrant.ledger import Journal, Ledger, LedgerIntegrityError
from warrant.ledger.checkpoint import FILE, WRITE_ENV, Checkpoints, Head


def head(seq):
    return Head(seq=seq, hash=f"{seq:064x}", version=seq + 2)


def test_the_first_write_pads_to_a_block_and_later_writes_stay_in_the_same_file(tmp_path):
    cps = Checkpoints(str(tmp_path))
    path = tmp_path / FILE
    cps.record("journal", head(0))
    first = os.stat(path)
    assert first.st_size == 4096
    for seq in range(1, 5):
        cps.record("journal", head(seq))
        cps.record("evidence", head(seq))
    now = os.stat(path)
    assert (now.st_ino, now.st_size) == (first.st_ino, 4096)  # rewritten in place, never renamed over
    doc = json.loads(path.read_bytes())  # the padding is JSON whitespace: any reader parses it
    assert doc["tables"]["journal"]["seq"] == 4 and doc["tables"]["evidence"]["seq"] == 4
    assert [w.error for w in cps.read()] == [None] and cps.read()[0].heads["journal"] == head(4)


def test_replace_mode_writes_by_rename_as_before(tmp_path, monkeypatch):
    monkeypatch.setenv(WRITE_ENV, "replace")
    cps = Checkpoints(str(tmp_path))
    path = tmp_path / FILE
    cps.record("journal", head(0))
    ino = os.stat(path).st_ino
    cps.record("journal", head(1))
    assert os.stat(path).st_ino != ino
    assert path.read_bytes() == path.read_bytes().strip()  # no padding: the old bytes exactly
    assert cps.read()[0].heads["journal"] == head(1)


def test_a_checkpoint_written_by_the_previous_release_is_read_and_then_grown(tmp_path, monkeypatch):
    monkeypatch.setenv(WRITE_ENV, "replace")  # what the previous release wrote: compact, by rename
    Checkpoints(str(tmp_path)).record("journal", head(0))
    monkeypatch.delenv(WRITE_ENV)
    cps = Checkpoints(str(tmp_path))
    assert cps.read()[0].heads == {"journal": head(0)}
    cps.record("journal", head(1))  # longer than the file: replaced, padded, then in place
    ino = os.stat(tmp_path / FILE).st_ino
    cps.record("journal", head(2))
    assert os.stat(tmp_path / FILE).st_ino == ino and cps.read()[0].heads == {"journal": head(2)}


def test_a_linked_file_is_replaced_not_written_through(tmp_path):
    cps = Checkpoints(str(tmp_path))
    cps.record("journal", head(0))
    other = tmp_path / "elsewhere.json"
    os.link(tmp_path / FILE, other)
    before = other.read_bytes()
    cps.record("journal", head(1))
    assert other.read_bytes() == before  # the other name still holds what it held
    assert cps.read()[0].heads["journal"] == head(1)


def test_a_reader_that_catches_a_half_written_file_reads_again_under_the_lock(tmp_path):
    cps = Checkpoints(str(tmp_path))
    cps.record("journal", head(0))
    path, lock = tmp_path / FILE, tmp_path / f".{FILE}.lock"
    good = path.read_bytes()
    # A writer in the middle of its write: it holds the lock and half the new bytes are in place.
    fd = os.open(lock, os.O_RDWR)
    fcntl.flock(fd, fcntl.LOCK_EX)
    path.write_bytes(good[: len(good) // 3] + b"\0" * (len(good) - len(good) // 3))
    seen = []
    reader = threading.Thread(target=lambda: seen.append(cps.read()))
    reader.start()
    time.sleep(0.3)
    assert seen == []  # waiting for the writer, not reporting a damaged checkpoint
    path.write_bytes(good)
    os.close(fd)  # releases the lock
    reader.join(10)
    assert seen and seen[0][0].error is None and seen[0][0].heads["journal"] == head(0)


def test_a_damaged_checkpoint_is_still_reported_and_refused(tmp_path):
    uri = str(tmp_path / "led")
    led = Ledger.open(uri)
    led.append("r", "some bytes")
    led.close()
    path = tmp_path / "led" / FILE
    raw = bytearray(path.read_bytes())
    raw[10:20] = b"\0" * 10
    path.write_bytes(bytes(raw))
    [w] = Checkpoints(uri).read()
    assert w.error and "not a checkpoint" in w.error
    with pytest.raises(LedgerIntegrityError, match="not a checkpoint"):
        Journal.open(uri)


def test_appends_after_an_in_place_checkpoint_survive_a_reopen(tmp_path):
    uri = str(tmp_path / "led")
    j = Journal.open(uri)
    for i in range(5):
        j.record("r", "verdict", f"c{i}", {"i": i})
    j.close()
    j = Journal.open(uri)  # the writer compares the table with the checkpoint: consistent
    try:
        assert j.count() == 5 and j.verify().ok
    finally:
        j.close()
