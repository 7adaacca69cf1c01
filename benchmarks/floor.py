"""Floor benchmark: the least a step can cost while bodies live in components.

Each body's state is in its components (a Transform's position is a
``pygame.Vector2``, and so are a Physics' velocity and a Collider's offset and
size), and a user may change any of them between steps. So whatever runs
the physics, every step must at least move every body (Movement), check
every vector is finite (``World.step``), read every body's vectors into
arrays for compiled code (its other fields change only by assignment and are
kept while none is: ``systems.physics._bodies.kept``), and write back what
the collisions changed. Where the compiled kernels run, these passes read
and write the vectors' doubles where pygame keeps them
(``systems.physics._kernels.storage``): what is left of them is Movement's
arithmetic, the check's and the layout of the core's tables. This
times those passes, and this framework's two compiled kernels (the broad
phase's pairs and the sweeps), on the arena scene of ``benchmarks.arena``
at 200 px/s, against a whole step of ours and of pymunk in the same
process. Compare within one run, never across runs.

With ``--instructions`` it also counts, with valgrind's callgrind (each
pass in a process of its own, only the calls themselves), the instructions
of each component pass and of pymunk's whole step, next to their times: a
measure this machine's noise doesn't blur.

    pip install -e .[bench]
    python -m benchmarks.floor                      # N = 1,000, 10,000, 16,000
    python -m benchmarks.floor --counts 10000 --repeats 20
    python -m benchmarks.floor --counts 2000 --repeats 5 --instructions   # needs valgrind
    python -m benchmarks.floor --counts 2000 --scenes platformer shooter level

``--scenes`` does the same for the game-like scenes of ``benchmarks.scenes``: the
passes over their components, their broad phase and their resolve
kernels as they run inside a step, summed as the floor, against our whole
step and pymunk's.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import gc
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from benchmarks import scenes
from benchmarks.arena import DT, build_space, build_world, make_scene, run_ours, run_pymunk
from components import ALL, ColliderType
from ecs import World
from systems.physics._kernels import background
from systems.physics._kernels import sweep as sweep_kernel
from systems.physics._kernels import table as kernel_table
from systems.physics._stages import resolve
from systems.physics._bodies.table import Materials, Selection, VectorList, Vectors, read_arrays, read_geometry
from systems.physics._stages import storage
from systems.physics._shapes.geometry import TIES
from systems.physics._kernels.pairs import LEVEL, SKIP, grid_pairs, level_cells

#: No contacts from a step before (``run_sweeps``' ``last``): the floor's sweeps start cold.
_NO_CONTACTS = (np.zeros((0, 2), np.int64), np.zeros((0, 8)), np.zeros(0, np.int64))

PYTHON_PASSES = ("move", "validate", "read", "write back")
PASSES = (*PYTHON_PASSES, "pairs kernel", "sweep kernel")


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


def python_passes(world: World) -> dict[str, Callable[[], object]]:
    """The passes over the components (PYTHON_PASSES) of a stepped ``world``, as calls:
    ``move`` moves the bodies on, the others leave them as they are; ``validate`` is the
    step's check of every vector; ``read`` reads the vectors of every body but level geometry
    (STATIC without Physics, which the kernels' tables keep from step to step); ``write back``
    sets every body's position and velocity (the arena's sweeps move nearly all of them).
    What a step keeps while nothing is assigned (the components picked, their materials,
    their vectors listed) is made once, as a step does."""
    collision = world.collision
    columns = collision.columns
    rows = np.delete(np.arange(len(columns.transforms)), collision.found.resting.rows)  # level geometry: kept
    picked = Selection.of(columns, rows)
    materials = Materials.of(picked)
    vectors = Vectors.of([columns.transforms[row] for row in rows.tolist()], picked.colliders)
    listed = VectorList([body.velocity for body in picked.movers])
    positions = VectorList([transform.position for transform in columns.transforms])
    velocities = VectorList([body.velocity for body in columns.physics if body is not None])
    every, moving = np.arange(len(positions)), np.arange(len(velocities))
    position_values, velocity_values = storage.read(positions), storage.read(velocities)

    def write_back() -> None:  # every position and velocity, as the resolve stage writes them back
        storage.write(velocities, moving, velocity_values)
        storage.write(positions, every, position_values)
    return {"move": lambda: world.movement.process(DT), "validate": lambda: world._vectors.check(world),
            "read": lambda: read_arrays(columns, picked, read_geometry(vectors, storage.read), materials, listed,
                                        storage.read),
            "write back": write_back}


def time_passes(count: int, repeats: int) -> dict[str, float]:
    """ms for each of PASSES on the arena with ``count`` boxes, each the
    best of ``repeats``."""
    world = arena_world(count)
    collision = world.collision
    passes = python_passes(world)
    times = {name: best_ms(passes[name], repeats) for name in PYTHON_PASSES if name != "move"}
    boxes, entities = collision.filed_boxes(), collision.columns.entities
    static = np.array([c.type is ColliderType.STATIC for c in collision.columns.colliders])
    kinds = np.where(static, SKIP | LEVEL, 0)  # the walls: skipped, level geometry
    layers = np.tile(np.array([1, ALL], np.int64), (len(boxes), 1))  # every box on the default layer
    # As Collision files them: the walls once (level geometry's cells), the boxes each step.
    walls = collision.found.resting.rows.astype(np.int64)
    *cells, _ = level_cells(boxes, walls, collision.grid.cell_size)
    movers = np.flatnonzero(~static).astype(np.int64)
    times["pairs kernel"] = best_ms(lambda: grid_pairs(boxes, kinds, layers, entities, collision.grid.cell_size,
                                                       collision.steps, 1 << 16, movers, tuple(cells)), repeats)
    level = [collision.columns.colliders[row] for row in collision.found.resting.rows.tolist()]
    tables = resolve._Tables()
    table, ints = tables.start(collision.found, resolve._codes(level), None, False, False)
    step = np.zeros(kernel_table.STEP_PARAMETERS)
    step[[kernel_table.DT, kernel_table.MAX_SUBDIVISIONS, kernel_table.CELL_SIZE]] = DT, 32.0, collision.grid.cell_size
    step[kernel_table.SWEEPS] = 1.0
    pairs, ties, verdicts = collision.pair_rows(), np.array(TIES), np.zeros((0, 3), np.int64)

    buffers = sweep_kernel.buffers_for(None, len(pairs), len(table))

    def sweep() -> np.ndarray:
        body, flags = table.copy(), ints.copy()
        status: np.ndarray = sweep_kernel.run_sweeps(body, flags, pairs, verdicts, ties, step, buffers,
                                                     tables.filing(buffers), _NO_CONTACTS)[0]
        return status
    while (status := sweep())[kernel_table.OVERFLOW]:  # buffers that suffice, found before timing
        buffers = sweep_kernel.buffers_for(buffers, len(pairs), len(table), int(status[kernel_table.OVERFLOW]))
    times["sweep kernel"] = best_ms(sweep, repeats)
    times["move"] = best_ms(passes["move"], repeats)  # last: it moves the bodies on
    world.close()
    return times


def scene_floor(name: str, count: int, steps: int, repeats: int) -> dict[str, float]:
    """The floor of a game-like scene of ``benchmarks.scenes`` (``name``, N = ``count``; the
    level's own 2,500 tiles and 300 crates whatever N): our
    whole step and pymunk's (ms, best of 2 rounds), the component passes over its components (ms,
    best of ``repeats``), and per step over ``steps`` steps, the broad phase (Collision's pairs
    stage) and the resolve kernels (the sweeps, push-out, crushing, ground snapping) as they run
    inside the step."""
    layout = scenes.SCENES[name](count, argparse.Namespace(level_tiles=2500, level_crates=300))
    times = {"ours": min(scenes.run_ours(layout, steps).ms for _ in range(2)),
             "pymunk": min(scenes.run_pymunk(layout, steps).ms for _ in range(2))}
    world, _, _ = scenes.build_world(layout, True)
    world.step(DT)
    kernels = background.kernels()
    spent = [0.0]

    def timed(kernel: Callable[..., Any]) -> Callable[..., Any]:
        def run(*arguments: Any) -> Any:
            start = time.perf_counter()
            try:
                return kernel(*arguments)
            finally:
                spent[0] += time.perf_counter() - start
        return run
    world.response.resolver.kernels = dataclasses.replace(
        kernels, run_sweeps=timed(kernels.run_sweeps), push_out=timed(kernels.push_out),
        crush=timed(kernels.crush), snap_to_ground=timed(kernels.snap_to_ground))
    broad = 0.0
    for _ in range(steps):
        world.step(DT)
        broad += world.timings.get("CollisionSystem.pairs", 0.0)
    world.response.resolver.kernels = None
    times["broad phase"], times["resolve kernels"] = broad / steps, spent[0] / steps * 1000
    passes = python_passes(world)
    times.update({name: best_ms(passes[name], repeats) for name in PYTHON_PASSES if name != "move"})
    times["move"] = best_ms(passes["move"], repeats)  # last: it moves the bodies on
    world.close()
    return times


def print_scene_floors(names: list[str], counts: list[int], steps: int, repeats: int) -> None:
    """One row per scene and N: the floor (the component passes, the broad phase and the resolve
    kernels) against our whole step and pymunk's."""
    parts = (*PYTHON_PASSES, "broad phase", "resolve kernels")
    print("\nfloor of game-like scenes (benchmarks.scenes); ms; passes best of repeats, the rest per step in a run")
    print("| scene | N | ours ms/step | pymunk ms/step | " + " | ".join(parts)
          + " | floor | floor / pymunk | ours / floor |")
    print("|---" * (len(parts) + 7) + "|")
    for name in names:
        for count in counts:
            times = scene_floor(name, count, steps, repeats)
            floor = sum(times[part] for part in parts)
            print(f"| {name} | {count} | {times['ours']:.2f} | {times['pymunk']:.2f} | "
                  + " | ".join(f"{times[part]:.2f}" for part in parts)
                  + f" | {floor:.2f} | {floor / times['pymunk']:.1f}x | {times['ours'] / floor:.2f} |", flush=True)


