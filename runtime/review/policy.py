"""Review policies as data: which irreversible calls run without a person, and why the others wait.

A policy is a YAML file the operator edits, validated by a schema (`PolicyDoc`; every error names
the field), and versioned: its `version` plus the SHA-256 of its bytes. A rule auto-approves a
call of one tool when every claim the call depends on is supported (the tool bus checks that
before any rule is asked) and the call's numeric deviation is within the tolerance of its amount
band. Numbers come only from propositions the verifier marked supported, never from prose.

    policy: invoice_audit
    version: 1
    rules:
      - name: ap3_overbilling_within_tolerance
        tool: flag_invoice_line
        when: {reason: exceeds_cap}             # the call's arguments must say this
        facts:                                  # each: exactly one supported value
          rate:  {pred: line_rate,  arg: rate,  match: {invoice_id: args.invoice_id, line_id: args.line_id}}
          hours: {pred: line_hours, arg: hours, match: {invoice_id: args.invoice_id, line_id: args.line_id}}
          cap:   {pred: hourly_cap, arg: amount, match: {currency: USD}, defaults: {currency: USD}}
        amount: rate * hours                    # picks the band
        deviation: (rate - cap) * hours         # must be within the band's tolerance
        require: [deviation > 0]
        bands:
          - {up_to: 10000, tolerance: 500}
          - {up_to: 100000, tolerance: 500, tolerance_pct: 1}

`ReviewPolicy` is a `runtime.grants.Policy`: the tool bus asks it exactly as it asks any policy,
and its grants are the ordinary journaled single-use grants, issued as
`policy:<rule>@<policy>.v<version>` so every auto-approval names the rule and the policy version.
`explain` says, for a call that was not approved, which rule was asked and why it said no.
"""

from __future__ import annotations

import copy
import re
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any, Literal, Mapping

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from warrant.ledger import sha256_hex
from warrant.runtime.claimset import ClaimSet
from warrant.runtime.grants import Policy, PolicyRule
from warrant.runtime.registry import TOOL_NAME_PATTERN, VERSION_PATTERN
from warrant.runtime.review.expressions import Expression, ExpressionError
from warrant.runtime.violations import Violation, from_pydantic

NAME_PATTERN = r"^[A-Za-z0-9_.-]{1,64}$"
IDENT = r"^[A-Za-z_][A-Za-z0-9_]{0,63}$"
ARG_REF = "args."  # a match value "args.line_id" means: the call's argument line_id

Scalar = str | int | float | bool


class PolicyError(ValueError):
    """The policy file is not a valid policy. `violations` name each bad field."""

    def __init__(self, violations: list[Violation], source: str = "policy"):
        self.violations = violations
        self.source = source
        super().__init__(f"{source}: " + "; ".join(f"{v.loc}: {v.message}" for v in violations))


