"""What the physics keeps from one step to the next, in one place.

A ``Memory`` is made once per World and handed to the two systems that use it:
Movement reads ``gravity`` and carries the ``rides``; Response reads all of it at the
start of a step and writes it back at the end. Nothing else lives across steps in the
stages: each step's own data is a fresh ``StepContext`` (``systems.physics._stages.context``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

import numpy as np
from pygame import Vector2

from components import limits
from components._checks import VectorLike, vector_within

from systems.physics._shapes.contact import Contact
from systems.physics._solver.resolution import Resolution, swept_arrays
from systems.physics._solver.riders import Rides

__all__ = ["Grounded", "Memory", "Squeezes", "checked_gravity"]

#: The one check of a gravity (px/s²), wherever it is set: each component within ±``limits.MAX_ACCELERATION``.
_within_limits = vector_within(limits.MAX_ACCELERATION, " px/s²")


def checked_gravity(value: VectorLike) -> Vector2:
    """``value`` as a gravity (px/s², a new Vector2), or ValueError naming ``gravity``."""
    gravity: Vector2 = _within_limits("gravity", value)
    return gravity


class Grounded(Mapping[int, Vector2]):
    """Entities with ground below them after a step, each with the unit normal of that ground
    (from it to the entity), in the order they first stood: ``entities`` ((n,) int64) and
    ``normals`` ((n, 2)). A platformer grounds nearly every body, so the stages read the
    arrays; as a mapping (entity -> Vector2) it is made when first read."""

    __slots__ = ("entities", "normals", "_made")

    def __init__(self, entities: np.ndarray | None = None, normals: np.ndarray | None = None) -> None:
        self.entities = np.zeros(0, np.int64) if entities is None else entities
        self.normals = np.zeros((0, 2)) if normals is None else normals
        self._made: dict[int, Vector2] | None = None

    def _mapping(self) -> dict[int, Vector2]:
        if self._made is None:
            self._made = {entity: Vector2(x, y) for entity, (x, y) in zip(self.entities.tolist(),
                                                                         self.normals.tolist())}
        return self._made

    def __getitem__(self, entity: int) -> Vector2:
        return self._mapping()[entity]

    def __iter__(self) -> Iterator[int]:
        return iter(self._mapping())

    def __len__(self) -> int:
        return len(self.entities)

    def __getstate__(self) -> tuple[np.ndarray, np.ndarray]:
        return self.entities, self.normals

    def __setstate__(self, state: tuple[np.ndarray, np.ndarray]) -> None:
        self.entities, self.normals = state
        self._made = None


#: A crushed body's pairs with what squeezes it (a < b), each with its unit normal (a->b).
Squeezes = dict[tuple[int, int], Vector2]


@dataclass(slots=True)
class Memory:
    """The cross-step physics state of one World.

    ``gravity`` (px/s²): the World's, applied by Movement and read by Response (the one
    copy; ``World.gravity`` sets it). ``rides``: the bodies left standing on a STATIC
    platform (or on a body on one) at the end of the last step (``systems.physics._solver.riders``), carried by
    Movement in the next. ``grounded``: the entities with ground below them last step, with
    its unit normal (``Grounded``). ``crushed``: last step's crushed entities, in order. ``squeezes``: last
    step's crushed bodies' pairs with what squeezed them (push-out and crushing read them
    the next step). ``warned_overlap`` / ``warned_crush``: whether push-out's two
    once-per-World log lines were written.
    """

    gravity: Vector2 = field(default_factory=Vector2)
    rides: Rides = field(default_factory=Rides)
    grounded: Grounded = field(default_factory=Grounded)
    crushed: list[int] = field(default_factory=list)
    squeezes: Squeezes = field(default_factory=dict)
    warned_overlap: bool = False
    warned_crush: bool = False
    #: The last step's resolution (None once its contacts were replaced: ``replace_contacts``).
    resolution: Resolution | None = None
    #: The last step's contacts, once made (None until first read).
    made: list[Contact] | None = field(default_factory=list)

    def contacts(self) -> list[Contact]:
        """The last step's contacts, ordered by time, then entity ids; made
        when first read (a step whose contacts nobody reads makes no
        ``Contact`` objects), then the same list."""
        if self.made is None:
            assert self.resolution is not None
            self.made = self.resolution.contacts()
        return self.made

    def contact_arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The last step's contacts as the core records them (``Resolution.arrays``: entity
        pairs and values) and their time order (``Resolution.time_order``), whichever way
        they are kept: from the resolution, or from the contacts a snapshot restored
        (``replace_contacts``; in time order already). The same contacts give the same
        arrays and order either way."""
        if self.resolution is not None:
            pairs, values = self.resolution.arrays()
            return pairs, values, self.resolution.time_order()
        made = self.made or []
        return *swept_arrays(made), np.arange(len(made), dtype=np.int64)

    def keep(self, state: Resolution) -> None:
        """Keep this step's resolution, to make its contacts from when read."""
        self.resolution, self.made = state, None

    def replace_contacts(self, contacts: list[Contact]) -> None:
        """Set the last step's contacts to ``contacts``."""
        self.resolution, self.made = None, contacts