def count_instructions(name: str, count: int, repeats: int) -> float:
    """Million instructions per call of one pass (PYTHON_PASSES, or ``"pymunk step"``) on the
    arena with ``count`` boxes, counted by valgrind's callgrind in a process of its own: only
    the calls themselves (``--toggle-collect`` on the C function that repeats them), not the
    set-up; the kernels are not needed, so it runs with ECS_ARCADE_JIT=0 (numba is not loaded)."""
    with tempfile.TemporaryDirectory() as folder:
        command = ["valgrind", "--tool=callgrind", "--collect-atstart=no", "--toggle-collect=functools_reduce",
                   f"--callgrind-out-file={folder}/out", sys.executable, "-m", "benchmarks.floor",
                   "--count-pass", name, "--counts", str(count), "--repeats", str(repeats)]
        done = subprocess.run(command, capture_output=True, text=True, env={**os.environ, "ECS_ARCADE_JIT": "0"},
                              check=True)
    collected = re.search(r"Collected : (\d+)", done.stderr)
    if collected is None:
        raise RuntimeError(f"callgrind printed no count for {name!r}: {done.stderr[-500:]}")
    return int(collected.group(1)) / repeats / 1e6


def repeat_pass(name: str, count: int, repeats: int) -> None:
    """Call one pass ``repeats`` times inside ``functools.reduce`` (callgrind counts only there)."""
    scene = make_scene(count, 200.0)
    if name == "pymunk step":
        space, _ = build_space(scene)
        space.step(DT)
        run: Callable[[], object] = lambda: space.step(DT)
    else:
        run = python_passes(arena_world(count))[name]
    functools.reduce(lambda _, __: run(), range(repeats), None)


