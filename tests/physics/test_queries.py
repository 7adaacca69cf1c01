"""Spatial queries: raycast, cast_box, query_point, query_box.

Expected values come from the slab test, the quadratic of Predictive
Collision Detection and the swept AABB, worked out in the comments.
"""

import math
import tracemalloc

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pygame import Vector2

from components import ALL, Collider, ColliderType, Shape, Transform
from ecs import World
from systems.physics.queries import SpatialQueries, cells_on_segment, raycast_box, raycast_circle


def static(world, x, y, w, h, **options):
    return world.create_entity(Transform((x, y)), Collider((w, h), type=ColliderType.STATIC, **options))


@pytest.mark.parametrize("start, end, fraction, normal, point", [
    ((0, 15), (100, 15), 0.4, (-1, 0), (40, 15)),   # left face: x = 40 of the path 0..100
    ((100, 15), (0, 15), 0.4, (1, 0), (60, 15)),    # right face: x = 60
    ((50, -20), (50, 80), 0.3, (0, -1), (50, 10)),  # top face: y = 10 of -20..80
    ((50, 80), (50, -20), 0.5, (0, 1), (50, 30)),   # bottom face: y = 30
])
def test_a_ray_hits_each_face_of_a_box_with_its_outward_normal(start, end, fraction, normal, point):
    world = World()
    target = static(world, 40, 10, 20, 20)
    [hit] = world.raycast(start, end)
    assert hit.entity == target
    assert hit.fraction == pytest.approx(fraction)
    assert hit.normal == Vector2(normal) and hit.point == Vector2(point)


def test_a_ray_meets_a_circle_where_the_quadratic_says():
    # Circle centre (50, 3), r = 5; ray (0, 0) → (100, 0): |(100t − 50, −3)|² = 25
    # gives 100t = 50 − √(25 − 9) = 46, t = 0.46; the normal (46 − 50, 0 − 3)/5.
    world = World()
    ball = world.create_entity(Transform((45, -2)), Collider((10, 10), type=ColliderType.STATIC, shape=Shape.CIRCLE))
    [hit] = world.raycast((0, 0), (100, 0))
    assert (hit.entity, hit.fraction) == (ball, pytest.approx(0.46))
    assert hit.normal.x == pytest.approx(-0.8) and hit.normal.y == pytest.approx(-0.6)
    assert world.raycast((0, 8), (100, 8)) == []  # tangent to the circle's bottom: touching doesn't count


def test_corners_from_inside_past_the_end_and_ordering():
    world = World()
    a = static(world, 10, 10, 10, 10)
    b = static(world, 40, 0, 10, 30)
    # Exactly through a's corner (20, 10) on a 45° line only touches it: no hit.
    assert world.raycast((10, 0), (30, 20)) == []
    # Into a's top-left corner along the diagonal: both faces enter at once,
    # the normal is the corner's bisector.
    [corner] = world.raycast((0, 0), (15, 15))
    assert corner.fraction == pytest.approx(10 / 15)
    assert corner.normal.x == pytest.approx(-math.sqrt(0.5)) and corner.normal.y == pytest.approx(-math.sqrt(0.5))
    # From inside a: fraction 0, normal against the direction; then b at x = 40.
    inside, beyond = world.raycast((15, 15), (55, 15))
    assert (inside.entity, inside.fraction, inside.normal) == (a, 0.0, Vector2(-1, 0))
    assert (beyond.entity, beyond.fraction) == (b, pytest.approx(25 / 40))
    assert world.raycast((0, 15), (9, 15)) == []  # ends before a
    with pytest.raises(ValueError, match="length"):
        world.raycast((5, 5), (5, 5))


