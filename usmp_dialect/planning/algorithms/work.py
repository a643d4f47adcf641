"""Work budgets, and the time limit as a safety cap.

A compiler gives the same output for the same input, so no algorithm stops on the clock:
each allots itself work (greedy placements of every buffer, climb rounds, search nodes) as
a function of the problem alone and of `Budget.effort`. Budgets are written in *reference
seconds*: what the work takes on the 2-core machine the project's benchmarks run on, by
the cost models below, fitted there to the CPU time of the placement (MiniMalloc's A, D, K,
resnet50, G_1, pangu_2.6B, S_1, Y_1) and of the search (A-K: 3.4-6.1 ns a step) on the
shared benchmark instances. The same problem and effort do the same work on any machine,
in about those seconds on that one.

The user's time limit stays, as a cap for a machine far slower than that: when it ends
work the budget still allowed, the plan is `time_capped`, the one case where the plan may
differ between runs.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from usmp_dialect.planning.algorithms.kernel import compile_seconds
from usmp_dialect.planning.algorithms.placement import Geometry
from usmp_dialect.planning.budget import SearchProgress
from usmp_dialect.planning.problem import Plan, Problem

PLACEMENT_SECONDS_PER_BUFFER = 57e-6
"""One placement step from conflict lists (a few numpy calls), whatever the problem."""
PLACEMENT_SECONDS_PER_PAIR = 62e-9
"""Each pair of conflicting buffers: read, sorted and skipped over in those placements."""
SPAN_PLACEMENT_SECONDS_PER_BUFFER = 12e-6
"""One placement step in the segment tree of spans (`placement_kernel`): fitted to the CPU
time of six portfolio orders on A, D, resnet50, G_1, pangu_2.6B, S_1, Y_1 and random
instances (most within 35 %, none more than 2x slower)."""
SPAN_PLACEMENT_SECONDS_PER_PAIR = 2.5e-9
"""Each conflicting pair there: more live buffers, more gaps to pass."""
SPAN_PLACEMENT_SECONDS_PER_STEP = 22e-9
"""One step of a gap search in the segment tree of spans (`placement_kernel`: an interval
passed, its replay in the sets' loser tree included). Dense traces (a third of the buffers
live at once) cost far more than their pairs say (1800 steps a buffer at 16k under best
fit, 6800 at 64k, where sparse traces of as many pairs take 200-400; 2100 at 64k and 5600
at 256k comparing the lowest 64 fitting gaps, `BEST_FIT_GAPS`), and only the kernel's count
tells them apart; the count is part of the work, the same on every run."""
SPAN_PLACEMENT_SECONDS_PER_WRITE = 330e-9
"""One set of the segment tree a placed buffer is written to (a merge, and a move of the
intervals on its shorter side: the `occupied` sets of dense traces hold thousands). Fitted
with the step's price to best- and first-fit orders of dense 16k and 64k traces, the writes
alone timed by placing the same offsets pinned: a write took 210-260 ns at 16k and 350-400
at 64k (the sets grow with the trace; 400-450 when a write moved the set's tail), so the
64k orders come a few % over the two prices and the 16k ones 10-35 % under; a price of
400 ns would lift random 16k and 64k traces' first orders over the model's price, and so
cut their budgets."""
SKYLINE_SECONDS_PER_LOOKUP = 0.5e-6
"""One skyline lookup of a bottom-up dive (`skyline`): a range maximum, a heap step and,
for a placement, a range raise (0.44-0.56 us on random 64k-buffer traces, 1.7M lookups a
dive)."""
REPAIR_SECONDS_PER_MEMBER = 4.0e-6
"""One buffer placed again in a repair window in a portfolio order (`repair`): windows are
small problems of their own, so a member costs a third of a buffer of a whole placement
(3.3-4.4 us on random 64k-buffer traces)."""
REPAIR_SECONDS_PER_LOOKUP = 1.4e-6
"""One gap lookup of a repair window's dive (`repair`, `window_dive`), building the
windows included: 1.4 us on random 64k-buffer traces (about 25 lookups a member)."""
REPAIR_SECONDS_PER_ENTRY = 0.7e-9
"""One conflict list entry built, read or moved in a repair window's dive (`window_dive`):
0.71 ns, and 0.77 us the rest of a lookup, fitted to windows of 719 buffers meeting 580
others each (65000 entries a lookup) and to random 64k-buffer traces (900). A lookup's
price covers the entries of 2000 at this price, and a dive pays for its entries instead
when they come to more."""
SEARCH_STEP_SECONDS = 4.5e-9
"""One step of the branch and bound (`search_kernel`: a list entry, section or conflict
scanned, a trail entry undone)."""


def placement_seconds(problem: Problem, geometry: Geometry) -> float:
    """Reference seconds of placing every buffer once (one greedy order or climb round)."""
    pairs = float(geometry.degree.sum()) / 2
    if geometry.has_spans:
        return (
            problem.num_buffers * SPAN_PLACEMENT_SECONDS_PER_BUFFER
            + pairs * SPAN_PLACEMENT_SECONDS_PER_PAIR
        )
    return problem.num_buffers * PLACEMENT_SECONDS_PER_BUFFER + pairs * PLACEMENT_SECONDS_PER_PAIR


def placement_seconds_measured(problem: Problem, geometry: Geometry, plan: Plan) -> float:
    """Reference seconds of a placement of every buffer like `plan`, from the work its
    kernel counted (`placement_steps`, `placement_writes`), never less than the model's
    (`placement_seconds`)."""
    steps = plan.notes.get("placement_steps", 0)
    writes = plan.notes.get("placement_writes", 0)
    assert isinstance(steps, int) and isinstance(writes, int)
    counted = steps * SPAN_PLACEMENT_SECONDS_PER_STEP + writes * SPAN_PLACEMENT_SECONDS_PER_WRITE
    return max(placement_seconds(problem, geometry), counted)


def placements_in(seconds: float, problem: Problem, geometry: Geometry) -> int:
    """How many placements of every buffer `seconds` reference seconds buy."""
    return int(seconds / max(placement_seconds(problem, geometry), 1e-9))


def repair_lookups_in(placements: float, problem: Problem, geometry: Geometry) -> int:
    """How many repair lookups `placements` whole placements' worth of work buys."""
    seconds = placements * placement_seconds(problem, geometry)
    return max(int(seconds / REPAIR_SECONDS_PER_LOOKUP), 0)


PROGRESS_INTERVAL = 0.2
"""Seconds between two calls of a caller's progress callback (`TimeCap.report`)."""


@dataclass
class TimeCap:
    """The user's time limit. Ask `reached()` only where the work budget would go on, so
    that `hit` means the cap, not the budget, ended the work. Seconds spent compiling
    kernels (`kernel.compile_seconds`) do not count: a machine's first run compiles for
    longer than most plans take.

    Work looks at the cap every few milliseconds, so the caller's `progress` callback, if
    any, is called from there (every `PROGRESS_INTERVAL` seconds) with what the work last
    `report`ed."""

    deadline: float
    hit: bool = False
    progress: Callable[[SearchProgress], None] | None = None
    started: float = field(default_factory=time.perf_counter)
    best: int | None = None
    bound: int | None = None
    shown: float = 0.0
    compiled: float = field(default_factory=compile_seconds)
    """`compile_seconds()` when the cap was set."""

    @classmethod
    def after(
        cls, seconds: float, progress: Callable[[SearchProgress], None] | None = None
    ) -> TimeCap:
        return cls(time.perf_counter() + seconds, progress=progress)

    def reached(self) -> bool:
        now = time.perf_counter()
        if self.progress is not None and now - self.shown >= PROGRESS_INTERVAL:
            self.shown = now
            self.progress(SearchProgress(now - self.started, self.best, self.bound))
        if not self.hit and now - (compile_seconds() - self.compiled) > self.deadline:
            self.hit = True
        return self.hit

    def report(self, best: int, bound: int) -> None:
        """The best plan's size and the proven bound of the pool being searched; the first
        report is passed on at once (a search may end before the next interval)."""
        first = self.best is None
        self.best, self.bound = best, bound
        if first and self.progress is not None:
            now = time.perf_counter()
            self.shown = now
            self.progress(SearchProgress(now - self.started, best, bound))
