"""Invariants under random scenes (hypothesis), both pipelines, boxes and circles.

- Free bodies conserve momentum.
- Frictionless scenes with elasticity <= 1 and no gravity never gain kinetic
  energy in a step (each pairwise exchange with e <= 1 keeps or loses
  energy; only a support wrongly treated as an infinite mass adds any), and
  in a step without a STATIC contact total momentum is unchanged.
- A closed arena keeps everything in, STATICs never move, nothing is NaN,
  no entity is lost.

Counts: the "ci" profile (CI) and "dev" profile (local default) run a few
dozen examples per test; ``pytest tests/physics/test_properties.py
--hypothesis-profile=long`` runs thousands.
"""

import math

import pytest
from hypothesis import assume, example, given
from hypothesis import strategies as st
from pygame import Vector2

from components import Collider, ColliderType, Physics, Shape, Transform
from ecs import World
from helpers import DT, box, kinetic_energy, momentum, position, run, velocity, wall

SIDE = 200.0  # px, inside of the arena
WALL = 60.0  # px: thicker than any body moves in a step here (3000 px/s = 50 px)

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

shapes = st.lists(
    st.tuples(
        st.booleans(),  # round?
        st.floats(4, 20),  # size (px): width, or diameter
        st.floats(4, 20),  # height of a box (px)
        st.floats(0, 1), st.floats(0, 1),  # where in the arena, as fractions
        st.floats(-1, 1), st.floats(-1, 1),  # velocity, as fractions of the top speed
        st.floats(0.2, 5),  # mass
        st.floats(0, 1),  # elasticity
        st.floats(0, 1),  # friction
    ),
    min_size=1,
    max_size=8,
)


def arena(world: World) -> list[int]:
    """Four STATIC walls, WALL px thick, around [0, SIDE]²."""
    return [
        wall(world, -WALL, -WALL, SIDE + 2 * WALL, WALL),
        wall(world, -WALL, SIDE, SIDE + 2 * WALL, WALL),
        wall(world, -WALL, 0, WALL, SIDE),
        wall(world, SIDE, 0, WALL, SIDE),
    ]


def top_speed(continuous: bool) -> float:
    """px/s. Swept: 3000 (50 px per step against 60 px walls). Discrete: 900,
    so that a light body struck by a heavy one (up to (1 + e)·25/26 times
    faster) still moves less than the walls are thick in a step: beyond
    that the discrete pipeline tunnels by design."""
    return 3000.0 if continuous else 900.0


def populate(world: World, specs, speed: float, frictionless: bool = False) -> list[int]:
    """One body per spec, placed inside the arena, velocities scaled to ``speed``."""
    made = []
    for round_, w, h, fx, fy, vx, vy, m, e, f in specs:
        h = w if round_ else h
        corner = (fx * (SIDE - w), fy * (SIDE - h))
        made.append(world.create_entity(
            Transform(corner), Collider((w, h), shape=Shape.CIRCLE if round_ else Shape.BOX),
            Physics(velocity=(vx * speed, vy * speed), mass=m, elasticity=e,
                    friction=0.0 if frictionless else f)))
    return made


def step_within_reach(world: World, entities: list[int], continuous: bool) -> None:
    """One step; for the discrete pipeline, discard the scene if a body moved
    farther than the walls are thick (it tunnels by design there)."""
    world.step(DT)
    if not continuous:
        assume(all((position(world, e) - world.component_for_entity(e, Transform).previous_position).length()
                   < WALL - 20 for e in entities))


def momentum_scale(world, entities):
    return sum(velocity(world, e).length() * world.component_for_entity(e, Physics).mass for e in entities)


@pytest.mark.parametrize("continuous", [False, True], ids=["discrete", "continuous"])
@given(specs=bodies, steps=st.integers(1, 5))
def test_free_bodies_conserve_momentum(continuous, specs, steps):
    world = World(continuous=continuous)
    entities = [box(world, x, y, velocity=(vx, vy), mass=m, elasticity=e, friction=f)
                for x, y, vx, vy, m, e, f in specs]
    before = momentum(world, entities)
    scale = 1 + momentum_scale(world, entities)
    run(world, steps)
    assert (momentum(world, entities) - before).length() <= 1e-9 * scale


