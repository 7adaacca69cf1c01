"""The sweep kernel's body table: one row per body, in entity order.

The float and int columns of a row, its flag bits, the step's parameters
and the counters of one run (``systems.physics._kernels.sweep.run_sweeps``),
and a row's box along its path, and the core's tolerances (a constant the
Python code defines too is restated with the module it comes from: numba
compiles them in).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .jit import helper as _helper
from .jit import kernel as _kernel

__all__ = [
    "BEFORE_X", "BEFORE_Y", "BOUNDS_H", "BOUNDS_VERSION", "BOUNDS_W", "BOUNDS_X", "BOUNDS_Y", "CARRY_X", "CARRY_Y",
    "CATEGORY", "CELL_SIZE", "CONTACTS", "COUNTERS", "CRUSHED", "CRUSHES", "DT", "ELASTICITY", "EMPTY", "ENTITY", "ENTRIES",
    "FACES_RUN", "FILED_H", "FILED_W", "FILED_X", "FILED_Y", "FILTERED", "FILTERED_RUN", "FLAGS", "FLOAT_COLUMNS",
    "FRAME_X", "FRAME_Y", "FRICTION", "FROZEN", "FULL_TABLE", "GRAVITY_SCALE", "GROUND_SNAP", "HEAP", "HEIGHT", "HELD",
    "HELD_BEFORE_X", "HELD_BEFORE_Y", "HELD_BY", "IMPACTS",
    "INT_COLUMNS", "INV_MASS", "LARGE", "LARGES", "LARGE_SPAN", "LAYERED", "LAYERS", "LINKS", "MASK",
    "MAX_ITERATIONS", "MAX_SUBDIVISIONS", "MET", "MOTION_X", "MOTION_Y", "MOVED", "MOVING_STATICS", "NOT_BOX", "OCCUPIED", "OFFSET_X",
    "OFFSET_Y", "ONE_WAY_FACES", "ONE_WAY_TOLERANCE", "ORIGIN_X", "ORIGIN_Y", "OVERFLOW", "PHYSICS", "PINNED",
    "PINNER", "PINNER_OFF", "PLACED", "POS_X", "POS_Y", "PULL_X", "PULL_Y", "PUSHES", "RECORDS", "RESOLVE_SLOP",
    "RESTING_SPEED", "REST_SPEED", "RIDE", "RIDES", "RIDE_ORDER", "RIDE_X", "RIDE_Y", "ROUNDS", "SETTLED", "SHAPE",
    "SIDES", "SLOW_DT", "SPAN_X0", "SQUEEZES", "SPAN_X1", "SPAN_Y0", "SPAN_Y1", "STAMP", "START", "STATIC", "STEP_PARAMETERS",
    "SUPPORT", "SUPPORTED", "SUPPORTS", "SWEEPS", "SWEEP_SLOP", "TOUCHED", "TOUCH_EPSILON", "TRIGGER", "UNASKED",
    "UP_X", "UP_Y", "VECTOR_EPSILON", "VEL_X", "VEL_Y", "VERDICTS", "VERSION", "WARN_A", "WARN_B", "WEDGE_REACH",
    "WIDENED",
    "WIDTH", "aligned_table", "fill_rows",
]


TOUCH_EPSILON = 1e-7  # systems.physics._shapes.geometry
# px. An impact that would carry two bodies less than this far into each other over the rest of
# the step is left to push-out: bodies touching in a row (a Newton's cradle, a pile) otherwise
# trade ever smaller impacts that converge only geometrically.
SWEEP_SLOP = 0.01
# px. A pair already pushed apart this step is pushed again only when it overlaps by more than
# this, and then this much further apart: a chain of bodies sharing pushes would otherwise
# converge only geometrically, halving the leftover each round. The overshoot is far below the
# 0.5 px overcorrection Luke Godfrey's *Rectangle Collisions* uses to keep bodies off seams.
RESOLVE_SLOP = 0.01
# px/s. Relative normal speed below which a contact counts as resting (only rounding error is
# left of an inelastic contact's approach).
RESTING_SPEED = 1e-6
# px. A body counts as outside a one-way face at the start of a step while it overlaps it by at
# most this: a body resting on a one-way platform stays on it after a push-out left it a hair inside.
ONE_WAY_TOLERANCE = 0.5
# px. Impacts with two still STATICs this close along a body's path are one instant's, solved
# together (``sweep._wedged``), as a solver of simultaneous contacts would solve them (Box2D's
# speculative contacts), not one after the other.
WEDGE_REACH = 0.5
VECTOR_EPSILON = 1e-6  # pygame's Vector2 == compares within this
LARGE_SPAN = 32  # systems.physics._broad.grid

# Float columns of the body table. BEFORE_* is the box at the start of the
# step (px), FILED_* the box the broad phase filed it under (widened when a
# changed path leaves it), ORIGIN/START/MOTION its path (at step fraction START its transform was
# at ORIGIN, px, moving MOTION px per whole step from there),
# BOUNDS_* the path's kept bounds, SUPPORT_* the speeds of Resolution's
# ``supported`` by direction bit, CARRY_* and FRAME_* a rider's (Body.carry,
# px, and Body.frame, px/s), GRAVITY_SCALE its Physics', RIDE_* the normal
# (platform to rider) of the ride it lands on, PINNER_OFF_* the normal it
# was pushed off along by its pinner, by direction bit (two columns each),
# POS_* where push-out has it now (px; after the sweeps, where they left it),
# GROUND_SNAP its Physics' ground_snap (px; read only when a body was
# grounded last step), HELD_BEFORE_* its velocity (px/s) just before its last impact, kept while
# that impact was with a STATIC (``sweep._wedged``).
# A row is 48 floats, six 64-byte cache lines (the table is made with its rows
# on line boundaries, ``aligned_table``), laid out by what is read together:
# a neighbour is first tested by its filed box or bounds (the first line),
# and only a near one by its path (the second).
FILED_X, FILED_Y, FILED_W, FILED_H = 0, 1, 2, 3
BOUNDS_X, BOUNDS_Y, BOUNDS_W, BOUNDS_H = 4, 5, 6, 7
ORIGIN_X, ORIGIN_Y, START, MOTION_X, MOTION_Y, OFFSET_X, OFFSET_Y, INV_MASS = 8, 9, 10, 11, 12, 13, 14, 15
BEFORE_X, BEFORE_Y, WIDTH, HEIGHT, VEL_X, VEL_Y, ELASTICITY, FRICTION = 16, 17, 18, 19, 20, 21, 22, 23
SUPPORT = 24  # four columns, one per direction bit index
CARRY_X, CARRY_Y, FRAME_X, FRAME_Y, GRAVITY_SCALE, RIDE_X, RIDE_Y, HELD_BEFORE_X = 28, 29, 30, 31, 32, 33, 34, 35
PINNER_OFF = 36  # eight columns: x and y for each direction bit index
POS_X, POS_Y, GROUND_SNAP, HELD_BEFORE_Y = 44, 45, 46, 47
FLOAT_COLUMNS = 48

# Integer columns: FLAGS bits, path VERSION and IMPACTS, PINNED and
# SUPPORTED direction bits, BOUNDS_VERSION, ENTITY id, LARGE (filed in the
# list of large boxes), SPAN_* the cells it is filed under, the collider's
# CATEGORY and MASK bits (read only in a step with layers), SHAPE its
# shape (systems.physics._kernels.shapes: BOX, CIRCLE, a triangle), PINNER the row
# that pinned it, by direction bit (four columns), RIDE the row it lands on,
# a STATIC platform or a body (-1: none), and RIDE_ORDER when (the run's count of rides so
# far), SIDES its collider's faces that stop bodies (components.Side bits),
# PUSHES the pushes push-out gave it, HELD_BY 1 + the direction bit of the STATIC its last
# impact was with (0: none, or its last impact was with a body that moves); 24 a row, three
# cache lines.
FLAGS, VERSION, IMPACTS, PINNED, SUPPORTED, BOUNDS_VERSION, ENTITY, LARGE = 0, 1, 2, 3, 4, 5, 6, 7
SPAN_X0, SPAN_Y0, SPAN_X1, SPAN_Y1, CATEGORY, MASK, SHAPE, HELD_BY = 8, 9, 10, 11, 12, 13, 14, 15
PINNER, RIDE, RIDE_ORDER, SIDES, PUSHES = 16, 20, 21, 22, 23
INT_COLUMNS = 24
# FLAGS bits. HELD: a contact holds the body this step, so its velocity is
# true for the rest of it (see the sweep's module docstring); NOT_BOX: its
# SHAPE is not BOX (FLAGS shares the row's first cache line with what a pair's
# first test reads, SHAPE does not); PLACED: push-out moved it (POS_*).
STATIC, MOVED, PHYSICS, CRUSHED, TOUCHED, TRIGGER, HELD, NOT_BOX, PLACED = 1, 2, 4, 8, 16, 32, 64, 128, 256

# The step's parameters (a float array): dt (s), the Resolution's rest speed
# (px/s), the bound on impacts a body may take, the grid's cell size (px),
# 1.0 if some collider is on layers, gravity's pull over one step (g·dt,
# px/s), the unit vector against gravity (zero without gravity), 1.0
# if collision filters are asked, 1.0 if some collider has one-way faces,
# the times push-out may resolve one pair, the step (s) in the discrete
# pipeline (where push-out gives friction's part of the move back; 0 after
# sweeps), and 1.0 if the step is swept (the continuous pipeline).
(DT, REST_SPEED, MAX_SUBDIVISIONS, CELL_SIZE, LAYERED, PULL_X, PULL_Y, UP_X, UP_Y, FILTERED, ONE_WAY_FACES,
 MAX_ITERATIONS, SLOW_DT, SWEEPS) = range(14)
STEP_PARAMETERS = 14


# -- Python's min and max on two floats (the first wins a tie) -----------------

@_helper
def _min(a: float, b: float) -> float:
    return b if b < a else a


@_helper
def _max(a: float, b: float) -> float:
    return b if b > a else a


# -- the body table -------------------------------------------------------------

@_helper
def _box_at(body: Any, row: int, time: float) -> tuple[float, float, float, float]:
    """The row's box (px) at step fraction ``time`` on its path."""
    if time == 0.0:
        return body[row, BEFORE_X], body[row, BEFORE_Y], body[row, WIDTH], body[row, HEIGHT]
    elapsed = time - body[row, START]
    return (body[row, ORIGIN_X] + body[row, MOTION_X] * elapsed + body[row, OFFSET_X],
            body[row, ORIGIN_Y] + body[row, MOTION_Y] * elapsed + body[row, OFFSET_Y],
            body[row, WIDTH], body[row, HEIGHT])


