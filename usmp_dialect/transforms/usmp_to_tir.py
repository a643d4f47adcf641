"""`usmp-to-tir`: planned pools become `uint8` buffer params, planned buffers views into them.

TVM's conversion of pool allocations to offsets, for the `tir` dialect:

- each pool that holds a buffer becomes a param of every function that places a buffer in
  it or calls one that does (a fixpoint over the call graph, `tir.call`s and the
  `tirx.call_extern`, `tirx.tvm_call_cpacked` and `tirx.tvm_call_packed` of module
  functions): on the entry function a
  `!tir.buffer<SIZExui8>` param named after the pool; on the others (operators, which TVM
  builds only with pointer params) a `!tir.ptr<ui8>` param re-declared as that buffer;
- every call site passes the caller's pool pointers on (`tir.buffer_data`);
- each `usmp.alloc_offset` becomes `tir.decl_buffer` over
  `tir.address_of %pool[offset]` with the buffer's own type and TIR name (its `tir.name`,
  else the alloc_offset's name), so every use (loads, stores,
  `tir.buffer_data` pointers, views over them) now reads the pool;
- operators lose `tirx.noalias`: their params may now share pool bytes;
- the entry function records `usmp.pools = #usmp.pool_sizes<name = planned size>` (empty,
  `#usmp.pool_sizes<>`, when the program places no buffer: one kernel, say) and,
  for the inputs and outputs `tir-io-to-allocations` put in a pool and the constants
  `usmp-assign-pools` put in a constant pool,
  `usmp.io_offsets = #usmp.io_offsets<name = kind "pool"[offset] : memref<...>>`,
  where the application writes and reads them (a state variable of
  `tir-state-to-allocations` under its name and its value after's, as the entry's
  `usmp.state` pairs them: the same bytes); the `usmp.pool` and
  `usmp.liveness` ops go (TVMScript has no place for them).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DictionaryAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    Signedness,
    StringAttr,
    i32,
    i64,
)
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from usmp_dialect.analysis.pool_users import pools_needed
from usmp_dialect.analysis.tir_entry import (
    check_entry_not_called,
    choose_entry,
    find_entry,
    module_calls,
    prim_funcs,
)
from usmp_dialect.analysis.tir_liveness import io_mark
from usmp_dialect.diagnostics import UsmpError
from usmp_dialect.dialects import tir
from usmp_dialect.dialects.usmp import (
    DEFAULT_ALIGNMENT,
    IO_OFFSETS_ATTR,
    POOL_ALIGNMENTS_ATTR,
    POOL_SECTIONS_ATTR,
    POOLS_ATTR,
    STATE_ATTR,
    AllocOffsetOp,
    IOKind,
    IOOffsetAttr,
    IOOffsetsAttr,
    PoolOp,
    PoolSizesAttr,
    StateAttr,
    module_liveness,
    module_pools,
)

NOALIAS_ATTR = "tirx.noalias"
ui8 = IntegerType(8, Signedness.UNSIGNED)


def _pool_buffer_type(pool: PoolOp) -> tir.BufferType:
    size = pool.planned_size or 0
    return tir.BufferType([size], ui8, index_type=_index_type(size))


def _index_type(pool_size: int) -> IntegerType:
    """TVM's default int32 index, or int64 for a pool whose bytes int32 cannot count."""
    return i32 if pool_size < 2**31 else i64


def _pool_param_name(pool: PoolOp, is_entry: bool) -> str:
    """The entry takes the pool buffer itself; an operator its pointer, `<pool>_var`."""
    return pool.sym_name.data if is_entry else f"{pool.sym_name.data}_var"


def _check_param_names(function: tir.PrimFuncOp, pools: list[PoolOp], is_entry: bool) -> None:
    """A pool param takes the pool's name (`<pool>_var` in operators), which a caller looks it
    up by: a param of that name already there is an error, not an ambiguous signature."""
    taken = set(function.param_names())
    for pool in pools:
        name = _pool_param_name(pool, is_entry)
        if name in taken:
            raise UsmpError(
                f"@{function.sym_name.data} already has a param '{name}', the name of the param "
                f"pool @{pool.sym_name.data} becomes; rename the param or the pool",
                function,
            )


