"""A Relax model (TVM 0.27) to AOT-style TIR, ready for `usmp-opt --plan-pools`.

(Named after what it does: "lowering" in this project means a pass from one dialect to
another, `*-to-usmp` and `usmp-to-*`, whose shared steps are `usmp_dialect/lowering/`.)

    import_relax(mod, weights) -> ModuleOp          the `tir` dialect
    relax_to_tir(mod, weights) -> tvm.IRModule      the same module as TVM TIR
    model_to_tir(mod, weights) -> TirModel          and the arrays of its constant params
    relax_planner_bytes(mod) -> int                 Relax's StaticPlanBlockMemory total
    relax_vm_outputs(mod, weights, inputs) -> list   the Relax VM's outputs, the reference

(`usmp_dialect.tvm.relax.model_spec` loads `(mod, weights)` from a model file; the first
three take a `TirImport`, the options of `--import-relax`.)

A clip computing the identity (an int8 tensor's to [-128, 127], as TVM's TFLite frontend
applies a RELU) is dropped first (`identity_clips`). By default the weights are then bound
into the Relax entry `forward` as constants
(`--weights=params` keeps them as its params). `forward` is then lowered with TVM's own
CPU pipeline as `relax.build` runs it up to memory planning (library dispatch,
legalization, constant folding, fusion unless `--fusion=none`, and
`RewriteDataflowReshape`, which makes a reshape a view: here an alias of its source's
buffer), its block-based PrimFuncs turned into loops and `alloc_buffer`s by the `s_tir`
lowering passes, and each becomes a private operator with pointer params that re-declares
its buffers (`DeclBuffer(buffer, data=ptr)`); an operator that calls a packed function
(`tvm.contrib.sort.sort`) also gets the device attrs and int32 status `MakePackedAPI` gives
a public one. The entry `main` takes the model's inputs (Relax names), its weights if they
are params (Relax names, non-identifier characters as `_`, a keyword or `T`, `I`, `Module`
with `_` appended), the constant tensors the operators read, and one buffer per output:
`output` for a tensor, `output0`, `output1`, ... for a tuple of tensors, or the names the
entry lists as its `"usmp.output_names"` attribute (a model file's own, `sanitize`d), `_`
appended while a name is taken. A constant tensor is a bound weight an operator reads as it is
(named after the weight), one computed at compile time from weights alone (named after
the first, then the op: `fc1_weight_permute_dims`, see `folded_weights`), or any other
(`R.const`, or one TVM's FoldConstant computed from those alone): `constant0`,
`constant1`, ... in the order of first use, as Relay's AOT build turned constants into
params; `model_to_tir` returns their arrays. `main` lists
its weight and constant params as `"usmp.constants"` (empty if there are none), the state
it keeps from run to run (its `"usmp.state_count"` last inputs and outputs) as `"usmp.state"`,
its output params as `"usmp.outputs"` (what is an input and what an output is the model's signature,
not how the operators use a buffer: one may read back an output it wrote), holds every
intermediate tensor as an `AllocBuffer` and calls the operators in order as
`Module.op(x.data, ...)` -- the shape TVM's AOT executor gave USMP. Both are built as TIR
nodes from TVM's own (no printed text is read back). The operators carry no
`tirx.noalias`: the plan may put an operator's input, output and workspaces in the same
pool bytes (each dead before the next is written), which noalias would let LLVM reorder.

Anything this importer does not cover (a dynamic shape, a binding that is neither
`R.call_tir` nor `R.reshape`, an output that is neither a tensor computed by an operator
nor a constant (`copied_outputs` copies one, and a tensor returned twice, into its own
buffer), weights that are not a dict of numpy arrays, a weight missing from the dict
or not taken by the model, two weight names that sanitize alike, TVM's lowering failing) is
a `RelaxImportError` naming it, at the location the caller gave (`model_file` gives the
model function's `file:line:col`).
"""

from __future__ import annotations

import keyword
import re
from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

import numpy as np
import tvm
import tvm_ffi
from tvm import ir, relax, s_tir, tirx
from tvm.relax.backend.cpu_generic import pipeline as cpu_generic
from xdsl.dialects.builtin import ModuleOp

from usmp_dialect.analysis.tir_entry import prim_funcs
from usmp_dialect.dialects.usmp import (
    CONSTANTS_ATTR,
    IN_PLACE_ATTR,
    NARROWED_CONSTANTS_ATTR,
    OUTPUTS_ATTR,
    SHARED_CONSTANTS_ATTR,
    STATE_ATTR,
)
from usmp_dialect.formats.constant_pool import set_constant_values
from usmp_dialect.tvm.captured_output import output_captured
from usmp_dialect.tvm.fast_kernels import KERNEL_ANNOTATION, lifted_kernels
from usmp_dialect.tvm.relax.copied_outputs import outputs_copied
from usmp_dialect.tvm.relax.derived_scales import derived_bias_scales
from usmp_dialect.tvm.relax.folded_weights import (
    expanded_constants_hidden,
    expanded_constants_restored,
    fold_named_weights,
)
from usmp_dialect.tvm.relax.folding_bound import folding_past_bound
from usmp_dialect.tvm.relax.fused_names import named_fusion
from usmp_dialect.tvm.relax.identity_clips import identity_clips_dropped
from usmp_dialect.tvm.relax.legalized_once import legalize_ops_once
from usmp_dialect.tvm.relax.names import ENTRY, fresh_name
from usmp_dialect.tvm.relax.narrowed_constants import (
    narrowed_dequantized_constants,
    uniform_scales_as_scalars,
    widening_kernels,
)
from usmp_dialect.tvm.relax.nodes import nodes_of
from usmp_dialect.tvm.relax.shared_constants import SharedConstants
from usmp_dialect.tvm.relax.temporaries import inline_temporaries, widening_kept_apart
from usmp_dialect.tvm.relax.topk import sorting_in_loops
from usmp_dialect.tvm.tvmscript.emitter import tvm_attrs
from usmp_dialect.tvm.tvmscript.importer import TVMScriptError, import_module
from usmp_dialect.tvm_options import DEFAULT_TIR_IMPORT, Stages, TirImport, unshown

