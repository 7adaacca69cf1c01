"""The sweep kernel's broad phase during a run: hash tables, the grid and each row's partners.

The grid's cells live in a hash table keyed by cell, each a linked list of
rows; each row's broad-phase partners in a list of links. Between them they
answer what ``Found.candidates`` and ``Found.widen`` answer for the
Python stages (``systems.physics._stages.found``), from the same cells.
"""

from __future__ import annotations

import math
from typing import Any

from .jit import helper as _helper
from .jit import inlined_helper as _inlined
from .table import (
    CATEGORY, EMPTY, ENTRIES, FLAGS, FULL_TABLE, LARGE, LARGES, LARGE_SPAN, LAYERS, LINKS, MASK, OCCUPIED, OVERFLOW,
    SPAN_X0, SPAN_X1, SPAN_Y0, SPAN_Y1, STAMP, TRIGGER, _filed, _within,
)

__all__ = []


@_helper
def _meet(ints: Any, status: Any, a: int, b: int) -> bool:
    """Whether rows a and b can collide at all (Found.meet): not two
    TRIGGERs, and in a step with layers each one's category in the
    other's mask (components.layers.interacts)."""
    if ints[a, FLAGS] & ints[b, FLAGS] & TRIGGER:
        return False
    return not status[LAYERS] or (bool(ints[a, CATEGORY] & ints[b, MASK]) and bool(ints[b, CATEGORY] & ints[a, MASK]))


# -- hash tables keyed by two ints ------------------------------------------------
# Open addressing with linear probing (Knuth, *The Art of Computer
# Programming* vol. 3, 6.4), kept at most half full: a table is an array of
# slots whose three columns are the keys and the value, which is EMPTY in a
# slot never used (a slot's keys and value side by side, read together).
# The grid's cells and the contacts by pair are such tables.

@_helper
def _slot(table: Any, x: int, y: int, create: bool, status: Any, counter: int) -> int:
    """The slot of key (x, y), made with value -1 if ``create`` (counted in
    ``status[counter]``); -1 if absent, or full (status[OVERFLOW] says so)."""
    mask = table.shape[0] - 1
    slot = ((x * 73856093) ^ (y * 19349663)) & mask
    while table[slot, 2] != EMPTY:
        if table[slot, 0] == x and table[slot, 1] == y:
            return int(slot)
        slot = (slot + 1) & mask
    if not create:
        return -1
    if 2 * (status[counter] + 1) > table.shape[0]:
        status[OVERFLOW] = FULL_TABLE
        return -1
    table[slot, 0], table[slot, 1], table[slot, 2] = x, y, -1
    status[counter] += 1
    return int(slot)


@_helper
def _take_out(table: Any, keys: Any, count: int, status: Any) -> None:
    """Take the first ``count`` of ``keys`` ((n, 2) ints, in the order they went in) out of
    ``table``, last first: taking out the newest key takes the table back to where it was
    before that key went in, so each older one is still found where it is, and the table ends
    as it was before the first. (``status``: handed to the lookups, which change no count.)"""
    for k in range(count - 1, -1, -1):
        slot = _slot(table, keys[k, 0], keys[k, 1], False, status, 0)
        if slot >= 0:
            table[slot, 2] = EMPTY


# -- the grid: cells in a hash table, each a linked list -------------------------
# (Metanet, *N Tutorial A*; the same cells and large-box list as
# systems.physics._broad.grid.SpatialGrid, so a query finds the same bodies.) ``grid``
# holds the cells, whose values are each list's first entry, the entries
# (row, next entry or -1, the cell's slot: entries are only ever prepended, so an entry's
# next is its list's head before it, and the last entries filed can be taken out, last first)
# and the rows filed as large boxes.


@_helper
def _span(x: float, y: float, w: float, h: float, size: float) -> tuple[int, int, int, int]:
    """First and last column and row of the cells a box covers (grid._span)."""
    return math.floor(x / size), math.floor(y / size), math.floor((x + w) / size), math.floor((y + h) / size)


