"""Response: push overlapping bodies apart and exchange their momentum."""

from __future__ import annotations

import heapq
import logging
import math

import esper
from pygame import Vector2

from components import Touching
from components._checks import finite_vector
from systems.physics._bodies.body import Body
from systems.physics.collision import CollisionSystem
from systems.physics._shapes.contact import Contact
from systems.physics._stages.sweep import Sweeper
from systems.physics._shapes.geometry import TOUCH_EPSILON, boxes_overlap, tie_direction
from systems.physics._shapes.geometry import union_box
from systems.physics._shapes.narrowphase import Penetration, exit_distance, overlap, sweep
from systems.physics._shapes.impact import Hit
from systems.physics._stages.piles import find_piles, relax_pile
from systems.physics._solver.resolution import RESOLVE_SLOP, CollisionFilter, Resolution, own_velocity
from systems.physics._solver.riders import Rides, express_in_platform_frames
from systems.physics._stages.compiled_sweep import Swept
from systems._world import WorldLike

__all__ = ["ResponseSystem"]

log = logging.getLogger(__name__)

QueueItem = tuple[float, float, int, int]

_ZERO = Vector2()
_DIAGONAL = math.sqrt(0.5) - 1e-9  # cos 45°, within rounding

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

    With ``continuous`` (see ``systems.physics._stages.sweep``) moving bodies are first
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
    ``systems.physics._solver.riders``). Touching components are set from the contacts.
    ``contacts`` holds this step's contacts (made when first read).
    """

    def __init__(self, world: WorldLike, collision: CollisionSystem, max_iterations: int = 8,
                 continuous: bool = False, max_subdivisions: int = 32,
                 gravity: tuple[float, float] | Vector2 = (0.0, 0.0), rides: Rides | None = None) -> None:
        if max_iterations < 1:
            raise ValueError(f"max_iterations must be >= 1, got {max_iterations!r}")
        self.world = world
        self.collision = collision
        self.gravity = finite_vector("gravity", gravity)
        self.max_iterations = max_iterations
        self.continuous = continuous
        self._resolution: Resolution | None = None
        self._contacts: list[Contact] | None = []
        self.rides: Rides = {} if rides is None else rides
        self.filters: list[CollisionFilter] = []
        self.grounded: dict[int, Vector2] = {}
        self.crushed: list[int] = []
        # Last step's crushed bodies' pairs with what squeezed them, with the
        # normals (a->b) they were pushed apart along (see ``_push_out``).
        self._squeezes: Squeezes = {}
        self._warned_crush = False
        self._warned = False
        self.sweeper = Sweeper(max_subdivisions)

    def process(self, dt: float) -> None:
        """Resolve every collision of this step and record the contacts."""
        bodies = self.collision.bodies
        up = -self.gravity.normalize() if self.gravity.length_squared() else Vector2()
        # Approaching slower than gravity adds in two steps is resting contact.
        # The discrete pipeline's contacts come after the step's move: push-out gives friction's part of it back.
        state = Resolution(2.0 * self.gravity.length() * dt, up, list(self.filters), self.collision.one_way,
                           0.0 if self.continuous else dt)
        riders = _board_riders(bodies, self.rides, dt)
        met: list[tuple[int, int]] = []
        swept = None
        # Each stage's time, filed under this system's name as World._run files it.
        timed, name = self.world.timed, type(self).__name__
        if self.continuous and dt > 0:
            with timed(f"{name}.sweep"):
                self.sweeper.run(self.collision, state, dt, self.gravity, carried=bool(riders))
            met, swept = self.sweeper.met, self.sweeper.swept
        with timed(f"{name}.push_out"):
            self._push_out(state, met, swept)
            self._squeezes = centre_crushed(state, self.collision, self._squeezes) if state.crushed else {}
            if up:
                snap_to_ground(state, self.collision, self.grounded, up)
        with timed(f"{name}.contacts"):
            self._record(state, riders, up)

    @property
    def contacts(self) -> list[Contact]:
        """This step's contacts (between steps, the last step's), ordered by
        time, then entity ids; a new list each step.

        Made when first read: a step that resolves thousands of impacts and
        whose contacts nobody reads makes no ``Contact`` objects.
        """
        if self._contacts is None:
            assert self._resolution is not None
            self._contacts = self._resolution.contacts()
            self._resolution = None
        return self._contacts

    @contacts.setter
    def contacts(self, contacts: list[Contact]) -> None:
        self._resolution, self._contacts = None, contacts

    def _record(self, state: Resolution, riders: list[Body], up: Vector2) -> None:
        """Keep the step's contacts, grounded and crushed bodies and riders,
        and set the Touching components."""
        bodies = self.collision.bodies
        self._resolution, self._contacts = state, None
        self.grounded = grounded_bodies(self.contacts, up) if up else {}
        self.crushed = sorted(state.crushed)
        if self.crushed and not self._warned_crush:
            self._warned_crush = True
            log.info("entity %d is crushed: squeezed between colliders that won't yield, it is left "
                     "where it is (World.on_crush tells the game; logged once per World)", self.crushed[0])
        _leave_or_land(bodies, self.rides, state.rides)
        for body in riders:
            body.carry = body.frame = _ZERO
        touching = dict(self.world.get_component(Touching))
        if touching:
            update_touching(touching, self.contacts)
        self.collision.settle_kinematic()

    def _push_out(self, state: Resolution, met: list[tuple[int, int]], swept: Swept | None = None) -> None:
        """Push apart every pair that overlaps, earliest entry first: the
        broad phase's pairs and those the sweeps ``met`` on changed paths.
        After the compiled sweep stage (``swept``), only its links are
        looked at for piles, and unless a pile was relaxed only the pairs it
        found overlapping are tested: no other pair can be queued.

        A pushed body's partners are tested again, so chains (stacks, rows)
        settle in one step. The work is bounded: a pair is resolved at most
        ``max_iterations`` times, a body pushed ``PUSHES_PER_BODY`` times
        (but always out of a STATIC), and the re-tests of a step number at most
        ``RETEST_BUDGET`` times the pairs that overlapped to begin with, plus
        ``RETEST_FLOOR``. A pile of bodies spawned on one spot
        thus costs time in proportion to its pairs and spreads out over a few
        steps instead of taking one very long one.
        """
        bodies = self.collision.bodies
        if swept is None:
            relax_pile(state, bodies, self.collision.pairs, self.collision.statics)
            tested = self.collision.pairs + met
        elif find_piles(swept.links):  # a pile moves bodies: every pair is tested after it
            relax_pile(state, bodies, self.collision.pairs, self.collision.statics, swept.links)
            tested = self.collision.pairs + swept.met()
        else:  # (so the lists of every pair are made only when needed)
            tested = swept.overlapping
        queue = _first_queue(state, bodies, tested)
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
            contact = self._squeezed_side(body_a, body_b, contact)
            done = rounds.get((a, b), 0)
            if done and contact.depth <= RESOLVE_SLOP:
                continue  # a leftover from a chain of shared pushes; see RESOLVE_SLOP
            # The per-body cap bounds piles; a push out of a STATIC is never
            # refused by it (it is bounded per pair), so no body is left
            # inside level geometry because its pile used up its pushes.
            capped = not (body_a.static or body_b.static) and max(pushes.get(a, 0), pushes.get(b, 0)) >= PUSHES_PER_BODY
            if done >= self.max_iterations or capped:
                # A crushed body is left overlapping on purpose: nothing to warn of.
                if contact.depth > GIVE_UP_DEPTH and a not in state.crushed and b not in state.crushed:
                    self._warn_once(a, b, contact.depth)
                continue
            rounds[(a, b)] = done + 1
            # A repeat overshoots by the slop, so chains end instead of halving forever.
            depth = contact.depth + (RESOLVE_SLOP if done else 0.0)
            if not state.permits(body_a, body_b, contact.normal):
                continue  # a one-way face from behind, or a filter lets them pass
            held = self._still_squeezed(body_a, body_b, contact.normal)
            for body in state.push_apart(body_a, body_b, contact.normal, depth, contact.surface, held):
                pushes[body.entity] = pushes.get(body.entity, 0) + 1
                partners, cost = self.collision.candidates_within(body, body.box, budget)
                if cost <= budget:
                    budget -= cost
                    for other in partners:
                        _enqueue(queue, *_ordered(body, bodies[other]), heap=True)

    def _squeezed_side(self, a: Body, b: Body, contact: Penetration) -> Penetration:
        """The contact pushing a crushed body and what squeezed it last
        step apart along last step's normal: it was left overlapping, maybe
        past the middle of a thin STATIC, and the least penetration would
        then push it out the far side, through it."""
        normal = self._squeezes.get((a.entity, b.entity))
        if normal is None or normal == contact.normal:
            return contact
        depth = exit_distance(a.box, a.shape, b.box, b.shape, normal)
        return contact if depth is None else Penetration(Vector2(normal), depth, contact.entry, contact.surface)

    def _still_squeezed(self, a: Body, b: Body, normal: Vector2) -> bool:
        """Whether the pair (a crushed body and what squeezed it last step)
        may not be pushed apart along ``normal`` (a->b), because the push
        would move the body toward something else that squeezed it from the
        other side last step and that it still overlaps: it is still crushed,
        and pushed out of one it would go through the other (a lift rising
        into a ceiling) if that one is thin."""
        if (a.entity, b.entity) not in self._squeezes:
            return False
        bodies = self.collision.bodies
        for body, push in ((a, -normal), (b, normal)):
            if body.static:
                continue
            for (first, second), toward in self._squeezes.items():
                if body.entity not in (first, second) or {first, second} == {a.entity, b.entity}:
                    continue
                other = bodies[second if first == body.entity else first]
                toward = toward if first == body.entity else -toward
                if _opposite(toward, push) and overlap(body.box, body.shape, body.before, other.box,
                                                       other.shape, other.before) is not None:
                    return True
        return False

    def _warn_once(self, a: int, b: int, depth: float) -> None:
        if not self._warned:
            self._warned = True
            log.warning(
                "entities %d and %d still overlap by %.3f px after %d iterations; "
                "resolution may be incomplete this step (warned once per system)",
                a, b, depth, self.max_iterations,
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


def _board_riders(bodies: dict[int, Body], rides: Rides, dt: float) -> list[Body]:
    """Tell the bodies Movement carried this step (see ``systems.physics._solver.riders``)
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


