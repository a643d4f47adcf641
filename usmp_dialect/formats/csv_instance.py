"""Benchmark instances in the common CSV format: `id,lower,upper,size`, one buffer a row,
live on the half-open interval `[lower, upper)` (MiniMalloc's and idealloc's format).

The columns may come in any order and extra ones are allowed; an `offset` column (a
planned result, MiniMalloc's output) is read too. Cells are separated by commas and not
quoted. Reading is strict, because a silently skipped row is a wrong plan: every fault
is a `CsvInstanceError` with the 1-based line and column of the bad cell. The format has
no alignment: every buffer is byte-aligned.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from usmp_dialect.diagnostics import INT64_MAX, MAX_TOTAL_BYTES, LocatedError, decode_input
from usmp_dialect.planning.conflicts import conflicts_from_intervals
from usmp_dialect.planning.problem import DEFAULT_POOL, Intervals, PoolSpec, Problem

REQUIRED_COLUMNS = ("id", "lower", "upper", "size")
OFFSET_COLUMN = "offset"
_INTEGER_COLUMNS = ("lower", "upper", "size", OFFSET_COLUMN)
_INTEGER = re.compile(r"-?[0-9]+")
_PLAIN_INTEGER = re.compile(r"[0-9]{1,18}")
"""An integer cell with no blanks and no sign, too short to pass 2**63-1."""


class CsvInstanceError(LocatedError):
    def __init__(self, message: str, filename: str, line: int, column: int):
        super().__init__(message, f"{filename}:{line}:{column}")
        self.filename = filename
        self.line = line
        self.column = column


@dataclass(frozen=True)
class CsvInstance:
    names: tuple[str, ...]
    sizes: np.ndarray
    intervals: Intervals
    """One interval per buffer: buffer `i` owns interval `i`."""
    offsets: np.ndarray | None = None
    """The `offset` column of a planned result, when the file has one."""

    def problem(self, pool: PoolSpec = DEFAULT_POOL) -> Problem:
        """The instance as a planning problem: byte-aligned buffers in one pool."""
        count = len(self.names)
        return Problem(
            names=self.names,
            sizes=self.sizes,
            alignments=np.ones(count, dtype=np.int64),
            conflicts=conflicts_from_intervals(self.intervals, count),
            pools=(pool,),
            intervals=self.intervals,
        )


@dataclass(frozen=True)
class _Cell:
    text: str
    column: int
    """1-based column of the cell's first non-blank character."""


def _cells(line: str) -> list[_Cell]:
    cells, start = [], 0
    for part in line.split(","):
        stripped = part.strip()
        leading = len(part) - len(part.lstrip())
        cells.append(_Cell(stripped, start + leading + 1))
        start += len(part) + 1
    return cells


class _Reader:
    def __init__(self, text: str, filename: str):
        self.filename = filename
        # Lines as an editor counts them: split at "\n" only ("\r" is stripped as blank).
        self.lines = text.removeprefix("\ufeff").split("\n")

    def error(self, message: str, line: int, column: int = 1) -> CsvInstanceError:
        return CsvInstanceError(message, self.filename, line, column)

    def header(self) -> dict[str, int]:
        """Column name → cell index."""
        if not self.lines or not self.lines[0].strip():
            raise self.error(f"expected the header {','.join(REQUIRED_COLUMNS)}", 1)
        cells = _cells(self.lines[0])
        columns: dict[str, int] = {}
        for index, cell in enumerate(cells):
            if cell.text in columns:
                raise self.error(f"column '{cell.text}' appears twice", 1, cell.column)
            columns[cell.text] = index
        for required in REQUIRED_COLUMNS:
            if required not in columns:
                raise self.error(
                    f"missing column '{required}' (the header must name "
                    f"{', '.join(REQUIRED_COLUMNS)})",
                    1,
                    len(self.lines[0]) + 1,
                )
        return columns

    def row(self, line: int, width: int) -> list[_Cell] | None:
        """The cells of a data line, `None` for a blank one."""
        text = self.lines[line - 1]
        if not text.strip():
            return None
        cells = _cells(text)
        if len(cells) != width:
            raise self.error(
                f"expected {width} cells as in the header, found {len(cells)}",
                line,
                cells[min(len(cells), width) - 1].column,
            )
        return cells

    def plain_row(
        self, line: int, columns: dict[str, int], read: list[str], seen: dict[str, int]
    ) -> tuple[str, dict[str, int]] | None:
        """The id and integers of a data line with nothing to report, read without
        locating its cells (most of reading a large trace); None for any other line,
        which `row`, `integer` and the checks then read and report on."""
        text = self.lines[line - 1]
        parts = (text[:-1] if text.endswith("\r") else text).split(",")
        if len(parts) != len(columns):
            return None
        name = parts[columns["id"]]
        if not name or name != name.strip() or name in seen:
            return None
        row: dict[str, int] = {}
        for column in read:
            cell = parts[columns[column]]
            if not _PLAIN_INTEGER.fullmatch(cell):
                return None
            row[column] = int(cell)
        if row["upper"] <= row["lower"] or row.get(OFFSET_COLUMN, 0) + row["size"] > INT64_MAX:
            return None
        return name, row

    def integer(self, cell: _Cell, line: int, column: str) -> int:
        """A cell's integer in [0, INT64_MAX], the planner's range."""
        if not _INTEGER.fullmatch(cell.text):
            raise self.error(f"'{column}' must be an integer, got '{cell.text}'", line, cell.column)
        if cell.text.startswith("-"):
            raise self.error(f"'{column}' must not be negative, got {cell.text}", line, cell.column)
        # Compared as text first: Python refuses to convert thousands of digits.
        digits = cell.text.lstrip("0")
        if len(digits) > len(str(INT64_MAX)) or int(digits or "0") > INT64_MAX:
            shown = cell.text if len(cell.text) <= 40 else f"a number of {len(cell.text)} digits"
            raise self.error(f"'{column}' is {shown}, past the limit of 2**63-1", line, cell.column)
        return int(digits or "0")


