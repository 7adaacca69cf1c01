"""Easing curves: how far along (0 at the start, 1 at the end) a tween is at a
fraction ``t`` in [0, 1] of its duration.

The families and their "in" curves are Robert Penner's, *Robert Penner's
Easing Equations* (as tabulated by Andrey Sitnik and Ivan Solovev,
*Easing Functions Cheat Sheet*, easings.net). Each family is defined once, by
its "in" curve (slow start); "out" is its mirror, ``1 - in(1 - t)``, and
"in_out" plays "in" over the first half and "out" over the second. (Penner's
own "in_out" for back and elastic widens the overshoot and the period; here
every family keeps its own in both halves.) Every curve gives exactly 0 at
t = 0 and exactly 1 at t = 1; back and elastic leave [0, 1] in between.

Names: ``"linear"`` and ``"<in|out|in_out>_<family>"`` for the families quad,
cubic, quart, quint, sine, expo, circ, back, elastic and bounce, e.g.
``"out_quad"``, ``"in_out_sine"``; ``EASES`` maps every name to its function.
A tween may also take any function of t of your own.
"""

from __future__ import annotations

import math
from collections.abc import Callable

__all__ = ["EASES", "Ease", "check_ease", "curve"]

Ease = Callable[[float], float]

_BACK = 1.70158  # Penner's overshoot: about 10 % past the end
_ELASTIC = 2 * math.pi / 3  # radians of oscillation per tenth of the duration
_BOUNCE = 7.5625  # the bounce parabolas' curvature, with their spacing 2.75


def _power(exponent: int) -> Ease:
    def in_power(t: float) -> float:
        return t ** exponent
    return in_power


def _in_sine(t: float) -> float:
    return 1 - math.cos(t * math.pi / 2)


def _in_expo(t: float) -> float:
    return 2 ** (10 * t - 10)


def _in_circ(t: float) -> float:
    return 1 - math.sqrt(1 - t * t)


def _in_back(t: float) -> float:
    return (_BACK + 1) * t ** 3 - _BACK * t ** 2


def _in_elastic(t: float) -> float:
    return -(2 ** (10 * t - 10)) * math.sin((10 * t - 10.75) * _ELASTIC)


def _out_bounce(t: float) -> float:
    """Four parabolas, each touching 1, lower and shorter one after the other."""
    if t < 1 / 2.75:
        return _BOUNCE * t * t
    if t < 2 / 2.75:
        return _BOUNCE * (t - 1.5 / 2.75) ** 2 + 0.75
    if t < 2.5 / 2.75:
        return _BOUNCE * (t - 2.25 / 2.75) ** 2 + 0.9375
    return _BOUNCE * (t - 2.625 / 2.75) ** 2 + 0.984375


def _in_bounce(t: float) -> float:
    return 1 - _out_bounce(1 - t)


def _out(curve: Ease) -> Ease:
    def out(t: float) -> float:
        return 1 - curve(1 - t)
    return out


def _in_out(curve: Ease) -> Ease:
    def in_out(t: float) -> float:
        return curve(2 * t) / 2 if t < 0.5 else 1 - curve(2 - 2 * t) / 2
    return in_out


_FAMILIES: dict[str, Ease] = {
    "quad": _power(2), "cubic": _power(3), "quart": _power(4), "quint": _power(5), "sine": _in_sine,
    "expo": _in_expo, "circ": _in_circ, "back": _in_back, "elastic": _in_elastic, "bounce": _in_bounce,
}


def _pinned(curve: Ease) -> Ease:
    """``curve`` with its ends exact: 0 at t <= 0 and 1 at t >= 1 (expo's
    formula gives 2**-10 at 0, sine's 1 - cos(pi/2) a hair under 1)."""
    def pinned(t: float) -> float:
        return 0.0 if t <= 0 else 1.0 if t >= 1 else curve(t)
    return pinned


#: Every easing curve by name.
EASES: dict[str, Ease] = {"linear": _pinned(lambda t: t)}
for _family, _curve in _FAMILIES.items():
    EASES[f"in_{_family}"] = _pinned(_curve)
    EASES[f"out_{_family}"] = _pinned(_out(_curve))
    EASES[f"in_out_{_family}"] = _pinned(_in_out(_curve))


def check_ease(field: str, value: object) -> str | Ease:
    """``value`` if it names a curve of ``EASES`` or is a function of t; else
    ``ValueError`` naming ``field``. (A name is kept as the name: it survives
    a snapshot, a function only if it is defined at a module's top level.)"""
    if isinstance(value, str):
        if value not in EASES:
            raise ValueError(f"{field} must be one of {', '.join(EASES)} or a function of t, got {value!r}")
        return value
    if not callable(value):
        raise ValueError(f"{field} must be the name of an easing curve or a function of t, got {value!r}")
    return value


def curve(ease: str | Ease) -> Ease:
    """The function ``ease`` names, or ``ease`` itself."""
    return EASES[ease] if isinstance(ease, str) else ease
