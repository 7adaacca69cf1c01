"""Right-triangle colliders: SAT contacts, Voronoi regions, sweeps, raycasts (pure functions).

Expected values are worked out in the comments. The property tests check the
module against independent oracles written here from the triangle's three
vertices alone: a generic separating-axis test for two convex polygons and
the distance from a point to a polygon.
"""

import math

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from pygame import Vector2

from systems.physics._shapes.geometry import box_contact
from systems.physics._shapes.triangle import (
    BOTTOM_LEFT,
    BOTTOM_RIGHT,
    TOP_LEFT,
    TOP_RIGHT,
    box_overlaps_triangle,
    box_triangle_penetration,
    circle_triangle_penetration,
    hypotenuse_normal,
    point_in_triangle,
    raycast_triangle,
    sweep_box_triangle,
    sweep_circle_triangle,
    triangle_vertices,
)

CORNERS = [BOTTOM_LEFT, BOTTOM_RIGHT, TOP_LEFT, TOP_RIGHT]
R2 = math.sqrt(2)
R5 = math.sqrt(5)
TILE = (0.0, 0.0, 32.0, 32.0)


def close(a, b, tol=1e-9):
    return (Vector2(a) - Vector2(b)).length() <= tol


# --- independent oracles -------------------------------------------------------------------


def polygon(tri, corner):
    """The triangle from the convention alone: the box corner (sx, sy) holds
    the right angle, its neighbours along x and along y close it, and the
    opposite corner (-sx, -sy) is cut away."""
    left, top, w, h = tri
    x = {-1: left, 1: left + w}
    y = {-1: top, 1: top + h}
    sx, sy = corner
    return [Vector2(x[sx], y[sy]), Vector2(x[-sx], y[sy]), Vector2(x[sx], y[-sy])]


def box_polygon(box):
    left, top, w, h = box
    return [Vector2(left, top), Vector2(left + w, top), Vector2(left + w, top + h), Vector2(left, top + h)]


def sat_depth(poly_a, poly_b):
    """Minimum translation distance (px) between two convex polygons: over
    every edge normal of either, the smaller one-sided overlap; negative is
    a gap (the widest one found along an edge normal)."""
    best = math.inf
    for poly in (poly_a, poly_b):
        for i, p in enumerate(poly):
            edge = poly[(i + 1) % len(poly)] - p
            n = Vector2(-edge.y, edge.x).normalize()
            a = [q.dot(n) for q in poly_a]
            b = [q.dot(n) for q in poly_b]
            best = min(best, min(max(b) - min(a), max(a) - min(b)))
    return best


def signed_distance(point, poly):
    """Distance (px) from a point to the polygon's boundary, negative inside."""
    nearest = math.inf
    crossings = []
    for i, a in enumerate(poly):
        b = poly[(i + 1) % len(poly)]
        ab = b - a
        share = min(max((point - a).dot(ab) / ab.length_squared(), 0.0), 1.0)
        nearest = min(nearest, (point - (a + ab * share)).length())
        crossings.append(ab.x * (point - a).y - ab.y * (point - a).x)
    inside = all(c > 0 for c in crossings) or all(c < 0 for c in crossings)
    return -nearest if inside else nearest


def closest_point(point, poly):
    best = None
    for i, a in enumerate(poly):
        ab = poly[(i + 1) % len(poly)] - a
        share = min(max((point - a).dot(ab) / ab.length_squared(), 0.0), 1.0)
        q = a + ab * share
        if best is None or (point - q).length() < (point - best).length():
            best = q
    return best


def moved(box, motion, t):
    return (box[0] + motion.x * t, box[1] + motion.y * t, box[2], box[3])


def centre_of(tri, corner):
    """Centre of the hypotenuse: the box centre, for every orientation."""
    return Vector2(tri[0] + tri[2] / 2, tri[1] + tri[3] / 2)


# --- vertices and normals ------------------------------------------------------------------


def test_vertices_put_the_right_angle_at_the_named_corner():
    # BOTTOM_LEFT "\": right angle (0, 32), horizontal leg to (32, 32), vertical leg up to (0, 0).
    assert triangle_vertices(TILE, BOTTOM_LEFT) == (Vector2(0, 32), Vector2(32, 32), Vector2(0, 0))
    # BOTTOM_RIGHT "/": right angle (32, 32), legs to (0, 32) and (32, 0).
    assert triangle_vertices(TILE, BOTTOM_RIGHT) == (Vector2(32, 32), Vector2(0, 32), Vector2(32, 0))
    assert triangle_vertices(TILE, TOP_LEFT) == (Vector2(0, 0), Vector2(32, 0), Vector2(0, 32))
    assert triangle_vertices(TILE, TOP_RIGHT) == (Vector2(32, 0), Vector2(0, 0), Vector2(32, 32))


@pytest.mark.parametrize("corner, expected", [
    (BOTTOM_LEFT, (1, -1)),    # "\" floor: out of the slope is up and to the right
    (BOTTOM_RIGHT, (-1, -1)),  # "/" floor: up and to the left
    (TOP_LEFT, (1, 1)),        # ceiling slopes face down
    (TOP_RIGHT, (-1, 1)),
])
def test_hypotenuse_normal_points_away_from_the_right_angle(corner, expected):
    n = hypotenuse_normal(TILE, corner)
    assert close(n, Vector2(expected) / R2)


def test_a_32x16_ramp_is_26_6_degrees():
    # Hypotenuse of "/" from (0, 16) to (32, 0): direction (32, -16) ∝ (2, -1);
    # its normal away from the right angle (32, 16) is (-1, -2)/√5, tilted
    # atan(16/32) = 26.57° from straight up.
    ramp = (0.0, 0.0, 32.0, 16.0)
    n = hypotenuse_normal(ramp, BOTTOM_RIGHT)
    assert close(n, Vector2(-1, -2) / R5)
    assert math.degrees(math.atan2(-n.x, -n.y)) == pytest.approx(26.565, abs=1e-3)
    assert close(hypotenuse_normal(ramp, BOTTOM_LEFT), Vector2(1, -2) / R5)
    assert close(hypotenuse_normal(ramp, TOP_RIGHT), Vector2(-1, 2) / R5)


