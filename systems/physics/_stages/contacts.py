"""The contacts stage, last in a step: record what the step found.

It keeps the step's contacts in ``Memory`` (made into ``Contact`` objects only when first
read), the grounded and crushed bodies, hands the riders to the next step
(``systems.physics._stages.board``), sets the Touching components, and lets the collide
stage settle the bodies without Physics that moved (``Collide.settle_kinematic``).
"""

from __future__ import annotations

import logging

import numpy as np
from pygame import Vector2

from components import Touching
from systems.physics._kernels import background
from systems.physics._kernels.ground import DIAGONAL
from systems.physics._shapes.contact import Contact
from systems.physics._solver.resolution import time_order
from systems.physics._stages.board import leave_or_land
from systems.physics._stages.context import StepContext
from systems.physics._stages.memory import Grounded, Memory

__all__ = ["grounded_bodies", "record", "update_touching"]

log = logging.getLogger(__name__)


def record(step: StepContext, memory: Memory, touching: dict[int, Touching]) -> None:
    """Keep the step's contacts, grounded and crushed bodies and riders in
    ``memory``, and set the ``touching`` components (by entity)."""
    state = step.state
    memory.keep(state)
    memory.grounded = grounded_bodies(*state.arrays(), step.up, state.time_order() if step.up else None)
    memory.crushed = sorted(state.crushed)
    if memory.crushed and not memory.warned_crush:
        memory.warned_crush = True
        log.info("entity %d is crushed: squeezed between colliders that won't yield, it is left "
                 "where it is (World.on_crush tells the game; logged once per World)", memory.crushed[0])
    memory.rides = leave_or_land(step, memory.rides)
    if touching:
        update_touching(touching, memory.contacts())
    step.settle_kinematic()


def grounded_bodies(pairs: np.ndarray, values: np.ndarray, up: Vector2, order: np.ndarray | None = None) -> Grounded:
    """Entities with ground below them in a step's contacts (``pairs`` and ``values`` as
    ``Resolution.arrays`` gives them, ``order`` their time order, ``Resolution.time_order``,
    worked out here when not given; TRIGGER contacts don't count): a contact normal at most
    45° from ``up``, each with the unit normal of that ground, from it to the entity (the most
    upright one; of equals, the first in time order), in the order they first stood. The next
    step's ground snapping starts from them. Worked out over the arrays, in the compiled core
    (``systems.physics._kernels.ground.grounded``): a step's contacts are made into objects
    only when something reads them."""
    if not up or not len(pairs):
        return Grounded()
    if order is None:
        order = time_order(pairs, values)
    entities, normals = background.kernels().grounded(pairs, values, order, up.x, up.y)
    return Grounded(entities, normals) if len(entities) else Grounded()


def update_touching(touching: dict[int, Touching], contacts: list[Contact]) -> None:
    """Set every Touching component's flags (``touching``: by entity), and
    ``ground``, from this step's contacts (TRIGGER contacts don't count)."""
    for flags in touching.values():
        flags.clear()
    grounds: dict[int, tuple[float, int]] = {}
    for contact in contacts:
        if contact.trigger:
            continue
        for entity, other, toward in ((contact.a, contact.b, contact.normal), (contact.b, contact.a, -contact.normal)):
            side = touching.get(entity)
            if side is None:
                continue
            # Up to 45° from vertical is ground (or ceiling): a ramp is not a wall.
            side.down |= toward.y >= DIAGONAL
            side.up |= toward.y <= -DIAGONAL
            side.right |= toward.x > DIAGONAL + 2e-9
            side.left |= toward.x < -DIAGONAL - 2e-9
            if toward.y >= DIAGONAL:  # stands on other: the longest surface wins, then the smaller id
                grounds[entity] = min(grounds.get(entity, (0.0, other)), (-contact.surface, other))
    for entity, (_, ground) in grounds.items():
        touching[entity].ground = ground
