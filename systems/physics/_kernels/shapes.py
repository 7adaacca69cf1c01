"""Narrow phase for the compiled kernels: overlap, time of impact and contact
point for any pair of shapes, over plain floats (numba).

``systems.physics._shapes.narrowphase`` is the reference: ``sweep``,
``overlap`` and ``contact_point`` here compute what its functions of those
names compute, float for float, with each function below naming the
reference function it follows and writing its float operations in the same
order (box against box: ``systems.physics._kernels.boxes``). pygame's
``Vector2`` is spelt out: ``a.dot(b)`` adds its products to 0.0, ``v / s``
multiplies by ``1 / s``, ``length()`` is the square root of that dot with
itself, ``normalize()`` divides each part by the length (pygame's
src_c/math.c).

A box is ``(left, top, width, height)`` px; a shape is a small int (``BOX``
... ``TRIANGLE_TOP_RIGHT``, in the order of ``SHAPE_VALUES``, the values of
``components.Shape``); a vector is two floats. Results are flat tuples led
by a bool that says whether there is one (the reference's None is False).
A triangle is worked out once per call into a tuple of 15 floats
(``_triangle``), the reference's ``triangle._Shape``.

Two triangles are never swept against or pushed out of each other
(triangles are STATIC, and the stages never pair two STATICs): the
reference would recurse without end; these give no hit.
"""

from __future__ import annotations

import math
from typing import Any

from .boxes import _axis_overlap, _box_contact, _slab, _sweep_boxes
from .jit import helper as _helper
from .table import TOUCH_EPSILON, _max, _min

__all__ = ["BOX", "CIRCLE", "SHAPE_VALUES", "TRIANGLE_BOTTOM_LEFT", "TRIANGLE_BOTTOM_RIGHT", "TRIANGLE_TOP_LEFT",
           "TRIANGLE_TOP_RIGHT", "contact_point", "overlap", "sweep"]

_NEAR = TOUCH_EPSILON * TOUCH_EPSILON  # systems.physics._shapes.triangle

#: The shapes as small ints, and the ``components.Shape`` value of each.
BOX, CIRCLE, TRIANGLE_BOTTOM_LEFT, TRIANGLE_BOTTOM_RIGHT, TRIANGLE_TOP_LEFT, TRIANGLE_TOP_RIGHT = range(6)
SHAPE_VALUES = ("box", "circle", "triangle_bottom_left", "triangle_bottom_right", "triangle_top_left",
                "triangle_top_right")

# -- boxes: the parts of a slab sweep (systems.physics._shapes.impact) -----------------------------

@_helper
def _entry(a: Any, b: Any, move_x: float, move_y: float) -> tuple[bool, float, int]:
    """(enters, time, axis): when box a moving by (move_x, move_y) px enters
    box b, negative if it starts inside, and along which axis it enters
    last (impact._entry)."""
    if move_x == 0.0 and move_y == 0.0:
        return False, 0.0, 0
    crosses, x_in, x_out = _slab(a[0], a[2], b[0], b[2], move_x)
    if not crosses:
        return False, 0.0, 0
    crosses, y_in, y_out = _slab(a[1], a[3], b[1], b[3], move_y)
    if not crosses:
        return False, 0.0, 0
    entry = y_in if y_in > x_in else x_in
    leave = y_out if y_out < x_out else x_out
    if entry >= leave or entry > 1.0 or leave <= 0.0:
        return False, 0.0, 0
    if x_in > y_in:
        axis, other_leave, other_move = 0, y_out, move_y
    else:
        axis, other_leave, other_move = 1, x_out, move_x
    if (other_leave - entry) * abs(other_move) <= TOUCH_EPSILON:
        return False, 0.0, 0
    return True, entry, axis


@_helper
def _face(entry: float, axis: int, move_x: float, move_y: float) -> tuple[bool, float, float, float]:
    """(hit, time, normal x, normal y) of a face hit, the time clamped to 0
    when merely touching; no hit when already overlapping (impact._face)."""
    move = move_x if axis == 0 else move_y
    if entry < 0.0:
        if -entry * abs(move) > TOUCH_EPSILON:
            return False, 0.0, 0.0, 0.0
        entry = 0.0
    along = 1.0 if move > 0 else -1.0
    if axis == 0:
        return True, entry, along, 0.0
    return True, entry, 0.0, along


# -- circles (systems.physics._shapes.impact, systems.physics._shapes.narrowphase) -----------------