def test_bad_corner_or_size_is_a_clear_error():
    with pytest.raises(ValueError, match="corner"):
        hypotenuse_normal(TILE, (0, 1))
    with pytest.raises(ValueError, match="tri"):
        triangle_vertices((0, 0, 0, 32), BOTTOM_LEFT)


def test_point_and_box_overlap_exclude_touching():
    # "/" tile: inside is below the line x + y = 32 and within the box.
    assert point_in_triangle(Vector2(24, 24), TILE, BOTTOM_RIGHT)
    assert not point_in_triangle(Vector2(8, 8), TILE, BOTTOM_RIGHT)  # the cut-away half
    assert not point_in_triangle(Vector2(16, 16), TILE, BOTTOM_RIGHT)  # on the hypotenuse
    assert not point_in_triangle(Vector2(32, 20), TILE, BOTTOM_RIGHT)  # on the right leg
    # A box whose corner (16, 16) sits on the slope only touches; 0.5 px lower it overlaps.
    assert not box_overlaps_triangle((8, 8, 8, 8), TILE, BOTTOM_RIGHT)
    assert box_overlaps_triangle((8, 8.5, 8, 8), TILE, BOTTOM_RIGHT)
    # Resting flush on the right leg from outside: touching only.
    assert not box_overlaps_triangle((32, 10, 8, 8), TILE, BOTTOM_RIGHT)


# --- box against triangle: separating axes -------------------------------------------------


@pytest.mark.parametrize("corner", CORNERS)
def test_box_pushed_out_of_the_hypotenuse_for_each_orientation(corner):
    # An 8×8 box's corner nearest the slope lies 4·(|nx| + |ny|) = 4√2 px
    # along the 45° normal n from its centre. With the centre 4√2 − 2 px out
    # from the hypotenuse's midpoint, that corner is 2 px in; x and y
    # overlap by far more (the box straddles the slope), so the least
    # penetration is 2 px along the hypotenuse, normal (box -> triangle) −n.
    n = hypotenuse_normal(TILE, corner)
    centre = centre_of(TILE, corner) + n * (4 * R2 - 2)
    box = (centre.x - 4, centre.y - 4, 8.0, 8.0)
    p = box_triangle_penetration(box, box, TILE, corner)
    assert close(p.normal, -n) and p.depth == pytest.approx(2)
    assert p.entry == 0 and p.surface == 0  # a corner on the slope
    # Coming in along −n from 3 px further out: the gap of 1 px closed at 1/3 of the 3 px move.
    before = (box[0] + n.x * 3, box[1] + n.y * 3, 8.0, 8.0)
    p = box_triangle_penetration(box, before, TILE, corner)
    assert close(p.normal, -n) and p.depth == pytest.approx(2) and p.entry == pytest.approx(1 / 3)


@pytest.mark.parametrize("corner", CORNERS)
def test_box_on_the_legs_acts_as_on_a_box_face(corner):
    sx, sy = corner
    # Vertical leg at x = 32 if sx = +1, else x = 0. An 8×8 box centred on y = 24
    # (sy = +1) or 8 (sy = −1), within the leg's span [0, 32], pushed 3 px into it
    # from outside: normal −(sx, 0), depth 3, surface the box's full height 8.
    leg_x = 32 if sx > 0 else 0
    y = 20 if sy > 0 else 4
    left = leg_x - 3 if sx > 0 else leg_x - 5
    before = (left + 6 * sx, y, 8.0, 8.0)
    p = box_triangle_penetration((left, y, 8.0, 8.0), before, TILE, corner)
    assert p.normal == Vector2(-sx, 0) and p.depth == pytest.approx(3)
    assert p.surface == 8 and p.entry == pytest.approx(3 / 6)
    # Horizontal leg at y = 32 (sy = +1) or 0: the same, 2 px deep, from below/above.
    leg_y = 32 if sy > 0 else 0
    x = 20 if sx > 0 else 4
    top = leg_y - 2 if sy > 0 else leg_y - 6
    before = (x, top + 4 * sy, 8.0, 8.0)
    p = box_triangle_penetration((x, top, 8.0, 8.0), before, TILE, corner)
    assert p.normal == Vector2(0, -sy) and p.depth == pytest.approx(2) and p.surface == 8


@pytest.mark.parametrize("corner", CORNERS)
def test_box_against_the_vertices_for_each_orientation(corner):
    sx, sy = corner
    # "/" (BOTTOM_RIGHT), acute vertex (0, 32): box (−6, 28, 8, 8) spans x −6..2,
    # y 28..36. Depths: leftward 2 − 0 = 2; downward 32 − 28 = 4; along
    # n = (−1, −1)/√2 its corner (2, 36) has x + y = 38, 6 past the slope's
    # x + y = 32: 6/√2 = 4.24. Least is 2 px out to the left, normal (+1, 0), and
    # only the vertex touches: surface 0. The other orientations are mirror
    # images: the box at x −6..2 or 30..38, y 28..36 or −4..4.
    box = (-6.0 if sx > 0 else 30.0, 28.0 if sy > 0 else -4.0, 8.0, 8.0)
    p = box_triangle_penetration(box, box, TILE, corner)
    assert p.normal == Vector2(sx, 0) and p.depth == pytest.approx(2) and p.surface == 0
    # The right-angle vertex as for boxes: "/" (32, 32) with box (30, 31, 8, 8)
    # overlapping 2 px on x, 1 px on y: pushed 1 px down, normal (0, −1),
    # touching 2 px of the bottom leg. Mirrored: x 30..38 or −6..2, y 31..39 or −7..1.
    box = (30.0 if sx > 0 else -6.0, 31.0 if sy > 0 else -7.0, 8.0, 8.0)
    p = box_triangle_penetration(box, box, TILE, corner)
    assert p.normal == Vector2(0, -sy) and p.depth == pytest.approx(1) and p.surface == pytest.approx(2)