@pytest.mark.parametrize("continuous", [False, True], ids=["discrete", "continuous"])
@given(specs=shapes)
def test_frictionless_scenes_never_gain_energy_nor_momentum_away_from_walls(continuous, specs):
    world = World(continuous=continuous)
    walls = set(arena(world))
    entities = populate(world, specs, top_speed(continuous), frictionless=True)
    for step in range(30):
        energy, moment = kinetic_energy(world, entities), momentum(world, entities)
        scale = 1 + momentum_scale(world, entities)
        step_within_reach(world, entities, continuous)
        gained = kinetic_energy(world, entities) - energy
        assert gained <= 1e-9 * max(energy, 1.0), f"step {step}: +{gained}"
        if not any(c.a in walls or c.b in walls for c in world.contacts if not c.trigger):
            assert (momentum(world, entities) - moment).length() <= 1e-9 * scale, f"step {step}"


# Two piles the long profile found in the continuous pipeline (bodies
# spawned on one corner spot under oblique gravity, and a pile hit by a fast
# box): 0.01–0.09 px past the tolerance before crush centring was fixed
# (commit f3fbbd8); kept here, in both pipelines, so they stay fixed.
_CORNER_PILE = [(False, 4.0, 4.0, 0.0, 0.0, 0.0, 0.0, 4.0, 0.0, 0.2)] * 2 + [
    (True, 17.094272413429795, 4.0, 0.0, 0.0, 0.0, 0.0, 1.8714817972662687, 0.0, 0.0)] + [
    (False, 4.0, 4.0, 0.0, 0.0, 0.0, 0.0, 4.0, 0.0, 0.2)] * 2 + [
    (False, 4.0, 4.0, 0.0, 0.0, 0.0, 0.0, 4.0, 0.0, 0.0),
    (False, 4.0, 4.0, 0.0, 0.0, 0.0, 0.46710419184184293, 2.3477097253804993, 0.0, 0.0),
    (False, 4.0, 4.0, 0.0, 0.0, 0.0, 0.0, 4.0, 0.0, 0.0)]
_STRUCK_PILE = [(False, 4.0, 4.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0),
                (False, 4.0, 4.0, 0.0, 0.0, 0.0, 0.0, 0.25, 0.0, 0.0)] + [
    (False, 4.0, 4.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0)] * 4 + [
    (False, 4.0, 4.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0)]


@pytest.mark.parametrize("continuous", [False, True], ids=["discrete", "continuous"])
@given(specs=shapes, gravity=st.sampled_from([(0, 0), (0, 980), (700, -400)]))
@example(specs=_CORNER_PILE, gravity=(700, -400))
@example(specs=_STRUCK_PILE, gravity=(0, 0))
def test_closed_arena_keeps_everything_in_finite_and_statics_still(continuous, specs, gravity):
    # Bodies move less than the 60 px walls are thick in a step: the discrete
    # pipeline must hold too, circles included.
    world = World(gravity=gravity, continuous=continuous)
    walls = arena(world)
    starts = [tuple(position(world, w)) for w in walls]
    entities = populate(world, specs, top_speed(continuous))
    for _ in range(90):
        step_within_reach(world, entities, continuous)
    assert [tuple(position(world, w)) for w in walls] == starts
    for e in entities:
        p, v = position(world, e), velocity(world, e)
        assert all(math.isfinite(c) for c in (p.x, p.y, v.x, v.y))
        size = world.component_for_entity(e, Collider).size
        assert -0.5 <= p.x and p.x + size.x <= SIDE + 0.5, (e, p)
        assert -0.5 <= p.y and p.y + size.y <= SIDE + 0.5, (e, p)
    assert len(world.get_component(Transform)) == len(walls) + len(entities)
    assert all(c.type is ColliderType.STATIC for _, c in world.get_component(Collider)
               if _ in walls)


def corner_ramps(world: World, corner: float) -> dict[int, tuple[tuple[float, float, float, float], tuple[int, int]]]:
    """A STATIC right-triangle ramp of side ``corner`` px in each corner of the arena, its
    right angle in the corner (a bowl): each ramp's entity, box and right angle's corner."""
    far = SIDE - corner
    ramps = {}
    for x, y, shape, right_angle in ((0, 0, Shape.TRIANGLE_TOP_LEFT, (-1, -1)),
                                     (far, 0, Shape.TRIANGLE_TOP_RIGHT, (1, -1)),
                                     (0, far, Shape.TRIANGLE_BOTTOM_LEFT, (-1, 1)),
                                     (far, far, Shape.TRIANGLE_BOTTOM_RIGHT, (1, 1))):
        entity = world.create_entity(Transform((x, y)),
                                     Collider((corner, corner), type=ColliderType.STATIC, shape=shape))
        ramps[entity] = ((x, y, corner, corner), right_angle)
    return ramps


