"""Collision events: a pair's first contact, every contact, its last.

Handlers are held by strong references (esper's own event handlers are weak,
so a lambda would silently vanish) and run after Response, in contact order
(time, then entity ids), each with its World as esper's current world.
A handler that raises does not stop the others: every handler still gets
every contact of the step (so begins and ends stay balanced), then the first
exception propagates out of ``World.step`` (see ``StepErrors``).
Handlers added during a step are called from the next step on.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import esper
import numpy as np
from pygame import Vector2

from systems.physics._shapes.contact import Contact
from systems.physics._solver.resolution import SWEPT_COLUMNS
from systems.physics._stages.memory import Memory
from systems.physics.collision import CollisionSystem
from systems.physics.response import ResponseSystem

__all__ = ["Between", "CollisionEvents", "CollisionHandler", "StepErrors", "Subscription", "Touched", "heard"]

CollisionHandler = Callable[[Contact], Any]

_NO_INDICES = np.zeros(0, np.int64)

#: (category_a, category_b): a handler sees only pairs with one collider on
#: a layer of category_a and the other on a layer of category_b, as (a, b).
Between = tuple[int, int]


class StepErrors:
    """The exceptions raised in one step, held until the step is complete.

    The first is raised again by ``raise_first``, with a note saying where
    it came from; each later one adds a note to it (type, message and
    where), so none is lost and the traceback is the first's. A note already
    on the exception is not added again (an instance raised step after step
    carries each note once). One ``StepErrors`` per step: ``raise_first`` or
    ``note_on`` empties it, so nothing kept outlives its step.
    """

    def __init__(self, world: str) -> None:
        self.world = world
        self.first: Exception | None = None
        self.where = ""

    def add(self, error: Exception, where: str) -> None:
        """Keep ``error``, raised by ``where`` (a system or handler)."""
        if self.first is None:
            self.first, self.where = error, where
            _note(error, f"raised by {where} in a step of {self.world}; the rest of the step ran")
        elif error is not self.first:
            _note(self.first, f"also raised later in that step, by {where}: {type(error).__name__}: {error}")

    def call(self, handler: Callable[..., Any], arguments: tuple[Any, ...], where: str) -> Any:
        """``handler(*arguments)``; if it raises an ``Exception``, keep it and
        return None. ``where`` names the call, formatted (only then) with
        ``{name}`` the handler's name and ``{0}``, ``{1}``… its arguments:
        ``"collision filter {name} (pair {0}, {1})"``."""
        try:
            return handler(*arguments)
        except Exception as error:
            self.add(error, where.format(*arguments, name=getattr(handler, "__qualname__", repr(handler))))
            return None

    def raise_first(self) -> None:
        """Raise the first exception kept, if any (and forget it)."""
        error, self.first = self.first, None
        if error is not None:
            raise error

    def note_on(self, stop: BaseException) -> None:
        """Note the exception kept, if any, on ``stop`` (a ``KeyboardInterrupt``
        that ends the step where it is), and forget it: ``stop`` goes on,
        the kept one is not lost."""
        error, self.first = self.first, None
        if error is not None:
            _note(stop, f"{self.where} had raised {type(error).__name__}: {error} earlier in that step "
                        f"of {self.world}, kept to be raised when the step completed")


def _note(error: BaseException, note: str) -> None:
    """Add ``note`` to ``error`` unless it is there already."""
    if note not in getattr(error, "__notes__", ()):
        error.add_note(note)


@dataclass(slots=True)
class Subscription:
    """A handler and the layers it listens ``between`` (None: every pair)."""

    handler: CollisionHandler
    between: Between | None = None


def heard(categories: np.ndarray, between: Between | None) -> np.ndarray:
    """How a handler listening ``between`` two layers hears each of some pairs' contacts,
    given their colliders' ``categories`` ((n, 2), a's and b's): 1 as it is (a on
    ``between[0]``'s layers and b on ``between[1]``'s), -1 flipped (the other way round), 0 not
    at all ((n,) int8; every pair is heard as it is when ``between`` is None)."""
    if between is None:
        return np.ones(len(categories), np.int8)
    first, second = between
    a, b = categories[:, 0], categories[:, 1]
    as_is = ((a & first) != 0) & ((b & second) != 0)
    flipped = ~as_is & ((b & first) != 0) & ((a & second) != 0)
    sides: np.ndarray = as_is.astype(np.int8) - flipped.astype(np.int8)
    return sides


class EventsWorld(Protocol):
    """What ``CollisionEvents`` needs of its World (typed so, the World
    that installs it need not be imported here)."""

    name: str
    collision: CollisionSystem
    response: ResponseSystem
    #: This step's ``StepErrors`` (None between steps).
    _errors: StepErrors | None

    @property
    def contacts(self) -> list[Contact]:
        """This step's contacts."""
        ...

    def _enter(self) -> None:
        """Make this World esper's current one."""


