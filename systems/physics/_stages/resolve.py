"""The resolve stages, in the compiled core: sweep, push-out, crushing and ground snapping.

The sweep: every moving body swept along its path in the step, impacts taken earliest first,
momentum and friction exchanged at each, and the bodies an impact changed swept again (the
timeslice subdivision of Sacred Software, *Collisions, Part 1*; ``systems.physics._kernels.sweep``,
whose docstring has the details: gravity within a step, rows of boxes struck at once).
Push-out: every pair left overlapping (bodies spawned inside each other, or any step of the
discrete pipeline) pushed apart, earliest entry first, piles spread first
(``systems.physics._kernels.push``). Crushing: each body squeezed between things that won't
yield put between them (``systems.physics._kernels.crush``). Ground snapping: walkers kept on
the ground (``systems.physics._kernels.ground``).

This module runs them: ``Resolver.run`` reads the step's bodies from their components at once
(``systems.physics._bodies.table``) into the kernels' tables (one row per body, in entity
order), runs the four kernels of the copy ``background.kernels`` names (compiled, or the same
source as plain Python), and writes back velocities, positions, the Resolution's contacts,
crushed bodies and riders, the squeezes for the next step, the broad phase's
widened boxes and new partners.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any

import numpy as np
from pygame import Vector2

from components import ALL, Collider, ColliderType, Physics, Shape
from components._checks import assignments
from systems.physics._kernels import background
from systems.physics._kernels.plain import Kernels
from systems.physics._kernels.shapes import BOX, SHAPE_VALUES
from systems.physics._kernels import settle as kernel_settle
from systems.physics._kernels import sweep as k
from systems.physics._kernels import table as t
from systems.physics._bodies.kept import Kept
from systems.physics._bodies.table import (
    Columns, Materials, Selection, VectorList, entity_pairs, read_arrays,
)
from systems.physics._bodies.kinds import LAYERED, ONE_WAY, SHAPED, TRIGGER
from systems.physics._shapes.geometry import TIES
from systems.physics._solver.resolution import Resolution
from systems.physics._solver.riders import Rides
from systems.physics._stages.context import StepContext
from systems.physics._stages.found import Found, LevelRead, carried, spliced
from systems.physics._stages.memory import Grounded, Memory, Squeezes
from systems.physics._stages import storage

__all__ = ["Resolved", "Resolver", "ask_filters"]

log = logging.getLogger(__name__)

_TIES = np.array(TIES)
_STATIC, _TRIGGER = ColliderType.STATIC, ColliderType.TRIGGER
#: Each shape's small int in the kernels (systems.physics._kernels.shapes).
# Keyed by the members' values (``_value_``, a plain attribute): hashing an Enum member,
# or reading its ``value`` property, runs Python code, and these are read for every body.
_SHAPE_CODES = {Shape(value)._value_: code for code, value in enumerate(SHAPE_VALUES)}
_NO_VERDICTS = np.zeros((0, 3), np.int64)
_NO_SQUEEZES = (np.zeros((0, 2), np.int64), np.zeros((0, 2)))
_NO_GROUNDED = (np.zeros(0, np.int64), np.zeros((0, 2)))
_NO_CONTACTS = (np.zeros((0, 2), np.int64), np.zeros((0, 8)), np.zeros(0, np.int64))

#: Times a stage: ``World.timed``, given the stage's name.
Timer = Callable[[str], AbstractContextManager[object]]


@dataclass(frozen=True, slots=True)
class Resolved:
    """What the resolve stages found: ``frozen``, the first entity that reached the bound on
    impacts, or None; ``met_rows``, the pairs the sweeps first met on changed paths, as rows of
    ``entities`` (``met()`` gives them as entities, a < b)."""

    frozen: int | None
    met_rows: np.ndarray
    entities: np.ndarray

    def met(self) -> list[tuple[int, int]]:
        """The pairs first met on changed paths, as entities (a < b)."""
        return list(entity_pairs(self.entities, self.met_rows))


class Resolver:
    """The resolve stages, and what they keep from step to step: ``max_subdivisions``, the
    bound on the impacts one body takes part in per step (Sacred Software's article uses 32; a
    body that reaches it stops where it is for the rest of the step, and a single warning is
    logged), the kernels' work buffers, as large as a step has needed, and level geometry's
    codes in the kernels' table (``_level_codes``). ``kernels``:
    the copy of the kernels to run (None, the default: the one ``background.kernels`` names
    each step)."""

    def __init__(self, max_subdivisions: int = 32) -> None:
        if max_subdivisions < 1:
            raise ValueError(f"max_subdivisions must be >= 1, got {max_subdivisions!r}")
        self.max_subdivisions = max_subdivisions
        self.kernels: Kernels | None = None
        self._buffers: tuple[Any, ...] | None = None
        # The last run's contacts as the rows it recorded them by: its Resolution, the colliders'
        # table they are rows of, and the rows (``_last_contacts``).
        self._contact_rows: tuple[Resolution, Columns, np.ndarray] | None = None
        # Level geometry's codes (``_level_codes``) and what they were made for.
        self._level: tuple[LevelRead, np.ndarray, Columns, int, np.ndarray] | None = None
        self._tables = _Tables()
        # Where the core's positions go back to: the movers' (no kernel moves level geometry), kept
        # while they are the same rows and no vector is assigned.
        self._positions = Kept(lambda transforms, rows: VectorList([transforms[row].position for row in rows.tolist()]),
                               vectors=True)
        self._warned = False

    def run(self, step: StepContext, memory: Memory, timed: Timer, name: str) -> Resolved:
        """Sweep the step's moving bodies (in the continuous pipeline), push apart what is left
        overlapping, centre the crushed bodies and snap walkers to the ground; timed as
        ``"<name>.sweep"``, ``".push_out"``, ``".crush"`` and ``".ground"``. Last step's
        squeezes (``memory.squeezes``) keep a crushed body from being pushed out through what
        squeezes it, and this step's replace them; last step's grounded bodies
        (``memory.grounded``) are the ones snapped."""
        collision, state = step.collision, step.state
        level_codes = self._level_codes(collision)
        sweeps = step.continuous and step.dt > 0
        kernels = self.kernels or background.kernels()
        with timed(f"{name}.sweep" if sweeps else f"{name}.push_out"):
            verdicts = ask_filters(collision, state, step.check_vectors) if state.filters else _NO_VERDICTS
            parameters = _parameters(step, self.max_subdivisions, sweeps)
            tables = self._tables.start(collision, level_codes, step.riders, bool(step.gravity),
                                        bool(memory.grounded), kernels)
            squeezes = _squeezes(collision, memory.squeezes)
            grounded = _grounded(collision, memory.grounded)
            last = self._last_contacts(collision, memory) if sweeps and state.up else _NO_CONTACTS  # (piles: gravity)
        pairs = collision.pair_rows()
        buffers = k.buffers_for(self._buffers, len(pairs), len(tables[0]))
        while True:
            with timed(f"{name}.sweep" if sweeps else f"{name}.push_out"):
                status, contacts, events, unasked = kernels.run_sweeps(*tables, pairs, verdicts, _TIES, parameters,
                                                                       buffers, self._tables.filing(buffers),
                                                                       last)
            if not (status[t.OVERFLOW] or status[t.UNASKED]):
                with timed(f"{name}.push_out"):
                    status = kernels.push_out(*tables, pairs, _TIES, parameters, squeezes, status, buffers)
            if not (status[t.OVERFLOW] or status[t.UNASKED]):
                with timed(f"{name}.crush"):
                    status = kernels.crush(*tables, squeezes, status, buffers)
            if not (status[t.OVERFLOW] or status[t.UNASKED]):
                with timed(f"{name}.ground"):
                    status = kernels.snap_to_ground(*tables, grounded, parameters, status, buffers)
            if status[t.OVERFLOW]:
                # Rare: what overflowed is doubled, and kept for later steps.
                buffers = k.buffers_for(buffers, len(pairs), len(tables[0]), int(status[t.OVERFLOW]))
            elif status[t.UNASKED]:  # pairs met in the run that the filters were not asked about
                met = unasked[:int(status[t.UNASKED])]
                asked = [state.allows(a, b) for a, b in entity_pairs(collision.columns.entities, met)]
                step.check_vectors()  # (the filters are the game's code: a vector they wrote is refused here)
                verdicts = np.concatenate((verdicts, np.column_stack((met, np.array(asked, np.int64)))))
            else:
                break
            tables = self._tables.start(collision, level_codes, step.riders, bool(step.gravity),  # (run: changed)
                                        bool(memory.grounded), kernels)
        self._buffers = buffers
        self._tables.ran(pairs, events[2][:int(status[t.MET])], buffers[6])
        self._tables.filing(buffers)[3][k.KEPT_CONTACTS] = status[t.CONTACTS]  # (the next run empties their slots)
        with timed(f"{name}.push_out"):
            return self._scatter(collision, state, memory, tables, status, contacts, events, buffers, step, kernels)

    def _last_contacts(self, collision: Found, memory: Memory) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The last step's contacts (``Memory.contact_arrays``) for the sweeps to resolve the
        resting ones first: as rows of this step's bodies (-1 for one gone), their values and
        time order. The rows the last run recorded them by while they are the same contacts
        and the same table, else found by entity (entities made or deleted since, or the
        contacts restored from a snapshot): the same rows either way."""
        pairs, values, order = memory.contact_arrays()
        kept = self._contact_rows
        if kept is not None and kept[0] is memory.resolution and kept[1] is collision.columns:
            return kept[2], values, order
        known = collision.columns.entities
        if not len(known):
            return np.full(pairs.shape, -1, np.int64), values, order
        rows = np.minimum(np.searchsorted(known, pairs), len(known) - 1)
        return np.where(known[rows] == pairs, rows, -1), values, order

    def _level_codes(self, collision: Found) -> np.ndarray:
        """Level geometry's ``_codes``, kept while it is read the same (``LevelRead``), and
        while it is read anew only because a tile moved or was resized: the same rows of the
        same colliders, no Collider field assigned since (its codes are of those fields)."""
        level, columns, assigned = collision.resting, collision.columns, assignments(Collider)
        kept = self._level
        if kept is not None and kept[0] is level:
            return kept[4]
        if kept is not None and kept[1] is level.rows and kept[2] is columns and kept[3] == assigned:
            codes = kept[4]
        elif kept is not None and (same := carried(level, kept[0])) is not None:  # (unchanged: fields too)
            # A tile added, removed or changed: only its codes made.
            codes = spliced(same, kept[4], _codes([columns.colliders[row] for row in level.rows[same[2]].tolist()]))
        else:
            codes = _codes([columns.colliders[row] for row in level.rows.tolist()])
        self._level = level, level.rows, columns, assigned, codes
        return codes

    def _scatter(self, collision: Found, state: Resolution, memory: Memory, tables: tuple[np.ndarray, np.ndarray],
                 status: np.ndarray, contacts: tuple[np.ndarray, np.ndarray], events: tuple[np.ndarray, ...],
                 buffers: tuple[Any, ...], step: StepContext, kernels: Kernels) -> Resolved:
        """What the run found back to the components, the Bodies, the Resolution and the grid,
        and its warnings logged."""
        table, ints = tables
        entities = collision.columns.entities
        columns = collision.columns
        movers = self._tables.movers
        _scatter(collision, table, ints, movers, state, self._positions(columns.transforms, movers),
                 self._tables.velocities(), kernels)
        count = int(status[t.CONTACTS])
        _record(entities, contacts, count, state)
        self._contact_rows = state, columns, contacts[1][:count].copy()  # (for the next run: ``_last_contacts``)
        memory.squeezes = _kept_squeezes(entities, buffers, int(status[t.SQUEEZES]))
        met = events[2][:int(status[t.MET])].copy()  # (the buffers are the next step's)
        _widen(collision, table, events[1][:int(status[t.WIDENED])], met)
        frozen = None if status[t.FROZEN] < 0 else int(entities[status[t.FROZEN]])
        if frozen is not None and not self._warned:
            self._warned = True
            log.warning("entity %d took part in %d impacts in one step; it stops where it is for the rest of the "
                        "step (warned once per World)", frozen, self.max_subdivisions)
        if status[t.WARN_A] >= 0 and not memory.warned_overlap:
            memory.warned_overlap = True
            depth = float(buffers[-1][5][0])  # (push.push_buffers' report)
            log.warning("entities %d and %d still overlap by %.3f px after %d iterations; resolution may be "
                        "incomplete this step (warned once per World)", int(entities[status[t.WARN_A]]),
                        int(entities[status[t.WARN_B]]), depth, step.max_iterations)
        return Resolved(frozen, met, entities)


