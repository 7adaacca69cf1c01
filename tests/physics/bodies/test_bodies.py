"""Collision reads its movers at once and makes a Body only when it is looked up.

A Body made late must hold what one made at the start of Response would:
its box where the body is now, ``moved`` as of the start of the step, its
broad-phase partners in the order the pairs list them. Reading the movers'
kinds a field at a time and filing them in the grid at once must give what
reading and filing them one by one gives.
"""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from components import ALL, Collider, ColliderType, Physics, Shape, Side, Transform
from ecs import World
from systems.physics._broad.grid import SpatialGrid
from systems.physics._stages import collide
from systems.physics._bodies.kinds import INELASTIC, LAYERED, MOVING_STATIC, ONE_WAY, SHAPED, TRIGGER, kinds_of

DT = 1 / 60


def test_a_body_is_made_when_first_looked_up_from_its_components(make_world):
    world = make_world()
    world.create_entity(Transform((-100, 0)), Collider((10, 400), type=ColliderType.STATIC))
    mover = world.create_entity(Transform((10, 20)), Collider((8, 6), offset=(1, 2)), Physics((60, 0), mass=4))
    other = world.create_entity(Transform((300, 20)), Collider((8, 8)), Physics((0, 0)))
    sprite = world.create_entity(Transform((0, 0)))
    world.step(0.5)
    bodies = world.collision.bodies
    assert len(bodies) == 3 and mover in bodies and sprite not in bodies
    assert bodies.made() == []  # no pair: nothing needed a Body
    body = bodies[mover]
    # 60 px/s for 0.5 s: 30 px to the right, the box offset by (1, 2).
    assert body.box == (41.0, 22.0, 8.0, 6.0) and body.before == (11.0, 22.0, 8.0, 6.0)
    assert body.moved and not bodies[other].moved
    assert body.inverse_mass == 0.25 and not body.static and body.neighbours == []
    assert bodies.made() == [body, bodies[other]] and bodies.get(mover) is body
    assert bodies.get(sprite) is None and bodies.get(sprite, "none") == "none"
    made = bodies.made()
    assert world.collision.collider(other) is world.component_for_entity(other, Collider)
    assert world.collision.collider(sprite) is None and bodies.made() == made  # no Body made for it
    with pytest.raises(KeyError):
        bodies[sprite]
    assert list(bodies) == sorted([mover, other, 1]) and len(bodies.values()) == 3
    world.component_for_entity(other, Collider).type = ColliderType.STATIC  # a moving platform now
    world.step(0.5)
    assert [body.entity for body in world.collision.statics()] == [1, other]


def test_a_body_moved_by_an_impact_before_it_is_made_has_its_box_there():
    world = World(continuous=True)
    world.create_entity(Transform((-100, 0)), Collider((10, 100), type=ColliderType.STATIC))
    hit = world.create_entity(Transform((11.5, 0)), Collider((8, 8), offset=(0.5, 0.25)),
                              Physics((0, 0), elasticity=1.0))
    world.create_entity(Transform((0, 0.25)), Collider((8, 8)), Physics((600, 0), elasticity=1.0))
    world.step(DT)
    # The striker covers 10 px this step; the 4 px gap between the boxes
    # closes at t = 0.4 and the equal masses swap velocities (e = 1): the
    # struck body moves the remaining 0.6 of the step at 600 px/s, 6 px,
    # though Movement left it where it was.
    position = world.component_for_entity(hit, Transform).position
    assert position.x == pytest.approx(17.5) and position.y == 0.0
    body = world.collision.bodies[hit]
    assert body.box == (position.x + 0.5, 0.25, 8.0, 8.0)
    assert not body.moved


def partners_in_pair_order(pairs):
    """Each entity's partners as appending both sides of every pair, in order, lists them."""
    found = {}
    for a, b in pairs:
        found.setdefault(a, []).append(b)
        found.setdefault(b, []).append(a)
    return found


@given(st.lists(st.tuples(st.integers(0, 40), st.integers(0, 40), st.sampled_from([4.0, 8.0, 20.0]),
                          st.booleans()), min_size=2, max_size=40))
def test_each_body_lists_its_broad_phase_partners_in_pair_order(items):
    for continuous in (False, True):
        world = World(continuous=continuous)
        for x, y, size, static in items:
            if static:  # (fewer statics than movers: the compiled broad phase's case)
                world.create_entity(Transform((x * 4.0, y * 4.0)), Collider((size, size), type=ColliderType.STATIC))
            else:  # still bodies: the sweeps meet no pair the broad phase did not find
                world.create_entity(Transform((x * 4.0, y * 4.0)), Collider((size, size)), Physics((0, 0)))
        world.collision.process(DT)
        expected = partners_in_pair_order(world.collision.pairs)
        bodies = world.collision.bodies
        assert {entity: bodies[entity].neighbours for entity in bodies} == {
            entity: expected.get(entity, []) for entity in bodies}
        world.close()


