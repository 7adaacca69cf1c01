"""TweenSystem: plays every entity's Tweens on the fixed step."""

from __future__ import annotations

import math
from typing import Any

import esper
from pygame import Vector2

from components import Collider, Physics, Transform
from components._checks import Validated
from components.easing import curve
from components.tween import Tween, Tweens, Value
from systems._world import WorldLike

__all__ = ["TWEEN_PRIORITY", "TweenSystem", "value_at"]

#: The TweenSystem's priority: before Movement (300) and the user's systems at
#: 0, so the physics and your code see this step's tweened values.
TWEEN_PRIORITY = 400

#: Relative slack on a tween's end: thirty steps of 1/60 s add up to a hair
#: under 0.5 s in floating point, and a 0.5 s tween must end on the thirtieth.
SLACK = 1e-9


def value_at(tween: Tween, start: Value, time: float) -> tuple[Value, bool]:
    """(value, ended) of ``tween`` from ``start``, ``time`` s after its delay ended."""
    cycle = tween.duration * (2 if tween.yoyo else 1)
    if time >= tween.length * (1 - SLACK):
        return (start if tween.yoyo else tween.to), True
    within = math.fmod(time, cycle)
    if within >= cycle * (1 - SLACK):  # a whole cycle, up to rounding: the next play's start
        within = 0.0
    forward = within if within <= tween.duration else cycle - within
    k = curve(tween.ease)(forward / tween.duration)
    return _between(start, tween.to, k), False


def _between(start: Value, end: Value, k: float) -> Value:
    """``k`` of the way from ``start`` to ``end`` (past either for k outside [0, 1]); exactly
    ``start`` at 0 and ``end`` at 1, unlike start + (end - start)·k."""
    if isinstance(start, Vector2) and isinstance(end, Vector2):
        return start * (1 - k) + end * k
    if isinstance(start, Vector2) or isinstance(end, Vector2):
        raise ValueError(f"a Tween's start and to must both be numbers or both pairs, got {start!r} and {end!r}")
    return start * (1 - k) + end * k


class TweenSystem(esper.Processor):
    """Advance every ``Tweens`` component by the step and set the fields it eases.

    A tween begins once its delay is over: its ``start`` (None) becomes the
    field's value then. A tween that ends within a step hands the rest of the
    step to the next tween of its track, sets its end value exactly (``to``,
    or its start after a yoyo) and calls ``on_done(entity)``. The component
    is removed the step after its last track ended, unless ``on_done`` gave
    it more.
    """

    def __init__(self, world: WorldLike) -> None:
        self.world = world

    def process(self, dt: float) -> None:
        ended = []
        for entity, tweens in self.world.get_component(Tweens):
            self._settle(entity)
            if not tweens.tracks:
                ended.append((entity, tweens))
            for track in tweens.tracks:
                left: float | None = dt
                while track and left is not None:
                    left = self._advance(entity, track[0], left)
                    if left is not None:
                        done = track.pop(0).on_done
                        if done is not None:
                            done(entity)
            tweens.tracks[:] = [track for track in tweens.tracks if track]
        for entity, tweens in ended:  # unless an on_done gave it a new Tweens, or more tracks
            if self.world.try_component(entity, Tweens) is tweens and not tweens.tracks:
                self.world.remove_component(entity, Tweens)

    def _settle(self, entity: int) -> None:
        """Make where the entity is its ``previous_position``, if nothing else does: drawing
        goes from there to where this step's tweens take it, and stays put after them. (Movement
        does it for a body with Physics, Collision for a collider without; a Tweens component
        stays one step after its last tween ends, empty, for this.)"""
        transform = self.world.try_component(entity, Transform)
        if transform is not None and self.world.try_component(entity, Physics) is None and (
                self.world.try_component(entity, Collider) is None):
            transform.previous_position[:] = transform.position

    def _advance(self, entity: int, tween: Tween, dt: float) -> float | None:
        """Move ``tween`` on by ``dt`` s; the seconds left over if it ended, else None."""
        before = tween.elapsed
        tween.elapsed = before + dt
        time = tween.elapsed - tween.delay
        if time < 0:
            return None
        owner = self._owner(entity, tween)
        if tween.start is None:
            tween.start = _read(owner, tween.field)
        value, ended = value_at(tween, tween.start, time)
        try:
            _write(owner, tween.field, value)
        except ValueError as error:  # (a ``to`` outside the field's range: the value on the way refused)
            target = getattr(tween.target, "__name__", type(tween.target).__name__)
            raise ValueError(f"entity {entity}: a Tween of {target}.{tween.field} to {tween.to!r}: {error}") from error
        return max(time - tween.length, 0.0) if ended else None

    def _owner(self, entity: int, tween: Tween) -> Any:
        """The object whose field ``tween`` eases: the entity's component, or the object itself."""
        if not isinstance(tween.target, type):
            return tween.target
        component = self.world.try_component(entity, tween.target)
        if component is None:
            raise ValueError(f"entity {entity}: a Tween eases {tween.target.__name__}.{tween.field}, but the "
                             f"entity has no {tween.target.__name__}")
        return component


def _read(owner: Any, path: str) -> Value:
    """The number or pair at ``path`` (``"zoom"``, ``"position"``, ``"position.x"``) of ``owner``."""
    value = owner
    for part in path.split("."):
        value = getattr(value, part)
    return value.copy() if hasattr(value, "copy") else float(value)


def _write(owner: Any, path: str, value: Value) -> None:
    """Set ``path`` of ``owner``: through the component's checks for a field, in place for
    ``x``/``y``; a component's vector field in place too, checked as an assignment would be
    (``set_in_place``: a new Vector2 every step would have every step list the vectors again)."""
    *inner, last = path.split(".")
    for part in inner:
        owner = getattr(owner, part)
    if isinstance(owner, Validated) and isinstance(getattr(owner, last), Vector2):
        owner.set_in_place(last, value)
    else:
        setattr(owner, last, value)
