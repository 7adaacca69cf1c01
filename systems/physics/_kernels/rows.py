"""Rows: boxes touching end to end, struck at one instant, collided at once in the sweep.

A player pushing a row of crates closes on the first; taken pair by pair, each e = 0 impact
slows one crate and speeds the next, so the row trades impacts whose size shrinks only
geometrically (about 300 a step for ten crates, past the bound on impacts a body may take in
a step). Their limit is the perfectly inelastic collision of the whole row, which pooling
adjacent violators (``_pool_adjacent``) gives in one pass. A pair alone is left to the
pairwise impact, which is already exact for it.

A row's members are boxes with Physics, not frozen at the impact bound, not riding a
platform, not pinned or supported on the row's axis, one touching each face of the next.
What touches an end may instead be a *stop*: a STATIC box, or a box held still that way (see
``settle._held_axes``), an infinite mass that whatever closes on it stops against, as a
wall does. Any other neighbour (two at one face, a frozen or bouncy one, another shape) rules
the row out, and so do stops at both ends (a squeeze is for crushing). The sweep
(``systems.physics._kernels.sweep``) re-sweeps the bodies a row changed.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .boxes import _axis_overlap, _gap
from .cells import _candidates
from .jit import helper as _helper
from .settle import _bit, _held_axes, _material, _permits, _record
from .table import (
    CARRY_X, CARRY_Y, FLAGS, FRAME_X, FRAME_Y, IMPACTS, INV_MASS, NOT_BOX, PHYSICS, PINNED, PINNER, PINNER_OFF,
    SHAPE, STATIC, SUPPORT, SUPPORTED, SUPPORTS, SWEEP_SLOP, TOUCHED, TOUCH_EPSILON, TRIGGER, VEL_X, _box_at, _max,
    _min,
)

__all__ = ["ROW_LIMIT", "find_row", "row_buffers", "settle_row"]

# A row's neighbours are found as Found.candidates finds them (``_candidates``).

#: Most bodies a row may hold; a longer one is left to the pairwise impacts.
ROW_LIMIT = 4096

# What touches a face of a row's end (``_next``): nothing, a box that joins the row, a stop,
# or something that rules the row out.
_OPEN, _JOIN, _STOP, _BLOCKED = 0, 1, 2, 3

# The rows' work buffers (``_row_buffers``), a row of each per table row (a row of boxes holds
# each body once). Int columns: the row found (in find_row's order), the chain along +axis (the
# stop behind, the row, the stop ahead), and per pooled block its bodies and whether it holds a
# stop's speed. Float columns: per place on the chain its speed before and after (px/s) and the
# momentum handed on through the contact after it (mass·px/s); per pooled block its mass,
# momentum and held speed; per body of the row its path's motion before (px per step).
MEMBER, CHAIN, BLOCK_SIZE, BLOCK_HELD = range(4)
SPEED_BEFORE, SPEED_AFTER, PASSED, BLOCK_MASS, BLOCK_MOMENTUM, BLOCK_SPEED, OLD_MOTION_X, OLD_MOTION_Y = range(8)


def row_buffers(rows: int) -> tuple[np.ndarray, np.ndarray]:
    """The rows' work buffers for a body table of ``rows`` rows: a chain
    holds at most every row and two stops."""
    return np.empty((rows + 2, 4), np.int64), np.empty((rows + 2, 8))


# -- who may join a row --------------------------------------------------------------------

@_helper
def _speed(body: Any, ints: Any, row: int, axis: int) -> float:
    """the row's speed (px/s) along ``axis``; 0 without Physics."""
    if ints[row, FLAGS] & PHYSICS:
        return float(body[row, VEL_X + axis])
    return 0.0


@_helper
def _bouncy(body: Any, ints: Any, a: int, b: int) -> bool:
    """Whether the pair's elasticity (``settle._material``) is above 0."""
    return bool(_material(body, ints, a, b)[0] > 0.0)


@_helper
def _held_on_axis(ints: Any, row: int, axis: int) -> bool:
    """Whether the row is STATIC, or pinned or supported either way along ``axis``."""
    bits = _bit(axis, 1.0) | _bit(axis, -1.0)
    return bool(ints[row, FLAGS] & STATIC or ints[row, PINNED] & bits or ints[row, SUPPORTED] & bits)


@_helper
def _free(body: Any, ints: Any, row: int, axis: int, max_subdivisions: int) -> bool:
    """a box with Physics and a mass, not frozen at the bound on
    impacts, not a rider this step, not held along ``axis``."""
    riding = (body[row, CARRY_X] != 0.0 or body[row, CARRY_Y] != 0.0 or body[row, FRAME_X] != 0.0
              or body[row, FRAME_Y] != 0.0)
    return bool(ints[row, FLAGS] & PHYSICS and body[row, INV_MASS] > 0.0 and not ints[row, FLAGS] & NOT_BOX
                and ints[row, IMPACTS] < max_subdivisions and not riding and not _held_on_axis(ints, row, axis))


