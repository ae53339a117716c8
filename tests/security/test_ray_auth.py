"""Issue 10, item 1: `warrant serve` must not let whoever reaches the machine run code on it.

Before the fix the CLI set RAY_AUTH_MODE=disabled, and a Serve replica's inter-deployment gRPC
port, open on every interface, unpickled request metadata. These tests run the attack and its
preconditions against a real `warrant serve` (tests/security/conftest.py)."""

from __future__ import annotations

import ipaddress
import os
import pickle
import re
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.security.conftest import WARRANT, process_tree

ROOT = Path(__file__).resolve().parents[2]


def listening(tree: dict[int, str]) -> list[tuple[str, int, int, str]]:
    """(host, port, pid, process name) of every TCP/UDP socket a process of `tree` listens on."""
    out = subprocess.run(["ss", "-H", "-l", "-t", "-u", "-n", "-p"], capture_output=True, text=True, check=True).stdout
    found = []
    for line in out.splitlines():
        cols = line.split()
        local = cols[4]
        host, _, port = local.rpartition(":")
        for pid in map(int, re.findall(r"pid=(\d+)", line)):
            if pid in tree:
                found.append((host.strip("[]"), int(port), pid, tree[pid]))
    return found


def is_loopback(host: str) -> bool:
    host = host.split("%", 1)[0]
    if host in ("*", ""):
        return False
    addr = ipaddress.ip_address(host)
    mapped = getattr(addr, "ipv4_mapped", None)
    return (mapped or addr).is_loopback


def test_the_ray_token_is_generated_on_first_start_with_mode_0600(served):
    mode = stat.S_IMODE(served.ray_token.stat().st_mode)
    assert mode == 0o600, oct(mode)
    assert re.fullmatch(r"[0-9a-f]{64}", served.ray_token.read_text())


def test_no_process_of_warrant_serve_listens_on_a_non_loopback_address(served):
    tree = process_tree(served.proc.pid)
    socks = listening(tree)
    names = {name for *_, name in socks}
    # The check saw the whole tree: the HTTP proxy, the GCS, the raylet and the Serve replicas
    # (whose inter-deployment gRPC server Serve binds to [::] unless told otherwise).
    assert served.port in {p for _, p, _, _ in socks}
    assert {"gcs_server", "raylet"} <= names and any(n.startswith("ray::ServeRepli") for n in names), names
    exposed = [s for s in socks if not is_loopback(s[0])]
    assert not exposed, f"listening beyond loopback: {exposed}"


def _driver(env_extra: dict[str, str], gcs: str, home: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_AUTH")}
    env.update(env_extra, HOME=str(home), RAY_NUM_REDIS_GET_RETRIES="2")  # fail in ~2 s, not 20
    code = f"import ray; ray.init(address={gcs!r}, log_to_driver=False); print('JOINED', ray.get(ray.put(41)) + 1)"
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=180)


def test_a_ray_driver_without_the_token_is_refused(served, tmp_path):
    tree = process_tree(served.proc.pid)
    gcs = sorted({f"127.0.0.1:{p}" for _, p, _, name in listening(tree) if name == "gcs_server"})
    assert len(gcs) == 1, gcs
    off = "disabled"  # a client that does not authenticate at all
    for extra in ({"RAY_AUTH_MODE": off}, {"RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": "0" * 64}):
        r = _driver(extra, gcs[0], tmp_path)
        assert r.returncode != 0 and "JOINED" not in r.stdout, (extra, r.stdout)
        assert "Authentication token is missing or incorrect" in r.stderr, r.stderr[-2000:]
    # The same address with the token joins: the refusals above were about the token.
    ok = _driver({"RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN_PATH": str(served.ray_token)}, gcs[0], tmp_path)
    assert ok.returncode == 0 and "JOINED 42" in ok.stdout, ok.stderr[-2000:]


class _Mkdir:
    """What the attack sent: unpickling it runs os.mkdir(path)."""

    def __init__(self, path: str):
        self.path = path

    def __reduce__(self):
        return (os.mkdir, (self.path,))


def test_the_replica_grpc_port_refuses_an_unauthenticated_pickle(served, tmp_path):
    import grpc
    from ray.serve.generated.serve_pb2 import ASGIRequest

    tree = process_tree(served.proc.pid)
    ports = sorted({p for _, p, _, name in listening(tree) if name.startswith("ray::ServeRepli")})
    assert ports
    marker = tmp_path / "pwned"
    payload = ASGIRequest(pickled_request_metadata=pickle.dumps(_Mkdir(str(marker)))).SerializeToString()
    codes = []
    for port in ports:
        with grpc.insecure_channel(f"127.0.0.1:{port}") as ch:
            call = ch.unary_unary("/ray.serve.ASGIService/HandleRequest", request_serializer=None, response_deserializer=None)
            try:
                call(payload, timeout=10)
                codes.append(grpc.StatusCode.OK)
            except grpc.RpcError as exc:
                codes.append(exc.code())
    assert not marker.exists(), "the replica unpickled an unauthenticated request"
    assert grpc.StatusCode.UNAUTHENTICATED in codes, codes  # the inter-deployment server was reached and said no
    assert grpc.StatusCode.OK not in codes


