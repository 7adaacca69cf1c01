"""Pure geometry: overlaps, the axis a body came through, entry time, surface."""

from hypothesis import given
from hypothesis import strategies as st

from systems.physics._shapes.geometry import axis_overlap, box_contact, boxes_overlap, directional_gap, union_box


def test_axis_overlap_is_overlap_length_or_negative_gap():
    a, b = (0, 0, 10, 10), (7, 20, 10, 10)
    assert axis_overlap(a, b, 0) == 3  # [0,10] ∩ [7,17] = [7,10]
    assert axis_overlap(a, b, 1) == -10  # [0,10] and [20,30]: a 10 px gap


def test_touching_boxes_do_not_overlap():
    assert not boxes_overlap((0, 0, 10, 10), (10, 0, 10, 10))
    assert boxes_overlap((0, 0, 10, 10), (9.5, 0, 10, 10))


def test_least_overlap_axis_when_already_overlapping():
    # Overlap 2 px on x and 6 px on y, overlapping before too: push along x.
    a = (0, 0, 10, 10)
    b = (8, 4, 10, 10)
    contact = box_contact(a, b, a, b)
    assert (contact.axis, contact.sign, contact.depth, contact.entry) == (0, 1, 2, 0.0)
    assert contact.surface == 6


def test_body_is_pushed_back_the_way_it_came():
    # a fell 4 px into b from above; the x overlap (3 px) is smaller than the
    # y overlap (4 px), but a was already over b on x, so it came through y.
    before = (0, -12, 10, 10)
    a = (0, -6, 10, 10)
    b = (7, 0, 50, 10)
    contact = box_contact(a, b, before, b)
    assert (contact.axis, contact.sign) == (1, 1)
    assert contact.depth == 4
    # The gap of 2 px closed after 2/6 of the 6 px move.
    assert abs(contact.entry - 2 / 6) < 1e-12
    assert contact.surface == 3


def test_corner_entry_takes_the_axis_whose_gap_closed_last():
    before = (-12, -12, 10, 10)  # x gap 2, y gap 2
    a = (-6, -9, 10, 10)  # moved (+6, +3): x closes at 2/6 = 1/3, y at 2/3
    b = (0, 0, 10, 10)
    contact = box_contact(a, b, before, b)
    assert contact.axis == 1 and contact.sign == 1
    assert abs(contact.entry - 2 / 3) < 1e-12
    assert contact.depth == 1


def test_depth_counts_from_the_entry_side_after_passing_the_centre():
    # a came from the left and ended with its centre right of b's centre;
    # it must go back out the left side: depth = a.right - b.left = 13.
    before = (-20, 0, 10, 10)
    a = (3, 0, 10, 10)
    b = (0, 0, 4, 10)
    contact = box_contact(a, b, before, b)
    assert (contact.axis, contact.sign) == (0, 1)
    assert contact.depth == 13


def test_directional_gap_and_union():
    a, b = (0, 0, 10, 10), (15, 0, 10, 10)
    assert directional_gap(a, b, 0, 1) == 5
    assert directional_gap(b, a, 0, -1) == 5
    assert union_box((0, 0, 2, 2), (5, -3, 2, 2)) == (0, -3, 7, 5)


coord = st.floats(-100, 100, allow_nan=False)
size = st.floats(0.5, 40, allow_nan=False)


@given(coord, coord, size, size, coord, coord, size, size)
def test_pushing_a_by_depth_against_the_normal_separates(ax, ay, aw, ah, bx, by, bw, bh):
    a, b = (ax, ay, aw, ah), (bx, by, bw, bh)
    contact = box_contact(a, b, a, b)
    if contact is None:
        assert not boxes_overlap(a, b)
        return
    assert contact.depth > 0
    moved = list(a)
    moved[contact.axis] -= contact.sign * contact.depth
    assert axis_overlap(tuple(moved), b, contact.axis) <= 1e-9
