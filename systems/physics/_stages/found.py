"""Found: what one run of the collide stage found, made fresh by each run.

A ``Found`` holds one step's bodies and candidate pairs as the collide stage
(``systems.physics._stages.collide``) read them: the colliders' table
(``columns``), each collider's ``Body`` (``bodies``, made when first looked
up), the pairs (``pairs``, ``pair_rows()``), each body's box as filed in the
grid (``filed_boxes()``) and the bodies' kind bits. It lives from one collide
run to the next: Collision may run twice in a step (the World runs it again
when a system ran after it), and each run makes a new ``Found``, so a stage
handed the latest one never reads a cache made before a body moved. Its
lazies (the pairs as entities, the filed boxes, each body's partners) are
made when first asked for and go with it.

The later stages write into it only through named methods: ``widen``,
``file_wider`` and ``file_rows_wider`` file a body whose path changed under a
wider box in the collide stage's grid (the grid itself lives across steps,
owned by ``Collide``), and ``add_met_rows`` adds the pairs the compiled sweeps
met to the bodies' partners. Each of them drops what it makes out of date.

Also here: ``read`` and ``refresh``, which read a Body from its components.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import chain

import numpy as np

from components import ColliderType
from components.layers import interacts
from systems.physics._bodies.body import Bodies, Body
from systems.physics._bodies.table import Columns, Geometry, Vectors, entity_pairs, read_geometry
from systems.physics._broad.grid import SpatialGrid
from systems.physics._kernels import background
from systems.physics._shapes.geometry import Box, union_box

__all__ = ["Found", "LevelRead", "carried", "is_level", "read", "refresh", "spliced"]

# Shared empty values (never changed in place): a Found is made every step.
_NO_ROWS = np.zeros(0, np.int64)
_NO_PAIRS = np.zeros((0, 2), np.int64)
_NOTHING_READ = (_NO_ROWS, read_geometry(Vectors.of([], [])))

#: Row partners: every row's partners as entities, in one array row by row,
#: and where each row's begin (compressed sparse rows).
Partners = tuple[np.ndarray, list[int]]


@dataclass(frozen=True, slots=True)
class LevelRead:
    """Level geometry (STATIC colliders without Physics) as last read: its
    ``rows`` of the colliders' table (ascending), where it is
    (``geometry``) and the boxes it is filed under (``filed``, px, (n, 4)).
    The collide stage makes a new one only when some of it changed or the
    colliders did, so the later stages may keep what they derive from it
    for as long as it is the same object, and carry over what they derived
    for the bodies it read as the one before did (``carried``): ``since``
    holds (that read, the indices of those bodies here, theirs there), emptied
    once a later read is made from this one (one earlier read is kept alive)."""

    rows: np.ndarray
    geometry: Geometry
    filed: np.ndarray
    since: list[tuple[LevelRead, np.ndarray, np.ndarray]] = field(default_factory=list)


_NO_LEVEL = LevelRead(_NO_ROWS, _NOTHING_READ[1], np.zeros((0, 4)))


def carried(level: LevelRead, earlier: LevelRead | None) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """The indices of ``level``'s bodies read as ``earlier`` read them (the same bodies,
    nothing they are filed by changed since), their indices in ``earlier``, and the indices
    of the others (read anew); None where ``level`` was not read from ``earlier``."""
    if level is earlier:
        every = np.arange(len(level.rows))
        return every, every, _NO_ROWS
    if earlier is None or not level.since or level.since[0][0] is not earlier:
        return None
    _, here, there = level.since[0]
    return here, there, np.setdiff1d(np.arange(len(level.rows)), here, assume_unique=True)


def spliced(kept: tuple[np.ndarray, np.ndarray, np.ndarray], earlier: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Rows of a new array: ``earlier``'s rows ``kept[1]`` at ``kept[0]``, and ``values`` at
    ``kept[2]`` (``carried``'s three)."""
    here, there, fresh = kept
    out = np.empty((len(here) + len(fresh), *earlier.shape[1:]), earlier.dtype)
    out[here] = earlier[there]
    out[fresh] = values
    return out


