"""The console scripts' files, pipes and signals, as Unix tools treat them: outputs written
only once the whole command succeeded (a regular file replaced atomically, a symlink's
target written, a device or FIFO written directly, never replaced), a closed pipe on
standard output ending the tool by SIGPIPE, a closed standard output a diagnostic, Ctrl-C
ending it with one line and status 130.

Devices are the test's own (a pseudo-terminal, a FIFO), never the machine's.
"""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import threading
import time
import tty
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from usmp_dialect.diagnostics import LocatedError
from usmp_dialect.tools import usmp_opt
from usmp_dialect.tools.console import INTERRUPTED_STATUS, ends_as_unix_tools_do
from usmp_dialect.tools.output import StagedOutputs
from usmp_dialect.universe import PASS_SUMMARIES, TARGET_SUMMARIES, USMP_UNIVERSE

ROOT = Path(__file__).parent.parent
TOOLS = Path(sys.executable).parent
CHAIN = ROOT / "examples" / "memref" / "chain.mlir"
LARGE_CSV = ROOT / "examples" / "csv" / "hill_climb_deep_speech.csv"


def planned_text(capsys: pytest.CaptureFixture[str]) -> str:
    """What `usmp-opt chain.mlir --plan-pools` prints."""
    assert usmp_opt.main([str(CHAIN), "--plan-pools"]) == 0
    return capsys.readouterr().out


@contextmanager
def drained(descriptor: int) -> Iterator[bytearray]:
    """Everything read from `descriptor` (until end of file or error) while the block runs."""
    received = bytearray()

    def drain() -> None:
        while True:
            try:
                chunk = os.read(descriptor, 65536)
            except OSError:
                return
            if not chunk:
                return
            received.extend(chunk)

    reader = threading.Thread(target=drain)
    reader.start()
    try:
        yield received
    finally:
        reader.join(timeout=60)


def test_help_has_a_line_for_every_pass_and_target():
    assert set(PASS_SUMMARIES) == set(USMP_UNIVERSE.all_passes)
    assert set(TARGET_SUMMARIES) == set(USMP_UNIVERSE.all_targets)


def test_a_regular_output_is_replaced_keeping_its_mode(tmp_path: Path, capsys):
    expected = planned_text(capsys)
    output = tmp_path / "out.mlir"
    output.write_text("old")
    output.chmod(0o640)
    old_inode = output.stat().st_ino
    assert usmp_opt.main([str(CHAIN), "--plan-pools", "-o", str(output)]) == 0
    assert output.read_text() == expected
    assert stat.S_IMODE(output.stat().st_mode) == 0o640
    assert output.stat().st_ino != old_inode  # renamed over it: readers see old or new
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.mlir"]


@pytest.mark.parametrize("dangling", [False, True])
def test_a_symlink_output_writes_its_target_and_stays_a_link(
    tmp_path: Path, capsys, dangling: bool
):
    expected = planned_text(capsys)
    (tmp_path / "elsewhere").mkdir()
    target = tmp_path / "elsewhere" / "target.mlir"
    if not dangling:
        target.write_text("old")
    link = tmp_path / "link.mlir"
    link.symlink_to(target)
    assert usmp_opt.main([str(CHAIN), "--plan-pools", "-o", str(link)]) == 0
    assert link.is_symlink()
    assert os.readlink(link) == str(target)
    assert target.read_text() == expected
    assert sorted(p.name for p in target.parent.iterdir()) == ["target.mlir"]


def test_a_fifo_output_is_written_into_not_replaced(tmp_path: Path, capsys):
    expected = planned_text(capsys)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    received = bytearray()

    def read_all() -> None:
        with open(fifo, "rb") as reader:  # waits for the tool to open it for writing
            received.extend(reader.read())

    reader = threading.Thread(target=read_all)
    reader.start()
    assert usmp_opt.main([str(CHAIN), "--plan-pools", "-o", str(fifo)]) == 0
    reader.join(timeout=60)
    assert received.decode() == expected
    assert stat.S_ISFIFO(fifo.stat().st_mode)


def test_a_character_device_output_is_written_into_not_replaced(capsys):
    """A pseudo-terminal's slave end is a character device of the test's own: the one
    kind of file the null device is, which renaming over would replace."""
    expected = planned_text(capsys)
    master, slave = os.openpty()
    device = os.ttyname(slave)
    tty.setraw(slave)  # the bytes as written: no newline translation
    try:
        assert stat.S_ISCHR(os.stat(device).st_mode)
        with drained(master) as received:
            assert usmp_opt.main([str(CHAIN), "--plan-pools", "-o", device]) == 0
            deadline = time.monotonic() + 60
            while len(received) < len(expected.encode()) and time.monotonic() < deadline:
                time.sleep(0.01)
            assert stat.S_ISCHR(os.stat(device).st_mode)
            os.close(slave)
            slave = -1
    finally:
        if slave >= 0:
            os.close(slave)
        os.close(master)
    assert received.decode() == expected


