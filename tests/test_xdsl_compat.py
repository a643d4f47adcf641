"""Each xDSL workaround of `usmp_dialect.xdsl_compat` is still needed: every test here pins
the xDSL 0.75 behaviour a workaround exists for, and fails once xDSL changes it (then the
workaround, and its test, go). And nothing else in the package reaches into xDSL."""

from __future__ import annotations

import ast
import re
import struct
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
import xdsl
from hypothesis import given
from hypothesis import strategies as st
from xdsl.context import Context
from xdsl.dialect_interfaces.op_asm import OpAsmDialectInterface
from xdsl.dialects.builtin import (
    Builtin,
    BytesAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    IntegerAttr,
    IntegerType,
    i64,
)
from xdsl.dialects.func import Func
from xdsl.ir import Operation
from xdsl.parser import Parser
from xdsl.utils.lexer import Input
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRTokenKind

from usmp_dialect import xdsl_compat
from usmp_dialect.parsing import MAX_INTEGER_WIDTH

PACKAGE = Path(xdsl_compat.__file__).parent
NAMED_TUPLE_API = {"_replace", "_asdict", "_fields", "_make"}
"""Public despite the underscore: Python's `NamedTuple` methods."""


def test_the_checked_version_is_installed() -> None:
    assert str(xdsl.__version__).startswith(xdsl_compat.XDSL_VERSION_CHECKED)


def test_stock_string_regex_nests_repetitions() -> None:
    # `(?:[^"...]+|...)*`: a repetition inside a repetition, which backtracks
    # exponentially on an unclosed string.
    assert re.search(r"\(\?:\[[^\]]*\]\+\|", xdsl_compat.STOCK_STRING_LITERAL_REGEX.pattern)


def test_stock_lexer_reads_an_escaped_utf8_string_as_bytes(monkeypatch) -> None:
    monkeypatch.setattr(
        MLIRLexer, "_unescaped_characters_regex", xdsl_compat.STOCK_STRING_LITERAL_REGEX
    )
    lexer = MLIRLexer(Input('"b\\C3\\BCffer"', "test.mlir"))
    token = xdsl_compat.stock_lex_string_literal(lexer, 0)
    assert token.kind is MLIRTokenKind.BYTES_LIT


def _dense_f32(text: str) -> float:
    ctx = Context()
    ctx.load_dialect(Builtin)
    attr = Parser(ctx, text).parse_attribute()
    assert isinstance(attr, DenseIntOrFPElementsAttr)
    return attr.get_values()[0]


def test_stock_parser_reads_the_bits_of_a_float_as_an_integer(monkeypatch) -> None:
    text = "dense<0x4E96B43F> : tensor<1xf32>"
    patched = _dense_f32(text)
    monkeypatch.setattr(
        xdsl_compat.TensorLiteralElement, "to_type", xdsl_compat.stock_element_to_type
    )
    assert _dense_f32(text) != patched
    assert patched == struct.unpack("<f", struct.pack("<I", 0x4E96B43F))[0]


@pytest.mark.parametrize(
    "public", ["resume_from", "current_token", "dialect_stack", "register_ssa_definition"]
)
def test_parser_has_no_public_way(public: str) -> None:
    assert not hasattr(Parser, public)


@pytest.mark.parametrize("link", ["next_op", "operands", "successors"])
def test_op_links_are_properties(link: str) -> None:
    # A property is a call per access: the fast paths read the private fields behind them.
    assert isinstance(Operation.__dict__[link], property)


def test_integer_attr_verifies_on_construction(monkeypatch) -> None:
    verified: list[IntegerAttr] = []

    def record(attr: IntegerAttr) -> None:
        verified.append(attr)

    monkeypatch.setattr(IntegerAttr, "verify", record)
    IntegerAttr(48, i64)
    assert verified
    assert xdsl_compat.unverified_i64_attr(48) == IntegerAttr(48, i64)


def test_dense_array_verifies_on_construction(monkeypatch) -> None:
    verified: list[DenseArrayBase] = []

    def record(attr: DenseArrayBase) -> None:
        verified.append(attr)

    monkeypatch.setattr(DenseArrayBase, "verify", record)
    data = np.array([3, 8], dtype="<i8").tobytes()
    built = DenseArrayBase(i64, BytesAttr(data))
    assert verified
    fast = xdsl_compat.unverified_i64_array(data)
    assert fast == built and hash(fast) == hash(built)


def _xdsl_private_names() -> set[str]:
    names: set[str] = set()
    for path in Path(xdsl.__file__).parent.rglob("*.py"):
        names.update(
            re.findall(r"(?:def |class |self\.)(_[a-z_A-Z][A-Za-z0-9_]*)", path.read_text())
        )
    return {n for n in names if not n.startswith("__")} - NAMED_TUPLE_API


def _own_names(trees: dict[Path, ast.Module]) -> set[str]:
    own: set[str] = set()
    for tree in trees.values():
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.ClassDef):
                own.add(node.name)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                own.add(node.attr)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                own.add(node.target.id)
    return own


def _methods(tree: ast.Module) -> Iterator[ast.FunctionDef]:
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            yield from (f for f in node.body if isinstance(f, ast.FunctionDef))


def test_only_the_compat_module_reads_private_members_of_xdsl() -> None:
    trees = {path: ast.parse(path.read_text()) for path in PACKAGE.rglob("*.py")}
    outside = {path: tree for path, tree in trees.items() if path.name != "xdsl_compat.py"}
    xdsl_private = _xdsl_private_names()
    private = xdsl_private - _own_names(outside)
    found = sorted(
        f"{path.relative_to(PACKAGE)}:{node.lineno} {node.attr}"
        for path, tree in outside.items()
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and node.attr in private
    )
    # A method named as one of xDSL's private ones overrides it (as `LocatingParser` did).
    overriding = sorted(
        f"{path.relative_to(PACKAGE)}:{method.lineno} def {method.name}"
        for path, tree in outside.items()
        for method in _methods(tree)
        if method.name in xdsl_private
    )
    assert found + overriding == []