@_helper
def _circle_of(box: Any) -> tuple[float, float, float]:
    """Centre x, y and radius (px) of the circle inscribed in a square box (narrowphase.circle_of)."""
    radius = box[2] / 2
    return box[0] + radius, box[1] + radius, radius


@_helper
def _unit(x: float, y: float) -> tuple[bool, float, float]:
    """Vector2.normalize: (x, y) over its length; False for the zero vector (pygame raises)."""
    length = math.sqrt(0.0 + x * x + y * y)
    if length == 0.0:
        return False, 0.0, 0.0
    return True, x / length, y / length


# Swept spheres: |d + m·t|² = (ra + rb)² (*Predictive Collision Detection*; impact.sweep_circles).
@_helper
def _sweep_circles(ax: float, ay: float, radius_a: float, bx: float, by: float, radius_b: float,
                   move_x: float, move_y: float) -> tuple[bool, float, float, float]:
    """(hit, time, normal x, normal y) of circle a moving by (move_x, move_y) px into circle b."""
    offset_x, offset_y = ax - bx, ay - by
    reach = radius_a + radius_b
    closing = 0.0 + offset_x * move_x + offset_y * move_y
    distance = math.sqrt(0.0 + offset_x * offset_x + offset_y * offset_y)
    if distance < reach - TOUCH_EPSILON or closing >= 0.0:
        return False, 0.0, 0.0, 0.0  # already overlapping, or not approaching
    if distance <= reach + TOUCH_EPSILON:
        time = 0.0
    else:
        a = 0.0 + move_x * move_x + move_y * move_y
        if a == 0.0:
            return False, 0.0, 0.0, 0.0
        b = 2.0 * closing
        c = distance * distance - reach * reach
        discriminant = b * b - 4.0 * a * c
        if discriminant < 0.0:
            return False, 0.0, 0.0, 0.0
        time = (-b - math.sqrt(discriminant)) / (2.0 * a)
        if time > 1.0:
            return False, 0.0, 0.0, 0.0
    nx, ny = bx - (ax + move_x * time), by - (ay + move_y * time)
    if 0.0 + nx * nx + ny * ny == 0.0:
        valid, nx, ny = _unit(move_x, move_y)
        if not valid:
            return False, 0.0, 0.0, 0.0
    valid, nx, ny = _unit(nx, ny)
    if not valid or 0.0 + move_x * nx + move_y * ny <= 0.0:
        return False, 0.0, 0.0, 0.0  # a path tangent to the circle: a graze
    return True, _max(time, 0.0), nx, ny


# The box grown by the radius, then the Voronoi region of the hit point
# (Metanet, *N Tutorial A*; impact.sweep_circle_box and impact._corner_region).
@_helper
def _sweep_circle_box(cx: float, cy: float, radius: float, box: Any, move_x: float,
                      move_y: float) -> tuple[bool, float, float, float]:
    """(hit, time, normal x, normal y) of a circle moving by (move_x, move_y) px into a box."""
    grown = (box[0] - radius, box[1] - radius, box[2] + 2 * radius, box[3] + 2 * radius)
    enters, entry, axis = _entry((cx, cy, 0.0, 0.0), grown, move_x, move_y)
    if not enters:
        return False, 0.0, 0.0, 0.0
    at = _max(entry, 0.0)
    outside_x, corner_x = _beyond(cx + move_x * at, box[0], box[2])
    outside_y, corner_y = _beyond(cy + move_y * at, box[1], box[3])
    if outside_x and outside_y:
        return _sweep_circles(cx, cy, radius, corner_x, corner_y, 0.0, move_x, move_y)
    return _face(entry, axis, move_x, move_y)


@_helper
def _beyond(point: float, low: float, length: float) -> tuple[bool, float]:
    """Along one axis of impact._corner_region: whether ``point`` lies
    beyond the box's extent [low, low + length], and the end it lies beyond."""
    if point < low:
        return True, low
    if point > low + length:
        return True, low + length
    return False, 0.0


