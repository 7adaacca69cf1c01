"""Arena benchmark: the same bouncing-box scene through this framework and pymunk.

Our swept (continuous, the default) and discrete pipelines run side by side.

N boxes (8×8 px) start on a jittered grid inside a closed static arena whose
side grows with √N, with random velocities in ±speed px/s, elasticity 1, no
gravity and friction, dt = 1/60 s. pymunk runs the same scene (boxes with
infinite moment, elasticity 1, friction 0) in the same process. Absolute
times vary with the machine's load; compare the ratios within one run.

    pip install -e .[bench]
    python -m benchmarks.arena                 # N = 500, 1000, 2000, 4000
    python -m benchmarks.arena --speed 3000    # fast bodies: who lets them escape?
    python -m benchmarks.arena --counts 500 2000 --steps 120
"""

from __future__ import annotations

import argparse
import gc
import math
import random
import time
from dataclasses import dataclass

from components import Collider, ColliderType, Physics, Transform
from ecs import World

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


def run_ours(scene: Scene, steps: int, **world_options: object) -> tuple[float, int]:
    """ms/step and escaped bodies for this framework."""
    world = World(**world_options)  # type: ignore[arg-type]
    for x, y, w, h in wall_boxes(scene.side):
        world.create_entity(Transform((x, y)), Collider((w, h), type=ColliderType.STATIC))
    transforms = []
    for corner, velocity in zip(scene.corners, scene.velocities):
        transform = Transform(corner)
        transforms.append(transform)
        world.create_entity(transform, Collider((BOX, BOX)), Physics(velocity, elasticity=1.0))
    world.step(DT)  # warm caches outside the timing
    gc.collect()
    start = time.perf_counter()
    for _ in range(steps):
        world.step(DT)
    elapsed = time.perf_counter() - start
    centres = [(t.position.x + BOX / 2, t.position.y + BOX / 2) for t in transforms]
    world.close()
    return elapsed / steps * 1000, escaped(centres, scene.side)


def run_pymunk(scene: Scene, steps: int) -> tuple[float, int]:
    """ms/step and escaped bodies for pymunk on the same scene."""
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
    space.step(DT)
    gc.collect()
    start = time.perf_counter()
    for _ in range(steps):
        space.step(DT)
    elapsed = time.perf_counter() - start
    centres = [(b.position.x, b.position.y) for b in bodies]
    return elapsed / steps * 1000, escaped(centres, scene.side)


def main(argv: list[str] | None = None) -> None:
    """Print ms/step for both of our pipelines and pymunk, ratios, escapes."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--counts", type=int, nargs="+", default=[500, 1000, 2000, 4000])
    parser.add_argument("--steps", type=int, default=60, help="timed steps per round")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per engine; the best is shown")
    parser.add_argument("--speed", type=float, default=200.0,
                        help="initial velocities uniform in ±speed px/s, both engines (default 200)")
    args = parser.parse_args(argv)
    print(f"arena: 8x8 boxes, ±{args.speed:g} px/s, e=1, dt=1/60, best of {args.rounds} rounds "
          f"of {args.steps} steps, walls {WALL:g} px thick")
    print("| N | swept ms/step | discrete ms/step | pymunk ms/step | swept/discrete | swept/pymunk "
          "| swept µs/body | discrete µs/body | escaped swept | escaped discrete | escaped pymunk |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for count in args.counts:
        scene = make_scene(count, args.speed)
        # Interleave the engines in rounds and keep each one's best round:
        # load on the machine then hits all three alike.
        best: dict[str, tuple[float, int]] = {}
        runs = {
            "swept": lambda: run_ours(scene, args.steps, continuous=True),
            "discrete": lambda: run_ours(scene, args.steps, continuous=False),
            "pymunk": lambda: run_pymunk(scene, args.steps),
        }
        for _ in range(args.rounds):
            for name, run in runs.items():
                ms, out = run()
                best[name] = min(best.get(name, (ms, out)), (ms, out))
        (swept_ms, swept_out), (discrete_ms, discrete_out), (theirs_ms, theirs_out) = (
            best["swept"], best["discrete"], best["pymunk"])
        print(
            f"| {count} | {swept_ms:.2f} | {discrete_ms:.2f} | {theirs_ms:.2f} "
            f"| {swept_ms / discrete_ms:.2f}x | {swept_ms / theirs_ms:.1f}x "
            f"| {swept_ms * 1000 / count:.2f} | {discrete_ms * 1000 / count:.2f} "
            f"| {swept_out} | {discrete_out} | {theirs_out} |"
        )

if __name__ == "__main__":
    main()
