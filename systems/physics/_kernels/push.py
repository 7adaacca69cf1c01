"""Push-out: push apart every pair left overlapping, earliest entry first; spread piles first.

Push-out decides who moves: a STATIC body never does, nor does a body pinned against
something that holds still; otherwise the body that moved this step is pushed, and when both
or neither moved the push is shared in proportion to inverse mass (``_push_share``). Boxes are
pushed back out the side they came through, and overlaps are taken earliest entry first, then
larger contact surface, then rows (entity ids): the crack cure of Sacred Software,
*Collisions, Part 1*. A pushed body's partners are tested again, so chains (stacks, rows)
settle in one step, within the budgets below. A body squeezed between two things that won't
yield is crushed (``CRUSHED``) and left for the crush stage to centre between them. Bodies
spawned on top of each other are spread first (``piles``).

Push-out runs in the same kernel run as the sweep (``sweep.run_sweeps`` sets up the run's
grid, partners and contacts; in the discrete pipeline it only sets them up), over the body
table, where each row's position now is ``POS_X``/``POS_Y``. pygame's ``Vector2`` is spelt out
as in ``shapes``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .boxes import _axis_overlap
from .cells import _candidates_within, _partners, _slot, _take_out
from .jit import helper as _helper
from .jit import kernel as _kernel
from .queue import _pop, _push
from .piles import HAS_TOTAL, relax_pile
from .settle import _bit, _dominant, _driver, _overlap_now, _permits, _push_share, _record, _settle, _velocity
from .shapes import _exit_distance, _is_triangle, overlap
from .table import (
    CELL_SIZE, CRUSHED, CRUSHES, EMPTY, FLAGS, HEAP, MAX_ITERATIONS, MET, NOT_BOX, ORIGIN_X, ORIGIN_Y, OVERFLOW,
    PHYSICS, PINNED, PINNER_OFF, POS_X, POS_Y, PUSHES, RECORDS, RESOLVE_SLOP, ROUNDS, SHAPE, SLOW_DT, STATIC, SWEEPS,
    TOUCH_EPSILON, TRIGGER, UP_X, UP_Y, WARN_A, WARN_B, _box_at, _filed, _max, _min, _move, _now, _within,
)

__all__ = ["GIVE_UP_DEPTH", "PUSHES_PER_BODY", "RETEST_BUDGET", "RETEST_FLOOR", "push_buffers", "push_out"]

#: Re-tests of pairs after pushes allowed per step: RETEST_BUDGET per pair that overlapped at
#: the start of push-out, plus RETEST_FLOOR.
RETEST_BUDGET = 4
RETEST_FLOOR = 512

#: Pushes a body may take in one step's push-out: generous (a body jammed in a corner under
#: gravity needs a dozen), but a bound for bodies in a pile. A push out of a STATIC is never
#: refused by it (it is bounded per pair), so no body is left inside level geometry because its
#: pile used up its pushes.
PUSHES_PER_BODY = 16

#: px. An overlap left after the step's rounds is normal in a dense cluster of moving bodies
#: (it shrinks geometrically and the next step picks it up); only one deeper than this is
#: worth a warning.
GIVE_UP_DEPTH = 0.5

#: Cosine of 1°: two still surfaces squeeze a body when the directions they push it off along
#: are opposed within 1° (faces that parallel leave it no way out; any wider and it can slide
#: out between them, a ball in the V of a wall and a ramp).
FACING = math.cos(math.radians(1.0))

#: cos 45°, within rounding: a contact normal at most this far from up is a floor.
FLOOR = math.sqrt(0.5) - 1e-9

# -- the queue's pairs -----------------------------------------------------------------------------

@_helper
def _enqueue(body: Any, ints: Any, status: Any, queue: Any, ties: Any, a: int, b: int) -> None:
    """Queue rows a < b if they overlap: earliest entry first, then larger contact surface,
    then rows. TRIGGER pairs are never pushed (``_report_trigger``), nor two STATICs."""
    flags_a, flags_b = ints[a, FLAGS], ints[b, FLAGS]
    if (flags_a & flags_b & STATIC) or (flags_a | flags_b) & TRIGGER:
        return
    box_a, box_b = _now(body, a), _now(body, b)
    # Cheap separating-axis reject on the boxes before the full test.
    if (_axis_overlap(box_a[0], box_a[2], box_b[0], box_b[2]) <= TOUCH_EPSILON
            or _axis_overlap(box_a[1], box_a[3], box_b[1], box_b[3]) <= TOUCH_EPSILON):
        return
    inside, nx, ny, depth, entry, surface = _overlap_now(body, ints, ties, a, b, True)
    if inside:
        _push(queue, status, entry, -surface, a, b, 0, 0, 0.0, 0.0)


@_helper
def _report_trigger(body: Any, ints: Any, status: Any, filters: Any, contacts: Any, index: Any, ties: Any, a: int,
                    b: int) -> None:
    """Record a contact with a TRIGGER if the pair overlaps; nothing moves."""
    inside, nx, ny, depth, entry, surface = _overlap_now(body, ints, ties, a, b, True)
    if inside and _permits(body, ints, status, filters, a, b, nx, ny):
        _record(contacts, index, status, a, b, nx, ny, depth, 0.0, surface, _now(body, a), ints[a, SHAPE],
                _now(body, b), ints[b, SHAPE], True)


# -- crushed bodies' last squeezes ------------------------------------------------------------
# ``squeezes``: last step's crushed bodies' pairs with what squeezed them, as rows (a < b, -1
# for an entity gone since) and each pair's unit normal (a->b), in the order they were kept.

@_helper
def _squeeze_of(squeezes: Any, a: int, b: int) -> int:
    """The index of pair (a, b) among ``squeezes``, or -1."""
    rows = squeezes[0]
    for k in range(rows.shape[0]):
        if rows[k, 0] == a and rows[k, 1] == b:
            return k
    return -1


@_helper
def _squeezed_side(body: Any, ints: Any, squeezes: Any, a: int, b: int, nx: float, ny: float,
                   depth: float) -> tuple[float, float, float]:
    """The normal and depth to push a crushed body and what squeezed it last step apart by:
    along last step's normal (it was left overlapping, maybe past the middle of a thin STATIC,
    and the least penetration would then push it out the far side, through it), else as
    found."""
    k = _squeeze_of(squeezes, a, b)
    if k < 0:
        return nx, ny, depth
    sx, sy = squeezes[1][k, 0], squeezes[1][k, 1]
    if abs(sx - nx) < 1e-6 and abs(sy - ny) < 1e-6:  # (pygame's ==)
        return nx, ny, depth
    found, exit_depth = _exit_distance(_now(body, a), ints[a, SHAPE], _now(body, b), ints[b, SHAPE], sx, sy)
    if not found:
        return nx, ny, depth
    return sx, sy, exit_depth


@_helper
def _opposite(tx: float, ty: float, px: float, py: float) -> bool:
    """Whether a squeezer lying toward (tx, ty) from a body lies where a push (px, py) moves
    it, on the same dominant axis (y at 45°), as crushing sides them."""
    axis = 0 if abs(px) > abs(py) else 1
    toward_axis = 0 if abs(tx) > abs(ty) else 1
    return toward_axis == axis and (tx if axis == 0 else ty) * (px if axis == 0 else py) > 0.0


@_helper
def _still_squeezed(body: Any, ints: Any, ties: Any, squeezes: Any, a: int, b: int, nx: float, ny: float) -> bool:
    """Whether the pair (a crushed body and what squeezed it last step) may not be pushed
    apart along (nx, ny) (a->b): the push would move the body toward something else that
    squeezed it from the other side last step and that it still overlaps, and out of one it
    would go through the other (a lift rising into a ceiling) if that one is thin."""
    if _squeeze_of(squeezes, a, b) < 0:
        return False
    rows, normals = squeezes
    for row, px, py in ((a, -nx, -ny), (b, nx, ny)):
        if ints[row, FLAGS] & STATIC:
            continue
        for k in range(rows.shape[0]):
            first, second = rows[k, 0], rows[k, 1]
            if first < 0 or second < 0 or (row != first and row != second):
                continue
            if (first == a and second == b) or (first == b and second == a):
                continue
            other = second if first == row else first
            tx, ty = (normals[k, 0], normals[k, 1]) if first == row else (-normals[k, 0], -normals[k, 1])
            if _opposite(tx, ty, px, py) and _overlap_now(body, ints, ties, row, other, False)[0]:
                return True
    return False


# -- who moves ---------------------------------------------------------------------------------

@_helper
def _holds(ints: Any, a: int, b: int, nx: float, ny: float) -> tuple[bool, bool]:
    """Whether a, resp. b, may not be pushed apart along (nx, ny) (a->b): STATIC, or pinned
    against the push on the normal's dominant axis (y at 45°)."""
    axis, sign = _dominant(nx, ny)
    return (bool(ints[a, FLAGS] & STATIC) or bool(ints[a, PINNED] & _bit(axis, -sign)),
            bool(ints[b, FLAGS] & STATIC) or bool(ints[b, PINNED] & _bit(axis, sign)))


