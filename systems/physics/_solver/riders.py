"""Riders: bodies standing on a STATIC platform are carried along with it.

Response records, at the end of each step, which bodies rest on a STATIC
collider (the contact normal from the platform to the body within 60° of
"up", against gravity). During the next step Movement moves each of them by
its platform's displacement, whatever the platform does: starts, stops,
reverses, drops at 600 px/s. While a body rides, its own velocity along the
contact normal is relative to the platform's (a rider standing on a lift has
a vertical velocity of about 0, not the lift's), so the platform's reversal
never tosses it; when it leaves (jumps or walks off) the platform's velocity
along the normal is added back, so a jump from a rising lift goes higher.
Along the surface the platform only carries by position (Godot and Phaser
do the same): a rider's sideways velocity stays its own.

A platformer has a rider for nearly every body at rest (the ground is a
platform that doesn't move), so the rides are arrays, a row per rider, and
only the riders whose platform moves cost Python work.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from pygame import Vector2

__all__ = ["Rides", "changed_frames", "platform_frames"]

#: pygame compares Vector2s to within this (``Vector2.epsilon``): a frame
#: that changed by less is not re-expressed, as ``before != after`` decided.
_EPSILON = Vector2().epsilon


def _empty(columns: int = 0) -> np.ndarray:
    return np.zeros((0, columns)) if columns else np.zeros(0, np.int64)


@dataclass(slots=True)
class Rides:
    """The bodies standing on a STATIC platform at the end of a step, a row each, in entity order.

    ``riders`` and ``platforms`` are entities ((n,) int64), ``normals`` the unit
    contact normals from platform to rider ((n, 2)). Movement fills the rest
    during the next step: ``carry`` (px, (n, 2)) the platform's displacement,
    which the rider was moved by too, ``frame`` (px/s, (n, 2)) the platform's
    velocity along the normal, which the rider's velocity along it is
    relative to, and ``carried`` ((n,) bool) whether both still existed to be
    carried (carry and frame are 0 where not).
    """

    riders: np.ndarray = field(default_factory=_empty)
    platforms: np.ndarray = field(default_factory=_empty)
    normals: np.ndarray = field(default_factory=lambda: _empty(2))
    carry: np.ndarray = field(default_factory=lambda: _empty(2))
    frame: np.ndarray = field(default_factory=lambda: _empty(2))
    carried: np.ndarray = field(default_factory=lambda: np.zeros(0, bool))

    @classmethod
    def landed(cls, riders: np.ndarray, platforms: np.ndarray, normals: np.ndarray) -> Rides:
        """The rides of bodies that stand on ``platforms`` now (``riders`` ascending)."""
        n = len(riders)
        return cls(riders, platforms, normals, np.zeros((n, 2)), np.zeros((n, 2)), np.zeros(n, bool))

    def __len__(self) -> int:
        return len(self.riders)


def platform_frames(normals: np.ndarray, platform_velocities: np.ndarray) -> np.ndarray:
    """The part of each platform's velocity (px/s, (n, 2)) a rider's velocity
    is relative to: its component along the contact normal (px/s, (n, 2)),
    with the float operations of ``normal * velocity.dot(normal)``."""
    along = platform_velocities[:, 0] * normals[:, 0] + platform_velocities[:, 1] * normals[:, 1]
    frames: np.ndarray = normals * along[:, None]
    return frames


def changed_frames(old: Rides, new: Rides,
                   platform_velocity: Callable[[int], Vector2 | None]) -> tuple[list[int], np.ndarray]:
    """The riders whose velocity must be re-expressed for the next step's rides, in entity
    order, each with the change (px/s, (k, 2)) to add: a body that left its platform gets the
    frame velocity back (``before``), a body that landed gives its new platform's up
    (``after``); one that stays on the same platform keeps its relative velocity (no change).
    ``platform_velocity`` gives a platform's velocity, None if it has no Physics this step."""
    everyone = np.union1d(old.riders, new.riders)
    before, after = np.zeros((len(everyone), 2)), np.zeros((len(everyone), 2))
    kept = np.searchsorted(everyone, old.riders)
    before[kept[old.carried]] = old.frame[old.carried]
    if len(new):
        platforms, which = np.unique(new.platforms, return_inverse=True)
        velocities = np.zeros((len(platforms), 2))
        for i, platform in enumerate(platforms.tolist()):
            velocity = platform_velocity(platform)
            if velocity is not None:
                velocities[i] = velocity.x, velocity.y
        after[np.searchsorted(everyone, new.riders)] = platform_frames(new.normals, velocities[which.reshape(-1)])
    differ = np.flatnonzero(~(np.abs(before - after) < _EPSILON).all(axis=1))  # (pygame's ``!=``)
    return everyone[differ].tolist(), before[differ] - after[differ]