def test_ensure_token_creates_0600_and_narrows_a_loose_file(tmp_path):
    from warrant.actors.ray_env import RayAuthError, ensure_token

    fresh = ensure_token(tmp_path / "a" / "auth_token")
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o600
    first = fresh.read_text()
    assert ensure_token(fresh).read_text() == first  # never replaced once there
    loose = tmp_path / "loose"
    loose.write_text("f" * 64)
    loose.chmod(0o644)
    ensure_token(loose)
    assert stat.S_IMODE(loose.stat().st_mode) == 0o600 and loose.read_text() == "f" * 64
    empty = tmp_path / "empty"
    empty.write_text("")
    with pytest.raises(RayAuthError, match="empty"):
        ensure_token(empty)


def _prepare(args: str, env_extra: dict[str, str]) -> subprocess.CompletedProcess:
    # In a child process: prepare() changes the environment (and Ray's cached config) for good.
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_AUTH")}
    env.update(env_extra)
    code = f"import os; from actors.ray_env import prepare; prepare({args}); print('MODE', os.environ['RAY_AUTH_MODE'])"
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60, cwd=ROOT)


def test_ray_auth_is_off_only_by_the_explicit_flag_and_then_loudly(tmp_path):
    tok = str(tmp_path / "tok")
    inherited = _prepare("local=True", {"RAY_AUTH_MODE": "disabled", "RAY_AUTH_TOKEN_PATH": tok})
    assert "MODE token" in inherited.stdout, inherited.stderr  # an inherited RAY_AUTH_MODE=disabled is overridden
    assert "ignoring RAY_AUTH_MODE=disabled" in inherited.stderr
    off = _prepare("local=True, ray_auth=False", {"RAY_AUTH_TOKEN_PATH": tok})
    assert "MODE disabled" in off.stdout
    assert "RAY TOKEN AUTHENTICATION IS OFF" in off.stderr and "run code" in off.stderr


def test_joining_a_cluster_without_its_token_fails_with_how_to_fix(tmp_path):
    r = subprocess.run([WARRANT, "batch-verify", str(tmp_path / "x.jsonl"), "--out", str(tmp_path / "o"), "--address", "127.0.0.1:1"],
                       env={**{k: v for k, v in os.environ.items() if not k.startswith("RAY_AUTH")},
                            "RAY_AUTH_TOKEN_PATH": str(tmp_path / "none")},
                       capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert r.returncode == 2, r.stderr[-2000:]
    assert "no Ray token to join the cluster" in r.stderr and "RAY_AUTH_TOKEN" in r.stderr


def test_serve_refuses_to_start_without_an_api_token(tmp_path):
    r = subprocess.run([WARRANT, "serve", "--ledger", str(tmp_path / "ledger"), "--port", "1"], capture_output=True, text=True,
                       timeout=120, cwd=tmp_path)
    assert r.returncode == 2
    assert "no API token" in r.stderr and "warrant token create --scope" in r.stderr and "--insecure-no-auth" in r.stderr
    assert not (tmp_path / "ledger").exists()  # refused before starting anything


def test_no_project_file_turns_ray_token_auth_off():
    setting = re.compile(r"RAY_AUTH_MODE['\"]?\s*[:=]\s*['\"]?disabled")
    this = Path(__file__).resolve()
    offenders = []
    for folder in ("actors", "runtime", "ledger", "benchmarks", "cluster", "tests", "examples"):
        for p in (ROOT / folder).rglob("*"):
            if p.is_file() and p.suffix in {".py", ".yaml", ".yml", ".sh", ".toml", ".cfg", ".env"} and p.resolve() != this:
                offenders += [f"{p.relative_to(ROOT)}" for line in p.read_text(errors="replace").splitlines() if setting.search(line)]
    offenders += ["Makefile" for line in (ROOT / "Makefile").read_text().splitlines() if setting.search(line)]
    assert not offenders, offenders


def test_joining_a_loopback_cluster_keeps_ray_in_loopback_mode(tmp_path):
    """Without it Ray rewrites 127.0.0.1 into the machine's address, where a local cluster does not
    listen (`warrant review serve --address auto` beside `warrant serve` hung dialling it)."""
    from warrant.actors.ray_env import bootstrap_address, is_loopback

    assert is_loopback("127.0.0.1:6379") and is_loopback("ray://localhost:10001") and is_loopback("[::1]:6379")
    assert not is_loopback("10.0.0.5:6379") and not is_loopback("head:6379") and not is_loopback("ray://head:10001")
    assert bootstrap_address("head:6379") == "head:6379"  # only `auto` is looked up
    tok = tmp_path / "tok"
    tok.write_text("ab" * 32)
    tok.chmod(0o600)
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_AUTH") and k != "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"}
    code = ("import os; from actors.ray_env import prepare, is_loopback; a = {a!r}; prepare(local=False, loopback=is_loopback(a)); "
            "print('LOOPBACK', os.environ.get('RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER'), os.environ['RAY_AUTH_MODE'])")
    for address, want in (("127.0.0.1:6379", "LOOPBACK 0 token"), ("10.0.0.5:6379", "LOOPBACK None token")):
        r = subprocess.run([sys.executable, "-c", code.format(a=address)], env={**env, "RAY_AUTH_TOKEN_PATH": str(tok)},
                           capture_output=True, text=True, timeout=60, cwd=ROOT)
        assert want in r.stdout, (address, r.stdout, r.stderr[-2000:])
