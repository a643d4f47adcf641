"""`tir-reorder-for-memory`: the entry's operator calls run in the topological order of
least peak memory.

The calls of the entry function form a DAG over the buffers they pass
(`analysis/entry_calls.py`: a call that writes a buffer stays before those that touch it
after it in the file, and after those that touched it before); any topological order
computes the same values, but on a branching graph (a residual block, a U-Net's skip, an
inception cell) some keep fewer bytes live at once. The pass finds the order of least peak
by dynamic programming over the sets of calls already run (`planning/schedule.py`: exact
for every graph of at most 14 calls at the default `max-states`, and for wider ones up to
`max-states` sets a layer, a deterministic beam search above it), where a call's peak is
the buffers live around it, those it passes and the buffers its callee allocates. It moves
each call, with the ops that compute its arguments, into that order, and keeps the new
order only when the liveness `tir-to-usmp` computes from it has no higher max-live than the
file's order (that liveness sees inside each call; the graph does not).

An entry it reorders records so in `usmp.schedule` (a `#usmp.schedule<...>`, which the
report prints): the order's peak against the file's, whether it is proven least, and the
calls' new order by their indices in the file. One whose file order is already least, or
whose new order `tir-to-usmp` would find no better, keeps its order and records that (the
calls in the file's order, proven least only when the search proved it). An entry whose
body is not a plain sequence of calls (a loop, a store among them) is left as it is.
Runs before `tir-to-usmp` (`--plan-pools` runs it first unless `--no-reorder`).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from usmp_dialect.analysis.entry_calls import entry_calls
from usmp_dialect.analysis.tir_liveness import tir_liveness
from usmp_dialect.diagnostics import UsmpError
from usmp_dialect.dialects import tir
from usmp_dialect.dialects.usmp import SCHEDULE_ATTR, ScheduleAttr
from usmp_dialect.lowering.allocations_to_usmp import (
    takes_its_pools,
    tir_program_before_lowering,
)
from usmp_dialect.planning.schedule import DEFAULT_MAX_STATES, least_peak_order, order_peak


def max_live(module: ModuleOp, entry: str) -> int:
    """The most bytes of plannable allocations live at once, by `tir-to-usmp`'s liveness."""
    liveness = tir_liveness(module, entry)
    if liveness is None:
        return 0
    events: list[tuple[int, int]] = []
    for allocation in liveness.allocations:
        if allocation.unplanned_reason is not None:
            continue
        buffer_type = allocation.op.buffer.type
        assert isinstance(buffer_type, tir.BufferType)
        size = buffer_type.size_in_bytes()
        for start, end in allocation.intervals:
            events += [(start, size), (end, -size)]
    live = peak = 0
    for _, change in sorted(events):
        live += change
        peak = max(peak, live)
    return peak


def _place(groups: list[list[Operation]], order: tuple[int, ...]) -> None:
    """Moves the groups of ops into `order`, where the first group stood onwards."""
    members = {op for group in groups for op in group}
    block = groups[0][0].parent_block()
    assert block is not None
    last = [op for op in block.ops if op in members][-1]
    anchor = last.next_op
    for index in order:
        for op in groups[index]:
            op.detach()
            if anchor is None:
                block.add_op(op)
            else:
                block.insert_op_before(op, anchor)


@dataclass(frozen=True)
class TirReorderForMemory(ModulePass):
    name = "tir-reorder-for-memory"

    entry: str = ""
    """The function whose calls are reordered (default: `tir-to-usmp`'s entry)."""

    max_states: int = DEFAULT_MAX_STATES
    """The most sets of calls the search keeps a layer: up to it the order is proven
    least; above it the search keeps the best so many (a beam search)."""

    def __post_init__(self):
        if self.max_states < 1:
            raise UsmpError(f"max-states must be at least 1, got {self.max_states}")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        # Planning a planned module again (--plan-pools on its TVMScript) keeps what the
        # first plan chose: its buffers are already parts of its pools.
        if takes_its_pools(op):
            return
        program = tir_program_before_lowering(op, self.entry, self.name)
        if program is None:
            return
        functions, entry = program
        calls = entry_calls(entry, functions)
        if isinstance(calls, str) or not calls.groups:
            return
        schedule = least_peak_order(calls.graph, self.max_states)
        file_order = tuple(range(len(calls.groups)))
        file_peak = order_peak(calls.graph, file_order)
        # A module reordered before keeps the record of that reordering.
        entry.attributes.setdefault(
            SCHEDULE_ATTR,
            ScheduleAttr(
                file_peak,
                file_peak,
                schedule.exact and schedule.order == file_order,
                file_order,
                calls.callees,
            ),
        )
        if schedule.order == file_order:
            return
        entry_name = entry.sym_name.data
        before = max_live(op, entry_name)
        _place(calls.groups, schedule.order)
        if max_live(op, entry_name) > before:
            _place(calls.groups, file_order)
            return
        entry.attributes[SCHEDULE_ATTR] = ScheduleAttr(
            schedule.peak,
            file_peak,
            schedule.exact,
            schedule.order,
            [calls.callees[i] for i in schedule.order],
        )
