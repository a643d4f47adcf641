"""The console scripts: each tool ends as Unix tools do, from its first import on.

Ctrl-C ends a tool with one line on stderr and status 130, no traceback and no output
written (outputs are staged until the command has succeeded); a reader that closed
standard output (`| head -1`) ends it by SIGPIPE, silently, as a shell expects. The tool's
module is imported inside that ending, since its imports (xDSL, numba) take seconds; this
module imports nothing else for the same reason.

NumPy's OpenBLAS starts a thread per core when it is loaded, spinning a while: a third of
numpy's import CPU on a 2-core machine, for a BLAS the tools never call (the planner's
arrays are integers, sorted and scanned). The tools load it with one thread unless the
user says otherwise.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import NoReturn

INTERRUPTED_STATUS = 128 + signal.SIGINT
"""What a shell reports for a command that Ctrl-C stopped."""


def _die_of_sigpipe() -> NoReturn:
    """Killed by SIGPIPE, so that a shell reports status 141 and a pipe carries on."""
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGPIPE)
    raise SystemExit(128 + signal.SIGPIPE)  # not reached: the signal ends the process


def _caused_by_ctrl_c(error: BaseException | None) -> bool:
    """Whether Ctrl-C is behind `error`: a KeyboardInterrupt raised inside compiled code
    (numba's dispatcher) comes out as the cause of a SystemError."""
    seen = set()
    while error is not None and id(error) not in seen:
        if isinstance(error, KeyboardInterrupt):
            return True
        seen.add(id(error))
        error = error.__cause__ or error.__context__
    return False


def _interrupted(tool: str) -> NoReturn:
    print(f"{tool}: interrupted", file=sys.stderr)
    raise SystemExit(INTERRUPTED_STATUS) from None


@contextmanager
def ends_as_unix_tools_do(tool: str) -> Iterator[None]:
    try:
        yield
        sys.stdout.flush()
    except KeyboardInterrupt:
        _interrupted(tool)
    except BrokenPipeError:
        _die_of_sigpipe()
    except Exception as error:
        if not _caused_by_ctrl_c(error):
            raise
        _interrupted(tool)


def _one_blas_thread() -> None:
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def usmp_opt(argv: Sequence[str] | None = None) -> int:
    _one_blas_thread()
    with ends_as_unix_tools_do("usmp-opt"):
        from usmp_dialect.tools.usmp_opt import main

        status = main(argv)
    return status


def usmp_translate(argv: Sequence[str] | None = None) -> int:
    _one_blas_thread()
    with ends_as_unix_tools_do("usmp-translate"):
        from usmp_dialect.tools.usmp_translate import main

        status = main(argv)
    return status
