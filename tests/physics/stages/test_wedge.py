"""A body in the V between a wall and a ramp is not crushed; two closing STATICs still crush; a body
driven up a ramp into the wall at its top rests in the corner.

A body touching contacts with inward normals n_i can still move along any d
with d·n_i >= 0 for all i: the vertical wall's normal and a ramp's are not
opposite, so up the ramp is always free, and nothing moves to take that
room away. A body is crushed only while what presses it and the STATIC on
its far side close on each other (two walls closing, a lift rising into a
ceiling); its own motion (gravity) into a corner, or into a corridor
exactly its height, is no squeeze.

Geometry, for a wall on the left with its face at x = 0, a floor at y = F
and a "/" ramp w × h px on the floor against the wall (slope
y = F − x·h/w, its outward normal (−h, −w)/√(w² + h²)), the mirror image
for a wall on the right:
- a box of side s against the wall rests with its lower right corner
  (s, y + s) on the slope: y = F − s·h/w − s;
- a disc of radius r against the wall (centre x = r) rests at distance r
  from the slope: centre y = F − r·h/w − r·√(w² + h²)/w.
"""

import math
from collections.abc import Callable

import pytest
from pygame import Vector2

from components import Collider, ColliderType, Physics, Shape, Touching, Transform
from ecs import World
from helpers import DT, position, velocity, wall

G = 980.0  # px/s²
F = 100.0  # px, the floor's top
S = 6.0  # px, the body's side (or diameter)
SLOPES = {"45deg": (40.0, 40.0), "26.6deg": (80.0, 40.0)}  # ramp w × h: tan θ = h/w = 1 and 1/2
SINK = G * DT * DT  # px a resting body sinks in one step before the contact pushes it back (0.27)
MakeWorld = Callable[..., World]


def v_scene(make_world: MakeWorld, w: float, h: float, side: int, round_: bool) -> tuple[World, int, list[int]]:
    """A wall, a floor and a ramp w × h against the wall (``side`` +1: the
    wall on the left, the ramp "/"; −1: mirrored), and an S px body dropped
    from rest into the V. Returns the world, the body and a crush log."""
    world = make_world(gravity=(0, G))
    wall(world, -40.0 if side > 0 else 0.0, -100.0, 40.0, F + 140.0)
    wall(world, -300.0, F, 600.0, 40.0)
    shape = Shape.TRIANGLE_BOTTOM_RIGHT if side > 0 else Shape.TRIANGLE_BOTTOM_LEFT
    world.create_entity(Transform((0.0 if side > 0 else -w, F - h)),
                        Collider((w, h), type=ColliderType.STATIC, shape=shape))
    body = world.create_entity(Transform((0.0 if side > 0 else -S, F - h - 2 * S)),
                               Collider((S, S), shape=Shape.CIRCLE if round_ else Shape.BOX), Physics())
    crushed: list[int] = []
    world.on_crush(crushed.append)
    return world, body, crushed


def rest_y(w: float, h: float, round_: bool) -> float:
    """The resting body's top (px), from the module docstring's geometry."""
    if round_:
        r = S / 2
        return F - r * h / w - r * math.hypot(w, h) / w - r
    return F - S * h / w - S


@pytest.mark.parametrize("round_", [False, True], ids=["box", "circle"])
@pytest.mark.parametrize("side", [1, -1], ids=["wall-left", "wall-right"])
@pytest.mark.parametrize("slope", list(SLOPES))
def test_a_body_at_rest_between_a_wall_and_a_ramp_is_never_crushed(make_world: MakeWorld, slope: str, side: int,
                                                                   round_: bool) -> None:
    # Dropped from 2·S above the ramp's top (it lands within a few steps),
    # then 120 steps: never crushed, at rest in the V where the geometry puts
    # it, within one step's sink, touching the wall, and at most one step's
    # gravity, g·dt = 16.3 px/s, left in its velocity.
    w, h = SLOPES[slope]
    world, body, crushed = v_scene(make_world, w, h, side, round_)
    for _ in range(120):
        world.step(DT)
    assert crushed == []
    assert position(world, body).x == pytest.approx(0.0 if side > 0 else -S, abs=SINK)
    assert position(world, body).y == pytest.approx(rest_y(w, h, round_), abs=SINK)
    assert velocity(world, body).length() < G * DT


