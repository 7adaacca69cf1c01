"""Game-layer benchmark: loading Tiled maps, merging their colliders, drawing the adventure.

Prints, in one run (absolute times vary with the machine; compare within a run):

- loading the adventure's map (``examples/adventure/assets/level.tmx``) and a
  generated 200×50 map into a World: ms (best and median of ``--rounds``),
  solid tiles, colliders after merging, chunk sprites;
- the adventure's recorded demo played headless with drawing (title, the
  whole level, pause, end): ms per level frame (mean, median, 95th
  percentile), and the collision pipeline's ms per step with the merged
  colliders and with one collider per tile.

    python -m benchmarks.adventure
    python -m benchmarks.adventure --rounds 5 --frames 900
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

from ecs import World, load_map  # noqa: E402
from examples.adventure import build  # noqa: E402
from examples.adventure import make_assets as assets  # noqa: E402
from examples.adventure.art import ASSETS, LEVEL  # noqa: E402
from examples.adventure.scenes import LevelScene  # noqa: E402

PIPELINE = ("MovementSystem", "CollisionSystem", "ResponseSystem")


def big_map(folder: Path, columns: int = 200, rows: int = 50, seed: int = 5) -> Path:
    """A columns×rows map on the adventure's tileset: rolling ground, floating
    brick ledges and a decoration layer."""
    rng = random.Random(seed)
    ground = [[-1] * columns for _ in range(rows)]
    decor = [[-1] * columns for _ in range(rows)]
    top = rows - 12
    for x in range(columns):
        top = max(rows // 2, min(rows - 3, top + rng.choice((-1, 0, 0, 0, 1))))
        if rng.random() < 0.06:
            continue  # a pit
        for y in range(top, rows):
            ground[y][x] = assets.T_GRASS if y == top else assets.T_DIRT
        if rng.random() < 0.2:
            decor[top - 1][x] = rng.choice((assets.T_FLOWER_RED, assets.T_ROCK, assets.T_TALL_GRASS))
    for _ in range(columns // 3):
        x, y, width = rng.randrange(columns - 8), rng.randrange(4, rows // 2), rng.randrange(2, 8)
        for i in range(width):
            ground[y][x + i] = assets.T_BRICK
    for name in ("tileset.tsx", "tileset.png"):
        shutil.copy(ASSETS / name, folder / name)
    path = folder / "big.tmx"
    path.write_text(assets.tmx([("ground", ground, {}), ("decoration", decor, {})], []))
    return path


def time_loads(path: Path, rounds: int) -> tuple[list[float], object]:
    """ms of each load_map of ``path`` into a fresh World, and the last TileMap."""
    times, tile_map = [], None
    for _ in range(rounds):
        world = World()
        start = time.perf_counter()
        tile_map = load_map(world, path, chunk_size=8)
        times.append((time.perf_counter() - start) * 1000)
        world.close()
    return times, tile_map


def play(frames: int, merge: bool) -> tuple[list[float], dict[str, float], int]:
    """Play the demo headless; ms of each frame spent in the level, the
    pipeline's ms per step, and how many steps it took."""
    LevelScene.merge = merge
    game, art = build(headless=True)
    times: list[float] = []
    pipeline = dict.fromkeys(PIPELINE, 0.0)
    steps = 0
    for _ in range(frames):
        start = time.perf_counter()
        game.frame(game.timestep.step, alpha=1.0)
        elapsed = (time.perf_counter() - start) * 1000
        if isinstance(game.scene, LevelScene) and game.scene.hero:
            times.append(elapsed)
            steps += 1
            for name in PIPELINE:
                pipeline[name] += game.frame_timings.get(name, 0.0)
    art.audio.close()
    game.close()
    LevelScene.merge = True
    return times[1:], {name: ms / max(steps, 1) for name, ms in pipeline.items()}, steps  # [1:]: the load


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10, help="loads of each map (default 10)")
    parser.add_argument("--frames", type=int, default=1800, help="frames of the demo (default 1800: all of it)")
    args = parser.parse_args(argv)
    pygame.display.init()
    pygame.display.set_mode((800, 480))  # as in the game: images are converted for the screen
    print("| map | tiles | solid tiles | colliders merged | chunks | load ms best | load ms median |")
    print("|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as folder:
        for name, path in (("adventure", LEVEL), ("generated", big_map(Path(folder)))):
            times, tile_map = time_loads(path, args.rounds)
            assert tile_map is not None
            print(f"| {name} | {tile_map.columns}×{tile_map.rows} | {tile_map.solid_tiles} | "  # type: ignore[attr-defined]
                  f"{len(tile_map.colliders)} | {len(tile_map.chunks)} | {min(times):.1f} | "  # type: ignore[attr-defined]
                  f"{statistics.median(times):.1f} |")
    print()
    print("| adventure demo | level frames | ms/frame mean | median | p95 | Movement+Collision+Response ms/step |")
    print("|---|---|---|---|---|---|")
    for merge in (True, False):
        times, pipeline, _ = play(args.frames, merge)
        ordered = sorted(times)
        print(f"| {'merged' if merge else 'one per tile'} colliders | {len(times)} | {statistics.mean(times):.2f} | "
              f"{statistics.median(times):.2f} | {ordered[int(0.95 * len(ordered))]:.2f} | "
              f"{sum(pipeline.values()):.3f} |")


if __name__ == "__main__":
    main()