#: A crushed body's pairs with what squeezes it, each with its normal (a->b).
Squeezes = dict[tuple[int, int], Vector2]


def centre_crushed(state: Resolution, collision: CollisionSystem, before: Squeezes | None = None) -> Squeezes:
    """Put each crushed body between what squeezes it, and return the pairs
    it was squeezed by, with their normals (a->b).

    What squeezes it are the colliders it touched this step that hold still
    (a STATIC, a pinned or a crushed body), each on the side its first
    contact this step found it: the contact's normal, by its dominant axis
    (y at 45°); and the STATICs that squeezed it last step (``before``), on
    the same side, though it may have moved off one this step (a press it
    no longer overlaps still bounds where it may be put). Along each axis with such colliders on both sides whose
    faces leave the body no room, it is moved to the middle of the room
    there would be (overlapping both, or midway between crossed faces), or
    flush with a STATIC when what presses it from the other side can move.
    The sides come from the contacts, not from where push-out left it, so it
    ends between the two however far a push took it; the distances come
    from sweeping its shape along the axis, so boxes, circles and slopes
    are measured as they are."""
    bodies = collision.bodies
    toward: dict[int, list[tuple[int, Vector2]]] = {}
    for (a, b), contact in state.resolved.items():
        if not contact.trigger:
            toward.setdefault(a, []).append((b, contact.normal))
            toward.setdefault(b, []).append((a, -contact.normal))
    resolved = state.resolved
    for (a, b), normal in (before or {}).items():
        if (a, b) not in resolved and a in bodies and b in bodies and (bodies[a].static or bodies[b].static):
            toward.setdefault(a, []).append((b, normal))
            toward.setdefault(b, []).append((a, -normal))
    squeezes: Squeezes = {}
    queue = sorted(state.crushed)
    while queue:
        body = bodies[queue.pop(0)]
        held = [(bodies[e], normal) for e, normal in sorted(toward.get(body.entity, ()), key=_first)
                if _holds_still(state, bodies[e])]
        for axis in (0, 1):
            squeeze = _squeeze(body, held, axis)
            if squeeze is None:
                continue
            move = Vector2()
            move[axis] = squeeze[0]
            body.transform.position.update(body.transform.position + move)
            body.sync()
            if body.physics is not None:
                # It moves with the faces: at their mean speed while they close
                # (no speed of its own to bounce between them); while they draw
                # apart, no faster than the faster nor slower than the slower,
                # so it is not flung off the one that stays.
                low, high = squeeze[1], squeeze[2]  # the faces' speeds below and above it along the axis
                own = body.physics.velocity[axis] + body.frame[axis]
                speed = (low + high) / 2 if low >= high else min(max(own, low), high)
                body.physics.velocity[axis] = speed - body.frame[axis]
        for other, normal in held:
            first, second = _ordered(body, other)
            squeezes[(first.entity, second.entity)] = Vector2(normal if first is body else -normal)
            # a pinned body it still overlaps is squeezed in the same vice
            if not other.static and other.entity not in state.crushed and boxes_overlap(body.box, other.box):
                state.crushed.add(other.entity)
                queue.append(other.entity)
    return squeezes


