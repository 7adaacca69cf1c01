"""Transform: where an entity is."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from pygame import Vector2

from components import limits
from components._checks import Check, Validated, VectorLike, vector_within

__all__ = ["Transform"]


@dataclass(slots=True)
class Transform(Validated):
    """The entity's origin in pixels; y grows downward.

    ``position`` is a ``pygame.Vector2`` in px. ``previous_position`` is where
    the entity was before the latest Movement step (equal to ``position`` at
    creation); Response reads it to tell which side a body came from and
    whether it moved at all. Both are checked when set: finite, each
    component within ±1e12 px.
    """

    position: Vector2 = field(default_factory=Vector2)
    previous_position: Vector2 = field(init=False)

    _checks: ClassVar[dict[str, Check]] = {
        "position": vector_within(limits.MAX_COORDINATE, " px"),
        "previous_position": vector_within(limits.MAX_COORDINATE, " px"),
    }

    if TYPE_CHECKING:  # the dataclass's __init__ as type checkers should see it: a pair is converted
        def __init__(self, position: VectorLike = ...) -> None: ...

    def __post_init__(self) -> None:
        self.previous_position = Vector2(self.position)
