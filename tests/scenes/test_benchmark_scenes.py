"""The game-like scenes benchmark builds what it says and runs (tiny sizes; timings are never asserted)."""

import argparse
import importlib.util
import math

import pytest

from benchmarks.arena import STAGES
from benchmarks.scenes import (BULLET, DT, LEDGE, ONE_WAY_SLOP, RAMP_H, Layout, Mover, Piece, SCENES, main, overlaps,
                               platformer, run_ours, run_pymunk, shooter)
from components import ALL, Shape, Side

needs_pymunk = pytest.mark.skipif(importlib.util.find_spec("pymunk") is None, reason="pymunk is in the bench extra")


def apart(boxes):
    """Whether no two of the boxes overlap."""
    return all(not overlaps(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1:])


def inside(box, area):
    """Whether ``box`` lies within ``area`` (both left, top, width, height)."""
    return (area[0] <= box[0] and box[0] + box[2] <= area[0] + area[2]
            and area[1] <= box[1] and box[1] + box[3] <= area[1] + area[3])


def test_platformer_rains_n_crates_of_8_to_16_px_apart_over_ledges_one_way_ledges_and_ramps():
    layout = platformer(150)
    boxes = [mover.box for mover in layout.movers]
    assert len(boxes) == 150 and all(8 <= w <= 16 and 8 <= h <= 16 for _, _, w, h in boxes)
    assert apart(boxes) and all(inside(box, layout.inside) for box in boxes)
    level = [piece.box for piece in layout.pieces]
    assert not any(overlaps(crate, piece) for crate in boxes for piece in level)  # none spawned in a ledge
    shapes = {(piece.shape, piece.sides) for piece in layout.pieces}
    assert {(Shape.BOX, Side.ALL), (Shape.BOX, Side.TOP), (Shape.TRIANGLE_BOTTOM_RIGHT, Side.ALL),
            (Shape.TRIANGLE_BOTTOM_LEFT, Side.ALL)} <= shapes
    ramps = [piece.box for piece in layout.pieces if piece.shape.triangle]
    ledge_tops = {piece.box[1] for piece in layout.pieces if piece.box[3] == LEDGE}
    assert all(y + RAMP_H in ledge_tops for _, y, _, _ in ramps)  # each ramp stands on a ledge
    assert layout.gravity == 980 and (layout.elasticity, layout.friction) == (0, 0.5)
    assert all(0 <= vy <= 200 and abs(vx) <= 100 for vx, vy in (mover.velocity for mover in layout.movers))


def test_shooter_has_fast_bullets_on_a_layer_that_skips_bullets_and_half_as_many_coins():
    layout = shooter(120)
    assert len(layout.movers) == 120 and len(layout.coins) == 60
    assert layout.category == BULLET and layout.mask == ALL & ~BULLET  # bullets never meet bullets
    assert layout.gravity == 0 and layout.elasticity == 1
    assert all(600 <= math.hypot(*mover.velocity) <= 1500 for mover in layout.movers)
    bullets = [mover.box for mover in layout.movers]
    assert apart(bullets) and all(box[2:] == (4, 4) and inside(box, layout.inside) for box in bullets)
    obstacles = [piece.box for piece in layout.pieces if inside(piece.box, layout.inside)]
    assert obstacles and not any(overlaps(thing, obstacle) for thing in bullets + layout.coins for obstacle in obstacles)


@pytest.mark.parametrize("scene", list(SCENES))
def test_every_scene_steps_finite_and_keeps_our_bodies_in(scene):
    args = argparse.Namespace(level_tiles=100, level_crates=20)
    layout = SCENES[scene](30, args)
    for continuous in (True, False):
        outcome = run_ours(layout, 2, continuous=continuous)
        assert outcome.ms > 0 and set(outcome.stages) == set(STAGES)
        assert all(math.isfinite(value) and value >= 0 for value in outcome.stages.values())
        assert len(outcome.centres) == len(layout.movers)
        assert all(math.isfinite(c) for centre in outcome.centres for c in centre)
        if continuous:
            assert outcome.escaped == 0  # swept: nothing tunnels through the closed level's walls


def bullet_into_coin():
    """One bullet at 600 px/s toward a coin 16 px ahead: after the warm-up
    step and 2 more it has gone 3·600/60 = 30 px, through the coin."""
    return Layout(0.0, [], [Mover((0.0, 10.0, 4.0, 4.0), (600.0, 0.0))], elasticity=1.0, friction=0.0,
                  inside=None, category=BULLET, mask=ALL & ~BULLET, coins=[(20.0, 8.0, 8.0, 8.0)])