OUTPUT_NAME = "output"
OUTPUT_NAMES_ATTR = "usmp.output_names"
STATE_COUNT_ATTR = "usmp.state_count"
"""On a Relax entry: how many of its last inputs are the values before the run of state it
keeps from run to run, whose values after are as many of its last outputs, in order."""
STATE_INITIAL_ATTR = "usmp.state_initial"
"""On a Relax entry with state: the first value of each variable, in the order of the
state inputs (a model file's CALL_ONCE values); absent when some variable has none."""
# ASCII: xDSL's SSA names, which the params become, take no other letters.
_NOT_IDENT = re.compile(r"\W", re.ASCII)
# Names the lowered TVMScript binds itself: the TIR and IR modules, and the module class.
_SCRIPT_NAMES = frozenset({"T", "I", "Module"})


class RelaxImportError(TVMScriptError):
    """A Relax model this importer cannot take, at `file:line:col` of the model function (or
    the name a caller gave the model); the message says where in it: `reason`, after the
    binding of the entry it concerns (`binding`, its name; None for none), if any."""

    def __init__(
        self, message: str, location: str, binding: str | None = None, reason: str | None = None
    ):
        super().__init__(message, location)
        self.binding = binding
        self.reason = message if reason is None else reason


class Site(NamedTuple):
    """Where an error is: the model's location, what in the model (`in 'forward',
    binding 'lv3'`), and the binding's name if it is in one (`lv3`)."""

    location: str
    context: str = ""
    binding: str | None = None

    def within(self, what: str) -> Site:
        context = f"{self.context}, {what}" if self.context else what
        return Site(self.location, context, self.binding)

    def within_binding(self, name: str) -> Site:
        return self.within(f"binding '{name}'")._replace(binding=name)

    def error(self, message: str) -> RelaxImportError:
        return RelaxImportError(
            f"{self.context}: {message}" if self.context else message,
            self.location,
            self.binding,
            message,
        )


UNNAMED = Site("<relax>", f"in '{ENTRY}'")
"""Where errors point when the caller gave the model no location."""


def shape_text(dims: Any) -> str:
    """A Relax shape as a user wrote it: `[n, 8]`, not `[n, T.int64(8)]`."""
    return "[" + ", ".join(str(getattr(d, "value", d)) for d in dims) + "]"


def sanitize(name: str) -> str:
    """A name TVMScript can use: non-identifier characters become `_`; a Python keyword, or
    a name the lowered script itself uses (`T`, `I`, `Module`), gets a `_` appended."""
    name = _NOT_IDENT.sub("_", name)
    name = f"_{name}" if not name or name[0].isdigit() else name
    return f"{name}_" if keyword.iskeyword(name) or name in _SCRIPT_NAMES else name


# ------------------------------------------------------------------ weights


def random_weights(params: Any, seed: int) -> dict[str, np.ndarray]:
    """Reproducible weights for `export_tvm`'s `(name, param)` list: normal, scaled by
    1/sqrt(fan-in) so activations stay near unit size through deep models."""
    rng = np.random.default_rng(seed)
    weights = {}
    for name, param in params:
        shape = tuple(int(d) for d in param.shape)
        fan_in = int(np.prod(shape[1:])) if len(shape) > 1 else 10
        weights[name] = (rng.standard_normal(shape) / np.sqrt(fan_in)).astype(param.dtype)
    return weights


# ------------------------------------------------------------------ lowering


_FUSION_PASSES = frozenset({"FuseOps", "FuseTIR"})


def _offsets_bound(func: Any) -> Any:
    """`func` with each buffer param's symbolic `elem_offset` (a `te.extern`'s input, as
    topi's `cumsum` declares it) bound to 0: every tensor an operator gets starts at its
    pointer, as Relax's own tensors start at their data."""
    loose = {
        p: tirx.decl_buffer(p.shape, p.dtype, p.name, scope=p.scope())
        for p in func.params
        if tirx.is_buffer_var(p) and isinstance(p.elem_offset, tirx.Var) and not len(p.strides)
    }
    return func.specialize(loose) if loose else func


def _offsets_bound_in_loops() -> Any:
    """A module pass: `_offsets_bound` on each PrimFunc (TVM's `FuseTIR` fails on a fused
    function whose extern takes a buffer of a symbolic offset)."""

    def rewrite(mod: Any, _: Any) -> Any:
        bound = mod.clone()
        for gvar, func in mod.functions.items():
            if isinstance(func, tirx.PrimFunc):
                bound[gvar] = _offsets_bound(func)
        return bound

    return tvm.transform.module_pass(rewrite, opt_level=0, name="OffsetsBound")


