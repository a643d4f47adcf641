"""A planner kernel gives the same answers in plain Python (a small run's kernels, before
numba is loaded) as compiled; arguments are typed for a build ahead of time as numba's JIT
types them."""

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_placement import span_problems

from usmp_dialect.planning.algorithms import ahead_of_time, build_kernel, kernel
from usmp_dialect.planning.algorithms.placement import Fit, geometry_of, place_in_order
from usmp_dialect.planning.algorithms.skyline import DIVE_KEYS, dive
from usmp_dialect.planning.algorithms.window_dive import place_lowest_first
from usmp_dialect.planning.problem import PlanningError


def interpreted(function):
    """`function()` with every kernel in plain Python, and compiled."""
    kernel.compile_kernels()
    compiled = function()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(kernel, "INTERPRETED_ELEMENTS", np.inf)
        patch.setattr(ahead_of_time, "load", lambda name: None)
        for each in kernel._kernels:
            patch.setattr(each, "compiled", None)
            patch.setattr(each, "built", {})
        python = function()
    return python, compiled


def _outcome(function):
    try:
        plan = function()
    except PlanningError as error:
        return str(error)
    return plan.pool.tolist(), plan.offset.tolist()


def _dived(problem, geometry, key):
    plan, lookups = dive(problem, geometry, key, 10_000)
    return lookups, None if plan is None else (plan.pool.tolist(), plan.offset.tolist())


@settings(max_examples=40, deadline=None)
@given(span_problems(), st.sampled_from(list(Fit)), st.sampled_from(list(DIVE_KEYS)))
def test_plain_python_kernels_place_as_the_compiled_ones(instance, fit, key):
    problem, order = instance
    geometry = geometry_of(problem)
    python, compiled = interpreted(
        lambda: (
            _outcome(lambda: place_in_order(problem, geometry, order, fit)),
            _dived(problem, geometry, key),
        )
    )
    assert python == compiled


@settings(max_examples=40, deadline=None)
@given(span_problems())
def test_plain_python_window_dive_equals_the_compiled_one(instance):
    problem, order = instance
    start, end = geometry_of(problem).spans
    n = problem.num_buffers
    pinned = np.where(order % 3 == 0, 64 * np.arange(n), -1).astype(np.int64)
    arguments = (
        start.astype(np.int64),
        end.astype(np.int64),
        np.asarray(problem.sizes, dtype=np.int64),
        np.maximum(np.asarray(problem.alignments, dtype=np.int64), 1),
        order.astype(np.int64),
        pinned,
        np.int64(10_000),
        np.int64(10**9),
        np.int64(2000),
    )
    python, compiled = interpreted(
        lambda: [np.asarray(a).tolist() for a in place_lowest_first(*arguments)]
    )
    assert python == compiled


def test_arguments_are_typed_as_the_jit_types_them():
    grid = np.zeros((3, 4), dtype=np.int64)
    types = ahead_of_time.argument_types((grid, grid[:, 1], np.zeros(2, np.uint8), 3, True, 0.5))
    assert types == ("int64[:, ::1]", "int64[:]", "uint8[::1]", "int64", "boolean", "float64")


def test_read_only_and_other_arguments_are_left_to_the_jit():
    frozen = np.zeros(3, dtype=np.int64)
    frozen.flags.writeable = False
    assert ahead_of_time.argument_types((frozen,)) is None
    assert ahead_of_time.argument_types(("text",)) is None


def test_a_build_refuses_sources_other_than_those_its_name_digests(tmp_path):
    """The child that builds a kernel compiles what it imports: were that another copy of
    the package, its module would be kept under the digest of the sources asked for."""
    with pytest.raises(SystemExit, match="differ from those asked for"):
        build_kernel.build(
            "usmp_dialect.planning.algorithms.search_kernel",
            "run",
            "usmp_kernel_of_other_sources",
            str(tmp_path),
            ("int64",),
        )
    assert list(tmp_path.iterdir()) == []


def _failing_builds(monkeypatch, tmp_path, completed):
    """Builds in a cache of `tmp_path` whose child process ends as `completed()` does;
    the names of the modules each build was asked for."""
    import subprocess

    monkeypatch.setenv(ahead_of_time.CACHE_VARIABLE, str(tmp_path))
    monkeypatch.setattr(subprocess, "run", lambda *args, **kwargs: completed(*args))
    return lambda name: ahead_of_time.build(lambda: None, ("int64",), name)


def test_a_failed_build_keeps_the_kernel_under_the_jit_for_a_day_then_is_tried_again(
    monkeypatch, tmp_path
):
    import os
    import subprocess

    children = []

    def compiler_error(args):
        children.append(args)
        return subprocess.CompletedProcess(args, 1, b"", b"error: \xff no Python.h")

    build = _failing_builds(monkeypatch, tmp_path, compiler_error)
    assert build("usmp_kernel_x") is None
    note = tmp_path / "usmp_kernel_x.failed"
    assert "no Python.h" in note.read_text()
    assert build("usmp_kernel_x") is None and len(children) == 1  # the note holds
    a_day_ago = note.stat().st_mtime - ahead_of_time.RETRY_SECONDS - 1
    os.utime(note, (a_day_ago, a_day_ago))
    assert build("usmp_kernel_x") is None and len(children) == 2  # tried again


