"""`tools/bench_tflm_m55.py`'s code sizes: the bytes of TFLM's and CMSIS-NN's code and
constants that a linked program keeps, read from GNU ld's map (a member discarded by
`--gc-sections`, newlib's code and our own objects do not count), and the instructions of
one inference from the counts of two runs."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

from bench_tflm_m55 import attributed_sizes, per_inference  # noqa: E402

LIBRARY = "/cache/gen/lib/libtensorflow-microlite-subset.a"

MAP = f"""\
Archive member included to satisfy reference by file (symbol)

{LIBRARY}(conv.o)  main.o (_ZN6tflite16Register_CONV_2DEv)

Discarded input sections

 .text.unused   0x00000000       0x40 {LIBRARY}(conv.o)
 .rodata.unused
                0x00000000      0x100 {LIBRARY}(arm_nn_tables.o)

Memory Configuration

Linker script and memory map

LOAD startup.o
.text           0x00000000     0x1234
 .vectors       0x00000000       0x40 startup.o
 .text.startup.main
                0x00000040       0x80 main.o
 .text._ZN6tflite16MicroInterpreter6InvokeEv
                0x000000c0      0x120 {LIBRARY}(micro_interpreter.o)
                0x000000c0                tflite::MicroInterpreter::Invoke()
 .text._ZN6tflite16Register_CONV_2DEv
                0x000001e0       0x30 {LIBRARY}(conv.o)
 .text.arm_convolve_s8
                0x00000210      0x200 {LIBRARY}(arm_convolve_s8.o)
 .text          0x00000410       0x80 /usr/lib/arm-none-eabi/lib/libc.a(libc_a-memcpy.o)
.rodata         0x28000000      0x400
 .rodata._ZTVN6tflite16MicroInterpreterE
                0x28000000       0x18 {LIBRARY}(micro_interpreter.o)
 .rodata.arm_table  0x28000018       0x10 {LIBRARY}(arm_nn_tables.o)
 .rodata        0x28000028      0x3d8 main.o
"""


def test_code_sizes_count_the_library_members_the_program_keeps() -> None:
    sizes = attributed_sizes(MAP, LIBRARY, {"arm_convolve_s8.o", "arm_nn_tables.o"})
    assert sizes == {
        "tflm .text": 0x120 + 0x30,
        "tflm .rodata": 0x18,
        "cmsis_nn .text": 0x200,
        "cmsis_nn .rodata": 0x10,
    }


def test_without_cmsis_nn_every_member_is_tflm() -> None:
    sizes = attributed_sizes(MAP, LIBRARY, set())
    assert sizes["tflm .text"] == 0x120 + 0x30 + 0x200
    assert sizes["cmsis_nn .text"] == 0


def test_one_inference_is_the_extra_runs_over_their_number() -> None:
    # Start-up and I/O (1,000) once, 300 a run: 1 run and 3 runs.
    assert per_inference(1_300, 1_900, 2) == 300
