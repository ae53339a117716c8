"""The claim verifier: each proposition against the exact ledger bytes it cites, cheapest check first.

It never sees the agents' prompts and never searches outside the cited records to decide (it
searches the run's ledger only to *suggest* what to cite next). Order of checks:

1. schema: a known predicate with the arguments that make it checkable, else Unverifiable;
   a reworded resubmission of a rejected proposition with no new evidence is refused as such;
2. Quote claims: exact bytes in the cited record, else Contradicted with the closest span;
3. the predicate's deterministic evaluator over structured records (tool outputs);
4. rules: numbers, money, percentages, dates and negation must agree with the evidence; a
   statement copied whole from the record, or computed from its values, passes here;
5. the NLI model over evidence chunks, max support over chunks (all pairs of an artifact in one
   batch): it passes a statement only at the pass threshold set for it (the embedded model has
   none), and may call one contradicted on a short record;
6. nothing decided: Unsupported, with what kind of record would settle it and which records of
   this run look relevant.
"""

from __future__ import annotations

import difflib
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable, Iterable, Sequence

import numpy as np

from warrant.ledger import EvidenceRecord
from warrant.ledger.ports import JournalWriter, LedgerReader
from warrant.runtime.contract import ASSERTION, QUOTE, AnnotatedArtifact, Artifact, Claim, Proposition, content_hash
from warrant.runtime.ports import PropositionChecker
from warrant.runtime.verify.backends.base import CONTRA, ENTAIL, NLIBackend
from warrant.runtime.verify.predicates import PredicateRegistry, UnknownPredicate, default_registry
from warrant.runtime.verify.predicates.text import statement_problems
from warrant.runtime.verify.rules import QuantityCheck, canonical_text, check_rules, dates, extract_quantities
from warrant.runtime.verify.rules.anchors import (
    about_same_thing,
    contradicting_words,
    derived_support,
    missing_anchors,
    swapped_identifier,
    title_line,
    whole_record_vetoes,
    window_context,
)
from warrant.runtime.verify.rules.copied import copied_sentence
from warrant.runtime.verify.rules.identifiers import key
from warrant.runtime.verify.rules.ranking import compare_stated
from warrant.runtime.verify.rules.registry import reading_record
from warrant.runtime.verify.rules.status import check_state
from warrant.runtime.verify.spans import Chunk, chunks
from warrant.runtime.verify.text import STOP, normalise, sentence_spans
from warrant.runtime.verify.typed import TypedPredicate
from warrant.runtime.verify.view import ViewStore
from warrant.runtime.verify.verdict import (
    ArtifactVerdict,
    ClaimVerdict,
    EvidenceSpan,
    MissingEvidence,
    PropositionVerdict,
    Status,
    Suggestion,
)

# Claim types whose truth gates the hand-off. Conjectures are verified too, for information.
BLOCKING = (ASSERTION, QUOTE)
_SEVERITY = {"contradicted": 3, "unverifiable": 2, "unsupported": 1, "supported": 0}


@dataclass(frozen=True)
class VerifierConfig:
    # max P(entailment) over chunks at or above this: supported (with every anchor in the window).
    # None: the backend's own `pass_threshold` (its config.json), and where it has none the model's
    # support alone passes nothing. The shipped model has none: on pairs written after it was
    # trained, in genres it never saw, its passes were right 3 times in 15 when measured blind
    # (results/verifier_pairs_dev1[0-3]_blind.json), and about half the time at best, at any
    # threshold on every pair it never trained on (results/nli_passing.json); right and wrong ones
    # score alike, so no threshold separates them (models/nli-minilm-l6/MODEL_CARD.md, "Passing").
    entail_threshold: float | None = None
    # A small model says "contradiction" for "about something else" (an SNLI habit), and calling a
    # true claim false is the worst error here: below this the verdict is unsupported instead.
    contradict_threshold: float = 0.9
    max_words: int = 60  # evidence chunk size (sentences, pairs of sentences, word windows)
    # Chunks per cited record the model scores, the ones sharing most words with the claim: a
    # sentence about something else can neither entail nor contradict it, and scoring every
    # chunk of a long record costs ~4x more on CPU for nothing.
    max_chunks_per_record: int = 4
    # A proposition is one fact: it cites the few records that state it. Citing many unrelated
    # records lets some chunk match by chance, so past this it is Unverifiable, not checked.
    max_records_per_proposition: int = 8
    max_chunks_per_proposition: int = 24  # chunks the model scores for one proposition, all records together
    suggestions: int = 3
    # The model may call a statement contradicted only on records of at most this many sentences:
    # in a longer document its "contradiction" is mostly "about another slot or a computed value"
    # (dev-tune long pairs: 4 right, 8 wrong), and calling a true claim false is worse than abstaining.
    model_contradicts_max_sentences: int = 3
    # Rules read a whole record up to this many characters; past it, only the windows picked for
    # the model (a 50 MB record is checked, not scanned value by value).
    rules_max_chars: int = 20_000
    # The model may pass a statement only when every anchor of the claim (values in their slot,
    # identifiers, names, polarity, mode and tense) is in its window. Off only for ablations
    # (bench_eval's "NLI alone", the release gate's degraded-verifier test): never in production.
    require_anchors: bool = True


