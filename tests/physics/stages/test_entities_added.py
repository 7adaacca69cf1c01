"""Entities added and removed between steps leave level geometry as it was filed.

When esper's lists change (a bullet fired, a pickup taken), the collide stage makes its
colliders' table anew; level geometry (STATIC colliders without Physics) whose bodies are the
same stays filed in the grid and is only compared, as in any step, instead of read again tile
by tile; its rows in the kernels' template are copied from the last one
(``systems.physics._stages.collide.Collide._rebuild``, ``_Resting.holds``,
``resolve._Tables._make``). A game must see the same bits as when every tile is read anew:
entities added or removed before and after the tiles (the tiles' rows move or stay), with a
tile moved in place or a Collider field assigned in the same step, a tile added or removed,
a component replaced, a body given Physics, a type changed in place.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from components import Collider, ColliderType, Physics, Side, Transform
from components._checks import assignments, replacements
from ecs import World
from helpers import state_lines, tile_room
from systems.physics._stages import collide, resolve
from systems.physics._stages.found import Found

STATIC = ColliderType.STATIC
CHANGES = ("fire", "fire", "hit", "early gone", "tile nudged", "tile sides", "tile added", "tile gone",
           "new transform", "given physics", "made static", "coin", "looked", "nothing")


def scene(seed: int) -> tuple[World, list[int]]:
    """A walled room of 16 px tiles with ledges, crates falling in it, and a few bodies made
    before the tiles (their removal moves the tiles' rows); returns the world and those."""
    rng = random.Random(seed)
    world = World(gravity=(0, 900))
    early = [world.create_entity(Transform((rng.uniform(20, 280), rng.uniform(20, 80))), Collider((6, 6)),
                                 Physics((rng.uniform(-80, 80), 0), friction=0.4)) for _ in range(4)]
    tile_room(world, rng, 6)
    for _ in range(24):
        world.create_entity(Transform((rng.uniform(10, 300), rng.uniform(10, 200))), Collider((8, 8)),
                            Physics((rng.uniform(-100, 100), 0), friction=0.5))
    return world, early


def change(world: World, early: list[int], what: str, rng: random.Random) -> None:
    """One change a game makes between steps (``CHANGES``)."""
    colliders = sorted(world.get_component(Collider))
    tiles = [e for e, c in colliders if c.type is STATIC and not world.has_component(e, Physics)]
    movers = [e for e, _ in sorted(world.get_component(Physics)) if e not in early]
    if what == "fire":
        world.create_entity(Transform((rng.uniform(20, 280), rng.uniform(20, 200))), Collider((4, 4)),
                            Physics((rng.uniform(-900, 900), rng.uniform(-900, 900)), elasticity=1.0))
    elif what == "hit" and movers:
        world.delete_entity(rng.choice(movers), immediate=True)
    elif what == "early gone" and early:
        world.delete_entity(early.pop(rng.randrange(len(early))), immediate=True)
    elif what == "coin":
        world.create_entity(Transform((rng.uniform(20, 280), rng.uniform(20, 200))),
                            Collider((8, 8), type=ColliderType.TRIGGER))
    elif what in ("tile nudged", "tile sides"):  # one a body touches, in the step a bullet is fired too
        touched = {entity for contact in world.contacts for entity in (contact.a, contact.b)}
        tile = rng.choice([tile for tile in tiles if tile in touched] or tiles)
        if what == "tile nudged":
            world.component_for_entity(tile, Transform).position.y -= 2.0
        else:
            world.component_for_entity(tile, Collider).sides = Side.TOP
        change(world, early, "fire", rng)
    elif what == "looked":  # a query between steps brings the colliders up to date first (``Collide.sync``)
        change(world, early, rng.choice(["tile nudged", "tile added", "tile gone"]), rng)
        world.query_box((0.0, 0.0), (320.0, 240.0))
    elif what == "tile added":
        world.create_entity(Transform((rng.uniform(0, 300), rng.uniform(100, 220))), Collider((16, 16), type=STATIC))
    elif what == "tile gone":
        world.delete_entity(rng.choice(tiles), immediate=True)
    elif what == "new transform" and movers:
        mover = rng.choice(movers)
        world.add_component(mover, Transform(world.component_for_entity(mover, Transform).position))
    elif what == "given physics":
        world.add_component(rng.choice(tiles), Physics(mass=5.0))
    elif what == "made static" and movers:
        world.component_for_entity(rng.choice(movers), Collider).type = STATIC


def played(seed: int, changes: list[str]) -> list[list[str]]:
    """Every step's positions, velocities and contacts, bit for bit (``state_lines``), and
    every box the grid files, with ``changes`` made one before each step."""
    world, early = scene(seed)
    rng = random.Random(seed)
    lines = []
    for what in changes:
        change(world, early, what, rng)
        world.step(1 / 60)
        filed = [f"{entity} {' '.join(value.hex() for value in box)}"
                 for entity, box in sorted(world.collision.grid.boxes.items())]
        lines.append(state_lines(world) + filed)
    world.close()
    return lines


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32 - 1), st.lists(st.sampled_from(CHANGES), min_size=12, max_size=24))
def test_level_geometry_kept_through_entities_added_and_removed_steps_as_read_anew(seed: int,
                                                                                 changes: list[str]) -> None:
    kept = played(seed, changes)
    with pytest.MonkeyPatch.context() as patch:
        # Every collider read and filed anew, in a new grid, and level geometry's rows of the
        # template made anew.
        rebuild = collide.Collide._rebuild

        def refiled(self: collide.Collide, *args: Any) -> tuple[Found, int]:
            self.grid.cell_size = -1.0  # (not the size it needs: a new grid, every collider filed in it)
            return rebuild(self, *args)
        patch.setattr(collide.Collide, "_rebuild", refiled)
        make = resolve._Tables._make

        def anew(self: resolve._Tables, collision: Found, level_codes: np.ndarray) -> None:
            self._key = None
            make(self, collision, level_codes)
        patch.setattr(resolve._Tables, "_make", anew)
        assert played(seed, changes) == kept


