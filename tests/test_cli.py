import json

import lancedb
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from warrant.runtime.cli import app

runner = CliRunner()


def warrant(*args):
    return runner.invoke(app, [str(a) for a in args])


@pytest.fixture
def letter(tmp_path):
    p = tmp_path / "letter.txt"
    p.write_bytes(b"Clause 4: Hourly rates shall not exceed USD 250.00.\n")
    return p


def test_schema_prints_the_contract():
    r = warrant("schema")
    assert r.exit_code == 0
    schema = json.loads(r.stdout)
    assert schema["title"] == "Warrant hand-off artifact" and "claims" in schema["properties"]


def test_ledger_add_show_verify_export(tmp_path, letter):
    led = tmp_path / "led"
    r = warrant("ledger", "add", "run_1", letter, "--page", 2, "--ledger", led)
    assert r.exit_code == 0, r.output
    rid = r.stdout.strip()
    assert rid.startswith("led_")
    assert warrant("ledger", "add", "run_1", letter, "--ledger", led).stdout.strip() == rid  # idempotent
    shown = warrant("ledger", "show", "run_1", "--id", rid, "--ledger", led)
    assert shown.exit_code == 0 and shown.stdout_bytes == letter.read_bytes()
    ok = warrant("ledger", "verify", "--ledger", led)
    assert ok.exit_code == 0 and "ok evidence: 1 entries" in ok.stdout
    out = tmp_path / "audit.parquet"
    assert warrant("ledger", "export", out, "--run", "run_1", "--ledger", led).exit_code == 0
    assert pq.read_table(out).column("data")[0].as_py() == letter.read_bytes()
    jl = tmp_path / "audit.jsonl"
    assert warrant("ledger", "export", jl, "--ledger", led).exit_code == 0
    assert json.loads(jl.read_text().splitlines()[0])["id"] == rid


def test_verify_exits_1_and_names_the_entry_after_tampering(tmp_path, letter):
    led = tmp_path / "led"
    for i in range(3):
        warrant("ledger", "add", f"run_{i}", letter, "--ledger", led)
    lancedb.connect(str(led)).open_table("evidence").update(where="seq = 1", values={"run_id": "run_x"})
    r = warrant("ledger", "verify", "--ledger", led)
    assert r.exit_code == 1 and "BROKEN" in r.stdout and "seq=1" in r.stdout


@pytest.mark.parametrize(
    "args, message",
    [
        (("ledger", "show", "--ledger", "{tmp}/nothing"), "nothing was ever written there"),
        (("ledger", "verify", "--ledger", "{tmp}/nothing"), "nothing was ever written there"),
        (("ledger", "add", "run_1", "{tmp}/missing.txt", "--ledger", "{tmp}/led"), "cannot read"),
        (("ledger", "export", "{tmp}/x.csv", "--ledger", "{tmp}/led"), "unknown export format"),
        (("ledger", "show", "--id", "led_00", "--ledger", "{tmp}/led"), "needs the run id"),
        (("tools", "list", "--registry", "{tmp}/no_such_registry"), "error"),
    ],
)
def test_bad_input_is_a_clear_error_with_exit_2(tmp_path, letter, args, message):
    warrant("ledger", "add", "run_1", letter, "--ledger", tmp_path / "led")
    r = warrant(*(a.format(tmp=tmp_path) for a in args))
    assert r.exit_code == 2, r.output
    assert message in " ".join(r.output.split())  # rich wraps long lines


def test_reading_never_creates_a_ledger(tmp_path):
    warrant("ledger", "show", "--ledger", tmp_path / "nothing")
    assert not (tmp_path / "nothing").exists()


def test_tools_list_shows_the_registry():
    from pathlib import Path

    tools = Path(__file__).resolve().parent.parent / "examples" / "invoice_audit" / "tools"
    r = warrant("tools", "list", "--registry", tools)
    assert r.exit_code == 0, r.output
    assert "flag_invoice_line" in r.stdout and "yes" in r.stdout


def test_tools_list_without_a_registry_names_the_option(monkeypatch):
    # runtime/ has no default registry to fall back on: the example's lives in examples/, which it never reads
    monkeypatch.delenv("WARRANT_TOOLS", raising=False)
    r = warrant("tools", "list")
    assert r.exit_code == 2, r.output
    assert "--registry" in r.output and "WARRANT_TOOLS" in r.output


def test_verify_command_gates_first(tmp_path, letter):
    led = tmp_path / "led"
    warrant("ledger", "add", "run_1", letter, "--ledger", led)
    art = tmp_path / "a.json"
    art.write_text(json.dumps({"run_id": "run_1", "from_agent": "analyst", "claims": [], "summary": "trust me"}))
    r = warrant("verify", art, "--ledger", led)
    assert r.exit_code == 1 and "unknown_field" in r.stdout
    assert json.loads((tmp_path / "a.verdict.json").read_text())["gate"]["status"] == "reject"


def test_demo_with_a_missing_model_is_bad_input_and_writes_nothing(tmp_path):
    # `warrant demo` comes from warrant.examples through the warrant.commands entry point
    r = warrant("demo", "--dir", tmp_path / "demo", "--model", tmp_path / "no_such_model")
    assert r.exit_code == 2, r.output
    assert "no model at" in " ".join(r.output.split()) and "--model none" in " ".join(r.output.split())
    assert not (tmp_path / "demo").exists()