# Minimum displacement between two discs, along the line between centres
# (narrowphase.circles_penetration).
@_helper
def _circles_penetration(ax: float, ay: float, radius_a: float, bx: float, by: float, radius_b: float,
                         tie_x: float, tie_y: float) -> tuple[bool, float, float, float]:
    """(overlapping, normal x, normal y, depth) of disc a in disc b."""
    between_x, between_y = bx - ax, by - ay
    distance = math.sqrt(0.0 + between_x * between_x + between_y * between_y)
    depth = radius_a + radius_b - distance
    if depth <= TOUCH_EPSILON:
        return False, 0.0, 0.0, 0.0
    if distance > 0:
        inverse = 1.0 / distance
        return True, between_x * inverse, between_y * inverse, depth
    return True, tie_x, tie_y, depth


# Closest point on the box to the centre, its Voronoi region giving the
# normal (Metanet, *N Tutorial A*; narrowphase.circle_box_penetration).
@_helper
def _circle_box_penetration(cx: float, cy: float, radius: float, box: Any, tie_x: float,
                            tie_y: float) -> tuple[bool, float, float, float]:
    """(overlapping, normal x, normal y, depth) of a disc in a box."""
    between_x = _min(_max(cx, box[0]), box[0] + box[2]) - cx
    between_y = _min(_max(cy, box[1]), box[1] + box[3]) - cy
    distance = math.sqrt(0.0 + between_x * between_x + between_y * between_y)
    if distance > 0.0:
        depth = radius - distance
        if depth > TOUCH_EPSILON:
            inverse = 1.0 / distance
            return True, between_x * inverse, between_y * inverse, depth
        return False, 0.0, 0.0, 0.0
    # Centre inside: the nearest face, ties to the face most against ``tie`` (min's first).
    faces = ((cx - box[0], 1.0, 0.0), (box[0] + box[2] - cx, -1.0, 0.0), (cy - box[1], 0.0, 1.0),
             (box[1] + box[3] - cy, 0.0, -1.0))
    inside, nx, ny = faces[0]
    against = -(0.0 + nx * tie_x + ny * tie_y)
    for k in range(1, 4):
        depth, fx, fy = faces[k]
        key = -(0.0 + fx * tie_x + fy * tie_y)
        if depth < inside or (depth == inside and key < against):
            inside, nx, ny, against = depth, fx, fy, key
    return True, nx, ny, inside + radius


@_helper
def _round_penetration(box_a: Any, shape_a: int, box_b: Any, shape_b: int, tie_x: float,
                       tie_y: float) -> tuple[bool, float, float, float]:
    """(overlapping, normal x, normal y, depth): the least penetration of a
    pair with a circle and no triangle (narrowphase._round_penetration)."""
    if shape_a == CIRCLE:
        ax, ay, radius_a = _circle_of(box_a)
        if shape_b == CIRCLE:
            bx, by, radius_b = _circle_of(box_b)
            return _circles_penetration(ax, ay, radius_a, bx, by, radius_b, tie_x, tie_y)
        return _circle_box_penetration(ax, ay, radius_a, box_b, tie_x, tie_y)
    bx, by, radius_b = _circle_of(box_b)
    inside, nx, ny, depth = _circle_box_penetration(bx, by, radius_b, box_a, -tie_x, -tie_y)
    return inside, -nx, -ny, depth


# -- right triangles (systems.physics._shapes.triangle) -------------------------------------------
# A triangle worked out (triangle._shape) is 15 floats: its box (0-3), its
# corner sx, sy (4, 5), its vertices, the right angle (6, 7), the far end of
# the horizontal leg (8, 9) and of the vertical leg (10, 11), the
# hypotenuse's outward unit normal (12, 13) and its position along it (14).
# Its outward directions are numbered as triangle's: 0 the hypotenuse
# normal, then up, down, left, right.

@_helper
def _triangle(box: Any, shape: int) -> tuple[float, float, float, float, float, float, float, float, float, float,
                                             float, float, float, float, float]:
    """A triangle shape in ``box`` worked out (triangle._shape; a valid one: width and height > 0)."""
    sx = -1.0 if shape == TRIANGLE_BOTTOM_LEFT or shape == TRIANGLE_TOP_LEFT else 1.0
    sy = 1.0 if shape == TRIANGLE_BOTTOM_LEFT or shape == TRIANGLE_BOTTOM_RIGHT else -1.0
    left, top, width, height = box[0], box[1], box[2], box[3]
    right_x = left + width if sx > 0 else left
    right_y = top + height if sy > 0 else top
    far_x = left if sx > 0 else left + width
    far_y = top if sy > 0 else top + height
    # The hypotenuse's normal away from the right angle: (-sx·height, -sy·width), normalised.
    valid, nx, ny = _unit(-sx * height, -sy * width)
    reach = _max(0.0 + far_x * nx + right_y * ny, 0.0 + right_x * nx + far_y * ny)
    return (left, top, width, height, sx, sy, right_x, right_y, far_x, right_y, right_x, far_y, nx, ny, reach)


