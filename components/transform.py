"""Transform: where an entity is."""

from __future__ import annotations

from dataclasses import dataclass, field

from pygame import Vector2

from components._checks import finite_vector

__all__ = ["Transform"]


@dataclass(slots=True)
class Transform:
    """The entity's origin in pixels; y grows downward.

    ``position`` is a ``pygame.Vector2`` in px. ``previous_position`` is where
    the entity was before the latest Movement step (equal to ``position`` at
    creation); Response reads it to tell which side a body came from and
    whether it moved at all.
    """

    position: Vector2 = field(default_factory=Vector2)
    previous_position: Vector2 = field(init=False)

    def __post_init__(self) -> None:
        self.position = finite_vector("position", self.position)
        self.previous_position = Vector2(self.position)
