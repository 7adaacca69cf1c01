"""The sweep stage as a compiled kernel over a body table (numba).

``systems.physics._stages.sweep.Sweeper`` is the reference: this module computes the
same step, float for float, for the scenes it covers, over plain arrays that
numba compiles to machine code. One row per body, in entity order (so
comparing rows compares entity ids, as the reference orders pairs); Box2D v3
keeps its per-body state in a small struct "designed for scatter-gather" for
the same reason. Each function below names the reference function it
follows; the float operations are written in the same order (pygame's
``Vector2.dot`` adds its products to 0.0, ``v / s`` multiplies by ``1 / s``,
``==`` compares within 1e-6), so results are bit-identical, including signed
zeros.

It covers boxes that are SOLID (with or without Physics, each Physics with
elasticity > 0, so no row of boxes is ever collided at once), STATIC (moving
platforms and their riders too) or TRIGGER, on layers or not, with gravity
or without, but no one-way faces or collision filters. ``covers`` says
whether a step qualifies; other steps run the reference.

``ECS_ARCADE_JIT`` (``systems.physics._kernels.jit``) switches it: "python" runs the same
functions as plain Python (slow, but steppable in a debugger), "0" leaves
every step to the reference.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from systems.physics._kernels.jit import COMPILED, ENABLED, MODE
from systems.physics._kernels.jit import helper as _helper
from systems.physics._kernels.jit import inlined_helper as _inlined
from systems.physics._kernels.jit import kernel as _kernel

__all__ = ["COMPILED", "ENABLED", "MODE", "aligned_table", "buffer_sizes", "buffers_for", "make_buffers", "overlapping",
           "run_sweeps"]


TOUCH_EPSILON = 1e-7  # systems.physics._shapes.geometry
SWEEP_SLOP = 0.01  # systems.physics._stages.sweep
RESTING_SPEED = 1e-6  # systems.physics._solver.resolution
ONE_WAY_TOLERANCE = 0.5  # systems.physics._solver.resolution
VECTOR_EPSILON = 1e-6  # pygame's Vector2 == compares within this
LARGE_SPAN = 32  # systems.physics._broad.grid

# Float columns of the body table. BEFORE_* is the box at the start of the
# step (px), FILED_* the box the broad phase filed it under (widened when a
# changed path leaves it), ORIGIN/START/MOTION its path (Sweeper's Path),
# BOUNDS_* the path's kept bounds, SUPPORT_* the speeds of Resolution's
# ``supported`` by direction bit, CARRY_* and FRAME_* a rider's (Body.carry,
# px, and Body.frame, px/s), GRAVITY_SCALE its Physics', RIDE_* the normal
# (platform to rider) of the ride it lands on, PINNER_OFF_* the normal it
# was pushed off along by its pinner, by direction bit (two columns each). A
# row is 48 floats, six 64-byte cache lines (the table is made with its rows
# on line boundaries, ``aligned_table``), laid out by what is read together:
# a neighbour is first tested by its filed box or bounds (the first line),
# and only a near one by its path (the second).
FILED_X, FILED_Y, FILED_W, FILED_H = 0, 1, 2, 3
BOUNDS_X, BOUNDS_Y, BOUNDS_W, BOUNDS_H = 4, 5, 6, 7
ORIGIN_X, ORIGIN_Y, START, MOTION_X, MOTION_Y, OFFSET_X, OFFSET_Y, INV_MASS = 8, 9, 10, 11, 12, 13, 14, 15
BEFORE_X, BEFORE_Y, WIDTH, HEIGHT, VEL_X, VEL_Y, ELASTICITY, FRICTION = 16, 17, 18, 19, 20, 21, 22, 23
SUPPORT = 24  # four columns, one per direction bit index
CARRY_X, CARRY_Y, FRAME_X, FRAME_Y, GRAVITY_SCALE, RIDE_X, RIDE_Y = 28, 29, 30, 31, 32, 33, 34
PINNER_OFF = 36  # eight columns: x and y for each direction bit index
FLOAT_COLUMNS = 48

# Integer columns: FLAGS bits, path VERSION and IMPACTS, PINNED and
# SUPPORTED direction bits, BOUNDS_VERSION, ENTITY id, LARGE (filed in the
# list of large boxes), SPAN_* the cells it is filed under, the collider's
# CATEGORY and MASK bits (read only in a step with layers), PINNER the row
# that pinned it, by direction bit (four columns), RIDE the platform row it
# lands on (-1: none) and RIDE_ORDER when (the run's count of rides so
# far), SIDES its collider's faces that stop bodies (components.Side bits);
# 24 a row, three cache lines.
FLAGS, VERSION, IMPACTS, PINNED, SUPPORTED, BOUNDS_VERSION, ENTITY, LARGE = 0, 1, 2, 3, 4, 5, 6, 7
SPAN_X0, SPAN_Y0, SPAN_X1, SPAN_Y1, CATEGORY, MASK, PINNER, RIDE, RIDE_ORDER, SIDES = 8, 9, 10, 11, 12, 13, 16, 20, 21, 22
INT_COLUMNS = 24
# FLAGS bits. HELD: a contact holds the body this step, so its velocity is
# true for the rest of it (the reference's ``Path.free`` False).
STATIC, MOVED, PHYSICS, CRUSHED, TOUCHED, TRIGGER, HELD = 1, 2, 4, 8, 16, 32, 64

# The step's parameters (a float array): dt (s), the Resolution's rest speed
# (px/s), the bound on impacts a body may take, the grid's cell size (px),
# 1.0 if some collider is on layers, gravity's pull over one step (g·dt,
# px/s), the unit vector against gravity (zero without gravity), and 1.0
# if collision filters are asked.
DT, REST_SPEED, MAX_SUBDIVISIONS, CELL_SIZE, LAYERED, PULL_X, PULL_Y, UP_X, UP_Y, FILTERED = range(10)
STEP_PARAMETERS = 10


# -- Python's min and max on two floats (the first wins a tie) -----------------

@_helper
def _min(a: float, b: float) -> float:
    return b if b < a else a


@_helper
def _max(a: float, b: float) -> float:
    return b if b > a else a


# -- geometry (systems.physics._shapes.geometry, systems.physics._shapes.impact) ---------------------------------

# Overlap of two intervals along one axis (systems.physics._shapes.geometry.axis_overlap).
@_helper
def _axis_overlap(a_low: float, a_length: float, b_low: float, b_length: float) -> float:
    low = a_low if a_low > b_low else b_low
    a_high, b_high = a_low + a_length, b_low + b_length
    return (a_high if a_high < b_high else b_high) - low


# Signed distance between facing sides (systems.physics._shapes.geometry.directional_gap).
@_helper
def _gap(a_low: float, a_length: float, b_low: float, b_length: float, sign: int) -> float:
    if sign > 0:
        return b_low - (a_low + a_length)
    return a_low - (b_low + b_length)


@_helper
def _entry_fraction(gap_before: float, gap_now: float) -> float:
    if gap_before <= 0.0:
        return 0.0
    return gap_before / (gap_before - gap_now)


@_helper
def _contact_axis(a: Any, b: Any, before_a: Any, before_b: Any, axis: int,
                  tie: float) -> tuple[float, bool, int, float]:
    """Along one axis of a pair that overlaps now, what box_contact weighs:
    the depth to leave by at the start of the step (toward the side b lies
    on, not the overlap's length: see systems.physics._shapes.geometry.box_contact), whether
    they were apart then, the side b lies on (systems.physics._shapes.geometry._facing_sign)
    and when the gap closed."""
    low, length, other_low, other_length = a[axis], a[axis + 2], b[axis], b[axis + 2]
    before = _axis_overlap(before_a[axis], length, before_b[axis], other_length)
    apart = before <= TOUCH_EPSILON
    sign = 1 if tie >= 0 else -1
    delta = (before_b[axis] + other_length / 2) - (before_a[axis] + length / 2)
    if delta == 0.0:
        delta = (other_low + other_length / 2) - (low + length / 2)
    if delta != 0.0:
        sign = 1 if delta > 0 else -1
    entry = 0.0
    if apart:  # (the gap closed: overlapping now, the denominator is > 0)
        entry = _entry_fraction(_gap(before_a[axis], length, before_b[axis], other_length, sign),
                                _gap(low, length, other_low, other_length, sign))
    return -_gap(before_a[axis], length, before_b[axis], other_length, sign), apart, sign, entry


# Minimum displacement vector along the axis the body came through
# (Luke Godfrey, *Rectangle Collisions*; systems.physics._shapes.geometry.box_contact).
@_helper
def _box_contact(a: Any, b: Any, before_a: Any, before_b: Any, tie_x: float,
                 tie_y: float) -> tuple[bool, int, int, float, float, float]:
    """(overlapping, axis, sign, depth, entry, surface) pushing box a out of b."""
    over_x = _axis_overlap(a[0], a[2], b[0], b[2])
    over_y = _axis_overlap(a[1], a[3], b[1], b[3])
    if over_x <= TOUCH_EPSILON or over_y <= TOUCH_EPSILON:  # first, as box_contact does
        return False, 0, 0, 0.0, 0.0, 0.0
    before_x, apart_x, sign_x, entry_x = _contact_axis(a, b, before_a, before_b, 0, tie_x)
    before_y, apart_y, sign_y, entry_y = _contact_axis(a, b, before_a, before_b, 1, tie_y)
    if apart_x != apart_y:
        axis = 0 if apart_x else 1
    elif apart_x:
        axis = 0 if entry_x > entry_y or (entry_x == entry_y and over_x < over_y) else 1
    else:
        axis = 0 if before_x < before_y else 1
        if before_x == before_y:
            axis = 0 if abs(tie_x) > abs(tie_y) else 1
    sign, entry, surface = (sign_x, entry_x, over_y) if axis == 0 else (sign_y, entry_y, over_x)
    return True, axis, sign, -_gap(a[axis], a[axis + 2], b[axis], b[axis + 2], sign), entry, surface


@_helper
def _slab(low: float, length: float, other_low: float, other_length: float,
          move: float) -> tuple[bool, float, float]:
    """(crosses, entry, exit) of one moving interval (systems.physics._shapes.impact._slab)."""
    high, other_high = low + length, other_low + other_length
    if move > 0.0:
        return True, (other_low - high) / move, (other_high - low) / move
    if move < 0.0:
        return True, (other_high - low) / move, (other_low - high) / move
    if high <= other_low + TOUCH_EPSILON or other_high <= low + TOUCH_EPSILON:
        return False, 0.0, 0.0
    return True, -math.inf, math.inf


# Slab test of a moving box against a box at rest (Sacred Software,
# *Collisions, Part 1*; systems.physics._shapes.impact.sweep_boxes).
@_inlined
def _sweep_boxes(a: Any, b: Any, move_x: float, move_y: float) -> tuple[bool, float, int, float, float]:
    """(hit, time, axis, sign, surface) of box a moving by (move_x, move_y) px into box b."""
    if move_x == 0.0 and move_y == 0.0:
        return False, 0.0, 0, 0.0, 0.0
    crosses, x_in, x_out = _slab(a[0], a[2], b[0], b[2], move_x)
    if not crosses:
        return False, 0.0, 0, 0.0, 0.0
    crosses, y_in, y_out = _slab(a[1], a[3], b[1], b[3], move_y)
    if not crosses:
        return False, 0.0, 0, 0.0, 0.0
    entry = y_in if y_in > x_in else x_in
    leave = y_out if y_out < x_out else x_out
    if entry >= leave or entry > 1.0 or leave <= 0.0:
        return False, 0.0, 0, 0.0, 0.0
    if x_in > y_in:
        axis, other_leave, other_move, move = 0, y_out, move_y, move_x
    else:
        axis, other_leave, other_move, move = 1, x_out, move_x, move_y
    if (other_leave - entry) * abs(other_move) <= TOUCH_EPSILON:
        return False, 0.0, 0, 0.0, 0.0
    if entry < 0.0:
        if -entry * abs(move) > TOUCH_EPSILON:
            return False, 0.0, 0, 0.0, 0.0
        entry = 0.0
    sign = 1.0 if move > 0 else -1.0
    other = 1 - axis
    low = a[other] + other_move * entry
    surface = _min(low + a[other + 2], b[other] + b[other + 2]) - _max(low, b[other])
    return True, entry, axis, sign, _max(surface, 0.0)


# -- the body table -------------------------------------------------------------

@_helper
def _box_at(body: Any, row: int, time: float) -> tuple[float, float, float, float]:
    """The row's box (px) at step fraction ``time`` on its path (Sweeper's _box_at)."""
    if time == 0.0:
        return body[row, BEFORE_X], body[row, BEFORE_Y], body[row, WIDTH], body[row, HEIGHT]
    elapsed = time - body[row, START]
    return (body[row, ORIGIN_X] + body[row, MOTION_X] * elapsed + body[row, OFFSET_X],
            body[row, ORIGIN_Y] + body[row, MOTION_Y] * elapsed + body[row, OFFSET_Y],
            body[row, WIDTH], body[row, HEIGHT])


# Union of two AABBs (systems.physics._shapes.geometry.union_box).
@_helper
def _union(a: Any, b: Any) -> tuple[float, float, float, float]:
    left = a[0] if a[0] < b[0] else b[0]
    top = a[1] if a[1] < b[1] else b[1]
    right = _max(a[0] + a[2], b[0] + b[2])
    bottom = _max(a[1] + a[3], b[1] + b[3])
    return left, top, right - left, bottom - top


@_helper
def _filed(body: Any, row: int) -> tuple[float, float, float, float]:
    return body[row, FILED_X], body[row, FILED_Y], body[row, FILED_W], body[row, FILED_H]


@_helper
def _within(box: Any, outer: Any) -> bool:
    return bool(outer[0] <= box[0] and outer[1] <= box[1] and box[0] + box[2] <= outer[0] + outer[2]
        and box[1] + box[3] <= outer[1] + outer[3])


@_helper
def _meet(ints: Any, status: Any, a: int, b: int) -> bool:
    """Whether rows a and b can collide at all (Found.meet): not two
    TRIGGERs, and in a step with layers each one's category in the
    other's mask (components.layers.interacts)."""
    if ints[a, FLAGS] & ints[b, FLAGS] & TRIGGER:
        return False
    return not status[LAYERS] or (bool(ints[a, CATEGORY] & ints[b, MASK]) and bool(ints[b, CATEGORY] & ints[a, MASK]))


