"""What `tir-band-stages` banded and what it could not, from the entry's `usmp.bands`, for
the plan report."""

from __future__ import annotations

from typing import TypedDict

from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, IntegerAttr, ModuleOp, StringAttr

from usmp_dialect.dialects import tir
from usmp_dialect.dialects.usmp import IN_PLACE_RESULTS_ATTR, InPlaceResultsAttr
from usmp_dialect.planning.bands import BANDS_ATTR
from usmp_dialect.reports.names import short_names


class BandStage(TypedDict):
    operators: list[str]
    band_height: int
    steps: int
    calls: int
    buffers: dict[str, int]
    """Each rolling buffer's rows."""
    band_bytes: int
    macs: str


class Bands(TypedDict):
    peak: int
    """The most bytes live at once before banding, by the pass's count."""
    banded_peak: int
    stages: list[BandStage]
    unbanded: dict[str, str]
    """Operators that could not be banded, each with why."""
    in_place_not_made: dict[str, str]
    """The results the pass counted as written over a dying input (`in-place=true`,
    `{result: input}`) that no `tir-in-place-results` after it wrote so: where there are
    any, the plan's peak is not the pass's count."""


def _value(attr):
    if isinstance(attr, IntegerAttr):
        return attr.value.data
    if isinstance(attr, StringAttr):
        return attr.data
    if isinstance(attr, ArrayAttr):
        return [_value(a) for a in attr.data]
    if isinstance(attr, DictionaryAttr):
        return {k: _value(v) for k, v in attr.data.items()}
    return str(attr)


def module_bands(module: ModuleOp) -> Bands | None:
    """The record of the module's entry, None when the pass did not run."""
    for op in module.walk():
        if isinstance(op, tir.PrimFuncOp) and BANDS_ATTR in op.attributes:
            record = _value(op.attributes[BANDS_ATTR])
            made = op.attributes.get(IN_PLACE_RESULTS_ATTR)
            made_over = made.over if isinstance(made, InPlaceResultsAttr) else {}
            counted = record.pop("in_place", {})
            record["in_place_not_made"] = {
                result: input for result, input in counted.items() if made_over.get(result) != input
            }
            return record
    return None


def band_lines(bands: Bands) -> list[str]:
    if bands["stages"]:
        header = f"banded (tir-band-stages): {bands['peak']} -> {bands['banded_peak']} bytes"
    else:
        header = f"nothing banded (tir-band-stages): {bands['peak']} bytes"
    lines = [f"{header} live at once"]
    for i, stage in enumerate(bands["stages"], 1):
        buffers = ", ".join(f"{name} {rows} rows" for name, rows in stage["buffers"].items())
        rolling = (
            f"rolling buffers ({stage['band_bytes']} bytes): {buffers}"
            if buffers
            else "one operator, its own buffers held in a band's rows"
        )
        lines.append(
            f"  stage {i}: {' -> '.join(stage['operators'])}: band height "
            f"{stage['band_height']}, {stage['steps']} steps, {stage['calls']} calls, "
            f"multiply-accumulates {stage['macs']}; {rolling}"
        )
    for name, reason in bands["unbanded"].items():
        lines.append(f"  not banded: {name}: {reason}")
    if not_made := bands.get("in_place_not_made"):
        short = short_names([*not_made, *not_made.values()])
        pairs = ", ".join(
            f"{short[result]} over {short[input]}" for result, input in not_made.items()
        )
        lines.append(
            f"  counted results written in place ({pairs}) that no tir-in-place-results "
            "after it wrote so: the plan keeps more bytes live than this count (run "
            "tir-in-place-results after it, or tir-band-stages{in-place=false})"
        )
    return lines
