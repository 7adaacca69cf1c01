"""ecs: the World that ties esper, the components and the systems together."""

from ecs.world import (
    COLLISION_PRIORITY,
    MOVEMENT_PRIORITY,
    RESPONSE_PRIORITY,
    System,
    World,
)
from systems.contact import Contact

__all__ = [
    "COLLISION_PRIORITY",
    "Contact",
    "MOVEMENT_PRIORITY",
    "RESPONSE_PRIORITY",
    "System",
    "World",
]
