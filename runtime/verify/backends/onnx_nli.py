"""An NLI cross-encoder exported to ONNX (int8 by default), on ONNX Runtime. The CPU default."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Sequence

import numpy as np

from runtime.verify.backends.base import (
    ModelMissingError,
    NLIBackend,
    calibrate,
    label_permutation,
    length_batches,
    read_config,
    softmax,
    to_fixed_order,
)


class OnnxNLI(NLIBackend):
    def __init__(self, model_dir: str | Path, *, model_file: str | None = None, max_length: int = 256, batch_size: int = 32, threads: int | None = None):
        import onnxruntime as ort
        from tokenizers import Tokenizer

        self.model_dir = Path(model_dir)
        onnx_files = [model_file] if model_file else sorted(p.name for p in self.model_dir.glob("*.onnx"))
        if not onnx_files or not (self.model_dir / onnx_files[0]).is_file():
            raise ModelMissingError(f"no .onnx model in {self.model_dir}")
        if not (self.model_dir / "tokenizer.json").is_file():
            raise ModelMissingError(f"no tokenizer.json in {self.model_dir}")
        self.name = f"onnx:{self.model_dir.name}/{onnx_files[0]}"
        self.max_length, self.batch_size = max_length, batch_size
        config = read_config(self.model_dir)
        self._perm = label_permutation(config.get("id2label") or {})
        self.temperature = float(config.get("warrant_temperature", 1.0))
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = threads or int(os.environ.get("WARRANT_NLI_THREADS", "0")) or (os.cpu_count() or 1)
        opts.inter_op_num_threads = 1
        self._session = ort.InferenceSession(str(self.model_dir / onnx_files[0]), opts, providers=["CPUExecutionProvider"])
        self._inputs = {i.name for i in self._session.get_inputs()}
        self._tok = Tokenizer.from_file(str(self.model_dir / "tokenizer.json"))
        # Truncate the evidence, never the hypothesis: a cut hypothesis is a different claim.
        self._tok.enable_truncation(max_length, strategy="only_first")
        self._tok.no_padding()

    def score(self, pairs: Sequence[tuple[str, str]]) -> np.ndarray:
        if not pairs:
            return np.zeros((0, 3), dtype=np.float32)
        enc = self._tok.encode_batch([(p, h) for p, h in pairs])
        out = np.zeros((len(pairs), len(self._perm)), dtype=np.float32)
        for idx in length_batches([len(e.ids) for e in enc], self.batch_size):
            width = max(len(enc[i].ids) for i in idx)
            feeds = {k: np.zeros((len(idx), width), dtype=np.int64) for k in ("input_ids", "attention_mask", "token_type_ids")}
            for row, i in enumerate(idx):
                e, n = enc[i], len(enc[i].ids)
                feeds["input_ids"][row, :n] = e.ids
                feeds["attention_mask"][row, :n] = 1
                feeds["token_type_ids"][row, :n] = e.type_ids
            logits = self._session.run(None, {k: v for k, v in feeds.items() if k in self._inputs})[0]
            out[idx] = softmax(logits.astype(np.float32))
        return calibrate(to_fixed_order(out, self._perm), self.temperature)
