"""Runs usmp-opt, usmp-translate and filecheck for lit without paying their imports each
time.

lit launches usmp-opt and usmp-translate about 300 times, filecheck about 400;
each launch spent most of its CPU time importing (xDSL and numpy: ~0.45 CPU s a launch).
This server imports the tools once, then forks a child for every call that the client
(`client.py`, put first on lit's PATH under each tool's name) makes: the child takes the
client's standard streams, working directory, environment and arguments, runs the tool's
console entry point as the installed script does, and hands its exit status back. Each
child starts from the same freshly imported state, so calls cannot see each other.

A forked child keeps its parent's string-hash seed (Python fixes it at start-up, and every
string made since caches its hash), so one server would run every call with one
`PYTHONHASHSEED` and hide an output that depends on hash order. So the server starts
siblings, servers with seeds of their own, and hands the calls of the tools under test to
them and itself in turn: any `SERVERS` such calls in a row have different seeds (a
pipeline's `usmp-opt | usmp-opt | usmp-translate`, even with another test's calls between).
filecheck, the checker, takes no turn: the server runs it itself. A seed for every call
would need an interpreter, and its imports, for every call: what the server saves. A call
whose environment asks for a seed (`PYTHONHASHSEED=N`) gets exactly that one: its child
execs a fresh interpreter, as launching the installed script would.

It serves until its standard input closes, which happens when lit (which holds the other end)
ends. Both tiers use it; pytest launches the installed scripts themselves
(tests/test_driver_io.py, tests/test_start_up.py).
"""

from __future__ import annotations

import array
import contextlib
import importlib
import io
import json
import os
import select
import signal
import socket
import subprocess
import sys
import traceback
from typing import TextIO

import filecheck.main

from usmp_dialect.tools import console, usmp_opt, usmp_translate  # noqa: F401  (imported once, here)


def _print_string_hash() -> None:
    """Prints the hash of a fixed string: two calls print the same only when they share a
    hash seed (tests/test_tool_server.py)."""
    print(hash("usmp"))


ENTRY_POINTS = {
    "usmp-opt": console.usmp_opt,
    "usmp-translate": console.usmp_translate,
    "filecheck": filecheck.main.main,
    "string-hash": _print_string_hash,
}
"""The tools the server runs: the console entry points their installed scripts call."""
STREAMS = 3
HASH_SEED = "PYTHONHASHSEED"
RUN_ONE = "--run"
"""`server.py --run TOOL ARGS...`: run one tool in this fresh interpreter and exit."""
SIBLING = "--sibling"
PRELOAD = "--preload"
"""`server.py SOCKET [--sibling] [--preload MODULE]...`: MODULE imported before serving too
(`tvm` in the whole suite: ~1.8 CPU s a call that takes a TVM path, ~100 such calls). TVM
starts no thread at import, so a fork of a server that imported it is a clean process."""
SERVERS = 4
"""This server and its siblings: the calls in a row that have different hash seeds. Each
costs ~0.4 CPU s of imports when the tier starts, and ~45 MB."""
TAKES_NO_TURN = "filecheck"


def _receive(connection: socket.socket) -> tuple[dict, list[int]]:
    """One request: JSON (tool, arguments, working directory, environment) and three fds."""
    fds = array.array("i")
    data = b""
    while True:
        chunk, ancillary, _, _ = connection.recvmsg(
            1 << 16, socket.CMSG_SPACE(STREAMS * fds.itemsize)
        )
        for level, kind, payload in ancillary:
            if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                fds.frombytes(payload[: len(payload) - len(payload) % fds.itemsize])
        if not chunk:
            break
        data += chunk
        if data.endswith(b"\n"):
            break
    return json.loads(data), list(fds)


def _exit_status(code: object) -> int:
    """The status Python gives `sys.exit(code)`."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1


def _run_tool(request: dict, fds: list[int]) -> int:
    """In the forked child: become the tool's process and run it."""
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    os.chdir(request["cwd"])
    if request["env"].get(HASH_SEED, "random") != "random":
        # The seed asked for: only a fresh interpreter can take it.
        command = [sys.executable, __file__, RUN_ONE, request["tool"], *request["args"]]
        os.execve(sys.executable, command, request["env"])
    os.environ.clear()
    os.environ.update(request["env"])
    _open_standard_streams()
    return _run_entry_point(request["tool"], request["args"])


def _run_entry_point(tool: str, args: list[str]) -> int:
    sys.argv = [tool, *args]
    try:
        status = _exit_status(ENTRY_POINTS[tool]())
    except SystemExit as ending:
        status = _exit_status(ending.code)
    except BaseException:  # an uncaught exception ends Python with status 1 too
        traceback.print_exc()
        status = 1
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(BrokenPipeError):
            stream.flush()
    return status


_SERVERS_STREAMS = (sys.stdin, sys.stdout, sys.stderr)
"""Kept referenced: collected, they would close descriptors 0-2, now the tool's."""


