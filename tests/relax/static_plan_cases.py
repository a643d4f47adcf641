"""Relax functions as StaticPlanBlockMemory takes them (after CallTIRRewrite: operators
called destination-passing into `R.builtin.alloc_tensor`s), one for each construct that
TVM's own tests of that pass exercise (tests/python/relax/
test_transform_static_plan_block_memory.py, apache/tvm), written here anew: reuse across
sizes and dtypes, bool tensors, `If` conditions and branches, use across blocks, nested
tuples, calls of Relax and packed functions, symbolic shapes with and without
`tir_var_upper_bound`, unreferenced allocations, reshapes of parameters and of tensors,
several functions, views, dataflow blocks.

    CASES: dict[str, str]      name -> the TVMScript of its module
    case_module(name)          parsed

Operators are stubs (`T.evaluate(0)`), as in TVM's tests; `runnable(mod)` gives each call
of one a kernel of its own that reads every element of every input (`out[i]` is `i` plus,
from each input, its element at `i` modulo its size), so that a plan that overwrites a
tensor still read changes the output. The packed function `usmp_test.add_one` (`out = x +
1`) is registered by `register_packed_functions()`.
"""

from __future__ import annotations

from typing import Any

_HEADER = """
@I.ir_module
class Module:
    @T.prim_func
    def unary(a: T.handle, out: T.handle):
        T.evaluate(0)

    @T.prim_func
    def binary(a: T.handle, b: T.handle, out: T.handle):
        T.evaluate(0)
"""


def _alloc(shape: str, dtype: str = "float32") -> str:
    return f'R.builtin.alloc_tensor(R.shape([{shape}]), "{dtype}", 0)'


def _chain(shapes: list[str], dtype: str = "float32") -> str:
    """Unary operators one after another from `x`, each output of one of `shapes`, the last
    returned."""
    names = [f"t{i}" for i in range(len(shapes) - 1)] + ["out"]
    lines = []
    for k, (name, shape) in enumerate(zip(names, shapes, strict=True)):
        lines += [
            f"{name} = R.builtin.alloc_tensor(R.shape([{shape}]), {dtype!r}, 0)",
            f"Module.unary({names[k - 1] if k else 'x'}, {name})",
        ]
    return "\n".join([*lines, "return out"])


def _main(params: str, ret: str, body: str, attrs: str = "", name: str = "main") -> str:
    lines = body.strip("\n").splitlines()
    indented = "\n".join("        " + line for line in lines)
    return f"""
    @R.function
    def {name}({params}) -> {ret}:
        {attrs or "R.func_attr({'relax.force_pure': True})"}
{indented}
"""


F = 'R.Tensor((2, 3), "float32")'

