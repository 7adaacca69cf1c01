"""The check ``World.step`` makes before anything moves: no vector made bad in place.

The components check what is assigned to them (``components._checks``); a Vector2 changed in
place (``transform.position.x = nan``, ``collider.size.update(0, 0)``) is not seen. So every
step begins by checking every Transform's position and previous position, every Physics'
velocity and every Collider's offset and size: finite, sizes above 0, and a CIRCLE's size
square. The error names the entity and the field.

The check reads only the vectors. It keeps a list of them per component class. The list is
made again only when an entity or a component was added or removed (esper hands back another
list of components), or when a vector or another field of that class was assigned
(``components._checks.replacements`` and ``assignments``). An assigned vector is a new
object; a vector changed in place is the same object with a new value, which the kept list
still holds. A step then adds up the squared lengths of the kept vectors: one C call per
vector, which is cheaper than reading its ``x`` from Python. A NaN or an infinity makes the
sum non-finite. Only then are the components searched for the culprit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import chain
from typing import Any

from pygame import Vector2

from components import Collider, Physics, Shape, Transform
from components._checks import Validated, assignments, replacements
from systems._world import WorldLike

__all__ = ["VectorCheck"]

#: The vector fields checked, by component class, in the order a culprit is looked for.
_FIELDS: tuple[tuple[type[Validated], tuple[str, ...]], ...] = (
    (Transform, ("position", "previous_position")), (Physics, ("velocity",)), (Collider, ("offset", "size")),
)
_square = Vector2.length_squared


@dataclass(frozen=True, slots=True)
class _Listed:
    """One component class's vectors as last listed: esper's list of (entity, component) they
    came from, the class's counts of assignments then, every vector field's Vector2s, and
    (for Collider) the sizes and each CIRCLE's entity and size."""

    components: list[tuple[int, Any]]
    counts: tuple[int, int]
    vectors: list[Vector2]
    sizes: list[Vector2]
    circles: list[tuple[int, Vector2]]

    @classmethod
    def of(cls, kind: type[Validated], fields: tuple[str, ...], components: list[tuple[int, Any]],
           counts: tuple[int, int]) -> _Listed:
        """The vectors of ``components`` (esper's list of ``kind``)."""
        vectors = [getattr(component, field) for field in fields for _, component in components]
        if kind is not Collider:
            return cls(components, counts, vectors, [], [])
        return cls(components, counts, vectors, [collider.size for _, collider in components],
                   [(entity, collider.size) for entity, collider in components if collider.shape is Shape.CIRCLE])


class VectorCheck:
    """The check (``check``), and the vectors it keeps from step to step."""

    __slots__ = ("_listed",)

    def __init__(self) -> None:
        self._listed: dict[type, _Listed] = {}

    def check(self, world: WorldLike) -> None:
        """Raise ``ValueError`` naming the entity and the field if a vector of ``world``'s
        components is not finite, a size is not above 0 or a CIRCLE's size is not square."""
        total = 0.0
        for kind, fields in _FIELDS:
            total += sum(map(_square, self._vectors(world, kind, fields).vectors))
        colliders = self._listed[Collider]
        if not (math.isfinite(total) and min(chain.from_iterable(colliders.sizes), default=1.0) > 0.0):
            for kind, fields in _FIELDS:
                for field in fields:
                    _raise_bad_vector(kind, field, self._listed[kind].components)
        for entity, size in colliders.circles:
            if size[0] != size[1]:
                raise ValueError(f"entity {entity}: Collider.size is {tuple(size)}, set in place since the last "
                                 f"step; a CIRCLE's must be square (d, d)")

    def _vectors(self, world: WorldLike, kind: type[Validated], fields: tuple[str, ...]) -> _Listed:
        """``kind``'s vectors, listed again if its components or their fields were replaced."""
        components = world.get_component(kind)
        counts = (assignments(kind), replacements(kind))
        listed = self._listed.get(kind)
        if listed is None or listed.components is not components or listed.counts != counts:
            listed = self._listed[kind] = _Listed.of(kind, fields, components, counts)
        return listed


def _raise_bad_vector(kind: type, field: str, members: list[tuple[int, Any]]) -> None:
    """Raise for the first entity (by id) whose ``field`` vector is bad."""
    for entity, component in sorted(members, key=lambda row: row[0]):
        vector = getattr(component, field)
        for axis in ("x", "y"):
            value = getattr(vector, axis)
            if not math.isfinite(value) or (field == "size" and value <= 0):
                raise ValueError(
                    f"entity {entity}: {kind.__name__}.{field}.{axis} is {value!r}, set in place "
                    f"since the last step; it must be finite{' and > 0' if field == 'size' else ''}"
                )
