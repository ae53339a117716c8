"""Every measured figure a README quotes is checked against the JSON the benchmark wrote.

Convention: a figure is followed, with nothing in between, by a marker naming where it comes from
and how it is written:

    2 replicas 72.4/s<!-- fig scale.json#/throughput/Serve pool, 2 replicas/per_s | {:.1f}/s -->

`FILE#POINTER` is a file of benchmarks/results/ (or, with a `/` in it, a path from the repository
root, e.g. an eval baseline under evals/) and a JSON Pointer (RFC 6901: `~1` for a `/` in a
key) into it; several sources are separated by ` ; ` and fill `{0}`, `{1}`, ... of the format. The
format is Python's, and the README text just before the marker must end with it, formatted. A
rerun benchmark whose figures moved then fails here until the README says what the JSON says.

Every decimal figure with a unit (`45.6/s`, `0.83x`, `91.2%`, `3.4 s`, `0.50 ms`) in these READMEs
must carry a marker, unless listed in UNCHECKED with the reason it cannot be.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent
RESULTS = REPO / "benchmarks" / "results"
READMES = ["README.md", "benchmarks/README.md", "actors/README.md", "evals/README.md",
           *sorted(str(p.relative_to(REPO)) for p in (REPO / "runtime").rglob("README.md"))]
MARK = re.compile(r"<!-- fig (?P<src>.+?) \| (?P<fmt>.+?) -->")
FIGURE = re.compile(r"(?<![\w.])\d[\d,]*\.\d+ ?(?:/s|x|%|ms|s|MiB|GiB|MB)(?!\w)")
# (README, figure as written): why no JSON can check it.
UNCHECKED: dict[tuple[str, str], str] = {
    ("actors/README.md", "0.1 s"): "Ray Serve's default setting, quoted as configuration, not a measurement",
}


@cache
def _load(name: str) -> Any:
    path = REPO / name if "/" in name else RESULTS / name
    if not path.is_file():
        raise AssertionError(f"marker names {name}, which is not a file of benchmarks/results/ (nor a path from the repository root)")
    return json.loads(path.read_text())


def resolve(src: str) -> Any:
    name, sep, pointer = src.partition("#")
    if not sep or not pointer.startswith("/"):
        raise AssertionError(f"marker source {src!r}: expected FILE.json#/json/pointer")
    node = _load(name)
    for raw in pointer[1:].split("/"):
        key = raw.replace("~1", "/").replace("~0", "~")
        try:
            node = node[int(key)] if isinstance(node, list) else node[key]
        except (KeyError, IndexError, ValueError):
            raise AssertionError(f"{src}: no {key!r} in {name} (pointer {pointer})") from None
    return node


def mismatches(text: str, where: str) -> list[str]:
    """What the text says next to each marker, where the JSON says something else."""
    wrong = []
    for m in MARK.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        want = m["fmt"].format(*(resolve(s.strip()) for s in m["src"].split(" ; ")))
        before = text[: m.start()]
        if not before.endswith(want):
            wrong.append(f"{where}:{line}: the README says {before[-len(want):]!r}, {m['src']} gives {want!r}")
    return wrong


def unmarked(text: str, where: str) -> list[str]:
    return [f"{where}:{text.count(chr(10), 0, f.start()) + 1}: {f.group()!r}"
            for f in FIGURE.finditer(text)
            if not text.startswith("<!-- fig ", f.end()) and (where, f.group()) not in UNCHECKED]


@pytest.mark.parametrize("readme", READMES)
def test_every_marked_figure_matches_its_json(readme):
    assert mismatches((REPO / readme).read_text(), readme) == []


@pytest.mark.parametrize("readme", READMES)
def test_every_decimal_figure_carries_a_marker(readme):
    assert unmarked((REPO / readme).read_text(), readme) == []


def test_unchecked_figures_are_still_in_their_readme():
    for (readme, figure), why in UNCHECKED.items():
        assert why and figure in (REPO / readme).read_text(), (readme, figure)


def test_a_stale_figure_is_caught():
    ratio = resolve("scale.json#/throughput/Serve pool, 2 replicas/ratio")
    good = f"2 replicas ({ratio:.3g}x<!-- fig scale.json#/throughput/Serve pool, 2 replicas/ratio | {{:.3g}}x -->)"
    assert mismatches(good, "t") == []
    stale = good.replace(f"({ratio:.3g}x", "(1.57x")
    assert len(mismatches(stale, "t")) == 1
    assert unmarked("two replicas ran at 1.57x here", "t") == ["t:1: '1.57x'"]
    with pytest.raises(AssertionError, match="no 'nope'"):
        resolve("scale.json#/throughput/nope")


def test_the_scale_simulation_starts_from_the_current_scale_run():
    """scale_simulation.json is derived from scale.json (or scale_cuda.json): its per-replica input
    must be that run's 1-replica figure, not an earlier run's."""
    sim = _load("scale_simulation.json")
    source = _load(f"{sim['source']}.json")["throughput"]
    one, two = source["Serve pool, 1 replica"]["per_s"], source["Serve pool, 2 replicas"]["per_s"]
    assert sim["per_replica_per_s"] == one
    assert sim["measured_two_replica_ratio"] == round(two / (2 * one), 3)
    assert sim["rows"][0]["props_per_s"] == round(one, 1)
