"""Band schedules and the choice of stages (`planning/bands.py`): a banded chain computes
every row once and in rolling buffers gives the unbanded rows' values; the chooser lowers
a MobileNet's first stage to what its input, its output and a few rows need."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from usmp_dialect.planning.bands import (
    Program,
    RowOperator,
    Stage,
    Workspace,
    choose_stages,
    recomputed_rows,
    schedule,
)


@st.composite
def chains(draw: st.DrawFn) -> list[RowOperator]:
    """Chains of row operators: a stride of 1 or 2, a window of 1 to 3 rows (padded, so
    output row y of a 3-row window reads y*stride-1 .. y*stride+1)."""
    rows = draw(st.integers(4, 40))
    chain = []
    for k in range(draw(st.integers(2, 5))):
        stride = draw(st.sampled_from([1, 2]))
        window = draw(st.integers(1, 3))
        low = -(window // 2)
        out_rows = -(-rows // stride)
        chain.append(RowOperator(f"op{k}", out_rows, 1, rows, 1, stride, low, low + window - 1))
        rows = out_rows
    return chain


def _rows(op: RowOperator, rows_of_input, begin: int, end: int) -> list[int]:
    """Output rows [begin, end) of `op`: a hash of the input rows its window reads
    (rows outside the input count as padding)."""
    out = []
    for y in range(begin, end):
        window = [
            rows_of_input(r) if 0 <= r < op.input_rows else -1
            for r in range(op.stride * y + op.low, op.stride * y + op.high + 1)
        ]
        out.append(hash(tuple(window)) % 1_000_003)
    return out


def _reader(buffer):
    """Row `r` of the input (its index), else of a rolling buffer (slot r % rows)."""
    if buffer is None:
        return lambda r: r
    return lambda r: int(buffer[r % len(buffer)])


@settings(max_examples=60, deadline=None)
@given(chains(), st.integers(1, 8))
def test_banded_chain_computes_each_row_at_most_once_with_the_unbanded_values(chain, band_height):
    plan = schedule(chain, band_height)
    # Unbanded: each operator over all its rows, one after another.
    values = list(range(chain[0].input_rows))
    for op in chain:
        values = _rows(op, values.__getitem__, 0, op.rows)
    # Banded: the intermediates in rolling buffers of plan.buffer_rows rows.
    buffers = [np.full(rows, -7, dtype=np.int64) for rows in plan.buffer_rows]
    output = np.full(chain[-1].rows, -7, dtype=np.int64)
    computed = [[] for _ in chain]
    for step in plan.steps:
        for k, (begin, end) in enumerate(step):
            if end <= begin:
                continue
            computed[k].append((begin, end))
            op = chain[k]
            rows = _rows(op, _reader(buffers[k - 1] if k else None), begin, end)
            target = output if k == len(chain) - 1 else buffers[k]
            for y, value in zip(range(begin, end), rows, strict=True):
                target[y % len(target)] = value
    assert output.tolist() == values
    # No row computed twice (a row no window reads, behind a stride, not at all).
    for ranges in computed:
        rows = [r for b, e in ranges for r in range(b, e)]
        assert rows == sorted(set(rows))
    assert [r for b, e in computed[-1] for r in range(b, e)] == list(range(chain[-1].rows))


def _mobilenet_first_stage() -> Program:
    """person_detect's first four operators: input 96x96x1, conv 3x3/2 -> 48x48x8,
    depthwise 3x3 -> 48x48x8, pointwise -> 48x48x16, depthwise 3x3/2 -> 24x24x16, then a
    pointwise -> 24x24x32. Buffers: 0 the input, 1..5 each operator's output."""
    chain = (
        RowOperator("conv", 48, 48 * 8, 96, 96, 2, 0, 2),
        RowOperator("depthwise", 48, 48 * 8, 48, 48 * 8, 1, -1, 1),
        RowOperator("pointwise", 48, 48 * 16, 48, 48 * 8, 1, 0, 0),
        RowOperator("depthwise2", 24, 24 * 16, 48, 48 * 16, 2, 0, 2),
        RowOperator("pointwise2", 24, 24 * 32, 24, 24 * 16, 1, 0, 0),
    )
    sizes = (96 * 96, 48 * 48 * 8, 48 * 48 * 8, 48 * 48 * 16, 24 * 24 * 16, 24 * 24 * 32)
    live = tuple(frozenset({k, k + 1}) for k in range(5))
    return Program(live, sizes, (chain,), ((0, 1, 2, 3, 4),), ((1, 2, 3, 4, 5),))