def test_outputs_are_written_only_when_all_of_them_can_be(tmp_path: Path):
    """`--constants-out w.bin -o missing_dir/out.py`: w.bin is left as it was."""
    kept = tmp_path / "w.bin"
    kept.write_bytes(b"old")
    outputs = StagedOutputs()
    outputs.add(str(kept), b"new constants")
    outputs.add(str(tmp_path / "missing_dir" / "out.py"), "script")
    with pytest.raises(LocatedError, match="No such file or directory"):
        outputs.commit()
    assert kept.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["w.bin"]


def test_two_outputs_in_one_file_are_a_diagnostic(tmp_path: Path):
    """`--constants-out - -o -`, or the same file twice."""
    for path in ("-", str(tmp_path / "out")):
        outputs = StagedOutputs()
        outputs.add(path, b"constants")
        with pytest.raises(LocatedError, match="two outputs of the command would go to"):
            outputs.add(None if path == "-" else path, "script")


def test_two_spellings_of_one_file_are_a_diagnostic(tmp_path: Path):
    """`--constants-out w.bin -o ./w.bin` (or a link to w.bin), the file there or not:
    else one output would replace the other."""
    linked = tmp_path / "w.bin"
    (tmp_path / "link").symlink_to(linked)
    (tmp_path / "sub").mkdir()
    spellings = [str(tmp_path / "sub" / ".." / "w.bin"), str(tmp_path / "link")]
    for existing in (False, True):
        if existing:
            linked.write_bytes(b"old")
            os.link(linked, tmp_path / "hard")
            spellings.append(str(tmp_path / "hard"))
        for other in spellings:
            outputs = StagedOutputs()
            outputs.add(str(linked), b"constants")
            with pytest.raises(LocatedError, match="two outputs of the command would go to"):
                outputs.add(other, "script")


def test_bytes_to_standard_output_are_written_as_they_are(capfdbinary):
    outputs = StagedOutputs()
    outputs.add("-", b"\x00\xff")
    outputs.commit()
    assert capfdbinary.readouterr().out == b"\x00\xff"


def test_a_directory_of_outputs_is_created_at_commit_and_removed_on_failure(tmp_path: Path):
    outputs = StagedOutputs()
    outputs.add_in_directory(str(tmp_path / "svg" / "deep"), "plans.html", "<html>")
    outputs.add(str(tmp_path / "a_directory"), "text")
    (tmp_path / "a_directory").mkdir()
    with pytest.raises(LocatedError, match="it is a directory"):
        outputs.commit()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a_directory"]
    del outputs.files[str(tmp_path / "a_directory")]
    outputs.commit()
    assert (tmp_path / "svg" / "deep" / "plans.html").read_text() == "<html>"


def _staged_page(directory: Path) -> StagedOutputs:
    outputs = StagedOutputs()
    outputs.add_in_directory(str(directory), "plans.html", "<html>")
    return outputs


def test_a_directory_of_outputs_keeps_the_users_files(tmp_path: Path):
    """`--svg DIR`, `--emit-c DIR`: the command's files replaced, the user's left alone."""
    plans = tmp_path / "plans"
    plans.mkdir()
    (plans / "my_main.c").write_text("int main(void) { return 0; }\n")
    (plans / "plans.html").write_text("old")
    _staged_page(plans).commit()
    assert (plans / "my_main.c").read_text() == "int main(void) { return 0; }\n"
    assert (plans / "plans.html").read_text() == "<html>"
    assert sorted(p.name for p in plans.iterdir()) == ["my_main.c", "plans.html"]
    # Through a link to it, the link kept.
    (tmp_path / "link").symlink_to(plans)
    (plans / "plans.html").write_text("old")
    _staged_page(tmp_path / "link").commit()
    assert (tmp_path / "link").is_symlink() and (plans / "plans.html").read_text() == "<html>"


@pytest.mark.parametrize("kind", ["file", "dangling link", "file above"])
def test_a_file_where_the_directory_should_be_is_refused(tmp_path: Path, kind: str):
    in_the_way = tmp_path / "plans"
    if kind == "dangling link":
        in_the_way.symlink_to(tmp_path / "nowhere")
    else:
        in_the_way.write_text("the user's")
    directory = in_the_way / "deep" if kind == "file above" else in_the_way
    with pytest.raises(LocatedError, match="it is not a directory") as raised:
        _staged_page(directory).commit()
    assert raised.value.location == str(in_the_way)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plans"]
    assert kind == "dangling link" or in_the_way.read_text() == "the user's"


