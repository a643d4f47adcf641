"""The runner and build files `usmp-translate --emit-c DIR` puts beside the library: a
`main` that owns the pools as static arrays of exactly the planned sizes (the RFC's
three allocations: inputs, workspace pools, outputs) and moves raw little-endian bytes
between files and tensors, and a Makefile that builds it for the host (`make`) and for
a Cortex-M55 run under QEMU's MPS3 AN547 board with semihosting file I/O (`make qemu`),
or a Cortex-M4 run under QEMU's MPS2 AN386 board (`make qemu-m4`).
"""

from __future__ import annotations

import math

from usmp_dialect.tvm.c.library import Interface, Pool, Tensor
from usmp_dialect.tvm_options import RUNNER, STARTUP

LINKER_SCRIPT = "an547.ld"
M4_LINKER_SCRIPT = "an386.ld"
CMAKE_LISTS = "CMakeLists.txt"
HOST_FLAGS = "-std=c11 -Wall -Wextra -Werror -O2"
ARM_FLAGS = f"{HOST_FLAGS} -mcpu=cortex-m55 -mthumb -mfloat-abi=hard"
M4_FLAGS = f"{HOST_FLAGS} -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16"
ARM_INSTALL = "apt-get install -y gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm"
"""Debian's packages of the cross toolchain, newlib and QEMU that `make qemu` runs."""


def _tensor_array(tensor: Tensor, role: str) -> str:
    count = max(1, math.prod(tensor.shape))
    return f"static {tensor.ctype} {role}_{tensor.ident}[{count}];"


def _placed(pool: Pool) -> str:
    return "" if pool.section is None else f' __attribute__((section("{pool.section}")))'


def runner_source(interface: Interface) -> str:
    m = interface.model
    inputs, outputs, state = interface.inputs, interface.outputs, interface.state
    pools = interface.workspace_pools
    lines = [
        f"/* Runs {m} once: {m}/run IN0.bin ... OUT0.bin ... (raw little-endian bytes, the",
        " * inputs and outputs in the entry's order; each variable of the state the model",
        " * keeps from run to run is an input before them and an output after them). The",
        " * pools are prefilled with 0xFF, so that a plan letting two live tensors share",
        " * bytes shows in the outputs. */",
        "#define _POSIX_C_SOURCE 200809L",
        "#include <fcntl.h>",
        "#include <string.h>",
        "#include <unistd.h>",
        f'#include "{m}.h"',
        "",
        *(
            f"static _Alignas({p.alignment}) uint8_t pool_{p.ident}[{p.size}]{_placed(p)};"
            for p in pools
        ),
    ]
    if not interface.in_pools:
        lines += [_tensor_array(t, "input") for t in inputs]
        lines += [_tensor_array(t, "output") for t in outputs]
    lines += [
        "",
        "/* POSIX I/O, not stdio: newlib's fopen allocates, and the board has no heap. */",
        "static void say(const char* text) { (void)!write(2, text, strlen(text)); }",
        "",
        "static int transfer(const char* path, void* data, size_t size, int writing) {",
        "  int file = writing ? open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644) "
        ": open(path, O_RDONLY);",
        "  if (file < 0) {",
        '    say("run: cannot open ");',
        "    say(path);",
        '    say("\\n");',
        "    return 1;",
        "  }",
        "  size_t done = 0;",
        "  while (done < size) {",
        "    uint8_t* at = (uint8_t*)data + done;",
        "    ssize_t moved = writing ? write(file, at, size - done) : read(file, at, size - done);",
        "    if (moved <= 0) break;",
        "    done += (size_t)moved;",
        "  }",
        "  uint8_t extra;",
        "  int longer = !writing && read(file, &extra, 1) > 0;",
        "  if (close(file) != 0 || done != size || longer) {",
        '    say("run: wrong size: ");',
        "    say(path);",
        '    say("\\n");',
        "    return 1;",
        "  }",
        "  return 0;",
        "}",
        "",
        "int main(int argc, char** argv) {",
        f"  if (argc != {1 + len(inputs) + len(outputs) + 2 * len(state)}) {{",
        f'    say("usage: run {_usage([*inputs, *state], [*outputs, *state])}\\n");',
        "    return 2;",
        "  }",
        *(f"  memset(pool_{p.ident}, 0xFF, sizeof pool_{p.ident});" for p in pools),
        f"  struct {m}_workspace_pools pools;",
        *(f"  pools.{p.ident} = pool_{p.ident};" for p in pools),
        *([] if pools else ["  pools.unused = 0;"]),
    ]
    if interface.in_pools:
        lines += [
            f"  struct {m}_inputs inputs = {m}_map_inputs(&pools);",
            f"  struct {m}_outputs outputs = {m}_map_outputs(&pools);",
        ]
    else:
        lines += [
            f"  struct {m}_inputs inputs;",
            *(f"  inputs.{t.ident} = input_{t.ident};" for t in inputs),
            *([] if inputs else ["  inputs.unused = 0;"]),
            f"  struct {m}_outputs outputs;",
            *(f"  outputs.{t.ident} = output_{t.ident};" for t in outputs),
            *([] if outputs else ["  outputs.unused = 0;"]),
        ]
    macro = m.upper()
    lines += [
        f"  if (transfer(argv[{1 + i}], inputs.{t.ident}, {macro}_INPUT_{t.ident.upper()}_SIZE, 0))"
        " return 1;"
        for i, t in enumerate(inputs)
    ]
    if state:
        lines.append(f"  struct {m}_state state = {m}_map_state(&pools);")
    lines += _state_transfers(macro, state, 1 + len(inputs), 0)
    run_args = "&pools, NULL" if interface.in_pools else "&inputs, &outputs, &pools, NULL"
    if interface.in_pools and not inputs:
        lines.append("  (void)inputs;")
    lines += [
        f"  if ({m}_run({run_args}) != 0) {{",
        f'    say("run: {m}_run failed\\n");',
        "    return 1;",
        "  }",
    ]
    lines += [
        f"  if (transfer(argv[{1 + len(inputs) + len(state) + i}], outputs.{t.ident}, "
        f"{macro}_OUTPUT_{t.ident.upper()}_SIZE, 1)) return 1;"
        for i, t in enumerate(outputs)
    ]
    lines += _state_transfers(macro, state, 1 + len(inputs) + len(state) + len(outputs), 1)
    if interface.in_pools and not outputs:
        lines.append("  (void)outputs;")
    lines += ["  return 0;", "}", ""]
    return "\n".join(lines)


