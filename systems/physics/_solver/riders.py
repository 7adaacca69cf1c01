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
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from pygame import Vector2

__all__ = ["Ride", "Rides", "express_in_platform_frames"]

_ZERO = Vector2()


@dataclass(slots=True)
class Ride:
    """A body standing on a STATIC platform at the end of a step.

    ``platform`` is the platform's entity and ``normal`` the unit contact
    normal from the platform to the rider. Movement fills the rest during the
    next step: ``carry`` (px) is the platform's displacement, which the
    rider was moved by too, and ``frame`` (px/s) the platform's velocity
    along ``normal``, which the rider's velocity along it is relative to;
    ``carried`` tells whether both still existed to be carried.
    """

    platform: int
    normal: Vector2
    carry: Vector2 = field(default_factory=Vector2)
    frame: Vector2 = field(default_factory=Vector2)
    carried: bool = False


#: Rider entity -> its Ride; kept in the World's one ``Memory.rides``
#: (``systems.physics._stages.memory``): Response writes it at the end of a
#: step, Movement carries the riders in the next step.
Rides = dict[int, Ride]


def platform_frame(normal: Vector2, platform_velocity: Vector2) -> Vector2:
    """The part of a platform's velocity (px/s) a rider's velocity is
    relative to: its component along the contact normal."""
    return normal * platform_velocity.dot(normal)


def express_in_platform_frames(velocities: Mapping[int, Vector2], old: Rides, new: Rides,
                               platform_velocities: Mapping[int, Vector2]) -> None:
    """Re-express each rider's velocity (px/s, changed in place) for the
    rides of the next step: a body that left its platform gets the frame
    velocity back, a body that landed gives its new platform's up; one that
    stays on the same platform keeps its relative velocity. Riders are
    visited in entity order, so results are deterministic."""
    for rider in sorted(old.keys() | new.keys()):
        velocity = velocities.get(rider)
        if velocity is None:
            continue
        before = old[rider].frame if rider in old and old[rider].carried else _ZERO
        ride = new.get(rider)
        after = _ZERO
        if ride is not None:
            after = platform_frame(ride.normal, platform_velocities.get(ride.platform, _ZERO))
        if before != after:
            velocity += before - after
