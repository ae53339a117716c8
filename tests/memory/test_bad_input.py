"""Bad input: a clear result or a clear error, never a crash, and nothing in the store changes."""

from __future__ import annotations

import subprocess

import pytest

from warrant.runtime.memory import Memory, MemoryInputError, Outcome, RepositoryError, Status
from warrant.runtime.memory.anchors import parse_anchor
from tests.memory.conftest import GIT_ENV, Repo, fact

PORT = {"kind": "symbol", "symbol": "app.server:serve", "param": "port", "default": 8080}


def _snapshot(m: Memory):
    return m.store.count(), {n.id: (n.status, n.mark) for n in m.store.nodes.values()}


def test_a_path_outside_the_repository_is_refused_naming_the_field(memory):
    before = _snapshot(memory)
    for path in ("../secrets.py", "/etc/passwd", "app/../../x.py", "C:\\x.py"):
        with pytest.raises(MemoryInputError) as e:
            memory.add(fact("x", {"kind": "file", "path": path}))
        v = e.value.violations[0]
        assert v.loc == "$[0].anchors[0].file.path" and "inside the repository" in v.message or "POSIX" in v.message
    with pytest.raises(MemoryInputError) as e:
        memory.add(fact("x", {"kind": "import", "module": "os", "scope": "../other"}))
    assert e.value.violations[0].loc == "$[0].anchors[0].import.scope"
    assert _snapshot(memory) == before


def test_a_missing_repository_is_a_clear_error_and_creates_nothing(tmp_path):
    store = tmp_path / "store"
    for bad, msg in ((tmp_path / "nowhere", "does not exist"), (tmp_path, "not inside a git repository")):
        with pytest.raises(RepositoryError, match=msg):
            Memory.open(str(store), repo=bad)
    (tmp_path / "file.txt").write_text("x")
    with pytest.raises(RepositoryError, match="is a file"):
        Memory.open(str(store), repo=tmp_path / "file.txt")
    assert not store.exists()


def test_a_repository_with_no_commits_leaves_everything_inconclusive_and_unchanged(tmp_path, clock):
    empty = Repo(tmp_path / "empty")
    m = Memory.open(str(tmp_path / "store"), repo=empty.path, clock=clock)
    node = m.add(fact("serve() defaults to 8080", PORT))
    before = _snapshot(m)
    res = m.load_memory()
    assert res.head is None and "no commits" in res.problem
    assert [n.id for n in res.nodes] == [node.id] and res.nodes[0].status is Status.ACTIVE
    assert {r.outcome for r in res.nodes[0].anchor_results} == {Outcome.INCONCLUSIVE}
    assert "no commits" in res.nodes[0].anchor_results[0].detail
    v = m.verify()
    assert v.problem and v.checks[0].outcome is Outcome.INCONCLUSIVE
    assert _snapshot(m) == before
    m.close()


def test_a_detached_head_is_verified_against_its_commit(memory, repo, clock):
    first = repo.git("rev-parse", "HEAD")
    repo.write("app/server.py", "def serve(root, port=9090):\n    pass\n")
    repo.commit("port 9090")
    repo.git("checkout", "-q", "--detach", first)
    node = memory.add(fact("serve() defaults to 8080", PORT))
    state = memory.repo.state(force=True)
    assert state.detached and state.ref is None and state.sha == first
    res = memory.load_memory()
    assert res.head == first and res.nodes[0].id == node.id and res.nodes[0].status is Status.VERIFIED


def test_a_shallow_clone_is_verified_against_its_head(repo, tmp_path, clock):
    repo.write("app/extra.py", "Y = 1\n")
    repo.commit("second")
    clone = tmp_path / "shallow"
    subprocess.run(["git", "clone", "-q", "--depth", "1", f"file://{repo.path}", str(clone)], check=True, env={**GIT_ENV, "PATH": "/usr/bin:/bin"})
    m = Memory.open(str(tmp_path / "store"), repo=clone, clock=clock)
    assert m.repo.state().shallow
    ok = m.add(fact("serve() defaults to 8080", PORT))
    gone = m.add(fact("there is a tasks module", {"kind": "file", "path": "app/tasks.py"}))
    res = m.load_memory(limit=None)
    assert [n.id for n in res.nodes] == [ok.id] and [r.node_id for r in res.retired] == [gone.id]
    m.close()