def _parameters(step: StepContext, max_subdivisions: int, sweeps: bool) -> np.ndarray:
    """The kernels' step parameters (``systems.physics._kernels.table``)."""
    state, collision, gravity, dt = step.state, step.collision, step.gravity, step.dt
    values = [0.0] * t.STEP_PARAMETERS
    # (Set one by one into a list: a step makes this once, and NumPy's indexed assignments
    # cost several times more than the list.) The pull is the velocity gravity adds in a step (px/s).
    for index, value in ((t.DT, dt), (t.REST_SPEED, state.rest_speed), (t.MAX_SUBDIVISIONS, max_subdivisions),
                         (t.CELL_SIZE, collision.grid.cell_size), (t.LAYERED, collision.layered),
                         (t.PULL_X, gravity.x * dt), (t.PULL_Y, gravity.y * dt), (t.UP_X, state.up.x),
                         (t.UP_Y, state.up.y), (t.FILTERED, bool(state.filters)), (t.ONE_WAY_FACES, collision.one_way),
                         (t.MAX_ITERATIONS, step.max_iterations), (t.SLOW_DT, state.dt), (t.SWEEPS, sweeps)):
        values[index] = value
    return np.array(values, float)


def _grounded(collision: Found, grounded: Grounded) -> tuple[np.ndarray, np.ndarray]:
    """Last step's grounded bodies as the ground-snapping kernel takes them: their rows (-1 for
    an entity gone since), in entity order, and the unit normals of their grounds."""
    if not len(grounded):
        return _NO_GROUNDED
    order = np.argsort(grounded.entities, kind="stable")
    entities, known = grounded.entities[order], collision.columns.entities
    rows = np.searchsorted(known, entities)
    found = rows < len(known)
    found[found] = known[rows[found]] == entities[found]
    return np.where(found, rows, -1), grounded.normals[order]