def test_a_read_only_directory_is_refused_and_left_as_it_was(tmp_path: Path):
    plans = tmp_path / "plans"
    plans.mkdir()
    (plans / "plans.html").write_text("the user's")
    plans.chmod(0o555)
    try:
        with pytest.raises(LocatedError, match="it is read-only"):
            _staged_page(plans).commit()
    finally:
        plans.chmod(0o755)
    assert [p.name for p in plans.iterdir()] == ["plans.html"]
    assert (plans / "plans.html").read_text() == "the user's"


def test_compare_pipelines_creates_no_svg_directory_when_it_fails(tmp_path: Path):
    svg = tmp_path / "plans"
    completed = subprocess.run(
        [
            sys.executable,
            ROOT / "tools" / "compare_pipelines.py",
            CHAIN,
            "-p",
            "nope",
            "--svg",
            svg,
        ],
        capture_output=True,
        text=True,
    )
    assert completed.returncode == 1, completed.stderr
    assert "Traceback" not in completed.stderr
    assert not svg.exists()


@pytest.mark.tvm
def test_emit_tvmscript_leaves_constants_out_alone_when_o_fails(tmp_path: Path):
    planned = tmp_path / "planned.mlir"
    constants_input = ROOT / "tests" / "filecheck" / "translate" / "emit-tvmscript-constants.mlir"
    pools = "flash:kind=constant:alignment=32"
    assert (
        usmp_opt.main([str(constants_input), "--plan-pools", "--pools", pools, "-o", str(planned)])
        == 0
    )
    kept = tmp_path / "w.bin"
    kept.write_bytes(b"old")
    missing = tmp_path / "missing_dir" / "out.py"
    completed = subprocess.run(
        [
            TOOLS / "usmp-translate",
            "--emit-tvmscript",
            planned,
            "--constants-out",
            kept,
            "-o",
            missing,
        ],
        capture_output=True,
        text=True,
    )
    assert completed.returncode == 1
    assert completed.stderr.endswith(
        "missing_dir/out.py: error: cannot write the output: No such file or directory\n"
    )
    assert kept.read_bytes() == b"old"


@pytest.mark.parametrize(
    "command",
    [
        [TOOLS / "usmp-opt", LARGE_CSV, "--plan-pools", "-t", "usmp-report"],
        [TOOLS / "usmp-translate", "--import-csv", LARGE_CSV],
        pytest.param(
            [sys.executable, ROOT / "tools" / "run_tvmscript.py", ROOT / "examples/tir/chain.py"],
            marks=pytest.mark.tvm,
            id="run_tvmscript",
        ),
    ],
)
def test_a_closed_pipe_ends_the_tool_by_sigpipe_quietly(command: list[str | Path]):
    """`usmp-opt ... | head -1` once head has gone: killed by SIGPIPE (a shell says 141),
    nothing on stderr."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        completed = subprocess.run(command, stdout=write_end, stderr=subprocess.PIPE)
    finally:
        os.close(write_end)
    assert completed.returncode == -signal.SIGPIPE, completed.stderr
    assert completed.stderr == b""


STDOUT_CLOSED = [
    sys.executable,
    "-c",
    "import os, sys; os.close(1); os.execv(sys.argv[1], sys.argv[1:])",
]
"""Runs a command with its standard output closed, as a shell's `>&-` does."""


@pytest.mark.parametrize("tool", ["usmp-opt", "usmp-translate"])
def test_a_closed_standard_output_is_a_diagnostic_when_the_output_goes_there(tool: str):
    argv = [CHAIN, "--plan-pools"] if tool == "usmp-opt" else ["--import-csv", LARGE_CSV]
    done = subprocess.run([*STDOUT_CLOSED, TOOLS / tool, *argv], stderr=subprocess.PIPE, text=True)
    assert done.returncode == 1
    assert done.stderr == "<stdout>: error: cannot write the output: standard output is closed\n"


