"""A copy-only constrained decoder: a generative model may only copy a span of the evidence.

The candidates are the evidence's sentences and windows (spans.windows); the decoder walks a
token trie of them, masking every token that would leave the trie, so whatever the weights say
the output is one candidate: a verbatim slice of the record. The model only chooses *which*
slice; it cannot write a word of its own. On GPU the same constraint is vLLM's structured
outputs `choice=` (backends/vllm_judge.py); this module is the transformers form, which runs on
CPU and lets the guarantee be tested with any model, even a randomly initialised one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from warrant.runtime.verify.spans import windows


@dataclass(frozen=True)
class Copied:
    start: int  # character offsets into the evidence text
    end: int
    text: str
    score: float  # the model's summed log-probability of the copied tokens


class _Trie:
    __slots__ = ("children", "ends")

    def __init__(self) -> None:
        self.children: dict[int, _Trie] = {}
        self.ends: list[int] = []  # indexes of candidates that end here


def _build_trie(token_lists: Sequence[Sequence[int]]) -> _Trie:
    root = _Trie()
    for i, toks in enumerate(token_lists):
        node = root
        for t in toks:
            node = node.children.setdefault(t, _Trie())
        node.ends.append(i)
    return root


class CopyOnlyDecoder:
    """Greedy decoding over a causal LM, restricted to the evidence's candidate spans."""

    def __init__(self, model: Any, tokenizer: Any, *, max_words: int = 60):
        self.model, self.tokenizer, self.max_words = model, tokenizer, max_words

    def prompt(self, evidence: str, claim: str) -> str:
        return f"Evidence:\n{evidence}\n\nClaim: {claim}\nCopy the evidence sentence that supports the claim:\n"

    def extract(self, evidence: str, claim: str) -> Copied:
        import torch

        spans = windows(evidence, self.max_words)
        if not spans:
            raise ValueError("the evidence has no text to copy from")
        tok = self.tokenizer
        cand_tokens = [tok(evidence[a:b], add_special_tokens=False)["input_ids"] for a, b in spans]
        trie = _build_trie(cand_tokens)
        ids = torch.tensor([tok(self.prompt(evidence, claim))["input_ids"]])
        node, total, past = trie, 0.0, None
        with torch.inference_mode():
            while node.children:
                out = self.model(input_ids=ids if past is None else ids[:, -1:], past_key_values=past, use_cache=True)
                past = out.past_key_values
                logp = torch.log_softmax(out.logits[0, -1].float(), dim=-1)
                allowed = list(node.children)
                # Stopping is allowed where a candidate ends; it competes with continuing on the
                # model's own EOS probability (or, without one, continuing wins).
                eos = getattr(tok, "eos_token_id", None)
                best = max(allowed, key=lambda t: logp[t].item())
                if node.ends and eos is not None and logp[eos].item() > logp[best].item():
                    break
                total += logp[best].item()
                node = node.children[best]
                ids = torch.cat([ids, torch.tensor([[best]])], dim=1)
        if not node.ends:  # unreachable: the trie's leaves all end a candidate
            raise AssertionError("copy decoder left the candidate trie")
        a, b = spans[node.ends[0]]
        return Copied(a, b, evidence[a:b], total)
