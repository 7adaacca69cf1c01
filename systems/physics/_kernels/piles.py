"""Piles: bodies spawned on top of each other, spread apart before push-out.

A pile is a group of movers linked by two or more pairs that were already inside each other
when the step began (an isolated pair, or a box spawned 1 px into the floor, is left to the
ordinary push-out, which resolves it exactly). One after another, exact pushes jam such a
pile: equal boxes creep toward a perfect packing over hundreds of steps while the overlaps
only move around. So the pile is relaxed first by a few Jacobi passes (as in position-based
dynamics): every overlapping pair with a pile body is pushed apart at once, each body by the
sum of its shares, past flush by as much as the pair was inside each other (up to PILE_GAP
of the smaller one's size), and a body moved joins the pile for the next pass.
The pile expands under its own pressure, several layers a step. A body with a STATIC within
its own size is not moved by the passes (its partners take the whole push); every other body
moves at most its own size in all, so pile pressure never drives a body into or through a
wall (ordinary push-out settles those exactly).
"""

from __future__ import annotations

import math
from typing import Any

from .boxes import _axis_overlap
from .cells import _query, _slot, _sort
from .jit import helper as _helper
from .settle import _overlap_now, _permits, _push_share, _settle
from .table import (
    CELL_SIZE, EMPTY, FLAGS, HEIGHT, POS_X, POS_Y, SETTLED, STATIC, TRIGGER, WIDTH, _max, _min, _move, _now,
)

__all__ = ["PILE_GAP", "PILE_PASSES", "PILE_WORK", "relax_pile"]

#: Pairs of a pile are pushed apart beyond flush by their depth, at most this fraction of the
#: smaller body's size, which unjams the packing; a pair barely inside each other (three discs
#: spawned a hair apart) is not flung a quarter of its size apart.
PILE_GAP = 0.25

#: Jacobi passes per step, and the pair tests they may make in all: a pile of thousands takes
#: fewer passes a step, so each step's work stays bounded.
PILE_PASSES = 12
PILE_WORK = 80_000

# The pile's work columns (``pile`` buffers), a row of each per table row: floats, this pass's
# move and the move so far (px); ints, whether the row is in this pass's pile, has a move this
# pass, has moved so far, whether a STATIC lies within its own size (-1: not asked yet), and
# its parent and group size in the union-find of piles.
MOVE_X, MOVE_Y, TOTAL_X, TOTAL_Y = range(4)
IN_PILE, HAS_MOVE, HAS_TOTAL, NEAR, PARENT, SIZE = range(6)


@_helper
def _root(pile_ints: Any, row: int) -> int:
    """The row's group in the union-find of piles (path halving)."""
    while pile_ints[row, PARENT] != row:
        pile_ints[row, PARENT] = pile_ints[pile_ints[row, PARENT], PARENT]
        row = pile_ints[row, PARENT]
    return row


@_helper
def _find_piles(pile_ints: Any, links: Any, count: int, rows: int) -> bool:
    """Mark IN_PILE the rows in groups joined by two or more of the first ``count`` pairs of
    ``links`` (union-find); whether there are any."""
    if count < 2:
        return False
    for row in range(rows):
        pile_ints[row, PARENT], pile_ints[row, SIZE], pile_ints[row, IN_PILE] = row, 0, 0
    for k in range(count):
        pile_ints[_root(pile_ints, links[k, 0]), PARENT] = _root(pile_ints, links[k, 1])
    for k in range(count):
        pile_ints[_root(pile_ints, links[k, 0]), SIZE] += 1
    found = False
    for k in range(count):
        for row in (links[k, 0], links[k, 1]):
            if pile_ints[_root(pile_ints, row), SIZE] > 1:
                pile_ints[row, IN_PILE] = 1
                found = True
    return found


@_helper
def _near_static(body: Any, ints: Any, grid: Any, status: Any, pile_ints: Any, row: int, size: float, marks: Any,
                 out: Any) -> bool:
    """Whether a STATIC touches the row's box grown by its own size (its first box this step:
    the verdict is kept for the step's passes)."""
    if pile_ints[row, NEAR] < 0:
        x, y, w, h = _now(body, row)
        reach = _max(w, h)
        grown = (x - reach, y - reach, w + 2 * reach, h + 2 * reach)
        near = 0
        for k in range(_query(body, grid, status, grown, size, marks, out)):
            other = out[k]
            if other != row and ints[other, FLAGS] & STATIC:
                box = _now(body, other)
                if (_axis_overlap(grown[0], grown[2], box[0], box[2]) >= 0.0
                        and _axis_overlap(grown[1], grown[3], box[1], box[3]) >= 0.0):
                    near = 1
                    break
        pile_ints[row, NEAR] = near
    return bool(pile_ints[row, NEAR])


@_helper
def _pushable(ints: Any, a: int, b: int) -> bool:
    """Whether a pile's passes may push the pair: no TRIGGER, not two STATICs."""
    flags_a, flags_b = ints[a, FLAGS], ints[b, FLAGS]
    return not ((flags_a | flags_b) & TRIGGER or flags_a & flags_b & STATIC)


