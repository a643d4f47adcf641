"""A branch and bound over canonical plans, in the spirit of MiniMalloc (Moffitt, ASPLOS 2024).

The search itself (canonical placements, dominance, section inference, dynamic
decomposition) is the compiled loop in `search_kernel`; this module builds its arrays for
one pool and decides which capacities to ask it about.

A question is a decision: do the pool's buffers fit in `capacity` bytes? Like MiniMalloc,
each question takes turns with three static tie-breaking orders under a node limit that
doubles every round, so one unlucky early decision cannot take all the time; a run that
ends without hitting its limit is a proof either way.

`improve_plan` starts from a given plan, first asks for a plan at the lower bound (max-live,
which settles most instances at once), then bisects between the largest capacity known (or
presumed, after a question ran out of steps) to be too small and the best plan found, until
the steps run out or the two meet: then the best plan is proven optimal when every
capacity below it was proven too small. `exact` then gives a pool left unproven a descent:
questions a quarter or an eighth of the gap below the best plan, with all the steps left.
Every limit is a count of nodes or of steps (the kernel's measure of work), so the same
problem gets the same answers on every run; the time cap is looked at between slices.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TypedDict

import numpy as np

from usmp_dialect.planning.algorithms import search_kernel
from usmp_dialect.planning.algorithms.kernel import (
    compiled,
    interpreted,
    interpreted_seconds,
    ready,
)
from usmp_dialect.planning.algorithms.placement import single_spans
from usmp_dialect.planning.algorithms.work import SEARCH_STEP_SECONDS, TimeCap
from usmp_dialect.planning.conflicts import (
    max_live_of,
    symmetric_conflicts,
)
from usmp_dialect.planning.problem import Plan, Problem, ProvenLowerBound, unique_values

MAX_SEARCH_BUFFERS = 2000
"""Beyond this many buffers in a pool the search's per-node cost (linear in the buffers)
buys nothing within any sensible limit: the pool keeps the portfolio's placement."""

_LOWER_BOUND_SHARE = 0.25
"""The share of a pool's steps spent asking for a plan at the lower bound first."""

_BISECTION_SLICES = 4
"""A bisection question gets this share (1/n) of the steps left."""

_RESTART_NOISE = 4.0
"""Standard deviation, in ranks, of the noise that shakes a restart's preorder: a few
neighbours swap places, the order's character stays."""

_RESTART_NODES = 64
"""Nodes per buffer of the shortest restart."""

_DESCENT_NODES = 94
"""Nodes per buffer of every run of a descent (`Search.descend`): short, equal runs, about
20000 nodes on MiniMalloc's D, where a plan well below the bisection's shows up once in a
hundred or two seeds whatever the capacity asked, and a longer run of an unlucky seed
rarely turns lucky."""

_DESCENT_NOISE = 5.0
"""Standard deviation, in ranks, of the noise of a descent's preorders."""

_DESCENT_FRACTIONS = (4, 8)
"""A descent's runs ask in turn these fractions (1/n) of the gap between the best plan and
the capacities proven too small below it: which seed finds a plan at which capacity is
luck, and a plan a quarter of the gap down is worth two an eighth down."""

_STEPS_PER_SLICE = 1_000_000
"""Steps the compiled loop takes between two looks at the time cap (a few milliseconds)."""

_INTERPRETED_SECONDS = 0.3
"""CPU seconds a process's kernels run in plain Python (`interpreted_seconds`: the searches'
and the placements' before them) before a search compiles its loop, when no build of it
ahead of time is on disk (a machine's first run, or numba's JIT where it cannot be built,
`kernel`): about what loading numba
and the compiled search costs (0.4 s), and a step compiled takes a few ns
against 0.3-1.2 us. A search that ends within them (MiniMalloc's C at max-live: 0.5M
steps, 0.19 s) never pays for numba; a longer one pays at most about twice what it would
have compiled from the start. The plain Python and the compiled loop are the same code on
the same arrays, resumed where the other paused: the plans do not depend on the clock."""

