"""The sweep stage: continuous collision, every moving body swept along its path in the step.

The timeslice subdivision of Sacred Software, *Collisions, Part 1*, for many moving bodies:
every candidate pair is swept in relative motion, impacts are taken earliest first, then
larger contact surface, then entity ids; at an impact both bodies are placed at their contact
positions, momentum and friction are exchanged along the contact normal, and the bodies it
changed are swept again through the rest of the step. Nothing tunnels, whatever the speed.
The algorithm is the sweep kernel's (``systems.physics._kernels.sweep``, whose docstring has
the details: gravity within a step, rows of boxes struck at once, crushing).

This module is the stage around it: ``Sweeper.run`` reads the step's bodies from their
components at once (``systems.physics._bodies.table``) into the kernel's tables (one row per
body, in entity order), runs the kernel of the copy ``background.kernels`` names (compiled,
or the same source as plain Python), and writes back velocities, positions, the Resolution's
contacts, pins, supports and crushed bodies, the broad phase's widened boxes and new
partners. It also hands push-out the few pairs that can concern it (``Swept``), tested over
the arrays.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np
from pygame import Vector2

from components import ALL, Collider, ColliderType, Shape
from systems.physics._kernels import background
from systems.physics._kernels.plain import Kernels
from systems.physics._kernels.shapes import BOX, SHAPE_VALUES
from systems.physics._kernels import settle as kernel_settle
from systems.physics._kernels import sweep as k
from systems.physics._kernels import table as t
from systems.physics._bodies.table import Arrays, entity_pairs, read_arrays
from systems.physics._bodies.kinds import SHAPED, TRIGGER
from systems.physics._shapes.geometry import TIES, TOUCH_EPSILON
from systems.physics._bodies.body import Body
from systems.physics._solver.resolution import RESOLVE_SLOP, Resolution
from systems.physics._solver.riders import Ride
from systems.physics._stages.found import Found, LevelRead

__all__ = ["Swept", "Sweeper", "ask_filters"]

log = logging.getLogger(__name__)

_TIES = np.array(TIES)
_STATIC, _TRIGGER = ColliderType.STATIC, ColliderType.TRIGGER
#: Each shape's small int in the kernels (systems.physics._kernels.shapes).
_SHAPE_CODES = {Shape(value): code for code, value in enumerate(SHAPE_VALUES)}


@dataclass(frozen=True, slots=True)
class Swept:
    """What the sweep stage hands on.

    ``frozen``: the first entity that reached the bound on impacts, or
    None; ``buffers``: the kernel's work buffers, large enough for this
    step (the next step's run reuses them); ``met_rows``: the pairs first met on
    changed paths, as rows of ``entities`` (``met()`` gives them as
    entities, a < b). For push-out, tested over arrays: ``overlapping``,
    the pairs of the broad phase and met ones whose boxes now overlap by
    more than TOUCH_EPSILON on both axes and are not two STATICs (the only
    pairs its first queue can hold), and ``links``, the broad phase's pairs
    of two movers (neither STATIC nor TRIGGER) that overlapped by more than RESOLVE_SLOP on both axes
    when the step began (what a pile is made of: ``systems.physics._stages.piles``).
    """

    frozen: int | None
    buffers: tuple[Any, ...]
    met_rows: np.ndarray
    entities: np.ndarray
    overlapping: list[tuple[int, int]]
    links: list[tuple[int, int]]

    def met(self) -> list[tuple[int, int]]:
        """The pairs first met on changed paths, as entities (a < b)."""
        return list(entity_pairs(self.entities, self.met_rows))


def ask_filters(collision: Found, state: Resolution) -> np.ndarray:
    """Ask the collision filters about each of the step's candidate pairs
    but two STATICs (which never collide), in entity order, before the
    sweeps resolve any; returns their verdicts as rows of
    ``collision.columns`` (a < b, then 1 if they may collide, else 0)."""
    rows = collision.pair_rows()
    rows = rows[np.lexsort((rows[:, 1], rows[:, 0]))]
    static = np.array([collider.type is _STATIC for collider in collision.columns.colliders], bool)
    rows = rows[~(static[rows[:, 0]] & static[rows[:, 1]])]
    verdicts = [state.allows(a, b) for a, b in entity_pairs(collision.columns.entities, rows)]
    return np.column_stack((rows, np.array(verdicts, np.int64))).astype(np.int64)


class Sweeper:
    """The sweep stage, and what it keeps from step to step: ``max_subdivisions``, the bound on
    the impacts one body takes part in per step (Sacred Software's article uses 32; a body that
    reaches it stops where it is for the rest of the step, and a single warning is logged), and
    the kernel's work buffers, as large as a step has needed, and level geometry's codes in the
    kernel's table, as long as it is read the same (``LevelRead``). ``kernels``: the copy of the
    kernels to run (None, the default: the one ``background.kernels`` names each step)."""

    def __init__(self, max_subdivisions: int = 32) -> None:
        if max_subdivisions < 1:
            raise ValueError(f"max_subdivisions must be >= 1, got {max_subdivisions!r}")
        self.max_subdivisions = max_subdivisions
        self.kernels: Kernels | None = None
        self._buffers: tuple[Any, ...] | None = None
        self._level: tuple[LevelRead, np.ndarray] | None = None
        self._warned = False

    def run(self, collision: Found, state: Resolution, dt: float, gravity: Vector2, riders: list[Body]) -> Swept:
        """Sweep the step's candidate pairs and resolve their impacts in time order (``gravity``:
        px/s², Movement's; ``riders``: the bodies carried on platforms this step)."""
        verdicts = ask_filters(collision, state) if state.filters else _NO_VERDICTS
        kernels = self.kernels or background.kernels()
        level = collision.resting
        if self._level is None or self._level[0] is not level:
            self._level = level, _codes([collision.columns.colliders[row] for row in level.rows.tolist()])
        swept = _sweep(kernels, collision, state, dt, gravity * dt, riders, verdicts, self.max_subdivisions,
                       self._buffers, self._level[1])
        self._buffers = swept.buffers
        if swept.frozen is not None and not self._warned:
            self._warned = True
            log.warning("entity %d took part in %d impacts in one step; it stops where it is for the rest of the "
                        "step (warned once per World)", swept.frozen, self.max_subdivisions)
        return swept


_NO_VERDICTS = np.zeros((0, 3), np.int64)


def _sweep(kernels: Kernels, collision: Found, state: Resolution, dt: float, pull: Vector2, riders: list[Body],
           verdicts: np.ndarray, max_subdivisions: int, buffers: tuple[Any, ...] | None,
           level_codes: np.ndarray) -> Swept:
    """Run the sweep kernel of ``kernels`` over the step (``pull``: gravity·dt, px/s;
    ``verdicts``: the collision filters', from ``ask_filters``, when there are filters;
    ``buffers``: the kernel's work buffers as last returned, or None; ``level_codes``:
    ``_codes`` of level geometry's colliders)."""
    step = np.zeros(t.STEP_PARAMETERS)
    step[[t.DT, t.REST_SPEED, t.MAX_SUBDIVISIONS, t.CELL_SIZE]] = (dt, state.rest_speed, max_subdivisions,
                                                                   collision.grid.cell_size)
    step[[t.LAYERED, t.PULL_X, t.PULL_Y, t.UP_X, t.UP_Y]] = collision.layered, *pull, *state.up
    step[[t.FILTERED, t.ONE_WAY_FACES]] = bool(state.filters), collision.one_way
    arrays, table, ints = _gather(collision, level_codes, riders, bool(pull))
    pairs = collision.pair_rows()
    buffers = k.buffers_for(buffers, len(pairs), len(table))
    while True:
        status, contacts, events, unasked = kernels.run_sweeps(table, ints, pairs, verdicts, _TIES, step, buffers)
        if status[t.OVERFLOW]:
            # Rare: what overflowed is doubled, and kept for later steps.
            buffers = k.buffers_for(buffers, len(pairs), len(table), int(status[t.OVERFLOW]))
        elif status[t.UNASKED]:  # pairs met in the run that the filters were not asked about
            met = unasked[:int(status[t.UNASKED])]
            asked = [state.allows(a, b) for a, b in entity_pairs(collision.columns.entities, met)]
            verdicts = np.concatenate((verdicts, np.column_stack((met, np.array(asked, np.int64)))))
        else:
            break
        arrays, table, ints = _gather(collision, level_codes, riders, bool(pull))  # (the tables the run changed)
    entities = collision.columns.entities
    moved, ends = _scatter(collision, table, ints, state)
    _record(entities, contacts, int(status[t.CONTACTS]), state)
    met = events[2][:int(status[t.MET])].copy()  # (the buffers are the next step's)
    _widen(collision, table, events[1][:int(status[t.WIDENED])], met)
    frozen = None if status[t.FROZEN] < 0 else int(entities[status[t.FROZEN]])
    # (the run leaves the boxes at the start, BEFORE_X..HEIGHT, as they were)
    overlapping, links = _push_candidates(kernels, arrays, table, ints, moved, ends, pairs, met, entities)
    return Swept(frozen, buffers, met, entities, overlapping, links)


def _gather(collision: Found, level_codes: np.ndarray, riders: list[Body],
            pulled: bool) -> tuple[Arrays, np.ndarray, np.ndarray]:
    """The step's bodies (in entity order) read from their components at
    once, level geometry's taken as last read (``collision.resting``, and
    ``level_codes``, ``_codes`` of its colliders), and the kernel's float
    and int tables of them at the start of the sweeps (``riders``: the
    bodies carried this step; ``pulled``: whether gravity pulls)."""
    level = collision.resting
    body = read_arrays(collision.columns, collision.geometry_read(), (level.rows, level.geometry))
    n = body.start.shape[0]
    table = t.aligned_table(n, t.FLOAT_COLUMNS)
    ints = t.aligned_table(n, t.INT_COLUMNS, np.int64)
    table[:, t.FILED_X:t.FILED_H + 1] = collision.filed_boxes()
    # Body.before, the path's origin and motion, with the Python stages' float operations.
    table[:, t.BEFORE_X:t.BEFORE_Y + 1] = body.start + body.offset
    table[:, t.WIDTH:t.HEIGHT + 1] = body.size
    table[:, t.OFFSET_X:t.OFFSET_Y + 1] = body.offset
    table[:, t.ORIGIN_X:t.ORIGIN_Y + 1] = body.start
    table[:, t.MOTION_X:t.MOTION_Y + 1] = body.now - body.start
    table[:, t.INV_MASS] = body.inverse_mass
    table[:, t.VEL_X:t.VEL_Y + 1] = body.velocity
    table[:, t.ELASTICITY] = body.elasticity
    table[:, t.FRICTION] = body.friction
    codes = np.empty((n, len(_DEFAULT_CODES)), np.int64)
    codes[level.rows] = level_codes
    others = np.delete(np.arange(n), level.rows)
    codes[others] = _codes([collision.columns.colliders[row] for row in others.tolist()], collision)
    ints[:, t.FLAGS] = (t.STATIC * body.static + t.MOVED * body.moved + t.PHYSICS * body.physics
                        + t.NOT_BOX * (codes[:, _SHAPE] != BOX) + t.TRIGGER * codes[:, _TRIGGER_CODE])
    ints[:, t.SHAPE], ints[:, t.SIDES] = codes[:, _SHAPE], codes[:, _SIDES]
    ints[:, t.CATEGORY], ints[:, t.MASK] = codes[:, _CATEGORY], codes[:, _MASK]
    if pulled:
        table[collision.columns.moving, t.GRAVITY_SCALE] = [physics.gravity_scale  # (in the order of ``moving``)
                                                            for physics in collision.columns.physics if physics]
    for rider in riders:
        table[collision.rows[rider.entity], t.CARRY_X:t.FRAME_Y + 1] = (*rider.carry, *rider.frame)
    ints[:, t.BOUNDS_VERSION] = -1
    ints[:, t.PINNER:t.RIDE + 1] = -1
    ints[:, t.ENTITY] = collision.columns.entities
    ints[:, t.SPAN_X0:t.SPAN_Y0 + 1] = 1  # an empty span: filed nowhere yet
    return body, table, ints


# A collider's codes in the kernel's int table (``_codes``), a column each: its shape's
# (``_SHAPE_CODES``), 1 if it is a TRIGGER, its faces that stop bodies (components.Side bits),
# its category and its mask; and those of a box on the default layer, every face stopping.
_SHAPE, _TRIGGER_CODE, _SIDES, _CATEGORY, _MASK = range(5)
_DEFAULT_CODES = (BOX, 0, kernel_settle.ALL_SIDES, 1, ALL)


def _codes(colliders: list[Collider], kinds: Found | None = None) -> np.ndarray:
    """The codes of ``colliders`` (an (n, 5) int array, ``_SHAPE`` ...). Given the step's
    ``kinds`` (its Found), a column no collider of the step needs keeps its default (the
    colliders' own values then are the defaults): read only where it tells."""
    codes = np.empty((len(colliders), len(_DEFAULT_CODES)), np.int64)
    codes[:] = _DEFAULT_CODES
    if kinds is None or kinds.kinds & SHAPED:
        codes[:, _SHAPE] = [_SHAPE_CODES[collider.shape] for collider in colliders]
    if kinds is None or kinds.kinds & TRIGGER:
        codes[:, _TRIGGER_CODE] = [collider.type is _TRIGGER for collider in colliders]
    if kinds is None or kinds.one_way:
        codes[:, _SIDES] = [collider.sides.value for collider in colliders]
    if kinds is None or kinds.layered:
        codes[:, _CATEGORY] = [collider.category for collider in colliders]
        codes[:, _MASK] = [collider.mask for collider in colliders]
    return codes


def _scatter(collision: Found, table: np.ndarray, ints: np.ndarray,
             state: Resolution) -> tuple[np.ndarray, np.ndarray]:
    """Velocities, positions, pins, supports and crushed bodies back to the
    components, the Bodies made so far and the Resolution; returns the rows
    moved and where to (px). (Arrays are handed to Python a column at a
    time: a list per row would be an object for the garbage collector to
    track.)"""
    columns, bodies = collision.columns, collision.bodies
    flags = ints[:, t.FLAGS]
    touched = np.flatnonzero(flags & t.TOUCHED)
    # Vector2s set by index: a third of ``update``'s cost (no argument parsing).
    for row, vx, vy in zip(touched.tolist(), table[touched, t.VEL_X].tolist(), table[touched, t.VEL_Y].tolist()):
        physics = columns.physics[row]
        assert physics is not None  # only bodies with Physics change velocity
        velocity = physics.velocity
        velocity[0] = vx
        velocity[1] = vy
    moved, ends = _ends(table, ints)
    for transform, x, y in zip(map(columns.transforms.__getitem__, moved.tolist()), ends[:, 0].tolist(),
                               ends[:, 1].tolist()):
        position = transform.position
        position[0] = x
        position[1] = y
    for body in bodies.made():  # (usually none yet; one made later reads its box from the position)
        body.sync()
    entities = columns.entities
    for row in np.flatnonzero(ints[:, t.PINNED]).tolist():
        state.pinned[int(entities[row])] = int(ints[row, t.PINNED])
    for row in np.flatnonzero(ints[:, t.SUPPORTED]).tolist():
        for index in range(4):
            if ints[row, t.SUPPORTED] & (1 << index):
                state.supported[(int(entities[row]), 1 << index)] = float(table[row, t.SUPPORT + index])
    state.crushed.update(entities[np.flatnonzero(flags & t.CRUSHED)].tolist())
    if state.up:  # (a body lands on a platform only under gravity)
        riders = np.flatnonzero(ints[:, t.RIDE] >= 0)
        for row in riders[np.argsort(ints[riders, t.RIDE_ORDER])].tolist():  # in the order they landed
            state.rides[int(entities[row])] = Ride(int(entities[ints[row, t.RIDE]]),
                                                   Vector2(table[row, t.RIDE_X], table[row, t.RIDE_Y]))
    state.swept_pinner = partial(_pinner, collision, table, ints)
    return moved, ends


def _pinner(collision: Found, table: np.ndarray, ints: np.ndarray, entity: int,
            bit: int) -> tuple[Body, Vector2] | None:
    """Who pinned ``entity`` against direction ``bit`` in the sweeps, and
    the unit normal it pushed it off along (Resolution.pinners), read from
    the kernel's tables when push-out asks (rarely: both sides of a pair
    held)."""
    row, index = collision.rows.get(entity), bit.bit_length() - 1
    if row is None or not ints[row, t.PINNED] & bit or ints[row, t.PINNER + index] < 0:
        return None
    pinner = collision.bodies[int(collision.columns.entities[ints[row, t.PINNER + index]])]
    return pinner, Vector2(table[row, t.PINNER_OFF + 2 * index], table[row, t.PINNER_OFF + 2 * index + 1])


def _ends(table: np.ndarray, ints: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The rows the sweeps moved (their paths changed) and where each ends
    up (px, (m, 2)): Path.at(1.0), with its float operations."""
    moved = np.flatnonzero(ints[:, t.VERSION])
    start = table[moved, t.START]
    return moved, table[moved, t.ORIGIN_X:t.ORIGIN_Y + 1] + table[moved, t.MOTION_X:t.MOTION_Y + 1] * (
        1.0 - start)[:, None]


def _push_candidates(kernels: Kernels, arrays: Arrays, table: np.ndarray, ints: np.ndarray, moved: np.ndarray,
                     ends: np.ndarray, pairs: np.ndarray, met: np.ndarray,
                     entities: np.ndarray) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """``Swept.overlapping`` and ``Swept.links`` from the rows' boxes now and
    at the start, with the float operations of push-out's ``_enqueue``
    and piles' ``_overlapped_before``; ``pairs`` and ``met`` are rows."""
    position = arrays.now.copy()  # Body.box: where Collision read it, or where the sweeps moved it to
    position[moved] = ends
    now = np.column_stack((position + arrays.offset, arrays.size))
    before = table[:, t.BEFORE_X:t.HEIGHT + 1]
    static = (ints[:, t.FLAGS] & t.STATIC) != 0
    candidates = np.concatenate((pairs, met.reshape(-1, 2)))
    near = kernels.overlapping(now, candidates, TOUCH_EPSILON) & ~(static[candidates[:, 0]] & static[candidates[:, 1]])
    fixed = (ints[:, t.FLAGS] & (t.STATIC | t.TRIGGER)) != 0  # what a pile never pushes (piles._candidates)
    movers = ~(fixed[pairs[:, 0]] | fixed[pairs[:, 1]])
    inside = kernels.overlapping(before, pairs, RESOLVE_SLOP) & movers
    return list(entity_pairs(entities, candidates[near])), list(entity_pairs(entities, pairs[inside]))


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
    collision.file_rows_wider(np.unique(widened).tolist(), table[:, t.FILED_X:t.FILED_H + 1].copy())
    collision.add_met_rows(met.reshape(-1, 2))
