"""The collide stage: gather the colliders and find the pairs that may touch.

``Collide`` owns what the broad phase keeps from step to step (every collider's ``Body``, the
grid, level geometry's filing) and, each step, the bodies and candidate pairs the later stages
resolve. ``systems.physics.collision.CollisionSystem`` is this stage run as a system."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import chain
from operator import itemgetter
from typing import Any

import numpy as np

from components import ALL, Collider, ColliderType, Physics, Shape, Side, Transform
from components.layers import interacts
from systems.physics._kernels import jit
from systems.physics._bodies.body import Bodies, Body
from systems.physics._bodies.kinds import INELASTIC, LAYERED, MOVING_STATIC, ONE_WAY, SHAPED, TRIGGER, kinds_of
from systems.physics._bodies.table import Columns, Geometry, entity_pairs, read_geometry
from systems.physics._broad.grid import SpatialGrid, choose_cell_size
from systems.physics._shapes.geometry import Box, union_box
from systems.physics._kernels.pairs import DONE, FULL, grid_pairs, group_by_row
from systems._world import WorldLike

__all__ = ["Bodies", "Body", "Collide"]

_NO_ROWS = np.zeros(0, np.int64)


@dataclass(frozen=True, slots=True)
class _MoverColumns:
    """The components of the bodies Collision reads every step (all but
    level geometry), in entity order."""

    entities: list[int]
    transforms: list[Transform]
    colliders: list[Collider]
    physics: list[Physics | None]


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
    entities or components are next added or removed.) The others are
    read together, a field of all of them at a time (``read_geometry``), and
    filed in the grid at once.

    The pairs come from a compiled kernel over the filed boxes
    (``systems.physics._kernels.pairs``: the set the grid would find) unless a collider
    is a TRIGGER or uses layers, level geometry outnumbers the other
    colliders, or numba is off; then from the grid.

    Results are read by the ResponseSystem: ``bodies`` (entity -> Body,
    each made when first looked up: ``Bodies``), their components as lists
    (``columns``, to be read at once: ``systems.physics._bodies.table``), ``pairs``
    (a < b; as rows of ``columns``:
    ``pair_rows()``), ``grid`` (whose ``boxes`` hold each body's swept
    bounds; as an array: ``filed_boxes()``), the kind bits of every
    body together (``kinds``), and whether any collider uses layers
    (``layered``) or one-way faces (``one_way``); the movers' positions and
    sizes as read (``geometry_read``). A system that moves bodies after
    Collision makes the World run Collision again before Response, so these
    always describe the world Response resolves. During Response, a body
    whose path changes is filed where it now goes (``widen``); last in a
    step, Response calls ``settle_kinematic``.
    """

    def __init__(self, world: WorldLike, cell_size: float | None = None) -> None:
        self.world = world
        self.cell_size = cell_size
        self.bodies = Bodies(self._make)
        self._pool: dict[int, Body] = {}  # every collider's Body, kept from step to step
        self._rows: dict[int, int] = {}  # entity -> row of ``columns``
        self.columns = Columns.of([])
        self._pairs: list[tuple[int, int]] | None = []
        self._pair_rows: np.ndarray | None = None
        self._filed: np.ndarray | None = None  # filed_boxes, until a box is filed anew
        self.grid = SpatialGrid(64.0)
        self.steps = 0
        self.layered = False
        self.one_way = False
        self.kinds = 0
        self._sources: tuple[object, object] | None = None
        self._movers: list[Body] = []
        self._mover_set: set[int] = set()
        self._mover_columns = _MoverColumns([], [], [], [])
        self._mover_rows = self._resting_rows = np.zeros(0, np.int64)  # rows of ``columns``
        self._static_movers: list[int] = []  # movers that are STATIC (moving platforms)
        self._static_mover_rows = self._level_mover_rows = _NO_ROWS  # of them, STATIC ones; with no Physics
        self._moved: list[int] = []  # per row: 1 if the body moved this step, 0 if not, -1 if not read at once
        self._read = (self._mover_rows, read_geometry([], []))  # the movers' rows and Geometry this step
        self._swept: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None  # their swept bounds, until refiled
        self._pair_source: np.ndarray | None = None  # the compiled broad phase's pairs, for the partners
        self._met_source = np.zeros((0, 2), np.int64)  # and the pairs the compiled sweeps met
        # Made from them when first asked for: (entities, where each row's begin) for each.
        self._partners: tuple[tuple[np.ndarray, list[int]], tuple[np.ndarray, list[int]]] | None = None
        self._kinematic: list[Body] = []  # bodies without Physics among the movers
        self._reread: dict[int, Body] = {}  # level geometry read anew since the last settle_kinematic
        self._resting = _Resting()
        self._pair_capacity = 1024  # pairs the compiled broad phase makes room for; doubled when short

    def process(self, dt: float) -> None:
        """Collect bodies and candidate pairs for this step (two stages,
        timed in ``World.timings``)."""
        name = type(self).__name__  # stages filed under this system's name, as World._run files it
        with self.world.timed(f"{name}.bodies"):
            kinds = self._read_bodies()
        with self.world.timed(f"{name}.pairs"):
            self._find_pairs(kinds)

    def _read_bodies(self) -> int:
        """Read the movers' components at once and file them in the grid
        (level geometry only where it changed), and make ``bodies`` anew;
        returns every body's kind bits together."""
        self._filed = None
        self._pair_source, self._partners, self._met_source = None, None, np.zeros((0, 2), np.int64)
        # esper hands back the same cached lists until an entity or component
        # is added or removed; then the bodies can simply be refreshed.
        sources = (self.world.get_components(Transform, Collider), self.world.get_component(Physics))
        if self._sources is not None and all(new is old for new, old in zip(sources, self._sources)):
            kinds, swept, level = self._read_movers()
            self.grid.insert_many(self.columns.entities[self._mover_rows], swept, level)
            changed = self._resting.changed(self.grid)
            kinds |= self._resting.kinds
            self._reread.update((body.entity, body) for body in changed)
            if any(not _level(body) for body in changed):
                self._classify()  # a type changed in place: no longer level geometry
        else:
            kinds = self._rebuild_from(sources)
        self.bodies.restart(self._rows)
        return kinds

    def _read_movers(self) -> tuple[int, np.ndarray, list[int]]:
        """Read where every mover is, at once (``read_geometry``), and what
        kinds of collider they are; returns their kind bits together,
        their swept bounds (px, a row per mover) and those of them to file
        as level geometry (a STATIC without Physics until the next
        ``_classify``)."""
        columns = self._mover_columns
        geometry = read_geometry(columns.transforms, columns.colliders)
        swept = geometry.swept()
        types = [collider.type for collider in columns.colliders]
        kinds = kinds_of(types, columns.colliders, columns.physics)
        level: list[int] = []
        self._static_movers = []
        self._static_mover_rows = self._level_mover_rows = _NO_ROWS
        if _STATIC in types:  # moving platforms, or a type changed in place
            static = np.array([kind is _STATIC for kind in types], bool)
            fixed = static & np.array([physics is None for physics in columns.physics], bool)
            self._static_movers = np.compress(static, columns.entities).tolist()
            level = np.compress(fixed, columns.entities).tolist()
            self._static_mover_rows, self._level_mover_rows = self._mover_rows[static], self._mover_rows[fixed]
        moved = np.full(len(self.columns.transforms), -1, np.int8)  # -1: not read here (level geometry)
        moved[self._mover_rows] = geometry.moved()
        self._moved = moved.tolist()
        self._read = (self._mover_rows, geometry)
        self._swept = (self._mover_rows, swept, self._resting_rows)
        return kinds, swept, level

    def geometry_read(self) -> tuple[np.ndarray, Geometry]:
        """The ``Geometry`` read this step of the bodies that move (all but
        level geometry), and their rows of ``columns``."""
        return self._read

    def _make(self, entity: int) -> Body:
        """The ``Body`` of ``entity`` for this step (see ``Bodies``): its
        components read now, and its partners from the broad phase's."""
        row = self._rows[entity]
        body = self._pool[entity]
        moved = self._moved[row]
        if moved < 0:  # level geometry: read when it changed (``_Resting``), or when it became level geometry
            body._before = None
        else:
            read(body, moved == 1)
        body.neighbours = self._partners_of(row)
        return body

    def _partners_of(self, row: int) -> list[int]:
        """The entities the compiled broad phase paired the body of ``row``
        with, then those the sweeps met it with (``add_met_rows``), each in
        pair order: the order in which appending both entities of each pair
        to their partners would list them. An empty list before pairs are
        found, or when the grid found them (its loop appends them)."""
        if self._pair_source is None:
            return []
        if self._partners is None:
            n, entities = len(self.columns.transforms), self.columns.entities
            self._partners = (_by_row(self._pair_source, n, entities), _by_row(self._met_source, n, entities))
        (paired, starts), (met, met_starts) = self._partners
        found: list[int] = paired[starts[row]:starts[row + 1]].tolist()
        return found + met[met_starts[row]:met_starts[row + 1]].tolist() if len(met) else found

    def add_met_rows(self, met: np.ndarray) -> None:
        """Add the pairs of rows (of ``columns``, a < b, an (m, 2) array)
        the compiled sweeps met, in that order, to the bodies' partners (as
        ``widen`` adds the pairs it meets)."""
        if not len(met):
            return
        if self._pair_source is None:  # the grid found the pairs: its loop filled the partners
            bodies = self.bodies
            for a, b in entity_pairs(self.columns.entities, met):
                bodies[a].neighbours.append(b)
                bodies[b].neighbours.append(a)
            return
        self._met_source = np.concatenate((self._met_source, met))
        self._partners = None  # Bodies made from now on list them
        made = self.bodies.made()
        if made:
            found, starts = _by_row(met, len(self.columns.transforms), self.columns.entities)
            for body in made:
                row = self._rows[body.entity]
                body.neighbours.extend(found[starts[row]:starts[row + 1]].tolist())

    def _find_pairs(self, kinds: int) -> None:
        """The broad phase: ``pairs`` and each body's ``neighbours``."""
        bodies = self.bodies
        self.steps += 1
        self.kinds = kinds
        self.layered = bool(kinds & LAYERED)
        self.one_way = bool(kinds & ONE_WAY)
        statics = self._resting.entities
        if kinds & MOVING_STATIC:  # moving platforms: STATIC with Physics
            statics = statics.union(self._static_movers)
        # The kernel files every box anew each step; the grid keeps level
        # geometry filed and walks only the movers' cells: when level
        # geometry is most of the world, the grid is faster.
        compiled = jit.ENABLED and not kinds & (TRIGGER | LAYERED) and len(self._movers) >= len(self._resting.bodies)
        rows = self._compiled_pairs() if compiled else None
        if rows is not None:  # the list of pairs, and the bodies' partners, are made only if asked for
            self._pairs, self._pair_rows, self._pair_source = None, rows, rows
            return
        triggers: set[int] = set()
        if kinds & TRIGGER:  # trigger–trigger pairs mean nothing: the grid never makes them, however many
            columns = self.columns
            triggers = {entity for entity, collider in zip(columns.entities.tolist(), columns.colliders)
                        if collider.type is _TRIGGER}
        pairs = self.grid.pairs(statics, self.steps, apart=triggers)
        if kinds & LAYERED:  # nor pairs whose layers don't meet
            pairs = [(a, b) for a, b in pairs if self.meet(bodies[a], bodies[b])]
        self._pairs, self._pair_rows = pairs, None
        for a, b in pairs:
            bodies[a].neighbours.append(b)
            bodies[b].neighbours.append(a)

    @property
    def pairs(self) -> list[tuple[int, int]]:
        """This step's candidate pairs of entities (a < b); after the
        compiled broad phase, made from its rows when first read."""
        if self._pairs is None:
            assert self._pair_rows is not None  # one of the two is always set
            self._pairs = list(entity_pairs(self.columns.entities, self._pair_rows))
        return self._pairs

    def pair_rows(self) -> np.ndarray:
        """``pairs`` as rows of ``columns`` (an (m, 2) int array, a < b)."""
        if self._pair_rows is None:
            pairs = self.pairs
            flat = np.fromiter(chain.from_iterable(pairs), np.int64, 2 * len(pairs))
            self._pair_rows = np.searchsorted(self.columns.entities, flat).reshape(-1, 2)
        return self._pair_rows

    def filed_boxes(self) -> np.ndarray:
        """Every body's box as filed in the grid (px), an (n, 4) array in
        entity order (the rows of ``columns``)."""
        if self._filed is None:
            grid, n = self.grid, len(self.columns.transforms)
            if self._swept is None:  # a box was filed anew since the movers were read
                self._filed = grid.boxes_of(self.columns.entities)
            else:  # the movers' swept bounds as read, level geometry as filed
                rows, swept, rest = self._swept
                self._filed = np.empty((n, 4))
                self._filed[rows] = swept
                self._filed[rest] = grid.boxes_of(self.columns.entities[rest])
            self.grid.snapshot(self.columns.entities, self._filed)
        return self._filed

    def _compiled_pairs(self) -> np.ndarray | None:
        """The pairs the grid would find (``systems.physics._kernels.pairs``) as rows of
        ``columns``, ascending, or None if the kernel can't number the cells
        (boxes spread over more than 2**62 of them)."""
        n, boxes = len(self.columns.transforms), self.filed_boxes()
        # What the grid holds in ``statics`` (skipped) and ``fixed`` (level geometry), as rows.
        skip, level = np.zeros(n, bool), np.zeros(n, bool)
        skip[self._resting_rows] = level[self._resting_rows] = True
        skip[self._static_mover_rows] = level[self._level_mover_rows] = True
        while True:
            rows, status = grid_pairs(boxes, skip, level, self.columns.entities, self.grid.cell_size,
                                      self.steps, self._pair_capacity)
            if status != FULL:
                break
            self._pair_capacity *= 2  # kept for later steps
        return rows if status == DONE else None

    def sync(self) -> None:
        """Bring the bodies and the grid up to date when entities or
        colliders were added or removed since the last step (for queries made
        between steps); pairs are left as they were."""
        sources = (self.world.get_components(Transform, Collider), self.world.get_component(Physics))
        if self._sources is None or any(new is not old for new, old in zip(sources, self._sources)):
            self._pair_source, self._partners, self._met_source = None, None, np.zeros((0, 2), np.int64)
            kinds = self._rebuild_from(sources)
            self.bodies.restart(self._rows)
            self.kinds, self.layered, self.one_way = kinds, bool(kinds & LAYERED), bool(kinds & ONE_WAY)

    def collider(self, entity: int) -> Collider | None:
        """The Collider of ``entity`` as this step read it (without making
        its Body), or None if it has none."""
        body = self._pool.get(entity)
        return None if body is None else body.collider

    def statics(self) -> list[Body]:
        """The Bodies of this step's STATIC colliders, in entity order."""
        bodies = self.bodies
        return [bodies[entity] for entity in sorted(self._resting.entities.union(self._static_movers))]

    def meet(self, a: Body, b: Body) -> bool:
        """Whether a pair can collide at all: not two TRIGGERs, and each one's
        category in the other's mask (``components.layers``)."""
        if a.trigger and b.trigger:
            return False
        ca, cb = a.collider, b.collider
        return not self.layered or interacts(ca.category, ca.mask, cb.category, cb.mask)

    def candidates(self, body: Body, box: Box) -> list[int]:
        """Entities ``body`` may touch within ``box`` (px): its broad-phase
        partners while ``box`` stays inside the bounds it was filed under,
        otherwise a fresh grid query."""
        return self.candidates_within(body, box, None)[0]

    def candidates_within(self, body: Body, box: Box, budget: int | None) -> tuple[list[int], int]:
        """``candidates``, and how many boxes were looked at; a query that
        would look at more than ``budget`` boxes is skipped for the partners."""
        if _within(box, self.grid.box_of(body.entity)):
            return body.neighbours, len(body.neighbours)
        load = 0 if budget is None else self.grid.load(box)
        if budget is not None and load > budget:
            return body.neighbours, len(body.neighbours)
        found = [e for e in self.grid.query(box) if e != body.entity]
        if self.layered or body.trigger:
            bodies = self.bodies
            found = [e for e in found if self.meet(body, bodies[e])]
        return found, load

    def widen(self, body: Body, box: Box) -> tuple[list[int], list[tuple[int, int]]]:
        """``candidates`` for a moving ``body`` within ``box`` (px), filing it
        under ``box`` too, as well as under the swept box it had, when its
        path changed during the step and leaves that box: later queries and
        its partners' candidates then see where it goes now. Also returns
        the pairs (a < b) it newly meets, added to both bodies' partners."""
        filed = self.grid.box_of(body.entity)
        if _within(box, filed):
            return body.neighbours, []
        self.file_wider(body, union_box(filed, box))
        bodies, entity = self.bodies, body.entity
        if self.layered or body.trigger or body.static:
            found = [e for e in self.grid.query(box) if e != entity and self.meet(body, bodies[e])
                     and not (body.static and bodies[e].static)]
        else:  # a plain mover meets everything it touches
            found = [e for e in self.grid.query(box) if e != entity]
        known = set(body.neighbours)
        met = []
        for other in found:
            if other not in known:
                body.neighbours.append(other)
                bodies[other].neighbours.append(entity)
                met.append((entity, other) if entity < other else (other, entity))
        return found, met

    def file_wider(self, body: Body, box: Box) -> None:
        """File ``body`` in the grid under ``box`` (px), a box holding the
        one it was filed under (see ``widen``)."""
        self.grid.insert(body.entity, box, _level(body))
        self._filed = self._swept = None

    def file_rows_wider(self, rows: list[int], filed: np.ndarray) -> None:
        """``file_wider`` the bodies of ``rows`` (of ``columns``) under
        their rows of ``filed``, which holds every body's box as filed once
        they are (an (n, 4) array, px, in the order of ``columns``): it is
        kept as ``filed_boxes()``."""
        # STATICs never widen (their paths never change), so none of them is level geometry.
        self.grid.insert_many(self.columns.entities[rows], filed[rows], [])
        self._filed, self._swept = filed, None
        self.grid.snapshot(self.columns.entities, filed)

    def _rebuild_from(self, sources: tuple[list[Any], list[Any]]) -> int:
        """``_rebuild`` from esper's lists of (Transform, Collider) and of
        Physics, kept to tell when they change; returns the kind bits."""
        self._sources = sources
        return self._rebuild(sorted(sources[0], key=itemgetter(0)), dict(sources[1]))

    def _rebuild(self, rows: list[tuple[int, tuple[Transform, Collider]]],
                 physics_of: dict[int, Physics]) -> int:
        """Bodies for this step's colliders, reusing last step's where the
        entity kept the same components, and the grid to match, filed in
        entity order; returns the bodies' kind bits together."""
        self._filed = None
        size = self.cell_size or choose_cell_size(
            max(c.size.x, c.size.y) for _, (_, c) in rows if c.type is not ColliderType.STATIC
        )
        if self.grid.cell_size != size:
            self.grid = SpatialGrid(size)
        previous, pool = self._pool, {}
        for entity, (transform, collider) in rows:
            physics = physics_of.get(entity)
            body = previous.get(entity)
            if (body is None or body.transform is not transform
                    or body.collider is not collider or body.physics is not physics):
                body = Body(entity, transform, collider, physics)
            pool[entity] = body
        for gone in sorted(previous.keys() - pool.keys()):
            self.grid.remove(gone)
        self._pool = pool
        self._rows = {entity: row for row, entity in enumerate(pool)}
        self.columns = Columns.of([(b.entity, b.transform, b.collider, b.physics) for b in pool.values()])
        self._classify()
        kinds, swept, _ = self._read_movers()  # (just classified: no mover is level geometry)
        movers = iter(zip(self._mover_columns.entities, swept.tolist()))
        for body in pool.values():  # one by one, in entity order: the order the grid's cells list them
            if body.entity not in self._mover_set:
                refresh(body, self.grid)
                continue
            entity, (x, y, w, h) = next(movers)
            self.grid.insert(entity, (x, y, w, h))
        self._resting = _Resting(self._resting.bodies)
        self._reread.update((body.entity, body) for body in self._resting.bodies)
        return kinds | self._resting.kinds

    def settle_kinematic(self) -> None:
        """Make the final position of each collider without Physics its
        start for the next step, so a move made by user code between steps is
        seen. Level geometry not read anew since the last call already
        starts where it is (Collision may run twice in a step: what either
        run read anew is settled)."""
        for body in (*self._kinematic, *self._reread.values()):
            body.transform.previous_position.update(body.transform.position)
        self._reread.clear()

    def _classify(self) -> None:
        """Split the bodies into level geometry (STATIC, no Physics: compared
        each step, read only when changed) and the rest (read each step, at
        once: their rows of ``columns``)."""
        bodies = list(self._pool.values())
        level = [_level(body) for body in bodies]
        self._movers = [body for body, fixed in zip(bodies, level) if not fixed]
        self._mover_set = {body.entity for body in self._movers}
        self._kinematic = [body for body in self._movers if body.physics is None]
        before = self._resting.entities
        self._resting = _Resting([body for body, fixed in zip(bodies, level) if fixed])
        for body in self._resting.bodies:  # (one read with the movers until now is out of date)
            if body.entity not in before:
                read(body)
        self._mover_rows = np.flatnonzero(~np.array(level, bool))
        self._resting_rows = np.flatnonzero(np.array(level, bool))
        self._mover_columns = _MoverColumns([body.entity for body in self._movers],
                                            [body.transform for body in self._movers],
                                            [body.collider for body in self._movers],
                                            [body.physics for body in self._movers])


