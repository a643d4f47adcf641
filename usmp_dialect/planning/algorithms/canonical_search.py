"""A branch and bound over canonical plans, in the spirit of MiniMalloc (Moffitt, ASPLOS 2024).

The search only builds canonical plans: every buffer sits at the lowest offset above the
conflicting buffers placed before it, and buffers are placed in order of non-decreasing
offset (ties by a static preorder), so each plan is reached once. At every node:

- the next buffer is one whose lowest possible offset is smallest; none may start at or
  above the lowest top any unplaced buffer could reach, since it could drop below it
  (dominance);
- each section of the timeline (between two consecutive interval ends) must still hold its
  unplaced bytes above its floor, which is at least the current offset (inference);
- a buffer that overlaps no unplaced buffer fails for all its siblings too.

`improve_plan` starts from a given plan, first asks for a plan at the lower bound (max-live,
which settles most instances at once), then lowers the capacity below the best plan found,
each plan found tightening it, until the time runs out or the search space is exhausted:
then the best plan is proven optimal.
"""

from __future__ import annotations

import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np

from usmp_dialect.planning.algorithms.placement import single_spans, symmetric_conflicts
from usmp_dialect.planning.problem import Plan, Problem

MAX_SEARCH_BUFFERS = 2000
"""Beyond this many buffers in a pool the search's per-node cost (linear in the buffers)
buys nothing within any sensible limit: the pool keeps the portfolio's placement."""

_LOWER_BOUND_SHARE = 0.5
"""The share of the search time spent asking for a plan at the lower bound first."""

_NODES_PER_CLOCK_CHECK = 128
_NEVER = np.iinfo(np.int64).max // 4


class _OutOfTime(Exception):
    pass


class _OutOfNodes(Exception):
    pass


@dataclass(frozen=True)
class Subproblem:
    """One pool's buffers, renumbered, as the search needs them."""

    sizes: np.ndarray
    alignments: np.ndarray
    neighbours: list[np.ndarray]
    section_start: np.ndarray
    """Per buffer, the first section its lifetime covers."""
    section_end: np.ndarray
    """Per buffer, one past the last section (equal to the start when there are none)."""
    num_sections: int
    preorders: tuple[np.ndarray, ...]
    """Static tie-breaking orders to take turns with: per buffer, its rank in each."""


def subproblem_of(problem: Problem, buffers: np.ndarray) -> Subproblem:
    sizes = problem.sizes[buffers].astype(np.int64)
    alignments = np.maximum(problem.alignments[buffers].astype(np.int64), 1)
    spans = single_spans(problem)
    if spans is not None:
        start = spans[0][buffers].astype(np.int64)
        end = spans[1][buffers].astype(np.int64)
        times, ranks = np.unique(np.concatenate((start, end)), return_inverse=True)
        section_start, section_end = ranks[: len(buffers)], ranks[len(buffers) :]
        live = section_end > section_start
        overlap = (
            (section_start[:, None] < section_end[None, :])
            & (section_start[None, :] < section_end[:, None])
            & live[:, None]
            & live[None, :]
        )
        np.fill_diagonal(overlap, False)
        neighbours = [np.flatnonzero(row) for row in overlap]
        num_sections = max(len(times) - 1, 0)
        width = (section_end - section_start).astype(np.float64)
    else:
        indptr, indices = symmetric_conflicts(problem)
        local = np.full(problem.num_buffers, -1, dtype=np.int64)
        local[buffers] = np.arange(len(buffers))
        neighbours = []
        for buffer in buffers.tolist():
            mapped = local[indices[indptr[buffer] : indptr[buffer + 1]]]
            neighbours.append(np.sort(mapped[mapped >= 0]))
        section_start = np.zeros(len(buffers), dtype=np.int64)
        section_end = section_start
        num_sections = 0
        width = np.array([len(x) for x in neighbours], dtype=np.float64)
    area = width * sizes
    pressure = _pressure(sizes, section_start, section_end, num_sections)
    # MiniMalloc's three: by lifetime, area and section pressure in turn (W, A, T).
    preorders = tuple(
        _ranks(keys)
        for keys in ((-width, -area, -pressure), (-pressure, -area, -width), (-pressure, -width, -area))
    )
    return Subproblem(
        sizes, alignments, neighbours, section_start, section_end, num_sections, preorders
    )


def _ranks(keys: tuple[np.ndarray, ...]) -> np.ndarray:
    """Each buffer's rank when sorted by `keys`, most significant first; ties by index."""
    order = np.lexsort((np.arange(len(keys[0])),) + keys[::-1])
    ranks = np.empty(len(order), dtype=np.int64)
    ranks[order] = np.arange(len(order))
    return ranks


