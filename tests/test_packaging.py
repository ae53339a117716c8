"""The distribution as a user gets it: the built wheel, installed (not editable) into a fresh venv,
run from a folder outside the repository.

The fresh venv borrows the dependencies of the venv running the tests through one .pth line naming
its site-packages folder: Python adds that folder to sys.path but runs no .pth file inside it, so the
repository's editable finder stays off and `warrant` can only come from the installed wheel (checked,
not assumed). No network, no second download of Ray.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import sysconfig
import tomllib
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
CONFIG = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]
PACKAGES: list[str] = CONFIG["packages"]
PACKAGE_DIR: dict[str, str] = CONFIG["package-dir"]
PACKAGE_DATA: dict[str, list[str]] = CONFIG["package-data"]
DIST_INFO = re.compile(r"warrant_runtime-[^/]+\.dist-info/")
# What the default path must never load: torch is extra [torch], transformers comes with it.
HEAVY = ("torch", "transformers", "sentence_transformers", "vllm")
LETTER = "Engagement letter, Client CL-7. Clause 4: Hourly rates shall not exceed USD 250.00. Clause 9: Travel time is not billable.\n"


def _folder(package: str) -> Path:
    """The repository folder a package is built from, by the longest mapped prefix (package-dir)."""
    for top, folder in sorted(PACKAGE_DIR.items(), key=lambda kv: -len(kv[0])):
        if package == top or package.startswith(top + "."):
            return REPO / folder / Path(*package[len(top) + 1 :].split(".")) if package != top else REPO / folder
    raise AssertionError(f"{package} is under no package-dir mapping")


def _package_of(folder: Path) -> str:
    for top, mapped in PACKAGE_DIR.items():
        root = REPO / mapped
        if folder == root or root in folder.parents:
            return ".".join([top, *folder.relative_to(root).parts])
    raise AssertionError(folder)


def _source_files():
    for mapped in PACKAGE_DIR.values():
        for p in sorted((REPO / mapped).rglob("*")):
            if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc":
                yield p


def _glob_re(pattern: str) -> re.Pattern[str]:
    # setuptools globs package data relative to the package folder; `*` does not cross a `/`
    return re.compile("".join("[^/]*" if c == "*" else "[^/]" if c == "?" else re.escape(c) for c in pattern) + r"\Z")


# -- the configuration, without building anything ----------------------------------------------


def test_packages_name_every_folder_with_an_init():
    found = {_package_of(p.parent) for p in _source_files() if p.name == "__init__.py"}
    assert sorted(found - set(PACKAGES)) == [], "add these to [tool.setuptools] packages in pyproject.toml"
    assert sorted(set(PACKAGES) - found) == [], "listed in packages but no folder with an __init__.py"
    # A module in a folder without __init__.py would be silently left out of the wheel.
    orphans = [str(p.relative_to(REPO)) for p in _source_files() if p.suffix == ".py" and _package_of(p.parent) not in PACKAGES]
    assert orphans == []


def test_package_data_covers_every_data_file():
    """Every non-Python file under a mapped folder (policy.yaml, tool specs, templates, packs' YAML,
    gold sets, the model) is matched by a package-data glob of a package above it."""
    missing = []
    for p in _source_files():
        if p.suffix == ".py":
            continue
        owners = [pkg for pkg in PACKAGES if _folder(pkg) in p.parents]
        patterns = [(pkg, pat) for pkg in owners for pat in PACKAGE_DATA.get("*", []) + PACKAGE_DATA.get(pkg, [])]
        if not any(_glob_re(pat).match(p.relative_to(_folder(pkg)).as_posix()) for pkg, pat in patterns):
            missing.append(str(p.relative_to(REPO)))
    assert missing == [], "no [tool.setuptools.package-data] glob matches these: they would not be installed"


def test_the_glob_check_can_tell_a_covered_file_from_an_uncovered_one():
    assert _glob_re("templates/*.html").match("templates/base.html")
    assert not _glob_re("*.html").match("templates/base.html")  # `*` stays in one folder, as in setuptools


def test_runtime_never_imports_the_examples():
    """`warrant demo` registers from warrant.examples through the `warrant.commands` entry point:
    runtime/ must run where the examples are not installed."""
    import ast

    found = []
    for py in sorted((REPO / "runtime").rglob("*.py")):
        for node in ast.walk(ast.parse(py.read_text(), str(py))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            found += [f"{py.relative_to(REPO)}:{node.lineno} {n}" for n in names if n.split(".")[:2] == ["warrant", "examples"] or n.split(".")[0] == "examples"]
    assert found == []


# -- the built wheel, installed ------------------------------------------------------------------


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", str(out), str(REPO)],
                   check=True, capture_output=True, text=True, timeout=600)
    (whl,) = out.glob("warrant_runtime-*.whl")
    return whl


def _clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "WARRANT_NLI_MODEL", "WARRANT_TOOLS", "WARRANT_LEDGER")}
    return {**env, "LANCEDB_LOG": "error", "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", **extra}


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("fresh")
    venv, cwd = root / "venv", root / "elsewhere"
    cwd.mkdir()
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    py = venv / "bin" / "python"
    site = Path(subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               check=True, capture_output=True, text=True).stdout.strip())
    (site / "_warrant_test_deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(py), "install", "-q", "--no-deps", "--no-index", str(wheel)],
                   check=True, capture_output=True, text=True, timeout=300)
    return {"venv": venv, "py": py, "site": site, "cwd": cwd, "warrant": venv / "bin" / "warrant"}


# Every module the process ended with, written at exit. Not `-X importtime`: it logs only imports
# that go through the import statement, so a module loaded with importlib.import_module (entry
# points, pkgutil.resolve_name: how backends and packs load) would be invisible to it.
MODULES_AT_EXIT = (
    "import atexit, json, os, runpy, sys\n"
    "out = os.environ['WARRANT_TEST_MODULES']\n"
    "atexit.register(lambda: open(out, 'w').write(json.dumps(sorted(sys.modules))))\n"
    "target, sys.argv = sys.argv[1], sys.argv[1:]\n"
    "runpy.run_path(target, run_name='__main__') if target.endswith('warrant') else __import__('importlib').import_module(target)\n"
)


def _run(installed, *args: str, importtime: bool = False, timeout: int = 300) -> subprocess.CompletedProcess:
    """`warrant ARGS` through the installed console script; with importtime, the modules it ended
    with are in the result's `modules` attribute."""
    env = _clean_env()
    if not importtime:
        cmd = [str(installed["py"]), str(installed["warrant"]), *args]
        return subprocess.run(cmd, cwd=installed["cwd"], env=env, capture_output=True, text=True, timeout=timeout)
    return _with_modules(installed, [str(installed["warrant"]), *args], timeout)


