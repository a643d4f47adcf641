"""Several planned models in one C library that run one after another
(`usmp-translate --emit-c-models`): one workspace, the largest model's, and each model's
outputs those of its own library."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

tvm = pytest.importorskip("tvm")
pytestmark = pytest.mark.tvm

from int8_tflite import (  # noqa: E402
    int8_cnn_tflite,
    int8_requantize_tflite,
    large_activations_tflite,
)
from wheel_models import wheel_model_path  # noqa: E402

from tests.support import c_check  # noqa: E402
from usmp_dialect.parsing import parse_module  # noqa: E402
from usmp_dialect.tvm.c import library as c_library  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
TRANSLATE = [sys.executable, str(ROOT / "tools" / "usmp-translate")]
OPT = [sys.executable, str(ROOT / "tools" / "usmp-opt")]


def _planned(tflite: bytes, directory: Path, name: str) -> Path:
    model, planned = directory / f"{name}.tflite", directory / f"{name}.mlir"
    model.write_bytes(tflite)
    imported = subprocess.run(
        [*TRANSLATE, "--import-tflite", str(model)], check=True, capture_output=True
    ).stdout
    subprocess.run(
        [*OPT, "--plan-pools", "--use-workspace-io", "--constant-pool", "-o", str(planned)],
        input=imported,
        check=True,
    )
    return planned


def _refused(flags: list[str], library: Path) -> list[str]:
    """What `--emit-c-models` says when it refuses `flags` (exit status 1, no library)."""
    done = subprocess.run(
        [*TRANSLATE, "--emit-c-models", str(library), *flags], capture_output=True, text=True
    )
    assert done.returncode == 1 and not library.exists()
    return done.stderr.splitlines()


def _interface(path: Path, name: str) -> c_library.Interface:
    module = parse_module(path.read_bytes(), str(path))
    return c_library.interface(module, c_library.check_module(module), name)


def _main(interfaces: list[c_library.Interface]) -> str:
    """Runs a, then b, then a again, each on its inputs filled with a fixed pattern (a's
    again after b overwrote the workspace), and prints every output byte in hex."""

    def run(i: c_library.Interface) -> list[str]:
        m = i.model
        fill = [
            f"  for (int k = 0; k < {t.nbytes}; ++k) ((uint8_t*){m}_in.{t.ident})[k] = "
            "(uint8_t)(k * 37 + 11);"
            for t in i.inputs
        ]
        show = [
            f'  for (int k = 0; k < {t.nbytes}; ++k) printf("%02x", '
            f'((uint8_t*){m}_out.{t.ident})[k]);\n  printf("\\n");'
            for t in i.outputs
        ]
        return [
            f"  {{ struct {m}_workspace_pools {m}_pools = models_{m}_pools();",
            f"  struct {m}_inputs {m}_in = {m}_map_inputs(&{m}_pools);",
            f"  struct {m}_outputs {m}_out = {m}_map_outputs(&{m}_pools);",
            *fill,
            f"  if ({m}_run(&{m}_pools, NULL) != 0) return 1;",
            *show,
            "  }",
        ]

    a, b = interfaces
    body = [*run(a), *run(b), *run(a)]
    return "\n".join(
        ["#include <stdio.h>", '#include "models.h"', "int main(void) {", *body, "  return 0;", "}"]
    )


def _ran(library: Path, main: str) -> str:
    """What `main` (a main.c beside the library) prints, built with the library's C."""
    (library / "main.c").write_text(main)
    sources = sorted(str(p) for p in library.glob("*.c"))
    image = library / "main"
    subprocess.run(
        ["cc", "-std=c11", "-Wall", "-Werror", "-O2", "-o", str(image), *sources, "-lm"],
        check=True,
    )
    return subprocess.run([str(image)], check=True, capture_output=True, text=True).stdout


def _alone(path: Path, interface: c_library.Interface, directory: Path) -> list[str]:
    """The outputs of the model's own library on the same pattern, in hex."""
    subprocess.run(
        [*TRANSLATE, "--emit-c", str(directory), str(path), "--model-name", interface.model],
        check=True,
    )
    c_check.build(str(directory))
    inputs = {
        t.name: ((np.arange(t.nbytes) * 37 + 11) % 256).astype(np.uint8).view(t.dtype)
        for t in interface.inputs
    }
    outputs = c_check.run(str(directory), interface, inputs)
    return [
        np.ascontiguousarray(outputs[t.name]).view(np.uint8).tobytes().hex()
        for t in interface.outputs
    ]


