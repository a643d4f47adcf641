"""The planner's input and output as plain arrays: no IR objects in here.

A `Problem` is what every algorithm reads: buffer sizes and alignments, who conflicts with
whom (an ordered adjacency list per buffer, as TVM's `BufferInfo.conflicts` was), the pools
and each buffer's pool candidates in the user's order. A `Plan` is what an algorithm returns:
one pool and one byte offset per buffer.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike


def unique_values(values: ArrayLike) -> np.ndarray:
    """`np.unique(values)`: the distinct values, sorted. `np.unique` imports numpy.ma (about
    13 ms, a twentieth of a small run's start-up) only to ask whether its input is masked."""
    return distinct_sorted(np.sort(np.asarray(values).ravel()))


def distinct_sorted(sorted_values: np.ndarray) -> np.ndarray:
    """`sorted_values` with each run of equal values kept once."""
    keep = np.ones(len(sorted_values), dtype=bool)
    keep[1:] = sorted_values[1:] != sorted_values[:-1]
    return sorted_values[keep]


class PlanningError(Exception):
    """A problem that has no plan under the given constraints (a user-facing error).

    `buffer` is the index of the buffer the error is about, when there is one, so that a
    front end can point at where that buffer came from."""

    def __init__(self, message: str, buffer: int | None = None):
        super().__init__(message)
        self.buffer = buffer


@dataclass(frozen=True)
class PoolSpec:
    name: str
    size_hint: int | None = None
    """Bytes the pool may hold; `None` means unrestricted."""


DEFAULT_POOL = PoolSpec("global_workspace")
"""The one unrestricted pool of an input that names none."""


@dataclass(frozen=True)
class Intervals:
    """Live intervals, half-open `[start, end)`; a buffer may own several."""

    owner: np.ndarray
    start: np.ndarray
    end: np.ndarray

    @staticmethod
    def from_lists(owner: ArrayLike, start: ArrayLike, end: ArrayLike) -> Intervals:
        return Intervals(
            np.asarray(owner, dtype=np.int64),
            np.asarray(start, dtype=np.int64),
            np.asarray(end, dtype=np.int64),
        )


class Conflicts:
    """Ordered adjacency lists in CSR form: the conflicts of buffer `i` are
    `indices[indptr[i]:indptr[i + 1]]`, in the order they were given.

    Lists that follow from live intervals can be `lazy`: a 62k-buffer trace has hundreds
    of millions of conflicting pairs, and the algorithms that work from the intervals
    never read them, so they are built only when something does."""

    def __init__(self, indptr: np.ndarray, indices: np.ndarray):
        self._arrays: tuple[np.ndarray, np.ndarray] | None = (indptr, indices)
        self._build: Callable[[], Conflicts] | None = None

    @staticmethod
    def lazy(build: Callable[[], Conflicts]) -> Conflicts:
        conflicts = Conflicts.__new__(Conflicts)
        conflicts._arrays = None
        conflicts._build = build
        return conflicts

    @property
    def is_built(self) -> bool:
        return self._arrays is not None

    def _built(self) -> tuple[np.ndarray, np.ndarray]:
        if self._arrays is None:
            assert self._build is not None
            built = self._build()
            self._arrays = (built.indptr, built.indices)
            self._build = None
        return self._arrays

    @property
    def indptr(self) -> np.ndarray:
        return self._built()[0]

    @property
    def indices(self) -> np.ndarray:
        return self._built()[1]

    @staticmethod
    def from_lists(lists: Sequence[Sequence[int]]) -> Conflicts:
        lengths = np.fromiter((len(x) for x in lists), dtype=np.int64, count=len(lists))
        indptr = np.zeros(len(lists) + 1, dtype=np.int64)
        np.cumsum(lengths, out=indptr[1:])
        indices = np.fromiter((j for x in lists for j in x), dtype=np.int64, count=int(indptr[-1]))
        return Conflicts(indptr, indices)

    def of(self, buffer: int) -> np.ndarray:
        return self.indices[self.indptr[buffer] : self.indptr[buffer + 1]]

    def counts(self) -> np.ndarray:
        return np.diff(self.indptr)


@dataclass(frozen=True)
class Problem:
    names: tuple[str, ...]
    sizes: np.ndarray
    alignments: np.ndarray
    conflicts: Conflicts
    pools: tuple[PoolSpec, ...] = (DEFAULT_POOL,)
    candidates: tuple[tuple[int, ...], ...] = ()
    """Per buffer, the indices of the pools it may go into, in order of preference.
    Empty means every buffer may use pool 0 only."""
    intervals: Intervals | None = None
    """The live intervals the conflicts came from, when they came from intervals alone:
    then `conflicts` says nothing the intervals do not, and algorithms may use either."""
    fixed: np.ndarray | None = None
    """Per buffer, the offset the user placed it at by hand in its first candidate pool,
    or -1 for a buffer to plan; `None` when no buffer is fixed. Algorithms see problems
    without fixed buffers: the registry plans around them (`planning/rules.py`)."""

    def __post_init__(self):
        if not self.candidates:
            object.__setattr__(self, "candidates", ((0,),) * len(self.names))

    @property
    def num_buffers(self) -> int:
        return len(self.names)

    def fixed_offsets(self) -> np.ndarray:
        """`fixed`, or -1 for every buffer."""
        if self.fixed is None:
            return np.full(self.num_buffers, -1, dtype=np.int64)
        return np.asarray(self.fixed, dtype=np.int64)


@dataclass(frozen=True)
class ProvenLowerBound:
    """A size no plan of one pool's buffers goes below: a search proved every smaller
    capacity too small (`usmp.plan`'s `lower_bounds`, the report's "lower bound")."""

    pool: str
    size: int


@dataclass(frozen=True)
class Plan:
    pool: np.ndarray
    """Index into `Problem.pools`, one per buffer."""
    offset: np.ndarray
    """Byte offset inside that pool, one per buffer."""
    proven_optimal: bool = False
    time_capped: bool = False
    """The time limit, not the work budget, ended the algorithm: only then may the same
    problem give another plan on another run."""
    lower_bounds: tuple[ProvenLowerBound, ...] = ()
    """The pools a search proved a lower bound of, in the order it searched them."""
    notes: dict[str, object] = field(default_factory=dict)
    """What the algorithm wants to tell the user (e.g. rounds run, time used)."""

    def lower_bound_by_pool(self) -> dict[str, int]:
        return {bound.pool: bound.size for bound in self.lower_bounds}

    def pool_sizes(self, problem: Problem) -> np.ndarray:
        sizes = np.zeros(len(problem.pools), dtype=np.int64)
        if problem.num_buffers:
            np.maximum.at(sizes, self.pool, self.offset + problem.sizes)
        return sizes

    def total_size(self, problem: Problem) -> int:
        return int(self.pool_sizes(problem).sum())
