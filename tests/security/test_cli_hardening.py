"""Issue 10, items 6-8: untrusted text is never Rich markup, exit codes say what happened, and bad
JSON is refused with a message (exit 2) instead of a crash or a silent reinterpretation."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from warrant.ledger import Ledger, SourceError
from warrant.runtime.cli import app
from warrant.runtime.exits import ExitCode, run_cli
from warrant.runtime.gate import Gate
from warrant.runtime.verify.verifier import Verifier

runner = CliRunner()

MARKUP = "[/x] [green]VERIFIED OK[/green] [bold red]"


def warrant(*args):
    return runner.invoke(app, [str(a) for a in args])


@pytest.fixture
def hostile_ledger(tmp_path):
    """Evidence whose text and source name are Rich markup (and a closing tag that matches nothing)."""
    led = tmp_path / "led"
    doc = tmp_path / "doc.txt"
    doc.write_text(f"Clause 4: Hourly rates shall not exceed USD 250.00. {MARKUP}\n")
    r = warrant("ledger", "add", "run_1", doc, "--document", MARKUP, "--ledger", led)
    assert r.exit_code == 0, r.output
    return led, r.stdout.strip()


def test_ledger_show_prints_markup_in_sources_as_text(hostile_ledger):
    led, _ = hostile_ledger
    r = warrant("ledger", "show", "--ledger", led)
    assert r.exit_code == 0, r.output
    # Shown literally: the brackets survive, nothing was interpreted as a style.
    assert "[green]VERIFIED" in r.stdout and "[/x]" in r.stdout


def test_verify_prints_markup_in_evidence_and_still_writes_its_verdict(tmp_path, hostile_ledger):
    led, rid = hostile_ledger
    art = tmp_path / "a.json"
    art.write_text(json.dumps({
        "run_id": "run_1", "from_agent": "analyst",
        "claims": [{"id": "c1", "type": "Quote", "text": f"USD 250.00. {MARKUP}", "quote_of": {"ledger_id": rid}}],
    }))
    r = warrant("verify", art, "--ledger", led)
    assert r.exit_code == ExitCode.OK, r.output
    assert "[/x]" in r.stdout
    verdict = json.loads((tmp_path / "a.verdict.json").read_text())
    assert verdict["verdict"]["status"] == "pass"


def test_run_ids_outside_the_pattern_are_refused_by_the_ledger(tmp_path):
    led = Ledger.open(tmp_path / "led")
    for bad in ("run[/x]", "", "a" * 129, "run 1", "run/../x", "run\n1"):
        with pytest.raises(SourceError, match="run_id"):
            led.append(bad, b"x")
    assert led.run_ids() == []
    doc = tmp_path / "d.txt"
    doc.write_text("x")
    r = warrant("ledger", "add", "run[/x]", doc, "--ledger", tmp_path / "led2")
    assert r.exit_code == ExitCode.BAD_INPUT and "run_id" in r.output


BAD_JSON = {
    "a 5,000-digit integer": '{"run_id": "r", "from_agent": "a", "claims": [], "n": ' + "9" * 5000 + "}",
    "100k-deep nesting": "[" * 100_000 + "]" * 100_000,
    "a lone surrogate": '{"run_id": "r\\ud800", "from_agent": "a"}',
    "NaN": '{"run_id": "r", "from_agent": "a", "x": NaN}',
    "1e400": '{"run_id": "r", "from_agent": "a", "x": 1e400}',
    "duplicate keys": '{"run_id": "r", "run_id": "s", "from_agent": "a"}',
    "not UTF-8": b'{"run_id": "\xff"}',
    "not JSON": "{run_id: r}",
}


@pytest.mark.parametrize("name", sorted(BAD_JSON))
def test_bad_json_artifact_exits_2_with_a_message(tmp_path, name):
    led = tmp_path / "led"
    Ledger.open(led).append("run_1", b"x")
    art = tmp_path / "a.json"
    data = BAD_JSON[name]
    art.write_bytes(data if isinstance(data, bytes) else data.encode())
    r = warrant("verify", art, "--ledger", led)
    assert r.exit_code == ExitCode.BAD_INPUT, (name, r.output)
    assert "error:" in r.output and "Traceback" not in r.output
    assert not (tmp_path / "a.verdict.json").exists()


@pytest.mark.parametrize("name", sorted(BAD_JSON))
def test_the_gate_rejects_bad_json_as_data(tmp_path, name):
    led = Ledger.open(tmp_path / "led")
    data = BAD_JSON[name]
    d = Gate(led).check(data if isinstance(data, bytes) else data.encode())
    assert not d.passed and d.violations[0].code == "invalid_json", d


def test_an_internal_error_exits_3_without_a_traceback(capsys):
    def broken():
        raise RuntimeError("disk on fire")

    with pytest.raises(SystemExit) as exc:
        run_cli(broken)
    assert exc.value.code == ExitCode.INTERNAL
    err = capsys.readouterr().err
    assert "internal error" in err and "disk on fire" in err and "Traceback" not in err


def test_the_console_script_uses_the_exit_codes(tmp_path):
    art = tmp_path / "a.json"
    art.write_text('{"x": NaN}')
    console_script = Path(sys.executable).with_name("warrant")  # the installed entry point itself
    r = subprocess.run([str(console_script), "verify", str(art), "--ledger", str(tmp_path / "led")], capture_output=True, text=True, timeout=120)
    assert r.returncode == ExitCode.BAD_INPUT, r.stderr
    assert "NaN is not a JSON number" in " ".join(r.stderr.split())  # rich wraps long lines


def test_a_blank_quote_does_not_pass_the_gate(tmp_path):
    led = Ledger.open(tmp_path / "led")
    rid = led.append("run_1", b"Clause 4:   rates apply.\n")
    for blank in (" ", "   ", "\n\t "):
        art = {"run_id": "run_1", "from_agent": "a", "claims": [{"id": "c1", "type": "Quote", "text": blank, "quote_of": {"ledger_id": rid}}]}
        d = Gate(led).check(art)
        assert not d.passed and d.violations[0].loc == "$.claims[0].text", d


def test_gate_and_verdict_record_the_same_artifact_hash(tmp_path):
    led = Ledger.open(tmp_path / "led")
    rid = led.append("run_1", b"Clause 4: Hourly rates shall not exceed USD 250.00.\n")
    art = {"run_id": "run_1", "from_agent": "a",
           "claims": [{"id": "c1", "type": "Quote", "text": "USD 250.00", "quote_of": {"ledger_id": rid}}]}
    as_text = json.dumps(art).encode()
    gate_hashes = {Gate(led).check(art).artifact_hash, Gate(led).check(as_text).artifact_hash}
    verdict = Verifier(led, None).verify(art)
    assert gate_hashes == {verdict.artifact_hash}
