"""Shared by the evaluation tests: the shipped gold sets, and a writable copy of one."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
EVALS = ROOT / "evals" / "invoice_audit"
GOLD = EVALS / "gold"
ADVERSARIAL = EVALS / "gold_adversarial"


@pytest.fixture
def gold_copy(tmp_path):
    dst = tmp_path / "gold"
    shutil.copytree(GOLD, dst)
    return dst


def edit_yaml(path: Path, fn) -> None:
    doc = yaml.safe_load(path.read_text())
    fn(doc)
    path.write_text(yaml.safe_dump(doc, sort_keys=False, width=200))
