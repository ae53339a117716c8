"""`statement`: one atomic sentence checked against the cited spans by rules and the NLI model."""

from __future__ import annotations

import re
from typing import Any

from runtime.verify.predicates.base import Predicate
from runtime.verify.quantities import extract_quantities

# Something a checker can hold a sentence to: a number, amount, date, an identifier with a digit
# ("INV-4421", "line 14") or a capitalised name after the first word.
_ID = re.compile(r"\b[A-Za-z]*[-_#]?\d[\w-]*\b")
_NAME = re.compile(r"(?<!^)(?<![.!?]\s)\b[A-Z][a-z]+")


# Judgements that need a yardstick: "overpriced" compared with what? Said of no line, amount,
# date or party, no record can settle them.
_EVALUATIVE = re.compile(
    r"\b(over-?priced|over-?billed|over-?charged|excessive(ly)?|unreasonabl[ey]|too (high|much|many|expensive)|"
    r"inflated|padded|suspicious|questionable|wrong|incorrect|improper|inappropriate|fishy|problematic|"
    r"fine|ok(ay)?|acceptable|reasonable|in order|fair)\b",
    re.I,
)
_CONTENT = re.compile(r"[A-Za-z]{3,}")


def specificity_problem(text: str) -> str | None:
    """Why a sentence is too vague to check, or None. "The invoice is overpriced" judges without a
    yardstick (which line, which cap, which amount?): no evidence could settle it, so it is
    rejected, not guessed. "Travel time is not billable" is specific and goes on to be checked."""
    anchored = bool(extract_quantities(text) or _ID.search(text) or _NAME.search(text.strip()))
    if _EVALUATIVE.search(text) and not anchored:
        return "judges without a yardstick: say which line, which cap, which amount, which record"
    if len(_CONTENT.findall(text)) < 3:
        return "too short to be a checkable proposition: one entity, one relation, one value"
    return None


STATEMENT = Predicate(
    name="statement",
    description="An atomic sentence the cited spans must entail (one entity, one relation, one time).",
    args_schema={
        "type": "object",
        "properties": {"text": {"type": "string", "minLength": 3, "maxLength": 1000}},
        "required": ["text"],
        "additionalProperties": False,
    },
    template="{text}",
)


def statement_problems(args: dict[str, Any]) -> str | None:
    return specificity_problem(str(args.get("text", "")))


PREDICATES = [STATEMENT]
