"""A body's kind bits: which of the core's features a set of bodies uses, read from their
components a field at a time, so a step can tell at once whether a fast path covers it."""

from __future__ import annotations

from components import ALL, Collider, ColliderType, Physics, Shape, Side

__all__ = ["INELASTIC", "LAYERED", "MOVING_STATIC", "ONE_WAY", "SHAPED", "TRIGGER", "kinds_of"]

#: A body's kind bits (``kinds_of``): it is a TRIGGER, is on or meets layers
#: other than the defaults (category 1, mask ALL), has one-way faces, is a
#: STATIC with Physics (a moving platform), is not a box (a circle or a
#: triangle), or has Physics that doesn't bounce (elasticity 0).
TRIGGER, LAYERED, ONE_WAY, MOVING_STATIC, SHAPED, INELASTIC = 1, 2, 4, 8, 16, 32


_STATIC, _TRIGGER, _ALL_SIDES, _BOX = ColliderType.STATIC, ColliderType.TRIGGER, Side.ALL, Shape.BOX


def kinds_of(types: list[ColliderType], colliders: list[Collider], physics: list[Physics | None]) -> int:
    """The kind bits (``TRIGGER`` … ``INELASTIC``) of these bodies together,
    a field of all of them at a time (``types``: their colliders' types)."""
    n = len(types)
    kinds = TRIGGER if _TRIGGER in types else 0
    # list.count compares in C: the usual case, every body alike, is a few list passes.
    if [c.mask for c in colliders].count(ALL) != n or [c.category for c in colliders].count(1) != n:
        kinds |= LAYERED
    if [c.sides for c in colliders].count(_ALL_SIDES) != n:
        kinds |= ONE_WAY
    if [c.shape for c in colliders].count(_BOX) != n:
        kinds |= SHAPED
    if _STATIC in types and any(kind is _STATIC and p is not None for kind, p in zip(types, physics)):
        kinds |= MOVING_STATIC
    elasticities = [p.elasticity for p in physics if p is not None]
    if elasticities and min(elasticities) <= 0.0:
        kinds |= INELASTIC
    return kinds