def _state_transfers(macro: str, state: list[Tensor], first: int, writing: int) -> list[str]:
    """Each state variable's bytes read from (or written to) the arguments from `first`."""
    return [
        f"  if (transfer(argv[{first + i}], state.{t.ident}, "
        f"{macro}_STATE_{t.ident.upper()}_SIZE, {writing})) return 1;"
        for i, t in enumerate(state)
    ]


def _usage(inputs: list[Tensor], outputs: list[Tensor]) -> str:
    return " ".join([*(f"{t.ident}.bin" for t in inputs), *(f"{t.ident}.bin" for t in outputs)])


STARTUP_SOURCE = """\
/* Reset for the MPS3 AN547 (Cortex-M55) and the MPS2 AN386 (Cortex-M4) under QEMU:
 * enable the FPU (and the M55's MVE), then
 * newlib's semihosting start-up (librdimon), which zeroes .bss, reads the command line
 * and calls main. A fault exits with status 3 instead of hanging. */
#include <stdint.h>
#include <unistd.h>

extern void _start(void);
extern uint32_t __stack_top;

static void reset(void) {
  *(volatile uint32_t*)0xE000ED88u |= 0xFu << 20; /* CPACR: CP10, CP11 full access */
  __asm volatile("dsb\\n\\tisb" ::: "memory");
  _start();
}

static void fault(void) { _exit(3); }

__attribute__((section(".vectors"), used)) static void (*const vectors[16])(void) = {
    (void (*)(void))&__stack_top, reset, fault, fault, fault, fault, fault, fault,
    fault, fault, fault, fault, fault, fault, fault, fault,
};
"""

