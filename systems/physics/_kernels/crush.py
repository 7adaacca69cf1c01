"""Crushing: each crushed body put between what squeezes it.

A body that the sweep or push-out found squeezed between colliders that won't yield is
*crushed* (the CRUSHED flag) and left overlapping them on purpose; this pass centres it
between them and keeps the pairs it was squeezed by, with their normals, for the next step's
push-out and crushing (``squeezes``).

What squeezes it are the colliders it touched this step that hold still (a STATIC, a pinned or
a crushed body), each on the side its contact this step found it: the contact's normal, by
its dominant axis (y at 45°); and the STATICs that squeezed it last step, on the same side,
though it may have moved off one this step (a press it no longer overlaps still bounds where
it may be put). Along each axis with such colliders on both sides whose faces leave the body
no room, it is moved to the middle of the room there would be (overlapping both, or midway
between crossed faces), or flush with a STATIC when what presses it from the other side can
move (``_squeeze``). The sides come from the contacts, not from where push-out left it, so it
ends between the two however far a push took it; the distances come from sweeping its shape
along the axis (``_overlap_span``), so boxes, circles and slopes are measured as they are.
"""

from __future__ import annotations

import math
from typing import Any

from .boxes import _axis_overlap
from .cells import _slot
from .jit import helper as _helper
from .jit import kernel as _kernel
from .settle import _velocity
from .shapes import sweep
from .table import (
    CONTACTS, CRUSHED, CRUSHES, EMPTY, FLAGS, FRAME_X, OVERFLOW, PHYSICS, PINNED, POS_X, POS_Y, SHAPE, SQUEEZES, STATIC,
    TOUCHED, TOUCH_EPSILON, TRIGGER, VEL_X, _max, _min, _move, _now,
)

__all__ = ["crush"]


@_helper
def _overlap_span(body: Any, ints: Any, row: int, other: int, axis: int) -> tuple[bool, float, float]:
    """(found, first, last): the moves t (px) along ``axis`` for which the row's shape, moved
    by t, overlaps the other's; not found when none does (it passes beside it). Found by
    sweeping the shape through the other from beyond it each way, so it holds for any pair
    of shapes."""
    box, other_box = _now(body, row), _now(body, other)
    reach = box[axis + 2] + other_box[axis + 2] + abs(box[axis] - other_box[axis]) + 1.0
    first = last = 0.0
    for sign in (1.0, -1.0):
        if axis == 0:
            start, move_x, move_y = (box[0] - sign * reach, box[1], box[2], box[3]), 2.0 * sign * reach, 0.0
        else:
            start, move_x, move_y = (box[0], box[1] - sign * reach, box[2], box[3]), 0.0, 2.0 * sign * reach
        hit, time, nx, ny, surface = sweep(start, ints[row, SHAPE], other_box, ints[other, SHAPE], move_x, move_y)
        if not hit:
            return False, 0.0, 0.0
        if sign > 0.0:
            first = sign * (2.0 * reach * time - reach)
        else:
            last = sign * (2.0 * reach * time - reach)
    return last - first > TOUCH_EPSILON, first, last


@_helper
def _kept(kept: tuple[float, bool, float], seen: int, entry: tuple[float, bool, float],
          greatest: bool) -> tuple[float, bool, float]:
    """The greatest (or least) of ``kept``, the extreme of ``seen`` entries so far, and
    ``entry``, compared as tuples (move, STATIC, speed): the first of equals stays, as
    Python's max and min keep it."""
    if not seen:
        return entry
    if entry[0] != kept[0]:
        return entry if (entry[0] > kept[0]) == greatest else kept
    if entry[1] != kept[1]:
        return entry if entry[1] == greatest else kept
    if entry[2] != kept[2]:
        return entry if (entry[2] > kept[2]) == greatest else kept
    return kept


