"""Resolution: who moves, who holds still, and the momentum of one contact."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from operator import attrgetter

import numpy as np
from pygame import Vector2

from components import Physics, Side
from systems.physics._bodies.body import Body
from systems.physics._shapes.contact import Contact, Shapes
from systems.physics._shapes.geometry import face_toward, outside
from systems.physics._solver.impulse import FREE, Axes, exchange_momentum
from systems.physics._solver.riders import Ride, Rides

__all__ = ["CollisionFilter", "ONE_WAY_TOLERANCE", "RESOLVE_SLOP", "RESTING_SPEED", "Resolution", "contact_velocities",
           "exchange", "material", "own_velocity", "through_faces"]

_ZERO = Vector2()

#: px. A pair already resolved this step is corrected again only when it
#: overlaps by more than this, and then pushed this much further apart: a
#: chain of bodies sharing pushes would otherwise converge only geometrically,
#: halving the leftover each round. The overshoot is far below the 0.5 px
#: overcorrection Luke Godfrey's *Rectangle Collisions* uses to keep bodies off seams.
RESOLVE_SLOP = 0.01

#: px. A body counts as outside a one-way face at the start of a step while
#: it overlaps it by at most this: a body resting on a one-way platform
#: stays on it after a push-out that left it a hair inside.
ONE_WAY_TOLERANCE = 0.5

#: A collision filter: called with two entity ids, returns False to let the
#: pair pass through each other this step.
CollisionFilter = Callable[[int, int], object]

_BY_TIME = attrgetter("time", "a", "b")

#: ``Resolution.record_swept``'s value columns, and the depth's among them.
SWEPT_COLUMNS = ("normal_x", "normal_y", "depth", "time", "surface", "point_x", "point_y", "trigger")
SWEPT_DEPTH = SWEPT_COLUMNS.index("depth")
# Lookups by pair that scan the swept contacts' arrays (a few a step in the arena: about 5 µs each)
# before a dict of their rows is made (a pile's push-out records thousands).
_SWEPT_SCANS = 16

_ALL_SIDES = Side.ALL

#: px/s. Relative normal speed below which a contact counts as resting (only
#: rounding error is left of an inelastic contact's approach).
RESTING_SPEED = 1e-6


class Resolution:
    """The state of resolving one step's collisions, shared by both pipelines.

    Shock propagation, keyed by direction bits (an axis and a sign; the
    contact normal's dominant axis):

    - ``pinned`` (entity -> bits): directions a body may no longer be
      *pushed* this step, because it was pushed off something that holds
      still that way (a STATIC, or a body itself pinned). A box pushed out of
      the floor is not pushed back into it by the box landing on it, so
      stacks don't sink.
    - ``supported`` ((entity, bit) -> px/s): directions in which a body came
      to *rest* against such a support, with its velocity that way at that
      moment. Along the normal of a later contact it counts as an infinite
      mass on that axis only (a box at rest on the floor stops the box
      landing on it), and only while it is not moving away from the support
      faster than it was then: otherwise it would act as a wall moving at its
      own speed and pump energy into whatever it meets. Friction always sees
      the real masses.
    """

    def __init__(self, rest_speed: float = 0.0, up: Vector2 = _ZERO,
                 filters: Sequence[CollisionFilter] = (), one_way: bool = True, dt: float = 0.0) -> None:
        self.rest_speed = rest_speed
        # s: the step, when push-out is to give friction's part of the move back (push._slow).
        self.dt = dt
        self.up = up
        self.filters = filters
        # Whether any pair may be refused: else ``permits`` is always True.
        self.choosy = bool(filters) or one_way
        self.allowed: dict[tuple[int, int], bool] = {}
        self.rides: Rides = {}
        self.pinned: dict[int, int] = {}
        self.supported: dict[tuple[int, int], float] = {}
        self.crushed: set[int] = set()
        self._resolved: dict[tuple[int, int], Contact] = {}
        # Contacts the compiled sweeps recorded, as arrays until first read (record_swept).
        self._swept: tuple[np.ndarray, np.ndarray] | None = None
        self._scans = 0  # lookups by pair that scanned them this step
        self._rows: dict[tuple[int, int], int] | None = None  # their rows by pair, once scans got many

    def permits(self, a: Body, b: Body, normal: Vector2) -> bool:
        """Whether a and b may collide through a contact along ``normal``
        (a->b): the faces it meets stop bodies, one-way faces only bodies
        that came from outside them (``through_faces``), and the collision
        filters let the pair through (``allows``)."""
        if not self.choosy:
            return True
        if (a.collider.sides is not _ALL_SIDES or b.collider.sides is not _ALL_SIDES) and not through_faces(a, b, normal):
            return False
        return not self.filters or self.allows(a.entity, b.entity)

    def allows(self, a: int, b: int) -> bool:
        """Whether the collision filters let entities a and b collide this
        step: asked once per pair and step, the verdict kept (a filter
        returning False lets the pair pass)."""
        key = (a, b)
        verdict = self.allowed.get(key)
        if verdict is None:
            verdict = all(check(a, b) is not False for check in self.filters)
            self.allowed[key] = verdict
        return verdict

    def holds(self, a: Body, b: Body, normal: Vector2) -> tuple[bool, bool]:
        """Whether a, resp. b, may not be pushed apart along ``normal`` (a->b)."""
        bit_a, bit_b = _direction_bits(normal)
        return (a.static or bool(self.pinned.get(a.entity, 0) & bit_a),
                b.static or bool(self.pinned.get(b.entity, 0) & bit_b))

    def held_axes(self, body: Body, push: Vector2) -> Axes:
        """Per axis (x, y), whether ``body`` counts as an infinite mass when a
        contact pushes it along ``push``: a STATIC always; otherwise where it
        rests against a support that way and is not leaving it."""
        if body.static:
            return (True, True)
        if not self.supported:
            return FREE
        velocity = own_velocity(body)
        held = [False, False]
        for axis in (0, 1):
            if push[axis] != 0.0:
                sign = 1.0 if push[axis] > 0.0 else -1.0
                since = self.supported.get((body.entity, _bit(axis, sign)))
                held[axis] = since is not None and velocity[axis] * sign >= since - RESTING_SPEED
        return (held[0], held[1])

    def settle(self, a: Body, b: Body, normal: Vector2, pinned: tuple[bool, bool], depth: float,
               surface: float = 0.0, time: float = 0.0, shapes: Shapes | None = None) -> None:
        """Exchange momentum along ``normal`` (a->b), record the contact
        (``depth`` px, ``surface`` px, at step fraction ``time``, the two
        ``shapes`` as they touched, by default as the bodies' boxes are now),
        and pin or support whoever was pushed off a held body (``pinned``
        says which of a and b held still for the push)."""
        held_a, held_b = self.held_axes(a, -normal), self.held_axes(b, normal)
        exchange(a, b, normal, held_a, held_b, self.rest_speed, self.up)
        if shapes is None:
            shapes = (a.box, a.shape, b.box, b.shape)
        self.record(a.entity, b.entity, normal, depth, False, shapes, time, surface)
        velocity_a, velocity_b = contact_velocities(a, b, normal, self.up)
        axis = 0 if abs(normal[0]) > abs(normal[1]) else 1
        sign = 1.0 if normal[axis] > 0 else -1.0
        for body, toward, held in ((b, -sign, pinned[0]), (a, sign, pinned[1])):
            if held and not body.static:  # pushed off a body that holds still
                self.pinned[body.entity] = self.pinned.get(body.entity, 0) | _bit(axis, toward)
        if abs((velocity_b - velocity_a).dot(normal)) > RESTING_SPEED:
            return
        self._note_rider(a, b, normal)
        for body, other_held, toward, velocity in ((b, held_a[axis], -sign, velocity_b),
                                                   (a, held_b[axis], sign, velocity_a)):
            if other_held and not body.static:  # came to rest against a support
                self.supported[(body.entity, _bit(axis, toward))] = _support_speed(velocity, normal, axis, toward)

    def _note_rider(self, a: Body, b: Body, normal: Vector2) -> None:
        """Remember a body left resting on top of a STATIC (the normal from
        the platform to it within 60° of up): Movement carries it next step."""
        for platform, rider, up in ((a, b, normal), (b, a, -normal)):
            if (platform.static and not rider.static and not rider.trigger
                    and rider.entity not in self.rides and up.dot(self.up) > 0.5):
                self.rides[rider.entity] = Ride(platform.entity, Vector2(up))

    def record(self, a: int, b: int, normal: Vector2, depth: float, trigger: bool = False,
               shapes: Shapes | None = None, time: float = 0.0, surface: float = 0.0) -> None:
        """Keep one contact per pair and step: the first one's normal, shapes
        (its point is worked out from them when read), time and surface,
        adding up the depth resolved."""
        contact = self._resolved.get((a, b))
        if contact is not None:
            contact.depth += depth
            return
        row = self._swept_row(a, b)
        if row < 0:
            self._resolved[(a, b)] = Contact(a, b, Vector2(normal), depth, trigger, None, time, surface, shapes)
        else:
            assert self._swept is not None
            self._swept[1][row, SWEPT_DEPTH] += depth

    def record_swept(self, pairs: np.ndarray, values: np.ndarray) -> None:
        """Keep the contacts the compiled sweeps recorded, as assigning each
        in turn to ``resolved`` would: ``pairs`` (m, 2) their entity ids,
        ``values`` (m, 8) float columns (``SWEPT_COLUMNS``: normal x and y,
        depth px, time, surface px, point x and y px, 1.0 for a TRIGGER's
        contact), both kept, not copied
        (``record`` adds to the depths: hand over arrays of your own).

        Their ``Contact`` objects are made when the contacts are first read
        (``resolved``, ``contacts``): a fast scene records thousands a step
        (about 0.7 µs each as objects), and a game that reads none of them,
        or only some steps, doesn't pay for them. ``record`` still finds
        them by pair, and adds its depth to theirs.
        """
        self._take_swept()
        if self._resolved:  # after other contacts (never, in the pipeline): made and assigned now
            self._resolved.update(_swept_contacts(pairs, values))
            return
        self._swept, self._rows = (pairs, values), None

    @property
    def resolved(self) -> dict[tuple[int, int], Contact]:
        """Every contact of the step so far, by pair (entity ids), in the
        order first recorded."""
        self._take_swept()
        return self._resolved

    def contacts(self) -> list[Contact]:
        """The step's contacts, ordered by time, then entity ids."""
        return sorted(self.resolved.values(), key=_BY_TIME)

    def _swept_row(self, a: int, b: int) -> int:
        """The row of pair (a, b) among the swept contacts kept as arrays,
        or -1; of a pair listed twice, the last (assigning them in turn
        would keep that one). Scans the arrays for the first few lookups of
        a step, then looks them up by pair in a dict made once."""
        if self._swept is None:
            return -1
        pairs = self._swept[0]
        if self._rows is None and self._scans < _SWEPT_SCANS:
            self._scans += 1
            rows = np.flatnonzero((pairs[:, 0] == a) & (pairs[:, 1] == b))
            return int(rows[-1]) if len(rows) else -1
        if self._rows is None:
            self._rows = {key: row for row, key in enumerate(zip(*pairs.T.tolist()))}
        return self._rows.get((a, b), -1)

    def _take_swept(self) -> None:
        """Make the swept contacts' objects and put them in ``resolved``
        before the contacts recorded after them (none of the same pair:
        ``record`` added those to the arrays)."""
        if self._swept is None:
            return
        later, self._resolved = self._resolved, dict(_swept_contacts(*self._swept))
        self._resolved.update(later)
        self._swept = self._rows = None


def _swept_contacts(pairs: np.ndarray, values: np.ndarray) -> Iterator[tuple[tuple[int, int], Contact]]:
    """``Resolution.record_swept``'s contacts as (pair, Contact), in order."""
    columns = [values[:, column].tolist() for column in range(values.shape[1])]
    for first, second, nx, ny, depth, time, surface, px, py, trigger in zip(*pairs.T.tolist(), *columns):
        yield (first, second), Contact(first, second, Vector2(nx, ny), depth, trigger != 0.0, Vector2(px, py), time,
                                       surface)


def through_faces(a: Body, b: Body, normal: Vector2) -> bool:
    """Whether a contact along ``normal`` (a->b) meets faces that stop
    bodies: each side's face toward the other must be in its collider's
    ``sides``, and a one-way face (``sides`` not ALL) stops only a body that
    lay entirely outside it when the step began."""
    for body, toward, other in ((a, normal, b), (b, -normal, a)):
        sides = body.collider.sides
        if sides is Side.ALL:
            continue
        face = face_toward((toward.x, toward.y))
        if not face & sides or not outside(other.before, body.before, face, ONE_WAY_TOLERANCE):
            return False
    return True


def _bit(axis: int, sign: float) -> int:
    """The direction bit of ``axis`` (0 x, 1 y) toward ``sign`` (+1 or -1)."""
    return 1 << (axis * 2 + (1 if sign > 0 else 0))


def _direction_bits(normal: Vector2) -> tuple[int, int]:
    """Bits for pushing a against ``normal`` and b along it (the dominant
    axis; y at 45°, so a body on a 45° ramp is held up, not sideways)."""
    axis = 0 if abs(normal[0]) > abs(normal[1]) else 1
    sign = 1.0 if normal[axis] > 0 else -1.0
    return _bit(axis, -sign), _bit(axis, sign)


def _support_speed(velocity: Vector2, normal: Vector2, axis: int, toward: float) -> float:
    """The speed (px/s) along ``axis`` toward the support (``toward`` +1 or
    -1) that a body at rest against it along ``normal`` has by its motion
    along the normal only: ``velocity`` along the normal, over the normal's
    part along the axis. For a face across the axis that is the body's own
    speed along it; on a slope, a body sliding along the surface moves along
    the axis too, and would otherwise count as held while it slides away
    from the support (a wall moving at its own speed: it pumps energy into
    whatever strikes it)."""
    return velocity.dot(normal) / normal[axis] * toward


def own_velocity(body: Body) -> Vector2:
    """The body's velocity in the world frame (px/s): a rider's own velocity
    is relative to its platform along the contact normal."""
    if body.physics is None:
        return _ZERO
    if body.frame:  # not the zero vector
        return body.physics.velocity + body.frame
    return body.physics.velocity


def contact_velocities(a: Body, b: Body, normal: Vector2, up: Vector2) -> tuple[Vector2, Vector2]:
    """Velocities (px/s) of a and b as their contact along ``normal`` (a->b)
    sees them. A STATIC under the other body (the normal from it within 60°
    of ``up``) counts only with its velocity along the normal: a platform
    carries what stands on it by position (see ``systems.physics._solver.riders``), so
    friction must not drag the rider along as well."""
    velocity_a, velocity_b = own_velocity(a), own_velocity(b)
    if a.static and normal.dot(up) > 0.5:
        velocity_a = normal * velocity_a.dot(normal)
    elif b.static and normal.dot(up) < -0.5:
        velocity_b = normal * velocity_b.dot(normal)
    return velocity_a, velocity_b


def exchange(a: Body, b: Body, normal: Vector2, held_a: Axes = FREE, held_b: Axes = FREE,
             rest_speed: float = 0.0, up: Vector2 = _ZERO) -> None:
    """Apply one contact's momentum exchange and friction to the velocities.

    A body without Physics brings no material: the pair takes the other's
    elasticity and friction (when both have Physics, the larger elasticity
    and the smaller friction, as in the fizz tutorial), and it has no
    velocity of its own to change. ``held_a``/``held_b`` are the axes on
    which a support holds the body (see ``exchange_momentum``). A pair
    approaching at ``rest_speed`` px/s or slower is a resting contact and
    does not bounce (Box2D's restitution threshold): otherwise a stack of
    bouncy boxes trades ever smaller bounces each step instead of resting.
    ``up`` (a unit vector against gravity, or zero) tells which STATICs are
    platforms (see ``contact_velocities``).
    """
    if a.physics is None and b.physics is None:
        return
    velocity_a, velocity_b = contact_velocities(a, b, normal, up)
    elasticity, friction = material(a.physics, b.physics)
    if (velocity_a - velocity_b).dot(normal) <= rest_speed:
        elasticity = 0.0
    change_a, change_b = exchange_momentum(velocity_a, velocity_b, a.inverse_mass, b.inverse_mass,
                                           normal, elasticity, friction, held_a, held_b)
    if a.physics and a.inverse_mass:
        a.physics.velocity.update(a.physics.velocity + change_a)
    if b.physics and b.inverse_mass:
        b.physics.velocity.update(b.physics.velocity + change_b)


def material(a: Physics | None, b: Physics | None) -> tuple[float, float]:
    """Elasticity and friction of a pair: the larger elasticity and the
    smaller friction of the two; a side without Physics brings no material,
    so the other's values stand (a crate keeps its friction on a bare floor)."""
    if a is None or b is None:
        only = a or b
        return (only.elasticity, only.friction) if only else (0.0, 0.0)
    return max(a.elasticity, b.elasticity), min(a.friction, b.friction)