BOARD_REGIONS = {"itcm": "ITCM", "dtcm": "DTCM", "ddr": "DDR", "ext": "DDR", "sram": "SRAM"}
"""The AN547's memory a pool's section goes in, by a word its name holds (`.dtcm`,
`.ext_ram`); SRAM for any other."""


def board_region(section: str) -> str:
    return next((r for word, r in BOARD_REGIONS.items() if word in section.lower()), "SRAM")


def linker_script(interface: Interface) -> str:
    """The AN547's linker script, with an output section for each pool's `section` in the
    memory `board_region` picks, at its pools' alignment (`usmp-assign-pools` gives the
    pools of one section one alignment)."""
    alignments = {p.section: p.alignment for p in interface.pools if p.section is not None}
    placed = "".join(
        f"  {s} (NOLOAD) : {{ . = ALIGN({alignments[s]}); *({s}) }} > {board_region(s)}\n"
        for s in sorted(alignments)
    )
    return _LINKER_SCRIPT_HEAD + placed + _LINKER_SCRIPT_TAIL


_LINKER_SCRIPT_HEAD = """\
/* QEMU's mps3-an547: code in the ITCM (512 KiB), constants in the QSPI flash (8 MiB),
 * variables, pools and stack in the SRAM (2 MiB) and the DTCM (512 KiB); a pool that
 * names a section goes in the memory that section names (ITCM, DTCM, SRAM, DDR). */
MEMORY {
  ITCM (rwx) : ORIGIN = 0x00000000, LENGTH = 512K
  SRAM (rwx) : ORIGIN = 0x01000000, LENGTH = 2M
  DTCM (rwx) : ORIGIN = 0x20000000, LENGTH = 512K
  QSPI (r) : ORIGIN = 0x28000000, LENGTH = 8M
  DDR (rwx) : ORIGIN = 0x60000000, LENGTH = 256M
}
ENTRY(_start)
SECTIONS {
  .text : { KEEP(*(.vectors)) *(.text*) KEEP(*(.init)) KEEP(*(.fini)) } > ITCM
  .ARM.exidx : { *(.ARM.exidx*) } > ITCM
  .rodata : { *(.rodata*) } > QSPI
"""
_LINKER_SCRIPT_TAIL = """\
  .init_array : {
    PROVIDE(__init_array_start = .); KEEP(*(.init_array*)) PROVIDE(__init_array_end = .);
  } > SRAM
  .preinit_array : {
    PROVIDE(__preinit_array_start = .); KEEP(*(.preinit_array*));
    PROVIDE(__preinit_array_end = .);
  } > SRAM
  .fini_array : {
    PROVIDE(__fini_array_start = .); KEEP(*(.fini_array*)) PROVIDE(__fini_array_end = .);
  } > SRAM
  .data : { *(.data*) } > SRAM
  .bss (NOLOAD) : {
    __bss_start__ = .; *(.bss*) *(COMMON) . = ALIGN(4); __bss_end__ = .;
  } > SRAM
  end = .;
  __end__ = .;
  __stack_top = ORIGIN(DTCM) + LENGTH(DTCM);
  __stack = __stack_top;
}
"""


_M4_LINKER_SCRIPT_HEAD = """\
/* QEMU's mps2-an386 (Cortex-M4): code and constants in the SSRAM1 (4 MiB at 0, where the
 * vector table is), variables, pools and stack in the SSRAM2/3 (4 MiB). The AN547's
 * memory names are kept as aliases, so that a pool's section lands as it does there. */
MEMORY {
  SSRAM1 (rwx) : ORIGIN = 0x00000000, LENGTH = 4M
  SSRAM23 (rwx) : ORIGIN = 0x20000000, LENGTH = 4M
}
REGION_ALIAS("ITCM", SSRAM1);
REGION_ALIAS("QSPI", SSRAM1);
REGION_ALIAS("SRAM", SSRAM23);
REGION_ALIAS("DTCM", SSRAM23);
REGION_ALIAS("DDR", SSRAM23);
"""


def m4_linker_script(interface: Interface) -> str:
    """The AN386's linker script: the AN547's sections in the AN386's two memories."""
    sections = linker_script(interface).split("ENTRY(_start)", 1)[1]
    return _M4_LINKER_SCRIPT_HEAD + "ENTRY(_start)" + sections


