"""Collision control: layers and masks, one-way faces, events, filters,
richer contacts. Both pipelines, boxes and circles."""

import pytest
from pygame import Vector2

from components import ALL, Collider, ColliderType, Physics, Shape, Side, Touching, Transform
from helpers import DT, box, position, run, velocity, wall

PLAYER, PLATFORM, COIN, BULLET = 1 << 1, 1 << 2, 1 << 3, 1 << 4


def layered_box(world, x, y, category, mask, **physics):
    return world.create_entity(Transform((x, y)), Collider((10, 10), category=category, mask=mask),
                               Physics(**physics))


@pytest.mark.parametrize("cat_a, mask_a, cat_b, mask_b, meet", [
    (1, ALL, 1, ALL, True),      # the defaults meet
    (PLAYER, PLATFORM, PLATFORM, PLAYER, True),   # each in the other's mask
    (PLAYER, PLATFORM, PLATFORM, COIN, False),    # a's category not in b's mask
    (PLAYER, COIN, PLATFORM, PLAYER, False),      # b's category not in a's mask
    (PLAYER, 0, PLATFORM, ALL, False),            # a meets nothing
    (PLAYER | COIN, COIN, COIN, PLAYER, True),    # one shared bit each way is enough
    (BULLET, ALL & ~BULLET, BULLET, ALL & ~BULLET, False),  # bullets ignore each other
])
@pytest.mark.parametrize("round_", [False, True])
def test_the_mask_rule_decides_which_pairs_collide(make_world, cat_a, mask_a, cat_b, mask_b, meet, round_):
    # A moves at 120 px/s into B, 0.5 px away: it covers 2 px in the step.
    # Meeting pairs collide (contact, B pushed/bounced); others pass through.
    world = make_world()
    shape = Shape.CIRCLE if round_ else Shape.BOX
    a = world.create_entity(Transform((0, 0)), Collider((10, 10), shape=shape, category=cat_a, mask=mask_a),
                            Physics(velocity=(120, 0)))
    b = world.create_entity(Transform((10.5, 0)), Collider((10, 10), shape=shape, category=cat_b, mask=mask_b),
                            Physics())
    world.step(DT)
    assert bool(world.contacts) is meet
    assert (velocity(world, b).x > 0) is meet  # equal masses, e = 0: B takes half: 60 px/s
    assert world.query_point((15, 5), mask=cat_a) == ([b] if cat_b & cat_a else [])


def test_layer_changes_take_effect_at_the_next_step(make_world):
    world = make_world()
    a = layered_box(world, 0, 0, PLAYER, ALL, velocity=(120, 0))
    layered_box(world, 21, 0, PLATFORM, ALL)
    run(world, 4)  # 8 px: still 3 px apart
    world.component_for_entity(a, Collider).mask = ALL & ~PLATFORM
    run(world, 10)  # straight through
    assert position(world, a).x == pytest.approx(28)
    assert not world.contacts


def one_way(world, x, y, w=60, h=10, category=PLATFORM):
    return world.create_entity(Transform((x, y)),
                               Collider((w, h), type=ColliderType.STATIC, sides=Side.TOP, category=category))


def player(world, x, y, round_=False, **physics):
    shape = Shape.CIRCLE if round_ else Shape.BOX
    return world.create_entity(Transform((x, y)), Collider((10, 10), category=PLAYER, shape=shape),
                               Physics(**physics), Touching())


@pytest.mark.parametrize("round_", [False, True], ids=["box", "circle"])
def test_a_body_jumps_up_through_a_one_way_platform_and_lands_on_it(make_world, round_):
    # Jumping at 600 px/s from y = 150 under 980 px/s²: apex 600²/(2·980) =
    # 184 px up, well above the platform (top at y = 100). Going up, nothing
    # stops it (vy grows by g·dt each step exactly); coming down, it lands on
    # the top face: y = 100 − 10 = 90, at rest, standing on the platform.
    world = make_world(gravity=(0, 980))
    platform = one_way(world, -20, 100)
    jumper = player(world, 5, 150, round_, velocity=(0, -600))
    rising = []
    for _ in range(40):
        world.step(DT)
        if velocity(world, jumper).y < 0:
            rising.append(velocity(world, jumper).y)
    assert rising == pytest.approx([-600 + 980 * DT * (i + 1) for i in range(len(rising))])
    run(world, 60)
    assert position(world, jumper).y == pytest.approx(90)
    assert velocity(world, jumper).y == pytest.approx(0)
    assert world.component_for_entity(jumper, Touching).ground == platform


