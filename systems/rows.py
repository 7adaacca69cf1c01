"""Rows: boxes touching end to end, struck at one instant, resolved at once.

A player pushing a row of crates closes on the first; taken pair by pair,
each e = 0 impact slows one crate and speeds the next, so the row trades
impacts whose size shrinks only geometrically (about 300 a step for ten
crates). The limit of those impacts is the perfectly inelastic collision of
the whole row, which ``systems.impulse.pool_adjacent`` gives in one pass. A
row here is free: boxes with Physics, nothing in it STATIC, held, frozen,
riding a platform or bouncy, and none of its ends touching anything that
would take part; anything else is left to the pairwise impacts.
"""

from __future__ import annotations

from collections.abc import Callable

from pygame import Vector2

from components import Shape
from systems.collision import Body, CollisionSystem
from systems.geometry import TOUCH_EPSILON, Box
from systems.impulse import pool_adjacent
from systems.resolution import Resolution, material

__all__ = ["ROW_LIMIT", "find_row", "settle_row"]

#: Bodies a row may hold; a longer one is left to the pairwise impacts.
ROW_LIMIT = 64

BoxAt = Callable[[Body], Box]


def find_row(a: Body, b: Body, normal: Vector2, box_at: BoxAt, collision: CollisionSystem,
             state: Resolution, gap: float) -> list[Body] | None:
    """The free row through a and b (a -> b along the axis ``normal``), in
    order along ``normal``, when it holds more than the pair; else None.
    ``box_at`` gives a body's box (px) at the impact; bodies whose faces are
    within ``gap`` px touch."""
    if _bouncy(a, b) or not (_free(a, normal, state) and _free(b, normal, state)):
        return None
    row = [a, b]
    for sign in (1.0, -1.0):
        while len(row) < ROW_LIMIT:
            end = row[-1] if sign > 0 else row[0]
            open_end, after = _next(end, normal * sign, box_at, collision, state, gap)
            if not open_end or after in row:
                return None
            if after is None:
                break
            if sign > 0:
                row.append(after)
            else:
                row.insert(0, after)
    return row if 2 < len(row) < ROW_LIMIT else None


def _next(body: Body, toward: Vector2, box_at: BoxAt, collision: CollisionSystem, state: Resolution,
          gap: float) -> tuple[bool, Body | None]:
    """The one body touching ``body``'s face toward ``toward``, which joins
    the row (True, it), or (True, None) when nothing touches that face, or
    (False, None) when what touches it cannot take part (a STATIC, a held
    body, two bodies, a bouncy pair): then there is no free row."""
    axis, other = (0, 1) if toward.x else (1, 0)
    box = box_at(body)
    face = box[axis] + box[axis + 2] if toward[axis] > 0 else box[axis]
    found: list[Body] = []
    for entity in collision.candidates(body, box):
        neighbour = collision.bodies[entity]
        if neighbour.trigger or neighbour is body:
            continue
        near = box_at(neighbour)
        facing = near[axis] if toward[axis] > 0 else near[axis] + near[axis + 2]
        side = min(box[other] + box[other + 2], near[other] + near[other + 2]) - max(box[other], near[other])
        if abs(facing - face) <= gap and side > TOUCH_EPSILON:
            pair = (body, neighbour) if toward[axis] > 0 else (neighbour, body)
            if state.permits(pair[0], pair[1], toward if toward[axis] > 0 else -toward):
                found.append(neighbour)
    if not found:
        return True, None
    if len(found) > 1 or not _free(found[0], toward, state) or _bouncy(body, found[0]):
        return False, None
    return True, found[0]


def _free(body: Body, normal: Vector2, state: Resolution) -> bool:
    """Whether a body can be part of a row along ``normal``: a box with
    Physics and a mass, not STATIC, not a rider this step, not held either
    way along the axis."""
    return (body.physics is not None and body.inverse_mass > 0.0 and body.shape is Shape.BOX
            and not (body.carry or body.frame) and not state.held_on_axis(body, 0 if normal.x else 1))


def _bouncy(a: Body, b: Body) -> bool:
    """Whether the pair bounces (elasticity above 0): rows are inelastic."""
    return material(a.physics, b.physics)[0] > 0.0


def settle_row(row: list[Body], normal: Vector2, box_at: BoxAt, state: Resolution, time: float) -> None:
    """Collide the row (in order along ``normal``) perfectly inelastically:
    speeds along the axis from ``pool_adjacent``, then Coulomb friction at
    each contact, capped by the momentum it passed on; each contact is
    recorded at step fraction ``time``."""
    axis, other = (0, 1) if normal.x else (1, 0)
    ordered = row if normal[axis] > 0 else row[::-1]  # along +axis
    masses = [1.0 / body.inverse_mass for body in ordered]
    speeds = [body.physics.velocity[axis] for body in ordered if body.physics is not None]
    pooled = pool_adjacent(masses, speeds)
    passed = 0.0
    for index, (body, speed) in enumerate(zip(ordered, pooled)):
        passed += masses[index] * (speeds[index] - speed)  # momentum handed to the next body
        assert body.physics is not None
        body.physics.velocity[axis] = speed
        if index + 1 < len(ordered):
            _rub(body, ordered[index + 1], other, passed)
    for first, second in zip(ordered, ordered[1:]):
        low, high = (first, second) if first.entity < second.entity else (second, first)
        box_low, box_high = box_at(low), box_at(high)
        side = (min(box_low[other] + box_low[other + 2], box_high[other] + box_high[other + 2])
                - max(box_low[other], box_high[other]))
        along = Vector2()
        along[axis] = 1.0 if high is second else -1.0
        state.record(low.entity, high.entity, along, 0.0, False,
                     (box_low, low.shape, box_high, high.shape), time, max(side, 0.0))


def _rub(a: Body, b: Body, other: int, impulse: float) -> None:
    """Coulomb friction between neighbours a and b along axis ``other``: at
    most the pair's friction times the normal ``impulse`` (px/s·mass), never
    more than stops their sliding."""
    if a.physics is None or b.physics is None:
        return
    friction = material(a.physics, b.physics)[1]
    sliding = a.physics.velocity[other] - b.physics.velocity[other]
    total = a.inverse_mass + b.inverse_mass
    if friction <= 0.0 or impulse <= 0.0 or sliding == 0.0:
        return
    change = min(friction * impulse, abs(sliding) / total) * (1.0 if sliding > 0 else -1.0)
    a.physics.velocity[other] -= change * a.inverse_mass
    b.physics.velocity[other] += change * b.inverse_mass