@_helper
def _closing(body: Any, ints: Any, a: int, b: int, nx: float, ny: float) -> bool:
    """Whether, for a pair that both hold still along (nx, ny) (a->b), the STATICs their pins
    lead to (``_driver``: what drives the pusher, what pins the body between) close on each
    other (their velocities, px/s, along the push). Only STATICs squeeze: a crowd its own
    motion presses into a corner is bodies of finite mass, which give way, and a body its own
    motion (gravity) carried into a corner of surfaces that stay apart (a circle between a
    wall and a 45° ramp) can leave the way it came. Still surfaces that face each other
    (pushes opposed within FACING) leave it no room either way: a box in a slot narrower than
    itself is crushed."""
    axis, sign = _dominant(nx, ny)
    for row, pusher, px, py in ((b, a, nx, ny), (a, b, -nx, -ny)):
        if ints[row, FLAGS] & STATIC:
            continue
        toward = sign if row == b else -sign  # (the row's side away from the pusher)
        index = axis * 2 + (1 if toward > 0 else 0)
        anvil = _driver(ints, row, index)
        driver = _driver(ints, pusher, axis * 2 + (0 if toward > 0 else 1))
        if anvil < 0 or driver < 0:
            continue
        ox, oy = body[row, PINNER_OFF + 2 * index], body[row, PINNER_OFF + 2 * index + 1]
        vx, vy = _velocity(body, ints, driver)
        wx, wy = _velocity(body, ints, anvil)
        if 0.0 + px * ox + py * oy <= -FACING or 0.0 + (vx - wx) * px + (vy - wy) * py > 0.0:
            return True
    return False