def test_rays_honour_masks_and_skip_triggers_unless_asked():
    world = World()
    wall = static(world, 10, 0, 5, 20, category=2)
    coin = world.create_entity(Transform((30, 0)), Collider((5, 20), type=ColliderType.TRIGGER, category=4))
    assert [h.entity for h in world.raycast((0, 10), (50, 10))] == [wall]
    assert [h.entity for h in world.raycast((0, 10), (50, 10), triggers=True)] == [wall, coin]
    assert [h.entity for h in world.raycast((0, 10), (50, 10), mask=4, triggers=True)] == [coin]
    assert world.raycast((0, 10), (50, 10), mask=ALL & ~6, triggers=True) == []


@pytest.mark.parametrize("start, end, fraction, normal", [
    ((0, 0), (10, 0), 0.3, (-1, 0)),     # bump.lua: slides right into the left face: (5 − 2)/10
    ((10, 0), (0, 0), 0.3, (1, 0)),      # from the right: (10 − 7)/10
    ((5, -10), (5, 10), 0.4, (0, -1)),   # down onto the top: (0 − (−10 + 2))/20
    ((0, -5), (10, 5), 0.3, (0, -1)),    # diagonal, both gaps close at 0.3 (3/10): the top face catches it
])
def test_cast_box_meets_boxes_like_a_swept_aabb(start, end, fraction, normal):
    world = World()
    target = static(world, 5, 0, 2, 2)
    [hit] = world.cast_box((2, 2), start, end)
    assert hit.entity == target and hit.fraction == pytest.approx(fraction)
    assert hit.normal == Vector2(normal)
    assert hit.point == Vector2(start) + (Vector2(end) - Vector2(start)) * fraction


def test_cast_box_misses_beside_starts_inside_and_never_tunnels():
    world = World()
    thin = static(world, 50, 0, 1, 10)
    assert world.cast_box((4, 4), (0, 20), (100, 20)) == []  # passes below
    [through] = world.cast_box((4, 4), (0, 3), (1000, 3))  # 1000 px in one cast, 1 px wall
    assert through.entity == thin and through.fraction == pytest.approx(46 / 1000)
    [inside] = world.cast_box((4, 4), (49, 3), (0, 3))
    assert inside.fraction == 0.0 and inside.normal == Vector2(1, 0)


def test_point_and_box_queries_exclude_touching_edges():
    world = World()
    a = static(world, 0, 0, 10, 10)
    ball = world.create_entity(Transform((20, 0)), Collider((10, 10), shape=Shape.CIRCLE))
    assert world.query_point((5, 5)) == [a]
    assert world.query_point((10, 5)) == []  # on the edge
    assert world.query_point((25, 5)) == [ball] and world.query_point((21, 1)) == []  # outside the disc
    assert world.query_box((10, 0), (10, 10)) == []  # touches a, reaches the circle's left point only
    assert world.query_box((9, 0), (12, 10)) == [a, ball]


shapes = st.lists(st.tuples(st.floats(-100, 100), st.floats(-100, 100), st.floats(1, 40), st.floats(1, 40),
                            st.booleans()), min_size=1, max_size=25)
points = st.tuples(st.floats(-150, 150), st.floats(-150, 150))


def build(specs):
    world = World()
    made = []
    for x, y, w, h, round_ in specs:
        size = (w, w) if round_ else (w, h)
        collider = Collider(size, type=ColliderType.STATIC, shape=Shape.CIRCLE if round_ else Shape.BOX)
        made.append((world.create_entity(Transform((x, y)), collider), (x, y, *size), round_))
    world.step(1 / 60)  # file them in the grid (STATICs: the step moves none of them)
    return world, made


@given(shapes, points, points)
def test_queries_agree_with_brute_force(specs, start, end):
    world, made = build(specs)
    start, end = Vector2(start), Vector2(end)
    expect_point = [e for e, box, round_ in made if _contains(box, round_, start)]
    assert world.query_point(start) == expect_point
    probe = (min(start.x, end.x), min(start.y, end.y), abs(end.x - start.x) + 1, abs(end.y - start.y) + 1)
    assert world.query_box(probe[:2], probe[2:]) == [e for e, box, round_ in made if _overlaps(box, round_, probe)]
    if start != end:
        hits = [(e, found) for e, box, round_ in made
                if (found := (raycast_circle(start, end - start, Vector2(box[0] + box[2] / 2, box[1] + box[2] / 2),
                                             box[2] / 2) if round_ else raycast_box(start, end - start, box)))]
        expected = sorted((found[0], e) for e, found in hits)
        assert [(h.fraction, h.entity) for h in world.raycast(start, end)] == expected


