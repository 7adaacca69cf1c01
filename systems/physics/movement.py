"""Movement: gravity, the speed cap, semi-implicit Euler, and riders carried."""

from __future__ import annotations

from typing import Any, TypeVar

import esper
from pygame import Vector2

from components import Collider, Physics, Transform
from systems.physics._shapes.geometry import Box, axis_overlap
from systems.physics._solver.riders import STANDING_REACH, Rides, platform_frame
from systems.physics._stages.memory import Memory, checked_gravity
from systems.physics._stages.move import Move
from systems._world import WorldLike

__all__ = ["MovementSystem"]

C = TypeVar("C")


def _standing(rider: Transform, rider_collider: Collider | None, platform: Transform,
              platform_collider: Collider | None) -> bool:
    """Whether a rider is where a platform can carry it: its collider's box at the start of
    the step within ``STANDING_REACH`` px of its platform's, along both axes. The last step
    left it touching its platform; a rider the game moved away since (``position``
    assigned, a teleport) is not, and the platform doesn't carry it."""
    if rider_collider is None or platform_collider is None:
        return False
    mine, theirs = _start_box(rider, rider_collider), _start_box(platform, platform_collider)
    return all(axis_overlap(mine, theirs, axis) >= -STANDING_REACH for axis in (0, 1))


class _Standing:
    """``standing(row)``: whether the row's rider is where its platform carries it: standing on
    what it rests on (``_standing``), and that, when it is a body between, carried in turn."""

    def __init__(self, rides: Rides, riders: list[int], transforms: dict[int, Transform],
                 colliders: dict[int, Collider]) -> None:
        self._rides, self._riders, self._transforms, self._colliders = rides, riders, transforms, colliders
        self._rows = {rider: row for row, rider in enumerate(riders)} if len(rides.supports) else {}
        self._known: dict[int, bool] = {}

    def __call__(self, row: int) -> bool:
        walked: list[int] = []  # rows whose answer is the one below's: a stack is walked down, not recursed
        answer = self._known.get(row)
        while answer is None:
            walked.append(row)
            rider, support = self._riders[row], self._rides.support(row)
            below = self._transforms.get(support)
            if below is None or not _standing(self._transforms[rider], self._colliders.get(rider), below,
                                              self._colliders.get(support)):
                answer = False
            elif support == int(self._rides.platforms[row]):
                answer = True
            else:
                row = self._rows.get(support, -1)
                answer = False if row < 0 or row in walked else self._known.get(row)
        for each in walked:
            self._known[each] = answer
        return answer


def _start_box(transform: Transform, collider: Collider) -> Box:
    """The collider's box (px) where its entity began the step."""
    start, offset, size = transform.previous_position, collider.offset, collider.size
    return start[0] + offset[0], start[1] + offset[1], size[0], size[1]


class MovementSystem(esper.Processor):
    """Move every entity that has a Transform and Physics by its velocity.

    Each step: ``previous_position = position``; ``velocity += gravity · gravity_scale ·
    dt`` and ``velocity *= 1 / (1 + damping · dt)`` (neither for STATIC colliders, which move
    only by their own velocity, e.g. moving platforms); the speed is clamped to ``max_speed`` (and always to the world's cap,
    ``limits.MAX_SPEED``); then ``position += velocity · dt`` (semi-implicit Euler, as in
    the fizz collision tutorial; the rule is ``systems.physics._kernels.motion.advance``,
    run over every body in one compiled call from 64 bodies up where the kernels are
    compiled, and from Python body by body otherwise). Last, each body that stood on a
    STATIC platform (or on a body standing on one) at the end of the previous step (``memory.rides``, written by Response),
    and still stands within ``STANDING_REACH`` px of it, is moved by the platform's
    displacement (the README's moving platforms). ``gravity`` is in px/s², ``dt`` in
    seconds; it is ``memory.gravity``, the one Response reads too. A World shares one memory
    between its Movement and Response; to build the pipeline by hand, make the MovementSystem
    first and pass ``memory=movement.memory`` to the ResponseSystem, or riders are never
    carried.
    """

    def __init__(self, world: WorldLike, gravity: tuple[float, float] | Vector2 | None = None,
                 memory: Memory | None = None) -> None:
        self.world = world
        self.memory = Memory() if memory is None else memory
        # Component type -> esper's list of (entity, component) and it as a dict, while the same list.
        self._listed: dict[type, tuple[list[Any], dict[int, Any]]] = {}
        self._move = Move()
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
        world = self.world
        self._move.move(world.get_component(Transform), world.get_component(Physics), world.get_component(Collider),
                        self.memory.gravity, dt)
        self._carry_riders()

    def _carry_riders(self) -> None:
        """Move each rider by its platform's displacement this step, and file the riders
        of a platform that moves or has a velocity in ``rides.carried`` (the platforms
        looked up once each: nearly every rider stands on ground that doesn't move). A
        rider the game moved off its platform between steps (a teleport) is not carried
        (``_standing``), but keeps the platform's frame until it leaves, in this step."""
        rides = self.memory.rides
        rides.carried = {}
        if not len(rides):
            return
        transforms, physics = self._by_entity(Transform), self._by_entity(Physics)
        platforms = rides.platforms.tolist()
        moving = {}
        for platform in set(platforms):
            transform = transforms.get(platform)
            if transform is None:
                continue
            position, start = transform.position, transform.previous_position
            dx, dy = position[0] - start[0], position[1] - start[1]  # (its displacement, as Vector2 subtracts)
            body = physics.get(platform)
            vx, vy = (body.velocity[0], body.velocity[1]) if body is not None else (0.0, 0.0)
            if dx or dy or vx or vy:
                moving[platform] = dx, dy, vx, vy
        if not moving:
            return
        riders, normals = rides.riders.tolist(), rides.normals.tolist()
        standing = _Standing(rides, riders, transforms, self._by_entity(Collider))  # (only once a platform moves)
        for row, platform in enumerate(platforms):
            motion, rider = moving.get(platform), transforms.get(riders[row])
            if motion is None or rider is None:
                continue
            (dx, dy, vx, vy), (nx, ny) = motion, normals[row]
            frame = platform_frame(nx, ny, vx, vy)
            if not standing(row):
                # Not carried; its velocity is still relative to the platform's, and it gets
                # the frame back as it leaves, this step (as a jump off the platform would).
                rides.carried[row] = (0.0, 0.0, *frame)
                continue
            rides.carried[row] = (dx, dy, *frame)
            if dx or dy:
                rider.position.update(rider.position[0] + dx, rider.position[1] + dy)

    def _by_entity(self, component_type: type[C]) -> dict[int, C]:
        """Entity -> its component of that type, made anew only when esper's list of them is
        (an entity or a component added or removed)."""
        listed = self.world.get_component(component_type)
        kept = self._listed.get(component_type)
        if kept is None or kept[0] is not listed:
            kept = self._listed[component_type] = (listed, dict(listed))
        return kept[1]

