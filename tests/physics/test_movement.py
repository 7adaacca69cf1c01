"""Movement alone: semi-implicit Euler with gravity, gravity scales, damping and speed caps, to the bit.

Each body must come out exactly as the rule in MovementSystem's docstring computes it, one
body at a time with Python floats and pygame's Vector2: v += g·dt·scale (not for a STATIC),
v *= 1 / (1 + damping·dt) (Box2D's linear damping; not for a STATIC), the speed clamped by
``scale_to_length`` to the body's cap and to the world's, then x += v·dt, with the previous
position kept. Movement runs the rule (``systems.physics._kernels.motion``) in one compiled
call over every body where the kernels
are compiled, and from Python body by body where they are not: CI runs this in both modes.
"""

from __future__ import annotations

import math
import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pygame import Vector2

from components import Collider, ColliderType, Physics, Transform, limits
from ecs import World
from systems.physics._stages import storage

# Speeds near the caps below, and up to the world's.
speeds = st.one_of(st.floats(-6e3, 6e3, allow_subnormal=False),
                   st.floats(-limits.MAX_SPEED, limits.MAX_SPEED, allow_subnormal=False))
places = st.floats(-1e6, 1e6, allow_subnormal=False)
body = st.fixed_dictionaries({
    "position": st.tuples(places, places),
    "velocity": st.tuples(speeds, speeds),
    "gravity_scale": st.sampled_from([1.0, 0.0, 0.5, -2.0, 3.25]),
    "max_speed": st.one_of(st.none(), st.floats(1.0, 5e3)),
    "damping": st.sampled_from([0.0, 0.5, 3.0, 1e6]),
    "static": st.booleans(),
})


def bits(vector: Vector2) -> tuple[int, int]:
    return struct.unpack("<qq", struct.pack("<dd", vector.x, vector.y))  # type: ignore[return-value]


def expected(spec: dict[str, object], gravity: tuple[float, float], dt: float) -> tuple[Vector2, Vector2]:
    """(position, velocity) after one step of the rule, one body at a time."""
    position, velocity = Vector2(spec["position"]), Vector2(spec["velocity"])  # type: ignore[arg-type]
    scale = spec["gravity_scale"]
    assert isinstance(scale, float)
    if (gravity[0] or gravity[1]) and scale and not spec["static"]:
        velocity = Vector2(velocity.x + gravity[0] * dt * scale, velocity.y + gravity[1] * dt * scale)
    damping = spec["damping"]
    assert isinstance(damping, float)
    if damping and not spec["static"]:
        keep = 1.0 / (1.0 + damping * dt)
        velocity = Vector2(velocity.x * keep, velocity.y * keep)
    cap = spec["max_speed"]
    if isinstance(cap, float) and velocity.length_squared() > cap * cap:
        velocity.scale_to_length(cap)
    elif velocity.length_squared() > limits.MAX_SPEED * limits.MAX_SPEED:
        velocity.scale_to_length(limits.MAX_SPEED)
    return position + velocity * dt, velocity


gravities = st.tuples(st.sampled_from([0.0, 980.0, -300.0]), st.sampled_from([0.0, 900.0, 1e6]))
steps = st.sampled_from([1 / 60, 1 / 120, 0.25])


def check(bodies: list[dict[str, object]], gravity: tuple[float, float], dt: float) -> None:
    """One step of Movement over ``bodies``, each body against ``expected``, to the bit."""
    world = World(gravity=gravity)
    entities = []
    for spec in bodies:
        kind = ColliderType.STATIC if spec["static"] else ColliderType.SOLID
        entities.append(world.create_entity(
            Transform(spec["position"]), Collider((4, 4), type=kind),  # type: ignore[arg-type]
            Physics(spec["velocity"], gravity_scale=spec["gravity_scale"],  # type: ignore[arg-type]
                    max_speed=spec["max_speed"], damping=spec["damping"])))  # type: ignore[arg-type]
    world.movement.process(dt)
    for entity, spec in zip(entities, bodies):
        transform, physics = world.component_for_entity(entity, Transform), world.component_for_entity(entity, Physics)
        position, velocity = expected(spec, gravity, dt)
        assert bits(transform.previous_position) == bits(Vector2(spec["position"]))  # type: ignore[arg-type]
        assert bits(physics.velocity) == bits(velocity)
        assert bits(transform.position) == bits(position)
    world.close()


