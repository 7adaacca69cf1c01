"""Riders: re-expressing a rider's velocity when it leaves, lands on or changes platform.

Worked cases of ``changed_frames`` (gravity pulls +y, so "up" is -y and a platform's normal to
a rider standing on it is (0, -1)), and a property test against the rule stated rider by
rider with Vector2s, as Movement and Response applied it before the rides became arrays.
"""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from pygame import Vector2

from systems.physics._solver.riders import Rides, changed_frames, platform_frame

UP = (0.0, -1.0)


def rides(*rows: tuple[int, int, tuple[float, float], tuple[float, float] | None]) -> Rides:
    """Rides of (rider, platform, normal, frame or None when not carried), riders ascending."""
    made = Rides(np.array([r[0] for r in rows], np.int64), np.array([r[1] for r in rows], np.int64),
                 np.array([r[2] for r in rows], float).reshape(-1, 2))
    made.carried = {i: (0.0, 0.0, *frame) for i, (_, _, _, frame) in enumerate(rows) if frame is not None}
    return made


def test_a_platform_frame_is_its_velocity_along_the_normal():
    # A lift rising at 60 px/s and drifting 30 px/s sideways: a rider's frame is only the
    # rise, (0, -60); on a 45° ramp moving right at 10 px/s the frame is 10·cos 45° along
    # the normal: (10·0.7071)·(0.7071, -0.7071) = (5, -5).
    assert platform_frame(*UP, 30.0, -60.0) == (0.0, -60.0)
    assert np.allclose(platform_frame(0.7071067811865476, -0.7071067811865476, 10.0, 0.0), (5.0, -5.0), atol=1e-12)


def test_leaving_a_rising_lift_gives_its_rise_back_and_landing_takes_the_new_ones():
    # Entity 7 rode lift 2 (rising at 60 px/s: frame (0, -60)) and jumped off: it gets the
    # rise back, (0, -60), so a jump from a rising lift goes higher. Entity 8 landed on lift 3,
    # sinking at 30 px/s: its velocity becomes relative to the lift's, less (0, 30).
    # Entity 9 stays on lift 2: no change.
    old = rides((7, 2, UP, (0.0, -60.0)), (9, 2, UP, (0.0, -60.0)))
    new = rides((8, 3, UP, None), (9, 2, UP, None))
    velocities = {2: Vector2(0, -60), 3: Vector2(0, 30)}
    assert changed_frames(old, new, velocities.get, velocities) == [(7, 0.0, -60.0), (8, 0.0, -30.0)]


def test_a_ride_not_carried_and_a_platform_without_physics_have_no_frame():
    # Entity 4's platform was gone when Movement carried it (not carried): no frame to give
    # back. Entity 5 lands on level geometry (no Physics): its frame is 0 as well.
    old = rides((4, 1, UP, None))
    new = rides((5, 6, UP, None))
    assert changed_frames(old, new, lambda platform: None, ()) == []


def test_a_frame_changed_by_less_than_pygames_epsilon_is_kept():
    # pygame compares Vector2s to within 1e-6: a rider whose frame moved by less keeps its
    # velocity, as ``before != after`` decided.
    old = rides((3, 1, UP, (0.0, -60.0)))
    assert changed_frames(old, rides((3, 1, UP, None)), {1: Vector2(0, -60.0000005)}.get, {1}) == []
    assert [rider for rider, *_ in changed_frames(old, rides((3, 1, UP, None)), {1: Vector2(0, -60.00001)}.get, {1})] == [3]


speeds = st.sampled_from([0.0, 30.0, -60.0, 1e-7, 250.5, -0.0])
normals = st.sampled_from([UP, (0.6, -0.8), (-0.7071067811865476, -0.7071067811865476)])
ride_rows = st.dictionaries(st.integers(1, 12), st.tuples(st.integers(20, 23), normals, st.booleans(),
                                                         st.tuples(speeds, speeds)), max_size=8)


@given(ride_rows, ride_rows, st.dictionaries(st.integers(20, 23), st.tuples(speeds, speeds)))
def test_changed_frames_follow_the_rule_rider_by_rider(old_rows, new_rows, platform_velocities):
    # The rule, rider by rider in entity order: before = the old frame if it was carried,
    # after = the new platform's velocity along the new normal (0 without Physics); a rider
    # whose before != after (pygame's comparison) gets before - after added.
    old = rides(*((r, p, n, f if carried else None) for r, (p, n, carried, f) in sorted(old_rows.items())))
    new = rides(*((r, p, n, None) for r, (p, n, _, _) in sorted(new_rows.items())))
    velocities = {p: Vector2(v) for p, v in platform_velocities.items()}
    expected = []
    for rider in sorted(old_rows.keys() | new_rows.keys()):
        before = Vector2()
        if rider in old_rows and old_rows[rider][2]:
            before = Vector2(old_rows[rider][3])
        after = Vector2()
        if rider in new_rows:
            platform, normal = new_rows[rider][0], Vector2(new_rows[rider][1])
            after = normal * velocities.get(platform, Vector2()).dot(normal)
        if before != after:
            expected.append((rider, *(before - after)))
    assert changed_frames(old, new, velocities.get, velocities) == expected
