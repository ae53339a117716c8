"""The READMEs' Python examples run as written, against the installed package.

Each block runs in its own interpreter, the blocks of one README in order in one scratch folder (as a
reader would paste them into one shell), which links `examples/` and `evals/` from the repository
(the examples name those paths relative to a checkout). An example that drifts from the API (a
renamed module, a changed signature) fails here instead of in a reader's shell."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BLOCK = re.compile(r"^```python\n(.*?)^```", re.M | re.S)
# Blocks that need a running service (a Ray verifier pool, an MCP server) are run by their own
# tests (tests/ray, tests/memory); the memory example reads this repository's HEAD, so it runs in
# the checkout itself.
NEEDS_SERVICE = {("actors/README.md", 0), ("runtime/memory/README.md", 1)}
IN_CHECKOUT = {("runtime/memory/README.md", 0)}
# what a block must print, where its README says so
PRINTS = {("README.md", 0): "contradicted"}


def blocks() -> list[tuple[str, int, str]]:
    out = []
    for md in sorted(subprocess.run(["git", "ls-files", "*.md"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()):
        if md.startswith("benchmarks/heldout/"):
            continue
        for i, m in enumerate(BLOCK.finditer((ROOT / md).read_text())):
            out.append((md, i, m.group(1)))
    return out


ALL = blocks()


def test_the_readmes_have_examples_to_run():
    assert len(RUNNABLE) >= 12


@pytest.fixture(scope="module")
def scratch(tmp_path_factory):
    made: dict[str, Path] = {}

    def folder(md: str) -> Path:
        if md not in made:
            made[md] = tmp_path_factory.mktemp(md.replace("/", "_"))
            for name in ("examples", "evals"):
                (made[md] / name).symlink_to(ROOT / name)
        return made[md]

    return folder


RUNNABLE = [b for b in ALL if (b[0], b[1]) not in NEEDS_SERVICE]


@pytest.mark.parametrize("md,i,code", RUNNABLE, ids=[f"{md}#{i}" for md, i, _ in RUNNABLE])
def test_readme_example_runs(md, i, code, scratch):
    tmp_path = scratch(md)
    cwd = ROOT if (md, i) in IN_CHECKOUT else tmp_path
    env = dict(os.environ, LANCEDB_LOG="error", TMPDIR=str(tmp_path))
    # /tmp paths in an example are the reader's scratch space: give each run its own
    code = code.replace('"/tmp/', f'"{tmp_path}/tmp/')
    r = subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, f"{md} example {i}:\n{r.stdout[-2000:]}\n{r.stderr[-3000:]}"
    if (md, i) in PRINTS:
        assert r.stdout.split() == [PRINTS[(md, i)]], r.stdout