def _opposite(toward: Vector2, push: Vector2) -> bool:
    """Whether a squeezer lying ``toward`` a body lies where ``push`` moves
    it, on the same dominant axis (y at 45°), as centring sides them."""
    axis = 0 if abs(push.x) > abs(push.y) else 1
    return (0 if abs(toward.x) > abs(toward.y) else 1) == axis and toward[axis] * push[axis] > 0.0


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


def grounded_bodies(contacts: list[Contact], up: Vector2) -> dict[int, Vector2]:
    """Entities with ground below them in ``contacts`` (a contact normal at
    most 45° from ``up``; TRIGGER contacts don't count), each with the normal
    of that ground, from it to the entity (the most upright one)."""
    grounded: dict[int, Vector2] = {}
    if not up:
        return grounded
    for contact in contacts:
        if contact.trigger:
            continue
        for entity, normal in ((contact.b, contact.normal), (contact.a, -contact.normal)):
            if normal.dot(up) >= _DIAGONAL and (entity not in grounded or normal.dot(up) > grounded[entity].dot(up)):
                grounded[entity] = normal
    return grounded


def snap_to_ground(state: Resolution, collision: CollisionSystem, grounded: dict[int, Vector2],
                   up: Vector2) -> None:
    """Move down onto the ground each body with ``Physics.ground_snap`` that
    had ground below it last step (``grounded``: its normal), has none this
    step and is not leaving it faster than the rest speed, both upward and
    along that normal (a jump; walking up to a ramp's crest rises along the
    slope, walking down one moves off the slope's normal without rising:
    neither is leaving): by up to ``ground_snap``
    px straight down, onto the first STATIC or SOLID below (never a TRIGGER,
    never a one-way platform from below). That is a landing: the contact is
    settled, and velocity away from the new ground is dropped, so a walker
    crossing a ramp's crest stays on the flat beyond it."""
    bodies = collision.bodies
    snappers = [body for entity in sorted(grounded) if (body := bodies.get(entity)) is not None
                and body.physics is not None and body.physics.ground_snap > 0.0 and not (body.static or body.trigger)]
    if not snappers:
        return
    standing = grounded_bodies(state.contacts(), up)
    for body in snappers:
        physics = body.physics
        assert physics is not None
        moving = physics.velocity + body.frame
        if body.entity in standing or min(moving.dot(up), moving.dot(grounded[body.entity])) > state.rest_speed:
            continue  # on the ground already, or leaving it (rising, and off its surface): a jump
        drop = -up * physics.ground_snap
        landing = _first_below(state, collision, body, drop)
        if landing is not None:
            ground, hit = landing
            body.transform.position.update(body.transform.position + drop * hit.time)
            body.sync()
            a, b = (body, ground) if body.entity < ground.entity else (ground, body)
            normal = hit.normal if a is body else -hit.normal
            state.settle(a, b, normal, state.holds(a, b, normal), 0.0, hit.surface, 1.0)
            away = physics.velocity.dot(-hit.normal)  # hit.normal points from the body down to the ground
            if away > 0.0:
                physics.velocity.update(physics.velocity + hit.normal * away)