def test_box_already_inside_leaves_the_way_it_was_leaving_as_the_step_began():
    # "\" tile: slope y = x, the tile below it (y > x), its left leg on x = 0. A 4 px box on
    # x in [0, 4] starts a hair inside the tip (its lower left corner (0, 0.4) is 0.4/√2 behind
    # the slope, less than the 0.4 px to its top side or the 4 px to the leg) and moves 15 px
    # down. Now the leg is nearest (4 px), but behind the leg there may be a wall: it leaves
    # the way it was already leaving, along the slope's normal, (15.4 − 0)/√2 px from its
    # lower left corner (0, 15.4) back to the line.
    p = box_triangle_penetration((0.0, 11.4, 4.0, 4.0), (0.0, -3.6, 4.0, 4.0), TILE, BOTTOM_LEFT)
    assert close(p.normal, Vector2(-1, 1) / R2) and p.depth == pytest.approx(15.4 / R2) and p.entry == 0
    # Standing still there, it is the least way out now: the leg.
    p = box_triangle_penetration((0.0, 11.4, 4.0, 4.0), (0.0, 11.4, 4.0, 4.0), TILE, BOTTOM_LEFT)
    assert p.normal == Vector2(1, 0) and p.depth == pytest.approx(4)


def test_box_lands_on_a_26_6_degree_ramp():
    # Ramp (0, 0, 32, 16) "/": slope y = 16 − x/2. An 8×8 box with its
    # bottom-right corner at x = 16 meets it where y = 8; falling from a
    # bottom at −12 by 40 px, that is t = 20/40 = 0.5, normal (1, 2)/√5.
    ramp = (0.0, 0.0, 32.0, 16.0)
    hit = sweep_box_triangle((8, -20, 8, 8), ramp, BOTTOM_RIGHT, Vector2(0, 40))
    assert hit.time == pytest.approx(0.5) and close(hit.normal, Vector2(1, 2) / R5)
    # It touches as (8, 0, 8, 8); 1 px lower the corner is 1·(2/√5) = 0.894 px in along n.
    p = box_triangle_penetration((8, 1, 8, 8), (8, -20, 8, 8), ramp, BOTTOM_RIGHT)
    assert close(p.normal, Vector2(1, 2) / R5) and p.depth == pytest.approx(2 / R5)


# --- circle against triangle: Voronoi regions ----------------------------------------------


@pytest.mark.parametrize("corner", CORNERS)
def test_circle_face_contacts_for_each_orientation(corner):
    sx, sy = corner
    n = hypotenuse_normal(TILE, corner)
    # Centre 3.5 px out from the hypotenuse's midpoint, radius 5: 1.5 px deep along −n.
    p = circle_triangle_penetration(centre_of(TILE, corner) + n * 3.5, 5, TILE, corner)
    assert close(p.normal, -n) and p.depth == pytest.approx(1.5) and p.surface == 0
    # Centre 4 px outside the vertical leg, beside its middle: 1 px deep, normal −(sx, 0).
    leg = Vector2(32 if sx > 0 else 0, 16)
    p = circle_triangle_penetration(leg + Vector2(4 * sx, 0), 5, TILE, corner)
    assert close(p.normal, Vector2(-sx, 0)) and p.depth == pytest.approx(1)
    # Centre inside, 2 px from the horizontal leg (its nearest face) : out through it, 5 + 2 deep.
    floor = Vector2(32 - 6 if sx > 0 else 6, 32 if sy > 0 else 0)
    p = circle_triangle_penetration(floor - Vector2(0, 2 * sy), 5, TILE, corner)
    assert close(p.normal, Vector2(0, -sy)) and p.depth == pytest.approx(7)


@pytest.mark.parametrize("corner", CORNERS)
def test_circle_vertex_contacts_for_each_orientation(corner):
    sx, sy = corner
    right, far_x, far_y = triangle_vertices(TILE, corner)
    # Right angle: centre at offset (3sx, 4sy), 5 px away, radius 6: depth 1,
    # normal from the centre to the vertex −(3sx, 4sy)/5.
    p = circle_triangle_penetration(right + Vector2(3 * sx, 4 * sy), 6, TILE, corner)
    assert close(p.normal, Vector2(-3 * sx, -4 * sy) / 5) and p.depth == pytest.approx(1)
    # Acute vertex at the end of the horizontal leg: centre at offset (−3sx, 4sy),
    # beyond the leg's end and behind the hypotenuse's line ((3 − 4)/√2 < 0 along n),
    # so in that vertex's region: depth 6 − 5 = 1, normal (3sx, −4sy)/5.
    p = circle_triangle_penetration(far_x + Vector2(-3 * sx, 4 * sy), 6, TILE, corner)
    assert close(p.normal, Vector2(3 * sx, -4 * sy) / 5) and p.depth == pytest.approx(1)
    # Acute vertex at the end of the vertical leg: offset (4sx, −3sy).
    p = circle_triangle_penetration(far_y + Vector2(4 * sx, -3 * sy), 6, TILE, corner)
    assert close(p.normal, Vector2(-4 * sx, 3 * sy) / 5) and p.depth == pytest.approx(1)
    # Exactly 6 px away: touching is not penetrating.
    assert circle_triangle_penetration(right + Vector2(3.6 * sx, 4.8 * sy), 6, TILE, corner) is None


