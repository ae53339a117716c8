"""`warrant memory ...` (exit codes 0/1/2/3 as COMMON.md defines them) and the MCP server, driven
by the official `mcp` package's own client over stdio."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from warrant.runtime.cli import app
from warrant.runtime.memory import Memory, Status

ROOT = Path(__file__).resolve().parents[2]
PORT = {"kind": "symbol", "symbol": "app.server:serve", "param": "port", "default": 8080}
TRAP = {"kind": "import", "module": "sqlite3", "scope": "app/server.py", "used_in": "serve"}
runner = CliRunner()


def cli(*args: str):
    return runner.invoke(app, ["memory", *args])


def _id(output: str) -> str:
    return output.split()[0]


def test_cli_add_load_retract_verify_show_export(repo, store_uri, tmp_path):
    s = ["--store", store_uri]
    ok = cli("add", "serve() defaults to port 8080", "--author", "ana", "--anchor", json.dumps(PORT), *s)
    assert ok.exit_code == 0, ok.output
    port_id = _id(ok.output)
    trap_id = _id(cli("add", "serve() keeps its state in [bold]sqlite3[/bold]", "--author", "ana", "--anchor", json.dumps(TRAP), *s).output)
    child = cli("add", "the [red]lb[/red] forwards to 8080", "--author", "bo", "--derived-from", port_id, *s)
    child_id = _id(child.output)

    loaded = cli("load", "--repo", str(repo.path), *s)
    assert loaded.exit_code == 0 and port_id in loaded.output and child_id in loaded.output
    assert f"retired {trap_id}" in loaded.output and "never references it" in loaded.output
    assert "[red]" in loaded.output  # untrusted text is shown as written, never as markup
    as_json = json.loads(cli("load", "--json", "--repo", str(repo.path), *s).output)
    assert {n["id"]: n["status"] for n in as_json["nodes"]}[port_id] == "VERIFIED"

    assert cli("verify", port_id, "--repo", str(repo.path), *s).exit_code == 0
    assert cli("verify", child_id, "--repo", str(repo.path), *s).exit_code == 1  # no anchors: INCONCLUSIVE

    receipt = cli("retract", port_id, "--reason", "moved to 9090", "--evidence", "led_" + "a" * 32, *s)
    assert receipt.exit_code == 0, receipt.output
    body = json.loads(receipt.output)
    assert body["node_id"] == port_id and [c["node_id"] for c in body["cascade"]] == [child_id] and body["journal_entry"]
    shown = json.loads(cli("show", child_id, *s).output)
    assert shown["node"]["status"] == "SUSPECT" and [e["kind"] for e in shown["events"]] == ["add", "mark", "status"]
    assert cli("load", "--no-verify", *s).output.count("mem_") == 0

    dest = tmp_path / "events.jsonl"
    exported = cli("export", str(dest), "--events", *s)
    assert exported.exit_code == 0 and len(dest.read_text().splitlines()) == Memory.open(store_uri, writer=False).store.count()


def test_cli_bad_input_exits_2_with_the_field_and_writes_nothing(repo, store_uri, tmp_path):
    s = ["--store", store_uri]
    node = _id(cli("add", "a fact", "--author", "ana", *s).output)
    cases = [
        (("add", "x", "--author", "ana", "--anchor", '{"kind":"file","path":"../x"}'), "$[0].anchors[0].file.path"),
        (("add", "x", "--author", "ana", "--anchor", "{not json"), "--anchor #1: not JSON"),
        (("add", "x"), "give TEXT and --author"),
        (("retract", "mem_" + "0" * 32, "--reason", "x"), "no memory node"),
        (("retract", node, "--reason", "x", "--evidence", "http://made-up"), "$.evidence[0]"),
        (("load", "--repo", str(tmp_path / "nowhere")), "does not exist"),
        (("load", "--limit", "0", "--repo", str(repo.path)), "$.limit"),
        (("verify", "mem_" + "0" * 32, "--repo", str(repo.path)), "node_ids[0]"),
        (("export", str(tmp_path / "x.csv")), "unknown export format"),
    ]
    before = Memory.open(store_uri, writer=False).store.count()
    for args, msg in cases:
        r = cli(*args, *s)
        assert r.exit_code == 2, (args, r.output)
        assert msg in r.output.replace("\n", ""), (args, r.output)
    cli("retract", node, "--reason", "wrong", *s)
    again = cli("retract", node, "--reason", "again", *s)
    assert again.exit_code == 2 and "already REFUTED" in again.output
    assert Memory.open(store_uri, writer=False).store.count() == before + 1


def test_cli_load_falls_back_to_read_only_when_another_process_writes(repo, store_uri):
    writer = Memory.open(store_uri, repo=repo.path)
    writer.add({"text": "serve() defaults to 8080", "author": "ana", "anchors": [PORT]})
    r = cli("load", "--json", "--repo", str(repo.path), "--store", store_uri)
    assert r.exit_code == 0 and json.loads(r.output[r.output.index("{"):])["persisted"] is False
    assert cli("add", "x", "--author", "ana", "--store", store_uri).exit_code == 2  # the writer holds the lock
    writer.close()


def _error(result) -> dict:
    text = result.content[0].text  # the SDK prefixes "Error executing tool NAME: "
    return json.loads(text[text.index("{"):])


def test_mcp_server_over_stdio_with_the_official_client(repo, store_uri):
    pytest.importorskip("mcp")
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "warrant.runtime.cli", "memory", "mcp", "--store", store_uri, "--repo", str(repo.path)],
        cwd=str(ROOT),
        env={"LANCEDB_LOG": "error", "PYTHONPATH": str(ROOT)},
    )

    async def session_run():
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                tools = {t.name for t in (await session.list_tools()).tools}
                assert tools == {"memory_add", "memory_load", "memory_retract", "memory_verify", "memory_show"}
                port = (await session.call_tool("memory_add", {"text": "serve() defaults to 8080", "author": "agent", "anchors": [PORT]})).structured_content
                trap = (await session.call_tool("memory_add", {"text": "serve() uses sqlite3", "author": "agent", "anchors": [TRAP]})).structured_content
                loaded = (await session.call_tool("memory_load", {"query": "serve"})).structured_content
                assert [n["id"] for n in loaded["nodes"]] == [port["node_id"]]
                assert loaded["nodes"][0]["status"] == "VERIFIED"
                assert [r["node_id"] for r in loaded["retired"]] == [trap["node_id"]]
                receipt = (await session.call_tool("memory_retract", {"node_id": port["node_id"], "reason": "port moved", "actor": "agent-7"})).structured_content
                assert receipt["node_id"] == port["node_id"] and receipt["actor"] == "agent-7"
                shown = (await session.call_tool("memory_show", {"node_id": port["node_id"]})).structured_content
                assert shown["node"]["status"] == "REFUTED"
                bad = await session.call_tool("memory_add", {"text": "x", "author": "agent", "anchors": [{"kind": "file", "path": "/etc/passwd"}]})
                assert bad.is_error
                payload = _error(bad)
                assert payload["error"] == "bad_input" and payload["violations"][0]["loc"] == "$[0].anchors[0].file.path"
                again = await session.call_tool("memory_retract", {"node_id": port["node_id"], "reason": "again"})
                assert again.is_error and _error(again)["error"] == "already_retracted"
                return loaded

    asyncio.run(asyncio.wait_for(session_run(), 120))
    m = Memory.open(store_uri, writer=False)
    assert {n.status for n in m.store.nodes.values()} == {Status.REFUTED} and m.store.verify().ok
