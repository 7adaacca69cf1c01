"""What the physics keeps from one step to the next, in one place.

A ``Memory`` is made once per World and handed to the two systems that use it:
Movement reads ``gravity`` and carries the ``rides``; Response reads all of it at the
start of a step and writes it back at the end. Nothing else lives across steps in the
stages: each step's own data is a fresh ``StepContext`` (``systems.physics._stages.context``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pygame import Vector2

from components import limits
from components._checks import VectorLike, vector_within

from systems.physics._shapes.contact import Contact
from systems.physics._solver.resolution import Resolution
from systems.physics._solver.riders import Rides

__all__ = ["Memory", "Squeezes", "checked_gravity"]

#: The one check of a gravity (px/s²), wherever it is set: each component within ±``limits.MAX_ACCELERATION``.
_within_limits = vector_within(limits.MAX_ACCELERATION, " px/s²")


def checked_gravity(value: VectorLike) -> Vector2:
    """``value`` as a gravity (px/s², a new Vector2), or ValueError naming ``gravity``."""
    gravity: Vector2 = _within_limits("gravity", value)
    return gravity

#: A crushed body's pairs with what squeezes it (a < b), each with its unit normal (a->b).
Squeezes = dict[tuple[int, int], Vector2]


@dataclass(slots=True)
class Memory:
    """The cross-step physics state of one World.

    ``gravity`` (px/s²): the World's, applied by Movement and read by Response (the one
    copy; ``World.gravity`` sets it). ``rides``: the bodies left standing on a STATIC
    platform at the end of the last step (``systems.physics._solver.riders``), carried by
    Movement in the next. ``grounded``: entity -> the unit normal of the ground below it
    last step. ``crushed``: last step's crushed entities, in order. ``squeezes``: last
    step's crushed bodies' pairs with what squeezed them (push-out and crushing read them
    the next step). ``warned_overlap`` / ``warned_crush``: whether push-out's two
    once-per-World log lines were written.
    """

    gravity: Vector2 = field(default_factory=Vector2)
    rides: Rides = field(default_factory=dict)
    grounded: dict[int, Vector2] = field(default_factory=dict)
    crushed: list[int] = field(default_factory=list)
    squeezes: Squeezes = field(default_factory=dict)
    warned_overlap: bool = False
    warned_crush: bool = False
    #: The last step's resolution, kept until its contacts are first read (then None).
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
            self.resolution = None
        return self.made

    def keep(self, state: Resolution) -> None:
        """Keep this step's resolution, to make its contacts from when read."""
        self.resolution, self.made = state, None

    def replace_contacts(self, contacts: list[Contact]) -> None:
        """Set the last step's contacts to ``contacts``."""
        self.resolution, self.made = None, contacts
