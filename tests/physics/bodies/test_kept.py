"""Fields that change only by assignment are read once and kept until one is assigned.

The stamps (``components._checks.assignments``, ``replacements``) and ``Kept`` are checked directly; then each
kept field is assigned mid-game and the next step must follow the new value, with the
expected motion worked out from the collision formulas, Coulomb friction and free fall.
"""

import pytest
from pygame import Vector2

from components import ALL, Collider, ColliderType, Physics, Transform
from components._checks import assignments, replacements
from ecs import World
from helpers import DT, box, position, run, velocity, wall
from systems.physics._bodies.kept import Kept


def test_assignments_stamp_values_that_are_not_vectors_and_replacements_the_vectors():
    physics = Physics()
    before_physics, before_collider = assignments(Physics), assignments(Collider)
    vectors = replacements(Physics)
    physics.velocity.x = 5.0  # changed in place: the same object, no stamp
    assert (assignments(Physics), replacements(Physics)) == (before_physics, vectors)
    physics.velocity = (3.0, 4.0)  # a new Vector2: stamped as a replacement only
    assert assignments(Physics) == before_physics and replacements(Physics) != vectors
    physics.mass = 2.0
    after_mass = assignments(Physics)
    assert after_mass != before_physics
    physics.max_speed = None
    assert assignments(Physics) not in (before_physics, after_mass)  # each assignment a new stamp
    assert assignments(Collider) == before_collider  # each class stamps its own


def test_a_subclass_shares_its_component_class_count():
    class Heavy(Physics):
        pass

    before = assignments(Physics)
    Heavy().friction = 0.5
    assert assignments(Physics) > before


def test_a_bad_value_is_refused_and_not_stamped():
    physics = Physics()
    before = assignments(Physics)
    with pytest.raises(ValueError, match="mass"):
        physics.mass = -1.0
    assert assignments(Physics) == before


def test_kept_reads_again_only_after_an_assignment_or_for_other_sources():
    reads = []
    colliders = [Collider((4, 4))]
    kept = Kept(lambda listed: reads.append(1) or [c.category for c in listed])
    assert kept(colliders) == [1]
    assert kept(colliders) == [1] and len(reads) == 1
    colliders[0].size = (8, 8)  # a Vector2: not what Kept keeps
    assert kept(colliders) == [1] and len(reads) == 1
    colliders[0].category = 4
    assert kept(colliders) == [4] and len(reads) == 2
    Physics().mass = 3.0  # any Physics or Collider assigned anywhere: read again
    kept(colliders)
    assert len(reads) == 3
    assert kept(list(colliders)) == [4] and len(reads) == 4  # another list


def test_kept_vectors_are_listed_again_only_after_a_vector_is_assigned():
    reads = []
    transforms = [Transform((1, 2))]
    kept = Kept(lambda listed: reads.append(1) or [t.position for t in listed], vectors=True)
    first = kept(transforms)
    transforms[0].position.x = 7.0  # in place: the listed object holds the new value
    assert kept(transforms) is first and first[0].x == 7.0 and len(reads) == 1
    transforms[0].position = (8, 9)  # a new object: listed again, and the list holds it
    assert kept(transforms)[0] is transforms[0].position and len(reads) == 2


def test_mass_assigned_mid_game_sets_the_momentum_exchange(make_world):
    # Elastic head-on impact of A (1 kg at 60 px/s) on B at rest, B made 3 kg after two steps:
    # vA' = (mA − mB)/(mA + mB)·v = −30, vB' = 2·mA/(mA + mB)·v = 30.
    world = make_world()
    a = box(world, 0, 0, velocity=(60, 0), elasticity=1.0)
    b = box(world, 12.5, 0, elasticity=1.0)
    run(world, 2)
    world.component_for_entity(b, Physics).mass = 3.0
    run(world, 2)
    assert velocity(world, a).x == pytest.approx(-30.0)
    assert velocity(world, b).x == pytest.approx(30.0)


def test_elasticity_assigned_mid_game_makes_a_body_bounce(make_world):
    # A box falling at 120 px/s (no gravity) onto a floor, made elastic (e = 0.5) in flight:
    # it leaves at e·v = 60 px/s upward.
    world = make_world()
    wall(world, -20, 20, 60, 10)
    ball = box(world, 0, 0, velocity=(0, 120))
    world.step(DT)
    world.component_for_entity(ball, Physics).elasticity = 0.5
    run(world, 10)
    assert velocity(world, ball).x == 0.0
    assert velocity(world, ball).y == pytest.approx(-60.0)


def test_friction_assigned_mid_game_sets_the_stopping_distance():
    # A crate sliding at 120 px/s on a floor under g = 600 px/s², its friction raised from 0
    # to μ = 0.5 while it slides: it stops after v²/(2·μ·g) = 24 px.
    world = World(gravity=(0, 600), continuous=True)
    wall(world, -100, 10, 400, 10)
    crate = box(world, 0, 0, velocity=(120, 0))
    run(world, 3)  # settled on the floor, sliding freely
    assert velocity(world, crate).x == pytest.approx(120.0)
    start = position(world, crate).x
    world.component_for_entity(crate, Physics).friction = 0.5
    run(world, 60)
    assert velocity(world, crate).x == 0.0
    assert position(world, crate).x - start == pytest.approx(24.0, abs=2.0)  # within a step's travel


def test_gravity_scale_assigned_mid_game_sets_the_fall(make_world):
    # g = 600 px/s², a body floating (scale 0) made to fall at scale 0.5: after n steps of
    # semi-implicit Euler its speed is 0.5·g·n·dt.
    world = make_world(gravity=(0, 600))
    body = box(world, 0, 0, gravity_scale=0.0)
    run(world, 3)
    assert velocity(world, body).y == 0.0
    world.component_for_entity(body, Physics).gravity_scale = 0.5
    run(world, 6)
    assert velocity(world, body).y == pytest.approx(0.5 * 600 * 6 * DT)


@pytest.mark.parametrize("change", ["mask", "category", "type"])
def test_a_layer_or_type_assigned_mid_game_lets_a_body_through(change, make_world):
    # A box at 300 px/s toward a wall 20 px away: stopped, unless its mask, its category (the
    # wall's mask leaving it out) or its type (a TRIGGER) changes before it gets there.
    world = make_world()
    wall_entity = world.create_entity(Transform((30, -20)), Collider((10, 50), type=ColliderType.STATIC, mask=ALL & ~4))
    mover = box(world, 0, 0, velocity=(300, 0))
    world.step(DT)
    collider = world.component_for_entity(mover, Collider)
    if change == "mask":
        collider.mask = ALL & ~1
    elif change == "category":
        collider.category = 4
    else:
        collider.type = ColliderType.TRIGGER
    run(world, 6)
    assert position(world, mover).x == pytest.approx(7 * 300 * DT)
    assert world.component_for_entity(wall_entity, Transform).position == Vector2(30, -20)
