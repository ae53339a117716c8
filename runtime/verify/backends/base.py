"""The one interface every entailment backend implements.

`score(pairs)` takes (premise, hypothesis) pairs and returns an (n, 3) array of probabilities in
the fixed order of LABELS, whatever order the underlying checkpoint uses: each backend maps its
model's own label names (read from its config) onto this order.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from pathlib import Path
from typing import Sequence

import numpy as np

LABELS = ("entailment", "neutral", "contradiction")
ENTAIL, NEUTRAL, CONTRA = 0, 1, 2

_ALIASES = {
    "entailment": ENTAIL, "entail": ENTAIL, "entails": ENTAIL, "supported": ENTAIL, "yes": ENTAIL,
    "neutral": NEUTRAL, "not_entailment": NEUTRAL, "unsupported": NEUTRAL, "no": NEUTRAL,
    "contradiction": CONTRA, "contradict": CONTRA, "contradicts": CONTRA, "refuted": CONTRA,
}


class ModelMissingError(FileNotFoundError):
    """No usable model where one was asked for; the message says where it looked and what to do."""


class NLIBackend(ABC):
    name: str = "nli"
    max_length: int = 256
    temperature: float = 1.0  # calibration; 1.0 = the model's raw probabilities
    # P(entailment) at or above which this model's support may pass a statement (every anchor of
    # the claim found too); None: its support alone passes nothing. A property of the model, like
    # its temperature: `warrant_pass_threshold` in its config.json, chosen on pairs it never
    # trained on. A checkpoint that carries none is trusted to contradict and to rank, not to pass.
    pass_threshold: float | None = None

    @abstractmethod
    def score(self, pairs: Sequence[tuple[str, str]]) -> np.ndarray: ...


def label_permutation(id2label: dict) -> list[int]:
    """For each model output index, which of LABELS it is. A model that has no contradiction
    label (a 2-way checker) maps its negative label to neutral."""
    perm = []
    for i in range(len(id2label)):
        name = str(id2label.get(i, id2label.get(str(i), ""))).strip().lower().replace(" ", "_")
        if name not in _ALIASES:
            raise ModelMissingError(
                f"cannot tell what label {i} ({name!r}) of this model means; expected names like "
                f"{', '.join(LABELS)} in config.json id2label"
            )
        perm.append(_ALIASES[name])
    return perm


def read_config(model_dir: Path) -> dict:
    cfg = model_dir / "config.json"
    if not cfg.is_file():
        raise ModelMissingError(f"{model_dir} has no config.json, so its label order is unknown")
    return json.loads(cfg.read_text())


def read_pass_threshold(config: dict, where: str) -> float | None:
    """`warrant_pass_threshold` from a model's config.json: a probability in (0, 1], or absent/null."""
    t = config.get("warrant_pass_threshold")
    if t is None:
        return None
    if isinstance(t, bool) or not isinstance(t, (int, float)) or not 0.0 < float(t) <= 1.0:
        raise ModelMissingError(f"{where}: warrant_pass_threshold is {t!r}; expected a probability in (0, 1] or null (the model passes nothing alone)")
    return float(t)


def calibrate(probs: np.ndarray, temperature: float) -> np.ndarray:
    """Temperature scaling on probabilities: p**(1/T) renormalised equals softmax(logits / T),
    so it works for any backend. T is fitted on held-out data (benchmarks/calibrate_nli.py) and
    stored as `warrant_temperature` in the model's config.json."""
    if temperature == 1.0:
        return probs
    scaled = np.power(np.clip(probs, 1e-12, 1.0), 1.0 / temperature)
    return scaled / scaled.sum(axis=1, keepdims=True)


def to_fixed_order(probs: np.ndarray, perm: list[int]) -> np.ndarray:
    out = np.zeros((probs.shape[0], 3), dtype=np.float32)
    for i, j in enumerate(perm):
        out[:, j] += probs[:, i]
    return out


def softmax(x: np.ndarray) -> np.ndarray:
    x = x - x.max(axis=1, keepdims=True)
    e = np.exp(x)
    return e / e.sum(axis=1, keepdims=True)


def length_batches(lengths: Sequence[int], batch_size: int) -> list[np.ndarray]:
    """Indices grouped into batches of similar length: padding every pair to the longest in the
    whole input costs ~5x on CPU."""
    order = np.argsort(np.asarray(lengths), kind="stable")
    return [order[i : i + batch_size] for i in range(0, len(order), batch_size)]
