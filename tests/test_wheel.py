"""`python -m build` makes a wheel holding every file of the package, whose console scripts
plan the README's example from outside the checkout. Built from a copy of the sources
without build isolation, so nothing is downloaded and the checkout gets no build/ folder."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
PACKAGE = "usmp_dialect"
SOURCES = ("pyproject.toml", "README.md", "LICENSE")
CACHES = shutil.ignore_patterns("__pycache__", "*.pyc")


def package_files(root: Path) -> set[str]:
    """The package's files under `root`, as a wheel names them (caches left out)."""
    return {
        path.relative_to(root).as_posix()
        for path in (root / PACKAGE).rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    }


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    assert importlib.util.find_spec("build") is not None, "pip install -e '.[test]' (build)"
    sources = tmp_path_factory.mktemp("sources")
    for name in SOURCES:
        shutil.copy(ROOT / name, sources / name)
    shutil.copytree(ROOT / PACKAGE, sources / PACKAGE, ignore=CACHES)
    out = tmp_path_factory.mktemp("dist")
    built = subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(out)],
        cwd=sources,
        capture_output=True,
        text=True,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    (wheel,) = out.glob("*.whl")
    return wheel


@pytest.mark.slow
def test_the_wheel_holds_every_file_of_the_package(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    assert package_files(ROOT) - names == set()
    assert {n for n in names if n.startswith(f"{PACKAGE}/")} == package_files(ROOT)


@pytest.mark.slow
def test_the_wheel_declares_the_console_scripts_and_the_xdsl_universe(wheel: Path) -> None:
    (entry_points,) = [
        n for n in zipfile.ZipFile(wheel).namelist() if n.endswith(".dist-info/entry_points.txt")
    ]
    text = zipfile.ZipFile(wheel).read(entry_points).decode()
    assert "usmp-opt = usmp_dialect.tools.console:usmp_opt_command" in text
    assert "usmp-translate = usmp_dialect.tools.console:usmp_translate_command" in text
    assert "[xdsl.universe]" in text


@pytest.mark.slow
def test_the_installed_wheel_plans_the_example_outside_the_checkout(
    wheel: Path, tmp_path: Path
) -> None:
    # Installed without its dependencies next to this environment's (xDSL, numpy, numba),
    # which the wheel's files come before on the path.
    site = tmp_path / "site"
    installed = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "--target", str(site), str(wheel)],
        capture_output=True,
        text=True,
    )
    assert installed.returncode == 0, installed.stdout + installed.stderr
    shutil.copy(ROOT / "examples" / "memref" / "chain.mlir", tmp_path / "chain.mlir")
    environment = {**os.environ, "PYTHONPATH": str(site)}
    where = subprocess.run(
        [sys.executable, "-c", f"import {PACKAGE}; print({PACKAGE}.__file__)"],
        cwd=tmp_path,
        env=environment,
        capture_output=True,
        text=True,
    )
    assert Path(where.stdout.strip()).is_relative_to(site), where.stdout + where.stderr
    planned = subprocess.run(
        [str(site / "bin" / "usmp-opt"), "chain.mlir", "--plan-pools", "-t", "usmp-report"],
        cwd=tmp_path,
        env=environment,
        capture_output=True,
        text=True,
    )
    assert planned.returncode == 0, planned.stderr
    assert "total 768 bytes in 1 pool(s)" in planned.stdout
