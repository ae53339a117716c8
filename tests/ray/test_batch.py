"""`warrant batch-verify` on Ray Data: every verdict written once, same as in-process; a run
killed mid-way resumes without losing or duplicating a verdict."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import ray

from warrant.actors.batch import batch_verify, expand, read_verdicts
from warrant.ledger import Ledger
from warrant.runtime.contract import Claim, Proposition
from warrant.runtime.verify.backends.registry import load_backend
from warrant.runtime.verify.verifier import Verifier
from tests.ray import corpus

ROOT = Path(__file__).resolve().parents[2]


def _rows(shared, n):
    return [{"run_id": r, "claim": c, "proposition": p} for r, c, p in corpus.propositions(corpus.RUNS, shared.ids, n)]


def _expected(shared, rows, model):
    """key -> (status, checker, evidence) from the in-process verifier, one check per run
    (see corpus.evidence_key for what "same evidence" means for the model)."""
    v = Verifier(Ledger.open(shared.uri, writer=False), None if model == "none" else load_backend(model))
    flat = [r for row in rows for r in expand(row)]
    out = {}
    for run in {r["run_id"] for r in flat}:
        mine = [r for r in flat if r["run_id"] == run]
        tasks = [(Claim.model_validate_json(r["claim"]), Proposition.model_validate_json(r["proposition"])) for r in mine]
        for r, verdict in zip(mine, v.check(run, tasks)):
            out[r["key"]] = (verdict.status, verdict.checker, corpus.evidence_key(verdict.checker, verdict.evidence.model_dump() if verdict.evidence else None))
    return out


def _got(out_dir):
    t = read_verdicts(out_dir)
    got = {}
    for row in t.to_pylist():
        v = json.loads(row["verdict"])
        got[row["key"]] = (row["status"], row["checker"], corpus.evidence_key(row["checker"], v["evidence"]))
    return t.num_rows, got


def test_batch_verify_writes_each_verdict_once_and_agrees_with_in_process(shared, model_spec, tmp_path):
    rows = _rows(shared, 150)
    # Mixed input: proposition rows and whole artifacts (expanded; their Quote claims skipped).
    arts = [corpus.artifacts(run, shared.ids, n=2) for run in corpus.RUNS]
    src = tmp_path / "claims.jsonl"
    src.write_text(corpus.jsonl(rows + [{"artifact": a} for per_run in arts for a in per_run]))
    expected = _expected(shared, rows + [{"artifact": a} for per_run in arts for a in per_run], model_spec)

    rep = batch_verify(str(src), tmp_path / "out", shared.uri, model=model_spec, min_actors=1, max_actors=2,
                       batch_size=24, num_cpus=0.5, progress=False)
    n, got = _got(tmp_path / "out")
    assert n == len(expected) == rep.written and rep.skipped == 0
    assert got == expected
    assert rep.files == len(list((tmp_path / "out").glob("verdicts-*.parquet"))) > 1


def test_a_batch_run_killed_mid_way_resumes_without_loss_or_duplicates(shared, model_spec, tmp_path):
    rows = _rows(shared, 160)
    src = tmp_path / "claims.parquet"
    pq.write_table(pa.Table.from_pylist([{k: (json.dumps(v) if isinstance(v, dict) else v) for k, v in r.items()} for r in rows]), src)
    out = tmp_path / "out"
    cmd = [
        str(Path(sys.executable).with_name("warrant")), "batch-verify", str(src), "--out", str(out), "--ledger", shared.uri,
        "--address", ray.get_runtime_context().gcs_address, "--model", model_spec, "--batch-size", "8", "--max-actors", "1",
    ]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=dict(os.environ), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 180
    while len(list(out.glob("verdicts-*.parquet"))) < 3:
        assert proc.poll() is None, "the batch run ended before it could be killed"
        assert time.monotonic() < deadline, "the batch run wrote nothing within 180 s"
        time.sleep(0.1)
    proc.kill()  # SIGKILL the driver: its Ray Data job dies with it
    proc.wait()
    partial, _ = _got(out)
    assert 0 < partial < len(rows)

    rep = batch_verify(str(src), out, shared.uri, model=model_spec, batch_size=32, num_cpus=0.5, progress=False)
    n, got = _got(out)
    assert rep.skipped >= partial and rep.skipped + rep.written - rep.duplicates_dropped == len(rows)
    assert n == len(got) == len(rows)  # every key once
    assert got == _expected(shared, rows, model_spec)


def _map_workers() -> list[int]:
    """Pids of the Ray Data verifier actors (Ray titles each worker process after its actor)."""
    out = subprocess.run(["ps", "-eo", "pid=,args="], capture_output=True, text=True, check=True).stdout
    return [int(line.split(None, 1)[0]) for line in out.splitlines() if "MapWorker(MapBatches(VerifyBatch))" in line]


def test_a_verifier_actor_killed_mid_batch_is_replaced_and_every_verdict_lands_once(shared, model_spec, tmp_path):
    import signal
    import threading

    rows = _rows(shared, 160)
    src = tmp_path / "claims.jsonl"
    src.write_text(corpus.jsonl(rows))
    out = tmp_path / "out"
    result = {}
    t = threading.Thread(target=lambda: result.update(rep=batch_verify(
        str(src), out, shared.uri, model=model_spec, min_actors=1, max_actors=1, batch_size=8, num_cpus=0.5, progress=False)))
    t.start()
    deadline = time.monotonic() + 180
    while not (list(out.glob("verdicts-*.parquet")) and _map_workers()):
        assert t.is_alive() and time.monotonic() < deadline, "the pipeline finished or stalled before the kill"
        time.sleep(0.05)
    victims = _map_workers()
    for pid in victims:
        os.kill(pid, signal.SIGKILL)  # mid-batch: the actor is busy with its next batch
    t.join(timeout=300)
    assert not t.is_alive()
    n, got = _got(out)
    assert n == len(got) == len(rows) == result["rep"].written - result["rep"].duplicates_dropped
    assert got == _expected(shared, rows, model_spec)
    assert not set(victims) & set(_map_workers())  # the killed processes are gone for good
