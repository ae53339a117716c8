"""The claim verifier: decomposition, evidence, deterministic rules and entailment backends."""
