"""Collision response: who is pushed, momentum exchange, friction, resting.

Expected values come from the formulas in the foundation issue:
vA' = (e·mB·(vB − vA) + mA·vA + mB·vB) / (mA + mB), against a STATIC
vA' = vB − e·(vA − vB), Coulomb friction, and a stopping distance v²/(2μg).
"""

import numpy as np
import pytest
from pygame import Vector2

from ecs import World
from helpers import DT, box, position, run, velocity, wall
from systems.physics._solver.resolution import SWEPT_COLUMNS, Resolution


def formula(ma, mb, va, vb, e):
    """The foundation issue's momentum exchange along the normal."""
    va2 = (e * mb * (vb - va) + ma * va + mb * vb) / (ma + mb)
    vb2 = (e * ma * (va - vb) + ma * va + mb * vb) / (ma + mb)
    return va2, vb2


def head_on(ma, mb, va, vb, e, continuous=False):
    """A at x=0 and B at x=10.5 (10 px boxes), one step of 1/60 s."""
    world = World(continuous=continuous)
    a = box(world, 0, 0, velocity=(va, 0), mass=ma, elasticity=e)
    b = box(world, 10.5, 0, velocity=(vb, 0), mass=mb, elasticity=e)
    world.step(DT)
    return world, a, b


@pytest.mark.parametrize(
    "ma, mb, va, vb, e, expected",
    [
        (1, 1, 60, -60, 1.0, (-60, 60)),  # elastic, equal masses: velocities swap
        (1, 1, 60, -60, 0.0, (0, 0)),  # inelastic: common velocity = total momentum / mass
        (2, 1, 60, -60, 0.0, (20, 20)),  # (2·60 − 60) / 3
        (2, 1, 60, -60, 1.0, (-20, 100)),  # (1·(−120) + 60)/3, (2·120 + 60)/3
        (1, 3, 90, 30, 0.5, formula(1, 3, 90, 30, 0.5)),
    ],
)
def test_head_on_exchange_matches_formula(ma, mb, va, vb, e, expected, make_world):
    world, a, b = head_on(ma, mb, va, vb, e, make_world.continuous)
    assert velocity(world, a).x == pytest.approx(expected[0])
    assert velocity(world, b).x == pytest.approx(expected[1])
    assert velocity(world, a).y == velocity(world, b).y == 0
    total = ma * velocity(world, a).x + mb * velocity(world, b).x
    assert total == pytest.approx(ma * va + mb * vb)


def test_both_moved_share_the_push_by_inverse_mass():
    # The foundation's push-out (discrete pipeline). Both move 1 px: overlap
    # 1.5 px; B (3× heavier) takes 1/4 of the push.
    world, a, b = head_on(1, 3, 60, -60, 0.0)
    assert position(world, a).x == pytest.approx(1 - 1.5 * 0.75)
    assert position(world, b).x == pytest.approx(9.5 + 1.5 * 0.25)
    assert position(world, a).x + 10 == pytest.approx(position(world, b).x)


def test_body_at_rest_is_not_displaced_in_the_step_it_is_hit():
    # The foundation's push-out (discrete pipeline); the swept pipeline
    # instead moves B after the impact, see tests/physics/stages/test_sweep.py.
    world = World(continuous=False)
    a = box(world, 0, 0, velocity=(60, 0), elasticity=1.0)
    b = box(world, 10.5, 0)
    world.step(DT)
    assert position(world, b) == Vector2(10.5, 0)
    assert position(world, a) == Vector2(0.5, 0)  # pushed back flush
    assert velocity(world, a).x == pytest.approx(0)  # equal masses, e = 1: swap
    assert velocity(world, b).x == pytest.approx(60)


def test_spawned_overlapping_at_rest_are_separated_by_inverse_mass(make_world):
    world = make_world()
    a = box(world, 0, 0, mass=1)
    b = box(world, 6, 0, mass=3)  # overlap 4 px on x, 10 on y
    world.step(DT)
    assert position(world, a).x == pytest.approx(-3)  # 3/4 of 4 px
    assert position(world, b).x == pytest.approx(7)  # 1/4 of 4 px
    assert velocity(world, a) == velocity(world, b) == Vector2(0, 0)


def test_moving_apart_exchanges_no_momentum(make_world):
    world = make_world()
    a = box(world, 0, 0, velocity=(-30, 0))
    b = box(world, 6, 0, velocity=(30, 0))
    world.step(DT)
    assert velocity(world, a).x == -30 and velocity(world, b).x == 30
    assert position(world, a).x + 10 <= position(world, b).x + 1e-9


