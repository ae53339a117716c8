"""Config keys: TOML (tomllib), INI / .cfg (configparser), YAML (PyYAML safe loader), flattened
to dotted keys (`tool.pytest.ini_options.testpaths`, `flake8.max-line-length`, `jobs.test.runs-on`).
List items are keyed by index. Tables and sections are keys too (value None)."""

from __future__ import annotations

import configparser
import datetime as dt
import tomllib
from typing import Any

import yaml

from warrant.ledger.canonical import canonical_json
from warrant.runtime.memory.scan.base import PARSE_ERROR, ConfigFact, FileFacts, ScanError, Scanner, decode_text

_MAX_KEYS = 20_000  # a generated YAML fixture must not turn one file into a huge index
_SUFFIXES = (".toml", ".ini", ".cfg", ".yaml", ".yml")


def _plain(v: Any) -> Any:
    if isinstance(v, (dt.date, dt.time, dt.datetime)):
        return v.isoformat()
    if isinstance(v, float) and (v != v or v in (float("inf"), float("-inf"))):
        return str(v)
    if isinstance(v, (bytes, bytearray)):
        return v.decode("utf-8", "replace")
    if isinstance(v, (set, frozenset, tuple)):
        return [_plain(x) for x in v]
    if isinstance(v, list):
        return [_plain(x) for x in v]
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items()}
    return v


def flatten(doc: Any, prefix: str = "") -> list[ConfigFact]:
    out: list[ConfigFact] = []
    stack: list[tuple[str, Any]] = [(prefix, doc)]
    while stack and len(out) < _MAX_KEYS:
        key, value = stack.pop()
        if isinstance(value, dict):
            if key:
                out.append(ConfigFact(key, None, True))
            for k, v in value.items():
                stack.append((f"{key}.{k}" if key else str(k), v))
        else:
            if key:
                out.append(ConfigFact(key, canonical_json(_plain(value)).decode()))
            if isinstance(value, list):
                for i, v in enumerate(value):
                    if isinstance(v, (dict, list)):
                        stack.append((f"{key}.{i}", v))
    return out


class ConfigScanner(Scanner):
    name = "config"

    def matches(self, path: str) -> bool:
        return path.endswith(_SUFFIXES)

    def scan(self, path: str, data: bytes, facts: FileFacts) -> None:
        text = decode_text(path, data)
        try:
            if path.endswith(".toml"):
                facts.config.extend(flatten(tomllib.loads(text)))
            elif path.endswith((".ini", ".cfg")):
                cp = configparser.ConfigParser(interpolation=None, strict=False)
                cp.optionxform = str  # keep keys as written
                cp.read_string(text, source=path)
                doc = {s: dict(cp.items(s, raw=True)) for s in cp.sections()}
                facts.config.extend(flatten(doc))
            else:
                docs = [d for d in yaml.safe_load_all(text)]
                if len(docs) == 1:
                    facts.config.extend(flatten(docs[0]))
                else:
                    for i, d in enumerate(docs):
                        facts.config.extend(flatten(d, str(i)))
        except (tomllib.TOMLDecodeError, configparser.Error, yaml.YAMLError, RecursionError) as exc:
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise ScanError(PARSE_ERROR, f"{path} does not parse as {path.rsplit('.', 1)[-1].upper()}: {first}") from None
