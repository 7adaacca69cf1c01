"""The arena benchmark runs (tiny sizes; timings are never asserted here)."""

import importlib.util
import math

import pytest

from benchmarks.arena import STAGES, SYSTEMS, escaped, make_scene, main, run_ours


def test_scene_grows_with_sqrt_n_and_starts_inside():
    scene = make_scene(100, 200)
    assert scene.side == 10 * 20  # ceil(√100) boxes per row, 20 px apart
    assert escaped([(x + 4, y + 4) for x, y in scene.corners], scene.side) == 0
    assert all(abs(v) <= 200 for vx, vy in scene.velocities for v in (vx, vy))


@pytest.mark.parametrize("continuous", [True, False])
def test_our_side_keeps_every_box_in(continuous):
    result = run_ours(make_scene(60, 200), 20, continuous=continuous)
    assert result.ms > 0 and result.escaped == 0
    assert set(result.stages) == set(STAGES) and sum(result.stages[name] for name in SYSTEMS) <= result.ms
    for name in STAGES:  # a stage is part of its system's time; the sweep runs only when swept
        system = name.split(".")[0]
        assert 0 <= result.stages[name] <= result.stages[system]
        assert (result.stages[name] > 0) == (continuous or name != "ResponseSystem.sweep")


@pytest.mark.skipif(importlib.util.find_spec("pymunk") is None, reason="pymunk is in the bench extra")
def test_table_prints_with_pymunk_at_each_speed_and_plots(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    main(["--counts", "40", "--steps", "3", "--rounds", "1", "--speed", "200", "3000",
          "--plot", str(tmp_path / "arena.png"), "--ratio", "40", "--ratio-rounds", "1"])
    out = capsys.readouterr().out.splitlines()
    ratios = [line for line in out if line.startswith(("| ours |", "| pymunk |"))]
    assert len(ratios) == 2 and all(line.endswith("x |") for line in ratios)  # fast/slow, interleaved
    lines = [line for line in out if line.startswith("| 40 |")]
    assert len(lines) == 2  # one row per speed
    for line in lines:
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        assert len(cells) == 6 + len(STAGES)  # N, ours, pymunk, ratio, µs/body, escapes, stages
        assert cells[5].startswith("0 / ")  # ours never escape
    assert (tmp_path / "arena.png").stat().st_size > 10_000


def test_adventure_benchmark_generates_a_200_by_50_map_that_merges_into_few_colliders(tmp_path):
    from benchmarks.adventure import big_map, time_loads

    times, tile_map = time_loads(big_map(tmp_path), rounds=1)
    assert (tile_map.columns, tile_map.rows) == (200, 50)
    assert times[0] > 0 and 0 < len(tile_map.colliders) < tile_map.solid_tiles / 10


def test_level_benchmark_builds_rows_with_a_gap_every_eighth_tile_and_runs():
    from benchmarks.level import COLUMNS, TILE, crates, level
    from benchmarks.level import run_ours as run_level

    tiles = level(250)
    assert len(tiles) == 250
    columns = {round(x / TILE) for x, _, _, _ in tiles}
    assert columns == {c for c in range(COLUMNS) if c % 8 != 7}
    per_row = COLUMNS - COLUMNS // 8  # columns 7, 15, … left out
    assert len({y for _, y, _, _ in tiles}) == math.ceil(250 / per_row)
    drops = crates(150)
    assert all(abs(ax - bx) >= 8 or abs(ay - by) >= 8 for i, (ax, ay, _) in enumerate(drops)
               for bx, by, _ in drops[i + 1:])  # 8 px crates spawned apart
    result = run_level(tiles, drops, 10)
    assert result.ms > 0 and set(result.stages) == set(STAGES)


@pytest.mark.skipif(importlib.util.find_spec("pymunk") is None, reason="pymunk is in the bench extra")
def test_level_table_prints_one_row_per_scene(capsys):
    from benchmarks.level import main as level_main

    level_main(["--tiles", "0", "100", "--crates", "10", "--steps", "2", "--rounds", "1"])
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| ") and "---" not in line]
    assert [row.split("|")[1].strip() for row in rows[1:]] == ["0", "100"]


def test_level_changes_table_times_the_steps_after_a_tile_changes(capsys):
    # Ours only (no pymunk needed): a row per level, the step without change, the steps
    # after a tile is added, removed and moved, and the steps with a bullet fired before each.
    from benchmarks.level import main as level_main

    level_main(["--changes", "--tiles", "0", "120", "--crates", "10", "--no-pymunk"])
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| ") and "---" not in line]
    assert [row.split("|")[1].strip() for row in rows[1:]] == ["0", "120"]
    for row in rows[1:]:
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        times = [float(value) for cell in cells[2:-1] for value in cell.split(",")]
        assert len(times) == 6 and all(ms > 0 for ms in times) and cells[-1] == "–"


@pytest.mark.skipif(importlib.util.find_spec("pymunk") is None, reason="pymunk is in the bench extra")
def test_floor_table_prints_every_pass_and_their_sums(capsys):
    from benchmarks.floor import PASSES, main as floor_main
    floor_main(["--counts", "60", "--repeats", "1", "--steps", "2"])
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| 60 |")]
    assert len(rows) == 1
    cells = [float(cell.strip().rstrip("x")) for cell in rows[0].strip("|").split("|")]
    assert len(cells) == 3 + len(PASSES) + 3  # N, ours, pymunk, the passes, their sums and the ratio
    passes = cells[3:3 + len(PASSES)]
    assert all(ms >= 0 for ms in passes) and passes[0] > 0  # moving 60 bodies takes some time
    # The printed sum of every pass: each printed value is rounded to 2 decimals (off by at
    # most 0.005), the sum's too, so they differ by at most 0.005 per pass and 0.005 for the sum.
    assert cells[-2] == pytest.approx(sum(passes), abs=0.005 * (len(PASSES) + 1) + 1e-9)


@pytest.mark.skipif(importlib.util.find_spec("pymunk") is None, reason="pymunk is in the bench extra")
def test_floor_of_a_game_like_scene_sums_its_passes_broad_phase_and_kernels(capsys):
    from benchmarks.floor import PYTHON_PASSES, print_scene_floors
    print_scene_floors(["platformer"], [40], 2, 1)
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| platformer | 40 |")]
    assert len(rows) == 1
    cells = [cell.strip().rstrip("x") for cell in rows[0].strip("|").split("|")][2:]
    ours, theirs, *parts, floor, ratio, share = map(float, cells)
    assert len(parts) == len(PYTHON_PASSES) + 2 and parts[-1] > 0  # the resolve kernels ran in the steps
    assert floor == pytest.approx(sum(parts), abs=0.05)
    # The ratios come from unrounded times; each printed time is off by at most 0.005 ms, each
    # printed ratio by at most half its last digit.
    def within(printed, top, bottom, digit):
        low, high = (top - 0.005) / (bottom + 0.005), (top + 0.005) / max(bottom - 0.005, 1e-9)
        return low - digit / 2 - 1e-9 <= printed <= high + digit / 2 + 1e-9
    assert within(ratio, floor, theirs, 0.1) and within(share, ours, floor, 0.01)


@pytest.mark.skipif(importlib.util.find_spec("pymunk") is None, reason="pymunk is in the bench extra")
def test_batched_benchmark_puts_copies_a_gap_apart_and_prints_a_row_per_scene_and_count(capsys):
    from benchmarks.batched import GAP, main as batched_main, side_by_side
    from benchmarks.scenes import shooter
    layout = shooter(10)
    three = side_by_side(layout, 3)
    assert len(three.movers) == 3 * len(layout.movers) and len(three.pieces) == 3 * len(layout.pieces)
    assert [m.box[0] - layout.movers[0].box[0] for m in three.movers[::len(layout.movers)]] == [0, GAP, 2 * GAP]
    batched_main(["--copies", "1", "2", "--bodies", "10", "--steps", "2"])
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith(("| platformer", "| shooter"))]
    assert len(rows) == 4


