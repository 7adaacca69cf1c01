"""Collider: the axis-aligned box an entity collides with."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any, ClassVar

from pygame import Vector2

from components import limits
from components._checks import Check, Validated, VectorLike, area_size, member_of, vector_within
from components.layers import ALL, Side

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
    """The shape inside a collider's box.

    BOX is the box itself; CIRCLE the circle inscribed in it (the box must
    be square). The four TRIANGLE shapes fill half the box, named by the
    corner that holds the right angle: TRIANGLE_BOTTOM_RIGHT is a floor
    rising to the right ("/"), TRIANGLE_BOTTOM_LEFT a floor rising to the
    left ("\\"), the TOP ones are ceiling slopes; any width and height (a
    32×16 box is a 26.6° ramp). Triangles are for STATIC colliders.
    """

    BOX = "box"
    CIRCLE = "circle"
    TRIANGLE_BOTTOM_LEFT = "triangle_bottom_left"
    TRIANGLE_BOTTOM_RIGHT = "triangle_bottom_right"
    TRIANGLE_TOP_LEFT = "triangle_top_left"
    TRIANGLE_TOP_RIGHT = "triangle_top_right"

    @property
    def triangle(self) -> bool:
        """Whether this is one of the TRIANGLE shapes."""
        return self.value.startswith("triangle")


def _layer_bits(least: int) -> Check:
    """A check for a set of layers: an int in [least, ALL]."""
    def check(name: str, value: object) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= ALL:
            raise ValueError(f"{name} must be an int of 32 layer bits in [{least}, {ALL}] "
                             f"(components.ALL), got {value!r}")
        return value
    return check


@dataclass(slots=True)
class Collider(Validated):
    """An axis-aligned box ``size`` px (w, h) whose top-left is position + offset.

    Width and height lie in (0, 1e12] px: a collider needs an area.
    ``offset`` (px) lets the box differ from the sprite. ``type`` is a
    ``ColliderType``; SOLID by default. ``shape`` is ``Shape.BOX`` (default),
    ``Shape.CIRCLE`` (a circle of diameter w inscribed in the box, which
    must then be square) or one of the TRIANGLE shapes (half the box, for
    STATIC colliders only). Every collider keeps its box for the broad phase.

    ``category`` (the layers it is on, not 0) and ``mask`` (the layers it
    meets) are 32-bit ints, ``components.ALL`` being every layer: a pair
    meets only when each one's category is in the other's mask (Box2D's
    rule); a pair that doesn't meet is never resolved, reported or found by
    a query whose mask excludes it. ``sides`` (a ``Side`` flag) names the
    faces that stop other bodies (a pair collides only where both faces
    toward each other do), and a one-way face (not ``Side.ALL``)
    stops only a body that was entirely outside it when the step began: a
    platform with ``sides=Side.TOP`` is jumped up through and landed on.
    One-way faces are for platforms (STATIC, or a SOLID your code moves): on
    a body with Physics, the faces left out stop nothing, not even a floor.
    Every field is checked when set, at construction and later alike.
    """

    size: Vector2
    offset: Vector2 = field(default_factory=Vector2)
    type: ColliderType = ColliderType.SOLID
    shape: Shape = Shape.BOX
    category: int = 1
    mask: int = ALL
    sides: Side = Side.ALL

    _checks: ClassVar[dict[str, Check]] = {
        "size": area_size(limits.MAX_SIZE),
        "offset": vector_within(limits.MAX_COORDINATE, " px"),
        "type": member_of(ColliderType),
        "shape": member_of(Shape),
        "category": _layer_bits(1),
        "mask": _layer_bits(0),
        "sides": member_of(Side),
    }

    if TYPE_CHECKING:  # the dataclass's __init__ as type checkers should see it: pairs are converted
        def __init__(self, size: VectorLike, offset: VectorLike = ..., type: ColliderType = ...,
                     shape: Shape = ..., category: int = ..., mask: int = ..., sides: Side = ...) -> None: ...

    def _agree(self, name: str, value: Any) -> None:
        size = value if name == "size" else getattr(self, "size", None)
        shape = value if name == "shape" else getattr(self, "shape", None)
        kind = value if name == "type" else getattr(self, "type", None)
        if shape is Shape.CIRCLE and size is not None and size.x != size.y:
            if name == "shape":
                raise ValueError(f"shape CIRCLE needs a square size (d, d), got size {tuple(size)}")
            raise ValueError(f"size of a CIRCLE collider must be square (d, d), got {tuple(size)}")
        if shape is not None and shape.triangle and kind is not None and kind is not ColliderType.STATIC:
            raise ValueError(f"{name}: a {shape.name} collider must be STATIC (triangles are level "
                             f"geometry: ramps and slopes), got type {kind.name}")
