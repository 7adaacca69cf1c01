"""Response: push overlapping bodies apart and exchange their momentum."""

from __future__ import annotations

import heapq
import logging
from typing import TYPE_CHECKING

import esper
from pygame import Vector2

from components import Touching
from components._checks import finite_vector
from systems.collision import Body, CollisionSystem
from systems.contact import Contact
from systems.continuous import Sweeper
from systems.geometry import TOUCH_EPSILON, tie_direction
from systems.narrowphase import overlap
from systems.piles import relax_pile
from systems.resolution import RESOLVE_SLOP, CollisionFilter, Resolution, settle_kinematic
from systems.riders import Rides, express_in_platform_frames

if TYPE_CHECKING:
    from ecs.world import World

__all__ = ["ResponseSystem"]

log = logging.getLogger(__name__)

QueueItem = tuple[float, float, int, int]

_ZERO = Vector2()

#: Re-tests of pairs after pushes allowed per step: RETEST_BUDGET per pair
#: that overlapped at the start of push-out, plus RETEST_FLOOR (see
#: ``ResponseSystem._push_out``).
RETEST_BUDGET = 4
RETEST_FLOOR = 512

#: Pushes a body may take in one step's push-out: generous (a body jammed in
#: a corner under gravity needs a dozen), but a bound for bodies in a pile.
PUSHES_PER_BODY = 16

#: px. An overlap left after ``max_iterations`` rounds is normal in a dense
#: cluster of moving bodies (it shrinks geometrically and the next step
#: picks it up); only one deeper than this is worth a warning.
GIVE_UP_DEPTH = 0.5


class ResponseSystem(esper.Processor):
    """Resolve the step's collisions and exchange momentum.

    With ``continuous`` (see ``systems.continuous``) moving bodies are first
    swept along their paths and stopped or bounced at their time of impact;
    then, in both modes, overlaps left over (bodies spawned inside each
    other, or any pipeline with ``continuous=False``) are pushed out.

    Push-out decides who moves: a STATIC body never does, nor does a body
    pinned against something that holds still (see ``Resolution``);
    otherwise the body that moved this step is pushed, and when both or
    neither moved the push is shared in proportion to inverse mass. Boxes are
    pushed back out the side they came through (the crack cure of
    Sacred Software, *Collisions, Part 1*).
    Overlaps are taken earliest entry first, then larger contact surface,
    then entity ids; a pushed body is checked again against its neighbours,
    up to ``max_iterations`` times per pair and step. Momentum is exchanged
    along the normal with Coulomb friction along the tangent; contacts
    approaching slower than 2·|gravity|·dt (px/s, ``gravity`` in px/s² as
    given to Movement) are resting and don't bounce.

    TRIGGER pairs are only recorded. Bodies left resting on a STATIC are
    handed to Movement in ``rides``, to be carried with it next step (see
    ``systems.riders``). Touching components are set from the contacts.
    ``contacts`` holds this step's contacts.
    """

    def __init__(self, world: World, collision: CollisionSystem, max_iterations: int = 8,
                 continuous: bool = False, max_subdivisions: int = 32,
                 gravity: tuple[float, float] | Vector2 = (0.0, 0.0), rides: Rides | None = None) -> None:
        if max_iterations < 1:
            raise ValueError(f"max_iterations must be >= 1, got {max_iterations!r}")
        self.world = world
        self.collision = collision
        self.gravity = finite_vector("gravity", gravity)
        self.max_iterations = max_iterations
        self.continuous = continuous
        self.contacts: list[Contact] = []
        self.rides: Rides = {} if rides is None else rides
        self.filters: list[CollisionFilter] = []
        self._warned = False
        self.sweeper = Sweeper(max_subdivisions)

    def process(self, dt: float) -> None:
        """Resolve every collision of this step and record the contacts."""
        bodies = self.collision.bodies
        up = -self.gravity.normalize() if self.gravity.length_squared() else Vector2()
        # Approaching slower than gravity adds in two steps is resting contact.
        state = Resolution(2.0 * self.gravity.length() * dt, up, list(self.filters), self.collision.one_way)
        riders = _board_riders(bodies, self.rides, dt)
        if self.continuous and dt > 0:
            self.sweeper.run(self.collision, state, dt)
        self._push_out(state)
        self.contacts = state.contacts()
        _leave_or_land(bodies, self.rides, state.rides)
        for body in riders:
            body.carry = body.frame = _ZERO
        update_touching(self.world, self.contacts)
        settle_kinematic(bodies)

    def _push_out(self, state: Resolution) -> None:
        """Push apart every pair that overlaps, earliest entry first.

        A pushed body's partners are tested again, so chains (stacks, rows)
        settle in one step. The work is bounded: a pair is resolved at most
        ``max_iterations`` times, a body pushed ``PUSHES_PER_BODY`` times,
        and the re-tests of a step number at most
        ``RETEST_BUDGET`` times the pairs that overlapped to begin with, plus
        ``RETEST_FLOOR``. A pile of bodies spawned on one spot
        thus costs time in proportion to its pairs and spreads out over a few
        steps instead of taking one very long one.
        """
        bodies = self.collision.bodies
        relax_pile(state, bodies, self.collision.pairs)
        queue: list[QueueItem] = []
        for a, b in self.collision.pairs:
            body_a, body_b = bodies[a], bodies[b]
            if body_a.trigger or body_b.trigger:
                _report_trigger(state, body_a, body_b)
            else:
                _enqueue(queue, body_a, body_b)
        heapq.heapify(queue)
        rounds: dict[tuple[int, int], int] = {}
        pushes: dict[int, int] = {}
        budget = RETEST_BUDGET * len(queue) + RETEST_FLOOR
        while queue:
            _, _, a, b = heapq.heappop(queue)
            body_a, body_b = bodies[a], bodies[b]
            contact = overlap(body_a.box, body_a.round, body_a.before,
                              body_b.box, body_b.round, body_b.before, tie_direction(a, b))
            if contact is None:
                continue
            done = rounds.get((a, b), 0)
            if done and contact.depth <= RESOLVE_SLOP:
                continue  # a leftover from a chain of shared pushes; see RESOLVE_SLOP
            if done >= self.max_iterations or max(pushes.get(a, 0), pushes.get(b, 0)) >= PUSHES_PER_BODY:
                if contact.depth > GIVE_UP_DEPTH:
                    self._warn_once(a, b, contact.depth)
                continue
            rounds[(a, b)] = done + 1
            # A repeat overshoots by the slop, so chains end instead of halving forever.
            depth = contact.depth + (RESOLVE_SLOP if done else 0.0)
            if not state.permits(body_a, body_b, contact.normal):
                continue  # a one-way face from behind, or a filter lets them pass
            for body in state.push_apart(body_a, body_b, contact.normal, depth, contact.surface):
                pushes[body.entity] = pushes.get(body.entity, 0) + 1
                partners, cost = self.collision.candidates_within(body, body.box, budget)
                if cost <= budget:
                    budget -= cost
                    for other in partners:
                        _enqueue(queue, *_ordered(body, bodies[other]), heap=True)

    def _warn_once(self, a: int, b: int, depth: float) -> None:
        if not self._warned:
            self._warned = True
            log.warning(
                "entities %d and %d still overlap by %.3f px after %d iterations; "
                "resolution may be incomplete this step (warned once per system)",
                a, b, depth, self.max_iterations,
            )