def ledge_and_two_crates():
    """A Side.TOP ledge with its top at y = 100, a crate resting just above
    it, and one below it thrown up at 600 px/s, which rises
    v²/2g = 600²/1960 = 184 px: through the ledge, 20 px above its own start."""
    crates = [Mover((120.0, 60.0, 10.0, 10.0), (0.0, 0.0)), Mover((50.0, 120.0, 10.0, 10.0), (0.0, -600.0))]
    return Layout(980.0, [Piece((0.0, 100.0, 200.0, 8.0), sides=Side.TOP)], crates, elasticity=0.0,
                  friction=0.5, inside=None)


@pytest.mark.parametrize("engine", [run_ours, pytest.param(run_pymunk, marks=needs_pymunk)])
def test_a_bullet_through_a_coin_is_one_pickup_for_either_engine(engine):
    assert engine(bullet_into_coin(), 2).pickups == 1


@pytest.mark.parametrize("engine", [run_ours, pytest.param(run_pymunk, marks=needs_pymunk)])
def test_one_way_ledges_stop_a_crate_from_above_and_let_one_through_from_below(engine):
    # 0.4 s (the warm-up step and 23): the resting crate has landed (30 px to fall take
    # √(2·30/980) = 0.25 s); the thrown one has risen 600·0.4 − 980·0.4²/2 = 162 px, its
    # bottom from 130 to −32 px, above the ledge it passed
    landed, thrown = engine(ledge_and_two_crates(), round(0.4 / DT) - 1).centres
    # its bottom on the ledge's top (pymunk's soft contacts let it sink in a little first)
    assert landed[1] + 5 == pytest.approx(100, abs=ONE_WAY_SLOP)
    # Euler steps, gravity applied before the move (ours) or after (pymunk), differ from the
    # parabola by g·dt²·n/2 = g·t·dt/2 = 3.27 px after n = 24 steps (a hair more from float rounding: 3.3)
    assert thrown[1] + 5 == pytest.approx(130 - (600 * 0.4 - 980 * 0.4 ** 2 / 2), abs=3.3)


@needs_pymunk
def test_table_has_a_row_for_each_scene_with_pymunk_and_the_discrete_pipeline(capsys):
    main(["--counts", "30", "--steps", "2", "--rounds", "1", "--discrete", "--level-tiles", "100",
          "--level-crates", "20"])
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| ") and "---" not in line]
    assert [line.split("|")[1].strip() for line in rows[1:]] == list(SCENES)
    for line in rows[1:]:
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        assert len(cells) == 7 + len(STAGES) + 2  # scene, N, ours, pymunk, ratio, escapes, pickups, stages, discrete
        assert cells[4].endswith("x") and float(cells[2]) > 0 and float(cells[3]) > 0
        assert cells[5].startswith("0 / ") or cells[5] == "– (open)"  # ours never escape
    assert "/" in rows[2].split("|")[7]  # the shooter's pickups, both engines


def test_table_without_pymunk_leaves_its_columns_empty(capsys):
    main(["--counts", "30", "--steps", "2", "--rounds", "1", "--scenes", "arena", "--no-pymunk"])
    row = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| arena |")]
    assert len(row) == 1 and "| – | – | 0 / – |" in row[0]


@needs_pymunk
def test_churn_table_replaces_a_mover_before_each_step_in_both_engines(capsys):
    # A row per scene, N movers: ours and pymunk, each step after the oldest mover was deleted
    # and one like it made where it was.
    main(["--churn", "--counts", "30", "--steps", "3", "--rounds", "1", "--scenes", "shooter", "arena"])
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| ") and "---" not in line]
    assert [line.split("|")[1].strip() for line in rows[1:]] == ["shooter", "arena"]
    for line in rows[1:]:
        scene, count, ours, theirs, ratio = (cell.strip() for cell in line.strip().strip("|").split("|"))
        assert count == "30" and float(ours) > 0 and float(theirs) > 0 and ratio.endswith("x")



def test_steps_prints_the_least_tenth_percentile_and_median_of_each_steps_time(capsys):
    # Timings are never asserted: only that three times come out, in order (ascending times).
    from benchmarks import steps

    steps.main(["--scene", "arena", "--count", "40", "--steps", "12"])
    line = capsys.readouterr().out.split()
    assert line[:2] == ["arena", "ms/step:"]
    least, tenth, median = (float(line[k]) for k in (3, 6, 8))
    assert 0 < least <= tenth <= median
