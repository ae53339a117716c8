"""How Warrant starts or joins Ray: token authentication on, a local cluster on loopback only.

Why this module exists: with Ray's token authentication off, Ray Serve 2.60 replicas accept
unauthenticated gRPC on every interface and unpickle what they receive, so anyone who can reach
the machine can run code on it. So:

- `RAY_AUTH_MODE=token` always, unless the operator passes an explicit flag (`warrant serve
  --insecure-ray-no-auth`), which logs a loud warning.
- A local cluster's token is Ray's own token file (`~/.ray/auth_token`, or `$RAY_AUTH_TOKEN_PATH`),
  created here with mode 0600 before Ray would create it with the process umask (often world
  readable). Every Ray process the driver starts inherits the environment and reads that file.
- A local cluster listens on 127.0.0.1 only: `RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0` makes Ray's node
  address loopback (GCS, raylet, workers, agents bind there), and a worker setup hook moves the
  one listener Serve binds to `[::]` regardless (each replica's inter-deployment gRPC server)
  onto loopback too.
- Joining a cluster (`--address`) needs the cluster's token (`RAY_AUTH_TOKEN`,
  `RAY_AUTH_TOKEN_PATH` or `~/.ray/auth_token`); nothing is generated for a remote cluster.
  Joining a local one (`auto`, or a loopback HOST:PORT; `warrant review serve --address auto`
  beside `warrant serve`) keeps Ray's loopback mode, or Ray would dial the machine's address.

Ray is imported inside the functions: `warrant` loads actors/cli.py, which imports this, at every
start.
"""

from __future__ import annotations

import logging
import os
import secrets
import sys
from pathlib import Path
from typing import Any, Optional

log = logging.getLogger("warrant.ray")

LOOPBACK = "127.0.0.1"
# The environment of every Ray process Warrant starts (inherited from the driver).
RAY_ENV = {
    "RAY_USAGE_STATS_ENABLED": "0",
    "LANCEDB_LOG": "error",
    # A busy replica answers Serve's queue-length probes late (see actors/verifier_pool.py).
    "RAY_SERVE_QUEUE_LENGTH_RESPONSE_DEADLINE_S": "1.0",
}
SETUP_HOOK = "warrant.actors.ray_env.bind_loopback"

INSECURE_WARNING = (
    "RAY TOKEN AUTHENTICATION IS OFF (--insecure-ray-no-auth). Ray Serve replicas then accept "
    "unauthenticated gRPC and unpickle what they receive: anyone who can reach a Ray port of this "
    "cluster can run code as this user. Use it only on an isolated machine or network."
)


class RayAuthError(RuntimeError):
    """Ray's token is missing or unusable; the message says how to provide one."""


def token_path() -> Path:
    """Where Ray reads its token from when `RAY_AUTH_TOKEN` is not set (Ray's own precedence)."""
    p = os.environ.get("RAY_AUTH_TOKEN_PATH")
    return Path(p).expanduser() if p else Path.home() / ".ray" / "auth_token"


def ensure_token(path: Path | None = None) -> Path:
    """The token file of a local cluster, created if missing: 32 random bytes as hex (the format
    `ray get-auth-token --generate` writes), mode 0600. An existing file readable by others is
    narrowed to 0600; an empty one is an error (Ray would abort on it)."""
    path = path or token_path()
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    try:
        # O_EXCL: two drivers starting at once must not overwrite each other's token.
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        mode = path.stat().st_mode & 0o777
        if mode & 0o077:
            os.chmod(path, 0o600)
            log.warning("Ray token file %s was readable by others (mode %o); now 0600", path, mode)
        if not path.read_text().strip():
            raise RayAuthError(f"Ray token file {path} is empty: delete it to have a new token generated") from None
        return path
    with os.fdopen(fd, "w") as f:
        f.write(secrets.token_hex(32))
        f.flush()
        os.fsync(f.fileno())
    log.info("generated a Ray token in %s (mode 0600)", path)
    return path


def prepare(*, local: bool, ray_auth: bool = True, loopback: bool | None = None) -> None:
    """Set this process's environment before `ray.init`; every Ray process it starts inherits it.

    local: this process starts the cluster (else it joins one at an address).
    ray_auth: False only for the explicit insecure flag; logs `INSECURE_WARNING`.
    loopback: the cluster's address is loopback (default: `local`). A process joining a local
    cluster needs Ray's loopback mode too, or Ray turns 127.0.0.1 into the machine's address.
    """
    for k, v in RAY_ENV.items():
        os.environ.setdefault(k, v)
    if local if loopback is None else loopback:
        # Ray's node address becomes 127.0.0.1, so every Ray listener binds to loopback. Ray reads
        # the variable when first imported: set the constant too if that has happened already.
        os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"
        constants = sys.modules.get("ray._private.ray_constants")
        if constants is not None:
            constants.ENABLE_RAY_CLUSTER = False
    if not ray_auth:
        log.warning(INSECURE_WARNING)
        print(f"WARNING: {INSECURE_WARNING}", file=sys.stderr, flush=True)
        _set_auth_mode("disabled")
        return
    if os.environ.get("RAY_AUTH_MODE", "token").lower() != "token":
        log.warning("ignoring RAY_AUTH_MODE=%s from the environment: Warrant runs Ray with token "
                    "authentication (pass --insecure-ray-no-auth to turn it off)", os.environ["RAY_AUTH_MODE"])
    _set_auth_mode("token")
    if os.environ.get("RAY_AUTH_TOKEN"):
        return
    if local:
        ensure_token()
    elif not token_path().is_file():
        raise RayAuthError(
            f"no Ray token to join the cluster with: set RAY_AUTH_TOKEN, or RAY_AUTH_TOKEN_PATH to a file "
            f"holding it (default {token_path()}); on the head node `ray get-auth-token` prints it"
        )


