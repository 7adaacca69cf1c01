"""Collision events, TRIGGER colliders, Touching flags and moving platforms."""

import gc

import pytest
from pygame import Vector2

from components import Collider, ColliderType, Physics, Touching, Transform
from helpers import DT, box, position, run, velocity, wall


def coin(world, x, y, **physics):
    parts = [Transform((x, y)), Collider((8, 8), type=ColliderType.TRIGGER)]
    if physics:
        parts.append(Physics(**physics))
    return world.create_entity(*parts)


def test_handler_may_delete_the_entity_it_is_told_about(make_world):
    world = make_world()
    player = box(world, 0, 0, velocity=(300, 0))
    coins = [coin(world, 12 + 10 * i, 1) for i in range(3)]
    taken = []

    def take(contact):
        other = contact.b if contact.a == player else contact.a
        if other in coins and world.entity_exists(other):
            taken.append(other)
            world.delete_entity(other)

    world.on_collision(take)
    run(world, 12)  # 60 px: across all three coins
    assert taken == coins
    assert not any(world.entity_exists(c) for c in coins)
    assert velocity(world, player) == Vector2(300, 0)  # triggers never change velocities


def test_lambda_handler_is_kept_alive_and_two_handlers_both_run(make_world):
    world = make_world(gravity=(0, 900))
    wall(world, -50, 100, 200, 20)
    box(world, 0, 91)
    seen = []
    world.on_collision(lambda contact: seen.append(("first", contact.a, contact.b)))
    world.on_collision(lambda contact: seen.append(("second", contact.a, contact.b)))
    gc.collect()  # esper's weak handlers would lose a lambda here
    world.step(DT)
    assert [tag for tag, _, _ in seen] == ["first", "second"]


def test_handler_may_add_components_mid_step(make_world):
    world = make_world(gravity=(0, 900))
    wall(world, -50, 100, 200, 20)
    crate = box(world, 0, 91)
    world.on_collision(lambda contact: world.has_component(contact.b, Touching)
                       or world.add_component(contact.b, Touching()))
    world.step(DT)
    world.step(DT)
    assert world.component_for_entity(crate, Touching).down


def test_trigger_is_reported_but_never_pushes_or_is_pushed(make_world):
    world = make_world()
    zone = world.create_entity(Transform((20, -5)), Collider((30, 30), type=ColliderType.TRIGGER),
                               Physics(velocity=(-30, 0)))
    a = box(world, 0, 0, velocity=(120, 0))
    run(world, 10)
    assert velocity(world, a) == Vector2(120, 0) and velocity(world, zone) == Vector2(-30, 0)
    assert position(world, a).x == pytest.approx(20)  # 120 px/s for 10 steps, unhindered
    assert all(c.trigger for c in world.contacts) and world.contacts


def test_fast_body_passing_through_a_trigger_within_one_step_is_reported():
    from ecs import World

    world = World()  # continuous: the sweep sees the pass
    c = coin(world, 100, 0)
    bullet = box(world, 0, 0, w=4, velocity=(12000, 0))  # 200 px per step
    world.step(DT)
    assert [(x.a, x.b, x.trigger) for x in world.contacts] == [(c, bullet, True)]
    assert position(world, bullet).x == pytest.approx(200)


def test_touching_flags_follow_the_steps_contacts(make_world):
    world = make_world(gravity=(0, 900))
    wall(world, -50, 100, 200, 20)
    wall(world, 30, 0, 10, 100)
    player = box(world, 0, 91)
    world.add_component(player, Touching())
    flags = world.component_for_entity(player, Touching)
    world.step(DT)
    assert (flags.down, flags.up, flags.left, flags.right) == (True, False, False, False)
    world.component_for_entity(player, Physics).velocity = Vector2(0, -600)  # jump
    world.step(DT)
    assert not flags.down
    for _ in range(8):  # a control system pushing right every step (5 px per step)
        world.component_for_entity(player, Physics).velocity.x = 300
        world.step(DT)
    assert flags.right and not flags.left
    trigger_world = make_world(gravity=(0, 900))
    sensor = box(trigger_world, 0, 0)
    trigger_world.add_component(sensor, Touching())
    coin(trigger_world, 0, 10)
    trigger_world.step(DT)
    assert trigger_world.component_for_entity(sensor, Touching) == Touching()


