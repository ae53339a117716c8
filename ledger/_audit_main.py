"""The child process of `verify_store_isolated`: `python -m warrant.ledger._audit_main URI`.

Its own module, not `python -m warrant.ledger.audit`: the package imports `audit` (evidence,
journal and table register their tables with it), so running that module as `__main__` would load
it twice and print runpy's RuntimeWarning on every audit. Prints `AT [table, version, file]` before
each file it reads (so the parent can name the one Lance died on) and then one `REPORT {json}` or
`NOTALEDGER "message"` line.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys

from warrant.ledger import audit, storage


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m warrant.ledger._audit_main", description="Verify a ledger; print its report as JSON.")
    ap.add_argument("uri")
    ap.add_argument("--checkpoint-mirror", default=None)
    ap.add_argument("--skip", action="append", default=[])
    args = ap.parse_args(argv)
    storage.reading_at = lambda t, v, f: print("AT " + json.dumps([t, v, f]), flush=True)
    try:
        report = audit.verify_store(args.uri, args.checkpoint_mirror, args.skip)
    except audit.NotALedger as exc:
        print("NOTALEDGER " + json.dumps(str(exc)), flush=True)
        return 2
    print("REPORT " + json.dumps(dataclasses.asdict(report)), flush=True)
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