@pytest.mark.parametrize("ending", ["killed", "hung"])
def test_a_build_killed_or_hung_leaves_no_note(monkeypatch, tmp_path, ending):
    """The out-of-memory killer or a hanging compiler says nothing of the next try."""
    import subprocess

    def child(args):
        if ending == "hung":
            raise subprocess.TimeoutExpired(args, ahead_of_time.BUILD_SECONDS)
        return subprocess.CompletedProcess(args, -9, b"", b"")

    assert _failing_builds(monkeypatch, tmp_path, child)("usmp_kernel_y") is None
    assert not list(tmp_path.glob("*.failed"))


def test_a_relative_cache_is_the_users_directory_wherever_the_builder_runs(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(ahead_of_time.CACHE_VARIABLE, "kernels")
    assert ahead_of_time.cache_directory() == tmp_path / "kernels"


def _child_writing(module_bytes: bytes, seconds: float = 0.0):
    """A build's child process that writes `module_bytes` as the built module (after
    `seconds`): the calls it got."""
    import subprocess
    import time

    calls = []

    def child(args):
        calls.append(args)
        time.sleep(seconds)
        name, staging = args[5], args[6]
        (Path(staging) / ahead_of_time._path(name).name).write_bytes(module_bytes)
        return subprocess.CompletedProcess(args, 0, b"", b"")

    return child, calls


def _loads(monkeypatch):
    """Loading a module gives its bytes, read where the import would read them."""
    from types import SimpleNamespace

    monkeypatch.setattr(
        ahead_of_time, "_import", lambda name, path: SimpleNamespace(kernel=path.read_bytes())
    )


@pytest.mark.parametrize("damage", ["flipped", "truncated", "empty", "digest lost"])
def test_a_damaged_built_module_is_never_loaded_but_built_again(monkeypatch, tmp_path, damage):
    """A module whose bytes are not those its build wrote (it could crash the process
    that loads it) is left to the JIT, and the next build replaces it."""
    child, calls = _child_writing(b"\x7fELF module")
    build = _failing_builds(monkeypatch, tmp_path, child)
    _loads(monkeypatch)
    assert build("usmp_kernel_z") == b"\x7fELF module"
    module = tmp_path / ahead_of_time._path("usmp_kernel_z").name
    match damage:
        case "flipped":
            module.write_bytes(b"\x7fELF modulE")
        case "truncated":
            module.write_bytes(b"\x7fELF")
        case "empty":
            module.write_bytes(b"")
        case "digest lost":
            (tmp_path / "usmp_kernel_z.blake2b").unlink()
    assert ahead_of_time.load("usmp_kernel_z") is None
    assert build("usmp_kernel_z") == b"\x7fELF module" and len(calls) == 2
    assert ahead_of_time.load("usmp_kernel_z") == b"\x7fELF module"


def test_two_processes_building_at_once_build_once(monkeypatch, tmp_path):
    """Two builds of one module at once (threads hold the lock as processes do): one
    builds, the other waits and loads what it built."""
    from concurrent.futures import ThreadPoolExecutor

    child, calls = _child_writing(b"built", seconds=0.5)
    build = _failing_builds(monkeypatch, tmp_path, child)
    _loads(monkeypatch)
    with ThreadPoolExecutor(2) as pool:
        results = list(pool.map(build, ["usmp_kernel_w", "usmp_kernel_w"]))
    assert results == [b"built", b"built"] and len(calls) == 1


@pytest.mark.parametrize("cache", ["a file", "under a file"])
def test_a_cache_that_cannot_be_a_directory_leaves_the_kernel_to_the_jit(
    monkeypatch, tmp_path, cache
):
    file = tmp_path / "file"
    file.write_text("kept\n")
    child, calls = _child_writing(b"built")
    build = _failing_builds(monkeypatch, tmp_path, child)
    monkeypatch.setenv(ahead_of_time.CACHE_VARIABLE, str(file if cache == "a file" else file / "k"))
    assert build("usmp_kernel_v") is None and calls == []
    assert file.read_text() == "kept\n"


def test_without_a_writable_cache_for_numba_the_jit_runs_uncached(monkeypatch):
    """A package installed read-only and a read-only HOME: numba finds nowhere to cache
    (it raises 'no locator available' for `cache=True`); the kernel compiles uncached."""
    from numba import njit
    from numba.core import caching

    monkeypatch.setattr(caching.CacheImpl, "_locator_classes", [])

    def twice(x):
        return 2 * x

    assert kernel._jit(njit, twice)(21) == 42
