"""Time of impact: swept boxes, swept circles, circle against box (pure functions)."""

import math

import pytest
from hypothesis import assume, example, given
from hypothesis import strategies as st
from pygame import Vector2

from components import Shape
from systems.physics._kernels.boxes import _swept_apart
from systems.physics._shapes.geometry import boxes_overlap
from systems.physics._shapes.narrowphase import circle_box_penetration, circles_penetration, overlap, sweep
from systems.physics._shapes.impact import sweep_boxes, sweep_circle_box, sweep_circles


def test_box_time_of_impact_is_gap_over_speed():
    hit = sweep_boxes((0, 0, 10, 10), (50, 0, 10, 10), Vector2(100, 0))
    assert hit.time == pytest.approx(0.4)  # a 40 px gap closed at 100 px per unit
    assert hit.normal == Vector2(1, 0) and hit.surface == 10


def test_box_sweep_misses_past_a_corner():
    # When x would overlap (t = 0.4), a is already 40 px lower than b.
    assert sweep_boxes((0, 0, 10, 10), (50, 0, 10, 10), Vector2(100, 100)) is None


def test_box_sweep_picks_the_face_entered_last():
    # x gap 10 closes at t = 0.1, y gap 20 at t = 0.2: the top face is hit.
    hit = sweep_boxes((0, 0, 10, 10), (20, 30, 40, 40), Vector2(100, 100))
    assert hit.time == pytest.approx(0.2) and hit.normal == Vector2(0, 1)
    assert hit.surface == pytest.approx(10)  # a spans x 20..30 then, all on b


def test_touching_and_approaching_hits_at_zero_sliding_does_not():
    floor = (0, 10, 100, 10)
    assert sweep_boxes((0, 0, 10, 10), floor, Vector2(5, 0.3)).time == 0
    assert sweep_boxes((0, 0, 10, 10), floor, Vector2(5, 0)) is None
    assert sweep_boxes((0, 0, 10, 10), floor, Vector2(5, -1)) is None


def test_overlapping_at_start_is_left_to_push_out():
    assert sweep_boxes((0, 0, 10, 10), (5, 5, 10, 10), Vector2(3, 3)) is None
    assert sweep_circles(Vector2(0, 0), 5, Vector2(6, 0), 5, Vector2(1, 0)) is None


def test_circle_time_of_impact_and_oblique_normal():
    # |(−30 + 40t, −6)| = 10  →  40t = 30 − 8  →  t = 0.55; a is then at
    # (22, 0), so the normal is ((30, 6) − (22, 0)) / 10 = (0.8, 0.6).
    hit = sweep_circles(Vector2(0, 0), 5, Vector2(30, 6), 5, Vector2(40, 0))
    assert hit.time == pytest.approx(0.55)
    assert hit.normal.x == pytest.approx(0.8) and hit.normal.y == pytest.approx(0.6)
    assert sweep_circles(Vector2(0, 0), 5, Vector2(30, 11), 5, Vector2(40, 0)) is None


def test_circles_that_only_graze_do_not_hit():
    # Radii 0.5 and 2, centres (0.5, 4.5) and (2, 2), moving 2 px along x:
    # at x = 2 (t = 0.75) the centres are 2.5 apart, exactly the sum of the
    # radii: they touch without closing, a graze, as a box sliver is.
    assert sweep_circles(Vector2(0.5, 4.5), 0.5, Vector2(2, 2), 2.0, Vector2(2, 0)) is None
    # 0.01 px closer they overlap: contact when (x - 2)² + 2.49² = 2.5²,
    # x = 2 - √0.0499, i.e. t = (1.5 - √0.0499) / 2.
    hit = sweep_circles(Vector2(0.5, 4.49), 0.5, Vector2(2, 2), 2.0, Vector2(2, 0))
    assert hit.time == pytest.approx((1.5 - math.sqrt(0.0499)) / 2)


