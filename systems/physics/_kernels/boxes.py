"""Box geometry for the sweep kernel: overlap, push-out and time of impact of boxes.

Ports of ``systems.physics._shapes.geometry`` and ``systems.physics._shapes.impact`` over
plain floats and tuples (a box is (x, y, width, height) px), float for float.
"""

from __future__ import annotations

import math
from typing import Any


from .jit import helper as _helper
from .jit import inlined_helper as _inlined
from .table import TOUCH_EPSILON, _max, _min

__all__: list[str] = []


# -- geometry (systems.physics._shapes.geometry, systems.physics._shapes.impact) ---------------------------------

# Overlap of two intervals along one axis (systems.physics._shapes.geometry.axis_overlap).
@_helper
def _axis_overlap(a_low: float, a_length: float, b_low: float, b_length: float) -> float:
    low = a_low if a_low > b_low else b_low
    a_high, b_high = a_low + a_length, b_low + b_length
    return (a_high if a_high < b_high else b_high) - low


# Signed distance between facing sides (systems.physics._shapes.geometry.directional_gap).
@_helper
def _gap(a_low: float, a_length: float, b_low: float, b_length: float, sign: int) -> float:
    if sign > 0:
        return b_low - (a_low + a_length)
    return a_low - (b_low + b_length)


@_helper
def _entry_fraction(gap_before: float, gap_now: float) -> float:
    if gap_before <= 0.0:
        return 0.0
    return gap_before / (gap_before - gap_now)


@_helper
def _contact_axis(a: Any, b: Any, before_a: Any, before_b: Any, axis: int,
                  tie: float) -> tuple[float, bool, int, float]:
    """Along one axis of a pair that overlaps now, what box_contact weighs:
    the depth to leave by at the start of the step (toward the side b lies
    on, not the overlap's length: see systems.physics._shapes.geometry.box_contact), whether
    they were apart then, the side b lies on (systems.physics._shapes.geometry._facing_sign)
    and when the gap closed."""
    low, length, other_low, other_length = a[axis], a[axis + 2], b[axis], b[axis + 2]
    before = _axis_overlap(before_a[axis], length, before_b[axis], other_length)
    apart = before <= TOUCH_EPSILON
    sign = 1 if tie >= 0 else -1
    delta = (before_b[axis] + other_length / 2) - (before_a[axis] + length / 2)
    if delta == 0.0:
        delta = (other_low + other_length / 2) - (low + length / 2)
    if delta != 0.0:
        sign = 1 if delta > 0 else -1
    entry = 0.0
    if apart:  # (the gap closed: overlapping now, the denominator is > 0)
        entry = _entry_fraction(_gap(before_a[axis], length, before_b[axis], other_length, sign),
                                _gap(low, length, other_low, other_length, sign))
    return -_gap(before_a[axis], length, before_b[axis], other_length, sign), apart, sign, entry


# Minimum displacement vector along the axis the body came through
# (Luke Godfrey, *Rectangle Collisions*; systems.physics._shapes.geometry.box_contact).
@_helper
def _box_contact(a: Any, b: Any, before_a: Any, before_b: Any, tie_x: float,
                 tie_y: float) -> tuple[bool, int, int, float, float, float]:
    """(overlapping, axis, sign, depth, entry, surface) pushing box a out of b."""
    over_x = _axis_overlap(a[0], a[2], b[0], b[2])
    over_y = _axis_overlap(a[1], a[3], b[1], b[3])
    if over_x <= TOUCH_EPSILON or over_y <= TOUCH_EPSILON:  # first, as box_contact does
        return False, 0, 0, 0.0, 0.0, 0.0
    before_x, apart_x, sign_x, entry_x = _contact_axis(a, b, before_a, before_b, 0, tie_x)
    before_y, apart_y, sign_y, entry_y = _contact_axis(a, b, before_a, before_b, 1, tie_y)
    if apart_x != apart_y:
        axis = 0 if apart_x else 1
    elif apart_x:
        axis = 0 if entry_x > entry_y or (entry_x == entry_y and over_x < over_y) else 1
    else:
        axis = 0 if before_x < before_y else 1
        if before_x == before_y:
            axis = 0 if abs(tie_x) > abs(tie_y) else 1
    sign, entry, surface = (sign_x, entry_x, over_y) if axis == 0 else (sign_y, entry_y, over_x)
    return True, axis, sign, -_gap(a[axis], a[axis + 2], b[axis], b[axis + 2], sign), entry, surface


