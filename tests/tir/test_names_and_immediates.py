"""TIR names and immediates survive every form the IR takes: printed and parsed again,
and emitted as TVM IR, exactly (`sid_9` stays `sid_9`, `T.float32(0.001)` stays 0.001)."""

from __future__ import annotations

import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.dialects.builtin import ModuleOp, i32

from usmp_dialect.dialects import tir
from usmp_dialect.parsing import LocatingParser, print_module, usmp_context

_CONTEXT = usmp_context()


def _reparse(text: str) -> ModuleOp:
    return LocatingParser(_CONTEXT, text, "names.mlir").parse_module()


# Identifier-like names, most with `_<digits>` suffixes (one or several), drawn from a
# small pool so that collisions, also after xDSL would strip a suffix, are common.
_NAME = st.from_regex(r"[A-Za-z_][A-Za-z0-9]{0,3}(_[0-9]{1,2}){0,3}", fullmatch=True)
_NAMES = st.lists(_NAME, min_size=1, max_size=4).flatmap(
    lambda pool: st.lists(st.sampled_from(pool), min_size=1, max_size=8)
)


def _module(param_names: list[str], buffer_names: list[str]) -> ModuleOp:
    """`main(params...)` allocating one buffer per name, each stored to."""
    buffer_type = tir.BufferType([4], i32)
    function = tir.PrimFuncOp("main", [buffer_type] * len(param_names), param_names=param_names)
    block = function.body.block
    for name in buffer_names:
        block.add_op(tir.AllocBufferOp(buffer_type, name=name))
    return ModuleOp([function])


def _names(module: ModuleOp) -> tuple[list[str | None], list[str | None]]:
    function = next(iter(module.ops))
    assert isinstance(function, tir.PrimFuncOp)
    buffers = [
        op.buffer_name.data if op.buffer_name else None
        for op in function.walk()
        if isinstance(op, tir.AllocBufferOp)
    ]
    return function.param_names(), buffers


@settings(max_examples=60, deadline=None)
@given(params=_NAMES, buffers=_NAMES)
def test_names_survive_print_and_parse(params: list[str], buffers: list[str]) -> None:
    module = _module(params, buffers)
    text = print_module(module)
    reparsed = _reparse(text)
    assert _names(reparsed) == (params, buffers)
    assert print_module(reparsed) == text


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(params=_NAMES, buffers=_NAMES)
def test_names_survive_tvmscript_emission(params: list[str], buffers: list[str]) -> None:
    pytest.importorskip("tvm")
    from usmp_dialect.tvm.tvmscript.emitter import emit_module

    emitted = emit_module(_reparse(print_module(_module(params, buffers))))
    main = emitted["main"]
    assert [p.name for p in main.params] == params
    body = main.body.seq if hasattr(main.body, "seq") else [main.body]
    assert [s.buffer.name for s in body] == buffers


# Each dtype's immediates that a float32 or int64 in between would change.
IMMEDIATES = [
    ("float32", 0.001),
    ("float32", 1 / 3),
    ("float32", 1e-45),
    ("float32", float("inf")),
    ("float16", 0.1),
    ("float16", 65504.0),
    ("bfloat16", 0.1),
    ("float64", 0.1),
    ("int64", -(2**63)),
    ("int64", 2**63 - 1),
    ("uint64", 2**63 + 5),
    ("uint64", 2**64 - 1),
    ("uint32", 2**32 - 1),
    ("int8", -128),
    ("bool", 1),
]


def _store_module(dtype: str, value: float | int):
    """`main(a)` storing the immediate `value` of `dtype` into `a[0]`."""
    import tvm
    from tvm import tirx

    buffer = tirx.decl_buffer([2], dtype, "a")
    imm = tirx.FloatImm(dtype, value) if "float" in dtype else tirx.IntImm(dtype, value)
    store = tirx.BufferStore(buffer, imm, [tirx.IntImm("int32", 0)])
    return tvm.IRModule({"main": tirx.PrimFunc([buffer], store)}), imm


@pytest.mark.parametrize("dtype,value", IMMEDIATES, ids=str)
def test_immediate_round_trip_is_bit_exact(dtype: str, value: float | int) -> None:
    tvm_ffi = pytest.importorskip("tvm_ffi")
    from usmp_dialect.tvm.tvmscript.emitter import emit_module
    from usmp_dialect.tvm.tvmscript.importer import import_module

    original, imm = _store_module(dtype, value)
    text = print_module(import_module(original))
    emitted = emit_module(_reparse(text))
    assert tvm_ffi.structural_equal(emitted, original, map_free_vars=True)
    got = emitted["main"].body.value
    assert str(got.ty.dtype) == dtype
    if isinstance(value, float):
        assert struct.pack("<d", got.value) == struct.pack("<d", imm.value)
    else:
        assert int(got.value) == int(imm.value)
