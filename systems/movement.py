"""Movement: gravity, the speed cap and semi-implicit Euler integration."""

from __future__ import annotations

import esper
from pygame import Vector2

from components import Collider, ColliderType, Physics, Transform
from components._checks import finite_vector

__all__ = ["MovementSystem"]


class MovementSystem(esper.Processor):
    """Move every entity that has a Transform and Physics by its velocity.

    Each step: ``previous_position = position``; ``velocity += gravity ·
    gravity_scale · dt`` (not for STATIC colliders, which move only by their
    own velocity, e.g. moving platforms); the speed is clamped to
    ``max_speed``; then ``position += velocity · dt`` (semi-implicit Euler,
    seed 004). ``gravity`` is in px/s², ``dt`` in seconds.
    """

    def __init__(self, gravity: tuple[float, float] | Vector2 = (0.0, 0.0)) -> None:
        self.gravity = finite_vector("gravity", gravity)

    def process(self, dt: float) -> None:
        """Advance every moving entity by ``dt`` seconds."""
        gx = self.gravity.x * dt
        gy = self.gravity.y * dt
        for entity, (transform, physics) in esper.get_components(Transform, Physics):
            position = transform.position
            transform.previous_position.update(position)
            velocity = physics.velocity
            if physics.gravity_scale and (gx or gy) and not _is_static(entity):
                velocity.x += gx * physics.gravity_scale
                velocity.y += gy * physics.gravity_scale
            cap = physics.max_speed
            if cap is not None and velocity.length_squared() > cap * cap:
                velocity.scale_to_length(cap)
            position.x += velocity.x * dt
            position.y += velocity.y * dt


def _is_static(entity: int) -> bool:
    collider = esper.try_component(entity, Collider)
    return collider is not None and collider.type is ColliderType.STATIC
