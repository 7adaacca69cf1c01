"""Sprite: how an entity is drawn; TileChunks: a large picture drawn in chunks made when in view."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

import pygame
from pygame import Vector2

from components import limits
from components._checks import (
    Check, Validated, VectorLike, any_bool, finite_number, finite_vector, non_negative_size, number_in, rgb,
)

__all__ = ["Sprite", "TileChunks"]


def _color(name: str, value: object) -> tuple[int, ...]:
    if (
        not isinstance(value, (tuple, list, pygame.Color))
        or len(value) not in (3, 4)
        or not all(isinstance(c, int) and not isinstance(c, bool) and 0 <= c <= 255 for c in value)
    ):
        raise ValueError(f"{name} must be (r, g, b) or (r, g, b, a) ints in 0..255, got {value!r}")
    return tuple(value)


def _image(name: str, value: object) -> pygame.Surface | None:
    if value is not None and not isinstance(value, pygame.Surface):
        raise ValueError(f"{name} must be a pygame.Surface or None, got {value!r}")
    return value


def _tint(name: str, value: object) -> tuple[int, int, int] | None:
    return None if value is None else rgb(name, value)


def _parallax(name: str, value: object) -> Vector2:
    factors = finite_vector(name, value)
    for axis in ("x", "y"):
        if not 0 <= getattr(factors, axis) <= limits.MAX_PARALLAX:
            raise ValueError(f"{name}.{axis} must be in [0, {limits.MAX_PARALLAX:g}], got {getattr(factors, axis)!r}")
    return factors


def _size(name: str, value: object) -> Vector2 | None:
    return None if value is None else non_negative_size(name, value)


def _layer(name: str, value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"{name} must be an int, got {value!r}")
    return value


@dataclass(slots=True)
class Sprite(Validated):
    """A coloured shape or an image drawn at the entity's Transform.

    - ``color``: (r, g, b) or (r, g, b, a), 0..255; used when there is no image.
    - ``image``: a ``pygame.Surface`` drawn instead of the colour, or None.
    - ``size``: (w, h) px the sprite covers: the image is scaled to it;
      None uses the image's own size, or (no image) the Collider's size.
    - ``offset``: px from the Transform position to the top-left corner.
    - ``layer``: draw order; lower layers first, then by entity id.
    - ``visible``: False skips drawing.
    - ``flip_x`` / ``flip_y``: mirror the image left-right (a character
      facing the other way) / upside down.
    - ``angle``: degrees, clockwise on screen, about the centre of the box.
    - ``scale``: in [0, 1000], about the centre of the box (2.0 doubles it).
    - ``alpha``: opacity in [0, 1] (0 invisible, 1 opaque).
    - ``tint``: (r, g, b) 0..255 the image's colours are multiplied by
      (white leaves them, red keeps only their red), or None.
    - ``parallax``: (x, y) scroll factors: how much of the camera's motion
      moves the sprite on screen; (1, 1) as the world, (0.5, 0.5) distant
      hills at half speed, (0, 0) fixed to the screen. In [0, 100] each.

    Every field is checked when set, at construction and later alike.
    """

    color: tuple[int, ...] = (255, 255, 255)
    image: pygame.Surface | None = None
    size: Vector2 | None = None
    offset: Vector2 = field(default_factory=Vector2)
    layer: int = 0
    visible: bool = True
    flip_x: bool = False
    flip_y: bool = False
    angle: float = 0.0
    scale: float = 1.0
    alpha: float = 1.0
    tint: tuple[int, int, int] | None = None
    parallax: Vector2 = field(default_factory=lambda: Vector2(1, 1))

    _checks: ClassVar[dict[str, Check]] = {
        "color": _color,
        "image": _image,
        "size": _size,
        "offset": finite_vector,
        "layer": _layer,
        "visible": any_bool,
        "flip_x": any_bool,
        "flip_y": any_bool,
        "angle": finite_number,
        "scale": number_in(0.0, limits.MAX_SPRITE_SCALE),
        "alpha": number_in(0.0, 1.0),
        "tint": _tint,
        "parallax": _parallax,
    }

    if TYPE_CHECKING:  # the dataclass's __init__ as type checkers should see it: pairs are converted
        def __init__(self, color: tuple[int, ...] = ..., image: pygame.Surface | None = ...,
                     size: VectorLike | None = ..., offset: VectorLike = ..., layer: int = ...,
                     visible: bool = ..., flip_x: bool = ..., flip_y: bool = ..., angle: float = ...,
                     scale: float = ..., alpha: float = ..., tint: tuple[int, int, int] | None = ...,
                     parallax: VectorLike = ...) -> None: ...

    @property
    def transformed(self) -> bool:
        """Whether it is drawn turned, scaled, faded or tinted (drawn through a transformed copy)."""
        return self.angle % 360 != 0 or self.scale != 1 or self.alpha != 1 or self.tint is not None


def _chunk_size(name: str, value: object) -> tuple[int, int]:
    if (not isinstance(value, tuple) or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in value)):
        raise ValueError(f"{name} must be (w, h), two ints > 0 px, got {value!r}")
    return value


def _chunks(name: str, value: object) -> frozenset[tuple[int, int]]:
    if not isinstance(value, (set, frozenset)) or not all(
            isinstance(c, tuple) and len(c) == 2 and all(isinstance(v, int) and v >= 0 for v in c)
            for c in value):
        raise ValueError(f"{name} must be a set of (column, row) pairs of ints >= 0, got {value!r}")
    return frozenset(value)


def _render(name: str, value: object) -> Callable[[int, int], pygame.Surface]:
    if not callable(value):
        raise ValueError(f"{name} must be a function (column, row) -> pygame.Surface, got {value!r}")
    return value


@dataclass(slots=True)
class TileChunks(Validated):
    """A large picture (a Tiled tile layer) drawn as a grid of chunk images,
    each made when it first comes into view and let go once far from it,
    so a map of any size costs the memory of what is on screen.

    - ``chunk_size``: (w, h) px of one chunk (ints > 0); chunk (column, row)
      has its top-left at the Transform position + (column · w, row · h).
    - ``chunks``: the (column, row) of the chunks that have anything to draw.
    - ``render``: ``render(column, row)`` returns chunk (column, row)'s image
      (of ``chunk_size`` or smaller at the grid's edges); called by the
      renderer the first time the chunk is in view after it was let go.
    - ``layer``, ``visible``, ``parallax``: as for ``Sprite``.
    - ``images``: the chunk images made and kept now, by (column, row)
      (the renderer fills and empties it). Zoomed out, a chunk is kept
      reduced (its full-size image is not kept): see ``details``.
    - ``details``: for each kept image, (divisor, w, h): the chunk's w×h
      px reduced to 1/divisor of its size, divisor a power of two ≥ 1.
    """

    chunk_size: tuple[int, int]
    chunks: frozenset[tuple[int, int]]
    render: Callable[[int, int], pygame.Surface]
    layer: int = 0
    visible: bool = True
    images: dict[tuple[int, int], pygame.Surface] = field(default_factory=dict)
    details: dict[tuple[int, int], tuple[int, int, int]] = field(default_factory=dict)
    parallax: Vector2 = field(default_factory=lambda: Vector2(1, 1))

    _checks: ClassVar[dict[str, Check]] = {
        "chunk_size": _chunk_size,
        "chunks": _chunks,
        "render": _render,
        "layer": _layer,
        "visible": any_bool,
        "parallax": _parallax,
    }

    # The chunk images are a cache the renderer remakes: a snapshot (pickle) keeps what to draw, not them.
    def __getstate__(self) -> tuple[object, ...]:
        return self.chunk_size, self.chunks, self.render, self.layer, self.visible, self.parallax

    def __setstate__(self, state: tuple[object, ...]) -> None:
        for name, value in zip(("chunk_size", "chunks", "render", "layer", "visible", "parallax"), state):
            object.__setattr__(self, name, value)
        object.__setattr__(self, "images", {})
        object.__setattr__(self, "details", {})
