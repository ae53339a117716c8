"""`warrant serve` and `warrant batch-verify`: the Ray commands, registered as a CLI plug-in.

Ray is imported inside the commands, not here: this module is loaded every time `warrant` starts.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Optional

import typer

from warrant.runtime.apitokens import SCOPES, TokenStore, TokenStoreError

LedgerOpt = typer.Option(os.environ.get("WARRANT_LEDGER", ".warrant/ledger"), "--ledger", "-l", help="LanceDB directory or URI (s3://... on a cluster).")
TokensOpt = typer.Option(os.environ.get("WARRANT_API_TOKENS"), "--api-tokens", help="API token file (default: next to a local ledger, LEDGER.tokens.json; env WARRANT_API_TOKENS).")


def _fail(msg: str, code: int = 2) -> None:
    typer.echo(f"error: {msg}", err=True)
    raise typer.Exit(code)


def _store(ledger: str, tokens: Optional[str]) -> TokenStore:
    try:
        return TokenStore(tokens) if tokens else TokenStore.for_ledger(ledger)
    except TokenStoreError as exc:
        _fail(str(exc))
        raise


def _connect(address: Optional[str], num_cpus: Optional[int], ray_auth: bool = True) -> None:
    from warrant.actors.ray_env import RayAuthError, init

    try:
        init(address, num_cpus=num_cpus, ray_auth=ray_auth, log_to_driver=False)
    except RayAuthError as exc:
        _fail(str(exc))


def register(app: typer.Typer) -> None:
    token_app = typer.Typer(help="API tokens for `warrant serve`: create (shown once), list, revoke.", no_args_is_help=True)
    app.add_typer(token_app, name="token")

    @token_app.command("create")
    def token_create(
        scope: str = typer.Option(..., "--scope", "-s", help=f"Comma-separated scopes: {', '.join(SCOPES)}."),
        name: str = typer.Option("", "--name", help="A label for lists and logs (who or what holds it)."),
        agent: Optional[str] = typer.Option(None, "--agent", help="Bind the token to one agent: POST /artifacts with it must have this from_agent."),
        ledger: str = LedgerOpt,
        tokens: Optional[str] = TokensOpt,
    ) -> None:
        """Create an API token and print it once; only its SHA-256 is stored (file mode 0600).

        Scopes: read (GET /verdicts), evidence (POST /evidence), submit (POST /artifacts, propose
        tool calls), approve (execute tool calls).

        Example:
          warrant token create --scope read,evidence,submit --name researcher
          warrant token create --scope evidence,submit --agent analyst   # may only send as analyst
          curl -H "Authorization: Bearer $TOKEN" localhost:8000/verdicts/run_1
        """
        store = _store(ledger, tokens)
        try:
            token, rec = store.create(scope, name=name, agent=agent)
        except TokenStoreError as exc:
            _fail(str(exc))
            raise
        typer.echo(token)
        typer.echo(f"token {rec.id} ({', '.join(rec.scopes)}) stored hashed in {store.path}; it is not shown again", err=True)

    @token_app.command("list")
    def token_list(ledger: str = LedgerOpt, tokens: Optional[str] = TokensOpt) -> None:
        """List tokens: id, scopes, name, created, the agent a token is bound to (never the secrets).

        Example: warrant token list --ledger .warrant/ledger
        """
        try:
            records = _store(ledger, tokens).list()
        except TokenStoreError as exc:
            _fail(str(exc))
            raise
        for r in records:
            typer.echo(f"{r.id}  {','.join(r.scopes):<28} {r.created}  {r.name}" + (f"  (agent {r.agent})" if r.agent else ""))

    @token_app.command("revoke")
    def token_revoke(token_id: str = typer.Argument(..., help="The token's id (see `warrant token list`)."), ledger: str = LedgerOpt,
                     tokens: Optional[str] = TokensOpt) -> None:
        """Revoke a token; a running `warrant serve` refuses it from its next request.

        Example: warrant token revoke 3f2a9c1d
        """
        try:
            found = _store(ledger, tokens).revoke(token_id)
        except TokenStoreError as exc:
            _fail(str(exc))
            raise
        if not found:
            _fail(f"no token with id {token_id!r}")
        typer.echo(f"revoked {token_id}")

    @app.command("serve")
    def serve_cmd(
        ledger: str = LedgerOpt,
        address: Optional[str] = typer.Option(None, "--address", help="Join this Ray cluster (ray://HOST:10001 or HOST:6379) instead of starting a local one; needs the cluster's Ray token (RAY_AUTH_TOKEN or RAY_AUTH_TOKEN_PATH)."),
        port: int = typer.Option(8000, "--port", help="HTTP port."),
        host: str = typer.Option("127.0.0.1", "--host", help="HTTP host. Loopback by default; 0.0.0.0 exposes the API to the network."),
        tools: str = typer.Option(os.environ.get("WARRANT_TOOLS", ""), "--registry", "-r", help="Folder of tool spec files (default: the invoice-audit example)."),
        model: str = typer.Option("default", "--model", help="Entailment backend: default | onnx:DIR | torch:DIR | vllm:NAME | none."),
        device: str = typer.Option("cpu", "--device", help="cpu or cuda (cuda gives each pool replica one GPU)."),
        config: Optional[Path] = typer.Option(None, "--pool-config", help="YAML with the verifier pool settings (actors.verifier_pool.PoolConfig fields)."),
        num_cpus: Optional[int] = typer.Option(None, "--num-cpus", help="CPUs for a local Ray (default: all)."),
        api_tokens: Optional[str] = TokensOpt,
        max_in_flight: int = typer.Option(64, "--max-in-flight", min=1, help="Requests the API works on at once; more wait in a short queue, then get 503 + Retry-After."),
        max_queued: int = typer.Option(64, "--max-queued", min=1, help="Requests that may wait for a slot before the rest are refused with 503."),
        max_artifacts_in_flight: int = typer.Option(8, "--max-artifacts-in-flight", min=1, help="POST /artifacts verified at once; one more gets 503 + Retry-After (size: pool artifacts/s x accepted latency)."),
        max_evidence_bytes: int = typer.Option(8 * 1024 * 1024, "--max-evidence-bytes", min=1, help="Largest POST /evidence body (413 above it)."),
        max_body_bytes: int = typer.Option(1024 * 1024, "--max-body-bytes", min=1, help="Largest body of any other request (413 above it)."),
        insecure_no_auth: bool = typer.Option(False, "--insecure-no-auth", help="Serve the HTTP API without tokens: anyone who reaches the port may write evidence and execute tools."),
        insecure_ray_no_auth: bool = typer.Option(False, "--insecure-ray-no-auth", help="Run Ray without token authentication: anyone who reaches a Ray port can run code here."),
    ) -> None:
        """Run the control plane on Ray behind an HTTP API, until Ctrl-C.

        Starts a local Ray (loopback only, token authentication, no dashboard) unless --address
        joins a cluster, then deploys: the LedgerActor (the one writer of the ledger), GateActors,
        ToolBusActors, the autoscaled VerifierPool (Serve, batched) and the HTTP ingress:

          POST /evidence, POST /artifacts[?execute=true], POST /tool-calls, GET /verdicts/{run_id}

        Every call needs an API token (`warrant token create`); without one it refuses to start.

        Example:
          TOKEN=$(warrant token create --scope read,evidence,submit --ledger .warrant/ledger)
          warrant serve --ledger .warrant/ledger --port 8000
          curl -s localhost:8000/evidence -H "Authorization: Bearer $TOKEN" -d '{"run_id":"run_1","items":[{"text":"Cap: $250/hour"}]}'
          warrant serve --address ray://head:10001 --ledger s3://bucket/warrant --api-tokens /etc/warrant/api-tokens.json --device cuda
        """
        import time

        from warrant.actors.guard import ApiConfig

        api = {"max_in_flight": max_in_flight, "max_queued": max_queued, "max_artifacts_in_flight": max_artifacts_in_flight,
               "max_evidence_bytes": max_evidence_bytes, "max_body_bytes": max_body_bytes}
        if insecure_no_auth:
            typer.echo("WARNING: HTTP API AUTHENTICATION IS OFF (--insecure-no-auth): anyone who can reach "
                       f"{host}:{port} may write evidence and execute tools.", err=True)
            api_cfg = ApiConfig(auth=False, **api)
        else:
            store = _store(ledger, api_tokens)
            try:
                has_tokens = store.exists()
            except TokenStoreError as exc:
                _fail(str(exc))
                raise
            if not has_tokens:
                _fail(f"no API token in {store.path}: create one first, e.g.\n"
                      f"  warrant token create --scope read,evidence,submit,approve --ledger {ledger}"
                      + (f" --api-tokens {api_tokens}" if api_tokens else "")
                      + "\n(or pass --insecure-no-auth to serve without authentication)")
            api_cfg = ApiConfig(api_tokens=str(store.path.resolve()), **api)

        _connect(address, num_cpus, ray_auth=not insecure_ray_no_auth)  # before anything imports Ray
        from warrant.actors.serve_app import DEFAULT_TOOLS, run
        from warrant.actors.verifier_pool import PoolConfig

        pool = PoolConfig.from_yaml(config) if config else PoolConfig()
        pool = PoolConfig.from_dict({**pool.to_dict(), "model": model if model != "default" else pool.model, "device": device})
        run(ledger, tools_dir=tools or DEFAULT_TOOLS, pool=pool, host=host, port=port, api=api_cfg)
        typer.echo(f"warrant: serving on http://{host}:{port} (ledger {ledger}); Ctrl-C stops")
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            from ray import serve

            if not address:
                serve.shutdown()

    @app.command("batch-verify")
    def batch_verify_cmd(
        inputs: list[Path] = typer.Argument(..., help="JSONL or Parquet files: one proposition per row ({run_id, claim, proposition}) or one artifact per row."),
        out: Path = typer.Option(..., "--out", "-o", help="Folder for the verdict Parquet files (rerun with the same folder to resume)."),
        ledger: str = typer.Option(os.environ.get("WARRANT_LEDGER", ".warrant/ledger"), "--ledger", "-l", help="LanceDB directory or URI holding the cited records."),
        address: Optional[str] = typer.Option(None, "--address", help="Run on this Ray cluster instead of a local one."),
        model: str = typer.Option("default", "--model", help="Entailment backend: default | onnx:DIR | torch:DIR | none."),
        device: str = typer.Option("cpu", "--device", help="cpu or cuda (one GPU per verifier actor)."),
        min_actors: int = typer.Option(1, "--min-actors", help="Verifier actors to start with."),
        max_actors: int = typer.Option(2, "--max-actors", help="Verifier actors to scale up to."),
        batch_size: int = typer.Option(256, "--batch-size", help="Propositions per model batch (and per verdict file)."),
        num_cpus: Optional[int] = typer.Option(None, "--num-cpus", help="CPUs for a local Ray (default: all)."),
    ) -> None:
        """Verify a large set of propositions on a pool of verifier actors (Ray Data); resumable.

        Each finished batch is one Parquet file in --out, named by the propositions it holds. A
        rerun after a crash skips every proposition already written: nothing is lost and
        nothing is written twice.

        Example:
          warrant batch-verify claims.jsonl --out verdicts/ --ledger .warrant/ledger --max-actors 2
          warrant batch-verify docs/*.parquet -o s3-mounted/verdicts --address ray://head:10001 --device cuda --max-actors 8
        """
        from warrant.actors.batch import batch_verify

        _connect(address, num_cpus)
        rep = batch_verify(
            [str(p) for p in inputs], out, ledger, model=model, device=device,
            min_actors=min_actors, max_actors=max_actors, batch_size=batch_size,
        )
        typer.echo(
            f"verified {rep.written} proposition(s) in {rep.seconds:.1f} s ({rep.per_second:.1f}/s); "
            f"skipped {rep.skipped} already written; {rep.files} file(s) in {out}"
            + (f"; dropped {rep.duplicates_dropped} duplicate(s)" if rep.duplicates_dropped else "")
        )
