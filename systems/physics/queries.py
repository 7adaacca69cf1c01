"""Spatial queries: rays, box casts, points and boxes against the colliders.

The geometry is pure functions: a segment against a box (the slab test),
against a circle (the quadratic of *Predictive Collision Detection*), and a
moving box against either (the swept AABB of Sacred Software, *Collisions,
Part 1*, through ``systems.physics._shapes.narrowphase.sweep``). ``SpatialQueries`` finds the
candidates through the broad phase, walking the grid cells a segment
crosses (Amanatides and Woo, *A Fast Voxel Traversal Algorithm for Ray
Tracing*), or, when those would be more than the occupied cells (a ray a
billion px long, a box cast as wide as the level), looking at each occupied
cell instead: a query costs the fewer of the two, never the length of the
ray nor the area it sweeps, and never the number of colliders.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import TYPE_CHECKING, NamedTuple

from pygame import Vector2

from components import ALL, Collider, ColliderType, Shape, Transform
from systems.physics._shapes.geometry import Box
from systems.physics._shapes.narrowphase import CORNERS, circle_of, overlap, sweep
from systems.physics._shapes.triangle import point_in_triangle, raycast_triangle

if TYPE_CHECKING:
    from systems.physics.collision import CollisionSystem

__all__ = ["RayHit", "SpatialQueries", "cells_on_segment", "raycast_box", "raycast_circle"]

Cell = tuple[int, int]


class RayHit(NamedTuple):
    """Where a ray or a cast box meets a collider.

    ``entity`` is the collider's entity; ``fraction`` in [0, 1] how far along
    (``point = start + fraction·(end − start)``: on the collider's surface for
    a ray, the cast box's top-left for a cast); ``normal`` the unit surface
    normal there, pointing out of the hit collider (−direction when the query
    starts inside it).
    """

    entity: int
    point: Vector2
    normal: Vector2
    fraction: float


# Slab test of a segment against an AABB.
def raycast_box(start: Vector2, motion: Vector2, box: Box) -> tuple[float, Vector2] | None:
    """First fraction t in [0, 1] at which ``start + t·motion`` enters
    ``box`` (grazing a face or a corner doesn't count), with the outward
    normal there; a start inside gives (0, −unit motion)."""
    entry, leave, faces = -math.inf, math.inf, [0.0, 0.0]
    for axis in (0, 1):
        low, high = box[axis], box[axis] + box[axis + 2]
        if motion[axis] == 0.0:
            if not low < start[axis] < high:
                return None
            continue
        near, far = (low, high) if motion[axis] > 0 else (high, low)
        t_near, t_far = (near - start[axis]) / motion[axis], (far - start[axis]) / motion[axis]
        if t_near > entry:
            entry, faces = t_near, [0.0, 0.0]
        if t_near == entry:
            faces[axis] = -1.0 if motion[axis] > 0 else 1.0
        leave = min(leave, t_far)
    if entry >= leave or leave <= 0.0 or entry > 1.0:
        return None
    if entry < 0.0:
        return 0.0, -motion.normalize()
    return entry, Vector2(faces).normalize()


# Segment against a circle: the smaller root of |s + t·m − c|² = r².
def raycast_circle(start: Vector2, motion: Vector2, centre: Vector2, radius: float) -> tuple[float, Vector2] | None:
    """First fraction t in [0, 1] at which ``start + t·motion`` meets the
    circle (a tangent doesn't count), with the outward normal there; a start
    inside gives (0, −unit motion)."""
    offset = start - centre
    c = offset.length_squared() - radius * radius
    if c < 0.0:
        return 0.0, -motion.normalize()
    a = motion.length_squared()
    b = 2.0 * offset.dot(motion)
    discriminant = b * b - 4.0 * a * c
    if discriminant <= 0.0 or b >= 0.0:
        return None
    t = (-b - math.sqrt(discriminant)) / (2.0 * a)
    if t > 1.0:
        return None
    return t, (start + motion * t - centre) / radius


# Amanatides and Woo's voxel traversal, in 2D.
def cells_on_segment(start: Vector2, end: Vector2, size: float) -> Iterator[Cell]:
    """The grid cells (``size`` px) a segment crosses, in order."""
    cell = [math.floor(start.x / size), math.floor(start.y / size)]
    last = (math.floor(end.x / size), math.floor(end.y / size))
    motion = end - start
    steps, next_t, delta = [0, 0], [math.inf, math.inf], [math.inf, math.inf]
    for axis in (0, 1):
        if motion[axis] != 0.0:
            steps[axis] = 1 if motion[axis] > 0 else -1
            boundary = (cell[axis] + (1 if motion[axis] > 0 else 0)) * size
            next_t[axis] = (boundary - start[axis]) / motion[axis]
            delta[axis] = size / abs(motion[axis])
    yield cell[0], cell[1]
    for _ in range(abs(last[0] - cell[0]) + abs(last[1] - cell[1])):
        axis = 0 if next_t[0] < next_t[1] else 1
        cell[axis] += steps[axis]
        next_t[axis] += delta[axis]
        yield cell[0], cell[1]


def _band_meets(start: Vector2, end: Vector2, half: tuple[float, float], box: Box) -> bool:
    """Whether a box of half extents ``half`` (px) centred on the segment
    from ``start`` to ``end`` touches ``box`` at some point of it: the slab
    test of the segment against ``box`` grown by ``half`` (touching counts)."""
    first, last = 0.0, 1.0
    for axis in (0, 1):
        low, high = box[axis] - half[axis], box[axis] + box[axis + 2] + half[axis]
        motion = end[axis] - start[axis]
        if motion == 0.0:
            if not low <= start[axis] <= high:
                return False
            continue
        enter, leave = (low - start[axis]) / motion, (high - start[axis]) / motion
        first, last = max(first, min(enter, leave)), min(last, max(enter, leave))
        if first > last:
            return False
    return True


def _raycast(start: Vector2, end: Vector2, box: Box, shape: Shape) -> tuple[float, Vector2] | None:
    """``raycast_box``, ``raycast_circle`` or ``raycast_triangle`` by shape."""
    if shape is Shape.CIRCLE:
        return raycast_circle(start, end - start, *circle_of(box))
    if shape in CORNERS:
        return raycast_triangle(start, end, box, CORNERS[shape])
    return raycast_box(start, end - start, box)


def _contains(box: Box, shape: Shape, point: Vector2) -> bool:
    """Whether a collider's shape contains ``point`` (its edges don't count)."""
    if shape is Shape.CIRCLE:
        centre, radius = circle_of(box)
        return point.distance_squared_to(centre) < radius * radius
    if shape in CORNERS:
        return point_in_triangle(point, box, CORNERS[shape])
    return box[0] < point.x < box[0] + box[2] and box[1] < point.y < box[1] + box[3]


class SpatialQueries:
    """Queries over a CollisionSystem's colliders, through its broad phase.

    Colliders are tested as their components are now; they are found in the
    grid as the last Collision stage filed them (the World brings the grid
    up to date first when entities or colliders were added or removed), so
    a collider moved by code since the last step further than its own size
    may be missed until the next step.
    """

    def __init__(self, collision: CollisionSystem) -> None:
        self.collision = collision
        #: Grid cells the last ray or box cast looked at: what it cost.
        self.looked = 0

    def raycast(self, start: Vector2, end: Vector2, mask: int = ALL, triggers: bool = False) -> list[RayHit]:
        """Every collider the segment crosses (see ``World.raycast``)."""
        motion = end - start
        hits = []
        for entity in self._along(start, end, (0.0, 0.0)):
            shape = self._shape(entity, mask, triggers)
            if shape is None:
                continue
            found = _raycast(start, end, *shape)
            if found is not None:
                hits.append(RayHit(entity, start + motion * found[0], found[1], found[0]))
        return sorted(hits, key=lambda hit: (hit.fraction, hit.entity))

    def cast_box(self, size: Vector2, start: Vector2, end: Vector2, mask: int = ALL,
                 triggers: bool = False) -> list[RayHit]:
        """Every collider a box of ``size`` meets moving from ``start`` to
        ``end`` (its top-left corner; see ``World.cast_box``)."""
        motion = end - start
        moving = (start.x, start.y, size.x, size.y)
        hits = []
        for entity in self._along(start + size / 2, end + size / 2, (size.x, size.y)):
            shape = self._shape(entity, mask, triggers)
            if shape is None:
                continue
            box, form = shape
            if overlap(moving, Shape.BOX, moving, box, form, box) is not None:
                hits.append(RayHit(entity, Vector2(start), -motion.normalize(), 0.0))
                continue
            hit = sweep(moving, Shape.BOX, box, form, motion)
            if hit is not None:
                hits.append(RayHit(entity, start + motion * hit.time, -hit.normal, hit.time))
        return sorted(hits, key=lambda hit: (hit.fraction, hit.entity))

    def query_point(self, point: Vector2, mask: int = ALL, triggers: bool = True) -> list[int]:
        """Entities whose colliders contain ``point`` (edges don't count)."""
        grid = self.collision.grid
        found = []
        for entity in grid.query((point.x, point.y, 0.0, 0.0)):
            shape = self._shape(entity, mask, triggers)
            if shape is None:
                continue
            if _contains(*shape, point):
                found.append(entity)
        return found

    def query_box(self, position: Vector2, size: Vector2, mask: int = ALL, triggers: bool = True) -> list[int]:
        """Entities whose colliders overlap the box (touching doesn't count)."""
        probe = (position.x, position.y, size.x, size.y)
        found = []
        for entity in self.collision.grid.query(probe):
            shape = self._shape(entity, mask, triggers)
            if shape is not None and overlap(probe, Shape.BOX, probe, shape[0], shape[1], shape[0]) is not None:
                found.append(entity)
        return found

    def _along(self, start: Vector2, end: Vector2, size: tuple[float, float]) -> list[int]:
        """Entities filed in the cells a box of ``size`` (centred on the
        segment) crosses, and the large ones it may meet, in ascending
        order. Walks those cells or looks at every occupied one, whichever
        are fewer; ``looked`` says how many."""
        grid = self.collision.grid
        cell = grid.cell_size
        reach_x, reach_y = math.ceil(size[0] / 2 / cell), math.ceil(size[1] / 2 / cell)
        # The band the box sweeps, grown by half a cell: a superset, whatever the rounding.
        half = (size[0] / 2 + cell / 2, size[1] / 2 + cell / 2)
        seen = {entity for large in (grid.large, grid.fixed_large) for entity, box in large.items()
                if _band_meets(start, end, half, box)}
        occupied = len(grid.cells) + len(grid.fixed_cells)
        crossed = (abs(math.floor(end.x / cell) - math.floor(start.x / cell))
                   + abs(math.floor(end.y / cell) - math.floor(start.y / cell)) + 1)
        if crossed * (2 * reach_x + 1) * (2 * reach_y + 1) > occupied:
            self.looked = occupied
            for cells in (grid.cells, grid.fixed_cells):
                for (cx, cy), members in cells.items():
                    if _band_meets(start, end, half, (cx * cell, cy * cell, cell, cell)):
                        seen.update(members)
            return sorted(seen)
        visited: set[Cell] = set()
        for cx, cy in cells_on_segment(start, end, cell):
            for x in range(cx - reach_x, cx + reach_x + 1):
                for y in range(cy - reach_y, cy + reach_y + 1):
                    if (x, y) not in visited:
                        visited.add((x, y))
                        seen.update(grid.filed_at((x, y)))
        self.looked = len(visited)
        return sorted(seen)

    def _shape(self, entity: int, mask: int, triggers: bool) -> tuple[Box, Shape] | None:
        """The collider's box and shape now, or None if it is gone or the
        query skips it (its category not in ``mask``, or a TRIGGER)."""
        body = self.collision.bodies.get(entity)
        if body is None:
            return None
        collider: Collider = body.collider
        transform: Transform = body.transform
        if not collider.category & mask or (collider.type is ColliderType.TRIGGER and not triggers):
            return None
        where = transform.position + collider.offset
        return (where.x, where.y, collider.size.x, collider.size.y), collider.shape
