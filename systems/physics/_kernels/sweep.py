"""The sweep: every moving body swept along its path in the step, impacts resolved in time order.

The timeslice subdivision of Sacred Software, *Collisions, Part 1*, for many moving bodies:
every candidate pair is swept in relative motion (``shapes.sweep``; two boxes inline,
``boxes._sweep_boxes``); impacts are taken earliest first, then larger contact surface, then
rows (entity ids) (``queue``). At an impact both bodies are placed at their contact positions,
momentum and friction are exchanged along the contact normal (``settle``), and the bodies it
changed are swept again through the rest of the step with their new velocities, their
neighbours found in the run's grid (``cells``). Nothing tunnels, whatever the speed. A row of
boxes touching end to end, struck without bouncing, is collided all at once (``rows``). Under
gravity, each body the last step's contacts held up takes its impact at the step's start with
what holds it before anything is swept (``_settle_resting``), so a pile is swept once.

Under gravity an impact exchanges momentum at the velocity the body has when it hits, not at
the end of the step. Movement integrates by semi-implicit Euler (v += g·dt, then x += v·dt),
whose positions are those of the exact parabola half a step later: the chord of the step,
along which a body is swept, goes from the parabola at τ + dt/2 to τ + 3dt/2, so at fraction
t of it the body's true velocity is v − g·dt·(½ − t), v being its velocity for the step
(after gravity). The impact reflects that; the rest of the step then adds back the
g·dt·(½ − t) the velocity at the end of the step stands for (``_lag``). So an elastic bounce
keeps the integrator's energy, ½v² − g·x + ½·dt·g·v, to O(g²·dt²) per bounce (a ball with
e = 1 returns to within g·dt²/8 px of its height), and e < 1 scales it by e². Where the
impact leaves the pair at rest along the normal, the rest of the step's gravity never lifts
one off the other; where it would carry them into each other, the contact takes it up, with
friction (``_support``): a body resting on a floor still loses μ·g·dt of sliding speed a
step, and keeps zero velocity along the normal. A resting contact (approaching at the rest
speed or slower) bounces nothing and is settled at the step's velocity; once a contact holds a
body, its velocity is true for the rest of the step (the HELD flag).

Everything runs over one body table (``table``): a row per body, in entity order, so that
comparing rows compares entity ids; Box2D v3 keeps its per-body state in a small struct
"designed for scatter-gather" for the same reason. The stage around it
(``systems.physics._stages.resolve``) fills the table from the components and writes back what
changed. The float operations are those of the Python geometry and solver the last stages of
a step use (pygame's ``Vector2.dot`` adds its products to 0.0, ``v / s`` multiplies by
``1 / s``, ``==`` compares within 1e-6), so a contact settled here and one settled there
agree, signed zeros included. Push-out (``push``) runs next, in the same run. numba compiles this module and those it builds on; the same
source runs as plain Python where it does not (``ECS_ARCADE_JIT=0``, ``plain``), to the same
bits.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .jit import helper as _helper
from .jit import inlined_helper as _inlined
from .jit import kernel as _kernel
from .table import (
    BOUNDS_H, BOUNDS_VERSION, BOUNDS_W, BOUNDS_X, BOUNDS_Y, CARRY_X, CARRY_Y, CELL_SIZE, COUNTERS, CRUSHED, CRUSHES,
    DT, EMPTY, ENTITY, ENTRIES, FACES_RUN, FILED_H, FILED_W, FILED_X, FILED_Y, FILTERED, FILTERED_RUN, FLAGS, FROZEN,
    FULL_TABLE, GRAVITY_SCALE, HEAP, HELD, HELD_BEFORE_X, HELD_BEFORE_Y, HELD_BY, IMPACTS, INV_MASS, LARGE, LARGES,
    LAYERED, LAYERS, MAX_SUBDIVISIONS, MET, MOTION_X, MOTION_Y, MOVED, MOVING_STATICS, NOT_BOX, OCCUPIED,
    ONE_WAY_FACES, ORIGIN_X, ORIGIN_Y, OVERFLOW, PHYSICS, PINNED, PINNER, PINNER_OFF, POS_X, POS_Y, PULL_X, PULL_Y,
    RESTING_SPEED, SHAPE, SPAN_X0, SPAN_X1, SPAN_Y0, SPAN_Y1, START, STATIC, SWEEPS, SWEEP_SLOP, TOUCHED,
    TOUCH_EPSILON, TRIGGER, UP_X, UP_Y, VECTOR_EPSILON, VEL_X, VEL_Y, VERDICTS, VERSION, WEDGE_REACH, WIDENED, _box_at,
    _filed, _union, _within,
)
from .boxes import _axis_overlap, _box_contact, _swept_apart, _sweep_boxes
from .rows import MEMBER, OLD_MOTION_X, OLD_MOTION_Y, _bouncy, find_row, row_buffers, settle_row
from .shapes import overlap, sweep
from .cells import (
    _candidates, _file, _link, _link_pairs, _mark_partners, _meet, _partners, _query, _slot, _sort, _take_out,
)
from .push import _holds, push_buffers
from .queue import _pop, _push
from .settle import (
    _bit, _contact_velocities, _dominant, _driver, _exchange, _held_axes, _material, _permits, _record, _rest_speed,
    _settle,
)

__all__ = ["KEPT_CONTACTS", "KEPT_COUNTERS", "KEPT_KEY", "buffer_sizes", "buffers_for", "filing_each_run", "kept_filing",
           "make_buffers", "run_sweeps"]


# -- gravity within a step (see the module docstring) ------------------------------------

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
    none at a resting contact (approaching at the pair's rest speed or slower, ``_rest_speed``)."""
    none = (False, 0.0, 0.0)
    if step[PULL_X] == 0.0 and step[PULL_Y] == 0.0:
        return none, none
    vax, vay, vbx, vby = _contact_velocities(body, ints, a, b, nx, ny, step[UP_X], step[UP_Y])
    if 0.0 + (vax - vbx) * nx + (vay - vby) * ny <= _rest_speed(body, ints, a, b, step):
        return none, none
    return _lag(body, ints, a, time, step), _lag(body, ints, b, time, step)