@_helper
def _side(index: int) -> tuple[int, float]:
    """(axis, sign) of outward direction ``index`` 1-4 (triangle._SIDES: up, down, left, right)."""
    return (1 if index <= 2 else 0), (-1.0 if index == 1 or index == 3 else 1.0)


@_helper
def _direction(tri: Any, index: int) -> tuple[float, float]:
    """Outward direction ``index`` (triangle._direction)."""
    if index == 0:
        return tri[12], tri[13]
    axis, sign = _side(index)
    return (sign, 0.0) if axis == 0 else (0.0, sign)


# Separating axes of a box and a right triangle: x, y and the hypotenuse
# normal, each read as a depth per outward direction (Metanet, *N Tutorial A*).
@_helper
def _depths(box: Any, tri: Any) -> tuple[float, float, float, float, float]:
    """Per outward direction, how far (px) ``box`` must move that way to
    clear the triangle (triangle._depths)."""
    left, top, width, height = box[0], box[1], box[2], box[3]
    nx, ny = tri[12], tri[13]
    low = _min(left * nx, (left + width) * nx) + _min(top * ny, (top + height) * ny)
    return (tri[14] - low, -(tri[1] - (top + height)), -(top - (tri[1] + tri[3])), -(tri[0] - (left + width)),
            -(left - (tri[0] + tri[2])))


@_helper
def _closings(move_x: float, move_y: float, tri: Any) -> tuple[float, float, float, float, float]:
    """How fast each direction's depth grows as a box moves by (move_x, move_y) (triangle._closings)."""
    return -(0.0 + move_x * tri[12] + move_y * tri[13]), 1.0 * move_y, -1.0 * move_y, 1.0 * move_x, -1.0 * move_x


@_helper
def _least(values: Any) -> int:
    """The index of the first smallest of five values (Python's min over indices)."""
    best = 0
    for k in range(1, 5):
        if values[k] < values[best]:
            best = k
    return best


# Swept separating axes, slab by slab (Sacred Software, *Collisions, Part 1*).
@_helper
def _latest_entry(depths: Any, closings: Any) -> tuple[bool, float, int]:
    """(enters, time, direction entered last) of depths growing at
    ``closings`` (triangle._latest_entry)."""
    entry = -math.inf
    for k in range(5):
        if closings[k] > 0.0:
            entry = _max(entry, -depths[k] / closings[k])
        elif depths[k] <= TOUCH_EPSILON:
            return False, 0.0, 0
    if entry > 1.0 or entry == -math.inf:
        return False, 0.0, 0
    at = _max(entry, 0.0)
    for k in range(5):
        if closings[k] < 0.0 and depths[k] + closings[k] * at <= TOUCH_EPSILON:
            return False, 0.0, 0
    for k in range(5):
        if closings[k] > 0.0 and depths[k] + closings[k] * entry <= TOUCH_EPSILON:
            return True, entry, k
    return False, 0.0, 0


@_helper
def _surface(box: Any, tri: Any, index: int) -> float:
    """Length (px) of the touching faces pushed along direction ``index`` (triangle._surface)."""
    if index == 0:
        return 0.0
    axis, sign = _side(index)
    if sign != tri[4 + axis]:
        return 0.0  # that side of the triangle is a single vertex
    other = 1 - axis
    return _max(_axis_overlap(box[other], box[other + 2], tri[other], tri[other + 2]), 0.0)


# Minimum displacement over the separating axes, out the side the body came
# through (Metanet, *N Tutorial A*; triangle.box_triangle_penetration).
@_helper
def _box_triangle_penetration(box: Any, before: Any, tri: Any) -> tuple[bool, float, float, float, float, float]:
    """(overlapping, normal x, normal y, depth, entry, surface) of ``box`` in the triangle."""
    now = _depths(box, tri)
    if now[_least(now)] <= TOUCH_EPSILON:
        return False, 0.0, 0.0, 0.0, 0.0, 0.0
    start = _depths(before, tri)
    closings = (now[0] - start[0], now[1] - start[1], now[2] - start[2], now[3] - start[3], now[4] - start[4])
    enters, time, index = _latest_entry(start, closings)
    if enters and start[_least(start)] <= TOUCH_EPSILON:
        entry = _max(time, 0.0)
    else:  # overlapping all along: least penetration as the step began
        entry, index = 0.0, _least(start)
    dx, dy = _direction(tri, index)
    return True, -dx, -dy, now[index], entry, _surface(box, tri, index)


