"""Pathological scenes: huge speeds, huge colliders, piles of overlapping bodies.

Each scene runs in its own process (so a scene that runs away cannot take the
machine with it): a time limit per scene and an address-space limit stop it,
and the table says so. For each scene: ms for the first step, mean ms per step
over the next ones, peak memory of the process (MB), and whatever the scene
checks (bodies separated, escaped). Both pipelines are run.

    python -m benchmarks.pathological                  # every scene
    python -m benchmarks.pathological --scenes pile-500 huge-static
    python -m benchmarks.pathological --timeout 60 --memory 4096
"""

from __future__ import annotations

import argparse
import json
import math
import resource
import subprocess
import sys
import time
from collections.abc import Callable

SceneResult = dict[str, object]


def _arena(world: object, side: float, wall: float = 20.0) -> None:
    """Four STATIC walls around [0, side]²."""
    from components import Collider, ColliderType, Transform

    for x, y, w, h in ((-wall, -wall, side + 2 * wall, wall), (-wall, side, side + 2 * wall, wall),
                       (-wall, 0, wall, side), (side, 0, wall, side)):
        world.create_entity(Transform((x, y)), Collider((w, h), type=ColliderType.STATIC))  # type: ignore[attr-defined]


def fast_box(speed: tuple[float, float]) -> Callable[[bool], SceneResult]:
    """One 8×8 box at ``speed`` px/s over a long floor, with a few boxes around."""
    def scene(continuous: bool) -> SceneResult:
        from components import Collider, ColliderType, Physics, Transform
        from ecs import World

        world = World(continuous=continuous)
        world.create_entity(Transform((-1e4, 100)), Collider((2e4, 20), type=ColliderType.STATIC))
        for i in range(10):
            world.create_entity(Transform((i * 30.0, 50)), Collider((8, 8)), Physics())
        world.create_entity(Transform((0, 0)), Collider((8, 8)), Physics(velocity=speed))
        return {"world": world}
    return scene


def huge_gravity(gravity: float) -> Callable[[bool], SceneResult]:
    """Gravity (g, g) px/s² on one box above a long floor."""
    def scene(continuous: bool) -> SceneResult:
        from components import Collider, ColliderType, Physics, Transform
        from ecs import World

        world = World(gravity=(gravity, gravity), continuous=continuous)
        world.create_entity(Transform((-1e4, 100)), Collider((2e4, 20), type=ColliderType.STATIC))
        world.create_entity(Transform((0, 0)), Collider((8, 8)), Physics())
        return {"world": world}
    return scene


def huge_static(continuous: bool) -> SceneResult:
    """One 1e5 × 1e5 px STATIC (a long level floor, squared) under 20 small boxes."""
    from components import Collider, ColliderType, Physics, Transform
    from ecs import World

    world = World(gravity=(0, 980), continuous=continuous)
    world.create_entity(Transform((-5e4, 100)), Collider((1e5, 1e5), type=ColliderType.STATIC))
    for i in range(20):
        world.create_entity(Transform((i * 20.0, 0)), Collider((8, 8)), Physics())
    return {"world": world}


def rattler(continuous: bool) -> SceneResult:
    """A 4×4 box at 1e6 px/s in a 200 px arena."""
    from components import Collider, Physics, Transform
    from ecs import World

    world = World(continuous=continuous)
    _arena(world, 200.0)
    world.create_entity(Transform((100, 100)), Collider((4, 4)), Physics(velocity=(1e6, 3.7e5), elasticity=1.0))
    return {"world": world, "arena": 200.0}


def pile(count: int, size: float = 8.0, track: bool = True) -> Callable[[bool], SceneResult]:
    """``count`` boxes spawned at one point inside a wide arena; ``track``
    counts the steps until no two overlap."""
    def scene(continuous: bool) -> SceneResult:
        from components import Collider, Physics, Transform
        from ecs import World

        world = World(continuous=continuous)
        _arena(world, 2000.0)
        for _ in range(count):
            world.create_entity(Transform((1000, 1000)), Collider((size, size)), Physics())
        return {"world": world, "arena": 2000.0, "track": track}
    return scene


def coins(count: int) -> Callable[[bool], SceneResult]:
    """One 40 × 40 mover over ``count`` 40 × 40 TRIGGERs (coins) spawned on
    the same spot: every coin overlaps the mover and every other coin."""
    def scene(continuous: bool) -> SceneResult:
        from components import Collider, ColliderType, Physics, Transform
        from ecs import World

        world = World(continuous=continuous)
        world.create_entity(Transform((40, 40)), Collider((40, 40)), Physics())
        for _ in range(count):
            world.create_entity(Transform((40, 40)), Collider((40, 40), type=ColliderType.TRIGGER))
        return {"world": world}
    return scene


SCENES: dict[str, Callable[[bool], SceneResult]] = {
    "speed-1e7": fast_box((1e7, 1e7)),
    "speed-1e8": fast_box((1e8, 1e8)),
    "speed-max": fast_box((1e9, 1e9)),
    "speed-1e200": fast_box((1e200, 0.0)),
    "gravity-max": huge_gravity(1e9),
    "gravity-1e308": huge_gravity(1e308),
    "huge-static": huge_static,
    "rattler-1e6": rattler,
    "pile-50": pile(50),
    "pile-100": pile(100),
    "pile-200": pile(200),
    "pile-500": pile(500),
    "cell-2000": pile(2000, 1.0, track=False),
    "pile-2000": pile(2000, track=False),
    "coins-2000": coins(2000),
}


