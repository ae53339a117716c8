"""Typed propositions, checked by locating and comparing, never by entailment.

A `TypedPredicate` is a `Predicate` compiled from a pack's YAML (spec.py). `check()` reads each
slot from the evidence views of the cited records only (locate.py), computes the derived values
(formula.py), then compares the claim's values: equal -> supported, a different value in the same
slot -> contradicted, the slot not in the cited records -> unsupported, naming what is missing,
even when another record of the run holds it. A supported decision lists the byte span of every
value it used.
"""

from __future__ import annotations

import datetime as dt
import itertools
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Literal

from warrant.runtime.verify.formula import UNSETTLED, Formula, FormulaError, Missing
from warrant.runtime.verify.locate import CURRENCY_KEY, Found, Name, currency_of, key_of, locate, resolve_dates
from warrant.runtime.verify.predicates.base import Predicate
from warrant.runtime.verify.spec import ArgSpec, PredicateSpec, ScopeSpec
from warrant.runtime.verify.view import EvidenceView

_JSON_TYPE = {
    "id": {"type": "string", "minLength": 1, "maxLength": 128},
    "text": {"type": "string", "minLength": 1, "maxLength": 500},
    "amount": {"type": "number"},
    "number": {"type": "number"},
    "integer": {"type": "integer"},
    "date": {"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}$"},
    "bool": {"type": "boolean"},
    "currency": {"type": "string", "pattern": "^[A-Z]{3}$"},
}


def args_schema(args: dict[str, ArgSpec]) -> dict[str, Any]:
    props = {}
    for name, a in args.items():
        t = dict(_JSON_TYPE[a.type])
        if a.optional:
            t = {"anyOf": [t, {"type": "null"}]}
        props[name] = t
    return {
        "type": "object",
        "properties": props,
        "required": [n for n, a in args.items() if not a.optional],
        "additionalProperties": False,
    }


@dataclass(frozen=True)
class UsedValue:
    slot: str
    ledger_id: str
    start: int
    end: int
    text: str


@dataclass(frozen=True)
class TypedDecision:
    status: Literal["supported", "contradicted", "unsupported"]
    reason: str
    used: list[UsedValue] = field(default_factory=list)  # every value read, with its bytes
    missing: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class TypedPredicate(Predicate):
    spec: PredicateSpec | None = None
    scopes: dict[str, ScopeSpec] = field(default_factory=dict)
    pack: str = ""

    @classmethod
    def compile(cls, spec: PredicateSpec, scopes: dict[str, ScopeSpec], pack: str) -> "TypedPredicate":
        return cls(
            name=spec.name, description=spec.description, args_schema=args_schema(spec.args), template=spec.template,
            model_checkable=False, needed=spec.needed, spec=spec, scopes=scopes, pack=pack,
        )

    def check(self, args: dict[str, Any], views: list[EvidenceView]) -> TypedDecision:
        return check(self.spec, self.scopes, args, views)


def _describe(spec: PredicateSpec, slot: str, args: dict[str, Any]) -> str:
    s = spec.slots[slot]
    what = (s.labels or [slot])[0] if not s.labels_by_arg else slot.replace("_", " ")
    parts = [what]
    if s.row and args.get(s.row.arg) is not None:
        parts.append(f"of line {args[s.row.arg]}")
    if s.scope:
        parts.append(f"on {s.scope}{' ' + str(args[s.id_arg]) if s.id_arg and args.get(s.id_arg) is not None else ''}")
    return " ".join(parts)


def check(spec: PredicateSpec, scopes: dict[str, ScopeSpec], args: dict[str, Any], views: list[EvidenceView]) -> TypedDecision:
    args = {k: v for k, v in args.items() if v is not None}
    env_base: dict[str, Any] = {k: _arg_value(spec.args[k].type, v) for k, v in args.items() if k in spec.args}
    by_id = {v.record_id: v for v in views}
    found: dict[str, list[Found]] = {}
    missing: list[str] = []
    ambiguous: list[str] = []
    unsettled: list[str] = []  # slots found with two different values: no formula may use or skip them
    known = dict(args)  # arguments, then each slot's value as it is found (a tier picked by a billed quantity)
    for name, slot in spec.slots.items():
        loc = locate(slot, known, views, scopes, _describe(spec, name, args))
        if loc.found:
            found[name] = loc.found
            if not slot.each:
                known[name] = loc.found[0].value
            if slot.kind == "amount" and CURRENCY_KEY not in known and (cur := currency_of(loc.found[0])):
                known[CURRENCY_KEY] = cur
        elif loc.ambiguous:
            ambiguous.append(loc.problem or name)
            unsettled.append(name)
        elif not slot.optional:
            missing.append(loc.problem or name)
    unreadable = [f"{v.record_id}: {v.problem}" for v in views if v.problem]

    # each numeric date that can be read two ways doubles the worlds the claim is checked in
    choices = []
    for name, fs in found.items():
        if spec.slots[name].each:
            choices.append([(name, [f.value for f in fs])])
        else:
            f = fs[0]
            choices.append([(name, r) for r in resolve_dates(f, by_id[f.record_id])])
    outcomes = []
    for combo in itertools.product(*choices) if choices else [()]:
        env = dict(env_base)
        for name in spec.slots:
            env.setdefault(name, UNSETTLED if name in unsettled else None)
        env.update(dict(combo))
        for name, fs in found.items():
            env[f"__unit__{name}"] = fs[0].unit or (fs[0].value if isinstance(fs[0].value, str) else None)
        outcomes.append(_evaluate(spec, env, args))
    verdicts = {o[0] for o in outcomes}
    status, reason = outcomes[0]
    if len(verdicts) > 1:
        status, reason = "unsupported", "a numeric date in the evidence reads two ways (day/month) and the readings disagree"
    used = [UsedValue(n, f.record_id, f.start, f.end, f.text) for n, fs in found.items() for f in fs]
    weak = [n for n, fs in found.items() if any(f.weak for f in fs)]
    if status == "contradicted" and weak:
        status, reason = "unsupported", reason + f" (but {', '.join(weak)} was read from a letterhead, not a labelled field)"
    if status == "unsupported" and (reason == "" or reason.startswith("needs ")):
        why = missing + ambiguous + ([f"unreadable cited record(s): {'; '.join(unreadable)}"] if unreadable else [])
        reason = "the cited records do not hold: " + " | ".join(why or [reason])
    return TypedDecision(status, reason, used, missing + ambiguous)


