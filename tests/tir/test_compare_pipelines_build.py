"""`tools/compare_pipelines.py --check`: every preset's result, built and run with TVM,
computes what the un-planned module computes."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("tvm")
pytestmark = pytest.mark.tvm

from tools.compare_pipelines import main  # noqa: E402

DIAMOND = Path(__file__).parents[2] / "examples" / "pass_ordering" / "diamond.py"


def test_every_preset_computes_the_same_output(capsys) -> None:
    assert main([str(DIAMOND), "--check", "--algorithm", "first_fit"]) == 0
    header, *rows = capsys.readouterr().out.splitlines()
    assert header.split()[-2:] == ["same", "output"]
    assert [row.split()[0] for row in rows] == ["tvm-usmp", "hoisted", "io-in-pool"]
    assert all(row.split()[-1] == "yes" for row in rows)
