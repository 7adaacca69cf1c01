"""Collider: the axis-aligned box an entity collides with."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from pygame import Vector2

from components._checks import at_least, finite_vector

__all__ = ["ColliderType", "Collider", "Shape"]


class ColliderType(Enum):
    """How a collider takes part in collision response.

    STATIC colliders are never moved by collisions (ground, walls, moving
    platforms: they move only by their own velocity). SOLID colliders are
    pushed back out of whatever they overlap. TRIGGER colliders are detected
    and reported (contacts, collision handlers) but never push, are never
    pushed and never change a velocity: coins, checkpoints, damage zones.
    """

    STATIC = "static"
    SOLID = "solid"
    TRIGGER = "trigger"


class Shape(Enum):
    """The shape inside a collider's box: the box itself, or its inscribed circle."""

    BOX = "box"
    CIRCLE = "circle"


@dataclass(slots=True)
class Collider:
    """An axis-aligned box ``size`` px (w, h) whose top-left is position + offset.

    ``offset`` (px) lets the box differ from the sprite. ``type`` is a
    ``ColliderType``; SOLID by default. ``shape`` is ``Shape.BOX`` (default)
    or ``Shape.CIRCLE``: a circle of diameter w inscribed in the box, which
    must then be square. Every collider keeps its box for the broad phase.
    """

    size: Vector2
    offset: Vector2 = field(default_factory=Vector2)
    type: ColliderType = ColliderType.SOLID
    shape: Shape = Shape.BOX

    def __post_init__(self) -> None:
        self.size = finite_vector("size", self.size)
        at_least("size.x", self.size.x, 0.0)
        at_least("size.y", self.size.y, 0.0)
        self.offset = finite_vector("offset", self.offset)
        if not isinstance(self.type, ColliderType):
            raise ValueError(f"type must be a ColliderType, got {self.type!r}")
        if not isinstance(self.shape, Shape):
            raise ValueError(f"shape must be a Shape, got {self.shape!r}")
        if self.shape is Shape.CIRCLE and self.size.x != self.size.y:
            raise ValueError(f"size of a CIRCLE collider must be square (d, d), got {tuple(self.size)}")
