"""Riders: bodies standing on a STATIC platform are carried along with it.

Response records, at the end of each step, which bodies rest on a STATIC
collider (the contact normal from the platform to the body within 60° of "up",
against gravity), or on a body that rests on one in turn (a crate on a crate on
a lift rides the lift: its *support* is the crate below, its *platform* the
lift). During the next step Movement moves each of them by its
platform's displacement, whatever the platform does: starts, stops, reverses,
drops at 600 px/s; a rider farther than ``STANDING_REACH`` from its support
as that step begins (moved away by the game, a teleport), or whose support is
not carried, is not carried, and
leaves it in that step with the platform's velocity, as a jump off it would.
While a body rides, its own velocity along the contact normal is relative to
the platform's (a rider standing on a lift has a vertical velocity of about 0,
not the lift's), so the platform's reversal never tosses it; when it leaves
(jumps or walks off) the platform's velocity along the normal is added back,
so a jump from a rising lift goes higher. Along the surface the platform only
carries by position (Godot and Phaser do the same): a rider's sideways
velocity stays its own.

A platformer has a rider for nearly every body at rest, standing on ground
that doesn't move: the rides are arrays, a row per rider, and Python work is
spent only on the riders of a platform that moves (or has a velocity).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, field

import numpy as np
from pygame import Vector2

__all__ = ["STANDING_REACH", "Rides", "changed_frames", "platform_frame"]

#: px. A rider whose box, at the start of a step, is farther than this from its platform's on
#: either axis no longer stands on it, and is not carried (the README's touching tolerance).
STANDING_REACH = 0.5

#: pygame compares Vector2s to within this (``Vector2.epsilon``): a frame
#: that changed by less is not re-expressed, as ``before != after`` decided.
_EPSILON = Vector2().epsilon


def _empty(columns: int = 0) -> np.ndarray:
    return np.zeros((0, columns)) if columns else np.zeros(0, np.int64)


@dataclass(slots=True)
class Rides:
    """The bodies standing on a STATIC platform (or on a body on one) at the end of a step, a row
    each, in entity order.

    ``riders`` and ``platforms`` are entities ((n,) int64), ``normals`` the unit
    contact normals from what it stands on to the rider ((n, 2)), ``supports`` the
    entity each stands on where that is not its platform but a body on it (-1 where
    it is the platform; empty when every rider stands on its platform). Movement fills ``carried``
    during the next step: row -> (carry x, carry y, frame x, frame y) for each
    rider it carried by a platform that moves or has a velocity (both still
    existing): the platform's displacement (px), which the rider was moved by
    too (0 for a rider no longer standing on it, which is not moved), and its
    velocity along the normal (px/s), which the rider's velocity along it is
    relative to. Every other rider's carry and frame are 0.
    """

    riders: np.ndarray = field(default_factory=_empty)
    platforms: np.ndarray = field(default_factory=_empty)
    normals: np.ndarray = field(default_factory=lambda: _empty(2))
    supports: np.ndarray = field(default_factory=_empty)
    carried: dict[int, tuple[float, float, float, float]] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.riders)

    def support(self, row: int) -> int:
        """The entity the row's rider stands on: its platform, or the body between."""
        if len(self.supports) and (below := int(self.supports[row])) >= 0:
            return below
        return int(self.platforms[row])


def platform_frame(nx: float, ny: float, vx: float, vy: float) -> tuple[float, float]:
    """The part of a platform's velocity (vx, vy) px/s a rider's velocity is relative to: its
    component along the unit contact normal (nx, ny) (``normal * velocity.dot(normal)``)."""
    along = vx * nx + vy * ny
    return nx * along, ny * along


def changed_frames(old: Rides, new: Rides, platform_velocity: Callable[[int], Vector2 | None],
                   with_physics: Collection[int]) -> list[tuple[int, float, float]]:
    """The riders whose velocity must be re-expressed for the next step's rides, in entity
    order, each with the change (px/s) to add: a body that left its platform gets the frame
    velocity back (``before``), a body that landed gives its new platform's up (``after``);
    one that stays on the same platform keeps its relative velocity (no change).
    ``platform_velocity`` gives a platform's velocity, None if it has no Physics this step;
    ``with_physics``: every STATIC with Physics this step (the only platforms with a velocity:
    a level's tiles, nearly every platform, are not looked up)."""
    riders = old.riders.tolist()
    before = {riders[row]: (fx, fy) for row, (_, _, fx, fy) in old.carried.items()}
    after: dict[int, tuple[float, float]] = {}
    platforms = new.platforms.tolist()
    moving = {}
    for platform in set(platforms).intersection(with_physics) if with_physics else ():
        velocity = platform_velocity(platform)
        if velocity is not None and (velocity[0] or velocity[1]):
            moving[platform] = velocity[0], velocity[1]
    if moving:
        landed, normals = new.riders.tolist(), new.normals.tolist()
        for row, platform in enumerate(platforms):
            if (motion := moving.get(platform)) is not None:
                (nx, ny), (vx, vy) = normals[row], motion
                after[landed[row]] = platform_frame(nx, ny, vx, vy)
    changes = []
    for rider in sorted(before.keys() | after.keys()):
        (bx, by), (ax, ay) = before.get(rider, (0.0, 0.0)), after.get(rider, (0.0, 0.0))
        if not (abs(bx - ax) < _EPSILON and abs(by - ay) < _EPSILON):  # (pygame's ``!=``)
            changes.append((rider, bx - ax, by - ay))
    return changes