@dataclass
class _Pending:
    """A proposition waiting for the model: its chunks are scored with everyone else's."""

    claim_id: str
    prop: Proposition
    hypothesis: str
    needed: str
    chunks: list[Chunk]
    rules_agree: bool = False  # every word, name and quantity found, same polarity
    rows: slice = field(default_factory=lambda: slice(0, 0))
    contexts: list[str] = field(default_factory=list)  # per chunk: the record's title line and the sentence before it
    # every number, date and amount of the claim found in its slot: the model alone may not call
    # it contradicted ("two years" against "24 months" is not a contradiction)
    values_found: bool = False
    # the claim carries a number, amount, date or duration the rules did not find in conflict with
    # a value in its slot: whether it is wrong is arithmetic or reading a table, which a small model
    # does not do ("open for 3 days" against two dates), so the model alone may not call it contradicted
    values_undecided: bool = False
    long_record: bool = False  # some cited record is longer than model_contradicts_max_sentences
    # what the whole record says against the claim that the window the model read may have cut
    # off ("Customs clearance - held" further down a tool output): no window may pass it
    record_vetoes: list[str] = field(default_factory=list)
    records: dict[str, str] = field(default_factory=dict)  # ledger id -> text of each cited record


class Verifier:
    def __init__(
        self,
        ledger: LedgerReader,
        backend: NLIBackend | None = None,
        *,
        predicates: PredicateRegistry | None = None,
        journal: JournalWriter | None = None,
        config: VerifierConfig | None = None,
        checker: PropositionChecker | None = None,
    ):
        # checker: where `verify` sends its propositions (default: this verifier's own `check`;
        # actors.verifier_pool.PoolChecker sends them to the Serve pool)
        self._checker = checker if checker is not None else self
        self._ledger = ledger
        self._backend = backend
        self._predicates = predicates or default_registry()
        self._journal = journal
        self.config = config or VerifierConfig()
        self._views = ViewStore(ledger.uri)

    @property
    def backend_name(self) -> str:
        return self._backend.name if self._backend else "none"

    @property
    def pass_threshold(self) -> float | None:
        """P(entailment) at which the model's support passes a statement; None: it passes nothing alone."""
        if self.config.entail_threshold is not None:
            return self.config.entail_threshold
        return getattr(self._backend, "pass_threshold", None)

    @property
    def journals(self) -> bool:
        """Whether `verify` journals its verdicts (and so any `journal_first` entries)."""
        return self._journal is not None

    # -- artifacts -----------------------------------------------------------------------------
    def verify(self, artifact: Artifact | dict[str, Any], *, progress: Callable[[int, int], None] | None = None,
               journal_first: Sequence[tuple[str, Any, str, dict[str, Any]]] = ()) -> ArtifactVerdict:
        """Verify every claim of an artifact that passed the gate; journal the verdicts.
        `journal_first`: journal entries written in the same commit, before the verdicts (the
        hand-off's gate decision: one commit per hand-off, not two, each ~3.5 ms on 2 cores). They
        are written alone when verification raises, so an entry handed in is never lost."""
        try:
            verdict, entries = self._verify(artifact, progress)
        except BaseException:
            if journal_first and self._journal is not None:
                self._journal.record_many(journal_first)
            raise
        if self._journal is not None:
            self._journal.record_many([*journal_first, *entries])
        return verdict

    def _verify(self, artifact: Artifact | dict[str, Any], progress: Callable[[int, int], None] | None):
        art = artifact if isinstance(artifact, Artifact) else Artifact.model_validate(artifact)
        rejected_before = self._rejected_before(art.run_id)
        tasks = [(c, p) for c in art.claims if c.type != QUOTE for p in c.propositions]
        by_prop = {id(p): v for (c, p), v in zip(tasks, self._checker.check(art.run_id, tasks, rejected_before, progress=progress))}
        claims = []
        for c in art.claims:
            if c.type == QUOTE:
                props = [self._check_quote(art.run_id, c)]
            else:
                props = [by_prop[id(p)] for p in c.propositions]
            claims.append(ClaimVerdict(claim_id=c.id, type=c.type, status=_claim_status(c, props), propositions=props))
        blocking_ok = all(cv.status == "supported" for cv in claims if cv.type in BLOCKING)
        verdict = ArtifactVerdict(
            run_id=art.run_id,
            from_agent=art.from_agent,
            artifact_hash=art.content_hash(),
            status="pass" if blocking_ok else "abstain",
            claims=claims,
        )
        entries = [(art.run_id, "verdict", cv.claim_id, _journal_payload(art, c, cv)) for c, cv in zip(art.claims, claims)]
        return verdict, entries

    def check(
        self,
        run_id: str,
        tasks: Sequence[tuple[Claim, Proposition]],
        rejected_before: dict[tuple[str, frozenset[str]], str] | None = None,
        *,
        progress: Callable[[int, int], None] | None = None,
    ) -> list[PropositionVerdict]:
        """The batch core: decide many propositions of one run, with one model call for all.
        Ray Data batch verification calls this directly."""
        rejected_before = rejected_before or {}
        cap = self.config.max_records_per_proposition
        records = self._ledger.get_many(run_id, {lid for _, p in tasks if len(set(p.ledger_ids)) <= cap for lid in p.ledger_ids})
        out: list[PropositionVerdict | None] = [None] * len(tasks)
        pending: list[tuple[int, _Pending]] = []
        for i, (claim, prop) in enumerate(tasks):
            decided = self._cheap_checks(run_id, claim, prop, records, rejected_before)
            if isinstance(decided, _Pending):
                pending.append((i, decided))
            else:
                out[i] = decided
            if progress:
                progress(i + 1, len(tasks))
        for i, v in zip((i for i, _ in pending), self._model_checks(run_id, [p for _, p in pending])):
            out[i] = v
        return out  # type: ignore[return-value]

    # -- the cheap deterministic part ----------------------------------------------------------
    def _cheap_checks(self, run_id, claim, prop, records, rejected_before) -> PropositionVerdict | _Pending:
        base = dict(claim_id=claim.id, proposition_id=prop.id, pred=prop.pred)

        def verdict(status: Status, checker: str, confidence: float = 1.0, **kw: Any) -> PropositionVerdict:
            return PropositionVerdict(**base, status=status, checker=checker, confidence=confidence, **kw)

        try:
            pred = self._predicates.get(prop.pred)
        except UnknownPredicate:
            return verdict(
                "unverifiable", "schema",
                reason=f"unknown predicate {prop.pred!r}; known: {', '.join(self._predicates.names())}",
            )
        missing, other = pred.problems(dict(prop.args))
        if missing or other:
            why = [f"missing argument(s) {', '.join(map(repr, missing))}"] if missing else []
            return verdict(
                "unverifiable", "schema", missing_args=missing,
                reason="; ".join([*why, *other]) + f" ({pred.name}: {pred.description})",
            )
        if pred.name == "statement" and (vague := statement_problems(dict(prop.args))):
            return verdict("unverifiable", "schema", reason=f"too vague to check: {vague}")
        if len(set(prop.ledger_ids)) > self.config.max_records_per_proposition:
            return verdict(
                "unverifiable", "schema",
                reason=f"cites {len(set(prop.ledger_ids))} records; a proposition may cite at most "
                f"{self.config.max_records_per_proposition}: cite the records that state this fact",
            )
        hypothesis = pred.hypothesis(dict(prop.args))
        earlier = _reworded(rejected_before.get((prop.pred, frozenset(prop.ledger_ids)), []), prop, hypothesis)
        if earlier is not None:
            return verdict(
                "unsupported", "resubmission", hypothesis=hypothesis,
                reason=f"resubmits rejected proposition {earlier} on the same evidence: cite new evidence instead of rewording",
                missing_evidence=self._missing(run_id, pred.needed, hypothesis, prop.ledger_ids),
            )
        cited = [records[lid] for lid in prop.ledger_ids if lid in records]
        if len(cited) < len(set(prop.ledger_ids)):
            gone = [lid for lid in prop.ledger_ids if lid not in records]
            return verdict("unsupported", "schema", hypothesis=hypothesis, reason=f"cited records not in run {run_id}: {', '.join(gone)}")
        if isinstance(pred, TypedPredicate):
            return self._typed_check(run_id, pred, prop, cited, hypothesis, verdict)
        if pred.evaluate is not None:
            d = pred.evaluate(dict(prop.args), cited)
            if d is not None:
                rec = records[d.ledger_id]
                return verdict(d.status, f"predicate:{pred.name}", hypothesis=hypothesis, reason=d.reason, evidence=_span(rec, d.start, d.end))
        if not pred.model_checkable:
            return verdict(
                "unsupported", f"predicate:{pred.name}", hypothesis=hypothesis,
                reason="the cited records do not hold the fields this predicate compares",
                missing_evidence=self._missing(run_id, pred.needed, hypothesis, prop.ledger_ids),
            )
        agree = found = long_record = False
        record_vetoes: list[str] = []
        picked: list[Chunk] = []
        contexts: list[str] = []
        for rec in cited:
            text = _text_of(rec)
            # a figure copied from the record reads as it does there (a long record's windows read by themselves)
            with reading_record(text if text is not None and len(text) <= self.config.rules_max_chars else ""):
                if text is not None and len(text) <= self.config.rules_max_chars and (rk := compare_stated(hypothesis, text)):
                    # the claim orders two labelled values of this record, or names the extreme of a column
                    spans = [_char_span(rec, text, q.start, q.end) for q in rk.used]
                    return verdict(rk.status, "rules:compare", hypothesis=hypothesis, evidence=spans[0], spans=spans, reason=rk.reason)
                if text is not None and len(text) <= self.config.rules_max_chars and (st := check_state(hypothesis, text)):
                    # the claim says a thing reached a state; the record's status field for it says which
                    return verdict(st.status, "rules:state", hypothesis=hypothesis, evidence=_char_span(rec, text, st.start, st.end), reason=st.reason)
                if "json" in rec.media_type:
                    picked += _most_related(hypothesis, chunks(rec, self.config.max_words), self.config.max_chunks_per_record)
                    contexts += [""] * (len(picked) - len(contexts))
                    long_record = True  # a tool output is fields, not sentences the model can contradict
                    continue
                if text is None:
                    continue  # not text: nothing here can support or contradict the claim
                long_record = long_record or _more_sentences_than(text, self.config.model_contradicts_max_sentences)
                mine = _most_related(hypothesis, chunks(rec, self.config.max_words, text=text), self.config.max_chunks_per_record)
                ctx = [_context_of(rec, text, ch) for ch in mine]
                if len(text) <= self.config.rules_max_chars:
                    r = check_rules(hypothesis, text)
                    ev_of = lambda r: _sentence_around(rec, text, r.span[0] if r.span else None)  # noqa: E731
                else:  # a long record: the rules read the windows the model will read
                    r, ev_of = _rules_on_windows(hypothesis, rec, mine, ctx)
                if r.status == "conflict":
                    return verdict("contradicted", "rules", hypothesis=hypothesis, reason=r.reason, evidence=ev_of(r))
                if (len(text) <= self.config.rules_max_chars and (sw := swapped_identifier(hypothesis, text))
                        and not any(key(sw[0]) in key(_text_of(o) or "") for o in cited)):
                    # the claim states an identifier no cited record holds, and this one states a
                    # mistyped copy of it in the same slot ("account number 4471-0039" / "4471-0093")
                    at = _char_span(rec, text, sw[2], sw[2] + len(sw[1]))
                    return verdict("contradicted", "rules:identifier", hypothesis=hypothesis, evidence=at,
                                   reason=f"the claim says {sw[0]!r}; the record says {sw[1]!r}")
                if len(text) <= self.config.rules_max_chars and (words := contradicting_words(hypothesis, text)):
                    return verdict("contradicted", "rules:words", hypothesis=hypothesis, reason="; ".join(w for w, _ in words),
                                   evidence=_sentence_around(rec, text, words[0][1]))
                if len(text) <= self.config.rules_max_chars and (cp := copied_sentence(hypothesis, text)):
                    return verdict("supported", "rules:copied", hypothesis=hypothesis, evidence=_char_span(rec, text, *cp),
                                   reason="the claim is this sentence of the record, copied whole")
                if len(text) <= self.config.rules_max_chars and (used := derived_support(hypothesis, text)):
                    # every value of the claim is stated or computed by exactly one reading of this
                    # record, every other anchor is here: arithmetic the model cannot do, done in code
                    spans = [_char_span(rec, text, o.start, o.end) for rd in used for o in rd.operands]
                    return verdict("supported", "rules:derived", hypothesis=hypothesis, evidence=spans[0], spans=spans,
                                   reason="computed from the cited values: " + "; ".join(f"{rd.how} = {_fmt_value(rd.value)}" for rd in used))
                if len(text) <= self.config.rules_max_chars:
                    record_vetoes += [w for w in whole_record_vetoes(hypothesis, text) if w not in record_vetoes]
                agree = agree or r.status == "agree"
                found = found or _values_found(r)
                picked += mine
                contexts += ctx
        if len(picked) > self.config.max_chunks_per_proposition:  # many records cited: score the most related only
            keep = {id(ch) for ch in _most_related(hypothesis, picked, self.config.max_chunks_per_proposition)}
            picked, contexts = map(list, zip(*[(ch, cx) for ch, cx in zip(picked, contexts) if id(ch) in keep]))
        undecided = not found and any(q.unit != "ref" for q in extract_quantities(hypothesis))
        return _Pending(claim.id, prop, hypothesis, pred.needed, picked, agree, contexts=contexts, values_found=found,
                        records={r.id: t for r in cited if (t := _text_of(r)) is not None and len(t) <= self.config.rules_max_chars},
                        values_undecided=undecided, long_record=long_record, record_vetoes=record_vetoes)

    # -- typed propositions: located and compared, never sent to the model ----------------------
    def _typed_check(self, run_id, pred: TypedPredicate, prop: Proposition, cited: list[EvidenceRecord], hypothesis: str, verdict) -> PropositionVerdict:
        d = pred.check(dict(prop.args), [self._views.get(rec) for rec in cited])
        spans = [EvidenceSpan(ledger_id=u.ledger_id, start=u.start, end=u.end, text=u.text) for u in d.used]
        kw: dict[str, Any] = dict(hypothesis=hypothesis, reason=d.reason, spans=spans, evidence=spans[0] if spans else None)
        if d.status == "unsupported":
            kw["missing_evidence"] = self._missing(run_id, f"{pred.needed}; missing: {'; '.join(d.missing)}" if d.missing else pred.needed,
                                                   hypothesis, prop.ledger_ids)
        return verdict(d.status, f"predicate:{pred.name}", **kw)

    # -- the model -----------------------------------------------------------------------------
    def _model_checks(self, run_id: str, pending: list[_Pending]) -> list[PropositionVerdict]:
        if not pending:
            return []
        pairs: list[tuple[str, str]] = []
        for p in pending:
            p.rows = slice(len(pairs), len(pairs) + len(p.chunks))
            hyp = _canonical(p.hypothesis)
            pairs.extend((_canonical(_premise(ch, ctx, p.hypothesis)), hyp) for ch, ctx in zip(p.chunks, p.contexts))
        probs = self._backend.score(pairs) if (self._backend and pairs) else np.zeros((len(pairs), 3), dtype=np.float32)
        checker = f"nli:{self.backend_name}"
        threshold = self.pass_threshold
        out = []
        for p in pending:
            base = dict(claim_id=p.claim_id, proposition_id=p.prop.id, pred=p.prop.pred, hypothesis=p.hypothesis)
            block = probs[p.rows]
            if self._backend is None or not len(block):
                why = "no entailment model configured" if self._backend is None else "the cited records have no readable text"
                out.append(
                    PropositionVerdict(
                        **base, status="unsupported", checker=checker, confidence=0.0, reason=why,
                        missing_evidence=self._missing(run_id, p.needed, p.hypothesis, p.prop.ledger_ids),
                    )
                )
                continue
            e = int(np.argmax(block[:, ENTAIL]))
            c = int(np.argmax(block[:, CONTRA]))
            supported, vetoes = None, []
            # the best-supporting chunk whose window holds every anchor of the claim
            for i in np.argsort(-block[:, ENTAIL]) if threshold is not None else ():
                if block[i, ENTAIL] < threshold:
                    break
                ch = p.chunks[i]
                with reading_record(p.records.get(ch.ledger_id, "")):
                    why = [*p.record_vetoes, *missing_anchors(p.hypothesis, _window(p.contexts[i], ch.text), ch.text, model_p=float(block[i, ENTAIL]))] if self.config.require_anchors else []
                if not why:
                    supported = int(i)
                    break
                vetoes.append(why)
            if supported is not None:
                ch = p.chunks[supported]
                out.append(PropositionVerdict(**base, status="supported", checker=checker, confidence=float(block[supported, ENTAIL]),
                                              evidence=_chunk_span(ch),
                                              reason=f"P(entailment)={block[supported, ENTAIL]:.2f} on the best of {len(p.chunks)} chunks; every number, date, identifier, name, polarity and mode of the claim found in its window"))
            elif vetoes:
                out.append(
                    PropositionVerdict(
                        **base, status="unsupported", checker=checker, confidence=1.0,
                        reason=f"the model finds support (P(entailment)={block[e, ENTAIL]:.2f}) but {'; '.join(dict.fromkeys(vetoes[0]))}",
                        missing_evidence=self._missing(run_id, p.needed, p.hypothesis, p.prop.ledger_ids),
                    )
                )
            elif (block[c, CONTRA] >= self.config.contradict_threshold and not p.rules_agree and not p.values_found and not p.values_undecided and not p.long_record
                  and not about_same_thing(p.hypothesis, _window(p.contexts[c], p.chunks[c].text))):
                ch = p.chunks[c]
                out.append(PropositionVerdict(**base, status="contradicted", checker=checker, confidence=float(block[c, CONTRA]),
                                              evidence=_chunk_span(ch), reason=f"P(contradiction)={block[c, CONTRA]:.2f}"))
            else:
                leans = threshold is None and block[e, ENTAIL] > 0.5
                out.append(
                    PropositionVerdict(
                        **base, status="unsupported", checker=checker, confidence=float(1.0 - block[e, ENTAIL]),
                        reason=(f"the model leans supported (P(entailment)={block[e, ENTAIL]:.2f}) but passes nothing alone: "
                                "no pass threshold is set for it (warrant_pass_threshold); no rule decides this claim, so a reviewer does"
                                if leans else f"no cited chunk entails it (best P(entailment)={block[e, ENTAIL]:.2f})"),
                        missing_evidence=self._missing(run_id, p.needed, p.hypothesis, p.prop.ledger_ids),
                    )
                )
        return out

    # -- quotes ----------------------------------------------------------------------------------
    def _check_quote(self, run_id: str, claim: Claim) -> PropositionVerdict:
        lid = claim.quote_of.ledger_id if claim.quote_of else ""
        base = dict(claim_id=claim.id, proposition_id=claim.id, pred="quote", checker="quote", hypothesis=claim.text)
        recs = self._ledger.get_many(run_id, [lid])
        if lid not in recs:
            return PropositionVerdict(**base, status="unsupported", confidence=1.0, reason=f"{lid} is not a record of run {run_id}")
        rec = recs[lid]
        needle = claim.text.encode("utf-8")
        at = rec.data.find(needle)
        if at >= 0:
            return PropositionVerdict(**base, status="supported", confidence=1.0, reason="verbatim", evidence=_span(rec, at, at + len(needle)))
        text = rec.data.decode("utf-8", errors="replace")
        best = max(
            (ch for ch in chunks(rec, self.config.max_words)),
            key=lambda ch: difflib.SequenceMatcher(None, ch.text, claim.text, autojunk=False).ratio(),
            default=None,
        )
        diff = _first_difference(claim.text, best.text) if best else ""
        return PropositionVerdict(
            **base, status="contradicted", confidence=1.0, evidence=_chunk_span(best) if best else None,
            reason=f"not a verbatim copy of {lid}; closest span differs {diff}".strip() if text else f"{lid} has no text",
        )

    # -- helpers ---------------------------------------------------------------------------------
    def _missing(self, run_id: str, needed: str, hypothesis: str, cited: Iterable[str]) -> MissingEvidence:
        hits = self._ledger.search(run_id, hypothesis, k=self.config.suggestions, exclude=cited) if hypothesis else []
        recs = self._ledger.get_many(run_id, [h for h, _ in hits])
        sugg = [
            Suggestion(ledger_id=h, score=round(s, 4), preview=recs[h].data[:160].decode("utf-8", errors="replace"))
            for h, s in hits
            if h in recs
        ]
        return MissingEvidence(needed=needed, suggestions=sugg)

    # What `_rejected_before` has read, per run: (last verdict seq read, refusals by key). The
    # journal is append-only, so each call reads only the verdicts recorded since the last one.
    # Class-level lock: one verifier may serve several threads; the section is short.
    _REJECTED_RUNS = 256
    _rejected_lock = threading.Lock()
    _rejected_cache: "OrderedDict[str, tuple[int, dict[tuple[str, frozenset[str]], list[dict[str, Any]]]]] | None" = None

    def _rejected_before(self, run_id: str) -> dict[tuple[str, frozenset[str]], list[dict[str, Any]]]:
        """Every proposition of this run the verifier already refused, by (pred, cited ids)."""
        if self._journal is None:
            return {}
        with self._rejected_lock:
            if self._rejected_cache is None:
                self._rejected_cache = OrderedDict()
            upto, seen = self._rejected_cache.get(run_id, (-1, {}))
            for e in self._journal.entries(run_id, kind="verdict", after=upto):
                upto = e.seq
                for p in e.payload.get("propositions", []):
                    if p["status"] in ("contradicted", "unsupported") and p.get("checker") != "resubmission":
                        seen.setdefault((p["pred"], frozenset(p.get("ledger_ids", []))), []).append(p)
            self._rejected_cache[run_id] = (upto, seen)
            self._rejected_cache.move_to_end(run_id)
            while len(self._rejected_cache) > self._REJECTED_RUNS:
                self._rejected_cache.popitem(last=False)
            return seen


