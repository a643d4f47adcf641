"""Apache TVM's hill climb planner, rule for rule (`src/tir/usmp/algo/hill_climb.cc`).

Each round places every buffer in the current order, first fit: the lowest gap between
its placed conflicts (scanned by offset), in the first candidate pool left. A round is kept
when the total pool size fell, or by chance when it grew (less often as rounds go by);
otherwise the last swap is undone. Then two buffers of the order are swapped, picked at
random among a buffer at the top of a pool, its conflicts placed before it and their
conflicts placed before them. The climb stops at `memory_pressure` bytes or after 500
rounds, and returns the last kept round, not necessarily the best one.

The random numbers are glibc's `rand_r` seeded with 0, as TVM drew them on Linux, so the
same problem gives the same plan as TVM's. Faithful down to the quirks: a pool is dropped
for a buffer when the buffer would pass the size hint above *any* of its placed conflicts
there, even one it need not climb over; and a rejected round undoes the last swap made,
even one already undone. Four departures:
offsets are also rounded to the buffer's own alignment (a no-op on TVM's inputs, where a
pool's buffers share one); a pick that TVM would retry forever (every candidate is the
first buffer picked) skips the swap instead; and `Budget.time_limit`, a safety cap, ends
the climb early, within a round if need be (the last kept round is returned, and the plan
is `time_capped`). `Budget.effort` does not change the 500 rounds: they are TVM's. And a
buffer is placed clear of every buffer it conflicts with in either direction, where TVM read
its own list only: on lists given one-sided (TVM's fanout test) TVM's plan shared bytes
between conflicting buffers, and every plan here must pass the validator. The swaps still
follow each buffer's own list, as TVM's did; on symmetric lists nothing differs.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

from usmp_dialect.planning.algorithms.greedy import round_up, tvm_size_order
from usmp_dialect.planning.algorithms.placement import gap_starts
from usmp_dialect.planning.algorithms.work import TimeCap
from usmp_dialect.planning.budget import Budget
from usmp_dialect.planning.conflicts import conflicts_either_direction, max_live
from usmp_dialect.planning.problem import Plan, PlanningError, Problem
from usmp_dialect.planning.size_hints import out_of_space

MAX_ROUNDS = 500
ALGORITHM = "hill_climb"


def glibc_rand_r(seed: int = 0) -> Iterator[int]:
    """The numbers glibc's `rand_r(&seed)` returns, one call after another: three steps
    of its linear congruential generator, 11 + 10 + 10 bits of their high halves."""
    state = seed & 0xFFFFFFFF
    while True:
        result = 0
        for bits in (11, 10, 10):
            state = (state * 1103515245 + 12345) & 0xFFFFFFFF
            result = (result << 10) ^ ((state >> 16) & ((1 << bits) - 1))
        yield result


@dataclass
class _Round:
    """One round's placement: for each buffer its pool (-1 when it fit nowhere), offset,
    and the offset TVM puts a conflicting buffer at (above it, at its alignment)."""

    order: np.ndarray
    pool: np.ndarray
    offset: np.ndarray
    top: np.ndarray
    needed: dict[int, dict[int, int]] = field(default_factory=dict)
    """Per buffer that fit nowhere, the bytes each candidate pool would have needed."""

    @property
    def could_not_fit(self) -> bool:
        return bool(self.needed)

    def pool_sizes(self, sizes: np.ndarray) -> dict[int, int]:
        """The highest byte of each pool that holds a buffer."""
        placed = self.pool >= 0
        highest: dict[int, int] = {}
        for pool, top in zip(
            self.pool[placed].tolist(),
            (self.offset + sizes)[placed].tolist(),
            strict=True,
        ):
            highest[pool] = max(highest.get(pool, 0), top)
        return highest


class _FirstFit:
    """TVM hill climb's `greedy`, resuming from the longest prefix of the order it placed
    last time: a buffer's place depends only on the buffers before it."""

    def __init__(self, problem: Problem):
        self.problem = problem
        self.conflicts = conflicts_either_direction(problem)
        self.hints = [pool.size_hint for pool in problem.pools]
        self.last: _Round | None = None

    def __call__(self, order: np.ndarray, cap: TimeCap | None = None) -> _Round | None:
        """The round's placement, or None when the `cap` passed before it was done (one
        round of a large problem takes seconds)."""
        n = self.problem.num_buffers
        # Before the first round, an order that shares no prefix with any other.
        last = self.last or _Round(
            np.full(n, -1), np.full(n, -1), np.zeros(n, np.int64), np.zeros(n, np.int64)
        )
        differs = np.flatnonzero(last.order != order)
        same = int(differs[0]) if len(differs) else n
        state = _Round(order.copy(), last.pool.copy(), last.offset.copy(), last.top.copy())
        state.pool[order[same:]] = -1
        kept = set(order[:same].tolist())
        state.needed = {b: need for b, need in last.needed.items() if b in kept}
        for count, buffer in enumerate(order[same:].tolist()):
            if cap is not None and count % 256 == 255 and cap.reached():
                return None
            self._place(state, buffer)
        self.last = state
        return state

    def _place(self, state: _Round, buffer: int) -> None:
        problem = self.problem
        size = int(problem.sizes[buffer])
        alignment = max(int(problem.alignments[buffer]), 1)
        listed = self.conflicts.of(buffer)
        placed = listed[state.pool[listed] >= 0]
        placed_pools = state.pool[placed]
        needed = {}
        for pool in problem.candidates[buffer]:
            blocking = placed[placed_pools == pool]
            tops = state.top[blocking]
            offset = int(gap_starts(state.offset[blocking], tops, size, alignment)[0][0])
            # TVM drops the pool when the buffer would not fit above any one conflict.
            highest = round_up(int(tops.max(initial=0)), alignment)
            hint = self.hints[pool]
            if hint is None or highest + size <= hint:
                state.pool[buffer] = pool
                state.offset[buffer] = offset
                state.top[buffer] = round_up(offset + size, alignment)
                return
            # What TVM's rule asked of the pool: room above its highest conflict.
            needed[pool] = highest + size
        state.pool[buffer] = -1
        state.needed[buffer] = needed