# components.Side's bits: the faces of a collider.
TOP, BOTTOM, LEFT, RIGHT, ALL_SIDES = 1, 2, 4, 8, 15


# The face a contact normal leaves through (systems.physics._shapes.geometry.face_toward).
@_helper
def _face_toward(x: float, y: float) -> int:
    if abs(x) > abs(y):
        return RIGHT if x > 0 else LEFT
    return BOTTOM if y > 0 else TOP


# Half-plane test against one face of a box (systems.physics._shapes.geometry.outside).
@_helper
def _outside(box: Any, other: Any, face: int, tolerance: float) -> bool:
    if face == TOP:
        return bool(box[1] + box[3] <= other[1] + tolerance)
    if face == BOTTOM:
        return bool(box[1] >= other[1] + other[3] - tolerance)
    if face == LEFT:
        return bool(box[0] + box[2] <= other[0] + tolerance)
    return bool(box[0] >= other[0] + other[2] - tolerance)


@_helper
def _permits(body: Any, ints: Any, status: Any, filters: Any, a: int, b: int, nx: float, ny: float) -> bool:
    """Whether rows a < b may collide through a contact along (nx, ny)
    (a->b): each one's face toward the other stops bodies, a one-way face
    only a body that lay outside it when the step began
    (resolution.through_faces), and the collision filters let them (``_allows``)."""
    for row, other, tx, ty in ((a, b, nx, ny), (b, a, -nx, -ny)):
        sides = ints[row, SIDES]
        if sides == ALL_SIDES:
            continue
        face = _face_toward(tx, ty)
        if not face & sides or not _outside(_box_at(body, other, 0.0), _box_at(body, row, 0.0), face,
                                            ONE_WAY_TOLERANCE):
            return False
    return not status[FILTERED_RUN] or _allows(filters, status, a, b)


