"""A pool past 2**31 bytes builds (issue 19): usmp-to-tir gives the pool buffer and every
offset into it an int64 index, which TVM requires of a literal past int32; the pool need
not be allocated to compile the module."""

from __future__ import annotations

import pytest

pytest.importorskip("tvm")
pytestmark = pytest.mark.tvm

from usmp_dialect.backends.tvmscript import emit_tvmscript  # noqa: E402
from usmp_dialect.frontends.tvmscript import import_module, parse_tvmscript  # noqa: E402
from usmp_dialect.pipeline import plan_pools  # noqa: E402
from usmp_dialect.tvm_runtime import POOLS_ATTR, build, entry_name  # noqa: E402

# Two operators chained through `sid`, each buffer 4 GiB less 4 bytes (int32-indexed), an
# operator's workspace live with `sid`: the pool holds two.
GIB_CHAIN = """
from tvm.script import ir as I
from tvm.script import tirx as T


@I.ir_module
class Module:
    @T.prim_func(private=True)
    def op(a: T.handle, b: T.handle):
        A = T.decl_buffer((1073741823,), "float32", data=a)
        B = T.decl_buffer((1073741823,), "float32", data=b)
        work = T.alloc_buffer((1073741823,), "float32")
        for i in range(4):
            work[i] = A[i] * T.float32(2)
        for i in range(4):
            B[i] = work[i]

    @T.prim_func
    def __tvm_main__(input: T.handle, output: T.handle):
        x = T.decl_buffer((1073741823,), "float32", data=input)
        y = T.decl_buffer((1073741823,), "float32", data=output)
        sid = T.alloc_buffer((1073741823,), "float32")
        Module.op(x.data, sid.data)
        Module.op(sid.data, y.data)
"""


@pytest.mark.slow
@pytest.mark.parametrize("target", ["c", "llvm"])
def test_a_pool_past_2_gib_builds_from_its_tvmscript(target):
    module = import_module(parse_tvmscript(GIB_CHAIN, "gib_chain.py"))
    plan_pools(module)
    planned = parse_tvmscript(emit_tvmscript(module), "planned.py")
    entry = planned[entry_name(planned)]
    assert {k: int(v) for k, v in entry.attrs[POOLS_ATTR].items()} == {
        "global_workspace": 2 * 4 * 1073741823 + 4
    }
    assert build(planned, target) is not None
