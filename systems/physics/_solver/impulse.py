"""Momentum exchange and Coulomb friction at one contact: pure functions."""

from __future__ import annotations

import math
from collections.abc import Sequence

from pygame import Vector2

__all__ = ["exchange_momentum", "pool_adjacent"]

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


# Pool adjacent violators: the weighted isotonic regression of Ayer, Brunk,
# Ewing, Reid and Silverman, *An Empirical Distribution Function for
# Sampling with Incomplete Information* (1955). For a row of bodies it is the
# perfectly inelastic collision: the limit of pairwise e = 0 impulses.
def pool_adjacent(masses: Sequence[float], speeds: Sequence[float],
                  low: float | None = None, high: float | None = None) -> list[float]:
    """Speeds (px/s along the row) after a perfectly inelastic collision of
    a row of touching bodies, given in order along it (masses > 0).

    The result never decreases along the row (no body closes on the next),
    keeps the row's momentum, and is the closest such set of speeds in the
    mass-weighted least-squares sense: neighbours closing on each other are
    pooled into blocks, each moving at its mean speed; a body moving away
    from the ones behind it keeps its speed. ``low`` and ``high`` are the
    speeds of things that hold still behind and ahead of the row (a wall:
    an infinite mass): a block closing on one moves on at its speed, and
    the row's momentum is then not kept (the wall takes its share).
    """
    ends = ([(math.inf, low)] if low is not None else []) + list(zip(masses, speeds))
    ends += [(math.inf, high)] if high is not None else []
    blocks: list[tuple[float, float, int, float | None]] = []  # mass, momentum, bodies, speed if held
    for mass, speed in ends:
        block: tuple[float, float, int, float | None] = (
            (mass, 0.0, 1, speed) if math.isinf(mass) else (mass, mass * speed, 1, None))
        while blocks and _mean(blocks[-1]) > _mean(block):
            last = blocks.pop()
            held = last[3] if last[3] is not None else block[3]
            block = (last[0] + block[0], last[1] + block[1], last[2] + block[2], held)
        blocks.append(block)
    pooled = [_mean(block) for block in blocks for _ in range(block[2])]
    return pooled[(1 if low is not None else 0):len(pooled) - (1 if high is not None else 0)]


def _mean(block: tuple[float, float, int, float | None]) -> float:
    """A pooled block's speed: a held block's own, else momentum / mass."""
    return block[3] if block[3] is not None else block[1] / block[0]
