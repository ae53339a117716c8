"""`warrant eval validate`: re-derive every figure a gold set states, and fail on any disagreement.

What is checked, file by file:

- tool_outputs.yaml: every call's args and output are valid against the tool's schemas; every
  number, ISO date and identifier of an output appears in the document it names as `source`
  (what a run fetches says what the documents say);
- claims.yaml: every derivation (derive.py) re-computes its figure from the tool outputs and
  agrees with the claim exactly when the claim is expected supported; every figure of a
  supported claim that is not derived is stated in the evidence it names; a statement's
  figures occur in its text; a quote is a verbatim copy of its document exactly when it is
  expected supported;
- abstentions.yaml: no sentence of any document and no tool output holds all the `absent`
  terms (the documents really do not answer it), and the tempting answer is no expected claim;
- side_effects.yaml: keys and args are valid tool arguments, and every `because` holds.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Iterator

from warrant.runtime.evals.derive import DeriveError, as_value, evaluate, same
from warrant.runtime.evals.goldset import QUOTE, STATEMENT, ExpectedClaim, GoldSet
from warrant.runtime.registry import document_violations, make_validator
from warrant.runtime.verify.rules import extract_quantities
from warrant.runtime.verify.spans import sentence_spans

_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_HAS_DIGIT = re.compile(r"\d")


@dataclass(frozen=True)
class Check:
    file: str
    item: str
    what: str  # derived | stated | source | quote | figures | absent | schema | because
    ok: bool
    message: str

    def __str__(self) -> str:
        return f"{self.file} {self.item} [{self.what}]: {self.message}"


@dataclass
class ValidationReport:
    gold: str
    hash: str
    checks: list[Check] = field(default_factory=list)

    @property
    def failures(self) -> list[Check]:
        return [c for c in self.checks if not c.ok]

    @property
    def ok(self) -> bool:
        return not self.failures

    def count(self, what: str) -> int:
        return sum(1 for c in self.checks if c.what == what)


def validate(gold: GoldSet) -> ValidationReport:
    rep = ValidationReport(gold.name, gold.hash)
    outputs = {o.id: o.output for o in gold.tool_outputs if o.output is not None}
    records = _record_texts(gold)
    _tool_outputs(gold, rep)
    for c in gold.claims:
        _claim(gold, c, outputs, records, rep)
    _abstentions(gold, records, rep)
    _side_effects(gold, outputs, rep)
    return rep


# -- tool outputs ----------------------------------------------------------------------------------


def _spec(gold: GoldSet, tool: str) -> dict[str, Any] | None:
    found = [s for s in gold.tool_specs if s.get("name") == tool]
    return max(found, key=lambda s: [int(p) for p in str(s.get("version", "0")).split(".")]) if found else None


def _tool_outputs(gold: GoldSet, rep: ValidationReport) -> None:
    for o in gold.tool_outputs:
        spec = _spec(gold, o.tool) or {}
        item = o.id
        if o.args is not None:
            bad = document_violations(make_validator(spec.get("input_schema", {})), o.args, "args")
            rep.checks.append(Check("tool_outputs.yaml", item, "schema", not bad,
                                    "args valid for " + o.tool if not bad else "; ".join(f"{v.loc}: {v.message}" for v in bad)))
        if o.output is not None and not o.any_args:
            bad = document_violations(make_validator(spec.get("output_schema", {})), o.output, "output")
            rep.checks.append(Check("tool_outputs.yaml", item, "schema", not bad,
                                    "output valid for " + o.tool if not bad else "; ".join(f"{v.loc}: {v.message}" for v in bad)))
        if o.output is None or o.any_args:
            continue
        if o.source is None:
            rep.checks.append(Check("tool_outputs.yaml", item, "source", True,
                                    "no source document: its figures are replayed as given, not re-derived"))
            continue
        text = gold.documents[o.source].decode("utf-8", errors="replace")
        facts = _facts(text)
        missing = [f"{path}={value!r}" for path, value in _leaves(o.output, set(o.unchecked)) if not _stated(value, facts, text)]
        n = sum(1 for _ in _leaves(o.output, set(o.unchecked)))
        rep.checks.append(Check(
            "tool_outputs.yaml", item, "source", not missing,
            f"{n} figure(s) found in {o.source}" if not missing else f"not stated in {o.source}: {', '.join(missing)}",
        ))


def _leaves(doc: Any, skip: set[str], path: str = "$") -> Iterator[tuple[str, Any]]:
    """Numbers, ISO dates and identifiers of a JSON document (what a document must state)."""
    if isinstance(doc, dict):
        for k, v in doc.items():
            if k not in skip:
                yield from _leaves(v, skip, f"{path}.{k}")
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from _leaves(v, skip, f"{path}[{i}]")
    elif isinstance(doc, bool) or doc is None:
        return
    elif isinstance(doc, (int, float)) or (isinstance(doc, str) and _HAS_DIGIT.search(doc)):
        yield path, doc


def _facts(text: str) -> set[Any]:
    return {q.value for q in extract_quantities(text)}


def _stated(value: Any, facts: set[Any], text: str) -> bool:
    if isinstance(value, bool):
        return True
    if isinstance(value, (int, float, Decimal)):
        return Decimal(str(value)) in {f for f in facts if isinstance(f, Decimal)}
    if isinstance(value, str) and _ISO_DATE.match(value):
        return any(same(f, value) for f in facts if not isinstance(f, Decimal))
    return isinstance(value, str) and value in text


def _record_texts(gold: GoldSet) -> dict[str, str]:
    """Every record a run may read, as text: documents by file name, tool outputs by id."""
    out = {name: data.decode("utf-8", errors="replace") for name, data in gold.documents.items()}
    for o in gold.tool_outputs:
        if o.output is not None and not o.any_args:
            out[o.id] = json.dumps(o.output, ensure_ascii=False)
    return out


# -- claims ----------------------------------------------------------------------------------------


def _claim(gold: GoldSet, c: ExpectedClaim, outputs: dict[str, Any], records: dict[str, str], rep: ValidationReport) -> None:
    file = "claims.yaml"
    if c.pred == QUOTE:
        verbatim = c.args["text"].encode("utf-8") in gold.documents[c.args["document"]]
        ok = verbatim == (c.expect == "supported")
        rep.checks.append(Check(file, c.id, "quote", ok, (
            f"{'a verbatim' if verbatim else 'not a verbatim'} copy of {c.args['document']}, expected {c.expect}")))
    if c.pred == STATEMENT and c.figures:
        facts = _facts(c.args["text"])
        absent = [f"{k}={v!r}" for k, v in c.figures.items() if not _stated(v, facts, c.args["text"])]
        rep.checks.append(Check(file, c.id, "figures", not absent,
                                "figures occur in the text" if not absent else f"figures not in the text: {', '.join(absent)}"))
    if c.derive:
        _derivations(c, outputs, rep)
    if c.expect == "supported":
        _stated_in_evidence(gold, c, outputs, records, rep)


def _derivations(c: ExpectedClaim, outputs: dict[str, Any], rep: ValidationReport) -> None:
    file = "claims.yaml"
    if c.expect == "unsupported":
        rep.checks.append(Check(file, c.id, "derived", False,
                                "expected unsupported, yet it has derivations: a figure the records determine is settled"))
        return
    names = {**c.args, **c.figures}
    agree: list[tuple[str, bool, Any]] = []
    for name, expr in c.derive.items():
        try:
            value = evaluate(expr, outputs, names)
        except DeriveError as exc:
            rep.checks.append(Check(file, c.id, "derived", False, f"derive.{name}: {exc}"))
            return
        agree.append((name, bool(value) if name == "holds" else same(value, names[name]), value))
    if c.expect == "supported":
        bad = [(n, v) for n, ok, v in agree if not ok]
        msg = (f"re-derived {', '.join(n for n, _, _ in agree)}" if not bad else
               "; ".join(f"derive.{n} gives {_show(v)}, the claim says {_show(names.get(n, True))}" for n, v in bad))
        rep.checks.append(Check(file, c.id, "derived", not bad, msg))
    else:
        wrong = [(n, v) for n, ok, v in agree if not ok]
        msg = ("; ".join(f"derive.{n} gives {_show(v)}, the claim says {_show(names.get(n, True))}" for n, v in wrong) if wrong
               else f"every derivation agrees with the claim, yet it is expected {c.expect}")
        rep.checks.append(Check(file, c.id, "derived", bool(wrong), msg))


def _show(v: Any) -> str:
    if isinstance(v, dt.date):
        return v.isoformat()
    return str(v) if isinstance(v, (Decimal, bool)) else repr(v)


def _stated_in_evidence(gold: GoldSet, c: ExpectedClaim, outputs: dict[str, Any], records: dict[str, str], rep: ValidationReport) -> None:
    """A supported claim's figures (not derived) are stated by a record it names as evidence."""
    texts = [records[e.document] if e.document else records.get(e.tool_output or "", "") for e in c.evidence]
    values: list[tuple[str, Any]] = []
    for k, v in {**c.args, **c.figures}.items():
        if k in c.derive or k in ("text", "document") or isinstance(v, bool):
            continue
        if isinstance(v, (int, float)) or (isinstance(v, str) and _HAS_DIGIT.search(v)):
            values.append((k, v))
    facts: set[Any] = set()
    for e in c.evidence:
        if e.document:
            facts |= _facts(records[e.document])
        elif e.tool_output in outputs:
            facts |= {as_value(v) for _, v in _leaves(outputs[e.tool_output], set())}
    joined = "\n".join(texts)
    missing = [f"{k}={v!r}" for k, v in values if not (_stated(v, facts, joined) or as_value(v) in facts)]
    rep.checks.append(Check("claims.yaml", c.id, "stated", not missing,
                            f"{len(values)} value(s) stated in its evidence" if not missing
                            else f"not stated in its evidence: {', '.join(missing)}"))


