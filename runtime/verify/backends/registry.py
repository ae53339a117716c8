"""Choosing an entailment backend from one string, as `--model` takes it.

    None / "default"      the embedded int8 ONNX model (models/nli-minilm-l6, or $WARRANT_NLI_MODEL)
    "onnx:DIR"            an ONNX export with tokenizer.json and config.json
    "torch:DIR_OR_NAME"   a Hugging Face-format checkpoint on torch (CPU or --device cuda)
    "vllm:DIR_OR_NAME"    a generative checker on vLLM (GPU, extra [gpu]); Yes/No logprobs
    "KIND:TARGET"         any backend an installed package registers in the `warrant.backends`
                          entry-point group (KIND = the entry point's name)
    "DIR"                 detected: *.onnx -> onnx, config.json + weights -> torch

A backend kind is a factory `load(target: str, *, device: str = "cpu", **kw) -> NLIBackend`. The
three built in are declared in pyproject.toml like any plug-in; `BUILTIN` below names them too, so
a source checkout whose install metadata predates them still finds them (as packs/registry.py
does for the built-in predicate packs). A plug-in, in its own pyproject.toml:

    [project.entry-points."warrant.backends"]
    mynli = "my_pkg.nli:load"          # then: warrant verify ... --model mynli:/models/x
"""

from __future__ import annotations

import os
import re
from importlib.metadata import entry_points
from importlib.resources import files
from pathlib import Path
from pkgutil import resolve_name
from typing import Callable

from warrant.runtime.verify.backends.base import ModelMissingError, NLIBackend

GROUP = "warrant.backends"
BUILTIN = {
    "onnx": "warrant.runtime.verify.backends.onnx_nli:load",
    "torch": "warrant.runtime.verify.backends.torch_nli:load",
    "vllm": "warrant.runtime.verify.backends.vllm_judge:load",
}
BackendFactory = Callable[..., NLIBackend]


class BackendLoadError(RuntimeError):
    """An installed backend plug-in that cannot be loaded: the message names its entry point."""


def embedded_model_dir() -> Path:
    """The model shipped as package data of `warrant.models`: a real folder in a wheel install and in
    an editable one (the ONNX runtime and the tokenizer need file paths, not resource streams)."""
    return Path(str(files("warrant.models") / "nli-minilm-l6"))


def default_model_dir() -> Path:
    return Path(os.environ.get("WARRANT_NLI_MODEL") or embedded_model_dir())


def backend_kinds() -> dict[str, str]:
    """Every backend kind: name -> "module:factory" (the built-ins, then installed plug-ins)."""
    kinds = dict(BUILTIN)
    for ep in sorted(entry_points(group=GROUP), key=lambda e: e.name):
        if kinds.get(ep.name) == ep.value:
            continue  # a built-in, as pyproject.toml declares it
        if ep.name in kinds:
            raise BackendLoadError(f"entry point {ep.name} = {ep.value}: a backend named {ep.name!r} is already {kinds[ep.name]}")
        kinds[ep.name] = ep.value
    return kinds


def backend_factory(kind: str) -> BackendFactory:
    kinds = backend_kinds()
    if kind not in kinds:
        raise ModelMissingError(f"no backend kind {kind!r}; installed: {', '.join(sorted(kinds))} (entry-point group {GROUP})")
    try:
        factory = resolve_name(kinds[kind])
    except Exception as exc:  # a broken plug-in is named, not a traceback from deep inside it
        raise BackendLoadError(f"backend {kind} = {kinds[kind]}: {type(exc).__name__}: {exc}") from exc
    if not callable(factory):
        raise BackendLoadError(f"backend {kind} = {kinds[kind]}: not callable (expected load(target, *, device, **kw))")
    return factory


def load_backend(spec: str | None = None, *, device: str = "cpu", **kw) -> NLIBackend:
    if spec in (None, "", "default"):
        d = default_model_dir()
        if not any(d.glob("*.onnx")):
            raise ModelMissingError(
                f"the embedded NLI model is missing: no .onnx file in {d}. Rebuild it with "
                "`python benchmarks/train_nli.py` or pass --model PATH"
            )
        return backend_factory("onnx")(str(d), device=device, **kw)
    kind, sep, target = spec.partition(":")
    if sep and re.fullmatch(r"[a-z][a-z0-9_]*", kind) and not Path(spec).exists():
        return backend_factory(kind)(target, device=device, **kw)
    path = Path(spec)
    if path.is_dir():
        if any(path.glob("*.onnx")):
            return backend_factory("onnx")(str(path), device=device, **kw)
        if (path / "config.json").is_file():
            return backend_factory("torch")(str(path), device=device, **kw)
        raise ModelMissingError(f"{path} holds neither an .onnx model nor a Hugging Face checkpoint (config.json + weights)")
    if "/" in spec and not path.exists() and not spec.startswith((".", "/")):
        return backend_factory("torch")(spec, device=device, **kw)  # a hub name: allowed only where a hub is reachable
    raise ModelMissingError(f"no model at {spec!r}")
