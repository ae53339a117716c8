"""End to end in a real browser: Debian's chromium, headless, driven by Selenium through Debian's
chromium-driver, against a uvicorn server started here on 127.0.0.1 over the invoice-audit demo's
ledger. Log in, open the queued e-mail of INV-4421, see the cited sentence highlighted inside the
engagement letter, approve, and check that the e-mail was then sent exactly once.

Nothing is downloaded: Selenium is pointed at /usr/bin/chromedriver and /usr/bin/chromium (apt
packages that .ci/run installs). Locally, without them and outside CI, the test skips; in CI it
fails instead. WARRANT_REVIEW_SCREENSHOT=docs/review_page.png also saves the page's screenshot
there (the README's picture).
"""

from __future__ import annotations

import os
import shutil
import threading
import time
from pathlib import Path

import pytest

from warrant.examples.invoice_audit import agents, tools_impl
from warrant.examples.invoice_audit import graph as example
from warrant.examples.invoice_audit.demo import run_demo
from warrant.ledger.journal import JournalKind
from warrant.runtime.review.auth import ReviewerBook
from warrant.runtime.review.server import create_app
from warrant.runtime.verify.backends import load_backend
from tests.review.conftest import PASSWORD

CHROMIUM, CHROMEDRIVER = Path("/usr/bin/chromium"), Path("/usr/bin/chromedriver")


def _need_chromium() -> None:
    if CHROMIUM.exists() and CHROMEDRIVER.exists():
        return
    if os.environ.get("CI"):
        pytest.fail("chromium and chromium-driver are missing: .ci/run installs them (apt-get install chromium chromium-driver)")
    pytest.skip("no /usr/bin/chromium or /usr/bin/chromedriver here (apt-get install chromium chromium-driver)")


@pytest.fixture
def served(tmp_path):
    """The demo's ledger, its control plane and the review page on a free loopback port."""
    import uvicorn

    run_demo(tmp_path / "demo", backend=load_backend(), quiet=True)
    tools_impl.reset()  # count only what the approval sends
    plane = example.control_plane(str(tmp_path / "demo" / "ledger"))
    book = ReviewerBook()
    book.add("dana", PASSWORD)
    server = uvicorn.Server(uvicorn.Config(create_app(plane.review, book, plane.ledger), host="127.0.0.1", port=0,
                                           log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, name="review-server", daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the review server did not start"
        time.sleep(0.05)
    host, port = server.servers[0].sockets[0].getsockname()[:2]
    assert host == "127.0.0.1"
    try:
        yield plane, f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        plane.close()
        tools_impl.reset()


@pytest.fixture
def browser():
    _need_chromium()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = str(CHROMIUM)
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1280,1000",
                "--no-first-run", "--disable-extensions", "--disable-background-networking"):
        opts.add_argument(arg)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)), options=opts)
    driver.implicitly_wait(5)
    try:
        yield driver
    finally:
        driver.quit()