def _lowered_by_tvm(target: Any, fusion: str, widening_apart: bool = False) -> list[Any]:
    """TVM's CPU pipeline up to fusion, a `topk`, `sort` or `argsort` first made loops
    (`sorting_in_loops`): library
    dispatch, legalization (each extern's input then given offset 0, `_offsets_bound`),
    constant folding,
    fusion into `R.call_tir` (unless `fusion` is "none"), each fused tensor keeping its
    name (`fused_names`), and, if `widening_apart`, no operator widening a computed tensor
    fused into its producer (`temporaries.widening_kept_apart`)."""
    passes = [sorting_in_loops(), *cpu_generic.library_dispatch_passes(target)]
    for p in cpu_generic.legalize_passes(target):
        legalizes = p.info.name == "LegalizeOps"
        passes += [legalize_ops_once(), _offsets_bound_in_loops()] if legalizes else [p]
    if fusion == "none":
        return [p for p in passes if p.info.name not in _FUSION_PASSES]

    lowered: list[Any] = []
    for p in passes:
        if p.info.name == "FuseOps":
            lowered += (
                [widening_kept_apart(), named_fusion(p, ENTRY)]
                if widening_apart
                else [named_fusion(p, ENTRY)]
            )
        else:
            lowered.append(p)
    return lowered


class BoundWeights(NamedTuple):
    """`_bind_weights`' result: the module, the tensor of each constant by its TIR name,
    and the name of each narrowed copy by the name of the tensor it copies."""

    mod: Any
    tensors: dict[str, Any]
    narrowed: dict[str, str]


def _bind_weights(
    mod: Any,
    weights: Mapping[str, np.ndarray],
    at: Site,
    keep_expansions: bool = False,
    constant_storage: str = "compact",
) -> BoundWeights:
    """`mod` with the weights bound into `forward` as constants and the expressions of
    weights alone computed (`fold_named_weights`, expansions kept if `keep_expansions`: then
    with scales equal across channels as scalars and, if `constant_storage` is "compact",
    bias scales derived and dequantized integers narrowed, `narrowed_constants`,
    `derived_scales`), and
    the tensor of each constant by its TIR name: a constant an operator reads is that
    weight, or one computed from it, when it is that very tensor."""
    tensors = {sanitize(k): tvm.runtime.tensor(v) for k, v in weights.items()}
    bound = {p: tensors[sanitize(p.name)] for p in mod[ENTRY].params if sanitize(p.name) in tensors}
    mod = relax.transform.BindParams(ENTRY, bound)(mod)
    if (past := folding_past_bound(mod[ENTRY])) is not None:
        binding, message = past
        raise at.within_binding(binding).error(message)
    func = uniform_scales_as_scalars(mod[ENTRY]) if keep_expansions else mod[ENTRY]
    func, tensors = fold_named_weights(func, tensors, keep_expansions)
    narrowed: dict[str, str] = {}
    if keep_expansions and constant_storage == "compact":
        func, tensors, narrowed = narrowed_dequantized_constants(
            derived_bias_scales(func), tensors, widening_kernels(mod)
        )
    mod = mod.clone()
    mod[ENTRY] = func
    return BoundWeights(mod, tensors, narrowed)


def lower_relax(
    mod: Any,
    at: Site = UNNAMED,
    tir_import: TirImport = DEFAULT_TIR_IMPORT,
    tensors: Mapping[str, Any] | None = None,
) -> Any:
    """TVM's own CPU pipeline (`relax.backend.cpu_generic`) up to dataflow lowering: library
    dispatch, legalization, constant folding and fusion into `R.call_tir` of block-based
    PrimFuncs, with `temporaries="inline"` `inline_temporaries` (and the constants that
    expansions read hidden from the folding meanwhile, if `lowering.keeps_stored_weights`;
    `tensors` names them),
    and `RewriteDataflowReshape` (a reshape becomes a view, `R.reshape`, not a copy). TVM
    failing on the model is a `RelaxImportError` at `at`."""
    target = tvm.target.Target("llvm")
    hidden: dict[Any, Any] = {}
    if tir_import.keeps_stored_weights:
        mod, hidden = expanded_constants_hidden(mod, ENTRY, tensors or {})
    try:
        with target, output_captured():
            lowered = tvm.transform.Sequential(
                _lowered_by_tvm(target, tir_import.fusion, tir_import.temporaries == "inline")
            )(mod)
            if tir_import.temporaries == "inline":
                lowered = inline_temporaries(lowered, fuse_producers=tir_import.fusion != "none")
            lowered = expanded_constants_restored(lowered, ENTRY, hidden)
            return relax.transform.RewriteDataflowReshape()(lowered)
    except Exception as error:  # TVM's own passes reject the model; its message says why
        raise at.error(f"TVM's Relax lowering failed: {type(error).__name__}: {error}") from None


def _loops_and_allocs(lowered: Any) -> Any:
    """The PrimFuncs of `lower_relax`'s module, as loops and `alloc_buffer`s."""
    t = s_tir.transform
    passes = tvm.transform.Sequential(
        [
            t.LowerInitBlock(),
            t.PlanAndUpdateBufferAllocationLocation(),
            t.ConvertBlocksToOpaque(),
            t.CompactBufferAllocation(),
            t.LowerMatchBuffer(),
            t.LowerOpaqueBlock(),
        ]
    )
    prims = {g: f for g, f in lowered.functions.items() if isinstance(f, tirx.PrimFunc)}
    return passes(lifted_kernels(tvm.IRModule(prims)))