@pytest.mark.slow
def test_models_share_one_workspace_and_compute_as_alone(tmp_path: Path) -> None:
    c_check.require_tools(qemu=False)
    paths = {
        "cnn": _planned(int8_cnn_tflite(), tmp_path, "cnn"),
        "relu": _planned(large_activations_tflite(size=16), tmp_path, "relu"),
    }
    interfaces = [_interface(path, name) for name, path in paths.items()]
    library = tmp_path / "library"
    flags = [f"--model={name}={path}" for name, path in paths.items()]
    subprocess.run([*TRANSLATE, "--emit-c-models", str(library), *flags], check=True)
    sizes = [sum(p.size for p in i.workspace_pools) for i in interfaces]
    header = (library / "models.h").read_text()
    assert f"#define MODELS_WORKSPACE_SIZE {max(sizes)}" in header
    first, relu, again = _ran(library, _main(interfaces)).splitlines()
    assert first == again
    cnn_alone = _alone(paths["cnn"], interfaces[0], tmp_path / "cnn_alone")
    relu_alone = _alone(paths["relu"], interfaces[1], tmp_path / "relu_alone")
    assert [first] == cnn_alone and [relu] == relu_alone


def test_colliding_names_are_one_diagnostic(tmp_path: Path) -> None:
    """kws and KWS would write the same macros: said before any file is read."""
    planned = tmp_path / "kws.mlir"
    flags = [f"--model=kws={planned}", f"--model=KWS={planned}"]
    assert _refused(flags, tmp_path / "library") == [
        f"{planned}: error: two models are named 'KWS' ({planned} too; the macros are in "
        "capitals): give each its own"
    ]


PIPELINE_MAIN = r"""
#include <stdio.h>
#include <string.h>
#include "models.h"
int main(void) {
  struct first_workspace_pools a = models_first_pools();
  struct second_workspace_pools b = models_second_pools();
  struct first_inputs a_in = first_map_inputs(&a);
  struct first_outputs a_out = first_map_outputs(&a);
  struct second_outputs b_out = second_map_outputs(&b);
  float x = 0.75f, piped, twice;
  memcpy(a_in.INPUT, &x, sizeof x);
  if (first_run(&a, NULL) != 0 || second_run(&b, NULL) != 0) return 1;
  memcpy(&piped, b_out.OUTPUT, sizeof piped);
  /* The same model twice with a copy between: what the pipeline saves. */
  memcpy(a_in.INPUT, &x, sizeof x);
  if (first_run(&a, NULL) != 0) return 1;
  memcpy(a_in.INPUT, a_out.OUTPUT, sizeof x);
  if (first_run(&a, NULL) != 0) return 1;
  memcpy(&twice, a_out.OUTPUT, sizeof twice);
  printf("%a %a\n", piped, twice);
  return 0;
}
"""


