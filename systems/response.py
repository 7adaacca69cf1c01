"""Response: push overlapping bodies apart and exchange their momentum."""

from __future__ import annotations

import heapq
import logging

import esper
from pygame import Vector2

from systems.collision import Body, CollisionSystem
from systems.contact import Contact
from systems.geometry import TOUCH_EPSILON, box_contact
from systems.impulse import exchange_momentum

__all__ = ["ResponseSystem", "Resolution"]

log = logging.getLogger(__name__)

_AXES = (Vector2(1, 0), Vector2(0, 1))
_ZERO = Vector2()

QueueItem = tuple[float, float, int, int]

#: px. An overlap left after ``max_iterations`` rounds is normal in a dense
#: cluster of moving bodies (it shrinks geometrically and the next step
#: picks it up); only one deeper than this is worth a warning.
GIVE_UP_DEPTH = 0.5

#: px. A pair already resolved this step is corrected again only when it
#: overlaps by more than this, and then pushed this much further apart: a
#: chain of bodies sharing pushes would otherwise converge only geometrically,
#: halving the leftover each round. The overshoot is far below the 0.5 px
#: overcorrection seed 003 uses to keep bodies off seams.
RESOLVE_SLOP = 0.01


class Resolution:
    """The state of resolving one step's overlaps, shared by both pipelines.

    ``pinned`` maps an entity to a bit set of the directions it may no longer
    be pushed in this step, because it was pushed off something that holds
    still in that direction (a STATIC, or a body itself pinned). This is
    shock propagation: a box resting on the floor holds still for the box
    landing on it, so a stack rests instead of sinking, and a body pushed
    against a wall acts as part of the wall for whatever hits it next.
    """

    def __init__(self, bodies: dict[int, Body]) -> None:
        self.bodies = bodies
        self.pinned: dict[int, int] = {}
        self.resolved: dict[tuple[int, int], Contact] = {}

    def is_held(self, body: Body, axis: int, sign: int) -> bool:
        """Whether ``body`` may not be pushed along ``sign`` × axis now."""
        return body.static or bool(self.pinned.get(body.entity, 0) & _direction_bit(axis, sign))

    def pin(self, body: Body, axis: int, sign: int) -> None:
        """Forbid pushing ``body`` along ``sign`` × axis for the rest of the step."""
        self.pinned[body.entity] = self.pinned.get(body.entity, 0) | _direction_bit(axis, sign)

    def push_apart(self, a: Body, b: Body, axis: int, sign: int, depth: float) -> list[Body]:
        """Move a and b ``depth`` px apart along the normal ``sign`` × axis (a->b),
        exchange their momentum, record the contact; return who moved."""
        normal = _AXES[axis] * sign
        held_a = self.is_held(a, axis, -sign)
        held_b = self.is_held(b, axis, sign)
        share_a = push_share(a, b, held_a, held_b)
        moved = []
        if share_a > 0.0:
            a.transform.position -= normal * (depth * share_a)
            a.sync()
            moved.append(a)
        if share_a < 1.0:
            b.transform.position += normal * (depth * (1.0 - share_a))
            b.sync()
            moved.append(b)
        if held_a and share_a == 0.0:
            self.pin(b, axis, -sign)
        if held_b and share_a == 1.0:
            self.pin(a, axis, sign)
        exchange(a, b, normal, 0.0 if held_a else a.inverse_mass, 0.0 if held_b else b.inverse_mass)
        self.record(a.entity, b.entity, normal, depth)
        return moved

    def record(self, a: int, b: int, normal: Vector2, depth: float) -> None:
        """Keep one contact per pair and step, adding up the depth resolved."""
        contact = self.resolved.get((a, b))
        if contact is None:
            self.resolved[(a, b)] = Contact(a, b, Vector2(normal), depth)
        else:
            contact.depth += depth

    def contacts(self) -> list[Contact]:
        """The step's contacts, ordered by entity ids."""
        return [self.resolved[key] for key in sorted(self.resolved)]