def step_inside_the_arena(world: World, entities: list[int], steps: int) -> None:
    """Step ``steps`` times; after every step no body may be outside [0, SIDE]² (0.5 px tolerance)."""
    for step in range(steps):
        world.step(DT)
        for e in entities:
            p, size = position(world, e), world.component_for_entity(e, Collider).size
            assert -0.5 <= p.x and p.x + size.x <= SIDE + 0.5 and -0.5 <= p.y and p.y + size.y <= SIDE + 0.5, (step, e, p)


@pytest.mark.parametrize("continuous", [False, True], ids=["discrete", "continuous"])
@given(specs=shapes, corner=st.floats(16, 60), gravity=st.sampled_from([(0, 0), (0, 980), (700, -400)]))
def test_ramps_in_the_arena_corners_keep_bodies_out_of_them_and_stay_still(continuous, specs, corner, gravity):
    # The arena with a right-triangle ramp of side ``corner`` px in each of
    # its corners (a bowl): every body ends outside every triangle (within
    # the 0.5 px touching tolerance), inside the arena, finite, and the
    # triangles never move.

    world = World(gravity=gravity, continuous=continuous)
    walls = arena(world)
    ramps = corner_ramps(world, corner)
    entities = populate(world, specs, top_speed(continuous))
    assume(not any(inside_ramp(world, e, ramps) for e in entities))  # spawned inside: see below
    for _ in range(90):
        step_within_reach(world, entities, continuous)
    for entity, (tri, _) in ramps.items():
        assert tuple(position(world, entity)) == tri[:2]
    for e in entities:
        p, v = position(world, e), velocity(world, e)
        assert all(math.isfinite(c) for c in (p.x, p.y, v.x, v.y))
        collider = world.component_for_entity(e, Collider)
        w, h = collider.size
        assert -0.5 <= p.x and p.x + w <= SIDE + 0.5 and -0.5 <= p.y and p.y + h <= SIDE + 0.5, (e, p)
        assert not inside_ramp(world, e, ramps), (e, p)


def inside_ramp(world, entity, ramps) -> bool:
    """Whether the body overlaps any of ``ramps`` by more than 0.5 px. (A
    body spawned deep inside a corner ramp, whose legs lie flush against the
    walls, is pushed out the nearest way, through a leg into a wall, and is
    then crushed between the two: the push-out resolves one pair at a time.
    The property is about bodies that start outside.)"""
    from systems.physics._shapes.triangle import box_overlaps_triangle, circle_triangle_penetration

    p, collider = position(world, entity), world.component_for_entity(entity, Collider)
    w, h = collider.size
    for tri, right_angle in ramps.values():
        if collider.shape is Shape.CIRCLE:
            if circle_triangle_penetration(p + Vector2(w / 2, w / 2), w / 2 - 0.5, tri, right_angle) is not None:
                return True
        elif box_overlaps_triangle((p.x + 0.5, p.y + 0.5, w - 1, h - 1), tri, right_angle):
            return True
    return False


BOXES_IN_A_CORNER = [(False, 4.0, 4.0, 0.0, 0.5, 0.0, 0.0, 1.0, 0.0, 0.0)] * 6


