"""Collision geometry for axis-aligned boxes: pure functions, no world state.

A box is a tuple ``(left, top, width, height)`` in px, y growing downward.
Functions that work along one axis take ``axis`` (0 for x, 1 for y) instead
of existing as an x copy and a y copy. Nothing here imports esper or
pygame's display, so every function is tested on its own.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from pygame import Vector2

from components.layers import Side

__all__ = [
    "Box",
    "BoxContact",
    "Penetration",
    "TOUCH_EPSILON",
    "Tie",
    "TIES",
    "tie_direction",
    "axis_overlap",
    "boxes_overlap",
    "boxes_touch",
    "directional_gap",
    "face_toward",
    "outside",
    "box_contact",
    "union_box",
]

Box = tuple[float, float, float, float]

#: A unit direction (x, y) from a to b to fall back on when two shapes sit
#: exactly on one spot (a pile spawned at one point), so that pairs of a
#: pile push apart in many directions rather than all along one axis.
Tie = tuple[float, float]

# Overlaps at or below this many px count as touching, not penetrating: it
# absorbs the rounding left by pushing a body exactly flush with another.
TOUCH_EPSILON = 1e-7


class BoxContact(NamedTuple):
    """How box a penetrates box b.

    ``axis`` is 0 (x) or 1 (y); ``sign`` is +1 when the normal from a to b
    points along +axis, -1 otherwise. ``depth`` (px, > 0) is how far a must
    move against the normal to stop touching b. ``entry`` in [0, 1] is the
    fraction of the step at which the boxes started to overlap (0 when they
    already overlapped). ``surface`` (px) is the overlap along the other axis:
    the length of the touching faces.
    """

    axis: int
    sign: int
    depth: float
    entry: float
    surface: float


# Overlap of two intervals along one axis: > 0 overlapping, <= 0 the gap.
class Penetration(NamedTuple):
    """How far a is inside b: push a by ``depth`` px against ``normal`` (a->b).

    ``entry`` in [0, 1] is when in the step the overlap began (0 if it was
    already there or is unknown); ``surface`` (px) the touching faces' length.
    """

    normal: Vector2
    depth: float
    entry: float
    surface: float


def axis_overlap(a: Box, b: Box, axis: int) -> float:
    """Length (px) by which a and b overlap along ``axis``; negative is a gap."""
    low = a[axis] if a[axis] > b[axis] else b[axis]
    a_high = a[axis] + a[axis + 2]
    b_high = b[axis] + b[axis + 2]
    return (a_high if a_high < b_high else b_high) - low


# Separating axis test for two AABBs.
def boxes_overlap(a: Box, b: Box) -> bool:
    """True when a and b penetrate by more than TOUCH_EPSILON on both axes."""
    return axis_overlap(a, b, 0) > TOUCH_EPSILON and axis_overlap(a, b, 1) > TOUCH_EPSILON


# Separating axis test for two AABBs, counting touching as meeting.
def boxes_touch(a: Box, b: Box) -> bool:
    """True when a and b overlap or touch (share an edge or a corner)."""
    return axis_overlap(a, b, 0) >= 0.0 and axis_overlap(a, b, 1) >= 0.0


# Signed distance between facing sides along one axis.
def directional_gap(a: Box, b: Box, axis: int, sign: int) -> float:
    """Gap (px) from a's side facing b to b's side facing a, along ``axis``.

    With ``sign`` +1, b lies toward +axis: the gap is b's low side minus a's
    high side. Negative values are how deep a has gone in from that side,
    which stays meaningful even after a has passed b's centre.
    """
    if sign > 0:
        return b[axis] - (a[axis] + a[axis + 2])
    return a[axis] - (b[axis] + b[axis + 2])


# The face a contact normal leaves through: its dominant axis and sign.
def face_toward(normal: tuple[float, float]) -> Side:
    """The face of a collider whose outward normal is closest to ``normal``
    (x, y; y grows downward): the side of it the other body touches. A 45°
    normal (a ramp's) counts as the top or bottom."""
    x, y = normal
    if abs(x) > abs(y):
        return Side.RIGHT if x > 0 else Side.LEFT
    return Side.BOTTOM if y > 0 else Side.TOP


# Half-plane test against one face of a box.
def outside(box: Box, other: Box, face: Side, tolerance: float) -> bool:
    """Whether ``box`` lies entirely on the outer side of ``other``'s ``face``
    (overlapping it by at most ``tolerance`` px)."""
    if face is Side.TOP:
        return box[1] + box[3] <= other[1] + tolerance
    if face is Side.BOTTOM:
        return box[1] >= other[1] + other[3] - tolerance
    if face is Side.LEFT:
        return box[0] + box[2] <= other[0] + tolerance
    return box[0] >= other[0] + other[2] - tolerance


#: Directions k·(golden angle), k = 0..255: evenly spread around the circle.
TIES: list[Tie] = [(math.cos(k * 2.399963229728653), math.sin(k * 2.399963229728653)) for k in range(256)]


def tie_direction(a: int, b: int) -> Tie:
    """A unit direction (x, y), the same every time for the pair (a, b) and
    spread around the circle over many pairs (a table lookup: cheap)."""
    return TIES[(a * 40503 + b * 9973) % 256]


# Union of two AABBs (the swept bounds of a box that moved between them).
def union_box(a: Box, b: Box) -> Box:
    """Smallest box holding both a and b."""
    left = a[0] if a[0] < b[0] else b[0]
    top = a[1] if a[1] < b[1] else b[1]
    right = max(a[0] + a[2], b[0] + b[2])
    bottom = max(a[1] + a[3], b[1] + b[3])
    return (left, top, right - left, bottom - top)


def _facing_sign(a: Box, b: Box, before_a: Box, before_b: Box, axis: int, tie: Tie) -> int:
    """+1 when b lies toward +axis of a, judged first from where they were;
    ``tie`` decides for centres that coincide then and now."""
    for first, second in ((before_a, before_b), (a, b)):
        delta = (second[axis] + second[axis + 2] / 2) - (first[axis] + first[axis + 2] / 2)
        if delta != 0.0:
            return 1 if delta > 0 else -1
    return 1 if tie[axis] >= 0 else -1


def _entry_fraction(gap_before: float, gap_now: float) -> float:
    """When in [0, 1] a gap shrinking linearly from gap_before to gap_now closed."""
    if gap_before <= 0.0:
        return 0.0
    return gap_before / (gap_before - gap_now)


# Minimum displacement vector, choosing the axis the body came through
# (the least-overlap axis of Luke Godfrey, *Rectangle Collisions*;
# the crack problem of Sacred Software, *Collisions, Part 1*).
def box_contact(a: Box, b: Box, before_a: Box, before_b: Box, tie: Tie = (0.0, 1.0)) -> BoxContact | None:
    """The contact pushing a out of b, or None if they only touch or are apart.

    ``before_a`` and ``before_b`` are the boxes at the start of the step. If
    the pair already overlapped along one axis then, the body came in through
    the other axis and is pushed back out the way it came: this is what keeps
    a body sliding over flush tiles from snagging on their seams, where the
    plain least-overlap rule would push it sideways. Entering across a corner,
    the axis whose gap closed last is the one hit. Bodies that already
    overlapped on both axes take the axis of least penetration (the depth
    to leave by) at the start of the step (for a pile spawned on one spot, ``tie``, a unit direction a->b
    chosen per pair, picks the axis and side when nothing else does).
    """
    overlap = (axis_overlap(a, b, 0), axis_overlap(a, b, 1))
    if overlap[0] <= TOUCH_EPSILON or overlap[1] <= TOUCH_EPSILON:
        return None
    before = (axis_overlap(before_a, before_b, 0), axis_overlap(before_a, before_b, 1))
    apart = (before[0] <= TOUCH_EPSILON, before[1] <= TOUCH_EPSILON)
    signs = (
        _facing_sign(a, b, before_a, before_b, 0, tie),
        _facing_sign(a, b, before_a, before_b, 1, tie),
    )
    entries = [0.0, 0.0]
    for axis in (0, 1):
        if apart[axis]:
            gap_before = directional_gap(before_a, before_b, axis, signs[axis])
            gap_now = directional_gap(a, b, axis, signs[axis])
            entries[axis] = _entry_fraction(gap_before, gap_now)
    if apart[0] != apart[1]:
        axis = 0 if apart[0] else 1
    elif apart[0]:
        axis = 0 if entries[0] > entries[1] or (entries[0] == entries[1] and overlap[0] < overlap[1]) else 1
    else:  # least penetration as the step began, so that a pile pushes apart in all directions
        # The depth to leave by, not the overlap's length: a body lying across
        # a long floor overlaps it by its own width along the floor, but must
        # travel to the floor's end to leave that way, through it.
        deep = (-directional_gap(before_a, before_b, 0, signs[0]), -directional_gap(before_a, before_b, 1, signs[1]))
        axis = 0 if deep[0] < deep[1] else 1
        if deep[0] == deep[1]:  # e.g. equal boxes spawned on one spot
            axis = 0 if abs(tie[0]) > abs(tie[1]) else 1
    depth = -directional_gap(a, b, axis, signs[axis])
    return BoxContact(axis, signs[axis], depth, entries[axis], overlap[1 - axis])
