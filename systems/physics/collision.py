"""Collision: the system that gathers the colliders and finds the pairs that may touch."""

from __future__ import annotations

import esper

from systems._world import WorldLike
from systems.physics._stages.collide import Collide

__all__ = ["CollisionSystem"]


class CollisionSystem(Collide, esper.Processor):
    """The collide stage (``Collide``: the broad phase over every collider's
    swept bounds) run as a system, at ``COLLISION_PRIORITY``; Response
    resolves the bodies and pairs it finds. ``cell_size`` (px, or None to
    choose it from the typical moving collider) is the broad phase's grid
    cell."""

    def __init__(self, world: WorldLike, cell_size: float | None = None) -> None:
        Collide.__init__(self, world, cell_size)
