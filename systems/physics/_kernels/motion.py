"""Movement's rule: gravity, damping, the speed caps and semi-implicit Euler, for one body and for all.

Each step a body gains gravity · gravity scale · dt of velocity, is damped (its velocity times
1 / (1 + damping · dt), Box2D's Padé form of e^(−damping·dt), stable at any step), has its
speed clamped to its cap and to the world's, then moves by its new velocity · dt: semi-implicit (symplectic) Euler,
the integrator of Erin Catto's *Box2D* and of the fizz collision tutorial, which keeps a
bouncing body's energy where explicit Euler adds to it.

``advance`` is the rule for one body, on floats. ``move_bodies`` runs it over every moving
body, reading and writing the components' Vector2s where pygame keeps their coordinates
(``storage``), so no float object is made. Where that kernel does not run (the plain copy, a
Game's first run while the kernels compile, a pygame laid out otherwise) or for a few bodies,
the move stage (``systems.physics._stages.move``) calls ``advance`` from Python for each body:
one rule either way, to the bit. ``advance`` calls no other kernel function, so that the
compiled copy's Python original (``py_func``) runs as it is.
"""

from __future__ import annotations

import math
from typing import Any

from .jit import inlined_helper as _inlined
from .jit import kernel as _kernel
from .storage import _double_at, _put_double

__all__ = ["advance", "move_bodies"]


@_inlined
def advance(x: float, y: float, vx: float, vy: float, pulled: bool, gx: float, gy: float, scale: float,
            damping: float, cap: float, world_cap: float, dt: float) -> tuple[float, float, float, float]:
    """One body's step: its position (x, y) in px and velocity (vx, vy) in px/s after ``dt``
    seconds, as (x, y, vx, vy).

    ``pulled``: whether the world has gravity; (gx, gy): gravity · dt (px/s), added times
    ``scale`` (the body's gravity scale; 0 for a STATIC, which moves only by its own velocity)
    only where both hold, so a still body's signed zeros stay as they are. ``damping``: the
    body's linear damping (1/s, 0 for none and for a STATIC). ``cap``: the body's
    speed cap in px/s (``math.inf`` for none); ``world_cap``: the world's. A speed above a cap
    is scaled to it along the velocity (as pygame's ``scale_to_length``).
    """
    if pulled and scale != 0.0:
        vx, vy = vx + gx * scale, vy + gy * scale
    if damping != 0.0:
        keep = 1.0 / (1.0 + damping * dt)
        vx, vy = vx * keep, vy * keep
    speed_squared = vx * vx + vy * vy
    if speed_squared > cap * cap or speed_squared > world_cap * world_cap:
        # (a speed whose square overflows, from about 1.3e154 px/s, measured without squaring)
        speed = math.sqrt(speed_squared) if speed_squared != math.inf else math.hypot(vx, vy)
        fraction = (cap if speed_squared > cap * cap else world_cap) / speed
        vx, vy = vx * fraction, vy * fraction
    return x + vx * dt, y + vy * dt, vx, vy


@_kernel
def move_bodies(positions: Any, previous: Any, velocities: Any, scales: Any, dampings: Any, caps: Any,
                pulled: bool, gx: float, gy: float, world_cap: float, dt: float) -> None:
    """``advance`` every body k, whose position's, previous position's and velocity's
    coordinates are at ``positions[k]``, ``previous[k]`` and ``velocities[k]``
    (``storage.coordinates``), its gravity scale, damping and speed cap ``scales[k]``,
    ``dampings[k]`` and ``caps[k]``:
    the position is kept as the previous one, then the new position and velocity written.
    Arrays of other lengths raise before anything is written: this writes to memory by
    address."""
    count = positions.shape[0]
    if not (previous.shape[0] == velocities.shape[0] == scales.shape[0] == dampings.shape[0] == caps.shape[0]
            == count):
        raise ValueError("move_bodies: one position, previous position, velocity, scale, damping and cap per body")
    for k in range(count):
        at, speed = positions[k], velocities[k]
        x, y = _double_at(at), _double_at(at + 8)
        _put_double(previous[k], x)
        _put_double(previous[k] + 8, y)
        x, y, vx, vy = advance(x, y, _double_at(speed), _double_at(speed + 8), pulled, gx, gy, scales[k],
                               dampings[k], caps[k], world_cap, dt)
        _put_double(speed, vx)
        _put_double(speed + 8, vy)
        _put_double(at, x)
        _put_double(at + 8, y)