_WORD = re.compile(r"[a-z0-9]+")


def _reworded(prior: list[dict[str, Any]], prop: Proposition, hypothesis: str) -> str | None:
    """The id of an earlier refused proposition that this one only rewords, or None.

    A reword keeps the predicate, the evidence, the structured arguments and every quantity,
    and changes the words. A new value on the same evidence is a correction, not a reword: it is
    checked again (and will pass if the evidence says so)."""
    args = {k: v for k, v in prop.args.items() if k != "text"}
    values = sorted(str(q.value) for q in extract_quantities(hypothesis))
    words = set(_WORD.findall(hypothesis.lower()))
    for p in prior:
        if p.get("args", {}) != args or sorted(p.get("quantities", [])) != values:
            continue
        old = p.get("hypothesis") or ""
        old_words = set(_WORD.findall(old.lower()))
        overlap = len(words & old_words) / max(1, len(words | old_words))
        if max(overlap, difflib.SequenceMatcher(None, old.lower(), hypothesis.lower()).ratio()) >= 0.5:
            return p["id"]
    return None


def _content_words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if w not in STOP}


def _most_related(hypothesis: str, candidates: list[Chunk], k: int) -> list[Chunk]:
    """The k chunks sharing most content words with the hypothesis, in document order. A chunk
    sharing none is dropped when another shares some: it is about something else, and each chunk
    scored is one more model call."""
    words = _content_words(hypothesis)
    overlap = [len(words & _content_words(ch.text)) for ch in candidates]
    if any(overlap):
        keep = [i for i, o in enumerate(overlap) if o]
    else:
        keep = list(range(len(candidates)))
    ranked = sorted(keep, key=lambda i: (-overlap[i], i))
    return [candidates[i] for i in sorted(ranked[:k])]


