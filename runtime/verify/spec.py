"""Typed predicates as data: the schema of a pack's YAML file, validated with Pydantic.

A predicate declares its arguments, the slots it reads from the cited records (where each is found:
the document scope, the row, the labels and their synonyms, JSON path patterns), derived values
(formulas over slots and arguments, see formula.py) and how the claim's values compare. Errors
name the file, the predicate and the field (`predicates[3].slots.price.kind: ...`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from warrant.runtime.verify.formula import Formula, FormulaError

ArgType = Literal["id", "text", "amount", "number", "integer", "date", "bool", "currency"]
SlotKind = Literal["amount", "number", "date", "days", "business_days", "eom_days", "percent", "text", "name", "id", "bool", "flag"]
Compare = Literal["exact", "cents", "tolerance", "date", "name", "id", "bool", "currency"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ArgSpec(_Model):
    type: ArgType
    optional: bool = False
    description: str = ""


class ScopeSpec(_Model):
    """A kind of document (or JSON object) a slot is read from: an invoice, a purchase order."""

    type_words: list[str] = Field(min_length=1)  # title words / JSON keys that say "this is one"
    id_labels: list[str] = []  # field labels that carry the document's own id ("invoice number")
    cites: list[str] = []  # kinds whose ids a document of this kind quotes (an invoice quotes its PO): an object holding both is this kind


class RowSpec(_Model):
    arg: str  # the argument holding the row key (a line number, an item code)
    labels: list[str] = Field(min_length=1)  # column / field labels of the row key


class TierSpec(_Model):
    arg: str  # the quantity (an argument, or a slot declared before this one) that picks the volume tier


class QuoteSpec(_Model):
    """Documents of other kinds that quote a value of the slot's document under their own labels:
    a goods receipt's "Qty ordered" column states the purchase order's ordered quantity."""

    scopes: list[str] = Field(min_length=1)  # the kinds of document that quote it
    labels: list[str] = Field(min_length=1)  # the labels it is quoted under (only these: "quantity" alone is the quoting document's own)


class SlotSpec(_Model):
    kind: SlotKind
    scope: str | None = None  # a scope name; None: any cited record
    id_arg: str | None = None  # the argument naming the scope's document; None: every document of that kind
    labels: list[str] = []  # labels of the value in tables, "Key: value" lines and JSON keys, best first
    prose_labels: list[str] | None = None  # words before the value in a sentence (default: labels)
    labels_by_arg: dict[str, dict[str, list[str]]] = {}  # {"role": {"buyer": [...], "supplier": [...]}}
    exclude: list[str] = []  # a label containing one of these words is another slot ("subtotal" for "total")
    paths: list[str] = []  # JSON path patterns ("$..lines[*].unit_price"), checked before labels
    row: RowSpec | None = None
    tier: TierSpec | None = None
    context: list[str] = []  # word stems the sentence, its heading or the previous sentence must hold ("a|b": either)
    # phrases (word runs) that disqualify a sentence ("week" for a daily credit), or for a name slot
    # also a field's value ("Remit to: Harrowgate Commercial Bank" names no vendor)
    avoid: list[str] = []
    # labels of the lines this value comes before (a subtotal precedes the discount and freight): a
    # field after the first such line is past the slot when a field before it also answers
    before: list[str] = []
    per: str | None = None  # rate unit of a money value in prose ("hour", "day")
    frame: Literal["limit", "value"] | None = None  # prose only: a stated threshold, or an actual value
    prose: bool = True  # may the value be read from a sentence
    letterhead: bool = False  # name only: the first line of the document may name it (supports, never contradicts)
    letterhead_of: list[str] = []  # scopes whose documents' first line IS this name (an invoice's issuer): read only there, and it may contradict
    each: bool = False  # one value per matching scope (a list), for counts across documents
    pick: Literal["only", "lowest", "highest"] = "only"  # several different values: ambiguous, or the lowest/highest
    optional: bool = False
    # where no cited record is the slot's document, a cited one of these kinds that names it in an
    # identifier field ("Purchase order: 4500017321") may quote the value in a table or a field
    quoted_in: QuoteSpec | None = None

    @model_validator(mode="after")
    def _labelled(self) -> "SlotSpec":
        if not (self.labels or self.labels_by_arg or self.paths or self.context or self.letterhead):
            raise ValueError("a slot needs labels, labels_by_arg, paths, context or letterhead to be found by")
        if self.kind == "flag" and not self.context:
            raise ValueError("a flag slot needs `context`: the word stems of the sentence that states it")
        return self


class ClaimCheck(_Model):
    """One comparison the proposition makes: an argument against a slot or derived value, or an
    expression that must hold (`assert`)."""

    arg: str | None = None
    equals: list[str] = []  # formulas, first computable wins
    compare: Compare = "exact"
    tolerance: str = "0"
    optional: bool = False  # skipped when the argument is null or the value is not found
    assert_: str | None = Field(default=None, alias="assert")

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    @field_validator("equals", mode="before")
    @classmethod
    def _listify(cls, v: Any) -> Any:
        return [v] if isinstance(v, str) else v

    @model_validator(mode="after")
    def _one_form(self) -> "ClaimCheck":
        if (self.assert_ is None) == (self.arg is None):
            raise ValueError("give either `arg` with `equals`, or `assert`")
        if self.arg is not None and not self.equals:
            raise ValueError("`equals` is required with `arg`")
        return self


class Requirement(_Model):
    expr: str
    message: str


class PredicateSpec(_Model):
    name: str = Field(pattern=r"^[a-z][a-z0-9_]{0,63}$")
    description: str
    template: str
    needed: str
    args: dict[str, ArgSpec]
    slots: dict[str, SlotSpec] = {}
    derive: dict[str, str] = {}
    requires: list[Requirement] = []
    claim: list[ClaimCheck] = Field(min_length=1)

    @model_validator(mode="after")
    def _names_resolve(self) -> "PredicateSpec":
        args, slots = set(self.args), set(self.slots)
        if clash := args & slots:
            raise ValueError(f"{', '.join(sorted(clash))}: the same name for an argument and a slot")
        earlier: set[str] = set()
        for name, s in self.slots.items():
            for a in (s.id_arg, s.row.arg if s.row else None, *s.labels_by_arg):
                if a is not None and a not in args:
                    raise ValueError(f"slots.{name}: argument {a!r} is not declared in args")
            if s.tier and s.tier.arg not in args | earlier:
                raise ValueError(f"slots.{name}.tier.arg: {s.tier.arg!r} is neither an argument nor a slot declared before it")
            earlier.add(name)
        known = args | slots
        for name, src in self.derive.items():
            _formula(src, known, f"derive.{name}")
            known = known | {name}
        for i, r in enumerate(self.requires):
            _formula(r.expr, known, f"requires[{i}].expr")
        for i, c in enumerate(self.claim):
            if c.arg is not None and c.arg not in args:
                raise ValueError(f"claim[{i}].arg: {c.arg!r} is not declared in args")
            for j, src in enumerate(c.equals):
                _formula(src, known, f"claim[{i}].equals[{j}]")
            if c.assert_ is not None:
                _formula(c.assert_, known, f"claim[{i}].assert")
        return self


def _formula(src: str, names: set[str], where: str) -> Formula:
    try:
        return Formula(src, names)
    except FormulaError as exc:
        raise ValueError(f"{where}: {exc}") from None


class PackSpec(_Model):
    pack: str = Field(pattern=r"^[a-z][a-z0-9_]{0,63}$")
    description: str
    scopes: dict[str, ScopeSpec] = {}
    predicates: list[PredicateSpec]

    @model_validator(mode="after")
    def _scopes_resolve(self) -> "PackSpec":
        for name, sc in self.scopes.items():
            for j, c in enumerate(sc.cites):
                if c not in self.scopes:
                    raise ValueError(f"scopes.{name}.cites[{j}]: unknown scope {c!r}; known: {', '.join(sorted(self.scopes))}")
        seen: set[str] = set()
        for i, p in enumerate(self.predicates):
            if p.name in seen:
                raise ValueError(f"predicates[{i}].name: {p.name!r} is defined twice")
            seen.add(p.name)
            for sname, s in p.slots.items():
                if s.scope is not None and s.scope not in self.scopes:
                    raise ValueError(f"predicates[{i}].slots.{sname}.scope: unknown scope {s.scope!r}; known: {', '.join(sorted(self.scopes))}")
                named = [(f"letterhead_of[{j}]", lo) for j, lo in enumerate(s.letterhead_of)]
                named += [(f"quoted_in.scopes[{j}]", q) for j, q in enumerate(s.quoted_in.scopes if s.quoted_in else [])]
                for where, lo in named:
                    if lo not in self.scopes:
                        raise ValueError(f"predicates[{i}].slots.{sname}.{where}: unknown scope {lo!r}; known: {', '.join(sorted(self.scopes))}")
                if s.quoted_in and not (s.scope and s.id_arg):
                    raise ValueError(f"predicates[{i}].slots.{sname}.quoted_in: needs the slot's scope and id_arg (the document it quotes)")
        return self


class PackSpecError(ValueError):
    """A pack file that does not follow the schema: the message names the file and the field."""


def load_pack_spec(path: str | Path) -> PackSpec:
    path = Path(path)
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise PackSpecError(f"{path}: cannot read: {exc}") from None
    return parse_pack_spec(raw, str(path))


def parse_pack_spec(raw: Any, where: str = "<pack>") -> PackSpec:
    try:
        return PackSpec.model_validate(raw)
    except ValidationError as exc:
        lines = []
        for e in exc.errors():
            loc = ".".join(f"[{p}]" if isinstance(p, int) else str(p) for p in e["loc"]).replace(".[", "[")
            lines.append(f"{loc or '(top)'}: {e['msg']}")
        raise PackSpecError(f"{where}: " + "; ".join(lines)) from None


def json_schema() -> dict[str, Any]:
    """The JSON Schema of a pack file (for editors and third-party packs)."""
    return PackSpec.model_json_schema(by_alias=True)