def relax_planner_bytes(
    mod: Any, bound_weights: Mapping[str, np.ndarray] | None = None, fusion: str = "default"
) -> int:
    """The sum of the `R.memory.alloc_storage` sizes Relax's StaticPlanBlockMemory emits
    for `mod` (with `bound_weights` bound into it, if given) in TVM's own CPU build
    (`relax.build`'s pipeline up to that pass; the returned tensors are not included)."""
    if bound_weights is not None:
        mod = _bind_weights(mod, bound_weights, UNNAMED).mod
    target = tvm.target.Target("llvm")
    passes = tvm.transform.Sequential(
        _lowered_by_tvm(target, fusion)
        + cpu_generic.dataflow_lower_passes(target)
        + [relax.transform.StaticPlanBlockMemory()]
    )
    with target:
        planned = passes(mod)
    alloc_storage = tvm.ir.Op.get("relax.memory.alloc_storage")
    sizes: list[Any] = []

    def visit(expr: Any) -> None:
        if isinstance(expr, tvm.ir.Call) and expr.op.same_as(alloc_storage):
            sizes.append(expr.args[0])

    relax.analysis.post_order_visit(planned[ENTRY], visit)
    return sum(_constant_bytes(size) for size in sizes)


def relax_vm_outputs(
    mod: Any, weights: Mapping[str, np.ndarray], inputs: Mapping[str, np.ndarray]
) -> list[np.ndarray]:
    """`forward` run by the Relax VM (llvm, -O0) on `inputs` and `weights`, both keyed by
    Relax parameter name: one array, or one per element of a tuple output."""
    # LLVM at -O0: the reference's numbers are the same (no fast-math at any level), and
    # building a 100-operator model takes a third of the CPU time of the default -O3.
    target = tvm.target.Target({"kind": "llvm", "opt-level": 0})
    vm = relax.VirtualMachine(relax.build(mod, target=target), tvm.cpu())
    values = {sanitize(k): v for k, v in {**inputs, **weights}.items()}
    result = vm[ENTRY](*[tvm.runtime.tensor(values[sanitize(p.name)]) for p in mod[ENTRY].params])
    if isinstance(result, tvm.runtime.Tensor):
        return [result.numpy()]
    return [t.numpy() for t in result]


def _constant_bytes(size: Any) -> int:
    """The byte count of an `alloc_storage` size, `R.shape([n])` with a constant n."""
    values = list(size.values) if isinstance(size, relax.ShapeExpr) else []
    if len(values) != 1 or not isinstance(values[0], tvm.tirx.IntImm):
        raise UNNAMED.error(f"Relax's static plan allocates a storage of non-constant size {size}")
    return int(values[0].value)


# ------------------------------------------------------------------ the AOT-style module


def _static_shape(sinfo: Any, what: str, at: Site) -> tuple[tuple[int, ...], str]:
    if not isinstance(sinfo, relax.TensorType):
        raise at.error(f"{what} is a {type(sinfo).__name__}, not a tensor")
    if sinfo.shape is None or not isinstance(sinfo.shape, relax.ShapeExpr):
        raise at.error(f"{what} has an unknown shape")
    dims = []
    for d in sinfo.shape.values:
        if not isinstance(d, tvm.tirx.IntImm):
            raise at.error(f"{what} has a dynamic shape {shape_text(sinfo.shape.values)}")
        dims.append(int(d.value))
    return tuple(dims), str(sinfo.dtype)


def _operator(name: str, func: Any, at: Site) -> Any:
    """A lowered PrimFunc as a private operator: pointer params, each re-declaring its
    buffer (`DeclBuffer`), and no function attributes (no `tirx.noalias`, see above) but
    its `usmp.in_place` pairs."""
    taken = var_names(func)
    params, decls = [], []
    for p in func.params:
        if not tirx.is_buffer_var(p):
            raise at.error(f"operator '{name}' has a non-buffer param '{p.name}'")
        if len(p.strides) or int(p.elem_offset) != 0:
            raise at.error(f"operator '{name}' param '{p.name}' is not a compact buffer")
        pointer = ir.PointerType(ir.PrimType(p.dtype), p.scope())
        params.append(ir.Var(fresh_name(f"{sanitize(p.name)}_ptr", taken), pointer))
        decls.append(tirx.DeclBuffer(p, data=params[-1]))
    # The allocations' annotations are TVM's storage bookkeeping, which planning replaces.
    body = tvm_ffi.structural_map(
        func.body, (tirx.AllocBuffer, lambda s: tirx.AllocBuffer(s.buffer))
    )
    kept = {k: v for k, v in (func.attrs or {}).items() if k in (IN_PLACE_ATTR, KERNEL_ANNOTATION)}
    attrs = tvm_attrs(kept)
    if not _calls_packed(func) and not _allocates_locally(func):
        return tirx.PrimFunc(params, tirx.stmt_seq(*decls, *_statements(body)), attrs=attrs)
    # What MakePackedAPI gives a public function and a private one lacks: the device its
    # arrays are on (TVM needs it to make them, and to put a `local` buffer on the stack)
    # and an int32 status to pass errors up.
    int32 = "int32"
    on_device = tirx.AttrStmt(
        "default",
        "device_type",
        tirx.IntImm(int32, 1),
        tirx.AttrStmt("default", "device_id", tirx.IntImm(int32, 0), body),
    )
    status = tirx.Return(tirx.IntImm(int32, 0))
    return tirx.PrimFunc(
        params, tirx.stmt_seq(*decls, on_device, status), ret_type=ir.PrimType(int32), attrs=attrs
    )


def _statements(stmt: Any) -> list[Any]:
    """`stmt` as a list of statements, a sequence spliced (a `DeclBuffer` before them is in
    scope for the rest of the sequence it is in)."""
    return list(stmt.seq) if isinstance(stmt, tirx.SeqStmt) else [stmt]


def var_names(func: Any) -> set[str]:
    """The names of every var (buffers, loop vars, params) in `func`."""
    return {str(var.name) for var in nodes_of(tvm.ir.Var, func)}


