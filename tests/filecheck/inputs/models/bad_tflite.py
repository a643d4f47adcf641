"""Writes a `.tflite` file `usmp-translate --emit-tflite-plan` cannot plan for TFLM:
`python bad_tflite.py KIND OUT.tflite`, KIND one of

    dynamic           an input whose stored shape has a -1 dimension
    missing-subgraph  a WHILE calling subgraphs the file does not have
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from int8_tflite import dynamic_shape_tflite, missing_subgraph_tflite

KINDS = {"dynamic": dynamic_shape_tflite, "missing-subgraph": missing_subgraph_tflite}

if __name__ == "__main__":
    kind, out = sys.argv[1:]
    Path(out).write_bytes(KINDS[kind]())