# -- collision filters: Python callbacks, asked outside the run ----------------------
# The caller asks the filters about the step's candidate pairs before the run
# and hands in their verdicts; a pair first met during the run is logged,
# collides for the rest of that run, and the caller asks about it and runs
# the step again (each pair is asked once per step however many runs it takes).
# ``filters`` holds the verdicts by pair (a hash table, values 1 allowed, 0
# refused, -1 not asked yet) and the pairs logged.

@_helper
def _allows(filters: Any, status: Any, a: int, b: int) -> bool:
    """The filters' verdict on rows a < b (Resolution.allows), logging the
    pair if they were not asked about it."""
    table, unasked = filters
    known = status[VERDICTS]
    slot = _slot(table, a, b, True, status, VERDICTS)
    if slot < 0:
        return True  # the table is full: the run stops (status[OVERFLOW])
    if status[VERDICTS] > known:  # not asked yet
        if status[UNASKED] >= unasked.shape[0]:
            status[OVERFLOW] = 1
            return True
        unasked[status[UNASKED], 0], unasked[status[UNASKED], 1] = a, b
        status[UNASKED] += 1
    return bool(table[slot, 2] != 0)


# Counters and flags of one run (an int64 array): OVERFLOW is set when a
# buffer is full (FULL_TABLE: a hash table, of cells or of contacts; the
# caller retries with bigger ones), FROZEN the first row that reached the bound on impacts
# (-1 if none), LAYERS whether some collider is on layers (the step's ``LAYERED``), VERDICTS
# the collision filters' verdicts held and UNASKED the pairs the run met that no filter was
# asked about (the caller asks, and runs the step again), FILTERED_RUN whether filters are asked.
(OVERFLOW, FROZEN, STAMP, ENTRIES, OCCUPIED, LARGES, LINKS, RECORDS, HEAP, CONTACTS, WIDENED, MET, SUPPORTS,
 LAYERS, RIDES, VERDICTS, UNASKED, FILTERED_RUN) = range(18)
COUNTERS = 18
EMPTY = -2  # a hash slot never used
FULL_TABLE = 2


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


# -- the grid: cells in a hash table, each a linked list -------------------------
# (Metanet, *N Tutorial A*; the same cells and large-box list as
# systems.physics._broad.grid.SpatialGrid, so a query finds the same bodies.) ``grid``
# holds the cells, whose values are each list's first entry, the entries
# (row, next entry or -1) and the rows filed as large boxes.


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
            entries[entry, 0], entries[entry, 1], cells[slot, 2] = row, cells[slot, 2], entry
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
def _query(body: Any, grid: Any, status: Any, box: Any, size: float, marks: Any, out: Any) -> int:
    """Rows whose filed boxes overlap or touch ``box``, in no set order,
    written to ``out``; returns how many (SpatialGrid.query, unsorted).
    Walks the box's cells or the occupied ones, whichever are fewer."""
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
                    count = _collect(body, marks, out, count, stamp, entries[entry, 0], box)
                    entry = entries[entry, 1]
    else:
        for slot in range(cells.shape[0]):
            if cells[slot, 2] != EMPTY and x0 <= cells[slot, 0] <= x1 and y0 <= cells[slot, 1] <= y1:
                entry = cells[slot, 2]
                while entry >= 0:
                    count = _collect(body, marks, out, count, stamp, entries[entry, 0], box)
                    entry = entries[entry, 1]
    for k in range(status[LARGES]):
        count = _collect(body, marks, out, count, stamp, large[k], box)
    return count


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


# -- the impact queue: a binary heap over records ---------------------------------
# Ordered by (time, -surface, a, b, insertion order) as Sweeper's heap of
# tuples with its tiebreak counter. ``records`` float columns: time,
# -surface, normal x, normal y; ``keys`` int columns: a, b, version of a,
# version of b. ``heap`` holds the record at each place in the heap and
# ``ranks`` its time and -surface, so that most comparisons read the heap
# itself, a place's two children side by side, rather than records all over.

@_helper
def _before(keys: Any, time: float, neg_surface: float, index: int, other_time: float,
            other_neg_surface: float, other: int) -> bool:
    """Whether record ``index`` comes before record ``other`` in the queue."""
    if time != other_time:
        return time < other_time
    if neg_surface != other_neg_surface:
        return neg_surface < other_neg_surface
    if keys[index, 0] != keys[other, 0]:
        return bool(keys[index, 0] < keys[other, 0])
    if keys[index, 1] != keys[other, 1]:
        return bool(keys[index, 1] < keys[other, 1])
    return index < other


@_helper
def _place(heap: Any, ranks: Any, k: int, time: float, neg_surface: float, index: int) -> None:
    """Put record ``index`` at place k of the heap."""
    ranks[k, 0], ranks[k, 1], heap[k] = time, neg_surface, index


@_inlined
def _push(queue: Any, status: Any, time: float, neg_surface: float, a: int, b: int, version_a: int,
          version_b: int, nx: float, ny: float) -> None:
    records, keys, ranks, heap = queue
    index = status[RECORDS]
    if index >= records.shape[0]:
        status[OVERFLOW] = 1
        return
    status[RECORDS] += 1
    records[index, 0], records[index, 1], records[index, 2], records[index, 3] = time, neg_surface, nx, ny
    keys[index, 0], keys[index, 1], keys[index, 2], keys[index, 3] = a, b, version_a, version_b
    status[HEAP] += 1
    _sift_up(keys, ranks, heap, status[HEAP] - 1, time, neg_surface, index)


@_helper
def _sift_up(keys: Any, ranks: Any, heap: Any, k: int, time: float, neg_surface: float, index: int) -> None:
    """Put record ``index`` at the empty place k, or above it, moving the
    records it comes before down a level."""
    while k > 0:
        parent = (k - 1) >> 1
        if not _before(keys, time, neg_surface, index, ranks[parent, 0], ranks[parent, 1], heap[parent]):
            break
        _place(heap, ranks, k, ranks[parent, 0], ranks[parent, 1], heap[parent])
        k = parent
    _place(heap, ranks, k, time, neg_surface, index)


# Pops move the hole left at the top down to a leaf along the earlier child, then the heap's last
# record up from there (R. W. Floyd, *Algorithm 245: Treesort 3*): one comparison a level instead of
# two, as the last record, taken from the bottom, mostly belongs near it. The keys order every
# record, so the pops come out in the same order however the heap is kept.
@_inlined
def _pop(queue: Any, status: Any) -> int:
    """The earliest record's index, taken off the heap."""
    keys, ranks, heap = queue[1], queue[2], queue[3]
    top = heap[0]
    status[HEAP] -= 1
    n = status[HEAP]
    if n:
        time, neg_surface, last = ranks[n, 0], ranks[n, 1], heap[n]
        k = 0
        child = 1
        while child < n:
            if child + 1 < n and _before(keys, ranks[child + 1, 0], ranks[child + 1, 1], heap[child + 1],
                                         ranks[child, 0], ranks[child, 1], heap[child]):
                child += 1
            _place(heap, ranks, k, ranks[child, 0], ranks[child, 1], heap[child])
            k = child
            child = 2 * k + 1
        _sift_up(keys, ranks, heap, k, time, neg_surface, last)
    return int(top)