def _calls_packed(func: Any) -> bool:
    """Whether a lowered PrimFunc calls a packed function (`tvm.contrib.sort.sort`, which
    TVM's sort, argsort and topk dispatch to on the CPU)."""
    packed = ("tirx.tvm_call_packed", "tirx.tvm_call_cpacked")
    calls = nodes_of(tvm.ir.Call, func.body)
    return any(getattr(call.op, "name", None) in packed for call in calls)


def _allocates_locally(func: Any) -> bool:
    """Whether a lowered PrimFunc allocates a buffer of `local` scope (an accumulator
    `inline_temporaries` made a register), which no plan places."""
    allocs = nodes_of(tirx.AllocBuffer, func.body)
    return any(alloc.buffer.scope() == "local" for alloc in allocs)


def _with_script_names(mod: Any) -> Any:
    """`mod` with the entry's params renamed by `sanitize`, as `main` names them: the
    operators TVM fuses name their params after them too, and TVM's printer keeps a keyword
    or a leading digit, which would not parse back."""
    func = mod[ENTRY]
    renamed = {
        p: relax.Var(sanitize(p.name), p.ty) for p in func.params if sanitize(p.name) != p.name
    }
    if not renamed:
        return mod
    body = func.bind_params(renamed).body
    out = mod.clone()
    out[ENTRY] = relax.Function(
        [renamed.get(p, p) for p in func.params], body, func.ret_ty, func.is_pure, func.attrs
    )
    return out


def _weight_names(weights: Mapping[str, np.ndarray], at: Site) -> set[str]:
    """The weights' names as `main`'s params are named; anything but a dict from names to
    numpy arrays, or two keys named alike, is an error."""
    if not isinstance(weights, Mapping):
        raise at.error(
            f"the weights are a {type(weights).__name__}, "
            "not a dict from parameter name to numpy array"
        )
    keys: dict[str, str] = {}
    for key, value in weights.items():
        if not isinstance(key, str) or not isinstance(value, np.ndarray):
            raise at.error(
                f"weight {key!r} is a {type(value).__name__}, not a numpy array named by a string"
            )
        name = sanitize(key)
        if name in keys:
            raise at.error(f"weights '{keys[name]}' and '{key}' are both named '{name}' in TIR")
        keys[name] = key
    return set(keys)


def _state_params(func: Any, weight_names: set[str]) -> list[Any]:
    """The entry's inputs holding its state before the run (its last `usmp.state_count`)."""
    count = int((func.attrs or {}).get(STATE_COUNT_ATTR, 0))
    inputs, _ = _split_params(func, weight_names)
    return inputs[len(inputs) - count :] if 0 < count <= len(inputs) else []


def _split_params(func: Any, weight_names: set[str]) -> tuple[list[Any], list[Any]]:
    """The entry's (inputs, weights): split at `num_input` as `export_tvm` sets it, else the
    params the weights dict names are the weights."""
    params = list(func.params)
    if func.attrs is not None and "num_input" in func.attrs:
        num_input = int(func.attrs["num_input"])
    else:
        num_input = sum(1 for p in params if sanitize(p.name) not in weight_names)
    return params[:num_input], params[num_input:]


def _check_params(
    func: Any, weights: Mapping[str, np.ndarray], weight_names: set[str], at: Site
) -> None:
    """Before lowering, so messages name params as the model does: every param has a static
    shape, the weights dict matches the weight params, and no two params share a TIR name."""
    inputs, weight_params = _split_params(func, weight_names)
    named: dict[str, str] = {}
    for p in inputs + weight_params:
        _static_shape(p.ty, f"parameter '{p.name}'", at)
        name = sanitize(p.name)
        if name in named:
            raise at.error(
                f"parameters '{named[name]}' and '{p.name}' are both named '{name}' in TIR"
            )
        named[name] = p.name
    _check_weights(weight_params, weights, at)


def _check_weights(weight_params: list[Any], weights: Mapping[str, np.ndarray], at: Site) -> None:
    """The dict holds exactly the model's weights, each of its param's shape and dtype."""
    by_name = {sanitize(k): v for k, v in weights.items()}
    for p in weight_params:
        name = sanitize(p.name)
        if name not in by_name:
            raise at.error(f"weight '{p.name}' is missing from the weights dict")
        shape, dtype = _static_shape(p.ty, f"parameter '{p.name}'", at)
        w = by_name[name]
        if tuple(w.shape) != shape or str(w.dtype) != dtype:
            raise at.error(
                f"weight '{p.name}' is {w.dtype}{list(w.shape)}, "
                f"the model wants {dtype}{list(shape)}"
            )
    wanted = {sanitize(p.name) for p in weight_params}
    for key in weights:
        if sanitize(key) not in wanted:
            its = ", ".join(p.name for p in weight_params) or "none"
            raise at.error(
                f"weight '{key}' is not a weight parameter of '{ENTRY}' (its weights: {its})"
            )


Call = tuple[str, list[Any], list[Any]]
"""An operator call: the operator, its arguments, the tensors it computes (one, or each
element of a tuple it returns, `split`'s and `topk`'s)."""


class Bindings(NamedTuple):
    """The entry's bindings: aliases `y = x` (an element taken from an operator's tuple,
    `y = lv[1]`, too), tuples `gv = (a, b)` (an operator's tuple result as its elements),
    operator calls in order, and the constant tensors the calls read (one of each dtype and
    bytes: `shared_constants`)."""

    aliases: dict[Any, Any]
    tuples: dict[Any, list[Any]]
    calls: list[Call]
    constants: SharedConstants


