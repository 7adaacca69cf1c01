"""Rows of touching boxes struck at one instant: one perfectly inelastic collision."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from components import Collider, ColliderType, Physics, Transform
from ecs import World
from helpers import DT, box, kinetic_energy, momentum, position, run, velocity, wall
from systems.impulse import pool_adjacent

speeds = st.floats(-3000, 3000, allow_nan=False)
masses = st.floats(0.01, 100, allow_nan=False)


def test_a_body_striking_a_row_at_rest_moves_the_whole_row_at_the_common_speed():
    # 150 px/s into four bodies at rest, equal masses: momentum 150 shared by
    # five, 30 px/s each.
    assert pool_adjacent([1.0] * 5, [150.0, 0.0, 0.0, 0.0, 0.0]) == [30.0] * 5


def test_bodies_moving_apart_are_not_pooled():
    # The front body runs ahead faster than the pair behind closes: only the
    # pair pools, (3·10 + 1·2)/4 = 8 px/s, and the leader keeps 50.
    assert pool_adjacent([3.0, 1.0, 1.0], [10.0, 2.0, 50.0]) == [8.0, 8.0, 50.0]


@given(st.lists(st.tuples(masses, speeds), min_size=1, max_size=12))
def test_pooling_keeps_momentum_never_closes_and_never_adds_energy(row):
    # The inelastic collision of a row: momentum Σ m·v kept (to rounding),
    # speeds non-decreasing along the row (nothing closes on the next), and
    # kinetic energy ½ Σ m·v² never larger than before.
    weights = [m for m, _ in row]
    before = [v for _, v in row]
    after = pool_adjacent(weights, before)
    scale = sum(m * abs(v) for m, v in row) + 1.0
    assert sum(m * v for m, v in zip(weights, after)) == pytest.approx(sum(m * v for m, v in row), abs=1e-9 * scale)
    fastest = max(abs(v) for v in before) + 1.0
    assert all(after[i] - after[i + 1] <= 1e-12 * fastest for i in range(len(after) - 1))
    energy = sum(m * v * v for m, v in row) / 2
    assert sum(m * v * v for m, v in zip(weights, after)) / 2 <= energy * (1 + 1e-12) + 1e-9


def _row_struck(count, gap=0.0):
    """A World with no gravity: a 10 px box at 150 px/s just touching a row
    of ``count`` 10 px boxes at rest, each ``gap`` px from the next."""
    world = World(continuous=True)
    striker = box(world, 0, 0, velocity=(150, 0))
    row = [box(world, 10 + i * (10 + gap), 0) for i in range(count)]
    return world, striker, row


def test_a_struck_row_moves_as_one_in_the_swept_pipeline():
    # Elasticity 0 (the default), equal masses: in one step the striker and
    # four touching boxes share 150 px/s, 30 px/s each, exactly, instead of
    # trading ever smaller impacts.
    world, striker, row = _row_struck(4)
    world.step(DT)
    for entity in [striker, *row]:
        assert tuple(velocity(world, entity)) == pytest.approx((30.0, 0.0), abs=1e-9)
    assert [(c.a, c.b) for c in world.contacts] == [(striker, row[0])] + list(zip(row, row[1:]))


def test_a_row_pushed_each_step_reaches_the_speed_friction_allows():
    # A pusher set to 150 px/s each step drives 3 crates on a floor (g = 980,
    # μ = 0.5, e = 0, equal masses). Each step the four share their momentum,
    # then the floor takes μ·g·dt = 8.17 px/s off each: the steady speed V
    # solves V = (150 + 3V)/4 − μ·g·dt, V = 150 − 4·μ·g·dt = 117.3 px/s.
    world = World(gravity=(0, 980))
    wall(world, -100, 100, 2000, 20)
    pusher = box(world, 0, 90, friction=0.5)
    crates = [box(world, 10 + 10 * i, 90, friction=0.5) for i in range(3)]
    for _ in range(120):
        world.component_for_entity(pusher, Physics).velocity.x = 150
        world.step(DT)
    expected = 150 - 4 * 0.5 * 980 * DT
    assert velocity(world, crates[-1]).x == pytest.approx(expected, abs=0.5)
    gaps = [position(world, b).x - position(world, a).x - 10 for a, b in zip([pusher, *crates], crates)]
    assert all(-0.5 <= g <= 0.5 for g in gaps)  # still touching, nothing inside another


def test_a_row_against_a_wall_is_left_to_the_pairwise_impacts():
    # The row ends at a STATIC: nothing pools (the wall takes the blow, as a
    # wall does): every box stops, the striker included.
    world, striker, row = _row_struck(3)
    wall(world, 40, -10, 10, 30)
    world.step(DT)
    for entity in [striker, *row]:
        assert velocity(world, entity).x == pytest.approx(0.0, abs=1e-6)
        assert position(world, entity).x <= 40 - 10 * ([striker, *row][::-1].index(entity)) + 1e-6


def test_an_elastic_row_still_passes_the_blow_to_its_far_end():
    # Newton's cradle (elasticity 1): the striker stops and the last box
    # leaves at 150 px/s; rows are only pooled when they don't bounce.
    world = World(continuous=True)
    striker = box(world, 0, 0, velocity=(150, 0), elasticity=1.0)
    row = [box(world, 10 + 10 * i, 0, elasticity=1.0) for i in range(3)]
    world.step(DT)
    assert velocity(world, striker).x == pytest.approx(0.0, abs=1e-6)
    assert velocity(world, row[-1]).x == pytest.approx(150.0, abs=1e-6)
