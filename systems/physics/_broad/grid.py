"""Broad phase: a uniform grid of square cells, and a list of large boxes.

The grid follows Metanet, *N Tutorial A: Collision Detection and Response*.
A box covering a few cells is filed in each of them; a pair sharing several
cells is reported only from the cell holding the top-left corner of their
intersection, so no set of seen pairs is needed and the order depends only on
the history of inserts: it is deterministic. A box covering more than
``LARGE_SPAN`` cells (a long level floor, a body crossing half the level in
one step) is kept in a separate list instead, and is paired with the small
boxes by walking the occupied cells it overlaps, or its own cells, whichever
are fewer. So no cost, in time or memory, grows with a box's area or a
body's speed.

Every pair that overlaps or touches is reported, however many boxes share a
cell (a mover over 2,000 coins), with one bound, for piles (see ``PILE``).
A cell holding more than ``CROWD`` boxes that are not level geometry is not
tested pair by pair: its boxes are sorted into kinds that are never paired with each other (STATICs,
level geometry, TRIGGERs) and each two kinds that may meet are swept along
x (sort and sweep, as in Baraff, *Dynamic Simulation of Non-penetrating
Rigid Bodies*), so the work is the pairs found plus the pairs whose x
ranges overlap, never the square of the cell's crowd.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Collection, Iterable, Iterator
from itertools import chain

import numpy as np

from systems.physics._shapes.geometry import Box

__all__ = ["SpatialGrid", "choose_cell_size", "CROWD", "LARGE_SPAN", "PILE"]

Cell = tuple[int, int]
Span = tuple[int, int, int, int]

#: Cells a box may cover and still be filed in the grid; larger ones go to
#: the list of large boxes.
LARGE_SPAN = 32

#: A cell holding more boxes than this that are not fixed is swept (see the
#: module's docstring) instead of testing every two of its boxes: in a cell
#: of a few boxes the plain double loop is cheaper than sorting.
CROWD = 12

#: A pile: a cell where more than CROWD ordinary movers (not STATIC, TRIGGER
#: nor level geometry) have areas (each counted up to one cell's) adding up
#: to more than PILE cells. Boxes that don't overlap can't do that (any box
#: no larger than a cell that touches the cell lies within the 3 × 3 cells
#: around it), so only bodies spawned or crushed on top of each other make
#: one, and no cell size can split them. Every two of n such bodies overlap:
#: n²/2 pairs, and push-out costs some 40 µs a pair (2,000 boxes on one spot:
#: 83 s for the first step). So in a pile each ordinary mover is paired with
#: the next CROWD along a ring whose order is shuffled anew every step (every
#: pair comes round, and the pile spreads out over a few steps, each costing
#: O(n·CROWD)); every pair with a STATIC, a TRIGGER or level geometry is
#: still reported, and once spread every pair is.
PILE = 9.0

#: While the cells wait to be brought up to date, ``load`` and ``query``
#: answer from a snapshot of every box (see ``SpatialGrid.snapshot``) as
#: long as the boxes looked at that way stay under SNAPSHOT_REACH times the
#: filings waiting. Measured in the arena at n = 10,000: a ``load`` over the
#: snapshot takes 0.11 ms, a ``query`` 0.035 ms, and bringing the cells up
#: to date 0.86 µs a filing (8.6 ms): one answer costs about as much as
#: filing n / 80 boxes, so the answers cost at most a fifth of the filing
#: they put off, and a step that queries a lot still ends up with cells.
SNAPSHOT_REACH = 16


# Cell size from the typical body: four times the median extent of the movers.
def choose_cell_size(extents: Iterable[float], default: float = 64.0) -> float:
    """A cell size (px) four times the median of ``extents``, at least 4 px.

    Boxes larger than a cell still work (they sit in several cells, or in the
    list of large boxes); this only keeps the number of boxes per cell small
    for the common case; four times (rather than one) files a typical mover
    and its sweep under a single cell, which measured fastest in the arena
    benchmark.
    """
    ordered = sorted(extents)
    if not ordered:
        return default
    return max(4.0, 4.0 * ordered[len(ordered) // 2])


def _span(box: Box, size: float) -> Span:
    """First and last column and row of the cells a box covers."""
    x, y, w, h = box
    floor = math.floor
    return floor(x / size), floor(y / size), floor((x + w) / size), floor((y + h) / size)


def _area(span: Span) -> int:
    """Number of cells in a span."""
    return (span[2] - span[0] + 1) * (span[3] - span[1] + 1)


def _morton(x: int, y: int) -> int:
    """Z-order (Morton) key of a cell of a fine lattice: nearby points get
    nearby keys (bits of x and y interleaved; 16 bits of each)."""
    key = 0
    for bit in range(16):
        key |= ((x >> bit) & 1) << (2 * bit) | ((y >> bit) & 1) << (2 * bit + 1)
    return key


def _touch(a: Box, b: Box) -> bool:
    """Whether two boxes overlap or touch."""
    return a[0] <= b[0] + b[2] and b[0] <= a[0] + a[2] and a[1] <= b[1] + b[3] and b[1] <= a[1] + a[3]


class SpatialGrid:
    """Boxes filed under the grid cells they cover; ``cell_size`` in px.

    The grid persists from step to step: ``insert`` of an entity already
    filed only re-files it when the cells it covers change, which for most
    moving bodies they don't, so a step allocates little; and it does so
    only when the cells are next read (``pairs``, ``query``, ``load``,
    ``filed_at`` or the cell maps), so a step that never reads them pays
    a dict entry per body. ``remove`` drops an entity that is gone.
    ``boxes`` holds every box, small and large.

    Boxes filed together (``insert_many``) are kept as the array they
    come in until something reads them one by one (``boxes``, the cells):
    a step whose pairs and sweeps are compiled looks up a few of them at
    most (``box_of``, ``boxes_of``), and turning 10,000 rows into tuples
    in a dict takes about 3 ms.

    Boxes inserted as ``fixed`` (level geometry) are kept apart, in
    ``fixed_cells`` and ``fixed_large`` (their entities in ``fixed``), and
    never paired with each other: ``pairs``
    walks only the cells that hold a box that is not fixed, so a level's
    tiles cost nothing while nothing moves near them (as Box2D keeps static
    bodies in a tree of their own).
    """

    def __init__(self, cell_size: float) -> None:
        if not (cell_size > 0 and math.isfinite(cell_size)):
            raise ValueError(f"cell_size must be a finite number > 0, got {cell_size!r}")
        self.cell_size = cell_size
        self._boxes: dict[int, Box] = {}
        # Filed by the last ``insert_many`` and not yet in ``_boxes``: its
        # entities (ascending, each already a key of ``_boxes``) and boxes.
        self._bulk: tuple[np.ndarray, np.ndarray] | None = None
        self._bulk_apart = True  # whether none of the bulk's entities is in ``fixed``
        self.fixed: set[int] = set()
        self._cells: dict[Cell, list[int]] = {}
        self._fixed_cells: dict[Cell, list[int]] = {}
        self._spans: dict[int, Span] = {}
        self._large: dict[int, Box] = {}
        self._fixed_large: dict[int, Box] = {}
        self._filed_fixed: set[int] = set()  # ``fixed`` as the cells hold it
        self._pending: dict[int, None] = {}  # inserted since the cells were last brought up to date
        self._snapshot: _Snapshot | None = None

    def insert(self, entity: int, box: Box, fixed: bool = False) -> None:
        """File (or re-file) ``entity`` under every cell ``box`` covers, or
        in the list of large boxes; ``fixed`` for level geometry. ``boxes``
        and ``fixed`` change at once, the cells when next read (a step whose
        pairs come from ``systems.physics._kernels.pairs`` reads them only if something
        queries the grid)."""
        self._fold()
        self._boxes[entity] = box
        if fixed:
            self.fixed.add(entity)
        else:
            self.fixed.discard(entity)
        self._pending[entity] = None
        self._snapshot = None

    def insert_many(self, keys: np.ndarray | list[int], boxes: np.ndarray, fixed: list[int]) -> None:
        """``insert`` each of the entities ``keys`` in turn under its row of
        ``boxes`` (an (n, 4) array, px); ``fixed``: those of them that are
        level geometry (usually none)."""
        keys = np.asarray(keys, np.int64)
        joined = self._join_bulk(keys, boxes)
        if joined and not fixed and self._bulk_apart:  # (the same movers again: nothing else to note)
            self._snapshot = None
            return
        entities = keys.tolist()
        if not joined:
            self._fold()
            # The usual case, every entity filed before and in entity order:
            # kept as a bulk, with the dict's keys and their order as they are.
            if len(keys) and (keys[1:] > keys[:-1]).all() and all(map(self._boxes.__contains__, entities)):
                self._bulk, self._bulk_apart = (keys, np.array(boxes, float)), not fixed
            else:
                columns = (boxes[:, column].tolist() for column in range(4))  # a column at a time, as tuples
                self._boxes.update(zip(entities, zip(*columns)))
        self.fixed.difference_update(entities)
        self.fixed.update(fixed)
        self._bulk_apart = self._bulk_apart and not fixed
        if not joined:  # (a bulk's entities wait in ``_pending`` until it is folded, which comes first)
            self._pending.update(dict.fromkeys(entities))
        self._snapshot = None

    def _join_bulk(self, keys: np.ndarray, boxes: np.ndarray) -> bool:
        """Write ``boxes`` into the bulk's rows if every one of ``keys`` is
        in it (a body filed wider later in the step); whether they were."""
        if self._bulk is None:
            return False
        filed, table = self._bulk
        if len(keys) == len(filed) and (keys == filed).all():  # the usual case: the same movers again
            table[:] = boxes
            return True
        rows, found = self._bulk_rows(keys)
        if not found.all():
            return False
        table[rows] = boxes
        return True

    def _bulk_rows(self, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The bulk's row for each of ``keys`` (binary search: its entities
        ascend), and whether each is in the bulk at all."""
        assert self._bulk is not None
        filed = self._bulk[0]
        rows = np.minimum(np.searchsorted(filed, keys), len(filed) - 1)
        return rows, filed[rows] == keys

    def _fold(self) -> None:
        """Move the bulk's boxes into ``_boxes`` (their keys are there: the
        dict keeps its order)."""
        if self._bulk is not None:
            keys, table = self._bulk
            self._bulk = None
            columns = (table[:, column].tolist() for column in range(4))
            self._boxes.update(zip(keys.tolist(), zip(*columns)))

    @property
    def boxes(self) -> dict[int, Box]:
        """Every filed box, small and large (px), by entity."""
        self._fold()
        return self._boxes

    def box_of(self, entity: int) -> Box:
        """``boxes[entity]``, without moving the bulk into the dict."""
        if self._bulk is not None:
            rows, found = self._bulk_rows(np.array([entity]))
            if found[0]:
                x, y, w, h = self._bulk[1][rows[0]].tolist()
                return x, y, w, h
        return self._boxes[entity]

    def boxes_of(self, entities: np.ndarray) -> np.ndarray:
        """The boxes of ``entities`` (px), an (n, 4) array in their order."""
        found = np.fromiter(chain.from_iterable(map(self._boxes.__getitem__, entities.tolist())), float,
                            4 * len(entities)).reshape(-1, 4)
        if self._bulk is not None:
            rows, bulk = self._bulk_rows(entities)
            found[bulk] = self._bulk[1][rows[bulk]]
        return found

    def snapshot(self, entities: np.ndarray, boxes: np.ndarray) -> None:
        """Hand the grid every box it holds as arrays: ``entities`` (n,)
        ascending, and their ``boxes`` (n, 4, px), equal to ``self.boxes``.
        Until the next ``insert`` or ``remove``, ``load`` and ``query`` may
        answer from them instead of bringing the cells up to date (see
        ``SNAPSHOT_REACH``): a step whose pairs came from
        ``systems.physics._kernels.pairs`` queries the grid a few times at most."""
        if len(entities) != len(self._boxes):  # (a bulk's entities are keys of ``_boxes``)
            raise ValueError(f"a snapshot must hold every box: {len(entities)} given, {len(self._boxes)} filed")
        self._snapshot = _Snapshot(entities, boxes, self.cell_size)

    def _answers_from_snapshot(self) -> _Snapshot | None:
        """The snapshot, if the next ``load`` or ``query`` should answer
        from it (filings wait, and it has looked at few boxes so far)."""
        snapshot = self._snapshot
        if snapshot is None or not self._pending or snapshot.looked > SNAPSHOT_REACH * len(self._pending):
            return None
        snapshot.looked += len(snapshot.entities)
        return snapshot

    def _flush(self) -> None:
        """File the boxes inserted since the last flush under their cells."""
        if self._pending:
            boxes = self.boxes
            for entity in self._pending:
                self._file(entity, boxes[entity], entity in self.fixed)
            self._pending.clear()

    @property
    def cells(self) -> dict[Cell, list[int]]:
        """Entities filed under each cell (boxes not fixed nor large)."""
        self._flush()
        return self._cells

    @property
    def fixed_cells(self) -> dict[Cell, list[int]]:
        """Entities of fixed boxes filed under each cell (not the large ones)."""
        self._flush()
        return self._fixed_cells

    @property
    def large(self) -> dict[int, Box]:
        """The large boxes that are not fixed."""
        self._flush()
        return self._large

    @property
    def fixed_large(self) -> dict[int, Box]:
        """The large fixed boxes."""
        self._flush()
        return self._fixed_large

    def _file(self, entity: int, box: Box, fixed: bool) -> None:
        """File ``entity`` under the cells of ``box`` (``insert``, carried out)."""
        span = _span(box, self.cell_size)
        old = self._spans.get(entity)
        if old == span and (entity in self._filed_fixed) is fixed:  # the usual case: same cells
            large = self._fixed_large if fixed else self._large
            if entity in large:
                large[entity] = box
            return
        cells, large = (self._fixed_cells, self._fixed_large) if fixed else (self._cells, self._large)
        if old is not None:
            self._unfile(entity, old)
        self._spans[entity] = span
        if fixed:
            self._filed_fixed.add(entity)
        if _area(span) > LARGE_SPAN:
            large[entity] = box
            return
        for cx in range(span[0], span[2] + 1):
            for cy in range(span[1], span[3] + 1):
                members = cells.get((cx, cy))
                if members is None:
                    cells[(cx, cy)] = [entity]
                else:
                    members.append(entity)

    def remove(self, entity: int) -> None:
        """Forget ``entity``."""
        self._snapshot = None
        self._fold()
        self._pending.pop(entity, None)
        self.fixed.discard(entity)
        self._boxes.pop(entity, None)
        span = self._spans.pop(entity, None)
        if span is not None:
            self._unfile(entity, span)

    def _unfile(self, entity: int, span: Span) -> None:
        fixed = entity in self._filed_fixed
        self._filed_fixed.discard(entity)
        cells, large = (self._fixed_cells, self._fixed_large) if fixed else (self._cells, self._large)
        if large.pop(entity, None) is not None:
            return
        for cx in range(span[0], span[2] + 1):
            for cy in range(span[1], span[3] + 1):
                members = cells[(cx, cy)]
                members.remove(entity)
                if not members:
                    del cells[(cx, cy)]

    def filed_at(self, cell: Cell) -> Iterator[int]:
        """The entities filed in ``cell`` (not the large ones)."""
        self._flush()
        yield from self._cells.get(cell, ())
        yield from self._fixed_cells.get(cell, ())

    def pairs(self, skip: Collection[int] = (), shuffle: int = 0,
              apart: Collection[int] = ()) -> list[tuple[int, int]]:
        """Every pair (a, b), a < b, whose boxes overlap or touch, each once,
        except pairs with both entities in ``skip`` (e.g. two STATICs), both
        in ``apart`` (e.g. two TRIGGERs: such pairs cost nothing, however
        many share a cell) or both fixed; in a pile (see ``PILE``), of the
        pairs of two ordinary movers a subset chosen by ``shuffle`` (e.g.
        the step number)."""
        self._flush()
        found: list[tuple[int, int]] = []
        piled: set[tuple[int, int]] = set()
        boxes = self.boxes
        size = self.cell_size
        floor = math.floor
        fixed_cells = self._fixed_cells
        for (cx, cy), members in self._cells.items():
            fixed = fixed_cells.get((cx, cy)) if fixed_cells else None
            count = len(members)
            if count < 2 and fixed is None:
                continue
            if count > CROWD:  # (with a few movers, fixed boxes cost one test per mover each: no sweep needed)
                kinds = _kinds(boxes, members, fixed or [], (skip, apart))
                _crowd_pairs(boxes, (cx, cy), size, kinds, shuffle, found, piled)
                continue
            everyone = members + fixed if fixed else members  # movers first: a is never fixed
            total = len(everyone)
            for i in range(count if fixed else count - 1):
                a = everyone[i]
                ax, ay, aw, ah = boxes[a]
                a_right, a_bottom = ax + aw, ay + ah
                for j in range(i + 1, total):
                    b = everyone[j]
                    bx, by, bw, bh = boxes[b]
                    # Overlap test written out: this loop runs for every pair in a cell.
                    if bx > a_right or ax > bx + bw or by > a_bottom or ay > by + bh:
                        continue
                    left = ax if ax > bx else bx
                    top = ay if ay > by else by
                    if floor(left / size) != cx or floor(top / size) != cy:
                        continue
                    if not (a in skip and b in skip) and not (a in apart and b in apart):
                        found.append((a, b) if a < b else (b, a))
        if piled:  # pairs of a pile come from a set: order them, and drop repeats
            found = sorted(piled.union(found))
        if self._large or self._fixed_large:
            found += self._large_pairs(skip, apart)
        return found

    def load(self, box: Box) -> int:
        """How many filed boxes a ``query`` of ``box`` would look at."""
        snapshot = self._answers_from_snapshot()
        if snapshot is not None:
            return snapshot.load(_span(box, self.cell_size))
        self._flush()
        span = _span(box, self.cell_size)
        return (sum(len(members) for cells in (self._cells, self._fixed_cells) if cells
                    for _, members in _cells_within(cells, span)) + len(self._large) + len(self._fixed_large))

    def _large_pairs(self, skip: Collection[int], apart: Collection[int]) -> list[tuple[int, int]]:
        """Pairs with at least one large box, not both fixed nor both in
        ``skip`` or in ``apart``: large with
        small, each found once (from the cell holding the top-left corner of
        the two boxes' intersection, as for small pairs), then large with
        large."""
        found: list[tuple[int, int]] = []
        boxes, size, floor = self.boxes, self.cell_size, math.floor
        sweeps = [(large, box, cells) for large, box in self._large.items()
                  for cells in (self._cells, self._fixed_cells)]
        sweeps += [(large, box, self._cells) for large, box in self._fixed_large.items()]
        for large, box, cells in sweeps:
            for (cx, cy), members in _cells_within(cells, self._spans[large]):
                for other in members:
                    ox, oy, _, _ = other_box = boxes[other]
                    if _kept_apart(large, other, (skip, apart)) or not _touch(box, other_box):
                        continue
                    if floor(max(box[0], ox) / size) == cx and floor(max(box[1], oy) / size) == cy:
                        found.append((large, other) if large < other else (other, large))
        ordered = list(self._large.items())
        for i, (a, box_a) in enumerate(ordered):
            for b, box_b in ordered[i + 1:] + list(self._fixed_large.items()):
                if not _kept_apart(a, b, (skip, apart)) and _touch(box_a, box_b):
                    found.append((a, b) if a < b else (b, a))
        return found

    def query(self, box: Box) -> list[int]:
        """Entities whose boxes overlap or touch ``box``, in ascending order."""
        snapshot = self._answers_from_snapshot()
        if snapshot is not None:
            return snapshot.query(box)
        self._flush()
        x, y, w, h = box
        right, bottom = x + w, y + h
        hits: set[int] = set()
        boxes = self.boxes
        span = _span(box, self.cell_size)
        for cells in (self._cells, self._fixed_cells):
            if not cells:
                continue
            for _, members in _cells_within(cells, span):
                for entity in members:
                    ox, oy, ow, oh = boxes[entity]
                    if ox <= right and x <= ox + ow and oy <= bottom and y <= oy + oh:
                        hits.add(entity)
        for large in (self._large, self._fixed_large):
            for entity, (ox, oy, ow, oh) in large.items():
                if ox <= right and x <= ox + ow and oy <= bottom and y <= oy + oh:
                    hits.add(entity)
        return sorted(hits)


