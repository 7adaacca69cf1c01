"""The collide stage: gather the colliders and find the pairs that may touch.

``Collide`` owns what the broad phase keeps from step to step, for the life of
its World: every collider's ``Body``, the grid and its cell size, the
colliders' table (rebuilt when an entity or a component is added or
removed), level geometry's filing (``_Resting``), esper's lists it was built
from, the step count, the compiled broad phase's room for pairs and the
bodies without Physics to settle at the end of a step. Each run makes a
fresh ``Found`` (``systems.physics._stages.found``): this step's bodies and
candidate pairs, which the later stages resolve. ``systems.physics.collision
.CollisionSystem`` is this stage run as a system."""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass
from itertools import compress, repeat
from operator import attrgetter, is_, is_not, itemgetter
from typing import Any, cast

import numpy as np

from components import ALL, Collider, ColliderType, Physics, Transform
from components._checks import assignments, replacements
from systems.physics._kernels import background
from systems.physics._bodies.body import Bodies, Body
from systems.physics._bodies.kept import Kept
from systems.physics._bodies.kinds import LAYERED, MOVING_STATIC, ONE_WAY, TRIGGER, kinds_of
from systems.physics._bodies.table import Columns, Geometry, Vectors, joined, read_geometry
from systems.physics._broad.grid import SpatialGrid, choose_cell_size
from systems.physics._kernels.pairs import APART, DONE, FULL, LEVEL, SKIP, every_row
from systems.physics._kernels.plain import Kernels
from systems.physics._stages import storage
from systems.physics._stages.found import Found, LevelRead, is_level, read, refresh, spliced
from systems._world import WorldLike

__all__ = ["Bodies", "Body", "Collide", "Found"]

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class _MoverKinds:
    """What the movers' types, shapes, layers, faces and materials say (kept while none of
    them is assigned, ``Kept``): their kind bits together, and the entities and rows that
    are STATIC (moving platforms, or a type changed in place) and, of those, the ones
    without Physics, to file as level geometry."""

    kinds: int
    static_entities: list[int]
    static_rows: np.ndarray
    level_entities: list[int]
    level_rows: np.ndarray

    @classmethod
    def of(cls, movers: _Movers) -> _MoverKinds:
        """The kinds of ``movers``, read from their components now."""
        types = [collider.type for collider in movers.colliders]
        kinds = kinds_of(types, movers.colliders, movers.physics)
        if _STATIC not in types:
            return cls(kinds, [], _NO_ROWS, [], _NO_ROWS)
        static = np.array([kind is _STATIC for kind in types], bool)
        fixed = static & np.array([physics is None for physics in movers.physics], bool)
        return cls(kinds, np.compress(static, movers.entities).tolist(), movers.rows[static],
                   np.compress(fixed, movers.entities).tolist(), movers.rows[fixed])


@dataclass(frozen=True, slots=True)
class _Movers:
    """The bodies Collision reads every step (all but level geometry), in
    entity order, as ``Collide._classify`` last split them (kept until it
    next does): the bodies and their components, the set of their
    entities, their rows of the colliders' table and the other rows (level
    geometry's), and those of them without Physics (``kinematic``)."""

    bodies: list[Body]
    entities: list[int]
    transforms: list[Transform]
    colliders: list[Collider]
    physics: list[Physics | None]
    entity_set: set[int]
    rows: np.ndarray
    level_rows: np.ndarray
    kinematic: list[Body]

    @classmethod
    def of(cls, bodies: list[Body], level: np.ndarray) -> _Movers:
        """The movers among ``bodies`` (every collider's, in entity order),
        ``level`` telling for each whether it is level geometry ((n,) bool)."""
        movers = list(compress(bodies, (~level).tolist()))
        return cls(movers, [body.entity for body in movers], [body.transform for body in movers],
                   [body.collider for body in movers], [body.physics for body in movers],
                   {body.entity for body in movers}, np.flatnonzero(~level),
                   np.flatnonzero(level), [body for body in movers if body.physics is None])


