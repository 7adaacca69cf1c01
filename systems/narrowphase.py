"""Narrow phase: overlap and time of impact for any pair of shapes.

Pure functions dispatching on the pair's shapes (box or circle), so the
systems never care which shapes they hold. A circle is the disc inscribed in
its collider's box. Normals are unit Vector2s from a to b.
"""

from __future__ import annotations

from typing import NamedTuple

from pygame import Vector2

from systems.geometry import TOUCH_EPSILON, Box, Tie, box_contact
from systems.sweep import Hit, sweep_boxes, sweep_circle_box, sweep_circles

__all__ = ["Penetration", "overlap", "sweep", "circle_of", "contact_point", "exit_distance"]

_AXES = (Vector2(1, 0), Vector2(0, 1))


class Penetration(NamedTuple):
    """How far a is inside b: push a by ``depth`` px against ``normal`` (a->b).

    ``entry`` in [0, 1] is when in the step the overlap began (0 if it was
    already there or is unknown); ``surface`` (px) the touching faces' length.
    """

    normal: Vector2
    depth: float
    entry: float
    surface: float


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


def overlap(box_a: Box, round_a: bool, before_a: Box,
            box_b: Box, round_b: bool, before_b: Box, tie: Tie = (0.0, 1.0)) -> Penetration | None:
    """Penetration of shape a into shape b now; ``before_*`` are the boxes at
    the start of the step. A pair that was apart then is pushed back out the
    way it came (the crack cure of Sacred Software, *Collisions, Part 1*):
    boxes along the axis they entered by, round shapes along the normal of
    the face or corner they first touched; a pair that already overlapped
    takes the least penetration. ``tie`` (a unit direction a->b) decides
    for shapes sitting exactly on one spot."""
    if not round_a and not round_b:
        contact = box_contact(box_a, box_b, before_a, before_b, tie)
        if contact is None:
            return None
        normal = _AXES[contact.axis] * contact.sign
        return Penetration(normal, contact.depth, contact.entry, contact.surface)
    least = _round_penetration(box_a, round_a, box_b, round_b, tie)
    if least is None:
        return None
    motion = Vector2(box_a[0] - before_a[0] - box_b[0] + before_b[0],
                     box_a[1] - before_a[1] - box_b[1] + before_b[1])
    entered = sweep(before_a, round_a, before_b, round_b, motion)
    if entered is None:
        return least
    depth = exit_distance(box_a, round_a, box_b, round_b, entered.normal)
    if depth is None:
        return least
    return Penetration(entered.normal, depth, entered.time, entered.surface)


def _round_penetration(box_a: Box, round_a: bool, box_b: Box, round_b: bool,
                       tie: Tie) -> Penetration | None:
    """Least penetration of a pair with at least one round shape."""
    if round_a and round_b:
        return circles_penetration(*circle_of(box_a), *circle_of(box_b), tie)
    if round_a:
        return circle_box_penetration(*circle_of(box_a), box_b, tie)
    flipped = circle_box_penetration(*circle_of(box_b), box_a, (-tie[0], -tie[1]))
    return None if flipped is None else flipped._replace(normal=-flipped.normal)


# Exit distance along a direction: sweep the shape back in from far outside.
def exit_distance(box_a: Box, round_a: bool, box_b: Box, round_b: bool, normal: Vector2) -> float | None:
    """How far (px) shape a must move against ``normal`` (a->b) to stop
    overlapping shape b, or None if it cannot be found that way."""
    reach = box_a[2] + box_a[3] + box_b[2] + box_b[3] + abs(box_a[0] - box_b[0]) + abs(box_a[1] - box_b[1]) + 1.0
    far = (box_a[0] - normal.x * reach, box_a[1] - normal.y * reach, box_a[2], box_a[3])
    back = sweep(far, round_a, box_b, round_b, normal * reach)
    if back is None:
        return None
    return reach * (1.0 - back.time)


def sweep(box_a: Box, round_a: bool, box_b: Box, round_b: bool, motion: Vector2) -> Hit | None:
    """First touch of shape a moving by ``motion`` (relative to b) with shape b."""
    if not round_a and not round_b:
        return sweep_boxes(box_a, box_b, motion)
    if round_a and round_b:
        return sweep_circles(*circle_of(box_a), *circle_of(box_b), motion)
    if round_a:
        return sweep_circle_box(*circle_of(box_a), box_b, motion)
    flipped = sweep_circle_box(*circle_of(box_b), box_a, -motion)
    return None if flipped is None else flipped._replace(normal=-flipped.normal)


# The middle of the touching faces, or the touching point of a round shape.
def contact_point(box_a: Box, round_a: bool, box_b: Box, round_b: bool, normal: Vector2) -> Vector2:
    """A point (world px) on the surfaces where shapes a and b touch along
    ``normal`` (a->b); meant for shapes touching or just overlapping."""
    if round_a:
        centre, radius = circle_of(box_a)
        return centre + normal * radius
    if round_b:
        centre, radius = circle_of(box_b)
        return centre - normal * radius
    axis = 0 if abs(normal.x) >= abs(normal.y) else 1
    other = 1 - axis
    face_a = box_a[axis] + (box_a[axis + 2] if normal[axis] > 0 else 0.0)
    face_b = box_b[axis] + (0.0 if normal[axis] > 0 else box_b[axis + 2])
    low = max(box_a[other], box_b[other])
    high = min(box_a[other] + box_a[other + 2], box_b[other] + box_b[other + 2])
    point = Vector2()
    point[axis] = (face_a + face_b) / 2
    point[other] = (low + high) / 2
    return point
