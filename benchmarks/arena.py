"""Arena benchmark: the same bouncing-box scene through this framework and pymunk.

N boxes (8×8 px) start on a jittered grid inside a closed static arena whose
side grows with √N, with random velocities in ±speed px/s, elasticity 1, no
gravity and friction, dt = 1/60 s. pymunk runs the same scene (boxes with
infinite moment, elasticity 1, friction 0) in the same process, its rounds
interleaved with ours so the machine's load hits both alike; compare the
ratios within one run, never absolute times across runs. For each speed and
N it prints our ms/step (swept, the default pipeline) and pymunk's, the
ratio, µs per body, bodies escaped from the arena (ours / pymunk), and our
time per system and stage (``World.timings``, ms/step). Each engine is
timed after one warm-up step and ``ecs.freeze_loaded``, as a ``Game`` runs a
scene (without it, the cycle collector's full passes over numba's objects
add about 55 ms every few steps of a busy scene: see ``ecs.memory``).

    pip install -e .[bench]
    python -m benchmarks.arena                          # N = 200 … 16,000 at 200 and 3,000 px/s
    python -m benchmarks.arena --speed 3000 --counts 2000 --steps 10
    python -m benchmarks.arena --plot arena.png         # ms/step against N, log axes
    python -m benchmarks.arena --discrete               # the discrete pipeline too
    python -m benchmarks.arena --counts 200 --ratio 2000   # a short table, then fast/slow at N=2,000

With more than one speed it also prints, for N=``--ratio``, each engine's
fastest speed against its slowest, the two timed in the same rounds (the
tables' rows for one N are minutes apart, and this machine's speed drifts
over minutes).
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, TypeVar

from components import Collider, ColliderType, Physics, Transform
from ecs import World, freeze_loaded

if TYPE_CHECKING:
    import pymunk

BOX = 8.0
SPACING = 20.0
WALL = 40.0
DT = 1.0 / 60.0


@dataclass
class Scene:
    """Start state shared by both engines: arena side (px), boxes' top-left
    corners and velocities."""

    side: float
    corners: list[tuple[float, float]]
    velocities: list[tuple[float, float]]


def make_scene(count: int, speed: float, seed: int = 1) -> Scene:
    """N boxes on a jittered grid in a square arena of side ∝ √N."""
    rng = random.Random(seed)
    per_row = math.ceil(math.sqrt(count))
    side = per_row * SPACING
    slack = (SPACING - BOX) / 2 - 0.5
    corners, velocities = [], []
    for i in range(count):
        row, col = divmod(i, per_row)
        x = col * SPACING + (SPACING - BOX) / 2 + rng.uniform(-slack, slack)
        y = row * SPACING + (SPACING - BOX) / 2 + rng.uniform(-slack, slack)
        corners.append((x, y))
        velocities.append((rng.uniform(-speed, speed), rng.uniform(-speed, speed)))
    return Scene(side, corners, velocities)


def escaped(centres: list[tuple[float, float]], side: float) -> int:
    """Bodies whose centre is outside the arena's inside."""
    return sum(1 for x, y in centres if not (0 <= x <= side and 0 <= y <= side))


def wall_boxes(side: float) -> list[tuple[float, float, float, float]]:
    """The arena's four walls as (left, top, width, height), WALL px thick."""
    return [
        (-WALL, -WALL, side + 2 * WALL, WALL),
        (-WALL, side, side + 2 * WALL, WALL),
        (-WALL, 0, WALL, side),
        (side, 0, WALL, side),
    ]


#: The systems of a step, as World.timings names them, and the stages each
#: times (``World.timed``; a stage's time is part of its system's).
PARTS = {"MovementSystem": (), "CollisionSystem": ("bodies", "pairs"),
         "ResponseSystem": ("board", "sweep", "push_out", "crush", "ground", "contacts"), "CollisionEvents": ()}
SYSTEMS = tuple(PARTS)

#: The columns of stage times: each system, followed by its stages.
STAGES = tuple(name for system, parts in PARTS.items() for name in (system, *(f"{system}.{p}" for p in parts)))


def stage_label(name: str) -> str:
    """A column heading: ``"ResponseSystem.sweep"`` -> ``"Response: sweep"``."""
    return name.replace("System", "").replace(".", ": ")


@dataclass
class Result:
    """One engine's best round: ms/step, bodies escaped, ms/step per stage."""

    ms: float
    escaped: int
    stages: dict[str, float] = field(default_factory=dict)


def build_world(scene: Scene, **world_options: object) -> tuple[World, list[Transform]]:
    """The scene as a World (its walls STATIC, its boxes SOLID with
    elasticity 1), and the boxes' Transforms."""
    world = World(**world_options)  # type: ignore[arg-type]
    for x, y, w, h in wall_boxes(scene.side):
        world.create_entity(Transform((x, y)), Collider((w, h), type=ColliderType.STATIC))
    transforms = []
    for corner, velocity in zip(scene.corners, scene.velocities):
        transform = Transform(corner)
        transforms.append(transform)
        world.create_entity(transform, Collider((BOX, BOX)), Physics(velocity, elasticity=1.0))
    return world, transforms


