"""The auto-approval policy of the invoice audit: `policy.yaml`, the client's payment policy AP-3
(clause 3) as data (see runtime/review/policy.py for the schema).

A line billed above the rate cap is flagged without a human when every finding is supported and
the overbilled amount, (rate - cap) x hours, is at most USD 500. The amount is computed only from
propositions the verifier marked supported (their arguments were checked against the ledger
bytes), never from what an agent wrote in prose.
"""

from __future__ import annotations

from decimal import Decimal
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

from warrant.runtime.review.policy import ReviewPolicy

POLICY_FILE = Path(__file__).resolve().parent / "policy.yaml"
RULE_NAME = "ap3_overbilling_within_tolerance"


@lru_cache(maxsize=1)
def _loaded() -> ReviewPolicy:
    return ReviewPolicy.load(POLICY_FILE)


def policy() -> ReviewPolicy:
    return _loaded()


TOLERANCE_USD: Decimal = _loaded().rule(RULE_NAME).rule.bands[0].tolerance


def overbilled(args: Mapping[str, Any], verdicts: Mapping[str, Mapping[str, Any]]) -> Decimal | None:
    """(rate - cap) x hours of the flagged line in USD, or None when a needed fact is not supported."""
    result = _loaded().rule(RULE_NAME).evaluate(args, verdicts)
    return None if result.deviation is None else Decimal(result.deviation)
