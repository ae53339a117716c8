"""benchmarks/gpu_check.sh must not rot before a GPU is lent: its --cpu-smoke mode runs the same
code path (training from the shipped int8 graph, export in parts, sweep, half-precision check,
JSON) on this CPU."""
from __future__ import annotations

import importlib.util
import json
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


def load_script(name: str):
    sys.path.insert(0, str(ROOT / "benchmarks"))
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


LABELS = ["entailment", "neutral", "contradiction"]


def write_pairs(path: Path, n: int) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        for i in range(n):
            fh.write(json.dumps({"premise": f"Invoice INV-{i} totals {100 + i} USD and is due in {i % 5 + 1} weeks.",
                                 "hypothesis": f"The total is {100 + i * (i % 3)} USD.",
                                 "label": LABELS[i % 3], "source": "test"}) + "\n")


def write_data(folder: Path, n: int = 12) -> Path:
    folder.mkdir(parents=True)
    for stem in ("train", "doc_train", "snli_val", "snli_test"):
        write_pairs(folder / f"{stem}.jsonl", n)
    return folder


def test_cpu_smoke_trains_exports_and_sweeps(tmp_path):
    """The whole prepared script on the CPU: training from the shipped int8 graph (both data
    mixes, each exported to int8 and checked against fp32), then the throughput sweep."""
    out = tmp_path / "out"
    env = {**os.environ, "OUT": str(out), "PYTHON": sys.executable, "GPU_DATA": str(write_data(tmp_path / "nli"))}
    proc = subprocess.run(
        ["bash", str(SCRIPT), "--cpu-smoke", "--lengths", "8,16", "--batches", "2,4", "--iters", "2"],
        env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    import torch

    train = json.loads((out / "gpu_train_cpu_smoke.json").read_text())
    assert train["data"] == {"general_pairs": 12, "document_pairs": 12, "document_by_source": {"test": 12}}
    assert set(train["variants"]) == {"docs", "control"}
    docs, control = train["variants"]["docs"], train["variants"]["control"]
    assert docs["pairs_per_epoch"] == 12 + 4 * 12 and control["pairs_per_epoch"] == 12  # docs:4; the control has none
    for v in (docs, control):
        assert v["steps"] == v["steps_planned"] and v["stopped_early"] is None
        assert 0 <= v["snli_val"]["accuracy"] <= 1 and v["snli_val"]["pairs"] == 12
        assert len(v["export"]["sha256"]) == 64 and v["export"]["bytes"] > 20_000_000
        assert 0 <= v["export"]["int8_vs_fp32_argmax_agreement"] <= 1
    assert docs["export"]["sha256"] != control["export"]["sha256"]  # different data, different weights
    assert not list(out.glob("*.part*"))  # the smoke run keeps no model parts

    result = json.loads((out / "gpu_check_cpu_smoke.json").read_text())
    assert result["smoke"] is True
    assert result["machine"]["torch"] == torch.__version__ and result["machine"]["device"] == "cpu"
    assert result["model"]["weights"] == "shipped-int8-dequantised"
    assert [(r["length"], r["batch"]) for r in result["sweep"]] == [(8, 2), (8, 4), (16, 2), (16, 4)]
    for row in result["sweep"]:
        assert row["status"] == "ok" and row["dtype"] == "fp32"
        assert row["pairs_per_s"] > 0 and row["batches_timed"] >= 2 and row["peak_mem_mib"] is None
    assert result["best_by_dtype"]["fp32"]["pairs_per_s"] == max(r["pairs_per_s"] for r in result["sweep"])
    assert "pairs/s" in proc.stdout  # the table


def test_parts_join_to_the_exported_graph(tmp_path):
    """What comes back from the device is the int8 graph cut under the 16 MiB a returned file may
    have: the parts, joined in order, are the graph its sha256 names, and it loads and scores."""
    import hashlib

    import numpy as np

    gpu_train = load_script("gpu_train")
    onnx_weights = load_script("onnx_weights")
    import torch
    from transformers import AutoTokenizer

    model = onnx_weights.load_torch_model()
    tok = AutoTokenizer.from_pretrained(str(onnx_weights.MODEL_DIR))
    rows = [{"premise": "The invoice is paid.", "hypothesis": "The invoice is not paid.", "label": "contradiction"}]
    info = gpu_train.export_parts(torch, model, tok, "t", tmp_path, rows)
    parts = [tmp_path / p for p in info["parts"]]
    assert len(parts) == 2 and all(p.stat().st_size <= gpu_train.PART_BYTES for p in parts)
    joined = b"".join(p.read_bytes() for p in parts)
    assert hashlib.sha256(joined).hexdigest() == info["sha256"] and len(joined) == info["bytes"]
    import onnxruntime as ort
    sess = ort.InferenceSession(joined, providers=["CPUExecutionProvider"])
    enc = tok("The invoice is paid.", "The invoice is not paid.", return_tensors="np")
    logits = sess.run(["logits"], {k: enc[k].astype(np.int64) for k in ("input_ids", "attention_mask", "token_type_ids")})[0]
    assert logits.shape == (1, 3) and int(logits.argmax()) == 2  # the shipped model calls this a contradiction


def test_read_back_weights_agree_with_the_int8_graph():
    """onnx_weights reads every parameter of the shipped graph back; torch with those weights
    gives the int8 graph's labels (the graph also quantises activations, so not every time)."""
    onnx_weights = load_script("onnx_weights")
    pairs = [("A woman is reading a book in a park.", "A person is reading."),
             ("A woman is reading a book in a park.", "A man is swimming."),
             ("Two dogs run across a snowy field.", "Animals are outside."),
             ("Two dogs run across a snowy field.", "The dogs are asleep indoors."),
             ("A chef slices onions in a busy kitchen.", "Someone is cooking."),
             ("A chef slices onions in a busy kitchen.", "The chef is a woman from Paris."),
             ("Children play soccer after school.", "Kids are playing a sport."),
             ("Children play soccer after school.", "The children are sleeping.")]
    got = onnx_weights.check(pairs=pairs)
    assert got["pairs"] == 8 and got["argmax_agreement"] >= 7 / 8, got


def test_a_graph_it_cannot_map_is_refused(tmp_path):
    """A quantised weight that no MatMulInteger node names, and that has no parameter name, is
    not guessed at: the error says the graph is not one train_nli.py exported."""
    import onnx

    onnx_weights = load_script("onnx_weights")
    model = onnx.load(str(onnx_weights.MODEL_DIR / "model.int8.onnx"))
    node = next(n for n in model.graph.node if n.op_type == "MatMulInteger")
    old = node.output[0]
    node.output[0] = "renamed_" + old
    bad = tmp_path / "bad.onnx"
    onnx.save(model, str(bad))
    with pytest.raises(ValueError, match="not one train_nli.py exported"):
        onnx_weights.state_dict_from_int8_onnx(bad)


@pytest.mark.parametrize("line, message", [
    ({"premise": "p", "hypothesis": "h", "label": "maybe"}, "line 2: needs premise, hypothesis and a label"),
    ({"premise": "", "hypothesis": "h", "label": "neutral"}, "line 2: needs premise"),
])
def test_bad_training_rows_name_the_line(tmp_path, line, message):
    gpu_train = load_script("gpu_train")
    ok = {"premise": "p", "hypothesis": "h", "label": "neutral"}
    (tmp_path / "train.jsonl").write_text(json.dumps(ok) + "\n" + json.dumps(line) + "\n")
    with pytest.raises(SystemExit, match=message):
        gpu_train.read_rows(tmp_path, "train")
    with pytest.raises(SystemExit, match="no doc_train.jsonl"):
        gpu_train.read_rows(tmp_path, "doc_train")


def test_document_pairs_never_come_from_validation_or_held_out(tmp_path):
    """nli_doc_pairs.py refuses the validation and held-out pairs; from dev pairs it writes the
    whole document with the gold label and, for an unsupported claim only, its windows as neutral."""
    doc_pairs = load_script("nli_doc_pairs")
    common = load_script("_common")
    for bad in (common.VALIDATION_PAIRS, ROOT / "benchmarks" / "heldout" / "verifier_pairs_heldout.jsonl"):
        with pytest.raises(SystemExit, match="never train the model"):
            doc_pairs.main(["--files", str(bad), "--out", str(tmp_path / "x.jsonl")])
    rows = [{"id": "a", "premise": "Invoice 7 is due on 3 May 2026. It was issued by Orin Ltd. Payment is by wire.",
             "hypothesis": "Invoice 7 is due on 3 May 2026.", "label": "supported"},
            {"id": "b", "premise": "Invoice 7 is due on 3 May 2026. It was issued by Orin Ltd. Payment is by wire.",
             "hypothesis": "Invoice 7 was approved by Dana.", "label": "unsupported"}]
    out = doc_pairs.doc_pairs(rows)
    whole = [r for r in out if r["source"] == "doc_whole"]
    assert [(r["pair"], r["label"]) for r in whole] == [("a", "entailment"), ("b", "neutral")]
    windows = [r for r in out if r["source"] == "doc_window"]
    assert windows and all(r["pair"] == "b" and r["label"] == "neutral" for r in windows)
    assert len(windows) <= 4


def test_oom_stops_that_dtypes_larger_batches(tmp_path, monkeypatch, capsys):
    """An out-of-memory error at one batch size skips it and every larger one for that dtype, at
    longer lengths too, and the other dtypes still run (a real OOM cannot be forced on a CPU, so
    the timed call raises torch's own OutOfMemoryError)."""
    bench = load_bench()
    real = bench.time_forward

    def forward(torch, model, inputs, device, warmup, iters, min_s):
        if model.dtype == torch.float32 and inputs["input_ids"].shape[0] >= 4:
            raise torch.OutOfMemoryError("CUDA out of memory. Tried to allocate 2.00 GiB")
        return real(torch, model, inputs, device, warmup, iters, min_s)

    monkeypatch.setattr(bench, "time_forward", forward)
    bench.main(["--device", "cpu", "--lengths", "8,16", "--batches", "2,4,8", "--dtypes", "fp32,bf16", "--warmup", "0",
                "--iters", "1", "--min-seconds", "0", "--out-dir", str(tmp_path)])
    rows = json.loads((tmp_path / "gpu_check.json").read_text())
    status = {(r["dtype"], r["length"], r["batch"]): r["status"] for r in rows["sweep"]}
    assert status[("fp32", 8, 2)] == "ok" and status[("fp32", 8, 4)] == "oom"
    assert status[("fp32", 8, 8)] == status[("fp32", 16, 4)] == status[("fp32", 16, 8)] == "skipped_after_oom"
    assert status[("fp32", 16, 2)] == "ok"
    assert all(v == "ok" for (d, _, _), v in status.items() if d == "bf16")
    assert any("out of memory at length 8, batch 4" in n for n in rows["notes"])
    # bf16 is checked against fp32 on the same batch, not only timed
    (check,) = rows["half_precision_vs_fp32"]
    assert check["dtype"] == "bf16" and 0 <= check["argmax_agreement"] <= 1
    assert "pairs/s" in capsys.readouterr().out


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