def _evaluate(spec: PredicateSpec, env: dict[str, Any], args: dict[str, Any]) -> tuple[str, str]:
    """("supported" | "contradicted" | "unsupported", reason) in one reading of the evidence."""
    for name, src in spec.derive.items():
        try:
            env[name] = Formula(src).evaluate(env)
        except Missing:
            env[name] = None
        except FormulaError as exc:
            return "unsupported", f"{name} = {src} cannot be computed: {exc}"
    for r in spec.requires:
        try:
            ok = Formula(r.expr).evaluate(env)
        except FormulaError:
            return "unsupported", ""
        if ok is not True:
            return "unsupported", r.message
    contradictions, agreements, undecided = [], [], []
    for c in spec.claim:
        if c.assert_ is not None:
            try:
                ok = Formula(c.assert_).evaluate(env)
            except Missing:
                undecided.append(c.assert_)
                continue
            except FormulaError as exc:
                return "unsupported", f"{c.assert_}: {exc}"
            (agreements if ok is True else contradictions).append(f"{c.assert_} is {'true' if ok is True else 'false'}{_values(c.assert_, env)}")
            continue
        claimed = env.get(c.arg)
        if claimed is None:
            if c.optional:
                continue
            undecided.append(c.arg)
            continue
        actual, src, problem, lacking = None, None, None, []
        for src in c.equals:
            try:
                actual = _unit(env, src) if c.compare == "currency" else Formula(src).evaluate(env)
                problem = None
                break
            except Missing as exc:
                lacking.append(exc.name)
                continue
            except FormulaError as exc:
                problem = str(exc)
                break
        if problem:
            return "unsupported", f"{c.arg}: {problem}"
        if actual is None:
            if not c.optional:
                undecided.append(f"what {c.arg} is computed from ({', '.join(dict.fromkeys(lacking))})")
            continue
        same = _same(c.compare, claimed, actual, Decimal(c.tolerance))
        if same is None:
            undecided.append(f"{c.arg} ({c.compare} of {claimed!r} and {actual!r} cannot be compared)")
        elif same:
            agreements.append(f"{c.arg} {_show(claimed)} = {src}{_values(src, env)}")
        else:
            contradictions.append(f"{c.arg} is {_show(actual)} ({src}{_values(src, env)}), not {_show(claimed)}")
    if contradictions:
        return "contradicted", "; ".join(contradictions)
    if undecided:
        return "unsupported", "needs " + "; ".join(undecided)
    return "supported", "; ".join(agreements)


def _unit(env: dict[str, Any], slot: str) -> Any:
    v = env.get(f"__unit__{slot}")
    if v is None:
        raise Missing(slot)
    return v


def _values(src: str, env: dict[str, Any]) -> str:
    try:
        names = Formula(src).names
    except FormulaError:
        return ""
    shown = [f"{n}={_show(env[n])}" for n in sorted(names) if n in env and env[n] is not None and str(_show(env[n])) != src]
    return f" with {', '.join(shown)}" if shown and not (len(names) == 1 and src in names) else ""


def _show(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, list):
        return "[" + ", ".join(map(_show, v)) + "]"
    return str(v)


def _same(how: str, claimed: Any, actual: Any, tol: Decimal) -> bool | None:
    try:
        if how == "bool":
            return bool(claimed) == actual if isinstance(actual, bool) else None
        if how == "name":
            # a short form of at least two words names the same party ("Halvorsen Glass" for "Halvorsen Glass & Closure Co.")
            c, a = Name(str(claimed)).key().split(), Name(str(actual)).key().split()
            if c == a or (len(c) >= 2 and a[: len(c)] == c):
                return True
            return None if c and a[: len(c)] == c else False  # one word ("Halvorsen") neither names nor contradicts the party
        if how in ("id", "currency"):
            return key_of(claimed) == key_of(actual)
        if how == "date":
            return claimed == actual
        a, b = Decimal(claimed), Decimal(actual)
        if how == "cents":
            q = Decimal("0.01")
            return a.quantize(q, ROUND_HALF_UP) == b.quantize(q, ROUND_HALF_UP)
        if how == "tolerance":
            return abs(a - b) <= tol
        return a == b
    except (TypeError, ValueError, ArithmeticError):
        return None


def _arg_value(kind: str, v: Any) -> Any:
    if kind == "date" and isinstance(v, str):
        try:
            return dt.date.fromisoformat(v)
        except ValueError:
            return None
    if kind in ("amount", "number", "integer") and isinstance(v, (int, float)) and not isinstance(v, bool):
        return Decimal(str(v))
    if kind == "currency" and isinstance(v, str):
        return v
    return v
