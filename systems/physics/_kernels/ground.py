"""Ground snapping: walkers kept on the ground over the crest of a ramp and down steps.

Each body with ``Physics.ground_snap`` that had ground below it last step, has none this step
and is not leaving it faster than the rest speed, both upward and along that ground's normal
(a jump; walking up to a ramp's crest rises along the slope, walking down one moves off the
slope's normal without rising: neither is leaving), is moved by up to ``ground_snap`` px
straight down, onto the first STATIC or SOLID below (never a TRIGGER, never a one-way
platform from below). That is a landing: the contact is settled, and velocity away from the
new ground is dropped, so a walker crossing a ramp's crest stays on the flat beyond it.
Nothing happens without gravity.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .cells import _candidates
from .jit import helper as _helper
from .jit import kernel as _kernel
from .push import _holds
from .settle import _permits, _settle
from .shapes import sweep
from .table import (
    CELL_SIZE, CONTACTS, FLAGS, FRAME_X, FRAME_Y, GROUND_SNAP, PHYSICS, POS_X, POS_Y, REST_SPEED, SHAPE, STAMP,
    STATIC, TOUCHED, TRIGGER, UP_X, UP_Y, VEL_X, VEL_Y, _move, _now, _union,
)

__all__ = ["DIAGONAL", "grounded", "snap_to_ground"]

#: cos 45°, within rounding: a contact normal at most 45° from a direction.
DIAGONAL = math.sqrt(0.5) - 1e-9


@_helper
def _upright(nx: float, ny: float, ux: float, uy: float) -> float:
    """How upright a contact normal (nx, ny) stands against up (ux, uy): their dot product,
    added to 0.0 as pygame's ``Vector2.dot`` adds it; ground where it is ``DIAGONAL`` or more."""
    return 0.0 + nx * ux + ny * uy


@_helper
def _mark_standing(ints: Any, status: Any, contacts: Any, marks: Any, ux: float, uy: float) -> int:
    """Stamp in ``marks`` every row with ground below it in the step's contacts so far (a
    contact normal at most 45° from up; TRIGGER contacts don't count); returns the stamp."""
    values, pairs = contacts
    marks[:] = 0  # (kept from run to run, where the stamps start again)
    status[STAMP] += 1
    stamp = status[STAMP]
    for k in range(status[CONTACTS]):
        if values[k, 7] != 0.0:
            continue
        nx, ny = values[k, 0], values[k, 1]
        if _upright(nx, ny, ux, uy) >= DIAGONAL:
            marks[pairs[k, 1]] = stamp
        if _upright(-nx, -ny, ux, uy) >= DIAGONAL:
            marks[pairs[k, 0]] = stamp
    return int(stamp)


@_helper
def _first_below(body: Any, ints: Any, grid: Any, links: Any, status: Any, filters: Any, row: int, drop_x: float,
                 drop_y: float, size: float, marks: Any, out: Any) -> tuple[int, float, float, float, float]:
    """(the row, time, normal x and y, surface) of the first collider the row would meet moving
    by (drop_x, drop_y) px, the earliest then the least row; -1 for none."""
    box = _now(body, row)
    reach = _union(box, (box[0] + drop_x, box[1] + drop_y, box[2], box[3]))
    first, first_time, first_x, first_y, first_surface = -1, 0.0, 0.0, 0.0, 0.0
    for k in range(_candidates(body, ints, grid, links, status, row, reach, size, marks, out)):
        other = out[k]
        if ints[other, FLAGS] & TRIGGER:
            continue
        hit, time, nx, ny, surface = sweep(box, ints[row, SHAPE], _now(body, other), ints[other, SHAPE], drop_x,
                                           drop_y)
        if not hit or (first >= 0 and (time > first_time or (time == first_time and other >= first))):
            continue
        allowed = (_permits(body, ints, status, filters, row, other, nx, ny) if row < other
                   else _permits(body, ints, status, filters, other, row, -nx, -ny))
        if allowed:
            first, first_time, first_x, first_y, first_surface = other, time, nx, ny, surface
    return first, first_time, first_x, first_y, first_surface