def test_chooser_bands_the_first_stage_to_its_input_output_and_a_few_rows():
    program = _mobilenet_first_stage()
    assert program.peak_bytes([]) == 18432 + 36864
    stages = choose_stages(program)
    assert [(s.first, s.last) for s in stages] == [(0, 3)]
    (stage,) = stages
    # The peak is now pointwise2's input and output; a band of 2 rows a step (fewer
    # calls than 1) keeps the stage below it.
    assert program.peak_bytes(stages) == 9216 + 18432
    assert stage.plan.band_height == 2
    assert stage.plan.buffer_rows == (6, 5, 5)
    assert 9216 + 9216 + program.band_bytes(stage) <= 9216 + 18432
    assert program.peak_bytes(stages) <= 0.6 * program.peak_bytes([])


def test_asked_band_height_trades_rows_for_calls():
    program = _mobilenet_first_stage()
    low = choose_stages(program, [1])
    high = choose_stages(program, [8])
    assert high[0].plan.calls() < low[0].plan.calls()
    assert program.peak_bytes(high) > program.peak_bytes(low)
    assert program.peak_bytes(high) < program.peak_bytes([])


def _nchw_stem() -> Program:
    """An NCHW stem as TVM lowers it, each operator padding its input into a buffer of
    its own first: a 7x7/2 convolution, 3x32x32 -> 64x16x16 (its padded copy 3x38x32),
    then a 3x3/2 max pool -> 64x8x8 (its padded copy 64x18x18), float32. Buffers: 0 the
    input, 1 the convolution's output, 2 the pool's, 3 and 4 the padded copies. Each call
    has two points: its copy's nest (the copy and what it reads), then its compute nest
    (the copy and what it writes)."""
    chain = (
        RowOperator("conv", 16, 4096, 32, 384, 2, -3, 3, (Workspace(3, 38, 456, 2, 7),)),
        RowOperator("pool", 8, 2048, 16, 4096, 2, -1, 1, (Workspace(4, 18, 4608, 2, 3),)),
    )
    sizes = (12288, 65536, 16384, 17328, 82944)
    live = (frozenset({0, 3}), frozenset({3, 1}), frozenset({1, 4}), frozenset({4, 2}))
    return Program(live, sizes, (chain,), ((0, 1),), ((1, 2),), (), (range(2), range(2, 4)))


def test_operators_own_buffers_count_at_their_nests_and_shrink_in_a_band():
    program = _nchw_stem()
    # The pool's padded copy beside its input, the call's second nest alone.
    assert program.peak_bytes([]) == 65536 + 82944
    (stage,) = choose_stages(program, [1])
    # The input and the pool's output, 3 rows of the convolution's output, and the
    # larger of the band calls' copies: the pool's, 3 of its 18 rows.
    assert program.peak_bytes([stage]) == 12288 + 16384 + 3 * 4096 + 3 * 4608
    peaks = {h: program.peak_bytes(choose_stages(program, [h])) for h in range(1, 9)}
    assert peaks[1] < peaks[2] < peaks[4] < peaks[8] == program.peak_bytes([])
    (chosen,) = choose_stages(program)
    assert chosen.plan.band_height == 1
    assert program.peak_bytes([chosen]) == min(peaks.values())


def test_an_operator_alone_is_banded_where_its_own_buffer_is_the_peak():
    # A 3x3 convolution, 16x16x8 -> 16x16x8 float32, padding its input (buffer 0, read
    # again later) into an 18-row copy of its own (buffer 2): the copy's nest holds the
    # input and the copy, the convolution's nest the output (buffer 1) too.
    conv = RowOperator("conv", 16, 512, 16, 512, 1, -1, 1, (Workspace(2, 18, 576, 1, 3),))
    live = (frozenset({0, 2}), frozenset({0, 1, 2}))
    program = Program(live, (8192, 8192, 10368), ((conv,),), ((0,),), ((1,),), (), (range(2),))
    assert program.peak_bytes([]) == 8192 * 2 + 10368
    (stage,) = choose_stages(program)
    assert (stage.first, stage.last) == (0, 0)
    assert program.peak_bytes([stage]) == 8192 * 2 + 576 * (stage.plan.band_height + 2)
    assert stage.plan.band_height == 1


