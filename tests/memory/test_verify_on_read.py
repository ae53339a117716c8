"""Verify-on-read: each anchor kind against a real repository's HEAD, the presence trap closed by
role and scope, prose anchors that can only be INCONCLUSIVE, HEAD moving between two loads."""

from __future__ import annotations

import pytest

from warrant.runtime.memory import INCONCLUSIVE, Memory, Outcome, Status
from warrant.runtime.memory.anchors import parse_anchor
from tests.memory.conftest import fact

V, R, I = Outcome.VERIFIED, Outcome.REFUTED, Outcome.INCONCLUSIVE

CASES = [
    ({"kind": "file", "path": "app/server.py"}, V, "exists"),
    ({"kind": "file", "path": "app"}, V, "folder app exists"),
    ({"kind": "file", "path": "app/tasks.py"}, R, "does not exist"),
    ({"kind": "file", "path": "app/old.py", "present": False}, V, "absent"),
    # imports: presence is not use
    ({"kind": "import", "module": "sqlite3", "scope": "app/server.py"}, V, "imported"),
    ({"kind": "import", "module": "sqlite3", "scope": "app/server.py", "used_in": "store"}, V, "used in store"),
    ({"kind": "import", "module": "sqlite3", "scope": "app/server.py", "used_in": "serve"}, R, "never references it"),
    ({"kind": "import", "module": "pathlib", "scope": "app/server.py", "used_in": "Server.__init__"}, V, "used in"),
    ({"kind": "import", "module": "pathlib.Path", "scope": "app", "module_level": True}, V, "module level"),
    ({"kind": "import", "module": "redis", "scope": "app"}, R, "does not import redis"),
    ({"kind": "import", "module": "os", "scope": "app/server.py", "used_in": "nothing_here"}, R, "not defined"),
    # symbols, defaults, values
    ({"kind": "symbol", "symbol": "app.server:serve", "defined_as": "function"}, V, "function"),
    ({"kind": "symbol", "symbol": "app.server:serve", "param": "port", "default": 8080}, V, "8080"),
    ({"kind": "symbol", "symbol": "app.server:serve", "param": "port", "default": 9090}, R, "not 9090"),
    ({"kind": "symbol", "symbol": "app.server:serve", "param": "host"}, R, "no parameter host"),
    ({"kind": "symbol", "symbol": "app.server:Server", "param": "debug", "default": False}, V, "False".lower()),
    ({"kind": "symbol", "symbol": "app.server:Server.port", "defined_as": "attribute"}, V, "attribute"),
    ({"kind": "symbol", "symbol": "app.server:TIMEOUT", "value": 30}, V, "30"),
    ({"kind": "symbol", "symbol": "app.server:TIMEOUT", "value": 60}, R, "not 60"),
    ({"kind": "symbol", "symbol": "app.server:Server", "defined_as": "function"}, R, "is a class"),
    ({"kind": "symbol", "symbol": "app.server:Client"}, R, "not defined"),
    ({"kind": "symbol", "symbol": "app.jobs:run"}, R, "no file"),
    ({"kind": "symbol", "symbol": "numpy:array"}, I, "not part of this repository"),
    # environment
    ({"kind": "env_var", "name": "DB_PATH", "scope": "app"}, V, "read"),
    ({"kind": "env_var", "name": "DB_PATH", "scope": "app/server.py", "default": "app.db"}, V, "app.db"),
    ({"kind": "env_var", "name": "DB_PATH", "scope": "app", "default": "prod.db"}, R, "not \"prod.db\""),
    ({"kind": "env_var", "name": "REDIS_URL", "scope": ""}, R, "never read"),
    ({"kind": "env_var", "name": "DB_PATH", "scope": "app", "op": "set"}, R, "never set"),
    # dependencies: the group is a role
    ({"kind": "dependency", "name": "requests"}, V, "declared"),
    ({"kind": "dependency", "name": "Requests", "specifier": ">=2,<3", "group": ""}, V, "satisfies"),
    ({"kind": "dependency", "name": "requests", "specifier": ">=3"}, R, "outside"),
    ({"kind": "dependency", "name": "requests", "specifier": ">=2.30"}, I, "some allowed versions"),
    ({"kind": "dependency", "name": "pytest", "group": ""}, R, "declared only as pyproject group 'dev'"),
    ({"kind": "dependency", "name": "pytest", "group": "dev"}, V, "declared"),
    ({"kind": "dependency", "name": "celery"}, R, "not declared"),
    # config keys
    ({"kind": "config_key", "path": "pyproject.toml", "key": "tool.app.mode", "value": "fast"}, V, "fast"),
    ({"kind": "config_key", "path": "pyproject.toml", "key": "tool.app.mode", "value": "slow"}, R, "not \"slow\""),
    ({"kind": "config_key", "path": "pyproject.toml", "key": "tool.app.workers"}, R, "not set"),
    ({"kind": "config_key", "path": "setup.cfg", "key": "flake8.max-line-length"}, R, "does not exist"),
]


