"""Rows of boxes in the sweep kernel (systems.physics._kernels.sweep._collide_row), compiled and not.

Boxes touching end to end, struck without bouncing, are collided at once
(``systems.physics._kernels.rows``); the compiled kernel and its plain copy must give the same
floats, bit for bit. Random scenes without gravity, lanes of e = 0 crates of several sizes,
masses and frictions, some touching, some a hair or a few px apart, some sliding across the
lane (friction at each contact), struck by a pusher (a Newton's cradle where the crates
touch), the far end against the arena's wall, against a STATIC post, free, or met by a second
pusher, are stepped through both copies in one process. The plain copy must have collided
rows (``find_row`` found some, counted in it), so the rows really went through the kernel.
"""

from __future__ import annotations

import hashlib
import inspect
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from components import Collider, ColliderType, Physics, Transform
from ecs import World
from helpers import state_lines
from systems.physics._kernels import jit
from systems.physics._kernels.plain import own, plain

LENGTH = 480.0  # px, the arena's inside along the lanes
LANE = 40.0  # px between lanes
STEPS = 30


@pytest.fixture(scope="module")
def rows_found() -> Iterator[list[int]]:
    """How many rows the plain copy's sweep kernel has collided (``find_row`` found), a running count."""
    module = inspect.unwrap(plain().run_sweeps).__globals__  # (the plain copy's sweep module)
    real, found = module["find_row"], [0]

    def find_row(*args: Any) -> Any:
        result = real(*args)
        found[0] += bool(result[0])
        return result

    module["find_row"] = find_row
    try:
        yield found
    finally:
        module["find_row"] = real


def build(scene: dict[str, Any], compiled: bool) -> World:
    """The lanes of ``scene`` in a closed arena, swept by the compiled kernel or its plain copy."""
    world = World(gravity=(0, 0))
    world.response.resolver.kernels = own() if compiled else plain()
    world.response.resolver.max_subdivisions = scene["subdivisions"]
    flip = (lambda x, y: (y, x)) if scene["vertical"] else (lambda x, y: (x, y))
    across = LANE * len(scene["lanes"])
    for x, y, w, h in ((-40, -40, LENGTH + 80, 40), (-40, across, LENGTH + 80, 40), (-40, 0, 40, across),
                       (LENGTH, 0, 40, across)):
        world.create_entity(Transform(flip(x, y)), Collider(flip(w, h), type=ColliderType.STATIC))
    for lane, bodies in enumerate(scene["lanes"]):
        for x, y, w, h, vx, vy, mass, elasticity, friction, static in bodies:
            y += lane * LANE
            if static:
                world.create_entity(Transform(flip(x, y)), Collider(flip(w, h), type=ColliderType.STATIC))
            else:
                world.create_entity(Transform(flip(x, y)), Collider(flip(w, h)),
                                    Physics(flip(vx, vy), mass=mass, elasticity=elasticity, friction=friction))
    return world


def steps(scene: dict[str, Any], compiled: bool) -> list[str]:
    """A digest of the state and the crushed bodies after each of STEPS steps."""
    world, digests = build(scene, compiled), []
    for _ in range(STEPS):
        world.step(1 / 60)
        digest = hashlib.sha256(repr(sorted(world.response.crushed)).encode())
        for line in state_lines(world):
            digest.update(line.encode())
        digests.append(digest.hexdigest()[:16])
    world.close()
    return digests