@pytest.mark.slow
def test_pipeline_hands_outputs_over_in_place(tmp_path: Path) -> None:
    """The sine model twice as a pipeline: the second reads the first's output where the
    first wrote it, and computes what the model applied twice with a copy between does;
    models whose outputs and inputs differ are one diagnostic."""
    c_check.require_tools(qemu=False)
    sine = wheel_model_path("sine-tflite")
    assert sine is not None, "pip install -e '.[test]' (tflite-micro)"
    planned = _planned(Path(sine).read_bytes(), tmp_path, "sine")
    interface = _interface(planned, "first")
    library = tmp_path / "library"
    flags = [f"--model=first={planned}", f"--model=second={planned}", "--pipeline"]
    subprocess.run([*TRANSLATE, "--emit-c-models", str(library), *flags], check=True)
    (output,), (given,) = interface.outputs, interface.inputs
    main = PIPELINE_MAIN.replace("INPUT", given.ident).replace("OUTPUT", output.ident)
    (library / "main.c").write_text(main)
    image = library / "main"
    sources = sorted(str(p) for p in library.glob("*.c"))
    subprocess.run(["cc", "-std=c11", "-O2", "-o", str(image), *sources, "-lm"], check=True)
    piped, twice = subprocess.run(
        [str(image)], check=True, capture_output=True, text=True
    ).stdout.split()
    assert piped == twice
    assert float.fromhex(piped) == pytest.approx(np.sin(np.sin(0.75)), abs=0.1)
    # The model's own library, run on 0.75 and then on what it gave: the same bits.
    alone = tmp_path / "alone"
    subprocess.run(
        [*TRANSLATE, "--emit-c", str(alone), str(planned), "--model-name", "first"], check=True
    )
    c_check.build(str(alone))
    value = np.full(given.shape, 0.75, dtype=np.float32)
    for _ in range(2):
        value = c_check.run(str(alone), interface, {given.name: value})[output.name]
    assert float(value.ravel()[0]).hex() == float.fromhex(piped).hex()
    # Planned as one program: no larger than the second plan shifted so that its input
    # lies on the first's output (what --pipeline did before), here smaller.
    shift = interface.offsets[output.name][1] - interface.offsets[given.name][1]
    (pool,) = interface.workspace_pools
    shifted = max(pool.size, shift + pool.size) - min(0, shift)
    joint = int(re.search(r"MODELS_WORKSPACE_SIZE (\d+)", (library / "models.h").read_text())[1])
    assert joint < shifted

    relu = _planned(large_activations_tflite(size=4), tmp_path, "relu")
    flags = [f"--model=first={planned}", f"--model=relu={relu}", "--pipeline"]
    assert _refused(flags, tmp_path / "bad") == [
        f"{relu}: error: relu cannot take first's outputs: its inputs are [512] bytes, the "
        "outputs [4]"
    ]


@pytest.mark.slow
def test_pipeline_of_other_numbers_is_one_diagnostic(tmp_path: Path) -> None:
    """Outputs of as many bytes as the next model's inputs but of another type (float32
    read as int8), or of another scale, are other numbers: one diagnostic, no library."""
    floats = _planned(large_activations_tflite(size=4, channels=4), tmp_path, "floats")
    scaled = _planned(int8_requantize_tflite(0.1, 0.2), tmp_path, "scaled")
    rescaled = _planned(int8_requantize_tflite(0.3, 0.2), tmp_path, "rescaled")
    flags = [f"--model=floats={floats}", f"--model=ints={scaled}", "--pipeline"]
    assert _refused(flags, tmp_path / "typed") == [
        f"{scaled}: error: ints cannot take floats's outputs: its inputs are ['int8'], the "
        "outputs ['float32']"
    ]
    flags = [f"--model=first={scaled}", f"--model=second={rescaled}", "--pipeline"]
    (line,) = _refused(flags, tmp_path / "scaled")
    assert line.startswith(f"{rescaled}: error: second cannot take first's outputs: input ")
    assert "has scale and zero point (0.3" in line


ALIGNED_POOLS = (
    "builtin.module {\n"
    '  tir.prim_func @main(%small: !tir.buffer<4xui8> {tir.name = "small"}, '
    '%fast: !tir.buffer<16xui8> {tir.name = "fast"}) attributes {runner_function = true, '
    "usmp.pools = #usmp.pool_sizes<small = 4, fast = 16>, "
    "usmp.pool_alignments = {fast = 64 : i64}, "
    'usmp.io_offsets = #usmp.io_offsets<x = input "small"[0] : memref<1xf32>, '
    'y = output "fast"[0] : memref<4xf32>>} {\n'
    "    %0 = arith.constant 0 : i32\n  }\n}\n"
)
"""Model a's and b's planned entry: a pool of 4 bytes, then one of alignment 64."""

ALIGNED_MAIN = r"""
#include <stdint.h>
#include <stdio.h>
#include "models.h"
int main(void) {
  struct a_workspace_pools a = models_a_pools();
  struct b_workspace_pools b = models_b_pools();
  printf("%d %d\n", (int)((uintptr_t)a.fast % 64), (int)((uintptr_t)b.fast % 64));
  return 0;
}
"""


