"""Gravity has one owner: the World, Movement and Response read and set the same value,
each through the same check (each component within ±limits.MAX_ACCELERATION px/s²)."""

from __future__ import annotations

import pytest
from pygame import Vector2

from components import limits
from ecs import World

TOO_STRONG = (0.0, 10 * limits.MAX_ACCELERATION)


@pytest.mark.parametrize("owner", ["world", "movement", "response"])
def test_gravity_set_anywhere_is_seen_everywhere(owner: str) -> None:
    world = World()
    target = {"world": world, "movement": world.movement, "response": world.response}[owner]
    target.gravity = (3.0, 700.0)
    assert world.gravity == world.movement.gravity == world.response.gravity == Vector2(3, 700)


@pytest.mark.parametrize("owner", ["world", "movement", "response"])
def test_gravity_beyond_the_limit_is_refused_by_every_setter_and_leaves_it_unchanged(owner: str) -> None:
    world = World(gravity=(0, 980))
    target = {"world": world, "movement": world.movement, "response": world.response}[owner]
    with pytest.raises(ValueError, match="gravity.y must be within"):
        target.gravity = TOO_STRONG
    assert world.gravity == world.movement.gravity == world.response.gravity == Vector2(0, 980)


def test_gravity_changed_in_place_takes_effect_at_the_next_step() -> None:
    # It used to be a copy: world.gravity.y = 500 changed nothing, silently.
    from components import Collider, Physics, Transform

    world = World(gravity=(0, 980))
    body = world.create_entity(Transform((0, 0)), Collider((8, 8)), Physics())
    world.gravity.y = 500.0
    world.step(1 / 60)
    assert world.component_for_entity(body, Physics).velocity.y == pytest.approx(500.0 / 60)  # v = g·dt
    assert world.movement.gravity == world.response.gravity == Vector2(0, 500)


@pytest.mark.parametrize("value, message", [(float("nan"), "must be finite"), (float("inf"), "must be finite"),
                                            (TOO_STRONG[1], "must be within")])
def test_gravity_made_bad_in_place_stops_the_step_before_anything_moves(value: float, message: str) -> None:
    from components import Collider, Physics, Transform

    world = World(gravity=(0, 980))
    transform = Transform((0, 0))
    world.create_entity(transform, Collider((8, 8)), Physics(velocity=(100, 0)))
    world.gravity.y = value
    with pytest.raises(ValueError, match=f"^World.gravity.y {message}.*set in place"):
        world.step(1 / 60)
    assert transform.position == Vector2(0, 0)
    world.gravity = (0, 980)  # assigned afresh, the World steps on
    world.step(1 / 60)
    assert transform.position.x == pytest.approx(100 / 60)
