"""What a failure to place a buffer under the pools' size hints means.

An algorithm that found no place for a buffer has not shown that none exists: a greedy
placement can fill a pool with buffers that had somewhere else to go. The error says which
of the two it is. It is proven when the buffer is larger than every candidate pool's hint,
or when its one candidate cannot hold, at some time, the bytes live then of the buffers it
alone can take (`max_live` of them, a lower bound on any plan)."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from usmp_dialect.planning.conflicts import max_live_of
from usmp_dialect.planning.problem import PlanningError, Problem


def out_of_space(
    problem: Problem, buffer: int, algorithm: str, needed: Mapping[int, int] | None = None
) -> PlanningError:
    """The error for a buffer that `algorithm` placed in none of its candidate pools;
    `needed` may say, per pool index, how many bytes that pool would have needed."""
    candidates = problem.candidates[buffer]
    if not candidates:
        return PlanningError(f"buffer '{problem.names[buffer]}' has no candidate pool", buffer)
    needed = needed or {}

    def shortfall(pool: int) -> str:
        hint = problem.pools[pool].size_hint
        if pool not in needed or hint is None:
            return ""
        return f", needs {needed[pool]}, {needed[pool] - hint} bytes missing"

    pools = "; ".join(
        f"{problem.pools[p].name}: size hint {problem.pools[p].size_hint} bytes{shortfall(p)}"
        for p in candidates
    )
    described = f"buffer '{problem.names[buffer]}' ({int(problem.sizes[buffer])} bytes)"
    if proven_out_of_space(problem, buffer):
        return PlanningError(
            f"{described} does not fit in any candidate pool ({pools}); increase the size hints",
            buffer,
        )
    return PlanningError(
        f"algorithm '{algorithm}' found no place for {described} in its candidate pools "
        f"({pools}), though a plan may exist: try algorithm 'exact', or increase the size "
        "hints",
        buffer,
    )


def proven_out_of_space(problem: Problem, buffer: int) -> bool:
    """Whether no plan at all has room for `buffer` (see the module's note)."""
    size = int(problem.sizes[buffer])
    candidates = problem.candidates[buffer]
    hints = [problem.pools[p].size_hint for p in candidates]
    if all(hint is not None and size > hint for hint in hints):
        return True
    if len(candidates) != 1 or hints[0] is None:
        return False
    return pool_only_bound(problem, candidates[0]) > hints[0]


def pool_only_bound(problem: Problem, pool: int) -> int:
    """A lower bound on the size of `pool` in every plan: the bytes live at once of the
    buffers that have no other candidate."""
    only_here = np.fromiter(
        (c == (pool,) for c in problem.candidates), dtype=bool, count=problem.num_buffers
    )
    return max_live_of(problem, np.where(only_here, problem.sizes, 0))
