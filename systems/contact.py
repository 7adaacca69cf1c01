"""Contact: one resolved collision between two entities."""

from __future__ import annotations

from dataclasses import dataclass

from pygame import Vector2

__all__ = ["Contact"]


@dataclass(slots=True)
class Contact:
    """A collision resolved during a step.

    ``a`` < ``b`` are entity ids; ``normal`` is a unit ``Vector2`` pointing
    from a to b; ``depth`` (px, >= 0) is the penetration that was resolved
    (for a swept impact, how far the pair would have gone into each other by
    the end of the step). ``trigger`` is True when either is a TRIGGER: such
    contacts are only reported, never resolved.
    """

    a: int
    b: int
    normal: Vector2
    depth: float
    trigger: bool = False