@_helper
def _slope_lift(body: Any, ints: Any, a: int, b: int, nx: float, ny: float,
                step: Any) -> tuple[int, float, float]:
    """For a body overlapping a STATIC triangle's floor slope (its normal at most 45° from
    up), the body and the move (px) straight up that clears it; (-1, 0, 0) for none. Pushed
    along the slope's normal instead, a body settling onto a ramp would creep downhill by
    g·dt²·sin θ every step, whatever its friction; straight up undoes exactly the step's sink
    under gravity."""
    ux, uy = step[UP_X], step[UP_Y]
    if (ux == 0.0 and uy == 0.0) or nx == 0.0 or ny == 0.0:
        return -1, 0.0, 0.0
    for slope, row, tx, ty in ((a, b, nx, ny), (b, a, -nx, -ny)):
        if (ints[slope, FLAGS] & STATIC and not ints[row, FLAGS] & STATIC and _is_triangle(ints[slope, SHAPE])
                and 0.0 + tx * ux + ty * uy >= FLOOR):
            found, rise = _exit_distance(_now(body, row), ints[row, SHAPE], _now(body, slope), ints[slope, SHAPE],
                                         -ux, -uy)
            if not found:
                return -1, 0.0, 0.0
            return row, ux * rise, uy * rise
    return -1, 0.0, 0.0


