"""Crushing, held bodies and push-out against STATICs, both pipelines.

A body squeezed between things that won't yield stays between them: centred
in the room there would be (both STATIC), reported by ``on_crush`` every step
it is squeezed, never pushed out through either. Expected positions come
from the faces' positions: a STATIC with velocity u moves u·dt a step, and a
crushed body's centre is midway between the faces squeezing it. A body held
on one axis (resting on the floor, or sliding on a ramp) never makes energy:
after Movement adds gravity (v -> v + g·dt, which adds m·(v·g·dt + ½|g|²dt²)
of kinetic energy), each contact with e <= 1 only takes energy away.
"""

from __future__ import annotations

import math

import esper
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from pygame import Vector2

from components import Collider, ColliderType, Physics, Shape, Transform
from ecs import World
from helpers import DT, position, velocity, wall
from test_properties import arena, populate
from systems.physics._shapes.narrowphase import CORNERS
from systems.physics._shapes.triangle import circle_triangle_penetration
from systems.physics._kernels.table import RESOLVE_SLOP

G = 980.0  # px/s²
STATIC = ColliderType.STATIC


def mover(world: World, x: float, y: float, w: float, h: float | None = None, round_: bool = False,
          **physics) -> int:
    return world.create_entity(Transform((x, y)), Collider((w, w if h is None else h),
                                                           shape=Shape.CIRCLE if round_ else Shape.BOX),
                               Physics(**physics))


def listen(world: World) -> list[int]:
    crushed: list[int] = []
    world.on_crush(crushed.append)
    return crushed


# -- the crusher: a block coming down on a player on a long floor ------

def press_scene(make_world, round_):
    """A 1,000 px floor (top y = 200), a 40 × 100 STATIC block at x 0..40
    coming down at 120 px/s, and a 10 × 20 player at x 15 (or a 20 px disc
    at x 10) standing on the floor under it: (world, block, player, player's
    x, the crushed list on_crush fills)."""
    world = make_world(gravity=(0, G))
    world.create_entity(Transform((-500, 200)), Collider((1000, 40), type=STATIC))
    block = world.create_entity(Transform((0, 0)), Collider((40, 100), type=STATIC), Physics(velocity=(0, 120)))
    x, w = (10.0, 20.0) if round_ else (15.0, 10.0)
    return world, block, mover(world, x, 180, w, 20, round_), x, listen(world)


@pytest.mark.parametrize("round_", [False, True], ids=["box", "circle"])
def test_a_player_under_a_falling_block_stays_under_it_and_is_crushed_each_step(make_world, round_):
    # Floor top y = 200, 1,000 px long; block 40 × 100 at x 0..40 coming down
    # at 120 px/s (2 px a step): its bottom is at 100 + 2n after n steps and
    # reaches the floor at n = 50. The player (10 × 20, or a 20 px disc at x
    # 10..30) stands at x 15 on the floor. The gap 200 − (100 + 2n) is
    # smaller than its 20 px from n = 41 on: from then on it is crushed every
    # step, its centre midway between the block's bottom and the floor's top,
    # y = (100 + 2n + 200) / 2, and it is never pushed sideways (x stays).
    world, block, player, x, crushed = press_scene(make_world, round_)
    for n in range(1, 51):
        crushed.clear()
        world.step(DT)
        bottom = 100 + 2 * n
        assert position(world, block).y + 100 == pytest.approx(bottom)
        assert position(world, player).x == pytest.approx(x), n
        centre = position(world, player).y + 10
        if n >= 41:
            assert crushed == [player], n
            assert centre == pytest.approx((bottom + 200) / 2, abs=1e-9), n
        else:
            assert crushed == [], n
            assert centre == pytest.approx(190, abs=0.5), n  # standing on the floor


