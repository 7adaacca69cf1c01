"""The board stage: riders carried by their platforms this step, and handed to the next.

Movement carried last step's riders (``Memory.rides``) by their platforms' displacement
before the step's collisions were found. ``board`` tells those bodies the platform's
displacement and frame for the stages that follow (the sweep reads them); ``leave_or_land``,
last in the step, hands the riders of this step (``Resolution.rides``) to the next one.
See ``systems.physics._solver.riders``.
"""

from __future__ import annotations

from pygame import Vector2

from systems.physics._stages.context import StepContext
from systems.physics._solver.riders import Rides, express_in_platform_frames

__all__ = ["board", "leave_or_land"]

_ZERO = Vector2()


def board(step: StepContext, rides: Rides) -> None:
    """Tell the bodies Movement carried this step their platform's
    displacement (``carry``, px) and frame (px/s); file them in ``step.riders``."""
    bodies = step.collision.bodies
    for rider, ride in rides.items():
        body = bodies.get(rider)
        if body is not None and ride.carried:
            body.carry, body.frame = ride.carry, ride.frame
            step.riders.append(body)


def leave_or_land(step: StepContext, rides: Rides) -> None:
    """Hand this step's riders to the next step (``rides``, replaced in
    place), re-expressing velocities in their platforms' frames; the bodies
    carried this step are carried no more."""
    bodies, landed = step.collision.bodies, step.state.rides
    velocities = {e: body.physics.velocity for e in rides.keys() | landed.keys()
                  if (body := bodies.get(e)) is not None and body.physics is not None}
    platforms = {ride.platform: body.physics.velocity for ride in landed.values()
                 if (body := bodies.get(ride.platform)) is not None and body.physics is not None}
    express_in_platform_frames(velocities, rides, landed, platforms)
    rides.clear()
    rides.update(landed)
    for body in step.riders:
        body.carry = body.frame = _ZERO