# -- resolution (systems.physics._solver.resolution, systems.physics._solver.impulse) ---------------------------

@_helper
def _bit(axis: int, sign: float) -> int:
    """Resolution's direction bit of ``axis`` toward ``sign``."""
    return 1 << (axis * 2 + (1 if sign > 0 else 0))


@_helper
def _dominant(nx: float, ny: float) -> tuple[int, float]:
    """The normal's dominant axis (y at 45°) and its sign there."""
    axis = 0 if abs(nx) > abs(ny) else 1
    along = nx if axis == 0 else ny
    return axis, 1.0 if along > 0 else -1.0


@_helper
def _velocity(body: Any, ints: Any, row: int) -> tuple[float, float]:
    """The row's velocity in the world frame (px/s): a rider's own plus its
    frame; zero without Physics (resolution.own_velocity)."""
    if ints[row, FLAGS] & PHYSICS:
        if body[row, FRAME_X] != 0.0 or body[row, FRAME_Y] != 0.0:
            return body[row, VEL_X] + body[row, FRAME_X], body[row, VEL_Y] + body[row, FRAME_Y]
        return body[row, VEL_X], body[row, VEL_Y]
    return 0.0, 0.0


@_helper
def _contact_velocities(body: Any, ints: Any, a: int, b: int, nx: float, ny: float, ux: float,
                        uy: float) -> tuple[float, float, float, float]:
    """Velocities (px/s) of rows a and b as their contact along (nx, ny)
    sees them: a STATIC under the other body (the normal from it within 60°
    of up, (ux, uy)) only along the normal (resolution.contact_velocities)."""
    vax, vay = _velocity(body, ints, a)
    vbx, vby = _velocity(body, ints, b)
    if ints[a, FLAGS] & STATIC and 0.0 + nx * ux + ny * uy > 0.5:
        along = 0.0 + vax * nx + vay * ny
        vax, vay = nx * along, ny * along
    elif ints[b, FLAGS] & STATIC and 0.0 + nx * ux + ny * uy < -0.5:
        along = 0.0 + vbx * nx + vby * ny
        vbx, vby = nx * along, ny * along
    return vax, vay, vbx, vby


@_helper
def _held_axis(body: Any, ints: Any, row: int, push: float, axis: int, velocity: float) -> bool:
    """One axis of Resolution.held_axes."""
    if push == 0.0:
        return False
    sign = 1.0 if push > 0.0 else -1.0
    bit = _bit(axis, sign)
    if not ints[row, SUPPORTED] & bit:
        return False
    since = body[row, SUPPORT + axis * 2 + (1 if sign > 0 else 0)]
    return bool(velocity * sign >= since - RESTING_SPEED)


@_helper
def _held_axes(body: Any, ints: Any, status: Any, row: int, push_x: float, push_y: float) -> tuple[bool, bool]:
    """Resolution.held_axes."""
    if ints[row, FLAGS] & STATIC:
        return True, True
    if not status[SUPPORTS]:
        return False, False
    vx, vy = _velocity(body, ints, row)
    return _held_axis(body, ints, row, push_x, 0, vx), _held_axis(body, ints, row, push_y, 1, vy)


# Impulse form of Luke Godfrey's *Rectangle Collisions* momentum exchange,
# with Coulomb friction (Resolution.exchange, impulse.exchange_momentum).
@_helper
def _exchange(body: Any, ints: Any, a: int, b: int, nx: float, ny: float, held_a: Any, held_b: Any,
              step: Any) -> None:
    physics_a, physics_b = ints[a, FLAGS] & PHYSICS, ints[b, FLAGS] & PHYSICS
    if not physics_a and not physics_b:
        return
    rest_speed = step[REST_SPEED]
    vax, vay, vbx, vby = _contact_velocities(body, ints, a, b, nx, ny, step[UP_X], step[UP_Y])
    if physics_a and physics_b:
        elasticity = _max(body[a, ELASTICITY], body[b, ELASTICITY])
        friction = _min(body[a, FRICTION], body[b, FRICTION])
    else:
        only = a if physics_a else b
        elasticity, friction = body[only, ELASTICITY], body[only, FRICTION]
    if 0.0 + (vax - vbx) * nx + (vay - vby) * ny <= rest_speed:
        elasticity = 0.0
    inverse_a, inverse_b = body[a, INV_MASS], body[b, INV_MASS]
    rx, ry = vax - vbx, vay - vby
    approach = 0.0 + rx * nx + ry * ny
    wax, way = 0.0 if held_a[0] else inverse_a, 0.0 if held_a[1] else inverse_a
    wbx, wby = 0.0 if held_b[0] else inverse_b, 0.0 if held_b[1] else inverse_b
    stiffness = (wax + wbx) * nx * nx + (way + wby) * ny * ny
    cax = cay = cbx = cby = 0.0
    if not (approach <= 0.0 or stiffness == 0.0):
        impulse = (1.0 + elasticity) * approach / stiffness
        cax, cay = -wax * nx * impulse, -way * ny * impulse
        cbx, cby = wbx * nx * impulse, wby * ny * impulse
        sx, sy = rx - nx * approach, ry - ny * approach
        sliding = math.sqrt(0.0 + sx * sx + sy * sy)
        total = inverse_a + inverse_b
        if friction > 0.0 and sliding > 0.0 and total > 0.0:
            tangent = _min(friction * impulse, sliding / total)
            inverse = 1.0 / sliding  # pygame's v / s is v * (1 / s)
            dx, dy = sx * inverse, sy * inverse
            share = tangent * inverse_a
            cax, cay = cax - dx * share, cay - dy * share
            share = tangent * inverse_b
            cbx, cby = cbx + dx * share, cby + dy * share
    if physics_a and inverse_a:
        body[a, VEL_X], body[a, VEL_Y] = body[a, VEL_X] + cax, body[a, VEL_Y] + cay
        ints[a, FLAGS] |= TOUCHED
    if physics_b and inverse_b:
        body[b, VEL_X], body[b, VEL_Y] = body[b, VEL_X] + cbx, body[b, VEL_Y] + cby
        ints[b, FLAGS] |= TOUCHED


# Midpoint of the touching faces of two boxes (narrowphase.contact_point).
@_helper
def _contact_point(box_a: Any, box_b: Any, nx: float, ny: float) -> tuple[float, float]:
    """A point (px) where boxes a and b touch along the axis-aligned normal (a->b)."""
    axis = 0 if nx != 0.0 else 1
    other = 1 - axis
    toward = nx if axis == 0 else ny
    face_a = box_a[axis] + (box_a[axis + 2] if toward > 0 else 0.0)
    face_b = box_b[axis] + (0.0 if toward > 0 else box_b[axis + 2])
    low = _max(box_a[other], box_b[other])
    high = _min(box_a[other] + box_a[other + 2], box_b[other] + box_b[other + 2])
    across, along = (face_a + face_b) / 2, (low + high) / 2
    return (across, along) if axis == 0 else (along, across)