class Collide:
    """Find every pair of colliders that may overlap this step.

    The broad phase is a uniform grid over each collider's swept bounds (the
    union of its boxes at the start and end of the step), so its cost grows
    linearly with the number of entities. STATIC–STATIC and TRIGGER–TRIGGER
    pairs are skipped.
    ``cell_size`` (px), when left as None, is chosen from the typical moving
    collider whenever esper's component lists change (an entity or a
    component added or removed), not every step.

    Level geometry costs nothing while it stays put (Box2D keeps its
    static bodies in a set of their own for the same reason): a STATIC
    collider without Physics is read anew and re-filed only in a step where
    something it is filed by changed (its position, previous position,
    offset, size, type, shape, layers or faces, assigned or changed in
    place); the others are compared, not re-read. (A collider that becomes
    one by a type changed in place is read every step, as before, until
    entities or components are next added or removed.) An entity added or
    removed (a bullet fired, a tile broken) makes the colliders' table anew,
    but level geometry stays filed: only the tiles new to it are read, and
    the rest compared as in any step (``_Resting.after``). The other
    colliders are read together, a field of all of them at a time
    (``read_geometry``), and filed in the grid at once.

    The pairs come from a compiled kernel over the filed boxes
    (``systems.physics._kernels.pairs``: the set the grid would find, less
    the pairs whose layers don't meet) unless the kernels are not compiled
    (ECS_ARCADE_JIT=0, no numba, or still compiling in the background); then
    from the grid, which walks only the movers' cells.

    Each run's results are a new ``Found`` (``found``): the bodies, the
    pairs, the filed boxes and the kind bits of this step. ``bodies`` (entity
    -> Body, each made when first looked up: ``Bodies``) is one mapping kept
    across steps that looks up the latest run's. A system that moves bodies
    after Collision makes the World run Collision again before Response, and
    Response hands the stages the ``found`` of that run, so they always
    describe the world Response resolves. Last in a step, the contacts stage
    calls ``settle_kinematic``; ``sync`` brings the bodies and grid up to date
    between steps, for queries.
    """

    def __init__(self, world: WorldLike, cell_size: float | None = None) -> None:
        self.world = world
        self.cell_size = cell_size
        self.grid = SpatialGrid(64.0)
        self.steps = 0
        self.bodies = Bodies(self._make)  # the latest Found's Bodies, one mapping for every step
        self._pool: dict[int, Body] = {}  # every collider's Body, kept from step to step
        self._rows: dict[int, int] = {}  # entity -> row of ``_columns``
        self._columns = Columns.of([])  # the colliders' components, until they are next added or removed
        self._ids = np.zeros((3, 0), np.int64)  # the ids of ``_columns``' transforms, colliders and physics
        self.found = self._found()  # the latest run's results
        self._sources: tuple[object, ...] | None = None
        self._movers = _Movers.of([], np.zeros(0, bool))
        self._reread: dict[int, Body] = {}  # level geometry read anew since the last settle_kinematic
        self._resting = _Resting()
        self._pair_capacity = 1024  # pairs the compiled broad phase makes room for; doubled when short
        # Level geometry's cells for the compiled broad phase, kept while it is read the same
        # in the same grid: (that read and cell size, the cells, or None where they can't be numbered).
        self._level_filing: tuple[tuple[object, float], tuple[Any, ...] | None] | None = None
        self._mover_kinds = Kept(_MoverKinds.of)
        self._mover_vectors = Kept(Vectors.of, vectors=True)  # the movers' vectors, as listed last
        self._pair_layers = Kept(_pair_layers)
        self._categories = Kept(lambda columns: np.array([c.category for c in columns.colliders], np.int64))
        self._room: tuple[LevelRead, np.ndarray] | None = None  # (``_level_room``)
        self._kinds: tuple[tuple[Any, ...], np.ndarray] | None = None  # (``_pair_kinds``)
        self._warned_unplaced = False  # (``_rebuild_from``'s warning, once)

    def process(self, dt: float) -> None:
        """Collect bodies and candidate pairs for this step into a new
        ``found`` (two stages, timed in ``World.timings``)."""
        name = type(self).__name__  # stages filed under this system's name, as World._run files it
        with self.world.timed(f"{name}.bodies"):
            found, kinds = self._read_bodies()
        with self.world.timed(f"{name}.pairs"):
            self._find_pairs(found, kinds)

    def _found(self) -> Found:
        """A new ``Found`` over the colliders as they are now."""
        return Found(self._columns, self._rows, self.bodies, self.grid)

    def _make(self, entity: int) -> Body:
        """The ``Body`` of ``entity`` for the latest run (see ``Bodies``):
        its components read now, and its partners from the broad phase's."""
        found = self.found
        row = found.rows[entity]
        body = self._pool[entity]
        moved = int(found.moved[row])
        if moved < 0:  # level geometry: read when it changed (``_Resting``), or when it became level geometry
            body._before = None
        else:
            read(body, moved == 1)
        body.neighbours = found.partners_of(row)
        return body

    def _read_bodies(self) -> tuple[Found, int]:
        """Read the movers' components at once and file them in the grid
        (level geometry only where it changed), and start ``found`` and
        ``bodies`` anew; returns it and every body's kind bits together."""
        # esper hands back the same cached lists until an entity or component
        # is added or removed; then the bodies can simply be refreshed.
        sources = self._lists()
        if self._sources is not None and all(new is old for new, old in zip(sources, self._sources)):
            found = self._found()
            kinds, swept, level = self._read_movers(found)
            self.grid.insert_many(self._columns.entities[self._movers.rows], swept, level)
            changed = self._resting.changed(self.grid)
            found.mover_kinds = kinds
            kinds |= self._resting.kinds
            self._reread.update((body.entity, body) for body in changed)
            if any(not is_level(body) for body in changed):
                self._classify()  # a type changed in place: no longer level geometry
                found.swept = None  # (read as the bodies were sorted before)
                found.mover_kinds = ~0
        else:
            found, kinds = self._rebuild_from(sources)
        self._start(found)
        return found, kinds

    def _start(self, found: Found) -> None:
        """Make ``found`` the latest run's, its bodies the ones looked up."""
        found.level = self._resting.entities
        found.resting = self._resting.read(self.grid)
        found.room = self._level_room(found.resting, len(self._columns.transforms))
        self.found = found
        self.bodies.restart(self._rows)

    def _level_room(self, level: LevelRead, n: int) -> np.ndarray:
        """Room for ``Found.filed_boxes`` (an (n, 4) array, px) holding level geometry's rows as
        ``level`` files them, kept while it is the same: each step writes only the movers' rows."""
        kept = self._room
        if kept is None or kept[0] is not level or len(kept[1]) != n:
            room = np.empty((n, 4))
            room[level.rows] = level.filed
            kept = self._room = level, room
        return kept[1]

    def _read_movers(self, found: Found) -> tuple[int, np.ndarray, list[int]]:
        """Read where every mover is, at once (``read_geometry``), and what
        kinds of collider they are, into ``found``; returns their kind bits
        together, their swept bounds (px, a row per mover) and those of them
        to file as level geometry (a STATIC without Physics until the next
        ``_classify``)."""
        movers = self._movers
        geometry = read_geometry(self._mover_vectors(movers.transforms, movers.colliders), storage.read)
        swept, moved_now = background.kernels().swept_bounds(geometry.start, geometry.now, geometry.offset,
                                                             geometry.size)
        kinds = self._mover_kinds(movers)
        found.static_movers, found.static_mover_rows = kinds.static_entities, kinds.static_rows
        found.level_mover_rows = kinds.level_rows
        moved = np.full(len(self._columns.transforms), -1, np.int8)  # -1: not read here (level geometry)
        moved[movers.rows] = moved_now
        found.moved = moved  # (looked up for the few Bodies made: no list of every row)
        found.movers_read = (movers.rows, geometry)
        found.swept = (movers.rows, swept)
        return kinds.kinds, swept, kinds.level_entities

    def _find_pairs(self, found: Found, kinds: int) -> None:
        """The broad phase: ``found``'s pairs and each body's ``neighbours``."""
        bodies = found.bodies
        self.steps += 1
        found.kinds = kinds
        found.layered = bool(kinds & LAYERED)
        found.one_way = bool(kinds & ONE_WAY)
        statics = self._resting.entities
        if kinds & MOVING_STATIC:  # moving platforms: STATIC with Physics
            statics = statics.union(found.static_movers)
        # (asked last: a Game's first steps run the grid while the kernels compile, see ``background``)
        kernels = background.kernels()
        rows = self._compiled_pairs(kernels, found) if kernels.compiled else None
        if rows is not None:
            found.take_rows(rows)
            return
        triggers: set[int] = set()
        if kinds & TRIGGER:  # trigger–trigger pairs mean nothing: the grid never makes them, however many
            columns = found.columns
            triggers = {entity for entity, collider in zip(columns.entities.tolist(), columns.colliders)
                        if collider.type is _TRIGGER}
        pairs = self.grid.pairs(statics, self.steps, apart=triggers)
        if kinds & LAYERED:  # nor pairs whose layers don't meet
            pairs = [(a, b) for a, b in pairs if found.meet(bodies[a], bodies[b])]
        found.take_pairs(pairs)
        for a, b in pairs:
            bodies[a].neighbours.append(b)
            bodies[b].neighbours.append(a)

    def _compiled_pairs(self, kernels: Kernels, found: Found) -> np.ndarray | None:
        """The pairs the grid would find (``systems.physics._kernels.pairs``)
        whose layers meet (``Found.meet``), as rows of ``columns``,
        ascending, or None if the kernel can't number the cells (boxes
        spread over more than 2**62 of them)."""
        columns, boxes = found.columns, found.filed_boxes()
        triggers, layers = self._pair_layers(columns, found.kinds & (TRIGGER | LAYERED))
        kinds = self._pair_kinds(len(columns.transforms), found.static_mover_rows, found.level_mover_rows, triggers)
        movers, level = self._level_cells(kernels, found, boxes)
        while True:
            rows, status = kernels.grid_pairs(boxes, kinds, layers, columns.entities, self.grid.cell_size,
                                              self.steps, self._pair_capacity, movers, level)
            if status != FULL:
                break
            self._pair_capacity *= 2  # kept for later steps
        return rows if status == DONE else None

    def _pair_kinds(self, n: int, static_movers: np.ndarray, level_movers: np.ndarray,
                    triggers: np.ndarray) -> np.ndarray:
        """What the grid holds in ``statics`` (skipped), ``apart`` (TRIGGERs) and ``fixed``
        (level geometry), as bits of each of the ``n`` rows; kept while made of the same rows
        (arrays kept while no field is assigned and no entity made or deleted)."""
        key = (n, self._movers.level_rows, static_movers, level_movers, triggers)
        kept = self._kinds
        if kept is None or kept[0][0] != n or any(new is not old for new, old in zip(key[1:], kept[0][1:])):
            kinds = np.zeros(n, np.int64)
            kinds[self._movers.level_rows] = SKIP | LEVEL
            kinds[static_movers] |= SKIP
            kinds[level_movers] |= LEVEL
            kinds[triggers] |= APART
            kept = self._kinds = key, kinds
        return kept[1]

    def _level_cells(self, kernels: Kernels, found: Found, boxes: np.ndarray) -> tuple[np.ndarray, tuple[Any, ...]]:
        """The rows the pair kernel files this step (the movers') and level geometry's cells,
        filed once for as long as it is read the same (``found.resting``) in the same grid
        (``level_cells``); every row filed each step where its cells can't be numbered."""
        kept = self._level_filing
        if kept is None or kept[0][0] is not found.resting or kept[0][1] != self.grid.cell_size:
            *cells, status = kernels.level_cells(boxes, self._movers.level_rows, self.grid.cell_size)
            kept = self._level_filing = (found.resting, self.grid.cell_size), tuple(cells) if status == DONE else None
        # (the movers as they are now: added or removed, they leave level geometry's rows as they were)
        return every_row(len(boxes)) if kept[1] is None else (self._movers.rows, kept[1])

    def sync(self) -> None:
        """Bring the bodies and the grid up to date when entities or
        colliders were added or removed since the last step (for queries made
        between steps): a new ``found`` whose pairs are left as they were."""
        sources = self._lists()
        if self._sources is None or any(new is not old for new, old in zip(sources, self._sources)):
            earlier = self.found
            found, kinds = self._rebuild_from(sources)
            found.keep_pairs(earlier)
            found.kinds, found.layered, found.one_way = kinds, bool(kinds & LAYERED), bool(kinds & ONE_WAY)
            self._start(found)

    def collider(self, entity: int) -> Collider | None:
        """The Collider of ``entity`` as this step read it (without making
        its Body), or None if it has none."""
        body = self._pool.get(entity)
        return None if body is None else body.collider

    def categories_of(self, pairs: np.ndarray) -> np.ndarray:
        """The Collider categories of pairs of entities ((m, 2) int64, as ``pairs``), each as
        ``collider`` gives it now; 0 for an entity without a Collider."""
        rows, known = _found_at(self._columns.entities, pairs)
        categories = np.zeros(pairs.shape, np.int64)
        if known.any():
            categories[known] = self._categories(self._columns)[rows[known]]
        return categories

    def _lists(self) -> tuple[list[Any], list[Any], list[Any]]:
        """esper's lists of (entity, component) of Transform, Collider and Physics: other
        lists once an entity or a component was added or removed (each type's on its own,
        ``joined``: the check before a step reads the same lists)."""
        world = self.world
        return world.get_component(Transform), world.get_component(Collider), world.get_component(Physics)

    def _rebuild_from(self, sources: tuple[list[Any], list[Any], list[Any]]) -> tuple[Found, int]:
        """``_rebuild`` from esper's lists (``_lists``), kept to tell when they change: the
        entities with a Transform and a Collider, in entity order."""
        self._sources = sources
        entities, transforms, colliders = joined(sources[0], sources[1])
        if len(entities) != len(sources[1]) and not self._warned_unplaced:
            self._warned_unplaced = True
            unplaced = min(set(map(itemgetter(0), sources[1])).difference(entities))
            log.warning("entity %d has a Collider but no Transform: the physics ignores it until it has one "
                        "(warned once per World)", unplaced)
        return self._rebuild(entities, transforms, colliders, dict(sources[2]))

    def _rebuild(self, entities: list[int], transforms: list[Transform], colliders: list[Collider],
                 physics_of: dict[int, Physics]) -> tuple[Found, int]:
        """Bodies for the colliders of ``entities`` (ascending), reusing last step's where the
        entity kept the same components, and the grid to match, filed in
        entity order; returns a new ``Found`` of them and their kind bits together."""
        previous = self._pool
        self._columns, bodies = self._bodies_of(entities, transforms, colliders, physics_of)
        self._pool = pool = dict(zip(self._columns.entities.tolist(), bodies))
        self._rows = dict(zip(pool, range(len(pool))))
        level, level_rows = self._split()  # (level geometry is read as it is filed, below)
        colliders = self._movers.colliders
        size = self.cell_size or choose_cell_size(  # (from the movers' extents, a field at a time)
            map(max, map(attrgetter("size"), compress(colliders, map(is_not, map(attrgetter("type"), colliders),
                                                                  repeat(_STATIC)))))
        )
        fresh = self.grid.cell_size != size
        if fresh:
            self.grid = SpatialGrid(size)
        for gone in sorted(previous.keys() - pool.keys()):
            self.grid.remove(gone)
        found = self._found()
        kinds, swept, _ = self._read_movers(found)  # (just classified: no mover is level geometry)
        found.mover_kinds = kinds  # (as a step with the same lists will: what is read of the movers is kept)
        # In the same grid, level geometry stays filed as it was: what is new in it (a tile
        # added, a body become one) is read, and the rest compared, as in any step
        # (``_Resting.changed``), not read again tile by tile.
        if not fresh:  # (each mover in turn, in entity order, as ``insert`` would: just classified, none is level)
            self.grid.insert_many(self._columns.entities[self._movers.rows], swept, [])
            self._resting = self._resting.after(level, level_rows)
            level = self._resting.changed(self.grid)
        else:
            movers = iter(zip(self._movers.entities, swept.tolist()))
            for body in bodies:  # one by one, in entity order: the order the grid's cells list them
                if body.entity not in self._movers.entity_set:
                    refresh(body, self.grid)
                    continue
                entity, (x, y, w, h) = next(movers)
                self.grid.insert(entity, (x, y, w, h))
            self._resting = _Resting(level, level_rows)
        self._reread.update((body.entity, body) for body in level)
        return found, kinds | self._resting.kinds

    def _bodies_of(self, entities: list[int], transforms: list[Transform], colliders: list[Collider],
                   physics_of: dict[int, Physics]) -> tuple[Columns, list[Body]]:
        """The colliders' table of ``entities`` (ascending) and each one's Body: last step's
        where its three components are the same objects, told apart by their ids a column at
        a time (last step's bodies hold the objects they compare with, so no id among them can
        have been handed to another)."""
        physics = list(map(physics_of.get, entities))
        ids = np.array([list(map(id, column)) for column in (transforms, colliders, physics)], np.int64).reshape(3, -1)
        columns = Columns(np.array(entities, np.int64), transforms, colliders, physics,
                          np.flatnonzero(ids[2] != id(None)))
        at, same = _found_at(self._columns.entities, columns.entities)
        if same.any():
            same &= (self._ids[:, at] == ids).all(axis=0)
        self._ids = ids
        bodies: list[Body | None] = list(map(self._pool.get, entities))
        for row in np.flatnonzero(~same).tolist():  # (every new entity among them: no None is left)
            bodies[row] = Body(entities[row], transforms[row], colliders[row], physics[row])
        return columns, cast(list[Body], bodies)

    def settle_kinematic(self) -> None:
        """Make the final position of each collider without Physics its
        start for the next step, so a move made by user code between steps is
        seen. Level geometry not read anew since the last call already
        starts where it is (Collision may run twice in a step: what either
        run read anew is settled)."""
        for body in (*self._movers.kinematic, *self._reread.values()):
            transform = body.transform
            transform.previous_position[:] = transform.position  # (by slice: a third of ``update``'s cost)
        self._reread.clear()

    def _classify(self) -> None:
        """Split the bodies into level geometry (STATIC, no Physics: compared
        each step, read only when changed) and the rest (read each step, at
        once: their rows of ``_columns``), reading what became level geometry."""
        before = self._resting.entities
        self._resting = _Resting(*self._split())
        for body in self._resting.bodies:  # (one read with the movers until now is out of date)
            if body.entity not in before:
                read(body)

    def _split(self) -> tuple[list[Body], np.ndarray]:
        """Sort the bodies into the movers (``_movers``) and level geometry; returns level
        geometry's bodies and their rows of ``_columns``."""
        bodies, columns = list(self._pool.values()), self._columns
        n = len(bodies)
        static = np.fromiter(map(is_, map(attrgetter("type"), columns.colliders), repeat(_STATIC)), bool, n)
        level = static & np.fromiter(map(is_, columns.physics, repeat(None)), bool, n)
        self._movers = _Movers.of(bodies, level)
        return list(compress(bodies, level.tolist())), self._movers.level_rows


