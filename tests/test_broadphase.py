"""The grid broad phase finds exactly the overlapping pairs, each once."""

import itertools

from hypothesis import given
from hypothesis import strategies as st

from systems.broadphase import SpatialGrid, choose_cell_size

boxes = st.lists(
    st.tuples(
        st.floats(-200, 200), st.floats(-200, 200), st.floats(0, 60), st.floats(0, 60)
    ),
    max_size=40,
)


def _touch(a, b):
    return a[0] <= b[0] + b[2] and b[0] <= a[0] + a[2] and a[1] <= b[1] + b[3] and b[1] <= a[1] + a[3]


@given(boxes, st.sampled_from([3.0, 16.0, 100.0]))
def test_pairs_match_brute_force(items, cell):
    grid = SpatialGrid(cell)
    for entity, b in enumerate(items, start=1):
        grid.insert(entity, b)
    found = grid.pairs()
    expected = [
        (i + 1, j + 1)
        for i, j in itertools.combinations(range(len(items)), 2)
        if _touch(items[i], items[j])
    ]
    assert sorted(found) == expected
    assert len(found) == len(set(found))


@given(boxes, st.tuples(st.floats(-200, 200), st.floats(-200, 200), st.floats(0, 60), st.floats(0, 60)))
def test_query_matches_brute_force(items, probe):
    grid = SpatialGrid(20.0)
    for entity, b in enumerate(items, start=1):
        grid.insert(entity, b)
    assert grid.query(probe) == [i + 1 for i, b in enumerate(items) if _touch(b, probe)]


def test_skip_filters_pairs_and_cell_size_follows_median():
    grid = SpatialGrid(10.0)
    grid.insert(1, (0, 0, 5, 5))
    grid.insert(2, (1, 1, 5, 5))
    assert grid.pairs({1, 2}) == []
    assert grid.pairs({1}) == [(1, 2)]
    assert choose_cell_size([8, 8, 100]) == 4 * 8
    assert choose_cell_size([]) == 64.0


@given(boxes, boxes, st.sets(st.integers(1, 40)))
def test_refiling_and_removing_keeps_pairs_exact(first, second, gone):
    grid = SpatialGrid(16.0)
    for entity, b in enumerate(first, start=1):
        grid.insert(entity, b)
    current = dict(enumerate(first, start=1))
    for entity, b in enumerate(second, start=1):  # move some, add others
        grid.insert(entity, b)
        current[entity] = b
    for entity in gone:
        grid.remove(entity)
        current.pop(entity, None)
    ids = sorted(current)
    expected = [(a, b) for i, a in enumerate(ids) for b in ids[i + 1:] if _touch(current[a], current[b])]
    assert sorted(grid.pairs()) == expected
    assert all(members for members in grid.cells.values())  # no empty cells left behind


sizes = st.one_of(st.floats(0, 30), st.floats(1e3, 1e6))  # small, or covering thousands of cells


@given(st.lists(st.tuples(st.floats(-1e4, 1e4), st.floats(-1e4, 1e4), sizes, sizes), min_size=1, max_size=30),
       st.lists(st.tuples(st.integers(0, 29), st.floats(-1e4, 1e4), st.floats(-1e4, 1e4), sizes, sizes),
                max_size=10))
def test_huge_boxes_and_boxes_growing_or_shrinking_pair_like_brute_force(items, moves):
    # Boxes up to 1e6 px across in 16 px cells go to the list of large boxes;
    # re-inserting moves a body between the grid and that list. Pairs and
    # queries must still be exactly the touching ones, each pair once.
    grid = SpatialGrid(16.0)
    current = {}
    for entity, b in enumerate(items, start=1):
        grid.insert(entity, b)
        current[entity] = b
    for index, *b in moves:
        entity = index % len(items) + 1
        grid.insert(entity, tuple(b))
        current[entity] = tuple(b)
    found = grid.pairs()
    expected = [(a, b) for a, b in itertools.combinations(sorted(current), 2) if _touch(current[a], current[b])]
    assert sorted(found) == expected and len(found) == len(set(found))
    probe = current[1]
    assert grid.query(probe) == [e for e in sorted(current) if _touch(current[e], probe)]
