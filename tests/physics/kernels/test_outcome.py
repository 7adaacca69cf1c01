"""The write-back's one pass over the movers' rows: what a run changed, row by row."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from systems.physics._kernels import table as t
from systems.physics._kernels.background import kernels

FLAG_BITS = (t.TOUCHED, t.PHYSICS, t.PLACED, t.CRUSHED, t.STATIC, t.HELD)


def platform_of(rows, ride):
    """The STATIC a ride on row ``ride`` leads to, walking each body's own ride; -1 where a
    body rides nothing, or the walk comes back to a row it passed."""
    seen = set()
    while ride >= 0 and t.STATIC not in rows[ride][0]:
        if ride in seen:
            return -1
        seen.add(ride)
        ride = rows[ride][2]
    return ride


@given(st.integers(1, 12).flatmap(lambda n: st.lists(
    st.tuples(st.sets(st.sampled_from(FLAG_BITS)), st.integers(0, 2), st.integers(-1, n - 1)), min_size=n,
    max_size=n)), st.data())
def test_the_rows_a_run_changed_are_read_from_their_flags_and_columns(rows, data):
    # Each row: its flag bits, its path's version (a sweep moved it when nonzero) and the
    # row it landed on (-1: none). Only the listed rows are looked at. A rider is one whose
    # ride leads to a STATIC, through the rides of the bodies it rests on.
    ints = t.aligned_table(len(rows), t.INT_COLUMNS, np.int64)
    for row, (flags, version, ride) in enumerate(rows):
        ints[row, t.FLAGS], ints[row, t.VERSION], ints[row, t.RIDE] = sum(flags), version, ride
    listed = sorted(data.draw(st.sets(st.integers(0, len(rows) - 1))))
    touched, moved, crushed, riders, supports, platforms, refused = kernels().outcome(ints, np.array(listed, np.int64))
    assert touched.tolist() == [row for row in listed if t.TOUCHED in rows[row][0]]
    assert moved.tolist() == [row for row in listed if rows[row][1] != 0 or t.PLACED in rows[row][0]]
    assert crushed.tolist() == [row for row in listed if t.CRUSHED in rows[row][0]]
    ridden = [row for row in listed if rows[row][2] >= 0 and platform_of(rows, rows[row][2]) >= 0]
    assert riders.tolist() == ridden
    assert supports.tolist() == [rows[row][2] for row in ridden]
    assert platforms.tolist() == [platform_of(rows, rows[row][2]) for row in ridden]
    bad = [row for row in listed if t.TOUCHED in rows[row][0] and t.PHYSICS not in rows[row][0]]
    assert refused == (bad[0] if bad else -1)