@_helper
def _blocked(ints: Any, row: int, px: float, py: float) -> bool:
    """Whether a push along (px, py) would move ``row`` (not STATIC) on the push's lesser
    axis into a direction it is pinned against: a ball resting on the floor, struck from above
    at a slant, would be pushed into the floor, and the floor would push it back, each pair in
    turn until the rounds run out, leaving it inside."""
    bits = ints[row, PINNED]
    if not bits or ints[row, FLAGS] & STATIC:
        return False
    other = 1 if abs(px) > abs(py) else 0
    along = px if other == 0 else py
    return along != 0.0 and bool(bits & _bit(other, along))


@_helper
def _slide_out(body: Any, ints: Any, a: int, b: int, nx: float, ny: float, pinned_a: bool, pinned_b: bool) -> int:
    """When neither of a and b may take a push along (nx, ny) (a->b) but one is barred only
    on the normal's lesser axis (``_blocked``), move that one along the normal's dominant axis
    alone, just out of the other (however the shapes meet); returns it, or -1 if there is none
    or no such move parts them."""
    axis = 0 if abs(nx) > abs(ny) else 1
    ax, ay = (1.0 if nx > 0 else -1.0, 0.0) if axis == 0 else (0.0, 1.0 if ny > 0 else -1.0)
    for row, other, tx, ty, held in ((b, a, -ax, -ay, pinned_b), (a, b, ax, ay, pinned_a)):
        if held or ints[row, FLAGS] & STATIC:
            continue
        found, distance = _exit_distance(_now(body, row), ints[row, SHAPE], _now(body, other), ints[other, SHAPE],
                                         tx, ty)
        if not found:
            return -1
        _move(body, ints, row, body[row, POS_X] - tx * distance, body[row, POS_Y] - ty * distance)
        return row
    return -1


@_helper
def _slow(body: Any, ints: Any, row: int, nx: float, ny: float, before_x: float, before_y: float,
          dt: float) -> bool:
    """Move the row back by what its contact with a STATIC along (nx, ny) took off its
    sliding this step, times ``dt``; whether it moved. Push-out resolves a contact after the
    step's move (the discrete pipeline's, and a resting contact the sweeps passed over within
    their slop), so without this friction would act one step late (a slider would stop v·dt/2
    beyond v²/(2μg)); with it friction integrates as Movement does gravity (semi-implicit
    Euler). Never more than the body moved that way since its path began (the step's start,
    or its last impact in a sweep, from which its velocity has been the one slowed): friction
    that only stopped gravity's pull along a slope gives nothing back."""
    if ints[row, FLAGS] & STATIC or not ints[row, FLAGS] & PHYSICS:
        return False
    vx, vy = _velocity(body, ints, row)
    cx, cy = vx - before_x, vy - before_y
    along = 0.0 + cx * nx + cy * ny
    sx, sy = cx - nx * along, cy - ny * along
    amount = math.sqrt(0.0 + sx * sx + sy * sy)
    if amount == 0.0:
        return False
    inverse = 1.0 / amount
    bx, by = sx * inverse, sy * inverse
    went = -(0.0 + (body[row, POS_X] - body[row, ORIGIN_X]) * bx + (body[row, POS_Y] - body[row, ORIGIN_Y]) * by)
    if went <= 0.0:
        return False
    back = _min(amount * dt, went)
    _move(body, ints, row, body[row, POS_X] + bx * back, body[row, POS_Y] + by * back)
    return True