@given(shapes, points, points, st.tuples(st.floats(1, 300), st.floats(1, 300)))
def test_cast_box_finds_every_collider_a_test_of_each_finds(specs, start, end, size):
    # Through the grid (walking the cells on the path, or looking at every
    # occupied cell when those are fewer) a cast meets exactly the colliders
    # that testing each one in turn meets, at the same fractions.
    from systems.physics._shapes.narrowphase import overlap, sweep

    world, made = build(specs)
    start, end, size = Vector2(start), Vector2(end), Vector2(size)
    if start == end:
        return
    moving = (start.x, start.y, size.x, size.y)
    expected = []
    for entity, box, round_ in made:
        shape = Shape.CIRCLE if round_ else Shape.BOX
        if overlap(moving, Shape.BOX, moving, box, shape, box) is not None:
            expected.append((0.0, entity))
        elif (hit := sweep(moving, Shape.BOX, box, shape, end - start)) is not None:
            expected.append((hit.time, entity))
    assert [(h.fraction, h.entity) for h in world.cast_box(size, start, end)] == sorted(expected)


def _contains(box, round_, p):
    if round_:
        r = box[2] / 2
        return p.distance_squared_to((box[0] + r, box[1] + r)) < r * r
    return box[0] < p.x < box[0] + box[2] and box[1] < p.y < box[1] + box[3]


def _overlaps(box, round_, probe):
    if round_:
        r = box[2] / 2
        cx, cy = box[0] + r, box[1] + r
        nx = min(max(cx, probe[0]), probe[0] + probe[2])
        ny = min(max(cy, probe[1]), probe[1] + probe[3])
        inside = probe[0] < cx < probe[0] + probe[2] and probe[1] < cy < probe[1] + probe[3]
        return inside or (nx - cx) ** 2 + (ny - cy) ** 2 < r * r - 1e-7
    return (min(box[0] + box[2], probe[0] + probe[2]) - max(box[0], probe[0]) > 1e-7
            and min(box[1] + box[3], probe[1] + probe[3]) - max(box[1], probe[1]) > 1e-7)


