"""Planner kernels, compiled with numba when the work pays for loading it.

Loading numba costs about 0.35 CPU s, more than everything else a small planning run does
(a tool's whole start-up is about 0.3 s), and `usmp-opt --help` or a 5-buffer plan need no
compiled loop. So a `@kernel` function is plain Python until the calls made of all kernels
have been given `INTERPRETED_ELEMENTS` array elements in all (a call counting
`CALL_ELEMENTS` more for its own overhead); then numba is imported and
every kernel compiled (or loaded from numba's disk cache, `cache=True`), and the modules
that define kernels get the compiled functions in their globals, as `@njit` would have put
them there, so that compiled kernels call each other compiled. The Python and the compiled
functions are the same code on the same int64 arrays: the plans do not depend on which ran.
The search prices its plain-Python work in its own steps instead (`interpreted`,
`canonical_search`), as its work is not in its arrays' sizes, and stops running in plain
Python once the kernels' plain-Python seconds in all (`interpreted_seconds`, a first
placement's included) reach what loading numba costs.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np

Function = TypeVar("Function", bound=Callable[..., Any])

INTERPRETED_ELEMENTS = 6_000
"""Array elements the interpreted calls of a process may be given in all: about 0.1 CPU s of
kernel work in plain Python (MiniMalloc's small instances, a model's few dozen buffers).
A first placement in plain Python took 15-16 us an element on MiniMalloc's C and K (1626
and 3634 elements), 28 on J, 35 on idealloc's resnet50 (8338) and 66 on G_1 (6530): at
20,000 those two took 0.3 and 0.43 s before loading numba all the same."""

CALL_ELEMENTS = 100
"""What a call costs in plain Python beyond its arrays, in elements: about 0.3 ms for a
placement of five buffers, against 0.35 s to load numba."""

_kernels: list[_Kernel] = []
_loaded = {"numba": False}
_compiling = {"depth": 0, "began": 0.0, "seconds": 0.0}
"""How deep in numba's compile events the process is, when the outermost began, and the
wall seconds of the outermost ones (`compile_seconds`)."""
_interpreted = {"elements": 0, "depth": 0, "seconds": 0.0}
"""Elements given to the outermost interpreted calls (a kernel's calls of other kernels are
its own work), how deep in interpreted calls the process is, and the CPU seconds the
outermost ones took."""


class _Kernel:
    """A kernel: its Python function until numba is loaded, its compiled one after."""

    def __init__(self, function: Callable[..., Any]):
        functools.update_wrapper(self, function)
        self.py_func = function
        self.compiled: Callable[..., Any] | None = None

    def __call__(self, *args: Any) -> Any:
        if self.compiled is None:
            if _interpreted["depth"]:
                return self.py_func(*args)  # within an interpreted kernel: its own work
            elements = sum(arg.size for arg in args if isinstance(arg, np.ndarray))
            _interpreted["elements"] += elements + CALL_ELEMENTS
            if _interpreted["elements"] <= INTERPRETED_ELEMENTS:
                return _timed(self.py_func, args)
            compile_kernels()
        assert self.compiled is not None
        return self.compiled(*args)


def interpreted(function: Callable[..., Any], *args: Any) -> Any:
    """`function`, a kernel not compiled yet, run as plain Python whatever the elements
    given so far: for a caller that prices its interpreted work itself (the search counts
    its steps)."""
    assert isinstance(function, _Kernel) and function.compiled is None
    return _timed(function.py_func, args)


def _timed(function: Callable[..., Any], args: tuple[Any, ...]) -> Any:
    """An outermost interpreted call, its CPU seconds counted (`interpreted_seconds`)."""
    began = time.process_time()
    _interpreted["depth"] += 1
    try:
        return function(*args)
    finally:
        _interpreted["depth"] -= 1
        _interpreted["seconds"] += time.process_time() - began


def interpreted_seconds() -> float:
    """CPU seconds the process has spent in kernels run as plain Python."""
    return _interpreted["seconds"]


def numba_loaded() -> bool:
    """Whether the kernels have been compiled (`compile_kernels`): numba is loaded."""
    return _loaded["numba"]


def kernel(function: Function) -> Function:
    """Marks a numba-compatible function as a planner kernel (see the module's docstring)."""
    compiled = _Kernel(function)
    _kernels.append(compiled)
    return cast(Function, compiled)


def compile_seconds() -> float:
    """Wall seconds the process has spent compiling kernels or loading them from numba's
    disk cache (17 CPU s for the placement kernels on a machine's first run): not the
    planning's work, so the time cap does not count them (`work.TimeCap`)."""
    return _compiling["seconds"]


def _clock_compiles() -> None:
    """Adds the time numba holds its compiler lock, outermost holds only, to
    `compile_seconds`: it compiles a kernel, or loads it from the disk cache, under it (a
    kernel's compilation compiles the kernels it calls within its own)."""
    from numba.core import event  # noqa: PLC0415

    class CompileClock(event.Listener):
        def on_start(self, _: event.Event) -> None:
            if not _compiling["depth"]:
                _compiling["began"] = time.perf_counter()
            _compiling["depth"] += 1

        def on_end(self, _: event.Event) -> None:
            _compiling["depth"] -= 1
            if not _compiling["depth"]:
                _compiling["seconds"] += time.perf_counter() - _compiling["began"]

    event.register("numba:compiler_lock", CompileClock())


def compile_kernels() -> None:
    """Imports numba and compiles every kernel defined so far, once a process."""
    from numba import njit  # noqa: PLC0415

    if not _loaded["numba"]:
        _clock_compiles()
    _loaded["numba"] = True
    for each in _kernels:
        if each.compiled is None:
            each.compiled = njit(cache=True)(each.py_func)
    for each in _kernels:
        namespace = each.py_func.__globals__
        for name, value in namespace.items():
            if isinstance(value, _Kernel):
                namespace[name] = value.compiled
