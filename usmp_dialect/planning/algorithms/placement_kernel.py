"""First and best fit for buffers with one live interval each, without scanning blockers.

A placed buffer is a rectangle: its time span by its bytes `[offset, top)`. A segment tree
over time holds, in its nodes, sets of byte ranges kept as sorted disjoint intervals
(touching ranges merged). On the lower levels, two a node:

- `stab`: the buffers whose span decomposes onto this node (they cover all of its times);
- `below`: the union of the `stab` sets of this node and of every node under it.

A new span `[s, e)` decomposes onto O(log T) canonical nodes. A placed buffer overlaps it in
time exactly when it lies in `below` of a canonical node or in `stab` of a proper ancestor of
one, so the bytes the new buffer may not use are the union of those sets, and the free
aligned offsets are found by jumping over their intervals: the lowest such offset is first
fit; walking on gap by gap gives best fit. The plans are those of a scan over every placed
buffer: the gaps are the same.

Each of those sets alone is full of holes that the others fill (the long buffers sit in
`stab` of high nodes, the short ones between them in `below` of low ones), so a walk over
their union passed about every buffer live there: on dense traces (a third of the buffers
live at once) a quadratic number of steps. So the top levels (down to nodes of about four times
the square root of the ranks, `_merged_nodes`) keep instead one set a node:

- `occupied`: every buffer live at some time of the node, merged: nearly solid, its
  intervals are its gaps;
- and, on the last of those levels, `covering`: the buffers live at all of its times (the
  `stab` sets of it and its ancestors, merged), for the canonical nodes under it.

A buffer then goes into `occupied` of every top node it meets (about half its span over the
square root of the ranks, plus the levels) and into `covering` of the last level's nodes it
covers. A best-fit order of a dense 16k trace passes 1980 intervals a buffer instead of
4540 (6930 at 64k); the walk is still linear in the gaps of the union, which grow with the
trace (about n/24 gaps, n/80 of them large enough, on dense traces). So on huge problems
best fit compares only the lowest few gaps that hold the buffer (`gaps_compared`, chosen by
`placement.gaps_compared_in`): 2100 intervals a buffer at 64k, 5600 at 256k.

The merged levels' sets grow with the trace (6250 intervals on average where a dense 256k
order writes, 1340 at 64k), and a write into the middle of one moves the intervals on its
shorter side: 14G intervals in all at 256k, 35 of its 60 CPU s. So a set of the merged
levels, from `PENDING_FROM` intervals on, takes its writes in a small pending set of its
own that the walks read beside it, merged into it in one pass once it holds about twice the
square root of the set's intervals: the same offsets, the writes 2.3x cheaper at 256k for
7 % more steps.
"""

from __future__ import annotations

import numpy as np

from usmp_dialect.planning.algorithms.kernel import kernel

NO_HINT = np.iinfo(np.int64).max
_INITIAL_CAPACITY = 4
PENDING_FROM = 1024
"""Sets of at least this many intervals on the merged levels take new intervals in a small
pending set of their own first (`_write`)."""
ARENA_SLOTS_PER_BUFFER = 256
"""Slots of address space a caller gives the arena at once, a buffer (`arena_slots`): dense
traces of 64k buffers write about 100 a buffer, so the arena need not be copied to grow."""


