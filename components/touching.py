"""Touching: which sides of an entity rest against something this step."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from components._checks import Check, Validated, any_bool

__all__ = ["Touching"]


def _entity_or_none(name: str, value: object) -> int | None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
        raise ValueError(f"{name} must be an entity id or None, got {value!r}")
    return value


@dataclass(slots=True)
class Touching(Validated):
    """Sides on which the entity touched a STATIC or SOLID collider this step.

    Add it to the entities that care (a platformer's player); Response sets
    the flags every step from that step's contacts, in screen directions:
    ``down`` means resting on something below (y grows downward), so a jump
    can be allowed only when ``down`` is True (Phaser's ``blocked.down``).
    ``ground`` is the entity stood on this step: of the contacts below, the
    one with the longest touching surface (ties to the smaller id), or
    None. TRIGGER contacts don't count.
    """

    down: bool = False
    up: bool = False
    left: bool = False
    right: bool = False
    ground: int | None = None

    _checks: ClassVar[dict[str, Check]] = {
        **{name: any_bool for name in ("down", "up", "left", "right")},
        "ground": _entity_or_none,
    }

    def clear(self) -> None:
        """Set every flag to False, and ``ground`` to None."""
        self.down = self.up = self.left = self.right = False
        self.ground = None
