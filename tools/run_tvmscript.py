#!/usr/bin/env python3
"""Build and run a TVMScript module with TVM:

tools/run_tvmscript.py FILE.py [--target c|llvm] [--plan]
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from usmp_dialect.tools.console import ends_as_unix_tools_do
from usmp_dialect.tools.run_tvmscript import main

if __name__ == "__main__":
    with ends_as_unix_tools_do("run_tvmscript"):
        status = main()
    sys.exit(status)
