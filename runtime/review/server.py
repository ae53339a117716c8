"""The review page: FastAPI, server-rendered Jinja2 templates (autoescape on), a little JavaScript.

    app = create_app(queue, ReviewerBook.load("reviewers.json"), ledger)
    uvicorn.run(app, host="127.0.0.1", port=8765)       # or: warrant review serve

Security, rule by rule:
- Every page and action needs a session (log in with name and scrypt-checked password); pages
  redirect to /login, actions answer 401. The cookie is HttpOnly, SameSite=Strict, and Secure
  when the request came over TLS (or when `secure_cookies=True`).
- Every form carries a CSRF token: the session's own for actions, a double-submit cookie for the
  login form. A POST without the right token is refused (403) before anything is read or written.
- An approval names the call it was made for (its args hash and claim-set hash); the queue refuses
  it for any other call, refuses a second decision, and refuses a reviewer approving a call that
  an agent identity of theirs planned. What it grants is the tool bus's single-use grant.
- Every document text is escaped by Jinja2's autoescape; spans are marked by the template from
  byte offsets, never by inserting markup into document text. A Content-Security-Policy allows
  only this server's own script and style, no inline script, no framing.
- It listens on 127.0.0.1 unless told otherwise, and answers only the host names it serves.
"""

from __future__ import annotations

import datetime as dt
import secrets
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable

from fastapi import FastAPI, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from jinja2 import Environment, FileSystemLoader
from starlette.middleware.trustedhost import TrustedHostMiddleware

from warrant.ledger import Ledger
from warrant.runtime.review import DEFAULT_HOST, DEFAULT_PORT
from warrant.runtime.review.auth import ReviewerBook, Session, Sessions, same_token
from warrant.runtime.review.documents import document_views
from warrant.runtime.review.queue import STATUS_RANK, ReviewError, ReviewQueue, ReviewState

HERE = Path(__file__).resolve().parent
SESSION_COOKIE = "warrant_session"
LOGIN_CSRF_COOKIE = "warrant_login_csrf"
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; form-action 'self'; "
       "base-uri 'none'; frame-ancestors 'none'")
_HTTP = {"item_unknown": 404, "already_decided": 409, "call_mismatch": 409, "own_agent": 403, "claims_changed": 409,
         "claims_unsupported": 409, "text_required": 400, "not_configured": 500}


def templates() -> Jinja2Templates:
    # autoescape=True for every template, whatever its file name: document text is untrusted.
    env = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=True, trim_blocks=True, lstrip_blocks=True)
    env.globals["rank"] = lambda s: STATUS_RANK.get(s, 3)
    return Jinja2Templates(env=env)


