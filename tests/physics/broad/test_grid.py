"""The grid broad phase finds exactly the overlapping pairs, each once; level
geometry is re-filed whenever it changes."""

import itertools

import numpy as np
import pytest
from hypothesis import given
from pygame import Vector2
from hypothesis import strategies as st

from components import ALL, Collider, ColliderType, Physics, Shape, Side, Transform
from helpers import DT, box, position, run, velocity, wall
from systems.physics._broad.grid import SpatialGrid, choose_cell_size

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



def test_a_snapshot_answers_load_and_query_by_the_cells_a_box_covers():
    # Cells of 10 px. A covers cell (0, 0); B (5..15 on both axes) cells
    # (0..1, 0..1); C (0..100 × 0..10) 11 × 2 = 22 cells, at most LARGE_SPAN
    # (32), so it is filed in them; D (-50..50 on both axes) 11 × 11 cells:
    # a large box, counted once; E (-10..0 × 0..3) cells (-1..0, 0). A probe
    # over cells (0, 0) and (1, 0) looks at A once, B twice, C twice, D once
    # and E once: 7; all five touch it (B and E only along an edge).
    grid = SpatialGrid(10.0)
    items = {1: (0.0, 0.0, 5.0, 5.0), 2: (5.0, 5.0, 10.0, 10.0), 3: (0.0, 0.0, 100.0, 10.0),
             4: (-50.0, -50.0, 100.0, 100.0), 5: (-10.0, 0.0, 10.0, 3.0)}
    for entity, b in items.items():
        grid.insert(entity, b, fixed=entity == 3)
    grid.snapshot(np.array(list(items)), np.array(list(items.values())))
    probe = (0.0, 0.0, 15.0, 5.0)
    assert (grid.load(probe), grid.query(probe)) == (7, [1, 2, 3, 4, 5])
    assert grid.query((200.0, 200.0, 1.0, 1.0)) == []
    with pytest.raises(ValueError, match="every box"):
        grid.snapshot(np.array([1]), np.array([items[1]]))


@given(st.lists(st.tuples(st.floats(-1e3, 1e3), st.floats(-1e3, 1e3), st.floats(0, 400), st.floats(0, 400),
                          st.booleans()), min_size=1, max_size=30),
       st.lists(st.tuples(st.integers(0, 29), st.floats(-1e3, 1e3), st.floats(-1e3, 1e3), st.floats(0, 60),
                          st.floats(0, 60)), max_size=10),
       st.lists(st.tuples(st.floats(-1e3, 1e3), st.floats(-1e3, 1e3), st.floats(0, 300), st.floats(0, 300)),
                min_size=1, max_size=5),
       st.sampled_from([3.0, 16.0, 100.0]))
def test_a_snapshot_answers_load_and_query_as_the_cells_do(items, moves, probes, cell):
    # A grid whose filings wait may answer from a snapshot of every box
    # (the compiled broad phase hands it one); a grid brought up to date
    # answers from its cells. Both must give the same loads (push-out's
    # re-test budget depends on them) and the same entities. Boxes up to
    # 400 px on cells of 3 px are large (over LARGE_SPAN cells); some are
    # filed once, then moved, so the cells have history.
    def filled():
        grid, current = SpatialGrid(cell), {}
        for entity, (*b, fixed) in enumerate(items, start=1):
            grid.insert(entity, tuple(b), fixed)
            current[entity] = tuple(b)
        grid.pairs()  # the cells brought up to date, before the moves
        for index, *b in moves:
            entity = index % len(items) + 1
            grid.insert(entity, tuple(b), items[entity - 1][4])
            current[entity] = tuple(b)
        return grid, current
    from_cells, current = filled()
    from_snapshot, _ = filled()
    from_snapshot.snapshot(np.array(sorted(current)), np.array([current[e] for e in sorted(current)]))
    for probe in probes:
        assert from_snapshot.load(probe) == from_cells.load(probe)
        assert from_snapshot.query(probe) == from_cells.query(probe) == [
            e for e in sorted(current) if _touch(current[e], probe)]


box_values = st.tuples(st.floats(-200, 200), st.floats(-200, 200), st.floats(0, 60), st.floats(0, 60))


@given(st.lists(box_values, min_size=1, max_size=20),
       st.lists(st.tuples(st.sampled_from(["all", "movers", "some", "one", "remove", "read"]), st.integers(0, 99),
                          box_values), max_size=12))
