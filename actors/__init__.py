"""Ray hosting for runtime/ and ledger/: the ledger's single writer, gate and tool-bus actors, the
autoscaled verifier pool (Serve), batch verification (Ray Data), the runner and the HTTP API.

Nothing is imported here on purpose: `warrant` loads `warrant.actors.cli` at every start, and importing
Ray costs a second. Import the module you need (see actors/README.md).
"""
