"""Real git repositories in tmp dirs (the git CLI), real LanceDB stores. No mocks."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from warrant.runtime.memory import Memory

GIT_ENV = {
    "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
    "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com",
    "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1",
}

SERVER_PY = '''import os
import sqlite3
from pathlib import Path

TIMEOUT = 30


class Server:
    def __init__(self, root, port=8080, debug=False):
        self.root = Path(root)
        self.port = port


def serve(root, port=8080):
    return Path(root) / str(port)


def store():
    return sqlite3.connect(os.environ.get("DB_PATH", "app.db"))
'''

PYPROJECT = '''[project]
name = "app"
dependencies = ["requests>=2.28,<3"]

[project.optional-dependencies]
dev = ["pytest>=8"]

[tool.app]
mode = "fast"
'''


class Repo:
    def __init__(self, path: Path):
        self.path = path
        path.mkdir(parents=True, exist_ok=True)
        self.git("init", "-q", "-b", "main")

    def git(self, *args: str) -> str:
        env = dict(os.environ, **GIT_ENV)
        return subprocess.run(["git", *args], cwd=self.path, env=env, check=True, capture_output=True, text=True).stdout.strip()

    def write(self, rel: str, content: str | bytes) -> None:
        p = self.path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        (p.write_bytes if isinstance(content, bytes) else p.write_text)(content)

    def rm(self, rel: str) -> None:
        self.git("rm", "-q", rel)

    def commit(self, msg: str = "change") -> str:
        self.git("add", "-A")
        self.git("commit", "-q", "-m", msg)
        return self.git("rev-parse", "HEAD")


class Clock:
    """An injectable monotonic clock: the HEAD TTL is tested by moving time, not by sleeping."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t

    def advance(self, s: float) -> None:
        self.t += s


@pytest.fixture
def repo(tmp_path) -> Repo:
    r = Repo(tmp_path / "repo")
    r.write("app/__init__.py", "")
    r.write("app/server.py", SERVER_PY)
    r.write("pyproject.toml", PYPROJECT)
    r.commit("init")
    return r


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def store_uri(tmp_path) -> str:
    return str(tmp_path / "store")


@pytest.fixture
def memory(store_uri, repo, clock):
    m = Memory.open(store_uri, repo=repo.path, clock=clock)
    yield m
    m.close()


def fact(text: str, *anchors: dict, **kw) -> dict:
    return {"text": text, "author": "ana", "anchors": list(anchors), **kw}