@pytest.mark.parametrize("tiles", [0, 80], ids=["kernel-pairs", "grid-pairs"])
@pytest.mark.parametrize("made_early", [False, True], ids=["made-after", "made-before"])
def test_partners_the_sweeps_meet_follow_the_broad_phases_in_the_order_met(made_early, tiles):
    world = World(continuous=True)
    for x, y, w, h in ((-20, -20, 240, 20), (-20, 200, 240, 20), (-20, 0, 20, 200), (200, 0, 20, 200)):
        world.create_entity(Transform((x, y)), Collider((w, h), type=ColliderType.STATIC))
    for i in range(tiles):  # far away: level geometry outnumbering the movers makes the grid find the pairs
        world.create_entity(Transform((1000.0 + 20 * i, 0)), Collider((16, 16), type=ColliderType.STATIC))
    rng = np.random.default_rng(5)
    movers = [world.create_entity(Transform((float(x), float(y))), Collider((6, 6)),
                                  Physics((float(vx), float(vy)), elasticity=1.0))
              for x, y, vx, vy in zip(rng.uniform(0, 190, 60), rng.uniform(0, 190, 60),
                                      rng.uniform(-3000, 3000, 60), rng.uniform(-3000, 3000, 60))]
    met_any = False
    swept = []  # what each step's sweep stage handed on
    run = world.response.resolver.run
    world.response.resolver.run = lambda *args: swept.append(run(*args)) or swept[-1]  # type: ignore[method-assign]
    for _ in range(6):  # a step, stage by stage: Bodies may be made before Response
        world.movement.process(DT)
        world.collision.process(DT)
        bodies = world.collision.bodies
        early = [bodies[entity] for entity in movers[::3]] if made_early else []
        world.response.process(DT)
        met = swept[-1].met()
        met_any |= bool(met)
        expected = partners_in_pair_order(list(world.collision.pairs) + met)
        assert {entity: bodies[entity].neighbours for entity in bodies} == {
            entity: expected.get(entity, []) for entity in bodies}
        assert all(bodies[body.entity] is body for body in early)
    assert met_any  # at 3,000 px/s in a 200 px box, changed paths meet new partners


colliders = st.builds(
    lambda kind, shape, category, mask, sides, physics, elasticity: (
        Collider((8, 8), type=kind, shape=shape, category=category, mask=mask, sides=sides),
        None if not physics else Physics((0, 0), elasticity=elasticity)),
    st.sampled_from(list(ColliderType)), st.sampled_from([Shape.BOX, Shape.CIRCLE]), st.sampled_from([1, 2]),
    st.sampled_from([ALL, 1]), st.sampled_from([Side.ALL, Side.TOP]), st.booleans(), st.sampled_from([0.0, 0.5]))


def kind_bits(collider, physics):
    """One body's kind bits, as CollisionSystem documents them."""
    static = collider.type is ColliderType.STATIC
    return ((TRIGGER if collider.type is ColliderType.TRIGGER else 0)
            | (LAYERED if collider.mask != ALL or collider.category != 1 else 0)
            | (ONE_WAY if collider.sides is not Side.ALL else 0)
            | (MOVING_STATIC if static and physics is not None else 0)
            | (SHAPED if collider.shape is not Shape.BOX else 0)
            | (INELASTIC if physics is not None and physics.elasticity <= 0.0 else 0))


@given(st.lists(colliders, max_size=12))
def test_kinds_read_a_field_at_a_time_are_the_kinds_read_body_by_body(items):
    expected = 0
    for collider, physics in items:
        expected |= kind_bits(collider, physics)
    colliders_, physics_ = [c for c, _ in items], [p for _, p in items]
    assert kinds_of([c.type for c in colliders_], colliders_, physics_) == expected


@given(st.lists(st.tuples(st.integers(1, 30), st.floats(-300, 300), st.floats(-300, 300), st.floats(0, 90),
                          st.floats(0, 90), st.booleans()), max_size=30),
       st.lists(st.tuples(st.integers(1, 30), st.floats(-300, 300), st.floats(-300, 300), st.floats(0, 90),
                          st.floats(0, 90), st.booleans()), max_size=30),
       st.booleans())
def test_filing_many_at_once_files_as_one_by_one(before, batch, flush):
    batch = list({entity: item for entity, *item in batch}.items())  # one row per entity
    one, many = SpatialGrid(16.0), SpatialGrid(16.0)
    for grid in (one, many):
        for entity, x, y, w, h, fixed in before:
            grid.insert(entity, (x, y, w, h), fixed)
        if flush:
            grid.cells  # noqa: B018 (brings the cells up to date)
    for entity, (x, y, w, h, fixed) in batch:
        one.insert(entity, (x, y, w, h), fixed)
    many.insert_many([entity for entity, _ in batch], np.array([item[:4] for _, item in batch]).reshape(-1, 4),
                     [entity for entity, item in batch if item[4]])
    assert many.boxes == one.boxes and many.fixed == one.fixed
    assert list(many.boxes) == list(one.boxes)
    # The cells list their entities in the order they were filed.
    assert many.cells == one.cells and many.fixed_cells == one.fixed_cells
    assert [list(cell) for cell in many.cells.values()] == [list(cell) for cell in one.cells.values()]
    assert many.large == one.large and many.fixed_large == one.fixed_large


