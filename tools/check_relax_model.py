#!/usr/bin/env python3
"""Plan a Relax model, run it with TVM, compare with the Relax VM:

tools/check_relax_model.py PATH.py:NAME [--use-workspace-io]
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from usmp_dialect.tools.check_relax_model import main
from usmp_dialect.tools.console import ends_as_unix_tools_do

if __name__ == "__main__":
    with ends_as_unix_tools_do("check_relax_model"):
        status = main()
    sys.exit(status)
