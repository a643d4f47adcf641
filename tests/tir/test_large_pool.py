"""A pool past 2**31 bytes builds (issue 19): usmp-to-tir gives the pool buffer and every
offset into it an int64 index, which TVM requires of a literal past int32; the pool need
not be allocated to compile the module."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("tvm")
pytestmark = pytest.mark.tvm

from usmp_dialect.pipeline import plan_pools  # noqa: E402
from usmp_dialect.tvm.tvmscript.emitter import emit_tvmscript  # noqa: E402
from usmp_dialect.tvm.tvmscript.importer import import_module, parse_tvmscript  # noqa: E402
from usmp_dialect.tvm.tvmscript.run import POOLS_ATTR, build, entry_name  # noqa: E402

CHAIN = Path(__file__).parents[1] / "filecheck" / "inputs" / "tir" / "chain_direct_call.py"


def gib_chain() -> str:
    """Two operators chained through `sid`, as in chain_direct_call.py, but each buffer 4 GiB
    less 4 bytes (still int32-indexed): `sid` and an operator's workspace live together, so
    the pool holds two of them."""
    text = CHAIN.read_text().replace("(16,)", "(1073741823,)")
    return text.replace("range(16)", "range(4)")


@pytest.mark.slow
@pytest.mark.parametrize("target", ["c", "llvm"])
def test_a_pool_past_2_gib_builds_from_its_tvmscript(target):
    module = import_module(parse_tvmscript(gib_chain(), "gib_chain.py"))
    plan_pools(module)
    planned = parse_tvmscript(emit_tvmscript(module), "planned.py")
    entry = planned[entry_name(planned)]
    assert {k: int(v) for k, v in entry.attrs[POOLS_ATTR].items()} == {
        "global_workspace": 2 * 4 * 1073741823 + 4
    }
    assert build(planned, target) is not None
