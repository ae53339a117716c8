"""Entailment backends: base.py (the interface) + one module per provider + registry.py."""

from warrant.runtime.verify.backends.base import LABELS, ModelMissingError, NLIBackend
from warrant.runtime.verify.backends.registry import default_model_dir, load_backend

__all__ = ["LABELS", "ModelMissingError", "NLIBackend", "default_model_dir", "load_backend"]