class CollisionEvents(esper.Processor):
    """Calls the World's collision handlers after Response.

    ``begin`` handlers get a pair's contact the first step it has one
    (TRIGGER contacts included); ``every`` handlers each contact of every
    step; ``end`` handlers a copy of a pair's last contact (depth 0) the
    first step it has none, which is also how a pair ends when one of its
    entities is deleted or loses its Collider: begins and ends balance.
    ``crush`` handlers get each entity crushed this step, first.
    """

    def __init__(self, world: EventsWorld) -> None:
        self.world = world
        self.begin: list[Subscription] = []
        self.every: list[Subscription] = []
        self.end: list[Subscription] = []
        self.crush: list[Callable[[int], Any]] = []
        # Pairs touching last step: their last contact and colliders' categories.
        self.touching = Touched()

    def process(self, dt: float) -> None:
        """Call this step's handlers. What a handler raises is kept in the
        step's ``StepErrors``, raised by ``World.step`` once every handler has
        had every contact (run outside a step, this raises the first at its end)."""
        errors = self.world._errors or StepErrors(self.world.name)
        for entity in self.world.response.crushed if self.crush else ():
            for handler in list(self.crush):
                self._call(handler, entity, errors)
        begin, every, end = list(self.begin), list(self.every), list(self.end)
        if begin or every or end or len(self.touching):
            self._dispatch_contacts(begin, every, end, errors)
        if errors is not self.world._errors:
            errors.raise_first()

    def _dispatch_contacts(self, begin: list[Subscription], every: list[Subscription], end: list[Subscription],
                           errors: StepErrors) -> None:
        """Update the memory of touching pairs, then call the begin, every
        and end handlers (the memory first, so a raising handler cannot
        leave a pair's begin or end undelivered). The pairs are compared as
        arrays: a contact is made into a ``Contact`` only if a handler gets it."""
        now, contacts_at = _step_contacts(self.world.response.memory)
        now.categories = self.world.collision.categories_of(now.pairs)
        began = np.flatnonzero(~_within(now.pairs, self.touching.pairs)) if begin else _NO_INDICES
        ended = self.touching.without(now.pairs) if end else Touched()
        self.touching = now if (begin or end) else Touched()
        everyone = np.arange(len(now.pairs)) if every else _NO_INDICES
        for subscriptions, touched, indices, as_made, ending in ((begin, now, began, contacts_at, False),
                                                                 (every, now, everyone, contacts_at, False),
                                                                 (end, ended, np.arange(len(ended)), None, True)):
            if len(indices):
                self._deliver(subscriptions, touched, indices, as_made, ending, errors)

    def _deliver(self, subscriptions: list[Subscription], touched: Touched, indices: np.ndarray,
                 as_made: Callable[[list[int]], list[Contact]] | None, ended: bool, errors: StepErrors) -> None:
        """Call each subscription's handler with the contacts of ``touched`` at ``indices``,
        contact by contact, as it hears each (``heard``): as ``as_made`` makes them (None: new
        ones, ``Touched.contacts``), or flipped, a copy made for that handler; ``ended``: the
        pairs' end (``Touched.contacts``)."""
        sides = [heard(touched.categories[indices], subscription.between) for subscription in subscriptions]
        positions = indices.tolist()
        as_is: list[Contact] = []
        if any((side == 1).any() for side in sides):
            as_is = as_made(positions) if as_made is not None else touched.contacts(indices, ended=ended)
        flipped = [iter(touched.contacts(indices[side == -1], flip=True, ended=ended)) for side in sides]
        heard_by = [side.tolist() for side in sides]
        for k in range(len(positions)):
            for subscription, side, turned in zip(subscriptions, heard_by, flipped):
                if side[k]:
                    self._call(subscription.handler, as_is[k] if side[k] == 1 else next(turned), errors)

    def _call(self, handler: Callable[[Any], Any], argument: Any, errors: StepErrors) -> None:
        """Call one handler with its World current, keeping what it raises."""
        self.world._enter()  # the handler before may have used another World
        errors.call(handler, (argument,), "collision handler {name}")


