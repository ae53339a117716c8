"""One `warrant serve` for the whole security session, started as a user would: a subprocess with
Ray's token settings unset, a small local Ray, API tokens of each scope, and small limits so an
overload and an oversized body are cheap to produce. Stopped, with every process it started,
at the end."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from warrant.runtime.apitokens import SCOPES, TokenStore

WARRANT = str(Path(sys.executable).with_name("warrant"))
LIMITS = {"max_in_flight": 2, "max_queued": 1, "max_artifacts_in_flight": 1, "max_evidence_bytes": 64 * 1024, "max_body_bytes": 16 * 1024}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def process_tree(root: int) -> dict[int, str]:
    """pid -> command name of `root` and all its descendants (from /proc)."""
    parent, names = {}, {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        pid = int(stat.parent.name)
        names[pid] = text[text.index("(") + 1 : text.rindex(")")]
        parent[pid] = int(text[text.rindex(")") + 2 :].split()[1])
    tree = {root} if root in names else set()
    grew = True
    while grew:
        new = {p for p, pp in parent.items() if pp in tree and p not in tree}
        tree |= new
        grew = bool(new)
    return {p: names[p] for p in tree}


@dataclass
class Served:
    base: str
    port: int
    proc: subprocess.Popen
    workdir: Path
    ledger: Path
    ray_token: Path
    tokens: dict[str, str]  # role -> token
    ids: dict[str, str]  # role -> token id

    def client(self, role: str | None = "all", **kw) -> httpx.Client:
        headers = {"Authorization": f"Bearer {self.tokens[role]}"} if role else {}
        return httpx.Client(base_url=self.base, headers=headers, timeout=60, **kw)


def _stop(proc: subprocess.Popen, tree: dict[int, str]) -> None:
    for sig, wait in ((signal.SIGINT, 60), (signal.SIGTERM, 30)):
        if proc.poll() is None:
            proc.send_signal(sig)
            try:
                proc.wait(wait)
            except subprocess.TimeoutExpired:
                continue
    # Whatever of the tree outlived its driver: only the pids recorded, and only if they still
    # carry the same name (never a process someone else started since).
    time.sleep(2)
    for pid, name in tree.items():
        if process_tree(pid).get(pid) == name:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


@pytest.fixture(scope="session")
def served(tmp_path_factory) -> Served:
    work = tmp_path_factory.mktemp("served")
    # Not <cwd>/ledger: Ray workers have the driver's cwd on sys.path, where a folder named
    # `ledger` would shadow the package.
    ledger = work / "data" / "ledger"
    store = TokenStore.for_ledger(str(ledger))
    roles = {"all": SCOPES, "read": ["read"], "evidence": ["evidence"], "submit": ["submit"], "revocable": ["read"]}
    made = {role: store.create(scopes, name=role) for role, scopes in roles.items()}
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_AUTH")}  # Ray's defaults, as in a user's shell
    ray_token = work / "ray" / "auth_token"  # does not exist yet: `warrant serve` must make it
    env["RAY_AUTH_TOKEN_PATH"] = str(ray_token)
    cmd = [WARRANT, "serve", "--ledger", str(ledger), "--port", str(port), "--num-cpus", "2", "--model", "none",
           *[a for k, v in LIMITS.items() for a in (f"--{k.replace('_', '-')}", str(v))]]
    log = open(work / "serve.log", "wb")
    proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT, cwd=work)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 300
    while True:
        if proc.poll() is not None:
            pytest.fail(f"warrant serve exited {proc.returncode}:\n{(work / 'serve.log').read_text()[-4000:]}")
        try:
            if httpx.get(f"{base}/healthz", timeout=5).status_code == 200:
                break
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            _stop(proc, process_tree(proc.pid))
            pytest.fail(f"warrant serve not healthy after 300 s:\n{(work / 'serve.log').read_text()[-4000:]}")
        time.sleep(1)
    s = Served(base, port, proc, work, ledger, ray_token, {r: t for r, (t, _) in made.items()}, {r: rec.id for r, (_, rec) in made.items()})
    yield s
    _stop(proc, process_tree(proc.pid))
    log.close()