@_helper
def _support(body: Any, ints: Any, status: Any, a: int, b: int, nx: float, ny: float, lag_a: Any, lag_b: Any,
             step: Any) -> None:
    """Give each row back its lag after the impact was settled: all of it,
    but where the pair came to rest along the normal none of what would
    part them; where it drives them into each other the contact takes it up
    with friction. Either way the contact now holds both."""
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


# -- the sweeps ---------------------------------------------------------------------------

@_helper
def _schedule_shapes(body: Any, ints: Any, ties: Any, a: int, b: int, now: float, box_a: Any, box_b: Any, rx: float,
                     ry: float) -> tuple[bool, float, float, float, float]:
    """``_schedule`` for a pair with a shape that is not a box, past the
    swept boxes' test: (queued, time, normal x, normal y, surface), through
    the shapes' narrow phase."""
    shape_a, shape_b = ints[a, SHAPE], ints[b, SHAPE]
    hit, fraction, nx, ny, surface = sweep(box_a, shape_a, box_b, shape_b, rx, ry)
    if hit:
        return True, now + fraction * (1.0 - now), nx, ny, surface
    # Already inside each other and still closing: an impact now.
    if not (_axis_overlap(box_a[0], box_a[2], box_b[0], box_b[2]) > TOUCH_EPSILON
            and _axis_overlap(box_a[1], box_a[3], box_b[1], box_b[3]) > TOUCH_EPSILON):
        return False, 0.0, 0.0, 0.0, 0.0
    tie = ties[(ints[a, ENTITY] * 40503 + ints[b, ENTITY] * 9973) % 256]
    inside, nx, ny, depth, entry, surface = overlap(box_a, shape_a, _box_at(body, a, 0.0), box_b, shape_b,
                                                    _box_at(body, b, 0.0), tie[0], tie[1])
    if not inside or rx * nx + ry * ny <= 0.0:
        return False, 0.0, 0.0, 0.0, 0.0
    return True, now, nx, ny, surface


@_inlined
def _first_impact(body: Any, ints: Any, ties: Any, a: int, b: int, now: float, box_a: Any,
                  box_b: Any) -> tuple[bool, float, float, float, float]:
    """The first impact of rows a < b after step fraction ``now``, their boxes (px) being
    ``box_a`` and ``box_b``: (found, time, normal x, normal y, surface)."""
    none = (False, 0.0, 0.0, 0.0, 0.0)
    if ints[a, FLAGS] & ints[b, FLAGS] & STATIC:
        return none
    rest = 1.0 - now
    rx = (body[a, MOTION_X] - body[b, MOTION_X]) * rest
    ry = (body[a, MOTION_Y] - body[b, MOTION_Y]) * rest
    if rx == 0.0 and ry == 0.0:
        return none
    if _swept_apart(box_a, rx, ry, box_b, SWEEP_SLOP):
        return none  # nearly half the pairs re-swept after a fast impact: cheaper than the sweep
    if (ints[a, FLAGS] | ints[b, FLAGS]) & NOT_BOX:  # (FLAGS: on the row's first cache line)
        return _schedule_shapes(body, ints, ties, a, b, now, box_a, box_b, rx, ry)
    hit, fraction, axis, sign, surface = _sweep_boxes(box_a, box_b, rx, ry)
    if hit:
        nx, ny = (sign, 0.0) if axis == 0 else (0.0, sign)
        return True, now + fraction * (1.0 - now), nx, ny, surface
    # Already inside each other and still closing: an impact now.
    if not (_axis_overlap(box_a[0], box_a[2], box_b[0], box_b[2]) > TOUCH_EPSILON
            and _axis_overlap(box_a[1], box_a[3], box_b[1], box_b[3]) > TOUCH_EPSILON):
        return none
    tie = ties[(ints[a, ENTITY] * 40503 + ints[b, ENTITY] * 9973) % 256]
    inside, axis, side, depth, entry, surface = _box_contact(box_a, box_b, _box_at(body, a, 0.0),
                                                             _box_at(body, b, 0.0), tie[0], tie[1])
    nx, ny = (1.0 * side, 0.0 * side) if axis == 0 else (0.0 * side, 1.0 * side)
    if not inside or rx * nx + ry * ny <= 0.0:
        return none
    return True, now, nx, ny, surface


@_inlined
def _schedule(body: Any, ints: Any, status: Any, queue: Any, ties: Any, a: int, b: int, now: float,
              box_a: Any, box_b: Any) -> None:
    """Queue the first impact of rows a < b after step fraction ``now``, their
    boxes (px) being ``box_a`` and ``box_b``."""
    found, time, nx, ny, surface = _first_impact(body, ints, ties, a, b, now, box_a, box_b)
    if found:
        _push(queue, status, time, -surface, a, b, ints[a, VERSION], ints[b, VERSION], nx, ny)