@lru_cache(maxsize=65536)
def _canonical(text: str) -> str:
    # Chunks of a record are scored once per proposition that cites it: cache the rewrite.
    return canonical_text(text)


def annotate(artifact: Artifact, verdict: ArtifactVerdict) -> AnnotatedArtifact:
    """The artifact with `entailment` and `confidence` filled in from the verdict: only the
    verifier writes them, into the annotated type agents never send."""
    by_id = {(p.claim_id, p.proposition_id): p for c in verdict.claims for p in c.propositions}
    doc = artifact.model_dump()
    for c in doc["claims"]:
        for p in c["propositions"]:
            if v := by_id.get((c["id"], p["id"])):
                p.update(entailment=v.status, confidence=round(v.confidence, 4))
    return AnnotatedArtifact.model_validate(doc)


def _claim_status(claim: Claim, props: list[PropositionVerdict]) -> Status:
    if not props:
        # nothing to check is never "supported": a blocking claim abstains, a Conjecture is
        # Unverifiable (it claims something no proposition lets anyone check)
        return "unsupported" if claim.type in BLOCKING else "unverifiable"
    return max((p.status for p in props), key=_SEVERITY.__getitem__)


def _span(rec: EvidenceRecord, start: int, end: int) -> EvidenceSpan:
    return EvidenceSpan(ledger_id=rec.id, start=start, end=end, text=rec.data[start:end].decode("utf-8", errors="replace"))


