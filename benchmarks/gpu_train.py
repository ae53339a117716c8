"""Continue training the embedded NLI model on a lent GPU and bring it back as int8 ONNX graphs.

Run through ``benchmarks/gpu_check.sh`` (``--cpu-smoke`` runs the same path here on a few hundred
pairs). The GPU machine has torch, transformers, onnx and onnxruntime but none of the project's
other dependencies, and only the working tree travels there, so:

* the starting weights are the shipped ``models/nli-minilm-l6/model.int8.onnx`` read back into
  torch (``onnx_weights.py``): the fp32 checkpoint and the base wheel are too big to carry;
* the data is prepared here and carried gzipped: ``nli_data.py`` (SNLI train minus the validation
  split, HaluEval QA/dialogue, synthetic pairs) and ``nli_doc_pairs.py`` (the verifier's dev pairs
  as the verifier shows them to the model). The held-out set never travels;
* each variant is one data mix (``name:doc_repeat``; 0 = no document pairs, the control), trained
  with the same seed, schedule and budget, exported to int8 exactly as ``train_nli.py`` exports,
  and cut into parts under the 16 MiB a returned file may have (``cat`` joins them; the JSON
  records each whole file's sha256).

Nothing is chosen here: the variants come back, and the verifier's validation split chooses
between them on the CPU machine. SNLI validation accuracy is printed for each; the SNLI test split
is scored for the report only.
"""
from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from onnx_weights import MODEL_DIR, load_torch_model  # noqa: E402
from train_nli import LABEL2ID, collate, encode_pairs, export_int8, log, make_batches  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
PART_BYTES = 15 * 2**20


def read_rows(data_dir: Path, stem: str) -> list[dict]:
    """``stem.jsonl`` or ``stem.jsonl.gz``; every line needs premise, hypothesis and label."""
    for path in (data_dir / f"{stem}.jsonl", data_dir / f"{stem}.jsonl.gz"):
        if path.is_file():
            opener = gzip.open if path.suffix == ".gz" else open
            with opener(path, "rt", encoding="utf-8") as fh:
                rows = [json.loads(line) for line in fh if line.strip()]
            bad = [i for i, r in enumerate(rows) if r.get("label") not in LABEL2ID or not r.get("premise") or not r.get("hypothesis")]
            if bad:
                raise SystemExit(f"{path}: line {bad[0] + 1}: needs premise, hypothesis and a label in {sorted(LABEL2ID)}")
            return rows
    raise SystemExit(f"{data_dir}: no {stem}.jsonl(.gz); build it with benchmarks/nli_data.py / nli_doc_pairs.py")


def variant_list(text: str) -> list[tuple[str, int]]:
    out = []
    for item in text.split(","):
        name, _, rep = item.partition(":")
        if not name.isidentifier() or not rep.isdigit():
            raise argparse.ArgumentTypeError(f"variants are name:doc_repeat (e.g. docs:4,control:0), got {item!r}")
        out.append((name, int(rep)))
    return out


def accuracy(torch, model, tok, rows: list[dict], device: str, max_length: int, batch: int = 256) -> dict:
    enc, y, lengths = encode_pairs(tok, rows, max_length)
    order = sorted(range(len(rows)), key=lengths.__getitem__)
    pred = np.zeros(len(rows), dtype=np.int64)
    model.eval()
    with torch.inference_mode():
        for s in range(0, len(order), batch):
            b = order[s:s + batch]
            x = {k: v.to(device) for k, v in collate(enc, b, tok.pad_token_id).items()}
            pred[b] = model(**x).logits.float().argmax(-1).cpu().numpy()
    return {"pairs": len(rows), "accuracy": round(float((pred == y).mean()), 4),
            "recall_by_label": {l: round(float((pred[y == i] == i).mean()), 4) if (y == i).any() else None
                                for l, i in LABEL2ID.items()}}


