"""`usmp-opt`: xdsl-opt with the usmp dialect, its passes and the `--plan-pools` pipeline.

Every xdsl-opt flag and pass keeps working; the targets are those that take this tool's IR.
A user's mistake is printed as an MLIR-style diagnostic (`file:line:col: error: ...`) with
exit status 1, and nothing is written to the output until the whole input has been
processed.
"""

from __future__ import annotations

import argparse
import dataclasses
import inspect
import math
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import partial
from io import StringIO
from pathlib import Path
from typing import IO, NoReturn, cast

from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass, PassPipelineCallbackType
from xdsl.printer import Printer
from xdsl.utils.arg_spec import parse_spec
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.target import Target
from xdsl.xdsl_opt_main import xDSLOptMain

from usmp_dialect.diagnostics import LocatedError, decode_input, warn, with_location
from usmp_dialect.pass_options import check_pass_options
from usmp_dialect.pipeline import (
    DEFAULT_ALGORITHM,
    DEFAULT_EFFORT,
    DEFAULT_TIME_LIMIT,
    plan_pools_pipeline,
)
from usmp_dialect.planning.budget import PLANNING_PROGRESS
from usmp_dialect.tools.errors import (
    STDIN_NAME,
    check_not_empty,
    holds_only_comments,
    report_user_errors,
    usage_error,
)
from usmp_dialect.tools.help_text import HelpAllAction, LazyVersionText, print_help
from usmp_dialect.tools.output import write_output
from usmp_dialect.tools.progress import terminal_progress
from usmp_dialect.universe import USMP_UNIVERSE, load_resource_dialect
from usmp_dialect.xdsl_compat import attribute_verification_kept

PLAN_TARGETS = ("usmp-report", "usmp-svg", "usmp-html")
"""Targets that describe the plan, so `--plan-pools -t usmp-report` (or `usmp-svg`) stops
before the lowerings."""

TARGETS = ("mlir", *USMP_UNIVERSE.all_targets)
"""xDSL's other targets (llvm, assemblies, ...) take dialects this tool never produces."""

IMPORTED_FIRST = {
    "py": ("TVMScript", "--import-tvmscript"),
    "tflite": ("a TFLite model", "--import-tflite"),
    "onnx": ("an ONNX model", "--import-onnx"),
}
"""Inputs usmp-translate imports, by file extension: what they are and its flag."""


def _usage_error(message: str) -> NoReturn:
    usage_error("usmp-opt", message)