def test_clearing_the_platform_layer_drops_through_and_restoring_it_inside_does_not_snap_back(make_world):
    world = make_world(gravity=(0, 980))
    one_way(world, -20, 100)
    body = player(world, 5, 90)
    run(world, 5)
    assert position(world, body).y == pytest.approx(90)  # standing on it
    collider = world.component_for_entity(body, Collider)
    collider.mask = ALL & ~PLATFORM
    run(world, 10)  # falls: 0.5·980·(10/60)² ≈ 13.6 px, now inside the 10 px platform or below
    inside = position(world, body).y
    assert inside > 90.5
    collider.mask = ALL  # back, while inside: it was not above the top when this step began
    ys = []
    for _ in range(20):
        world.step(DT)
        ys.append(position(world, body).y)
    assert ys == sorted(ys) and ys[-1] > 110  # kept falling, out through the bottom


@pytest.mark.parametrize("direction", [1, -1])
def test_walking_along_a_row_of_one_way_tiles_never_snags(make_world, direction):
    world = make_world(gravity=(0, 1000))
    tiles = [one_way(world, i * 16, 100, w=16, h=16) for i in range(40)]
    body = player(world, 315, 90, velocity=(300 * direction, 0))
    for _ in range(40):  # 200 px: across 12 seams
        world.step(DT)
        assert velocity(world, body).x == 300 * direction
        assert position(world, body).y == 90
        assert all(c.normal == Vector2(0, -1) and c.a in tiles for c in world.contacts)


def test_one_way_side_faces_stop_nothing_and_the_top_only_from_above(make_world):
    # A body moving sideways into a one-way platform's left face passes
    # through; the same body moving down onto its top stops.
    world = make_world()
    one_way(world, 20, 0, w=40, h=40)
    side = player(world, 0, 10, velocity=(600, 0))
    run(world, 10)  # 100 px: through the 40 px platform
    assert position(world, side).x == pytest.approx(100)


def test_begin_and_end_balance_over_a_scene_with_deletions(make_world):
    world = make_world(gravity=(0, 980))
    floor = wall(world, -100, 100, 400, 20)
    crates = [box(world, 30 * i, 60 + 5 * i, velocity=(50 * (i - 2), 0)) for i in range(5)]
    coins = [world.create_entity(Transform((30 * i + 15, 85)), Collider((6, 6), type=ColliderType.TRIGGER))
             for i in range(4)]
    begun, ended, taken = {}, {}, []

    @world.on_collision_begin
    def began(contact):
        begun[(contact.a, contact.b)] = begun.get((contact.a, contact.b), 0) + 1
        coin = contact.b if contact.b in coins else contact.a if contact.a in coins else None
        if coin is not None and coin not in taken:
            taken.append(coin)
            world.delete_entity(coin)

    world.on_collision_end(lambda c: ended.__setitem__((c.a, c.b), ended.get((c.a, c.b), 0) + 1))
    for step in range(90):
        if step == 40:
            world.delete_entity(crates[0])
        if step == 60:
            world.remove_component(crates[1], Collider)
        world.step(DT)
        touching = {(c.a, c.b) for c in world.contacts}
        for pair in begun.keys() | ended.keys():
            # every pair has begun once more than it ended while it touches, else as often
            assert begun.get(pair, 0) - ended.get(pair, 0) == (1 if pair in touching else 0)
    assert begun and taken and any(floor in pair for pair in ended)
    for entity in crates + [floor]:
        if world.entity_exists(entity):
            world.delete_entity(entity)
    run(world, 2)
    assert begun == ended