class Found:
    """One collide run's bodies and candidate pairs (see the module docstring).

    Set by the collide run that makes it: ``columns`` (the colliders'
    components in entity order, ``systems.physics._bodies.table``), ``rows``
    (entity -> row of ``columns``), ``bodies`` (the collide stage's one
    ``Bodies``, restarted to look up this run's), ``grid`` (the collide
    stage's, whose ``boxes`` hold each body's swept bounds, px), ``kinds``
    (every body's kind bits together), ``mover_kinds`` (those of the bodies
    read each step, level geometry left out, where known; else every bit),
    ``layered`` / ``one_way`` (whether any
    collider uses layers / one-way faces), ``level`` (the entities of level
    geometry: STATIC without Physics), ``static_movers`` (the other STATICs:
    moving platforms), and, as the movers were read: ``moved`` (per row: 1
    if the body moved this step, 0 if not, -1 if not read at once),
    ``movers_read`` (their rows and ``Geometry``), ``swept`` (their rows
    and swept bounds in px; None once a box is filed anew, or when the
    colliders were sorted anew mid-run), ``static_mover_rows`` and
    ``level_mover_rows`` (the movers' rows that are STATIC; of them, those
    without Physics); and ``resting``, level geometry as last read
    (``LevelRead``).
    """

    __slots__ = ("columns", "rows", "bodies", "grid", "kinds", "mover_kinds", "layered", "one_way", "level",
                 "static_movers", "moved", "movers_read", "swept", "static_mover_rows", "level_mover_rows", "resting",
                 "room", "_pairs", "_pair_rows", "_pair_source", "_met_source", "_partners", "_filed")

    def __init__(self, columns: Columns, rows: dict[int, int], bodies: Bodies, grid: SpatialGrid) -> None:
        self.columns, self.rows, self.bodies, self.grid = columns, rows, bodies, grid
        self.kinds = 0
        self.mover_kinds = ~0  # (unknown: every kind, so a reader reads every field)
        self.layered = self.one_way = False
        self.level: set[int] = set()
        self.static_movers: list[int] = []
        self.moved: np.ndarray = np.zeros(0, np.int8)
        self.movers_read: tuple[np.ndarray, Geometry] = _NOTHING_READ
        self.swept: tuple[np.ndarray, np.ndarray] | None = None
        self.static_mover_rows = self.level_mover_rows = _NO_ROWS
        self.resting = _NO_LEVEL
        self._pairs: list[tuple[int, int]] | None = []
        self._pair_rows: np.ndarray | None = None
        self._pair_source: np.ndarray | None = None  # the compiled broad phase's pairs, for the partners
        self._met_source = _NO_PAIRS  # and the pairs the compiled sweeps met
        # Made from them when first asked for: the partners of each row for each.
        self._partners: tuple[Partners, Partners] | None = None
        self._filed: np.ndarray | None = None  # filed_boxes, until a box is filed anew
        # Room for filed_boxes holding level geometry's rows as ``resting`` files them (None: made here).
        self.room: np.ndarray | None = None

    def take_pairs(self, pairs: list[tuple[int, int]]) -> None:
        """Set the pairs (a < b) the grid found; its loop fills the partners."""
        self._pairs, self._pair_rows = pairs, None

    def take_rows(self, rows: np.ndarray) -> None:
        """Set the pairs the compiled broad phase found, as rows of
        ``columns`` (an (m, 2) array, a < b); the list of pairs, and the
        bodies' partners, are made from them only if asked for."""
        self._pairs, self._pair_rows, self._pair_source = None, rows, rows

    def keep_pairs(self, earlier: Found) -> None:
        """Keep the pairs of an ``earlier`` run (``Collide.sync`` leaves
        the pairs as they were), as it holds them."""
        self._pairs, self._pair_rows = earlier._pairs, earlier._pair_rows

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

    def geometry_read(self) -> tuple[np.ndarray, Geometry]:
        """The ``Geometry`` read this step of the bodies that move (all but
        level geometry), and their rows of ``columns``."""
        return self.movers_read

    def filed_boxes(self) -> np.ndarray:
        """Every body's box as filed in the grid (px), an (n, 4) array in
        entity order (the rows of ``columns``)."""
        if self._filed is None:
            grid, n = self.grid, len(self.columns.transforms)
            if self.swept is None:  # a box was filed anew since the movers were read
                self._filed = grid.boxes_of(self.columns.entities)
            else:  # the movers' swept bounds as read, level geometry as filed
                rows, swept = self.swept
                if self.room is None:
                    self.room = np.empty((n, 4))
                    self.room[self.resting.rows] = self.resting.filed
                self._filed = self.room
                self._filed[rows] = swept
            self.grid.snapshot(self.columns.entities, self._filed)
        return self._filed

    def partners_of(self, row: int) -> list[int]:
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
                row = self.rows[body.entity]
                body.neighbours.extend(found[starts[row]:starts[row + 1]].tolist())

    def statics(self) -> list[Body]:
        """The Bodies of this step's STATIC colliders, in entity order."""
        bodies = self.bodies
        return [bodies[entity] for entity in sorted(self.level.union(self.static_movers))]

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
        self.grid.insert(body.entity, box, is_level(body))
        self._filed = self.swept = None

    def file_rows_wider(self, rows: list[int], filed: np.ndarray) -> None:
        """``file_wider`` the bodies of ``rows`` (of ``columns``) under
        their rows of ``filed``, which holds every body's box as filed once
        they are (an (n, 4) array, px, in the order of ``columns``): it is
        kept as ``filed_boxes()``."""
        # STATICs never widen (their paths never change), so none of them is level geometry.
        self.grid.insert_many(self.columns.entities[rows], filed[rows], [])
        self._filed, self.swept = filed, None
        self.grid.snapshot(self.columns.entities, filed)


# Enum members as plain globals: an Enum class attribute is slow to look up,
# and ``read`` runs for every Body made.
_STATIC, _TRIGGER = ColliderType.STATIC, ColliderType.TRIGGER


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
    union of its boxes at the start of the step and now, px)."""
    read(body)
    x, y, w, h = body.box
    start, now = body.transform.previous_position, body.transform.position
    dx, dy = start[0] - now[0], start[1] - now[1]
    grid.insert(body.entity, (x + dx if dx < 0 else x, y + dy if dy < 0 else y, w + abs(dx), h + abs(dy)),
                is_level(body))


def is_level(body: Body) -> bool:
    """Whether a body is level geometry: STATIC, without Physics."""
    return body.collider.type is _STATIC and body.physics is None


def _within(box: Box, outer: Box) -> bool:
    """Whether ``box`` lies inside ``outer`` (edges may touch)."""
    x, y, w, h = box
    ox, oy, ow, oh = outer
    return ox <= x and oy <= y and x + w <= ox + ow and y + h <= oy + oh


def _by_row(pairs: np.ndarray, n: int, entities: np.ndarray) -> Partners:
    """Each of ``n`` rows' partners in ``pairs`` (an (m, 2) array of rows),
    in pair order, as ``entities``: all of them in one array, row by row,
    and where each row's begin (compressed sparse rows; a step makes few
    Bodies, so each takes its own slice to a list)."""
    flat = pairs.reshape(-1)
    order, starts = background.kernels().group_by_row(flat, n)  # a row's entries keep their pairs' order
    return entities[flat[order ^ 1]], starts.tolist()  # (order ^ 1: the other row of the same pair)