@pytest.mark.parametrize("round_", [False, True], ids=["box", "circle"])
@pytest.mark.parametrize("side", [1, -1], ids=["wall-left", "wall-right"])
@pytest.mark.parametrize("slope", list(SLOPES))
def test_a_body_in_the_v_walks_out_up_the_ramp(make_world: MakeWorld, slope: str, side: int, round_: bool) -> None:
    # At rest in the V, its velocity set to U px/s up the ramp, away from
    # the wall, before each of N steps. Frictionless (friction 0, the pair
    # uses the smaller), only gravity's share along the slope, g·dt·sin θ,
    # is taken off each step: it moves at least (U − g·dt·sin θ)·dt along
    # the slope a step, less one step's sink, and stays on the slope.
    w, h = SLOPES[slope]
    world, body, crushed = v_scene(make_world, w, h, side, round_)
    for _ in range(60):
        world.step(DT)
    U, N = 120.0, 10
    length = math.hypot(w, h)
    up_ramp = Vector2(side * w, -h) / length
    start = Vector2(position(world, body))
    for _ in range(N):
        velocity(world, body).update(up_ramp * U)
        world.step(DT)
    moved = (position(world, body) - start).dot(up_ramp)
    assert moved >= N * DT * (U - G * DT * h / length) - SINK
    assert crushed == []
    # Still on the slope: its top is where resting there puts it, the slope
    # having risen h/w px for each px it moved across.
    across = abs(position(world, body).x - start.x)
    assert position(world, body).y == pytest.approx(rest_y(w, h, round_) - across * h / w, abs=2 * SINK)


@pytest.mark.parametrize("gravity", [(0.0, 0.0), (0.0, G)], ids=["no-gravity", "gravity"])
@pytest.mark.parametrize("round_", [False, True], ids=["box", "circle"])
def test_a_body_between_two_statics_closing_is_crushed_every_step_the_gap_is_smaller(
        make_world: MakeWorld, round_: bool, gravity: tuple[float, float]) -> None:
    # Two STATIC walls close at 120 px/s each, 2 px a step each: their
    # faces, 40 px apart at first, are 40 − 4n apart after n steps. The
    # 10 px body between them (on a floor) is untouched while that is more
    # than 10 (n <= 7) and crushed every step once it is less (n = 8, 9);
    # the walls stop 4 px apart (n = 9), still squeezing it.
    world = make_world(gravity=gravity)
    wall(world, -100.0, 40.0, 300.0, 40.0)  # a floor the body stands on
    left = wall(world, 0.0, 0.0, 20.0, 40.0, velocity=(120.0, 0.0))
    right = wall(world, 60.0, 0.0, 20.0, 40.0, velocity=(-120.0, 0.0))
    body = world.create_entity(Transform((35.0, 30.0)),
                               Collider((10.0, 10.0), shape=Shape.CIRCLE if round_ else Shape.BOX), Physics())
    crushed: list[int] = []
    world.on_crush(crushed.append)
    for n in range(1, 15):
        if n == 10:
            velocity(world, left).x = velocity(world, right).x = 0.0
        crushed.clear()
        world.step(DT)
        gap = position(world, right).x - (position(world, left).x + 20.0)
        assert gap == pytest.approx(max(40.0 - 4.0 * n, 4.0))
        assert crushed == ([body] if gap < 10.0 else []), n
        centre = position(world, body).x + 5.0
        assert position(world, left).x + 20.0 <= centre <= position(world, right).x, n


@pytest.mark.parametrize("round_", [False, True], ids=["box", "circle"])
def test_a_body_exactly_as_tall_as_a_corridor_walks_through_it(make_world: MakeWorld, round_: bool) -> None:
    # A 20 px body in a corridor 20 px high (floor top y = 40, ceiling
    # bottom y = 20): touching both, which stay still, so nothing squeezes
    # it. Its velocity set to 60 px/s along the corridor before each of 30
    # steps, frictionless (friction 0), it moves 60 · 30 · dt = 30 px and
    # is never crushed.
    world = make_world(gravity=(0, G))
    wall(world, -100.0, 40.0, 400.0, 40.0)
    wall(world, -100.0, -40.0, 400.0, 60.0)
    body = world.create_entity(Transform((0.0, 20.0)),
                               Collider((20.0, 20.0), shape=Shape.CIRCLE if round_ else Shape.BOX), Physics())
    crushed: list[int] = []
    world.on_crush(crushed.append)
    for _ in range(30):
        velocity(world, body).x = 60.0
        world.step(DT)
    assert crushed == []
    assert position(world, body).x == pytest.approx(60.0 * 30 * DT)
    assert position(world, body).y == pytest.approx(20.0, abs=SINK)


