"""cluster/: every YAML parses, validates against Ray's own schemas, and names what the code names."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
CLUSTER = ROOT / "cluster"
YAMLS = sorted(CLUSTER.rglob("*.yaml"))


def _load(rel: str):
    return yaml.safe_load((CLUSTER / rel).read_text())


def _names():
    from warrant.actors.serve_app import APP_NAME, INGRESS_DEPLOYMENT
    from warrant.actors.verifier_pool import VERIFIER_DEPLOYMENT

    return APP_NAME, INGRESS_DEPLOYMENT, VERIFIER_DEPLOYMENT


def _rayservice_serve_config():
    return yaml.safe_load(_load("kuberay/rayservice.yaml")["spec"]["serveConfigV2"])


def test_there_are_the_expected_files_and_each_parses():
    assert {p.relative_to(CLUSTER).as_posix() for p in YAMLS} >= {
        "ray-cluster.yaml", "serve_config.yaml", "kuberay/raycluster.yaml", "kuberay/rayservice.yaml",
    }
    for p in YAMLS:
        assert list(yaml.safe_load_all(p.read_text())), p


@pytest.mark.parametrize("which", ["serve_config.yaml", "kuberay/rayservice.yaml"])
def test_serve_configs_validate_against_rays_schema_and_name_the_codes_deployments(which):
    from ray.serve.schema import ServeDeploySchema

    doc = _load(which) if which.endswith("serve_config.yaml") else _rayservice_serve_config()
    schema = ServeDeploySchema.model_validate(doc)
    app_name, ingress, pool = _names()
    (app,) = schema.applications
    assert app.name == app_name
    assert {d.name for d in app.deployments} == {ingress, pool}
    assert schema.logging_config.enable_access_log is False
    pool_cfg = next(d for d in app.deployments if d.name == pool)
    auto = pool_cfg.autoscaling_config
    assert auto["min_replicas"] == 0 and auto["max_replicas"] > 1  # may scale to zero, and out
    assert pool_cfg.max_ongoing_requests >= 100  # the default 5 collapses under a burst
    assert pool_cfg.ray_actor_options.num_gpus == 1
    assert app.args["ledger_uri"].startswith("s3://")


def test_the_rayservice_embeds_exactly_the_serve_config():
    assert _rayservice_serve_config() == _load("serve_config.yaml")


def test_the_serve_config_import_path_builds_the_application():
    import importlib

    from warrant.actors.verifier_pool import PoolConfig

    app = _load("serve_config.yaml")["applications"][0]
    module, _, attr = app["import_path"].partition(":")
    builder = getattr(importlib.import_module(module), attr)
    assert builder(app["args"]) is not None  # binding needs no running cluster
    assert PoolConfig.from_dict(app["args"]["pool"]).gpus == 1
    with pytest.raises(ValueError, match="unknown"):
        builder({**app["args"], "replicas": 3})


def test_the_cluster_launcher_config_validates_against_rays_schema():
    import ray.autoscaler

    schema = json.loads((Path(ray.autoscaler.__file__).parent / "ray-schema.json").read_text())
    doc = _load("ray-cluster.yaml")
    jsonschema.validate(doc, schema)
    types = doc["available_node_types"]
    head = types[doc["head_node_type"]]
    gpu = [t for t in types.values() if t.get("resources", {}).get("GPU")]
    assert "GPU" not in head["resources"]  # the control plane runs on a CPU head
    assert gpu and all(t["max_workers"] > t["min_workers"] for t in gpu)  # it autoscales


@pytest.mark.parametrize("which", ["kuberay/raycluster.yaml", "kuberay/rayservice.yaml"])
def test_kuberay_manifests_autoscale_a_gpu_group_and_keep_the_ledger_on_object_storage(which):
    doc = _load(which)
    spec = doc["spec"] if doc["kind"] == "RayCluster" else doc["spec"]["rayClusterConfig"]
    assert doc["apiVersion"] == "ray.io/v1"
    assert spec["enableInTreeAutoscaling"] is True
    gpu_groups = [
        g for g in spec["workerGroupSpecs"]
        if any("nvidia.com/gpu" in c.get("resources", {}).get("limits", {}) for c in g["template"]["spec"]["containers"])
    ]
    assert gpu_groups
    for g in gpu_groups:
        assert 0 <= g["minReplicas"] < g["maxReplicas"]
    for container in [c for g in [spec["headGroupSpec"], *spec["workerGroupSpecs"]] for c in g["template"]["spec"]["containers"]]:
        env = {e["name"]: e.get("value") for e in container["env"]}
        assert env["WARRANT_LEDGER"].startswith("s3://")
        assert env["RAY_SERVE_QUEUE_LENGTH_RESPONSE_DEADLINE_S"] == "1.0"


# -- security: Ray token auth, network policies, the API's token file (issue 10, item 1) ---------

def _pod_templates(which: str) -> list[dict]:
    doc = _load(which)
    spec = doc["spec"] if doc["kind"] == "RayCluster" else doc["spec"]["rayClusterConfig"]
    return [g["template"] for g in [spec["headGroupSpec"], *spec["workerGroupSpecs"]]]


def _env_values(text: str) -> list[str]:
    return [line for line in text.splitlines() if "RAY_AUTH_MODE" in line]


@pytest.mark.parametrize("which", ["kuberay/raycluster.yaml", "kuberay/rayservice.yaml"])
def test_kuberay_clusters_run_ray_with_token_auth(which):
    doc = _load(which)
    spec = doc["spec"] if doc["kind"] == "RayCluster" else doc["spec"]["rayClusterConfig"]
    assert spec["authOptions"] == {"mode": "token"}  # KubeRay makes the token and sets it in every container
    for tpl in _pod_templates(which):
        for c in tpl["spec"]["containers"]:
            assert all(e["name"] not in ("RAY_AUTH_MODE", "RAY_AUTH_TOKEN") for e in c.get("env", [])), c["name"]  # the operator's to set


def test_the_cluster_launcher_starts_every_node_with_the_token():
    doc = _load("ray-cluster.yaml")
    assert doc["file_mounts"]["~/.ray/auth_token"] == "~/.ray/auth_token"
    for key in ("head_start_ray_commands", "worker_start_ray_commands"):
        cmds = doc[key]
        start = next(c for c in cmds if "ray start" in c)
        assert "RAY_AUTH_MODE=token" in start, key
        assert cmds.index("chmod 600 ~/.ray/auth_token") < cmds.index(start)


def _policies() -> list[dict]:
    return [d for d in yaml.safe_load_all((CLUSTER / "kuberay" / "networkpolicy.yaml").read_text()) if d]


def _selects(selector: dict, labels: dict) -> bool:
    want = selector.get("matchLabels", {})
    return bool(want) and not selector.get("matchExpressions") and all(labels.get(k) == v for k, v in want.items())


def test_network_policies_admit_only_the_clusters_own_pods_to_ray():
    pols = _policies()
    assert pols and all(p["apiVersion"] == "networking.k8s.io/v1" and p["kind"] == "NetworkPolicy" for p in pols)
    pods = {which: [t["metadata"]["labels"] for t in _pod_templates(which)] for which in ("kuberay/raycluster.yaml", "kuberay/rayservice.yaml")}
    head = {"ray.io/node-type": "head"}  # set by KubeRay on head pods
    for which, labels in pods.items():
        # Every Ray pod is selected by the policy that admits Ray's own traffic, so it is default-deny otherwise.
        internal = [p for p in pols if all(_selects(p["spec"]["podSelector"], lab) for lab in labels)]
        assert internal, which
    for p in pols:
        spec = p["spec"]
        assert "Ingress" in spec["policyTypes"] and spec["podSelector"].get("matchLabels")
        for rule in spec["ingress"]:
            peers = rule.get("from")
            assert peers, f"{p['metadata']['name']}: a rule without `from` admits every address"
            for peer in peers:
                assert "ipBlock" not in peer and (peer.get("podSelector") or {}).get("matchLabels"), (p["metadata"]["name"], peer)
            own = all(_selects(peer["podSelector"], pods["kuberay/raycluster.yaml"][0]) and "namespaceSelector" not in peer for peer in peers)
            if not own:
                # Anyone else gets named ports on the head only: the dashboard (operator) and the API.
                assert {port["port"] for port in rule["ports"]} <= {8265, 8000}, p["metadata"]["name"]
                assert _selects(spec["podSelector"], {**pods["kuberay/rayservice.yaml"][0], **head})
                assert not _selects(spec["podSelector"], pods["kuberay/rayservice.yaml"][1]), "a worker pod is open beyond the cluster"


@pytest.mark.parametrize("which", ["kuberay/raycluster.yaml", "kuberay/rayservice.yaml"])
def test_every_ray_pod_mounts_the_api_token_file_the_serve_config_names(which):
    from warrant.actors.serve_app import api_config

    args = _load("serve_config.yaml")["applications"][0]["args"]
    cfg = api_config(args["ledger_uri"], args["api"])
    assert cfg.auth and cfg.api_tokens.startswith("/")
    for tpl in _pod_templates(which):
        secrets = {v["name"] for v in tpl["spec"]["volumes"] if v.get("secret", {}).get("secretName") == "warrant-api-tokens"}
        for c in tpl["spec"]["containers"]:
            mounts = [m["mountPath"] for m in c["volumeMounts"] if m["name"] in secrets]
            assert any(cfg.api_tokens.startswith(m.rstrip("/") + "/") for m in mounts), (which, c["name"])
