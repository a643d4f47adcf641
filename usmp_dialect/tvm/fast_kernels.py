"""The C library's int8 kernels (`kernels/int8_kernels.c`): CONV_2D, DEPTHWISE_CONV_2D,
FULLY_CONNECTED, ADD and AVERAGE_POOL_2D of an int8 `.tflite` as calls of hand-written C,
Helium on a Cortex-M55 and portable C elsewhere (the same bytes), where the other routes (the Relax
VM, TVM's LLVM builds) keep the TE kernels' loops (`model_files.int8_weighted_kernels`,
`model_files.int8_unweighted_kernels`).

Three steps, each where what it needs is known:

    kernel_annotation(kind, window, r)   the TE kernel's requantization stage (an ADD's
    add_annotation(...)                  or an AVERAGE_POOL_2D's last) is annotated with
    average_pool_annotation(...)         what the operator is
    lifted_kernels(mod)                  after TVM's fusion (block form), a PrimFunc
                                         that is one such kernel (and the casts and
                                         reshapes of its inputs fused into it) gets a
                                         `usmp.kernel` attribute: the kernel's constant
                                         parameters and which of its params is which
    with_kernel_calls(mod)               `--emit-c`: each such PrimFunc's body becomes a
                                         call of a C function made for it, which calls
                                         the kernel with its parameters

A PrimFunc that is not one kernel alone (a kernel fused with another operator, a grouped
convolution, a dilation, an ADD that broadcasts) keeps TVM's loops: `portable_operators`
names them, and the library's first comment says which operators are which.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import tvm
from tvm import s_tir, tirx

from usmp_dialect.dialects.tir import KERNEL_ATTR
from usmp_dialect.tvm.relax.nodes import nodes_of
from usmp_dialect.tvm_options import DEFAULT_TARGET

KERNEL_ANNOTATION = KERNEL_ATTR
"""The TE stage's annotation (a JSON object: the kernel's kind, window, quantization)
and, lifted, the PrimFunc's attribute (with its operands' params)."""

_TARGET_DEFINES = {
    "cortex-m55": "#define USMP_KERNELS_HELIUM_ONLY 1",
    "portable": "#define USMP_KERNELS_PORTABLE 1",
}

_OPERANDS = ("data", "weight", "bias", "multipliers", "shifts", "output")
_BIAS_BYTES = {"int8": 1, "int16": 2, "int32": 4}


def kernel_annotation(kind: str, window: Any, r: Any) -> dict[str, str]:
    """The attrs of the requantization stage of an `int8_weighted_kernels` kernel: `kind`
    (conv2d, depthwise_conv2d, fully_connected), its ConvWindow (None for a fully
    connected) and Requantization."""
    record: dict[str, Any] = {
        "kind": kind,
        "input_zp": r.input_zero_point,
        "output_zp": r.output_zero_point,
        "act": [r.low, r.high],
        "fixed": list(r.fixed) if r.fixed is not None else None,
        "out_dtype": r.out_dtype,
    }
    if window is not None:
        record.update(
            strides=list(window.strides),
            dilation=list(window.dilation),
            padding=list(window.padding),
        )
    return {KERNEL_ANNOTATION: json.dumps(record, sort_keys=True)}


def add_annotation(operands: Any, output: Any, bounds: Any, same_shape: bool) -> dict[str, str]:
    """The attrs of the last stage of `int8_unweighted_kernels.add`: its operands' zero points,
    multipliers and shifts, the output's, the clamp; the C kernel adds tensors of one
    shape (`same_shape`)."""
    record = {
        "kind": "add",
        "inputs": [[o.zero_point, o.multiplier, o.shift] for o in operands],
        "output": [output.multiplier, output.shift, output.zero_point],
        "act": [bounds.low, bounds.high],
        "out_dtype": bounds.dtype,
        "same_shape": same_shape,
    }
    return {KERNEL_ANNOTATION: json.dumps(record, sort_keys=True)}


def average_pool_annotation(window: Any, bounds: Any) -> dict[str, str]:
    """The attrs of the last stage of `int8_unweighted_kernels.average_pool`: its
    PoolWindow and clamp."""
    record = {
        "kind": "average_pool",
        "window": list(window),
        "act": [bounds.low, bounds.high],
        "out_dtype": bounds.dtype,
    }
    return {KERNEL_ANNOTATION: json.dumps(record, sort_keys=True)}


# ------------------------------------------------------------------ after fusion


def _add_operands(func: Any, record: dict[str, Any]) -> dict[str, Any] | None:
    """An ADD's record with its operands: its function is the kernel alone (ADD is
    opaque to fusion), its params the two inputs and the output, of one shape."""
    params = list(func.params)
    if len(params) != 3 or not record["same_shape"] or record["out_dtype"] != "int8":
        return None
    if {str(p.dtype) for p in params} != {"int8"}:
        return None
    size = 1
    for d in params[2].shape:
        size *= int(d)
    record.update(operands={"a": 0, "b": 1, "output": 2}, size=size)
    return record


def _average_pool_operands(func: Any, record: dict[str, Any]) -> dict[str, Any] | None:
    """An AVERAGE_POOL_2D's record with its operands: its function the window sum and
    the average alone, its params an int8 NHWC input of batch 1 and the output."""
    params = list(func.params)
    if len(params) != 2 or record["out_dtype"] != "int8":
        return None
    if {str(p.dtype) for p in params} != {"int8"}:
        return None
    shapes = [[int(d) for d in p.shape] for p in params]
    if any(len(s) != 4 or s[0] != 1 for s in shapes) or shapes[0][3] != shapes[1][3]:
        return None
    record.update(
        operands={"data": 0, "output": 1}, shapes={"data": shapes[0], "output": shapes[1]}
    )
    return record


def _blocks(func: Any) -> list[Any]:
    return [b for b in nodes_of(s_tir.SBlock, func.body) if b.name_hint != "root"]


def _operands(func: Any) -> dict[str, Any] | None:
    """The kernel's record with `operands` (param index by role) and `bias_bytes`, or None
    when `func` is not one annotated kernel and copies of its inputs."""
    blocks = _blocks(func)
    annotated = [b for b in blocks if KERNEL_ANNOTATION in b.annotations]
    if len(annotated) != 1:
        return None
    requantized = annotated[0]
    record = json.loads(str(requantized.annotations[KERNEL_ANNOTATION]))
    if record["kind"] == "add":
        return _add_operands(func, record) if len(blocks) == 2 else None
    if record["kind"] == "average_pool":
        return _average_pool_operands(func, record) if len(blocks) == 2 else None
    if record["out_dtype"] != "int8" or record.get("dilation", [1, 1]) != [1, 1]:
        return None

    def param_of(buf: Any) -> int | None:
        return next((i for i, p in enumerate(func.params) if p.same_as(buf)), None)

    def producer(buf: Any) -> Any:
        written = [b for b in blocks if len(b.writes) == 1 and b.writes[0].source.same_as(buf)]
        return written[0] if len(written) == 1 else None

    used = [requantized]

    def source(buf: Any) -> tuple[int, Any] | None:
        """The param a buffer is, or is a copy, cast or padding of."""
        while param_of(buf) is None:
            block = producer(buf)
            if block is None or len(block.reads) != 1 or any(block.same_as(u) for u in used):
                return None
            used.append(block)
            buf = block.reads[0].source
        return param_of(buf), buf  # type: ignore[return-value]

    out = requantized.writes[0].source
    if param_of(out) is None:
        return None
    reads = [region.source for region in requantized.reads]
    acc_block = producer(reads[0])
    if acc_block is None or len(acc_block.reads) != 2:
        return None
    used.append(acc_block)
    found = [source(region.source) for region in acc_block.reads]
    tables = record["fixed"] is None
    rest = [source(b) for b in reads[1:]]
    with_bias = len(rest) - (2 if tables else 0)
    if None in found or None in rest or with_bias not in (0, 1):
        return None
    if len(used) != len(blocks):
        return None  # another operator fused in
    (data, data_buf), (weight, weight_buf) = found  # type: ignore[misc]
    operands: dict[str, int | None] = {"data": data, "weight": weight, "output": param_of(out)}
    bias_bytes = 0
    if with_bias:
        operands["bias"], bias_buf = rest.pop(0)  # type: ignore[misc]
        bias_bytes = _BIAS_BYTES.get(str(bias_buf.dtype), 0)
        if not bias_bytes:
            return None
    if tables:  # read shift then multiplier (`fixed_point`): told apart by their types
        by_type = {str(buf.dtype): index for index, buf in rest}  # type: ignore[misc]
        if set(by_type) != {"int32", "int8"}:
            return None
        operands["multipliers"], operands["shifts"] = by_type["int32"], by_type["int8"]
    dtypes = {str(data_buf.dtype), str(weight_buf.dtype)}
    if dtypes != {"int8"}:
        return None
    shapes = {
        "data": [int(d) for d in data_buf.shape],
        "weight": [int(d) for d in weight_buf.shape],
    }
    shapes["output"] = [int(d) for d in out.shape]
    record.update(operands=operands, bias_bytes=bias_bytes, shapes=shapes)
    return record if _covered(record) else None


def _covered(record: dict[str, Any]) -> bool:
    """Whether the C kernels compute this operator (batch 1, one group)."""
    shapes, kind = record["shapes"], record["kind"]
    if kind == "fully_connected":
        return len(shapes["weight"]) == 2
    data, weight, out = shapes["data"], shapes["weight"], shapes["output"]
    if len(data) != 4 or data[0] != 1 or len(out) != 4:
        return False
    if kind == "depthwise_conv2d":
        return weight[0] == 1 and weight[3] == out[3] and out[3] % data[3] == 0
    return weight[3] == data[3] and weight[0] == out[3]


def lifted_kernels(mod: Any) -> Any:
    """`mod` (PrimFuncs in block form, after fusion) with each kernel the C library calls
    marked by its `usmp.kernel` attribute."""
    updates = {}
    for gv, func in mod.functions.items():
        if not isinstance(func, tvm.tirx.PrimFunc):
            continue
        record = _operands(func)
        if record is not None:
            updates[gv] = func.with_attr(KERNEL_ANNOTATION, json.dumps(record, sort_keys=True))
    for gv, func in updates.items():
        mod[gv] = func
    return mod


# ------------------------------------------------------------------ `--emit-c`


def kernels_source() -> str:
    """The C of the kernels, which the library carries."""
    return resources.files("usmp_dialect.tvm").joinpath("kernels/int8_kernels.c").read_text()


def _params_struct(record: dict[str, Any]) -> str:
    """The `struct usmp_conv` initializer of an operator: every output row, its input and
    output whole tensors or (a band's) rolling buffers."""
    shapes, kind = record["shapes"], record["kind"]
    multiplier, shift = record["fixed"] or (0, 0)
    if kind == "fully_connected":
        units, depth = shapes["weight"]
        window = [1, depth, depth, 1, 1, units, 1, 1, 1, 1, 0, 0]
    else:
        _, in_h, in_w, in_c = shapes["data"]
        _, out_h, out_w, out_c = shapes["output"]
        _, k_h, k_w, _ = shapes["weight"]
        window = [in_h, in_w, in_c, out_h, out_w, out_c, k_h, k_w, *record["strides"]]
        window += record["padding"]
    band = record.get("band", {})
    in_h, out_h = window[0], window[3]
    rows = [0, out_h, band.get("in_rows") or in_h, band.get("out_rows") or out_h]
    quantization = [record["input_zp"], record["output_zp"], *record["act"], multiplier, shift]
    values = [*window, *quantization, record["bias_bytes"], *rows]
    return "{" + ", ".join(str(v) for v in values) + "}"


def _add_struct(record: dict[str, Any]) -> str:
    """The `struct usmp_add` initializer of an ADD."""
    (a_zp, a_m, a_s), (b_zp, b_m, b_s) = record["inputs"]
    multiplier, shift, zero_point = record["output"]
    values = [record["size"], a_zp, a_m, a_s, b_zp, b_m, b_s, multiplier, shift, zero_point]
    return "{" + ", ".join(str(v) for v in [*values, *record["act"]]) + "}"


def _average_pool_struct(record: dict[str, Any]) -> str:
    """The `struct usmp_average_pool` initializer of an AVERAGE_POOL_2D."""
    height, width, filter_h, filter_w, stride_h, stride_w, top, left = record["window"]
    _, out_h, out_w, channels = record["shapes"]["output"]
    values = [height, width, channels, out_h, out_w, filter_h, filter_w, stride_h, stride_w]
    return "{" + ", ".join(str(v) for v in [*values, top, left, *record["act"]]) + "}"


def _kernel_call(record: dict[str, Any], args: list[str], p: str) -> str:
    """The statement calling the kernel on the wrapper's params `args`, its constants `p`."""
    operands = record["operands"]
    if record["kind"] == "add":
        return f"usmp_add_s8({args[0]}, {args[1]}, {args[2]}, &{p});"
    if record["kind"] == "average_pool":
        return f"usmp_average_pool_s8({args[0]}, {args[1]}, &{p});"

    def arg(role: str) -> str:
        index = operands.get(role)
        return "NULL" if index is None else args[index]

    common = ", ".join(arg(role) for role in _OPERANDS)
    kind = record["kind"]
    if kind == "fully_connected":
        units, depth = record["shapes"]["weight"]
        rows = 1
        for d in record["shapes"]["data"]:
            rows *= d
        return f"usmp_matmul_s8({common}, {rows // depth}, {depth}, {units}, &{p});"
    kernel = "usmp_depthwise_s8" if kind == "depthwise_conv2d" else "usmp_conv_s8"
    return f"{kernel}({common}, &{p});"


def _struct(record: dict[str, Any]) -> str:
    """The declaration of the kernel's constant parameters `p`."""
    if record["kind"] == "add":
        return f"struct usmp_add p = {_add_struct(record)}"
    if record["kind"] == "average_pool":
        return f"struct usmp_average_pool p = {_average_pool_struct(record)}"
    return f"struct usmp_conv p = {_params_struct(record)}"


def _param_type(param: Any) -> str:
    """The C type of a param: a pointer to integers (`int8_t*`, ...) or (a band's rows)
    an integer."""
    element = getattr(param.ty, "element_type", None)
    return f"{param.ty.dtype}_t" if element is None else f"{element.dtype}_t*"


def _wrapper(name: str, func: Any, record: dict[str, Any]) -> str:
    """A C function of `func`'s params calling its kernel: over the output rows of its
    params `row_begin` and `row_end` for a band (`tir.BAND_KERNELS`), else every row."""
    args = [f"a{i}" for i in range(len(func.params))]
    typed = [f"{_param_type(p)} {a}" for p, a in zip(func.params, args, strict=True)]
    lines = [f"static int32_t {name}({', '.join(typed)}) {{", f"  static const {_struct(record)};"]
    p = "p"
    if "band" in record:
        begin, end = (args[i] for i in record["band"]["rows"])
        lines.append("  struct usmp_conv band = p;")
        lines.append(f"  band.row_begin = {begin};")
        lines.append(f"  band.row_end = {end};")
        p = "band"
    return "\n".join([*lines, f"  {_kernel_call(record, args, p)}", "  return 0;", "}"])


def with_kernel_calls(mod: Any, entry: str, target: str = DEFAULT_TARGET) -> tuple[Any, str]:
    """`mod` (the planned module as TVM's, its operators taking raw pointers) with each
    marked kernel's body a call of a C function made for it, and the C that defines
    those functions (the kernels for `target`, then one function an operator), to go
    before TVM's C of the module; for target `tvm`, `mod` as it is."""
    fast: list[str] = []
    portable: list[str] = []
    wrappers: list[str] = []
    for gv in sorted(mod.get_global_vars(), key=lambda g: g.name_hint):
        func = mod[gv]
        if gv.name_hint == entry or not isinstance(func, tirx.PrimFunc):
            continue
        attrs = func.attrs
        if target == "tvm" or attrs is None or KERNEL_ANNOTATION not in attrs:
            portable.append(gv.name_hint)
            continue
        record = json.loads(str(attrs[KERNEL_ANNOTATION]))
        name = f"usmp_kernel_{len(wrappers)}"
        wrappers.append(_wrapper(name, func, record))
        call = tirx.call_extern("int32", name, *func.params)
        returns = "int32" in str(func.ret_type)
        mod[gv] = func.with_body(tirx.Return(call) if returns else tirx.Evaluate(call))
        fast.append(f"{gv.name_hint} ({record['kind']})")
    lines = [
        f"/* Operators on the int8 kernels: {', '.join(fast) or 'none'}. */",
        f"/* Operators on TVM's loops: {', '.join(portable) or 'none'}. */",
    ]
    if wrappers:
        define = _TARGET_DEFINES.get(target)
        lines += [*([define] if define else []), kernels_source(), *wrappers, ""]
    return mod, "\n".join(lines)


def portable_operators(source: str) -> list[str]:
    """The operators a library's C (`with_kernel_calls`) left on TVM's loops."""
    return _listed(source, "/* Operators on TVM's loops: ")


def kernel_operators(source: str) -> list[str]:
    """The operators a library's C (`with_kernel_calls`) runs on the kernels (`name (kind)`)."""
    return _listed(source, "/* Operators on the int8 kernels: ")


def _listed(source: str, comment: str) -> list[str]:
    for line in source.splitlines():
        if line.startswith(comment):
            names = line.removeprefix(comment).removesuffix(". */")
            return [] if names == "none" else names.split(", ")
    return []
