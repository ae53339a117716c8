"""python -m warrant.examples.invoice_audit [OUT_DIR]: the same demo as `warrant demo`."""

import os
import sys

os.environ.setdefault("LANCEDB_LOG", "error")

from warrant.examples.invoice_audit.demo import DEFAULT_DIR, run_demo  # noqa: E402

if __name__ == "__main__":
    reports = run_demo(sys.argv[1] if len(sys.argv) > 1 else DEFAULT_DIR)
    sys.exit(1 if any(r.status == "FAILED" for r in reports) else 0)
