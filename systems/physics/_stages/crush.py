"""The crush stage: put each crushed body between what squeezes it.

A body that push-out (or the sweep) found squeezed between colliders that won't yield is
*crushed* (``Resolution.crushed``) and left overlapping them on purpose; this stage centres
it between them and remembers the pairs it was squeezed by (``Memory.squeezes``) for the
next step's push-out and crushing.
"""

from __future__ import annotations

import math

from pygame import Vector2

from systems.physics._bodies.body import Body
from systems.physics._shapes.geometry import TOUCH_EPSILON, boxes_overlap
from systems.physics._shapes.narrowphase import sweep
from systems.physics._stages.context import StepContext
from systems.physics._stages.memory import Squeezes
from systems.physics._solver.resolution import Resolution, own_velocity

__all__ = ["centre_crushed", "overlap_span"]


def centre_crushed(step: StepContext, before: Squeezes) -> Squeezes:
    """Put each crushed body between what squeezes it, and return the pairs
    it was squeezed by, with their normals (a->b); none when nothing is crushed.

    What squeezes it are the colliders it touched this step that hold still
    (a STATIC, a pinned or a crushed body), each on the side its first
    contact this step found it: the contact's normal, by its dominant axis
    (y at 45°); and the STATICs that squeezed it last step (``before``), on
    the same side, though it may have moved off one this step (a press it
    no longer overlaps still bounds where it may be put). Along each axis
    with such colliders on both sides whose faces leave the body no room,
    it is moved to the middle of the room there would be (overlapping both,
    or midway between crossed faces), or flush with a STATIC when what
    presses it from the other side can move (``_squeeze``). The sides come
    from the contacts, not from where push-out left it, so it ends between
    the two however far a push took it; the distances come from sweeping
    its shape along the axis, so boxes, circles and slopes are measured as
    they are."""
    state = step.state
    if not state.crushed:
        return {}
    bodies = step.collision.bodies
    toward = _squeezers(state, bodies, before)
    squeezes: Squeezes = {}
    queue = sorted(state.crushed)
    while queue:
        body = bodies[queue.pop(0)]
        held = [(bodies[e], normal) for e, normal in sorted(toward.get(body.entity, ()), key=_first)
                if _holds_still(state, bodies[e])]
        for axis in (0, 1):
            squeeze = _squeeze(body, held, axis)
            if squeeze is not None:
                _centre(body, axis, *squeeze)
        for other, normal in held:
            first, second = (body, other) if body.entity < other.entity else (other, body)
            squeezes[(first.entity, second.entity)] = Vector2(normal if first is body else -normal)
            # a pinned body it still overlaps is squeezed in the same vice
            if not other.static and other.entity not in state.crushed and boxes_overlap(body.box, other.box):
                state.crushed.add(other.entity)
                queue.append(other.entity)
    return squeezes


def _squeezers(state: Resolution, bodies: dict[int, Body],
               before: Squeezes) -> dict[int, list[tuple[int, Vector2]]]:
    """Each body's partners this step (and the STATICs that squeezed it
    last step, ``before``), each with the unit normal from it toward them."""
    toward: dict[int, list[tuple[int, Vector2]]] = {}
    for (a, b), contact in state.resolved.items():
        if not contact.trigger:
            toward.setdefault(a, []).append((b, contact.normal))
            toward.setdefault(b, []).append((a, -contact.normal))
    resolved = state.resolved
    for (a, b), normal in before.items():
        if (a, b) not in resolved and a in bodies and b in bodies and (bodies[a].static or bodies[b].static):
            toward.setdefault(a, []).append((b, normal))
            toward.setdefault(b, []).append((a, -normal))
    return toward


