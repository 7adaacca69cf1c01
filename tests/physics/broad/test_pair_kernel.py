"""The compiled broad phase (systems.physics._kernels.pairs) finds the grid's pairs.

``SpatialGrid.pairs`` is the reference: for any boxes, STATICs to skip,
TRIGGERs to keep apart, level geometry and cell size, ``grid_pairs`` must
return the same set of pairs, piles included (where the grid pairs a chosen
subset), sorted, less those whose layers don't meet (which
``Collide._find_pairs`` drops from the grid's).
"""

from collections import Counter

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from components import ALL, Collider, ColliderType, Physics, Transform
from components.layers import interacts
from ecs import World
from helpers import counted
from systems.physics._kernels import background
from systems.physics._kernels.plain import plain
from systems.physics._broad.grid import CROWD, SpatialGrid
from systems.physics._shapes.geometry import union_box
from systems.physics._kernels.pairs import (APART, DONE, FULL, LEVEL, SKIP, SPREAD, _distinct_pairs, every_row,
                                            grid_pairs, group_by_row, level_cells)

# Coordinates on an 8 px lattice as often as not, so that edges touch exactly.
coordinate = st.one_of(st.floats(-300, 300), st.integers(-30, 30).map(lambda v: v * 8.0))
extent = st.one_of(st.floats(0, 40), st.sampled_from([0.0, 8.0, 16.0]), st.floats(40, 900))
# A collider's layers (category, mask): the defaults half the time, else
# three layers' bits, so that pairs meet both ways, one way or not at all.
layers = st.one_of(st.just((1, ALL)), st.tuples(st.integers(1, 7), st.integers(0, 7)))
# Boxes, each with whether it is skipped (STATIC), filed as level geometry,
# kept apart (a TRIGGER), and its layers; the last two may be left out
# (False, (1, ALL)).
scattered = st.tuples(coordinate, coordinate, extent, extent, st.booleans(), st.booleans(), st.booleans(), layers)
# A pile: boxes at least a cell wide spawned within a few px of one spot
# (more than CROWD of them, covering more than PILE cells, make a pile;
# TRIGGERs among them are not counted).
piled = st.tuples(st.floats(0, 3), st.floats(0, 3), st.just(40.0), st.just(40.0), st.booleans(), st.just(False),
                  st.sampled_from([False, False, False, True]), layers)
scenes = st.tuples(st.lists(scattered, max_size=40), st.one_of(st.just([]), st.lists(piled, min_size=CROWD + 1,
                                                                                       max_size=40)))


def full(item):
    """``item`` with its TRIGGER flag and layers, the defaults if left out."""
    return item + (False, (1, ALL))[len(item) - 6:]


def reference(items, cell, shuffle):
    """The grid's pairs whose layers meet, as (row, row) sorted: what
    ``Collide._find_pairs`` keeps of ``SpatialGrid.pairs``."""
    items = [full(item) for item in items]
    grid = SpatialGrid(cell)
    for row, item in enumerate(items):
        grid.insert(row, item[:4], item[5])
    skip = {row for row, item in enumerate(items) if item[4]}
    apart = {row for row, item in enumerate(items) if item[6]}
    return sorted((a, b) for a, b in grid.pairs(skip, shuffle, apart) if interacts(*items[a][7], *items[b][7]))


def compiled(items, cell, shuffle, capacity=1 << 16, kept=False):
    """``grid_pairs`` of the items, every row filed in the call, or (``kept``) the level
    geometry among them filed beforehand (``level_cells``), as Collision keeps it."""
    items = [full(item) for item in items]
    boxes = np.array([item[:4] for item in items], float).reshape(-1, 4)
    kinds = np.array([SKIP * item[4] | LEVEL * item[5] | APART * item[6] for item in items], np.int64)
    layered = np.array([item[7] for item in items], np.int64).reshape(-1, 2)
    entities = np.arange(len(items), dtype=np.int64)
    movers, level = every_row(len(items))
    if kept:
        is_level = np.array([bool(item[5]) for item in items], bool)
        movers = np.flatnonzero(~is_level).astype(np.int64)
        *level, status = level_cells(boxes, np.flatnonzero(is_level).astype(np.int64), cell)
        if status != DONE:
            return np.empty((0, 2), np.int64), status
        level = tuple(level)
    return grid_pairs(boxes, kinds, layered, entities, cell, shuffle, capacity, movers, level)


