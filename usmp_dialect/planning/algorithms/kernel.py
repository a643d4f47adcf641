"""Planner kernels, compiled with numba when the work pays for loading it.

A kernel called with argument types it was built for ahead of time (`ahead_of_time`: an
extension module numba's `pycc` made at an earlier run, loaded in about a millisecond)
runs that. Otherwise: loading numba costs about 0.35 CPU s, more than everything else a
small planning run does (a tool's whole start-up is about 0.3 s), and `usmp-opt --help` or
a 5-buffer plan need no compiled loop. So a `@kernel` function is plain Python until the
calls made of all kernels have been given `INTERPRETED_ELEMENTS` array elements in all (a
call counting `CALL_ELEMENTS` more for its own overhead); then it is built ahead of time
for its arguments' types, or, where that cannot be done, numba is imported and every
kernel compiled (or loaded from numba's disk cache, `cache=True`): each as a copy of its
function whose globals are a copy of its module's with the other kernels' JIT functions
in their places, as `@njit` would have put them there, so that compiled kernels call each
other compiled and the modules themselves stay as they are. The Python and the compiled
functions are the same code on the same int64 arrays: the plans do not depend on which ran.
The search prices its plain-Python work in its own steps instead (`interpreted`,
`canonical_search`), as its work is not in its arrays' sizes, and stops running in plain
Python once the kernels' plain-Python seconds in all (`interpreted_seconds`, a first
placement's included) reach what loading numba costs.
"""

from __future__ import annotations

import functools
import importlib
import time
import types
from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np

from usmp_dialect.planning.algorithms import ahead_of_time

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
    """A kernel: its Python function, its modules built ahead of time (by argument types),
    and its JIT function once numba is loaded."""

    def __init__(self, function: Callable[..., Any]):
        functools.update_wrapper(self, function)
        self.py_func = function
        self.compiled: Callable[..., Any] | None = None
        self.built: dict[tuple[str, ...] | None, Callable[..., Any] | None] = {}

    def __call__(self, *args: Any) -> Any:
        if self.compiled is None and _interpreted["depth"]:
            return self.py_func(*args)  # within an interpreted kernel: its own work
        function = self.ready(args)
        if function is None:
            elements = sum(arg.size for arg in args if isinstance(arg, np.ndarray))
            _interpreted["elements"] += elements + CALL_ELEMENTS
            if _interpreted["elements"] <= INTERPRETED_ELEMENTS:
                return _timed(self.py_func, args)
            function = self.compile(args)
        return function(*args)

    def ready(self, args: tuple[Any, ...]) -> Callable[..., Any] | None:
        """The compiled kernel for `args` if it costs no compiling: built ahead of time
        for their types, or the JIT's once numba is loaded."""
        types = ahead_of_time.argument_types(args)
        if types not in self.built:
            built = None if types is None else ahead_of_time.load(self._module_name(types))
            self.built[types] = built
        return self.built[types] or self.compiled

    def compile(self, args: tuple[Any, ...]) -> Callable[..., Any]:
        """The compiled kernel for `args`: built ahead of time now if it can be, else the
        JIT's, compiled for their types (the seconds it takes: `compile_seconds`)."""
        _compile_began()
        try:
            return self._compile(args)
        finally:
            _compile_ended()

    def _compile(self, args: tuple[Any, ...]) -> Callable[..., Any]:
        types = ahead_of_time.argument_types(args)
        if types is not None:
            self.built[types] = ahead_of_time.build(self.py_func, types, self._module_name(types))
        built = self.built.get(types)
        if built is not None:
            return built
        compile_kernels()
        from numba import typeof  # noqa: PLC0415

        assert self.compiled is not None
        self.compiled.compile(tuple(typeof(arg) for arg in args))  # type: ignore[attr-defined]
        return self.compiled

    def _module_name(self, types: tuple[str, ...]) -> str:
        return module_name_of(self, types)


def named(module: str, qualname: str) -> _Kernel:
    """The kernel `qualname` of `module`, imported."""
    importlib.import_module(module)
    for each in _kernels:
        if (each.py_func.__module__, each.py_func.__qualname__) == (module, qualname):
            return each
    raise LookupError(f"{module}.{qualname} is not a kernel")