def test_circle_centre_inside_leaves_the_way_it_came():
    # "/" tile. Centre (26, 20): 6 px from the right leg, 12 from the bottom
    # leg, (46 − 32)/√2 = 9.9 from the slope: the nearest face is the right leg.
    centre = Vector2(26, 20)
    p = circle_triangle_penetration(centre, 4, TILE, BOTTOM_RIGHT)
    assert p.normal == Vector2(-1, 0) and p.depth == pytest.approx(6 + 4)
    # Having come straight down from (26, −10) it crossed the slope at y = 6: out
    # along the slope, (x + y − 32)/√2 = 14/√2 back to the line plus the radius 4.
    p = circle_triangle_penetration(centre, 4, TILE, BOTTOM_RIGHT, before_centre=Vector2(26, -10))
    assert close(p.normal, Vector2(1, 1) / R2) and p.depth == pytest.approx(14 / R2 + 4)
    # It first touched when its centre was 4 px out from the slope:
    # 26 + y = 32 − 4√2  ->  y = 6 − 4√2 = 0.343, reached after 10.343 of 30 px.
    assert p.entry == pytest.approx((16 - 4 * R2) / 30)


def test_circle_centred_on_a_face_within_rounding_uses_the_face_normal():
    # Centres placed on the slope x + y = 32 by arithmetic that rounds: the
    # vector to the closest point is then rounding noise, not a direction.
    # Each must be pushed out along the slope's normal by the radius, 3 px.
    n = hypotenuse_normal(TILE, BOTTOM_RIGHT)
    for k in range(1, 224):
        centre = Vector2(0, 32) + Vector2(1, -1) * (k / 7)
        p = circle_triangle_penetration(centre, 3, TILE, BOTTOM_RIGHT)
        assert close(p.normal, -n) and p.depth == pytest.approx(3), (k, p)


def test_circle_on_a_26_6_degree_ramp():
    # Ramp (0, 0, 32, 16) "/": foot (16, 8) on the slope, n = (−1, −2)/√5. A
    # disc of radius 5 resting there has its centre at (16, 8) + 5n =
    # (16 − √5, 8 − 2√5): touching, no penetration. 1 px lower, it is
    # 1·(2/√5) = 0.894 px into the slope.
    ramp = (0.0, 0.0, 32.0, 16.0)
    rest = Vector2(16 - R5, 8 - 2 * R5)
    assert circle_triangle_penetration(rest, 5, ramp, BOTTOM_RIGHT) is None
    p = circle_triangle_penetration(rest + Vector2(0, 1), 5, ramp, BOTTOM_RIGHT)
    assert close(p.normal, Vector2(1, 2) / R5) and p.depth == pytest.approx(2 / R5)
    # Dropped from y = −20 by 40 px it reaches the resting centre at t = (28 − 2√5)/40.
    hit = sweep_circle_triangle(Vector2(rest.x, -20), 5, ramp, BOTTOM_RIGHT, Vector2(0, 40))
    assert hit.time == pytest.approx((28 - 2 * R5) / 40) and close(hit.normal, Vector2(1, 2) / R5)


# --- sweeps --------------------------------------------------------------------------------


@pytest.mark.parametrize("corner", CORNERS)
def test_sweeps_onto_the_hypotenuse_for_each_orientation(corner):
    n = hypotenuse_normal(TILE, corner)
    mid = centre_of(TILE, corner)
    # Box: its nearest corner 4√2 px in from its centre along −n; the centre
    # starts 4√2 + 10 out, moving 20 px along −n: the 10 px gap closes at t = 0.5.
    start = mid + n * (4 * R2 + 10)
    hit = sweep_box_triangle((start.x - 4, start.y - 4, 8, 8), TILE, corner, -n * 20)
    assert hit.time == pytest.approx(0.5) and close(hit.normal, -n) and hit.surface == 0
    # Circle of radius 3 from 13 px out: also a 10 px gap, t = 0.5.
    hit = sweep_circle_triangle(mid + n * 13, 3, TILE, corner, -n * 20)
    assert hit.time == pytest.approx(0.5) and close(hit.normal, -n)


@pytest.mark.parametrize("corner", CORNERS)
def test_sweeps_onto_the_legs_and_vertices(corner):
    sx, sy = corner
    leg_x = 32 if sx > 0 else 0
    # A box beside the vertical leg's middle, 10 px away, moving 40 px toward it: t = 0.25,
    # normal −(sx, 0), the whole 8 px side touching.
    left = leg_x + 10 if sx > 0 else leg_x - 18
    hit = sweep_box_triangle((left, 12, 8, 8), TILE, corner, Vector2(-40 * sx, 0))
    assert hit.time == pytest.approx(0.25) and hit.normal == Vector2(-sx, 0) and hit.surface == 8
    # A disc of radius 5 on the diagonal beyond the right angle R (that vertex's
    # Voronoi region), 15 px from it, moving 20 px straight at it: it touches
    # when 5 px away, after 10 px, t = 0.5, normal along the diagonal into R.
    right = triangle_vertices(TILE, corner)[0]
    diagonal = Vector2(sx, sy) / R2
    hit = sweep_circle_triangle(right + diagonal * 15, 5, TILE, corner, -diagonal * 20)
    assert hit.time == pytest.approx(0.5) and close(hit.normal, -diagonal)


def test_box_sweep_at_a_vertex_and_missing_it():
    # "/" tile, acute vertex (0, 32). A box 8 px tall with its bottom at 34
    # (top 26) moving right meets the vertex with its right face: x gap 10 of a
    # 40 px move, t = 0.25, normal (1, 0), no face touches (surface 0).
    hit = sweep_box_triangle((-18, 26, 8, 8), TILE, BOTTOM_RIGHT, Vector2(40, 0))
    assert hit.time == pytest.approx(0.25) and hit.normal == Vector2(1, 0) and hit.surface == 0
    # Moving up the slope just above it: the bottom-right corner starts at
    # (−10, 40), x + y = 30, and moving (40, −40) keeps x + y = 30 < 32 — 2/√2 px
    # clear of the slope all along while the box crosses the whole tile: a miss.
    assert sweep_box_triangle((-18, 32, 8, 8), TILE, BOTTOM_RIGHT, Vector2(40, -40)) is None


