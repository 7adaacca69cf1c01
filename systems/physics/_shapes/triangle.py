"""Right-triangle colliders: overlap, push-out, time of impact and raycasts.

Pure functions, no world state (nothing here imports esper or pygame's
display). A triangle collider is its box ``(left, top, width, height)`` in px,
y growing downward, plus ``corner``, the box corner that holds the right
angle: ``(sx, sy)`` with sx = -1 left / +1 right and sy = -1 top / +1 bottom.
The triangle fills that half of the box, so ``BOTTOM_RIGHT`` is a floor
rising to the right ("/"), ``BOTTOM_LEFT`` one rising to the left ("\\"), and
the TOP corners are ceiling slopes. Width and height may differ: a 32×16 box
is a 26.6° ramp.

Everything rests on one idea from Metanet's *N Tutorial A*: a box and a right
triangle are separated along x, along y or along the hypotenuse normal, and
nowhere else. Here that is written as five outward directions of the
triangle — the hypotenuse normal, up, down, left, right — and, for each, the
*depth*: how far (px) the other shape must move that way to clear the
triangle on that side (<= ``TOUCH_EPSILON`` means clear or merely touching).
Two of the four axis directions face a leg and behave exactly like a box's
face; the other two face only a vertex. A point is a box of no size (the
*N Tutorial A* point query), so raycasts are the box sweep with a point.

Normals are unit ``Vector2``s from shape a (the box, circle or ray) to shape
b (the triangle), except a raycast's, which is the outward normal of the
surface hit. When directions tie (a corner meets a vertex, a box slides off a
flat tile onto the low end of a ramp), the hypotenuse wins, then the faces
with a vertical normal, then those with a horizontal one: a body gliding
onto a ramp meets its slope, never the zero-length side at its foot (the
crack problem of Sacred Software, *Collisions, Part 1*).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

from pygame import Vector2

from systems.physics._shapes.geometry import TOUCH_EPSILON, Box, Penetration, axis_overlap, directional_gap
from systems.physics._shapes.impact import Hit, sweep_circles

__all__ = [
    "Corner",
    "BOTTOM_LEFT",
    "BOTTOM_RIGHT",
    "TOP_LEFT",
    "TOP_RIGHT",
    "triangle_vertices",
    "hypotenuse_normal",
    "point_in_triangle",
    "box_overlaps_triangle",
    "box_triangle_penetration",
    "circle_triangle_penetration",
    "sweep_box_triangle",
    "sweep_circle_triangle",
    "raycast_triangle",
]

#: The box corner holding the right angle: (sx, sy), each -1 or +1
#: (sx -1 left, +1 right; sy -1 top, +1 bottom).
Corner = tuple[int, int]

BOTTOM_LEFT: Corner = (-1, 1)
BOTTOM_RIGHT: Corner = (1, 1)
TOP_LEFT: Corner = (-1, -1)
TOP_RIGHT: Corner = (1, -1)

# The outward directions after the hypotenuse normal, in tie-break order:
# up, down, left, right, as (axis, sign).
_SIDES = ((1, -1), (1, 1), (0, -1), (0, 1))
_AXIS_DIRECTIONS = tuple(Vector2(sign, 0) if axis == 0 else Vector2(0, sign) for axis, sign in _SIDES)

#: px². Squared distance under which a point counts as on the boundary.
_NEAR = TOUCH_EPSILON * TOUCH_EPSILON


class _Shape(NamedTuple):
    """A triangle collider worked out once per call: its box and corner, its
    vertices (right angle, far end of the horizontal leg, far end of the
    vertical leg), the hypotenuse's outward unit normal and the hypotenuse's
    position along it (px)."""

    tri: Box
    corner: Corner
    vertices: tuple[Vector2, Vector2, Vector2]
    normal: Vector2
    reach: float


def _shape(tri: Box, corner: Corner) -> _Shape:
    """Check and work out a triangle collider; ValueError names a bad field."""
    if len(corner) != 2 or corner[0] not in (-1, 1) or corner[1] not in (-1, 1):
        raise ValueError(f"corner must be (sx, sy) with each -1 or +1, got {corner!r}")
    left, top, width, height = tri
    if not (width > 0.0 and height > 0.0):  # also rejects NaN
        raise ValueError(f"tri must have a positive width and height (px), got {tri!r}")
    right_x = left + width if corner[0] > 0 else left
    right_y = top + height if corner[1] > 0 else top
    far_x = Vector2(left if corner[0] > 0 else left + width, right_y)
    far_y = Vector2(right_x, top if corner[1] > 0 else top + height)
    # The hypotenuse runs along (width, height) up to sign; its normal away
    # from the right angle is (-sx·height, -sy·width), normalised.
    normal = Vector2(-corner[0] * height, -corner[1] * width).normalize()
    reach = max(far_x.dot(normal), far_y.dot(normal))
    return _Shape(tri, corner, (Vector2(right_x, right_y), far_x, far_y), normal, reach)


def _direction(shape: _Shape, index: int) -> Vector2:
    """A new Vector2 along outward direction ``index`` (0 the hypotenuse normal,
    then up, down, left, right)."""
    return Vector2(shape.normal if index == 0 else _AXIS_DIRECTIONS[index - 1])


# The right-angle vertex sits at the box corner named by (sx, sy).
def triangle_vertices(tri: Box, corner: Corner) -> tuple[Vector2, Vector2, Vector2]:
    """The triangle's vertices (px): the right angle, the far end of its
    horizontal leg, the far end of its vertical leg."""
    return _shape(tri, corner).vertices


# The hypotenuse runs along (width, height) up to sign; its normal away from
# the right angle is (-sx·height, -sy·width), normalised (Metanet, *N Tutorial A*).
def hypotenuse_normal(tri: Box, corner: Corner) -> Vector2:
    """Unit normal of the hypotenuse, pointing out of the triangle (away from
    the right angle). A 45° "/" floor gives (-1, -1)/√2; a 32×16 one (-1, -2)/√5."""
    return _shape(tri, corner).normal


# Separating axes of a box and a right triangle: x, y and the hypotenuse
# normal, each read as a depth per outward direction (Metanet, *N Tutorial A*).
def _depths(box: Box, shape: _Shape) -> list[float]:
    """Per outward direction, how far (px) ``box`` must move that way to clear
    the triangle's projection; <= TOUCH_EPSILON means clear or touching.

    Along the axes these are exactly the box-against-box values of
    ``geometry.directional_gap`` (the triangle's box on that side)."""
    left, top, width, height = box
    nx, ny = shape.normal
    low = min(left * nx, (left + width) * nx) + min(top * ny, (top + height) * ny)
    depths = [shape.reach - low]
    for axis, sign in _SIDES:
        depths.append(-directional_gap(box, shape.tri, axis, -sign))
    return depths


def _closings(motion: Vector2, shape: _Shape) -> list[float]:
    """How fast (px per unit time) each direction's depth grows as a box moves by ``motion``."""
    closings = [-motion.dot(shape.normal)]
    for axis, sign in _SIDES:
        closings.append(-sign * motion[axis])
    return closings


# Swept separating axes: each direction's depth grows linearly, the shapes
# overlap once every depth is positive (Sacred Software, *Collisions, Part 1*,
# slab by slab; the axes of Metanet, *N Tutorial A*).
def _latest_entry(depths: Sequence[float], closings: Sequence[float]) -> tuple[float, int] | None:
    """When depths growing at ``closings`` (px per unit time) are first all
    positive, and the direction entered last; None if never within t <= 1.

    The time is negative when they already are at t = 0. A direction that is
    clear or just touching and not closing keeps the shapes apart, and so
    does one that is leaving with no more than TOUCH_EPSILON px left when the
    others are all in: the shapes would only graze (a box whose corner is a
    rounding error below a vertex it passes). Directions entered within
    TOUCH_EPSILON px of the last count as tied, and the first of them in
    tie-break order is the one reported."""
    entry = -math.inf
    for depth, closing in zip(depths, closings):
        if closing > 0.0:
            entry = max(entry, -depth / closing)
        elif depth <= TOUCH_EPSILON:
            return None
    if entry > 1.0 or entry == -math.inf:
        return None
    at = max(entry, 0.0)
    if any(closing < 0.0 and depth + closing * at <= TOUCH_EPSILON
           for depth, closing in zip(depths, closings)):
        return None
    for index, (depth, closing) in enumerate(zip(depths, closings)):
        if closing > 0.0 and depth + closing * entry <= TOUCH_EPSILON:
            return entry, index
    return None  # unreachable: the direction entered last always qualifies


def _surface(box: Box, shape: _Shape, index: int) -> float:
    """Length (px) of the touching faces when ``box`` is pushed along
    direction ``index``: the overlap along a leg, 0 at the hypotenuse or a
    vertex (a box's corner or the triangle's corner is all that touches)."""
    if index == 0:
        return 0.0
    axis, sign = _SIDES[index - 1]
    if sign != shape.corner[axis]:
        return 0.0  # that side of the triangle is a single vertex
    return max(axis_overlap(box, shape.tri, 1 - axis), 0.0)


# A point is a box of no size (the point query of Metanet, *N Tutorial A*).
def point_in_triangle(point: Vector2, tri: Box, corner: Corner) -> bool:
    """True when ``point`` (px) lies inside the triangle by more than
    TOUCH_EPSILON; points on its edges don't count."""
    return min(_depths((point.x, point.y, 0.0, 0.0), _shape(tri, corner))) > TOUCH_EPSILON


# Separating axis test: x, y and the hypotenuse normal (Metanet, *N Tutorial A*).
def box_overlaps_triangle(box: Box, tri: Box, corner: Corner) -> bool:
    """True when ``box`` penetrates the triangle by more than TOUCH_EPSILON
    on every axis; touching edges don't count."""
    return min(_depths(box, _shape(tri, corner))) > TOUCH_EPSILON


# Minimum displacement over the separating axes, choosing the side the body
# came through (Metanet, *N Tutorial A*; the crack cure of Sacred Software,
# *Collisions, Part 1*, as in ``geometry.box_contact``).
def box_triangle_penetration(box: Box, before: Box, tri: Box,
                             corner: Corner) -> Penetration | None:
    """How ``box`` (px) penetrates the triangle, or None if it only touches or is apart.

    ``before`` is the box at the start of the step. If it was clear of the
    triangle on some side then, the box is pushed back out the side whose
    gap closed last (``entry`` in [0, 1] says when); otherwise along the
    direction of least penetration as the step began (``entry`` 0), as two
    boxes do: a box that started a hair inside a ramp's tip and moved deep
    into it leaves the way it was already leaving, not by the side nearest
    now (a leg, which may lie flush against a wall). ``depth`` (px, > 0) is how
    far to push it that way. The legs behave exactly like a box's faces;
    ``surface`` is the overlap along a leg, 0 at the hypotenuse or a vertex.
    """
    shape = _shape(tri, corner)
    now = _depths(box, shape)
    if min(now) <= TOUCH_EPSILON:
        return None
    start = _depths(before, shape)
    entered = _latest_entry(start, [b - a for a, b in zip(start, now)])
    if entered is not None and min(start) <= TOUCH_EPSILON:
        entry, index = max(entered[0], 0.0), entered[1]
    else:  # overlapping all along: least penetration as the step began
        entry, index = 0.0, min(range(len(start)), key=start.__getitem__)
    return Penetration(-_direction(shape, index), now[index], entry, _surface(box, shape, index))


# Swept separating axes: the entry and exit time along x, y and the
# hypotenuse normal (Metanet, *N Tutorial A*; Sacred Software, *Collisions, Part 1*).
def sweep_box_triangle(box: Box, tri: Box, corner: Corner, motion: Vector2) -> Hit | None:
    """First touch of ``box`` moving by ``motion`` (px, over one unit of time)
    with the triangle at rest, or None.

    None when they don't meet within the motion, move apart or slide along
    each other, or already overlap at t = 0; a box touching and approaching
    hits at t = 0. The normal (box -> triangle) is the reverse of the face
    or side entered last; ``surface`` is the overlap along a leg then, 0 at
    the hypotenuse or a vertex."""
    shape = _shape(tri, corner)
    entered = _sweep(box, shape, motion)
    if entered is None:
        return None
    time, index = entered
    moved = (box[0] + motion.x * time, box[1] + motion.y * time, box[2], box[3])
    return Hit(time, -_direction(shape, index), _surface(moved, shape, index))


def _sweep(box: Box, shape: _Shape, motion: Vector2) -> tuple[float, int] | None:
    """Time in [0, 1] and direction index of the first touch; None as for
    ``sweep_box_triangle``."""
    if motion.length_squared() == 0.0:
        return None  # no motion, or too slow to register (underflows)
    depths = _depths(box, shape)
    entered = _latest_entry(depths, _closings(motion, shape))
    if entered is None:
        return None
    time, index = entered
    if time < 0.0:
        if min(depths) > TOUCH_EPSILON:
            return None  # already overlapping: push-out's business
        time = 0.0
    return time, index


# Segment against a convex polygon, one half-plane per side (Cyrus–Beck
# clipping): the box sweep with a point (Metanet, *N Tutorial A*).
def raycast_triangle(start: Vector2, end: Vector2, tri: Box, corner: Corner) -> tuple[float, Vector2] | None:
    """Where the segment from ``start`` to ``end`` (px) enters the triangle:
    the fraction along it in [0, 1] and the unit outward normal there; None
    if it misses, only grazes an edge or stops short.

    A start inside gives fraction 0 and the normal -direction (for a
    segment of no length, the outward normal of the nearest face)."""
    shape = _shape(tri, corner)
    direction = end - start
    point = (start.x, start.y, 0.0, 0.0)
    depths = _depths(point, shape)
    if min(depths) > TOUCH_EPSILON:  # starts inside
        if direction.length_squared() > 0.0:
            return 0.0, -direction.normalize()
        return 0.0, _direction(shape, _nearest_face(depths, shape))
    entered = _sweep(point, shape, direction)
    return None if entered is None else (entered[0], _direction(shape, entered[1]))


def _nearest_face(point_depths: list[float], shape: _Shape) -> int:
    """Direction index of the face nearest a point inside the triangle, given
    its depths: the hypotenuse or one of the two legs (a vertex side is never
    nearer)."""
    faces = [0] + [i + 1 for i, (axis, sign) in enumerate(_SIDES) if sign == shape.corner[axis]]
    return min(faces, key=point_depths.__getitem__)


def _faces(shape: _Shape) -> tuple[tuple[Vector2, Vector2, Vector2], ...]:
    """Each face as (one end, other end, unit outward normal): the hypotenuse,
    the horizontal leg, the vertical leg."""
    right, far_x, far_y = shape.vertices
    return (
        (far_x, far_y, shape.normal),
        (right, far_x, Vector2(0, shape.corner[1])),
        (right, far_y, Vector2(shape.corner[0], 0)),
    )


# The Voronoi region holding a point: beside a face (closest point its foot)
# or around a vertex (Metanet, *N Tutorial A*, after Arvo).
def _closest_feature(point: Vector2, shape: _Shape) -> Vector2 | None:
    """The point of the triangle's boundary closest to ``point`` (px), or None
    if ``point`` is inside the triangle or within TOUCH_EPSILON of its
    boundary (where the direction to it would be rounding noise)."""
    outside = False
    for a, b, normal in _faces(shape):
        if (point - a).dot(normal) > 0.0:
            outside = True
            along = b - a
            share = (point - a).dot(along) / along.length_squared()
            if 0.0 <= share <= 1.0:
                foot = a + along * share
                return foot if (point - foot).length_squared() > _NEAR else None
    if not outside:
        return None
    vertex = min(shape.vertices, key=lambda v: (point - v).length_squared())
    return vertex if (point - vertex).length_squared() > _NEAR else None


# Closest feature by Voronoi region; a centre inside leaves through a face
# (Metanet, *N Tutorial A*).
def circle_triangle_penetration(centre: Vector2, radius: float, tri: Box, corner: Corner,
                                before_centre: Vector2 | None = None) -> Penetration | None:
    """How a disc (centre and radius in px) penetrates the triangle, or None
    if it only touches or is apart.

    A centre outside is pushed away from the closest point of the triangle.
    A centre inside leaves through the face its centre crossed from
    ``before_centre`` (its position at the start of the step) when that was
    outside, otherwise through the nearest face. ``entry`` in [0, 1] is when
    in the step the disc first touched, if ``before_centre`` was clear
    (0 otherwise); ``surface`` is 0, a round contact.
    """
    shape = _shape(tri, corner)
    closest = _closest_feature(centre, shape)
    if closest is not None:
        between = closest - centre
        depth = radius - between.length()
        if depth <= TOUCH_EPSILON:
            return None
        normal = between.normalize()
    else:
        depths = _depths((centre.x, centre.y, 0.0, 0.0), shape)
        crossed = None
        if before_centre is not None:
            start = (before_centre.x, before_centre.y, 0.0, 0.0)
            if min(_depths(start, shape)) <= TOUCH_EPSILON:  # it was outside
                crossed = _sweep(start, shape, centre - before_centre)
        index = _nearest_face(depths, shape) if crossed is None else crossed[1]
        # Clearing the triangle's projection on that direction frees the disc.
        normal, depth = -_direction(shape, index), depths[index] + radius
    entry = 0.0
    if before_centre is not None:
        hit = _sweep_circle(before_centre, radius, shape, centre - before_centre)
        entry = 0.0 if hit is None else hit.time
    return Penetration(normal, depth, entry, 0.0)


# Moving circle against the triangle grown by the radius: each face offset
# by r, each vertex a circle of radius r (Metanet, *N Tutorial A*), the
# vertices by the quadratic of *Predictive Collision Detection*.
def sweep_circle_triangle(centre: Vector2, radius: float, tri: Box, corner: Corner,
                          motion: Vector2) -> Hit | None:
    """First touch of a disc (centre, radius in px) moving by ``motion``
    (px, over one unit of time) with the triangle at rest, or None.

    None when they don't meet within the motion, move apart or slide along
    each other, or already overlap at t = 0; a disc touching and approaching
    hits at t = 0. The normal points from the centre to the point touched."""
    return _sweep_circle(centre, radius, _shape(tri, corner), motion)


def _sweep_circle(centre: Vector2, radius: float, shape: _Shape, motion: Vector2) -> Hit | None:
    """``sweep_circle_triangle`` on a worked-out triangle."""
    if motion.length_squared() == 0.0:
        return None
    closest = _closest_feature(centre, shape)
    if closest is None:
        return None  # centre inside: overlapping
    between = closest - centre
    gap = between.length() - radius
    if gap < -TOUCH_EPSILON:
        return None
    # The distance to a convex shape along a straight path is convex in time:
    # touching and not approaching, the disc never comes closer.
    if gap <= TOUCH_EPSILON:  # touching: an impact now if approaching
        return Hit(0.0, between.normalize(), 0.0) if motion.dot(between) > 0.0 else None
    best: Hit | None = None
    for a, b, normal in _faces(shape):
        closing = -motion.dot(normal)
        height = (centre - a).dot(normal) - radius
        if closing <= 0.0 or height < 0.0 or height > closing:
            continue  # moving away, behind the offset face, or not reached this step
        time = height / closing
        along = b - a
        share = (centre + motion * time - a).dot(along) / along.length_squared()
        if 0.0 <= share <= 1.0 and (best is None or time < best.time):
            best = Hit(time, -normal, 0.0)
    for vertex in shape.vertices:
        hit = sweep_circles(centre, radius, vertex, 0.0, motion)  # None for a path tangent to it: a graze
        if hit is not None and (best is None or hit.time < best.time):
            best = hit
    return best