@pytest.mark.parametrize("wall_e, box_e, expected", [(0.8, 0.0, -96.0), (None, 0.5, -60.0)])
def test_bounce_off_a_static_wall(wall_e, box_e, expected, make_world):
    world = make_world()
    a = box(world, 0, 0, velocity=(120, 0), elasticity=box_e)
    surface = {} if wall_e is None else {"elasticity": wall_e}
    w = wall(world, 11, -20, 10, 50, **surface)
    world.step(DT)  # a moves 2 px: 1 px into the wall
    assert velocity(world, a).x == pytest.approx(expected)  # −e·v, e = max(eA, eB)
    if make_world.continuous:  # hit at half the step, then back at e·v for the other half
        assert position(world, a).x == pytest.approx(1 + expected * DT / 2)
    else:  # pushed back flush with the wall
        assert position(world, a).x == pytest.approx(1)
    assert position(world, w) == Vector2(11, -20)


def test_moving_static_gives_infinite_mass_bounce(make_world):
    # Platform moving left at 30 px/s, box right at 60, e = 1:
    # vA' = vB − e·(vA − vB) = −30 − (60 + 30) = −120.
    world = make_world()
    a = box(world, 0, 0, velocity=(60, 0), elasticity=1.0)
    wall(world, 10.8, -20, 10, 50, velocity=(-30, 0))
    world.step(DT)
    assert velocity(world, a).x == pytest.approx(-120)


def test_coulomb_stopping_distance(make_world):
    g, mu, v0 = 1000.0, 0.5, 300.0
    world = make_world(gravity=(0, g))
    wall(world, -50, 100, 1000, 20, friction=mu)
    a = box(world, 0, 90, velocity=(v0, 0), friction=mu)
    xs = []
    for _ in range(120):
        world.step(DT)
        xs.append(position(world, a).x)
        assert velocity(world, a).x >= 0  # friction never reverses sliding
    assert velocity(world, a).x == 0
    # v²/(2μg) = 90 px; the step-wise integration travels at most one more
    # step's distance (v0·dt = 5 px) before friction catches up.
    assert abs(xs[-1] - v0**2 / (2 * mu * g)) <= v0 * DT
    assert xs == sorted(xs)


def test_friction_change_is_mu_times_normal_change_per_step(make_world):
    # Resting on the floor, each step's normal velocity change is g·dt, so
    # friction takes exactly μ·g·dt off the sliding speed.
    g, mu = 600.0, 0.25
    world = make_world(gravity=(0, g))
    wall(world, -50, 100, 2000, 20, friction=1.0)
    a = box(world, 0, 90, velocity=(200, 0), friction=mu)
    run(world, 10)
    assert velocity(world, a).x == pytest.approx(200 - 10 * mu * g * DT)


def test_resting_box_stays_still_and_reports_its_contact(make_world):
    g = 980.0
    world = make_world(gravity=(0, g))
    floor = wall(world, -50, 100, 200, 20)
    a = box(world, 0, 90)
    for _ in range(300):
        world.step(DT)
        assert position(world, a) == Vector2(0, 90)
        assert velocity(world, a).length() < 1
        [contact] = world.contacts
        assert (contact.a, contact.b) == (floor, a)
        assert contact.normal == Vector2(0, -1)  # from the floor up to the box
        assert contact.depth == pytest.approx(g * DT * DT)  # sank g·dt² in one step


@pytest.mark.parametrize("masses, e", [([1] * 10, 0.0), (list(range(1, 11)), 0.0),
                                        (list(range(10, 0, -1)), 0.0), ([1] * 10, 0.6)])
def test_ten_box_stack_settles_and_stays_still(masses, e, make_world):
    # With e > 0 the boxes bounce as they land, then rest: contacts closing
    # slower than 2·g·dt are resting contacts and don't bounce.
    world = make_world(gravity=(0, 980))
    wall(world, -100, 400, 300, 40)
    boxes = [box(world, 0, 400 - 22 * (i + 1), w=20, mass=m, elasticity=e) for i, m in enumerate(masses)]
    run(world, 120)  # two seconds to settle
    settled = [Vector2(position(world, b)) for b in boxes]
    for _ in range(300):
        world.step(DT)
        for b, start in zip(boxes, settled):
            assert velocity(world, b).length() < 1
            assert position(world, b) == start  # no sinking, jitter or drift
    assert all(p.x == 0 for p in settled)
    tops = [400.0] + [p.y for p in settled]
    for below, above in zip(tops, tops[1:]):
        assert above + 20 == pytest.approx(below, abs=1e-6)  # flush, not sunk


