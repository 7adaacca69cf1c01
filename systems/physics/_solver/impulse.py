"""Momentum exchange and Coulomb friction at one contact: pure functions."""

from __future__ import annotations


from pygame import Vector2

__all__ = ["exchange_momentum"]

Axes = tuple[bool, bool]
FREE: Axes = (False, False)


# Impulse form of the momentum exchange in Luke Godfrey, *Rectangle
# Collisions*, with Coulomb's law for friction (the fizz (2D physics library)
# collision tutorial names it as the missing piece).
def exchange_momentum(
    velocity_a: Vector2,
    velocity_b: Vector2,
    inverse_mass_a: float,
    inverse_mass_b: float,
    normal: Vector2,
    elasticity: float,
    friction: float,
    held_a: Axes = FREE,
    held_b: Axes = FREE,
) -> tuple[Vector2, Vector2]:
    """Velocity changes (px/s) of a and b from a contact with unit ``normal`` a->b.

    Along the normal this gives vA' = (e·mB·(vB − vA) + mA·vA + mB·vB) / (mA + mB)
    and symmetrically for b; an inverse mass of 0 is an infinite mass (a
    STATIC body), giving vA' = vB − e·(vA − vB). ``held_a`` and ``held_b``
    say, per axis (x, y), whether something behind the body holds it where
    this contact pushes it (a box pressed against a wall): along the normal
    it then counts as infinite mass on that axis only, so the support takes
    that part of the impulse. Bodies moving apart, or two infinite masses,
    exchange nothing. Friction acts along the tangent with the bodies' real
    masses (a support behind a body doesn't hold it sideways): its impulse
    is at most ``friction`` times the normal one, and it never does more than
    stop the sliding left after the normal impulse.
    """
    relative = velocity_a - velocity_b
    approach = relative.dot(normal)
    weights_a = _axis_weights(inverse_mass_a, held_a)
    weights_b = _axis_weights(inverse_mass_b, held_b)
    nx, ny = normal[0], normal[1]
    stiffness = (weights_a[0] + weights_b[0]) * nx * nx + (weights_a[1] + weights_b[1]) * ny * ny
    if approach <= 0.0 or stiffness == 0.0:
        return Vector2(), Vector2()
    normal_impulse = (1.0 + elasticity) * approach / stiffness
    change_a = Vector2(-weights_a[0] * nx, -weights_a[1] * ny) * normal_impulse
    change_b = Vector2(weights_b[0] * nx, weights_b[1] * ny) * normal_impulse
    sliding = relative - normal * approach
    if nx and ny and (weights_a[0] != weights_a[1] or weights_b[0] != weights_b[1]):
        # Held on one axis only, a body takes the normal impulse off the
        # normal, which changes the sliding too: friction must oppose the
        # sliding the impulse leaves, or it can push the way things slide
        # and add energy (a ball landing on one resting on the floor).
        after = relative + change_a - change_b
        sliding = after - normal * after.dot(normal)
    sliding_speed = sliding.length()
    total = inverse_mass_a + inverse_mass_b
    if friction > 0.0 and sliding_speed > 0.0 and total > 0.0:
        tangent_impulse = min(friction * normal_impulse, sliding_speed / total)
        direction = sliding / sliding_speed
        change_a -= direction * (tangent_impulse * inverse_mass_a)
        change_b += direction * (tangent_impulse * inverse_mass_b)
    return change_a, change_b


def _axis_weights(inverse_mass: float, held: Axes) -> tuple[float, float]:
    """Inverse mass along x and y: 0 on a held axis."""
    return (0.0 if held[0] else inverse_mass, 0.0 if held[1] else inverse_mass)