def _overlapping_pairs(world: object, slop: float = 0.01) -> int:
    """Pairs of SOLID boxes still overlapping by more than ``slop`` px (the
    push-out's own tolerance, ``RESOLVE_SLOP``); brute
    force, for the report."""
    from components import Collider, ColliderType, Transform

    boxes = [(t.position.x + c.offset.x, t.position.y + c.offset.y, c.size.x, c.size.y)
             for _, (t, c) in world.get_components(Transform, Collider)  # type: ignore[attr-defined]
             if c.type is ColliderType.SOLID]
    boxes.sort()
    count = 0
    for i, (x, y, w, h) in enumerate(boxes):
        for ox, oy, ow, oh in boxes[i + 1:]:
            if ox >= x + w - slop:
                break
            if min(y + h, oy + oh) - max(y, oy) > slop and min(x + w, ox + ow) - max(x, ox) > slop:
                count += 1
    return count


def run_scene(name: str, continuous: bool, steps: int) -> SceneResult:
    """Build and step one scene in this process; returns the measurements."""
    from components import Physics, Transform

    try:
        built = SCENES[name](continuous)
    except ValueError as error:
        return {"rejected": str(error).split(",")[0]}
    world = built["world"]
    times = []
    separated_at = apart_at = None
    for step in range(steps):
        start = time.perf_counter()
        world.step(1 / 60)  # type: ignore[attr-defined]
        times.append((time.perf_counter() - start) * 1000)
        if built.get("track") and separated_at is None and _overlapping_pairs(world) == 0:
            separated_at = step + 1
        if built.get("track") and apart_at is None and _overlapping_pairs(world, 0.5) == 0:
            apart_at = step + 1
    result: SceneResult = {"first_ms": times[0], "mean_ms": sum(times[1:]) / max(1, len(times) - 1)}
    finite = all(math.isfinite(v) for _, t in world.get_component(Transform)  # type: ignore[attr-defined]
                 for v in (t.position.x, t.position.y))
    finite = finite and all(math.isfinite(v) for _, p in world.get_component(Physics)  # type: ignore[attr-defined]
                            for v in (p.velocity.x, p.velocity.y))
    result["finite"] = finite
    if "arena" in built:
        side = float(built["arena"])  # type: ignore[arg-type]
        movers = world.get_components(Transform, Physics)  # type: ignore[attr-defined]
        result["escaped"] = sum(1 for _, (t, _p) in movers
                                if not (0 <= t.position.x <= side and 0 <= t.position.y <= side))
    if built.get("track"):
        result["separated_at_step"] = separated_at
        result["apart_at_step"] = apart_at
    return result


def _child(name: str, continuous: bool, steps: int, memory_mb: int) -> None:
    """Entry point of the measuring subprocess: prints one JSON line."""
    limit = memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    try:
        result = run_scene(name, continuous, steps)
    except MemoryError:
        result = {"error": f"MemoryError at {memory_mb} MB"}
    result["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps(result))


def measure(name: str, continuous: bool, steps: int, timeout: float, memory_mb: int) -> SceneResult:
    """Run one scene in a subprocess with the limits; never raises."""
    command = [sys.executable, "-m", "benchmarks.pathological", "--child", name,
               "--steps", str(steps), "--memory", str(memory_mb)] + (["--continuous"] if continuous else [])
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"error": f"over {timeout:g} s"}
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if not lines:
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return {"error": tail[:60]}
    result: SceneResult = json.loads(lines[-1])
    return result


def _cell(result: SceneResult, key: str, digits: int = 1) -> str:
    value = result.get(key)
    if value is None:
        return "–"
    return f"{value:.{digits}f}" if isinstance(value, float) else str(value)


def main(argv: list[str] | None = None) -> None:
    """Print a table of every scene in both pipelines."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--scenes", nargs="+", default=list(SCENES), choices=list(SCENES))
    parser.add_argument("--steps", type=int, default=120, help="steps per scene (default 120)")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per scene (default 60)")
    parser.add_argument("--memory", type=int, default=4096, help="MB of address space per scene (default 4096)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--continuous", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        _child(args.child, args.continuous, args.steps, args.memory)
        return
    print(f"pathological scenes: {args.steps} steps each, limits {args.timeout:g} s and {args.memory} MB")
    print("| scene | pipeline | first step ms | mean ms/step | peak MB | finite | escaped "
          "| no overlap > 0.5 px at step | > 0.01 px at step | note |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name in args.scenes:
        for continuous in (True, False):
            result = measure(name, continuous, args.steps, args.timeout, args.memory)
            note = result.get("error") or result.get("rejected") or ""
            print(f"| {name} | {'swept' if continuous else 'discrete'} | {_cell(result, 'first_ms')} "
                  f"| {_cell(result, 'mean_ms')} | {_cell(result, 'peak_mb', 0)} | {_cell(result, 'finite')} "
                  f"| {_cell(result, 'escaped')} | {_cell(result, 'apart_at_step')} "
                  f"| {_cell(result, 'separated_at_step')} | {note} |", flush=True)


if __name__ == "__main__":
    main()