@pytest.mark.parametrize("speed", [120.0, 600.0])
@pytest.mark.parametrize("round_", [False, True], ids=["box", "circle"])
def test_a_player_freed_by_a_press_going_back_up_is_not_flung_off_the_floor(make_world, round_, speed):
    # The block above comes down 2 px a step for 45 steps: its bottom at
    # 190 leaves 10 px, and the 20 px player is crushed. Then it goes back
    # up at ``speed``. The floor stays still, so nothing gives the player
    # upward speed: it is at most the floor's 0 while crushed, and once free
    # it stands on the floor, its top at y = 180 (never higher: a body
    # squeezed between a still face and one drawing back is not pushed off
    # the still one).
    world, block, player, x, crushed = press_scene(make_world, round_)
    for _ in range(45):
        world.step(DT)
    assert crushed, "the press closed to 10 px over a 20 px player"
    world.component_for_entity(block, Physics).velocity.y = -speed
    for _ in range(60):
        world.step(DT)
        assert velocity(world, player).y >= 0.0
        assert position(world, player).y >= 180 - 1e-6


@pytest.mark.parametrize("round_", [False, True], ids=["box", "circle"])
def test_a_rider_on_a_lift_rising_into_a_ceiling_stays_between_them(make_world, round_):
    # Ceiling bottom y = 10; a 60 × 10 lift at x 0..60 rises at 120 px/s from
    # y = 100 (top 100 − 2n after n steps) carrying a 20 px rider. The room,
    # (100 − 2n) − 10, is under 20 px from n = 36: the rider is crushed every
    # step, centred at y = (10 + 100 − 2n) / 2, and stays so when the lift goes
    # on into the ceiling (n = 45 on): midway between the crossed faces, never
    # above the ceiling nor below the lift.
    world = make_world(gravity=(0, G))
    world.create_entity(Transform((-100, 0)), Collider((300, 10), type=STATIC))
    lift = world.create_entity(Transform((0, 100)), Collider((60, 10), type=STATIC), Physics(velocity=(0, -120)))
    rider = mover(world, 20, 80, 20, round_=round_)
    crushed = listen(world)
    for n in range(1, 56):
        crushed.clear()
        world.step(DT)
        top = 100 - 2 * n
        assert position(world, lift).y == pytest.approx(top)
        assert position(world, rider).x == pytest.approx(20), n
        if n >= 36:
            assert crushed == [rider], n
            assert position(world, rider).y + 10 == pytest.approx((10 + top) / 2, abs=1e-9), n


@pytest.mark.parametrize("round_", [False, True], ids=["box", "circle"])
def test_two_riders_stacked_on_a_lift_rising_into_a_ceiling_are_crushed_once_the_room_is_under_both(make_world,
                                                                                                      round_):
    # The lift above, with two 20 px riders stacked on it: the room, (100 − 2n) − 10, is under
    # their 40 px from n = 26. The upper one is pressed by the lower one, which the lift
    # drives: both are in the vice, the lift's through the lower one's pin. While either would
    # fit alone (room ≥ 20 px, up to n = 35), neither is put into a STATIC to make room for a
    # body that can move: the lower one stays flush with the lift, the upper one with the
    # ceiling, and the two overlap each other.
    world = make_world(gravity=(0, G))
    world.create_entity(Transform((-100, 0)), Collider((300, 10), type=STATIC))
    world.create_entity(Transform((0, 100)), Collider((60, 10), type=STATIC), Physics(velocity=(0, -120)))
    lower, upper = mover(world, 20, 80, 20, round_=round_), mover(world, 20, 60, 20, round_=round_)
    crushed = listen(world)
    for n in range(1, 36):
        crushed.clear()
        world.step(DT)
        assert sorted(crushed) == ([lower, upper] if n >= 26 else []), n
        if n >= 26:
            assert position(world, lower).y + 20 == pytest.approx(100 - 2 * n), n
            assert position(world, upper).y == pytest.approx(10), n


