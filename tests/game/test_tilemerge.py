"""Tile merge: the fewest rectangles covering a map's solid tiles."""

import functools

import pytest
from data.cave import cave
from hypothesis import given
from hypothesis import strategies as st

from systems.game._tilemerge import merge_tiles


def grid(*rows):
    return [[cell == "#" for cell in row] for row in rows]


def cells_of(rects):
    return [(x, y) for cx, cy, w, h in rects for x in range(cx, cx + w) for y in range(cy, cy + h)]


def solid_cells(solid):
    return {(x, y) for y, row in enumerate(solid) for x, cell in enumerate(row) if cell}


def test_an_l_is_two_rectangles():
    # One concave corner, no chord: r − g + 1 = 1 − 0 + 1 = 2. Cut horizontally
    # from the corner at (1, 3): the stem above, the foot as one floor strip.
    rects = merge_tiles(grid(
        "#...",
        "#...",
        "#...",
        "####",
    ))
    assert rects == [(0, 0, 1, 3), (0, 3, 4, 1)]


def test_a_staircase_is_one_rectangle_per_step():
    # Four steps have three concave corners, none facing another: 3 + 1 = 4.
    rects = merge_tiles(grid(
        "#...",
        "##..",
        "###.",
        "####",
    ))
    assert rects == [(0, 0, 1, 1), (0, 1, 2, 1), (0, 2, 3, 1), (0, 3, 4, 1)]


def test_a_room_with_two_holes_is_seven_rectangles():
    # A 7×5 block with 1×1 holes at (2, 2) and (4, 2): n = 4 + 4 + 4 = 12
    # vertices, h = 2 holes, and the concave corners are the holes' eight
    # corners. Two chords join the holes' facing corners along row lines 2
    # and 3 (x from 3 to 4), crossing nothing: g = 2. The minimum is
    # n/2 + h − g − 1 = 6 + 2 − 2 − 1 = 5: the block above the holes, the
    # three pillars beside and between them, the block below.
    rects = merge_tiles(grid(
        "#######",
        "#######",
        "##.#.##",
        "#######",
        "#######",
    ))
    assert len(rects) == 5
    assert rects == [(0, 0, 7, 2), (0, 2, 2, 1), (3, 2, 1, 1), (5, 2, 2, 1), (0, 3, 7, 2)]


def test_staggered_holes_share_no_chord():
    # A 7×5 block with 1×1 holes at (1, 1) and (3, 3): n = 4 + 4 + 4 = 12
    # vertices, h = 2 holes. The holes' corners lie on lines x = 1, 2 and
    # y = 1, 2 for one, x = 3, 4 and y = 3, 4 for the other: no two concave
    # corners line up, so no good chord, g = 0. The minimum (Lipski, Lodi,
    # Luccio, Mugnai and Pagli, 1979) is n/2 + h − g − 1 = 6 + 2 − 0 − 1 = 7:
    # a floor strip per row, rows 1 and 3 each cut in two by their hole.
    rects = merge_tiles(grid(
        "#######",
        "#.#####",
        "#######",
        "###.###",
        "#######",
    ))
    assert rects == [(0, 0, 7, 1), (0, 1, 1, 1), (2, 1, 5, 1), (0, 2, 7, 1), (0, 3, 3, 1), (4, 3, 3, 1),
                     (0, 4, 7, 1)]


def test_a_sideways_t_is_two_rectangles_where_a_greedy_run_merge_makes_three():
    # Merging row runs gives (0,0,1,1), (0,1,2,1), (0,2,1,1); the minimum is
    # the 1×3 column plus the lone tile: the chord joining the two concave
    # corners at (1, 1) and (1, 2) is vertical.
    rects = merge_tiles(grid(
        "#.",
        "##",
        "#.",
    ))
    assert rects == [(0, 0, 1, 3), (1, 1, 1, 1)]


def test_floors_become_single_strips_and_empty_maps_nothing():
    assert merge_tiles(grid("#" * 200)) == [(0, 0, 200, 1)]
    assert merge_tiles([]) == [] and merge_tiles(grid("....", "....")) == []
    # Rows of different lengths: cells past a short row's end are empty.
    assert merge_tiles([[1, 1, 1], [1]]) == [(0, 0, 3, 1), (0, 1, 1, 1)]
    # Two tiles touching only at a corner are two regions.
    assert merge_tiles(grid("#.", ".#")) == [(0, 0, 1, 1), (1, 1, 1, 1)]


@functools.lru_cache(maxsize=None)
def fewest(cells: frozenset) -> int:
    """Exhaustive search: the first free cell in reading order is the
    top-left of some rectangle in every partition; try each."""
    if not cells:
        return 0
    x0, y0 = min(cells, key=lambda p: (p[1], p[0]))
    best = len(cells)
    width = 0
    while (x0 + width, y0) in cells:
        width += 1
        height = 1
        while True:
            rect = {(x, y) for x in range(x0, x0 + width) for y in range(y0, y0 + height)}
            if not rect <= cells:
                break
            best = min(best, 1 + fewest(cells - rect))
            height += 1
    return best


@given(st.lists(st.lists(st.booleans(), min_size=1, max_size=5), min_size=1, max_size=5))
def test_rectangles_cover_exactly_the_solid_tiles_and_are_as_few_as_possible(solid):
    rects = merge_tiles(solid)
    covered = cells_of(rects)
    assert len(covered) == len(set(covered))  # no overlap
    assert set(covered) == solid_cells(solid)  # nothing missing, nothing extra
    assert len(rects) == fewest(frozenset(solid_cells(solid)))


@given(st.lists(st.lists(st.integers(0, 2), min_size=1, max_size=5), min_size=1, max_size=5))
def test_cells_of_different_labels_are_never_merged_and_each_label_is_as_few_as_possible(solid):
    rects = merge_tiles(solid)
    covered = cells_of(rects)
    assert len(covered) == len(set(covered))
    assert set(covered) == solid_cells(solid)
    for x, y, w, h in rects:  # one label per rectangle
        assert len({solid[row][column] for column in range(x, x + w) for row in range(y, y + h)}) == 1
    # Labels are independent regions: the minimum is the sum of each one's.
    by_label = [frozenset((x, y) for y, row in enumerate(solid) for x, cell in enumerate(row) if cell == label)
                for label in (1, 2)]
    assert len(rects) == sum(fewest(cells) for cells in by_label)


def test_a_cave_is_covered_exactly_without_overlap_and_its_halves_kept_apart():
    solid = cave(120, 90, seed=3).tolist()
    rects = merge_tiles(solid)
    covered = cells_of(rects)
    assert len(covered) == len(set(covered)) and set(covered) == solid_cells(solid)
    # Label the right half 2: no rectangle spans the seam at x = 60.
    halves = [[cell * (1 if x < 60 else 2) for x, cell in enumerate(row)] for row in solid]
    split = merge_tiles(halves)
    assert set(cells_of(split)) == solid_cells(solid) and len(cells_of(split)) == len(covered)
    assert all(x + w <= 60 or x >= 60 for x, _, w, _ in split)


def test_cells_must_be_labels_in_0_to_255():
    for bad in ([[256]], [["#"]], [[1.5]], [[-1]]):
        with pytest.raises(ValueError, match="cells must be ints in 0..255"):
            merge_tiles(bad)