def _add_pool_params(
    function: tir.PrimFuncOp, pools: list[PoolOp], is_entry: bool
) -> dict[str, SSAValue]:
    """The pool buffers inside `function`, after adding its params."""
    block = function.body.block
    buffers: dict[str, SSAValue] = {}
    for pool in pools:
        name = pool.sym_name.data
        buffer_type = _pool_buffer_type(pool)
        param_name = _pool_param_name(pool, is_entry)
        if is_entry:
            buffers[name] = function.insert_param(len(block.args), buffer_type, param_name)
            continue
        arg = function.insert_param(len(block.args), tir.PointerType(ui8), param_name)
        decl = tir.DeclBufferOp(arg, buffer_type, name)
        if block.first_op is None:
            block.add_op(decl)
        else:
            block.insert_op_before(decl, block.first_op)
        buffers[name] = decl.buffer
    return buffers


def _lower_alloc(op: AllocOffsetOp, pool_buffer: SSAValue) -> None:
    pool_type = pool_buffer.type
    assert isinstance(pool_type, tir.BufferType)
    offset = arith.ConstantOp(IntegerAttr(op.offset_bytes or 0, pool_type.index_type))
    address = tir.AddressOfOp(pool_buffer, [offset.result], tir.PointerType(ui8))
    buffer_type = op.buffer.type
    assert isinstance(buffer_type, tir.BufferType)
    tir_name = op.attributes.get(tir.NAME_ATTR, op.buffer_name)
    assert isinstance(tir_name, StringAttr)
    view = tir.DeclBufferOp(address.result, buffer_type, tir_name.data)
    offset.location = address.location = view.location = op.location
    Rewriter.insert_op([offset, address], InsertPoint.before(op))
    op.release_conflicts()
    Rewriter.replace_op(op, view)


def _io_offsets(allocs: list[AllocOffsetOp], entry: tir.PrimFuncOp) -> IOOffsetsAttr:
    """Where each buffer marked `usmp.io` lives, by its name; a state variable under the
    name of its value after the run too (the entry's `usmp.state`)."""
    record = entry.attributes.get(STATE_ATTR)
    after = record.after if isinstance(record, StateAttr) else {}
    published = {}
    for alloc in allocs:
        if (mark := io_mark(alloc)) is None:
            continue
        name, kind = mark
        buffer_type = alloc.buffer.type
        assert isinstance(buffer_type, tir.BufferType)
        offset = IOOffsetAttr(
            kind,
            alloc.pool_names[0],
            alloc.offset_bytes or 0,
            MemRefType(buffer_type.element_type, buffer_type.dims),
        )
        published[name] = offset
        if kind == IOKind.STATE and name in after:
            published[after[name]] = offset
    return IOOffsetsAttr(published)


def _pass_pools(call: Operation, pools: list[str], own: dict[str, SSAValue]) -> None:
    data_ops = [tir.BufferDataOp(own[name], tir.PointerType(ui8)) for name in pools]
    Rewriter.insert_op(data_ops, InsertPoint.before(call))
    call.operands = [*call.operands, *(d.data for d in data_ops)]


