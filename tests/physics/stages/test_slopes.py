"""Slopes and crushing: right-triangle tiles in the pipeline, ground snap, crushed bodies.

Expected values come from the geometry of the ramps (hypotenuse normals
(−sx·h, −sy·w)/√(w² + h²)), from Coulomb's law on an incline
(a = g·(sin θ − μ·cos θ), at rest when μ ≥ tan θ) and from the positions of
the squeezing surfaces.
"""

import math

import pytest
from pygame import Vector2

from components import Collider, ColliderType, Physics, Shape, Touching, Transform
from helpers import DT, position, run, velocity, wall

G = 980.0
SLOPES = {  # shape: (its hypotenuse normal for a square box, the direction bodies come from)
    Shape.TRIANGLE_BOTTOM_RIGHT: (Vector2(-1, -1), Vector2(0, 1)),   # "/": a floor, land from above
    Shape.TRIANGLE_BOTTOM_LEFT: (Vector2(1, -1), Vector2(0, 1)),     # "\": a floor
    Shape.TRIANGLE_TOP_RIGHT: (Vector2(-1, 1), Vector2(0, -1)),      # a ceiling slope, hit from below
    Shape.TRIANGLE_TOP_LEFT: (Vector2(1, 1), Vector2(0, -1)),
}


def ramp(world, x, y, w, h, shape, **physics):
    parts = [Transform((x, y)), Collider((w, h), type=ColliderType.STATIC, shape=shape)]
    if physics:
        parts.append(Physics(**physics))
    return world.create_entity(*parts)


def body(world, x, y, d=10.0, round_=False, **physics):
    return world.create_entity(Transform((x, y)), Collider((d, d), shape=Shape.CIRCLE if round_ else Shape.BOX),
                               Physics(**physics), Touching())


@pytest.mark.parametrize("shape", list(SLOPES))
@pytest.mark.parametrize("round_", [False, True], ids=["box", "circle"])
def test_a_body_meeting_each_slope_gets_its_hypotenuse_normal(make_world, shape, round_):
    # A 100 px square triangle at (0, 0); a 10 px body moves at 600 px/s
    # straight at the middle of its hypotenuse from the open side. The ramp
    # (entity a) sees the body through its slope: normal (±1, ±1)/√2.
    normal, toward = SLOPES[shape]
    world = make_world()
    ramp(world, 0, 0, 100, 100, shape)
    start = Vector2(45, 45) - toward * 60  # the slope passes through the box's centre (50, 50)
    mover = body(world, start.x, start.y, round_=round_, velocity=toward * 600)
    run(world, 6)
    contact = next(c for c in world.contacts if c.b == mover)
    assert contact.normal.x == pytest.approx(normal.x / math.sqrt(2))
    assert contact.normal.y == pytest.approx(normal.y / math.sqrt(2))


def on_slope(world, w, h, mu, round_=False):
    """A "/" ramp of w × h px at (0, 0) (surface y = h − x·h/w) and a 10 px
    body resting on it at x = 300, touching with its lowest corner."""
    ramp(world, 0, 0, w, h, Shape.TRIANGLE_BOTTOM_RIGHT)
    slope = h / w
    if round_:  # the centre lies r above the surface along its normal
        normal = Vector2(-slope, -1).normalize()  # out of the slope, up and to the left
        centre = Vector2(300, h - 300 * slope) + normal * 5
        return body(world, centre.x - 5, centre.y - 5, round_=True, friction=mu)
    return body(world, 290, h - 300 * slope - 10, friction=mu)  # bottom-right corner on the surface


@pytest.mark.parametrize("round_", [False, True], ids=["box", "circle"])
@pytest.mark.parametrize("w, h, mu", [
    (400, 400, 0.0),    # 45°, frictionless: a = g·sin 45° = 693 px/s²
    (400, 400, 0.4),    # 45°, μ = 0.4: a = g·(sin 45° − 0.4·cos 45°) = 415.8 px/s²
    (400, 200, 0.0),    # 26.6° (a 2:1 ramp): a = g/√5 = 438.3 px/s²
    (400, 200, 0.25),   # 26.6°, μ = 0.25: a = g·(1 − 0.25·2)/√5 = 219.1 px/s²
])
def test_on_a_ramp_a_body_slides_down_by_coulombs_law(make_world, round_, w, h, mu):
    world = make_world(gravity=(0, G))
    theta = math.atan2(h, w)
    expect = 0.5 * G * (math.sin(theta) - mu * math.cos(theta)) * 1.0 ** 2  # after one second
    slider = on_slope(world, w, h, mu, round_)
    start = Vector2(position(world, slider))
    run(world, 60)
    moved = position(world, slider) - start
    assert moved.length() == pytest.approx(expect, rel=0.05)
    assert moved.x < 0 and moved.y > 0 and moved.y / -moved.x == pytest.approx(h / w, rel=0.02)  # along it