def _bindings(body: Any, at: Site, merge_equal: bool = True) -> Bindings:
    found = Bindings({}, {}, [], SharedConstants(merge_equal))
    call_tir = tvm.ir.Op.get("relax.call_tir")
    reshape = tvm.ir.Op.get("relax.reshape")
    elements = _tuple_elements(body)
    for block in body.blocks:
        for binding in block.bindings:
            var, value = binding.var, binding.value
            here = at.within_binding(var.name)
            if not isinstance(binding, relax.VarBinding):
                raise here.error(f"unsupported binding {type(binding).__name__}")
            if isinstance(value, tvm.ir.Var):
                found.aliases[var] = found.aliases.get(value, value)
                continue
            if isinstance(value, relax.TupleGetItem):
                tuple_var = found.aliases.get(value.tuple_value, value.tuple_value)
                if tuple_var not in found.tuples:
                    raise here.error(
                        "an element of a tuple that is neither an operator's nor built"
                    )
                element = found.tuples[tuple_var][value.index]
                if not element.same_as(var):
                    found.aliases[var] = found.aliases.get(element, element)
                continue
            if isinstance(value, tvm.ir.Tuple):
                found.tuples[var] = list(value.fields)
                continue
            if isinstance(value, tvm.ir.Call) and value.op == reshape:
                # A view (RewriteDataflowReshape made it): operators take `.data`, so the
                # reshaped tensor is its source's buffer.
                found.aliases[var] = _argument(value.args[0], found, here)
                continue
            if not isinstance(value, tvm.ir.Call) or value.op != call_tir:
                op = (
                    value.op.name
                    if isinstance(value, tvm.ir.Call) and hasattr(value.op, "name")
                    else type(value).__name__
                )
                raise here.error(
                    f"unsupported op '{op}' after lowering (only R.call_tir and R.reshape are)"
                )
            if len(value.args) > 2:
                raise here.error("R.call_tir with symbolic TIR arguments (a dynamic shape)")
            gv, args = value.args[0], value.args[1]
            if not isinstance(args, tvm.ir.Tuple):
                raise here.error("R.call_tir arguments are not a tuple")
            results = elements.get(var, [var])
            if var in elements:
                found.tuples[var] = results
            for i, result in enumerate(results):
                what = f"result {i}" if var in elements else "result"
                _static_shape(result.ty, f"{what} of '{gv.name_hint}'", here)
            arguments = [_argument(a, found, here) for a in args.fields]
            found.calls.append((gv.name_hint, arguments, results))
    return found


def _tuple_elements(body: Any) -> dict[Any, list[Any]]:
    """For each operator call returning a tuple, a var for each element: the first var
    bound to that element (`b = lv[1]`, named as the model names it), else one named after
    the tuple's (`lv_0`), for an element nothing reads."""
    taken: dict[tuple[Any, int], Any] = {}
    tuple_calls = []
    for block in body.blocks:
        for binding in block.bindings:
            value = binding.value
            if isinstance(value, tvm.ir.Call) and isinstance(binding.var.ty, relax.TupleType):
                tuple_calls.append(binding.var)
            elif isinstance(value, relax.TupleGetItem):
                taken.setdefault((value.tuple_value, value.index), binding.var)
    return {
        var: [
            element
            if (element := taken.get((var, i))) is not None
            else relax.Var(f"{var.name}_{i}", ty)
            for i, ty in enumerate(var.ty.fields)
        ]
        for var in tuple_calls
    }


def _argument(arg: Any, found: Bindings, here: Site) -> Any:
    """A call argument as `main` names it: a var (through its aliases) or a constant tensor."""
    if isinstance(arg, tvm.ir.Var):
        return found.aliases.get(arg, arg)
    if isinstance(arg, tvm.ir.Constant):
        _static_shape(arg.ty, "a constant argument", here)
        return found.constants.read(arg)
    raise here.error(
        f"operator argument {type(arg).__name__} is neither a tensor var nor a constant"
    )


class Output(NamedTuple):
    """A returned tensor: the var an operator computes, the buffer's name, and the type the
    model returns (a reshape of that var's, when the model returns a view)."""

    var: Any
    name: str
    ty: Any


def _outputs(
    result: Any,
    aliases: dict[Any, Any],
    tuples: dict[Any, list[Any]],
    computed: set[Any],
    names: list[str] | None,
    at: Site,
) -> list[Output]:
    """The entry's result, its tensors named `names` (`sanitize`d), else `output` for one
    tensor, `output0`, `output1`, ... for a tuple."""
    outputs = _returned(result, aliases, tuples, computed, at)
    if names is None:
        return outputs
    if len(names) != len(outputs):
        raise at.error(
            f"the model file names {len(names)} outputs, TVM's frontend returns {len(outputs)}"
        )
    named = zip(outputs, names, strict=True)
    return [output._replace(name=sanitize(name)) for output, name in named]


def _returned(
    result: Any, aliases: dict[Any, Any], tuples: dict[Any, list[Any]], computed: set[Any], at: Site
) -> list[Output]:
    """The entry's result: `output` for one tensor, `output0`, `output1`, ... for a tuple."""
    returned, result = result, aliases.get(result, result)
    if isinstance(result, tvm.ir.Tuple):
        fields = list(result.fields)
    elif result in tuples:
        fields = tuples[result]
    else:
        var = _computed_tensor(result, "the output", aliases, tuples, computed, at)
        return [Output(var, OUTPUT_NAME, returned.ty)]
    if not fields:
        raise at.error(f"'{ENTRY}' returns an empty tuple")
    outputs: list[Output] = []
    for i, field in enumerate(fields):
        var = _computed_tensor(field, f"output {i}", aliases, tuples, computed, at)
        for j, earlier in enumerate(outputs):
            if var.same_as(earlier.var):
                raise at.error(f"output {i} ('{var.name}') is output {j} again")
        outputs.append(Output(var, f"{OUTPUT_NAME}{i}", field.ty))
    return outputs


