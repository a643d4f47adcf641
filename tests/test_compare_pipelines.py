"""`tools/compare_pipelines.py`: one table row a pipeline, each run from the same input."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from tools.compare_pipelines import main

DIAMOND = Path(__file__).parents[1] / "examples" / "pass_ordering" / "diamond.mlir"


def _rows(text: str) -> dict[str, list[str]]:
    header, *rows = text.splitlines()
    assert header.split()[:3] == ["pipeline", "global_workspace", "max-live"]
    return {row.split()[0]: row.split()[1:3] for row in rows}


def test_presets_side_by_side(capsys) -> None:
    assert main([str(DIAMOND), "--algorithm", "first_fit"]) == 0
    rows = _rows(capsys.readouterr().out)
    assert list(rows) == ["tvm-usmp", "hoisted", "io-in-pool"]
    assert rows["tvm-usmp"] == ["64", "48"]
    assert rows["hoisted"] == ["48", "48"]


def test_a_pass_pipeline_beside_a_preset(capsys) -> None:
    spec = (
        "tir-hoist-workspaces,tir-to-usmp,usmp-assign-pools,tir-align-to-pools,"
        "usmp-plan{algorithm=best_fit}"
    )
    assert main([str(DIAMOND), "--algorithm", "first_fit", "-p", "tvm-usmp", "-p", spec]) == 0
    rows = _rows(capsys.readouterr().out)
    assert rows == {"tvm-usmp": ["64", "48"], spec: ["48", "48"]}


@pytest.mark.parametrize(
    "pipeline,message",
    [
        ("tir-to-usmp", "pipeline 'tir-to-usmp' has no usmp-plan: it plans nothing to compare"),
        ("usmp-plan", "nothing to plan: run memref-to-usmp or tir-to-usmp first"),
        ("no-such-pass", "invalid pass pipeline 'no-such-pass'"),
        (
            "tir-reorder-for-memory{max-states=x},tir-to-usmp,usmp-assign-pools,usmp-plan",
            "tir-reorder-for-memory: option max-states takes an integer, got 'x'",
        ),
    ],
)
def test_a_pipeline_that_cannot_compare_is_one_diagnostic(capsys, pipeline, message) -> None:
    with pytest.raises(SystemExit) as exit_status:
        main([str(DIAMOND), "-p", pipeline])
    assert exit_status.value.code == 1
    captured = capsys.readouterr()
    assert message in captured.err and "Traceback" not in captured.err
    assert captured.out == ""


def test_svg_page_shows_every_pipeline_and_pool(tmp_path, capsys) -> None:
    pools = (
        'tir-to-usmp,usmp-assign-pools{pools="sram:size_hint=32,dram"},tir-align-to-pools,usmp-plan'
    )
    spec = pools + "{algorithm=first_fit}"
    argv = [str(DIAMOND), "--algorithm", "first_fit", "-p", "hoisted", "-p", spec]
    assert main([*argv, "--svg", str(tmp_path / "plans")]) == 0
    page = (tmp_path / "plans" / "plans.html").read_text()
    assert re.findall("<h2>(.*)</h2>", page) == ["hoisted", html.escape(spec)]
    sections = page.split("<section>")[1:]
    assert "pool global_workspace: 48 bytes" in sections[0]
    assert "pool sram: 32 bytes" in sections[1] and "pool dram: 32 bytes" in sections[1]
    assert capsys.readouterr().out.splitlines()[0].split()[:4] == [
        "pipeline",
        "global_workspace",
        "sram",
        "dram",
    ]


def test_no_fusion_needs_a_model_not_its_tir(capsys) -> None:
    with pytest.raises(SystemExit) as exit_status:
        main([str(DIAMOND), "-p", "tvm-usmp", "-p", "no-fusion"])
    assert exit_status.value.code == 1
    captured = capsys.readouterr()
    assert captured.err == (
        "compare_pipelines: error: preset 'no-fusion' imports a Relax model again with "
        f"--fusion=none, but '{DIAMOND}' is lowered already: give the model as PATH.py:NAME\n"
    )
    assert captured.out == ""