def test_circle_skimming_onto_a_face_past_a_corner_hits():
    # A circle (r = 0.5) 6e-5 px above a thin platform's top, 0.1 px left of
    # its corner, moving 1e4 px right and 6 px down: it barely clears the
    # corner point, then sinks into the face. It must hit, where its bottom
    # reaches the corner, x = 0: after 0.1 px of the 1e4, t ≈ 1e-5.
    r, x0 = 0.5, -0.1
    y0 = -(r - 1e-9) + 6e-4 * x0
    hit = sweep((x0 - r, y0 - r, 1.0, 1.0), Shape.CIRCLE, (0.0, 0.0, 2e4, 1.0), Shape.BOX, Vector2(1e4, 6.0))
    assert hit is not None and hit.time == pytest.approx(1e-5, rel=1e-3)
    assert hit.normal.y == pytest.approx(1.0)


def test_circle_hits_a_box_face():
    hit = sweep_circle_box(Vector2(0, 30), 5, (20, 20, 20, 20), Vector2(40, 0))
    assert hit.time == pytest.approx(15 / 40) and hit.normal == Vector2(1, 0)


def test_circle_hits_a_box_corner_in_its_voronoi_region():
    # Centre on y = 17 meets the corner (20, 20) when |(40t − 20, −3)| = 5,
    # so 40t = 16, t = 0.4, and the normal is (4, 3) / 5.
    hit = sweep_circle_box(Vector2(0, 17), 5, (20, 20, 20, 20), Vector2(40, 0))
    assert hit.time == pytest.approx(0.4)
    assert hit.normal.x == pytest.approx(0.8) and hit.normal.y == pytest.approx(0.6)


def test_circle_clipping_the_corner_square_but_missing_the_corner():
    # The centre crosses (15.5, 15.5), inside the box grown by the radius,
    # but 6.36 px from the corner (20, 20): no contact.
    assert sweep_circle_box(Vector2(5, 26), 5, (20, 20, 20, 20), Vector2(20, -20)) is None


def test_box_against_circle_flips_the_normal():
    hit = sweep((20, 20, 20, 20), Shape.BOX, (-5, 12, 10, 10), Shape.CIRCLE, Vector2(-40, 0))
    assert hit.time == pytest.approx(0.4)
    assert hit.normal.x == pytest.approx(-0.8) and hit.normal.y == pytest.approx(-0.6)


def test_discrete_circle_penetrations():
    p = circles_penetration(Vector2(0, 0), 5, Vector2(8, 6), 5)  # 10 apart: touching
    assert p is None
    p = circles_penetration(Vector2(0, 0), 5, Vector2(6, 8), 6)  # 10 apart, reach 11
    assert p.depth == pytest.approx(1) and p.normal == Vector2(0.6, 0.8)
    p = circle_box_penetration(Vector2(17, 16), 5, (20, 20, 10, 10))  # corner (20, 20) 5 away
    assert p is None
    p = circle_box_penetration(Vector2(18, 18.5), 5, (20, 20, 10, 10))  # corner 2.5 away
    assert p.depth == pytest.approx(2.5) and p.normal.x == pytest.approx(0.8)
    p = circle_box_penetration(Vector2(21, 25), 5, (20, 20, 10, 10))  # centre inside, 1 from left
    assert p.depth == pytest.approx(6) and p.normal == Vector2(1, 0)
    p = overlap((15, 15, 10, 10), Shape.BOX, (15, 15, 10, 10), (0, 0, 10, 10), Shape.CIRCLE, (0, 0, 10, 10))
    assert p is None  # the box's corner (15, 15) is 7.07 from the disc's centre (5, 5)


R2 = math.sqrt(2)


def disc(cx, cy, r):
    """The box of a disc centred at (cx, cy) of radius r."""
    return (cx - r, cy - r, 2 * r, 2 * r)