@_helper
def _push_apart(body: Any, ints: Any, status: Any, contacts: Any, index: Any, a: int, b: int, nx: float, ny: float,
                depth: float, surface: float, squeezed: bool, step: Any) -> tuple[int, int, int]:
    """Move rows a and b ``depth`` px apart along (nx, ny) (a->b), then settle the contact;
    returns how many rows moved and which (-1 for none). When both hold still that way (a
    STATIC or a body pinned against one on each side) the body between is crushed: it is
    still pushed out of a STATIC, and the crush stage then centres it between the squeezing
    surfaces. A pair known to be ``squeezed`` (a body still crushed since last step) is
    crushed and settled without moving."""
    pinned_a, pinned_b = _holds(ints, a, b, nx, ny)
    if squeezed:
        for row in (a, b):
            if not ints[row, FLAGS] & STATIC:
                ints[row, FLAGS] |= CRUSHED
                status[CRUSHES] = 1
        _settle(body, ints, status, contacts, index, a, b, nx, ny, True, True, depth, surface, 0.0, _now(body, a),
                _now(body, b), step)
        return 0, -1, -1
    if pinned_a and pinned_b and _closing(body, ints, a, b, nx, ny):  # squeezed between things that won't yield
        for row in (a, b):
            if not ints[row, FLAGS] & STATIC:
                ints[row, FLAGS] |= CRUSHED
                status[CRUSHES] = 1
    lifted, rise_x, rise_y = _slope_lift(body, ints, a, b, nx, ny, step)
    if lifted >= 0:  # settle onto a floor slope straight up
        _move(body, ints, lifted, body[lifted, POS_X] + rise_x, body[lifted, POS_Y] + rise_y)
        _settle(body, ints, status, contacts, index, a, b, nx, ny, pinned_a, pinned_b, depth, surface, 0.0,
                _now(body, a), _now(body, b), step)
        return 1, lifted, -1
    blocked_a, blocked_b = _blocked(ints, a, -nx, -ny), _blocked(ints, b, nx, ny)
    if (pinned_a or blocked_a) and (pinned_b or blocked_b):
        slid = _slide_out(body, ints, a, b, nx, ny, pinned_a, pinned_b)
        if slid >= 0:
            _settle(body, ints, status, contacts, index, a, b, nx, ny, pinned_a, pinned_b, depth, surface, 0.0,
                    _now(body, a), _now(body, b), step)
            return 1, slid, -1
    share_a = _push_share(body, ints, a, b, pinned_a or blocked_a, pinned_b or blocked_b)
    count, first, second = 0, -1, -1
    if share_a > 0.0:
        part = depth * share_a
        _move(body, ints, a, body[a, POS_X] - nx * part, body[a, POS_Y] - ny * part)
        count, first = 1, a
    if share_a < 1.0:
        part = depth * (1.0 - share_a)
        _move(body, ints, b, body[b, POS_X] + nx * part, body[b, POS_Y] + ny * part)
        if count:
            second = b
        else:
            first = b
        count += 1
    vax, vay = _velocity(body, ints, a)
    vbx, vby = _velocity(body, ints, b)
    _settle(body, ints, status, contacts, index, a, b, nx, ny, pinned_a, pinned_b, depth, surface, 0.0,
            _now(body, a), _now(body, b), step)
    dt = step[SLOW_DT]
    if dt != 0.0 and (ints[a, FLAGS] | ints[b, FLAGS]) & STATIC:
        for row, before_x, before_y in ((a, vax, vay), (b, vbx, vby)):
            if _slow(body, ints, row, nx, ny, before_x, before_y, dt) and row != first and row != second:
                if count:
                    second = row
                else:
                    first = row
                count += 1
    return count, first, second


# -- the queue of overlaps (push_out) ------------------------------------------------------------