def _kept_apart(a: int, b: int, groups: tuple[Collection[int], ...]) -> bool:
    """Whether ``a`` and ``b`` are both in one of ``groups`` (never paired)."""
    return any(a in group and b in group for group in groups)


def _kinds(boxes: dict[int, Box], members: list[int], fixed: list[int],
           groups: tuple[Collection[int], ...]) -> dict[int, list[tuple[float, int]]]:
    """A crowded cell's boxes by kind (a bit per group they are in, and one
    for ``fixed``), each kind as (left edge, entity) sorted."""
    kinds: dict[int, list[tuple[float, int]]] = {}
    for flag, entities in ((0, members), (1 << len(groups), fixed)):
        for entity in entities:
            kind = flag
            for bit, group in enumerate(groups):
                if entity in group:
                    kind |= 1 << bit
            kinds.setdefault(kind, []).append((boxes[entity][0], entity))
    for sweep in kinds.values():
        sweep.sort()
    return kinds


def _crowd_pairs(boxes: dict[int, Box], cell: Cell, size: float, kinds: dict[int, list[tuple[float, int]]],
                 shuffle: int, found: list[tuple[int, int]], piled: set[tuple[int, int]]) -> None:
    """Add to ``found`` the pairs a crowded cell reports (see the module's
    docstring): each two ``kinds`` that share no bit swept against each
    other (``_sweep_pairs``); in a pile (``PILE``) the ordinary movers
    (kind 0) paired along a ring instead, added to ``piled`` (the pile's
    other cells may find them again)."""
    order = sorted(kinds)
    for i, first in enumerate(order):
        for second in order[i:]:
            if first & second or (first == second and first):  # a kind pairs with itself only if in no group
                continue
            if first == second and _is_pile(boxes, kinds[0], size):
                piled.update(_ring_pairs(boxes, [entity for _, entity in kinds[0]], size, shuffle))
            elif first == second:
                _sweep_pairs(boxes, kinds[first], None, cell, size, found)
            else:
                _sweep_pairs(boxes, kinds[first], kinds[second], cell, size, found)


