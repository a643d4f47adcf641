"""The inner loop of the canonical branch and bound, compiled with numba (`kernel`) once
the search has run long enough in plain Python (`canonical_search`).

One function, `run`, walks the search tree with explicit stacks kept in numpy arrays, so it
can stop after a number of nodes, or of steps, and be resumed where it stopped: the caller
checks the time cap between slices. Steps count the work itself (list entries, sections and
conflicts scanned, trail entries undone), so that a budget of steps takes about the same
time on every problem, which a budget of nodes does not (a node of MiniMalloc's D costs ten
times one of K).

The search decides whether the buffers fit under `capacity` (MiniMalloc's decision
problem, Moffitt, ASPLOS 2024):

- a node's children place one unplaced buffer at its lowest possible offset (`min_off`,
  the highest top of the conflicting buffers placed so far, aligned up); children are
  taken by that offset, ties by a static preorder rank, and a child must not come before
  its parent in that order (canonical plans only), nor start at or above the lowest top an
  unplaced buffer could reach (dominance);
- after a placement every section (the buffers live just before one distinct end time)
  must hold its unplaced bytes between its floor and the capacity, the floor being the
  lowest offset any unplaced buffer of the section can still take (MiniMalloc's floor,
  exact). MiniMalloc rescans every section a placement touches for it, which costs a
  placement the sum of those sections' sizes (thousands of steps on its D and J);
  here each section keeps a witness buffer that shows it fits, and only a section whose
  witness was placed or raised too high is rescanned. The part of that check that the
  next offset alone decides (no candidate may start above the capacity less the fullest
  section's unplaced bytes) is done once per node, before any candidate is placed: most
  children that would fail never get placed;
- a buffer that meets no unplaced buffer fails for all its siblings too (no "hat");
- dynamic decomposition: when a placement leaves a time boundary that no unplaced buffer
  crosses, the buffers on either side are independent. Each side (with fresh ranks from
  its own remaining section totals, as MiniMalloc's sub-solves do) is solved on its own in
  turn; a solved side is kept, and when a side fails the placement that split them fails.

Every change to the search state goes on a trail and is undone from it when a placement
is taken back.
"""

from __future__ import annotations

import numpy as np

from usmp_dialect.planning.algorithms.kernel import kernel

# Status codes returned by `run`.
PAUSED = 0
FOUND = 1
INFEASIBLE = 2
NEED_SPACE = 3

# Scalars of the search state (`st`).
ST_NODES = 0
ST_FRAMES = 1
ST_RECORDS = 2
ST_PARTITIONS = 3
ST_LIST_TOP = 4
ST_TRAIL_TOP = 5
ST_STARTED = 6
ST_STEPS = 7
ST_SHORT = 8  # with NEED_SPACE: which of the growing arrays is short (the bits below)
ST_SIZE = 9

# The growing arrays, as bits of `st[ST_SHORT]`.
SHORT_LIST = 1
SHORT_TRAIL = 2
SHORT_FRAMES = 4
SHORT_PARTITIONS = 8
SHORT_RECORDS = 16

# Frame columns: one frame per node on the current path.
F_LIST = 0  # start of its unplaced list in `ls`; its candidates follow that list
F_UNPLACED = 1
F_CANDIDATES = 2
F_NEXT = 3  # the next candidate to try
F_LAST_OFFSET = 4  # canonical order: children come after (offset, rank) of the parent
F_LAST_RANK = 5
F_TRAIL = 6  # trail top before the current child's placement
F_PARTITION = 7
F_ROOT = 8  # the first frame of its partition
F_HATLESS = 9  # the current child met no unplaced buffer
F_STOP = 10  # no sibling is worth trying
F_COLUMNS = 11

# Partition columns: a set of unplaced buffers and the sections they live in.
P_LIST = 0
P_LENGTH = 1
P_LOW = 2
P_HIGH = 3
P_RECORD = 4
P_COLUMNS = 5

# Record columns: the partitions a placement split the rest into, solved in turn.
R_FRAME = 0  # the frame whose placement made them (-1 for the whole problem)
R_FIRST = 1
R_COUNT = 2
R_CURRENT = 3
R_LIST = 4  # `ls` top before the record's lists
R_LIST_END = 5
R_COLUMNS = 6

# Kinds of trail entries: (kind, index, old value).
_TRAIL_MIN_OFF = 0
_TRAIL_PLACED = 1
_TRAIL_RANK = 2

