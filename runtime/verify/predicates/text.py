"""`statement`: one atomic sentence checked against the cited spans by rules and the NLI model."""

from __future__ import annotations

import re
from typing import Any

from warrant.runtime.verify.predicates.base import Predicate


# Judgements that need a yardstick: "overpriced" compared with what? No record can settle them,
# whatever identifiers they name ("INV-88 seems overpriced" names an invoice, not a yardstick).
_JUDGEMENT = (
    r"over-?priced|over-?billed|over-?charged|excessive(?:ly)?|unreasonabl[ey]|inflated|padded|suspicious|"
    r"questionable|fishy|problematic|improper|inappropriate"
)
_MILD = r"wrong|incorrect|fine|ok(?:ay)?|acceptable|reasonable|in order|fair|good|bad|too (?:high|low|much|many|expensive|cheap)|cheap|expensive"
_EVALUATIVE = re.compile(
    rf"\b(?:{_JUDGEMENT})\b"
    # mild words judge only as a predicate ("is reasonable", "seems fine"): "a fine of $500" and
    # "fair market value" are facts
    rf"|\b(?:is|are|was|were|be|been|seems?|seemed|looks?|looked|appears?|appeared|feels?|sounds?)\s+"
    rf"(?:(?:quite|very|rather|fairly|somewhat|a\s+bit|slightly|clearly|probably|possibly|likely|not)\s+)*(?:{_MILD})\b",
    re.I,
)
_CONTENT = re.compile(r"[A-Za-z]{3,}")


def specificity_problem(text: str) -> str | None:
    """Why a sentence is too vague to check, or None. "The invoice is overpriced" and "INV-88
    seems overpriced" judge without a yardstick (which line, which cap, which amount?): no
    evidence could settle them, so they are rejected, not guessed. "Travel time is not billable"
    is specific and goes on to be checked."""
    if _EVALUATIVE.search(text):
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
