"""Layers and faces: which colliders meet, and through which sides.

Box2D's category/mask rule: ``category`` is the set of layers a collider is
on and ``mask`` the set it interacts with, both 32-bit ints; a pair meets
only when each one's category is in the other's mask. ``Side`` names the
faces of a collider that stop other bodies (one-way platforms).
"""

from __future__ import annotations

from enum import Flag

__all__ = ["ALL", "Side", "interacts"]

#: Every layer: the default mask (a collider meets everything).
ALL = (1 << 32) - 1


class Side(Flag):
    """Faces of a collider, in screen directions (y grows downward).

    ``Collider(sides=Side.TOP)`` is a one-way platform: only its top face
    stops other bodies, and only bodies coming from above it.
    """

    TOP = 1
    BOTTOM = 2
    LEFT = 4
    RIGHT = 8
    ALL = 15


# Box2D's collision filtering: category against mask, both ways.
def interacts(category_a: int, mask_a: int, category_b: int, mask_b: int) -> bool:
    """Whether colliders with these categories and masks meet."""
    return bool(category_a & mask_b) and bool(category_b & mask_a)
