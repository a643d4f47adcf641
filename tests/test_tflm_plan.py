"""A `.tflite` file's tensors planned for TensorFlow Lite Micro and written as its
`OfflineMemoryAllocation` metadata (`usmp-translate --emit-tflite-plan`): TFLM's lifetimes,
the file's bytes kept, and TFLM's own interpreter running the result."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import tflite
from int8_tflite import (
    int8_cnn_tflite,
    mean_relu_tflite,
    scalar_state_tflite,
    while_loop_tflite,
)
from wheel_models import wheel_model_path

from usmp_dialect.planning.budget import Budget
from usmp_dialect.tools.usmp_translate import main as usmp_translate
from usmp_dialect.tvm.tflm.arena import shared_arena, tflm_arena
from usmp_dialect.tvm.tflm.check import check_offline_plan
from usmp_dialect.tvm.tflm.offline_plan import METADATA_NAME, offline_plan, with_offline_plan
from usmp_dialect.tvm.tflm.plan import (
    ARENA_ALIGNMENT,
    operator_scratch,
    plan_for_tflm,
    planned_tflite,
    tflm_tensors,
)


def _planned(data: bytes) -> tuple[np.ndarray, int]:
    tensors = tflm_tensors(data, "model.tflite")
    plan = plan_for_tflm(tensors, "default", Budget(), "model.tflite")
    return plan.offsets, plan.size


def test_lifetimes_are_tflms() -> None:
    """int8_cnn: input -> CONV -> MAX_POOL -> RESHAPE -> FULLY_CONNECTED -> output. TFLM
    counts one step per operator; the input lives from the start (0) to its reader, each
    activation from its writer to its reader, the output to the end; weights are not
    planned."""
    tensors = tflm_tensors(int8_cnn_tflite(), "cnn.tflite")
    lifetimes = {
        name.split("'")[1]: (int(tensors.first[i]), int(tensors.last[i]))
        for i, name in enumerate(tensors.names)
        if tensors.planned[i]
    }
    assert sorted(lifetimes.values()) == [(0, 1), (1, 2), (2, 3), (3, 4), (4, 4)]
    assert tensors.planned.sum() == 5
    assert (tensors.sizes[tensors.planned] % ARENA_ALIGNMENT == 0).all()


def test_offsets_keep_live_tensors_apart() -> None:
    tensors = tflm_tensors(int8_cnn_tflite(), "cnn.tflite")
    offsets, size = _planned(int8_cnn_tflite())
    planned = np.flatnonzero(tensors.planned)
    assert (offsets[~tensors.planned] == -1).all()
    assert (offsets[planned] % ARENA_ALIGNMENT == 0).all()
    for a in planned:
        for b in planned[planned > a]:
            at_once = tensors.first[a] <= tensors.last[b] and tensors.first[b] <= tensors.last[a]
            apart = (
                offsets[a] + tensors.sizes[a] <= offsets[b]
                or offsets[b] + tensors.sizes[b] <= offsets[a]
            )
            assert apart or not at_once, (tensors.names[a], tensors.names[b])
    assert size == max(offsets[i] + tensors.sizes[i] for i in planned)


def _metadata(data: bytes) -> list[bytes]:
    model = tflite.Model.GetRootAsModel(data, 0)
    return [model.Metadata(i).Name() for i in range(model.MetadataLength())]


def test_written_file_keeps_every_byte_and_replaces_an_earlier_plan() -> None:
    """The original bytes stay whole behind the new root; the tensors, operators and
    weights read the same; planning the planned file again leaves one plan."""
    original = int8_cnn_tflite()
    offsets, _ = _planned(original)
    planned = with_offline_plan(original, offsets, "cnn.tflite")
    assert planned.endswith(original) and (len(planned) - len(original)) % 16 == 0
    np.testing.assert_array_equal(offline_plan(planned), offsets)
    before, after = (tflite.Model.GetRootAsModel(d, 0) for d in (original, planned))
    graph_before, graph_after = before.Subgraphs(0), after.Subgraphs(0)
    assert graph_after.OperatorsLength() == graph_before.OperatorsLength()
    for i in range(graph_before.TensorsLength()):
        t0, t1 = graph_before.Tensors(i), graph_after.Tensors(i)
        assert (t0.Name(), t0.Buffer(), t0.Type()) == (t1.Name(), t1.Buffer(), t1.Type())
        data0 = before.Buffers(t0.Buffer()).DataAsNumpy()
        data1 = after.Buffers(t1.Buffer()).DataAsNumpy()
        np.testing.assert_array_equal(data0, data1)
    assert before.Description() == after.Description() and after.Version() == before.Version()
    again = with_offline_plan(planned, np.full_like(offsets, -1), "cnn.tflite")
    assert _metadata(again) == [METADATA_NAME]
    assert (offline_plan(again) == -1).all()
    # The earlier plan's buffer, which no tensor reads, holds the new one.
    assert after.BuffersLength() == before.BuffersLength() + 1
    assert tflite.Model.GetRootAsModel(again, 0).BuffersLength() == after.BuffersLength()


def test_variable_tensors_stay_in_tflms_persistent_tail() -> None:
    """A variable keeps its value from run to run: TFLM keeps it in its persistent tail
    (offset -1), never in the head where its run-time scratch buffers could land."""
    data = scalar_state_tflite()
    tensors = tflm_tensors(data, "state.tflite")
    model = tflite.Model.GetRootAsModel(data, 0)
    graph = model.Subgraphs(0)
    for i in range(graph.TensorsLength()):
        if graph.Tensors(i).IsVariable():
            assert not tensors.planned[i]


def test_driver_writes_the_planned_file(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    source, out = tmp_path / "cnn.tflite", tmp_path / "planned.tflite"
    source.write_bytes(int8_cnn_tflite())
    assert usmp_translate(["--emit-tflite-plan", str(source), "-o", str(out)]) == 0
    assert "planned 5 of the file's" in capsys.readouterr().err
    assert out.read_bytes().endswith(source.read_bytes())


def test_a_failed_write_shows_no_summary(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """The summary says what was written: a write that fails is the one diagnostic."""
    source, out = tmp_path / "cnn.tflite", tmp_path / "missing" / "planned.tflite"
    source.write_bytes(int8_cnn_tflite())
    with pytest.raises(SystemExit) as exit_status:
        usmp_translate(["--emit-tflite-plan", str(source), "-o", str(out)])
    assert exit_status.value.code == 1
    said = capsys.readouterr().err
    assert said.count("error:") == 1 and "planned 5 of" not in said
    assert not out.exists()


def test_driver_unknown_algorithm_is_one_diagnostic(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    source, out = tmp_path / "cnn.tflite", tmp_path / "planned.tflite"
    source.write_bytes(int8_cnn_tflite())
    with pytest.raises(SystemExit) as exit_status:
        usmp_translate(["--emit-tflite-plan", str(source), "-o", str(out), "--algorithm", "x"])
    assert exit_status.value.code == 1
    assert "error: unknown planning algorithm 'x'" in capsys.readouterr().err
    assert not out.exists()


def test_tflm_runs_the_plan_with_identical_outputs(tmp_path: Path) -> None:
    """TFLM's interpreter places the tensors where the metadata says: its head is our
    plan's size, and its outputs those of the original."""
    source, out = tmp_path / "cnn.tflite", tmp_path / "planned.tflite"
    source.write_bytes(int8_cnn_tflite())
    offsets, size = _planned(source.read_bytes())
    out.write_bytes(with_offline_plan(source.read_bytes(), offsets, str(source)))
    check = check_offline_plan(str(source), str(out), size)
    assert check.outputs_identical
    assert check.head_after == size <= check.head_before


