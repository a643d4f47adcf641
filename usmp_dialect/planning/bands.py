"""Band (line-buffer) schedules of a chain of row operators, and the choice of the stages
to band (MCUNetV2's patch-based inference, with halo rows kept rather than recomputed).

A row operator computes its output row by row; output row `y` reads input rows
`stride * y + low` to `stride * y + high` (clipped to the input). A stage of such
operators, each reading the one before, runs band by band: each step computes the next
`band_height` rows of the stage's output, and each operator before it only the rows the
next one still needs. An intermediate then lives in a rolling buffer of a few rows (row
`r` in slot `r % rows`), so no row is computed twice: the stage's multiply-accumulates are
exactly the unbanded ones, and what a band costs is the index arithmetic and the calls.
Plain data, no IR: the pass `tir-band-stages` builds the chain from TIR.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property

BANDS_ATTR = "usmp.bands"
"""The entry's record of what `tir-band-stages` banded, and why not the rest."""

__all__ = [
    "BANDS_ATTR",
    "BandSchedule",
    "Program",
    "RowOperator",
    "Stage",
    "Workspace",
    "choose_stages",
    "recomputed_rows",
    "schedule",
]


@dataclass(frozen=True)
class Workspace:
    """A buffer an operator allocates for itself (index `buffer` into the program's),
    `rows` rows of `row_bytes` along its chain's row dimension. A call that computes `h`
    output rows holds `stride * (h - 1) + span` of them, as `tir-band-stages` sizes a band
    copy's buffers."""

    buffer: int
    rows: int
    row_bytes: int
    stride: int
    span: int

    def held_bytes(self, height: int) -> int:
        return min(self.rows, self.stride * (height - 1) + self.span) * self.row_bytes


@dataclass(frozen=True)
class RowOperator:
    """One operator of a chain: `rows` output rows of `row_bytes` each, reading the
    previous operator's output (or the stage's input, `input_rows` of
    `input_row_bytes`); `workspaces`, the buffers it allocates that a band call holds
    in fewer rows."""

    name: str
    rows: int
    row_bytes: int
    input_rows: int
    input_row_bytes: int
    stride: int
    low: int
    high: int
    workspaces: tuple[Workspace, ...] = ()

    def input_rows_for(self, begin: int, end: int) -> tuple[int, int]:
        """The input rows [first, last + 1) that output rows [begin, end) read."""
        first = max(0, self.stride * begin + self.low)
        last = min(self.input_rows - 1, self.stride * (end - 1) + self.high)
        return first, last + 1


@dataclass(frozen=True)
class BandSchedule:
    """`steps[t][k]`: the output rows [begin, end) operator `k` computes in step `t`;
    `buffer_rows[k]`: the rows of operator `k`'s rolling buffer (the last operator writes
    the stage's whole output)."""

    band_height: int
    steps: tuple[tuple[tuple[int, int], ...], ...]
    buffer_rows: tuple[int, ...]

    def calls(self) -> int:
        return sum(1 for step in self.steps for begin, end in step if end > begin)


def schedule(chain: Sequence[RowOperator], band_height: int) -> BandSchedule:
    """The band schedule of `chain` computing `band_height` rows of its last operator's
    output a step, each operator as late and as little as the next one allows."""
    n = len(chain)
    last = chain[-1]
    produced = [0] * n
    buffer_rows = [0] * (n - 1)
    steps = []
    for begin in range(0, last.rows, band_height):
        needed = [0] * n
        needed[-1] = min(begin + band_height, last.rows)
        for k in range(n - 1, 0, -1):
            if needed[k] > produced[k]:
                first, end = chain[k].input_rows_for(produced[k], needed[k])
                needed[k - 1] = max(produced[k - 1], end)
                buffer_rows[k - 1] = max(buffer_rows[k - 1], needed[k - 1] - first)
            else:
                needed[k - 1] = produced[k - 1]
        steps.append(tuple(zip(produced, needed, strict=True)))
        produced = needed
    return BandSchedule(band_height, tuple(steps), tuple(buffer_rows))