@_helper
def _record(contacts: Any, index: Any, status: Any, a: int, b: int, nx: float, ny: float, depth: float,
            time: float, surface: float, box_a: Any, box_b: Any, trigger: bool) -> None:
    """One contact per pair and step, the first's normal, time, surface and
    point, depths added up (Resolution.record); ``index``: the contacts by
    pair, a hash table. ``values`` columns: normal x and y, depth (px),
    time, surface (px), point x and y (px), 1.0 for a TRIGGER's contact."""
    values, pairs = contacts
    slot = _slot(index, a, b, True, status, CONTACTS)  # (a new pair counts one more contact)
    if slot < 0:
        return
    if index[slot, 2] >= 0:
        values[index[slot, 2], 2] += depth
        return
    k = status[CONTACTS] - 1
    if k >= values.shape[0]:
        status[OVERFLOW] = 1
        return
    index[slot, 2] = k
    pairs[k, 0], pairs[k, 1] = a, b
    values[k, 0], values[k, 1], values[k, 2], values[k, 3], values[k, 4] = nx, ny, depth, time, surface
    values[k, 5], values[k, 6] = _contact_point(box_a, box_b, nx, ny)
    values[k, 7] = 1.0 if trigger else 0.0


@_helper
def _settle(body: Any, ints: Any, status: Any, contacts: Any, index: Any, a: int, b: int, nx: float, ny: float,
            pinned_a: bool, pinned_b: bool, depth: float, surface: float, time: float, step: Any) -> None:
    """Exchange momentum, record the contact, pin whoever was pushed off a
    body that holds still, and support or carry whoever came to rest
    (Resolution.settle)."""
    held_a = _held_axes(body, ints, status, a, -nx, -ny)
    held_b = _held_axes(body, ints, status, b, nx, ny)
    _exchange(body, ints, a, b, nx, ny, held_a, held_b, step)
    _record(contacts, index, status, a, b, nx, ny, depth, time, surface, _box_at(body, a, time),
            _box_at(body, b, time), False)
    vax, vay, vbx, vby = _contact_velocities(body, ints, a, b, nx, ny, step[UP_X], step[UP_Y])
    axis, sign = _dominant(nx, ny)
    for row, pinner, off, toward, held in ((b, a, 1.0, -sign, pinned_a), (a, b, -1.0, sign, pinned_b)):
        if held and not ints[row, FLAGS] & STATIC:
            bit = axis * 2 + (1 if toward > 0 else 0)  # (its index)
            ints[row, PINNED] |= 1 << bit
            ints[row, PINNER + bit] = pinner
            body[row, PINNER_OFF + 2 * bit], body[row, PINNER_OFF + 2 * bit + 1] = nx * off, ny * off
    if abs(0.0 + (vbx - vax) * nx + (vby - vay) * ny) > RESTING_SPEED:
        return
    _note_rider(body, ints, status, a, b, nx, ny, step[UP_X], step[UP_Y])
    for row, other_held, toward, vx, vy in ((b, held_a[axis], -sign, vbx, vby), (a, held_b[axis], sign, vax, vay)):
        if other_held and not ints[row, FLAGS] & STATIC:
            bit = _bit(axis, toward)
            ints[row, SUPPORTED] |= bit
            # resolution._support_speed: the speed along the normal, over its part along the axis
            body[row, SUPPORT + axis * 2 + (1 if toward > 0 else 0)] = (0.0 + vx * nx + vy * ny) / (
                nx if axis == 0 else ny) * toward
            status[SUPPORTS] += 1


@_helper
def _note_rider(body: Any, ints: Any, status: Any, a: int, b: int, nx: float, ny: float, ux: float,
                uy: float) -> None:
    """Remember a body left resting on top of a STATIC (the normal from the
    platform to it within 60° of up, (ux, uy)), its first such platform
    this step (Resolution._note_rider)."""
    for platform, rider, sign in ((a, b, 1.0), (b, a, -1.0)):
        upx, upy = nx * sign, ny * sign
        if (ints[platform, FLAGS] & STATIC and not ints[rider, FLAGS] & (STATIC | TRIGGER)
                and ints[rider, RIDE] < 0 and 0.0 + upx * ux + upy * uy > 0.5):
            ints[rider, RIDE], ints[rider, RIDE_ORDER] = platform, status[RIDES]
            body[rider, RIDE_X], body[rider, RIDE_Y] = upx, upy
            status[RIDES] += 1


# -- gravity within a step (Sweeper._lags, _lag, _support) ------------------------------

@_helper
def _lag(body: Any, ints: Any, row: int, time: float, step: Any) -> tuple[bool, float, float]:
    """Gravity's g·dt·(½ − time) (px/s), which the row's velocity holds
    beyond its true velocity at step fraction ``time`` while it flies free;
    (False, 0, 0) where gravity does not move it or a contact holds it."""
    flags = ints[row, FLAGS]
    if (not flags & PHYSICS or flags & (STATIC | HELD) or body[row, INV_MASS] == 0.0
            or body[row, GRAVITY_SCALE] == 0.0):
        return False, 0.0, 0.0
    scale = body[row, GRAVITY_SCALE] * (0.5 - time)
    return True, step[PULL_X] * scale, step[PULL_Y] * scale


@_helper
def _lags(body: Any, ints: Any, a: int, b: int, nx: float, ny: float, time: float,
          step: Any) -> tuple[tuple[bool, float, float], tuple[bool, float, float]]:
    """Each row's lag (``_lag``) for an impact along (nx, ny) that bounces;
    none at a resting contact (approaching at the rest speed or slower)."""
    none = (False, 0.0, 0.0)
    if step[PULL_X] == 0.0 and step[PULL_Y] == 0.0:
        return none, none
    vax, vay, vbx, vby = _contact_velocities(body, ints, a, b, nx, ny, step[UP_X], step[UP_Y])
    if 0.0 + (vax - vbx) * nx + (vay - vby) * ny <= step[REST_SPEED]:
        return none, none
    return _lag(body, ints, a, time, step), _lag(body, ints, b, time, step)


@_helper
def _support(body: Any, ints: Any, status: Any, a: int, b: int, nx: float, ny: float, lag_a: Any, lag_b: Any,
             step: Any) -> None:
    """Give each row back its lag after the impact was settled: all of it,
    but where the pair came to rest along the normal none of what would
    part them; where it drives them into each other the contact takes it up
    with friction. Either way the contact now holds both (Sweeper._support)."""
    ux, uy = step[UP_X], step[UP_Y]
    vax, vay, vbx, vby = _contact_velocities(body, ints, a, b, nx, ny, ux, uy)
    rests = abs(0.0 + (vbx - vax) * nx + (vby - vay) * ny) <= RESTING_SPEED
    parting = 0.0 + (lag_b[1] - lag_a[1]) * nx + (lag_b[2] - lag_a[2]) * ny
    for row, (lagged, lag_x, lag_y) in ((a, lag_a), (b, lag_b)):
        if lagged:
            if rests and parting > 0.0:
                along = 0.0 + lag_x * nx + lag_y * ny
                lag_x, lag_y = lag_x - nx * along, lag_y - ny * along
            body[row, VEL_X], body[row, VEL_Y] = body[row, VEL_X] + lag_x, body[row, VEL_Y] + lag_y
            ints[row, FLAGS] |= TOUCHED
    vax, vay, vbx, vby = _contact_velocities(body, ints, a, b, nx, ny, ux, uy)
    if 0.0 + (vax - vbx) * nx + (vay - vby) * ny > RESTING_SPEED:
        rests = True
        _exchange(body, ints, a, b, nx, ny, _held_axes(body, ints, status, a, -nx, -ny),
                  _held_axes(body, ints, status, b, nx, ny), step)
    if rests:
        ints[a, FLAGS] |= HELD
        ints[b, FLAGS] |= HELD


# -- the sweeps (systems.physics._stages.sweep.Sweeper) -----------------------------------