def test_the_shared_workspace_keeps_each_pools_alignment(tmp_path: Path) -> None:
    """A pool of alignment 64 (`usmp.pool_alignments`) after one of 4 bytes in the shared
    workspace starts at a multiple of 64, in every model."""
    c_check.require_tools(qemu=False)
    planned = tmp_path / "aligned.mlir"
    planned.write_text(ALIGNED_POOLS)
    library = tmp_path / "library"
    flags = [f"--model=a={planned}", f"--model=b={planned}"]
    subprocess.run([*TRANSLATE, "--emit-c-models", str(library), *flags], check=True)
    # Where the linker puts the array decides the run's remainders: the source decides them
    # for every placement.
    source = (library / "models.c").read_text()
    assert "models_workspace[80] __attribute__((aligned(64)))" in source
    assert re.findall(r"pools\.fast = &models_workspace\[(\d+)\]", source) == ["64", "64"]
    assert _ran(library, ALIGNED_MAIN) == "0 0\n"


WHOLE_POOL = (
    "builtin.module {\n"
    '  tir.prim_func @main(%ws: !tir.buffer<32xui8> {tir.name = "ws"}) attributes '
    "{runner_function = true, usmp.pools = #usmp.pool_sizes<ws = 32>, "
    'usmp.io_offsets = #usmp.io_offsets<x = input "ws"[0] : memref<1xf32>, '
    'y = output "ws"[16] : memref<1xf32>>} {\n'
    "WHOLE"
    "    %1 = arith.constant 0 : i32\n  }\n"
    '  tir.prim_func @f(%p: !tir.ptr<ui8> {tir.name = "p"}) {\n'
    '    %b = tir.decl_buffer "b" %p : !tir.ptr<ui8> -> !tir.buffer<32xi8>\n'
    "    %v = arith.constant 1 : i8\n    %i = arith.constant 0 : i64\n"
    "    tir.store %v, %b[%i]\n  }\n}\n"
)
"""A planned entry whose input and output are in its pool but no buffer of its body views
them; WHOLE: what else its body does (@f stores into all of the pointer it is given)."""


def test_a_pipeline_needs_every_buffer_a_view_in_the_entry(tmp_path: Path) -> None:
    """The joint plan reads each buffer's lifetime from the entry's views of its pool, and
    from those of a function of the module it is handed to: a pool such a function uses as
    a whole (not through views at constant offsets), or an input no view holds, is one
    diagnostic, and no library."""
    whole, bare = tmp_path / "whole.mlir", tmp_path / "bare.mlir"
    whole.write_text(
        WHOLE_POOL.replace(
            "WHOLE",
            "    %0 = tir.buffer_data %ws : !tir.buffer<32xui8> -> !tir.ptr<ui8>\n"
            "    tir.call @f(%0) : (!tir.ptr<ui8>) -> ()\n",
        )
    )
    bare.write_text(WHOLE_POOL.replace("WHOLE", ""))
    flags = [f"--model=a={whole}", f"--model=b={whole}", "--pipeline"]
    assert _refused(flags, tmp_path / "whole") == [
        f"{whole}: error: a cannot be planned with the other models: @f uses the pool it is "
        "handed as a whole ('tir.store')"
    ]
    flags = [f"--model=a={bare}", f"--model=b={bare}", "--pipeline"]
    assert _refused(flags, tmp_path / "bare") == [
        f"{bare}: error: a cannot be planned with the other models: 'x' is no buffer of its "
        "body in pool 'ws'"
    ]


PAIR_MAIN = r"""
#include <stdio.h>
#include <string.h>
#include "models.h"
int main(void) {
  struct sine_workspace_pools a = models_sine_pools();
  struct relu_workspace_pools b = models_relu_pools();
  struct sine_inputs a_in = sine_map_inputs(&a);
  struct relu_outputs b_out = relu_map_outputs(&b);
  struct sine_outputs a_out = sine_map_outputs(&a);
  struct relu_inputs b_in = relu_map_inputs(&b);
  float x = 2.5f, y;
  memcpy(a_in.INPUT, &x, sizeof x);
  if (sine_run(&a, NULL) != 0 || relu_run(&b, NULL) != 0) return 1;
  memcpy(&y, b_out.OUTPUT, sizeof y);
  printf("%a %d\n", y, (void*)a_out.OUTPUT_A == (void*)b_in.INPUT_B);
  return 0;
}
"""


