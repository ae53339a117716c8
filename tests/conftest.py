"""Shared fixtures. Environment first: these must be set before Ray or LanceDB are imported."""

import os
import tempfile

os.environ.setdefault("LANCEDB_LOG", "error")
# Ray runs with token authentication (actors/ray_env.py). The test session's local clusters get
# their own 0600 token file in a private folder rather than the user's ~/.ray/auth_token.
if not (os.environ.get("RAY_AUTH_TOKEN") or os.environ.get("RAY_AUTH_TOKEN_PATH")):
    os.environ["RAY_AUTH_TOKEN_PATH"] = os.path.join(tempfile.mkdtemp(prefix="warrant-tests-ray-"), "auth_token")
os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

import pytest  # noqa: E402

from warrant.ledger import Journal, Ledger  # noqa: E402


@pytest.fixture
def ledger_uri(tmp_path):
    return str(tmp_path / "ledger")


@pytest.fixture
def ledger(ledger_uri):
    led = Ledger.open(ledger_uri)
    yield led
    led.close()


@pytest.fixture
def journal(ledger_uri):
    j = Journal.open(ledger_uri)
    yield j
    j.close()