def _is_pile(boxes: dict[int, Box], movers: list[tuple[float, int]], size: float) -> bool:
    """Whether a cell's ordinary ``movers`` make a pile (see ``PILE``)."""
    cell_area = size * size
    return len(movers) > CROWD and sum(min(boxes[e][2] * boxes[e][3], cell_area) for _, e in movers) > PILE * cell_area


def _ring_pairs(boxes: dict[int, Box], movers: list[int], size: float, shuffle: int) -> list[tuple[int, int]]:
    """A pile's pairs of ordinary movers (see ``PILE``): each with the next
    CROWD along the Z-order curve of their centres (spatial neighbours, so
    mostly overlapping pairs); movers on one spot are ordered by a hash of
    the entity and ``shuffle``, so that every pair of them comes round over
    the steps. Only pairs that touch."""
    step = size / 16.0

    def key(entity: int) -> tuple[int, int, int]:
        x, y, w, h = boxes[entity]
        spread = (entity * 2654435761 + shuffle * 40503) & 0xFFFFFFFF
        return _morton(int((x + w / 2) // step), int((y + h / 2) // step)), spread, entity

    ring = sorted(movers, key=key)
    count = len(ring)
    reach = min(CROWD, count - 1)
    candidates = [(ring[i], ring[i + d]) for i in range(count) for d in range(1, reach + 1) if i + d < count]
    return [(a, b) if a < b else (b, a) for a, b in candidates if _touch(boxes[a], boxes[b])]


def _sweep_pairs(boxes: dict[int, Box], first: list[tuple[float, int]], second: list[tuple[float, int]] | None,
                 cell: Cell, size: float, found: list[tuple[int, int]]) -> None:
    """Add to ``found`` the pairs that touch, with the top-left corner of
    their intersection in ``cell``: within ``first`` if ``second`` is None,
    else one of each; both sorted by (left edge, entity). Each pair is met
    from the box whose left edge comes first (ties: the one in ``first``),
    looking only at the boxes whose left edge lies within its x range, so
    the work is the pairs whose x ranges overlap (plus a binary search a
    box with ``second``)."""
    floor = math.floor
    cx, cy = cell
    sweeps = [(first, first, None)] if second is None else [(first, second, bisect_left), (second, first, bisect_right)]
    for ones, others, after in sweeps:
        lefts = [left for left, _ in others] if after is not None else []
        for i, (ax, a) in enumerate(ones):
            _, ay, aw, ah = boxes[a]
            right, bottom = ax + aw, ay + ah
            j, end = (i + 1, len(others)) if after is None else (after(lefts, ax), bisect_right(lefts, right))
            while j < end:
                bx, b = others[j]  # (bx ≥ ax: the intersection's left edge)
                if after is None and bx > right:
                    break
                j += 1
                _, by, _, bh = boxes[b]
                if by > bottom or ay > by + bh or floor(bx / size) != cx or floor((ay if ay > by else by) / size) != cy:
                    continue
                found.append((a, b) if a < b else (b, a))


def _cells_within(cells: dict[Cell, list[int]], span: Span) -> Iterator[tuple[Cell, list[int]]]:
    """The occupied ``cells`` inside ``span``: by walking the span's cells
    or the occupied ones, whichever are fewer (in a stable order)."""
    if _area(span) <= len(cells):
        for cx in range(span[0], span[2] + 1):
            for cy in range(span[1], span[3] + 1):
                members = cells.get((cx, cy))
                if members is not None:
                    yield (cx, cy), members
        return
    for cell, members in cells.items():
        if span[0] <= cell[0] <= span[2] and span[1] <= cell[1] <= span[3]:
            yield cell, members


class _Snapshot:
    """Every box of a grid as arrays, answering ``load`` and ``query`` as
    the grid's cells would once brought up to date: a box is filed under
    the cells of its span, or with the large boxes."""

    def __init__(self, entities: np.ndarray, boxes: np.ndarray, cell_size: float) -> None:
        self.entities = entities
        self.boxes = boxes
        self.cell_size = cell_size
        self.looked = 0  # boxes looked at by the answers given
        self._spans: tuple[np.ndarray, np.ndarray] | None = None  # made by the first load

    def load(self, span: Span) -> int:
        """SpatialGrid.load: the cells of ``span`` each box shares, the
        large boxes once each."""
        if self._spans is None:  # _span and _area, with the same float operations, for every box
            boxes = self.boxes
            spans = np.floor(np.column_stack((boxes[:, :2], boxes[:, :2] + boxes[:, 2:])) / self.cell_size)
            self._spans = spans, (spans[:, 2] - spans[:, 0] + 1) * (spans[:, 3] - spans[:, 1] + 1) > LARGE_SPAN
        spans, large = self._spans
        shared = np.ones(len(self.entities))
        for axis in (0, 1):  # cells in common along this axis
            low = np.maximum(spans[:, axis], span[axis])
            shared *= np.clip(np.minimum(spans[:, axis + 2], span[axis + 2]) - low + 1, 0, None)
        return int(shared[~large].sum()) + int(large.sum())

    def query(self, box: Box) -> list[int]:
        """SpatialGrid.query: the entities whose boxes overlap or touch ``box``."""
        x, y, w, h = box
        boxes = self.boxes
        hit = ((boxes[:, 0] <= x + w) & (x <= boxes[:, 0] + boxes[:, 2])
               & (boxes[:, 1] <= y + h) & (y <= boxes[:, 1] + boxes[:, 3]))
        found: list[int] = self.entities[hit].tolist()
        return found