def instructions(counts: list[int], repeats: int) -> None:
    """Print the component passes' and pymunk's step's instruction counts next to their times."""
    names = ("pymunk step", *PYTHON_PASSES)
    print("\ninstructions (callgrind), million per call; ms from a run without valgrind (best of repeats)")
    print("| N | " + " | ".join(f"{name} Minstr | {name} ms" for name in names)
          + " | component passes / pymunk step, instructions |")
    print("|---" * (2 * len(names) + 2) + "|")
    for count in counts:
        counted = {name: count_instructions(name, count, repeats) for name in names}
        times = time_passes(count, 10)
        space, _ = build_space(make_scene(count, 200.0))
        space.step(DT)
        times["pymunk step"] = best_ms(lambda: space.step(DT), 10)
        ratio = sum(counted[name] for name in PYTHON_PASSES) / counted["pymunk step"]
        print(f"| {count} | " + " | ".join(f"{counted[name]:.1f} | {times[name]:.2f}" for name in names)
              + f" | {ratio:.1f}x |", flush=True)


def main(argv: list[str] | None = None) -> None:
    """Print one row per N: whole steps, each pass, and their sums."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--counts", type=int, nargs="+", default=[1000, 10000, 16000])
    parser.add_argument("--repeats", type=int, default=10, help="calls per pass; the fastest is shown")
    parser.add_argument("--steps", type=int, default=20, help="timed steps per whole-step round")
    parser.add_argument("--instructions", action="store_true",
                        help="also count each component pass's and pymunk's step's instructions with valgrind")
    parser.add_argument("--scenes", nargs="*", choices=("platformer", "shooter", "level", "arena"), default=[],
                        help="also the floor of these game-like scenes of benchmarks.scenes, at --counts")
    parser.add_argument("--count-pass", choices=("pymunk step", *PYTHON_PASSES), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.count_pass:  # (the process --instructions runs under valgrind)
        repeat_pass(args.count_pass, args.counts[0], args.repeats)
        return
    print("floor: arena, 8x8 boxes, ±200 px/s, e=1, dt=1/60; ms (best of repeats); whole steps best of 2 rounds")
    print("| N | ours ms/step | pymunk ms/step | " + " | ".join(PASSES)
          + " | component passes | all passes | all passes / pymunk |")
    print("|---" * (len(PASSES) + 6) + "|")
    for count in args.counts:
        scene = make_scene(count, 200.0)
        ours = min(run_ours(scene, args.steps).ms for _ in range(2))
        theirs = min(run_pymunk(scene, args.steps).ms for _ in range(2))
        times = time_passes(count, args.repeats)
        floor = sum(times[name] for name in PYTHON_PASSES)
        every = sum(times.values())
        print(f"| {count} | {ours:.2f} | {theirs:.2f} | " + " | ".join(f"{times[name]:.2f}" for name in PASSES)
              + f" | {floor:.2f} | {every:.2f} | {every / theirs:.1f}x |", flush=True)
    if args.instructions:
        instructions(args.counts, args.repeats)
    if args.scenes:
        print_scene_floors(args.scenes, args.counts, args.steps, args.repeats)


if __name__ == "__main__":
    main()
