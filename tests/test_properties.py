"""Invariants under random scenes (hypothesis): momentum, statics, no NaN, no escape."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from components import Physics, Transform
from ecs import World
from helpers import DT, box, position, run, velocity, wall

bodies = st.lists(
    st.tuples(
        st.floats(0, 80), st.floats(0, 80),  # top-left, px
        st.floats(-300, 300), st.floats(-300, 300),  # velocity, px/s
        st.floats(0.2, 5),  # mass
        st.floats(0, 1),  # elasticity
        st.floats(0, 1),  # friction
    ),
    min_size=2,
    max_size=8,
)


@pytest.mark.parametrize("continuous", [False, True], ids=["discrete", "continuous"])
@given(specs=bodies, steps=st.integers(1, 5))
def test_free_bodies_conserve_momentum(continuous, specs, steps):
    world = World(continuous=continuous)
    entities = [box(world, x, y, velocity=(vx, vy), mass=m, elasticity=e, friction=f)
                for x, y, vx, vy, m, e, f in specs]
    before = sum((velocity(world, e) * world.component_for_entity(e, Physics).mass
                  for e in entities), start=velocity(world, entities[0]) * 0)
    run(world, steps)
    after = sum((velocity(world, e) * world.component_for_entity(e, Physics).mass
                 for e in entities), start=velocity(world, entities[0]) * 0)
    scale = 1 + sum(abs(vx) + abs(vy) for _, _, vx, vy, m, _, _ in specs) * 5
    assert (after - before).length() <= 1e-9 * scale


def closed_arena(world: World, side: float) -> list[int]:
    return [
        wall(world, -40, -40, side + 80, 40),
        wall(world, -40, side, side + 80, 40),
        wall(world, -40, 0, 40, side),
        wall(world, side, 0, 40, side),
    ]


@pytest.mark.parametrize("continuous", [False, True], ids=["discrete", "continuous"])
@given(specs=bodies, gravity=st.sampled_from([(0, 0), (0, 980)]))
def test_closed_arena_keeps_everything_in_and_statics_still(continuous, specs, gravity):
    # Speeds stay below the wall thickness per step here (300 px/s plus
    # gravity over 2 s is < 40 px per step), so the discrete pipeline must
    # hold too; test_continuous has the fast version.
    world = World(gravity=gravity, continuous=continuous)
    walls = closed_arena(world, 100)
    starts = [tuple(position(world, w)) for w in walls]
    entities = [box(world, x + 5, y + 5, velocity=(vx, vy), mass=m, elasticity=e, friction=f)
                for x, y, vx, vy, m, e, f in specs]
    run(world, 120)
    assert [tuple(position(world, w)) for w in walls] == starts
    for e in entities:
        p, v = position(world, e), velocity(world, e)
        assert all(math.isfinite(c) for c in (p.x, p.y, v.x, v.y))
        assert -0.02 <= p.x and p.x + 10 <= 100.02
        assert -0.02 <= p.y and p.y + 10 <= 100.02
    assert len(world.get_component(Transform)) == len(walls) + len(entities)