@_inlined
def _schedule(body: Any, ints: Any, status: Any, queue: Any, ties: Any, a: int, b: int, now: float,
              box_a: Any, box_b: Any) -> None:
    """Queue the first impact of rows a < b after step fraction ``now``, their
    boxes (px) being ``box_a`` and ``box_b`` (Sweeper._schedule)."""
    if ints[a, FLAGS] & ints[b, FLAGS] & STATIC:
        return
    rest = 1.0 - now
    rx = (body[a, MOTION_X] - body[b, MOTION_X]) * rest
    ry = (body[a, MOTION_Y] - body[b, MOTION_Y]) * rest
    if rx == 0.0 and ry == 0.0:
        return
    # systems.physics._shapes.geometry.swept_apart: a's box swept by the relative motion stays clear of b's
    left, right = (box_a[0] + rx, box_a[0] + box_a[2]) if rx < 0.0 else (box_a[0], box_a[0] + box_a[2] + rx)
    top, bottom = (box_a[1] + ry, box_a[1] + box_a[3]) if ry < 0.0 else (box_a[1], box_a[1] + box_a[3] + ry)
    if (box_b[0] > right + SWEEP_SLOP or box_b[0] + box_b[2] < left - SWEEP_SLOP
            or box_b[1] > bottom + SWEEP_SLOP or box_b[1] + box_b[3] < top - SWEEP_SLOP):
        return
    hit, fraction, axis, sign, surface = _sweep_boxes(box_a, box_b, rx, ry)
    if hit:
        time = now + fraction * (1.0 - now)
        nx, ny = (sign, 0.0) if axis == 0 else (0.0, sign)
    else:
        # Already inside each other and still closing: an impact now.
        if not (_axis_overlap(box_a[0], box_a[2], box_b[0], box_b[2]) > TOUCH_EPSILON
                and _axis_overlap(box_a[1], box_a[3], box_b[1], box_b[3]) > TOUCH_EPSILON):
            return
        tie = ties[(ints[a, ENTITY] * 40503 + ints[b, ENTITY] * 9973) % 256]
        inside, axis, side, depth, entry, surface = _box_contact(box_a, box_b, _box_at(body, a, 0.0),
                                                                 _box_at(body, b, 0.0), tie[0], tie[1])
        nx, ny = (1.0 * side, 0.0 * side) if axis == 0 else (0.0 * side, 1.0 * side)
        if not inside or rx * nx + ry * ny <= 0.0:
            return
        time = now
    _push(queue, status, time, -surface, a, b, ints[a, VERSION], ints[b, VERSION], nx, ny)


@_helper
def _candidates(body: Any, ints: Any, grid: Any, links: Any, status: Any, row: int, box: Any, size: float,
                marks: Any, out: Any) -> int:
    """Found.candidates: the row's partners while ``box`` stays
    inside its filed box, else a grid query."""
    if _within(box, _filed(body, row)):
        return _partners(links, row, out)
    count = _query(body, grid, status, box, size, marks, out)
    choosy = status[LAYERS] or ints[row, FLAGS] & TRIGGER
    kept = 0
    for k in range(count):
        if out[k] != row and not (choosy and not _meet(ints, status, row, out[k])):
            out[kept] = out[k]
            kept += 1
    return kept


@_helper
def _squeezed(body: Any, ints: Any, grid: Any, links: Any, status: Any, a: int, b: int, time: float, nx: float,
              ny: float, held_a: bool, held_b: bool, size: float, marks: Any, out: Any) -> bool:
    """Whether a body of the pair is pushed by one that holds still into a
    STATIC on its far side, the two closing on each other (Sweeper._squeezed)."""
    for row, pusher, push_x, push_y, pusher_holds in ((a, b, -nx, -ny, held_b), (b, a, nx, ny, held_a)):
        if ints[row, FLAGS] & STATIC or not pusher_holds:
            continue
        x, y, w, h = _box_at(body, row, time)
        reach = (x + push_x * SWEEP_SLOP, y + push_y * SWEEP_SLOP, w, h)
        before = _box_at(body, row, 0.0)
        for k in range(_candidates(body, ints, grid, links, status, row, reach, size, marks, out)):
            other = out[k]
            if not ints[other, FLAGS] & STATIC or other == a or other == b:
                continue
            pressed, axis, side, depth, entry, surface = _box_contact(reach, _box_at(body, other, time), before,
                                                                      _box_at(body, other, 0.0), 0.0, 1.0)
            px, py = (1.0 * side, 0.0 * side) if axis == 0 else (0.0 * side, 1.0 * side)
            # Sweeper's _closing, operation for operation.
            closing = ((body[pusher, MOTION_X] - body[other, MOTION_X]) * push_x
                       + (body[pusher, MOTION_Y] - body[other, MOTION_Y]) * push_y)
            if pressed and 0.0 + px * push_x + py * push_y > 0.5 and closing > 0.0:
                return True
    return False


@_inlined
def _widen(body: Any, ints: Any, grid: Any, links: Any, status: Any, events: Any, row: int, box: Any,
           size: float, marks: Any, out: Any) -> int:
    """Found.widen: the row's candidates within ``box`` written to
    ``out``, filing it under ``box`` too when it leaves its filed box, and
    linking it with the rows it meets anew; the refiling and the pairs met
    are logged in ``events`` for the caller to repeat on its grid."""
    filed = _filed(body, row)
    if _within(box, filed):
        return _partners(links, row, out)
    wider = _union(filed, box)
    body[row, FILED_X], body[row, FILED_Y], body[row, FILED_W], body[row, FILED_H] = wider
    _file(grid, ints, status, row, wider, size)
    boxes, rows, pairs = events
    k = status[WIDENED]
    if k >= rows.shape[0]:
        status[OVERFLOW] = 1
        return 0
    rows[k] = row
    boxes[k, 0], boxes[k, 1], boxes[k, 2], boxes[k, 3] = wider
    status[WIDENED] += 1
    count = _query(body, grid, status, box, size, marks, out)
    known = _mark_partners(links, status, row, marks)  # (the query is done with marks)
    static = ints[row, FLAGS] & STATIC
    choosy = status[LAYERS] or ints[row, FLAGS] & (TRIGGER | STATIC)  # a plain mover meets everything it touches
    kept, new = 0, 0
    for j in range(count):
        other = out[j]
        if other == row or (static and ints[other, FLAGS] & STATIC) or (choosy and not _meet(ints, status, row, other)):
            continue
        out[kept] = other
        if marks[other] != known:  # met anew: moved to the front
            out[kept], out[new] = out[new], other
            new += 1
        kept += 1
    # Only the rows met anew are sorted: the grid's query lists them ascending, and they are linked
    # and logged in that order. The order of the rest does not matter: the queue orders records by
    # time, surface and rows, and by insertion only between records of one pair, which a re-sweep
    # schedules once.
    _sort(out, new)
    for j in range(new):
        other = out[j]
        _link(links, status, row, other)
        _link(links, status, other, row)
        m = status[MET]
        if m >= pairs.shape[0]:
            status[OVERFLOW] = 1
            return 0
        pairs[m, 0], pairs[m, 1] = (row, other) if row < other else (other, row)
        status[MET] += 1
    return kept


@_helper
def _remaining_bounds(body: Any, ints: Any, row: int) -> tuple[float, float, float, float]:
    """Sweeper's _remaining_bounds: the box over the rest of the path, kept
    until the path changes."""
    if ints[row, BOUNDS_VERSION] != ints[row, VERSION]:
        bounds = _union(_box_at(body, row, body[row, START]), _box_at(body, row, 1.0))
        body[row, BOUNDS_X], body[row, BOUNDS_Y], body[row, BOUNDS_W], body[row, BOUNDS_H] = bounds
        ints[row, BOUNDS_VERSION] = ints[row, VERSION]
    return body[row, BOUNDS_X], body[row, BOUNDS_Y], body[row, BOUNDS_W], body[row, BOUNDS_H]


