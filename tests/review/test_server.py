"""The review page's rules over HTTP (FastAPI TestClient against the real app, queue and journal):
authentication, CSRF, forged grants, replayed approvals, approvals for changed arguments, a
reviewer's own agent, escaping of untrusted document text, headers and cookies."""

from __future__ import annotations

import datetime as dt
import re

from fastapi.testclient import TestClient

from warrant.examples.invoice_audit import tools_impl
from warrant.ledger.journal import JournalKind
from warrant.runtime.contract import Artifact, Claim, QuoteSource, content_hash
from warrant.runtime.grants import Grant
from warrant.runtime.review.server import CSP, create_app
from tests.review.conftest import DEPS14, EMAIL, PASSWORD, decision_form, login, queue_call


def _journal_counts(plane):
    return {k: len(plane.journal.entries(kind=k)) for k in (JournalKind.REVIEW_DECISION, JournalKind.GRANT, JournalKind.TOOL_CALL)}


def test_unauthenticated_requests_see_nothing_and_change_nothing(plane, tmp_path, client):
    st = queue_call(plane, tmp_path)
    before = _journal_counts(plane)
    for path in ("/", f"/items/{st.item.item_id}"):
        r = client.get(path, follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"] == "/login"
        assert st.item.item_id not in r.text
    for action in ("approve", "reject", "request-evidence"):
        r = client.post(f"/items/{st.item.item_id}/{action}", data=decision_form(st, "whatever", reason="x", request="x"))
        assert r.status_code == 401 and "unauthenticated" in r.text
    client.cookies.set("warrant_session", "forged-session-token")
    assert client.get(f"/items/{st.item.item_id}", follow_redirects=False).status_code == 303
    assert _journal_counts(plane) == before and tools_impl.OUTBOX == []


def test_log_in_needs_the_right_password_and_the_form_token(client, plane, tmp_path):
    page = client.get("/login")
    token = re.search(r'name="csrf" value="([^"]+)"', page.text).group(1)
    bad = client.post("/login", data={"name": "dana", "password": "wrong password!", "csrf": token}, follow_redirects=False)
    assert bad.status_code == 401 and "wrong name or password" in bad.text and "warrant_session" not in bad.headers.get("set-cookie", "")
    token = re.search(r'name="csrf" value="([^"]+)"', bad.text).group(1)  # each form has its own token
    unknown = client.post("/login", data={"name": "mallory", "password": PASSWORD, "csrf": token}, follow_redirects=False)
    assert unknown.status_code == 401
    client.cookies.clear()
    no_token = client.post("/login", data={"name": "dana", "password": PASSWORD}, follow_redirects=False)
    assert no_token.status_code == 403 and "warrant_session" not in no_token.headers.get("set-cookie", "")


def test_session_cookie_is_httponly_strict_and_secure_over_tls(app):
    for base, secure in (("http://127.0.0.1", False), ("https://127.0.0.1", True)):
        with TestClient(app, base_url=base) as c:
            token = re.search(r'name="csrf" value="([^"]+)"', c.get("/login").text).group(1)
            r = c.post("/login", data={"name": "dana", "password": PASSWORD, "csrf": token}, follow_redirects=False)
            cookie = next(v for v in r.headers.get_list("set-cookie") if v.startswith("warrant_session="))
            attrs = {a.strip().lower() for a in cookie.split(";")}
            assert "httponly" in attrs and "samesite=strict" in attrs and ("secure" in attrs) is secure


def test_a_decision_without_the_sessions_csrf_token_is_refused(plane, tmp_path, app, client):
    st = queue_call(plane, tmp_path)
    login(client)
    before = _journal_counts(plane)
    with TestClient(app, base_url="http://127.0.0.1") as other:
        foreign = login(other, "ops")  # a valid token, but another session's
    for token in (None, "", foreign):
        form = decision_form(st, token)
        if token is None:
            del form["csrf"]
        r = client.post(f"/items/{st.item.item_id}/approve", data=form)
        assert r.status_code == 403 and "CSRF" in r.text
    assert _journal_counts(plane) == before and tools_impl.OUTBOX == [] and plane.review.get(st.item.item_id).status == "pending"


def test_approving_on_the_page_makes_the_call_once_and_a_replayed_approval_does_nothing(plane, tmp_path, client):
    st = queue_call(plane, tmp_path)
    csrf = login(client)
    page = client.get(f"/items/{st.item.item_id}")
    assert page.status_code == 200 and 'id="approve"' in page.text and "disabled" not in page.text.split('id="approve"')[1][:20]
    r = client.post(f"/items/{st.item.item_id}/approve", data=decision_form(st, csrf), follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/items/{st.item.item_id}"
    assert len(tools_impl.OUTBOX) == 1
    replay = client.post(f"/items/{st.item.item_id}/approve", data=decision_form(st, csrf))
    assert replay.status_code == 409 and "already_decided" in replay.text
    assert len(tools_impl.OUTBOX) == 1
    done = client.get(f"/items/{st.item.item_id}").text
    assert 'id="call-outcome"><b>ok</b>' in done and "human:dana" in done
    calls = [e for e in plane.journal.entries(st.item.run_id, kind=JournalKind.TOOL_CALL) if e.payload["tool"] == "send_email"
             and e.payload["status"] == "ok"]
    assert len(calls) == 1


def test_an_approval_for_changed_arguments_is_refused(plane, tmp_path, client):
    st = queue_call(plane, tmp_path)
    csrf = login(client)
    before = _journal_counts(plane)
    changed = content_hash({**EMAIL, "to": "attacker@evil.example"})
    r = client.post(f"/items/{st.item.item_id}/approve", data={**decision_form(st, csrf), "args_hash": changed})
    assert r.status_code == 409 and "call_mismatch" in r.text
    r = client.post(f"/items/{st.item.item_id}/approve", data={**decision_form(st, csrf), "claim_set_hash": "f" * 64})
    assert r.status_code == 409
    assert _journal_counts(plane) == before and tools_impl.OUTBOX == []


def test_a_forged_grant_runs_nothing(plane, tmp_path, client):
    """A grant nobody journaled, even one naming exactly the queued call, authorises nothing; nor
    does a grant id sent along with the form."""
    st = queue_call(plane, tmp_path)
    now = dt.datetime.now(dt.timezone.utc)
    forged = Grant(grant_id="grt_" + "a" * 32, run_id=st.item.run_id, tool="send_email", version="1", args_hash=st.item.args_hash,
                   claim_set_hash=st.item.claim_set_hash, issuer="human:dana", issued_at=now, expires_at=now + dt.timedelta(hours=1))
    out = plane.bus.execute(st.item.run_id, {"tool": "send_email", "args": dict(EMAIL), "depends_on": DEPS14, "requires_grant": True},
                            grant_id=forged.grant_id)
    assert (out.status, out.code) == ("refused", "grant_unknown")
    csrf = login(client, "ops")  # operates tool_caller: may not approve
    r = client.post(f"/items/{st.item.item_id}/approve", data={**decision_form(st, csrf), "grant_id": forged.grant_id})
    assert r.status_code == 403
    assert tools_impl.OUTBOX == [] and plane.review.get(st.item.item_id).status == "pending"
    assert plane.journal.entries(kind=JournalKind.GRANT) == []


def test_a_reviewer_cannot_approve_a_call_their_own_agent_planned(plane, tmp_path, app):
    st = queue_call(plane, tmp_path)
    with TestClient(app, base_url="http://127.0.0.1") as ops:
        csrf = login(ops, "ops")
        page = ops.get(f"/items/{st.item.item_id}").text
        assert 'id="own-agent"' in page and re.search(r'id="approve"\s+disabled', page)
        r = ops.post(f"/items/{st.item.item_id}/approve", data=decision_form(st, csrf))
        assert r.status_code == 403 and "own_agent" in r.text
        assert plane.review.get(st.item.item_id).status == "pending" and tools_impl.OUTBOX == []
    with TestClient(app, base_url="http://127.0.0.1") as dana:
        r = dana.post(f"/items/{st.item.item_id}/approve", data=decision_form(st, login(dana)))
        assert r.status_code == 200 and len(tools_impl.OUTBOX) == 1


XSS = '<script>alert("xss")</script><img src=x onerror=alert(1)>'


def test_document_text_with_markup_is_shown_escaped(plane, client):
    """Spans come from untrusted documents: a payload in a cited span, in a claim and in the call's
    arguments shows as text, marked, never as markup."""
    run = "run_xss"
    lid = plane.ledger.append(run, f"Vendor note, page 1.\n{XSS} Hourly rates are capped at USD 250.\n",
                              source={"document": "vendor_note.txt", "page": 1})
    art = Artifact(run_id=run, from_agent="analyst",
                   claims=[Claim(id="q1", type="Quote", text=XSS, quote_of=QuoteSource(ledger_id=lid))])
    verdict = plane.verifier.verify(art)
    assert verdict.claims[0].status == "supported"
    item = plane.review.enqueue(run_id=run, agent="tool_caller", tool="send_email", version="1", depends_on=["q1"],
                                args={"to": "billing@harlowfinch.example", "subject": "note", "body": XSS}, reason="no_policy_grant",
                                claim_texts={"q1": XSS})
    login(client)
    page = client.get(f"/items/{item.item_id}")
    assert page.status_code == 200
    assert "<script>alert" not in page.text and "<img src=x" not in page.text
    escaped = "&lt;script&gt;alert(&#34;xss&#34;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;"
    assert f'<mark class="supported" title="q1/q1: supported">{escaped}</mark>' in page.text
    assert page.text.count(escaped) >= 3  # the span, the claim's text, the call's body
    assert page.headers["content-security-policy"] == CSP and "script-src 'self'" in CSP and "unsafe-inline" not in CSP
    queue = client.get("/")
    assert "<script>alert" not in queue.text and escaped in queue.text


def test_every_page_sends_the_security_headers_and_unknown_hosts_are_refused(plane, tmp_path, app, client):
    st = queue_call(plane, tmp_path)
    login(client)
    for path in ("/login", "/", f"/items/{st.item.item_id}", "/items/rvw_nothing", "/static/review.js"):
        r = client.get(path)
        assert r.headers["content-security-policy"] == CSP and r.headers["x-frame-options"] == "DENY", path
        assert r.headers["x-content-type-options"] == "nosniff"
    assert client.get("/items/rvw_nothing").status_code == 404
    with TestClient(app, base_url="http://evil.example") as rebound:  # DNS rebinding to the loopback server
        assert rebound.get("/login").status_code == 400


def test_reject_and_request_evidence_need_words_and_are_journaled_with_the_reviewer(plane, tmp_path, reviewers):
    called = []
    app = create_app(plane.review, reviewers, plane.ledger, rerun=lambda run_id: called.append(run_id))
    first = queue_call(plane, tmp_path)
    second = queue_call(plane, tmp_path, {**EMAIL, "subject": "Line 14, second notice"})
    with TestClient(app, base_url="http://127.0.0.1") as c:
        csrf = login(c)
        empty = c.post(f"/items/{first.item.item_id}/reject", data=decision_form(first, csrf, reason="   "))
        assert empty.status_code == 400 and "text_required" in empty.text
        r = c.post(f"/items/{first.item.item_id}/reject", data=decision_form(first, csrf, reason="duplicate of the phone call"))
        assert r.status_code == 200 and plane.review.get(first.item.item_id).status == "rejected"
        ask = "the timesheet entry for line 14"
        r = c.post(f"/items/{second.item.item_id}/request-evidence", data=decision_form(second, csrf, request=ask))
        assert r.status_code == 200
        app.state.reruns.shutdown(wait=True)
        assert called == [second.item.run_id]
        assert "sent back to the planner" in c.get(f"/items/{second.item.item_id}").text
    decisions = {e.subject: e.payload for e in plane.journal.entries(kind=JournalKind.REVIEW_DECISION)}
    assert decisions[first.item.item_id]["reason"] == "duplicate of the phone call"
    assert decisions[second.item.item_id]["request"] == ask and decisions[second.item.item_id]["reviewer"] == "dana"
    assert tools_impl.OUTBOX == []


def test_logging_out_ends_the_session(plane, tmp_path, client):
    st = queue_call(plane, tmp_path)
    csrf = login(client)
    assert client.post("/logout", data={"csrf": csrf}, follow_redirects=False).status_code == 303
    assert client.get("/", follow_redirects=False).status_code == 303
    assert client.post(f"/items/{st.item.item_id}/approve", data=decision_form(st, csrf)).status_code == 401