def test_a_bullet_fired_keeps_the_level_as_filed_and_makes_new_bodies_only_for_what_changed() -> None:
    world, early = scene(1)
    world.step(1 / 60)
    stage = world.collision
    resting, pool = stage._resting, dict(stage._pool)
    read = resting.read(stage.grid)
    rng = random.Random(1)
    change(world, early, "fire", rng)
    world.step(1 / 60)
    assert stage._resting is resting and resting.read(stage.grid) is read  # (tiles made after: rows unmoved)
    assert all(stage._pool[entity] is body for entity, body in pool.items())
    change(world, early, "early gone", rng)  # a body made before the tiles: their rows move up one
    world.step(1 / 60)
    assert stage._resting is resting and (resting.rows == read.rows - 1).all()
    moved = resting.read(stage.grid)
    assert moved is not read and moved.geometry is read.geometry
    mover = next(entity for entity, _ in sorted(world.get_component(Physics)) if entity not in early)
    world.add_component(mover, Physics())  # a component replaced: that entity's Body is made anew
    world.step(1 / 60)
    assert stage._pool[mover] is not pool[mover] and stage._pool[mover].physics is world.component_for_entity(
        mover, Physics)
    change(world, early, "tile added", rng)  # level geometry changed: only the new tile read
    seen = dict(zip(resting.bodies, resting.seen))
    world.step(1 / 60)
    assert stage._resting is not resting
    added = max(stage._resting.entities)
    for body, filed in zip(stage._resting.bodies, stage._resting.seen):
        assert filed is seen[body] if body.entity != added else filed == collide._filed_by(body)
    world.close()


def test_making_a_component_stamps_nothing_and_assigning_one_after_does() -> None:
    # What a stage keeps holds only components that existed: a component made (a bullet
    # fired) can't be in it, so it must not make every kept list be read again.
    assigned, replaced = assignments(Collider), replacements(Collider)
    collider = Collider((4, 4), type=ColliderType.TRIGGER)
    Transform((1, 2))
    assert (assignments(Collider), replacements(Collider)) == (assigned, replaced)
    collider.category = 2
    assert assignments(Collider) != assigned and replacements(Collider) == replaced
    collider.size = (6, 6)
    assert replacements(Collider) != replaced
