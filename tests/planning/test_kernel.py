"""A planner kernel gives the same answers in plain Python (a small run's kernels, before
numba is loaded) as compiled; arguments are typed for a build ahead of time as numba's JIT
types them."""

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
            for name, value in list(each.py_func.__globals__.items()):
                if value is each.compiled:
                    patch.setitem(each.py_func.__globals__, name, each)
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