CASES: dict[str, str] = {
    "basic": _main(
        'x: R.Tensor((2, 4), "float32")',
        'R.Tensor((10,), "float32")',
        f"""
a = {_alloc("2, 4")}
Module.unary(x, a)
flat = R.reshape(a, (8,))
b = {_alloc("8")}
Module.unary(flat, b)
c = {_alloc("8")}
Module.binary(b, R.const(1, "float32"), c)
d = {_alloc("10")}
Module.unary(c, d)
e = {_alloc("10")}
Module.unary(d, e)
out = {_alloc("10")}
Module.unary(e, out)
return out
""",
    ),
    "different dtypes": _main(
        'x: R.Tensor((2, 3), "float32"), y: R.Tensor((2, 3), "int32")',
        'R.Tensor((2, 3), "float32")',
        f"""
a = {_alloc("2, 3")}
Module.unary(x, a)
b = {_alloc("2, 3", "int32")}
Module.unary(y, b)
c = {_alloc("2, 3")}
Module.binary(a, a, c)
d = {_alloc("2, 3", "int32")}
Module.binary(b, b, d)
out = {_alloc("2, 3")}
Module.binary(c, d, out)
return out
""",
    ),
    "bool tensors": _main(
        'x: R.Tensor((2, 3), "bool")',
        'R.Tensor((2, 3), "bool")',
        _chain(["2, 3"] * 4, "bool"),
    ),
    "If condition": _main(
        f"x: {F}",
        F,
        f"""
cond = {_alloc("", "bool")}
Module.unary(x, cond)
if cond:
    y = x
else:
    a = {_alloc("2, 3")}
    Module.unary(x, a)
    y = a
return x
""",
    ),
    "If branches read a tensor": _main(
        f'cond: R.Tensor((), "bool"), x: {F}',
        F,
        f"""
a = {_alloc("2, 3")}
Module.unary(x, a)
if cond:
    y = a
else:
    b = {_alloc("2, 3")}
    Module.unary(a, b)
    y = b
out = {_alloc("2, 3")}
Module.unary(y, out)
return out
""",
    ),
    "use across blocks": _main(
        f"x: {F}",
        F,
        f"""
with R.dataflow():
    a = {_alloc("2, 3")}
    Module.unary(x, a)
    R.output(a)
b = {_alloc("2, 3")}
Module.unary(x, b)
c = {_alloc("2, 3")}
Module.binary(a, b, c)
out = {_alloc("2, 3")}
Module.unary(c, out)
return out
""",
    ),
    "nested tuple": _main(
        f"x: {F}",
        F,
        f"""
a = {_alloc("2, 3")}
Module.unary(x, a)
b = {_alloc("2, 3")}
Module.unary(x, b)
c = {_alloc("2, 3")}
Module.unary(x, c)
t = ((a, b), c)
d = {_alloc("2, 3")}
Module.unary(x, d)
inner = t[0]
first = inner[0]
out = {_alloc("2, 3")}
Module.binary(first, d, out)
return out
""",
    ),
    "Relax function call": _main(
        f"x: {F}",
        F,
        f"""
a = {_alloc("2, 3")}
Module.unary(x, a)
b = Module.helper(a)
c = {_alloc("2, 3")}
Module.unary(x, c)
out = {_alloc("2, 3")}
Module.binary(b, c, out)
return out
""",
    )
    + f"""
    @R.function
    def helper(x: {F}) -> {F}:
        return x
""",
    "packed call into a tensor": _main(
        f"x: {F}",
        F,
        f"""
a = {_alloc("2, 3")}
R.call_packed("usmp_test.add_one", x, a, ty_args=R.Tuple())
b = {_alloc("2, 3")}
R.call_packed("usmp_test.add_one", a, b, ty_args=R.Tuple())
c = {_alloc("2, 3")}
Module.unary(b, c)
out = {_alloc("2, 3")}
Module.unary(c, out)
return out
""",
    ),
    "symbolic shape": _main(
        'x: R.Tensor(("n", 4), "float32")',
        'R.Tensor(("n", 4), "float32")',
        "n = T.int64()\n" + _chain(["n, 4"] * 3),
    ),
    "symbolic shape, upper bound": _main(
        'x: R.Tensor(("n", 4), "float32")',
        'R.Tensor(("n", 4), "float32")',
        "n = T.int64()\n" + _chain(["n, 4"] * 4),
        attrs="R.func_attr({'relax.force_pure': True, 'tir_var_upper_bound': {'n': 32}})",
    ),
    "symbolic shape, lower and upper bounds": _main(
        'x: R.Tensor(("n", 4), "float32")',
        'R.Tensor(("n", 4), "float32")',
        "n = T.int64()\n" + _chain(["n, 4", "n * 2, 4", "n, 4", "n, 4"]),
        attrs="R.func_attr({'relax.force_pure': True, 'tir_var_upper_bound': {'n': 16}, "
        "'tir_var_lower_bound': {'n': 2}})",
    ),
    "unreferenced allocation": _main(
        f"x: {F}",
        F,
        f"""
a = {_alloc("2, 3")}
b = {_alloc("2, 3")}
Module.unary(x, b)
return x
""",
    ),
    "reshape of a parameter": _main(
        f"x: {F}",
        'R.Tensor((6,), "float32")',
        f"""
flat = R.reshape(x, (6,))
a = {_alloc("6")}
Module.unary(flat, a)
out = {_alloc("6")}
Module.unary(a, out)
return out
""",
    ),
    "several functions": _main(f"x: {F}", F, _chain(["2, 3"] * 3))
    + _main(
        'x: R.Tensor((4, 4), "float32")',
        'R.Tensor((4, 4), "float32")',
        _chain(["4, 4"] * 4),
        name="second",
    ),
    "operators of mixed sizes": _main(
        'x: R.Tensor((16,), "float32")',
        'R.Tensor((16,), "float32")',
        f"""
a = {_alloc("64")}
Module.unary(x, a)
b = {_alloc("16")}
Module.unary(a, b)
c = {_alloc("48")}
Module.unary(b, c)
d = {_alloc("16")}
Module.binary(b, c, d)
e = {_alloc("64")}
Module.unary(d, e)
out = {_alloc("16")}
Module.unary(e, out)
return out
""",
    ),
    "view and ensure_zero_offset": _main(
        'p: R.Tensor((16, 16), "float32")',
        'R.Tensor((128,), "float32")',
        f"""
x = {_alloc("16, 16")}
Module.unary(p, x)
x1 = R.memory.view(x, [128], "float32", 0)
x2 = R.memory.ensure_zero_offset(x1)
y = {_alloc("128")}
Module.unary(x2, y)
z = {_alloc("128")}
Module.unary(y, z)
return z
""",
    ),
    "vm.builtin.reshape": _main(
        'x: R.Tensor((16,), "float32")',
        'R.Tensor((16,), "float32")',
        f"""
a = {_alloc("16")}
Module.unary(x, a)
v = R.call_packed("vm.builtin.reshape", a, R.shape([16]), ty_args=R.Tensor((16,), "float32"))
b = {_alloc("16")}
Module.unary(v, b)
c = {_alloc("16")}
Module.binary(b, v, c)
out = {_alloc("16")}
Module.unary(c, out)
return out
""",
    ),
    "dataflow block": _main(
        'x: R.Tensor((10,), "float32")',
        'R.Tensor((10,), "float32")',
        f"""
with R.dataflow():
    a = {_alloc("10")}
    Module.unary(x, a)
    b = {_alloc("10")}
    Module.unary(a, b)
    gv = b
    R.output(gv)
return gv
""",
    ),
}