def _centre(body: Body, axis: int, move: float, low: float, high: float) -> None:
    """Move a crushed ``body`` by ``move`` px along ``axis`` (0 x, 1 y),
    between faces moving at ``low`` and ``high`` px/s along it (the one
    below it and the one above)."""
    shift = Vector2()
    shift[axis] = move
    body.transform.position.update(body.transform.position + shift)
    body.sync()
    if body.physics is not None:
        # It moves with the faces: at their mean speed while they close
        # (no speed of its own to bounce between them); while they draw
        # apart, no faster than the faster nor slower than the slower,
        # so it is not flung off the one that stays.
        own = body.physics.velocity[axis] + body.frame[axis]
        speed = (low + high) / 2 if low >= high else min(max(own, low), high)
        body.physics.velocity[axis] = speed - body.frame[axis]


def _first(item: tuple[int, Vector2]) -> int:
    return item[0]


def _holds_still(state: Resolution, body: Body) -> bool:
    """Whether ``body`` may squeeze another this step: not a TRIGGER, and
    STATIC, pinned or crushed."""
    return not body.trigger and (body.static or body.entity in state.pinned or body.entity in state.crushed)


def _squeeze(body: Body, held: list[tuple[Body, Vector2]], axis: int) -> tuple[float, float, float] | None:
    """How far (px) to move ``body`` along ``axis`` (0 x, 1 y) to put it
    between the ``held`` colliders (each with the direction from the body to
    it) that lie on either side of it along that axis, and the speeds (px/s)
    along the axis of the two faces it is put between; None when they leave
    it room, or nothing lies on one side. Between STATICs that leave it no room it goes
    midway between them (the bodies squeezed with it overlap it); else
    midway between what presses it, but never into a STATIC: flush with one
    when bodies that can move press it from the other side."""
    sides: list[list[tuple[float, bool, float]]] = [[], []]  # each: the move clearing it, STATIC, its speed
    for other, direction in held:
        if (0 if abs(direction.x) > abs(direction.y) else 1) != axis:
            continue
        span = overlap_span(body, other, axis)
        if span is not None:  # toward -axis the body clears it at the span's end, toward +axis at its start
            ahead = direction[axis] > 0.0
            sides[ahead].append((span[0] if ahead else span[1], other.static, own_velocity(other)[axis]))
    # The room the STATICs leave, (first, last) clearing moves with their speeds.
    first = max((entry for entry in sides[0] if entry[1]), default=(-math.inf, True, 0.0))
    last = min((entry for entry in sides[1] if entry[1]), default=(math.inf, True, 0.0))
    if first[0] > last[0]:
        return (first[0] + last[0]) / 2, first[2], last[2]
    if not sides[0] or not sides[1]:
        return None
    low, high = max(sides[0]), min(sides[1])
    if low[0] <= high[0]:
        return None
    middle = (low[0] + high[0]) / 2
    if middle < first[0]:  # never into a STATIC to make room for a body that can move
        return first[0], first[2], first[2]
    if middle > last[0]:
        return last[0], last[2], last[2]
    return middle, low[2], high[2]


def overlap_span(body: Body, other: Body, axis: int) -> tuple[float, float] | None:
    """The moves t (px) along ``axis`` (0 x, 1 y) for which ``body``'s shape,
    moved by t, overlaps ``other``'s: (first, last), or None when none does
    (it passes beside it). Found by sweeping the shape through the other
    from beyond it each way, so it holds for any pair of shapes."""
    box, reach_box = body.box, other.box
    reach = box[axis + 2] + reach_box[axis + 2] + abs(box[axis] - reach_box[axis]) + 1.0
    ends = []
    for sign in (1.0, -1.0):
        start = [box[0], box[1], box[2], box[3]]
        start[axis] -= sign * reach
        motion = Vector2()
        motion[axis] = 2.0 * sign * reach
        hit = sweep((start[0], start[1], start[2], start[3]), body.shape, reach_box, other.shape, motion)
        if hit is None:
            return None
        ends.append(sign * (2.0 * reach * hit.time - reach))
    return (ends[0], ends[1]) if ends[1] - ends[0] > TOUCH_EPSILON else None