def recomputed_rows(chain: Sequence[RowOperator], band_height: int) -> tuple[int, ...]:
    """The rows each operator of `chain` computes when each band of `band_height` rows of
    the last one's output recomputes every row it reads (patch-based inference without
    rolling buffers): the halo rows two bands share are computed twice. The schedule
    `schedule` builds computes `chain[k].rows` (what a row behind a stride that no window
    reads saves aside)."""
    computed = [0] * len(chain)
    for band in range(0, chain[-1].rows, band_height):
        begin, end = band, min(band + band_height, chain[-1].rows)
        for k in range(len(chain) - 1, -1, -1):
            computed[k] += end - begin
            begin, end = chain[k].input_rows_for(begin, end)
    return tuple(computed)


@dataclass(frozen=True)
class Stage:
    """Operators `first` to `last` (inclusive) of chain `chain`, banded by `plan`."""

    chain: int
    first: int
    last: int
    plan: BandSchedule


@dataclass(frozen=True)
class Program:
    """What the chooser sees of a program: `live[s]`, the buffers (indices into `sizes`)
    live at step `s`; the chains of row operators, each operator `k` of chain `c` running
    at step `steps[c][k]` and writing buffer `outputs[c][k]`; `shares`, in step order,
    each `(step, x, y)`: the operator at `step` writes buffer `y` over buffer `x`, which
    dies there (the pair `tir-in-place-results`, which runs after the bands, takes), so
    `y`'s bytes are `x`'s. Banding a share's step undoes it: the stage's calls
    interleave, so `x` no longer dies where `y` is born.

    `points[s]`: the indices into `live` of step `s`'s points, the moments of its call
    where a buffer's life begins (its operators' own buffers included, each live at the
    statements that use it, as the planner counts them); default: `live[s]` alone. A step
    costs its points' most bytes."""

    live: tuple[frozenset[int], ...]
    sizes: tuple[int, ...]
    chains: tuple[tuple[RowOperator, ...], ...]
    steps: tuple[tuple[int, ...], ...]
    outputs: tuple[tuple[int, ...], ...]
    shares: tuple[tuple[int, int, int], ...] = ()
    points: tuple[range, ...] = ()

    def points_of(self, step: int) -> range:
        return self.points[step] if self.points else range(step, step + 1)

    def band_bytes(self, stage: Stage) -> int:
        """The bytes a stage's rolling buffers hold."""
        operators = self.chains[stage.chain][stage.first : stage.last]
        return sum(
            op.row_bytes * rows for op, rows in zip(operators, stage.plan.buffer_rows, strict=True)
        )

    def steps_of(self, stage: Stage) -> tuple[int, ...]:
        """The program's steps a stage's operators run at."""
        return self.steps[stage.chain][stage.first : stage.last + 1]

    def stage_bytes(self, stage: Stage, banded: frozenset[int] = frozenset()) -> int:
        """The bytes live at each of a banded stage's steps, the steps `banded` (other
        stages') banded too: its steps run interleaved, so everything live at any of them
        is live at all of them, but its intermediates (the outputs of all its operators
        but the last) are its rolling buffers. An intermediate is used by two calls of
        the stage alone, so it is live at no other step. Its operators' own buffers hold
        the rows a band call computes, each live during its call only."""
        undone = self._undone(banded | frozenset(self.steps_of(stage)))
        key = (stage.chain, stage.first, stage.last, stage.plan.band_height, undone)
        if key not in self._stage_levels:
            owner = self._owners(undone)
            operators = self.chains[stage.chain][stage.first : stage.last + 1]
            removed = {self.outputs[stage.chain][k] for k in range(stage.first, stage.last)}
            removed |= {w.buffer for op in operators for w in op.workspaces}
            union = {
                owner.get(b, b)
                for t in self.steps_of(stage)
                for p in self.points_of(t)
                for b in self.live[p]
            }
            own = max(self._workspace_bytes(stage, k) for k in range(len(operators)))
            self._stage_levels[key] = (
                sum(self.sizes[b] for b in union - removed) + self.band_bytes(stage) + own
            )
        return self._stage_levels[key]

    def _workspace_bytes(self, stage: Stage, k: int) -> int:
        """The most bytes of its own buffers the band calls of the stage's `k`th operator
        hold at once (each sized for the most rows one of its calls computes)."""
        op = self.chains[stage.chain][stage.first + k]
        if not op.workspaces:
            return 0
        height = max(step[k][1] - step[k][0] for step in stage.plan.steps)
        step = self.steps_of(stage)[k]
        return max(
            sum(w.held_bytes(height) for w in op.workspaces if w.buffer in self.live[p])
            for p in self.points_of(step)
        )

    def step_bytes(self, stages: Sequence[Stage]) -> list[int]:
        """The bytes live at each of the program's steps, with `stages` (disjoint)
        banded."""
        banded = frozenset(t for stage in stages for t in self.steps_of(stage))
        levels = self._levels(self._undone(banded))
        totals = [
            max(levels[p] for p in self.points_of(t)) for t in range(len(self.points or self.live))
        ]
        for stage in stages:
            level = self.stage_bytes(stage, banded)
            for t in self.steps_of(stage):
                totals[t] = level
        return totals

    def peak_bytes(self, stages: Sequence[Stage]) -> int:
        """The largest sum of live bytes over the program's steps, with `stages` banded."""
        return max(self.step_bytes(stages), default=0)

    @cached_property
    def _stage_levels(self) -> dict[tuple, int]:
        return {}

    @cached_property
    def _step_levels(self) -> dict[frozenset[int], tuple[int, ...]]:
        return {}

    def _undone(self, banded: frozenset[int]) -> frozenset[int]:
        """The shares (indices) that banding the steps `banded` undoes."""
        return frozenset(i for i, share in enumerate(self.shares) if share[0] in banded)

    def _owners(self, undone: frozenset[int]) -> dict[int, int]:
        """Each buffer written over another, with the buffer whose bytes it takes (the
        first of a run of shares), but by the shares `undone`."""
        owner: dict[int, int] = {}
        for i, (_, x, y) in enumerate(self.shares):
            if i not in undone:
                owner[y] = owner.get(x, x)
        return owner

    def _levels(self, undone: frozenset[int]) -> tuple[int, ...]:
        """The bytes live at each point, nothing banded, but the shares `undone`. Buffers
        sharing bytes are one buffer from the first's first point to the last's last."""
        if undone not in self._step_levels:
            owner = self._owners(undone)
            spans: dict[int, tuple[int, int]] = {}
            for b, root in owner.items():
                for member in (b, root):
                    if member in self._lifetimes:
                        first, last = self._lifetimes[member]
                        low, high = spans.get(root, (first, last))
                        spans[root] = (min(low, first), max(high, last))
            self._step_levels[undone] = tuple(
                sum(
                    self.sizes[b]
                    for b in {owner.get(b, b) for b in buffers}
                    | {root for root, (first, last) in spans.items() if first <= p <= last}
                )
                for p, buffers in enumerate(self.live)
            )
        return self._step_levels[undone]

    @cached_property
    def _lifetimes(self) -> dict[int, tuple[int, int]]:
        """Each buffer's first and last point."""
        lifetimes: dict[int, tuple[int, int]] = {}
        for p, buffers in enumerate(self.live):
            for b in buffers:
                lifetimes[b] = (lifetimes.get(b, (p, p))[0], p)
        return lifetimes


