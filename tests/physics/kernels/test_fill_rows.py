"""The movers' rows of the core's body table, as a run starts them (``table.fill_rows``)."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from systems.physics._kernels import table as t
from systems.physics._kernels.background import kernels

coordinate = st.one_of(st.floats(-1e4, 1e4), st.sampled_from([0.0, -0.0, 8.0]))


@given(st.lists(st.tuples(*[coordinate] * 6, st.floats(0.5, 100), st.floats(0.5, 100), coordinate, coordinate),
                min_size=1, max_size=8), st.data())
def test_a_row_holds_its_constants_its_box_at_the_start_its_path_and_whether_it_moved(bodies, data):
    # Each body: position at the start of the step and now, offset, size and velocity. Rows
    # not listed keep what they held.
    n = len(bodies) + 2
    table, ints = t.aligned_table(n, t.FLOAT_COLUMNS), t.aligned_table(n, t.INT_COLUMNS, np.int64)
    table[:], ints[:] = -7.0, -7
    rows = np.array(sorted(data.draw(st.permutations(range(n)))[:len(bodies)]), np.int64)
    constant = np.arange(len(bodies) * t.FLOAT_COLUMNS, dtype=float).reshape(len(bodies), -1)
    constant_ints = np.arange(len(bodies) * t.INT_COLUMNS, dtype=np.int64).reshape(len(bodies), -1) * 1000
    filed = np.arange(len(bodies) * 4, dtype=float).reshape(-1, 4) + 0.5
    start, now, offset, size, velocity = (np.array([body[i:i + 2] for body in bodies], float) for i in (0, 2, 4, 6, 8))
    kernels().fill_rows(table, ints, rows, constant, constant_ints, filed, start, now, offset, size, velocity)
    for k, row in enumerate(rows):
        (sx, sy), (nx, ny), (ox, oy) = start[k], now[k], offset[k]
        expected = constant[k].copy()
        expected[t.FILED_X:t.FILED_H + 1] = filed[k]
        expected[[t.BEFORE_X, t.BEFORE_Y, t.WIDTH, t.HEIGHT]] = sx + ox, sy + oy, *size[k]
        expected[[t.OFFSET_X, t.OFFSET_Y, t.ORIGIN_X, t.ORIGIN_Y]] = ox, oy, sx, sy
        expected[[t.MOTION_X, t.MOTION_Y, t.VEL_X, t.VEL_Y, t.POS_X, t.POS_Y]] = nx - sx, ny - sy, *velocity[k], nx, ny
        assert table[row].tobytes() == expected.tobytes()
        expected_ints = constant_ints[k].copy()
        expected_ints[t.FLAGS] += t.MOVED if (sx, sy) != (nx, ny) else 0
        assert ints[row].tolist() == expected_ints.tolist()
    untouched = np.setdiff1d(np.arange(n), rows)
    assert (table[untouched] == -7.0).all() and (ints[untouched] == -7).all()
