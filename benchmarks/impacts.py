"""Impacts benchmark: the least an exact sweep costs per impact, next to our fast arena.

The fast arena (``benchmarks.arena`` at 3,000 px/s) has about fifteen times the impacts
of the slow one (200 px/s) in each step. Any engine that resolves every impact in time
order, as this one does so that nothing tunnels, must at least: file each box's path
in a grid, sweep each pair whose paths' boxes meet, keep the impacts found in a queue,
and at each impact exchange the pair's momentum and sweep both boxes again, along
their new paths, against the neighbours those paths reach. That is event-driven
simulation as molecular dynamics does it (B. J. Alder and T. E. Wainwright, *Studies
in Molecular Dynamics. I. General Method*, 1959), with cell lists for the neighbours.

This times a lean kernel that does only that, on the arena's own boxes: equal 8×8
boxes, elasticity 1, no friction, no gravity, four STATIC walls. It has none of the
rest of a step: no components, Movement, broad phase of ours, rows, crushing,
push-out, contacts or events. It uses the core's own swept-box test (Sacred Software,
*Collisions, Part 1*: ``boxes._sweep_boxes``) and its impact queue (``queue``), so its
time is what those pieces cost when nothing else runs. Its fast step against our
whole slow step says how far below the fast arena's goal (at most 4 times the slow
step) any exact sweep with these pieces can get.

Each row is the best of ``--rounds`` rounds, the four runs of a round back to back
(ours and the lean kernel, slow and fast). Compare within one run, never across runs.

    pip install -e .[bench]
    python -m benchmarks.impacts                    # N = 2,000 at 200 and 3,000 px/s
    python -m benchmarks.impacts --counts 2000 10000 --rounds 5
    python -m benchmarks.impacts --instructions --steps 5   # needs valgrind; about half an hour

With ``ECS_ARCADE_JIT=0`` both run as plain Python, and the times say nothing.
"""

from __future__ import annotations

import argparse
import functools
import math
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from benchmarks.arena import BOX, DT, build_world, escaped, make_scene, run_ours, wall_boxes
from ecs import freeze_loaded
from systems.physics._kernels import jit
from systems.physics._kernels.boxes import _sweep_boxes, _swept_apart
from systems.physics._kernels.jit import helper, inlined_helper, kernel
from systems.physics._kernels.queue import _pop, _push
from systems.physics._kernels.table import (
    BEFORE_X, BEFORE_Y, COUNTERS, FILED_H, FILED_W, FILED_X, FILED_Y, FLOAT_COLUMNS, HEAP, HEIGHT, INV_MASS,
    MOTION_X, MOTION_Y, ORIGIN_X, ORIGIN_Y, RECORDS, START, WIDTH, _box_at, _filed, _union, _within, aligned_table,
)

#: Counters a step keeps: impacts resolved, paths swept again, neighbours visited,
#: pairs swept, impacts queued; and grid entries filed (the last step's).
IMPACTS, RESWEEPS, NEIGHBOURS, SWEPT, QUEUED, FILED = range(6)
COUNT_NAMES = ("impacts", "re-sweeps", "neighbours", "pairs swept", "queued")
#: A box's impacts in one step after which it stops for the rest of the step (as the core's
#: MAX_SUBDIVISIONS does): a cluster pressed together ends in finite time.
MOST_IMPACTS = 32
#: Grid cell side (px): about a fast box's path in one step.
CELL = 32.0

# The boxes are rows of the core's body table (``systems.physics._kernels.table``), read
# through its own helpers; only the columns of a path (ORIGIN, START, MOTION), its box at the
# step's start (BEFORE), size, INV_MASS (0 for a wall) and FILED are used.


@inlined_helper
def _reach(body: Any, row: int, t: float) -> tuple[float, float, float, float]:
    """The box over the row's path from step fraction t to the step's end."""
    return _union(_box_at(body, row, t), _box_at(body, row, 1.0))


