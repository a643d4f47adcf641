"""docs/models.md's table of builtin operators against TFLM (`tools/operator_table.py`):
a few of its rows, run again as the tool runs them (the one-operator file imported,
planned with its inputs and outputs in the workspace, its C library built and run, its
outputs compared with TFLM's interpreter's), give the result the table says. A change
that breaks an operator the table calls exact shows here; so does a table left stale."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

tvm = pytest.importorskip("tvm")
pytest.importorskip("tflite")
pytestmark = pytest.mark.tvm

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

from builtin_tflite import CASES  # noqa: E402
from operator_table import EXACT, REFUSED, run_case  # noqa: E402

# One row of each kind of converter: ours in integers (a convolution, an activation
# requantized, one clamped, sums scaled as ADD scales, a table looked up), TVM's moving
# stored int8 values, TVM's float32 with the index type corrected, TFLM's 16x8 convolution.
ROWS = [
    ("CONV_2D", "int8"),
    ("LEAKY_RELU", "int16"),
    ("RELU6", "int8"),
    ("ADD_N", "int8"),
    ("CUMSUM", "int8"),
    ("ELU", "int8"),
    ("TRANSPOSE", "int8"),
    ("ARG_MAX", "float32"),
    ("CONV_2D", "int16"),
]


def _table() -> dict[tuple[str, str], tuple[str, str]]:
    """docs/models.md's rows: (operator, type) -> (result, detail)."""
    text = (ROOT / "docs" / "models.md").read_text(encoding="utf-8")
    section = text.partition("## Builtin operators against TFLM")[2]
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if line.startswith("| ") and len(cells) == 4:
            rows[(cells[0], cells[1])] = (cells[2], cells[3].replace("\\|", "|"))
    return rows


def test_the_table_has_a_row_for_every_case() -> None:
    assert set(CASES) <= set(_table())


@pytest.mark.parametrize("key", ROWS, ids="-".join)
def test_row_gives_the_tables_result(key: tuple[str, str]) -> None:
    pytest.importorskip("tflite_micro")
    expected, detail = _table()[key]
    row = run_case(CASES[key])
    assert (row.result, row.detail if row.result in (EXACT, REFUSED) else "") == (
        expected,
        detail if expected in (EXACT, REFUSED) else "",
    )
