"""Constants' bytes survive printing and parsing exactly, whatever their dtype and shape,
and land in the constant pool's file as they were."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from xdsl.dialects.builtin import DenseResourceAttr, ModuleOp

from usmp_dialect.diagnostics import LocatedError
from usmp_dialect.dialects import tir
from usmp_dialect.dialects.usmp import CONSTANT_VALUES_ATTR
from usmp_dialect.formats.constant_pool import set_constant_values
from usmp_dialect.formats.resources import blobs_of
from usmp_dialect.parsing import parse_module, print_module

_DTYPES = st.sampled_from(["float32", "float16", "int8", "uint8", "int32", "int64", "bool"])


def _entry() -> tuple[ModuleOp, tir.PrimFuncOp]:
    text = "tir.prim_func @main() {\n  %c = tir.const 1 : i32\n}\n"
    module = parse_module(text, "entry.mlir")
    (entry,) = (op for op in module.ops if isinstance(op, tir.PrimFuncOp))
    return module, entry


@settings(max_examples=30, deadline=None)
@given(
    st.dictionaries(
        st.from_regex(r"[a-z][a-z0-9_.-]{0,8}", fullmatch=True),
        _DTYPES.flatmap(lambda d: hnp.arrays(d, hnp.array_shapes(min_dims=0, max_side=5))),
        min_size=1,
        max_size=4,
    )
)
def test_constants_round_trip_through_the_resources_section(arrays):
    module, entry = _entry()
    set_constant_values(module, entry, arrays)
    parsed = parse_module(print_module(module), "printed.mlir")
    (entry,) = (op for op in parsed.ops if isinstance(op, tir.PrimFuncOp))
    values = entry.attributes[CONSTANT_VALUES_ATTR].data
    assert list(values) == list(arrays)
    for name, array in arrays.items():
        value = values[name]
        assert isinstance(value, DenseResourceAttr)
        stored = blobs_of(parsed).view(value.resource_handle.data)
        assert (
            bytes(stored)
            == np.ascontiguousarray(array).astype(array.dtype.newbyteorder("<")).tobytes()
        )
    assert print_module(parsed) == print_module(module)


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=0, max_value=3), st.data())
def test_a_bad_digit_is_located_in_any_blob(bad_blob, data):
    """Found after the blobs before it were decoded over the text (bytes of newlines,
    here), where it was written."""
    module, entry = _entry()
    arrays = {f"w{i}": np.full(64 * (i + 1), ord("\n"), dtype=np.uint8) for i in range(4)}
    set_constant_values(module, entry, arrays)
    text = print_module(module)
    digits_start = text.index(f'w{bad_blob}: "0x') + len(f'w{bad_blob}: "0x')
    digits_end = text.index('"', digits_start)
    where = data.draw(st.integers(min_value=digits_start, max_value=digits_end - 1))
    character = data.draw(st.sampled_from("xg -"))
    broken = text[:where] + character + text[where + 1 :]
    line = broken.count("\n", 0, where) + 1
    column = where - broken.rfind("\n", 0, where)
    with pytest.raises(LocatedError) as error:
        # A bytearray, as the tools read a file: the blobs are decoded into its front.
        parse_module(bytearray(broken.encode()), "broken.mlir")
    assert error.value.location == f"broken.mlir:{line}:{column}"
    assert f"{character!r} is not a hex digit" in error.value.message