@pytest.mark.parametrize("round_", [False, True], ids=["box", "circle"])
def test_on_a_45_degree_ramp_friction_of_one_holds_a_body_still(make_world, round_):
    # μ ≥ tan 45° = 1: static friction can hold the whole g·sin θ.
    world = make_world(gravity=(0, G))
    resting = on_slope(world, 400, 400, 1.0, round_)
    run(world, 30)
    start = Vector2(position(world, resting))
    for _ in range(120):
        world.step(DT)
        assert velocity(world, resting).length() < 1
        assert world.component_for_entity(resting, Touching).down
    assert position(world, resting).distance_to(start) < 1


class Walk:
    """Sets the walkers' horizontal velocity every step, like a player control."""

    def __init__(self, world, entities, speed):
        self.world, self.entities, self.speed = world, entities, speed

    def process(self, dt):
        for entity in self.entities:
            velocity(self.world, entity).x = self.speed


def profile(x, pieces):
    """The surface height under x of a floor made of (x0, y0, x1, y1) pieces."""
    return min(y0 + (y1 - y0) * (x - x0) / (x1 - x0) for x0, y0, x1, y1 in pieces if x0 <= x <= x1)


def clearance(world, entity, pieces, round_):
    """Smallest gap (px) between the body's underside and the floor: < 0 is inside it."""
    where = position(world, entity)
    if round_:
        centre = where + Vector2(5, 5)
        points = [centre + Vector2(0, 5).rotate(a) for a in range(-80, 81, 5)]
    else:
        points = [Vector2(where.x + i, where.y + 10) for i in (0, 2.5, 5, 7.5, 10)]
    inside = [p for p in points if pieces[0][0] <= p.x <= pieces[-1][2]]
    return min(profile(p.x, pieces) - p.y for p in inside)


@pytest.mark.parametrize("direction", [1, -1], ids=["rightward", "leftward"])
@pytest.mark.parametrize("round_", [False, True], ids=["box", "circle"])
def test_walking_over_flat_ramp_ramp_flat_seams_never_snags(make_world, direction, round_):
    # Flat (y = 200) → two 2:1 ramp tiles in a row up to y = 100 → flat. A
    # body walking at 150 px/s with ground_snap = 8 crosses every seam: it
    # never stops (x advances every step) and never leaves the surface by
    # more than 0.5 px (no bump), in both directions.
    # Walking left, the same level mirrored about x = 350.
    world = make_world(gravity=(0, G))
    up = Shape.TRIANGLE_BOTTOM_RIGHT if direction > 0 else Shape.TRIANGLE_BOTTOM_LEFT

    def left(x, w):
        return x if direction > 0 else 700 - x - w

    for x, y, w, h in [(0, 200, 200, 50), (400, 100, 300, 150), (300, 150, 100, 100)]:
        wall(world, left(x, w), y, w, h)
    for x, y in [(200, 150), (300, 100)]:
        ramp(world, left(x, 100), y, 100, 50, up)
    pieces = [(0, 200, 200, 200), (200, 200, 300, 150), (300, 150, 400, 100), (400, 100, 700, 100)]
    if direction < 0:
        pieces = [(700 - x1, y1, 700 - x0, y0) for x0, y0, x1, y1 in reversed(pieces)]
    start = left(150, 10)
    walker = body(world, start, 190, round_=round_, ground_snap=8.0)
    world.add_system(Walk(world, [walker], 150 * direction), priority=400)
    run(world, 3)
    xs = [position(world, walker).x]
    for step in range(110):  # 275 px of walking at 150 px/s along the level
        world.step(DT)
        xs.append(position(world, walker).x)
        assert (xs[-1] - xs[-2]) * direction > 0.5, f"stopped at step {step}"
        gap = clearance(world, walker, pieces, round_)
        assert -0.5 <= gap <= 0.5, f"step {step}: {gap:.2f} px off the floor"
        assert world.component_for_entity(walker, Touching).down


