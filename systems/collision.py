"""Collision: gather the colliders and find the pairs that may touch."""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import itemgetter

import esper

from components import Collider, ColliderType, Physics, Transform
from systems.broadphase import SpatialGrid, choose_cell_size
from systems.geometry import Box

__all__ = ["Body", "CollisionSystem"]


@dataclass(slots=True, eq=False)
class Body:
    """One collider as the collision pipeline sees it during a step.

    ``before`` and ``box`` are its boxes at the start of the step and now
    (px; call ``sync`` after moving the transform); ``bounds`` is the box it
    was filed under in the broad phase. ``moved`` tells whether Movement (or
    a user system) changed the position this step. ``inverse_mass`` is
    1/mass, 0 for STATIC colliders and for SOLIDs without Physics (they have
    no velocity for a collision to change). ``neighbours`` are the entities
    the broad phase paired it with.
    """

    entity: int
    transform: Transform
    collider: Collider
    physics: Physics | None
    static: bool
    inverse_mass: float
    moved: bool
    before: Box
    box: Box
    bounds: Box
    neighbours: list[int] = field(default_factory=list)

    def sync(self) -> None:
        """Recompute ``box`` from the transform after the position changed."""
        position = self.transform.position
        offset = self.collider.offset
        self.box = (position.x + offset.x, position.y + offset.y, self.box[2], self.box[3])


class CollisionSystem(esper.Processor):
    """Find every pair of colliders that may overlap this step.

    The broad phase is a uniform grid over each collider's swept bounds (the
    union of its boxes at the start and end of the step), so its cost grows
    linearly with the number of entities. STATIC–STATIC pairs are skipped.
    ``cell_size`` (px) is chosen each step from the typical moving collider
    when left as None. Results are read by the ResponseSystem: ``bodies``
    (entity -> Body, in entity order), ``pairs`` (a < b) and ``grid``.
    """

    def __init__(self, cell_size: float | None = None) -> None:
        self.cell_size = cell_size
        self.bodies: dict[int, Body] = {}
        self.pairs: list[tuple[int, int]] = []
        self.grid = SpatialGrid(64.0)

    def process(self, dt: float) -> None:
        """Collect bodies and candidate pairs for this step."""
        self.bodies = bodies = gather_bodies(self.bodies)
        size = self.cell_size or choose_cell_size(
            max(b.box[2], b.box[3]) for b in bodies.values() if not b.static
        )
        self.grid = grid = SpatialGrid(size)
        for entity, body in bodies.items():
            grid.insert(entity, body.bounds)
        self.pairs = grid.pairs(lambda a, b: bodies[a].static and bodies[b].static)
        for a, b in self.pairs:
            bodies[a].neighbours.append(b)
            bodies[b].neighbours.append(a)


def gather_bodies(previous: dict[int, Body] | None = None) -> dict[int, Body]:
    """Every entity with Transform and Collider as a Body, by entity id.

    Bodies from ``previous`` (the last step's) are reused when the entity
    still has the same components, which saves an allocation per collider.
    """
    previous = previous or {}
    physics_of = dict(esper.get_component(Physics))
    bodies: dict[int, Body] = {}
    rows = sorted(esper.get_components(Transform, Collider), key=itemgetter(0))
    for entity, (transform, collider) in rows:
        physics = physics_of.get(entity)
        start, now, offset = transform.previous_position, transform.position, collider.offset
        w, h = collider.size
        before = (start.x + offset.x, start.y + offset.y, w, h)
        box = (now.x + offset.x, now.y + offset.y, w, h)
        # Swept bounds: the union of the box at the start and at the end.
        left = before[0] if before[0] < box[0] else box[0]
        top = before[1] if before[1] < box[1] else box[1]
        bounds = (left, top, w + abs(box[0] - before[0]), h + abs(box[1] - before[1]))
        body = previous.get(entity)
        if (body is None or body.transform is not transform
                or body.collider is not collider or body.physics is not physics):
            body = Body(entity, transform, collider, physics, False, 0.0, False, before, box, bounds)
        else:
            body.before, body.box, body.bounds = before, box, bounds
            body.neighbours.clear()
        # Type and mass may be changed in place between steps: read them anew.
        body.static = static = collider.type is ColliderType.STATIC
        body.inverse_mass = 0.0 if static or physics is None else 1.0 / physics.mass
        body.moved = now != start
        bodies[entity] = body
    return bodies
