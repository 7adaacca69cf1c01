"""Validation helpers shared by the component dataclasses.

Every check raises ``ValueError`` naming the offending field, so a typo in a
scene fails at construction instead of turning into NaN three seconds later.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from pygame import Vector2


def finite_number(field: str, value: object) -> float:
    """Return ``value`` as a float, or raise if it is not a finite real number."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{field} must be a number, got {value!r}")
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(f"{field} must be finite, got {value!r}")
    return number


def finite_vector(field: str, value: object) -> Vector2:
    """Return ``value`` (a pair or a Vector2) as a new Vector2 of finite numbers."""
    if isinstance(value, Vector2):
        pair: Sequence[object] = (value.x, value.y)
    elif isinstance(value, Sequence) and not isinstance(value, str) and len(value) == 2:
        pair = value
    else:
        raise ValueError(f"{field} must be a pair of numbers (x, y), got {value!r}")
    x = finite_number(f"{field}.x", pair[0])
    y = finite_number(f"{field}.y", pair[1])
    return Vector2(x, y)


def at_least(field: str, value: float, minimum: float) -> float:
    """Raise unless ``value >= minimum``."""
    if value < minimum:
        raise ValueError(f"{field} must be >= {minimum}, got {value!r}")
    return value


def positive(field: str, value: float) -> float:
    """Raise unless ``value > 0``."""
    if value <= 0:
        raise ValueError(f"{field} must be > 0, got {value!r}")
    return value