class ResponseSystem(esper.Processor):
    """Resolve the overlaps the CollisionSystem found, earliest entry first.

    For each overlapping pair it decides who is pushed back: a STATIC body
    never moves, nor does a body pinned against something that holds still
    (see ``Resolution``); otherwise the body that moved this step is pushed,
    and when both or neither moved the push is shared in proportion to
    inverse mass. The push is along the axis the body came through (seed
    000's crack cure), then momentum is exchanged along the normal with
    Coulomb friction along the tangent. Overlaps are taken earliest entry
    first, then larger contact surface, then entity ids; a pushed body is
    checked again against its neighbours, up to ``max_iterations`` times per
    pair and step. ``contacts`` holds this step's contacts.
    """

    def __init__(self, collision: CollisionSystem, max_iterations: int = 8) -> None:
        if max_iterations < 1:
            raise ValueError(f"max_iterations must be >= 1, got {max_iterations!r}")
        self.collision = collision
        self.max_iterations = max_iterations
        self.contacts: list[Contact] = []
        self._warned = False

    def process(self, dt: float) -> None:
        """Resolve every overlap of this step and record the contacts."""
        bodies = self.collision.bodies
        state = Resolution(bodies)
        queue: list[QueueItem] = []
        for a, b in self.collision.pairs:
            _enqueue(queue, bodies[a], bodies[b])
        heapq.heapify(queue)
        rounds: dict[tuple[int, int], int] = {}
        while queue:
            _, _, a, b = heapq.heappop(queue)
            body_a, body_b = bodies[a], bodies[b]
            geometry = box_contact(body_a.box, body_b.box, body_a.before, body_b.before)
            if geometry is None:
                continue
            done = rounds.get((a, b), 0)
            if done and geometry.depth <= RESOLVE_SLOP:
                continue  # a leftover from a chain of shared pushes; see RESOLVE_SLOP
            if done >= self.max_iterations:
                if geometry.depth > GIVE_UP_DEPTH:
                    self._warn_once(a, b, geometry.depth)
                continue
            rounds[(a, b)] = done + 1
            # A repeat overshoots by the slop, so chains end instead of halving forever.
            depth = geometry.depth + (RESOLVE_SLOP if done else 0.0)
            moved = state.push_apart(body_a, body_b, geometry.axis, geometry.sign, depth)
            for body in moved:
                for other in self._neighbours(body):
                    _enqueue(queue, *_ordered(body, bodies[other]), heap=True)
        self.contacts = state.contacts()
        settle_kinematic(bodies)

    def _neighbours(self, body: Body) -> list[int]:
        """Entities a body may now touch: its broad-phase partners, or a fresh
        grid query if a push carried it outside the bounds it was filed under."""
        x, y, w, h = body.box
        bx, by, bw, bh = self.collision.grid.boxes[body.entity]
        if bx <= x and by <= y and x + w <= bx + bw and y + h <= by + bh:
            return body.neighbours
        return [e for e in self.collision.grid.query(body.box) if e != body.entity]

    def _warn_once(self, a: int, b: int, depth: float) -> None:
        if not self._warned:
            self._warned = True
            log.warning(
                "entities %d and %d still overlap by %.3f px after %d iterations; "
                "resolution may be incomplete this step (warned once per system)",
                a, b, depth, self.max_iterations,
            )


def _direction_bit(axis: int, sign: int) -> int:
    return 1 << (axis * 2 + (sign > 0))


def _ordered(first: Body, second: Body) -> tuple[Body, Body]:
    return (first, second) if first.entity < second.entity else (second, first)


def _enqueue(queue: list[QueueItem], a: Body, b: Body, heap: bool = False) -> None:
    """Queue the pair if it overlaps: earliest entry first, then larger
    contact surface (seed 000's crack cure), then entity ids."""
    if a.static and b.static:
        return
    ax, ay, aw, ah = a.box
    bx, by, bw, bh = b.box
    # Cheap separating-axis reject before the full contact computation.
    if (min(ax + aw, bx + bw) - max(ax, bx) <= TOUCH_EPSILON
            or min(ay + ah, by + bh) - max(ay, by) <= TOUCH_EPSILON):
        return
    geometry = box_contact(a.box, b.box, a.before, b.before)
    if geometry is None:
        return
    item = (geometry.entry, -geometry.surface, a.entity, b.entity)
    if heap:
        heapq.heappush(queue, item)
    else:
        queue.append(item)


def push_share(a: Body, b: Body, held_a: bool, held_b: bool) -> float:
    """Fraction (0..1) of a push that moves a; the rest moves b.

    A held body (STATIC or pinned) never moves; otherwise the body that moved
    this step takes the whole push (a body at rest is not displaced in the
    step it is hit); when both or neither moved, inverse mass decides.
    """
    if held_a != held_b:
        return 0.0 if held_a else 1.0
    if held_a:  # squeezed from both sides: move whichever is not STATIC
        return 0.0 if a.static else 1.0
    if a.moved != b.moved:
        return 1.0 if a.moved else 0.0
    total = a.inverse_mass + b.inverse_mass
    return 0.5 if total == 0.0 else a.inverse_mass / total


def exchange(a: Body, b: Body, normal: Vector2, inverse_a: float, inverse_b: float) -> None:
    """Apply one contact's momentum exchange and friction to the velocities.

    A body without Physics counts as elasticity 0 and friction 0, with no
    velocity of its own to change.
    """
    if a.physics is None and b.physics is None:
        return
    velocity_a = a.physics.velocity if a.physics else _ZERO
    velocity_b = b.physics.velocity if b.physics else _ZERO
    elasticity = max(a.physics.elasticity if a.physics else 0.0,
                     b.physics.elasticity if b.physics else 0.0)
    friction = min(a.physics.friction if a.physics else 0.0,
                   b.physics.friction if b.physics else 0.0)
    change_a, change_b = exchange_momentum(
        velocity_a, velocity_b, inverse_a, inverse_b, normal, elasticity, friction
    )
    if a.physics and inverse_a:
        a.physics.velocity += change_a
    if b.physics and inverse_b:
        b.physics.velocity += change_b


def settle_kinematic(bodies: dict[int, Body]) -> None:
    """Make the final position of each collider without Physics its start for
    the next step, so a move made by user code between steps is seen."""
    for body in bodies.values():
        if body.physics is None:
            body.transform.previous_position.update(body.transform.position)