def test_between_orients_contacts_and_filters_by_layer(make_world):
    # The coin is created first, so the engine's contact has a = coin. A
    # handler listening between (PLAYER, COIN) gets it the other way round:
    # a = player, normal from the player to the coin (+x here).
    world = make_world()
    coin = world.create_entity(Transform((12, 0)), Collider((10, 10), type=ColliderType.TRIGGER, category=COIN))
    walker = layered_box(world, 0, 0, PLAYER, ALL, velocity=(600, 0))
    crate = layered_box(world, 0, 40, PLATFORM, ALL, velocity=(600, 0))
    world.create_entity(Transform((12, 40)), Collider((10, 10), type=ColliderType.TRIGGER, category=COIN))
    seen, everything = [], []
    world.on_collision_begin(lambda c: seen.append((c.a, c.b, Vector2(c.normal))), between=(PLAYER, COIN))
    world.on_collision_begin(lambda c: everything.append((c.a, c.b)))
    world.step(DT)
    assert seen == [(walker, coin, Vector2(1, 0))]
    assert (coin, walker) in everything and len(everything) == 2  # unfiltered: a < b, both coins
    assert crate not in {a for a, _, _ in seen}


def test_a_filter_lets_a_bullet_through_its_shooter_even_on_the_way_back():
    # The swept pipeline. A 2 × 2 bullet at 2400 px/s (40 px per step) leaves
    # the shooter (x 0..10) at x = 11 toward a heavy elastic ball at x = 30
    # (mass 1 against 0.01). It hits the ball when its front reaches 30:
    # t = (28 − 11)/40 = 0.425, and bounces back at
    # vA' = (e·mB·(vB − vA) + mA·vA + mB·vB)/(mA + mB) = (−2400 + 24)/1.01
    #     = −2352.48 px/s, covering 2352.48·0.575/60 = 22.54 px: it ends at
    # x = 28 − 22.54 = 5.46, inside the shooter's box, which the filter lets
    # it pass through: no contact, no push, the shooter untouched.
    from ecs import World

    world = World()
    shooter = world.create_entity(Transform((0, 0)), Collider((10, 10)), Physics())
    bullet = world.create_entity(Transform((11, 4)), Collider((2, 2)),
                                 Physics(velocity=(2400, 0), mass=0.01, elasticity=1.0))
    world.create_entity(Transform((30, -5)), Collider((20, 20), shape=Shape.CIRCLE),
                        Physics(mass=1.0, elasticity=1.0))
    asked = []

    @world.collision_filter
    def not_my_shooter(a, b):
        asked.append((a, b))
        return {a, b} != {shooter, bullet}

    world.step(DT)
    assert position(world, bullet).x == pytest.approx(28 - 2352.48 * 0.575 / 60, abs=0.01)
    assert velocity(world, bullet).x == pytest.approx(-2376 / 1.01)
    assert position(world, shooter) == Vector2(0, 0) and velocity(world, shooter) == Vector2(0, 0)
    assert all({c.a, c.b} != {shooter, bullet} for c in world.contacts)
    assert (shooter, bullet) in asked and len(asked) == len(set(asked))  # once per pair and step


@pytest.mark.parametrize("refuse", [True, False])
def test_a_filter_is_asked_about_a_pair_first_met_mid_step(refuse):
    # A 4 × 4 ball at 2400 px/s (40 px a step) from x = 40 strikes a wall at
    # x = 50 at t = (50 − 44)/40 = 0.15 and comes back, elastic, over the
    # 0.85 · 40 = 34 px left: its left side would end at 46 − 34 = 12. A box
    # at x 20..24, mass 1 like the ball, lies outside the box the ball swept
    # before the bounce (x 40..84), so the pair was no candidate when the
    # step began: the filter must still be asked about it when they meet.
    # Refused, the ball passes through and the box stays; allowed, the ball
    # strikes it at t = 0.15 + (46 − 24)/40 = 0.7 and, equal masses and
    # e = 1, stops there (x = 24) while the box leaves at −2400 px/s over
    # the last 0.3 · 40 = 12 px (x = 8).
    from ecs import World

    world = World()
    world.create_entity(Transform((50, -50)), Collider((10, 100), type=ColliderType.STATIC))
    ball = world.create_entity(Transform((40, 0)), Collider((4, 4)), Physics((2400, 0), elasticity=1.0))
    crate = world.create_entity(Transform((20, 0)), Collider((4, 4)), Physics(elasticity=1.0))
    asked = []
    world.collision_filter(lambda a, b: asked.append((a, b)) or not (refuse and {a, b} == {ball, crate}))
    world.step(DT)
    assert (ball, crate) in asked and len(asked) == len(set(asked))  # once per pair and step
    if refuse:
        assert position(world, ball).x == pytest.approx(12) and position(world, crate).x == 20
    else:
        assert position(world, ball).x == pytest.approx(24) and position(world, crate).x == pytest.approx(8)
        assert velocity(world, crate).x == pytest.approx(-2400) and velocity(world, ball).x == pytest.approx(0)


