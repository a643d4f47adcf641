"""`-t usmp-svg`: a picture of a plan, one panel per pool.

Time runs left to right (in the steps of `usmp.liveness`: one step a statement of the
entry function, calls included; for a TIR program the axis names the operators the entry
calls, each under its steps) and bytes bottom to top (the offset in the pool), on axes
with round ticks. Each buffer is a rectangle per live interval, coloured by its name (the
same buffer has the same colour in every picture) and labelled when the label fits; a
tooltip gives its name, offset, size and interval. A good plan looks like a tightly packed
wall and wasted memory shows as holes. A legend explains the marks: the dashed line is the
pool's max-live (no plan of these buffers can be lower), a heavy outline marks one of the
program's inputs or outputs, hatching a constant, an orange outline a buffer that did not
fit an earlier candidate pool.
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass
from html import escape
from typing import IO

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.target import Target

from usmp_dialect.analysis.tir_liveness import entry_operators
from usmp_dialect.reports.report import (
    BufferSummary,
    PlanReport,
    PoolSummary,
    buffer_label,
    plan_report,
)

PANEL_WIDTH = 960
PANEL_HEIGHT = 360
LEFT = 88
"""Room for the byte ticks and the axis title."""
RIGHT = 24
PANEL_GAP = 96
"""From one panel's bottom to the next one's top: time ticks, axis title, next title."""
LEGEND_HEIGHT = 40
LABEL_FONT = 10
LABEL_CHAR_WIDTH = 6.2
"""About the width of a character of `LABEL_FONT` sans-serif, to see whether a name fits."""
MAX_TICKS = 8

MAX_LIVE_COLOUR = "#c00"
OVERFLOW_COLOUR = "#e67e00"

TimeSpan = tuple[int, int]
Operator = tuple[str, int, int]
"""A call of the entry function: the callee, its first and last step."""
OPERATOR_STRIP = 150
"""Below a panel's time axis, room for the operators' names, written upwards."""
OPERATOR_FONT = 9
OPERATOR_CHARS = 30
"""A longer operator name is cut (with `…`); its tooltip has it whole."""


def buffer_colour(name: str) -> str:
    """The buffer's colour, from its name alone: stable across runs and pictures."""
    hue = zlib.crc32(name.encode()) % 360
    return f"hsl({hue}, 62%, 66%)"


def _unit(largest: float) -> tuple[str, int]:
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if largest >= scale:
            return unit, scale
    return "B", 1


def human_bytes(count: float) -> str:
    """`count` in the largest binary unit it reaches, with at most four digits."""
    unit, scale = _unit(count)
    return f"{count / scale:.4g} {unit}" if scale > 1 else f"{count:.0f} B"


def round_step(span: float, integral: bool) -> float:
    """A tick step of 1, 2 or 5 times a power of ten giving at most `MAX_TICKS` ticks
    over `span` (at least 1 when the values are integers)."""
    raw = span / MAX_TICKS
    power = 10 ** math.floor(math.log10(raw)) if raw > 0 else 1
    step = next((m * power for m in (1, 2, 5, 10) if m * power >= raw), 10 * power)
    return max(step, 1) if integral else step


def _ticks(low: float, high: float, integral: bool) -> list[float]:
    step = round_step(high - low, integral)
    first = math.ceil(low / step) * step
    return [first + i * step for i in range(int((high - first) / step + 1e-9) + 1)]


def time_span(buffers: list[BufferSummary]) -> TimeSpan:
    spans = [span for b in buffers for span in b["live"]]
    return min((s for s, _ in spans), default=0), max((e for _, e in spans), default=1)


@dataclass(frozen=True)
class Frame:
    """Where a panel is drawn and what its axes cover."""

    top: float
    t0: int
    t1: int
    height: int

    def x(self, time: float) -> float:
        return LEFT + (time - self.t0) * PANEL_WIDTH / max(self.t1 - self.t0, 1)

    def y(self, byte: float) -> float:
        return self.top + PANEL_HEIGHT - byte * PANEL_HEIGHT / self.height

    @property
    def bottom(self) -> float:
        return self.top + PANEL_HEIGHT


def _byte_axis(frame: Frame) -> list[str]:
    unit, scale = _unit(frame.height)
    parts = []
    for tick in _ticks(0, frame.height / scale, scale == 1):
        ty = frame.y(tick * scale)
        parts.append(
            f'<line x1="{LEFT - 4}" x2="{LEFT + PANEL_WIDTH}" y1="{ty:.1f}" y2="{ty:.1f}" '
            'stroke="#ddd" stroke-width="0.5"/>'
        )
        parts.append(
            f'<text x="{LEFT - 6}" y="{ty + 3.5:.1f}" font-size="10" text-anchor="end">'
            f"{f'{tick:g} {unit}' if tick else '0'}</text>"
        )
    middle = frame.top + PANEL_HEIGHT / 2
    parts.append(
        f'<text x="16" y="{middle:.1f}" font-size="11" text-anchor="middle" '
        f'transform="rotate(-90 16 {middle:.1f})">offset in the pool (bytes)</text>'
    )
    return parts