def makefile(interface: Interface) -> str:
    m = interface.model
    sources = " ".join(
        [f"{m}.c", *([f"{m}_constants.c"] if any(p.constant for p in interface.pools) else [])]
    )
    return f"""\
# Generated by usmp-translate --emit-c.
#   make             builds ./run for this machine
#   make qemu ARGS="IN0.bin OUT0.bin"   builds ./run.elf for a Cortex-M55 (MPS3 AN547) and
#                    runs it under QEMU; files are read and written by semihosting, from
#                    the directory make was started in (newlib keeps 255 characters of
#                    the command line: give short names)
#   make qemu-m4 ARGS="IN0.bin OUT0.bin"   the same for a Cortex-M4 (MPS2 AN386): ./run-m4.elf
# The toolchain: {ARM_INSTALL}
CC ?= cc
CFLAGS ?= {HOST_FLAGS}
ARM_CC ?= arm-none-eabi-gcc
ARM_CFLAGS ?= {ARM_FLAGS}
M4_CFLAGS ?= {M4_FLAGS}
QEMU ?= qemu-system-arm
LIBRARY = {sources}
# The directory `make -C DIR` was started in: paths in ARGS are relative to it.
START_DIR := $(if $(PWD),$(PWD),$(CURDIR))

all: run

run: {RUNNER} $(LIBRARY) {m}.h
\t$(CC) $(CFLAGS) -o $@ {RUNNER} $(LIBRARY) -lm

run.elf: {RUNNER} $(LIBRARY) {m}.h {STARTUP} {LINKER_SCRIPT}
\t$(ARM_CC) $(ARM_CFLAGS) --specs=rdimon.specs -T {LINKER_SCRIPT} -o $@ \\
\t    {STARTUP} {RUNNER} $(LIBRARY) -lm

qemu: run.elf
\tcd "$(START_DIR)" && $(QEMU) -M mps3-an547 -nographic -monitor none -serial none \\
\t    -semihosting-config enable=on,target=native -kernel "$(CURDIR)/run.elf" -append "$(ARGS)"

run-m4.elf: {RUNNER} $(LIBRARY) {m}.h {STARTUP} {M4_LINKER_SCRIPT}
\t$(ARM_CC) $(M4_CFLAGS) --specs=rdimon.specs -T {M4_LINKER_SCRIPT} -o $@ \\
\t    {STARTUP} {RUNNER} $(LIBRARY) -lm

qemu-m4: run-m4.elf
\tcd "$(START_DIR)" && $(QEMU) -M mps2-an386 -nographic -monitor none -serial none \\
\t    -semihosting-config enable=on,target=native -kernel "$(CURDIR)/run-m4.elf" -append "$(ARGS)"

.PHONY: all qemu qemu-m4
"""


def cmake_lists(interface: Interface) -> str:
    """The library as a CMake target `<m>` (Zephyr, ESP-IDF and vendor SDKs build with
    CMake): `add_subdirectory(DIR)` and link it; built alone, the runner too."""
    m = interface.model
    sources = " ".join(
        [f"{m}.c", *([f"{m}_constants.c"] if any(p.constant for p in interface.pools) else [])]
    )
    return f"""\
# Generated by usmp-translate --emit-c: the library {m} for a CMake build.
#   add_subdirectory(DIR) and target_link_libraries(app PRIVATE {m}) in a firmware's build;
#   cmake -S DIR -B BUILD && cmake --build BUILD builds the runner ./run as make does.
cmake_minimum_required(VERSION 3.13)
project({m} C)
add_library({m} STATIC {sources})
target_include_directories({m} PUBLIC ${{CMAKE_CURRENT_SOURCE_DIR}})
set_target_properties({m} PROPERTIES C_STANDARD 11 C_STANDARD_REQUIRED ON)
target_link_libraries({m} PUBLIC m)
if(CMAKE_CURRENT_SOURCE_DIR STREQUAL CMAKE_SOURCE_DIR)
  add_executable(run run.c)
  target_link_libraries(run PRIVATE {m})
endif()
"""
