"""Each step's time of one game-like scene, ours alone: the least, 10th percentile and median.

On a shared machine a step's time swings by half from one minute to the next, and runs of two
checkouts one after the other compare the machine's minutes more than the code. Run the two at
once, each pinned to a core of its own, then swap the cores; both meet the same minutes, and
the least step of each is the one the machine disturbed least::

    (cd old && taskset -c 0 python -m benchmarks.steps --scene level) &
    (cd new && taskset -c 1 python -m benchmarks.steps --scene level) & wait

The scenes are ``benchmarks.scenes``'s (``--count`` bodies; the level is its 2,500 tiles and
300 crates), built and warmed up as there: 30 steps, then ``--steps`` steps timed one by one.
"""

from __future__ import annotations

import argparse
import time

from benchmarks.scenes import SCENES, build_world

__all__ = ["main", "step_times"]

#: Steps run before timing: the crowd falls onto the ledges, the pairs settle.
WARM_UP = 30


def step_times(scene: str, count: int, steps: int) -> list[float]:
    """Each of ``steps`` steps' wall time (s) of ``scene`` with ``count`` bodies, ascending,
    after WARM_UP steps."""
    options = argparse.Namespace(level_tiles=2500, level_crates=300)
    world, _, _ = build_world(SCENES[scene](count, options), True)
    for _ in range(WARM_UP):
        world.step(1 / 60)
    times = []
    for _ in range(steps):
        start = time.perf_counter()
        world.step(1 / 60)
        times.append(time.perf_counter() - start)
    world.close()
    return sorted(times)


def main(argv: list[str] | None = None) -> None:
    """Print one line: the scene, then the least, 10th percentile and median ms per step."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scene", choices=list(SCENES), default="level")
    parser.add_argument("--count", type=int, default=2000, help="bodies (not for the level)")
    parser.add_argument("--steps", type=int, default=300, help="steps timed")
    args = parser.parse_args(argv)
    if args.count < 1 or args.steps < 1:
        parser.error("--count and --steps must be at least 1")
    times = step_times(args.scene, args.count, args.steps)
    least, tenth, median = times[0], times[len(times) // 10], times[len(times) // 2]
    print(f"{args.scene} ms/step: least {least * 1e3:.3f}  10th percentile {tenth * 1e3:.3f}  "
          f"median {median * 1e3:.3f}")


if __name__ == "__main__":
    main()
