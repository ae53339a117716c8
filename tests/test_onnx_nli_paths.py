"""The embedded ONNX model gives a pair the same scores whichever path scores it: alone (tokenized
and run on the calling thread) or among many (batch tokenization, the thread pool)."""

from __future__ import annotations

import numpy as np
import pytest

from warrant.runtime.verify.backends import load_backend

PAIRS = [
    ("The supplier shall keep timesheets for every billable task.", "The supplier keeps timesheets for every billable task."),
    ("Invoice INV-2291 was issued by Meridian Logistics on 3 March 2026. The supplier shall keep timesheets.", "Meridian Logistics issued INV-2291."),
    ("The client may not subcontract any work without consent.", "The client may subcontract freely."),
    ("Payment is due within 30 days of the invoice date.", "Payment is due in 60 days."),
    ("A cat sat on the mat.", "An animal was on the mat."),
    ("The auditor must notify the client of any conflict of interest.", "The auditor need not notify the client."),
]


@pytest.fixture(scope="module")
def nli():
    b = load_backend(None)
    assert b.per_pair  # a dynamically quantised model: each pair scored alone, whichever path
    return b


def test_one_pair_alone_scores_exactly_as_in_a_batch(nli):
    many = nli.score(PAIRS * 4)  # 24 pairs: batch tokenization, the pool
    for i, pair in enumerate(PAIRS):
        alone = nli.score([pair])  # tokenized and run on this thread
        assert np.array_equal(alone[0], many[i]) and np.array_equal(alone[0], many[i + len(PAIRS)])
    two = nli.score(PAIRS[:2])  # the latency path: a sentence and its window
    assert np.array_equal(two, many[:2])


def test_scores_are_probabilities_in_a_fixed_order(nli):
    s = nli.score(PAIRS[:3])
    assert s.shape == (3, 3) and np.allclose(s.sum(axis=1), 1, atol=1e-5)
    assert nli.score([]).shape == (0, 3)
