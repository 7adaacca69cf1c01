"""One contact, for every stage of the core: who may collide, momentum, pins and supports.

The sweep, push-out, piles and ground snapping all settle their contacts here (``_settle``):
momentum exchanged along the normal with Coulomb friction along the tangent, the contact
recorded, and shock propagation, keyed by direction bits (an axis and a sign; the contact
normal's dominant axis, y at 45°):

- PINNED: directions a body may no longer be *pushed* this step, because it was pushed off
  something that holds still that way (a STATIC, or a body itself pinned). A box pushed out
  of the floor is not pushed back into it by the box landing on it, so stacks don't sink.
  PINNER keeps who pinned it, each way: the chain leads to the STATIC that holds it (``_driver``),
  and only STATICs squeeze (the sweep's and push-out's crushing).
- SUPPORTED: directions in which a body came to *rest* against such a support, with its
  velocity that way at that moment (SUPPORT). Along the normal of a later contact it counts
  as an infinite mass on that axis only (a box at rest on the floor stops the box landing on
  it), and only while it is not moving away from the support faster than it was then:
  otherwise it would act as a wall moving at its own speed and pump energy into whatever it
  meets. Friction always sees the real masses.

The collision filters, Python callbacks, are asked outside the run: see ``_allows``.
"""

from __future__ import annotations

import math
from typing import Any

from .jit import helper as _helper
from .table import (
    CONTACTS, ELASTICITY, ENTITY, FACES_RUN, FILTERED_RUN, FLAGS, FRAME_X, FRAME_Y, FRICTION, GRAVITY_SCALE, INV_MASS,
    MOVED, ONE_WAY_TOLERANCE, OVERFLOW, PHYSICS, PINNED, PINNER, PINNER_OFF, RESTING_SPEED, REST_SPEED, RIDE, RIDES,
    RIDE_ORDER, RIDE_X, RIDE_Y, SHAPE, SIDES, STATIC, SUPPORT, SUPPORTED, SUPPORTS, TOUCHED, TRIGGER, UNASKED, UP_X,
    UP_Y, VEL_X, VEL_Y, VERDICTS, _box_at, _max, _min, _now,
)
from .shapes import contact_point, overlap
from .cells import _slot

__all__ = []


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
    """Whether rows a and b may collide through a contact along (nx, ny)
    (a->b): each one's face toward the other stops bodies, a one-way face
    only a body that lay outside it (within ONE_WAY_TOLERANCE) when the
    step began, and the collision filters let them (``_allows``)."""
    for row, other, tx, ty in ((a, b, nx, ny), (b, a, -nx, -ny)):
        if not status[FACES_RUN]:  # (no SIDES to read)
            break
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
    """The filters' verdict on rows a and b, in that order (as ``Resolution.allows`` gave it
    before the run), logging the pair if they were not asked about it."""
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


# -- one contact ----------------------------------------------------------------------------

@_helper
def _bit(axis: int, sign: float) -> int:
    """The direction bit of ``axis`` (0 x, 1 y) toward ``sign`` (+1 or -1)."""
    return 1 << (axis * 2 + (1 if sign > 0 else 0))


@_helper
def _driver(ints: Any, row: int, index: int) -> int:
    """The STATIC that holds ``row`` still toward direction ``index`` (``_bit``'s exponent):
    the row itself if STATIC, else the end of its chain of pinners that way (the body that
    pinned it, the one that pinned that one...); -1 when the chain ends at a body not pinned
    that way, or loops (pins set at different moments of a step may point at each other).
    Only a STATIC can squeeze: a body pinned against one holds still but drives nothing."""
    for _ in range(ints.shape[0]):
        if ints[row, FLAGS] & STATIC:
            return row
        if not ints[row, PINNED] & (1 << index) or ints[row, PINNER + index] < 0:
            return -1
        row = ints[row, PINNER + index]
    return -1


@_helper
def _dominant(nx: float, ny: float) -> tuple[int, float]:
    """The normal's dominant axis (y at 45°) and its sign there."""
    axis = 0 if abs(nx) > abs(ny) else 1
    along = nx if axis == 0 else ny
    return axis, 1.0 if along > 0 else -1.0


