"""`tools/compare_pipelines.py` on a Relax model: the `no-fusion` preset plans the model
imported again without TVM's fusion, beside the presets that plan its fused lowering."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("tvm")
pytestmark = pytest.mark.tvm

from tools.compare_pipelines import main  # noqa: E402

MLP = Path(__file__).parents[2] / "examples" / "models" / "mlp.py"


def test_no_fusion_plans_one_buffer_per_relax_op(tmp_path, capsys) -> None:
    argv = [f"{MLP}:mlp", "--algorithm", "greedy_by_size", "-p", "tvm-usmp", "-p", "no-fusion"]
    assert main([*argv, "--svg", str(tmp_path)]) == 0
    rows = [row.split() for row in capsys.readouterr().out.splitlines()[1:]]
    assert [row[0] for row in rows] == ["tvm-usmp", "no-fusion"]
    fused, unfused = (
        set(re.findall(r"<title>(\w+)", section))
        for section in (tmp_path / "plans.html").read_text().split("<section>")[1:]
    )
    # Fused, each matmul, bias add and ReLU are one operator whose output keeps the ReLU's
    # name; unfused, the bias add's output is a buffer of its own too.
    assert {"relu", "relu1"} <= fused and not any(name.startswith("add") for name in fused)
    assert {"add_", "add1_", "relu_", "relu1"} <= unfused