# -- the row through a pair -----------------------------------------------------------------

@_helper
def _touching(body: Any, ints: Any, grid: Any, links: Any, status: Any, filters: Any, row: int, axis: int,
              sign: float, time: float, size: float, marks: Any, out: Any) -> tuple[int, int]:
    """how many bodies the row may collide with have a face
    within SWEEP_SLOP px of its face toward ``sign`` along ``axis`` at step
    fraction ``time``, overlapping it across (counted up to two, all a row
    needs; no TRIGGER, no pair a one-way face or a filter refuses), and the first."""
    box = _box_at(body, row, time)
    reach = (box[0] - SWEEP_SLOP, box[1] - SWEEP_SLOP, box[2] + 2 * SWEEP_SLOP, box[3] + 2 * SWEEP_SLOP)
    found, first = 0, -1
    for k in range(_candidates(body, ints, grid, links, status, row, reach, size, marks, out)):
        other = out[k]
        if other == row or ints[other, FLAGS] & TRIGGER:
            continue
        near = _box_at(body, other, time)
        if (abs(_gap(box[axis], box[axis + 2], near[axis], near[axis + 2], 1 if sign > 0 else -1)) <= SWEEP_SLOP
                and _axis_overlap(box[1 - axis], box[3 - axis], near[1 - axis], near[3 - axis]) > TOUCH_EPSILON):
            # the pair in order along +axis, its normal along +axis
            first, second = (row, other) if sign > 0 else (other, row)
            nx, ny = (1.0, 0.0) if axis == 0 else (0.0, 1.0)
            if not _permits(body, ints, status, filters, first, second, nx, ny):
                continue
            found += 1
            if found > 1:
                break
            first = other
    return found, first


@_helper
def _next(body: Any, ints: Any, grid: Any, links: Any, status: Any, filters: Any, row: int, axis: int, sign: float,
          time: float, max_subdivisions: int, size: float, marks: Any, out: Any) -> tuple[int, int]:
    """what touches the row's face toward ``sign`` along ``axis``
    (``_OPEN``...), and which row it is (-1 for none)."""
    found, neighbour = _touching(body, ints, grid, links, status, filters, row, axis, sign, time, size, marks, out)
    if not found:
        return _OPEN, -1
    if (found > 1 or ints[neighbour, FLAGS] & NOT_BOX or _bouncy(body, ints, row, neighbour)
            or ints[neighbour, IMPACTS] >= max_subdivisions):
        return _BLOCKED, -1
    push_x, push_y = (sign, 0.0) if axis == 0 else (0.0, sign)
    if ints[neighbour, FLAGS] & STATIC or (
            ints[neighbour, FLAGS] & PHYSICS and _held_axes(body, ints, status, neighbour, push_x, push_y)[axis]):
        return _STOP, neighbour
    if _free(body, ints, neighbour, axis, max_subdivisions):
        return _JOIN, neighbour
    return _BLOCKED, -1


@_helper
def _reverse(table: Any, column: int, start: int, end: int) -> None:
    """Reverse ``table[start:end, column]`` in place."""
    end -= 1
    while start < end:
        table[start, column], table[end, column] = table[end, column], table[start, column]
        start += 1
        end -= 1


@_helper
def find_row(body: Any, ints: Any, grid: Any, links: Any, status: Any, filters: Any, work: Any, a: int, b: int,
             axis: int, along: float, time: float, max_subdivisions: int, size: float, marks: Any,
             out: Any) -> tuple[int, int, int]:
    """For the impact of a and b along ``axis`` toward
    ``along`` (a -> b): how many bodies the row holds (0 for no row), in
    ``work``'s MEMBER column in find_row's order, and the stops behind and
    ahead of it (-1 for none)."""
    if _bouncy(body, ints, a, b) or not (_free(body, ints, a, axis, max_subdivisions)
                                          and _free(body, ints, b, axis, max_subdivisions)):
        return 0, -1, -1
    members = work[0]
    members[0, MEMBER], members[1, MEMBER] = a, b
    # Built in find order, but the bodies found behind a are appended after those
    # ahead of b (nearest first), and put in front once the search is done.
    count, ahead_count, behind, ahead = 2, 2, -1, -1
    for direction in (1.0, -1.0):
        end = b if direction > 0 else a
        while count <= ROW_LIMIT:
            kind, after = _next(body, ints, grid, links, status, filters, end, axis, along * direction, time,
                                max_subdivisions, size, marks, out)
            if kind == _BLOCKED:
                return 0, -1, -1
            for k in range(count):  # (`after in row`)
                if members[k, MEMBER] == after:
                    return 0, -1, -1
            if kind == _STOP:
                if direction > 0:
                    ahead = after
                else:
                    behind = after
            if kind != _JOIN:
                break
            members[count, MEMBER] = after
            count += 1
            if direction > 0:
                ahead_count = count
            end = after
    if (behind >= 0 and ahead >= 0) or not 2 < count <= ROW_LIMIT:
        return 0, -1, -1
    _reverse(members, MEMBER, 0, count)  # (those behind, nearest last, then those ahead reversed)
    _reverse(members, MEMBER, count - ahead_count, count)
    return count, behind, ahead