@pytest.mark.parametrize("anchor, outcome, detail", CASES, ids=[f"{c[0]['kind']}-{i}" for i, c in enumerate(CASES)])
def test_each_anchor_kind_against_head(memory, anchor, outcome, detail):
    _, index = memory.index.current()
    result = parse_anchor(anchor).evaluate(index)
    assert result.outcome is outcome, result.detail
    assert detail in result.detail


def test_verify_on_read_sets_statuses_and_retires_refuted_nodes_with_receipts(memory):
    ok = memory.add(fact("serve() defaults to port 8080", CASES[12][0]))
    trap = memory.add(fact("serve() keeps its state in sqlite3", CASES[6][0]))
    silent = memory.add(fact("background jobs run on Celery", {"kind": "dependency", "name": "celery"}))
    unsure = memory.add(fact("numpy arrays everywhere", {"kind": "symbol", "symbol": "numpy:array"}))
    res = memory.load_memory(limit=None)
    assert {n.id: n.status for n in res.nodes} == {ok.id: Status.VERIFIED, unsure.id: Status.ACTIVE}
    assert {n.id: n.mark for n in res.nodes}[unsure.id] == INCONCLUSIVE
    assert {r.node_id for r in res.retired} == {trap.id, silent.id}
    for r in res.retired:
        assert r.actor == "verify-on-read" and r.head == res.head and r.anchor_results and r.journal_entry
    trap_receipt = next(r for r in res.retired if r.node_id == trap.id)
    assert "never references it" in trap_receipt.reason
    # A second load at the same HEAD writes nothing: statuses only change when they change.
    n = memory.store.count()
    again = memory.load_memory(limit=None)
    assert memory.store.count() == n and not again.retired
    assert [n.id for n in again.nodes] == [n.id for n in res.nodes]


def test_prose_memories_only_ever_produce_inconclusive(memory):
    true = memory.add(fact("serve() in app/server.py uses sqlite3 via DB_PATH"))
    false = memory.add(fact("We use celery via CELERY_BROKER_URL in app/tasks.py"))
    res = memory.load_memory(limit=None)
    assert {n.id for n in res.nodes} == {true.id, false.id} and not res.retired
    for n in res.nodes:
        assert n.status is Status.ACTIVE and n.mark == INCONCLUSIVE
        assert n.anchor_results and {r.outcome for r in n.anchor_results} == {Outcome.INCONCLUSIVE}
        assert {r.origin for r in n.anchor_results} == {"prose"}
    signals = {n.id: {r.signal for r in n.anchor_results} for n in res.nodes}
    assert signals[false.id] == {Outcome.REFUTED} and Outcome.VERIFIED in signals[true.id]