class _Climb:
    """The climb's state between rounds: the order and each buffer's place in it."""

    def __init__(self, problem: Problem):
        self.problem = problem
        self.order = np.array(tvm_size_order(problem), dtype=np.int64)
        self.position = np.empty(problem.num_buffers, dtype=np.int64)
        self.position[self.order] = np.arange(problem.num_buffers)
        self.random = glibc_rand_r(0)

    def rand(self) -> int:
        return next(self.random)

    def swap(self, first: int, second: int) -> None:
        if first == second:
            return
        a, b = self.order[first], self.order[second]
        self.order[first], self.order[second] = b, a
        self.position[a], self.position[b] = second, first

    def top_buffers(self, placed: _Round, pool_sizes: dict[int, int]) -> np.ndarray:
        """The buffers that reach the top of their pool, in order."""
        in_pool = placed.pool >= 0
        reach = np.array([pool_sizes.get(p, -1) for p in range(len(self.problem.pools))])
        at_top = in_pool & (placed.offset + self.problem.sizes == reach[placed.pool])
        buffers = np.flatnonzero(at_top)
        return buffers[np.argsort(self.position[buffers])]

    def neighbour_lists(self, buffer: int) -> tuple[np.ndarray, np.ndarray]:
        """TVM's `collect_neighbor_lists`, sorted by position: the buffer's conflicts that
        come before it, and every conflict of its conflicts that comes before that one."""
        conflicts = self.problem.conflicts
        listed = conflicts.of(buffer).astype(np.int64)
        first = listed[self.position[listed] < self.position[buffer]]
        begin = conflicts.indptr[listed]
        lengths = conflicts.indptr[listed + 1] - begin
        entry = np.repeat(begin - np.cumsum(lengths) + lengths, lengths)
        entry += np.arange(len(entry))
        second = conflicts.indices[entry].astype(np.int64)
        second = second[self.position[second] < np.repeat(self.position[listed], lengths)]
        return (
            self.order[np.sort(self.position[first])],
            self.order[np.sort(self.position[second])],
        )

    def pick_pair(self, first: np.ndarray, second: np.ndarray) -> tuple[int, int] | None:
        """Two buffers to swap: one from `first`, the other usually from `second`."""
        pick = int(first[self.rand() % len(first)])
        # TVM retries forever here unless both lists are that short.
        only_pick = np.all(first == pick) and np.all(second == pick)
        if only_pick and (len(first) >= 2 or len(second) >= 2):
            return None
        other = pick
        while other == pick:
            if len(second) and self.rand() % 100 > 25:
                other = int(second[self.rand() % len(second)])
            else:
                other = int(first[self.rand() % len(first)])
            if len(second) < 2 and len(first) < 2:
                break
        return None if other == pick else (pick, other)


