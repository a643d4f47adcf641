"""`-t usmp-html`: a plan as one self-contained page a person can explore.

The page holds the picture of `-t usmp-svg`, the pools' table and a table of the buffers
beside it (the report's rows), a search box (by buffer name: matching rectangles are
highlighted, the rest dimmed, the table filtered; `#q=NAME` in the address fills it),
zoom along time (buttons, or the wheel with Ctrl), and hovering a rectangle or a row
highlights both. No file outside the page is needed: styles and script are inline. At 1x
the picture takes the window's width beside the table, so a 1400x900 window shows the
whole time axis and every column; long names wrap at their underscores.

`plans_page` stacks several plans of one program (`tools/compare_pipelines.py`) on one
time axis; a buffer has the same colour in every panel.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import IO

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.target import Target

from usmp_dialect.analysis.tir_liveness import entry_operators
from usmp_dialect.reports.bands import band_lines
from usmp_dialect.reports.plan_svg import (
    Operator,
    TimeSpan,
    buffer_colour,
    human_bytes,
    plan_svg,
    time_span,
)
from usmp_dialect.reports.report import PlanReport, buffer_label, plan_report, proof_of

_STYLE = """
body { font-family: sans-serif; margin: 16px; color: #222; }
.plan { display: flex; gap: 16px; align-items: flex-start; }
.picture { flex: 1 1 0; min-width: 0; overflow: auto; border: 1px solid #ccc;
  max-height: calc(100vh - 240px); }
.picture svg { display: block; width: 100%; height: auto; }
.side { flex: 0 0 500px; max-height: calc(100vh - 240px); overflow: auto; }
table { border-collapse: collapse; font-size: 12px; }
table.buffers td { white-space: nowrap; }
table.buffers td.name { white-space: normal; overflow-wrap: anywhere; }
th, td { padding: 2px 6px; border-bottom: 1px solid #eee; text-align: left; }
td.number { text-align: right; font-variant-numeric: tabular-nums; }
tr.hover, tr.match { background: #fff3b0; }
.dimmed { opacity: 0.15; }
g.buffer.hover rect, g.buffer.match rect { stroke: #000; stroke-width: 2; }
.tools { margin: 8px 0; display: flex; gap: 8px; align-items: center; }
.swatch { display: inline-block; width: 10px; height: 10px; margin-right: 4px; }
"""

_SCRIPT = """
for (const plan of document.querySelectorAll('section')) {
  const svg = plan.querySelector('svg');
  let zoom = 1;
  let baseHeight = 0;
  const setZoom = (z) => {
    // At 1x the picture fits the window's width; zooming stretches time alone.
    if (zoom === 1) baseHeight = svg.getBoundingClientRect().height;
    zoom = Math.min(64, Math.max(1, z));
    svg.style.width = (100 * zoom) + '%';
    svg.style.height = zoom === 1 ? 'auto' : baseHeight + 'px';
    svg.setAttribute('preserveAspectRatio', zoom === 1 ? 'xMinYMin' : 'none');
    plan.querySelector('.zoom-level').textContent = zoom.toFixed(1) + 'x';
  };
  plan.querySelector('.zoom-in').onclick = () => setZoom(zoom * 2);
  plan.querySelector('.zoom-out').onclick = () => setZoom(zoom / 2);
  plan.querySelector('.zoom-reset').onclick = () => setZoom(1);
  plan.querySelector('.picture').addEventListener('wheel', (event) => {
    if (!event.ctrlKey) return;
    event.preventDefault();
    setZoom(zoom * (event.deltaY < 0 ? 1.25 : 0.8));
  }, {passive: false});
  const groups = [...plan.querySelectorAll('g.buffer')];
  const rows = [...plan.querySelectorAll('tr.buffer')];
  const byName = (list, name) => list.filter((e) => e.dataset.name === name);
  const hover = (name, on) => {
    for (const e of [...byName(groups, name), ...byName(rows, name)]) {
      e.classList.toggle('hover', on);
    }
  };
  for (const e of [...groups, ...rows]) {
    e.addEventListener('mouseenter', () => hover(e.dataset.name, true));
    e.addEventListener('mouseleave', () => hover(e.dataset.name, false));
  }
  const search = plan.querySelector('.search');
  const filter = () => {
    const text = search.value.trim().toLowerCase();
    let shown = 0;
    for (const e of [...groups, ...rows]) {
      const match = text !== '' && e.dataset.name.toLowerCase().includes(text);
      e.classList.toggle('match', match);
      e.classList.toggle('dimmed', text !== '' && !match && e.tagName !== 'TR');
      if (e.tagName === 'TR') {
        e.hidden = text !== '' && !match;
        if (!e.hidden) shown += 1;
      }
    }
    plan.querySelector('.shown').textContent = shown + ' of ' + rows.length + ' buffers';
  };
  search.addEventListener('input', filter);
  const wanted = new URLSearchParams(location.hash.slice(1)).get('q');
  if (wanted) search.value = wanted;
  filter();
}
"""


def _pool_table(report: PlanReport) -> str:
    rows = "".join(
        f"<tr><td>{escape(pool['name'])}</td><td class='number'>{pool['size']}</td>"
        f"<td class='number'>{human_bytes(pool['size'])}</td>"
        f"<td class='number'>{pool['max_live']}</td>"
        f"<td class='number'>{_ratio(pool['size'], pool['max_live'])}</td></tr>"
        for pool in report["pools"]
    )
    return (
        "<table class='pools'><tr><th>pool</th><th>size (bytes)</th><th></th>"
        f"<th>max-live</th><th>ratio</th></tr>{rows}</table>"
    )


def _ratio(size: int, bound: int) -> str:
    return f"{size / bound:.3f}x" if bound else "-"


def _buffer_table(report: PlanReport) -> str:
    rows = []
    for b in report["buffers"]:
        live = " ".join(f"[{s}, {e})" for s, e in b["live"]) or "-"
        role = (b["io"] or "").replace("_", "/")
        if b["overflowed_from"]:
            role = (role + " overflowed").strip()
        name = escape(b["name"])
        rows.append(
            f"<tr class='buffer' data-name='{name}'><td class='name' title='{name}'><span "
            f"class='swatch' style='background:{buffer_colour(b['name'])}'></span>"
            f"{_breakable(buffer_label(b))}</td>"
            f"<td>{escape(b['pool'])}</td><td class='number'>{b['offset']}</td>"
            f"<td class='number'>{b['size']}</td><td>{live}</td><td>{role}</td></tr>"
        )
    return (
        "<table class='buffers'><tr><th>buffer</th><th>pool</th><th>offset</th><th>size</th>"
        f"<th>live</th><th>role</th></tr>{''.join(rows)}</table>"
    )


def _breakable(label: str) -> str:
    """The label, free to wrap after its underscores: a long name stays whole and
    readable in a narrow column rather than cut or widening the table off the window."""
    return "_<wbr>".join(escape(part) for part in label.split("_"))


def _how_planned(report: PlanReport) -> str:
    plan = report["plan"]
    if plan is None:
        return ""
    proof = proof_of(report)
    return f"<p>planned by <b>{escape(str(plan.get('algorithm')))}</b>: {proof}</p>" + _bands(
        report
    )


def _bands(report: PlanReport) -> str:
    """What `tir-band-stages` banded, as the text report says it."""
    if "bands" not in report:
        return ""
    return f'<pre class="bands">{escape(chr(10).join(band_lines(report["bands"])))}</pre>'


def _schedule(report: PlanReport) -> str:
    """What the schedule passes changed: the calls' order and the results computed in
    place, as the text report says them."""
    if "schedule" not in report:
        return ""
    schedule = report["schedule"]
    lines = []
    if schedule["order"] is not None:
        lines.append(f"<p>schedule: {escape(schedule['order'])}</p>")
    if schedule["in_place"]:
        pairs = ", ".join(f"{escape(r)} over {escape(x)}" for r, x in schedule["in_place"].items())
        lines.append(f"<p>in place (a result over an input that dies there): {pairs}</p>")
    return "".join(lines)


def _section(
    label: str, report: PlanReport, span: TimeSpan | None, operators: list[Operator]
) -> str:
    return f"""<section>
<h2>{escape(label)}</h2>
{_how_planned(report)}{_schedule(report)}{_pool_table(report)}
<div class="tools">
<input class="search" type="search" placeholder="find a buffer by name" aria-label="find a buffer">
<span class="shown"></span>
<button class="zoom-out" title="zoom out in time">−</button>
<span class="zoom-level">1.0x</span>
<button class="zoom-in" title="zoom in in time (or Ctrl + wheel)">+</button>
<button class="zoom-reset">reset</button>
</div>
<div class="plan">
<div class="picture">
{plan_svg(report, span, operators)}</div>
<div class="side">{_buffer_table(report)}</div>
</div>
</section>"""


def plans_page(
    plans: list[tuple[str, PlanReport]],
    title: str = "plans",
    operators: list[Operator] | None = None,
) -> str:
    """One page with several plans of one program, each under its label, on one time axis
    (the union of the plans' spans), labelled with the entry's `operators` when given."""
    spans = [time_span(report["buffers"]) for _, report in plans]
    span = (min(s for s, _ in spans), max(e for _, e in spans)) if spans else None
    sections = "\n".join(_section(label, report, span, operators or []) for label, report in plans)
    return f"""<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>{escape(title)}</title><style>{_STYLE}</style></head>
<body>
{sections}
<script>{_SCRIPT}</script>
</body>
</html>
"""


@dataclass(frozen=True)
class UsmpHtml(Target):
    name = "usmp-html"

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        output.write(
            plans_page([("plan", plan_report(module))], "usmp plan", entry_operators(module))
        )
