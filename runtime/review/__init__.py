"""Human review at the irreversibility edge: a durable queue, policies as data, the review page.

    from warrant.runtime.review import ReviewPolicy, ReviewQueue
    policy = ReviewPolicy.load("examples/invoice_audit/policy.yaml")     # a runtime.grants.Policy
    plane = ControlPlane.open(".warrant/ledger", registry, policy=policy)  # plane.review: the queue
    for st in plane.review.items(status="pending"): ...
    plane.review.approve(item_id, "dana", args_hash=..., claim_set_hash=...)  # grant + the call, once

Modules: policy (YAML rules, schema, explanations), expressions (their formulas), queue (items,
decisions, resume; in the journal), auth (reviewers, sessions, CSRF), documents (spans inside
their documents), server (FastAPI + Jinja2), cli (`warrant review ...`).
"""

# Where `warrant review serve` listens unless told otherwise: loopback only.
DEFAULT_HOST, DEFAULT_PORT = "127.0.0.1", 8765

from warrant.runtime.review.policy import PolicyDecision, PolicyDoc, PolicyError, ReviewPolicy
from warrant.runtime.review.queue import QueuedCall, ReviewDecision, ReviewError, ReviewQueue, ReviewState

__all__ = [
    "DEFAULT_HOST", "DEFAULT_PORT", "PolicyDecision", "PolicyDoc", "PolicyError", "QueuedCall", "ReviewDecision", "ReviewError", "ReviewPolicy", "ReviewQueue",
    "ReviewState", "create_app",
]


def __getattr__(name: str):
    # The web server pulls in FastAPI and Jinja2; the runner, which queues items, needs neither.
    if name == "create_app":
        from warrant.runtime.review.server import create_app

        return create_app
    raise AttributeError(name)