@_kernel
def snap_to_ground(body: Any, ints: Any, grounded: Any, step: Any, status: Any, buffers: Any) -> Any:
    """Snap to the ground each row of ``grounded`` (rows ascending, -1 for an entity gone,
    with the unit normal of the ground below it last step) that is to (see the module
    docstring), after ``crush.crush`` over the same tables and ``buffers`` (whose ``status`` it
    continues); ``GROUND_SNAP`` holds each row's reach (px). Returns ``status``."""
    grid, links, contacts, index, marks, out, filters = (buffers[0], buffers[1], buffers[3], buffers[5], buffers[6],
                                                         buffers[7], buffers[8])
    marked = buffers[10][7]  # (the rows standing on ground, stamped)
    ux, uy = step[UP_X], step[UP_Y]
    rows, normals = grounded
    if ux == 0.0 and uy == 0.0:
        return status
    standing = -1
    for k in range(rows.shape[0]):
        row = rows[k]
        if (row < 0 or not ints[row, FLAGS] & PHYSICS or body[row, GROUND_SNAP] <= 0.0
                or ints[row, FLAGS] & (STATIC | TRIGGER)):
            continue
        if standing < 0:  # (the contacts before any snap: a landing makes no row stand)
            standing = _mark_standing(ints, status, contacts, marked, ux, uy)
        mx, my = body[row, VEL_X] + body[row, FRAME_X], body[row, VEL_Y] + body[row, FRAME_Y]
        rising = 0.0 + mx * ux + my * uy
        along = 0.0 + mx * normals[k, 0] + my * normals[k, 1]
        if marked[row] == standing or (along if along < rising else rising) > step[REST_SPEED]:
            continue  # on the ground already, or leaving it (rising, and off its surface): a jump
        reach = body[row, GROUND_SNAP]
        drop_x, drop_y = -ux * reach, -uy * reach
        other, time, nx, ny, surface = _first_below(body, ints, grid, links, status, filters, row, drop_x, drop_y,
                                                    step[CELL_SIZE], marks, out)
        if other < 0:
            continue
        _move(body, ints, row, body[row, POS_X] + drop_x * time, body[row, POS_Y] + drop_y * time)
        a, b, sx, sy = (row, other, nx, ny) if row < other else (other, row, -nx, -ny)
        held_a, held_b = _holds(ints, a, b, sx, sy)
        _settle(body, ints, status, contacts, index, a, b, sx, sy, held_a, held_b, 0.0, surface, 1.0, _now(body, a),
                _now(body, b), step)
        away = 0.0 + body[row, VEL_X] * -nx + body[row, VEL_Y] * -ny  # the normal points from the row down to the ground
        if away > 0.0:
            body[row, VEL_X], body[row, VEL_Y] = body[row, VEL_X] + nx * away, body[row, VEL_Y] + ny * away
            ints[row, FLAGS] |= TOUCHED
    return status


@_kernel
def grounded(pairs: Any, values: Any, order: Any, ux: float, uy: float) -> tuple[Any, Any]:
    """The entities with ground below them in a step's contacts, each with the unit normal of
    that ground (from it to the entity), in the order they first stood: (entities, normals).

    ``pairs`` ((m, 2) entity ids, a < b) and ``values`` ((m, 8): normal x and y, ..., 1.0 for
    a TRIGGER's contact) are the contacts as ``Resolution.arrays`` holds them, ``order`` their
    time order (``Resolution.time_order``), (ux, uy) the unit vector against gravity. Contact
    by contact in that order, b along the normal before a against it, a side whose normal is
    at most 45° from up is ground (TRIGGER contacts are not); each entity keeps its most
    upright ground, the first of equals."""
    m = len(order)
    entities, normals, upright = np.empty(2 * m, np.int64), np.empty((2 * m, 2)), np.empty(2 * m)
    count = 0
    for k in range(m):
        contact = order[k]
        if values[contact, 7] != 0.0:
            continue
        for side in range(2):
            nx, ny = values[contact, 0], values[contact, 1]
            if side == 1:
                nx, ny = -nx, -ny
            standing = _upright(nx, ny, ux, uy)
            if standing >= DIAGONAL:
                entities[count] = pairs[contact, 1 - side]
                normals[count, 0], normals[count, 1], upright[count] = nx, ny, standing
                count += 1
    # Each entity's grounds together, in the order found (a stable sort), its first most upright chosen.
    by_entity = np.argsort(entities[:count], kind="mergesort")
    chosen, first = np.empty(count, np.int64), np.empty(count, np.int64)
    found = start = 0
    while start < count:
        best, end = by_entity[start], start + 1
        while end < count and entities[by_entity[end]] == entities[best]:
            if upright[by_entity[end]] > upright[best]:
                best = by_entity[end]
            end += 1
        chosen[found], first[found] = best, by_entity[start]
        found, start = found + 1, end
    picked = chosen[np.argsort(first[:found], kind="mergesort")]
    return entities[picked], normals[picked]
