"""Progress of a long command on a terminal: one line on stderr, rewritten in place (`\\r`)
and cleared when the command ends or prints anything else on stderr; nothing at all when
stderr is not a terminal, so pipes, logs and tests see only the command's own output."""

from __future__ import annotations

import os
import shutil
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TextIO, cast

from usmp_dialect.planning.budget import SearchProgress

_ERASE = "\r\x1b[K"
"""Back to the line's start, and the line erased (ANSI, as every terminal has)."""


class ProgressLine:
    """The one line of progress, `TOOL: text`, cut to the terminal's width (a wrapped line
    could not be rewritten in place)."""

    def __init__(self, tool: str, terminal: TextIO):
        self.tool = tool
        self.terminal = terminal
        self.started = time.perf_counter()
        self.shown = False

    def show(self, text: str) -> None:
        width = shutil.get_terminal_size().columns - 1
        self.terminal.write(f"{_ERASE}{self.tool}: {text}"[: len(_ERASE) + width])
        self.terminal.flush()
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            self.terminal.write(_ERASE)
            self.terminal.flush()
            self.shown = False

    def stage(self, name: str) -> None:
        """A step of a model import, with the seconds since the command started."""
        self.show(f"{name} ({time.perf_counter() - self.started:.0f} s)")

    def search(self, progress: SearchProgress) -> None:
        """Where the `exact` search stands."""
        elapsed = f"{progress.elapsed:.1f} s"
        if progress.best is None or progress.bound is None:
            self.show(f"planning, no plan yet, {elapsed}")
        else:
            self.show(
                f"best pool {progress.best:,} bytes, bound {progress.bound:,} bytes, {elapsed}"
            )


class _ClearingFirst:
    """Standard error that clears the progress line before anything else is written."""

    def __init__(self, line: ProgressLine):
        self._line = line

    def write(self, text: str) -> int:
        self._line.clear()
        return self._line.terminal.write(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._line.terminal, name)


@contextmanager
def terminal_progress(tool: str) -> Iterator[ProgressLine | None]:
    """The progress line while the block runs, if stderr is a terminal (else None)."""
    if not (os.isatty(2) and sys.stderr.isatty()):
        yield None
        return
    terminal = sys.stderr
    line = ProgressLine(tool, terminal)
    sys.stderr = cast(TextIO, _ClearingFirst(line))
    try:
        yield line
    finally:
        sys.stderr = terminal
        line.clear()
