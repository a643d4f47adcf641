"""The console scripts: each tool ends as Unix tools do, from its first import on.

Ctrl-C ends a tool with one line on stderr and status 130, no traceback and no output
written (outputs are staged until the command has succeeded); a reader that closed
standard output (`| head -1`) ends it by SIGPIPE, silently, as a shell expects. The tool's
module is imported inside that ending, since its imports (xDSL, numba) take seconds; this
module imports nothing else for the same reason.

A finished tool ends at once (`_exit_now`): streams flushed and `atexit` handlers run as at
any exit, but without the interpreter's teardown, which frees every object one by one and
takes about 0.3 CPU s once numba has loaded (LLVM's and numba's objects), half a whole run
on MiniMalloc's K. The functions the console scripts call are `*_command`; `usmp_opt` and
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
    _exit_now(_status_of(usmp_opt))


def usmp_translate_command() -> NoReturn:
    """The `usmp-translate` console script."""
    _exit_now(_status_of(usmp_translate))


def _status_of(tool: Callable[[], int]) -> int:
    try:
        return tool()
    except SystemExit as done:
        if done.code is None or isinstance(done.code, int):
            return done.code or 0
        raise  # a message as the code: printed by the interpreter's own exit


def _exit_now(status: int) -> NoReturn:
    """Ends the process with `status` as `sys.exit` would, less the interpreter's teardown
    (see the module's docstring); a Python thread still running gets the normal exit,
    which waits for it."""
    threading = sys.modules.get("threading")
    if threading is not None and threading.active_count() > 1:
        raise SystemExit(status)
    try:
        for stream in (sys.stdout, sys.stderr):  # None when the shell closed it (`>&-`)
            if stream is not None:
                stream.flush()  # what a `--help` printed before its SystemExit
    except BrokenPipeError:
        _die_of_sigpipe()
    atexit._run_exitfuncs()
    os._exit(status)