@given(scenes, st.sampled_from([4.0, 16.0, 32.0, 100.0]), st.integers(0, 1000))
@example(([], [(0.0, 0.0, 40.0, 40.0, False, False)] * (CROWD + 8)), 32.0, 3)  # a pile on one spot
@example(([(-300.0, -300.0, 8.0, 8.0, False, False), (300.0, 300.0, 8.0, 8.0, False, False),
           (296.0, 296.0, 8.0, 8.0, False, False)], []), 4.0, 0)  # cells numbered by the thousand: a merge sort
@example(([(0.0, 0.0, 900.0, 16.0, True, False)] + [(x * 8.0, 8.0, 8.0, 8.0, False, False) for x in range(30)], []),
         16.0, 0)  # one box touching 30: sorted as a group, not by insertion
# 14 on one spot, 4 of them TRIGGERs on layer 2 (two meeting layer 1, two not): the 10 others are no pile
@example(([], [(0.0, 0.0, 40.0, 40.0, False, False, True, layers) for layers in ((2, 1), (2, 1), (2, 2), (2, 2))]
          + [(0.0, 0.0, 40.0, 40.0, False, False)] * 10), 32.0, 0)
@example(([(0.0, 0.0, 900.0, 16.0, False, False, True, (1, ALL))] * 2
           + [(8.0, 8.0, 8.0, 8.0, False, False, False, (2, 2))], []), 16.0, 0)  # big TRIGGERs, a box off their layers
def test_grid_pairs_are_the_grids_pairs(scene, cell, shuffle):
    # Level geometry filed in the call, or beforehand and kept (only the cells a mover is in
    # are looked at then): the same pairs either way.
    items = scene[0] + scene[1]
    for kept in (False, True):
        pairs, status = compiled(items, cell, shuffle, kept=kept)
        assert status == DONE
        assert [tuple(pair) for pair in pairs.tolist()] == reference(items, cell, shuffle)


def test_touching_boxes_pair_and_apart_ones_do_not():
    # Two 10 px boxes edge to edge touch (the grid pairs touching boxes);
    # 0.001 px apart they don't. A 2,000 px floor (a large box) meets both
    # boxes resting on it; two skipped boxes, or two level boxes, never pair.
    items = [(10.0, 0.0, 10.0, 10.0, False, False), (0.0, 0.0, 10.0, 10.0, False, False),
             (20.001, 0.0, 10.0, 10.0, False, False), (-500.0, 10.0, 2000.0, 20.0, True, True),
             (100.0, 10.0, 5.0, 5.0, True, True), (200.0, 10.0, 5.0, 5.0, True, False)]
    for kept in (False, True):
        pairs, status = compiled(items, 32.0, 0, kept=kept)
        assert status == DONE
        assert pairs.tolist() == [[0, 1], [0, 3], [1, 3], [2, 3]] == [list(p) for p in reference(items, 32.0, 0)]


@pytest.mark.parametrize("cell", [4.0, 32.0])  # 4 px: the 2,000 px floor is a large box
def test_two_triggers_and_colliders_whose_layers_dont_meet_never_pair(cell):
    # Six 10 px boxes at one spot (every two touch) resting on a 2,000 px
    # floor, and a TRIGGER under the floor (touching it, not the boxes).
    # Layers (category, mask); Box2D's rule: a pair meets when each one's
    # category is in the other's mask.
    #   0, 1: TRIGGERs on layer 1 meeting all   2: layer 2, meets layer 1
    #   3: layer 4, meets all but layer 4        4: layer 1, meets layer 2
    #   5: layer 2, meets nothing                6: the floor, STATIC level geometry, layer 1, meets all
    #   7: a TRIGGER on layer 1 meeting all
    # 0-1: two TRIGGERs, never. 0-2: 1 in mask 1, 2 in ALL: meet. 0-3: meet.
    # 0-4: 1 not in mask 2: no (one way only). 2-3: 2 in 3's mask, 4 not in
    # 2's: no. 2-4: 2 in mask 2, 1 in mask 1: meet. 3-4: 4 not in mask 2.
    # 5: nothing. The floor meets 0, 1, 2, 3 and 7 (4's mask leaves out its layer 1).
    spot = (0.0, 0.0, 10.0, 10.0, False, False)
    tiny = [spot + (True, (1, ALL)), spot + (True, (1, ALL)), spot + (False, (2, 1)), spot + (False, (4, ALL & ~4)),
            spot + (False, (1, 2)), spot + (False, (2, 0)), (-500.0, 10.0, 2000.0, 20.0, True, True, False, (1, ALL)),
            (0.0, 20.0, 10.0, 10.0, False, False, True, (1, ALL))]
    expected = [[0, 2], [0, 3], [0, 6], [1, 2], [1, 3], [1, 6], [2, 4], [2, 6], [3, 6], [6, 7]]
    for kept in (False, True):
        pairs, status = compiled(tiny, cell, 0, kept=kept)
        assert status == DONE
        assert pairs.tolist() == expected == [list(p) for p in reference(tiny, cell, 0)]


