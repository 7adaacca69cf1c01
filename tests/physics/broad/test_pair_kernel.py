"""The compiled broad phase (systems.physics._kernels.pairs) finds the grid's pairs.

``SpatialGrid.pairs`` is the reference: for any boxes, STATICs to skip,
level geometry and cell size, ``grid_pairs`` must return the same set of
pairs, piles included (where the grid pairs a chosen subset), sorted.
"""

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from components import Collider, ColliderType, Physics, Transform
from ecs import World
from systems.physics._kernels import jit
from systems.physics._broad.grid import CROWD, SpatialGrid
from systems.physics._kernels.pairs import DONE, FULL, SPREAD, _distinct_pairs, grid_pairs, group_by_row

pytestmark = pytest.mark.skipif(not jit.ENABLED, reason="the kernels are off (ECS_ARCADE_JIT=0 or no numba)")

# Coordinates on an 8 px lattice as often as not, so that edges touch exactly.
coordinate = st.one_of(st.floats(-300, 300), st.integers(-30, 30).map(lambda v: v * 8.0))
extent = st.one_of(st.floats(0, 40), st.sampled_from([0.0, 8.0, 16.0]), st.floats(40, 900))
# Boxes, each with whether it is skipped (STATIC) and filed as level geometry.
scattered = st.tuples(coordinate, coordinate, extent, extent, st.booleans(), st.booleans())
# A pile: boxes at least a cell wide spawned within a few px of one spot
# (more than CROWD of them, covering more than PILE cells, make a pile).
piled = st.tuples(st.floats(0, 3), st.floats(0, 3), st.just(40.0), st.just(40.0), st.booleans(), st.just(False))
scenes = st.tuples(st.lists(scattered, max_size=40), st.one_of(st.just([]), st.lists(piled, min_size=CROWD + 1,
                                                                                       max_size=40)))


def reference(items, cell, shuffle):
    """The grid's pairs, as (row, row) sorted."""
    grid = SpatialGrid(cell)
    for row, (x, y, w, h, _, level) in enumerate(items):
        grid.insert(row, (x, y, w, h), level)
    skip = {row for row, item in enumerate(items) if item[4]}
    return sorted(grid.pairs(skip, shuffle))


def compiled(items, cell, shuffle, capacity=1 << 16):
    boxes = np.array([item[:4] for item in items], float).reshape(-1, 4)
    skip = np.array([item[4] for item in items], bool)
    level = np.array([item[5] for item in items], bool)
    entities = np.arange(len(items), dtype=np.int64)
    return grid_pairs(boxes, skip, level, entities, cell, shuffle, capacity)


@given(scenes, st.sampled_from([4.0, 16.0, 32.0, 100.0]), st.integers(0, 1000))
@example(([], [(0.0, 0.0, 40.0, 40.0, False, False)] * (CROWD + 8)), 32.0, 3)  # a pile on one spot
@example(([(-300.0, -300.0, 8.0, 8.0, False, False), (300.0, 300.0, 8.0, 8.0, False, False),
           (296.0, 296.0, 8.0, 8.0, False, False)], []), 4.0, 0)  # cells numbered by the thousand: a merge sort
@example(([(0.0, 0.0, 900.0, 16.0, True, False)] + [(x * 8.0, 8.0, 8.0, 8.0, False, False) for x in range(30)], []),
         16.0, 0)  # one box touching 30: sorted as a group, not by insertion
def test_grid_pairs_are_the_grids_pairs(scene, cell, shuffle):
    items = scene[0] + scene[1]
    pairs, status = compiled(items, cell, shuffle)
    assert status == DONE
    assert [tuple(pair) for pair in pairs.tolist()] == reference(items, cell, shuffle)


def test_touching_boxes_pair_and_apart_ones_do_not():
    # Two 10 px boxes edge to edge touch (the grid pairs touching boxes);
    # 0.001 px apart they don't. A 2,000 px floor (a large box) meets both
    # boxes resting on it; two skipped boxes, or two level boxes, never pair.
    items = [(10.0, 0.0, 10.0, 10.0, False, False), (0.0, 0.0, 10.0, 10.0, False, False),
             (20.001, 0.0, 10.0, 10.0, False, False), (-500.0, 10.0, 2000.0, 20.0, True, True),
             (100.0, 10.0, 5.0, 5.0, True, True), (200.0, 10.0, 5.0, 5.0, True, False)]
    pairs, status = compiled(items, 32.0, 0)
    assert status == DONE
    assert pairs.tolist() == [[0, 1], [0, 3], [1, 3], [2, 3]] == [list(p) for p in reference(items, 32.0, 0)]


def test_a_short_buffer_and_an_unnumbered_grid_are_reported():
    items = [(0.0, 0.0, 10.0, 10.0, False, False)] * 3
    assert compiled(items, 32.0, 0, capacity=1)[1] == FULL
    far = [(0.0, 0.0, 1.0, 1.0, False, False), (1e12, 1e12, 1.0, 1.0, False, False)]
    assert compiled(far, 4.0, 0)[1] == SPREAD


def test_a_world_spread_too_far_for_the_kernel_still_collides():
    # Two pairs of 2 px boxes 1e11 px apart, with 4 px cells: the kernel
    # can't number the cells, and the grid finds the pairs. In each pair the
    # boxes close a 4 px gap at 1,200 px/s, meeting 1/300 s into the step;
    # with elasticity 1 and equal masses they swap velocities.
    world = World()
    world.collision.cell_size = 4.0
    lefts, rights = [], []
    for origin in (0.0, 1e11):
        lefts.append(world.create_entity(Transform((origin, 0)), Collider((2, 2)),
                                         Physics((600, 0), elasticity=1.0)))
        rights.append(world.create_entity(Transform((origin + 6, 0)), Collider((2, 2)),
                                          Physics((-600, 0), elasticity=1.0)))
    world.step(1 / 60)
    assert [world.component_for_entity(e, Physics).velocity.x for e in lefts] == [-600, -600]
    assert [world.component_for_entity(e, Physics).velocity.x for e in rights] == [600, 600]
    assert sorted((c.a, c.b) for c in world.contacts) == [(lefts[0], rights[0]), (lefts[1], rights[1])]
    world.close()


@given(st.lists(st.integers(0, 20), max_size=200), st.integers(0, 5))
def test_group_by_row_is_a_stable_sort_by_value(values, spare):
    n = max(values, default=-1) + 1 + spare  # values 0..n-1, some never used
    rows = np.array(values, np.int64)
    order, starts = group_by_row(rows, n)
    assert order.tolist() == np.argsort(rows, kind="stable").tolist()  # each group in index order
    assert starts.tolist() == [sum(1 for v in values if v < value) for value in range(n + 1)]


@given(st.lists(st.tuples(st.integers(0, 9), st.integers(0, 9)), max_size=300))
def test_distinct_pairs_are_the_set_of_pairs_sorted(found):
    rows = 10
    keys = np.array([min(a, b) * rows + max(a, b) for a, b in found], np.int64)  # as _emit makes them
    expected = sorted({(min(a, b), max(a, b)) for a, b in found})
    assert [tuple(pair) for pair in _distinct_pairs(keys, rows).tolist()] == expected
