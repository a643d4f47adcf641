#!/usr/bin/env python3
"""Compare pass pipelines on one program:
`tools/compare_pipelines.py INPUT [-p PRESET|PIPELINE]... [--check] [--svg DIR]`."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from usmp_dialect.tools.compare_pipelines import main

if __name__ == "__main__":
    sys.exit(main())
