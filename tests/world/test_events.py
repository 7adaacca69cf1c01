"""Collision events over the core's arrays: which pairs began and ended, and the contacts handed out."""

import esper
import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from pygame import Vector2

from components import Collider, ColliderType, Transform
from ecs import World
from ecs.events import _within
from helpers import DT, box

pairs_of = st.lists(st.tuples(st.integers(-3, 2**40), st.integers(-3, 2**40)), unique=True, max_size=20)


@given(pairs_of, pairs_of)
def test_within_tells_which_pairs_are_among_others_as_a_set_would(pairs, others):
    found = _within(np.array(pairs, np.int64).reshape(-1, 2), np.array(others, np.int64).reshape(-1, 2))
    assert found.tolist() == [pair in set(others) for pair in pairs]


def test_a_begin_handler_gets_the_contact_the_step_lists():
    # Box a at 60 px/s meets b 0.5 px away: one contact, a -> b along +x. The handler's
    # contact is the very object World.contacts lists afterwards (made once).
    world = World()
    a, b = box(world, 0, 0, velocity=(60, 0)), box(world, 10.5, 0)
    got = []
    world.on_collision_begin(got.append)
    world.step(DT)
    assert [(c.a, c.b, Vector2(c.normal)) for c in got] == [(a, b, Vector2(1, 0))]
    assert world.contacts[0] is got[0]


def test_contacts_set_by_a_system_are_what_the_handlers_hear():
    # A system after Response replaces the step's contacts (ResponseSystem.contacts) with a list naming pair (a, b)
    # twice: the handlers hear the pair once, with its last contact (as a dict keeps it);
    # next step the list is empty, so the pair ends, at depth 0 with that contact's normal.
    world = World()
    a = world.create_entity(Transform((0, 0)), Collider((10, 10), type=ColliderType.STATIC))
    b = world.create_entity(Transform((100, 0)), Collider((10, 10), type=ColliderType.STATIC))
    from systems.physics._shapes.contact import Contact

    made = [[Contact(a, b, Vector2(1, 0), 2.0), Contact(a, b, Vector2(0, 1), 3.0)], []]

    class Replace(esper.Processor):
        def process(self, dt):
            world.response.contacts = made.pop(0) if made else []

    world.add_system(Replace(), priority=75)  # after Response (100), before the events (50)
    began, ended = [], []
    world.on_collision_begin(lambda c: began.append((c.a, c.b, Vector2(c.normal), c.depth)))
    world.on_collision_end(lambda c: ended.append((c.a, c.b, Vector2(c.normal), c.depth)))
    world.step(DT)
    world.step(DT)
    assert began == [(a, b, Vector2(0, 1), 3.0)]
    assert ended == [(a, b, Vector2(0, 1), 0.0)]
