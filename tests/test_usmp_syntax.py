"""`usmp.alloc_offset` reads its common form with one regular expression and writes it as
one string, and falls back to its assembly format for anything else: both paths must build
the same op from the same text, and print it back as it was written."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import IntegerAttr, i64
from xdsl.ir import OpTrait
from xdsl.traits import MemoryAllocEffect
from xdsl.utils.exceptions import VerifyException

from usmp_dialect.dialects.usmp import (
    AllocOffsetOp,
    PlacedInModulePools,
    print_alloc_offset_with_format,
)
from usmp_dialect.dialects.usmp_syntax import i64_attr
from usmp_dialect.parsing import parse_module, print_module

POOLS = 'usmp.pool @sram workspace alignment 1\nusmp.pool @"x y" workspace alignment 1\n'

ALLOCS = [
    '%0 = usmp.alloc_offset "a" @sram[?] align 32 : memref<16xf32>',
    '%0 = usmp.alloc_offset "a" @sram[48] align 16 : memref<2x4xi32>',
    '%0 = usmp.alloc_offset "a" [][?] align 1 : memref<i8>',
    '%0 = usmp.alloc_offset "a" @sram[?] align 1 : memref<0x16xi8>',
    '%0 = usmp.alloc_offset "a" @sram[?] align 1 : memref<3xindex>',
    '%0 = usmp.alloc_offset "a" @sram[?] align 1 : memref<3xbf16>',
    '%0 = usmp.alloc_offset "a" @sram[999999999999999999] align 1 : memref<1xi1>',
    '%0 = usmp.alloc_offset "a" @sram[?] align 1 live [0, 5) : memref<16xf32>',
    '%0 = usmp.alloc_offset "a" @sram[?] align 1 live [0, 5) [7, 9) : memref<16xf32>',
    '%0 = usmp.alloc_offset "a" @sram[?] align 1 live [0, 1000000000000000000) : memref<1xi8>',
    # The general path: quoted pools, several pools, other types, attributes, escapes.
    '%0 = usmp.alloc_offset "a" @"x y"[?] align 1 : memref<8xi8>',
    '%0 = usmp.alloc_offset "a" [@sram, @"x y"][?] align 1 : memref<8xi8>',
    '%0 = usmp.alloc_offset "a" @sram[?] align 1 : memref<8xsi8>',
    '%0 = usmp.alloc_offset "a" @sram[?] align 1 : memref<8xi8, 1 : i64>',
    '%0 = usmp.alloc_offset "a" @sram[?] align 1 {note = "n"} : memref<8xi8>',
    '%0 = usmp.alloc_offset "a" @sram[?] align 1 live [1, 2) {note = "n"} : memref<8xi8>',
    '%0 = usmp.alloc_offset "a" @sram[?] align 1 live [1, 2) : memref<8xsi8>',
    '%0 = usmp.alloc_offset "b\\C3\\BCffer \\22q\\22" @sram[?] align 1 : memref<8xi8>',
]


def _both_ways(text: str, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str, str]:
    """The module printed in the custom and the generic form, and the generic form
    when only the assembly format reads it (the custom form as well, checked equal when
    only the format prints it)."""
    module = parse_module(text, "test.mlir")
    custom = print_module(module)
    generic = _generic(module)
    with monkeypatch.context() as patch:
        patch.setattr(AllocOffsetOp, "parse_plain", classmethod(lambda cls, parser, at: None))
        general = _generic(parse_module(text, "test.mlir"))
        patch.setattr(AllocOffsetOp, "print", print_alloc_offset_with_format)
        assert print_module(module) == custom
    return custom, generic, general


def _generic(module) -> str:
    from io import StringIO

    from xdsl.printer import Printer

    output = StringIO()
    Printer(stream=output, print_generic_format=True).print_op(module)
    return output.getvalue()


@pytest.mark.parametrize("alloc", ALLOCS)
def test_alloc_offset_reads_the_same_op_either_way(alloc, monkeypatch):
    text = f"builtin.module {{\n  {POOLS.replace(chr(10), chr(10) + '  ')}{alloc}\n}}\n"
    custom, generic, general = _both_ways(text, monkeypatch)
    assert generic == general
    assert alloc in custom


def test_conflicts_read_the_same_op_either_way(monkeypatch):
    text = (
        "builtin.module {\n  usmp.pool @sram workspace alignment 1\n"
        '  %a = usmp.alloc_offset "a" @sram[?] align 1 live [0, 1) : memref<1xi8>\n'
        '  %b = usmp.alloc_offset "b" @sram[?] align 1 live [3, 8) conflicts(%a) : memref<1xi8>\n'
        "  usmp.liveness\n}\n"
    )
    custom, generic, general = _both_ways(text, monkeypatch)
    assert generic == general
    assert custom == text


def test_the_fast_verifier_skips_only_what_irdl_would_accept() -> None:
    """`usmp.alloc_offset` skips IRDL's generic checks when `has_plain_shape` holds: that
    stays sound only while its traits are those it runs itself (the symbol-user check of
    its pools) or that check nothing (its memory effect), its result takes any type, and
    every op of a plain shape passes those checks."""
    op_def = AllocOffsetOp.get_irdl_definition()
    assert {type(trait) for trait in op_def.traits} == {MemoryAllocEffect, PlacedInModulePools}
    assert MemoryAllocEffect.verify is OpTrait.verify
    assert [name for name, _ in op_def.results] == ["buffer"]
    module = parse_module(
        POOLS + "\n".join(a.replace("%0", f"%v{i}") for i, a in enumerate(ALLOCS)), "test.mlir"
    )
    ops = [op for op in module.ops if isinstance(op, AllocOffsetOp)]
    assert len(ops) == len(ALLOCS) and all(op.has_plain_shape() for op in ops)
    for op in ops:
        op_def.verify(op)


@pytest.mark.parametrize("value", [0, 48, -1, 2**63 - 1, -(2**63), 2**63, 2**64 - 1])
def test_i64_attr_is_the_verified_attribute(value: int) -> None:
    """Offsets written without IRDL's attribute verification are the attribute the
    verified constructor builds, a value past the signed range normalised as it does."""
    fast, verified = i64_attr(value), IntegerAttr(value, i64)
    assert fast == verified and hash(fast) == hash(verified)
    assert fast.value.data == verified.value.data and fast.type == i64


@pytest.mark.parametrize("value", [2**64, -(2**63) - 1])
def test_i64_attr_rejects_what_the_verified_attribute_rejects(value: int) -> None:
    with pytest.raises(VerifyException):
        i64_attr(value)
