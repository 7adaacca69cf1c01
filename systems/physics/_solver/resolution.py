"""Resolution: what one step's resolve stages found, for the stages and systems after them.

The contact rules (who moves, who holds still, the momentum of one contact) live in the
compiled core (``systems.physics._kernels.settle``, ``push``, ``crush``, ``ground``); a
``Resolution`` holds what the core hands back to Python: the collision filters' verdicts, the
pins, supports and crushed bodies, the riders, and the contacts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from operator import attrgetter

import numpy as np
from pygame import Vector2

from systems.physics._shapes.contact import Contact
from systems.physics._solver.riders import Rides

__all__ = ["CollisionFilter", "Resolution", "SWEPT_COLUMNS"]

_ZERO = Vector2()

#: A collision filter: called with two entity ids, returns False to let the
#: pair pass through each other this step.
CollisionFilter = Callable[[int, int], object]

_BY_TIME = attrgetter("time", "a", "b")

#: ``Resolution.record_swept``'s value columns.
SWEPT_COLUMNS = ("normal_x", "normal_y", "depth", "time", "surface", "point_x", "point_y", "trigger")
_NO_CONTACTS = (np.zeros((0, 2), np.int64), np.zeros((0, len(SWEPT_COLUMNS))))


class Resolution:
    """What resolving one step's collisions found, in both pipelines.

    Set when the step begins: ``rest_speed`` (px/s: contacts approaching slower are resting
    and don't bounce), ``up`` (the unit vector against gravity, zero without it), ``filters``
    (the collision filters, asked once per pair and step: ``allows``) and ``dt`` (s: in the
    discrete pipeline, the step, for push-out to give friction's part of the move back; 0
    after sweeps). Filled by the resolve stages: ``rides`` (the bodies left standing on a
    STATIC platform, carried next step), ``crushed`` (entities), the contacts
    (``record_swept``, read as ``resolved`` and ``contacts()``) and shock propagation, keyed
    by direction bits (an axis and a sign; the contact normal's dominant axis):

    Shock propagation, keyed by direction bits (an axis and a sign; the
    contact normal's dominant axis):

    - ``pinned`` (entity -> bits): directions a body may no longer be
      *pushed* this step, because it was pushed off something that holds
      still that way (a STATIC, or a body itself pinned). A box pushed out of
      the floor is not pushed back into it by the box landing on it, so
      stacks don't sink.
    - ``supported`` ((entity, bit) -> px/s): directions in which a body came
      to *rest* against such a support, with its velocity that way at that
      moment. Along the normal of a later contact it counts as an infinite
      mass on that axis only (a box at rest on the floor stops the box
      landing on it), and only while it is not moving away from the support
      faster than it was then: otherwise it would act as a wall moving at its
      own speed and pump energy into whatever it meets. Friction always sees
      the real masses.
    """

    def __init__(self, rest_speed: float = 0.0, up: Vector2 = _ZERO, filters: Sequence[CollisionFilter] = (),
                 dt: float = 0.0) -> None:
        self.rest_speed = rest_speed
        self.dt = dt
        self.up = up
        self.filters = filters
        self.allowed: dict[tuple[int, int], bool] = {}
        self.rides: Rides = {}
        self.pinned: dict[int, int] = {}
        self.supported: dict[tuple[int, int], float] = {}
        self.crushed: set[int] = set()
        self._resolved: dict[tuple[int, int], Contact] | None = {}
        # The contacts the core recorded, as arrays (record_swept); made into objects when read.
        self._swept: tuple[np.ndarray, np.ndarray] = _NO_CONTACTS

    def allows(self, a: int, b: int) -> bool:
        """Whether the collision filters let entities a and b collide this
        step: asked once per pair and step, the verdict kept (a filter
        returning False lets the pair pass)."""
        key = (a, b)
        verdict = self.allowed.get(key)
        if verdict is None:
            verdict = all(check(a, b) is not False for check in self.filters)
            self.allowed[key] = verdict
        return verdict

    def record_swept(self, pairs: np.ndarray, values: np.ndarray) -> None:
        """Keep the step's contacts as the core recorded them, one per pair: ``pairs`` (m, 2)
        their entity ids (a < b), ``values`` (m, 8) float columns (``SWEPT_COLUMNS``: normal x
        and y, depth px, time, surface px, point x and y px, 1.0 for a TRIGGER's contact),
        kept, not copied.

        Their ``Contact`` objects are made when the contacts are first read (``resolved``,
        ``contacts``): a fast scene records thousands a step (about 0.7 µs each as objects),
        and a game that reads none of them, or only some steps, doesn't pay for them.
        """
        self._swept, self._resolved = (pairs, values), None

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """The step's contacts as the core recorded them (``record_swept``'s ``pairs`` and
        ``values``): what a pass over all of them reads without making their objects."""
        return self._swept

    @property
    def resolved(self) -> dict[tuple[int, int], Contact]:
        """Every contact of the step, by pair (entity ids), in the order first recorded."""
        if self._resolved is None:
            self._resolved = dict(_swept_contacts(*self._swept))
        return self._resolved

    def contacts(self) -> list[Contact]:
        """The step's contacts, ordered by time, then entity ids."""
        return sorted(self.resolved.values(), key=_BY_TIME)


def _swept_contacts(pairs: np.ndarray, values: np.ndarray) -> Iterator[tuple[tuple[int, int], Contact]]:
    """``Resolution.record_swept``'s contacts as (pair, Contact), in order."""
    columns = [values[:, column].tolist() for column in range(values.shape[1])]
    for first, second, nx, ny, depth, time, surface, px, py, trigger in zip(*pairs.T.tolist(), *columns):
        yield (first, second), Contact(first, second, Vector2(nx, ny), depth, trigger != 0.0, Vector2(px, py), time,
                                       surface)