@_helper
def _squeeze(body: Any, ints: Any, row: int, held: Any, count: int, axis: int) -> tuple[bool, float, float, float]:
    """(found, move, low, high): how far (px) to move the row along ``axis`` to put it between
    the first ``count`` colliders of ``held`` (rows, with the direction from the row to each)
    that lie on either side of it along that axis, and the speeds (px/s) along the axis of the
    two faces it is put between; not found when they leave it room, or nothing lies on one
    side. Between STATICs that leave it no room it goes midway between them; else midway
    between what presses it, but never into a STATIC: flush with one when bodies that can move
    press it from the other side."""
    others, directions = held
    # Each side's entries are (the move clearing it, STATIC, its speed), compared as tuples:
    # behind, the greatest of all (``low``) and of the STATICs (``first``); ahead, the least
    # (``high``, ``last``); max and min keep the first of equals.
    first, last = (-math.inf, True, 0.0), (math.inf, True, 0.0)
    low, high = (0.0, False, 0.0), (0.0, False, 0.0)
    behind = ahead = behind_statics = ahead_statics = 0
    for k in range(count):
        other, dx, dy = others[k], directions[k, 0], directions[k, 1]
        if (0 if abs(dx) > abs(dy) else 1) != axis:
            continue
        found, start, end = _overlap_span(body, ints, row, other, axis)
        if not found:
            continue
        static = bool(ints[other, FLAGS] & STATIC)
        speed = _velocity(body, ints, other)[axis]
        if (dx if axis == 0 else dy) > 0.0:  # ahead: it clears it at the span's start
            entry = (start, static, speed)
            high = _kept(high, ahead, entry, False)
            last = _kept(last, ahead_statics, entry, False) if static else last
            ahead, ahead_statics = ahead + 1, ahead_statics + static
        else:  # behind: it clears it at the span's end
            entry = (end, static, speed)
            low = _kept(low, behind, entry, True)
            first = _kept(first, behind_statics, entry, True) if static else first
            behind, behind_statics = behind + 1, behind_statics + static
    if first[0] > last[0]:
        return True, (first[0] + last[0]) / 2, first[2], last[2]
    if not behind or not ahead:
        return False, 0.0, 0.0, 0.0
    if low[0] <= high[0]:
        return False, 0.0, 0.0, 0.0
    middle = (low[0] + high[0]) / 2
    if middle < first[0]:  # never into a STATIC to make room for a body that can move
        return True, first[0], first[2], first[2]
    if middle > last[0]:
        return True, last[0], last[2], last[2]
    return True, middle, low[2], high[2]


@_helper
def _centre(body: Any, ints: Any, row: int, axis: int, move: float, low: float, high: float) -> None:
    """Move a crushed row by ``move`` px along ``axis``, between faces moving at ``low`` and
    ``high`` px/s along it (the one below it and the one above). It moves with the faces: at
    their mean speed while they close (no speed of its own to bounce between them); while
    they draw apart, no faster than the faster nor slower than the slower, so it is not flung
    off the one that stays."""
    x, y = body[row, POS_X], body[row, POS_Y]
    if axis == 0:
        _move(body, ints, row, x + move, y + 0.0)
    else:
        _move(body, ints, row, x + 0.0, y + move)
    if ints[row, FLAGS] & PHYSICS:
        frame = body[row, FRAME_X + axis]
        own = body[row, VEL_X + axis] + frame
        speed = (low + high) / 2 if low >= high else _min(_max(own, low), high)
        body[row, VEL_X + axis] = speed - frame
        ints[row, FLAGS] |= TOUCHED


@_helper
def _holds_still(ints: Any, row: int) -> bool:
    """Whether the row may squeeze another: not a TRIGGER, and STATIC, pinned or crushed."""
    flags = ints[row, FLAGS]
    return not flags & TRIGGER and bool(flags & (STATIC | CRUSHED) or ints[row, PINNED])