@pytest.mark.parametrize("speed", [5.0, 9.0, 30.0])
@pytest.mark.parametrize("g", [0.0, 300.0, 980.0])
def test_a_body_gravity_does_not_pull_bounces_however_slowly_it_meets_a_wall(speed, g, make_world):
    # The rest speed (2·|g|·dt: 10 px/s at g = 300) absorbs what gravity gives a body each
    # step; a ball with gravity scale 0 gets none, so meeting a ceiling at 5 px/s it bounces
    # (e = 1) as in a world without gravity: it reaches the ceiling's face (y = 20) 2/speed s
    # after starting 2 px below it, and comes back down at the same speed for the rest of 0.5 s
    # (swept: exactly; the discrete pipeline, pushing it out, loses up to one step's motion).
    world = make_world(gravity=(0, g))
    wall(world, -100, -20, 2000, 40)
    ball = box(world, 100, 22, 12, velocity=(360.0, -speed), elasticity=1.0, gravity_scale=0)
    run(world, 30)
    assert velocity(world, ball) == Vector2(360.0, speed)
    within = 1e-9 if make_world.continuous else speed * DT + 1e-9
    assert position(world, ball).y == pytest.approx(20 + speed * (0.5 - 2 / speed), abs=within)


def test_a_body_gravity_pulls_still_rests_on_what_it_meets_slowly(make_world):
    # The same slow meeting for a ball gravity pulls (scale 1, or only half): a resting contact,
    # no bounce, whatever its elasticity; it lies on the floor (its top at y = 100 - 12).
    for scale in (1.0, 0.5):
        world = make_world(gravity=(0, 300))
        floor = wall(world, -100, 100, 2000, 40)
        ball = box(world, 100, 88 - 0.01, 12, velocity=(0.0, 2.0), elasticity=1.0, gravity_scale=scale)
        run(world, 30)
        assert velocity(world, ball).y == 0.0 and position(world, ball).y == 88.0
        assert [(c.a, c.b) for c in world.contacts] == [(floor, ball)]


@pytest.mark.parametrize("direction", [1, -1])
def test_sliding_across_tile_seams_keeps_speed(direction, make_world):
    world = make_world(gravity=(0, 1000))
    for i in range(60):
        wall(world, i * 16, 100, 16, 16)
    a = box(world, 475, 90, velocity=(300 * direction, 0))
    for _ in range(80):  # 400 px: across 25 seams
        world.step(DT)
        assert velocity(world, a).x == 300 * direction
        assert position(world, a).y == 90
        assert all(c.normal == Vector2(0, -1) for c in world.contacts)


@pytest.mark.parametrize("direction", [1, -1])
def test_sliding_along_a_wall_of_tiles_does_not_snag(direction, make_world):
    # Gravity presses the box sideways into a wall built of 16 px tiles.
    world = make_world(gravity=(1000, 0))
    for i in range(60):
        wall(world, 100, i * 16, 16, 16)
    a = box(world, 90, 475, velocity=(0, 240 * direction))
    for _ in range(80):
        world.step(DT)
        assert velocity(world, a).y == 240 * direction
        assert position(world, a).x == 90


@pytest.mark.parametrize("direction", [1, -1])
def test_landing_on_a_seam_keeps_horizontal_speed(direction, make_world):
    world = make_world(gravity=(0, 1000))
    wall(world, 0, 100, 50, 16)
    wall(world, 50, 100, 50, 16)
    a = box(world, 45 - 5 * direction, 60, velocity=(120 * direction, 300))  # lands across x = 50
    run(world, 20)
    assert velocity(world, a).x == 120 * direction
    assert velocity(world, a).y == pytest.approx(0)
    assert position(world, a).y == 90


def test_statics_ignore_gravity_but_move_by_their_velocity(make_world):
    world = make_world(gravity=(0, 500))
    platform = wall(world, 0, 0, 50, 10, velocity=(60, 0))
    run(world, 30)
    assert position(world, platform) == Vector2(30, 0)
    assert velocity(world, platform) == Vector2(60, 0)


def test_gravity_scale_and_max_speed(make_world):
    world = make_world(gravity=(0, 600))
    light = box(world, 0, 0, gravity_scale=0.5)
    capped = box(world, 100, 0, velocity=(1000, 0), max_speed=250)
    world.step(0.5)
    assert velocity(world, light).y == pytest.approx(150)  # 600·0.5·0.5
    assert velocity(world, capped).length() == pytest.approx(250)
    assert position(world, capped).x > 100  # semi-implicit Euler: moved with the new velocity