def test_a_disc_through_a_ramps_thin_tip_leaves_the_way_it_came():
    # "/" tile (0, 0, 32, 32), slope x + y = 32. A disc of radius 2 moves right along
    # y = 2 from x = 27 to 33, where the tile is 2 px thick: its centre is now 1 px past
    # the vertical leg. The nearest way out, through the leg, goes on through (into
    # whatever lies flush behind it). It first touched the slope when its centre was 2 px
    # from it, at x = 30 − 2√2, after (3 − 2√2)/6 of the move, so it leaves along the
    # slope's normal: (33 + 2 − 32)/√2 back to the line, plus the radius.
    tile = (0.0, 0.0, 32.0, 32.0)
    ramp = Shape.TRIANGLE_BOTTOM_RIGHT
    p = overlap(disc(33, 2, 2), Shape.CIRCLE, disc(27, 2, 2), tile, ramp, tile)
    assert p.normal.x == pytest.approx(1 / R2) and p.normal.y == pytest.approx(1 / R2)
    assert p.depth == pytest.approx(3 / R2 + 2) and p.entry == pytest.approx((3 - 2 * R2) / 6)
    # The same pair the other way round: the normal turns, the rest stays.
    q = overlap(tile, ramp, tile, disc(33, 2, 2), Shape.CIRCLE, disc(27, 2, 2))
    assert q.normal == -p.normal and q.depth == p.depth and q.entry == p.entry
    # Already inside at the start, its centre at (31, 2), 1/√2 px behind the slope and 1 px
    # from the leg, it leaves by the way out it had then: the slope again.
    q = overlap(disc(33, 2, 2), Shape.CIRCLE, disc(31, 2, 2), tile, ramp, tile)
    assert q.normal.x == pytest.approx(1 / R2) and q.normal.y == pytest.approx(1 / R2)
    assert q.depth == pytest.approx(3 / R2 + 2) and q.entry == 0
    # Standing still where it ended, the least way out is the leg's, 1 px.
    p = overlap(disc(33, 2, 2), Shape.CIRCLE, disc(33, 2, 2), tile, ramp, tile)
    assert p.normal == Vector2(-1, 0) and p.depth == pytest.approx(1)


def test_a_disc_under_a_ramps_tip_against_a_wall_leaves_along_the_slope():
    # TOP_RIGHT tile (0, 0, 32, 32): slope y = x, its tip (32, 32) where the tile meets a
    # wall beyond x = 32. A disc of radius 2.5 moves from (20, 34) to (33.5, 33), passing
    # just under the tip: its centre ends in the tip's corner region, 1.80 px from it, so
    # the nearest way out is away from the tip, into the wall (whose push back would put it
    # into the ramp again). It first touched the slope (y − x = 2.5√2, reached after
    # (14 − 2.5√2)/14.5 of the move, its foot (31.5, 31.5) on the slope), so it leaves along
    # the slope's normal (−1, 1)/√2: the centre (33.5 − s, 33 + s) clears the tile once
    # 2.5 px from the tip, (1.5 − s)² + (1 + s)² = 2.5², s = 1.5: 1.5√2 px.
    tile = (0.0, 0.0, 32.0, 32.0)
    ramp = Shape.TRIANGLE_TOP_RIGHT
    least = overlap(disc(33.5, 33, 2.5), Shape.CIRCLE, disc(33.5, 33, 2.5), tile, ramp, tile)
    assert -least.normal.x > 0  # (standing still there: pushed into the wall)
    p = overlap(disc(33.5, 33, 2.5), Shape.CIRCLE, disc(20, 34, 2.5), tile, ramp, tile)
    assert p.normal.x == pytest.approx(1 / R2) and p.normal.y == pytest.approx(-1 / R2)
    assert p.depth == pytest.approx(1.5 * R2) and p.entry == pytest.approx((14 - 2.5 * R2) / 14.5)
    # Pushed out by that, to (32, 34.5), it touches the tip; the wall then pushes it 2.5 px
    # left, to where y − x = 5 > 2.5√2: clear of the slope.
    out = Vector2(33.5, 33) - p.normal * p.depth
    assert out.x == pytest.approx(32) and out.y == pytest.approx(34.5)


coord = st.floats(-50, 50)
extent = st.floats(1, 30)
moves = st.floats(-200, 200)


def _overlaps_at(a, b, motion, t, shapes):
    moved = (a[0] + motion.x * t, a[1] + motion.y * t, a[2], a[3])
    if shapes == (Shape.BOX, Shape.BOX):
        return boxes_overlap(moved, b)
    return overlap(moved, shapes[0], moved, b, shapes[1], b) is not None


