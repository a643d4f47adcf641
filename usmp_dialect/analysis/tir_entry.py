"""The functions of a TIR module: which is the entry (the program's, which the planning
passes and the C library start from) and which call which.

TVM's rule for the entry, as its USMP read it: the function `entry=` names, else the one
with the `runner_function` attribute, else `__tvm_main__`, `main` or `run_model`. A call
of a module function is a `tir.call`, or one of the intrinsics that call a function by
name (`MODULE_CALL_INTRINSICS`), as TVM's own USMP tests call their operators.
"""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.ir import Operation, SSAValue

from usmp_dialect.analysis.call_tree import requested_entry
from usmp_dialect.diagnostics import UsmpError
from usmp_dialect.dialects import tir
from usmp_dialect.xdsl_compat import block_ops

ENTRY_ATTR = "runner_function"
ENTRY_NAMES = ("__tvm_main__", "main", "run_model")
MODULE_CALL_INTRINSICS = ("tirx.call_extern", "tirx.tvm_call_cpacked", "tirx.tvm_call_packed")
"""Intrinsics that call a function by name (their first argument): when the name is a
module function, the call is that function's, as a direct `tir.call` is."""


def prim_funcs(module: ModuleOp) -> dict[str, tir.PrimFuncOp]:
    # By exact type (`isinstance` on an op class goes through `ABCMeta`) over
    # `block_ops`: a large problem's module holds tens of thousands of ops.
    return {
        op.sym_name.data: op for op in block_ops(module.body.block) if type(op) is tir.PrimFuncOp
    }


def _is_true(attr) -> bool:
    if isinstance(attr, IntegerAttr):
        return bool(attr.value.data)
    return attr is not None


def choose_entry(
    functions: dict[str, tir.PrimFuncOp], requested: str, pass_name: str = "tir-to-usmp"
) -> tir.PrimFuncOp:
    """The option's function, else the one with `runner_function`, else `__tvm_main__`,
    `main` or `run_model` (in that order)."""
    if (chosen := find_entry(functions, requested, pass_name)) is not None:
        return chosen
    raise UsmpError(
        f"no entry function: no function has the {ENTRY_ATTR} attribute or is named "
        f"{', '.join(ENTRY_NAMES[:-1])} or {ENTRY_NAMES[-1]}; name it with "
        f"{pass_name}{{entry=NAME}}",
        next(iter(functions.values()), None),
    )


def find_entry(
    functions: dict[str, tir.PrimFuncOp], requested: str, pass_name: str
) -> tir.PrimFuncOp | None:
    """`choose_entry`'s function, or None when nothing is an entry (operators alone)."""
    if (chosen := requested_entry(functions, requested)) is not None:
        return chosen
    runners = [f for f in functions.values() if _is_true(f.attributes.get(ENTRY_ATTR))]
    if len(runners) == 1:
        return runners[0]
    if len(runners) > 1:
        names = ", ".join(f"@{f.sym_name.data}" for f in runners)
        raise UsmpError(
            f"several functions have the {ENTRY_ATTR} attribute ({names}); name the entry "
            f"with {pass_name}{{entry=NAME}}"
        )
    for name in ENTRY_NAMES:
        if name in functions:
            return functions[name]
    return None


def module_callee(
    op: Operation, functions: dict[str, tir.PrimFuncOp]
) -> tuple[str, list[SSAValue]] | None:
    """The module function a call op runs and the arguments its params receive, or None
    when the op calls nothing of the module."""
    if isinstance(op, tir.CallOp):
        name = op.callee.root_reference.data
        if name not in functions:
            raise UsmpError(f"call to unknown function @{name}", op)
        return name, list(op.args)
    if isinstance(op, tir.CallIntrinOp) and op.op_name.data in MODULE_CALL_INTRINSICS and op.args:
        owner = op.args[0].owner
        if isinstance(owner, tir.StringOp) and owner.value.data in functions:
            return owner.value.data, list(op.args[1:])
    return None


def module_calls(
    function: tir.PrimFuncOp, functions: dict[str, tir.PrimFuncOp]
) -> Iterator[tuple[Operation, str]]:
    """Each op of `function` that calls a module function, with the callee's name."""
    for op in function.walk():
        if (callee := module_callee(op, functions)) is not None:
            yield op, callee[0]


def check_entry_not_called(
    entry: tir.PrimFuncOp, functions: dict[str, tir.PrimFuncOp], because: str
) -> None:
    """Raises at the first call of the entry: a pass that rewrites the entry's signature
    would leave such a call with the wrong arguments (`because` says how)."""
    name = entry.sym_name.data
    for function in functions.values():
        for call, callee in module_calls(function, functions):
            if callee == name:
                raise UsmpError(
                    f"@{function.sym_name.data} calls the entry function @{name}, {because}",
                    call,
                )
