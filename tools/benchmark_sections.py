"""Sections of BENCHMARKS.md, shared by the benchmark scripts beside this file.

    markdown_section(title, preamble, header, rows) -> str   a `## ` section with its table
    add_write_option(parser)                                 `--write [FILE]`
    publish(section, args, complete)                         print it; with --write, also
                                                             replace the section in FILE

A script prints its section; it replaces the section of the same title in BENCHMARKS.md
only when asked (`--write`) and only when every row was measured, so a run that found no
data, or failed half way, never leaves the page with an empty or partial table.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

BENCHMARKS_MD = Path(__file__).resolve().parents[1] / "BENCHMARKS.md"


def table_row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


GENERATED_END = "<!-- end of generated table: notes below are kept when it is rewritten -->"


def markdown_section(
    title: str, preamble: list[str], header: list[str], rows: list[list[str]]
) -> str:
    """A section of BENCHMARKS.md: its title, how it was produced, its table, and the
    line after which a person's notes on it survive the next rewrite."""
    lines = [title, "", *preamble, "", table_row(header), "|" + "---|" * len(header)]
    return "\n".join([*lines, *map(table_row, rows), "", GENERATED_END]) + "\n"


def write_section(output: Path, section: str) -> None:
    """Replace the section of `output` with `section`'s title (its first line) up to its
    `GENERATED_END` line (else up to the next section), keeping every other section and
    the notes after that line; append it when there is none."""
    text = output.read_text() if output.exists() else "# Benchmarks\n"
    title = section.splitlines()[0]
    end = rf"{re.escape(GENERATED_END)}\n|(?=^## )|\Z"
    pattern = re.compile(rf"^{re.escape(title)}\n(?:(?!^## ).)*?(?:{end})", re.S | re.M)
    if pattern.search(text):
        kept_notes = GENERATED_END + "\n"
        text = pattern.sub(
            lambda old: section if old[0].endswith(kept_notes) else section + "\n", text, count=1
        )
        text = text.rstrip("\n") + "\n"
    else:
        text = text.rstrip("\n") + "\n\n" + section
    output.write_text(text)


def add_write_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--write",
        nargs="?",
        const=str(BENCHMARKS_MD),
        metavar="FILE",
        help="replace this benchmark's section of FILE (default BENCHMARKS.md) with the "
        "result; without it the section is only printed",
    )


def publish(section: str, args: argparse.Namespace, complete: bool = True) -> None:
    """Print `section`; with `--write`, replace its section of the file, unless a row was
    not measured (`complete` false): then say so and exit 1, the file untouched."""
    print(section)
    if args.write is None:
        return
    if not complete:
        sys.exit(f"not written to {args.write}: some rows were not measured (see above)")
    write_section(Path(args.write), section)
    print(f"written to {args.write}", file=sys.stderr)


def no_data(what: str, where: Path) -> None:
    """Exit 1 saying which data the benchmark needs and where it looked."""
    sys.exit(f"no {what} under {where}: give the folder that holds them")
