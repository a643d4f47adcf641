"""Numbers in a `--pools` spec: a number too long for int64 is the spec's own diagnostic,
not Python's advice about `sys.set_int_max_str_digits()` (issue 33)."""

import pytest

from usmp_dialect.transforms.usmp_assign_pools import PoolSpecError, parse_pool_spec


@pytest.mark.parametrize("digits", [20, 5000, 100_000])
def test_a_number_of_many_digits_is_out_of_range(digits):
    with pytest.raises(PoolSpecError) as error:
        parse_pool_spec(f"sram:size_hint={'9' * digits}")
    assert "is not a number of bytes 0 to 2**63-1" in str(error.value)
    assert "int_max_str_digits" not in str(error.value)


def test_the_largest_number_is_read():
    (pool,) = parse_pool_spec(f"sram:size_hint=000{2**63 - 1}")
    assert pool.size_hint_bytes == 2**63 - 1


def test_a_pool_names_its_linker_section():
    sram, dram = parse_pool_spec("sram:size_hint=32K:section=.dtcm,dram:section=.ext_ram")
    assert sram.section is not None and sram.section.data == ".dtcm"
    assert dram.section is not None and dram.section.data == ".ext_ram"


@pytest.mark.parametrize(
    ("spec", "problem"),
    [
        ("sram:section=dtcm;x", "section 'dtcm;x' of pool 'sram' is not a section name"),
        ("sram:section=.1tcm", "section '.1tcm' of pool 'sram' is not a section name"),
        ("sram:section=.data", "section '.data' of pool 'sram' is the toolchain's own"),
        ("sram:section=.bss", "section '.bss' of pool 'sram' is the toolchain's own"),
        ("sram:section=.rodata_fast", "section '.rodata_fast' of pool 'sram' is the toolchain"),
        ("sram:section=.text.pool", "section '.text.pool' of pool 'sram' is the toolchain's"),
        (
            "sram:section=.dtcm:alignment=64,dram:section=.dtcm",
            "pools 'sram' and 'dram' share section '.dtcm' with alignments 64 and 16",
        ),
    ],
)
def test_a_bad_section_is_one_diagnostic(spec, problem):
    with pytest.raises(PoolSpecError, match=problem.replace(".", r"\.").replace("(", r"\(")):
        parse_pool_spec(spec)
