"""Level geometry kept from step to step in the resolve stages' tables and grid.

The sweep kernel files level geometry (STATIC colliders without Physics) in its grid once for
each template of the body table and restores it each run, filing only the other bodies
(``systems.physics._kernels.sweep._start_grid``), and each step copies back from the template
only the level geometry rows the last run reached (``resolve._Tables.ran``). A step must come
out bit for bit as it does when every row is filed each run (``sweep.filing_each_run``) and
every row copied from the template each step, whichever were made first, when level geometry
is moved in place, assigned, added or removed between steps (a new template, so a new
filing), and when the buffers are made anew (level geometry filed again in them).
"""

from __future__ import annotations

import random
import struct
import sys
from collections.abc import Callable, Iterator

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks import scenes
from components import Collider, ColliderType, Physics, Side, Transform
from ecs import World
from helpers import tile_room
from systems.physics._kernels import jit, plain, sweep
from systems.physics._kernels import table as kernel_table
from systems.physics._stages import resolve

STATIC = ColliderType.STATIC


def level_scene(seed: int, level_first: bool, gravity: bool) -> World:
    """Crates (or fast elastic boxes) in a box of 16 px tiles with ledges, the tiles made
    before or after the bodies."""
    rng = random.Random(seed)
    world = World(gravity=(0, 900) if gravity else (0, 0))

    def tiles() -> None:
        tile_room(world, rng, 8)

    def bodies() -> None:
        for _ in range(40):
            speed = 100.0 if gravity else 1200.0
            world.create_entity(Transform((rng.uniform(10, 300), rng.uniform(10, 200))), Collider((8, 8)),
                                Physics((rng.uniform(-speed, speed), rng.uniform(-speed, speed)),
                                        elasticity=0.0 if gravity else 1.0, friction=0.5 if gravity else 0.0))

    for make in ((tiles, bodies) if level_first else (bodies, tiles)):
        make()
    return world


def bits_of(world: World) -> list[int]:
    values = [value for _, transform in sorted(world.get_component(Transform)) for value in transform.position]
    values += [value for _, body in sorted(world.get_component(Physics)) for value in body.velocity]
    return [struct.unpack("<q", struct.pack("<d", value))[0] for value in values]


def changes(world: World, step: int, rng: random.Random) -> None:
    """Level geometry changed between steps: a tile moved in place, one moved by assignment,
    one added, one removed."""
    tiles = [entity for entity, collider in sorted(world.get_component(Collider))
             if collider.type is STATIC and not world.has_component(entity, Physics)]
    if step == 5:
        world.component_for_entity(rng.choice(tiles), Transform).position.y -= 3.0
    elif step == 10:
        world.component_for_entity(rng.choice(tiles), Transform).position = (150.0, 120.0)
    elif step == 15:
        world.create_entity(Transform((100.0, 100.0)), Collider((16, 16), type=STATIC))
    elif step == 20:
        world.delete_entity(rng.choice(tiles), immediate=True)


def played(world: World, steps: int, seed: int) -> Iterator[World]:
    """``world`` after each of ``steps`` steps, its level geometry changed between them
    (``changes``); closed after the last."""
    rng = random.Random(seed)
    for step in range(steps):
        changes(world, step, rng)
        world.step(1 / 60)
        yield world
    world.close()


def run(seed: int, level_first: bool, gravity: bool, kept: str, monkeypatch: pytest.MonkeyPatch) -> list[list[int]]:
    """The bits of every step: level geometry ``kept`` as a step keeps it ("kept"), filed and
    copied anew each step ("anew"), or kept in buffers made anew each step ("fresh buffers")."""
    with monkeypatch.context() as patch:
        if kept == "anew":
            patch.setattr(resolve._Tables, "filing",
                          lambda self, buffers: sweep.filing_each_run(len(self._template[0])))
            ran = resolve._Tables.ran

            def copy_all(self: resolve._Tables, *args: object) -> None:
                ran(self, *args)  # type: ignore[arg-type]
                self._dirty = None
            patch.setattr(resolve._Tables, "ran", copy_all)
        elif kept == "fresh buffers":
            buffers_for = sweep.buffers_for

            def fresh(buffers: tuple[object, ...] | None, pairs: int, rows: int, overflow: int = 0) -> tuple[object, ...]:
                return sweep.make_buffers(*sweep.buffer_sizes(buffers_for(buffers, pairs, rows, overflow)))
            patch.setattr(sweep, "buffers_for", fresh)
        return [bits_of(world) for world in played(level_scene(seed, level_first, gravity), 25, seed)]


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans(), st.booleans())
def test_a_kept_filing_of_level_geometry_steps_as_filing_every_row_each_run(seed: int, level_first: bool,
                                                                          gravity: bool) -> None:
    with pytest.MonkeyPatch.context() as monkeypatch:
        reference = run(seed, level_first, gravity, "anew", monkeypatch)
        assert run(seed, level_first, gravity, "kept", monkeypatch) == reference
        assert run(seed, level_first, gravity, "fresh buffers", monkeypatch) == reference