def module_name_of(function: Callable[..., Any], types: tuple[str, ...]) -> str:
    """The name of the module `function`, a kernel, is built into for argument `types`."""
    assert isinstance(function, _Kernel)
    return ahead_of_time.module_name(function.py_func, types, _is_kernel)


def _is_kernel(value: Any) -> bool:
    return isinstance(value, _Kernel)


def interpreted(function: Callable[..., Any], *args: Any) -> Any:
    """`function`, a kernel not compiled yet, run as plain Python whatever the elements
    given so far: for a caller that prices its interpreted work itself (the search counts
    its steps)."""
    assert isinstance(function, _Kernel) and function.compiled is None
    return _timed(function.py_func, args)


def ready(function: Callable[..., Any], args: tuple[Any, ...]) -> Callable[..., Any] | None:
    """`function`, a kernel, compiled for `args` if that costs no compiling (`_Kernel.ready`):
    for a caller that runs it in plain Python otherwise."""
    assert isinstance(function, _Kernel)
    return function.ready(args)


def compiled(function: Callable[..., Any], args: tuple[Any, ...]) -> Callable[..., Any]:
    """`function`, a kernel, compiled for `args` now (`_Kernel.compile`)."""
    assert isinstance(function, _Kernel)
    return function.compile(args)


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
    """Wall seconds the process has spent building kernels ahead of time, compiling them
    with the JIT or loading them from numba's disk cache (17 CPU s for the placement
    kernels' JIT on a machine's first run): not the planning's work, so the time cap does
    not count them (`work.TimeCap`)."""
    return _compiling["seconds"]


def _compile_began() -> None:
    if not _compiling["depth"]:
        _compiling["began"] = time.perf_counter()
    _compiling["depth"] += 1


def _compile_ended() -> None:
    """The outermost compilations only count: a kernel's compilation compiles the kernels
    it calls within its own."""
    _compiling["depth"] -= 1
    if not _compiling["depth"]:
        _compiling["seconds"] += time.perf_counter() - _compiling["began"]


def _clock_compiles() -> None:
    """Adds the time numba holds its compiler lock to `compile_seconds`: it compiles a
    kernel, or loads it from the disk cache, under it, also when a JIT function is first
    called with new argument types."""
    from numba.core import event  # noqa: PLC0415

    class CompileClock(event.Listener):
        def on_start(self, _: event.Event) -> None:
            _compile_began()

        def on_end(self, _: event.Event) -> None:
            _compile_ended()

    event.register("numba:compiler_lock", CompileClock())


def compile_kernels() -> None:
    """Imports numba and compiles every kernel defined so far, once a process: each in
    the globals its module would have under `@njit` (`_jit_globals`)."""
    from numba import njit  # noqa: PLC0415

    if not _loaded["numba"]:
        _clock_compiles()
    _loaded["numba"] = True
    namespaces: dict[int, dict[str, Any]] = {}
    for each in _kernels:
        if each.compiled is None:
            module = each.py_func.__globals__
            namespace = namespaces.setdefault(id(module), dict(module))
            each.compiled = _jit(njit, _with_globals(each.py_func, namespace))
    for namespace in namespaces.values():
        for name, value in namespace.items():
            if isinstance(value, _Kernel):
                namespace[name] = value.compiled


def _with_globals(function: Callable[..., Any], namespace: dict[str, Any]) -> Any:
    """A copy of `function` that reads its globals from `namespace`."""
    code = function.__code__
    copy = types.FunctionType(
        code, namespace, code.co_name, function.__defaults__, function.__closure__
    )
    copy.__qualname__ = function.__qualname__
    copy.__kwdefaults__ = function.__kwdefaults__
    return copy


def _jit(njit: Callable[..., Any], function: Callable[..., Any]) -> Any:
    """`function` under numba's JIT, its compiled code kept in numba's disk cache where
    numba finds a directory to write (beside the source, or the user's cache): an
    installed package read-only and a read-only HOME leave it uncached, not failed."""
    try:
        return njit(cache=True)(function)
    except RuntimeError as error:  # "cannot cache function ...: no locator available"
        if "no locator available" not in str(error):
            raise
        return njit(function)