@_helper
def _squeezed(body: Any, ints: Any, grid: Any, links: Any, status: Any, a: int, b: int, time: float, nx: float,
              ny: float, held_a: bool, held_b: bool, size: float, marks: Any, out: Any) -> int:
    """The STATIC beyond (the anvil's row; -1 for none) if, at step fraction
    ``time``, a row of the pair that is not STATIC is pushed by one that holds
    still (``held_a``/``held_b``: a STATIC, or a body pinned against one) into
    a STATIC on its far side, touching it (within SWEEP_SLOP), while the STATIC
    that drives the pusher (itself, or the one its pins lead to: ``_driver``) and
    the anvil close on each other: pressed between them. Only STATICs squeeze:
    a body's own motion (gravity, its velocity, a crowd steered into a corner)
    meets bodies of finite mass, which give way. A body pinned earlier in the
    step and since bounced away (a ball rattling in a slot) is not pressed, nor
    one carried into a corner of surfaces that stay apart (a box come to rest
    between a wall and a ramp): it could leave the way it came."""
    if not status[MOVING_STATICS]:  # (still STATICs close on nothing)
        return -1
    axis, sign = _dominant(nx, ny)
    for row, pusher, push_x, push_y, pusher_holds, behind in ((a, b, -nx, -ny, held_b, sign),
                                                             (b, a, nx, ny, held_a, -sign)):
        if ints[row, FLAGS] & STATIC or not pusher_holds:
            continue
        driver = _driver(ints, pusher, axis * 2 + (1 if behind > 0 else 0))
        if driver < 0:
            continue
        x, y, w, h = _box_at(body, row, time)
        reach = (x + push_x * SWEEP_SLOP, y + push_y * SWEEP_SLOP, w, h)
        before = _box_at(body, row, 0.0)
        for k in range(_candidates(body, ints, grid, links, status, row, reach, size, marks, out)):
            other = out[k]
            if not ints[other, FLAGS] & STATIC or other == a or other == b:
                continue
            pressed, px, py, depth, entry, surface = overlap(reach, ints[row, SHAPE], before,
                                                             _box_at(body, other, time), ints[other, SHAPE],
                                                             _box_at(body, other, 0.0), 0.0, 1.0)
            # Driver and anvil closing along the push: where they don't, they leave the body the
            # room it has. Still STATICs have exactly zero motion, so any closing counts.
            closing = ((body[driver, MOTION_X] - body[other, MOTION_X]) * push_x
                       + (body[driver, MOTION_Y] - body[other, MOTION_Y]) * push_y)
            if pressed and 0.0 + px * push_x + py * push_y > 0.5 and closing > 0.0:
                return int(other)
    return -1


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
    """The box over the rest of the row's path, kept until the path changes."""
    if ints[row, BOUNDS_VERSION] != ints[row, VERSION]:
        bounds = _union(_box_at(body, row, body[row, START]), _box_at(body, row, 1.0))
        body[row, BOUNDS_X], body[row, BOUNDS_Y], body[row, BOUNDS_W], body[row, BOUNDS_H] = bounds
        ints[row, BOUNDS_VERSION] = ints[row, VERSION]
    return body[row, BOUNDS_X], body[row, BOUNDS_Y], body[row, BOUNDS_W], body[row, BOUNDS_H]


@_helper
def _resweep(body: Any, ints: Any, grid: Any, links: Any, status: Any, queue: Any, events: Any, ties: Any,
             row: int, now: float, size: float, marks: Any, out: Any) -> None:
    """Schedule the impacts of a changed path with the row's neighbours whose
    remaining boxes come within SWEEP_SLOP of its own."""
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
    """A path that no longer moves by (old_x, old_y) retires its impacts and is swept
    again (``_retire``)."""
    if _retire(body, ints, status, row, old_x, old_y, max_subdivisions):
        _resweep(body, ints, grid, links, status, queue, events, ties, row, time, size, marks, out)


@_inlined
def _retire(body: Any, ints: Any, status: Any, row: int, old_x: float, old_y: float, max_subdivisions: int) -> bool:
    """Whether the row's path no longer moves by (old_x, old_y) (pygame's == within 1e-6);
    if so its impacts are retired and one is counted (stopping it at the bound)."""
    if abs(body[row, MOTION_X] - old_x) < VECTOR_EPSILON and abs(body[row, MOTION_Y] - old_y) < VECTOR_EPSILON:
        return False
    ints[row, VERSION] += 1
    ints[row, IMPACTS] += 1
    if ints[row, IMPACTS] >= max_subdivisions:
        if status[FROZEN] < 0:
            status[FROZEN] = row
        if not ints[row, FLAGS] & STATIC:
            body[row, MOTION_X], body[row, MOTION_Y] = 0.0, 0.0
    return True


@_helper
def _crush(body: Any, ints: Any, grid: Any, links: Any, status: Any, queue: Any, events: Any, ties: Any,
           a: int, b: int, anvil: int, nx: float, ny: float, time: float, size: float, marks: Any, out: Any) -> None:
    """The pair's body that is not STATIC stops, crushed between the other and the ``anvil``
    along (nx, ny), its velocity too: along the squeeze, and along the faces unless both are
    frictionless (Coulomb's limit, μ times a squeeze no finite force matches, stops any
    sliding where μ > 0; where μ = 0 nothing acts along the faces, so it slides out)."""
    for row in (a, b):
        if ints[row, FLAGS] & STATIC:
            continue
        ints[row, FLAGS] |= CRUSHED
        status[CRUSHES] = 1
        if ints[row, FLAGS] & PHYSICS and body[row, INV_MASS] != 0.0:
            vx, vy = body[row, VEL_X], body[row, VEL_Y]
            along = 0.0 + vx * nx + vy * ny
            sliding = _material(body, ints, a, b)[1] == 0.0 and _material(body, ints, row, anvil)[1] == 0.0
            body[row, VEL_X], body[row, VEL_Y] = (vx - nx * along, vy - ny * along) if sliding else (0.0, 0.0)
            ints[row, FLAGS] |= TOUCHED
        if body[row, MOTION_X] != 0.0 or body[row, MOTION_Y] != 0.0:
            body[row, MOTION_X], body[row, MOTION_Y] = 0.0, 0.0
            ints[row, VERSION] += 1
            _resweep(body, ints, grid, links, status, queue, events, ties, row, time, size, marks, out)