@_helper
def _toward(ints: Any, status: Any, contacts: Any, index: Any, squeezes: Any, row: int, held: Any) -> int:
    """What squeezes the row now, into ``held`` (rows, and the unit normal from the row toward
    each), ordered by row: those it touched this step (its contacts, but TRIGGERs'), and the
    STATICs that squeezed it last step (``squeezes``) it has no contact with, the ones that hold
    still (``_holds_still``); returns how many."""
    values, pairs = contacts
    others, directions = held
    count = 0
    for k in range(status[CONTACTS]):
        if values[k, 7] != 0.0:
            continue
        a, b = pairs[k, 0], pairs[k, 1]
        if a == row or b == row:
            other = b if a == row else a
            others[count] = other
            directions[count, 0], directions[count, 1] = (values[k, 0], values[k, 1]) if a == row else (
                -values[k, 0], -values[k, 1])
            count += 1
    rows, normals = squeezes
    for k in range(rows.shape[0]):
        a, b = rows[k, 0], rows[k, 1]
        if a < 0 or b < 0 or (a != row and b != row) or not (ints[a, FLAGS] | ints[b, FLAGS]) & STATIC:
            continue
        if _slot(index, a, b, False, status, CONTACTS) >= 0:  # (touched this step: its contact counts)
            continue
        others[count] = b if a == row else a
        directions[count, 0], directions[count, 1] = (normals[k, 0], normals[k, 1]) if a == row else (
            -normals[k, 0], -normals[k, 1])
        count += 1
    for k in range(1, count):  # ordered by row (insertion sort: a body touches few)
        j = k
        while j > 0 and others[j - 1] > others[j]:
            others[j - 1], others[j] = others[j], others[j - 1]
            directions[j - 1, 0], directions[j, 0] = directions[j, 0], directions[j - 1, 0]
            directions[j - 1, 1], directions[j, 1] = directions[j, 1], directions[j - 1, 1]
            j -= 1
    kept = 0
    for k in range(count):
        if _holds_still(ints, others[k]):
            others[kept] = others[k]
            directions[kept, 0], directions[kept, 1] = directions[k, 0], directions[k, 1]
            kept += 1
    return kept


@_helper
def _keep_squeeze(status: Any, kept: Any, first: int, second: int, nx: float, ny: float) -> None:
    """Keep the pair (first < second) as squeezed this step, along (nx, ny) (first -> second):
    a pair kept again takes the new normal and keeps its place."""
    table, pairs, normals = kept
    known = status[SQUEEZES]
    slot = _slot(table, first, second, True, status, SQUEEZES)
    if slot < 0:
        return  # (the table is full: the run stops, status[OVERFLOW])
    if status[SQUEEZES] > known:
        if known >= pairs.shape[0]:
            status[OVERFLOW] = 1
            return
        table[slot, 2] = known
        pairs[known, 0], pairs[known, 1] = first, second
    normals[table[slot, 2], 0], normals[table[slot, 2], 1] = nx, ny


@_kernel
def crush(body: Any, ints: Any, squeezes: Any, status: Any, buffers: Any) -> Any:
    """Put each crushed row (CRUSHED) between what squeezes it (see the module docstring),
    after ``push.push_out`` over the same tables and ``buffers`` (whose ``status`` it
    continues); ``squeezes``: last step's, as ``push_out`` takes them. The pairs each crushed
    body was squeezed by are kept in the buffers (``status[SQUEEZES]`` of them: their rows,
    a < b, and unit normals, a -> b, in the order first kept), and a body pinned between them
    that it still overlaps is crushed with it. Returns ``status``."""
    contacts, index, extra = buffers[3], buffers[5], buffers[10]
    queue, held, kept = extra[6]
    status[SQUEEZES] = 0
    if not status[CRUSHES]:  # no row crushed: nothing to look for among every row
        return status
    kept[0][:, 2] = EMPTY
    tail = 0
    for row in range(body.shape[0]):
        if ints[row, FLAGS] & CRUSHED:
            queue[tail] = row
            tail += 1
    head = 0
    while head < tail and not status[OVERFLOW]:
        row = queue[head]
        head += 1
        count = _toward(ints, status, contacts, index, squeezes, row, held)
        for axis in (0, 1):
            found, move, low, high = _squeeze(body, ints, row, held, count, axis)
            if found:
                _centre(body, ints, row, axis, move, low, high)
        for k in range(count):
            other = held[0][k]
            dx, dy = held[1][k, 0], held[1][k, 1]
            if row < other:
                _keep_squeeze(status, kept, row, other, dx, dy)
            else:
                _keep_squeeze(status, kept, other, row, -dx, -dy)
            # a pinned body it still overlaps is squeezed in the same vice
            if not ints[other, FLAGS] & (STATIC | CRUSHED):
                box, other_box = _now(body, row), _now(body, other)
                if (_axis_overlap(box[0], box[2], other_box[0], other_box[2]) > TOUCH_EPSILON
                        and _axis_overlap(box[1], box[3], other_box[1], other_box[3]) > TOUCH_EPSILON):
                    ints[other, FLAGS] |= CRUSHED
                    queue[tail] = other
                    tail += 1
    return status
