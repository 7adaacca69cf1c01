"""Collider: the axis-aligned box an entity collides with."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from pygame import Vector2

from components._checks import at_least, finite_vector

__all__ = ["ColliderType", "Collider"]


class ColliderType(Enum):
    """How a collider takes part in collision response.

    STATIC colliders are never moved by collisions (ground, walls, moving
    platforms: they move only by their own velocity). SOLID colliders are
    pushed back out of whatever they overlap.
    """

    STATIC = "static"
    SOLID = "solid"


@dataclass(slots=True)
class Collider:
    """An axis-aligned box ``size`` px (w, h) whose top-left is position + offset.

    ``offset`` (px) lets the box differ from the sprite. ``type`` is a
    ``ColliderType``; SOLID by default.
    """

    size: Vector2
    offset: Vector2 = field(default_factory=Vector2)
    type: ColliderType = ColliderType.SOLID

    def __post_init__(self) -> None:
        self.size = finite_vector("size", self.size)
        at_least("size.x", self.size.x, 0.0)
        at_least("size.y", self.size.y, 0.0)
        self.offset = finite_vector("offset", self.offset)
        if not isinstance(self.type, ColliderType):
            raise ValueError(f"type must be a ColliderType, got {self.type!r}")
