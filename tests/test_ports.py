"""The local objects and the Ray clients satisfy the runtime's ports, with real objects: a real
LanceDB ledger and journal, the actors/ clients opened on them (no Ray cluster is needed to open a
client: its reads are local), a real Verifier as a checker. isinstance() on a runtime_checkable
protocol only sees names, so the signatures are compared too: a client whose method drifts (a
renamed or missing parameter) fails here, not in a Ray replica."""

import inspect

import pytest

from warrant.actors.store import JournalClient, LedgerClient
from warrant.actors.verifier_pool import PoolChecker
from warrant.ledger.ports import JournalWriter, LedgerReader, LedgerWriter
from warrant.runtime.contract import Artifact
from warrant.runtime.gate import Gate
from warrant.runtime.ports import PropositionChecker
from warrant.runtime.verify.verifier import Verifier

RUN = "run_1"


def _members(proto: type) -> list[str]:
    # (typing's own list, __protocol_attrs__, is 3.12+; the protocols' namespaces say the same)
    names = {n for c in proto.__mro__ if getattr(c, "_is_protocol", False) and c.__module__ != "typing"
             for n in vars(c) if not n.startswith("_")}
    assert names, f"no members found on {proto.__name__}"
    return sorted(names)


def _signature_problems(obj: object, proto: type) -> list[str]:
    """What in obj's methods would break a caller written against proto."""
    problems = []
    for name in _members(proto):
        want = getattr(proto, name)
        if isinstance(want, property):
            if not hasattr(obj, name):
                problems.append(f"{name}: missing")
            continue
        have = getattr(obj, name, None)
        if not callable(have):
            problems.append(f"{name}: missing or not callable")
            continue
        wparams = [p for p in inspect.signature(want).parameters.values() if p.name != "self"]
        hparams = inspect.signature(have).parameters
        has_var_kw = any(p.kind is p.VAR_KEYWORD for p in hparams.values())
        hpos = [p.name for p in hparams.values() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        for i, p in enumerate(wparams):
            if p.kind is p.VAR_KEYWORD:
                if not has_var_kw:
                    problems.append(f"{name}: takes no **kwargs")
            elif p.kind is p.POSITIONAL_OR_KEYWORD and (i >= len(hpos) or hpos[i] != p.name):
                problems.append(f"{name}: positional parameter {i} should be {p.name!r}, is {hpos[i] if i < len(hpos) else None!r}")
            elif p.kind is p.KEYWORD_ONLY and p.name not in hparams and not has_var_kw:
                problems.append(f"{name}: no keyword {p.name!r}")
            if p.default is not p.empty and p.name in hparams and hparams[p.name].default is p.empty:
                problems.append(f"{name}: {p.name!r} is optional in the protocol, required here")
        wnames = {p.name for p in wparams}
        for p in hparams.values():
            if p.name not in wnames and p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                problems.append(f"{name}: extra required parameter {p.name!r}")
    return problems


def _satisfies(obj: object, proto: type) -> None:
    assert isinstance(obj, proto), f"{type(obj).__name__} is not a {proto.__name__}"
    assert not _signature_problems(obj, proto), _signature_problems(obj, proto)


@pytest.fixture
def ids(ledger):
    return ledger.append_many([ledger.item(RUN, "Invoice INV-7 line 2: 3.0 hours at USD 90 per hour.")])


def test_the_local_ledger_and_journal_satisfy_the_ports(ledger, journal):
    _satisfies(ledger, LedgerReader)
    _satisfies(ledger, LedgerWriter)
    _satisfies(journal, JournalWriter)


def test_the_ray_clients_satisfy_the_same_ports(ledger, journal, ledger_uri):
    led, jrn = LedgerClient(ledger_uri), JournalClient(ledger_uri)
    try:
        _satisfies(led, LedgerReader)
        _satisfies(led, LedgerWriter)
        _satisfies(jrn, JournalWriter)
    finally:
        led.close()
        jrn.close()


def test_both_checkers_satisfy_the_checker_port(ledger):
    _satisfies(Verifier(ledger, None), PropositionChecker)
    _satisfies(PoolChecker(pool=None), PropositionChecker)


def test_the_signature_check_can_fail():
    class Drifted:
        uri = "x"

        def exists(self, run, ids): ...  # renamed parameter: a keyword caller would break
        def exists_many(self, keys): ...
        def get(self, run_id, rid): ...
        def get_many(self, run_id, ids, strict): ...  # a new required parameter
        def search(self, run_id, query, k=5, exclude=()): ...
        def ids(self, run_id): ...

    assert isinstance(Drifted(), LedgerReader)  # the names alone pass ...
    problems = _signature_problems(Drifted(), LedgerReader)  # ... the signatures do not
    assert any("exists" in p for p in problems) and any("strict" in p for p in problems), problems


def test_the_gate_runs_on_the_read_only_client_and_sees_records_written_after_it_opened(ledger, ledger_uri):
    client = LedgerClient(ledger_uri)
    try:
        later = ledger.append(RUN, "Engagement letter: the cap is USD 250 per hour.")  # written after the client opened
        doc = {"run_id": RUN, "from_agent": "analyst", "claims": [{"id": "c1", "type": "Quote", "text": "the cap is USD 250 per hour",
                                                                 "quote_of": {"ledger_id": later}}]}
        assert Gate(client).check(doc).passed
        doc["claims"][0]["quote_of"]["ledger_id"] = "led_" + "0" * 32
        assert [v.code for v in Gate(client).check(doc).violations] == ["ledger_id_unknown"]
    finally:
        client.close()


def test_the_read_only_client_batch_lookup_sees_later_records(ledger, ledger_uri, ids):
    client = LedgerClient(ledger_uri)
    try:
        later = ledger.append("run_2", "appended after the client opened")
        forged = "led_" + "0" * 32
        assert client.exists_many([(RUN, ids[0]), ("run_2", later), (RUN, later), (RUN, forged)]) == {(RUN, ids[0]), ("run_2", later)}
    finally:
        client.close()


def test_verify_sends_its_propositions_to_the_checker_it_is_given(ledger, journal, ids):
    class Recording:
        """A real Verifier's check, counting the calls that reach it."""

        def __init__(self, inner):
            self.inner, self.calls = inner, []

        def check(self, run_id, tasks, rejected_before=None, *, progress=None):
            self.calls.append((run_id, [p.id for _, p in tasks]))
            return self.inner.check(run_id, tasks, rejected_before, progress=progress)

    art = Artifact.model_validate({"run_id": RUN, "from_agent": "analyst", "claims": [{"id": "c1", "type": "Assertion", "text": "INV-7 line 2 bills 3 hours.",
        "propositions": [{"id": "p1", "pred": "line_hours", "args": {"invoice_id": "INV-7", "line_id": "2", "hours": 3}, "ledger_ids": ids}]}]})
    checker = Recording(Verifier(ledger, None))
    client = LedgerClient(ledger.uri)
    try:
        got = Verifier(client, None, journal=journal, checker=checker).verify(art)
    finally:
        client.close()
    assert checker.calls == [(RUN, ["p1"])]
    assert got.claims[0].propositions[0] == Verifier(ledger, None).verify(art).claims[0].propositions[0]
    assert journal.entries(RUN, kind="verdict")  # assembly and journaling stayed with the outer verifier