@settings(max_examples=150, deadline=None)
@given(st.lists(body, min_size=1, max_size=12), gravities, steps)
def test_each_of_a_few_bodies_moves_as_the_rule_computes_it(bodies: list[dict[str, object]],
                                                            gravity: tuple[float, float], dt: float) -> None:
    check(bodies, gravity, dt)  # (fewer than storage.FEW: the rule from Python, body by body)


@settings(max_examples=40, deadline=None)
@given(st.lists(body, min_size=1, max_size=12), gravities, steps)
def test_each_body_of_a_crowd_moves_as_the_rule_computes_it(bodies: list[dict[str, object]],
                                                            gravity: tuple[float, float], dt: float) -> None:
    # storage.FEW bodies or more: one compiled call over them all where the kernels are compiled.
    check((bodies * storage.FEW)[:max(storage.FEW, len(bodies))], gravity, dt)


def test_a_gravity_scale_assigned_between_steps_is_the_one_pulled() -> None:
    # Movement keeps the scales it read until a field is assigned: the assignment is seen.
    world = World(gravity=(0, 600))
    entity = world.create_entity(Transform((0, 0)), Collider((4, 4)), Physics())
    world.movement.process(0.5)
    world.component_for_entity(entity, Physics).gravity_scale = 0.5
    world.movement.process(0.5)
    assert world.component_for_entity(entity, Physics).velocity == Vector2(0, 600 * 0.5 + 600 * 0.5 * 0.5)
    world.close()


@pytest.mark.parametrize("others", [0, storage.FEW])
def test_a_cap_or_a_collider_type_assigned_between_steps_is_the_one_moved_by(others: int) -> None:
    # The caps and scales are kept between steps and read again when a field is assigned: by
    # the rule from Python for two bodies, by the compiled kernel (where it runs) with others.
    world = World(gravity=(0, 600))
    capped = world.create_entity(Transform((0, 0)), Collider((4, 4)), Physics((0.0, 0.0)))
    platform = world.create_entity(Transform((100, 0)), Collider((4, 4)), Physics((0.0, 0.0)))
    for k in range(others):
        world.create_entity(Transform((0, 100 + 10 * k)), Collider((4, 4)), Physics((0.0, 0.0)))
    world.movement.process(0.5)  # both fall: v = 300 px/s
    world.component_for_entity(capped, Physics).max_speed = 100.0
    world.component_for_entity(platform, Collider).type = ColliderType.STATIC
    world.movement.process(0.5)
    assert world.component_for_entity(capped, Physics).velocity == Vector2(0, 100)  # 600 px/s clamped to 100
    assert world.component_for_entity(capped, Transform).position == Vector2(0, 300 * 0.5 + 100 * 0.5)
    # A STATIC moves only by its own velocity: no more gravity.
    assert world.component_for_entity(platform, Physics).velocity == Vector2(0, 300)
    assert world.component_for_entity(platform, Transform).position == Vector2(100, 300 * 0.5 * 2)
    world.close()


def test_a_speed_far_below_pygames_epsilon_is_clamped_to_a_tinier_cap() -> None:
    # pygame's scale_to_length refuses a vector shorter than 1e-6; the rule scales any speed
    # above the cap: 3-4-5 at 5e-8 px/s, capped at 1e-8, keeps its direction.
    world = World()
    entity = world.create_entity(Transform((0, 0)), Collider((4, 4)), Physics((3e-8, 4e-8), max_speed=1e-8))
    world.movement.process(1.0)
    velocity = world.component_for_entity(entity, Physics).velocity
    assert math.isclose(velocity.x, 0.6e-8, rel_tol=1e-12) and math.isclose(velocity.y, 0.8e-8, rel_tol=1e-12)
    world.close()