@_helper
def _sweep_triangle(box: Any, tri: Any, move_x: float, move_y: float) -> tuple[bool, float, int]:
    """(hit, time, direction index) of the first touch of ``box`` moving into the triangle (triangle._sweep)."""
    if 0.0 + move_x * move_x + move_y * move_y == 0.0:
        return False, 0.0, 0
    depths = _depths(box, tri)
    enters, time, index = _latest_entry(depths, _closings(move_x, move_y, tri))
    if not enters:
        return False, 0.0, 0
    if time < 0.0:
        if depths[_least(depths)] > TOUCH_EPSILON:
            return False, 0.0, 0  # already overlapping: push-out's business
        time = 0.0
    return True, time, index


@_helper
def _sweep_box_triangle(box: Any, tri: Any, move_x: float, move_y: float) -> tuple[bool, float, float, float, float]:
    """(hit, time, normal x, normal y, surface) of ``box`` moving into the triangle (triangle.sweep_box_triangle)."""
    hit, time, index = _sweep_triangle(box, tri, move_x, move_y)
    if not hit:
        return False, 0.0, 0.0, 0.0, 0.0
    moved = (box[0] + move_x * time, box[1] + move_y * time, box[2], box[3])
    dx, dy = _direction(tri, index)
    return True, time, -dx, -dy, _surface(moved, tri, index)


@_helper
def _nearest_face(depths: Any, tri: Any) -> int:
    """Direction index of the face nearest a point inside, given its depths:
    the hypotenuse, then the horizontal leg, then the vertical one, the
    first of the nearest (triangle._nearest_face)."""
    best = 0
    for index in (1 if tri[5] < 0 else 2, 3 if tri[4] < 0 else 4):
        if depths[index] < depths[best]:
            best = index
    return best


@_helper
def _triangle_face(tri: Any, k: int) -> tuple[float, float, float, float, float, float]:
    """Face k (one end, other end, outward unit normal): the hypotenuse, the
    horizontal leg, the vertical leg (triangle._faces)."""
    if k == 0:
        return tri[8], tri[9], tri[10], tri[11], tri[12], tri[13]
    if k == 1:
        return tri[6], tri[7], tri[8], tri[9], 0.0, tri[5]
    return tri[6], tri[7], tri[10], tri[11], tri[4], 0.0


# The Voronoi region holding a point (Metanet, *N Tutorial A*, after Arvo).
@_helper
def _closest_feature(px: float, py: float, tri: Any) -> tuple[bool, float, float]:
    """(found, x, y): the point of the triangle's boundary closest to (px, py),
    not found inside or within TOUCH_EPSILON of it (triangle._closest_feature)."""
    outside = False
    for k in range(3):
        ax, ay, bx, by, nx, ny = _triangle_face(tri, k)
        if 0.0 + (px - ax) * nx + (py - ay) * ny > 0.0:
            outside = True
            along_x, along_y = bx - ax, by - ay
            share = (0.0 + (px - ax) * along_x + (py - ay) * along_y) / (0.0 + along_x * along_x + along_y * along_y)
            if 0.0 <= share <= 1.0:
                foot_x, foot_y = ax + along_x * share, ay + along_y * share
                dx, dy = px - foot_x, py - foot_y
                return 0.0 + dx * dx + dy * dy > _NEAR, foot_x, foot_y
    if not outside:
        return False, 0.0, 0.0
    best, nearest = 0, math.inf
    for k in range(3):
        dx, dy = px - tri[6 + 2 * k], py - tri[7 + 2 * k]
        distance = 0.0 + dx * dx + dy * dy
        if k == 0 or distance < nearest:
            best, nearest = k, distance
    return nearest > _NEAR, tri[6 + 2 * best], tri[7 + 2 * best]


