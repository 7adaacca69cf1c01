"""The ground stage: which bodies stand on ground, and keeping walkers on it.

``snap_to_ground`` moves a body with ``Physics.ground_snap`` that had ground below it last
step and has none now back down onto it (a walker crossing a ramp's crest stays on the
flat beyond); ``grounded_bodies`` finds the ground below each body in a step's contacts.
"""

from __future__ import annotations

import math

from pygame import Vector2

from systems.physics._bodies.body import Body
from systems.physics._shapes.contact import Contact
from systems.physics._shapes.geometry import union_box
from systems.physics._shapes.impact import Hit
from systems.physics._shapes.narrowphase import sweep
from systems.physics._stages.found import Found
from systems.physics._stages.context import StepContext
from systems.physics._solver.resolution import Resolution

__all__ = ["DIAGONAL", "grounded_bodies", "snap_to_ground"]

#: cos 45°, within rounding: a contact normal at most 45° from a direction.
DIAGONAL = math.sqrt(0.5) - 1e-9


def grounded_bodies(contacts: list[Contact], up: Vector2) -> dict[int, Vector2]:
    """Entities with ground below them in ``contacts`` (a contact normal at
    most 45° from ``up``; TRIGGER contacts don't count), each with the unit
    normal of that ground, from it to the entity (the most upright one)."""
    grounded: dict[int, Vector2] = {}
    if not up:
        return grounded
    for contact in contacts:
        if contact.trigger:
            continue
        for entity, normal in ((contact.b, contact.normal), (contact.a, -contact.normal)):
            if normal.dot(up) >= DIAGONAL and (entity not in grounded or normal.dot(up) > grounded[entity].dot(up)):
                grounded[entity] = normal
    return grounded


def snap_to_ground(step: StepContext, grounded: dict[int, Vector2]) -> None:
    """Move down onto the ground each body with ``Physics.ground_snap`` that
    had ground below it last step (``grounded``: its normal), has none this
    step and is not leaving it faster than the rest speed, both upward and
    along that normal (a jump; walking up to a ramp's crest rises along the
    slope, walking down one moves off the slope's normal without rising:
    neither is leaving): by up to ``ground_snap``
    px straight down, onto the first STATIC or SOLID below (never a TRIGGER,
    never a one-way platform from below). That is a landing: the contact is
    settled, and velocity away from the new ground is dropped, so a walker
    crossing a ramp's crest stays on the flat beyond it. Nothing without gravity."""
    state, collision, up = step.state, step.collision, step.up
    if not up:
        return
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


def _first_below(state: Resolution, collision: Found, body: Body, drop: Vector2) -> tuple[Body, Hit] | None:
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