@pytest.mark.parametrize(
    "hooked",
    [
        "_parse_generic_operation",
        "_parse_optional_integer_or_float_type",
        "_parse_dense_literal_type",
        "_parse_builtin_densearray_attr",
        "_parse_builtin_dense_resource_attr",
    ],
)
def test_the_hooked_parser_methods_are_xdsls(hooked: str) -> None:
    # A private method renamed by xDSL would leave its hook silently never called.
    assert hooked in Parser.__dict__ or any(hooked in c.__dict__ for c in Parser.__mro__[1:])
    assert not hasattr(Parser, hooked.removeprefix("_"))


def _stock_parser(text: str) -> Parser:
    ctx = Context()
    ctx.load_dialect(Builtin)
    ctx.load_dialect(Func)
    return Parser(ctx, text)


def test_stock_parser_leaves_generic_properties_unchecked() -> None:
    # `generic_operation_parsed` checks them (the type of `function_type` here).
    op = _stock_parser(
        '"func.func"() <{sym_name = "f", function_type = 3 : i64}> ({}) : () -> ()'
    ).parse_operation()
    assert isinstance(op.properties["function_type"], IntegerAttr)


def test_stock_parser_takes_any_integer_width() -> None:
    # `integer_or_float_type_parsed` keeps MLIR's limit.
    too_wide = MAX_INTEGER_WIDTH + 1
    assert _stock_parser(f"i{too_wide}").parse_type() == IntegerType(too_wide)


def test_stock_parser_cannot_hold_elements_past_64_bits() -> None:
    # `dense_elements_read` turns this into a located diagnostic.
    with pytest.raises(NotImplementedError):
        _stock_parser("array<i128: 1>").parse_attribute()


def test_stock_parser_declares_resource_handles_process_wide() -> None:
    # `parse_dense_resource_attr` keeps a file's handles with that file.
    attr = _stock_parser("dense_resource<only_in_this_test> : tensor<1xi8>").parse_attribute()
    assert isinstance(attr, DenseResourceAttr)
    builtin = Context()
    builtin.load_dialect(Builtin)
    interface = builtin.get_dialect("builtin").get_interface(OpAsmDialectInterface)
    assert interface is not None
    assert interface.lookup("only_in_this_test") is not None


def test_disable_verify_turns_attribute_verification_off_process_wide(tmp_path) -> None:
    # What `attribute_verification_kept` undoes: once xDSL stops doing it, drop the helper.
    from xdsl.ir import Attribute
    from xdsl.xdsl_opt_main import xDSLOptMain

    empty = tmp_path / "empty.mlir"
    empty.write_text("builtin.module {}\n")
    kept = Attribute.__dict__["__post_init__"]
    with xdsl_compat.attribute_verification_kept():
        xDSLOptMain(args=[str(empty), "--disable-verify"])
        assert Attribute.__dict__["__post_init__"] is not kept
    assert Attribute.__dict__["__post_init__"] is kept


def test_xdsl_refuses_an_assembly_format_beside_a_parser_of_its_own() -> None:
    """`put_in_front_of_format`: the fast paths of `usmp.alloc_offset` cannot be its
    `parse` and `print` while it declares an `assembly_format`."""
    from xdsl.dialects.builtin import StringAttr
    from xdsl.irdl import IRDLOperation, irdl_op_definition, prop_def
    from xdsl.utils.exceptions import PyRDLOpDefinitionError

    with pytest.raises(PyRDLOpDefinitionError, match="Cannot define both an assembly format"):

        @irdl_op_definition
        class FastParsed(IRDLOperation):
            name = "compat.fast_parsed"
            label = prop_def(StringAttr)
            assembly_format = "$label attr-dict"

            @classmethod
            def parse(cls, parser: Parser) -> FastParsed:
                raise NotImplementedError


def _test_ops_block(count: int):
    from xdsl.dialects.test import TestOp
    from xdsl.ir import Block

    ops = [TestOp() for _ in range(count)]
    return Block(ops), ops


def test_stock_is_before_in_block_walks_the_ops_between(monkeypatch) -> None:
    # `is_before_in_block` numbers a block's ops once: the stock walk made the conflicts'
    # order check quadratic.
    _, ops = _test_ops_block(40)
    stock_next_op = Operation.__dict__["next_op"]
    steps: list[Operation] = []

    def counted_next_op(op: Operation) -> Operation | None:
        steps.append(op)
        return stock_next_op.fget(op)

    monkeypatch.setattr(Operation, "next_op", property(counted_next_op))
    assert ops[0].is_before_in_block(ops[-1])
    assert len(steps) >= len(ops) - 1


@given(moves=st.lists(st.tuples(st.integers(0, 7), st.integers(0, 7), st.booleans()), max_size=12))
def test_is_before_in_block_orders_ops_after_moves_and_erasures(moves) -> None:
    block, ops = _test_ops_block(8)
    other_block, _ = _test_ops_block(1)
    for moved, target, erase in moves:
        op, before = ops[moved], ops[target]
        if op is before or op.parent is not block:
            continue
        block.detach_op(op)
        if erase:
            other_block.add_op(op)
        elif before.parent is block:
            block.insert_op_before(op, before)
        for a in ops:
            for b in ops:
                assert xdsl_compat.is_before_in_block(a, b) == a.is_before_in_block(b)