# The triangle grown by the radius: faces offset by r, vertices circles of
# radius r (Metanet, *N Tutorial A*; triangle._sweep_circle).
@_helper
def _sweep_circle_triangle(cx: float, cy: float, radius: float, tri: Any, move_x: float,
                           move_y: float) -> tuple[bool, float, float, float]:
    """(hit, time, normal x, normal y) of a disc moving by (move_x, move_y) px into the triangle."""
    if 0.0 + move_x * move_x + move_y * move_y == 0.0:
        return False, 0.0, 0.0, 0.0
    found, qx, qy = _closest_feature(cx, cy, tri)
    if not found:
        return False, 0.0, 0.0, 0.0  # centre inside: overlapping
    between_x, between_y = qx - cx, qy - cy
    gap = math.sqrt(0.0 + between_x * between_x + between_y * between_y) - radius
    if gap < -TOUCH_EPSILON:
        return False, 0.0, 0.0, 0.0
    if gap <= TOUCH_EPSILON:  # touching: an impact now if approaching
        if 0.0 + move_x * between_x + move_y * between_y > 0.0:
            valid, nx, ny = _unit(between_x, between_y)
            return True, 0.0, nx, ny
        return False, 0.0, 0.0, 0.0
    best, best_time, best_x, best_y = False, 0.0, 0.0, 0.0
    for k in range(3):
        ax, ay, bx, by, nx, ny = _triangle_face(tri, k)
        closing = -(0.0 + move_x * nx + move_y * ny)
        height = (0.0 + (cx - ax) * nx + (cy - ay) * ny) - radius
        if closing <= 0.0 or height < 0.0 or height > closing:
            continue  # moving away, behind the offset face, or not reached this step
        time = height / closing
        along_x, along_y = bx - ax, by - ay
        share = ((0.0 + (cx + move_x * time - ax) * along_x + (cy + move_y * time - ay) * along_y)
                 / (0.0 + along_x * along_x + along_y * along_y))
        if 0.0 <= share <= 1.0 and (not best or time < best_time):
            best, best_time, best_x, best_y = True, time, -nx, -ny
    for k in range(3):
        hit, time, nx, ny = _sweep_circles(cx, cy, radius, tri[6 + 2 * k], tri[7 + 2 * k], 0.0, move_x, move_y)
        if hit and (not best or time < best_time):
            best, best_time, best_x, best_y = True, time, nx, ny
    return best, best_time, best_x, best_y


# Closest feature by Voronoi region; a centre inside leaves through a face
# (Metanet, *N Tutorial A*; triangle.circle_triangle_penetration).
@_helper
def _circle_triangle_penetration(cx: float, cy: float, radius: float, tri: Any, before_x: float,
                                 before_y: float) -> tuple[bool, float, float, float, float]:
    """(overlapping, normal x, normal y, depth, entry) of a disc in the
    triangle, its centre at (before_x, before_y) at the start of the step."""
    found, qx, qy = _closest_feature(cx, cy, tri)
    if found:
        between_x, between_y = qx - cx, qy - cy
        depth = radius - math.sqrt(0.0 + between_x * between_x + between_y * between_y)
        if depth <= TOUCH_EPSILON:
            return False, 0.0, 0.0, 0.0, 0.0
        valid, nx, ny = _unit(between_x, between_y)
    else:
        depths = _depths((cx, cy, 0.0, 0.0), tri)
        start = (before_x, before_y, 0.0, 0.0)
        crossed, index = False, 0
        starts = _depths(start, tri)
        if starts[_least(starts)] <= TOUCH_EPSILON:  # it was outside
            crossed, time, index = _sweep_triangle(start, tri, cx - before_x, cy - before_y)
        if not crossed:
            index = _nearest_face(depths, tri)
        dx, dy = _direction(tri, index)
        nx, ny, depth = -dx, -dy, depths[index] + radius
    hit, entry, hx, hy = _sweep_circle_triangle(before_x, before_y, radius, tri, cx - before_x, cy - before_y)
    return True, nx, ny, depth, entry if hit else 0.0


# -- any pair of shapes (systems.physics._shapes.narrowphase) ---------------------------------------

@_helper
def _is_triangle(shape: int) -> bool:
    return shape >= TRIANGLE_BOTTOM_LEFT


