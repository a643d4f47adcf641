"""The validator's interval sweep (used when the conflict lists are not built, as for
large traces) accepts and rejects exactly the plans the conflict-list check does."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from problems import intervals_problem

from usmp_dialect.planning.problem import Conflicts, Intervals, Plan, PoolSpec, Problem
from usmp_dialect.planning.validator import validate


@st.composite
def planned_instances(draw):
    n = draw(st.integers(1, 12))
    owners = list(range(n)) + draw(st.lists(st.integers(0, n - 1), max_size=4))
    starts = [draw(st.integers(0, 20)) for _ in owners]
    ends = [s + draw(st.integers(1, 8)) for s in starts]
    sizes = np.array([draw(st.integers(0, 16)) for _ in range(n)], dtype=np.int64)
    pools = draw(st.integers(1, 2))
    pool = np.array([draw(st.integers(0, pools - 1)) for _ in range(n)], dtype=np.int64)
    offset = np.array([draw(st.integers(0, 40)) for _ in range(n)], dtype=np.int64)
    intervals = Intervals.from_lists(owners, starts, ends)
    return n, sizes, pools, pool, offset, intervals


def _problem(n, sizes, pools, intervals, conflicts) -> Problem:
    return intervals_problem(
        intervals,
        sizes,
        conflicts=conflicts,
        pools=[PoolSpec(f"p{i}") for i in range(pools)],
        candidates=[tuple(range(pools))] * n,
    )


def _lists(n: int, intervals: Intervals) -> Conflicts:
    """Conflict lists by brute force over every pair of intervals."""
    lists: list[set[int]] = [set() for _ in range(n)]
    owner, start, end = intervals.owner, intervals.start, intervals.end
    for i in range(len(owner)):
        for j in range(len(owner)):
            if owner[i] != owner[j] and start[i] < end[j] and start[j] < end[i]:
                lists[owner[i]].add(int(owner[j]))
    return Conflicts.from_lists([sorted(x) for x in lists])


@settings(max_examples=300, deadline=None)
@given(planned_instances())
def test_interval_sweep_agrees_with_conflict_lists(instance):
    n, sizes, pools, pool, offset, intervals = instance
    plan = Plan(pool=pool, offset=offset)
    lazy = Conflicts.lazy(lambda: _lists(n, intervals))
    swept = validate(_problem(n, sizes, pools, intervals, lazy), plan)
    assert not lazy.is_built
    listed = validate(_problem(n, sizes, pools, intervals, _lists(n, intervals)), plan)
    assert bool(swept) == bool(listed)
