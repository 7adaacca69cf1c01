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

from systems.physics._stages.context import StepContext
from systems.physics._solver.riders import Rides, changed_frames

__all__ = ["board", "leave_or_land"]


def board(step: StepContext, rides: Rides) -> None:
    """File the bodies Movement carried this step in ``step.riders``: their rows of the
    step's bodies and, a row each, their platform's displacement (px) and frame (px/s)."""
    rows = step.collision.rows
    riders = rides.riders
    found = [(row, values) for ride, values in rides.carried.items()
             if (row := rows.get(int(riders[ride]))) is not None]
    if found:
        step.riders = (np.array([row for row, _ in found], np.int64), np.array([values for _, values in found]))


def leave_or_land(step: StepContext, rides: Rides) -> Rides:
    """This step's riders (``Resolution.rides``) for the next step, with the velocities of
    the bodies that left or changed platform re-expressed in their new platforms' frames
    (``rides``: this step's, which are carried no more)."""
    collision, landed = step.collision, step.state.rides
    columns, rows = collision.columns, collision.rows

    def velocity_of(entity: int) -> Vector2 | None:
        row = rows.get(entity)
        physics = None if row is None else columns.physics[row]
        return None if physics is None else physics.velocity

    for rider, dx, dy in changed_frames(rides, landed, velocity_of, collision.static_movers):
        velocity = velocity_of(rider)
        if velocity is not None:
            velocity.update(velocity[0] + dx, velocity[1] + dy)
    return landed