@pytest.mark.parametrize("round_", [False, True], ids=["box", "circle"])
def test_a_body_in_a_still_slot_narrower_than_itself_is_crushed_and_centred(make_world: MakeWorld, round_: bool) -> None:
    # Nothing closes, yet nothing leaves room: two still walls whose faces
    # (x = 40 and x = 46) face each other, 6 px apart, and a 10 px body put
    # between them. The two pushes are exactly opposed, so it is crushed
    # every step and centred between the faces: x = (40 + 46) / 2 - 5 = 38.
    world = make_world()
    world.create_entity(Transform((0.0, 0.0)), Collider((40.0, 100.0), type=ColliderType.STATIC))
    world.create_entity(Transform((46.0, 0.0)), Collider((40.0, 100.0), type=ColliderType.STATIC))
    shape = Shape.CIRCLE if round_ else Shape.BOX
    body = world.create_entity(Transform((37.0, 50.0)), Collider((10.0, 10.0), shape=shape), Physics())
    crushed: list[int] = []
    world.on_crush(crushed.append)
    for step in range(1, 11):
        world.step(DT)
        assert crushed == [body] * step
        assert position(world, body).x == pytest.approx(38.0, abs=1e-6)


def test_a_crushed_body_left_overlapping_is_not_warned_of(make_world: MakeWorld, caplog: pytest.LogCaptureFixture) -> None:
    # The README's vice: two walls closing 2 px a step each on a 10 px nut;
    # a crush leaves it overlapping on purpose, so the push-out's "still
    # overlap … resolution may be incomplete" warning must not appear.
    world = make_world()
    for x, vx in ((500.0, 120.0), (560.0, -120.0)):
        world.create_entity(Transform((x, 300.0)), Collider((20.0, 40.0), type=ColliderType.STATIC),
                            Physics(velocity=(vx, 0.0)))
    nut = world.create_entity(Transform((535.0, 315.0)), Collider((10.0, 10.0)), Physics())
    crushed: list[int] = []
    world.on_crush(crushed.append)
    with caplog.at_level("WARNING"):
        for _ in range(12):
            world.step(DT)
    assert nut in crushed
    assert "still overlap" not in caplog.text


@pytest.mark.parametrize("slope", list(SLOPES))
def test_a_body_driven_up_a_ramp_into_the_wall_at_its_top_rests_in_the_corner(make_world: MakeWorld,
                                                                             slope: str) -> None:
    # A "/" ramp w × h on the floor, its high end against a wall on the right (the wall's face
    # at x = 0, the slope from (−w, F) up to (0, F − h)), and a box of side S driven at U px/s
    # toward the wall before every step (a player holding right). Wall and slope together
    # leave it no way to go: at rest, its lower right corner is on the corner (0, F − h), so
    # its top is at F − h − S, touching the ramp every step. (On the way in, a run up the ramp
    # into the wall launches it up the wall, as it would anything: it is at rest within 40
    # steps, and checked over the last 30 of 90.)
    # Found by playing: the swept pipeline resolved the slope's impact and then the wall's,
    # 0.09 px later, one after the other. The slope turned U into motion along it, the wall
    # took the part across, and what was left lifted the box off the slope: it hopped 4 px
    # every 12 steps, off the ground 5 steps in 6. Impacts with two STATICs that close are now
    # solved together, as the discrete pipeline's push-out settles it.
    w, h = SLOPES[slope]
    world = make_world(gravity=(0, G))
    wall(world, 0.0, -100.0, 40.0, F + 140.0)
    wall(world, -300.0, F, 340.0, 40.0)
    ramp = world.create_entity(Transform((-w, F - h)), Collider((w, h), type=ColliderType.STATIC,
                                                                shape=Shape.TRIANGLE_BOTTOM_RIGHT))
    # Dropped 1 px above the slope, 10 px short of the wall (the slope is at F − h·(w − 10)/w there).
    body = world.create_entity(Transform((-S - 10.0, F - h * (w - 10.0) / w - S - 1.0)), Collider((S, S)), Physics(),
                               Touching())
    U = 220.0
    for step in range(90):
        velocity(world, body).x = U
        world.step(DT)
        if step >= 60:
            assert tuple(position(world, body)) == pytest.approx((-S, F - h - S), abs=SINK), step
            assert world.component_for_entity(body, Touching).ground == ramp, step