@pytest.mark.parametrize(("vx", "vy"), [(1e155, 0.0), (3e200, -4e200), (-1e308, 1e308)])
def test_a_speed_whose_square_overflows_is_still_capped_along_its_direction(vx: float, vy: float) -> None:
    # Found by a trial game: a velocity set in place (assignment checks ±1e9; in place only
    # finiteness is checked) from about 1.3e154 px/s has an infinite square, and the cap's
    # fraction (cap / sqrt(inf) = 0) stopped the body dead. Capped, it keeps its direction at
    # the world's cap: v · cap / |v|, |v| = hypot(vx, vy).
    world = World()
    entity = world.create_entity(Transform((0, 0)), Collider((4, 4)), Physics())
    world.component_for_entity(entity, Physics).velocity.update(vx, vy)
    world.movement.process(1 / 60)
    velocity = world.component_for_entity(entity, Physics).velocity
    scale = limits.MAX_SPEED / math.hypot(vx, vy)
    assert math.isclose(velocity.x, vx * scale, rel_tol=1e-12) and math.isclose(velocity.y, vy * scale, rel_tol=1e-12)
    world.close()


def test_a_damped_puck_slides_v0_over_damping_in_all_and_a_falling_body_tends_to_g_over_damping() -> None:
    # Movement's damping, v ← v / (1 + c·dt) each step (c in 1/s), is the Padé form of
    # dv/dt = −c·v. After n steps v = v0·r^n with r = 1/(1 + c·dt), and the distance is
    # dt·v0·(r + r² + … + r^n) = (v0 / c)·(1 − r^n): in all, v0 / c, as the ODE's own
    # ∫ v0·e^(−c·t) dt. Under gravity g the speed's fixed point solves v = (v + g·dt)·r:
    # v = g / c, the terminal speed of linear drag. A STATIC is not damped.
    dt, c = 1 / 60, 2.0
    world = World(gravity=(0, 0))
    puck = world.create_entity(Transform((0, 0)), Collider((10, 10)), Physics((300.0, 0.0), damping=c))
    platform = world.create_entity(Transform((0, 100)), Collider((40, 10), type=ColliderType.STATIC),
                                   Physics((50.0, 0.0), damping=c))
    r = 1 / (1 + c * dt)
    for n in range(1, 601):
        world.movement.process(dt)
        assert world.component_for_entity(puck, Physics).velocity.x == pytest.approx(300 * r ** n, rel=1e-12)
        assert world.component_for_entity(puck, Transform).position.x == pytest.approx(300 / c * (1 - r ** n),
                                                                                       rel=1e-12)
    assert world.component_for_entity(puck, Transform).position.x == pytest.approx(300 / c, abs=1e-3)
    assert world.component_for_entity(platform, Physics).velocity == Vector2(50, 0)
    world.close()
    world = World(gravity=(0, 980))
    stone = world.create_entity(Transform((0, 0)), Collider((10, 10)), Physics(damping=4.0))
    for _ in range(1200):
        world.movement.process(dt)
    assert world.component_for_entity(stone, Physics).velocity.y == pytest.approx(980 / 4.0, rel=1e-9)
    world.close()


@pytest.mark.parametrize("value", [-0.1, math.nan, math.inf, 2e6, "1"])
def test_a_damping_out_of_range_is_refused_naming_the_field(value: object) -> None:
    with pytest.raises((ValueError, TypeError), match="damping"):
        Physics(damping=value)  # type: ignore[arg-type]
    physics = Physics()
    with pytest.raises((ValueError, TypeError), match="damping"):
        physics.damping = value  # type: ignore[assignment]
    assert physics.damping == 0.0