@pytest.mark.parametrize("snap, stays", [(8.0, True), (0.0, False)])
def test_ground_snap_keeps_a_walker_on_a_45_degree_ramp_down(make_world, snap, stays):
    # Walking right at 200 px/s down a 45° "\" ramp: each step the floor
    # drops 3.33 px under the walker's 3.33 px of travel, more than gravity
    # pulls it down from rest (g·dt² = 0.27 px), so without snapping it flies
    # off; with 8 px of snap it stays on, every step, then walks onto the
    # flat floor at the ramp's foot (y = 300).
    world = make_world(gravity=(0, G))
    wall(world, 0, 100, 200, 20)
    ramp(world, 200, 100, 200, 200, Shape.TRIANGLE_BOTTOM_LEFT)
    wall(world, 200, 300, 400, 20)
    walker = body(world, 150, 90, ground_snap=snap)
    world.add_system(Walk(world, [walker], 200), priority=400)
    run(world, 2)
    downs = []
    for _ in range(100):
        world.step(DT)
        downs.append(world.component_for_entity(walker, Touching).down)
    assert all(downs) is stays
    assert position(world, walker).y == pytest.approx(290)  # on the flat at the foot either way by now
    assert position(world, walker).x > 400


def test_ground_snap_never_pulls_through_a_one_way_platform_from_below_nor_onto_a_trigger(make_world):
    from components import Side

    world = make_world(gravity=(0, G))
    wall(world, -100, 200, 400, 20)
    world.create_entity(Transform((-100, 150)), Collider((400, 4), type=ColliderType.STATIC, sides=Side.TOP))
    world.create_entity(Transform((-100, 120)), Collider((400, 4), type=ColliderType.TRIGGER))
    jumper = body(world, 0, 190, ground_snap=8.0)
    run(world, 2)
    velocity(world, jumper).y = -400  # a jump up through the one-way platform: apex 400²/(2·980) = 81.6 px
    ys = []
    for _ in range(60):
        world.step(DT)
        ys.append(position(world, jumper).y)
    # Up through the platform (y 150..154) without being caught: its bottom
    # rises to 200 − 81.6 = 118 < 150; then down onto the platform's top,
    # 150 − 10 = 140, never snapped onto the trigger at y = 120 on the way.
    assert min(ys) == pytest.approx(190 - 400 ** 2 / (2 * G), abs=400 * DT)
    assert ys[-1] == pytest.approx(140)


@pytest.mark.parametrize("shape", list(SLOPES))
@pytest.mark.parametrize("side", ["left", "right", "top", "bottom"])
@pytest.mark.parametrize("round_", [False, True], ids=["box", "circle"])
def test_nothing_tunnels_through_a_triangle_at_3000_px_s(shape, side, round_):
    # 50 px per step at a 16 px triangle from each side. The swept pipeline
    # stops the body at a leg or deflects it along the slope (over or under
    # the triangle): it is never inside the triangle, and never past its far
    # side while still level with it.
    from ecs import World
    from systems.physics._shapes.triangle import box_overlaps_triangle, circle_triangle_penetration

    world = World()
    ramp(world, 100, 100, 16, 16, shape)
    corner = {Shape.TRIANGLE_BOTTOM_LEFT: (-1, 1), Shape.TRIANGLE_BOTTOM_RIGHT: (1, 1),
              Shape.TRIANGLE_TOP_LEFT: (-1, -1), Shape.TRIANGLE_TOP_RIGHT: (1, -1)}[shape]
    start, speed = {"left": ((20, 103), (3000, 0)), "right": ((186, 103), (-3000, 0)),
                    "top": ((103, 20), (0, 3000)), "bottom": ((103, 186), (0, -3000))}[side]
    mover = body(world, *start, round_=round_, velocity=speed)
    axis = 0 if side in ("left", "right") else 1
    for _ in range(6):
        world.step(DT)
        p = position(world, mover)
        if round_:  # the disc: its centre at least r − 0.5 px from the triangle
            centre = p + Vector2(5, 5)
            assert circle_triangle_penetration(centre, 4.5, (100, 100, 16, 16), corner) is None
            low, high, near = centre[1 - axis], centre[1 - axis], centre[axis]
        else:  # the box, shrunk by half a pixel of tolerance all round
            assert not box_overlaps_triangle((p.x + 0.5, p.y + 0.5, 9, 9), (100, 100, 16, 16), corner)
            low, high = p[1 - axis], p[1 - axis] + 10
            near = p[axis] + 10 if side in ("left", "top") else p[axis]
        if low < 116 and high > 100:  # level with the triangle's rows (or columns): not past it
            assert near <= 116 + 1e-6 if side in ("left", "top") else near >= 100 - 1e-6