@_helper
def _retest(body: Any, ints: Any, grid: Any, links: Any, status: Any, queue: Any, ties: Any, row: int, budget: int,
            size: float, marks: Any, out: Any) -> int:
    """Queue the pairs of a just pushed row with its partners that now overlap, if finding
    them costs no more than ``budget`` re-tests (Found.candidates_within: its partners while
    its box stays inside its filed box, or when a query would look at more than the budget;
    else a query); returns the budget left. Past the budget, its partners that are STATIC
    are still tested: a pile that used up the step's re-tests must not leave a body it
    pushed inside level geometry (a list the row already has, bounded like the pushes out
    of a STATIC that follow, per pair)."""
    count, cost = _candidates_within(body, ints, grid, links, status, row, _now(body, row), size, marks, out, budget)
    if cost > budget:
        for k in range(_partners(links, row, out)):
            if ints[out[k], FLAGS] & STATIC:
                _enqueue(body, ints, status, queue, ties, min(row, out[k]), max(row, out[k]))
        return budget
    for k in range(count):
        other = out[k]
        if row < other:
            _enqueue(body, ints, status, queue, ties, row, other)
        else:
            _enqueue(body, ints, status, queue, ties, other, row)
    return int(budget - cost)


@_helper
def _warn(status: Any, report: Any, a: int, b: int, depth: float) -> None:
    """Note the step's first pair left overlapping by more than GIVE_UP_DEPTH (``report[0]``:
    its depth, px), for the caller's warning."""
    if status[WARN_A] < 0:
        status[WARN_A], status[WARN_B] = a, b
        report[0] = depth


@_helper
def _first_queue(body: Any, ints: Any, status: Any, queue: Any, filters: Any, contacts: Any, index: Any, ties: Any,
                 tested: Any, count: int) -> int:
    """Queue the first ``count`` pairs of ``tested`` that overlap (TRIGGER pairs are only
    reported); returns how many were queued."""
    queued = status[RECORDS]
    for k in range(count):
        a, b = tested[k, 0], tested[k, 1]
        if (ints[a, FLAGS] | ints[b, FLAGS]) & TRIGGER:
            _report_trigger(body, ints, status, filters, contacts, index, ties, a, b)
        else:
            _enqueue(body, ints, status, queue, ties, a, b)
    return int(status[RECORDS] - queued)


@_helper
def _resolve_queue(body: Any, ints: Any, grid: Any, links: Any, status: Any, queue: Any, filters: Any,
                   contacts: Any, index: Any, ties: Any, rounds: Any, rounds_log: Any, squeezes: Any, budget: int,
                   step: Any, marks: Any, out: Any, report: Any) -> None:
    """Push apart the queued pairs, earliest entry first, each at most ``step[MAX_ITERATIONS]``
    times and each body PUSHES_PER_BODY times (but always out of a STATIC); a pushed body's
    partners are tested again within ``budget`` re-tests in all."""
    keys = queue[1]
    iterations, size = int(step[MAX_ITERATIONS]), step[CELL_SIZE]
    while status[HEAP] and not status[OVERFLOW]:
        k = _pop(queue, status)
        a, b = keys[k, 0], keys[k, 1]
        inside, nx, ny, depth, entry, surface = _overlap_now(body, ints, ties, a, b, True)
        if not inside:
            continue
        nx, ny, depth = _squeezed_side(body, ints, squeezes, a, b, nx, ny, depth)
        made = status[ROUNDS]
        slot = _slot(rounds, a, b, True, status, ROUNDS)
        if slot < 0:
            return  # (the table is full: the run stops, status[OVERFLOW])
        if status[ROUNDS] > made:  # (a pair's first round: its key logged, for the next run to take out)
            log, logged = rounds_log
            log[logged[0], 0], log[logged[0], 1] = a, b
            logged[0] += 1
        done = rounds[slot, 2] if rounds[slot, 2] > 0 else 0  # (a slot made anew holds -1)
        if done and depth <= RESOLVE_SLOP:
            continue  # a leftover from a chain of shared pushes
        statics = (ints[a, FLAGS] | ints[b, FLAGS]) & STATIC
        capped = not statics and _max(ints[a, PUSHES], ints[b, PUSHES]) >= PUSHES_PER_BODY
        if done >= iterations or capped:
            # A crushed body is left overlapping on purpose: nothing to warn of.
            if depth > GIVE_UP_DEPTH and not (ints[a, FLAGS] | ints[b, FLAGS]) & CRUSHED:
                _warn(status, report, a, b, depth)
            continue
        rounds[slot, 2] = done + 1
        # A repeat overshoots by the slop, so chains end instead of halving forever.
        push = depth + (RESOLVE_SLOP if done else 0.0)
        if not _permits(body, ints, status, filters, a, b, nx, ny):
            continue  # a one-way face from behind, or a filter lets them pass
        held = _still_squeezed(body, ints, ties, squeezes, a, b, nx, ny)
        count, first, second = _push_apart(body, ints, status, contacts, index, a, b, nx, ny, push, surface, held,
                                           step)
        for row in (first, second):
            if row >= 0:
                ints[row, PUSHES] += 1
                budget = _retest(body, ints, grid, links, status, queue, ties, row, budget, size, marks, out)