class _M(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Fact(_M):
    """Values of one argument of supported propositions with predicate `pred`."""

    pred: str = Field(pattern=r"^[a-z][a-z0-9_]{0,63}$")
    arg: str | None = Field(default=None, pattern=IDENT)  # None: the fact only has to be present
    match: dict[str, Scalar] = Field(default_factory=dict)  # proposition args that must equal these
    defaults: dict[str, Scalar] = Field(default_factory=dict)  # what an absent proposition arg counts as

    def values(self, args: Mapping[str, Any], verdicts: Mapping[str, Mapping[str, Any]]) -> list[Any]:
        want = {k: (args.get(v[len(ARG_REF):]) if isinstance(v, str) and v.startswith(ARG_REF) else v) for k, v in self.match.items()}
        out: list[Any] = []
        for p in _supported(verdicts, self.pred):
            pa = {**self.defaults, **(p.get("args") or {})}
            # Compared as text: "14" and 14 name the same line; the verifier already checked the value.
            if all(k in pa and str(pa[k]) == str(w) for k, w in want.items()):
                out.append(pa.get(self.arg) if self.arg else True)
        return out


class Band(_M):
    up_to: Decimal | None = Field(default=None, gt=0)  # amounts up to this (inclusive); None: no upper bound
    tolerance: Decimal = Field(ge=0)  # the largest |deviation| approved in this band
    tolerance_pct: Decimal | None = Field(default=None, ge=0, le=100)  # and at most this % of the amount


class Rule(_M):
    name: str = Field(pattern=NAME_PATTERN)
    tool: str = Field(pattern=TOOL_NAME_PATTERN)
    version: str | None = Field(default=None, pattern=VERSION_PATTERN)  # None: every version of the tool
    description: str = ""
    when: dict[str, Scalar] = Field(default_factory=dict)
    facts: dict[str, Fact] = Field(default_factory=dict)
    amount: str | None = None
    deviation: str
    require: list[str] = Field(default_factory=list)
    bands: list[Band] = Field(min_length=1)
    currency: str = ""  # a label for amounts in explanations

    @field_validator("facts")
    @classmethod
    def _fact_names(cls, v: dict[str, Fact]) -> dict[str, Fact]:
        bad = [k for k in v if not re.match(IDENT, k) or k in ("deviation", "amount")]
        if bad:
            raise ValueError(f"fact names must be identifiers other than 'deviation' and 'amount', got {bad}")
        return v


class PolicyDoc(_M):
    policy: str = Field(pattern=NAME_PATTERN)
    version: int = Field(ge=1)
    description: str = ""
    rules: list[Rule] = Field(default_factory=list)


class RuleResult(_M):
    """One rule asked about one call."""

    rule: str
    approved: bool
    reason: str
    amount: str | None = None
    deviation: str | None = None
    tolerance: str | None = None
    band: int | None = None  # index into the rule's bands
    facts: dict[str, str] = Field(default_factory=dict)


class PolicyDecision(_M):
    """What the policy says about one call: auto-approve (by which rule) or queue (and why)."""

    outcome: Literal["auto_approve", "queue"]
    policy: str
    version: int
    sha256: str
    rule: str | None = None  # the approving rule, or the last rule that was asked
    reason: str
    results: list[RuleResult] = Field(default_factory=list)


def _supported(verdicts: Mapping[str, Mapping[str, Any]], pred: str):
    for v in verdicts.values():
        for p in v.get("propositions", []) or []:
            if p.get("status") == "supported" and p.get("pred") == pred:
                yield p


def _num(value: Any) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, (int, float, str, Decimal)):
        raise InvalidOperation(value)
    return Decimal(str(value))