def test_nothing_is_banded_when_no_stage_lowers_the_peak():
    # The peak is an operator outside the chain, whose buffers nothing can shrink.
    chain = (
        RowOperator("a", 8, 4, 8, 4, 1, 0, 0),
        RowOperator("b", 8, 4, 8, 4, 1, 0, 0),
    )
    live = (frozenset({0, 1}), frozenset({1, 2}), frozenset({3}))
    program = Program(live, (32, 32, 32, 1000), (chain,), ((0, 1),), ((1, 2),))
    assert choose_stages(program) == []
    assert program.peak_bytes([Stage(0, 0, 1, schedule(chain, 1))]) == 1000


@settings(max_examples=60, deadline=None)
@given(chains(), st.integers(1, 8))
def test_recomputing_halo_rows_computes_at_least_the_kept_rows(chain, band_height):
    """Bands that recompute the rows they share (no rolling buffer) compute each
    operator's rows at least as often as the kept-halo schedule where no row hides behind
    a stride (which the kept schedule computes, in a run of rows), the last operator's
    exactly once, and with one band no row twice."""
    kept = schedule(chain, band_height)
    once = [sum(step[k][1] - step[k][0] for step in kept.steps) for k in range(len(chain))]
    again = recomputed_rows(chain, band_height)
    if all(op.high - op.low + 1 >= op.stride for op in chain):
        assert all(a >= o for a, o in zip(again, once, strict=True))
    assert again[-1] == chain[-1].rows
    if band_height >= chain[-1].rows:
        assert list(again) == once


def test_recomputing_the_mobilenet_stage_costs_its_halo_rows():
    (chain,) = _mobilenet_first_stage().chains
    # 12 bands of 2 rows of the stride-2 depthwise, each reading 5 pointwise rows (the
    # last 4): 59 of 48, as many depthwise rows (the pointwise is 1x1), and the 3x3
    # depthwise reads 7 rows of the conv a band (6 and 5 at the ends).
    assert recomputed_rows(chain[:4], 2) == (6 + 10 * 7 + 5, 11 * 5 + 4, 11 * 5 + 4, 24)


def _conv(name: str, rows: int, row_bytes: int, stride: int = 1) -> RowOperator:
    """A 3x3 convolution (padded) of `rows` output rows reading `row_bytes` a row."""
    return RowOperator(name, rows, row_bytes, rows * stride, row_bytes, stride, -1, 1)


def _residual_block(shares: bool) -> Program:
    """MLPerf Tiny's ResNet's block: x -> conv1 -> a -> conv2 -> b, then y = ADD(b, x).
    Buffers 0 x, 1 a, 2 b, 3 y, 8 rows of 32 bytes each. Unbanded, conv2's step holds
    x, a and b (768 bytes), and the ADD's x, b and y, or x and b where y is written over
    b, which dies there (`tir-in-place-results`)."""
    chain = (_conv("conv1", 8, 32), _conv("conv2", 8, 32))
    live = (frozenset({0, 1}), frozenset({0, 1, 2}), frozenset({0, 2, 3}))
    return Program(live, (256,) * 4, (chain,), ((0, 1),), ((1, 2),), ((2, 2, 3),) if shares else ())


def test_residual_block_is_banded_where_its_add_writes_over_a_dying_operand():
    program = _residual_block(shares=True)
    assert program.peak_bytes([]) == 768
    (stage,) = choose_stages(program)
    assert (stage.first, stage.last) == (0, 1)
    # x, b and a's rolling buffer of 3 rows at the convolutions; x and b at the ADD.
    assert program.step_bytes([stage]) == [512 + 96, 512 + 96, 512]
    # Without the ADD's share, its step keeps the peak: bands would gain no byte.
    unshared = _residual_block(shares=False)
    assert unshared.peak_bytes([]) == unshared.peak_bytes([stage]) == 768
    assert choose_stages(unshared) == []


