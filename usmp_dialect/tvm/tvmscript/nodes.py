"""The one table between TVM's TIR expression nodes and the ops that stand for them: the
TVMScript importer reads it from node to op, the emitter from op to node. No TVM here."""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from xdsl.dialects import arith
from xdsl.ir import Operation, SSAValue

from usmp_dialect.dialects import tir

BINARY_NODES: dict[str, tuple[type[Operation] | None, type[Operation] | None, type[Operation]]] = {
    "Add": (arith.AddiOp, arith.AddfOp, tir.AddOp),
    "Sub": (arith.SubiOp, arith.SubfOp, tir.SubOp),
    "Mul": (arith.MuliOp, arith.MulfOp, tir.MulOp),
    "Div": (arith.DivSIOp, arith.DivfOp, tir.DivOp),
    "Mod": (arith.RemSIOp, None, tir.ModOp),
    "FloorDiv": (arith.FloorDivSIOp, None, tir.FloorDivOp),
    "FloorMod": (None, None, tir.FloorModOp),
    "Min": (arith.MinSIOp, None, tir.MinOp),
    "Max": (arith.MaxSIOp, None, tir.MaxOp),
    "And": (arith.AndIOp, None, tir.BitwiseAndOp),
    "Or": (arith.OrIOp, None, tir.BitwiseOrOp),
    "BitwiseAnd": (arith.AndIOp, None, tir.BitwiseAndOp),
    "BitwiseOr": (arith.OrIOp, None, tir.BitwiseOrOp),
    "BitwiseXor": (arith.XOrIOp, None, tir.BitwiseXorOp),
    "LShift": (arith.ShLIOp, None, tir.ShiftLeftOp),
    "RShift": (arith.ShRSIOp, None, tir.ShiftRightOp),
}
"""Binary node -> (op for signless ints and bools, op for floats, tir op otherwise)."""

LOGICAL_NODES = {"And": "BitwiseAnd", "Or": "BitwiseOr"}
"""On bools `arith.andi`/`ori` are TIR's logical node; on integers, the bitwise one."""

COMPARE_NODES: dict[str, tuple[str, str, type[Operation]]] = {
    "EQ": ("eq", "oeq", tir.EqOp),
    "NE": ("ne", "une", tir.NeOp),
    "LT": ("slt", "olt", tir.LtOp),
    "LE": ("sle", "ole", tir.LeOp),
    "GT": ("sgt", "ogt", tir.GtOp),
    "GE": ("sge", "oge", tir.GeOp),
}
"""Comparison node -> (arith.cmpi predicate, arith.cmpf predicate, tir op). Float compares
have C's meaning: ordered, except `!=`, which holds on NaN."""

FOR_KIND_BY_TVM = dict(enumerate(tir.ForKind))
"""TVM's `ForKind` enum value -> loop kind (the enums list them in the same order)."""

# The other direction, derived so the two cannot disagree.


def binary_op(op: type[Operation], lhs: SSAValue, rhs: SSAValue) -> Operation:
    """`op` of the tables above on two operands: each of those ops is built from (lhs, rhs)."""
    return cast(Callable[[SSAValue, SSAValue], Operation], op)(lhs, rhs)


_LOGICAL_OPS = {BINARY_NODES[node][0] for node in LOGICAL_NODES}
NODE_OF_OP: dict[type[Operation], str] = {
    op: node
    for node, ops in BINARY_NODES.items()
    if node not in LOGICAL_NODES
    for op in ops
    if op is not None and op not in _LOGICAL_OPS
} | {tir_op: node for node, (_, _, tir_op) in COMPARE_NODES.items()}
"""Op -> binary or comparison node, for every op but `arith.andi`/`ori` (LOGICAL_NODE_OF_OP)."""
LOGICAL_NODE_OF_OP = {
    BINARY_NODES[logical][0]: (logical, bitwise) for logical, bitwise in LOGICAL_NODES.items()
}
"""`arith.andi`/`ori` -> (node on bools, node on integers)."""
NODE_OF_CMPI = {cmpi: node for node, (cmpi, _, _) in COMPARE_NODES.items()}
NODE_OF_CMPF = {cmpf: node for node, (_, cmpf, _) in COMPARE_NODES.items()}
TVM_OF_FOR_KIND = {kind: index for index, kind in FOR_KIND_BY_TVM.items()}