def test_wrong_plan_is_caught_by_tflm(tmp_path: Path) -> None:
    """The check can fail: every tensor at offset 0 overwrites the input while it is read."""
    source, out = tmp_path / "cnn.tflite", tmp_path / "planned.tflite"
    source.write_bytes(int8_cnn_tflite())
    offsets, size = _planned(source.read_bytes())
    overlapping = np.where(offsets >= 0, 0, -1).astype(np.int32)
    out.write_bytes(with_offline_plan(source.read_bytes(), overlapping, str(source)))
    assert not check_offline_plan(str(source), str(out), size).outputs_identical


def test_streaming_model_with_subgraphs_and_variables(tmp_path: Path) -> None:
    """microWakeWord's okay_nabu: a CALL_ONCE subgraph initialising resource variables;
    TFLM runs our plan with the same outputs over two invocations (the state carried),
    its head below its own."""
    path = wheel_model_path("wakeword-okay-nabu-tflite")
    assert path is not None, "pip install -e '.[test]' (pymicro-wakeword)"
    out = tmp_path / "planned.tflite"
    data = Path(path).read_bytes()
    assert tflite.Model.GetRootAsModel(data, 0).SubgraphsLength() > 1
    offsets, size = _planned(data)
    out.write_bytes(with_offline_plan(data, offsets, str(path)))
    check = check_offline_plan(str(path), str(out), size)
    assert check.outputs_identical
    assert check.head_after == size < check.head_before