def _chunk_span(ch: Chunk) -> EvidenceSpan:
    return EvidenceSpan(ledger_id=ch.ledger_id, start=ch.start, end=ch.end, text=ch.text)


def _text_of(rec: EvidenceRecord) -> str | None:
    """The record as text, or None when it is binary (not UTF-8, or NUL bytes in it)."""
    if b"\x00" in rec.data[:8192]:
        return None
    try:
        return rec.data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _context_of(rec: EvidenceRecord, text: str, ch: Chunk) -> str:
    """The title line and the sentence before a chunk (what its window adds to it)."""
    # char offset of the chunk: its bytes are a verbatim slice, decode only the 2 kB before it
    before = rec.data[max(0, ch.start - 2000):ch.start].decode("utf-8", errors="ignore")
    ctx = window_context(before + ch.text, len(before))
    title = title_line(text)
    if title and title not in ctx and title not in ch.text:
        ctx = title + ("\n" + ctx if ctx else "")
    fmt = dates.stated_format(text[:20_000])
    if fmt and fmt not in ctx and fmt not in ch.text:
        # "(MM/DD/YYYY)" stated once for the record settles how the window's numeric dates read
        ctx = f"{ctx}\n{fmt}" if ctx else fmt
    return ctx


def _more_sentences_than(text: str, n: int) -> bool:
    # the first few kB decide: a record of n sentences is short
    return len(sentence_spans(text[:4000])) > n


