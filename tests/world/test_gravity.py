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
