"""Resolution: who moves, who holds still, and the momentum of one contact."""

from __future__ import annotations

from pygame import Vector2

from components import Physics
from systems.collision import Body
from systems.contact import Contact
from systems.impulse import exchange_momentum
from systems.riders import Ride, Rides

__all__ = ["Resolution", "push_share", "contact_velocities", "exchange", "material", "settle_kinematic"]

_ZERO = Vector2()

#: px/s. Relative normal speed below which a contact counts as resting (only
#: rounding error is left of an inelastic contact's approach).
RESTING_SPEED = 1e-6


class Resolution:
    """The state of resolving one step's collisions, shared by both pipelines.

    Shock propagation, in two tables of direction bits per entity (the
    normal's dominant axis and sign):

    - ``pinned``: directions a body may no longer be *pushed* this step,
      because it was pushed off something that holds still that way (a
      STATIC, or a body itself pinned). A box pushed out of the floor is not
      pushed back into it by the box landing on it, so stacks don't sink.
    - ``supported``: directions in which a body acts as an infinite mass for
      momentum, because it was left *resting* on such a support. A box at
      rest on the floor stops the box landing on it; a box that bounced off
      the floor does not, or a wall moving at its rebound speed would pump
      energy into whatever it meets.
    """

    def __init__(self, rest_speed: float = 0.0, up: Vector2 = _ZERO) -> None:
        self.rest_speed = rest_speed
        self.up = up
        self.rides: Rides = {}
        self.pinned: dict[int, int] = {}
        self.supported: dict[int, int] = {}
        self.resolved: dict[tuple[int, int], Contact] = {}

    def holds(self, a: Body, b: Body, normal: Vector2, table: dict[int, int] | None = None) -> tuple[bool, bool]:
        """Whether a, resp. b, holds still when pushed apart along ``normal``
        (a->b), by ``table`` (``pinned`` unless given)."""
        bit_a, bit_b = _direction_bits(normal)
        table = self.pinned if table is None else table
        return (a.static or bool(table.get(a.entity, 0) & bit_a),
                b.static or bool(table.get(b.entity, 0) & bit_b))

    def settle(self, a: Body, b: Body, normal: Vector2, pinned: tuple[bool, bool],
               supported: tuple[bool, bool], depth: float) -> None:
        """Exchange momentum along ``normal`` (a->b), record the contact with
        ``depth`` px, and pin or support whoever was pushed off a held body."""
        exchange(a, b, normal, 0.0 if supported[0] else a.inverse_mass,
                 0.0 if supported[1] else b.inverse_mass, self.rest_speed, self.up)
        self.record(a.entity, b.entity, normal, depth)
        velocity_a, velocity_b = contact_velocities(a, b, normal, self.up)
        resting = abs((velocity_b - velocity_a).dot(normal)) <= RESTING_SPEED
        if resting:
            self._note_rider(a, b, normal)
        bit_a, bit_b = _direction_bits(normal)
        for table, held in ((self.pinned, pinned), (self.supported, supported)):
            if table is self.supported and not resting:
                break
            if held[0] and not b.static:
                table[b.entity] = table.get(b.entity, 0) | bit_a
            if held[1] and not a.static:
                table[a.entity] = table.get(a.entity, 0) | bit_b

    def _note_rider(self, a: Body, b: Body, normal: Vector2) -> None:
        """Remember a body left resting on top of a STATIC (the normal from
        the platform to it within 60° of up): Movement carries it next step."""
        for platform, rider, up in ((a, b, normal), (b, a, -normal)):
            if (platform.static and not rider.static and not rider.trigger
                    and rider.entity not in self.rides and up.dot(self.up) > 0.5):
                self.rides[rider.entity] = Ride(platform.entity, Vector2(up))

    def push_apart(self, a: Body, b: Body, normal: Vector2, depth: float) -> list[Body]:
        """Move a and b ``depth`` px apart along ``normal`` (a->b), then settle
        the contact; return the bodies that moved."""
        pinned = self.holds(a, b, normal)
        share_a = push_share(a, b, *pinned)
        moved = []
        if share_a > 0.0:
            a.transform.position.update(a.transform.position - normal * (depth * share_a))
            a.sync()
            moved.append(a)
        if share_a < 1.0:
            b.transform.position.update(b.transform.position + normal * (depth * (1.0 - share_a)))
            b.sync()
            moved.append(b)
        self.settle(a, b, normal, pinned, self.holds(a, b, normal, self.supported), depth)
        return moved

    def record(self, a: int, b: int, normal: Vector2, depth: float, trigger: bool = False) -> None:
        """Keep one contact per pair and step, adding up the depth resolved."""
        contact = self.resolved.get((a, b))
        if contact is None:
            self.resolved[(a, b)] = Contact(a, b, Vector2(normal), depth, trigger)
        else:
            contact.depth += depth

    def contacts(self) -> list[Contact]:
        """The step's contacts, ordered by entity ids."""
        return [self.resolved[key] for key in sorted(self.resolved)]