_INTERPRETED_SLICE = 100_000
"""Steps of plain Python between two looks at the time cap and at `_INTERPRETED_SECONDS`
(at most about a tenth of a second)."""

_MAX_KEY = np.iinfo(np.int64).max // 2

_SEARCH_LOOP = search_kernel.run
"""The search loop as a kernel (`search_kernel.run` itself becomes numba's JIT function in
a process that loads numba)."""

_STOP_ARGUMENT = 24
"""Where the step at which the loop pauses is among its arguments."""

_GROWN_ARGUMENTS = slice(17, 22)
"""Where the arrays the loop grows into (`Search._grow`) are among its arguments."""


@dataclass(frozen=True)
class Subproblem:
    """One pool's buffers, renumbered, as the search needs them."""

    sizes: np.ndarray
    alignments: np.ndarray
    nb_ptr: np.ndarray
    nb_idx: np.ndarray
    """Conflicts in CSR form (symmetric, no self-loops)."""
    section_start: np.ndarray
    """Per buffer, the first section its lifetime covers."""
    section_end: np.ndarray
    """Per buffer, one past the last section (equal to the start when there are none)."""
    num_sections: int
    preorders: tuple[np.ndarray, ...]
    """Static tie-breaking orders to take turns with: per buffer, its rank in each
    (MiniMalloc's WAT, TAW and TWA)."""
    width: np.ndarray
    """Per buffer, its lifetime's length (float64), for the orders of the pieces."""
    area: np.ndarray

    @property
    def num_buffers(self) -> int:
        return len(self.sizes)


def subproblem_of(problem: Problem, buffers: np.ndarray) -> Subproblem:
    sizes = problem.sizes[buffers].astype(np.int64)
    alignments = np.maximum(problem.alignments[buffers].astype(np.int64), 1)
    spans = single_spans(problem)
    if spans is not None:
        start = spans[0][buffers].astype(np.int64)
        end = spans[1][buffers].astype(np.int64)
        live = end > start
        # MiniMalloc's sections: one per distinct end time, holding the buffers live just
        # before it. Between two ends only starts happen, so no other time holds more.
        ends = unique_values(end[live])
        section_start = np.searchsorted(ends, start, side="right").astype(np.int64)
        section_end = np.searchsorted(ends, end, side="right").astype(np.int64)
        section_end = np.where(live, section_end, section_start)
        # Sort by start: the buffers overlapping `i` that start after it are those
        # starting before its end; each pair is found once and mirrored.
        order = np.argsort(section_start, kind="stable")
        last = np.searchsorted(section_start[order], section_end[order], side="left")
        later = np.where(live[order], np.maximum(last - np.arange(len(order)) - 1, 0), 0)
        source = np.repeat(order, later)
        first = np.repeat(np.cumsum(later) - later, later)
        target = order[np.repeat(np.arange(len(order)) + 1, later) + np.arange(len(first)) - first]
        meets = live[target]
        source, target = source[meets], target[meets]
        nb_ptr, nb_idx = _csr(
            len(buffers), np.concatenate((source, target)), np.concatenate((target, source))
        )
        num_sections = len(ends)
        width = _real_widths(problem, buffers)
    else:
        neighbours = symmetric_conflicts(problem.conflicts)
        indptr, indices = neighbours.indptr, neighbours.indices
        local = np.full(problem.num_buffers, -1, dtype=np.int64)
        local[buffers] = np.arange(len(buffers))
        source_list, target_list = [], []
        for position, buffer in enumerate(buffers.tolist()):
            mapped = local[indices[indptr[buffer] : indptr[buffer + 1]]]
            mapped = mapped[mapped >= 0]
            source_list.append(np.full(len(mapped), position, dtype=np.int64))
            target_list.append(mapped)
        source = np.concatenate(source_list) if source_list else np.zeros(0, dtype=np.int64)
        target = np.concatenate(target_list) if target_list else np.zeros(0, dtype=np.int64)
        nb_ptr, nb_idx = _csr(len(buffers), source, target)
        section_start = np.zeros(len(buffers), dtype=np.int64)
        section_end = section_start
        num_sections = 0
        width = np.diff(nb_ptr).astype(np.float64)
    area = width * sizes.astype(np.float64)
    pressure = _pressure(sizes, section_start, section_end, num_sections)
    # MiniMalloc's three: by lifetime, area and section pressure in turn (W, A, T).
    preorders = tuple(
        ranks_of(keys)
        for keys in (
            (-width, -area, -pressure),
            (-pressure, -area, -width),
            (-pressure, -width, -area),
        )
    )
    return Subproblem(
        sizes,
        alignments,
        nb_ptr,
        nb_idx,
        section_start,
        section_end,
        num_sections,
        preorders,
        width,
        area,
    )


