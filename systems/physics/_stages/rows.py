"""Rows: boxes touching end to end, struck at one instant, resolved at once.

A player pushing a row of crates closes on the first; taken pair by pair,
each e = 0 impact slows one crate and speeds the next, so the row trades
impacts whose size shrinks only geometrically (about 300 a step for ten
crates, past the bound on impacts a body may take in a step). Their limit
is the perfectly inelastic collision of the whole row, which
``systems.physics._solver.impulse.pool_adjacent`` gives in one pass. A pair alone is left
to the pairwise impact, which is already exact for it.

A row's members are boxes with Physics, not frozen at the impact bound, not
riding a platform, not pinned or supported on the row's axis, one touching
each face of the next. What touches an end may instead be a *stop*: a STATIC
box, or a box held still that way (see ``Resolution.held_axes``), an
infinite mass that whatever closes on it stops against, as a wall does. Any
other neighbour (two at one face, a frozen or bouncy one, another shape)
rules the row out, and so do stops at both ends (a squeeze is for crushing).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from pygame import Vector2

from components import Shape
from systems.physics._bodies.body import Body
from systems.physics._stages.found import Found
from systems.physics._shapes.geometry import TOUCH_EPSILON, Box, axis_overlap, directional_gap
from systems.physics._solver.impulse import pool_adjacent
from systems.physics._solver.resolution import Resolution, material

__all__ = ["ROW_LIMIT", "Row", "find_row", "settle_row"]

#: Most bodies a row may hold; a longer one is left to the pairwise impacts.
ROW_LIMIT = 4096

BoxAt = Callable[[Body], Box]
Frozen = Callable[[Body], bool]


class Row(NamedTuple):
    """Boxes touching end to end, in order along the impact's normal, and
    the stops (or None) behind and ahead of them."""

    bodies: list[Body]
    behind: Body | None
    ahead: Body | None


# What touches a face of a row's end: nothing, a box that joins the row, a
# stop, or something that rules the row out.
_OPEN, _JOIN, _STOP, _BLOCKED = range(4)


def find_row(a: Body, b: Body, normal: Vector2, box_at: BoxAt, frozen: Frozen, collision: Found,
             state: Resolution, gap: float) -> Row | None:
    """The row through a and b (a -> b along the axis ``normal``) when it
    holds more than the pair; else None. ``box_at`` gives a body's box (px)
    at the impact, ``frozen`` whether it reached the impact bound; faces
    within ``gap`` px touch."""
    if _bouncy(a, b) or not (_free(a, normal, frozen, state) and _free(b, normal, frozen, state)):
        return None
    row = [a, b]
    stops: list[Body | None] = [None, None]
    for sign, end in ((1.0, 1), (-1.0, 0)):
        while len(row) <= ROW_LIMIT:
            kind, after = _next(row[-1] if sign > 0 else row[0], normal * sign, box_at, frozen, collision,
                                state, gap)
            if kind == _BLOCKED or after in row:
                return None
            if kind == _STOP:
                stops[end] = after
            if kind != _JOIN:
                break
            assert after is not None  # _JOIN always names the box
            row.insert(len(row) if sign > 0 else 0, after)
    if (stops[0] and stops[1]) or not 2 < len(row) <= ROW_LIMIT:
        return None
    return Row(row, stops[0], stops[1])


def _next(body: Body, toward: Vector2, box_at: BoxAt, frozen: Frozen, collision: Found,
          state: Resolution, gap: float) -> tuple[int, Body | None]:
    """What touches ``body``'s face toward ``toward`` (see ``_OPEN``...)."""
    found = _touching(body, toward, box_at, collision, state, gap)
    if not found:
        return _OPEN, None
    neighbour = found[0]
    if len(found) > 1 or neighbour.shape is not Shape.BOX or _bouncy(body, neighbour) or frozen(neighbour):
        return _BLOCKED, None
    axis = 0 if toward.x else 1
    if neighbour.static or (neighbour.physics is not None and state.held_axes(neighbour, toward)[axis]):
        return _STOP, neighbour
    return (_JOIN, neighbour) if _free(neighbour, toward, frozen, state) else (_BLOCKED, None)


def _touching(body: Body, toward: Vector2, box_at: BoxAt, collision: Found, state: Resolution,
              gap: float) -> list[Body]:
    """The bodies whose faces lie within ``gap`` px of ``body``'s face toward
    ``toward`` and overlap it across, that it may collide with (TRIGGERs,
    filtered pairs and one-way faces from behind left out)."""
    axis = 0 if toward.x else 1
    sign = 1 if toward[axis] > 0 else -1
    x, y, w, h = box = box_at(body)
    found = []
    for entity in collision.candidates(body, (x - gap, y - gap, w + 2 * gap, h + 2 * gap)):
        neighbour = collision.bodies[entity]
        if neighbour.trigger or neighbour is body:
            continue
        near = box_at(neighbour)
        if abs(directional_gap(box, near, axis, sign)) <= gap and axis_overlap(box, near, 1 - axis) > TOUCH_EPSILON:
            first, second = (body, neighbour) if toward[axis] > 0 else (neighbour, body)
            if state.permits(first, second, toward if toward[axis] > 0 else -toward):
                found.append(neighbour)
    return found