@pytest.mark.skipif(importlib.util.find_spec("pymunk") is None or importlib.util.find_spec("gymnasium") is None,
                    reason="pymunk is in the bench extra, gymnasium in the rl extra")
def test_snapshot_benchmark_prints_both_scenes(capsys):
    from benchmarks.snapshots import main as snapshots_main
    snapshots_main(["--rounds", "1"])
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| adventure level")
            or line.startswith("| 2,000 crates")]
    assert len(rows) == 2


@pytest.mark.skipif(importlib.util.find_spec("pettingzoo") is None or importlib.util.find_spec("gymnasium") is None,
                    reason="PettingZoo is in the bench extra, gymnasium in the rl extra")
def test_environment_benchmark_prints_a_row_per_environment_without_ray(capsys):
    from benchmarks.envs import CONFIGS, main as envs_main
    envs_main(["--no-ray", "--steps", "3", "--rounds", "1"])
    table = capsys.readouterr().out.split("| environment |")[1]
    assert [line.split(" | ")[0].lstrip("| ") for line in table.splitlines()[2:]] == [label for label, _, _ in CONFIGS]


def test_particle_benchmark_prints_a_row_per_count(capsys):
    from benchmarks.particles import main as particles_main
    particles_main(["--counts", "10", "200", "--frames", "3"])
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith(("| 10 ", "| 200 "))]
    assert len(rows) == 2