def test_a_short_buffer_and_an_unnumbered_grid_are_reported():
    items = [(0.0, 0.0, 10.0, 10.0, False, False)] * 3
    assert compiled(items, 32.0, 0, capacity=1)[1] == FULL
    far = [(0.0, 0.0, 1.0, 1.0, False, False), (1e12, 1e12, 1.0, 1.0, False, False)]
    assert compiled(far, 4.0, 0)[1] == SPREAD
    # Level geometry beyond the cells a kept filing numbers (2**31 each way) is refused too.
    assert compiled([(0.0, 0.0, 1.0, 1.0, True, True), (1e12, 0.0, 1.0, 1.0, True, True)], 4.0, 0, kept=True)[1] == SPREAD


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


def shooter(seed):
    """A small shooter (as benchmarks.scenes' shooter): 60 bullets on a layer
    whose mask leaves out bullets, 40 coins (TRIGGERs meeting only
    bullets), a player on the default layers and two walls, all within a
    200 px square so that most of them touch something."""
    bullet, coin = 2, 4
    rng = np.random.default_rng(seed)
    world = World()
    spot = lambda: Transform(tuple(rng.uniform(0, 200, 2)))  # noqa: E731
    for _ in range(60):
        world.create_entity(spot(), Collider((4, 4), category=bullet, mask=ALL & ~bullet),
                            Physics(tuple(rng.uniform(-300, 300, 2)), elasticity=1.0))
    for _ in range(40):
        world.create_entity(spot(), Collider((8, 8), type=ColliderType.TRIGGER, category=coin, mask=bullet))
    world.create_entity(spot(), Collider((12, 12)), Physics((50, 0)))
    for x in (-8, 200):
        world.create_entity(Transform((x, 0)), Collider((8, 208), type=ColliderType.STATIC))
    return world


@given(st.integers(0, 2**32 - 1))
@settings(max_examples=10)
def test_a_step_with_triggers_and_layers_takes_the_kernels_pairs_which_are_the_grids(seed):
    # The same scene stepped once with the kernel and once with the grid
    # (the kernels off): the kernel is called, and its pairs are the grid's:
    # no coin-coin pair (two TRIGGERs), no bullet-bullet pair (layers).
    calls: Counter[str] = Counter()
    kernels = counted(background.kernels(), calls)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(background, "kernels", lambda: kernels)
        world = shooter(seed)
        world.step(1 / 60)
        found = sorted(world.collision.pairs)
        coins = {entity for entity, c in world.get_component(Collider) if c.type is ColliderType.TRIGGER}
        world.close()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(background, "kernels", plain)  # (the plain copy: the grid finds the pairs)
        world = shooter(seed)
        world.step(1 / 60)
        grids = sorted(world.collision.pairs)
        world.close()
    assert found == grids
    assert calls["grid_pairs"] >= 1 or not kernels.compiled
    assert not [pair for pair in found if set(pair) <= coins]


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


coordinates = st.floats(-1e4, 1e4, allow_nan=False)


@given(st.lists(st.tuples(coordinates, coordinates, coordinates, coordinates, coordinates, coordinates,
                          st.floats(0.5, 500), st.floats(0.5, 500)), min_size=1, max_size=20))
def test_swept_bounds_are_the_union_of_the_boxes_at_the_start_of_the_step_and_now(rows):
    # Each body: position at the start of the step and now, collider offset and size (px). Its
    # swept bounds are the smallest box holding its box at both places (``union_box``), to
    # rounding (the kernel reaches the start's corner as now + offset + (start − now)); it moved
    # where the two positions differ.
    start, now, offset, size = (np.array([row[i:i + 2] for row in rows], float) for i in (0, 2, 4, 6))
    found, moved = background.kernels().swept_bounds(start, now, offset, size)
    for k, (x0, y0, x1, y1, ox, oy, w, h) in enumerate(rows):
        expected = union_box((x0 + ox, y0 + oy, w, h), (x1 + ox, y1 + oy, w, h))
        assert tuple(found[k]) == pytest.approx(expected, rel=1e-12, abs=1e-9)
        assert moved[k] == ((x0, y0) != (x1, y1))
