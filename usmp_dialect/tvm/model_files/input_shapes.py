"""The input shapes a model file is imported at.

parse_input_shapes(["x=1x3x224x224"]) -> {"x": (1, 3, 224, 224)}   --input-shape
fixed_input_shapes(declared, input_shapes, where) -> {name: dims}  each input's shape
dims_text(dims) -> "[1, 3, N]"                   a shape as diagnostics print it
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from usmp_dialect.tvm.relax.lowering import RelaxImportError

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


def dims_text(dims: Sequence[int | str]) -> str:
    return "[" + ", ".join(str(d) for d in dims) + "]"


def fixed_input_shapes(
    declared: Mapping[str, Sequence[int | str]],
    input_shapes: Mapping[str, Sequence[int]],
    where: str,
) -> dict[str, list[int]]:
    """Each input's static shape: as `input_shapes` gives it, else as the file declares it
    (`declared`: each dim an int, else its name or `?`); a shape given for no input or of
    another rank, or a declared dim left dynamic, is an error naming the input."""
    for name in input_shapes:
        if name not in declared:
            raise RelaxImportError(
                f"--input-shape names '{name}', which is not an input of the model "
                f"(its inputs: {', '.join(declared) or 'none'})",
                where,
            )
    shapes = {}
    for name, dims in declared.items():
        if name in input_shapes:
            given = list(input_shapes[name])
            if len(given) != len(dims):
                raise RelaxImportError(
                    f"--input-shape gives input '{name}' {len(given)} dimensions, "
                    f"the model declares {len(dims)}: {dims_text(dims)}",
                    where,
                )
            shapes[name] = given
        elif all(isinstance(d, int) and d > 0 for d in dims):
            shapes[name] = [int(d) for d in dims]
        else:
            example = "x".join(str(d) if isinstance(d, int) and d > 0 else "N" for d in dims)
            raise RelaxImportError(
                f"input '{name}' has a dynamic shape {dims_text(dims)}: "
                f"give it as --input-shape {name}={example}",
                where,
            )
    return shapes