# -- the inelastic collision of a row --------------------------------------------------------

@_helper
def _mean(floats: Any, ints: Any, block: int) -> float:
    """A pooled block's speed (px/s), its stop's if it holds one."""
    if ints[block, BLOCK_HELD]:
        return float(floats[block, BLOCK_SPEED])
    return float(floats[block, BLOCK_MOMENTUM] / floats[block, BLOCK_MASS])


# Pool adjacent violators (Ayer, Brunk, Ewing, Reid and Silverman, *An Empirical Distribution
# Function for Sampling with Incomplete Information*, 1955), the weighted isotonic regression: for a
# row of bodies, the perfectly inelastic collision, the limit of pairwise e = 0 impulses.
@_helper
def _pool_adjacent(body: Any, work: Any, places: int, first: int, count: int) -> None:
    """The speeds after a perfectly inelastic collision of the chain's
    ``places`` bodies (``work``'s CHAIN column, speeds before in
    SPEED_BEFORE), the ``count`` from place ``first`` on the row, the
    others stops (an infinite mass): into SPEED_AFTER, for every place."""
    ints, floats = work
    blocks = 0
    for place in range(places):
        stop = place < first or place >= first + count
        mass = math.inf if stop else 1.0 / body[ints[place, CHAIN], INV_MASS]
        speed = floats[place, SPEED_BEFORE]
        held = math.isinf(mass)
        block_mass, momentum, bodies, held_speed = mass, 0.0 if held else mass * speed, 1, speed if held else 0.0
        while blocks:
            last = blocks - 1
            if not _mean(floats, ints, last) > (held_speed if held else momentum / block_mass):
                break
            blocks = last
            if ints[last, BLOCK_HELD]:
                held, held_speed = True, floats[last, BLOCK_SPEED]
            block_mass = floats[last, BLOCK_MASS] + block_mass
            momentum = floats[last, BLOCK_MOMENTUM] + momentum
            bodies = ints[last, BLOCK_SIZE] + bodies
        floats[blocks, BLOCK_MASS], floats[blocks, BLOCK_MOMENTUM] = block_mass, momentum
        floats[blocks, BLOCK_SPEED], ints[blocks, BLOCK_SIZE], ints[blocks, BLOCK_HELD] = held_speed, bodies, held
        blocks += 1
    place = 0
    for block in range(blocks):
        speed = _mean(floats, ints, block)
        for _ in range(ints[block, BLOCK_SIZE]):
            floats[place, SPEED_AFTER] = speed
            place += 1


@_helper
def _passed(body: Any, work: Any, first: int, count: int) -> None:
    """the momentum (mass·px/s) handed on through each contact
    of the chain along +axis into PASSED, from place ``first - 1`` on (from
    a stop behind, what the row gained; then at each body, what it gave up)."""
    carried = 0.0
    if first:
        for place in range(first, first + count):  # (the gains summed in order, never by a compensated sum)
            carried += _gained(body, work, place)
        work[1][0, PASSED] = carried
    for place in range(first, first + count):
        carried -= _gained(body, work, place)
        work[1][place, PASSED] = carried


@_helper
def _gained(body: Any, work: Any, place: int) -> float:
    """The momentum (mass·px/s) the body at ``place`` on the chain gained
    (m · (v − u), the mass being 1 / its inverse mass)."""
    ints, floats = work
    return float(1.0 / body[ints[place, CHAIN], INV_MASS] * (floats[place, SPEED_AFTER] - floats[place, SPEED_BEFORE]))