# -- rows of boxes collided at once (systems.physics._kernels.rows) ------------------------

@_helper
def _collide(body: Any, ints: Any, grid: Any, links: Any, status: Any, queue: Any, events: Any, ties: Any,
             contacts: Any, index: Any, filters: Any, work: Any, a: int, b: int, time: float, axis: int, along: float,
             step: Any, marks: Any, out: Any) -> bool:
    """Whether a and b
    are part of a row, which is then collided and its bodies re-swept."""
    dt, max_subdivisions, size = step[DT], int(step[MAX_SUBDIVISIONS]), step[CELL_SIZE]
    count, behind, ahead = find_row(body, ints, grid, links, status, filters, work, a, b, axis, along, time,
                                    max_subdivisions, size, marks, out)
    if not count:
        return False
    members, floats = work
    for k in range(count):
        row = members[k, MEMBER]
        elapsed = time - body[row, START]
        body[row, ORIGIN_X] = body[row, ORIGIN_X] + body[row, MOTION_X] * elapsed
        body[row, ORIGIN_Y] = body[row, ORIGIN_Y] + body[row, MOTION_Y] * elapsed
        body[row, START] = time
        floats[k, OLD_MOTION_X], floats[k, OLD_MOTION_Y] = body[row, MOTION_X], body[row, MOTION_Y]
    settle_row(body, ints, status, contacts, index, work, count, behind, ahead, axis, along, time, dt)
    for k in range(count):
        row = members[k, MEMBER]
        body[row, MOTION_X] = body[row, VEL_X] * dt + body[row, CARRY_X]  # velocity · dt + carry
        body[row, MOTION_Y] = body[row, VEL_Y] * dt + body[row, CARRY_Y]
        _changed(body, ints, grid, links, status, queue, events, ties, row, floats[k, OLD_MOTION_X],
                 floats[k, OLD_MOTION_Y], time, max_subdivisions, size, marks, out)
    return True


@_inlined
def _collide_row(body: Any, ints: Any, grid: Any, links: Any, status: Any, queue: Any, events: Any, ties: Any,
                 contacts: Any, index: Any, filters: Any, work: Any, a: int, b: int, time: float, nx: float,
                 ny: float, step: Any, marks: Any, out: Any) -> bool:
    """Whether the impact of rows a < b along the normal (nx, ny) (a -> b)
    at step fraction ``time`` strikes a row of boxes, which is then
    collided at once and its bodies re-swept (for a pair neither held nor frozen)."""
    if _bouncy(body, ints, a, b):  # (find_row's first test, inline: most pairs of a bouncy scene stop there)
        return False
    axis = 0 if nx != 0.0 else 1
    return _collide(body, ints, grid, links, status, queue, events, ties, contacts, index, filters, work, a, b,
                    time, axis, nx if axis == 0 else ny, step, marks, out)


# -- two STATICs met in one instant (a wedge) -----------------------------------------------

@_helper
def _held_before(body: Any, ints: Any, row: int) -> tuple[int, float, float, float, float]:
    """(STATIC row, its normal x and y toward ``row``, ``row``'s velocity x and y before that
    impact) of the row's last impact, when that was with a STATIC; (-1, 0, 0, 0, 0) if not."""
    if not ints[row, HELD_BY]:
        return -1, 0.0, 0.0, 0.0, 0.0
    bit = ints[row, HELD_BY] - 1
    return (ints[row, PINNER + bit], body[row, PINNER_OFF + 2 * bit], body[row, PINNER_OFF + 2 * bit + 1],
            body[row, HELD_BEFORE_X], body[row, HELD_BEFORE_Y])


@_helper
def _moving(body: Any, row: int) -> bool:
    return bool(body[row, MOTION_X] != 0.0 or body[row, MOTION_Y] != 0.0)


@_helper
def _wedged(body: Any, ints: Any, status: Any, row: int, other: int, nx: float, ny: float, held: Any, moved: float,
            step: Any) -> None:
    """Solve the impact just settled of ``row`` with the still STATIC ``other`` along (nx, ny)
    (other -> row) together with its last one, when that was with another still STATIC ``held``
    (``_held_before``) at most WEDGE_REACH px before (``moved``) and the two leave ``row``
    lifting off it. Taken one after the other, a box driven up a ramp into a wall would have
    the ramp turn its run into a climb and the wall take only the run: it would hop. Taken
    together (neither bouncy; Coulomb friction aside), from its velocity before both: the
    other alone, where that leaves it clear of the first, else both, which stop it."""
    first, n1x, n1y, before_x, before_y = held
    if first < 0 or first == other or not ints[first, FLAGS] & STATIC or moved > WEDGE_REACH:
        return
    if _moving(body, first) or _moving(body, other):
        return  # (a lift's contacts are relative to it: left one after the other)
    if 0.0 + body[row, VEL_X] * n1x + body[row, VEL_Y] * n1y <= RESTING_SPEED:
        return  # still on the first: one after the other was right
    if _material(body, ints, row, other)[0] != 0.0 or _material(body, ints, row, first)[0] != 0.0:
        return
    body[row, VEL_X], body[row, VEL_Y] = before_x, before_y
    a, b, sign = (other, row, 1.0) if other < row else (row, other, -1.0)
    _exchange(body, ints, a, b, nx * sign, ny * sign, _held_axes(body, ints, status, a, -nx * sign, -ny * sign),
              _held_axes(body, ints, status, b, nx * sign, ny * sign), step)
    if 0.0 + body[row, VEL_X] * n1x + body[row, VEL_Y] * n1y < 0.0:
        body[row, VEL_X], body[row, VEL_Y] = 0.0, 0.0  # both hold it
    ints[row, FLAGS] |= TOUCHED