def _computed_tensor(
    expr: Any,
    what: str,
    aliases: dict[Any, Any],
    tuples: dict[Any, list[Any]],
    computed: set[Any],
    at: Site,
) -> Any:
    """The var of a returned tensor that an operator computes, which `main` writes."""
    if isinstance(expr, tvm.ir.Tuple):
        raise at.error(f"{what} is a nested tuple, not a tensor computed by an operator")
    if not isinstance(expr, tvm.ir.Var):
        raise at.error(f"{what} ({type(expr).__name__}) is not a tensor computed by an operator")
    var = aliases.get(expr, expr)
    what = f"{what} ('{expr.name}'" + (f", a view of '{var.name}')" if var is not expr else ")")
    if var in tuples:
        raise at.error(f"{what} is a nested tuple, not a tensor computed by an operator")
    # `_bindings` rejects every binding but aliases, tuples and calls: any other var is a param.
    if var not in computed:
        raise at.error(f"{what} is a model parameter, not computed by an operator")
    return var


def _buffer(name: str, ty: Any, what: str, at: Site) -> Any:
    """A TIR buffer of a Relax tensor type."""
    shape, dtype = _static_shape(ty, what, at)
    return tirx.decl_buffer(shape, dtype, name)


class TirModel(NamedTuple):
    """A Relax model as AOT-style TIR, and the array of each of `main`'s constant params
    (its `usmp.constants`): the weight params, then the constant tensors the operators read
    (bound weights, tensors folded from them, the model's own)."""

    tir: Any
    constants: dict[str, np.ndarray]


def relax_to_tir(
    mod: Any,
    weights: Mapping[str, np.ndarray],
    where: str = "<relax>",
    tir_import: TirImport = DEFAULT_TIR_IMPORT,
) -> Any:
    """The AOT-style TIR `tvm.IRModule` of a Relax model (see the module docstring)."""
    return model_to_tir(mod, weights, where, tir_import).tir


def model_to_tir(
    mod: Any,
    weights: Mapping[str, np.ndarray],
    where: str = "<relax>",
    tir_import: TirImport = DEFAULT_TIR_IMPORT,
    stage: Stages = unshown,
) -> TirModel:
    """`relax_to_tir`, with the arrays a caller passes for `main`'s constant params."""
    if not isinstance(mod, tvm.IRModule) or ENTRY not in [
        g.name_hint for g in mod.get_global_vars()
    ]:
        raise RelaxImportError(f"expected a Relax IRModule with an entry function '{ENTRY}'", where)
    if not isinstance(mod[ENTRY], relax.Function):
        raise RelaxImportError(f"'{ENTRY}' is not a Relax function", where)
    at = Site(where, f"in '{ENTRY}'")
    output_names = (mod[ENTRY].attrs or {}).get(OUTPUT_NAMES_ATTR)
    weight_names = _weight_names(weights, at)
    _check_params(mod[ENTRY], weights, weight_names, at)
    func = identity_clips_dropped(mod[ENTRY])
    if not func.same_as(mod[ENTRY]):
        mod = mod.clone()
        mod[ENTRY] = func
    tensors: dict[str, Any] = {}
    narrowed: dict[str, str] = {}
    if tir_import.weights == "bound":
        mod, tensors, narrowed = _bind_weights(
            mod, weights, at, tir_import.keeps_stored_weights, tir_import.constant_storage
        )
    stage("legalization and fusion (TVM)")
    lowered = lower_relax(_with_script_names(mod), at, tir_import, tensors)
    lowered = outputs_copied(lowered, ENTRY, _state_params(lowered[ENTRY], weight_names))
    stage("lowering to TIR")
    func = lowered[ENTRY]
    inputs, weight_params = _split_params(func, weight_names)
    if not isinstance(func.body, relax.SeqExpr):
        raise at.error(f"'{ENTRY}' body is a {type(func.body).__name__}")
    found = _bindings(func.body, at, merge_equal=tir_import.constant_storage == "compact")
    computed = {var for _, _, results in found.calls for var in results}
    names = None if output_names is None else [str(n) for n in output_names]
    outputs = _outputs(func.body.body, found.aliases, found.tuples, computed, names, at)
    used = {op for op, _, _ in found.calls}
    taken = weight_names | {p.name for p in inputs} | used | _SCRIPT_NAMES
    buffers = {
        p: _buffer(p.name, p.ty, f"parameter '{p.name}'", at) for p in inputs + weight_params
    }
    weights_by_name = {sanitize(k): v for k, v in weights.items()}
    constants = {p.name: np.asarray(weights_by_name[p.name]) for p in weight_params}
    constant_names = {}
    for constant, name in _constant_names(found.constants, tensors, weight_names, taken):
        buffers[constant] = _buffer(name, constant.ty, f"constant '{name}'", at)
        constants[name] = constant.value.numpy()
        constant_names[constant] = name
    shared: dict[str, str] = {}  # a weight stored with an equal one: that one's name
    for constant, first in found.constants.merged():
        alias = _tensor_name(constant, tensors)
        if alias is not None and alias not in constants:
            shared[alias] = constant_names[first]
    # A weight stored narrower: its copy's name in main, or in `shared` if it is stored
    # with an equal one.
    stored_as = {_tensor_name(c, tensors): n for c, n in constant_names.items()}
    stored_as.update((alias, alias) for alias in shared)
    narrowed_as = {name: stored_as[copy] for name, copy in narrowed.items() if copy in stored_as}
    for var, name, ty in outputs:
        buffers[var] = _buffer(fresh_name(name, taken), ty, f"output '{var.name}'", at)
    output_params = [str(buffers[var].name) for var, _, _ in outputs]
    state = _state_pairs(func, [str(buffers[p].name) for p in inputs], output_params, at)

    # main's params in order: the inputs, the weights, the constants, the outputs.
    params = list(buffers.values())

    loops = _loops_and_allocs(lowered)
    operators = {
        tvm.ir.GlobalVar(g.name_hint): _operator(g.name_hint, loops[g], at)
        for g in loops.get_global_vars()
        if g.name_hint in used
    }
    attrs = {
        "global_symbol": "main",
        "runner_function": True,
        "tirx.noalias": True,
        CONSTANTS_ATTR: list(constants),
        OUTPUTS_ATTR: output_params,
        **({SHARED_CONSTANTS_ATTR: shared} if shared else {}),
        **({NARROWED_CONSTANTS_ATTR: narrowed_as} if narrowed_as else {}),
        **({STATE_ATTR: state} if state else {}),
    }
    body = _main_body(found.calls, buffers, operators, taken, at)
    main = tvm.tirx.PrimFunc(params, body, attrs=tvm_attrs(attrs))
    return TirModel(tvm.IRModule({**operators, tvm.ir.GlobalVar("main"): main}), constants)