def test_a_collider_changed_in_place_counts_once_it_becomes_level_geometry():
    # A body without Physics turned STATIC in place is read with the movers
    # until the bodies are next sorted into level geometry and the rest (here
    # when a block of level geometry is made SOLID in place). Made a circle
    # meanwhile, it must still count as one: the compiled sweeps, which take
    # boxes only, must not run while it is in the world.
    world = World(continuous=True)
    world.create_entity(Transform((-20, 0)), Collider((20, 200), type=ColliderType.STATIC))
    block = world.create_entity(Transform((300, 300)), Collider((8, 8), type=ColliderType.STATIC))
    post = world.create_entity(Transform((100, 100)), Collider((8, 8)))
    for i in range(6):
        world.create_entity(Transform((20.0 * i, 10)), Collider((8, 8)), Physics((50, 0), elasticity=1.0))
    world.step(DT)
    world.component_for_entity(post, Collider).type = ColliderType.STATIC
    world.step(DT)
    world.component_for_entity(post, Collider).shape = Shape.CIRCLE
    world.component_for_entity(block, Collider).type = ColliderType.SOLID
    world.step(DT)
    world.step(DT)
    assert post in world.collision._resting.entities  # (sorted into level geometry by now)
    assert world.collision.kinds & SHAPED


def test_level_geometry_moved_this_step_says_so_when_looked_up_after_it():
    world = World()
    floor = world.create_entity(Transform((0, 100)), Collider((200, 10), type=ColliderType.STATIC))
    world.create_entity(Transform((50, 0)), Collider((8, 8)), Physics((0, 0)))
    world.step(DT)
    world.component_for_entity(floor, Transform).position.y += 5  # moved in place between steps
    world.step(DT)
    body = world.collision.bodies[floor]  # made after the step settled where it starts next
    assert body.moved and body.box == (0.0, 105.0, 200.0, 10.0)
    world.step(DT)
    assert not world.collision.bodies[floor].moved


@pytest.mark.parametrize("change", ["position", "previous_position", "offset", "size"])
def test_one_tile_of_a_large_level_changed_in_place_is_seen_and_only_it(change, monkeypatch):
    # A level of 100 tiles: enough to be compared where pygame keeps the vectors when the
    # kernels are compiled (``storage.FEW``), from Python otherwise. Each vector that files a
    # tile, changed in place between steps, must have the tile read anew that step.
    world = World()
    tiles = [world.create_entity(Transform((16.0 * k, 200)), Collider((16, 16), type=ColliderType.STATIC))
             for k in range(100)]
    world.create_entity(Transform((50, 0)), Collider((8, 8)), Physics((0, 0)))
    world.step(DT)
    world.step(DT)
    tile = tiles[37]
    transform, collider = world.component_for_entity(tile, Transform), world.component_for_entity(tile, Collider)
    vector = {"position": transform.position, "previous_position": transform.previous_position,
              "offset": collider.offset, "size": collider.size}[change]
    vector.y += 4.0
    read_anew = []
    refresh = collide.refresh
    monkeypatch.setattr(collide, "refresh", lambda body, grid: (read_anew.append(body.entity), refresh(body, grid)))
    world.step(DT)
    assert read_anew == [tile]
    body = world.collision.bodies[tile]
    # Where it is after the step: a tile without Physics ends the step where it was put.
    top = 200.0 + (4.0 if change in ("position", "offset") else 0.0)
    height = 16.0 + (4.0 if change == "size" else 0.0)
    assert body.box == (16.0 * 37, top, 16.0, height)
    world.close()


def test_the_bodies_are_one_read_only_mapping_that_follows_the_steps():
    world = World()
    a = world.create_entity(Transform((0, 0)), Collider((8, 8)), Physics((60, 0)))
    b = world.create_entity(Transform((8, 0)), Collider((8, 8)), Physics((0, 0)))
    world.step(DT)
    kept = world.collision.bodies
    world.step(DT)
    assert kept is world.collision.bodies and kept[a].neighbours == [b] and kept[b].neighbours == [a]
    with pytest.raises(TypeError, match="read-only"):
        kept[a] = kept[b]
    with pytest.raises(TypeError, match="read-only"):
        kept.pop(a)
    fresh = World()
    fresh.create_entity(Transform((0, 0)), Collider((8, 8)), Physics((60, 0)))
    fresh.create_entity(Transform((30, 0)), Collider((8, 8)), Physics((0, 0)))
    fresh.step(DT)
    bodies = fresh.collision.bodies
    assert bodies.made() == []  # apart: no pair, so nothing made yet
    assert list(bodies.copy()) == [1, 2] and bodies == dict(bodies.items()) and "Body(entity=2" in repr(bodies)
    world.close()
    fresh.close()