@inlined_helper
def _cells(box: Any, grid: Any) -> tuple[int, int, int, int]:
    """The first and last grid column and row (inclusive) the box covers, clamped to the grid."""
    ox, oy, columns, rows = grid
    x0 = min(max(int((box[0] - ox) // CELL), 0), columns - 1)
    y0 = min(max(int((box[1] - oy) // CELL), 0), rows - 1)
    x1 = min(max(int((box[0] + box[2] - ox) // CELL), 0), columns - 1)
    y1 = min(max(int((box[1] + box[3] - oy) // CELL), 0), rows - 1)
    return x0, y0, x1, y1


@helper
def _file(heads: Any, entries: Any, used: Any, row: int, box: Any, old: Any, grid: Any) -> None:
    """File ``row`` in every cell ``box`` covers that ``old`` (cells, or x0 > x1 for none) did not."""
    x0, y0, x1, y1 = _cells(box, grid)
    for cy in range(y0, y1 + 1):
        for cx in range(x0, x1 + 1):
            if old[0] <= cx <= old[2] and old[1] <= cy <= old[3]:
                continue
            k = used[0]
            if k >= entries.shape[0]:  # (numba checks no bounds: the caller sees the count and refuses)
                return
            used[0] += 1
            cell = cy * grid[2] + cx
            entries[k, 0], entries[k, 1] = row, heads[cell]
            heads[cell] = k


@helper
def _widen(body: Any, heads: Any, entries: Any, used: Any, row: int, reach: Any, grid: Any) -> None:
    """File the row under its path's box too, where that leaves the box it is filed under."""
    filed = _filed(body, row)
    if not _within(reach, filed):
        wider = _union(filed, reach)
        _file(heads, entries, used, row, wider, _cells(filed, grid), grid)
        body[row, FILED_X], body[row, FILED_Y], body[row, FILED_W], body[row, FILED_H] = wider


@inlined_helper
def _apart(a: Any, b: Any) -> bool:
    return bool(b[0] > a[0] + a[2] or b[0] + b[2] < a[0] or b[1] > a[1] + a[3] or b[1] + b[3] < a[1])


@helper
def _sweep_row(body: Any, versions: Any, heads: Any, entries: Any, used: Any, grid: Any, queue: Any,
               status: Any, marks: Any, counts: Any, row: int, now: float, first: bool) -> None:
    """Queue the row's first impact with each neighbour its path from ``now`` reaches. On the
    first sweep of a step, each pair of boxes is swept once (from its lower row)."""
    reach = _reach(body, row, now)
    if not first:
        _widen(body, heads, entries, used, row, reach, grid)
    stamp = marks[-1] + 1
    marks[-1] = stamp
    mine = _box_at(body, row, now)
    x0, y0, x1, y1 = _cells(reach, grid)
    for cy in range(y0, y1 + 1):
        for cx in range(x0, x1 + 1):
            k = heads[cy * grid[2] + cx]
            while k >= 0:
                other = entries[k, 0]
                k = entries[k, 1]
                if other == row or marks[other] == stamp:
                    continue
                marks[other] = stamp
                counts[NEIGHBOURS] += 1
                if (first and other < row) or _apart(reach, _reach(body, other, now)):
                    continue
                _schedule(body, versions, queue, status, counts, row, other, now, mine)


@inlined_helper
def _schedule(body: Any, versions: Any, queue: Any, status: Any, counts: Any, row: int, other: int, now: float,
              mine: Any) -> None:
    """Queue the first impact of ``row`` (its box ``mine``) with ``other`` after ``now``."""
    rest = 1.0 - now
    rx = (body[row, MOTION_X] - body[other, MOTION_X]) * rest
    ry = (body[row, MOTION_Y] - body[other, MOTION_Y]) * rest
    theirs = _box_at(body, other, now)
    if (rx == 0.0 and ry == 0.0) or _swept_apart(mine, rx, ry, theirs, 0.0):
        return
    counts[SWEPT] += 1
    hit, fraction, axis, sign, surface = _sweep_boxes(mine, theirs, rx, ry)
    if not hit:
        return
    if other < row:  # the queue's normal points from its lower row to the higher
        row, other, sign = other, row, -sign
    nx, ny = (sign, 0.0) if axis == 0 else (0.0, sign)
    counts[QUEUED] += 1
    _push(queue, status, now + fraction * rest, -surface, row, other, versions[row], versions[other], nx, ny)


@helper
def _impact(body: Any, versions: Any, tally: Any, a: int, b: int, t: float, nx: float, ny: float) -> bool:
    """Move rows a and b to step fraction t and bounce them apart along (nx, ny) (a -> b),
    elasticity 1; False if they no longer approach."""
    for row in (a, b):
        elapsed = t - body[row, START]
        body[row, ORIGIN_X] = body[row, ORIGIN_X] + body[row, MOTION_X] * elapsed
        body[row, ORIGIN_Y] = body[row, ORIGIN_Y] + body[row, MOTION_Y] * elapsed
        body[row, START] = t
    approach = (body[a, MOTION_X] - body[b, MOTION_X]) * nx + (body[a, MOTION_Y] - body[b, MOTION_Y]) * ny
    if approach <= 0.0:
        return False
    inv_a, inv_b = body[a, INV_MASS], body[b, INV_MASS]
    impulse = 2.0 * approach / (inv_a + inv_b)  # (1 + e) times the approach, e = 1
    for row, push in ((a, -inv_a * impulse), (b, inv_b * impulse)):
        if body[row, INV_MASS] == 0.0:
            continue  # a wall's version stays: its other impacts still hold
        versions[row] += 1
        tally[row] += 1
        if tally[row] >= MOST_IMPACTS:
            body[row, MOTION_X], body[row, MOTION_Y] = 0.0, 0.0
        else:
            body[row, MOTION_X], body[row, MOTION_Y] = body[row, MOTION_X] + push * nx, body[row, MOTION_Y] + push * ny
    return True


@kernel
def step(body: Any, versions: Any, heads: Any, entries: Any, grid: Any, queue: Any, status: Any, marks: Any,
         counts: Any, movers: int) -> None:
    """One step of the lean sweep over ``body`` (rows below ``movers`` move; the rest are walls)."""
    heads[:] = -1
    used = counts[FILED:]
    used[0] = 0
    status[HEAP], status[RECORDS] = 0, 0
    tally = np.zeros(body.shape[0], np.int64)
    for row in range(body.shape[0]):
        body[row, START] = 0.0
        body[row, BEFORE_X], body[row, BEFORE_Y] = body[row, ORIGIN_X], body[row, ORIGIN_Y]
        filed = _reach(body, row, 0.0)
        body[row, FILED_X], body[row, FILED_Y], body[row, FILED_W], body[row, FILED_H] = filed
        _file(heads, entries, used, row, filed, (1, 1, 0, 0), grid)
    for row in range(movers):
        _sweep_row(body, versions, heads, entries, used, grid, queue, status, marks, counts, row, 0.0, True)
    records, keys = queue[0], queue[1]
    while status[HEAP] > 0:
        index = _pop(queue, status)
        a, b = keys[index, 0], keys[index, 1]
        if keys[index, 2] != versions[a] or keys[index, 3] != versions[b]:
            continue  # a path changed since this was queued
        t = records[index, 0]
        if not _impact(body, versions, tally, a, b, t, records[index, 2], records[index, 3]):
            continue
        counts[IMPACTS] += 1
        for row in (a, b):
            if body[row, INV_MASS] != 0.0:
                counts[RESWEEPS] += 1
                _sweep_row(body, versions, heads, entries, used, grid, queue, status, marks, counts, row, t, False)
    for row in range(movers):
        elapsed = 1.0 - body[row, START]
        body[row, ORIGIN_X] = body[row, ORIGIN_X] + body[row, MOTION_X] * elapsed
        body[row, ORIGIN_Y] = body[row, ORIGIN_Y] + body[row, MOTION_Y] * elapsed


@dataclass
class Lean:
    """The arena's boxes and walls in the lean kernel's arrays."""

    body: Any
    versions: Any
    heads: Any
    entries: Any
    grid: tuple[float, float, int, int]
    queue: tuple[Any, Any, Any, Any]
    status: Any
    marks: Any
    counts: Any
    movers: int
    side: float

    @classmethod
    def of(cls, count: int, speed: float) -> Lean:
        """The arena of ``benchmarks.arena.make_scene(count, speed)``."""
        scene = make_scene(count, speed)
        return cls.of_boxes(scene.corners, scene.velocities, scene.side)

    @classmethod
    def of_boxes(cls, corners: list[tuple[float, float]], velocities: list[tuple[float, float]],
                 side: float) -> Lean:
        """BOX-sized boxes at ``corners`` (top-left, px) moving at ``velocities`` (px/s), in an
        arena of ``side`` px walled as ``benchmarks.arena``'s."""
        count, walls = len(corners), wall_boxes(side)
        body = aligned_table(count + len(walls), FLOAT_COLUMNS)
        for row, ((x, y), (vx, vy)) in enumerate(zip(corners, velocities)):
            body[row, [ORIGIN_X, ORIGIN_Y, WIDTH, HEIGHT, MOTION_X, MOTION_Y, INV_MASS]] = (
                x, y, BOX, BOX, vx * DT, vy * DT, 1.0)
        for row, box in enumerate(walls, start=count):
            body[row, [ORIGIN_X, ORIGIN_Y, WIDTH, HEIGHT]] = box
        left, top = min(b[0] for b in walls), min(b[1] for b in walls)
        right, bottom = max(b[0] + b[2] for b in walls), max(b[1] + b[3] for b in walls)
        columns, rows = math.ceil((right - left) / CELL) + 1, math.ceil((bottom - top) / CELL) + 1
        records = 64 * count + 4096
        queue = (np.zeros((records, 4)), np.zeros((records, 4), np.int64), np.zeros((records, 2)),
                 np.zeros(records, np.int64))
        return cls(body, np.zeros(len(body), np.int64), np.zeros(columns * rows, np.int64),
                   np.zeros((64 * count + 16 * (columns + rows), 2), np.int64), (left, top, columns, rows), queue,
                   np.zeros(COUNTERS, np.int64), np.zeros(len(body) + 1, np.int64), np.zeros(6, np.int64), count,
                   side)

    def step(self) -> None:
        """One step; refuses one that ran out of room (its impacts would be missing). As plain
        Python, NumPy's warnings are off: the kernels count on IEEE arithmetic (inf · 0 is NaN,
        and compares false), as compiled."""
        with np.errstate(all="ignore"):
            step(self.body, self.versions, self.heads, self.entries, self.grid, self.queue, self.status,
                 self.marks, self.counts, self.movers)
        if self.status[RECORDS] >= len(self.queue[0]) or self.counts[FILED] >= len(self.entries):
            raise RuntimeError("benchmarks.impacts: the lean kernel's buffers overflowed")

    def escaped(self) -> int:
        """Boxes whose centre left the arena's inside."""
        body = self.body[:self.movers]
        return escaped(list(zip(body[:, ORIGIN_X] + BOX / 2, body[:, ORIGIN_Y] + BOX / 2)), self.side)


@dataclass
class Run:
    """One run: ms/step, escaped boxes, and (the lean kernel's) counts per step."""

    ms: float
    escaped: int
    counts: dict[str, float]


def run_lean(count: int, speed: float, steps: int) -> Run:
    """ms/step of the lean kernel over ``steps`` steps after one warm-up step, as ``run_ours`` times ours."""
    lean = Lean.of(count, speed)
    lean.step()
    freeze_loaded()
    lean.counts[:FILED] = 0
    start = time.perf_counter()
    for _ in range(steps):
        lean.step()
    ms = (time.perf_counter() - start) / steps * 1000
    return Run(ms, lean.escaped(), {name: lean.counts[k] / steps for k, name in enumerate(COUNT_NAMES)})


def measure(count: int, slow: float, fast: float, steps: int, rounds: int) -> dict[tuple[str, float], Run]:
    """Each engine's best run at each speed, the four runs of a round back to back."""
    best: dict[tuple[str, float], Run] = {}
    for _ in range(rounds):
        for speed in (slow, fast):
            ours = run_ours(make_scene(count, speed), steps)
            runs = {"ours": Run(ours.ms, ours.escaped, {}), "lean": run_lean(count, speed, steps)}
            for name, run in runs.items():
                if (name, speed) not in best or run.ms < best[name, speed].ms:
                    best[name, speed] = run
    return best


def print_table(count: int, slow: float, fast: float, best: dict[tuple[str, float], Run]) -> None:
    """Times, ratios, escapes and the lean kernel's counts at N=``count``."""
    ours_slow = best["ours", slow].ms
    print(f"\nN={count}: ms/step, best of the rounds; 'of our slow step': the run's ms/step over ours at ±{slow:g}")
    print("| engine | ±px/s | ms/step | of our slow step | escaped | " + " | ".join(COUNT_NAMES) + " |")
    print("|---|---|---|---|---|" + "---|" * len(COUNT_NAMES))
    for (name, speed), run in sorted(best.items(), key=lambda item: (item[0][0] != "ours", item[0][1])):
        counts = " | ".join(f"{run.counts[k]:,.0f}" if run.counts else "" for k in COUNT_NAMES)
        print(f"| {name} | {speed:g} | {run.ms:.2f} | {run.ms / ours_slow:.2f}x | {run.escaped} | {counts} |")
    lean = best["lean", fast]
    per_impact = lean.ms * 1000 / max(lean.counts["impacts"], 1)
    print(f"\nlean fast step: {per_impact:.2f} µs per impact, all else included; "
          f"at most 4 times our slow step is {4 * ours_slow:.2f} ms")


#: callgrind's events per step that ``--instructions`` prints: instructions, first-level data
#: read misses, mispredicted conditional branches.
EVENTS = {"Ir": "Minstr", "D1mr": "L1 read misses (k)", "Bcm": "mispredicted (k)"}


def count_events(engine: str, count: int, speed: float, steps: int) -> dict[str, float]:
    """EVENTS per step of ``engine`` ("ours" or "lean") on the arena, counted by valgrind's
    callgrind with its cache and branch simulation, in a process of its own and only inside
    the steps (``--toggle-collect`` on the C function that repeats them).

    The kernels run compiled for a generic x86-64 processor (``NUMBA_CPU_NAME=generic``):
    valgrind's simulated processor is not the host's, and numba would compile every kernel
    anew for it, under valgrind (hours). A first run without valgrind compiles them, once."""
    arguments = ["-m", "benchmarks.impacts", "--count-steps", engine, "--counts", str(count), "--speed",
                 str(speed), str(speed), "--steps", str(steps)]
    generic = {**os.environ, "NUMBA_CPU_NAME": "generic"}
    subprocess.run([sys.executable, *arguments[:-1], "1"], capture_output=True, env=generic, check=True)
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "out")
        command = ["valgrind", "--tool=callgrind", "--collect-atstart=no", "--toggle-collect=functools_reduce",
                   "--cache-sim=yes", "--branch-sim=yes", f"--callgrind-out-file={out}", sys.executable,
                   *arguments]
        subprocess.run(command, capture_output=True, text=True, env=generic, check=True)
        with open(out) as file:
            lines = file.read().splitlines()
    names = next(line for line in lines if line.startswith("events:")).split()[1:]
    totals = next(line for line in lines if line.startswith("summary:")).split()[1:]
    counted = dict(zip(names, map(int, totals)))
    scale = {"Ir": 1e6, "D1mr": 1e3, "Bcm": 1e3}
    return {name: counted[name] / steps / scale[name] for name in EVENTS}


def repeat_steps(engine: str, count: int, speed: float, steps: int) -> None:
    """Step ``engine`` on the arena once, then ``steps`` times inside ``functools.reduce``."""
    if engine == "lean":
        lean = Lean.of(count, speed)
        run: Callable[[], object] = lean.step
    else:
        world, _ = build_world(make_scene(count, speed))
        run = functools.partial(world.step, DT)
    run()
    functools.reduce(lambda _, __: run(), range(steps), None)


def print_events(count: int, slow: float, fast: float, steps: int) -> None:
    """EVENTS per step of ours and the lean kernel at both speeds, counted by callgrind."""
    print(f"\nN={count}: per step, counted by callgrind (cache and branch simulation) over {steps} steps, "
          "compiled for a generic x86-64")
    print("| engine | ±px/s | " + " | ".join(EVENTS.values()) + " |")
    print("|---|---|" + "---|" * len(EVENTS))
    for engine in ("ours", "lean"):
        for speed in (slow, fast):
            counted = count_events(engine, count, speed, steps)
            print(f"| {engine} | {speed:g} | " + " | ".join(f"{counted[name]:,.1f}" for name in EVENTS) + " |",
                  flush=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--counts", type=int, nargs="+", default=[2000], help="box counts N (default 2000)")
    parser.add_argument("--speed", type=float, nargs=2, default=[200.0, 3000.0], metavar=("SLOW", "FAST"),
                        help="the two speeds, px/s (default 200 3000)")
    parser.add_argument("--steps", type=int, default=30, help="timed steps per run (default 30)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds; each run's best is kept (default 3)")
    parser.add_argument("--instructions", action="store_true",
                        help="also count each engine's instructions, cache misses and mispredicted branches per "
                             "step with valgrind (minutes per count)")
    parser.add_argument("--count-steps", choices=("ours", "lean"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.count_steps:  # (the process --instructions runs under valgrind)
        repeat_steps(args.count_steps, args.counts[0], args.speed[0], args.steps)
        return
    if not jit.COMPILED:
        print("the kernels run as plain Python (ECS_ARCADE_JIT=0 or no numba): these times are not theirs")
    slow, fast = args.speed
    for count in args.counts:
        print_table(count, slow, fast, measure(count, slow, fast, args.steps, args.rounds))
        if args.instructions:
            print_events(count, slow, fast, args.steps)


if __name__ == "__main__":
    main()
