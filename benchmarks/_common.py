"""Shared by the benchmark scripts: environment, machine description, result writing."""

from __future__ import annotations

import json
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any

for k, v in {
    "LANCEDB_LOG": "error",
    "HF_HUB_OFFLINE": "1",
    "TRANSFORMERS_OFFLINE": "1",
    "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0",
    "RAY_USAGE_STATS_ENABLED": "0",
}.items():
    os.environ.setdefault(k, v)

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
RESULTS = ROOT / "benchmarks" / "results"
# The verifier issue's quality target for the embedded model (3-way SNLI test accuracy).
SNLI_TARGET = 0.85


def machine() -> dict[str, Any]:
    return {
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "platform": platform.platform(),
        "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }


def write_result(name: str, payload: dict[str, Any]) -> Path:
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"{name}.json"
    path.write_text(json.dumps({"machine": machine(), **payload}, indent=2) + "\n")
    return path


def percentile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return float("nan")
    i = min(len(sorted_values) - 1, max(0, round(q * (len(sorted_values) - 1))))
    return sorted_values[i]


# The verifier's dev pairs (statements), oldest first: short pairs, then longer documents with headers,
# tables and JSON (written by the verifier's developers: _long; by someone who did not write the
# rules: _dev2; by someone who had seen neither the code nor the other pairs: _dev3, _dev5 and
# _dev6, the last two measured blind before anyone looked at them; _cmp1 and _state1, claims that order
# two values or name a state, each measured blind once, then opened; _dev7 to _dev18,
# written blind like _dev6, measured blind before they were opened: _dev10's to _dev18's blind
# figures are results/verifier_pairs_dev1[0-8]_blind.json; _dev18 is weighted to true claims). Tuned on, and the NLI model trains on them (nli_doc_pairs.py).
DEV_PAIRS = [ROOT / "tests" / "data" / n for n in
             ("verifier_pairs.jsonl", "verifier_pairs_extra.jsonl", "verifier_pairs_long.jsonl",
              "verifier_pairs_dev2.jsonl", "verifier_pairs_dev3.jsonl", "verifier_pairs_dev5.jsonl",
              "verifier_pairs_dev6.jsonl", "verifier_pairs_cmp1.jsonl", "verifier_pairs_state1.jsonl",
              "verifier_pairs_dev7.jsonl", "verifier_pairs_dev8.jsonl", "verifier_pairs_dev9.jsonl",
              "verifier_pairs_dev10.jsonl", "verifier_pairs_dev11.jsonl",
              "verifier_pairs_dev12.jsonl", "verifier_pairs_dev13.jsonl", "verifier_pairs_dev14.jsonl",
              "verifier_pairs_dev15.jsonl", "verifier_pairs_dev16.jsonl", "verifier_pairs_dev17.jsonl",
              "verifier_pairs_dev18.jsonl")]
# The dev pairs the shipped model (stage 6) trained on: nli_doc_pairs.py reads these by default, so
# that its recipe rebuilds that model's data; the next stage may train on all of DEV_PAIRS.
SHIPPED_DOC_PAIRS = DEV_PAIRS[:5]
# Written blind like _dev3, after the model trained on the dev pairs: it chooses between trained
# models and thresholds (a validation split), and nothing trains on it.
VALIDATION_PAIRS = ROOT / "tests" / "data" / "verifier_pairs_dev4.jsonl"

# The held-out data's content hash, frozen before any tuning (benchmarks/heldout/FROZEN.md).
HELDOUT_SHA256SUMS = "b7e57c143ccfe672fb1b8e0095175a0165bc300d2328681965535a6bcc8863d8"


def frozen(path: Path) -> dict[str, Any]:
    """Check that `path` (a file or folder inside a held-out folder) is byte for byte what was
    frozen: SHA256SUMS hashes to the frozen value and every file it lists still matches. Exits 2
    on a mismatch, so a changed held-out set can never be reported as the frozen one. A path in
    no frozen folder is reported as not frozen (a user's own data)."""
    import hashlib

    path = path.resolve()
    root = next((p for p in [path, *path.parents] if (p / "SHA256SUMS").is_file()), None)
    if root is None:
        return {"frozen": False}
    sums = (root / "SHA256SUMS").read_bytes()
    digest = hashlib.sha256(sums).hexdigest()
    if digest != HELDOUT_SHA256SUMS:
        print(f"error: {root}/SHA256SUMS hashes to {digest}, not the frozen {HELDOUT_SHA256SUMS}", file=sys.stderr)
        raise SystemExit(2)
    for line in sums.decode().splitlines():
        want, name = line.split(maxsplit=1)
        got = hashlib.sha256((root / name).read_bytes()).hexdigest()
        if got != want:
            print(f"error: held-out file {name} changed since it was frozen", file=sys.stderr)
            raise SystemExit(2)
    return {"frozen": True, "sha256sums": digest}