def test_landing_on_a_ledge_edge_lands_instead_of_sliding_off(make_world):
    # 3 px of the box is over the ledge and it falls 5 px into it in one
    # step: least overlap alone would push it sideways (3 < 5); it came
    # from above, so it must land on top.
    world = make_world()
    wall(world, 0, 100, 50, 20)
    a = box(world, -7, 89, velocity=(0, 360))  # 1 px gap, moves 6 px
    world.step(DT)
    assert position(world, a) == Vector2(-7, 90)
    assert velocity(world, a) == Vector2(0, 0)


@pytest.mark.parametrize("mu, v0", [(0.4, 300.0), (0.25, 150.0)])
def test_a_floor_without_physics_brings_no_material(make_world, mu, v0):
    # The README's floor is a STATIC with no Physics. It brings no friction of
    # its own, so the crate's μ rules the pair: it stops after v²/(2μg)
    # (300²/(2·0.4·980) = 114.8 px; 150²/(2·0.25·980) = 45.9 px), give or
    # take one step's travel v0·dt, as in test_coulomb_stopping_distance.
    g = 980.0
    world = make_world(gravity=(0, g))
    wall(world, -50, 100, 2000, 20)
    crate = box(world, 0, 90, velocity=(v0, 0), friction=mu)
    run(world, 120)  # v0/(μg) = 0.77 s and 0.61 s: stopped well before 2 s
    assert velocity(world, crate).x == 0
    assert abs(position(world, crate).x - v0**2 / (2 * mu * g)) <= v0 * DT


def test_a_wall_without_physics_lets_the_ball_bounce_by_its_own_elasticity(make_world):
    # No Physics on the wall: the pair's elasticity is the ball's 0.75, so
    # vA' = −e·v = −0.75·(−200) = 150 px/s.
    world = make_world()
    wall(world, -30, -50, 20, 100)
    ball = box(world, 0, 0, velocity=(-200, 0), elasticity=0.75)
    run(world, 4)  # 3.3 px per step: hits the wall face at x = −10 in step 3
    assert velocity(world, ball).x == pytest.approx(150)


def test_when_both_have_physics_the_pair_takes_min_friction_and_max_elasticity(make_world):
    # Floor μ = 0.1 under a crate with μ = 0.9: the pair slides with μ = 0.1,
    # losing μ·g·dt = 0.1·600/60 = 1 px/s per step.
    world = make_world(gravity=(0, 600))
    wall(world, -50, 100, 2000, 20, friction=0.1, elasticity=0.2)
    crate = box(world, 0, 90, velocity=(100, 0), friction=0.9)
    run(world, 10)
    assert velocity(world, crate).x == pytest.approx(90)


def test_contacts_kept_as_arrays_read_as_contacts_in_time_order():
    # The compiled core hands a step's contacts over as arrays (record_swept), one per pair in
    # the order recorded; they read as Contacts, made once, ordered by time, then entity ids.
    state = Resolution()
    pairs = np.array([[3, 7], [1, 2], [2, 9]])
    # normal x, y; depth; time; surface; point x, y; trigger (SWEPT_COLUMNS)
    values = np.array([[1.0, 0.0, 0.75, 0.5, 8.0, 10.0, 4.0, 0.0],
                       [0.0, -1.0, 0.0, 0.75, 6.0, 2.0, 3.0, 1.0],
                       [-1.0, 0.0, 1.5, 0.5, 0.0, 5.0, 5.0, 0.0]])
    assert len(SWEPT_COLUMNS) == values.shape[1]
    state.record_swept(pairs, values)
    contacts = state.contacts()
    assert [(c.a, c.b) for c in contacts] == [(2, 9), (3, 7), (1, 2)]  # t = 0.5, 0.5, 0.75; then ids
    first = contacts[1]
    assert (first.normal, first.depth, first.time, first.surface, first.point) == (
        Vector2(1, 0), 0.75, 0.5, 8.0, Vector2(10, 4))
    assert list(state.resolved) == [(3, 7), (1, 2), (2, 9)]  # in the order recorded
    assert state.contacts()[1] is first  # made once
    assert [c.trigger for c in contacts] == [False, False, True]  # (1, 2) touched a TRIGGER


def test_a_step_s_contacts_are_one_list_until_the_next_step(make_world):
    # Contacts are made when first read; reading them again gives the same
    # list, and the next step makes a new one.
    world = make_world()
    wall(world, -30, -50, 20, 100)
    ball = box(world, 0, 0, velocity=(-600, 0))
    run(world, 2)  # 10 px a step: reaches the wall's face (x = -10) as step 1 ends, stopped on it in step 2
    contacts = world.contacts
    assert [(c.a, c.b) for c in contacts] == [(1, ball)] and world.contacts is contacts
    run(world, 1)  # at rest against the wall (no bounce): no contact
    assert world.contacts == [] and contacts[0].b == ball