def test_a_closed_standard_output_does_not_matter_to_a_command_writing_a_file(tmp_path: Path):
    output = tmp_path / "planned.mlir"
    done = subprocess.run(
        [*STDOUT_CLOSED, TOOLS / "usmp-opt", CHAIN, "--plan-pools", "-o", output],
        stderr=subprocess.PIPE,
        text=True,
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert "usmp.pool @global_workspace" in output.read_text()


def _blocked_reading_stdin(pid: int) -> bool:
    """Whether process `pid` waits in a system call on descriptor 0 (its standard input)."""
    fields = Path(f"/proc/{pid}/syscall").read_text().split()
    return fields[0] not in ("running", "-1") and len(fields) > 1 and int(fields[1], 16) == 0


CTRL_C_AS_AT_A_TERMINAL = [
    sys.executable,
    "-c",
    "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
    "os.execv(sys.argv[1], sys.argv[1:])",
]
"""Runs a command with SIGINT's default disposition, as a shell's foreground job has it: a
suite started in the background (`tools/run-tests &`) inherits SIGINT ignored, which Python
leaves alone, and the tool then read the end of its input, not Ctrl-C."""


@pytest.mark.parametrize("tool", ["usmp-opt", "usmp-translate"])
def test_ctrl_c_ends_with_one_line_and_status_130_touching_no_output(tmp_path: Path, tool: str):
    """SIGINT while the tool reads its input from a pipe that never ends."""
    output = tmp_path / "out"
    output.write_text("old")
    mode = ["--import-csv"] if tool == "usmp-translate" else ["--plan-pools"]
    process = subprocess.Popen(
        [*CTRL_C_AS_AT_A_TERMINAL, TOOLS / tool, *mode, "-", "-o", output],
        stdin=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 300
        while not _blocked_reading_stdin(process.pid):
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "the tool never read its standard input"
            time.sleep(0.05)
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == INTERRUPTED_STATUS, stderr
    assert stderr == f"{tool}: interrupted\n"
    assert output.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_ctrl_c_inside_compiled_code_is_an_interruption_too():
    """numba's dispatcher turns a KeyboardInterrupt into the cause of a SystemError."""

    def compiled_call() -> None:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as interrupt:
            raise SystemError("returned a result with an exception set") from interrupt

    with pytest.raises(SystemExit) as exit, ends_as_unix_tools_do("usmp-opt"):
        compiled_call()
    assert exit.value.code == INTERRUPTED_STATUS


def test_other_errors_keep_their_traceback():
    with pytest.raises(SystemError), ends_as_unix_tools_do("usmp-opt"):
        raise SystemError("a bug")


_ATEXIT_THEN_TOOL = """
import atexit, sys
atexit.register(lambda: print("atexit ran", file=sys.stderr))
from usmp_dialect.tools.console import usmp_opt_command
sys.argv[0] = "usmp-opt"
usmp_opt_command()
"""


@pytest.mark.parametrize(
    ("argv", "status", "printed"),
    [
        (["--help"], 0, "usage: usmp-opt"),
        ([str(CHAIN), "--plan-pools"], 0, "usmp.pool"),
        (["missing.mlir"], 1, ""),
    ],
)
def test_the_console_script_ends_at_once_but_as_an_exit_does(
    argv: list[str], status: int, printed: str
):
    """The script skips the interpreter's teardown, not what an exit owes: its status
    (also a `--help`'s or an error's SystemExit), everything printed to a pipe, the
    `atexit` handlers."""
    done = subprocess.run(
        [sys.executable, "-c", _ATEXIT_THEN_TOOL, *argv], capture_output=True, text=True
    )
    assert done.returncode == status, done.stderr
    assert printed in done.stdout
    assert done.stderr.endswith("atexit ran\n")


@pytest.mark.parametrize(
    ("tool", "argv", "abbreviation"),
    [
        ("usmp_opt", [str(CHAIN), "--plan-pools", "--pool", "sram"], "--pool"),
        ("usmp_translate", ["--import-csv", "--output", "x.mlir", "in.csv"], "--output"),
        ("check_relax_model", ["examples/models/mlp.py:mlp", "--exec", "c"], "--exec"),
        ("run_tvmscript", ["examples/tir/chain.py", "--pla"], "--pla"),
        ("compare_pipelines", ["examples/tir/chain.py", "--pipe", "x"], "--pipe"),
    ],
)
def test_an_abbreviated_option_is_refused(
    tool: str, argv: list[str], abbreviation: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--pool` is a typo of `--pools`, not a choice argparse may make for the user: each
    tool refuses an abbreviated option, one line and exit status 1, before reading any
    input."""
    import importlib

    package = "usmp_dialect.tools" if tool.startswith(("usmp", "run")) else "tools"
    main = importlib.import_module(f"{package}.{tool}").main
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{tool.replace('_', '-') if tool.startswith('usmp') else tool}: error:")
    assert f"unrecognized arguments: {abbreviation}" in err