@_helper
def _now(body: Any, row: int) -> tuple[float, float, float, float]:
    """The row's box (px) where it is now (Body.box)."""
    return (body[row, POS_X] + body[row, OFFSET_X], body[row, POS_Y] + body[row, OFFSET_Y], body[row, WIDTH],
            body[row, HEIGHT])


@_helper
def _move(body: Any, ints: Any, row: int, x: float, y: float) -> None:
    """Put the row's position at (x, y) px."""
    body[row, POS_X], body[row, POS_Y] = x, y
    ints[row, FLAGS] |= PLACED


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


# Counters and flags of one run (an int64 array): OVERFLOW is set when a
# buffer is full (FULL_TABLE: a hash table, of cells or of contacts; the
# caller retries with bigger ones), FROZEN the first row that reached the bound on impacts
# (-1 if none), LAYERS whether some collider is on layers (the step's ``LAYERED``), VERDICTS
# the collision filters' verdicts held and UNASKED the pairs the run met that no filter was
# asked about (the caller asks, and runs the step again), FILTERED_RUN whether filters are asked,
# FACES_RUN whether some collider has one-way faces; push-out's ROUNDS and SETTLED (the pairs of
# its hash tables), WARN_A and WARN_B (the first pair it left overlapping deeply, -1 for none);
# crushing's SQUEEZES (the pairs it kept); MOVING_STATICS whether some STATIC moves this step;
# CRUSHES whether the sweeps or push-out crushed a row (flag CRUSHED), so crushing has work.
(OVERFLOW, FROZEN, STAMP, ENTRIES, OCCUPIED, LARGES, LINKS, RECORDS, HEAP, CONTACTS, WIDENED, MET, SUPPORTS,
 LAYERS, RIDES, VERDICTS, UNASKED, FILTERED_RUN, FACES_RUN, ROUNDS, SETTLED, WARN_A, WARN_B, SQUEEZES,
 MOVING_STATICS, CRUSHES) = range(26)