@_helper
def _against_statics(body: Any, ints: Any, status: Any, a: int, b: int, nx: float, ny: float, time: float,
                     since: Any, held: Any, before: Any, motions: Any, frozen: Any, step: Any) -> None:
    """After rows a and b were settled along (nx, ny) at step fraction ``time``: a row that met
    a STATIC is solved with its last impact (``_wedged``) and remembers this one (``HELD_BY``,
    its velocity ``before``); ``since``, ``held``, ``motions``: each row's START,
    ``_held_before`` and motion as the impact began."""
    axis, sign = _dominant(nx, ny)
    for k, row, other, push in ((0, a, b, -1.0), (1, b, a, 1.0)):
        if ints[row, FLAGS] & STATIC or not ints[other, FLAGS] & STATIC:
            continue
        if ints[row, FLAGS] & PHYSICS and body[row, INV_MASS] != 0.0 and not frozen[k]:
            mx, my = motions[2 * k], motions[2 * k + 1]
            moved = math.sqrt(0.0 + mx * mx + my * my) * (time - since[k])
            _wedged(body, ints, status, row, other, nx * push, ny * push, held[k], moved, step)
        toward = sign * -push
        ints[row, HELD_BY] = 1 + axis * 2 + (1 if toward > 0 else 0)
        body[row, HELD_BEFORE_X], body[row, HELD_BEFORE_Y] = before[2 * k], before[2 * k + 1]


@_helper
def _impact(body: Any, ints: Any, grid: Any, links: Any, status: Any, queue: Any, events: Any, ties: Any,
            contacts: Any, index: Any, filters: Any, work: Any, a: int, b: int, time: float, nx: float, ny: float,
            surface: float, step: Any, marks: Any, out: Any, swept: bool) -> None:
    """Resolve one impact at step fraction ``time`` and re-sweep who changed
    (``step``: the step's parameters, ``DT``...). ``swept``: whether the run's sweeps have
    begun; before they do (``_settle_resting``), a changed path is swept again only where it
    left the box it was filed under, the rest being swept once with every other."""
    dt, max_subdivisions, size = step[DT], int(step[MAX_SUBDIVISIONS]), step[CELL_SIZE]
    approach = 0.0 + (body[a, MOTION_X] - body[b, MOTION_X]) * nx + (body[a, MOTION_Y] - body[b, MOTION_Y]) * ny
    frozen_a = ints[a, IMPACTS] >= max_subdivisions
    frozen_b = ints[b, IMPACTS] >= max_subdivisions
    if (ints[a, FLAGS] | ints[b, FLAGS]) & TRIGGER:  # reported if they really go into each other, never resolved
        if approach * (1.0 - time) > SWEEP_SLOP and _permits(body, ints, status, filters, a, b, nx, ny):
            _record(contacts, index, status, a, b, nx, ny, 0.0, time, surface, _box_at(body, a, time), ints[a, SHAPE],
                    _box_at(body, b, time), ints[b, SHAPE], True)
        return
    if approach * (1.0 - time) <= SWEEP_SLOP or (frozen_a and frozen_b):
        return
    if not _permits(body, ints, status, filters, a, b, nx, ny):
        return  # a one-way face from behind, or a filter lets them pass
    since_a, since_b = body[a, START], body[b, START]
    held_before_a, held_before_b = _held_before(body, ints, a), _held_before(body, ints, b)
    ints[a, HELD_BY], ints[b, HELD_BY] = 0, 0
    before = (body[a, VEL_X], body[a, VEL_Y], body[b, VEL_X], body[b, VEL_Y])
    for row in (a, b):
        elapsed = time - body[row, START]
        body[row, ORIGIN_X] = body[row, ORIGIN_X] + body[row, MOTION_X] * elapsed
        body[row, ORIGIN_Y] = body[row, ORIGIN_Y] + body[row, MOTION_Y] * elapsed
        body[row, START] = time
    axis, sign = _dominant(nx, ny)
    held_a = bool(ints[a, FLAGS] & STATIC) or bool(ints[a, PINNED] & _bit(axis, -sign))
    held_b = bool(ints[b, FLAGS] & STATIC) or bool(ints[b, PINNED] & _bit(axis, sign))
    anvil = _squeezed(body, ints, grid, links, status, a, b, time, nx, ny, held_a, held_b, size, marks, out)
    if anvil >= 0:
        _crush(body, ints, grid, links, status, queue, events, ties, a, b, anvil, nx, ny, time, size, marks, out)
        return
    # A row of boxes touching end to end, struck without bouncing: collided at once.
    if not (held_a or held_b or frozen_a or frozen_b) and _collide_row(
            body, ints, grid, links, status, queue, events, ties, contacts, index, filters, work, a, b, time, nx, ny,
            step, marks, out):
        return
    old_ax, old_ay, old_bx, old_by = body[a, MOTION_X], body[a, MOTION_Y], body[b, MOTION_X], body[b, MOTION_Y]
    lag_a, lag_b = _lags(body, ints, a, b, nx, ny, time, step)
    for row, (lagged, lag_x, lag_y) in ((a, lag_a), (b, lag_b)):
        if lagged:  # the velocity it hits with (see the module docstring)
            body[row, VEL_X], body[row, VEL_Y] = body[row, VEL_X] - lag_x, body[row, VEL_Y] - lag_y
            ints[row, FLAGS] |= TOUCHED
    # A frozen body keeps its place, but its momentum counts by its real mass.
    _settle(body, ints, status, contacts, index, a, b, nx, ny, held_a or frozen_a, held_b or frozen_b,
            approach * (1.0 - time), surface, time, _box_at(body, a, time), _box_at(body, b, time), step)
    if step[PULL_X] != 0.0 or step[PULL_Y] != 0.0:
        _support(body, ints, status, a, b, nx, ny, lag_a, lag_b, step)
    _against_statics(body, ints, status, a, b, nx, ny, time, (since_a, since_b), (held_before_a, held_before_b),
                     before, (old_ax, old_ay, old_bx, old_by), (frozen_a, frozen_b), step)
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
    for row, old_x, old_y in ((a, old_ax, old_ay), (b, old_bx, old_by)):
        if _retire(body, ints, status, row, old_x, old_y, max_subdivisions) and (
                swept or not _within(_remaining_bounds(body, ints, row), _filed(body, row))):
            _resweep(body, ints, grid, links, status, queue, events, ties, row, time, size, marks, out)