def _operator_axis(frame: Frame, operators: list[Operator]) -> list[str]:
    """Each operator's span as a tick at its first step and its name written upwards
    under the middle of it; names closer than a line of text to the last one drawn are
    left out (their spans still ticked), so a long program stays legible."""
    parts = ['<g class="operators">']
    drawn = -math.inf
    for name, first, last in operators:
        if last < frame.t0 or first > frame.t1:
            continue
        tx = frame.x(first)
        parts.append(
            f'<line x1="{tx:.1f}" x2="{tx:.1f}" y1="{frame.bottom:.1f}" '
            f'y2="{frame.bottom + 20:.1f}" stroke="#999"/>'
        )
        middle = frame.x((first + last + 1) / 2)
        if middle - drawn < OPERATOR_FONT + 2:
            continue
        drawn = middle
        shown = name if len(name) <= OPERATOR_CHARS else name[: OPERATOR_CHARS - 1] + "…"
        y = frame.bottom + 22
        parts.append(
            f'<text x="{middle:.1f}" y="{y:.1f}" font-size="{OPERATOR_FONT}" '
            f'text-anchor="end" transform="rotate(-90 {middle:.1f} {y:.1f})" '
            f'dominant-baseline="middle">{escape(shown)}'
            f"<title>{escape(name)} [{first}, {last}]</title></text>"
        )
    parts.append("</g>")
    return parts


def _time_axis(frame: Frame, operators: list[Operator]) -> list[str]:
    if operators:
        return [
            *_operator_axis(frame, operators),
            f'<text x="{LEFT + PANEL_WIDTH / 2}" y="{frame.bottom + OPERATOR_STRIP + 20:.1f}" '
            'font-size="11" text-anchor="middle">time: the operators the entry calls, in '
            "order →</text>",
        ]
    parts = []
    for tick in _ticks(frame.t0, frame.t1, True):
        tx = frame.x(tick)
        parts.append(
            f'<line x1="{tx:.1f}" x2="{tx:.1f}" y1="{frame.bottom:.1f}" '
            f'y2="{frame.bottom + 4:.1f}" stroke="#444"/>'
        )
        parts.append(
            f'<text x="{tx:.1f}" y="{frame.bottom + 15:.1f}" font-size="10" '
            f'text-anchor="middle">{tick:g}</text>'
        )
    parts.append(
        f'<text x="{LEFT + PANEL_WIDTH / 2}" y="{frame.bottom + 32:.1f}" font-size="11" '
        'text-anchor="middle">time (program steps of usmp.liveness: one a statement of '
        "the entry, calls included) →</text>"
    )
    return parts


def _style(buffer: BufferSummary) -> str:
    fill = buffer_colour(buffer["name"])
    if buffer["io"] == "constant":
        fill = "url(#constant)"
    if buffer["overflowed_from"]:
        outline = f'stroke="{OVERFLOW_COLOUR}" stroke-width="2" stroke-dasharray="4 2"'
    elif buffer["io"] in ("input", "output", "input_output"):
        outline = 'stroke="#000" stroke-width="2"'
    else:
        outline = 'stroke="#222" stroke-width="0.3"'
    return f'fill="{fill}" {outline}'


def _role(buffer: BufferSummary) -> str:
    roles = [buffer["io"].replace("_", "/")] if buffer["io"] else []
    if buffer["overflowed_from"]:
        roles.append("overflowed from " + ", ".join(buffer["overflowed_from"]))
    return f" ({'; '.join(roles)})" if roles else ""


def _buffer(buffer: BufferSummary, frame: Frame) -> list[str]:
    name = escape(buffer["name"])
    top = frame.y(buffer["offset"] + buffer["size"])
    height = max(buffer["size"] * PANEL_HEIGHT / frame.height, 0.5)
    parts = [f'<g class="buffer" data-name="{name}">']
    for start, end in buffer["live"]:
        x, width = frame.x(start), max(frame.x(end) - frame.x(start), 0.5)
        parts.append(
            f'<rect x="{x:.2f}" y="{top:.2f}" width="{width:.2f}" height="{height:.2f}" '
            f"{_style(buffer)}><title>{name}{escape(_role(buffer))}: offset "
            f"{buffer['offset']}, {buffer['size']} bytes ({human_bytes(buffer['size'])}), "
            f"live [{start}, {end})</title></rect>"
        )
        label = buffer_label(buffer)
        if width >= len(label) * LABEL_CHAR_WIDTH + 4 and height >= LABEL_FONT + 2:
            parts.append(
                f'<text x="{x + width / 2:.2f}" y="{top + height / 2 + 3.5:.2f}" '
                f'font-size="{LABEL_FONT}" text-anchor="middle" pointer-events="none">'
                f"{escape(label)}</text>"
            )
    parts.append("</g>")
    return parts


