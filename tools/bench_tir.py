"""Time the TIR path on a generated model of N operators, each with a workspace:

    python tools/bench_tir.py [--operators 200]

Steps timed in one process: TVM parses the TVMScript, import into the `tir` dialect,
plan (`--plan-pools` pipeline), emit back to TVM, and print TVMScript. Prints the planned
pool size beside max-live and the sum of all allocations.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from xdsl.passes import PassPipeline

from usmp_dialect.parsing import usmp_context
from usmp_dialect.pipeline import plan_pools_pipeline
from usmp_dialect.reports.report import plan_report
from usmp_dialect.universe import USMP_UNIVERSE


def operator(index: int, width: int) -> str:
    return f"""
    @T.prim_func(private=True)
    def op{index}(x_ptr: T.handle("float32"), y_ptr: T.handle("float32")):
        T.func_attr({{"tirx.noalias": True}})
        x = T.decl_buffer(({width},), "float32", data=x_ptr)
        y = T.decl_buffer(({width},), "float32", data=y_ptr)
        w = T.alloc_buffer(({width},), "float32")
        for i in T.serial({width}):
            w[i] = x[i] * T.float32({index % 7 + 1})
        for i in T.serial({width}):
            y[i] = w[i] + x[i]
"""


def model(operators: int) -> str:
    parts = ["@I.ir_module\nclass Module:"]
    parts += [operator(i, 64) for i in range(operators)]
    body = [
        "    @T.prim_func",
        '    def main(inp: T.Buffer((64,), "float32"), out: T.Buffer((64,), "float32")):',
        '        T.func_attr({"global_symbol": "main", "runner_function": True, '
        '"tirx.noalias": True})',
    ]
    previous = "inp"
    for i in range(operators - 1):
        body.append(f'        t{i} = T.alloc_buffer((64,), "float32")')
        body.append(f"        Module.op{i}({previous}.data, t{i}.data)")
        previous = f"t{i}"
    body.append(f"        Module.op{operators - 1}({previous}.data, out.data)")
    return "\n".join(parts + body) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--operators", type=int, default=200)
    args = parser.parse_args()

    began = time.perf_counter()
    import tvm

    from usmp_dialect.tvm.tvmscript.emitter import emit_module
    from usmp_dialect.tvm.tvmscript.importer import import_module

    timings = {"import tvm": time.perf_counter() - began}
    steps = time.perf_counter()
    source = model(args.operators)
    tvm_module = tvm.script.from_source(source)
    timings["TVM parses TVMScript"] = time.perf_counter() - steps
    steps = time.perf_counter()
    module = import_module(tvm_module)
    timings["TVM -> tir dialect"] = time.perf_counter() - steps
    steps = time.perf_counter()
    pipeline = PassPipeline.parse_spec(USMP_UNIVERSE.all_passes, plan_pools_pipeline(lower=False))
    pipeline.apply(usmp_context(), module)
    report = plan_report(module)
    timings["plan (tir-to-usmp, usmp-plan)"] = time.perf_counter() - steps
    steps = time.perf_counter()
    PassPipeline.parse_spec(USMP_UNIVERSE.all_passes, "usmp-to-tir").apply(usmp_context(), module)
    timings["usmp-to-tir"] = time.perf_counter() - steps
    steps = time.perf_counter()
    planned = emit_module(module)
    timings["tir dialect -> TVM"] = time.perf_counter() - steps
    steps = time.perf_counter()
    planned.script()
    timings["print TVMScript"] = time.perf_counter() - steps

    pool = report["pools"][0]
    total = sum(b["size"] for b in report["buffers"])
    print(f"{args.operators} operators, {len(report['buffers'])} planned buffers")
    for step, seconds in timings.items():
        print(f"  {step:<32}{seconds:8.3f} s")
    print(
        f"  pool {pool['size']} bytes, max-live {report['max_live']} bytes, "
        f"sum of allocations {total} bytes"
    )


if __name__ == "__main__":
    main()
