"""Conflicts and max-live from intervals against brute force."""

from itertools import combinations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from problems import ONE_POOL, intervals_problem

from usmp_dialect.planning.conflicts import (
    conflicts_from_intervals,
    live_at_peak,
    max_live,
    max_live_by_group,
    max_live_of,
    max_live_per_pool,
)
from usmp_dialect.planning.problem import (
    Conflicts,
    Intervals,
    Plan,
    PoolSpec,
    Problem,
    unique_values,
)

# Several intervals per buffer, some empty or inverted, many sharing end points.
interval_sets = st.integers(1, 12).flatmap(
    lambda n: st.tuples(
        st.just(n),
        st.lists(
            st.tuples(st.integers(0, n - 1), st.integers(0, 15), st.integers(-2, 8)),
            max_size=30,
        ),
    )
)


def intervals_of(rows) -> Intervals:
    return Intervals.from_lists(
        [owner for owner, _, _ in rows],
        [start for _, start, _ in rows],
        [start + length for _, start, length in rows],
    )


def overlap(a, b) -> bool:
    (_, start_a, length_a), (_, start_b, length_b) = a, b
    return max(start_a, start_b) < min(start_a + length_a, start_b + length_b)


def brute_conflicts(n, rows) -> list[list[int]]:
    conflicting = [set() for _ in range(n)]
    for a, b in combinations(rows, 2):
        if a[0] != b[0] and overlap(a, b):
            conflicting[a[0]].add(b[0])
            conflicting[b[0]].add(a[0])
    return [sorted(c) for c in conflicting]


def brute_max_live(rows, sizes) -> int:
    best = max(sizes, default=0)
    for time in range(25):
        live = {o for o, start, length in rows if start <= time < start + length}
        best = max(best, sum(sizes[b] for b in live))
    return best


def problem_of(rows, sizes, pools=ONE_POOL):
    return intervals_problem(intervals_of(rows), sizes, pools=pools)


@settings(max_examples=300, deadline=None)
@given(interval_sets)
def test_sweep_matches_brute_force(case):
    n, rows = case
    conflicts = conflicts_from_intervals(intervals_of(rows), n)
    assert [conflicts.of(b).tolist() for b in range(n)] == brute_conflicts(n, rows)


def test_touching_intervals_do_not_conflict():
    conflicts = conflicts_from_intervals(Intervals.from_lists([0, 1, 2], [0, 5, 4], [5, 9, 6]), 3)
    assert [conflicts.of(b).tolist() for b in range(3)] == [[2], [2], [0, 1]]


@settings(max_examples=300, deadline=None)
@given(interval_sets, st.data())
def test_max_live_matches_brute_force(case, data):
    n, rows = case
    sizes = data.draw(st.lists(st.integers(0, 100), min_size=n, max_size=n))
    assert max_live(problem_of(rows, sizes)) == brute_max_live(rows, sizes)


@settings(max_examples=100, deadline=None)
@given(interval_sets, st.data())
def test_max_live_per_pool_counts_each_pools_buffers(case, data):
    n, rows = case
    sizes = data.draw(st.lists(st.integers(0, 100), min_size=n, max_size=n))
    assigned = data.draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    problem = problem_of(rows, sizes, pools=(PoolSpec("a"), PoolSpec("b")))
    plan = Plan(np.asarray(assigned), np.zeros(n, dtype=np.int64))
    expected = [
        brute_max_live(
            [r for r in rows if assigned[r[0]] == pool],
            [s if assigned[b] == pool else 0 for b, s in enumerate(sizes)],
        )
        if pool in assigned
        else 0
        for pool in (0, 1)
    ]
    assert max_live_per_pool(problem, plan).tolist() == expected


@settings(max_examples=100, deadline=None)
@given(interval_sets, st.data())
def test_max_live_by_group_is_max_live_of_each_group(case, data):
    """Groups sharing buffers, one sweep: as if each group's buffers were alone."""
    n, rows = case
    sizes = data.draw(st.lists(st.integers(0, 100), min_size=n, max_size=n))
    pairs = data.draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, 2)), unique=True))
    problem = problem_of(rows, sizes)
    buffers = np.array([b for b, _ in pairs], dtype=np.int64)
    groups = np.array([g for _, g in pairs], dtype=np.int64)
    expected = []
    for group in range(3):
        members = buffers[groups == group]
        only = np.zeros(n, dtype=np.int64)
        only[members] = np.asarray(sizes)[members]
        expected.append(max_live_of(problem, only) if len(members) else 0)
    assert max_live_by_group(problem, buffers, groups, 3).tolist() == expected


def test_live_at_peak_names_the_buffers_of_the_busiest_time():
    problem = problem_of([(0, 0, 4), (1, 3, 3), (2, 5, 2), (3, 0, 2)], [10, 10, 30, 5])
    assert live_at_peak(problem, np.arange(4)).tolist() == [1, 2]
    assert live_at_peak(problem, np.array([0, 1, 3])).tolist() == [0, 1]


def heaviest_clique(lists, sizes) -> int:
    n = len(sizes)
    edges = {(a, b) for a in range(n) for b in lists[a]} | {
        (b, a) for a in range(n) for b in lists[a]
    }
    return max(
        sum(sizes[b] for b in members)
        for k in range(1, n + 1)
        for members in combinations(range(n), k)
        if all((a, b) in edges for a, b in combinations(members, 2))
    )


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 8).flatmap(
        lambda n: st.tuples(
            st.lists(st.lists(st.integers(0, n - 1), max_size=n), min_size=n, max_size=n),
            st.lists(st.integers(0, 50), min_size=n, max_size=n),
        )
    )
)
def test_max_live_without_intervals_is_a_clique_bound(case):
    """Any clique's weight is a lower bound on every plan; the greedy one found lies
    between the heaviest buffer and the heaviest clique."""
    lists, sizes = case
    problem = Problem(
        names=tuple(f"b{i}" for i in range(len(sizes))),
        sizes=np.asarray(sizes, dtype=np.int64),
        alignments=np.ones(len(sizes), dtype=np.int64),
        conflicts=Conflicts.from_lists(lists),
    )
    assert max(sizes) <= max_live(problem) <= heaviest_clique(lists, sizes)


def test_large_trace_conflicts_by_degree():
    """20k buffers: every list has exactly the buffers that overlap (counted directly)."""
    rng = np.random.default_rng(7)
    n = 20_000
    start = rng.integers(0, 10_000, n)
    end = start + rng.integers(1, 200, n)
    conflicts = conflicts_from_intervals(Intervals.from_lists(range(n), start, end), n)
    sample = rng.choice(n, 50, replace=False)
    for b in sample.tolist():
        overlapping = np.flatnonzero((start < end[b]) & (end > start[b]))
        assert conflicts.of(b).tolist() == overlapping[overlapping != b].tolist()


@given(st.lists(st.integers(-(2**62), 2**62), max_size=50))
def test_unique_values_are_numpys(values):
    """`unique_values` (which leaves numpy.ma unloaded) gives what `np.unique` gives."""
    array = np.array(values, dtype=np.int64)
    assert unique_values(array).tolist() == np.unique(array).tolist()
    assert unique_values(array).dtype == np.int64
