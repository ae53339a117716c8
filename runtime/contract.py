"""The hand-off contract: the only thing one agent may pass to another.

Strict on purpose: unknown fields (a `summary`, free prose) are rejected and nothing is coerced
("14" is not 14, "true" is not True).

Two shapes, so that the schema an agent is given holds the gate's structural rules:

* `Artifact` / `Claim` / `Proposition`: what an agent sends. A proposition has no `entailment` or
  `confidence` field at all (sending one, even null, is an unknown field) and cites at least one
  ledger id. `json_schema()` exports exactly this, so an LLM constrained by it cannot produce an
  artifact the gate rejects for its shape.
* `AnnotatedArtifact` / `AnnotatedClaim` / `AnnotatedProposition`: what the verifier returns
  (`verify.verifier.annotate`), the same fields plus `entailment` and `confidence`. An agent
  forwarding an upstream claim sends `claim.unannotated()` (what `graph.agent.restate` does).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from warrant.ledger.canonical import canonical_json, sha256_hex
from warrant.ledger.evidence import RUN_ID_PATTERN

LEDGER_ID_PATTERN = r"^led_[0-9a-f]{32}$"
IDENT_PATTERN = RUN_ID_PATTERN  # run, agent, claim and proposition ids share one pattern


# A Literal rather than an Enum: strict validation of plain dicts would reject "Assertion" for an Enum.
ClaimType = Literal["Assertion", "Conjecture", "Quote", "ActionIntent"]
ASSERTION, CONJECTURE, QUOTE, ACTION_INTENT = "Assertion", "Conjecture", "Quote", "ActionIntent"


# What the verifier may write into `entailment`. Agents send null.
Entailment = Literal["supported", "contradicted", "unsupported", "unverifiable"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


LedgerId = Annotated[str, Field(pattern=LEDGER_ID_PATTERN)]


class _PropositionFields(_Strict):
    id: str = Field(pattern=IDENT_PATTERN)
    pred: str = Field(pattern=r"^[a-z][a-z0-9_]{0,63}$")
    # null: an optional argument left unset (the predicate's schema says which may be)
    args: dict[str, str | int | float | bool | None] = Field(default_factory=dict)
    # Required and non-empty: a proposition citing nothing can only be taken on trust.
    ledger_ids: list[LedgerId] = Field(min_length=1)


class Proposition(_PropositionFields):
    """One checkable fact, as an agent sends it: one entity, one relation or property, one time,
    citing the ledger records that show it. No `entailment`/`confidence`: only the verifier and the
    runtime write those (`AnnotatedProposition`)."""


class AnnotatedProposition(_PropositionFields):
    """A proposition as the verifier returns it: `entailment` is its verdict, `confidence` the
    runtime's calibrated confidence in that verdict."""

    entailment: Entailment | None = None
    confidence: float | None = Field(default=None, ge=0.0, le=1.0)

    def unannotated(self) -> Proposition:
        return Proposition.model_validate(self.model_dump(exclude={"entailment", "confidence"}))


class QuoteSource(_Strict):
    """What a Quote claims to copy: exact text from one ledger record."""

    ledger_id: str = Field(pattern=LEDGER_ID_PATTERN)


class _ClaimFields(_Strict):
    id: str = Field(pattern=IDENT_PATTERN)
    type: ClaimType
    text: str = Field(min_length=1, max_length=20_000)
    # Only for type Quote: `text` must be a verbatim copy of bytes in this record.
    quote_of: QuoteSource | None = None

    @field_validator("text")
    @classmethod
    def _not_blank(cls, text: str) -> str:
        # A blank Quote is a verbatim copy of any record's whitespace: it would pass while saying nothing.
        if not text.strip():
            raise ValueError("text is blank: a claim must say something (whitespace only is not a claim)")
        return text

    @model_validator(mode="after")
    def _quote_has_source(self) -> "_ClaimFields":
        if self.type == QUOTE and self.quote_of is None:
            raise ValueError("a Quote must name the ledger record it copies in `quote_of`")
        if self.type != QUOTE and self.quote_of is not None:
            raise ValueError("`quote_of` is only allowed on claims of type Quote")
        return self


# What the model validators above (and the gate's "assertion_without_propositions") enforce, in
# JSON Schema terms, so a schema-constrained agent meets them too.
_CLAIM_RULES = {
    "allOf": [
        {"if": {"properties": {"type": {"const": ASSERTION}}, "required": ["type"]},
         "then": {"required": ["propositions"], "properties": {"propositions": {"minItems": 1}}}},
        {"if": {"properties": {"type": {"const": QUOTE}}, "required": ["type"]},
         "then": {"required": ["quote_of"], "properties": {"quote_of": {"type": "object"}}},
         "else": {"properties": {"quote_of": {"type": "null"}}}},
    ]
}


class Claim(_ClaimFields):
    """A claim as an agent sends it."""

    model_config = ConfigDict(json_schema_extra=_CLAIM_RULES)

    propositions: list[Proposition] = Field(default_factory=list)


class AnnotatedClaim(_ClaimFields):
    """A claim as the verifier returns it: its propositions carry `entailment` and `confidence`."""

    propositions: list[AnnotatedProposition] = Field(default_factory=list)

    def unannotated(self) -> Claim:
        """This claim fit to be sent again by an agent: the verifier's fields dropped."""
        return Claim.model_validate(self.model_dump(exclude={"propositions": {"__all__": {"entailment", "confidence"}}}))


class ActionIntent(_Strict):
    tool: str = Field(pattern=r"^[a-z][a-z0-9_]{0,63}$")
    version: str | None = Field(default=None, pattern=r"^\d+(\.\d+){0,2}$")
    args: dict[str, Any] = Field(default_factory=dict)
    requires_grant: bool = False
    depends_on: list[str] = Field(default_factory=list)


class _ArtifactFields(_Strict):
    run_id: str = Field(pattern=IDENT_PATTERN)
    from_agent: str = Field(pattern=IDENT_PATTERN)
    open_questions: list[str] = Field(default_factory=list)
    action_intents: list[ActionIntent] = Field(default_factory=list)

    def content_hash(self) -> str:
        return content_hash(self.model_dump(mode="json"))


class Artifact(_ArtifactFields):
    """What one agent hands to the next (the schema agents are given)."""

    claims: list[Claim] = Field(default_factory=list)


class AnnotatedArtifact(_ArtifactFields):
    """An artifact after the verifier: what the next agent receives in its inbox."""

    claims: list[AnnotatedClaim] = Field(default_factory=list)


def content_hash(value: Any) -> str:
    """SHA-256 of the canonical JSON of a value: what grants and claim sets bind to."""
    return sha256_hex(canonical_json(value))


def json_schema() -> dict[str, Any]:
    schema = Artifact.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "Warrant hand-off artifact"
    return schema
