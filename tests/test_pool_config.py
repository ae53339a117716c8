"""PoolConfig is a Pydantic model with extra="forbid": every bad setting is an error naming the
field, from a dict (a Serve config's `args.pool`) or a YAML file (`warrant serve --pool-config`)."""

import pytest
from pydantic import ValidationError

from warrant.actors.verifier_pool import PoolConfig


def test_defaults_and_round_trip():
    c = PoolConfig.from_dict({"model": "none", "num_replicas": 2, "env_vars": {"WARRANT_NLI_THREADS": "1"}})
    assert PoolConfig.from_dict(c.to_dict()) == c
    assert c.deployment_options()["num_replicas"] == 2 and c.gpus == 0.0
    assert PoolConfig(device="cuda:0").gpus == 1.0
    assert "autoscaling_config" in PoolConfig().deployment_options()


@pytest.mark.parametrize("bad, field", [
    ({"num_replica": 2}, "num_replica"),                      # a typo is not silently ignored
    ({"max_batch_size": "big"}, "max_batch_size"),
    ({"max_batch_size": 0}, "max_batch_size"),
    ({"num_gpus": -1}, "num_gpus"),
    ({"env_vars": {"THREADS": 1}}, "env_vars.THREADS"),
])
def test_a_bad_setting_is_an_error_naming_the_field(bad, field):
    with pytest.raises(ValidationError) as e:
        PoolConfig.from_dict(bad)
    assert [".".join(map(str, err["loc"])) for err in e.value.errors()] == [field]


def test_replica_bounds_are_checked_together():
    with pytest.raises(ValueError, match="min_replicas \\(5\\) is above max_replicas \\(2\\)"):
        PoolConfig(min_replicas=5, max_replicas=2)


def test_yaml_errors_name_the_file_and_the_field(tmp_path):
    ok = tmp_path / "pool.yaml"
    ok.write_text("verifier_pool:\n  model: none\n  max_replicas: 8\n")
    assert PoolConfig.from_yaml(ok).max_replicas == 8
    bad = tmp_path / "bad.yaml"
    bad.write_text("verifier_pool:\n  model: none\n  batch_wait: 0.5\n")
    with pytest.raises(ValueError, match=r"bad\.yaml: verifier_pool\.batch_wait: Extra inputs are not permitted"):
        PoolConfig.from_yaml(bad)
    not_a_map = tmp_path / "list.yaml"
    not_a_map.write_text("- model\n")
    with pytest.raises(ValueError, match=r"list\.yaml: \(top level\)"):
        PoolConfig.from_yaml(not_a_map)