def _state_pairs(func: Any, inputs: list[str], outputs: list[str], at: Site) -> dict[str, str]:
    """The entry's `usmp.state`: each state input's param, with the output param of its
    value after the run (the entry's `usmp.state_count` last of each)."""
    count = int((func.attrs or {}).get(STATE_COUNT_ATTR, 0))
    if count > min(len(inputs), len(outputs)):
        raise at.error(
            f"{STATE_COUNT_ATTR} is {count}, more than the {len(inputs)} inputs or "
            f"{len(outputs)} outputs"
        )
    if not count:
        return {}
    return dict(zip(inputs[-count:], outputs[-count:], strict=True))


def _constant_names(
    constants: Iterable[Any], tensors: dict[str, Any], weights: set[str], taken: set[str]
) -> list[tuple[Any, str]]:
    """Each constant tensor an operator reads, named: a bound weight keeps its name, one
    computed from weights the name `tensors` gives it (`_` appended while taken), any other
    is `constant0`, `constant1`, ... in the order of first use."""
    named, unnamed = [], 0
    for constant in constants:
        name = _tensor_name(constant, tensors)
        if name is None:
            name = fresh_name(f"constant{unnamed}", taken)
            unnamed += 1
        elif name not in weights:
            name = fresh_name(name, taken)
        named.append((constant, name))
    return named


def _tensor_name(constant: Any, tensors: dict[str, Any]) -> str | None:
    """The name of the bound weight or the tensor computed from weights `constant` holds."""
    return next((n for n, t in tensors.items() if constant.value.same_as(t)), None)


def _main_body(
    calls: list[Call],
    buffers: dict[Any, Any],
    operators: dict[Any, Any],
    taken: set[str],
    at: Site,
) -> Any:
    """An `AllocBuffer` for each intermediate tensor, then the operator calls in order."""
    statements = []
    for _, _, results in calls:
        for var in results:
            if var not in buffers:  # not an output
                name = fresh_name(sanitize(var.name), taken)
                buffers[var] = _buffer(name, var.ty, var.name, at)
                statements.append(tirx.AllocBuffer(buffers[var]))
    by_name = {g.name_hint: g for g in operators}
    for op, args, results in calls:
        for a in args:
            if a not in buffers:
                raise at.error(f"operator '{op}' reads '{a.name}' before it is computed")
        gvar = by_name[op]
        pointers = [buffers[a].data for a in [*args, *results]]
        statements.append(tirx.Evaluate(ir.Call(gvar, pointers, ret_ty=operators[gvar].ret_type)))
    return tirx.stmt_seq(*statements)


def import_relax(
    mod: Any,
    weights: Mapping[str, np.ndarray],
    where: str = "<relax>",
    tir_import: TirImport = DEFAULT_TIR_IMPORT,
    stage: Stages = unshown,
) -> ModuleOp:
    """The `tir` dialect of a Relax model (see the module docstring), `main` holding its
    constants' values as `usmp.constant_values`."""

    lowered = model_to_tir(mod, weights, where, tir_import, stage)
    stage("import into the tir dialect")
    try:
        module = import_module(lowered.tir, "<lowered>")
    except TVMScriptError as error:  # TVM lowered the model to TIR the tir dialect lacks
        raise Site(where, "in the lowered TIR").error(
            f"{error.message} ({error.location})"
        ) from None
    state = _state_values(mod, weights, where)
    if lowered.constants or state:
        set_constant_values(module, prim_funcs(module)["main"], lowered.constants, state)
    return module


def _state_values(mod: Any, weights: Mapping[str, np.ndarray], where: str) -> dict[str, np.ndarray]:
    """The first value of each state variable the entry gives (its `usmp.state_initial`),
    by the name of `main`'s param of its value before a run (its state inputs, as named)."""
    func = mod[ENTRY]
    attrs = func.attrs or {}
    initial = list(attrs.get(STATE_INITIAL_ATTR, []))
    if not initial:
        return {}
    inputs, _ = _split_params(func, _weight_names(weights, Site(where)))
    names = [sanitize(p.name) for p in inputs[-len(initial) :]]
    return {name: value.numpy() for name, value in zip(names, initial, strict=True)}