@kernel
def _align_up(offset, alignment):
    if alignment == 1:
        return offset  # no division on a gap search's every step
    return -(-offset // alignment) * alignment


@kernel
def _first_above(hi, base, length, i, offset):
    """Index (from `base`) of the first interval of a set from `i` on that ends after
    `offset`: galloping, as the offsets a placement asks about only grow."""
    if i >= length or hi[base + i] > offset:
        return i
    low, step = i, 1
    high = i + 1
    while high < length and hi[base + high] <= offset:
        low = high
        step *= 2
        high = low + step
    high = min(high, length)
    low += 1
    while low < high:
        middle = (low + high) >> 1
        if hi[base + middle] > offset:
            high = middle
        else:
            low = middle + 1
    return low


@kernel
def _tournament(key, losers, leaves, winners):
    """Build the loser tree of `key[:leaves]` (`leaves` a power of two): `losers[node]` the
    set that lost at inner node `node`, `losers[0]` the set with the lowest key."""
    for k in range(leaves):
        winners[leaves + k] = k
    for node in range(leaves - 1, 0, -1):
        left, right = winners[2 * node], winners[2 * node + 1]
        if key[right] < key[left]:
            winners[node], losers[node] = right, left
        else:
            winners[node], losers[node] = left, right
    losers[0] = winners[1]


@kernel
def _replay(key, losers, leaves):
    """After the key of the winner `losers[0]` grew, play its matches again up the tree:
    one comparison a level, where a binary heap's sift took two (a dense 64k order's gap
    walk changes sets about 300M times; its best-fit order took 10-15 % less CPU)."""
    winner = losers[0]
    winning = key[winner]
    node = (winner + leaves) >> 1
    while node:
        # Selects, not branches: which set wins a match is a coin toss for the predictor.
        other = losers[node]
        playing = key[other]
        lost = playing < winning
        losers[node] = winner if lost else other
        winner = other if lost else winner
        winning = min(playing, winning)
        node >>= 1
    losers[0] = winner


@kernel
def _lowest_free(lo, hi, base, length, at, key, losers, leaves, offset, size, alignment, work):
    """The lowest aligned offset from `offset` up where `size` bytes meet no interval of
    the sets. `at` is, per set, the first of its intervals not yet passed, and the loser
    losers (`key`, `losers`, `_tournament`) orders the sets by where that interval begins:
    only the set with the lowest interval can block. A set that wins is followed while
    its next interval still blocks (the offset only ever moves to the end of an interval
    that blocks it, so the order the blockers are passed in does not change where it
    stops), and plays again when it no longer does: a placement costs a step per
    interval passed (counted in `work[0]`) and a replay per change of set."""
    steps = 0
    while key[losers[0]] < offset + size:
        k = losers[0]
        i, first, last = at[k], base[k], length[k]
        while True:
            steps += 1
            if hi[first + i] > offset:
                offset = _align_up(hi[first + i], alignment)
            i = _first_above(hi, first, last, i + 1, offset)
            if i >= last or lo[first + i] >= offset + size:
                break
        at[k] = i
        key[k] = lo[first + i] if i < last else NO_HINT
        _replay(key, losers, leaves)
    work[0] += steps
    return offset


@kernel
def _tightest_free(
    lo, hi, base, length, at, key, losers, leaves, size, alignment, gaps_compared, work
):
    """The aligned start of the smallest of the lowest `gaps_compared` gaps that hold
    `size` bytes (the lowest such gap on ties), or of the space above everything when no
    gap holds it; with none compared, the lowest free offset."""
    offset = _lowest_free(lo, hi, base, length, at, key, losers, leaves, 0, size, alignment, work)
    best, best_room = -1, NO_HINT
    compared = 0
    # Where the walk stops, the lowest interval left is the first above the free offset.
    while key[losers[0]] != NO_HINT and compared < gaps_compared:
        compared += 1
        end = key[losers[0]]
        if end - offset < best_room:
            best, best_room = offset, end - offset
            if best_room == size:
                return best
        offset = _lowest_free(
            lo,
            hi,
            base,
            length,
            at,
            key,
            losers,
            leaves,
            _align_up(end, alignment),
            size,
            alignment,
            work,
        )
    return offset if best < 0 else best


@kernel
def _query_sets(tree, merged, pool, start, end, stamp, seen, sets):
    """The sets holding every placed buffer of `pool` live during `[start, end)`."""
    nodes = 2 * tree
    count = 0
    low, high = start + tree, end + tree
    while low < high:
        if low & 1:
            count = _add_node(pool, nodes, merged, low, stamp, seen, sets, count)
            low += 1
        if high & 1:
            high -= 1
            count = _add_node(pool, nodes, merged, high, stamp, seen, sets, count)
        low >>= 1
        high >>= 1
    return count


@kernel
def _add_node(pool, nodes, merged, node, stamp, seen, sets, count):
    """Add `below` (`occupied` when `node < merged`) of canonical `node`, and for a node
    under the merged levels `stab` of its ancestors not added yet, down to the level above
    the merged ones, whose `covering` set stands for the stabs of all merged ancestors."""
    sets[count] = (2 * pool + 1) * nodes + node
    count += 1
    if node < merged:
        return count
    parent = node >> 1
    while parent >= merged >> 1 and seen[parent] != stamp:
        seen[parent] = stamp
        sets[count] = 2 * pool * nodes + parent
        count += 1
        parent >>= 1
    return count


@kernel
def _merged_nodes(tree):
    """The nodes below this index keep `occupied` sets: the levels whose nodes span at
    least about four times the square root of the time ranks. One level deeper took a
    dense 64k best-fit order 17.6 CPU s against 14.3 (72% more writes), one shallower
    12.2 against 13.5 (35% fewer writes, 3% more steps; 16k the same), now that a step
    replays a loser tree; with the binary heap, at 16k, one deeper had passed as many
    intervals and written more sets, one shallower passed 10% more (1.23 s against
    1.21)."""
    nodes = 2 * tree
    merged = 2
    while 16 * merged * merged < nodes:
        merged *= 2
    return merged


@kernel
def _merged_targets(targets, count, tree, merged, pool, start, end):
    """Append to `targets` (from `count` on) `occupied` of every merged node live during
    `[start, end)` and `covering` of the nodes of the last merged level within it; returns
    the new count."""
    nodes = 2 * tree
    level, width = 1, tree
    while level < merged:
        for node in range(level + start // width, level + (end - 1) // width + 1):
            targets[count] = (2 * pool + 1) * nodes + node
            count += 1
        if 2 * level == merged and merged < nodes:
            for node in range(level - (-start // width), level + end // width):
                targets[count] = 2 * pool * nodes + node
                count += 1
        level *= 2
        width //= 2
    return count


@kernel
def _compact(lo, hi, set_room, set_base, set_length, set_capacity):
    """Move every set's room down over the space its earlier copies left (a set that grows
    is copied to the arena's top), in the order they lie, its intervals as far into it as
    before; returns the arena's new top."""
    used = np.flatnonzero(set_capacity)
    top = 0
    for s in used[np.argsort(set_room[used], kind="mergesort")]:
        base = set_base[s]
        moved = top + base - set_room[s]
        for i in range(set_length[s]):
            lo[moved + i] = lo[base + i]
            hi[moved + i] = hi[base + i]
        set_room[s] = top
        set_base[s] = moved
        top += set_capacity[s]
    return top


@kernel
def _grown(values, used, slots):
    """`values` with room for `slots`, its first `used` kept."""
    grown = np.empty(slots, values.dtype)
    grown[:used] = values[:used]
    return grown


@kernel
def _move(lo, hi, first, last, shift):
    """Move the intervals in slots `[first, last)` by `shift` slots."""
    if shift > 0:
        for t in range(last - 1, first - 1, -1):
            lo[t + shift] = lo[t]
            hi[t + shift] = hi[t]
    elif shift < 0:
        for t in range(first, last):
            lo[t + shift] = lo[t]
            hi[t + shift] = hi[t]


@kernel
def _insert(lo, hi, set_room, set_base, set_length, set_capacity, s, first, size, top):
    """Add `[first, first + size)` to set `s`, merging what it touches, and move `top[0]`
    (the arena's top) past the set if it had to move; False, with nothing added, when the
    arena must grow first. A set lies within its room (`set_room`, `set_capacity` slots),
    with free slots on both sides: the intervals before the merge or those after it move,
    whichever are fewer (a dense 64k best-fit order's writes, to sets of 1340 intervals on
    average, moved 0.48G intervals and 0.05G re-centring instead of the tails' 0.97G). The
    arena is used up to `top[1]` slots: it is compacted when that is full, and `top[1]`
    raised by a quarter (by the caller) when the compaction leaves it more than seven
    eighths full, so that the slots written stay within about 1.5x the intervals held
    (dense 64k traces had 4M intervals in 16M slots with doubling)."""
    last = first + size
    base, length = set_base[s], set_length[s]
    # Bisection, not galloping from the set's start: writes land anywhere in a set.
    i = np.searchsorted(hi[base : base + length], first - 1, "right")
    j = i
    while j < length and lo[base + j] <= last:
        j += 1
    if i < j:
        first = min(first, lo[base + i])
        last = max(last, hi[base + j - 1])
    shift = 1 - (j - i)
    room_before = base - set_room[s]
    room_after = set_room[s] + set_capacity[s] - base - length
    if shift > room_before + room_after:
        capacity = max(_INITIAL_CAPACITY, set_capacity[s] + set_capacity[s] // 4)
        # Centred in its new room, so that either side can take the next intervals.
        if not _regrow(lo, hi, set_room, set_base, set_length, set_capacity, s, capacity, 2, top):
            return False
        base = set_base[s]
        room_before = base - set_room[s]
        room_after = set_capacity[s] - room_before - length
    head_first = i < length - j
    if shift > (room_before if head_first else room_after):
        # The shorter side has no free slot: centre the set in its room (new buffers tend
        # to land at one end, so one side's slots run out long before the other's).
        centred = set_room[s] + (set_capacity[s] - length) // 2
        _move(lo, hi, base, base + length, centred - base)
        room_before += centred - base
        room_after -= centred - base
        base = centred
        set_base[s] = base
    # Make the merge's slot: move the intervals before it left (or those after it right),
    # or, when it merged several, close the gap from the shorter side.
    if (head_first and shift <= room_before) or shift > room_after:
        _move(lo, hi, base, base + i, -shift)
        base -= shift
        set_base[s] = base
    else:
        _move(lo, hi, base + j, base + length, shift)
    lo[base + i] = first
    hi[base + i] = last
    set_length[s] = length + shift
    return True


@kernel
def _regrow(lo, hi, set_room, set_base, set_length, set_capacity, s, capacity, part, top):
    """Copy set `s` to a room of `capacity` slots at the arena's top, `1 / part` of its
    free slots before it; False, with nothing moved, when the arena must grow first."""
    length = set_length[s]
    if top[0] + capacity > top[1]:
        top[0] = _compact(lo, hi, set_room, set_base, set_length, set_capacity)
        if 8 * (top[0] + capacity) > 7 * top[1]:
            return False
    base = set_base[s]
    moved = top[0] + (capacity - length) // part
    lo[moved : moved + length] = lo[base : base + length]
    hi[moved : moved + length] = hi[base : base + length]
    set_room[s] = top[0]
    set_base[s] = moved
    set_capacity[s] = capacity
    top[0] += capacity
    return True


@kernel
def _flush(lo, hi, set_room, set_base, set_length, set_capacity, s, pending, top):
    """Merge the intervals of set `pending` into set `s` and empty it; False, with nothing
    merged, when the arena must grow first. The merge runs from the top down in `s`'s
    room, after its intervals: it never overwrites one not read yet. It takes the
    intervals by their ends, highest first: an interval of one set may span several of
    the other's, and the block being merged is final once the next end falls below it."""
    length, count = set_length[s], set_length[pending]
    base = set_base[s]
    if base + length + count > set_room[s] + set_capacity[s]:
        if set_capacity[s] >= 2 * (length + count):
            _move(lo, hi, base, base + length, set_room[s] - base)
        else:
            capacity = 2 * (length + count)
            if not _regrow(
                lo, hi, set_room, set_base, set_length, set_capacity, s, capacity, capacity, top
            ):
                return False
        base = set_room[s]
        set_base[s] = base
    i, j = length - 1, count - 1
    write = base + length + count
    extra = set_base[pending]
    low, high = NO_HINT, NO_HINT
    while i >= 0 or j >= 0:
        if j < 0 or (i >= 0 and hi[base + i] >= hi[extra + j]):
            first, last = lo[base + i], hi[base + i]
            i -= 1
        else:
            first, last = lo[extra + j], hi[extra + j]
            j -= 1
        if high != NO_HINT and last >= low:
            low = min(low, first)
            high = max(high, last)
            continue
        if high != NO_HINT:
            write -= 1
            lo[write], hi[write] = low, high
        low, high = first, last
    if high != NO_HINT:
        write -= 1
        lo[write], hi[write] = low, high
    set_length[s] = base + length + count - write
    set_base[s] = write
    set_length[pending] = 0
    return True


@kernel
def _pending_of(s, nodes, merged, num_sets):
    """The pending set of set `s` (-1 when it has none: it is not on the merged levels)."""
    if s % nodes >= merged:
        return -1
    return num_sets + s // nodes * merged + s % nodes


@kernel
def _write(
    lo, hi, set_room, set_base, set_length, set_capacity, s, pending, pending_from, first, size, top
):
    """Add `[first, first + size)` to set `s`, or, for a large set (`pending` not -1), to
    its small `pending` set, merged into `s` once it holds more than about twice the
    square root of `s`'s intervals; False when the arena must grow first (writing again
    then adds nothing twice)."""
    if pending < 0 or (set_length[s] < pending_from and set_length[pending] == 0):
        return _insert(lo, hi, set_room, set_base, set_length, set_capacity, s, first, size, top)
    if not _insert(lo, hi, set_room, set_base, set_length, set_capacity, pending, first, size, top):
        return False
    count = set_length[pending]
    if count * count <= 4 * set_length[s]:
        return True
    return _flush(lo, hi, set_room, set_base, set_length, set_capacity, s, pending, top)


@kernel
def place_spans(
    span_start,
    span_end,
    sizes,
    alignments,
    order,
    best_fit,
    candidate_indptr,
    candidate_pools,
    hints,
    num_pools,
    pinned,
    arena_slots,
    gaps_compared,
    pending_from,
):
    """`(pool, offset, failed, steps, writes)`: every buffer of `order` at the first
    candidate pool where it fits under the hint (`NO_HINT`: none); `failed` is the first
    buffer that fits nowhere (-1 when all were placed); `steps` the intervals the gap
    searches passed, `writes` the sets the placed buffers were written to. A buffer whose
    `pinned` offset is not -1 goes there, in its first candidate pool, whatever it meets
    (the caller knows it overlaps nothing). The arena of intervals starts with address
    space for `arena_slots`, and sets of the merged levels take their writes in pending
    sets from `pending_from` intervals on (the offsets depend on neither)."""
    n = len(sizes)
    leaves = max(int(span_end.max()) if n else 1, 1)
    tree = 1
    while tree < leaves:
        tree *= 2
    nodes = 2 * tree
    merged = _merged_nodes(tree)
    num_sets = 2 * num_pools * nodes
    # After the sets, a pending set for each set of the merged levels (`_write`).
    all_sets = num_sets + 2 * num_pools * merged
    set_room = np.zeros(all_sets, np.int64)
    set_base = np.zeros(all_sets, np.int64)
    set_length = np.zeros(all_sets, np.int64)
    set_capacity = np.zeros(all_sets, np.int64)
    # Address space for the arena: pages are only resident once written, and the arena is
    # written from the bottom up to `top[1]` slots.
    lo = np.empty(max(arena_slots, 64), np.int64)
    hi = np.empty(len(lo), np.int64)
    top = np.array([0, min(max(16 * n, 64), len(lo))], np.int64)
    seen = np.zeros(nodes, np.int64)
    stamp = 0
    sets = np.empty(4 * 64 + 8, np.int64)
    targets = np.empty(2 * len(sets) + 2 * merged, np.int64)
    # Per set of a query (padded to a power of two with empty ones): where its intervals
    # are, the first not passed, the loser tree.
    slots = 1
    while slots < 2 * len(sets):
        slots *= 2
    base = np.empty(slots, np.int64)
    length = np.empty(slots, np.int64)
    at = np.empty(slots, np.int64)
    key = np.empty(slots, np.int64)
    losers = np.empty(slots, np.int64)
    winners = np.empty(2 * slots, np.int64)
    pool_of = np.full(n, -1, np.int64)
    offset_of = np.zeros(n, np.int64)
    work = np.zeros(2, np.int64)
    for buffer in order:
        size = sizes[buffer]
        start, end = span_start[buffer], span_end[buffer]
        placed = False
        for c in range(candidate_indptr[buffer], candidate_indptr[buffer + 1]):
            pool = candidate_pools[c]
            offset = max(pinned[buffer], 0)
            count = 0
            if size > 0 and start < end:
                stamp += 1
                count = _query_sets(tree, merged, pool, start, end, stamp, seen, sets)
            if count and pinned[buffer] < 0:
                alignment = alignments[buffer]
                # Only the sets that hold intervals play: fewer levels to replay.
                players = 0
                for k in range(2 * count):
                    s = sets[k >> 1]
                    if k & 1:
                        s = _pending_of(s, nodes, merged, num_sets)
                    if s >= 0 and set_length[s]:
                        base[players] = set_base[s]
                        length[players] = set_length[s]
                        at[players] = 0
                        key[players] = lo[base[players]]
                        players += 1
                held = players
                players = 1
                while players < held:
                    players *= 2
                for k in range(held, players):
                    base[k], length[k], at[k], key[k] = 0, 0, 0, NO_HINT
                _tournament(key, losers, players, winners)
                # First fit is the lowest of no gaps compared.
                compared = gaps_compared if best_fit else 0
                offset = _tightest_free(
                    lo, hi, base, length, at, key, losers, players, size, alignment, compared, work
                )
            if offset + size > hints[pool]:
                continue
            pool_of[buffer] = pool
            offset_of[buffer] = offset
            placed = True
            # The query took `below` of the canonical nodes and `stab` of their ancestors;
            # the buffer goes to `below` of all of them and to `stab` of the canonical
            # nodes, and to the merged levels' sets it meets.
            writes = 0
            for k in range(count):
                node = sets[k] % nodes
                if node < merged:
                    continue
                if sets[k] // nodes % 2 == 1:
                    targets[writes] = sets[k] - nodes
                    writes += 1
                    targets[writes] = sets[k]
                else:
                    targets[writes] = sets[k] + nodes
                writes += 1
            if count:
                writes = _merged_targets(targets, writes, tree, merged, pool, start, end)
            work[1] += writes
            for k in range(writes):
                while not _write(
                    lo,
                    hi,
                    set_room,
                    set_base,
                    set_length,
                    set_capacity,
                    targets[k],
                    _pending_of(targets[k], nodes, merged, num_sets),
                    pending_from,
                    offset,
                    size,
                    top,
                ):
                    top[1] += top[1] // 4 + _INITIAL_CAPACITY
                    if top[1] > len(lo):
                        # One array after the other: at most three are held at once.
                        slots = max(top[1], len(lo) + len(lo) // 4)
                        lo = _grown(lo, top[0], slots)
                        hi = _grown(hi, top[0], slots)
            break
        if not placed:
            return pool_of, offset_of, buffer, work[0], work[1]
    return pool_of, offset_of, -1, work[0], work[1]
