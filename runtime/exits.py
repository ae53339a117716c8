"""Exit codes of the `warrant` command, and the two ways a command ends early.

    0  OK         passed / intact / done
    1  ABSTAIN    a verdict: abstained, not verified, gate rejected, integrity broken
    2  BAD_INPUT  bad input or usage: which argument or field, and what was expected
    3  INTERNAL   a bug or an environment failure: the message says which, WARRANT_DEBUG=1
                  prints the traceback

A script can then tell "the evidence does not support this" (1) from "you called it wrong" (2)
from "Warrant broke" (3).
"""

from __future__ import annotations

import os
import sys
import traceback
from enum import IntEnum
from typing import Callable, NoReturn

import typer
from rich.console import Console
from rich.text import Text


class ExitCode(IntEnum):
    OK = 0
    ABSTAIN = 1
    BAD_INPUT = 2
    INTERNAL = 3


err = Console(stderr=True)


def fail(message: str, code: int = ExitCode.BAD_INPUT) -> NoReturn:
    """Print `error: MESSAGE` on stderr and end the command. The message is shown as plain text:
    it often quotes untrusted input (a run id, a file's contents), which must never be read as
    Rich markup."""
    err.print(Text.assemble(("error: ", "bold red"), message))
    raise typer.Exit(int(code))


def run_cli(app: Callable[[], object]) -> NoReturn:
    """Run a typer app so that an unexpected exception exits 3 with one line, not a traceback
    that exits 1 like an abstention."""
    try:
        app()
    except SystemExit:
        raise
    except KeyboardInterrupt:
        err.print("interrupted")
        sys.exit(130)
    except BaseException as exc:  # noqa: BLE001 - a Rust panic (pyo3 PanicException) is a BaseException
        if os.environ.get("WARRANT_DEBUG"):
            traceback.print_exc()
        err.print(Text.assemble(("internal error: ", "bold red"), f"{type(exc).__name__}: {exc}", ("  (WARRANT_DEBUG=1 shows the traceback)", "dim")))
        sys.exit(int(ExitCode.INTERNAL))
    sys.exit(0)