@given(points, points, st.sampled_from([3.0, 16.0, 50.0]))
def test_the_cell_walk_visits_every_cell_the_segment_crosses(start, end, size):
    # Sample the segment finely: every sampled point's cell must be visited.
    start, end = Vector2(start), Vector2(end)
    visited = set(cells_on_segment(start, end, size))
    for i in range(201):
        p = start.lerp(end, i / 200)
        cell = (math.floor(p.x / size), math.floor(p.y / size))
        near = {(cell[0] + dx, cell[1] + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
        assert cell in visited or near & visited  # a sample exactly on a boundary may round either way


def _far_scene():
    """Near the origin, a box and a post on the line y = 50 and a box below
    it; a level-long floor below everything and a tall wall a million px
    along the line (both large: more than LARGE_SPAN cells)."""
    world = World()
    made = [static(world, 100, 40, 20, 20), static(world, 300, 0, 10, 100), static(world, 200, 200, 20, 20),
            static(world, -5e5, 1000, 1e6, 40), static(world, 1e6, -5e5, 40, 1e6)]
    world.step(1 / 60)  # file them in the grid
    return world, made


def _costs(world, query):
    """What ``query`` (a SpatialQueries method's name and arguments) looked
    at, against the grid's occupied cells, and the peak memory (bytes) it
    took; the query is run once more through the World."""
    queries = SpatialQueries(world.collision)
    tracemalloc.start()
    getattr(queries, query[0])(*query[1:])
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    grid = world.collision.grid
    return queries.looked, len(grid.cells) + len(grid.fixed_cells), peak


@pytest.mark.parametrize("length", [1e9, 1e12])
def test_a_ray_as_long_as_the_coordinates_allow_costs_the_occupied_cells(length):
    # A ray along y = 50 from x = 0 enters the box at x = 100, the post at
    # x = 300 and the wall at x = 1e6: fraction = distance / length. It
    # misses the box below and the floor. Walking every cell on its path
    # (length / 64 px of them) took minutes and gigabytes; the occupied
    # cells are a handful.
    world, (box, post, _, _, wall) = _far_scene()
    hits = world.raycast((0, 50), (length, 50))
    assert [(hit.entity, hit.fraction) for hit in hits] == [
        (box, 100 / length), (post, 300 / length), (wall, 1e6 / length)]
    assert tuple(hits[0].point) == pytest.approx((100, 50)) and hits[0].normal == Vector2(-1, 0)
    looked, occupied, peak = _costs(world, ("raycast", Vector2(0, 50), Vector2(length, 50)))
    assert looked <= occupied
    assert peak < 1 << 20  # bytes: the walk's set of visited cells held millions


def test_a_box_cast_a_billion_px_costs_the_occupied_cells():
    # A 10 × 10 box at (0, 45) cast to x = 1e9 along y = 45..55: its right
    # edge reaches the box's left face at x = 100 after 90 px, the post's at
    # 290 px and the wall's at 1e6 − 10: fraction = distance / 1e9; the
    # point is the cast box's top-left then, the normal the face hit.
    world, (box, post, _, _, wall) = _far_scene()
    hits = world.cast_box((10, 10), (0, 45), (1e9, 45))
    assert [(hit.entity, hit.fraction) for hit in hits] == [
        (box, pytest.approx(90 / 1e9)), (post, pytest.approx(290 / 1e9)), (wall, pytest.approx((1e6 - 10) / 1e9))]
    assert tuple(hits[0].point) == pytest.approx((90, 45)) and hits[0].normal == Vector2(-1, 0)
    looked, occupied, peak = _costs(world, ("cast_box", Vector2(10, 10), Vector2(0, 45), Vector2(1e9, 45)))
    assert looked <= occupied
    assert peak < 1 << 20


def test_a_box_a_billion_px_wide_cast_a_short_way_costs_the_occupied_cells():
    # A box 1e9 wide and 10 tall, its right edge moving from x = 0 to 200
    # along y = 45..55, meets the box's left face (x = 100) half way:
    # fraction 100 / 200 = 0.5. It covers the floor's x range but not its y
    # range, and never reaches the post (x = 300). The cells its width
    # covers number 1e9 / 64 per cell of its path.
    world, (box, *_) = _far_scene()
    hits = world.cast_box((1e9, 10), (-1e9, 45), (-1e9 + 200, 45))
    assert [(hit.entity, hit.fraction) for hit in hits] == [(box, pytest.approx(0.5))]
    looked, occupied, peak = _costs(world, ("cast_box", Vector2(1e9, 10), Vector2(-1e9, 45), Vector2(-1e9 + 200, 45)))
    assert looked <= occupied
    assert peak < 1 << 20


def test_a_box_query_as_wide_as_the_coordinates_allow_finds_every_collider_in_small_memory():
    # A box of the largest size (1e12 px) reaching x = y = 200 overlaps only
    # the box at (100, 40) (the one at (200, 200) touches it at a corner,
    # which doesn't count; the floor and the wall lie beyond); one from
    # −5e11 overlaps all five. The grid looks at its occupied cells instead
    # of the ~2e20 cells covered.
    world, made = _far_scene()
    tracemalloc.start()
    corner = world.query_box((-1e12 + 200, -1e12 + 200), (1e12, 1e12))
    found = world.query_box((-5e11, -5e11), (1e12, 1e12))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert corner == [made[0]]
    assert found == sorted(made)
    assert peak < 1 << 20