def run_ours(scene: Scene, steps: int, **world_options: object) -> Result:
    """ms/step, escaped bodies and stage times for this framework."""
    world, transforms = build_world(scene, **world_options)
    ms, stages = time_steps(world, steps)
    centres = [(t.position.x + BOX / 2, t.position.y + BOX / 2) for t in transforms]
    world.close()
    return Result(ms, escaped(centres, scene.side), stages)


def time_steps(world: World, steps: int) -> tuple[float, dict[str, float]]:
    """ms per step over ``steps`` steps of 1/60 s (after one step that warms
    the caches, then ``freeze_loaded`` as ``Game`` calls it after a scene's
    first step), and ms per step in each of STAGES."""
    world.step(DT)
    freeze_loaded()
    stages = dict.fromkeys(STAGES, 0.0)
    start = time.perf_counter()
    for _ in range(steps):
        world.step(DT)
        for name in STAGES:
            stages[name] += world.timings.get(name, 0.0)
    elapsed = time.perf_counter() - start
    return elapsed / steps * 1000, {name: total / steps for name, total in stages.items()}


def run_pymunk(scene: Scene, steps: int) -> Result:
    """ms/step and escaped bodies for pymunk on the same scene."""
    space, bodies = build_space(scene)
    ms = time_space(space, steps)
    centres = [(b.position.x, b.position.y) for b in bodies]
    return Result(ms, escaped(centres, scene.side))


def build_space(scene: Scene) -> tuple[pymunk.Space, list[pymunk.Body]]:
    """The scene as a pymunk space (the walls on its static body), and its boxes' bodies."""
    import pymunk

    space = pymunk.Space()
    for x, y, w, h in wall_boxes(scene.side):
        wall = pymunk.Poly(space.static_body, [(x, y), (x + w, y), (x + w, y + h), (x, y + h)])
        wall.elasticity, wall.friction = 1.0, 0.0
        space.add(wall)
    bodies = []
    for (x, y), velocity in zip(scene.corners, scene.velocities):
        body = pymunk.Body(1.0, math.inf)
        body.position = (x + BOX / 2, y + BOX / 2)
        body.velocity = velocity
        shape = pymunk.Poly.create_box(body, (BOX, BOX))
        shape.elasticity, shape.friction = 1.0, 0.0
        space.add(body, shape)
        bodies.append(body)
    return space, bodies


def time_space(space: pymunk.Space, steps: int) -> float:
    """ms per step of a pymunk space over ``steps`` steps of 1/60 s (after
    one warm-up step and ``freeze_loaded``, as for ours)."""
    space.step(DT)
    freeze_loaded()
    start = time.perf_counter()
    for _ in range(steps):
        space.step(DT)
    return (time.perf_counter() - start) / steps * 1000


def measure(count: int, speed: float, steps: int, rounds: int, discrete: bool) -> dict[str, Result]:
    """Each engine's best of ``rounds`` rounds on one scene, rounds interleaved."""
    scene = make_scene(count, speed)
    runs = {"swept": lambda: run_ours(scene, steps, continuous=True),
            "pymunk": lambda: run_pymunk(scene, steps)}
    if discrete:
        runs["discrete"] = lambda: run_ours(scene, steps, continuous=False)
    return best_of(runs, rounds)


class _HasMs(Protocol):
    ms: float


Timed = TypeVar("Timed", bound=_HasMs)


def best_of(runs: dict[str, Callable[[], Timed]], rounds: int) -> dict[str, Timed]:
    """Each run's fastest (least ``ms``) of ``rounds`` rounds, the runs taking
    turns within each round so the machine's load hits them alike."""
    best: dict[str, Timed] = {}
    for _ in range(rounds):
        for name, run in runs.items():
            result = run()
            if name not in best or result.ms < best[name].ms:
                best[name] = result
    return best


def measure_ratio(count: int, slow: float, fast: float, steps: int, rounds: int) -> dict[str, tuple[float, float]]:
    """Each engine's best ms/step at ``slow`` and at ``fast`` px/s on N=``count``,
    the four runs of a round back to back, so the two speeds' times come
    from the same minutes of a noisy machine."""
    scenes = {speed: make_scene(count, speed) for speed in (slow, fast)}
    engines = {"ours": run_ours, "pymunk": run_pymunk}
    best: dict[tuple[str, float], float] = {}
    for _ in range(rounds):
        for name, run in engines.items():
            for speed, scene in scenes.items():
                ms = run(scene, steps).ms
                best[name, speed] = min(best.get((name, speed), ms), ms)
    return {name: (best[name, slow], best[name, fast]) for name in engines}