@dataclass(frozen=True)
class UsmpToTir(ModulePass):
    name = "usmp-to-tir"

    entry: str = ""
    """The entry function (default: as tir-to-usmp chooses it)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        functions = prim_funcs(op)
        allocs: dict[str, list[AllocOffsetOp]] = {}
        for name, function in functions.items():
            found = [a for a in function.walk() if isinstance(a, AllocOffsetOp)]
            for alloc in found:
                if alloc.offset is None:
                    raise UsmpError(
                        f"buffer '{alloc.buffer_name.data}' is not planned: run usmp-plan first",
                        alloc,
                    )
                if not isinstance(alloc.buffer.type, tir.BufferType):
                    raise UsmpError(
                        f"buffer '{alloc.buffer_name.data}' in a tir.prim_func must be a "
                        "!tir.buffer",
                        alloc,
                    )
            allocs[name] = found
        if any(allocs.values()):
            _lower_pools(op, functions, allocs, choose_entry(functions, self.entry, self.name))
            _erase_lowered(op, lambda pool: True)
        elif functions:
            # A planned pool that no buffer went to (a program without intermediate
            # buffers, given `--pools`) has no TIR form: it goes, as lowered ones do.
            _erase_lowered(op, lambda pool: pool.size is not None)
            # Nothing to place is a finished plan: the entry (one kernel, say) needs no
            # pool, and says so for the C library; an entry lowered before keeps its pools.
            entry = find_entry(functions, self.entry, self.name)
            if entry is not None and POOLS_ATTR not in entry.attributes:
                entry.attributes[POOLS_ATTR] = PoolSizesAttr({})


def _lower_pools(
    op: ModuleOp,
    functions: dict[str, tir.PrimFuncOp],
    allocs: dict[str, list[AllocOffsetOp]],
    entry: tir.PrimFuncOp,
) -> None:
    callees = {
        name: [callee for _, callee in module_calls(f, functions)] for name, f in functions.items()
    }
    needed = pools_needed(allocs, callees)
    pool_order = module_pools(op)
    buffers: dict[str, dict[str, SSAValue]] = {}
    for name, function in functions.items():
        pools = [p for p in pool_order if p.sym_name.data in needed.get(name, set())]
        if pools:
            _check_param_names(function, pools, function is entry)
            buffers[name] = _add_pool_params(function, pools, function is entry)
    if entry.sym_name.data in buffers:
        check_entry_not_called(entry, functions, "which takes pools as buffers")
    for name, function in functions.items():
        own = buffers.get(name, {})
        for call, callee in list(module_calls(function, functions)):
            if callee in buffers:
                _pass_pools(call, list(buffers[callee]), own)
    io_offsets = _io_offsets(allocs[entry.sym_name.data], entry)
    if io_offsets.by_name:
        entry.attributes[IO_OFFSETS_ATTR] = io_offsets
    for name in functions:
        for alloc in allocs[name]:
            _lower_alloc(alloc, buffers[name][alloc.pool_names[0]])
    for function in functions.values():
        if function is not entry:
            # The plan may put an operator's input, output and workspace on the same
            # pool bytes (each dead before the next is written); a noalias promise
            # would let LLVM reorder those accesses and compute garbage.
            function.attributes.pop(NOALIAS_ATTR, None)
    used = {p for names in needed.values() for p in names}
    entry.attributes[POOLS_ATTR] = PoolSizesAttr(
        {p.sym_name.data: p.planned_size or 0 for p in pool_order if p.sym_name.data in used}
    )
    sections = {
        p.sym_name.data: p.section
        for p in pool_order
        if p.sym_name.data in used and p.section is not None
    }
    if sections:
        entry.attributes[POOL_SECTIONS_ATTR] = DictionaryAttr(sections)
    alignments = {
        p.sym_name.data: p.alignment
        for p in pool_order
        if p.sym_name.data in used and p.alignment.value.data != DEFAULT_ALIGNMENT
    }
    if alignments:
        entry.attributes[POOL_ALIGNMENTS_ATTR] = DictionaryAttr(alignments)


def _erase_lowered(op: ModuleOp, lowered: Callable[[PoolOp], bool]) -> None:
    """The liveness once no buffer is left, and each `lowered` pool no buffer is in."""
    remaining = [a for a in op.walk() if isinstance(a, AllocOffsetOp)]
    liveness = module_liveness(op)
    if liveness is not None and not remaining:
        Rewriter.erase_op(liveness)
    still_used = {name for a in remaining for name in a.pool_names}
    for pool in module_pools(op):
        if pool.sym_name.data not in still_used and lowered(pool):
            Rewriter.erase_op(pool)