def test_a_body_walking_up_a_ramp_climbs_it_and_ends_on_the_flat_top(make_world):
    # Walking at 150 px/s into a 2:1 ramp 100 px high: along the slope the
    # walk keeps its tangential part, so the climb goes on; at the top (y =
    # 100) it walks on, flat. Friction 0.3 against the bare ramp can take at
    # most μ times the normal impulse: the climb may slow, never stop.
    world = make_world(gravity=(0, G))
    wall(world, 0, 300, 200, 20)
    ramp(world, 200, 200, 200, 100, Shape.TRIANGLE_BOTTOM_RIGHT)
    wall(world, 400, 200, 300, 120)
    walker = body(world, 150, 290, friction=0.3, ground_snap=8.0)
    world.add_system(Walk(world, [walker], 150), priority=400)
    run(world, 150)
    assert position(world, walker).x > 450
    assert position(world, walker).y == pytest.approx(190)
    assert world.component_for_entity(walker, Touching).down


def test_a_body_squeezed_between_two_closing_statics_is_crushed_never_pushed_through(make_world):
    # Two walls close on a 10 px box at 120 px/s each (2 px per step each)
    # until their faces are 4 px apart. The box is crushed (the handler hears
    # it once per step while squeezed) and its centre stays between the faces.
    world = make_world()
    left = wall(world, 0, 0, 20, 40, velocity=(120, 0))
    right = wall(world, 60, 0, 20, 40, velocity=(-120, 0))
    squeezed = body(world, 35, 15)
    crushed = []
    world.on_crush(crushed.append)
    for step in range(20):
        if position(world, right).x - (position(world, left).x + 20) <= 4:
            velocity(world, left).x = velocity(world, right).x = 0
        world.step(DT)
        centre = position(world, squeezed).x + 5
        assert position(world, left).x + 20 <= centre <= position(world, right).x
    assert crushed and set(crushed) == {squeezed}
    assert len(crushed) == len(set(enumerate(crushed)))  # at most once per step


def test_a_row_of_boxes_pushed_into_a_wall_is_crushed_together(make_world):
    # A STATIC pusher closes at 120 px/s on two 10 px boxes in a row against
    # a wall at x = 60, and stops with its face at 46: 14 px for 20 px of
    # boxes. Once the row is squeezed (pusher face past 40), both boxes are
    # crushed every step, and each centre stays between the two STATIC faces.
    world = make_world()
    pusher = wall(world, 0, 0, 20, 40, velocity=(120, 0))
    wall(world, 60, 0, 20, 40)
    boxes = [body(world, 40, 15), body(world, 30, 15)]
    crushed = []
    world.on_crush(crushed.append)
    for step in range(20):
        if position(world, pusher).x + 20 >= 46:
            velocity(world, pusher).x = 0
        crushed.clear()
        world.step(DT)
        face = position(world, pusher).x + 20
        for entity in boxes:
            assert face <= position(world, entity).x + 5 <= 60
        if face > 40:
            assert sorted(crushed) == sorted(boxes)


def test_a_lift_rising_into_a_ceiling_crushes_its_rider(make_world):
    # A lift rises at 60 px/s under a ceiling at y = 0 with a 10 px rider:
    # the rider's top meets the ceiling when the lift's top reaches y = 10,
    # then it is crushed and stays below the ceiling, above the lift's top.
    world = make_world(gravity=(0, G))
    wall(world, -50, -20, 200, 20)
    lift = wall(world, 0, 40, 60, 10, velocity=(0, 0))
    rider = body(world, 25, 30)
    crushed = []
    world.on_crush(crushed.append)
    run(world, 3)
    velocity(world, lift).y = -60
    for step in range(40):  # 1 px a step: 30 to the ceiling, then 7 of squeeze, then it stops 3 px short
        if position(world, lift).y <= 3:
            velocity(world, lift).y = 0
        world.step(DT)
        centre = position(world, rider).y + 5
        assert 0 <= centre <= position(world, lift).y + 1e-6, step  # between the ceiling and the lift's top
    assert rider in crushed
    assert position(world, rider).y + 5 == pytest.approx(1.5)  # midway in the 3 px left
