"""Body arrays: every collider's components read into NumPy arrays at once.

A pass of Python over the bodies costs about a microsecond a body for each
handful of fields it reads (each Vector2 component read makes a float
object); ``np.fromiter`` over the same Vector2s reads a field of 10,000
bodies in about a millisecond. So the stages that want every body's state
as arrays read it here, straight from the components, rather than from the
``Body`` objects Collision keeps (Box2D v3 keeps its body state in a small
struct "designed for scatter-gather" for the same reason).

``Columns`` holds the components in entity order; CollisionSystem makes
it whenever its bodies are rebuilt (an entity or a component added or
removed), so it always lists the colliders of the step. Collision reads
where its movers are (``read_geometry``: the grid's swept bounds come from
it, and the boxes of the bodies it makes); ``read_arrays`` reads bodies for
the compiled core, taking their geometry where Collision read it already. The
float operations are those of ``read`` and ``refresh`` (``systems.physics._stages.found``),
so the arrays agree with the bodies bit for bit.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import chain
from typing import Any

import numpy as np
from pygame import Vector2

from components import Collider, ColliderType, Physics, Transform

__all__ = ["Arrays", "Columns", "Geometry", "Materials", "Read", "Selection", "VectorList", "Vectors", "entity_pairs",
           "joined", "read_arrays", "read_geometry", "read_vectors"]

_STATIC, _SOLID = ColliderType.STATIC, ColliderType.SOLID


@dataclass(frozen=True, slots=True)
class Columns:
    """The colliders' components, one entry per body in entity order;
    ``physics`` holds None for a collider without Physics, ``moving`` the
    indices of those with it."""

    entities: np.ndarray
    transforms: list[Transform]
    colliders: list[Collider]
    physics: list[Physics | None]
    moving: np.ndarray

    @classmethod
    def of(cls, rows: list[tuple[int, Transform, Collider, Physics | None]]) -> Columns:
        """Columns of ``(entity, transform, collider, physics)`` rows, in entity order."""
        return cls(np.array([row[0] for row in rows], np.int64), [row[1] for row in rows],
                   [row[2] for row in rows], [row[3] for row in rows],
                   np.array([i for i, row in enumerate(rows) if row[3] is not None], np.int64))


@dataclass(frozen=True, slots=True)
class Geometry:
    """Where some bodies are this step, a row each: the position at the
    start of the step and now, the collider's offset and size (px, each
    (n, 2))."""

    start: np.ndarray
    now: np.ndarray
    offset: np.ndarray
    size: np.ndarray

    def take(self, picks: np.ndarray) -> Geometry:
        """The rows ``picks`` (indices) of it."""
        return Geometry(self.start[picks], self.now[picks], self.offset[picks], self.size[picks])


class VectorList(list[Vector2]):
    """Vector2s of one field of some bodies, in the bodies' order, and where pygame keeps their
    coordinates once a stage has looked (``addresses``, int64, or None:
    ``systems.physics._stages.storage``). The list holds its vectors alive, so the addresses
    hold as long as it does; it is never changed once made."""

    __slots__ = ("addresses",)

    def __init__(self, vectors: Iterable[Vector2] = ()) -> None:
        super().__init__(vectors)
        self.addresses: np.ndarray | None = None

    def __reduce__(self) -> tuple[type[VectorList], tuple[list[Vector2]]]:
        # A copy or a pickle holds other vectors: never these addresses.
        return VectorList, (list(self),)


#: How a stage reads a list of Vector2s into an (n, 2) array (``read_vectors``, or the
#: compiled read of ``systems.physics._stages.storage``: the same bits).
Read = Callable[[list[Vector2]], np.ndarray]


@dataclass(frozen=True, slots=True)
class Vectors:
    """The Vector2s some bodies' ``Geometry`` is read from, a list per field in the bodies'
    order: each previous position, position, collider offset and size. Such lists stay true
    while no vector of a Transform or a Collider is assigned (``Kept`` with ``vectors``): the
    values change in place, the objects don't, and a read then skips the components."""

    start: VectorList
    now: VectorList
    offset: VectorList
    size: VectorList

    @classmethod
    def of(cls, transforms: list[Transform], colliders: list[Collider]) -> Vectors:
        """The vectors of the bodies with these components (in that order)."""
        # List comprehensions: a specialised attribute read, faster than map over an attrgetter.
        return cls(VectorList([t.previous_position for t in transforms]), VectorList([t.position for t in transforms]),
                   VectorList([c.offset for c in colliders]), VectorList([c.size for c in colliders]))


def read_geometry(vectors: Vectors, read: Read | None = None) -> Geometry:
    """The ``Geometry`` of the bodies whose vectors these are, read now (by ``read``, default
    ``read_vectors``)."""
    read = read or read_vectors
    return Geometry(read(vectors.start), read(vectors.now), read(vectors.offset), read(vectors.size))


@dataclass(frozen=True, slots=True)
class Arrays:
    """Some of one step's bodies as arrays, a row each, in entity order: the
    position at the start of the step and now, the collider's offset and
    size (px, each (n, 2)); velocity (px/s, (n, 2), 0 without Physics),
    inverse mass (0 for STATICs and bodies without Physics), elasticity and
    friction (0 without Physics), and whether each is STATIC and has Physics."""

    start: np.ndarray
    now: np.ndarray
    offset: np.ndarray
    size: np.ndarray
    velocity: np.ndarray
    inverse_mass: np.ndarray
    elasticity: np.ndarray
    friction: np.ndarray
    static: np.ndarray
    physics: np.ndarray


