"""Everything the project names as a module lives under the one import root, `warrant`.

From the repository root the folders `runtime/`, `ledger/`, ... are still importable as top-level
packages, so a stale `examples.x:f` in a tool spec imports a second copy of the module instead of
failing: state kept in the first copy (an outbox, a registry) silently splits in two."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("runtime", "ledger", "actors", "examples", "evals", "models")
# a module path in an import statement, an entry point ("pkg.mod:attr"), `python -m pkg.mod`, or a
# Serve import_path, that starts at a folder instead of at `warrant.`
STALE = re.compile(
    rf"(?:^\s*|[\"'])(?:from|import)\s+(?:{'|'.join(FOLDERS)})\b"
    rf"|[\"'](?:{'|'.join(FOLDERS)})\.[a-z_][a-z0-9_.]*:[A-Za-z_]"
    rf"|-m\s+(?:{'|'.join(FOLDERS)})\.[a-z_]"
    rf"|import_path:\s*(?:{'|'.join(FOLDERS)})\.",
    re.M,
)
# measured outputs record the module paths of the commits they measured
SKIP = ("benchmarks/results/", "benchmarks/heldout/")


def tracked(*patterns: str) -> list[Path]:
    out = subprocess.run(["git", "ls-files", *patterns], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return [ROOT / p for p in out.split() if not p.startswith(SKIP)]


def test_no_module_path_outside_the_warrant_root():
    stale = []
    for path in tracked("*.py", "*.json", "*.yaml", "*.yml", "*.toml", "*.md", "Makefile", "*.sh"):
        if path == Path(__file__).resolve():
            continue
        for m in STALE.finditer(path.read_text(errors="replace")):
            stale.append(f"{path.relative_to(ROOT)}: {m.group(0).strip()}")
    assert stale == []


def test_the_check_sees_each_kind_of_stale_path():
    for text in ('from runtime.gate import Gate', 'write_text("from runtime.verify.packs.base import Pack")', '"entrypoint": "examples.invoice_audit.tools_impl:send_email"',
                 'python -m ledger.audit', 'import_path: actors.serve_app:app_builder'):
        assert STALE.search(text), text
    for text in ('from warrant.runtime.gate import Gate', '"warrant.examples.invoice_audit.tools_impl:send_email"',
                 'ledger.append(record)', 'the runtime.'):
        assert not STALE.search(text), text
