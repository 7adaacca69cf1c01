"""Resolution: what one step's resolve stages found, for the stages and systems after them.

The contact rules (who moves, who holds still, the momentum of one contact) live in the
compiled core (``systems.physics._kernels.settle``, ``push``, ``crush``, ``ground``); a
``Resolution`` holds what the core hands back to Python: the collision filters' verdicts, the
crushed bodies, the riders, and the contacts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from pygame import Vector2

from systems.physics._shapes.contact import Contact
from systems.physics._solver.riders import Rides

__all__ = ["CollisionFilter", "Resolution", "SWEPT_COLUMNS", "swept_arrays", "time_order"]

_ZERO = Vector2()

#: A collision filter: called with two entity ids, returns False to let the
#: pair pass through each other this step.
CollisionFilter = Callable[[int, int], object]

#: ``Resolution.record_swept``'s value columns.
SWEPT_COLUMNS = ("normal_x", "normal_y", "depth", "time", "surface", "point_x", "point_y", "trigger")
_NO_CONTACTS = (np.zeros((0, 2), np.int64), np.zeros((0, len(SWEPT_COLUMNS))))


class Resolution:
    """What resolving one step's collisions found, in both pipelines.

    Set when the step begins: ``rest_speed`` (px/s, 2·|gravity|·dt: contacts approaching
    slower, times the larger gravity scale of the pair's bodies gravity pulls, are resting and
    don't bounce; ``systems.physics._kernels.settle._rest_speed``), ``up`` (the unit vector
    against gravity, zero without it), ``filters``
    (the collision filters, asked once per pair and step: ``allows``) and ``dt`` (s: the
    step, for push-out to give friction's part of the move back: its contacts come after the
    move). Filled by the resolve stages: ``rides`` (the bodies left standing on a STATIC
    platform, or on a body on one, carried next step), ``crushed`` (entities) and the contacts
    (``record_swept``, read as ``resolved`` and ``contacts()``). Shock propagation (pins and
    supports) lives in the kernels' tables for the length of a run
    (``systems.physics._kernels.settle``); nothing of it outlives the step.
    """

    def __init__(self, rest_speed: float = 0.0, up: Vector2 = _ZERO, filters: Sequence[CollisionFilter] = (),
                 dt: float = 0.0) -> None:
        self.rest_speed = rest_speed
        self.dt = dt
        self.up = up
        self.filters = filters
        self.allowed: dict[tuple[int, int], bool] = {}
        self.rides = Rides()
        self.crushed: set[int] = set()
        # The contacts the core recorded, as arrays (record_swept); made into objects when read,
        # each once: by its index in time order (``_order``, worked out when first needed).
        self._swept: tuple[np.ndarray, np.ndarray] = _NO_CONTACTS
        self._order: np.ndarray | None = None
        self._made: list[Contact | None] = []
        self._unmade = 0

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
        self._swept, self._order, self._made, self._unmade = (pairs, values), None, [None] * len(pairs), len(pairs)

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """The step's contacts as the core recorded them (``record_swept``'s ``pairs`` and
        ``values``): what a pass over all of them reads without making their objects."""
        return self._swept

    def time_order(self) -> np.ndarray:
        """The order of ``contacts()``: the recorded contacts' indices by time, then entity ids."""
        if self._order is None:
            pairs, values = self._swept
            self._order = time_order(pairs, values)
        return self._order

    def contacts_at(self, indices: list[int]) -> list[Contact]:
        """The recorded contacts at ``indices`` as ``Contact`` objects, each made once (those
        not made yet, a column at a time)."""
        made = self._made
        missing = [index for index in indices if made[index] is None]
        if missing:
            pairs, values = self._swept
            columns = [values[missing, column].tolist() for column in range(values.shape[1])]
            for index, row in zip(missing, zip(*pairs[missing].T.tolist(), *columns)):
                made[index] = _contact(*row)
            self._unmade -= len(missing)
        return [made[index] for index in indices]  # type: ignore[misc]

    @property
    def resolved(self) -> dict[tuple[int, int], Contact]:
        """Every contact of the step, by pair (entity ids), in the order first recorded."""
        self._make_all()
        return {(contact.a, contact.b): contact for contact in self._made if contact is not None}

    def contacts(self) -> list[Contact]:
        """The step's contacts, ordered by time, then entity ids."""
        self._make_all()
        made = self._made
        return [made[index] for index in self.time_order().tolist()]

    def _make_all(self) -> None:
        """Make every contact not made yet."""
        if self._unmade:
            self.contacts_at(list(range(len(self._made))))


def time_order(pairs: np.ndarray, values: np.ndarray) -> np.ndarray:
    """The order of contacts recorded as ``record_swept`` takes them: by time, then entity ids."""
    order: np.ndarray = np.lexsort((pairs[:, 1], pairs[:, 0], values[:, 3]))
    return order


def swept_arrays(contacts: list[Contact]) -> tuple[np.ndarray, np.ndarray]:
    """``contacts`` as ``record_swept`` takes them (entity pairs, ``SWEPT_COLUMNS`` values), in
    their order: what ``_contact`` makes a row into, undone."""
    pairs = np.array([(contact.a, contact.b) for contact in contacts], np.int64).reshape(-1, 2)
    values = np.array([(contact.normal.x, contact.normal.y, contact.depth, contact.time, contact.surface,
                        contact.point.x, contact.point.y, float(contact.trigger)) for contact in contacts],
                      float).reshape(-1, len(SWEPT_COLUMNS))
    return pairs, values


def _contact(first: int, second: int, nx: float, ny: float, depth: float, time: float, surface: float,
             px: float, py: float, trigger: float) -> Contact:
    """One recorded contact (a row of ``record_swept``'s arrays) as a ``Contact``."""
    return Contact(first, second, Vector2(nx, ny), depth, trigger != 0.0, Vector2(px, py), time, surface)
