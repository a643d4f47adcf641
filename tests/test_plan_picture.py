"""The pictures of a plan, checked as a person reads them: the SVG's legend, axes and
labels, and the HTML page rendered in headless Chromium (Debian's `chromium`), its search
applied from the address."""

from __future__ import annotations

import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from usmp_dialect.analysis.tir_liveness import entry_operators
from usmp_dialect.parsing import parse_module
from usmp_dialect.pipeline import plan_pools, plan_pools_pipeline
from usmp_dialect.reports.plan_html import plans_page
from usmp_dialect.reports.plan_svg import buffer_colour, plan_svg, round_step
from usmp_dialect.reports.report import plan_report, proof_of

ROOT = Path(__file__).resolve().parents[1]
CHAIN = ROOT / "examples" / "memref" / "chain.mlir"
SVG = "{http://www.w3.org/2000/svg}"
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _report(algorithm: str = "default"):
    module = parse_module(CHAIN.read_text(), str(CHAIN))
    plan_pools(module, plan_pools_pipeline(algorithm, lower=False))
    return plan_report(module)


def _texts(svg: str) -> list[str]:
    return ["".join(t.itertext()) for t in ET.fromstring(svg).iter(f"{SVG}text")]


def test_svg_explains_itself():
    texts = _texts(plan_svg(_report()))
    assert "max-live: no plan of these buffers is lower" in texts
    assert {"input / output", "constant"} <= set(texts)
    assert "offset in the pool (bytes)" in texts
    assert any(t.startswith("time (program steps of usmp.liveness") for t in texts)
    assert "pool global_workspace: 768 bytes (768 B), max-live 768 bytes, 1.000x" in texts
    # Every buffer of the example is wide and tall enough to carry its name.
    assert {"t0", "t1", "t2", "workspace"} <= set(texts)


def test_time_axis_names_the_operators_of_a_tir_program():
    """The entry's calls under the time axis, in order, each at its steps (the diamond
    calls add_halves, scale, shift, add_halves: steps 3-11, 12-16, 17-21, 22-30)."""
    path = ROOT / "examples" / "pass_ordering" / "diamond.mlir"
    module = parse_module(path.read_text(), str(path))
    operators = entry_operators(module)
    assert operators == [
        ("add_halves", 3, 11),
        ("scale", 12, 16),
        ("shift", 17, 21),
        ("add_halves", 22, 30),
    ]
    plan_pools(module, plan_pools_pipeline(lower=False))
    svg = ET.fromstring(plan_svg(plan_report(module), operators=operators))
    group = next(g for g in svg.iter(f"{SVG}g") if g.get("class") == "operators")
    labels = [(t.text, t.find(f"{SVG}title").text) for t in group.iter(f"{SVG}text")]
    assert labels == [
        ("add_halves", "add_halves [3, 11]"),
        ("scale", "scale [12, 16]"),
        ("shift", "shift [17, 21]"),
        ("add_halves", "add_halves [22, 30]"),
    ]
    texts = _texts(ET.tostring(svg, encoding="unicode"))
    assert "time: the operators the entry calls, in order →" in texts
    # A program without TIR calls (the memref chain) keeps its axis in steps.
    assert entry_operators(parse_module(CHAIN.read_text(), str(CHAIN))) == []


def test_ticks_are_round():
    texts = _texts(plan_svg(_report()))
    byte_ticks = [t for t in texts if re.fullmatch(r"[0-9.]+ B", t)]
    assert byte_ticks == [f"{n} B" for n in range(100, 800, 100)]
    assert "0" in texts
    assert [t for t in texts if t.isdigit()] == ["0"] + [str(n) for n in range(0, 70, 10)]
    assert [round_step(span, True) for span in (7, 66, 768, 4.677e6)] == [1, 10, 100, 1e6]


def test_a_buffer_keeps_its_colour_across_plans():
    first, second = plan_svg(_report("default")), plan_svg(_report("greedy_by_size"))
    for svg in (first, second):
        group = next(g for g in ET.fromstring(svg).iter(f"{SVG}g") if g.get("data-name") == "t1")
        assert group.find(f"{SVG}rect").get("fill") == buffer_colour("t1")
    assert buffer_colour("t1") != buffer_colour("t2")


def _chromium() -> str:
    found = shutil.which("chromium")
    if found is None:
        pytest.fail("Chromium is needed to render the page: apt-get install -y chromium")
    return found


