"""The compiled kernels and the plain-Python code give the same floats, step after step, on
random scenes that take each of the core's paths (the README's promise).

Each kernel mode runs in a process of its own (``ECS_ARCADE_JIT`` is read at import). The
scenes mix elastic boxes without gravity, piles spawned on one spot (the pile relaxation,
whose sums depend on pair order), gravity with ramps, a one-way ledge, a lift, circles and
random materials, and the same with TRIGGER coins on a layer. With the kernels on, every one
of them is swept by the compiled sweep over the compiled broad phase's pairs (listed in
another order than the grid lists them); with them as plain Python, by the same kernel's source
over the grid's.
"""

from __future__ import annotations

import pytest

from helpers import run_in_mode

SCENES = r'''
import hashlib, random, sys
from helpers import state_lines
from components import ALL, Collider, ColliderType, Physics, Shape, Side, Transform
from ecs import World

STATIC, TRIGGER = ColliderType.STATIC, ColliderType.TRIGGER
RAMPS = (Shape.TRIANGLE_BOTTOM_LEFT, Shape.TRIANGLE_BOTTOM_RIGHT)

def scene(seed, continuous):
    rng = random.Random(seed)
    plain = seed % 3 == 0  # elastic boxes, no gravity: the compiled sweep's scene
    world = World(gravity=(0, 0) if plain else rng.choice(((0, 980), (250, 700))), continuous=continuous)
    for x, y, w, h in ((-40, -40, 480, 40), (-40, 400, 480, 40), (-40, 0, 40, 400), (400, 0, 40, 400)):
        world.create_entity(Transform((x, y)), Collider((w, h), type=STATIC))
    if not plain:
        world.create_entity(Transform((0, 360)), Collider((40, 40), type=STATIC, shape=RAMPS[0]))
        world.create_entity(Transform((360, 360)), Collider((40, 40), type=STATIC, shape=RAMPS[1]))
        world.create_entity(Transform((150, 250)), Collider((100, 6), type=STATIC, sides=Side.TOP))
        world.create_entity(Transform((260, 330)), Collider((60, 8), type=STATIC), Physics(velocity=(0, -40)))
        for i in range(6 if seed % 3 == 2 else 0):  # coins turn the compiled broad phase off
            world.create_entity(Transform((30 + 60 * i, 380)), Collider((6, 6), type=TRIGGER, category=2))
    for i in range(36):
        size = rng.choice((6.0, 8.0, 12.0))
        round_ = not plain and rng.random() < 0.4
        if i < 20:  # two piles, each spawned within a few px of a spot: across cell borders
            x, y = ((128.0, 64.0), (256.0, 128.0))[i % 2]
            spot = (x + rng.uniform(-5, 5), y + rng.uniform(-5, 5))
        else:
            spot = (rng.uniform(10, 380), rng.uniform(10, 220))
        physics = Physics(velocity=(rng.uniform(-400, 400), rng.uniform(-400, 400)), mass=rng.uniform(0.5, 4),
                          elasticity=1.0 if plain else rng.choice((0.0, 0.5, 1.0)),
                          friction=0.0 if plain else rng.uniform(0.0, 0.8))
        world.create_entity(Transform(spot), Collider((size, size), shape=Shape.CIRCLE if round_ else Shape.BOX),
                            physics)
    return world

for seed in range(int(sys.argv[1])):
    for continuous in (True, False):
        world, digest = scene(seed, continuous), hashlib.sha256()
        for _ in range(90):
            world.step(1 / 60)
            for line in state_lines(world):
                digest.update(line.encode())
        print(seed, continuous, digest.hexdigest())
from systems.physics._kernels import jit
print("compiled" if jit.COMPILED else "python")
'''


def test_random_scenes_give_the_same_floats_compiled_and_not() -> None:
    compiled = run_in_mode(SCENES, "1", "9")
    if compiled[-1] != "compiled":
        pytest.skip("numba is not installed here: there is only one mode")
    python = run_in_mode(SCENES, "0", "9")
    assert python[-1] == "python"
    assert len(compiled) == 19  # 9 seeds × 2 pipelines, and the mode
    assert compiled[:-1] == python[:-1]
