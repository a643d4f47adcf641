"""Apache TVM's two greedy planners, rule for rule (`src/tir/usmp/algo/greedy.cc`).

Both place the buffers one at a time in a fixed order, each directly above the highest of
its already placed conflicts in a pool, never in a gap below: `greedy_by_size` takes the
largest buffers first, `greedy_by_conflicts` the most conflicted. As in TVM:

- a buffer looks only at its own conflict list (lists the user gave one-sided are read
  one-sided, which is how TVM's fanout test reaches 190 bytes);
- the offset above a conflict is rounded up to the *conflict's* alignment;
- a pool is dropped for the buffer when the buffer would pass the pool's size hint there,
  and the buffer takes the first remaining candidate in the user's order.

Two departures, both invisible on TVM's own inputs: the offset is also rounded up to the
buffer's own alignment (TVM gave every buffer of a pool the same alignment, where this is a
no-op), and a dropped pool stays dropped (TVM's `operator[]` re-admitted it when a later
conflict fitted, which could overlap the first).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from usmp_dialect.planning.budget import Budget
from usmp_dialect.planning.problem import Plan, Problem
from usmp_dialect.planning.size_hints import out_of_space


def round_up(offset: int, alignment: int) -> int:
    return -(-offset // alignment) * alignment


def tvm_size_order(problem: Problem) -> list[int]:
    """Buffers by size, then number of conflicts listed, then name, all descending (the
    order of `greedy_by_size` and of hill climb's first round)."""
    return _descending_by(problem, problem.sizes, problem.conflicts.counts(), problem.names)


def tvm_conflicts_order(problem: Problem) -> list[int]:
    """Buffers by number of conflicts listed, then size, then name, all descending."""
    return _descending_by(problem, problem.conflicts.counts(), problem.sizes, problem.names)


def _descending_by(problem: Problem, *keys: Sequence | np.ndarray) -> list[int]:
    """The buffers sorted by the per-buffer keys, the first most significant, descending."""
    columns = [k.tolist() if isinstance(k, np.ndarray) else k for k in keys]
    return sorted(
        range(problem.num_buffers),
        key=lambda b: tuple(column[b] for column in columns),
        reverse=True,
    )


class Placement:
    """Buffers placed so far: their pool (-1 while unplaced), offset and the offset
    right above them rounded to their alignment (where TVM puts a conflicting buffer)."""

    def __init__(self, problem: Problem):
        self.problem = problem
        self.pool = np.full(problem.num_buffers, -1, dtype=np.int64)
        self.offset = np.zeros(problem.num_buffers, dtype=np.int64)
        self.top = np.zeros(problem.num_buffers, dtype=np.int64)
        self.hints = [pool.size_hint for pool in problem.pools]

    def place(self, buffer: int, pool: int, offset: int) -> None:
        problem = self.problem
        self.pool[buffer] = pool
        self.offset[buffer] = offset
        alignment = max(int(problem.alignments[buffer]), 1)
        self.top[buffer] = round_up(offset + int(problem.sizes[buffer]), alignment)

    def placed_conflicts(self, buffer: int) -> np.ndarray:
        """The buffer's own list, restricted to the buffers placed in some pool."""
        listed = self.problem.conflicts.of(buffer)
        return listed[self.pool[listed] >= 0]

    def fits(self, pool: int, offset: int, size: int) -> bool:
        hint = self.hints[pool]
        return hint is None or offset + size <= hint

    def plan(self, **notes: object) -> Plan:
        return Plan(self.pool.copy(), self.offset.copy(), notes=dict(notes))


def place_above_conflicts(problem: Problem, order: Sequence[int], algorithm: str) -> Plan:
    """TVM's `PostSortAllocation`: each buffer, in order, above its highest placed conflict
    in the first candidate pool where it stays within the size hint."""
    placement = Placement(problem)
    for buffer in order:
        size = int(problem.sizes[buffer])
        alignment = max(int(problem.alignments[buffer]), 1)
        conflicts = placement.placed_conflicts(buffer)
        conflict_pools = placement.pool[conflicts]
        needed = {}
        for pool in problem.candidates[buffer]:
            tops = placement.top[conflicts[conflict_pools == pool]]
            offset = round_up(int(tops.max(initial=0)), alignment)
            if placement.fits(pool, offset, size):
                placement.place(buffer, pool, offset)
                break
            needed[pool] = offset + size
        else:
            raise out_of_space(problem, buffer, algorithm, needed)
    return placement.plan()


def greedy_by_size(problem: Problem, budget: Budget) -> Plan:
    return place_above_conflicts(problem, tvm_size_order(problem), "greedy_by_size")


def greedy_by_conflicts(problem: Problem, budget: Budget) -> Plan:
    return place_above_conflicts(problem, tvm_conflicts_order(problem), "greedy_by_conflicts")