def test_contacts_carry_point_time_and_surface_ordered_by_time():
    # Swept: a box falling at 600 px/s (10 px per step) 5 px above the floor
    # lands at t = 0.5 on its top (y = 100), the point in the middle of the
    # touching faces (x 20..30 over the floor: 25), surface 10 px. A second
    # box, 2 px above, lands at t = 0.2 and comes first.
    from ecs import World

    world = World()
    floor = wall(world, -100, 100, 300, 20)
    late = box(world, 20, 85, velocity=(0, 600))
    early = box(world, 60, 88, velocity=(0, 600))
    world.step(DT)
    assert [(c.a, c.b) for c in world.contacts] == [(floor, early), (floor, late)]
    first, second = world.contacts
    assert first.time == pytest.approx(0.2) and second.time == pytest.approx(0.5)
    assert second.point == Vector2(25, 100) and second.surface == pytest.approx(10)


def test_ground_is_the_longest_surface_below_ties_to_the_smaller_id(make_world):
    world = make_world(gravity=(0, 980))
    left = wall(world, 0, 100, 20, 20)
    right = wall(world, 20, 100, 20, 20)
    body = player(world, 15, 90)  # 5 px on each tile: a tie
    world.step(DT)
    assert world.component_for_entity(body, Touching).ground == left
    world.component_for_entity(body, Transform).position.x = 18  # 2 px on left, 8 on right
    world.step(DT)
    assert world.component_for_entity(body, Touching).ground == right
    velocity(world, body).y = -400
    world.step(DT)
    assert world.component_for_entity(body, Touching).ground is None


def test_shooter_bullets_never_meet_the_ship_or_each_other_and_the_radar_counts_right():
    # The example's own bookkeeping, checked step by step against geometry:
    # the radar's count (begin minus end events) equals the enemies whose
    # circle overlaps the radar's circle, and no contact ever pairs a bullet
    # with the ship or with another bullet.
    from ecs import Input, World
    from examples.shooter import RADAR, Bullet, Enemy, Radar, Ship, build

    world = World()
    world.insert_resource(Input())
    state = build(world, auto=True)
    ship = next(e for e, _ in world.get_component(Ship))
    counts = []
    for _ in range(400):
        world.step(DT)
        bullets = {e for e, _ in world.get_component(Bullet)}
        for c in world.contacts:
            assert not ({c.a, c.b} & bullets and ship in (c.a, c.b))
            assert not (c.a in bullets and c.b in bullets)
        radar = world.component_for_entity(state["radar"], Transform).position + Vector2(RADAR, RADAR)
        near = sum(1 for e, (_, t) in world.get_components(Enemy, Transform)
                   if (t.position + Vector2(12, 12)).distance_to(radar) < RADAR + 12 - 1e-6)
        counts.append(world.component_for_entity(state["radar"], Radar).inside)
        assert counts[-1] == near
    assert state["kills"] > 0 and max(counts) > 0


@pytest.mark.parametrize("subscribe", ["on_collision", "on_collision_begin", "on_collision_end"])
@pytest.mark.parametrize("between", [(1, 2, 3), (1,), (0, 1), (1, True), [1, 2], (1, 2.0)])
def test_a_bad_between_is_refused_at_once_even_when_used_as_a_decorator(subscribe, between):
    # The decorator form (no handler yet) must not put the check off until a handler comes,
    # or never, if the returned decorator is dropped.
    from ecs import World

    world = World()
    with pytest.raises(ValueError, match="between must be a pair of categories"):
        getattr(world, subscribe)(between=between)
    with pytest.raises(ValueError, match="between must be a pair of categories"):
        getattr(world, subscribe)(lambda contact: None, between=between)
