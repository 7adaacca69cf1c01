"""Contact: one resolved collision between two entities."""

from __future__ import annotations

from dataclasses import dataclass

from pygame import Vector2

__all__ = ["Contact"]


@dataclass(slots=True)
class Contact:
    """A collision resolved during a step.

    ``a`` < ``b`` are entity ids; ``normal`` is a unit ``Vector2`` pointing
    from a to b; ``depth`` (px, >= 0) is the penetration that was resolved.
    """

    a: int
    b: int
    normal: Vector2
    depth: float
