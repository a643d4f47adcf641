"""`usmp-opt --help`: this tool's passes, targets, algorithms and pools first, xDSL's own
passes and flags behind `--help-all`; `--version` of both tools.

Nothing here imports a pass, an algorithm or TVM: the lines come from tables beside their
registrations, versions from the installed distributions.
"""

from __future__ import annotations

import argparse
import textwrap
from collections.abc import Iterable, Sequence
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from usmp_dialect.planning.registry import algorithm_summaries
from usmp_dialect.universe import PASS_SUMMARIES, TARGET_SUMMARIES

DEFAULT_TARGET_SUMMARY = "the IR, as text (the default)"

POOLS_SYNTAX = """\
  comma-separated pools, each name[:key=value]...: kind (workspace|constant|state), size_hint
  (bytes, or 256K, 1M, 1G), alignment (bytes), targets (c|llvm), and TVM's descriptive
  properties (read_bandwidth_bytes_per_cycle, ...); e.g. 'sram:size_hint=256K,dram'"""

SHOWN_INHERITED = frozenset(
    {
        "help",
        "input_file",
        "output_file",
        "passes",
        "target",
        "frontend",
        "split_input_file",
        "print_between_passes",
        "time_passes",
        "version",
    }
)
"""xDSL's arguments (by `dest`) that `--help` shows; the others only `--help-all`."""


def _table(rows: Iterable[tuple[str, str]]) -> str:
    rows = list(rows)
    width = max(len(name) for name, _ in rows) + 2
    return "\n".join(f"  {name:<{width}}{summary}" for name, summary in rows)


def _sections(targets: Sequence[str]) -> str:
    target_rows = [
        (name, DEFAULT_TARGET_SUMMARY if name == "mlir" else TARGET_SUMMARIES.get(name, ""))
        for name in targets
    ]
    return "\n\n".join(
        [
            "usmp-opt: the Unified Static Memory Planner, on xdsl-opt",
            "  usmp-opt FILE.mlir|FILE.csv --plan-pools [--pools SPEC] [--algorithm NAME] "
            "[-t TARGET] [-o FILE]",
            "usmp passes (-p 'NAME{option=value ...},...'; --help-all lists xDSL's):\n"
            + _table(sorted(PASS_SUMMARIES.items())),
            "targets (-t NAME):\n" + _table(target_rows),
            "planning algorithms (--algorithm NAME, usmp-plan{algorithm=NAME}):\n"
            + _table(algorithm_summaries().items()),
            'pools (--pools SPEC, usmp-assign-pools{pools="SPEC"}):\n' + POOLS_SYNTAX,
        ]
    )


def _inherited_passes(passes: Iterable[str]) -> str:
    names = ", ".join(sorted(name for name in passes if name not in PASS_SUMMARIES))
    return "xDSL's passes (-p):\n" + textwrap.fill(
        names, width=100, initial_indent="  ", subsequent_indent="  "
    )


def print_help(
    parser: argparse.ArgumentParser,
    targets: Sequence[str],
    passes: Sequence[str],
    inherited: Sequence[argparse.Action],
    full: bool,
) -> None:
    """`--help` (the tool's own first) or, with `full`, `--help-all` (every flag and pass)."""
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.description = _sections(targets)
    if full:
        parser.epilog = _inherited_passes(passes)
    else:
        for action in inherited:
            if action.dest not in SHOWN_INHERITED:
                action.help = argparse.SUPPRESS
    print(parser.format_help(), end="")


class _PrintAndExit(argparse.Action):
    """A flag that prints something and ends the tool, as `--help` does."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any):
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def show(self, parser: argparse.ArgumentParser) -> None:
        raise NotImplementedError

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        self.show(parser)
        parser.exit()


class HelpAllAction(_PrintAndExit):
    def show(self, parser: argparse.ArgumentParser) -> None:
        parser.print_help(full=True)  # type: ignore[call-arg]


def _installed_version(distribution: str) -> str:
    try:
        return version(distribution)
    except PackageNotFoundError:
        return "not installed"


def version_text(tool: str) -> str:
    """The versions that decide what a tool does: this package's, xDSL's and TVM's (read
    from the installed distributions, TVM not imported)."""
    return (
        f"{tool} (usmp-dialect {_installed_version('usmp-dialect')})\n"
        f"xDSL {_installed_version('xdsl')}\n"
        f"Apache TVM {_installed_version('apache-tvm')}\n"
    )


class LazyVersionText:
    """xDSL's `--version` prints its `version_format.format(xdsl_version=...)`: this one
    makes the text only when asked."""

    def __init__(self, tool: str):
        self.tool = tool

    def format(self, **_: str) -> str:
        return version_text(self.tool).rstrip("\n")


class VersionAction(_PrintAndExit):
    """`--version` of a tool with its own argument parser (usmp-translate)."""

    def __init__(self, option_strings: Sequence[str], dest: str, tool: str, **kwargs: Any):
        super().__init__(option_strings, dest, **kwargs)
        self.tool = tool

    def show(self, parser: argparse.ArgumentParser) -> None:
        print(version_text(self.tool), end="")
