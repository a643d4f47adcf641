"""`-t usmp-svg`: a picture of a plan, one panel per pool.

Time runs left to right and bytes bottom to top, with the first and last time and a byte
scale on the axes; each buffer is a rectangle per live interval (its name, offset, size and
interval in a tooltip), so a good plan looks like a tightly packed wall and wasted memory
shows as holes. A dashed line marks the pool's max-live bound; the program's inputs and
outputs, when the plan holds them, are drawn with a heavy outline.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import IO

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.target import Target

from usmp_dialect.reports.report import BufferSummary, PlanReport, PoolSummary, plan_report

PANEL_WIDTH = 960
PANEL_HEIGHT = 360
MARGIN = 64


def _colour(index: int) -> str:
    # Golden-angle hues keep neighbouring buffers apart in colour.
    return f"hsl({(index * 137.508) % 360:.1f}, 65%, 62%)"


def _bytes(count: float) -> str:
    """`count` in the largest binary unit it reaches, with at most four digits."""
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if count >= scale:
            return f"{count / scale:.4g} {unit}"
    return f"{count:.0f} B"


def _axes(top: float, t0: int, t1: int, height: int) -> list[str]:
    """A byte scale up the left side (five ticks) and the time span along the bottom."""
    bottom = top + PANEL_HEIGHT
    parts = []
    for tick in range(5):
        byte = height * tick / 4
        ty = bottom - PANEL_HEIGHT * tick / 4
        parts.append(
            f'<line x1="{MARGIN - 4}" x2="{MARGIN}" y1="{ty:.1f}" y2="{ty:.1f}" stroke="#444"/>'
        )
        parts.append(
            f'<text x="{MARGIN - 6}" y="{ty + 4:.1f}" font-size="10" text-anchor="end">'
            f"{_bytes(byte)}</text>"
        )
    parts.append(f'<text x="{MARGIN}" y="{bottom + 14:.1f}" font-size="10">{t0}</text>')
    parts.append(
        f'<text x="{MARGIN + PANEL_WIDTH}" y="{bottom + 14:.1f}" font-size="10" '
        f'text-anchor="end">{t1}</text>'
    )
    parts.append(
        f'<text x="{MARGIN + PANEL_WIDTH / 2}" y="{bottom + 14:.1f}" font-size="11" '
        'text-anchor="middle">time (program order) →</text>'
    )
    return parts


def _panel(pool: PoolSummary, buffers: list[BufferSummary], top: float) -> list[str]:
    spans = [span for b in buffers for span in b["live"]]
    t0 = min((s for s, _ in spans), default=0)
    t1 = max((e for _, e in spans), default=1)
    height = max(pool["size"], pool["max_live"], 1)
    x_scale = PANEL_WIDTH / max(t1 - t0, 1)
    y_scale = PANEL_HEIGHT / height

    def y(byte: int) -> float:
        return top + PANEL_HEIGHT - byte * y_scale

    parts = [
        f'<text x="{MARGIN}" y="{top - 10:.1f}" font-size="14">pool {escape(pool["name"])}: '
        f"{pool['size']} bytes, max-live {pool['max_live']} bytes</text>",
        f'<rect x="{MARGIN}" y="{top:.1f}" width="{PANEL_WIDTH}" height="{PANEL_HEIGHT}" '
        'fill="none" stroke="#444"/>',
    ]
    parts += _axes(top, t0, t1, height)
    for index, buffer in enumerate(buffers):
        outline = (
            'stroke="#000" stroke-width="2"' if buffer["io"] else 'stroke="#222" stroke-width="0.3"'
        )
        role = f" ({buffer['io']})" if buffer["io"] else ""
        for start, end in buffer["live"]:
            x = MARGIN + (start - t0) * x_scale
            parts.append(
                f'<rect x="{x:.2f}" y="{y(buffer["offset"] + buffer["size"]):.2f}" '
                f'width="{max((end - start) * x_scale, 0.5):.2f}" '
                f'height="{max(buffer["size"] * y_scale, 0.5):.2f}" '
                f'fill="{_colour(index)}" {outline}>'
                f"<title>{escape(buffer['name'])}{role}: offset {buffer['offset']}, "
                f"{buffer['size']} bytes, live [{start}, {end})</title></rect>"
            )
    bound = y(pool["max_live"])
    parts.append(
        f'<line x1="{MARGIN}" x2="{MARGIN + PANEL_WIDTH}" y1="{bound:.2f}" y2="{bound:.2f}" '
        'stroke="#c00" stroke-dasharray="6 4"/>'
    )
    return parts


def plan_svg(report: PlanReport) -> str:
    pools = report["pools"]
    panel_step = PANEL_HEIGHT + 2 * MARGIN
    width = PANEL_WIDTH + 2 * MARGIN
    height = max(len(pools), 1) * panel_step
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
    ]
    for index, pool in enumerate(pools):
        buffers = [b for b in report["buffers"] if b["pool"] == pool["name"]]
        parts += _panel(pool, buffers, MARGIN + index * panel_step)
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def plans_html(plans: list[tuple[str, PlanReport]]) -> str:
    """One page with the pictures of several plans stacked, each under its label."""
    sections = [
        f"<section>\n<h2>{escape(label)}</h2>\n{plan_svg(report)}</section>"
        for label, report in plans
    ]
    return (
        '<!DOCTYPE html>\n<html>\n<head><meta charset="utf-8"><title>plans</title></head>\n'
        '<body style="font-family: sans-serif">\n' + "\n".join(sections) + "\n</body>\n</html>\n"
    )


@dataclass(frozen=True)
class UsmpSvg(Target):
    name = "usmp-svg"

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        output.write(plan_svg(plan_report(module)))
