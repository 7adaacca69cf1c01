"""The move stage: every body with a Transform and a Physics advanced by Movement's rule.

The rule is ``systems.physics._kernels.motion.advance``. Where the kernels run compiled, one
call (``move_bodies``) applies it to every body, reading and writing the components' vectors
in place, for ``storage.FEW`` bodies or more; for fewer (a compiled call's fixed cost, in a
game whose drawing leaves the caches cold, is more than the loop's), and wherever the kernels
don't run (``ECS_ARCADE_JIT=0``, a Game's first run while they compile, a pygame laid out
otherwise), ``advance`` runs from Python for each body. What the rule reads besides the
vectors (each body's gravity scale, damping, speed cap and whether its collider is STATIC) changes only
by assignment, so it is read into ``Movers`` once and kept (``systems.physics._bodies.kept``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from operator import attrgetter
from typing import Any

import numpy as np
from pygame import Vector2

from components import ColliderType, limits
from systems.physics._bodies.kept import Kept
from systems.physics._bodies.table import VectorList, joined
from systems.physics._kernels import background, motion
from systems.physics._kernels.plain import Kernels
from systems.physics._stages import storage

__all__ = ["Move", "Movers"]

#: The rule for one body as Python: where numba compiled it, its Python original (``py_func``),
#: which calls no other kernel function and so runs as it is, without a dispatcher's cost a call.
_advance: Callable[..., tuple[float, float, float, float]] = getattr(motion.advance, "py_func", motion.advance)

#: esper's lists of (entity, component) of one type each.
Listed = list[tuple[int, Any]]


@dataclass(frozen=True, slots=True)
class Movers:
    """What the rule reads for each body with a Transform and a Physics, in entity order:
    the vectors it reads and writes, each gravity scale and damping (0.0 for a STATIC
    collider, which neither gravity nor damping moves) and each speed cap (px/s, ``math.inf``
    for none), as lists for Python and as arrays for the kernel."""

    positions: VectorList
    previous: VectorList
    velocities: VectorList
    scales: list[float]
    dampings: list[float]
    caps: list[float]
    scale_array: np.ndarray
    damping_array: np.ndarray
    cap_array: np.ndarray

    @classmethod
    def of(cls, transforms: Listed, physics: Listed, colliders: Listed) -> Movers:
        """What the rule reads for the bodies of esper's lists of Transform, Physics and
        Collider (which says which bodies are STATIC), each type's list on its own (``joined``)."""
        entities, places, bodies = joined(transforms, physics)
        shaped = dict(colliders)
        static = [collider is not None and collider.type is _STATIC for collider in map(shaped.get, entities)]
        scales = [0.0 if fixed else body.gravity_scale for fixed, body in zip(static, bodies)]
        dampings = [0.0 if fixed else body.damping for fixed, body in zip(static, bodies)]
        caps = [math.inf if body.max_speed is None else body.max_speed for body in bodies]
        return cls(VectorList(map(_POSITION, places)), VectorList(map(_PREVIOUS, places)),
                   VectorList(map(_VELOCITY, bodies)), scales, dampings, caps, np.array(scales, float),
                   np.array(dampings, float), np.array(caps, float))


_POSITION, _PREVIOUS, _VELOCITY = attrgetter("position"), attrgetter("previous_position"), attrgetter("velocity")
_STATIC = ColliderType.STATIC


class Move:
    """Movement's stage: ``move`` advances every body by one step (see ``MovementSystem``)."""

    def __init__(self) -> None:
        self._movers = Kept(Movers.of, vectors=True)

    def move(self, transforms: Listed, physics: Listed, colliders: Listed, gravity: Vector2, dt: float,
             kernels: Kernels | None = None) -> None:
        """Advance the bodies with a Transform and a Physics (esper's lists of each, and of
        Collider, which says which bodies are STATIC) by ``dt`` seconds under ``gravity``
        (px/s²); ``kernels``: the copy to run (default those running now)."""
        if not physics:
            return
        movers: Movers = self._movers(transforms, physics, colliders)
        gx, gy = gravity[0] * dt, gravity[1] * dt
        pulled = bool(gx or gy)
        if len(movers.scales) >= storage.FEW:  # (for fewer, a compiled call costs more than the loop)
            kernels = kernels or background.kernels()
            located = _located(movers, kernels)
            if located is not None and kernels.move_bodies is not None:
                kernels.move_bodies(*located, movers.scale_array, movers.damping_array, movers.cap_array, pulled,
                                    gx, gy, limits.MAX_SPEED, float(dt))
                return
        _move_each(movers, pulled, gx, gy, dt)


def _located(movers: Movers, kernels: Kernels) -> list[np.ndarray] | None:
    """Where the coordinates of the movers' positions, previous positions and velocities are
    (``storage.addresses``), or None where the kernels don't write them."""
    if kernels.move_bodies is None:
        return None
    located = []
    for vectors in (movers.positions, movers.previous, movers.velocities):
        addresses = storage.addresses(vectors, kernels)
        if addresses is None:
            return None
        located.append(addresses)
    return located


def _move_each(movers: Movers, pulled: bool, gx: float, gy: float, dt: float) -> None:
    """The rule from Python, body by body, in the kernel's order of reads and writes."""
    advance, cap_all = _advance, limits.MAX_SPEED
    for position, previous, velocity, scale, damping, cap in zip(movers.positions, movers.previous,
                                                                 movers.velocities, movers.scales, movers.dampings,
                                                                 movers.caps):
        previous[:] = position
        x, y, vx, vy = advance(position[0], position[1], velocity[0], velocity[1], pulled, gx, gy, scale, damping,
                               cap, cap_all, dt)
        velocity[0] = vx  # (by index: a third of ``update``'s cost)
        velocity[1] = vy
        position[0] = x
        position[1] = y
