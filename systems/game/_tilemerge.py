"""Tile merge: cover a grid of solid tiles with the fewest rectangles.

Pure functions on a grid of cells (no esper, no pygame). A level's collision
geometry built one collider per tile costs the broad phase a body per tile;
merged, a 200×50 map drops from thousands of colliders to a few hundred.

The merge is exact, not merely greedy. A region of tiles is a rectilinear
polygon (with holes); its minimum partition into rectangles is found by
drawing a largest set of non-crossing *good chords* (axis-aligned cuts inside
the region joining two concave corners, each of which removes two concave
corners at once), then cutting every concave corner left once, horizontally,
until the cut meets the boundary or an earlier cut (Lipski, Lodi, Luccio,
Mugnai and Pagli, "On two-dimensional data organization II", 1979; Ohtsuki,
"Minimum dissection of rectilinear regions", 1982). The largest set of
non-crossing chords is a maximum independent set in the bipartite graph of
horizontal chords crossing vertical ones, read off a maximum matching by
König's theorem (Eppstein, "Graph-theoretic solutions to computational
geometry problems", 2009). Cutting horizontally by preference turns floors
into long strips. A greedy merge of tile runs gives the same count on an L,
a staircase or a room with holes, but not on a T on its side (3 instead of 2).

A grid point (x, y) is the corner shared by cells (x-1, y-1), (x, y-1),
(x-1, y) and (x, y); x counts columns, y rows, both from 0 at the top-left.

Cells carry a label, an int in 1..255 (0 is empty): a region is a connected
set of cells of one label, and regions of different labels are partitioned
apart, so a rectangle never holds two labels (tiles of different collision
layers never merge). Each stage is linear in the grid plus the chords'
length, except the matching, whose breadth-first searches stay inside one
component of crossing chords (small in caves and levels alike).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

__all__ = ["TileRect", "merge_tiles"]

#: (column, row, width, height) in tiles.
TileRect = tuple[int, int, int, int]
Point = tuple[int, int]
#: (axis, fixed coordinate, low end, high end): axis 0 is a horizontal chord
#: on row line ``fixed`` from x = low to high, axis 1 a vertical one.
Chord = tuple[int, int, int, int]


class _Grid:
    """Labelled cells with an empty border, so lookups never leave the array."""

    def __init__(self, solid: Sequence[Sequence[object]]) -> None:
        self.rows = len(solid)
        self.columns = max((len(row) for row in solid), default=0)
        self.stride = self.columns + 2
        self.cells = bytearray(self.stride * (self.rows + 2))
        for y, row in enumerate(solid):
            base = (y + 1) * self.stride + 1
            try:  # ints (and bools) 0..255 are copied as they are, in C
                labels = bytes(row)  # type: ignore[arg-type]
            except (TypeError, ValueError):
                labels = b""
            if len(labels) != len(row):  # not ints, out of range, or a buffer of wider items
                raise ValueError(f"cells must be ints in 0..255 (0 empty) or bools; row {y} is {row!r}")
            self.cells[base:base + len(row)] = labels

    def edge(self, point: Point, axis: int, direction: int) -> tuple[int, int, int]:
        """The unit edge from ``point`` one step along ``axis`` in
        ``direction`` (±1), as (index of one cell beside it, offset to the
        cell on its other side, offset to the same cell of the next edge)."""
        x, y = point
        stride = self.stride
        if axis == 0:  # cells (x or x - 1, y - 1) and the one below
            return y * stride + (x if direction > 0 else x - 1) + 1, stride, direction
        return (y if direction > 0 else y - 1) * stride + stride + x, 1, direction * stride  # (x - 1, …), (x, …)

    def interior(self, point: Point, axis: int, direction: int, label: int) -> bool:
        """Whether that edge has cells of ``label`` on both sides (lies
        inside that label's region)."""
        index, across, _ = self.edge(point, axis, direction)
        return self.cells[index] == label == self.cells[index + across]


def _step(point: Point, axis: int, direction: int) -> Point:
    return (point[0] + direction, point[1]) if axis == 0 else (point[0], point[1] + direction)


#: A concave corner: (dx, dy), the direction (±1, ±1) of the one cell around
#: it that is not of its region, and the region's label.
Corner = tuple[int, int, int]


def _concave_corners(grid: _Grid) -> dict[Point, Corner]:
    """Concave corners: points where three of the four cells around share a
    label (not empty) and the fourth has another."""
    corners: dict[Point, Corner] = {}
    cells, stride = grid.cells, grid.stride
    for y in range(grid.rows + 1):
        row = y * stride  # index of cell (-1, y - 1): the top-left of point (0, y)
        for x in range(grid.columns + 1):
            top_left, top_right = cells[row + x], cells[row + x + 1]
            bottom_left, bottom_right = cells[row + stride + x], cells[row + stride + x + 1]
            if top_left == top_right == bottom_left == bottom_right:
                continue  # the common case: inside a region or in empty space
            # Three alike: the odd one out is the cell unlike both of its neighbours.
            label = top_left if top_left in (top_right, bottom_left) else top_right
            if label == 0 or (top_left, top_right, bottom_left, bottom_right).count(label) != 3:
                continue
            corners[(x, y)] = (1 if label != top_right or label != bottom_right else -1,
                               1 if label != bottom_left or label != bottom_right else -1, label)
    return corners


def _walk(grid: _Grid, start: Point, axis: int, direction: int, label: int) -> Point:
    """Follow the inside of the ``label`` region from ``start`` along
    ``axis`` until the next edge would leave it; return where it stops."""
    cells = grid.cells
    index, across, step = grid.edge(start, axis, direction)
    count = 0
    while cells[index] == label == cells[index + across]:
        index += step
        count += 1
    return (start[0] + count * direction, start[1]) if axis == 0 else (start[0], start[1] + count * direction)


def _good_chords(grid: _Grid, corners: dict[Point, Corner]) -> list[Chord]:
    """Cuts inside a region joining two of its concave corners, each found once."""
    chords = []
    for corner in sorted(corners):
        empty = corners[corner]
        for axis in (0, 1):
            end = _walk(grid, corner, axis, -empty[axis], empty[2])
            if end in corners and end > corner:
                low, high = sorted((corner[axis], end[axis]))
                chords.append((axis, corner[1 - axis], low, high))
    return chords


def _independent_chords(chords: list[Chord]) -> list[Chord]:
    """A largest set of pairwise non-crossing chords (König's theorem)."""
    horizontal = [c for c in chords if c[0] == 0]
    vertical = [c for c in chords if c[0] == 1]
    # Every grid point of a vertical chord, to the chord: no concave corner lies
    # inside a chord (all four cells around an inner point are solid), so
    # chords on one line never share a point and this is as large as their
    # total length. A horizontal chord then finds its crossings point by point,
    # in time linear in its length instead of in the number of vertical chords.
    at: dict[Point, int] = {}
    for index, (_, x, low, high) in enumerate(vertical):
        for y in range(low, high + 1):
            at[(x, y)] = index
    edges = [[at[(x, y)] for x in range(low, high + 1) if (x, y) in at] for _, y, low, high in horizontal]
    match_h: list[int | None] = [None] * len(horizontal)
    match_v: list[int | None] = [None] * len(vertical)
    for h in range(len(horizontal)):
        _augment(h, edges, match_h, match_v)
    # König: vertices reachable from unmatched horizontals by alternating paths.
    seen_h = {h for h in range(len(horizontal)) if match_h[h] is None}
    seen_v: set[int] = set()
    queue = deque(sorted(seen_h))
    while queue:
        for v in edges[queue.popleft()]:
            partner = match_v[v]
            if v not in seen_v:
                seen_v.add(v)
                if partner is not None and partner not in seen_h:
                    seen_h.add(partner)
                    queue.append(partner)
    return ([horizontal[h] for h in sorted(seen_h)]
            + [vertical[v] for v in range(len(vertical)) if v not in seen_v])


# Augmenting path by breadth-first search (Kuhn's bipartite matching).
def _augment(start: int, edges: list[list[int]], match_h: list[int | None],
             match_v: list[int | None]) -> None:
    """Extend the matching by one pair through ``start`` if a path exists."""
    parent: dict[int, int] = {}  # vertical -> horizontal it was reached from
    queue = deque([start])
    while queue:
        h = queue.popleft()
        for v in edges[h]:
            if v in parent:
                continue
            parent[v] = h
            partner = match_v[v]
            if partner is None:
                while True:  # flip the path back to start
                    h = parent[v]
                    previous = match_h[h]
                    match_h[h], match_v[v] = v, h
                    if previous is None:
                        return
                    v = previous
            queue.append(partner)


class _Cuts:
    """Unit edges cut so far, and the grid points they touch."""

    def __init__(self) -> None:
        self.edges: tuple[set[Point], set[Point]] = (set(), set())
        self.points: set[Point] = set()

    def add(self, point: Point, axis: int, direction: int) -> Point:
        """Cut the unit edge from ``point`` along ``axis``; return its far end."""
        end = _step(point, axis, direction)
        self.edges[axis].add(min(point, end))
        self.points.add(point)
        self.points.add(end)
        return end

    def blocked(self, cell: Point, axis: int) -> bool:
        """Whether a cut separates ``cell`` from its next cell along ``axis``."""
        x, y = cell
        return (x + 1, y) in self.edges[1] if axis == 0 else (x, y + 1) in self.edges[0]


def _cut(grid: _Grid, corners: dict[Point, Corner]) -> _Cuts:
    """The chords, then one horizontal cut from every corner still concave."""
    cuts = _Cuts()
    for axis, fixed, low, high in _independent_chords(_good_chords(grid, corners)):
        point = (low, fixed) if axis == 0 else (fixed, low)
        for _ in range(high - low):
            point = cuts.add(point, axis, 1)
    for corner in sorted(corners, key=lambda p: (p[1], p[0])):
        if corner in cuts.points:
            continue  # a cut already ends here: the corner is split
        direction, point, label = -corners[corner][0], corner, corners[corner][2]
        while True:
            stop = _step(point, 0, direction) in cuts.points
            point = cuts.add(point, 0, direction)
            if stop or not grid.interior(point, 0, direction, label):
                break
    return cuts


# Minimum partition of a rectilinear region into rectangles (see the module docstring).
def merge_tiles(solid: Sequence[Sequence[object]]) -> list[TileRect]:
    """The fewest rectangles covering exactly the non-empty cells of ``solid``,
    each rectangle holding cells of one label.

    ``solid`` is a list of rows (row 0 at the top), each a sequence of cells:
    ints in 0..255 (0 empty; equal labels merge) or bools (True is label 1);
    rows may differ in length. Returns (column, row, width, height) in tiles,
    in reading order of their top-left cells; rectangles never overlap. The
    label of a rectangle is that of its top-left cell.
    """
    grid = _Grid(solid)
    cuts = _cut(grid, _concave_corners(grid))
    cells, stride = grid.cells, grid.stride
    taken = bytearray(len(cells))
    rects = []
    for y in range(grid.rows):
        base = (y + 1) * stride + 1  # index of cell (0, y)
        for x in range(grid.columns):
            label = cells[base + x]
            if not label or taken[base + x]:
                continue
            width = 1
            while not cuts.blocked((x + width - 1, y), 0) and cells[base + x + width] == label:
                width += 1
            height = 1
            while not cuts.blocked((x, y + height - 1), 1) and cells[base + x + height * stride] == label:
                height += 1
            for row in range(height):
                start = base + row * stride + x
                taken[start:start + width] = b"\x01" * width
            rects.append((x, y, width, height))
    return rects
