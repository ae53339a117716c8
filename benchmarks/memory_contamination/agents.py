"""Deterministic proxy agents, as in the seed (no live model: they measure what the memory system
makes possible, not how a model behaves).

Every agent is asked, fact by fact, whether the fact holds. What each may consult:
  read(f)   a careful reading of the code at HEAD, in context: "confirms" (true facts),
            "contradicts" (CONTRADICT facts and presence traps: read in context, the import is there
            for another function, the dependency is dev-only) or "silent" (SILENT facts). It is
            the benchmark's own ground truth (facts.truth), and it costs the scope's tokens.
  grep(f)   a lazy look: does the fact's token occur anywhere in its scope?
  memory    what load_memory returned for the fact (nothing, or a node with its status and
            anchor results).

  B               no memory: accepts iff read(f) confirms.
  A_code_first    reads the code first: confirms -> accept, contradicts -> reject, silent -> accept
                  iff memory has the fact (the seed's "memory fills the silence").
  A_memory_first  memory first: accepts whatever memory returns; reads the code only for what
                  memory lacks.
  lazy            memory first, and trusts a memory whenever any token of it is present in scope
                  (or its status is VERIFIED); only a memory with no token present, or no memory,
                  sends it to the code.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from facts import Fact

AGENTS = ("B", "A_code_first", "A_memory_first", "lazy")


@dataclass
class Tally:
    false_total: int = 0
    true_total: int = 0
    false_accepted: int = 0
    true_accepted: int = 0
    code_tokens: int = 0
    accepted_false: list[str] = field(default_factory=list)

    def as_dict(self, memory_tokens: int) -> dict:
        return {
            "false_fact_acceptance": round(self.false_accepted / self.false_total, 4) if self.false_total else None,
            "true_fact_acceptance": round(self.true_accepted / self.true_total, 4) if self.true_total else None,
            "false_accepted": self.false_accepted,
            "false_total": self.false_total,
            "true_accepted": self.true_accepted,
            "true_total": self.true_total,
            "context_tokens": memory_tokens,
            "code_tokens": self.code_tokens,
            "accepted_false_examples": self.accepted_false[:5],
        }


def decide(agent: str, fact: Fact, read: str, in_memory: bool, verified: bool, token_present: bool) -> tuple[bool, bool]:
    """(accepts, read the code)."""
    if agent == "B":
        return read == "confirms", True
    if agent == "A_code_first":
        return read == "confirms" or (read == "silent" and in_memory), True
    if agent == "A_memory_first":
        if in_memory:
            return True, False
        return read == "confirms", True
    if agent == "lazy":
        if in_memory and (verified or token_present):
            return True, False
        return read == "confirms", True
    raise ValueError(agent)