@dataclass(slots=True)
class Touched:
    """Pairs in contact, a row each: ``pairs`` (entity ids, (n, 2) int64), their contacts'
    ``values`` (``systems.physics._solver.resolution.SWEPT_COLUMNS``, (n, 8)) and their
    colliders' ``categories`` ((n, 2) int64, 0 for an entity without a Collider)."""

    pairs: np.ndarray = field(default_factory=lambda: np.zeros((0, 2), np.int64))
    values: np.ndarray = field(default_factory=lambda: np.zeros((0, len(SWEPT_COLUMNS))))
    categories: np.ndarray = field(default_factory=lambda: np.zeros((0, 2), np.int64))

    def __len__(self) -> int:
        return len(self.pairs)

    def without(self, pairs: np.ndarray) -> Touched:
        """These pairs less those in ``pairs``, ordered by entity ids."""
        gone = np.flatnonzero(~_within(self.pairs, pairs))
        if len(gone) > 1:
            gone = gone[np.lexsort((self.pairs[gone, 1], self.pairs[gone, 0]))]
        return Touched(self.pairs[gone], self.values[gone], self.categories[gone])

    def contacts(self, indices: np.ndarray, flip: bool = False, ended: bool = False) -> list[Contact]:
        """The contacts of the pairs at ``indices``, each a new ``Contact``; ``flip``: as b sees
        it (a and b swapped, the normal reversed); ``ended``: as an end handler gets it, a copy
        of the last contact at depth 0 and time 0."""
        pairs, values = self.pairs[indices], self.values[indices]
        first, second = (pairs[:, 1], pairs[:, 0]) if flip else (pairs[:, 0], pairs[:, 1])
        normals = -values[:, :2] if flip else values[:, :2]  # (NumPy negates as Vector2 does: the sign bit)
        depth, time = (np.zeros(len(pairs)), np.zeros(len(pairs))) if ended else (values[:, 2], values[:, 3])
        return [Contact(a, b, Vector2(nx, ny), depth_, trigger != 0.0, Vector2(px, py), time_, surface)
                for a, b, (nx, ny), depth_, time_, surface, (px, py), trigger in zip(
                    first.tolist(), second.tolist(), normals.tolist(), depth.tolist(), time.tolist(),
                    values[:, 4].tolist(), values[:, 5:7].tolist(), values[:, 7].tolist())]


def _within(pairs: np.ndarray, others: np.ndarray) -> np.ndarray:
    """Whether each row of ``pairs`` is a row of ``others`` ((n,) bool), by a set of
    ``others``' pairs (built and probed in C: cheap for a handful of pairs or thousands)."""
    if not len(pairs) or not len(others):
        return np.zeros(len(pairs), bool)
    known = set(zip(*others.T.tolist()))
    return np.fromiter((pair in known for pair in zip(*pairs.T.tolist())), bool, len(pairs))


def _step_contacts(memory: Memory) -> tuple[Touched, Callable[[list[int]], list[Contact]]]:
    """The step's contacts, one per pair, in contact order (``Touched``, categories left
    to fill), and how to make those at some indices into ``Contact`` objects: from the
    core's arrays, or from a list of contacts set in their place (``ResponseSystem.contacts = ...``;
    a pair's last contact kept, in the order the pair first appears)."""
    resolution = memory.resolution
    if resolution is not None:
        pairs, values = resolution.arrays()
        order = resolution.time_order()
        recorded = order.tolist()
        return (Touched(pairs[order], values[order], np.zeros((len(order), 2), np.int64)),
                lambda indices: resolution.contacts_at([recorded[i] for i in indices]))
    listed = list({(c.a, c.b): c for c in memory.contacts()}.values())  # (a key keeps its first place)
    rows = [(c.normal.x, c.normal.y, c.depth, c.time, c.surface, c.point.x, c.point.y, float(c.trigger))
            for c in listed]
    pairs = np.array([(c.a, c.b) for c in listed], np.int64).reshape(-1, 2)
    return (Touched(pairs, np.array(rows, float).reshape(-1, len(SWEPT_COLUMNS)), np.zeros((len(listed), 2), np.int64)),
            lambda indices: [listed[i] for i in indices])