@_helper
def _sweep_round(box_a: Any, shape_a: int, box_b: Any, shape_b: int, move_x: float,
                 move_y: float) -> tuple[bool, float, float, float, float]:
    """``sweep`` for shape a not a triangle and a pair not two boxes."""
    if _is_triangle(shape_b):
        tri = _triangle(box_b, shape_b)
        if shape_a == CIRCLE:
            cx, cy, radius = _circle_of(box_a)
            hit, time, nx, ny = _sweep_circle_triangle(cx, cy, radius, tri, move_x, move_y)
            return hit, time, nx, ny, 0.0
        return _sweep_box_triangle(box_a, tri, move_x, move_y)
    if shape_a == CIRCLE:
        ax, ay, radius_a = _circle_of(box_a)
        if shape_b == CIRCLE:
            bx, by, radius_b = _circle_of(box_b)
            hit, time, nx, ny = _sweep_circles(ax, ay, radius_a, bx, by, radius_b, move_x, move_y)
        else:
            hit, time, nx, ny = _sweep_circle_box(ax, ay, radius_a, box_b, move_x, move_y)
        return hit, time, nx, ny, 0.0
    bx, by, radius_b = _circle_of(box_b)
    hit, time, nx, ny = _sweep_circle_box(bx, by, radius_b, box_a, -move_x, -move_y)
    return hit, time, -nx, -ny, 0.0


@_helper
def sweep(box_a: Any, shape_a: int, box_b: Any, shape_b: int, move_x: float,
          move_y: float) -> tuple[bool, float, float, float, float]:
    """(hit, time, normal x, normal y, surface): the first touch of shape a
    moving by (move_x, move_y) px (relative to b) with shape b (narrowphase.sweep)."""
    if shape_a == BOX and shape_b == BOX:
        hit, time, axis, sign, surface = _sweep_boxes(box_a, box_b, move_x, move_y)
        if axis == 0:
            return hit, time, sign, 0.0, surface
        return hit, time, 0.0, sign, surface
    if _is_triangle(shape_a):
        if _is_triangle(shape_b):
            return False, 0.0, 0.0, 0.0, 0.0
        hit, time, nx, ny, surface = _sweep_round(box_b, shape_b, box_a, shape_a, -move_x, -move_y)
        return hit, time, -nx, -ny, surface
    return _sweep_round(box_a, shape_a, box_b, shape_b, move_x, move_y)


@_helper
def _exit_distance(box_a: Any, shape_a: int, box_b: Any, shape_b: int, nx: float, ny: float) -> tuple[bool, float]:
    """(found, px): how far shape a must move against (nx, ny) (a->b) to stop
    overlapping shape b, sweeping it back in from far outside (narrowphase.exit_distance)."""
    reach = (box_a[2] + box_a[3] + box_b[2] + box_b[3] + abs(box_a[0] - box_b[0]) + abs(box_a[1] - box_b[1])
             + 1.0)
    far = (box_a[0] - nx * reach, box_a[1] - ny * reach, box_a[2], box_a[3])
    hit, time, hx, hy, surface = sweep(far, shape_a, box_b, shape_b, nx * reach, ny * reach)
    if not hit:
        return False, 0.0
    return True, reach * (1.0 - time)


@_helper
def _triangle_overlap(box_a: Any, shape_a: int, before_a: Any, box_b: Any, shape_b: int,
                      before_b: Any) -> tuple[bool, float, float, float, float, float]:
    """``overlap`` of a box or circle and a triangle, either way round, the
    other shape's start of step taken relative to the triangle (narrowphase._triangle_overlap)."""
    flip = _is_triangle(shape_a)
    if flip:
        if _is_triangle(shape_b):
            return False, 0.0, 0.0, 0.0, 0.0, 0.0
        box_a, shape_a, before_a, box_b, shape_b, before_b = box_b, shape_b, before_b, box_a, shape_a, before_a
    tri = _triangle(box_b, shape_b)
    shift_x, shift_y = box_b[0] - before_b[0], box_b[1] - before_b[1]
    before = (before_a[0] + shift_x, before_a[1] + shift_y, before_a[2], before_a[3])
    if shape_a == CIRCLE:
        cx, cy, radius = _circle_of(box_a)
        bx, by, before_radius = _circle_of(before)
        inside, nx, ny, depth, entry = _circle_triangle_penetration(cx, cy, radius, tri, bx, by)
        surface = 0.0
    else:
        inside, nx, ny, depth, entry, surface = _box_triangle_penetration(box_a, before, tri)
    if flip:
        return inside, -nx, -ny, depth, entry, surface
    return inside, nx, ny, depth, entry, surface


