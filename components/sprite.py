"""Sprite: how an entity is drawn."""

from __future__ import annotations

from dataclasses import dataclass, field

import pygame
from pygame import Vector2

from components._checks import finite_vector

__all__ = ["Sprite"]


def _color(field_name: str, value: object) -> tuple[int, ...]:
    if (
        not isinstance(value, (tuple, list, pygame.Color))
        or len(value) not in (3, 4)
        or not all(isinstance(c, int) and not isinstance(c, bool) and 0 <= c <= 255 for c in value)
    ):
        raise ValueError(f"{field_name} must be (r, g, b) or (r, g, b, a) ints in 0..255, got {value!r}")
    return tuple(value)


@dataclass(slots=True)
class Sprite:
    """A coloured shape or an image drawn at the entity's Transform.

    - ``color``: (r, g, b) or (r, g, b, a), 0..255; used when there is no image.
    - ``image``: a ``pygame.Surface`` drawn instead of the colour, or None.
    - ``size``: (w, h) px; None uses the entity's Collider size.
    - ``offset``: px from the Transform position to the top-left corner.
    - ``layer``: draw order; lower layers first, then by entity id.
    - ``visible``: False skips drawing.
    - ``flip_x`` / ``flip_y``: mirror the image left-right (a character
      facing the other way) / upside down.
    """

    color: tuple[int, ...] = (255, 255, 255)
    image: pygame.Surface | None = None
    size: Vector2 | None = None
    offset: Vector2 = field(default_factory=Vector2)
    layer: int = 0
    visible: bool = True
    flip_x: bool = False
    flip_y: bool = False

    def __post_init__(self) -> None:
        self.color = _color("color", self.color)
        if self.image is not None and not isinstance(self.image, pygame.Surface):
            raise ValueError(f"image must be a pygame.Surface or None, got {self.image!r}")
        if self.size is not None:
            self.size = finite_vector("size", self.size)
            if self.size.x < 0 or self.size.y < 0:
                raise ValueError(f"size must not be negative, got {tuple(self.size)}")
        self.offset = finite_vector("offset", self.offset)
        if not isinstance(self.layer, int) or isinstance(self.layer, bool):
            raise ValueError(f"layer must be an int, got {self.layer!r}")
        for name in ("visible", "flip_x", "flip_y"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be a bool, got {getattr(self, name)!r}")
