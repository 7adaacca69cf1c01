"""Dense cells: no pair with a TRIGGER, a STATIC or level geometry is ever
dropped, however many boxes share a cell, and a crowded cell costs the pairs
it has, not the square of its crowd.

Expected pairs come from brute force (every two boxes whose closed ranges
overlap on both axes); expected contacts from the scene's geometry.
"""

import itertools

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from components import ALL, Collider, ColliderType, Physics, Transform
from ecs import World
from systems.physics._broad.grid import CROWD, SpatialGrid


def _touch(a, b):
    return a[0] <= b[0] + b[2] and b[0] <= a[0] + a[2] and a[1] <= b[1] + b[3] and b[1] <= a[1] + a[3]


@pytest.mark.parametrize("count", [200, 2000])
@pytest.mark.parametrize("continuous", [True, False])
def test_a_mover_over_thousands_of_triggers_in_one_cell_is_told_of_every_one(count, continuous):
    # One 40 × 40 mover and `count` 40 × 40 TRIGGERs (coins) spawned on the
    # same spot: every coin overlaps the mover (and every other coin, which
    # means nothing). The broad phase made a pile of them and told the mover
    # of 24 coins, ever; each of the `count` mover–coin pairs must begin in
    # the first step and be among its contacts, and no coin–coin pair.
    world = World(continuous=continuous)
    mover = world.create_entity(Transform((40, 40)), Collider((40, 40)), Physics())
    coins = {world.create_entity(Transform((40, 40)), Collider((40, 40), type=ColliderType.TRIGGER))
             for _ in range(count)}
    begun = []
    world.on_collision_begin(begun.append)
    world.step(1 / 60)
    assert sorted((c.a, c.b) for c in begun) == sorted((mover, coin) for coin in coins)
    contacts = [c for c in world.contacts if c.trigger]
    assert len(contacts) == count and {c.b for c in contacts} == coins


class _Counted(dict):
    """A dict that counts the look-ups of its items."""

    looked = 0

    def __getitem__(self, key):
        self.looked += 1
        return super().__getitem__(key)


def test_coins_on_one_spot_cost_the_pairs_with_the_mover_not_their_square():
    # 2,000 coins on one spot under one mover: 2,000 pairs to report and
    # 1,999,000 coin–coin pairs that mean nothing. Kept apart, the coins are
    # sorted once and swept against the mover only: a few looks at each
    # box (counted), not one per coin–coin pair.
    grid = SpatialGrid(160.0)
    grid.insert(0, (40.0, 40.0, 40.0, 40.0))
    coins = range(1, 2001)
    for coin in coins:
        grid.insert(coin, (40.0, 40.0, 40.0, 40.0))
    grid.cells  # (filed now, so that only the pairing is counted)
    grid._boxes = counted = _Counted(grid._boxes)
    assert grid.pairs(apart=set(coins)) == [(0, coin) for coin in coins]
    assert counted.looked <= 4 * len(coins)


# Boxes near one spot, each in a group or none: (x, y, w, h, group), group
# 0 for an ordinary mover, 1 a STATIC (skip), 2 a TRIGGER (apart), 3 level
# geometry (fixed). Coordinates on a 4 px lattice half the time, so edges touch.
coordinate = st.one_of(st.floats(0, 40), st.integers(0, 10).map(lambda v: v * 4.0))
extent = st.one_of(st.floats(0, 30), st.sampled_from([0.0, 4.0, 8.0]))
crowded = st.lists(st.tuples(coordinate, coordinate, extent, extent, st.integers(0, 3)), min_size=CROWD,
                   max_size=60)


def _grid_pairs(items, cell, shuffle=7):
    grid = SpatialGrid(cell)
    for entity, (x, y, w, h, group) in enumerate(items):
        grid.insert(entity, (x, y, w, h), fixed=group == 3)
    skip = {e for e, item in enumerate(items) if item[4] == 1}
    apart = {e for e, item in enumerate(items) if item[4] == 2}
    return grid.pairs(skip, shuffle, apart)


def _allowed(items, a, b):
    """Whether the grid may pair a and b: not both in the same group."""
    return items[a][4] == 0 or items[a][4] != items[b][4]


@given(crowded, st.sampled_from([8.0, 64.0, 200.0]))
@example([(0.0, 0.0, 8.0, 8.0, 1)] * 20 + [(0.0, 0.0, 8.0, 8.0, 2)] * 20 + [(4.0, 4.0, 8.0, 8.0, 0)], 64.0)
@example([(0.0, 0.0, 8.0, 8.0, 0)] * 20 + [(2.0, 2.0, 8.0, 8.0, group) for group in (1, 2, 3)] * 5, 8.0)  # a pile
def test_a_crowded_cell_reports_every_pair_with_a_static_trigger_or_level_geometry(items, cell):
    # Every pair reported touches and is allowed, once; every touching
    # allowed pair with a box in a group is reported, pile or not; without a
    # pile (at most CROWD ordinary movers) every touching allowed pair is.
    found = _grid_pairs(items, cell)
    assert len(found) == len(set(found))
    assert all(a < b and _touch(items[a], items[b]) and _allowed(items, a, b) for a, b in found)
    expected = [(a, b) for a, b in itertools.combinations(range(len(items)), 2)
                if _touch(items[a], items[b]) and _allowed(items, a, b)]
    assert {p for p in expected if items[p[0]][4] or items[p[1]][4]} <= set(found)
    if sum(1 for item in items if item[4] == 0) <= CROWD:
        assert sorted(found) == expected


@given(crowded, st.sampled_from([8.0, 64.0, 200.0]), st.integers(0, 100))
@example([(0.0, 0.0, 8.0, 8.0, 1)] * 20 + [(0.0, 0.0, 8.0, 8.0, 3)] * 20 + [(4.0, 4.0, 8.0, 8.0, 0)] * 20, 8.0, 3)
@example([(0.0, 0.0, 8.0, 8.0, 2)] * 20 + [(4.0, 4.0, 8.0, 8.0, 0)] * 10, 8.0, 3)  # TRIGGERs are no pile
def test_the_kernel_gives_a_crowded_cells_pairs_as_the_grid_does(items, cell, shuffle):
    from systems.physics._kernels.pairs import APART, DONE, LEVEL, SKIP, every_row, grid_pairs

    expected = sorted(_grid_pairs(items, cell, shuffle))
    boxes = np.array([item[:4] for item in items], float).reshape(-1, 4)
    kinds = np.array([(0, SKIP, APART, LEVEL)[item[4]] for item in items], np.int64)
    layers = np.tile(np.array([1, ALL], np.int64), (len(items), 1))  # every box on the default layer
    pairs, status = grid_pairs(boxes, kinds, layers, np.arange(len(items), dtype=np.int64), cell, shuffle, 1 << 16,
                               *every_row(len(items)))
    assert status == DONE
    assert [tuple(pair) for pair in pairs.tolist()] == expected
