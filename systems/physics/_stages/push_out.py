"""The push-out stage: push apart every pair left overlapping, earliest entry first.

Push-out decides who moves: a STATIC body never does, nor does a body pinned against
something that holds still (see ``Resolution``); otherwise the body that moved this step
is pushed, and when both or neither moved the push is shared in proportion to inverse
mass. Boxes are pushed back out the side they came through, and overlaps are taken
earliest entry first, then larger contact surface, then entity ids (the crack cure of
Sacred Software, *Collisions, Part 1*). A pushed body's partners are tested again, so
chains (stacks, rows) settle in one step, within the budgets below.
"""

from __future__ import annotations

import heapq
import logging

from pygame import Vector2

from systems.physics._bodies.body import Body
from systems.physics._shapes.geometry import TOUCH_EPSILON, tie_direction
from systems.physics._shapes.narrowphase import Penetration, exit_distance, overlap
from systems.physics._stages.found import Found
from systems.physics._stages.context import StepContext
from systems.physics._stages.memory import Memory, Squeezes
from systems.physics._stages.piles import find_piles, relax_pile
from systems.physics._solver.resolution import RESOLVE_SLOP, Resolution

__all__ = ["GIVE_UP_DEPTH", "PUSHES_PER_BODY", "RETEST_BUDGET", "RETEST_FLOOR", "push_out"]

log = logging.getLogger(__name__)

#: An entry of the push-out queue (a heap): (entry time, -contact surface px, a, b), a < b.
QueueItem = tuple[float, float, int, int]

#: Re-tests of pairs after pushes allowed per step: RETEST_BUDGET per pair
#: that overlapped at the start of push-out, plus RETEST_FLOOR (see ``push_out``).
RETEST_BUDGET = 4
RETEST_FLOOR = 512

#: Pushes a body may take in one step's push-out: generous (a body jammed in
#: a corner under gravity needs a dozen), but a bound for bodies in a pile.
PUSHES_PER_BODY = 16

#: px. An overlap left after ``max_iterations`` rounds is normal in a dense
#: cluster of moving bodies (it shrinks geometrically and the next step
#: picks it up); only one deeper than this is worth a warning.
GIVE_UP_DEPTH = 0.5


def push_out(step: StepContext, memory: Memory) -> None:
    """Push apart every pair that overlaps, earliest entry first (``_tested``).

    The work is bounded: a pair is resolved at most ``step.max_iterations``
    times, a body pushed ``PUSHES_PER_BODY`` times (but always out of a
    STATIC), and the re-tests of a step number at most ``RETEST_BUDGET``
    times the pairs that overlapped to begin with, plus ``RETEST_FLOOR``. A
    pile of bodies spawned on one spot thus costs time in proportion to its
    pairs and spreads out over a few steps instead of taking one very long
    one. Last step's squeezes (``memory.squeezes``) keep a crushed body from
    being pushed out through what squeezes it.
    """
    collision, state, squeezes = step.collision, step.state, memory.squeezes
    bodies = collision.bodies
    queue = _first_queue(state, bodies, _tested(step))
    rounds: dict[tuple[int, int], int] = {}
    pushes: dict[int, int] = {}
    budget = RETEST_BUDGET * len(queue) + RETEST_FLOOR
    while queue:
        _, _, a, b = heapq.heappop(queue)
        body_a, body_b = bodies[a], bodies[b]
        contact = overlap(body_a.box, body_a.shape, body_a.before,
                          body_b.box, body_b.shape, body_b.before, tie_direction(a, b))
        if contact is None:
            continue
        contact = _squeezed_side(squeezes, body_a, body_b, contact)
        done = rounds.get((a, b), 0)
        if done and contact.depth <= RESOLVE_SLOP:
            continue  # a leftover from a chain of shared pushes; see RESOLVE_SLOP
        # The per-body cap bounds piles; a push out of a STATIC is never
        # refused by it (it is bounded per pair), so no body is left
        # inside level geometry because its pile used up its pushes.
        capped = not (body_a.static or body_b.static) and max(pushes.get(a, 0), pushes.get(b, 0)) >= PUSHES_PER_BODY
        if done >= step.max_iterations or capped:
            # A crushed body is left overlapping on purpose: nothing to warn of.
            if contact.depth > GIVE_UP_DEPTH and a not in state.crushed and b not in state.crushed:
                _warn_once(memory, a, b, contact.depth, step.max_iterations)
            continue
        rounds[(a, b)] = done + 1
        # A repeat overshoots by the slop, so chains end instead of halving forever.
        depth = contact.depth + (RESOLVE_SLOP if done else 0.0)
        if not state.permits(body_a, body_b, contact.normal):
            continue  # a one-way face from behind, or a filter lets them pass
        held = _still_squeezed(squeezes, bodies, body_a, body_b, contact.normal)
        for body in state.push_apart(body_a, body_b, contact.normal, depth, contact.surface, held):
            pushes[body.entity] = pushes.get(body.entity, 0) + 1
            budget = _retest(queue, collision, body, budget)


def _tested(step: StepContext) -> list[tuple[int, int]]:
    """The pairs push-out starts from: the broad phase's and those the
    sweeps met on changed paths, after relaxing any pile. After the sweep
    stage (``step.swept``), only its links are looked at for piles, and
    unless a pile was relaxed only the pairs it found overlapping are
    tested: no other pair can be queued."""
    collision, state, swept = step.collision, step.state, step.swept
    bodies = collision.bodies
    if swept is None:  # the discrete pipeline
        relax_pile(state, bodies, collision.pairs, collision.statics)
        return collision.pairs
    if find_piles(swept.links):  # a pile moves bodies: every pair is tested after it
        relax_pile(state, bodies, collision.pairs, collision.statics, swept.links)
        return collision.pairs + swept.met()
    return swept.overlapping  # (so the lists of every pair are made only when needed)