def create_app(
    queue: ReviewQueue,
    reviewers: ReviewerBook,
    ledger: Ledger,
    *,
    sessions: Sessions | None = None,
    rerun: Callable[[str], Any] | None = None,
    allowed_hosts: list[str] | None = None,
    secure_cookies: bool | None = None,
    title: str = "Warrant review",
) -> FastAPI:
    """`rerun(run_id)`: called (in a background thread) after a reviewer requests evidence, to send
    the run back to its planner; without it the request waits for the run's next pass."""
    app = FastAPI(title=title, docs_url=None, redoc_url=None, openapi_url=None)
    sessions = sessions or Sessions()
    tpl = templates()
    reruns = ThreadPoolExecutor(max_workers=1, thread_name_prefix="warrant-rerun") if rerun else None
    rerun_log: dict[str, str] = {}
    rerun_lock = threading.Lock()
    app.state.queue, app.state.reviewers, app.state.sessions = queue, reviewers, sessions
    app.add_middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts or ["127.0.0.1", "localhost"])

    @app.middleware("http")
    async def security_headers(request: Request, call_next: Callable[[Request], Any]) -> Response:
        resp = await call_next(request)
        resp.headers["Content-Security-Policy"] = CSP
        resp.headers["X-Content-Type-Options"] = "nosniff"
        resp.headers["X-Frame-Options"] = "DENY"
        resp.headers["Referrer-Policy"] = "no-referrer"
        if not request.url.path.startswith("/static/"):
            resp.headers["Cache-Control"] = "no-store"
        return resp

    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")

    def secure(request: Request) -> bool:
        return request.url.scheme == "https" if secure_cookies is None else secure_cookies

    def session(request: Request) -> Session | None:
        return sessions.get(request.cookies.get(SESSION_COOKIE))

    def page(request: Request, name: str, status: int = 200, **ctx: Any) -> HTMLResponse:
        return tpl.TemplateResponse(request, name, {"title": title, "now": dt.datetime.now(dt.timezone.utc), **ctx}, status_code=status)

    def error(request: Request, s: Session | None, status: int, code: str, message: str) -> HTMLResponse:
        return page(request, "message.html", status, session=s, code=code, message=message)

    def guard(request: Request, csrf: str | None) -> tuple[Session | None, HTMLResponse | None]:
        """An action needs a session (else 401) and that session's CSRF token (else 403)."""
        s = session(request)
        if s is None:
            return None, error(request, None, 401, "unauthenticated", "log in first: actions need a reviewer's session")
        if not same_token(csrf, s.csrf):
            return s, error(request, s, 403, "csrf", "the form's CSRF token is missing or wrong: reload the page and try again")
        return s, None

    # -- logging in and out --------------------------------------------------------------------
    @app.get("/login", response_class=HTMLResponse)
    def login_form(request: Request) -> Response:
        if session(request) is not None:
            return RedirectResponse("/", status_code=303)
        return _login_page(request, page, secure(request))

    @app.post("/login", response_class=HTMLResponse)
    def login(request: Request, name: str = Form(""), password: str = Form(""), csrf: str = Form("")) -> Response:
        if not same_token(csrf, request.cookies.get(LOGIN_CSRF_COOKIE)):
            return error(request, None, 403, "csrf", "the login form's CSRF token is missing or wrong: reload the page")
        reviewer = reviewers.authenticate(name, password)
        if reviewer is None:
            return _login_page(request, page, secure(request), status=401, problem="wrong name or password")
        s = sessions.create(reviewer)
        resp = RedirectResponse("/", status_code=303)
        resp.set_cookie(SESSION_COOKIE, s.token, httponly=True, samesite="strict", secure=secure(request), path="/")
        resp.delete_cookie(LOGIN_CSRF_COOKIE, path="/login")
        return resp

    @app.post("/logout")
    def logout(request: Request, csrf: str = Form("")) -> Response:
        s, refused = guard(request, csrf)
        if refused is not None:
            return refused
        sessions.drop(s.token)
        resp = RedirectResponse("/login", status_code=303)
        resp.delete_cookie(SESSION_COOKIE, path="/")
        return resp

    # -- pages ---------------------------------------------------------------------------------
    @app.get("/", response_class=HTMLResponse)
    def queue_page(request: Request) -> Response:
        s = session(request)
        if s is None:
            return RedirectResponse("/login", status_code=303)
        states = queue.items()
        return page(request, "queue.html", session=s, pending=[x for x in states if x.open], done=[x for x in states if not x.open])

    @app.get("/items/{item_id}", response_class=HTMLResponse)
    def item_page(request: Request, item_id: str) -> Response:
        s = session(request)
        if s is None:
            return RedirectResponse("/login", status_code=303)
        try:
            st = queue.get(item_id)
        except ReviewError as exc:
            return error(request, s, _HTTP[exc.code], exc.code, exc.message)
        with rerun_lock:
            rerun_note = rerun_log.get(item_id)
        return _item(request, page, s, st, ledger, rerun_note)

    # -- decisions -----------------------------------------------------------------------------
    def decide(request: Request, item_id: str, csrf: str, act: Callable[[Session], ReviewState]) -> Response:
        s, refused = guard(request, csrf)
        if refused is not None:
            return refused
        try:
            act(s)
        except ReviewError as exc:
            return error(request, s, _HTTP[exc.code], exc.code, exc.message)
        return RedirectResponse(f"/items/{item_id}", status_code=303)

    @app.post("/items/{item_id}/approve")
    def approve(request: Request, item_id: str, csrf: str = Form(""), args_hash: str = Form(""),
                claim_set_hash: str = Form("")) -> Response:
        return decide(request, item_id, csrf, lambda s: queue.approve(
            item_id, s.reviewer, args_hash=args_hash, claim_set_hash=claim_set_hash, reviewer_agents=s.agents))

    @app.post("/items/{item_id}/reject")
    def reject(request: Request, item_id: str, csrf: str = Form(""), args_hash: str = Form(""), claim_set_hash: str = Form(""),
               reason: str = Form("")) -> Response:
        return decide(request, item_id, csrf, lambda s: queue.reject(
            item_id, s.reviewer, reason, args_hash=args_hash, claim_set_hash=claim_set_hash))

    @app.post("/items/{item_id}/request-evidence")
    def request_evidence(request: Request, item_id: str, csrf: str = Form(""), args_hash: str = Form(""),
                         claim_set_hash: str = Form(""), request_text: str = Form("", alias="request")) -> Response:
        def act(s: Session) -> ReviewState:
            st = queue.request_evidence(item_id, s.reviewer, request_text, args_hash=args_hash, claim_set_hash=claim_set_hash)
            if reruns is not None:
                with rerun_lock:
                    rerun_log[item_id] = "the run is being sent back to its planner"
                reruns.submit(_rerun, rerun, st.item.run_id, item_id, rerun_log, rerun_lock)
            return st

        return decide(request, item_id, csrf, act)

    app.state.reruns = reruns  # tests wait on it; None without a rerun hook
    return app


def _rerun(rerun: Callable[[str], Any], run_id: str, item_id: str, log: dict[str, str], lock: threading.Lock) -> None:
    try:
        out = rerun(run_id)
        note = f"sent back to the planner; the run's new pass ended {getattr(out, 'status', 'done')}"
    except Exception as exc:  # the page reports it; the decision itself is already journaled
        note = f"sending the run back failed: {type(exc).__name__}: {exc}"
    with lock:
        log[item_id] = note


def _login_page(request: Request, page: Callable[..., HTMLResponse], secure: bool, status: int = 200, problem: str = "") -> HTMLResponse:
    token = secrets.token_urlsafe(32)
    resp = page(request, "login.html", status, session=None, csrf=token, problem=problem)
    resp.set_cookie(LOGIN_CSRF_COOKIE, token, httponly=True, samesite="strict", secure=secure, path="/login")
    return resp


def _item(request: Request, page: Callable[..., HTMLResponse], s: Session, st: ReviewState, ledger: Ledger,
          rerun_note: str | None) -> HTMLResponse:
    item = st.item
    own = item.agent == s.reviewer or item.agent in s.agents
    return page(request, "item.html", session=s, st=st, item=item, claims=item.claims_worst_first(), documents=document_views(ledger, item),
                own=own, rerun_note=rerun_note)


__all__ = ["CSP", "DEFAULT_HOST", "DEFAULT_PORT", "create_app", "templates"]