def test_boxes_filed_at_once_read_as_boxes_filed_one_by_one(items, operations):
    # insert_many keeps the boxes of entities filed before, in entity order,
    # as an array until something reads them one by one; a grid filed one
    # by one is the reference: after any mix of filings at once and one by
    # one, removals and reads, both hold the same boxes (in the same order),
    # cells and pairs, and the lookups that leave the array as it is agree;
    # and the same level geometry ("movers": all of them again, none fixed,
    # as a step files its movers).
    one, many = SpatialGrid(16.0), SpatialGrid(16.0)
    current = dict(enumerate(items, start=1))
    for grid in (one, many):
        for entity, b in current.items():
            grid.insert(entity, b)
    for kind, seed, (x, y, w, h) in operations:
        entities = sorted(current)
        if kind in ("all", "movers", "some"):
            chosen = entities[seed % len(entities)::2] if kind == "some" else entities
            rows = [(x + i, y - i, w, h) for i, _ in enumerate(chosen)]
            fixed = [] if kind == "movers" else [e for e in chosen if (e + seed) % 3 == 0]
            for entity, b in zip(chosen, rows):
                one.insert(entity, b, entity in fixed)
            many.insert_many(np.array(chosen), np.array(rows).reshape(-1, 4), fixed)
            current.update(zip(chosen, rows))
        elif kind == "one":
            entity = entities[seed % len(entities)]
            for grid in (one, many):
                grid.insert(entity, (x, y, w, h))
            current[entity] = (x, y, w, h)
        elif kind == "remove" and len(entities) > 1:
            entity = entities[seed % len(entities)]
            for grid in (one, many):
                grid.remove(entity)
            del current[entity]
        assert [many.box_of(e) for e in entities if e in current] == [current[e] for e in entities if e in current]
        assert many.boxes_of(np.array(sorted(current))).tolist() == [list(current[e]) for e in sorted(current)]
        assert many.fixed == one.fixed
        if kind == "read":
            assert many.boxes == one.boxes == current
    assert list(many.boxes.items()) == list(one.boxes.items())
    assert many.fixed == one.fixed
    assert [list(c) for c in many.cells.values()] == [list(c) for c in one.cells.values()]
    assert many.cells == one.cells and many.fixed_cells == one.fixed_cells
    assert many.pairs() == one.pairs()


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


@given(st.lists(st.tuples(st.floats(-1e4, 1e4), st.floats(-1e4, 1e4), sizes, sizes, st.booleans()),
                min_size=1, max_size=30),
       st.lists(st.tuples(st.integers(0, 29), st.floats(-1e4, 1e4), st.floats(-1e4, 1e4), sizes, sizes,
                          st.booleans()), max_size=10),
       st.sampled_from([3.0, 16.0, 100.0]))
def test_fixed_boxes_pair_only_with_the_others_like_brute_force(items, moves, cell):
    # Level geometry is filed apart (``fixed``) and never paired with other
    # fixed boxes; re-inserting may move a box between the two kinds and
    # between the cells and the large lists. Pairs must be exactly the
    # touching pairs with at least one box not fixed, each once; queries
    # and loads see both kinds.
    grid = SpatialGrid(cell)
    current = {}
    for entity, (*b, fixed) in enumerate(items, start=1):
        grid.insert(entity, tuple(b), fixed)
        current[entity] = (tuple(b), fixed)
    for index, *b, fixed in moves:
        entity = index % len(items) + 1
        grid.insert(entity, tuple(b), fixed)
        current[entity] = (tuple(b), fixed)
    found = grid.pairs()
    expected = [(a, b) for a, b in itertools.combinations(sorted(current), 2)
                if not (current[a][1] and current[b][1]) and _touch(current[a][0], current[b][0])]
    assert sorted(found) == expected and len(found) == len(set(found))
    probe = current[1][0]
    assert grid.query(probe) == [e for e in sorted(current) if _touch(current[e][0], probe)]
    assert grid.load(probe) >= len(grid.query(probe))
    assert grid.fixed == {e for e, (_, fixed) in current.items() if fixed}


# Level geometry (STATIC, no Physics) is compared each step and read anew
# only when something that files it changed; every kind of change, assigned
# or made in place, must reach the collision pipeline.
G = 980.0  # px/s²


def _resting_on_a_floor(make_world, x=50.0, between=False):
    """A World with gravity, a 200×20 STATIC floor whose top is at y = 100,
    and a 10 px box at x resting on it after 30 steps; optionally a system
    between Collision and Response."""
    world = make_world(gravity=(0, G))
    if between:
        world.add_system(_Idle(), priority=150)
    floor = wall(world, 0, 100, 200, 20)
    crate = box(world, x, 90)
    run(world, 30)
    return world, floor, crate


class _Idle:
    """A system between Collision and Response: it makes the World run
    Collision again before Response (see README, "Plugging in systems")."""

    def process(self, dt):
        pass


def _shrink(world, floor, crate):
    world.component_for_entity(floor, Collider).size.x = 10.0  # in place: now under x ∈ [0, 10] only


def _offset(world, floor, crate):
    world.component_for_entity(floor, Collider).offset.y = 500.0  # in place


def _shrink_assigned(world, floor, crate):
    world.component_for_entity(floor, Collider).size = (10.0, 20.0)  # a new vector: the same change


def _offset_assigned(world, floor, crate):
    world.component_for_entity(floor, Collider).offset = (0.0, 500.0)


def _offset_after_another_assignment(world, floor, crate):
    # A vector assigned elsewhere (the lists of every vector are made again), then the floor's
    # offset changed in place in the same pause.
    world.component_for_entity(crate, Physics).velocity = (0.0, 0.0)
    world.component_for_entity(floor, Collider).offset.y = 500.0


