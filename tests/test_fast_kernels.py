"""The C library's int8 kernels (`usmp_dialect/tvm/fast_kernels.py`,
`kernels/int8_kernels.c`): one int8 operator a `.tflite` (tests/int8_tflite.py, a residual
block of tests/quantized_operator_tflite.py), written
by `--emit-c`, equals TensorFlow Lite Micro's interpreter (the `tflite-micro` wheel) to the
bit on this machine; on QEMU's Cortex-M55 the Helium path gives the portable path's bytes;
an operator the kernels do not cover keeps TVM's loops and the library says so."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

tvm = pytest.importorskip("tvm")
pytest.importorskip("tflite")

from tests.support import c_check  # noqa: E402
from usmp_dialect.pipeline import plan_pools, plan_pools_pipeline  # noqa: E402
from usmp_dialect.tvm.c import bundle as c_bundle  # noqa: E402
from usmp_dialect.tvm.c import library as c_library  # noqa: E402
from usmp_dialect.tvm.fast_kernels import portable_operators  # noqa: E402
from usmp_dialect.tvm.model_files.loading import import_model_file  # noqa: E402

ROOT = Path(__file__).parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from int8_tflite import int8_kernel_tflite  # noqa: E402
from quantized_operator_tflite import (  # noqa: E402
    global_average_pool_tflite,
    quantized_operator_tflite,
    residual_add_tflite,
)

pytestmark = pytest.mark.tvm


def _library(tmp_path: Path, tflite: bytes) -> tuple[Path, c_library.Interface, str]:
    """The `.tflite` planned and written as a C library: its directory, interface, C."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    path = tmp_path / "model.tflite"
    path.write_bytes(tflite)
    module = import_model_file(str(path), "tflite")
    plan_pools(module, plan_pools_pipeline(constant_pool=True))
    directory = tmp_path / "lib"
    c_bundle.write_library(module, str(directory), "model")
    entry = c_library.check_module(module)
    interface = c_library.interface(module, entry, "model")
    return directory, interface, (directory / "model.c").read_text()


def _tflm(tflite: Path, x: np.ndarray) -> np.ndarray:
    from tflite_micro.python.tflite_micro import runtime

    interpreter = runtime.Interpreter.from_file(str(tflite))
    interpreter.set_input(x, 0)
    interpreter.invoke()
    return interpreter.get_output(0)


def _input(interface: c_library.Interface, seed: int) -> dict[str, np.ndarray]:
    (tensor,) = interface.inputs
    rng = np.random.default_rng(seed)
    return {tensor.name: rng.integers(-128, 128, tensor.shape).astype(np.int8)}


def _kernel(**options: object) -> Callable[[], bytes]:
    return lambda: int8_kernel_tflite(**options)  # type: ignore[arg-type]


COVERED = {
    "conv same": _kernel(kind="conv"),
    "conv valid stride 2 per-tensor": _kernel(kind="conv", stride=2, padding=1, per_channel=False),
    "conv no bias relu": _kernel(kind="conv", bias=False, activation=1),
    "depthwise stride 2": _kernel(kind="depthwise", stride=2),
    "depthwise multiplier 4": _kernel(kind="depthwise", depth_multiplier=4),
    "dense rows": _kernel(kind="dense", keep_num_dims=True),
    "pointwise": _kernel(kind="pointwise", activation=1),
    "residual add": residual_add_tflite,
    "average pool same": lambda: quantized_operator_tflite("average_pool"),
    "global average pool relu": global_average_pool_tflite,
}


@pytest.mark.slow
@pytest.mark.parametrize("model", COVERED.values(), ids=COVERED.keys())
def test_kernel_equals_tflm(tmp_path: Path, model: Callable[[], bytes]) -> None:
    """Each covered operator is a call of a kernel, and its output TFLM's to the bit."""
    pytest.importorskip("tflite_micro")
    c_check.require_tools(qemu=False)
    directory, interface, source = _library(tmp_path, model())
    assert not [op for op in portable_operators(source) if re.search("conv|connected|add|pool", op)]
    assert "usmp_kernel_0(" in source
    c_check.build(str(directory))
    for seed in (0, 1):
        inputs = _input(interface, seed)
        (ours,) = c_check.run(str(directory), interface, inputs).values()
        theirs = _tflm(tmp_path / "model.tflite", next(iter(inputs.values())))
        np.testing.assert_array_equal(ours.reshape(theirs.shape), theirs)


UNCOVERED = {
    "grouped conv": _kernel(kind="conv", groups=2),
    "dilation 2": _kernel(kind="conv", dilation=2),
    "broadcast add": lambda: quantized_operator_tflite("add_broadcast"),
}