# Found by the ramps property above, in the discrete pipeline, each into a corner where a
# ramp's leg lies flush against a wall, and each once left 2 to 2.5 px inside the wall, the
# ramp and the wall pushing it back and forth:
# - under gravity (700, -400) px/s², a 4 or 5 px circle flying right at about 650 px/s
#   (10.8 px a step): with a 16 px ramp its centre crossed the ramp's tip (4.6 px thick at its
#   height) and ended past the leg; with a 17 px one it passed just under the tip and ended in
#   the tip's corner region. The nearest way out of the ramp was into the wall. A disc that was
#   clear at the start of the step now leaves the way it came in (see test_impact's ramp tests).
# - without gravity, a 4 px box sliding down the wall at 900 px/s (15 px a step) that started
#   the step 0.28 px inside the tip of an 18 px ramp (within the touching tolerance) and ended
#   deep inside it. Its least way out at the end was the leg, into the wall. A box already
#   overlapping now leaves by the least way out as the step began, as two boxes do: the slope.
# - under gravity (700, -400) px/s², a 4 px circle jammed with five other bodies against the
#   tip of a 19.2 px ramp, a hair inside it when a step began: the least way out at the end was
#   the ramp's top leg, flush against the ceiling, and it was crushed 2 px into the ceiling. A
#   disc already in a ramp now leaves by the way out it had as the step began.
@pytest.mark.parametrize("corner, gravity, specs", [
    (16.0, (700, -400), [(True, 4.0, 4.0, 0.2109375, 0.125, 0.5, 0.0, 1.0, 0.0, 0.0)]),
    (17.0, (700, -400),
     BOXES_IN_A_CORNER + [(True, 5.0, 4.0, 0.203125, 0.138671875, 0.5078125, 0.017578125, 1.0, 0.0, 0.0)]),
    (18.0, (0, 0), BOXES_IN_A_CORNER[:2] + [(False, 4.0, 4.0, 0.0, 0.91015625, 0.0, 1.0, 1.0, 0.0, 0.0)]),
    (19.211765882546402, (700, -400), [
        (False, 4.0, 15.0, 0.375, 1.0, -0.74609375, 0.109375, 4.734375, 0.37109375, 0.07556648038981419),
        (False, 7.5625, 4.0, 0.0, 0.625, -0.6988065095871829, -0.5392735889697254, 1.360399228316004,
         0.6164570832315245, 0.0),
        (True, 4.0, 4.0, 0.7678784804510426, 0.02463935713343513, 1e-09, 0.4438673735038299, 0.984375,
         0.7701260746505689, 0.5),
        (True, 20.0, 4.0, 0.834911691511091, 0.5100145208814982, 0.0, -0.6038375037847298, 0.9942619761169476,
         0.2498901363623423, 0.75),
        (True, 4.5, 4.0, 0.59375, 0.96875, -0.11933367839084341, 0.12236748737705638, 4.0, 0.9353259468250634,
         0.4664416025854793),
        (True, 7.5625, 4.0, 0.3333333333333333, 0.3119701356134435, 0.0, -0.34801564829531884, 4.872924240694516,
         0.2874336369963893, 0.45680731021640175)]),
], ids=["circle through the tip", "circle under the tip", "box into the tip", "circle in a pile at the tip"])
def test_a_body_flying_into_a_ramp_corner_stays_in_the_discrete_arena(corner, gravity, specs):
    world = World(gravity=gravity, continuous=False)
    arena(world)
    corner_ramps(world, corner)
    step_inside_the_arena(world, populate(world, specs, top_speed(False)), 90)


def test_a_pile_spawned_in_a_corner_stays_in_the_discrete_arena():
    # Seven boxes spawned overlapping at the arena's top-left corner, one
    # moving left at 450 px/s (7.5 px a step, far less than the 60 px wall).
    # Nothing may end a step outside [0, SIDE]² (0.5 px tolerance). Found
    # by the long hypothesis profile: on the first step the mover's pushes
    # went to the pile's chain of shared pushes, its per-body cap ran out
    # before its pair with the wall came up, and it was left 6 px inside the
    # wall, to be pushed out through the far side later.
    specs = [(False, 4.0, 4.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0), (False, 4.0, 4.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0),
             (False, 4.0, 6.0, 0.0078125, 0.125, 0.0, -0.5, 1.0, 0.0, 0.0),
             (False, 8.0, 4.0, 0.0078125, 0.125, -0.5, 0.0, 1.0, 0.0, 0.0),
             (False, 4.0, 4.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0), (False, 6.0, 4.0, 0.0, 0.125, 0.0, 0.0, 1.0, 0.0, 0.0),
             (False, 8.0, 4.0, 0.0, 0.125, 0.0, 0.0, 1.0, 0.0, 0.0)]
    world = World(continuous=False)
    arena(world)
    step_inside_the_arena(world, populate(world, specs, top_speed(False)), 90)
