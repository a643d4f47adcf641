"""An op that does not verify yet still prints (a message, a debugger, a pass's dump show
it): a `tir.for` without its body block prints its generic parts, not a traceback."""

from __future__ import annotations

from xdsl.dialects.builtin import i32
from xdsl.ir import Block, Region

from usmp_dialect.dialects import tir
from usmp_dialect.parsing import LocatingParser, usmp_context

EMPTY_LOOP = """\
"tir.prim_func"() <{sym_name = "f", function_type = () -> ()}> ({
  %0 = "arith.constant"() <{value = 0 : i32}> : () -> i32
  "tir.for"(%0, %0) <{kind = #tir<for_kind serial>, annotations = {}}> ({
  }) : (i32, i32) -> ()
}) : () -> ()
"""


def test_a_loop_without_a_body_block_prints() -> None:
    module = LocatingParser(usmp_context(), EMPTY_LOOP, "empty.mlir").parse_module()
    assert "tir.for(%0, %0) <{kind = #tir<for_kind serial>, annotations = {}}> ({\n" in str(module)


def test_a_loop_built_without_its_loop_var_prints() -> None:
    start = tir.ConstOp(0, i32)
    for body in (Region(), Region([Block(), Block()])):
        loop = tir.ForOp(start.result, start.result, body=body)
        assert str(loop).startswith("tir.for(")
