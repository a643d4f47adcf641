"""`tools/bench_m55_kernels.py --by-symbol`: each executed guest instruction goes to the
function of the ELF's symbol table it lies in (`tools/symbol_split.py`), the per-inference
rows add up to the bench's figure, and on QEMU's Cortex-M55 a depthwise library's split
names its kernel."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

from symbol_split import NO_FUNCTION, by_function, functions, per_inference_split  # noqa: E402

NM = """\
00000000 00000200 T __vectors
00000401 00000010 T main
00000411 00000020 t usmp_conv_s8
00000431 t $t
00000440 00000008 r table
00000441 0000000c W memcpy
00000460 D data_end
"""
"""`nm -S -n --defined-only` of a small Thumb program: functions with odd (Thumb)
addresses and sizes, a mapping symbol without a size, read-only data and a symbol with
neither."""


def test_functions_are_the_sized_text_symbols_thumb_bit_cleared() -> None:
    spans = functions(NM)
    assert [(f.name, f.start, f.size) for f in spans] == [
        ("__vectors", 0x0, 0x200),
        ("main", 0x400, 0x10),
        ("usmp_conv_s8", 0x410, 0x20),
        ("memcpy", 0x440, 0xC),
    ]


def test_each_instruction_goes_to_the_function_it_lies_in() -> None:
    executed = [
        (0x400, 1),  # main's first instruction
        (0x40E, 1),  # main's last halfword
        (0x410, 7),  # the next function's first
        (0x42E, 7),
        (0x430, 5),  # one past usmp_conv_s8: a gap before memcpy
        (0x44A, 2),
        (0x44C, 3),  # one past memcpy, the last function
        (0x3FE, 4),  # past __vectors' 0x200 bytes
    ]
    counts = by_function(functions(NM), executed)
    assert counts == Counter({"main": 2, "usmp_conv_s8": 14, "memcpy": 2, NO_FUNCTION: 12})
    assert sum(counts.values()) == sum(n for _, n in executed)


def test_rows_per_inference_add_up_to_the_whole_count() -> None:
    """One run costs start-up and I/O; three runs add two inferences and `main`'s loop,
    which does not divide evenly: main takes the remainder of the total's division."""
    once = Counter({"main": 40, "usmp_conv_s8": 1000, "memcpy": 30, "_start": 90})
    more = Counter({"main": 51, "usmp_conv_s8": 3000, "memcpy": 90, "_start": 90})
    split = per_inference_split(once, more, 2)
    assert split == {"usmp_conv_s8": 1000, "memcpy": 30, "main": 5}
    assert sum(split.values()) == (sum(more.values()) - sum(once.values())) // 2


@pytest.mark.tvm
@pytest.mark.slow
def test_by_symbol_splits_a_depthwise_library_on_the_m55(tmp_path: Path) -> None:
    pytest.importorskip("tflite_micro")
    from tests.support import c_check

    c_check.require_tools(qemu=True)
    sys.path.insert(0, str(ROOT / "tests"))
    from int8_tflite import int8_kernel_tflite

    model = tmp_path / "depthwise.tflite"
    model.write_bytes(int8_kernel_tflite(kind="depthwise", in_channels=16))
    env = dict(os.environ, PYTHONPATH=str(ROOT), XDG_CACHE_HOME=str(tmp_path / "cache"))
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "bench_m55_kernels.py"), "--by-symbol", str(model)],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    rows = re.findall(r"^\| depthwise \| (\S+) \| ([^|]*) \| ([\d,]+) \|", done.stdout, re.M)
    counts = {name: int(n.replace(",", "")) for name, _, n in rows}
    total = counts.pop("total")
    assert sum(counts.values()) == total
    (largest, where, _), *_ = rows
    assert largest.startswith("usmp_depthwise") and where.strip() == "model.c"
    assert counts[largest] > total // 2
