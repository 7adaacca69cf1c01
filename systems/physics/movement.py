"""Movement: gravity, the speed cap, semi-implicit Euler, and riders carried."""

from __future__ import annotations


import esper
from pygame import Vector2

from components import Collider, ColliderType, Physics, Transform
from components import limits
from systems.physics._solver.riders import platform_frame
from systems.physics._stages.memory import Memory, checked_gravity
from systems._world import WorldLike

__all__ = ["MovementSystem"]

_ZERO = Vector2()


# px/s: a velocity with both components below this is under the world's
# speed cap (limits.MAX_SPEED) without computing its length.
_SAFE = limits.MAX_SPEED / 2**0.5


class MovementSystem(esper.Processor):
    """Move every entity that has a Transform and Physics by its velocity.

    Each step: ``previous_position = position``; ``velocity += gravity ·
    gravity_scale · dt`` (not for STATIC colliders, which move only by their
    own velocity, e.g. moving platforms); the speed is clamped to
    ``max_speed`` (and always to the world's cap, ``limits.MAX_SPEED``); then
    ``position += velocity · dt`` (semi-implicit Euler,
    as in the fizz collision tutorial). Last, each body that stood on a
    STATIC platform at the end of the previous step (``memory.rides``, written by
    Response) is moved by the platform's displacement (the README's moving
    platforms). ``gravity`` is in px/s², ``dt`` in seconds; it is
    ``memory.gravity``, the one Response reads too. A World shares one memory
    between its Movement and Response; to build the pipeline by hand, make the
    MovementSystem first and pass ``memory=movement.memory`` to the
    ResponseSystem, or riders are never carried.
    """

    def __init__(self, world: WorldLike, gravity: tuple[float, float] | Vector2 | None = None,
                 memory: Memory | None = None) -> None:
        self.world = world
        self.memory = Memory() if memory is None else memory
        if gravity is not None:
            self.gravity = gravity

    @property
    def gravity(self) -> Vector2:
        """Gravity (px/s², each component within ±``limits.MAX_ACCELERATION``), ``memory.gravity``."""
        return self.memory.gravity

    @gravity.setter
    def gravity(self, value: tuple[float, float] | Vector2) -> None:
        self.memory.gravity = checked_gravity(value)

    def process(self, dt: float) -> None:
        """Advance every moving entity by ``dt`` seconds, then carry riders."""
        gravity = self.memory.gravity
        gx = gravity.x * dt
        gy = gravity.y * dt
        pulled = bool(gx or gy)
        statics = self._static_entities() if pulled else set()
        for entity, (transform, physics) in self.world.get_components(Transform, Physics):
            position = transform.position
            # Copied by slice: a third of ``update``'s cost (no argument parsing).
            transform.previous_position[:] = position
            velocity = physics.velocity
            if pulled and physics.gravity_scale and entity not in statics:
                velocity.x += gx * physics.gravity_scale
                velocity.y += gy * physics.gravity_scale
            cap = physics.max_speed
            # Read by index: a Vector2's ``x`` costs twice as much (pygame's
            # attribute lookup), and this loop runs for every body.
            vx, vy = velocity[0], velocity[1]
            if cap is not None and vx * vx + vy * vy > cap * cap:
                velocity.scale_to_length(cap)
                vx, vy = velocity[0], velocity[1]
            elif not (-_SAFE <= vx <= _SAFE and -_SAFE <= vy <= _SAFE):  # rarely: the world's cap
                if vx * vx + vy * vy > limits.MAX_SPEED * limits.MAX_SPEED:
                    velocity.scale_to_length(limits.MAX_SPEED)
                    vx, vy = velocity[0], velocity[1]
            position[0] += vx * dt
            position[1] += vy * dt
        self._carry_riders()

    def _static_entities(self) -> set[int]:
        """Entities with Physics and a STATIC collider, i.e. moving platforms
        (read every step: a collider's type may be changed in place)."""
        rows = self.world.get_components(Collider, Physics)
        return {entity for entity, (collider, _) in rows if collider.type is ColliderType.STATIC}

    def _carry_riders(self) -> None:
        """Move each rider by its platform's displacement this step."""
        world, rides = self.world, self.memory.rides
        for rider in sorted(rides):
            ride = rides[rider]
            platform = world.try_component(ride.platform, Transform)
            transform = world.try_component(rider, Transform)
            ride.carried = platform is not None and transform is not None
            if platform is None or transform is None:
                continue
            ride.carry = platform.position - platform.previous_position
            physics = world.try_component(ride.platform, Physics)
            ride.frame = platform_frame(ride.normal, physics.velocity if physics else _ZERO)
            if ride.carry.x or ride.carry.y:
                transform.position.update(transform.position + ride.carry)