def _first_below(state: Resolution, collision: CollisionSystem, body: Body, drop: Vector2) -> tuple[Body, Hit] | None:
    """The first collider ``body`` would meet moving by ``drop`` px, and how."""
    bodies = collision.bodies
    reach = union_box(body.box, (body.box[0] + drop.x, body.box[1] + drop.y, body.box[2], body.box[3]))
    first: tuple[float, int, Body, Hit] | None = None
    for entity in collision.candidates(body, reach):
        other = bodies[entity]
        hit = None if other.trigger else sweep(body.box, body.shape, other.box, other.shape, drop)
        if hit is None or (first is not None and (hit.time, entity) >= first[:2]):
            continue
        a, b = (body, other) if body.entity < entity else (other, body)
        if state.permits(a, b, hit.normal if a is body else -hit.normal):
            first = (hit.time, entity, other, hit)
    return None if first is None else (first[2], first[3])


def update_touching(touching: dict[int, Touching], contacts: list[Contact]) -> None:
    """Set every Touching component's flags (``touching``: by entity), and
    ``ground``, from this step's contacts (TRIGGER contacts don't count)."""
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
            # Up to 45° from vertical is ground (or ceiling): a ramp is not a wall.
            side.down |= toward.y >= _DIAGONAL
            side.up |= toward.y <= -_DIAGONAL
            side.right |= toward.x > _DIAGONAL + 2e-9
            side.left |= toward.x < -_DIAGONAL - 2e-9
            if toward.y >= _DIAGONAL:  # stands on other: the longest surface wins, then the smaller id
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
    contact = overlap(a.box, a.shape, a.before, b.box, b.shape, b.before, tie_direction(a.entity, b.entity))
    if contact is None:
        return
    item = (contact.entry, -contact.surface, a.entity, b.entity)
    if heap:
        heapq.heappush(queue, item)
    else:
        queue.append(item)