@_helper
def _rub(body: Any, ints: Any, a: int, b: int, other: int, impulse: float) -> None:
    """Coulomb friction between neighbours a and b along axis
    ``other``, at most their friction times the normal ``impulse``
    (mass·px/s), never more than stops their sliding."""
    friction = _material(body, ints, a, b)[1]
    sliding = _speed(body, ints, a, other) - _speed(body, ints, b, other)
    total = body[a, INV_MASS] + body[b, INV_MASS]
    if friction <= 0.0 or sliding == 0.0 or total == 0.0:
        return
    change = _min(friction * impulse, abs(sliding) / total) * (1.0 if sliding > 0 else -1.0)
    share_a, share_b = -change * body[a, INV_MASS], change * body[b, INV_MASS]
    for row, share in ((a, share_a), (b, share_b)):
        if ints[row, FLAGS] & PHYSICS and share:
            body[row, VEL_X + other] += share
            ints[row, FLAGS] |= TOUCHED


@_helper
def _record_pair(body: Any, ints: Any, status: Any, contacts: Any, index: Any, first: int, second: int, axis: int,
                 time: float, depth: float) -> None:
    """the contact of neighbours ``first`` and ``second`` (in
    order along +axis), its normal from the lower row to the higher."""
    low, high = (first, second) if first < second else (second, first)
    box_low, box_high = _box_at(body, low, time), _box_at(body, high, time)
    along = 1.0 if high == second else -1.0
    nx, ny = (along, 0.0) if axis == 0 else (0.0, along)
    other = 1 - axis
    surface = _max(_axis_overlap(box_low[other], box_low[other + 2], box_high[other], box_high[other + 2]), 0.0)
    _record(contacts, index, status, low, high, nx, ny, depth, time, surface, box_low, ints[low, SHAPE], box_high,
            ints[high, SHAPE], False)


@_helper
def _hold_against(body: Any, ints: Any, status: Any, row: int, stop: int, axis: int, toward: float) -> None:
    """Pin the row against ``stop``, which holds still on its
    ``toward`` side (+1 or -1) along ``axis``, noted at rest there."""
    bit = _bit(axis, toward)
    index = axis * 2 + (1 if toward > 0 else 0)
    ints[row, PINNED] |= bit
    ints[row, PINNER + index] = stop
    body[row, PINNER_OFF + 2 * index] = -toward if axis == 0 else 0.0
    body[row, PINNER_OFF + 2 * index + 1] = -toward if axis == 1 else 0.0
    ints[row, SUPPORTED] |= bit
    body[row, SUPPORT + axis * 2 + (1 if toward > 0 else 0)] = _speed(body, ints, row, axis) * toward
    status[SUPPORTS] += 1


@_helper
def settle_row(body: Any, ints: Any, status: Any, contacts: Any, index: Any, work: Any, count: int, behind: int,
               ahead: int, axis: int, along: float, time: float, dt: float) -> None:
    """collide the row of ``count`` bodies (``work``'s
    MEMBER column), struck along ``axis`` toward ``along``, perfectly
    inelastically at step fraction ``time`` of a ``dt`` s step, with
    friction at each contact; record each contact that passed momentum, and
    hold against a stop the bodies brought to its speed."""
    ints_w, floats = work
    other = 1 - axis
    low, high = (behind, ahead) if along > 0 else (ahead, behind)
    places = 0
    if low >= 0:
        ints_w[places, CHAIN] = low
        places += 1
    for k in range(count):  # the row along +axis
        ints_w[places, CHAIN] = ints_w[k if along > 0 else count - 1 - k, MEMBER]
        places += 1
    if high >= 0:
        ints_w[places, CHAIN] = high
        places += 1
    for place in range(places):
        floats[place, SPEED_BEFORE] = _speed(body, ints, ints_w[place, CHAIN], axis)
    first = 1 if low >= 0 else 0
    _pool_adjacent(body, work, places, first, count)
    _passed(body, work, first, count)
    for place in range(first, first + count):
        row = ints_w[place, CHAIN]
        body[row, VEL_X + axis] = floats[place, SPEED_AFTER]
        ints[row, FLAGS] |= TOUCHED
    # Past a free end nothing is handed on: the contacts the PASSED column covers.
    for place in range(min(places - 1, count + first)):
        impulse = floats[place, PASSED]
        if impulse > 0.0:
            a, b = ints_w[place, CHAIN], ints_w[place + 1, CHAIN]
            _rub(body, ints, a, b, other, impulse)
            closing = _max(floats[place, SPEED_BEFORE] - floats[place + 1, SPEED_BEFORE], 0.0) * dt * (1.0 - time)
            _record_pair(body, ints, status, contacts, index, a, b, axis, time, closing)
    for stop, toward in ((low, -1.0), (high, 1.0)):
        if stop >= 0:
            for place in range(first, first + count):
                if floats[place, SPEED_AFTER] == _speed(body, ints, stop, axis):
                    _hold_against(body, ints, status, ints_w[place, CHAIN], stop, axis, toward)
