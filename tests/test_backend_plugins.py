"""Entailment backends are plug-ins in the `warrant.backends` entry-point group: the three built
in are declared in pyproject.toml, and a package installed beside Warrant adds a kind that
`--model KIND:TARGET` then loads. The plug-in here is installed for real (a .dist-info folder on
sys.path, which is what pip writes), not patched in."""

import sys
import textwrap
import tomllib
from importlib.metadata import entry_points
from pathlib import Path

import numpy as np
import pytest

from warrant.runtime.verify.backends import ModelMissingError, load_backend
from warrant.runtime.verify.backends.base import NLIBackend
from warrant.runtime.verify.backends.registry import BUILTIN, GROUP, BackendLoadError, backend_kinds

ROOT = Path(__file__).resolve().parents[1]


def install(tmp_path: Path, monkeypatch, entries: str, module: str = "", dist: str = "mynli") -> None:
    """A distribution `dist` with `entries` in its entry_points.txt and `module` as mynli.py."""
    info = tmp_path / f"{dist}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[{GROUP}]\n{entries}\n")
    if module:
        (tmp_path / f"{dist}.py").write_text(textwrap.dedent(module))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, dist, raising=False)


PLUGIN = """
    import numpy as np
    from warrant.runtime.verify.backends.base import NLIBackend

    class Overlap(NLIBackend):
        name = "overlap"

        def __init__(self, target, device):
            self.target, self.device = target, device

        def score(self, pairs):
            # P(entailment) = the share of the hypothesis's words found in the premise
            out = []
            for premise, hypothesis in pairs:
                words = hypothesis.lower().split()
                p = sum(w in premise.lower().split() for w in words) / max(len(words), 1)
                out.append([p, 1 - p, 0.0])
            return np.array(out, dtype=np.float32)

    def load(target, *, device="cpu", **kw):
        return Overlap(target, device)
"""


def test_pyproject_declares_exactly_the_builtin_backends_and_they_are_installed():
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["entry-points"][GROUP]
    assert declared == BUILTIN
    installed = {ep.name: ep.value for ep in entry_points(group=GROUP)}
    assert installed.items() >= BUILTIN.items(), "reinstall: pip install --no-deps -e ."


def test_an_installed_plugin_is_a_model_spec_kind(tmp_path, monkeypatch):
    install(tmp_path, monkeypatch, "overlap = mynli:load", PLUGIN)
    assert backend_kinds()["overlap"] == "mynli:load"
    b = load_backend("overlap:/models/x", device="cuda:1")
    assert isinstance(b, NLIBackend) and (b.target, b.device) == ("/models/x", "cuda:1")
    assert np.allclose(b.score([("the cap is 250", "cap is 250")])[0], [1.0, 0.0, 0.0])


def test_the_default_is_the_builtin_onnx_kind():
    assert load_backend().name.startswith("onnx:")


def test_an_unknown_kind_names_the_installed_ones():
    with pytest.raises(ModelMissingError, match=r"no backend kind 'mynli'; installed: onnx, torch, vllm"):
        load_backend("mynli:/models/x")


def test_a_plugin_may_not_take_a_builtin_name(tmp_path, monkeypatch):
    install(tmp_path, monkeypatch, "onnx = mynli:load", PLUGIN)
    with pytest.raises(BackendLoadError, match="a backend named 'onnx' is already warrant.runtime.verify.backends.onnx_nli:load"):
        load_backend()


@pytest.mark.parametrize("entry, match", [
    ("broken = mynli_missing:load", r"backend broken = mynli_missing:load: ModuleNotFoundError"),
    ("broken = mynli:NOT_CALLABLE", r"not callable"),
])
def test_a_broken_plugin_is_named(tmp_path, monkeypatch, entry, match):
    install(tmp_path, monkeypatch, entry, textwrap.dedent(PLUGIN) + "NOT_CALLABLE = 3\n")
    with pytest.raises(BackendLoadError, match=match):
        load_backend("broken:x")
