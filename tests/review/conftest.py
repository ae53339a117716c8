"""Shared by the review tests: a real control plane over the invoice-audit tools (LanceDB ledger and
journal in tmp_path, the real gate, verifier, tool bus, grant book and the example's YAML policy),
small graphs that leave one irreversible call in the review queue, reviewers and a logged-in
client of the review page."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from warrant.examples.invoice_audit import graph as example
from warrant.runtime.graph import Graph, GraphRunner, ScriptedAgent, intent, restate
from warrant.runtime.review.auth import ReviewerBook
from warrant.runtime.review.queue import ReviewState
from warrant.runtime.review.server import create_app
# The graph tests' fixtures, reused: `plane` (a control plane over the example's tools and policy,
# no NLI model) and `_clean_tools` (the stand-in outbox and billing system emptied around each test).
from tests.test_graph import DEPS14, INV, _clean_tools, line14_findings, lookups, plane  # noqa: F401

PASSWORD = "correct horse battery"
EMAIL = {"to": "billing@harlowfinch.example", "subject": "Line 14", "body": "We dispute USD 280.00 of line 14."}


def audit_graph(intents, planner=lookups, claims=line14_findings) -> Graph:
    def tool_caller(ctx):
        return ctx.artifact(claims=[restate(c) for c in ctx.inbox[0].claims], action_intents=intents)

    return Graph.chain("audit", [ScriptedAgent("planner", planner),
                                 ScriptedAgent("analyst", lambda ctx: ctx.artifact(claims=claims(ctx))),
                                 ScriptedAgent("tool_caller", tool_caller)])


def queue_call(plane, tmp_path, args=None, *, tool="send_email", deps=DEPS14, planner=lookups, claims=line14_findings,
               run_id=None) -> ReviewState:
    """Run a small audit graph whose tool caller plans one irreversible call no policy rule approves;
    return the review queue's item for it."""
    it = intent(tool, dict(args or EMAIL), requires_grant=True, depends_on=deps)
    rep = GraphRunner(plane, corpus=example.corpus(), report_dir=tmp_path / "runs").run(audit_graph([it], planner, claims), INV,
                                                                                         run_id=run_id)
    assert rep.status == "AWAITING_REVIEW", rep.reason
    [action] = rep.actions
    return plane.review.get(action.review.queue_id)


@pytest.fixture
def reviewers():
    book = ReviewerBook()
    book.add("dana", PASSWORD)
    book.add("ops", PASSWORD, agents=["tool_caller"])  # operates the agent that plans the calls
    return book


@pytest.fixture
def app(plane, reviewers):
    return create_app(plane.review, reviewers, plane.ledger)


def csrf_of(html: str) -> str:
    m = re.search(r'name="csrf" value="([^"]+)"', html)
    assert m, "no CSRF token in the page"
    return m.group(1)


def login(client: TestClient, name: str = "dana", password: str = PASSWORD) -> str:
    """Log in through the form; returns the session's CSRF token."""
    token = csrf_of(client.get("/login").text)
    r = client.post("/login", data={"name": name, "password": password, "csrf": token}, follow_redirects=False)
    assert r.status_code == 303, r.text
    return csrf_of(client.get("/").text)


@pytest.fixture
def client(app):
    with TestClient(app, base_url="http://127.0.0.1") as c:
        yield c


def decision_form(st: ReviewState, csrf: str, **extra) -> dict:
    return {"csrf": csrf, "args_hash": st.item.args_hash, "claim_set_hash": st.item.claim_set_hash, **extra}
