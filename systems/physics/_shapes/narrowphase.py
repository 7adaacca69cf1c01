"""Narrow phase: overlap and time of impact for any pair of shapes.

Pure functions dispatching on the pair's shapes (``components.Shape``: box,
circle or a right triangle), so the systems never care which shapes they
hold. A circle is the disc inscribed in its collider's box, a triangle half
of it (``systems.physics._shapes.triangle``). Normals are unit Vector2s from a to b.
"""

from __future__ import annotations

from pygame import Vector2

from components.collider import Shape
from systems.physics._shapes import triangle
from systems.physics._shapes.geometry import TOUCH_EPSILON, Box, Penetration, Tie, box_contact
from systems.physics._shapes.impact import Hit, Motion, sweep_boxes, sweep_circle_box, sweep_circles
from systems.physics._shapes.triangle import Corner

__all__ = ["CORNERS", "Penetration", "overlap", "sweep", "circle_of", "contact_point", "exit_distance"]

_AXES = (Vector2(1, 0), Vector2(0, 1))
_BOX, _CIRCLE = Shape.BOX, Shape.CIRCLE


def circle_of(box: Box) -> tuple[Vector2, float]:
    """Centre and radius (px) of the circle inscribed in a square box."""
    radius = box[2] / 2
    return Vector2(box[0] + radius, box[1] + radius), radius


# Minimum displacement between two discs: along the line between centres.
def circles_penetration(centre_a: Vector2, radius_a: float, centre_b: Vector2, radius_b: float,
                        tie: Tie = (1.0, 0.0)) -> Penetration | None:
    """Penetration of disc a into disc b, or None if they only touch or are apart."""
    between = centre_b - centre_a
    distance = between.length()
    depth = radius_a + radius_b - distance
    if depth <= TOUCH_EPSILON:
        return None
    normal = between / distance if distance > 0 else Vector2(tie)
    return Penetration(normal, depth, 0.0, 0.0)


# Closest point on the box to the centre: its Voronoi region gives the normal
# (Metanet, *N Tutorial A: Collision Detection and Response*).
def circle_box_penetration(centre: Vector2, radius: float, box: Box,
                           tie: Tie = (0.0, 1.0)) -> Penetration | None:
    """Penetration of a disc into a box, or None if they only touch or are apart."""
    closest = Vector2(
        min(max(centre.x, box[0]), box[0] + box[2]),
        min(max(centre.y, box[1]), box[1] + box[3]),
    )
    between = closest - centre
    distance = between.length()
    if distance > 0.0:
        depth = radius - distance
        return Penetration(between / distance, depth, 0.0, 0.0) if depth > TOUCH_EPSILON else None
    # Centre inside the box: leave through the nearest face.
    faces = [
        (centre.x - box[0], Vector2(1, 0)),
        (box[0] + box[2] - centre.x, Vector2(-1, 0)),
        (centre.y - box[1], Vector2(0, 1)),
        (box[1] + box[3] - centre.y, Vector2(0, -1)),
    ]
    inside, normal = min(faces, key=lambda face: (face[0], -face[1].dot(tie)))
    return Penetration(normal, inside + radius, 0.0, 0.0)


