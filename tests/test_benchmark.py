"""The arena benchmark runs (tiny sizes; timings are never asserted here)."""

import importlib.util

import pytest

from benchmarks.arena import escaped, make_scene, main, run_ours


def test_scene_grows_with_sqrt_n_and_starts_inside():
    scene = make_scene(100, 200)
    assert scene.side == 10 * 20  # ceil(√100) boxes per row, 20 px apart
    assert escaped([(x + 4, y + 4) for x, y in scene.corners], scene.side) == 0
    assert all(abs(v) <= 200 for vx, vy in scene.velocities for v in (vx, vy))


@pytest.mark.parametrize("continuous", [True, False])
def test_our_side_keeps_every_box_in(continuous):
    ms, out = run_ours(make_scene(60, 200), 20, continuous=continuous)
    assert ms > 0 and out == 0


@pytest.mark.skipif(importlib.util.find_spec("pymunk") is None, reason="pymunk is in the bench extra")
def test_table_prints_with_pymunk(capsys):
    main(["--counts", "40", "--steps", "3", "--rounds", "1"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith("| N |") and lines[3].startswith("| 40 |")


def test_adventure_benchmark_generates_a_200_by_50_map_that_merges_into_few_colliders(tmp_path):
    from benchmarks.adventure import big_map, time_loads

    times, tile_map = time_loads(big_map(tmp_path), rounds=1)
    assert (tile_map.columns, tile_map.rows) == (200, 50)
    assert times[0] > 0 and 0 < len(tile_map.colliders) < tile_map.solid_tiles / 10