def case_module(name: str) -> Any:
    import tvm

    return tvm.script.from_source(_HEADER + CASES[name])


def register_packed_functions() -> None:
    import tvm

    def add_one(x: Any, out: Any) -> None:
        out.copyfrom(x.numpy() + 1)

    tvm.register_global_func("usmp_test.add_one", add_one, override=True)


def _kernel(inputs: list[Any], out_ty: Any) -> Any:
    """A PrimFunc writing `out[i] = i + sum over inputs of input[i mod its size]`."""
    import tvm
    from tvm import te

    out_shape = list(out_ty.shape.values)
    placeholders = [
        te.placeholder(list(ty.shape.values), str(ty.dtype), f"in{k}")
        for k, ty in enumerate(inputs)
    ]

    def element(*index: Any) -> Any:
        flat = index[0] if index else tvm.tirx.const(0, "int64")
        for dim, i in zip(out_shape[1:], index[1:], strict=True):
            flat = flat * dim + i
        total = tvm.tirx.Cast("float32", flat)
        for ph in placeholders:
            rest = flat % _size(ph.shape) if ph.shape else flat
            at = []
            for dim in reversed(ph.shape):
                at.append(rest % dim)
                rest = rest // dim
            total = total + tvm.tirx.Cast("float32", ph(*reversed(at)))
        if str(out_ty.dtype) == "bool":
            return tvm.tirx.Cast("int32", total) % 2 == 1
        return tvm.tirx.Cast(str(out_ty.dtype), total)

    out = te.compute(out_shape, element, "out")
    return te.create_prim_func([*placeholders, out])


def _size(shape: Any) -> Any:
    size = 1
    for dim in shape:
        size = size * dim
    return size


def runnable(mod: Any) -> Any:
    """`mod` with each call of a stub operator calling a kernel of its own (see above)."""
    import tvm
    import tvm_ffi
    from tvm import relax

    stubs = {gv for gv, f in mod.functions.items() if isinstance(f, tvm.tirx.PrimFunc)}
    builder = relax.BlockBuilder(mod)

    def rewrite(call: Any) -> Any:
        if not (isinstance(call, tvm.ir.Call) and call.op in stubs):
            return call
        tensors = [a for a in call.args if isinstance(a.ty, relax.TensorType)]
        kernel = _kernel([a.ty for a in tensors[:-1]], tensors[-1].ty)
        return relax.Call(builder.add_func(kernel, "kernel"), call.args)

    for gv, func in list(mod.functions.items()):
        if isinstance(func, relax.Function):
            builder.update_func(gv, tvm_ffi.structural_map(func, [(tvm.ir.Call, rewrite)]))
    mod = builder.get()
    for gv in stubs:
        del mod[gv]
    return mod
