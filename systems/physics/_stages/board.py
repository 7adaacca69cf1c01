"""The board stage: riders carried by their platforms this step, and handed to the next.

Movement carried last step's riders (``Memory.rides``) by their platforms' displacement
before the step's collisions were found. ``board`` tells the kernels' tables those bodies'
platform displacement and frame (``StepContext.riders``: their rows and values; the sweep
reads them); ``leave_or_land``, last in the step, hands the riders of this step
(``Resolution.rides``) to the next one. See ``systems.physics._solver.riders``.
"""

from __future__ import annotations

import numpy as np
from pygame import Vector2

from components import Physics

from systems.physics._stages.context import StepContext
from systems.physics._solver.riders import Rides, changed_frames

__all__ = ["board", "leave_or_land"]


def board(step: StepContext, rides: Rides) -> None:
    """File the bodies Movement carried this step in ``step.riders``: their rows of the
    step's bodies and, a row each, their platform's displacement (px) and frame (px/s)."""
    if not len(rides):
        return
    rows = step.collision.rows
    found = [(i, row) for i, (rider, carried) in enumerate(zip(rides.riders.tolist(), rides.carried.tolist()))
             if carried and (row := rows.get(rider)) is not None]
    if found:
        which, at = np.array(found, np.int64).T
        step.riders = (at, np.column_stack((rides.carry[which], rides.frame[which])))


def leave_or_land(step: StepContext, rides: Rides) -> Rides:
    """This step's riders (``Resolution.rides``) for the next step, with the velocities of
    the bodies that left or changed platform re-expressed in their new platforms' frames
    (``rides``: this step's, which are carried no more)."""
    collision, landed = step.collision, step.state.rides
    columns, rows = collision.columns, collision.rows

    def physics_of(entity: int) -> Physics | None:
        row = rows.get(entity)
        return None if row is None else columns.physics[row]

    def velocity_of(entity: int) -> Vector2 | None:
        physics = physics_of(entity)
        return None if physics is None else physics.velocity

    riders, changes = changed_frames(rides, landed, velocity_of)
    for rider, (dx, dy) in zip(riders, changes.tolist()):
        velocity = velocity_of(rider)
        if velocity is not None:
            velocity.update(velocity[0] + dx, velocity[1] + dy)
    return landed