def test_touching_approaching_sliding_and_overlapping():
    # Box resting on the "/" slope: corner (16, 16) on x + y = 32.
    box = (8.0, 8.0, 8.0, 8.0)
    assert sweep_box_triangle(box, TILE, BOTTOM_RIGHT, Vector2(0, 1)).time == 0  # pressing in
    assert sweep_box_triangle(box, TILE, BOTTOM_RIGHT, Vector2(5, -5)) is None  # sliding up the slope
    assert sweep_box_triangle(box, TILE, BOTTOM_RIGHT, Vector2(-1, -1)) is None  # leaving
    assert sweep_box_triangle((8, 9, 8, 8), TILE, BOTTOM_RIGHT, Vector2(0, 1)) is None  # already in
    rest = Vector2(16, 16) + hypotenuse_normal(TILE, BOTTOM_RIGHT) * 5
    assert sweep_circle_triangle(rest, 5, TILE, BOTTOM_RIGHT, Vector2(0, 1)).time == 0
    assert sweep_circle_triangle(rest, 5, TILE, BOTTOM_RIGHT, Vector2(5, -5)) is None
    assert sweep_circle_triangle(rest + Vector2(0, 1), 5, TILE, BOTTOM_RIGHT, Vector2(0, 1)) is None


def _approaches():
    """Unit directions from the triangle toward the mover: every side and corner."""
    return [Vector2(1, 0), Vector2(-1, 0), Vector2(0, 1), Vector2(0, -1),
            Vector2(1, 1) / R2, Vector2(-1, 1) / R2, Vector2(1, -1) / R2, Vector2(-1, -1) / R2]


@pytest.mark.parametrize("corner", CORNERS)
@pytest.mark.parametrize("round_", [False, True], ids=["box", "circle"])
def test_no_tunnelling_at_3000_px_per_s(corner, round_):
    # 3,000 px/s at 60 steps/s is 50 px per step, three times the 16 px tile.
    tri = (0.0, 0.0, 16.0, 16.0)
    poly = polygon(tri, corner)
    target = (poly[0] + poly[1] + poly[2]) / 3  # the centroid, inside
    for away in _approaches():
        centre = target + away * 240
        step = -away * 50
        for _ in range(8):
            if round_:
                hit = sweep_circle_triangle(centre, 5, tri, corner, step)
            else:
                hit = sweep_box_triangle((centre.x - 5, centre.y - 5, 10, 10), tri, corner, step)
            if hit is not None:
                break
            centre += step
        assert hit is not None, away
        at = centre + step * hit.time
        # At the impact the shapes touch, and the centroid is still ahead.
        if round_:
            assert signed_distance(at, poly) == pytest.approx(5, abs=1e-9)
        else:
            assert sat_depth(box_polygon((at.x - 5, at.y - 5, 10, 10)), poly) == pytest.approx(0, abs=1e-9)
        assert (target - at).dot(away) < 0


@pytest.mark.parametrize("corner, right_face, centre_y", [
    # Box (−2505, 3, 10, 10) moving 5,000 px right: its right face x_r = −2495 + 5000t.
    # A left leg (x = 0, y 0..16) stops it at x_r = 0. "/" (slope x + y = 16, inside
    # below it) is met by the bottom-right corner (x_r, 13) at x_r = 3; the ceiling
    # slope of TOP_RIGHT (y = x, inside above it) by the top-right corner (x_r, 3) at x_r = 3.
    # A disc of radius 5 dropped 5,000 px on x = 8 meets the 45° floors when its centre is
    # 5 px from the slope, 5√2 above (8, 8); the ceiling slopes' flat top y = 0 when y = −5.
    (BOTTOM_LEFT, 0, 8 - 5 * R2),
    (BOTTOM_RIGHT, 3, 8 - 5 * R2),
    (TOP_LEFT, 0, -5),
    (TOP_RIGHT, 3, -5),
])
def test_no_tunnelling_in_one_huge_step(corner, right_face, centre_y):
    tri = (0.0, 0.0, 16.0, 16.0)
    hit = sweep_box_triangle((-2505.0, 3.0, 10.0, 10.0), tri, corner, Vector2(5000, 0))
    assert hit.time == pytest.approx((2495 + right_face) / 5000, abs=1e-12)
    hit = sweep_circle_triangle(Vector2(8, -2500), 5, tri, corner, Vector2(0, 5000))
    assert hit.time == pytest.approx((2500 + centre_y) / 5000, abs=1e-12)


# --- the crack cure: flat -> ramp seams ----------------------------------------------------


SEAMS = [
    # (ramp corner, side the flat floor/ceiling is on, flat surface y, which box edge slides on it)
    # "/" ramp in x 32..64 standing on the floor y = 32: its foot (32, 32) meets the floor on its left.
    (BOTTOM_RIGHT, -1, 32.0, "bottom"),
    # "\" ramp: its foot (64, 32) meets the floor on its right.
    (BOTTOM_LEFT, +1, 32.0, "bottom"),
    # Ceiling slopes hanging from y = 0: the flat ceiling's underside meets the ramp's tip.
    (TOP_RIGHT, -1, 0.0, "top"),
    (TOP_LEFT, +1, 0.0, "top"),
]


def _ramp(corner, height):
    """The ramp tile in x 32..64: standing on y = 32, or hanging from y = 0."""
    return (32.0, 32.0 - height if corner[1] > 0 else 0.0, 32.0, height)


def _sliding_box(side, flat_y, edge, gap, size, offset):
    """A box of ``size`` sliding along the flat surface, ``gap`` px short of the
    ramp's tip, its sliding edge ``offset`` px off flush (rounding)."""
    w, h = size
    left = 32 - gap - w if side < 0 else 64 + gap
    top = flat_y - h + offset if edge == "bottom" else flat_y - offset
    return (left, top, w, h)


