"""Gap-reusing greedy planners: `first_fit` and `best_fit`.

Buffers are placed largest first (ties: more conflicts first, then buffer index), each in
the first candidate pool where it fits under the size hint, at the lowest (`first_fit`)
or the tightest (`best_fit`) aligned gap between its placed conflicts, the top of them when
no gap holds it. Finding the gaps sorts the placed conflicts by offset: O(d log d) for a
buffer with d placed conflicts. Conflicts count in either direction of the lists.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from usmp_dialect.planning.algorithms.greedy import Placement
from usmp_dialect.planning.algorithms.placement import gap_starts
from usmp_dialect.planning.budget import Budget
from usmp_dialect.planning.conflicts import conflicts_either_direction
from usmp_dialect.planning.problem import Conflicts, Plan, Problem
from usmp_dialect.planning.size_hints import out_of_space


def place_in_gaps(
    problem: Problem, order: Sequence[int], conflicts: Conflicts, tightest: bool, algorithm: str
) -> Plan:
    placement = Placement(problem)
    for buffer in order:
        size = int(problem.sizes[buffer])
        alignment = max(int(problem.alignments[buffer]), 1)
        listed = conflicts.of(buffer)
        # An empty buffer holds no byte: it would only split a gap in two.
        listed = listed[(placement.pool[listed] >= 0) & (problem.sizes[listed] > 0)]
        listed_pools = placement.pool[listed]
        needed = {}
        for pool in problem.candidates[buffer]:
            blocking = listed[listed_pools == pool]
            # The conflict's top unrounded: a gap starts where its bytes end.
            starts, room = gap_starts(
                placement.offset[blocking],
                placement.offset[blocking] + problem.sizes[blocking],
                size,
                alignment,
            )
            fitting = np.flatnonzero(starts + size <= _hint_or_max(placement, pool))
            if len(fitting):
                chosen = fitting[np.argmin(room[fitting])] if tightest else fitting[0]
                placement.place(buffer, pool, int(starts[chosen]))
                break
            needed[pool] = int(starts[-1]) + size
        else:
            raise out_of_space(problem, buffer, algorithm, needed)
    return placement.plan()


def _hint_or_max(placement: Placement, pool: int) -> int:
    hint = placement.hints[pool]
    return np.iinfo(np.int64).max if hint is None else hint


def size_order(problem: Problem, degrees: np.ndarray) -> np.ndarray:
    """Largest first; ties: more conflicts first, then lower buffer index."""
    return np.lexsort((np.arange(problem.num_buffers), -degrees, -problem.sizes))


def _plan(problem: Problem, tightest: bool, algorithm: str) -> Plan:
    conflicts = conflicts_either_direction(problem)
    order = size_order(problem, conflicts.counts())
    return place_in_gaps(problem, order.tolist(), conflicts, tightest, algorithm)


def first_fit(problem: Problem, budget: Budget) -> Plan:
    return _plan(problem, tightest=False, algorithm="first_fit")


def best_fit(problem: Problem, budget: Budget) -> Plan:
    return _plan(problem, tightest=True, algorithm="best_fit")