def _values_found(r: QuantityCheck) -> bool:
    """The rules found every value of the claim (not only identifiers) in the evidence."""
    return r.status == "agree" or (r.status == "absent" and r.reason.startswith("quantities agree"))


def _window(context: str, text: str) -> str:
    return f"{context}\n{text}" if context else text


def _premise(ch: Chunk, context: str, hypothesis: str) -> str:
    """What the model reads: the chunk, with the record's title line in front when the claim
    names something (an identifier, a name) that only the title holds."""
    if context and about_same_thing(hypothesis, ch.text) and not about_same_thing(hypothesis, _window(context, ch.text)):
        return _window(context.split("\n", 1)[0], ch.text)
    return ch.text


def _rules_on_windows(hypothesis: str, rec: EvidenceRecord, picked: list[Chunk], contexts: list[str]):
    """check_rules over each picked window of a long record: the first conflict, else any agreement."""
    agree = None
    for ch, ctx in zip(picked, contexts):
        fmt = dates.stated_format(ctx)  # the record's stated date format, which _context_of carries
        r = check_rules(hypothesis, f"{fmt}\n{ch.text}" if fmt else ch.text)
        if r.status == "conflict":
            return r, lambda r, ch=ch: _chunk_span(ch)
        agree = agree or (r if r.status == "agree" else None)
    return agree or QuantityCheck("absent", "no window decides", None, None), lambda r: None