@pytest.mark.parametrize("continuous", [False, True], ids=["discrete", "swept"])
def test_a_row_of_boxes_a_static_pusher_drives_into_a_wall_is_crushed_once_the_room_is_under_the_row(continuous):
    # No gravity. A wall's face at x = 0; three 10 px boxes touching end to end at x 20..50; a
    # 10 × 40 STATIC pusher from x = 60 coming left at 120 px/s (2 px a step): its face at
    # 60 − 2n meets the row at n = 5, and the row (e = 0) moves on at the pusher's speed, its
    # front face at 30 − 2n, which meets the wall at n = 15. Until then nothing squeezes it; from
    # n = 16 the room, 60 − 2n, is under the row's 30 px: the pusher drives the boxes through
    # one another's pins into the wall, and each is crushed.
    world = World(continuous=continuous)
    wall(world, -20, -100, 20, 200)
    world.create_entity(Transform((60, -15)), Collider((10, 40), type=STATIC), Physics(velocity=(-120, 0)))
    row = [mover(world, 20 + 10 * k, 0, 10) for k in range(3)]
    crushed = listen(world)
    for n in range(1, 21):
        crushed.clear()
        world.step(DT)
        assert sorted(crushed) == (row if n >= 16 else []), n
        assert all(position(world, e).x >= -1e-9 for e in row), n  # (never pushed into the wall's far side)


def steered_crowd(world: World, bodies: list[int], target: Vector2, speed: float) -> None:
    """A game's own system, run before the physics each step: every body's velocity eased
    toward ``speed`` px/s at ``target`` (a crowd chasing a point)."""

    class Steer(esper.Processor):
        def process(self, dt: float) -> None:
            for e in bodies:
                physics = world.component_for_entity(e, Physics)
                collider = world.component_for_entity(e, Collider)
                away = target - (position(world, e) + Vector2(collider.size) / 2)
                if away.length_squared() > 1:
                    physics.velocity.update(physics.velocity.lerp(away.normalize() * speed, 0.15))

    world.add_system(Steer(), priority=400)


def deepest_overlap(world: World, bodies: list[int], size: float, round_: bool) -> float:
    """How far (px) the deepest two of ``bodies`` (all ``size`` px, discs or boxes) are inside
    each other; 0 if none is."""
    deepest = 0.0
    corners = [position(world, e) for e in bodies]
    for i, p in enumerate(corners):
        for q in corners[i + 1:]:
            depth = size - p.distance_to(q) if round_ else min(size - abs(p.x - q.x), size - abs(p.y - q.y))
            deepest = max(deepest, depth)
    return deepest