# -- abstentions and side effects ------------------------------------------------------------------


def _abstentions(gold: GoldSet, records: dict[str, str], rep: ValidationReport) -> None:
    supported = {(c.pred, _key(c.args)) for c in gold.claims if c.expect == "supported"}
    for a in gold.abstentions:
        terms = [t.lower() for t in a.absent]
        hit = next(((name, text[x:y]) for name, text in records.items() for x, y in sentence_spans(text)
                    if all(t in text[x:y].lower() for t in terms)), None)
        rep.checks.append(Check("abstentions.yaml", a.id, "absent", hit is None,
                                f"no record holds {a.absent}" if hit is None else f"answered by {hit[0]}: {hit[1][:160]!r}"))
        clash = (a.tempting.pred, _key(a.tempting.args)) in supported
        rep.checks.append(Check("abstentions.yaml", a.id, "tempting", not clash,
                                "the tempting answer is no expected claim" if not clash
                                else "the tempting answer is an expected supported claim"))


def _key(args: dict[str, Any]) -> str:
    return json.dumps({k: str(as_value(v)) for k, v in sorted(args.items())})


def _side_effects(gold: GoldSet, outputs: dict[str, Any], rep: ValidationReport) -> None:
    for s in gold.side_effects:
        spec = _spec(gold, s.tool) or {}
        schema = {k: v for k, v in spec.get("input_schema", {}).items() if k != "required"}
        bad = document_violations(make_validator(schema), {**s.key, **s.args}, "args")
        rep.checks.append(Check("side_effects.yaml", s.id, "schema", not bad,
                                f"valid {s.tool} arguments" if not bad else "; ".join(f"{v.loc}: {v.message}" for v in bad)))
        if s.because:
            try:
                holds = bool(evaluate(s.because, outputs, {**s.key, **s.args}))
                msg = "holds" if holds else f"does not hold: {s.because}"
            except DeriveError as exc:
                holds, msg = False, f"because: {exc}"
            rep.checks.append(Check("side_effects.yaml", s.id, "because", holds, msg))


__all__ = ["Check", "ValidationReport", "validate"]
