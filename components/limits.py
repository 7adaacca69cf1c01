"""The ranges every value must lie in, so that no accepted scene can overflow.

Components, the World and ``World.step`` reject values outside these ranges
with a ``ValueError`` naming the field; Movement keeps every speed within
``MAX_SPEED``. With them, a step's arithmetic stays far from float overflow
(about 1.8e308) whatever the scene: the largest product the pipeline forms is
a speed times a step times the impacts a body may take in one step, and the
largest sum a coordinate plus a size.
"""

from __future__ import annotations

__all__ = [
    "MAX_ACCELERATION",
    "MAX_COORDINATE",
    "MAX_ELASTICITY",
    "MAX_GRAVITY_SCALE",
    "MAX_MASS",
    "MAX_SIZE",
    "MAX_SPEED",
    "MAX_STEP",
    "MIN_MASS",
]

#: px. Positions and offsets are set within ±1e12 px: beyond that a float
#: no longer resolves a thousandth of a pixel. (Physics may carry a body
#: further; it stays finite.)
MAX_COORDINATE = 1e12

#: px. A collider's width and height lie in (0, 1e12]: a collider needs an
#: area (a point or a line cannot overlap anything, so the discrete pipeline
#: would let it through the floor); use a 1×1 px box for a point.
MAX_SIZE = 1e12

#: px/s. No body moves faster (each component of a velocity is set within
#: ±1e9 px/s, and Movement caps the speed at 1e9 px/s every step).
MAX_SPEED = 1e9

#: px/s². Each component of the World's gravity lies within ±1e9 px/s².
MAX_ACCELERATION = 1e9

#: Multiplier of gravity per body, within ±1e3.
MAX_GRAVITY_SCALE = 1e3

#: Masses lie in [1e-6, 1e6] (any unit: only ratios between bodies matter,
#: and 1e12 to 1 is more than any game needs).
MIN_MASS = 1e-6
MAX_MASS = 1e6

#: Elasticity lies in [0, 10]: 1 is a perfect bounce, above 1 adds energy.
MAX_ELASTICITY = 10.0

#: s. ``World.step(dt)`` takes 0 <= dt <= 1 s.
MAX_STEP = 1.0