@pytest.mark.parametrize("corner, side, flat_y, edge", SEAMS)
@pytest.mark.parametrize("height", [32.0, 16.0], ids=["45deg", "26.6deg"])
@given(gap=st.floats(0, 40), speed=st.floats(1, 400), w=st.floats(2, 30), h=st.floats(2, 30),
       offset=st.sampled_from([0.0, 1e-12, -1e-12, 1e-9, -1e-9, 5e-8, -5e-8]))
def test_sliding_onto_a_ramp_meets_its_slope_never_its_foot(corner, side, flat_y, edge, height,
                                                            gap, speed, w, h, offset):
    # Sliding flush along the flat surface (within rounding) toward the ramp,
    # the box's leading corner reaches the ramp's tip when its front face
    # does: the slope and the tip's zero-length side are entered together.
    # The slope must win (never a sideways normal with no surface).
    ramp = _ramp(corner, height)
    box = _sliding_box(side, flat_y, edge, gap, (w, h), offset)
    motion = Vector2(-side * speed, 0)
    hit = sweep_box_triangle(box, ramp, corner, motion)
    n = hypotenuse_normal(ramp, corner)
    if gap + 1e-6 < speed:  # the tip is reached within the step, at gap / speed
        # (an offset shifts it by 5e-8·width/height/speed at most)
        assert hit is not None and hit.time == pytest.approx(gap / speed, abs=1e-6)
    if hit is not None:
        assert close(hit.normal, -n), hit


@pytest.mark.parametrize("corner, side, flat_y, edge", SEAMS)
def test_push_out_at_a_seam_takes_the_floor_first_then_the_slope(corner, side, flat_y, edge):
    # One discrete step: the box slid 6 px across the seam (3 px past the tip)
    # and gravity pressed it 0.3 px into the flat tile (toward the flat surface).
    sign = 1 if edge == "bottom" else -1  # +1 when the flat surface is below the box
    flat = (0.0, 32.0, 32.0, 32.0) if side < 0 else (64.0, 32.0, 32.0, 32.0)
    if edge == "top":
        flat = (flat[0], -32.0, 32.0, 32.0)
    before = _sliding_box(side, flat_y, edge, 3, (8, 8), 0.0)
    now = (before[0] - side * 6, before[1] + sign * 0.3, 8, 8)
    floor = box_contact(now, flat, before, flat)
    ramp = box_triangle_penetration(now, before, _ramp(corner, 32.0), corner)
    # The flat tile: touching at the start (entry 0), 0.3 px deep, its 8 px of face
    # under the box less the 3 px now over the ramp: surface 5.
    assert (floor.axis, floor.sign, floor.entry) == (1, sign, 0.0)
    assert floor.depth == pytest.approx(0.3) and floor.surface == pytest.approx(5)
    # Taken alone, the sunk box's leading corner passed under the tip, so the ramp
    # reports the tip's side — entered at 3/6 of the step, after the floor: the
    # push-out order (entry, then larger surface) resolves the floor first.
    assert ramp.normal == Vector2(-side, 0) and ramp.surface == 0
    assert (floor.entry, -floor.surface) < (ramp.entry, -ramp.surface)
    # Pushed back flush, the box straddles the seam: now the slope, 3 px × sin 45° deep.
    flush = (now[0], now[1] - sign * floor.depth, 8, 8)
    ramp = box_triangle_penetration(flush, before, _ramp(corner, 32.0), corner)
    assert close(ramp.normal, -hypotenuse_normal(TILE, corner)) and ramp.depth == pytest.approx(3 / R2)
    assert ramp.entry == pytest.approx(0.5)


@pytest.mark.parametrize("corner", CORNERS)
@given(start=st.floats(1, 27), speed=st.floats(0.5, 300), nudge=st.floats(-1e-9, 1e-9),
       sink=st.floats(0, 5e-8))
def test_sliding_along_two_ramps_in_a_row_never_snags(corner, start, speed, nudge, sink):
    # Tile A = (0, 0, 32, 32) and tile B one tile on along the slope, same
    # orientation: "/" slopes (BOTTOM_RIGHT, TOP_LEFT) lie on x + y = 32 and B
    # is at (32, −32); "\" slopes (BOTTOM_LEFT, TOP_RIGHT) on y = x, B at (32, 32).
    # A box touching A's slope (its corner nearest the slope at x = ``start`` on
    # the line, off it by rounding ``nudge``) slides along it toward +x, pressing
    # in by ``sink`` px over the step at most. B's slope starts at its acute
    # vertex on x = 32, exactly where the box's corner arrives: B must report
    # its slope or nothing, never the zero-length side of that vertex.
    sx, sy = corner
    n = hypotenuse_normal(TILE, corner)
    rising = sx * sy > 0  # a "/" line
    ramp_b = (32.0, -32.0 if rising else 32.0, 32.0, 32.0)
    along = Vector2(1, -1 if rising else 1) / R2
    on_line = Vector2(start, 32 - start if rising else start) + n * nudge
    # The box's corner nearest the slope is the one toward −n.
    box = (on_line.x - (8 if n.x < 0 else 0), on_line.y - (8 if n.y < 0 else 0), 8.0, 8.0)
    motion = along * speed - n * sink
    hit = sweep_box_triangle(box, ramp_b, corner, motion)
    if hit is not None:
        assert close(hit.normal, -n), hit
    if speed / R2 > 32 - start + 1e-3:  # past B's vertex by the end of the step
        assert hit is not None or not box_overlaps_triangle(moved(box, motion, 1.0), ramp_b, corner)


@pytest.mark.parametrize("rightward", [True, False], ids=["up-/", "up-\\"])
@given(start=st.floats(1, 27), speed=st.floats(0.5, 300), nudge=st.floats(-1e-9, 1e-9),
       sink=st.floats(0, 5e-8))
