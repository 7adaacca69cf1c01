"""What a step reads from fields that change only by assignment, kept until one is assigned.

A collider's type, shape, layers and faces and a body's mass, elasticity,
friction, gravity scale, speed cap, ground snap and damping are read for every body,
yet change only when a game assigns them (every other field of ``Collider``
and ``Physics`` is a Vector2, which changes in place and is read every
step). ``components._checks.assignments`` stamps those assignments by class,
so a stage can read such fields once and keep what it read while neither
stamp changes and its components are the same objects: Bevy's change
detection, per component class rather than per component. A list of the
Vector2s themselves stays true, too, while none is assigned
(``components._checks.replacements``): their values change in place, the
objects don't.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

from components import Collider, Physics, Transform
from components._checks import assignments, replacements

__all__ = ["Kept"]

T = TypeVar("T")


class Kept(Generic[T]):
    """``read(*sources)``, made again only when called with other objects
    (compared by identity: the lists or tables of components it reads) or
    when a value other than a Vector2 was assigned to a Collider or a
    Physics since it was last made; with ``vectors``, also when a Vector2
    was assigned to a Transform, a Collider or a Physics (for a ``read``
    that lists the vectors themselves)."""

    __slots__ = ("_read", "_vectors", "_sources", "_stamps", "_value")

    def __init__(self, read: Callable[..., T], vectors: bool = False) -> None:
        self._read = read
        self._vectors = vectors
        self._sources: tuple[object, ...] | None = None
        self._stamps: tuple[int, ...] = ()
        self._value: T | None = None

    def __call__(self, *sources: object) -> T:
        stamps: tuple[int, ...] = (assignments(Collider), assignments(Physics))
        if self._vectors:
            stamps += (replacements(Transform), replacements(Collider), replacements(Physics))
        kept = self._sources
        if (kept is None or stamps != self._stamps or len(kept) != len(sources)
                or any(new is not old for new, old in zip(sources, kept))):
            self._value = self._read(*sources)
            self._sources, self._stamps = sources, stamps
        return self._value  # type: ignore[return-value]