def test_keyword_spotter_is_left_unbanded():
    """MLPerf Tiny's keyword spotter as the pass reads it: a 10x4 convolution, stride 2,
    of the 49x10 input, then four depthwise and pointwise pairs whose tensors (25x5x64)
    are all one size, then the pooling: each of the chain's steps but the first holds an
    input and an output of 8,000 bytes. A stage leaves fewer steps at that peak, but its
    input, output and rolling buffers (their rows growing with each 3x3 window's lag) are
    never fewer bytes: nothing is banded."""
    conv = RowOperator("conv", 25, 320, 49, 10, 2, -4, 5)
    depthwise = _conv("depthwise", 25, 320)
    pointwise = RowOperator("pointwise", 25, 320, 25, 320, 1, 0, 0)
    chain = (conv, *(depthwise, pointwise) * 4)
    sizes = (490, *(8000,) * 9, 64)
    live = tuple(frozenset({k, k + 1}) for k in range(10))
    program = Program(live, sizes, (chain,), (tuple(range(9)),), (tuple(range(1, 10)),))
    assert program.peak_bytes([]) == 16000
    whole = Stage(0, 0, 8, schedule(chain, 1))
    assert program.peak_bytes([whole]) == 16490
    assert choose_stages(program) == []


@st.composite
def programs(draw: st.DrawFn) -> Program:
    """A chain of row operators between a producer of its input and an ADD of its output
    with a skip buffer: each row 1 to 4 bytes; an elementwise operator (stride 1, one
    row a row, as many bytes) or the ADD may write over its dying input. Buffers: 0 the
    chain's input, k + 1 operator k's output, then the skip buffer, the ADD's output and
    a buffer live at the producer's step alone."""
    rows = draw(st.integers(2, 12))
    row_bytes = draw(st.integers(1, 4))
    chain = []
    for k in range(draw(st.integers(2, 4))):
        elementwise = draw(st.booleans())
        stride = 1 if elementwise else draw(st.sampled_from([1, 2]))
        window = 1 if elementwise else draw(st.integers(1, 3))
        out_bytes = row_bytes if elementwise else draw(st.integers(1, 4))
        out_rows = -(-rows // stride)
        low = -(window // 2)
        chain.append(
            RowOperator(
                f"op{k}", out_rows, out_bytes, rows, row_bytes, stride, low, low + window - 1
            )
        )
        rows, row_bytes = out_rows, out_bytes
    n = len(chain)
    sizes = [chain[0].input_rows * chain[0].input_row_bytes]
    sizes += [op.rows * op.row_bytes for op in chain]
    skip, add, other = n + 1, n + 2, n + 3
    sizes += [draw(st.integers(0, 64)), sizes[n], draw(st.integers(0, 96))]
    # Step 0 makes buffer 0; operator k runs at step k + 1; the ADD at step n + 1.
    live = [frozenset({0, skip, other})]
    live += [frozenset({k, k + 1, skip}) for k in range(n)]
    live += [frozenset({n, skip, add})]
    shares = [
        (k + 1, k, k + 1)
        for k, op in enumerate(chain)
        if k > 0
        and op.stride == 1
        and op.low == op.high == 0
        and op.row_bytes == op.input_row_bytes
        and draw(st.booleans())
    ]
    if draw(st.booleans()):
        shares.append((n + 1, n, add))
    return Program(
        tuple(live),
        tuple(sizes),
        (tuple(chain),),
        (tuple(range(1, n + 1)),),
        (tuple(range(1, n + 1)),),
        tuple(shares),
    )


@settings(max_examples=150, deadline=None)
@given(programs())
def test_chosen_stages_always_lower_the_modelled_peak(program):
    """Whatever the chooser bands lowers the peak (bytes live at once, results written
    over dying inputs) below the unbanded one, and each stage it keeps is needed for
    that: never bands for fewer steps at an unchanged peak."""
    stages = choose_stages(program)
    if not stages:
        return
    peak = program.peak_bytes(stages)
    assert peak < program.peak_bytes([])
    for stage in stages:
        assert program.peak_bytes([s for s in stages if s is not stage]) > peak
