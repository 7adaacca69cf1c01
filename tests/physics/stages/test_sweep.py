"""The swept pipeline: nothing tunnels, earliest impact first, response at the time of impact."""

import logging
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pygame import Vector2

from components import Collider, Physics, Shape, Transform
from ecs import World
from helpers import DT, box, position, run, velocity, wall


def ball(world, cx, cy, d, **physics):
    """A circle of diameter d centred on (cx, cy)."""
    return world.create_entity(Transform((cx - d / 2, cy - d / 2)),
                               Collider((d, d), shape=Shape.CIRCLE), Physics(**physics))


def centre(world, entity):
    size = world.component_for_entity(entity, Collider).size
    return position(world, entity) + size / 2


def test_circle_collider_must_be_square():
    with pytest.raises(ValueError, match="size"):
        Collider((4, 6), shape=Shape.CIRCLE)
    with pytest.raises(ValueError, match="shape"):
        Collider((4, 4), shape="circle")


@pytest.mark.parametrize("e, x, vx", [(0.0, 96.0, 0.0), (1.0, 96.0 - 104.0, -12000.0)])
def test_tiny_fast_box_stops_at_or_bounces_off_a_thin_wall(e, x, vx):
    # 200 px per step toward a 4 px wall 96 px away: impact at t = 0.48;
    # bouncing, it goes back 12000 · 0.52 / 60 = 104 px in the rest of the step.
    world = World()
    a = box(world, 0, 0, w=4, velocity=(12000, 0), elasticity=e)
    wall(world, 100, -10, 4, 30)
    world.step(DT)
    assert position(world, a).x == pytest.approx(x)
    assert velocity(world, a).x == pytest.approx(vx)
    run(world, 30)
    assert position(world, a).x + 4 <= 100 + 1e-9


def test_the_discrete_pipeline_tunnels_where_the_swept_one_does_not():
    world = World(continuous=False)
    a = box(world, 0, 0, w=4, velocity=(12000, 0))
    wall(world, 100, -10, 4, 30)
    world.step(DT)
    assert position(world, a).x == 200  # straight through: why continuous is the default


def test_head_on_at_6000_px_s_each_bounce_back_on_their_own_sides():
    # Closing at 200 px per step over a 92 px gap: impact at t = 0.46 with A
    # at 46 and B at 54; e = 1 swaps the velocities for the remaining 0.54.
    world = World()
    a = box(world, 0, 0, w=8, velocity=(6000, 0), elasticity=1.0)
    b = box(world, 100, 0, w=8, velocity=(-6000, 0), elasticity=1.0)
    world.step(DT)
    assert velocity(world, a).x == pytest.approx(-6000)
    assert velocity(world, b).x == pytest.approx(6000)
    assert position(world, a).x == pytest.approx(46 - 54)
    assert position(world, b).x == pytest.approx(54 + 54)
    [contact] = world.contacts
    assert (contact.a, contact.b, contact.normal) == (a, b, Vector2(1, 0))
    assert contact.depth == pytest.approx(200 * 0.54)  # closing speed × time left


def test_body_bouncing_several_times_in_one_step_is_subdivided():
    # A 4 px box in a 20 px corridor (free span 16 px) travels 100 px in one
    # step with e = 1. Unfolding the reflections: 105 px past the left end,
    # 105 = 6·16 + 9, six bounces (even), so it ends 9 px in, moving right.
    world = World()
    wall(world, 0, -10, 10, 30)
    wall(world, 30, -10, 10, 30)
    a = box(world, 15, 0, w=4, velocity=(6000, 0), elasticity=1.0)
    world.step(DT)
    assert position(world, a).x == pytest.approx(19)
    assert velocity(world, a).x == pytest.approx(6000)


def test_subdivision_bound_warns_once_and_nothing_escapes(caplog):
    world = World()
    wall(world, 0, -10, 10, 30)
    wall(world, 14.5, -10, 10, 30)
    a = box(world, 10.25, 0, w=4, velocity=(60000, 0), elasticity=1.0)  # 0.25 px gaps
    with caplog.at_level(logging.WARNING):
        run(world, 3)
    warnings = [r for r in caplog.records if "impacts in one step" in r.getMessage()]
    assert len(warnings) == 1
    assert 10 - 1e-9 <= position(world, a).x <= 10.5 + 1e-9


