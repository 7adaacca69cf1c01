"""Timers: callbacks after a delay or every period, on the fixed step."""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable
from dataclasses import dataclass, field

import esper

from components import limits
from components._checks import number_in, whole_number
from systems._world import WorldLike

__all__ = ["TIMER_PRIORITY", "Timer", "TimerSystem", "Timers"]

#: The TimerSystem's priority: first in the step, so what a callback does
#: (spawn an enemy, start a tween) moves with this step's physics.
TIMER_PRIORITY = 500

#: Relative slack on a due time: thirty steps of 1/60 s add up to a hair
#: under 0.5 s in floating point, and a timer due at 0.5 s must fire on the thirtieth.
SLACK = 1e-9

_seconds = number_in(0.0, limits.MAX_FRAME_DURATION, " s")

#: s. The shortest period of a repeating timer.
MIN_PERIOD = 1e-3


@dataclass(order=True)
class Timer:
    """One pending callback (made by ``Timers.after`` and ``Timers.every``).

    - ``due``: the ``Timers.now`` (s) it fires at next; ``period``: seconds
      between firings, 0 for a one-off; ``left``: firings to come (None: no end).
    - ``cancel()`` stops it; ``cancelled`` says so.
    """

    due: float
    order: int
    period: float = field(compare=False)
    left: int | None = field(compare=False)
    callback: Callable[[], object] = field(compare=False, repr=False)
    cancelled: bool = field(default=False, compare=False)

    def cancel(self) -> None:
        """Stop the timer: it does not fire again."""
        self.cancelled = True


class Timers:
    """A scene's timers (a World resource, ``world.resource(Timers)``).

    ``after(seconds, callback)`` calls ``callback()`` once, ``seconds`` from
    now; ``every(seconds, callback, times=None)`` every ``seconds`` (``times``
    in all, None: until cancelled). Time is the scene's: it runs with the
    fixed physics step (``now`` is the seconds stepped) and stands still while
    the scene is paused. Timers due in the same step fire in the order they
    are due, equal ones in the order they were made; one made by a callback
    counts from the time its maker was due.
    """

    def __init__(self) -> None:
        self.now = 0.0
        self._queue: list[Timer] = []
        self._made = itertools.count()
        self._firing: float | None = None  # the due time of the timer firing now

    def after(self, seconds: float, callback: Callable[[], object]) -> Timer:
        """Call ``callback()`` once, ``seconds`` (in [0, 1e6]) from now."""
        return self._add(_seconds("seconds", seconds), 0.0, 1, callback)

    def every(self, seconds: float, callback: Callable[[], object], times: int | None = None) -> Timer:
        """Call ``callback()`` every ``seconds`` (in [0.001, 1e6]), the first time
        ``seconds`` from now; ``times`` times (an int >= 1), or until cancelled."""
        period = _seconds("seconds", seconds)
        if period < MIN_PERIOD:  # (a shorter one would fire thousands of times a step)
            raise ValueError(f"seconds must be >= {MIN_PERIOD} for a repeating timer, got {seconds!r}")
        return self._add(period, period, None if times is None else whole_number("times", times, 1), callback)

    def _add(self, delay: float, period: float, left: int | None, callback: Callable[[], object]) -> Timer:
        if not callable(callback):
            raise ValueError(f"callback must be a function of no arguments, got {callback!r}")
        base = self.now if self._firing is None else self._firing
        timer = Timer(base + delay, next(self._made), period, left, callback)
        heapq.heappush(self._queue, timer)
        return timer

    @property
    def pending(self) -> list[Timer]:
        """The timers still to fire, soonest first."""
        return sorted(timer for timer in self._queue if not timer.cancelled)

    def advance(self, dt: float) -> None:
        """Move time on by ``dt`` s and fire every timer due by then."""
        self.now += dt
        limit = self.now + SLACK * max(1.0, abs(self.now))
        while self._queue and self._queue[0].due <= limit:
            timer = heapq.heappop(self._queue)
            if timer.cancelled:
                continue
            if timer.left is not None:
                timer.left -= 1
            again = timer.period > 0 and timer.left != 0
            if again:
                timer.due += timer.period
                timer.order = next(self._made)
                heapq.heappush(self._queue, timer)
            self._firing = timer.due - timer.period if again else timer.due
            try:
                timer.callback()
            finally:
                self._firing = None


class TimerSystem(esper.Processor):
    """Advance the World's ``Timers`` resource by the step, firing what is due."""

    def __init__(self, world: WorldLike) -> None:
        self.world = world

    def process(self, dt: float) -> None:
        timers = self.world.resources.get(Timers)
        if timers is not None:
            timers.advance(dt)
