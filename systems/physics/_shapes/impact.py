"""Time of impact for moving shapes: pure functions, no world state.

Each function moves shape a by ``motion`` (px, relative to b, over one unit
of time) and returns the first fraction t in [0, 1] at which the two start
to touch, with the contact normal from a to b; None when they don't meet,
move apart, or already overlap at t = 0 (push-out handles those). Shapes
that merely touch at t = 0 and approach hit at t = 0, which is how resting
contacts show up. Boxes are ``(left, top, width, height)``; circles are a
centre and a radius, in px.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from pygame import Vector2

from systems.physics._shapes.geometry import TOUCH_EPSILON, Box

__all__ = ["Hit", "Motion", "sweep_boxes", "sweep_circles", "sweep_circle_box"]

#: A displacement (px): boxes take a plain pair of floats too, which is
#: cheaper to make than a Vector2 for the many sweeps of a step.
Motion = Vector2 | tuple[float, float]


class Hit(NamedTuple):
    """When and how two moving shapes first touch.

    ``time`` in [0, 1] is the fraction of the motion; ``normal`` a unit
    Vector2 from a to b; ``surface`` (px) the length of the touching faces,
    0 for a round contact.
    """

    time: float
    normal: Vector2
    surface: float


def _slab(low: float, length: float, other_low: float, other_length: float,
          move: float) -> tuple[float, float] | None:
    """Entry and exit times of one moving interval through another, or None
    if it never overlaps it along this axis (touching does not count)."""
    high, other_high = low + length, other_low + other_length
    if move > 0.0:
        return (other_low - high) / move, (other_high - low) / move
    if move < 0.0:
        return (other_high - low) / move, (other_low - high) / move
    if high <= other_low + TOUCH_EPSILON or other_high <= low + TOUCH_EPSILON:
        return None
    return -math.inf, math.inf


# Slab test of a moving box against a box at rest: the segment against
# their Minkowski difference, one slab per axis (Sacred Software, *Collisions, Part 1*).
def _entry(a: Box, b: Box, motion: Motion) -> tuple[float, int] | None:
    """When box a moving by ``motion`` enters box b (negative if it starts
    inside) and along which axis it enters last; None if it never does."""
    move_x, move_y = motion[0], motion[1]
    if move_x == 0.0 and move_y == 0.0:
        return None
    x_slab = _slab(a[0], a[2], b[0], b[2], move_x)
    if x_slab is None:
        return None
    y_slab = _slab(a[1], a[3], b[1], b[3], move_y)
    if y_slab is None:
        return None
    (x_in, x_out), (y_in, y_out) = x_slab, y_slab
    entry = y_in if y_in > x_in else x_in
    leave = y_out if y_out < x_out else x_out
    if entry >= leave or entry > 1.0 or leave <= 0.0:
        return None
    # The later entry names the face that is hit; on an exact tie (a corner
    # meeting a corner) the vertical face wins, so floors catch landings.
    # A sliver is a graze: if along the other axis the boxes overlap no more
    # than TOUCH_EPSILON before parting, the corner only brushes past (a body
    # topping a ramp beside a tile's corner), so there is no hit.
    if x_in > y_in:
        axis, other_leave, other_move = 0, y_out, move_y
    else:
        axis, other_leave, other_move = 1, x_out, move_x
    if (other_leave - entry) * abs(other_move) <= TOUCH_EPSILON:
        return None
    return entry, axis


def _face(entry: float, axis: int, motion: Motion) -> tuple[float, Vector2] | None:
    """Time (clamped to 0 when merely touching) and normal of a face hit; None
    when the shapes already overlap at the start."""
    if entry < 0.0:
        if -entry * abs(motion[axis]) > TOUCH_EPSILON:
            return None
        entry = 0.0
    normal = Vector2()
    normal[axis] = 1.0 if motion[axis] > 0 else -1.0
    return entry, normal


def sweep_boxes(a: Box, b: Box, motion: Motion) -> Hit | None:
    """First touch of box a moving by ``motion`` with box b at rest."""
    entered = _entry(a, b, motion)
    face = None if entered is None else _face(*entered, motion)
    if entered is None or face is None:
        return None
    time, normal = face
    other = 1 - entered[1]
    low = a[other] + motion[other] * time
    surface = min(low + a[other + 2], b[other] + b[other + 2]) - max(low, b[other])
    return Hit(time, normal, max(surface, 0.0))


# Swept spheres: the quadratic |d + m·t|² = (ra + rb)² (*Predictive Collision Detection*).
def sweep_circles(centre_a: Vector2, radius_a: float, centre_b: Vector2, radius_b: float,
                  motion: Vector2) -> Hit | None:
    """First touch of circle a moving by ``motion`` with circle b at rest."""
    offset = centre_a - centre_b
    reach = radius_a + radius_b
    closing = offset.dot(motion)
    distance = offset.length()
    if distance < reach - TOUCH_EPSILON:
        return None  # already overlapping at the start
    if closing >= 0.0:
        return None  # not approaching
    if distance <= reach + TOUCH_EPSILON:
        time = 0.0
    else:
        a = motion.length_squared()
        if a == 0.0:
            return None  # too slow to register (underflows): no impact this step
        b = 2.0 * closing
        c = distance * distance - reach * reach
        discriminant = b * b - 4.0 * a * c
        if discriminant < 0.0:
            return None
        time = (-b - math.sqrt(discriminant)) / (2.0 * a)
        if time > 1.0:
            return None
    normal = centre_b - (centre_a + motion * time)
    if normal.length_squared() == 0.0:
        normal = Vector2(motion).normalize()
    normal = normal.normalize()
    if motion.dot(normal) <= 0.0:
        return None  # a path tangent to the circle touches it without closing on it: a graze
    return Hit(max(time, 0.0), normal, 0.0)


# Moving circle against a box: the box grown by the radius, then the
# Voronoi region of the hit point decides face or corner (Metanet, *N Tutorial A: Collision Detection and Response*).
def sweep_circle_box(centre: Vector2, radius: float, box: Box, motion: Vector2) -> Hit | None:
    """First touch of circle a moving by ``motion`` with box b at rest."""
    grown = (box[0] - radius, box[1] - radius, box[2] + 2 * radius, box[3] + 2 * radius)
    entered = _entry((centre.x, centre.y, 0.0, 0.0), grown, motion)
    if entered is None:
        return None
    corner = _corner_region(centre + motion * max(entered[0], 0.0), box)
    if corner is not None:
        return sweep_circles(centre, radius, corner, 0.0, motion)
    face = _face(*entered, motion)
    return Hit(face[0], face[1], 0.0) if face else None


def _corner_region(point: Vector2, box: Box) -> Vector2 | None:
    """The box corner whose Voronoi region holds ``point``, or None if the
    point lies beside a face (or inside)."""
    corner = Vector2()
    for axis in (0, 1):
        if point[axis] < box[axis]:
            corner[axis] = box[axis]
        elif point[axis] > box[axis] + box[axis + 2]:
            corner[axis] = box[axis] + box[axis + 2]
        else:
            return None
    return corner