def choose_stages(program: Program, band_heights: Sequence[int] | None = None) -> list[Stage]:
    """Disjoint stages (two operators or more, or one with buffers of its own) that lower
    the program's peak, the bytes live at once as `tir-in-place-results` leaves them;
    none where no set of stages lowers it (bands cost index arithmetic and calls on the
    device: for nothing then).
    Chosen greedily: each round adds the stage (in place of those it overlaps) that lowers
    most the peak, then the number of steps at the peak (several steps may share it,
    each needing a stage of its own before it drops), ties broken by the fewest
    operators, then the fewest calls; until none lowers them. The stages the lower peak
    does not need are then dropped (one that only took a step off a peak that later
    rounds lowered anyway). `band_heights`: the heights to try (default: each height that
    gives another number of steps). A round tries only the stages that could lower the
    peak: those running at a step at the peak, or in place of a stage that does; a
    program whose peak is at no chain's operator costs no band schedule at all."""
    chosen: list[Stage] = []
    unbanded = program.peak_bytes([])
    best = _at_peak(program.step_bytes([]))
    schedules: dict[tuple[int, int, int, int], Stage] = {}
    while True:
        totals = program.step_bytes(chosen)
        at_peak = {t for t, total in enumerate(totals) if total == best[0]}
        candidate: tuple[tuple[int, int, int, int], list[Stage]] | None = None
        for chain, first, last in _spans(program):
            kept = [c for c in chosen if not _overlaps(c, chain, first, last)]
            steps = program.steps[chain][first : last + 1]
            if at_peak.isdisjoint(steps) and len(kept) == len(chosen):
                continue
            operators = program.chains[chain][first : last + 1]
            for height in _heights(operators[-1].rows, band_heights):
                if (chain, first, last, height) not in schedules:
                    schedules[chain, first, last, height] = Stage(
                        chain, first, last, schedule(operators, height)
                    )
                stages = [*kept, schedules[chain, first, last, height]]
                peak = _at_peak(program.step_bytes(stages))
                if not peak < best:
                    continue
                key = (
                    *peak,
                    sum(s.last - s.first for s in stages),
                    sum(s.plan.calls() for s in stages),
                )
                if candidate is None or key < candidate[0]:
                    candidate = (key, stages)
        if candidate is None:
            break
        chosen = candidate[1]
        best = (candidate[0][0], candidate[0][1])
    if best[0] >= unbanded:
        return []
    return sorted(_needed(program, chosen), key=lambda s: (s.chain, s.first))


