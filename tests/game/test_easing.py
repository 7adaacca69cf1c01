"""Easing curves: Penner's formulas at points worked out by hand, and the symmetries every
family keeps (ends pinned, out the mirror of in, in_out point-symmetric about its middle)."""

import math

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from components.easing import EASES

FAMILIES = ["quad", "cubic", "quart", "quint", "sine", "expo", "circ", "back", "elastic", "bounce"]
C1 = 1.70158  # Penner's back overshoot


@pytest.mark.parametrize("name, t, expected", [
    ("linear", 0.3, 0.3),
    ("in_quad", 0.5, 0.25),  # t²
    ("out_quad", 0.5, 0.75),  # 1 - (1 - t)²
    ("in_out_quad", 0.25, 0.125),  # in over the first half: (2t)²/2
    ("in_out_quad", 0.75, 0.875),  # out over the second: 1 - (2 - 2t)²/2
    ("in_cubic", 0.5, 0.125),
    ("out_cubic", 0.5, 0.875),
    ("in_quart", 0.5, 1 / 16),
    ("in_quint", 0.5, 1 / 32),
    ("in_sine", 1 / 3, 1 - math.sqrt(3) / 2),  # 1 - cos(π/6)
    ("out_sine", 1 / 3, 0.5),  # sin(π/6)
    ("in_out_sine", 0.25, (1 - math.cos(math.pi / 4)) / 2),  # in_sine(1/2) / 2
    ("in_expo", 0.5, 1 / 32),  # 2^(10·0.5 - 10)
    ("out_expo", 0.5, 1 - 1 / 32),
    ("in_circ", 0.6, 0.2),  # 1 - √(1 - 0.36)
    ("out_circ", 0.4, 0.8),  # √(1 - 0.36)
    ("in_back", 0.5, (C1 + 1) / 8 - C1 / 4),  # (c+1)t³ - ct²: below 0, the wind-up
    ("out_back", 0.5, 1 - ((C1 + 1) / 8 - C1 / 4)),  # past 1, the overshoot
    ("in_elastic", 0.9, -0.25),  # -2^-1 · sin(-1.75 · 2π/3) = -0.5 · sin(-7π/6) = -0.5 · 0.5
    ("out_bounce", 1 / 2.75, 1.0),  # the first arc lands
    ("out_bounce", 1.5 / 2.75, 0.75),  # the top of the second arc
    ("out_bounce", 2.25 / 2.75, 0.9375),  # of the third
    ("in_bounce", 1 - 1 / 2.75, 0.0),  # the mirror of the first landing
])
def test_curves_at_points_worked_out_by_hand(name, t, expected):
    assert EASES[name](t) == pytest.approx(expected, abs=1e-12)


def test_every_family_has_in_out_and_in_out_and_linear_is_there():
    assert set(EASES) == {"linear"} | {f"{way}_{family}" for family in FAMILIES for way in ("in", "out", "in_out")}


@pytest.mark.parametrize("name", sorted(EASES))
def test_every_curve_starts_exactly_at_0_and_ends_exactly_at_1(name):
    assert EASES[name](0.0) == 0.0 and EASES[name](1.0) == 1.0
    assert EASES[name](-0.5) == 0.0 and EASES[name](1.5) == 1.0  # clamped outside [0, 1]


@pytest.mark.parametrize("family", FAMILIES)
@given(t=st.floats(0.0, 1.0))
def test_out_mirrors_in_and_in_out_is_symmetric_about_its_middle(family, t):
    assume(1 - (1 - t) == t)  # the mirror of t is exact (not so for t below 2**-53)
    in_, out, in_out = (EASES[f"{way}_{family}"] for way in ("in", "out", "in_out"))
    assert out(t) == pytest.approx(1 - in_(1 - t), abs=1e-12)
    assert in_out(t) + in_out(1 - t) == pytest.approx(1.0, abs=1e-12)
    assert in_out(0.5) == pytest.approx(0.5, abs=1e-12)


@pytest.mark.parametrize("family", ["quad", "cubic", "quart", "quint", "sine", "expo", "circ"])
@given(a=st.floats(0.0, 1.0), b=st.floats(0.0, 1.0))
def test_curves_without_overshoot_never_go_back_or_leave_0_to_1(family, a, b):
    for way in ("in", "out", "in_out"):
        curve = EASES[f"{way}_{family}"]
        low, high = sorted((a, b))
        assert 0.0 <= curve(low) <= curve(high) + 1e-15 <= 1.0 + 1e-15
