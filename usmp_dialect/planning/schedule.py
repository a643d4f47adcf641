"""The order of a program's operators with the least peak memory.

A program is a DAG of operators over tensors (`OperatorGraph`): each operator touches some
tensors, may use a workspace of its own while it runs, and must follow its predecessors.
A tensor is live from the first operator that touches it to the last (from the start for
an input, to the end for an output); while an operator runs, the tensors live around it,
those it touches and its workspace take memory together, and an order's peak is the most
any operator takes.

`least_peak_order` finds the order of least peak by dynamic programming over the sets of
operators already run (Serenity, Ahn et al., MLSys 2020): what is live after a set does not
depend on the order that ran it, so for every set of k operators closed under predecessors
it keeps the least peak of any order reaching it, layer k by layer k + 1. That is exact
whenever no layer holds more than `max_states` sets: for every graph of at most 14
operators at the default 4096 (no layer of 14 can hold more than C(14, 7) = 3432), and for
far larger graphs of little width (a chain of n operators has one set per layer, a residual
network two or three). Above it a layer keeps its `max_states` best sets (least peak, then
least memory after them, then by their operators' indices), a deterministic beam search.
The search's work (sets x operators x tensors, over every layer) is held under
`WORK_BUDGET` by narrowing the beam, so that a pass that runs by default stays a fraction
of a plan's time: on a program so large that even one set a layer is over it (an LSTM
unrolled over its time steps: a thousand operators over a thousand tensors), the given
order is kept, not proven. The order returned never has a higher peak than the given
order (indices 0..n-1): where the search finds no lower peak, that order is kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

DEFAULT_MAX_STATES = 4096
WORK_BUDGET = 50_000_000
"""Tensors visited by the search at most, a few seconds of Python."""


@dataclass(frozen=True)
class OperatorGraph:
    """Operators 0..n-1 in the program's order, over tensors 0..m-1."""

    tensor_sizes: tuple[int, ...]
    touches: tuple[frozenset[int], ...]
    """The tensors each operator reads or writes."""
    predecessors: tuple[frozenset[int], ...]
    """The operators each operator must follow."""
    workspaces: tuple[int, ...]
    """Bytes each operator needs besides the tensors while it runs."""
    live_in: frozenset[int] = frozenset()
    """Tensors live from the start (the program's inputs)."""
    live_out: frozenset[int] = frozenset()
    """Tensors live to the end (the program's outputs)."""

    def __len__(self) -> int:
        return len(self.touches)


@dataclass(frozen=True)
class Schedule:
    order: tuple[int, ...]
    peak: int
    exact: bool
    """Whether no order of the graph has a lower peak."""


class _Memory:
    """Bytes live after a set of operators, and while one more runs, the set as a bit mask."""

    def __init__(self, graph: OperatorGraph):
        self.graph = graph
        self.touched_by = [0] * len(graph.tensor_sizes)
        for op, tensors in enumerate(graph.touches):
            for tensor in tensors:
                self.touched_by[tensor] |= 1 << op
        self.tensors = [
            (t, size, mask, t in graph.live_in, t in graph.live_out)
            for t, (size, mask) in enumerate(zip(graph.tensor_sizes, self.touched_by, strict=True))
            if mask and size
        ]

    def live_after(self, done: int) -> int:
        total = 0
        for _, size, mask, live_in, live_out in self.tensors:
            started = live_in or mask & done
            finished = not live_out and not mask & ~done
            if started and not finished:
                total += size
        return total

    def during(self, done: int, op: int) -> int:
        """Bytes while `op` runs after the operators of `done`."""
        total = self.graph.workspaces[op]
        touched = self.graph.touches[op]
        for t, size, mask, live_in, live_out in self.tensors:
            if t in touched or ((live_in or mask & done) and (live_out or mask & ~done)):
                total += size
        return total


def order_peak(graph: OperatorGraph, order: Sequence[int]) -> int:
    """The peak of running `graph`'s operators in `order`."""
    memory = _Memory(graph)
    done, peak = 0, 0
    for op in order:
        peak = max(peak, memory.during(done, op))
        done |= 1 << op
    return peak


def is_topological(graph: OperatorGraph, order: Sequence[int]) -> bool:
    seen: set[int] = set()
    for op in order:
        if op in seen or not graph.predecessors[op] <= seen:
            return False
        seen.add(op)
    return len(seen) == len(graph)


def least_peak_order(graph: OperatorGraph, max_states: int = DEFAULT_MAX_STATES) -> Schedule:
    """The order of least peak (see the module's doc); `max_states` >= 1."""
    if max_states < 1:
        raise ValueError("max_states must be at least 1")
    n = len(graph)
    memory = _Memory(graph)
    max_states = min(max_states, WORK_BUDGET // max(1, n * n * len(memory.tensors)))
    if max_states < 1:
        return Schedule(tuple(range(n)), order_peak(graph, range(n)), False)
    needs = [sum(1 << p for p in graph.predecessors[op]) for op in range(n)]
    # Each set: its peak so far, and the set and operator it was reached from.
    layer: dict[int, tuple[int, int, int]] = {0: (0, -1, -1)}
    history: list[dict[int, tuple[int, int, int]]] = [layer]
    exact = True
    for _ in range(n):
        following: dict[int, tuple[int, int, int]] = {}
        for done, (peak, _, _) in layer.items():
            for op in range(n):
                bit = 1 << op
                if done & bit or needs[op] & ~done:
                    continue
                reached = done | bit
                candidate = max(peak, memory.during(done, op))
                best = following.get(reached)
                if best is None or candidate < best[0]:
                    following[reached] = (candidate, done, op)
        if len(following) > max_states:
            exact = False
            kept = sorted(following, key=lambda s: (following[s][0], memory.live_after(s), s))[
                :max_states
            ]
            following = {s: following[s] for s in kept}
        history.append(following)
        layer = following
    if not layer:
        raise ValueError("the operators' predecessors form a cycle")
    ((done, (peak, _, _)),) = layer.items()
    order: list[int] = []
    for states in reversed(history[1:]):
        _, previous, op = states[done]
        order.append(op)
        done = previous
    order.reverse()
    given = order_peak(graph, range(n))
    if peak >= given:
        return Schedule(tuple(range(n)), given, exact)
    return Schedule(tuple(order), peak, exact)
