"""What a failure to place a buffer under the pools' size hints means.

An algorithm that found no place for a buffer has not shown that none exists: a greedy
placement can fill a pool with buffers that had somewhere else to go. The error says which
of the two it is. It is proven when the buffer is larger than every candidate pool's hint,
or when its one candidate cannot hold, at some time, the bytes live then of the buffers it
alone can take (`max_live` of them, a lower bound on any plan).

`check_size_hints` asks, before any search, what every plan needs: each buffer goes to a
candidate whose hint holds it, and for a set `S` of bounded pools, the buffers that can go
nowhere but `S` need at every time the bytes live of them within the sum of `S`'s hints
(asked of each pool alone, of each buffer's set of pools that hold it, and of all bounded
pools together). It costs a sort of the intervals, whatever the number of pools."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from usmp_dialect.planning.conflicts import live_at_peak, max_live_by_group, max_live_of
from usmp_dialect.planning.problem import PlanningError, Problem, unique_values

_NAMED_POOLS = 3
"""Pools an error lists by name; it counts the rest (a problem may have thousands)."""

_POOL_SETS = 16
"""Sets of pools besides single pools and all of them that `check_size_hints` asks about:
the sets of the buffers with the most bytes."""

NO_HINT = np.iinfo(np.int64).max


def out_of_space(
    problem: Problem, buffer: int, algorithm: str, needed: Mapping[int, int] | None = None
) -> PlanningError:
    """The error for a buffer that `algorithm` placed in none of its candidate pools;
    `needed` may say, per pool index, how many bytes that pool would have needed."""
    if not problem.candidates[buffer]:
        return PlanningError(f"buffer '{problem.names[buffer]}' has no candidate pool", buffer)
    if proven_out_of_space(problem, buffer):
        return does_not_fit(problem, buffer, needed or {})
    return PlanningError(
        f"algorithm '{algorithm}' found no place for {_described(problem, buffer)} in its "
        f"candidate pools ({_candidates_described(problem, buffer, needed or {})}), though a "
        "plan may exist: try algorithm 'exact', or increase the size hints",
        buffer,
    )


def does_not_fit(problem: Problem, buffer: int, needed: Mapping[int, int]) -> PlanningError:
    """The error for a buffer no plan has room for; `needed` as for `out_of_space`."""
    return PlanningError(
        f"{_described(problem, buffer)} does not fit in any candidate pool "
        f"({_candidates_described(problem, buffer, needed)}); increase the size hints",
        buffer,
    )


def _described(problem: Problem, buffer: int) -> str:
    return f"buffer '{problem.names[buffer]}' ({int(problem.sizes[buffer])} bytes)"


def _candidates_described(problem: Problem, buffer: int, needed: Mapping[int, int]) -> str:
    """The first few candidate pools with their hints and, where known, the bytes missing."""

    def described(pool: int) -> str:
        hint = problem.pools[pool].size_hint
        if pool not in needed or hint is None:
            return f"{problem.pools[pool].name}: size hint {hint} bytes"
        missing = needed[pool] - hint
        return (
            f"{problem.pools[pool].name}: size hint {hint} bytes, needs {needed[pool]}, "
            f"{missing} bytes missing"
        )

    candidates = problem.candidates[buffer]
    named = [described(p) for p in candidates[: _NAMED_POOLS + 1]]
    return _listed(named, len(candidates), "; ")


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


def _listed(named: Sequence[str], total: int, separator: str = ", ") -> str:
    """The first `_NAMED_POOLS` of `named` (all when one more would do), and how many
    of `total` are left out."""
    if total <= _NAMED_POOLS + 1:
        return separator.join(named[:total])
    return f"{separator.join(named[:_NAMED_POOLS])}{separator}and {total - _NAMED_POOLS} more"


def check_size_hints(problem: Problem) -> None:
    """Raises the error of a bound every plan must meet and the size hints break (see the
    module's note); returns when the hints may allow a plan."""
    owner, pools, holds = _candidate_entries(problem)
    held = np.bincount(owner[holds], minlength=problem.num_buffers)
    if problem.num_buffers and held.min() == 0:
        buffer = int(np.argmin(held))
        if not problem.candidates[buffer]:
            raise out_of_space(problem, buffer, "")
        size = int(problem.sizes[buffer])
        raise does_not_fit(problem, buffer, dict.fromkeys(problem.candidates[buffer], size))
    hints = _hints(problem)
    owner, pools = owner[holds], pools[holds]
    unbounded = np.zeros(problem.num_buffers, dtype=bool)
    unbounded[owner[hints[pools] == NO_HINT]] = True
    bounded = ~unbounded[owner]
    owner, pools = owner[bounded], pools[bounded]
    pool_sets = _pool_sets(owner, pools, held)
    members, groups = _group_members(problem, owner, pools, held, pool_sets)
    needed = max_live_by_group(problem, members, groups, len(pool_sets))
    for group, pool_set in enumerate(pool_sets):
        room = int(hints[list(pool_set)].sum())
        if needed[group] > room:
            raise _bound_error(problem, members[groups == group], pool_set, int(needed[group]))


def _hints(problem: Problem) -> np.ndarray:
    return np.array(
        [NO_HINT if pool.size_hint is None else pool.size_hint for pool in problem.pools],
        dtype=np.int64,
    )


def _candidate_entries(problem: Problem) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every (buffer, candidate pool) once, by buffer and pool, as flat arrays, and whether
    the pool's hint holds the buffer alone."""
    counts = np.fromiter(
        (len(c) for c in problem.candidates), dtype=np.int64, count=problem.num_buffers
    )
    owner = np.repeat(np.arange(problem.num_buffers), counts)
    pools = np.fromiter(
        (p for c in problem.candidates for p in c), dtype=np.int64, count=int(counts.sum())
    )
    # A pool listed twice must not count twice in a sum of hints.
    width = max(len(problem.pools), 1)
    owner, pools = np.divmod(unique_values(owner * width + pools), width)
    holds = _hints(problem)[pools] >= np.asarray(problem.sizes, dtype=np.int64)[owner]
    return owner, pools, holds


def _pool_sets(owner: np.ndarray, pools: np.ndarray, held: np.ndarray) -> list[tuple[int, ...]]:
    """The sets of bounded pools asked about: each pool that is some buffer's only one,
    the `_POOL_SETS` sets of several pools held by the most buffers (ties: the smaller
    set first), and all bounded pools that hold a buffer."""
    alone = held[owner] == 1
    singles = [(p,) for p in unique_values(pools[alone]).tolist()]
    several_owner, several_pools = owner[~alone], pools[~alone]
    counted: dict[tuple[int, ...], int] = {}
    if len(several_owner):
        begin = np.flatnonzero(np.r_[True, several_owner[1:] != several_owner[:-1]])
        for chunk in np.split(several_pools, begin[1:]):
            key = tuple(sorted(chunk.tolist()))
            counted[key] = counted.get(key, 0) + 1
    chosen = sorted(counted, key=lambda s: (-counted[s], len(s), s))[:_POOL_SETS]
    everything = [tuple(unique_values(pools).tolist())] if len(pools) else []
    return list(dict.fromkeys([*singles, *chosen, *everything]))


def _group_members(
    problem: Problem,
    owner: np.ndarray,
    pools: np.ndarray,
    held: np.ndarray,
    pool_sets: list[tuple[int, ...]],
) -> tuple[np.ndarray, np.ndarray]:
    """`(buffers, groups)`: each buffer that can go nowhere but `pool_sets[g]`, with `g`.
    `owner` and `pools` list the candidates that hold a buffer, bounded ones only."""
    alone = held[owner] == 1
    group_of_single = {s[0]: g for g, s in enumerate(pool_sets) if len(s) == 1}
    members = [owner[alone]]
    groups = [np.array([group_of_single[p] for p in pools[alone].tolist()], dtype=np.int64)]
    for group, pool_set in enumerate(pool_sets):
        if len(pool_set) == 1:
            continue
        inside = np.bincount(owner[np.isin(pools, pool_set)], minlength=problem.num_buffers)
        buffers = np.flatnonzero((inside == held) & (held > 0))
        buffers = buffers[np.isin(buffers, owner)]
        members.append(buffers)
        groups.append(np.full(len(buffers), group, dtype=np.int64))
    return np.concatenate(members), np.concatenate(groups)


def _bound_error(
    problem: Problem, members: np.ndarray, pool_set: tuple[int, ...], needed: int
) -> PlanningError:
    """The error for buffers that can go nowhere but `pool_set` and need `needed` bytes at
    once there, pointing at the largest of them live at that time."""
    live = live_at_peak(problem, members)
    buffer = int(live[np.lexsort((live, -problem.sizes[live]))[0]])
    if len(pool_set) == 1:
        size = int(problem.sizes[buffer])
        alone = {**dict.fromkeys(problem.candidates[buffer], size), pool_set[0]: needed}
        return does_not_fit(problem, buffer, alone)
    names = _listed([problem.pools[p].name for p in pool_set[: _NAMED_POOLS + 1]], len(pool_set))
    room = sum(int(problem.pools[p].size_hint or 0) for p in pool_set)
    return PlanningError(
        f"no plan fits the size hints: buffer '{problem.names[buffer]}' "
        f"({int(problem.sizes[buffer])} bytes) and the buffers live with it that can go "
        f"nowhere but pools {names} need {needed} bytes at once, and those pools' size hints "
        f"add up to {room} bytes; increase the size hints",
        buffer,
    )
