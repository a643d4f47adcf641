"""Runs a command, passes its output through, and prints `exit=N` last: lit's internal
shell cannot tell exit status 1 from any other failure."""

import subprocess
import sys

completed = subprocess.run(sys.argv[1:], stderr=subprocess.STDOUT, stdout=subprocess.PIPE)
sys.stdout.write(completed.stdout.decode("utf-8", "replace"))
print(f"exit={completed.returncode}")
