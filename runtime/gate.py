"""The schema gate: plain code, no model, between every pair of agents.

It answers one question deterministically: may this artifact reach the next agent? Not "is it
true" (the verifier's job) but "is it well-formed, does every citation name bytes that exist in
this run's ledger, is every assertion checkable, does every intended action name a real tool with
valid arguments". A rejection is a list of violations with JSON paths, sent back as data.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, ValidationError

from warrant.ledger import RecordNotFound
from warrant.ledger.ports import JournalWriter, LedgerReader
from warrant.runtime import strict_json
from warrant.runtime.contract import ASSERTION, QUOTE, ActionIntent, Artifact, content_hash
from warrant.runtime.strict_json import StrictJSONError
from warrant.runtime.violations import Violation, from_pydantic


class IntentChecker(Protocol):
    """What the gate needs from the tool registry (`runtime.registry.ToolRegistry` is one): the
    tool (None if unknown) and the violations of one intended call, with paths relative to the
    intent (e.g. "$.args.line_id")."""

    def check_intent(self, intent: ActionIntent) -> tuple[Any, list[Violation]]: ...


class GateDecision(BaseModel):
    model_config = ConfigDict(frozen=True)

    status: Literal["pass", "reject"]
    run_id: str | None
    from_agent: str | None
    artifact_hash: str
    violations: list[Violation] = []

    @property
    def passed(self) -> bool:
        return self.status == "pass"

    def journal_entry(self, run_id: str | None = None) -> tuple[str, str, str, dict[str, Any]]:
        """This decision as one journal entry (run, kind, subject, payload); `run_id`: the run the
        gate guarded, for a decision on an artifact too broken to name its own."""
        return (self.run_id or run_id or "", "gate_decision", self.artifact_hash, self.model_dump(mode="json"))


class Gate:
    def __init__(
        self,
        ledger: LedgerReader,
        tools: IntentChecker | None = None,
        journal: JournalWriter | None = None,
        *,
        quote_cache_size: int = 4096,
    ):
        self._ledger = ledger
        self._tools = tools
        self._journal = journal
        # Records are immutable and content-addressed, so cached bytes can never go stale.
        self._bytes: OrderedDict[tuple[str, str], bytes] = OrderedDict()
        self._cache_size = quote_cache_size

    def check(self, artifact: bytes | str | dict[str, Any] | Artifact, *, run_id: str | None = None,
              journal: bool = True) -> GateDecision:
        """Decide on one artifact. `run_id`: the run the gate is guarding; an artifact claiming
        another run is rejected (its citations would be checked against the wrong ledger).
        `journal=False`: the caller journals `decision.journal_entry()` itself, e.g. in the same
        commit as the hand-off's verdicts (runtime/handoff.py)."""
        decision = self._decide(artifact, run_id)
        if journal and self._journal is not None:
            self._journal.record(*decision.journal_entry(run_id))
        return decision

    # -- the rules -----------------------------------------------------------------------------
    def _decide(self, raw: Any, run_id: str | None) -> GateDecision:
        doc, parse_error = _as_document(raw)
        digest = content_hash(doc) if parse_error is None else content_hash(repr(raw))
        if parse_error is not None:
            return GateDecision(status="reject", run_id=run_id, from_agent=None, artifact_hash=digest, violations=[parse_error])
        try:
            art = raw if isinstance(raw, Artifact) else Artifact.model_validate(doc)
        except ValidationError as exc:
            return GateDecision(
                status="reject",
                run_id=doc.get("run_id") if isinstance(doc.get("run_id"), str) else run_id,
                from_agent=doc.get("from_agent") if isinstance(doc.get("from_agent"), str) else None,
                artifact_hash=digest,
                violations=[_gate_code(x) for x in from_pydantic(exc.errors())],
            )
        # The hash of the validated artifact (defaults filled in), the one the verifier and the
        # grants record: the same artifact must have one hash whether it arrived as text or a dict.
        digest = art.content_hash()
        v: list[Violation] = []
        if run_id is not None and art.run_id != run_id:
            v.append(Violation(code="run_mismatch", loc="$.run_id", message="artifact belongs to another run", expected=run_id, got=art.run_id))
        self._check_claims(art, v)
        self._check_intents(art, v)
        v.sort(key=lambda x: _path_key(x.loc))
        return GateDecision(
            status="reject" if v else "pass", run_id=art.run_id, from_agent=art.from_agent, artifact_hash=digest, violations=v
        )

    def _check_claims(self, art: Artifact, v: list[Violation]) -> None:
        seen_claims: set[str] = set()
        seen_props: set[str] = set()
        cited: list[tuple[str, str]] = []  # (path, ledger id)
        for ci, claim in enumerate(art.claims):
            cpath = f"$.claims[{ci}]"
            if claim.id in seen_claims:
                v.append(Violation(code="duplicate_id", loc=f"{cpath}.id", message="claim id used twice in one artifact", got=claim.id))
            seen_claims.add(claim.id)
            if claim.type == ASSERTION and not claim.propositions:
                v.append(
                    Violation(
                        code="assertion_without_propositions",
                        loc=f"{cpath}.propositions",
                        message="an Assertion must be split into checkable propositions (one entity, one relation, one time), each citing ledger ids",
                        expected="at least 1 proposition",
                        got=0,
                    )
                )
            for pi, prop in enumerate(claim.propositions):
                ppath = f"{cpath}.propositions[{pi}]"
                if prop.id in seen_props:
                    v.append(Violation(code="duplicate_id", loc=f"{ppath}.id", message="proposition id used twice in one artifact", got=prop.id))
                seen_props.add(prop.id)
                cited.extend((f"{ppath}.ledger_ids[{li}]", lid) for li, lid in enumerate(prop.ledger_ids))
            if claim.type == QUOTE and claim.quote_of is not None:
                self._check_quote(art.run_id, claim.text, claim.quote_of.ledger_id, cpath, v)
        missing = set(self._ledger.exists(art.run_id, {lid for _, lid in cited}))
        for path, lid in cited:
            if lid in missing:
                v.append(
                    Violation(
                        code="ledger_id_unknown",
                        loc=path,
                        message=f"no record {lid} in the ledger of run {art.run_id}: cite records of this run, never ids from memory or other runs",
                        got=lid,
                    )
                )
        for ii, intent in enumerate(art.action_intents):
            for di, dep in enumerate(intent.depends_on):
                if dep not in seen_claims:
                    v.append(
                        Violation(
                            code="depends_on_unknown_claim",
                            loc=f"$.action_intents[{ii}].depends_on[{di}]",
                            message="depends_on must name a claim of this artifact",
                            expected=sorted(seen_claims),
                            got=dep,
                        )
                    )

    def _check_quote(self, run_id: str, text: str, lid: str, cpath: str, v: list[Violation]) -> None:
        data = self._record_bytes(run_id, lid)
        if data is None:
            v.append(Violation(code="ledger_id_unknown", loc=f"{cpath}.quote_of.ledger_id", message=f"no record {lid} in the ledger of run {run_id}", got=lid))
        elif text.encode("utf-8") not in data:
            v.append(
                Violation(
                    code="quote_mismatch",
                    loc=f"{cpath}.text",
                    message=f"the quoted text is not a verbatim copy of bytes in {lid}",
                    got=text[:200],
                )
            )

    def _record_bytes(self, run_id: str, lid: str) -> bytes | None:
        key = (run_id, lid)
        if key in self._bytes:
            self._bytes.move_to_end(key)
            return self._bytes[key]
        try:
            data = self._ledger.get(run_id, lid).data
        except RecordNotFound:
            return None
        self._bytes[key] = data
        if len(self._bytes) > self._cache_size:
            self._bytes.popitem(last=False)
        return data

    def _check_intents(self, art: Artifact, v: list[Violation]) -> None:
        if self._tools is None:
            if art.action_intents:
                v.append(Violation(code="no_tool_registry", loc="$.action_intents", message="this gate has no tool registry, so no action intent can pass"))
            return
        for ii, intent in enumerate(art.action_intents):
            for viol in self._tools.check_intent(intent)[1]:
                v.append(viol.model_copy(update={"loc": f"$.action_intents[{ii}]" + viol.loc.removeprefix("$")}))


