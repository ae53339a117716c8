"""A predicate: what one kind of proposition means and how it is checked.

Each has an argument schema (the arguments that make it checkable: without them a proposition is
Unverifiable, never guessed), a sentence template that turns it into a hypothesis the NLI model
reads, and optionally a deterministic evaluator over the structured records it cites.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Literal

from jsonschema import Draft202012Validator

from warrant.ledger import EvidenceRecord


@dataclass(frozen=True)
class Decision:
    """An evaluator's answer, with the exact bytes that decided it."""

    status: Literal["supported", "contradicted"]
    ledger_id: str
    start: int
    end: int
    reason: str


Evaluator = Callable[[dict[str, Any], list[EvidenceRecord]], "Decision | None"]


@dataclass(frozen=True)
class Predicate:
    name: str
    description: str
    args_schema: dict[str, Any]
    template: str  # str.format over the args; "{text}" for free statements
    evaluate: Evaluator | None = None
    # Evaluated only: its meaning is a computation (a comparison of two records), not a sentence.
    model_checkable: bool = True
    needed: str = "a ledger record that states it"  # for Unsupported.missing_evidence
    _validator: Draft202012Validator = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        Draft202012Validator.check_schema(self.args_schema)
        object.__setattr__(self, "_validator", Draft202012Validator(self.args_schema))

    def problems(self, args: dict[str, Any]) -> tuple[list[str], list[str]]:
        """(missing required args, other problems) for these args."""
        missing, other = [], []
        for e in self._validator.iter_errors(args):
            if e.validator == "required":
                missing += [r for r in e.validator_value if r not in args]
            else:
                where = "/".join(map(str, e.absolute_path)) or "args"
                other.append(f"{where}: {e.message}")
        return list(dict.fromkeys(missing)), other  # jsonschema reports each missing key separately

    def hypothesis(self, args: dict[str, Any]) -> str:
        return self.template.format_map(_Blank(args))


class _Blank(dict):
    def __missing__(self, key: str) -> str:
        return ""

    def __getitem__(self, key: str) -> object:
        value = super().__getitem__(key) if key in self else self.__missing__(key)
        return "" if value is None else value  # an optional argument sent as null