@pytest.mark.parametrize("direction", [1, -1])
def test_fast_landing_exactly_on_a_seam_keeps_horizontal_speed(direction):
    world = World(gravity=(0, 1000))
    wall(world, 0, 200, 50, 16)
    wall(world, 50, 200, 50, 16)
    a = box(world, 45 - 60 * direction, 0, velocity=(3000 * direction, 9000))  # 50, 150 px per step
    run(world, 3)
    assert velocity(world, a).x == 3000 * direction
    assert velocity(world, a).y == pytest.approx(0)
    assert position(world, a).y == 190


def test_oblique_circle_collision_exchanges_momentum_along_the_centre_line():
    # The quadratic of *Predictive Collision Detection*: impact at t = 0.55 with normal n = (0.8, 0.6).
    # Equal masses, e = 1: A keeps its tangential part, B takes the normal one:
    # vA' = v − (v·n)n = (864, −1152), vB' = (v·n)n = (1536, 1152) px/s.
    world = World()
    a = ball(world, 0, 0, 10, velocity=(2400, 0), elasticity=1.0)
    b = ball(world, 30, 6, 10, elasticity=1.0)
    world.step(DT)
    assert tuple(velocity(world, a)) == pytest.approx((864, -1152))
    assert tuple(velocity(world, b)) == pytest.approx((1536, 1152))
    rest = 0.45 * DT  # after the impact they fly apart for the rest of the step
    assert tuple(centre(world, a)) == pytest.approx((22 + 864 * rest, -1152 * rest))
    assert tuple(centre(world, b)) == pytest.approx((30 + 1536 * rest, 6 + 1152 * rest))
    assert world.contacts[0].normal.x == pytest.approx(0.8)


def test_circle_bounces_off_a_box_corner_along_its_voronoi_direction():
    # Centre on y = 17 meets the corner (20, 20) at t = 0.4, normal (0.8, 0.6):
    # v' = v − 2(v·n)n = (2400, 0) − 3840·(0.8, 0.6) = (−672, −2304) px/s.
    world = World()
    a = ball(world, 0, 17, 10, velocity=(2400, 0), elasticity=1.0)
    wall(world, 20, 20, 20, 20)
    world.step(DT)
    assert tuple(velocity(world, a)) == pytest.approx((-672, -2304))
    rest = 0.6 * DT
    assert tuple(centre(world, a)) == pytest.approx((16 - 672 * rest, 17 - 2304 * rest))


def test_circle_rests_on_the_floor_and_rolls_over_seams():
    world = World(gravity=(0, 1000))
    for i in range(40):
        wall(world, i * 16, 100, 16, 16)
    a = ball(world, 20, 95, 10, velocity=(240, 0))
    for _ in range(120):
        world.step(DT)
        assert velocity(world, a).x == pytest.approx(240)
        assert centre(world, a).y == pytest.approx(95)


def test_circle_stack_rests():
    world = World(gravity=(0, 980))
    wall(world, -50, 200, 200, 20)
    balls = [ball(world, 50, 200 - 10 - 21 * i, 20) for i in range(5)]
    run(world, 120)
    settled = [Vector2(position(world, b)) for b in balls]
    for _ in range(60):
        world.step(DT)
        for b, start in zip(balls, settled):
            assert velocity(world, b).length() < 1
            assert position(world, b) == start


def test_spawned_inside_each_other_are_still_pushed_out():
    world = World()
    a = ball(world, 0, 0, 10)
    b = ball(world, 6, 8, 10)  # 10 px between centres would touch: 5 apart, 5 deep
    world.step(DT)
    assert (centre(world, b) - centre(world, a)).length() == pytest.approx(10)


side = 100.0
fast_bodies = st.lists(
    st.tuples(
        st.floats(0, 80), st.floats(0, 80),
        st.floats(-5000, 5000), st.floats(-5000, 5000),
        st.floats(0.2, 5), st.floats(0, 1), st.booleans(),
        st.sampled_from([2.0, 4.0, 10.0]),
    ),
    min_size=1, max_size=6,
)