@_helper
def _resting_bodies(last: Any, step: Any, kept: Any, heights: Any) -> int:
    """The bodies the last step's contacts (``last``: rows a < b of this table, -1 for a body
    gone, their values as recorded, their time order; ``run_sweeps``) held up against
    gravity: the upper row of each contact whose normal is within 60° of up either way, but
    TRIGGERs', copied into ``kept`` in time order, each with its contact point's height along
    up in ``heights`` (px); returns how many (a body held up twice is listed twice)."""
    rows, values, order = last
    ux, uy = step[UP_X], step[UP_Y]
    m = 0
    for j in range(order.shape[0]):
        k = order[j]
        up = 0.0 + values[k, 0] * ux + values[k, 1] * uy  # (the normal goes from a to b: b is above a if > 0)
        if values[k, 7] != 0.0 or not abs(up) > 0.5 or rows[k, 0] < 0 or rows[k, 1] < 0:
            continue
        kept[m] = rows[k, 1] if up > 0.0 else rows[k, 0]
        heights[m] = 0.0 + values[k, 5] * ux + values[k, 6] * uy
        m += 1
    return m


@_helper
def _first_support(body: Any, ints: Any, links: Any, ties: Any, row: int) -> tuple[int, float, float, float]:
    """The impact at the step's very start of ``row`` with a partner held there (a STATIC, or
    pinned against one) that the queue would take first (larger surface, then rows): (the
    partner, normal x and y from the lower row to the higher, surface), or (-1, 0, 0, 0)."""
    best, best_x, best_y, best_surface = -1, 0.0, 0.0, 0.0
    ends, entries = links
    entry = ends[row, 0]
    while entry >= 0:
        other = entries[entry, 0]
        entry = entries[entry, 1]
        flags = ints[other, FLAGS]
        if not (flags & STATIC or ints[other, PINNED]) or (flags | ints[row, FLAGS]) & TRIGGER:
            continue  # (held no way; a TRIGGER holds nothing up, and the sweeps report it)
        a, b = (row, other) if row < other else (other, row)
        found, time, nx, ny, surface = _first_impact(body, ints, ties, a, b, 0.0, _box_at(body, a, 0.0),
                                                     _box_at(body, b, 0.0))
        if not found or time != 0.0:
            continue
        held_a, held_b = _holds(ints, a, b, nx, ny)
        if not (held_a if other == a else held_b):
            continue
        if best < 0 or surface > best_surface or (surface == best_surface and other < best):
            best, best_x, best_y, best_surface = other, nx, ny, surface
    return best, best_x, best_y, best_surface


@_helper
def _settle_resting(body: Any, ints: Any, grid: Any, links: Any, status: Any, queue: Any, events: Any, ties: Any,
                    contacts: Any, index: Any, filters: Any, work: Any, resting: Any, ranked: Any, step: Any,
                    marks: Any, out: Any) -> None:
    """Resolve, before anything is swept, the impacts a pile's bodies take at the step's very
    start on what holds them up: for each body of ``resting`` (the last step's contacts held it
    up, ``_resting_bodies``), in the order of ``ranked`` (lowest first), its impact then with a
    partner held there (a STATIC, or pinned against one), the one the queue would take first
    (``_first_support``), resolved as the sweep would at that instant (``_impact``); any
    other it still strikes then is the sweeps' (a box in a corner, driven into the wall too).
    Under gravity every body of a pile strikes what it rests on at the start of every step,
    and each such impact would have it swept again through the rest of the step; resolved
    first, bottom up, its new path is swept once, with every other. (Box2D too starts a step
    from the last one's contacts, to warm-start its solver.) Only the
    body's own path changes, and only shrinks; one that still leaves the box it was filed under
    is swept again at once (``_resweep`` files it wider)."""
    for j in range(ranked.shape[0]):
        row = resting[ranked[j]]
        if not ints[row, FLAGS] & MOVED or ints[row, VERSION]:
            continue  # (still, or its path changed already: listed twice, or struck by one below)
        other, nx, ny, surface = _first_support(body, ints, links, ties, row)
        if other < 0:
            continue
        a, b = (row, other) if row < other else (other, row)
        _impact(body, ints, grid, links, status, queue, events, ties, contacts, index, filters, work, a, b, 0.0, nx, ny,
                surface, step, marks, out, False)


# -- level geometry filed once (Box2D keeps its static bodies in a tree of their own) -----

#: A kept filing's ``counts``: the level key its grid holds the filing of (-1: none), the run's
#: counters once level geometry is filed (OCCUPIED, ENTRIES, LARGES, MOVING_STATICS), the
#: grid's entries when the last run ended, and the contacts in the buffers' hash table of
#: contacts by pair when the last step ended (-1: not known; the caller's to set, once the
#: step's kernels are done).
KEPT_KEY, KEPT_COUNTERS, KEPT_END, KEPT_CONTACTS = 0, 1, 5, 6
_KEPT_COUNTS = KEPT_CONTACTS + 1