def overlap(box_a: Box, shape_a: Shape, before_a: Box,
            box_b: Box, shape_b: Shape, before_b: Box, tie: Tie = (0.0, 1.0)) -> Penetration | None:
    """Penetration of shape a into shape b now; ``before_*`` are the boxes at
    the start of the step. A pair that was apart then is pushed back out the
    way it came (the crack cure of Sacred Software, *Collisions, Part 1*):
    boxes along the axis they entered by, a box against a triangle out the
    side whose gap closed last, and a circle against anything along the
    normal of the face or corner it first touched. A pair that already
    overlapped takes the least way out: the one it had as the step began for
    two boxes or a triangle and anything, the one it has now for a circle and
    a box or circle. ``tie`` (a unit direction a->b) decides for shapes
    sitting exactly on one spot."""
    if shape_a is _BOX and shape_b is _BOX:
        contact = box_contact(box_a, box_b, before_a, before_b, tie)
        if contact is None:
            return None
        normal = _AXES[contact.axis] * contact.sign
        return Penetration(normal, contact.depth, contact.entry, contact.surface)
    if shape_a in CORNERS or shape_b in CORNERS:
        least = _triangle_overlap(box_a, shape_a, before_a, box_b, shape_b, before_b)
        if least is None or _CIRCLE not in (shape_a, shape_b):
            return least
        return _entered(least, box_a, shape_a, before_a, box_b, shape_b, before_b, True)
    least = _round_penetration(box_a, shape_a, box_b, shape_b, tie)
    if least is None:
        return None
    return _entered(least, box_a, shape_a, before_a, box_b, shape_b, before_b, False)


# Where the nearest way out is into what lies behind (a disc gone past a ramp's thin tip or
# under its corner where it meets a wall), the way in is the way out, and for a disc already
# in a ramp, the way out it had as the step began.
def _entered(least: Penetration, box_a: Box, shape_a: Shape, before_a: Box,
             box_b: Box, shape_b: Shape, before_b: Box, ramp: bool) -> Penetration:
    """A pair with a circle that overlaps by ``least``: if it was apart at the start
    of the step, out along the normal of the face or corner it first touched instead; with a
    triangle (``ramp``), if it overlapped then, along the least way out it had then."""
    motion = Vector2(box_a[0] - before_a[0] - box_b[0] + before_b[0],
                     box_a[1] - before_a[1] - box_b[1] + before_b[1])
    entered = sweep(before_a, shape_a, before_b, shape_b, motion)
    way = entered.normal if entered is not None else None
    if way is None and ramp:
        was = _triangle_overlap(before_a, shape_a, before_a, before_b, shape_b, before_b)
        way = None if was is None else was.normal
    if way is None:
        return least
    depth = exit_distance(box_a, shape_a, box_b, shape_b, way)
    if depth is None:
        return least
    if entered is None:
        return Penetration(way, depth, 0.0, 0.0)
    return Penetration(way, depth, entered.time, entered.surface)


def _round_penetration(box_a: Box, shape_a: Shape, box_b: Box, shape_b: Shape,
                       tie: Tie) -> Penetration | None:
    """Least penetration of a pair with at least one circle (no triangle)."""
    if shape_a is _CIRCLE and shape_b is _CIRCLE:
        return circles_penetration(*circle_of(box_a), *circle_of(box_b), tie)
    if shape_a is _CIRCLE:
        return circle_box_penetration(*circle_of(box_a), box_b, tie)
    flipped = circle_box_penetration(*circle_of(box_b), box_a, (-tie[0], -tie[1]))
    return None if flipped is None else flipped._replace(normal=-flipped.normal)


def _triangle_overlap(box_a: Box, shape_a: Shape, before_a: Box,
                      box_b: Box, shape_b: Shape, before_b: Box) -> Penetration | None:
    """Penetration of a box or circle into a triangle (either way round); the
    other shape's start of step is taken relative to the triangle, which may
    move (a sloped platform)."""
    if shape_a in CORNERS:
        flipped = _triangle_overlap(box_b, shape_b, before_b, box_a, shape_a, before_a)
        return None if flipped is None else flipped._replace(normal=-flipped.normal)
    corner = CORNERS[shape_b]
    shift = (box_b[0] - before_b[0], box_b[1] - before_b[1])
    before = (before_a[0] + shift[0], before_a[1] + shift[1], before_a[2], before_a[3])
    if shape_a is _CIRCLE:
        centre, radius = circle_of(box_a)
        return triangle.circle_triangle_penetration(centre, radius, box_b, corner, circle_of(before)[0])
    return triangle.box_triangle_penetration(box_a, before, box_b, corner)