_NONE = np.iinfo(np.int64).max


@kernel
def _push_frame(
    source,
    length,
    partition,
    root,
    last_offset,
    last_rank,
    ls,
    fr,
    st,
    placed,
    min_off,
    sizes,
    rank,
    key_scale,
    capacity,
    total,
    low,
    high,
):
    """Push a frame over the unplaced buffers of `ls[source:source + length]`; returns
    False (pushing nothing) when there are none: the partition is solved."""
    start = st[ST_LIST_TOP]
    unplaced = 0
    lowest_top = _NONE
    for i in range(length):
        x = ls[source + i]
        if placed[x] == 0:
            ls[start + unplaced] = x
            unplaced += 1
            top = min_off[x] + sizes[x]
            lowest_top = min(lowest_top, top)
    if unplaced == 0:
        return False
    # Every byte still unplaced goes above the next buffer's offset (canonical order):
    # no candidate may start above the capacity less the fullest section's unplaced bytes.
    fullest = 0
    for s in range(low, high):
        fullest = max(fullest, total[s])
    highest = capacity - fullest
    first = start + unplaced
    count = 0
    for i in range(unplaced):
        x = ls[start + i]
        offset = min_off[x]
        if offset >= lowest_top or offset > highest:
            continue
        if offset < last_offset or (offset == last_offset and rank[x] < last_rank):
            continue
        ls[first + count] = x
        count += 1
    # Candidates by (offset, rank); ranks are distinct, so the keys are.
    if count > 1:
        keys = np.empty(count, dtype=np.int64)
        for i in range(count):
            x = ls[first + i]
            keys[i] = min_off[x] * key_scale + rank[x]
        order = np.argsort(keys)
        chosen = ls[first : first + count].copy()
        for i in range(count):
            ls[first + i] = chosen[order[i]]
    f = st[ST_FRAMES]
    fr[f, F_LIST] = start
    fr[f, F_UNPLACED] = unplaced
    fr[f, F_CANDIDATES] = count
    fr[f, F_NEXT] = 0
    fr[f, F_LAST_OFFSET] = last_offset
    fr[f, F_LAST_RANK] = last_rank
    fr[f, F_TRAIL] = st[ST_TRAIL_TOP]
    fr[f, F_PARTITION] = partition
    fr[f, F_ROOT] = root
    fr[f, F_HATLESS] = 0
    fr[f, F_STOP] = 0
    st[ST_FRAMES] = f + 1
    st[ST_LIST_TOP] = first + count
    st[ST_NODES] += 1
    st[ST_STEPS] += length + (high - low) + count
    return True