@settings(max_examples=8)  # each runs a crowd of up to 30 bodies for 150 steps
@given(round_=st.booleans(), count=st.integers(8, 30), speed=st.floats(40.0, 300.0), continuous=st.booleans())
@example(round_=True, count=30, speed=100.0, continuous=True)
def test_a_crowd_steered_into_a_corner_of_still_walls_is_never_crushed(round_, count, speed, continuous):
    # Two still walls meet in a corner at (0, 0); a crowd of 20 px bodies on a 26 px grid is
    # steered toward (10, 10) every step. Only a STATIC, with no finite mass, can squeeze: the
    # bodies pressing on one another have finite masses and give way, and the corner leaves
    # the crowd all the room it needs along both walls. Nothing is ever crushed, and no body is
    # pushed through a wall (its centre stays on the room's side of both faces). Swept, each
    # body stops where it meets another, so none is ever inside another beyond push-out's slop
    # (twice over: a push may leave a neighbour that much deeper for the next round).
    world = World(continuous=continuous)
    wall(world, -50, -50, 50, 400)
    wall(world, -50, -50, 400, 50)
    bodies = [mover(world, 40 + (k % 6) * 26, 40 + (k // 6) * 26, 20, round_=round_) for k in range(count)]
    steered_crowd(world, bodies, Vector2(10, 10), speed)
    crushed = listen(world)
    for n in range(150):
        world.step(DT)
        if continuous:
            assert deepest_overlap(world, bodies, 20, round_) <= 2 * RESOLVE_SLOP, n
    assert crushed == []
    assert all(min(position(world, e)) > -10 for e in bodies)


@pytest.mark.parametrize("friction", [0.0, 0.5])
def test_a_ball_a_paddle_pins_to_a_wall_slides_out_along_frictionless_faces_and_stops_on_rough_ones(friction):
    # No gravity. A wall's face at x = 20; a 90 × 12 STATIC paddle (top y = 440) slides left at
    # 420 px/s, 7 px a step, until its face meets the wall's (x = 20, n = 3), and a 12 px ball
    # falling at 360 px/s beside it (top y = 436, 22 ≤ x ≤ 34) is pinned between them: crushed.
    # Along the faces nothing frictionless acts, so it keeps falling at 360 px/s and leaves the
    # squeeze under the paddle; where its friction is μ > 0, a squeeze no finite force matches
    # stops the sliding (Coulomb's limit μ·N, N unbounded), so it stays pinned, at rest.
    world = World(continuous=True)
    wall(world, 0, 0, 20, 480)
    paddle = world.create_entity(Transform((40, 440)), Collider((90, 12), type=STATIC), Physics(velocity=(-420, 0)))
    ball = mover(world, 22, 436, 12, round_=True, velocity=(0, 360), elasticity=1.0, friction=friction)
    crushed = listen(world)
    for _ in range(40):
        paddle_x = position(world, paddle).x
        velocity(world, paddle).x = max((20 - paddle_x) / DT, -420)  # (the game's clamp: it stops at the wall)
        world.step(DT)
    assert crushed and position(world, paddle).x == 20
    if friction:
        assert velocity(world, ball) == Vector2(0, 0) and position(world, ball).y < 452
        assert crushed[-1] == ball and len(crushed) > 30  # (pinned every step since)
    else:
        assert velocity(world, ball).y == 360 and position(world, ball).y > 452  # below the paddle's bottom
        assert position(world, ball).x == 20  # (pushed out of the wall once free)
        assert len(crushed) < 10


@pytest.mark.parametrize("round_", [False, True], ids=["box", "circle"])
def test_a_body_on_a_ramp_under_a_falling_block_is_crushed_between_the_slope_and_the_block(make_world, round_):
    # A "/" ramp 200 × 100 at (0, 100): its slope is y = 200 − x/2. A 10 px
    # body rests on it at x 95..105 with friction 1 (μ >= tan θ = 0.5: it
    # stays put). A block 40 px wide over x 80..120 comes down at 120 px/s
    # from bottom y = 100 (100 + 2n after n steps). A box clears the slope
    # when its bottom is at 200 − 105/2 = 147.5 (its lower right corner on
    # the slope), a disc of radius 5 centred at x = 100 when its centre is
    # 5·√5/2 above the slope there (150 − 5/cos θ = 150 − 5·√1.25): the room
    # above it closes below 10 px, and from then on the body is crushed,
    # centred midway between the block's bottom and where it would clear the
    # slope, never pushed through either.
    world = make_world(gravity=(0, G))
    world.create_entity(Transform((0, 100)), Collider((200, 100), type=STATIC, shape=Shape.TRIANGLE_BOTTOM_RIGHT))
    block = world.create_entity(Transform((80, 0)), Collider((40, 100), type=STATIC), Physics(velocity=(0, 120)))
    rest = 150 - 5 * math.sqrt(1.25) if round_ else 147.5 - 5  # the centre's y resting on the slope
    body = mover(world, 95, rest - 5, 10, round_=round_, friction=1.0)
    crushed = listen(world)
    for n in range(1, 27):
        crushed.clear()
        world.step(DT)
        bottom = 100 + 2 * n
        centre = position(world, body) + Vector2(5, 5)
        assert centre.x == pytest.approx(100, abs=1e-6), n
        if rest - bottom < 5:  # less than half the body's height between the block and the slope
            assert crushed == [body], n
            assert centre.y == pytest.approx((bottom + rest + 5) / 2, abs=1e-6), n
        else:
            assert crushed == [], n
            assert centre.y == pytest.approx(rest, abs=0.3), n


def test_a_box_inside_a_long_floor_leaves_by_its_nearest_face_not_along_the_floor(make_world):
    # A 10 × 20 box spawned 10 px deep in the top of a 1,000 px floor (floor
    # top y = 200, box y 190..210 at x 15..25). Across the floor it overlaps
    # the floor by its own width, 10 px, but to leave that way it would go
    # 485 px to the floor's right end, through it; up it leaves by 10 px.
    world = make_world()
    world.create_entity(Transform((-500, 200)), Collider((1000, 40), type=STATIC))
    box = mover(world, 15, 190, 10, 20, gravity_scale=0)
    world.step(DT)
    assert position(world, box) == Vector2(15, 180)


# -- held on one axis: no energy from nothing ------------------------------------

def gravity_allowance(world: World, entities: list[int]) -> float:
    """The kinetic energy Movement's gravity adds in a step, before contacts:
    Σ m·(v·g·dt + ½|g|²·dt²), v at the start of the step."""
    g = world.gravity
    return sum(world.component_for_entity(e, Physics).mass * (velocity(world, e).dot(g) * DT + 0.5 * g.length_squared() * DT * DT)
               for e in entities)


def kinetic(world: World, entities: list[int]) -> float:
    return sum(0.5 * world.component_for_entity(e, Physics).mass * velocity(world, e).length_squared() for e in entities)


RAMP_BODY = st.tuples(st.booleans(), st.floats(4, 20), st.floats(4, 20), st.floats(0, 180), st.floats(0, 100),
                     st.floats(-600, 600), st.floats(-600, 600), st.floats(0.2, 5), st.floats(0, 1), st.floats(0, 1))


def ramp_arena(world: World, shape: Shape, corner: float, ramp_top: float, bodies) -> list[int]:
    """The 200 px arena with a ramp ``corner`` px wide rising from its floor
    to ``ramp_top``, and the bodies (round?, w, h, x, y, vx, vy, m, e, f)."""
    for box in ((-60, -60, 320, 60), (-60, 200, 320, 60), (-60, 0, 60, 200), (200, 0, 60, 200)):
        wall(world, *box)
    x = SIDE - corner if shape is Shape.TRIANGLE_BOTTOM_RIGHT else 0.0
    world.create_entity(Transform((x, ramp_top)), Collider((corner, 200), type=STATIC, shape=shape))
    return [mover(world, x, y, w, w if round_ else h, round_, velocity=(vx, vy), mass=m, elasticity=e, friction=f)
            for round_, w, h, x, y, vx, vy, m, e, f in bodies]


# Found by random search: a box sliding down a steep ramp (its normal mostly
# along x) was counted as held along x and sent a ball back as a wall moving
# at its own speed would (+130 % kinetic energy in one step); a ball landing
# at a slant on a ball resting on the floor (held along y only) was pushed by
# friction the way it slid after the impulse (+10 %).
_STEEP = (Shape.TRIANGLE_BOTTOM_RIGHT, 140.501, 122.938,
          [(True, 19.344, 19.344, 68.47, 44.65, 92.9, -141.5, 4.577, 0.879, 0.724),
           (True, 19.836, 19.836, 98.802, 59.769, 50.5, 18.9, 4.667, 0.273, 0.142),
           (False, 8.178, 8.449, 78.797, 89.762, -148.8, -584.8, 1.476, 0.229, 0.021),
           (False, 15.738, 6.183, 43.695, 98.064, 240.5, -63.8, 2.98, 0.983, 0.239)])
_LANDING = (Shape.TRIANGLE_BOTTOM_LEFT, 81.228, 126.69,
            [(True, 15.49, 15.49, 127.44, 32.445, -19.1, 96.0, 1.032, 0.021, 0.064),
             (False, 17.553, 14.186, 130.108, 11.998, -189.3, 36.7, 0.354, 0.389, 0.398),
             (True, 15.377, 15.377, 45.024, 23.562, 51.2, -66.8, 4.91, 0.945, 0.182),
             (True, 13.512, 13.512, 138.472, 47.795, 548.0, -547.1, 3.541, 0.79, 0.888)])


@given(shape=st.sampled_from([Shape.TRIANGLE_BOTTOM_RIGHT, Shape.TRIANGLE_BOTTOM_LEFT]), corner=st.floats(40, 150),
       ramp_top=st.floats(50, 180), bodies=st.lists(RAMP_BODY, min_size=2, max_size=6))
@example(*_STEEP)
@example(*_LANDING)
def test_bodies_on_ramps_and_on_each_other_never_gain_energy_beyond_gravity(shape, corner, ramp_top, bodies):
    # Discrete pipeline (whose contacts all come after Movement's gravity):
    # each step's kinetic energy is at most what it was plus what gravity
    # adds before the contacts (``gravity_allowance``).
    world = World(gravity=(0, G), continuous=False)
    made = ramp_arena(world, shape, corner, ramp_top, bodies)
    for step in range(120):
        energy, allowed = kinetic(world, made), gravity_allowance(world, made)
        world.step(DT)
        gained = kinetic(world, made) - energy - allowed
        assert gained <= 1e-9 * max(energy, 1.0), (step, gained)


# Found by random search (fractions of the arena and of 900 px/s, as
# tests/physics/test_properties.py's ``populate`` takes them): a small ball resting
# on the floor, struck at a slant from above (the normal's larger part
# sideways, its smaller part down), was pushed into the floor and back by
# turns until the rounds ran out, and left up to 0.94 px inside it.
_STRUCK_ON_THE_FLOOR = [
    [(True, 8.48149780064756, 17.579938652145238, 0.9520298935871309, 0, -0.28605203390238176, -1, 5, 0.26180436560671205, 0),
     (True, 4, 12.735194678541538, 0.2257649082020956, 0, -0.6678821491392246, -0.5892140286310892, 0.2, 0.6411559784321805, 1),
     (True, 20, 20, 1, 0.5069198657562951, 1, -0.36225371147500596, 5, 0.5500529839812314, 0.29714649547319816),
     (True, 20, 20, 1, 0.4381319313629276, 1, -1, 0.2, 0.7980883574385498, 0.29883211037406676),
     (True, 4.275923869520922, 4, 0, 1, 0.689218066376539, -0.3390180799119229, 3.8027190476748105, 0.24789394450948687, 1),
     (True, 15.86593126417137, 20, 1, 0.6474681369501701, -0.22219060716751948, 1, 5, 1, 0)],
    [(True, 20, 13.896404476261914, 0, 1, -1, 0.027465874440849358, 4.282732066906517, 0.8476163593677014, 0.022288375098834967),
     (True, 4, 4, 0.027039491098249324, 0.6771564855524187, -0.2592476581340635, 1, 1.7425630286143705, 0.41472791239155093, 0.8070873211478149),
     (True, 20, 15.348355298134202, 0.2994136055994491, 0.6606677283689839, 1, -1, 5, 0.09221854769902793, 0.39361780440758476),
     (True, 9.530634208416176, 4, 0.22257034630472172, 0.3419434464706699, -1, -1, 0.2, 0.8380933638785728, 0.6406239166300473),
     (True, 4, 4.475007658448286, 0.9875883500378104, 0.11167424664496128, 0.9491068703116545, -0.5259341455595234, 0.2, 0.10588808475129663, 0.10647463836446458),
     (True, 11.109601294085698, 4, 0.4610032693128836, 1, -0.17360097112458228, -0.3357828143962691, 0.2, 1, 1),
     (True, 14.530535224050123, 20, 1, 0, -1, -0.39274977824905655, 2.2063465476288404, 0, 0.4968691538931671),
     (True, 4, 11.955024449892221, 0.7095716786903605, 0, -0.00037222251254842575, 0.6947625321299875, 5, 0.1368103718417243, 1)],
]

CIRCLE = st.tuples(st.just(True), st.floats(4, 20), st.just(4.0), st.floats(0, 1), st.floats(0, 1),
                   st.floats(-1, 1), st.floats(-1, 1), st.floats(0.2, 5), st.floats(0, 1), st.floats(0, 1))


@given(specs=st.lists(CIRCLE, min_size=2, max_size=8), gravity=st.sampled_from([(0, 0), (0, G), (700, -400)]))
@example(specs=_STRUCK_ON_THE_FLOOR[0], gravity=(0, G))
@example(specs=_STRUCK_ON_THE_FLOOR[1], gravity=(0, G))
def test_circles_in_a_closed_arena_stay_out_of_its_walls_in_the_discrete_pipeline(specs, gravity):
    # At most 900 px/s (15 px a step, a quarter of the 60 px walls): every
    # circle ends every step inside the arena, within the 0.5 px tolerance.
    world = World(gravity=gravity, continuous=False)
    arena(world)
    made = populate(world, specs, 900.0)
    for step in range(90):
        world.step(DT)
        for entity in made:
            p, d = position(world, entity), world.component_for_entity(entity, Collider).size.x
            assert -TOLERANCE <= p.x and p.x + d <= SIDE + TOLERANCE, (step, entity, p)
            assert -TOLERANCE <= p.y and p.y + d <= SIDE + TOLERANCE, (step, entity, p)


# -- random scenes: crushers, lifts, ramps, boxes and circles ----------------------

SIDE = 200.0  # px, inside of the arena
WALL = 60.0  # px, thicker than anything moves in a step here
TOLERANCE = 0.5  # px: touching, and what one step's gravity sinks a body (g·dt² = 0.27 px)

movers = st.lists(
    st.tuples(
        st.booleans(),  # round?
        st.floats(6, 24), st.floats(6, 24),  # width (or diameter), height (px)
        st.floats(0, 1), st.floats(0, 1),  # where (fractions of the room below the crusher)
        st.floats(-300, 300), st.floats(-300, 300),  # velocity (px/s)
        st.floats(0.2, 5), st.floats(0, 1), st.floats(0, 1),  # mass, elasticity, friction
    ),
    min_size=1, max_size=6,
)
ramps = st.lists(st.tuples(st.booleans(), st.floats(10, 40), st.floats(4, 30), st.floats(0, 1)), max_size=3)


def mirror(box: tuple[float, float, float, float], flip: bool) -> tuple[float, float, float, float]:
    """``box`` as it is, or upside down in the arena (y -> SIDE − y − h)."""
    x, y, w, h = box
    return (x, SIDE - y - h, w, h) if flip else box


_FLIPPED = {Shape.TRIANGLE_BOTTOM_LEFT: Shape.TRIANGLE_TOP_LEFT, Shape.TRIANGLE_BOTTOM_RIGHT: Shape.TRIANGLE_TOP_RIGHT}


def vice(world: World, bodies, slopes, speed: float, stop: float, flip: bool):
    """An arena with ramps on its floor and a full-width STATIC press coming
    down at ``speed`` px/s to stop ``stop`` px above the highest ramp (or,
    ``flip``ped, ramps on the ceiling and a lift rising into them). Returns
    the press, the STATICs (entity -> (box, shape)), the floor and ramps the
    press squeezes against, the movers and how far the press goes (px)."""
    statics = {}
    for box in ((-WALL, -WALL, SIDE + 2 * WALL, WALL), (-WALL, SIDE, SIDE + 2 * WALL, WALL),
                (-WALL, 0, WALL, SIDE), (SIDE, 0, WALL, SIDE)):
        statics[wall(world, *box)] = (box, Shape.BOX)
    floor = list(statics)[0 if flip else 1]
    highest = 0.0
    for left, w, h, fx in slopes:
        shape = Shape.TRIANGLE_BOTTOM_LEFT if left else Shape.TRIANGLE_BOTTOM_RIGHT
        box = mirror((fx * (SIDE - w), SIDE - h, w, h), flip)
        shape = _FLIPPED[shape] if flip else shape
        statics[world.create_entity(Transform(box[:2]), Collider(box[2:], type=STATIC, shape=shape))] = (box, shape)
        highest = max(highest, h)
    top = SIDE - highest - stop  # where the press's face stops (unflipped)
    box = mirror((0.0, 0.0, SIDE, 40.0), flip)
    press = world.create_entity(Transform(box[:2]), Collider(box[2:], type=STATIC),
                                Physics(velocity=(0, -speed if flip else speed)))
    made = []
    for round_, w, h, fx, fy, vx, vy, m, e, f in bodies:
        h = w if round_ else h
        spot = mirror((fx * (SIDE - w), 40 + fy * max(SIDE - highest - 40 - h, 0.0), w, h), flip)
        made.append(world.create_entity(Transform(spot[:2]), Collider((w, h), shape=Shape.CIRCLE if round_ else Shape.BOX),
                                        Physics(velocity=(vx, vy), mass=m, elasticity=e, friction=f)))
    anvils = [e for e in statics if e == floor or statics[e][1] is not Shape.BOX]
    return press, statics, anvils, made, (top - 40.0)


def centre_inside(point: Vector2, box, shape: Shape) -> float:
    """How deep (px) ``point`` lies inside the STATIC (0 if outside)."""
    x, y, w, h = box
    if shape is Shape.BOX:
        return max(0.0, min(point.x - x, x + w - point.x, point.y - y, y + h - point.y))
    hit = circle_triangle_penetration(point, 1e-9, box, CORNERS[shape])
    return 0.0 if hit is None else hit.depth


def squeezed(world: World, entity: int, press: int, statics, anvils: list[int]) -> bool:
    """Whether the body overlaps the press and one of ``anvils`` (the floor
    and ramps) by more than TOLERANCE, as shapes."""
    from systems.physics._shapes.narrowphase import overlap

    collider = world.component_for_entity(entity, Collider)
    box = (*position(world, entity), *collider.size)

    def deep(other_box, other_shape) -> bool:
        inner = (box[0] + TOLERANCE, box[1] + TOLERANCE, box[2] - 2 * TOLERANCE, box[3] - 2 * TOLERANCE)
        if inner[2] <= 0 or inner[3] <= 0:
            return False
        return overlap(inner, collider.shape, inner, other_box, other_shape, other_box) is not None

    press_box = (*position(world, press), SIDE, 40.0)
    return deep(press_box, Shape.BOX) and any(deep(*statics[e]) for e in anvils)


@pytest.mark.parametrize("continuous", [False, True], ids=["discrete", "continuous"])
@settings(max_examples=20)  # each runs the press down the arena: about 150 steps
@given(bodies=movers, slopes=ramps, speed=st.floats(60, 240), stop=st.floats(0, 10), flip=st.booleans(),
       gravity=st.sampled_from([(0, 0), (0, G)]))
@example(bodies=[(False, 10.0, 20.0, 0.1, 1.0, 0.0, 0.0, 1.0, 0.0, 0.5)], slopes=[], speed=120.0, stop=0.0,
         flip=False, gravity=(0, G))
@example(bodies=[(True, 20.0, 20.0, 0.5, 1.0, 0.0, 0.0, 1.0, 0.0, 0.5)], slopes=[(False, 40.0, 30.0, 0.5)],
         speed=120.0, stop=2.0, flip=True, gravity=(0, G))
def test_a_press_closing_on_random_bodies_never_pushes_one_through_a_static(continuous, bodies, slopes, speed,
                                                                               stop, flip, gravity):
    # A full-width press closes on boxes and circles over ramps, then stops
    # ``stop`` px short of the highest ramp: bodies taller than that are
    # crushed. Every step: the STATICs never move (the press by exactly its
    # velocity · dt), nothing is NaN, every body's centre stays inside the
    # arena, on the near side of the press and out of every STATIC (a crushed
    # body overlaps both squeezers, its centre between their faces), and a
    # body overlapping both the press and the floor or a ramp is reported
    # crushed that step.
    world = World(gravity=gravity, continuous=continuous)
    press, statics, anvils, made, travel = vice(world, bodies, slopes, speed, stop, flip)
    crushed = listen(world)
    start = Vector2(position(world, press))
    moved = 0.0
    for step in range(int(travel / (speed * DT)) + 12):
        crushed.clear()
        step_speed = speed if moved + speed * DT <= travel else 0.0
        velocity(world, press).y = -step_speed if flip else step_speed
        world.step(DT)
        moved += step_speed * DT
        assert position(world, press).x == start.x
        assert position(world, press).y == pytest.approx(start.y + (-moved if flip else moved), abs=1e-6)
        for entity, (box, _) in statics.items():
            assert tuple(position(world, entity)) == box[:2]
        face = position(world, press).y + (0.0 if flip else 40.0)
        for entity in made:
            p, v = position(world, entity), velocity(world, entity)
            assert all(math.isfinite(c) for c in (p.x, p.y, v.x, v.y)), (step, entity)
            centre = p + world.component_for_entity(entity, Collider).size / 2
            assert -TOLERANCE <= centre.x <= SIDE + TOLERANCE and -TOLERANCE <= centre.y <= SIDE + TOLERANCE
            assert (centre.y <= face + TOLERANCE) if flip else (centre.y >= face - TOLERANCE), (step, entity, centre)
            for other, (box, shape) in statics.items():
                assert centre_inside(centre, box, shape) <= TOLERANCE, (step, entity, other, centre)
            if squeezed(world, entity, press, statics, anvils):
                assert entity in crushed, (step, entity)
