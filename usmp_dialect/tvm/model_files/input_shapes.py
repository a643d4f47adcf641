"""The input shapes a model file is imported at (`--input-shape` is parsed by
`usmp_dialect.tvm_options.parse_input_shapes`).

fixed_input_shapes(declared, input_shapes, where) -> {name: dims}  each input's shape
dims_text(dims) -> "[1, 3, N]"                   a shape as diagnostics print it
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from usmp_dialect.tvm.relax.to_tir import RelaxImportError


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