def test_head_moving_between_two_loads_flips_verified_to_refuted_within_the_ttl(memory, repo, clock):
    port = memory.add(fact("serve() defaults to port 8080", CASES[12][0]))
    init = memory.add(fact("the package has an __init__.py", {"kind": "file", "path": "app/__init__.py"}))
    first = memory.load_memory(limit=None)
    assert {n.id: n.status for n in first.nodes} == {port.id: Status.VERIFIED, init.id: Status.VERIFIED}
    repo.write("app/server.py", repo.path.joinpath("app/server.py").read_text().replace("def serve(root, port=8080)", "def serve(root, port=9090)"))
    repo.rm("app/__init__.py")
    new_head = repo.commit("move the port, drop __init__")
    clock.advance(10)  # inside the TTL: HEAD is not re-read yet
    assert memory.load_memory(limit=None).head == first.head
    clock.advance(20)  # the TTL (30 s) has passed since HEAD was read
    second = memory.load_memory(limit=None)
    assert second.head == new_head and second.nodes == []
    assert {r.node_id for r in second.retired} == {port.id, init.id}
    reasons = {r.node_id: r.reason for r in second.retired}
    assert "is 9090, not 8080" in reasons[port.id] and "app/__init__.py does not exist" in reasons[init.id]
    assert memory.index.current()[1].stats.mode == "incremental"


def test_the_index_reads_the_commit_not_the_working_tree_and_persists_across_restarts(memory, repo, store_uri, clock):
    node = memory.add(fact("serve() defaults to port 8080", CASES[12][0]))
    repo.write("app/server.py", "def serve(root, port=1):\n    pass\n")  # edited, not committed
    assert memory.load_memory().nodes[0].status is Status.VERIFIED
    built = memory.index.current()[1].stats
    assert built.mode == "cold" and built.scanned == 3
    memory.close()
    again = Memory.open(store_uri, repo=repo.path, clock=clock)
    assert again.load_memory().nodes[0].id == node.id
    assert again.index.current()[1].stats.mode == "loaded"  # read back from Arrow, not rebuilt
    again.close()


def test_an_incremental_update_reparses_only_the_files_a_commit_changed(memory, repo, clock):
    assert memory.index.current()[1].stats.mode == "cold"
    for i in range(3):
        repo.write(f"app/m{i}.py", f"X{i} = {i}\n")
    repo.commit("three new modules")
    clock.advance(31)
    _, index = memory.index.current()
    assert index.stats.mode == "incremental" and index.stats.scanned == 3
    assert parse_anchor({"kind": "symbol", "symbol": "app.m2:X2", "value": 2}).evaluate(index).outcome is V


def test_a_lock_file_pin_gives_a_version_but_never_a_role(memory, repo, clock):
    repo.write("uv.lock", 'version = 1\n\n[[package]]\nname = "requests"\nversion = "2.31.0"\n\n[[package]]\nname = "tox-uv"\nversion = "1.0"\n')
    repo.commit("lock")
    clock.advance(31)
    _, index = memory.index.current()
    cases = [
        ({"kind": "dependency", "name": "tox-uv", "group": ""}, R, "declared only as lock"),  # pinned, never declared at runtime
        ({"kind": "dependency", "name": "tox-uv"}, V, "uv.lock"),
        ({"kind": "dependency", "name": "requests", "group": "", "specifier": ">=2.30,<3"}, V, "2.31.0"),  # the pin decides the range
    ]
    for anchor, outcome, detail in cases:
        r = parse_anchor(anchor).evaluate(index)
        assert r.outcome is outcome and detail in r.detail, (anchor, r.detail)


def test_a_module_getattr_leaves_existence_open_but_not_a_class_definition(memory, repo, clock):
    repo.write("app/compat.py", "def __getattr__(name):\n    raise AttributeError(name)\n")
    repo.commit("dynamic module")
    clock.advance(31)
    _, index = memory.index.current()
    assert parse_anchor({"kind": "symbol", "symbol": "app.compat:Old"}).evaluate(index).outcome is I
    r = parse_anchor({"kind": "symbol", "symbol": "app.compat:Old", "defined_as": "class"}).evaluate(index)
    assert r.outcome is R and "not defined" in r.detail