COUNTERS = 26
EMPTY = -2  # a hash slot never used
FULL_TABLE = 2


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


@_helper
def _moved(start: Any, now: Any, k: int) -> bool:
    """Whether body k's position now (``now[k]``) differs from where it began the step."""
    return bool(start[k, 0] != now[k, 0] or start[k, 1] != now[k, 1])


@_kernel
def fill_rows(table: Any, ints: Any, rows: Any, constant: Any, constant_ints: Any, filed: Any, start: Any, now: Any,
              offset: Any, size: Any, velocity: Any) -> None:
    """Fill the rows ``rows`` of the body table (``table``, ``ints``) as a run starts them,
    row ``rows[k]`` from the k-th row of each other array: its ``constant`` and
    ``constant_ints`` rows (the columns that change only by assignment, and what a run starts
    from), the box it is ``filed`` under (px), the box at the start of the step (``start`` +
    ``offset``), its ``size`` and ``offset``, its path's origin (``start``) and motion (``now``
    − ``start``, px over the step), its ``velocity`` (px/s) and position (``now``), and MOVED
    where its position changed. A row at a time: each row's lines are written once. (Gravity's
    scale and ground snapping's reach are constant columns; a rider's carry is the stage's to
    add.)"""
    for k in range(rows.shape[0]):
        row = rows[k]
        table[row, :] = constant[k, :]
        ints[row, :] = constant_ints[k, :]
        for column in range(4):
            table[row, FILED_X + column] = filed[k, column]
        for axis in range(2):
            origin, position, shift = start[k, axis], now[k, axis], offset[k, axis]
            table[row, BEFORE_X + axis] = origin + shift
            table[row, WIDTH + axis] = size[k, axis]
            table[row, OFFSET_X + axis] = shift
            table[row, ORIGIN_X + axis] = origin
            table[row, MOTION_X + axis] = position - origin
            table[row, VEL_X + axis] = velocity[k, axis]
            table[row, POS_X + axis] = position
        if _moved(start, now, k):
            ints[row, FLAGS] += MOVED