def _free(body: Body, normal: Vector2, frozen: Frozen, state: Resolution) -> bool:
    """Whether a body can be a member of a row along ``normal``: a box with
    Physics and a mass, not frozen, not a rider this step, not pinned or
    supported either way along the axis."""
    return (body.physics is not None and body.inverse_mass > 0.0 and body.shape is Shape.BOX
            and not frozen(body) and not (body.carry or body.frame)
            and not state.held_on_axis(body, 0 if normal.x else 1))


def _bouncy(a: Body, b: Body) -> bool:
    """Whether the pair bounces (elasticity above 0): rows are inelastic."""
    return material(a.physics, b.physics)[0] > 0.0


def settle_row(row: Row, normal: Vector2, box_at: BoxAt, state: Resolution, time: float, dt: float) -> None:
    """Collide the row perfectly inelastically at step fraction ``time`` of
    a ``dt`` s step: speeds (px/s) along the axis from ``pool_adjacent``,
    then Coulomb friction at each contact capped by the momentum it passed
    on. Boxes brought to rest against a stop hold still against it for the
    rest of the step, as after a pairwise impact; each contact that passed
    momentum is recorded, with the depth (px) its closing would have
    reached by the end of the step."""
    axis, other = (0, 1) if normal.x else (1, 0)
    bodies = row.bodies if normal[axis] > 0 else row.bodies[::-1]  # along +axis
    low, high = (row.behind, row.ahead) if normal[axis] > 0 else (row.ahead, row.behind)
    chain = [body for body in (low, *bodies, high) if body is not None]
    before = [_speed(body, axis) for body in chain]
    start = 1 if low is not None else 0
    speeds = before[start:start + len(bodies)]  # the members'
    masses = [1.0 / body.inverse_mass for body in bodies]
    pooled = pool_adjacent(masses, speeds, None if low is None else before[0], None if high is None else before[-1])
    passed = _passed(masses, speeds, pooled, low is not None)
    for body, speed in zip(bodies, pooled):
        assert body.physics is not None  # rows hold bodies with Physics only
        body.physics.velocity[axis] = speed
    for index, impulse in zip(range(len(chain) - 1), passed):  # past a free end nothing is handed on
        first, second = chain[index], chain[index + 1]
        if impulse > 0.0:
            _rub(first, second, other, impulse)
            closing = max(before[index] - before[index + 1], 0.0) * dt * (1.0 - time)
            _record(first, second, axis, box_at, state, time, closing)
    for stop, toward in ((low, -1.0), (high, 1.0)):
        for body, speed in zip(bodies, pooled):
            if stop is not None and speed == _speed(stop, axis):
                state.hold_against(body, axis, toward)


def _passed(masses: list[float], before: list[float], after: list[float], from_behind: bool) -> list[float]:
    """Momentum (mass·px/s) handed on through each contact of the chain, in
    order along +axis: from a stop behind, what the row gained; then at
    each body, what it gave up."""
    gained = [m * (v - u) for m, u, v in zip(masses, before, after)]
    total = 0.0
    for change in gained:  # in order, as the compiled sweep adds them (Python 3.12's sum() compensates)
        total += change
    passed = [total] if from_behind else []
    carried = passed[0] if from_behind else 0.0
    for change in gained:
        carried -= change
        passed.append(carried)
    return passed


def _speed(body: Body, axis: int) -> float:
    """A body's speed (px/s) along ``axis``; 0 without Physics."""
    return body.physics.velocity[axis] if body.physics is not None else 0.0


def _record(first: Body, second: Body, axis: int, box_at: BoxAt, state: Resolution, time: float,
            depth: float) -> None:
    """Record the contact of neighbours ``first`` and ``second`` (in order
    along +``axis``), its normal from the lower entity id to the higher."""
    low, high = (first, second) if first.entity < second.entity else (second, first)
    box_low, box_high = box_at(low), box_at(high)
    along = Vector2()
    along[axis] = 1.0 if high is second else -1.0
    state.record(low.entity, high.entity, along, depth, False, (box_low, low.shape, box_high, high.shape),
                 time, max(axis_overlap(box_low, box_high, 1 - axis), 0.0))


def _rub(a: Body, b: Body, other: int, impulse: float) -> None:
    """Coulomb friction between neighbours a and b along axis ``other``: at
    most the pair's friction times the normal ``impulse`` (mass·px/s), never
    more than stops their sliding; a STATIC is an infinite mass."""
    friction = material(a.physics, b.physics)[1]
    sliding = _speed(a, other) - _speed(b, other)
    total = a.inverse_mass + b.inverse_mass
    if friction <= 0.0 or sliding == 0.0 or total == 0.0:
        return
    change = min(friction * impulse, abs(sliding) / total) * (1.0 if sliding > 0 else -1.0)
    for body, share in ((a, -change * a.inverse_mass), (b, change * b.inverse_mass)):
        if body.physics is not None and share:
            body.physics.velocity[other] += share