def _found_at(ascending: np.ndarray, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where each of ``keys`` (entity ids, any shape) is in ``ascending`` (entity ids, sorted),
    by binary search, and whether it is there at all (where not, the index is meaningless)."""
    if not len(ascending):
        return np.zeros(keys.shape, np.int64), np.zeros(keys.shape, bool)
    at = np.minimum(np.searchsorted(ascending, keys), len(ascending) - 1)
    return at, ascending[at] == keys


# Enum members as plain globals: an Enum class attribute is slow to look up.
_STATIC, _TRIGGER = ColliderType.STATIC, ColliderType.TRIGGER
_NO_ROWS = np.zeros(0, np.int64)


def _pair_layers(columns: Columns, kinds: int) -> tuple[np.ndarray, np.ndarray]:
    """The rows of ``columns`` that are TRIGGERs and each row's category and mask ((n, 2)),
    as the compiled broad phase takes them; ``kinds``: the colliders' kind bits together,
    which tell which fields to read (with no ``LAYERED`` bit every collider is on the
    default layer, meeting all: the grid's pairs, none dropped)."""
    colliders = columns.colliders
    triggers = _NO_ROWS
    if kinds & TRIGGER:
        triggers = np.flatnonzero(np.array([collider.type is _TRIGGER for collider in colliders], bool))
    layers = np.empty((len(colliders), 2), np.int64)
    if kinds & LAYERED:
        layers[:, 0], layers[:, 1] = [c.category for c in colliders], [c.mask for c in colliders]
    else:
        layers[:, 0], layers[:, 1] = 1, ALL
    return triggers, layers


#: What ``_Resting.after`` holds for a body it has not read: vectors that differ from every value.
_UNREAD: tuple[object, ...] = (math.nan,) * 8 + (None,) * 5


def _filed_by(body: Body) -> tuple[object, ...]:
    """What files a STATIC in the grid, as plain values: its position and
    previous position, collider offset and size (px), type, shape, layers
    and faces."""
    transform, collider = body.transform, body.collider
    now, start, offset, size = transform.position, transform.previous_position, collider.offset, collider.size
    return (now.x, now.y, start.x, start.y, offset.x, offset.y, size.x, size.y,
            collider.type, collider.shape, collider.category, collider.mask, collider.sides)


class _Resting:
    """Level geometry (see ``Collide``): the bodies, their rows of the
    colliders' table, what each was filed by when last read, their kind
    bits together, and (``read``) where they are and what they are filed
    under, kept until one of them changes."""

    def __init__(self, bodies: list[Body] | None = None, rows: np.ndarray | None = None,
                 seen: tuple[list[tuple[object, ...]], np.ndarray, int] | None = None) -> None:
        self.bodies = bodies or []
        self.rows = np.zeros(0, np.int64) if rows is None else rows
        self.entities = {body.entity for body in self.bodies}
        self._entities = np.fromiter(map(attrgetter("entity"), self.bodies), np.int64, len(self.bodies))
        self.kinds = _or_all(self.bodies)
        self._read: LevelRead | None = None
        # What each body was filed by when last read (``_filed_by``), its vectors as an (n, 8)
        # array, and the Collider assignment stamp then (what ``seen`` holds of the colliders
        # is as read then); ``after`` hands them over.
        if seen is None:
            self.seen = [_filed_by(body) for body in self.bodies]
            self._seen_vectors = np.array([seen[:8] for seen in self.seen], float).reshape(-1, 8)
            self._assigned = assignments(Collider)
        else:
            self.seen, self._seen_vectors, self._assigned = seen
        # The bodies' vectors listed with the replacement stamps they were listed at (``_differing``).
        self._listed: tuple[tuple[int, int], Vectors, np.ndarray | None] | None = None
        # The last read made (``read``) and each body's index there if nothing it is filed by
        # changed since, else -1: the next read reads only the others.
        self._base: tuple[LevelRead, np.ndarray] | None = None
        if self.bodies:  # (listed with the level read, not in the step after it)
            self._located()

    def after(self, bodies: list[Body], rows: np.ndarray) -> _Resting:
        """Level geometry ``bodies`` (in entity order, at ``rows`` of a new colliders' table)
        after entities were added or removed: this one if they are its own (``renumber``),
        else a new one that keeps what this one read of the bodies it still holds and leaves
        the others unread, so that ``changed`` reads them, with any of the rest that changed
        since, in entity order (as ``_Resting(bodies, rows)`` after reading every one)."""
        if self.holds(bodies):
            self.renumber(rows)
            return self
        n, mine = len(bodies), self._entities
        if not len(mine):
            return _Resting(bodies, rows, ([_UNREAD] * n, np.full((n, 8), np.nan), self._assigned))
        at, kept = _found_at(mine, np.fromiter(map(attrgetter("entity"), bodies), np.int64, n))
        # (and the same Body: not one made anew for new components)
        kept[kept] = list(map(is_, map(self.bodies.__getitem__, at[kept].tolist()), compress(bodies, kept.tolist())))
        seen = list(map(self.seen.__getitem__, at.tolist()))
        vectors = self._seen_vectors[at]
        for row in np.flatnonzero(~kept).tolist():
            seen[row] = _UNREAD
        vectors[~kept] = np.nan  # (a NaN differs from every value: read by ``changed``)
        resting = _Resting(bodies, rows, (seen, vectors, self._assigned))
        if self._base is not None:
            resting._base = self._base[0], np.where(kept, self._base[1][at], -1)
        return resting

    def holds(self, bodies: list[Body]) -> bool:
        """Whether ``bodies`` are this level geometry's, the same objects in the same order."""
        mine = self.bodies
        return len(mine) == len(bodies) and all(map(is_, mine, bodies))

    def renumber(self, rows: np.ndarray) -> None:
        """Take ``rows`` as the bodies' rows of a new colliders' table (entities added or
        removed around them): a new ``LevelRead`` only if they moved."""
        if np.array_equal(rows, self.rows):
            return
        self.rows = rows
        if self._read is not None:  # (each body as read there: nothing changed since, or it would be None)
            every = np.arange(len(rows))
            self._read.since.clear()  # (only one earlier read kept alive)
            self._read = LevelRead(rows, self._read.geometry, self._read.filed, [(self._read, every, every)])
            self._base = self._read, np.arange(len(rows))

    def read(self, grid: SpatialGrid) -> LevelRead:
        """The bodies as last read (``LevelRead``): the same object until one of them changes
        (``changed``); then only those that changed, or are new here, are read again, and the
        others carried over from the last read."""
        if self._read is None:
            bodies, base = self.bodies, self._base
            at = np.full(len(bodies), -1) if base is None else base[1]
            fresh = np.flatnonzero(at < 0)
            picked = [bodies[index] for index in fresh.tolist()]
            geometry = read_geometry(Vectors.of([body.transform for body in picked],
                                                [body.collider for body in picked]))
            filed = grid.boxes_of(self._entities[fresh])
            if base is None:
                self._read = LevelRead(self.rows, geometry, filed)
            else:
                earlier, kept = base[0], (np.flatnonzero(at >= 0), at[at >= 0], fresh)
                earlier.since.clear()  # (only one earlier read kept alive)
                self._read = LevelRead(self.rows, Geometry(*(
                    spliced(kept, getattr(earlier.geometry, name), getattr(geometry, name))
                    for name in ("start", "now", "offset", "size"))), spliced(kept, earlier.filed, filed),
                    [(earlier, kept[0], kept[1])])
            self._base = self._read, np.arange(len(bodies))
        return self._read

    def changed(self, grid: SpatialGrid) -> list[Body]:
        """Read anew, and re-file in ``grid``, the bodies whose filing
        changed since they were last read; returns them in entity order."""
        assigned = assignments(Collider)
        same_fields = assigned == self._assigned  # no type, shape, layers or faces assigned since: vectors only
        self._assigned = assigned
        differing = self._differing() if same_fields else None
        changed = []
        for index in range(len(self.bodies)) if differing is None else differing:
            body = self.bodies[index]
            if differing is None and self._same(body, self.seen[index], same_fields):
                continue
            refresh(body, grid)
            self.seen[index] = _filed_by(body)
            self._seen_vectors[index] = self.seen[index][:8]
            if self._base is not None:
                self._base[1][index] = -1
            changed.append(body)
        if changed:
            if not same_fields:  # (moved or resized, a body keeps its kind bits)
                self.kinds = _or_all(self.bodies)
            self._read = None
        return changed

    def _differing(self) -> list[int] | None:
        """The indices of the bodies whose position, previous position, collider offset or
        size is not what they were last filed by, compared where pygame keeps them by the
        compiled kernels (``storage``); None where those don't read them."""
        columns, differing = self._located(), background.kernels().differing
        if columns is None or differing is None:
            return None
        out = np.empty(len(columns), np.int64)
        count = differing(columns, self._seen_vectors, out)
        differs: list[int] = out[:count].tolist()
        return differs

    def _located(self) -> np.ndarray | None:
        """Where the bodies' vectors (position, previous position, collider offset and size)
        are, an (n, 4) array of addresses for ``storage``'s kernels, listed again when a vector
        was assigned anywhere; None where the compiled kernels don't read them."""
        stamps = (replacements(Transform), replacements(Collider))
        if self._listed is None or self._listed[0] != stamps:
            vectors = Vectors.of([body.transform for body in self.bodies], [body.collider for body in self.bodies])
            self._listed = stamps, vectors, None
        _, vectors, columns = self._listed
        kernels = background.kernels()
        if kernels.differing is None:
            return None
        if columns is None:
            located = [storage.addresses(listed, kernels)
                       for listed in (vectors.now, vectors.start, vectors.offset, vectors.size)]
            if any(addresses is None for addresses in located):
                return None
            columns = np.column_stack([addresses for addresses in located if addresses is not None])
            self._listed = stamps, vectors, columns
        return columns

    @staticmethod
    def _same(body: Body, seen: tuple[object, ...], same_fields: bool) -> bool:
        """Whether ``body`` is filed by what ``seen`` holds (``_filed_by``), field by field,
        stopping at the first difference (about 0.4 µs a body against 1.4 µs to read and
        file it; building its tuple for every body would cost twice as much); its type,
        shape, layers and faces only when one may have been assigned (not ``same_fields``)."""
        transform, collider = body.transform, body.collider
        now, start = transform.position, transform.previous_position
        # By index: cheaper than pygame's ``x`` lookup, for every tile of a level.
        if not (now[0] == seen[0] and now[1] == seen[1] and start[0] == seen[2] and start[1] == seen[3]):
            return False
        offset, size = collider.offset, collider.size
        return (offset[0] == seen[4] and offset[1] == seen[5] and size[0] == seen[6] and size[1] == seen[7]
                and (same_fields or (collider.type, collider.shape, collider.category, collider.mask,
                                     collider.sides) == seen[8:]))


def _or_all(bodies: list[Body]) -> int:
    """The kind bits of ``bodies`` together, from their components now."""
    colliders = [body.collider for body in bodies]
    return kinds_of([collider.type for collider in colliders], colliders, [body.physics for body in bodies])
