"""`warrant batch-verify`: verify a large set of propositions with Ray Data, resumably.

Pipeline: read rows (JSONL or Parquet; one row per proposition, or one per artifact, expanded)
-> drop the propositions whose verdict is already written -> sort by (run, cited ledger ids), so
propositions over the same evidence land in the same batch and each record is fetched and chunked
once per batch -> `map_batches` on a pool of verifier actors (`ActorPoolStrategy`, CPU or GPU)
-> each actor writes its batch's verdicts to one Parquet file and reports it -> progress bar.

Resumable by construction: a verdict file is written to a temporary name and renamed, so a file
exists whole or not at all; its name is a hash of the proposition keys it holds, so a batch that
is retried (an actor killed mid-batch; Ray Data replays it) rewrites the same file with the same
verdicts. A rerun after a crash reads the keys already written and skips them. A last pass drops
any key written twice (a batch of the crashed run finishing while the rerun planned around it).

A proposition's key is `run_id/claim_id/proposition_id`; keys are assumed unique in the input.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Iterator

import pyarrow as pa
import pyarrow.parquet as pq

from warrant.runtime.contract import QUOTE, Claim, Proposition

VERDICT_GLOB = "verdicts-*.parquet"

VERDICT_SCHEMA = pa.schema(
    [
        ("key", pa.string()),
        ("run_id", pa.string()),
        ("claim_id", pa.string()),
        ("proposition_id", pa.string()),
        ("pred", pa.string()),
        ("status", pa.string()),
        ("checker", pa.string()),
        ("confidence", pa.float64()),
        ("evidence_ledger_id", pa.string()),
        ("evidence_start", pa.int64()),
        ("evidence_end", pa.int64()),
        ("verdict", pa.string()),  # the whole PropositionVerdict as JSON
    ]
)


def proposition_key(run_id: str, claim_id: str, proposition_id: str) -> str:
    return f"{run_id}/{claim_id}/{proposition_id}"


def expand(obj: dict[str, Any]) -> Iterator[dict[str, str]]:
    """Rows to verify from one input object: {"run_id", "claim", "proposition"}, or an artifact
    (bare or under "artifact"), whose non-Quote claims give one row per proposition. Quotes are
    byte comparisons the gate already made; they need no model and are not batch work."""
    art = obj.get("artifact", obj if "claims" in obj else None)
    if isinstance(art, str):
        art = json.loads(art)
    if art is not None:
        for claim in art.get("claims", []):
            if claim.get("type") == QUOTE:
                continue
            for prop in claim.get("propositions", []):
                yield _row(art["run_id"], claim, prop)
        return
    claim, prop = obj["claim"], obj["proposition"]
    yield _row(obj["run_id"], json.loads(claim) if isinstance(claim, str) else claim, json.loads(prop) if isinstance(prop, str) else prop)


def _row(run_id: str, claim: dict[str, Any], prop: dict[str, Any]) -> dict[str, str]:
    claim = {k: v for k, v in claim.items() if k != "propositions"}
    try:  # fail on the bad row, by name, before any model time is spent
        Claim.model_validate(claim)
        Proposition.model_validate(prop)
    except ValueError as exc:
        raise ValueError(f"input row {run_id}/{claim.get('id')}/{prop.get('id')}: not a valid claim and proposition: {exc}") from None
    return {
        "key": proposition_key(run_id, claim["id"], prop["id"]),
        "run_id": run_id,
        # Sorting by this puts propositions over the same records next to each other.
        "group": run_id + "|" + ",".join(sorted(prop.get("ledger_ids", []))),
        "claim": json.dumps(claim, sort_keys=True),
        "proposition": json.dumps(prop, sort_keys=True),
    }


_ROWS = pa.schema([(n, pa.string()) for n in ("key", "run_id", "group", "claim", "proposition")])


def _parse(batch: pa.Table, done: frozenset[str]) -> pa.Table:
    objs: Iterable[dict[str, Any]]
    if "text" in batch.column_names and batch.num_columns == 1:  # read_text: one JSON object per line
        objs = (json.loads(line) for line in batch.column("text").to_pylist() if line.strip())
    else:
        objs = batch.to_pylist()
    rows = [r for o in objs for r in expand(o) if r["key"] not in done]
    return pa.Table.from_pylist(rows, schema=_ROWS)


def done_keys(out_dir: str | Path) -> set[str]:
    """Keys of every verdict already written to `out_dir`."""
    keys: set[str] = set()
    for f in sorted(Path(out_dir).glob(VERDICT_GLOB)):
        keys.update(pq.read_table(f, columns=["key"]).column("key").to_pylist())
    return keys


def read_verdicts(out_dir: str | Path) -> pa.Table:
    files = sorted(Path(out_dir).glob(VERDICT_GLOB))
    if not files:
        return VERDICT_SCHEMA.empty_table()
    return pa.concat_tables([pq.read_table(f) for f in files]).sort_by("key")


class VerifyBatch:
    """The `map_batches` actor: loads the backend once, verifies a batch, writes its file."""

    def __init__(self, ledger_uri: str, out_dir: str, model: str = "default", device: str = "cpu"):
        from warrant.actors.verifier_pool import NO_MODEL, _load_backend
        from warrant.ledger import Ledger
        from warrant.runtime.verify.verifier import Verifier

        backend = None if model in (None, "", NO_MODEL) else _load_backend(model, device)
        self._verifier = Verifier(Ledger.open(ledger_uri, writer=False), backend)
        self._out = Path(out_dir)

    def __call__(self, batch: pa.Table) -> pa.Table:
        from warrant.actors.verifier_pool import decide_grouped

        rows = batch.to_pylist()
        reqs = [(r["run_id"], Claim.model_validate_json(r["claim"]), Proposition.model_validate_json(r["proposition"]), {}) for r in rows]
        verdicts = decide_grouped(self._verifier, reqs)
        table = pa.Table.from_pylist([_verdict_row(r, v) for r, v in zip(rows, verdicts)], schema=VERDICT_SCHEMA)
        name = write_verdict_file(self._out, table)
        return pa.table({"file": [name], "rows": [table.num_rows]})


def _verdict_row(row: dict[str, Any], v: Any) -> dict[str, Any]:
    ev = v.evidence
    return {
        "key": row["key"],
        "run_id": row["run_id"],
        "claim_id": v.claim_id,
        "proposition_id": v.proposition_id,
        "pred": v.pred,
        "status": v.status,
        "checker": v.checker,
        "confidence": float(v.confidence),
        "evidence_ledger_id": ev.ledger_id if ev else None,
        "evidence_start": ev.start if ev else None,
        "evidence_end": ev.end if ev else None,
        "verdict": v.model_dump_json(),
    }


def write_verdict_file(out_dir: Path, table: pa.Table) -> str:
    keys = sorted(table.column("key").to_pylist())
    name = "verdicts-" + hashlib.sha256("\n".join(keys).encode()).hexdigest()[:24] + ".parquet"
    tmp = out_dir / f".{name}.{os.getpid()}.tmp"
    pq.write_table(table.sort_by("key"), tmp)
    os.replace(tmp, out_dir / name)  # atomic: a reader or a rerun sees all of it or none
    return name


def dedupe(out_dir: str | Path) -> int:
    """Drop keys written more than once (the first file in name order keeps its row). Returns
    how many rows were dropped."""
    seen: set[str] = set()
    dropped = 0
    for f in sorted(Path(out_dir).glob(VERDICT_GLOB)):
        t = pq.read_table(f)
        keys = t.column("key").to_pylist()
        keep = [k not in seen for k in keys]
        seen.update(keys)
        if all(keep):
            continue
        dropped += keep.count(False)
        rest = t.filter(pa.array(keep))
        tmp = f.with_name(f".{f.name}.dedupe.tmp")
        pq.write_table(rest, tmp)
        os.replace(tmp, f)
    return dropped


@dataclass
class BatchReport:
    input_rows: int  # propositions still to do when this run started
    skipped: int  # already written by an earlier run
    written: int  # verdicts written by this run
    files: int
    duplicates_dropped: int
    seconds: float

    @property
    def per_second(self) -> float:
        return self.written / self.seconds if self.seconds else 0.0


def batch_verify(
    inputs: str | Path | list[str | Path],
    out_dir: str | Path,
    ledger_uri: str,
    *,
    model: str = "default",
    device: str = "cpu",
    min_actors: int = 1,
    max_actors: int = 2,
    batch_size: int = 256,
    num_cpus: float = 1.0,
    num_gpus: float | None = None,
    progress: bool = True,
) -> BatchReport:
    """Run the pipeline on the Ray cluster this process is connected to (ray.init first)."""
    import ray
    from ray.data import ActorPoolStrategy, DataContext

    started = time.monotonic()
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = [str(p) for p in (inputs if isinstance(inputs, list) else [inputs])]
    done = frozenset(done_keys(out))
    ctx = DataContext.get_current()
    ctx.enable_progress_bars = not progress  # one bar, ours, when asked for it

    if all(p.endswith(".parquet") for p in paths):
        raw = ray.data.read_parquet(paths)
    elif all(p.endswith((".jsonl", ".ndjson")) for p in paths):
        raw = ray.data.read_text(paths)
    else:
        raise ValueError(f"inputs: expected .jsonl or .parquet files (not mixed), got {paths}")
    todo = raw.map_batches(_parse, batch_format="pyarrow", fn_kwargs={"done": done}).materialize()
    n = todo.count()
    written = files = 0
    if n:
        gpus = num_gpus if num_gpus is not None else (1.0 if device.startswith("cuda") else 0.0)
        # Sorted to completion first: an actor pool that holds every CPU would starve the sort's
        # tasks (seen on 2 cores: the pipeline waits forever).
        ordered = todo.sort(["group", "key"]).materialize()
        verdicts = ordered.map_batches(
            VerifyBatch,
            fn_constructor_kwargs={"ledger_uri": ledger_uri, "out_dir": str(out), "model": model, "device": device},
            batch_size=batch_size,
            batch_format="pyarrow",
            compute=ActorPoolStrategy(min_size=min_actors, max_size=max_actors),
            num_cpus=num_cpus,
            num_gpus=gpus,
        )
        with _progress(progress, n) as advance:
            for b in verdicts.iter_batches(batch_size=None, batch_format="pyarrow"):
                rows = sum(b.column("rows").to_pylist())
                written += rows
                files += b.num_rows
                advance(rows)
    return BatchReport(n, len(done), written, files, dedupe(out), time.monotonic() - started)


class _progress:
    def __init__(self, show: bool, total: int):
        self._show, self._total = show, total

    def __enter__(self):
        if not self._show:
            return lambda k: None
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        self._p = Progress(TextColumn("verifying"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
        self._p.start()
        task = self._p.add_task("verify", total=self._total)
        return lambda k: self._p.advance(task, k)

    def __exit__(self, *exc: object) -> None:
        if self._show:
            self._p.stop()


__all__ = ["BatchReport", "VERDICT_SCHEMA", "VerifyBatch", "batch_verify", "dedupe", "done_keys", "expand", "proposition_key", "read_verdicts"]
