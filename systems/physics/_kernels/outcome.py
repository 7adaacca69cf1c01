"""What a run changed, found in one pass over the rows of the bodies it may have changed.

After the resolve kernels, the stage writes back to the components only what changed
(``systems.physics._stages.resolve``): the velocities of rows an impact or push touched, the
positions of rows a sweep or push-out moved, the rows crushed and those left standing on a
platform. Each is a flag or column of the same int row (``table``), read here together, a row
at a time, instead of a pass over the rows for each.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .jit import helper as _helper
from .jit import kernel as _kernel
from .table import CRUSHED, FLAGS, PHYSICS, PLACED, RIDE, STATIC, TOUCHED, VERSION

__all__ = ["outcome"]


@_kernel
def outcome(ints: Any, rows: Any) -> tuple[Any, Any, Any, Any, Any, Any, int]:
    """Among ``rows`` (of the int table ``ints``, ascending): those whose velocity the run
    changed (TOUCHED), whose position it changed (a sweep's path, VERSION, or push-out's
    PLACED), that it crushed, and that landed on a platform, each ascending, the last with
    the row each rests on (RIDE) and the STATIC that ride leads to (``_platform``); and the
    first row whose velocity it changed though it has no Physics (-1 for none: a body without
    Physics has no velocity to change)."""
    n = len(rows)
    touched, moved = np.empty(n, np.int64), np.empty(n, np.int64)
    crushed, riders = np.empty(n, np.int64), np.empty(n, np.int64)
    supports, platforms = np.empty(n, np.int64), np.empty(n, np.int64)
    touches = moves = crushes = rides = 0
    refused = -1
    for k in range(n):
        row = rows[k]
        flags = ints[row, FLAGS]
        if flags & TOUCHED:
            if not flags & PHYSICS and refused < 0:
                refused = row
            touched[touches] = row
            touches += 1
        if ints[row, VERSION] != 0 or flags & PLACED:
            moved[moves] = row
            moves += 1
        if flags & CRUSHED:
            crushed[crushes] = row
            crushes += 1
        if ints[row, RIDE] >= 0:
            platform = _platform(ints, ints[row, RIDE])
            if platform >= 0:
                riders[rides], supports[rides], platforms[rides] = row, ints[row, RIDE], platform
                rides += 1
    return (touched[:touches], moved[:moves], crushed[:crushes], riders[:rides], supports[:rides], platforms[:rides],
            refused)


@_helper
def _platform(ints: Any, row: int) -> int:
    """The STATIC a ride on ``row`` leads to: the row itself if STATIC, else the one its own
    ride leads to (a crate on a crate on a lift rides the lift); -1 where the chain ends at a
    body that rides nothing (a crate on a falling crate), or loops."""
    for _ in range(ints.shape[0]):
        if ints[row, FLAGS] & STATIC:
            return row
        row = ints[row, RIDE]
        if row < 0:
            return -1
    return -1