@pytest.mark.parametrize("platform_velocity", [(60, 0), (-45, 0), (0, 60), (0, -60), (40, 30)])
def test_moving_platform_carries_its_rider(make_world, platform_velocity):
    world = make_world(gravity=(0, 980))
    platform = wall(world, 0, 200, 80, 10, velocity=platform_velocity)
    rider = box(world, 30, 190)
    world.add_component(rider, Touching())
    run(world, 30)  # land on the moving platform (a sinking one must catch up first)
    start_rider, start_platform = Vector2(position(world, rider)), Vector2(position(world, platform))
    for _ in range(60):
        world.step(DT)
        assert world.component_for_entity(rider, Touching).down  # never loses the platform
        assert position(world, rider).y + 10 == pytest.approx(position(world, platform).y, abs=0.3)
    carried = position(world, rider) - start_rider
    moved = position(world, platform) - start_platform
    assert carried.x == pytest.approx(moved.x, abs=1e-6)  # rides along, no sliding
    assert velocity(world, rider).x == pytest.approx(0)  # its own velocity stays its own


def test_a_platform_without_physics_moved_by_the_game_carries_its_rider(make_world):
    # A STATIC without Physics is level geometry; a game that slides one in place (a scripted
    # platform) moves it by 2 px a step between steps. Its rider moves with it by exactly
    # that: the platform's displacement, with no velocity of its own to slide by.
    world = make_world(gravity=(0, 980))
    platform = wall(world, 0, 200, 80, 10)
    rider = box(world, 30, 190)
    run(world, 10)
    start = Vector2(position(world, rider))
    for step in range(1, 31):
        world.component_for_entity(platform, Transform).position.x += 2
        world.step(DT)
        assert position(world, rider).x == pytest.approx(start.x + 2 * step, abs=1e-9)
        assert position(world, rider).y == pytest.approx(start.y, abs=1e-9)
    assert velocity(world, rider).x == 0


@pytest.mark.parametrize("assigned", ["position", "velocity"])
def test_a_platform_whose_vectors_are_assigned_carries_its_rider_by_the_new_ones(make_world, assigned):
    # Movement reads the platforms' vectors from a list it keeps while none is assigned: an
    # assigned position (a tile slid by the game) or velocity (a lift started) is a new Vector2,
    # and the rider moves by the new one's displacement, as with a vector changed in place.
    world = make_world(gravity=(0, 980))
    platform = wall(world, 0, 200, 80, 10, **({"velocity": (0, 0)} if assigned == "velocity" else {}))
    rider = box(world, 30, 190)
    run(world, 10)
    start = Vector2(position(world, rider))
    for step in range(1, 21):
        if assigned == "position":
            transform = world.component_for_entity(platform, Transform)
            transform.position = (transform.position.x + 2, transform.position.y)
        else:
            world.component_for_entity(platform, Physics).velocity = (120, 0)  # 2 px a step
        world.step(DT)
        assert position(world, rider).x == pytest.approx(start.x + 2 * step, abs=1e-9)


def test_a_rider_teleported_off_its_platform_is_not_carried(make_world):
    # Found by playing: a crate assigned a new position, standing on a floor 300 px from the
    # platform it rode, was still moved by the platform's displacement the next step. Standing
    # still on the floor, it stays where it was put; the crate left riding goes on by the
    # platform's 80 px/s · dt = 4/3 px a step.
    world = make_world(gravity=(0, 980))
    wall(world, 0, 200, 300, 20)  # the floor it is put on, its top at y = 200
    wall(world, 380, 400, 120, 10, velocity=(80, 0))  # the platform, its top at y = 400
    moved, left = box(world, 400, 388, 12), box(world, 460, 388, 12)
    run(world, 30)
    where = position(world, left).x
    world.component_for_entity(moved, Transform).position = (100, 188)
    for step in range(1, 4):
        world.step(DT)
        assert tuple(position(world, moved)) == pytest.approx((100, 188))
        assert position(world, left).x == pytest.approx(where + step * 80 * DT)