@_helper
def overlap(box_a: Any, shape_a: int, before_a: Any, box_b: Any, shape_b: int, before_b: Any, tie_x: float,
            tie_y: float) -> tuple[bool, float, float, float, float, float]:
    """(overlapping, normal x, normal y, depth, entry, surface): how shape a
    penetrates shape b now, ``before_*`` the boxes at the start of the step
    and (tie_x, tie_y) the unit direction a->b for shapes on one spot (narrowphase.overlap)."""
    if shape_a == BOX and shape_b == BOX:
        inside, axis, sign, depth, entry, surface = _box_contact(box_a, box_b, before_a, before_b, tie_x, tie_y)
        if axis == 0:
            return inside, 1.0 * sign, 0.0 * sign, depth, entry, surface
        return inside, 0.0 * sign, 1.0 * sign, depth, entry, surface
    ramp = _is_triangle(shape_a) or _is_triangle(shape_b)
    if ramp:
        inside, nx, ny, depth, entry, surface = _triangle_overlap(box_a, shape_a, before_a, box_b, shape_b, before_b)
        if not inside or (shape_a != CIRCLE and shape_b != CIRCLE):
            return inside, nx, ny, depth, entry, surface
    else:
        inside, nx, ny, depth = _round_penetration(box_a, shape_a, box_b, shape_b, tie_x, tie_y)
        if not inside:
            return False, 0.0, 0.0, 0.0, 0.0, 0.0
        entry, surface = 0.0, 0.0
    return _entered(box_a, shape_a, before_a, box_b, shape_b, before_b, ramp, nx, ny, depth, entry, surface)


@_helper
def _entered(box_a: Any, shape_a: int, before_a: Any, box_b: Any, shape_b: int, before_b: Any, ramp: bool, nx: float,
             ny: float, depth: float, entry: float, surface: float) -> tuple[bool, float, float, float, float, float]:
    """A pair with a circle that overlaps by (nx, ny, depth, entry, surface): if it was
    apart at the start of the step, out along the normal of the face or corner it first
    touched instead; with a triangle (``ramp``), if it overlapped then, along the least way
    out it had then (narrowphase._entered)."""
    move_x = box_a[0] - before_a[0] - box_b[0] + before_b[0]
    move_y = box_a[1] - before_a[1] - box_b[1] + before_b[1]
    entered, time, wx, wy, touching = sweep(before_a, shape_a, before_b, shape_b, move_x, move_y)
    found = entered
    if not entered and ramp:
        found, wx, wy, unused_depth, unused_entry, unused_surface = _triangle_overlap(before_a, shape_a, before_a,
                                                                                   before_b, shape_b, before_b)
    if not found:
        return True, nx, ny, depth, entry, surface
    found, exit_depth = _exit_distance(box_a, shape_a, box_b, shape_b, wx, wy)
    if not found:
        return True, nx, ny, depth, entry, surface
    if not entered:
        return True, wx, wy, exit_depth, 0.0, 0.0
    return True, wx, wy, exit_depth, time, touching


# The middle of the touching faces, or the touching point of a round shape
# (narrowphase.contact_point).
@_helper
def contact_point(box_a: Any, shape_a: int, box_b: Any, shape_b: int, nx: float, ny: float) -> tuple[float, float]:
    """A point (px) where shapes a and b touch along the unit normal (nx, ny) (a->b)."""
    if shape_a == CIRCLE:
        cx, cy, radius = _circle_of(box_a)
        return cx + nx * radius, cy + ny * radius
    if shape_b == CIRCLE:
        cx, cy, radius = _circle_of(box_b)
        return cx - nx * radius, cy - ny * radius
    if nx != 0.0 and ny != 0.0:  # a box on a triangle's slope: its vertex touching it
        if _is_triangle(shape_b):
            box, toward_x, toward_y = box_a, nx, ny
        else:
            box, toward_x, toward_y = box_b, -nx, -ny
        return box[0] + (box[2] if toward_x > 0 else 0.0), box[1] + (box[3] if toward_y > 0 else 0.0)
    axis = 0 if nx != 0.0 else 1
    other = 1 - axis
    toward = nx if axis == 0 else ny
    face_a = box_a[axis] + (box_a[axis + 2] if toward > 0 else 0.0)
    face_b = box_b[axis] + (0.0 if toward > 0 else box_b[axis + 2])
    low = _max(box_a[other], box_b[other])
    high = _min(box_a[other] + box_a[other + 2], box_b[other] + box_b[other + 2])
    across, along = (face_a + face_b) / 2, (low + high) / 2
    return (across, along) if axis == 0 else (along, across)