def test_page_search_and_comparison_in_chromium(tmp_path):
    page = tmp_path / "plans.html"
    page.write_text(
        plans_page([("default", _report("default")), ("greedy", _report("greedy_by_size"))])
    )
    dom = subprocess.run(
        [
            _chromium(),
            *CHROMIUM_FLAGS,
            f"--user-data-dir={tmp_path / 'profile'}",
            "--virtual-time-budget=3000",
            "--dump-dom",
            f"{page.as_uri()}#q=t1",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    # Both panels: the search picked t1 out, dimmed the rest and filtered the table.
    assert dom.count('<span class="shown">1 of 4 buffers</span>') == 2
    assert dom.count('<g class="buffer match" data-name="t1">') == 2
    assert dom.count('<g class="buffer dimmed" data-name="t0">') == 2
    assert dom.count('<tr class="buffer" data-name="t0" hidden="">') == 2
    # One time axis for both panels: the same ticks in each.
    assert dom.count(">60</text>") == 2


def test_a_plan_at_every_lower_bound_is_proven_optimal():
    """A greedy plan whose pool is as small as its max-live cannot be bettered: the report
    and the page say so, though the algorithm proves nothing."""
    report = _report("greedy_by_size")
    assert report["plan"] is not None and not report["plan"].get("proven_optimal")
    assert report["pools"][0]["size"] == report["lower_bounds"]["global_workspace"]
    assert "proven optimal (every pool at its lower bound)" in plans_page([("greedy", report)])
    assert proof_of(report) == "proven optimal (every pool at its lower bound)"


FITS = """<script>
const fits = [];
for (const box of document.querySelectorAll('.picture, .side')) {
  fits.push(box.className + (box.scrollWidth <= box.clientWidth ? ' whole' : ' cut'));
  fits.push(box.className + (box.getBoundingClientRect().right <= innerWidth ? ' inside' : ' out'));
}
for (const cell of document.querySelectorAll('td.name')) {
  if (cell.scrollWidth > cell.clientWidth) fits.push('name cut: ' + cell.title);
}
const page = document.documentElement;
const whole = page.scrollHeight <= innerHeight && page.scrollWidth <= innerWidth;
fits.push('page ' + (whole ? 'fits' : 'scrolls'));
const shown = document.createElement('pre');
shown.id = 'fits';
shown.textContent = fits.join('\\n');
document.body.append(shown);
</script>"""


def _long_plan() -> str:
    """person_detect's shape: 30 activations of TFLite-long names over 635 steps, each
    live for 31, two at a time, in two pools."""
    lines = ["usmp.pool @sram workspace alignment 16 size_hint 32768", "usmp.pool @dram workspace"]
    for i in range(30):
        kind = "depthwise" if i % 2 else "pointwise"
        name = f"MobilenetV1_MobilenetV1_Conv2d_{i // 2}_{kind}_Relu6_{'q' * 20}"
        lines.append(
            f'%b{i} = usmp.alloc_offset "{name}" [@sram, @dram][?] align 16 '
            f"live [{20 * i}, {20 * i + 31}) : memref<{(1 + i % 4) * 4608}xi8>"
        )
    lines.append("usmp.liveness")
    return "\n".join(lines)


def test_page_fits_a_1400_by_900_window_in_chromium(tmp_path):
    """The issue's window: the chart whole (no scrolling along time at 1x), every column
    of the table beside it, every name whole (wrapped at its underscores), no page
    scrolling."""
    module = parse_module(_long_plan(), "long.mlir")
    plan_pools(module, plan_pools_pipeline(lower=False, instance=True))
    page = tmp_path / "plan.html"
    operators = [
        (f"fused_nn_conv2d_add_clip_cast_subtract_{i}", 20 * i, 20 * i + 19) for i in range(31)
    ]
    html = plans_page([("plan", plan_report(module))], operators=operators)
    page.write_text(html.replace("</body>", FITS + "</body>"))
    dom = subprocess.run(
        [
            _chromium(),
            *CHROMIUM_FLAGS,
            f"--user-data-dir={tmp_path / 'profile'}",
            "--window-size=1400,900",
            "--virtual-time-budget=3000",
            "--dump-dom",
            page.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    fits = re.search(r'<pre id="fits">(.*?)</pre>', dom, re.S)
    assert fits is not None
    assert fits.group(1).splitlines() == [
        "picture whole",
        "picture inside",
        "side whole",
        "side inside",
        "page fits",
    ]