def kept_filing(buffers: tuple[Any, ...]) -> Any:
    """The ``counts`` that keep level geometry's filing in the grid of ``buffers``
    (``make_buffers``) from run to run. Only runs given these counts may file in that grid."""
    return np.full(_KEPT_COUNTS, -1, np.int64)


def filing_each_run(rows: int) -> tuple[Any, ...]:
    """A ``run_sweeps`` filing that keeps nothing: every one of ``rows`` rows filed each run."""
    return np.arange(rows, dtype=np.int64), np.zeros(0, np.int64), -1, kept_filing(())


@_helper
def _file_rows(body: Any, ints: Any, grid: Any, status: Any, rows: Any, size: float) -> None:
    """File ``rows`` in the grid, in order, and tell whether a STATIC among them moves."""
    for row in rows:
        _file(grid, ints, status, row, _filed(body, row), size)
        if ints[row, FLAGS] & STATIC and (body[row, MOTION_X] != 0.0 or body[row, MOTION_Y] != 0.0):
            status[MOVING_STATICS] = 1  # (no sweep changes a STATIC's motion)


@_helper
def _unfile_movers(grid: Any, counts: Any) -> None:
    """Take out of the grid the entries filed after level geometry's by the last run, last
    first: each holds its cell's slot and the head its list had before it, so the cells end
    as level geometry left them, and a cell only the movers used is empty again."""
    cells, entries = grid[0], grid[1]
    for entry in range(counts[KEPT_END] - 1, counts[KEPT_COUNTERS + 1] - 1, -1):
        head = entries[entry, 1]
        cells[entries[entry, 2], 2] = head if head >= 0 else EMPTY


@_helper
def _start_grid(body: Any, ints: Any, grid: Any, status: Any, filing: Any, size: float) -> None:
    """The run's grid: level geometry's rows (``filing``'s second) as the last run given the
    same key (its third, >= 0) and counts (its fourth) left them, the other rows' entries
    taken out, or filed now; then the other rows (its first). Rows are filed in that order
    each run, so a kept filing gives the grid the filing anew would, and costs a run the
    movers' entries, not a copy of the grid."""
    movers, level, key, counts = filing
    if key >= 0 and counts[KEPT_KEY] == key:
        _unfile_movers(grid, counts)
        status[OCCUPIED], status[ENTRIES] = counts[KEPT_COUNTERS], counts[KEPT_COUNTERS + 1]
        status[LARGES], status[MOVING_STATICS] = counts[KEPT_COUNTERS + 2], counts[KEPT_COUNTERS + 3]
    else:
        grid[0][:, 2] = EMPTY
        for row in level:  # filed nowhere yet (a kept row's span may be an earlier filing's)
            ints[row, SPAN_X0], ints[row, SPAN_Y0], ints[row, SPAN_X1], ints[row, SPAN_Y1] = 1, 1, 0, 0
            ints[row, LARGE] = 0
        _file_rows(body, ints, grid, status, level, size)
        counts[KEPT_KEY] = key if not status[OVERFLOW] else -1
        counts[KEPT_COUNTERS], counts[KEPT_COUNTERS + 1] = status[OCCUPIED], status[ENTRIES]
        counts[KEPT_COUNTERS + 2], counts[KEPT_COUNTERS + 3] = status[LARGES], status[MOVING_STATICS]
    _file_rows(body, ints, grid, status, movers, size)


@_helper
def _clear_index(index: Any, contacts: Any, counts: Any) -> None:
    """Empty the hash table of contacts by pair: the last step's keys, in the contacts they
    made, taken out (``_take_out``), or every slot when their count isn't known."""
    if counts[KEPT_CONTACTS] < 0:
        index[:, 2] = EMPTY
    _take_out(index, contacts[1], counts[KEPT_CONTACTS], counts)
    counts[KEPT_CONTACTS] = -1  # (until the caller says the step ended)


@_helper
def _end_grid(status: Any, filing: Any) -> None:
    """Note where the run left the grid for the next ``_start_grid``; after an overflow (a
    cell made without its entry, perhaps) nothing is kept."""
    counts = filing[3]
    counts[KEPT_END] = status[ENTRIES]
    if status[OVERFLOW]:
        counts[KEPT_KEY] = -1


def make_buffers(capacity: int, slots: int, rows: int) -> tuple[Any, ...]:
    """Work buffers for ``run_sweeps`` and ``push.push_out``, made once and kept from step to step:
    ``capacity`` records, filings, links, contacts and events each, hash
    tables of ``slots`` slots (a power of two), ``rows`` table rows at most.

    Box2D v3 keeps its step's scratch memory the same way (its arena
    allocator): arrays made afresh each step are fresh pages to the system,
    and each 4 KiB page first touched costs a page fault (over a thousand a
    step at N=10,000, measured, in the old kernel's own allocations).
    """

    def int_array(*shape: int) -> np.ndarray:
        return np.empty(shape, np.int64)

    grid = (int_array(slots, 3), int_array(capacity, 3), int_array(rows))
    links = (int_array(rows, 2), int_array(capacity, 2))
    queue = (np.empty((capacity, 4)), int_array(capacity, 4), np.empty((capacity, 2)), int_array(capacity))
    contacts = (np.empty((capacity, 8)), int_array(capacity, 2))
    events = (np.empty((capacity, 4)), int_array(capacity), int_array(capacity, 2))
    index = int_array(slots, 3)
    filters = (int_array(slots, 3), int_array(capacity, 2))
    # (run_sweeps and push.push_out set them up)
    return (grid, links, queue, contacts, events, index, int_array(rows), int_array(rows), filters, row_buffers(rows),
            push_buffers(capacity, slots, rows))