def test_operator_scratch_is_what_tflm_asks_for(tmp_path: Path) -> None:
    """MEAN's kernel asks TFLM for two index buffers (4 dimensions, 2 axes: 16 and 8 bytes,
    16 each in the arena) at its step, 1; RELU for none. Planned with room for them, TFLM's
    head is no larger than with its own plan, and the outputs are the original's."""
    source = tmp_path / "mean.tflite"
    source.write_bytes(mean_relu_tflite())
    data = source.read_bytes()
    tensors = tflm_tensors(data, str(source))
    assert operator_scratch(data, tensors) == {1: 32}
    planned, check = planned_tflite(str(source), "default", Budget()).verified(
        str(source), Budget()
    )
    assert check.outputs_identical and check.head_after <= check.head_before
    assert check.head_after == planned.plan.size + check.scratch


def _overlap(offsets: np.ndarray, sizes: np.ndarray, a: int, b: int) -> bool:
    return offsets[a] < offsets[b] + sizes[b] and offsets[b] < offsets[a] + sizes[a]


def test_a_while_loop_runs_as_the_original_under_tflm(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    """TFLM's WHILE copies its inputs into the cond's, its outputs into the body's and the
    body's outputs back, through its own outputs, which live across the loop: so the cond's
    and the body's tensors, live at other steps, may share bytes (our plans put the body's
    input on the cond's), and TFLM's outputs (the body run three times: 216 x) are the
    original's."""
    source, out = tmp_path / "while.tflite", tmp_path / "planned.tflite"
    source.write_bytes(while_loop_tflite())
    assert usmp_translate(["--emit-tflite-plan", str(source), "-o", str(out), "--verify"]) == 0
    assert "outputs on the same inputs: identical" in capsys.readouterr().err
    tensors = tflm_tensors(source.read_bytes(), str(source))
    offsets = offline_plan(out.read_bytes())
    index = {name.split("'")[1]: i for i, name in enumerate(tensors.names)}
    shared = [
        (c, b)
        for c in ("cond_i", "cond_x")
        for b in ("body_i", "body_x")
        if _overlap(offsets, tensors.sizes, index[c], index[b])
    ]
    assert shared


def test_several_files_planned_for_one_shared_tflm_arena(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    """Two files planned for interpreters sharing one arena: each written to DIR under its
    name with the plan it gets alone (TFLM plans each model from its own metadata, from the
    start of the one head), TFLM runs each as the original, and the shared head is the
    larger of TFLM's heads for the two written files."""
    cnn, mean = tmp_path / "cnn.tflite", tmp_path / "mean.tflite"
    cnn.write_bytes(int8_cnn_tflite())
    mean.write_bytes(mean_relu_tflite())
    alone = tmp_path / "alone.tflite"
    assert usmp_translate(["--emit-tflite-plan", str(cnn), "-o", str(alone)]) == 0
    capsys.readouterr()
    out = tmp_path / "shared"
    command = ["--emit-tflite-plan", str(cnn), str(mean), "-o", str(out), "--verify"]
    assert usmp_translate(command) == 0
    said = capsys.readouterr().err
    assert sorted(p.name for p in out.iterdir()) == ["cnn.tflite", "mean.tflite"]
    assert (out / "cnn.tflite").read_bytes() == alone.read_bytes()
    assert said.count("outputs on the same inputs: identical") == 2
    arenas = [tflm_arena(str(out / name)) for name in ("cnn.tflite", "mean.tflite")]
    head = max(h for h, _ in arenas)
    assert f"one after another: {head} B" in said
    assert f"{shared_arena(arenas)} B after" in said


@pytest.mark.parametrize(
    ("second", "message"),
    [
        ("bad.tflite", "{d}/bad.tflite: error: not a TFLite flatbuffer"),
        ("sub/cnn.tflite", "{d}/sub/cnn.tflite: error: '{d}/cnn.tflite' has the same name"),
    ],
)
def test_one_bad_file_of_several_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture, second: str, message: str
) -> None:
    (tmp_path / "sub").mkdir()
    for name in ("cnn.tflite", "sub/cnn.tflite"):
        (tmp_path / name).write_bytes(int8_cnn_tflite())
    (tmp_path / "bad.tflite").write_bytes(b"junk\n")
    out = tmp_path / "shared"
    files = [str(tmp_path / "cnn.tflite"), str(tmp_path / second)]
    with pytest.raises(SystemExit) as exit_status:
        usmp_translate(["--emit-tflite-plan", *files, "-o", str(out)])
    assert exit_status.value.code == 1
    said = capsys.readouterr().err
    assert said.count("error:") == 1 and message.format(d=tmp_path) in said
    assert not out.exists()