def test_a_rider_teleported_off_a_rising_lift_leaves_with_its_velocity(make_world):
    # While it rides, the crate's velocity is relative to the lift's 120 px/s rise (about 0).
    # Put in open air, it is not carried up, and it leaves with the lift's velocity, as a
    # jump off the lift would: after the step, v = g·dt − 120 px/s, and it has fallen g·dt²
    # (semi-implicit Euler from a relative velocity of 0).
    world = make_world(gravity=(0, 980))
    wall(world, 380, 400, 120, 10, velocity=(0, -120))
    crate = box(world, 420, 388, 12)
    run(world, 20)
    assert velocity(world, crate).y == pytest.approx(0, abs=1e-6)
    world.component_for_entity(crate, Transform).position = (100, 100)
    world.step(DT)
    assert tuple(velocity(world, crate)) == pytest.approx((0, 980 * DT - 120))
    assert tuple(position(world, crate)) == pytest.approx((100, 100 + 980 * DT * DT))


def test_platform_pushes_a_body_instead_of_passing_through_it(make_world):
    world = make_world(gravity=(0, 980))
    wall(world, -100, 100, 600, 20)  # ground
    pusher = wall(world, 0, 60, 20, 40, velocity=(120, 0))
    crate = box(world, 40, 90)
    for _ in range(60):
        world.step(DT)
        # never inside the platform: pushed ahead of it
        assert position(world, crate).x >= position(world, pusher).x + 20 - 1e-6
    assert position(world, crate).x == pytest.approx(position(world, pusher).x + 20, abs=0.5)


def test_a_pushed_body_never_pushes_a_trigger_beside_it(make_world):
    world = make_world()
    zone = coin(world, 14, 0)
    a = box(world, 0, 0)
    b = box(world, 6, 0)  # spawned 4 px inside a: pushed apart, b toward the coin
    world.step(DT)
    assert position(world, zone) == Vector2(14, 0)
    assert position(world, b).x > position(world, a).x + 9.99
    assert any(c.trigger for c in world.contacts)


def _steady(*legs):
    """A platform velocity schedule: (steps, (vx, vy)) legs, then the last forever."""
    def velocity_at(step):
        for steps, v in legs:
            if step < steps:
                return v
            step -= steps
        return legs[-1][1]
    return velocity_at


LIFTS = {
    "starts down from rest": _steady((20, (0, 0)), (60, (0, 120))),
    "starts up from rest": _steady((20, (0, 0)), (60, (0, -120))),
    "down at 600 px/s": _steady((20, (0, 0)), (40, (0, 600))),
    "stops going down": _steady((30, (0, 200)), (30, (0, 0))),
    "stops going up": _steady((30, (0, -200)), (30, (0, 0))),
    "reverses at the top": _steady((40, (0, -80)), (40, (0, 80)), (40, (0, -80))),
    "reverses at the bottom": _steady((40, (0, 300)), (40, (0, -300)), (40, (0, 300))),
    "sideways and back": _steady((30, (150, 0)), (30, (-150, 0))),
    "diagonal and back": _steady((30, (100, -100)), (30, (-100, 100)), (30, (100, 100))),
}


class _Drive:
    """Sets the platform's velocity from a schedule, before Movement."""

    def __init__(self, world, platform, schedule):
        self.world, self.platform, self.schedule, self.step = world, platform, schedule, 0

    def process(self, dt):
        velocity(self.world, self.platform).update(self.schedule(self.step))
        self.step += 1


@pytest.mark.parametrize("name", list(LIFTS))
def test_a_rider_stays_on_its_platform_whatever_the_platform_does(make_world, name):
    # The rider's bottom should sit on the platform's top every step: the gap
    # platform.y − (rider.y + 10) is at most 0.5 px either way, and it always
    # stands on something (Touching.down).
    world = make_world(gravity=(0, 980))
    platform = wall(world, 0, 200, 80, 10, velocity=(0, 0))
    rider = box(world, 30, 190)
    world.add_component(rider, Touching())
    run(world, 3)  # settle onto the platform at rest
    world.add_system(_Drive(world, platform, LIFTS[name]), priority=1000)
    for step in range(100):
        world.step(DT)
        gap = position(world, platform).y - (position(world, rider).y + 10)
        assert abs(gap) <= 0.5, f"step {step}: gap {gap:.2f} px"
        assert world.component_for_entity(rider, Touching).down, f"step {step}"