@_helper
def _file(grid: Any, ints: Any, status: Any, row: int, box: Any, size: float) -> None:
    """File ``row`` under the cells of ``box`` it is not filed under yet, or
    in the list of large boxes (SpatialGrid.insert; a filed box only grows
    during a step)."""
    if ints[row, LARGE]:
        return
    x0, y0, x1, y1 = _span(box[0], box[1], box[2], box[3], size)
    if (x1 - x0 + 1.0) * (y1 - y0 + 1.0) > LARGE_SPAN:
        large = grid[2]
        if status[LARGES] >= large.shape[0]:
            status[OVERFLOW] = 1
            return
        large[status[LARGES]] = row
        status[LARGES] += 1
        ints[row, LARGE] = 1
        return
    old_x0, old_y0, old_x1, old_y1 = ints[row, SPAN_X0], ints[row, SPAN_Y0], ints[row, SPAN_X1], ints[row, SPAN_Y1]
    cells, entries = grid[0], grid[1]
    for cx in range(x0, x1 + 1):
        for cy in range(y0, y1 + 1):
            if old_x0 <= cx <= old_x1 and old_y0 <= cy <= old_y1:
                continue  # filed there already
            slot = _slot(cells, cx, cy, True, status, OCCUPIED)
            entry = status[ENTRIES]
            if slot < 0:
                return
            if entry >= entries.shape[0]:
                status[OVERFLOW] = 1
                return
            entries[entry, 0], entries[entry, 1], entries[entry, 2] = row, cells[slot, 2], slot
            cells[slot, 2] = entry
            status[ENTRIES] += 1
    ints[row, SPAN_X0], ints[row, SPAN_Y0], ints[row, SPAN_X1], ints[row, SPAN_Y1] = x0, y0, x1, y1


@_helper
def _collect(body: Any, marks: Any, out: Any, count: int, stamp: int, row: int, box: Any) -> int:
    """Add ``row`` to ``out`` if its filed box touches ``box`` and it is not there yet."""
    if marks[row] == stamp:
        return count
    marks[row] = stamp
    ox, oy, ow, oh = _filed(body, row)
    if ox <= box[0] + box[2] and box[0] <= ox + ow and oy <= box[1] + box[3] and box[1] <= oy + oh:
        out[count] = row
        count += 1
    return count


@_inlined
def _visit(body: Any, grid: Any, status: Any, box: Any, size: float, marks: Any, out: Any, collect: bool) -> int:
    """Walk the filed boxes a query of ``box`` looks at (those of the cells it covers, or of
    the occupied cells within, whichever are fewer, and every large box): with ``collect``,
    write the rows whose filed boxes overlap or touch ``box`` to ``out``, in no set order, and
    return how many (SpatialGrid.query, unsorted); else return how many boxes it looked at
    (SpatialGrid.load)."""
    status[STAMP] += 1
    stamp = status[STAMP]
    cells, entries, large = grid
    x0, y0, x1, y1 = _span(box[0], box[1], box[2], box[3], size)
    count = 0
    if (x1 - x0 + 1.0) * (y1 - y0 + 1.0) <= status[OCCUPIED]:
        for cx in range(x0, x1 + 1):
            for cy in range(y0, y1 + 1):
                slot = _slot(cells, cx, cy, False, status, OCCUPIED)
                entry = cells[slot, 2] if slot >= 0 else -1
                while entry >= 0:
                    count = _collect(body, marks, out, count, stamp, entries[entry, 0], box) if collect else count + 1
                    entry = entries[entry, 1]
    else:
        for slot in range(cells.shape[0]):
            if cells[slot, 2] != EMPTY and x0 <= cells[slot, 0] <= x1 and y0 <= cells[slot, 1] <= y1:
                entry = cells[slot, 2]
                while entry >= 0:
                    count = _collect(body, marks, out, count, stamp, entries[entry, 0], box) if collect else count + 1
                    entry = entries[entry, 1]
    for k in range(status[LARGES]):
        count = _collect(body, marks, out, count, stamp, large[k], box) if collect else count + 1
    return count


@_inlined
def _query(body: Any, grid: Any, status: Any, box: Any, size: float, marks: Any, out: Any) -> int:
    """Rows whose filed boxes overlap or touch ``box``, in no set order, written to ``out``;
    returns how many (SpatialGrid.query, unsorted)."""
    return _visit(body, grid, status, box, size, marks, out, True)


@_helper
def _load(body: Any, grid: Any, status: Any, box: Any, size: float, marks: Any, out: Any) -> int:
    """How many filed boxes a query of ``box`` would look at (SpatialGrid.load)."""
    return _visit(body, grid, status, box, size, marks, out, False)