def _panel(
    pool: PoolSummary, buffers: list[BufferSummary], frame: Frame, operators: list[Operator]
) -> list[str]:
    ratio = f"{pool['size'] / pool['max_live']:.3f}x" if pool["max_live"] else "-"
    parts = [
        f'<text x="{LEFT}" y="{frame.top - 10:.1f}" font-size="14" font-weight="bold">'
        f"pool {escape(pool['name'])}: {pool['size']} bytes ({human_bytes(pool['size'])}), "
        f"max-live {pool['max_live']} bytes, {ratio}</text>",
        *_byte_axis(frame),
        f'<rect x="{LEFT}" y="{frame.top:.1f}" width="{PANEL_WIDTH}" height="{PANEL_HEIGHT}" '
        'fill="none" stroke="#444"/>',
        *_time_axis(frame, operators),
    ]
    for buffer in buffers:
        parts += _buffer(buffer, frame)
    bound = frame.y(pool["max_live"])
    parts.append(
        f'<line x1="{LEFT}" x2="{LEFT + PANEL_WIDTH}" y1="{bound:.2f}" y2="{bound:.2f}" '
        f'stroke="{MAX_LIVE_COLOUR}" stroke-width="1.5" stroke-dasharray="6 4"/>'
    )
    return parts


_DEFINITIONS = (
    '<defs><pattern id="constant" width="6" height="6" patternUnits="userSpaceOnUse" '
    'patternTransform="rotate(45)"><rect width="6" height="6" fill="#ccc"/>'
    '<line x1="0" y1="0" x2="0" y2="6" stroke="#777" stroke-width="2"/></pattern></defs>'
)


def _legend() -> list[str]:
    y = 22
    items = [
        (
            f'<line x1="0" x2="24" y1="0" y2="0" stroke="{MAX_LIVE_COLOUR}" '
            'stroke-width="1.5" stroke-dasharray="6 4"/>',
            "max-live: no plan of these buffers is lower",
        ),
        (
            '<rect x="0" y="-6" width="24" height="12" fill="#eee" stroke="#000" '
            'stroke-width="2"/>',
            "input / output",
        ),
        ('<rect x="0" y="-6" width="24" height="12" fill="url(#constant)"/>', "constant"),
        (
            f'<rect x="0" y="-6" width="24" height="12" fill="#eee" stroke="{OVERFLOW_COLOUR}" '
            'stroke-width="2" stroke-dasharray="4 2"/>',
            "overflowed: did not fit an earlier candidate pool",
        ),
    ]
    parts = ['<g class="legend" font-size="11">']
    x = float(LEFT)
    for mark, label in items:
        parts.append(f'<g transform="translate({x:.1f} {y})">{mark}')
        parts.append(f'<text x="30" y="4">{label}</text></g>')
        x += 40 + len(label) * 6.3
    parts.append("</g>")
    return parts


def plan_svg(
    report: PlanReport, span: TimeSpan | None = None, operators: list[Operator] | None = None
) -> str:
    """The picture; `span`, when given, is the time axis of every panel (pictures of
    several plans of one program compare on one axis); `operators`, the entry's calls,
    label the time axis when given."""
    pools = report["pools"]
    operators = operators or []
    step = PANEL_HEIGHT + PANEL_GAP + (OPERATOR_STRIP if operators else 0)
    width = LEFT + PANEL_WIDTH + RIGHT
    height = LEGEND_HEIGHT + max(len(pools), 1) * step + 16
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif">',
        _DEFINITIONS,
        f'<rect width="{width}" height="{height}" fill="white"/>',
        *_legend(),
    ]
    for index, pool in enumerate(pools):
        buffers = [b for b in report["buffers"] if b["pool"] == pool["name"]]
        t0, t1 = span or time_span(buffers)
        frame = Frame(
            LEGEND_HEIGHT + 24 + index * step, t0, t1, max(pool["size"], pool["max_live"], 1)
        )
        parts += _panel(pool, buffers, frame, operators)
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


@dataclass(frozen=True)
class UsmpSvg(Target):
    name = "usmp-svg"

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        output.write(plan_svg(plan_report(module), operators=entry_operators(module)))