def test_a_reviewer_approves_a_queued_call_in_a_real_browser_and_it_runs_once(served, browser, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import WebDriverWait

    plane, base = served
    wait = WebDriverWait(browser, 30)  # a shared, busy machine: wait for navigations, never sleep on them
    [email] = [s for s in plane.review.items(status="pending") if s.item.tool == "send_email"]
    item = email.item

    browser.get(base + f"/items/{item.item_id}")
    assert browser.current_url == base + "/login"  # not logged in: the page is not shown
    browser.find_element(By.ID, "name").send_keys("dana")
    browser.find_element(By.ID, "password").send_keys(PASSWORD)
    browser.find_element(By.ID, "login").click()
    wait.until(EC.url_to_be(base + "/"))

    rows = browser.find_elements(By.CSS_SELECTOR, "#pending tr.item")
    assert len(rows) == 3 and rows[0].find_element(By.CSS_SELECTOR, ".badge").text == "unsupported"  # worst first
    browser.find_element(By.CSS_SELECTOR, f'tr[data-item="{item.item_id}"] a.open').click()
    wait.until(EC.url_to_be(base + f"/items/{item.item_id}"))
    assert browser.find_element(By.ID, "status").text == "pending"

    # The cap the e-mail depends on, highlighted inside the engagement letter's page: the sentence
    # (a model or quote verdict) or the value itself (a typed verdict cites each value's bytes).
    [span] = [s for s in item.spans if s.text and "250" in s.text and s.text in agents.CAP_SENTENCE][:1]
    record = plane.ledger.get(item.run_id, span.ledger_id)
    assert record.source.document == agents.LETTER
    figure = browser.find_element(By.CSS_SELECTOR, f'figure.record[data-ledger-id="{span.ledger_id}"]')
    assert "page" in figure.find_element(By.TAG_NAME, "figcaption").text
    [mark] = [m for m in figure.find_elements(By.CSS_SELECTOR, "pre.doc mark") if m.text == span.text]
    assert "supported" in mark.get_attribute("class") and mark.value_of_css_property("background-color") != "rgba(0, 0, 0, 0)"
    assert record.data[span.start:span.end].decode() == mark.text  # exactly the ledger's bytes
    page_text = figure.find_element(By.CSS_SELECTOR, "pre.doc").text
    assert page_text == record.data.decode().strip() or record.data.decode().startswith(page_text)

    # The page's script (served under the CSP, no inline code) takes a claim's link to its bytes.
    browser.find_element(By.CSS_SELECTOR, f'a.jump[data-target="span-{span.proposition_id}"]').click()
    wait.until(lambda _: "current" in mark.get_attribute("class"))
    _screenshot(browser, tmp_path / "review_page.png")

    before = len(plane.journal.entries(item.run_id, kind=JournalKind.GRANT))
    _mark_document(browser)
    browser.find_element(By.ID, "approve").click()
    wait.until(_new_document)  # the form posted and the item page came back
    wait.until(EC.text_to_be_present_in_element((By.ID, "status"), "executed"))
    assert browser.current_url == base + f"/items/{item.item_id}"
    assert browser.find_element(By.ID, "call-outcome").text.startswith("ok call_")
    assert browser.find_elements(By.ID, "approve") == []  # decided: no second approval to click

    assert [m["subject"] for m in tools_impl.OUTBOX] == [item.args["subject"]]  # the tool ran, once
    sent = [e for e in plane.journal.entries(item.run_id, kind=JournalKind.TOOL_CALL)
            if e.payload["tool"] == "send_email" and e.payload["status"] == "ok"]
    assert len(sent) == 1 and plane.grants.lookup(sent[0].payload["grant_id"]).issuer == "human:dana"
    assert len(plane.journal.entries(item.run_id, kind=JournalKind.GRANT)) == before + 1

    _mark_document(browser)
    browser.refresh()  # reloading the page after the decision changes nothing
    wait.until(_new_document)
    assert browser.find_element(By.ID, "status").text == "executed" and len(tools_impl.OUTBOX) == 1
    problems = [e for e in browser.get_log("browser") if e["level"] == "SEVERE" and "favicon" not in e["message"]]
    assert problems == [], problems  # no script errors, no Content-Security-Policy violations


def _mark_document(driver) -> None:
    driver.execute_script("window.__warrantOldPage = true")


def _new_document(driver) -> bool:
    """True once the marked page has been replaced by a loaded one.

    Not EC.staleness_of: while Chrome swaps documents, asking about the old node can fail with
    "Node with given id does not belong to the document" instead of a stale-element error, and
    staleness_of lets that escape (a CI failure with nothing wrong in the page).
    """
    from selenium.common.exceptions import WebDriverException

    try:
        return driver.execute_script("return window.__warrantOldPage !== true && document.readyState === 'complete'")
    except WebDriverException:  # mid-navigation: no document to ask yet
        return False


def _screenshot(driver, path: Path) -> None:
    """The whole page, not only the window (Chrome's DevTools protocol, no extra package)."""
    import base64

    width, height = driver.execute_script("return [document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True,
                                                             "clip": {"x": 0, "y": 0, "width": width, "height": min(height, 6000),
                                                                      "scale": 1}})
    path.write_bytes(base64.b64decode(shot["data"]))
    assert path.stat().st_size > 10_000
    target = os.environ.get("WARRANT_REVIEW_SCREENSHOT")
    if target:
        Path(target).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