def _trigger(world, floor, crate):
    world.component_for_entity(floor, Collider).type = ColliderType.TRIGGER


def _mask(world, floor, crate):
    world.component_for_entity(floor, Collider).mask = 0


def _one_way_down(world, floor, crate):
    world.component_for_entity(floor, Collider).sides = Side.BOTTOM  # only stops bodies from below


def _category(world, floor, crate):
    world.component_for_entity(crate, Collider).mask = ALL & ~2  # the crate ignores category 2 ...
    world.component_for_entity(floor, Collider).category = 2  # ... which the floor now is


@pytest.mark.parametrize("change", [_shrink, _offset, _shrink_assigned, _offset_assigned,
                                    _offset_after_another_assignment, _trigger, _mask, _one_way_down, _category])
def test_a_floor_changed_between_steps_stops_holding_what_rests_on_it(make_world, change):
    # A 10 px box at rest on a floor at y = 100 (x ∈ [0, 200]); once the
    # floor no longer holds it, it falls freely: semi-implicit Euler from
    # rest gives y_k = y_0 + g·dt²·k(k+1)/2 after k steps.
    world, floor, crate = _resting_on_a_floor(make_world)
    assert position(world, crate).y == pytest.approx(90.0, abs=0.5)
    assert velocity(world, crate).y == pytest.approx(0.0, abs=1e-6)
    start = position(world, crate).y
    change(world, floor, crate)
    steps = 10
    run(world, steps)
    assert position(world, crate).y == pytest.approx(start + G * DT * DT * steps * (steps + 1) / 2, abs=1e-6)


def test_a_floor_raised_in_place_lifts_what_rests_on_it(make_world):
    # The floor's top goes from y = 100 to y = 70 in place: the box resting on
    # it (10 px) is pushed out upward, to rest on the new top at y = 60.
    world, floor, crate = _resting_on_a_floor(make_world)
    world.component_for_entity(floor, Transform).position.y -= 30.0
    run(world, 10)
    assert position(world, crate).y == pytest.approx(60.0, abs=0.5)
    assert position(world, floor).y == 70.0


def test_a_floor_moved_in_place_under_a_falling_box_catches_it(make_world):
    # The floor (x ∈ [0, 200], top at y = 100) is moved 400 px right in
    # place while a 10 px box falls at x = 500, high above it: the box must
    # land on it where it now is and rest at y = 90.
    world = make_world(gravity=(0, G))
    floor = wall(world, 0, 100, 200, 20)
    crate = box(world, 500, 0)
    run(world, 2)
    world.component_for_entity(floor, Transform).position.x += 400.0
    run(world, 60)
    assert tuple(position(world, crate)) == pytest.approx((500.0, 90.0), abs=0.5)


def test_a_floor_turned_into_a_slope_in_place_drops_what_rests_on_it(make_world):
    # The 200×20 floor (top y = 100) becomes a right triangle with its right
    # angle at the bottom left: its surface falls from (0, 100) to
    # (200, 120), so under the box (x ∈ [50, 60]) it lies at y ≥ 105. The
    # box must drop at least those 5 px (to y ≥ 95, within 0.5 px).
    world, floor, crate = _resting_on_a_floor(make_world)
    world.component_for_entity(floor, Collider).shape = Shape.TRIANGLE_BOTTOM_LEFT
    run(world, 30)
    assert position(world, crate).y >= 95.0 - 0.5


@pytest.mark.parametrize("between", [False, True], ids=["plain", "system-between"])
def test_a_floor_moved_once_in_place_carries_what_rests_on_it_once(make_world, between):
    # The floor slides 10 px right once, in place, between steps. A box at
    # rest on it rides along by the floor's displacement that step, then
    # stays: x = 50 + 10 after any number of steps. Collision may run twice
    # in a step (a system between it and Response); the floor must still
    # count as moved in one step only.
    world, floor, crate = _resting_on_a_floor(make_world, between=between)
    world.component_for_entity(floor, Transform).position.x += 10.0
    run(world, 10)
    assert position(world, crate).x == pytest.approx(60.0, abs=1e-9)
    assert world.component_for_entity(floor, Transform).previous_position == Vector2(10, 100)


def test_a_floor_moved_away_in_place_leaves_nothing_behind(make_world):
    # The floor (x ∈ [0, 200], top y = 100), a box resting on it, is moved
    # 1,000 px right in place (the box rides along); two steps later a box
    # dropped from rest just above where the floor was falls freely:
    # y_k = y_0 + g·dt²·k(k+1)/2 (semi-implicit Euler), nothing left of the
    # floor's old place in the broad phase, the sweeps or the push-out.
    world, floor, rider = _resting_on_a_floor(make_world, x=150.0)
    world.component_for_entity(floor, Transform).position.x += 1000.0
    run(world, 2)
    assert position(world, rider).x == pytest.approx(1150.0, abs=1e-9)
    crate = box(world, 50, 85)
    steps = 10
    run(world, steps)
    assert position(world, crate).y == pytest.approx(85.0 + G * DT * DT * steps * (steps + 1) / 2, abs=1e-6)
