"""benchmarks/gpu_check.sh must not rot before a GPU is lent: its --cpu-smoke mode runs the same
code path (model load, sweep, half-precision check, training steps, JSON) on this CPU."""
from __future__ import annotations

import importlib.util
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "gpu_check.sh"


def load_bench():
    spec = importlib.util.spec_from_file_location("gpu_bench", ROOT / "benchmarks" / "gpu_bench.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def write_pairs(folder: Path, n: int) -> None:
    folder.mkdir(parents=True)
    labels = ["entailment", "neutral", "contradiction"]
    with open(folder / "train.jsonl", "w", encoding="utf-8") as fh:
        for i in range(n):
            fh.write(json.dumps({"premise": f"The invoice total is {100 + i} USD.",
                                 "hypothesis": f"The total is {100 + i * (i % 3)} USD.",
                                 "label": labels[i % 3], "source": "test"}) + "\n")


def test_cpu_smoke_writes_the_json(tmp_path):
    data = tmp_path / "nli"
    write_pairs(data, 8)
    out = tmp_path / "out"
    env = {**os.environ, "OUT": str(out), "PYTHON": sys.executable}
    proc = subprocess.run(
        ["bash", str(SCRIPT), "--cpu-smoke", "--lengths", "8,16", "--batches", "2,4", "--iters", "2",
         "--train-steps", "2", "--train-batch", "2", "--min-train-s", "1", "--data-dir", str(data)],
        env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    result = json.loads((out / "gpu_check_cpu_smoke.json").read_text())

    import torch
    assert result["smoke"] is True
    assert result["machine"]["torch"] == torch.__version__ and result["machine"]["device"] == "cpu"
    assert result["model"]["weights"] in ("checkpoint", "base", "random")
    assert [(r["length"], r["batch"]) for r in result["sweep"]] == [(8, 2), (8, 4), (16, 2), (16, 4)]
    for row in result["sweep"]:
        assert row["status"] == "ok" and row["dtype"] == "fp32"
        assert row["pairs_per_s"] > 0 and row["batches_timed"] >= 2 and row["peak_mem_mib"] is None
    assert result["best_by_dtype"]["fp32"]["pairs_per_s"] == max(r["pairs_per_s"] for r in result["sweep"])
    training = result["training"]
    assert training["status"] == "ran" and training["steps"] == 2 and training["pairs"] == 4
    assert all(math.isfinite(x) for x in training["losses"])
    assert "pairs/s" in proc.stdout  # the table
    assert "training: ran: 2 steps" in proc.stdout


def test_oom_stops_that_dtypes_larger_batches(tmp_path, monkeypatch, capsys):
    """An out-of-memory error at one batch size skips it and every larger one for that dtype, at
    longer lengths too, and the other dtypes still run (a real OOM cannot be forced on a CPU, so
    the timed call raises torch's own OutOfMemoryError). Without training data, training is skipped
    with a note naming the missing file."""
    bench = load_bench()
    real = bench.time_forward

    def forward(torch, model, inputs, device, warmup, iters, min_s):
        if model.dtype == torch.float32 and inputs["input_ids"].shape[0] >= 4:
            raise torch.OutOfMemoryError("CUDA out of memory. Tried to allocate 2.00 GiB")
        return real(torch, model, inputs, device, warmup, iters, min_s)

    monkeypatch.setattr(bench, "time_forward", forward)
    bench.main(["--device", "cpu", "--lengths", "8,16", "--batches", "2,4,8", "--dtypes", "fp32,bf16", "--warmup", "0",
                "--iters", "1", "--min-seconds", "0", "--data-dir", str(tmp_path / "absent"),
                "--out-dir", str(tmp_path)])
    rows = json.loads((tmp_path / "gpu_check.json").read_text())
    status = {(r["dtype"], r["length"], r["batch"]): r["status"] for r in rows["sweep"]}
    assert status[("fp32", 8, 2)] == "ok" and status[("fp32", 8, 4)] == "oom"
    assert status[("fp32", 8, 8)] == status[("fp32", 16, 4)] == status[("fp32", 16, 8)] == "skipped_after_oom"
    assert status[("fp32", 16, 2)] == "ok"
    assert all(v == "ok" for (d, _, _), v in status.items() if d == "bf16")
    assert any("out of memory at length 8, batch 4" in n for n in rows["notes"])
    assert rows["training"]["status"] == "skipped"
    assert str(tmp_path / "absent" / "train.jsonl") in rows["training"]["note"]
    # bf16 is checked against fp32 on the same batch, not only timed
    (check,) = rows["half_precision_vs_fp32"]
    assert check["dtype"] == "bf16" and 0 <= check["argmax_agreement"] <= 1
    assert "training: skipped" in capsys.readouterr().out


@pytest.mark.parametrize("argv, message", [
    (["--dtypes", "fp8"], "dtypes must be fp32, fp16 or bf16"),
    (["--batches", "0,4"], "expected positive integers"),
    (["--lengths", "a"], "expected comma-separated integers"),
])
def test_bad_flags_exit_2_naming_the_flag(argv, message, capsys):
    bench = load_bench()
    with pytest.raises(SystemExit) as exc:
        bench.main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert message in err and argv[0] in err


def test_cuda_requested_without_a_gpu_exits_2(tmp_path, capsys):
    import torch
    if torch.cuda.is_available():
        pytest.skip("this machine has a GPU")
    bench = load_bench()
    assert bench.main(["--device", "cuda", "--out-dir", str(tmp_path)]) == 2
    assert "sees no CUDA device" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())
