"""Planned programs compute what the originals compute, run in xDSL's interpreter with
their pools prefilled with garbage, so a buffer planned onto live bytes cannot hide."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.dialects.builtin import ModuleOp, i8
from xdsl.interpreter import Interpreter
from xdsl.interpreters import register_implementations
from xdsl.interpreters.shaped_array import ShapedArray
from xdsl.interpreters.utils.ptr import RawPtr, TypedPtr
from xdsl.traits import SymbolTable

from usmp_dialect.interpreters.memref_view import MemRefViewFunctions
from usmp_dialect.parsing import parse_module, usmp_context
from usmp_dialect.pipeline import plan_pools, plan_pools_pipeline
from usmp_dialect.planning.registry import available_algorithms
from usmp_dialect.transforms.usmp_to_memref import POOL_ARG_ATTR

EXAMPLE = Path(__file__).parent.parent / "examples" / "memref" / "chain.mlir"
ALGORITHMS = available_algorithms()
GARBAGE = 0xFF


def float_array(values: np.ndarray) -> ShapedArray:
    return ShapedArray(TypedPtr.new_float32(values.tolist()), list(values.shape))


def garbage_pool(size: int) -> ShapedArray:
    return ShapedArray(
        TypedPtr(RawPtr(bytearray([GARBAGE] * size)), xtype=i8),
        [size],
    )


def plan(module: ModuleOp, algorithm: str) -> ModuleOp:
    planned = module.clone()
    plan_pools(planned, plan_pools_pipeline(algorithm))
    return planned


def run_main(module: ModuleOp, inputs: list[np.ndarray], output_shape: tuple[int, ...]):
    """Runs @main(inputs..., output, pools...) and returns the output as numpy."""
    interpreter = Interpreter(module)
    register_implementations(interpreter, usmp_context())
    interpreter.register_implementations(MemRefViewFunctions())
    main = SymbolTable.lookup_symbol(module, "main")
    output = float_array(np.zeros(output_shape, dtype=np.float32))
    pools = []
    arg_attrs = main.arg_attrs.data if main.arg_attrs is not None else []
    for index, attrs in enumerate(arg_attrs):
        if POOL_ARG_ATTR in attrs.data:
            pools.append(garbage_pool(main.function_type.inputs.data[index].get_shape()[0]))
    interpreter.call_op("main", (*map(float_array, inputs), output, *pools))
    return np.array(output.data, dtype=np.float32).reshape(output_shape)


def chain_reference(x: np.ndarray) -> np.ndarray:
    def reverse_scale(v):
        return v[::-1] * 2

    return reverse_scale(reverse_scale(x + x) + x)


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_example_chain_computes_the_same_after_planning(algorithm: str):
    module = parse_module(EXAMPLE.read_text(), str(EXAMPLE))
    x = np.arange(64, dtype=np.float32) - 20.5
    before = run_main(module, [x], (64,))
    after = run_main(plan(module, algorithm), [x], (64,))
    np.testing.assert_array_equal(before, chain_reference(x))
    np.testing.assert_array_equal(after, before)


UNARY = {
    "double": ("arith.addf %v, %v", lambda v: v + v),
    "square": ("arith.mulf %v, %v", lambda v: v * v),
}


def chain_program(ops: list[str], keep: list[int], n: int) -> str:
    """@main applies the unary ops in sequence, each into a fresh buffer; buffer `k` of
    `keep` is also added into the output at the end, so it must survive until then."""
    lines = [
        f"func.func private @{name}(%in: memref<{n}xf32>, %out: memref<{n}xf32>) {{\n"
        "  %c0 = arith.constant 0 : index\n"
        f"  %cn = arith.constant {n} : index\n"
        "  %c1 = arith.constant 1 : index\n"
        "  scf.for %i = %c0 to %cn step %c1 {\n"
        f"    %v = memref.load %in[%i] : memref<{n}xf32>\n"
        f"    %r = {expression} : f32\n"
        f"    memref.store %r, %out[%i] : memref<{n}xf32>\n"
        "  }\n"
        "  func.return\n"
        "}"
        for name, (expression, _) in UNARY.items()
    ]
    lines.append(
        f"func.func private @accumulate(%in: memref<{n}xf32>, %out: memref<{n}xf32>) {{\n"
        "  %c0 = arith.constant 0 : index\n"
        f"  %cn = arith.constant {n} : index\n"
        "  %c1 = arith.constant 1 : index\n"
        "  scf.for %i = %c0 to %cn step %c1 {\n"
        f"    %v = memref.load %in[%i] : memref<{n}xf32>\n"
        f"    %o = memref.load %out[%i] : memref<{n}xf32>\n"
        "    %r = arith.addf %v, %o : f32\n"
        f"    memref.store %r, %out[%i] : memref<{n}xf32>\n"
        "  }\n"
        "  func.return\n"
        "}"
    )
    t = f"memref<{n}xf32>"
    body = [f"func.func @main(%x: {t}, %y: {t}) {{", "  %b0 = memref.alloc() : " + t]
    body.append(f"  func.call @double(%x, %b0) : ({t}, {t}) -> ()")
    for k, name in enumerate(ops, start=1):
        body.append(f"  %b{k} = memref.alloc() : {t}")
        body.append(f"  func.call @{name}(%b{k - 1}, %b{k}) : ({t}, {t}) -> ()")
    body.append(f"  func.call @double(%b{len(ops)}, %y) : ({t}, {t}) -> ()")
    body.extend(f"  func.call @accumulate(%b{k}, %y) : ({t}, {t}) -> ()" for k in keep)
    body += ["  func.return", "}"]
    return "\n".join(lines + body) + "\n"


def chain_expected(ops: list[str], keep: list[int], x: np.ndarray) -> np.ndarray:
    buffers = [x + x]
    for name in ops:
        buffers.append(UNARY[name][1](buffers[-1]))
    y = buffers[-1] + buffers[-1]
    for k in keep:
        y = y + buffers[k]
    return y


@settings(max_examples=12, deadline=None)
@given(
    ops=st.lists(st.sampled_from(sorted(UNARY)), min_size=1, max_size=5),
    keep_seed=st.lists(st.integers(0, 5), max_size=3),
    algorithm=st.sampled_from(ALGORITHMS),
)
def test_random_operator_chains_compute_the_same_after_planning(ops, keep_seed, algorithm):
    n = 4
    keep = sorted({k % (len(ops) + 1) for k in keep_seed})
    module = parse_module(chain_program(ops, keep, n), "chain.mlir")
    x = np.array([0.5, -0.75, 1.25, 1.0], dtype=np.float32)
    after = run_main(plan(module, algorithm), [x], (n,))
    np.testing.assert_allclose(after, chain_expected(ops, keep, x), rtol=1e-6)
