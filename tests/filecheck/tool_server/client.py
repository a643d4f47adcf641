"""Stands in for usmp-opt, usmp-translate or filecheck (the name it is called by) in lit: hands
its arguments, standard streams, working directory and environment to the tool server
(`server.py`, at the socket named by USMP_TOOL_SERVER) and ends as the tool ended.
Runs with `python3 -S` and imports only the standard library, so it starts in milliseconds."""

import array
import json
import os
import signal
import socket
import sys


def main() -> None:
    request = {
        "tool": os.path.basename(sys.argv[0]),
        "args": sys.argv[1:],
        "cwd": os.getcwd(),
        "env": dict(os.environ),
    }
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
        connection.connect(os.environ["USMP_TOOL_SERVER"])
        streams = array.array("i", [0, 1, 2])
        message = json.dumps(request).encode() + b"\n"
        connection.sendmsg([message], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, streams)])
        connection.shutdown(socket.SHUT_WR)
        outcome = int(connection.makefile("rb").readline())
    if outcome < 0:
        # The tool died of a signal (SIGPIPE after `| head -1`): die of it too.
        signal.signal(-outcome, signal.SIG_DFL)
        os.kill(os.getpid(), -outcome)
    sys.exit(outcome)


if __name__ == "__main__":
    main()