def _kept_squeezes(entities: np.ndarray, buffers: tuple[Any, ...], count: int) -> Squeezes:
    """The squeezes the crush kernel kept (``push.push_buffers``' crushing part), by entity
    pair, in order."""
    _, pairs, normals = buffers[-1][6][2]
    ids = entities[pairs[:count]].tolist()
    return {(a, b): Vector2(x, y) for (a, b), (x, y) in zip(ids, normals[:count].tolist())}


def _squeezes(collision: Found, squeezes: Squeezes) -> tuple[np.ndarray, np.ndarray]:
    """Last step's squeezes as the push-out kernel takes them: the pairs as rows (-1 for an
    entity gone since) and their normals, in order."""
    if not squeezes:
        return _NO_SQUEEZES
    rows = collision.rows
    pairs = np.array([(rows.get(a, -1), rows.get(b, -1)) for a, b in squeezes], np.int64).reshape(-1, 2)
    return pairs, np.array([(normal.x, normal.y) for normal in squeezes.values()]).reshape(-1, 2)


def ask_filters(collision: Found, state: Resolution, check_vectors: Callable[[], None]) -> np.ndarray:
    """Ask the collision filters about each of the step's candidate pairs
    but two STATICs (which never collide), in entity order, before the
    sweeps resolve any; returns their verdicts as rows of
    ``collision.columns`` (a < b, then 1 if they may collide, else 0). The filters are the
    game's code: the vectors are checked again after them (``check_vectors``), so one they
    made bad in place is refused, naming it, before the core reads it."""
    rows = collision.pair_rows()
    rows = rows[np.lexsort((rows[:, 1], rows[:, 0]))]
    static = np.array([collider.type is _STATIC for collider in collision.columns.colliders], bool)
    rows = rows[~(static[rows[:, 0]] & static[rows[:, 1]])]
    verdicts = [state.allows(a, b) for a, b in entity_pairs(collision.columns.entities, rows)]
    check_vectors()
    return np.column_stack((rows, np.array(verdicts, np.int64))).astype(np.int64)