def test_climbing_over_a_peak_does_not_catch_the_far_side(rightward, start, speed, nudge, sink):
    # A roof: "/" (0, 0, 32, 32) and "\" (32, 0, 32, 32) share the peak (32, 0),
    # where the far tile's vertical leg x = 32 ends. A box climbing one slope
    # (its corner on it within rounding, pressing in by ``sink`` at most)
    # passes over the peak with its bottom at y = 0 ± rounding as its front
    # face reaches x = 32: the far tile's leg is touched over no more than a
    # rounding error, a graze. No contact, never a sideways one.
    if rightward:
        near, far, corner_far = BOTTOM_RIGHT, (32.0, 0.0, 32.0, 32.0), BOTTOM_LEFT
        on_line, along = Vector2(start, 32 - start), Vector2(1, -1) / R2
    else:
        near, far, corner_far = BOTTOM_LEFT, (32.0, 0.0, 32.0, 32.0), BOTTOM_RIGHT
        far = (0.0, 0.0, 32.0, 32.0)
        on_line, along = Vector2(64 - start, 32 - start), Vector2(-1, -1) / R2
    n = hypotenuse_normal(TILE, near)
    on_line += n * nudge
    box = (on_line.x - (8 if rightward else 0), on_line.y - 8, 8.0, 8.0)
    hit = sweep_box_triangle(box, far, corner_far, along * speed - n * sink)
    assert hit is None, hit


# --- raycasts ------------------------------------------------------------------------------


def test_raycasts_on_each_face_of_a_ramp():
    # "/" tile. Horizontal ray y = 16 from x = −10 to 40 meets the slope at
    # x = 16: fraction 26/50, outward normal (−1, −1)/√2.
    f, n = raycast_triangle(Vector2(-10, 16), Vector2(40, 16), TILE, BOTTOM_RIGHT)
    assert f == pytest.approx(0.52) and close(n, Vector2(-1, -1) / R2)
    # Up from (16, 50) to (16, 10): the bottom leg y = 32 after 18 of 40 px.
    f, n = raycast_triangle(Vector2(16, 50), Vector2(16, 10), TILE, BOTTOM_RIGHT)
    assert f == pytest.approx(0.45) and n == Vector2(0, 1)
    # Left from (50, 24) to (10, 24): the right leg x = 32 after 18 of 40 px.
    f, n = raycast_triangle(Vector2(50, 24), Vector2(10, 24), TILE, BOTTOM_RIGHT)
    assert f == pytest.approx(0.45) and n == Vector2(1, 0)


def test_raycasts_on_vertices_edges_inside_and_short():
    # Through the right angle (32, 32) from (42, 42) to (22, 22): halfway;
    # the legs tie there and the vertical normal is reported.
    f, n = raycast_triangle(Vector2(42, 42), Vector2(22, 22), TILE, BOTTOM_RIGHT)
    assert f == pytest.approx(0.5) and n == Vector2(0, 1)
    # Through the acute vertex (0, 32) from (−10, 37) to (10, 27): halfway,
    # then inside (x + y = 37 > 32, y < 32). Slope and leg tie: the slope wins.
    f, n = raycast_triangle(Vector2(-10, 37), Vector2(10, 27), TILE, BOTTOM_RIGHT)
    assert f == pytest.approx(0.5) and close(n, Vector2(-1, -1) / R2)
    # Along an edge: grazing is not a hit.
    assert raycast_triangle(Vector2(-10, 32), Vector2(50, 32), TILE, BOTTOM_RIGHT) is None
    assert raycast_triangle(Vector2(-10, 42), Vector2(40, -8), TILE, BOTTOM_RIGHT) is None  # along the slope
    # From inside: fraction 0, normal against the direction.
    f, n = raycast_triangle(Vector2(24, 24), Vector2(40, 24), TILE, BOTTOM_RIGHT)
    assert f == 0 and n == Vector2(-1, 0)
    # No length, inside at (26, 28): the nearest face is the bottom leg (4 px).
    f, n = raycast_triangle(Vector2(26, 28), Vector2(26, 28), TILE, BOTTOM_RIGHT)
    assert f == 0 and n == Vector2(0, 1)
    # From the slope itself: inward is an entry at 0, outward is nothing.
    f, n = raycast_triangle(Vector2(16, 16), Vector2(24, 24), TILE, BOTTOM_RIGHT)
    assert f == 0 and close(n, Vector2(-1, -1) / R2)
    assert raycast_triangle(Vector2(16, 16), Vector2(8, 8), TILE, BOTTOM_RIGHT) is None
    # Stopping 6 px short of the slope (x = 16): no hit.
    assert raycast_triangle(Vector2(-10, 16), Vector2(10, 16), TILE, BOTTOM_RIGHT) is None


@pytest.mark.parametrize("corner", CORNERS)
def test_raycast_at_each_orientation_hypotenuse(corner):
    # From 10 px out along n toward the slope's midpoint, 20 px long: halfway.
    n = hypotenuse_normal(TILE, corner)
    mid = centre_of(TILE, corner)
    f, normal = raycast_triangle(mid + n * 10, mid - n * 10, TILE, corner)
    assert f == pytest.approx(0.5) and close(normal, n)


# --- properties against the oracles --------------------------------------------------------

corners = st.sampled_from(CORNERS)
coord = st.floats(-60, 60)
side = st.floats(2, 40)
extent = st.floats(1, 30)
share = st.floats(0, 1)


@st.composite
def swept_boxes(draw):
    """A triangle, a box and a motion that often aims at the triangle."""
    tri = (draw(coord), draw(coord), draw(side), draw(side))
    box = (draw(coord), draw(coord), draw(extent), draw(extent))
    if draw(st.booleans()):
        aim = Vector2(tri[0] + tri[2] * draw(share), tri[1] + tri[3] * draw(share))
        motion = (aim - Vector2(box[0] + box[2] / 2, box[1] + box[3] / 2)) * draw(st.floats(0, 2.5))
    else:
        motion = Vector2(draw(st.floats(-200, 200)), draw(st.floats(-200, 200)))
    return tri, box, motion