@given(specs=fast_bodies, gravity=st.sampled_from([(0, 0), (0, 980)]))
def test_fast_bodies_never_leave_a_closed_arena_or_sink_into_its_walls(specs, gravity):
    world = World(gravity=gravity)
    walls = [wall(world, -4, -4, side + 8, 4), wall(world, -4, side, side + 8, 4),
             wall(world, -4, 0, 4, side), wall(world, side, 0, 4, side)]  # 4 px thin walls
    entities = []
    for x, y, vx, vy, m, e, round_, d in specs:
        shape = Shape.CIRCLE if round_ else Shape.BOX
        entities.append(world.create_entity(
            Transform((x + 5, y + 5)), Collider((d, d), shape=shape),
            Physics(velocity=(vx, vy), mass=m, elasticity=e)))
    run(world, 60)
    assert [tuple(position(world, w)) for w in walls] == [(-4, -4), (-4, side), (-4, 0), (side, 0)]
    for entity in entities:
        p, v = position(world, entity), velocity(world, entity)
        d = world.component_for_entity(entity, Collider).size.x
        assert all(math.isfinite(c) for c in (p.x, p.y, v.x, v.y))
        assert -0.02 <= p.x and p.x + d <= side + 0.02
        assert -0.02 <= p.y and p.y + d <= side + 0.02


def test_same_time_impacts_take_the_larger_surface_first():
    # Sacred Software's crack: moving (20, 20) px per step from (80, 30), the box
    # meets the wall face x = 100 at t = 0.5, exactly when its bottom edge
    # reaches the seam y = 50 between two wall tiles. The lower tile's top
    # edge is hit at the same instant with zero surface; taking it first
    # (its id is lower) would stop the fall. The upper tile's face, 10 px of
    # surface, must win: x stops, y goes on.
    world = World()
    wall(world, 100, 50, 16, 50)  # lower tile, created first
    wall(world, 100, 0, 16, 50)
    a = box(world, 80, 30, velocity=(1200, 1200))
    world.step(DT)
    assert velocity(world, a) == Vector2(0, 1200)
    assert position(world, a) == Vector2(90, 50)


def test_a_body_knocked_into_a_fast_bodys_path_is_hit_in_the_same_step():
    # No gravity, 10 px boxes, elasticity 1, no friction, equal masses. A
    # (y = -30, 3000 px/s down: 50 px a step) hits B (at rest at the origin)
    # at t = 20/50 = 0.4 of the step and stops; B leaves at 50 px a step.
    # C crosses below at 6000 px/s leftward (100 px a step) from x = 85,
    # y = 30: its top meets B's bottom when 50(t - 0.4) + 10 = 30, t = 0.8,
    # where C (x = 5) is under B (x-overlap from t = 0.75). B and C were not
    # paired at the start of the step; only B's new path meets C's, so the
    # re-sweep after the first impact must find it: B stops again (0, 20),
    # C turns down with B's 3000 px/s and ends at x = 85 - 100 = -15,
    # y = 30 + 50·0.2 = 40.
    world = World(continuous=True)
    a = box(world, 0, -30, velocity=(0, 3000), elasticity=1.0, friction=0.0)
    b = box(world, 0, 0, elasticity=1.0, friction=0.0)
    c = box(world, 85, 30, velocity=(-6000, 0), elasticity=1.0, friction=0.0)
    world.step(DT)
    assert tuple(velocity(world, a)) == pytest.approx((0.0, 0.0), abs=1e-6)
    assert tuple(velocity(world, b)) == pytest.approx((0.0, 0.0), abs=1e-6)
    assert tuple(velocity(world, c)) == pytest.approx((-6000.0, 3000.0), abs=1e-6)
    assert tuple(position(world, b)) == pytest.approx((0.0, 20.0), abs=1e-6)
    assert tuple(position(world, c)) == pytest.approx((-15.0, 40.0), abs=1e-6)


def test_two_bodies_turned_toward_each_other_mid_step_still_meet():
    # X (moving left) and Y (moving right), 4 px apart, are each struck back
    # at t = 0 by a 300 px/s box (all e = 0, equal masses: each pair moves
    # on at (300 − 30)/2 = 135 px/s toward the other pair). Neither's new
    # path lies in the swept box it was filed under at the start of the
    # step, yet they must meet: at the end of the step no two boxes overlap
    # and X and Y touch (faces within 0.01 px), the four sharing zero momentum.
    world = World(continuous=True)
    p = box(world, -10, 0, velocity=(300, 0))
    x = box(world, 0, 0, velocity=(-30, 0))
    y = box(world, 14, 0, velocity=(30, 0))
    q = box(world, 24, 0, velocity=(-300, 0))
    world.step(DT)
    lefts = [position(world, e).x for e in (p, x, y, q)]
    assert all(b - a >= 10 - 0.01 for a, b in zip(lefts, lefts[1:]))  # nothing inside another
    assert lefts[2] - lefts[1] == pytest.approx(10.0, abs=0.01)
    assert sum(velocity(world, e).x for e in (p, x, y, q)) == pytest.approx(0.0, abs=1e-9)