class _Tables:
    """The kernels' body tables (one row per body, in entity order), kept from step to step: a
    template holding level geometry's rows and every row's columns that don't change, made
    when the colliders or level geometry are read anew, and the tables a run works on, which
    each step starts with the other bodies' rows read in and level geometry's rows as the
    template holds them: those the last run reached are copied back (``ran``), the others
    were left as they are. Level geometry thus costs neither a read nor a copy a step; the
    other bodies' rows are filled in place, a row at a time (``table.fill_rows``)."""

    def __init__(self) -> None:
        self._key: tuple[Columns, LevelRead] | None = None
        self._template = (t.aligned_table(0, t.FLOAT_COLUMNS), t.aligned_table(0, t.INT_COLUMNS, np.int64))
        self._tables = self._template
        self._movers = np.zeros(0, np.int64)
        self._level_rows = np.zeros(0, np.int64)
        self._level = np.zeros(0, bool)  # whether each row is level geometry's
        # Level geometry rows the last run may have written, restored at the next start (None: all).
        self._dirty: np.ndarray | None = None
        self._selection = Selection.of(Columns.of([]), self._movers)  # the movers' components
        self._physics: list[Physics] = []  # every body's Physics, in entity order
        # What the movers' fields that change only by assignment give the tables, kept while
        # none is assigned: their materials, their codes, every gravity scale and ground snap;
        # and their velocities' Vector2s, kept while no vector is assigned.
        self._materials = Kept(Materials.of)
        self._velocities = Kept(lambda movers: VectorList([body.velocity for body in movers]), vectors=True)
        self._codes = Kept(_codes)
        self._gravity_scales = Kept(lambda physics: np.array([body.gravity_scale for body in physics], float))
        self._ground_snaps = Kept(lambda physics: np.array([body.ground_snap for body in physics], float))
        # The movers' constant rows (``_constant_rows``), and the materials, codes, gravity scales
        # and ground snaps they hold.
        self._constant: tuple[Materials, np.ndarray, np.ndarray | None, np.ndarray | None,
                              tuple[np.ndarray, np.ndarray]] | None = None
        # Level geometry's filing, kept in the grid of the sweeps' buffers under the key of the
        # template it was filed from, and the counts that tell of it (``filing``).
        self._templates = 0  # templates made so far: the current one's key
        self._read_rows: np.ndarray | None = None  # Collision's rows of the movers it read, found to be ours
        self._kept: tuple[tuple[Any, ...], np.ndarray] | None = None

    def start(self, collision: Found, level_codes: np.ndarray, riders: tuple[np.ndarray, np.ndarray] | None,
              pulled: bool, snapping: bool, kernels: Kernels | None = None) -> tuple[np.ndarray, np.ndarray]:
        """The tables at the start of the step: level geometry as last read (``level_codes``,
        ``_codes`` of its colliders), the rest read from the components (``riders``: the rows
        of the bodies carried this step and their carry and frame, ``StepContext.riders``;
        ``pulled``: whether gravity pulls; ``snapping``: whether a body was grounded last
        step, so ground snapping reads its reach)."""
        columns, level = collision.columns, collision.resting
        if self._key is None or self._key[0] is not columns or self._key[1] is not level:
            self._make(collision, level_codes)
        table, ints = self._tables
        movers = self._movers
        read_rows, read = collision.geometry_read()
        if read_rows is not self._read_rows:  # (Collision's movers: the same array while they are)
            self._read_rows = read_rows if len(read_rows) == len(movers) and np.array_equal(read_rows, movers) else None
        known = read if read_rows is self._read_rows else None
        materials = self._materials(self._selection)
        arrays = read_arrays(columns, self._selection, known, materials, self._velocities(self._selection.movers),
                             functools.partial(storage.read, kernels=kernels))
        constant = self._constant_rows(materials, self._codes(self._selection.colliders, collision.mover_kinds),
                                       self._gravity_scales(self._physics) if pulled else None,
                                       self._ground_snaps(self._physics) if snapping else None, columns)
        self._restore_level(table, ints)
        (kernels or background.kernels()).fill_rows(table, ints, movers, *constant, collision.filed_boxes()[movers],
                                                    arrays.start, arrays.now, arrays.offset, arrays.size,
                                                    arrays.velocity)
        if riders is not None:
            carried, values = riders
            table[carried, t.CARRY_X:t.FRAME_Y + 1] = values
        return table, ints

    def _constant_rows(self, materials: Materials, codes: np.ndarray, scales: np.ndarray | None,
                       snaps: np.ndarray | None, columns: Columns) -> tuple[np.ndarray, np.ndarray]:
        """The movers' rows as a run starts them but for what moves (``_constant``), with the
        gravity ``scales`` and ground ``snaps`` of the bodies with Physics (None: 0, no gravity
        pulls or no body was grounded), kept while these are the same objects (``Kept``: none
        assigned) and the movers the same rows of ``columns`` (``_make`` forgets them)."""
        kept = self._constant
        if kept is None or any(new is not old for new, old in zip((materials, codes, scales, snaps), kept)):
            rows = _constant(materials, codes, columns.entities[self._movers])
            at = np.searchsorted(self._movers, columns.moving)  # (every body with Physics is a mover)
            for column, values in ((t.GRAVITY_SCALE, scales), (t.GROUND_SNAP, snaps)):
                if values is not None:
                    rows[0][at, column] = values
            kept = self._constant = materials, codes, scales, snaps, rows
        return kept[4]

    def _restore_level(self, table: np.ndarray, ints: np.ndarray) -> None:
        """Level geometry's rows of the tables as the template holds them: only those the last
        run may have written (``ran``), else all."""
        dirty, self._dirty = self._dirty, None
        if dirty is None:
            np.copyto(table, self._template[0])
            np.copyto(ints, self._template[1])
        elif len(dirty):
            table[dirty], ints[dirty] = self._template[0][dirty], self._template[1][dirty]

    def ran(self, pairs: np.ndarray, met: np.ndarray, marks: np.ndarray) -> None:
        """Note which level geometry rows the step's run may have written, for the next
        ``start`` to restore: a kernel reaches a row only through a pair (``pairs``, and those
        the sweeps ``met``) or a grid query, which ``marks`` it (each row's mark, nonzero once
        looked at in the run: ``sweep.run_sweeps`` zeroes them)."""
        reached = marks[:len(self._level)] != 0
        reached[pairs.ravel()] = True
        reached[met.ravel()] = True
        self._dirty = np.flatnonzero(reached & self._level)

    def filing(self, buffers: tuple[Any, ...]) -> tuple[Any, ...]:
        """Which rows the sweeps' grid files (``sweep.run_sweeps``' ``filing``): level
        geometry's once per template, kept in the grid of ``buffers``, the movers each run."""
        if self._kept is None or self._kept[0] is not buffers:
            self._kept = buffers, k.kept_filing(buffers)
        return self._movers, self._level_rows, self._templates, self._kept[1]

    @property
    def movers(self) -> np.ndarray:
        """The rows of every body but level geometry, ascending."""
        return self._movers

    def velocities(self) -> VectorList:
        """The velocities of every body with Physics, in entity order (``Columns.moving``): the
        movers' of the last ``start`` (level geometry has none), as read there."""
        return self._velocities(self._selection.movers)

    def _make(self, collision: Found, level_codes: np.ndarray) -> None:
        """The template and working tables for the colliders and level geometry as read now."""
        columns, level = collision.columns, collision.resting
        n = len(columns.transforms)
        template = (t.aligned_table(n, t.FLOAT_COLUMNS), t.aligned_table(n, t.INT_COLUMNS, np.int64))
        # Level geometry's rows: those of the bodies read as for the last template carried over
        # (only movers added or removed, or a few tiles changed), the others made.
        same = None if self._key is None else carried(level, self._key[1])
        fresh = np.arange(len(level.rows)) if same is None else same[2]
        picked = Selection.of(columns, level.rows[fresh])
        materials = Materials.of(picked)
        arrays = read_arrays(columns, picked, level.geometry.take(fresh), materials)
        rows = np.ascontiguousarray(level.rows[fresh], np.int64)
        constant = _constant(materials, level_codes[fresh], columns.entities[rows])
        background.kernels().fill_rows(*template, rows, *constant, level.filed[fresh], arrays.start, arrays.now,
                                       arrays.offset, arrays.size, arrays.velocity)
        if same is not None and self._key is not None:  # (row to row: no copy of the whole block between)
            into, source = level.rows[same[0]], self._key[1].rows[same[1]]
            template[0][into], template[1][into] = self._template[0][source], self._template[1][source]
        self._template, self._key = template, (columns, level)
        self._templates += 1  # (a new key: level geometry's filing is kept anew)
        self._level_rows = np.ascontiguousarray(level.rows, np.int64)
        self._level = np.zeros(n, bool)
        self._level[level.rows] = True
        self._dirty = None  # (fresh tables: every row from the template)
        self._tables = (t.aligned_table(n, t.FLOAT_COLUMNS), t.aligned_table(n, t.INT_COLUMNS, np.int64))
        self._movers = movers = np.delete(np.arange(n), level.rows)
        self._read_rows = None
        self._constant = None
        self._selection = Selection.of(columns, movers)
        self._physics = list(filter(None, columns.physics))