@_helper
def _velocity(body: Any, ints: Any, row: int) -> tuple[float, float]:
    """The row's velocity in the world frame (px/s): a rider's own plus its
    platform's frame; zero without Physics."""
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
    of up, (ux, uy)) only along the normal. A platform carries what stands
    on it by position (``systems.physics._solver.riders``), so friction must
    not drag the rider along as well."""
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
    """One axis of ``_held_axes``."""
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
    """Per axis (x, y), whether the row counts as an infinite mass when a
    contact pushes it along (push_x, push_y): a STATIC always; otherwise
    where it rests against a support that way (SUPPORTED) and is not
    leaving it faster than it was then."""
    if ints[row, FLAGS] & STATIC:
        return True, True
    if not status[SUPPORTS]:
        return False, False
    vx, vy = _velocity(body, ints, row)
    return _held_axis(body, ints, row, push_x, 0, vx), _held_axis(body, ints, row, push_y, 1, vy)


@_helper
def _material(body: Any, ints: Any, a: int, b: int) -> tuple[float, float]:
    """Elasticity and friction of rows a and b: the larger elasticity and
    the smaller friction (the fizz collision tutorial's rule); a row without
    Physics brings no material, so the other's values stand (a crate keeps
    its friction on a bare floor); (0, 0) if neither has Physics."""
    physics_a, physics_b = ints[a, FLAGS] & PHYSICS, ints[b, FLAGS] & PHYSICS
    if physics_a and physics_b:
        return _max(body[a, ELASTICITY], body[b, ELASTICITY]), _min(body[a, FRICTION], body[b, FRICTION])
    if physics_a or physics_b:
        only = a if physics_a else b
        return body[only, ELASTICITY], body[only, FRICTION]
    return 0.0, 0.0


@_helper
def _pull(body: Any, ints: Any, row: int) -> float:
    """How hard gravity pulls the row, as a share of the world's: its gravity scale's size, or
    0 for a body gravity does not move (without Physics or mass, or STATIC)."""
    if not ints[row, FLAGS] & PHYSICS or ints[row, FLAGS] & STATIC or body[row, INV_MASS] == 0.0:
        return 0.0
    return float(abs(body[row, GRAVITY_SCALE]))


@_helper
def _rest_speed(body: Any, ints: Any, a: int, b: int, step: Any) -> float:
    """The pair's rest speed (px/s): contacts approaching at it or slower are resting and don't
    bounce. The step's (2·|gravity|·dt) times the larger pull of the two (``_pull``): what it
    absorbs is the speed gravity gives a body each step, so a pair gravity moves neither of (a
    ball with gravity scale 0 meeting a wall) bounces however slowly it meets."""
    return float(step[REST_SPEED] * _max(_pull(body, ints, a), _pull(body, ints, b)))


# Impulse form of the momentum exchange in Luke Godfrey, *Rectangle Collisions*, with Coulomb's
# law for friction (the fizz collision tutorial names it as the missing piece). Along the normal
# vA' = (e·mB·(vB − vA) + mA·vA + mB·vB) / (mA + mB), and symmetrically for b; an inverse mass of
# 0 is an infinite mass (a STATIC), giving vA' = vB − e·(vA − vB). On a held axis (``_held_axes``)
# a body counts as an infinite mass, so the support takes that part of the impulse. Bodies moving
# apart, or two infinite masses, exchange nothing. A pair approaching at its rest speed or slower
# (``_rest_speed``) is a resting contact and does not bounce (Box2D's restitution threshold):
# otherwise a stack of bouncy boxes trades ever smaller bounces each step instead of resting.
# Friction acts along the tangent with the bodies' real masses: its impulse is at most friction
# times the normal one, and it never does more than stop the sliding left after the normal impulse.
@_helper
def _exchange(body: Any, ints: Any, a: int, b: int, nx: float, ny: float, held_a: Any, held_b: Any,
              step: Any) -> None:
    physics_a, physics_b = ints[a, FLAGS] & PHYSICS, ints[b, FLAGS] & PHYSICS
    if not physics_a and not physics_b:
        return
    rest_speed = _rest_speed(body, ints, a, b, step)
    vax, vay, vbx, vby = _contact_velocities(body, ints, a, b, nx, ny, step[UP_X], step[UP_Y])
    elasticity, friction = _material(body, ints, a, b)
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
        if nx != 0.0 and ny != 0.0 and (wax != way or wbx != wby):
            # Held on one axis only, a body takes the normal impulse off the normal, which
            # changes the sliding too: friction must oppose the sliding the impulse leaves, or
            # it can push the way things slide and add energy (a ball landing on one at rest).
            after_x, after_y = rx + cax - cbx, ry + cay - cby
            after = 0.0 + after_x * nx + after_y * ny
            sx, sy = after_x - nx * after, after_y - ny * after
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


@_helper
def _overlap_now(body: Any, ints: Any, ties: Any, a: int, b: int,
                 tied: bool) -> tuple[bool, float, float, float, float, float]:
    """How row a penetrates row b now (shapes.overlap), with the pair's tie direction or,
    unless ``tied``, the default one (0, 1)."""
    tie_x, tie_y = 0.0, 1.0
    if tied:
        tie = ties[(ints[a, ENTITY] * 40503 + ints[b, ENTITY] * 9973) % 256]
        tie_x, tie_y = tie[0], tie[1]
    return overlap(_now(body, a), ints[a, SHAPE], _box_at(body, a, 0.0), _now(body, b), ints[b, SHAPE],
                   _box_at(body, b, 0.0), tie_x, tie_y)


@_helper
def _push_share(body: Any, ints: Any, a: int, b: int, held_a: bool, held_b: bool) -> float:
    """Fraction (0..1) of a push that moves a; the rest moves b. A held body (STATIC or
    pinned) never moves; otherwise the body that moved this step takes the whole push (a body
    at rest is not displaced in the step it is hit); when both or neither moved, inverse mass
    decides."""
    if held_a != held_b:
        return 0.0 if held_a else 1.0
    if held_a:  # both hold: move whichever is not STATIC (push_apart crushes instead)
        return 0.0 if ints[a, FLAGS] & STATIC else 1.0
    moved_a, moved_b = bool(ints[a, FLAGS] & MOVED), bool(ints[b, FLAGS] & MOVED)
    if moved_a != moved_b:
        return 1.0 if moved_a else 0.0
    total = body[a, INV_MASS] + body[b, INV_MASS]
    return 0.5 if total == 0.0 else body[a, INV_MASS] / total


@_helper
def _record(contacts: Any, index: Any, status: Any, a: int, b: int, nx: float, ny: float, depth: float,
            time: float, surface: float, box_a: Any, shape_a: int, box_b: Any, shape_b: int, trigger: bool) -> None:
    """One contact per pair and step, the first's normal, time, surface and
    point, depths added up; ``index``: the contacts by
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
    values[k, 5], values[k, 6] = contact_point(box_a, shape_a, box_b, shape_b, nx, ny)
    values[k, 7] = 1.0 if trigger else 0.0