def train_variant(torch, tok, enc, labels, lengths, general: list[int], docs: list[int], repeat: int, args, device: str,
                  deadline: float) -> tuple[object, dict]:
    random.seed(args.seed)
    torch.manual_seed(args.seed)
    model = load_torch_model().to(device)
    idx = general + docs * repeat
    rng = random.Random(args.seed)
    epochs = [[[idx[j] for j in b] for b in make_batches([lengths[i] for i in idx], args.batch_size, rng)]
              for _ in range(args.epochs)]
    total = sum(len(e) for e in epochs)
    decay = [p for n, p in model.named_parameters() if not any(k in n for k in ("bias", "LayerNorm.weight"))]
    no_decay = [p for n, p in model.named_parameters() if any(k in n for k in ("bias", "LayerNorm.weight"))]
    cuda = device.startswith("cuda")
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.01}, {"params": no_decay, "weight_decay": 0.0}],
                            lr=args.lr, fused=cuda)
    model.train()
    step, seen, losses, t0, stopped = 0, 0, [], time.perf_counter(), None
    began, share = time.monotonic(), max(1e-9, deadline - time.monotonic())
    for ep, batches in enumerate(epochs):
        for batch in batches:
            # Linear warmup then decay over whichever ends first, the planned steps or the time
            # share: a run the budget cuts short still ends its schedule at a learning rate near 0.
            progress = max(step / total, (time.monotonic() - began) / share)
            if progress >= 1.0:
                stopped = f"time share used at step {step} of {total}"
                break
            for group in opt.param_groups:
                group["lr"] = args.lr * (progress / args.warmup if progress < args.warmup
                                         else (1.0 - progress) / (1.0 - args.warmup))
            x = {k: v.to(device, non_blocking=True) for k, v in collate(enc, batch, tok.pad_token_id).items()}
            y = torch.from_numpy(labels[batch]).to(device, non_blocking=True)
            with torch.autocast("cuda" if cuda else "cpu", dtype=torch.bfloat16, enabled=cuda):
                logits = model(**x).logits
            loss = torch.nn.functional.cross_entropy(logits.float(), y)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            opt.zero_grad(set_to_none=True)
            step += 1
            seen += len(batch)
            if step % args.log_every == 0 or step == total:
                losses.append(round(float(loss), 4))
                el = time.perf_counter() - t0
                log(f"  ep {ep + 1} step {step}/{total} loss {losses[-1]:.4f} {seen / el:,.0f} pairs/s")
        if stopped:
            break
    if cuda:
        torch.cuda.synchronize()
    el = time.perf_counter() - t0
    model.eval()
    return model, {"pairs_per_epoch": len(idx), "doc_repeat": repeat, "epochs": args.epochs, "steps": step,
                   "steps_planned": total, "stopped_early": stopped, "train_seconds": round(el, 1),
                   "pairs_per_s": round(seen / el, 1) if el else None, "losses": losses,
                   "peak_mem_mib": round(torch.cuda.max_memory_allocated(device) / 2**20, 1) if cuda else None}


