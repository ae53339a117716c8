"""Warrant's control plane: contract, schema gate, tool bus, verifier. Plain Python; never imports Ray."""
