"""Choosing an entailment backend from one string, as `--model` takes it.

    None / "default"      the embedded int8 ONNX model (models/nli-minilm-l6, or $WARRANT_NLI_MODEL)
    "onnx:DIR"            an ONNX export with tokenizer.json and config.json
    "torch:DIR_OR_NAME"   a Hugging Face-format checkpoint on torch (CPU or --device cuda)
    "vllm:DIR_OR_NAME"    a generative checker on vLLM (GPU, extra [gpu]); Yes/No logprobs
    "DIR"                 detected: *.onnx -> onnx, config.json + weights -> torch
"""

from __future__ import annotations

import os
from importlib.resources import files
from pathlib import Path

from warrant.runtime.verify.backends.base import ModelMissingError, NLIBackend

def embedded_model_dir() -> Path:
    """The model shipped as package data of `warrant.models`: a real folder in a wheel install and in
    an editable one (the ONNX runtime and the tokenizer need file paths, not resource streams)."""
    return Path(str(files("warrant.models") / "nli-minilm-l6"))


def default_model_dir() -> Path:
    return Path(os.environ.get("WARRANT_NLI_MODEL") or embedded_model_dir())


def load_backend(spec: str | None = None, *, device: str = "cpu", **kw) -> NLIBackend:
    if spec in (None, "", "default"):
        d = default_model_dir()
        if not any(d.glob("*.onnx")):
            raise ModelMissingError(
                f"the embedded NLI model is missing: no .onnx file in {d}. Rebuild it with "
                "`python benchmarks/train_nli.py` or pass --model PATH"
            )
        return _onnx(d, **kw)
    kind, _, target = spec.partition(":") if spec.split(":", 1)[0] in ("onnx", "torch", "vllm") else ("", "", spec)
    if kind == "onnx":
        return _onnx(Path(target), **kw)
    if kind == "torch":
        from warrant.runtime.verify.backends.torch_nli import TorchNLI

        return TorchNLI(target, device=device, **kw)
    if kind == "vllm":
        from warrant.runtime.verify.backends.vllm_judge import VllmJudge

        return VllmJudge(target, **kw)
    path = Path(spec)
    if path.is_dir():
        if any(path.glob("*.onnx")):
            return _onnx(path, **kw)
        if (path / "config.json").is_file():
            from warrant.runtime.verify.backends.torch_nli import TorchNLI

            return TorchNLI(path, device=device, **kw)
        raise ModelMissingError(f"{path} holds neither an .onnx model nor a Hugging Face checkpoint (config.json + weights)")
    if "/" in spec and not path.exists() and not spec.startswith((".", "/")):
        from warrant.runtime.verify.backends.torch_nli import TorchNLI

        return TorchNLI(spec, device=device, **kw)  # a hub name: allowed only where a hub is reachable
    raise ModelMissingError(f"no model at {spec!r}")


def _onnx(path: Path, **kw) -> NLIBackend:
    from warrant.runtime.verify.backends.onnx_nli import OnnxNLI

    if not path.is_dir():
        raise ModelMissingError(f"no model folder at {path}")
    return OnnxNLI(path, **kw)