def _direction_bits(normal: Vector2) -> tuple[int, int]:
    """Bits for pushing a against ``normal`` and b along it (dominant axis)."""
    axis = 0 if abs(normal.x) >= abs(normal.y) else 1
    along = 1 << (axis * 2 + 1) if normal[axis] > 0 else 1 << (axis * 2)
    against = 1 << (axis * 2) if normal[axis] > 0 else 1 << (axis * 2 + 1)
    return against, along


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


def _own_velocity(body: Body) -> Vector2:
    """The body's velocity in the world frame (px/s): a rider's own velocity
    is relative to its platform along the contact normal."""
    if body.physics is None:
        return _ZERO
    if body.frame.x or body.frame.y:
        return body.physics.velocity + body.frame
    return body.physics.velocity


def contact_velocities(a: Body, b: Body, normal: Vector2, up: Vector2) -> tuple[Vector2, Vector2]:
    """Velocities (px/s) of a and b as their contact along ``normal`` (a->b)
    sees them. A STATIC under the other body (the normal from it within 60°
    of ``up``) counts only with its velocity along the normal: a platform
    carries what stands on it by position (see ``systems.riders``), so
    friction must not drag the rider along as well."""
    velocity_a, velocity_b = _own_velocity(a), _own_velocity(b)
    if a.static and normal.dot(up) > 0.5:
        velocity_a = normal * velocity_a.dot(normal)
    elif b.static and normal.dot(up) < -0.5:
        velocity_b = normal * velocity_b.dot(normal)
    return velocity_a, velocity_b


def exchange(a: Body, b: Body, normal: Vector2, inverse_a: float, inverse_b: float,
             rest_speed: float = 0.0, up: Vector2 = _ZERO) -> None:
    """Apply one contact's momentum exchange and friction to the velocities.

    A body without Physics brings no material: the pair takes the other's
    elasticity and friction (when both have Physics, the larger elasticity
    and the smaller friction, as in the fizz tutorial), and it has no
    velocity of its own to change. A pair approaching at ``rest_speed`` px/s
    or slower is a resting contact and does not bounce (Box2D's restitution
    threshold): otherwise a stack of bouncy boxes trades ever smaller bounces
    each step instead of resting. ``up`` (a unit vector against gravity, or
    zero) tells which STATICs are platforms (see ``contact_velocities``).
    """
    if a.physics is None and b.physics is None:
        return
    velocity_a, velocity_b = contact_velocities(a, b, normal, up)
    elasticity, friction = material(a.physics, b.physics)
    if (velocity_a - velocity_b).dot(normal) <= rest_speed:
        elasticity = 0.0
    change_a, change_b = exchange_momentum(
        velocity_a, velocity_b, inverse_a, inverse_b, normal, elasticity, friction
    )
    if a.physics and inverse_a:
        a.physics.velocity.update(a.physics.velocity + change_a)
    if b.physics and inverse_b:
        b.physics.velocity.update(b.physics.velocity + change_b)


def material(a: Physics | None, b: Physics | None) -> tuple[float, float]:
    """Elasticity and friction of a pair: the larger elasticity and the
    smaller friction of the two; a side without Physics brings no material,
    so the other's values stand (a crate keeps its friction on a bare floor)."""
    if a is None or b is None:
        only = a or b
        return (only.elasticity, only.friction) if only else (0.0, 0.0)
    return max(a.elasticity, b.elasticity), min(a.friction, b.friction)


def settle_kinematic(bodies: dict[int, Body]) -> None:
    """Make the final position of each collider without Physics its start for
    the next step, so a move made by user code between steps is seen."""
    for body in bodies.values():
        if body.physics is None:
            body.transform.previous_position.update(body.transform.position)