@_helper
def _resweep(body: Any, ints: Any, grid: Any, links: Any, status: Any, queue: Any, events: Any, ties: Any,
             row: int, now: float, size: float, marks: Any, out: Any) -> None:
    """Schedule the impacts of a changed path with the row's neighbours whose
    remaining boxes come within SWEEP_SLOP of its own (Sweeper._resweep)."""
    mine = _box_at(body, row, now)
    reach = _union(mine, _box_at(body, row, 1.0))
    count = _widen(body, ints, grid, links, status, events, row, reach, size, marks, out)
    left, top = reach[0] - SWEEP_SLOP, reach[1] - SWEEP_SLOP
    right, bottom = reach[0] + reach[2] + SWEEP_SLOP, reach[1] + reach[3] + SWEEP_SLOP
    for k in range(count):
        other = out[k]
        if ints[other, VERSION] == 0:
            ox, oy, ow, oh = _filed(body, other)
        else:
            ox, oy, ow, oh = _remaining_bounds(body, ints, other)
        if ox > right or oy > bottom or ox + ow < left or oy + oh < top:
            continue
        theirs = _box_at(body, other, now)
        if row < other:
            _schedule(body, ints, status, queue, ties, row, other, now, mine, theirs)
        else:
            _schedule(body, ints, status, queue, ties, other, row, now, theirs, mine)


@_helper
def _changed(body: Any, ints: Any, grid: Any, links: Any, status: Any, queue: Any, events: Any, ties: Any,
             row: int, old_x: float, old_y: float, time: float, max_subdivisions: int, size: float, marks: Any,
             out: Any) -> None:
    """Sweeper._changed: a path that no longer moves by (old_x, old_y)
    (pygame's == within 1e-6) retires its impacts, counts one (stopping at
    the bound) and is swept again."""
    if abs(body[row, MOTION_X] - old_x) < VECTOR_EPSILON and abs(body[row, MOTION_Y] - old_y) < VECTOR_EPSILON:
        return
    ints[row, VERSION] += 1
    ints[row, IMPACTS] += 1
    if ints[row, IMPACTS] >= max_subdivisions:
        if status[FROZEN] < 0:
            status[FROZEN] = row
        if not ints[row, FLAGS] & STATIC:
            body[row, MOTION_X], body[row, MOTION_Y] = 0.0, 0.0
    _resweep(body, ints, grid, links, status, queue, events, ties, row, time, size, marks, out)


@_helper
def _crush(body: Any, ints: Any, grid: Any, links: Any, status: Any, queue: Any, events: Any, ties: Any,
           a: int, b: int, time: float, size: float, marks: Any, out: Any) -> None:
    """Sweeper._crush: the pair's body that is not STATIC stops, crushed,
    its velocity too."""
    for row in (a, b):
        if ints[row, FLAGS] & STATIC:
            continue
        ints[row, FLAGS] |= CRUSHED
        if ints[row, FLAGS] & PHYSICS and body[row, INV_MASS] != 0.0:
            body[row, VEL_X], body[row, VEL_Y] = 0.0, 0.0
            ints[row, FLAGS] |= TOUCHED
        if body[row, MOTION_X] != 0.0 or body[row, MOTION_Y] != 0.0:
            body[row, MOTION_X], body[row, MOTION_Y] = 0.0, 0.0
            ints[row, VERSION] += 1
            _resweep(body, ints, grid, links, status, queue, events, ties, row, time, size, marks, out)


@_helper
def _impact(body: Any, ints: Any, grid: Any, links: Any, status: Any, queue: Any, events: Any, ties: Any,
            contacts: Any, index: Any, filters: Any, a: int, b: int, time: float, nx: float, ny: float,
            surface: float, step: Any, marks: Any, out: Any) -> None:
    """Resolve one impact at step fraction ``time`` and re-sweep who changed
    (Sweeper._impact; ``step``: the step's parameters, ``DT``...)."""
    dt, max_subdivisions, size = step[DT], int(step[MAX_SUBDIVISIONS]), step[CELL_SIZE]
    approach = 0.0 + (body[a, MOTION_X] - body[b, MOTION_X]) * nx + (body[a, MOTION_Y] - body[b, MOTION_Y]) * ny
    frozen_a = ints[a, IMPACTS] >= max_subdivisions
    frozen_b = ints[b, IMPACTS] >= max_subdivisions
    if (ints[a, FLAGS] | ints[b, FLAGS]) & TRIGGER:  # reported if they really go into each other, never resolved
        if approach * (1.0 - time) > SWEEP_SLOP and _permits(body, ints, status, filters, a, b, nx, ny):
            _record(contacts, index, status, a, b, nx, ny, 0.0, time, surface, _box_at(body, a, time),
                    _box_at(body, b, time), True)
        return
    if approach * (1.0 - time) <= SWEEP_SLOP or (frozen_a and frozen_b):
        return
    if not _permits(body, ints, status, filters, a, b, nx, ny):
        return  # a one-way face from behind, or a filter lets them pass
    for row in (a, b):
        elapsed = time - body[row, START]
        body[row, ORIGIN_X] = body[row, ORIGIN_X] + body[row, MOTION_X] * elapsed
        body[row, ORIGIN_Y] = body[row, ORIGIN_Y] + body[row, MOTION_Y] * elapsed
        body[row, START] = time
    axis, sign = _dominant(nx, ny)
    held_a = bool(ints[a, FLAGS] & STATIC) or bool(ints[a, PINNED] & _bit(axis, -sign))
    held_b = bool(ints[b, FLAGS] & STATIC) or bool(ints[b, PINNED] & _bit(axis, sign))
    if _squeezed(body, ints, grid, links, status, a, b, time, nx, ny, held_a, held_b, size, marks, out):
        _crush(body, ints, grid, links, status, queue, events, ties, a, b, time, size, marks, out)
        return
    old_ax, old_ay, old_bx, old_by = body[a, MOTION_X], body[a, MOTION_Y], body[b, MOTION_X], body[b, MOTION_Y]
    lag_a, lag_b = _lags(body, ints, a, b, nx, ny, time, step)
    for row, (lagged, lag_x, lag_y) in ((a, lag_a), (b, lag_b)):
        if lagged:  # the velocity it hits with (the reference's module docstring)
            body[row, VEL_X], body[row, VEL_Y] = body[row, VEL_X] - lag_x, body[row, VEL_Y] - lag_y
            ints[row, FLAGS] |= TOUCHED
    # A frozen body keeps its place, but its momentum counts by its real mass.
    _settle(body, ints, status, contacts, index, a, b, nx, ny, held_a or frozen_a, held_b or frozen_b,
            approach * (1.0 - time), surface, time, step)
    if step[PULL_X] != 0.0 or step[PULL_Y] != 0.0:
        _support(body, ints, status, a, b, nx, ny, lag_a, lag_b, step)
    for row, frozen in ((a, frozen_a), (b, frozen_b)):
        if ints[row, FLAGS] & PHYSICS and not ints[row, FLAGS] & STATIC and not frozen:
            # A rider's path is its own motion plus its platform's carry.
            body[row, MOTION_X] = body[row, VEL_X] * dt + body[row, CARRY_X]
            body[row, MOTION_Y] = body[row, VEL_Y] * dt + body[row, CARRY_Y]
    # A body without Physics has no velocity: stop what still drives it in.
    still = 0.0 + (body[a, MOTION_X] - body[b, MOTION_X]) * nx + (body[a, MOTION_Y] - body[b, MOTION_Y]) * ny
    if still > 0.0:
        if not (ints[a, FLAGS] & STATIC or frozen_a):
            body[a, MOTION_X], body[a, MOTION_Y] = body[a, MOTION_X] - nx * still, body[a, MOTION_Y] - ny * still
        elif not (ints[b, FLAGS] & STATIC or frozen_b):
            body[b, MOTION_X], body[b, MOTION_Y] = body[b, MOTION_X] + nx * still, body[b, MOTION_Y] + ny * still
    _changed(body, ints, grid, links, status, queue, events, ties, a, old_ax, old_ay, time, max_subdivisions, size,
             marks, out)
    _changed(body, ints, grid, links, status, queue, events, ties, b, old_bx, old_by, time, max_subdivisions, size,
             marks, out)


