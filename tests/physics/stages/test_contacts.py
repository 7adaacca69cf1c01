"""The contacts stage: the grounded bodies a step hands the next, worked out over the contacts' arrays."""

import pickle

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from pygame import Vector2

from systems.physics._kernels.ground import DIAGONAL
from systems.physics._stages.contacts import grounded_bodies

UP = Vector2(0, -1)  # gravity pulls +y: up is -y


def contacts(*rows: tuple) -> tuple[np.ndarray, np.ndarray]:
    """Contacts (a, b, normal x, normal y, time, trigger) as ``Resolution.arrays`` holds them."""
    pairs = np.array([(a, b) for a, b, *_ in rows], np.int64).reshape(-1, 2)
    values = np.zeros((len(rows), 8))
    for k, (_, _, nx, ny, time, trigger) in enumerate(rows):
        values[k, [0, 1, 3, 7]] = nx, ny, time, trigger
    return pairs, values


def test_a_body_on_a_floor_and_a_slope_stands_on_the_most_upright_ground():
    # Body 5 rests on a floor (1, normal from the floor to it: straight up) and on a 30° slope
    # (2: the normal 30° from up, cos 30° = 0.866 >= cos 45°); it touches a wall (3: the normal
    # horizontal, 90° from up) and a TRIGGER (4). The floor is the most upright: (0, -1).
    slope = Vector2(0, -1).rotate(30)
    grounded = grounded_bodies(*contacts((1, 5, 0.0, -1.0, 0.5, 0), (2, 5, slope.x, slope.y, 0.25, 0),
                                         (3, 5, 1.0, 0.0, 0.0, 0), (4, 5, 0.0, -1.0, 0.0, 1)), UP)
    assert grounded == {5: Vector2(0, -1)}


def test_a_body_standing_on_another_grounds_the_upper_one_only():
    # Box 7 stands on box 9 (the normal from 7 to 9 points down, +y): 9 is under 7, so only 7
    # has ground below it, along the opposite of the normal (0, -1); without gravity, nobody.
    pair = contacts((7, 9, 0.0, 1.0, 0.0, 0))
    assert grounded_bodies(*pair, UP) == {7: Vector2(0, -1)}
    assert grounded_bodies(*pair, Vector2()) == {}


def test_a_45_degree_slope_is_ground_and_a_46_degree_one_is_not():
    for degrees, ground in ((45.0, True), (46.0, False)):
        normal = Vector2(0, -1).rotate(degrees)
        assert (grounded_bodies(*contacts((1, 2, normal.x, normal.y, 0.0, 0)), UP) != {}) is ground


normals = st.sampled_from([(0.0, -1.0), (0.0, 1.0), (1.0, 0.0), (-0.6, -0.8), (0.6, -0.8), (-0.8, -0.6),
                           (0.0, -1.0), (-0.0, -1.0), (0.7071067811865476, -0.7071067811865476)])


@given(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6), normals, st.sampled_from([0.0, 0.25, 0.5]),
                          st.booleans()), max_size=30), st.sampled_from([(0.0, -1.0), (0.6, -0.8)]))
def test_grounded_bodies_are_the_first_most_upright_ground_in_time_order(rows, up):
    # The rule, contact by contact in time order (then ids), b along the normal before a
    # against it: an entity takes a ground whose normal is at most 45° from up when it has
    # none yet or the new one is more upright; the dict lists entities as they first stood.
    unique = {}
    for a, b, normal, time, trigger in rows:
        if a < b:
            unique.setdefault((a, b), (normal, time, trigger))
    rows = [(a, b, *normal, time, int(trigger)) for (a, b), (normal, time, trigger) in unique.items()]
    up = Vector2(up)
    expected: dict[int, Vector2] = {}
    for a, b, nx, ny, time, trigger in sorted(rows, key=lambda row: (row[4], row[0], row[1])):
        if trigger:
            continue
        for entity, normal in ((b, Vector2(nx, ny)), (a, -Vector2(nx, ny))):
            if normal.dot(up) >= DIAGONAL and (entity not in expected or normal.dot(up) > expected[entity].dot(up)):
                expected[entity] = normal
    found = grounded_bodies(*contacts(*rows), up) if rows else {}
    assert list(found) == list(expected)
    assert all((found[e].x, found[e].y) == (expected[e].x, expected[e].y) for e in expected)


def test_grounded_bodies_are_a_mapping_made_when_read_and_kept_by_snapshots():
    # Two bodies on the floor (normals straight up); the arrays are what the next step's
    # ground snapping reads, the mapping what ResponseSystem.grounded shows.
    grounded = grounded_bodies(*contacts((1, 5, 0.0, -1.0, 0.0, 0), (2, 6, 0.0, -1.0, 0.5, 0)), UP)
    assert grounded.entities.tolist() == [5, 6] and grounded.normals.tolist() == [[0.0, -1.0], [0.0, -1.0]]
    assert len(grounded) == 2 and grounded[6] == Vector2(0, -1) and dict(grounded) == {5: UP, 6: UP}
    copy = pickle.loads(pickle.dumps(grounded))
    assert copy == grounded and copy.entities.tolist() == [5, 6]