# -- the stage ---------------------------------------------------------------------------------

def push_buffers(capacity: int, slots: int, rows: int) -> tuple[Any, ...]:
    """The work buffers of push-out, crushing and ground snapping (``sweep.make_buffers``
    makes them with the sweep's): the rounds each pair was pushed and the piles' first
    contacts by pair (hash tables of ``slots`` slots), the piles' contacts and their pairs'
    keys, the pairs' keys, the pairs push-out starts from, the piles' work columns and list of
    rows, the depth of a pair left overlapping (``report``), crushing's queue of rows, what
    squeezes a row (rows and normals) and the squeezes kept (a hash table, pairs and normals),
    the rows standing on ground (ground snapping's marks), and the keys the rounds table was
    given, in order, and how many (``_clear_rounds``)."""
    settled = (np.empty((slots, 3), np.int64), np.empty((capacity, 4)), np.empty(capacity, np.int64))
    pile = (np.empty((rows, 4)), np.empty((rows, 6), np.int64), np.empty(rows, np.int64))
    crushing = (np.empty(rows, np.int64), (np.empty(capacity, np.int64), np.empty((capacity, 2))),
                (np.empty((slots, 3), np.int64), np.empty((capacity, 2), np.int64), np.empty((capacity, 2))))
    rounds = np.full((slots, 3), EMPTY, np.int64)  # (emptied from then on by ``_clear_rounds``)
    rounds_log = (np.empty((slots // 2 + 1, 2), np.int64), np.zeros(1, np.int64))
    return (rounds, settled, np.empty(capacity, np.int64), np.empty((2 * capacity, 2), np.int64), pile, np.zeros(1),
            crushing, np.zeros(rows, np.int64), rounds_log)


@_helper
def _inside_at_start(body: Any, ints: Any, a: int, b: int) -> bool:
    """Whether rows a and b were inside each other by more than RESOLVE_SLOP when the step
    began: a pile's link. Two boxes are measured by their boxes, other shapes by their shapes:
    two discs resting against each other on a slant have boxes that overlap, and are no pile."""
    before_a, before_b = _box_at(body, a, 0.0), _box_at(body, b, 0.0)
    if (_axis_overlap(before_a[0], before_a[2], before_b[0], before_b[2]) <= RESOLVE_SLOP
            or _axis_overlap(before_a[1], before_a[3], before_b[1], before_b[3]) <= RESOLVE_SLOP):
        return False
    if not (ints[a, FLAGS] | ints[b, FLAGS]) & NOT_BOX:
        return True
    inside, nx, ny, depth, entry, surface = overlap(before_a, ints[a, SHAPE], before_a, before_b, ints[b, SHAPE],
                                                    before_b, 0.0, 1.0)
    return inside and depth > RESOLVE_SLOP


@_helper
def _clear_rounds(rounds: Any, rounds_log: Any) -> None:
    """Empty the rounds table: the keys the last push-out logged in ``rounds_log`` (the keys,
    and how many) taken out (``_take_out``). Made empty, and only ever emptied this way, it
    holds no key a run didn't log."""
    log, logged = rounds_log
    _take_out(rounds, log, logged[0], logged)
    logged[0] = 0


@_kernel
def push_out(body: Any, ints: Any, pairs: Any, ties: Any, step: Any, squeezes: Any, status: Any,
             buffers: Any) -> Any:
    """Push apart what the step left overlapping (see the module docstring), after
    ``sweep.run_sweeps`` over the same tables, ``pairs``, ``step`` and ``buffers`` (whose
    ``status`` it continues): spread any pile, then queue the pairs that overlap (after the
    sweeps, unless a pile was spread, only those the sweeps left overlapping can) and push
    them apart. ``squeezes``: last step's crushed bodies' pairs (rows, a < b, -1 for an entity
    gone) with what squeezed them, and each pair's unit normal (a->b). Positions are written to
    POS_X/POS_Y (flag PLACED). Returns ``status``: OVERFLOW and UNASKED as ``run_sweeps`` sets
    them; WARN_A and WARN_B the first pair left overlapping by more than GIVE_UP_DEPTH (-1 for
    none), its depth in the last buffer's first float."""
    grid, links, queue, contacts, events, index, marks, out, filters, work, extra = buffers
    rounds, settled, keys, tested, pile, report, _, _, rounds_log = extra
    status[WARN_A], status[WARN_B] = -1, -1
    report[0] = 0.0
    count = 0
    for k in range(pairs.shape[0]):  # the links a pile is made of
        a, b = pairs[k, 0], pairs[k, 1]
        if (ints[a, FLAGS] | ints[b, FLAGS]) & (STATIC | TRIGGER):
            continue
        if _inside_at_start(body, ints, a, b):
            tested[count, 0], tested[count, 1] = a, b
            count += 1
    piled = relax_pile(body, ints, grid, status, filters, contacts, index, ties, pairs, tested, count, settled, pile,
                       keys, step, marks, out)
    # The pairs push-out starts from: the broad phase's and those the sweeps met. After the
    # sweeps, unless a pile moved bodies, only those left overlapping can be queued.
    met, met_count = events[2], status[MET]
    every = step[SWEEPS] == 0.0 or piled
    count = 0
    for k in range(pairs.shape[0] + met_count):
        a, b = (pairs[k, 0], pairs[k, 1]) if k < pairs.shape[0] else (met[k - pairs.shape[0], 0],
                                                                        met[k - pairs.shape[0], 1])
        if not every:
            box_a, box_b = _now(body, a), _now(body, b)
            if (ints[a, FLAGS] & ints[b, FLAGS] & STATIC
                    or _axis_overlap(box_a[0], box_a[2], box_b[0], box_b[2]) <= TOUCH_EPSILON
                    or _axis_overlap(box_a[1], box_a[3], box_b[1], box_b[3]) <= TOUCH_EPSILON):
                continue
        tested[count, 0], tested[count, 1] = a, b
        count += 1
    queued = _first_queue(body, ints, status, queue, filters, contacts, index, ties, tested, count)
    # The pile's passes moved bodies off their paths, maybe into bodies they were not paired
    # with: each is re-tested, within a budget of its own so that push-out keeps all of its.
    # Only one that left its filed box can: every pair of filed boxes that overlap is queued.
    if piled:
        spread = RETEST_FLOOR
        for row in range(body.shape[0]):
            if pile[1][row, HAS_TOTAL] and not _within(_now(body, row), _filed(body, row)):
                spread = _retest(body, ints, grid, links, status, queue, ties, row, spread + RETEST_BUDGET,
                                 step[CELL_SIZE], marks, out)
    _clear_rounds(rounds, rounds_log)
    status[ROUNDS] = 0
    _resolve_queue(body, ints, grid, links, status, queue, filters, contacts, index, ties, rounds, rounds_log,
                   squeezes, RETEST_BUDGET * queued + RETEST_FLOOR, step, marks, out, report)
    return status
