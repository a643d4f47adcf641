"""A firmware-like loop over a C library of one input and one output, as tests build it:
the state pool set once by `model_init_state`, then one `model_run` a frame read from
stdin, its output written to stdout, the state kept from run to run."""

from __future__ import annotations

import re

_PROGRAM = r"""
#include <stdio.h>
#include "model.h"

static _Alignas(16) uint8_t workspace[MODEL_GLOBAL_WORKSPACE_WORKSPACE_POOL_SIZE];
static _Alignas(16) uint8_t state[MODEL_GLOBAL_STATE_STATE_POOL_SIZE];

int main(void) {
  struct model_workspace_pools pools = {workspace, state};
  struct model_inputs inputs = model_map_inputs(&pools);
  struct model_outputs outputs = model_map_outputs(&pools);
  model_init_state(&pools);
  while (fread(inputs.@INPUT@, MODEL_INPUT_@INPUT_MACRO@_SIZE, 1, stdin) == 1) {
    if (model_run(&pools, NULL) != 0) return 1;
    fwrite(outputs.@OUTPUT@, MODEL_OUTPUT_@OUTPUT_MACRO@_SIZE, 1, stdout);
  }
  return 0;
}
"""


def stream_program(
    given: str, taken: str, stateful: bool = True, also: tuple[str, ...] = ()
) -> str:
    """The loop's `app.c` for the library named "model" whose input is `given` and whose
    output is `taken` (their names in `struct model_inputs` and `struct model_outputs`);
    not `stateful`: a model without a state pool, each run on its own; `also`: outputs
    written after `taken`, run by run."""
    program = _PROGRAM
    for name in also:
        write = f"    fwrite(outputs.{name}, MODEL_OUTPUT_{name.upper()}_SIZE, 1, stdout);\n"
        program = program.replace("  }\n  return 0;", write + "  }\n  return 0;")
    if not stateful:
        program = program.replace("{workspace, state}", "{workspace}")
        program = re.sub(r".*(state\[|init_state).*\n", "", program)
    for what, name in (("INPUT", given), ("OUTPUT", taken)):
        program = program.replace(f"@{what}_MACRO@", name.upper()).replace(f"@{what}@", name)
    return program