def _with_modules(installed, argv: list[str], timeout: int = 300) -> subprocess.CompletedProcess:
    out = installed["cwd"] / f"modules-{os.getpid()}-{len(argv)}.json"
    out.unlink(missing_ok=True)
    env = dict(_clean_env(), WARRANT_TEST_MODULES=str(out))
    r = subprocess.run([str(installed["py"]), "-c", MODULES_AT_EXIT, *argv], cwd=installed["cwd"], env=env,
                       capture_output=True, text=True, timeout=timeout)
    r.modules = set(json.loads(out.read_text())) if out.is_file() else set()
    return r


def _heavy(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if m.split(".")[0] in HEAVY)


def test_the_wheel_holds_only_the_warrant_namespace_and_every_data_file(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    (record,) = [n for n in names if DIST_INFO.match(n) and n.endswith("/RECORD")]
    rows = zipfile.ZipFile(wheel).read(record).decode().splitlines()
    outside = [r.split(",")[0] for r in rows if not (r.startswith("warrant/") or DIST_INFO.match(r))]
    assert outside == []
    assert not any(n.startswith("warrant/__init__") for n in names)  # a namespace package: no warrant/__init__.py
    shipped = set(names)
    want = set()
    for p in _source_files():
        pkg = next(pkg for pkg in sorted(PACKAGE_DIR, key=len, reverse=True) if REPO / PACKAGE_DIR[pkg] in p.parents)
        want.add("/".join([*pkg.split("."), *p.relative_to(REPO / PACKAGE_DIR[pkg]).parts]))
    assert sorted(want - shipped) == []


def test_installed_from_the_wheel_not_from_the_repository(installed):
    probe = "import json, warrant.runtime, warrant.models, warrant.examples; print(json.dumps([warrant.runtime.__file__, warrant.examples.__file__, list(warrant.models.__path__)]))"
    r = subprocess.run([str(installed["py"]), "-c", probe], cwd=installed["cwd"], env=_clean_env(), capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    for f in [*json.loads(r.stdout)[:2], *json.loads(r.stdout)[2]]:
        assert Path(f).resolve().is_relative_to(installed["site"].resolve()), f
    # The installed RECORD: nothing outside warrant/, its dist-info and the console script.
    (record,) = installed["site"].glob("warrant_runtime-*.dist-info/RECORD")
    for row in record.read_text().splitlines():
        path = (installed["site"] / row.split(",")[0]).resolve()
        rel = path.relative_to(installed["site"].resolve()).as_posix() if path.is_relative_to(installed["site"].resolve()) else None
        assert (rel is not None and (rel.startswith("warrant/") or DIST_INFO.match(rel + "/"))) or path == (installed["venv"] / "bin" / "warrant").resolve(), row


def test_warrant_demo_runs_from_the_installed_wheel_without_torch(installed):
    r = _run(installed, "demo", "--dir", "demo", importtime=True)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert "INV-4421" in r.stdout and (installed["cwd"] / "demo" / "invoice_audit_report.html").is_file()
    assert "warrant.runtime.verify.backends.onnx_nli" in r.modules  # the embedded model did run
    assert _heavy(r.modules) == []


def test_warrant_verify_uses_the_embedded_model_from_the_installed_wheel_without_torch(installed):
    cwd = installed["cwd"]
    (cwd / "letter.txt").write_text(LETTER)
    add = _run(installed, "ledger", "add", "run_1", "letter.txt", "--ledger", "led")
    assert add.returncode == 0, add.stderr
    rid = add.stdout.strip()
    claim = {"id": "c1", "type": "Assertion", "text": "Travel time cannot be billed.",
             "propositions": [{"id": "p1", "pred": "statement", "args": {"text": "Travel time cannot be billed."}, "ledger_ids": [rid]}]}
    (cwd / "analyst.json").write_text(json.dumps({"run_id": "run_1", "from_agent": "analyst", "claims": [claim]}))
    r = _run(installed, "verify", "analyst.json", "--ledger", "led", importtime=True)
    # the model read the paraphrase and leans supported, but the embedded model passes nothing
    # alone: the verdict abstains, exit code 1
    assert r.returncode == 1, r.stdout[-3000:] + r.stderr[-3000:]
    (p,) = [p for c in json.loads((cwd / "analyst.verdict.json").read_text())["verdict"]["claims"] for p in c["propositions"]]
    assert p["status"] == "unsupported" and p["checker"].startswith("nli:onnx:nli-minilm-l6/") and "leans supported" in p["reason"]
    assert "warrant.runtime.verify.backends.onnx_nli" in r.modules
    assert _heavy(r.modules) == []
    # the clause copied whole passes in code, exit code 0, through the same installed command
    claim["propositions"][0]["args"]["text"] = "Travel time is not billable."
    (cwd / "analyst.json").write_text(json.dumps({"run_id": "run_1", "from_agent": "analyst", "claims": [claim]}))
    assert _run(installed, "verify", "analyst.json", "--ledger", "led").returncode == 0


def test_the_heavy_import_check_sees_torch_when_it_is_imported(installed):
    # The check above must be able to fail: the same record for a process that loads torch the way
    # plug-ins load (importlib.import_module, which `-X importtime` does not log).
    pytest.importorskip("torch")
    r = _with_modules(installed, ["torch"])
    assert r.returncode == 0, r.stderr[-2000:]
    assert "torch" in _heavy(r.modules)


# -- the ledger audit's child process ------------------------------------------------------------


def test_the_audit_child_runs_without_a_runtime_warning(tmp_path, monkeypatch):
    """`warrant ledger verify` audits in a child process; run as `python -m warrant.ledger.audit`
    that module would be imported twice (the package imports it) and runpy warns on every audit."""
    from warrant.ledger import Ledger
    from warrant.ledger import audit

    led = Ledger.open(str(tmp_path / "led"), writer=True)
    led.append("run_1", LETTER)
    led.close()
    seen: list[subprocess.CompletedProcess] = []
    real = subprocess.run

    def spy(*a, **kw):
        seen.append(real(*a, **kw))
        return seen[-1]

    monkeypatch.setattr(audit.subprocess, "run", spy)
    report = audit.verify_store_isolated(str(tmp_path / "led"))
    assert report.ok and len(seen) == 1
    assert "Warning" not in seen[0].stderr, seen[0].stderr
    # -W error turns any warning at start-up into a failure of the child itself
    strict = real([sys.executable, "-W", "error", *seen[0].args[1:]], capture_output=True, text=True, timeout=120)
    assert strict.returncode == 0 and strict.stdout.splitlines()[-1].startswith("REPORT "), strict.stderr


def test_the_torch_backend_without_the_torch_extra_names_the_extra(monkeypatch, tmp_path):
    # sys.modules[name] = None makes `import name` fail as it does where the package is not installed
    from typer.testing import CliRunner

    from warrant.runtime.cli import app

    from warrant.ledger import Ledger

    led = Ledger.open(str(tmp_path / "led"), writer=True)
    rid = led.append("run_1", LETTER)
    led.close()
    claim = {"id": "c1", "type": "Assertion", "text": "Travel time is not billable.",
             "propositions": [{"id": "p1", "pred": "statement", "args": {"text": "Travel time is not billable."}, "ledger_ids": [rid]}]}
    (tmp_path / "a.json").write_text(json.dumps({"run_id": "run_1", "from_agent": "analyst", "claims": [claim]}))
    monkeypatch.setitem(sys.modules, "torch", None)
    (tmp_path / "ckpt").mkdir()
    r = CliRunner().invoke(app, ["verify", str(tmp_path / "a.json"), "--ledger", str(tmp_path / "led"), "--model", f"torch:{tmp_path / 'ckpt'}"])
    assert r.exit_code == 2, r.output
    assert "[torch] extra" in " ".join(r.output.split())
