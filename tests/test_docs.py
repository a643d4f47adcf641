"""Every command the README and docs/ show, run against the text, so none goes stale.

Each line of a ```sh block is a command (a trailing backslash continues it); it runs from
the checkout's root with `bash -o pipefail` and must exit 0. A block written as a session
(`$ command` lines, each followed by what it prints) is checked against its text: every
line shown must be printed, in that order (`...` marks lines left out), so figures
quoted in the docs are the tools' own. A session's command may fail on purpose (its
diagnostic is what it shows): then it must fail, exit 1. The parts that set up an
environment (`python3 -m venv`, activating it, `pip install`) are left out here: CI runs
them itself from a fresh clone. So are the test runner (this test is part of it) and the
benchmarks (minutes each; BENCHMARKS.md says how each table was made). Outputs go to
`out/`, which git ignores.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
NOT_RUN_HERE = re.compile(
    r"^(python3 -m venv|\. \.venv/bin/activate|pip install|python -m pip install|"
    r"python -m build|tools/run-tests|tools/lint|python tools/bench_)"
)
"""Set-up, the test runner itself and the benchmarks: see the module's doc."""
FENCE = re.compile(r"^```sh\n(.*?)^```", re.S | re.M)


class Command(NamedTuple):
    text: str
    shown: list[str] | None
    """What a session shows it printing; None for a plain command."""


def _session(block: str) -> list[Command]:
    commands: list[Command] = []
    for line in block.splitlines():
        if line.startswith("$ "):
            commands.append(Command(line[2:], []))
        elif commands and line.strip():
            shown = commands[-1].shown
            assert shown is not None
            shown.append(line.rstrip())
    return commands


def _plain(block: str) -> list[Command]:
    commands = []
    for line in block.splitlines():
        parts = [p.strip() for p in line.split(" && ")]
        kept = [p for p in parts if p and not NOT_RUN_HERE.match(p)]
        if kept and not kept[0].startswith("#"):
            commands.append(Command(" && ".join(kept), None))
    return commands


def _commands(document: Path) -> list[Command]:
    commands = []
    for fenced in FENCE.findall(document.read_text(encoding="utf-8")):
        block = fenced.replace("\\\n", " ")
        is_session = any(line.startswith("$ ") for line in block.splitlines())
        commands += _session(block) if is_session else _plain(block)
    return commands


def _printed_in_order(shown: list[str], printed: list[str]) -> str | None:
    """The first line shown that is not printed after the ones before it, else None."""
    position = 0
    for line in shown:
        if line == "...":
            continue
        found = next(
            (i for i in range(position, len(printed)) if printed[i].rstrip() == line), None
        )
        if found is None:
            return line
        position = found + 1
    return None


def test_the_docs_show_commands():
    assert sum(len(_commands(document)) for document in DOCUMENTS) >= 20


@pytest.mark.slow
@pytest.mark.tvm
@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: path.name)
def test_documented_commands_run(document: Path) -> None:
    """A document's commands in order: a later one may read what an earlier one wrote."""
    (ROOT / "out").mkdir(exist_ok=True)
    for command in _commands(document):
        _check(command)


def _check(command: Command) -> None:
    bin_dir = Path(sys.executable).parent
    result = subprocess.run(
        ["bash", "-o", "pipefail", "-c", command.text],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
        env={"PATH": f"{bin_dir}:/usr/bin:/bin", "HOME": str(Path.home())},
    )
    printed = (result.stdout + result.stderr).splitlines()
    if command.shown is None or not any("error:" in line for line in command.shown):
        assert result.returncode == 0, f"{command.text}\n{result.stderr[-3000:]}"
    else:
        assert result.returncode == 1, f"{command.text} should fail\n{result.stdout[-3000:]}"
    if command.shown is not None:
        missing = _printed_in_order(command.shown, printed)
        assert missing is None, f"{command.text}\ndoes not print: {missing}\n" + "\n".join(
            printed[-60:]
        )
