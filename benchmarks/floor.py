"""Floor benchmark: the least a step of the arena can cost while bodies live in components.

Each body's state is in its components (a Transform's position is a
``pygame.Vector2``, and so are a Physics' velocity and a Collider's offset and
size), and a user may change any of them between steps. So whatever runs
the physics, every step must at least move every body (Movement), check
every vector is finite (``World.step``), read every body's state into
arrays for compiled code, and write back what the collisions changed. This
times those passes, and this framework's two compiled kernels (the broad
phase's pairs and the sweeps), on the arena scene of ``benchmarks.arena``
at 200 px/s, against a whole step of ours and of pymunk in the same
process. Compare within one run, never across runs.

    pip install -e .[bench]
    python -m benchmarks.floor                      # N = 1,000, 10,000, 16,000
    python -m benchmarks.floor --counts 10000 --repeats 20
"""

from __future__ import annotations

import argparse
import gc
import time
from collections.abc import Callable

import numpy as np

from benchmarks.arena import DT, build_world, make_scene, run_ours, run_pymunk
from components import ALL, ColliderType
from ecs import World
from systems.physics._kernels import sweep as sweep_kernel
from systems.physics._kernels import table as kernel_table
from systems.physics._stages import resolve
from systems.physics._bodies.table import read_arrays
from systems.physics._shapes.geometry import TIES
from systems.physics._kernels.pairs import LEVEL, SKIP, grid_pairs

PASSES = ("move", "validate", "read", "write back", "pairs kernel", "sweep kernel")


def best_ms(run: Callable[[], object], repeats: int) -> float:
    """The fastest of ``repeats`` calls of ``run``, in ms (collector off)."""
    gc.collect()
    gc.disable()
    try:
        times = []
        for _ in range(repeats):
            start = time.perf_counter()
            run()
            times.append(time.perf_counter() - start)
    finally:
        gc.enable()
    return min(times) * 1000


def arena_world(count: int) -> World:
    """The arena at 200 px/s, stepped three times, then moved and collided
    once more: the sweeps are next."""
    world, _ = build_world(make_scene(count, 200.0))
    for _ in range(3):
        world.step(DT)
    world.movement.process(DT)
    world.collision.process(DT)
    return world


def time_passes(count: int, repeats: int) -> dict[str, float]:
    """ms for each of PASSES on the arena with ``count`` boxes, each the
    best of ``repeats``."""
    world = arena_world(count)
    collision = world.collision
    times = {"validate": best_ms(world._check_vectors, repeats),
             "read": best_ms(lambda: read_arrays(collision.columns, np.arange(len(collision.columns.transforms))),
                             repeats)}
    boxes, entities = collision.filed_boxes(), collision.columns.entities
    static = np.array([c.type is ColliderType.STATIC for c in collision.columns.colliders])
    kinds = np.where(static, SKIP | LEVEL, 0)  # the walls: skipped, level geometry
    layers = np.tile(np.array([1, ALL], np.int64), (len(boxes), 1))  # every box on the default layer
    times["pairs kernel"] = best_ms(lambda: grid_pairs(boxes, kinds, layers, entities, collision.grid.cell_size,
                                                       collision.steps, 1 << 16), repeats)
    level = [collision.columns.colliders[row] for row in collision.found.resting.rows.tolist()]
    table, ints = resolve._Tables().start(collision.found, resolve._codes(level), None, False, False)
    step = np.zeros(kernel_table.STEP_PARAMETERS)
    step[[kernel_table.DT, kernel_table.MAX_SUBDIVISIONS, kernel_table.CELL_SIZE]] = DT, 32.0, collision.grid.cell_size
    step[kernel_table.SWEEPS] = 1.0
    pairs, ties, verdicts = collision.pair_rows(), np.array(TIES), np.zeros((0, 3), np.int64)

    buffers = sweep_kernel.buffers_for(None, len(pairs), len(table))

    def sweep() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        body, flags = table.copy(), ints.copy()
        status = sweep_kernel.run_sweeps(body, flags, pairs, verdicts, ties, step, buffers)[0]
        return status, body, flags
    while (status := sweep()[0])[kernel_table.OVERFLOW]:  # buffers that suffice, found before timing
        buffers = sweep_kernel.buffers_for(buffers, len(pairs), len(table), int(status[kernel_table.OVERFLOW]))
    times["sweep kernel"] = best_ms(sweep, repeats)
    _, body, flags = sweep()
    moved = np.flatnonzero(flags[:, kernel_table.VERSION])  # (the rows the sweeps moved)
    transforms = [collision.columns.transforms[row] for row in moved.tolist()]
    physics = [collision.columns.physics[row] for row in moved.tolist()]
    positions = body[moved, kernel_table.POS_X:kernel_table.POS_Y + 1].tolist()
    velocities = body[moved, kernel_table.VEL_X:kernel_table.VEL_Y + 1].tolist()

    def write_back() -> None:  # only what the sweeps changed: positions and velocities, set by index
        for transform, motion, (x, y), (vx, vy) in zip(transforms, physics, positions, velocities):
            position = transform.position
            position[0], position[1] = x, y
            if motion is not None:
                velocity = motion.velocity
                velocity[0], velocity[1] = vx, vy
    times["write back"] = best_ms(write_back, repeats)
    times["move"] = best_ms(lambda: world.movement.process(DT), repeats)  # last: it moves the bodies on
    world.close()
    return times


def main(argv: list[str] | None = None) -> None:
    """Print one row per N: whole steps, each pass, and their sums."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--counts", type=int, nargs="+", default=[1000, 10000, 16000])
    parser.add_argument("--repeats", type=int, default=10, help="calls per pass; the fastest is shown")
    parser.add_argument("--steps", type=int, default=20, help="timed steps per whole-step round")
    args = parser.parse_args(argv)
    python = PASSES[:4]
    print("floor: arena, 8x8 boxes, ±200 px/s, e=1, dt=1/60; ms (best of repeats); whole steps best of 2 rounds")
    print("| N | ours ms/step | pymunk ms/step | " + " | ".join(PASSES)
          + " | Python passes | all passes | all passes / pymunk |")
    print("|---" * (len(PASSES) + 6) + "|")
    for count in args.counts:
        scene = make_scene(count, 200.0)
        ours = min(run_ours(scene, args.steps).ms for _ in range(2))
        theirs = min(run_pymunk(scene, args.steps).ms for _ in range(2))
        times = time_passes(count, args.repeats)
        floor = sum(times[name] for name in python)
        every = sum(times.values())
        print(f"| {count} | {ours:.2f} | {theirs:.2f} | " + " | ".join(f"{times[name]:.2f}" for name in PASSES)
              + f" | {floor:.2f} | {every:.2f} | {every / theirs:.1f}x |", flush=True)


if __name__ == "__main__":
    main()
