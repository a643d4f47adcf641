#!/usr/bin/env python3
"""Compare pass pipelines on one program:
`tools/compare_pipelines.py INPUT [-p PRESET|PIPELINE]... [--check] [--svg DIR]`."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from usmp_dialect.tools.compare_pipelines import main
from usmp_dialect.tools.console import ends_as_unix_tools_do

if __name__ == "__main__":
    with ends_as_unix_tools_do("compare_pipelines"):
        status = main()
    sys.exit(status)
