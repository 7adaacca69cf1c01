"""Collision events: a pair's first contact, every contact, its last.

Handlers are held by strong references (esper's own event handlers are weak,
so a lambda would silently vanish) and run after Response, in contact order
(time, then entity ids); exceptions propagate out of ``World.step``.
Handlers added during a step are called from the next step on.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import esper
from pygame import Vector2

from systems.contact import Contact

if TYPE_CHECKING:
    from ecs.world import World

__all__ = ["Between", "CollisionEvents", "CollisionHandler", "Subscription", "orient"]

CollisionHandler = Callable[[Contact], Any]

#: (category_a, category_b): a handler sees only pairs with one collider on
#: a layer of category_a and the other on a layer of category_b, as (a, b).
Between = tuple[int, int]


@dataclass(slots=True)
class Subscription:
    """A handler and the layers it listens ``between`` (None: every pair)."""

    handler: CollisionHandler
    between: Between | None = None


# One pair's contact as a handler listening between two layers sees it.
def orient(contact: Contact, categories: tuple[int, int], between: Between | None) -> Contact | None:
    """``contact`` if its a is on ``between[0]``'s layers and b on
    ``between[1]``'s, flipped if the other way round, None if neither
    (``categories`` are a's and b's collider categories)."""
    if between is None:
        return contact
    first, second = between
    if categories[0] & first and categories[1] & second:
        return contact
    if categories[1] & first and categories[0] & second:
        return contact.flipped()
    return None


class CollisionEvents(esper.Processor):
    """Calls the World's collision handlers after Response.

    ``begin`` handlers get a pair's contact the first step it has one
    (TRIGGER contacts included); ``every`` handlers each contact of every
    step; ``end`` handlers a copy of a pair's last contact (depth 0) the
    first step it has none, which is also how a pair ends when one of its
    entities is deleted or loses its Collider: begins and ends balance.
    ``crush`` handlers get each entity crushed this step, first.
    """

    def __init__(self, world: World) -> None:
        self.world = world
        self.begin: list[Subscription] = []
        self.every: list[Subscription] = []
        self.end: list[Subscription] = []
        self.crush: list[Callable[[int], Any]] = []
        # Pairs touching last step: their last contact and colliders' categories.
        self.touching: dict[tuple[int, int], tuple[Contact, tuple[int, int]]] = {}

    def process(self, dt: float) -> None:
        """Call this step's handlers."""
        for entity in self.world.response.crushed if self.crush else ():
            for handler in list(self.crush):
                handler(entity)
        begin, every, end = list(self.begin), list(self.every), list(self.end)
        if not (begin or every or end or self.touching):
            return
        collider = self.world.collision.collider
        now = {}
        for contact in self.world.contacts:
            a, b = collider(contact.a), collider(contact.b)
            categories = (a.category if a else 0, b.category if b else 0)
            now[(contact.a, contact.b)] = (contact, categories)
        began = [entry for key, entry in now.items() if key not in self.touching]
        ended = [(_ended(contact), categories) for key, (contact, categories) in sorted(self.touching.items())
                 if key not in now]
        self.touching = now if (begin or end) else {}
        _dispatch(begin, began)
        _dispatch(every, now.values())
        _dispatch(end, ended)


def _ended(contact: Contact) -> Contact:
    """The contact an end handler gets: a copy of the last one, at depth 0."""
    return Contact(contact.a, contact.b, Vector2(contact.normal), 0.0, contact.trigger, Vector2(contact.point),
                   0.0, contact.surface)


def _dispatch(subscriptions: list[Subscription], entries: Iterable[tuple[Contact, tuple[int, int]]]) -> None:
    """Call each subscription with each contact it listens to."""
    if not subscriptions:
        return
    for contact, categories in list(entries):
        for subscription in subscriptions:
            seen = orient(contact, categories, subscription.between)
            if seen is not None:
                subscription.handler(seen)