@_helper
def _slab(low: float, length: float, other_low: float, other_length: float,
          move: float) -> tuple[bool, float, float]:
    """(crosses, entry, exit) of one moving interval (systems.physics._shapes.impact._slab)."""
    high, other_high = low + length, other_low + other_length
    if move > 0.0:
        return True, (other_low - high) / move, (other_high - low) / move
    if move < 0.0:
        return True, (other_high - low) / move, (other_low - high) / move
    if high <= other_low + TOUCH_EPSILON or other_high <= low + TOUCH_EPSILON:
        return False, 0.0, 0.0
    return True, -math.inf, math.inf


# Slab test of a moving box against a box at rest (Sacred Software,
# *Collisions, Part 1*; systems.physics._shapes.impact.sweep_boxes).
@_inlined
def _sweep_boxes(a: Any, b: Any, move_x: float, move_y: float) -> tuple[bool, float, int, float, float]:
    """(hit, time, axis, sign, surface) of box a moving by (move_x, move_y) px into box b."""
    if move_x == 0.0 and move_y == 0.0:
        return False, 0.0, 0, 0.0, 0.0
    crosses, x_in, x_out = _slab(a[0], a[2], b[0], b[2], move_x)
    if not crosses:
        return False, 0.0, 0, 0.0, 0.0
    crosses, y_in, y_out = _slab(a[1], a[3], b[1], b[3], move_y)
    if not crosses:
        return False, 0.0, 0, 0.0, 0.0
    entry = y_in if y_in > x_in else x_in
    leave = y_out if y_out < x_out else x_out
    if entry >= leave or entry > 1.0 or leave <= 0.0:
        return False, 0.0, 0, 0.0, 0.0
    if x_in > y_in:
        axis, other_leave, other_move, move = 0, y_out, move_y, move_x
    else:
        axis, other_leave, other_move, move = 1, x_out, move_x, move_y
    if (other_leave - entry) * abs(other_move) <= TOUCH_EPSILON:
        return False, 0.0, 0, 0.0, 0.0
    if entry < 0.0:
        if -entry * abs(move) > TOUCH_EPSILON:
            return False, 0.0, 0, 0.0, 0.0
        entry = 0.0
    sign = 1.0 if move > 0 else -1.0
    other = 1 - axis
    low = a[other] + other_move * entry
    surface = _min(low + a[other + 2], b[other] + b[other + 2]) - _max(low, b[other])
    return True, entry, axis, sign, _max(surface, 0.0)


# The swept broad-phase box of Sacred Software, *Collisions, Part 1*: shapes inside their boxes
# can meet only where a's box, swept along the motion relative to b, reaches b's box.
@_inlined
def _swept_apart(a: Any, move_x: float, move_y: float, b: Any, margin: float) -> bool:
    """Whether box a moving by (move_x, move_y) px (relative to b) stays more than ``margin``
    px (>= 0) from box b all the way: then no shape inside a meets one inside b."""
    left, right = (a[0] + move_x, a[0] + a[2]) if move_x < 0.0 else (a[0], a[0] + a[2] + move_x)
    top, bottom = (a[1] + move_y, a[1] + a[3]) if move_y < 0.0 else (a[1], a[1] + a[3] + move_y)
    return bool(b[0] > right + margin or b[0] + b[2] < left - margin or b[1] > bottom + margin
                or b[1] + b[3] < top - margin)
