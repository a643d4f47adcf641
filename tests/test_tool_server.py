"""lit's tool server (tests/filecheck/tool_server/): four calls in a row of a
tool under test run with different string-hash seeds, filecheck's calls between them or
not, so an output that depends on hash order cannot pass for one seed alone, and a call
whose environment asks for a seed runs with exactly that one."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

TOOL_SERVER = Path(__file__).parent / "filecheck" / "tool_server"


@pytest.fixture
def string_hash(tmp_path: Path) -> Iterator[Path]:
    """The server's `string-hash` tool, as lit.cfg puts a tool on the fast tier's PATH."""
    socket_path = tmp_path / "socket"
    env = {name: value for name, value in os.environ.items() if name != "PYTHONHASHSEED"}
    server = subprocess.Popen(
        [sys.executable, str(TOOL_SERVER / "server.py"), str(socket_path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env=env,
    )
    try:
        assert server.stdout is not None and server.stdout.readline() == b"ready\n"
        tool = tmp_path / "string-hash"
        tool.write_text(
            f"#!{sys.executable} -S\nimport sys\nsys.path.insert(0, {str(TOOL_SERVER)!r})\n"
            "import client\nclient.main()\n"
        )
        tool.chmod(0o755)
        os.environ["USMP_TOOL_SERVER"] = str(socket_path)
        yield tool
    finally:
        os.environ.pop("USMP_TOOL_SERVER", None)
        server.communicate()


def _hash_printed(tool: Path, seed: str | None = None) -> str:
    env = {name: value for name, value in os.environ.items() if name != "PYTHONHASHSEED"}
    if seed is not None:
        env["PYTHONHASHSEED"] = seed
    return subprocess.run([tool], env=env, capture_output=True, text=True, check=True).stdout


def test_four_calls_in_a_row_have_different_hash_seeds(string_hash: Path) -> None:
    printed = [_hash_printed(string_hash) for _ in range(8)]
    assert all(len(set(printed[i : i + 4])) == 4 for i in range(5)), printed


def test_filecheck_between_two_calls_takes_no_seed_of_theirs(string_hash: Path) -> None:
    filecheck = string_hash.with_name("filecheck")
    filecheck.write_text(string_hash.read_text())
    filecheck.chmod(0o755)
    printed = []
    for _ in range(4):
        printed.append(_hash_printed(string_hash))
        subprocess.run([filecheck, "--version"], input="", capture_output=True, check=False)
    assert len(set(printed)) == 4, printed


def test_a_call_runs_with_the_hash_seed_its_environment_asks_for(string_hash: Path) -> None:
    expected = subprocess.run(
        [sys.executable, "-c", "print(hash('usmp'))"],
        env={**os.environ, "PYTHONHASHSEED": "7"},
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert [_hash_printed(string_hash, "7") for _ in range(2)] == [expected, expected]
