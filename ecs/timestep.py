"""Fixed timestep: turn variable frame times into constant physics steps."""

from __future__ import annotations

import math

__all__ = ["FixedTimestep"]


class FixedTimestep:
    """An accumulator that hands out whole physics steps of ``step`` seconds.

    Each frame, ``advance(elapsed)`` adds the frame's real time and returns how
    many steps to run. At most ``max_steps`` are returned per frame: a slow
    frame drops the excess time instead of spiralling into ever longer
    frames. ``alpha`` in [0, 1) is how far the leftover time reaches into the
    next step, for drawing between the last two physics states ("Fix Your
    Timestep").
    """

    def __init__(self, step: float = 1.0 / 60.0, max_steps: int = 5) -> None:
        if not (isinstance(step, (int, float)) and math.isfinite(step) and step > 0):
            raise ValueError(f"step must be a finite number of seconds > 0, got {step!r}")
        if not (isinstance(max_steps, int) and max_steps >= 1):
            raise ValueError(f"max_steps (Game's max_steps_per_frame) must be an int >= 1, got {max_steps!r}")
        self.step = float(step)
        self.max_steps = max_steps
        self.accumulator = 0.0
        self.dropped = 0.0

    def advance(self, elapsed: float) -> int:
        """Add ``elapsed`` seconds (>= 0) and return the number of steps to run."""
        if not (math.isfinite(elapsed) and elapsed >= 0):
            raise ValueError(f"elapsed must be a finite number of seconds >= 0, got {elapsed!r}")
        self.accumulator += elapsed
        steps = int(self.accumulator // self.step)
        if steps > self.max_steps:
            self.dropped += (steps - self.max_steps) * self.step
            steps = self.max_steps
            self.accumulator = min(self.accumulator - steps * self.step, self.step * 0.999999)
        else:
            self.accumulator -= steps * self.step
        return steps

    @property
    def alpha(self) -> float:
        """Fraction of a step the accumulator holds, in [0, 1)."""
        return min(self.accumulator / self.step, 0.999999)