def _needed(program: Program, stages: list[Stage]) -> list[Stage]:
    """`stages` but those whose dropping leaves their peak as it is, tried the most calls
    first."""
    peak = program.peak_bytes(stages)
    for stage in sorted(stages, key=lambda s: -s.plan.calls()):
        fewer = [s for s in stages if s is not stage]
        if program.peak_bytes(fewer) <= peak:
            stages = fewer
    return stages


def _spans(program: Program) -> Iterator[tuple[int, int, int]]:
    """Each run of two operators or more of a chain, and each operator with buffers of
    its own (which a band holds in fewer rows): (chain, first, last)."""
    for c, chain in enumerate(program.chains):
        for first in range(len(chain)):
            alone = first if chain[first].workspaces else first + 1
            for last in range(alone, len(chain)):
                yield c, first, last


def _overlaps(stage: Stage, chain: int, first: int, last: int) -> bool:
    return stage.chain == chain and stage.first <= last and first <= stage.last


def _at_peak(totals: Sequence[int]) -> tuple[int, int]:
    """The peak and the number of steps at it."""
    peak = max(totals, default=0)
    return peak, sum(1 for t in totals if t == peak)


def _heights(rows: int, band_heights: Sequence[int] | None) -> list[int]:
    if band_heights is not None:
        return [h for h in band_heights if h <= rows]
    heights: dict[int, int] = {}
    for h in range(rows, 0, -1):
        heights[-(-rows // h)] = h
    return sorted(heights.values())