@given(coord, coord, extent, coord, coord, extent, moves, moves,
       st.sampled_from([(Shape.BOX, Shape.BOX), (Shape.CIRCLE, Shape.CIRCLE), (Shape.CIRCLE, Shape.BOX),
                        (Shape.BOX, Shape.CIRCLE)]))
@example(0.0, 4.0, 1.0, 0.0, 0.0, 4.0, 2.0, 0.0, (Shape.CIRCLE, Shape.CIRCLE))  # an exact graze (long profile)
def test_sweep_agrees_with_sampling_the_path(ax, ay, sa, bx, by, sb, mx, my, shapes):
    a = (ax, ay, sa, sa)
    b = (bx, by, sb, sb)
    motion = Vector2(mx, my)
    assume(not _overlaps_at(a, b, motion, 0.0, shapes))
    hit = sweep(a, shapes[0], b, shapes[1], motion)
    samples = [i / 400 for i in range(401)]
    first = next((t for t in samples if _overlaps_at(a, b, motion, t, shapes)), None)
    if hit is None:
        assert first is None or all(  # only grazing contact may be missed
            (overlap(*_at(a, motion, t, shapes[0]), b, shapes[1], b) or _Zero).depth < 1e-3
            for t in samples)
    else:
        assert 0 <= hit.time <= 1
        assert math.isclose(hit.normal.length(), 1)
        assert not _overlaps_at(a, b, motion, max(hit.time - 1e-6, 0), shapes)
        if first is not None:
            assert hit.time <= first + 1e-9
        # The normal points from a into b: moving a along it closes on b.
        assert motion.dot(hit.normal) > 0


class _Zero:
    depth = 0.0


def _at(a, motion, t, round_a):
    moved = (a[0] + motion.x * t, a[1] + motion.y * t, a[2], a[3])
    return moved, round_a, moved


def swept_apart(a, motion, b, margin):
    """The sweep kernel's swept-box test (its plain-float arguments)."""
    return _swept_apart(a, float(motion[0]), float(motion[1]), b, margin)


def test_swept_box_reaches_what_the_sweep_can_hit():
    # a spans x 0..10 and moves 9.98 px: its swept box ends at 19.98, 0.02 px
    # short of b at x = 20: apart by more than a 0.01 px margin, not by 0.03.
    a, b = (0, 0, 10, 10), (20, 0, 10, 10)
    assert swept_apart(a, (9.98, 0.0), b, 0.01)
    assert not swept_apart(a, (9.98, 0.0), b, 0.03)
    # 10.5 px reaches b: the sweep hits it at 10/10.5 of the move.
    assert not swept_apart(a, (10.5, 0.0), b, 0.01)
    assert sweep_boxes(a, b, Vector2(10.5, 0)).time == pytest.approx(10 / 10.5)
    # Moving away from it, or going down from 10 px below it, stays apart.
    assert swept_apart(a, (-30.0, 0.0), b, 0.01)
    assert swept_apart(a, (40.0, 21.0), (20, -20, 10, 10), 0.01)


ALL_SHAPES = list(Shape)


@given(coord, coord, extent, extent, coord, coord, extent, extent, moves, moves,
       st.sampled_from(ALL_SHAPES), st.sampled_from(ALL_SHAPES))
def test_shapes_whose_swept_boxes_stay_apart_never_meet(ax, ay, aw, ah, bx, by, bw, bh, mx, my, shape_a, shape_b):
    # Every shape lies inside its box, so when a's box swept along the motion
    # stays clear of b's, no sweep of any two shapes may report a hit, and
    # they do not overlap at the start either.
    assume(not (shape_a.triangle and shape_b.triangle))  # triangles are STATIC: never swept together
    a, b = (ax, ay, aw, ah), (bx, by, bw, bh)
    if shape_a is Shape.CIRCLE:
        a = (ax, ay, aw, aw)
    if shape_b is Shape.CIRCLE:
        b = (bx, by, bw, bw)
    if swept_apart(a, (mx, my), b, 0.01):
        assert sweep(a, shape_a, b, shape_b, (mx, my)) is None
        assert not boxes_overlap(a, b)