@pytest.mark.slow
def test_a_pipeline_of_two_models_computes_as_each_alone(tmp_path: Path) -> None:
    """Two different models planned as one program (the sine model, then a RELU on its
    one float): the second's output is what each model's own library computes, one on
    what the other gave."""
    c_check.require_tools(qemu=False)
    sine = wheel_model_path("sine-tflite")
    assert sine is not None, "pip install -e '.[test]' (tflite-micro)"
    paths = {
        "sine": _planned(Path(sine).read_bytes(), tmp_path, "sine"),
        "relu": _planned(large_activations_tflite(size=1, channels=1), tmp_path, "relu"),
    }
    (a, b) = interfaces = [_interface(path, name) for name, path in paths.items()]
    library = tmp_path / "library"
    flags = [f"--model={name}={path}" for name, path in paths.items()]
    subprocess.run([*TRANSLATE, "--emit-c-models", str(library), *flags, "--pipeline"], check=True)
    main = (
        PAIR_MAIN.replace("INPUT_B", b.inputs[0].ident)
        .replace("OUTPUT_A", a.outputs[0].ident)
        .replace("INPUT", a.inputs[0].ident)
        .replace("OUTPUT", b.outputs[0].ident)
    )
    result, same = _ran(library, main).split()
    assert same == "1"  # the RELU reads the sine's output where the sine wrote it
    piped = float.fromhex(result)
    value = np.full(a.inputs[0].shape, 2.5, dtype=np.float32)
    for (name, path), i in zip(paths.items(), interfaces, strict=True):
        alone = tmp_path / f"{name}_alone"
        subprocess.run(
            [*TRANSLATE, "--emit-c", str(alone), str(path), "--model-name", name], check=True
        )
        c_check.build(str(alone))
        given = value.reshape(i.inputs[0].shape)
        value = c_check.run(str(alone), i, {i.inputs[0].name: given})[i.outputs[0].name]
    assert piped == float(value.ravel()[0])
    # sin(2.5) > 0: the RELU keeps it; a wrong hand-over would not give the same bits.
    assert piped == pytest.approx(np.sin(2.5), abs=0.1)


STACK_MAIN = r"""
#include <stdio.h>
#include "models.h"
int main(void) {
  struct front_workspace_pools front = models_front_pools();
  struct classifier_workspace_pools classifier = models_classifier_pools();
  struct front_inputs heard = front_map_inputs(&front);
  struct front_outputs feature = front_map_outputs(&front);
  struct classifier_inputs stack = classifier_map_inputs(&classifier);
  struct classifier_outputs scores = classifier_map_outputs(&classifier);
  /* The newest frame's features are the stack's last: written there, no copy. */
  int8_t* newest = stack.@STACK@ + MODELS_FRONT_STACK_SIZE - @FRAME@;
  if ((void*)feature.@FEATURE@ != (void*)newest) return 2;
  front_init_state(&front);
  while (fread(heard.@AUDIO@, @AUDIO_BYTES@, 1, stdin) == 1) {
    if (models_front_run(&front, NULL) != 0 || classifier_run(&classifier, NULL) != 0) return 1;
    fwrite(scores.@SCORES@, @SCORES_BYTES@, 1, stdout);
  }
  return 0;
}
"""