def _open_standard_streams() -> None:
    """`sys.stdin`, `sys.stdout` and `sys.stderr` over the tool's descriptors, made as
    Python makes them at start-up (the server's own have the server's state)."""
    unbuffered = bool(os.environ.get("PYTHONUNBUFFERED"))

    def stream(fd: int, like: TextIO, line_buffering: bool) -> io.TextIOWrapper:
        writing = fd != 0
        binary = open(  # noqa: SIM115 (a standard stream lives as long as the process)
            fd,
            "wb" if writing else "rb",
            buffering=0 if writing and unbuffered else -1,
            closefd=False,
        )
        return io.TextIOWrapper(
            binary,
            encoding=like.encoding,
            errors=like.errors,
            line_buffering=line_buffering,
            write_through=writing and unbuffered,
        )

    stdin, stdout, stderr = _SERVERS_STREAMS
    sys.stdin = stream(0, stdin, False)
    sys.stdout = stream(1, stdout, os.isatty(1))
    sys.stderr = stream(2, stderr, True)


def _send(socket_path: str, request: dict, fds: list[int]) -> int:
    """Hands `request` and its descriptors to the server at `socket_path`, as the client
    does; the tool's outcome."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
        connection.connect(socket_path)
        message = json.dumps(request).encode() + b"\n"
        rights = array.array("i", fds).tobytes()
        connection.sendmsg([message], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, rights)])
        connection.shutdown(socket.SHUT_WR)
        return int(connection.makefile("rb").readline())


def _serve_one(
    connection: socket.socket, request: dict, fds: list[int], forward_to: str | None
) -> None:
    """Runs the call on `connection` here, or on the server at `forward_to`."""
    if forward_to is not None:
        outcome = _send(forward_to, request, fds)
        for fd in fds:
            os.close(fd)
    else:
        outcome = _run_forked(request, fds, connection)
    connection.sendall(f"{outcome}\n".encode())
    connection.close()


def _run_forked(request: dict, fds: list[int], connection: socket.socket) -> int:
    child = os.fork()
    if child == 0:
        connection.close()
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        os._exit(_run_tool(request, fds))
    for fd in fds:
        os.close(fd)
    _, wait_status = os.waitpid(child, 0)
    # A child killed by a signal (SIGPIPE after `| head -1`) is reported as the signal number,
    # negated, so the client can end by the same signal.
    if os.WIFSIGNALED(wait_status):
        return -os.WTERMSIG(wait_status)
    return os.WEXITSTATUS(wait_status)


def _start_siblings(socket_path: str, preloads: list[str]) -> dict[str, subprocess.Popen]:
    """`SERVERS - 1` more servers, by socket, each with a hash seed of its own and the same
    `preloads`; each serves until its standard input closes."""
    env = {name: value for name, value in os.environ.items() if name != HASH_SEED}
    siblings = {
        path: subprocess.Popen(
            [sys.executable, __file__, path, SIBLING, *_preload_arguments(preloads)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
        )
        for path in (f"{socket_path}.sibling{i}" for i in range(1, SERVERS))
    }
    for sibling in siblings.values():
        assert sibling.stdout is not None
        if sibling.stdout.readline() != b"ready\n":
            raise SystemExit("a sibling of the tool server did not start")
    return siblings


def _preload_arguments(preloads: list[str]) -> list[str]:
    return [argument for module in preloads for argument in (PRELOAD, module)]


def serve(socket_path: str, is_sibling: bool, preloads: list[str]) -> None:
    for module in preloads:
        importlib.import_module(module)
    siblings = {} if is_sibling else _start_siblings(socket_path, preloads)
    turns: list[str | None] = [None, *siblings]
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(socket_path)
    listener.listen(64)
    # Ready: the client may connect from now on.
    print("ready", flush=True)
    turn = 0
    while True:
        readable, _, _ = select.select([listener, sys.stdin], [], [])
        if sys.stdin in readable and not os.read(sys.stdin.fileno(), 1):
            break
        if listener in readable:
            connection, _ = listener.accept()
            request, fds = _receive(connection)
            takes_turn = request["tool"] != TAKES_NO_TURN
            forward_to = turns[turn % len(turns)] if takes_turn else None
            turn += takes_turn
            if os.fork() == 0:
                listener.close()
                _serve_one(connection, request, fds, forward_to)
                os._exit(0)
            for fd in fds:
                os.close(fd)
            connection.close()
            _reap_children(os.WNOHANG)
    listener.close()
    for sibling in siblings.values():
        sibling.communicate()
    _reap_children(0)


def _reap_children(options: int) -> None:
    """Waits for finished handlers (all of them, with `options` 0), so that their CPU time
    counts in lit's, as that of launched tools would."""
    try:
        while os.waitpid(-1, options)[0]:
            pass
    except ChildProcessError:
        pass


if __name__ == "__main__":
    if sys.argv[1] == RUN_ONE:
        sys.exit(_run_entry_point(sys.argv[2], sys.argv[3:]))
    options = sys.argv[2:]
    serve(
        sys.argv[1],
        is_sibling=SIBLING in options,
        preloads=[options[i + 1] for i, option in enumerate(options) if option == PRELOAD],
    )