SAMPLES = [i / 400 for i in range(401)]


def agrees_with_samples(hit, depth, motion) -> bool:
    """Check a sweep's hit against the penetration ``depth(t)`` sampled
    along the path: a miss only where the path merely grazes; a hit touching
    (depth 0) at its time, with a unit normal the motion drives into, no
    later than the first sampled overlap and within one sample of it.
    Returns whether there was a hit (to check its normal further)."""
    depths = [depth(t) for t in SAMPLES]
    first = next((t for t, d in zip(SAMPLES, depths) if d > 1e-9), None)
    if hit is None:
        assert max(depths) < 1e-6  # only grazing may be missed
        return False
    assert 0 <= hit.time <= 1 and math.isclose(hit.normal.length(), 1)
    assert abs(depth(hit.time)) <= 1e-6  # touching at the time of impact
    assert motion.dot(hit.normal) > 0
    if first is not None:
        assert hit.time <= first + 1e-9
        assert hit.time >= first - 1 / 400 - 1e-9 or depth(first) < 1e-6
    return True


@given(swept_boxes(), corners)
def test_box_sweep_agrees_with_sampling_the_path(case, corner):
    tri, box, motion = case
    poly = polygon(tri, corner)

    def depth(t):
        return sat_depth(box_polygon(moved(box, motion, t)), poly)

    assume(depth(0.0) <= 1e-9)
    hit = sweep_box_triangle(box, tri, corner, motion)
    if agrees_with_samples(hit, depth, motion):
        n = hypotenuse_normal(tri, corner)
        faces = (-n, Vector2(1, 0), Vector2(-1, 0), Vector2(0, 1), Vector2(0, -1))
        assert any(close(hit.normal, v) for v in faces)


@given(swept_boxes(), corners)
def test_circle_sweep_agrees_with_sampling_the_path(case, corner):
    tri, box, motion = case
    poly = polygon(tri, corner)
    start, radius = Vector2(box[0] + box[2] / 2, box[1] + box[3] / 2), box[2] / 2

    def depth(t):
        return radius - signed_distance(start + motion * t, poly)

    assume(depth(0.0) <= 1e-9)
    hit = sweep_circle_triangle(start, radius, tri, corner, motion)
    if agrees_with_samples(hit, depth, motion):
        at = start + motion * hit.time
        assert close(hit.normal, (closest_point(at, poly) - at).normalize(), 1e-6)


@given(swept_boxes(), corners)
def test_box_penetration_agrees_with_the_oracle(case, corner):
    tri, box, motion = case
    poly = polygon(tri, corner)
    now = moved(box, motion, 1.0)
    truth = sat_depth(box_polygon(now), poly)
    p = box_triangle_penetration(now, box, tri, corner)
    if truth <= 1e-9 or p is None:  # disagreement only within touching
        assert p is None or p.depth <= 1e-6
        assert p is not None or truth <= 1e-6
        return
    # Pushed by depth against the normal, the box is clear.
    out = moved(now, -p.normal, p.depth)
    assert sat_depth(box_polygon(out), poly) <= 1e-6
    assert 0 <= p.entry <= 1 and p.surface >= 0
    # Standing still, the push is the least one: it leaves the box just touching.
    still = box_triangle_penetration(now, now, tri, corner)
    assert still.depth == pytest.approx(truth, abs=1e-9)
    assert abs(sat_depth(box_polygon(moved(now, -still.normal, still.depth)), poly)) <= 1e-6
    was = sat_depth(box_polygon(box), poly)
    if was < -1e-6:  # clear at the start of the step: out the way it came
        assert (-p.normal).dot(motion) < 0
        hit = sweep_box_triangle(box, tri, corner, motion)
        assert hit is not None and close(hit.normal, p.normal) and hit.time == pytest.approx(p.entry)


@given(swept_boxes(), corners)
def test_box_penetration_agrees_with_point_sampling(case, corner):
    tri, box, motion = case
    poly = polygon(tri, corner)
    now = moved(box, motion, 1.0)
    inside = [
        Vector2(now[0] + now[2] * i / 12, now[1] + now[3] * j / 12)
        for i in range(13) for j in range(13)
        if signed_distance(Vector2(now[0] + now[2] * i / 12, now[1] + now[3] * j / 12), poly) < -1e-6
    ]
    p = box_triangle_penetration(now, box, tri, corner)
    assert (p is not None) == box_overlaps_triangle(now, tri, corner)
    if inside:
        assert p is not None
        assert all(point_in_triangle(q, tri, corner) for q in inside)


@given(swept_boxes(), corners)
def test_circle_penetration_agrees_with_the_oracle(case, corner):
    tri, box, motion = case
    poly = polygon(tri, corner)
    before, radius = Vector2(box[0] + box[2] / 2, box[1] + box[3] / 2), box[2] / 2
    centre = before + motion
    distance = signed_distance(centre, poly)
    p = circle_triangle_penetration(centre, radius, tri, corner, before)
    if radius - distance <= 1e-9 or p is None:
        assert p is None or p.depth <= 1e-6
        assert p is not None or radius - distance <= 1e-6
        return
    if distance > 1e-6:  # centre clearly outside: away from the closest point
        assert p.depth == pytest.approx(radius - distance, abs=1e-9)
        assert close(p.normal, (closest_point(centre, poly) - centre).normalize(), 1e-9)
    assert signed_distance(centre - p.normal * p.depth, poly) >= radius - 1e-6
    # Points sampled on the disc strictly inside the triangle only where it overlaps.
    ring = [centre + Vector2(radius * k / 4, 0).rotate(a * 15) for k in range(5) for a in range(24)]
    if any(signed_distance(q, poly) < -1e-6 for q in ring):
        assert p.depth > 0
