"""Training pairs for the NLI model from the verifier's dev pairs (business documents), in the form
the verifier shows the model: canonical text (``rules.check.canonical_text``) and, for chunks,
the windows ``spans.windows`` cuts.

    python benchmarks/nli_doc_pairs.py            # -> data/nli/doc_train.jsonl (git-ignored)

Only dev data is read (``_common.DEV_PAIRS``): the held-out set in ``benchmarks/heldout/`` and the
validation pairs (``_common.VALIDATION_PAIRS``, which choose between trained models) are refused. Each dev pair gives:

* the whole premise and the claim with its gold label (supported -> entailment, contradicted ->
  contradiction, unsupported -> neutral);
* for an unsupported claim, the windows of the premise sharing most words with it as neutral: when the whole document does
  not support or refute a claim, no part of it does. Windows of supported and contradicted claims
  are left out, since which window carries the fact is not labelled.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import ROOT, SHIPPED_DOC_PAIRS, VALIDATION_PAIRS  # noqa: E402

from warrant.runtime.verify.rules.check import canonical_text  # noqa: E402
from warrant.runtime.verify.spans import windows  # noqa: E402

LABEL = {"supported": "entailment", "contradicted": "contradiction", "unsupported": "neutral"}


def _words(text: str) -> set[str]:
    return {w.strip(".,;:()$%").lower() for w in text.split()} - {""}


def doc_pairs(rows: list[dict], max_words: int = 60, windows_per_pair: int = 4) -> list[dict]:
    """``windows_per_pair``: the windows sharing most words with the claim, as the verifier picks
    the chunks it scores (VerifierConfig.max_chunks_per_record)."""
    out = []
    for r in rows:
        label = LABEL[r["label"]]
        hyp = canonical_text(r["hypothesis"])
        out.append({"premise": canonical_text(r["premise"]), "hypothesis": hyp, "label": label,
                    "source": "doc_whole", "pair": r["id"]})
        if label == "neutral":
            claim = _words(r["hypothesis"])
            cut = {r["premise"][a:b].strip() for a, b in windows(r["premise"], max_words)} - {"", r["premise"].strip()}
            for chunk in sorted(cut, key=lambda c: (-len(claim & _words(c)), c))[:windows_per_pair]:
                out.append({"premise": canonical_text(chunk), "hypothesis": hyp, "label": "neutral",
                            "source": "doc_window", "pair": r["id"]})
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--files", type=Path, nargs="*", default=SHIPPED_DOC_PAIRS,
                    help="dev pair files (default: those the shipped model trained on; any of _common.DEV_PAIRS)")
    ap.add_argument("--out", type=Path, default=ROOT / "data" / "nli" / "doc_train.jsonl")
    args = ap.parse_args(argv)
    files = args.files
    if bad := [f for f in files if "heldout" in f.parts or f.resolve() == VALIDATION_PAIRS.resolve()]:
        raise SystemExit(f"refusing to train on {bad[0]}: held-out and validation pairs never train the model")
    rows = [json.loads(line) for f in files for line in f.read_text(encoding="utf-8").splitlines() if line.strip()]
    pairs = doc_pairs(rows)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as fh:
        for p in pairs:
            fh.write(json.dumps(p, ensure_ascii=False) + "\n")
    print(json.dumps({"files": [f.name for f in files], "dev_pairs": len(rows), "training_pairs": len(pairs),
                      "by_source_label": {f"{k[0]}/{k[1]}": v for k, v in
                                          sorted(Counter((p["source"], p["label"]) for p in pairs).items())}}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
