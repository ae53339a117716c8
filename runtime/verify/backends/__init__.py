"""Entailment backends: base.py (the interface) + one module per provider + registry.py."""

from runtime.verify.backends.base import LABELS, ModelMissingError, NLIBackend
from runtime.verify.backends.registry import default_model_dir, load_backend

__all__ = ["LABELS", "ModelMissingError", "NLIBackend", "default_model_dir", "load_backend"]