def _finite_number(text: str) -> float:
    """A number the pass pipeline's text can hold (it has none for inf or nan)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid number: '{text}'") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"must be a finite number, got '{text}'")
    return value


def _warn_of_unmade_in_place(passes: Sequence[ModulePass]) -> None:
    """`tir-band-stages` counts results written in place (`in-place=true`) as
    `tir-in-place-results` writes them: in a pipeline without that pass, its choice is
    made for a peak the plan does not reach (a pass cannot see its pipeline; the driver
    can). After it, the band pass reads the views it made; before it, it counts them."""
    names = [p.name for p in passes]
    if "tir-in-place-results" in names:
        return
    if any(p.name == "tir-band-stages" and getattr(p, "in_place", False) for p in passes):
        warn(
            "tir-band-stages counts results written in place (in-place=true), but no "
            "tir-in-place-results runs in the pipeline: add it after, or write "
            "tir-band-stages{in-place=false}",
            None,
            "usmp-opt",
        )


class UsmpOptMain(xDSLOptMain):
    def __init__(self, args: Sequence[str] | None = None):
        self._held_output: _HeldOutput | None = None
        super().__init__(description="usmp-opt: the Unified Static Memory Planner", args=args)

    def register_all_dialects(self):
        super().register_all_dialects()
        for name, factory in USMP_UNIVERSE.all_dialects.items():
            if name not in self.ctx.registered_dialect_names:
                self.ctx.register_dialect(name, factory)
        load_resource_dialect(self.ctx)

    def register_all_frontends(self):
        super().register_all_frontends()
        self.available_frontends["csv"] = self._parse_csv

    def _parse_csv(self, chunk: IO[bytes]) -> ModuleOp:
        """A benchmark instance (`-f csv` or a `.csv` file), read as `usmp-translate
        --import-csv` reads it, without the text in between."""

        from usmp_dialect.formats.csv_to_usmp import read_csv_module

        name = self.get_input_name()
        return read_csv_module(decode_input(chunk.read(), name), name)

    def register_all_passes(self):
        super().register_all_passes()
        for name, factory in USMP_UNIVERSE.all_passes.items():
            self.register_pass(name, factory)

    def register_all_targets(self):
        super().register_all_targets()
        self.available_targets.update(USMP_UNIVERSE.all_targets)
        self.available_targets = {name: self.available_targets[name] for name in TARGETS}

    def register_all_arguments(self, arg_parser: argparse.ArgumentParser):
        super().register_all_arguments(arg_parser)
        # xDSL's driver builds the parser; its usage errors must still exit with status 1.
        arg_parser.error = _usage_error  # type: ignore[method-assign]
        # xDSL made the parser: no abbreviated option (`--pool` is a typo of `--pools`).
        arg_parser.allow_abbrev = False
        self._replace_help_and_version(arg_parser)
        arg_parser.add_argument(
            "--plan-pools",
            action="store_true",
            help="run the default planning pipeline: " + plan_pools_pipeline("ALGORITHM"),
        )
        arg_parser.add_argument(
            "--algorithm",
            help=(
                "planning algorithm for --plan-pools "
                f"(default: the portfolio '{DEFAULT_ALGORITHM}')"
            ),
        )
        arg_parser.add_argument(
            "--time-limit",
            type=_finite_number,
            help="seconds an algorithm may spend at most, a safety cap: algorithms stop on "
            "their own work budget, so the plan is the same on every run unless this cap "
            f"stops one first (then a warning says so; default: {DEFAULT_TIME_LIMIT:g})",
        )
        arg_parser.add_argument(
            "--effort",
            type=_finite_number,
            help="scales the work budget of the planning algorithm (search nodes, greedy "
            f"orders, climb rounds; default: {DEFAULT_EFFORT:g})",
        )
        arg_parser.add_argument(
            "--fill",
            choices=("first", "traffic"),
            help="which buffers a size-hinted pool holds: first (TVM's rule, the default: "
            "the first candidate with room) or traffic (those serving the most bytes read "
            "and written per byte, fastest pool first)",
        )
        arg_parser.add_argument(
            "--use-workspace-io",
            action="store_true",
            help="--plan-pools places the entry function's inputs and outputs in the "
            "pool too (tir-io-to-allocations first), as TVM's use_workspace_io did",
        )
        arg_parser.add_argument(
            "--no-reorder",
            action="store_true",
            help="--plan-pools runs the entry's operator calls in the file's order, "
            "without tir-reorder-for-memory (which runs them in the order of least peak "
            "memory, computing the same values)",
        )
        arg_parser.add_argument(
            "--no-in-place",
            action="store_true",
            help="--plan-pools gives every result bytes of its own, without "
            "tir-in-place-results (which writes a result over an input that dies at its "
            "operator where the operator provably computes so)",
        )
        arg_parser.add_argument(
            "--no-band-stages",
            action="store_true",
            help="--plan-pools runs each operator over its whole tensors, without "
            "tir-band-stages (which runs chains of row operators: convolutions, pooling, "
            "elementwise, band by band, their intermediates a few rows, computing the same "
            "values)",
        )
        arg_parser.add_argument(
            "--band-stages",
            action="store_true",
            help="--plan-pools runs tir-band-stages: the default, kept for scripts that name it",
        )
        arg_parser.add_argument(
            "--hoist-workspaces",
            action="store_true",
            help="--plan-pools allocates each operator's workspaces at its call sites, one "
            "buffer per call (tir-hoist-workspaces first), instead of once for all calls",
        )

        arg_parser.add_argument(
            "--pools",
            metavar="SPEC",
            help="--plan-pools adds these pools (usmp-assign-pools): comma-separated "
            "name[:key=value]..., keys kind, size_hint (256K), alignment, targets (c|llvm) "
            "and TVM's descriptive properties; e.g. 'sram:size_hint=256K,dram'",
        )

        arg_parser.add_argument(
            "--elide-constants",
            action="store_true",
            help="print the module without its constants' bytes (the dialect_resources "
            "section), for reading: it does not parse again (MLIR: "
            "--mlir-elide-resource-strings-if-larger)",
        )
        arg_parser.add_argument(
            "--constant-pool",
            action="store_true",
            help="--plan-pools places the entry's constants (bound weights, params bound by "
            "--import-tvmscript --params) in a constant pool: an unrestricted "
            "@global_constant unless --pools or the input declares one "
            "(usmp-assign-pools{constant-pool=true})",
        )

    def _replace_help_and_version(self, arg_parser: argparse.ArgumentParser) -> None:
        """This tool's `--help` (its passes, targets, algorithms first) and `--version`
        replace xDSL's; `--help-all` shows every flag and pass."""
        inherited = list(arg_parser._actions)
        for action in inherited:
            if action.dest == "input_file":
                action.help = ".mlir or .csv file (default, or -: standard input)"
            elif action.dest == "passes":
                action.help = "a pass pipeline, e.g. 'memref-to-usmp,usmp-plan{algorithm=exact}'"
            elif action.dest == "target":
                action.help = f"what to print: {', '.join(self.available_targets)}"
            elif action.dest == "output_file":
                action.help = "output file, written once all succeeded (default: stdout)"
            elif action.dest == "version":
                action.help = "print the versions of usmp-dialect, xDSL and Apache TVM"
                action.version_format = LazyVersionText("usmp-opt")  # type: ignore[attr-defined]
        arg_parser.print_help = partial(  # type: ignore[method-assign]
            print_help,
            arg_parser,
            list(self.available_targets),
            list(self.available_passes),
            inherited,
            full=False,
        )
        arg_parser.add_argument(
            "--help-all", action=HelpAllAction, help="show the help with xDSL's passes and flags"
        )

    def setup_pipeline(self):
        args = self.args
        if args.elide_constants and parse_spec(args.target).name != "mlir":
            _usage_error("--elide-constants goes with the mlir output (-t mlir)")
        if args.input_file == "-":
            args.input_file = None
        self._check_target_options()
        if not args.plan_pools and (
            args.algorithm
            or args.time_limit is not None
            or args.effort is not None
            or args.fill is not None
            or args.use_workspace_io
            or args.hoist_workspaces
            or args.no_reorder
            or args.no_in_place
            or args.band_stages
            or args.no_band_stages
            or args.pools is not None
        ):
            _usage_error(
                "--algorithm, --time-limit, --effort, --fill, --use-workspace-io, "
                "--hoist-workspaces, --no-reorder, --no-in-place, --band-stages, "
                "--no-band-stages and --pools go with --plan-pools (or write -p "
                "'tir-hoist-workspaces,tir-io-to-allocations,...,usmp-assign-pools"
                '{pools="SPEC"},usmp-plan{algorithm=NAME time-limit=SECONDS effort=N}\')'
            )
        if args.band_stages and args.no_band_stages:
            _usage_error("use either --band-stages or --no-band-stages, not both")
        if args.constant_pool and not args.plan_pools:
            _usage_error(
                "--constant-pool goes with --plan-pools (or write -p "
                "'...,usmp-assign-pools{constant-pool=true},...')"
            )
        if args.plan_pools and args.passes:
            _usage_error("use either --plan-pools or -p, not both")
        if args.plan_pools:
            try:
                args.passes = plan_pools_pipeline(
                    args.algorithm or DEFAULT_ALGORITHM,
                    DEFAULT_TIME_LIMIT if args.time_limit is None else args.time_limit,
                    lower=not args.target.startswith(PLAN_TARGETS),
                    workspace_io=args.use_workspace_io,
                    hoist_workspaces=args.hoist_workspaces,
                    reorder=not args.no_reorder,
                    in_place=not args.no_in_place,
                    band_stages=not args.no_band_stages,
                    effort=DEFAULT_EFFORT if args.effort is None else args.effort,
                    fill=args.fill or "first",
                    pools=self._checked_pools(),
                    constant_pool=args.constant_pool,
                    instance=self._reads_an_instance(),
                )
            except ValueError as error:
                _usage_error(f"--plan-pools: {error}")
        try:
            check_pass_options(self.available_passes, args.passes)
            super().setup_pipeline()
        except ValueError as error:
            _usage_error(f"invalid pass pipeline '{args.passes}': {error}")
        _warn_of_unmade_in_place(self.pipeline.passes)
        callback = self._verify_at_the_ends() if args.plan_pools else self.pipeline.callback
        if args.disable_verify:
            callback = self._verify_what_is_read(callback)
        self.pipeline = dataclasses.replace(self.pipeline, callback=_located_verification(callback))

    def _verify_what_is_read(
        self, callback: PassPipelineCallbackType | None
    ) -> PassPipelineCallbackType:
        """`--disable-verify` skips the verification of what the passes give, as
        mlir-opt's `--verify-each=false` does: the input is verified still, as mlir-opt
        verifies what it parses, before a pass or a target reads it (each assumes ops
        that verify). Only an input printed back as it is may fail, and it prints in
        generic form, as mlir-opt prints an op that fails its verifier."""
        reads_input = self.args.target != "mlir"
        generic = self.args.print_op_generic

        def callback_verifying_input(
            previous: ModulePass | None, module: ModuleOp, next: ModulePass | None
        ):
            if previous is None and (next is not None or reads_input):
                module.verify()
            elif previous is None:
                self.args.print_op_generic = generic or not _verifies(module)
            if callback is not None:
                callback(previous, module, next)

        return callback_verifying_input

    def _verify_at_the_ends(self) -> PassPipelineCallbackType:
        """The `--plan-pools` callback: the input and the planned module are verified once
        each, not after every pass (on a 62k-buffer trace one verification costs about as
        much as the planning); `--time-passes` times the passes and both verifications."""
        args = self.args
        started = time.perf_counter()

        def callback(previous: ModulePass | None, module: ModuleOp, next: ModulePass | None):
            nonlocal started
            if args.time_passes and previous is not None:
                print(f"Pass {previous.name} took {time.perf_counter() - started} seconds")
            if (previous is None or next is None) and not args.disable_verify:
                began = time.perf_counter()
                module.verify()
                if args.time_passes:
                    what = "input" if previous is None else "planned module"
                    print(f"Verification of the {what} took {time.perf_counter() - began} seconds")
            if previous is not None and next is not None and args.print_between_passes:
                print(f"IR after {previous.name}:")
                Printer(stream=sys.stdout).print_op(module)
                print("\n\n\n")
            started = time.perf_counter()

        return callback

    def _checked_pools(self) -> str:
        """The --pools spec, checked before it goes into the pipeline's text."""
        if self.args.pools is None:
            return ""
        from usmp_dialect.transforms.usmp_assign_pools import parse_pool_spec

        parse_pool_spec(self.args.pools)
        return self.args.pools

    def _check_target_options(self) -> None:
        """Built once before any input is read, so a bad option costs no planning run."""
        spec = parse_spec(self.args.target)
        factory = self.available_targets[spec.name]
        if inspect.signature(factory).parameters:
            return  # a legacy target, a function of (module, output) without options
        target = cast(Callable[[], type[Target]], factory)()
        try:
            target.from_spec(spec)
        except ValueError as error:
            _usage_error(f"invalid target '{self.args.target}': {error}")

    def _reads_an_instance(self) -> bool:
        """Whether the input is a benchmark instance (`-f csv`, or a `.csv` file)."""
        if self.args.frontend:
            return parse_spec(self.args.frontend).name == "csv"
        return Path(self.args.input_file or STDIN_NAME).suffix == ".csv"

    def get_input_name(self) -> str:
        return self.args.input_file or STDIN_NAME

    def get_input_stream(self) -> tuple[IO[bytes], str]:
        """The whole input (`-` or none: standard input), checked not to be empty."""
        from usmp_dialect.formats.resources import ReadInput, read_all

        try:
            stream, extension = super().get_input_stream()
        except OSError as error:
            _usage_error(f"cannot read '{self.args.input_file}': {error.strerror}")
        with stream:
            if extension in IMPORTED_FIRST and not self.args.frontend:
                what, flag = IMPORTED_FIRST[extension]
                raise LocatedError(
                    f"usmp-opt reads .mlir and .csv; import {what} first: usmp-translate "
                    f"{flag} {self.args.input_file} | usmp-opt --plan-pools",
                    self.args.input_file,
                )
            data = read_all(stream)
            mlir = (self.args.frontend or extension) == "mlir"
            check_not_empty(data, self.get_input_name(), mlir)
        return cast(IO[bytes], ReadInput(data)), extension

    def prepare_input(self) -> tuple[list[tuple[IO[bytes], int]], str]:
        try:
            return super().prepare_input()
        except ValueError as error:
            _usage_error(f"{error} (expected .mlir or .csv)")

    def parse_chunk(
        self, chunk: IO[bytes], file_extension: str, start_offset: int = 0
    ) -> ModuleOp | None:
        if (self.args.frontend or file_extension) != "mlir":
            return super().parse_chunk(chunk, file_extension, start_offset)
        from usmp_dialect.formats.resources import read_all
        from usmp_dialect.parsing import LocatingParser

        data = read_all(chunk)
        if holds_only_comments(data):
            # A --split-input-file chunk with no operations (the whole input has some), as
            # after a trailing separator: mlir-opt's empty module, where xDSL's parser fails.
            if self.args.no_implicit_module:
                raise LocatedError(
                    "source must contain a single top-level operation, found: 0",
                    f"{self.get_input_name()}:{start_offset + 1}:1",
                )
            return ModuleOp([])
        parser = LocatingParser(self.ctx, data, self.get_input_name(), line_offset=start_offset)
        return parser.parse_module(not self.args.no_implicit_module)

    def output_resulting_program(self, prog: ModuleOp) -> str:
        if self.args.target.startswith(PLAN_TARGETS) and not self._planned(prog):
            raise LocatedError(
                "the input has no plan: plan it with --plan-pools (usmp-opt "
                f"{self.args.input_file or '-'} --plan-pools -t {self.args.target}) or a -p "
                "pipeline with usmp-plan",
                self.get_input_name(),
            )
        text = super().output_resulting_program(prog)
        if parse_spec(self.args.target).name != "mlir":
            return text
        from usmp_dialect.parsing import resources_pieces

        # The blobs the module names after it, a blob's hex made as it is written out
        # rather than gathered into one text with the module's.
        self._output.write(text)
        self._output.write_pieces(resources_pieces(prog, self.args.elide_constants))
        return ""

    def _planned(self, module: ModuleOp) -> bool:
        """Whether the module holds a plan: the planner ran on it (here or before), or it
        declares its pools."""
        from usmp_dialect.dialects.usmp import PLAN_ATTR, PoolOp

        return (
            PLAN_ATTR in module.attributes
            or any(isinstance(op, PoolOp) for op in module.ops)
            or any(p.name == "usmp-plan" for p in self.pipeline.passes)
        )

    def prepare_output(self) -> IO[str]:
        # Held back until every chunk has been processed, so that a failure leaves no
        # half-written output behind. Diagnostics checked by --verify-diagnostics stay in
        # order with the output they belong to.
        if self.args.verify_diagnostics and self.args.output_file is None:
            self._output: _HeldOutput | _Direct = _Direct()
            return sys.stdout
        self._held_output = self._output = _HeldOutput()
        return self._held_output

    def run(self):
        self._held_output = None
        super().run()
        if self._held_output is None:
            return
        write_output(self.args.output_file, self._held_output.pieces())