@kernel
def run(
    capacity,
    sizes,
    alignments,
    rank,
    nb_ptr,
    nb_idx,
    sec_lo,
    sec_hi,
    sm_ptr,
    sm_idx,
    initial_list,
    min_off,
    offset,
    placed,
    witness,
    total,
    cut,
    trail,
    ls,
    fr,
    pt,
    rc,
    st,
    node_stop,
    step_stop,
    key_scale,
    max_degree,
    heuristic,
    width,
    area,
):
    """Search until a plan is found, the space is exhausted, `node_stop` nodes have been
    visited, `step_stop` steps taken, or an array is too small (grow it and call again)."""
    n_sections = len(witness)
    n = len(sizes)
    if st[ST_STARTED] == 0:
        # The whole problem is one record whose partitions are split at the boundaries
        # no buffer crosses; `initial_list` holds the buffers to place, by section start.
        st[ST_STARTED] = 1
        rec = 0
        st[ST_RECORDS] = 1
        rc[rec, R_FRAME] = -1
        rc[rec, R_FIRST] = 0
        rc[rec, R_LIST] = 0
        m = len(initial_list)
        for i in range(m):
            ls[i] = initial_list[i]
        parts = 0
        i = 0
        while i < m:
            low = sec_lo[ls[i]]
            high = sec_hi[ls[i]]
            j = i + 1
            while j < m and (n_sections == 0 or sec_lo[ls[j]] < high):
                high = max(high, sec_hi[ls[j]])
                j += 1
            pt[parts, P_LIST] = i
            pt[parts, P_LENGTH] = j - i
            pt[parts, P_LOW] = low
            pt[parts, P_HIGH] = high
            pt[parts, P_RECORD] = rec
            parts += 1
            i = j
        rc[rec, R_COUNT] = parts
        rc[rec, R_CURRENT] = 0
        rc[rec, R_LIST_END] = m
        st[ST_PARTITIONS] = parts
        st[ST_LIST_TOP] = m
        st[ST_FRAMES] = 0
        st[ST_TRAIL_TOP] = 0
        if parts == 0:
            return FOUND
        _push_frame(
            pt[0, P_LIST],
            pt[0, P_LENGTH],
            0,
            1,
            0,
            -1,
            ls,
            fr,
            st,
            placed,
            min_off,
            sizes,
            rank,
            key_scale,
            capacity,
            total,
            pt[0, P_LOW],
            pt[0, P_HIGH],
        )

    while True:
        if st[ST_NODES] >= node_stop or st[ST_STEPS] >= step_stop:
            return PAUSED
        short = 0
        if st[ST_LIST_TOP] + 3 * n + 8 > len(ls):
            short |= SHORT_LIST
        if st[ST_TRAIL_TOP] + max_degree + n + 8 > len(trail):
            short |= SHORT_TRAIL
        if st[ST_FRAMES] + 2 > len(fr):
            short |= SHORT_FRAMES
        if st[ST_PARTITIONS] + n + 2 > len(pt):
            short |= SHORT_PARTITIONS
        if st[ST_RECORDS] + 2 > len(rc):
            short |= SHORT_RECORDS
        if short:
            st[ST_SHORT] = short
            return NEED_SPACE
        f = st[ST_FRAMES] - 1
        if fr[f, F_STOP] != 0 or fr[f, F_NEXT] >= fr[f, F_CANDIDATES]:
            # The frame is exhausted: its parent's placement fails.
            st[ST_FRAMES] = f
            if fr[f, F_ROOT] != 0:
                rec = pt[fr[f, F_PARTITION], P_RECORD]
                if rc[rec, R_FRAME] < 0:
                    return INFEASIBLE
                st[ST_RECORDS] = rec
                st[ST_PARTITIONS] = rc[rec, R_FIRST]
            g = f - 1
            mark = fr[g, F_TRAIL]
            _undo(mark, trail, st, min_off, total, cut, placed, sizes, sec_lo, sec_hi, rank)
            if fr[g, F_HATLESS] != 0:
                fr[g, F_STOP] = 1
            st[ST_LIST_TOP] = fr[g, F_LIST] + fr[g, F_UNPLACED] + fr[g, F_CANDIDATES]
            continue

        b = ls[fr[f, F_LIST] + fr[f, F_UNPLACED] + fr[f, F_NEXT]]
        fr[f, F_NEXT] += 1
        at = min_off[b]
        top = at + sizes[b]
        mark = st[ST_TRAIL_TOP]
        fr[f, F_TRAIL] = mark
        # Place b; every change goes on the trail.
        t = mark
        trail[t, 0] = _TRAIL_PLACED
        trail[t, 1] = b
        t += 1
        placed[b] = 1
        offset[b] = at
        size = sizes[b]
        lo = sec_lo[b]
        hi = sec_hi[b]
        part = fr[f, F_PARTITION]
        st[ST_STEPS] += (hi - lo) + (nb_ptr[b + 1] - nb_ptr[b])
        for s in range(lo, hi):
            total[s] -= size
        for k in range(lo, hi - 1):
            cut[k] -= 1
        # A buffer that does not fit now never will (offsets only rise): with `hatless`
        # set, no sibling is tried either.
        ok = top <= capacity
        hatless = 1
        if ok:
            for e in range(nb_ptr[b], nb_ptr[b + 1]):
                x = nb_idx[e]
                if placed[x] != 0:
                    continue
                hatless = 0
                if min_off[x] >= top:
                    continue
                trail[t, 0] = _TRAIL_MIN_OFF
                trail[t, 1] = x
                trail[t, 2] = min_off[x]
                t += 1
                raised = top
                a = alignments[x]
                if a > 1:
                    raised = (raised + a - 1) // a * a
                min_off[x] = raised
                if raised + sizes[x] > capacity:
                    ok = False
                    break
        st[ST_TRAIL_TOP] = t
        if ok:
            ok = _sections_fit(
                pt[part, P_LOW],
                pt[part, P_HIGH],
                at,
                capacity,
                total,
                witness,
                placed,
                min_off,
                sm_ptr,
                sm_idx,
                st,
            )
        if not ok:
            _undo(mark, trail, st, min_off, total, cut, placed, sizes, sec_lo, sec_hi, rank)
            if hatless != 0:
                fr[f, F_STOP] = 1
            continue
        fr[f, F_HATLESS] = hatless

        # Descend: one child frame, or the independent parts the placement left.
        source = fr[f, F_LIST]
        length = fr[f, F_UNPLACED]
        splits = 0
        for k in range(lo, hi - 1):
            if cut[k] == 0:
                splits += 1
        solved = -1
        if splits == 0:
            pushed = _push_frame(
                source,
                length,
                part,
                0,
                at,
                rank[b],
                ls,
                fr,
                st,
                placed,
                min_off,
                sizes,
                rank,
                key_scale,
                capacity,
                total,
                pt[part, P_LOW],
                pt[part, P_HIGH],
            )
            if not pushed:
                solved = part
        else:
            # Split the partition's range at the new cuts; each unplaced buffer falls in
            # exactly one piece (none crosses a cut). Pieces keep the list's order.
            low = pt[part, P_LOW]
            high = pt[part, P_HIGH]
            rec = st[ST_RECORDS]
            first_part = st[ST_PARTITIONS]
            rc[rec, R_FRAME] = f
            rc[rec, R_FIRST] = first_part
            rc[rec, R_LIST] = st[ST_LIST_TOP]
            write = st[ST_LIST_TOP]
            parts = 0
            piece_low = low
            k = lo
            while True:
                # The next cut after piece_low inside b's span, or the range's end.
                while k < hi - 1 and cut[k] != 0:
                    k += 1
                piece_high = k + 1 if k < hi - 1 else high
                st[ST_STEPS] += length
                begin = write
                for i in range(length):
                    x = ls[source + i]
                    if placed[x] == 0 and sec_lo[x] >= piece_low and sec_lo[x] < piece_high:
                        ls[write] = x
                        write += 1
                if write > begin:
                    p = first_part + parts
                    pt[p, P_LIST] = begin
                    pt[p, P_LENGTH] = write - begin
                    pt[p, P_LOW] = piece_low
                    pt[p, P_HIGH] = piece_high
                    pt[p, P_RECORD] = rec
                    parts += 1
                if piece_high >= high:
                    break
                piece_low = piece_high
                k += 1
            if parts == 0:
                solved = part
            else:
                # Like MiniMalloc, each piece is preordered afresh, its section totals
                # now counting only what is left; the ranks go on the trail.
                t = st[ST_TRAIL_TOP]
                for q in range(first_part, first_part + parts):
                    st[ST_STEPS] += pt[q, P_LENGTH]
                    t = _rerank(
                        ls,
                        pt[q, P_LIST],
                        pt[q, P_LENGTH],
                        rank,
                        trail,
                        t,
                        total,
                        sec_lo,
                        sec_hi,
                        heuristic,
                        width,
                        area,
                    )
                st[ST_TRAIL_TOP] = t
                rc[rec, R_COUNT] = parts
                rc[rec, R_CURRENT] = 0
                rc[rec, R_LIST_END] = write
                st[ST_RECORDS] = rec + 1
                st[ST_PARTITIONS] = first_part + parts
                st[ST_LIST_TOP] = write
                _push_frame(
                    pt[first_part, P_LIST],
                    pt[first_part, P_LENGTH],
                    first_part,
                    1,
                    at,
                    -1,
                    ls,
                    fr,
                    st,
                    placed,
                    min_off,
                    sizes,
                    rank,
                    key_scale,
                    capacity,
                    total,
                    pt[first_part, P_LOW],
                    pt[first_part, P_HIGH],
                )
        # A solved partition is kept: its frames go, and the next piece of its record
        # starts, or, when that was the last one, the partition that was split is solved.
        while solved >= 0:
            rec = pt[solved, P_RECORD]
            creator = rc[rec, R_FRAME]
            st[ST_FRAMES] = creator + 1
            rc[rec, R_CURRENT] += 1
            current = rc[rec, R_CURRENT]
            if current < rc[rec, R_COUNT]:
                p = rc[rec, R_FIRST] + current
                st[ST_LIST_TOP] = rc[rec, R_LIST_END]
                last_offset = 0
                if creator >= 0:
                    # The placement that split them bounds the offsets of every piece
                    # (ranks are the piece's own).
                    child = ls[
                        fr[creator, F_LIST] + fr[creator, F_UNPLACED] + fr[creator, F_NEXT] - 1
                    ]
                    last_offset = offset[child]
                last_rank = -1
                # Every buffer of a piece is unplaced when it starts.
                _push_frame(
                    pt[p, P_LIST],
                    pt[p, P_LENGTH],
                    p,
                    1,
                    last_offset,
                    last_rank,
                    ls,
                    fr,
                    st,
                    placed,
                    min_off,
                    sizes,
                    rank,
                    key_scale,
                    capacity,
                    total,
                    pt[p, P_LOW],
                    pt[p, P_HIGH],
                )
                solved = -1
            else:
                if creator < 0:
                    st[ST_RECORDS] = 0
                    return FOUND
                st[ST_RECORDS] = rec
                st[ST_PARTITIONS] = rc[rec, R_FIRST]
                solved = fr[creator, F_PARTITION]