@_helper
def _settle(body: Any, ints: Any, status: Any, contacts: Any, index: Any, a: int, b: int, nx: float, ny: float,
            pinned_a: bool, pinned_b: bool, depth: float, surface: float, time: float, box_a: Any, box_b: Any,
            step: Any) -> None:
    """Exchange momentum, record the contact (at step fraction ``time``, the
    rows' boxes then ``box_a`` and ``box_b``), pin whoever was pushed off a
    body that holds still, and support or carry whoever came to rest."""
    held_a = _held_axes(body, ints, status, a, -nx, -ny)
    held_b = _held_axes(body, ints, status, b, nx, ny)
    _exchange(body, ints, a, b, nx, ny, held_a, held_b, step)
    _record(contacts, index, status, a, b, nx, ny, depth, time, surface, box_a, ints[a, SHAPE], box_b,
            ints[b, SHAPE], False)
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
            # The speed along the normal, over the normal's part along the axis: on a slope, a
            # body sliding along the surface moves along the axis too, and would otherwise
            # count as held while it slides away from the support.
            body[row, SUPPORT + axis * 2 + (1 if toward > 0 else 0)] = (0.0 + vx * nx + vy * ny) / (
                nx if axis == 0 else ny) * toward
            status[SUPPORTS] += 1


@_helper
def _note_rider(body: Any, ints: Any, status: Any, a: int, b: int, nx: float, ny: float, ux: float,
                uy: float) -> None:
    """Remember what a body is left resting on top of (the normal from it to the body within
    60° of up, (ux, uy)): its first STATIC this step, else the first body (a crate on a crate
    on a lift; ``outcome`` follows such a body's own ride down to its STATIC). Movement carries
    it next step (``systems.physics._solver.riders``)."""
    for platform, rider, sign in ((a, b, 1.0), (b, a, -1.0)):
        upx, upy = nx * sign, ny * sign
        if (not 0.0 + upx * ux + upy * uy > 0.5 or ints[rider, FLAGS] & (STATIC | TRIGGER)
                or ints[platform, FLAGS] & TRIGGER):
            continue
        noted = ints[rider, RIDE]
        if noted >= 0 and (ints[noted, FLAGS] & STATIC or not ints[platform, FLAGS] & STATIC):
            continue
        if noted < 0:
            ints[rider, RIDE_ORDER] = status[RIDES]
            status[RIDES] += 1
        ints[rider, RIDE] = platform
        body[rider, RIDE_X], body[rider, RIDE_Y] = upx, upy
