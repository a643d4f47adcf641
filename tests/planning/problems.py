"""Hand-built planning problems for the tests: buffers named `b0, b1, ...` unless named,
alignment 1 unless given, one `global_workspace` pool unless pools are given."""

from collections.abc import Sequence

import numpy as np
from hypothesis import strategies as st

from usmp_dialect.planning.conflicts import conflicts_from_intervals
from usmp_dialect.planning.problem import Conflicts, Intervals, PoolSpec, Problem

ONE_POOL = (PoolSpec("global_workspace"),)


def _problem(sizes, conflicts, names, alignments, pools, candidates, intervals=None) -> Problem:
    n = len(sizes)
    return Problem(
        names=tuple(names) if names is not None else tuple(f"b{i}" for i in range(n)),
        sizes=np.asarray(sizes, dtype=np.int64),
        alignments=np.array(np.broadcast_to(alignments, n), dtype=np.int64),
        conflicts=conflicts,
        pools=tuple(pools),
        candidates=tuple(candidates),
        intervals=intervals,
    )


def listed_problem(
    sizes: Sequence[int],
    lists: Sequence[Sequence[int]],
    *,
    names: Sequence[str] | None = None,
    alignments: int | Sequence[int] = 1,
    pools: Sequence[PoolSpec] = ONE_POOL,
    candidates: Sequence[tuple[int, ...]] = (),
) -> Problem:
    """Conflicts given as lists, one per buffer (as TVM's tests give them, maybe one-sided)."""
    return _problem(sizes, Conflicts.from_lists(lists), names, alignments, pools, candidates)


def intervals_problem(
    intervals: Intervals,
    sizes: Sequence[int],
    *,
    conflicts: Conflicts | None = None,
    names: Sequence[str] | None = None,
    alignments: int | Sequence[int] = 1,
    pools: Sequence[PoolSpec] = ONE_POOL,
    candidates: Sequence[tuple[int, ...]] = (),
) -> Problem:
    """Live intervals (several a buffer if need be) and the conflicts they imply, unless
    `conflicts` gives them."""
    if conflicts is None:
        conflicts = conflicts_from_intervals(intervals, len(sizes))
    return _problem(sizes, conflicts, names, alignments, pools, candidates, intervals)


def interval_problem(spans, sizes, pools=ONE_POOL, candidates=()) -> Problem:
    """One live interval `(start, end)` a buffer."""
    n = len(sizes)
    intervals = Intervals.from_lists(range(n), [s for s, _ in spans], [e for _, e in spans])
    return intervals_problem(intervals, sizes, pools=pools, candidates=candidates)


def interval_instances(buffers, last_start, lengths, sizes) -> st.SearchStrategy:
    """`(spans, sizes)` for `interval_problem`: `buffers` (a `(min, max)` count) buffers,
    each live from a start in `[0, last_start]` for a length and with a size in the given
    `(min, max)` ranges."""
    return st.integers(*buffers).flatmap(
        lambda n: st.tuples(
            st.lists(
                st.tuples(st.integers(0, last_start), st.integers(*lengths)).map(
                    lambda p: (p[0], p[0] + p[1])
                ),
                min_size=n,
                max_size=n,
            ),
            st.lists(st.integers(*sizes), min_size=n, max_size=n),
        )
    )


def draw_pools(draw, n: int, max_hint: int) -> tuple[tuple[PoolSpec, ...], tuple]:
    """1-3 pools with random size hints (or none), and for each of `n` buffers some of
    them as candidates in a random order; `draw` is a hypothesis composite's."""
    num_pools = draw(st.integers(1, 3))
    pools = tuple(
        PoolSpec(f"pool{p}", draw(st.none() | st.integers(0, max_hint))) for p in range(num_pools)
    )
    candidates = tuple(
        tuple(draw(st.permutations(range(num_pools)))[: draw(st.integers(1, num_pools))])
        for _ in range(n)
    )
    return pools, candidates
