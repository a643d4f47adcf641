"""Benchmark instances in the common CSV format: `id,lower,upper,size`, one buffer a row,
live on the half-open interval `[lower, upper)` (MiniMalloc's and idealloc's format).

Reading is strict, because a silently skipped row is a wrong plan: every fault is a
`CsvInstanceError` with the 1-based line and column of the bad cell.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from usmp_dialect.planning.problem import Intervals

REQUIRED_COLUMNS = ("id", "lower", "upper", "size")


class CsvInstanceError(Exception):
    def __init__(self, message: str, filename: str, line: int, column: int):
        super().__init__(f"{filename}:{line}:{column}: {message}")
        self.message = message
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


def _cell_columns(line: str) -> list[int]:
    """1-based column where each comma-separated cell of a line starts."""
    columns, position = [1], 0
    for part in line.split(",")[:-1]:
        position += len(part) + 1
        columns.append(position + 1)
    return columns


class _Reader:
    def __init__(self, text: str, filename: str):
        self.lines = text.splitlines()
        self.filename = filename

    def fail(self, message: str, line: int, cell: int = 0) -> CsvInstanceError:
        columns = _cell_columns(self.lines[line - 1]) if line <= len(self.lines) else [1]
        return CsvInstanceError(
            message, self.filename, line, columns[min(cell, len(columns) - 1)]
        )

    def header(self) -> dict[str, int]:
        if not self.lines or not self.lines[0].strip():
            raise self.fail(f"empty file: expected the header {','.join(REQUIRED_COLUMNS)}", 1)
        names = [n.strip() for n in next(csv.reader([self.lines[0]]))]
        for required in REQUIRED_COLUMNS:
            if required not in names:
                raise self.fail(
                    f"missing column '{required}' (the header must name "
                    f"{', '.join(REQUIRED_COLUMNS)})",
                    1,
                    len(names),
                )
        return {name: index for index, name in enumerate(names)}

    def integer(self, row: list[str], line: int, cell: int, column: str) -> int:
        text = row[cell].strip()
        try:
            return int(text)
        except ValueError:
            raise self.fail(f"{column} must be an integer, got '{text}'", line, cell) from None


def read_csv_instance(text: str, filename: str = "<csv>") -> CsvInstance:
    reader = _Reader(text, filename)
    columns = reader.header()
    names: list[str] = []
    values: dict[str, list[int]] = {"lower": [], "upper": [], "size": [], "offset": []}
    seen: dict[str, int] = {}
    has_offset = "offset" in columns
    for line, row in enumerate(csv.reader(io.StringIO(text)), start=1):
        if line == 1 or not any(cell.strip() for cell in row):
            continue
        if len(row) < len(columns):
            raise reader.fail(
                f"expected {len(columns)} cells, found {len(row)}", line, len(row)
            )
        name = row[columns["id"]].strip()
        if name in seen:
            raise reader.fail(
                f"duplicate id '{name}' (first on line {seen[name]})", line, columns["id"]
            )
        seen[name] = line
        row_values = {
            column: reader.integer(row, line, columns[column], column)
            for column in values
            if column in columns
        }
        if row_values["size"] < 0:
            raise reader.fail(
                f"size must not be negative, got {row_values['size']}", line, columns["size"]
            )
        if row_values["lower"] < 0:
            raise reader.fail("lower must not be negative", line, columns["lower"])
        if row_values["upper"] <= row_values["lower"]:
            raise reader.fail(
                f"upper ({row_values['upper']}) must be greater than lower "
                f"({row_values['lower']})",
                line,
                columns["upper"],
            )
        names.append(name)
        for column, value in row_values.items():
            values[column].append(value)
    count = len(names)
    return CsvInstance(
        names=tuple(names),
        sizes=np.asarray(values["size"], dtype=np.int64),
        intervals=Intervals.from_lists(range(count), values["lower"], values["upper"]),
        offsets=np.asarray(values["offset"], dtype=np.int64) if has_offset else None,
    )


def write_csv_instance(
    names: Sequence[str],
    lowers: Sequence[int],
    uppers: Sequence[int],
    sizes: Sequence[int],
    offsets: Sequence[int],
) -> str:
    """A planned instance in MiniMalloc's output format (`id,lower,upper,size,offset`)."""
    lines = ["id,lower,upper,size,offset"]
    lines += [
        f"{n},{lo},{up},{s},{o}" for n, lo, up, s, o in zip(names, lowers, uppers, sizes, offsets)
    ]
    return "\n".join(lines) + "\n"
