"""Declared dependencies: pyproject.toml (PEP 621, PEP 735 groups, Poetry, PDM, uv, build
requires), requirements*.txt, lock files (poetry.lock, uv.lock, pdm.lock, Pipfile.lock), Pipfile,
setup.cfg, literal lists in setup.py, and .pre-commit-config.yaml (hook repos, hook ids and their
additional_dependencies). Names are canonicalised with `packaging`."""

from __future__ import annotations

import ast
import configparser
import json
import re
import tomllib
from typing import Any, Iterable

import yaml
from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name

from warrant.runtime.memory.scan.base import PARSE_ERROR, DepFact, FileFacts, ScanError, Scanner, decode_text

_LOCKS = {"poetry.lock", "uv.lock", "pdm.lock"}
# A lock file pins what was resolved (dev tools included); it declares no role. Its entries sit in
# this group so that "a runtime dependency" is never verified by a pin of a dev-only tool.
LOCKED = "(locked)"
_REQ = re.compile(r"(^|/)(requirements[^/]*\.(txt|in)|requirements/[^/]+\.(txt|in))$")


def _basename(path: str) -> str:
    return path.rsplit("/", 1)[-1]


def parse_requirement(text: str, group: str, source: str) -> DepFact | None:
    text = text.split(" #", 1)[0].strip()
    if not text or text.startswith(("#", "-", "git+", "http:", "https:", "file:", ".", "/")):
        return None
    try:
        req = Requirement(text)
    except InvalidRequirement:
        return None
    spec = str(req.specifier)
    pin = next((s.version for s in req.specifier if s.operator in ("==", "===") and "*" not in s.version), None)
    return DepFact(canonicalize_name(req.name), spec, group, source, pin, text)


def _poetry_spec(value: Any) -> str:
    """Poetry's `^1.2` / `~1.2` / `1.2.*` / {version = ...} as a PEP 440 specifier where exact."""
    if isinstance(value, dict):
        value = value.get("version", "")
    if not isinstance(value, str) or value in ("", "*"):
        return ""
    value = value.strip()
    if value.startswith("^"):
        base = value[1:]
        parts = base.split(".")
        nums = [int(p) if p.isdigit() else 0 for p in parts] + [0, 0]
        i = next((k for k, n in enumerate(nums[: len(parts)]) if n != 0), len(parts) - 1)
        upper = nums[: i + 1]
        upper[i] += 1
        return f">={base},<{'.'.join(map(str, upper))}"
    if value.startswith("~") and not value.startswith("~="):
        base = value[1:]
        parts = base.split(".")
        upper = [int(p) if p.isdigit() else 0 for p in parts[:2]]
        if len(upper) == 1:
            upper = [upper[0] + 1]
        else:
            upper[1] += 1
        return f">={base},<{'.'.join(map(str, upper))}"
    if value[0].isdigit():
        return f"=={value}"
    return value


