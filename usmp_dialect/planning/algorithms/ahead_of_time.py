"""Planner kernels compiled ahead of time: numba's `pycc` turns a kernel (with every kernel
it calls) into a Python extension module for the argument types it was called with, once
per user, and later processes load that module in about a millisecond.

Loading numba and its cached JIT kernels costs about 0.33 CPU s, more than MiniMalloc's
whole run on small instances (K, resnet50); an extension module built by `pycc` needs no
numba to load or run. It is the same Python function compiled by the same compiler, so the
plans do not depend on which of plain Python, the JIT or the built module ran.

A module is built at a kernel's first compiled call for argument types not built yet, in
a child process (`build_kernel`: numba's `pycc` and the C compiler), into
`cache_directory()`; its name is a digest of everything the compiled code depends on: the
kernel's name, the argument types, the sources of the modules whose kernels it may call,
the constants those modules hold, Python's and numpy's versions. Processes that need the
same module at once take turns on a lock, so one builds it and the others load it. A
build that fails (no C compiler, no writable cache) leaves a note beside where the module
would be, and that kernel runs under numba's JIT, as without this module, until the note
is a day old (the cause may be gone: a compiler installed, a full disk emptied). Each
module is kept with its digest, checked before it is loaded: a damaged module (a disk's
error, a copy cut short) is never loaded, where it could crash the process, but built again.
A build
that was killed, or that takes or waits longer than `BUILD_SECONDS`, leaves no note: the
kernel runs under the JIT this time, and the next process tries again.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

CACHE_VARIABLE = "USMP_KERNEL_CACHE"
"""The environment variable naming the directory of built kernels, when not the default."""

EXPORT = "kernel"
"""The name of the kernel in its built module."""

_BUILDER = "usmp_dialect.planning.algorithms.build_kernel"
"""The module the child process that builds a kernel runs."""

BUILD_SECONDS = 600.0
"""The longest a process builds a kernel, or waits for another's build, before it leaves
the kernel to the JIT (a build takes 10-20 s; a compiler that hangs must not)."""

RETRY_SECONDS = 24 * 3600.0
"""How long a failed build's note keeps a kernel under the JIT before a build is tried again."""

_SCALARS = {bool: "boolean", np.bool_: "boolean", int: "int64", np.int64: "int64"}
_SCALARS |= {float: "float64", np.float64: "float64"}

_NUMBERS = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")
_ELEMENTS = {np.dtype(bool): "boolean"} | {
    np.dtype(kind): kind for kind in (*_NUMBERS, "float32", "float64")
}
"""numba's names of the array elements built ahead of time (`dtype.name` costs 20 us)."""


def argument_types(args: Sequence[Any]) -> tuple[str, ...] | None:
    """numba's names of the types of `args`, as its JIT would type them (C-contiguous
    arrays as `[::1]`), or `None` when an argument is of a type not built ahead of time."""
    types = []
    for arg in args:
        if isinstance(arg, np.ndarray):
            element = _ELEMENTS.get(arg.dtype)
            if element is None or not arg.flags.writeable:
                return None
            layout = "::1" if arg.flags.c_contiguous else ":"
            types.append(f"{element}[{', '.join([':'] * (arg.ndim - 1) + [layout])}]")
        else:
            scalar = _SCALARS.get(type(arg))
            if scalar is None:
                return None
            types.append(scalar)
    return tuple(types)


def cache_directory() -> Path:
    """Where built kernels are kept: `$USMP_KERNEL_CACHE`, else the user's cache."""
    if chosen := os.environ.get(CACHE_VARIABLE):
        return Path(chosen).absolute()  # the builder runs in another directory
    cache = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(cache).absolute() / "usmp_dialect" / "kernels"


def _closure(function: Callable[..., Any], is_kernel: Callable[[Any], bool]) -> list[dict]:
    """The globals of `function`'s module and of every module whose kernels it may call."""
    seen: dict[int, dict] = {}
    todo = [function.__globals__]
    while todo:
        namespace = todo.pop()
        if id(namespace) in seen:
            continue
        seen[id(namespace)] = namespace
        todo.extend(v.py_func.__globals__ for v in namespace.values() if is_kernel(v))
    return sorted(seen.values(), key=lambda namespace: namespace["__name__"])