def test_the_filing_is_kept_under_one_key_until_level_geometry_changes() -> None:
    # Kept: the key stays while nothing changes, and a tile moved in place makes a new one.
    world = level_scene(3, True, True)
    world.step(1 / 60)
    tables = world.response.resolver._tables
    key = tables.filing(world.response.resolver._buffers)[2]
    world.step(1 / 60)
    world.step(1 / 60)
    assert tables.filing(world.response.resolver._buffers)[2] == key
    counts = tables.filing(world.response.resolver._buffers)[3]
    assert counts[sweep.KEPT_KEY] == key and counts[sweep.KEPT_COUNTERS + 1] > 0  # (entries kept)
    tile = next(entity for entity, collider in sorted(world.get_component(Collider)) if collider.type is STATIC)
    world.component_for_entity(tile, Transform).position.x += 2.0
    world.step(1 / 60)
    assert tables.filing(world.response.resolver._buffers)[2] != key
    world.close()


def cells_of(grid: tuple[np.ndarray, ...]) -> dict[tuple[int, int], list[int]]:
    """The grid's cells as (column, row) -> the rows filed there, from the list's head."""
    cells, entries, _ = grid
    filed = {}
    for slot in np.flatnonzero(cells[:, 2] != kernel_table.EMPTY).tolist():
        rows, entry = [], int(cells[slot, 2])
        while entry >= 0:
            rows.append(int(entries[entry, 0]))
            entry = int(entries[entry, 1])
        filed[int(cells[slot, 0]), int(cells[slot, 1])] = rows
    return filed


def test_taking_the_movers_entries_out_leaves_level_geometry_as_filed_alone() -> None:
    # The next run's start: the entries the movers added, taken out of the grid the last run
    # left, leave exactly the cells that filing level geometry alone in fresh buffers makes.
    world = level_scene(5, True, True)
    for _ in range(30):  # (the crates land: their entries share cells with the tiles')
        world.step(1 / 60)
    plain.plain()  # (the kernels' helpers run as plain Python: the copy under plain.NAME where they compile)
    resolver, plain_sweep = world.response.resolver, sys.modules[f"{plain.NAME}.sweep"] if jit.COMPILED else sweep
    movers, level, key, counts = resolver._tables.filing(resolver._buffers)
    grid = tuple(array.copy() for array in resolver._buffers[0])
    left = cells_of(grid)
    assert key >= 0 and counts[sweep.KEPT_KEY] == key
    assert set(movers.tolist()) & {row for rows in left.values() for row in rows}  # (the run filed movers)
    plain_sweep._unfile_movers(grid, counts)
    fresh = sweep.make_buffers(*sweep.buffer_sizes(resolver._buffers))
    table, ints = (array.copy() for array in resolver._tables._tables)
    status = np.zeros(kernel_table.COUNTERS, np.int64)
    plain_sweep._start_grid(table, ints, fresh[0], status, (movers[:0], level, -1, sweep.kept_filing(fresh)),
                            world.collision.grid.cell_size)
    alone = cells_of(fresh[0])
    assert cells_of(grid) == alone and len(alone) < len(left)
    assert int(status[kernel_table.ENTRIES]) == int(counts[sweep.KEPT_COUNTERS + 1])
    world.close()