class DependencyScanner(Scanner):
    name = "dependencies"

    def matches(self, path: str) -> bool:
        base = _basename(path)
        return (
            base in ("pyproject.toml", "setup.cfg", "setup.py", "Pipfile", "Pipfile.lock", ".pre-commit-config.yaml")
            or base in _LOCKS
            or bool(_REQ.search(path))
        )

    def scan(self, path: str, data: bytes, facts: FileFacts) -> None:
        base = _basename(path)
        if base == "setup.py":
            facts.deps.extend(self._setup_py(data))
            return
        text = decode_text(path, data)
        try:
            if base == "pyproject.toml":
                deps = self._pyproject(tomllib.loads(text))
            elif base in _LOCKS:
                deps = [
                    DepFact(canonicalize_name(p["name"]), f"=={p['version']}", LOCKED, "lock", str(p["version"]), "")
                    for p in tomllib.loads(text).get("package", [])
                    if isinstance(p, dict) and "name" in p and "version" in p
                ]
            elif base == "Pipfile":
                deps = self._pipfile(tomllib.loads(text))
            elif base == "Pipfile.lock":
                deps = self._pipfile_lock(json.loads(text))
            elif base == "setup.cfg":
                deps = self._setup_cfg(text)
            elif base == ".pre-commit-config.yaml":
                deps = self._pre_commit(yaml.safe_load(text))
            else:
                stem = base.rsplit(".", 1)[0]
                deps = [d for line in text.splitlines() if (d := parse_requirement(line, stem, "requirements"))]
        except (tomllib.TOMLDecodeError, json.JSONDecodeError, yaml.YAMLError, configparser.Error) as exc:
            raise ScanError(PARSE_ERROR, f"{path} does not parse: {str(exc).splitlines()[0]}") from None
        except (AttributeError, TypeError, KeyError) as exc:  # the file parsed but is not shaped as expected
            raise ScanError(PARSE_ERROR, f"{path} is not a well-formed {base}: {type(exc).__name__}: {exc}") from None
        facts.deps.extend(deps)

    @staticmethod
    def _reqs(items: Any, group: str, source: str) -> Iterable[DepFact]:
        for item in items if isinstance(items, list) else []:
            if isinstance(item, str) and (d := parse_requirement(item, group, source)):
                yield d

    def _pyproject(self, doc: dict[str, Any]) -> list[DepFact]:
        out: list[DepFact] = []
        project = doc.get("project", {})
        out += self._reqs(project.get("dependencies"), "", "pyproject")
        for extra, items in (project.get("optional-dependencies") or {}).items():
            out += self._reqs(items, extra, "pyproject")
        for group, items in (doc.get("dependency-groups") or {}).items():
            out += self._reqs(items, group, "pyproject")
        out += self._reqs((doc.get("build-system") or {}).get("requires"), "build", "pyproject")
        tool = doc.get("tool", {})
        poetry = tool.get("poetry", {})
        for name, spec in (poetry.get("dependencies") or {}).items():
            if name.lower() != "python":
                out.append(DepFact(canonicalize_name(name), _poetry_spec(spec), "", "pyproject", None, f"{name} {spec}"))
        for name, spec in (poetry.get("dev-dependencies") or {}).items():
            out.append(DepFact(canonicalize_name(name), _poetry_spec(spec), "dev", "pyproject", None, f"{name} {spec}"))
        for group, body in (poetry.get("group") or {}).items():
            for name, spec in ((body or {}).get("dependencies") or {}).items():
                out.append(DepFact(canonicalize_name(name), _poetry_spec(spec), group, "pyproject", None, f"{name} {spec}"))
        for group, items in ((tool.get("pdm") or {}).get("dev-dependencies") or {}).items():
            out += self._reqs(items, group, "pyproject")
        out += self._reqs((tool.get("uv") or {}).get("dev-dependencies"), "dev", "pyproject")
        return out

    def _pipfile(self, doc: dict[str, Any]) -> list[DepFact]:
        out = []
        for section, group in (("packages", ""), ("dev-packages", "dev")):
            for name, spec in (doc.get(section) or {}).items():
                s = spec if isinstance(spec, str) else (spec or {}).get("version", "*")
                out.append(DepFact(canonicalize_name(name), "" if s == "*" else s, group, "pipfile", None, f"{name} {s}"))
        return out

    def _pipfile_lock(self, doc: dict[str, Any]) -> list[DepFact]:
        out = []
        for section, group in (("default", ""), ("develop", "dev")):
            for name, body in (doc.get(section) or {}).items():
                v = (body or {}).get("version", "")
                pin = v[2:] if v.startswith("==") else None
                out.append(DepFact(canonicalize_name(name), v, LOCKED, "lock", pin, f"{name}{v}"))
        return out

    def _setup_cfg(self, text: str) -> list[DepFact]:
        cp = configparser.ConfigParser(interpolation=None)
        cp.read_string(text)
        out: list[DepFact] = []
        if cp.has_option("options", "install_requires"):
            out += [d for line in cp.get("options", "install_requires").splitlines() if (d := parse_requirement(line, "", "setup"))]
        if cp.has_section("options.extras_require"):
            for extra, value in cp.items("options.extras_require"):
                out += [d for line in value.splitlines() if (d := parse_requirement(line, extra, "setup"))]
        return out

    def _setup_py(self, data: bytes) -> list[DepFact]:
        """Literal `install_requires=[...]` / `extras_require={...}` in a setup() call. setup.py is
        also Python: when it does not parse, the Python scanner reports it."""
        try:
            tree = ast.parse(data)
        except (SyntaxError, ValueError, RecursionError):
            return []
        out: list[DepFact] = []
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            for kw in node.keywords:
                try:
                    value = ast.literal_eval(kw.value)
                except (ValueError, TypeError, SyntaxError, RecursionError):
                    continue
                if kw.arg == "install_requires":
                    out += self._reqs(list(value) if isinstance(value, (list, tuple)) else [], "", "setup")
                elif kw.arg == "extras_require" and isinstance(value, dict):
                    for extra, items in value.items():
                        out += self._reqs(list(items) if isinstance(items, (list, tuple)) else [], str(extra), "setup")
        return out

    def _pre_commit(self, doc: Any) -> list[DepFact]:
        out = []
        for repo in (doc or {}).get("repos", []) or []:
            if not isinstance(repo, dict):
                continue
            url = str(repo.get("repo", ""))
            rev = repo.get("rev")
            if url not in ("local", "meta") and url:
                name = url.rstrip("/").rsplit("/", 1)[-1].removesuffix(".git")
                out.append(DepFact(canonicalize_name(name), "", "pre-commit", "pre-commit", str(rev) if rev else None, url))
            for hook in repo.get("hooks", []) or []:
                if not isinstance(hook, dict):
                    continue
                if hook.get("id"):
                    out.append(DepFact(canonicalize_name(str(hook["id"])), "", "pre-commit", "pre-commit", str(rev) if rev else None, str(hook["id"])))
                out += self._reqs(hook.get("additional_dependencies"), "pre-commit", "pre-commit")
        return out
