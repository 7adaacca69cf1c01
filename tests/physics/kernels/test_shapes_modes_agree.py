"""Circles and triangles through the sweep kernel: scenes without gravity give the same floats
with the kernels compiled and as plain Python.

Each mode runs in a process of its own (``ECS_ARCADE_JIT`` is read at import). The scenes:
elastic circles (and a few boxes) of random sizes, masses and materials in an arena whose
corners are filled by the four right triangles; and boxes and circles sliding along a floor
into ramps rising either way and under ceiling slopes. Positions, velocities and every
contact (normal, depth, time, surface, point) are hashed each step.
"""

from __future__ import annotations

import pytest

from helpers import run_in_mode

SCENES = r'''
import hashlib, random, sys
from helpers import state_lines
from components import Collider, ColliderType, Physics, Shape, Transform
from ecs import World
from systems.physics._kernels import jit

STATIC = ColliderType.STATIC

def walls(world):
    for x, y, w, h in ((-40, -40, 480, 40), (-40, 400, 480, 40), (-40, 0, 40, 400), (400, 0, 40, 400)):
        world.create_entity(Transform((x, y)), Collider((w, h), type=STATIC))

def arena(rng):
    world = World(gravity=(0, 0))
    walls(world)
    for x, y, shape in ((0, 0, Shape.TRIANGLE_TOP_LEFT), (340, 0, Shape.TRIANGLE_TOP_RIGHT),
                        (0, 340, Shape.TRIANGLE_BOTTOM_LEFT), (340, 340, Shape.TRIANGLE_BOTTOM_RIGHT)):
        world.create_entity(Transform((x, y)), Collider((60, 60), type=STATIC, shape=shape))
    world.create_entity(Transform((180, 180)), Collider((40, 20), type=STATIC, shape=Shape.TRIANGLE_BOTTOM_RIGHT))
    for i in range(40):
        size = rng.choice((6.0, 8.0, 12.0, 16.0))
        shape = Shape.BOX if i % 8 == 7 else Shape.CIRCLE
        physics = Physics(velocity=(rng.uniform(-600, 600), rng.uniform(-600, 600)), mass=rng.uniform(0.5, 4),
                          elasticity=rng.choice((1.0, 1.0, 0.5)), friction=rng.choice((0.0, 0.3)))
        spot = (rng.uniform(60, 330), rng.uniform(60, 330))
        world.create_entity(Transform(spot), Collider((size, size), shape=shape), physics)
    return world

def ramps(rng):
    world = World(gravity=(0, 0))
    walls(world)
    for x, y, w, h, shape in ((0, 360, 80, 40, Shape.TRIANGLE_BOTTOM_LEFT),
                              (320, 360, 80, 40, Shape.TRIANGLE_BOTTOM_RIGHT),
                              (0, 0, 60, 30, Shape.TRIANGLE_TOP_LEFT), (340, 0, 60, 30, Shape.TRIANGLE_TOP_RIGHT),
                              (180, 380, 40, 20, Shape.TRIANGLE_BOTTOM_RIGHT)):
        world.create_entity(Transform((x, y)), Collider((w, h), type=STATIC, shape=shape))
    for i in range(16):
        size = rng.choice((8.0, 10.0, 16.0))
        y = 400 - size if i % 2 else rng.uniform(0, 380)
        shape = Shape.CIRCLE if i % 4 == 3 else Shape.BOX
        velocity = (rng.choice((-1, 1)) * rng.uniform(100, 900), 0.0 if i % 2 else rng.uniform(-300, 300))
        physics = Physics(velocity=velocity, mass=rng.uniform(0.5, 4), elasticity=rng.choice((1.0, 0.3)),
                          friction=rng.choice((0.0, 0.5)))
        world.create_entity(Transform((rng.uniform(90, 300), y)), Collider((size, size), shape=shape), physics)
    return world

steps = 0
for seed in range(int(sys.argv[1])):
    for make in (arena, ramps):
        world, digest = make(random.Random(seed)), hashlib.sha256()
        for _ in range(60):
            world.step(1 / 60)
            steps += 1
            for line in state_lines(world):
                digest.update(line.encode())
        print(seed, make.__name__, digest.hexdigest())
print(jit.COMPILED, steps)
'''


def test_circles_and_triangles_give_the_same_floats_through_the_kernel() -> None:
    compiled = run_in_mode(SCENES, "1", "3")
    python = run_in_mode(SCENES, "0", "3")
    assert python[-1] == "False 360"  # 3 seeds × 2 scenes × 60 steps
    if compiled[-1] != "True 360":
        pytest.skip("numba is not installed here: there is only one mode")
    assert compiled[:-1] == python[:-1]
