"""Contact: one resolved collision between two entities."""

from __future__ import annotations

from dataclasses import dataclass, field

from pygame import Vector2

__all__ = ["Contact"]


@dataclass(slots=True)
class Contact:
    """A collision resolved (or, for a TRIGGER, detected) during a step.

    ``a`` and ``b`` are entity ids, ``a`` < ``b`` unless a handler asked for
    another order (``between``); ``normal`` is a unit ``Vector2`` pointing
    from a to b; ``depth`` (px, >= 0) is the penetration that was resolved
    (for a swept impact, how far the pair would have gone into each other by
    the end of the step). ``trigger`` is True when either is a TRIGGER: such
    contacts are only reported, never resolved. ``point`` (world px) lies on
    the touching surfaces; ``time`` in [0, 1] is the fraction of the step at
    which they met (0 for overlaps pushed apart); ``surface`` (px) is the
    length of the touching faces, 0 where a round shape touches.
    """

    a: int
    b: int
    normal: Vector2
    depth: float
    trigger: bool = False
    point: Vector2 = field(default_factory=Vector2)
    time: float = 0.0
    surface: float = 0.0

    def flipped(self) -> Contact:
        """The same contact seen from b: a and b swapped, the normal reversed."""
        return Contact(self.b, self.a, -self.normal, self.depth, self.trigger, Vector2(self.point),
                       self.time, self.surface)
