"""Contact: one resolved collision between two entities."""

from __future__ import annotations

from typing import Any

from pygame import Vector2

__all__ = ["Contact", "Shapes"]

#: Two shapes as they touched: (box_a, shape_a, box_b, shape_b), boxes as
#: (left, top, width, height) px, shapes ``components.Shape`` members.
Shapes = tuple[tuple[float, float, float, float], Any, tuple[float, float, float, float], Any]


class Contact:
    """A collision resolved (or, for a TRIGGER, detected) during a step.

    ``a`` and ``b`` are entity ids, ``a`` < ``b`` unless a handler asked for
    another order (``between``); ``normal`` is a unit ``Vector2`` pointing
    from a to b; ``depth`` (px, >= 0) is the penetration that was resolved
    (for a swept impact, how far the pair would have gone into each other by
    the end of the step), summed over the pair's impacts and pushes in the
    step. ``trigger`` is True when either is a TRIGGER: such contacts are
    only reported, never resolved. ``point`` (world px) lies on
    the touching surfaces; ``time`` in [0, 1] is the fraction of the step at
    which they met (0 for overlaps pushed apart); ``surface`` (px) is the
    length of the touching faces, 0 where a round shape touches.

    Unless it is given, ``point`` is worked out from ``shapes`` (the two
    shapes as they touched) when first read, as most contacts' points never
    are.
    """

    __slots__ = ("a", "b", "normal", "depth", "trigger", "time", "surface", "_point", "_shapes")

    def __init__(self, a: int, b: int, normal: Vector2, depth: float, trigger: bool = False,
                 point: Vector2 | None = None, time: float = 0.0, surface: float = 0.0,
                 shapes: Shapes | None = None) -> None:
        self.a, self.b, self.normal, self.depth, self.trigger = a, b, normal, depth, trigger
        self.time, self.surface = time, surface
        self._point = point
        self._shapes = shapes

    @property
    def point(self) -> Vector2:
        """A point on the touching surfaces (world px)."""
        if self._point is None:
            if self._shapes is None:
                self._point = Vector2()
            else:
                from systems.physics._shapes.narrowphase import contact_point  # geometry, imported on first use

                box_a, shape_a, box_b, shape_b = self._shapes
                self._point = contact_point(box_a, shape_a, box_b, shape_b, self.normal)
        return self._point

    @point.setter
    def point(self, value: Vector2) -> None:
        self._point = Vector2(value)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Contact):
            return NotImplemented
        return (self.a, self.b, self.normal, self.depth, self.trigger, self.point, self.time, self.surface) == (
            other.a, other.b, other.normal, other.depth, other.trigger, other.point, other.time, other.surface)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"Contact(a={self.a}, b={self.b}, normal={self.normal}, depth={self.depth}, "
                f"trigger={self.trigger}, point={self.point}, time={self.time}, surface={self.surface})")