def read_csv_instance(
    path_or_text: str | os.PathLike[str], filename: str | None = None
) -> CsvInstance:
    """Read an instance from CSV text, or from a file when given a path; `filename` names
    the input in errors."""
    if isinstance(path_or_text, os.PathLike):
        text = decode_input(Path(path_or_text).read_bytes(), os.fspath(path_or_text))
        filename = filename or os.fspath(path_or_text)
    else:
        text = path_or_text
    reader = _Reader(text, filename or "<csv>")
    columns = reader.header()
    read = [c for c in _INTEGER_COLUMNS if c in columns]
    values: dict[str, list[int]] = {column: [] for column in read}
    names: list[str] = []
    first_line_of: dict[str, int] = {}
    total = 0
    for line in range(2, len(reader.lines) + 1):
        plain = reader.plain_row(line, columns, read, first_line_of)
        if plain is not None:
            name, row = plain
            first_line_of[name] = line
        else:
            cells = reader.row(line, len(columns))
            if cells is None:
                continue
            name = _read_id(reader, cells[columns["id"]], line, first_line_of)
            row = {c: reader.integer(cells[columns[c]], line, c) for c in read}
            _check_row(reader, row, cells, columns, line)
        # As usmp IR's limit: the sizes plus the alignments (1 here) fit in int64.
        total += row["size"] + 1
        if total > MAX_TOTAL_BYTES:
            raise reader.error(
                f"the sizes up to this row, each plus its alignment of 1, sum to {total} "
                "bytes, past the limit of 2**60",
                line,
                _cells(reader.lines[line - 1])[columns["size"]].column,
            )
        names.append(name)
        for column, value in row.items():
            values[column].append(value)
    return CsvInstance(
        names=tuple(names),
        sizes=np.asarray(values["size"], dtype=np.int64),
        intervals=Intervals.from_lists(range(len(names)), values["lower"], values["upper"]),
        offsets=(
            np.asarray(values[OFFSET_COLUMN], dtype=np.int64) if OFFSET_COLUMN in values else None
        ),
    )


def _read_id(reader: _Reader, cell: _Cell, line: int, first_line_of: dict[str, int]) -> str:
    if not cell.text:
        raise reader.error("empty id", line, cell.column)
    if cell.text in first_line_of:
        raise reader.error(
            f"duplicate id '{cell.text}' (first on line {first_line_of[cell.text]})",
            line,
            cell.column,
        )
    first_line_of[cell.text] = line
    return cell.text


def _check_row(
    reader: _Reader,
    row: dict[str, int],
    cells: list[_Cell],
    columns: dict[str, int],
    line: int,
) -> None:
    def cell(column: str) -> int:
        return cells[columns[column]].column

    if row["upper"] <= row["lower"]:
        raise reader.error(
            f"'upper' ({row['upper']}) must be greater than 'lower' ({row['lower']}): "
            "a buffer is live on [lower, upper)",
            line,
            cell("upper"),
        )
    if OFFSET_COLUMN in row and row[OFFSET_COLUMN] + row["size"] > INT64_MAX:
        raise reader.error(
            f"the buffer ends at byte {row[OFFSET_COLUMN] + row['size']}, past the limit "
            "of 2**63-1",
            line,
            cell(OFFSET_COLUMN),
        )


def is_csv_id(name: str) -> bool:
    """Whether `name` reads back as the same id: cells are not quoted, and are stripped."""
    return "," not in name and "\n" not in name and name == name.strip()


def write_csv_instance(
    names: Sequence[str],
    lowers: Sequence[int],
    uppers: Sequence[int],
    sizes: Sequence[int],
    offsets: Sequence[int],
) -> str:
    """A planned instance in MiniMalloc's output format (`id,lower,upper,size,offset`)."""
    for name in names:
        if not is_csv_id(name):
            raise ValueError(f"buffer name {name!r} cannot be written as a CSV id")
    lines = ["id,lower,upper,size,offset"]
    lines += [
        f"{name},{lower},{upper},{size},{offset}"
        for name, lower, upper, size, offset in zip(
            names, lowers, uppers, sizes, offsets, strict=True
        )
    ]
    return "\n".join(lines) + "\n"
