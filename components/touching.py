"""Touching: which sides of an entity rest against something this step."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from components._checks import Check, Validated, any_bool

__all__ = ["Touching"]


@dataclass(slots=True)
class Touching(Validated):
    """Sides on which the entity touched a STATIC or SOLID collider this step.

    Add it to the entities that care (a platformer's player); Response sets
    the flags every step from that step's contacts, in screen directions:
    ``down`` means resting on something below (y grows downward), so a jump
    can be allowed only when ``down`` is True (Phaser's ``blocked.down``).
    TRIGGER contacts don't count.
    """

    down: bool = False
    up: bool = False
    left: bool = False
    right: bool = False

    _checks: ClassVar[dict[str, Check]] = {name: any_bool for name in ("down", "up", "left", "right")}

    def clear(self) -> None:
        """Set every flag to False."""
        self.down = self.up = self.left = self.right = False
