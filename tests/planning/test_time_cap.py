"""The time limit is a safety cap: where the work budget ends the work, a slow clock (a slow
or busy machine) changes nothing, and compiling the kernels is not the planning's time.
The clocks here are fakes: nothing is timed."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from problems import interval_problem

from usmp_dialect.planning.algorithms import kernel, work
from usmp_dialect.planning.algorithms.canonical_search import MAX_SEARCH_BUFFERS
from usmp_dialect.planning.algorithms.work import TimeCap
from usmp_dialect.planning.registry import Budget, get_algorithm


class LeapingClock:
    """A clock that moves `leap` seconds at every reading: with a leap past the time
    limit, every question to the cap after the first reading finds it passed."""

    def __init__(self, leap: float):
        self.now = 0.0
        self.leap = leap

    def perf_counter(self) -> float:
        self.now += self.leap
        return self.now


def dense_problem(n: int, seed: int):
    """`n` buffers live between two random times of `[0, n)` (about a third live at once)."""
    rng = np.random.default_rng(seed)
    ends = np.sort(rng.integers(0, n, (n, 2)), axis=1)
    spans = [(int(start), int(end) + 1) for start, end in ends]
    return interval_problem(spans, rng.integers(1, 1 << 16, n).tolist())


def test_a_plan_whose_budget_the_first_order_spends_does_not_depend_on_the_clock(monkeypatch):
    """A large dense trace whose work budget buys no more than its first order (as a dense
    256k trace's does by default, whose order takes 40 CPU s) gets the same plan when
    every reading of the clock is past the time limit: it never asks the clock."""
    problem = dense_problem(MAX_SEARCH_BUFFERS + 500, seed=3)
    budget = Budget(time_limit=60.0, effort=0.01)
    at_rest = get_algorithm("default")(problem, budget)
    monkeypatch.setattr(work, "time", LeapingClock(leap=1000.0))
    slow = get_algorithm("default")(problem, budget)
    assert not at_rest.time_capped and not slow.time_capped
    assert slow.pool.tolist() == at_rest.pool.tolist()
    assert slow.offset.tolist() == at_rest.offset.tolist()


def test_compiling_kernels_does_not_count_against_the_time_cap(monkeypatch):
    clock = LeapingClock(leap=0.0)
    monkeypatch.setattr(work, "time", clock)
    monkeypatch.setitem(kernel._compiling, "seconds", 5.0)
    cap = TimeCap.after(60.0)
    # A first run on a machine compiles the kernels for longer than the limit.
    clock.now += 100.0
    kernel._compiling["seconds"] += 100.0
    assert not cap.reached()
    clock.now += 61.0
    assert cap.reached()
    assert cap.hit


def test_compiling_a_kernel_is_clocked():
    """`compile_seconds` follows numba's compilations (here a load from its disk cache at
    least), in a process of its own: the tests' process may run the kernels in Python."""
    script = (
        "from usmp_dialect.planning.algorithms import kernel, placement_kernel\n"
        "before = kernel.compile_seconds()\n"
        "kernel.compile_kernels()\n"
        "assert placement_kernel._align_up(5, 4) == 8\n"
        "print(before, kernel.compile_seconds())\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    before, after = map(float, result.stdout.split())
    assert before == 0.0
    assert after > 0.0


@pytest.mark.parametrize("seed", [0, 1])
def test_a_fake_slow_clock_between_orders_is_said(monkeypatch, seed):
    """Where the budget would run more orders, a clock past the limit stops them and the
    plan says so (`time_capped`): the cap still works."""
    problem = dense_problem(MAX_SEARCH_BUFFERS + 500, seed)
    monkeypatch.setattr(work, "time", LeapingClock(leap=1000.0))
    plan = get_algorithm("default")(problem, Budget(time_limit=60.0))
    assert plan.time_capped
