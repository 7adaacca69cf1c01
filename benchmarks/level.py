"""Level benchmark: crates falling through a hand-built level of STATIC tiles.

A level of K tiles (16×16 px STATIC colliders, one per tile, not merged: a
level built in code rather than loaded from Tiled) in rows 64 px apart, every
eighth tile left out so crates fall from row to row, and N crates (8×8 px,
friction 0.5, no bounce) dropped on it from a grid above it, with gravity
980 px/s² and ±100 px/s sideways. pymunk runs the same scene in the same process (tiles as static
shapes, crates with infinite moment), rounds interleaved; compare ratios
within one run, never absolute times across runs. What it shows: how the
cost of a step grows with level geometry that does not move.

    pip install -e .[bench]
    python -m benchmarks.level                          # K = 0 … 10,000 tiles, N = 100 and 1,000
    python -m benchmarks.level --tiles 2500 --crates 300
    python -m benchmarks.level --changes --tiles 1500 6000 --crates 100   # the step after a tile changes

``--changes`` times, instead, the step after level geometry changes (ours only): once the
crates have fallen for 60 steps (and ``ecs.freeze_loaded``, as a ``Game`` calls it), a step with
no change, then the step after one tile is added, after one is removed, and the two steps after
one is moved 1 px in place. Then what a shooter does every frame, against pymunk: a 4×4 bullet
fired (an entity made, at 600 px/s) and, once ten fly, the oldest removed, before each of 40
steps; the median of those steps, the entity made and removed included.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time

from benchmarks.arena import STAGES, Result, stage_label, time_space, time_steps
from components import Collider, ColliderType, Physics, Transform
from ecs import World, freeze_loaded

TILE = 16.0
CRATE = 8.0
COLUMNS = 100
ROW_GAP = 64.0
DT = 1.0 / 60.0
GRAVITY = 980.0

Box = tuple[float, float, float, float]
FIRED = 40  # steps timed with a bullet fired before each (``--changes``)
FIRED_X = [40.0 + 97.0 * k for k in range(16)]  # where the bullets start, in turn (px)


def level(tiles: int) -> list[Box]:
    """``tiles`` tile boxes (x, y, w, h in px) in rows of COLUMNS from
    y = 100 down, ROW_GAP px apart, every eighth column left out."""
    boxes: list[Box] = []
    column = row = 0
    while len(boxes) < tiles:
        if column % 8 != 7:
            boxes.append((column * TILE, 100.0 + row * ROW_GAP, TILE, TILE))
        column += 1
        if column == COLUMNS:
            column, row = 0, row + 1
    return boxes


def crates(count: int, seed: int = 1) -> list[tuple[float, float, float]]:
    """(x, y, vx) of ``count`` crates (top-left corner in px, velocity in
    px/s) on a jittered grid above the level, 16 px apart (none
    overlapping), rows stacked upward from y = 80."""
    rng = random.Random(seed)
    per_row = int(COLUMNS * TILE // 16)
    drops = []
    for index in range(count):
        row, column = divmod(index, per_row)
        drops.append((column * 16 + 4 + rng.uniform(-3, 3), 80 - row * 16 + rng.uniform(-3, 3), rng.uniform(-100, 100)))
    return drops


def run_ours(tiles: list[Box], drops: list[tuple[float, float, float]], steps: int) -> Result:
    """ms/step and stage times for this framework (``escaped`` unused: 0)."""
    world = World(gravity=(0, GRAVITY))
    for x, y, w, h in tiles:
        world.create_entity(Transform((x, y)), Collider((w, h), type=ColliderType.STATIC))
    for x, y, vx in drops:
        world.create_entity(Transform((x, y)), Collider((CRATE, CRATE)), Physics((vx, 0), friction=0.5))
    ms, stages = time_steps(world, steps)
    world.close()
    return Result(ms, 0, stages)


def run_pymunk(tiles: list[Box], drops: list[tuple[float, float, float]], steps: int) -> Result:
    """ms/step for pymunk on the same scene."""
    import pymunk

    space = pymunk.Space()
    space.gravity = (0, GRAVITY)
    for x, y, w, h in tiles:
        tile = pymunk.Poly(space.static_body, [(x, y), (x + w, y), (x + w, y + h), (x, y + h)])
        tile.friction = 0.5
        space.add(tile)
    for x, y, vx in drops:
        body = pymunk.Body(1.0, math.inf)
        body.position = (x + CRATE / 2, y + CRATE / 2)
        body.velocity = (vx, 0)
        shape = pymunk.Poly.create_box(body, (CRATE, CRATE))
        shape.friction = 0.5
        space.add(body, shape)
    return Result(time_space(space, steps), 0)


def change_costs(tiles: list[Box], drops: list[tuple[float, float, float]]) -> list[float]:
    """ms of a step without change, and of the step after a tile is added, after one is
    removed, and of the two after one is moved 1 px in place (``--changes``)."""
    world = World(gravity=(0, GRAVITY))
    entities = [world.create_entity(Transform((x, y)), Collider((w, h), type=ColliderType.STATIC))
                for x, y, w, h in tiles]
    for x, y, vx in drops:
        world.create_entity(Transform((x, y)), Collider((CRATE, CRATE)), Physics((vx, 0), friction=0.5))
    for _ in range(60):
        world.step(DT)
    freeze_loaded()  # (as a Game does once a scene has stepped: no full collection falls in a timed step)

    def step() -> float:
        began = time.perf_counter()
        world.step(DT)
        return (time.perf_counter() - began) * 1000.0

    times = [step()]
    added = world.create_entity(Transform((-100.0, -100.0)), Collider((TILE, TILE), type=ColliderType.STATIC))
    times.append(step())
    world.delete_entity(added, immediate=True)
    times.append(step())
    if entities:
        world.component_for_entity(entities[-1], Transform).position.y += 1.0
    times += [step(), step()]
    live: list[int] = []

    def fire(index: int) -> float:
        began = time.perf_counter()
        live.append(world.create_entity(Transform((FIRED_X[index % len(FIRED_X)], 40.0)), Collider((4.0, 4.0)),
                                        Physics((600.0, 0.0))))
        if len(live) > 10:
            world.delete_entity(live.pop(0), immediate=True)
        world.step(DT)
        return (time.perf_counter() - began) * 1000.0

    times.append(statistics.median(fire(index) for index in range(FIRED)))
    world.close()
    return times


def fired_pymunk(tiles: list[Box], drops: list[tuple[float, float, float]]) -> float:
    """pymunk's median ms of a step after a bullet is added (and the oldest of ten removed), as
    ``change_costs`` times ours, on the same scene after the same 60 steps."""
    import pymunk

    space = pymunk.Space()
    space.gravity = (0, GRAVITY)
    for x, y, w, h in tiles:
        space.add(pymunk.Poly(space.static_body, [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]))
    for x, y, vx in drops:
        body = pymunk.Body(1.0, math.inf)
        body.position, body.velocity = (x + CRATE / 2, y + CRATE / 2), (vx, 0)
        space.add(body, pymunk.Poly.create_box(body, (CRATE, CRATE)))
    for _ in range(60):
        space.step(DT)
    freeze_loaded()
    live: list[tuple[pymunk.Body, pymunk.Shape]] = []

    def fire(index: int) -> float:
        began = time.perf_counter()
        body = pymunk.Body(1.0, math.inf)
        body.position, body.velocity = (FIRED_X[index % len(FIRED_X)] + 2.0, 42.0), (600.0, 0.0)
        live.append((body, pymunk.Poly.create_box(body, (4.0, 4.0))))
        space.add(*live[-1])
        if len(live) > 10:
            space.remove(*live.pop(0))
        space.step(DT)
        return (time.perf_counter() - began) * 1000.0

    return statistics.median(fire(index) for index in range(FIRED))


def main(argv: list[str] | None = None) -> None:
    """Print ours and pymunk's ms/step for each level size and crate count."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tiles", type=int, nargs="+", default=[0, 1000, 2500, 10000])
    parser.add_argument("--crates", type=int, nargs="+", default=[100, 1000])
    parser.add_argument("--steps", type=int, default=30, help="timed steps per round")
    parser.add_argument("--rounds", type=int, default=2, help="rounds per engine; the best is shown")
    parser.add_argument("--no-pymunk", action="store_true", help="time this framework only")
    parser.add_argument("--changes", action="store_true",
                        help="time the steps after a tile is added, removed or moved instead (ours only), "
                             "and with a bullet fired before each (ours and pymunk)")
    args = parser.parse_args(argv)
    if args.changes:
        print("\n| tiles | crates | no change ms | a tile added | a tile removed | a tile moved 1 px (two steps) "
              "| a bullet fired each step | pymunk, the same |")
        print("|---|---|---|---|---|---|---|---|")
        for count in args.crates:
            for tiles in args.tiles:
                same, added, removed, moved, after, fired = change_costs(level(tiles), crates(count))
                theirs = "–" if args.no_pymunk else f"{fired_pymunk(level(tiles), crates(count)):.2f}"
                print(f"| {tiles} | {count} | {same:.2f} | {added:.2f} | {removed:.2f} | {moved:.2f}, {after:.2f} "
                      f"| {fired:.2f} | {theirs} |", flush=True)
        return
    print(f"\nlevel: 16x16 STATIC tiles, 8x8 crates, g={GRAVITY:g} px/s², best of {args.rounds} rounds "
          f"of {args.steps} steps; stages in ms/step")
    print("| tiles | crates | ours ms/step | pymunk ms/step | ours/pymunk | "
          + " | ".join(stage_label(name) for name in STAGES) + " |")
    print("|---" * (5 + len(STAGES)) + "|")
    for count in args.crates:
        for tiles in args.tiles:
            scene = (level(tiles), crates(count))
            best: dict[str, Result] = {}
            for _ in range(args.rounds):
                engines = [("ours", run_ours)] + ([] if args.no_pymunk else [("pymunk", run_pymunk)])
                for name, run in engines:
                    result = run(*scene, args.steps)
                    if name not in best or result.ms < best[name].ms:
                        best[name] = result
            ours = best["ours"]
            theirs = f"{best['pymunk'].ms:.2f} | {ours.ms / best['pymunk'].ms:.1f}x" if "pymunk" in best else "– | –"
            stages = " | ".join(f"{ours.stages[name]:.2f}" for name in STAGES)
            print(f"| {tiles} | {count} | {ours.ms:.2f} | {theirs} | {stages} |", flush=True)


if __name__ == "__main__":
    main()
