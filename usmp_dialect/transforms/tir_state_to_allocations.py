"""`tir-state-to-allocations`: each variable of the state the entry keeps from run to run
becomes one buffer, which the plan places in a state pool.

The entry's `usmp.state` (`#usmp.state<s = "s_next">`, a model importer's record of a
`.tflite` file's resource variables) pairs the input param holding a variable's value
before the run (`s`) with the output param of its value after (`s_next`). A variable the
operators can update in place -- every call that reads `s` comes before every call that
writes `s_next`, and none writes `s` -- becomes one `tir.alloc_buffer
{usmp.io = #usmp.io<"s", state>}` at the top of the entry's body, standing for both params,
which leave the signature (and `s_next` the entry's `usmp.outputs`): the operators read the
value before the run from it and write the value after into it, as TFLM's READ_VARIABLE
and ASSIGN_VARIABLE do on the variable's one buffer. `tir-to-usmp` makes it live for the
whole run, `usmp-assign-pools` gives it the state pools (adding an unrestricted
`@global_state` when there is none), and `usmp-to-tir` publishes it under both names, kind
`state`, in `usmp.io_offsets`: the caller keeps the state pool's bytes from one run to the
next. A variable whose value after is written before its value before is last read stays
two params, an input and an output, as without the record, and leaves `usmp.state`. A
call of an operator whose `usmp.in_place` pairs its params (i, j), passing `s` as i and
`s_next` as j, reads `s` no later than it writes `s_next`: the operator computes its
output correctly in the buffer of its input (an SVDF's state shift).
Runs before `tir-io-to-allocations` and `tir-to-usmp`.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, ModuleOp, StringAttr
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from usmp_dialect.analysis.in_place import in_place_pairs
from usmp_dialect.analysis.tir_entry import check_entry_not_called, module_callee, prim_funcs
from usmp_dialect.analysis.tir_params import (
    output_params,
    param_buffer_type,
    param_uses,
    param_views,
    params_to_allocations,
)
from usmp_dialect.diagnostics import UsmpError
from usmp_dialect.dialects import tir
from usmp_dialect.dialects.usmp import (
    IO_ATTR,
    OUTPUTS_ATTR,
    STATE_ATTR,
    IOAttr,
    IOKind,
    StateAttr,
)
from usmp_dialect.lowering.allocations_to_usmp import tir_program_before_lowering

_Pair = tuple[str, str, tir.BufferType]
"""A variable: the names of its params before and after the run, and their buffer type."""


def _state_record(entry: tir.PrimFuncOp) -> StateAttr | None:
    record = entry.attributes.get(STATE_ATTR)
    if record is None or isinstance(record, StateAttr):
        return record
    raise UsmpError(f'{STATE_ATTR} must be a #usmp.state<before = "after", ...>', entry)


def _param_pairs(entry: tir.PrimFuncOp, record: StateAttr) -> list[_Pair]:
    """Each variable's (before, after, buffer type), both params of the entry holding
    buffers of one type, the value after an output and the value before not."""
    params = dict(zip(entry.param_names(), entry.body.block.args, strict=True))
    outputs = output_params(entry)
    pairs = []
    for before, after in record.after.items():
        types = []
        for name in (before, after):
            param = params.get(name)
            views = [] if param is None else param_views(param)
            buffer_type = None if param is None else param_buffer_type(param, name, views)
            if buffer_type is None:
                raise UsmpError(
                    f"{STATE_ATTR} names '{name}', not a buffer param of @{entry.sym_name.data}",
                    entry,
                )
            types.append(buffer_type)
        if types[0] != types[1]:
            raise UsmpError(
                f"variable '{before}' is {types[0]} before the run and {types[1]} after it "
                f"('{after}')",
                entry,
            )
        if outputs is not None and (after not in outputs or before in outputs):
            raise UsmpError(
                f"variable '{before}' must be an input and '{after}' an output "
                f"(the entry's {OUTPUTS_ATTR})",
                entry,
            )
        pairs.append((before, after, types[0]))
    return pairs


def _in_place(module: ModuleOp, entry: str, pairs: list[_Pair]) -> set[str]:
    """The variables (by their value before) the operators can update in place, found on
    a copy of the module whose state params are allocations."""
    types = {name: t for before, after, t in pairs for name in (before, after)}

    def in_place_reads_left_out(
        copy: ModuleOp, copied: tir.PrimFuncOp, allocs: dict[str, tir.AllocBufferOp]
    ) -> None:
        _in_place_reads_left_out(copy, copied, [(allocs[b], allocs[a]) for b, a, _ in pairs])

    uses = param_uses(module, entry, types, in_place_reads_left_out)
    safe = set()
    for before, after, _ in pairs:
        read, written = uses[before], uses[after]
        last_read = max((end for _, end in read.intervals), default=0)
        first_write = min((start for start, _ in written.intervals), default=last_read)
        if not read.written and last_read <= first_write:
            safe.add(before)
    return safe


def _allocation_of(value: SSAValue) -> Operation | None:
    """The allocation whose data pointer `value` is."""
    owner = value.owner
    if isinstance(owner, tir.BufferDataOp) and isinstance(owner.buffer.owner, Operation):
        return owner.buffer.owner
    return None


def _in_place_reads_left_out(
    module: ModuleOp,
    entry: tir.PrimFuncOp,
    variables: list[tuple[tir.AllocBufferOp, tir.AllocBufferOp]],
) -> None:
    """Each entry call of an in-place operator passing a variable's value before and after
    as one of its pairs reads a copy of the value before instead: its read of it is part
    of its in-place update (`module` is a copy, for the liveness analysis only)."""
    functions = prim_funcs(module)
    for op in list(entry.walk()):
        callee = module_callee(op, functions)
        if callee is None:
            continue
        name, args = callee
        for i, j in in_place_pairs(functions[name]):
            if i >= len(args) or j >= len(args):
                continue
            pair = (_allocation_of(args[i]), _allocation_of(args[j]))
            before = next((b for b, a in variables if pair == (b, a)), None)
            if before is None:
                continue
            stand_in = before.clone()
            Rewriter.insert_op(stand_in, InsertPoint.after(before))
            pointer = tir.BufferDataOp(stand_in.results[0])
            Rewriter.insert_op(pointer, InsertPoint.before(op))
            op.operands[list(op.operands).index(args[i])] = pointer.data


@dataclass(frozen=True)
class TirStateToAllocations(ModulePass):
    name = "tir-state-to-allocations"

    entry: str = ""
    """The entry function (default: as tir-to-usmp chooses it)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        # Most modules keep no state: those are left as they are, lowered or not.
        if not any(STATE_ATTR in f.attributes for f in prim_funcs(op).values()):
            return
        program = tir_program_before_lowering(op, self.entry, self.name)
        if program is None:
            return
        functions, entry = program
        record = _state_record(entry)
        if record is None:
            return
        check_entry_not_called(entry, functions, "whose state params would go")
        pairs = _param_pairs(entry, record)
        safe = _in_place(op, entry.sym_name.data, pairs)
        kept = [(before, after, t) for before, after, t in pairs if before in safe]
        types = {name: t for before, after, t in kept for name in (before, after)}
        allocs = params_to_allocations(entry, types)
        for before, after, _ in kept:
            state, value_after = allocs[before], allocs[after]
            value_after.buffer.replace_all_uses_with(state.buffer)
            Rewriter.erase_op(value_after)
            state.attributes[IO_ATTR] = IOAttr(before, IOKind.STATE)
        outputs = entry.attributes.get(OUTPUTS_ATTR)
        if isinstance(outputs, ArrayAttr):
            gone = {after for _, after, _ in kept}
            entry.attributes[OUTPUTS_ATTR] = ArrayAttr(
                [name for name in outputs if isinstance(name, StringAttr) and name.data not in gone]
            )
        if not kept:
            del entry.attributes[STATE_ATTR]
        elif len(kept) < len(pairs):
            entry.attributes[STATE_ATTR] = StateAttr({before: after for before, after, _ in kept})