@st.composite
def lanes(draw: st.DrawFn) -> list[list[Any]]:
    """One lane's bodies, (x, y, length, thickness, vx, vy, mass, elasticity, friction, static)
    each: crates laid back from a face (the wall, a post, or short of it), a pusher behind them."""
    end = draw(st.sampled_from(["wall", "post", "free", "pusher"]))
    face = LENGTH if end == "wall" else draw(st.floats(300.0, 440.0))
    bodies = []
    if end == "post":
        bodies.append([face, 5.0, 10.0, 30.0, 0.0, 0.0, 1.0, 0.0, 0.0, True])
    elif end == "pusher":  # a second one, coming the other way
        bodies.append([face + draw(st.floats(0.5, 30.0)), 12.0, 10.0, 12.0, -draw(st.floats(60.0, 900.0)), 0.0,
                       draw(st.sampled_from([1.0, 4.0])), 0.0, 0.2, False])
    x = face - (20.0 if end == "free" else 0.0)
    bouncy = draw(st.integers(-8, 7))  # which crate bounces (e = 0.5), if any: it rules rows out
    for crate in range(draw(st.integers(2, 8))):
        length, thickness = draw(st.sampled_from([6.0, 12.5, 24.0])), draw(st.sampled_from([8.0, 14.0, 20.0]))
        x -= length
        bodies.append([x, 25.0 - thickness, length, thickness, draw(st.sampled_from([0.0, 0.0, 0.0, -40.0, 70.0])),
                       draw(st.sampled_from([0.0, 0.0, 35.0, -20.0])), draw(st.sampled_from([0.5, 1.0, 3.0])),
                       0.5 if crate == bouncy else 0.0, draw(st.sampled_from([0.0, 0.3, 0.8])), False])
        x -= draw(st.sampled_from([0.0] * 4 + [0.004, 2.0]))
    length = draw(st.sampled_from([8.0, 16.0]))
    bodies.append([x - length - draw(st.floats(0.5, 40.0)), 10.0, length, 14.0, draw(st.floats(60.0, 1500.0)),
                   draw(st.sampled_from([0.0, 10.0])), draw(st.sampled_from([0.5, 1.0, 5.0])),
                   draw(st.sampled_from([0.0, 0.0, 0.0, 0.5])), draw(st.sampled_from([0.0, 0.4])), False])
    return bodies


scenes = st.fixed_dictionaries({
    "lanes": st.lists(lanes(), min_size=1, max_size=3),
    "vertical": st.booleans(),
    "subdivisions": st.sampled_from([3, 32]),
})


@pytest.mark.skipif(not jit.COMPILED, reason="no compiled copy to compare (ECS_ARCADE_JIT=0 or no numba)")
@settings(max_examples=20)
@given(scenes)
def test_rows_give_the_same_floats_compiled_and_not(scene: dict[str, Any]) -> None:
    assert steps(scene, True) == steps(scene, False)


def test_a_pusher_drives_rows_into_walls_and_posts_through_the_kernel(rows_found: list[int]) -> None:
    # Three lanes of five touching 12 px crates (masses 1, 3, 0.5, 1, 3; frictions 0.3 and 0.8),
    # some sliding across the lane; a 5 kg pusher at 600 px/s, 5 px away, meets the first at
    # t = 5/600 s, mid-step 1: the row is collided at once. Lane 0 ends against the wall, lane 1
    # against a STATIC post, lane 2 is free (a Newton's cradle of e = 0 boxes, all moving on
    # together at 5·600/13.5 px/s, momentum kept).
    crates = [[408.0 - 12.0 * i, 11.0, 12.0, 14.0, 0.0, 20.0 * (i % 2), (1.0, 3.0, 0.5)[i % 3], 0.0,
               (0.3, 0.8)[i % 2], False] for i in range(5)]
    post = [[420.0, 5.0, 10.0, 30.0, 0.0, 0.0, 1.0, 0.0, 0.0, True]]
    pusher = [[345.0, 10.0, 10.0, 14.0, 600.0, 0.0, 5.0, 0.0, 0.3, False]]
    shifted = [[x + 60.0, *rest] for x, *rest in crates]  # flush against the wall at 480 px
    scene = {"lanes": [shifted + [[405.0, *pusher[0][1:]]], post + crates + pusher, crates + pusher],
             "vertical": False, "subdivisions": 32}
    before = rows_found[0]
    plain_run = steps(scene, False)
    assert rows_found[0] - before >= 3  # the three rows were collided at once
    if jit.COMPILED:
        assert steps(scene, True) == plain_run