def _set_auth_mode(mode: str) -> None:
    os.environ["RAY_AUTH_MODE"] = mode
    raylet = sys.modules.get("ray._raylet")
    if raylet is not None:
        # Ray caches its config when first imported; refresh it as Ray does when it turns token
        # auth on itself (ray._private.authentication.authentication_token_setup).
        raylet.Config.initialize("")


def local_runtime_env(runtime_env: dict[str, Any] | None = None) -> dict[str, Any]:
    """A job runtime_env with the loopback setup hook added (Serve replicas inherit it)."""
    env = dict(runtime_env or {})
    if env.get("worker_process_setup_hook", SETUP_HOOK) != SETUP_HOOK:
        raise ValueError("runtime_env already has a worker_process_setup_hook; Warrant needs its own for a local cluster")
    env["worker_process_setup_hook"] = SETUP_HOOK
    return env


def init(address: Optional[str] = None, *, num_cpus: Optional[int] = None, ray_auth: bool = True,
         runtime_env: dict[str, Any] | None = None, **kwargs: Any) -> None:
    """`ray.init` the Warrant way: join `address` with the cluster's token, or start a local
    cluster (no dashboard, loopback only, a 0600 token). Extra keyword arguments go to `ray.init`."""
    if address:
        address = bootstrap_address(address)
    prepare(local=address is None, ray_auth=ray_auth, loopback=address is None or is_loopback(address))
    import ray

    kwargs.setdefault("namespace", "warrant")
    if address:
        ray.init(address=address, runtime_env=runtime_env, **kwargs)
    else:
        ray.init(num_cpus=num_cpus, include_dashboard=False, runtime_env=local_runtime_env(runtime_env), **kwargs)


def bootstrap_address(address: str) -> str:
    """`auto` -> the GCS address a raylet on this machine names (as Ray finds it, before Ray
    rewrites 127.0.0.1 into the machine's address, which a loopback cluster does not listen on);
    any other address as given. Raises ConnectionError when no cluster runs here."""
    if address != "auto":
        return address
    from ray._private.services import get_ray_address_from_environment

    found = get_ray_address_from_environment("auto", None)
    if not found or found == "auto":
        raise ConnectionError("no Ray cluster runs on this machine (address auto)")
    return found


def is_loopback(address: str) -> bool:
    """Whether a Ray address (HOST:PORT or ray://HOST:PORT) names this machine's loopback."""
    import ipaddress

    host = address.split("://", 1)[-1].rsplit(":", 1)[0].strip("[]")
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def bind_loopback() -> None:
    """Ray worker setup hook for a local cluster. Serve 2.60 binds each replica's inter-deployment
    gRPC server to `[::]:0` whatever the node's address is (ray/serve/_private/replica.py); bind
    any wildcard gRPC address to loopback instead. On a real cluster (node address not loopback)
    it does nothing: there token auth and the NetworkPolicy in cluster/ guard that port."""
    from ray._private import ray_constants

    if ray_constants.ENABLE_RAY_CLUSTER:
        return
    try:
        import ray._common.tls_utils as tls  # where Ray 2.60 keeps it; a worker must start either way
    except ImportError:
        log.warning("Ray %s has no ray._common.tls_utils: Serve replicas' gRPC may listen beyond loopback "
                    "(token authentication still applies)", getattr(sys.modules.get("ray"), "__version__", "?"))
        return

    original = tls.add_port_to_grpc_server
    if getattr(original, "warrant_loopback", False):
        return

    def add_port(server: Any, address: str) -> int:
        host, _, port = address.rpartition(":")
        if host in ("", "[::]", "0.0.0.0"):
            address = f"{LOOPBACK}:{port}"
        return original(server, address)

    add_port.warrant_loopback = True  # type: ignore[attr-defined]
    tls.add_port_to_grpc_server = add_port
    replica = sys.modules.get("ray.serve._private.replica")  # imported by name there
    if replica is not None:
        replica.add_port_to_grpc_server = add_port


__all__ = ["INSECURE_WARNING", "LOOPBACK", "RAY_ENV", "RayAuthError", "bind_loopback", "bootstrap_address", "ensure_token", "init",
           "is_loopback", "local_runtime_env", "prepare", "token_path"]
