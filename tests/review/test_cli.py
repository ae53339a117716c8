"""`warrant review ...`: reviewer accounts, the queue listing, and serve's refusals (exit code 2)."""

from __future__ import annotations

import json
import os
import stat

from typer.testing import CliRunner

from warrant.runtime.cli import app as cli
from warrant.runtime.review.auth import ReviewerBook
from tests.review.conftest import PASSWORD, queue_call


def test_add_reviewer_stores_only_a_scrypt_hash_readable_by_its_owner(tmp_path):
    path = tmp_path / "reviewers.json"
    res = CliRunner().invoke(cli, ["review", "add-reviewer", "dana", "--agent", "analyst", "--reviewers", str(path),
                                   "--password-stdin"], input=PASSWORD + "\n")
    assert res.exit_code == 0, res.output
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    [entry] = json.loads(path.read_text())["reviewers"]
    assert entry["name"] == "dana" and entry["agents"] == ["analyst"] and entry["password_hash"].startswith("scrypt$")
    assert PASSWORD not in path.read_text()
    book = ReviewerBook.load(path)
    assert book.authenticate("dana", PASSWORD).name == "dana" and book.authenticate("dana", PASSWORD + "x") is None


def test_bad_reviewer_input_exits_2_naming_the_field(tmp_path):
    path = tmp_path / "reviewers.json"
    short = CliRunner().invoke(cli, ["review", "add-reviewer", "dana", "--reviewers", str(path), "--password-stdin"], input="short\n")
    assert short.exit_code == 2 and "$.password" in short.output and not path.exists()
    name = CliRunner().invoke(cli, ["review", "add-reviewer", "dana <b>", "--reviewers", str(path), "--password-stdin"],
                              input=PASSWORD + "\n")
    assert name.exit_code == 2 and "$.name" in name.output
    path.write_text(json.dumps({"reviewers": [{"name": "dana", "password_hash": "plain-text-password"}]}))
    res = CliRunner().invoke(cli, ["review", "serve", "--reviewers", str(path), "--ledger", str(tmp_path / "l")])
    assert res.exit_code == 2 and "$.reviewers[0].password_hash" in res.output


def test_serve_refuses_a_public_interface_and_a_missing_reviewer_file(tmp_path):
    path = tmp_path / "reviewers.json"
    book = ReviewerBook()
    book.add("dana", PASSWORD)
    book.save(path)
    public = CliRunner().invoke(cli, ["review", "serve", "--host", "0.0.0.0", "--reviewers", str(path), "--ledger", str(tmp_path / "l")])
    assert public.exit_code == 2 and "--expose" in public.output
    none = CliRunner().invoke(cli, ["review", "serve", "--reviewers", str(tmp_path / "nobody.json"), "--ledger", str(tmp_path / "l")])
    assert none.exit_code == 2 and "add-reviewer" in none.output


def test_review_list_shows_the_queue(plane, tmp_path):
    st = queue_call(plane, tmp_path)
    res = CliRunner().invoke(cli, ["review", "list", "--ledger", str(tmp_path / "ledger")], env={"COLUMNS": "300"})
    assert res.exit_code == 0 and st.item.item_id in res.output and "pending" in res.output and "send_email" in res.output
    bad = CliRunner().invoke(cli, ["review", "list", "--ledger", str(tmp_path / "ledger"), "--status", "maybe"])
    assert bad.exit_code == 2 and "--status" in bad.output
    missing = CliRunner().invoke(cli, ["review", "list", "--ledger", str(tmp_path / "nowhere")])
    assert missing.exit_code == 2