def _located_verification(callback: PassPipelineCallbackType | None):
    """The pipeline's verification, with a failure pointing at the op that failed."""

    def verify(previous: ModulePass | None, module: ModuleOp, next: ModulePass | None):
        if callback is None:
            return
        try:
            callback(previous, module, next)
        except VerifyException as error:
            raise with_location(error, module) from error

    return verify


def _verifies(module: ModuleOp) -> bool:
    try:
        module.verify()
    except VerifyException:
        return False
    return True


class _HeldOutput(StringIO):
    """The output until the run succeeds; pieces made only as they are written out (a
    blob's hex) are kept as the generators that make them."""

    def __init__(self) -> None:
        super().__init__()
        self._before: list[Iterable[str | bytes]] = []

    def write_pieces(self, pieces: Iterable[str | bytes]) -> None:
        self._before += [[self.getvalue()], pieces]
        self.seek(0)
        self.truncate()

    def pieces(self) -> Iterator[str | bytes]:
        for part in self._before:
            yield from part
        yield self.getvalue()

    def close(self) -> None:
        """Kept open: `run` writes the text out once everything succeeded."""


class _Direct:
    """Standard output, written as it comes (`--verify-diagnostics` without `-o`)."""

    def write(self, text: str) -> None:
        sys.stdout.write(text)

    def write_pieces(self, pieces: Iterable[str | bytes]) -> None:
        for piece in pieces:
            sys.stdout.write(piece if isinstance(piece, str) else piece.decode("ascii"))


def main(argv: Sequence[str] | None = None) -> int:
    with report_user_errors("usmp-opt") as context, terminal_progress("usmp-opt") as line:
        with attribute_verification_kept():
            tool = UsmpOptMain(args=argv)
        context.input_name = tool.get_input_name()
        shown = PLANNING_PROGRESS.set(None if line is None else line.search)
        try:
            tool.run()
        finally:
            PLANNING_PROGRESS.reset(shown)
    return 0


if __name__ == "__main__":
    sys.exit(main())