def _char_span(rec: EvidenceRecord, text: str, a: int, b: int) -> EvidenceSpan:
    """The byte span of characters a..b of the record's text (offsets found in its normalised
    form: where normalising changed the length, the value is looked up verbatim near there)."""
    norm = normalise(text)
    if len(norm) != len(text):
        at = text.find(norm[a:b], max(0, a - 50))
        a, b = (at, at + (b - a)) if at >= 0 else (0, len(text))
    start = len(text[:a].encode())
    return _span(rec, start, start + len(text[a:b].encode()))


def _fmt_value(v) -> str:
    return v.isoformat() if hasattr(v, "isoformat") else f"{v.normalize():f}"


def _sentence_around(rec: EvidenceRecord, text: str, char_pos: int | None) -> EvidenceSpan:
    for a, b in sentence_spans(text):
        if char_pos is None or a <= char_pos < b:
            start = len(text[:a].encode())
            return _span(rec, start, start + len(text[a:b].encode()))
    return _span(rec, 0, len(rec.data))


def _first_difference(quote: str, span: str) -> str:
    ops = difflib.SequenceMatcher(None, span, quote, autojunk=False).get_opcodes()
    for k, (op, a1, a2, b1, b2) in enumerate(ops):
        # span text before or after what the quote covers is context, not a difference
        if op == "equal" or (op == "delete" and k in (0, len(ops) - 1)):
            continue
        return f"at {span[max(0, a1 - 15):a2 + 15]!r}: the record says {span[a1:a2]!r}, the quote says {quote[b1:b2]!r}"
    return ""


def _journal_payload(art: Artifact, claim: Claim, cv: ClaimVerdict) -> dict[str, Any]:
    props = {p.id: p for p in claim.propositions}
    return {
        "claim_id": cv.claim_id,
        "status": cv.status,
        "type": cv.type,
        "claim_hash": content_hash(claim.model_dump(mode="json")),
        "artifact_hash": art.content_hash(),
        "from_agent": art.from_agent,
        "propositions": [
            {
                "id": v.proposition_id,
                "pred": v.pred,
                "status": v.status,
                "checker": v.checker,
                "confidence": round(v.confidence, 4),
                "ledger_ids": list(props[v.proposition_id].ledger_ids) if v.proposition_id in props else ([claim.quote_of.ledger_id] if claim.quote_of else []),
                "args": {k: a for k, a in props[v.proposition_id].args.items() if k != "text"} if v.proposition_id in props else {},
                "hypothesis": v.hypothesis,
                "quantities": [str(q.value) for q in extract_quantities(v.hypothesis or "")],
                "evidence": v.evidence.model_dump() if v.evidence else None,
                "spans": [x.model_dump() for x in v.spans],  # every value a typed verdict used
                "reason": v.reason,
            }
            for v in cv.propositions
        ],
    }