def _report_trigger(state: Resolution, a: Body, b: Body) -> None:
    """Record a contact with a TRIGGER if the pair overlaps; nothing moves."""
    contact = overlap(a.box, a.round, a.before, b.box, b.round, b.before, tie_direction(a.entity, b.entity))
    if contact is not None and state.permits(a, b, contact.normal):
        state.record(a.entity, b.entity, contact.normal, contact.depth, True, (a.box, a.round, b.box, b.round),
                     0.0, contact.surface)


def _board_riders(bodies: dict[int, Body], rides: Rides, dt: float) -> list[Body]:
    """Tell the bodies Movement carried this step (see ``systems.riders``)
    their platform's displacement and frame; returns them."""
    riders = []
    for rider, ride in rides.items():
        body = bodies.get(rider)
        if body is not None and ride.carried:
            body.carry, body.frame = ride.carry, ride.frame
            riders.append(body)
    return riders


def _leave_or_land(bodies: dict[int, Body], rides: Rides, landed: Rides) -> None:
    """Hand this step's riders to the next step, re-expressing velocities in
    their platforms' frames."""
    velocities = {e: body.physics.velocity for e in rides.keys() | landed.keys()
                  if (body := bodies.get(e)) is not None and body.physics is not None}
    platforms = {ride.platform: body.physics.velocity for ride in landed.values()
                 if (body := bodies.get(ride.platform)) is not None and body.physics is not None}
    express_in_platform_frames(velocities, rides, landed, platforms)
    rides.clear()
    rides.update(landed)


def update_touching(world: World, contacts: list[Contact]) -> None:
    """Set every Touching component's flags, and ``ground``, from this step's
    contacts (TRIGGER contacts don't count)."""
    touching = dict(world.get_component(Touching))
    if not touching:
        return
    for flags in touching.values():
        flags.clear()
    grounds: dict[int, tuple[float, int]] = {}
    for contact in contacts:
        if contact.trigger:
            continue
        for entity, other, toward in ((contact.a, contact.b, contact.normal), (contact.b, contact.a, -contact.normal)):
            side = touching.get(entity)
            if side is None:
                continue
            side.down |= toward.y > 0.5
            side.up |= toward.y < -0.5
            side.right |= toward.x > 0.5
            side.left |= toward.x < -0.5
            if toward.y > 0.5:  # stands on other: the longest surface wins, then the smaller id
                grounds[entity] = min(grounds.get(entity, (0.0, other)), (-contact.surface, other))
    for entity, (_, ground) in grounds.items():
        touching[entity].ground = ground


def _ordered(first: Body, second: Body) -> tuple[Body, Body]:
    return (first, second) if first.entity < second.entity else (second, first)


def _enqueue(queue: list[QueueItem], a: Body, b: Body, heap: bool = False) -> None:
    """Queue the pair if it overlaps: earliest entry first, then larger
    contact surface (the crack cure of Sacred Software, *Collisions, Part 1*), then entity ids. TRIGGER pairs
    are never pushed (see _report_trigger)."""
    if (a.static and b.static) or a.trigger or b.trigger:
        return
    ax, ay, aw, ah = a.box
    bx, by, bw, bh = b.box
    # Cheap separating-axis reject on the boxes before the full test.
    if (min(ax + aw, bx + bw) - max(ax, bx) <= TOUCH_EPSILON
            or min(ay + ah, by + bh) - max(ay, by) <= TOUCH_EPSILON):
        return
    contact = overlap(a.box, a.round, a.before, b.box, b.round, b.before, tie_direction(a.entity, b.entity))
    if contact is None:
        return
    item = (contact.entry, -contact.surface, a.entity, b.entity)
    if heap:
        heapq.heappush(queue, item)
    else:
        queue.append(item)