def joined(first: list[tuple[int, Any]],
           second: list[tuple[int, Any]]) -> tuple[list[int], list[Any], list[Any]]:
    """The entities in both of esper's lists of (entity, component), each of one component type,
    ascending, and their components from each. (Joined here a field at a time: esper makes its
    list of two types together entity by entity, at several times the cost, and makes its lists
    anew each time an entity is made or deleted.)"""
    ones, twos = dict(first), dict(second)
    entities = sorted(ones.keys() & twos.keys())
    return entities, list(map(ones.__getitem__, entities)), list(map(twos.__getitem__, entities))


def entity_pairs(entities: np.ndarray, rows: np.ndarray) -> Iterator[tuple[int, int]]:
    """Pairs of rows (an (m, 2) array) as pairs of ``entities`` (a column
    at a time: a list per row would be an object for the collector)."""
    ids = entities[rows.reshape(-1, 2)]
    return zip(ids[:, 0].tolist(), ids[:, 1].tolist())


def read_vectors(vectors: list[Vector2]) -> np.ndarray:
    """Vector2s as an (n, 2) array, read from Python (fromiter: the cheapest such read measured)."""
    return np.fromiter(chain.from_iterable(vectors), float, 2 * len(vectors)).reshape(-1, 2)


@dataclass(frozen=True, slots=True)
class Selection:
    """The components of some rows of ``Columns`` (ascending), picked once and kept while
    the columns are (a component's fields are read anew each step, its identity is not):
    the ``colliders`` and ``physics`` (None without) of each row, the indices of the rows
    with Physics (``moving``) and their Physics in that order (``movers``)."""

    rows: np.ndarray
    colliders: list[Collider]
    physics: list[Physics | None]
    moving: np.ndarray
    movers: list[Physics]

    @classmethod
    def of(cls, columns: Columns, rows: np.ndarray) -> Selection:
        """The selection of ``rows`` of ``columns``."""
        listed = rows.tolist()
        physics = [columns.physics[row] for row in listed]
        return cls(rows, [columns.colliders[row] for row in listed], physics,
                   np.array([i for i, body in enumerate(physics) if body is not None], np.int64),
                   [body for body in physics if body is not None])


@dataclass(frozen=True, slots=True)
class Materials:
    """What some bodies' fields that change only by assignment give the core, a row each:
    inverse mass (0 for STATICs, TRIGGERs and bodies without Physics), elasticity and
    friction (0 without Physics), and whether each is STATIC and has Physics."""

    inverse_mass: np.ndarray
    elasticity: np.ndarray
    friction: np.ndarray
    static: np.ndarray
    physics: np.ndarray

    @classmethod
    def of(cls, picked: Selection) -> Materials:
        """The materials of the bodies of ``picked``, read from their components now."""
        colliders, moving, movers = picked.colliders, picked.moving, picked.movers
        n = len(colliders)
        elasticity, friction, inverse_mass, has_physics = np.zeros(n), np.zeros(n), np.zeros(n), np.zeros(n, bool)
        types = [collider.type for collider in colliders]
        static = np.zeros(n, bool)
        if _STATIC in types:
            static[:] = [kind is _STATIC for kind in types]
        if movers:
            count = len(movers)
            elasticity[moving] = np.fromiter([body.elasticity for body in movers], float, count)
            friction[moving] = np.fromiter([body.friction for body in movers], float, count)
            has_physics[moving] = True
            # read: 1/mass, but 0 for a STATIC or a TRIGGER
            mass = np.fromiter([body.mass for body in movers], float, count)
            solid = np.ones(count, bool)
            if types.count(_SOLID) != n:
                solid[:] = [types[i] is _SOLID for i in moving.tolist()]
            inverse_mass[moving] = np.where(solid, 1.0 / mass, 0.0)
        return cls(inverse_mass, elasticity, friction, static, has_physics)


def read_arrays(columns: Columns, rows: np.ndarray | Selection, geometry: Geometry | None = None,
                materials: Materials | None = None, velocities: list[Vector2] | None = None,
                read: Read | None = None) -> Arrays:
    """Read the bodies of ``rows`` (of ``columns``, ascending, or a ``Selection`` of them) from
    their components at once (``Arrays``, row i being body ``rows[i]``), taking their geometry
    from ``geometry`` and their materials from ``materials`` when they were read already, and
    their velocities from ``velocities`` (the Physics' vectors, in ``movers`` order) when they
    were listed already (and read by ``read``, default ``read_vectors``); TRIGGERs count as bodies
    without Physics would (no inverse mass)."""
    picked = rows if isinstance(rows, Selection) else Selection.of(columns, rows)
    if geometry is None:
        geometry = read_geometry(Vectors.of([columns.transforms[row] for row in picked.rows.tolist()],
                                            picked.colliders))
    if materials is None:
        materials = Materials.of(picked)
    velocity = np.zeros((len(picked.colliders), 2))
    if picked.movers:
        listed = [body.velocity for body in picked.movers] if velocities is None else velocities
        velocity[picked.moving] = (read or read_vectors)(listed)
    return Arrays(geometry.start, geometry.now, geometry.offset, geometry.size, velocity, materials.inverse_mass,
                  materials.elasticity, materials.friction, materials.static, materials.physics)
