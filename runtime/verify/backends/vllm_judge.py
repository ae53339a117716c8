"""A generative checker on vLLM (GPU; extra `[gpu]`): Yes/No judge and copy-only extraction.

Judge: Bespoke-MiniCheck style. The prompt shows the evidence chunk and the claim; one token is
generated and P(Yes) vs P(No) is read from its logprobs (max_tokens=1), so the model never
writes free text. With prefix caching, chunks shared by many claims are encoded once.
Copy-only: `StructuredOutputsParams(choice=[...])` restricts the output to one of the evidence's
sentences/windows, verbatim (the `guided_*` fields were removed in vLLM 0.12).
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

from warrant.runtime.verify.backends.base import ModelMissingError, NLIBackend
from warrant.runtime.verify.spans import windows

JUDGE_PROMPT = "Document: {premise}\nClaim: {hypothesis}\nIs the claim supported by the document? Answer Yes or No.\nAnswer:"


class VllmJudge(NLIBackend):
    def __init__(self, model: str, *, max_length: int = 2048, gpu_memory_utilization: float = 0.85, **llm_kw):
        try:
            from vllm import LLM, SamplingParams
        except ImportError:
            raise ModelMissingError("the vLLM backend needs the [gpu] extra (pip install 'warrant-runtime[gpu]') on a CUDA machine") from None
        self._llm = LLM(model=model, max_model_len=max_length, gpu_memory_utilization=gpu_memory_utilization, enable_prefix_caching=True, **llm_kw)
        self._tok = self._llm.get_tokenizer()
        self._yes = self._token_ids(["Yes", " Yes", "yes", " yes"])
        self._no = self._token_ids(["No", " No", "no", " no"])
        self._params = SamplingParams(max_tokens=1, temperature=0.0, logprobs=20)
        self.name, self.max_length = f"vllm:{model}", max_length

    def _token_ids(self, words: list[str]) -> set[int]:
        out = set()
        for w in words:
            ids = self._tok.encode(w, add_special_tokens=False)
            if len(ids) == 1:
                out.add(ids[0])
        return out

    def score(self, pairs: Sequence[tuple[str, str]]) -> np.ndarray:
        """(n, 3): P(entailment) = P(Yes) / (P(Yes) + P(No)); the rest is neutral. A Yes/No judge
        does not separate contradiction from silence; the rules step catches the contradictions
        that matter most (numbers, dates, negation)."""
        prompts = [JUDGE_PROMPT.format(premise=p, hypothesis=h) for p, h in pairs]
        out = np.zeros((len(pairs), 3), dtype=np.float32)
        for i, res in enumerate(self._llm.generate(prompts, self._params, use_tqdm=False)):
            top = res.outputs[0].logprobs[0] if res.outputs and res.outputs[0].logprobs else {}
            p_yes = sum(math.exp(lp.logprob) for t, lp in top.items() if t in self._yes)
            p_no = sum(math.exp(lp.logprob) for t, lp in top.items() if t in self._no)
            z = p_yes + p_no
            out[i, 0] = p_yes / z if z > 0 else 0.0
            out[i, 1] = 1.0 - out[i, 0]
        return out

    def copy_extract(self, evidence: str, claim: str, max_words: int = 60) -> tuple[int, int, str]:
        """The evidence window the model picks as support, constrained to be verbatim."""
        from vllm import SamplingParams
        from vllm.sampling_params import StructuredOutputsParams

        spans = windows(evidence, max_words)
        choices = [evidence[a:b] for a, b in spans]
        params = SamplingParams(max_tokens=max(len(self._tok.encode(c)) for c in choices) + 1, temperature=0.0,
                                structured_outputs=StructuredOutputsParams(choice=choices))
        prompt = f"Evidence:\n{evidence}\n\nClaim: {claim}\nCopy the evidence sentence that supports the claim:\n"
        text = self._llm.generate([prompt], params, use_tqdm=False)[0].outputs[0].text
        i = choices.index(text)  # the constraint guarantees membership; a ValueError here is a vLLM bug
        return spans[i][0], spans[i][1], text


def load(target: str, *, device: str = "cpu", **kw) -> VllmJudge:
    """The `warrant.backends` factory for "vllm:DIR_OR_NAME" (vLLM places the model on its GPUs;
    `device` is accepted for the common factory signature)."""
    return VllmJudge(target, **kw)