@pytest.mark.slow
def test_micro_speech_stacks_49_frames_for_its_classifier(tmp_path: Path) -> None:
    """micro_speech as a pipeline: the audio front end run once a 20 ms frame writes its
    40 features at the end of a stack of the last 49 frames (oldest first, as micro_speech
    lays them out), which the classifier reads in place; over a second and a half of audio,
    classified after every frame, the scores are TFLM's with the stacking done as
    micro_speech does it (the front end's and the classifier's interpreters, each frame's
    features appended to the 49 before, the oldest dropped)."""
    c_check.require_tools(qemu=False)
    pytest.importorskip("tflite_micro")
    from test_tflm_signal import DATA, FRAME, STRIDE, _second_of_audio
    from tflite_micro.python.tflite_micro import runtime

    from usmp_dialect.pipeline import plan_pools, plan_pools_pipeline
    from usmp_dialect.tvm.c.models import models_files
    from usmp_dialect.tvm.model_files.loading import import_model_file

    paths = {
        "front": DATA / "audio_preprocessor_int8.tflite",
        "classifier": DATA / "micro_speech_quantized.tflite",
    }
    models, alone = [], []
    for name, path in paths.items():
        module = import_model_file(str(path), "tflite")
        plan_pools(module, plan_pools_pipeline(workspace_io=True, constant_pool=True))
        interface = c_library.interface(module, c_library.check_module(module), name)
        alone.append(interface.workspace_pools[0].size)
        models.append((name, module, str(path)))
    files = models_files(models, pipeline=True, stacks={"front": 49})
    library = tmp_path / "library"
    library.mkdir()
    for file, text in files.items():
        (library / file).write_text(text)
    front, classifier = (
        c_library.interface(module, c_library.check_module(module), name)
        for name, module, _ in models
    )
    main = STACK_MAIN
    for word, value in {
        "FEATURE": front.outputs[0].ident,
        "STACK": classifier.inputs[0].ident,
        "FRAME": str(front.outputs[0].nbytes),
        "AUDIO_BYTES": str(front.inputs[0].nbytes),
        "AUDIO": front.inputs[0].ident,
        "SCORES_BYTES": str(classifier.outputs[0].nbytes),
        "SCORES": classifier.outputs[0].ident,
    }.items():
        main = main.replace(f"@{word}@", value)
    (library / "main.c").write_text(main)
    sources = sorted(str(p) for p in library.glob("*.c"))
    image = library / "main"
    flags = ["-std=c11", "-Wall", "-Werror", "-O2"]
    subprocess.run(["cc", *flags, "-o", str(image), *sources, "-lm"], check=True)
    audio = _second_of_audio()
    audio = np.concatenate([audio, audio[::-1][: audio.size // 2]])  # then half a second more
    frames = [audio[i : i + FRAME][None] for i in range(0, audio.size - FRAME + 1, STRIDE)]
    done = subprocess.run(
        [str(image)], input=b"".join(f.tobytes() for f in frames), capture_output=True
    )
    assert done.returncode == 0, done.stderr
    ours = np.frombuffer(done.stdout, np.int8).reshape(len(frames), -1)

    heard = runtime.Interpreter.from_file(str(paths["front"]))
    scored = runtime.Interpreter.from_file(str(paths["classifier"]))
    features = np.zeros((49, 40), np.int8)
    theirs = []
    for frame in frames:
        heard.set_input(frame, 0)
        heard.invoke()
        features = np.concatenate([features[1:], heard.get_output(0).reshape(1, 40)])
        scored.set_input(features.reshape(1, -1), 0)
        scored.invoke()
        theirs.append(scored.get_output(0).ravel().copy())
    assert len(frames) == 74  # a second is 49 frames: the stack rolls over 25 more
    np.testing.assert_array_equal(ours, np.stack(theirs))
    assert len({t.tobytes() for t in theirs}) > 10  # the scores follow the audio
    # The front end's buffers share bytes with the classifier's; the stack with none.
    joint = int(re.search(r"MODELS_WORKSPACE_SIZE (\d+)", files["models.h"])[1])
    assert joint < sum(alone)


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--stack", "a=49"], "--stack is an option of --pipeline: nothing else is planned"),
        (
            ["--algorithm", "exact"],
            "--algorithm is an option of --pipeline: nothing else is planned",
        ),
        (["--pipeline", "--algorithm", "nope"], "unknown planning algorithm 'nope' (available: "),
        (["--pipeline", "--time-limit", "0"], "--time-limit must be a positive number, got 0"),
        (
            ["--pipeline", "--stack", "b=49"],
            "--stack must be NAME=RUNS, NAME a --model before the ",
        ),
        (["--pipeline", "--stack", "a=1"], "--stack must be NAME=RUNS, NAME a --model before the "),
        (["--pipeline", "--stack", "a=2", "--stack", "a=3"], "--stack 'a' is given twice"),
    ],
)
def test_planning_options_of_a_pipeline(flags: list[str], message: str, tmp_path: Path) -> None:
    """--stack, --algorithm and --time-limit plan a pipeline: anything else, or a wrong
    value, is one diagnostic before any model is read."""
    models = ["--model=a=a.mlir", "--model=b=b.mlir"]
    (line,) = _refused([*models, *flags], tmp_path / "library")
    assert line.startswith(f"usmp-translate: error: {message}")
