"""A module's buffers in columns, as the `usmp` dialect reads them from its ops: the one
way they become a planning problem and the plan written in the IR.

The dialect fills a `BufferTable` (`usmp.buffer_table`); `usmp.liveness`'s verifier checks
the plan it holds with the planner's validator, and `analysis/module_problem.py` gives
the planning pass and the reports the same problem: both read a module the same way, and
neither the dialect nor this module imports the other's layer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from usmp_dialect.planning.conflicts import conflicts_from_intervals, conflicts_from_pairs
from usmp_dialect.planning.problem import Conflicts, Intervals, Plan, PoolSpec, Problem


@dataclass(frozen=True)
class BufferTable:
    """One row a buffer, in the order of its ops."""

    names: tuple[str, ...]
    sizes: list[int]
    alignments: list[int]
    lives: list[bytes]
    """Each buffer's live intervals, their int64 bounds `start, end, ...` as bytes."""
    candidates: tuple[tuple[int, ...], ...]
    """Indices into `pools`, in order of preference."""
    explicit: np.ndarray
    """The conflicts the buffers list, as `(k, 2)` buffer indices."""
    offsets: Sequence[int | None]
    """The placed buffers' byte offsets; None where not placed."""
    pools: tuple[PoolSpec, ...]


def live_intervals(lives: Sequence[bytes]) -> Intervals:
    """The buffers' live bounds as interval arrays, in buffer order."""
    counts = np.fromiter(map(len, lives), np.int64, len(lives)) // 16
    bounds = np.frombuffer(b"".join(lives), dtype=np.int64)
    owners = np.repeat(np.arange(len(lives), dtype=np.int64), counts)
    return Intervals(owners, bounds[0::2].copy(), bounds[1::2].copy())


def _merged_conflicts(
    num_buffers: int, from_intervals: Conflicts, explicit: np.ndarray
) -> Conflicts:
    """Interval conflicts (symmetric already) plus explicit ones in both directions."""
    rows = np.repeat(np.arange(num_buffers, dtype=np.int64), from_intervals.counts())
    columns = np.asarray(from_intervals.indices, dtype=np.int64)
    first, second = explicit[:, 0], explicit[:, 1]
    return conflicts_from_pairs(
        num_buffers,
        np.concatenate((rows, first, second)),
        np.concatenate((columns, second, first)),
    )


def table_problem(table: BufferTable) -> tuple[Problem, Intervals]:
    """The planning problem of `table`'s buffers, and the live intervals written for them
    (the problem holds them only when explicit conflicts add nothing to them)."""
    count = len(table.names)
    intervals = live_intervals(table.lives)
    candidates = table.candidates
    if len(table.explicit):
        conflicts = _merged_conflicts(
            count, conflicts_from_intervals(intervals, count), table.explicit
        )
    else:
        conflicts = Conflicts.lazy(lambda: conflicts_from_intervals(intervals, count))
    fixed = None
    if any(offset is not None for offset in table.offsets):
        # Buffers already placed (by hand, or in an earlier plan) stay where they are.
        fixed = np.array([-1 if o is None else o for o in table.offsets], dtype=np.int64)
        candidates = tuple(
            c[:1] if o is not None else c for c, o in zip(candidates, table.offsets, strict=True)
        )
    problem = Problem(
        names=table.names,
        sizes=np.array(table.sizes, dtype=np.int64),
        alignments=np.array(table.alignments, dtype=np.int64),
        conflicts=conflicts,
        pools=table.pools,
        candidates=candidates,
        intervals=None if len(table.explicit) else intervals,
        fixed=fixed,
    )
    return problem, intervals


def written_plan(problem: Problem, offsets: Sequence[int | None]) -> Plan:
    """The plan the IR holds, when every buffer has its offset: each in its one pool."""
    return Plan(
        pool=np.fromiter((c[0] for c in problem.candidates), np.int64, len(offsets)),
        offset=np.fromiter(offsets, np.int64, len(offsets)),
    )
