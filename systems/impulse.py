"""Momentum exchange and Coulomb friction at one contact: pure functions."""

from __future__ import annotations

from pygame import Vector2

__all__ = ["exchange_momentum"]


# Impulse form of the momentum exchange in Luke Godfrey, *Rectangle Collisions*, with Coulomb's law for
# friction (the fizz (2D physics library) collision tutorial names it as the missing piece).
def exchange_momentum(
    velocity_a: Vector2,
    velocity_b: Vector2,
    inverse_mass_a: float,
    inverse_mass_b: float,
    normal: Vector2,
    elasticity: float,
    friction: float,
) -> tuple[Vector2, Vector2]:
    """Velocity changes (px/s) of a and b from a contact with unit ``normal`` a->b.

    Along the normal this gives vA' = (e·mB·(vB − vA) + mA·vA + mB·vB) / (mA + mB)
    and symmetrically for b; an inverse mass of 0 is an infinite mass (a
    STATIC body), giving vA' = vB − e·(vA − vB). Bodies moving apart, or two
    infinite masses, exchange nothing. Friction acts along the tangent: its
    velocity change is at most ``friction`` times the normal one, and it never
    does more than stop the sliding.
    """
    relative = velocity_a - velocity_b
    approach = relative.dot(normal)
    total = inverse_mass_a + inverse_mass_b
    if approach <= 0.0 or total == 0.0:
        return Vector2(), Vector2()
    normal_impulse = (1.0 + elasticity) * approach / total
    impulse = normal * normal_impulse
    sliding = relative - normal * approach
    sliding_speed = sliding.length()
    if friction > 0.0 and sliding_speed > 0.0:
        tangent_impulse = min(friction * normal_impulse, sliding_speed / total)
        impulse += sliding * (tangent_impulse / sliding_speed)
    return impulse * -inverse_mass_a, impulse * inverse_mass_b