def untouched_rows_checked(make: Callable[[], World], steps: int, seed: int) -> int:
    """Step ``make()``'s world, checking after each run that the level geometry rows it did
    not note as reached are as the template holds them, but for the columns of their filing
    in the kept grid (SPAN, LARGE); returns how many rows were checked."""
    from systems.physics._kernels import table as t

    filing = [t.SPAN_X0, t.SPAN_Y0, t.SPAN_X1, t.SPAN_Y1, t.LARGE]
    others = [column for column in range(t.INT_COLUMNS) if column not in filing]
    checked = 0
    with pytest.MonkeyPatch.context() as patch:
        ran = resolve._Tables.ran

        def check(self: resolve._Tables, *args: object) -> None:
            nonlocal checked
            ran(self, *args)  # type: ignore[arg-type]
            assert self._dirty is not None
            untouched = np.flatnonzero(self._level & ~np.isin(np.arange(len(self._level)), self._dirty))
            table, ints = self._tables
            assert table[untouched].tobytes() == self._template[0][untouched].tobytes()
            assert (ints[untouched][:, others] == self._template[1][untouched][:, others]).all()
            checked += len(untouched)
            # No run moves, touches, crushes or carries level geometry: the write-back looks
            # only at the other rows (``resolve._scatter``).
            level = self._level
            assert not (ints[level, t.FLAGS] & (t.TOUCHED | t.PLACED | t.CRUSHED)).any()
            assert (ints[level, t.VERSION] == 0).all() and (ints[level, t.RIDE] == -1).all()
        patch.setattr(resolve._Tables, "ran", check)
        for _ in played(make(), steps, seed):
            pass
    return checked


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans(), st.booleans())
def test_a_run_writes_only_the_level_geometry_rows_it_notes_as_reached(seed: int, level_first: bool,
                                                                      gravity: bool) -> None:
    # Each step copies back from the template only the level geometry rows the last run
    # reached (through a pair, or a grid query that marks them): every other one must be left
    # as it was.
    assert untouched_rows_checked(lambda: level_scene(seed, level_first, gravity), 25, seed) > 0


@pytest.mark.parametrize("scene", ["platformer", "shooter", "level"])
@pytest.mark.parametrize("continuous", [True, False])
def test_the_game_like_scenes_write_only_the_level_geometry_rows_they_note(scene: str, continuous: bool) -> None:
    # Ramps, one-way ledges, piles and friction; bullets, layers and TRIGGER coins; a level of
    # tiles: in both pipelines.
    layouts = {"platformer": lambda: scenes.platformer(300), "shooter": lambda: scenes.shooter(300),
               "level": lambda: scenes.level_scene(400, 100)}
    assert untouched_rows_checked(lambda: scenes.build_world(layouts[scene](), continuous)[0], 30, 1) > 0


def test_level_geometry_keeps_its_codes_while_only_its_vectors_change() -> None:
    # A tile moved or resized is read anew, but its shape, faces and layers (the kernels'
    # codes) can only change by assignment: they are kept; a Collider field assigned makes
    # them anew, and they then hold the new value.
    from systems.physics._stages.resolve import _SIDES

    world = level_scene(3, True, True)
    world.step(1 / 60)
    resolver = world.response.resolver
    first = resolver._level
    assert first is not None
    read, rows, columns, _, codes = first
    tile = int(columns.entities[rows[0]])
    world.component_for_entity(tile, Transform).position.x += 1.0
    world.component_for_entity(tile, Collider).size.y += 2.0
    world.step(1 / 60)
    assert resolver._level is not None and resolver._level[0] is not read  # (read anew)
    assert resolver._level[4] is codes
    world.component_for_entity(tile, Collider).sides = Side.TOP
    world.step(1 / 60)
    assert resolver._level[4] is not codes
    assert resolver._level[4][0, _SIDES] == Side.TOP.value
    world.close()


def test_the_write_back_refuses_a_velocity_for_a_body_without_physics() -> None:
    # The write-back hands each row's velocity to the Physics of its row, looking only at the
    # movers' rows: a row the kernels touched that has no Physics is a broken core, refused
    # before anything is written.
    from systems.physics._kernels import table as t
    from systems.physics._solver.resolution import Resolution

    world = level_scene(5, True, True)
    kinematic = world.create_entity(Transform((100, 100)), Collider((8, 8)))  # (a mover without Physics)
    world.step(1 / 60)
    tables, found = world.response.resolver._tables, world.collision.found
    table, ints = (array.copy() for array in tables._tables)
    row = found.rows[kinematic]
    ints[row, t.FLAGS] |= t.TOUCHED
    with pytest.raises(RuntimeError, match="without Physics"):
        resolve._scatter(found, table, ints, tables.movers, Resolution(), [], [])
    world.close()
