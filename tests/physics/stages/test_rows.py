"""Rows of touching boxes struck at one instant: one perfectly inelastic collision."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from components import Collider, Physics, Transform
from ecs import World
from helpers import DT, box, kinetic_energy, momentum, position, velocity, wall
from systems.physics._kernels import rows as kernel_rows
from systems.physics._kernels import table as kernel_table



def pool_adjacent(masses, speeds, low=None, high=None):
    """The sweep kernel's pooling of adjacent violators (``rows._pool_adjacent``) over lists:
    the speeds (px/s along the row) after the perfectly inelastic collision of a row of
    touching bodies of ``masses``, between the speeds ``low`` and ``high`` of stops that hold
    still behind and ahead of it (an infinite mass each; None: no stop)."""
    body = kernel_table.aligned_table(len(masses), kernel_table.FLOAT_COLUMNS)
    body[:, kernel_table.INV_MASS] = [1.0 / mass for mass in masses]
    chain = ([low] if low is not None else []) + list(speeds) + ([high] if high is not None else [])
    first = int(low is not None)
    ints, floats = kernel_rows.row_buffers(len(chain))
    ints[:, kernel_rows.CHAIN] = -1  # (a stop's row is never read)
    ints[first:first + len(masses), kernel_rows.CHAIN] = range(len(masses))
    floats[:len(chain), kernel_rows.SPEED_BEFORE] = chain
    kernel_rows._pool_adjacent(body, (ints, floats), len(chain), first, len(masses))
    return floats[first:first + len(masses), kernel_rows.SPEED_AFTER].tolist()


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


def test_a_row_closing_on_a_wall_stops_and_one_leaving_it_pools_on_its_own():
    # A wall ahead (speed 0) takes the whole row pushed into it; a body
    # moving away from the wall pools only with those closing on it:
    # (0 + 0 − 50)/3 = −16.67 px/s each, the wall not involved.
    assert pool_adjacent([1.0] * 3, [150.0, 0.0, 0.0], high=0.0) == [0.0] * 3
    assert pool_adjacent([1.0] * 3, [0.0, 0.0, -50.0], high=0.0) == pytest.approx([-50 / 3] * 3)
    assert pool_adjacent([2.0, 1.0], [-30.0, 0.0], low=-10.0) == [-10.0, 0.0]


@given(st.lists(st.tuples(masses, speeds), min_size=1, max_size=12), speeds, st.booleans())
def test_pooling_against_a_stop_never_passes_it_nor_adds_energy(row, stop, ahead):
    # With a wall (an infinite mass moving at ``stop``) at one end, no body
    # ends closing on it, speeds never decrease along the row, and the
    # kinetic energy relative to the wall's frame never grows.
    weights = [m for m, _ in row]
    before = [v for _, v in row]
    after = pool_adjacent(weights, before, high=stop) if ahead else pool_adjacent(weights, before, low=stop)
    fastest = max([abs(v) for v in before] + [abs(stop)]) + 1.0
    assert (after[-1] <= stop + 1e-12 * fastest) if ahead else (after[0] >= stop - 1e-12 * fastest)
    assert all(after[i] - after[i + 1] <= 1e-12 * fastest for i in range(len(after) - 1))
    energy = sum(m * (v - stop) ** 2 for m, v in row)
    assert sum(m * (v - stop) ** 2 for m, v in zip(weights, after)) <= energy * (1 + 1e-12) + 1e-9 * fastest


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
    # trading ever smaller impacts. Every contact passed momentum on and is
    # reported; the striker's with the depth its closing would have reached
    # by the end of the step, 150 px/s · dt = 2.5 px (the others were at rest).
    world, striker, row = _row_struck(4)
    world.step(DT)
    for entity in [striker, *row]:
        assert tuple(velocity(world, entity)) == pytest.approx((30.0, 0.0), abs=1e-9)
    assert [(c.a, c.b) for c in world.contacts] == [(striker, row[0])] + list(zip(row, row[1:]))
    assert [c.depth for c in world.contacts] == pytest.approx([150 * DT, 0.0, 0.0, 0.0])
    assert all(tuple(c.normal) == (1.0, 0.0) for c in world.contacts)


def test_a_body_running_ahead_of_a_row_is_not_in_contact_with_it():
    # A (100 px/s) strikes B at rest, which touches C running ahead at
    # 200 px/s: A and B pool at 50 px/s each, C keeps 200 and passes nothing
    # on, so only A–B is a contact this step.
    world = World(continuous=True)
    a = box(world, 0, 0, velocity=(100, 0))
    b = box(world, 10, 0)
    c = box(world, 20, 0, velocity=(200, 0))
    world.step(DT)
    assert [velocity(world, e).x for e in (a, b, c)] == pytest.approx([50.0, 50.0, 200.0])
    assert [(contact.a, contact.b) for contact in world.contacts] == [(a, b)]


@st.composite
def rows_in_space(draw):
    """A World without gravity or walls and a row of 2–7 boxes along x or y,
    touching or a little apart, with random speeds, masses, friction and
    (sometimes) elasticity; returns the world and the entities."""
    world = World(continuous=True)
    vertical = draw(st.booleans())
    along, entities = 0.0, []
    for _ in range(draw(st.integers(2, 7))):
        size = draw(st.sampled_from([8.0, 10.0, 16.0]))
        speed = draw(st.sampled_from([0.0, 0.0, 150.0, -150.0]) | st.floats(-3000, 3000))
        across = draw(st.sampled_from([0.0, 0.0]) | st.floats(-200, 200))
        jitter = draw(st.sampled_from([0.0, 0.0]) | st.floats(-5, 5))
        physics = Physics(velocity=(across, speed) if vertical else (speed, across),
                          mass=draw(st.sampled_from([1.0]) | st.floats(0.05, 20)),
                          friction=draw(st.sampled_from([0.0]) | st.floats(0, 1)),
                          elasticity=draw(st.sampled_from([0.0, 0.0, 0.0, 0.5])))
        corner = (jitter, along) if vertical else (along, jitter)
        entities.append(world.create_entity(Transform(corner), Collider((size, size)), physics))
        along += size + draw(st.sampled_from([0.0, 0.0, 0.005, 0.3, 2.0]))
    return world, entities


@given(rows_in_space())
def test_rows_in_space_keep_momentum_and_never_gain_energy(scene):
    # Nothing outside the row: every step keeps the total momentum Σ m·v
    # (to rounding), and, when nothing bounces, never adds kinetic energy.
    world, entities = scene
    bodies = [world.component_for_entity(e, Physics) for e in entities]
    bouncy = any(body.elasticity > 0 for body in bodies)
    for _ in range(4):
        scale = sum(body.mass * body.velocity.length() for body in bodies) + 1.0
        before_p, before_k = momentum(world, entities), kinetic_energy(world, entities)
        world.step(DT)
        assert (momentum(world, entities) - before_p).length() <= 1e-6 * scale
        if not bouncy:
            assert kinetic_energy(world, entities) <= before_k * (1 + 1e-9) + 1e-6


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


def test_a_struck_row_against_a_wall_stops_at_once():
    # The row ends at a STATIC (an infinite mass): everything closing on it
    # stops, the striker included, flush, without the impacts running into
    # the 32 a step bound (which would warn).
    world, striker, row = _row_struck(3)
    wall(world, 40, -10, 10, 30)
    world.step(DT)
    for offset, entity in enumerate([striker, *row]):
        assert velocity(world, entity).x == pytest.approx(0.0, abs=1e-9)
        assert position(world, entity).x == pytest.approx(10.0 * offset, abs=1e-9)


def test_a_row_pushed_into_a_wall_comes_to_rest_against_it(caplog):
    # Sokoban: a pusher held at 160 px/s drives five crates (e = 0, μ = 0.5)
    # along a floor into a wall at x = 600. Once there, every crate rests
    # against the next, the last flush with the wall (x = 600 − 24), none
    # inside another, all at rest, and no body ever needs 32 impacts a step.
    world = World(gravity=(0, 980))
    wall(world, 0, 300, 800, 20)
    wall(world, 600, 200, 20, 100)
    pusher = world.create_entity(Transform((450, 270)), Collider((20, 30)), Physics(friction=0.5))
    crates = [world.create_entity(Transform((480 + 24 * i, 276)), Collider((24, 24)), Physics(friction=0.5))
              for i in range(5)]
    for _ in range(60):
        world.component_for_entity(pusher, Physics).velocity.x = 160
        world.step(DT)
    assert [position(world, c).x for c in crates] == pytest.approx([576.0 - 24 * i for i in range(4, -1, -1)],
                                                                    abs=0.5)
    assert all(velocity(world, c).x == pytest.approx(0.0, abs=1e-6) for c in crates)
    assert position(world, pusher).x == pytest.approx(576.0 - 4 * 24 - 20, abs=0.5)
    assert "32 impacts" not in caplog.text


def test_an_elastic_row_still_passes_the_blow_to_its_far_end():
    # Newton's cradle (elasticity 1): the striker stops and the last box
    # leaves at 150 px/s; rows are only pooled when they don't bounce.
    world = World(continuous=True)
    striker = box(world, 0, 0, velocity=(150, 0), elasticity=1.0)
    row = [box(world, 10 + 10 * i, 0, elasticity=1.0) for i in range(3)]
    world.step(DT)
    assert velocity(world, striker).x == pytest.approx(0.0, abs=1e-6)
    assert velocity(world, row[-1]).x == pytest.approx(150.0, abs=1e-6)


def test_a_body_held_only_by_a_frozen_one_is_no_wall_for_a_row():
    # Found by fuzzing: six boxes in a row in empty space, some very fast.
    # A body frozen at the bound of 32 impacts counts by its real mass (it
    # must not act as a support), and so must a body that rests against it:
    # a row meeting either is not stopped as if by a wall. With nothing
    # outside the row, total momentum Σ m·v is kept every step.
    world = World(continuous=True)
    specs = [((0.0, 0.0), 8.0, (-2838.379327256839, 0.0), 5.085056161888779, 0.8023739629792801, 0.5),
             ((8.0, 0.0), 16.0, (0.0, -139.63380788920796), 10.680497249587571, 0.2100100094902223, 0.0),
             ((24.0, -0.9032565294307577), 10.0, (599.6563348892541, 0.0), 1.0, 0.5717028830324783, 0.0),
             ((34.0, 0.0), 10.0, (0.0, 182.9568721311383), 1.0, 0.0, 0.0),
             ((44.005, 0.0), 10.0, (-144.89680426879374, 0.0), 1.0, 0.019215132796458145, 0.0),
             ((54.005, 0.0), 16.0, (-2549.821090033871, -191.73544460219944), 1.0, 0.40301274869508097, 0.0)]
    entities = [world.create_entity(Transform(corner), Collider((size, size)),
                                    Physics(velocity=v, mass=m, friction=mu, elasticity=e))
                for corner, size, v, m, mu, e in specs]
    for _ in range(4):
        before = momentum(world, entities)
        world.step(DT)
        assert (momentum(world, entities) - before).length() <= 1e-6 * 20_000
