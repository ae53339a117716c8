"""`warrant serve` and `warrant batch-verify`: the Ray commands, registered as a CLI plug-in.

Ray is imported inside the commands, not here: this module is loaded every time `warrant` starts.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Optional

import typer

_ENV = {
    "RAY_AUTH_MODE": "disabled",
    "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0",  # every listener on 127.0.0.1 for a local Ray
    "RAY_USAGE_STATS_ENABLED": "0",
    "LANCEDB_LOG": "error",
    # A busy replica answers Serve's queue-length probes late (see actors/verifier_pool.py).
    "RAY_SERVE_QUEUE_LENGTH_RESPONSE_DEADLINE_S": "1.0",
}


def _connect(address: Optional[str], num_cpus: Optional[int]) -> None:
    for k, v in _ENV.items():
        os.environ.setdefault(k, v)
    import ray

    if address:
        ray.init(address=address, namespace="warrant", log_to_driver=False)
    else:
        ray.init(num_cpus=num_cpus, include_dashboard=False, namespace="warrant", log_to_driver=False)


def register(app: typer.Typer) -> None:
    @app.command("serve")
    def serve_cmd(
        ledger: str = typer.Option(os.environ.get("WARRANT_LEDGER", ".warrant/ledger"), "--ledger", "-l", help="LanceDB directory or URI (s3://... on a cluster)."),
        address: Optional[str] = typer.Option(None, "--address", help="Join this Ray cluster (ray://HOST:10001 or HOST:6379) instead of starting a local one."),
        port: int = typer.Option(8000, "--port", help="HTTP port."),
        host: str = typer.Option("127.0.0.1", "--host", help="HTTP host. Loopback by default; 0.0.0.0 exposes the API to the network."),
        tools: str = typer.Option(os.environ.get("WARRANT_TOOLS", ""), "--registry", "-r", help="Folder of tool spec files (default: the invoice-audit example)."),
        model: str = typer.Option("default", "--model", help="Entailment backend: default | onnx:DIR | torch:DIR | vllm:NAME | none."),
        device: str = typer.Option("cpu", "--device", help="cpu or cuda (cuda gives each pool replica one GPU)."),
        config: Optional[Path] = typer.Option(None, "--pool-config", help="YAML with the verifier pool settings (actors.verifier_pool.PoolConfig fields)."),
        num_cpus: Optional[int] = typer.Option(None, "--num-cpus", help="CPUs for a local Ray (default: all)."),
    ) -> None:
        """Run the control plane on Ray behind an HTTP API, until Ctrl-C.

        Starts a local Ray (loopback only, no dashboard) unless --address joins a cluster, then
        deploys: the LedgerActor (the one writer of the ledger), GateActors, ToolBusActors, the
        autoscaled VerifierPool (Serve, batched) and the HTTP ingress:

          POST /evidence, POST /artifacts[?execute=true], POST /tool-calls, GET /verdicts/{run_id}

        Example:
          warrant serve --ledger .warrant/ledger --port 8000
          curl -s localhost:8000/evidence -d '{"run_id":"run_1","items":[{"text":"Cap: $250/hour"}]}'
          warrant serve --address ray://head:10001 --ledger s3://bucket/warrant --device cuda
        """
        import time

        from actors.serve_app import DEFAULT_TOOLS, run
        from actors.verifier_pool import PoolConfig

        pool = PoolConfig.from_yaml(config) if config else PoolConfig()
        pool = PoolConfig.from_dict({**pool.to_dict(), "model": model if model != "default" else pool.model, "device": device})
        _connect(address, num_cpus)
        run(ledger, tools_dir=tools or DEFAULT_TOOLS, pool=pool, host=host, port=port)
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
        from actors.batch import batch_verify

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