# Enum members as plain globals: an Enum class attribute is slow to look up,
# and ``read`` runs for every Body made.
_STATIC, _TRIGGER, _ALL_SIDES, _BOX = ColliderType.STATIC, ColliderType.TRIGGER, Side.ALL, Shape.BOX


def read(body: Body, moved: bool | None = None) -> None:
    """Read a body's components for this step (``moved``: whether its
    position changed this step, when already known). Type, shape, mass,
    layers and faces are read anew each step: they may be changed in place
    between steps."""
    body._before = None
    collider, transform, physics = body.collider, body.transform, body.physics
    kind = collider.type
    body.static = static = kind is _STATIC
    body.trigger = trigger = kind is _TRIGGER
    body.shape = shape = collider.shape
    body.inverse_mass = 0.0 if static or trigger or physics is None else 1.0 / physics.mass
    # Vector2 read by index: its ``x`` goes through pygame's attribute
    # lookup (swizzles), about twice the cost.
    now, offset, size = transform.position, collider.offset, collider.size
    body.box = (now[0] + offset[0], now[1] + offset[1], size[0], size[1])
    if moved is None:
        start = transform.previous_position
        moved = start[0] != now[0] or start[1] != now[1]
    body.moved = moved


def refresh(body: Body, grid: SpatialGrid) -> None:
    """``read`` a body and file it in ``grid`` under its swept bounds (the
    union of its boxes at the start of the step and now)."""
    read(body)
    x, y, w, h = body.box
    start, now = body.transform.previous_position, body.transform.position
    dx, dy = start[0] - now[0], start[1] - now[1]
    grid.insert(body.entity, (x + dx if dx < 0 else x, y + dy if dy < 0 else y, w + abs(dx), h + abs(dy)),
                _level(body))