@pytest.mark.parametrize("model", UNCOVERED.values(), ids=UNCOVERED.keys())
def test_uncovered_operator_keeps_tvm_loops(tmp_path: Path, model: Callable[[], bytes]) -> None:
    """An operator the kernels do not compute keeps TVM's loops, named in the library's
    first comments."""
    _, _, source = _library(tmp_path, model())
    assert len(portable_operators(source)) == 1
    assert "usmp_kernel_0(" not in source


@pytest.mark.slow
def test_helium_gives_the_portable_bytes_on_the_m55(tmp_path: Path) -> None:
    """On QEMU's Cortex-M55 the Helium kernels (padding, stride 2, a channel tail; a conv's
    window copied into its im2col, or too wide for it; a depthwise's window rows copied
    padded) and the portable ones
    (`-DUSMP_KERNELS_PORTABLE`) give the same bytes, TFLM's."""
    pytest.importorskip("tflite_micro")
    c_check.require_tools(qemu=True)
    flags = "-std=c11 -Wall -Wextra -Werror -O2 -mcpu=cortex-m55 -mthumb -mfloat-abi=hard"
    cases = {
        "conv": COVERED["conv same"],
        "conv6": _kernel(kind="conv", filters=6, stride=2, per_channel=False),
        "wide": _kernel(kind="conv", in_channels=72, filters=5),
        "depthwise": _kernel(kind="depthwise"),
        # 16 channels a chunk on zero-point-padded window rows: 9 pixels a row (two fours
        # and one), and stride 2 (its windows' offsets not constants).
        "padded": _kernel(kind="depthwise", in_channels=32, activation=1),
        "padded2": _kernel(kind="depthwise", in_channels=16, stride=2),
        "multiplier": COVERED["depthwise multiplier 4"],
        "dense": COVERED["dense rows"],
        "pointwise": COVERED["pointwise"],
        "add": COVERED["residual add"],
        "pool": COVERED["average pool same"],
        "global": COVERED["global average pool relu"],
    }
    _assert_fast_path_is_portable(tmp_path, cases, flags, "m55")


@pytest.mark.slow
def test_dsp_gives_the_portable_bytes_on_the_m4(tmp_path: Path) -> None:
    """On QEMU's Cortex-M4 (MPS2 AN386, `make qemu-m4`) the DSP kernels (SXTB16, SMLAD:
    the matrix product and the conv's im2col of two pixels two rows by two channels a time,
    a tail row, a channel left over, a window too wide for the im2col; SMLAxy: the depthwise
    conv four channels a time, its 3x3 windows inside the input written out, windows cut by
    the padding, a tail of channels or none; one input channel times 8 as a conv) and the portable
    ones give the same bytes, TFLM's."""
    pytest.importorskip("tflite_micro")
    c_check.require_tools(qemu=True)
    from usmp_dialect.tvm.c.runner import M4_FLAGS

    cases = {
        "pointwise": COVERED["pointwise"],
        "dense": COVERED["dense rows"],
        "conv": COVERED["conv same"],
        "conv5": _kernel(kind="conv", filters=5, stride=2, per_channel=False),
        "wide": _kernel(kind="conv", in_channels=72, filters=5),
        "depthwise": COVERED["depthwise stride 2"],
        "depthwise6": _kernel(kind="depthwise", in_channels=6),
        # Two whole groups and no tail: GCC once warned of a bias overrun (-Werror) here.
        "depthwise8": _kernel(kind="depthwise", in_channels=8),
        "channel": _kernel(kind="depthwise", in_channels=1, depth_multiplier=8),
    }
    _assert_fast_path_is_portable(tmp_path, cases, M4_FLAGS, "m4")


def _assert_fast_path_is_portable(
    tmp_path: Path, cases: dict[str, Callable[[], bytes]], flags: str, board: str
) -> None:
    for name, model in cases.items():
        directory, interface, source = _library(tmp_path / name, model())
        assert "usmp_kernel_0(" in source
        inputs = _input(interface, 0)
        outputs = []
        for extra in ("", " -DUSMP_KERNELS_PORTABLE"):
            c_check.build(str(directory), qemu=True, flags=flags + extra, board=board)
            run = c_check.run(str(directory), interface, inputs, qemu=True, board=board)
            outputs.append(next(iter(run.values())))
        theirs = _tflm(tmp_path / name / "model.tflite", next(iter(inputs.values())))
        np.testing.assert_array_equal(outputs[0], outputs[1], err_msg=name)
        np.testing.assert_array_equal(outputs[0].reshape(theirs.shape), theirs, err_msg=name)
