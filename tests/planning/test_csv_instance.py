"""Reading and writing benchmark CSV instances; every malformed input is an error at the
line and column of the bad cell."""

import pytest

from usmp_dialect.formats.csv_instance import (
    CsvInstanceError,
    read_csv_instance,
    write_csv_instance,
)

HEADER = "id,lower,upper,size\n"


def error_of(text: str) -> tuple[int, int, str]:
    with pytest.raises(CsvInstanceError) as raised:
        read_csv_instance(text, "bench.csv")
    error = raised.value
    assert str(error).startswith(f"bench.csv:{error.line}:{error.column}: ")
    return error.line, error.column, error.message


def test_reads_buffers_and_half_open_intervals():
    instance = read_csv_instance(HEADER + "a,0,3,16\nb,3,9,8\n", "bench.csv")
    assert instance.names == ("a", "b")
    assert instance.sizes.tolist() == [16, 8]
    assert instance.intervals.start.tolist() == [0, 3]
    assert instance.intervals.end.tolist() == [3, 9]
    assert instance.offsets is None
    # [0, 3) and [3, 9) touch but do not overlap.
    assert instance.problem().conflicts.counts().tolist() == [0, 0]


def test_blanks_leading_zeros_and_long_numbers_read_as_plain_cells_do():
    """Rows with blanks, leading zeros, a CR or numbers of 19 digits take the general path
    of the reader, plain rows a faster one: both read the same buffers."""
    plain = read_csv_instance(HEADER + "a,0,3,16\nb,3,9,100000000000000000\n", "p.csv")
    other = read_csv_instance(HEADER + " a , 00 ,3,16\r\nb,3, 9,0100000000000000000\n", "o.csv")
    assert other.names == plain.names
    assert other.sizes.tolist() == plain.sizes.tolist()
    assert other.intervals.start.tolist() == plain.intervals.start.tolist()
    assert other.intervals.end.tolist() == plain.intervals.end.tolist()


def test_columns_in_any_order_with_extra_ones_and_offsets():
    text = "size, note ,upper,offset,id,lower\r\n8,x,5,16,a,1\r\n\r\n4,y,2,0,b,0\r\n"
    instance = read_csv_instance(text, "bench.csv")
    assert instance.names == ("a", "b")
    assert instance.sizes.tolist() == [8, 4]
    assert instance.intervals.start.tolist() == [1, 0]
    assert instance.offsets.tolist() == [16, 0]


def test_missing_column():
    assert error_of("id,lower,size\na,0,1\n") == (
        1,
        14,
        "missing column 'upper' (the header must name id, lower, upper, size)",
    )


def test_empty_input():
    assert error_of("")[:2] == (1, 1)


def test_repeated_column():
    assert error_of("id,lower,upper,size,size\n")[:2] == (1, 21)


def test_non_integer_value():
    assert error_of(HEADER + "a,0,3,16\nb,0, 3.5,8\n") == (
        3,
        6,
        "'upper' must be an integer, got '3.5'",
    )


@pytest.mark.parametrize("cell", ["1_000", "+5", "", "0x10"])
def test_only_plain_decimal_integers(cell):
    line, column, _ = error_of(HEADER + f"a,0,3,{cell}\n")
    assert (line, column) == (2, 7)


def test_negative_size():
    assert error_of(HEADER + "a,0,3,-1\n") == (
        2,
        7,
        "'size' must not be negative, got -1",
    )


@pytest.mark.parametrize("upper", ["3", "2"])
def test_upper_must_be_above_lower(upper):
    line, column, message = error_of(HEADER + f"a,3,{upper},8\n")
    assert (line, column) == (2, 5)
    assert message.startswith(f"'upper' ({upper}) must be greater than 'lower' (3)")


def test_duplicate_id():
    assert error_of(HEADER + "a,0,3,8\nb,0,3,8\na,1,2,8\n") == (
        4,
        1,
        "duplicate id 'a' (first on line 2)",
    )


def test_empty_id():
    assert error_of(HEADER + " ,0,3,8\n")[:2] == (2, 2)


@pytest.mark.parametrize(("row", "column"), [("a,0,3", 5), ("a,0,3,8,9", 7)])
def test_wrong_number_of_cells(row, column):
    line, found, message = error_of(HEADER + row + "\n")
    assert (line, found) == (2, column)
    assert message.startswith("expected 4 cells")


def test_negative_offset():
    assert error_of("id,lower,upper,size,offset\na,0,3,8,-4\n")[:2] == (2, 9)


def test_reads_a_path_and_names_it_in_errors(tmp_path):
    path = tmp_path / "broken.csv"
    path.write_text(HEADER + "a,0,x,8\n")
    with pytest.raises(CsvInstanceError) as raised:
        read_csv_instance(path)
    assert str(raised.value).startswith(f"{path}:2:5: ")


def test_written_plan_reads_back():
    text = write_csv_instance(["a", "b"], [0, 3], [3, 9], [16, 8], [0, 16])
    assert text == "id,lower,upper,size,offset\na,0,3,16,0\nb,3,9,8,16\n"
    instance = read_csv_instance(text, "plan.csv")
    assert instance.offsets.tolist() == [0, 16]


def test_names_that_cannot_be_written_are_refused():
    with pytest.raises(ValueError, match="cannot be written"):
        write_csv_instance(["a,b"], [0], [1], [1], [0])