# Exit distance along a direction: sweep the shape back in from far outside.
def exit_distance(box_a: Box, shape_a: Shape, box_b: Box, shape_b: Shape, normal: Vector2) -> float | None:
    """How far (px) shape a must move against ``normal`` (a->b) to stop
    overlapping shape b, or None if it cannot be found that way."""
    reach = box_a[2] + box_a[3] + box_b[2] + box_b[3] + abs(box_a[0] - box_b[0]) + abs(box_a[1] - box_b[1]) + 1.0
    far = (box_a[0] - normal.x * reach, box_a[1] - normal.y * reach, box_a[2], box_a[3])
    back = sweep(far, shape_a, box_b, shape_b, normal * reach)
    if back is None:
        return None
    return reach * (1.0 - back.time)


def sweep(box_a: Box, shape_a: Shape, box_b: Box, shape_b: Shape, motion: Motion) -> Hit | None:
    """First touch of shape a moving by ``motion`` (relative to b) with shape b."""
    if shape_a is _BOX and shape_b is _BOX:
        return sweep_boxes(box_a, box_b, motion)
    if not isinstance(motion, Vector2):
        motion = Vector2(motion)
    if shape_a in CORNERS:
        flipped = sweep(box_b, shape_b, box_a, shape_a, -motion)
        return None if flipped is None else flipped._replace(normal=-flipped.normal)
    if shape_b in CORNERS:
        if shape_a is _CIRCLE:
            return triangle.sweep_circle_triangle(*circle_of(box_a), box_b, CORNERS[shape_b], motion)
        return triangle.sweep_box_triangle(box_a, box_b, CORNERS[shape_b], motion)
    if shape_a is _CIRCLE and shape_b is _CIRCLE:
        return sweep_circles(*circle_of(box_a), *circle_of(box_b), motion)
    if shape_a is _CIRCLE:
        return sweep_circle_box(*circle_of(box_a), box_b, motion)
    flipped = sweep_circle_box(*circle_of(box_b), box_a, -motion)
    return None if flipped is None else flipped._replace(normal=-flipped.normal)


# The middle of the touching faces, or the touching point of a round shape.
def contact_point(box_a: Box, shape_a: Shape, box_b: Box, shape_b: Shape, normal: Vector2) -> Vector2:
    """A point (world px) on the surfaces where shapes a and b touch along
    ``normal`` (a->b); meant for shapes touching or just overlapping."""
    if shape_a is _CIRCLE:
        centre, radius = circle_of(box_a)
        return centre + normal * radius
    if shape_b is _CIRCLE:
        centre, radius = circle_of(box_b)
        return centre - normal * radius
    if normal.x and normal.y:  # a box on a triangle's slope: its vertex touching it
        box, toward = (box_a, normal) if shape_b in CORNERS else (box_b, -normal)
        return Vector2(box[0] + (box[2] if toward.x > 0 else 0.0), box[1] + (box[3] if toward.y > 0 else 0.0))
    axis = 0 if normal.x else 1
    other = 1 - axis
    face_a = box_a[axis] + (box_a[axis + 2] if normal[axis] > 0 else 0.0)
    face_b = box_b[axis] + (0.0 if normal[axis] > 0 else box_b[axis + 2])
    low = max(box_a[other], box_b[other])
    high = min(box_a[other] + box_a[other + 2], box_b[other] + box_b[other + 2])
    point = Vector2()
    point[axis] = (face_a + face_b) / 2
    point[other] = (low + high) / 2
    return point


#: The right-angle corner of each triangle shape (``systems.physics._shapes.triangle``).
CORNERS: dict[Shape, Corner] = {
    Shape.TRIANGLE_BOTTOM_LEFT: triangle.BOTTOM_LEFT,
    Shape.TRIANGLE_BOTTOM_RIGHT: triangle.BOTTOM_RIGHT,
    Shape.TRIANGLE_TOP_LEFT: triangle.TOP_LEFT,
    Shape.TRIANGLE_TOP_RIGHT: triangle.TOP_RIGHT,
}