def print_row(count: int, best: dict[str, Result]) -> None:
    """One table row: ours, pymunk, ratio, µs/body, escapes, stage times."""
    ours, theirs = best["swept"], best["pymunk"]
    stages = " | ".join(f"{ours.stages[name]:.2f}" for name in STAGES)
    row = (f"| {count} | {ours.ms:.2f} | {theirs.ms:.2f} | {ours.ms / theirs.ms:.1f}x "
           f"| {ours.ms * 1000 / count:.2f} | {ours.escaped} / {theirs.escaped} | {stages} |")
    if "discrete" in best:
        row += f" {best['discrete'].ms:.2f} | {best['discrete'].escaped} |"
    print(row, flush=True)


def plot(path: str, table: dict[float, dict[int, dict[str, Result]]]) -> None:
    """ms/step against N for both engines at each speed, log axes, to ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(7, 4.5))
    for line, (speed, rows) in zip(("-", "--", ":", "-."), table.items()):
        counts = sorted(rows)
        for engine, name, marker, colour in (("swept", "ecs-arcade", "o", "tab:blue"),
                                             ("pymunk", "pymunk", "s", "tab:orange")):
            axes.plot(counts, [rows[n][engine].ms for n in counts], line, marker=marker, color=colour,
                      label=f"{name}, ±{speed:g} px/s")
    axes.axhline(1000 / 60, color="grey", linewidth=0.8, label="16.7 ms (a 60 Hz frame)")
    axes.set(xscale="log", yscale="log", xlabel="bodies (N)", ylabel="ms per step",
             title="Arena: 8×8 boxes, elasticity 1, dt = 1/60 s (one run)")
    axes.grid(True, which="both", linewidth=0.3)
    axes.legend(fontsize=8, loc="upper left")
    figure.tight_layout()
    figure.savefig(path, dpi=100)


def main(argv: list[str] | None = None) -> None:
    """Print the table for each speed; optionally plot it."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--counts", type=int, nargs="+", default=[200, 1000, 2000, 4000, 10000, 16000])
    parser.add_argument("--speed", type=float, nargs="+", default=[200.0, 3000.0],
                        help="initial velocities uniform in ±speed px/s, both engines (default 200 3000)")
    parser.add_argument("--steps", type=int, default=20, help="timed steps per round")
    parser.add_argument("--rounds", type=int, default=2, help="rounds per engine; the best is shown")
    parser.add_argument("--discrete", action="store_true", help="also time the discrete pipeline")
    parser.add_argument("--plot", metavar="PATH", help="save ms/step against N (log axes) as an image")
    parser.add_argument("--ratio", type=int, default=2000, metavar="N",
                        help="also time the slowest and fastest --speed on N boxes, rounds interleaved, and print "
                             "fast/slow (default 2000; 0: don't)")
    parser.add_argument("--ratio-rounds", type=int, default=5, help="rounds for --ratio; the best is shown")
    args = parser.parse_args(argv)
    table: dict[float, dict[int, dict[str, Result]]] = {}
    for speed in args.speed:
        print(f"\narena: 8x8 boxes, ±{speed:g} px/s, e=1, dt=1/60, best of {args.rounds} rounds "
              f"of {args.steps} steps, walls {WALL:g} px thick; stages in ms/step")
        header = ("| N | ours ms/step | pymunk ms/step | ours/pymunk | ours µs/body | escaped ours / pymunk | "
                  + " | ".join(stage_label(name) for name in STAGES) + " |")
        if args.discrete:
            header += " discrete ms/step | escaped discrete |"
        print(header)
        print("|---" * (header.count("|") - 1) + "|")
        table[speed] = {}
        for count in args.counts:
            table[speed][count] = measure(count, speed, args.steps, args.rounds, args.discrete)
            print_row(count, table[speed][count])
    if args.ratio and len(args.speed) > 1:
        slow, fast = min(args.speed), max(args.speed)
        print(f"\nfast/slow at N={args.ratio}: ms/step at ±{fast:g} against ±{slow:g} px/s, best of "
              f"{args.ratio_rounds} interleaved rounds of {args.steps} steps")
        print(f"| engine | ±{slow:g} px/s | ±{fast:g} px/s | fast/slow |")
        print("|---|---|---|---|")
        for name, (slow_ms, fast_ms) in measure_ratio(args.ratio, slow, fast, args.steps, args.ratio_rounds).items():
            print(f"| {name} | {slow_ms:.2f} | {fast_ms:.2f} | {fast_ms / slow_ms:.2f}x |", flush=True)
    if args.plot:
        plot(args.plot, table)
        print(f"\nplot saved to {args.plot}")


if __name__ == "__main__":
    main()
