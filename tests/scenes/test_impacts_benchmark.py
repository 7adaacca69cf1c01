"""benchmarks.impacts: the lean event-driven sweep it times resolves impacts as physics says."""

import pytest

from benchmarks.arena import BOX, DT, make_scene
from benchmarks.impacts import COUNT_NAMES, IMPACTS, Lean, main
from systems.physics._kernels.table import MOTION_X, MOTION_Y, ORIGIN_X, ORIGIN_Y


def test_a_head_on_impact_comes_at_the_gap_over_the_closing_speed_and_swaps_the_velocities():
    # 8 px boxes 12 px apart closing at 1,200 px/s meet after 0.01 s; equal masses with e = 1
    # swap velocities, so each goes back for the rest of the step (1/60 - 0.01 s).
    lean = Lean.of_boxes([(0.0, 50.0), (20.0, 50.0)], [(600.0, 0.0), (-600.0, 0.0)], side=400.0)
    lean.step()
    back = DT - 0.01
    assert lean.body[0, ORIGIN_X] == pytest.approx(600.0 * 0.01 - 600.0 * back, abs=1e-9)
    assert lean.body[1, ORIGIN_X] == pytest.approx(20.0 - 600.0 * 0.01 + 600.0 * back, abs=1e-9)
    assert lean.body[0, MOTION_X] / DT == pytest.approx(-600.0) and lean.body[1, MOTION_X] / DT == pytest.approx(600.0)
    assert lean.counts[IMPACTS] == 1 and lean.body[0, ORIGIN_Y] == 50.0


def test_a_box_bounces_off_a_wall_at_its_speed():
    # 2 px from the right wall (inside edge at the arena's side) at 1,200 px/s: there after
    # 1/600 s, then back for the rest of the step.
    side = 200.0
    lean = Lean.of_boxes([(side - BOX - 2.0, 100.0)], [(1200.0, 0.0)], side=side)
    lean.step()
    assert lean.body[0, ORIGIN_X] == pytest.approx(side - BOX - 1200.0 * (DT - 2.0 / 1200.0), abs=1e-9)
    assert lean.body[0, MOTION_X] / DT == pytest.approx(-1200.0)


def test_the_fast_arena_keeps_every_box_in_and_its_kinetic_energy():
    # Elastic impacts (e = 1) between equal boxes and with still walls conserve kinetic energy;
    # the sweep is exact, so none tunnels out. (A box stopped at the impact cap would lose its.)
    lean = Lean.of(200, 3000.0)
    energy = (lean.body[:200, MOTION_X] ** 2 + lean.body[:200, MOTION_Y] ** 2).sum()
    for _ in range(10):
        lean.step()
    after = (lean.body[:200, MOTION_X] ** 2 + lean.body[:200, MOTION_Y] ** 2).sum()
    assert lean.counts[IMPACTS] > 100 and lean.escaped() == 0
    assert after == pytest.approx(energy, rel=1e-9)


def test_the_scene_is_the_arena_benchmark_s():
    lean, scene = Lean.of(60, 200.0), make_scene(60, 200.0)
    assert [tuple(row) for row in lean.body[:60, [ORIGIN_X, ORIGIN_Y]]] == scene.corners
    assert lean.body[0, MOTION_X] == scene.velocities[0][0] * DT


def test_the_table_has_both_engines_at_both_speeds(capsys):
    main(["--counts", "60", "--steps", "2", "--rounds", "1"])
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith(("| ours", "| lean"))]
    assert [row.split("|")[1:3] for row in rows] == [[" ours ", " 200 "], [" ours ", " 3000 "],
                                                     [" lean ", " 200 "], [" lean ", " 3000 "]]
    assert all(len(row.split("|")) == 7 + len(COUNT_NAMES) for row in rows)