# Rules the contract's schema now enforces (so a schema-constrained agent meets them), reported
# under the gate's own stable codes and with what to do instead: (pydantic-derived code, field of a
# proposition) -> (code, message, expected).
_PROPOSITION_RULES = {
    ("unknown_field", "entailment"): ("entailment_set_by_agent", "only the verifier fills entailment; leave the field out", None),
    ("unknown_field", "confidence"): ("confidence_set_by_agent", "confidence is calibrated by the runtime; leave the field out", None),
    ("too_short", "ledger_ids"): ("proposition_without_evidence", "a proposition must cite at least one ledger record of this run", "at least 1 ledger id"),
    ("missing_field", "ledger_ids"): ("proposition_without_evidence", "a proposition must cite at least one ledger record of this run", "at least 1 ledger id"),
}
_PROPOSITION_LOC = re.compile(r"^\$\.claims\[\d+\]\.propositions\[\d+\]\.(\w+)$")


def _gate_code(v: Violation) -> Violation:
    m = _PROPOSITION_LOC.match(v.loc)
    rule = _PROPOSITION_RULES.get((v.code, m.group(1))) if m else None
    if rule is None:
        return v
    code, message, expected = rule
    return v.model_copy(update={"code": code, "message": message, "expected": expected})


def _path_key(loc: str) -> list[Any]:
    # "$.claims[10]" must sort after "$.claims[2]": compare indexes as numbers.
    return [(0, int(p)) if p.isdigit() else (1, p) for p in loc.replace("[", ".").replace("]", "").split(".")]


def _as_document(raw: Any) -> tuple[Any, Violation | None]:
    if isinstance(raw, BaseModel):
        # An AnnotatedArtifact (or any other model) is judged by its JSON like any sender's output.
        return raw.model_dump(mode="json"), None
    if isinstance(raw, (bytes, bytearray, str)):
        try:
            raw = strict_json.loads(raw)
        except StrictJSONError as exc:
            return None, Violation(code="invalid_json", loc="$", message=str(exc))
    if not isinstance(raw, dict):
        return raw, Violation(code="wrong_type", loc="$", message="an artifact is a JSON object", expected="object", got=type(raw).__name__)
    return raw, None