class _CompiledRule:
    def __init__(self, rule: Rule, loc: str):
        self.rule = rule
        numeric = [k for k, f in rule.facts.items() if f.arg]
        errs: list[Violation] = []

        def expr(src: str | None, field: str, names: list[str], boolean: bool = False) -> Expression | None:
            if src is None:
                return None
            try:
                return Expression(src, names, boolean=boolean)
            except ExpressionError as exc:
                errs.append(Violation(code="bad_formula", loc=f"{loc}.{field}", message=str(exc), got=src))
                return None

        self.amount = expr(rule.amount, "amount", numeric)
        self.deviation = expr(rule.deviation, "deviation", numeric)
        after = numeric + ["deviation"] + (["amount"] if rule.amount else [])
        self.require = [expr(r, f"require[{i}]", after, True) for i, r in enumerate(rule.require)]
        for name, f in rule.facts.items():
            for k, v in f.match.items():
                if isinstance(v, str) and v.startswith(ARG_REF) and not v[len(ARG_REF):].isidentifier():
                    errs.append(Violation(code="bad_value", loc=f"{loc}.facts.{name}.match.{k}",
                                          message="an argument reference is args.<name>", got=v))
        prev: Decimal | None = None
        for i, b in enumerate(rule.bands):
            if b.up_to is None and i != len(rule.bands) - 1:
                errs.append(Violation(code="bad_value", loc=f"{loc}.bands[{i}].up_to",
                                      message="only the last band may be unbounded", expected="a number", got=None))
            elif b.up_to is not None and prev is not None and b.up_to <= prev:
                errs.append(Violation(code="bad_value", loc=f"{loc}.bands[{i}].up_to", message="bands must rise",
                                      expected=f"more than {prev}", got=str(b.up_to)))
            prev = b.up_to if b.up_to is not None else prev
        needs_amount = len(rule.bands) > 1 or any(b.tolerance_pct is not None or b.up_to is not None for b in rule.bands)
        if needs_amount and rule.amount is None:
            errs.append(Violation(code="missing_field", loc=f"{loc}.amount",
                                  message="bands with limits or a percentage tolerance need an amount formula"))
        self.errors = errs

    def evaluate(self, args: Mapping[str, Any], verdicts: Mapping[str, Mapping[str, Any]]) -> RuleResult:
        r = self.rule

        def no(reason: str, **kw: Any) -> RuleResult:
            return RuleResult(rule=r.name, approved=False, reason=reason, **kw)

        for k, want in r.when.items():
            if args.get(k) != want:
                return no(f"the rule covers calls with {k} = {want!r}, this call has {args.get(k)!r}")
        values: dict[str, Decimal] = {}
        for name, f in r.facts.items():
            found = f.values(args, verdicts)
            distinct = {str(v) for v in found}
            if not found:
                return no(f"no supported {f.pred} proposition gives {name}")
            if f.arg is None:
                continue
            if len(distinct) != 1:
                # Two supported caps (two clients, two letters) is for a person to settle.
                return no(f"{name}: {len(distinct)} different supported values ({', '.join(sorted(distinct))}); the rule needs one")
            try:
                values[name] = _num(found[0])
            except InvalidOperation:
                return no(f"{name}: {found[0]!r} is not a number")
        shown = {k: str(v) for k, v in values.items()}
        try:
            amount = self.amount(values) if self.amount else None
            if amount is not None:
                values["amount"] = amount
            deviation = self.deviation(values)
            values["deviation"] = deviation
            for req in self.require:
                if not req(values):
                    return no(f"requirement {req.source} does not hold", deviation=str(deviation),
                              amount=None if amount is None else str(amount), facts=shown)
        except ExpressionError as exc:
            return no(f"cannot compute: {exc}", facts=shown)
        band_i = next((i for i, b in enumerate(r.bands) if amount is None or b.up_to is None or amount <= b.up_to), None)
        money = (lambda d: f"{r.currency} {d}".strip())
        if band_i is None:
            return no(f"amount {money(amount)} is above the last band (up to {money(r.bands[-1].up_to)})",
                      amount=str(amount), deviation=str(deviation), facts=shown)
        band = r.bands[band_i]
        tol = band.tolerance
        if band.tolerance_pct is not None and amount is not None:
            tol = min(tol, abs(amount) * band.tolerance_pct / 100)
        kw = dict(amount=None if amount is None else str(amount), deviation=str(deviation), tolerance=str(tol), band=band_i, facts=shown)
        where = f"band {band_i + 1}" + (f" (amounts up to {money(band.up_to)})" if band.up_to is not None else "")
        if abs(deviation) > tol:
            return no(f"deviation {money(deviation)} exceeds the tolerance {money(tol)} of {where}", **kw)
        return RuleResult(rule=r.name, approved=True, reason=f"deviation {money(deviation)} within {money(tol)} of {where}", **kw)