def hill_climb_plan(problem: Problem, budget: Budget, memory_pressure: int | None = None) -> Plan:
    """TVM's hill climb; `memory_pressure` (max-live by default) is where it may stop."""
    n = problem.num_buffers
    if n == 0:
        return Plan(np.zeros(0, np.int64), np.zeros(0, np.int64))
    for buffer in range(n):
        if not problem.candidates[buffer]:
            raise out_of_space(problem, buffer, ALGORITHM)
    desired = max_live(problem) if memory_pressure is None else memory_pressure
    cap = TimeCap.after(budget.time_limit)
    climb = _Climb(problem)
    first_fit = _FirstFit(problem)
    sizes = np.asarray(problem.sizes, dtype=np.int64)
    total_size = 0
    swapped = (-1, -1)
    current: _Round | None = None
    kept: _Round | None = None
    rounds = 0
    for attempt in range(MAX_ROUNDS):
        previous = current
        # The first round always completes: it is the plan the climb starts from.
        current = first_fit(climb.order, None if kept is None else cap)
        if current is None:
            break
        rounds += 1
        pool_sizes = current.pool_sizes(sizes)
        if not pool_sizes:
            raise _first_unfit_error(problem, current, climb)
        total = sum(pool_sizes.values())
        if not total_size or (
            not current.could_not_fit
            and (
                total_size > total
                or climb.rand() % 100 < 50 * (total - total_size) // total // attempt
            )
        ):
            kept = current
            if not current.could_not_fit:
                total_size = total
                if total_size <= desired:
                    break
        else:
            climb.swap(swapped[1], swapped[0])
            current = previous
            assert current is not None
            pool_sizes = current.pool_sizes(sizes)
        if attempt + 1 < MAX_ROUNDS and cap.reached():
            break
        at_top = climb.top_buffers(current, pool_sizes)
        node = int(at_top[climb.rand() % len(at_top)])
        first, second = climb.neighbour_lists(node)
        if not len(first):
            continue
        pair = climb.pick_pair(first, second)
        if pair is None:
            continue
        swapped = (int(climb.position[pair[0]]), int(climb.position[pair[1]]))
        climb.swap(*swapped)
    assert kept is not None
    if kept.could_not_fit:
        raise _first_unfit_error(problem, kept, climb)
    return Plan(
        kept.pool.copy(),
        kept.offset.copy(),
        time_capped=cap.hit,
        notes={"rounds": rounds, "reached_memory_pressure": total_size <= desired},
    )


def _first_unfit_error(problem: Problem, placed: _Round, climb: _Climb) -> PlanningError:
    buffer = min(placed.needed, key=lambda b: climb.position[b])
    return out_of_space(problem, buffer, ALGORITHM, placed.needed[buffer])


def tvm_hill_climb(problem: Problem, budget: Budget) -> Plan:
    return hill_climb_plan(problem, budget)
