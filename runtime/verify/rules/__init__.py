"""Deterministic rules the verifier runs before (and around) the NLI model: a plug-in family.

``base`` (``Quantity``, ``QuantityCheck``, the ``Extractor`` interface, the number grammar), one
module per kind (``dates``, ``money``, ``numbers`` (percentages and plain numbers), ``durations``,
``identifiers``, ``comparisons``, ``ranking`` (claims that order two stated values or name a column's extreme), ``status`` (a state claimed against the record's status field), ``negation`` (polarity, modality, tense), ``derived`` (rates,
averages, totals from two stated values), ``copied`` (a claim that is one whole sentence of the record)), ``registry`` (the extractors in reading order), ``check``
(tying a claimed value to an evidence value in the same slot) and ``anchors`` (what a free-text
claim must find in its supporting window before the model may pass it).

    >>> from runtime.verify.rules import check_rules
    >>> check_rules("The total due is $1,300.", "Total due: $1,200.00 (USD).").status
    'conflict'
"""

from warrant.runtime.verify.rules.base import Quantity, QuantityCheck
from warrant.runtime.verify.rules.check import canonical_text, check_quantities, check_rules, missing_names
from warrant.runtime.verify.rules.negation import check_negation
from warrant.runtime.verify.rules.registry import extract_quantities

__all__ = [
    "Quantity",
    "QuantityCheck",
    "extract_quantities",
    "check_quantities",
    "check_negation",
    "check_rules",
    "canonical_text",
    "missing_names",
]