def buffer_sizes(buffers: tuple[Any, ...]) -> tuple[int, int, int]:
    """(capacity, slots, rows) of ``make_buffers``' buffers."""
    grid, marks = buffers[0], buffers[6]
    return int(grid[1].shape[0]), int(grid[0].shape[0]), int(marks.shape[0])


def buffers_for(buffers: tuple[Any, ...] | None, pairs: int, rows: int, overflow: int = 0) -> tuple[Any, ...]:
    """Buffers for a run over ``rows`` table rows and ``pairs`` pairs:
    ``buffers`` if they suffice, else larger ones. ``overflow``: the last
    run's ``status[OVERFLOW]``, whose buffers (FULL_TABLE: hash tables)
    are then doubled.

    The records hold two per pair, and the grid's entries one per cell a row is filed under:
    every row is filed, under two cells where it straddles a cell's edge (a tile of the
    cell's width does, touching both). An overflow costs the run done so far and, with new
    buffers, level geometry's filing, so they start that big rather than grow to it, and
    grow by half again what they need, as the pairs of a crowd coming to rest grow step by
    step."""
    sizes = buffer_sizes(buffers) if buffers is not None else (0, 0, 0)
    capacity, slots, have = sizes
    if overflow:
        slots, capacity = (2 * slots, capacity) if overflow == FULL_TABLE else (slots, 2 * capacity)
    least = 2 * (pairs + rows) + 64
    needed = (capacity if capacity >= least else max(least + least // 2, 2 * capacity),
              max(slots, 1 << (4 * rows + 64).bit_length()), max(have, rows))  # (slots: a power of two)
    return buffers if buffers is not None and needed == sizes else make_buffers(*needed)


@_kernel
def run_sweeps(body: Any, ints: Any, pairs: Any, verdicts: Any, ties: Any, step: Any, buffers: Any,
               filing: Any, last: Any) -> Any:
    """Sweep the step's candidate ``pairs`` (rows a < b) and resolve their
    impacts in time order, updating ``body`` and ``ints``.

    ``filing``: which rows the run's grid files, (movers, level, key, counts): level
    geometry's rows ``level`` are filed once for each ``key`` (>= 0; the caller changes it
    whenever level geometry or its rows change) and kept in the grid from run to run, told by
    ``counts`` (``kept_filing`` of these ``buffers``), the ``movers`` each run; every row must
    be in one of them (``filing_each_run``: all filed each run).

    ``last``: the last step's contacts, (rows a < b of this table, -1 for a body gone (m, 2),
    their values (m, 8) as recorded, their time order (m,)): the bodies they held up have their
    impacts at the step's start on what holds them resolved first, lowest first
    (``_settle_resting``; stably sorted, so ties keep their time order).

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
    grid, links, queue, contacts, events, index, marks, out, filters, work, _ = buffers
    rows = body.shape[0]
    status = np.zeros(COUNTERS, np.int64)
    status[FROZEN] = -1
    status[LAYERS] = step[LAYERED] != 0.0
    status[FILTERED_RUN] = step[FILTERED] != 0.0
    status[FACES_RUN] = step[ONE_WAY_FACES] != 0.0
    size = step[CELL_SIZE]
    # What a run reads before writing: the hash tables' slots and each row's mark (_link_pairs sets
    # every row's links); the grid's slots are set by _start_grid.
    _clear_index(index, contacts, filing[3])
    if status[FILTERED_RUN]:
        filters[0][:, 2] = EMPTY
    marks[:rows] = 0
    for k in range(verdicts.shape[0]):
        slot = _slot(filters[0], verdicts[k, 0], verdicts[k, 1], True, status, VERDICTS)
        if slot >= 0:
            filters[0][slot, 2] = verdicts[k, 2]
    _start_grid(body, ints, grid, status, filing, size)
    _link_pairs(links, status, pairs, rows)
    if step[SWEEPS] == 0.0:  # the discrete pipeline: the run's grid and partners, for push-out
        _end_grid(status, filing)
        return status, contacts, events, filters[1]
    resting, heights = np.empty(last[2].shape[0], np.int64), np.empty(last[2].shape[0])
    count = _resting_bodies(last, step, resting, heights)
    _settle_resting(body, ints, grid, links, status, queue, events, ties, contacts, index, filters, work, resting,
                    np.argsort(heights[:count], kind="mergesort"), step, marks, out)
    for k in range(pairs.shape[0]):
        a, b = pairs[k, 0], pairs[k, 1]
        if (ints[a, FLAGS] | ints[b, FLAGS]) & MOVED:
            _schedule(body, ints, status, queue, ties, a, b, 0.0, _box_at(body, a, 0.0), _box_at(body, b, 0.0))
    records, keys = queue[0], queue[1]
    while status[HEAP] and not status[OVERFLOW]:
        k = _pop(queue, status)
        a, b = keys[k, 0], keys[k, 1]
        if ints[a, VERSION] == keys[k, 2] and ints[b, VERSION] == keys[k, 3]:
            _impact(body, ints, grid, links, status, queue, events, ties, contacts, index, filters, work, a, b,
                    records[k, 0], records[k, 2], records[k, 3], -records[k, 1], step, marks, out, True)
    for row in filing[0]:  # where the sweeps leave each row whose path they changed (level geometry's never)
        if ints[row, VERSION]:
            rest = 1.0 - body[row, START]
            body[row, POS_X] = body[row, ORIGIN_X] + body[row, MOTION_X] * rest
            body[row, POS_Y] = body[row, ORIGIN_Y] + body[row, MOTION_Y] * rest
    _end_grid(status, filing)
    return status, contacts, events, filters[1]