def module_name(
    function: Callable[..., Any], types: tuple[str, ...], is_kernel: Callable[[Any], bool]
) -> str:
    """The built module's name: a digest of all the compiled code depends on."""
    digest = hashlib.blake2b(digest_size=12)
    parts = [function.__module__, function.__qualname__, *types, sys.version, np.__version__]
    digest.update("\n".join(parts).encode())
    for namespace in _closure(function, is_kernel):
        digest.update(Path(namespace["__file__"]).read_bytes())
        constants = sorted(
            (name, repr(value))
            for name, value in namespace.items()
            if isinstance(value, (int, float, np.integer, np.floating))
        )
        digest.update(repr(constants).encode())
    return "usmp_kernel_" + digest.hexdigest()


def _path(name: str) -> Path:
    return cache_directory() / (name + importlib.machinery.EXTENSION_SUFFIXES[0])


def _failure_note(name: str) -> Path:
    return cache_directory() / (name + ".failed")


def _digest_file(name: str) -> Path:
    return cache_directory() / (name + ".blake2b")


def _digest(path: Path) -> str:
    return hashlib.blake2b(path.read_bytes(), digest_size=16).hexdigest()


def _intact(name: str) -> bool:
    """Whether the built module `name` is there with the bytes its build wrote."""
    try:
        return _digest_file(name).read_text() == _digest(_path(name))
    except (OSError, UnicodeDecodeError):
        return False


def load(name: str) -> Callable[..., Any] | None:
    """The kernel of the built module `name`, or `None` when it has not been built, is
    damaged (its bytes are not those built) or cannot be loaded (a system library gone)."""
    path = _path(name)
    if not _intact(name):
        return None
    try:
        return getattr(_import(name, path), EXPORT)
    except (ImportError, OSError):
        return None


def _import(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def build(function: Callable[..., Any], types: tuple[str, ...], name: str) -> Callable | None:
    """The kernel `function` built for `types` as the module `name` (see the module's
    docstring), or `None` when it cannot be built here, now or in the last day."""
    try:
        # What only a build needs is imported by it: about 20 ms a run otherwise.
        import fcntl  # noqa: PLC0415
        import time  # noqa: PLC0415

        cache_directory().mkdir(parents=True, exist_ok=True)
        with open(cache_directory() / (name + ".lock"), "w") as lock:
            if not _locked(lock, fcntl, time.monotonic() + BUILD_SECONDS):
                return None  # another process's build hangs
            note = _failure_note(name)
            if note.exists() and time.time() - note.stat().st_mtime < RETRY_SECONDS:
                return None
            if not _intact(name):
                _build_in_child(function, types, name)
    except (OSError, ImportError):  # no writable cache, or no file locks (Windows)
        return None
    return load(name)


def _locked(lock: Any, fcntl: ModuleType, deadline: float) -> bool:
    """Whether `lock` was taken before `deadline` (`time.monotonic`)."""
    import time  # noqa: PLC0415

    while True:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:  # another process is building it
            if time.monotonic() > deadline:
                return False
            time.sleep(0.05)


def _build_in_child(function: Callable[..., Any], types: tuple[str, ...], name: str) -> None:
    import shlex  # noqa: PLC0415
    import shutil  # noqa: PLC0415
    import subprocess  # noqa: PLC0415
    import sysconfig  # noqa: PLC0415
    import tempfile  # noqa: PLC0415

    compiler = shlex.split(os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc")
    if not compiler or shutil.which(compiler[0]) is None:
        _failure_note(name).write_text(f"no C compiler: {' '.join(compiler)}\n")
        return
    with tempfile.TemporaryDirectory(dir=cache_directory()) as staging:
        argv = [function.__module__, function.__qualname__, name, staging, *types]
        # From the directory holding this package, so that the child compiles the same
        # sources (`build_kernel` checks their digest) whatever the user's directory holds.
        package = Path(sys.modules[__package__.partition(".")[0]].__file__ or "").parent
        try:
            done = subprocess.run(
                [sys.executable, "-m", _BUILDER, *argv],
                capture_output=True,
                cwd=package.parent,
                timeout=BUILD_SECONDS,
            )
        except subprocess.TimeoutExpired:
            return
        if done.returncode < 0:
            return  # killed (the out-of-memory killer, a signal): worth another try
        built = Path(staging) / _path(name).name
        if done.returncode or not built.exists():
            output = done.stdout + done.stderr
            _failure_note(name).write_text(output.decode("utf-8", "replace"))
            return
        _digest_file(name).write_text(_digest(built))
        os.replace(built, _path(name))