def _within(box: Box, outer: Box) -> bool:
    """Whether ``box`` lies inside ``outer`` (edges may touch)."""
    x, y, w, h = box
    ox, oy, ow, oh = outer
    return ox <= x and oy <= y and x + w <= ox + ow and y + h <= oy + oh


def _level(body: Body) -> bool:
    """Whether a body is level geometry: STATIC, without Physics."""
    return body.collider.type is _STATIC and body.physics is None


def _by_row(pairs: np.ndarray, n: int, entities: np.ndarray) -> tuple[np.ndarray, list[int]]:
    """Each of ``n`` rows' partners in ``pairs`` (an (m, 2) array of rows),
    in pair order, as ``entities``: all of them in one array, row by row,
    and where each row's begin (compressed sparse rows; a step makes few
    Bodies, so each takes its own slice to a list)."""
    flat = pairs.reshape(-1)
    order, starts = group_by_row(flat, n)  # a row's entries keep their pairs' order
    return entities[flat[order ^ 1]], starts.tolist()  # (order ^ 1: the other row of the same pair)


def _filed_by(body: Body) -> tuple[object, ...]:
    """What files a STATIC in the grid, as plain values: its position and
    previous position, collider offset and size (px), type, shape, layers
    and faces."""
    transform, collider = body.transform, body.collider
    now, start, offset, size = transform.position, transform.previous_position, collider.offset, collider.size
    return (now.x, now.y, start.x, start.y, offset.x, offset.y, size.x, size.y,
            collider.type, collider.shape, collider.category, collider.mask, collider.sides)