# Heapsort (J. W. J. Williams, *Algorithm 232: Heapsort*): in place, so it
# makes no array, unlike numba's sorts.
@_helper
def _sort(out: Any, count: int) -> None:
    """Sort ``out[:count]`` ascending."""
    for start in range(count // 2 - 1, -1, -1):
        _sift_down(out, start, count)
    for end in range(count - 1, 0, -1):
        out[0], out[end] = out[end], out[0]
        _sift_down(out, 0, end)


@_helper
def _sift_down(out: Any, k: int, count: int) -> None:
    value = out[k]
    while True:
        child = 2 * k + 1
        if child >= count:
            break
        if child + 1 < count and out[child + 1] > out[child]:
            child += 1
        if out[child] <= value:
            break
        out[k] = out[child]
        k = child
    out[k] = value


# -- each body's broad-phase partners, in the order they were met --------------
# ``links`` holds each row's first and last entry (-1 for none) and the
# entries (partner row, next entry or -1).

@_helper
def _link(links: Any, status: Any, row: int, other: int) -> None:
    """Append ``other`` to ``row``'s partners (Body.neighbours.append)."""
    ends, entries = links
    entry = status[LINKS]
    if entry >= entries.shape[0]:
        status[OVERFLOW] = 1
        return
    entries[entry, 0], entries[entry, 1] = other, -1
    if ends[row, 0] < 0:
        ends[row, 0] = entry
    else:
        entries[ends[row, 1], 1] = entry
    ends[row, 1] = entry
    status[LINKS] += 1


@_helper
def _link_pairs(links: Any, status: Any, pairs: Any, rows: int) -> None:
    """Link the rows of every pair with each other, each row's partners in
    the order ``_link`` pair by pair would list them, but with its entries
    side by side (a counting sort by row), so that walking them reads
    consecutive memory instead of entries all over the array. Sets the
    links of every row below ``rows``."""
    ends, entries = links
    if 2 * pairs.shape[0] > entries.shape[0]:
        status[OVERFLOW] = 1
        return
    ends[:rows, 1] = 0  # first how many partners each row has
    for k in range(pairs.shape[0]):
        ends[pairs[k, 0], 1] += 1
        ends[pairs[k, 1], 1] += 1
    start = 0
    for row in range(rows):  # then where each row's entries begin, its cursor starting there
        count = ends[row, 1]
        ends[row, 0], ends[row, 1] = (start, start) if count else (-1, -1)
        start += count
    for k in range(pairs.shape[0]):  # then each pair's two entries, in pair order within a row
        for row, other in ((pairs[k, 0], pairs[k, 1]), (pairs[k, 1], pairs[k, 0])):
            entry = ends[row, 1]
            entries[entry, 0], entries[entry, 1] = other, entry + 1
            ends[row, 1] += 1
    for row in range(rows):  # the cursor ends past each row's last entry
        if ends[row, 0] >= 0:
            ends[row, 1] -= 1
            entries[ends[row, 1], 1] = -1
    status[LINKS] = start


@_helper
def _partners(links: Any, row: int, out: Any) -> int:
    """``row``'s partners written to ``out``; returns how many."""
    ends, entries = links
    entry, count = ends[row, 0], 0
    while entry >= 0:
        out[count] = entries[entry, 0]
        count += 1
        entry = entries[entry, 1]
    return count


@_helper
def _mark_partners(links: Any, status: Any, row: int, marks: Any) -> int:
    """Stamp ``row``'s partners in ``marks``; returns the stamp."""
    status[STAMP] += 1
    stamp = status[STAMP]
    ends, entries = links
    entry = ends[row, 0]
    while entry >= 0:
        marks[entries[entry, 0]] = stamp
        entry = entries[entry, 1]
    return int(stamp)


@_helper
def _candidates_within(body: Any, ints: Any, grid: Any, links: Any, status: Any, row: int, box: Any, size: float,
                       marks: Any, out: Any, budget: int) -> tuple[int, int]:
    """Found.candidates_within: the row's partners while ``box`` stays inside its filed box,
    else a grid query (layers met, itself left out), written to ``out``; with a ``budget``
    (>= 0), the partners too when the query would look at more than that many boxes. Returns
    how many, and how many boxes were looked at."""
    if _within(box, _filed(body, row)):
        count = _partners(links, row, out)
        return count, count
    load = _load(body, grid, status, box, size, marks, out) if budget >= 0 else 0
    if budget >= 0 and load > budget:
        count = _partners(links, row, out)
        return count, count
    count = _query(body, grid, status, box, size, marks, out)
    choosy = status[LAYERS] or ints[row, FLAGS] & TRIGGER
    kept = 0
    for k in range(count):
        if out[k] != row and not (choosy and not _meet(ints, status, row, out[k])):
            out[kept] = out[k]
            kept += 1
    return kept, load


@_inlined
def _candidates(body: Any, ints: Any, grid: Any, links: Any, status: Any, row: int, box: Any, size: float,
                marks: Any, out: Any) -> int:
    """Found.candidates: the row's partners while ``box`` stays inside its filed box, else a
    grid query."""
    return _candidates_within(body, ints, grid, links, status, row, box, size, marks, out, -1)[0]