def _retest(queue: list[QueueItem], collision: Found, body: Body, budget: int) -> int:
    """Queue the pairs of a just pushed ``body`` with its partners that now
    overlap, if finding them costs no more than ``budget`` re-tests; returns
    the budget left."""
    partners, cost = collision.candidates_within(body, body.box, budget)
    if cost > budget:
        return budget
    bodies = collision.bodies
    for other in partners:
        _enqueue(queue, *_ordered(body, bodies[other]), heap=True)
    return budget - cost


def _squeezed_side(squeezes: Squeezes, a: Body, b: Body, contact: Penetration) -> Penetration:
    """The contact pushing a crushed body and what squeezed it last
    step apart along last step's normal (``squeezes``): it was left overlapping, maybe
    past the middle of a thin STATIC, and the least penetration would
    then push it out the far side, through it."""
    normal = squeezes.get((a.entity, b.entity))
    if normal is None or normal == contact.normal:
        return contact
    depth = exit_distance(a.box, a.shape, b.box, b.shape, normal)
    return contact if depth is None else Penetration(Vector2(normal), depth, contact.entry, contact.surface)


def _still_squeezed(squeezes: Squeezes, bodies: dict[int, Body], a: Body, b: Body, normal: Vector2) -> bool:
    """Whether the pair (a crushed body and what squeezed it last step)
    may not be pushed apart along ``normal`` (a->b), because the push
    would move the body toward something else that squeezed it from the
    other side last step and that it still overlaps: it is still crushed,
    and pushed out of one it would go through the other (a lift rising
    into a ceiling) if that one is thin."""
    if (a.entity, b.entity) not in squeezes:
        return False
    for body, push in ((a, -normal), (b, normal)):
        if body.static:
            continue
        for (first, second), toward in squeezes.items():
            if body.entity not in (first, second) or {first, second} == {a.entity, b.entity}:
                continue
            other = bodies[second if first == body.entity else first]
            toward = toward if first == body.entity else -toward
            if _opposite(toward, push) and overlap(body.box, body.shape, body.before, other.box,
                                                   other.shape, other.before) is not None:
                return True
    return False


def _opposite(toward: Vector2, push: Vector2) -> bool:
    """Whether a squeezer lying ``toward`` a body lies where ``push`` moves
    it, on the same dominant axis (y at 45°), as crushing sides them."""
    axis = 0 if abs(push.x) > abs(push.y) else 1
    return (0 if abs(toward.x) > abs(toward.y) else 1) == axis and toward[axis] * push[axis] > 0.0


def _warn_once(memory: Memory, a: int, b: int, depth: float, iterations: int) -> None:
    """Log, once per World, that a pair (entities) was left overlapping by ``depth`` px."""
    if not memory.warned_overlap:
        memory.warned_overlap = True
        log.warning(
            "entities %d and %d still overlap by %.3f px after %d iterations; "
            "resolution may be incomplete this step (warned once per World)",
            a, b, depth, iterations,
        )


def _first_queue(state: Resolution, bodies: dict[int, Body], pairs: list[tuple[int, int]]) -> list[QueueItem]:
    """The push-out queue of the step's pairs (a heap); TRIGGER pairs are
    only reported."""
    queue: list[QueueItem] = []
    for a, b in pairs:
        body_a, body_b = bodies[a], bodies[b]
        if body_a.trigger or body_b.trigger:
            _report_trigger(state, body_a, body_b)
        else:
            _enqueue(queue, body_a, body_b)
    heapq.heapify(queue)
    return queue


def _report_trigger(state: Resolution, a: Body, b: Body) -> None:
    """Record a contact with a TRIGGER if the pair overlaps; nothing moves."""
    contact = overlap(a.box, a.shape, a.before, b.box, b.shape, b.before, tie_direction(a.entity, b.entity))
    if contact is not None and state.permits(a, b, contact.normal):
        state.record(a.entity, b.entity, contact.normal, contact.depth, True, (a.box, a.shape, b.box, b.shape),
                     0.0, contact.surface)


def _ordered(first: Body, second: Body) -> tuple[Body, Body]:
    return (first, second) if first.entity < second.entity else (second, first)


def _enqueue(queue: list[QueueItem], a: Body, b: Body, heap: bool = False) -> None:
    """Queue the pair if it overlaps: earliest entry first, then larger
    contact surface, then entity ids. TRIGGER pairs are never pushed (see
    _report_trigger)."""
    if (a.static and b.static) or a.trigger or b.trigger:
        return
    ax, ay, aw, ah = a.box
    bx, by, bw, bh = b.box
    # Cheap separating-axis reject on the boxes before the full test.
    if (min(ax + aw, bx + bw) - max(ax, bx) <= TOUCH_EPSILON
            or min(ay + ah, by + bh) - max(ay, by) <= TOUCH_EPSILON):
        return
    contact = overlap(a.box, a.shape, a.before, b.box, b.shape, b.before, tie_direction(a.entity, b.entity))
    if contact is None:
        return
    item = (contact.entry, -contact.surface, a.entity, b.entity)
    if heap:
        heapq.heappush(queue, item)
    else:
        queue.append(item)
