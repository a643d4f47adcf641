"""`tools/bench_planner.py`: MiniMalloc's output is checked like ours (`--vs-minimalloc`,
with a stand-in for its binary: a script that writes a solution CSV the way MiniMalloc
does), and BENCHMARKS.md is rewritten only when asked and only with every row measured."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

from benchmark_sections import GENERATED_END  # noqa: E402

INSTANCE = "id,lower,upper,size\nx,0,2,4\ny,1,3,4\nz,2,4,8\n"
"""max-live 12: y overlaps x and z, x and z may share bytes."""

FAKE_MINIMALLOC = """
import csv, sys
flags = dict(arg[2:].split("=", 1) for arg in sys.argv[1:])
rows = list(csv.DictReader(open(flags["input"])))
offset, placed = 0, []
for row in rows:
    placed.append({**row, "offset": offset})
    offset += int(row["size"]) * {step}
if offset > int(flags["capacity"]):
    sys.exit("INFEASIBLE: no solution found")
with open(flags["output"], "w", newline="") as out:
    writer = csv.DictWriter(out, ["id", "lower", "upper", "size", "offset"])
    writer.writeheader()
    writer.writerows(placed)
"""
"""Stacks the buffers (step 1: a valid plan of 16 bytes; step 0: all at offset 0, which
overlaps) and fails, as MiniMalloc does, when they pass the capacity."""


def _against(tmp_path: Path, step: int, capacity: int) -> list[str]:
    benchmarks = tmp_path / "benchmarks" / "minimalloc"
    benchmarks.mkdir(parents=True)
    (benchmarks / f"T.{capacity}.csv").write_text(INSTANCE)
    fake = tmp_path / "minimalloc"
    fake.write_text(f"#!{sys.executable}\n" + FAKE_MINIMALLOC.replace("{step}", str(step)))
    fake.chmod(0o755)
    output = tmp_path / "BENCHMARKS.md"
    output.write_text(
        "# Benchmarks\n\n## Planner\n\nkept\n\n## Against MiniMalloc\n\nold table\n\n"
        f"{GENERATED_END}\n\nnotes on it\n"
    )
    subprocess.run(
        [
            sys.executable,
            str(ROOT / "tools" / "bench_planner.py"),
            "--benchmarks",
            str(tmp_path / "benchmarks"),
            "--vs-minimalloc",
            str(fake),
            "--write",
            str(output),
        ],
        check=True,
        capture_output=True,
    )
    text = output.read_text()
    assert "## Planner\n\nkept\n" in text
    assert "old table" not in text
    assert text.endswith(f"{GENERATED_END}\n\nnotes on it\n")
    section = text.split("## Against MiniMalloc", 1)[1]
    return [line for line in section.splitlines() if line.startswith("| minimalloc/T")]


@pytest.mark.parametrize(
    ("step", "capacity", "theirs"),
    [
        (1, 16, "yes"),  # valid, within the capacity
        (0, 16, "**invalid plan**"),  # overlapping buffers: the validator says so
        (1, 12, "no: INFEASIBLE: no solution found"),  # it gave up
    ],
)
def test_minimalloc_plans_are_checked(tmp_path, step, capacity, theirs):
    (row,) = _against(tmp_path, step, capacity)
    cells = [cell.strip() for cell in row.strip("|").split("|")]
    assert cells[:7] == ["minimalloc/T", "3", str(capacity), "12", "yes", cells[5], "yes"]
    assert re.fullmatch(r"[0-9]+\.[0-9]{2}", cells[5])
    assert cells[7] == theirs


def _bench(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "tools" / "bench_planner.py"), *arguments],
        capture_output=True,
        text=True,
    )


def test_without_data_nothing_is_written(tmp_path):
    output = tmp_path / "BENCHMARKS.md"
    output.write_text("# Benchmarks\n\n## Planner\n\nkept\n")
    result = _bench("--benchmarks", str(tmp_path / "absent"), "--write", str(output))
    assert result.returncode == 1
    assert "no benchmark instances" in result.stderr
    assert output.read_text() == "# Benchmarks\n\n## Planner\n\nkept\n"


def test_without_minimalloc_nothing_is_written(tmp_path):
    benchmarks = tmp_path / "benchmarks" / "minimalloc"
    benchmarks.mkdir(parents=True)
    (benchmarks / "T.16.csv").write_text(INSTANCE)
    output = tmp_path / "BENCHMARKS.md"
    output.write_text("# Benchmarks\n")
    result = _bench(
        "--benchmarks",
        str(tmp_path / "benchmarks"),
        "--vs-minimalloc",
        str(tmp_path / "nonexistent"),
        "--write",
        str(output),
    )
    assert result.returncode == 1
    assert "not an executable" in result.stderr
    assert output.read_text() == "# Benchmarks\n"


def test_a_run_without_write_only_prints(tmp_path):
    benchmarks = tmp_path / "benchmarks" / "tvm"
    benchmarks.mkdir(parents=True)
    (benchmarks / "three.csv").write_text(INSTANCE)
    result = _bench("--benchmarks", str(tmp_path / "benchmarks"), "--algorithms", "greedy_by_size")
    assert result.returncode == 0
    assert "| tvm/three | 3 | greedy_by_size | 16 |" in result.stdout
    assert not (tmp_path / "BENCHMARKS.md").exists()
