"""What a system needs of the World it is given: the few members the built-in systems call.

``ecs.World`` has them all (and much more); a system is typed against this Protocol, so the
systems never import ``ecs``, which builds them: the package's layers depend one way.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol, TypeVar

from pygame import Vector2

from systems.physics._shapes.contact import Contact

__all__ = ["WorldLike"]

C = TypeVar("C")


class WorldLike(Protocol):
    """The members of ``ecs.World`` that the built-in systems use."""

    resources: dict[type, Any]

    @property
    def contacts(self) -> Sequence[Contact]:
        """This step's contacts (between steps, the last step's)."""
        ...

    def check_vectors(self) -> None:
        """Raise ``ValueError`` naming the entity and the field if a vector of the components
        is bad (``World.step``'s check before the physics reads them)."""
        ...

    def get_component(self, component_type: type[C]) -> list[tuple[int, C]]:
        """Every (entity, component) pair of that type."""
        ...

    def get_components(self, *component_types: type) -> list[tuple[int, tuple[Any, ...]]]:
        """Every (entity, (components...)) holding all those types."""
        ...

    def try_component(self, entity: int, component_type: type[C]) -> C | None:
        """An entity's component of that type, or None."""
        ...

    def remove_component(self, entity: int, component_type: type[C]) -> C:
        """Take an entity's component of that type off it, and return it."""
        ...

    def component_for_entity(self, entity: int, component_type: type[C]) -> C:
        """An entity's component of that type (KeyError if missing)."""
        ...

    def entity_exists(self, entity: int) -> bool:
        """Whether the entity exists and is not waiting to be deleted."""
        ...

    def resource(self, resource_type: type[C]) -> C:
        """The resource of that type (KeyError if none was inserted)."""
        ...

    def query_box(self, position: Vector2, size: Vector2, mask: int = ..., triggers: bool = ...) -> list[int]:
        """The entities whose collider overlaps the box at ``position`` (top-left, px) of ``size``."""
        ...

    def timed(self, stage: str) -> AbstractContextManager[None]:
        """Add the time (ms) spent in the ``with`` block to the World's timings under ``stage``."""
        ...
