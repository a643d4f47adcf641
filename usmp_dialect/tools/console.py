"""The console scripts: each tool ends as Unix tools do, from its first import on.

Ctrl-C ends a tool with one line on stderr and status 130, no traceback and no output
written (outputs are staged until the command has succeeded); a reader that closed
standard output (`| head -1`) ends it by SIGPIPE, silently, as a shell expects. The tool's
module is imported inside that ending, since its imports (xDSL, numba) take seconds; this
module imports nothing else for the same reason.

A finished tool ends at once: it exits as any program does (its threads waited for, its
`atexit` handlers run), and the last handler, which the command registers before anything
else, flushes the streams and ends the process there (`os._exit`), before the
interpreter's teardown, which frees every object one by one: 0.14 CPU s of 0.66 on
MiniMalloc's K, about 0.3 once numba has loaded (LLVM's and numba's objects). A handler
registered before the command started (none in a console script) runs after it, so not.
The functions the console scripts call are `*_command`; `usmp_opt` and
`usmp_translate` return their status for a caller in the same process.

NumPy's OpenBLAS starts a thread per core when it is loaded, spinning a while: a third of
numpy's import CPU on a 2-core machine, for a BLAS the tools never call (the planner's
arrays are integers, sorted and scanned). The tools load it with one thread unless the
user says otherwise.
"""

from __future__ import annotations

import atexit
import os
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
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
        if sys.stdout is not None:  # None when the shell closed it (`>&-`)
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


def usmp_opt_command() -> NoReturn:
    """The `usmp-opt` console script."""
    _run_command(usmp_opt)


def usmp_translate_command() -> NoReturn:
    """The `usmp-translate` console script."""
    _run_command(usmp_translate)


def _status_of(tool: Callable[[], int]) -> int:
    try:
        return tool()
    except SystemExit as done:
        if done.code is None or isinstance(done.code, int):
            return done.code or 0
        raise  # a message as the code: printed by the interpreter's own exit


class _EndBeforeTeardown:
    """An exit handler that ends the process with the tool's status, streams flushed, once
    the exit's other handlers have run; with no status (an uncaught exception, a message
    as the exit's code) the exit goes on as usual."""

    def __init__(self) -> None:
        self.status: int | None = None

    def __call__(self) -> None:
        if self.status is None:
            return
        try:
            for stream in (sys.stdout, sys.stderr):  # None when the shell closed it (`>&-`)
                if stream is not None:
                    stream.flush()  # what a `--help` printed before its SystemExit
        except BrokenPipeError:
            _die_of_sigpipe()
        os._exit(self.status)


def _run_command(tool: Callable[[], int]) -> NoReturn:
    ending = _EndBeforeTeardown()
    atexit.register(ending)  # first, so that it runs last
    ending.status = _status_of(tool)
    raise SystemExit(ending.status)