# Overlap of two boxes along both axes (systems.physics._shapes.geometry.axis_overlap).
@_kernel
def overlapping(boxes: Any, pairs: Any, margin: float) -> Any:
    """Whether each of ``pairs`` (rows of ``boxes``: x, y, width, height px)
    overlaps by more than ``margin`` px on both axes (a bool array)."""
    out = np.zeros(pairs.shape[0], np.bool_)
    for k in range(pairs.shape[0]):
        a, b = pairs[k, 0], pairs[k, 1]
        out[k] = (_axis_overlap(boxes[a, 0], boxes[a, 2], boxes[b, 0], boxes[b, 2]) > margin
                  and _axis_overlap(boxes[a, 1], boxes[a, 3], boxes[b, 1], boxes[b, 3]) > margin)
    return out


def aligned_table(rows: int, columns: int, dtype: Any = np.float64) -> np.ndarray:
    """A (rows, columns) array of zeros whose rows start on 64-byte cache
    lines (``columns`` times the item size a multiple of 64), so that
    columns laid out to share a line do. NumPy aligns an array's data only
    to its item size or 16 bytes."""
    itemsize = np.dtype(dtype).itemsize
    if columns * itemsize % 64:
        raise ValueError(f"columns: {columns} items of {itemsize} bytes are not whole cache lines")
    flat = np.zeros(rows * columns + 64 // itemsize, dtype)
    skip = -flat.ctypes.data % 64 // itemsize
    return flat[skip:skip + rows * columns].reshape(rows, columns)


def make_buffers(capacity: int, slots: int, rows: int) -> tuple[Any, ...]:
    """Work buffers for ``run_sweeps``, made once and kept from step to step:
    ``capacity`` records, filings, links, contacts and events each, hash
    tables of ``slots`` slots (a power of two), ``rows`` table rows at most.

    Box2D v3 keeps its step's scratch memory the same way (its arena
    allocator): arrays made afresh each step are fresh pages to the system,
    and each 4 KiB page first touched costs a page fault (over a thousand a
    step at N=10,000, measured, in the old kernel's own allocations).
    """

    def int_array(*shape: int) -> np.ndarray:
        return np.empty(shape, np.int64)

    grid = (int_array(slots, 3), int_array(capacity, 2), int_array(rows))
    links = (int_array(rows, 2), int_array(capacity, 2))
    queue = (np.empty((capacity, 4)), int_array(capacity, 4), np.empty((capacity, 2)), int_array(capacity))
    contacts = (np.empty((capacity, 8)), int_array(capacity, 2))
    events = (np.empty((capacity, 4)), int_array(capacity), int_array(capacity, 2))
    index = int_array(slots, 3)
    filters = (int_array(slots, 3), int_array(capacity, 2))
    # (run_sweeps sets them up)
    return grid, links, queue, contacts, events, index, int_array(rows), int_array(rows), filters


def buffer_sizes(buffers: tuple[Any, ...]) -> tuple[int, int, int]:
    """(capacity, slots, rows) of ``make_buffers``' buffers."""
    grid, marks = buffers[0], buffers[6]
    return int(grid[1].shape[0]), int(grid[0].shape[0]), int(marks.shape[0])


def buffers_for(buffers: tuple[Any, ...] | None, pairs: int, rows: int, overflow: int = 0) -> tuple[Any, ...]:
    """Buffers for a run over ``rows`` table rows and ``pairs`` pairs:
    ``buffers`` if they suffice, else larger ones. ``overflow``: the last
    run's ``status[OVERFLOW]``, whose buffers (FULL_TABLE: hash tables)
    are then doubled."""
    sizes = buffer_sizes(buffers) if buffers is not None else (0, 0, 0)
    capacity, slots, have = sizes
    if overflow:
        slots, capacity = (2 * slots, capacity) if overflow == FULL_TABLE else (slots, 2 * capacity)
    needed = (max(capacity, 2 * pairs + 64), max(slots, 1 << (4 * rows + 64).bit_length()),  # (a power of two)
              max(have, rows))
    return buffers if buffers is not None and needed == sizes else make_buffers(*needed)


@_kernel
def run_sweeps(body: Any, ints: Any, pairs: Any, verdicts: Any, ties: Any, step: Any, buffers: Any) -> Any:
    """Sweep the step's candidate ``pairs`` (rows a < b) and resolve their
    impacts in time order (Sweeper.run), updating ``body`` and ``ints``.

    ``verdicts``: the collision filters' verdicts (rows a < b, then 1 if
    they may collide, 0 if not) when ``step[FILTERED]``; a pair met that is
    not among them is logged (``status[UNASKED]`` of them, in the unasked
    buffer): ask about those and run again.

    ``step``: the step's parameters (``DT`` ... ``UP_Y``, see there);
    ``ties``: systems.physics._shapes.geometry's table of tie directions; ``buffers``: from
    ``make_buffers``, for at least as many rows as ``body`` has. When a
    buffer or hash table fills up, ``status[OVERFLOW]`` is set and the run
    stops: call again with fresh tables and larger buffers.
    Returns (status, contacts (values, rows), widened (boxes, rows), met
    pairs, unasked pairs), the last four in ``buffers``; see the column names above.
    """
    grid, links, queue, contacts, events, index, marks, out, filters = buffers
    rows = body.shape[0]
    status = np.zeros(COUNTERS, np.int64)
    status[FROZEN] = -1
    status[LAYERS] = step[LAYERED] != 0.0
    status[FILTERED_RUN] = step[FILTERED] != 0.0
    size = step[CELL_SIZE]
    # What a run reads before writing: the hash tables' slots and each row's mark (_link_pairs sets
    # every row's links).
    grid[0][:, 2] = EMPTY
    index[:, 2] = EMPTY
    filters[0][:, 2] = EMPTY
    marks[:rows] = 0
    for k in range(verdicts.shape[0]):
        slot = _slot(filters[0], verdicts[k, 0], verdicts[k, 1], True, status, VERDICTS)
        if slot >= 0:
            filters[0][slot, 2] = verdicts[k, 2]
    for row in range(rows):
        _file(grid, ints, status, row, _filed(body, row), size)
    _link_pairs(links, status, pairs, rows)
    for k in range(pairs.shape[0]):
        a, b = pairs[k, 0], pairs[k, 1]
        if (ints[a, FLAGS] | ints[b, FLAGS]) & MOVED:
            _schedule(body, ints, status, queue, ties, a, b, 0.0, _box_at(body, a, 0.0), _box_at(body, b, 0.0))
    records, keys = queue[0], queue[1]
    while status[HEAP] and not status[OVERFLOW]:
        k = _pop(queue, status)
        a, b = keys[k, 0], keys[k, 1]
        if ints[a, VERSION] == keys[k, 2] and ints[b, VERSION] == keys[k, 3]:
            _impact(body, ints, grid, links, status, queue, events, ties, contacts, index, filters, a, b,
                    records[k, 0], records[k, 2], records[k, 3], -records[k, 1], step, marks, out)
    return status, contacts, events, filters[1]