def test_binary_non_utf8_and_unparsable_files_give_inconclusive_never_refuted(repo, memory, clock):
    repo.write("app/blob.py", b"\x00\x01\x02binary\x00")
    repo.write("app/latin.py", "# no coding cookie\nNAME = 'caf\xe9'\n".encode("latin-1"))
    repo.write("app/cookie.py", "# -*- coding: latin-1 -*-\nNAME = 'caf\xe9'\n".encode("latin-1"))
    repo.write("app/broken.py", "def broken(:\n    pass\n")
    repo.write("settings.yaml", b"mode: \xff\xfe fast\n")
    repo.write("conf/app.toml", "[app\nmode = 1\n")
    repo.write("logo.png", b"\x89PNG\r\n\x1a\n\x00\x00")
    repo.commit("odd files")
    clock.advance(31)
    _, index = memory.index.current()
    assert {p: index.file(p).status for p in ("app/blob.py", "app/latin.py", "app/cookie.py", "app/broken.py", "settings.yaml", "conf/app.toml", "logo.png")} == {
        "app/blob.py": "binary", "app/latin.py": "non_utf8", "app/cookie.py": "ok", "app/broken.py": "syntax_error",
        "settings.yaml": "non_utf8", "conf/app.toml": "parse_error", "logo.png": "not_scanned",
    }
    cases = [
        ({"kind": "symbol", "symbol": "app.blob:X", "path": "app/blob.py"}, Outcome.INCONCLUSIVE),
        ({"kind": "symbol", "symbol": "app.latin:NAME", "value": "café"}, Outcome.INCONCLUSIVE),
        ({"kind": "symbol", "symbol": "app.cookie:NAME", "value": "café"}, Outcome.VERIFIED),
        ({"kind": "symbol", "symbol": "app.broken:broken"}, Outcome.INCONCLUSIVE),
        ({"kind": "import", "module": "os", "scope": "app/broken.py"}, Outcome.INCONCLUSIVE),
        ({"kind": "config_key", "path": "settings.yaml", "key": "mode"}, Outcome.INCONCLUSIVE),
        ({"kind": "config_key", "path": "conf/app.toml", "key": "app.mode"}, Outcome.INCONCLUSIVE),
        ({"kind": "file", "path": "logo.png"}, Outcome.VERIFIED),
        ({"kind": "file", "path": "app/blob.py"}, Outcome.VERIFIED),
    ]
    for anchor, outcome in cases:
        r = parse_anchor(anchor).evaluate(index)
        assert r.outcome is outcome, (anchor, r.detail)
    nodes = memory.add_many([fact(f"odd {i}", a) for i, (a, o) in enumerate(cases) if o is Outcome.INCONCLUSIVE])
    res = memory.load_memory(limit=None)
    assert not res.retired and {n.id for n in res.nodes} == {n.id for n in nodes}


def test_a_manifest_that_does_not_parse_makes_dependency_anchors_inconclusive(repo, memory, clock):
    node = memory.add(fact("we depend on requests", {"kind": "dependency", "name": "requests"}))
    assert memory.load_memory().nodes[0].status is Status.VERIFIED
    repo.write("pyproject.toml", "[project\ndependencies = [")
    repo.commit("broken pyproject")
    clock.advance(31)
    before = memory.store.count()
    res = memory.load_memory()
    assert res.nodes[0].id == node.id and res.nodes[0].status is Status.ACTIVE and not res.retired
    assert "does not parse" in res.nodes[0].anchor_results[0].detail
    assert memory.store.count() == before + 2  # VERIFIED -> ACTIVE, and the INCONCLUSIVE mark; nothing retired


def test_bad_load_and_verify_arguments_are_refused(memory):
    memory.add(fact("a", PORT))
    before = _snapshot(memory)
    with pytest.raises(MemoryInputError, match=r"\$.limit"):
        memory.load_memory(limit=0)
    with pytest.raises(Exception, match="node_ids\\[0\\]: no memory node"):
        memory.verify(["mem_" + "0" * 32])
    assert _snapshot(memory) == before