@_helper
def _pile_pass(body: Any, ints: Any, grid: Any, status: Any, filters: Any, ties: Any, keys: Any, count: int,
               rows: int, settled: Any, pile: Any, size: float, marks: Any, out: Any) -> int:
    """One Jacobi pass over the pairs (``keys``: a * rows + b, ascending) with a row in the
    pile: each row's move (px) into MOVE_X/MOVE_Y, the rows moved listed in ``pile``'s list;
    STATICs and rows near them stay put, their partners taking the push. Each pair's first
    contact is kept in ``settled``. Returns how many rows have a move."""
    floats, pile_ints, moving = pile[0], pile[1], pile[2]
    table, records = settled[0], settled[1]
    moved = 0
    for k in range(count):
        a, b = keys[k] // rows, keys[k] % rows
        if not (pile_ints[a, IN_PILE] or pile_ints[b, IN_PILE]) or not _pushable(ints, a, b):
            continue
        fixed_a = bool(ints[a, FLAGS] & STATIC) or _near_static(body, ints, grid, status, pile_ints, a, size, marks, out)
        fixed_b = bool(ints[b, FLAGS] & STATIC) or _near_static(body, ints, grid, status, pile_ints, b, size, marks, out)
        if fixed_a and fixed_b:
            continue
        inside, nx, ny, depth, entry, surface = _overlap_now(body, ints, ties, a, b, True)
        if not inside or not _permits(body, ints, status, filters, a, b, nx, ny):
            continue
        share = _push_share(body, ints, a, b, fixed_a, fixed_b)
        box_a, box_b = _now(body, a), _now(body, b)
        gap = _min(PILE_GAP * _min(_min(_min(box_a[2], box_a[3]), box_b[2]), box_b[3]), depth)
        reach = depth + gap
        px, py = nx * reach, ny * reach
        for row, mx, my, fixed in ((a, px * -share, py * -share, fixed_a),
                                   (b, px * (1.0 - share), py * (1.0 - share), fixed_b)):
            if not fixed and (mx != 0.0 or my != 0.0):
                if not pile_ints[row, HAS_MOVE]:
                    pile_ints[row, HAS_MOVE] = 1
                    floats[row, MOVE_X], floats[row, MOVE_Y] = 0.0, 0.0
                    moving[moved] = row
                    moved += 1
                floats[row, MOVE_X], floats[row, MOVE_Y] = floats[row, MOVE_X] + mx, floats[row, MOVE_Y] + my
        slot = _slot(table, a, b, True, status, SETTLED)
        if slot >= 0 and table[slot, 2] < 0:  # the pair's first contact of the step
            index = status[SETTLED] - 1
            table[slot, 2] = index
            records[index, 0], records[index, 1], records[index, 2], records[index, 3] = nx, ny, depth, surface
            settled[2][index] = keys[k]
    return moved


@_helper
def relax_pile(body: Any, ints: Any, grid: Any, status: Any, filters: Any, contacts: Any, index: Any, ties: Any,
                pairs: Any, links: Any, link_count: int, settled: Any, pile: Any, keys: Any, step: Any, marks: Any,
                out: Any) -> bool:
    """Spread this step's piles before push-out (see the module docstring); whether there was
    one. ``links``: the first ``link_count`` pairs of movers (neither STATIC nor TRIGGER) that
    were inside each other by more than RESOLVE_SLOP on both axes when the step began. Each
    pair's contact is recorded, and momentum exchanged, once, in the order of its rows."""
    rows, size = body.shape[0], step[CELL_SIZE]
    floats, pile_ints, moving = pile
    if not _find_piles(pile_ints, links, link_count, rows):
        return False
    count = 0
    for k in range(pairs.shape[0]):
        keys[count] = pairs[k, 0] * rows + pairs[k, 1]
        count += 1
    _sort(keys, count)
    touching = 0
    for k in range(count):
        a, b = keys[k] // rows, keys[k] % rows
        if (pile_ints[a, IN_PILE] or pile_ints[b, IN_PILE]) and _pushable(ints, a, b):
            touching += 1
    for row in range(rows):
        pile_ints[row, HAS_MOVE], pile_ints[row, HAS_TOTAL], pile_ints[row, NEAR] = 0, 0, -1
    settled[0][:, 2] = EMPTY
    status[SETTLED] = 0
    passes = max(1, min(PILE_PASSES, PILE_WORK // max(touching, 1)))
    for _ in range(passes):
        moved = _pile_pass(body, ints, grid, status, filters, ties, keys, count, rows, settled, pile, size, marks,
                           out)
        for row in range(rows):
            pile_ints[row, IN_PILE] = 0
        _sort(moving, moved)
        pushed = 0
        for k in range(moved):
            row = moving[k]
            pile_ints[row, HAS_MOVE] = 0
            before_x, before_y = (floats[row, TOTAL_X], floats[row, TOTAL_Y]) if pile_ints[row, HAS_TOTAL] else (0.0, 0.0)
            tx, ty = before_x + floats[row, MOVE_X], before_y + floats[row, MOVE_Y]
            reach = _max(body[row, WIDTH], body[row, HEIGHT])
            if 0.0 + tx * tx + ty * ty > reach * reach:  # scale_to_length(reach)
                fraction = reach / math.sqrt(0.0 + tx * tx + ty * ty)
                tx, ty = tx * fraction, ty * fraction
            sx, sy = tx - before_x, ty - before_y
            if 0.0 + sx * sx + sy * sy > 0.0:
                floats[row, TOTAL_X], floats[row, TOTAL_Y], pile_ints[row, HAS_TOTAL] = tx, ty, 1
                _move(body, ints, row, body[row, POS_X] + sx, body[row, POS_Y] + sy)
                pile_ints[row, IN_PILE] = 1
                pushed += 1
        if not pushed:
            break
    _sort(settled[2], status[SETTLED])
    for k in range(status[SETTLED]):
        key = settled[2][k]
        a, b = key // rows, key % rows
        record = settled[1][settled[0][_slot(settled[0], a, b, False, status, SETTLED), 2]]
        _settle(body, ints, status, contacts, index, a, b, record[0], record[1], bool(ints[a, FLAGS] & STATIC),
                bool(ints[b, FLAGS] & STATIC), record[2], record[3], 0.0, _now(body, a), _now(body, b), step)
    return True