class _Resting:
    """Level geometry (see ``Collide``): the bodies, what each was
    filed by when last read, and their kind bits together."""

    def __init__(self, bodies: list[Body] | None = None) -> None:
        self.bodies = bodies or []
        self.entities = {body.entity for body in self.bodies}
        self.seen = [_filed_by(body) for body in self.bodies]
        self.kinds = _or_all(self.bodies)

    def changed(self, grid: SpatialGrid) -> list[Body]:
        """Read anew, and re-file in ``grid``, the bodies whose filing
        changed since they were last read; returns them in entity order.
        (Field by field, stopping at the first difference: about 0.4 µs a
        body against 1.4 µs to read and file it.)"""
        changed = []
        # The fields of ``_filed_by`` in its order, compared one by one
        # (building its tuple for every body would cost twice as much).
        for index, (body, seen) in enumerate(zip(self.bodies, self.seen)):
            transform, collider = body.transform, body.collider
            now, start = transform.position, transform.previous_position
            # By index: cheaper than pygame's ``x`` lookup, for every tile of a level.
            if now[0] == seen[0] and now[1] == seen[1] and start[0] == seen[2] and start[1] == seen[3]:
                offset, size = collider.offset, collider.size
                if (offset[0] == seen[4] and offset[1] == seen[5] and size[0] == seen[6] and size[1] == seen[7]
                        and (collider.type, collider.shape, collider.category, collider.mask,
                             collider.sides) == seen[8:]):
                    continue
            refresh(body, grid)
            self.seen[index] = _filed_by(body)
            changed.append(body)
        if changed:
            self.kinds = _or_all(self.bodies)
        return changed


def _or_all(bodies: list[Body]) -> int:
    """The kind bits of ``bodies`` together, from their components now."""
    colliders = [body.collider for body in bodies]
    return kinds_of([collider.type for collider in colliders], colliders, [body.physics for body in bodies])