def _real_widths(problem: Problem, buffers: np.ndarray) -> np.ndarray:
    """Each buffer's lifetime length in the problem's own time units (MiniMalloc's W)."""
    intervals = problem.intervals
    assert intervals is not None
    width = np.zeros(problem.num_buffers, dtype=np.float64)
    length = (intervals.end - intervals.start).astype(np.float64)
    live = length > 0
    np.add.at(width, np.asarray(intervals.owner, dtype=np.int64)[live], length[live])
    return width[buffers]


def _csr(n: int, source: np.ndarray, target: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    order = np.lexsort((target, source))
    nb_ptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(source, minlength=n), out=nb_ptr[1:])
    return nb_ptr, np.ascontiguousarray(target[order], dtype=np.int64)


def ranks_of(keys: tuple[np.ndarray, ...]) -> np.ndarray:
    """Each buffer's rank when sorted by `keys`, most significant first; ties by index."""
    order = np.lexsort((np.arange(len(keys[0])), *keys[::-1]))
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
        [
            live[a:b].max(initial=size)
            for a, b, size in zip(section_start, section_end, sizes, strict=True)
        ],
        dtype=np.int64,
    )


class Search:
    """Decision questions about one subproblem, answered by the compiled search."""

    def __init__(self, sub: Subproblem, cap: TimeCap, restarts: bool = False):
        kernel = search_kernel
        self.restarts = restarts
        self.kernel = kernel
        self.sub = sub
        self.cap = cap
        self.nodes = 0
        self.steps = 0
        self.best: np.ndarray | None = None
        self.best_height = 0
        self.descents = len(sub.preorders)  # the seed of the next descent run
        n = sub.num_buffers
        sections = sub.num_sections
        self.sizes = sub.sizes
        # Buffers of no size or no lifetime meet nobody: they sit at 0 and are not searched.
        if sections:
            searched = (sub.sizes > 0) & (sub.section_end > sub.section_start)
        else:
            searched = sub.sizes > 0
        self.fixed = np.flatnonzero(~searched)
        self.initial_list = np.flatnonzero(searched)
        self.initial_list = self.initial_list[
            np.argsort(sub.section_start[self.initial_list], kind="stable")
        ].astype(np.int64)
        start, end = sub.section_start[searched], sub.section_end[searched]
        members = self.initial_list
        lengths = sub.section_end[members] - sub.section_start[members]
        owner = np.repeat(members, lengths)
        first_entry = np.repeat(np.cumsum(lengths) - lengths, lengths)
        section = (
            np.repeat(sub.section_start[members], lengths)
            + np.arange(int(lengths.sum()))
            - first_entry
        )
        by_section = np.argsort(section, kind="stable")
        self.sm_idx = np.ascontiguousarray(owner[by_section], dtype=np.int64)
        self.sm_ptr = np.zeros(max(sections, 1) + 1, dtype=np.int64)
        np.cumsum(np.bincount(section, minlength=max(sections, 1)), out=self.sm_ptr[1:])
        change = np.zeros(sections + 1, dtype=np.int64)
        np.add.at(change, start, sub.sizes[searched])
        np.add.at(change, end, -sub.sizes[searched])
        self.section_bytes = np.cumsum(change)[:sections]
        # Buffers crossing the boundary after each section.
        crossing = np.zeros(sections + 1, dtype=np.int64)
        np.add.at(crossing, start, 1)
        np.add.at(crossing, np.maximum(end - 1, start), -1)
        self.initial_cut = np.zeros(max(sections, 1), dtype=np.int64)
        self.initial_cut[: max(sections, 0)] = np.cumsum(crossing)[:sections]
        self.max_degree = int(np.diff(sub.nb_ptr).max(initial=0))
        self.key_scale = max(n, 1)
        # Arrays the compiled loop grows into; kept across questions.
        self.trail = np.zeros((4 * n + self.max_degree + 64, 3), dtype=np.int64)
        self.ls = np.zeros(8 * n + 64, dtype=np.int64)
        self.fr = np.zeros((n + 8, kernel.F_COLUMNS), dtype=np.int64)
        self.pt = np.zeros((3 * n + 8, kernel.P_COLUMNS), dtype=np.int64)
        self.rc = np.zeros((n + 8, kernel.R_COLUMNS), dtype=np.int64)

    def lower_bound(self) -> int:
        return int(max(self.section_bytes.max(initial=0), self.sizes.max(initial=0)))

    def _grow(self, short: int) -> None:
        """Doubles the arrays the loop found short (`search_kernel.ST_SHORT`): only those,
        as a deep search needs a long list stack and little else (resnet50's grew 128x)."""
        kernel = self.kernel
        for bit, name in (
            (kernel.SHORT_LIST, "ls"),
            (kernel.SHORT_TRAIL, "trail"),
            (kernel.SHORT_FRAMES, "fr"),
            (kernel.SHORT_PARTITIONS, "pt"),
            (kernel.SHORT_RECORDS, "rc"),
        ):
            if short & bit:
                array = getattr(self, name)
                setattr(self, name, np.concatenate((array, np.zeros_like(array))))

    def run(
        self,
        capacity: int,
        heuristic: int,
        node_limit: int,
        step_limit: int = -1,
        ranks: np.ndarray | None = None,
    ) -> int:
        """One search under `capacity` with one preorder (`ranks`, by default the static
        preorder `heuristic`, which also orders the pieces of a split): FOUND, INFEASIBLE,
        or PAUSED when it hit `node_limit` nodes or `step_limit` steps (-1: none) or the
        time cap."""
        kernel = self.kernel
        n = self.sub.num_buffers
        if capacity * self.key_scale + n >= _MAX_KEY:
            return kernel.PAUSED  # offsets too large to order by one integer key
        sizes = self.sub.sizes
        if sizes.max(initial=0) > capacity:
            return kernel.INFEASIBLE
        min_off = np.zeros(n, dtype=np.int64)
        offset = np.zeros(n, dtype=np.int64)
        placed = np.zeros(n, dtype=np.uint8)
        placed[self.fixed] = 1
        witness = np.full(self.sub.num_sections, -1, dtype=np.int64)
        total = self.section_bytes.copy()
        cut = self.initial_cut.copy()
        st = np.zeros(kernel.ST_SIZE, dtype=np.int64)
        rank = (self.sub.preorders[heuristic] if ranks is None else ranks).copy()
        unlimited = np.iinfo(np.int64).max
        limit = node_limit if node_limit > 0 else unlimited
        step_end = step_limit if step_limit > 0 else unlimited
        arguments = [
            capacity,
            sizes,
            self.sub.alignments,
            rank,
            self.sub.nb_ptr,
            self.sub.nb_idx,
            self.sub.section_start,
            self.sub.section_end,
            self.sm_ptr,
            self.sm_idx,
            self.initial_list,
            min_off,
            offset,
            placed,
            witness,
            total,
            cut,
            self.trail,
            self.ls,
            self.fr,
            self.pt,
            self.rc,
            st,
            limit,
            step_end,
            self.key_scale,
            self.max_degree,
            heuristic,
            self.sub.width,
            self.sub.area,
        ]
        while True:
            taken = int(st[kernel.ST_STEPS])
            loop = ready(_SEARCH_LOOP, tuple(arguments))
            if loop is None and interpreted_seconds() < _INTERPRETED_SECONDS:
                arguments[_STOP_ARGUMENT] = min(taken + _INTERPRETED_SLICE, step_end)
                status = interpreted(_SEARCH_LOOP, *arguments)
            else:
                # Built ahead of time at a machine's first run, or numba's JIT where that
                # cannot be: seconds the time cap does not count (`kernel.compile_seconds`).
                loop = loop or compiled(_SEARCH_LOOP, tuple(arguments))
                arguments[_STOP_ARGUMENT] = min(taken + _STEPS_PER_SLICE, step_end)
                status = loop(*arguments)
            if status == kernel.NEED_SPACE:
                self._grow(int(st[kernel.ST_SHORT]))
                arguments[_GROWN_ARGUMENTS] = [self.trail, self.ls, self.fr, self.pt, self.rc]
                continue
            if status != kernel.PAUSED:
                break
            if st[kernel.ST_NODES] >= limit or st[kernel.ST_STEPS] >= step_end:
                break
            if self.cap.reached():
                break
        self.nodes += int(st[kernel.ST_NODES])
        self.steps += int(st[kernel.ST_STEPS])
        if status == kernel.FOUND:
            offset[self.fixed] = 0
            height = int((offset + sizes).max(initial=0))
            if self.best is None or height < self.best_height:
                self.best = offset.copy()
                self.best_height = height
        return status

    def decide(self, capacity: int, steps: int) -> bool | None:
        """Whether a plan fits `capacity` (`None`: unknown when `steps` more steps, or the
        time cap, ran out first), by runs that take turns with the static preorders
        (`_runs`); a run that ends before its node limit is a proof either way."""
        kernel = self.kernel
        end = self.steps + steps
        for heuristic, node_limit, ranks in self._runs():
            if end - self.steps <= 0 or self.cap.reached():
                return None
            status = self.run(capacity, heuristic, node_limit, end - self.steps, ranks)
            if status == kernel.FOUND:
                return True
            if status == kernel.INFEASIBLE:
                return False
        raise AssertionError("the node limits grow without bound")

    def descend(self, capacities: tuple[int, ...], steps: int) -> tuple[int, bool] | None:
        """The first of `capacities` a run answers, and whether a plan fits it (`None`: no
        answer when `steps` more steps, or the time cap, ran out): runs of
        `_DESCENT_NODES` nodes a buffer ask the capacities in turn, each with a preorder of
        its own (one of the static ones shaken by a noise seeded by the run's number, which
        goes on from question to question: no seed is tried twice)."""
        kernel = self.kernel
        n = self.sub.num_buffers
        preorders = self.sub.preorders
        end = self.steps + steps
        while end - self.steps > 0 and not self.cap.reached():
            seed = self.descents
            self.descents += 1
            heuristic = seed % len(preorders)
            ranks = shaken(preorders[heuristic], seed, _DESCENT_NOISE)
            capacity = capacities[seed % len(capacities)]
            status = self.run(capacity, heuristic, _DESCENT_NODES * n, end - self.steps, ranks)
            if status == kernel.FOUND:
                return capacity, True
            if status == kernel.INFEASIBLE:
                return capacity, False
        return None

    def _runs(self) -> Iterator[tuple[int, int, np.ndarray]]:
        """The runs of one question: (heuristic, node limit, preorder ranks).

        MiniMalloc's: the three preorders in turn under a node limit that doubles every
        round. With `restarts`, Luby's restarts instead (Luby, Sinclair and Zuckerman,
        1993): near the smallest capacity that fits, the steps one order takes to find a
        plan vary by orders of magnitude with its first few choices (on MiniMalloc's D,
        1.2e8 at 1025024 bytes, none in 1e9 at 1030144), and an order that failed mostly
        fails again the same way under a larger limit. Restart `i` gets `luby(i)` times
        `_RESTART_NODES` nodes a buffer and, after the first three, a preorder of its
        own: one of the three with its ranks shaken by a noise seeded by `i` (the same
        runs on every machine). Either way the limits grow without bound."""
        n = self.sub.num_buffers
        preorders = self.sub.preorders
        run = 0
        while True:
            heuristic = run % len(preorders)
            ranks = preorders[heuristic]
            if not self.restarts:
                yield heuristic, n << (run // len(preorders) + 1), ranks
            else:
                if run >= len(preorders):
                    ranks = shaken(ranks, run, _RESTART_NOISE)
                yield heuristic, _RESTART_NODES * n * _luby(run + 1), ranks
            run += 1


def shaken(preorder: np.ndarray, seed: int, deviation: float) -> np.ndarray:
    """The ranks of `preorder` shaken by a normal noise of `deviation` ranks seeded by
    `seed`: a few neighbours swap places, and every machine draws the same noise."""
    noise = np.random.default_rng(seed).normal(0.0, deviation, len(preorder))
    return ranks_of((preorder + noise,))


def _luby(i: int) -> int:
    """The `i`-th term (from 1) of Luby's sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, ...:
    restarts with these limits are within a log factor of the best fixed limit, whatever
    the distribution of the runs' lengths."""
    while True:
        k = i.bit_length()
        if i == (1 << k) - 1:
            return 1 << (k - 1)
        i -= (1 << (k - 1)) - 1


class PoolSearchNotes(TypedDict, total=False):
    """What the search of one pool did, for the plan's notes."""

    lower_bound: int
    incumbent: int
    nodes: int
    steps: int
    questions: list[tuple[int, bool | None]]
    """Each capacity asked about, and its answer (`None`: the steps ran out)."""
    proven_lower_bound: int
    """No plan of the pool's buffers is smaller (the capacities below were proven too
    small): `improve_pool`'s answer, which `plan_search` moves to `Plan.lower_bounds`."""


def search_notes(plan: Plan) -> dict[str, PoolSearchNotes]:
    """Per pool name the search ran on, what it did."""
    searched = plan.notes.get("search", {})
    assert isinstance(searched, dict)
    return searched


def improve_pool(
    sub: Subproblem,
    incumbent: np.ndarray,
    steps: int,
    cap: TimeCap,
    max_live: int,
    restarts: bool = False,
    descent_steps: int = 0,
    proof_steps: int = 0,
    asked: PoolSearchNotes | None = None,
    only_lower_bound: bool = False,
) -> tuple[np.ndarray, bool, PoolSearchNotes]:
    """The pool's offsets, as good as `steps` search steps made them, then `descent_steps`
    more of a descent (`_descend`), and whether they are optimal; `max_live` is the pool's
    (the search's own bound misses it when buffers live in several intervals); `restarts`
    as in `Search`. The first question, at the lower bound, gets `proof_steps` more than
    its share of `steps`: a plan there ends the search, proven. `only_lower_bound` asks
    that question alone; `asked` is what such an earlier call noted, whose questions and
    steps this one goes on from (the same work as one call, the lower bound asked first)."""
    bisection_steps = steps
    steps += proof_steps
    incumbent_height = int((incumbent + sub.sizes).max(initial=0))
    search = Search(sub, cap, restarts)
    if asked is not None:
        search.nodes, search.steps = asked.get("nodes", 0), asked.get("steps", 0)
    bound = max(search.lower_bound(), max_live)
    notes: PoolSearchNotes = {"lower_bound": bound, "incumbent": incumbent_height}
    if incumbent_height <= bound:
        return incumbent, True, notes
    if sub.num_buffers == 0 or incumbent_height * (sub.num_buffers + 1) >= _MAX_KEY:
        # Offsets too large for the search's one-integer ordering key (petabytes).
        return incumbent, False, notes
    # Every question asks for less than the incumbent, which respects any size hint.
    # Every top is a sum of sizes and aligned offsets: with all of them multiples of
    # `unit`, so is every pool size, and only multiples of it need asking about.
    unit = int(np.gcd.reduce(np.concatenate((sub.sizes, sub.alignments[sub.alignments > 1]))))
    unit = max(unit, 1)
    bound = -(-bound // unit) * unit
    best_height = incumbent_height
    proven_low = bound  # every capacity below this one is proven too small
    presumed_low = bound  # ... or ran out of time
    questions: list[tuple[int, bool | None]] = []
    given: dict[int, int] = {}  # steps each capacity was last given
    for capacity, answer in () if asked is None else asked.get("questions", ()):
        questions.append((capacity, answer))
        if answer is not True:  # a plan found ended that search, proven
            presumed_low = max(presumed_low, capacity + unit)
        if answer is False:
            proven_low = max(proven_low, capacity + unit)
    while proven_low < best_height and search.steps < steps and not cap.reached():
        if only_lower_bound and questions:
            break
        cap.report(best_height, proven_low)
        if presumed_low >= best_height:
            # Every capacity left ran out of steps: come back to them with what is left,
            # each at least twice its last share.
            presumed_low = proven_low
        if not questions:
            capacity = bound
            share = int(_LOWER_BOUND_SHARE * bisection_steps) + proof_steps
        else:
            capacity = max((presumed_low + best_height - 1) // 2 // unit * unit, presumed_low)
            share = max((steps - search.steps) // _BISECTION_SLICES, 2 * given.get(capacity, 0))
        share = max(min(share, steps - search.steps), 1)
        given[capacity] = share
        answer = search.decide(capacity, share)
        questions.append((capacity, answer))
        if answer is True:
            best_height = min(best_height, search.best_height)
        elif answer is False:
            proven_low = max(proven_low, capacity + unit)
            presumed_low = max(presumed_low, capacity + unit)
        else:
            presumed_low = max(presumed_low, capacity + unit)
    if search.steps >= steps:
        best_height, proven_low = _descend(
            search, best_height, proven_low, unit, descent_steps, questions
        )
    proven = proven_low >= best_height
    notes["nodes"] = search.nodes
    notes["steps"] = search.steps
    notes["questions"] = questions
    notes["proven_lower_bound"] = min(proven_low, best_height)
    if search.best is not None and search.best_height < incumbent_height:
        return search.best, proven, notes
    return incumbent, proven, notes


def _descend(
    search: Search,
    best_height: int,
    proven_low: int,
    unit: int,
    steps: int,
    questions: list[tuple[int, bool | None]],
) -> tuple[int, int]:
    """The best height and the proven lower bound after `steps` more steps of a descent:
    questions a step below the best plan (`_DESCENT_FRACTIONS` of the gap left), each with
    all the steps left, every plan found lowering the next question. Where the bisection's
    questions near an unreachable bound share the steps out and end up each too short, a
    descent spends them all just below what it knows to fit."""
    end = search.steps + steps
    while proven_low < best_height and search.steps < end and not search.cap.reached():
        search.cap.report(best_height, proven_low)
        gap = best_height - proven_low
        capacities = tuple(
            max((best_height - max(gap // fraction, unit)) // unit * unit, proven_low)
            for fraction in _DESCENT_FRACTIONS
        )
        answer = search.descend(capacities, end - search.steps)
        if answer is None:
            questions.extend((capacity, None) for capacity in capacities)
            break
        capacity, fits = answer
        questions.append((capacity, fits))
        if fits:
            best_height = min(best_height, search.best_height)
        else:
            proven_low = capacity + unit
    return best_height, proven_low


def fit_in_pool(
    problem: Problem, buffers: np.ndarray, capacity: int, steps: int, cap: TimeCap
) -> tuple[bool | None, np.ndarray | None, int]:
    """Whether `buffers` fit together in `capacity` bytes (`None`: unknown after `steps`
    search steps, or too many buffers to search), their offsets when they do, and the steps
    spent. The time cap does not count compiling the search, as in `improve_plan`."""
    if len(buffers) > MAX_SEARCH_BUFFERS:
        return None, None, 0
    search = Search(subproblem_of(problem, buffers), cap)
    answer = search.decide(capacity, steps)
    return answer, search.best if answer else None, search.steps


def improve_plan(
    problem: Problem,
    start_plan: Plan,
    seconds: float,
    cap: TimeCap,
    restarts: bool = False,
    descent_seconds: float = 0.0,
    proof_seconds: float = 0.0,
    asked: Mapping[str, PoolSearchNotes] | None = None,
    only_lower_bound: bool = False,
) -> Plan:
    """`start_plan` with every pool's offsets searched for `seconds` reference seconds of
    steps (`restarts` as in `Search`: for long searches) and `proof_seconds` more for the
    question at the pool's lower bound (`improve_pool`, as `only_lower_bound` and `asked`,
    here per pool name), then for `descent_seconds` more of a descent (`_descend`) where
    that left the pool unproven; compiling the search loop (about 12 s on a machine's first
    run, numba) is not counted against the time cap (`kernel.compile_seconds`)."""
    if start_plan.proven_optimal:
        return dataclasses.replace(start_plan, time_capped=cap.hit)
    pool = np.asarray(start_plan.pool, dtype=np.int64)
    offset = np.asarray(start_plan.offset, dtype=np.int64).copy()
    # Buffers only move within the pool the portfolio chose: with several candidate pools
    # the assignment is a heuristic and optimality is not claimed.
    assignment_fixed = all(len(c) == 1 for c in problem.candidates)
    all_proven = True
    pool_notes: dict[str, PoolSearchNotes] = {}
    bounds: list[ProvenLowerBound] = []
    used = unique_values(pool).tolist()
    for index in used:
        buffers = np.flatnonzero(pool == index)
        if len(buffers) > MAX_SEARCH_BUFFERS:
            all_proven = False
            continue
        sub = subproblem_of(problem, buffers)
        # Each pool gets an equal share of the work the pools before it left over.
        pools_left = len(used) - used.index(index)
        share = seconds / pools_left
        descent_share = descent_seconds / pools_left
        proof_share = proof_seconds / pools_left
        offsets, proven, notes = improve_pool(
            sub,
            offset[buffers],
            int(share / SEARCH_STEP_SECONDS),
            cap,
            max_live_of(problem, np.where(pool == index, problem.sizes, 0)),
            restarts,
            int(descent_share / SEARCH_STEP_SECONDS),
            int(proof_share / SEARCH_STEP_SECONDS),
            None if asked is None else asked.get(problem.pools[index].name),
            only_lower_bound,
        )
        spent = notes.get("steps", 0) * SEARCH_STEP_SECONDS
        proof_seconds -= min(spent, proof_share)
        spent = max(spent - proof_share, 0.0)
        descent_seconds -= max(spent - share, 0.0)
        seconds -= min(spent, share)
        offset[buffers] = offsets
        all_proven &= proven
        name = problem.pools[index].name
        bound = notes.pop("proven_lower_bound", None)
        if bound is not None:
            bounds.append(ProvenLowerBound(name, bound))
        pool_notes[name] = notes
    return Plan(
        pool=pool,
        offset=offset,
        proven_optimal=all_proven and assignment_fixed,
        time_capped=cap.hit,
        lower_bounds=tuple(bounds),
        notes={**start_plan.notes, "search": pool_notes},
    )