def _constant(materials: Materials, codes: np.ndarray, entities: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The float and int rows of the kernels' tables, as a run starts them, of bodies with
    these ``materials``, ``codes`` (``_codes``) and ``entities``, but for what moves (``fill_rows``
    writes it): the columns that change only by assignment, and zeros, -1s and empty spans
    for what the kernels keep during a run."""
    n = len(entities)
    table, ints = np.zeros((n, t.FLOAT_COLUMNS)), np.zeros((n, t.INT_COLUMNS), np.int64)
    table[:, t.INV_MASS] = materials.inverse_mass
    table[:, t.ELASTICITY] = materials.elasticity
    table[:, t.FRICTION] = materials.friction
    ints[:, t.FLAGS] = (t.STATIC * materials.static + t.PHYSICS * materials.physics
                        + t.NOT_BOX * (codes[:, _SHAPE] != BOX) + t.TRIGGER * codes[:, _TRIGGER_CODE])
    ints[:, t.SHAPE], ints[:, t.SIDES] = codes[:, _SHAPE], codes[:, _SIDES]
    ints[:, t.CATEGORY], ints[:, t.MASK] = codes[:, _CATEGORY], codes[:, _MASK]
    ints[:, t.BOUNDS_VERSION] = -1
    ints[:, t.PINNER:t.RIDE + 1] = -1
    ints[:, t.ENTITY] = entities
    ints[:, t.SPAN_X0:t.SPAN_Y0 + 1] = 1  # an empty span: filed nowhere yet
    return table, ints


# A collider's codes in the kernel's int table (``_codes``), a column each: its shape's
# (``_SHAPE_CODES``), 1 if it is a TRIGGER, its faces that stop bodies (components.Side bits),
# its category and its mask; and those of a box on the default layer, every face stopping.
_SHAPE, _TRIGGER_CODE, _SIDES, _CATEGORY, _MASK = range(5)
_DEFAULT_CODES = (BOX, 0, kernel_settle.ALL_SIDES, 1, ALL)


def _codes(colliders: list[Collider], kinds: int = ~0) -> np.ndarray:
    """The codes of ``colliders`` (an (n, 5) int array, ``_SHAPE`` ...). Given their ``kinds``
    (their kind bits together, ``kinds_of``), a column none of them needs keeps its default
    (their own values then are the defaults): read only where it tells."""
    codes = np.empty((len(colliders), len(_DEFAULT_CODES)), np.int64)
    codes[:] = _DEFAULT_CODES
    if kinds & SHAPED:
        codes[:, _SHAPE] = [_SHAPE_CODES[collider.shape._value_] for collider in colliders]
    if kinds & TRIGGER:
        codes[:, _TRIGGER_CODE] = [collider.type is _TRIGGER for collider in colliders]
    if kinds & ONE_WAY:
        codes[:, _SIDES] = [collider.sides._value_ for collider in colliders]
    if kinds & LAYERED:
        codes[:, _CATEGORY] = [collider.category for collider in colliders]
        codes[:, _MASK] = [collider.mask for collider in colliders]
    return codes


def _scatter(collision: Found, table: np.ndarray, ints: np.ndarray, movers: np.ndarray, state: Resolution,
             positions: list[Vector2], velocities: list[Vector2], kernels: Kernels | None = None) -> None:
    """Velocities, positions, crushed bodies and riders back to the components (the
    ``positions`` of the rows of ``movers``, and the ``velocities`` of the bodies with Physics,
    in entity order), the Bodies made so far and the Resolution. Only the rows of ``movers`` are looked at (``outcome``,
    one pass over them): no kernel moves, touches, crushes or carries level geometry (STATIC,
    without Physics). (Arrays are handed to Python a column at a time: a list per row would
    be an object for the garbage collector to track.)"""
    columns, bodies = collision.columns, collision.bodies
    touched, moved, crushed, riders, supports, platforms, refused = (kernels or background.kernels()).outcome(ints,
                                                                                                           movers)
    if refused >= 0:  # (each velocity goes to its row's body, by row)
        raise RuntimeError(f"the core changed the velocity of a body without Physics (entity "
                           f"{int(columns.entities[refused])})")
    storage.write(velocities, np.searchsorted(columns.moving, touched), table[touched, t.VEL_X:t.VEL_Y + 1], kernels)
    storage.write(positions, np.searchsorted(movers, moved), table[moved, t.POS_X:t.POS_Y + 1], kernels)
    for body in bodies.made():  # (one made later reads its box from the position)
        body.sync()
    entities = columns.entities
    state.crushed.update(entities[crushed].tolist())
    if state.up:  # (a body lands on a platform only under gravity)
        chained = supports != platforms  # (a body between: a crate on a crate on a lift)
        state.rides = Rides(entities[riders], entities[platforms], table[riders, t.RIDE_X:t.RIDE_Y + 1].copy(),
                            np.where(chained, entities[supports], -1) if chained.any() else np.zeros(0, np.int64))


def _record(entities: np.ndarray, contacts: tuple[np.ndarray, np.ndarray], count: int, state: Resolution) -> None:
    """The kernel's contacts (between rows of ``entities``) into the
    Resolution, in the order recorded (copied: the buffers are the next step's)."""
    values, pairs = contacts
    state.record_swept(entities[pairs[:count]], values[:count].copy())


def _widen(collision: Found, table: np.ndarray, widened: np.ndarray, met: np.ndarray) -> None:
    """Repeat the kernel's refiling of the ``widened`` rows on the broad
    phase's grid, and add the pairs it ``met`` (rows) to the bodies'
    partners (Found.widen). Each widening files a body under a box
    holding the last one, so only its final box (``table``'s FILED columns)
    is filed: the grid then holds what the widenings one by one would leave
    it holding."""
    logged = np.zeros(len(table), bool)  # (each row once, ascending: np.unique, without its sort)
    logged[widened] = True
    rows = np.flatnonzero(logged)
    if len(rows):  # (the kernel writes a row's filed box only where it widens it, and logs the row)
        filed = collision.filed_boxes()  # (written in place: the next step writes the movers' rows anew)
        filed[rows] = table[rows, t.FILED_X:t.FILED_H + 1]
        collision.file_rows_wider(rows.tolist(), filed)
    collision.add_met_rows(met.reshape(-1, 2))