def _pressure(
    sizes: np.ndarray, section_start: np.ndarray, section_end: np.ndarray, num_sections: int
) -> np.ndarray:
    """The most bytes live in one section of each buffer's lifetime."""
    change = np.zeros(num_sections + 1, dtype=np.int64)
    np.add.at(change, section_start, sizes)
    np.add.at(change, section_end, -sizes)
    live = np.cumsum(change)
    return np.array(
        [live[a:b].max(initial=size) for a, b, size in zip(section_start, section_end, sizes)],
        dtype=np.int64,
    )


class Search:
    """Depth-first search over canonical plans of one subproblem under a capacity."""

    def __init__(self, sub: Subproblem, deadline: float):
        self.sub = sub
        self.deadline = deadline
        n = len(sub.sizes)
        self.sizes = sub.sizes
        self.sizes_list = sub.sizes.tolist()
        self.aligned = bool((sub.alignments > 1).any())
        self.preorder = sub.preorders[0]
        self.node_limit = -1
        self.neighbours = sub.neighbours
        self.starts = sub.section_start.tolist()
        self.ends = sub.section_end.tolist()
        change = np.zeros(sub.num_sections + 1, dtype=np.int64)
        np.add.at(change, sub.section_start, sub.sizes)
        np.add.at(change, sub.section_end, -sub.sizes)
        self.section_bytes = np.cumsum(change)[: sub.num_sections]
        sections = np.arange(sub.num_sections)
        self.covers = (sub.section_start[:, None] <= sections[None, :]) & (
            sections[None, :] < sub.section_end[:, None]
        )
        self._reset()
        self.capacity = 0
        self.best: np.ndarray | None = None
        self.best_height = 0
        self.nodes = 0
        self.minimize = False

    def _reset(self) -> None:
        n = len(self.sizes)
        self.min_offset = np.zeros(n, dtype=np.int64)
        self.offset = np.zeros(n, dtype=np.int64)
        self.placed = np.zeros(n, dtype=bool)
        self.floor = np.zeros(self.sub.num_sections, dtype=np.int64)
        self.unplaced_bytes = self.section_bytes.copy()

    def lower_bound(self) -> int:
        return int(max(self.section_bytes.max(initial=0), self.sizes.max(initial=0)))

    def solve(self, capacity: int, minimize: bool, node_limit: int = -1) -> bool:
        """Whether the space was exhausted; plans found are in `best`. With `minimize`,
        every plan found lowers the capacity below itself and the search goes on."""
        self._reset()
        self.capacity = capacity
        self.minimize = minimize
        self.node_limit = self.nodes + node_limit if node_limit > 0 else -1
        with _recursion_limit(3 * len(self.sizes) + 1000):
            self._search(0, -1)
        return True

    def decide(self, capacity: int) -> bool | None:
        """Whether a plan fits `capacity` (`None`: unknown when the time ran out). Like
        MiniMalloc, it takes turns with the preorders under a node limit that doubles
        each round, so one unlucky early decision cannot take all the time."""
        node_limit = len(self.sizes)
        try:
            while True:
                node_limit *= 2
                for preorder in self.sub.preorders:
                    self.preorder = preorder
                    try:
                        self.solve(capacity, minimize=False, node_limit=node_limit)
                    except _OutOfNodes:
                        continue
                    return self.best is not None and self.best_height <= capacity
        except _OutOfTime:
            return None

    def minimize_below(self, capacity: int) -> bool:
        """Search for ever smaller plans under `capacity`; whether the space was exhausted."""
        try:
            return self.solve(capacity, minimize=True)
        except _OutOfTime:
            return False

    def _found(self) -> bool:
        height = int((self.offset + self.sizes).max(initial=0))
        if self.best is None or height < self.best_height:
            self.best = self.offset.copy()
            self.best_height = height
        if not self.minimize:
            return True
        self.capacity = height - 1
        return False

    def _search(self, last_offset: int, last_rank: int) -> bool:
        self.nodes += 1
        if self.nodes % _NODES_PER_CLOCK_CHECK == 0 and time.perf_counter() > self.deadline:
            raise _OutOfTime
        if self.nodes == self.node_limit:
            raise _OutOfNodes
        unplaced = np.flatnonzero(~self.placed)
        if len(unplaced) == 0:
            return self._found()
        lowest = self.min_offset[unplaced]
        ranks = self.preorder[unplaced]
        by_offset = np.lexsort((ranks, lowest))
        # Dominance: a buffer placed at or above this height leaves room below it for the
        # buffer reaching it, which a canonical plan would have put there first.
        lowest_top = int((lowest + self.sizes[unplaced]).min())
        for buffer, offset, rank in zip(
            unplaced[by_offset].tolist(), lowest[by_offset].tolist(), ranks[by_offset].tolist()
        ):
            if offset >= lowest_top:
                break
            if offset < last_offset or (offset == last_offset and rank < last_rank):
                continue
            found, hatless = self._try(buffer, offset, rank)
            if found:
                return True
            if hatless:
                break
        return False

    def _try(self, buffer: int, offset: int, rank: int) -> tuple[bool, bool]:
        """Place `buffer` at `offset`, search below, undo; `(found, overlapped nothing)`."""
        size = self.sizes_list[buffer]
        top = offset + size
        if top > self.capacity:
            return False, False
        neighbours = self.neighbours[buffer]
        waiting = neighbours[~self.placed[neighbours]]
        previous_min = self.min_offset[waiting]
        raised = np.maximum(previous_min, top)
        if self.aligned:
            alignment = self.sub.alignments[waiting]
            raised = -(-raised // alignment) * alignment
        self.min_offset[waiting] = raised
        self.placed[buffer] = True
        self.offset[buffer] = offset
        first, last = self.starts[buffer], self.ends[buffer]
        previous_floor = self.floor[first:last].copy()
        self.floor[first:last] = top
        self.unplaced_bytes[first:last] -= size
        found = False
        if self._feasible(offset):
            found = self._search(offset, rank)
        self.unplaced_bytes[first:last] += size
        self.floor[first:last] = previous_floor
        self.placed[buffer] = False
        self.min_offset[waiting] = previous_min
        return found, len(waiting) == 0

    def _feasible(self, offset: int) -> bool:
        """Every section's unplaced bytes fit above its floor, and no floor is below the
        current offset: later buffers all go at least that high."""
        if not len(self.floor):
            return True
        # No unplaced buffer can go below its lowest possible offset, so nor can the
        # bytes of a section go below the lowest of its unplaced buffers' ones.
        unplaced = np.flatnonzero(~self.placed)
        lowest = np.where(self.covers[unplaced], self.min_offset[unplaced, None], _NEVER).min(
            axis=0, initial=_NEVER
        )
        floor = np.maximum(np.maximum(self.floor, offset), lowest)
        needed = np.where(self.unplaced_bytes > 0, floor + self.unplaced_bytes, 0)
        return int(needed.max()) <= self.capacity


@contextmanager
def _recursion_limit(limit: int):
    previous = sys.getrecursionlimit()
    sys.setrecursionlimit(max(previous, limit))
    try:
        yield
    finally:
        sys.setrecursionlimit(previous)


def improve_pool(
    sub: Subproblem, incumbent: np.ndarray, capacity_hint: int | None, deadline: float
) -> tuple[np.ndarray, bool, dict[str, object]]:
    """The pool's offsets, as good as the search made them, and whether they are optimal."""
    incumbent_height = int((incumbent + sub.sizes).max(initial=0))
    search = Search(sub, deadline)
    bound = search.lower_bound()
    notes: dict[str, object] = {"lower_bound": bound, "incumbent": incumbent_height}
    if incumbent_height <= bound:
        return incumbent, True, notes
    now = time.perf_counter()
    lower_deadline = now + _LOWER_BOUND_SHARE * max(deadline - now, 0.0)
    search.deadline = lower_deadline
    proven = search.decide(bound) is True
    if not proven:
        search.deadline = deadline
        ceiling = incumbent_height - 1
        if capacity_hint is not None:
            ceiling = min(ceiling, capacity_hint)
        proven = search.minimize_below(ceiling)
    notes["nodes"] = search.nodes
    if search.best is not None and search.best_height < incumbent_height:
        return search.best, proven, notes
    return incumbent, proven, notes


def improve_plan(problem: Problem, start_plan: Plan, deadline: float) -> Plan:
    """`start_plan` with every pool's offsets searched until `deadline`."""
    if start_plan.proven_optimal:
        return start_plan
    pool = np.asarray(start_plan.pool, dtype=np.int64)
    offset = np.asarray(start_plan.offset, dtype=np.int64).copy()
    # Buffers only move within the pool the portfolio chose: with several candidate pools
    # the assignment is a heuristic and optimality is not claimed.
    assignment_fixed = all(len(c) == 1 for c in problem.candidates)
    all_proven = True
    pool_notes = {}
    used = np.unique(pool).tolist()
    for index in used:
        buffers = np.flatnonzero(pool == index)
        if len(buffers) > MAX_SEARCH_BUFFERS:
            all_proven = False
            continue
        sub = subproblem_of(problem, buffers)
        # Each pool gets an equal share of the time the pools before it left over.
        share = deadline - time.perf_counter()
        pool_deadline = time.perf_counter() + share / max(len(used) - used.index(index), 1)
        hint = problem.pools[index].size_hint
        offsets, proven, notes = improve_pool(sub, offset[buffers], hint, pool_deadline)
        offset[buffers] = offsets
        all_proven &= proven
        pool_notes[problem.pools[index].name] = notes
    plan = Plan(
        pool=pool,
        offset=offset,
        proven_optimal=all_proven and assignment_fixed,
        notes={**start_plan.notes, "search": pool_notes},
    )
    return plan
