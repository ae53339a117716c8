"""Any Hugging Face-format NLI cross-encoder on torch (CPU or GPU), from a local path or, where a
hub is reachable and allowed, by name."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Sequence

import numpy as np

from warrant.runtime.verify.backends.base import (
    ModelMissingError, NLIBackend, calibrate, label_permutation, length_batches, read_pass_threshold, to_fixed_order,
)


class TorchNLI(NLIBackend):
    def __init__(self, model: str | Path, *, device: str = "cpu", max_length: int = 256, batch_size: int = 32, dtype: str | None = None):
        try:
            import torch
            from transformers import AutoModelForSequenceClassification, AutoTokenizer
        except ImportError as exc:  # the default install (the ONNX model) has neither
            raise ModelMissingError(
                f"the torch backend needs the [torch] extra ({exc.name or exc} is not installed): install torch==2.13.0 "
                "(the CPU wheel) first, then pip install 'warrant-runtime[torch]'"
            ) from None

        self._torch = torch
        local = Path(model).is_dir()
        if not local and os.environ.get("HF_HUB_OFFLINE") == "1":
            raise ModelMissingError(
                f"{model!r} is not a local folder and the model hub is off (HF_HUB_OFFLINE=1): "
                "pass the path of a Hugging Face-format checkpoint"
            )
        try:
            self._tok = AutoTokenizer.from_pretrained(str(model))
            self._model = AutoModelForSequenceClassification.from_pretrained(str(model))
        except OSError as exc:
            raise ModelMissingError(f"cannot load an NLI checkpoint from {model!r}: {exc}") from None
        self._perm = label_permutation(self._model.config.id2label)
        self.temperature = float(getattr(self._model.config, "warrant_temperature", 1.0))
        self.pass_threshold = read_pass_threshold(self._model.config.to_dict(), f"{model}/config.json")
        torch_dtype = {"fp16": torch.float16, "bf16": torch.bfloat16}.get(dtype or "")
        self._model.to(device=device, dtype=torch_dtype) if torch_dtype else self._model.to(device)
        self._model.eval()
        self.device, self.max_length, self.batch_size = device, max_length, batch_size
        self.name = f"torch:{Path(str(model)).name}@{device}"

    def score(self, pairs: Sequence[tuple[str, str]]) -> np.ndarray:
        torch = self._torch
        if not pairs:
            return np.zeros((0, 3), dtype=np.float32)
        premises, hyps = [p for p, _ in pairs], [h for _, h in pairs]
        lengths = [len(x) for x in self._tok(premises, hyps, truncation="only_first", max_length=self.max_length)["input_ids"]]
        out = np.zeros((len(pairs), len(self._perm)), dtype=np.float32)
        with torch.inference_mode():
            for idx in length_batches(lengths, self.batch_size):
                batch = self._tok(
                    [premises[i] for i in idx], [hyps[i] for i in idx],
                    truncation="only_first", max_length=self.max_length, padding=True, return_tensors="pt",
                ).to(self.device)
                logits = self._model(**batch).logits.float()
                out[idx] = torch.softmax(logits, dim=-1).cpu().numpy()
        return calibrate(to_fixed_order(out, self._perm), self.temperature)


def load(target: str, *, device: str = "cpu", **kw) -> TorchNLI:
    """The `warrant.backends` factory for "torch:DIR_OR_NAME"."""
    return TorchNLI(target, device=device, **kw)
