"""The broad phase's pairs as a compiled kernel over the filed boxes (numba).

``systems.physics._broad.grid.SpatialGrid.pairs`` is the reference. It reports every
pair of filed boxes that overlap or touch, once, except pairs of two
STATICs, of two TRIGGERs (its ``apart``) and of two boxes filed as level
geometry (the grid keeps them apart and never pairs them): a pair's
intersection has its top-left corner in a cell both boxes are filed in,
and only that cell reports it (Metanet, *N Tutorial A*). ``grid_pairs``
finds the same set over arrays, a row per body: boxes are filed by sorting
(cell, row) records, pairs are found cell by cell with the same top-left
rule, and boxes covering more than
``LARGE_SPAN`` cells are tested against every box instead. A cell holding
more than ``CROWD`` boxes is swept along x by kinds of box, as the grid
does (``_crowd_pairs``; the grid counts only the boxes that are not level
geometry, which changes the work, not the pairs): its work is the pairs
found plus those whose x ranges overlap, never the square of its crowd.
Of the pairs found, those whose layers don't meet are dropped as they are
found, as ``Collide._find_pairs`` drops them from the grid's
(``systems.physics._stages.found.Found.meet``). The pairs come out sorted
(rows ascending); what the pipeline computes from them does not depend on
their order.

In a pile (``systems.physics._broad.grid.PILE``) the grid pairs the ordinary movers
(neither STATIC, TRIGGER nor level geometry) along a ring, and so does
``grid_pairs``: the same pairs (``_ring_pairs``).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from systems.physics._broad.grid import CROWD, LARGE_SPAN, PILE
from .cells import _span
from .table import _moved
from .jit import helper, kernel

__all__ = ["APART", "DONE", "FULL", "LEVEL", "SKIP", "SPREAD", "every_row", "grid_pairs", "group_by_row",
           "level_cells", "swept_bounds"]

#: ``grid_pairs`` status: done; the pair buffer was full (call again with a
#: larger ``capacity``); the boxes span too many cells to number them in 64
#: bits (ask the grid).
DONE, FULL, SPREAD = 0, 1, 2

#: A row's kind bits, as the grid sorts a crowded cell's boxes
#: (grid._kinds: a bit per group, ``skip`` then ``apart``, then one for
#: level geometry): two rows sharing a bit are never paired.
SKIP, APART, LEVEL = 1, 2, 4
KINDS = 8  # (kinds 0 to SKIP | APART | LEVEL)


@kernel
def swept_bounds(start: Any, now: Any, offset: Any, size: Any) -> tuple[Any, Any]:
    """Each body's swept bounds, the union of its boxes at the start of the step and now: the
    box the broad phase files it under (px; (n, 4), from its position at the start of the step
    and now, its collider's offset and size, each (n, 2)); and whether it moved ((n,) bool)."""
    boxes, moved = np.empty((start.shape[0], 4)), np.empty(start.shape[0], np.bool_)
    for k in range(start.shape[0]):
        for axis in range(2):
            corner, shift = now[k, axis] + offset[k, axis], start[k, axis] - now[k, axis]
            boxes[k, axis] = corner + shift if shift < 0 else corner
            boxes[k, 2 + axis] = size[k, axis] + abs(shift)
        moved[k] = _moved(start, now, k)
    return boxes, moved


# Whether two boxes overlap or touch (grid._touch).
@helper
def _touch(boxes: Any, a: int, b: int) -> bool:
    return bool(boxes[a, 0] <= boxes[b, 0] + boxes[b, 2] and boxes[b, 0] <= boxes[a, 0] + boxes[a, 2]
                and boxes[a, 1] <= boxes[b, 1] + boxes[b, 3] and boxes[b, 1] <= boxes[a, 1] + boxes[a, 3])


@helper
def _is_pile(boxes: Any, rows: Any, size: float) -> bool:
    """Whether a cell's ordinary movers ``rows`` make a pile
    (grid._is_pile): more than CROWD of them, covering more than PILE
    cells' area (each counted up to one cell's)."""
    if rows.shape[0] <= CROWD:
        return False
    cell = size * size
    total = 0.0
    for row in rows:
        total += min(boxes[row, 2] * boxes[row, 3], cell)
    return total > PILE * cell


# Z-order (Morton) key of a cell of a fine lattice (grid._morton).
@helper
def _morton(x: int, y: int) -> int:
    key = 0
    for bit in range(16):
        key |= ((x >> bit) & 1) << (2 * bit) | ((y >> bit) & 1) << (2 * bit + 1)
    return key


@helper
def _before(keys: Any, a: int, b: int) -> bool:
    """Whether row a of ``keys`` (Morton key, spread, entity) sorts before row b."""
    for column in range(3):
        if keys[a, column] != keys[b, column]:
            return bool(keys[a, column] < keys[b, column])
    return False


@kernel
def _ring_pairs(boxes: Any, layers: Any, entities: Any, members: Any, size: float, shuffle: int, found: Any,
                count: int) -> int:
    """A pile's pairs of ordinary movers ``members`` (grid._ring_pairs):
    each with the next CROWD along the Z-order curve of their centres,
    movers on one spot ordered by a hash of the entity and ``shuffle``; only
    pairs that touch."""
    step = size / 16.0
    m = members.shape[0]
    movers = members.copy()
    keys = np.empty((m, 3), np.int64)
    for i in range(m):
        row = movers[i]
        x, y, w, h = boxes[row, 0], boxes[row, 1], boxes[row, 2], boxes[row, 3]
        keys[i, 0] = _morton(int((x + w / 2) // step), int((y + h / 2) // step))
        keys[i, 1] = (entities[row] * 2654435761 + shuffle * 40503) & 0xFFFFFFFF
        keys[i, 2] = entities[row]
    for i in range(1, m):  # insertion sort by key: a pile's movers are few
        j = i
        while j > 0 and _before(keys, j, j - 1):
            for column in range(3):
                keys[j, column], keys[j - 1, column] = keys[j - 1, column], keys[j, column]
            movers[j], movers[j - 1] = movers[j - 1], movers[j]
            j -= 1
    reach = min(CROWD, m - 1)
    for i in range(m):
        for d in range(1, reach + 1):
            if i + d < m and _touch(boxes, movers[i], movers[i + d]):
                count = _emit(found, count, movers[i], movers[i + d], layers)
    return count


@helper
def _report(boxes: Any, layers: Any, a: int, b: int, cx: int, cy: int, size: float, found: Any, count: int) -> int:
    """``_emit`` the pair (a, b) if it touches and the top-left corner of
    its intersection is in the cell (cx, cy)."""
    if not _touch(boxes, a, b):
        return count
    left, top = max(boxes[a, 0], boxes[b, 0]), max(boxes[a, 1], boxes[b, 1])
    if math.floor(left / size) != cx or math.floor(top / size) != cy:
        return count
    return _emit(found, count, a, b, layers)


@helper
def _after(boxes: Any, rows: Any, value: float, strictly: bool) -> int:
    """How many of ``rows`` (sorted by left edge) have a left edge below
    ``value`` (or at most ``value`` if ``strictly``): a binary search."""
    low, high = 0, rows.shape[0]
    while low < high:
        middle = (low + high) // 2
        left = boxes[rows[middle], 0]
        if left < value or (strictly and left == value):
            low = middle + 1
        else:
            high = middle
    return low


@helper
def _sweep(boxes: Any, layers: Any, first: Any, second: Any, cx: int, cy: int, size: float, found: Any,
           count: int) -> int:
    """``_report`` the pairs of one row of ``first`` and one of ``second``
    (both sorted by left edge) whose x ranges overlap or touch, each found
    from the box whose left edge comes first (ties: from ``first``)
    (grid._sweep_pairs)."""
    for a in first:  # the left edges of ``second`` in [left, right] of a's
        begin, end = _after(boxes, second, boxes[a, 0], False), _after(boxes, second, boxes[a, 0] + boxes[a, 2], True)
        for k in range(begin, end):
            count = _report(boxes, layers, a, second[k], cx, cy, size, found, count)
    for b in second:  # the left edges of ``first`` in (left, right] of b's
        begin, end = _after(boxes, first, boxes[b, 0], True), _after(boxes, first, boxes[b, 0] + boxes[b, 2], True)
        for k in range(begin, end):
            count = _report(boxes, layers, b, first[k], cx, cy, size, found, count)
    return count


@helper
def _sweep_within(boxes: Any, layers: Any, rows: Any, cx: int, cy: int, size: float, found: Any, count: int) -> int:
    """``_report`` the pairs of ``rows`` (sorted by left edge) whose x
    ranges overlap or touch, each once (grid._sweep_pairs)."""
    for i in range(rows.shape[0]):
        a = rows[i]
        right = boxes[a, 0] + boxes[a, 2]
        j = i + 1
        while j < rows.shape[0] and boxes[rows[j], 0] <= right:
            count = _report(boxes, layers, a, rows[j], cx, cy, size, found, count)
            j += 1
    return count


@kernel
def _crowd_pairs(boxes: Any, kinds: Any, layers: Any, entities: Any, members: Any, cx: int, cy: int, size: float,
                 shuffle: int, found: Any, count: int) -> int:
    """A crowded cell's pairs (grid._crowd_pairs): its rows sorted by
    kind (``kinds``), then by left edge, and each two kinds that share no
    bit swept against each other; in a pile the ordinary movers (kind 0)
    paired along a ring instead."""
    kind = np.empty(members.shape[0], np.int64)
    lefts = np.empty(members.shape[0])
    for i in range(members.shape[0]):
        kind[i], lefts[i] = kinds[members[i]], boxes[members[i], 0]
    # By kind, then left edge, then row: both sorts stable, rows ascending in members.
    order = np.argsort(lefts, kind="mergesort")
    order = order[np.argsort(kind[order], kind="mergesort")]
    rows = members[order]
    starts = np.zeros(KINDS + 1, np.int64)
    for value in kind:
        starts[value + 1] += 1
    for value in range(KINDS):
        starts[value + 1] += starts[value]
    ordinary = rows[starts[0]:starts[1]]
    if _is_pile(boxes, ordinary, size):
        count = _ring_pairs(boxes, layers, entities, ordinary, size, shuffle, found, count)
    else:
        count = _sweep_within(boxes, layers, ordinary, cx, cy, size, found, count)
    for first in range(KINDS):
        for second in range(first + 1, KINDS):
            if first & second == 0 and starts[first] < starts[first + 1] and starts[second] < starts[second + 1]:
                count = _sweep(boxes, layers, rows[starts[first]:starts[first + 1]],
                               rows[starts[second]:starts[second + 1]], cx, cy, size, found, count)
    return count


@helper
def _meet(layers: Any, a: int, b: int) -> bool:
    """Whether rows a and b can collide by their layers (``layers``: a
    row's category and mask): each one's category in the other's mask
    (Box2D's collision filtering, as ``components.layers.interacts``)."""
    return bool(layers[a, 0] & layers[b, 1] != 0 and layers[b, 0] & layers[a, 1] != 0)


@helper
def _emit(found: Any, count: int, a: int, b: int, layers: Any) -> int:
    """Add the pair (a, b), if their layers ``_meet``, as one sortable key
    (a * rows + b); -1 once ``found`` is full."""
    if not _meet(layers, a, b):
        return count
    if count < 0 or count >= found.shape[0]:
        return -1
    found[count] = min(a, b) * layers.shape[0] + max(a, b)
    return count + 1


@helper
def _apart(kinds: Any, a: int, b: int) -> bool:
    """Whether the grid never pairs a and b: their kinds share a bit."""
    return bool(kinds[a] & kinds[b] != 0)


@helper
def _cell_pairs(boxes: Any, kinds: Any, layers: Any, members: Any, cx: int, cy: int, size: float, found: Any,
                count: int) -> int:
    """The pairs one cell reports: touching, not ``_apart``, and the top-left
    corner of their intersection in this cell."""
    for i in range(members.shape[0]):
        a = members[i]
        for j in range(i + 1, members.shape[0]):
            b = members[j]
            if not _apart(kinds, a, b):
                count = _report(boxes, layers, a, b, cx, cy, size, found, count)
    return count


#: A cell's key in a kept filing: its column times 2**32 plus its row offset by 2**31, so keys
#: sort by column, then row (cells numbered -2**31 to 2**31 - 1 each way; beyond, SPREAD).
_HALF = 2 ** 31


@helper
def _cell_key(cx: int, cy: int) -> int:
    """Cell (cx, cy)'s key in a kept filing (``_HALF``)."""
    return cx * 2 * _HALF + (cy + _HALF)


@kernel
def level_cells(boxes: Any, rows: Any, size: float) -> tuple[Any, Any, Any, int]:
    """Level geometry's ``rows`` filed once, for ``grid_pairs`` to look up by cell: the
    (key, row) records of the small boxes (``_HALF``: column * 2**32 + row + 2**31), sorted
    by key then row, the rows of the large boxes (more than ``LARGE_SPAN`` cells), and a
    status (DONE, or SPREAD if a cell lies beyond what a key numbers)."""
    n = rows.shape[0]
    count = 0
    for k in range(n):
        row = rows[k]
        x0, y0, x1, y1 = _span(boxes[row, 0], boxes[row, 1], boxes[row, 2], boxes[row, 3], size)
        if (x1 - x0 + 1.0) * (y1 - y0 + 1.0) <= LARGE_SPAN:
            if x0 < -_HALF or y0 < -_HALF or x1 >= _HALF or y1 >= _HALF:
                return np.empty(0, np.int64), np.empty(0, np.int64), np.empty(0, np.int64), SPREAD
            count += (x1 - x0 + 1) * (y1 - y0 + 1)
    keys = np.empty(count, np.int64)
    filed = np.empty(count, np.int64)
    large = np.empty(n, np.int64)
    k, larges = 0, 0
    for i in range(n):
        row = rows[i]
        x0, y0, x1, y1 = _span(boxes[row, 0], boxes[row, 1], boxes[row, 2], boxes[row, 3], size)
        if (x1 - x0 + 1.0) * (y1 - y0 + 1.0) > LARGE_SPAN:
            large[larges] = row
            larges += 1
            continue
        for cx in range(x0, x1 + 1):
            for cy in range(y0, y1 + 1):
                keys[k], filed[k] = _cell_key(cx, cy), row
                k += 1
    order = np.argsort(keys, kind="mergesort")  # (stable: rows ascending within a cell, as given)
    return keys[order], filed[order], large[:larges].copy(), DONE


@helper
def _level_range(keys: Any, cx: int, cy: int) -> tuple[int, int]:
    """Where the records of cell (cx, cy) are in a kept filing's sorted ``keys`` (``level_cells``):
    [low, high), empty for a cell beyond what a key numbers."""
    if cx < -_HALF or cy < -_HALF or cx >= _HALF or cy >= _HALF:
        return 0, 0
    key = _cell_key(cx, cy)
    low, high = 0, keys.shape[0]
    while low < high:  # the first record of the cell or after it
        middle = (low + high) // 2
        if keys[middle] < key:
            low = middle + 1
        else:
            high = middle
    end = low
    while end < keys.shape[0] and keys[end] == key:
        end += 1
    return low, end


@helper
def _merge(first: Any, second: Any, out: Any) -> int:
    """Two runs of rows, each ascending, as one ascending run at the start of ``out``; returns
    its length."""
    i, j, k = 0, 0, 0
    while i < first.shape[0] or j < second.shape[0]:
        if j >= second.shape[0] or (i < first.shape[0] and first[i] < second[j]):
            out[k] = first[i]
            i += 1
        else:
            out[k] = second[j]
            j += 1
        k += 1
    return k


@helper
def _large_pair(boxes: Any, kinds: Any, layers: Any, large: Any, a: int, b: int, found: Any, count: int) -> int:
    """``_emit`` (a, b) for the large box a if they touch and are not ``_apart`` (a pair of
    two large boxes from its lower row only)."""
    if b == a or (large[b] and b < a) or _apart(kinds, a, b) or not _touch(boxes, a, b):
        return count
    return _emit(found, count, a, b, layers)


def every_row(rows: int) -> tuple[Any, tuple[Any, Any, Any]]:
    """``grid_pairs``' ``movers`` and ``level`` for filing all of ``rows`` rows each call."""
    nothing = np.zeros(0, np.int64)
    return np.arange(rows, dtype=np.int64), (nothing, nothing, nothing)


@kernel
def grid_pairs(boxes: Any, kinds: Any, layers: Any, entities: Any, size: float, shuffle: int,
               capacity: int, movers: Any, level: Any) -> tuple[Any, int]:
    """Every pair of rows whose ``boxes`` (n, 4: left, top, width, height,
    px) overlap or touch, whose ``kinds`` (n: bits SKIP for the STATICs the
    grid is told to skip, APART for the TRIGGERs it keeps apart, LEVEL for
    level geometry) share no bit, and whose ``layers`` (n, 2: category and
    mask, each 32 bits) meet, as (m, 2) rows ascending; ``entities`` are the
    rows' ids, ``size`` is the cell size (px), ``shuffle`` orders piles (the
    step number) and ``capacity`` is the most pairs it may find. Returns
    (pairs, status).

    ``movers`` (ascending) are the rows filed here; the others are level geometry, filed
    once (``level``: ``level_cells`` of them, kept while they stay put; all of them of kind
    LEVEL, so never paired with each other): only the cells a mover is filed in are looked
    at, each with the level geometry filed there. ``every_row(n)`` files every row here."""
    rows = boxes.shape[0]
    keys, filed, level_large = level
    spans = np.empty((movers.shape[0], 4), np.int64)
    large = np.zeros(rows, np.bool_)
    for row in level_large:
        large[row] = True
    filings = 0
    low_x, low_y, high_x, high_y = 0, 0, 0, 0
    for i in range(movers.shape[0]):
        row = movers[i]
        x0, y0, x1, y1 = _span(boxes[row, 0], boxes[row, 1], boxes[row, 2], boxes[row, 3], size)
        spans[i, 0], spans[i, 1], spans[i, 2], spans[i, 3] = x0, y0, x1, y1
        if (x1 - x0 + 1.0) * (y1 - y0 + 1.0) > LARGE_SPAN:
            large[row] = True
            continue
        if filings == 0:
            low_x, low_y, high_x, high_y = x0, y0, x1, y1
        low_x, low_y, high_x, high_y = min(low_x, x0), min(low_y, y0), max(high_x, x1), max(high_y, y1)
        filings += (x1 - x0 + 1) * (y1 - y0 + 1)
    empty = np.empty((0, 2), np.int64)
    height = high_y - low_y + 1
    if (high_x - low_x + 1.0) * height >= 2.0 ** 62:
        return empty, SPREAD
    # File every small mover under each of its cells: (cell number, row) records, sorted.
    cells = np.empty(filings, np.int64)
    members = np.empty(filings, np.int64)
    k = 0
    for i in range(movers.shape[0]):
        if large[movers[i]]:
            continue
        for cx in range(spans[i, 0], spans[i, 2] + 1):
            for cy in range(spans[i, 1], spans[i, 3] + 1):
                cells[k], members[k] = (cx - low_x) * height + (cy - low_y), movers[i]
                k += 1
    numbered = (high_x - low_x + 1) * height
    if numbered <= 4 * filings + 1024:  # (a counting sort's count per cell number costs less than sorting)
        order = group_by_row(cells, numbered)[0]
    else:
        order = np.argsort(cells, kind="mergesort")
    cells, members = cells[order], members[order]  # (both sorts stable: rows ascending within a cell)
    found = np.empty(capacity, np.int64)
    group = np.empty(filings + keys.shape[0], np.int64)  # a cell's rows, movers' and level geometry's
    count = 0
    start = 0
    while start < filings:
        end = start
        while end < filings and cells[end] == cells[start]:
            end += 1
        cx, cy = low_x + cells[start] // height, low_y + cells[start] % height
        low, high = _level_range(keys, cx, cy)
        if end - start + high - low > 1:
            rows_here = group[:_merge(members[start:end], filed[low:high], group)]
            if rows_here.shape[0] > CROWD:
                count = _crowd_pairs(boxes, kinds, layers, entities, rows_here, cx, cy, size, shuffle, found, count)
            else:
                count = _cell_pairs(boxes, kinds, layers, rows_here, cx, cy, size, found, count)
        start = end
    # Large boxes meet every box they touch (small ones once: they are not in cells here): a
    # large mover any row, large level geometry the movers.
    for a in range(rows):
        if not large[a]:
            continue
        if kinds[a] & LEVEL:  # (it meets no row of kind LEVEL: the others are all movers)
            for b in movers:
                count = _large_pair(boxes, kinds, layers, large, a, b, found, count)
        else:
            for b in range(rows):
                count = _large_pair(boxes, kinds, layers, large, a, b, found, count)
    if count < 0:
        return empty, FULL
    return _distinct_pairs(found[:count], rows), DONE


@kernel
def _distinct_pairs(keys: Any, rows: int) -> Any:
    """The distinct pairs among ``keys`` (a * rows + b, as ``_emit`` makes
    them) as (m, 2) rows ascending (a pair of a pile may be found in several
    cells): grouped by a with a counting sort, then each a's keys sorted,
    by insertion where they are few (most boxes touch a handful)."""
    order, starts = group_by_row(keys // rows, rows)
    grouped = keys[order]
    for a in range(rows):
        low, high = starts[a], starts[a + 1]
        if high - low > 16:
            grouped[low:high] = np.sort(grouped[low:high])
            continue
        for i in range(low + 1, high):
            key, j = grouped[i], i
            while j > low and grouped[j - 1] > key:
                grouped[j] = grouped[j - 1]
                j -= 1
            grouped[j] = key
    pairs = np.empty((grouped.shape[0], 2), np.int64)
    m = 0
    for i in range(grouped.shape[0]):
        if i == 0 or grouped[i] != grouped[i - 1]:
            pairs[m, 0], pairs[m, 1] = grouped[i] // rows, grouped[i] % rows
            m += 1
    return pairs[:m]


@kernel
def group_by_row(rows: Any, n: int) -> tuple[Any, Any]:
    """The indices of ``rows`` (values in 0..n-1) grouped by value, each
    group in index order, and where each value's group begins (n + 1
    offsets): a stable counting sort, O(len(rows) + n)."""
    starts = np.zeros(n + 1, np.int64)
    for value in rows:
        starts[value + 1] += 1
    for value in range(n):
        starts[value + 1] += starts[value]
    ends = starts[:n].copy()
    order = np.empty(rows.shape[0], np.int64)
    for index in range(rows.shape[0]):
        value = rows[index]
        order[ends[value]] = index
        ends[value] += 1
    return order, starts