class ReviewPolicy(Policy):
    """A validated policy document, usable wherever a `runtime.grants.Policy` is."""

    def __init__(self, doc: PolicyDoc, sha256: str, source: str = "policy"):
        self.doc = doc
        self.sha256 = sha256
        self.source = source
        compiled = [_CompiledRule(r, f"$.rules[{i}]") for i, r in enumerate(doc.rules)]
        errs = [e for c in compiled for e in c.errors]
        seen: set[str] = set()
        for i, r in enumerate(doc.rules):
            if r.name in seen:
                errs.append(Violation(code="duplicate", loc=f"$.rules[{i}].name", message="rule names must be unique", got=r.name))
            seen.add(r.name)
        if errs:
            raise PolicyError(errs, source)
        self._compiled = {self.grant_name(c.rule.name): c for c in compiled}
        super().__init__(
            PolicyRule(
                name=self.grant_name(c.rule.name),
                tool=c.rule.tool,
                version=c.rule.version,
                description=c.rule.description or c.rule.deviation,
                predicate=(lambda args, verdicts, c=c: c.evaluate(args, verdicts).approved),
            )
            for c in compiled
        )

    # -- loading -------------------------------------------------------------------------------
    @classmethod
    def from_yaml(cls, text: str | bytes, source: str = "policy") -> "ReviewPolicy":
        raw = text.encode("utf-8") if isinstance(text, str) else text
        try:
            data = yaml.safe_load(raw)
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark else ""
            raise PolicyError([Violation(code="invalid_yaml", loc="$", message=f"not YAML{where}: {getattr(exc, 'problem', exc)}")],
                              source) from None
        return cls.from_dict(data, sha256_hex(raw), source)

    @classmethod
    def from_dict(cls, data: Any, sha256: str | None = None, source: str = "policy") -> "ReviewPolicy":
        if not isinstance(data, dict):
            raise PolicyError([Violation(code="wrong_type", loc="$", message="a policy is a mapping with policy, version and rules",
                                         expected="mapping", got=type(data).__name__)], source)
        try:
            doc = PolicyDoc.model_validate(data)
        except ValidationError as exc:
            raise PolicyError(from_pydantic(exc.errors()), source) from None
        if sha256 is None:
            from warrant.ledger import canonical_json

            sha256 = sha256_hex(canonical_json(doc.model_dump(mode="json")))
        return cls(doc, sha256, source)

    @classmethod
    def load(cls, path: str | Path) -> "ReviewPolicy":
        p = Path(path)
        try:
            raw = p.read_bytes()
        except OSError as exc:
            raise PolicyError([Violation(code="unreadable", loc="$", message=f"cannot read {p}: {exc.strerror}")], str(p)) from None
        return cls.from_yaml(raw, str(p))

    # -- naming and asking ---------------------------------------------------------------------
    @property
    def name(self) -> str:
        return self.doc.policy

    @property
    def version(self) -> int:
        return self.doc.version

    def grant_name(self, rule: str) -> str:
        """What a grant's issuer names: `policy:<this>`, the rule and the policy version."""
        return f"{rule}@{self.doc.policy}.v{self.doc.version}"

    def rule(self, name: str) -> _CompiledRule:
        for c in self._compiled.values():
            if c.rule.name == name:
                return c
        raise KeyError(f"policy {self.doc.policy} v{self.doc.version} has no rule {name!r}")

    def explain(self, tool: str, version: str, args: Mapping[str, Any], claim_set: ClaimSet) -> PolicyDecision:
        """The same decision the bus gets from `try_grant`, with the reasons, and nothing journaled."""
        base = dict(policy=self.doc.policy, version=self.doc.version, sha256=self.sha256)
        if not claim_set.verified:
            bad = ", ".join(f"{c} ({s})" for c, s in claim_set.unverified) or "none given"
            return PolicyDecision(outcome="queue", reason=f"not every claim the call depends on is supported: {bad}", **base)
        rules = self.matching(tool, version)
        if not rules:
            return PolicyDecision(outcome="queue", reason=f"no rule of {self.doc.policy} v{self.doc.version} covers {tool} {version}",
                                  **base)
        results = []
        for pr in rules:
            res = self._compiled[pr.name].evaluate(copy.deepcopy(dict(args)), claim_set.verdicts)
            results.append(res)
            if res.approved:
                return PolicyDecision(outcome="auto_approve", rule=pr.name, reason=res.reason, results=results, **base)
        last = results[-1]
        return PolicyDecision(outcome="queue", rule=rules[-1].name, reason=last.reason, results=results, **base)


__all__ = ["Band", "Fact", "PolicyDecision", "PolicyDoc", "PolicyError", "ReviewPolicy", "Rule", "RuleResult"]