def export_parts(torch, model, tok, name: str, out_dir: Path, check_rows: list[dict]) -> dict:
    """int8 graph in parts under PART_BYTES, plus argmax agreement of int8 (ONNX Runtime) with the
    fp32 torch model on ``check_rows``."""
    import onnxruntime as ort

    cpu = model.float().cpu().eval()
    with tempfile.TemporaryDirectory() as tmp:
        int8 = Path(tmp) / f"{name}.int8.onnx"
        export_int8(cpu, tok, Path(tmp) / "fp32.onnx", int8)
        data = int8.read_bytes()
        sess = ort.InferenceSession(str(int8), providers=["CPUExecutionProvider"])
    agree = 0
    for r in check_rows:  # one pair at a time: how the runtime serves the int8 graph
        enc = tok(r["premise"], r["hypothesis"], truncation="longest_first", max_length=256, return_tensors="np")
        feed = {k: enc[k].astype(np.int64) for k in ("input_ids", "attention_mask", "token_type_ids")}
        with torch.inference_mode():
            ref = cpu(**{k: torch.from_numpy(v) for k, v in feed.items()}).logits.numpy()
        agree += int(sess.run(["logits"], feed)[0].argmax() == ref.argmax())
    parts = []
    for k, s in enumerate(range(0, len(data), PART_BYTES)):
        part = out_dir / f"{name}.int8.onnx.part{k}"
        part.write_bytes(data[s:s + PART_BYTES])
        parts.append(part.name)
    return {"sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data), "parts": parts,
            "int8_vs_fp32_argmax_agreement": round(agree / max(1, len(check_rows)), 4), "agreement_pairs": len(check_rows)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 epilog="Example: python benchmarks/gpu_train.py --device cuda --data-dir data/nli_gpu --out-dir $OUT")
    ap.add_argument("--device", default="cuda")
    ap.add_argument("--data-dir", type=Path, default=ROOT / "data" / "nli")
    ap.add_argument("--variants", type=variant_list, default=variant_list("docs:4,control:0"))
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--lr", type=float, default=3e-5)
    ap.add_argument("--warmup", type=float, default=0.03)
    ap.add_argument("--max-length", type=int, default=256)
    ap.add_argument("--seed", type=int, default=21)
    ap.add_argument("--limit", type=int, default=0, help="first N general and N document pairs only (smoke run)")
    ap.add_argument("--eval-limit", type=int, default=0, help="first N SNLI validation/test pairs only (smoke run)")
    ap.add_argument("--agreement-pairs", type=int, default=300)
    ap.add_argument("--log-every", type=int, default=200)
    ap.add_argument("--budget-s", type=float, default=330.0, help="wall-clock budget for all variants")
    ap.add_argument("--out-dir", type=Path, default=ROOT / "benchmarks" / "results")
    ap.add_argument("--out-name", default="gpu_train.json")
    args = ap.parse_args(argv)
    start = time.monotonic()
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "true")
    import torch
    from transformers import AutoTokenizer

    if args.device.startswith("cuda") and not torch.cuda.is_available():
        log(f"--device {args.device}: torch {torch.__version__} sees no CUDA device")
        return 2
    if args.device.startswith("cuda"):
        torch.backends.cuda.matmul.allow_tf32 = True
    tok = AutoTokenizer.from_pretrained(str(MODEL_DIR))
    general = read_rows(args.data_dir, "train")
    if args.limit:
        general = general[: args.limit]
    docs = read_rows(args.data_dir, "doc_train")
    if args.limit:
        docs = docs[: args.limit]
    val, test = read_rows(args.data_dir, "snli_val"), read_rows(args.data_dir, "snli_test")
    if args.eval_limit:
        val, test = val[: args.eval_limit], test[: args.eval_limit]
    rows = general + docs
    t0 = time.perf_counter()
    enc, labels, lengths = encode_pairs(tok, rows, args.max_length)
    log(f"{len(general):,} general + {len(docs):,} document pairs tokenised in {time.perf_counter() - t0:.1f} s "
        f"(mean {np.mean(lengths):.1f} tokens)")
    gen_idx, doc_idx = list(range(len(general))), list(range(len(general), len(rows)))

    def write(result: dict) -> None:
        result["wall_s"] = round(time.monotonic() - start, 1)
        (args.out_dir / args.out_name).write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")

    args.out_dir.mkdir(parents=True, exist_ok=True)
    start_model = load_torch_model().to(args.device)
    result = {"benchmark": "gpu_train", "device": torch.cuda.get_device_name(args.device) if args.device.startswith("cuda") else "cpu",
              "torch": torch.__version__, "start": "models/nli-minilm-l6/model.int8.onnx, dequantised (onnx_weights.py)",
              "start_sha256": hashlib.sha256((MODEL_DIR / "model.int8.onnx").read_bytes()).hexdigest(),
              "config": {k: (v if not isinstance(v, Path) else str(v)) for k, v in vars(args).items() if k not in ("out_dir",)},
              "data": {"general_pairs": len(general), "document_pairs": len(docs),
                       "document_by_source": {s: sum(r.get("source") == s for r in docs) for s in sorted({r.get("source", "") for r in docs})}},
              "start_model": {"snli_val": accuracy(torch, start_model, tok, val, args.device, args.max_length),
                              "doc_train_fit": accuracy(torch, start_model, tok, docs, args.device, args.max_length)},
              "variants": {}}
    del start_model
    log(f"start model: SNLI val {result['start_model']['snli_val']['accuracy']}, "
        f"document pairs {result['start_model']['doc_train_fit']['accuracy']}")
    for k, (name, repeat) in enumerate(args.variants):
        left = args.budget_s - (time.monotonic() - start)
        share = left / (len(args.variants) - k) - 25  # export and scoring after training
        log(f"variant {name}: document pairs x{repeat}, {share:.0f} s for training")
        model, stats = train_variant(torch, tok, enc, labels, lengths, gen_idx, doc_idx, repeat, args, args.device,
                                     time.monotonic() + share)
        stats["snli_val"] = accuracy(torch, model, tok, val, args.device, args.max_length)
        stats["snli_test_reported_once"] = accuracy(torch, model, tok, test, args.device, args.max_length)
        stats["doc_train_fit"] = accuracy(torch, model, tok, docs, args.device, args.max_length)
        try:
            stats["export"] = export_parts(torch, model, tok, name, args.out_dir, val[: args.agreement_pairs])
        except Exception as exc:  # keep the other variant and the figures: the JSON says why
            stats["export"] = {"error": f"{type(exc).__name__}: {exc}"}
            log(f"variant {name}: export failed: {exc!r}")
        result["variants"][name] = stats
        write(result)  # after each variant: a run cut short keeps what it finished
        log(f"variant {name}: SNLI val {stats['snli_val']['accuracy']}, test {stats['snli_test_reported_once']['accuracy']}, "
            f"document pairs (trained on) {stats['doc_train_fit']['accuracy']}, {stats['pairs_per_s']} pairs/s, "
            f"{stats['steps']}/{stats['steps_planned']} steps")
        del model
        if args.device.startswith("cuda"):
            torch.cuda.empty_cache()
    write(result)
    log(f"wrote {args.out_dir / args.out_name} in {result['wall_s']} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