@pytest.mark.parametrize("name", list(LIFTS))
def test_a_stack_of_riders_stays_on_its_platform_whatever_the_platform_does(make_world, name):
    # Three 10 px crates stacked on the platform: the upper two stand on the crate below, not on
    # the platform, and ride it through the crate below, as the bottom one does directly. Each
    # gap (platform top to the bottom crate's bottom, and crate to crate) stays within 0.5 px
    # every step, whatever the platform does; none is tossed or left behind.
    world = make_world(gravity=(0, 980))
    platform = wall(world, 0, 200, 80, 10, velocity=(0, 0))
    stack = [box(world, 30, 190 - 10 * k) for k in range(3)]
    for crate in stack:
        world.add_component(crate, Touching())
    run(world, 3)
    world.add_system(_Drive(world, platform, LIFTS[name]), priority=1000)
    for step in range(100):
        world.step(DT)
        below = position(world, platform).y
        for k, crate in enumerate(stack):
            gap = below - (position(world, crate).y + 10)
            assert abs(gap) <= 0.5, f"step {step}: crate {k} gap {gap:.2f} px"
            assert world.component_for_entity(crate, Touching).down, f"step {step}: crate {k}"
            below = position(world, crate).y


def test_a_crate_on_a_crate_teleported_off_a_lift_is_not_carried(make_world):
    # The lower crate is put on a still floor far from the lift; the crate on top of it goes
    # with it (put there too), and neither is carried by the lift's 80 px/s any more.
    world = make_world(gravity=(0, 980))
    wall(world, 0, 200, 300, 20)
    wall(world, 380, 400, 120, 10, velocity=(80, 0))
    lower, upper = box(world, 400, 390), box(world, 400, 380)
    run(world, 30)
    assert position(world, upper).x == pytest.approx(position(world, lower).x)  # both rode alike
    world.component_for_entity(lower, Transform).position = (100, 190)
    world.component_for_entity(upper, Transform).position = (100, 180)
    for _ in range(3):
        world.step(DT)
        assert tuple(position(world, lower)) == pytest.approx((100, 190))
        assert tuple(position(world, upper)) == pytest.approx((100, 180))


@pytest.mark.parametrize("lift_velocity", [(0, 0), (0, -200), (0, 300), (0, 600), (120, 0)])
def test_a_rider_can_jump_off_its_platform(make_world, lift_velocity):
    # A rider's velocity along the platform's normal is relative to the
    # platform, so a control system's jump (vy = −500, as in the README) is
    # a jump off the platform however it moves; the rider rises above it.
    world = make_world(gravity=(0, 980))
    platform = wall(world, 0, 200, 400, 10, velocity=(0, 0))
    rider = box(world, 30, 190)
    world.add_component(rider, Touching())
    run(world, 3)  # stand on it at rest, then it starts
    velocity(world, platform).update(lift_velocity)
    run(world, 10)
    assert world.component_for_entity(rider, Touching).down
    assert velocity(world, rider).y == pytest.approx(0)  # standing still on the platform
    velocity(world, rider).y = -500
    heights = []
    for _ in range(10):
        world.step(DT)
        heights.append(position(world, platform).y - (position(world, rider).y + 10))
    assert not world.component_for_entity(rider, Touching).down
    # Relative to the platform it rises like any jump: h(t) = 500·t − 490·t²
    # (the relative velocity after the first step already includes gravity).
    t = 10 * DT
    assert heights[-1] == pytest.approx(500 * t - 490 * t * t, abs=500 * DT)
    assert heights == sorted(heights)


def platformer():
    """The platformer example's level in a World with an Input resource;
    returns (world, keys, player)."""
    from ecs import Input, World
    from examples.platformer import GRAVITY, build

    world = World(gravity=(0, GRAVITY))
    keys = Input()
    world.insert_resource(keys)
    return world, keys, build(world)["player"]


