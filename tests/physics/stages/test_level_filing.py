"""Level geometry filed once: the sweeps' grid keeps its filing from step to step.

The sweep kernel files level geometry (STATIC colliders without Physics) in its grid once for
each template of the body table and restores it each run, filing only the other bodies
(``systems.physics._kernels.sweep._start_grid``). A step must come out bit for bit as it does
when every row is filed each run (``sweep.filing_each_run``), whichever were made first, and
when level geometry is moved in place, assigned, added or removed between steps (a new
template, so a new filing).
"""

from __future__ import annotations

import random
import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from components import Collider, ColliderType, Physics, Side, Transform
from ecs import World
from systems.physics._kernels import sweep
from systems.physics._stages import resolve

STATIC = ColliderType.STATIC


def level_scene(seed: int, level_first: bool, gravity: bool) -> World:
    """Crates (or fast elastic boxes) in a box of 16 px tiles with ledges, the tiles made
    before or after the bodies."""
    rng = random.Random(seed)
    world = World(gravity=(0, 900) if gravity else (0, 0))

    def tiles() -> None:
        for x in range(0, 320, 16):
            for y in (-16, 240):
                world.create_entity(Transform((x, y)), Collider((16, 16), type=STATIC))
        for y in range(0, 240, 16):
            for x in (-16, 320):
                world.create_entity(Transform((x, y)), Collider((16, 16), type=STATIC))
        for k in range(8):
            world.create_entity(Transform((rng.uniform(0, 280), rng.uniform(60, 220))),
                                Collider((32, 8), type=STATIC, sides=Side.TOP if k % 2 else Side.ALL))

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


def run(seed: int, level_first: bool, gravity: bool, kept: bool, monkeypatch: pytest.MonkeyPatch) -> list[list[int]]:
    with monkeypatch.context() as patch:
        if not kept:
            patch.setattr(resolve._Tables, "filing",
                          lambda self, buffers: sweep.filing_each_run(len(self._template[0])))
        world = level_scene(seed, level_first, gravity)
        rng = random.Random(seed)
        states = []
        for step in range(25):
            changes(world, step, rng)
            world.step(1 / 60)
            states.append(bits_of(world))
        world.close()
    return states


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans(), st.booleans())
def test_a_kept_filing_of_level_geometry_steps_as_filing_every_row_each_run(seed: int, level_first: bool,
                                                                          gravity: bool) -> None:
    with pytest.MonkeyPatch.context() as monkeypatch:
        assert (run(seed, level_first, gravity, True, monkeypatch)
                == run(seed, level_first, gravity, False, monkeypatch))


def test_the_filing_is_kept_under_one_key_until_level_geometry_changes() -> None:
    # Kept: the key stays while nothing changes, and a tile moved in place makes a new one.
    world = level_scene(3, True, True)
    world.step(1 / 60)
    tables = world.response.resolver._tables
    key = tables.filing(world.response.resolver._buffers)[2]
    world.step(1 / 60)
    world.step(1 / 60)
    assert tables.filing(world.response.resolver._buffers)[2] == key
    counts = tables.filing(world.response.resolver._buffers)[3][3]
    assert counts[sweep.KEPT_KEY] == key and counts[sweep.KEPT_COUNTERS + 1] > 0  # (entries kept)
    tile = next(entity for entity, collider in sorted(world.get_component(Collider)) if collider.type is STATIC)
    world.component_for_entity(tile, Transform).position.x += 2.0
    world.step(1 / 60)
    assert tables.filing(world.response.resolver._buffers)[2] != key
    world.close()
