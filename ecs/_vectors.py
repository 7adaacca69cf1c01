"""The check ``World.step`` makes before the physics reads the components: no vector made bad in place.

The components check what is assigned to them (``components._checks``); a Vector2 changed in
place (``transform.position.x = nan``, ``collider.size.update(0, 0)``) is not seen. So every
step checks, at its first physics system and again at one that follows a system of the game's
(which may write them in place), every Transform's position and previous position, every
Physics' velocity and every Collider's offset and size: finite, sizes above 0, and a CIRCLE's
size square. The error names the entity and the field. It also refuses one Transform or Physics
object added to two entities (esper allows it): both would be one body's place or velocity.

The check reads only the vectors, from lists of them it keeps (``Kept`` with ``vectors``): made
again when an entity or a component was added or removed (esper hands back other lists of
components) or a field of one was assigned. An assigned vector is a new object; a vector
changed in place is the same object with a new value, which the kept list still holds. A step
then adds up the squared lengths of the kept vectors, one C call each (cheaper than reading a
vector's ``x`` from Python); a NaN or an infinity makes the sum non-finite, and only then are
the components searched for the culprit. Where the compiled kernels run, one of them reads the
kept vectors where they are and checks them in one pass instead (``storage.all_good``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import chain, repeat
from operator import attrgetter, is_, itemgetter
from typing import Any

from pygame import Vector2

from components import Collider, Physics, Shape, Transform
from systems._world import WorldLike
from systems.physics._bodies.kept import Kept
from systems.physics._bodies.table import VectorList
from systems.physics._stages.storage import all_good

__all__ = ["VectorCheck"]

_square = Vector2.length_squared
_SECOND = itemgetter(1)  # the component of esper's (entity, component)


@dataclass(frozen=True, slots=True)
class _Listed:
    """The vectors checked, listed from esper's lists of (entity, component): each component
    class's list, by field in the order a culprit is looked for, every vector together, the
    sizes, and each CIRCLE's entity and size."""

    fields: tuple[tuple[type, str, list[tuple[int, Any]]], ...]
    vectors: VectorList
    sizes: list[Vector2]
    circles: list[tuple[int, Vector2]]

    @classmethod
    def of(cls, transforms: list[tuple[int, Transform]], physics: list[tuple[int, Physics]],
           colliders: list[tuple[int, Collider]]) -> _Listed:
        """The vectors of these components."""
        fields = ((Transform, "position", transforms), (Transform, "previous_position", transforms),
                  (Physics, "velocity", physics), (Collider, "offset", colliders), (Collider, "size", colliders))
        # A field of a list at a time, through C-level maps: listed anew whenever an entity is
        # made or deleted (a bullet fired), so the cost is per component of the whole world.
        vectors = VectorList(chain.from_iterable(map(attrgetter(field), map(_SECOND, members))
                                                 for _, field, members in fields))
        shapes = map(attrgetter("shape"), map(_SECOND, colliders))
        circles = [(entity, collider.size) for (entity, collider), circle
                   in zip(colliders, map(is_, shapes, repeat(Shape.CIRCLE))) if circle]
        return cls(fields, vectors, vectors[len(vectors) - len(colliders):], circles)  # (the sizes come last)


class VectorCheck:
    """The check (``check``), and the vectors it keeps listed from step to step."""

    __slots__ = ("_listed", "_unshared")

    def __init__(self) -> None:
        self._listed = Kept(_Listed.of, vectors=True)
        self._unshared: tuple[object, ...] = ()  # esper's lists last found to share no component

    def _check_unshared(self, world: WorldLike) -> None:
        """Raise ``ValueError`` naming both entities if one Transform or one Physics object is
        on two entities (looked for again when a component was added or removed)."""
        transforms, physics = world.get_component(Transform), world.get_component(Physics)
        if len(self._unshared) == 2 and self._unshared[0] is transforms and self._unshared[1] is physics:
            return
        _refuse_shared(Transform, transforms)
        _refuse_shared(Physics, physics)
        self._unshared = transforms, physics

    def check(self, world: WorldLike) -> None:
        """Raise ``ValueError`` naming the entity and the field if a vector of ``world``'s
        components is not finite, a size is not above 0 or a CIRCLE's size is not square, and
        naming both entities if one Transform or one Physics is on two."""
        self._check_unshared(world)
        listed = self._listed(world.get_component(Transform), world.get_component(Physics),
                              world.get_component(Collider))
        if not _all_good(listed):
            for kind, field, members in listed.fields:
                _raise_bad_vector(kind, field, members)
        for entity, size in listed.circles:
            if size[0] != size[1]:
                raise ValueError(f"entity {entity}: Collider.size is {tuple(size)}, set in place since the last "
                                 f"step; a CIRCLE's must be square (d, d)")


def _refuse_shared(kind: type, members: list[tuple[int, Any]]) -> None:
    """Raise if one ``kind`` component object is on two entities of esper's (entity,
    component) list: a body's place and velocity are its own (shared, Movement would move one
    once for each entity, and the core collide it with itself). (A Collider may be shared: it
    only describes a shape.)"""
    if len(set(map(id, map(_SECOND, members)))) == len(members):
        return
    owners: dict[int, int] = {}
    for entity, component in sorted(members, key=lambda row: row[0]):
        owner = owners.setdefault(id(component), entity)
        if owner != entity:
            raise ValueError(f"entities {owner} and {entity} share one {kind.__name__} object; each entity needs "
                             f"its own (make one {kind.__name__} per entity)")


def _all_good(listed: _Listed) -> bool:
    """Whether every listed vector is finite and every size above 0 (its two components)."""
    good = all_good(listed.vectors, len(listed.vectors) - len(listed.sizes))
    if good is not None:
        return good
    total = sum(map(_square, listed.vectors))
    return math.isfinite(total) and min(chain.from_iterable(listed.sizes), default=1.0) > 0.0


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
