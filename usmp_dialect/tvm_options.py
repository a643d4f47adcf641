"""What the commands of the TVM wing need before TVM: the options of the model imports
(`usmp-translate --import-relax`, `--import-tflite`, `--import-onnx`,
`tools/check_relax_model.py`: how a model is lowered, the modes and help texts of their
flags, the progress callback's type) and the C library's (`--emit-c`'s model name limit,
the runner's files, the int8 kernels' targets). No TVM here, and nothing of
`usmp_dialect.tvm`, each module of which imports TVM at its top: the mains build their
parsers, `--help` and usage errors from this one, and import the wing where a command needs
it (`usmp_dialect.tvm.relax.to_tir` imports a model as a `TirImport` says,
`usmp_dialect.tvm.c` writes the library).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from usmp_dialect.reports.names import NAME_LIMIT

WEIGHT_MODES = ("bound", "params")
FUSION_MODES = ("default", "none")
TEMPORARIES_MODES = ("inline", "keep")
CONSTANT_STORAGE_MODES = ("compact", "file")
CONSTANT_STORAGE_HELP = (
    "compact (default): an int32 constant a dequantize reads (a bias) stored as int8 or "
    "int16 when its values fit, constants of equal bytes stored once; file: each constant "
    "at the model file's type, under its name, with bytes of its own (any override of it "
    "then fits)"
)
TEMPORARIES_HELP = (
    "inline (the default for model files): injective producers fused into their consumers "
    "and each operator's temporaries (padded copies, dequantized tensors, accumulators) "
    "computed where they are read; keep (the default for --import-relax): as TVM's fusion "
    "leaves them"
)


@dataclass(frozen=True)
class TirImport:
    """How a model is imported to TIR (`usmp-translate --import-relax --weights=... --fusion=...`).

    `weights="bound"` binds the weights into `forward` first (`relax.transform.BindParams`,
    as an application of `relax.build` does), so that TVM's `FoldConstant` computes every
    expression of weights alone (transposes, reshapes, casts) at compile time: no operator
    call and no intermediate is left of it. `"params"` keeps the weights as params, for an
    application that loads them at run time. `fusion="none"` leaves out TVM's `FuseOps`
    and `FuseTIR`: one operator per legalized Relax op. `temporaries="inline"` fuses
    injective producers into their consumers and inlines each operator's temporaries
    (`tvm.relax.temporaries`): no padded copy, float32 dequantized tensor or whole
    accumulator is left to plan (the default of model files, `MODEL_FILE_LOWERING`:
    `--import-relax` keeps TVM's fusion as it is, which Relax's own planner is measured
    on). `constant_storage="compact"` stores an int32 constant a dequantize reads in
    fewer bytes when its values fit (`narrowed_constants`) and constants of equal bytes
    once (`shared_constants`); `"file"` keeps each at the file's type, under its name,
    with bytes of its own, so that an application can override any of them with any
    values of that type."""

    weights: str = "bound"
    fusion: str = "default"
    temporaries: str = "keep"
    constant_storage: str = "compact"

    def __post_init__(self) -> None:
        if self.weights not in WEIGHT_MODES:
            raise ValueError(f"weights must be one of {WEIGHT_MODES}, not {self.weights!r}")
        if self.fusion not in FUSION_MODES:
            raise ValueError(f"fusion must be one of {FUSION_MODES}, not {self.fusion!r}")
        if self.temporaries not in TEMPORARIES_MODES:
            raise ValueError(
                f"temporaries must be one of {TEMPORARIES_MODES}, not {self.temporaries!r}"
            )
        if self.constant_storage not in CONSTANT_STORAGE_MODES:
            raise ValueError(
                f"constant_storage must be one of {CONSTANT_STORAGE_MODES}, "
                f"not {self.constant_storage!r}"
            )

    @property
    def keeps_stored_weights(self) -> bool:
        """Whether each weight stays as the model stores it (int8, float16, a per-channel
        vector), decoded or broadcast by the operator that reads it (`folded_weights`):
        only where producers are fused into their consumers."""
        return self.temporaries == "inline" and self.fusion != "none"


Stages = Callable[[str], None]
"""Told each step of a model import as it begins, for a progress display."""


def unshown(stage: str) -> None:
    """No progress display."""


DEFAULT_TIR_IMPORT = TirImport()
MODEL_FILE_TIR_IMPORT = TirImport(temporaries="inline")
"""How `--import-tflite` and `--import-onnx` lower a model file unless told otherwise: an
int8 model's tensors stay int8 where its kernels keep them so."""


_INPUT_SHAPE = re.compile(r"(?P<name>[^=]+)=(?P<dims>\d+(?:x\d+)*)")


def parse_input_shapes(texts: Sequence[str]) -> dict[str, tuple[int, ...]]:
    """`--input-shape NAME=1x3x224x224` flags, each input once and every dim positive, as a
    dict; a ValueError says what is wrong."""
    shapes: dict[str, tuple[int, ...]] = {}
    for text in texts:
        match = _INPUT_SHAPE.fullmatch(text)
        if match is None or any(int(d) == 0 for d in match["dims"].split("x")):
            raise ValueError(f"expected NAME=DIMxDIMx... with positive dims, got '{text}'")
        if match["name"] in shapes:
            raise ValueError(f"input '{match['name']}' is given twice")
        shapes[match["name"]] = tuple(int(d) for d in match["dims"].split("x"))
    return shapes


# ------------------------------------------------------------------ the C library's names


MACRO_AFFIXES = len("_CONSTANT_") + len("_ALIGNMENT")
"""What the longest macro of a tensor adds to the model's prefix and an identifier (a
pool's adds more: its name is the user's, refused when too long, not shortened)."""

SHORTEST_IDENTIFIER = 16
"""What a long name keeps: enough to be read."""

MODEL_NAME_LIMIT = NAME_LIMIT - MACRO_AFFIXES - SHORTEST_IDENTIFIER
"""The longest C prefix whose macros stay within `NAME_LIMIT` characters."""

RUNNER = "run.c"
STARTUP = "startup.c"
"""The runner's files `--emit-c` writes beside the library (`usmp_dialect.tvm.c.runner`)."""

TARGETS = {
    "any": "Helium where the compiler has it, portable C elsewhere",
    "cortex-m55": "Helium only: an error compiled without it",
    "portable": "portable C only",
    "tvm": "no kernels: TVM's loops",
}
"""`--emit-c --target`: what the library's int8 kernels are compiled for."""
DEFAULT_TARGET = "any"