def test_platformer_lift_carries_the_player_through_its_turns_and_jumps_work():
    # The example's lift rises at 80 px/s from y = 436 to 160 and turns round
    # there (after (436 − 160)/80 = 3.45 s ≈ 207 steps). The player stands on
    # it the whole way: its feet stay on the lift's top every step, then a
    # jump right after the turn leaves the lift.
    import pygame

    from examples.platformer import GRAVITY, JUMP_SPEED, Patrol

    world, keys, player = platformer()
    lift = next(e for e, patrol in world.get_component(Patrol) if patrol.axis == 1)  # the vertical one
    lift_y = [position(world, lift).y]
    for step in range(215):
        world.step(DT)
        lift_y.append(position(world, lift).y)
        gap = position(world, lift).y - (position(world, player).y + 30)
        assert abs(gap) <= 0.5 and world.component_for_entity(player, Touching).down, (step, gap)
    turned = next(i for i in range(1, len(lift_y)) if lift_y[i] > lift_y[i - 1])
    assert turned < 215  # the lift has turned and is going down
    keys.just_pressed.add(pygame.K_SPACE)
    world.step(DT)
    keys.just_pressed.clear()
    run(world, 5)
    # Relative to the lift: h = v·t − g·t²/2 over 6 steps, v = 560, g = 1400.
    t = 6 * DT
    gap = position(world, lift).y - (position(world, player).y + 30)
    assert gap == pytest.approx(JUMP_SPEED * t - GRAVITY * t * t / 2, abs=JUMP_SPEED * DT)


def test_platformer_enemy_turns_at_the_ledge_and_the_player_drops_through_a_one_way_platform():
    # The enemy walks the raised floor (tiles to x = 9·32 = 288, then a 45°
    # ramp down, wall at x = 32). Its ledge ray, 2 px ahead of its front
    # (x + 24) and reaching 10 px below its feet (y = 416), meets the ramp's
    # surface y = 416 + (x − 288) while x + 26 − 288 <= 10: it turns on the
    # first step past x = 272 (70 px/s, so by 272 + 70·dt), with its body
    # still on the ledge, so it never falls (y stays 416 − 24 = 392), and it
    # reaches both ends. The player, put on the right one-way platform (top y = 320),
    # drops through it with Down + jump, lands on the pit floor (y = 448 − 30)
    # and meets the platforms again once clear of them.
    import pygame

    from components import ALL, Collider
    from examples.platformer import Walker

    world, keys, player = platformer()
    enemy = next(e for e, _ in world.get_component(Walker))
    position(world, player).update(14 * 32, 320 - 30)
    xs = []
    for step in range(600):
        if step == 20:
            keys.held.add(pygame.K_DOWN)
            keys.just_pressed.add(pygame.K_SPACE)
        world.step(DT)
        keys.just_pressed.clear()
        keys.held.discard(pygame.K_DOWN) if step == 21 else None
        xs.append(position(world, enemy).x)
        assert position(world, enemy).y == pytest.approx(392)
    assert min(xs) == pytest.approx(32, abs=1.5) and 272 < max(xs) <= 272 + 70 * DT + 1e-9
    assert position(world, player).y == pytest.approx(448 - 30)
    assert world.component_for_entity(player, Collider).mask == ALL


def test_platformer_player_runs_down_the_ramp_and_the_crusher_respawns_it():
    # The raised floor (y = 416) ends at x = 288 in a 45° ramp down to the
    # lower floor (y = 448) at x = 320. Running right at 220 px/s the player
    # must drop 220·dt = 3.7 px a step to follow the slope, under its
    # ground_snap of 8 px: Touching.down holds every step, down the ramp and
    # onto the lower floor. Waiting under the crusher (x 352..416), whose
    # bottom stops 10 px above the floor, the 30 px player is crushed once the
    # crusher slams (after CRUSHER_DELAY s) and respawned on the lift.
    import pygame

    from examples.platformer import CRUSHER_DELAY, TILE

    world, keys, player = platformer()
    spawn = Vector2(18 * TILE + 5, 14 * TILE - 12 - 30)
    position(world, player).update(250, 416 - 30)
    world.step(DT)
    crushed = []
    world.on_crush(crushed.append)
    keys.held.add(pygame.K_RIGHT)
    steps = 0
    while position(world, player).x < 370:
        world.step(DT)
        steps += 1
        assert world.component_for_entity(player, Touching).down, position(world, player)
    keys.held.discard(pygame.K_RIGHT)
    assert position(world, player).y == pytest.approx(448 - 30)
    while not crushed:
        world.step(DT)
        steps += 1
        assert steps < CRUSHER_DELAY / DT + 30
    assert crushed == [player] and position(world, player) == spawn