@kernel
def _sections_fit(low, high, at, capacity, total, witness, placed, min_off, sm_ptr, sm_idx, st):
    """Whether every section of `[low, high)` can hold its unplaced bytes above the
    lowest offset one of them can take, and above `at` (canonical order: no later buffer
    goes below the one just placed).

    That lowest offset only rises down a branch, so a section's `witness` (an unplaced
    buffer of it, low enough to show the section fits) stays good until it is placed or
    raised too high; only then is the section scanned for the lowest offset, whose buffer
    becomes the witness. The witness is a hint, right whatever the state, so a placement
    taken back leaves it alone."""
    st[ST_STEPS] += high - low
    for s in range(low, high):
        if total[s] <= 0:
            continue
        room = capacity - total[s]
        w = witness[s]
        if w >= 0 and placed[w] == 0 and min_off[w] <= room and at <= room:
            continue
        lowest = _NONE
        for e in range(sm_ptr[s], sm_ptr[s + 1]):
            x = sm_idx[e]
            if placed[x] == 0 and min_off[x] < lowest:
                lowest = min_off[x]
                w = x
        st[ST_STEPS] += sm_ptr[s + 1] - sm_ptr[s]
        witness[s] = w
        if max(lowest, at) > room:
            return False
    return True


@kernel
def _undo(mark, trail, st, min_off, total, cut, placed, sizes, sec_lo, sec_hi, rank):
    t = st[ST_TRAIL_TOP]
    st[ST_STEPS] += t - mark
    while t > mark:
        t -= 1
        kind = trail[t, 0]
        i = trail[t, 1]
        if kind == _TRAIL_MIN_OFF:
            min_off[i] = trail[t, 2]
        elif kind == _TRAIL_RANK:
            rank[i] = trail[t, 2]
        else:
            placed[i] = 0
            size = sizes[i]
            for s in range(sec_lo[i], sec_hi[i]):
                total[s] += size
            for k in range(sec_lo[i], sec_hi[i] - 1):
                cut[k] += 1
    st[ST_TRAIL_TOP] = mark


@kernel
def _rerank(ls, start, length, rank, trail, t, total, sec_lo, sec_hi, heuristic, width, area):
    """Rank the buffers of `ls[start:start + length]` by MiniMalloc's heuristic
    (0: WAT, 1: TAW, 2: TWA; each key descending, ties by buffer index), the T key
    being the fullest of the buffer's sections now; old ranks go on the trail."""
    buffers = ls[start : start + length].copy()
    pressure = np.empty(length, dtype=np.float64)
    for i in range(length):
        x = buffers[i]
        most = 0
        for s in range(sec_lo[x], sec_hi[x]):
            most = max(most, total[s])
        pressure[i] = -float(most)
    order = np.argsort(buffers, kind="mergesort")
    if heuristic == 0:
        keys = (pressure, -area[buffers], -width[buffers])
    elif heuristic == 1:
        keys = (-width[buffers], -area[buffers], pressure)
    else:
        keys = (-area[buffers], -width[buffers], pressure)
    for key in keys:
        order = order[np.argsort(key[order], kind="mergesort")]
    for i in range(length):
        x = buffers[order[i]]
        trail[t, 0] = _TRAIL_RANK
        trail[t, 1] = x
        trail[t, 2] = rank[x]
        t += 1
        rank[x] = i
    return t
